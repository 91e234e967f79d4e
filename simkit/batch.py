"""A batch: a game, its effective rules, a line-up, a seed and a number of games, validated before anything runs
(``make_batch``), and what a chunk of it plays. Below the runner and its executors (simkit.pool, simkit.distributed),
which rebuild a batch in a worker from its description."""
from __future__ import annotations

import platform
from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd
import pyarrow as pa

from .errors import SimkitError
from .games import Game, get_game
from .limits import MAX_GAMES, check_count
from .strategy import Seat, parse_lineup, recorded_spec
from .version import __version__


@dataclass(frozen=True)
class Batch:
    """A fully validated batch: the game, its effective rules, the line-up, the seed and the size."""

    game: Game
    rules: dict
    prepared: object
    seats: tuple[Seat, ...]
    seed: int
    games: int
    first_game: int = 0     # index of the batch's first game: later batches of a growing run continue the seeds
    rotate_seats: bool = False  # game g plays deal g // n with the line-up turned g mod n seats (``rotate``)

    def play(self, first_game: int, n_games: int, check: bool = False) -> dict:
        if self.rotate_seats:
            return self._play_rotated(first_game, n_games, check)
        return self.game.simulate(self.prepared, list(self.seats), self.seed, first_game, n_games, check)

    def _play_rotated(self, first_game: int, n_games: int, check: bool) -> dict:
        """Games ``first_game ..`` of a rotated batch: one engine call per rotation over its contiguous run of
        deals (each deal's streams come from (seed, deal), as in compare), rows put back in game order."""
        n = len(self.seats)
        games = np.arange(first_game, first_game + n_games, dtype=np.int64)
        calls, start, played = [], np.zeros(n, np.int64), 0
        for r in range(n):
            first_deal = -(-(first_game - r) // n)
            deals = (first_game + n_games - 1 - r) // n - first_deal + 1
            if deals > 0:
                calls.append(self.game.simulate(self.prepared, rotate(self.seats, r), self.seed, first_deal, deals,
                                                check))
                start[r], played = played - first_deal, played + deals
        block = start[games % n] + games // n      # each game's place among the games the calls played
        rows = (block[:, None] * n + np.arange(n)).reshape(-1)
        merged = {name: np.concatenate([columns[name] for columns in calls])[rows] for name in calls[0]
                  if not name.startswith("_")}
        merged["game"] = np.repeat(games, n)
        totals = [columns["_totals"] for columns in calls if "_totals" in columns]
        if totals:
            merged["_totals"] = {name: sum(np.asarray(part[name]) for part in totals) for name in totals[0]}
        return merged

    def totals(self, parts) -> dict:
        """Sum the per-chunk totals a game reports (``columns["_totals"]``, e.g. landings per square)."""
        summed = {}
        for part in parts:
            for name, values in part.items():
                summed[name] = summed.get(name, 0) + np.asarray(values)
        return {name: values.tolist() for name, values in summed.items()}

    def table(self, columns: dict) -> pa.Table:
        """Arrow table of one chunk, with the strategy label of each row's seat."""
        labels = list(dict.fromkeys(seat.label for seat in self.seats))
        n = len(self.seats)
        code = np.array([[labels.index(seat.label) for seat in rotate(self.seats, r)]
                         for r in range(n if self.rotate_seats else 1)], np.int32)     # [rotation, seat]
        data = {k: v for k, v in columns.items() if not k.startswith("_")}
        rotation = data["game"] % n if self.rotate_seats else 0
        strategy = pa.DictionaryArray.from_arrays(pa.array(code[rotation, data["seat"]]), pa.array(labels))
        data = {"game": data.pop("game"), "seat": data.pop("seat"), "strategy": strategy, **data}
        return pa.table(data)

    def manifest(self) -> dict:
        return {
            "game": self.game.name,
            "title": self.game.title,
            "players": len(self.seats),
            "official_player_count": len(self.seats) in self.game.player_counts,
            "lineup": [{"seat": i, "label": s.label, "strategy": s.strategy.name, "params": s.values,
                        "module": s.strategy.module}
                       for i, s in enumerate(self.seats)],
            "seed": self.seed,
            "games": self.games,
            "rotate_seats": self.rotate_seats,
            "rules": self.rules,
            "score_column": self.game.score_column,
            "labels": self.game.total_labels(self.prepared),
            "versions": {"simkit": __version__, "numba": numba.__version__, "numpy": np.__version__,
                         "pandas": pd.__version__, "pyarrow": pa.__version__, "python": platform.python_version()},
        }


def rotate(items, r: int) -> list:
    """The line-up with entry i moved to seat (i + r) mod n (rotation r of ``--rotate-seats``)."""
    n = len(items)
    return [items[(seat - r) % n] for seat in range(n)]


def make_batch(game: str, games: int, players=None, seed: int = 0, rules_file=None, sets=(),
               rules: dict | None = None, rotate_seats: bool = False) -> Batch:
    """Validate everything a batch needs before anything runs or is written. ``rotate_seats``: game g plays
    deal g // n under rotation g mod n (``rotate``), so every entry of the line-up plays every seat equally
    often on the same deals; ``games`` is then rounded up to a whole number of deals (a multiple of n)."""
    spec = get_game(game)
    games = check_count(games, "--games", 1, MAX_GAMES)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 64:
        raise SimkitError(f"--seed must be a whole number 0..2**64-1, not {seed!r}")
    effective = spec.rules(rules_file, sets, rules)     # first: bad rules fail before strategies compile
    seats = parse_lineup(spec.name, players if players else list(spec.default_lineup))
    spec.check_player_count(len(seats))
    prepared = spec.prepare(effective, len(seats))
    if rotate_seats:
        games = check_count(-(-games // len(seats)) * len(seats), "--games (rounded up to a multiple of the players)",
                            1, MAX_GAMES)
    return Batch(spec, effective, prepared, tuple(seats), int(seed), int(games), rotate_seats=bool(rotate_seats))


def batch_from_manifest(manifest: dict, games: int | None = None) -> Batch:
    """The batch a run directory's manifest describes (its games again, or the first ``games`` of them), for
    plots that re-play a sample of a run. A user strategy is found again as ``module:name``."""
    players = [recorded_spec(manifest["game"], seat, every_value=True) for seat in manifest["lineup"]]
    return make_batch(manifest["game"], games or manifest["games"], players, manifest["seed"], rules=manifest["rules"],
                      rotate_seats=manifest.get("rotate_seats", False))
