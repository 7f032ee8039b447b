"""The attributes of the object a failure says lacks one: the project's, the builtins' and the standard library's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pedro.repair import object_attributes
from pedro.repair.object_attributes import missing_attributes

ACCOUNTS = (
    "class Base:\n"
    "    currency = 'EUR'\n\n"
    "    def describe(self):\n        return self.currency\n\n\n"
    "class Account(Base):\n"
    "    limit: int = 0\n\n"
    "    def __init__(self, owner):\n"
    "        self.owner = owner\n"
    "        self.balance = 0\n\n"
    "    @property\n    def overdrawn(self):\n        return self.balance < 0\n\n"
    "    def deposit(me, amount):\n        me.history = [amount]\n"
)


def attributes(root: Path, message: str) -> dict[str, frozenset[str]]:
    return dict(missing_attributes([message], root))


def test_a_project_class_offers_its_methods_fields_and_what_its_methods_set_on_self_and_its_bases_too(
    tmp_path: Path,
) -> None:
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "accounts.py").write_text(ACCOUNTS)
    # A test file's class of the same name is not the project's.
    (tmp_path / "test_bank.py").write_text("class Account:\n    def balanse(self):\n        pass\n")
    found = attributes(tmp_path, "E   AttributeError: 'Account' object has no attribute 'balanse'")
    assert found["balanse"] >= {"balance", "owner", "limit", "overdrawn", "deposit", "history", "currency", "describe"}
    assert "balanse" not in found["balanse"] and "__init__" in found["balanse"]
    # The class itself, named by its module too.
    assert (
        "balance"
        in attributes(tmp_path, "AttributeError: type object 'bank.accounts.Account' has no attribute 'x'")["x"]
    )


def test_a_builtin_type_offers_its_public_attributes_and_none_offers_nothing(tmp_path: Path) -> None:
    found = attributes(tmp_path, "AttributeError: 'str' object has no attribute 'startwith'")
    assert "startswith" in found["startwith"] and not any(name.startswith("_") for name in found["startwith"])
    # A class of the project built on a builtin has the builtin's attributes as well as its own.
    (tmp_path / "tags.py").write_text("class Tags(dict):\n    def first(self):\n        return next(iter(self))\n")
    assert {"first", "items", "setdefault"} <= attributes(
        tmp_path, "AttributeError: 'Tags' object has no attribute 'iterms'"
    )["iterms"]
    # None has none of the attributes meant: the failure is elsewhere.
    assert attributes(tmp_path, "AttributeError: 'NoneType' object has no attribute 'strip'") == {}


def test_a_module_offers_its_top_level_names_the_projects_first(tmp_path: Path) -> None:
    (tmp_path / "src" / "shop").mkdir(parents=True)
    (tmp_path / "src" / "shop" / "__init__.py").write_text("")
    (tmp_path / "src" / "shop" / "prices.py").write_text(
        "import math\nfrom decimal import Decimal as D\n\nRATE = 0.2\n\n\ndef with_tax(x):\n    return x * (1 + RATE)\n"
    )
    found = attributes(tmp_path, "AttributeError: module 'shop.prices' has no attribute 'with_tx'")
    assert found["with_tx"] == {"math", "D", "RATE", "with_tax"}
    assert "sqrt" in attributes(tmp_path, "AttributeError: module 'math' has no attribute 'sqr'")["sqr"]
    assert "join" in attributes(tmp_path, "AttributeError: module 'os.path' has no attribute 'joinn'")["joinn"]
    # What a standard module takes from a compiled one counts too (`os` from `posix`); one that acts when imported is
    # never imported.
    assert "getcwd" in attributes(tmp_path, "AttributeError: module 'os' has no attribute 'getcwdd'")["getcwdd"]
    assert attributes(tmp_path, "AttributeError: module 'this' has no attribute 'x'") == {}
    assert attributes(tmp_path, "AttributeError: module 'nowhere' has no attribute 'x'") == {}


def test_a_go_type_offers_its_fields_and_the_methods_declared_on_it(tmp_path: Path) -> None:
    (tmp_path / "person.go").write_text(
        "package people\n\ntype Person struct {\n\tName string // the full name\n\tAge, Height int\n}\n\n"
        'func (p *Person) Greet() string {\n\treturn p.Name\n}\n\nfunc (Person) Kind() string { return "p" }\n'
    )
    message = "./people.go:9:11: p.Nmae undefined (type *Person has no field or method Nmae)"
    assert attributes(tmp_path, message)["Nmae"] == {"Name", "Age", "Height", "Greet", "Kind"}


def test_an_object_many_failures_name_is_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bank.py").write_text(ACCOUNTS)
    reads: list[str] = []
    real = object_attributes.project_sources

    def counted(root: Path, language: str) -> Iterator[str]:
        reads.append(language)
        return real(root, language)  # type: ignore[arg-type]

    monkeypatch.setattr(object_attributes, "project_sources", counted)
    message = "AttributeError: 'Account' object has no attribute 'balanse'"
    found = dict(missing_attributes([message, message, message.replace("balanse", "ownr")], tmp_path))
    assert "balance" in found["balanse"] and "owner" in found["ownr"]
    assert reads == ["python"]
