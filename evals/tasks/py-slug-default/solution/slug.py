"""URL slugs for article titles."""


def slugify(title, sep="-"):
    """Return title as a URL slug: its words in lower case, joined by sep."""
    words = title.lower().split()
    return sep.join(words)


def unique_slug(title, taken):
    """Return a slug for title that is not in taken, adding a number when needed."""
    base = slugify(title)
    slug = base
    n = 2
    while slug in taken:
        slug = f"{base}-{n}"
        n += 1
    return slug
