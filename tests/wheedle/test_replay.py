"""Replays: golden transcripts of seeded games, and each round score shown as its own entries (cards, W8,
the stop bonus or penalty, W4 penalties) that add up to the engine's round points."""
import re
from pathlib import Path

import pytest

from simkit.strategy import parse_lineup

from ..golden import assert_golden
from ..helpers import prepare, wheedle

HERE = Path(__file__).parent
SCORE_LINE = re.compile(r"^   seat (\d) \([^)]*\): .* -> (.*) = ([+-]\d+) points$")


def replay(lineup, seed, game, sets=()):
    _, prepared = prepare(len(lineup), sets)
    return wheedle().replay(prepared, parse_lineup("wheedle", lineup), seed, game)


@pytest.mark.parametrize("name, lineup, seed, game", [
    ("golden_replay.txt", list(wheedle().default_lineup), 1, 0),
    # a round ended by a false stop: the stopper's cards earn nothing (W8), its bankrupt cards still cost
    ("golden_replay_false_stop.txt", ["hair-trigger", "random", "bluffer:bluff_points=-5", "patient"], 1, 29),
])
def test_golden_replay(name, lineup, seed, game):
    """A seeded game's full transcript; regenerate with SIMKIT_REGOLD=1 after a deliberate change and review
    the diff."""
    text = replay(lineup, seed, game)
    if "false_stop" in name:
        assert "cards earn nothing (W8), bankrupt cards -3, false stop -5 = -8 points" in text
    assert_golden(HERE / name, text)


@pytest.mark.parametrize("sets", [(), ("options.false_stop_ends_round=false", "scoring.false_stop=-7"),
                                  ('scoring.false_stopper_cards="scored"', "options.bankrupt_majority_scores=true")],
                         ids=["default", "w4", "scored"])
def test_score_entries_add_up_to_the_round_points(sets):
    entries_seen = set()
    for game in range(12):
        text = replay(["random", "bluffer:bluff_points=-5", "hair-trigger", "random"], 5, game, sets)
        totals = {}
        for line in text.splitlines():
            match = SCORE_LINE.match(line)
            if match:
                parts = match.group(2).split(", ")
                entries_seen.update(re.sub(r" [+-]\d+$", "", part) for part in parts)
                assert sum(int(m.group()) for part in parts for m in [re.search(r"[+-]\d+$", part)] if m) \
                    == int(match.group(3)), line
                seat = int(match.group(1))
                totals[seat] = totals.get(seat, 0) + int(match.group(3))
        final = text.split("== Final scores")[1]
        for seat, total in totals.items():
            assert re.search(rf"seat {seat} \([^)]*\): {total} points", final)
    expected = {"cards", "stop bonus", "false stop"}
    if "options.false_stop_ends_round=false" in sets:
        expected = {"cards", "stop bonus", "false stop during the round (W4)"}
    elif not sets:
        expected.add("cards earn nothing (W8)")
    assert expected <= entries_seen, entries_seen


REFUSED = re.compile(r"^  t +\d+ seat \d \(careless[^)]*\) tried an illegal "
                     r"(offer of (-?\d+ .+|nothing) for (-?\d+ .+|nothing)|swap of 1 .+ with the centre|stop"
                     r"|action of unknown kind -?\d+); refused, played as a pass$")


def test_refused_actions_read_as_words():
    from simkit.strategy import Seat

    from .test_careless import careless

    # wild=0: careless answers in [-2, 9], so offers and swaps of companies that do not exist are refused too
    lineup = [Seat(careless(), {"wild": 0.0}), "never-stop", "never-stop", "never-stop"]
    text = replay(lineup, 11, 1, ("options.max_ticks=60",))
    refused = [line for line in text.splitlines() if "tried an illegal" in line]
    assert refused and all(REFUSED.match(line) for line in refused), refused[:5]
    assert "np.int64" not in text
    assert {"offer", "swap"} <= {line.split("illegal ")[1].split(" ")[0] for line in refused}


def test_a_stalemate_names_the_round_length_not_a_tick_past_it():
    text = replay(["never-stop"] * 4, 3, 0, ("options.max_ticks=60",))
    assert text.count("   nobody stopped within 60 ticks: stalemate (W5)") == 4       # one round per dealer
    assert "t  60" not in text and "60 ticks, stalemate" in text
