"""A tiny shop: a catalog, carts and checkout."""
