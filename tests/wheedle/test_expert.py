"""The Wheedle `expert` (strategies/wheedle_expert.py): registered, legal, and stronger than simple play in small
seeded runs (the measured strength, seat-rotated on 20,000+ games: docs/strategies.md)."""
import numpy as np

from simkit.strategy import registered

from ..helpers import per_seat, simulate
from . import toy_strategies as toys


def test_expert_is_registered_with_declared_parameters():
    expert = registered("wheedle")["expert"]
    assert set(expert.decisions) == {"act", "accept"}
    assert expert.params and all(name in expert.declared for name in expert.params)


def test_expert_beats_passive_players_and_never_false_stops():
    """Against players who only pass, the expert trades with the centre alone; it stops only when qualified."""
    _, _, _, cols = simulate(["expert", toys.passer(), toys.passer(), toys.passer()], 40, seed=3,
                             sets=["options.max_ticks=300"])
    points = per_seat(cols, "points", 4)
    assert per_seat(cols, "illegal_actions", 4).sum() == 0
    assert per_seat(cols, "false_stops", 4)[:, 0].sum() == 0
    assert points[:, 0].mean() > points[:, 1:].mean() + 5


def test_expert_wins_more_than_its_share_among_tuned_players():
    """Each seat in turn among three `tuned` players: well above the quarter an equal player would win."""
    wins = []
    for seat in range(4):
        lineup = ["tuned"] * 4
        lineup[seat] = "expert"
        _, _, _, cols = simulate(lineup, 60, seed=10 + seat, record=False)
        assert per_seat(cols, "illegal_actions", 4).sum() == 0
        wins.append(per_seat(cols, "winner", 4)[:, seat].mean())
    assert np.mean(wins) > 0.4
