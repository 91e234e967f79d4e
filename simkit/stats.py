"""Confidence intervals used throughout: Wilson for rates, normal for means (n is large)."""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(successes, n, z: float = Z95):
    """Wilson score interval for a binomial rate; returns (low, high) arrays."""
    successes = np.asarray(successes, float)
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        # rounding can put a bound a hair past the rate (0 of n, n of n): the interval always holds it
        low = np.where(successes == 0, 0.0, np.minimum(centre - half, p))
        high = np.where(successes == n, 1.0, np.maximum(centre + half, p))
    return low, high


def mean_interval(total, total_sq, n, z: float = Z95):
    """Mean and normal-approximation interval from streaming sums; returns (mean, low, high)."""
    total = np.asarray(total, float)
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(np.asarray(total_sq, float) - n * mean * mean, 0.0) / np.maximum(n - 1, 1)
        half = z * np.sqrt(var / n)
    return mean, mean - half, mean + half


def fmt_interval(low: float, high: float, digits: int = 3) -> str:
    if math.isnan(low):
        return "-"
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def fmt_amount(value: float, signed: bool = False) -> str:
    """A score or amount for a sentence: thousands separators and no exponent (``1,875,000``, ``+23,150``,
    ``12.5``), about four significant digits below 1,000."""
    value = float(value)
    if math.isnan(value):
        return "-"
    sign = "+" if signed and value > 0 else ""
    if abs(value) >= 1000:
        return f"{sign}{value:,.0f}"
    return f"{sign}{value:.4g}" if not signed else f"{value:+.4g}"
