import json

import click

from ..results import read_manifest, summarize
from ..stats import fmt_interval


@click.command("summary")
@click.argument("directory", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def command(directory, as_json):
    """Win rate and mean score per strategy and per seat, with 95% CIs (Wilson for rates)."""
    manifest = read_manifest(directory)
    tables = summarize(directory)
    score = manifest.get("score_column", "points")
    if as_json:
        payload = {"game": manifest["game"], "games": manifest["games"], "seed": manifest["seed"],
                   "score": score, "confidence": 0.95}
        for key, table in tables.items():
            payload[f"by_{key}"] = [{key: (int(k) if key == "seat" else str(k)), **{c: _num(v) for c, v in row.items()}}
                                    for k, row in table.iterrows()]
        click.echo(json.dumps(payload, indent=2))
        return
    official = "" if manifest.get("official_player_count", True) else "  [house-rule player count]"
    click.echo(f"{manifest['title']}: {manifest['games']} games, seed {manifest['seed']}, "
               f"{manifest['players']} players{official}")
    labels = {entry["seat"]: entry["label"] for entry in manifest["lineup"]}
    for key, table in tables.items():
        click.echo("")
        click.echo(f"{'by ' + key:<28} {'n':>9}  {'win rate':>8} {'95% CI':>18}  {'mean ' + score:>11} {'95% CI':>20}")
        for name, row in table.iterrows():
            label = f"{name} ({labels.get(int(name), '')})" if key == "seat" else str(name)
            click.echo(f"{label[:28]:<28} {int(row['n']):>9}  {row['win_rate']:>8.4f} "
                       f"{fmt_interval(row['win_low'], row['win_high'], 4):>18}  {row[f'mean_{score}']:>11.3f} "
                       f"{fmt_interval(row['mean_low'], row['mean_high'], 3):>20}")


def _num(value):
    value = float(value)
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value
