"""The investor family's valuations and the caches in its memory: what a property, a holding, a card and a
stake are worth to a seat (docs/rules/wheeler-dealer-us.md "Net worth"), kept while the seat's titles and
debts are unchanged (view.holdings_version)."""
import math

import numpy as np
from numba import njit, types

from simkit.catalogue import ParamOrder
from simkit.games.wheeler_dealer_us.view import (
    CK_EXTRA_TURN,
    CK_MASTER_KEY,
    CK_MOVE_ANY,
    CK_TAXI,
    K_AMOUNT,
    K_KIND,
    MAX_SEATS,
    MEMORY_SIZE,
    P_BLOCK,
    P_BLOCK_SIZE,
    P_COST,
    P_PAYOFF,
    PUB_BLOCKS,
    PUB_CARD_ROW,
    PUB_MIN_INVEST,
    PUB_PROPERTIES,
    X_INVEST,
    X_RETURN,
    X_WAYS,
    cash,
    debt_ridden,
    debt_slot,
    holdings_version,
    income_multiple,
    occupied,
    owner,
    owner_slot,
    park_mean,
    school_mean,
    seat_net_worth,
    titles_fit,
    titles_net_worth,
)
from simkit.numba_tools import readonly_array, trailing_zeros, uncounted

# The family's helpers and decisions: compiled once each, for one explicit signature (called with literal
# constants, Numba would compile a specialisation per combination of values), and without reference counting
# (_nrt=False; the family allocates nothing): with it, every array argument costs a call into the runtime and
# back. Strategy.build keeps the decisions as compiled here, so the engine calls them directly.
I, F, B1 = types.int64, types.float64, types.boolean
# What the engine shows a strategy is read-only (view.DECISION_SIGNATURE), and the helpers take it as such;
# its memory (FV) and answer buffer (OUT) are its own to write. All C-ordered, as the engine shows them.
SHOWN, SHOWN_TABLE, PARAMS = readonly_array(I, 1, "C"), readonly_array(I, 2, "C"), readonly_array(F, 1, "C")
FV, OUT = types.Array(F, 1, "C"), types.Array(I, 1, "C")



# ---- values --------------------------------------------------------------------------------------------
#
# Values: a property is worth to a seat what it adds to the seat's market value (cost x properties held in
# the block, docs/rules/wheeler-dealer-us.md "Net worth"): its cost, plus ``block_weight`` x (its cost x the
# others held + their costs), plus ``block_weight`` x cost x block size when it completes the block (the top
# Income Multiple), minus the payoff when it comes debt-ridden. What losing a property costs is the same sum
# with it left out.

# the investor's parameter vector, in order (investor.py's INVESTOR_PARAMS declares each one); named PR_* since
# view.py's P_* are table columns
INVESTOR_ORDER = ParamOrder("invest_rule commodity fraction rich reserve block_weight block_buy bid_fraction "
                            "borrow_rule repay_first poach_ratio premium sell_premium protect swaps level2")
(PR_INVEST_RULE, PR_COMMODITY, PR_FRACTION, PR_RICH, PR_RESERVE, PR_BLOCK_WEIGHT, PR_BLOCK_BUY, PR_BID_FRACTION,
 PR_BORROW_RULE, PR_REPAY_FIRST, PR_POACH_RATIO, PR_PREMIUM, PR_SELL_PREMIUM, PR_PROTECT, PR_SWAPS,
 PR_LEVEL2) = INVESTOR_ORDER.indices()
INVEST_FIXED, INVEST_BEST_RETURN, INVEST_KELLY, INVEST_CAUTIOUS = range(4)
BORROW_NEVER, BORROW_BLOCKS, BORROW_ANY = range(3)

