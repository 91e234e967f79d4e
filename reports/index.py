"""The index of a folder of runs and analyses (``simkit report DIR`` on a folder that is neither): one linked
table of every run and results directory under it with what it tested, its verdict and its date. Every
report page links back to the index of the folder holding it."""
from __future__ import annotations

import html
import os
from pathlib import Path

from simkit.errors import SimkitError
from simkit.results import read_manifest, summarize
from simkit.runner import MANIFEST
from simkit.storage import write_atomic

from .card import CARD_CSS, docs_link, verdict_lines
from .format import run_findings
from .html import build_report, is_analysis, report_headline

MAX_DEPTH = 3


def result_folders(folder: Path) -> list[Path]:
    """Every run or analysis results directory under ``folder`` (up to MAX_DEPTH levels down; not inside one)."""
    found = []

    def walk(path: Path, depth: int):
        for child in sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith(".")):
            if (child / MANIFEST).is_file():
                found.append(child)
            elif depth < MAX_DEPTH:
                walk(child, depth + 1)

    walk(folder, 1)
    return found


def _entry(directory: Path, write_missing: bool) -> dict:
    manifest = read_manifest(directory)
    page = directory / "report.html"
    if write_missing and not page.is_file():
        try:
            build_report(directory, page)
        except SimkitError:         # e.g. a run of the user's own code, which needs --allow-code: listed unlinked
            pass
    if is_analysis(manifest):
        verdicts = []
        for number, entry in enumerate(manifest["analyses"], 1):
            findings = (directory / entry["folder"] / "findings.txt").read_text().splitlines()[1:]
            prefix = f"{number}. " if len(manifest["analyses"]) > 1 else ""
            verdicts += [prefix + line for line in verdict_lines(findings, 1)]
        kind = ", ".join(dict.fromkeys(entry["kind"] for entry in manifest["analyses"]))
    else:
        verdicts = verdict_lines(run_findings(directory, manifest, summarize(directory)), 1)
        kind = "run"
    return {"directory": directory, "page": page if page.is_file() else None, "kind": kind,
            "headline": report_headline(directory), "verdicts": verdicts, "created": manifest.get("created", "")}


def build_index(folder: str | Path, output: str | Path | None = None, write_missing: bool = True) -> tuple[Path, int]:
    """Write ``folder``/index.html (or ``output``): every run and analysis under ``folder``, newest first, with
    its headline, verdict and date, linked to its report (a run without one gets it written when
    ``write_missing``). Returns the index's path and how many entries it lists."""
    folder = Path(folder)
    output = Path(output) if output else folder / "index.html"
    entries = sorted((_entry(d, write_missing) for d in result_folders(folder)), key=lambda e: e["created"], reverse=True)
    if not entries:
        raise SimkitError(f"{folder} holds no run or analysis results (no {MANIFEST} in it or its folders up to "
                          f"{MAX_DEPTH} levels down); give a run directory, a results directory or a folder of them")

    def href(path: Path) -> str:
        return html.escape(Path(os.path.relpath(path.resolve(), output.resolve().parent)).as_posix())

    rows = []
    for entry in entries:
        name = html.escape(str(entry["directory"].relative_to(folder)))
        link = f'<a href="{href(entry["page"])}">{name}</a>' if entry["page"] else name
        verdict = "".join(f"<p>{html.escape(line)}</p>" for line in entry["verdicts"])
        rows.append(f'<tr><td>{link}<br><a class="files" href="{href(entry["directory"])}">files</a></td>'
                    f'<td>{html.escape(entry["kind"])}</td><td>{html.escape(entry["headline"])}</td>'
                    f'<td class="verdict">{verdict}</td><td class="date">{html.escape(entry["created"][:16].replace("T", " "))}</td></tr>')
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>simkit: runs and analyses in {html.escape(folder.name)}</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 1200px; margin: 2em auto; padding: 0 1em; box-sizing: border-box;
  color: #222; line-height: 1.4; }}
h1 {{ font-size: 1.45em; }} table.index {{ border-collapse: collapse; font-size: 0.88em; width: 100%; }}
table.index th, table.index td {{ padding: 4px 8px; border-bottom: 1px solid #e4e4e4; text-align: left; vertical-align: top; }}
table.index th {{ background: #f6f6f6; }} td.verdict p {{ margin: 0 0 0.3em; }}
a.files {{ font-size: 0.85em; color: #666; }} td.date {{ white-space: nowrap; }}
{CARD_CSS}
</style></head><body>
<nav class="top">{docs_link("guide.md")} {docs_link("analysis.md")}</nav>
<h1>Runs and analyses in {html.escape(str(folder))}</h1>
<p>{len(entries)} result folder{'s' if len(entries) != 1 else ''}, newest first. Each page starts with its answer card;
<code>simkit report {html.escape(str(folder))}</code> writes this index again.</p>
<div class="table"><table class="index"><thead><tr><th>results</th><th>kind</th><th>tested</th><th>verdict</th>
<th>made (UTC)</th></tr></thead><tbody>
{''.join(rows)}
</tbody></table></div>
</body></html>
"""
    write_atomic(output, page)
    return output, len(entries)
