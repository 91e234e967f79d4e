"""The user documentation holds together: every relative link in README.md and docs/ resolves (to a file, and
to a heading where it names one), no tracked file points at reference material a user's clone lacks, every
decision id the docs cite is explained in docs/rules/, and the cookbook's own strategy runs as printed."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from simkit.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
RULES_OF = {"W": "wheedle", "D": "dweebies", "U": "wheeler-dealer-us", "K": "wheeler-dealer-uk"}


def _slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", text))


def _anchors(path: Path) -> set[str]:
    return {_slug(line.lstrip("#")) for line in path.read_text().splitlines() if line.startswith("#")}


def test_the_docs_exist():
    names = {p.relative_to(ROOT).as_posix() for p in DOCS}
    assert {"README.md", "docs/cookbook.md", "docs/guide.md", "docs/analysis.md", "docs/rules/README.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=[p.relative_to(ROOT).as_posix() for p in DOCS])
def test_every_relative_link_resolves(doc):
    broken = []
    for target in LINK.findall(doc.read_text()):
        if re.match(r"[a-z]+:", target):        # http:, https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (doc.parent / path).resolve() if path else doc
        if not resolved.exists():
            broken.append(f"{target} (no {resolved.relative_to(ROOT) if ROOT in resolved.parents else resolved})")
        elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
            broken.append(f"{target} (no heading #{anchor})")
    assert not broken, f"{doc.relative_to(ROOT)}: broken links: {broken}"


def test_no_file_points_at_material_a_user_lacks():
    # the rulebooks, the spec's decision files and the design notes live outside the repository
    forbidden = re.compile("|".join([r"shared" + "/", r"/spec" + "/", "DESIGN" + r"\.md"]))
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    offending = []
    for name in files:
        path = ROOT / name
        if not path.is_file() or path.suffix in (".png", ".parquet", ".svg"):
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        offending += [f"{name}: {m.group(0)}" for m in forbidden.finditer(text)]
    assert not offending, offending


def test_every_decision_id_the_docs_cite_is_explained_in_the_rules_docs():
    unexplained = set()
    for doc in DOCS:
        if doc.parent.name == "rules":
            continue
        for letter, number in re.findall(r"\b([WDUK])(\d{1,2})\b", doc.read_text()):
            rules = (ROOT / "docs" / "rules" / f"{RULES_OF[letter]}.md").read_text()
            if not re.search(rf"\b{letter}{number}\b", rules):
                unexplained.add(f"{doc.relative_to(ROOT)}: {letter}{number}")
    assert not unexplained, sorted(unexplained)


def test_the_cookbooks_own_strategy_runs_as_printed(tmp_path, clean_sys_path, capsys):
    cookbook = (ROOT / "docs" / "cookbook.md").read_text()
    code = re.search(r"```python\n(# mystrats\.py.*?)```", cookbook, re.S).group(1)
    command = re.search(r"^\$ simkit (run wheedle --players mystrats:\S+) .*--out runs/mine", cookbook, re.M).group(1)
    module = tmp_path / "mystrats.py"
    module.write_text(code)
    clean_sys_path.syspath_prepend(str(tmp_path))
    main([*command.split(), "--games", "20", "--out", str(tmp_path / "mine"), "-q", "-w", "1"])
    main(["summary", str(tmp_path / "mine")])
    printed = capsys.readouterr().out
    assert printed.startswith("Wheedle, 4 players (greedy:min_points=22, hair-trigger, threshold, blocker)")
    assert "--players mystrats:greedy:min_points=22,hair-trigger,threshold,blocker" in printed
