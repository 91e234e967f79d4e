"""Reports a person reads at a glance: one cell per estimate and interval, money with its currency, the
headline says what was tested, seat/strategy confounding stated, the numbers of `simkit summary`, heat
maps centred on 0.5, histograms clipped with a labelled overflow bar, the sweep legend beside its curves,
`simkit report` on analysis results and --also for every game. (That the pages render in a browser:
tests/test_browser.py.)"""
import html as htmllib
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.text import Text

from simkit.analysis import compare, tournament
from simkit.cli import cli
from simkit.games import get_game
from simkit.reports.analysis import _matrix
from simkit.reports.format import headline, money_columns, present
from simkit.reports.plots import hist_with_overflow, int_bins
from simkit.results import summarize
from simkit.rules import changed_values

from .helpers import answers


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def _cells(html: str, table_after: str) -> list[list[str]]:
    """The body cells of the first table after the heading ``table_after``."""
    section = html[html.index(table_after):]
    body = section[section.index("<tbody>"):section.index("</tbody>")]
    return [[htmllib.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_an_interval_shares_its_estimates_cell():
    table = pd.DataFrame({"strategy": ["a", "b"], "n": [4000, 12000], "win_rate": [0.245, 0.5],
                          "win_low": [0.243, 0.49], "win_high": [0.248, 0.51], "win_diff": [0.012, -0.03],
                          "diff_low": [0.004, -0.041], "diff_high": [0.020, -0.019], "win_half_width": [0.008, 0.011]})
    shown = present(table)
    assert list(shown.columns) == ["strategy", "n", "win rate", "win diff (points)"]  # three columns became one
    assert shown["win rate"].tolist() == ["24.5% [24.3, 24.8]", "50.0% [49.0, 51.0]"]
    assert shown["win diff (points)"].tolist() == ["+1.2 [+0.4, +2.0]", "-3.0 [-4.1, -1.9]"]   # signed, in points
    assert shown["n"].tolist() == ["4,000", "12,000"]


def test_a_small_value_among_large_ones_keeps_its_digits():
    # tune's [best] table: one row per parameter, of any size; 1.5 beside 1,000 must not print as "2"
    table = pd.DataFrame({"parameter": ["points", "reserve", "stop"], "best": [1.5, 1000.0, 200.0],
                          "mean": [0.123456, 51.75, 49.89]})
    shown = present(table)
    assert shown["best"].tolist() == ["1.5", "1,000", "200"]
    assert shown["mean"].tolist() == ["0.123", "51.8", "49.9"]      # about three significant digits each


def test_a_rate_column_marks_the_rows_that_are_shares():
    # a design's validation: one measure a share of games, another a length in ticks, in the same columns
    table = pd.DataFrame({"measure": ["seat-balance", "length=60", "seat-balance"], "rate": [True, False, True],
                          "value": [0.0211, 74.0, 0.0216], "value_low": [0.0084, 73.0, 0.0084],
                          "value_high": [0.0434, 75.0, 0.0434]}, index=[5, 3, 9])
    shown = present(table)
    assert list(shown.columns) == ["measure", "value"] and list(shown.index) == [5, 3, 9]   # the flag is not shown
    assert shown["value"].tolist() == ["2.1% [0.8, 4.3]", "74 [73, 75]", "2.2% [0.8, 4.3]"]
    # an interval of zero width up to rounding error takes the decimals of an exact zero
    mix = pd.DataFrame({"mix": [1.0, 0.0], "mix_low": [1.0 - 2e-16, 0.0], "mix_high": [1.0, 0.0]})
    assert present(mix)["mix"].tolist() == ["100.0% [100.0, 100.0]", "0.0% [0.0, 0.0]"]
    # and so does an interval's end that is zero up to rounding error (a metagame's bootstrap gave 4e-31)
    share = pd.DataFrame({"win_share": [0.0023], "win_share_low": [4.038e-31], "win_share_high": [0.00503]})
    assert present(share)["win share"].tolist() == ["0.2% [0.0, 0.5]"]


def test_money_has_separators_and_its_currency():
    us, uk = get_game("wheeler-dealer-us"), get_game("wheeler-dealer-uk")
    table = pd.DataFrame({"seat": [0], "mean_net_worth": [825_800.4], "mean_low": [801_000.0], "mean_high": [850_600.9]})
    assert money_columns(table.columns, us) == {"mean_net_worth"}
    assert present(table, money_columns(table.columns, us), us.currency).iloc[0, 1] == "$825,800 [801,000, 850,601]"
    analysis = pd.DataFrame({"score_diff": [-23_150.0], "score_low": [-30_000.0], "score_high": [-16_300.0],
                             "score_var_reduction": [3.25]})
    cells = present(analysis, money_columns(analysis.columns, uk), uk.currency)
    assert list(cells.columns) == ["score diff (credits)", "score var reduction"]   # a word goes in the header
    assert cells.iloc[0].tolist() == ["-23,150 [-30,000, -16,300]", "3.2x"]
    assert money_columns(["mean_points", "score_diff"], get_game("wheedle")) == set()


def test_rule_changes_list_only_what_differs():
    defaults = {"a": {"b": 1, "c": "x"}, "company": [{"name": "P", "cards": 5}, {"name": "Q", "cards": 7}]}
    changed = {"a": {"b": 2, "c": "x"}, "company": [{"name": "P", "cards": 5}, {"name": "Q", "cards": 8}]}
    assert changed_values(defaults, changed) == [("a.b", 1, 2), ("company.1.cards", 7, 8)]
    assert changed_values(defaults, defaults) == []
    assert changed_values({"x": 1}, {"x": 1.0}) == [("x", 1, 1.0)]     # a type change is a change


def test_headline_names_game_level_players_rules_and_status():
    wheedle, us = get_game("wheedle"), get_game("wheeler-dealer-us")
    assert headline(wheedle, wheedle.default_rules, 4) == "Wheedle, 4 players, default rules (official)"
    assert headline(wheedle, wheedle.default_rules, 4, ["a", "b", "c", "d"]) == \
        "Wheedle, 4 players (a, b, c, d), default rules (official)"
    assert headline(wheedle, wheedle.default_rules, 4, ["a"] * 4) == "Wheedle, 4 players (a in every seat), default rules (official)"
    assert headline(wheedle, wheedle.default_rules, 4, pool=["a", "b", "c", "d", "e"]) == \
        "Wheedle, 4 players drawn from 5 strategies (a, b, c, d, e), default rules (official)"
    many = wheedle.rules(sets=["scoring.false_stop=-10", "options.rounds=8", "options.gifts_allowed=false",
                               "options.max_ticks=900"])
    assert headline(wheedle, many, 4).count(" -> ") == 4        # every change, not the first few
    assert headline(wheedle, wheedle.rules(sets=["scoring.false_stop=-10"]), 4) == \
        "Wheedle, 4 players, rules changed: scoring.false_stop: -5 -> -10 (house rules)"
    assert headline(wheedle, wheedle.default_rules, 3).endswith("(a house-rule player count)")
    assert headline(us, us.rules(sets=["game.level=2"]), 4) == "Wheeler-Dealer (US), level 2, 4 players, default rules (official)"


def test_run_report_shows_the_numbers_of_summary_and_states_confounding(run_dir, tmp_path):
    output = tmp_path / "r.html"
    assert invoke("report", run_dir, "-o", output).exit_code == 0
    page = output.read_text()
    assert re.search(r"<h1>Wheedle, 4 players \(hair-trigger, threshold, patient, blocker\), default rules "
                     r"\(official\)</h1>", page)
    seats = summarize(run_dir)["seat"]
    rows = _cells(page, "<h2>By seat</h2>")
    printed = invoke("summary", run_dir).output          # the terminal shows the report's very cells
    for seat, row in zip(seats.index, rows):
        assert row[3] == present(seats.reset_index()).iloc[seat]["win rate"]
        line = re.search(rf"^\s*{seat} +{re.escape(row[1])} .*$", printed, re.M).group(0)
        assert row[3] in line and row[4] in line, (row, line)
    assert "Seat and strategy are confounded here" in page and "simkit balance wheedle --players" in page
    assert "<pre>" not in page          # the rules appear as what differs, never as a dump


def test_a_single_strategy_run_says_its_seat_table_is_clean(tmp_path):
    out = tmp_path / "same"
    assert invoke("run", "wheedle", "--games", 30, "--players", "threshold,threshold,threshold,threshold",
                  "--set", "scoring.false_stop=-10", "--out", out, "-q", "-w", 1).exit_code == 0
    assert invoke("report", out).exit_code == 0
    page = (out / "report.html").read_text()
    assert "Every seat plays threshold, so the seat table measures the seats alone" in page
    assert "rules changed: scoring.false_stop: -5 -&gt; -10 (house rules)" in page
    assert _cells(page, "<h2>Rules played</h2>") == [["scoring.false_stop", "-5", "-10"]]


def test_report_renders_an_analysis_directory_and_refuses_also_there(tmp_path, cli_error, run_dir):
    out = tmp_path / "cmp"
    assert invoke("compare", "wheedle", "--set-b", "scoring.false_stop=-10", "--games", 40, "-w", 1,
                  "--out", out).exit_code == 0
    first = (out / "report.html").read_text()
    assert invoke("report", out, "-o", out / "again.html").exit_code == 0
    again = (out / "again.html").read_text()
    assert again == first                      # one renderer: the same page from the files on disk
    assert "B: rules changed: scoring.false_stop: -5 -&gt; -10" in again
    assert "--also compares run directories" in cli_error(["report", str(out), "--also", str(run_dir)])
    assert "holds analysis results" in cli_error(["report", str(run_dir), "--also", str(out)])


def test_rotated_compare_counts_deals_in_tables_and_findings():
    result = compare("dweebies", games=120, seed=1, rotate_seats=True, players_b="greedy,greedy,greedy,random")
    assert (result.tables["strategy"]["deals"] == 30).all()
    assert "win_n" not in result.tables["strategy"] and "score_n" not in result.tables["strategy"]
    assert answers(result.findings)[0].startswith("120 games per side (30 deals x 4 seat orders)")


def test_head_to_head_has_intervals_and_a_heat_map_centred_on_an_even_match():
    result = tournament("dweebies", ["greedy", "greedy-defensive", "pair-keeper"], players=2, games=240, seed=4)
    long = result.tables["head_to_head_intervals"]
    matrix = result.tables["head_to_head"]
    for (row, column), cell in long.iterrows():   # balanced blocks: the mean of block shares is the pooled share
        assert cell["ahead"] == pytest.approx(matrix.loc[row, column])
        assert cell["low"] <= cell["ahead"] <= cell["high"]
    fig, ax = plt.subplots()
    image = _matrix(ax, long)
    assert image.norm.vmin + image.norm.vmax == pytest.approx(1.0)     # white is 50%
    assert image.norm.vmax - 0.5 == pytest.approx(np.ceil(np.max(np.abs(long["ahead"] - 0.5)) * 50) / 50)
    assert all("[" in text.get_text() for text in ax.texts)            # every cell shows its interval
    plt.close(fig)


def test_histogram_is_clipped_to_the_data_with_a_labelled_overflow_bar():
    values = np.concatenate([np.arange(10, 60), [2500, 2500]])      # two stalemates far to the right
    fig, ax = plt.subplots()
    cap = hist_with_overflow(ax, values, cap=59, unit="rounds")
    assert cap == 59 and ax.get_xlim()[1] < 100                     # the axis does not run to 2,500
    label = " ".join(text.get_text() for text in ax.texts)
    assert "> 59: 3.8% of rounds" in label and "up to 2,500" in label
    heights = [patch.get_height() for patch in ax.patches]
    assert sum(heights) == pytest.approx(1.0)                        # shares of all values, overflow included
    plt.close(fig)
    assert list(int_bins(0, 1000, 60)[:3]) == [-0.5, 19.5, 39.5]    # round bin widths


@pytest.mark.parametrize("values", [
    np.concatenate([np.arange(20, 60), np.full(300, 58), np.full(200, 55), [80, 90]]),  # the mass just left of the cap
    np.concatenate([np.full(500, 30), np.arange(30, 70), [200] * 5]),                    # one tall bar far left
])
def test_the_overflow_label_covers_no_bar(values):
    fig, ax = plt.subplots(figsize=(4, 3))
    hist_with_overflow(ax, values, unit="games")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    annotation = next(text for text in ax.texts if "of games" in text.get_text())
    label = Text.get_window_extent(annotation, renderer)          # the words, without the line to their bar
    bars = [patch.get_window_extent(renderer) for patch in ax.patches if patch.get_height() > 0]
    assert bars and not [bar for bar in bars if bar.overlaps(label)]
    assert ax.get_window_extent(renderer).contains(label.x0, label.y0)    # inside the plot, not over its title
    plt.close(fig)


def test_score_distribution_of_money_shows_shares_not_a_density():
    from simkit.reports.html import ReportData
    from simkit.reports.plots import score_distribution

    gen = np.random.default_rng(1)     # scores in the hundreds of thousands: a density would be ~1e-6 per credit
    frame = pd.DataFrame({"strategy": pd.Categorical(np.repeat(["a", "b"], 500)),
                          "wealth": np.round(gen.gamma(2.0, 150_000, 1000))})
    data = ReportData({"players": 2}, frame, {}, "wealth", {}, [], get_game("wheeler-dealer-uk"))
    fig = score_distribution(data)
    assert [ax.get_ylabel() for ax in fig.axes] == ["a", "b"]          # a row per strategy, on shared axes
    assert fig._suptitle.get_text().startswith("share of the strategy's games per bin of ")
    ax = fig.axes[-1]
    assert ax.get_xlabel().startswith("wealth (credits)")
    for row in fig.axes:                     # each strategy's bars: its share of its games in each bin
        heights = np.array([bar.get_height() for bar in row.patches])
        assert 0.01 < heights.max() <= 1 and 0.97 <= heights.sum() <= 1.0 + 1e-9
    ax.figure.canvas.draw()
    assert "k" in ax.get_xticklabels()[2].get_text()        # 250k, not 250000 or 2.5e5
    plt.close(fig)


def test_the_sweep_legend_stands_beside_the_curves_not_on_them():
    from simkit.analysis import sweep
    from simkit.reports.analysis import sweep_curve

    result = sweep("wheedle", strategy="threshold", param="points=16|24|32", games=30, seed=3)
    fig = sweep_curve(result)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    assert len(legends) == 1 and len(legends[0].get_texts()) == 4       # four entries; 30 games separate no best
    box = legends[0].get_window_extent(renderer)
    assert not [ax for ax in fig.axes if ax.get_window_extent(renderer).overlaps(box)]
    assert fig.bbox.contains(box.x1 - 1, box.y0 + 1)                    # and it is not cut off by the figure
    plt.close(fig)


def test_a_variance_reduction_no_row_has_is_left_out():
    # B identical to A in every game: the paired variance is 0 and no ratio exists; a blank column says nothing
    table = pd.DataFrame({"strategy": ["a", "b"], "win_diff": [0.0, 0.0], "win_low": [0.0, 0.0], "win_high": [0.0, 0.0],
                          "win_var_reduction": [np.nan, np.nan], "score_var_reduction": [np.nan, 2.5]})
    assert list(present(table).columns) == ["strategy", "win diff (points)", "score var reduction"]
    assert present(table)["score var reduction"].tolist() == ["", "2.5x"]
    printed = invoke("compare", "wheedle", "--set-b", "scoring.false_stop=-10", "--games", 30, "-w", 1).output
    assert "identical results in every game" in printed and "var reduction" not in printed


def test_the_figure_checks_catch_overlapping_texts_rate_axes_in_0_1_and_scientific_ticks():
    from .figure_checks import number_problems, overlapping_texts

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0.2, 0.3])
    ax.annotate("candidate-1", (0.5, 0.25))
    ax.annotate("candidate-2", (0.5, 0.25))
    ax.set_ylabel("win rate")
    assert ("candidate-1", "candidate-2") in overlapping_texts(fig)
    assert any("not in percent" in problem for problem in number_problems(fig))
    ax.texts[1].remove()
    ax.yaxis.set_major_formatter(lambda v, _: f"{v * 100:.0f}%")
    assert not overlapping_texts(fig) and not number_problems(fig)
    ax.set_xlim(0, 6e5)
    ax.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
    assert any("scientific" in problem for problem in number_problems(fig))
    plt.close(fig)


