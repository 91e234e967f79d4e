"""The investor family's Level Two decisions (investor.py): bumping rivals, saved and drawn Wheeler-Dealer cards,
the Bamboozle and how it is aimed. Valuations: valuation.py; paying: paying.py."""
import numpy as np
from numba import njit, types

from simkit.games.wheeler_dealer_us.view import (
    A_BUMP_SEAT,
    A_BUMP_SQUARE,
    A_COMBO_MOVE_SQUARE,
    A_COMBO_SEAT,
    A_COMBO_SQUARE,
    A_COMBO_USE,
    A_KEY_DESTINATION,
    A_MOVE_SEAT,
    A_MOVE_SQUARE,
    A_STAKE,
    A_TARGET,
    A_TAXI_SQUARE,
    B_KIND,
    B_PROPERTY,
    CARD_DRAWN,
    CARD_MASTER_KEY_AUDIT,
    CARD_MASTER_KEY_SCHOOL,
    CK_COMBO,
    COMBO_BAMBOOZLE,
    COMBO_DISCARD,
    COMBO_MOVE,
    COMBO_TAXI,
    DECISION_SIGNATURE,
    KEY_TAX_AUDIT,
    P_INCOME,
    PUB_BAMBOOZLE_CASH,
    PUB_CARD_TYPES,
    PUB_CARDS_LEFT,
    PUB_PLAYERS,
    PUB_SEAT,
    PUB_SQUARE_ROW,
    PUB_SQUARES,
    PUB_TRADE_FAIR_EXTRA,
    PUB_TURN,
    Q_CARD_CONTEXT,
    Q_CARD_TYPE,
    Q_MUST_USE,
    Q_UNDERHANDED,
    S_ALIVE,
    S_ON_SCHOOL,
    S_POSITION,
    SQ_CITY_HALL,
    SQ_PARK,
    SQ_PROPERTY,
    SQ_SCHOOL,
    SQ_TRADE_FAIR,
    audit_max,
    city_hall_share,
    held_in_block,
    saved_slot,
    seat_field,
)
from simkit.numba_tools import uncounted
from simkit.strategies.wheeler_dealer_us.paying import _wants_poach
from simkit.strategies.wheeler_dealer_us.valuation import (
    B1,
    BCAP,
    CK_EXTRA_TURN,
    CK_MASTER_KEY,
    CK_MOVE_ANY,
    CK_TAXI,
    FV,
    K_AMOUNT,
    K_KIND,
    M_MOVE_CHECK,
    M_REACH,
    MINE,
    MINE_FIELDS,
    MOVE_MIN,
    OTHER,
    OTHER_FIELDS,
    OUT,
    P_BLOCK,
    P_BLOCK_SIZE,
    P_COST,
    P_PAYOFF,
    PARAMS,
    PR_BLOCK_BUY,
    PR_BLOCK_WEIGHT,
    PR_LEVEL2,
    PR_RESERVE,
    PUB_CARD_ROW,
    PUB_MIN_INVEST,
    PUB_PROPERTIES,
    REACH_SQUARES,
    SHOWN,
    SHOWN_TABLE,
    TRADE_FAIR_EV,
    WIN_WAYS,
    F,
    I,
    _block,
    _debt,
    _fill_mine,
    _fill_whole,
    _occupied,
    _rent,
    _school_cost,
    _value,
    cash,
    debt_ridden,
    income_multiple,
    owner,
    park_mean,
)

# ---- aiming a Bamboozle -----------------------------------------------------------------------------------

@uncounted(types.Tuple((I, I, F))(SHOWN, SHOWN_TABLE, PARAMS, FV, I, B1))
def _bamboozle_plan(public, table, params, memory, seat, underhanded):
    """(my stake property or -1 for cash, target, gain - loss): the most valuable eligible target against my
    least valuable property; the target is -1 when there is none or no stake."""
    filled = _fill_mine(public, table, seat, memory)
    if not underhanded:
        _fill_whole(public, table, memory)
    weight = params[PR_BLOCK_WEIGHT]
    target, gain = -1, -1e300
    mine, loss = -1, 1e300
    for prop in range(public[PUB_PROPERTIES]):
        holder = owner(public, prop)
        if holder < 0:
            continue
        block = table[prop, P_BLOCK]
        k, s, _ = _block(public, table, memory, seat, block, MINE, MINE_FIELDS, filled)
        v = _value(table, prop, k, s, weight, holder == seat) - _debt(public, table, prop)
        if holder == seat:
            if v < loss:
                mine, loss = prop, v
        elif v > gain and not seat_field(public, holder, S_ON_SCHOOL):
            if not underhanded:  # a whole block is safe from a regular Bamboozle
                if block < BCAP:
                    if memory[OTHER + 2 * block] == holder:
                        continue
                elif held_in_block(public, table, holder, block) == table[prop, P_BLOCK_SIZE]:
                    continue
            target, gain = prop, v
    if mine < 0:
        if cash(public, seat) < public[PUB_BAMBOOZLE_CASH]:
            return -1, -1, 0.0
        loss = float(public[PUB_BAMBOOZLE_CASH])
    if target < 0:
        return -1, -1, 0.0
    return mine, target, gain - loss



