"""``expert``: the strongest shipped Wheeler Dealer (UK) player (docs/strategies.md, "The experts").

It extends the trader family (strategies/wheeler_dealer_uk.py: its ten parameters come first, in the same
order, so the family's deals and raids run unchanged on its parameter vector) with a value of the race to the
target wealth:

- a card's worth is what it does to total wealth (cash + face): buying a turned card at face is
  wealth-neutral and saves the Handlers Charge, so it buys whatever keeps its reserve, and borrows At Risk for a yellow card (the pack
  whose sets decide the race) that can still become a set;
- an At Risk card costs nothing to redeem in wealth (its worth rises by what it costs) but is lost to the
  redeem_at_risk Command if not paid for then, and a rival may raid it: so it redeems At Risk cards before
  rolling while cash stays above ``redeem_keep``, those whose raid would hand a rival most first, and puts
  loans on the cards whose raid would hand a rival least;
- it opens the inner circle (whose yellow spaces charge 10% of a dear card to a player who cannot buy it)
  only once rich (``enter_at`` x the threshold), and follows a rival in earlier only when a rival inside has
  ``enter_open`` x its wealth; inside, it buys a card of a commodity it holds none of only while it keeps
  ``inner_keep`` in cash (the inner circle ruins a player with no cash);
- it sells a set the moment the sale reaches the target (the win), otherwise at ``sell_at`` cards
  (``sell_yellow`` for yellow sets, whose multiple grows fastest);
- it deals as the trader does, but offers a purchase to the holder it has offered that commodity to least often
  (then the one holding fewest copies): a player who refused keeps refusing, and a turn has one deal;
- with no such deal, or instead of a purchase (which the holder may refuse), it raids towards a set two raids away
  (``pair_raid``): a second copy of a card it holds one of when rivals hold two more At Risk (which their owners
  cannot refuse), if the set gains ``pair_raid`` credits over the two raids' cost in wealth;
- with no such deal either it spoils: it raids a rival's At Risk card of a set that rival holds whole (clean and At Risk
  copies together) when losing the card cuts that set's sale by ``spoil`` credits or more, paying from cash (inside
  the inner circle, from cash above ``inner_keep``);
- before any of that it blocks (``block``): when a rival could reach the target this turn with one more card got in
  a deal, it redeems its own At Risk copy (and makes no deal, which would bar redeeming), else raids a third
  player's copy first (``block`` 2 also buys a clean one), unless its own raid wins at once;
- it makes no deal that hands the other side the target wealth (``no_gift``): a deal at k x face adds (k - 1) x face
  to the seller's or raided player's wealth, and that player would win at the end of its next turn;
- it refuses another player's 3 x offer when the card gains the buyer anything (completes or enlarges its
  set) or is one of a set it builds (``keep_from`` copies; as shipped it refuses every offer);
- on an outer yellow space it turns a yellow card only with the cash (and loans) to buy a dear one,
  otherwise a Command card (with probability ``command``, 1 as shipped).
"""
from numba import types

from simkit import rng
from simkit.games.wheeler_dealer_uk.view import (
    BORROW_FOR_COMMAND_REDEEM,
    BORROW_FOR_PURCHASE,
    DEAL_BUY,
    DEAL_RAID,
    DECISION_SIGNATURE,
    F_BANKRUPT,
    F_CIRCLE,
    H_BUY_MULTIPLE,
    H_COMMODITIES,
    H_INNER_WEALTH,
    H_MIN_SET,
    H_PLAYERS,
    H_RAID_MULTIPLE,
    H_TARGET,
    INNER,
    MEMORY,
    MEMORY_SIZE,
    PARAMS,
    Q_COMMODITY,
    Q_CONTEXT,
    Q_FROM,
    Q_PRICE,
    Q_SEAT,
    REDEEM_COMMAND,
    SALE_LOAN,
    TABLE,
    YELLOW,
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
    redeem_cost,
    redeemable_cards,
    seat_field,
    set_value,
    total_wealth,
    unpack_deal,
)
from simkit.numba_tools import uncounted
from simkit.strategies.wheeler_dealer_uk import (
    _PARAMS,
    P_CASH_FLOOR,
    P_COMMAND,
    P_ENTER_AT,
    P_KEEP_FROM,
    P_RESERVE,
    P_SELL_AT,
    TRADER_ORDER,
    best_deal,
    loan_capacity,
    others_hold,
    reachable,
    trader,
    trader_borrow,
    trader_buy,
    trader_redeem,
)
from simkit.strategy import Param, Strategy, register

