"""Checks of a report figure as a reader sees it, from matplotlib's own layout (bounding boxes after drawing):
no two texts print over each other, a rate axis reads in percent within [0, 100]%, no tick in scientific
notation; and of a page's findings against its forest plot: every effect the plot draws is stated in the
findings with its interval, and every difference the findings state with an interval is drawn."""
from __future__ import annotations

import itertools
import re

import numpy as np
from matplotlib.text import Text

RATE_LABEL = re.compile(r"\b(rate|share)\b", re.I)
DIFFERENCE = re.compile(r"points|minus|difference|change|advantage|-\s|exploitab", re.I)
NUMBER = r"[+-]?\$?\d[\d,]*(?:\.\d+)?"
# an estimate and its interval whose low end carries a sign: a difference ("+1.2 points [+0.4, +2.0]",
# "-$97,703 [-172,026, -23,380]", "+0.50% [+0.10%, +0.90%]"); a level ("24.5% [24.3, 24.8]") has none
SIGNED_INTERVAL = re.compile(rf"({NUMBER})%?(?: points)? \[([+-]\$?\d[\d,]*(?:\.\d+)?)%?, ({NUMBER})%?\]")
# ... or one whose low end is exactly zero, printed unsigned, and whose high end is signed ("0.0 [0.0, +1.0]")
ZERO_LOW_INTERVAL = re.compile(rf"({NUMBER})%?(?: points)? \[(0(?:\.0+)?)%?, ([+-]\$?\d[\d,]*(?:\.\d+)?)%?\]")


def _visible_ticks(axis) -> list[Text]:
    low, high = sorted(axis.get_view_interval())
    span = (high - low) or 1.0
    labels = []
    for tick in axis.get_major_ticks():
        if low - 1e-6 * span <= tick.get_loc() <= high + 1e-6 * span:
            labels += [label for label in (tick.label1, tick.label2) if label.get_visible() and label.get_text()]
    return labels


def figure_texts(fig) -> list[Text]:
    """Every text a reader sees in ``fig``: tick labels within the axes' limits, axis labels, titles, legend
    entries, annotations and free texts."""
    texts = [*fig.texts]
    for ax in fig.axes:
        if not ax.get_visible() or not ax.axison and not ax.texts:
            continue
        if ax.axison:
            texts += _visible_ticks(ax.xaxis) + _visible_ticks(ax.yaxis)
            texts += [ax.xaxis.label, ax.yaxis.label, ax.xaxis.get_offset_text(), ax.yaxis.get_offset_text()]
        texts += [ax.title, ax._left_title, ax._right_title, *ax.texts]
        legend = ax.get_legend()
        if legend is not None:
            texts += legend.get_texts()
    if fig.legends:
        texts += [t for legend in fig.legends for t in legend.get_texts()]
    return [t for t in texts if t.get_visible() and t.get_text().strip()]


def overlapping_texts(fig, tolerance: float = 1.0) -> list[tuple[str, str]]:
    """Pairs of texts of ``fig`` whose boxes overlap by more than ``tolerance`` px each way."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in figure_texts(fig)]
    pairs = []
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
        height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
        if width > tolerance and height > tolerance:
            pairs.append((a, b))
    return pairs


def number_problems(fig) -> list[str]:
    """Axes of rates not in percent within [0, 100]%, and ticks in scientific notation or with an offset."""
    fig.canvas.draw()
    problems = []
    for ax in fig.axes:
        if not ax.axison:
            continue
        for axis in (ax.xaxis, ax.yaxis):
            ticks = [t.get_text() for t in _visible_ticks(axis)]
            if axis.get_offset_text().get_text().strip() or any(re.search(r"\de[+-]?\d|\u00d7|10\^", t) for t in ticks):
                problems.append(f"scientific notation on {axis.label.get_text()!r}: {ticks}")
            label = axis.label.get_text()
            if not RATE_LABEL.search(label) or DIFFERENCE.search(label) or not ticks:
                continue
            if not all(t.replace("\u2212", "-").endswith("%") for t in ticks):
                problems.append(f"rate axis {label!r} not in percent: {ticks}")
                continue
            values = [float(t.replace("\u2212", "-").rstrip("%").replace(",", "")) for t in ticks]
            if min(values) < -1e-9 or max(values) > 100 + 1e-9:
                problems.append(f"rate axis {label!r} outside [0, 100]%: {ticks}")
    return problems


def _decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def _value(text: str) -> float:
    return float(text.replace("$", "").replace(",", "").replace("+", ""))


def stated_intervals(findings: list[str]) -> list[tuple[float, float, float, float]]:
    """Every difference the findings state with its interval: (estimate, low, high, rounding) as printed."""
    found = []
    for line in findings:
        for estimate, low, high in SIGNED_INTERVAL.findall(line) + ZERO_LOW_INTERVAL.findall(line):
            rounding = 0.5 * 10.0 ** -min(_decimals(estimate), _decimals(low), _decimals(high)) + 1e-9
            found.append((_value(estimate), _value(low), _value(high), rounding))
    return found


def effects_against_findings(panels, findings: list[str]) -> list[str]:
    """Effects of the forest plot the findings do not state, and differences stated that the plot lacks."""
    stated = stated_intervals(findings)
    drawn = [(f"{panel.unit}: {label}", np.array(value)) for panel in panels
             for label, value in zip(panel.labels, panel.values)]
    problems = []

    def same(value, entry):
        return all(abs(a - b) <= entry[3] for a, b in zip(value, entry[:3]))

    for name, value in drawn:
        if not any(same(value, entry) for entry in stated):
            problems.append(f"drawn but not in the findings: {name} {value.round(4).tolist()}")
    for entry in stated:
        if not any(same(value, entry) for _, value in drawn):
            problems.append(f"in the findings but not drawn: {entry[0]:+g} [{entry[1]:+g}, {entry[2]:+g}]")
    return problems