# ---- Level Two: bumping, cards, Bamboozle ------------------------------------------------------------------

@njit(inline="always", cache=True, _nrt=False)
def _square_worth(public, table, memory, params, seat, square, money, filled):
    """Rough worth of coming to rest on a square (taxi): corners by their pay-outs, an unowned property by
    what buying it adds, my own by its income, a rival's by the rent (or the poach it allows). Inlined into
    _best_taxi's loop over the squares, where passing the four arrays cost more than most squares' worth."""
    row = public[PUB_SQUARE_ROW] + square
    kind = table[row, B_KIND]
    if kind == SQ_PARK:
        return park_mean(public)
    if kind == SQ_TRADE_FAIR:
        return TRADE_FAIR_EV if public[PUB_TRADE_FAIR_EXTRA] else 0.0
    if kind == SQ_CITY_HALL:
        return -city_hall_share(public) * money
    if kind == SQ_SCHOOL:
        return -_school_cost(public)
    prop = table[row, B_PROPERTY]
    holder = owner(public, prop)
    c = table[prop, P_COST]
    if holder == seat:
        return 3.5 * table[prop, P_INCOME]
    if holder >= 0 and not debt_ridden(public, prop):
        return -0.1 * c  # a rival's: rent to pay (never worth a ride while Park is free)
    k, s, _ = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
    value = _value(table, prop, k, s, params[PR_BLOCK_WEIGHT], False)
    if holder < 0:
        if money - c >= params[PR_RESERVE] or (params[PR_BLOCK_BUY] != 0 and k >= 1
                                                 and money - c >= public[PUB_MIN_INVEST]):
            return value - c + 0.1 * c
        return 0.0
    if _wants_poach(public, table, params, memory, seat, prop):
        return value - table[prop, P_PAYOFF]
    return -3.5 * _rent(public, table, prop)


@uncounted(types.Tuple((I, F))(SHOWN, SHOWN_TABLE, FV, PARAMS, I, I))
def _best_taxi(public, table, memory, params, seat, amount):
    """(square, worth including the card's own payment) of the best legal taxi ride, or (-1, 0)."""
    money = cash(public, seat) + amount
    if money < 0:
        return -1, 0.0
    here = seat_field(public, seat, S_POSITION)
    filled = _fill_mine(public, table, seat, memory)
    pick, best = -1, -1e300
    for square in range(public[PUB_SQUARES]):
        if square == here:
            continue
        worth = _square_worth(public, table, memory, params, seat, square, money, filled)
        if worth > best and not _occupied(public, square, seat):
            pick, best = square, worth
    return pick, best + amount


@uncounted(B1(SHOWN, SHOWN_TABLE, I, I))
def _may_be_worth(public, table, seat, square):
    """False where _landing_worth is 0 at once (a corner other than City Hall, a title not mine): the hot
    loops skip those squares without the call."""
    row = public[PUB_SQUARE_ROW] + square
    kind = table[row, B_KIND]
    return kind == SQ_CITY_HALL or (kind == SQ_PROPERTY and owner(public, table[row, B_PROPERTY]) == seat)


@njit(inline="always", cache=True, _nrt=False)
def _landing_worth(public, table, memory, seat, square, victim, filled):
    """What a rival coming to rest on ``square`` is worth to me: my rent (a debt-ridden title of mine
    invites a poach), or the City Hall tax it pays. Inlined into the loops over squares that call it."""
    row = public[PUB_SQUARE_ROW] + square
    kind = table[row, B_KIND]
    if kind == SQ_CITY_HALL:
        return 0.5 * city_hall_share(public) * cash(public, victim)
    if kind != SQ_PROPERTY:
        return 0.0
    prop = table[row, B_PROPERTY]
    if owner(public, prop) != seat:
        return 0.0
    if debt_ridden(public, prop):
        return -0.5 * table[prop, P_COST]
    k, _, debts = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
    return 3.5 * income_multiple(table, prop, k, debts)


@uncounted(I(SHOWN, I, I))
def _richest_rival(public, seat, here):
    """The rival with the most cash (on square ``here`` if here >= 0; else anywhere but School)."""
    pick = -1
    for other in range(public[PUB_PLAYERS]):
        if other == seat or not seat_field(public, other, S_ALIVE):
            continue
        if here >= 0 and seat_field(public, other, S_POSITION) != here:
            continue
        if here < 0 and seat_field(public, other, S_ON_SCHOOL):
            continue
        if pick < 0 or cash(public, other) > cash(public, pick):
            pick = other
    return pick


