"""What the engine shows a strategy is read-only: a decision that writes to it does not compile, and the
command ends with one line naming the strategy, the decision and the argument. The strategy's own memory,
random stream and answer buffer stay writable. (Issue: a careless strategy must not corrupt a game.)"""
import pytest
from numba import types

from simkit.games import all_games
from simkit.strategy import DecisionError, Strategy, registered


def _decisions_to_try(game):
    """Every decision of a game, but one of each signature (the engine passes them alike)."""
    seen, points = set(), []
    for point, signature in game.decisions.items():
        if signature not in seen:
            seen.add(signature)
            points.append((point, signature))
    return points


def _cases():
    for name, game in all_games().items():
        for point, signature in _decisions_to_try(game):
            for index, arg in enumerate(signature.args):
                if isinstance(arg, types.Array):
                    yield pytest.param(name, point, index, arg, id=f"{name}-{point}-a{index}")


def _writer(folder, n_args: int, index: int, ndim: int, returns):
    """A decision of ``n_args`` arguments that writes into argument ``index`` (in a file of its own, as a
    user's strategy module would be, so the error can quote its line)."""
    args = ", ".join(f"a{i}" for i in range(n_args))
    target = f"a{index}[0]" if ndim == 1 else f"a{index}[0, 0]"
    result = "True" if returns == types.boolean else "0"
    path = folder / "careless.py"
    path.write_text(f"def decide({args}):\n    {target} = 1\n    return {result}\n")
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    return namespace["decide"]


@pytest.mark.parametrize("name, point, index, arg", list(_cases()))
def test_only_the_strategy_s_own_arrays_are_writable(name, point, index, arg, tmp_path):
    game = all_games()[name]
    signature = game.decisions[point]
    base = registered(name)[game.default_lineup[0]]
    decide = _writer(tmp_path, len(signature.args), index, arg.ndim, signature.return_type)
    if arg.mutable:
        Strategy.build(name, "careless", base=base, **{point: decide})   # memory, rng, answer: allowed
        return
    with pytest.raises(DecisionError) as caught:
        Strategy.build(name, "careless", base=base, **{point: decide})
    assert str(caught.value).startswith(f"strategy careless, decision {point}: writes to its read-only "
                                        f"argument 'a{index}'"), str(caught.value)
    assert str(caught.value).endswith("(careless.py, line 2)")


def test_every_game_shows_its_state_read_only_and_leaves_the_answer_writable():
    for name, game in all_games().items():
        for point, signature in game.decisions.items():
            arrays = [arg for arg in signature.args if isinstance(arg, types.Array)]
            assert any(not arg.mutable for arg in arrays), f"{name}.{point} shows nothing read-only"
            assert any(arg.mutable for arg in arrays), f"{name}.{point} has no memory or answer buffer"
