"""Playing wheeler_dealer_us: the rules compiled (rules.prepare), a batch simulated into result columns, a replay, the
fuzz drawer and the decisions' signatures (DECISIONS). The declaration is the package's ``GAME``; this
module, and the engine with it, is imported when a game is played."""
from __future__ import annotations

import numpy as np

from ...columns import ResultColumns
from ...errors import SimkitError
from ...strategy import kernel_inputs
from . import GAME, engine
from .replay import format_replay
from .rules import R_DECK_SIZE, USRules
from .rules import prepare as prepare  # Game.prepare calls it
from .state import SEAT_STATS
from .view import (
    DECISION_NAMES,
    MAX_SEATS,
    PUB_BLOCKS,
    PUB_PROPERTIES,
    S_CASH,
    debt_slot,
    owner_slot,
    public_length,
    seat_net_worth,
    seat_slot,
)
from .view import DECISIONS as DECISIONS  # Game.decisions reads it


def _kernel_inputs(seats):
    """Each seat's decision functions (in DECISION_NAMES order) and parameters, as engine.play_batch takes them."""
    return kernel_inputs(seats, DECISION_NAMES, MAX_SEATS)


def simulate(prepared: USRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = engine.play_batch(seed, first_game, n_games, prepared, *_kernel_inputs(seats), check=check)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    for name in ("net_worth", "cash"):
        columns.per_seat(name, out[name])
    for name in ("properties", "blocks", "debt_ridden"):
        columns.per_seat(name, out[name], np.int16)
    columns.per_seat("bankrupt", out["bankrupt"])
    columns.per_seat("winner", out["winner"])
    columns.seat_counters(SEAT_STATS, out["stats"], np.int32, keep=("rent_paid", "rent_received", "exchange_profit"))
    for i, name in enumerate(prepared.commodities):
        key = _column_key(name)
        columns.per_seat(f"invest_{key}", out["invest"][:, :, i], np.int16)
        columns.per_seat(f"won_{key}", out["won"][:, :, i], np.int16)
    columns.per_game("turns", out["turns"], np.int32)
    columns.per_game("end", out["end"], np.int8)
    columns.per_game("turn_limit_reached", out["end"] == 2, np.int8)   # game.max_turns' counter
    columns.totals(landings=out["landings"])
    return columns.columns


def start(prepared: USRules, seats, seed: int, game: int, check: bool = False) -> engine.GameState:
    """Game ``game`` of ``seed`` set up before its first go, with the line-up ``seats`` (parsed, as simulate takes
    them): a state to copy (``state.copy()``) and play on (``state.step(goes)``); the deck and every later random
    number are those of ``simulate``. Once ``state.over``, ``state.result()`` holds the game's outputs."""
    return engine.start(seed, game, prepared, *_kernel_inputs(seats), check=check)


def _column_key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.lower()).strip("_")


def net_worth(cash, owned, debt_ridden=(), rules=None) -> int:
    """Net worth from Python, with the function the engine and the strategies call (view.seat_net_worth): cash +
    each owned property's cost x the number of properties owned in its block - the payoff of each debt-ridden
    property owned.

    owned and debt_ridden: property ids (e.g. "A1"); rules: an effective rules dict (defaults if None).
    """
    rules = GAME.default_rules if rules is None else rules
    prepared = prepare(rules, 2)
    index = {pid: i for i, pid in enumerate(prepared.properties)}
    for pid in list(owned) + list(debt_ridden):
        if pid not in index:
            raise SimkitError(f"net_worth: unknown property {pid!r}; properties: {', '.join(prepared.properties)}")
    if not set(debt_ridden) <= set(owned):
        raise SimkitError("net_worth: every debt-ridden property must be among the owned ones")
    public = np.zeros(public_length(len(prepared.properties), len(prepared.card_types)), np.int64)
    public[PUB_PROPERTIES] = len(prepared.properties)
    public[PUB_BLOCKS] = len(prepared.blocks)
    for prop in range(len(prepared.properties)):
        public[owner_slot(prop)] = -1
    for pid in owned:
        public[owner_slot(index[pid])] = 0
    for pid in debt_ridden:
        public[debt_slot(public, index[pid])] = 1
    public[seat_slot(0, S_CASH)] = int(cash)
    return int(seat_net_worth(public, prepared.table, 0))


def replay(prepared: USRules, seats, seed: int, game: int) -> str:
    capacity = 200 * int(prepared.vector[R_DECK_SIZE]) + 10_000
    out = engine.play_batch(seed, game, 1, prepared, *_kernel_inputs(seats), check=True, record=True,
                            event_capacity=capacity)
    return format_replay(prepared, seats, seed, game, out)


def fuzz_rules(pick, n: int) -> dict:
    """A random valid rule overlay for ``n`` players, drawn through ``pick`` (simkit.fuzz: integer, boolean,
    choice); ``simkit fuzz`` and the property tests play it in checking mode."""
    defaults = GAME.default_rules
    return {
        "game": {"level": pick.integer(1, 2), "start_cash": pick.choice([0, 20_000, 50_000, 100_000, 300_000]),
                 "deals_per_turn": pick.integer(0, 4), "last_player_standing": pick.boolean(),
                 "max_turns": pick.choice([1, 20, 300, 3000]),
                 "doubles_bonus_per_pip": pick.choice([0, 1000, 5000]),
                 "auction_increment": pick.choice([1, 1000, 10_000])},
        "corners": {"city_hall_cash_percent": pick.integer(0, 100), "park_collect_per_pip": pick.choice([0, 5000]),
                    "school_collect_per_pip": pick.choice([0, 2000]),
                    "trade_fair_extra_investment": pick.boolean()},
        "tax_audit": {"stake_per_pip": pick.choice([0, 10_000, 50_000])},
        "bamboozle": {"cash_stake": pick.choice([1, 20_000, 100_000])},
        "commodity": [{**c, "total_return": c["invest"] * pick.integer(1, 9)} for c in defaults["commodity"]],
    }
