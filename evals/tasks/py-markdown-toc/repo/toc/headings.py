"""Finding the headings of a Markdown document."""


def headings(text):
    """Return (level, title) for each line that starts with '#': '## Setup' is (2, 'Setup')."""
    found = []
    for line in text.splitlines():
        if line.startswith("#"):
            marks = line.split()[0]
            found.append((len(marks), line[len(marks) :].strip()))
    return found
