"""Helpers shared by the tests (fixtures live in conftest.py)."""
from __future__ import annotations

import numpy as np

from simkit.games import get_game
from simkit.games.wheedle import engine
from simkit.games.wheedle.engine import trace_centre, trace_hands
from simkit.games.wheedle.play import _kernel_inputs, score_round
from simkit.games.wheedle.view import ASKED, NET, OFFERED, SEEN_ROWS
from simkit.strategy import parse_lineup


def wheedle():
    return get_game("wheedle")


def prepare(n_players: int, sets=(), rules_file=None):
    """Effective rules and the prepared (compiled) rules for ``n_players``."""
    game = wheedle()
    rules = game.rules(rules_file, list(sets))
    return rules, game.prepare(rules, n_players)


def simulate(lineup, n_games: int, seed: int = 1, sets=(), first_game: int = 0, check: bool = True,
             record: bool = True):
    """Play ``n_games`` of Wheedle with the given line-up; returns (rules, prepared, seats, columns)."""
    seats = parse_lineup("wheedle", lineup)
    rules, prepared = prepare(len(seats), sets)
    columns = wheedle().simulate(prepared, seats, seed, first_game, n_games, check=check, record=record)
    return rules, prepared, seats, columns


def per_seat(columns: dict, name: str, n_players: int) -> np.ndarray:
    """A per-(game, seat) column as a [games, seats] matrix."""
    return np.asarray(columns[name]).reshape(-1, n_players)


def per_game(columns: dict, name: str, n_players: int) -> np.ndarray:
    """A per-game column (repeated on each seat's row) as one value per game."""
    matrix = per_seat(columns, name, n_players)
    assert (matrix == matrix[:, :1]).all(), f"{name} differs between the rows of one game"
    return matrix[:, 0]


def hand_dicts(prepared, rows) -> list[dict]:
    """Trace rows (one per seat, cards per company) as score_round's hands."""
    return [{prepared.companies[c]: int(row[c]) for c in range(len(prepared.companies)) if row[c]} for row in rows]


def trace_round_scores(prepared, rules, trace, g: int, r: int, stopper):
    """score_round of round r of game g from the trace's final hands and centre."""
    hands = hand_dicts(prepared, trace_hands(trace[g, r], engine.TRACE_END))
    centre = prepared.companies[int(trace_centre(trace[g, r], engine.TRACE_END))]
    return score_round(hands, centre, None if stopper is None or stopper < 0 else int(stopper), rules)


def play_with_events(prepared, seats, seed: int, game: int) -> dict:
    """One game through the kernel with the full event log (what `simkit replay` formats)."""
    functions, params = _kernel_inputs(seats)
    capacity = prepared.rounds * (int(prepared.vector[engine.R_MAX_TICKS]) + 2)
    out = engine.play_batch(seed, game, 1, prepared, functions, params,
                            check=True, record=True, event_capacity=capacity)
    assert out["events_lost"] == 0
    return out


def events_of_round(out: dict, rnd: int) -> np.ndarray:
    events = out["events"]
    return events[events[:, engine.EV_ROUND] == rnd]


def replay_round(prepared, out: dict, rnd: int):
    """Re-derive a round from its start hands and public events alone.

    Returns (snapshots, final) where snapshots[tick] = (hands, centre, seen) as they stood before the
    move of that tick, and final = (hands, centre) after the last event. ``seen`` is rebuilt with the
    meaning documented in simkit/games/wheedle/view.py.
    """
    n = prepared.n_players
    companies = len(prepared.companies)
    trace = out["trace"][0]
    hands = trace_hands(trace[rnd], engine.TRACE_START).copy()
    centre = int(trace_centre(trace[rnd], engine.TRACE_START))
    seen = np.zeros((SEEN_ROWS, n, companies), np.int64)
    snapshots = {}
    for ev in events_of_round(out, rnd):
        kind, who, tick = ev[engine.EV_KIND], ev[engine.EV_SEAT], int(ev[engine.EV_TICK])
        if kind == engine.E_STALEMATE:
            continue
        snapshots[tick] = (hands.copy(), centre, seen.copy())
        give, k, want, m, other = (ev[engine.EV_GIVE], ev[engine.EV_GIVE_COUNT], ev[engine.EV_WANT],
                                   ev[engine.EV_WANT_COUNT], ev[engine.EV_OTHER])
        if kind in (engine.E_OFFER_TAKEN, engine.E_OFFER_UNTAKEN):
            if k > 0:
                seen[OFFERED, who, give] += 1
            if m > 0:
                seen[ASKED, who, want] += 1
            if kind == engine.E_OFFER_TAKEN:
                if k > 0:
                    hands[who, give] -= k
                    hands[other, give] += k
                    seen[NET, who, give] -= k
                    seen[NET, other, give] += k
                if m > 0:
                    hands[other, want] -= m
                    hands[who, want] += m
                    seen[NET, other, want] -= m
                    seen[NET, who, want] += m
        elif kind == engine.E_SWAP:
            assert want == centre, "a swap takes the current centre card"
            hands[who, give] -= 1
            hands[who, centre] += 1
            seen[NET, who, give] -= 1
            seen[NET, who, centre] += 1
            centre = int(give)
    return snapshots, (hands, centre)


def answers(findings) -> list[str]:
    """An analysis's findings after its first lines on refused answers and rule activity
    (simkit.analysis.activity)."""
    return [line for line in findings if not line.startswith(("Rule change ", "Refused answers "))]
