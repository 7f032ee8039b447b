from slug import slugify


def test_slugify_default():
    assert slugify("Hello World") == "hello-world"


def test_slugify_custom_separator():
    assert slugify("Hello World", sep="+") == "hello+world"
