"""What each kind of NumPy-side input gives back, against SciPy: masked
arrays (the mask propagated by the elementwise routines, refused elsewhere),
ndarray subclasses (kept by the elementwise routines as NumPy's ufuncs keep
them, plain ndarrays elsewhere as SciPy's ``np.asarray`` gives), and the
array-likes ``np.asarray`` takes (``__array__``, ``__array_interface__``,
``range``, nested sequences)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft
import scipy.linalg
import scipy.special as sc
import torch

import torchbridge as tb
from torchbridge import special


def assert_same_masked(got, want):
    assert type(got) is type(want), (type(got), type(want))
    np.testing.assert_array_equal(np.ma.getmaskarray(got), np.ma.getmaskarray(want))
    keep = ~np.ma.getmaskarray(want)
    np.testing.assert_allclose(np.asarray(got)[keep], np.asarray(want)[keep], rtol=1e-15, atol=0)


class TestMaskedArrays:
    x = np.ma.masked_array([0.0, 0.5, 1.0, 9.0], mask=[0, 0, 0, 1])

    def test_unary_keeps_the_mask_and_never_changes_the_input(self):
        before = self.x.copy()
        got = special.erf(self.x)
        assert_same_masked(got, sc.erf(self.x))
        assert got.mask.tolist() == [False, False, False, True]
        np.testing.assert_array_equal(self.x.data, before.data)
        np.testing.assert_array_equal(self.x.mask, before.mask)

    @pytest.mark.parametrize(
        "other",
        [
            2.0,
            np.ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[1, 0, 0, 0]),
            np.arange(1.0, 9.0).reshape(2, 4),  # broadcast: the mask follows
            np.ma.masked_array(np.ones((3, 1)), mask=[[0], [1], [0]]),
        ],
        ids=["scalar", "masked", "broadcast", "broadcast-masked"],
    )
    def test_binary_takes_the_union_of_the_masks(self, other):
        assert_same_masked(special.xlogy(self.x, other), sc.xlogy(self.x, other))
        assert_same_masked(special.xlogy(other, self.x), sc.xlogy(other, self.x))

    def test_ternary(self):
        a = np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
        assert_same_masked(special.betainc(a, 2.0, 0.5), sc.betainc(a, 2.0, 0.5))

    def test_zero_dimensional(self):
        masked = np.ma.masked_array(0.5, mask=True)
        assert special.erf(masked) is np.ma.masked is sc.erf(masked)
        got, want = special.erf(np.ma.masked_array(0.5, mask=False)), sc.erf(np.ma.masked_array(0.5, mask=False))
        assert type(got) is type(want) is np.ma.MaskedArray
        assert got.shape == () and not got.mask and float(got) == float(want)
        assert special.erf(self.x[3]) is np.ma.masked  # the masked constant itself

    def test_unmasked_masked_array(self):
        x = np.ma.masked_array([0.1, 0.2])
        assert_same_masked(special.ndtr(x), sc.ndtr(x))

    @pytest.mark.parametrize(
        "call",
        [
            lambda x: tb.fft.fft(x),
            lambda x: tb.linalg.norm(x),
            lambda x: tb.stats.zscore(x),
            lambda x: tb.signal.detrend(x),
            lambda x: tb.ndimage.uniform_filter(x, 3),
            lambda x: tb.special.logsumexp(x),
            lambda x: tb.apply(lambda t: t, x),
        ],
        ids=["fft", "norm", "zscore", "detrend", "uniform_filter", "logsumexp", "apply"],
    )
    def test_other_routines_refuse_it_rather_than_compute_on_masked_values(self, call):
        with pytest.raises(tb.InputTypeError, match="masked array") as info:
            call(self.x)
        assert isinstance(info.value, TypeError)
        assert "x.filled" in str(info.value)


class Sub(np.ndarray):
    """A user's subclass, with the attribute NumPy's `__array_finalize__` carries."""

    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "none")


class TestSubclasses:
    def sub(self):
        s = np.linspace(-1.0, 1.0, 6).view(Sub)
        s.tag = "mine"
        return s

    def test_elementwise_routines_keep_the_subclass_as_ufuncs_do(self):
        s = self.sub()
        got, want = special.erf(s), sc.erf(s)
        assert type(got) is type(want) is Sub
        assert got.tag == want.tag == "mine"
        np.testing.assert_allclose(got, want, rtol=1e-15)
        got, want = special.xlogy(2.0, s), sc.xlogy(2.0, s)
        assert type(got) is type(want) is Sub

    @pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
    def test_matrix(self):
        m = np.matrix([[0.5, 1.0], [1.5, 2.0]])
        got, want = special.gamma(m), sc.gamma(m)
        assert type(got) is type(want) is np.matrix
        np.testing.assert_allclose(got, want, rtol=1e-15)
        # SciPy's linalg returns a plain ndarray for it (np.asarray), as does torchbridge's.
        got, want = tb.linalg.inv(m), scipy.linalg.inv(m)
        assert type(got) is type(want) is np.ndarray
        np.testing.assert_allclose(got, want, rtol=1e-13)

    def test_other_routines_return_plain_ndarrays_as_scipy(self):
        s = self.sub()
        got, want = tb.fft.fft(s), scipy.fft.fft(s)
        assert type(got) is type(want) is np.ndarray
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)

    def test_the_subclass_is_viewed_not_copied(self):
        s = self.sub()
        seen = []
        tb.apply(lambda t: seen.append(t.data_ptr()) or t, s)
        assert seen == [s.__array_interface__["data"][0]]


class Interface:
    """Only `__array_interface__` (as SciPy's test helpers and old libraries)."""

    def __init__(self, base):
        self.base = base
        self.__array_interface__ = base.__array_interface__


class WithArray:
    """Only `__array__` (as pandas and xarray objects)."""

    def __init__(self, base):
        self.base = base

    def __array__(self, dtype=None, copy=None):
        return self.base


@pytest.mark.parametrize(
    "make",
    [
        lambda: WithArray(np.linspace(0, 2, 5)),
        lambda: Interface(np.linspace(0, 2, 5)),
        lambda: range(5),
        lambda: [1, 2.5, True],
        lambda: ((0.0, 1.0), [2, 3]),
    ],
    ids=["__array__", "__array_interface__", "range", "mixed-list", "nested"],
)
def test_array_likes_are_taken_as_numpy_takes_them(make):
    got, want = special.erf(make()), sc.erf(make())
    assert type(got) is type(want) is np.ndarray
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=0)
    got, want = tb.fft.rfft(make(), axis=-1), scipy.fft.rfft(make(), axis=-1)
    assert type(got) is np.ndarray
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def test_an_array_like_follows_the_calls_real_array():
    got = special.xlogy(WithArray(np.array([1.0, 2.0])), torch.tensor([3.0, 4.0], dtype=torch.float64))
    assert isinstance(got, torch.Tensor)
    np.testing.assert_allclose(got.numpy(), sc.xlogy([1.0, 2.0], [3.0, 4.0]), rtol=1e-15)


def test_the_array_interface_is_viewed_not_copied():
    base = np.arange(4.0)
    seen = []
    tb.apply(lambda t: seen.append(t.data_ptr()) or t, Interface(base))
    assert seen == [base.__array_interface__["data"][0]]
