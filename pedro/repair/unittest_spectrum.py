"""Runs `python -m unittest ARGS` under coverage.py with each test's lines recorded under its unittest id."""

# Copied beside the coverage package into a folder of the run's own and run as `python THIS_FILE ARGS` in place of
# `python -m unittest ARGS`; it imports nothing of pedro's, since it runs in the project's interpreter.

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any


def main() -> None:
    # As `python -m unittest` has it: the working folder first on the path, not this script's; coverage from here.
    here = str(Path(__file__).resolve().parent)
    sys.path[0] = str(Path.cwd())
    sys.path.append(here)
    import unittest

    import coverage

    root = os.environ["PEDRO_SPECTRUM_ROOT"]
    measure = coverage.Coverage(
        data_file=os.environ["PEDRO_SPECTRUM_DATA"],
        config_file=False,
        include=[str(Path(root) / "*")],
        omit=["*/site-packages/*", "*/.venv/*", "*/node_modules/*", f"{here}/*"],
    )
    run = unittest.TestCase.run

    def recorded(self: unittest.TestCase, result: Any = None) -> Any:
        # Each test's lines under its id, the id the run's report gives it.
        measure.switch_context(self.id())
        try:
            return run(self, result)
        finally:
            measure.switch_context("")

    unittest.TestCase.run = recorded  # type: ignore[method-assign]
    measure.start()
    try:
        unittest.main(module=None, argv=["python -m unittest", *sys.argv[1:]])
    finally:
        measure.stop()
        measure.save()


if __name__ == "__main__":
    main()
