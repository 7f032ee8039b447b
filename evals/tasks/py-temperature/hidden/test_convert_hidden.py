from convert import c_to_f, f_to_c


def test_minus_forty_is_the_same_on_both_scales():
    assert c_to_f(-40) == -40
    assert f_to_c(-40) == -40


def test_f_to_c_more():
    assert f_to_c(50) == 10
