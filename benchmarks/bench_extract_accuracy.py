"""Extraction accuracy over the acceptance corpus (tests/acceptance): calls recovered, and calls made up from prose."""

from __future__ import annotations

import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "acceptance"


def run() -> dict[str, float]:
    """Recovered-call rate (goal >= 0.99), false-positive calls overall and on no-call cases (goal 0), pass rate."""
    if str(CORPUS) not in sys.path:
        sys.path.insert(0, str(CORPUS))
    import acceptance_corpus  # noqa: PLC0415 - the corpus lives with the tests, found only once run() asks

    return acceptance_corpus.summarize(acceptance_corpus.run_all())


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:34} {value:.4f}")  # noqa: T201 - a benchmark script reports on stdout
