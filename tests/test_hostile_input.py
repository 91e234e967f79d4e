"""Hypothesis fuzzing of everything a user (or a damaged disk) hands simkit: command lines, TOML files
(rules and experiments, deep and large ones included), goal and constraint expressions, and results
folders. Whatever comes in, the outcome is an answer or one line ``simkit: error: ...`` with exit status 2
(a SimkitError from the library), never a traceback, a hang or a silently different result.

Examples are few by default, so the file runs in seconds; SIMKIT_LARGE_TESTS=1 draws 20 times as many
(docs/development.md, "Running the tests")."""
import json
import os
import shutil
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simkit
from simkit.analysis.experiment import Experiment
from simkit.analysis.goals import evaluate_expression, parse_constraint, parse_goal
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.rules import read_toml
from simkit.runner import make_batch, run_to_directory

LARGE = os.environ.get("SIMKIT_LARGE_TESTS", "") not in ("", "0")


def examples(n: int):
    return settings(max_examples=n * (20 if LARGE else 1), deadline=None, derandomize=not LARGE,
                    suppress_health_check=list(HealthCheck))


HOSTILE_NUMBERS = ["0", "-1", "1", "2", "5000", "10", "2**70", "1000000000000000", "99999999999999999999", "1e9",
                   "nan", "-0", "0x10", "", " ", "3.5"]
HOSTILE_TEXT = ["x" * 300, "/proc/x", "/dev/zero", "../outside", "mymod:attr", "evil:s", "random", "a,b,,c",
                "[[1]]", "commodity.0.wins=[[1]]", "options.rounds=sometimes", "min:9**9**9**9", "ü", "-", "--"]
OPTIONS = ["--games", "-n", "--seed", "--players", "-p", "--set", "--rules", "--out", "-o", "--chunk-size", "--workers",
           "--game", "--trial-games", "--max-trial-games", "--goal", "--constraint", "--budget", "--json", "--overwrite"]


@pytest.fixture
def no_play(monkeypatch):
    """Everything but the playing: the command line is parsed and checked, then a run or an analysis that
    passed its checks returns at once (a fuzzed line may well be valid; playing it would take minutes)."""
    class Played(Exception):
        pass

    def stop(*args, **kwargs):
        raise Played

    import simkit.analysis.runs
    import simkit.runner

    # the command modules import these when they run (simkit/cli/__init__.py), so they are stopped at their source
    monkeypatch.setattr(simkit.runner, "run_to_directory", stop)
    monkeypatch.setattr(simkit.analysis.runs, "run_experiment", stop)
    monkeypatch.setattr(simkit.runner.Batch, "play", stop)
    return Played


@examples(60)
@given(command=st.sampled_from(["run", "tournament", "tune", "design", "compare", "sweep", "balance",
                                "summary", "report", "rules", "experiment run"]),
       game=st.sampled_from(["wheedle", "dweebies", "wheeler-dealer-us", "wheeler-dealer-uk", "chess", ""]),
       words=st.lists(st.one_of(st.sampled_from(OPTIONS), st.sampled_from(HOSTILE_NUMBERS),
                                st.sampled_from(HOSTILE_TEXT), st.text(max_size=12)), max_size=8))
def test_a_fuzzed_command_line_is_an_answer_or_one_line(no_play, capsys, tmp_path_factory, command, game, words):
    cwd = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    capsys.readouterr()
    try:
        main([*command.split(), *([game] if game else []), *words])
        code = 0
    except SystemExit as exc:
        code = exc.code
    except no_play:
        code = 0
    finally:
        os.chdir(cwd)
    err = capsys.readouterr().err
    assert code in (0, 2), (code, err)
    if code == 2:
        assert len(err.splitlines()) == 1 and err.startswith("simkit: error: "), err


toml_scalars = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True), st.booleans(),
                         st.text(max_size=8))
toml_keys = st.text(string.ascii_lowercase, min_size=1, max_size=6)
toml_values = st.recursive(toml_scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                                 st.dictionaries(toml_keys, inner, max_size=4)),
                           max_leaves=20)


