"""The package layout, which pyproject.toml cannot say on its own: the repository's top-level folders
``strategies/`` and ``reports/`` install as ``simkit.strategies`` and ``simkit.reports``, so that nothing with
a generic name lands in site-packages. Everything else about the project is in pyproject.toml."""
from setuptools import find_packages, setup

FOLDERS = {"simkit.strategies": "strategies", "simkit.reports": "reports"}   # sub-package -> its folder here

packages = find_packages(include=["simkit", "simkit.*"])
for package, folder in FOLDERS.items():
    packages += [package, *(f"{package}.{sub}" for sub in find_packages(folder))]

setup(packages=packages, package_dir=FOLDERS)
