from textstats.top import top_words


def test_mixed_case_and_punctuation():
    assert top_words("Go go GO! stop.", 2) == [("go", 3), ("stop", 1)]
