"""The space a rule search (``simkit.analysis.design``) explores and how every evaluation is played: the varied
rule values (``--vary``), who plays (a line-up or a population's profiles) and the plan that plays rule sets on
shared deals and judges their goals and constraints."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

from ..errors import SimkitError
from ..rules import parse_assignment, rule_value, with_values
from ..runner import Batch
from ..strategy import Seat, parse_lineup
from .goals import DealSums, evaluate_expression, interval
from .metagame import profiles
from .play import Job, play_jobs, rotate
from .search import Dimension, assignments, parse_range

# card facts shown for every trial, and their column names (a win or share column reads as a percentage)
QUICK_FIELDS = {"first_seat": "first_seat_win_advantage", "seat_advantage": "largest_win_advantage",
                "length": "median_length", "limit": "limit_share", "spread": "win_spread"}


# -- what is varied -------------------------------------------------------------------------------------------
def _label(value) -> str:
    return json.dumps(value, separators=(",", ":")) if not isinstance(value, str) else value


def parse_vary(items, rules: dict, check) -> tuple[list[Dimension], dict]:
    """Dimensions from ``KEY=LO:HI[:int|:log]`` or ``KEY=V1|V2|...`` (values read as TOML: numbers, strings,
    arrays such as ``[9,12,3,3]``), each key a rule value of ``rules`` (dotted, array entries by index or
    name). A range needs a numeric rule (an integer rule gives whole values); each end, and each choice, must
    be a value the game accepts (``check(rules)`` raises otherwise). Returns the dimensions and, per
    dimension, its choice labels' values."""
    items = [items] if isinstance(items, str) else list(items or [])
    if not items:
        raise SimkitError("design needs at least one --vary KEY=LO:HI[:int|:log] (or KEY=V1|V2|...); "
                          "`simkit rules GAME --options` lists the rule keys")
    dims, values = [], {}
    for key, spec, where in assignments(items, "--vary", "KEY=LO:HI[:int|:log] or KEY=V1|V2|..."):
        default = rule_value(rules, key, where)
        if isinstance(default, dict) or (isinstance(default, list) and default and isinstance(default[0], dict)):
            raise SimkitError(f"{where}: {key} is a table; vary one of its values (`simkit rules GAME --options`)")
        if "|" in spec:
            mapping = {}
            for raw in spec.split("|"):
                value = parse_assignment(f"{key}={raw}")[1]   # read as TOML, else a bare string (as --set)
                value = _typed(default, value, where)
                mapping.setdefault(value if _is_number(value) else _label(value), value)
            if len(mapping) < 2:
                raise SimkitError(f"{where}: a choice needs at least two different values")
            for value in mapping.values():
                _check_value(check, rules, key, value, where)
            labels = tuple(mapping)
            numeric = all(_is_number(v) for v in labels)
            dims.append(Dimension(key, float(min(labels)) if numeric else 0.0,
                                  float(max(labels)) if numeric else float(len(labels) - 1), "choice", labels))
            values[key] = mapping
            continue
        if not _is_number(default):
            kind = "true/false" if isinstance(default, bool) else f"{type(default).__name__} {default!r}"
            raise SimkitError(f"{where}: {key} is {kind}, not a number; a range needs a numeric rule (give "
                              f"choices instead: {key}=V1|V2|...)")
        low, high, scale = parse_range(spec, where, whole=isinstance(default, int), what=f"{key} (default {default})")
        for end in (low, high):
            _check_value(check, rules, key, _typed(default, end, where), where)
        dims.append(Dimension(key, low, high, scale))
    return dims, values


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _typed(default, value, where: str):
    """``value`` as the rule's own type: a whole number for an integer rule."""
    if isinstance(default, bool) or not _is_number(default) or not _is_number(value):
        return value
    if isinstance(default, int):
        if not float(value).is_integer():
            raise SimkitError(f"{where}: the rule takes whole numbers, not {value!r}")
        return int(value)
    return float(value)


def _check_value(check, rules: dict, key: str, value, where: str) -> None:
    try:
        check(with_values(rules, {key: value}))
    except SimkitError as exc:
        raise SimkitError(f"{where}: {key} = {_label(value)} is not allowed: {exc}") from None


