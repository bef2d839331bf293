"""A SciPy name torchbridge.special lacks: an AttributeError that says so and where to go instead."""

import pytest
import scipy.special as sc

import torchbridge as tb


def test_a_scipy_name_not_implemented_says_so_and_points_elsewhere():
    missing = sorted(set(sc.__all__) - set(tb.special.__all__))
    assert "pro_ang1" in missing  # (until it is implemented: then pick another)
    for name in missing:
        with pytest.raises(AttributeError, match=rf"scipy\.special\.{name} is not implemented") as info:
            getattr(tb.special, name)
        message = str(info.value)
        assert "torchbridge.torch" in message and "torchbridge.ops" in message and "SciPy itself" in message
        assert not hasattr(tb.special, name)


def test_other_missing_names_keep_the_plain_message():
    with pytest.raises(AttributeError, match="has no attribute 'not_a_function'"):
        tb.special.not_a_function  # noqa: B018 (the attribute access is the test)
    assert not hasattr(tb.special, "__wrapped__")
