"""Gradients through torchbridge's routines on torch tensors (issue 18, part 1).

A torch tensor reaches the routine as the ``at::Tensor`` it is (no DLPack
alias), so libtorch's autograd records the composites' ops; where it cannot
(CPU kernels, Newton iterations) or records nan (untaken branches), the
routine attaches its derivative in closed form (``src/ops/autograd.rs``).
Checked here:

- ``torch.autograd.gradcheck`` (float64, central differences) for every
  (routine, argument) pair in :data:`DIFFERENTIABLE`, at inputs inside each
  domain, which must be the pairs the package claims (``tb.differentiable``);
  ``gradgradcheck`` for fifteen of them;
- a result is never silently cut from an input that requires grad: routines
  whose work leaves autograd (CPU kernels, shape parameters of the inverses,
  values read on the host) raise ``NotDifferentiableError``;
- ``torch.no_grad()`` gives results without a graph, and the torch route
  shares the caller's memory both ways.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import torchbridge as tb
from torchbridge._differentiable import DIFFERENTIABLE as CLAIMED
from torchbridge._differentiable import _resolve
from torchbridge.errors import NotDifferentiableError

D = torch.float64


def _uniform(*shape, lo=0.1, hi=0.9, complex_=False, seed=0):
    g = torch.Generator().manual_seed(seed + 7 * len(shape) + int(lo * 10))
    t = torch.rand(*shape, dtype=D, generator=g) * (hi - lo) + lo
    if complex_:
        t = t + 1j * torch.rand(*shape, dtype=D, generator=g)
    return t


def _spd(n, seed=1):
    a = torch.rand(n, n, dtype=D, generator=torch.Generator().manual_seed(seed))
    return a @ a.T + n * torch.eye(n, dtype=D)


def _sym(f):
    """``f`` of the symmetric part: SciPy's symmetric routines read one
    triangle, so a perturbation of one entry is not a symmetric one."""
    return lambda a: f((a + a.mT) / 2)


C = dict(complex_=True)

#: name -> (function of the array arguments, the arguments, the indices of
#: the differentiable ones). The function fixes the non-array parameters.
DIFFERENTIABLE = {
    # special (ufuncs and the reductions)
    "special.erf": (tb.special.erf, [_uniform(5, lo=-2, hi=2)], (0,)),
    "special.erfc": (tb.special.erfc, [_uniform(5, lo=-2, hi=2)], (0,)),
    "special.erfcx": (tb.special.erfcx, [_uniform(5, lo=-1, hi=3)], (0,)),
    "special.erfinv": (tb.special.erfinv, [_uniform(5, lo=-0.9, hi=0.9)], (0,)),
    "special.erfcinv": (tb.special.erfcinv, [_uniform(5, lo=0.2, hi=1.8)], (0,)),
    "special.ndtr": (tb.special.ndtr, [_uniform(5, lo=-3, hi=3)], (0,)),
    "special.log_ndtr": (tb.special.log_ndtr, [_uniform(5, lo=-8, hi=3)], (0,)),
    "special.ndtri": (tb.special.ndtri, [_uniform(5)], (0,)),
    "special.expit": (tb.special.expit, [_uniform(5, lo=-4, hi=4)], (0,)),
    "special.log_expit": (tb.special.log_expit, [_uniform(5, lo=-4, hi=4)], (0,)),
    "special.logit": (tb.special.logit, [_uniform(5)], (0,)),
    "special.gamma": (tb.special.gamma, [_uniform(5, lo=0.3, hi=4)], (0,)),
    "special.gammaln": (tb.special.gammaln, [_uniform(5, lo=0.3, hi=6)], (0,)),
    "special.loggamma": (tb.special.loggamma, [_uniform(5, lo=0.3, hi=6)], (0,)),
    "special.digamma": (tb.special.digamma, [_uniform(5, lo=0.3, hi=6)], (0,)),
    "special.polygamma": (lambda x: tb.special.polygamma(1, x), [_uniform(5, lo=1, hi=3)], (0,)),
    "special.multigammaln": (lambda x: tb.special.multigammaln(x, 3), [_uniform(5, lo=2, hi=4)], (0,)),
    "special.beta": (tb.special.beta, [_uniform(4, lo=0.5, hi=3), _uniform(4, lo=0.5, hi=3, seed=1)], (0, 1)),
    "special.betaln": (tb.special.betaln, [_uniform(4, lo=0.5, hi=3), _uniform(4, lo=0.5, hi=3, seed=1)], (0, 1)),
    "special.binom": (tb.special.binom, [_uniform(4, lo=3, hi=6), _uniform(4, lo=0.5, hi=2)], (0, 1)),
    "special.gammainc": (tb.special.gammainc, [_uniform(4, lo=1, hi=3), _uniform(4, lo=0.5, hi=3)], (1,)),
    "special.gammaincc": (tb.special.gammaincc, [_uniform(4, lo=1, hi=3), _uniform(4, lo=0.5, hi=3)], (1,)),
    "special.chdtrc": (tb.special.chdtrc, [_uniform(4, lo=1, hi=3), _uniform(4, lo=0.5, hi=3)], (1,)),
    "special.betainc": (tb.special.betainc, [_uniform(4, lo=1, hi=3), _uniform(4, lo=1, hi=3), _uniform(4)], (2,)),
    "special.stdtr": (tb.special.stdtr, [_uniform(4, lo=2, hi=5), _uniform(4, lo=-2, hi=2)], (0, 1)),
    "special.fdtr": (tb.special.fdtr, [_uniform(4, lo=2, hi=5), _uniform(4, lo=2, hi=5), _uniform(4)], (0, 1, 2)),
    "special.xlogy": (tb.special.xlogy, [_uniform(4), _uniform(4, lo=0.5, hi=2)], (0, 1)),
    "special.xlog1py": (tb.special.xlog1py, [_uniform(4), _uniform(4, lo=0.5, hi=2)], (0, 1)),
    "special.entr": (tb.special.entr, [_uniform(4)], (0,)),
    "special.rel_entr": (tb.special.rel_entr, [_uniform(4), _uniform(4, seed=2)], (0, 1)),
    "special.kl_div": (tb.special.kl_div, [_uniform(4), _uniform(4, seed=2)], (0, 1)),
    "special.huber": (tb.special.huber, [_uniform(4, lo=0.5, hi=1), _uniform(4, lo=-2, hi=2)], (0, 1)),
    "special.pseudo_huber": (tb.special.pseudo_huber, [_uniform(4, lo=0.5, hi=1), _uniform(4, lo=-2, hi=2)], (0, 1)),
    "special.boxcox": (tb.special.boxcox, [_uniform(4, lo=0.5, hi=2), _uniform(4, lo=-1, hi=1)], (0, 1)),
    "special.boxcox1p": (tb.special.boxcox1p, [_uniform(4, lo=0.5, hi=2), _uniform(4, lo=-1, hi=1)], (0, 1)),
    "special.inv_boxcox": (tb.special.inv_boxcox, [_uniform(4, lo=0.5, hi=2), _uniform(4, lo=0.1, hi=1)], (0, 1)),
    "special.i0": (tb.special.i0, [_uniform(5, lo=-3, hi=3)], (0,)),
    "special.i0e": (tb.special.i0e, [_uniform(5, lo=-3, hi=3)], (0,)),
    "special.i1": (tb.special.i1, [_uniform(5, lo=-3, hi=3)], (0,)),
    "special.i1e": (tb.special.i1e, [_uniform(5, lo=-3, hi=3)], (0,)),
    "special.j0": (tb.special.j0, [_uniform(5, lo=0.1, hi=9)], (0,)),
    "special.j1": (tb.special.j1, [_uniform(5, lo=0.1, hi=9)], (0,)),
    "special.y0": (tb.special.y0, [_uniform(5, lo=0.5, hi=9)], (0,)),
    "special.y1": (tb.special.y1, [_uniform(5, lo=0.5, hi=9)], (0,)),
    "special.expm1": (tb.special.expm1, [_uniform(5, lo=-1, hi=1)], (0,)),
    "special.log1p": (tb.special.log1p, [_uniform(5, lo=-0.5, hi=1)], (0,)),
    "special.exprel": (tb.special.exprel, [_uniform(5, lo=-1, hi=1)], (0,)),
    "special.cbrt": (tb.special.cbrt, [_uniform(5, lo=0.2, hi=3)], (0,)),
    "special.exp2": (tb.special.exp2, [_uniform(5, lo=-2, hi=2)], (0,)),
    "special.exp10": (tb.special.exp10, [_uniform(5, lo=-1, hi=1)], (0,)),
    "special.cosm1": (tb.special.cosm1, [_uniform(5, lo=-1, hi=1)], (0,)),
    "special.sindg": (tb.special.sindg, [_uniform(5, lo=10, hi=80)], (0,)),
    "special.cosdg": (tb.special.cosdg, [_uniform(5, lo=10, hi=80)], (0,)),
    "special.sinc": (tb.special.sinc, [_uniform(5, lo=0.1, hi=2)], (0,)),
    "special.zeta": (tb.special.zeta, [_uniform(4, lo=2, hi=4), _uniform(4, lo=1, hi=2)], (1,)),
    "special.logsumexp": (lambda x: tb.special.logsumexp(x, axis=-1), [_uniform(3, 4)], (0,)),
    "special.softmax": (lambda x: tb.special.softmax(x, axis=-1), [_uniform(3, 4)], (0,)),
    "special.log_softmax": (lambda x: tb.special.log_softmax(x, axis=-1), [_uniform(3, 4)], (0,)),
    "special.psi": (tb.special.psi, [_uniform(5, lo=0.3, hi=6)], (0,)),
    "special.rgamma": (tb.special.rgamma, [_uniform(5, lo=0.3, hi=4)], (0,)),
    "special.poch": (tb.special.poch, [_uniform(4, lo=0.5, hi=3), _uniform(4, lo=0.5, hi=2, seed=1)], (0, 1)),
    "special.chdtr": (tb.special.chdtr, [_uniform(4, lo=1, hi=4), _uniform(4, lo=0.5, hi=3)], (1,)),
    "special.pdtr": (tb.special.pdtr, [_uniform(4, lo=1, hi=4), _uniform(4, lo=0.5, hi=3)], (1,)),
    "special.pdtrc": (tb.special.pdtrc, [_uniform(4, lo=1, hi=4), _uniform(4, lo=0.5, hi=3)], (1,)),
    "special.erfi": (tb.special.erfi, [_uniform(5, lo=-2, hi=2)], (0,)),
    "special.dawsn": (tb.special.dawsn, [_uniform(5, lo=-3, hi=3)], (0,)),
    "special.exp1": (tb.special.exp1, [_uniform(5, lo=0.2, hi=4)], (0,)),
    "special.expi": (tb.special.expi, [_uniform(5, lo=0.2, hi=4)], (0,)),
    "special.expn": (tb.special.expn, [torch.tensor([1, 2, 3, 5]), _uniform(4, lo=0.2, hi=4)], (1,)),
    "special.spence": (tb.special.spence, [_uniform(5, lo=0.2, hi=3)], (0,)),
    "special.inv_boxcox1p": (tb.special.inv_boxcox1p, [_uniform(4, lo=0.5, hi=2), _uniform(4, lo=0.1, hi=1)], (0, 1)),
    "special.k0": (tb.special.k0, [_uniform(5, lo=0.3, hi=8)], (0,)),
    "special.jv": (tb.special.jv, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=30, seed=1)], (1,)),
    "special.jn": (tb.special.jn, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=30, seed=1)], (1,)),
    "special.yv": (tb.special.yv, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=30, seed=1)], (1,)),
    "special.iv": (tb.special.iv, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=8, seed=1)], (1,)),
    "special.kv": (tb.special.kv, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=8, seed=1)], (1,)),
    "special.jve": (tb.special.jve, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=30, seed=1)], (1,)),
    "special.yve": (tb.special.yve, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=30, seed=1)], (1,)),
    "special.ive": (tb.special.ive, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=8, seed=1)], (1,)),
    "special.kve": (tb.special.kve, [_uniform(4, lo=-3, hi=5), _uniform(4, lo=0.3, hi=8, seed=1)], (1,)),
    "special.yn": (tb.special.yn, [torch.tensor([-2, 0, 1, 4]), _uniform(4, lo=0.3, hi=30, seed=1)], (1,)),
    "special.k0e": (tb.special.k0e, [_uniform(5, lo=0.3, hi=8)], (0,)),
    "special.k1": (tb.special.k1, [_uniform(5, lo=0.3, hi=8)], (0,)),
    "special.k1e": (tb.special.k1e, [_uniform(5, lo=0.3, hi=8)], (0,)),
    "special.kolmogorov": (tb.special.kolmogorov, [_uniform(5, lo=0.4, hi=2)], (0,)),
    "special.owens_t": (tb.special.owens_t, [_uniform(4, lo=-2, hi=3), _uniform(4, lo=-3, hi=3, seed=1)], (0, 1)),
    "special.kolmogi": (tb.special.kolmogi, [_uniform(5, lo=0.1, hi=0.9)], (0,)),
    "special.ndtri_exp": (tb.special.ndtri_exp, [_uniform(5, lo=-5, hi=-0.1)], (0,)),
    "special.ellipk": (tb.special.ellipk, [_uniform(5, lo=-2, hi=0.9)], (0,)),
    "special.ellipkm1": (tb.special.ellipkm1, [_uniform(5, lo=0.1, hi=2)], (0,)),
    "special.ellipe": (tb.special.ellipe, [torch.tensor([-2.0, -0.3, 0.0, 0.4, 0.9], dtype=D)], (0,)),
    "special.ellipkinc": (tb.special.ellipkinc, [_uniform(4, lo=0.2, hi=4), _uniform(4, lo=-1, hi=0.8)], (0, 1)),
    "special.ellipeinc": (
        tb.special.ellipeinc,
        [_uniform(4, lo=0.2, hi=4), torch.tensor([-1.0, 0.0, 0.3, 0.8], dtype=D)],
        (0, 1),
    ),
    "special.elliprc": (
        tb.special.elliprc,
        [_uniform(5, lo=0.3, hi=3), torch.tensor([-1.5, -0.2, 0.4, 1.0, 2.5], dtype=D)],
        (0, 1),
    ),
    # the inverses: the Newton iterations' value, the derivative in the probability in closed form
    "special.gammaincinv": (tb.special.gammaincinv, [_uniform(4, lo=0.5, hi=5), _uniform(4)], (1,)),
    "special.gammainccinv": (tb.special.gammainccinv, [_uniform(4, lo=0.5, hi=5), _uniform(4)], (1,)),
    "special.chdtri": (tb.special.chdtri, [_uniform(4, lo=1, hi=6), _uniform(4)], (1,)),
    "special.pdtri": (tb.special.pdtri, [torch.tensor([0.0, 1, 3, 6], dtype=D), _uniform(4)], (1,)),
    "special.betaincinv": (
        tb.special.betaincinv,
        [_uniform(4, lo=0.5, hi=4), _uniform(4, lo=0.5, hi=4, seed=1), _uniform(4)],
        (2,),
    ),
    "special.betainccinv": (
        tb.special.betainccinv,
        [_uniform(4, lo=0.5, hi=4), _uniform(4, lo=0.5, hi=4, seed=1), _uniform(4)],
        (2,),
    ),
    "special.stdtrit": (tb.special.stdtrit, [_uniform(4, lo=1, hi=30), _uniform(4, lo=0.05, hi=0.95)], (1,)),
    "special.fdtri": (
        tb.special.fdtri,
        [_uniform(4, lo=1, hi=10), _uniform(4, lo=1, hi=10, seed=1), _uniform(4)],
        (2,),
    ),
    "special.bdtri": (
        tb.special.bdtri,
        [torch.tensor([0.0, 1, 3, 5], dtype=D), torch.tensor([4.0, 6, 9, 12], dtype=D), _uniform(4)],
        (2,),
    ),
    "special.nbdtri": (
        tb.special.nbdtri,
        [torch.tensor([0.0, 1, 3, 5], dtype=D), torch.tensor([1.0, 2, 4, 7], dtype=D), _uniform(4)],
        (2,),
    ),
    # fft
    "fft.fft": (tb.fft.fft, [_uniform(8, **C)], (0,)),
    "fft.ifft": (tb.fft.ifft, [_uniform(8, **C)], (0,)),
    "fft.rfft": (tb.fft.rfft, [_uniform(8)], (0,)),
    "fft.irfft": (tb.fft.irfft, [_uniform(5, **C)], (0,)),
    "fft.hfft": (tb.fft.hfft, [_uniform(5, **C)], (0,)),
    "fft.fft2": (tb.fft.fft2, [_uniform(4, 4, **C)], (0,)),
    "fft.fftn": (tb.fft.fftn, [_uniform(3, 4, **C)], (0,)),
    "fft.rfftn": (tb.fft.rfftn, [_uniform(4, 4)], (0,)),
    "fft.dct": (tb.fft.dct, [_uniform(8)], (0,)),
    "fft.idct": (tb.fft.idct, [_uniform(8)], (0,)),
    "fft.dst": (tb.fft.dst, [_uniform(8)], (0,)),
    "fft.idst": (tb.fft.idst, [_uniform(8)], (0,)),
    "fft.dctn": (tb.fft.dctn, [_uniform(4, 4)], (0,)),
    "fft.fftshift": (tb.fft.fftshift, [_uniform(8)], (0,)),
    # linalg
    "linalg.solve": (tb.linalg.solve, [_spd(4), _uniform(4, 2)], (0, 1)),
    "linalg.inv": (tb.linalg.inv, [_spd(4)], (0,)),
    "linalg.det": (tb.linalg.det, [_spd(4)], (0,)),
    "linalg.cholesky": (_sym(tb.linalg.cholesky), [_spd(4)], (0,)),
    "linalg.eigvalsh": (_sym(tb.linalg.eigvalsh), [_spd(4)], (0,)),
    "linalg.svdvals": (tb.linalg.svdvals, [_uniform(4, 3)], (0,)),
    "linalg.norm": (tb.linalg.norm, [_uniform(4, 3)], (0,)),
    "linalg.pinv": (tb.linalg.pinv, [_uniform(4, 3)], (0,)),
    "linalg.expm": (tb.linalg.expm, [_uniform(4, 4)], (0,)),
    "linalg.expm_frechet": (
        lambda a, e: tb.linalg.expm_frechet(a, e)[1],
        [_uniform(3, 3), _uniform(3, 3, seed=3)],
        (0, 1),
    ),
    "linalg.sinm": (tb.linalg.sinm, [_uniform(3, 3)], (0,)),
    "linalg.cosm": (tb.linalg.cosm, [_uniform(3, 3)], (0,)),
    "linalg.tanhm": (tb.linalg.tanhm, [_uniform(3, 3)], (0,)),
    "linalg.solve_triangular": (tb.linalg.solve_triangular, [torch.triu(_spd(4)), _uniform(4)], (0, 1)),
    "linalg.qr": (lambda a: tb.linalg.qr(a)[1], [_uniform(4, 4)], (0,)),
    "linalg.lu_factor": (lambda a: tb.linalg.lu_factor(a)[0], [_uniform(4, 4)], (0,)),
    "linalg.cho_solve": (
        lambda c, b: tb.linalg.cho_solve((c, False), b),
        [torch.linalg.cholesky(_spd(4)).mT.contiguous(), _uniform(4)],
        (0, 1),
    ),
    "linalg.polar": (lambda a: tb.linalg.polar(a)[0], [_spd(3)], (0,)),
    "linalg.solve_banded": (
        lambda ab, b: tb.linalg.solve_banded((1, 1), ab, b),
        [_uniform(3, 5) + 2, _uniform(5)],
        (0, 1),
    ),
    "linalg.solve_toeplitz": (tb.linalg.solve_toeplitz, [torch.tensor([4.0, 1.0, 0.5], dtype=D), _uniform(3)], (0, 1)),
    "linalg.solve_circulant": (
        tb.linalg.solve_circulant,
        [torch.tensor([4.0, 1.0, 0.5], dtype=D), _uniform(3)],
        (0, 1),
    ),
    "linalg.toeplitz": (tb.linalg.toeplitz, [_uniform(4)], (0,)),
    "linalg.block_diag": (tb.linalg.block_diag, [_uniform(2, 2), _uniform(3, 3)], (0, 1)),
    "linalg.khatri_rao": (tb.linalg.khatri_rao, [_uniform(2, 3), _uniform(4, 3)], (0, 1)),
    "linalg.svd": (lambda a: tb.linalg.svd(a)[1], [_uniform(4, 3)], (0,)),
    "linalg.orthogonal_procrustes": (
        lambda a, b: tb.linalg.orthogonal_procrustes(a, b)[0],
        [_uniform(4, 3), _uniform(4, 3, seed=4)],
        (0, 1),
    ),
    "linalg.fiedler_companion": (tb.linalg.fiedler_companion, [_uniform(6)], (0,)),
    "linalg.cho_solve_banded": (
        lambda cb, b: tb.linalg.cho_solve_banded((cb, False), b),
        [torch.tensor([[0.0, 0.3, 0.2, 0.4], [2.0, 1.5, 1.8, 1.2]], dtype=D), _uniform(4)],
        (0, 1),
    ),
    "linalg.eigvals_banded": (
        tb.linalg.eigvals_banded,
        [torch.tensor([[0.0, 0.3, 0.2, 0.4], [2.0, 1.0, 3.0, 4.5]], dtype=D)],
        (0,),
    ),
    "linalg.expm_cond": (tb.linalg.expm_cond, [_uniform(3, 3)], (0,)),
    "linalg.qr_multiply": (
        lambda a, c: tb.linalg.qr_multiply(a, c)[0],
        [_uniform(4, 3), _uniform(2, 4, seed=3)],
        (0, 1),
    ),
    "linalg.clarkson_woodruff_transform": (
        lambda a: tb.linalg.clarkson_woodruff_transform(a, 3, rng=0),
        [_uniform(6, 2)],
        (0,),
    ),
    "linalg.qr (pivoting)": (lambda a: tb.linalg.qr(a, pivoting=True)[1], [_uniform(4, 4)], (0,)),
    # signal
    "signal.lfilter": (lambda x: tb.signal.lfilter([0.3, 0.2, 0.1], [1.0, -0.5], x), [_uniform(10)], (0,)),
    "signal.convolve": (tb.signal.convolve, [_uniform(6), _uniform(3)], (0, 1)),
    "signal.fftconvolve": (tb.signal.fftconvolve, [_uniform(6), _uniform(3)], (0, 1)),
    "signal.correlate": (tb.signal.correlate, [_uniform(6), _uniform(3)], (0, 1)),
    "signal.convolve2d": (tb.signal.convolve2d, [_uniform(4, 4), _uniform(2, 2)], (0, 1)),
    "signal.hilbert": (lambda x: tb.signal.hilbert(x).imag, [_uniform(8)], (0,)),
    "signal.detrend": (tb.signal.detrend, [_uniform(8)], (0,)),
    "signal.savgol_filter": (lambda x: tb.signal.savgol_filter(x, 5, 2), [_uniform(12)], (0,)),
    "signal.resample": (lambda x: tb.signal.resample(x, 12), [_uniform(8)], (0,)),
    "signal.upfirdn": (lambda h, x: tb.signal.upfirdn(h, x, 2, 1), [_uniform(3), _uniform(6)], (0, 1)),
    "signal.wiener": (tb.signal.wiener, [_uniform(10)], (0,)),
    # spatial.distance
    "spatial.distance.cdist": (tb.spatial.distance.cdist, [_uniform(3, 2), _uniform(4, 2, seed=5)], (0, 1)),
    "spatial.distance.pdist": (tb.spatial.distance.pdist, [_uniform(4, 2)], (0,)),
    "spatial.distance.euclidean": (tb.spatial.distance.euclidean, [_uniform(3), _uniform(3, seed=6)], (0, 1)),
    "spatial.distance.cosine": (tb.spatial.distance.cosine, [_uniform(3), _uniform(3, seed=6)], (0, 1)),
    "spatial.distance.braycurtis": (tb.spatial.distance.braycurtis, [_uniform(3), _uniform(3, seed=6)], (0, 1)),
    "spatial.distance.jensenshannon": (tb.spatial.distance.jensenshannon, [_uniform(3), _uniform(3, seed=6)], (0, 1)),
    # stats
    "stats.zscore": (tb.stats.zscore, [_uniform(6)], (0,)),
    "stats.skew": (tb.stats.skew, [_uniform(6)], (0,)),
    "stats.kurtosis": (tb.stats.kurtosis, [_uniform(6)], (0,)),
    "stats.moment": (lambda x: tb.stats.moment(x, 3), [_uniform(6)], (0,)),
    "stats.variation": (tb.stats.variation, [_uniform(6)], (0,)),
    "stats.entropy": (tb.stats.entropy, [_uniform(6)], (0,)),
    "stats.gmean": (tb.stats.gmean, [_uniform(6)], (0,)),
    "stats.hmean": (tb.stats.hmean, [_uniform(6)], (0,)),
    "stats.pmean": (lambda x: tb.stats.pmean(x, 2.5), [_uniform(6)], (0,)),
    "stats.sem": (tb.stats.sem, [_uniform(6)], (0,)),
    "stats.trim_mean": (lambda x: tb.stats.trim_mean(x, 0.1), [_uniform(10)], (0,)),
    "stats.pearsonr": (lambda x, y: tb.stats.pearsonr(x, y)[0], [_uniform(6), _uniform(6, seed=8)], (0, 1)),
    "stats.norm.pdf": (tb.stats.norm.pdf, [_uniform(5, lo=-2, hi=2)], (0,)),
    "stats.norm.cdf": (tb.stats.norm.cdf, [_uniform(5, lo=-2, hi=2)], (0,)),
    "stats.norm.ppf": (tb.stats.norm.ppf, [_uniform(5)], (0,)),
    "stats.t.cdf": (lambda x: tb.stats.t.cdf(x, 3), [_uniform(5, lo=-2, hi=2)], (0,)),
    "stats.gamma.logpdf": (lambda x: tb.stats.gamma.logpdf(x, 2.5), [_uniform(5, lo=0.2, hi=4)], (0,)),
    # ndimage
    "ndimage.gaussian_filter": (lambda x: tb.ndimage.gaussian_filter(x, 1.0), [_uniform(6, 6)], (0,)),
    "ndimage.uniform_filter": (lambda x: tb.ndimage.uniform_filter(x, 3), [_uniform(6, 6)], (0,)),
    "ndimage.convolve": (
        lambda x: tb.ndimage.convolve(x, np.array([[0.0, 1, 0], [1, -4, 1], [0, 1, 0]])),
        [_uniform(5, 5)],
        (0,),
    ),
    "ndimage.sobel": (tb.ndimage.sobel, [_uniform(5, 5)], (0,)),
    "ndimage.laplace": (tb.ndimage.laplace, [_uniform(5, 5)], (0,)),
    "ndimage.gaussian_gradient_magnitude": (
        lambda x: tb.ndimage.gaussian_gradient_magnitude(x, 1.0),
        [_uniform(5, 5)],
        (0,),
    ),
    "ndimage.median_filter": (lambda x: tb.ndimage.median_filter(x, 3), [_uniform(5, 5)], (0,)),
    "ndimage.maximum_filter": (lambda x: tb.ndimage.maximum_filter(x, 3), [_uniform(5, 5)], (0,)),
    "ndimage.map_coordinates": (
        lambda x, c: tb.ndimage.map_coordinates(x, c, order=1),
        [_uniform(5, 5), _uniform(2, 4, lo=1.1, hi=2.9)],
        (0, 1),
    ),
    "ndimage.zoom": (lambda x: tb.ndimage.zoom(x, 1.5, order=1), [_uniform(4, 4)], (0,)),
    "ndimage.shift": (lambda x: tb.ndimage.shift(x, 0.3, order=1), [_uniform(5, 5)], (0,)),
    "ndimage.spline_filter": (tb.ndimage.spline_filter, [_uniform(5, 5)], (0,)),
    "ndimage.affine_transform": (
        lambda x: tb.ndimage.affine_transform(x, np.eye(2) * 0.9, order=3),
        [_uniform(5, 5)],
        (0,),
    ),
}

#: (routine, function, arguments, index of the argument that requires grad):
#: the work leaves autograd, so the call must raise, never return a cut result.
NOT_DIFFERENTIABLE = {
    "special.stdtrit in df": (tb.special.stdtrit, [_uniform(4, lo=2, hi=5), _uniform(4)], 0),
    "special.betaincinv in a": (
        tb.special.betaincinv,
        [_uniform(4, lo=1, hi=3), _uniform(4, lo=1, hi=3), _uniform(4)],
        0,
    ),
    "special.fdtri in dfd": (
        tb.special.fdtri,
        [_uniform(4, lo=2, hi=5), _uniform(4, lo=2, hi=5), _uniform(4)],
        1,
    ),
    "special.gammaincinv in a": (tb.special.gammaincinv, [_uniform(4, lo=1, hi=3), _uniform(4)], 0),
    "special.jv in v": (tb.special.jv, [_uniform(4, lo=0.5, hi=3), _uniform(4)], 0),
    "special.kv in v": (tb.special.kv, [_uniform(4, lo=0.5, hi=3), _uniform(4)], 0),
    "special.gammainc in a (libtorch has no derivative)": (
        tb.special.gammainc,
        [_uniform(4, lo=1, hi=3), _uniform(4)],
        0,
    ),
    "special.zetac (libtorch's zeta has none in x)": (tb.special.zetac, [_uniform(4, lo=2, hi=3)], 0),
    "special.eval_chebyt in x (CPU kernel)": (
        tb.special.eval_chebyt,
        [torch.tensor([1, 2, 3, 4]), _uniform(4, lo=-0.9, hi=0.9)],
        1,
    ),
    "stats.rankdata": (tb.stats.rankdata, [_uniform(5)], 0),
    "signal.lfilter in b": (lambda b, x: tb.signal.lfilter(b, [1.0, -0.5], x), [_uniform(3), _uniform(10)], 0),
    "linalg.lstsq": (lambda a, b: tb.linalg.lstsq(a, b)[0], [_uniform(5, 3), _uniform(5)], 0),
    "linalg.ldl (host post-processing)": (lambda a: tb.linalg.ldl(a)[1], [_spd(4)], 0),
    "linalg.solve_continuous_are (host Schur form)": (
        lambda a, b, q, r: tb.linalg.solve_continuous_are(a, b, q, r),
        [_uniform(3, 3), _uniform(3, 2), _spd(3), _spd(2)],
        0,
    ),
    "linalg.solve_lyapunov (host Schur form)": (tb.linalg.solve_lyapunov, [_uniform(3, 3), _spd(3)], 0),
    "linalg.qr_update (host Givens rotations)": (
        lambda q, r, u, v: tb.linalg.qr_update(q, r, u, v)[1],
        [torch.eye(3, dtype=D), torch.triu(_spd(3)), _uniform(3), _uniform(3, seed=2)],
        2,
    ),
    "ndimage.convolve in weights": (tb.ndimage.convolve, [_uniform(5, 5), _uniform(3, 3)], 1),
}

PAIRS = [(name, k) for name, (_, _, argnums) in DIFFERENTIABLE.items() for k in argnums]


def _inputs(args, k):
    return tuple(a.clone().requires_grad_(i == k) for i, a in enumerate(args))


def test_the_floor_of_sixty_routines():
    assert len(DIFFERENTIABLE) >= 60
    assert len({name.split(".")[0] for name in DIFFERENTIABLE}) >= 6


def test_the_package_table_names_exactly_the_checked_arguments():
    """``tb.differentiable`` (the README's table) claims what these cases check."""
    # (a case "routine (variant)" checks the routine again with other parameters)
    assert set(CLAIMED) == {name.split(" (")[0] for name in DIFFERENTIABLE}
    for name in CLAIMED:
        _, _, argnums = DIFFERENTIABLE[name]
        routine = _resolve(name)
        parameters = inspect.signature(routine).parameters
        variadic = any(p.kind is p.VAR_POSITIONAL for p in parameters.values())  # block_diag(*arrs)
        assert variadic or len(CLAIMED[name]) == len(argnums), name
        assert all(argument in parameters for argument in CLAIMED[name]), name
        assert tb.differentiable(routine) == tb.differentiable(name) == CLAIMED[name]


def test_the_readme_shows_the_table_as_generated():
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / ".ci"))
    import differentiability_table as table

    assert table.readme_block(table.README.read_text()) == table.table(), (
        "run: python .ci/differentiability_table.py --write"
    )


