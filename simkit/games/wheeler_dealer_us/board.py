"""The board: a token coming to rest on a square (step 3): buying or auctioning a bank's property, income
from one's own, rent or a poach (U7) on another's, and the corners (U9)."""
from ...numba_tools import context_helper, inlined
from .auctions import _auction
from .money import R_AUCTION_MIN, _forced_borrowing, _invest, _pay_handed_over
from .rules import RULE_DATA
from .state import (
    E_BUY,
    E_CITY_HALL,
    E_OWN_INCOME,
    E_PARK,
    E_POACH,
    E_RENT,
    E_SCHOOL,
    EXTRA_DICE_ROW,
    N_STATS,
    S_BOUGHT,
    S_CITY_HALL_VISITS,
    S_DECLINED_THEN_WON,
    S_PARK_VISITS,
    S_POACHED,
    S_POACHES,
    S_RENT_PAID,
    S_RENT_RECEIVED,
    S_SCHOOL_STAYS,
    S_TRADE_FAIR_VISITS,
    ST_STATS,
    B,
    I,
    _add_cash,
    _cash,
    _count,
    _decide,
    _die,
    _illegal,
    _landings_at,
    _log,
    _members,
    _public,
    _rules,
    _set_debt,
    _set_owner,
    _state,
    _table,
    none,
)
from .view import (
    B_KIND,
    B_PROPERTY,
    D_BUY,
    D_POACH,
    MAX_BLOCK,
    P_BLOCK,
    P_COST,
    P_INCOME,
    P_PAYOFF,
    PUB_SCHOOL_SQUARE,
    PUB_SQUARE_ROW,
    S_MISSES_TURN,
    S_ON_SCHOOL,
    S_POSITION,
    SQ_CITY_HALL,
    SQ_PARK,
    SQ_PROPERTY,
    SQ_SCHOOL,
    SQ_TRADE_FAIR,
    debt_slot,
    income_multiple,
    owner_slot,
    seat_slot,
)

# The rule options this module plays: their slots in the rule vector (rules.RULE_DATA declares them).
R_CITY_HALL_PERCENT = RULE_DATA.slot("corners.city_hall_cash_percent")
R_PARK_PER_PIP = RULE_DATA.slot("corners.park_collect_per_pip")
R_SCHOOL_PER_PIP = RULE_DATA.slot("corners.school_collect_per_pip")
R_TRADE_FAIR_EXTRA = RULE_DATA.slot("corners.trade_fair_extra_investment")


@context_helper(none, I, I, B)
def _place(ctx, seat, square, counts_as_landing):
    public = _public(ctx)
    public[seat_slot(seat, S_POSITION)] = square
    public[seat_slot(seat, S_ON_SCHOOL)] = 1 if square == public[PUB_SCHOOL_SQUARE] else 0
    if counts_as_landing:
        _state(ctx)[_landings_at(ctx) + square] += 1


@context_helper(B, I, I, I, B)
def _acquire(ctx, seat, prop, amount, poach):
    """Pay the bank ``amount`` for a property (borrowing if short, U13); False if it can't."""
    public = _public(ctx)
    if _cash(public, seat) < amount:
        _forced_borrowing(ctx, seat, amount)
    if _cash(public, seat) < amount:
        return False
    _add_cash(ctx, seat, -amount, True)
    previous = public[owner_slot(prop)]
    _set_owner(public, prop, seat)
    _set_debt(public, prop, 0)
    if poach:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_POACHES] += 1
        _state(ctx)[ST_STATS + (previous) * N_STATS + S_POACHED] += 1
        _log(ctx, seat, E_POACH, prop, amount, previous, 0)
    else:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_BOUGHT] += 1
        _log(ctx, seat, E_BUY, prop, amount, 0, 0)
    return True


@inlined
def _rent_multiple(public, table, members, prop):
    """view.rent_multiple, counting over the property's block only."""
    holder = public[owner_slot(prop)]
    block = table[prop, P_BLOCK]
    held, debts = 0, 0
    for i in range(block * MAX_BLOCK, block * MAX_BLOCK + MAX_BLOCK):
        other = members[i]
        if other < 0:
            break
        if public[owner_slot(other)] == holder:
            held += 1
            debts += public[debt_slot(public, other)] != 0
    return income_multiple(table, prop, held, debts)


