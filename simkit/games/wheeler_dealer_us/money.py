"""Money: loans (U5, U13), the Exchange (step 1, the Trade Fair, the extra investment of U6), paying a debt,
raising money for it (U6, U16) and bankruptcy."""
from ...numba_tools import context_helper
from .auctions import _auction, _sell_card
from .rules import RULE_DATA
from .state import (
    E_BANKRUPT,
    E_BORROW,
    E_INVEST,
    E_PAY,
    E_REPAY,
    EXCHANGE_ROW,
    N_STATS,
    S_BANKRUPT_TURN,
    S_EXCHANGE_PROFIT,
    S_LOANS,
    S_REPAID,
    ST_STATS,
    B,
    I,
    _add_cash,
    _cash,
    _decide,
    _die,
    _illegal,
    _invest_at,
    _log,
    _out,
    _public,
    _rules,
    _set_debt,
    _set_owner,
    _state,
    _table,
    _transfer,
    _tried,
    _won_at,
    none,
)
from .view import (
    A_RAISE_ITEM,
    A_RAISE_RESERVE,
    B_PROPERTY,
    D_BORROW_ON,
    D_INVEST,
    D_RAISE,
    MAX_MONEY,
    P_LOAN,
    P_PAYOFF,
    PUB_CARD_TYPES,
    PUB_COMMODITIES,
    PUB_COMMODITY_ROW,
    PUB_PROPERTIES,
    PUB_SQUARE_ROW,
    PUB_SQUARES,
    PUB_TURN,
    RAISE_BORROW,
    RAISE_EXCHANGE,
    RAISE_GIVE_UP,
    RAISE_SELL,
    RAISE_SELL_CARD,
    S_ALIVE,
    S_EXTRA_EXCHANGE,
    S_MISSES_TURN,
    S_ON_SCHOOL,
    X_INVEST,
    X_MASK,
    X_RETURN,
    extra_exchange_open,
    may_borrow,
    may_repay,
    owner_slot,
    raise_may_borrow,
    saved_slot,
    seat_slot,
)

# The rule options this module plays: their slots in the rule vector (rules.RULE_DATA declares them).
R_AUCTION_MIN = RULE_DATA.slot("game.auction_min_bid")

# ---- loans (U5, U13) ----------------------------------------------------------------------------------


@context_helper(B, I, I)
def _borrow(ctx, seat, prop):
    public, table = _public(ctx), _table(ctx)
    if not may_borrow(public, seat, prop):
        return False
    _set_debt(public, prop, 1)
    _add_cash(ctx, seat, table[prop, P_LOAN], True)
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_LOANS] += 1
    _log(ctx, seat, E_BORROW, prop, table[prop, P_LOAN], 0, 0)
    return True


@context_helper(B, I, I)
def _repay(ctx, seat, prop):
    public, table = _public(ctx), _table(ctx)
    if not may_repay(public, table, seat, prop):
        return False
    _set_debt(public, prop, 0)
    _add_cash(ctx, seat, -table[prop, P_PAYOFF], True)
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_REPAID] += 1
    _log(ctx, seat, E_REPAY, prop, table[prop, P_PAYOFF], 0, 0)
    return True


@context_helper(none, I, I)
def _forced_borrowing(ctx, seat, amount):
    """U13: nobody goes bankrupt (or misses a purchase it wants) while it could still borrow; the
    strategy orders the properties (a refused answer: the first one it may borrow on, for that step).
    U16: a debtor that could not reach ``amount`` even by borrowing on every title borrows nothing."""
    public = _public(ctx)
    if _cash(public, seat) >= amount:
        return
    if not raise_may_borrow(public, _table(ctx), seat, amount - _cash(public, seat)):
        return
    n = public[PUB_PROPERTIES]
    for _ in range(n):  # each pass borrows on one title, and the loans cover the amount
        if _cash(public, seat) >= amount:
            return
        prop = _decide(ctx, D_BORROW_ON, seat, amount - _cash(public, seat), 0, 0, 0, 0)
        if not _borrow(ctx, seat, prop):
            _illegal(ctx, seat, D_BORROW_ON)
            for other in range(n):
                if _borrow(ctx, seat, other):
                    break


# ---- the Exchange -------------------------------------------------------------------------------------


@context_helper(none, I, B, I)
def _invest(ctx, seat, optional, short):
    """One investment; ``short`` > 0: an extra one to raise money (U6), still that many dollars short. A
    refused answer: an optional investment is declined, a compulsory one is the cheapest stake."""
    public, table = _public(ctx), _table(ctx)
    row = public[PUB_COMMODITY_ROW]
    choice = _decide(ctx, D_INVEST, seat, 1 if optional else 0, 1 if short > 0 else 0, short, 0, 0)
    if choice == -1 and optional:
        return
    cash = _cash(public, seat)
    if choice < 0 or choice >= public[PUB_COMMODITIES] or table[row + choice, X_INVEST] > cash:
        _illegal(ctx, seat, D_INVEST)
        if optional:
            return
        choice = -1
        for c in range(public[PUB_COMMODITIES]):
            if table[row + c, X_INVEST] <= cash and (choice < 0 or table[row + c, X_INVEST] < table[row + choice, X_INVEST]):
                choice = c
        if choice < 0:
            return
    stake = table[row + choice, X_INVEST]
    _add_cash(ctx, seat, -stake, True)
    total = _die(ctx, EXCHANGE_ROW + seat) + _die(ctx, EXCHANGE_ROW + seat)
    _state(ctx)[_invest_at(ctx, seat, choice)] += 1
    won = (table[row + choice, X_MASK] >> total) & 1
    if won:
        _add_cash(ctx, seat, table[row + choice, X_RETURN], True)
        _state(ctx)[_won_at(ctx, seat, choice)] += 1
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_EXCHANGE_PROFIT] += table[row + choice, X_RETURN] - stake
    else:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_EXCHANGE_PROFIT] -= stake
    _log(ctx, seat, E_INVEST, choice, total, won, stake)


