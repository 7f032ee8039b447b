"""The one-line summary of a list of scores."""

from report.parse import parse_lines
from report.stats import best, mean


def summary(lines):
    """Return a one-line summary of the score lines."""
    pairs = parse_lines(lines)
    if not pairs:
        return "no scores"
    top_name, top_score = best(pairs)
    average = mean([score for _, score in pairs])
    return f"{len(pairs)} scores, mean {average:.2f}, best {top_name} ({top_score})"
