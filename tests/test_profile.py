"""`simkit bench GAME --profile` (simkit.profile): the table's shape and parts on a tiny batch, and that the
tapes it times really replay the games (no timing assertions: the figures are benchmarks)."""
import numpy as np
import pytest

from simkit.profile import C_ANSWER, Tapes, format_profile, profile_batch, same_columns
from simkit.runner import make_batch


@pytest.fixture(scope="module")
def profiled():
    return profile_batch(make_batch("wheedle", 1, None, 5), games=20, repeat=1)


def test_profile_has_every_part_and_none_is_negative(profiled):
    assert list(profiled["parts"]) == ["engine", "decision act", "decision accept", "shared", "around", "table",
                                       "parquet"]
    assert all(seconds >= 0 for seconds in profiled["parts"].values())
    assert profiled["parts"]["engine"] > 0 and profiled["total"] == pytest.approx(sum(profiled["parts"].values()))
    for point in ("act", "accept"):
        decision = profiled["decisions"][point]
        assert len(decision["seats"]) == 4 and all(seconds >= 0 for seconds in decision["seats"])
        assert decision["calls_per_game"] > 0
        assert sum(decision["seat_calls_per_game"]) == pytest.approx(decision["calls_per_game"])


def test_profile_table_has_a_row_per_part_and_a_column_per_seat(profiled):
    lines = format_profile(profiled).splitlines()
    assert len(lines) == 2 + 7 + 3 + 2
    assert lines[1].split()[:4] == ["part", "us/game", "share", "calls/game"]
    assert lines[1].split()[4:] == ["0:hair-trigger", "1:threshold", "2:patient", "3:blocker"]
    act = next(line for line in lines if line.startswith("decision act"))
    assert len(act.split()) == 2 + 3 + 4          # name, us/game, share, calls/game, one cost per seat
    assert lines[-5].startswith("total") and lines[-5].split()[-1] == "100.0%"
    rates = next(line for line in lines if line.startswith("act decisions per second")).split(": ", 1)[1].split()
    assert rates[0::2] == ["0:hair-trigger", "1:threshold", "2:patient", "3:blocker"]
    assert all(rate == "-" or float(rate.replace(",", "")) > 0 for rate in rates[1::2])


def test_a_changed_tape_plays_another_game():
    """What the profile relies on: the recorded line-up plays the real games, its tapes replay them, and a
    tape with one answer changed does not (so the profile's equality check can fail)."""
    batch = make_batch("wheedle", 1, None, 5)
    real = batch.play(0, 10)
    tapes = Tapes(batch)
    assert same_columns(tapes.record(0, 10), real)
    everything = tuple((s, point) for s in range(4) for point in ("act", "accept"))
    assert same_columns(tapes.playing(everything).play(0, 10), real)
    assert tapes.played_all(everything)
    accepted = np.flatnonzero(tapes.calls["accept"][:, C_ANSWER] == 1)
    tapes.calls["accept"][accepted[0], C_ANSWER] = 0       # one accepted offer refused
    assert not same_columns(tapes.playing(everything).play(0, 10), real)


def test_profile_options_are_checked(cli_error):
    assert "--profile" in cli_error(["bench", "wheedle", "--players", "random,random,random,random"])
    assert "--profile" in cli_error(["bench", "--all", "--profile"])
