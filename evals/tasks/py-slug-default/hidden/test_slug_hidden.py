from slug import slugify, unique_slug


def test_slugify_more():
    assert slugify("  Many   Spaces Here ") == "many-spaces-here"


def test_unique_slug():
    assert unique_slug("My Post", set()) == "my-post"
    assert unique_slug("My Post", {"my-post", "my-post-2"}) == "my-post-3"
