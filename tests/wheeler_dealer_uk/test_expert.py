"""The UK `expert` (strategies/wheeler_dealer_uk_expert.py): registered, legal in checking mode, its decisions
do what its docs say on hand-built positions, and it beats a weak strategy in a small seeded run."""
import numpy as np
import pytest

from simkit.games.wheeler_dealer_uk.view import (
    BORROW_FOR_PAYMENT,
    D_ANSWER,
    D_BORROW,
    D_BUY,
    D_DEAL,
    D_ENTER,
    D_REDEEM,
    D_SELL,
    DEAL_BUY,
    DEAL_RAID,
    F_CIRCLE,
    H_INNER_WEALTH,
    H_REDEEMABLE,
    H_TARGET,
    INNER,
    Q_COMMODITY,
    Q_CONTEXT,
    Q_FROM,
    Q_KIND,
    Q_PRICE,
    Q_SEAT,
    QUERY_SIZE,
    REDEEM_VOLUNTARY,
    pack_deal,
    pack_sale,
    redeem_cost,
    total_wealth,
)
from simkit.strategy import MAX_PARAMS, registered

from .harness import Position
from .test_engine import per_seat, play

EXPERT = registered("wheeler-dealer-uk")["expert"]


def ask(position, decision, name, seat, overrides=None, memory=None, **fields):
    """One decision of the expert (with parameter ``overrides``, and its ``memory`` if given) on a hand-built
    position, as the engine asks it."""
    query = np.zeros(QUERY_SIZE, np.int64)
    query[Q_SEAT], query[Q_KIND] = seat, decision
    for key, value in fields.items():
        query[{"commodity": Q_COMMODITY, "price": Q_PRICE, "buyer": Q_FROM, "context": Q_CONTEXT}[key]] = value
    table = position.table.view()
    table.setflags(write=False)
    query.setflags(write=False)
    params = EXPERT.param_vector(overrides or {})
    params.setflags(write=False)
    memory = np.zeros(128) if memory is None else memory
    return int(EXPERT.decisions[name](table, params, memory, np.ones(4, np.uint64), query))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_expert_is_registered_and_legal(players):
    lineup = ["expert"] + ["default-counter", "commander", "random", "expert", "raider"][:players - 1]
    _, columns = play(lineup, 40, seed=60 + players)
    assert per_seat(columns, "illegal_actions", players)[:, [i for i, s in enumerate(lineup) if s != "random"]].sum() == 0


def test_expert_sells_the_set_that_reaches_the_target_at_once():
    p = Position(players=2)
    p.give(0, "Sugar", 3)                                # a green set: sold at three
    assert ask(p, D_SELL, "sell", 0) == pack_sale(p.c("Sugar"), 3)
    p = Position(players=2)
    p.give(0, "Silver", 3)                               # yellow, more copies to come, far from the target
    p.give(1, "Silver", 1)
    p.table[H_TARGET] = 10_000_000
    assert ask(p, D_SELL, "sell", 0) == pack_sale(p.c("Silver"), 3)   # sell_yellow is 3
    p.table[H_TARGET] = 100_000                          # the sale wins: sold whatever the settings
    assert ask(p, D_SELL, "sell", 0) == pack_sale(p.c("Silver"), 3)


def test_expert_refuses_to_hand_a_rival_a_set_but_sells_a_spare_card():
    keep_one = {"keep_from": 2}                          # as shipped (keep_from 1) it refuses every offer
    p = Position(players=2)
    p.give(0, "Diamonds", 1)
    p.give(1, "Diamonds", 2)                             # my card would complete a set worth 1,200,000
    p.set_cash(1, 10_000)
    assert ask(p, D_ANSWER, "answer", 0, keep_one, commodity=p.c("Diamonds"), price=300_000, buyer=1) == 0
    assert ask(p, D_ANSWER, "answer", 0, commodity=p.c("Diamonds"), price=300_000, buyer=1) == 0
    p = Position(players=2)
    p.give(0, "Potatoes", 1)
    p.give(1, "Potatoes", 1)                             # no set for the buyer: 2 x face is mine
    assert ask(p, D_ANSWER, "answer", 0, keep_one, commodity=p.c("Potatoes"), price=1_500, buyer=1) == 1
    assert ask(p, D_ANSWER, "answer", 0, commodity=p.c("Potatoes"), price=1_500, buyer=1) == 0


