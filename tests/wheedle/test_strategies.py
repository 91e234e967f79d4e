"""The shipped Wheedle strategies behave as their docs say (strategies/wheedle.py, spec "Strategy families")."""
import numpy as np
import pytest

from simkit.strategy import registered

from ..helpers import per_game, per_seat, simulate

OPPONENTS = ["random", "hair-trigger", "blocker", "contrarian", "bluffer"]


@pytest.mark.parametrize("sets", [(), ("options.gifts_allowed=false",), ("options.false_stop_ends_round=false",)],
                         ids=["default", "no-gifts", "w4"])
@pytest.mark.parametrize("name", sorted(registered("wheedle")))
def test_shipped_strategies_only_make_legal_moves(name, sets):
    for n in (2, 5):
        _, _, _, cols = simulate([name] + OPPONENTS[: n - 1], 25, seed=8, sets=sets, record=False)
        assert per_seat(cols, "illegal_actions", n).sum() == 0


def test_qualified_stoppers_never_false_stop():
    lineup = ["hair-trigger", "threshold", "patient", "blocker", "small-first", "contrarian"]
    _, _, _, cols = simulate(lineup, 100, seed=5, record=False)
    assert per_seat(cols, "false_stops", 6).sum() == 0
    assert (per_seat(cols, "good_stops", 6).sum(axis=0) > 0).all()


def test_never_stop_never_stops():
    _, _, _, cols = simulate(["never-stop", "hair-trigger", "never-stop", "random"], 60, seed=2, record=False)
    stops = per_seat(cols, "stops", 4)
    assert stops[:, [0, 2]].sum() == 0 and stops[:, 1].sum() > 0


def test_bluffer_bluffs():
    _, _, _, cols = simulate(["bluffer", "never-stop", "never-stop", "never-stop"], 60, seed=2, record=False)
    assert per_seat(cols, "false_stops", 4)[:, 0].sum() > 0


def test_threshold_stops_at_its_points():
    points = 22
    rules, prepared, _, cols = simulate([f"threshold:points={points}", "never-stop", "never-stop", "never-stop"],
                                        80, seed=3)
    stopped = 0
    for r in range(prepared.rounds):
        stopper = per_game(cols, f"stopper_r{r + 1}", 4)
        ticks = per_game(cols, f"ticks_r{r + 1}", 4)
        early = (stopper == 0) & (ticks < 2000 - 16)  # late in a round a qualified hand stops anyway
        assert (per_seat(cols, f"points_r{r + 1}", 4)[early, 0] >= points).all()
        stopped += early.sum()
    assert stopped > 0


def test_target_revision_prevents_stalemates():
    """Spec: collectors that never revise their targets freeze; revision brings stalemates to about 0%."""
    _, _, _, revising = simulate(["hair-trigger"] * 4, 150, seed=1, record=False)
    _, _, _, frozen = simulate(["hair-trigger:revise_after=0"] * 4, 150, seed=1, record=False)
    revising_rate = per_game(revising, "stalemates", 4).sum() / (150 * 4)
    frozen_rate = per_game(frozen, "stalemates", 4).sum() / (150 * 4)
    assert revising_rate < 0.02
    assert frozen_rate > 5 * max(revising_rate, 0.01)


def test_default_lineup_rounds_end():
    _, prepared, _, cols = simulate(["hair-trigger", "threshold", "patient", "blocker"], 150, seed=9, record=False)
    ticks = np.concatenate([per_game(cols, f"ticks_r{r + 1}", 4) for r in range(prepared.rounds)])
    assert np.median(ticks) < 200
    assert per_game(cols, "stalemates", 4).sum() / ticks.size < 0.02
