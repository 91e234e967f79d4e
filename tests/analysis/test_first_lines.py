"""What analyses say first (refused answers, rule activity, the rating order) and the rule keys a search may
vary (levels counted as the rulebooks count them)."""
import pytest

from simkit.games import get_game

# ---- level keys count as the rulebook does; a search refuses a key the played rules never read ------------

def test_uk_level_keys_count_from_one_and_the_old_spelling_names_the_new():
    from simkit.errors import SimkitError

    game = get_game("wheeler-dealer-uk")
    rules = game.rules(sets=["level.2.target_wealth=1234567"])
    assert [entry["target_wealth"] for entry in rules["level"] if entry["level"] == 2] == [1234567]
    assert game.rule_changes(rules) == [("level.2.target_wealth", 2_000_000, 1234567)]
    with pytest.raises(SimkitError, match=r"old spelling, counted from 0: write level\.1\.target_wealth$"):
        game.rules(sets=["level.0.target_wealth=5"])
    with pytest.raises(SimkitError, match="numbered as the rulebook counts them, 1, 2, 3$"):
        game.rules(sets=["level.4.target_wealth=5"])


@pytest.mark.parametrize("vary, named", [
    ("level.3.target_wealth=400000:4000000:log", "level 2's is level.2.target_wealth"),
    ("level.1.target_wealth=400000:4000000:log", "level 2's is level.2.target_wealth"),
    ("game.set_multiple_size.4=1:9:int", 'never reads game.set_multiple_size (read under "size")'),
])
def test_design_refuses_a_key_the_played_rules_never_read(cli_error, tmp_path, vary, named):
    line = cli_error(["design", "wheeler-dealer-uk", "--set", "game.level=2", "--vary", vary, "--goal", "length=60",
                      "--out", str(tmp_path / "out")])
    assert named in line
    assert not (tmp_path / "out").exists()


def test_a_rule_sweep_refuses_a_key_the_played_rules_never_read(cli_error, tmp_path):
    line = cli_error(["sweep", "wheeler-dealer-uk", "--set", "game.level=2", "--rule",
                      "level.1.target_wealth=500000|900000", "--games", "20", "--out", str(tmp_path / "out")])
    assert line.startswith("simkit: error: --rule level.1.target_wealth: these rules play level 2") and \
        "level 2's is level.2.target_wealth" in line
    assert not (tmp_path / "out").exists()


