from textutil import count_words, shout


def test_count_words():
    assert count_words("the cat and the dog") == 5
    assert count_words("") == 0


def test_shout():
    assert shout("hi") == "HI!"
