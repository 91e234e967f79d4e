"""The expert (strategies/dweebies_expert.py): registered, legal under every rule option, its hypergeometric chances
exact, defensive where a card would set the next seat up, and stronger than greedy in a small seeded run."""
import math

import numpy as np
import pytest

import simkit.strategies.dweebies_expert as shipped
from simkit.games import get_game
from simkit.strategy import parse_lineup, registered

from .harness import Table, decide

GAME = get_game("dweebies")


def _play(lineup, n_games, seed, sets=()):
    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), len(seats))
    return GAME.simulate(prepared, seats, seed, 0, n_games, check=True)


def test_expert_is_registered_with_declared_ranges():
    expert = registered("dweebies")["expert"]
    assert set(expert.declared) == {"defend", "later", "follow", "pairs", "candidates", "samples", "depth", "gap",
                                    "policy", "link", "endgame", "end_samples"}
    assert expert.quick == {} and expert.params["samples"] == 0    # no search by default: as strong, far cheaper


@pytest.mark.parametrize("sets", [(), ("game.min_line=3",), ("game.collect='may'",), ("game.split_rule='free'",)],
                         ids=["default", "min_line-3", "may", "free"])
def test_expert_plays_only_legal_moves(sets):
    for lineup in (["expert", "random"], ["expert:samples=2:policy=1:depth=2", "expert:samples=8", "greedy",
                                          "expert:gap=20:candidates=16:samples=1"],
                   ["expert:endgame=54:end_samples=2", "expert:endgame=12:end_samples=4:gap=20:candidates=16"]):
        columns = _play(lineup, 6, 4, sets)
        assert np.asarray(columns["illegal_actions"]).sum() == 0, lineup
        assert (np.asarray(columns["turns"]) == 54).all()


def test_hold_chance_is_the_hypergeometric_chance():
    for u, pool, held in [(1, 40, 5), (2, 40, 5), (4, 17, 3), (3, 3, 1), (0, 30, 5), (2, 6, 6)]:
        none = math.comb(pool - u, held) / math.comb(pool, held)
        assert shipped.hold_chance(u, pool, held) == pytest.approx(1 - none)


def test_win_share_splits_a_tie_and_gives_a_trailing_seat_nothing():
    assert shipped._win_share(np.array([5, 9, 9, 2]), 1) == 0.5
    assert shipped._win_share(np.array([5, 9, 9, 2]), 0) == 0.0
    assert shipped._win_share(np.array([12, 9, 9, 2]), 0) == 1.0


def test_expert_does_not_set_the_next_seat_up():
    # next to a lone B any card makes a line of two: C's one copy is in this hand, Z's four are unseen
    table = Table("B")
    assert all(decide("expert", table, "CZ", seed=s)[0][0] == "C" for s in range(10))


def test_expert_leaves_a_split_table_with_nothing_for_whoever_joins_it():
    # A is apart from C D / B, by links of two: (1,1) (1,2) or (0,0) (0,1). A card on (1,1) leaves (1,2) joining
    # both groups under a C (a pair for a C) and (0,1) ending C D (three for a D); a card on (0,1) leaves (0,0)
    # ending the row to D and the column to A. A card on (1,2) or (0,0) leaves only cells between two runs
    table = Table("""
. . C D
A . . B
""")
    safe = {(1, 2), (0, 0)}
    assert {decide("expert", table, "XY", seed=s)[0][1:] for s in range(10)} <= safe
    blind = {"link": 0}   # a split table offers nothing: any cell
    assert {decide("expert", table, "XY", seed=s, params=blind)[0][1:] for s in range(10)} - safe


def test_expert_beats_greedy_in_a_small_seeded_run():
    ahead = 0
    for lineup in (["expert", "greedy"], ["greedy", "expert"]):
        columns = _play(lineup, 150, 21)
        per_game = np.asarray(columns["collected"]).reshape(-1, 2)
        mine = 0 if lineup[0] == "expert" else 1
        ahead += (per_game[:, mine] > per_game[:, 1 - mine]).sum()
    assert ahead / 300 > 0.65
