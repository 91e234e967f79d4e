"""Wheeler-Dealer (US edition): properties, Title Cards and the Commodity Futures Exchange, Levels One
and Two. The rules as the simulator plays them, with its decisions U1-U16: docs/rules/wheeler-dealer-us.md."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...errors import SimkitError
from .. import Game
from . import engine
from .rules import R_DECK_SIZE, USRules
from .rules import prepare as _prepare
from .view import DECISION_NAMES, DECISIONS, MAX_SEATS, PUB_BLOCKS, PUB_PROPERTIES, debt_slot, owner_slot, public_length


def prepare(rules: dict, n_players: int) -> USRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    GAME.check_player_count(n_players)
    return _prepare(rules, n_players)


def _kernel_inputs(seats):
    fns = engine.function_addresses(tuple(seats[min(seat, len(seats) - 1)].strategy.decisions[name]
                                          for name in DECISION_NAMES for seat in range(MAX_SEATS)))
    params = np.zeros((MAX_SEATS, seats[0].vector().size))
    for i, seat in enumerate(seats):
        params[i] = seat.vector()
    return fns, params


def _context(prepared: USRules, seats, event_capacity=0, record=False):
    fns, params = _kernel_inputs(seats)
    return engine.make_context(prepared.table, prepared.vector, prepared.deck, fns, params, prepared.n_players,
                               len(prepared.blocks), len(prepared.commodities), len(prepared.card_types),
                               len(prepared.squares), event_capacity, record)


def _run(prepared: USRules, seats, seed, first_game, n_games, check, record, event_capacity=0):
    arrays = _context(prepared, seats, event_capacity, record)
    n = prepared.n_players
    c = len(prepared.commodities)
    out = {
        "net_worth": np.zeros((n_games, n), np.int64), "cash": np.zeros((n_games, n), np.int64),
        "properties": np.zeros((n_games, n), np.int64), "blocks": np.zeros((n_games, n), np.int64),
        "debt_ridden": np.zeros((n_games, n), np.int64), "bankrupt": np.zeros((n_games, n), np.bool_),
        "winner": np.zeros((n_games, n), np.bool_),
        "stats": np.zeros((n_games, n, len(engine.SEAT_STATS)), np.int64),
        "invest": np.zeros((n_games, n, c), np.int64), "won": np.zeros((n_games, n, c), np.int64),
        "turns": np.zeros(n_games, np.int64), "end": np.zeros(n_games, np.int64),
    }
    engine._play(engine.kernel_context(arrays), prepared.deck, np.uint64(seed), first_game, n_games, check, out["net_worth"], out["cash"],
                 out["properties"], out["blocks"], out["debt_ridden"], out["bankrupt"], out["winner"], out["stats"],
                 out["invest"], out["won"], out["turns"], out["end"])
    state = arrays[0]
    start = engine.ST_PUBLIC + state[engine.ST_PUBLIC_LEN] + state[engine.ST_DECK_SIZE]
    out["landings"] = state[start:start + len(prepared.squares)].copy()
    out["events"] = arrays[5]
    out["event_count"] = np.array([state[engine.ST_EVENT_COUNT]])
    return out


def simulate(prepared: USRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = _run(prepared, seats, seed, first_game, n_games, check, False)
    n = prepared.n_players
    rows = n_games * n
    columns = {
        "game": np.repeat(np.arange(first_game, first_game + n_games, dtype=np.int64), n),
        "seat": np.tile(np.arange(n, dtype=np.int8), n_games),
    }
    for name in ("net_worth", "cash"):
        columns[name] = out[name].reshape(rows)
    for name in ("properties", "blocks", "debt_ridden"):
        columns[name] = out[name].reshape(rows).astype(np.int16)
    columns["bankrupt"] = out["bankrupt"].reshape(rows)
    columns["winner"] = out["winner"].reshape(rows)
    for i, name in enumerate(engine.SEAT_STATS):
        values = out["stats"][:, :, i].reshape(rows)
        columns[name] = values if name in ("rent_paid", "rent_received", "exchange_profit") else values.astype(np.int32)
    for i, name in enumerate(prepared.commodities):
        key = _column_key(name)
        columns[f"invest_{key}"] = out["invest"][:, :, i].reshape(rows).astype(np.int16)
        columns[f"won_{key}"] = out["won"][:, :, i].reshape(rows).astype(np.int16)
    columns["turns"] = np.repeat(out["turns"].astype(np.int32), n)
    columns["end"] = np.repeat(out["end"].astype(np.int8), n)
    columns["_totals"] = {"landings": out["landings"]}
    return columns


def _column_key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.lower()).strip("_")


def net_worth(cash, owned, debt_ridden=(), rules=None) -> int:
    """Net worth from Python, with the engine's own code: cash + each owned property's cost x the number
    of properties owned in its block - the payoff of each debt-ridden property owned.

    owned and debt_ridden: property ids (e.g. "A1"); rules: an effective rules dict (defaults if None).
    """
    rules = GAME.default_rules if rules is None else rules
    prepared = _prepare(rules, 2)
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
    public[engine.seat_slot(0, engine.S_CASH)] = int(cash)
    return int(engine.net_worth_of(public, prepared.table, 0))


def replay(prepared: USRules, seats, seed: int, game: int) -> str:
    from .replay import format_replay

    capacity = 200 * int(prepared.vector[R_DECK_SIZE]) + 10_000
    out = _run(prepared, seats, seed, game, 1, True, True, capacity)
    out["events"] = out["events"][: min(int(out["event_count"][0]), capacity)]
    return format_replay(prepared, seats, seed, game, out)


GAME = Game(
    name="wheeler-dealer-us",
    title="Wheeler-Dealer (US)",
    player_counts=(2, 3, 4, 5, 6),
    house_player_counts=(),
    default_lineup=("kelly", "copper-only", "poacher", "builder"),
    decisions=DECISIONS,
    strategies_module="strategies.wheeler_dealer_us",
    rules_path=Path(__file__).with_name("rules.toml"),
    prepare=prepare,
    simulate=simulate,
    replay=replay,
    score_column="net_worth",
    facts={
        "net_worth": "cash + market value - payoffs of debt-ridden properties, at the end",
        "cash, properties, blocks, debt_ridden": "holdings at the end",
        "bankrupt, bankrupt_turn": "went bankrupt (never a winner, U15), and the game turn it happened",
        "invest_<commodity>, won_<commodity>": "Exchange investments made and won, per commodity",
        "exchange_profit": "total Exchange returns minus stakes",
        "bought, auctions_won, declined_then_won, poaches, poached": "property acquisitions (U3, U7, U15)",
        "loans, repaid, deals_offered, deals_accepted": "borrowing (U5) and Wheeling & Dealing (U4)",
        "rent_paid, rent_received": "rent between players",
        "turns, end": "turns in the game; how it ended: 0 card clock, 1 last player standing, 2 turn limit",
        "turns_played": "turns the seat played",
        "illegal_actions": "strategy answers refused (out of range or against the rules) and replaced by the default",
        "landings (totals)": "landings per square, summed over the batch (simkit.totals)",
    },
    levels=(1, 2),
    total_labels=lambda prepared: {"landings": list(prepared.squares)},
    report_plots=("bankruptcy_timing", "exchange_vs_odds", "landing_heatmap"),
    player_turns=lambda columns: int(columns["turns"][columns["seat"] == 0].sum()),
    length_column="turns",
    limit_hit=lambda rows: rows["end"] == 2,
    limit_label="game.max_turns reached",
    money_columns=frozenset({"net_worth", "cash", "rent_paid", "rent_received", "exchange_profit"}),
    currency="$",
)
