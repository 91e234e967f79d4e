"""Hand-built Wheeler Dealer (UK) scenarios: every rule of a turn, every Command card kind, the FAQ rulings
(K1-K7 in docs/rules/wheeler-dealer-uk.md). Each sets up a table, scripts the seats' answers and runs one
engine step."""
import pytest

from simkit import rng
from simkit.games.wheeler_dealer_uk import engine as E
from simkit.games.wheeler_dealer_uk import state as S
from simkit.games.wheeler_dealer_uk import turn as T
from simkit.games.wheeler_dealer_uk.view import (
    BORROW_FOR_COMMAND_REDEEM,
    BORROW_FOR_PURCHASE,
    BORROW_FOR_REDEEM,
    DEAL_BUY,
    DEAL_RAID,
    DECISION_NAMES,
    F_CIRCLE,
    F_POSITION,
    F_RISK_CARDS,
    pack_deal,
    pack_sale,
    pack_sale_loan,
    set_value,
)

from .harness import Position

# a board where every roll from space 0 lands on a red space, and a card declined there costs nothing: the
# roll that ends a turn changes no credits
QUIET = ("board.outer=BRRRRRRRRRRRR", "game.handlers_charge=0")
CHARGE = ("game.handlers_charge=0.1",)


def quiet(players=3, sets=(), **kw):
    position = Position(players, sets=QUIET + tuple(sets), **kw)
    for seat in range(players):
        position.place(seat, 0)
    return position


# ---- spaces ---------------------------------------------------------------------------------------

def test_a_turned_card_is_bought_at_face_value():
    t = quiet()
    t.set_pack("red", ["Potatoes", "Carrots"])
    t.script(0, "buy", [1])
    T._turn_card(t.ctx, 0, 0)
    assert (t.held(0, "Potatoes"), t.cash(0), t.pack("red")) == (1, 9500, ["Carrots"])


def test_a_declined_card_costs_the_handlers_charge_rounded_up_and_goes_to_the_bottom():
    t = quiet(sets=("game.handlers_charge=0.15",))
    t.set_pack("red", ["Carrots", "Potatoes"])
    T._turn_card(t.ctx, 0, 0)
    assert t.cash(0) == 10000 - 83            # 15% of 550 = 82.5: payments to the bank round up (K7)
    assert t.pack("red") == ["Potatoes", "Carrots"] and t.held(0, "Carrots") == 0


def test_short_of_a_wanted_card_the_seat_borrows_at_risk_then_buys():
    t = quiet()
    t.set_cash(0, 100)
    t.give(0, "Tea", 5)
    t.set_pack("green", ["Sugar"])
    t.script(0, "buy", [1])
    t.script(0, "borrow", [t.c("Tea")] * 5)
    T._turn_card(t.ctx, 0, 1)
    assert t.held(0, "Sugar") == 1 and t.at_risk(0, "Tea") == 4 and t.cash(0) == 100 + 4 * 500 - 2000
    assert [e[4] for e in t.events() if e[0] == "loan"] == [BORROW_FOR_PURCHASE] * 4   # stops once it is enough


def test_a_seat_that_will_not_borrow_for_a_card_pays_the_charge_instead():
    t = quiet(sets=CHARGE)
    t.set_cash(0, 100)
    t.give(0, "Tea")
    t.set_pack("green", ["Sugar"])
    t.script(0, "buy", [1])
    T._turn_card(t.ctx, 0, 1)
    assert t.held(0, "Sugar") == 0 and t.cash(0) == 100 - 200 + 500 and t.at_risk(0, "Tea") == 1


def test_an_unpayable_charge_after_every_loan_is_bankruptcy():
    t = quiet(sets=CHARGE)
    t.set_cash(0, 1000)
    t.give(0, "Potatoes")                      # a loan of 250 does not cover a 10,000 charge
    t.set_pack("yellow", ["Diamonds", "Gold"])
    t.give(0, "Eggs", 1, at_risk=True)
    T._turn_card(t.ctx, 0, 2)
    assert t.bankrupt(0) and t.cash(0) == 0
    assert t.pack("yellow") == ["Gold", "Diamonds"]
    assert sorted(t.pack("red")) == ["Eggs", "Potatoes"]   # its cards, At Risk ones too, to the bottom
    assert t.bank_balance() == 250 - 1250                  # the loan paid out, all its cash taken in


def test_an_empty_pack_means_nothing_happens_k6():
    t = quiet()
    T._turn_card(t.ctx, 0, 0)
    assert t.kinds() == ["empty_pack"] and t.cash(0) == 10000