# memory layout (float64[MEMORY_SIZE] per seat, zeroed each game): a few fields of state, then two scratch
# areas: my holdings per block (count, cost sum, debt-ridden count), kept while they are unchanged, and
# another seat's holdings per block (count, cost sum), or per seat for one block, refilled inside a decision;
# then what is derived from my titles and debts alone, each with the key it was derived for (_holdings_key).
(M_TRIED_CARDS, M_RAISE_AMOUNT, M_TRIED, M_RAISE_INVEST, M_OFFER_PROP, M_REFUSED, M_REFUSED_RESET) = range(7)
M_MINE_BITS = M_REFUSED_RESET + 1      # my titles as bits, where the board has at most MASK_BITS properties
MINE, MINE_FIELDS = M_MINE_BITS + 1, 3
BCAP = 11                              # blocks the scratch areas hold; beyond them the slow path counts
OTHER, OTHER_FIELDS = MINE + MINE_FIELDS * BCAP, 2
KELLY_SCRATCH = 2 * BCAP            # commodities whose Kelly bound the scratch area holds
M_MOVE_CHECK = OTHER + OTHER_FIELDS * BCAP  # turn before which a kept Move Any Player card is not reconsidered
M_HOLDINGS_KEY = M_MOVE_CHECK + 1      # MINE and the three below hold my holdings for this key, with M_MINE_BITS
M_REPAY_MIN = M_HOLDINGS_KEY + 1       # the smallest payoff of my debt-ridden titles
M_WORTH_BASE = M_HOLDINGS_KEY + 2      # my net worth less my cash (view.seat_net_worth; UNKNOWN_WORTH: not asked yet)
M_DEBT_BITS = M_HOLDINGS_KEY + 3       # my debt-ridden titles as bits (as M_MINE_BITS)
M_KELLY_FILLED = M_HOLDINGS_KEY + 4    # 1 once M_KELLY_CHANCE is filled this game
M_KELLY_CHANCE = M_HOLDINGS_KEY + 5    # per commodity (the first KELLY_KEPT): its chance if its EV is positive, else -1
KELLY_KEPT = 16
M_REACH = M_KELLY_CHANCE + KELLY_KEPT  # per square, scratch of _best_move
REACH_SQUARES = MEMORY_SIZE - M_REACH  # boards up to this size use it
assert REACH_SQUARES >= 40
NO_DEBT = 1e300                        # M_REPAY_MIN when I owe nothing
UNKNOWN_WORTH = -1e300                 # M_WORTH_BASE until _net_worth asks for it after a change of my holdings
THIRD = 1.0 / 3.0                      # the Kelly bounds multiply by it: a division costs more, and they only prune
MASK_BITS = 52                         # properties a float64 bit mask holds exactly (tried sales, refused deals)
WIN_WAYS = 15.0 / 36.0                 # a Bamboozle: each side's chance to roll higher on one die
TRADE_FAIR_EV = 4000.0                 # an optional Exchange investment, roughly (when the rules offer one)
MISSED_TURN = 27000.0                  # what a missed turn costs, roughly (School's own pay-out not counted)
EXTRA_TURN_STAKES = 0.5                # an extra turn's worth, in smallest Exchange stakes (a sale's reserve)
REFUSED_ROUNDS = 8                     # a refused deal is not offered again for this many rounds
MOVE_MIN = 3000.0                      # least expected gain for which a Move Any Player card is played


@njit(inline="always", cache=True, _nrt=False)
def _school_cost(public):
    """A missed turn less School's pay-out (view.school_mean)."""
    return MISSED_TURN - school_mean(public)


@uncounted(F(SHOWN, SHOWN_TABLE, I))
def _card_worth(public, table, card_type):
    """Rough worth of holding a saved card: an extra turn, a taxi (to the Park at least, its payment
    included), a Move Any Player (the least it is played for), a Master Key (out of School)."""
    row = public[PUB_CARD_ROW] + card_type
    kind = table[row, K_KIND]
    if kind == CK_EXTRA_TURN:
        return EXTRA_TURN_STAKES * public[PUB_MIN_INVEST]
    if kind == CK_TAXI:
        return max(0.0, park_mean(public) + table[row, K_AMOUNT])
    if kind == CK_MOVE_ANY:
        return MOVE_MIN
    if kind == CK_MASTER_KEY:
        return 0.3 * _school_cost(public)
    return 0.0


@uncounted(B1(SHOWN, SHOWN_TABLE, I, FV, I, I))
def _fill_blocks(public, table, seat, memory, base, fields):
    """memory[base + fields * block + 0, 1(, 2)]: seat's count, cost sum (and debt-ridden count) per block."""
    nb = min(public[PUB_BLOCKS], BCAP)
    for i in range(base, base + fields * nb):
        memory[i] = 0.0
    for prop in range(public[PUB_PROPERTIES]):
        if owner(public, prop) == seat:
            block = table[prop, P_BLOCK]
            if block < BCAP:
                j = base + fields * block
                memory[j] += 1.0
                memory[j + 1] += table[prop, P_COST]
                if fields > 2 and debt_ridden(public, prop):
                    memory[j + 2] += 1.0
    return True


