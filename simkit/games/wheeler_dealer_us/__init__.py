"""Wheeler-Dealer (US edition): properties, Title Cards and the Commodity Futures Exchange, Levels One
and Two. The rules as the simulator plays them, with its decisions U1-U17: docs/rules/wheeler-dealer-us.md."""
from __future__ import annotations

from pathlib import Path

from .. import EVERY_GAME, PLAYER_COUNTS_ONLY, Game

# The per-seat counters, in the order of their result columns (their meanings: facts below); the engine reads each
# one's place by its name (state.py, or the module that counts it). The counters after illegal_actions count where a
# rule option came into play (GAME.rule_counters): doubles bonuses paid, landings on Park, City Hall, School and the
# Trade Fair (U9), Tax Audits, Bamboozles played and those staked with cash (no title to stake)
SEAT_STATS = ("bought", "auctions_won", "declined_then_won", "poaches", "poached", "loans", "repaid",
              "deals_offered", "deals_accepted", "rent_paid", "rent_received", "exchange_profit", "bankrupt_turn",
              "turns_played", "cards_used", "bumps", "bamboozles_won", "illegal_actions", "doubles_bonuses",
              "park_visits", "city_hall_visits", "school_stays", "trade_fair_visits", "tax_audits", "bamboozles",
              "cash_bamboozles")

GAME = Game(
    name="wheeler-dealer-us",
    title="Wheeler-Dealer (US)",
    player_counts=(2, 3, 4, 5, 6),
    house_player_counts=(),
    default_lineup=("kelly", "copper-only", "poacher", "builder"),
    play_module=f"{__name__}.play",
    strategies_modules=("simkit.strategies.wheeler_dealer_us",),
    rules_path=Path(__file__).with_name("rules.toml"),
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
