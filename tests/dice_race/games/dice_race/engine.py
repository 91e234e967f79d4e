"""The dice-race engine: a batch of games in one Numba kernel.

Players take turns in seat order. A turn rolls the die once, then asks the seat's ``roll_again`` after
every roll: a roll of the bust face loses the turn's points and ends the turn; stopping banks them; the
roll that brings banked plus turn points to the target ends the game, which that seat wins. After
``max_rounds`` rounds an undecided game stops and the most points win (ties all win).

``play_batch`` validates nothing (``prepare`` did), allocates the outputs and runs the private kernel
``_play``, a pure function of its arguments: each seat's die and strategy stream come from (seed, game
index, stream), so a seat's rolls do not depend on what the others chose.
"""
from pathlib import Path

import numpy as np
from numba import njit

from simkit import rng
from simkit.numba_tools import EVENT_FIELDS, append_event, readonly
from simkit.rules import RuleLayout

from . import SEAT_STATS
from .view import (
    MEMORY_SIZE,
    PUB_BUST_FACE,
    PUB_FACES,
    PUB_HEADER,
    PUB_LAST_ROLL,
    PUB_PLAYERS,
    PUB_ROLLS,
    PUB_ROUND,
    PUB_SEAT,
    PUB_TARGET,
    PUB_TURN_POINTS,
    STOP,
    banked_points,
    busts,
    is_answer,
    public_length,
)

MAX_SEATS = 6

# The rule vector (DiceRaceRules.vector) is derived from the rule data: a slot per value whose allowed values
# rules.toml declares, validated by RULES.vector; the engine names the slots it reads.
RULES = RuleLayout(Path(__file__).with_name("rules.toml"))
R_TARGET = RULES.slot("game.target")
R_FACES = RULES.slot("game.die_faces")
R_BUST_FACE = RULES.slot("game.bust_face")
R_MAX_ROUNDS = RULES.slot("game.max_rounds")
R_SAFE_FIRST_ROLL = RULES.slot("game.safe_first_roll")

# the per-seat counters' places, by name (SEAT_STATS, the result columns in order, is declared with their
# meanings in __init__.py)
S_POINTS = SEAT_STATS.index("points")
S_TURNS = SEAT_STATS.index("turns")
S_ROLLS = SEAT_STATS.index("rolls")
S_BUSTS = SEAT_STATS.index("busts")
S_HOLDS = SEAT_STATS.index("holds")
S_ILLEGAL = SEAT_STATS.index("illegal_actions")
S_SAFE_REROLLS = SEAT_STATS.index("safe_rerolls")
GAME_STATS = ("rounds", "limit_hit")
G_ROUNDS, G_LIMIT_HIT = range(len(GAME_STATS))

# event log (numba_tools.append_event): when = the round, who = the seat; arguments per kind:
#   E_ROLL (face, turn points after it), E_ILLEGAL (the answer), E_BUST (points lost), E_HOLD (points
#   banked, banked after), E_FINISH (turn points, banked after)
EVENT_KINDS = ("roll", "illegal", "bust", "hold", "finish")
E_ROLL, E_ILLEGAL, E_BUST, E_HOLD, E_FINISH = range(len(EVENT_KINDS))


@njit(cache=True)
def _check(banked, rolled, lost, public, target, faces):
    for p in range(banked.size):
        if banked[p] != rolled[p] - lost[p]:
            raise AssertionError("dice race: banked points differ from the faces rolled less those lost to busts")
        if banked[p] < 0 or banked[p] >= target + faces:
            raise AssertionError("dice race: banked points out of range")
        if banked_points(public, p) != banked[p]:
            raise AssertionError("dice race: the public vector shows other banked points")


