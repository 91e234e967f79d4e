"""The version of simkit: written here once (pyproject.toml reads it), imported without loading the rest."""
__version__ = "0.1.0"
