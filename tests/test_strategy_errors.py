"""A strategy of one's own that does not compile, or a module that does not import, ends a command with one
line naming the strategy, the decision and the compiler's reason (exit 2, nothing written); ``--debug`` or
SIMKIT_DEBUG=1 prints the full traceback first."""
import importlib
import itertools

import numpy as np
import pytest

from simkit.cli import main
from simkit.games import get_game
from simkit.strategy import DecisionError, Strategy, registered

GAMES = ["wheedle", "dweebies"]
_names = itertools.count()

# (what is broken, the body of the first decision given its n arguments a0..a{n-1}, what the line must say)
BROKEN = [
    ("typing", "def decide({args}):\n    return a0.no_such_attribute\n", "Unknown attribute 'no_such_attribute'"),
    ("name", "def decide({args}):\n    return undefined_name_xyz + 1\n",
     "NameError: name 'undefined_name_xyz' is not defined"),
    ("signature", "def decide(a0, a1):\n    return 0\n", "Signature mismatch: {n} argument types given, but function "
                                                           "takes 2 arguments"),
]


def write_module(tmp_path, game: str, body: str) -> tuple[str, str, int]:
    """A module ``mystratsN`` in tmp_path building ``greedy`` from the game's first default strategy with the
    first decision replaced by ``body``. Returns (module name, decision name, line of the body's return)."""
    point, signature = next(iter(get_game(game).decisions.items()))
    n = len(signature.args)
    name = f"mystrats{next(_names)}"
    source = ("from simkit.strategy import Strategy, registered\n\n"
              + body.format(args=", ".join(f"a{i}" for i in range(n))) +
              f"\n\ngreedy = Strategy.build({game!r}, 'greedy', base=registered({game!r})"
              f"[{get_game(game).default_lineup[0]!r}], {point}=decide)\n")
    (tmp_path / f"{name}.py").write_text(source)
    return name, point, n


def run_args(game, module, tmp_path):
    lineup = [f"{module}:greedy", *get_game(game).default_lineup[1:]]
    return ["run", game, "--games", "5", "-q", "--out", str(tmp_path / "out"), "--players", ",".join(lineup)]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind, body, says", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_decision_that_does_not_compile_is_one_line(game, kind, body, says, tmp_path, clean_sys_path, cli_error):
    module, point, n = write_module(tmp_path, game, body)
    clean_sys_path.chdir(tmp_path)
    line = cli_error(run_args(game, module, tmp_path))
    assert line.startswith(f"simkit: error: strategy {module}:greedy, decision {point}: {says.format(n=n)}"), line
    assert line.endswith(f"({module}.py, line 4)" if kind == "typing" else f"({module}.py, def at line 3)"), line
    assert not (tmp_path / "out").exists() and not list(tmp_path.glob(".out*")), "nothing is written"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("source, says", [
    ("import numpy\nLIMIT = numpy.zeros(3)[7]\n", "IndexError: index 7 is out of bounds"),
    ("def f(:\n    pass\n", "SyntaxError: invalid syntax ({module}.py, line 1)"),
    ("from simkit.strategy import Strategy\nx = Strategy.build('{game}', 'x', nonsense=1)\n",
     "unknown decision 'nonsense'"),
    ("import no_such_package_xyz\n", "ModuleNotFoundError: No module named 'no_such_package_xyz' ({module}.py, line 1)"),
], ids=["raises", "syntax", "simkit-error", "missing-import"])
def test_a_module_that_does_not_import_is_one_line(game, source, says, tmp_path, clean_sys_path, cli_error):
    module = f"badmodule{next(_names)}"
    (tmp_path / f"{module}.py").write_text(source.format(game=game))
    clean_sys_path.chdir(tmp_path)
    line = cli_error(run_args(game, module, tmp_path))
    assert line.startswith(f"simkit: error: strategy {module}:greedy: "), line
    assert says.format(module=module) in line, line


def test_debug_shows_the_traceback(tmp_path, clean_sys_path, capsys):
    module, point, _ = write_module(tmp_path, "wheedle", BROKEN[0][1])
    clean_sys_path.chdir(tmp_path)
    for argv, env in ((["--debug", *run_args("wheedle", module, tmp_path)], None),
                      ([*run_args("wheedle", module, tmp_path), "--debug"], None),
                      (run_args("wheedle", module, tmp_path), "1")):
        if env:
            clean_sys_path.setenv("SIMKIT_DEBUG", env)
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "Traceback" in err and "TypingError" in err and "During: typing of get attribute" in err
        assert err.splitlines()[-1].startswith(f"simkit: error: strategy {module}:greedy, decision {point}: ")


def test_building_a_broken_strategy_in_python_names_it():
    point, signature = next(iter(get_game("wheedle").decisions.items()))
    namespace = {}
    exec(BROKEN[0][1].format(args=", ".join(f"a{i}" for i in range(len(signature.args)))), namespace)  # no file
    with pytest.raises(DecisionError, match=rf"^strategy mine, decision {point}: Unknown attribute 'no_such_attribute'"):
        Strategy.build("wheedle", "mine", base=registered("wheedle")["hair-trigger"], **{point: namespace["decide"]})


@pytest.mark.parametrize("body, says", [
    ("rng[rng.size] = np.uint64(1)", "index past the end of its random stream rng"),
    ("memory[1:][memory.size] = 1.0", "index past the end of a view of its memory memory"),
    ("action[-99] = 1", "index before the start of its answer buffer action"),
], ids=["rng", "memory-view", "answer"])       # (a helper's arrays and read-only ones: tests/careless_behaviours.py)
def test_a_bounds_error_names_its_array_and_line(body, says, tmp_path, clean_sys_path):
    name = f"boundsmod{next(_names)}"
    (tmp_path / f"{name}.py").write_text(
        f"import numpy as np\n\n\ndef act(hand, public, seen, params, memory, rng, action):\n    {body}\n    return 0\n")
    clean_sys_path.syspath_prepend(str(tmp_path))
    act = importlib.import_module(name).act
    decide = Strategy.build("wheedle", "mine", base=registered("wheedle")["hair-trigger"], act=act).decisions["act"]
    ints, floats = np.zeros(8, np.int64), np.zeros(4)
    with pytest.raises(IndexError) as raised:
        decide(ints, ints, np.zeros((2, 2, 2), np.int64), floats, floats.copy(), np.zeros(4, np.uint64), ints.copy())
    assert str(raised.value) == f"{says} ({name}.py, line 5)"
