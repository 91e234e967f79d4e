"""``random``: the Wheeler-Dealer (US) baseline, uniform over the legal answers at every decision."""
import numpy as np
from numba import njit

from simkit import rng
from simkit.games.wheeler_dealer_us.view import (
    A_BUMP_SEAT,
    A_BUMP_SQUARE,
    A_COMBO_MOVE_SQUARE,
    A_COMBO_SEAT,
    A_COMBO_SQUARE,
    A_COMBO_USE,
    A_DEAL_CASH,
    A_DEAL_MINE,
    A_DEAL_OTHER,
    A_DEAL_THEIRS,
    A_FINANCE_PROPERTY,
    A_KEY_DESTINATION,
    A_MOVE_SEAT,
    A_MOVE_SQUARE,
    A_RAISE_ITEM,
    A_RAISE_RESERVE,
    A_STAKE,
    A_TARGET,
    A_TAXI_SQUARE,
    B_KIND,
    CARD_DRAWN,
    CARD_STEP5,
    CK_COMBO,
    CK_EXTRA_TURN,
    CK_MASTER_KEY,
    CK_MOVE_ANY,
    CK_TAXI,
    COMBO_BAMBOOZLE,
    COMBO_DISCARD,
    COMBO_MOVE,
    COMBO_TAXI,
    DEAL_BUY,
    DEAL_SELL,
    FINANCE_BORROW,
    FINANCE_DONE,
    FINANCE_REPAY,
    K_AMOUNT,
    K_KIND,
    PUB_AUCTION_MIN,
    PUB_BAMBOOZLE_CASH,
    PUB_CARD_ROW,
    PUB_CARD_TYPES,
    PUB_COMMODITIES,
    PUB_COMMODITY_ROW,
    PUB_PLAYERS,
    PUB_PROPERTIES,
    PUB_SEAT,
    PUB_SQUARE_ROW,
    PUB_SQUARES,
    Q_CARD_CONTEXT,
    Q_CARD_TYPE,
    Q_INVEST_OPTIONAL,
    Q_MUST_USE,
    Q_RAISE_SHORT,
    Q_RAISE_STEPS,
    Q_UNDERHANDED,
    RAISE_BORROW,
    RAISE_EXCHANGE,
    RAISE_GIVE_UP,
    RAISE_SELL,
    RAISE_SELL_CARD,
    S_ALIVE,
    S_ON_SCHOOL,
    S_POSITION,
    SQ_PARK,
    SQ_PROPERTY,
    X_INVEST,
    bamboozle_target_ok,
    bid_limit,
    can_bamboozle,
    cash,
    extra_exchange_open,
    may_borrow,
    may_repay,
    occupied,
    owner,
    owns_property,
    raise_may_borrow,
    saved,
    seat_field,
)
from simkit.strategy import Strategy, register

OWNED, BORROWABLE, REPAYABLE = 0, 1, 2   # _nth_property's tests

@njit(cache=True)
def _nth_property(public, seat, n, mode, table):
    """The n-th property (in index order) of ``seat`` passing the mode's test, or the count when n < 0.
    mode: OWNED, BORROWABLE (view.may_borrow) or REPAYABLE (view.may_repay)."""
    count = 0
    for prop in range(public[PUB_PROPERTIES]):
        ok = owner(public, prop) == seat
        if mode == BORROWABLE:
            ok = may_borrow(public, seat, prop)
        elif mode == REPAYABLE:
            ok = may_repay(public, table, seat, prop)
        if ok:
            if count == n:
                return prop
            count += 1
    return count if n < 0 else -1


@njit(cache=True)
def _random_property(public, table, seat, mode, state):
    count = _nth_property(public, seat, -1, mode, table)
    if count == 0:
        return -1
    return _nth_property(public, seat, rng.below(state, count), mode, table)


