"""`python -m spacy_deid` runs the CLI."""

from .cli import main

main()