@njit(inline="always", cache=True, _nrt=False)
def _holdings_key(public, seat):
    """Tells a seat's titles and debts (view.holdings_version) from another seat's and from their earlier
    states; never 0, the value of an empty memory field."""
    return float(holdings_version(public, seat) * MAX_SEATS + seat + 1)


@njit(inline="always", cache=True, _nrt=False)
def _block(public, table, memory, seat, block, base, fields, filled):
    """(count, cost sum, debt-ridden count) of a seat's holdings in a block: from scratch when filled.
    Inlined: called in the hot loops, where passing the arrays cost more than reading the scratch."""
    if filled and block < BCAP:
        j = base + fields * block
        debts = int(memory[j + 2]) if fields > 2 else 0
        return int(memory[j]), memory[j + 1], debts
    return _count_block(public, table, seat, block)


@uncounted(types.Tuple((I, F, I))(SHOWN, SHOWN_TABLE, I, I))
def _count_block(public, table, seat, block):
    """_block's count over the whole board."""
    k, s, d = 0, 0.0, 0
    for prop in range(public[PUB_PROPERTIES]):
        if table[prop, P_BLOCK] == block and owner(public, prop) == seat:
            k += 1
            s += table[prop, P_COST]
            d += debt_ridden(public, prop)
    return k, s, d


@uncounted(B1(SHOWN, I, I))
def _occupied(public, square, except_seat):
    """view.occupied, compiled once for the family's hot loops."""
    return occupied(public, square, except_seat)


@uncounted(types.UniTuple(I, 2)(SHOWN_TABLE, I, I))
def _run(table, prop, n):
    """Index range to scan for the properties of prop's block: its run of adjacent indices when that run
    is the whole block (as in the default data), else every property."""
    block = table[prop, P_BLOCK]
    lo, hi = prop, prop
    while lo > 0 and table[lo - 1, P_BLOCK] == block:
        lo -= 1
    while hi < n - 1 and table[hi + 1, P_BLOCK] == block:
        hi += 1
    if hi - lo + 1 != table[prop, P_BLOCK_SIZE]:
        return 0, n - 1
    return lo, hi


@uncounted(types.Tuple((I, F, I))(SHOWN, SHOWN_TABLE, I, I))
def _holding(public, table, seat, prop):
    """(count, cost sum, debt-ridden count) of a seat's holdings in prop's block (prop included if held)."""
    block = table[prop, P_BLOCK]
    lo, hi = _run(table, prop, public[PUB_PROPERTIES])
    k, s, d = 0, 0.0, 0
    for other in range(lo, hi + 1):
        if table[other, P_BLOCK] == block and owner(public, other) == seat:
            k += 1
            s += table[other, P_COST]
            d += debt_ridden(public, other)
    return k, s, d


@njit(inline="always", cache=True, _nrt=False)
def _take_holding(public, table, memory, prop, cheapest):
    """_fill_mine's step for one title of the seat's."""
    block = table[prop, P_BLOCK]
    debt = debt_ridden(public, prop)
    if debt:
        cheapest = min(cheapest, float(table[prop, P_PAYOFF]))
    if block < BCAP:
        j = MINE + MINE_FIELDS * block
        memory[j] += 1.0
        memory[j + 1] += table[prop, P_COST]
        if debt:
            memory[j + 2] += 1.0
    return cheapest


@njit(inline="always", cache=True, _nrt=False)
def _fill_mine(public, table, seat, memory):
    """Unless they are there already for the seat's holdings (_holdings_key): its holdings per block into
    MINE (as _fill_blocks) and the smallest payoff of its debt-ridden titles (NO_DEBT: none); its net worth
    beyond cash is asked again (UNKNOWN_WORTH). Inlined: most calls find them there."""
    if memory[M_HOLDINGS_KEY] != _holdings_key(public, seat):
        _refresh_holdings(public, table, seat, memory)
    return True


@njit(inline="always", cache=True, _nrt=False)
def _move_holding(table, memory, prop, held, debt, sign):
    """Add (sign 1) or take out (sign -1) one title of mine in MINE, if held, with its debt flag."""
    if held:
        j = MINE + MINE_FIELDS * table[prop, P_BLOCK]
        memory[j] += sign
        memory[j + 1] += sign * table[prop, P_COST]
        if debt:
            memory[j + 2] += sign


