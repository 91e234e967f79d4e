"""The command line answers at once: --help, --version, the listings (games, rule options, a game's strategies)
and bad input are parsed and answered before Numba, pandas, pyarrow or any engine is imported
(simkit/cli/__init__.py). The function-local library imports of the subcommand modules exist for this
(docs/architecture.md); move one to the top and these fail. The probe runs the command as ``simkit`` does,
supervised unless the command plays no games, so the supervisor's imports count too."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("numba", "pandas", "pyarrow", "matplotlib", "optuna", "simkit.runner", "simkit.strategy", "simkit.supervise",
         "simkit.games.wheedle.play", "simkit.games.wheedle.engine", "simkit.games.dweebies.engine",
         "simkit.games.wheeler_dealer_us.engine", "simkit.games.wheeler_dealer_uk.engine", "simkit.strategies.wheedle")
PROBE = """
import json, sys
from simkit.cli import main
sys.argv = ["simkit", *{argv!r}]
try:
    main()
    code = 0
except SystemExit as exc:
    code = exc.code
print(json.dumps([[name for name in {heavy!r} if name in sys.modules], code]), file=sys.stderr)
"""


def _heavy_loaded(argv):
    """The heavy modules loaded by ``simkit ARGV`` (in a fresh interpreter), its exit status and its output."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv, heavy=HEAVY)], capture_output=True,
                          text=True, env={"PATH": ""}, timeout=120)
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


@pytest.mark.parametrize("argv", [["games"], ["games", "--columns"], ["rules", "--options"],
                                  ["rules", "wheeler-dealer-uk", "--options"], ["rules", "dweebies"],
                                  ["strategies", "wheedle"], ["strategies", "wheeler-dealer-us"]])
def test_listings_load_no_library(argv):
    loaded, code, out = _heavy_loaded(argv)
    assert code == 0 and loaded == [], out


def test_simkit_strategies_compiles_nothing():
    loaded, code, out = _heavy_loaded(["strategies", "dweebies"])
    assert code == 0 and loaded == [] and "greedy-defensive" in out and "parameters" in out, out


@pytest.mark.parametrize("argv", [["run", "wheedle", "-o", "x", "-p", "patient,nosuch,blocker,random"],
                                  ["run", "wheedle", "-o", "x", "-p", "patient:points=-5,blocker,random,random"],
                                  ["run", "wheedle", "-o", "x", "-p", "patient:nosuch=1,blocker,random,random"],
                                  ["run", "wheedle", "-o", "x", "-p", "patient"],
                                  ["run", "dweebies", "-o", "x", "--set", "no.such.key=1"],
                                  ["run", "wheeler-dealer-us", "-o", "x", "--rules", "BROKEN"],
                                  ["run", "wheeler-dealer-uk", "-o", "x", "--rules", "MISSING"],
                                  ["strategies", "no-such-game"], ["rules", "no-such-game"]])
def test_bad_input_answers_before_the_library_loads(argv, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[game\nlevel = 2\n")
    argv = [str(broken) if arg == "BROKEN" else str(tmp_path / "missing.toml") if arg == "MISSING" else arg
            for arg in argv]
    loaded, code, out = _heavy_loaded(argv)
    assert code == 2 and loaded == [], out
    assert "simkit: error:" in out and "Traceback" not in out and not Path("x").exists()
