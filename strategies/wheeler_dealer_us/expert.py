"""``expert``: the strongest shipped Wheeler-Dealer (US) player (docs/strategies.md, "The experts").

It plays the investor family's decisions where they serve (poaching, offers, forced borrowing: investor.py;
bumps and cards: level_two.py) and decides buying, bidding, answering offers, investing, repaying, the
Bamboozle and raising money by a value of each title to each seat:

- worth(title, seat) = what it adds to the seat's market value at the end (cost x titles held in the
  block), block progress and completion weighted by ``block_weight`` (valuation._value), plus
  ``rent_weight`` x the rent it adds over the rest of the game (rival landings per square still to come,
  from the cards left, x 3.5 pips x the multiple it adds), less the payoff of a debt;
- auctions are second-price (the winner pays the runner-up's maximum): it bids its worth plus ``deny`` x
  the most the title would add to a rival beyond its cost, and declines to buy a title at list price when
  no rival that may bid could or would pay the price (each rival's cash, and ``shade`` x the title's worth
  to it), then wins the auction below list price (as shipped, shade 0: it declines every title it could pay
  for and leaves the price to the auction);
- it accepts a deal only when it gains, and gains at least ``deal_ratio`` x what the other side gains (both
  sides valued by worth);
- at the Exchange, Kelly on net worth (``fraction``); late in the game, when its net worth is below
  ``chase`` x the leader's, the stake with the largest profit (a win needs a lead, not growth), and when it
  leads, the stake most likely to win (chase = 0: Kelly throughout);
- it repays loans only while REPAY_STAKES (3) smallest Exchange stakes stay in cash;
- a usable Bamboozle is always played (issue ruling U17c), aimed at the field: what I win less what I lose,
  plus what the victim loses less what it wins, that part weighted 1 for the leading rival and RIVAL_SHARE
  for the others; a debtor that could not cover the debt by borrowing on every title never asks to borrow
  (U16, U17b): it sells saved cards and titles instead.

The investor family has 16 parameters (strategy.MAX_PARAMS was 16 then; 24 now): the expert keeps the places
the reused decisions read (reserve, fraction, block_weight, block_buy, borrow_rule, repay_first, poach_ratio,
premium, protect, swaps, level2) and names its own in the places only the decisions it replaces read
(invest_rule, commodity, rich, bid_fraction, sell_premium).
"""
import numpy as np
from numba import types

from simkit.games.wheeler_dealer_us.view import (
    A_FINANCE_PROPERTY,
    A_RAISE_ITEM,
    A_RAISE_RESERVE,
    A_STAKE,
    A_TARGET,
    CK_BAMBOOZLE,
    CK_UNDERHANDED,
    DECISION_SIGNATURE,
    FINANCE_DONE,
    FINANCE_REPAY,
    P_INCOME,
    P_LOAN,
    PUB_AUCTION_INCREMENT,
    PUB_BAMBOOZLE_CASH,
    PUB_CARD_TYPES,
    PUB_CARDS_LEFT,
    PUB_COMMODITIES,
    PUB_COMMODITY_ROW,
    PUB_PLAYERS,
    PUB_SEAT,
    PUB_SQUARES,
    Q_BID_CARD_TYPE,
    Q_BID_PROPERTY,
    Q_BUY_PROPERTY,
    Q_DEAL_CASH,
    Q_DEAL_FROM,
    Q_DEAL_MINE,
    Q_DEAL_THEIRS,
    Q_INVEST_OPTIONAL,
    Q_INVEST_RAISING,
    Q_RAISE_SHORT,
    Q_RAISE_STEPS,
    Q_UNDERHANDED,
    RAISE_EXCHANGE,
    RAISE_GIVE_UP,
    RAISE_SELL,
    RAISE_SELL_CARD,
    S_ALIVE,
    S_ON_SCHOOL,
    bamboozle_target_ok,
    bid_limit,
    extra_exchange_open,
    owns_property,
    saved,
    seat_field,
    seat_net_worth,
)
from simkit.numba_tools import uncounted
from simkit.strategies.wheeler_dealer_us.investor import (
    INVESTOR_PARAMS,
    _kelly,
    _pick_sale,
    _raise,
    _resurrection,
    investor,
)
from simkit.strategies.wheeler_dealer_us.level_two import _bamboozle_plan
from simkit.strategies.wheeler_dealer_us.paying import _can_pay
from simkit.strategies.wheeler_dealer_us.valuation import (
    B1,
    FV,
    INVESTOR_ORDER,
    K_KIND,
    M_RAISE_AMOUNT,
    M_RAISE_INVEST,
    M_REPAY_MIN,
    M_TRIED,
    M_TRIED_CARDS,
    MINE,
    MINE_FIELDS,
    P_BLOCK,
    P_COST,
    P_PAYOFF,
    PARAMS,
    PR_BLOCK_WEIGHT,
    PR_REPAY_FIRST,
    PR_RESERVE,
    PUB_CARD_ROW,
    PUB_MIN_INVEST,
    PUB_PROPERTIES,
    SHOWN,
    SHOWN_TABLE,
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
    _fill_mine,
    _growth,
    _holding,
    _mask_add,
    _mask_has,
    _net_worth,
    _next_title,
    _value,
    _whole,
    cash,
    debt_ridden,
    owner,
)
from simkit.strategy import Param, Strategy, register

