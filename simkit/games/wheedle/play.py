"""Playing wheedle: the rules compiled (rules.prepare), a batch simulated into result columns, a replay, the
fuzz drawer and the decisions' signatures (DECISIONS). The declaration is the package's ``GAME``; this
module, and the engine with it, is imported when a game is played."""
from __future__ import annotations

import numpy as np

from ...columns import ResultColumns
from ...errors import SimkitError
from ...strategy import kernel_inputs
from . import GAME, engine
from .replay import format_replay
from .rules import R_MAX_TICKS, WheedleRules
from .rules import prepare as prepare  # Game.prepare calls it
from .view import DECISIONS as DECISIONS  # Game.decisions reads it
from .view import FALSE_STOP, GOOD_STOP, NO_STOP, holds_majorities


def _kernel_inputs(seats):
    """Each seat's act and accept functions and the seats' parameters, as engine.play_batch takes them."""
    return kernel_inputs(seats, tuple(DECISIONS), engine.MAX_SEATS)


def simulate(prepared: WheedleRules, seats, seed: int, first_game: int, n_games: int, check: bool = False,
             record: bool = False) -> dict:
    """Play games ``first_game .. first_game + n_games - 1``; one row per (game, seat)."""
    out = engine.play_batch(seed, first_game, n_games, prepared, *_kernel_inputs(seats), check=check, record=record)
    columns = ResultColumns(first_game, n_games, prepared.n_players)
    columns.per_seat("points", out["points"], np.int32)
    columns.per_seat("winner", out["winner"])
    for r in range(prepared.rounds):
        columns.per_seat(f"points_r{r + 1}", out["round_points"][:, :, r], np.int32)
    columns.seat_counters(engine.SEAT_STATS, out["seat_stats"], np.int32)
    # per-game facts, repeated on each of the game's rows
    columns.per_game("ticks", out["round_ticks"].sum(axis=1), np.int32)
    columns.per_game("stalemates", (out["round_stopper"] < 0).sum(axis=1), np.int32)
    for r in range(prepared.rounds):
        columns.per_game(f"ticks_r{r + 1}", out["round_ticks"][:, r], np.int32)
        columns.per_game(f"stopper_r{r + 1}", out["round_stopper"][:, r], np.int32)
    if record:
        columns.columns["_trace"] = out["trace"]
    return columns.columns


def score_round(hands, centre, stopper=None, rules=None):
    """Points per seat for one round scored from explicit hands (the engine's own scoring code).

    hands: one dict per player of company name -> cards held; centre: the company whose card is in
    the centre (bankrupt); stopper: the seat whose stop ended the round, or None or -1 (a stalemate: no
    bonus or penalty). A stopper without majorities is a false stopper: the penalty, and under W8's
    default (scoring.false_stopper_cards = "none") its cards earn nothing but its bankrupt cards still cost.
    rules: effective rules dict (defaults if None). Returns a list of ints.
    """
    rules = GAME.default_rules if rules is None else rules
    prepared = prepare(rules, GAME.validate(rules))
    index = {name: i for i, name in enumerate(prepared.companies)}
    for label, name in [("centre", centre)] + [("hand", n) for hand in hands for n in hand]:
        if name not in index:
            raise SimkitError(f"score_round: unknown company {name!r} in {label}; companies: {', '.join(index)}")
    matrix = np.zeros((len(hands), len(index)), np.int64)
    for p, hand in enumerate(hands):
        for name, held in hand.items():
            if isinstance(held, bool) or not isinstance(held, (int, np.integer)) or held < 0:
                raise SimkitError(f"score_round: seat {p} holds {held!r} cards of {name}; counts are whole numbers >= 0")
            matrix[p, index[name]] = held
    if stopper is not None and stopper != -1 and not (isinstance(stopper, (int, np.integer)) and 0 <= stopper < len(hands)):
        raise SimkitError(f"score_round: stopper must be a seat 0..{len(hands) - 1}, None or -1, not {stopper!r}")
    counts = prepared.counts
    c = index[centre]
    if (matrix.sum(axis=0) + np.eye(len(index), dtype=np.int64)[c] > counts).any():
        raise SimkitError("score_round: the hands and centre hold more cards of a company than it has")
    parts = [NO_STOP] * len(hands)
    if stopper is not None and stopper != -1:
        parts[stopper] = GOOD_STOP if holds_majorities(matrix[stopper], counts) else FALSE_STOP
    return [int(engine.seat_round_points(matrix[p], c, counts, prepared.vector, parts[p])) for p in range(len(hands))]


def replay(prepared: WheedleRules, seats, seed: int, game: int) -> str:
    capacity = min(prepared.rounds * (int(prepared.vector[R_MAX_TICKS]) + 2), 2_000_000)
    out = engine.play_batch(seed, game, 1, prepared, *_kernel_inputs(seats), check=True, record=True,
                            event_capacity=capacity)
    return format_replay(prepared, seats, seed, game, out)


def fuzz_rules(pick, n: int) -> dict:
    """A random valid rule overlay for ``n`` players, drawn through ``pick`` (simkit.fuzz: integer, boolean,
    choice); ``simkit fuzz`` and the property tests play it in checking mode."""
    hand = pick.integer(1, 30 if n <= 3 else 20)
    total = hand * n + 1
    companies = pick.integer(max(1, -(-total // 99)), min(12, total))
    cards = _split_total(pick, total, companies, 1, 99)
    table = "hand" if n in GAME.player_counts else "house_hand"
    return {
        "company": [{"name": f"C{i}", "cards": c} for i, c in enumerate(cards)],
        "deal": {table: {str(n): hand}},
        "scoring": {**{key: pick.integer(-20, 20) for key in ("stop_bonus", "false_stop", "all_cards", "majority",
                                                              "bankrupt")},
                    "false_stopper_cards": pick.choice(["none", "scored"])},   # W8
        "options": {"gifts_allowed": pick.boolean(), "false_stop_ends_round": pick.boolean(),
                    "bankrupt_majority_scores": pick.boolean(),
                    "rounds": pick.choice(["players", 1, 2, 3]), "max_ticks": pick.choice([1, 5, 50, 500, 2000])},
    }


def _split_total(pick, total: int, parts: int, low: int, high: int) -> list[int]:
    """``parts`` whole numbers in low..high summing to ``total`` (low*parts <= total <= high*parts)."""
    counts = [low] * parts
    weights = [pick.integer(1, 9) for _ in range(parts)]
    left = total - low * parts
    for i in range(parts):
        counts[i] += min(high - low, left * weights[i] // sum(weights))
    left = total - sum(counts)
    i = 0
    while left:
        if counts[i % parts] < high:
            counts[i % parts] += 1
            left -= 1
        i += 1
    return counts
