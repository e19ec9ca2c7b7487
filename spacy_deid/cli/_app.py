"""The typer application that every `spacy-deid` command registers on."""

import typer

app = typer.Typer(
    name="spacy-deid",
    help="De-identify clinical notes: find PHI and replace it.",
    no_args_is_help=True,
    add_completion=False,
)
