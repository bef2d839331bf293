"""FIR design by the window method (SciPy's ``_fir_filter_design.py``;
src/ops/signal/fir_filter_design.rs): kaiser_beta, kaiser_atten, kaiserord,
firwin, firwin2, against scipy.signal."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.signal as ss
import torch

from torchbridge import signal as ts


def rel(ours, ref) -> float:
    ours, ref = np.asarray(ours), np.asarray(ref)
    assert ours.shape == ref.shape
    scale = max(np.abs(ref).max(initial=0.0), 1e-300)
    return float(np.abs(ours - ref).max(initial=0.0) / scale)


@pytest.mark.parametrize("a", [0.0, 10.0, 21.0, 21.5, 35.0, 50.0, 50.1, 65.0, 120.0])
def test_kaiser_beta(a):
    assert ts.kaiser_beta(a) == pytest.approx(ss.kaiser_beta(a), rel=1e-15, abs=0)


@pytest.mark.parametrize(("numtaps", "width"), [(211, 0.0375), (1, 0.1), (64, 0.5)])
def test_kaiser_atten(numtaps, width):
    assert ts.kaiser_atten(numtaps, width) == pytest.approx(ss.kaiser_atten(numtaps, width), rel=1e-15)


@pytest.mark.parametrize(("ripple", "width"), [(65, 0.048), (-65, 0.048), (8, 0.1), (30, 0.01), (120, 0.3)])
def test_kaiserord(ripple, width):
    n, beta = ts.kaiserord(ripple, width)
    n_ref, beta_ref = ss.kaiserord(ripple, width)
    assert isinstance(n, int) and n == n_ref
    assert beta == pytest.approx(beta_ref, rel=1e-15, abs=0)


def test_kaiserord_small_ripple():
    with pytest.raises(ValueError, match="too small for the Kaiser formula"):
        ts.kaiserord(7.9, 0.1)


FIRWIN_CASES = [
    ((31, 0.3), {}),
    ((31, [0.3]), {"pass_zero": "lowpass"}),
    ((31, 0.3), {"pass_zero": False}),
    ((31, np.array([0.3])), {"pass_zero": "highpass"}),
    ((30, [0.2, 0.5]), {"pass_zero": False}),
    ((30, (0.2, 0.5)), {"pass_zero": "bandpass", "scale": False}),
    ((51, [0.1, 0.3]), {"pass_zero": "bandstop"}),
    ((41, [0.2, 0.4, 0.6]), {"window": ("kaiser", 8.0)}),
    ((41, [0.2, 0.4, 0.6]), {"pass_zero": False, "window": "hann"}),
    ((40, 30), {"width": 20, "fs": 200}),
    ((41, [0.2, 0.5]), {"window": "blackman_periodic", "scale": False}),
    ((80, [40, 60]), {"window": "boxcar", "pass_zero": False, "fs": 200}),
    ((101, [10, 20, 30, 40]), {"window": ("chebwin", 80), "fs": 100.0}),
    ((9, 0.5), {"window": ("tukey", 0.3)}),
    ((1, 0.5), {}),
    ((2, 0.5), {}),
    ((255, 0.01), {"window": 6.0}),
]


@pytest.mark.parametrize(("args", "kwargs"), FIRWIN_CASES)
def test_firwin_matches_scipy(args, kwargs):
    ref = ss.firwin(*args, **kwargs)
    out = ts.firwin(*args, **kwargs)
    assert isinstance(out, np.ndarray) and out.dtype == np.float64
    assert rel(out, ref) < 1e-13


def test_firwin_random(rng):
    for _ in range(20):
        numtaps = int(rng.integers(1, 200)) | 1
        cut = np.sort(rng.uniform(0.01, 0.99, int(rng.integers(1, 6))))
        pass_zero = bool(rng.integers(2))
        ref = ss.firwin(numtaps, cut, pass_zero=pass_zero)
        assert rel(ts.firwin(numtaps, cut, pass_zero=pass_zero), ref) < 1e-12


def test_firwin_torch_cutoff_follows():
    out = ts.firwin(21, torch.tensor([0.2, 0.6], dtype=torch.float64), pass_zero=False)
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float64
    assert rel(out.numpy(), ss.firwin(21, [0.2, 0.6], pass_zero=False)) < 1e-13


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((31, []), {}, "At least one cutoff"),
        ((31, 0.0), {}, "Invalid cutoff frequency"),
        ((31, 1.0), {}, "Invalid cutoff frequency"),
        ((31, 60), {"fs": 100}, "Invalid cutoff frequency"),
        ((31, [0.5, 0.3]), {}, "strictly increasing"),
        ((31, [0.3, 0.3]), {}, "strictly increasing"),
        ((30, 0.3), {"pass_zero": False}, "even number of coefficients"),
        ((31, [0.2, 0.3]), {"pass_zero": "lowpass"}, "must have one element"),
        ((31, [0.2, 0.3]), {"pass_zero": "highpass"}, "must have one element"),
        ((31, 0.3), {"pass_zero": "bandpass"}, "at least two elements"),
        ((31, 0.3), {"pass_zero": "bandstop"}, "at least two elements"),
        ((31, 0.3), {"pass_zero": "notch"}, "not in"),
        ((31, 0.3), {"window": "nosuch"}, "Invalid window name"),
        ((31, [[0.2, 0.3]]), {}, "at most one-dimensional"),
        ((31, 0.3), {"fs": [1, 2]}, "single scalar"),
    ],
)
def test_firwin_errors(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        ss.firwin(*args, **kwargs)
    with pytest.raises(ValueError, match=match):
        ts.firwin(*args, **kwargs)


FIRWIN2_CASES = [
    ((150, [0.0, 0.5, 1.0], [1.0, 1.0, 0.0]), {}),
    ((151, [0, 0.5, 0.5, 1], [1, 1, 0, 0]), {}),
    ((31, [0, 0.3, 0.3, 0.6, 0.6, 1], [1, 1, 0.2, 0.2, 1, 1]), {"window": ("kaiser", 4.0)}),
    ((30, [0, 0.5, 1], [0, 1, 0]), {"antisymmetric": True}),
    ((31, [0, 0.5, 1], [0, 1, 0]), {"antisymmetric": True, "window": None}),
    ((32, [0, 0.5, 1], [0, 1, 1]), {"antisymmetric": True, "nfreqs": 99}),
    ((64, [0, 100, 250, 500], [1, 1, 0.5, 0]), {"fs": 1000, "nfreqs": 513}),
    ((1, [0, 1], [1, 1]), {}),
    ((33, np.array([0.0, 0.2, 1.0]), np.array([1.0, 0.5, 0.0])), {"window": "blackman"}),
    ((129, [0, 0.25, 1], [1, 1, 1]), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), FIRWIN2_CASES)
def test_firwin2_matches_scipy(args, kwargs):
    ref = ss.firwin2(*args, **kwargs)
    out = ts.firwin2(*args, **kwargs)
    assert isinstance(out, np.ndarray) and out.dtype == np.float64
    assert rel(out, ref) < 1e-13


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((31, [0, 0.5, 1], [1, 0]), {}, "same length"),
        ((31, [0, 0.5, 1], [1, 1, 0]), {"nfreqs": 31}, "less than nfreqs"),
        ((31, [0.1, 0.5, 1], [1, 1, 0]), {}, "start with 0"),
        ((31, [0, 0.5, 0.9], [1, 1, 0]), {}, "end with fs/2"),
        ((31, [0, 0.6, 0.5, 1], [1, 1, 0, 0]), {}, "nondecreasing"),
        ((31, [0, 0.5, 0.5, 0.5, 1], [1, 1, 0, 0, 0]), {}, "more than twice"),
        ((31, [0, 0, 0.5, 1], [1, 1, 0, 0]), {}, "0 must not be repeated"),
        ((31, [0, 0.5, 1, 1], [1, 1, 0, 0]), {}, "fs/2 must not be repeated"),
        ((30, [0, 0.5, 1], [1, 1, 1]), {}, "Type II"),
        ((31, [0, 0.5, 1], [1, 1, 0]), {"antisymmetric": True}, "Type III"),
        ((30, [0, 0.5, 1], [1, 1, 0]), {"antisymmetric": True}, "Type IV"),
    ],
)
def test_firwin2_errors(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        ss.firwin2(*args, **kwargs)
    with pytest.raises(ValueError, match=match):
        ts.firwin2(*args, **kwargs)
