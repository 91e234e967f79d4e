"""Wheeler Dealer (UK edition): commodity sets, At Risk loans, the inner circle, three levels.

The rules as the simulator plays them, its decisions K1-K7 and what is assumed: docs/rules/wheeler-dealer-uk.md.
K5: levels 2 and 3 differ only in their target and inner-circle threshold (the data's [[level]] tables);
the printed rules describe no other difference, so none is simulated.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...columns import ResultColumns
from ...numba_tools import EVENT_FIELDS, function_list
from ...strategy import MAX_PARAMS
from .. import Game
from . import engine
from .rules import UKRules
from .rules import prepare as _prepare
from .view import COLOURS, DECISION_NAMES, DECISIONS, H_COLOUR, H_COPIES, MAX_SEATS, MAX_SET, MEMORY_SIZE

def prepare(rules: dict, n_players: int) -> UKRules:
    """Validate effective rules for ``n_players`` and compile them (errors name the key)."""
    GAME.check_player_count(n_players)
    return _prepare(rules, n_players)


def _context(prepared: UKRules, seats, event_capacity=0, record=False):
    n = prepared.n_players
    fns = function_list(tuple(seats[min(seat, n - 1)].strategy.decisions[name]
                               for name in DECISION_NAMES for seat in range(MAX_SEATS)))
    floats = np.zeros((n, MAX_PARAMS + MEMORY_SIZE))
    for i, seat in enumerate(seats):
        floats[i, :MAX_PARAMS] = seat.vector()
    commands = prepared.commands
    misc = np.zeros(engine.M_COMMANDS + 3 * len(commands), np.int64)
    misc[engine.M_RECORD] = record
    misc[engine.M_COMMAND_CARDS] = len(commands)
    misc[engine.M_PARAMS] = MAX_PARAMS
    misc[engine.M_COMMANDS + len(commands):engine.M_COMMANDS + 2 * len(commands)] = commands[:, 0]
    misc[engine.M_COMMANDS + 2 * len(commands):] = commands[:, 1]
    copies = prepared.table[prepared.table[H_COPIES]:][:len(prepared.commodities)]
    colours = prepared.table[prepared.table[H_COLOUR]:][:len(prepared.commodities)]
    largest = max(int(copies[colours == k].sum()) for k in range(len(COLOURS)))
    packs = np.zeros((len(COLOURS), max(1, largest)), np.int64)
    rngs = np.zeros((2 * n + 2, 4), np.uint64)
    events = np.zeros((event_capacity, EVENT_FIELDS), np.int64)
    return (prepared.table.copy(), misc, packs, floats, rngs, events, fns)


def _run(prepared: UKRules, seats, seed, first_game, n_games, check, record=False, event_capacity=0):
    ctx = _context(prepared, seats, event_capacity, record)
    n = prepared.n_players
    out = {name: np.zeros((n_games, n), np.int64) for name in ("wealth", "cash", "cards")}
    out.update(bankrupt=np.zeros((n_games, n), np.bool_), winner=np.zeros((n_games, n), np.bool_),
               stats=np.zeros((n_games, n, engine.N_STATS), np.int64), rounds=np.zeros(n_games, np.int64),
               end=np.zeros(n_games, np.int64), first_inner=np.zeros(n_games, np.int64))
    engine._play(ctx, prepared.table, prepared.start_hand, prepared.start_cash, np.uint64(seed), first_game, n_games,
                 check, out["wealth"], out["cash"], out["cards"], out["bankrupt"], out["winner"], out["stats"],
                 out["rounds"], out["end"], out["first_inner"])
    misc = ctx[1]
    out["set_sizes"] = misc[engine.M_SET_SIZES:engine.M_SET_SIZES + MAX_SET + 1].copy()
    out["events"] = ctx[5][: min(misc[engine.M_EVENTS], event_capacity)]
    out["events_lost"] = max(0, int(misc[engine.M_EVENTS]) - event_capacity)
    return out


def simulate(prepared: UKRules, seats, seed: int, first_game: int, n_games: int, check: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = _run(prepared, seats, seed, first_game, n_games, check)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    columns.per_seat("wealth", out["wealth"])
    columns.per_seat("cash", out["cash"])
    columns.per_seat("cards", out["cards"], np.int16)
    columns.per_seat("bankrupt", out["bankrupt"])
    columns.per_seat("winner", out["winner"])
    columns.seat_counters(engine.SEAT_STATS, out["stats"], np.int32, keep=("set_credits",))
    for name in ("rounds", "end", "first_inner"):
        columns.per_game({"first_inner": "first_inner_round"}.get(name, name), out[name], np.int32)
    columns.totals(set_sizes=out["set_sizes"])
    return columns.columns


def wealth_traces(prepared: UKRules, seats, seed: int, games) -> dict:
    """Each seat's total wealth at the start of each of its turns, for the given games:
    {game: [(rounds, wealths) per seat]} (from the replay's event log)."""
    traces = {}
    for game in games:
        events = _run(prepared, seats, seed, game, 1, False, record=True, event_capacity=400_000)["events"]
        turns = events[events[:, 2] == engine.E_TURN]
        traces[game] = [(turns[turns[:, 1] == p, 0] + 1, turns[turns[:, 1] == p, 4])
                        for p in range(prepared.n_players)]
    return traces


def replay(prepared: UKRules, seats, seed: int, game: int) -> str:
    from .replay import format_replay

    capacity = 400_000
    out = _run(prepared, seats, seed, game, 1, True, record=True, event_capacity=capacity)
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
        "rounds": "rounds played (a round: every seat one turn)",
        "end": "how the game ended: 0 target reached, 1 last player left, 2 turn limit (flagged)",
        "first_inner_round": "the round (from 1) a player first entered the inner circle (-1: nobody did)",
        "set_sizes (totals)": "sets sold by number of cards, over the batch (simkit.totals)",
    },
    levels=(1, 2, 3),
    report_plots=("wealth_over_turns", "time_to_win", "set_sizes", "inner_circle_entry"),
    total_labels=lambda prepared: {"set_sizes": [str(k) for k in range(MAX_SET + 1)]},
    player_turns=lambda columns: int(columns["turns"].sum()),
    report_note="K5: the rules text describes level 1 only; levels 2 and 3 differ from it here in their target "
                "and inner-circle threshold alone (the data's [[level]] tables), since no other difference is known "
                "(docs/rules/wheeler-dealer-uk.md).",
    length_column="rounds",
    limit_hit=lambda rows: rows["end"] == engine.END_TURN_LIMIT,
    limit_label="game.turn_limit rounds reached",
    money_columns=frozenset({"wealth", "cash", "set_credits"}),
    currency="credits",
)
