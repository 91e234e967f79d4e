"""Paired comparison of two line-ups or rule sets on the same seeds (common random numbers).

Stopping early (``until_decided``): games are played in growing batches (``first_batch`` deals, then
doubling up to ``games``). After look k (k = 0, 1, ...) each strategy's paired win-rate difference gets
an interval at level 1 - alpha_k / m, with alpha_k = alpha / 2**(k + 1) and m the number of strategies
compared. By the union bound the chance that any interval at any look misses its true value is at most
sum(alpha_k) < alpha, however many looks are taken, so peeking does not inflate the error rate (a plain
95% interval re-checked at every look would). The run stops at the first look where every strategy is
decided: its interval excludes 0 (an effect, with its sign) or is narrower than +-``target`` (no effect
larger than target); otherwise it stops at ``games``.
"""
from __future__ import annotations

import pandas as pd

from simkit.reports.order import sort_tables

from .. import progress
from ..errors import SimkitError
from ..stats import Z95
from .activity import first_lines, probe_strategies
from .paired import _flatten, change_text, paired_tables, seat_advantage, swapped_entries, swapped_findings
from .play import batches, deals_for, play_many
from .result import NEGLIGIBLE, Analysis, games_played, parse_negligible
from .retune import add_retuned, retune_targets
from .stats import z_for

FIRST_BATCH = 2_000


def _same_sides(side_a, side_b, seed_b) -> list[str]:
    """A line saying that B is A when nothing tells them apart (``--set`` applies to both sides)."""
    if seed_b is not None or side_a[0].rules != side_b[0].rules or \
            [s.label for s in side_a[0].seats] != [s.label for s in side_b[0].seats]:
        return []
    return ["B is A: no --set-b, --players-b or --seed-b was given (--set and --rules apply to both sides), so A and B "
            "play the same games; give the change under test as --set-b KEY=VALUE or --players-b."]


def compare(game: str, players=None, players_b=None, sets=(), sets_b=(), rules=None, games: int = 10_000,
            seed: int = 0, seed_b: int | None = None, rotate_seats: bool = False, until_decided: bool = False,
            target: float = 0.01, alpha: float = 0.05, first_batch: int = FIRST_BATCH, retune=None,
            retune_params=None, retune_budget=None, workers: int = 1, storage=None,
            study_name: str = "compare", negligible=()) -> Analysis:
    """Play line-up/rules A and B on the same seeds and report B - A per strategy and per seat.

    players: A's line-up (default: the game's); players_b: B's (default: A's). sets/rules apply to both;
    sets_b are applied to B only, after them. seed_b: B's seed, only to measure unpaired sampling (the
    default, the same seed, is the paired design). games: games per side (with rotation, split over the
    seat orders); with until_decided it is the most that may be played. Win rates count a tie as a win
    for every tied seat. Intervals are 95% (at the adjusted level described above with until_decided).

    retune: "all" or the strategies of line-up A to re-tune under rules A and under rules B (with
    ``retune_params`` and ``retune_budget`` per strategy and rule set, as ``tune``'s params and budget), the
    two re-tuned line-ups then compared (``simkit.analysis.retune``): the report gives the change in seat 0's
    advantage, the strategy spread and the length for fixed and for re-tuned players side by side. It plays
    every seat order (as ``rotate_seats``), which seat advantage needs.
    storage/study_name: where those searches keep their state (see ``tune``). negligible: ``METRIC=VALUE``
    thresholds (result.parse_negligible; defaults result.NEGLIGIBLE) below which a significant difference is
    called negligible.
    """
    thresholds = parse_negligible(negligible)
    if not 0 < alpha < 1:
        raise SimkitError(f"alpha must be between 0 and 1, not {alpha}")
    if not target > 0:
        raise SimkitError(f"--target must be positive, not {target}")
    if isinstance(first_batch, bool) or not isinstance(first_batch, int) or first_batch < 2:
        raise SimkitError(f"first_batch must be a whole number of at least 2, not {first_batch!r}")
    rotate_seats = rotate_seats or retune is not None
    side_a = batches(game, players, seed, sets, rules, rotate_seats)
    side_b = batches(game, players_b if players_b is not None else players,
                     seed if seed_b is None else seed_b, [*sets, *sets_b], rules, rotate_seats)
    if retune is not None:
        retune = retune_targets(side_a[0].seats, retune, retune_params, players_b, seed_b)
        if not sets_b:
            raise SimkitError("--retune compares two rule sets: give the change as --set-b KEY=VALUE")
    n = len(side_a[0].seats)
    if len(side_b[0].seats) != n:
        raise SimkitError(f"line-ups A and B must have the same number of seats, not {n} and {len(side_b[0].seats)}")
    deals = deals_for(games, n, rotate_seats)
    sizes = [min(first_batch, deals) if until_decided else deals]
    while sizes[-1] < deals:
        sizes.append(min(2 * sizes[-1], deals))
    with progress.games(2 * deals * len(side_a)) as bar:    # the most that may be played, both sides
        done, a, b, strategies, looks = _play_looks(side_a, side_b, sizes, workers, until_decided, alpha, target,
                                                    "all" if retune is not None else "core")
        if done < deals:
            bar.finish_early()
    z = z_for(looks[-1]["alpha_per_interval"]) if looks else Z95
    seats = paired_tables(a, b, "seat", z)
    tables = {}
    swapped = swapped_entries(a, b, [s.label for s in side_a[0].seats], [s.label for s in side_b[0].seats],
                              rotate_seats, z)
    if swapped is not None:
        tables["swapped"] = swapped
    tables.update({"strategy": _flatten(strategies), "seat": _flatten(seats)})
    if not rotate_seats:
        tables["seat"].insert(0, "label_a", [side_a[0].seats[s].label for s in tables["seat"].index])
        tables["seat"].insert(1, "label_b", [side_b[0].seats[s].label for s in tables["seat"].index])
    else:
        tables["seat_advantage_a"] = seat_advantage(a)
        tables["seat_advantage_b"] = seat_advantage(b)
    if looks:
        tables["looks"] = pd.DataFrame(looks).set_index("look")
    tables = sort_tables("compare", tables)     # the findings list the strategies in the page's order
    findings = _findings(side_a[0].game, tables, looks, done, len(side_a), until_decided, target, rotate_seats,
                         seed_b is not None, thresholds)
    findings = first_lines(side_a[0].game, side_a[0].rules, side_b[0].rules, [a, b],
                           probe_strategies(game, players, seed, [*sets, *sets_b], rules),
                           defaults=side_a[0].game.default_rules) + _same_sides(side_a, side_b, seed_b) + findings
    setup = {"negligible": thresholds,
             "game": game, "players_a": [s.label for s in side_a[0].seats], "players_b": [s.label for s in side_b[0].seats],
             "sets": list(sets), "sets_b": list(sets_b), "rules": rules, "seed": seed, "seed_b": seed_b,
             "games_per_side": done * len(side_a), "deals": done, "rotate_seats": rotate_seats,
             "until_decided": until_decided, "target": target, "alpha": alpha}
    labels_a, labels_b = setup["players_a"], setup["players_b"]
    # same line-up, no rotation, one strategy per seat: the seat table repeats the strategy table
    repeats = not rotate_seats and labels_a == labels_b and len(set(labels_a)) == len(labels_a)
    result = Analysis("compare", f"{side_a[0].game.title}: B - A on common random numbers", game, tables, findings, setup,
                      players=n, details=("seat",) if repeats else ())
    if retune is not None:
        add_retuned(result, (side_a, side_b), (a, b), retune, retune_params, retune_budget, sets, sets_b, rules, seed,
                    done, thresholds, workers, storage, study_name)
    return result


