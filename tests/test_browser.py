"""Every kind of report opened in a real browser (headless Chromium): every image decodes, the headline
names the game and the rules, the answer card comes first, and nothing runs past the page at 1280 or 800 px
(at 1280 px nothing scrolls inside its box either: tables included, with every collapsed section opened), and
every table and forest plot lists the page's strategies in its one order (reports.order). A new
kind of page is one more entry in PAGES; tools/screenshots.py takes pictures of the same pages.

Without Chromium these tests are skipped with the reason, except under CI (CI=true), where they fail:
``.ci/run`` installs Debian's chromium package when it is missing."""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import cli

from .figure_checks import effects_against_findings, number_problems, overlapping_texts

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (1280, 800)


@dataclass(frozen=True)
class Page:
    """How to make one report page: simkit command lines ({out} is a fresh directory), the page they
    leave (relative to {out}), and what its headline must say."""

    name: str
    commands: tuple[tuple[str, ...], ...]
    headline: tuple[str, ...]                 # texts the headline (h1 and the line under it) must contain
    page: str = "report.html"
    forest: bool = False                      # the answer card must hold a forest plot (checked where it must)


def _run_page(game: str, *options: str, headline: tuple[str, ...]) -> Page:
    return Page(f"run-{game}", (("run", game, "--games", "60", "--out", "{out}", "-q", "-w", "1", *options),
                                ("report", "{out}")), headline)


PAGES = [
    _run_page("wheedle", headline=("Wheedle", "4 players", "default rules (official)")),
    _run_page("dweebies", "--set", "game.min_line=3",
              headline=("Dweebies", "rules changed: game.min_line: 2 -> 3 (house rules)")),
    _run_page("wheeler-dealer-us", "--set", "game.level=2", headline=("Wheeler-Dealer (US)", "level 2", "default rules")),
    _run_page("wheeler-dealer-uk", headline=("Wheeler Dealer (UK)", "level 1", "default rules (official)")),
    Page("compare", (("compare", "wheeler-dealer-us", "--set-b", "commodity.0.total_return=28000", "--games", "80",
                      "--rotate-seats", "-w", "1", "--out", "{out}"),),      # money: the widest tables
         ("Wheeler-Dealer (US)", "default rules", "B: rules changed: commodity.0.total_return: 30,000 -> 28,000")),
    Page("tournament", (("tournament", "dweebies", "--strategies", "greedy,greedy-defensive,pair-keeper,random",
                         "--players", "3", "--games", "120", "-w", "1", "--out", "{out}"),),
         ("Dweebies", "3 players", "default rules")),
    Page("sweep", (("sweep", "wheedle", "--strategy", "threshold", "--param", "points=16:32:8", "--games", "60",
                    "-w", "1", "--out", "{out}"),), ("Wheedle", "default rules")),
    Page("balance", (("balance", "wheeler-dealer-us", "--set", "game.level=2", "--games", "80", "-w", "1",
                      "--out", "{out}"),), ("Wheeler-Dealer (US)", "level 2", "default rules")),
    Page("balance-a-b", (("balance", "wheeler-dealer-us", "--set-b", "game.level=2", "--games", "80", "-w", "1",
                          "--out", "{out}"),), ("Wheeler-Dealer (US)", "level 1", "B: level 2")),
    Page("compare-line-ups", (("compare", "wheeler-dealer-us", "--players-a", "kelly,copper-only,poacher,builder",
                               "--players-b", "copper-only,copper-only,poacher,builder", "--games", "60", "-w", "1",
                               "--out", "{out}"),), ("Wheeler-Dealer (US)", "B's line-up: copper-only, copper-only")),
    Page("experiment", (("experiment", "run", str(ROOT / "experiments" / "wheedle-false-stop.toml"), "--games", "40",
                         "-w", "1", "--out", "{out}"),), ("Wheedle", "default rules")),
    Page("tune", (("tune", "wheedle", "--strategy", "threshold", "--params", "points=10:40,patience=5:60,bluff_points=0:30",
                   "--field", "hair-trigger,patient,blocker", "--budget", "12", "--trial-games", "40", "--games", "80",
                   "-w", "1", "--out", "{out}"),), ("Wheedle", "4 players", "default rules")),
    Page("metagame", (("metagame", "wheedle", "--strategies", "hair-trigger,threshold,blocker", "--players", "3",
                       "--games", "120", "--bootstrap", "5", "-w", "1", "--out", "{out}"),),
         ("Wheedle", "3 players", "a house-rule player count")),
    # the rule search: one goal (trace), and two goals (Pareto front) in money tables of the US game
    Page("design", (("design", "wheedle", "--vary", "scoring.stop_bonus=0:10", "--goal", "seat-balance", "--budget", "6",
                     "--trial-games", "40", "--games", "80", "-w", "1", "--out", "{out}"),),
         ("Wheedle", "4 players", "default rules", "searched: scoring.stop_bonus=0:10:int for seat-balance")),
    Page("design-pareto", (("design", "wheeler-dealer-us", "--vary", "commodity.Gold.total_return=60000:200000",
                            "--vary", "game.start_cash=50000:150000", "--goal", "min:abs(bankrupt - 0.2)",
                            "--goal", "min:length", "--constraint", "limit<=0.05", "--budget", "6", "--round-size", "3",
                            "--trial-games", "24", "--games", "40", "-w", "1", "--out", "{out}"),),
         ("Wheeler-Dealer (US)", "default rules", "searched: commodity.Gold.total_return")),
    # re-tuned verdicts (--retune): fixed and re-tuned players side by side, every re-tuned change on the forest plot
    Page("compare-retune", (("compare", "wheedle", "--set-b", "scoring.stop_bonus=15", "--games", "80", "-w", "1",
                             "--retune=threshold", "--retune-budget", "4", "--out", "{out}"),),
         ("Wheedle", "B: rules changed: scoring.stop_bonus: 5 -> 15"), forest=True),
    Page("balance-retune", (("balance", "wheedle", "--set-b", "scoring.stop_bonus=15", "--games", "80", "-w", "1",
                             "--retune=threshold", "--retune-budget", "4", "--out", "{out}"),),
         ("Wheedle", "B: rules changed: scoring.stop_bonus: 5 -> 15"), forest=True),
]