def test_differentiable_of_an_unlisted_routine_is_empty_and_of_no_routine_raises():
    assert tb.differentiable(tb.special.eval_chebyt) == ()
    assert tb.differentiable("special.eval_chebyt") == ()
    with pytest.raises(AttributeError):
        tb.differentiable("special.no_such_routine")


@pytest.mark.parametrize(("name", "k"), PAIRS, ids=[f"{n}-arg{k}" for n, k in PAIRS])
def test_gradcheck(name, k):
    f, args, _ = DIFFERENTIABLE[name]
    inputs = _inputs(args, k)
    assert f(*inputs).requires_grad
    assert torch.autograd.gradcheck(f, inputs, atol=1e-6, rtol=1e-4)


GRADGRAD = [
    "special.erf",
    "special.gammaln",
    "special.expit",
    "special.xlogy",
    "special.logsumexp",
    "special.k0",
    "special.jv",
    "special.kve",
    "special.betaincinv",
    "special.ellipe",
    "special.elliprc",
    "special.poch",
    "fft.rfft",
    "fft.dct",
    "linalg.solve",
    "linalg.expm",
    "spatial.distance.cdist",
]


@pytest.mark.parametrize("name", GRADGRAD)
def test_gradgradcheck(name):
    f, args, argnums = DIFFERENTIABLE[name]
    inputs = _inputs(args, argnums[0])
    assert torch.autograd.gradgradcheck(f, inputs, atol=1e-6, rtol=1e-4)


