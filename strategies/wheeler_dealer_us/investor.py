"""``investor``: one parametrised family of Wheeler-Dealer (US) strategies (Exchange rule, buying and bidding,
borrowing and poaching, dealing, Level Two bumps and cards): its decisions and its parameters. The worth
of things it decides by is in valuation.py, whether it can pay and what it borrows on in paying.py, its Level
Two decisions (bumps, cards, the Bamboozle) in level_two.py; its presets are in this package's __init__."""
import numpy as np
from numba import njit

from simkit.games.wheeler_dealer_us.view import (
    A_DEAL_CASH,
    A_DEAL_MINE,
    A_DEAL_OTHER,
    A_DEAL_THEIRS,
    A_FINANCE_PROPERTY,
    A_RAISE_ITEM,
    A_RAISE_RESERVE,
    CK_BAMBOOZLE,
    CK_UNDERHANDED,
    DEAL_BUY,
    DEAL_SWAP,
    DECISION_SIGNATURE,
    FINANCE_DONE,
    FINANCE_REPAY,
    PUB_AUCTION_MIN,
    PUB_CARD_TYPES,
    PUB_COMMODITIES,
    PUB_COMMODITY_ROW,
    PUB_PLAYERS,
    PUB_SEAT,
    PUB_TURN,
    Q_BID_CARD_TYPE,
    Q_BID_PROPERTY,
    Q_BORROW_SHORT,
    Q_BUY_PROPERTY,
    Q_DEAL_CASH,
    Q_DEAL_FROM,
    Q_DEAL_MINE,
    Q_DEAL_THEIRS,
    Q_INVEST_OPTIONAL,
    Q_POACH_PROPERTY,
    Q_RAISE_SHORT,
    Q_RAISE_STEPS,
    RAISE_BORROW,
    RAISE_EXCHANGE,
    RAISE_GIVE_UP,
    RAISE_SELL,
    RAISE_SELL_CARD,
    S_ALIVE,
    S_ON_SCHOOL,
    bid_limit,
    debt_slot,
    extra_exchange_open,
    raise_may_borrow,
    saved,
    seat_field,
)
from simkit.numba_tools import uncounted
from simkit.strategies.wheeler_dealer_us.level_two import _bamboozle, _bamboozle_plan, _bump, _card
from simkit.strategies.wheeler_dealer_us.paying import _can_pay, _pick_borrow, _wants_poach
from simkit.strategies.wheeler_dealer_us.valuation import (
    B1,
    BCAP,
    BORROW_NEVER,
    FV,
    INVEST_BEST_RETURN,
    INVEST_CAUTIOUS,
    INVEST_FIXED,
    INVEST_KELLY,
    INVESTOR_ORDER,
    K_KIND,
    KELLY_SCRATCH,
    M_OFFER_PROP,
    M_RAISE_AMOUNT,
    M_RAISE_INVEST,
    M_REFUSED,
    M_REFUSED_RESET,
    M_REPAY_MIN,
    M_TRIED,
    M_TRIED_CARDS,
    MAX_SEATS,
    MINE,
    MINE_FIELDS,
    OTHER,
    OTHER_FIELDS,
    P_BLOCK,
    P_BLOCK_SIZE,
    P_COST,
    P_PAYOFF,
    PARAMS,
    PR_BID_FRACTION,
    PR_BLOCK_WEIGHT,
    PR_COMMODITY,
    PR_FRACTION,
    PR_INVEST_RULE,
    PR_LEVEL2,
    PR_PREMIUM,
    PR_PROTECT,
    PR_REPAY_FIRST,
    PR_RESERVE,
    PR_RICH,
    PR_SELL_PREMIUM,
    PR_SWAPS,
    PUB_CARD_ROW,
    PUB_MIN_INVEST,
    PUB_PROPERTIES,
    REFUSED_ROUNDS,
    SHOWN,
    SHOWN_TABLE,
    THIRD,
    WIN_WAYS,
    X_INVEST,
    X_RETURN,
    X_WAYS,
    F,
    I,
    _block,
    _card_worth,
    _debt,
    _ev,
    _fill_blocks,
    _fill_kelly_chances,
    _fill_mine,
    _growth,
    _growth_floor,
    _holding,
    _kelly_chance,
    _mask_add,
    _mask_has,
    _net_worth,
    _next_title,
    _run,
    _value,
    _whole,
    cash,
    owner,
)
from simkit.strategy import Param, Strategy, register