def test_outer_yellow_space_offers_a_yellow_card_or_a_command_card():
    t = Position(2)
    t.place(0, 4)                               # default board: space 4 is yellow
    t.set_pack("yellow", ["Silver"])
    t.set_commands([("collect", 2000)])
    T._act_on_space(t.ctx, 0)
    assert "card" in t.kinds() and "command" not in t.kinds()
    t = Position(2)
    t.place(0, 4)
    t.set_pack("yellow", ["Silver"])
    t.set_commands([("collect", 2000)])
    t.script(0, "yellow", [1])
    T._act_on_space(t.ctx, 0)
    assert t.kinds() == ["yellow_command", "command"] and t.cash(0) == 12000 and t.pack("yellow") == ["Silver"]


def test_blue_spaces_outer_pay_a_bonus_inner_do_not():
    t = Position(2)
    t.place(0, 0)
    t.set_commands([("collect", 2000), ("collect", 2000)])
    T._act_on_space(t.ctx, 0)
    assert t.cash(0) == 10000 + 5000 + 2000
    t.place(1, 0, inner=True)                   # default inner board: space 0 is blue
    T._act_on_space(t.ctx, 1)
    assert t.cash(1) == 10000 + 2000


# ---- before rolling: deals, redeeming, sets, loans ------------------------------------------------

def test_buying_a_card_from_a_player_at_three_times_face():
    t = quiet()
    t.set_cash(0, 20000)
    t.give(1, "Cotton")
    t.script(1, "answer", [1])
    T._deal(t.ctx, 0, pack_deal(DEAL_BUY, 1, t.c("Cotton")))
    assert (t.held(0, "Cotton"), t.held(1, "Cotton"), t.cash(0), t.cash(1)) == (1, 0, 8000, 22000)
    assert t.stat(0, "bought_from_players") == 1 and t.stat(1, "sold_to_players") == 1


def test_a_refused_offer_moves_nothing_and_uses_up_the_deal_k7():
    t = quiet()
    t.give(1, "Cotton")
    t.script(0, "deal", [pack_deal(DEAL_BUY, 1, t.c("Cotton")), pack_deal(DEAL_BUY, 1, t.c("Cotton"))])
    t.script(1, "answer", [0, 1])
    E._turn(t.ctx, 0)
    assert t.held(1, "Cotton") == 1 and t.stat(0, "offers_refused") == 1
    assert t.kinds().count("refused") == 1 and "deal" not in t.kinds()   # asked once a turn


def test_a_bought_card_is_paid_with_loans_when_short():
    t = quiet()
    t.set_cash(0, 0)
    t.give(0, "Diamonds")
    t.give(1, "Cotton")
    t.script(1, "answer", [1])
    t.script(0, "borrow", [t.c("Diamonds")])
    T._deal(t.ctx, 0, pack_deal(DEAL_BUY, 1, t.c("Cotton")))
    assert t.held(0, "Cotton") == 1 and t.at_risk(0, "Diamonds") == 1 and t.cash(0) == 50000 - 12000
    assert t.cash(1) == 10000 + 12000


def test_raiding_an_at_risk_card_at_two_times_face_the_owner_repays_the_loan():
    t = quiet()
    t.give(1, "Cotton", at_risk=True)
    T._deal(t.ctx, 0, pack_deal(DEAL_RAID, 1, t.c("Cotton")))
    assert t.held(0, "Cotton") == 1 and t.at_risk(0, "Cotton") == 0      # arrives clean (K7)
    assert t.at_risk(1, "Cotton") == 0
    assert t.cash(0) == 10000 - 8000 and t.cash(1) == 10000 + 8000 - 2200   # loan 2,000 + 10%


def test_a_deal_for_a_card_the_other_does_not_have_is_refused_as_illegal():
    t = quiet()
    T._deal(t.ctx, 0, pack_deal(DEAL_BUY, 1, t.c("Cotton")))
    T._deal(t.ctx, 0, pack_deal(DEAL_RAID, 0, t.c("Cotton")))
    assert t.stat(0, "illegal_actions") == 2 and t.cash(0) == 10000


