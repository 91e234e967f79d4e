"""Shipped Wheeler Dealer (UK) strategies (the rules they play: docs/rules/wheeler-dealer-uk.md).

Every decision point is one Numba function with the signature of
``simkit.games.wheeler_dealer_uk.view.DECISION_SIGNATURE``. ``trader`` is one parametrised family (set
timing, pack preference, deals and raids, At Risk borrowing, the inner circle, yellow card or Command
card); the other names are its presets. ``random`` is the baseline: a random legal answer everywhere.
"""
from numba import types

from simkit import rng
from simkit.catalogue import ParamOrder
from simkit.games.wheeler_dealer_uk.view import (
    BORROW_FOR_COMMAND_REDEEM,
    BORROW_FOR_PURCHASE,
    BORROW_FOR_REDEEM,
    BORROW_VOLUNTARY,
    DEAL_BUY,
    DEAL_RAID,
    DECISION_SIGNATURE,
    F_BANKRUPT,
    H_BUY_MULTIPLE,
    H_COMMODITIES,
    H_INNER_WEALTH,
    H_MIN_SET,
    H_PLAYERS,
    H_RAID_MULTIPLE,
    H_SALE_OPEN,
    MEMORY,
    MEMORY_SIZE,
    PARAMS,
    Q_COMMODITY,
    Q_CONTEXT,
    Q_PRICE,
    Q_SEAT,
    REDEEM_COMMAND,
    RNG,
    TABLE,
    at_risk,
    borrowable,
    cash,
    colour,
    face,
    hand,
    held,
    in_pack,
    loan_value,
    pack_deal,
    pack_sale,
    pack_sale_loan,
    redeem_cost,
    redeemable,
    redeemable_cards,
    sale_loan,
    seat_field,
    set_value,
    total_wealth,
)
from simkit.numba_tools import uncounted
from simkit.strategy import Param, Strategy, preset, register

# the trader's parameter vector, in order (_PARAMS below declares each one)
TRADER_ORDER = ParamOrder("sell_at favour reserve deals raids leverage enter_at command keep_from cash_floor")
(P_SELL_AT, P_FAVOUR, P_RESERVE, P_DEALS, P_RAIDS, P_LEVERAGE, P_ENTER_AT, P_COMMAND, P_KEEP_FROM,
 P_CASH_FLOOR) = TRADER_ORDER.indices()
LEVERAGE_RULES = ("never", "sets", "any")      # values of `leverage`, in order
LEVERAGE_NEVER, LEVERAGE_SETS, LEVERAGE_ANY = range(len(LEVERAGE_RULES))

# The helpers and decisions are compiled once each, for one explicit signature, and without reference counting
# (_nrt=False; nothing here allocates): with it, every array argument of a call that is not inlined costs a
# call into the runtime and back. Strategy.build keeps the decisions as compiled here.
I, B = types.int64, types.boolean


@uncounted(I(TABLE, I, I), inline=True)
def others_hold(table, seat, c):
    """Copies of c that other players in the game hold, clean or At Risk."""
    total = 0
    for q in range(table[H_PLAYERS]):
        if q != seat and seat_field(table, q, F_BANKRUPT) == 0:
            total += held(table, q, c) + at_risk(table, q, c)
    return total


@uncounted(I(TABLE, I, I), inline=True)
def reachable(table, seat, c):
    """The most clean copies of c the seat could gather: its own (At Risk ones redeemed), the pack's, others'."""
    return held(table, seat, c) + at_risk(table, seat, c) + in_pack(table, c) + others_hold(table, seat, c)


@uncounted(I(TABLE, I, I, I), inline=True)
def set_gain(table, c, before, after):
    """What ``after`` clean cards of c would sell for beyond ``before`` of them."""
    return set_value(table, c, after) - set_value(table, c, before)


@uncounted(I(TABLE, I, I, I), inline=True)
def loan_capacity(table, seat, keep, below):
    """Credits the seat could borrow on its clean cards of face below ``below``, leaving commodity ``keep``."""
    total = 0
    mine = hand(table, seat)
    for c in range(table[H_COMMODITIES]):
        if mine[c] > 0 and c != keep and face(table, c) < below:   # no clean card, none to borrow on
            total += borrowable(table, seat, c) * loan_value(table, c)
    return total