# the expert's own parameters, in the places of investor parameters that only the replaced decisions read
PR_DENY, PR_SHADE, PR_RENT_WEIGHT, PR_DEAL_RATIO, PR_CHASE = INVESTOR_ORDER.indices(
    "invest_rule commodity rich bid_fraction sell_premium")
CHASE_CARDS = 16       # "late in the game": this few Wheeler-Dealer cards left
PIPS = 3.5             # the mean of the die rolled for rent
RIVAL_SHARE = 0.3      # a Bamboozle: how much a rival's loss counts for me when it is not the leader
REPAY_STAKES = 3       # repay loans only while this many smallest Exchange stakes stay in cash


@uncounted(F(SHOWN, SHOWN_TABLE))
def _landings_left(public, table):
    """Rival landings still to come on one square: the turns left (one card a turn) that are rivals' turns,
    spread over the board."""
    alive = 0
    for seat in range(public[PUB_PLAYERS]):
        alive += seat_field(public, seat, S_ALIVE) != 0
    if alive < 2:
        return 0.0
    return public[PUB_CARDS_LEFT] * (alive - 1.0) / alive / public[PUB_SQUARES]


@uncounted(F(SHOWN, SHOWN_TABLE, PARAMS, I, I, F, F))
def _worth(public, table, params, seat, prop, weight, rent_weight):
    """What ``prop`` is worth to ``seat`` (its own or not): valuation._value with ``weight``, plus rent_weight x
    the rent the title adds over the landings left (its multiple with the block held so far, times the
    titles held), less its debt."""
    held = owner(public, prop) == seat
    k, s, _ = _holding(public, table, seat, prop)
    v = _value(table, prop, k, s, weight, held)
    before = k - 1 if held else k
    after = before + 1
    rent = after * table[prop, P_INCOME + after - 1]
    if before > 0:
        rent -= before * table[prop, P_INCOME + before - 1]
    v += rent_weight * PIPS * _landings_left(public, table) * rent
    return v - _debt(public, table, prop)


@uncounted(F(SHOWN, SHOWN_TABLE, PARAMS, I, I))
def _denial(public, table, params, seat, prop):
    """The most ``prop`` would add to a rival in the game beyond its cost (market value, weight 1)."""
    best = 0.0
    c = table[prop, P_COST]
    for other in range(public[PUB_PLAYERS]):
        if other != seat and seat_field(public, other, S_ALIVE) and owner(public, prop) != other:
            best = max(best, _worth(public, table, params, other, prop, 1.0, 0.0) + _debt(public, table, prop) - c)
    return best


@uncounted(B1(SHOWN, SHOWN_TABLE, PARAMS, I, I))
def _auction_cheaper(public, table, params, seat, prop):
    """No rival that may bid for a declined title (alive, not on School) could or would pay its cost: each
    bids at most its cash and, we assume, shade x the title's worth to it."""
    limit = table[prop, P_COST] - public[PUB_AUCTION_INCREMENT]
    for other in range(public[PUB_PLAYERS]):
        if other == seat or not seat_field(public, other, S_ALIVE) or seat_field(public, other, S_ON_SCHOOL):
            continue
        top = min(float(cash(public, other)),
                  params[PR_SHADE] * _worth(public, table, params, other, prop, 1.0, params[PR_RENT_WEIGHT]))
        if top >= limit:
            return False
    return True


