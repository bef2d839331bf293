"""SciPy's error handling in torchbridge.special: errstate, geterr, seterr,
SpecialFunctionError, SpecialFunctionWarning, and the reports of each routine
of the table (python/torchbridge/special/_sf_error_table.py) compared with
what SciPy reports on a grid of edge inputs."""

from __future__ import annotations

import itertools
import threading
import warnings

import numpy as np
import pytest

sc = pytest.importorskip("scipy.special")

import torchbridge as tb  # noqa: E402
from torchbridge import special  # noqa: E402
from torchbridge.errors import TorchbridgeError  # noqa: E402
from torchbridge.special import _errstate  # noqa: E402
from torchbridge.special._sf_error_table import TABLE  # noqa: E402

CATEGORIES = ["singular", "underflow", "overflow", "slow", "loss", "no_result", "domain", "arg", "other"]


@pytest.fixture(autouse=True)
def _restore():
    before = special.geterr()
    yield
    special.seterr(**before)


def test_defaults_are_scipys():
    assert special.geterr() == sc.geterr()
    assert set(CATEGORIES) | {"memory"} == set(special.geterr())


@pytest.mark.parametrize("category", CATEGORIES)
def test_every_category_can_be_set(category):
    previous = special.seterr(**{category: "warn"})
    assert previous[category] == "ignore"
    assert special.geterr()[category] == "warn"
    assert special.seterr(**{category: "raise"})[category] == "warn"
    assert special.geterr()[category] == "raise"


def test_seterr_returns_the_previous_settings_and_all_applies_first():
    previous = special.seterr(all="warn", singular="raise")
    assert previous == sc.geterr()
    state = special.geterr()
    assert state["singular"] == "raise" and state["domain"] == "warn" and state["memory"] == "warn"
    special.seterr(**previous)
    assert special.geterr() == previous


def test_bad_keys_and_actions_raise_keyerror_as_scipy():
    for kwargs in ({"foo": "warn"}, {"singular": "bad"}, {"all": "bad"}):
        with pytest.raises(KeyError):
            sc.seterr(**kwargs)
        with pytest.raises(KeyError):
            special.seterr(**kwargs)


def test_classes_are_scipys_too():
    assert issubclass(special.SpecialFunctionWarning, sc.SpecialFunctionWarning)
    assert issubclass(special.SpecialFunctionError, sc.SpecialFunctionError)
    assert issubclass(special.SpecialFunctionError, TorchbridgeError)
    assert special.SpecialFunctionError.__module__ == "torchbridge.special"


def test_raise_and_warn_with_scipys_message():
    with special.errstate(singular="raise"):
        with pytest.raises(sc.SpecialFunctionError, match="^scipy.special/lgam: singularity$"):
            special.gammaln(0.0)
    with special.errstate(singular="warn"):
        with pytest.warns(sc.SpecialFunctionWarning, match="^scipy.special/lgam: singularity$"):
            assert special.gammaln(0.0) == np.inf
    # ignore: nothing
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert special.gammaln(0.0) == np.inf


def test_all_raise_but_one():
    with special.errstate(all="raise", singular="ignore"):
        assert special.gammaln(0) == np.inf
        with pytest.raises(special.SpecialFunctionError, match="spence: domain error"):
            special.spence(-1.0)


def test_warnings_before_the_raise_and_one_per_category():
    x = np.array([-1.0, 0.0, 0.0, -2.0])
    with special.errstate(domain="warn", singular="raise"):
        with pytest.warns(special.SpecialFunctionWarning, match="k0: domain error") as record:
            with pytest.raises(special.SpecialFunctionError, match="k0: singularity"):
                special.k0(x)
    assert len(record) == 1


def test_nesting_restores_each_level():
    with special.errstate(all="warn"):
        with special.errstate(singular="raise"):
            assert special.geterr()["singular"] == "raise"
            assert special.geterr()["domain"] == "warn"
        assert special.geterr()["singular"] == "warn"
    assert special.geterr() == sc.geterr()


def test_decorator():
    @special.errstate(singular="raise")
    def f():
        return special.gammaln(0.0)

    with pytest.raises(special.SpecialFunctionError):
        f()
    assert special.gammaln(0.0) == np.inf  # outside the decorated call: ignore
    with pytest.raises(special.SpecialFunctionError):
        f()  # the same instance, again


def test_thread_local():
    ready, done = threading.Event(), threading.Event()
    seen = {}

    def other():
        seen["start"] = special.geterr()
        ready.wait(5)
        try:
            special.gammaln(0.0)
            seen["raised"] = False
        except special.SpecialFunctionError:
            seen["raised"] = True
        special.seterr(domain="raise")
        done.set()

    with special.errstate(singular="raise"):
        thread = threading.Thread(target=other)
        thread.start()
        ready.set()
        done.wait(5)
        thread.join(5)
        with pytest.raises(special.SpecialFunctionError):
            special.gammaln(0.0)
        assert special.geterr()["domain"] == "ignore"  # the other thread's seterr stays there
    assert seen["start"] == sc.geterr()  # each thread starts at SciPy's defaults
    assert seen["raised"] is False


