"""`python -m pedro` runs the command line."""

from pedro.startup import quiet_interrupts_while_starting

quiet_interrupts_while_starting()  # before the command line's imports: Ctrl-C there is an ending, not a traceback

from pedro.cli import main  # noqa: E402

main()
