from text import count_vowels


def test_count_vowels_example():
    assert count_vowels("Hello World") == 3


def test_count_vowels_upper_case():
    assert count_vowels("AEIOU") == 5
    assert count_vowels("aEiOu") == 5


def test_count_vowels_none():
    assert count_vowels("") == 0
    assert count_vowels("rhythm") == 0
    assert count_vowels("xyz 123!") == 0
