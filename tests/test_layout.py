"""Each checkout imports its own strategies/ and reports/ as simkit.strategies and simkit.reports, even when an
editable install of another checkout maps those names (simkit/__init__.py): a copy of the tree imported by its
path (PYTHONPATH) uses the copy's folders."""
import json
import os
import shutil
import subprocess
import sys

import simkit.reports
import simkit.strategies

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROBE = ("import json, simkit, simkit.strategies, simkit.reports; from simkit import numba_cache; "
         "print(json.dumps([simkit.__file__, simkit.strategies.__file__, simkit.reports.__file__, "
         "numba_cache._mapped_folder('strategies')]))")


def test_this_checkout_imports_its_own_folders():
    assert simkit.strategies.__file__ == os.path.join(ROOT, "strategies", "__init__.py")
    assert simkit.reports.__file__ == os.path.join(ROOT, "reports", "__init__.py")


def test_a_second_checkout_imports_its_own_folders(tmp_path):
    copy = tmp_path / "other-checkout"
    for folder in ("simkit", "strategies", "reports"):
        shutil.copytree(os.path.join(ROOT, folder), copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(copy)}, timeout=120)
    assert done.returncode == 0, done.stderr
    package, strategies, reports, mapped = json.loads(done.stdout)
    assert package == str(copy / "simkit" / "__init__.py")
    assert strategies == str(copy / "strategies" / "__init__.py")
    assert reports == str(copy / "reports" / "__init__.py")
    assert mapped == str(copy / "strategies")       # the Numba cache keys its kernels on the copy's files too