@uncounted(B(TABLE, PARAMS, I, I, I), inline=True)
def will_sell(table, params, seat, c, cards):
    """Would the trader sell a set of ``cards`` clean cards of c now: at ``sell_at`` cards, or all it can still
    reach, or when cash is short of ``cash_floor``."""
    if cards < table[H_MIN_SET]:
        return False
    return cards >= params[P_SELL_AT] or cards >= reachable(table, seat, c) or cash(table, seat) < params[P_CASH_FLOOR]


@uncounted(B(TABLE, I, I, I, PARAMS, B, I), inline=True)
def affordable(table, seat, price, c, params, completes_set, loans):
    """Can the seat pay ``price`` for a card of c keeping its reserve, borrowing At Risk on its other cards if
    its leverage allows (and, before rolling with K7 borrow_on_sale, on the cards of the set the purchase
    completes and that it sells at once)? ``loans``: what it could borrow on all its clean cards
    (loan_capacity(table, seat, -1, 1 << 62)), or -1 to work that out here if needed."""
    spare = cash(table, seat) - params[P_RESERVE]
    if spare >= price:   # what borrowing would add is never negative
        return True
    leverage = params[P_LEVERAGE]
    if leverage == LEVERAGE_ANY or (leverage == LEVERAGE_SETS and completes_set):
        if loans < 0:
            loans = loan_capacity(table, seat, -1, 1 << 62)
        spare += loans - borrowable(table, seat, c) * loan_value(table, c)
        if completes_set and table[H_SALE_OPEN] != 0 and will_sell(table, params, seat, c, held(table, seat, c) + 1):
            spare += borrowable(table, seat, c) * loan_value(table, c)
    return spare >= price


@uncounted(I(TABLE, I, I, I), inline=True)
def spare_card(table, seat, avoid, below):
    """The card to borrow on, of face below ``below``: the cheapest single (not building a set), else the
    cheapest card; -1 if none."""
    best, best_key = -1, 0.0
    mine = hand(table, seat)
    for c in range(table[H_COMMODITIES]):
        if mine[c] == 0 or c == avoid or borrowable(table, seat, c) <= 0 or face(table, c) >= below:
            continue
        key = face(table, c) * (1.0 if mine[c] == 1 else 100.0)
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


# ---- trader: one parametrised family ----------------------------------------------------------------

@uncounted(I(TABLE, PARAMS, MEMORY, TABLE, B), inline=True)
def best_deal(table, params, memory, query, least_asked):
    """The deal that completes (or enlarges) a set worth more than its price, with the best margin: a raid at
    2 x face before a purchase at 3 x, from the first rival holding the card. With ``least_asked`` a purchase
    goes instead to the holder asked for that commodity least often this game, then the one holding fewest
    copies, and ``memory`` (one entry per (seat, commodity)) counts the offers made."""
    if params[P_RAIDS] == 0.0 and params[P_DEALS] == 0.0:
        return 0
    seat = query[Q_SEAT]
    commodities = table[H_COMMODITIES]
    best, best_margin, best_slot = 0, 0.0, -1
    loans = -1   # what the seat could borrow on all its clean cards: worked out once, at the first deal it is short for
    mine_of = hand(table, seat)
    for c in range(commodities):
        mine = mine_of[c]
        if mine + 1 < table[H_MIN_SET]:
            continue
        gain = set_gain(table, c, mine, mine + 1)
        for kind in (DEAL_RAID, DEAL_BUY):
            if (kind == DEAL_RAID and params[P_RAIDS] == 0.0) or (kind == DEAL_BUY and params[P_DEALS] == 0.0):
                continue
            price = face(table, c) * (table[H_RAID_MULTIPLE] if kind == DEAL_RAID else table[H_BUY_MULTIPLE])
            margin = gain - price
            if margin <= best_margin:
                continue
            pick, pick_key = -1, 0.0
            for q in range(table[H_PLAYERS]):
                if q == seat or seat_field(table, q, F_BANKRUPT) != 0:
                    continue
                if kind == DEAL_RAID or not least_asked:
                    if (held(table, q, c) if kind == DEAL_BUY else at_risk(table, q, c)) > 0:
                        pick = q
                        break
                elif held(table, q, c) > 0:
                    slot = q * commodities + c
                    key = (memory[slot] if slot < MEMORY_SIZE else 0.0) * 100.0 + held(table, q, c)
                    if pick < 0 or key < pick_key:
                        pick, pick_key = q, key
            if pick < 0:
                continue
            if loans < 0 and params[P_LEVERAGE] != LEVERAGE_NEVER and cash(table, seat) - params[P_RESERVE] < price:
                loans = loan_capacity(table, seat, -1, 1 << 62)
            if affordable(table, seat, price, c, params, True, loans):
                best, best_margin = pack_deal(kind, pick, c), margin
                best_slot = pick * commodities + c if kind == DEAL_BUY else -1
    if least_asked and 0 <= best_slot < MEMORY_SIZE:
        memory[best_slot] += 1.0
    return best


