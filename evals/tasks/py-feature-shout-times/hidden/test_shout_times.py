from textutil import shout


def test_shout_times_example():
    assert shout("hi", times=3) == "HI!!!"


def test_shout_times_one_and_two():
    assert shout("hey", times=1) == "HEY!"
    assert shout("Go", times=2) == "GO!!"


def test_shout_default_is_unchanged():
    assert shout("hi") == "HI!"
