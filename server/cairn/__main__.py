"""`python -m cairn`: the `cairn` command line."""

from .cli import main

main()
