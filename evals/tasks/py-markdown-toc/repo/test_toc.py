from toc.render import table_of_contents

DOC = """# Intro
Some words.
## Getting Started
### Install
"""


def test_table_of_contents():
    assert table_of_contents(DOC) == (
        "- [Intro](#intro)\n"
        "  - [Getting Started](#getting-started)\n"
        "    - [Install](#install)"
    )


def test_no_headings():
    assert table_of_contents("just text") == ""
