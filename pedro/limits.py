"""The job's default limits, declared once: the configuration's defaults and the command line's help read them."""

from typing import Final

MAX_ROUNDS: Final = 30
"""Most model requests in one job ([agent].max_rounds, --max-rounds)."""
TIME_LIMIT_S: Final = 900.0
"""Most wall-clock seconds one job may take ([agent].time_limit_s, --time-limit)."""