@pytest.mark.parametrize("name", list(NOT_DIFFERENTIABLE))
def test_a_cut_gradient_raises(name):
    f, args, k = NOT_DIFFERENTIABLE[name]
    with pytest.raises(NotDifferentiableError, match="requires grad"):
        f(*_inputs(args, k))
    # the value alone: detached inputs, or autograd off
    with torch.no_grad():
        value = f(*_inputs(args, k))
    assert not value.requires_grad
    np.testing.assert_array_equal(value.numpy(), f(*args).numpy())


def test_not_differentiable_error_is_a_runtime_error():
    assert issubclass(NotDifferentiableError, RuntimeError)
    assert issubclass(NotDifferentiableError, tb.TorchbridgeError)


def test_gradient_matches_the_analytic_derivative():
    x = _uniform(7, lo=-2, hi=2).requires_grad_()
    tb.special.erf(x).sum().backward()
    expected = 2 / np.sqrt(np.pi) * np.exp(-(x.detach().numpy() ** 2))
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-14)


def test_no_grad_and_inference_mode_record_nothing():
    x = _uniform(5).requires_grad_()
    with torch.no_grad():
        assert not tb.special.erf(x).requires_grad
    with torch.inference_mode():
        assert not tb.special.gammaln(x + 1).requires_grad
    # and the values are those of the graph-recording call
    np.testing.assert_array_equal(tb.special.erf(x).detach().numpy(), tb.special.erf(x.detach()).numpy())


