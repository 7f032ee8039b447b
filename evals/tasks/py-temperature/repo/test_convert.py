import pytest

from convert import c_to_f, c_to_k, f_to_c


def test_c_to_f():
    assert c_to_f(0) == 32
    assert c_to_f(100) == 212


def test_f_to_c():
    assert f_to_c(212) == 100
    assert f_to_c(32) == 0


def test_c_to_k():
    assert c_to_k(0) == pytest.approx(273.15)