def test_a_set_completed_by_a_deal_is_sold_in_the_same_turn_and_redeeming_is_barred():
    t = quiet()
    t.give(0, "Potatoes", 2)
    t.give(0, "Tea", 1, at_risk=True)
    t.give(1, "Potatoes")
    t.script(0, "deal", [pack_deal(DEAL_BUY, 1, t.c("Potatoes"))])
    t.script(1, "answer", [1])
    t.script(0, "redeem", [t.c("Tea")])
    t.script(0, "sell", [pack_sale(t.c("Potatoes"), 3)])
    E._turn(t.ctx, 0)
    assert t.held(0, "Potatoes") == 0 and t.stat(0, "sets_sold") == 1
    assert t.at_risk(0, "Tea") == 1 and "redeem" not in t.kinds()        # a deal purchase bars redeeming
    assert t.cash(0) == 10000 - 1500 + 3000                             # red set of 3: 2 x 500 x 3


def test_redeeming_comes_before_selling_and_makes_the_card_count_for_a_set_k2():
    t = quiet()
    t.give(0, "Potatoes", 2)
    t.give(0, "Potatoes", 1, at_risk=True)
    t.give(0, "Sugar", 3)                                                      # so that selling is asked at all
    t.script(0, "sell", [pack_sale(t.c("Potatoes"), 3)])
    E._turn(t.ctx, 0)
    assert t.stat(0, "illegal_actions") == 1 and t.held(0, "Potatoes") == 2   # an At Risk card is not in the set
    t = quiet()
    t.give(0, "Potatoes", 2)
    t.give(0, "Potatoes", 1, at_risk=True)
    t.script(0, "redeem", [t.c("Potatoes")])
    t.script(0, "sell", [pack_sale(t.c("Potatoes"), 3)])
    E._turn(t.ctx, 0)
    assert t.stat(0, "sets_sold") == 1 and t.cash(0) == 10000 - 275 + 3000   # 250 + 10% = 275


def test_several_sets_in_one_turn_and_a_set_dealt_at_the_start_sells_on_the_first_turn():
    t = quiet()
    t.give(0, "Potatoes", 3)
    t.give(0, "Sugar", 4)
    t.script(0, "sell", [pack_sale(t.c("Potatoes"), 3), pack_sale(t.c("Sugar"), 4)])
    E._turn(t.ctx, 0)
    assert t.stat(0, "sets_sold") == 2
    assert t.cash(0) == 10000 + 3000 + (3 + 1) * 2000 * 4        # green 3x + 1 for the fourth card
    assert t.pack("red") == ["Potatoes"] * 3 and t.pack("green") == ["Sugar"] * 4   # to the bottom of their packs


def test_voluntary_loans_before_rolling_pay_half_face_rounded_down():
    t = quiet(sets=("game.at_risk_loan_fraction=0.45",))
    t.give(0, "Carrots")
    t.script(0, "borrow", [t.c("Carrots")])
    E._turn(t.ctx, 0)
    assert t.at_risk(0, "Carrots") == 1 and t.cash(0) == 10000 + 247     # 45% of 550 = 247.5: from the bank, down


@pytest.mark.parametrize("rule, expected", [
    ("colour", {("Potatoes", 3): 2 * 500 * 3, ("Potatoes", 5): 4 * 500 * 5, ("Sugar", 3): 3 * 2000 * 3,
                ("Silver", 4): 5 * 10000 * 4}),
    ("size", {("Potatoes", 3): 2 * 500 * 3, ("Potatoes", 5): 4 * 500 * 5, ("Sugar", 6): 5 * 2000 * 6,
              ("Silver", 4): 3 * 10000 * 4}),
    ("size_capped", {("Potatoes", 3): 3 * 500 * 3, ("Potatoes", 5): 4 * 500 * 5, ("Sugar", 6): 4 * 2000 * 6}),
])
def test_set_multiples_under_each_rule(rule, expected):
    t = quiet(sets=(f'game.set_multiple_rule="{rule}"',))
    for (name, cards), value in expected.items():
        assert set_value(t.table, t.c(name), cards) == value
    assert set_value(t.table, t.c("Potatoes"), 2) == 0


def test_the_inner_circle_opens_at_the_threshold_or_once_anyone_is_inside_k3():
    t = quiet(sets=("level.1.inner_circle_wealth=20000",))
    t.script(0, "enter", [1])
    t.script(1, "enter", [1])
    E._turn(t.ctx, 0)                        # 10,000 < 20,000: not asked
    assert t.field(0, F_CIRCLE) == 0 and "enter" not in t.kinds()
    t.set_cash(1, 25000)
    E._turn(t.ctx, 1)
    assert t.field(1, F_CIRCLE) == 1 and t.stat(1, "inner_round") == 1   # rounds count from 1
    rolls = [e for e in t.events() if e[0] == "roll" and e[1] == 1]
    assert rolls[-1][2] in range(1, 7) and rolls[-1][4] == 1            # one die on the inner circle
    t.script(2, "enter", [1])
    E._turn(t.ctx, 2)                        # poorer, but someone is inside now
    assert t.field(2, F_CIRCLE) == 1


