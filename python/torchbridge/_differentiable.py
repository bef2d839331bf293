"""Which arguments each routine is differentiated in: the package's claim,
checked by ``torch.autograd.gradcheck`` (tests/python/test_autograd.py has
one case per entry, and fails when this table and its cases disagree) and
printed in the README by ``.ci/differentiability_table.py``.

A torch tensor that requires grad, passed as one of these arguments, gives a
result with its gradient (under grad mode). Passed as any other argument of
these routines, or to a routine not listed, it gives either a gradient
libtorch's autograd recorded through the composite (not verified here), or
``NotDifferentiableError`` at the call: never a silently detached result.
Ufunc arguments are named as NumPy names them (``x1``, ``x2``, ...).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import MappingProxyType
from typing import Any

#: "family.routine" -> the names of its differentiated arguments.
DIFFERENTIABLE = MappingProxyType(
    {
        # special
        "special.bdtri": ("x3",),
        "special.beta": ("x1", "x2"),
        "special.betainc": ("x3",),
        "special.betainccinv": ("x3",),
        "special.betaincinv": ("x3",),
        "special.betaln": ("x1", "x2"),
        "special.binom": ("x1", "x2"),
        "special.boxcox": ("x1", "x2"),
        "special.boxcox1p": ("x1", "x2"),
        "special.cbrt": ("x",),
        "special.chdtr": ("x2",),
        "special.chdtrc": ("x2",),
        "special.chdtri": ("x2",),
        "special.cosdg": ("x",),
        "special.cosm1": ("x",),
        "special.dawsn": ("x",),
        "special.digamma": ("x",),
        "special.ellipe": ("x",),
        "special.ellipeinc": ("x1", "x2"),
        "special.ellipk": ("x",),
        "special.ellipkinc": ("x1", "x2"),
        "special.ellipkm1": ("x",),
        "special.elliprc": ("x1", "x2"),
        "special.entr": ("x",),
        "special.erf": ("x",),
        "special.erfc": ("x",),
        "special.erfcinv": ("x",),
        "special.erfcx": ("x",),
        "special.erfi": ("x",),
        "special.erfinv": ("x",),
        "special.exp1": ("x",),
        "special.exp10": ("x",),
        "special.exp2": ("x",),
        "special.expi": ("x",),
        "special.expit": ("x",),
        "special.expm1": ("x",),
        "special.expn": ("x2",),
        "special.exprel": ("x",),
        "special.fdtr": ("x1", "x2", "x3"),
        "special.fdtri": ("x3",),
        "special.gamma": ("x",),
        "special.gammainc": ("x2",),
        "special.gammaincc": ("x2",),
        "special.gammainccinv": ("x2",),
        "special.gammaincinv": ("x2",),
        "special.gammaln": ("x",),
        "special.huber": ("x1", "x2"),
        "special.i0": ("x",),
        "special.i0e": ("x",),
        "special.i1": ("x",),
        "special.i1e": ("x",),
        "special.inv_boxcox": ("x1", "x2"),
        "special.inv_boxcox1p": ("x1", "x2"),
        "special.iv": ("x2",),
        "special.ive": ("x2",),
        "special.j0": ("x",),
        "special.j1": ("x",),
        "special.jn": ("x2",),
        "special.jv": ("x2",),
        "special.jve": ("x2",),
        "special.k0": ("x",),
        "special.k0e": ("x",),
        "special.k1": ("x",),
        "special.k1e": ("x",),
        "special.kl_div": ("x1", "x2"),
        "special.kolmogi": ("x",),
        "special.kolmogorov": ("x",),
        "special.kv": ("x2",),
        "special.kve": ("x2",),
        "special.log1p": ("x",),
        "special.log_expit": ("x",),
        "special.log_ndtr": ("x",),
        "special.log_softmax": ("x",),
        "special.loggamma": ("x",),
        "special.logit": ("x",),
        "special.logsumexp": ("a",),
        "special.multigammaln": ("a",),
        "special.nbdtri": ("x3",),
        "special.ndtr": ("x",),
        "special.ndtri": ("x",),
        "special.ndtri_exp": ("x",),
        "special.owens_t": ("x1", "x2"),
        "special.pdtr": ("x2",),
        "special.pdtrc": ("x2",),
        "special.pdtri": ("x2",),
        "special.poch": ("x1", "x2"),
        "special.polygamma": ("x",),
        "special.pseudo_huber": ("x1", "x2"),
        "special.psi": ("x",),
        "special.rel_entr": ("x1", "x2"),
        "special.rgamma": ("x",),
        "special.sinc": ("x",),
        "special.sindg": ("x",),
        "special.softmax": ("x",),
        "special.spence": ("x",),
        "special.stdtr": ("x1", "x2"),
        "special.stdtrit": ("x2",),
        "special.xlog1py": ("x1", "x2"),
        "special.xlogy": ("x1", "x2"),
        "special.y0": ("x",),
        "special.y1": ("x",),
        "special.yn": ("x2",),
        "special.yv": ("x2",),
        "special.yve": ("x2",),
        "special.zeta": ("q",),
        # fft
        "fft.dct": ("x",),
        "fft.dctn": ("x",),
        "fft.dst": ("x",),
        "fft.fft": ("x",),
        "fft.fft2": ("x",),
        "fft.fftn": ("x",),
        "fft.fftshift": ("x",),
        "fft.hfft": ("x",),
        "fft.idct": ("x",),
        "fft.idst": ("x",),
        "fft.ifft": ("x",),
        "fft.irfft": ("x",),
        "fft.rfft": ("x",),
        "fft.rfftn": ("x",),
        # linalg
        "linalg.block_diag": ("arrs",),
        "linalg.cho_solve": ("c_and_lower", "b"),
        "linalg.cho_solve_banded": ("cb_and_lower", "b"),
        "linalg.cholesky": ("a",),
        "linalg.clarkson_woodruff_transform": ("input_matrix",),
        "linalg.cosm": ("A",),
        "linalg.det": ("a",),
        "linalg.eigvals_banded": ("a_band",),
        "linalg.eigvalsh": ("a",),
        "linalg.expm": ("A",),
        "linalg.expm_cond": ("A",),
        "linalg.expm_frechet": ("A", "E"),
        "linalg.fiedler_companion": ("a",),
        "linalg.inv": ("a",),
        "linalg.khatri_rao": ("a", "b"),
        "linalg.lu_factor": ("a",),
        "linalg.norm": ("a",),
        "linalg.orthogonal_procrustes": ("A", "B"),
        "linalg.pinv": ("a",),
        "linalg.polar": ("a",),
        "linalg.qr": ("a",),
        "linalg.qr_multiply": ("a", "c"),
        "linalg.sinm": ("A",),
        "linalg.solve": ("a", "b"),
        "linalg.solve_banded": ("ab", "b"),
        "linalg.solve_circulant": ("c", "b"),
        "linalg.solve_toeplitz": ("c_or_cr", "b"),
        "linalg.solve_triangular": ("a", "b"),
        "linalg.svd": ("a",),
        "linalg.svdvals": ("a",),
        "linalg.tanhm": ("A",),
        "linalg.toeplitz": ("c",),
        # signal
        "signal.convolve": ("in1", "in2"),
        "signal.convolve2d": ("in1", "in2"),
        "signal.correlate": ("in1", "in2"),
        "signal.detrend": ("data",),
        "signal.fftconvolve": ("in1", "in2"),
        "signal.hilbert": ("x",),
        "signal.lfilter": ("x",),
        "signal.resample": ("x",),
        "signal.savgol_filter": ("x",),
        "signal.upfirdn": ("h", "x"),
        "signal.wiener": ("im",),
        # spatial.distance
        "spatial.distance.braycurtis": ("u", "v"),
        "spatial.distance.cdist": ("XA", "XB"),
        "spatial.distance.cosine": ("u", "v"),
        "spatial.distance.euclidean": ("u", "v"),
        "spatial.distance.jensenshannon": ("p", "q"),
        "spatial.distance.pdist": ("X",),
        # stats
        "stats.entropy": ("pk",),
        "stats.gmean": ("a",),
        "stats.hmean": ("a",),
        "stats.kurtosis": ("a",),
        "stats.moment": ("a",),
        "stats.pearsonr": ("x", "y"),
        "stats.pmean": ("a",),
        "stats.sem": ("a",),
        "stats.skew": ("a",),
        "stats.trim_mean": ("a",),
        "stats.variation": ("a",),
        "stats.zscore": ("a",),
        # stats.norm
        "stats.norm.cdf": ("x",),
        "stats.norm.pdf": ("x",),
        "stats.norm.ppf": ("q",),
        # stats.t
        "stats.t.cdf": ("x",),
        # stats.gamma
        "stats.gamma.logpdf": ("x",),
        # ndimage
        "ndimage.affine_transform": ("input",),
        "ndimage.convolve": ("input",),
        "ndimage.gaussian_filter": ("input",),
        "ndimage.gaussian_gradient_magnitude": ("input",),
        "ndimage.laplace": ("input",),
        "ndimage.map_coordinates": ("input", "coordinates"),
        "ndimage.maximum_filter": ("input",),
        "ndimage.median_filter": ("input",),
        "ndimage.shift": ("input",),
        "ndimage.sobel": ("input",),
        "ndimage.spline_filter": ("input",),
        "ndimage.uniform_filter": ("input",),
        "ndimage.zoom": ("input",),
    }
)


def _resolve(name: str) -> Callable:
    """The routine ``torchbridge.<name>`` (``"stats.norm.pdf"`` included)."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module("torchbridge." + ".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            obj = getattr(obj, part)
        return obj
    raise KeyError(name)


def differentiable(routine: Callable | str) -> tuple[str, ...]:
    """The arguments torchbridge differentiates ``routine`` in (verified by
    gradcheck), by name: a routine of the package or its dotted name
    (``"special.erf"``, ``"stats.norm.pdf"``). ``()`` where none is verified.

    >>> import torchbridge as tb
    >>> tb.differentiable(tb.special.betaincinv)
    ('x3',)
    """
    if isinstance(routine, str):
        if routine not in DIFFERENTIABLE:
            _resolve(routine)  # a KeyError or AttributeError for a name that is no routine
        return DIFFERENTIABLE.get(routine, ())
    for name, arguments in DIFFERENTIABLE.items():
        if _resolve(name) == routine:  # (==: a distribution's bound methods are new objects each time)
            return arguments
    return ()