def test_the_forest_plot_and_the_findings_must_name_the_same_effects():
    from simkit.reports.card import Panel

    from .figure_checks import effects_against_findings

    panel = Panel("win rate difference (points)", 0.5)
    panel.add("kelly -> copper-only", -0.075, -0.087, -0.063, 100)
    panel.add("poacher", 0.004, -0.003, 0.011, 100)
    findings = ["kelly -> copper-only: B - A -7.5 points [-8.7, -6.3] (lower).",
                "poacher: B - A +0.4 points [-0.3, +1.1]; mean net worth -$97,703 [-172,026, -23,380]."]
    problems = effects_against_findings([panel], findings)
    assert problems == ["in the findings but not drawn: -97703 [-172026, -23380]"]
    assert len(effects_against_findings([panel], findings[:1])) == 1     # poacher drawn, not stated


def test_number_style_percent_and_rule_keys():
    from simkit.reports.format import percent, rule_changes_text, rule_key
    from simkit.reports.plots import compact

    assert compact(1_234_567, "$") == "$1.23M" and compact(-250_000, "$") == "-$250k"     # money axes
    assert percent(0.2930) == "29.3%" and percent(0.0004, 0.0001, 0.0007, signed=True) == "+0.04%"
    assert rule_key("deck.copies_split") == "deck.copies_split" and rule_key("win_rate") == "win rate"
    assert rule_changes_text([("game.start_cash", 2000000, 864600)]) == \
        "rules changed: game.start_cash: 2,000,000 -> 864,600"
    assert "e-" not in rule_changes_text([("x.y", 0.1, 0.00001)])


