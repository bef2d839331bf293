"""On a GPU: every ufunc and the Python-level functions on CUDA tensors."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as sc

import torchbridge as tb

from .cases import CASES, POLYNOMIALS, assert_close, ours, sample


def _cuda_or_skip():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device visible")
    return torch


@pytest.mark.gpu
@pytest.mark.parametrize("name", sorted(CASES))
def test_cuda_matches_cpu(name, rng):
    torch = _cuda_or_skip()
    args = sample(name, rng, 20_000)
    cpu = [torch.from_numpy(a) for a in args]
    cuda = [t.cuda() for t in cpu]
    got = ours(name)(*cuda)
    assert got.is_cuda
    want = ours(name)(*cpu)
    case = CASES[name]
    # CUDA's libm differs from the CPU's by an ulp or two
    assert_close(got.cpu().numpy(), want.numpy(), max(case.rtol, 1e-13) * 10, case.atol * 10,
                 scale_atol=name in POLYNOMIALS)


@pytest.mark.gpu
def test_cuda_reductions_and_functions(rng):
    torch = _cuda_or_skip()
    a = torch.from_numpy(rng.normal(size=(50, 40)) * 20).cuda()
    for name in ("softmax", "log_softmax"):
        np.testing.assert_allclose(ours(name)(a, axis=1).cpu().numpy(),
                                   getattr(sc, name)(a.cpu().numpy(), axis=1), rtol=1e-13, atol=1e-300)
    got, sign = tb.special.logsumexp(a, axis=0, b=a, return_sign=True)
    want, want_sign = sc.logsumexp(a.cpu().numpy(), axis=0, b=a.cpu().numpy(), return_sign=True)
    np.testing.assert_allclose(got.cpu().numpy(), want, rtol=1e-13)
    np.testing.assert_array_equal(sign.cpu().numpy(), want_sign)
    x = torch.linspace(0.1, 5, 100, dtype=torch.float64).cuda()
    np.testing.assert_allclose(tb.special.polygamma(2, x).cpu().numpy(), sc.polygamma(2, x.cpu().numpy()),
                               rtol=1e-13)
    np.testing.assert_allclose(tb.special.zeta(x).cpu().numpy(), sc.zeta(x.cpu().numpy()), rtol=1e-13)
    np.testing.assert_allclose(tb.special.gammaincc(2.5, x).cpu().numpy(),
                               sc.gammaincc(2.5, x.cpu().numpy()), rtol=1e-13)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["betainc", "betaincc", "betaincinv", "stdtr", "stdtrit", "gammaincinv", "fdtr"])
def test_incbet_family_on_cuda_matches_cpu(name):
    torch = _cuda_or_skip()
    rng = np.random.default_rng(7)
    nin = {"betainc": 3, "betaincc": 3, "betaincinv": 3, "fdtr": 3}.get(name, 2)
    args = [rng.uniform(0.5, 30, 2000) for _ in range(nin - 1)] + [rng.uniform(0.01, 0.99, 2000)]
    cpu = [torch.from_numpy(a) for a in args]
    got = getattr(tb.special, name)(*[t.cuda() for t in cpu])
    assert got.is_cuda
    want = getattr(tb.special, name)(*cpu)
    np.testing.assert_allclose(got.cpu().numpy(), want.numpy(), rtol=1e-12)