@njit(cache=True)
def _play(seed, first_game, n_games, n_players, rules, decisions, params, check, record, out_stats, out_game,
          out_winner, events, event_count):
    target = rules[R_TARGET]
    faces = rules[R_FACES]
    bust_face = rules[R_BUST_FACE]
    max_rounds = rules[R_MAX_ROUNDS]
    safe_first_roll = rules[R_SAFE_FIRST_ROLL] != 0
    public = np.zeros(public_length(n_players), np.int64)
    memory = np.zeros((n_players, MEMORY_SIZE))
    dice = np.zeros((n_players, 4), np.uint64)
    strategy_rng = np.zeros((n_players, 4), np.uint64)
    banked = np.zeros(n_players, np.int64)
    rolled = np.zeros(n_players, np.int64)     # every face rolled, and the part lost to busts (checking mode)
    lost = np.zeros(n_players, np.int64)
    public[PUB_PLAYERS] = n_players
    public[PUB_TARGET] = target
    public[PUB_FACES] = faces
    public[PUB_BUST_FACE] = bust_face
    count = 0

    for g in range(n_games):
        game = first_game + g
        for p in range(n_players):
            rng.seed_stream(dice[p], seed, game, rng.DICE + p)
            rng.seed_stream(strategy_rng[p], seed, game, rng.STRATEGY + p)
        memory[:, :] = 0.0
        banked[:] = 0
        rolled[:] = 0
        lost[:] = 0
        public[PUB_HEADER:] = 0
        winner = -1
        rounds = 0
        while winner < 0 and rounds < max_rounds:
            for seat in range(n_players):
                out_stats[g, seat, S_TURNS] += 1
                points = 0
                rolls = 0
                while True:
                    face = 1 + rng.below(dice[seat], faces)
                    while safe_first_roll and rolls == 0 and busts(face, bust_face):
                        out_stats[g, seat, S_SAFE_REROLLS] += 1    # game.safe_first_roll: rolled again
                        face = 1 + rng.below(dice[seat], faces)
                    rolls += 1
                    rolled[seat] += face
                    if busts(face, bust_face):
                        lost[seat] += points + face
                        out_stats[g, seat, S_BUSTS] += 1
                        if record:
                            count = append_event(events, count, rounds, seat, E_ROLL, face, 0, 0, 0)
                            count = append_event(events, count, rounds, seat, E_BUST, points, 0, 0, 0)
                        points = -1
                        break
                    points += face
                    if record:
                        count = append_event(events, count, rounds, seat, E_ROLL, face, points, 0, 0)
                    if banked[seat] + points >= target:
                        winner = seat
                        break
                    public[PUB_SEAT] = seat
                    public[PUB_ROUND] = rounds
                    public[PUB_TURN_POINTS] = points
                    public[PUB_ROLLS] = rolls
                    public[PUB_LAST_ROLL] = face
                    answer = decisions[seat](readonly(public), readonly(params[seat]), memory[seat],
                                             strategy_rng[seat])
                    if not is_answer(answer):
                        out_stats[g, seat, S_ILLEGAL] += 1
                        if record:
                            count = append_event(events, count, rounds, seat, E_ILLEGAL, answer, 0, 0, 0)
                        answer = STOP
                    if answer == STOP:
                        break
                out_stats[g, seat, S_ROLLS] += rolls
                if points >= 0:
                    banked[seat] += points
                    public[PUB_HEADER + seat] = banked[seat]
                    if winner < 0:
                        out_stats[g, seat, S_HOLDS] += 1
                    if record:
                        count = append_event(events, count, rounds, seat, E_FINISH if winner >= 0 else E_HOLD,
                                             points, banked[seat], 0, 0)
                if check:
                    _check(banked, rolled, lost, public, target, faces)
                if winner >= 0:
                    break
            rounds += 1

        out_game[g, G_ROUNDS] = rounds
        out_game[g, G_LIMIT_HIT] = winner < 0
        best = banked.max()
        for p in range(n_players):
            out_stats[g, p, S_POINTS] = banked[p]
            out_winner[g, p] = p == winner if winner >= 0 else banked[p] == best
    event_count[0] = count


def play_batch(seed, first_game, n_games, prepared, functions, params, check=False, record=False, event_capacity=0):
    """Allocate the outputs and play ``n_games`` games from global index ``first_game``, for compiled rules
    (``prepared.vector``: RULES.vector, the R_* slots), each seat's decision functions (``functions[seat]``:
    roll_again) and parameters (``params[seat]``). The roll_again functions are padded to MAX_SEATS so that the
    kernel's type, and so its cache entry, does not depend on the player count."""
    rules = prepared.vector
    n_players = len(functions)
    decisions = tuple(roll_again for roll_again, in functions)
    decisions = decisions + (decisions[0],) * (MAX_SEATS - n_players)
    out = {
        "stats": np.zeros((n_games, n_players, len(SEAT_STATS)), np.int64),
        "game": np.zeros((n_games, len(GAME_STATS)), np.int64),
        "winner": np.zeros((n_games, n_players), np.bool_),
    }
    events = np.zeros((event_capacity, EVENT_FIELDS), np.int64)
    event_count = np.zeros(1, np.int64)
    _play(np.uint64(seed), first_game, n_games, n_players, rules, decisions, params, check, record,
          out["stats"], out["game"], out["winner"], events, event_count)
    out["events"] = events[: min(event_count[0], event_capacity)]
    out["events_lost"] = max(0, int(event_count[0]) - event_capacity)
    return out
