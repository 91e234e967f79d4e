"""Wheedle conformance: every recorded round re-scored by score_round, then the project-wide conformance check (simkit.testing)."""
import numpy as np
import pytest

from simkit.games.wheedle.engine import TRACE_END, trace_centre, trace_hands
from simkit.testing import check_conformance

from ..helpers import per_game, per_seat, simulate, trace_round_scores

LINEUPS = [
    ["random"] * 4,
    ["hair-trigger", "threshold", "patient", "blocker"],
    ["bluffer", "random", "contrarian", "small-first", "blocker"],
    ["random", "bluffer", "random", "hair-trigger", "random", "never-stop"],
    ["random", "bluffer"],
    ["random", "hair-trigger", "bluffer"],
]


@pytest.mark.parametrize("lineup", LINEUPS, ids=lambda lineup: f"{len(lineup)}p-{lineup[0]}-{lineup[1]}")
@pytest.mark.parametrize("sets", [(), ("options.bankrupt_majority_scores=true", "scoring.false_stop=-8",
                                      'scoring.false_stopper_cards="scored"')],
                         ids=["default", "house"])
def test_round_points_equal_score_round(lineup, sets):
    rules, prepared, _, cols = simulate(lineup, 60, seed=2024, sets=sets)
    n = prepared.n_players
    trace = cols["_trace"]
    assert trace.shape == (60, prepared.rounds, 2, n + 1, len(prepared.companies))
    checked_stops = 0
    for r in range(prepared.rounds):
        stoppers = per_game(cols, f"stopper_r{r + 1}", n)
        points = per_seat(cols, f"points_r{r + 1}", n)
        for g in range(60):
            # default false_stop_ends_round: a false stopper ends the round and score_round applies the penalty
            assert list(points[g]) == trace_round_scores(prepared, rules, trace, g, r, stoppers[g])
        checked_stops += (stoppers >= 0).sum()
    assert checked_stops > 0


@pytest.mark.parametrize("cards", ["none", "scored"])
def test_false_stops_are_scored_as_false(cards):
    """Random players false-stop often; those rounds must carry the penalty, not the bonus, and (W8) under
    "none" the false stopper's round is exactly its bankrupt cards' cost plus the penalty, recomputed here
    from the end hands without score_round."""
    rules, prepared, _, cols = simulate(["random"] * 4, 80, seed=6, sets=[f'scoring.false_stopper_cards="{cards}"'])
    n = 4
    false_rounds = lost_cards = 0
    trace = cols["_trace"]
    for r in range(n):
        stoppers = per_game(cols, f"stopper_r{r + 1}", n)
        points = per_seat(cols, f"points_r{r + 1}", n)
        for g in range(80):
            s = stoppers[g]
            if s < 0:
                continue
            without = trace_round_scores(prepared, rules, trace, g, r, None)
            hand, centre = trace_hands(trace[g, r], TRACE_END)[s], trace_centre(trace[g, r], TRACE_END)
            qualified = all(hand[c] == 0 or 2 * hand[c] > prepared.counts[c] for c in range(9))
            if qualified:
                assert points[g, s] == without[s] + 5
            elif cards == "scored":
                assert points[g, s] == without[s] - 5
            else:
                assert points[g, s] == -hand[centre] - 5
                lost_cards += without[s] != -hand[centre]
            false_rounds += not qualified
            others = [p for p in range(n) if p != s]
            assert list(points[g, others]) == [without[p] for p in others]
    assert false_rounds > 0
    assert cards == "scored" or lost_cards > 0, "some false stoppers held majorities that W8 took away"
    assert per_seat(cols, "false_stops", n).sum() == false_rounds


@pytest.mark.parametrize("players", [
    None,
    ["random"] * 4,
    ["blocker", "contrarian", "small-first", "bluffer", "patient"],
    ["random", "hair-trigger", "threshold:points=25", "never-stop", "bluffer", "collector"],
    ["hair-trigger", "random"],
    ["random", "random", "blocker"],
], ids=["default", "random4", "mixed5", "mixed6", "house2", "house3"])
def test_project_conformance(players):
    frame = check_conformance("wheedle", games=120, seed=99, players=players)
    n = len(players) if players else 4
    assert len(frame) == 120 * n
    rounds = [c for c in frame.columns if c.startswith("points_r")]
    assert len(rounds) == n
    assert np.array_equal(frame[rounds].sum(axis=1).to_numpy(), frame["points"].to_numpy())
