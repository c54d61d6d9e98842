"""`python -m cairn`: the `cairn` command line."""

from .cli.entry import main

main()
