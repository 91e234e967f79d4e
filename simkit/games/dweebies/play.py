"""Playing dweebies: the rules compiled (rules.prepare), a batch simulated into result columns, a replay, the
fuzz drawer and the decisions' signatures (DECISIONS). The declaration is the package's ``GAME``; this
module, and the engine with it, is imported when a game is played."""
from __future__ import annotations

import numpy as np

from ...columns import ResultColumns
from ...strategy import kernel_inputs
from . import engine
from .replay import format_replay
from .rules import RULE_DATA, DweebiesRules
from .rules import prepare as prepare  # Game.prepare calls it
from .view import DECISIONS as DECISIONS  # Game.decisions reads it


def _kernel_inputs(seats):
    """Each seat's decision functions (place) and the seats' parameters, as engine.play_batch takes them."""
    return kernel_inputs(seats, tuple(DECISIONS), engine.MAX_SEATS)


def simulate(prepared: DweebiesRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = engine.play_batch(seed, first_game, n_games, prepared, *_kernel_inputs(seats), check=check)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    columns.seat_counters(engine.SEAT_STATS, out["stats"], np.int16)
    columns.per_seat("winner", out["winner"])
    for i, name in enumerate(engine.GAME_STATS):
        columns.per_game(name, out["game"][:, i], np.int16)
    columns.totals(collection_sizes=out["sizes"])
    return columns.columns


def start(prepared: DweebiesRules, seed: int, game: int) -> engine.GameState:
    """Game ``game`` of ``seed`` dealt, before its first turn: a state to copy (``state.copy()``) and play on
    with ``step``; the deal and every later random number are those of ``simulate``."""
    return engine.start(seed, game, prepared.n_players, prepared.copies, prepared.vector)


def step(state: engine.GameState, seats, turns: int = 1, check: bool = False) -> int:
    """Play up to ``turns`` turns of ``state`` in place with the line-up ``seats`` (parsed, as simulate takes
    them); returns the turns played. Once ``state.over``, ``state.stats``/``state.game``/``state.winner`` hold
    the game's results as ``simulate`` reports them."""
    functions, params = _kernel_inputs(seats)
    return engine.step(state, tuple(place for place, in functions), params, turns, check)


def replay(prepared: DweebiesRules, seats, seed: int, game: int) -> str:
    cards = int(prepared.copies.sum())
    out = engine.play_batch(seed, game, 1, prepared, *_kernel_inputs(seats), check=True, record=True,
                            event_capacity=cards * (4 * cards + 12))
    return format_replay(prepared, seats, seed, game, out)


def fuzz_rules(pick, n: int) -> dict:
    """A random valid rule overlay for ``n`` players, drawn through ``pick`` (simkit.fuzz: integer, boolean,
    choice); ``simkit fuzz`` and the property tests play it in checking mode."""
    if pick.boolean():   # a split of the published deck: n1+n2+n3+n4 = 27 Dweebies, 54 cards
        n4 = pick.integer(0, 9)
        n3 = pick.integer(0, (27 - 3 * n4) // 2)
        deck, cards = {"copies_split": [n3 + 2 * n4, 27 - 2 * n3 - 3 * n4, n3, n4]}, 54
    else:                # any deck
        copies = [pick.integer(1, 5) for _ in range(pick.integer(n, 40))]   # at least a card a player
        deck, cards = {"copies": copies}, sum(copies)
    return {"deck": deck, "game": {"hand_size": pick.integer(1, min(20, max(1, cards // n))),
                                   "min_line": pick.integer(2, 3), "collect": pick.choice(list(RULE_DATA.allowed["game.collect"].words)),
                                   "split_rule": pick.choice(list(RULE_DATA.allowed["game.split_rule"].words))}}
