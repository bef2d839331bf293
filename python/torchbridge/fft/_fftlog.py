"""`scipy.fft._fftlog`: the fast Hankel transform (FFTLog) and its inverse.

Composites of torch ops (``torch.fft.rfft``/``irfft`` and elementwise ops,
through :func:`torchbridge.apply`: no NumPy round trip of the data). The
coefficients need log-gamma of complex arguments, which libtorch lacks:
:func:`_loggamma` computes it in complex128 from Stirling's series after
shifting the argument to real part >= 16 with the recurrence
``loggamma(z) = loggamma(z + N) - sum(log(z + k))`` (every point of one
coefficient array has the same real part, so ``N`` is one number). Its branch
agrees with SciPy's ``loggamma`` off the negative real axis, and on it up to
multiples of 2*pi*i, which ``exp`` (and ``fhtoffset``'s rounding) cancel.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from .._apply import apply

__all__ = ["fht", "ifht", "fhtoffset"]

LN_2 = math.log(2.0)

#: B_2k / (2k (2k - 1)) for k = 1..8: Stirling's series for log-gamma.
_STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400]
_SHIFT_TO = 16.0  # |z| >= 16: the 8 terms above leave an error below 1e-20


def _loggamma(z: Any) -> Any:
    """Principal log-gamma of a complex128 tensor whose elements all have the
    real part ``z.real[0]`` (see the module's docstring)."""
    import torch

    real = float(z.real.reshape(-1)[0]) if z.numel() else 0.0
    shift = max(0, math.ceil(_SHIFT_TO - real))
    correction = torch.zeros_like(z)
    for k in range(shift):
        correction = correction + torch.log(z + k)
    w = z + shift
    inv = 1.0 / w
    inv2 = inv * inv
    series = torch.zeros_like(w)
    for c in reversed(_STIRLING):
        series = series * inv2 + c
    series = series * inv
    return (w - 0.5) * torch.log(w) - w + 0.5 * math.log(2 * math.pi) + series - correction


def _poch(x: float, m: float) -> float:
    """Gamma(x + m) / Gamma(x) for real arguments, poles included, as SciPy's
    ``poch`` (used only for a coefficient that is not finite)."""
    if m == 0:
        return 1.0
    top, bottom = x + m, x
    top_pole = top <= 0 and top == math.floor(top)
    bottom_pole = bottom <= 0 and bottom == math.floor(bottom)
    if top_pole and bottom_pole:
        # Gamma(-a)/Gamma(-b) for integers a, b >= 0: (-1)^(a-b) b! / a!
        a, b = int(-top), int(-bottom)
        return (-1.0) ** (a - b) * math.exp(math.lgamma(b + 1) - math.lgamma(a + 1))
    if top_pole:
        return math.inf
    if bottom_pole:
        return 0.0
    sign = math.copysign(1.0, math.gamma(top) if top < 171 else 1.0) * math.copysign(
        1.0, math.gamma(bottom) if bottom < 171 else 1.0
    )
    return sign * math.exp(math.lgamma(top) - math.lgamma(bottom))


def _fhtcoeff(n: int, dln: float, mu: float, offset: float, bias: float, inverse: bool, device: Any) -> Any:
    """SciPy's ``fhtcoeff``: the n//2 + 1 complex coefficients, as a complex128 tensor."""
    import torch

    lnkr, q = offset, bias
    xp = (mu + 1 + q) / 2
    xm = (mu + 1 - q) / 2
    m = n // 2 + 1
    y = torch.linspace(0, math.pi * (n // 2) / (n * dln), m, dtype=torch.float64, device=device)
    v = _loggamma(torch.complex(torch.full_like(y, xm), y))
    u = _loggamma(torch.complex(torch.full_like(y, xp), y))
    y = y * (2 * (LN_2 - lnkr))
    u = torch.exp(torch.complex(u.real - v.real + LN_2 * q, u.imag + v.imag + y))
    if n % 2 == 0:
        u[-1] = float(u[-1].real)
    u0 = complex(u[0])
    if not (math.isfinite(u0.real) and math.isfinite(u0.imag)):
        u0 = complex(2.0**q * _poch(xm, xp - xm))
        u[0] = torch.tensor(u0, dtype=torch.complex128)
    if math.isinf(u0.real) and not inverse:
        warnings.warn("singular transform; consider changing the bias", stacklevel=4)
        u[0] = 0
    elif u0 == 0 and inverse:
        warnings.warn("singular inverse transform; consider changing the bias", stacklevel=4)
        u[0] = math.inf
    return u


def _transform(a: Any, dln: float, mu: float, offset: float, bias: float, inverse: bool) -> Any:
    import torch

    if a.is_complex():
        raise TypeError("x must be a real sequence")
    if a.ndim == 0:
        raise ValueError("Invalid number of data points (0) specified")
    out_dtype = torch.float32 if a.dtype in (torch.float32, torch.float16, torch.bfloat16) else torch.float64
    a = a.to(torch.float64)
    n = a.shape[-1]
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    if bias != 0:
        j = torch.arange(n, dtype=torch.float64, device=a.device) - (n - 1) / 2
        a = a * torch.exp(bias * (j * dln + offset)) if inverse else a * torch.exp(-bias * j * dln)
    u = _fhtcoeff(n, dln, mu, offset, bias, inverse, a.device)
    spectrum = torch.fft.rfft(a, dim=-1)
    spectrum = spectrum / u.conj() if inverse else spectrum * u
    result = torch.flip(torch.fft.irfft(spectrum, n, dim=-1), dims=(-1,))
    if bias != 0:
        result = result / torch.exp(-bias * j * dln) if inverse else result * torch.exp(-bias * (j * dln + offset))
    return result.to(out_dtype)


def _real(value: Any, name: str) -> float:
    try:
        return float(value)
    except TypeError as error:
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}") from error


def _options(dln: Any, mu: Any, offset: Any, bias: Any, inverse: bool) -> dict[str, Any]:
    return {"dln": _real(dln, "dln"), "mu": _real(mu, "mu"), "offset": _real(offset, "offset"),
            "bias": _real(bias, "bias"), "inverse": inverse}


def fht(a, dln, mu, offset=0.0, bias=0.0, *, device=None):  # SciPy's signature, unannotated
    """Compute the fast Hankel transform.

    SciPy's ``scipy.fft.fht``: the discrete Hankel transform of a
    logarithmically spaced periodic sequence ``a`` (over its last axis) by
    the FFTLog algorithm
    (Talman 1978; Hamilton 2000): uniform logarithmic spacing ``dln``, order
    ``mu`` (any real), ``offset`` of the output's logarithmic spacing and a
    power-law ``bias``. Returns a real array of ``a``'s shape: float32 for
    float32 (and float16) input, as SciPy, else float64.

    torchbridge: torch ops on the caller's array (its type and device kept);
    the transform is computed in float64 (also for float32 input, where SciPy
    computes in float32); the coefficients' complex log-gamma in complex128
    (Stirling's series). ``device=None`` (keyword-only): where to compute, as
    in the other routines.
    """
    return apply(_transform, a, device=device, **_options(dln, mu, offset, bias, inverse=False))


def ifht(A, dln, mu, offset=0.0, bias=0.0, *, device=None):  # SciPy's signature, unannotated
    """Compute the inverse fast Hankel transform.

    SciPy's ``scipy.fft.ifht``: the inverse of :func:`fht` for the same
    ``dln``, ``mu``, ``offset`` and ``bias``, over the last axis of ``A``.

    torchbridge: as :func:`fht`, torch ops on the caller's array, computed in
    float64. ``device=None`` (keyword-only): where to compute, as in the other
    routines.
    """
    return apply(_transform, A, device=device, **_options(dln, mu, offset, bias, inverse=True))


def fhtoffset(dln, mu, initial=0.0, bias=0.0):  # SciPy's signature, unannotated
    """Return optimal offset for a fast Hankel transform.

    SciPy's ``scipy.fft.fhtoffset``: the offset closest to ``initial`` that
    fulfils Hamilton's low-ringing condition for spacing ``dln``, order ``mu``
    and ``bias``, a Python float.

    torchbridge: the complex log-gamma computed by torch ops in complex128.
    It takes no arrays, hence no ``device`` keyword.
    """
    import torch

    dln, mu, lnkr, q = (_real(v, name) for v, name in ((dln, "dln"), (mu, "mu"), (initial, "initial"), (bias, "bias")))
    xp = (mu + 1 + q) / 2
    xm = (mu + 1 - q) / 2
    y = math.pi / (2 * dln)
    zp = _loggamma(torch.tensor([complex(xp, y)], dtype=torch.complex128))
    zm = _loggamma(torch.tensor([complex(xm, y)], dtype=torch.complex128))
    arg = (LN_2 - lnkr) / dln + float(zp.imag[0] + zm.imag[0]) / math.pi
    return lnkr + (arg - round(arg)) * dln
