"""Reading score lines such as 'alice,7'."""


def parse_line(line):
    """Return (name, score) from a 'name,score' line."""
    name, score = line.split(",")
    return name.strip(), int(score)


def parse_lines(lines):
    """Return (name, score) pairs for the lines that are not blank."""
    return [parse_line(line) for line in lines if line.strip()]
