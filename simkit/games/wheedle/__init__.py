"""Wheedle: trade stock cards for majorities; the card left in the centre goes bankrupt.

How the simulator plays every rule, and the decisions W1-W8: docs/rules/wheedle.md.
"""
from __future__ import annotations

from pathlib import Path

from .. import EVERY_GAME, Game


def half_time_points(rows):
    """Each seat's points after the first half of the rounds (rounded down); None for a one-round game."""
    rounds = sum(1 for name in rows.columns if name.startswith("points_r"))
    if rounds < 2:
        return None
    return rows[[f"points_r{r}" for r in range(1, rounds // 2 + 1)]].sum(axis=1)


# The per-seat counters, in the order of their result columns (their meanings: facts below); the engine reads each
# one's place by its name. The last seven count where a rule option came into play (GAME.rule_counters names the
# counter of each option): false stops after which trading went on (W4), offers giving or asking for nothing (W3:
# made, or refused when gifts are off), round-ending false stops (W8), and at scoring the companies held whole,
# majorities (not all) outside the bankrupt company, cards of the bankrupt company, majorities in it (W6)
SEAT_STATS = ("stops", "good_stops", "false_stops", "offers", "offers_taken", "offers_accepted", "swaps",
              "illegal_actions", "false_stops_played_on", "gift_offers", "false_stops_ending_round",
              "companies_all_held", "majorities_scored", "bankrupt_cards", "bankrupt_majorities")

GAME = Game(
    name="wheedle",
    title="Wheedle",
    player_counts=(4, 5, 6),        # W1: the printed rules' player counts (hands: deal.hand)
    house_player_counts=(2, 3),     # house rules (hands: deal.house_hand)
    default_lineup=("hair-trigger", "threshold", "patient", "blocker"),
    play_module=f"{__name__}.play",
    strategies_modules=("simkit.strategies.wheedle", "simkit.strategies.wheedle_expert"),
    rules_path=Path(__file__).with_name("rules.toml"),
    score_column="points",
    facts={
        "points": "total points over the game's rounds",
        "points_rN": "points in round N",
        "stops, good_stops, false_stops": "stops made by the seat, with and without majorities (W4, W8)",
        "false_stops_played_on, false_stops_ending_round": "false stops after which trading went on (W4: "
                                                           "false_stop_ends_round = false) / that ended the round",
        "gift_offers": "offers giving or asking for nothing: made, or refused when gifts are off (W3)",
        "companies_all_held, majorities_scored": "companies the seat scored as held whole / by a majority "
                                                 "(not all, not the bankrupt company) at a round's end",
        "bankrupt_cards, bankrupt_majorities": "cards of the bankrupt company held at a round's end, and "
                                               "majorities in it (W6)",
        "offers, offers_taken, offers_accepted, swaps": "the seat's trading activity",
        "illegal_actions": "actions the engine refused (played as a pass)",
        "ticks, ticks_rN": "ticks in the game and in round N (W3)",
        "stopper_rN": "seat that stopped round N, -1 for a stalemate (W5)",
        "stalemates": "rounds of the game that reached max_ticks",
    },
    rule_counters={
        "company": EVERY_GAME, "deal.hand": EVERY_GAME, "deal.house_hand": EVERY_GAME,
        "scoring.stop_bonus": "good_stops", "scoring.false_stop": "false_stops",
        "scoring.false_stopper_cards": "false_stops_ending_round", "scoring.all_cards": "companies_all_held",
        "scoring.majority": "majorities_scored", "scoring.bankrupt": "bankrupt_cards",
        "options.gifts_allowed": "gift_offers", "options.false_stop_ends_round": "false_stops",
        "options.bankrupt_majority_scores": "bankrupt_majorities", "options.rounds": EVERY_GAME,
        "options.max_ticks": "stalemates",
    },
    report_plots=("round_lengths",),
    player_turns=lambda columns: int(columns["ticks"][columns["seat"] == 0].sum()),
    length_column="ticks",
    limit_hit=lambda rows: rows["stalemates"] > 0,
    limit_label="a round reached options.max_ticks (stalemate)",
    half_time_score=half_time_points,
    report_note="How the simulator plays Wheedle, and its decisions W1-W8 (e.g. W8: a false stopper's cards "
                "earn nothing by default): docs/rules/wheedle.md.",
)