@uncounted(types.Tuple((I, I, F))(SHOWN, SHOWN_TABLE, FV, I))
def _best_move(public, table, memory, seat):
    """Move Any Player: the richest rival to the free property square from which its next roll pays me most.
    The squares worth something (my properties, City Hall) are listed in the scratch area first, so each
    start square sums over them instead of over all eleven rolls."""
    victim = _richest_rival(public, seat, -1)
    if victim < 0:
        return -1, -1, 0.0
    filled = _fill_mine(public, table, seat, memory)
    squares = public[PUB_SQUARES]
    sources = 0
    for square in range(squares):
        if not _may_be_worth(public, table, seat, square):
            continue
        worth = _landing_worth(public, table, memory, seat, square, victim, filled)
        if worth != 0:
            if sources < OTHER_FIELDS * BCAP // 2:
                memory[OTHER + 2 * sources] = square
                memory[OTHER + 2 * sources + 1] = worth
            sources += 1
    direct = sources > OTHER_FIELDS * BCAP // 2 or squares < 13
    spread = not direct and squares <= REACH_SQUARES
    if spread:
        # each source's worth spread onto the squares a roll reaches it from: per start square the same
        # terms added in the same order as summing over the sources, in far fewer steps
        for start in range(squares):
            memory[M_REACH + start] = 0.0
        for i in range(sources):
            target = np.int64(memory[OTHER + 2 * i])
            for roll in range(2, 13):
                start = target - roll
                if start < 0:
                    start += squares
                memory[M_REACH + start] += (6 - abs(roll - 7)) * memory[OTHER + 2 * i + 1]
    pick, best = -1, -1e300
    for start in range(squares):
        if table[public[PUB_SQUARE_ROW] + start, B_KIND] != SQ_PROPERTY:
            continue
        worth = 0.0
        if spread:
            worth = memory[M_REACH + start]
        elif direct:
            for roll in range(2, 13):
                worth += (6 - abs(roll - 7)) * _landing_worth(public, table, memory, seat, (start + roll) % squares,
                                                              victim, filled)
        else:
            for i in range(sources):
                roll = (np.int64(memory[OTHER + 2 * i]) - start) % squares
                if 2 <= roll <= 12:
                    worth += (6 - abs(roll - 7)) * memory[OTHER + 2 * i + 1]
        if worth > best and not _occupied(public, start, -1):
            pick, best = start, worth
    return victim, pick, best / 36.0


@uncounted(DECISION_SIGNATURE)
def _bump(public, table, query, params, memory, state, out):
    """Bump the richest rival here onto my best-paying free property (or City Hall, or School)."""
    if params[PR_LEVEL2] == 0:
        return 0
    seat = public[PUB_SEAT]
    victim = _richest_rival(public, seat, seat_field(public, seat, S_POSITION))
    if victim < 0:
        return 0
    filled = _fill_mine(public, table, seat, memory)
    pick, best = -1, 0.0
    for square in range(public[PUB_SQUARES]):
        kind = table[public[PUB_SQUARE_ROW] + square, B_KIND]
        if kind == SQ_PARK:
            continue
        if kind != SQ_SCHOOL and not _may_be_worth(public, table, seat, square):
            continue
        worth = 0.3 * _school_cost(public) if kind == SQ_SCHOOL else _landing_worth(public, table, memory, seat, square,
                                                                             victim, filled)
        if worth > best and not _occupied(public, square, -1):
            pick, best = square, worth
    if pick < 0:
        return 0
    out[A_BUMP_SEAT] = victim
    out[A_BUMP_SQUARE] = pick
    return 1


LATE_CARDS = 10       # a Master Key goes to the Tax Audit (EV: the Park pay-out) once this few cards are left


@uncounted(I(SHOWN, SHOWN_TABLE, FV, PARAMS, I, I, OUT))
def _use_card(public, table, memory, params, seat, card_type, out):
    """card_type with out[] set to use a saveable card now, or -1 to keep it."""
    kind = table[public[PUB_CARD_ROW] + card_type, K_KIND]
    if kind == CK_EXTRA_TURN:
        return card_type
    if params[PR_LEVEL2] == 0:
        return -1
    if kind == CK_TAXI:
        square, worth = _best_taxi(public, table, memory, params, seat,
                                   table[public[PUB_CARD_ROW] + card_type, K_AMOUNT])
        if square >= 0 and worth > 0:
            out[A_TAXI_SQUARE] = square
            return card_type
    elif kind == CK_MOVE_ANY:
        if public[PUB_TURN] < memory[M_MOVE_CHECK]:
            return -1
        victim, square, worth = _best_move(public, table, memory, seat)
        if victim >= 0 and square >= 0 and worth >= MOVE_MIN:
            out[A_MOVE_SEAT] = victim
            out[A_MOVE_SQUARE] = square
            return card_type
        memory[M_MOVE_CHECK] = public[PUB_TURN] + public[PUB_PLAYERS]  # kept: look again in a round
    elif kind == CK_MASTER_KEY:
        if public[PUB_CARDS_LEFT] <= LATE_CARDS and cash(public, seat) >= audit_max(public) + params[PR_RESERVE]:
            out[A_KEY_DESTINATION] = KEY_TAX_AUDIT
            return card_type
    return -1


