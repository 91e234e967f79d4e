"""Every command that simulates shows one progress bar on stderr (games done of the total, games/s, ETA) where
someone watches, and nothing where no one does (stderr not a terminal, --quiet, SIMKIT_PROGRESS=0)."""
import re
from pathlib import Path

import pytest

from simkit import progress
from simkit.cli import main
from simkit.rules import read_toml

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = {
    "run": ["run", "wheedle", "--games", "300", "--chunk-size", "100", "--out", "{tmp}/run"],
    "compare": ["compare", "wheedle", "--set-b", "scoring.false_stop=-10", "--games", "200"],
    "sequential compare": ["compare", "wheedle", "--set-b", "scoring.false_stop=-10", "--games", "4000",
                           "--until-decided", "--target", "0.5"],
    "tournament": ["tournament", "wheedle", "--strategies", "hair-trigger,threshold,patient,blocker,bluffer",
                   "--players", "4", "--games", "200"],
    "sweep": ["sweep", "wheedle", "--strategy", "threshold", "--param", "points=10:30:10", "--games", "100"],
    "balance": ["balance", "wheedle", "--games", "200"],
    "experiment run": ["experiment", "run", str(ROOT / "experiments" / "wheedle-false-stop.toml"), "--games", "80",
                       "--out", "{tmp}/experiment"],
    "fuzz": ["fuzz", "dweebies", "--games", "20", "--games-per-case", "5"],
    "metagame": ["metagame", "wheedle", "--strategies", "hair-trigger,threshold,blocker", "--players", "3", "--games",
                 "60", "--bootstrap", "5"],
}
# A bar's state: "<label>: 100%|...| 300/300 [00:01<00:00, 245 games/s]" (tqdm redraws it after each \r).
STATE = re.compile(r"(?:^|\r)(?:([^\r]*?): )?\s*(\d+)%\|[^|]*\| ([\d.]+k?)/([\d.]+k?) \[[^\]]*games/s\]")


def bars(err: str) -> list[tuple[str, str, str]]:
    """(label, done, total) of each bar's last state on ``err``."""
    last = {}
    for match in STATE.finditer(err):
        last[match[1] or ""] = (match[3], match[4])
    return [(name, done, total) for name, (done, total) in last.items()]


def run(argv, tmp_path, capsys, extra=()):
    capsys.readouterr()
    try:
        main([arg.format(tmp=tmp_path) for arg in argv] + ["-w", "2", *extra])
    except SystemExit as exc:
        assert exc.code in (0, None), capsys.readouterr().err
    return capsys.readouterr().err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_that_simulates_shows_one_bar_that_reaches_its_total(command, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(progress.ENV, "1")      # stderr is no terminal here: draw it anyway
    shown = bars(run(COMMANDS[command], tmp_path, capsys))
    assert shown, "no progress bar"
    for name, done, total in shown:
        assert done == total, (name, done, total)
    if command == "experiment run":
        names = [analysis["name"] for analysis in read_toml(COMMANDS[command][2])["analysis"]]
        assert [name for name, _, _ in shown] == [f"{k}/{len(names)} {name}" for k, name in enumerate(names, 1)]
    else:
        assert len(shown) == 1


def test_no_bar_where_no_one_watches(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(progress.ENV, raising=False)
    assert run(COMMANDS["tournament"], tmp_path, capsys) == ""          # stderr is not a terminal
    monkeypatch.setenv(progress.ENV, "0")
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert not progress.shown()
    monkeypatch.delenv(progress.ENV)
    assert progress.shown()
    assert run(COMMANDS["sweep"], tmp_path, capsys, ["--quiet"]) == ""


def test_a_bar_inside_a_bar_advances_the_outer_one(monkeypatch):
    monkeypatch.setenv(progress.ENV, "1")
    with progress.games(10) as outer:
        with progress.games(99) as inner:
            inner.update(4)
        assert inner is outer and outer.tqdm.n == 4 and outer.tqdm.total == 10
        outer.finish_early()
        assert outer.tqdm.total == 4
