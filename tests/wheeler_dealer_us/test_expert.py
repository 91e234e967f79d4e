"""The US `expert` (strategies/wheeler_dealer_us/expert.py): registered, legal in checking mode, its
decisions do what its docs say on hand-built tables, and it beats a weak strategy in a small seeded run."""
import numpy as np

from simkit.games.wheeler_dealer_us.view import (
    A_FINANCE_PROPERTY,
    A_STAKE,
    A_TARGET,
    D_BAMBOOZLE,
    D_BID,
    D_BUY,
    D_DEAL_ANSWER,
    D_FINANCE,
    D_RAISE,
    DEAL_BUY,
    DEAL_SELL,
    FINANCE_DONE,
    FINANCE_REPAY,
    RAISE_BORROW,
    RAISE_SELL,
    RAISE_SELL_CARD,
)
from simkit.strategy import registered

from .harness import Table
from .test_strategies import Asker, per_seat, play


def test_expert_is_registered_and_legal_at_both_levels():
    assert "expert" in registered("wheeler-dealer-us")
    for level in (1, 2):
        lineup = ["expert", "tuned", "random", "expert"]
        columns = play(lineup, 40, seed=25 + level, level=level)
        assert per_seat(columns, "illegal_actions", 4)[:, [0, 1, 3]].sum() == 0


def test_expert_declines_a_title_no_rival_would_pay_for_and_bids_its_worth():
    table = Table(players=3)
    a1 = table.prop("A1")                               # $100,000
    table.set_cash(0, 150_000)
    table.set_cash(1, 60_000)
    table.set_cash(2, 30_000)
    ask = Asker(table, "expert", shade=0.7)             # rivals bid at most 0.7 x a title's worth to them
    assert ask(D_BUY, "buy", 0, a1) == 0                # the auction that follows is cheaper
    assert ask(D_BID, "bid", 0, a1, 0, -1) >= 100_000 - 20_000
    table.set_cash(1, 200_000)                          # a rival could now pay the list price, and would:
    table.own(1, "A2")                                  # A1 completes its block
    assert ask(D_BUY, "buy", 0, a1) == 1
    assert Asker(table, "expert")(D_BUY, "buy", 0, a1) == 0   # as shipped (shade 0) it always tries the auction


def test_expert_refuses_a_deal_that_gains_the_other_side_more_than_half_as_much():
    table = Table(players=2)
    table.own(1, "F1", "F2", "F3")
    table.own(0, "F4")
    table.set_cash(1, 2_000_000)
    f4 = table.prop("F4")
    ask = Asker(table, "expert")
    # F4 completes the rival's block: its worth to the rival dwarfs a fair price
    assert ask(D_DEAL_ANSWER, "deal_answer", 0, 1, DEAL_BUY, -1, f4, 90_000) == 0
    assert ask(D_DEAL_ANSWER, "deal_answer", 0, 1, DEAL_BUY, -1, f4, 1_900_000) == 1
    # a title offered to me for less than it adds to my blocks, when the seller gains little
    table = Table(players=2)
    table.own(0, "G1", "G2", "G3")
    table.own(1, "G4")
    table.set_cash(0, 300_000)
    assert ask.__class__(table, "expert")(D_DEAL_ANSWER, "deal_answer", 0, 1, DEAL_SELL, table.prop("G4"), -1,
                                          -20_000) == 1


def test_expert_always_plays_a_usable_bamboozle():
    table = Table(players=3, sets=["game.level=2"])
    table.own(0, "B1", "B2")
    table.own(2, "H1")                                  # worth less than any stake of mine
    ask = Asker(table, "expert")
    assert ask(D_BAMBOOZLE, "bamboozle", 0, 0, 0) == 1
    assert ask.out[A_STAKE] in (table.prop("B1"), table.prop("B2")) and ask.out[A_TARGET] == table.prop("H1")


def test_expert_aims_a_bamboozle_at_the_leading_rival():
    table = Table(players=3, sets=["game.level=2"])
    table.own(0, "H1")
    table.own(1, "E1")                                  # $15,000, a single, like the other rival's G3
    table.own(2, "G3")
    table.set_cash(1, 1_000_000)                        # rival 1 leads: what it loses counts in full
    table.set_cash(2, 50_000)
    ask = Asker(table, "expert")
    assert ask(D_BAMBOOZLE, "bamboozle", 0, 0, 0) == 1
    assert ask.out[A_TARGET] == table.prop("E1")
    table.set_cash(1, 50_000)
    table.set_cash(2, 1_000_000)
    assert ask(D_BAMBOOZLE, "bamboozle", 0, 0, 0) == 1
    assert ask.out[A_TARGET] == table.prop("G3")


def test_expert_repays_only_keeping_three_stakes_in_cash():
    table = Table(players=2)
    table.own(0, "G3", debt=True)                       # payoff $9,000
    table.set_cash(0, 50_000)                           # repaying would leave $41,000: below 3 x $20,000
    ask = Asker(table, "expert")
    assert ask(D_FINANCE, "finance", 0) == FINANCE_DONE
    table.set_cash(0, 80_000)
    assert ask(D_FINANCE, "finance", 0) == FINANCE_REPAY
    assert ask.out[A_FINANCE_PROPERTY] == table.prop("G3")


def test_a_hopeless_debtor_sells_instead_of_borrowing():
    table = Table(players=3)
    table.own(0, "G3", "C1")
    table.set_cash(0, 5_000)
    ask = Asker(table, "expert")
    assert ask(D_RAISE, "raise", 0, 10_000, -1, 0) == RAISE_BORROW      # loans could cover $10,000
    action = ask(D_RAISE, "raise", 0, 5_000_000, 1, 0)                  # no loan could cover it
    assert action in (RAISE_SELL, RAISE_SELL_CARD) and action != RAISE_BORROW


def test_expert_beats_copper_only_head_to_head():
    columns = play(["expert", "copper-only"], 200, seed=31)
    wins = per_seat(columns, "winner", 2).mean(axis=0)
    columns = play(["copper-only", "expert"], 200, seed=32)
    wins += per_seat(columns, "winner", 2).mean(axis=0)[::-1]
    assert wins[0] > wins[1] + 0.2, wins
    assert np.isfinite(wins).all()