@uncounted(F(SHOWN, SHOWN_TABLE, PARAMS, I, I))
def _bid_worth(public, table, params, seat, prop):
    """The most the title is worth paying for in a second-price auction: its worth, plus deny x its worth
    to the rival it helps most."""
    return (_worth(public, table, params, seat, prop, params[PR_BLOCK_WEIGHT], params[PR_RENT_WEIGHT])
            + params[PR_DENY] * _denial(public, table, params, seat, prop))


@uncounted(DECISION_SIGNATURE)
def _expert_buy(public, table, query, params, memory, state, out):
    """Buy what is worth its cost and affordable (investor._can_pay), unless the auction that follows a
    decline is sure to be cheaper."""
    seat = public[PUB_SEAT]
    prop = query[Q_BUY_PROPERTY]
    c = table[prop, P_COST]
    worth = _bid_worth(public, table, params, seat, prop)
    if worth < c:
        return 0
    if _auction_cheaper(public, table, params, seat, prop) and cash(public, seat) >= c:
        return 0
    _fill_mine(public, table, seat, memory)
    k = _holding(public, table, seat, prop)[0]
    return 1 if _can_pay(public, table, params, memory, seat, c, k >= 1, False) else 0


@uncounted(DECISION_SIGNATURE)
def _expert_bid(public, table, query, params, memory, state, out):
    """Second price: bid the title's worth (keeping the reserve); a Bamboozle card that must be used, a share
    of what it would win; another card, half its worth."""
    seat = public[PUB_SEAT]
    prop = query[Q_BID_PROPERTY]
    room = min(cash(public, seat) - params[PR_RESERVE], bid_limit(public, seat, query))
    if room <= 0:
        return 0
    if prop < 0:
        card_type = query[Q_BID_CARD_TYPE]
        kind = table[public[PUB_CARD_ROW] + card_type, K_KIND]
        if kind == CK_BAMBOOZLE or kind == CK_UNDERHANDED:
            _, target, edge = _bamboozle_plan(public, table, params, memory, seat, kind == CK_UNDERHANDED)
            worth = 0.5 * WIN_WAYS * edge if target >= 0 else 0.0
        else:
            worth = 0.5 * _card_worth(public, table, card_type)
        return np.int64(max(0.0, min(worth, room)))
    bid = min(_bid_worth(public, table, params, seat, prop), room)
    return np.int64(bid) if bid > 0 else 0


@uncounted(DECISION_SIGNATURE)
def _expert_answer(public, table, query, params, memory, state, out):
    """Accept a deal only when my gain is positive and at least deal_ratio x the offerer's (both by worth,
    cash included), and I keep the reserve."""
    seat = public[PUB_SEAT]
    other, theirs, mine, money = query[Q_DEAL_FROM], query[Q_DEAL_THEIRS], query[Q_DEAL_MINE], query[Q_DEAL_CASH]
    if money < 0 and cash(public, seat) + money < params[PR_RESERVE]:
        return 0
    weight, rent_weight = params[PR_BLOCK_WEIGHT], params[PR_RENT_WEIGHT]
    my_gain, their_gain = float(money), -float(money)
    if mine >= 0:
        my_gain -= _worth(public, table, params, seat, mine, weight, rent_weight)
        their_gain += _worth(public, table, params, other, mine, weight, rent_weight)
    if theirs >= 0:
        my_gain += _worth(public, table, params, seat, theirs, weight, rent_weight)
        their_gain -= _worth(public, table, params, other, theirs, weight, rent_weight)
    return 1 if my_gain > 0 and my_gain >= params[PR_DEAL_RATIO] * their_gain else 0


@uncounted(types.Tuple((I, F))(SHOWN, SHOWN_TABLE, I))
def _leading_rival(public, table, seat):
    """(seat, net worth) of the rival in the game with the largest net worth (view.seat_net_worth)."""
    leader, best = -1, -1e300
    for other in range(public[PUB_PLAYERS]):
        if other == seat or not seat_field(public, other, S_ALIVE):
            continue
        worth = float(seat_net_worth(public, table, other))
        if worth > best:
            leader, best = other, worth
    return leader, best


@uncounted(F(SHOWN, SHOWN_TABLE, FV, I))
def _leader_worth(public, table, memory, seat):
    """The largest net worth among the rivals in the game."""
    return _leading_rival(public, table, seat)[1]


