"""Strategies from installed packages: the ``simkit.strategies`` entry-point group (a test distribution)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = '''
from simkit.strategy import Strategy, register
from simkit.strategies.wheedle import random_act, random_accept

register(Strategy.build("wheedle", "plugin-random", act=random_act, accept=random_accept,
                        doc="a uniformly random player shipped by an installed package"))
'''


def _distribution(site: Path, module_source: str, entry: str = "demo = simkit_plugin_demo") -> None:
    """What pip leaves in site-packages for a package with one entry point: the module and its dist-info."""
    (site / "simkit_plugin_demo.py").write_text(module_source)
    info = site / "simkit_plugin_demo-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: simkit-plugin-demo\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[simkit.strategies]\n{entry}\n")


def _simkit(site: Path, *args):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    return subprocess.run([sys.executable, "-c", "from simkit.cli import main; main()", *args],
                          capture_output=True, text=True, env=env, timeout=300)


@pytest.fixture
def site(tmp_path):
    path = tmp_path / "site-packages"
    path.mkdir()
    return path


def test_an_installed_package_adds_strategies_that_are_listed_and_played(site, tmp_path):
    _distribution(site, PLUGIN)
    listed = _simkit(site, "strategies", "wheedle")
    assert listed.returncode == 0, listed.stderr
    assert "plugin-random  (from package simkit-plugin-demo, module simkit_plugin_demo)" in listed.stdout
    assert "hair-trigger" in listed.stdout          # the shipped ones are still there
    played = _simkit(site, "run", "wheedle", "--games", "20", "-w", "1", "--out", str(tmp_path / "run"),
                     "--players", "plugin-random,hair-trigger,threshold,blocker")
    assert played.returncode == 0, played.stderr
    assert '"label": "plugin-random"' in (tmp_path / "run" / "manifest.json").read_text()


def test_a_broken_package_is_one_line_naming_it(site):
    _distribution(site, "raise RuntimeError('boom')\n")
    result = _simkit(site, "strategies", "wheedle")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "simkit: error: strategy package simkit-plugin-demo: its entry point demo = simkit_plugin_demo failed to "
        "load (RuntimeError: boom)"]


def test_a_package_may_not_take_a_shipped_name(site):
    _distribution(site, PLUGIN.replace('"plugin-random"', '"hair-trigger"'))
    result = _simkit(site, "strategies", "wheedle")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "simkit: error: strategy package simkit-plugin-demo defines wheedle strategy 'hair-trigger', which simkit "
        "already has; a package must choose names of its own"]