# -- who plays --------------------------------------------------------------------------------------------------
def parse_population(population, game: str) -> list[tuple[Seat, float]]:
    """A mix of strategies: ``SPEC@SHARE,...`` (shares normalised; without ``@`` every strategy the same share),
    a dict {spec: share}, or a meta-game's results (its directory, analysis folder or equilibrium table): the
    equilibrium mix."""
    if isinstance(population, (str, Path)) and Path(str(population)).exists():
        return _equilibrium_mix(Path(str(population)), game)
    if isinstance(population, dict):
        entries = list(population.items())
    else:
        items = population.split(",") if isinstance(population, str) else population
        items = [str(p).strip() for p in items if str(p).strip()]
        entries = []
        for item in items:
            spec, at, share = str(item).rpartition("@") if "@" in str(item) else (str(item), "", "1")
            try:
                entries.append((spec.strip(), float(share)))
            except ValueError:
                raise SimkitError(f"--population {item}: the share after @ must be a number") from None
    if len(entries) < 1:
        raise SimkitError("--population is empty; give SPEC@SHARE,... or a meta-game's results directory")
    seats = parse_lineup(game, [spec for spec, _ in entries])
    shares = np.array([share for _, share in entries], float)
    if not np.all(np.isfinite(shares)) or (shares < 0).any() or shares.sum() <= 0:
        raise SimkitError("--population: shares must be numbers >= 0, not all 0")
    labels = [seat.label for seat in seats]
    if len(set(labels)) != len(labels):
        raise SimkitError(f"--population lists {sorted(x for x in labels if labels.count(x) > 1)[0]!r} twice")
    return [(seat, share) for seat, share in zip(seats, shares / shares.sum()) if share > 0]


def _equilibrium_mix(path: Path, game: str) -> list[tuple[Seat, float]]:
    candidates = [path] if path.is_file() else sorted(path.glob("equilibrium.parquet")) + sorted(
        path.glob("*-metagame/equilibrium.parquet"))
    if not candidates:
        raise SimkitError(f"--population {path}: no meta-game equilibrium there (equilibrium.parquet of a "
                          "`simkit metagame --out` directory)")
    table = pd.read_parquet(candidates[0]) if candidates[0].suffix == ".parquet" else pd.read_csv(candidates[0])
    if not {"strategy", "mix"} <= set(table.columns):
        raise SimkitError(f"--population {candidates[0]}: not a meta-game equilibrium table (needs strategy, mix)")
    return parse_population({row.strategy: row.mix for row in table.itertuples()}, game)


def _profiles(mix: list[tuple[Seat, float]], players: int, deals: int) -> list[tuple[list[Seat], int, int]]:
    """The line-ups a population plays: every multiset of ``players`` strategies of the mix, each with its
    multinomial share of ``deals`` (largest remainders, so the shares are exact to a deal), on consecutive
    game indices (first game, deals)."""
    shares = np.array([share for _, share in mix])
    rows = []
    for profile in profiles(len(mix), players):
        counts = np.bincount(profile, minlength=len(mix))
        probability = math.factorial(players) / math.prod(math.factorial(c) for c in counts) * \
            float(np.prod(shares ** counts))
        rows.append((profile, probability * deals))
    whole = [int(math.floor(x)) for _, x in rows]
    for i in sorted(range(len(rows)), key=lambda i: -(rows[i][1] - whole[i]))[: deals - sum(whole)]:
        whole[i] += 1
    out, first = [], 0
    for (profile, _), count in zip(rows, whole):
        if count:
            out.append(([mix[i][0] for i in profile], first, count))
            first += count
    return out