def test_expert_offers_a_purchase_to_the_holder_it_has_asked_least_often():
    p = Position(players=3)
    p.give(0, "Sugar", 2)                # a third Sugar completes its set: worth buying at 3 x face
    p.give(1, "Sugar", 1)
    p.give(2, "Sugar", 1)
    p.set_cash(0, 50_000)
    memory = np.zeros(128)
    sugar = p.c("Sugar")
    offers = [ask(p, D_DEAL, "deal", 0, memory=memory) for _ in range(4)]
    assert offers == [pack_deal(DEAL_BUY, 1, sugar), pack_deal(DEAL_BUY, 2, sugar)] * 2   # refused: the other holder
    p.give(1, "Sugar", 1)                # seat 1 now holds two: with the offers even, the one holding fewer first
    assert ask(p, D_DEAL, "deal", 0, memory=memory) == pack_deal(DEAL_BUY, 2, sugar)


def test_expert_borrows_on_the_card_whose_raid_helps_no_rival():
    p = Position(players=2)
    p.give(0, "Silver", 1)
    p.give(0, "Gold", 1)
    p.give(1, "Silver", 2)          # a raid on my Silver would complete seat 1's set: borrow on the dearer Gold
    assert ask(p, D_BORROW, "borrow", 0, context=BORROW_FOR_PAYMENT) == p.c("Gold")
    p = Position(players=2)
    p.give(0, "Silver", 1)
    p.give(0, "Gold", 1)            # no rival collects either: the cheapest single, as the trader
    assert ask(p, D_BORROW, "borrow", 0, context=BORROW_FOR_PAYMENT) == p.c("Silver")


def test_expert_redeems_the_card_a_rival_could_raid_while_cash_stays_above_redeem_keep():
    p = Position(players=2)
    p.give(0, "Potatoes", 1, at_risk=True)
    p.give(0, "Tea", 1, at_risk=True)
    p.give(1, "Potatoes", 2)        # a raid on my Potatoes completes seat 1's set: redeemed before the dearer Tea
    for name in ("Potatoes", "Tea"):
        p.table[p.table[H_REDEEMABLE] + p.c(name)] = 1
    p.set_cash(0, 30_000)
    assert ask(p, D_REDEEM, "redeem", 0, context=REDEEM_VOLUNTARY) == p.c("Potatoes")
    p.set_cash(0, 20_000 + redeem_cost(p.table, p.c("Potatoes")) - 1)   # redeem_keep 20,000 as shipped
    assert ask(p, D_REDEEM, "redeem", 0, context=REDEEM_VOLUNTARY) == -1


def test_expert_opens_the_inner_circle_late_but_follows_a_rich_rival():
    p = Position(players=2)
    threshold = int(p.table[H_INNER_WEALTH])
    p.set_cash(0, int(1.5 * threshold))
    p.set_cash(1, int(1.5 * threshold))
    assert ask(p, D_ENTER, "enter", 0, {"enter_at": 2.0}) == 0
    assert ask(p, D_ENTER, "enter", 0, {"enter_at": 1.4}) == 1
    p.set_cash(1, 3 * threshold)    # a rival with twice my wealth, outside
    assert ask(p, D_ENTER, "enter", 0, {"enter_at": 2.0, "enter_open": 1.9}) == 0
    p.field(1, F_CIRCLE, INNER)     # and inside: followed
    assert ask(p, D_ENTER, "enter", 0, {"enter_at": 2.0, "enter_open": 1.9}) == 1
    assert ask(p, D_ENTER, "enter", 0, {"enter_at": 2.0, "enter_open": 2.1}) == 0
    p.set_cash(0, threshold - 1)    # below the threshold it follows nobody
    assert ask(p, D_ENTER, "enter", 0, {"enter_at": 2.0, "enter_open": 1.0}) == 0


def test_expert_keeps_cash_for_the_inner_circle_instead_of_a_lone_dear_card():
    p = Position(players=2)
    p.give(0, "Tin", 2)                      # cards to borrow on
    p.give(1, "Diamonds", 2)                 # copies left: a Diamond can still become a set
    p.set_cash(0, 105_000)
    diamonds = p.c("Diamonds")
    assert ask(p, D_BUY, "buy", 0, commodity=diamonds, price=100_000) == 1      # outside: bought, on loans if need be
    p.field(0, F_CIRCLE, INNER)
    assert ask(p, D_BUY, "buy", 0, commodity=diamonds, price=100_000) == 0      # inside: 5,000 left, under inner_keep
    assert ask(p, D_BUY, "buy", 0, {"inner_keep": 5_000}, commodity=diamonds, price=100_000) == 1
    p.set_cash(0, 95_000)                    # 0: as outside, on loans if need be
    assert ask(p, D_BUY, "buy", 0, {"inner_keep": 0}, commodity=diamonds, price=100_000) == 1
    p.give(0, "Diamonds", 1)                 # a second copy builds a set: bought whatever the cash left
    assert ask(p, D_BUY, "buy", 0, commodity=diamonds, price=100_000) == 1


