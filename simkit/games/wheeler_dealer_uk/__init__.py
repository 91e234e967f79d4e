"""Wheeler Dealer (UK edition): commodity sets, At Risk loans, the inner circle, three levels.

The rules as the simulator plays them, its decisions K1-K7 and what is assumed: docs/rules/wheeler-dealer-uk.md.
K5: levels 2 and 3 differ only in their target and inner-circle threshold (the data's [[level]] tables);
the printed rules describe no other difference, so none is simulated.
"""
from __future__ import annotations

from pathlib import Path

from .. import EVERY_GAME, PLAYER_COUNTS_ONLY, Game

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


# The per-seat counters, in the order of their result columns (their meanings: facts below); the engine reads each
# one's place by its name (state.py, or the module that counts it). The last four count where a rule option came into
# play (GAME.rule_counters): outer blue bonuses paid, landings on an empty pack's colour (K6), sets of more than
# min_set cards sold, and loans taken to redeem an At Risk card (K7)
SEAT_STATS = ("sets_sold", "set_credits", "loans", "sale_loans", "redeemed", "forfeited", "bought_from_players",
              "sold_to_players", "raids", "raided", "offers_refused", "space_buys", "charges_paid", "commands",
              "free_cards", "turns", "bankrupt_round", "inner_round", "illegal_actions", "blue_bonuses",
              "empty_pack_landings", "long_sets", "redeem_loans")

GAME = Game(
    name="wheeler-dealer-uk",
    title="Wheeler Dealer (UK)",
    player_counts=(2, 3, 4, 5, 6),
    house_player_counts=(),
    default_lineup=("set-at-3", "hold-for-5", "raider", "cautious"),
    play_module=f"{__name__}.play",
    strategies_modules=("simkit.strategies.wheeler_dealer_uk", "simkit.strategies.wheeler_dealer_uk_expert"),
    rules_path=Path(__file__).with_name("rules.toml"),
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
    total_labels=lambda prepared: {"set_sizes": [str(k) for k in range(GAME.play.MAX_SET + 1)]},
    player_turns=lambda columns: int(columns["turns"].sum()),
    report_note="K5: the rules text describes level 1 only; levels 2 and 3 differ from it here in their target "
                "and inner-circle threshold alone (the data's [[level]] tables), since no other difference is known "
                "(docs/rules/wheeler-dealer-uk.md).",
    length_column="rounds",
    limit_hit=lambda rows: rows["turn_limit_reached"] == 1,
    limit_label="game.turn_limit rounds reached",
    money_columns=frozenset({"wealth", "cash", "set_credits"}),
    currency="credits",
)
