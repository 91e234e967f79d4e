"""The one progress bar of every command that simulates: games done of the total, games/s and ETA, on stderr.

It is drawn only where someone watches: when stderr is a terminal (so tests, pipes and log files stay
clean), unless switched off with ``--quiet`` or ``SIMKIT_PROGRESS=0``; ``SIMKIT_PROGRESS=1`` draws it
anywhere (a log file, a test).

Whatever plays games opens ``games(total)`` and hands the bar to ``simkit.pool.play_chunks`` (its ``bar``
hook). Calls nest: inside an open bar, ``games`` gives that bar back, so the looks of a sequential compare
advance the one bar their compare opened for the most it may play. A command that plays several things
in turn (an experiment's analyses) names each with ``label``, and each draws its own bar in turn.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

ENV = "SIMKIT_PROGRESS"     # "0": never; "1": always, terminal or not
TERMINAL_ENV = "SIMKIT_STDERR_IS_TERMINAL"   # set by simkit.supervise: stderr reaches a terminal through it

_quiet = False
_open: "Bar | None" = None  # the bar being advanced, if any
_label: str | None = None   # the name of the next bar without one of its own


def set_quiet(quiet: bool) -> None:
    """Switch the bar off (``--quiet``) or back on for what follows in this process."""
    global _quiet
    _quiet = bool(quiet)


def shown() -> bool:
    """Whether a bar opened now would be drawn."""
    setting = os.environ.get(ENV, "")
    if setting == "1":
        return True
    if setting == "0" or _quiet:
        return False
    return sys.stderr.isatty() or os.environ.get(TERMINAL_ENV) == "1"


class Bar:
    """A tqdm bar on stderr, or nothing where none is drawn; ``update(games)`` advances it."""

    def __init__(self, total: int, desc: str | None, draw: bool = True):
        self.tqdm = None
        if draw and shown():
            from tqdm import tqdm

            self.tqdm = tqdm(total=total, desc=desc, unit=" games", unit_scale=True, file=sys.stderr,
                             smoothing=0.1, dynamic_ncols=True, mininterval=0.2)

    @property
    def drawn(self) -> bool:
        return self.tqdm is not None

    def update(self, games: int) -> None:
        if self.tqdm is not None:
            self.tqdm.update(games)

    def finish_early(self) -> None:
        """The work ended before the total (a sequential compare that decided): end the bar at what was done."""
        if self.tqdm is not None:
            self.tqdm.total = self.tqdm.n
            self.tqdm.refresh()

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()


@contextmanager
def games(total: int, desc: str | None = None, enabled: bool = True):
    """A bar for ``total`` games, or the open one inside another ``games``. ``enabled=False``: a bar that
    draws nothing, nor do the calls inside it (a library call that asked for no progress, quick checks)."""
    global _open
    if _open is not None:
        yield _open
        return
    bar = _open = Bar(total, desc or _label, draw=enabled)
    try:
        yield bar
    finally:
        _open = None
        bar.close()


@contextmanager
def label(text: str | None):
    """Name the bars opened inside (an experiment's ``2/6 sweep: 4 players``)."""
    global _label
    before, _label = _label, text
    try:
        yield
    finally:
        _label = before
