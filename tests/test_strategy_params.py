"""Every parameter of every shipped strategy is declared (meaning, finite range, kind, a default inside it),
values outside are refused in one line, and declaring them changed no preset's values (a golden file of
every shipped strategy's parameter vector, as the engine receives it)."""
import math
import re
import sys
from pathlib import Path

import pytest

from simkit.catalogue import PARAM_KINDS, Param, ParamOrder
from simkit.games import all_games
from simkit.strategy import param_indices, registered

from .golden import assert_golden

GOLDEN = Path(__file__).with_name("strategy_params_golden.txt")
SHIPPED = [(game, name) for game in sorted(all_games()) for name in registered(game)]


@pytest.mark.parametrize("game, name", SHIPPED, ids=[f"{g}-{n}" for g, n in SHIPPED])
def test_every_parameter_is_declared_with_meaning_and_range(game, name):
    strategy = registered(game)[name]
    assert list(strategy.declared) == list(strategy.params), "every parameter has a declaration, in vector order"
    for key, param in strategy.declared.items():
        where = f"{game} {name}: {key}"
        assert param.kind in PARAM_KINDS, where
        assert len(param.doc) >= 15, f"{where} says what it means"
        assert math.isfinite(param.low) and math.isfinite(param.high) and param.low < param.high, f"{where} range"
        assert param.low <= strategy.params[key] <= param.high, f"{where}: the default lies in the range"
        assert param.check(name, key, strategy.params[key]) == strategy.params[key]
        if param.kind == "choice":
            assert len(param.choices) >= 2 and all(param.choices), f"{where} names its values"
        if param.kind in ("int", "bool", "choice"):
            assert float(strategy.params[key]).is_integer(), where


def _families():
    """(game, first strategy name, strategy) for every distinct declaration of two or more parameters."""
    seen = set()
    for game, name in SHIPPED:
        strategy = registered(game)[name]
        if len(strategy.declared) >= 2 and (game, tuple(strategy.declared)) not in seen:
            seen.add((game, tuple(strategy.declared)))
            yield game, name, strategy


def _constants(strategy) -> dict:
    """The integer constants of the modules a strategy's decisions are written in, and of the strategy modules
    whose helpers those modules call (a family split over several files: the US investor's paying.py)."""
    modules = {strategy.module} | {getattr(f, "py_func", f).__module__ for f in strategy.decisions.values()}
    modules |= {getattr(value, "py_func", value).__module__ for module in list(modules)
                for value in vars(sys.modules[module]).values()
                if callable(value) and getattr(value, "__module__", "").startswith("simkit.strategies.")}
    names = {}
    for module in modules:
        names.update({k: v for k, v in vars(sys.modules[module]).items() if k.isupper() and type(v) is int})
    return names


FAMILIES = list(_families())


@pytest.mark.parametrize("game, name, strategy", FAMILIES, ids=[f"{g}-{n}" for g, n, _ in FAMILIES])
def test_every_family_reads_its_parameters_where_it_declares_them(game, name, strategy):
    """A family's index constants (P_STOP...) are its declared parameters' positions: a parameter added,
    moved or renamed in the declaration without its constant fails here (the decisions would read another
    parameter's value)."""
    constants = _constants(strategy)
    prefixes = {n[: -len(key.upper())] for key in strategy.declared for n in constants if n.endswith("_" + key.upper())}
    prefix = max(prefixes, key=lambda p: sum(n in constants for n in param_indices(strategy.declared, p)))
    expected = param_indices(strategy.declared, prefix)
    assert {n: constants.get(n) for n in expected} == expected, f"{game} {name}: the {prefix}* constants"


def test_a_parameter_order_derives_the_indices_and_refuses_another_declaration():
    order = ParamOrder("targets offer_size stop")
    assert order.indices() == (0, 1, 2) and order.indices("stop targets") == (2, 0)
    assert order.then("points patience").indices("patience") == (4,)
    assert order.declare(declared := {"targets": Param(0), "offer_size": Param(1), "stop": Param(0)}) is declared
    with pytest.raises(ValueError, match="are not the order targets offer_size stop"):
        order.declare({"offer_size": Param(1), "targets": Param(0), "stop": Param(0)})
    with pytest.raises(ValueError, match="no parameter 'points'"):
        order.indices("points")
    with pytest.raises(ValueError, match="distinct identifiers"):
        order.then("stop")


