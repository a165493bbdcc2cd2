"""`python -m mmdsl` runs the command line."""

from .cli.app import main

main()
