"""The analysis commands' bad input answers before the library loads (simkit.cli.early), with the very line the
command itself reports: each case runs once as ``simkit`` runs it, in a fresh interpreter, where nothing heavy may
be imported, and once in this process with the command's early check taken away, where the library validates it.
Cases with two errors pin which one is reported (tune without --field and with a bad --set names --field)."""
import importlib

import click
import pytest

from simkit.cli import main
from tests.test_cli_startup import _heavy_loaded

FIELD = ["--field", "patient,patient,patient"]
FOUR = "patient,blocker,random,hair-trigger"
CASES = [
    ["compare", "wheedle", "--players", "nope"],
    ["compare", "wheedle", "--players", "patient:points=500,blocker,random,random"],
    ["compare", "wheedle", "--players", "patient"],
    ["compare", "wheedle", "--set", "no.such=1", "--players", "nope"],
    ["compare", "wheedle", "--players-b", "nope"],
    ["compare", "wheedle", "--players-b", "patient,blocker,random"],
    ["compare", "wheedle", "--set-b", "no.such=1"],
    ["compare", "wheedle", "--set-b", "no.such=1", "--players", "nope"],
    ["compare", "wheedle", "--negligible", "bogus=1", "--players", "nope"],
    ["compare", "wheedle", "--backend", "local", "--scheduler", "tcp://127.0.0.1:1", "--players", "nope"],
    ["compare", "wheedle", "--upload", "UPLOAD", "--players", "nope"],
    ["compare", "wheedle", "--rules", "BROKEN", "--players", "nope"],
    ["balance", "wheedle", "-p", "nope"],
    ["balance", "wheedle", "--good-play", "-p", "patient"],
    ["balance", "wheedle", "-n", "4"],
    ["balance", "wheedle", "--set-b", "no.such=1"],
    ["balance", "wheedle", "--players-b", "nope"],
    ["balance", "wheedle", "--players-b", "patient,blocker,random"],
    ["tournament", "wheedle", "-s", "patient,nope"],
    ["tournament", "wheedle", "-s", "patient,patient,blocker,random"],
    ["tournament", "wheedle", "-s", "patient,blocker"],
    ["tournament", "wheedle", "-s", FOUR, "-p", "9"],
    ["tournament", "wheedle", "-s", FOUR, "--set", "no.such=1"],
    ["sweep", "wheedle"],
    ["sweep", "wheedle", "--param", "points=1:2:1"],
    ["sweep", "wheedle", "--strategy", "nope", "--param", "points=1:2:1"],
    ["sweep", "wheedle", "--strategy", "patient", "--param", "points=oops"],
    ["sweep", "wheedle", "--strategy", "patient", "--param", "points=0:300:50"],
    ["sweep", "wheedle", "--strategy", "patient", "--param", "points=1:2:1", "--field", "nope"],
    ["sweep", "wheedle", "--rule", "no.such=1:3:1"],
    ["sweep", "wheedle", "--rule", "scoring.false_stop=-3:-1:1", "-p", "nope"],
    ["tune", "wheedle", "--strategy", "nope"],
    ["tune", "wheedle", "--strategy", "patient"],
    ["tune", "wheedle", "--strategy", "patient", "--set", "no.such=1"],
    ["tune", "wheedle", "--strategy", "nope", "--set", "no.such=1"],
    ["tune", "wheedle", "--strategy", "patient", "--field", "patient,nope"],
    ["tune", "wheedle", "--strategy", "patient", *FIELD, "--set", "no.such=1"],
    ["tune", "wheedle", "--strategy", "patient", "--params", "nope=1:2", *FIELD],
    ["tune", "wheedle", "--strategy", "patient", "--params", "points=0:500", *FIELD],
    ["tune", "wheedle", "--strategy", "patient", *FIELD, "--budget", "lots"],
    ["tune", "wheedle", "--strategy", "patient", "--field", "patient,patient,patient,patient,patient,patient"],
    ["tune", "wheedle", "--strategy", "patient", "--self-play", "--players", "9"],
    ["tune", "wheedle", "--strategy", "patient", "--field", "patient", "--players", "3"],
    ["tune", "wheedle", "--strategy", "patient", *FIELD, "--trial-games", "500", "--max-trial-games", "400"],
    ["metagame", "wheedle", "-s", "patient,nope"],
    ["metagame", "wheedle", "-s", "patient"],
    ["metagame", "wheedle", "-s", "patient,patient"],
    ["metagame", "wheedle", "-s", "patient,blocker", "-p", "9"],
    ["metagame", "wheedle", "-s", "patient,blocker", "--set", "no.such=1"],
    ["ladder", "wheedle", "-s", "patient,nope"],
    ["ladder", "wheedle", "-p", "9"],
    ["ladder", "wheedle", "-s", "patient,blocker"],
    ["ladder", "wheedle", "-s", "patient,patient,blocker,random"],
    ["design", "wheedle", "--vary", "scoring.false_stop=-20:0", "--goal", "seat-balance", "--negligible", "bogus",
     "-p", "nope"],
    ["design", "wheedle", "--vary", "scoring.false_stop=-20:0", "--goal", "seat-balance", "--upload", "UPLOAD"],
    *[["design", "wheedle", "--vary", "scoring.false_stop=-20:0", *more] for more in (
        ["--goal", "bogus"], ["--goal", "min:length +"], ["--goal", "seat-balance", "--goal", "seat-balance"],
        ["--goal", "max:length.real"], ["--goal", "min:9**99"], ["--goal", "length=-3"],
        ["--goal", "seat-balance", "--constraint", "length"], ["--goal", "seat-balance", "--constraint", "lambda: 1<=3"],
        ["--goal", "bogus", "-p", "nope"], ["--goal", "seat-balance", "-p", "nope"],
        ["--goal", "seat-balance", "-p", "patient"], ["--goal", "seat-balance", "--player-count", "3"],
        ["--goal", "seat-balance", "--set", "no.such=1"], ["--goal", "seat-balance", "--budget", "0"],
        ["--goal", "seat-balance", "-p", "patient,patient,patient,nope", "--population", "patient@1"])],
    *[["experiment", "run", file, "-o", "OUT"] for file in (
        "EXP_BROKEN", "EXP_MISSING", "EXP_TOP_KEY", "EXP_KIND", "EXP_KEY", "EXP_NEEDS", "EXP_COUNT", "EXP_STRATEGY",
        "EXP_PLAYERS", "EXP_RULE", "EXP_FIRST_OF_TWO", "EXP_DUPLICATE")],
    ["experiment", "run", "EXP_STRATEGY", "-o", "FULL"],
    ["experiment", "run", "EXP_STRATEGY", "-o", "OUT", "--upload", "UPLOAD"],
    ["tune", "wheedle", "--strategy", "nope", "-o", "FULL"],
    ["compare", "wheedle", "--players", "nope", "-o", "OUT"],
    ["balance", "wheedle", "--players", "nope", "-o", "FULL", "--overwrite"],
]


