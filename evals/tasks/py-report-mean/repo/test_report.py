from report.render import summary


def test_summary():
    assert summary(["alice,3", "bob,2"]) == "2 scores, mean 2.50, best alice (3)"


def test_summary_skips_blank_lines():
    lines = ["", "carol, 9", "dan,4", "  "]
    assert summary(lines) == "2 scores, mean 6.50, best carol (9)"


def test_no_scores():
    assert summary([]) == "no scores"