@njit(cache=True)
def _random_free_square(public, table, seat, state, properties_only, allow_park):
    """A uniformly random square with no token on it (and not the seat's own)."""
    squares = public[PUB_SQUARES]
    count = 0
    for square in range(squares):
        kind = table[public[PUB_SQUARE_ROW] + square, B_KIND]
        if not occupied(public, square, -1) and (kind == SQ_PROPERTY or not properties_only) \
                and (allow_park or kind != SQ_PARK):
            count += 1
    if count == 0:
        return -1
    r = rng.below(state, count)
    for square in range(squares):
        kind = table[public[PUB_SQUARE_ROW] + square, B_KIND]
        if not occupied(public, square, -1) and (kind == SQ_PROPERTY or not properties_only) \
                and (allow_park or kind != SQ_PARK):
            if r == 0:
                return square
            r -= 1
    return -1


@njit(cache=True)
def _random_other(public, seat, state, skip_school):
    count = 0
    for other in range(public[PUB_PLAYERS]):
        if other != seat and seat_field(public, other, S_ALIVE) and not (skip_school and seat_field(public, other, S_ON_SCHOOL)):
            count += 1
    if count == 0:
        return -1
    r = rng.below(state, count)
    for other in range(public[PUB_PLAYERS]):
        if other != seat and seat_field(public, other, S_ALIVE) and not (skip_school and seat_field(public, other, S_ON_SCHOOL)):
            if r == 0:
                return other
            r -= 1
    return -1


# ---- the decisions -----------------------------------------------------------------------------------