@uncounted(I(SHOWN, SHOWN_TABLE, F))
def _largest_profit(public, table, money):
    """The stake money pays with the largest profit among those with a positive expected return (-1: none)."""
    row = public[PUB_COMMODITY_ROW]
    pick = -1
    for c in range(public[PUB_COMMODITIES]):
        if table[row + c, X_INVEST] <= money and _ev(table, row + c) > 0:
            if pick < 0 or table[row + c, X_RETURN] - table[row + c, X_INVEST] > \
                    table[row + pick, X_RETURN] - table[row + pick, X_INVEST]:
                pick = c
    return pick


@uncounted(I(SHOWN, SHOWN_TABLE, F))
def _safest(public, table, money):
    """The stake money pays with the most winning totals among those with a positive expected return."""
    row = public[PUB_COMMODITY_ROW]
    pick = -1
    for c in range(public[PUB_COMMODITIES]):
        if table[row + c, X_INVEST] <= money and _ev(table, row + c) > 0:
            if pick < 0 or table[row + c, X_WAYS] > table[row + pick, X_WAYS]:
                pick = c
    return pick


@uncounted(I(SHOWN, SHOWN_TABLE, F))
def _cheapest(public, table, money):
    row = public[PUB_COMMODITY_ROW]
    pick = -1
    for c in range(public[PUB_COMMODITIES]):
        stake = table[row + c, X_INVEST]
        if stake <= money and (pick < 0 or stake < table[row + pick, X_INVEST]
                               or (stake == table[row + pick, X_INVEST] and table[row + c, X_WAYS] * table[
                                   row + c, X_RETURN] > table[row + pick, X_WAYS] * table[row + pick, X_RETURN])):
            pick = c
    return pick


@uncounted(DECISION_SIGNATURE)
def _expert_invest(public, table, query, params, memory, state, out):
    """Raising money: the likeliest stake that covers the debt. Otherwise Kelly on net worth; late in the
    game and behind (below chase x the leader's net worth), the largest profit; late and leading, the safest. Optional (Trade Fair): only a
    stake that grows the bankroll and keeps the reserve."""
    seat = public[PUB_SEAT]
    money = float(cash(public, seat))
    if query[Q_INVEST_RAISING] != 0 or (query[Q_INVEST_OPTIONAL] == 1 and memory[M_RAISE_INVEST] != 0):
        memory[M_RAISE_INVEST] = 0.0
        return _resurrection(public, table, cash(public, seat), memory[M_RAISE_AMOUNT])
    bankroll = _net_worth(public, table, memory, seat)
    pick = -1
    if public[PUB_CARDS_LEFT] <= CHASE_CARDS and params[PR_CHASE] > 0:
        leader = _leader_worth(public, table, memory, seat)
        if bankroll < params[PR_CHASE] * leader:
            pick = _largest_profit(public, table, money)
        elif bankroll > leader:
            pick = _safest(public, table, money)
    if pick < 0:
        pick = _kelly(public, table, params, memory, cash(public, seat), bankroll)
    optional = query[Q_INVEST_OPTIONAL] == 1
    if optional:
        if pick < 0:
            return -1
        row = public[PUB_COMMODITY_ROW] + pick
        stake = table[row, X_INVEST]
        if money - stake < params[PR_RESERVE] or stake >= bankroll or _growth(table, row, bankroll) <= 0:
            return -1
        return pick
    return pick if pick >= 0 else _cheapest(public, table, money)


@uncounted(F(SHOWN, SHOWN_TABLE, I, I, B1))
def _title_worth(public, table, seat, prop, held):
    """Market value ``prop`` adds to ``seat``'s blocks (held: what losing it takes away), less its debt."""
    k, s, _ = _holding(public, table, seat, prop)
    return _value(table, prop, k, s, 1.0, held) - _debt(public, table, prop)


