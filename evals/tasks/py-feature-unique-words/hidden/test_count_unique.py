from textutil import count_words


def test_unique_counts_distinct_words():
    assert count_words("a b a", unique=True) == 2


def test_unique_ignores_case():
    assert count_words("The the THE cat", unique=True) == 2


def test_default_counts_every_word():
    assert count_words("a b a") == 3
    assert count_words("a b a", unique=False) == 3
    assert count_words("", unique=True) == 0
