"""W1: every analysis output of a player count outside the rulebook says so (terminal, findings.txt and
report.html), from one helper (simkit.analysis.result.player_count_note); rate intervals stay in [0, 1]."""
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simkit.analysis.result import player_count_note
from simkit.analysis.stats import block_means, rate_means
from simkit.cli import cli

NOTE = "HOUSE RULE: 3 players is outside the official rules of Wheedle (4, 5, 6 players)"

COMMANDS = {
    "compare": ["compare", "wheedle", "--players", "hair-trigger,blocker,random", "--set-b", "scoring.false_stop=-10",
                "--games", "30"],
    "balance": ["balance", "wheedle", "--players", "hair-trigger,blocker,random", "--games", "30"],
    "sweep": ["sweep", "wheedle", "--strategy", "threshold", "--param", "points=16|24", "--field", "hair-trigger,random",
              "--games", "20"],
    "tournament": ["tournament", "wheedle", "--strategies", "hair-trigger,blocker,random,patient", "--players", "3",
                   "--games", "40"],
}


def _invoke(args):
    result = CliRunner().invoke(cli, [*args, "-w", "1"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module", params=sorted(COMMANDS))
def analysed(request, tmp_path_factory):
    """(command, what it printed, its results directory), each command run once at 3 players."""
    out = tmp_path_factory.mktemp(request.param) / "out"
    return request.param, _invoke([*COMMANDS[request.param], "--out", str(out)]), out


def test_every_analysis_command_labels_a_house_rule_player_count(analysed):
    command, printed, out = analysed
    assert NOTE in printed
    assert NOTE in (out / f"01-{command}" / "findings.txt").read_text()
    assert NOTE in (out / "report.html").read_text()


def test_an_experiment_labels_its_house_rule_analyses_only(tmp_path):
    source = tmp_path / "exp.toml"
    source.write_text('game = "wheedle"\nseed = 3\ngames = 24\n'
                      '[[analysis]]\nkind = "balance"\nplayers = ["hair-trigger", "blocker", "random"]\n'
                      '[[analysis]]\nkind = "balance"\nplayers = ["hair-trigger", "blocker", "random", "patient"]\n')
    printed = _invoke(["experiment", "run", str(source), "--out", str(tmp_path / "out")])
    assert printed.count(NOTE) == 1
    assert NOTE in (tmp_path / "out/01-balance/findings.txt").read_text()
    assert "HOUSE RULE" not in (tmp_path / "out/02-balance/findings.txt").read_text()
    assert NOTE in (tmp_path / "out/report.html").read_text()


def test_official_counts_carry_no_label():
    assert player_count_note("wheedle", 4) == "" and player_count_note("wheedle", 6) == ""
    assert player_count_note("wheedle", 2).startswith("HOUSE RULE: 2 players")


def test_rate_intervals_are_wilson_and_stay_in_0_1():
    # 1 win in 60 blocks: the normal interval's lower bound is negative, Wilson's is not
    wins = pd.DataFrame({"rare": [1.0] + [0.0] * 59, "never": [0.0] * 60, "always": [1.0] * 60})
    normal = block_means(wins)
    assert normal.loc["rare", "low"] < 0
    rates = rate_means(wins)
    assert (rates["low"] >= 0).all() and (rates["high"] <= 1).all()
    assert rates.loc["never", "low"] == 0 and rates.loc["never", "high"] > 0
    assert rates.loc["always", "high"] == 1 and rates.loc["always", "low"] < 1
    # binary blocks: exactly the binomial Wilson interval, (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)
    z, n, p = 1.959963984540054, 60, 1 / 60
    centre, half = p + z * z / (2 * n), z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert rates.loc["rare", "low"] == pytest.approx((centre - half) / (1 + z * z / n))     # 0.00295
    assert rates.loc["rare", "high"] == pytest.approx((centre + half) / (1 + z * z / n))    # 0.08855


def test_rate_intervals_of_averaged_blocks_are_as_narrow_as_their_spread():
    # blocks that average four seat orders vary less than 0/1 outcomes: the interval narrows with them
    gen = np.random.default_rng(0)
    averaged = pd.DataFrame({"rate": gen.binomial(4, 0.3, 2000) / 4})
    rates, normal = rate_means(averaged).iloc[0], block_means(averaged).iloc[0]
    assert rates["high"] - rates["low"] == pytest.approx(normal["high"] - normal["low"], rel=0.02)


def test_every_rate_interval_of_the_analyses_lies_in_0_1(analysed):
    command, _, out = analysed
    rates = {"balance": {"strategies": "win", "head_to_head": ""}, "tournament": {"standings": "win_rate"},
             "sweep": {"curve": "win"}, "compare": {}}[command]
    for table, prefix in rates.items():
        frame = pd.read_csv(out / f"01-{command}" / f"{table}.csv")
        low, high = (f"{prefix}_low", f"{prefix}_high") if prefix else ("low", "high")
        values = frame[[low, high]].dropna().to_numpy()
        assert len(values) and ((values >= 0) & (values <= 1)).all(), (table, low)
