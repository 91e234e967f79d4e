"""Bad input of every kind: exit status 2, one line `simkit: error: ...` naming the problem, nothing written."""
import pytest

# (id, argv after `simkit`, text the message must contain); {out} is the output dir, {tmp} the test's tmp dir
RUN_CASES = [
    ("unknown-game", ["run", "chess"], "chess"),
    ("unknown-strategy", ["run", "wheedle", "--players", "hair-trigger,nosuch,threshold,blocker"], "nosuch"),
    ("unknown-parameter", ["run", "wheedle", "--players", "threshold:pointz=3,random,random,random"], "pointz"),
    ("non-numeric-parameter", ["run", "wheedle", "--players", "threshold:points=lots,random,random,random"],
     "points=lots"),
    ("one-player", ["run", "wheedle", "--players", "random"], "not 1"),
    ("seven-players", ["run", "wheedle", "--players", ",".join(["random"] * 7)], "not 7"),
    ("broken-toml", ["run", "wheedle", "--rules", "{tmp}/broken.toml"], "not valid TOML"),
    ("rules-unknown-key", ["run", "wheedle", "--rules", "{tmp}/unknown.toml"], "scoring.stop_bonos"),
    ("rules-missing-file", ["run", "wheedle", "--rules", "{tmp}/absent.toml"], "absent.toml"),
    ("set-unknown-key", ["run", "wheedle", "--set", "options.max_tick=5"], "options.max_tick"),
    ("set-wrong-type", ["run", "wheedle", "--set", "options.gifts_allowed=3"], "options.gifts_allowed"),
    ("set-no-value", ["run", "wheedle", "--set", "options.max_ticks"], "KEY=VALUE"),
    ("impossible-deck", ["run", "wheedle", "--set", "company.0.cards=6"], "62"),
    ("max-ticks-zero", ["run", "wheedle", "--set", "options.max_ticks=0"], "options.max_ticks"),
    ("w8-unknown-reading", ["run", "wheedle", "--set", 'scoring.false_stopper_cards="some"'],
     'scoring.false_stopper_cards must be "none" or "scored"'),
    ("games-zero", ["run", "wheedle", "--games", "0"], "--games"),
    ("games-not-a-number", ["run", "wheedle", "--games", "many"], "--games"),
    ("negative-seed", ["run", "wheedle", "--seed", "-1"], "--seed"),
    ("workers-zero", ["run", "wheedle", "--workers", "0"], "--workers"),
    ("missing-module", ["run", "wheedle", "--players", "no_such_module_q:mine,random,random,random"],
     "no_such_module_q"),
    ("missing-attr", ["run", "wheedle", "--players", "simkit.strategies.wheedle:nothing_here,random,random,random"],
     "nothing_here"),
    ("unknown-option", ["run", "wheedle", "--speed", "9"], "--speed"),
    ("rules-wrong-type", ["run", "wheedle", "--rules", "{tmp}/wrong-type.toml"], "options.max_ticks"),
    ("rules-is-a-directory", ["run", "wheedle", "--rules", "{tmp}/full"], "is a directory"),
    ("us-level-3", ["run", "wheeler-dealer-us", "--set", "game.level=3"], "game.level"),
    ("uk-level-4", ["run", "wheeler-dealer-uk", "--set", "game.level=4"], "game.level"),
    ("uk-set-multiple-rule", ["run", "wheeler-dealer-uk", "--set", 'game.set_multiple_rule="most"'],
     "set_multiple_rule"),
    ("uk-turn-limit-zero", ["run", "wheeler-dealer-uk", "--set", "game.turn_limit=0"], "game.turn_limit"),
    ("uk-borrow-on-sale-not-bool", ["run", "wheeler-dealer-uk", "--set", "game.borrow_on_sale=1"],
     "game.borrow_on_sale"),
    ("dweebies-short-split", ["run", "dweebies", "--set", "deck.copies_split=[1,2,3]"], "copies_split"),
    ("dweebies-hand-too-big", ["run", "dweebies", "--set", "game.hand_size=40"], "game.hand_size"),
    ("dweebies-seven-players", ["run", "dweebies", "--players", ",".join(["random"] * 7)], "not 7"),
    ("us-one-player", ["run", "wheeler-dealer-us", "--players", "random"], "not 1"),
    ("uk-seven-players", ["run", "wheeler-dealer-uk", "--players", ",".join(["random"] * 7)], "not 7"),
    ("strategy-of-another-game", ["run", "dweebies", "--players", "threshold,random"], "threshold"),
    ("empty-seat", ["run", "wheedle", "--players", "random,,random,random"], "empty strategy"),
    ("chunk-size-zero", ["run", "wheedle", "--chunk-size", "0"], "--chunk-size"),
    ("unknown-backend", ["run", "wheedle", "--backend", "spark"], "--backend"),
    ("scheduler-with-local-backend", ["run", "wheedle", "--backend", "local", "--scheduler", "tcp://h:8786"],
     "--scheduler"),
    ("analysis-scheduler-with-local-backend", ["tune", "wheedle", "-s", "patient", "--backend", "local", "--scheduler",
                                               "tcp://h:8786"], "--scheduler"),
    ("upload-without-dask", ["compare", "wheedle", "--upload", "{tmp}/afile"], "--upload"),
    ("out-is-a-file", ["run", "wheedle", "--out", "{tmp}/afile"], "is a file"),
    ("out-below-a-file", ["run", "wheedle", "--out", "{tmp}/afile/sub"], "afile is a file"),
    ("out-not-empty", ["run", "wheedle", "--out", "{tmp}/full"], "--overwrite"),
    ("overwrite-not-a-run", ["run", "wheedle", "--out", "{tmp}/full", "--overwrite"], "no manifest.json"),
]


