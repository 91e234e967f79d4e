import json

import click

from ..games import get_game


@click.command("summary")
@click.argument("directory", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def command(directory, as_json):
    """What was tested, the answers in a few lines, then win rate and mean score per strategy and per seat
    with 95% CIs (Wilson for rates): the numbers and cells of the run's report."""
    from ..analysis.activity import refused_in_run
    from ..reports.format import run_findings, run_headline, summary_frames, table_text
    from ..results import read_manifest, summarize

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
    game = get_game(manifest["game"])
    headline = run_headline(game, manifest)
    findings = refused_in_run(directory) + run_findings(directory, manifest, tables)
    click.echo("\n".join([headline, "=" * min(len(headline), 100), *(f"- {line}" for line in findings)]))
    for key, flat in summary_frames(tables, manifest).items():
        click.echo(f"\n[by {key}]\n{table_text(flat, game)}")


def _num(value):
    value = float(value)
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value