def _toml_text(data) -> str:
    import tomli_w
    try:
        return tomli_w.dumps(data)
    except (TypeError, ValueError):
        return "x = 1"


RULE_KEYS = {}


def _rule_keys(game: str) -> list[str]:
    """Every dotted key of a game's default rules (array-of-table entries by index)."""
    if game not in RULE_KEYS:
        def walk(node, path):
            if isinstance(node, dict):
                for key, value in node.items():
                    yield from walk(value, f"{path}.{key}" if path else key)
            elif isinstance(node, list) and node and isinstance(node[0], dict):
                for index, entry in enumerate(node):
                    yield from walk(entry, f"{path}.{index}")
            else:
                yield path
        RULE_KEYS[game] = list(walk(get_game(game).default_rules, ""))
    return RULE_KEYS[game]


@pytest.mark.parametrize("game", ["wheedle", "dweebies", "wheeler-dealer-us", "wheeler-dealer-uk"])
@examples(40)
@given(data=st.data())
def test_every_set_value_of_every_rule_is_checked(game, data):
    """``--set KEY=VALUE`` for a key of the game's rules and a hostile value of any shape: accepted rules are
    prepared, anything else is a SimkitError (the 12 US ``commodity.N.wins=[[1]]`` TypeErrors were found so)."""
    spec = get_game(game)
    key = data.draw(st.sampled_from(_rule_keys(game)))
    value = data.draw(st.one_of(st.sampled_from(["[[1]]", "[[]]", "[]", '"x"', "true", "1.5", "-1", "1e308", "nan",
                                                 "[1.5]", '["a"]', "{a=1}", "[true]", "[[1, 2], [3]]", "[{}]",
                                                 "99999999999999999999", "[" * 70 + "]" * 70]),
                                toml_values.map(lambda v: _toml_text({"v": v})[4:].strip())))
    try:
        spec.prepare(spec.rules(sets=[f"{key}={value}"]), len(spec.default_lineup))
    except SimkitError:
        pass


@examples(40)
@given(data=toml_values, depth=st.integers(0, 25000), opener=st.sampled_from(["[", "{a=", "[[", "a={b="]))
def test_a_fuzzed_rules_or_experiment_file_is_refused_in_one_line(tmp_path_factory, data, depth, opener):
    folder = tmp_path_factory.mktemp("toml")
    deep = "x = " + opener * depth + "1"
    for text in (_toml_text(data if isinstance(data, dict) else {"v": data}), deep):
        path = folder / "file.toml"
        path.write_text(text)
        for game in ("wheedle", "wheeler-dealer-us"):
            try:
                spec = get_game(game)
                spec.prepare(spec.rules(path), len(spec.default_lineup))
            except SimkitError:
                pass
        try:
            Experiment.from_dict(read_toml(path, "experiment file"), str(path))
        except SimkitError:
            pass


