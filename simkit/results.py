"""Results on disk: loading a run directory and streaming summaries (pandas lives here, not in kernels)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from .errors import SimkitError
from .integrity import REMEDY, check_folder, read_part
from .limits import MAX_MANIFEST_BYTES
from .runner import MANIFEST
from .stats import mean_interval, wilson
from .storage import inside, parse_json, read_inside


def read_manifest(directory: str | Path, verify: bool = True) -> dict:
    """A results folder's manifest.json (bounded in size and depth, a plain file inside the folder). A run's
    manifest is checked against the folder (its checksum, its parts' names and sizes: simkit.integrity), so
    a damaged run is refused in one line; an analysis results folder's may name only folders inside it."""
    directory = Path(directory)
    path = directory / MANIFEST
    if not path.is_file():
        raise SimkitError(f"{directory} is not a simkit run directory (no {MANIFEST})")
    manifest = parse_json(read_inside(path, MAX_MANIFEST_BYTES, "results"), str(path))
    if not isinstance(manifest, dict):
        raise SimkitError(f"{path} is not a simkit manifest (not a JSON object)")
    if verify and "game" in manifest:
        check_folder(directory, manifest)
    for entry in manifest.get("analyses", []) if isinstance(manifest.get("analyses"), list) else []:
        if isinstance(entry, dict) and "folder" in entry:
            inside(directory, entry["folder"], str(path))
    return manifest


def totals(source) -> dict[str, pd.Series]:
    """Batch-wide totals a game reports besides its rows (e.g. ``landings`` per square for Wheeler-Dealer),
    from a run directory or a DataFrame of ``simkit.run``; indexed by the game's names where it has them."""
    manifest = source.attrs.get("manifest", {}) if isinstance(source, pd.DataFrame) else read_manifest(source)
    labels = manifest.get("labels", {})
    return {name: pd.Series(values, index=labels.get(name), name=name)
            for name, values in manifest.get("totals", {}).items()}


def parts(directory: str | Path) -> list[Path]:
    """The Parquet parts of a run, in order, as its manifest lists them (checked against the folder)."""
    return [Path(directory) / entry["file"] for entry in read_manifest(directory)["parts"]]


def _read_parts(directory: str | Path, manifest: dict, columns: list[str] | None):
    """Each part's rows, its bytes checked against the manifest as they are read (one read per part)."""
    for entry in manifest["parts"]:
        data = read_part(directory, entry)
        try:
            table = pq.read_table(pa.BufferReader(data), columns=columns)
        except (pa.ArrowException, KeyError) as exc:
            raise SimkitError(f"{directory}/{entry['file']} cannot be read: {' '.join(str(exc).split())}") from None
        if table.num_rows != entry["rows"]:
            raise SimkitError(f"{directory} is damaged: {entry['file']} holds {table.num_rows} rows, not "
                              f"{entry['rows']}; {REMEDY}")
        yield table.to_pandas()


def load(directory: str | Path, columns: list[str] | None = None) -> pd.DataFrame:
    """A run's rows as a DataFrame, one per (game, seat), ordered; ``df.attrs['manifest']`` says what made it."""
    manifest = read_manifest(directory)
    frames = list(_read_parts(directory, manifest, columns))
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)
    frame.attrs["manifest"] = manifest
    return frame


def iter_parts(directory: str | Path, columns: list[str]):
    """Yield one chunk's DataFrame at a time, so summaries never hold a whole run in memory."""
    yield from _read_parts(directory, read_manifest(directory), columns)


def _accumulate(frames, score: str) -> dict[str, pd.DataFrame]:
    sums = {"strategy": None, "seat": None}
    for frame in frames:
        frame = frame.assign(score_sq=frame[score].astype(float) ** 2, wins=frame["winner"].astype(int),
                             score=frame[score].astype(float))
        for key in sums:
            part = frame.groupby(key, observed=True)[["wins", "score", "score_sq"]].agg("sum")
            part["n"] = frame.groupby(key, observed=True).size()
            sums[key] = part if sums[key] is None else sums[key].add(part, fill_value=0)
    return sums


def summarize(source, score: str | None = None) -> dict[str, pd.DataFrame]:
    """Win rate (Wilson 95% CI) and mean score (95% CI) per strategy and per seat.

    ``source`` is a run directory (read part by part) or a DataFrame from ``simkit.run``. Ties count as a
    win for every tied seat, so win rates of a game's seats can sum to more than 1.
    """
    if isinstance(source, pd.DataFrame):
        manifest = source.attrs.get("manifest", {})
        frames = [source]
    else:
        manifest = read_manifest(source)
    score = score or manifest.get("score_column", "points")
    if not isinstance(source, pd.DataFrame):
        frames = iter_parts(source, ["seat", "strategy", score, "winner"])
    result = {}
    for key, table in _accumulate(frames, score).items():
        if table is None:
            raise SimkitError(f"{source} holds no results")
        low, high = wilson(table["wins"], table["n"])
        mean, mlow, mhigh = mean_interval(table["score"], table["score_sq"], table["n"])
        result[key] = pd.DataFrame({
            "n": table["n"].astype(np.int64), "win_rate": table["wins"] / table["n"], "win_low": low, "win_high": high,
            f"mean_{score}": mean, "mean_low": mlow, "mean_high": mhigh,
        }, index=table.index)
    return result


def strategy_gap(source, first: str, second: str):
    """Paired difference of win rates, ``first`` minus ``second``, over the games of a run (each game's
    win share of the one minus the other's: both play every game, so the game is the pair), streamed part
    by part; returns (difference, low, high) with a normal 95% interval."""
    total = total_sq = count = 0.0
    frames = [source] if isinstance(source, pd.DataFrame) else iter_parts(source, ["game", "strategy", "winner"])
    for frame in frames:
        wins = frame.assign(win=frame["winner"].astype(float), strategy=frame["strategy"].astype(str))
        means = wins.groupby(["game", "strategy"], observed=True)["win"].mean().unstack("strategy")
        diff = (means[first] - means[second]).dropna().to_numpy()
        total, total_sq, count = total + diff.sum(), total_sq + (diff ** 2).sum(), count + len(diff)
    mean, low, high = mean_interval(total, total_sq, count)
    return float(mean), float(low), float(high)
