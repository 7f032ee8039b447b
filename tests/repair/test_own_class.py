"""A class named where the instance's own class was meant: where a failing test subclasses a class of the project,
the lines of that class's code that name it made `type(self)`, found wherever the failure points, and fixed through
the real repair."""

from __future__ import annotations

from pathlib import Path

from test_mutants import fixed_among_the_first

from pedro.repair.own_class import own_class_rows, subclassed

MONEY = (
    "class Money:\n    def __init__(self, cents):\n        self.cents = cents\n\n"
    "    def doubled(self) -> 'Money':\n        return Money(self.cents * 2)\n\n"
    "    def __eq__(self, other):\n        if not isinstance(other, (Money, int)):\n            return NotImplemented\n"
    "        return self.cents == getattr(other, 'cents', other)\n"
)


def test_the_classes_a_test_subclasses_are_read_from_its_code() -> None:
    assert subclassed(["    class Tagged(Money):\n        pass\n", "class Other(money.Money, Mixin):"]) == {"Money"}
    assert subclassed(["    money = Money(5)\n", "class Plain:\n"]) == frozenset()


def test_a_line_that_names_the_class_as_a_value_names_the_instances_own_class() -> None:
    rows = [(change.row, change.text) for change in own_class_rows(MONEY.splitlines(), frozenset({"Money"}))]
    assert rows == [
        (5, "        return type(self)(self.cents * 2)"),
        (8, "        if not isinstance(other, (type(self), int)):"),
    ]
    classmethod_ = ["    @classmethod", "    def zero(cls):", "        return Money(0)"]
    assert [change.text for change in own_class_rows(classmethod_, frozenset({"Money"}))] == ["        return cls(0)"]
    # Outside a method, as an annotation in a string, a class checked against, or `super(Money, self)`: left alone.
    alone = ["def make(n):", "    return Money(n)", "class Money:", "    def f(self) -> 'Money':",
             "        return super(Money, self).f()", "    def g(self, x):",
             "        return isinstance(Money, type)"]  # fmt: skip
    assert own_class_rows(alone, frozenset({"Money"})) == []


def test_a_method_that_hands_back_the_base_class_is_fixed_for_the_subclass_the_test_makes(repo: Path) -> None:
    test = (
        "from money import Money\n\n\ndef test_doubled_keeps_the_class():\n    class Tagged(Money):\n        pass\n\n"
        "    doubled = Tagged(5).doubled()\n    assert type(doubled) is Tagged\n    assert doubled == 10\n"
    )
    fixed_among_the_first(repo, {"money.py": MONEY, "test_money.py": test}, "`Money` → `type(self)`")
    assert "return type(self)(self.cents * 2)" in (repo / "money.py").read_text()
