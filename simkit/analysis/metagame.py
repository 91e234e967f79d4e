"""The meta-game: which mix of strategies would experienced players settle on, and how often does each win there.

Empirical game-theoretic analysis. Every multiset of ``players`` strategies from the list (a *profile*: who
sits at the table, not where) is played under every seat rotation on the same deals (common random numbers),
giving the heuristic payoff table: for each profile and each strategy in it, the mean payoff of one of its
seats. The payoff is the seat's share of the win (1 for a sole winner, 1/k for each of k tied winners), so
the payoffs of a game sum to one and the meta-game is symmetric and constant-sum.

If every player picks a strategy independently from a mix x, a seat playing strategy i faces n - 1 opponents
whose strategies are a multinomial draw from x, so its expected payoff u_i(x) is the table's entry for each
opponent multiset weighted by its multinomial probability. The symmetric equilibrium is found by replicator
dynamics (dx_i/dt = x_i (u_i(x) - x.u(x))), integrated from the uniform mix in log coordinates. When the
dynamics settle, the rest point is reported; when they cycle (as in rock-paper-scissors, where the orbits
of a constant-sum game circle the equilibrium), the time average of the orbit is, which converges to the
equilibrium in that case. The Nash gap (the most one player could gain by switching to a single strategy)
says how close to an equilibrium the reported mix is.

Uncertainty: a bootstrap over deals. Each resample draws deals with replacement, the same deals for every
profile (the profiles were played on the same deals, so this keeps their pairing), and solves again.
"""
from __future__ import annotations

import math
from dataclasses import replace
from itertools import combinations_with_replacement

import numpy as np
import pandas as pd
from numba import njit

from ..errors import SimkitError
from ..games import get_game
from ..runner import make_batch
from ..strategy import parse_lineup
from . import psro
from .activity import first_lines, probe_strategies
from .exploitability import win_share
from .play import Job, deals_for, play_jobs, rotate
from .result import Analysis

BOOTSTRAP = 200
STEPS = 20_000      # RK4 steps of the replicator dynamics (time in units of the payoff table's range)
DT = 0.5
SUPPORT = 1e-3      # a strategy played with less than this share is reported as outside the support


def profiles(n_strategies: int, players: int) -> list[tuple[int, ...]]:
    """Every multiset of ``players`` strategy indices, as sorted tuples (the heuristic payoff table's rows)."""
    return list(combinations_with_replacement(range(n_strategies), players))


def _compositions(total: int, parts: int):
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


class SymmetricGame:
    """The expected payoffs u(x) of a symmetric n-player game given by its heuristic payoff table.

    table[p, i]: the mean payoff of a seat playing strategy i in profile p (any value where i is absent)."""

    def __init__(self, table: np.ndarray, profile_list: list[tuple[int, ...]], n_strategies: int, players: int):
        self.n_strategies, self.players = n_strategies, players
        index = {profile: p for p, profile in enumerate(profile_list)}
        opponents = list(_compositions(players - 1, n_strategies))
        self.counts = np.array(opponents, np.int64)
        self.coef = np.array([math.factorial(players - 1) / math.prod(math.factorial(c) for c in m) for m in opponents])
        self.rows = np.empty((len(opponents), n_strategies), np.int64)   # profile of (opponents + one seat of i)
        for k, m in enumerate(opponents):
            for i in range(n_strategies):
                members = [j for j in range(n_strategies) for _ in range(m[j] + (j == i))]
                self.rows[k, i] = index[tuple(members)]
        self.set_table(table)

    def set_table(self, table: np.ndarray) -> None:
        self.table = np.asarray(table, float)
        self.values = self.table[self.rows, np.arange(self.n_strategies)[None, :]]

    def payoffs(self, x) -> np.ndarray:
        """u_i(x) for every strategy i."""
        out = np.zeros(self.n_strategies)
        _payoffs(np.asarray(x, float), self.counts, self.coef, self.values, out)
        return out

    def gap(self, x) -> float:
        """The Nash gap: max_i u_i(x) - x.u(x) (0 at a symmetric equilibrium)."""
        u = self.payoffs(x)
        return float(u.max() - np.dot(x, u))

    def replicator(self, steps: int = STEPS, dt: float = DT, start=None, keep: int = 0):
        """Integrate the replicator dynamics from ``start`` (default: the uniform mix). Returns (mix, settled,
        path): the rest point if the dynamics settled, else the time average of the second half; ``path``
        holds ``keep`` points of the trajectory."""
        scale = np.nanmax(self.values) - np.nanmin(self.values)
        scale = scale if scale > 0 else 1.0
        x0 = np.full(self.n_strategies, 1 / self.n_strategies) if start is None else np.asarray(start, float)
        path = np.zeros((max(keep, 1), self.n_strategies))
        final, average, speed = _replicator(np.log(np.maximum(x0, 1e-300)), self.counts, self.coef,
                                            self.values / scale, steps, dt, path, keep)
        settled = speed < 1e-6
        return (final if settled else average), settled, path[:keep]


