"""`python -m pedro` runs the command line."""

from pedro.cli import main

main()