# ---- Command cards: every kind ---------------------------------------------------------------------

def command(card, players=3, sets=(), setup=None, seat=0, lineup=None):
    t = quiet(players, sets, lineup=lineup)
    t.set_commands([card, ("collect", 0)])
    if setup:
        setup(t)
    before = [t.cash(p) for p in range(players)]
    moved = T._command(t.ctx, seat)
    return t, before, moved


def test_command_collect_and_pay():
    t, before, _ = command(("collect", 25000))
    assert t.cash(0) == before[0] + 25000
    t, before, _ = command(("pay", 5000))
    assert t.cash(0) == before[0] - 5000


def test_command_pay_cash_percent_rounds_up():
    t, _, _ = command(("pay_cash_percent", 10), setup=lambda t: t.set_cash(0, 12345))
    assert t.cash(0) == 12345 - 1235


def test_command_pay_more_than_can_be_raised_is_bankruptcy_to_the_bank():
    t, _, _ = command(("pay", 20000), setup=lambda t: (t.set_cash(0, 3000), t.give(0, "Tea")))
    assert t.bankrupt(0) and t.pack("red") == ["Tea"] and t.bank_balance() == 500 - 3500


def test_command_collect_from_each_player_with_a_bankrupt_payer():
    def setup(t):
        t.set_cash(1, 300)
        t.give(1, "Potatoes")               # borrows 250: still 450 short of 1,000
        t.set_cash(2, 5000)
    t, before, _ = command(("collect_from_each_player", 1000), setup=setup)
    assert t.bankrupt(1) and not t.bankrupt(2)
    assert t.cash(0) == before[0] + 550 + 1000 and t.cash(2) == 4000     # the bankrupt's cash goes to the creditor


def test_command_pay_each_player_short_pays_creditors_in_seat_order():
    t, _, _ = command(("pay_each_player", 1000), players=4, seat=2, setup=lambda t: t.set_cash(2, 1500))
    assert t.bankrupt(2)
    assert [t.cash(p) for p in (0, 1, 3)] == [11000, 10500, 10000]
    t, _, _ = command(("pay_each_player", 1000), players=4, seat=2)
    assert [t.cash(p) for p in range(4)] == [11000, 11000, 7000, 11000]


def test_command_free_card_comes_off_the_top_free():
    t, before, _ = command(("free_card", 1), setup=lambda t: t.set_pack("green", ["Tin", "Sugar"]))
    assert t.held(0, "Tin") == 1 and t.cash(0) == before[0] and t.pack("green") == ["Sugar"]
    t, _, _ = command(("free_card", 1))                      # K6: an empty pack gives nothing
    assert t.stat(0, "free_cards") == 0


def test_command_discard_cheapest_skips_at_risk_cards_and_breaks_ties_at_random():
    def setup(t):
        t.give(0, "Potatoes", 1, at_risk=True)
        t.give(0, "Sugar")
        t.give(0, "Carrots")
        t.give(0, "Onions")
    t, _, _ = command(("discard_cheapest", 0), setup=setup)
    assert (t.at_risk(0, "Potatoes"), t.held(0, "Carrots"), t.held(0, "Onions")) == (1, 0, 1)
    assert t.pack("red") == ["Carrots"]
    ties = set()
    for seed in range(40):
        def setup(t):
            t.give(0, "Silver")
            t.give(0, "Tin")                                   # both 10,000
            rng.seed_stream(t.tie_breaks(), seed, 0, rng.TIE_BREAK)
        t, _, _ = command(("discard_cheapest", 0), setup=setup)
        ties.add("Silver" if t.held(0, "Silver") == 0 else "Tin")
    assert ties == {"Silver", "Tin"}


def test_command_bank_buys_best_pays_face_for_the_dearest_clean_card():
    def setup(t):
        t.give(0, "Diamonds", 1, at_risk=True)
        t.give(0, "Gold")
        t.give(0, "Tea")
    t, before, _ = command(("bank_buys_best", 0), setup=setup)
    assert t.held(0, "Gold") == 0 and t.at_risk(0, "Diamonds") == 1 and t.cash(0) == before[0] + 40000
    assert t.pack("yellow") == ["Gold"]


def test_command_miss_turn_skips_the_next_turn():
    t, _, _ = command(("miss_turn", 0))
    assert t.misses(0) == 1
    E._turn(t.ctx, 0)
    assert "missed" in t.kinds() and "roll" not in t.kinds() and t.misses(0) == 0