# Runs in the page once it has loaded: opens every collapsed section, then measures.
PROBE = """<script>
window.addEventListener('load', function () {
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  var widest = 0, widestElement = '';
  document.querySelectorAll('body *').forEach(function (e) {
    var right = e.getBoundingClientRect().right;
    if (right > widest) { widest = right; widestElement = e.tagName + (e.className ? '.' + e.className : ''); }
  });
  var clipped = Array.from(document.querySelectorAll('body *')).filter(function (e) {
    var style = getComputedStyle(e);
    return (style.overflowX === 'auto' || style.overflowX === 'scroll' || style.overflowX === 'hidden')
      && e.scrollWidth > e.clientWidth + 1; }).map(function (e) { return e.tagName + ' ' + e.scrollWidth + '>' + e.clientWidth; });
  var tested = document.querySelector('.tested');
  var report = {
    images: Array.from(document.images).map(function (i) {
      return {alt: i.alt, decoded: i.complete && i.naturalWidth > 0 && i.naturalHeight > 0}; }),
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
    widest: widest, widestElement: widestElement, clipped: clipped,
    height: document.documentElement.scrollHeight,
    card: !!document.querySelector('.answer') && document.querySelector('.answer').getBoundingClientRect().top < 400,
    headline: document.querySelector('h1').textContent + ' | ' + (tested ? tested.textContent : '')};
  var out = document.createElement('pre');
  out.id = 'simkit-probe';
  out.textContent = JSON.stringify(report);
  document.body.appendChild(out);
});
</script>"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


def require_chromium() -> str:
    """Chromium's path; without it, skip (with the reason), or fail under CI."""
    path = chromium()
    if path is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("Chromium is not installed: .ci/run installs it with apt-get install chromium")
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); the browser tests need it")
    return path


def test_without_chromium_the_browser_tests_skip_but_fail_under_ci(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        require_chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=".ci/run installs it"):
        require_chromium()


def probe(browser: str, page: Path, work: Path, width: int = WIDTHS[0]) -> dict:
    """Open ``page`` (a copy with the probe script) in headless Chromium ``width`` px wide; return the probe."""
    probed = page.with_name(f".probe-{page.name}")
    probed.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    result = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         f"--user-data-dir={work / 'profile'}", f"--window-size={width},1000", "--virtual-time-budget=10000",
         "--dump-dom", probed.as_uri()], capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="simkit-probe">(.*?)</pre>', result.stdout, re.S)
    assert found, f"the probe did not run in Chromium (exit {result.returncode}): {result.stderr[-2000:]}"
    return json.loads(html.unescape(found.group(1)))


