"""`python -m cairn`: the `cairn` command line."""

from .cli.main import main

main()