I = types.int64
B = types.boolean
# the expert's own parameters, after the trader's ten
EXPERT_ORDER = TRADER_ORDER.then("sell_yellow yellow_cash redeem_keep enter_open spoil inner_keep block no_gift "
                                 "pair_raid")
(P_SELL_YELLOW, P_YELLOW_CASH, P_REDEEM_KEEP, P_ENTER_OPEN, P_SPOIL,
 P_INNER_KEEP, P_BLOCK, P_NO_GIFT, P_PAIR_RAID) = EXPERT_ORDER.indices()[len(TRADER_ORDER):]


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


@uncounted(I(TABLE, PARAMS, I), inline=True)
def spoiling_raid(table, params, seat):
    """The raid that costs a rival most: one of its At Risk cards of a set it holds whole (its clean and At Risk
    copies together), whose loss cuts that set's sale by ``spoil`` credits or more, paid from cash above the
    reserve (inside the inner circle, above ``inner_keep``: the raid sells no set of its own, and the inner circle
    ruins a player with no cash); 0 if none. The raid costs the seat the card's face in wealth (it pays 2 x face for it) and hands the
    rival as much, but a rival that redeems a pledged set sells it, at a multiple of that."""
    deal, best_loss = 0, 0
    keep = params[P_RESERVE]
    if seat_field(table, seat, F_CIRCLE) == INNER and params[P_INNER_KEEP] > keep:
        keep = params[P_INNER_KEEP]
    for q in range(table[H_PLAYERS]):
        if q == seat or seat_field(table, q, F_BANKRUPT) != 0:
            continue
        for c in range(table[H_COMMODITIES]):
            price = face(table, c) * table[H_RAID_MULTIPLE]
            if at_risk(table, q, c) == 0 or cash(table, seat) - keep < price:
                continue
            theirs = held(table, q, c) + at_risk(table, q, c)
            loss = set_value(table, c, theirs) - set_value(table, c, theirs - 1)
            if loss >= params[P_SPOIL] and loss > best_loss:
                deal, best_loss = pack_deal(DEAL_RAID, q, c), loss
    return deal


@uncounted(I(TABLE, I, I, I), inline=True)
def wealth_after_deal(table, q, c, multiple):
    """The total wealth seat q ends its turn with if it gets one more card of c in a deal at ``multiple`` x face
    (3 from a player, 2 in a raid) and sells its clean cards of c as a set; -1 when that makes no set or q cannot
    raise the price (cash, loans on the set sold at once, At Risk loans on its other cards). Buying at k x face
    costs (k - 1) x face in wealth; the sale adds what the set fetches over its cards' face."""
    cards = held(table, q, c) + 1
    if cards < table[H_MIN_SET]:
        return -1
    price = face(table, c) * multiple
    if cash(table, q) + (cards - 1) * loan_value(table, c) + loan_capacity(table, q, c, 1 << 62) < price:
        return -1
    return total_wealth(table, q) - price + face(table, c) + sale_gain(table, q, c, cards)


@uncounted(I(TABLE, I, I, I, I), inline=True)
def deal_wins_rival(table, seat, c, multiple, source):
    """Would a card of c, got in a deal at ``multiple`` x face from seat ``source``, let a rival of ``seat`` (not
    the source) reach the target this turn: 1 if so."""
    for q in range(table[H_PLAYERS]):
        if q != seat and q != source and seat_field(table, q, F_BANKRUPT) == 0 \
                and wealth_after_deal(table, q, c, multiple) >= table[H_TARGET]:
            return 1
    return 0


@uncounted(B(TABLE, I, I), inline=True)
def raid_wins(table, seat, deal):
    """Is the seat's own ``deal`` (as packed) a raid (which the owner cannot refuse) that reaches the target with
    the sale it completes."""
    kind, _, c = unpack_deal(deal)
    return kind == DEAL_RAID and wealth_after_deal(table, seat, c, table[H_RAID_MULTIPLE]) >= table[H_TARGET]


