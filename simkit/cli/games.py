import click

from ..games import all_games


@click.command("games")
def command():
    """List the games, their player counts and levels."""
    for game in all_games().values():
        counts = ", ".join(map(str, game.player_counts))
        house = ", ".join(map(str, game.house_player_counts))
        click.echo(f"{game.name:<20} {game.title}")
        click.echo(f"{'':<20} players: {counts}" + (f" (house rule: {house})" if house else ""))
        if game.levels:
            click.echo(f"{'':<20} levels: {', '.join(map(str, game.levels))} (rule option `level`)")
        click.echo(f"{'':<20} default line-up: {','.join(game.default_lineup)}")