@uncounted(types.none(SHOWN, SHOWN_TABLE, I, FV))
def _refresh_holdings(public, table, seat, memory):
    """_fill_mine's work. After the seat's first refresh of a game, on a board of at most MASK_BITS properties
    in at most BCAP blocks, only the titles whose holder or debt changed since the last refresh (the title and
    debt bits kept with it tell) are moved out of MINE and back in; otherwise one pass over all its titles.
    Whole dollars below 2**53: the sums are exact in any order, so both ways give the same values."""
    n = public[PUB_PROPERTIES]
    nb = min(public[PUB_BLOCKS], BCAP)
    # my titles among the first 63 as bits, found without a branch a property; then which of them are
    # debt-ridden, looking at those alone
    owner_at, debt_at = owner_slot(0), debt_slot(public, 0)
    mine, debts = 0, 0
    for prop in range(min(n, 63)):
        mine |= np.int64(public[owner_at + prop] == seat) << prop
    rest = mine
    while rest != 0:
        prop = trailing_zeros(rest)
        rest &= rest - 1
        debts |= np.int64(public[debt_at + prop] != 0) << prop
    cheapest = NO_DEBT
    if n <= MASK_BITS and public[PUB_BLOCKS] <= BCAP and memory[M_HOLDINGS_KEY] != 0:
        was_mine, was_debts = np.int64(memory[M_MINE_BITS]), np.int64(memory[M_DEBT_BITS])
        changed = (mine ^ was_mine) | (debts ^ was_debts)
        while changed != 0:
            prop = trailing_zeros(changed)
            changed &= changed - 1
            _move_holding(table, memory, prop, (was_mine >> prop) & 1, (was_debts >> prop) & 1, -1.0)
            _move_holding(table, memory, prop, (mine >> prop) & 1, (debts >> prop) & 1, 1.0)
        rest = debts
        while rest != 0:
            prop = trailing_zeros(rest)
            rest &= rest - 1
            cheapest = min(cheapest, float(table[prop, P_PAYOFF]))
    else:
        for i in range(MINE, MINE + MINE_FIELDS * nb):
            memory[i] = 0.0
        rest = mine
        while rest != 0:    # taken in index order
            prop = trailing_zeros(rest)
            rest &= rest - 1
            cheapest = _take_holding(public, table, memory, prop, cheapest)
        for prop in range(63, n):
            if owner(public, prop) == seat:
                cheapest = _take_holding(public, table, memory, prop, cheapest)
    memory[M_MINE_BITS] = float(mine) if n <= MASK_BITS else 0.0
    memory[M_DEBT_BITS] = float(debts) if n <= MASK_BITS else 0.0
    memory[M_REPAY_MIN] = cheapest
    memory[M_WORTH_BASE] = UNKNOWN_WORTH
    memory[M_HOLDINGS_KEY] = _holdings_key(public, seat)


@njit(inline="always", cache=True, _nrt=False)
def _next_title(public, memory, seat, after):
    """The first of the seat's titles after property ``after`` (-1: from the first), or -1 when none is left:
    from M_MINE_BITS (_fill_mine first), or by scanning the board where it has more than MASK_BITS properties.
    The decisions that look only at their own titles walk them so, in index order, rather than every property."""
    n = public[PUB_PROPERTIES]
    if n <= MASK_BITS:
        rest = np.int64(memory[M_MINE_BITS]) >> (after + 1)
        return -1 if rest == 0 else after + 1 + trailing_zeros(rest)
    for prop in range(after + 1, n):
        if owner(public, prop) == seat:
            return prop
    return -1


@uncounted(F(SHOWN_TABLE, I, I, F, F, B1))
def _value(table, prop, k, s, weight, held):
    """What ``prop`` adds to a seat holding k properties of its block costing s (prop among them if held)."""
    c = table[prop, P_COST]
    if held:
        k -= 1
        s -= c
    v = c + weight * (c * k + s)
    size = table[prop, P_BLOCK_SIZE]
    if k + 1 == size:
        v += weight * c * size
    return v


@uncounted(I(SHOWN, SHOWN_TABLE, I))
def _debt(public, table, prop):
    return table[prop, P_PAYOFF] if debt_ridden(public, prop) else 0


@uncounted(B1(SHOWN_TABLE, I, I))
def _whole(table, prop, k):
    return k == table[prop, P_BLOCK_SIZE]


# ---- the Exchange -------------------------------------------------------------------------------------

@uncounted(F(SHOWN_TABLE, I))
def _ev(table, row):
    return table[row, X_WAYS] / 36.0 * table[row, X_RETURN] - table[row, X_INVEST]