@uncounted(B(TABLE, I, I), inline=True)
def pledged_set_wins(table, q, c):
    """Would seat q reach the target by redeeming its At Risk cards of c and selling them with its clean ones as
    a set, where losing one At Risk card to a raid (which adds its face to q's wealth) would stop it."""
    theirs = held(table, q, c) + at_risk(table, q, c)
    if at_risk(table, q, c) == 0 or theirs < table[H_MIN_SET]:
        return False
    wealth = total_wealth(table, q)
    return wealth + sale_gain(table, q, c, theirs) >= table[H_TARGET] \
        and wealth + face(table, c) + sale_gain(table, q, c, theirs - 1) < table[H_TARGET]


@uncounted(I(TABLE, PARAMS, MEMORY, I), inline=True)
def blocking_deal(table, params, memory, seat):
    """The deal that takes from a third player the card a rival needs to reach the target in its next deal (the
    game is lost when it does): that player's At Risk copy in a raid at 2 x face, or (``block`` 2) a clean copy
    bought at 3 x face from the holder of fewest copies (asked least often first), paid from cash above the
    reserve; 0 if none. The seat pays (k - 1) x face in wealth for the card (and hands the third player as much),
    less than the race it keeps open; the purchases, at twice that, measured worse than raids alone."""
    best, best_face, best_slot = 0, 0, -1
    commodities = table[H_COMMODITIES]
    for c in range(commodities):
        price_raid = face(table, c) * table[H_RAID_MULTIPLE]
        price_buy = face(table, c) * table[H_BUY_MULTIPLE]
        if cash(table, seat) - params[P_RESERVE] < price_raid or face(table, c) <= best_face:
            continue
        pick, pick_kind, pick_key = -1, 0, 0.0
        for h in range(table[H_PLAYERS]):
            if h == seat or seat_field(table, h, F_BANKRUPT) != 0:
                continue
            if at_risk(table, h, c) > 0 and (deal_wins_rival(table, seat, c, table[H_RAID_MULTIPLE], h) != 0
                                            or pledged_set_wins(table, h, c)):
                pick, pick_kind = h, DEAL_RAID
                break
            if params[P_BLOCK] >= 2.0 and held(table, h, c) > 0 and cash(table, seat) - params[P_RESERVE] >= price_buy \
                    and deal_wins_rival(table, seat, c, table[H_BUY_MULTIPLE], h) != 0:
                slot = h * commodities + c
                key = (memory[slot] if slot < MEMORY_SIZE else 0.0) * 100.0 + held(table, h, c)
                if pick < 0 or key < pick_key:
                    pick, pick_kind, pick_key = h, DEAL_BUY, key
        if pick >= 0:
            best, best_face = pack_deal(pick_kind, pick, c), face(table, c)
            best_slot = pick * commodities + c if pick_kind == DEAL_BUY else -1
    if 0 <= best_slot < MEMORY_SIZE:
        memory[best_slot] += 1.0
    return best


@uncounted(I(TABLE, PARAMS, I), inline=True)
def urgent_redeem(table, params, seat):
    """The seat's At Risk card whose raid would let a rival reach the target (the dearest such), if cash pays
    for redeeming it above the reserve; -1 if none."""
    left = redeemable_cards(table)
    pick = -1
    for c in range(table[H_COMMODITIES]):
        if left[c] > 0 and at_risk(table, seat, c) > 0 and (pick < 0 or face(table, c) > face(table, pick)) \
                and cash(table, seat) - redeem_cost(table, c) >= params[P_RESERVE] \
                and deal_wins_rival(table, seat, c, table[H_RAID_MULTIPLE], seat) != 0:
            pick = c
    return pick


@uncounted(B(TABLE, PARAMS, I, I), inline=True)
def gifts_win(table, params, seat, deal):
    """With ``no_gift``: would the seat's ``deal`` (as packed) hand the other side the target without winning the
    seat the game first? A deal at k x face adds (k - 1) x face to the other side's total wealth (a purchase: the
    price less the card; a raid: the price less the loan and interest it repays and the card's pledged worth, which
    is the card's face), and that player wins at the end of its own next turn unless it loses wealth before then;
    a deal whose sale reaches the target wins at the end of the seat's turn, first."""
    if deal == 0 or params[P_NO_GIFT] == 0.0:
        return False
    kind, q, c = unpack_deal(deal)
    multiple = table[H_RAID_MULTIPLE] if kind == DEAL_RAID else table[H_BUY_MULTIPLE]
    if total_wealth(table, q) + face(table, c) * (multiple - 1) < params[P_NO_GIFT] * table[H_TARGET]:
        return False
    return wealth_after_deal(table, seat, c, multiple) < table[H_TARGET]


