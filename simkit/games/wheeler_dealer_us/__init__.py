"""Wheeler-Dealer (US edition): properties, Title Cards and the Commodity Futures Exchange, Levels One
and Two. The rules as the simulator plays them, with its decisions U1-U17: docs/rules/wheeler-dealer-us.md."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...columns import ResultColumns
from ...errors import SimkitError
from ...strategy import kernel_inputs
from .. import EVERY_GAME, PLAYER_COUNTS_ONLY, Game
from . import engine
from .rules import R_DECK_SIZE, USRules
from .rules import prepare as _prepare
from .state import SEAT_STATS
from .view import (
    DECISION_NAMES,
    DECISIONS,
    MAX_SEATS,
    PUB_BLOCKS,
    PUB_PROPERTIES,
    S_CASH,
    debt_slot,
    owner_slot,
    public_length,
    seat_slot,
)


def prepare(rules: dict, n_players: int) -> USRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    GAME.check_player_count(n_players)
    return _prepare(rules, n_players)


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
    public[seat_slot(0, S_CASH)] = int(cash)
    return int(engine.net_worth_of(public, prepared.table, 0))


def replay(prepared: USRules, seats, seed: int, game: int) -> str:
    from .replay import format_replay

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


GAME = Game(
    name="wheeler-dealer-us",
    title="Wheeler-Dealer (US)",
    player_counts=(2, 3, 4, 5, 6),
    house_player_counts=(),
    default_lineup=("kelly", "copper-only", "poacher", "builder"),
    decisions=DECISIONS,
    strategies_module="simkit.strategies.wheeler_dealer_us",
    rules_path=Path(__file__).with_name("rules.toml"),
    prepare=prepare,
    fuzz=fuzz_rules,
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
        "rent_paid, rent_received": "rent between players: the money that changed hands (a payer that goes "
                                    "bankrupt on rent hands over its cash), so both sum to the same over the seats",
        "turns, end": "turns in the game; how it ended: 0 card clock, 1 last player standing, 2 turn limit",
        "turns_played": "turns the seat played",
        "illegal_actions": "strategy answers refused (out of range or against the rules) and replaced by the default",
        "doubles_bonuses, tax_audits": "movement doubles paid a bonus; Tax Audits faced (Level Two)",
        "park_visits, city_hall_visits, school_stays, trade_fair_visits": "landings on each corner (U9)",
        "bamboozles, cash_bamboozles": "Bamboozles the seat played, and those staked with cash (no title)",
        "turn_limit_reached": "1 if the game stopped at game.max_turns",
        "landings (totals)": "landings per square, summed over the batch (simkit.totals)",
    },
    levels=(1, 2),
    rule_counters={
        "game.start_cash": EVERY_GAME, "game.min_investment": EVERY_GAME,
        "game.doubles_bonus_per_pip": "doubles_bonuses", "game.auction_min_bid": "auctions_won",
        "game.auction_increment": "auctions_won", "game.deck_size": EVERY_GAME,
        "game.players_min": PLAYER_COUNTS_ONLY, "game.players_max": PLAYER_COUNTS_ONLY, "game.level": EVERY_GAME,
        "game.deals_per_turn": "deals_offered", "game.last_player_standing": EVERY_GAME,
        "game.max_turns": "turn_limit_reached", "corners.park_collect_per_pip": "park_visits",
        "corners.city_hall_cash_percent": "city_hall_visits", "corners.school_collect_per_pip": "school_stays",
        "corners.trade_fair_extra_investment": "trade_fair_visits", "tax_audit.stake_per_pip": "tax_audits",
        "bamboozle.cash_stake": "cash_bamboozles", "commodity": EVERY_GAME, "card": "cards_used",
        "board.squares": EVERY_GAME, "corner": EVERY_GAME, "property": EVERY_GAME,
    },
    total_labels=lambda prepared: {"landings": list(prepared.squares)},
    report_plots=("bankruptcy_timing", "exchange_vs_odds", "landing_heatmap"),
    player_turns=lambda columns: int(columns["turns"][columns["seat"] == 0].sum()),
    length_column="turns",
    limit_hit=lambda rows: rows["end"] == 2,
    limit_label="game.max_turns reached",
    money_columns=frozenset({"net_worth", "cash", "rent_paid", "rent_received", "exchange_profit"}),
    currency="$",
)
