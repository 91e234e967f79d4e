"""Playing wheeler_dealer_uk: the rules compiled (rules.prepare), a batch simulated into result columns, a replay, the
fuzz drawer and the decisions' signatures (DECISIONS). The declaration is the package's ``GAME``; this
module, and the engine with it, is imported when a game is played."""
from __future__ import annotations

import numpy as np

from ...columns import ResultColumns
from ...numba_tools import EV_B, EV_KIND, EV_SEAT, EV_TIME
from ...strategy import kernel_inputs
from . import engine, state
from .replay import format_replay
from .rules import RULE_DATA, UKRules
from .rules import prepare as prepare  # Game.prepare calls it
from .view import DECISION_NAMES, MAX_SEATS
from .view import DECISIONS as DECISIONS  # Game.decisions reads it
from .view import MAX_SET as MAX_SET  # the declaration's total_labels reads it


def _play(prepared: UKRules, seats, seed, first_game, n_games, check, record=False, event_capacity=0) -> dict:
    return engine.play_batch(seed, first_game, n_games, prepared, *kernel_inputs(seats, DECISION_NAMES, MAX_SEATS),
                             check=check, record=record, event_capacity=event_capacity)


def start(prepared: UKRules, seats, seed: int, game: int, check: bool = False) -> engine.GameState:
    """Game ``game`` of ``seed`` dealt, before its first turn, with the line-up ``seats`` (parsed, as simulate takes
    them): a state to copy (``state.copy()``) and play on (``state.step(turns)``); the deal and every later
    random number are those of ``simulate``. Once ``state.over``, ``state.result()`` holds the game's outputs."""
    return engine.start(seed, game, prepared, *kernel_inputs(seats, DECISION_NAMES, MAX_SEATS), check=check)


def simulate(prepared: UKRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = _play(prepared, seats, seed, first_game, n_games, check)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    columns.per_seat("wealth", out["wealth"])
    columns.per_seat("cash", out["cash"])
    columns.per_seat("cards", out["cards"], np.int16)
    columns.per_seat("bankrupt", out["bankrupt"])
    columns.per_seat("winner", out["winner"])
    columns.seat_counters(state.SEAT_STATS, out["stats"], np.int32, keep=("set_credits",))
    for name in ("rounds", "end", "first_inner"):
        columns.per_game({"first_inner": "first_inner_round"}.get(name, name), out[name], np.int32)
    # counters of rules that act once a game (GAME.rule_counters): the level's target, the turn limit, and
    # the level's inner-circle threshold met
    columns.per_game("target_reached", out["end"] == state.END_TARGET, np.int8)
    columns.per_game("turn_limit_reached", out["end"] == state.END_TURN_LIMIT, np.int8)
    columns.per_seat("entered_inner", out["stats"][:, :, engine.S_INNER_ROUND] > 0, np.int8)
    columns.totals(set_sizes=out["set_sizes"])
    return columns.columns


def wealth_traces(prepared: UKRules, seats, seed: int, games) -> dict:
    """Each seat's total wealth at the start of each of its turns, for the given games:
    {game: [(rounds, wealths) per seat]} (from the replay's event log)."""
    traces = {}
    for game in games:
        events = _play(prepared, seats, seed, game, 1, False, record=True, event_capacity=400_000)["events"]
        turns = events[events[:, EV_KIND] == state.E_TURN]
        traces[game] = [(turns[turns[:, EV_SEAT] == p, EV_TIME] + 1, turns[turns[:, EV_SEAT] == p, EV_B])
                        for p in range(prepared.n_players)]
    return traces


def replay(prepared: UKRules, seats, seed: int, game: int) -> str:
    out = _play(prepared, seats, seed, game, 1, True, record=True, event_capacity=400_000)
    return format_replay(prepared, seats, seed, game, out)


def fuzz_rules(pick, n: int) -> dict:
    """A random valid rule overlay for ``n`` players, drawn through ``pick`` (simkit.fuzz: integer, boolean,
    choice); ``simkit fuzz`` and the property tests play it in checking mode."""
    rule = pick.choice(list(RULE_DATA.allowed["game.set_multiple_rule"].words))
    game = {"level": pick.integer(1, 3), "set_multiple_rule": rule, "start_cash": pick.choice([0, 2000, 8250, 50_000]),
            "turn_limit": pick.choice([1, 10, 100, 400]), "min_set": 3,
            "buy_from_player_multiple": pick.integer(0, 5),
            # 0 included: a free raid once let one turn bankrupt the last two players (found here: seed 2026, case 57)
            "at_risk_buy_multiple": pick.integer(0, 5),
            "blue_outer_bonus": pick.choice([0, 5000, 20_000]), "borrow_on_sale": pick.boolean()}
    for key in ("at_risk_loan_fraction", "at_risk_interest", "handlers_charge"):
        game[key] = pick.choice([0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0])
    if rule == "colour":
        game["set_multiple_colour"] = {c: pick.integer(0, 6) for c in ("red", "green", "yellow")}
        game["set_multiple_extra_per_card"] = pick.integer(0, 3)
    elif rule == "size":
        game["set_multiple_size"] = {"3": pick.integer(0, 4), "4": pick.integer(0, 6), "5": pick.integer(0, 8),
                                     "6": pick.integer(0, 10)}
    return {"game": game}