def page_height(browser: str, page: Path, width: int, work: Path) -> int:
    """The height in px of ``page`` laid out ``width`` px wide (for a full-page screenshot)."""
    return int(probe(browser, page, work, width)["height"])


def page_effects(folder: Path) -> list[str]:
    """What the forest plots of the page of ``folder`` (a run or analysis results) draw that its findings do
    not state, and the reverse (tests/figure_checks.py)."""
    import pandas as pd

    from simkit.games import get_game
    from simkit.reports.card import analysis_panels, run_panels
    from simkit.reports.format import leader_gaps, run_findings
    from simkit.results import read_manifest, summarize

    manifest = read_manifest(folder)
    if "analyses" not in manifest:
        summary = summarize(folder)
        gaps = leader_gaps(folder, summary)
        leader = str(summary["strategy"].sort_values("win_rate", ascending=False).index[0])
        return effects_against_findings(run_panels(leader, gaps), run_findings(folder, manifest, summary, gaps))
    game = get_game(manifest["experiment"]["game"])
    problems = []
    for entry in manifest["analyses"]:
        where = folder / entry["folder"]
        tables = {name: pd.read_parquet(where / f"{name}.parquet") for name in entry["tables"]}
        findings = (where / "findings.txt").read_text().splitlines()
        panels = analysis_panels(entry["kind"], tables, entry["setup"], game)
        problems += [f"{entry['folder']}: {problem}" for problem in effects_against_findings(panels, findings)]
    return problems


TABLE = re.compile(r"<table[^>]*>(.*?)</table>", re.S)
FIRST_CELL = re.compile(r"<tr[^>]*>\s*<t[dh][^>]*>(.*?)</t[dh]>", re.S)


def page_orders(folder: Path) -> list[tuple[str, list[str], list[tuple[str, list[str]]]]]:
    """Each ranking of the page of ``folder`` (reports.order; a run's: win rate), recomputed from its data
    whatever order the tables are stored in, with the lists of labels its forest plot draws in order."""
    import pandas as pd

    from simkit.games import get_game
    from simkit.reports.card import analysis_panels, run_panels
    from simkit.reports.format import leader_gaps
    from simkit.reports.order import ranking
    from simkit.results import read_manifest, summarize

    manifest = read_manifest(folder)
    if "analyses" not in manifest:
        summary = summarize(folder)
        order = [str(name) for name in summary["strategy"].sort_values("win_rate", ascending=False, kind="stable").index]
        panels = run_panels(order[0], leader_gaps(folder, summary))
        return [("run", order, [(panel.unit, panel.labels) for panel in panels])]
    game = get_game(manifest["experiment"]["game"])
    orders = []
    for entry in manifest["analyses"]:
        where = folder / entry["folder"]
        tables = {name: pd.read_parquet(where / f"{name}.parquet") for name in entry["tables"]}
        order = ranking(entry["kind"], tables, flat=True)
        panels = analysis_panels(entry["kind"], tables, entry["setup"], game)
        stored = [(f"table {name}", list(table.iloc[:, 0])) for name, table in tables.items() if table.shape[1]]
        orders.append((entry["folder"], order, [(panel.unit, panel.labels) for panel in panels] + stored))
    return orders


def order_problems(folder: Path, page: Path) -> list[str]:
    """Where the page of ``folder`` lists its ranked strategies in another order than its ranking: a forest
    panel, a stored table, or a table of the page as the reader sees it (its rows' first cells)."""
    from simkit.reports.order import out_of_order

    problems = []
    text = page.read_text()
    orders = page_orders(folder)
    # an analysis page's sections start at their h2 (the answer card and contents before the first)
    parts = text.split('<h2 id="s')[1:] if orders[0][0] != "run" else [text]
    for (where, order, lists), part in zip(orders, parts):
        for name, labels in lists:
            found = out_of_order(labels, order)
            if found:
                problems.append(f"{where}: {name} lists {found}, the page ranks {order}")
        shown = [[html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in FIRST_CELL.findall(table)]
                 for table in TABLE.findall(part)]
        for k, labels in enumerate(shown):
            found = out_of_order(labels, order)
            if found:
                problems.append(f"{where}: the page's table {k + 1} lists {found}, the page ranks {order}")
    return problems