@uncounted(DECISION_SIGNATURE)
def _card(public, table, query, params, memory, state, out):
    """Extra turns at once; a taxi to the best square (Park at least); Move Any Player when the rival's
    next roll likely pays me; a Master Key skips School, cancels an audit when the loss would hurt, and
    late in the game takes the audit (its Park pay-out); a Combo Platter as the best of the three.
    level2 = 0: only extra turns and skipping School; cards are kept, a Combo Platter discarded."""
    seat = public[PUB_SEAT]
    context = query[Q_CARD_CONTEXT]
    if context == CARD_MASTER_KEY_SCHOOL:
        return 1
    if context == CARD_MASTER_KEY_AUDIT:
        return 1 if params[PR_LEVEL2] != 0 and cash(public, seat) < audit_max(public) + params[PR_RESERVE] else 0
    if context == CARD_DRAWN:
        card_type = query[Q_CARD_TYPE]
        if table[public[PUB_CARD_ROW] + card_type, K_KIND] != CK_COMBO:
            return _use_card(public, table, memory, params, seat, card_type, out)
        out[A_COMBO_USE] = COMBO_DISCARD  # unless a use is worth something
        if params[PR_LEVEL2] == 0:
            return card_type
        square, best = _best_taxi(public, table, memory, params, seat, 0)
        if square >= 0 and best > 0:
            out[A_COMBO_USE], out[A_COMBO_SQUARE] = COMBO_TAXI, square
        else:
            best = 0.0
        _, target, edge = _bamboozle_plan(public, table, params, memory, seat, False)
        if target >= 0 and WIN_WAYS * edge > best:
            out[A_COMBO_USE], best = COMBO_BAMBOOZLE, WIN_WAYS * edge
        victim, square, worth = _best_move(public, table, memory, seat)
        if victim >= 0 and square >= 0 and worth >= MOVE_MIN and worth > best:
            out[A_COMBO_USE], out[A_COMBO_SEAT], out[A_COMBO_MOVE_SQUARE] = COMBO_MOVE, victim, square
        return card_type
    # step five: at most one saved card; by priority extra turn, taxi (the better-paying first), Move Any
    # Player, Master Key. One pass finds the held types.
    extra, taxi, other_taxi, move, key = -1, -1, -1, -1, -1
    row = public[PUB_CARD_ROW]
    first = saved_slot(public, seat, 0)
    for t in range(public[PUB_CARD_TYPES]):
        if public[first + t] > 0:
            kind = table[row + t, K_KIND]
            if kind == CK_EXTRA_TURN:
                extra = t
            elif kind == CK_TAXI:
                if taxi < 0 or table[row + t, K_AMOUNT] > table[row + taxi, K_AMOUNT]:
                    other_taxi, taxi = taxi, t
                else:
                    other_taxi = t
            elif kind == CK_MOVE_ANY:
                move = t
            elif kind == CK_MASTER_KEY:
                key = t
    for t in (extra, taxi, other_taxi, move, key):
        if t >= 0:
            use = _use_card(public, table, memory, params, seat, t, out)
            if use >= 0:
                return use
    out[0] = 0   # _use_card may have written a use it then declined
    out[1] = 0
    return -1


@uncounted(DECISION_SIGNATURE)
def _bamboozle(public, table, query, params, memory, state, out):
    """Stake my least valuable property (or the rules' cash stake when I own none) against the eligible property
    worth most to me, when that is worth more; one I must play (bought, or a Combo Platter) always; level2 = 0
    plays only those (a drawn one is then sold, U14)."""
    must = query[Q_MUST_USE] != 0  # bought, or a Combo Platter played as one: it is used (U16)
    if params[PR_LEVEL2] == 0 and not must:
        return 0
    mine, target, edge = _bamboozle_plan(public, table, params, memory, public[PUB_SEAT], query[Q_UNDERHANDED] != 0)
    if target < 0 or (edge <= 0 and not must):
        return 0
    out[A_STAKE] = mine
    out[A_TARGET] = target
    return 1