def test_expert_raids_the_pledged_card_of_a_rivals_whole_set_when_the_set_loses_spoil():
    p = Position(players=3)
    p.set_cash(0, 50_000)
    p.give(1, "Sugar", 2)
    p.give(1, "Sugar", 1, at_risk=True)      # seat 1 would redeem it and sell three Sugar
    p.give(2, "Tea", 2)
    p.give(2, "Tea", 1, at_risk=True)        # a red set loses 6,000, under spoil (10,000 as shipped)
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_RAID, 1, p.c("Sugar"))
    assert ask(p, D_DEAL, "deal", 0, {"spoil": 18_001}) == 0     # the Sugar set loses 18,000
    assert ask(p, D_DEAL, "deal", 0, {"spoil": 0}) == 0          # 0: never
    p.give(2, "Silver", 3)
    p.give(2, "Silver", 1, at_risk=True)     # losing the fourth Silver costs seat 2 more: that raid first
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_RAID, 2, p.c("Silver"))
    p.set_cash(0, 10_000)                    # the raid (2 x face) only from cash above the reserve
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_RAID, 1, p.c("Sugar"))
    p.set_cash(0, 3_000)
    assert ask(p, D_DEAL, "deal", 0) == 0
    p.set_cash(0, 13_000)                    # inside the inner circle, from cash above inner_keep (10,000)
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_RAID, 1, p.c("Sugar"))
    p.field(0, F_CIRCLE, INNER)
    assert ask(p, D_DEAL, "deal", 0) == 0
    assert ask(p, D_DEAL, "deal", 0, {"inner_keep": 9_000}) == pack_deal(DEAL_RAID, 1, p.c("Sugar"))


def gold_race(at_risk_source=False):
    """Seat 1 holds two Gold (face 40,000) and 100,000 in cash; seat 2 holds one more Gold (At Risk if asked), the
    card seat 1's deal needs for a set of three (480,000); seat 0, the expert, has 300,000 in cash."""
    p = Position(players=3)
    p.set_cash(0, 300_000)
    p.give(1, "Gold", 2)
    p.set_cash(1, 100_000)
    p.give(2, "Gold", 1, at_risk=at_risk_source)
    return p


def test_expert_takes_from_a_third_player_the_card_a_rivals_winning_deal_needs():
    p = gold_race()
    gold = p.c("Gold")
    # bought at 3 x face (120,000: -80,000 of wealth) and sold as a set (+360,000 over the cards' face)
    p.table[H_TARGET] = total_wealth(p.table, 1) + 280_000
    buys = {"block": 2}                                              # as shipped (1) it only raids
    assert ask(p, D_DEAL, "deal", 0, buys) == pack_deal(DEAL_BUY, 2, gold)
    assert ask(p, D_DEAL, "deal", 0) == 0
    assert ask(p, D_DEAL, "deal", 0, {"block": 0}) == 0             # 0: never (no deal of its own here)
    p.table[H_TARGET] += 1                                           # the deal would fall short: left alone
    assert ask(p, D_DEAL, "deal", 0, buys) == 0
    p = gold_race(at_risk_source=True)                                # a raid (2 x face) gains seat 1 40,000 more
    p.table[H_TARGET] = total_wealth(p.table, 1) + 320_000
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_RAID, 2, gold)   # raided first, at 80,000
    p.set_cash(0, 80_000)                                             # only from cash above the reserve
    assert ask(p, D_DEAL, "deal", 0) == 0
    p = gold_race()
    p.set_cash(1, 100_000 - 40_000 - 1)        # seat 1 cannot raise 120,000 (cash and loans on its two Gold)
    p.table[H_TARGET] = total_wealth(p.table, 1) + 280_000
    assert ask(p, D_DEAL, "deal", 0, buys) == 0


def test_expert_redeems_first_the_card_whose_raid_wins_a_rival_the_game():
    p = gold_race()
    gold, tea = p.c("Gold"), p.c("Tea")
    p.give(0, "Gold", 1, at_risk=True)         # seat 1 would raid my Gold (at 80,000) and sell three
    p.give(0, "Tea", 1, at_risk=True)
    p.give(2, "Tea", 2)                        # a raid on my Tea would complete seat 2's set: redeem_keep's first pick
    for c in (gold, tea):
        p.table[p.table[H_REDEEMABLE] + c] = 1
    p.table[H_TARGET] = total_wealth(p.table, 1) + 320_000
    p.set_cash(0, 30_000)                      # below redeem_keep (20,000) after redeeming the Gold (22,000)
    assert ask(p, D_REDEEM, "redeem", 0, context=REDEEM_VOLUNTARY) == gold
    assert ask(p, D_REDEEM, "redeem", 0, {"block": 0}, context=REDEEM_VOLUNTARY) == tea
    assert ask(p, D_DEAL, "deal", 0) == 0      # no deal (a purchase would bar redeeming), not even the blocking one
    p.table[H_TARGET] += 1
    assert ask(p, D_REDEEM, "redeem", 0, context=REDEEM_VOLUNTARY) == tea