def test_gate_counts_threads_with_something_reported():
    assert _errstate.GATE[0] >= 0
    before = _errstate.GATE[0]
    with special.errstate(memory="warn"):  # never reported: the gate stays shut
        assert _errstate.GATE[0] == before
    with special.errstate(other="warn"):
        assert _errstate.GATE[0] == before + 1
        assert all(cell.cell_contents for cell in _errstate.CELLS)  # every Python face's flag is up
        assert tb._core.special.reporting()  # and the compiled ufuncs'
        with special.errstate(singular="raise"):
            assert _errstate.GATE[0] == before + 1
    assert _errstate.GATE[0] == before
    # every reported routine has a flag: a Python face's cell, or the compiled ufuncs' one
    assert len(_errstate.CELLS) >= len(set(TABLE) - set(tb._core.special.UFUNCS))
    if before == 0:
        assert not any(cell.cell_contents for cell in _errstate.CELLS)  # the default path: flags down
        assert not tb._core.special.reporting()


def test_zeta_forms():
    with special.errstate(all="raise"):
        assert special.zeta(0.5) == sc.zeta(0.5)  # Riemann's: nothing to report, as SciPy
        for call in (lambda: special.zeta(0.5, 2.0), lambda: special.zeta(0.5, q=2.0)):
            with pytest.raises(special.SpecialFunctionError, match="^scipy.special/zeta: domain error$"):
                call()
        with pytest.raises(special.SpecialFunctionError, match="zeta: singularity"):
            special.zeta(2.0, -1.0)


def test_torch_input_reports_too():
    torch = pytest.importorskip("torch")
    with special.errstate(domain="raise"):
        with pytest.raises(special.SpecialFunctionError, match="erfinv: domain error"):
            special.erfinv(torch.tensor([0.5, 2.0]))
        special.erfinv(torch.tensor([0.5, -0.5]))


GRID = [-np.inf, -2.5, -2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 1e300, np.inf, np.nan]


def _scipy_reports(name, point):
    with sc.errstate(all="warn"), warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        getattr(sc, name)(*point)
    return {str(w.message) for w in record if issubclass(w.category, sc.SpecialFunctionWarning)}


def _our_reports(name, point):
    with special.errstate(all="warn"), warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        getattr(special, name)(*point)
    return {str(w.message) for w in record if issubclass(w.category, sc.SpecialFunctionWarning)}


@pytest.mark.parametrize("name", sorted(TABLE))
def test_reports_match_scipys_on_edge_inputs(name):
    ours_all = {message for _, message, _ in TABLE[name]}
    nin = 2 if name == "zeta" else getattr(sc, name).nin  # zeta(x, q): Hurwitz's
    points = np.array(list(itertools.product(GRID, repeat=nin))).T
    # one call of ours per point (torchbridge reports once per call); SciPy's per element
    mismatches = []
    for point in points.T:
        try:
            ours = _our_reports(name, point)
        except NotImplementedError:
            continue  # parameters torchbridge refuses (eval_genlaguerre's non-integer degrees)
        theirs = _scipy_reports(name, point) & ours_all  # the messages the table covers
        if theirs != ours:
            mismatches.append((tuple(point), sorted(theirs), sorted(ours)))
    assert not mismatches, mismatches[:10]
    # and one call on the whole grid reports each message once
    if name == "eval_genlaguerre":
        points = points[:, np.isin(points[0], [-2.0, -1.0, -0.0, 0.0, 1.0, 2.0, 3.0])]
    with special.errstate(all="warn"), warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        getattr(special, name)(*points)
    messages = [str(w.message) for w in record]
    assert len(messages) == len(set(messages))


#: beta, betaln and binom branch on integers, int range, MAXGAM, the asymptotic factor 1e6 and the
#: overflow of 1 / Gamma near a + b = -171: a grid across those edges, and random points around them
BETA_GRID = [-np.inf, -1e300, -2.0**31 - 1, -2.0**31, -1e6, -1000.5, -201, -200.5, -170.8, -100.5, -10, -2.5,
             -1, -0.5, -1e-310, -0.0, 0.0, 1e-310, 1e-300, 0.5, 1, 2.5, 3, 19, 20, 21, 100.5, 172, 700, 1e6, 1e7,
             1e10, 1e17, 2.0**31, 1e300, np.inf, np.nan]


@pytest.mark.parametrize("name", ["beta", "betaln", "binom"])
def test_beta_family_reports_match_scipys_across_its_branches(name):
    rng = np.random.default_rng(7)
    wide = 10 ** rng.uniform(-320, 3.5, (2, 1500)) * rng.choice([-1, 1], (2, 1500))
    wide[:, ::3] = np.round(wide[:, ::3])
    near_pole = np.stack([rng.uniform(-171.7, -169.5, 300), -(10 ** rng.uniform(-300, -1, 300))])
    points = np.concatenate([np.array(list(itertools.product(BETA_GRID, repeat=2))).T, wide, near_pole], axis=1)
    with np.errstate(all="ignore"):
        out = getattr(sc, name)(*points)
        masks = {message: np.asarray(predicate(*points, out)) for _, message, predicate in TABLE[name]}
    mismatches = []
    for i, point in enumerate(points.T):
        theirs = _scipy_reports(name, point) & set(masks)
        ours = {message for message, mask in masks.items() if mask[i]}
        if theirs != ours:
            mismatches.append((tuple(point), sorted(theirs), sorted(ours)))
    assert not mismatches, mismatches[:10]
    # and the points reach each report the routine makes
    expected = {"beta": ("beta", "lbeta", "lgam"), "betaln": ("lbeta", "lgam"), "binom": ("beta", "lbeta")}[name]
    assert {m.split("/")[1].split(":")[0] for m, mask in masks.items() if mask.any()} == set(expected)