@context_helper(none, I, I, B)
def _visit_owned(ctx, seat, prop, may_poach):
    """Another player's property: poach a debt-ridden one (U7, before the rent roll), else roll and pay."""
    public, table = _public(ctx), _table(ctx)
    holder = public[owner_slot(prop)]
    if may_poach and public[debt_slot(public, prop)]:
        answer = _decide(ctx, D_POACH, seat, prop, 0, 0, 0, 0)
        if answer == 1:
            if _acquire(ctx, seat, prop, table[prop, P_PAYOFF], True):
                return
        elif answer != 0:
            _illegal(ctx, seat, D_POACH)
    die = _die(ctx, EXTRA_DICE_ROW + seat)
    rent = _rent_multiple(public, table, _members(ctx), prop) * die
    _log(ctx, seat, E_RENT, prop, die, rent, holder)
    handed = _pay_handed_over(ctx, seat, rent, holder)  # U17(d): the money that changed hands
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_RENT_PAID] += handed
    _state(ctx)[ST_STATS + (holder) * N_STATS + S_RENT_RECEIVED] += handed


@context_helper(B, I, I)
def _land(ctx, seat, square):
    """Act on the square a token came to rest on. Returns True if the turn ends here (School)."""
    public, table, rules = _public(ctx), _table(ctx), _rules(ctx)
    kind = table[public[PUB_SQUARE_ROW] + square, B_KIND]
    if kind == SQ_PROPERTY:
        prop = table[public[PUB_SQUARE_ROW] + square, B_PROPERTY]
        holder = public[owner_slot(prop)]
        if holder < 0:
            cost = table[prop, P_COST]
            bought = False
            answer = _decide(ctx, D_BUY, seat, prop, 0, 0, 0, 0)
            if answer == 1:
                bought = _acquire(ctx, seat, prop, cost, False)
            elif answer != 0:
                _illegal(ctx, seat, D_BUY)
            if not bought:
                winner = _auction(ctx, prop, -1, rules[R_AUCTION_MIN], False, -1)
                if winner == seat:
                    _state(ctx)[ST_STATS + (seat) * N_STATS + S_DECLINED_THEN_WON] += 1
        elif holder == seat:
            die = _die(ctx, EXTRA_DICE_ROW + seat)
            _add_cash(ctx, seat, table[prop, P_INCOME] * die, True)  # U8: the smallest multiple
            _log(ctx, seat, E_OWN_INCOME, prop, die, table[prop, P_INCOME] * die, 0)
        else:
            _visit_owned(ctx, seat, prop, True)
    elif kind == SQ_PARK:
        die = _die(ctx, EXTRA_DICE_ROW + seat)
        _add_cash(ctx, seat, rules[R_PARK_PER_PIP] * die, True)
        _log(ctx, seat, E_PARK, die, rules[R_PARK_PER_PIP] * die, 0, 0)
        _count(ctx, seat, S_PARK_VISITS)
    elif kind == SQ_CITY_HALL:
        amount = _cash(public, seat) * rules[R_CITY_HALL_PERCENT] // 100
        _add_cash(ctx, seat, -amount, True)
        _log(ctx, seat, E_CITY_HALL, amount, 0, 0, 0)
        _count(ctx, seat, S_CITY_HALL_VISITS)
    elif kind == SQ_SCHOOL:
        die = _die(ctx, EXTRA_DICE_ROW + seat)
        _add_cash(ctx, seat, rules[R_SCHOOL_PER_PIP] * die, True)
        public[seat_slot(seat, S_MISSES_TURN)] = 1
        _log(ctx, seat, E_SCHOOL, die, rules[R_SCHOOL_PER_PIP] * die, 0, 0)
        _count(ctx, seat, S_SCHOOL_STAYS)
        return True
    elif kind == SQ_TRADE_FAIR:
        _count(ctx, seat, S_TRADE_FAIR_VISITS)
        if rules[R_TRADE_FAIR_EXTRA]:
            _invest(ctx, seat, True, 0)
    return False
