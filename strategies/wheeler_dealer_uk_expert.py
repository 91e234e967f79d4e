"""``expert``: the strongest shipped Wheeler Dealer (UK) player (docs/strategies.md, "The experts").

It extends the trader family (strategies/wheeler_dealer_uk.py: its ten parameters come first, in the same
order, so the family's borrowing, redeeming, deals and inner-circle rules run unchanged on its parameter
vector) with a value of the race to the target wealth:

- a card's worth is what it does to total wealth (cash + face): buying a turned card at face is
  wealth-neutral and saves the Handlers Charge, so it buys whatever keeps its reserve, and borrows At Risk
  for a yellow card (the pack whose sets decide the race) that can still become a set;
- it sells a set the moment the sale reaches the target (the win), otherwise at ``sell_at`` cards
  (``sell_yellow`` for yellow sets, whose multiple grows fastest);
- it refuses another player's 3 x offer when the set the card completes gains the buyer more than ``deny``
  x what the sale gains it (2 x face), or takes the buyer to the target, or the card is one of a set it
  builds;
- on an outer yellow space it turns a yellow card only with the cash (and loans) to buy a dear one,
  otherwise a Command card (with probability ``command``, 1 as shipped).
"""
from numba import types

from simkit import rng

from simkit.games.wheeler_dealer_uk.view import (DECISION_SIGNATURE, H_COMMODITIES, H_MIN_SET,
                                                 H_TARGET, Q_COMMODITY, Q_FROM, Q_PRICE, Q_SEAT, TABLE,
                                                 YELLOW, at_risk, cash, colour, face, hand, held, in_pack,
                                                 pack_sale, set_value, total_wealth)
from simkit.numba_tools import uncounted
from simkit.strategy import Param, Strategy, register
from simkit.strategies.wheeler_dealer_uk import (_PARAMS, P_CASH_FLOOR, P_COMMAND, P_KEEP_FROM, P_RESERVE, P_SELL_AT,
                                                 affordable, loan_capacity, others_hold, reachable, trader,
                                                 trader_buy)

I = types.int64
# the expert's own parameters, after the trader's ten
P_SELL_YELLOW, P_DENY, P_YELLOW_CASH, P_BUY_SPARE = 10, 11, 12, 13


@uncounted(I(TABLE, I, I, I), inline=True)
def sale_gain(table, seat, c, cards):
    """What selling ``cards`` clean cards of c adds to the seat's total wealth (the sale less their face)."""
    return set_value(table, c, cards) - cards * face(table, c)


@uncounted(DECISION_SIGNATURE)
def expert_sell(table, params, memory, state, query):
    """The set whose sale reaches the target first (the win); else a set at sell_at (sell_yellow) cards, or
    once no more copies can come, or when cash is below cash_floor."""
    seat = query[Q_SEAT]
    mine = hand(table, seat)
    wealth = total_wealth(table, seat)
    pick, pick_gain = -1, -1
    for c in range(table[H_COMMODITIES]):
        cards = mine[c]
        if cards < table[H_MIN_SET]:
            continue
        gain = sale_gain(table, seat, c, cards)
        if wealth + gain >= table[H_TARGET] and gain > pick_gain:
            pick, pick_gain = c, gain
    if pick >= 0:
        return pack_sale(pick, mine[pick])
    for c in range(table[H_COMMODITIES]):
        cards = mine[c]
        if cards < table[H_MIN_SET]:
            continue
        at = params[P_SELL_YELLOW] if colour(table, c) == YELLOW else params[P_SELL_AT]
        if cards >= at or cards >= reachable(table, seat, c) or cash(table, seat) < params[P_CASH_FLOOR]:
            return pack_sale(c, cards)
    return -1


