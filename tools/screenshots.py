"""Make one report page of every kind from tiny runs and screenshot each at 1280 and 800 px, for a person
to look at (the browser test opens the same pages; these are the pictures of them).

    .venv/bin/python tools/screenshots.py OUT [NAME ...]

writes OUT/<page>/ (the run or results folder with its report.html), OUT/index.html (``simkit report
OUT``) and OUT/shots/<page>-<width>.png, full page height. NAMEs pick pages of tests/test_browser.py's
PAGES (default: all). Needs Chromium (Debian: apt-get install chromium)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from simkit.cli import cli  # noqa: E402  (after putting this tree first on sys.path)
from tests.test_browser import PAGES, WIDTHS, chromium, page_height  # noqa: E402  (this tree's tests, likewise)


def main(out: Path, names: list[str]) -> None:
    browser = chromium()
    if browser is None:
        sys.exit("Chromium is not installed (Debian: apt-get install chromium)")
    shots = out / "shots"
    shots.mkdir(parents=True, exist_ok=True)
    pages = [page for page in PAGES if not names or page.name in names]
    for spec in pages:
        folder = out / spec.name
        if not (folder / spec.page).is_file():
            for command in spec.commands:
                result = CliRunner().invoke(cli, [part.replace("{out}", str(folder)) for part in command])
                if result.exit_code != 0:
                    sys.exit(f"{spec.name}: {' '.join(command)} failed:\n{result.output}")
    result = CliRunner().invoke(cli, ["report", str(out)])
    if result.exit_code != 0:
        sys.exit(f"simkit report {out} failed:\n{result.output}")
    for spec in pages:
        page = out / spec.name / spec.page
        for width in WIDTHS:
            height = page_height(browser, page, width, out)
            target = shots / f"{spec.name}-{width}.png"
            subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                            "--no-first-run", f"--user-data-dir={out / '.profile'}", f"--window-size={width},{height}",
                            f"--screenshot={target}", page.as_uri()], capture_output=True, timeout=120, check=True)
            print(target)
    print(out / "index.html")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]).resolve(), sys.argv[2:])