@uncounted(I(TABLE, PARAMS, I), inline=True)
def pair_raid(table, params, seat):
    """The raid that makes a pair of a card it holds one of, when rivals hold two more At Risk copies (a set two raids
    away): the commodity whose set sale, less the two raids' cost in wealth (a face each), gains ``pair_raid``
    credits or more, most first; paid from cash above the reserve (inside the inner circle, above ``inner_keep``);
    0 if none."""
    keep = params[P_RESERVE]
    if seat_field(table, seat, F_CIRCLE) == INNER and params[P_INNER_KEEP] > keep:
        keep = params[P_INNER_KEEP]
    deal, best = 0, 0
    for c in range(table[H_COMMODITIES]):
        if held(table, seat, c) != 1 or at_risk(table, seat, c) != 0 or table[H_MIN_SET] != 3:
            continue
        price = face(table, c) * table[H_RAID_MULTIPLE]
        gain = sale_gain(table, seat, c, 3) - 2 * face(table, c)
        if gain < params[P_PAIR_RAID] or gain <= best or cash(table, seat) - keep < 2 * price:
            continue
        copies, first = 0, -1
        for q in range(table[H_PLAYERS]):
            if q != seat and seat_field(table, q, F_BANKRUPT) == 0 and at_risk(table, q, c) > 0:
                copies += at_risk(table, q, c)
                if first < 0:
                    first = q
        if copies >= 2:
            deal, best = pack_deal(DEAL_RAID, first, c), gain
    return deal


@uncounted(DECISION_SIGNATURE)
def expert_deal(table, params, memory, state, query):
    """The trader's deal (the card that completes or enlarges a set, at the best margin over its price, a raid
    before a purchase), but a purchase goes to the holder it has offered that commodity to least often this
    game, then the one holding fewest copies: a player who refused it keeps refusing (raider refuses every
    offer), and the deal is one a turn. ``memory`` counts its offers, one entry per (seat, commodity). With no
    such deal, or before a purchase (which the holder may refuse), the raid towards a set two raids away
    (pair_raid); with neither, the spoiling raid (spoiling_raid). No deal that hands the other side the target
    (gifts_win)."""
    seat = query[Q_SEAT]
    deal = best_deal(table, params, memory, query, True)
    if gifts_win(table, params, seat, deal):
        deal = 0
    if params[P_BLOCK] != 0.0 and not raid_wins(table, seat, deal):
        if urgent_redeem(table, params, seat) >= 0:
            return 0        # a deal purchase would bar redeeming the card a rival's raid wins with
        block = blocking_deal(table, params, memory, seat)
        if block != 0 and not gifts_win(table, params, seat, block):
            return block
    if params[P_PAIR_RAID] > 0.0 and (deal == 0 or unpack_deal(deal)[0] == DEAL_BUY):
        pair = pair_raid(table, params, seat)      # a raid is sure; an offer may be refused
        if pair != 0 and not gifts_win(table, params, seat, pair):
            deal = pair
    if deal == 0 and params[P_SPOIL] > 0.0:
        deal = spoiling_raid(table, params, seat)
        if gifts_win(table, params, seat, deal):
            deal = 0
    return deal


@uncounted(DECISION_SIGNATURE)
def expert_answer(table, params, memory, state, query):
    """Sell one card at 3 x face (2 x face of wealth to me) unless it builds a set of mine (keep_from copies) or
    gains the buyer anything: a card that completes or enlarges its set gains it more than the price."""
    seat = query[Q_SEAT]
    c = query[Q_COMMODITY]
    if held(table, seat, c) >= params[P_KEEP_FROM]:
        return 0
    buyer = query[Q_FROM]
    theirs = held(table, buyer, c) + 1
    their_gain = face(table, c) - query[Q_PRICE]
    if theirs >= table[H_MIN_SET]:
        their_gain += sale_gain(table, buyer, c, theirs)
    return 1 if their_gain <= 0 else 0


