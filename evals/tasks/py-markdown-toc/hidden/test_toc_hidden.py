from toc.render import table_of_contents


def test_more_headings():
    assert table_of_contents("# Read Me First\n## Q & A, Part 2") == (
        "- [Read Me First](#read-me-first)\n  - [Q & A, Part 2](#q-a-part-2)"
    )
    assert table_of_contents("## Getting  Started!") == "  - [Getting  Started!](#getting-started)"