@pytest.fixture
def files(tmp_path):
    (tmp_path / "broken.toml").write_text("[scoring\nstop_bonus = 5\n")
    (tmp_path / "unknown.toml").write_text("[scoring]\nstop_bonos = 5\n")
    (tmp_path / "wrong-type.toml").write_text('[options]\nmax_ticks = "many"\n')
    (tmp_path / "afile").write_text("keep me")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine")
    return tmp_path


def snapshot(root):
    return sorted((str(p.relative_to(root)), p.is_file() and p.read_bytes()) for p in root.rglob("*"))


@pytest.mark.parametrize("argv, needle", [case[1:] for case in RUN_CASES], ids=[case[0] for case in RUN_CASES])
def test_run_rejects(cli_error, files, argv, needle):
    before = snapshot(files)
    argv = [a.replace("{tmp}", str(files)) for a in argv] + ["--quiet"]
    argv += [] if "--games" in argv else ["--games", "5"]
    argv += [] if "--out" in argv else ["--out", str(files / "out")]
    line = cli_error(argv)
    assert needle in line
    assert snapshot(files) == before, "nothing may be written for bad input (no output, no staging directory)"


def test_empty_existing_output_dir_is_fine(tmp_path):
    from simkit.cli import main

    target = tmp_path / "empty"
    target.mkdir()
    main(["run", "wheedle", "--games", "3", "--out", str(target), "-q", "-w", "1"])  # returns normally
    assert (target / "manifest.json").is_file()


@pytest.mark.parametrize("command", [["summary"], ["summary", "--json"], ["report"]])
def test_not_a_run_directory(cli_error, tmp_path, command):
    plain = tmp_path / "plain"
    plain.mkdir()
    line = cli_error([command[0], str(plain), *command[1:]])
    # report also takes a folder of results (it writes their index), so it says it found none
    expected = "holds no run or analysis" if command == ["report"] else "not a simkit run directory"
    assert expected in line and "plain" in line
    assert list(plain.iterdir()) == []


def test_summary_of_missing_directory(cli_error, tmp_path):
    line = cli_error(["summary", str(tmp_path / "nowhere")])
    assert "nowhere" in line


def test_corrupt_manifest(cli_error, tmp_path):
    (tmp_path / "manifest.json").write_text("{not json")
    assert "not valid JSON" in cli_error(["summary", str(tmp_path)])


