"""Stock levels: a dict from product name to the quantity on hand."""


def add_stock(stock, item, qty):
    """Record qty more units of item arriving; return stock."""
    stock[item] = qty
    return stock


def remove_stock(stock, item, qty):
    """Record qty units of item leaving; raise ValueError when there are not enough."""
    have = stock.get(item, 0)
    if qty > have:
        raise ValueError(f"only {have} {item} in stock")
    stock[item] = have - qty
    return stock