def test_the_torch_route_is_the_callers_tensor():
    x = torch.arange(6, dtype=D)
    # a view made in libtorch has the caller's tensor itself as its base (a
    # DLPack alias would be a tensor of its own)
    v = tb.ops.aten.view(x, [2, 3])
    assert v._base is x and v.data_ptr() == x.data_ptr()
    x = x.reshape(2, 3)
    y = tb.special.erf(x)
    assert type(y) is torch.Tensor and y.dtype == D and y.shape == x.shape
    x_before = x.clone()
    tb.special.erf(x)
    assert torch.equal(x, x_before)  # the caller's tensor is not written


def test_conjugate_and_negative_views_are_applied():
    z = torch.tensor([1 + 2j, -0.5 + 0.25j], dtype=torch.complex128)
    got = tb.fft.fft(z.conj())
    np.testing.assert_allclose(got.numpy(), np.fft.fft(np.conj(z.numpy())), rtol=1e-15)
    got = tb.special.erf(z.conj().imag)  # a negative view
    np.testing.assert_allclose(got.numpy(), [-0.9953222650189527, -0.2763263901682369], rtol=1e-14)


def test_tb_ops_and_apply_follow_autograd_as_torch_does():
    x = _uniform(3).requires_grad_()
    # tb.ops and tb.apply run the caller's choice of ops: no check of their own
    assert not tb.ops.aten.detach(x).requires_grad
    assert tb.apply(lambda t: t * 2, x).requires_grad