TUNE = '[[analysis]]\nkind = "tune"\nstrategy = "patient"\nfield = "patient,patient,patient"\n'
EXPERIMENTS = {
    "EXP_BROKEN": 'game = "wheedle"\n[[analysis\n',
    "EXP_TOP_KEY": 'game = "wheedle"\ncolour = "red"\n' + TUNE,
    "EXP_KIND": 'game = "wheedle"\n[[analysis]]\nkind = "poll"\n',
    "EXP_KEY": 'game = "wheedle"\n' + TUNE + 'colour = "red"\n',
    "EXP_NEEDS": 'game = "wheedle"\n[[analysis]]\nkind = "tournament"\n',
    "EXP_COUNT": 'game = "wheedle"\ngames = 0\n' + TUNE,
    "EXP_STRATEGY": 'game = "wheedle"\n[[analysis]]\nkind = "compare"\nplayers = "patient,nope,random,random"\n',
    "EXP_PLAYERS": 'game = "wheedle"\n[[analysis]]\nkind = "balance"\nplayers = ["patient"]\n',
    "EXP_RULE": 'game = "wheedle"\nsets = ["no.such=1"]\n' + TUNE,
    "EXP_FIRST_OF_TWO": 'game = "wheedle"\n' + TUNE.replace('"patient"', '"nope"', 1) + TUNE,
    "EXP_DUPLICATE": 'game = "wheedle"\n[[analysis]]\nkind = "metagame"\nstrategies = "patient,patient"\n' + TUNE,
    # a key the command line fixes (tune's sampler, checked before its field) set otherwise: left to the command
    "EXP_SAMPLER": 'game = "wheedle"\n' + TUNE.replace('patient,patient,patient', 'patient,nope,patient') + 'sampler = "x"\n',
    "EXP_RULES_FILE": 'game = "wheedle"\n[[analysis]]\nkind = "compare"\nrules = "nowhere.toml"\nplayers = "nope"\n',
}