def test_command_move_then_act_on_the_new_space():
    t = Position(2)
    t.place(0, 0)
    t.set_pack("red", ["Potatoes"])
    t.set_commands([("move", 3)])
    T._act_on_space(t.ctx, 0)                  # space 0 blue: bonus, Command: 3 on to space 3 (red)
    assert t.field(0, F_POSITION) == 3 and t.kinds()[-3:] == ["card", "charge", "pay"] and t.cash(0) == 10000 + 5000 - 50
    t = Position(2)
    t.place(0, 2)
    t.set_commands([("move", -2), ("collect", 1000)])
    assert T._command(t.ctx, 0) and t.field(0, F_POSITION) == 0


def test_command_advance_to_blue_pays_the_bonus_and_draws_again():
    t = Position(2)
    t.place(0, 3)
    t.set_commands([("advance_to_blue", 0), ("collect", 2000)])
    assert T._command(t.ctx, 0) and t.field(0, F_POSITION) == 8
    T._act_on_space(t.ctx, 0)
    assert t.cash(0) == 10000 + 5000 + 2000


def test_command_redeem_at_risk_redeems_what_the_seat_chooses_and_forfeits_the_rest():
    def setup(t):
        t.give(0, "Tin", 1, at_risk=True)
        t.give(0, "Potatoes", 2, at_risk=True)
        t.script(0, "redeem", [t.c("Tin")])
    t, before, _ = command(("redeem_at_risk", 0), setup=setup)
    assert t.held(0, "Tin") == 1 and t.cash(0) == before[0] - 5500
    assert t.at_risk(0, "Potatoes") == 0 and t.pack("red") == ["Potatoes", "Potatoes"]
    assert t.stat(0, "forfeited") == 2 and t.field(0, F_RISK_CARDS) == 0


def test_used_command_cards_go_to_the_bottom_of_the_pile():
    t = quiet()
    cards = len(t.parts.command_order)
    t.set_commands([("collect", k) for k in range(cards)])
    for _ in range(cards + 2):
        T._command(t.ctx, 0)
    assert [e[3] for e in t.events() if e[0] == "command"] == list(range(cards)) + [0, 1]


# ---- K7: loans pay for redeeming ------------------------------------------------------------------

def test_a_loan_pays_for_redeeming_before_rolling():
    t = quiet()
    t.set_cash(0, 0)
    t.give(0, "Tin", 1, at_risk=True)
    t.give(0, "Diamonds")
    t.script(0, "redeem", [t.c("Tin")])
    t.script(0, "borrow", [t.c("Diamonds")])
    E._turn(t.ctx, 0)
    assert (t.held(0, "Tin"), t.at_risk(0, "Tin"), t.at_risk(0, "Diamonds")) == (1, 0, 1)
    assert t.cash(0) == 50000 - 5500 and t.stat(0, "illegal_actions") == 0
    loan = next(e for e in t.events() if e[0] == "loan")
    assert loan[4] == BORROW_FOR_REDEEM and loan[2] == t.c("Diamonds")


def test_a_redeem_the_seat_will_not_borrow_for_ends_the_step_without_penalty():
    t = quiet()
    t.set_cash(0, 100)
    t.give(0, "Tin", 1, at_risk=True)
    t.give(0, "Potatoes", 1, at_risk=True)
    t.give(0, "Diamonds")
    t.script(0, "redeem", [t.c("Tin"), t.c("Potatoes")])   # stops borrowing at once: the second is never asked
    E._turn(t.ctx, 0)
    assert t.at_risk(0, "Tin") == 1 and t.at_risk(0, "Potatoes") == 1 and t.cash(0) == 100
    assert t.stat(0, "illegal_actions") == 0 and t.kinds().count("redeem") == 0
    assert ("cannot_raise", 0, t.c("Tin"), 5500, S.WANT_REDEEM, -1) in t.events()


def test_a_card_borrowed_on_to_pay_for_a_redeem_cannot_be_redeemed_in_the_same_step():
    t = quiet()
    t.set_cash(0, 0)
    t.give(0, "Tin", 1, at_risk=True)
    t.give(0, "Potatoes", 1, at_risk=True)
    t.give(0, "Diamonds")
    t.script(0, "redeem", [t.c("Tin"), t.c("Diamonds")])
    t.script(0, "borrow", [t.c("Diamonds")])
    E._turn(t.ctx, 0)
    assert t.at_risk(0, "Diamonds") == 1 and t.stat(0, "illegal_actions") == 1   # not one of the step's cards
    assert t.at_risk(0, "Potatoes") == 1 and t.cash(0) == 50000 - 5500