@uncounted(DECISION_SIGNATURE)
def expert_buy(table, params, memory, state, query):
    """A yellow card that can still become a set, borrowing At Risk for it; any other card the trader
    would buy. Inside the inner circle, where a turned card is dear and refusing it costs 10% of its face, a card
    of a commodity it holds none of only while cash stays above ``inner_keep`` after paying for it: a lone dear
    card bought on loans leaves nothing for the next Handlers Charge or Command card, and the inner circle ruins
    a player with no cash."""
    seat = query[Q_SEAT]
    c = query[Q_COMMODITY]
    price = query[Q_PRICE]
    if params[P_INNER_KEEP] > 0 and seat_field(table, seat, F_CIRCLE) == INNER \
            and held(table, seat, c) + at_risk(table, seat, c) == 0 and cash(table, seat) - price < params[P_INNER_KEEP]:
        return 0
    could_set = held(table, seat, c) + 1 + at_risk(table, seat, c) + in_pack(table, c) \
        + others_hold(table, seat, c) >= table[H_MIN_SET]
    if colour(table, c) == YELLOW and could_set:
        if cash(table, seat) + loan_capacity(table, seat, c, 1 << 62) - price >= params[P_RESERVE]:
            return 1
    return trader_buy(table, params, memory, state, query)


@uncounted(I(TABLE, I, I), inline=True)
def raid_threat(table, seat, c):
    """What a card of c put At Risk could hand a rival: the most any rival's set of c gains from raiding it."""
    worst = 0
    for q in range(table[H_PLAYERS]):
        if q != seat and seat_field(table, q, F_BANKRUPT) == 0:
            theirs = held(table, q, c)
            worst = max(worst, set_value(table, c, theirs + 1) - set_value(table, c, theirs))
    return worst


@uncounted(DECISION_SIGNATURE)
def expert_redeem(table, params, memory, state, query):
    """Redeeming is wealth-neutral (the card's worth rises by what it costs) and saves the card from the
    redeem_at_risk Command, which forfeits every At Risk card not paid for: so before rolling, after the
    trader's own redeems, redeem At Risk cards while cash stays above ``redeem_keep``: first those whose raid
    would hand a rival most (raid_threat), then the dearest."""
    seat = query[Q_SEAT]
    if params[P_BLOCK] != 0.0 and query[Q_CONTEXT] != REDEEM_COMMAND:
        pick = urgent_redeem(table, params, seat)
        if pick >= 0:
            return pick
    pick = trader_redeem(table, params, memory, state, query)
    if pick >= 0 or query[Q_CONTEXT] == REDEEM_COMMAND:
        return pick
    left = redeemable_cards(table)
    best_key = -1
    for c in range(table[H_COMMODITIES]):
        if left[c] > 0 and cash(table, seat) - redeem_cost(table, c) >= params[P_REDEEM_KEEP]:
            key = raid_threat(table, seat, c) + face(table, c)
            if key > best_key:
                pick, best_key = c, key
    return pick


@uncounted(DECISION_SIGNATURE)
def expert_borrow(table, params, memory, state, query):
    """The trader's borrowing (when, and the loans on a set sold at once), but an At Risk loan goes on the
    card whose raid would hand a rival the least (a set it completes or enlarges), then the cheapest single."""
    pick = trader_borrow(table, params, memory, state, query)
    if pick < 0 or pick >= SALE_LOAN:
        return pick
    seat = query[Q_SEAT]
    context = query[Q_CONTEXT]
    avoid = query[Q_COMMODITY] if context == BORROW_FOR_PURCHASE or context == BORROW_FOR_COMMAND_REDEEM else -1
    below = face(table, query[Q_COMMODITY]) if context == BORROW_FOR_COMMAND_REDEEM else 1 << 62
    mine = hand(table, seat)
    best, best_key = pick, -1.0
    for c in range(table[H_COMMODITIES]):
        if mine[c] == 0 or c == avoid or borrowable(table, seat, c) <= 0 or face(table, c) >= below:
            continue
        key = raid_threat(table, seat, c) + face(table, c) * (1.0 if mine[c] == 1 else 100.0)
        if best_key < 0 or key < best_key:
            best, best_key = c, key
    return best


