"""Growing the meta-game by policy-space response oracles (PSRO): solve, find what beats the solution, add it,
solve again.

Each iteration solves the meta-game of the current strategies (``simkit.analysis.metagame``: every profile in
every seat order on common deals, replicator dynamics) and measures the equilibrium mix's exploitability
bound (``simkit.analysis.exploitability``): every shipped strategy of the game, every strategy of the
meta-game and, with a tuning budget, a best response tuned against the mix in every tunable family (the
oracles) try one seat against n - 1 seats drawn from the mix; the best is confirmed on fresh seeds. The
best oracle that is not in the meta-game yet and gains against the mix significantly in the screening (its
gain 1.96 standard errors above 0) joins it, and the next iteration solves again. The growth stops early when
no outside oracle does. When the confirmed best deviator is one of the meta-game's own strategies and gains,
the solve's payoff table was too noisy to find the equilibrium (the findings say so: more games per solve).

A tuner plays a fixed field, so it is tuned against the mix rounded to n - 1 seats (largest remainders); what
it found is then measured against the exact mix like every other oracle.
"""
from __future__ import annotations

import math

import pandas as pd

from .. import progress
from ..errors import SimkitError
from ..runner import make_batch
from ..strategy import parse_lineup
from .exploitability import Target, bound_text, bounds, method_text, shipped_seats, tune_budget_of
from .play import deals_for
from .search import derived_seed
from .stats import Z95


def grow(solve, game: str, strategies, rounds: int, players: int | None = None, games: int = 100_000, seed: int = 0,
         sets=(), rules=None, workers: int = 1, bootstrap: int = 200, screen_games: int = 2_000,
         confirm_games: int = 8_000, tune_budget="24"):
    """``rounds`` iterations of PSRO from ``strategies``; returns the last meta-game's Analysis with a table
    ``growth`` (per iteration: the strategies, the mix, its exploitability bound with its interval and the
    deviator that reached it, the strategy added) and ``oracles`` (every oracle's screened gain per iteration).
    solve: the meta-game solver, ``simkit.analysis.metagame.metagame`` (which calls this with itself: the
    meta-game module is the one above this one); games: games per meta-game solve; bootstrap: resamples of
    each solve's deals for its intervals."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise SimkitError(f"--grow must be a whole number of at least 1, not {rounds!r}")
    tune_budget = tune_budget_of(tune_budget)
    pool = parse_lineup(game, strategies)
    rules_file, overrides = (rules, None) if isinstance(rules, str) else (None, rules)
    rows, screened = [], []
    for iteration in range(rounds + 1):
        with progress.label(f"iteration {iteration}: meta-game of {len(pool)} strategies"):
            solved = solve(game, pool, players, games, seed, sets, rules, workers, bootstrap)
        n = solved.setup["players"]
        screen_deals, confirm_deals = deals_for(screen_games, n, True), deals_for(confirm_games, n, True)
        mix = solved.tables["equilibrium"]["mix"]
        target = Target("equilibrium mix", tuple(pool), tuple(float(mix[s.label]) for s in pool))
        base = make_batch(solved.game, 1, [pool[0]] * n, seed, rules_file, list(sets), overrides)
        found, screening, seats = bounds(solved.game, base, [target], shipped_seats(solved.game), screen_deals,
                                         confirm_deals, derived_seed(seed, "grow", iteration), workers, tune_budget,
                                         sets, rules)
        bound = found.iloc[0]
        gains = screening.loc[target.label].sort_values("gain_share", ascending=False)
        # a strategy joins only on a significant screened gain: each one added multiplies the profiles the next
        # solve spreads its games over, and one that gains by luck only dilutes them
        outside = [label for label, row in gains.iterrows()
                   if label not in {s.label for s in pool} and row["gain_share"] - Z95 * row["se"] > 0]
        added = outside[0] if outside and iteration < rounds else ""
        rows.append({"iteration": iteration, "strategies": len(pool), "mix": _mix_text(mix),
                     "deviator_in_game": bound["deviator"] in {s.label for s in pool},
                     "exploitability_share": bound["exploitability"], "exploitability_share_low": bound["low"],
                     "exploitability_share_high": bound["high"], "deviator": bound["deviator"],
                     "confirmed_gain_share": bound["confirmed"], "confirmed_se": bound["confirmed_se"], "added": added})
        screened.append(screening.loc[target.label].assign(iteration=iteration).reset_index())
        if not added:
            break
        pool.append(seats[added])
    growth = pd.DataFrame(rows).set_index("iteration")
    solved.tables["growth"] = growth.drop(columns="confirmed_se")
    solved.tables["oracles"] = pd.concat(screened, ignore_index=True).set_index(["iteration", "deviator"])
    solved.details = (*solved.details, "oracles")
    solved.findings += _findings(growth, n, screen_deals * n, confirm_deals * n, tune_budget, rounds)
    solved.title = solved.title.replace("meta-game of", "meta-game grown (PSRO) to")
    solved.setup.update(grow=rounds, start=[s.label for s in parse_lineup(game, strategies)],
                        screen_games=screen_deals * n, confirm_games=confirm_deals * n, tune_budget=tune_budget)
    return solved


def _mix_text(mix: pd.Series) -> str:
    return ", ".join(f"{label} {share:.0%}" for label, share in mix.sort_values(ascending=False).items()
                     if share >= 0.005)


def _findings(growth: pd.DataFrame, n: int, screen_games: int, confirm_games: int, tune_budget, rounds: int) -> list[str]:
    lines = [f"Grown by policy-space response oracles: {len(growth) - 1} of {rounds} iteration(s) added a strategy"
             + ("" if len(growth) - 1 == rounds else " (then no oracle outside the meta-game gained significantly against "
                                                     "its mix)")
             + ". " + method_text(n, screen_games, confirm_games, tune_budget is not None).replace(
                 "the target itself", "the meta-game's strategies")]
    for iteration, row in growth.iterrows():
        lines.append(f"Iteration {iteration} ({row['strategies']} strategies): mix {row['mix']}; exploitability bound "
                     f"{bound_text(row)} by {row['deviator']}" + (f"; added {row['added']}." if row["added"] else "."))
    noisy = growth[growth["deviator_in_game"] & (growth["exploitability_share_low"] > 0)]
    if len(noisy):
        lines.append(f"At iteration{'s' * (len(noisy) > 1)} {', '.join(map(str, noisy.index))} a strategy of the meta-game "
                     "itself gains against the mix on fresh seeds: that solve's payoff table was too noisy to find the "
                     "equilibrium; more --games per solve sharpen it.")
    first, final = growth.iloc[0], growth.iloc[-1]
    if len(growth) > 1:
        # the iterations' confirmations ran on independent seeds: the difference's s.e. adds in quadrature
        half = Z95 * math.hypot(first["confirmed_se"], final["confirmed_se"])
        change = final["confirmed_gain_share"] - first["confirmed_gain_share"]
        lines.append(f"From the first mix to the last, the best deviator's confirmed gain changed by {change * 100:+.1f} "
                     f"points [{(change - half) * 100:+.1f}, {(change + half) * 100:+.1f}] (independent fresh seeds)"
                     + (": the last mix is less exploitable, significant at 95%." if change + half < 0 else
                        ": the last mix is not shown less exploitable."))
    return lines

