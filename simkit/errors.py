"""The one exception type for bad user input: the CLI prints its message on one line and exits 2."""


class SimkitError(Exception):
    """Bad input (rules, strategies, player counts, paths): the message names what is wrong and what is allowed."""


class RunFailed(Exception):
    """A run stopped by its surroundings, not by its input (a full disk, an I/O error, a worker killed): the
    message says what failed, how many chunks are kept and that the same command resumes. The CLI prints
    it on one line and exits 1."""


class WorkerDied(RuntimeError):
    """A worker process ended while it had a chunk to play (killed by the system, perhaps for want of memory,
    or crashed: ``crashed`` is true for a fault of the code it ran, a segmentation fault or an abort)."""

    crashed = False