# -- tb.grad and tb.value_and_grad (part 2): gradients for numpy and jax callers


def _poisson_nll(beta, X, y):
    """The negative Poisson log-likelihood of a log-linear model, from tb.special."""
    eta = X @ beta
    return (tb.torch.exp(eta) - y * eta + tb.special.gammaln(y + 1)).sum()


def _poisson_data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(50, 3))
    y = rng.poisson(np.exp(X @ np.array([0.3, -0.2, 0.1]))).astype(float)
    return X, y


def test_value_and_grad_matches_finite_differences_on_numpy():
    X, y = _poisson_data()
    beta = np.array([0.1, 0.0, -0.1])
    value, g = tb.value_and_grad(_poisson_nll)(beta, X, y)
    assert isinstance(value, np.ndarray) and value.shape == () and isinstance(g, np.ndarray)
    f = lambda b: float(tb.apply(lambda bb, XX, yy: _poisson_nll(bb, XX, yy), b, X, y))  # noqa: E731
    assert float(value) == pytest.approx(f(beta), rel=1e-14)
    h = 1e-6
    numeric = [(f(beta + h * e) - f(beta - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(g, numeric, rtol=1e-6)
    assert beta.tolist() == [0.1, 0.0, -0.1]  # the caller's array is not touched


def test_grad_with_several_argnums_and_the_argument_left_alone():
    x = np.array([0.2, 0.5, 0.9])
    w = np.array([1.0, 2.0, 3.0])
    gx, gw = tb.grad(lambda x, w: (w * tb.special.erf(x)).sum(), argnums=(0, 1))(x, w)
    np.testing.assert_allclose(gx, w * 2 / np.sqrt(np.pi) * np.exp(-(x**2)), rtol=1e-14)
    from scipy import special

    np.testing.assert_allclose(gw, special.erf(x), rtol=1e-14)


def test_grad_equals_jax_grad_on_jax_arrays():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from jax.scipy import special as jspecial

    x = jnp.linspace(0.3, 3.0, 6)
    ours = tb.grad(lambda t: tb.special.gammaln(t).sum() + tb.special.logsumexp(t))(x)
    theirs = jax.grad(lambda t: jspecial.gammaln(t).sum() + jspecial.logsumexp(t))(x)
    assert isinstance(ours, jax.Array)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-13)


def test_grad_in_scipy_optimize_minimize():
    from scipy.optimize import minimize

    X, y = _poisson_data(1)
    fit = minimize(tb.value_and_grad(_poisson_nll), np.zeros(3), args=(X, y), jac=True, method="BFGS")
    assert fit.success
    # the score equations at the optimum: X^T (exp(X beta) - y) = 0
    np.testing.assert_allclose(X.T @ (np.exp(X @ fit.x) - y), 0, atol=1e-4)


def test_grad_refuses_what_it_cannot_differentiate():
    with pytest.raises(TypeError, match="real scalar"):
        tb.grad(lambda t: tb.special.erf(t))(np.ones(3))
    with pytest.raises(TypeError, match="floating-point"):
        tb.grad(lambda t: t.sum())(np.arange(3))
    with pytest.raises(ValueError, match="argnums"):
        tb.grad(lambda t: t.sum(), argnums=2)(np.ones(3))
    with pytest.raises(NotDifferentiableError):
        tb.grad(lambda t: tb.stats.rankdata(t).sum())(np.array([0.3, 0.1, 0.2]))


def test_grad_on_torch_tensors_leaves_them_unmarked():
    x = torch.tensor([0.5, 1.5], dtype=D)
    g = tb.grad(lambda t: tb.special.expit(t).sum())(x)
    assert type(g) is torch.Tensor and not x.requires_grad and x.grad is None
    s = torch.sigmoid(x)
    torch.testing.assert_close(g, s * (1 - s), rtol=1e-14, atol=0)


SPECIAL_UNARY_SWEEP = [
    (name, k)
    for name, (_, args, argnums) in DIFFERENTIABLE.items()
    if name.startswith("special.")
    and args[0].dim() == 1
    and not args[0].is_complex()
    and name != "special.multigammaln"  # raises outside its domain (a > (d - 1) / 2), as SciPy
    for k in argnums
]


@pytest.mark.parametrize(("name", "k"), SPECIAL_UNARY_SWEEP, ids=[f"{n}-arg{k}" for n, k in SPECIAL_UNARY_SWEEP])
def test_gradients_are_finite_wherever_values_are(name, k):
    """gradcheck samples a few points; this sweeps 2001, four times wider than
    the sampled domain, with the other arguments at their first sample: a
    branch the composite does not pick must not make the gradient nan (0 * inf)."""
    f, args, _ = DIFFERENTIABLE[name]
    lo, hi = args[k].min().item(), args[k].max().item()
    centre, span = (lo + hi) / 2, 4 * (hi - lo)
    grid = torch.linspace(centre - span, centre + span, 2001, dtype=D)
    inputs = [grid if i == k else a[:1].expand(2001).clone() for i, a in enumerate(args)]
    inputs = [x.requires_grad_(i == k) for i, x in enumerate(inputs)]
    value = f(*inputs)
    (grad,) = torch.autograd.grad(value.sum(), inputs[k])
    broken = torch.isfinite(value) & ~torch.isfinite(grad)
    assert not broken.any(), grid[broken][:5].tolist()