# -- the plan of every evaluation -------------------------------------------------------------------------------
@dataclass
class _Plan:
    spec: object
    dims: list
    choices: dict                 # dimension -> {label: rule value}
    rules: dict                   # the base rules (defaults, rules file, --set): what "default" means here
    lineup: tuple | None          # the seats, or None for a population
    mix: list | None              # the population (Seat, share), or None for a line-up
    labels: list
    players: int
    seed: int
    goals: list
    constraints: list
    sampler: str
    round_size: int
    trial_deals: int
    workers: int
    grid: dict | None = None      # every point of the space, when it is finite
    shares: frozenset = frozenset()   # result columns that are true/false: their means are shares
    negligible: dict | None = None    # --negligible thresholds (result.parse_negligible) that size the verdicts

    def values_of(self, params: dict) -> dict:
        """Rule values from an Optuna trial's parameters (choice labels mapped back, integers kept whole)."""
        out = {}
        for dim in self.dims:
            value = params[dim.name]
            if dim.scale == "choice":
                out[dim.name] = self.choices[dim.name][value]
            else:   # 4 significant figures: a finer difference is far below what any number of games tells apart
                value = min(max(float(f"{value:.4g}"), dim.low), dim.high)
                out[dim.name] = _typed(rule_value(self.rules, dim.name), value, f"--vary {dim.name}")
        return out

    def rules_for(self, values: dict) -> dict:
        return with_values(self.rules, values)

    def lineups_for(self, deals: int) -> list:
        """(seats, first game, games) of every line-up ``deals`` deals are split into."""
        if self.mix is None:
            return [(self.lineup, 0, deals)]
        return _profiles(self.mix, self.players, deals)

    def jobs(self, rule_sets: list[dict], seed: int, deals: int) -> tuple[list[Job], list[list[int]], list[str | None]]:
        """Jobs playing every rule set with every line-up on ``deals`` deals of ``seed``; per rule set, the
        indices of its jobs (none when the game refuses its rules: then its error)."""
        jobs, owned, errors = [], [], []
        for rules in rule_sets:
            try:
                prepared = self.spec.prepare(rules, self.players)
            except SimkitError as exc:
                owned.append([])
                errors.append(str(exc))
                continue
            mine = []
            for seats, first, count in self.lineups_for(deals):
                batch = Batch(self.spec, rules, prepared, tuple(seats), int(seed), 1)
                rotations = tuple(replace(batch, seats=tuple(rotate(list(seats), r))) for r in range(self.players))
                mine.append(len(jobs))
                jobs.append(Job(rotations, first, count, keep="all"))
            owned.append(mine)
            errors.append(None)
        return jobs, owned, errors

    def play(self, rule_sets: list[dict], seed: int, deals: int) -> tuple[list, list]:
        """Play every rule set on the same deals; per rule set its rows (None if refused) and error."""
        jobs, owned, errors = self.jobs(rule_sets, seed, deals)
        frames = play_jobs(jobs, self.workers) if jobs else []
        return [pd.concat([frames[j] for j in mine], ignore_index=True) if mine else None for mine in owned], errors

    def namespace(self, frame: pd.DataFrame, weights: np.ndarray) -> dict:
        """The card's fields of these games under each row of deal weights."""
        return DealSums(frame, self.spec, self.labels).fields(weights)

    def judge(self, namespace: dict) -> dict:
        """Every goal's and constraint's values (one per weight row: estimate, then resamples) and the quick
        fields' estimates."""
        goals = {g.column: evaluate_expression(g.expression, namespace, f"--goal {g.text}") for g in self.goals}
        constraints = {c.column: c.slack(evaluate_expression(c.expression, namespace, f"--constraint {c.text}"))
                       for c in self.constraints}
        quick = {k: float(namespace[k][0]) for k in QUICK_FIELDS if k in namespace}
        if self.spec.limit_hit is None:
            quick.pop("limit", None)
        if len(self.labels) < 2:
            quick.pop("spread", None)
        return {"goals": goals, "constraints": constraints, "quick": quick}


def _summary(judged: dict) -> dict:
    return {"goals": {k: interval(v) for k, v in judged["goals"].items()},
            "constraints": {k: interval(v) for k, v in judged["constraints"].items()}, "quick": judged["quick"]}


def _feasible(summary: dict) -> bool:
    return all(value <= 0 for value, _, _ in summary["constraints"].values())


def _violation(summary: dict) -> float:
    return sum(max(value, 0.0) for value, _, _ in summary["constraints"].values())