@uncounted(DECISION_SIGNATURE)
def expert_answer(table, params, memory, state, query):
    """Sell one card at 3 x face (2 x face of wealth to me) unless it builds a set of mine (keep_from copies),
    completes a set that gains the buyer more than deny x that, or takes the buyer to the target."""
    seat = query[Q_SEAT]
    c = query[Q_COMMODITY]
    if held(table, seat, c) >= params[P_KEEP_FROM]:
        return 0
    buyer = query[Q_FROM]
    mine_gain = query[Q_PRICE] - face(table, c)
    theirs = held(table, buyer, c) + 1
    their_gain = face(table, c) - query[Q_PRICE]
    if theirs >= table[H_MIN_SET]:
        their_gain += sale_gain(table, buyer, c, theirs)
    if total_wealth(table, buyer) + their_gain >= table[H_TARGET]:
        return 0
    return 1 if their_gain <= params[P_DENY] * mine_gain else 0


@uncounted(DECISION_SIGNATURE)
def expert_buy(table, params, memory, state, query):
    """A yellow card that can still become a set, borrowing At Risk for it; any other card the trader
    would buy; else (buy_spare) any card whose price leaves the reserve in hand: wealth-neutral, and it saves
    the Handlers Charge."""
    seat = query[Q_SEAT]
    c = query[Q_COMMODITY]
    price = query[Q_PRICE]
    could_set = held(table, seat, c) + 1 + at_risk(table, seat, c) + in_pack(table, c) \
        + others_hold(table, seat, c) >= table[H_MIN_SET]
    if colour(table, c) == YELLOW and could_set:
        if cash(table, seat) + loan_capacity(table, seat, c, 1 << 62) - price >= params[P_RESERVE]:
            return 1
    if trader_buy(table, params, memory, state, query) == 1:
        return 1
    if params[P_BUY_SPARE] != 0 and affordable(table, seat, price, c, params, False, -1) \
            and cash(table, seat) - price >= params[P_RESERVE]:
        return 1
    return 0


@uncounted(DECISION_SIGNATURE)
def expert_yellow(table, params, memory, state, query):
    """A yellow card when cash and loans reach yellow_cash (enough to buy a dear one), else a Command card
    with probability ``command`` (1 as shipped)."""
    seat = query[Q_SEAT]
    if cash(table, seat) + loan_capacity(table, seat, -1, 1 << 62) >= params[P_YELLOW_CASH]:
        return 0
    return 1 if rng.uniform(state) < params[P_COMMAND] else 0


# the trader's parameters as tuned for the expert (docs/strategies.md, "The experts": a search from the tuned
# preset's reserve 296, enter_at 1.621, keep_from 1)
_TUNED = {"reserve": 44, "enter_at": 1.486, "keep_from": 1, "leverage": 2, "command": 1}
EXPERT_PARAMS = {key: param.with_default(_TUNED[key]) if key in _TUNED else param for key, param in _PARAMS.items()}
EXPERT_PARAMS.update({
    "sell_yellow": Param(3, 1, 20, "int", "sell a yellow set once it has this many cards (sell_at for the others)"),
    "deny": Param(8.147, 0.0, 50.0, doc="refuse a 3 x offer when the buyer's wealth gain (its set) exceeds this x "
                                      "mine (2 x face)"),
    "yellow_cash": Param(40251, 0, 1_000_000, "int", "on an outer yellow space, turn a yellow card only with this "
                                                     "much cash and loans; else a Command card"),
    "buy_spare": Param(0, kind="bool", doc="buy any turned card whose price leaves the reserve in hand"),
})
assert list(EXPERT_PARAMS)[:10] == list(_PARAMS) and list(EXPERT_PARAMS).index("buy_spare") == P_BUY_SPARE

expert = register(Strategy.build(
    "wheeler-dealer-uk", "expert", base=trader, sell=expert_sell, answer=expert_answer, buy=expert_buy,
    yellow=expert_yellow, params=EXPERT_PARAMS,
    doc="Races to the target wealth: sells the set that wins at once, buys wealth-neutral cards and borrows for "
        "yellow ones, refuses offers that hand a rival a big set, turns yellow cards only with the cash to buy "
        "them (docs/strategies.md, \"The experts\")."))
