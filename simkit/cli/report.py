from pathlib import Path

import click

from ..errors import SimkitError
from ..limits import check_output_name
from .options import allow_code_option


@click.command("report")
@click.argument("directory", type=click.Path())
@click.option("--output", "-o", type=click.Path(dir_okay=False), default=None,
              help="HTML file to write (default: DIRECTORY/report.html, or DIRECTORY/index.html for a folder of results).")
@click.option("--also", multiple=True, type=click.Path(),
              help="Another run of the same game (e.g. another player count) for plots that compare runs; repeatable.")
@allow_code_option
def command(directory, output, also, allow_code):
    """Write a self-contained HTML report (plots embedded) for a run directory, or render again the report
    of an analysis results directory (compare, tournament, sweep, balance, experiment); on a folder of them,
    write its index.html (every run and analysis with its headline, verdict and date, each linked to its
    report; a run without a report gets one)."""
    from ..reports.html import build_report, report_headline
    from ..reports.index import build_index
    from ..results import read_manifest
    from ..strategy import from_data_file

    if Path(directory).is_dir() and not (Path(directory) / "manifest.json").is_file():
        if also:
            raise SimkitError(f"--also compares run directories; {directory} is a folder of results (its index lists them)")
        target = Path(output) if output else Path(directory) / "index.html"
        if target.is_dir():
            raise SimkitError(f"index output {target} is a directory; give a file name")
        index, count = build_index(directory, target)
        listed = "run or analysis" if count == 1 else "runs and analyses"
        click.echo(f"index of {count:,} {listed} written to {index}")
        return
    read_manifest(directory)
    for other in also:
        read_manifest(other)
    output = Path(output) if output else Path(directory) / "report.html"
    check_output_name(output.resolve(), output)
    if output.is_dir():
        raise SimkitError(f"report output {output} is a directory; give a file name")
    if not output.resolve().parent.is_dir():
        raise SimkitError(f"cannot write {output}: its directory does not exist")
    with from_data_file(None if allow_code else f"{Path(directory) / 'manifest.json'}"):     # a re-played sample
        path = build_report(directory, output, also)
    click.echo(f"{report_headline(directory)}\nreport written to {path}")