@uncounted(DECISION_SIGNATURE)
def trader_deal(table, params, memory, state, query):
    """Buy the card that completes (or enlarges) a set worth more than its price: a raid at 2 x face before a
    purchase at 3 x; the pair with the best margin."""
    return best_deal(table, params, memory, query, False)


@uncounted(DECISION_SIGNATURE)
def trader_answer(table, params, memory, state, query):
    """Sell at 3 x face unless the card is part of a set being built (``keep_from`` copies or more)."""
    return 1 if held(table, query[Q_SEAT], query[Q_COMMODITY]) < params[P_KEEP_FROM] else 0


@uncounted(DECISION_SIGNATURE)
def trader_redeem(table, params, memory, state, query):
    """Before rolling: redeem At Risk cards of commodities being collected while cash stays above the reserve,
    or (K7 borrow_on_sale) one that completes a set it sells at once, borrowing on that set. For the Command
    card, dearest first: every card worth more than its redeem cost that cash, and loans on cheaper cards,
    can pay for (the rest are forfeit)."""
    seat = query[Q_SEAT]
    left = redeemable_cards(table)
    if query[Q_CONTEXT] == REDEEM_COMMAND:
        best = -1
        for c in range(table[H_COMMODITIES]):
            if left[c] == 0:
                continue
            cost = redeem_cost(table, c)
            if face(table, c) > cost and (best < 0 or face(table, c) > face(table, best)) \
                    and cash(table, seat) + loan_capacity(table, seat, c, face(table, c)) >= cost:
                best = c
        return best
    for c in range(table[H_COMMODITIES]):
        if left[c] == 0:
            continue
        cost = redeem_cost(table, c)
        mine = held(table, seat, c)
        if mine > 0 and cash(table, seat) - cost >= params[P_RESERVE]:
            return c
        if (table[H_SALE_OPEN] != 0 and will_sell(table, params, seat, c, mine + 1)
                and cash(table, seat) + borrowable(table, seat, c) * loan_value(table, c) >= cost):
            return c
    return -1


@uncounted(DECISION_SIGNATURE)
def trader_sell(table, params, memory, state, query):
    """Sell a set once it has ``sell_at`` cards, or all the cards it can still reach, or when cash is short."""
    seat = query[Q_SEAT]
    mine = hand(table, seat)
    for c in range(table[H_COMMODITIES]):
        if will_sell(table, params, seat, c, mine[c]):
            return pack_sale(c, mine[c])
    return -1


@uncounted(DECISION_SIGNATURE)
def trader_borrow(table, params, memory, state, query):
    """Borrow for a payment always; for a purchase as leverage allows; before rolling only to keep
    ``cash_floor`` credits in hand. To pay for a card or a redeem that completes a set it sells at once, on
    that set's own cards first (K7 borrow_on_sale: repaid from the sale, no At Risk zone); for the redeem
    Command, only on cards cheaper than the one saved; otherwise on spare cards."""
    seat = query[Q_SEAT]
    context = query[Q_CONTEXT]
    c = query[Q_COMMODITY]
    if context == BORROW_VOLUNTARY and cash(table, seat) >= params[P_CASH_FLOOR]:
        return -1
    if context == BORROW_FOR_PURCHASE and params[P_LEVERAGE] == LEVERAGE_NEVER:
        return -1
    if (context == BORROW_FOR_PURCHASE or context == BORROW_FOR_REDEEM) and sale_loan(table, seat, c, c) \
            and will_sell(table, params, seat, c, held(table, seat, c) + 1):
        return pack_sale_loan(c)
    if context == BORROW_FOR_REDEEM:
        return -1
    if context == BORROW_FOR_COMMAND_REDEEM:
        return spare_card(table, seat, c, face(table, c))
    return spare_card(table, seat, c if context == BORROW_FOR_PURCHASE else -1, 1 << 62)


