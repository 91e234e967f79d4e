"""The one exception type for bad user input: the CLI prints its message on one line and exits 2."""


class SimkitError(Exception):
    """Bad input (rules, strategies, player counts, paths): the message names what is wrong and what is allowed."""
