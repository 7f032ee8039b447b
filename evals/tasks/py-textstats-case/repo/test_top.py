from textstats.top import top_words


def test_top_word_ignores_case():
    assert top_words("The cat saw the dog. The end.", 1) == [("the", 3)]


def test_ties_are_alphabetical():
    assert top_words("b a b c", 3) == [("b", 2), ("a", 1), ("c", 1)]
