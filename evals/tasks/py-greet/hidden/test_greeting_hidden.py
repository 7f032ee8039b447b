from greeting import greet


def test_greet_more():
    assert greet("Bob") == "Hello, Bob!"
    assert greet("") == "Hello, !"