def test_declaring_parameters_changed_no_presets_values():
    lines = [f"{game} {name}: " + " ".join(f"{k}={v:g}" for k, v in registered(game)[name].params.items())
             for game, name in SHIPPED]
    assert_golden(GOLDEN, "\n".join(lines))


@pytest.mark.parametrize("spec, message", [
    ("greedy-defensive:expected=2", "strategy greedy-defensive: parameter expected=2 is not allowed; expected is "
                                    "switch 0/1"),
    ("greedy:defend=-1", "parameter defend=-1 is not allowed; defend is float 0..5"),
    ("greedy:keep_pairs=0.5:expected=0.5", "parameter expected=0.5 is not allowed"),
])
def test_out_of_range_values_are_refused_in_one_line(cli_error, tmp_path, spec, message):
    line = cli_error(["run", "dweebies", "--games", "5", "--players", f"{spec},greedy", "--out", str(tmp_path / "r")])
    assert message in line
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("game, spec, message", [
    ("wheedle", "threshold:points=22.5", "points is int 0..100"),
    ("wheedle", "collector:stop=5", "stop is 0 qualified, 1 threshold, 2 patience, 3 never, 4 bluff"),
    ("wheedle", "random:accept=1.2", "accept is float 0..1"),
    ("wheeler-dealer-us", "kelly:fraction=2", "fraction is float 0..1"),
    ("wheeler-dealer-us", "copper-only:borrow_rule=3", "borrow_rule is 0 never, 1 blocks, 2 any"),
    ("wheeler-dealer-uk", "raider:command=-0.1", "command is float 0..1"),
    ("wheeler-dealer-uk", "set-at-3:favour=3", "favour is int -1..2"),
])
def test_each_family_refuses_values_outside_its_declaration(cli_error, tmp_path, game, spec, message):
    lineup = ",".join([spec, *all_games()[game].default_lineup[1:]])
    assert message in cli_error(["run", game, "--games", "5", "--players", lineup, "--out", str(tmp_path / "r")])


def test_strategies_prints_meaning_kind_and_range(capsys):
    from simkit.cli import main

    main(["strategies", "dweebies"])
    out = capsys.readouterr().out
    assert "expected=0  [switch 0/1]" in out and "weigh each reply by the chance" in out
    assert "greedy-defensive" in out and "parameters: those of scorer, with defend=1" in out
    main(["strategies", "wheedle"])
    out = capsys.readouterr().out
    assert "stop=0 (qualified)  [0 qualified, 1 threshold, 2 patience, 3 never, 4 bluff]" in out
    assert "parameters: those of collector, with stop=1 (threshold), points=24" in out


ROOT = Path(__file__).resolve().parents[1]


TUNED = sorted(all_games())
# a search's best that wins only in the field it was searched in is shipped under a name that says so, not as
# `tuned` (docs/tuning.md, "Outside their own field")
SEARCHED_AS = {"wheeler-dealer-uk": "default-counter"}


@pytest.mark.parametrize("game", TUNED)
def test_every_game_ships_a_tuned_preset_with_the_search_that_found_it(game):
    """The `tuned` preset (or the searched preset renamed) names its experiment, and that experiment tunes the
    preset's family in this game (its values are the search's best.toml; docs/tuning.md has the validation)."""
    from simkit.analysis import load_experiment

    name = SEARCHED_AS.get(game, "tuned")
    assert (name == "tuned") == ("tuned" in registered(game))
    tuned = registered(game)[name]
    path = ROOT / re.search(r"experiments/[\w-]+\.toml", tuned.doc).group(0)
    experiment = load_experiment(path)
    assert experiment.game == game
    searches = [a for a in experiment.analyses if a["kind"] == "tune"]
    families = {tuple(registered(game)[a["strategy"]].declared) for a in searches}
    assert searches and families == {tuple(tuned.declared)}
    assert any(name in a.get("players_b", []) for a in experiment.analyses if a["kind"] == "compare")