@njit(cache=True)
def random_finance(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    borrow = _nth_property(public, seat, -1, BORROWABLE, table)
    repay = _nth_property(public, seat, -1, REPAYABLE, table)
    r = rng.below(state, 1 + borrow + repay)
    if r == 0:
        return FINANCE_DONE
    if r <= borrow:
        out[A_FINANCE_PROPERTY] = _nth_property(public, seat, r - 1, BORROWABLE, table)
        return FINANCE_BORROW
    out[A_FINANCE_PROPERTY] = _nth_property(public, seat, r - 1 - borrow, REPAYABLE, table)
    return FINANCE_REPAY


@njit(cache=True)
def random_invest(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    row = public[PUB_COMMODITY_ROW]
    affordable = 0
    for c in range(public[PUB_COMMODITIES]):
        affordable += table[row + c, X_INVEST] <= cash(public, seat)
    optional = query[Q_INVEST_OPTIONAL]
    r = rng.below(state, affordable + optional)
    for c in range(public[PUB_COMMODITIES]):
        if table[row + c, X_INVEST] <= cash(public, seat):
            if r == 0:
                return c
            r -= 1
    return -1


@njit(cache=True)
def random_coin(public, table, query, params, memory, state, out):
    return 1 if rng.uniform(state) < 0.5 else 0


@njit(cache=True)
def random_bid(public, table, query, params, memory, state, out):
    limit = bid_limit(public, public[PUB_SEAT], query)
    return rng.below(state, limit + 1) if limit >= 0 else 0


@njit(cache=True)
def random_deal_offer(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    if rng.uniform(state) < 0.5:
        return 0
    other = _random_other(public, seat, state, True)
    if other < 0:
        return 0
    kind = DEAL_BUY + rng.below(state, 3)   # DEAL_BUY, DEAL_SELL or DEAL_SWAP
    mine = _random_property(public, table, seat, OWNED, state)
    theirs = _random_property(public, table, other, OWNED, state)
    out[A_DEAL_OTHER], out[A_DEAL_MINE], out[A_DEAL_THEIRS] = other, mine, theirs
    least = public[PUB_AUCTION_MIN]  # every sale is for at least the smallest bid (U14)
    if kind == DEAL_BUY:
        if theirs < 0 or cash(public, seat) < least:
            return 0
        out[A_DEAL_CASH] = least + rng.below(state, cash(public, seat) - least + 1)
    elif kind == DEAL_SELL:
        if mine < 0 or cash(public, other) < least:
            return 0
        out[A_DEAL_CASH] = -(least + rng.below(state, cash(public, other) - least + 1))
    else:           # swap with cash either way
        if mine < 0 or theirs < 0:
            return 0
        out[A_DEAL_CASH] = rng.below(state, cash(public, seat) + cash(public, other) + 1) - cash(public, other)
    return kind


R_TRIED, R_TRIED_CARDS = 0, 1  # random's memory: the properties and card types offered in this raise (bits)
R_MASK_BITS = 52                # properties and card types a float64 bit mask holds exactly; later ones aren't sold


@njit(cache=True)
def _untried(memory, slot, index):
    return index < R_MASK_BITS and (np.int64(memory[slot]) >> index) & 1 == 0


@njit(cache=True)
def random_raise(public, table, query, params, memory, state, out):
    """Uniform over the legal steps: give up, borrow on a title (not on a hopeless debt, U17(b)), offer a title
    or a saved card not yet offered in this raise, the extra Exchange investment."""
    seat, short = public[PUB_SEAT], query[Q_RAISE_SHORT]
    if query[Q_RAISE_STEPS] == 0:  # a new raise
        memory[R_TRIED] = 0.0
        memory[R_TRIED_CARDS] = 0.0
    borrow = 0
    if raise_may_borrow(public, table, seat, short):
        borrow = _nth_property(public, seat, -1, BORROWABLE, table)
    sellable = 0
    for prop in range(public[PUB_PROPERTIES]):
        sellable += owner(public, prop) == seat and _untried(memory, R_TRIED, prop)
    cards = 0
    for t in range(public[PUB_CARD_TYPES]):
        cards += saved(public, seat, t) > 0 and _untried(memory, R_TRIED_CARDS, t)
    exchange = 1 if extra_exchange_open(public, seat) else 0
    r = rng.below(state, 1 + borrow + sellable + cards + exchange)
    if r == 0:
        return RAISE_GIVE_UP
    if r <= borrow:
        out[A_RAISE_ITEM] = _nth_property(public, seat, r - 1, BORROWABLE, table)
        return RAISE_BORROW
    r -= borrow + 1
    out[A_RAISE_RESERVE] = public[PUB_AUCTION_MIN]
    for prop in range(public[PUB_PROPERTIES]):
        if owner(public, prop) == seat and _untried(memory, R_TRIED, prop):
            if r == 0:
                memory[R_TRIED] = float(np.int64(memory[R_TRIED]) | (np.int64(1) << prop))
                out[A_RAISE_ITEM] = prop
                return RAISE_SELL
            r -= 1
    for t in range(public[PUB_CARD_TYPES]):
        if saved(public, seat, t) > 0 and _untried(memory, R_TRIED_CARDS, t):
            if r == 0:
                memory[R_TRIED_CARDS] = float(np.int64(memory[R_TRIED_CARDS]) | (np.int64(1) << t))
                out[A_RAISE_ITEM] = t
                return RAISE_SELL_CARD
            r -= 1
    return RAISE_EXCHANGE


@njit(cache=True)
def random_bump(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    here = seat_field(public, seat, S_POSITION)
    if rng.uniform(state) < 0.5:
        return 0
    count = 0
    for other in range(public[PUB_PLAYERS]):
        if other != seat and seat_field(public, other, S_ALIVE) and seat_field(public, other, S_POSITION) == here:
            count += 1
    r = rng.below(state, count)
    for other in range(public[PUB_PLAYERS]):
        if other != seat and seat_field(public, other, S_ALIVE) and seat_field(public, other, S_POSITION) == here:
            if r == 0:
                out[A_BUMP_SEAT] = other
            r -= 1
    out[A_BUMP_SQUARE] = _random_free_square(public, table, seat, state, False, False)
    return 1 if out[A_BUMP_SQUARE] >= 0 else 0


@njit(cache=True)
def _card_arguments(public, table, seat, card_type, state, out):
    """Random legal arguments for using a card of ``card_type``; False if it can't be used now."""
    kind = table[public[PUB_CARD_ROW] + card_type, K_KIND]
    if kind == CK_TAXI:
        if cash(public, seat) + table[public[PUB_CARD_ROW] + card_type, K_AMOUNT] < 0:
            return False  # the card's payment can't be made
        out[A_TAXI_SQUARE] = _random_free_square(public, table, seat, state, False, True)
        return out[A_TAXI_SQUARE] >= 0
    if kind == CK_MOVE_ANY:
        out[A_MOVE_SEAT] = _random_other(public, seat, state, True)
        out[A_MOVE_SQUARE] = _random_free_square(public, table, seat, state, True, False)
        return out[A_MOVE_SEAT] >= 0 and out[A_MOVE_SQUARE] >= 0
    if kind == CK_MASTER_KEY:
        out[A_KEY_DESTINATION] = rng.below(state, 2)   # KEY_TAX_AUDIT or KEY_SCHOOL
        return True
    return kind == CK_EXTRA_TURN


@njit(cache=True)
def random_card(public, table, query, params, memory, state, out):
    seat = public[PUB_SEAT]
    context = query[Q_CARD_CONTEXT]
    if context != CARD_DRAWN and context != CARD_STEP5:
        return 1 if rng.uniform(state) < 0.5 else 0   # the Master Key's reactive uses
    if context == CARD_DRAWN:
        card_type = query[Q_CARD_TYPE]
        kind = table[public[PUB_CARD_ROW] + card_type, K_KIND]
        if kind == CK_COMBO:
            # uniform over the uses possible now (taxi, Bamboozle, Move Any Player) and discarding
            taxi = _random_free_square(public, table, seat, state, False, True)
            bamboozle = can_bamboozle(public, table, seat, False)
            victim = _random_other(public, seat, state, True)
            square = _random_free_square(public, table, seat, state, True, False)
            move = victim >= 0 and square >= 0
            r = rng.below(state, 1 + (taxi >= 0) + bamboozle + move)
            out[A_COMBO_USE] = COMBO_DISCARD
            if taxi >= 0:
                if r == 0:
                    out[A_COMBO_USE], out[A_COMBO_SQUARE] = COMBO_TAXI, taxi
                r -= 1
            if bamboozle:
                if r == 0:
                    out[A_COMBO_USE] = COMBO_BAMBOOZLE
                r -= 1
            if move and r == 0:
                out[A_COMBO_USE], out[A_COMBO_SEAT], out[A_COMBO_MOVE_SQUARE] = COMBO_MOVE, victim, square
            return card_type
        if rng.uniform(state) < 0.5 and _card_arguments(public, table, seat, card_type, state, out):
            return card_type
        return -1
    count = 0
    for t in range(public[PUB_CARD_TYPES]):
        count += saved(public, seat, t) > 0
    r = rng.below(state, count + 1)
    for t in range(public[PUB_CARD_TYPES]):
        if saved(public, seat, t) > 0:
            if r == 0:
                return t if _card_arguments(public, table, seat, t, state, out) else -1
            r -= 1
    return -1


@njit(cache=True)
def _bamboozle_targets(public, table, seat, underhanded):
    targets = 0
    for prop in range(public[PUB_PROPERTIES]):
        targets += bamboozle_target_ok(public, table, seat, prop, underhanded)
    return targets


@njit(cache=True)
def random_bamboozle(public, table, query, params, memory, state, out):
    """Uniform over declining and the eligible targets (never declining one it must use), staking a random
    title of its own, or the cash stake when it owns none."""
    seat = public[PUB_SEAT]
    underhanded = query[Q_UNDERHANDED] != 0
    targets = _bamboozle_targets(public, table, seat, underhanded)
    if targets == 0:
        return 0
    if owns_property(public, seat):
        out[A_STAKE] = _random_property(public, table, seat, OWNED, state)
    elif cash(public, seat) >= public[PUB_BAMBOOZLE_CASH]:
        out[A_STAKE] = -1
    else:
        return 0
    r = rng.below(state, targets + (0 if query[Q_MUST_USE] != 0 else 1))
    for prop in range(public[PUB_PROPERTIES]):
        if bamboozle_target_ok(public, table, seat, prop, underhanded):
            if r == 0:
                out[A_TARGET] = prop
                return 1
            r -= 1
    return 0


@njit(cache=True)
def random_borrow_on(public, table, query, params, memory, state, out):
    return _random_property(public, table, public[PUB_SEAT], BORROWABLE, state)


random = register(Strategy.build(
    "wheeler-dealer-us", "random",
    finance=random_finance, invest=random_invest, buy=random_coin, bid=random_bid, poach=random_coin,
    deal_offer=random_deal_offer, deal_answer=random_coin, bump=random_bump, card=random_card,
    bamboozle=random_bamboozle, borrow_on=random_borrow_on,
    **{"raise": random_raise},
    doc="Baseline: uniform over the legal answers at every decision (bids uniform in 0..cash)."))