def test_order_problems_catch_a_table_out_of_the_page_order(tmp_path):
    import pandas as pd

    from simkit.reports.order import out_of_order, sort_tables

    strategy = pd.DataFrame({"win_diff": [0.01, 0.05, -0.02]}, index=pd.Index(["a", "b", "c"], name="strategy"))
    retuned = pd.DataFrame({"win_diff": [0.0, 0.0, 0.0]}, index=pd.Index(["a*", "b", "c"], name="strategy"))
    seats = pd.DataFrame({"win": [0.3, 0.2, 0.5]}, index=pd.Index([0, 1, 2], name="seat"))
    tables = sort_tables("compare", {"strategy": strategy, "retuned_strategy": retuned, "seat": seats})
    assert list(tables["strategy"].index) == ["b", "a", "c"] and list(tables["retuned_strategy"].index) == ["b", "a*", "c"]
    assert list(tables["seat"].index) == [0, 1, 2]       # an axis of its own keeps its order
    assert out_of_order(["a", "b", "x", "c"], ["b", "a", "c"]) == ["a", "b", "c"]
    assert out_of_order(["b", "x", "c*"], ["b", "a", "c"]) is None


def make_page(spec: Page, out: Path, monkeypatch) -> list[str]:
    """Run the page's commands into ``out``; returns what every figure drawn on the way shows wrongly (texts
    over each other, rate axes not in percent, scientific notation), checked as each is saved."""
    from matplotlib.figure import Figure

    problems = []
    save = Figure.savefig

    def checked(fig, *args, **kwargs):
        name = next((ax.get_xlabel() or ax.get_ylabel() for ax in fig.axes if ax.get_xlabel() or ax.get_ylabel()), "?")
        problems.extend(f"figure {name!r}: texts overlap: {a!r} / {b!r}" for a, b in overlapping_texts(fig))
        problems.extend(f"figure {name!r}: {problem}" for problem in number_problems(fig))
        return save(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", checked)
    for command in spec.commands:
        result = CliRunner().invoke(cli, [part.replace("{out}", str(out)) for part in command], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return sorted(set(problems))


@pytest.mark.parametrize("spec", PAGES, ids=[p.name for p in PAGES])
def test_report_page(spec, tmp_path, monkeypatch):
    """One page of each kind: its figures (checked as drawn), its forest plot against its findings, then the
    page in Chromium at 1280 and 800 px (skipped without Chromium, except under CI)."""
    out = tmp_path / "out"
    problems = make_page(spec, out, monkeypatch)
    assert not problems, "\n".join(problems)
    mismatched = page_effects(out)
    assert not mismatched, "\n".join(mismatched)
    disordered = order_problems(out, out / spec.page)
    assert not disordered, "\n".join(disordered)
    browser = require_chromium()
    report = probe(browser, out / spec.page, tmp_path)
    assert report["innerWidth"] == WIDTHS[0]
    assert report["card"], "the page starts with its answer card"
    assert report["images"], "the page has plots"
    if spec.forest:
        assert any(image["alt"].startswith("Tested effects") for image in report["images"]), "no forest plot"
    undecoded = [image["alt"] for image in report["images"] if not image["decoded"]]
    assert not undecoded, f"images that do not decode: {undecoded}"
    headline = report["headline"]
    for text in spec.headline:
        assert text in headline, f"{text!r} not in the headline {headline!r}"
    assert report["scrollWidth"] <= WIDTHS[0], f"the page scrolls sideways: {report['scrollWidth']} px"
    assert report["widest"] <= WIDTHS[0], f"{report['widestElement']} runs to {report['widest']:.0f} px"
    assert not report["clipped"], f"content wider than its box (a table that scrolls): {report['clipped']}"
    narrow = probe(browser, out / spec.page, tmp_path, WIDTHS[1])     # a laptop half-screen: tables may scroll
    assert narrow["scrollWidth"] <= WIDTHS[1], f"at {WIDTHS[1]} px the page scrolls sideways: {narrow['scrollWidth']} px"
    assert narrow["card"], f"at {WIDTHS[1]} px the answer card is not at the top"
