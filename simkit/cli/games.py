import click

from ..games import all_games


@click.command("games")
@click.option("--columns", is_flag=True, help="Also describe each game's result columns.")
def command(columns):
    """List the games, their player counts, levels and default line-ups."""
    for game in all_games().values():
        counts = ", ".join(map(str, game.player_counts))
        house = ", ".join(map(str, game.house_player_counts))
        click.echo(f"{game.name:<20} {game.title}")
        click.echo(f"{'':<20} players: {counts}" + (f" (house rule: {house})" if house else ""))
        if game.levels:
            click.echo(f"{'':<20} levels: {', '.join(map(str, game.levels))} (a rule option: see simkit rules {game.name})")
        click.echo(f"{'':<20} default line-up: {','.join(game.default_lineup)}")
        if columns:
            click.echo(f"{'':<20} result columns (besides game, seat, strategy, winner):")
            for name, meaning in game.facts.items():
                click.echo(f"{'':<22} {name}: {meaning}")


command.plays_games = False     # simkit.cli.main runs it without a supervising process