def test_the_redeem_command_offers_loans_and_forfeits_only_the_cards_at_risk_when_drawn():
    def setup(t):
        t.set_cash(0, 0)
        t.give(0, "Gold", 1, at_risk=True)
        t.give(0, "Potatoes", 2, at_risk=True)
        t.give(0, "Tin")
        t.script(0, "redeem", [t.c("Gold")])
        t.script(0, "borrow", [t.c("Tin")] * 3)       # 5,000 is short of 22,000: the redeem falls through
    t, _, _ = command(("redeem_at_risk", 0), setup=setup)
    assert t.at_risk(0, "Gold") == 0 and t.held(0, "Gold") == 0 and t.stat(0, "forfeited") == 3
    assert t.at_risk(0, "Tin") == 1 and t.cash(0) == 5000   # the loan taken for the redeem stands
    assert t.stat(0, "illegal_actions") == 1                 # the second Tin it named was already pledged

    def setup(t):
        t.set_cash(0, 20000)
        t.give(0, "Gold", 1, at_risk=True)
        t.give(0, "Potatoes", 2, at_risk=True)
        t.give(0, "Tin")
        t.script(0, "redeem", [t.c("Gold")])
        t.script(0, "borrow", [t.c("Tin")])
    t, _, _ = command(("redeem_at_risk", 0), setup=setup)
    assert t.held(0, "Gold") == 1 and t.at_risk(0, "Tin") == 1 and t.cash(0) == 20000 + 5000 - 22000
    assert t.stat(0, "forfeited") == 2 and t.pack("red") == ["Potatoes", "Potatoes"]
    assert [e[4] for e in t.events() if e[0] == "loan"] == [BORROW_FOR_COMMAND_REDEEM]


# ---- K7: borrowing on a set to be sold (game.borrow_on_sale) ------------------------------------------

def sale_deal(sets=()):
    """Seat 0 holds two Tin and a Sugar and no cash; seat 1 sells it the third Tin for 30,000."""
    t = quiet(sets=sets)
    t.set_cash(0, 0)
    t.give(0, "Tin", 2)
    t.give(0, "Gold")
    t.give(1, "Tin")
    t.script(0, "deal", [pack_deal(DEAL_BUY, 1, t.c("Tin"))])
    t.script(1, "answer", [1])
    return t


def test_cards_of_the_set_sold_at_once_are_borrowed_on_without_going_at_risk():
    t = sale_deal()
    t.script(0, "borrow", [pack_sale_loan(t.c("Tin")), pack_sale_loan(t.c("Tin")), t.c("Gold")])
    t.script(0, "sell", [pack_sale(t.c("Tin"), 3)])
    E._turn(t.ctx, 0)
    # 2 x 5,000 on the Tin, 20,000 At Risk on the Gold, 30,000 to seat 1; the set sells for 3 x 10,000 x 3 and
    # the two Tin loans are repaid with 10% from it
    assert t.cash(0) == 10000 + 20000 - 30000 + 90000 - 2 * 5500
    assert t.held(0, "Tin") == 0 and t.at_risk(0, "Tin") == 0 and t.at_risk(0, "Gold") == 1
    assert (t.stat(0, "sale_loans"), t.stat(0, "loans"), t.stat(0, "illegal_actions")) == (2, 1, 0)
    assert [e[5] for e in t.events() if e[0] == "loan"] == [1, 1, 0]   # on sale, on sale, At Risk
    assert ("pay", 0, 11000, S.PAYEE_BANK, S.PAY_SALE_LOANS, t.c("Tin")) in t.events()
    assert t.bank_balance() == 10000 + 20000 + 90000 - 11000


def test_with_borrow_on_sale_off_a_loan_on_the_set_is_refused_and_at_risk_cards_break_the_set():
    t = sale_deal(sets=("game.borrow_on_sale=false",))
    t.script(0, "borrow", [pack_sale_loan(t.c("Tin"))])
    E._turn(t.ctx, 0)
    assert t.stat(0, "illegal_actions") == 1 and t.held(0, "Tin") == 2 and t.cash(0) == 0   # no deal
    assert ("cannot_raise", 0, t.c("Tin"), 30000, S.WANT_DEAL, 1) in t.events()
    t = sale_deal(sets=("game.borrow_on_sale=false",))
    t.script(0, "borrow", [t.c("Tin"), t.c("Tin"), t.c("Gold")])      # the earlier reading: At Risk loans
    t.script(0, "sell", [pack_sale(t.c("Tin"), 3)])
    E._turn(t.ctx, 0)
    assert t.held(0, "Tin") == 1 and t.at_risk(0, "Tin") == 2 and t.stat(0, "sets_sold") == 0