def _findings(game, tables, looks, deals, orders, until_decided, target, rotate_seats, unpaired,
              thresholds=NEGLIGIBLE) -> list[str]:
    strategy = tables["strategy"]
    level = "95%" if not looks else f"{1 - looks[-1]['alpha_per_interval']:.4%} (sequential, union bound)"
    short = "95%" if not looks else "the sequential level"
    lines = [f"{games_played(deals, orders, per_side=True)}, A and B on the same deals (the tables' deals column); "
             f"intervals {level}; a tie counts as a win for every tied seat."]
    ratios = {metric: strategy[f"{metric}_var_reduction"].dropna() for metric in ("win", "score")}
    identical = len(strategy) > 0 and "swapped" not in tables and not unpaired and \
        (strategy[["win_diff", "score_diff"]] == 0).all().all()
    if identical:
        lines.append("Verdict: A and B gave identical results in every game: the difference is exactly zero.")
    lines += swapped_findings(tables.get("swapped"), rotate_seats, game, short)
    if not identical:
        changed = [label for label, row in strategy.iterrows() if row["win_low"] > 0 or row["win_high"] < 0]
        lines.append("Verdict: " + (f"B changes the win rate of {', '.join(changed)} (significant at {short})"
                                    if changed else f"no strategy's win rate differs significantly at {short}")
                     + (", pooling each strategy's seats." if len(strategy) else "."))
        for label, row in strategy.iterrows():
            lines.append(f"{label}: {change_text(row, game, short, thresholds)}.")
    if any(len(r) for r in ratios.values()) and not unpaired:
        # a metric whose paired difference is zero in every game has no ratio: say so rather than drop it
        parts = [f"{name} {r.min():.1f}x-{r.max():.1f}x" if len(r) else f"{name} identical in every game"
                 for name, r in (("win rate", ratios["win"]), ("mean score", ratios["score"]))]
        lines.append("Variance reduction of the paired design against unpaired sampling (measured on these games): "
                     + ", ".join(parts) + " (unpaired sampling would need that many times more games for the same "
                     "interval width).")
    if until_decided:
        last = looks[-1]
        state = ("every strategy decided" if last["decided"] == last["strategies"]
                 else f"{last['strategies'] - last['decided']} strategies undecided at the --games limit")
        lines.append(f"Stopped after {last['games_per_side']:,} games per side ({len(looks)} look{'s' if len(looks) > 1 else ''}): {state} "
                     f"(an interval excluding 0, or narrower than +-{target:g}).")
    return lines


def _play_looks(side_a, side_b, sizes, workers, until_decided, alpha, target, keep="core"):
    """Play both sides up to each of ``sizes`` deals in turn (all of them at once without until_decided),
    stopping once every strategy's difference is decided; returns (deals played, rows of A, rows of B,
    the strategy tables, the looks)."""
    frames_a, frames_b, looks = [], [], []
    done = 0
    for k, size in enumerate(sizes):
        frame_a, frame_b = play_many([side_a, side_b], done, size - done, workers, keep)
        frames_a.append(frame_a)
        frames_b.append(frame_b)
        done = size
        a, b = pd.concat(frames_a, ignore_index=True), pd.concat(frames_b, ignore_index=True)
        strategies = paired_tables(a, b, "strategy")
        if not until_decided:
            break
        level = alpha / 2 ** (k + 1) / max(len(strategies), 1)
        strategies = paired_tables(a, b, "strategy", z_for(level))
        win = strategies["win"]
        decided = (win["low"] > 0) | (win["high"] < 0) | (win["half_width"] <= target)
        looks.append({"look": k + 1, "deals": size, "games_per_side": size * len(side_a), "alpha_per_interval": level,
                      "decided": int(decided.sum()), "strategies": len(win)})
        if decided.all():
            break
    return done, a, b, strategies, looks
