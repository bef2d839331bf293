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


# -- pandas: Series and DataFrames are array-likes (``__array__``); SciPy takes them through ``np.asarray``

pd = pytest.importorskip("pandas")
_pd_rng = np.random.default_rng(31)
SERIES = pd.Series(_pd_rng.standard_normal(8))
SERIES2 = pd.Series(_pd_rng.standard_normal(8))
FRAME = pd.DataFrame(_pd_rng.standard_normal((4, 4)) + 4 * np.eye(4))
TALL_FRAME = pd.DataFrame(_pd_rng.standard_normal((5, 3)))

#: (family, call on the family's module): what SciPy returns for pandas input, torchbridge returns.
PANDAS_CASES = {
    "linalg.inv": ("linalg", lambda m: m.inv(FRAME)),
    "linalg.solve": ("linalg", lambda m: m.solve(FRAME, SERIES[:4])),
    "linalg.det": ("linalg", lambda m: m.det(FRAME)),
    "linalg.eigvalsh": ("linalg", lambda m: m.eigvalsh(FRAME + FRAME.T)),
    "linalg.norm": ("linalg", lambda m: m.norm(SERIES)),
    "linalg.qr": ("linalg", lambda m: m.qr(TALL_FRAME)),
    "linalg.lstsq": ("linalg", lambda m: m.lstsq(TALL_FRAME, SERIES[:5])),
    "linalg.ldl": ("linalg", lambda m: m.ldl(FRAME + FRAME.T)),
    "linalg.solve_continuous_are": (
        "linalg",
        lambda m: m.solve_continuous_are(FRAME - 4 * np.eye(4), TALL_FRAME.iloc[:4, :2], FRAME @ FRAME.T, np.eye(2)),
    ),
    "fft.fft": ("fft", lambda m: m.fft(SERIES)),
    "fft.rfft": ("fft", lambda m: m.rfft(SERIES)),
    "fft.dct": ("fft", lambda m: m.dct(SERIES)),
    "fft.fft2": ("fft", lambda m: m.fft2(FRAME)),
    "signal.convolve": ("signal", lambda m: m.convolve(SERIES, SERIES2[:3])),
    "signal.lfilter": ("signal", lambda m: m.lfilter([0.3, 0.2], [1.0, -0.5], SERIES)),
    "signal.detrend": ("signal", lambda m: m.detrend(SERIES)),
    "stats.zscore": ("stats", lambda m: m.zscore(SERIES)),
    "stats.skew": ("stats", lambda m: m.skew(SERIES)),
    "stats.rankdata": ("stats", lambda m: m.rankdata(SERIES)),
    "stats.pearsonr": ("stats", lambda m: m.pearsonr(SERIES, SERIES2)[0]),
    "ndimage.gaussian_filter": ("ndimage", lambda m: m.gaussian_filter(FRAME, 1.0)),
    "ndimage.median_filter": ("ndimage", lambda m: m.median_filter(FRAME, 3)),
    "ndimage.sobel": ("ndimage", lambda m: m.sobel(FRAME)),
    "spatial.distance.cdist": ("spatial.distance", lambda m: m.cdist(TALL_FRAME, TALL_FRAME)),
    "spatial.distance.pdist": ("spatial.distance", lambda m: m.pdist(TALL_FRAME)),
    "special.logsumexp": ("special", lambda m: m.logsumexp(SERIES)),
    "special.softmax": ("special", lambda m: m.softmax(SERIES)),
}


def _pandas_call(family, call):
    import importlib

    want = call(importlib.import_module(f"scipy.{family}"))
    got = call(importlib.import_module(f"torchbridge.{family}"))
    return got, want


def _flat(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


@pytest.mark.parametrize("name", list(PANDAS_CASES))
def test_pandas_input_gives_what_scipy_gives(name):
    got, want = _pandas_call(*PANDAS_CASES[name])
    assert type(got) is type(want)
    for g, w in zip(_flat(got), _flat(want)):
        assert type(g) is type(w), name
        if isinstance(w, np.ndarray):
            assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize(
    "family, call",
    [
        ("special", lambda m: m.erf(SERIES)),
        ("special", lambda m: m.gammaln(FRAME.abs())),
        ("spatial.distance", lambda m: m.euclidean(SERIES, SERIES2)),
    ],
    ids=["special.erf", "special.gammaln", "spatial.distance.euclidean"],
)
def test_pandas_results_scipy_keeps_as_pandas(family, call):
    # SciPy's ufuncs hand pandas input back as pandas (NumPy's __array_ufunc__ dispatch);
    # scipy.spatial.distance.euclidean returns a Python float (BLAS nrm2)
    got, want = _pandas_call(family, call)
    assert type(got) is type(want)
    if isinstance(want, (pd.Series, pd.DataFrame)):
        pd.testing.assert_index_equal(got.index, want.index)
        if isinstance(want, pd.Series):
            assert got.name == want.name
        else:
            pd.testing.assert_index_equal(got.columns, want.columns)
        np.testing.assert_allclose(got.to_numpy(), want.to_numpy(), rtol=1e-12)
    else:
        assert got == pytest.approx(want, rel=1e-12)


def test_pandas_ufunc_results_keep_labels():
    import scipy.special as ss

    import torchbridge.special as ts

    s = pd.Series([0.5, 1.0, 2.0], index=["a", "b", "c"], name="x")
    for got, want in [(ts.erf(s), ss.erf(s)), (ts.beta(s, 2.0), ss.beta(s, 2.0)), (ts.gammaln(s), ss.gammaln(s))]:
        for g, w in zip(got if isinstance(got, tuple) else [got], want if isinstance(want, tuple) else [want]):
            pd.testing.assert_series_equal(g, w, rtol=1e-12)