# ---- raising money (U6), bankruptcy, paying -----------------------------------------------------------

@context_helper(none, I, I, I)
def _raise_money(ctx, seat, amount, creditor):
    """U6: the strategy borrows, sells properties and saved cards to players (U14, each once a raise) and
    may make its one extra Exchange investment of the turn. U17(b): borrowing is refused while the debt is
    beyond cash plus every loan still open (view.raise_may_borrow). U16: a refused answer is counted and the
    strategy asked again; it is asked at most twice as often as there can be steps."""
    public, rules = _public(ctx), _rules(ctx)
    n = public[PUB_PROPERTIES]
    tried = _tried(ctx)
    tried[:] = 0
    steps = 0
    most = 2 * n + public[PUB_CARD_TYPES] + 2
    for _ in range(2 * most):
        short = amount - _cash(public, seat)
        if short <= 0:
            return
        action = _decide(ctx, D_RAISE, seat, short, creditor, steps, 0, 0)
        out = _out(ctx)
        item, reserve = out[A_RAISE_ITEM], out[A_RAISE_RESERVE]
        if action == RAISE_GIVE_UP:
            return
        done = False
        if action == RAISE_BORROW:  # U17(b): closed to a hopeless debtor
            done = raise_may_borrow(public, _table(ctx), seat, short) and _borrow(ctx, seat, item)
        elif action == RAISE_SELL:
            if (0 <= reserve <= MAX_MONEY and 0 <= item < n and public[owner_slot(item)] == seat
                    and not tried[item]):
                tried[item] = 1
                _auction(ctx, item, seat, max(reserve, rules[R_AUCTION_MIN]), False, creditor)
                done = True
        elif action == RAISE_SELL_CARD:
            if (0 <= reserve <= MAX_MONEY and 0 <= item < public[PUB_CARD_TYPES]
                    and public[saved_slot(public, seat, item)] > 0 and not tried[n + item]):
                tried[n + item] = 1
                _sell_card(ctx, seat, item, max(reserve, rules[R_AUCTION_MIN]), False, creditor)
                done = True
        elif action == RAISE_EXCHANGE:
            if extra_exchange_open(public, seat):
                public[seat_slot(seat, S_EXTRA_EXCHANGE)] = 1
                _invest(ctx, seat, True, short)
                done = True
        if done:
            steps += 1
        else:
            _illegal(ctx, seat, D_RAISE)


@context_helper(none, I, I)
def _bankrupt(ctx, seat, creditor):
    """U6: a player creditor takes everything (debts stay with the properties); the bank takes the cash,
    discards saved cards and auctions each property in square order (U3, U15)."""
    public, table = _public(ctx), _table(ctx)
    _log(ctx, seat, E_BANKRUPT, creditor, _cash(public, seat), 0, 0)
    _transfer(ctx, seat, _cash(public, seat), creditor)
    public[seat_slot(seat, S_ALIVE)] = 0
    public[seat_slot(seat, S_ON_SCHOOL)] = 0
    public[seat_slot(seat, S_MISSES_TURN)] = 0
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_BANKRUPT_TURN] = public[PUB_TURN]
    for t in range(public[PUB_CARD_TYPES]):
        if creditor >= 0:
            public[saved_slot(public, creditor, t)] += public[saved_slot(public, seat, t)]
        public[saved_slot(public, seat, t)] = 0
    for square in range(public[PUB_SQUARES]):  # square order
        prop = table[public[PUB_SQUARE_ROW] + square, B_PROPERTY]
        if prop >= 0 and public[owner_slot(prop)] == seat:
            if creditor >= 0:
                _set_owner(public, prop, creditor)
            else:
                _set_owner(public, prop, -1)
                _auction(ctx, prop, -1, _rules(ctx)[R_AUCTION_MIN], True, -1)


@context_helper(I, I, I, I)
def _pay_handed_over(ctx, payer, amount, creditor):
    """Pay a debt, raising money first if short (U6); returns the money that changed hands (U17(d)): the
    amount, or the cash a payer going bankrupt hands over."""
    public = _public(ctx)
    if amount <= 0:
        return 0
    if _cash(public, payer) < amount:
        _raise_money(ctx, payer, amount, creditor)
        _forced_borrowing(ctx, payer, amount)
    if _cash(public, payer) >= amount:
        _transfer(ctx, payer, amount, creditor)
        _log(ctx, payer, E_PAY, amount, creditor, 0, 0)
        return amount
    handed = _cash(public, payer)
    _bankrupt(ctx, payer, creditor)
    return handed


@context_helper(B, I, I, I)
def _pay(ctx, payer, amount, creditor):
    """Pay a debt (_pay_handed_over); returns False if the payer went bankrupt."""
    _pay_handed_over(ctx, payer, amount, creditor)
    return _public(ctx)[seat_slot(payer, S_ALIVE)] != 0


@context_helper(B, I, I)
def _pay_check(ctx, seat, amount):
    """Raise cash up to ``amount`` without paying it (the Exchange stake); bankrupt to the bank if impossible."""
    public = _public(ctx)
    _raise_money(ctx, seat, amount, -1)
    _forced_borrowing(ctx, seat, amount)
    if _cash(public, seat) >= amount:
        return True
    _bankrupt(ctx, seat, -1)
    return False
