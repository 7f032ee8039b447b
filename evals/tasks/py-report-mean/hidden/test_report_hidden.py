from report.render import summary


def test_summary_three_scores():
    assert summary(["a,1", "b,2", "c,2"]) == "3 scores, mean 1.67, best b (2)"