def test_report_on_a_folder_writes_its_index_and_pages_link_back(run_dir, tmp_path):
    import shutil

    folder = tmp_path / "runs"
    shutil.copytree(run_dir, folder / "w")
    result = invoke("report", folder)
    assert result.exit_code == 0, result.output
    index = (folder / "index.html").read_text()
    assert 'href="w/report.html"' in index and "Wheedle" in index and "Highest win rate" in index
    page = (folder / "w" / "report.html").read_text()
    assert 'href="../index.html"' in page and 'class="answer"' in page and "<script" not in page
    assert "http://" not in page and "https://" not in page        # offline: nothing fetched


def test_report_on_a_folder_without_results_is_one_line(tmp_path, cli_error):
    (tmp_path / "empty" / "sub").mkdir(parents=True)
    assert "holds no run or analysis results" in cli_error(["report", str(tmp_path / "empty")])
    (tmp_path / "empty" / "index.html").mkdir()
    assert "is a directory" in cli_error(["report", str(tmp_path / "empty")])


def test_interactive_views_are_inline_svg_with_hover_values():
    """The hover views: well-formed inline SVG, one titled mark per heat-map cell (share and interval), the
    simplex's equilibrium and bootstrap spots, the front's trials and candidates; nothing fetched."""
    import xml.etree.ElementTree as ElementTree

    from simkit.reports.hover import views

    names = ["a", "b", "c"]
    long = pd.DataFrame([(r, c, 0.6 if r < c else 0.4, 0.5 if r < c else 0.3, 0.7 if r < c else 0.5)
                         for r in names for c in names if r != c], columns=["strategy", "opponent", "ahead", "low", "high"])
    front_trials = pd.DataFrame({"trial": [0, 1, 2], "x.y": [1, 2, 3], "goal_1_share": [0.1, 0.2, 0.05],
                                 "goal_2": [30.0, 20.0, 40.0], "pareto": [True, True, False]})
    validation = pd.DataFrame({"rules": ["default", "default", "candidate-1", "candidate-1"],
                               "measure": ["min:bankrupt", "min:length"] * 2, "role": "goal", "rate": [True, False] * 2,
                               "value": [0.2, 30.0, 0.1, 25.0], "value_low": [0.15, 28.0, 0.05, 23.0],
                               "value_high": [0.25, 32.0, 0.15, 27.0], "diff": [np.nan, np.nan, -0.1, -5.0],
                               "diff_low": [np.nan, np.nan, -0.15, -7.0], "diff_high": [np.nan, np.nan, -0.05, -3.0]})
    cases = [
        ("tournament", {"head_to_head_intervals": long}, {}, 6, "a finished ahead of b in 60.0% [50.0, 70.0]"),
        ("metagame", {"path": pd.DataFrame({"a": [1 / 3, 0.5], "b": [1 / 3, 0.25], "c": [1 / 3, 0.25]}),
                      "bootstrap": pd.DataFrame({"a": [0.5, 0.5, 1.0], "b": [0.25, 0.25, 0.0], "c": [0.25, 0.25, 0.0]}),
                      "equilibrium": pd.DataFrame({"strategy": names, "mix": [0.5, 0.25, 0.25], "mix_low": [0.4, 0.1, 0.1],
                                                   "mix_high": [0.6, 0.4, 0.4], "win_share": [0.34, 0.33, 0.33]})},
         {"strategies": names}, 5, "67% of the bootstrap resamples land at a 50%, b 25%, c 25%"),
        ("design", {"trials": front_trials, "validation": validation},
         {"goal_columns": ["goal_1_share", "goal_2"], "goals": ["min:bankrupt", "min:length"], "vary": ["x.y=1:3"],
          "candidates": [{"name": "candidate-1", "changes": "x.y: 2 -> 1"}]}, 5,
         "difference from the default -10.0 points [-15.0, -5.0]"),
    ]
    for kind, tables, setup, marks, text in cases:
        (view,) = views(kind, tables, setup)
        root = ElementTree.fromstring(view["svg"])
        titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
        assert len(titles) >= marks and any(text in title for title in titles), (kind, titles)
        assert "http" not in view["svg"].replace("http://www.w3.org/2000/svg", "") and "<script" not in view["svg"]
    assert views("tournament", {}, {}) == [] and views("compare", {"x": long}, {}) == []


def test_a_tune_card_says_keep_the_start_when_its_validation_overrules_the_best():
    from simkit.reports.card import verdict_lines

    findings = ["1 trial ...", "Objective: the tuned seat's win rate.", "Best: patient:wait=3 (the race ...).",
                "Validation field (2,000 games per side, fresh seeds, paired): ...: worse than the start.",
                "Keep the start: the validation says the best found is worse than patient; ...",
                "Use it: --players patient:wait=3,..."]
    assert verdict_lines(findings) == [findings[4]]
    assert verdict_lines(findings[:4] + findings[5:])[0] == findings[2]