def test_report_into_a_directory(cli_error, run_dir, tmp_path):
    assert "directory" in cli_error(["report", str(run_dir), "-o", str(tmp_path)])


def test_report_into_missing_directory(cli_error, run_dir, tmp_path):
    assert "does not exist" in cli_error(["report", str(run_dir), "-o", str(tmp_path / "a" / "r.html")])


@pytest.mark.parametrize("argv, needle", [
    (["replay", "wheedle", "--seed", "1"], "--game"),
    (["replay", "wheedle", "--game", "-2"], "--game"),
    (["replay", "wheedle", "--game", "0", "--players", "random"], "not 1"),
    (["rules", "wheedle", "--set", "scoring.bonus=3"], "scoring.bonus"),
    (["rules", "wheedle", "--set", "company.0.cards=6"], "62"),
    (["strategies", "chess"], "chess"),
    (["nosuchcommand"], "nosuchcommand"),
])
def test_other_commands_reject(cli_error, argv, needle):
    assert needle in cli_error(argv)


def test_set_whole_table_one_line_error(cli_error, tmp_path):
    out = tmp_path / "out"
    line = cli_error(["run", "wheedle", "--games", "3", "--out", str(out), "-q", "--set", "options={foo=1}"])
    assert "options" in line
    assert not out.exists()


def test_out_current_directory(capsys, tmp_path, monkeypatch):
    from simkit.cli import main

    empty = tmp_path / "here"
    empty.mkdir()
    monkeypatch.chdir(empty)
    try:
        main(["run", "wheedle", "--games", "2", "--out", ".", "-q", "-w", "1"])
    except SystemExit as exc:
        assert exc.code == 2
        assert len(capsys.readouterr().err.splitlines()) == 1
    else:
        assert (empty / "manifest.json").is_file()