def test_cards_borrowed_on_for_a_sale_that_is_not_made_go_at_risk_after_the_selling_step():
    t = sale_deal()
    t.script(0, "borrow", [pack_sale_loan(t.c("Tin")), pack_sale_loan(t.c("Tin")), t.c("Gold")])
    E._turn(t.ctx, 0)                                   # it does not sell
    assert t.held(0, "Tin") == 1 and t.at_risk(0, "Tin") == 2 and t.stat(0, "loans") == 3
    assert t.stat(0, "sale_loans") == 0 and t.cash(0) == 0 + 10000 + 20000 - 30000
    assert "loan_to_risk" in t.kinds()


def test_a_sale_loan_needs_a_set_sold_this_turn_and_is_only_open_before_selling():
    t = sale_deal()
    t.script(0, "borrow", [pack_sale_loan(t.c("Gold"))])   # one Gold is no set
    E._turn(t.ctx, 0)
    assert t.stat(0, "illegal_actions") == 1 and t.held(0, "Gold") == 1 and t.cash(0) == 0
    t = quiet()
    t.give(0, "Tin", 3)
    t.script(0, "borrow", [pack_sale_loan(t.c("Tin"))])    # the voluntary loans come after selling
    E._turn(t.ctx, 0)
    assert t.stat(0, "illegal_actions") == 1 and t.held(0, "Tin") == 3
    t = quiet()
    t.set_cash(0, 0)
    t.give(0, "Tin", 2)
    t.set_pack("green", ["Tin"])
    t.script(0, "buy", [1])
    t.script(0, "borrow", [pack_sale_loan(t.c("Tin"))])    # a set completed on a space sells next turn only
    T._turn_card(t.ctx, 0, 1)
    assert t.stat(0, "illegal_actions") == 1 and t.held(0, "Tin") == 2


def test_a_redeem_that_completes_a_set_is_paid_by_loans_on_that_set():
    t = quiet()
    t.set_cash(0, 0)
    t.give(0, "Tin", 2)
    t.give(0, "Tin", 1, at_risk=True)
    t.script(0, "redeem", [t.c("Tin")])
    t.script(0, "borrow", [pack_sale_loan(t.c("Tin")), pack_sale_loan(t.c("Tin"))])
    t.script(0, "sell", [pack_sale(t.c("Tin"), 3)])
    E._turn(t.ctx, 0)
    assert t.cash(0) == 10000 - 5500 + 90000 - 11000 and t.stat(0, "sale_loans") == 2
    assert t.held(0, "Tin") == 0 and t.at_risk(0, "Tin") == 0


def test_a_sale_worth_less_than_its_loans_is_paid_up_from_cash():
    t = sale_deal(sets=("game.set_multiple_colour.green=0", "game.set_multiple_extra_per_card=0"))
    t.set_cash(0, 20000)
    t.script(0, "borrow", [pack_sale_loan(t.c("Tin")), pack_sale_loan(t.c("Tin"))])
    t.script(0, "sell", [pack_sale(t.c("Tin"), 3)])
    E._turn(t.ctx, 0)
    # the set brings nothing (house multiples): the 11,000 owed is a payment, met by an At Risk loan on the Gold
    assert t.cash(0) == 20000 + 10000 - 30000 + 0 + 20000 - 11000
    assert t.at_risk(0, "Gold") == 1 and not t.bankrupt(0)


# ---- every answer is checked (range and legality) -------------------------------------------------

@pytest.mark.parametrize("answer", [-1, -7, -25, -10 ** 9, 3, 4, pack_deal(DEAL_BUY, 1, 999), 10 ** 9])
def test_an_out_of_range_deal_is_refused_and_changes_nothing(answer):
    t = quiet()
    t.give(1, "Cotton")
    t.give(2, "Tin", 1, at_risk=True)
    before = t.table.copy()
    T._deal(t.ctx, 0, answer)
    assert t.stat(0, "illegal_actions") == 1 and (t.table == before).all()


@pytest.mark.parametrize("decision, answer", [("buy", 2), ("buy", -1), ("enter", 5), ("yellow", -3),
                                              ("answer", 7)])
