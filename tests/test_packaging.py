"""What installing simkit puts in site-packages: one package, ``simkit``, with the repository's strategies/ and
reports/ folders inside it as ``simkit.strategies`` and ``simkit.reports`` (setup.py maps them), and its data
files; nothing named ``strategies`` or ``reports`` at the top, where it would collide with a user's own folder.
Checked on the files a wheel is built from (setuptools' build_py, as ``pip wheel`` runs it) and on the
editable install the tests run under."""
import json
import os
import subprocess
import sys
from pathlib import Path

import simkit.reports
import simkit.strategies

ROOT = Path(__file__).resolve().parents[1]


def test_a_wheel_holds_one_top_level_package_with_strategies_and_reports_inside(tmp_path):
    build = tmp_path / "lib"
    done = subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(tmp_path),
                           "build_py", "--build-lib", str(build)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in build.iterdir()) == ["simkit"]
    built = {p.relative_to(build / "simkit").as_posix() for p in build.rglob("*") if p.is_file()}
    for folder in ("strategies", "reports"):
        files = {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*")
                 if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".j2")}
        assert files and files <= built, files - built     # every module and template, under simkit/<folder>/
    games = {p.parent.name for p in (ROOT / "simkit/games").glob("*/__init__.py")}
    assert {f"games/{game}/rules.toml" for game in games} <= built
    assert {"reports/report.html.j2", "reports/analysis.html.j2", "strategies/wheeler_dealer_us/valuation.py",
            "strategies/catalogue.json"} <= built


def test_the_editable_install_maps_the_folders_and_adds_no_top_level_name(tmp_path):
    # run from the repository root (as pytest is), simkit is ./simkit and its strategies the folder beside it
    assert Path(simkit.strategies.__file__) == ROOT / "strategies/__init__.py"
    assert Path(simkit.reports.__file__) == ROOT / "reports/__init__.py"
    # from anywhere else, what the install provides: simkit.strategies, and no top-level strategies or reports
    script = ("import importlib.util, json; import simkit.strategies.wheedle, simkit.reports.format; print(json.dumps("
              "[importlib.util.find_spec(name) is None for name in ('strategies', 'reports')]))")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == [True, True]