@uncounted(types.Tuple((I, I, F))(SHOWN, SHOWN_TABLE, FV, I, B1))
def _relative_bamboozle(public, table, memory, seat, underhanded):
    """(my stake or -1 for the cash stake, target, score) of the Bamboozle that best moves me against the
    field: for each eligible target and each stake, what I would win less what I would lose, plus what the
    victim would lose less what it would win, that part weighted 1 for the leading rival and RIVAL_SHARE for
    the others (only finishing ahead of everyone wins); target -1 when there is none or no stake."""
    leader = _leading_rival(public, table, seat)[0]
    owns = owns_property(public, seat)
    if not owns and cash(public, seat) < public[PUB_BAMBOOZLE_CASH]:
        return -1, -1, 0.0
    best_stake, best_target, best = -1, -1, -1e300
    for target in range(public[PUB_PROPERTIES]):
        if not bamboozle_target_ok(public, table, seat, target, underhanded):
            continue
        victim = owner(public, target)
        share = 1.0 if victim == leader else RIVAL_SHARE
        win = _title_worth(public, table, seat, target, False) + share * _title_worth(public, table, victim, target,
                                                                                       True)
        if not owns:
            stake_cash = float(public[PUB_BAMBOOZLE_CASH])
            score = win - (1.0 + share) * stake_cash
            if score > best:
                best_stake, best_target, best = -1, target, score
            continue
        for mine in range(public[PUB_PROPERTIES]):
            if owner(public, mine) != seat:
                continue
            lose = _title_worth(public, table, seat, mine, True) + share * _title_worth(public, table, victim, mine,
                                                                                         False)
            if win - lose > best:
                best_stake, best_target, best = mine, target, win - lose
    return best_stake, best_target, best


@uncounted(DECISION_SIGNATURE)
def _expert_bamboozle(public, table, query, params, memory, state, out):
    """Always play a usable Bamboozle (U17c), the stake and target that move me most against the field
    (_relative_bamboozle)."""
    mine, target, _ = _relative_bamboozle(public, table, memory, public[PUB_SEAT], query[Q_UNDERHANDED] != 0)
    if target < 0:
        return 0
    out[A_STAKE] = mine
    out[A_TARGET] = target
    return 1


@uncounted(I(SHOWN, SHOWN_TABLE, FV, I))
def _loans_open(public, table, memory, seat):
    """What borrowing on every title of the seat that is not debt-ridden would raise."""
    _fill_mine(public, table, seat, memory)
    total = 0
    prop = _next_title(public, memory, seat, -1)
    while prop >= 0:
        if not debt_ridden(public, prop):
            total += table[prop, P_LOAN]
        prop = _next_title(public, memory, seat, prop)
    return total


@uncounted(DECISION_SIGNATURE)
def _expert_raise(public, table, query, params, memory, state, out):
    """The investor's order (investor._raise) while borrowing could cover the debt; a hopeless debtor
    (U16, U17b: loans on every title would not cover it) may not borrow, and sells saved cards, then
    titles, then tries the Exchange."""
    seat = public[PUB_SEAT]
    short = query[Q_RAISE_SHORT]
    if _loans_open(public, table, memory, seat) >= short:
        return _raise(public, table, query, params, memory, state, out)
    if query[Q_RAISE_STEPS] == 0:
        memory[M_RAISE_AMOUNT] = short + cash(public, seat)
        memory[M_TRIED] = 0.0
        memory[M_TRIED_CARDS] = 0.0
    for t in range(public[PUB_CARD_TYPES]):
        if saved(public, seat, t) > 0 and not _mask_has(memory, M_TRIED_CARDS, t):
            _mask_add(memory, M_TRIED_CARDS, t)
            out[A_RAISE_ITEM] = t
            out[A_RAISE_RESERVE] = 0
            return RAISE_SELL_CARD
    filled = _fill_mine(public, table, seat, memory)
    for whole in (False, True):
        prop = _pick_sale(public, table, memory, params, seat, whole, filled)
        if prop >= 0:
            _mask_add(memory, M_TRIED, prop)
            out[A_RAISE_ITEM] = prop
            out[A_RAISE_RESERVE] = 0
            return RAISE_SELL
    if extra_exchange_open(public, seat):
        memory[M_RAISE_INVEST] = 1.0
        return RAISE_EXCHANGE
    return RAISE_GIVE_UP