@uncounted(F(SHOWN_TABLE, I, F))
def _growth(table, row, bankroll):
    """Expected log growth of a bankroll from one stake (Kelly)."""
    stake = table[row, X_INVEST]
    p = table[row, X_WAYS] / 36.0
    return p * math.log1p((table[row, X_RETURN] - stake) / bankroll) + (1.0 - p) * math.log1p(-stake / bankroll)


@njit(inline="always", cache=True, _nrt=False)
def _gainful_chance(table, row):
    """A commodity's chance to win (its X_WAYS / 36) if its expected return is positive, else -1."""
    return table[row, X_WAYS] / 36.0 if _ev(table, row) > 0 else -1.0


@njit(inline="always", cache=True, _nrt=False)
def _kelly_chance(table, memory, row, c):
    """Commodity c's _gainful_chance: kept in memory for the first KELLY_KEPT commodities once a game
    (_fill_kelly_chances), as the table is fixed."""
    if c < KELLY_KEPT:
        return memory[M_KELLY_CHANCE + c]
    return _gainful_chance(table, row + c)


@njit(inline="always", cache=True, _nrt=False)
def _fill_kelly_chances(table, memory, row, n):
    """Keep the first KELLY_KEPT commodities' _gainful_chance, once a game."""
    if memory[M_KELLY_FILLED] == 0:
        for c in range(min(n, KELLY_KEPT)):
            memory[M_KELLY_CHANCE + c] = _gainful_chance(table, row + c)
        memory[M_KELLY_FILLED] = 1.0


@uncounted(F(SHOWN_TABLE, I, F))
def _growth_floor(table, row, per_dollar):
    """A lower bound of _growth for a bankroll of 1 / per_dollar, without logarithms: log1p(a) >= a - a^2/2
    for a >= 0, and -log1p(-b) <= b + b^2/2 + b^3/3 + b^4/2 for 0 <= b <= 1/2 (-1e300 beyond)."""
    stake = table[row, X_INVEST]
    b = stake * per_dollar
    if b > 0.5:
        return -1e300
    p = table[row, X_WAYS] / 36.0
    a = (table[row, X_RETURN] - stake) * per_dollar
    return p * (a - a * a / 2) - (1.0 - p) * (b + b * b / 2 + b * b * b * THIRD + b * b * b * b / 2)


@uncounted(F(SHOWN, SHOWN_TABLE, FV, I))
def _net_worth(public, table, memory, seat):
    """The seat's net worth (view.seat_net_worth), its part beyond cash kept while the seat's titles and debts
    are unchanged (exact: whole dollars below 2**53); valued from the title bits _fill_mine keeps where it keeps
    them (view.titles_net_worth)."""
    _fill_mine(public, table, seat, memory)
    if memory[M_WORTH_BASE] == UNKNOWN_WORTH:
        if public[PUB_PROPERTIES] <= MASK_BITS and titles_fit(public):
            worth = titles_net_worth(public, table, seat, np.int64(memory[M_MINE_BITS]))
        else:
            worth = seat_net_worth(public, table, seat)
        memory[M_WORTH_BASE] = worth - cash(public, seat)
    return float(cash(public, seat)) + memory[M_WORTH_BASE]


@uncounted(types.none(SHOWN, SHOWN_TABLE, FV))
def _fill_whole(public, table, memory):
    """memory[OTHER + 2 * block]: the seat holding the whole block, or a negative number."""
    nb = min(public[PUB_BLOCKS], BCAP)
    for block in range(nb):
        memory[OTHER + 2 * block] = -3.0
    for prop in range(public[PUB_PROPERTIES]):
        block = table[prop, P_BLOCK]
        if block < BCAP:
            holder = owner(public, prop)
            current = memory[OTHER + 2 * block]
            if current == -3.0:
                memory[OTHER + 2 * block] = holder
            elif current != holder:
                memory[OTHER + 2 * block] = -2.0


@uncounted(I(SHOWN, SHOWN_TABLE, I))
def _rent(public, table, prop):
    """Income Multiple a visitor pays on a held property (view.rent_multiple over the block's run only)."""
    k, _, debts = _holding(public, table, owner(public, prop), prop)
    return income_multiple(table, prop, k, debts)


@uncounted(B1(FV, I, I))
def _mask_has(memory, slot, prop):
    return prop >= MASK_BITS or (np.int64(memory[slot]) >> prop) & 1 == 1


@uncounted(types.none(FV, I, I))
def _mask_add(memory, slot, prop):
    if prop < MASK_BITS:
        memory[slot] = float(np.int64(memory[slot]) | (np.int64(1) << prop))