@njit(cache=True)
def _payoffs(x, counts, coef, values, out):
    out[:] = 0.0
    for k in range(counts.shape[0]):
        weight = coef[k]
        for j in range(counts.shape[1]):
            if counts[k, j] > 0:
                weight *= x[j] ** counts[k, j]
        for i in range(counts.shape[1]):
            out[i] += weight * values[k, i]


@njit(cache=True)
def _softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


@njit(cache=True)
def _replicator(z, counts, coef, values, steps, dt, path, keep):
    """RK4 on z' = u(softmax(z)) (the replicator dynamics in log coordinates: a common shift of z is
    irrelevant, so ū need not be subtracted). Returns (final mix, time average of the second half, speed)."""
    s = z.shape[0]
    u1, u2, u3, u4 = np.zeros(s), np.zeros(s), np.zeros(s), np.zeros(s)
    average = np.zeros(s)
    every = max(1, steps // max(keep, 1))
    for step in range(steps):
        _payoffs(_softmax(z), counts, coef, values, u1)
        _payoffs(_softmax(z + 0.5 * dt * u1), counts, coef, values, u2)
        _payoffs(_softmax(z + 0.5 * dt * u2), counts, coef, values, u3)
        _payoffs(_softmax(z + dt * u3), counts, coef, values, u4)
        z = z + dt / 6.0 * (u1 + 2.0 * u2 + 2.0 * u3 + u4)
        z = z - z.max()
        x = _softmax(z)
        if step >= steps // 2:
            average += x
        if keep > 0 and step % every == 0 and step // every < keep:
            path[step // every] = x
        if step % 500 == 499 and _speed(x, counts, coef, values, u1) < 1e-9:   # settled: stop early
            for rest in range(step // every + 1, keep):
                path[rest] = x
            break
    x = _softmax(z)
    return x, average / max(1, min(step + 1, steps) - steps // 2), _speed(x, counts, coef, values, u1)


@njit(cache=True)
def _speed(x, counts, coef, values, work):
    """The largest |dx_i/dt| of the replicator dynamics at x."""
    _payoffs(x, counts, coef, values, work)
    mean = (x * work).sum()
    speed = 0.0
    for i in range(x.shape[0]):
        speed = max(speed, x[i] * abs(work[i] - mean))
    return speed


def _profile_name(profile, names) -> str:
    counts = pd.Series([names[i] for i in profile]).value_counts(sort=False)
    return " + ".join(f"{c}x {name}" if c > 1 else name for name, c in counts.items())


def metagame(game: str, strategies, players: int | None = None, games: int = 100_000, seed: int = 0, sets=(),
             rules=None, workers: int = 1, bootstrap: int = BOOTSTRAP, grow: int = 0, screen_games: int = 2_000,
             confirm_games: int = 8_000, tune_budget="24") -> Analysis:
    """Play every multiset of ``players`` of ``strategies`` (specs, comma-separated or a list) under every seat
    rotation on common deals, and find the symmetric equilibrium mix of the meta-game by replicator
    dynamics, with a bootstrap over deals. games: games in all, split evenly over the profiles and rotations.
    Tables: equilibrium (mix and each strategy's win share there, with 95% bootstrap intervals), payoffs
    (the heuristic payoff table), path (the dynamics from the uniform mix) and bootstrap (the resampled mixes).

    grow: that many iterations of policy-space response oracles (``simkit.analysis.psro``), each adding the
    best reply to the mix found among the shipped strategies and the best responses tuned against the mix
    (``tune_budget`` each family; None: no tuning), with every mix's exploitability bound (``screen_games``
    per oracle, ``confirm_games`` for the best); ``games`` is then per solve."""
    if grow:
        return psro.grow(metagame, game, strategies, grow, players, games, seed, sets, rules, workers, bootstrap,
                         screen_games, confirm_games, tune_budget)
    spec = get_game(game)
    seats = parse_lineup(spec.name, strategies)
    names = [seat.label for seat in seats]
    if len(set(names)) != len(names):
        raise SimkitError(f"--strategies lists {sorted(n for n in names if names.count(n) > 1)[0]!r} twice; give each once")
    if len(seats) < 2:
        raise SimkitError("--strategies needs at least two strategies for a meta-game")
    n = players or len(spec.default_lineup)
    spec.check_player_count(n)
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise SimkitError(f"--bootstrap must be a whole number of at least 0, not {bootstrap!r}")
    deals_for(games, 1, False)
    profile_list = profiles(len(seats), n)
    deals = max(2, math.ceil(games / (len(profile_list) * n)))
    rules_file, overrides = (rules, None) if isinstance(rules, str) else (None, rules)
    base = make_batch(spec.name, 1, [seats[i] for i in profile_list[0]], seed, rules_file, list(sets), overrides)
    jobs = []
    for profile in profile_list:
        lineup = [seats[i] for i in profile]
        jobs.append(Job(tuple(replace(base, seats=tuple(rotate(lineup, r))) for r in range(n)), 0, deals))
    frames = play_jobs(jobs, workers)
    per_deal = np.full((len(profile_list), deals, len(seats)), np.nan)   # [profile, deal, strategy]: win share
    for p, (profile, frame) in enumerate(zip(profile_list, frames)):
        share = win_share(frame)
        strategy = np.array(profile)[frame["entry"].to_numpy()]
        means = pd.DataFrame({"game": frame["game"].to_numpy(), "strategy": strategy, "share": share}) \
            .groupby(["game", "strategy"])["share"].mean().unstack("strategy")
        per_deal[p][:, means.columns.to_numpy()] = means.sort_index().to_numpy()
    table = np.nan_to_num(per_deal.mean(axis=1))
    solver = SymmetricGame(table, profile_list, len(seats), n)
    mix, settled, path = solver.replicator(keep=400)
    payoff = solver.payoffs(mix)
    rng = np.random.default_rng(seed)
    samples_mix, samples_payoff = [], []
    for _ in range(bootstrap):
        picked = rng.integers(0, deals, deals)
        solver.set_table(np.nan_to_num(per_deal[:, picked].mean(axis=1)))
        sample, _, _ = solver.replicator()
        samples_mix.append(sample)
        samples_payoff.append(solver.payoffs(sample))
    solver.set_table(table)
    tables = {"equilibrium": _equilibrium_table(names, mix, payoff, samples_mix, samples_payoff)}
    tables["payoffs"] = pd.DataFrame(
        [{"profile": _profile_name(profile, names), **{f"n_{name}": profile.count(i) for i, name in enumerate(names)},
          **{name: (table[p, i] if i in profile else np.nan) for i, name in enumerate(names)}, "deals": deals}
         for p, profile in enumerate(profile_list)]).set_index("profile")
    tables["path"] = pd.DataFrame(path, columns=names).rename_axis("point")
    tables["bootstrap"] = pd.DataFrame(_tidy(np.array(samples_mix).reshape(-1, len(names))),
                                       columns=names).rename_axis("sample")
    findings = _findings(names, n, profile_list, deals, tables["equilibrium"], settled, solver.gap(mix), bootstrap)
    findings = first_lines(spec, spec.default_rules, base.rules, frames,
                           probe_strategies(spec.name, list(base.seats), seed, sets, rules)) + findings
    setup = {"game": spec.name, "strategies": names, "players": n, "profiles": len(profile_list), "deals": deals,
             "games": deals * n * len(profile_list), "seed": seed, "sets": list(sets), "rules": rules,
             "bootstrap": bootstrap, "settled": bool(settled), "payoff": "share of the win (ties split)"}
    return Analysis("metagame", f"{spec.title}: meta-game of {len(names)} strategies, {n} players", spec.name, tables,
                    findings, setup, players=n, details=("payoffs", "path", "bootstrap"))


def _tidy(mix) -> np.ndarray:
    """Shares below 1e-9 (the dynamics approach a face of the simplex without reaching it) read as 0."""
    return np.where(np.asarray(mix) < 1e-9, 0.0, mix)


def _equilibrium_table(names, mix, payoff, samples_mix, samples_payoff) -> pd.DataFrame:
    mix, samples_mix = _tidy(mix), [_tidy(sample) for sample in samples_mix]
    table = pd.DataFrame({"mix": mix, "win_share": payoff}, index=pd.Index(names, name="strategy"))
    for column, samples in (("mix", samples_mix), ("win_share", samples_payoff)):
        if len(samples):
            low, high = np.percentile(np.array(samples), [2.5, 97.5], axis=0)
        else:
            low = high = np.full(len(names), np.nan)
        table[f"{column}_low"], table[f"{column}_high"] = low, high
    table["in_support"] = table["mix"] >= SUPPORT
    if len(samples_mix):
        table["support_share"] = (np.array(samples_mix) >= SUPPORT).mean(axis=0)
    return table[["mix", "mix_low", "mix_high", "win_share", "win_share_low", "win_share_high", "in_support",
                  *(["support_share"] if len(samples_mix) else [])]]


def _findings(names, n, profile_list, deals, table, settled, gap, bootstrap) -> list[str]:
    support = table[table["in_support"]].sort_values("mix", ascending=False)
    outside = table[~table["in_support"]]
    mix_text = ", ".join(f"{name} {row['mix']:.1%} [{row['mix_low']:.1%}, {row['mix_high']:.1%}]"
                         for name, row in support.iterrows())
    how = ("the rest point of the replicator dynamics from the uniform mix" if settled else
           "the time average of the replicator dynamics, which cycle rather than settle")
    lines = [
        f"{len(profile_list)} profiles (every multiset of {n} of the {len(names)} strategies) x {n} seat rotations x "
        f"{deals:,} deals = {len(profile_list) * n * deals:,} games, every profile on the same deals. Payoff: a seat's "
        "share of the win (a tie is split between the tied seats), so the payoffs of a game sum to one.",
        f"Equilibrium mix ({how}): {mix_text}" + (f"; not played: {', '.join(outside.index)}" if len(outside) else "") + ".",
        "Win share at the equilibrium (a seat of each strategy, the others drawn from the mix): "
        + ", ".join(f"{name} {row['win_share']:.1%} [{row['win_share_low']:.1%}, {row['win_share_high']:.1%}]"
                    for name, row in table.sort_values("win_share", ascending=False).iterrows())
        + f" (the strategies played there win about 1/{n} = {1 / n:.1%} each, as at any equilibrium; those outside "
          "it win less, which is why they are not played).",
        f"Nash gap (the most one player could gain by switching to a single strategy): {gap * 100:.2f} points of win share.",
    ]
    if bootstrap:
        lines.append(f"Intervals: 2.5-97.5% of {bootstrap} bootstrap resamples of the deals (the same resample for "
                     "every profile, which keeps the pairing of the profiles). Played at the resampled equilibria: "
                     + ", ".join(f"{name} in {share:.0%}" for name, share in
                                 table["support_share"].sort_values(ascending=False).items())
                     + " of resamples" + (" (more than one equilibrium candidate: the data cannot yet tell them apart)"
                                          if ((table["support_share"] > 0.1) & (table["support_share"] < 0.9)).any()
                                          else "") + ".")
    return lines
