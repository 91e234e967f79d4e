"""Statistics on blocks (one value per game index, or per deal under rotation): means, paired
differences with the variance reduction they buy, and a Bradley-Terry fit.

Blocks are independent (each has its own random streams), so a mean over blocks has the usual
normal-approximation interval; rows within a block (seats, rotations) are not, which is why everything
is first reduced to one number per block.
"""
from __future__ import annotations

import warnings
from statistics import NormalDist

import numpy as np
import pandas as pd

from ..stats import Z95, wilson


def z_for(alpha: float) -> float:
    """Two-sided normal quantile for error rate ``alpha``."""
    return NormalDist().inv_cdf(1 - alpha / 2)


def block_means(outcomes: pd.DataFrame, z: float = Z95) -> pd.DataFrame:
    """Mean of each column over blocks with its interval (columns: n, mean, low, high)."""
    values = outcomes.to_numpy(float)
    n = np.sum(~np.isnan(values), axis=0)
    with warnings.catch_warnings():  # a column with fewer than two blocks has no interval (NaN), not a warning
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(values, axis=0)
        half = z * np.nanstd(values, axis=0, ddof=1) / np.sqrt(np.maximum(n, 1))
    return pd.DataFrame({"n": n, "mean": mean, "low": mean - half, "high": mean + half}, index=outcomes.columns)


def rate_means(outcomes: pd.DataFrame, z: float = Z95) -> pd.DataFrame:
    """Mean of each column of rates (block values in [0, 1]) over blocks with a Wilson interval, which
    stays inside [0, 1] however close the rate is to 0 or 1 (columns: n, mean, low, high).

    A block's value may be a fraction (the mean over a deal's seat orders, or over the seats one strategy
    holds), so the interval is Wilson's at the effective number of blocks n * p(1 - p) / s^2 (s^2 the
    blocks' variance): exactly the binomial Wilson interval when every block is 0 or 1, and as narrow as
    the blocks' own spread when averaging made them less variable."""
    values = outcomes.to_numpy(float)
    if np.nanmin(values, initial=0.0) < 0 or np.nanmax(values, initial=0.0) > 1:
        raise ValueError("rate_means: rates must lie in [0, 1]")
    n = np.sum(~np.isnan(values), axis=0)
    with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(values, axis=0)
        var = np.nanvar(values, axis=0)
        effective = np.where(var > 0, n * mean * (1 - mean) / var, n).astype(float)
        effective = np.where(n > 1, effective, np.nan)   # one block gives no interval (as block_means)
        low, high = wilson(mean * effective, effective, z)
    return pd.DataFrame({"n": n, "mean": mean, "low": low, "high": high}, index=outcomes.columns)


def paired(a: pd.DataFrame, b: pd.DataFrame, z: float = Z95) -> pd.DataFrame:
    """Paired difference B - A for every unit (column) the two have in common, over the blocks both have.

    var_reduction = Var(unpaired difference) / Var(paired difference), both measured on these data:
    (var_A + var_B) / n against var(B - A) / n. It is how many times more blocks independent samples
    would need for the same interval width. NaN when the paired difference is identically zero.
    """
    units = [u for u in a.columns if u in b.columns]
    blocks = a.index.intersection(b.index)
    rows = []
    for unit in units:
        x, y = a.loc[blocks, unit].to_numpy(float), b.loc[blocks, unit].to_numpy(float)
        keep = ~(np.isnan(x) | np.isnan(y))
        x, y = x[keep], y[keep]
        n = len(x)
        d = y - x
        var_d = d.var(ddof=1) if n > 1 else np.nan
        unpaired = x.var(ddof=1) + y.var(ddof=1) if n > 1 else np.nan
        half = z * np.sqrt(var_d / n) if n > 1 else np.nan
        rows.append({"n": n, "a": x.mean(), "b": y.mean(), "diff": d.mean(), "low": d.mean() - half,
                     "high": d.mean() + half, "half_width": half,
                     "var_reduction": unpaired / var_d if var_d > 0 else np.nan})
    return pd.DataFrame(rows, index=pd.Index(units, name=a.columns.name))


def bradley_terry(wins: np.ndarray, iterations: int = 1000, tol: float = 1e-10) -> np.ndarray:
    """Bradley-Terry strengths by Hunter's (2004) MM algorithm from ``wins[i, j]`` (i ahead of j; a tie
    counts half to each). Returns log-strengths with mean 0. A half-game pseudo-count each way keeps
    the fit finite when a strategy never lost (or never won) a comparison. ``wins`` may also be a stack
    of such matrices (shape ``(k, n, n)``, e.g. bootstrap resamples), fitted together in one loop."""
    wins = np.asarray(wins, float)
    stacked = wins if wins.ndim == 3 else wins[None]
    stacked = stacked + 0.5 * (1 - np.eye(stacked.shape[-1]))
    games = stacked + stacked.transpose(0, 2, 1)
    strength = np.ones(stacked.shape[:2])
    total_wins = stacked.sum(axis=2)
    for _ in range(iterations):
        denom = (games / (strength[:, :, None] + strength[:, None, :])).sum(axis=2)
        new = total_wins / denom
        new /= np.exp(np.log(new).mean(axis=1, keepdims=True))
        converged = np.max(np.abs(new - strength)) < tol
        strength = new
        if converged:
            break
    return np.log(strength) if wins.ndim == 3 else np.log(strength[0])
