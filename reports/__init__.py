"""Report plots and the HTML report. Plots are registered once here (``@plot``); every report draws
the generic ones and the ones its game names in ``Game.report_plots``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

PLOTS: dict[str, "Plot"] = {}
ANALYSIS_PLOTS: dict[str, list] = {}     # analysis kind -> its plots (name, title, draw), in order


@dataclass(frozen=True)
class Plot:
    name: str
    title: str
    draw: Callable          # (ReportData) -> matplotlib Figure
    generic: bool           # drawn for every game


def plot(name: str, title: str, generic: bool = False):
    """Register a plot function under ``name``."""
    def register(func):
        PLOTS[name] = Plot(name, title, func, generic)
        return func
    return register


def plots_for(game) -> list[Plot]:
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):  # each module registers its plots on import
        importlib.import_module(f"{__name__}.{info.name}")

    unknown = [name for name in game.report_plots if name not in PLOTS]
    if unknown:
        raise KeyError(f"{game.name} names unregistered plots: {unknown}")
    return [p for p in PLOTS.values() if p.generic] + [PLOTS[name] for name in game.report_plots]


def analysis_plot(kind: str, name: str, title: str):
    """Register a plot ``(Analysis) -> Figure | None`` for analyses of ``kind`` (None: nothing to draw)."""
    def register(func):
        ANALYSIS_PLOTS.setdefault(kind, []).append((name, title, func))
        return func
    return register
