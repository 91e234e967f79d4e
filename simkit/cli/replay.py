import click

from ..limits import MAX_GAMES
from .options import game_argument, players_list, players_option, rules_options, seed_option


@click.command("replay")
@game_argument
@seed_option
@click.option("--game", "game_index", type=click.IntRange(0, MAX_GAMES - 1), required=True,
              help="Global index of the game.")
@players_option
@rules_options
@click.option("--rotate-seats", is_flag=True,
              help="A game of a `simkit run --rotate-seats` run: game g is deal g // n with the line-up turned "
                   "g mod n seats.")
def command(game, seed, game_index, players, rules_file, sets, rotate_seats):
    """Re-play one game of a batch from (seed, game index, line-up) and print every move."""
    from ..reports.format import run_headline
    from ..runner import make_batch, rotate

    batch = make_batch(game, game_index + 1, players_list(players), seed, rules_file, sets, rotate_seats=rotate_seats)
    manifest = batch.manifest()
    if rotate_seats:    # the line-up as it sat in this game
        manifest["lineup"] = rotate(manifest["lineup"], game_index % len(batch.seats))
    click.echo(run_headline(batch.game, manifest))      # what is played, as every output starts
    click.echo(replay_text(batch, game_index))


def replay_text(batch, game_index: int) -> str:
    """The game's moves; a strategy's fault in it is one line (simkit.faults), a crash too (simkit.supervise)."""
    from .. import faults, guard
    from ..runner import rotate

    faults.note_playing(batch, game_index, 1)
    seats, deal = list(batch.seats), game_index
    if batch.rotate_seats:
        seats, deal = rotate(seats, game_index % len(seats)), game_index // len(seats)
    try:
        return batch.game.replay(batch.prepared, seats, batch.seed, deal)
    except Exception as exc:
        raise faults.chunk_fault(batch, game_index, 1, exc, guard.words(), replaying=True) from exc