@uncounted(DECISION_SIGNATURE)
def trader_enter(table, params, memory, state, query):
    """Enter the inner circle once total wealth reaches ``enter_at`` x the level's threshold (0: at once)."""
    return 1 if total_wealth(table, query[Q_SEAT]) >= params[P_ENTER_AT] * table[H_INNER_WEALTH] else 0


@uncounted(DECISION_SIGNATURE)
def trader_buy(table, params, memory, state, query):
    """Buy a turned card that can still become a set, if the favoured colour or one already held (or cash is
    plentiful), keeping the reserve (borrowing as leverage allows)."""
    seat = query[Q_SEAT]
    c = query[Q_COMMODITY]
    mine = held(table, seat, c)
    if mine + 1 + at_risk(table, seat, c) + in_pack(table, c) + others_hold(table, seat, c) < table[H_MIN_SET]:
        return 0
    completes = mine + 1 >= table[H_MIN_SET]
    wanted = mine > 0 or colour(table, c) == params[P_FAVOUR] or params[P_FAVOUR] < 0
    if not wanted and cash(table, seat) < 4 * query[Q_PRICE] + params[P_RESERVE]:
        return 0
    return 1 if affordable(table, seat, query[Q_PRICE], c, params, completes, -1) else 0


@uncounted(DECISION_SIGNATURE)
def trader_yellow(table, params, memory, state, query):
    """Take a Command card on an outer yellow space with probability ``command``."""
    return 1 if rng.uniform(state) < params[P_COMMAND] else 0


_PARAMS = TRADER_ORDER.declare({
    "sell_at": Param(3, 1, 20, "int", "sell a set once it has this many cards (or all the copies it can still "
                                      "reach, or when cash is below cash_floor)"),
    "favour": Param(-1, -1, 2, "int", "pack colour to collect: -1 any, 0 red, 1 green, 2 yellow (a turned card of "
                                      "another colour is bought only with plenty of cash, unless a copy is held)"),
    "reserve": Param(1000, 0, 1_000_000, "int", "credits kept after buying, dealing and redeeming"),
    "deals": Param(1, kind="bool", doc="buy a card from another player at 3 x face when a set gains more"),
    "raids": Param(1, kind="bool", doc="raid another player's At Risk card at 2 x face when a set gains more"),
    "leverage": Param(LEVERAGE_SETS, kind="choice", choices=LEVERAGE_RULES,
                      doc="borrow At Risk to pay for a purchase: never, only to complete a set, or for any card"),
    "enter_at": Param(1.0, 0.0, 10.0, doc="enter the inner circle once total wealth reaches this x the level's "
                                          "threshold (0: at once)"),
    "command": Param(0.0, 0.0, 1.0, doc="chance of taking a Command card on an outer yellow space"),
    "keep_from": Param(2, 0, 20, "int", "refuse another player's 3 x offer for a card when holding this many "
                                        "copies or more (0: refuse every offer)"),
    "cash_floor": Param(0, 0, 1_000_000, "int", "credits to keep in hand: below them it borrows before rolling and "
                                                "sells any set it can"),
})

trader = register(Strategy.build(
    "wheeler-dealer-uk", "trader", deal=trader_deal, answer=trader_answer, redeem=trader_redeem, sell=trader_sell,
    borrow=trader_borrow, enter=trader_enter, buy=trader_buy, yellow=trader_yellow, params=_PARAMS,
    doc="Collects sets and sells them at sell_at cards; buys from players and raids At Risk cards when a set "
        "gains more, borrows At Risk as its leverage allows, enters the inner circle at enter_at x the threshold; "
        "every parameter of the family can be set."))


preset(trader, "set-at-3", "Sells every set at three cards; deals and raids for sets; borrows to complete them.")
preset(trader, "hold-for-5", "Holds sets for five cards (the higher multiple) unless no more copies can come.", sell_at=5)
preset(trader, "yellow-hunter", "Favours the dear yellow pack, borrowing At Risk for any card it wants.", favour=2,
        leverage=LEVERAGE_ANY, sell_at=4)
preset(trader, "raider", "Raids At Risk cards and buys from players whenever a set gains; sells at four; enters the "
                  "inner circle at once.", sell_at=4, leverage=LEVERAGE_ANY, enter_at=0, keep_from=1)
preset(trader, "cautious", "No deals, no borrowing for purchases, a large reserve; enters the inner circle late.",
        deals=0, raids=0, leverage=LEVERAGE_NEVER, reserve=5000, enter_at=2, keep_from=3)