# ---- the Exchange -------------------------------------------------------------------------------------

@uncounted(I(SHOWN, SHOWN_TABLE, PARAMS, FV, I, F))
def _kelly(public, table, params, memory, money, bankroll):
    """Kelly: among the positive-EV stakes ``money`` pays of at most max(fraction x bankroll, smallest stake),
    the one with the best expected log growth of the bankroll (net worth: what the game scores, and what
    borrowing and selling can turn into cash), or -1. Logarithms are taken only where they can change the
    answer: the stake with the best upper bound of the growth (log1p(x) <= x - x^2/2 + x^3/3, kept in the
    scratch area) wins outright when its lower bound (_growth_floor) reaches every other stake's upper bound;
    otherwise each stake whose upper bound could still beat the best growth found has its growth computed.
    The bounds only prune: their margins (about x^4/4 and x^3/3) are thousands of ulps for any net worth
    below $100 million, so the answer is the growths' own, and the bounds need no division but one a call."""
    row = public[PUB_COMMODITY_ROW]
    cap = max(params[PR_FRACTION] * bankroll, public[PUB_MIN_INVEST])
    n = public[PUB_COMMODITIES]
    per_dollar = 1.0 / bankroll if bankroll > 0 else 0.0   # no stake is below a bankroll of 0 or less
    _fill_kelly_chances(table, memory, row, n)
    top, top_bound, runner_up = -1, -1e300, -1e300
    for c in range(n):
        stake = table[row + c, X_INVEST]
        bound = -1e300
        p = _kelly_chance(table, memory, row, c)
        if p >= 0 and stake <= cap and stake <= money and stake < bankroll:
            a = (table[row + c, X_RETURN] - stake) * per_dollar
            b = stake * per_dollar
            bound = p * (a - a * a / 2 + a * a * a * THIRD) - (1.0 - p) * (b + b * b / 2 + b * b * b * THIRD)
            if c >= KELLY_SCRATCH:
                bound = 1e300
            if bound > top_bound:
                top, top_bound, runner_up = c, bound, top_bound
            elif bound > runner_up:
                runner_up = bound
        if c < KELLY_SCRATCH:
            memory[OTHER + c] = bound
    if top < 0:
        return -1
    if runner_up <= _growth_floor(table, row + top, per_dollar):
        return top      # no other stake's growth can exceed the top's (nor tie it: a tie keeps the top)
    best, best_growth = top, _growth(table, row + top, bankroll)
    for c in range(n):
        if c != top:
            bound = memory[OTHER + c] if c < KELLY_SCRATCH else 1e300
            if bound > best_growth:
                stake = table[row + c, X_INVEST]
                if _kelly_chance(table, memory, row, c) >= 0 and stake <= cap and stake <= money and stake < bankroll:
                    growth = _growth(table, row + c, bankroll)
                    if growth > best_growth:
                        best, best_growth = c, growth
    return best


@njit(inline="always", cache=True, _nrt=False)
def _choose_commodity(public, table, params, memory, money):
    """The investing rule's commodity among the stakes ``money`` pays for (-1 if none). Inlined into _invest,
    its only caller (one call site a path): one fewer call with four arrays on every investment."""
    rule = int(params[PR_INVEST_RULE])
    row = public[PUB_COMMODITY_ROW]
    if rule == INVEST_FIXED:
        fixed = int(params[PR_COMMODITY])
        if 0 <= fixed < public[PUB_COMMODITIES] and table[row + fixed, X_INVEST] <= money:
            return fixed
    elif rule == INVEST_KELLY:
        kelly = _kelly(public, table, params, memory, money, _net_worth(public, table, memory, public[PUB_SEAT]))
        if kelly >= 0:
            return kelly
    safe_odds = rule == INVEST_CAUTIOUS and money < params[PR_RICH]
    best_return = rule == INVEST_BEST_RETURN or (rule == INVEST_CAUTIOUS and not safe_odds)
    pick, pick_ev, pick_key = -1, 0.0, 0.0
    for c in range(public[PUB_COMMODITIES]):
        stake = table[row + c, X_INVEST]
        if stake > money:
            continue
        ev = _ev(table, row + c)
        # best return: highest EV; safest: most winning totals; else the cheapest stake; ties by EV
        key = 0.0 if best_return else (float(table[row + c, X_WAYS]) if safe_odds else -float(stake))
        if pick < 0 or key > pick_key or (key == pick_key and ev > pick_ev):
            pick, pick_ev, pick_key = c, ev, key
    return pick