def test_expert_makes_its_own_winning_raid_before_blocking():
    p = gold_race()
    p.give(0, "Silver", 2)
    p.give(2, "Silver", 1, at_risk=True)       # my raid completes three Silver (120,000)
    silver = p.c("Silver")
    p.table[H_TARGET] = total_wealth(p.table, 1) + 280_000          # seat 1 threatens to win too
    assert ask(p, D_DEAL, "deal", 0, {"block": 2}) == pack_deal(DEAL_BUY, 2, p.c("Gold"))
    p.table[H_TARGET] = total_wealth(p.table, 0) - 20_000 + 10_000 + 90_000   # my raid wins: raid first
    assert ask(p, D_DEAL, "deal", 0, {"block": 2}) == pack_deal(DEAL_RAID, 2, silver)


def test_expert_makes_no_deal_that_hands_the_seller_the_target():
    p = Position(players=2)
    p.give(0, "Sugar", 2)                # a third Sugar (face 2,000) completes my set: bought at 6,000, +8,000 to me
    p.give(1, "Sugar", 1)
    p.set_cash(0, 50_000)
    p.set_cash(1, 100_000)
    sugar = p.c("Sugar")
    rich = total_wealth(p.table, 1)
    p.table[H_TARGET] = rich + 4_000 + 1                         # the price less the card (+4,000) leaves seat 1 short
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_BUY, 1, sugar)
    p.table[H_TARGET] -= 1                                         # now it would hand seat 1 the target
    assert ask(p, D_DEAL, "deal", 0) == 0
    assert ask(p, D_DEAL, "deal", 0, {"no_gift": 0}) == pack_deal(DEAL_BUY, 1, sugar)
    p.set_cash(0, rich - 8_000)                                    # unless my deal and sale reach it first
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_BUY, 1, sugar)
    p.set_cash(0, rich - 8_001)
    assert ask(p, D_DEAL, "deal", 0) == 0


def test_expert_raids_towards_a_set_two_raids_away():
    p = Position(players=3)
    p.give(0, "Gold", 1)
    p.give(1, "Gold", 1, at_risk=True)
    p.give(2, "Gold", 1, at_risk=True)   # two raids (80,000 each, 40,000 of wealth each) make three Gold (+360,000)
    p.set_cash(0, 160_044)               # both raids from cash above the reserve (44)
    gold = p.c("Gold")
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_RAID, 1, gold)
    assert ask(p, D_DEAL, "deal", 0, {"pair_raid": 0}) == 0
    assert ask(p, D_DEAL, "deal", 0, {"pair_raid": 280_001}) == 0    # the set gains 280,000 over the raids
    p.give(0, "Sugar", 2)
    p.give(2, "Sugar", 1)                # a purchase that completes a set may be refused: the sure raid first
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_RAID, 1, gold)
    assert ask(p, D_DEAL, "deal", 0, {"pair_raid": 0}) == pack_deal(DEAL_BUY, 2, p.c("Sugar"))
    p.set_cash(0, 160_043)
    assert ask(p, D_DEAL, "deal", 0) == pack_deal(DEAL_BUY, 2, p.c("Sugar"))
    p = Position(players=3)
    p.give(0, "Gold", 1)
    p.give(1, "Gold", 1, at_risk=True)   # one copy At Risk: the third would have to come from the pack
    p.give(2, "Gold", 1)
    p.set_cash(0, 300_000)
    assert ask(p, D_DEAL, "deal", 0) == 0


def test_expert_reads_parameters_past_the_old_sixteen():
    assert len(EXPERT.params) > 16 and len(EXPERT.params) <= MAX_PARAMS
    assert list(EXPERT.params).index("block") >= 16
    assert EXPERT.param_vector({"block": 0})[list(EXPERT.params).index("block")] == 0.0


def test_expert_beats_cautious_head_to_head():
    _, columns = play(["expert", "cautious"], 300, seed=71)
    wins = per_seat(columns, "winner", 2).mean(axis=0)
    _, columns = play(["cautious", "expert"], 300, seed=72)
    wins = wins + per_seat(columns, "winner", 2).mean(axis=0)[::-1]
    assert wins[0] > wins[1] + 0.2, wins