def test_a_yes_no_answer_other_than_0_or_1_is_refused_and_the_default_played(decision, answer):
    t = Position(2, sets=("level.1.inner_circle_wealth=0",))
    t.place(0, 4)                                       # outer yellow
    t.set_pack("yellow", ["Silver"])
    t.give(1, "Cotton")
    t.script(0, "deal", [pack_deal(DEAL_BUY, 1, t.c("Cotton"))])
    t.script(1 if decision == "answer" else 0, decision, [answer])
    t.set_commands([("collect", 2000)])
    T._act_on_space(t.ctx, 0) if decision in ("buy", "yellow") else E._turn(t.ctx, 0)
    seat = 1 if decision == "answer" else 0
    assert t.stat(seat, "illegal_actions") == 1
    assert ("illegal", seat, DECISION_NAMES.index(decision), answer, 0, 0) in t.events()
    if decision == "buy":
        assert t.held(0, "Silver") == 0 and "charge" in t.kinds()          # declined
    if decision == "yellow":
        assert "command" not in t.kinds() and "card" in t.kinds()          # a yellow card
    if decision == "enter":
        assert t.field(0, F_CIRCLE) == 0
    if decision == "answer":
        assert t.held(1, "Cotton") == 1 and "refused" in t.kinds()


@pytest.mark.parametrize("decision, answer", [("redeem", -2), ("sell", -5), ("borrow", -2), ("redeem", 10 ** 6)])
def test_stop_answers_other_than_minus_one_are_refused(decision, answer):
    t = quiet()
    t.give(0, "Tin", 1, at_risk=True)
    t.give(0, "Sugar", 3)
    t.script(0, decision, [answer])
    E._turn(t.ctx, 0)
    assert t.stat(0, "illegal_actions") == 1 and t.at_risk(0, "Tin") == 1 and t.held(0, "Sugar") == 3


# ---- the shipped traders under the redeem Command --------------------------------------------------

def test_the_trader_redeems_the_dearest_at_risk_card_it_can_pay_for_under_the_command():
    def setup(t):
        t.set_cash(0, 23000)                            # Gold costs 22,000 to redeem: then nothing else
        t.give(0, "Potatoes", 1, at_risk=True)
        t.give(0, "Tin", 1, at_risk=True)
        t.give(0, "Gold", 1, at_risk=True)
        t.give(0, "Diamonds", 1, at_risk=True)          # 55,000: more than it can pay
    t, _, _ = command(("redeem_at_risk", 0), setup=setup, lineup=["set-at-3"] * 3)
    assert [e[2] for e in t.events() if e[0] == "redeem"] == [t.c("Gold"), t.c("Potatoes")]   # then what cash allows
    assert (t.held(0, "Gold"), t.held(0, "Potatoes"), t.stat(0, "forfeited")) == (1, 1, 2)
    assert t.pack("green") == ["Tin"] and t.pack("yellow") == ["Diamonds"] and t.cash(0) == 23000 - 22000 - 275


def test_the_trader_borrows_on_cheaper_cards_to_save_a_dear_one_under_the_command():
    def setup(t):
        t.set_cash(0, 6000)
        t.give(0, "Gold", 1, at_risk=True)              # 22,000 to redeem
        t.give(0, "Tin", 2)                             # 10,000 of loans
        t.give(0, "Timber", 2)                          # 6,000
        t.give(0, "Emeralds")                           # dearer than the Gold: not pledged to save it
    t, _, _ = command(("redeem_at_risk", 0), setup=setup, lineup=["set-at-3"] * 3)
    assert t.held(0, "Gold") == 1 and t.stat(0, "forfeited") == 0 and t.cash(0) == 0
    assert (t.at_risk(0, "Timber"), t.at_risk(0, "Tin"), t.at_risk(0, "Emeralds")) == (2, 2, 0)


def test_the_trader_pays_for_a_deal_that_completes_a_set_with_loans_on_that_set():
    t = Position(3, sets=QUIET, lineup=["set-at-3"] * 3)
    for seat in range(3):
        t.place(seat, 0)
    t.set_cash(0, 1000)
    t.give(0, "Tin", 2)
    t.give(0, "Gold")
    t.give(1, "Tin")
    E._turn(t.ctx, 0)
    assert t.stat(0, "bought_from_players") == 1 and t.stat(0, "sets_sold") == 1
    assert t.stat(0, "sale_loans") == 2 and t.at_risk(0, "Tin") == 0 and t.at_risk(0, "Gold") == 1
    assert t.cash(0) == 1000 + 10000 + 20000 - 30000 + 90000 - 11000