def test_run_warns_first_of_a_key_the_played_rules_never_read(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import cli

    argv = ["run", "wheeler-dealer-uk", "--set", "game.level=2", "--set", "level.1.target_wealth=900000", "--games",
            "4", "--quiet", "--workers", "1", "--out"]
    result = CliRunner().invoke(cli, [*argv, str(tmp_path / "old")], catch_exceptions=False)
    assert result.exit_code == 0
    assert result.stderr.splitlines()[0].startswith("simkit: warning: rule change level.1.target_wealth never comes "
                                                    "into play: these rules play level 2")
    fine = CliRunner().invoke(cli, [*argv[:5], "level.2.target_wealth=900000", *argv[6:], str(tmp_path / "new")],
                              catch_exceptions=False)
    assert fine.exit_code == 0 and "warning" not in fine.stderr


# ---- what analyses say first ----------------------------------------------------------------------------

def test_a_rule_change_that_never_came_into_play_says_so_and_names_who_would():
    from simkit.analysis import compare

    result = compare("wheedle", players=["hair-trigger", "threshold", "patient", "blocker"], games=200, seed=3,
                     sets_b=["scoring.false_stop=-10"])
    first = result.findings[0]
    assert first.startswith("Rule change scoring.false_stop: -5 -> -10 came into play in 0 of the 400 games played")
    assert "cannot tell you whether the rule matters" in first and "random" in first.split("into play: ")[-1]
    acted = compare("wheedle", players=["hair-trigger", "threshold", "patient", "random"], games=200, seed=3,
                    sets_b=["scoring.false_stop=-10"])
    assert acted.findings[0].startswith("Rule change scoring.false_stop: -5 -> -10 came into play in ")
    assert " 0 of the" not in acted.findings[0] and "random" in acted.findings[0]


def test_compare_reports_the_rules_both_sides_play_and_says_when_b_is_a():
    from simkit.analysis import compare

    lineup = ["hair-trigger", "threshold", "patient", "blocker"]
    same = compare("wheedle", players=lineup, games=100, seed=3, sets=["scoring.false_stop=-10"])
    assert same.findings[0].startswith("Rule change scoring.false_stop: -5 -> -10 came into play in 0 of the 200 games")
    assert same.findings[1].startswith("B is A: no --set-b, --players-b or --seed-b was given")
    both = compare("wheedle", players=lineup, games=100, seed=3, sets=["scoring.false_stop=-10"],
                   sets_b=["scoring.stop_bonus=12"])
    assert both.findings[0].startswith("Rule change scoring.false_stop: -5 -> -10 came into play in 0 of the 200")
    assert both.findings[1].startswith("Rule change scoring.stop_bonus: 5 -> 12 came into play in ")
    assert not any(line.startswith("B is A") for line in both.findings)


def test_refused_answers_are_named_first():
    import pandas as pd

    from simkit.analysis.activity import refused_answers

    frame = pd.DataFrame({"game": [0, 0, 1, 1], "strategy": ["a", "b", "a", "b"], "illegal_actions": [0, 3, 0, 1]})
    assert refused_answers([frame]) == ["Refused answers (illegal_actions, each replaced by the engine's default): "
                                        "b (4 in 2 games, 2 per game). Results for these seats measure the defaults "
                                        "as much as the strategy."]
    assert refused_answers([frame.assign(illegal_actions=0)]) == []


def test_a_tournament_says_why_rating_and_win_rate_orders_differ():
    import pandas as pd

    from simkit.analysis.tournament import order_note

    standings = pd.DataFrame({"win_rate": [0.195, 0.21], "mean_rank": [2.1, 2.3]}, index=["hair-trigger", "threshold"])
    head = pd.DataFrame([[float("nan"), 0.56], [0.44, float("nan")]], index=standings.index, columns=standings.index)
    note = order_note(standings, head)[0]
    assert note.startswith("Why hair-trigger is rated above threshold although threshold wins more games (21.0% "
                           "against 19.5%)")
    assert "finishes ahead of threshold in 56.0% of their shared games" in note
    assert order_note(standings.assign(win_rate=[0.3, 0.2]), head) == []


def test_design_warns_when_every_trial_plays_identically():
    from simkit.analysis.design import design

    result = design("wheedle", players=["hair-trigger", "threshold", "patient", "blocker"],
                    vary=["scoring.false_stop=-20:-1:int"], goal=["length=100"],
                    budget="4", trial_games=40, games=40, seed=2, candidates=1)
    assert result.findings[0].startswith("Rule change scoring.false_stop (varied by the search) came into play in 0 "
                                         "of the")
    assert result.findings[1].startswith("Warning: every trial played identically (")


def test_a_change_to_a_table_the_played_rules_never_read_names_the_key_they_read():
    """An old file's level.1 (level 2 while keys counted from 0) played at level 2 is caught in the first lines."""
    from simkit.analysis.activity import first_lines

    game = get_game("wheeler-dealer-uk")
    at_level_2 = game.rules(sets=["game.level=2"])
    changed = game.rules(sets=["game.level=2", "level.1.target_wealth=900000"])
    line = first_lines(game, at_level_2, changed, [])[0]
    assert line.startswith("Rule change level.1.target_wealth: 1,000,000 -> 900,000 never came into play: these "
                           "rules play level 2 (game.level = 2), which never reads level 1's table; level 2's is "
                           "level.2.target_wealth")
    assert line.endswith("so an older file's level.N meant level N+1).")
    # one rule set reported against the defaults: caught at level 2; at level 1, which reads level.1, counted
    assert any("level.1.target_wealth" in line and "never came into play" in line
               for line in first_lines(game, game.default_rules, changed, []))
    assert not any("never came into play" in line for line in first_lines(
        game, game.default_rules, game.rules(sets=["level.1.target_wealth=900000"]), []))
    # A at level 1, B at level 2 with level 1's target changed: A reads level.1 but plays the default value;
    # the changed value is B's, which never reads it
    assert any("level.1.target_wealth" in line and "never came into play" in line
               for line in first_lines(game, game.rules(), changed, []))


def test_retuned_players_games_say_whether_the_rule_came_into_play():
    import pandas as pd

    from simkit.analysis.retune import _retuned_activity

    game = get_game("wheedle")
    a, b = game.rules(), game.rules(sets=["scoring.false_stop=-10"])
    tuned = pd.DataFrame({"game": [0, 0, 1, 1], "strategy": ["threshold*", "patient"] * 2, "false_stops": [0, 0, 2, 0]})
    line, = _retuned_activity(game, a, b, [tuned, tuned.assign(false_stops=0)])
    assert line == ("With re-tuned players: rule change scoring.false_stop: -5 -> -10 came into play in 1 of the 4 "
                    "games played (false_stops per game and seat: threshold* 1).")
    # a value every game uses is said once, in the first lines
    assert _retuned_activity(game, a, game.rules(sets=["options.rounds=3"]), [tuned]) == []