@uncounted(I(SHOWN, SHOWN_TABLE, I, F))
def _resurrection(public, table, money, amount):
    """Raising money: the likeliest stake whose win covers ``amount``, else the biggest profit."""
    row = public[PUB_COMMODITY_ROW]
    pick, fallback = -1, -1
    for c in range(public[PUB_COMMODITIES]):
        stake = table[row + c, X_INVEST]
        if stake > money:
            continue
        profit = table[row + c, X_RETURN] - stake
        if money + profit >= amount and (pick < 0 or table[row + c, X_WAYS] > table[row + pick, X_WAYS]):
            pick = c
        if fallback < 0 or profit > table[row + fallback, X_RETURN] - table[row + fallback, X_INVEST]:
            fallback = c
    return pick if pick >= 0 else fallback


@uncounted(DECISION_SIGNATURE)
def _invest(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    money = cash(public, seat)
    if query[Q_INVEST_OPTIONAL] == 1 and memory[M_RAISE_INVEST] != 0:  # the extra investment this strategy asked for (U6)
        memory[M_RAISE_INVEST] = 0.0
        if int(params[PR_INVEST_RULE]) == INVEST_FIXED:  # a fixed commodity stays fixed
            return _choose_commodity(public, table, params, memory, money)
        return _resurrection(public, table, money, memory[M_RAISE_AMOUNT])
    c = _choose_commodity(public, table, params, memory, money)
    if query[Q_INVEST_OPTIONAL] != 1 or c < 0:
        return c
    # optional (Trade Fair): only a profitable stake that keeps the reserve (Kelly: that grows the bankroll)
    row = public[PUB_COMMODITY_ROW] + c
    stake = table[row, X_INVEST]
    if _ev(table, row) <= 0 or money - stake < params[PR_RESERVE]:
        return -1
    if int(params[PR_INVEST_RULE]) == INVEST_KELLY:
        bankroll = _net_worth(public, table, memory, seat)
        if stake >= bankroll or _growth(table, row, bankroll) <= 0:
            return -1
    return c



@uncounted(DECISION_SIGNATURE)
def _borrow_on(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    filled = _fill_mine(public, table, seat, memory)
    return _pick_borrow(public, table, memory, seat, query[Q_BORROW_SHORT], 0, 2, filled)


@uncounted(DECISION_SIGNATURE)
def _finance(public, table, query, params, memory, state, out):
    """Never borrows here (borrowing happens only to buy, poach or pay); repays while the cash left keeps
    the reserve (repay_first) or three reserves (otherwise); repay_first repays whole blocks first."""
    seat = public[PUB_SEAT]
    money = cash(public, seat)
    first = params[PR_REPAY_FIRST] != 0
    floor = max(params[PR_RESERVE] if first else 3.0 * params[PR_RESERVE], public[PUB_MIN_INVEST])
    _fill_mine(public, table, seat, memory)
    if money - memory[M_REPAY_MIN] < floor:  # no repayment keeps the floor: most calls end here
        return FINANCE_DONE
    cheapest = -1
    debt_at = debt_slot(public, 0)
    prop = _next_title(public, memory, seat, -1)
    while prop >= 0:
        if public[debt_at + prop] != 0 and money - table[prop, P_PAYOFF] >= floor:
            if cheapest < 0 or table[prop, P_PAYOFF] < table[cheapest, P_PAYOFF]:
                cheapest = prop
        prop = _next_title(public, memory, seat, prop)
    if cheapest < 0:
        return FINANCE_DONE
    out[A_FINANCE_PROPERTY] = cheapest
    if first:
        filled = _fill_mine(public, table, seat, memory)
        best = 1e300
        prop = _next_title(public, memory, seat, -1)
        while prop >= 0:
            if public[debt_at + prop] != 0 and money - table[prop, P_PAYOFF] >= floor:
                k, _, debts = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
                # whole blocks first, the block closest to debt-free first; then blocks by progress
                key = (debts * 1e6 if _whole(table, prop, k) else 1e9 - k * 1e6) + table[prop, P_PAYOFF]
                if key < best:
                    best, out[A_FINANCE_PROPERTY] = key, prop
            prop = _next_title(public, memory, seat, prop)
    return FINANCE_REPAY


# ---- buying, bidding, poaching ------------------------------------------------------------------------

@uncounted(DECISION_SIGNATURE)
def _buy(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    prop = query[Q_BUY_PROPERTY]
    filled = _fill_mine(public, table, seat, memory)   # kept since this seat's last change, mostly
    k, _, _ = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
    return 1 if _can_pay(public, table, params, memory, seat, table[prop, P_COST], k >= 1, False) else 0



@uncounted(DECISION_SIGNATURE)
def _bid(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    prop = query[Q_BID_PROPERTY]
    money = cash(public, seat)
    room = money - params[PR_RESERVE]
    if room <= 0:
        return 0
    if prop < 0:  # a Wheeler-Dealer card for sale (U14)
        if params[PR_LEVEL2] == 0:
            return 0
        card_type = query[Q_BID_CARD_TYPE]
        kind = table[public[PUB_CARD_ROW] + card_type, K_KIND]
        if kind == CK_BAMBOOZLE or kind == CK_UNDERHANDED:  # drawn, used at once: a share of what it would win
            _, target, edge = _bamboozle_plan(public, table, params, memory, seat, kind == CK_UNDERHANDED)
            if target < 0 or edge <= 0:
                return 0
            worth = 0.25 * WIN_WAYS * edge
        else:
            worth = params[PR_BID_FRACTION] * _card_worth(public, table, card_type)
        return np.int64(max(0.0, min(worth, room, bid_limit(public, seat, query))))
    # my holdings in the block, and every other seat's (scratch per seat), in one pass
    block = table[prop, P_BLOCK]
    for i in range(2 * MAX_SEATS):
        memory[OTHER + i] = 0.0
    k, s = 0, 0.0
    lo, hi = _run(table, prop, public[PUB_PROPERTIES])
    for other in range(lo, hi + 1):
        if table[other, P_BLOCK] == block and other != prop:  # prop itself: a debtor's, on sale
            holder = owner(public, other)
            if holder == seat:
                k += 1
                s += table[other, P_COST]
            elif holder >= 0:
                memory[OTHER + 2 * holder] += 1.0
                memory[OTHER + 2 * holder + 1] += table[other, P_COST]
    weight = params[PR_BLOCK_WEIGHT]
    c = table[prop, P_COST]
    value = _value(table, prop, k, s, weight, False) - _debt(public, table, prop)
    # denial: half of what the property would add to the rival it helps most, beyond its cost
    deny = 0.0
    for other in range(public[PUB_PLAYERS]):
        if other != seat and seat_field(public, other, S_ALIVE) and memory[OTHER + 2 * other] > 0:
            extra = _value(table, prop, int(memory[OTHER + 2 * other]), memory[OTHER + 2 * other + 1], 1.0, False) - c
            deny = max(deny, extra)
    value += 0.5 * weight * deny
    bid = min(params[PR_BID_FRACTION] * value, room)
    return np.int64(bid) if bid > 0 else 0



@uncounted(DECISION_SIGNATURE)
def _poach(public, table, query, params, memory, state, out):
    return 1 if _wants_poach(public, table, params, memory, public[PUB_SEAT], query[Q_POACH_PROPERTY]) else 0


# ---- Wheeling & Dealing (U4) ----------------------------------------------------------------------------

@uncounted(DECISION_SIGNATURE)
def _deal_offer(public, table, query, params, memory, state, out):
    """Buy (or, with swaps, swap for) the rival's property worth most to my blocks: pay premium x cost
    (less its debt), never more than it is worth to me nor below the reserve; a refused property is left
    alone for a few rounds."""
    premium = params[PR_PREMIUM]
    if premium <= 0:
        return 0
    seat = public[PUB_SEAT]
    turn = public[PUB_TURN]
    last = np.int64(memory[M_OFFER_PROP]) - 1
    if last >= 0:
        if owner(public, last) != seat:
            _mask_add(memory, M_REFUSED, last)
        memory[M_OFFER_PROP] = 0.0
    if turn >= memory[M_REFUSED_RESET]:
        memory[M_REFUSED] = 0.0
        memory[M_REFUSED_RESET] = turn + REFUSED_ROUNDS * public[PUB_PLAYERS]
    money = cash(public, seat)
    budget = money - params[PR_RESERVE]
    swaps = params[PR_SWAPS] != 0
    if budget < public[PUB_MIN_INVEST] and not swaps:
        return 0
    filled = _fill_mine(public, table, seat, memory)
    weight = params[PR_BLOCK_WEIGHT]
    want, want_value = -1, 0.0
    for prop in range(public[PUB_PROPERTIES]):
        block = table[prop, P_BLOCK]
        if block < BCAP and memory[MINE + MINE_FIELDS * block] == 0:
            continue    # a block I hold nothing in (from MINE, without the checks below): most properties
        holder = owner(public, prop)
        if holder < 0 or holder == seat or _mask_has(memory, M_REFUSED, prop):
            continue
        k, s, _ = _block(public, table, memory, seat, block, MINE, MINE_FIELDS, filled)
        if k == 0 or seat_field(public, holder, S_ON_SCHOOL) or not seat_field(public, holder, S_ALIVE):
            continue
        v = _value(table, prop, k, s, weight, False) - _debt(public, table, prop)
        if v > want_value:
            want, want_value = prop, v
    if want < 0:
        return 0
    other = owner(public, want)
    c = table[want, P_COST]
    debt = _debt(public, table, want)
    kind, net = 0, 0.0
    price = min(premium * c - debt, budget, want_value)
    if price >= max(c - debt, public[PUB_AUCTION_MIN]):
        kind, net = DEAL_BUY, want_value - price
        out[A_DEAL_CASH] = np.int64(price)
    if swaps:
        # give a property of mine that is not in a whole block of mine and that the rival's blocks want
        _fill_blocks(public, table, other, memory, OTHER, OTHER_FIELDS)
        ko, so, _ = _block(public, table, memory, other, table[want, P_BLOCK], OTHER, OTHER_FIELDS, filled)
        their_loss = _value(table, want, ko, so, weight, True) - debt
        for mine in range(public[PUB_PROPERTIES]):
            if owner(public, mine) != seat:
                continue
            block = table[mine, P_BLOCK]
            km, sm, _ = _block(public, table, memory, seat, block, MINE, MINE_FIELDS, filled)
            ko, so, _ = _block(public, table, memory, other, block, OTHER, OTHER_FIELDS, filled)
            if _whole(table, mine, km) or ko == 0 or block == table[want, P_BLOCK]:
                continue
            if params[PR_PROTECT] != 0 and ko + 1 == table[mine, P_BLOCK_SIZE]:
                continue
            my_debt = _debt(public, table, mine)
            their_gain = _value(table, mine, ko, so, weight, False) - my_debt
            money_to_them = premium * their_loss - their_gain
            my_net = want_value - (_value(table, mine, km, sm, weight, True) - my_debt) - money_to_them
            if my_net <= net:
                continue
            if money_to_them >= 0 and money_to_them > budget:
                continue
            if money_to_them < 0 and -money_to_them > cash(public, other):
                continue
            kind, net = DEAL_SWAP, my_net
            out[A_DEAL_MINE] = mine
            out[A_DEAL_CASH] = np.int64(money_to_them)
    if kind == 0 or net <= 0:
        return 0
    out[A_DEAL_OTHER] = other
    out[A_DEAL_THEIRS] = want
    memory[M_OFFER_PROP] = want + 1.0
    return kind


@uncounted(DECISION_SIGNATURE)
def _deal_answer(public, table, query, params, memory, state, out):
    """Accept when what I get (cash, the property's worth to my blocks) reaches sell_premium x what I give;
    never break a whole block of mine, never (protect) hand a rival the last property of its block; buy a
    property offered to me for at most bid_fraction x its worth, keeping the reserve."""
    seat = public[PUB_SEAT]
    other, theirs, mine, money = query[Q_DEAL_FROM], query[Q_DEAL_THEIRS], query[Q_DEAL_MINE], query[Q_DEAL_CASH]
    if money < 0 and cash(public, seat) + money < params[PR_RESERVE]:
        return 0
    weight = params[PR_BLOCK_WEIGHT]
    loss, gain = 0.0, 0.0
    if mine >= 0:
        block = table[mine, P_BLOCK]
        k, s, _ = _holding(public, table, seat, mine)
        if _whole(table, mine, k):
            return 0
        if params[PR_PROTECT] != 0 and _holding(public, table, other, mine)[0] + 1 == table[mine, P_BLOCK_SIZE]:
            return 0
        loss = _value(table, mine, k, s, weight, True) - _debt(public, table, mine)
    if theirs >= 0:
        block = table[theirs, P_BLOCK]
        k, s, _ = _holding(public, table, seat, theirs)
        if mine >= 0 and table[mine, P_BLOCK] == block:
            k -= 1
            s -= table[mine, P_COST]
        gain = _value(table, theirs, k, s, weight, False) - _debt(public, table, theirs)
    if mine < 0:
        return 1 if -money <= params[PR_BID_FRACTION] * gain else 0
    return 1 if gain + money >= params[PR_SELL_PREMIUM] * max(loss, 0.0) else 0


# ---- raising money (U6, U13) ----------------------------------------------------------------------------

@uncounted(I(SHOWN, SHOWN_TABLE, FV, PARAMS, I, B1, B1))
def _pick_sale(public, table, memory, params, seat, whole, filled):
    """My least valuable property (inside or outside whole blocks) not yet offered in this raise."""
    pick, best = -1, 1e300
    prop = _next_title(public, memory, seat, -1)
    while prop >= 0:
        if not _mask_has(memory, M_TRIED, prop):
            k, s, _ = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
            if _whole(table, prop, k) == whole:
                v = _value(table, prop, k, s, params[PR_BLOCK_WEIGHT], True) - _debt(public, table, prop)
                if v < best:
                    pick, best = prop, v
        prop = _next_title(public, memory, seat, prop)
    return pick


@uncounted(DECISION_SIGNATURE)
def _raise(public, table, query, params, memory, state, out):
    """Borrow outside whole blocks; sell saved cards (reserve: half their worth); sell outside whole blocks
    (reserve: half the property's worth net of debt); borrow on whole blocks; sell anything; one extra
    Exchange gamble; give up. No borrowing on a debt that every loan together could not cover (U17(b))."""
    seat = public[PUB_SEAT]
    short = query[Q_RAISE_SHORT]
    money = cash(public, seat)
    if query[Q_RAISE_STEPS] == 0:  # a new raise
        memory[M_RAISE_AMOUNT] = short + money
        memory[M_TRIED] = 0.0
        memory[M_TRIED_CARDS] = 0.0
    filled = _fill_mine(public, table, seat, memory)
    borrowing = raise_may_borrow(public, table, seat, short)   # U17(b): closed on a hopeless debt
    for whole in (False, True):
        prop = -1
        if borrowing:
            prop = _pick_borrow(public, table, memory, seat, short, 1 if whole else 0, 2 if whole else 0, filled)
        if prop >= 0:
            out[A_RAISE_ITEM] = prop
            return RAISE_BORROW
        if not whole:
            for t in range(public[PUB_CARD_TYPES]):
                if saved(public, seat, t) > 0 and not _mask_has(memory, M_TRIED_CARDS, t):
                    _mask_add(memory, M_TRIED_CARDS, t)
                    out[A_RAISE_ITEM] = t
                    out[A_RAISE_RESERVE] = max(public[PUB_AUCTION_MIN], np.int64(0.5 * _card_worth(public, table, t)))
                    return RAISE_SELL_CARD
        prop = _pick_sale(public, table, memory, params, seat, whole, filled)
        if prop >= 0:
            _mask_add(memory, M_TRIED, prop)
            out[A_RAISE_ITEM] = prop
            worth = table[prop, P_COST] - _debt(public, table, prop)
            out[A_RAISE_RESERVE] = max(public[PUB_AUCTION_MIN], np.int64(0.5 * worth) if not whole else 0)
            return RAISE_SELL
    if extra_exchange_open(public, seat):
        memory[M_RAISE_INVEST] = 1.0
        return RAISE_EXCHANGE
    return RAISE_GIVE_UP




INVEST_RULES = ("fixed", "best-return", "kelly", "cautious")   # values of `invest_rule`, in order
BORROW_RULES = ("never", "blocks", "any")                      # values of `borrow_rule`, in order

INVESTOR_PARAMS = INVESTOR_ORDER.declare({
    "invest_rule": Param(INVEST_KELLY, kind="choice", choices=INVEST_RULES,
                         doc="which Exchange stake: the fixed `commodity` (the cheapest stake if it can't pay it); "
                             "the best expected return; Kelly, the best expected log growth of net worth among "
                             "positive-EV stakes of at most `fraction` x net worth; the safest odds while cash is "
                             "below `rich`, then the best return"),
    "commodity": Param(0, -1, 63, "int", "invest_rule fixed: the commodity, by its row of the Exchange (0 Copper; "
                                         "-1 or a row the rules lack: the cheapest stake)"),
    "fraction": Param(0.25, 0.0, 1.0, doc="invest_rule kelly: most of the net worth one stake may risk (the "
                                          "smallest stake always may)"),
    "rich": Param(300000, 0, 10_000_000, "int", "invest_rule cautious: cash ($) from which the best return "
                                                "replaces the safest odds"),
    "reserve": Param(20000, 0, 1_000_000, "int", "cash ($) kept after buying, bidding, dealing and repaying"),
    "block_weight": Param(1.0, 0.0, 5.0, doc="weight of block progress in a property's worth (1: exactly what it "
                                             "adds to the market value)"),
    "block_buy": Param(1, kind="bool", doc="buy a property that advances a block I hold keeping only the next stake "
                                           "(instead of the reserve)"),
    "bid_fraction": Param(0.8, 0.0, 3.0, doc="auction maximum: this share of the property's worth, plus half what "
                                             "it denies a rival; also the share of a card's worth bid for it"),
    "borrow_rule": Param(BORROW_NEVER, kind="choice", choices=BORROW_RULES,
                         doc="borrow to buy or poach: never, only for what advances a block I hold, or for anything"),
    "repay_first": Param(1, kind="bool", doc="repay loans keeping the reserve, whole blocks first (0: repay only "
                                             "while three reserves are left)"),
    "poach_ratio": Param(1.0, 0.0, 5.0, doc="poach when the payoff is at most this x the worth (rent saved "
                                            "included), keeping only the next stake"),
    "premium": Param(0.0, 0.0, 5.0, doc="offer up to premium x cost for a rival's property in my blocks (0: no "
                                        "offers)"),
    "sell_premium": Param(2.0, 0.0, 10.0, doc="accept an offer worth at least sell_premium x what I give is worth "
                                              "to me"),
    "protect": Param(1, kind="bool", doc="never sell or swap away the last property a rival needs for a block"),
    "swaps": Param(0, kind="bool", doc="also offer property-for-property swaps (cash either way)"),
    "level2": Param(1, kind="bool", doc="bump rivals and play saved cards (0: only extra turns and skipping "
                                        "School; a drawn Bamboozle is sold)"),
})

investor = register(Strategy.build(
    "wheeler-dealer-us", "investor",
    finance=_finance, invest=_invest, buy=_buy, bid=_bid, poach=_poach, deal_offer=_deal_offer,
    deal_answer=_deal_answer, bump=_bump, card=_card, bamboozle=_bamboozle, borrow_on=_borrow_on,
    **{"raise": _raise},
    params=INVESTOR_PARAMS,
    doc="Kelly investor that buys while it keeps one stake in reserve, bids 80% of a property's worth to its "
        "blocks, poaches bargains, never borrows to buy, makes no offers, bumps and plays its cards; every "
        "parameter of the family can be set."))
