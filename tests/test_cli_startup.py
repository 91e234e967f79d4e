"""The command line answers at once: --help, --version and bad input are parsed and answered before Numba,
pandas, pyarrow or any engine is imported (simkit/cli/__init__.py). The function-local library imports of the
subcommand modules exist for this (docs/architecture.md); move one to the top and these fail."""
import json
import subprocess
import sys

import pytest

HEAVY = ("numba", "pandas", "pyarrow", "matplotlib", "optuna", "simkit.runner", "simkit.strategy", "simkit.games.wheedle")
PROBE = """
import json, sys
from simkit.cli import main
try:
    main({argv!r})
except SystemExit as exc:
    print(json.dumps([[name for name in {heavy!r} if name in sys.modules], exc.code]), file=sys.stderr)
"""


def _heavy_loaded(argv):
    """The heavy modules loaded by ``simkit ARGV`` (in a fresh interpreter), its exit status and its output."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv, heavy=HEAVY)], capture_output=True,
                          text=True, env={"SIMKIT_SUPERVISOR": "0", "PATH": ""}, timeout=120)
    loaded, code = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded, code, done.stdout + done.stderr


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["run", "--help"], ["tune", "--help"],
                                  ["experiment", "run", "--help"], ["rules", "wheedle", "--options", "--help"]])
def test_help_and_version_load_no_library(argv):
    loaded, code, out = _heavy_loaded(argv)
    assert code == 0 and loaded == [], out


@pytest.mark.parametrize("argv", [["run", "wheedle", "--games", "0", "-o", "x"], ["run", "no-such-game", "-o", "x"],
                                  ["no-such-command"], ["compare", "wheedle", "--games", "many"],
                                  ["--decision-timeout", "soon", "games"], ["experiment", "run"]])
def test_bad_arguments_answer_before_the_library_loads(argv):
    loaded, code, out = _heavy_loaded(argv)
    assert code == 2 and loaded == [], out
    assert "simkit: error:" in out and "Traceback" not in out