@uncounted(DECISION_SIGNATURE)
def expert_enter(table, params, memory, state, query):
    """Enter the inner circle once total wealth reaches enter_at x the level's threshold; earlier (from the
    threshold) when a rival inside has enter_open x my wealth: rivals that grow rich there are joined, weak
    ones left to drain themselves on its Handlers Charges."""
    seat = query[Q_SEAT]
    wealth = total_wealth(table, seat)
    if wealth >= params[P_ENTER_AT] * table[H_INNER_WEALTH]:
        return 1
    if wealth < table[H_INNER_WEALTH]:
        return 0
    richest = 0
    for q in range(table[H_PLAYERS]):
        if q != seat and seat_field(table, q, F_BANKRUPT) == 0 and seat_field(table, q, F_CIRCLE) == INNER:
            richest = max(richest, total_wealth(table, q))
    return 1 if richest >= params[P_ENTER_OPEN] * wealth else 0


@uncounted(DECISION_SIGNATURE)
def expert_yellow(table, params, memory, state, query):
    """A yellow card when cash and loans reach yellow_cash (enough to buy a dear one), else a Command card
    with probability ``command`` (1 as shipped)."""
    seat = query[Q_SEAT]
    if cash(table, seat) + loan_capacity(table, seat, -1, 1 << 62) >= params[P_YELLOW_CASH]:
        return 0
    return 1 if rng.uniform(state) < params[P_COMMAND] else 0


# the trader's parameters as tuned for the expert (docs/strategies.md, "The experts": searches from the
# default-counter preset's reserve 296, enter_at 1.621, keep_from 1, then enter_at set by comparisons and kept by
# the search in experiments/uk-expert.toml)
_TUNED = {"reserve": 44, "enter_at": 2.0, "keep_from": 1, "leverage": 2, "command": 1}
EXPERT_PARAMS = {key: param.with_default(_TUNED[key]) if key in _TUNED else param for key, param in _PARAMS.items()}
EXPERT_PARAMS.update({
    "sell_yellow": Param(3, 1, 20, "int", "sell a yellow set once it has this many cards (sell_at for the others)"),
    "yellow_cash": Param(40251, 0, 1_000_000, "int", "on an outer yellow space, turn a yellow card only with this "
                                                     "much cash and loans; else a Command card"),
    "redeem_keep": Param(20000, 0, 1_000_000, "int", "before rolling, redeem At Risk cards (those a rival's set "
                                                      "needs, then the dearest) while cash stays above this"),
    "enter_open": Param(1.5, 1.0, 10.0, doc="enter the inner circle before enter_at (from the threshold) once a rival "
                                          "inside has this x my wealth"),
    "spoil": Param(10000, 0, 10_000_000, "int", "with no deal for a set of its own, raid a rival's At Risk card of a "
                                              "set it holds whole when that cuts the set's sale by this much "
                                              "(0: never)"),
    "inner_keep": Param(10000, 0, 1_000_000, "int", "inside the inner circle, buy a card of a commodity it holds "
                                                   "none of only while cash stays at least this after paying for it "
                                                   "(0: as outside)"),
    "block": Param(1, 0, 2, "int", "deny a rival the deal that would reach the target: redeem its own At Risk "
                                   "copy, else raid a third player's copy first (1), or also buy it (2); 0: never"),
    "no_gift": Param(1.0, 0.0, 1.0, doc="make no deal that brings the other side to this x the target wealth (at 1, "
                                        "it would win at the end of its next turn) unless the deal wins at once; "
                                        "0: never asked"),
    "pair_raid": Param(5000, 0, 10_000_000, "int", "with no raid for a set of its own, raid a second copy of a card "
                                                   "it holds one of when rivals hold two more At Risk and the set "
                                                   "would gain this much over the two raids' cost (0: never)"),
})
EXPERT_ORDER.declare(EXPERT_PARAMS)

expert = register(Strategy.build(
    "wheeler-dealer-uk", "expert", base=trader, deal=expert_deal, sell=expert_sell, answer=expert_answer, buy=expert_buy,
    yellow=expert_yellow, enter=expert_enter, redeem=expert_redeem, borrow=expert_borrow, params=EXPERT_PARAMS,
    doc="Races to the target wealth: sells the set that wins at once, buys wealth-neutral cards and borrows for "
        "yellow ones, redeems At Risk cards while cash allows and borrows where a raid helps no rival, offers each "
        "purchase to the holder it has asked least, raids towards a set two raids away, makes no deal that hands a "
        "rival the target, raids the pledged card of a rival's whole set, raids away (or "
        "redeems) the card a rival's winning deal needs, refuses offers "
        "that hand a rival a set, opens the inner circle late and keeps cash inside it, turns yellow cards only with the cash to buy them "
        "(docs/strategies.md, \"The experts\")."))
