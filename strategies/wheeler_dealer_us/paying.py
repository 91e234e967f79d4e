"""The investor family's paying (investor.py): whether it can pay for a title, keeping its reserve or borrowing
outside whole blocks, which title it borrows on, and when a poach is a bargain. Valuations: valuation.py."""
from simkit.games.wheeler_dealer_us.view import P_LOAN
from simkit.numba_tools import uncounted
from simkit.strategies.wheeler_dealer_us.valuation import (
    B1,
    BORROW_ANY,
    BORROW_BLOCKS,
    FV,
    MINE,
    MINE_FIELDS,
    P_BLOCK,
    P_PAYOFF,
    PARAMS,
    PR_BLOCK_BUY,
    PR_BLOCK_WEIGHT,
    PR_BORROW_RULE,
    PR_POACH_RATIO,
    PR_RESERVE,
    PUB_MIN_INVEST,
    SHOWN,
    SHOWN_TABLE,
    I,
    _block,
    _fill_mine,
    _holding,
    _next_title,
    _rent,
    _value,
    _whole,
    cash,
    debt_ridden,
)

# ---- borrowing ------------------------------------------------------------------------------------------

@uncounted(I(SHOWN_TABLE, I, I, I))
def _borrow_tier(table, prop, k, debts):
    """0: outside a whole block; 1: a whole block already debt-ridden (top multiple already lost); 2: a
    whole debt-free block (borrowing loses its top multiple)."""
    if not _whole(table, prop, k):
        return 0
    return 1 if debts > 0 else 2


@uncounted(I(SHOWN, SHOWN_TABLE, FV, I, I, I, I, B1))
def _pick_borrow(public, table, memory, seat, short, min_tier, max_tier, filled):
    """The property to borrow on next: lowest tier first; in it the cheapest loan (payoff - loan) that
    covers ``short``, else the biggest loan (fewest debt-ridden titles, fewest poaching chances)."""
    pick, best = -1, 1e300
    prop = _next_title(public, memory, seat, -1)
    while prop >= 0:
        if not debt_ridden(public, prop):
            k, _, debts = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
            tier = _borrow_tier(table, prop, k, debts)
            if min_tier <= tier <= max_tier:
                loan = table[prop, P_LOAN]
                key = tier * 1e12 + ((table[prop, P_PAYOFF] - loan) if loan >= short else 1e9 - loan)
                if key < best:
                    pick, best = prop, key
        prop = _next_title(public, memory, seat, prop)
    return pick


@uncounted(I(SHOWN, SHOWN_TABLE, FV, I, B1))
def _tier0_loans(public, table, memory, seat, filled):
    """Cash that borrowing outside whole blocks would raise."""
    total = 0
    prop = _next_title(public, memory, seat, -1)
    while prop >= 0:
        if not debt_ridden(public, prop):
            k, _, _ = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
            if not _whole(table, prop, k):
                total += table[prop, P_LOAN]
        prop = _next_title(public, memory, seat, prop)
    return total


@uncounted(B1(SHOWN, SHOWN_TABLE, PARAMS, FV, I, I, B1, B1))
def _can_pay(public, table, params, memory, seat, price, advancing, bargain):
    """Pay ``price`` to the bank for a property: keeping the reserve; or keeping the next stake, for a
    bargain (a poach) or (block_buy) a property that advances a block; or borrowing for it outside whole
    blocks (borrow_rule)."""
    money = cash(public, seat)
    if money - price >= params[PR_RESERVE]:
        return True
    floor = public[PUB_MIN_INVEST]
    if (bargain or (params[PR_BLOCK_BUY] != 0 and advancing)) and money - price >= floor:
        return True
    rule = int(params[PR_BORROW_RULE])
    if rule == BORROW_ANY or (rule == BORROW_BLOCKS and advancing):
        filled = _fill_mine(public, table, seat, memory)
        return money + _tier0_loans(public, table, memory, seat, filled) - price >= floor
    return False



@uncounted(B1(SHOWN, SHOWN_TABLE, PARAMS, FV, I, I))
def _wants_poach(public, table, params, memory, seat, prop):
    """Poach when the payoff is at most poach_ratio x the worth (what the property adds to my market value,
    plus the rent poaching saves) and I can pay it."""
    payoff = table[prop, P_PAYOFF]
    k, s, _ = _holding(public, table, seat, prop)
    value = _value(table, prop, k, s, params[PR_BLOCK_WEIGHT], False)
    if payoff > params[PR_POACH_RATIO] * value:
        value += 3.5 * _rent(public, table, prop)
        if payoff > params[PR_POACH_RATIO] * value:
            return False
    return _can_pay(public, table, params, memory, seat, payoff, k >= 1, True)

