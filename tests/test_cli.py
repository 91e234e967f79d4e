"""The `simkit` command end to end: every game and strategy, rules, games, summary, replay, report."""
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

import simkit
from simkit.cli import cli
from simkit.games import all_games
from simkit.strategy import registered

ROOT = Path(__file__).resolve().parents[1]
SIMKIT = Path(sys.executable).with_name("simkit")


def invoke(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result


def _combos():
    combos = []
    for game in sorted(all_games()):
        try:
            combos += [(game, strategy) for strategy in registered(game)]
        except Exception:  # a broken strategies module fails its own test, not the collection of this file
            combos.append((game, None))
    return combos


COMBOS = _combos()


@pytest.mark.parametrize("game_name, strategy", COMBOS, ids=[f"{g}-{s}" for g, s in COMBOS])
def test_every_strategy_runs(tmp_path, game_name, strategy):
    game = all_games()[game_name]
    if strategy is None:
        registered(game_name)  # raises the import error of the game's strategies module
        pytest.fail(f"{game_name}: strategies module could not be loaded at collection")
    n = len(game.default_lineup)
    out = tmp_path / "run"
    result = invoke("run", game_name, "--players", ",".join([strategy] * n), "--games", 20, "--out", out,
                    "--quiet", "--workers", 1, "--seed", 4)
    assert result.exit_code == 0, result.output
    frame = simkit.load(out)
    assert len(frame) == 20 * n
    assert set(frame["strategy"].astype(str)) == {strategy}
    manifest = frame.attrs["manifest"]
    assert manifest["game"] == game_name and manifest["games"] == 20 and manifest["seed"] == 4
    assert [seat["strategy"] for seat in manifest["lineup"]] == [strategy] * n
    assert tomllib.loads((out / "rules.toml").read_text()) == game.rules()


@pytest.mark.parametrize("game_name", sorted(all_games()))
def test_strategies_lists_every_name(game_name):
    result = invoke("strategies", game_name)
    assert result.exit_code == 0
    listed = {line.strip() for line in result.output.splitlines() if line and not line.startswith(" ")}
    assert listed == set(registered(game_name))
    for strategy in registered(game_name).values():
        for key in strategy.params:
            assert f"{key}=" in result.output


@pytest.mark.parametrize("game_name", sorted(all_games()))
def test_rules_prints_the_defaults(game_name):
    result = invoke("rules", game_name)
    assert result.exit_code == 0
    assert tomllib.loads(result.output) == all_games()[game_name].default_rules
    assert "#" in result.output, "the defaults are printed with their comments"


def test_rules_with_overrides(tmp_path):
    path = tmp_path / "h.toml"
    path.write_text("[scoring]\nstop_bonus = 8\n")
    result = invoke("rules", "wheedle", "--rules", path, "--set", "options.max_ticks=77")
    assert result.exit_code == 0
    effective = tomllib.loads(result.output)
    assert effective["scoring"]["stop_bonus"] == 8 and effective["options"]["max_ticks"] == 77
    assert effective["company"] == all_games()["wheedle"].default_rules["company"]


def test_games_lists_every_game():
    result = invoke("games")
    assert result.exit_code == 0
    for name, game in all_games().items():
        assert name in result.output and game.title in result.output
        assert ",".join(game.default_lineup) in result.output


def test_summary_text(run_dir):
    result = invoke("summary", run_dir)
    assert result.exit_code == 0
    assert result.output.startswith("Wheedle, 4 players (hair-trigger, threshold, patient, blocker), default rules")
    assert "- 200 games, seed 3;" in result.output
    for label in ("hair-trigger", "threshold", "patient", "blocker"):
        assert label in result.output
    assert "by strategy" in result.output and "by seat" in result.output


def test_summary_json(run_dir):
    result = invoke("summary", run_dir, "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert (data["game"], data["games"], data["seed"], data["score"]) == ("wheedle", 200, 3, "points")
    assert sum(row["n"] for row in data["by_strategy"]) == 800
    assert [row["seat"] for row in data["by_seat"]] == [0, 1, 2, 3]
    frame = simkit.load(run_dir)
    for row in data["by_seat"]:
        seat = frame[frame["seat"] == row["seat"]]
        assert row["n"] == 200
        assert row["win_rate"] == pytest.approx(seat["winner"].mean())
        assert row["mean_points"] == pytest.approx(seat["points"].mean())
        assert row["win_low"] - 1e-12 <= row["win_rate"] <= row["win_high"] + 1e-12
    assert sum(row["win_rate"] for row in data["by_seat"]) >= 1.0


def test_house_rule_count_is_labelled(tmp_path):
    out = tmp_path / "house"
    assert invoke("run", "wheedle", "--players", "random,hair-trigger,blocker", "--games", 10, "--out", out,
                  "-q", "-w", 1).exit_code == 0
    assert simkit.load(out).attrs["manifest"]["official_player_count"] is False
    assert "house-rule" in invoke("summary", out).output


def test_replay_prints_rounds_and_scores():
    result = invoke("replay", "wheedle", "--seed", 7, "--game", 3)
    assert result.exit_code == 0
    text = result.output
    assert "game 3 of seed 7" in text
    for r in range(1, 5):
        assert f"== Round {r}:" in text
        assert f"end of round {r}:" in text
    final = text.split("== Final scores")[1]
    scores = re.findall(r"seat (\d) \(([^)]*)\): (-?\d+) points", final)
    assert [int(s) for s, _, _ in scores] == [0, 1, 2, 3]
    # the same game inside a batch scores the same
    frame = simkit.run("wheedle", games=4, seed=7)
    game3 = frame[frame["game"] == 3].sort_values("seat")
    assert [int(p) for _, _, p in scores] == game3["points"].tolist()
    assert "WINNER" in final


def test_replay_with_rules_and_players():
    result = invoke("replay", "wheedle", "--seed", 1, "--game", 0, "--players", "never-stop,never-stop,never-stop",
                    "--set", "options.max_ticks=4")
    assert result.exit_code == 0
    assert "house rule" in result.output
    assert result.output.count("stalemate") >= 3


def test_report_is_self_contained(run_dir, tmp_path):
    output = tmp_path / "report.html"
    result = invoke("report", run_dir, "-o", output)
    assert result.exit_code == 0
    html = output.read_text()
    assert html.count("data:image/png;base64,") >= 3
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html), "no external resources"
    assert "<link" not in html and "<script src" not in html
    for label in ("hair-trigger", "threshold", "patient", "blocker"):
        assert label in html


@pytest.mark.parametrize("game_name", sorted(all_games()))
def test_report_renders_every_plot_for_every_game(game_name, tmp_path):
    from simkit.reports import plots_for

    game = all_games()[game_name]
    main_run, other = tmp_path / "a", tmp_path / "b"
    assert invoke("run", game_name, "--games", 40, "--out", main_run, "--quiet", "--workers", 1).exit_code == 0
    smaller = ",".join(game.default_lineup[:-1]) if len(game.default_lineup) - 1 in game.all_player_counts else None
    also = []
    if smaller:
        assert invoke("run", game_name, "--games", 40, "--players", smaller, "--out", other, "--quiet",
                      "--workers", 1).exit_code == 0
        also = ["--also", other]
    result = invoke("report", main_run, "-o", tmp_path / "r.html", *also)
    assert result.exit_code == 0, result.output
    html = (tmp_path / "r.html").read_text()
    distinct = len(set(game.default_lineup)) == len(game.default_lineup)
    for figure in plots_for(game):
        # with a strategy per seat the seat plot would repeat the strategy plot, so it is left out
        drawn = f"<h2>{figure.title}</h2><img" in html.replace("&#39;", "'")
        assert drawn != (figure.name == "seat_effects" and distinct), figure.name


def test_report_refuses_a_run_of_another_game(cli_error, run_dir, tmp_path):
    other = tmp_path / "d"
    assert invoke("run", "dweebies", "--games", 5, "--out", other, "--quiet", "--workers", 1).exit_code == 0
    assert "not wheedle" in cli_error(["report", str(run_dir), "--also", str(other), "-o", str(tmp_path / "r.html")])


def test_dweebies_replay_draws_the_table():
    result = invoke("replay", "dweebies", "--seed", 2, "--game", 5, "--players", "random,greedy")
    assert result.exit_code == 0
    assert result.output.count("turn ") == 54 and "[" in result.output and "WINNER" in result.output


# ---- user strategies by module:attr, and parameters ----

USER_MODULE = """
from simkit.strategy import Strategy, registered


def passive(hand, public, seen, params, memory, state, action):
    return 0  # PASS


mine = Strategy.build("wheedle", "mine", base=registered("wheedle")["hair-trigger"], act=passive)
"""


def test_user_strategy_module_attr(tmp_path, clean_sys_path):
    (tmp_path / "usermod_cli.py").write_text(textwrap.dedent(USER_MODULE))
    clean_sys_path.chdir(tmp_path)
    out = tmp_path / "run"
    result = invoke("run", "wheedle", "--players", "usermod_cli:mine,hair-trigger,threshold,blocker", "--games", 30,
                    "--out", out, "-q", "-w", 1)
    assert result.exit_code == 0, result.output
    frame = simkit.load(out)
    mine = frame[frame["seat"] == 0]
    assert (mine["strategy"].astype(str) == "mine").all()
    assert (mine["offers"] == 0).all() and (mine["stops"] == 0).all() and (mine["swaps"] == 0).all()
    assert (mine["illegal_actions"] == 0).all()
    assert frame.loc[frame["seat"] != 0, "offers"].sum() > 0
    # it still accepts offers (accept comes from hair-trigger)
    assert mine["offers_accepted"].sum() > 0
    lineup = frame.attrs["manifest"]["lineup"]
    assert lineup[0]["module"] == "usermod_cli" and lineup[0]["label"] == "mine"
    assert lineup[1]["module"] == "simkit.strategies.wheedle"


def test_parameters_change_label_and_manifest(tmp_path):
    out = tmp_path / "run"
    result = invoke("run", "wheedle", "--players", "threshold:points=30,hair-trigger,threshold,blocker",
                    "--games", 20, "--out", out, "-q", "-w", 1)
    assert result.exit_code == 0, result.output
    frame = simkit.load(out)
    assert frame.loc[frame["seat"] == 0, "strategy"].astype(str).unique().tolist() == ["threshold:points=30"]
    assert frame.loc[frame["seat"] == 2, "strategy"].astype(str).unique().tolist() == ["threshold"]
    lineup = frame.attrs["manifest"]["lineup"]
    assert lineup[0]["params"]["points"] == 30 and lineup[0]["label"] == "threshold:points=30"
    assert lineup[2]["params"]["points"] == registered("wheedle")["threshold"].params["points"]
    assert set(simkit.summarize(frame)["strategy"].index) == {"threshold:points=30", "threshold", "hair-trigger",
                                                              "blocker"}


def test_parameter_changes_play():
    a = simkit.run("wheedle", games=40, seed=2, players=["threshold:points=10", "hair-trigger", "patient", "blocker"])
    b = simkit.run("wheedle", games=40, seed=2, players=["threshold:points=40", "hair-trigger", "patient", "blocker"])
    assert not a["points"].equals(b["points"])


def test_overwrite(tmp_path):
    out = tmp_path / "run"
    assert invoke("run", "wheedle", "--games", 5, "--out", out, "-q", "-w", 1).exit_code == 0
    assert invoke("run", "wheedle", "--games", 7, "--out", out, "-q", "-w", 1, "--overwrite").exit_code == 0
    assert simkit.load(out).attrs["manifest"]["games"] == 7
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"], "no staging directory left behind"


def test_installed_script_end_to_end(tmp_path):
    out = tmp_path / "e2e"
    done = subprocess.run([str(SIMKIT), "run", "wheedle", "--games", "30", "--seed", "5", "--out", str(out),
                           "--workers", "2", "--chunk-size", "7"], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "30 games of wheedle written to" in done.stdout
    assert len(list(out.glob("part-*.parquet"))) == 5
    frame = simkit.load(out)
    again = simkit.run("wheedle", games=30, seed=5)
    assert frame.drop(columns="strategy").equals(again.drop(columns="strategy"))
    done = subprocess.run([str(SIMKIT), "summary", str(out), "--json"], capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout)["games"] == 30


def test_installed_script_error_exit(tmp_path):
    done = subprocess.run([str(SIMKIT), "run", "wheedle", "--games", "5", "--out", str(tmp_path / "x"),
                           "--set", "options.nope=1"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("simkit: error:")
    assert "options.nope" in done.stderr
    assert not (tmp_path / "x").exists()


def test_version_and_help():
    assert invoke("--version").exit_code == 0
    result = invoke("--help")
    assert result.exit_code == 0
    for command in ("run", "summary", "report", "replay", "rules", "games", "strategies"):
        assert command in result.output


def test_report_when_a_strategy_never_wins(tmp_path):
    lineup = ["random", "hair-trigger", "hair-trigger", "hair-trigger"]
    for seed in range(200):  # the first small run in which `random` never wins
        frame = simkit.run("wheedle", games=7, seed=seed, players=lineup)
        if not frame.loc[frame["seat"] == 0, "winner"].any():
            break
    else:
        pytest.skip("no 7-game run without a win for random")
    out = tmp_path / "run"
    simkit.run("wheedle", games=7, seed=seed, players=lineup, out=out)
    result = CliRunner().invoke(cli, ["report", str(out), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output


def test_a_command_loads_only_the_engine_of_its_game():
    """Game names come from the folders and a game's declaration imports no engine, so starting simkit or reading
    every declaration loads none, and playing a game loads its own."""
    from simkit.games import game_names

    assert game_names() == list(all_games())
    code = ("import sys; from simkit.cli import main; loaded = lambda: sorted(m.split('.')[2] for m in sys.modules "
            "if m.startswith('simkit.games.') and m.endswith('.engine')); print(loaded()); "
            "from simkit.games import all_games, get_game; all_games(); print(loaded()); "
            "get_game('dweebies').play; print(loaded())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.splitlines() == ["[]", "[]", "['dweebies']"]