def test_rules_command_accepts_a_deck_for_other_counts(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import cli

    path = tmp_path / "two.toml"
    path.write_text("".join(f'[[company]]\nname = "C{i}"\ncards = 7\n' for i in range(3))
                    + "[deal]\nhouse_hand = { 2 = 10, 3 = 20 }\n")  # 21 = 10 * 2 + 1
    run = CliRunner().invoke(cli, ["run", "wheedle", "--players", "random,random", "--games", "3", "--rules",
                                   str(path), "--out", str(tmp_path / "r"), "-q", "-w", "1"])
    assert run.exit_code == 0, run.output
    result = CliRunner().invoke(cli, ["rules", "wheedle", "--rules", str(path)])
    assert result.exit_code == 0, result.output


# The analysis commands: (id, argv after `simkit`, text the message must contain); each also gets --out {out}.
ANALYSIS_CASES = [
    ("compare-unknown-strategy", ["compare", "wheedle", "--players-b", "nosuch,threshold,patient,blocker"], "nosuch"),
    ("compare-unknown-param", ["compare", "wheedle", "--players-a", "threshold:pointz=3,random,random,random"], "pointz"),
    ("compare-seat-counts", ["compare", "wheedle", "--players-b", "random,random,random,random,random"], "same number"),
    ("compare-set-b-unknown-key", ["compare", "wheedle", "--set-b", "scoring.nope=1"], "scoring.nope"),
    ("compare-target-zero", ["compare", "wheedle", "--until-decided", "--target", "0"], "--target"),
    ("tournament-too-few", ["tournament", "wheedle", "--strategies", "hair-trigger,threshold", "--players", "4"], "at least 4"),
    ("tournament-twice", ["tournament", "wheedle", "--strategies", "random,random,threshold,patient"], "twice"),
    ("tournament-players", ["tournament", "wheedle", "--strategies", "random,threshold", "--players", "9"], "not 9"),
    ("sweep-backwards-range", ["sweep", "wheedle", "--strategy", "threshold", "--param", "points=20:4:2"], "START <= STOP"),
    ("sweep-not-a-number", ["sweep", "wheedle", "--strategy", "threshold", "--param", "points=4:x:2"], "not a number"),
    ("sweep-zero-step", ["sweep", "wheedle", "--strategy", "threshold", "--param", "points=4:20:0"], "positive STEP"),
    ("sweep-unknown-param", ["sweep", "wheedle", "--strategy", "threshold", "--param", "pointz=4:20:4"], "pointz"),
    ("sweep-no-strategy", ["sweep", "wheedle", "--param", "points=4:20:4"], "--strategy"),
    ("sweep-param-and-rule", ["sweep", "wheedle", "--strategy", "threshold", "--param", "points=4:8:4",
                              "--rule", "scoring.false_stop=-10:0:5"], "exactly one"),
    ("sweep-unknown-rule", ["sweep", "wheedle", "--rule", "scoring.nope=1:2:1"], "scoring.nope"),
    ("sweep-rule-bad-value", ["sweep", "dweebies", "--rule", "deck.copies_split=[1,2,3,4]|[9,12,3,3]"], "copies_split"),
    ("sweep-focus", ["sweep", "wheedle", "--rule", "scoring.false_stop=-10:0:5", "--focus", "7"], "focus"),
    ("balance-too-few-games", ["balance", "wheedle", "--games", "3"], "at least 8"),
    ("balance-unknown-strategy", ["balance", "dweebies", "--players", "greedy,nosuch"], "nosuch"),
    ("experiment-missing", ["experiment", "run", "{tmp}/absent.toml"], "absent.toml"),
    ("experiment-broken-toml", ["experiment", "run", "{tmp}/broken.toml"], "not valid TOML"),
    ("experiment-unknown-key", ["experiment", "run", "{tmp}/exp-unknown.toml"], "'gmae'"),
    ("experiment-unknown-kind", ["experiment", "run", "{tmp}/exp-kind.toml"], "kind must be one of"),
    ("experiment-unknown-analysis-key", ["experiment", "run", "{tmp}/exp-key.toml"], "'stratgy'"),
    ("experiment-no-analysis", ["experiment", "run", "{tmp}/exp-none.toml"], "[[analysis]]"),
    ("experiment-bad-strategy-late", ["experiment", "run", "{tmp}/exp-late.toml"], "nosuch"),
]

EXPERIMENT_FILES = {
    "exp-unknown.toml": 'gmae = "wheedle"\n[[analysis]]\nkind = "balance"\n',
    "exp-kind.toml": 'game = "wheedle"\n[[analysis]]\nkind = "duel"\n',
    "exp-key.toml": 'game = "wheedle"\n[[analysis]]\nkind = "sweep"\nstratgy = "threshold"\n',
    "exp-none.toml": 'game = "wheedle"\n',
    "exp-late.toml": 'game = "wheedle"\ngames = 40\n[[analysis]]\nkind = "balance"\n[[analysis]]\nkind = "compare"\n'
                     'players_b = ["nosuch", "threshold", "patient", "blocker"]\n',
}


@pytest.mark.parametrize("argv, needle", [case[1:] for case in ANALYSIS_CASES], ids=[case[0] for case in ANALYSIS_CASES])
def test_analysis_commands_reject(cli_error, files, argv, needle):
    for name, text in EXPERIMENT_FILES.items():
        (files / name).write_text(text)
    before = sorted(p.name for p in files.iterdir())
    out = files / "out"
    line = cli_error([a.replace("{tmp}", str(files)) for a in argv] + ["--games", "40", "--out", str(out)][
        (2 if "--games" in argv else 0):])
    assert needle in line
    assert not out.exists(), "nothing may be written for bad input"
    assert sorted(p.name for p in files.iterdir()) == before, "no staging directory"


@pytest.mark.parametrize("command", [["compare", "wheedle"], ["balance", "dweebies"]])
def test_analysis_output_in_the_way(cli_error, tmp_path, command):
    taken = tmp_path / "taken"
    taken.write_text("keep me")
    line = cli_error([*command, "--games", "40", "--out", str(taken)])
    assert "taken" in line and taken.read_text() == "keep me"
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine")
    assert "--overwrite" in cli_error([*command, "--games", "40", "--out", str(full)])
    assert [p.name for p in full.iterdir()] == ["notes.txt"]
