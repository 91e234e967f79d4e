"""The small careless-strategy campaign (tests/careless_behaviours.py has the large one, a command): each of the
17 behaviours in a Wheedle line-up, and the issue's own examples in the other games, end ``simkit run`` with the
documented exit status, one line naming what went wrong, and nothing written."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simkit import pool
from simkit.cli import main

from .careless_behaviours import BEHAVIOURS, case_command, judge, strategy_source

BY_NAME = {b.name: b for b in BEHAVIOURS}
CASES = [("wheedle", b.name, 3, b.name in ("rng-one-past", "raises")) for b in BEHAVIOURS] + [
    ("wheeler-dealer-us", "answer-8-past", 2, False), ("dweebies", "flat-write-readonly", 2, False),
    ("wheeler-dealer-uk", "flat-write-readonly", 3, False), ("wheeler-dealer-uk", "memory-one-past", 3, True)]


def _module(game, name, players, check):
    return f"careless_{name.replace('-', '_')}_{game.replace('-', '_')}_{players}{'c' if check else ''}_t"


def test_the_campaign_has_its_17_behaviours():
    assert len(BEHAVIOURS) == 17 and len(BY_NAME) == 17


@pytest.mark.parametrize("game, name, players, check", CASES, ids=[f"{g}-{n}" for g, n, _, _ in CASES])
def test_a_careless_strategy_ends_the_command_in_one_line(game, name, players, check, tmp_path, monkeypatch, capsys):
    behaviour = BY_NAME[name]
    module = _module(game, name, players, check)
    (tmp_path / f"{module}.py").write_text(strategy_source(game, behaviour, module))
    out = tmp_path / "out"
    argv = case_command(game, behaviour, players, check, out, module) + ["-q", "-w", "2", "--chunk-size", "10"]
    if behaviour.needs_supervisor:      # a crash or a stuck decision: only a supervised simkit process tells
        done = subprocess.run([str(Path(sys.executable).parent / "simkit"), *argv], cwd=tmp_path, capture_output=True,
                              text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(tmp_path)})
        status, stderr = done.returncode, done.stderr
    else:
        monkeypatch.setattr(pool, "_credit", [pool.SAMPLE_EVERY])    # a command's first games are sampled
        monkeypatch.chdir(tmp_path)
        monkeypatch.syspath_prepend(str(tmp_path))
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        status, stderr = exit_.value.code, capsys.readouterr().err
        sys.modules.pop(module, None)
    assert judge(game, behaviour, status, stderr, out) is None
