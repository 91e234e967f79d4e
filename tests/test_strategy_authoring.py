"""What strategy authors tripped on: named parameter positions, a strategy written from scratch, a budget
unit given unquoted."""
import numpy as np

from simkit.games import get_game
from simkit.strategy import parse_lineup

# ---- what strategy authors tripped on ---------------------------------------------------------------------

def test_param_index_names_the_positions_build_gives_and_numba_reads_them_as_constants():
    from numba import njit

    from simkit.strategy import Strategy, param_index, registered

    collector = registered("wheedle")["collector"]
    P = param_index({"min_points": 25.0}, base=collector)
    built = Strategy.build("wheedle", "indexed", base=collector, params={"min_points": 25.0})
    assert [getattr(P, name) for name in built.params] == list(range(len(built.params)))

    @njit
    def read(params):
        return params[P.min_points]

    assert read(built.param_vector({"min_points": 7})) == 7


def test_a_strategy_written_from_scratch_plays(tmp_path):
    from simkit.games.wheedle.view import PASS
    from simkit.strategy import Seat, Strategy

    def act(hand, public, seen, params, memory, rng, action):
        return PASS

    def accept(hand, public, seen, offer, params, memory, rng):
        return False

    idle = Strategy.build("wheedle", "idle", act=act, accept=accept, params={})
    game = get_game("wheedle")
    seats = [Seat(idle, {}), *parse_lineup("wheedle", ["hair-trigger", "threshold", "blocker"])]
    columns = game.simulate(game.prepare(game.default_rules, 4), seats, 1, 0, 5, check=True)
    assert np.sum(np.asarray(columns["offers"]).reshape(-1, 4)[:, 0]) == 0


def test_a_budget_unit_may_follow_unquoted(cli_error):
    line = cli_error(["tune", "wheedle", "-s", "patient", "--self-play", "-b", "0", "minutes"])
    assert "'0 minutes'" in line, line


def test_summary_names_a_seat_whose_answers_were_refused(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import cli

    out = tmp_path / "run"
    run = CliRunner().invoke(cli, ["run", "dweebies", "--players", "tests.dweebies.toy_strategies:DECLINER,greedy,random",
                                   "--games", "20", "--out", str(out), "-q", "--workers", "1"], catch_exceptions=False)
    assert run.exit_code == 0, run.output
    summary = CliRunner().invoke(cli, ["summary", str(out)], catch_exceptions=False)
    assert summary.output.splitlines()[2].startswith("- Refused answers (illegal_actions, each replaced by the "
                                                     "engine's default): decliner (")