def _argv(argv, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[game\nlevel = 2\n")
    upload = tmp_path / "mine.py"
    upload.write_text("")
    full = tmp_path / "full"
    full.mkdir()
    (full / "kept.txt").write_text("")
    named = {"BROKEN": broken, "UPLOAD": upload, "OUT": tmp_path / "out", "FULL": full, "EXP_MISSING": tmp_path / "none.toml"}
    for name, text in EXPERIMENTS.items():
        named[name] = tmp_path / f"{name.lower()}.toml"
        named[name].write_text(text)
    return [str(named.get(arg, arg)) for arg in argv]


def _library_line(argv, monkeypatch, capsys) -> tuple[str, int]:
    """The error line of ``simkit ARGV`` run in this process with the command's early check taken away."""
    command = importlib.import_module(f"simkit.cli.{argv[0]}").command
    if isinstance(command, click.Group):        # simkit experiment run
        command = command.commands[argv[1]]
    monkeypatch.delattr(command, "check_first")
    monkeypatch.setenv("SIMKIT_DECISION_TIMEOUT", "300")     # main sets it from --decision-timeout
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    return capsys.readouterr().err.strip().splitlines()[-1], exit_.value.code


@pytest.mark.parametrize("argv", CASES, ids=[" ".join(case) for case in CASES])
def test_bad_analysis_input_answers_before_the_library_with_the_commands_own_error(argv, tmp_path, monkeypatch,
                                                                                  capsys):
    argv = _argv(argv, tmp_path)
    loaded, code, out = _heavy_loaded(argv)
    assert code == 2 and loaded == [], out
    early = out.strip().splitlines()[-2]        # the probe's last line is its own report
    assert early.startswith("simkit: error:") and "Traceback" not in out, out
    assert _library_line(argv, monkeypatch, capsys) == (early, 2)


# the early check must stop before these: a rule value only the engine's prepare refuses (3 players, B's rules)
# comes before B's seat count is compared; a strategy of one's own is imported first
LEFT_TO_THE_COMMAND = [
    ["compare", "wheedle", "--set-b", "deal.house_hand.3=19", "--players-b", "patient,blocker,random"],
    ["balance", "wheedle", "--set-b", "deal.house_hand.3=19", "--players-b", "patient,blocker,random"],
    ["compare", "wheedle", "--players", "nomodule:attr,nope,random,random"],
    ["experiment", "run", "EXP_SAMPLER", "-o", "OUT"],
    ["experiment", "run", "EXP_RULES_FILE", "-o", "OUT"],
]


@pytest.mark.parametrize("argv", LEFT_TO_THE_COMMAND, ids=[" ".join(case) for case in LEFT_TO_THE_COMMAND])
def test_what_needs_the_library_is_left_to_the_command(argv, tmp_path, monkeypatch, capsys):
    argv = _argv(argv, tmp_path)
    loaded, code, out = _heavy_loaded(argv)
    assert code == 2 and "numba" in loaded, out
    assert _library_line(argv, monkeypatch, capsys) == (out.strip().splitlines()[-2], 2)
