"""Wheeler Dealer (UK edition): commodity sets, At Risk loans, the inner circle, three levels.

The rules as the simulator plays them, its decisions K1-K7 and what is assumed: docs/rules/wheeler-dealer-uk.md.
K5: levels 2 and 3 differ only in their target and inner-circle threshold (the data's [[level]] tables);
the printed rules describe no other difference, so none is simulated.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...columns import ResultColumns
from ...numba_tools import EV_B, EV_KIND, EV_SEAT, EV_TIME
from ...strategy import kernel_inputs
from .. import EVERY_GAME, PLAYER_COUNTS_ONLY, Game
from . import engine, state
from .rules import UKRules
from .rules import prepare as _prepare
from .view import DECISION_NAMES, DECISIONS, MAX_SEATS, MAX_SET


def prepare(rules: dict, n_players: int) -> UKRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    GAME.check_player_count(n_players)
    return _prepare(rules, n_players)


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
    from .replay import format_replay

    out = _play(prepared, seats, seed, game, 1, True, record=True, event_capacity=400_000)
    return format_replay(prepared, seats, seed, game, out)


def fuzz_rules(pick, n: int) -> dict:
    """A random valid rule overlay for ``n`` players, drawn through ``pick`` (simkit.fuzz: integer, boolean,
    choice); ``simkit fuzz`` and the property tests play it in checking mode."""
    rule = pick.choice(["colour", "size", "size_capped"])
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


_SET_MULTIPLE_KEYS = {"game.set_multiple_colour": ("colour",), "game.set_multiple_extra_per_card": ("colour",),
                      "game.set_multiple_size": ("size",)}


def unread(rules: dict, key: str) -> str:
    """Why these rules never read ``key``: another level's [[level]] table, or the set multiples of a
    set_multiple_rule not played; "" when they read it."""
    parts = key.split(".")
    level = rules["game"]["level"]
    if parts[0] == "level" and len(parts) >= 2 and parts[1].isdigit() and int(parts[1]) != level:
        rest = ".".join(parts[2:])
        return (f"these rules play level {level} (game.level = {level}), which never reads level {parts[1]}'s table; "
                f"level {level}'s is level.{level}{'.' + rest if rest else ''} (level keys count as the rulebook does; "
                "until 2026-12-02 they counted from 0, so an older file's level.N meant level N+1)")
    played = rules["game"]["set_multiple_rule"]
    for prefix, rule in _SET_MULTIPLE_KEYS.items():
        if (key == prefix or key.startswith(prefix + ".")) and played not in rule:
            return (f"these rules play game.set_multiple_rule = \"{played}\", which never reads {prefix} (read under "
                    f"\"{rule[0]}\")")
    return ""


GAME = Game(
    name="wheeler-dealer-uk",
    title="Wheeler Dealer (UK)",
    player_counts=(2, 3, 4, 5, 6),
    house_player_counts=(),
    default_lineup=("set-at-3", "hold-for-5", "raider", "cautious"),
    decisions=DECISIONS,
    strategies_module="simkit.strategies.wheeler_dealer_uk",
    rules_path=Path(__file__).with_name("rules.toml"),
    prepare=prepare,
    fuzz=fuzz_rules,
    simulate=simulate,
    replay=replay,
    score_column="wealth",
    facts={
        "wealth": "K4 total wealth at the end: cash + face of all cards - the cost of redeeming the At Risk ones",
        "cash, cards": "cash and cards held (At Risk ones included) at the end",
        "bankrupt, winner": "K4: the first to the level's target wins; else the last one left; at the turn "
                            "limit the richest (ties shared)",
        "sets_sold, set_credits": "sets sold to the bank and the credits they brought",
        "loans, redeemed, forfeited": "At Risk loans taken, redeemed, and lost to the redeem Command card",
        "sale_loans": "loans on cards of a set sold in the same turn, repaid from the sale (K7 game.borrow_on_sale)",
        "bought_from_players, sold_to_players": "deals at 3 x face (K1)",
        "raids, raided": "At Risk cards bought from others at 2 x face, and lost that way",
        "offers_refused": "the seat's 3 x offers that the owner refused (the turn's deal is used up, K7)",
        "space_buys, charges_paid, free_cards": "cards bought on spaces, Handlers Charges paid, free cards",
        "commands, turns": "Command cards followed; turns played (missed ones included)",
        "bankrupt_round, inner_round": "round (from 1) the seat went bankrupt / entered the inner circle (-1: never)",
        "illegal_actions": "answers the engine refused (out of range, or a card the seat cannot use): the "
                           "decision's default was played",
        "blue_bonuses, empty_pack_landings": "outer blue bonuses collected; landings on a colour whose pack "
                                             "was empty (K6)",
        "long_sets, redeem_loans": "sets sold of more than game.min_set cards; loans taken to redeem an At Risk "
                                   "card (K7)",
        "entered_inner": "1 if the seat entered the inner circle (the level's inner_circle_wealth met)",
        "target_reached, turn_limit_reached": "1 if the game ended on the level's target / on game.turn_limit",
        "rounds": "rounds played (a round: every seat one turn)",
        "end": "how the game ended: 0 target reached, 1 last player left, 2 turn limit (flagged)",
        "first_inner_round": "the round (from 1) a player first entered the inner circle (-1: nobody did)",
        "set_sizes (totals)": "sets sold by number of cards, over the batch (simkit.totals)",
    },
    levels=(1, 2, 3),
    unread=unread,
    rule_counters={
        "game.players_min": PLAYER_COUNTS_ONLY, "game.players_max": PLAYER_COUNTS_ONLY, "game.level": EVERY_GAME,
        "game.start_hand": EVERY_GAME, "game.start_cash": EVERY_GAME,
        "game.buy_from_player_multiple": "bought_from_players", "game.at_risk_loan_fraction": "loans",
        "game.at_risk_buy_multiple": "raids", "game.at_risk_interest": "redeemed",
        "game.handlers_charge": "charges_paid", "game.borrow_on_sale": "sale_loans",
        "game.blue_outer_bonus": "blue_bonuses", "game.outer_dice": EVERY_GAME, "game.inner_dice": EVERY_GAME,
        "game.min_set": "sets_sold", "game.set_multiple_rule": "sets_sold", "game.set_multiple_colour": "sets_sold",
        "game.set_multiple_extra_per_card": "long_sets", "game.set_multiple_size": "sets_sold",
        "game.empty_pack": "empty_pack_landings", "game.turn_limit": "turn_limit_reached",
        "level": "target_reached", "level.inner_circle_wealth": "entered_inner",
        "board.outer": EVERY_GAME, "board.inner": EVERY_GAME, "board.inner_entry": "entered_inner",
        "pack": EVERY_GAME, "command": "commands",
    },
    report_plots=("wealth_over_turns", "time_to_win", "set_sizes", "inner_circle_entry"),
    total_labels=lambda prepared: {"set_sizes": [str(k) for k in range(MAX_SET + 1)]},
    player_turns=lambda columns: int(columns["turns"].sum()),
    report_note="K5: the rules text describes level 1 only; levels 2 and 3 differ from it here in their target "
                "and inner-circle threshold alone (the data's [[level]] tables), since no other difference is known "
                "(docs/rules/wheeler-dealer-uk.md).",
    length_column="rounds",
    limit_hit=lambda rows: rows["end"] == state.END_TURN_LIMIT,
    limit_label="game.turn_limit rounds reached",
    money_columns=frozenset({"wealth", "cash", "set_credits"}),
    currency="credits",
)