@uncounted(DECISION_SIGNATURE)
def _expert_finance(public, table, query, params, memory, state, out):
    """Repay as the investor does (repay_first: whole blocks first, the block closest to debt-free first), but only while
    the cash left keeps REPAY_STAKES smallest Exchange stakes: a debt-ridden title costs nothing until it is
    poached, and the cash keeps the next rent or stake from forcing loans and sales."""
    seat = public[PUB_SEAT]
    money = cash(public, seat)
    floor = max(REPAY_STAKES * public[PUB_MIN_INVEST], params[PR_RESERVE])
    filled = _fill_mine(public, table, seat, memory)
    if money - memory[M_REPAY_MIN] < floor:  # no repayment keeps the floor: most calls end here
        return FINANCE_DONE
    pick, best = -1, 1e300
    prop = _next_title(public, memory, seat, -1)
    while prop >= 0:
        if debt_ridden(public, prop) and money - table[prop, P_PAYOFF] >= floor:
            k, _, debts = _block(public, table, memory, seat, table[prop, P_BLOCK], MINE, MINE_FIELDS, filled)
            key = float(table[prop, P_PAYOFF])   # repay_first 0: the cheapest payoff first
            if params[PR_REPAY_FIRST] != 0:
                key += debts * 1e6 if _whole(table, prop, k) else 1e9 - k * 1e6
            if key < best:
                pick, best = prop, key
        prop = _next_title(public, memory, seat, prop)
    if pick < 0:
        return FINANCE_DONE
    out[A_FINANCE_PROPERTY] = pick
    return FINANCE_REPAY


# the reused parameters: the tuned preset's values (this package's __init__)
# (premium 0: no offers, block_weight 1: worth is what a title adds to the market value, and deny and
# rent_weight 0 below, measured better than tuned's premium 1.645, block_weight 1.643 and the first guesses
# deny 0.5 and rent_weight 0.5: see experiments/us-expert.toml)
_START = {"fraction": 0.2289, "reserve": 269, "block_weight": 1.0, "block_buy": 1, "borrow_rule": 1,
          "repay_first": 1, "poach_ratio": 1.18, "premium": 0, "protect": 1}
_REPLACED = ("invest_rule", "commodity", "rich", "bid_fraction", "sell_premium")
EXPERT_PARAMS = {}
for _key, _param in INVESTOR_PARAMS.items():
    if _key == "invest_rule":
        EXPERT_PARAMS["deny"] = Param(0.0, 0.0, 3.0, doc="weight, in bids and buying, of what a title would add "
                                                         "to the rival it helps most beyond its cost")
    elif _key == "commodity":
        EXPERT_PARAMS["shade"] = Param(0.0, 0.0, 3.0, doc="decline a title at list price (and win its auction "
                                                          "below it) when every rival that may bid has less cash, "
                                                          "or shade x its worth to that rival is below the cost")
    elif _key == "rich":
        EXPERT_PARAMS["rent_weight"] = Param(0.0, 0.0, 3.0, doc="weight of the rent a title adds over the landings "
                                                                "left in its worth")
    elif _key == "bid_fraction":
        EXPERT_PARAMS["deal_ratio"] = Param(2.0, 0.0, 10.0, doc="accept a deal only when it gains me at least this "
                                                                "x what it gains the offerer (and more than 0)")
    elif _key == "sell_premium":
        EXPERT_PARAMS["chase"] = Param(0.8, 0.0, 2.0, doc="late in the game (16 cards left), with net worth below "
                                                          "this x the leader's, take the stake with the largest "
                                                          "profit; leading, the likeliest (0: Kelly throughout)")
    else:
        EXPERT_PARAMS[_key] = _param.with_default(_START[_key]) if _key in _START else _param
assert [list(EXPERT_PARAMS)[i] for i in (PR_DENY, PR_SHADE, PR_RENT_WEIGHT, PR_DEAL_RATIO, PR_CHASE)] == \
    ["deny", "shade", "rent_weight", "deal_ratio", "chase"]
assert all(list(INVESTOR_PARAMS)[i] == list(EXPERT_PARAMS)[i]
           for i in range(len(EXPERT_PARAMS)) if list(INVESTOR_PARAMS)[i] not in _REPLACED)

# built without a base: a base's parameters would come first (and, with MAX_PARAMS 16 when it was written, overflow)
_OWN = {"finance": _expert_finance, "buy": _expert_buy, "bid": _expert_bid, "deal_answer": _expert_answer, "invest": _expert_invest,
        "bamboozle": _expert_bamboozle, "raise": _expert_raise}
expert = register(Strategy.build(
    "wheeler-dealer-us", "expert", params=EXPERT_PARAMS, **{**investor.decisions, **_OWN},
    doc="Values every title by what it adds to each seat's blocks; declines titles at list price and bids their "
        "worth in the second-price auction that follows; deals only for twice the other side's gain; Kelly "
        "at the Exchange, the long stakes when behind late; repays keeping three stakes in cash; always plays a "
        "usable Bamboozle, aimed at the leading rival "
        "(docs/strategies.md, \"The experts\")."))
