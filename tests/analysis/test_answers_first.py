"""Issue 14, items 1-3: every output says what was tested on its first line (terminal, findings.txt, report),
answers come first with compact tables (long ones in files or --verbose), games and deals agree, compare
gives the swapped seat's paired difference, balance has an A/B card, and a tournament says which
neighbours in its ranking differ. Paired differences are recomputed here from the games themselves."""
import re

import numpy as np
import pytest
from click.testing import CliRunner
from markupsafe import escape

import simkit
from simkit.analysis import balance, compare, tournament
from simkit.analysis.play import rotate
from simkit.analysis.tournament import neighbour_gaps
from simkit.cli import cli
from simkit.results import strategy_gap
from simkit.stats import Z95

from ..helpers import answers

CHANGE = "scoring.false_stop: -5 -> -10 (house rules)"
LINEUP = "hair-trigger, threshold, patient, blocker"


def invoke(*args) -> str:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def first_line(text: str) -> str:
    return text.splitlines()[0]


@pytest.fixture(scope="module")
def run_with_change(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "w"
    printed = invoke("run", "wheedle", "--games", 60, "--seed", 2, "--set", "scoring.false_stop=-10", "--out", out,
                     "-w", 1)
    return out, printed


ANALYSES = {
    "compare": (["compare", "wheedle", "--set", "scoring.false_stop=-10", "--set-b", "options.rounds=3",
                 "--games", 30], f"Wheedle, 4 players ({LINEUP}), rules changed: {CHANGE}; B: rules changed: "
                                 "scoring.false_stop: -5 -> -10; options.rounds: \"players\" -> 3 (house rules)"),
    "balance": (["balance", "wheedle", "--set", "scoring.false_stop=-10", "--games", 40],
                f"Wheedle, 4 players ({LINEUP}), rules changed: {CHANGE}"),
    "sweep": (["sweep", "wheedle", "--strategy", "threshold", "--param", "points=16|24", "--set",
               "scoring.false_stop=-10", "--games", 20],
              "Wheedle, 4 players (threshold (points swept), threshold, patient, blocker), rules changed: "
              f"{CHANGE}; swept: points over 16, 24"),
    "tournament": (["tournament", "wheedle", "--strategies", "hair-trigger,blocker,random,patient,threshold",
                    "--set", "scoring.false_stop=-10", "--games", 100],
                   "Wheedle, 4 players drawn from 5 strategies (hair-trigger, blocker, random, patient, threshold), "
                   f"rules changed: {CHANGE}"),
}


@pytest.fixture(scope="module", params=sorted(ANALYSES))
def analysed(request, tmp_path_factory):
    args, expected = ANALYSES[request.param]
    out = tmp_path_factory.mktemp(request.param) / "out"
    return request.param, invoke(*args, "-w", 1, "--out", out), out, expected


def test_a_run_summary_and_report_start_with_what_was_tested(run_with_change):
    out, printed = run_with_change
    expected = f"Wheedle, 4 players ({LINEUP}), rules changed: {CHANGE}"
    assert first_line(printed) == expected
    assert first_line(invoke("summary", out)) == expected
    assert first_line(invoke("report", out)) == expected
    assert f"<h1>{escape(expected)}</h1>" in (out / "report.html").read_text()


@pytest.mark.parametrize("args, expected", [
    (["wheedle", "--set", "scoring.false_stop=-10"], f"Wheedle, 4 players ({LINEUP}), rules changed: {CHANGE}"),
    (["wheeler-dealer-us", "--set", "game.level=2", "--players", "kelly,builder,random"],
     "Wheeler-Dealer (US), level 2, 3 players (kelly, builder, random), default rules (official)"),
])
def test_a_replay_starts_with_what_was_tested(args, expected):
    printed = invoke("replay", *args, "--seed", 7, "--game", 2)
    assert first_line(printed) == expected
    assert printed.splitlines()[1].startswith(expected.split(",")[0] + ", game 2 of seed 7")   # then the game itself


def test_every_analysis_starts_with_what_was_tested(analysed):
    command, printed, out, expected = analysed
    assert first_line(printed) == expected
    assert first_line((out / f"01-{command}" / "findings.txt").read_text()) == expected
    page = (out / "report.html").read_text()
    assert f"<strong>Tested:</strong> {escape(expected)}</p>" in page
    assert first_line(invoke("report", out)) == expected
    # the effective rules appear as what differs from the defaults, never as a dump of rule data or set-up
    assert "<pre>" not in page and "rules_effective" not in page and "[scoring]" not in printed
    assert "false_stopper_cards" not in page and "false_stopper_cards" not in printed


def test_an_experiment_starts_with_what_it_tested(tmp_path):
    source = tmp_path / "exp.toml"
    source.write_text('game = "wheeler-dealer-us"\nseed = 3\ngames = 16\nsets = ["game.level=2"]\n'
                      '[[analysis]]\nkind = "balance"\n[[analysis]]\nkind = "compare"\n'
                      'sets_b = ["commodity.0.total_return=28000"]\n')
    printed = invoke("experiment", "run", source, "--out", tmp_path / "out", "-w", 1)
    assert first_line(printed).startswith("Wheeler-Dealer (US), level 2, default rules (official); 2 analyses")
    each = [line for line in printed.splitlines() if line.startswith("Wheeler-Dealer (US), level 2, 4 players")]
    assert len(each) == 2 and each[1].endswith(
        "B: rules changed: commodity.0.total_return: 30,000 -> 28,000 (house rules)")
    assert first_line(invoke("report", tmp_path / "out")) == first_line(printed)


def test_balance_prints_findings_and_compact_tables_not_the_length_distribution(tmp_path):
    printed = invoke("balance", "wheedle", "--games", 200, "-w", 1)
    lines = printed.splitlines()
    assert len(lines) < 60 and "[length]" not in printed
    assert lines[3].startswith("- 200 games (50 deals x 4 seat orders)")      # the findings come right after
    assert "Not shown: length (" in printed and "--verbose" in printed
    verbose = invoke("balance", "wheedle", "--games", 200, "-w", 1, "--verbose")
    assert "[length]" in verbose and len(verbose.splitlines()) > len(lines)


@pytest.mark.parametrize("command", ["compare", "balance", "sweep"])
def test_rotated_games_and_deals_agree_in_findings_and_tables(command):
    kwargs = {"games": 60, "seed": 5, "players": ["greedy", "pair-keeper", "random"]}
    if command == "compare":
        result = compare("dweebies", sets_b=["game.min_line=3"], rotate_seats=True, **kwargs)
        tables = [result.tables["strategy"], result.tables["seat"]]
    elif command == "balance":
        result = balance("dweebies", **kwargs)
        tables = [result.tables["seats"]]
    else:
        from simkit.analysis import sweep
        result = sweep("dweebies", rule="game.min_line=2|3", rotate_seats=True, **kwargs)
        tables = [result.tables["curve"], result.tables["focus"]]
    assert re.search(r"^(2 points of game.min_line, )?60 games( per side)? \(20 deals x 3 seat orders\)",
                     answers(result.findings)[0]), result.findings[0]
    for table in tables:
        assert (table["deals"] == 20).all()


def _seat_wins(lineup, seed, games, sets=()):
    """Per game, each seat's win (0/1) from a plain run in memory: rows games, columns seats."""
    frame = simkit.run("wheeler-dealer-us", games=games, players=lineup, seed=seed, sets=list(sets), workers=1)
    return frame.pivot(index="game", columns="seat", values="winner").astype(float)


def _normal(d: np.ndarray):
    half = Z95 * d.std(ddof=1) / np.sqrt(len(d))
    return d.mean(), d.mean() - half, d.mean() + half


A = ["kelly", "copper-only", "poacher", "builder"]
B = ["copper-only", "copper-only", "poacher", "builder"]


def test_compare_gives_the_swapped_seats_paired_difference():
    result = compare("wheeler-dealer-us", players=A, players_b=B, games=300, seed=8)
    swapped = result.tables["swapped"]
    assert list(swapped.index) == [0] and swapped.loc[0, "label_a"] == "kelly"
    d = (_seat_wins(B, 8, 300)[0] - _seat_wins(A, 8, 300)[0]).to_numpy()   # recomputed from the games
    diff, low, high = _normal(d)
    assert swapped.loc[0, ["win_diff", "win_low", "win_high"]].tolist() == pytest.approx([diff, low, high])
    line = next(f for f in result.findings if f.startswith("seat 0: kelly -> copper-only: win rate"))
    assert f"B - A {diff * 100:+.1f} points [{low * 100:+.1f}, {high * 100:+.1f}]" in line
    assert "mean net worth $" in line.replace("-$", "$").replace("+$", "$")


def test_rotated_compare_gives_the_swapped_entrys_difference_over_every_seat():
    result = compare("wheeler-dealer-us", players=A, players_b=B, games=200, seed=9, rotate_seats=True)
    deals = 50
    entry0 = {}
    for side, lineup in (("a", A), ("b", B)):
        # rotation r plays the line-up rotated by r: entry 0 sits in seat r; the deal's value is its mean
        entry0[side] = np.mean([_seat_wins(rotate(lineup, r), 9, deals)[r].to_numpy() for r in range(4)], axis=0)
    diff, low, high = _normal(entry0["b"] - entry0["a"])
    row = result.tables["swapped"].loc[0]
    assert row[["win_diff", "win_low", "win_high"]].tolist() == pytest.approx([diff, low, high])
    assert any(f.startswith("entry 0 (every seat in turn): kelly -> copper-only") for f in result.findings)


def test_the_swapped_seat_is_in_the_terminal_findings_and_report(tmp_path):
    printed = invoke("compare", "wheeler-dealer-us", "--players-a", ",".join(A), "--players-b", ",".join(B),
                     "--games", 40, "-w", 1, "--out", tmp_path / "out")
    assert "- seat 0: kelly -> copper-only: win rate" in printed and "[swapped]" in printed
    assert "seat 0: kelly -&gt; copper-only: win rate" in (tmp_path / "out/report.html").read_text()
    assert "seat 0: kelly -> copper-only" in (tmp_path / "out/01-compare/findings.txt").read_text()


def test_an_ab_balance_card_of_no_change_is_exactly_zero():
    # a -10 false stop moves nothing when nobody false-stops (the default line-up): every change is 0
    result = balance("wheedle", games=80, seed=2, sets_b=["scoring.false_stop=-10"])
    assert (result.tables["seats"][["win_advantage_change", "win_advantage_change_low",
                                    "win_advantage_change_high"]] == 0).all().all()
    assert result.tables["spread"].loc["B - A"].tolist() == [0, 0, 0]
    assert "change 0.0 points [0.0, 0.0] (no significant difference at 95%)" in answers(result.findings)[1]
    assert result.findings[0].startswith("Rule change scoring.false_stop: -5 -> -10 came into play in 0 of the 160 "
                                         "games played")


def test_an_ab_balance_card_pairs_seat_advantage_and_spread_by_deal():
    result = balance("wheeler-dealer-us", players=A, players_b=B, games=160, seed=4)
    deals = 40
    advantage, rates = {}, {}
    for side, lineup in (("a", A), ("b", B)):
        wins = [_seat_wins(rotate(lineup, r), 4, deals) for r in range(4)]       # per rotation: games x seats
        seat = np.mean([w.to_numpy() for w in wins], axis=0)                      # per deal: each seat's mean
        advantage[side] = seat - seat.mean(axis=1, keepdims=True)
        # entry i of the line-up sits in seat (i + r) mod 4 in rotation r
        entry = np.mean([w.to_numpy()[:, [(i + r) % 4 for i in range(4)]] for r, w in enumerate(wins)], axis=0)
        labels = list(dict.fromkeys(lineup))
        rates[side] = [entry[:, [i for i, x in enumerate(lineup) if x == label]].mean() for label in labels]
    for seat in range(4):
        diff, low, high = _normal(advantage["b"][:, seat] - advantage["a"][:, seat])
        row = result.tables["seats"].loc[seat]
        assert row[["win_advantage_change", "win_advantage_change_low", "win_advantage_change_high"]].tolist() == \
            pytest.approx([diff, low, high])
    spread = result.tables["spread"]["win_spread"]
    assert spread["A"] == pytest.approx(max(rates["a"]) - min(rates["a"]))
    assert spread["B"] == pytest.approx(max(rates["b"]) - min(rates["b"]))
    assert spread["B - A"] == pytest.approx(spread["B"] - spread["A"])
    low, high = result.tables["spread"].loc["B - A", ["win_spread_low", "win_spread_high"]]
    assert low < spread["B - A"] < high
    assert answers(result.findings)[1].startswith("Seat advantage of seat 0, the first player")
    assert answers(result.findings)[2].startswith("Strategy spread (the best strategy's win rate minus the worst's): A ")
    assert any(f.startswith("entry 0 (every seat in turn): kelly -> copper-only") for f in result.findings)


def test_balance_cli_takes_set_b_and_names_b_in_its_headline():
    printed = invoke("balance", "wheeler-dealer-us", "--set-b", "game.level=2", "--games", 40, "-w", 1)
    assert first_line(printed) == ("Wheeler-Dealer (US), level 1, 4 players (kelly, copper-only, poacher, builder), "
                                   "default rules (official); B: level 2, default rules (official)")
    assert "- Seat advantage of seat 0, the first player" in printed and "Game length (turns): mean A " in printed


def test_neighbour_gaps_use_the_paired_bootstrap_differences():
    gen = np.random.default_rng(0)
    common = gen.normal(0, 30, 500)            # resamples move neighbours together: the gap is tighter
    samples = np.column_stack([100 + common + gen.normal(0, 2, 500), 90 + common + gen.normal(0, 2, 500),
                               0 + gen.normal(0, 2, 500)])
    gaps = neighbour_gaps(np.array([100.0, 90.0, 0.0]), samples)
    assert gaps["ahead_of_next"].tolist() == ["significant and larger than negligible"] * 2 + [""]
    low, high = np.percentile(samples[:, 0] - samples[:, 1], [2.5, 97.5])
    assert gaps.loc[0, ["lead_over_next_low", "lead_over_next_high"]].tolist() == pytest.approx([low, high])
    tied = neighbour_gaps(np.array([1.0, 0.0]), np.column_stack([common, common + gen.normal(0, 5, 500)]))
    assert tied.loc[0, "ahead_of_next"] == "no significant difference"
    close = neighbour_gaps(np.array([2.0, 0.0]), np.column_stack([common + 2, common + gen.normal(0, 0.1, 500)]),
                           negligible=(3.5, "3.5 rating points"))
    assert close.loc[0, "ahead_of_next"] == "significant but negligible"


def test_a_tournament_says_which_neighbours_differ():
    # scorer with its defaults is greedy: the two cannot be told apart; both beat random by far
    result = tournament("dweebies", ["greedy", "scorer", "random"], players=2, games=300, seed=3)
    standings = result.tables["standings"]
    assert list(standings.index[-1:]) == ["random"]
    assert standings["ahead_of_next"].tolist() == ["no significant difference", "significant and larger than negligible", ""]
    ranking = next(f for f in result.findings if f.startswith("Ranking by rating"))
    assert re.search(r"(greedy ~ scorer|scorer ~ greedy) \(\+?0 \[[-+]?\d+, [-+]?\d+\], no significant difference\) > random",
                     ranking), ranking
    printed = invoke("tournament", "dweebies", "--strategies", "greedy,scorer,random", "--players", 2, "--games", 60,
                     "-w", 1)
    assert "[head_to_head_intervals]" in printed and re.search(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", printed)
    assert "lead over next" in printed and "Ranking by rating" in printed


def test_summary_findings_pair_the_best_strategy_with_the_next(run_with_change):
    out, _ = run_with_change
    frame = simkit.load(out)
    wins = frame.assign(win=frame["winner"].astype(float)).pivot(index="game", columns="strategy", values="win")
    d = (wins["threshold"] - wins["patient"]).to_numpy()
    assert strategy_gap(out, "threshold", "patient") == pytest.approx(_normal(d))
    printed = invoke("summary", out)
    assert re.search(r"^- Highest win rate: \S+ \d+\.\d% \[.*\] \(a seat at random wins 25.0%\); next \S+ .*: "
                     r"\S+ leads by [-+]\d+\.\d points "
                     r"\[.*\], paired over the same games \(.*\)\.$", printed, re.M), printed


def test_compare_does_not_print_a_seat_table_that_repeats_the_strategy_table():
    same = invoke("compare", "dweebies", "--set-b", "game.min_line=3", "--games", 20, "-w", 1)
    assert "[strategy]" in same and "[seat]" not in same and "Not shown: seat (4 rows)" in same
    swapped = invoke("compare", "dweebies", "--players-b", "random,greedy-defensive,line-shortener,pair-keeper",
                     "--games", 20, "-w", 1)
    assert "[seat]" in swapped and "[swapped]" in swapped


def test_tune_and_metagame_headlines_name_the_tuned_seat_and_the_pool():
    from simkit.games import get_game
    from simkit.reports.format import tested

    wheedle = get_game("wheedle")
    field = {"strategy": "threshold", "field": ["hair-trigger", "patient", "blocker"], "players": 4, "sets": []}
    assert tested(wheedle, "tune", field) == \
        "Wheedle, 4 players (threshold (tuned), hair-trigger, patient, blocker), default rules (official)"
    assert tested(wheedle, "tune", {**field, "field": None, "sets": ["scoring.false_stop=-10"]}) == \
        f"Wheedle, 4 players (threshold (tuned) in every seat), rules changed: {CHANGE}"
    assert tested(wheedle, "metagame", {"strategies": ["a", "b", "c"], "players": 4}) == \
        "Wheedle, 4 players drawn from 3 strategies (a, b, c), default rules (official)"


def test_a_held_table_of_one_row_says_row():
    printed = invoke("balance", "dweebies", "--games", 8, "-w", 1)     # Dweebies' length is the deck: one row
    assert "length (1 row):" in printed and "(1 rows)" not in printed
