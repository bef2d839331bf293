"""The shared tables and helpers of torchbridge.fft's tests: the transform
groups, the norms and lengths swept, the tolerances and the comparison.

Tolerances. An FFT's round-off is bounded relative to the size of the whole
transform (about eps * log n * max|y|), not to each output element: terms that
cancel to nearly zero carry absolute, not relative, error in SciPy's pocketfft
as in libtorch's MKL/pocketfft kernels. So float64 results are compared with
``|got - want| <= 1e-13 * max|want|`` (the observed worst is about 1.2e-15,
at 1e5 points);
float32 with 1e-5 (observed about 4e-7). The cosine and sine transforms are
FFT composites (Makhoul's algorithm, symmetric extensions, twiddles computed
in float64) and meet the same bounds.
"""

from __future__ import annotations

import numpy as np

F64_TOL = 1e-13
F32_TOL = 1e-5
NORMS = [None, "backward", "ortho", "forward"]
LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 13, 16, 31, 64, 97, 100]  # odd, even, prime, powers of 2

C2C = ["fft", "ifft"]
R2C = ["rfft", "ihfft"]
C2R = ["irfft", "hfft"]
ONE_D = C2C + R2C + C2R
N_D = ["fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]
TWO_D = ["fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"]
R2R = ["dct", "idct", "dst", "idst"]
R2RN = ["dctn", "idctn", "dstn", "idstn"]
REAL_INPUT = {"rfft", "ihfft", "rfftn", "ihfftn", "rfft2", "ihfft2"}


def assert_close(got, want, tol=F64_TOL):
    """Same type, dtype and shape as SciPy; values within `tol` of the largest."""
    assert type(got) is type(want), (type(got), type(want))
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    if not np.issubdtype(want.dtype, np.inexact):
        np.testing.assert_array_equal(got, want)
    elif want.size:
        scale = max(np.abs(want).max(), np.finfo(want.dtype).tiny)
        err = np.abs(got.astype(np.complex128) - want).max()
        assert err <= tol * scale, f"error {err:.3g} vs scale {scale:.3g}"


def signal(rng, shape, complex_=False, dtype=np.float64):
    x = rng.standard_normal(shape)
    if complex_:
        x = x + 1j * rng.standard_normal(shape)
        dtype = {np.float64: np.complex128, np.float32: np.complex64}.get(dtype, dtype)
    return x.astype(dtype)


def input_for(name, rng, shape, dtype=np.float64):
    complex_ = name not in REAL_INPUT and not name.startswith(("dct", "idct", "dst", "idst"))
    if complex_:
        dtype = {np.float64: np.complex128, np.float32: np.complex64}.get(dtype, dtype)
    return signal(rng, shape, complex_, dtype)


ND_CASES = [
    dict(),
    dict(axes=(0,)),
    dict(axes=(-1, 0)),
    dict(axes=(2, 0, 1)),
    dict(axes=1),
    dict(s=(4, 6)),
    dict(s=(3, 9, 8)),
    dict(s=(-1, 7), axes=(0, 2)),
    dict(s=5),
    dict(s=(2, 3), axes=(-3, -2)),
    dict(s=(7,), axes=(1,)),
]

INPUT_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]
TRANSFORMS = ONE_D + N_D + TWO_D + R2R + R2RN