def test_a_huge_or_endless_file_is_refused(cli_error, tmp_path):
    assert "larger than the limit" in cli_error(["run", "wheedle", "--rules", "/dev/zero", "--out", str(tmp_path / "r")])
    (tmp_path / "deep.toml").write_text("x = " + "[" * 20000)
    assert "nested more than 64 levels" in cli_error(["run", "wheedle", "--rules", str(tmp_path / "deep.toml"),
                                                      "--out", str(tmp_path / "r")])
    assert "nested more than 64 levels" in cli_error(["experiment", "run", str(tmp_path / "deep.toml")])
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("argv, needle", [
    (["run", "wheedle", "--games", "1000000000000000", "--out", "{tmp}/r"], "1<=x<=10000000000"),
    (["replay", "wheedle", "--game", str(2 ** 70)], "0<=x<=9999999999"),
    (["run", "wheedle", "--games", "10000000", "--chunk-size", "1", "--out", "{tmp}/r"], "larger --chunk-size"),
    (["tune", "wheedle", "--strategy", "threshold", "--self-play", "--max-trial-games", "10", "--trial-games", "5000"],
     "more than --max-trial-games"),
    (["design", "wheedle", "--vary", "scoring.false_stop=-10:0", "--goal", "min:9**9**9**9"], "exponent"),
    (["run", "wheeler-dealer-us", "--set", "commodity.0.wins=[[1]]", "--out", "{tmp}/r"], "commodity.0.wins[0]"),
])
def test_bounded_inputs_are_refused_in_one_line(cli_error, tmp_path, argv, needle):
    assert needle in cli_error([arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    assert not (tmp_path / "r").exists() and not list(tmp_path.glob(".r*"))


def test_an_experiment_of_a_huge_size_or_naming_code_is_refused_before_anything_runs(cli_error, tmp_path,
                                                                                       clean_sys_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evil.py").write_text("open('imported', 'w').close()\n")
    (tmp_path / "huge.toml").write_text('game = "wheedle"\ngames = 1000000000000000\n[[analysis]]\nkind = "balance"\n')
    assert "games must be a whole number" in cli_error(["experiment", "run", "huge.toml"])
    (tmp_path / "code.toml").write_text('game = "wheedle"\ngames = 10\n[[analysis]]\nkind = "tournament"\n'
                                        'strategies = ["evil:s", "random"]\n')
    line = cli_error(["experiment", "run", "code.toml", "--out", "out"])
    assert "evil:s" in line and "--allow-code" in line
    assert not (tmp_path / "imported").exists(), "nothing was imported before the refusal"
    line = cli_error(["experiment", "run", "code.toml", "--out", "out", "--allow-code"])
    assert (tmp_path / "imported").exists() and "is not a simkit Strategy" in line
    assert not (tmp_path / "out").exists()


FIELDS = ["seat_advantage", "length", "decisive", "x"]


@examples(200)
@given(st.text(alphabet="0123456789.+-*/()% <>=,e abcdx_" + "".join(FIELDS), max_size=60)
       | st.builds(lambda a, b: f"{a}**{b}", st.sampled_from(["9", "x", "2.5", "(9**9)"]),
                   st.sampled_from(["9**9**9", "99", "64", "-3", "x", "0.5"])))
def test_a_fuzzed_goal_or_constraint_is_bounded(text):
    """Any expression is refused in one line or evaluated, at once (no huge powers or integers)."""
    import numpy as np

    namespace = {name: np.linspace(0.1, 0.9, 5) for name in FIELDS} | {"games": np.ones(5)}
    for parse in (lambda t: parse_goal(f"min:{t}", 1), lambda t: parse_constraint(f"{t}<=3", 1)):
        try:
            parsed = parse(text)
            evaluate_expression(parsed.expression, namespace, "test")
        except SimkitError:
            pass


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz-run") / "run"
    run_to_directory(make_batch("dweebies", 120, seed=2), out, chunk_size=40)
    return out


@examples(40)
@given(target=st.sampled_from(["part-000000.parquet", "part-000002.parquet", "manifest.json"]),
       action=st.sampled_from(["truncate", "flip", "append", "delete", "replace", "copy", "deep"]),
       where=st.floats(0, 1), payload=st.binary(max_size=64))
def test_a_fuzzed_results_folder_is_refused_or_read_unchanged(small_run, tmp_path_factory, target, action, where,
                                                              payload):
    run = tmp_path_factory.mktemp("hurt") / "run"
    shutil.copytree(small_run, run)
    path = run / target
    data = path.read_bytes()
    cut = int(where * len(data))
    if action == "truncate":
        path.write_bytes(data[:cut])
    elif action == "flip":
        path.write_bytes(data[:cut] + bytes([data[cut] ^ 0x5A]) + data[cut + 1:] if cut < len(data) else data)
    elif action == "append":
        path.write_bytes(data + payload)
    elif action == "delete":
        path.unlink()
    elif action == "replace":
        path.write_bytes(payload)
    elif action == "copy":
        shutil.copy(path, run / "part-000009.parquet")
    else:
        path.write_text("{\"a\":" * int(where * 30000) + "1")
    before = simkit.summarize(small_run)
    try:
        after = simkit.summarize(run)
    except SimkitError:
        return
    assert all(before[key].equals(after[key]) for key in before), "a damaged folder was read as different results"
    assert json.loads((run / "manifest.json").read_text()) == json.loads((small_run / "manifest.json").read_text())