preset(trader, "commander", "Sells at three and takes Command cards on yellow spaces.", command=1)
# found by experiments/uk-tuned.toml (a search from commander against hold-for-5, raider and cautious). It wins only
# in that field (experiments/uk-crossfield.toml; docs/tuning.md), so it is not shipped as `tuned`: searches from
# commander against the best presets kept commander.
preset(trader, "default-counter", "Commander tuned by search (experiments/uk-tuned.toml) as a best response to the "
                                  "default line-up's hold-for-5, raider and cautious, and only to them (commander beats "
                                  "it elsewhere): sells every set at three cards (sell_at 2), keeps 296 credits, enters the inner circle "
                                  "at 1.6 x the threshold, takes Command cards 81% of the time, refuses every offer.",
        sell_at=2, reserve=296, enter_at=1.621, command=0.8073, keep_from=1)


# ---- random: a random legal answer at every decision --------------------------------------------------

ZONE_CLEAN, ZONE_AT_RISK, ZONE_BORROWABLE, ZONE_REDEEMABLE = range(4)


@uncounted(I(TABLE, I, I, I))
def _cards_in(table, seat, c, zone):
    if zone == ZONE_CLEAN:
        return held(table, seat, c)
    if zone == ZONE_AT_RISK:
        return at_risk(table, seat, c)
    if zone == ZONE_BORROWABLE:
        return borrowable(table, seat, c)
    return redeemable(table, c)


@uncounted(I(TABLE, I, RNG, I))
def _random_commodity(table, seat, state, zone):
    """A uniformly random commodity of which the seat has a card in ``zone`` (ZONE_*); -1 if none."""
    count = 0
    for c in range(table[H_COMMODITIES]):
        count += _cards_in(table, seat, c, zone) > 0
    if count == 0:
        return -1
    pick = rng.below(state, count)
    for c in range(table[H_COMMODITIES]):
        if _cards_in(table, seat, c, zone) > 0:
            if pick == 0:
                return c
            pick -= 1
    return -1


@uncounted(DECISION_SIGNATURE)
def random_deal(table, params, memory, state, query):
    """Half the time a random deal: a random other player, one of its cards, bought or raided as it lies."""
    seat = query[Q_SEAT]
    if rng.uniform(state) < 0.5:
        return 0
    q = rng.below(state, table[H_PLAYERS])
    if q == seat or seat_field(table, q, F_BANKRUPT) != 0:
        return 0
    zone = rng.below(state, 2)
    c = _random_commodity(table, q, state, zone)
    if c < 0:
        return 0
    return pack_deal(DEAL_BUY if zone == ZONE_CLEAN else DEAL_RAID, q, c)


@uncounted(DECISION_SIGNATURE)
def random_coin(table, params, memory, state, query):
    return rng.below(state, 2)


@uncounted(DECISION_SIGNATURE)
def random_redeem(table, params, memory, state, query):
    seat = query[Q_SEAT]
    c = _random_commodity(table, seat, state, ZONE_REDEEMABLE)
    if c < 0 or rng.uniform(state) < 0.5 or cash(table, seat) < redeem_cost(table, c):
        return -1
    return c


@uncounted(DECISION_SIGNATURE)
def random_sell(table, params, memory, state, query):
    seat = query[Q_SEAT]
    if rng.uniform(state) < 0.5:
        return -1
    for c in range(table[H_COMMODITIES]):
        if held(table, seat, c) >= table[H_MIN_SET]:
            return pack_sale(c, table[H_MIN_SET] + rng.below(state, held(table, seat, c) - table[H_MIN_SET] + 1))
    return -1


@uncounted(DECISION_SIGNATURE)
def random_borrow(table, params, memory, state, query):
    if query[Q_CONTEXT] == BORROW_VOLUNTARY and rng.uniform(state) < 0.9:
        return -1
    if query[Q_CONTEXT] == BORROW_FOR_PURCHASE and rng.uniform(state) < 0.5:
        return -1
    return _random_commodity(table, query[Q_SEAT], state, ZONE_BORROWABLE)


register(Strategy.build(
    "wheeler-dealer-uk", "random", deal=random_deal, answer=random_coin, redeem=random_redeem, sell=random_sell,
    borrow=random_borrow, enter=random_coin, buy=random_coin, yellow=random_coin,
    doc="Baseline: a random legal answer everywhere (a deal half the time, loans before rolling one time in ten)."))
