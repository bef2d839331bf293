"""Gauss quadrature nodes and weights (``scipy.special._orthogonal``'s ``roots_*``).

Golub-Welsch: the nodes are the eigenvalues of the symmetric tridiagonal Jacobi
matrix of the three-term recurrence (``torch.linalg.eigvalsh`` in float64),
polished by Newton steps on the orthonormal recurrence; the weights come from
``1 / (p_{n-1}(x) p_n'(x))`` evaluated in a log-scaled recurrence (no overflow
for large ``n``) and are normalised to the weight's integral ``mu0``, as SciPy
does. The results are float64 numpy arrays computed on the host.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = [
    "roots_legendre",
    "roots_chebyt",
    "roots_chebyu",
    "roots_chebyc",
    "roots_chebys",
    "roots_hermite",
    "roots_hermitenorm",
    "roots_laguerre",
    "roots_genlaguerre",
    "roots_jacobi",
    "roots_sh_jacobi",
    "roots_gegenbauer",
    "roots_sh_legendre",
    "roots_sh_chebyt",
    "roots_sh_chebyu",
]

_RESCALE = 1e100


def _order(n) -> int:
    m = int(n)
    if n < 1 or n != m:
        raise ValueError("n must be a positive integer.")
    return m


def _recurrence(x, a, e):
    """The orthonormal recurrence at the points ``x``.

    ``e[k] p_{k+1} = (x - a[k]) p_k - e[k-1] p_{k-1}`` for ``k < n - 1`` (``e``
    the off-diagonal, ``len(a) - 1`` values), then the unnormalised
    ``q_n = (x - a[n-1]) p_{n-1} - e[n-2] p_{n-2}``. Returns
    ``(q_n, q_n', sum_{k<n} p_k^2, log_scale)``, the first two scaled by
    ``exp(-log_scale)`` and the sum by ``exp(-2 log_scale)`` (per point).
    """
    n = len(a)
    p_prev = np.zeros_like(x)
    dp_prev = np.zeros_like(x)
    p = np.ones_like(x)
    dp = np.zeros_like(x)
    log_scale = np.zeros_like(x)
    total = np.ones_like(x)
    for k in range(n):
        t = x - a[k]
        q = t * p - (e[k - 1] * p_prev if k > 0 else 0.0)
        dq = p + t * dp - (e[k - 1] * dp_prev if k > 0 else 0.0)
        if k < n - 1:
            q = q / e[k]
            dq = dq / e[k]
            big = np.maximum(np.abs(q), np.abs(dq))
            s = np.where(big > _RESCALE, big, 1.0)
            p_prev, dp_prev, p, dp = p / s, dp / s, q / s, dq / s
            total = total / (s * s) + p * p
            log_scale += np.log(s)
        else:
            return q, dq, total, log_scale
    raise AssertionError("unreachable")


#: The most nodes a rule solved through its dense Jacobi matrix takes (8 * n**2 bytes: 20 GB here).
_MOST_NODES = 50_000


def _gauss(n: int, mu0: float, a, e, symmetrize: bool, mu: bool, newton: int = 2):
    """Nodes and weights of the ``n``-point rule of the Jacobi matrix (diagonal ``a``, off-diagonal ``e``)."""
    import torch  # only when called: `import torchbridge` does not import torch

    if n > _MOST_NODES:
        from ..errors import OutOfMemoryError

        raise OutOfMemoryError(
            f"roots of n={n} nodes: the dense {n}x{n} Jacobi matrix would need {8 * n * n:.3g} bytes "
            f"(at most {_MOST_NODES} nodes)"
        )
    a = np.asarray(a, dtype=np.float64)
    e = np.abs(np.asarray(e, dtype=np.float64))
    jac = torch.diag(torch.from_numpy(a)) if n > 0 else torch.zeros(0, 0, dtype=torch.float64)
    if n > 1:
        off = torch.from_numpy(e)
        jac = jac + torch.diag(off, 1) + torch.diag(off, -1)
    x = torch.linalg.eigvalsh(jac).numpy().astype(np.float64, copy=True)
    with np.errstate(all="ignore"):
        for _ in range(newton):
            q, dq, _, _ = _recurrence(x, a, e)
            step = q / dq
            x = x - np.where(np.isfinite(step), step, 0.0)
        # Christoffel numbers: w_i = mu0 / sum_k p_k(x_i)^2 (p_0 = 1), more
        # accurate near the ends of the interval than 1 / (p_{n-1} p_n')
        _, _, total, log_scale = _recurrence(x, a, e)
        log_w = -(2.0 * log_scale + np.log(total))
        w = np.exp(log_w - log_w.max())
    if symmetrize:
        w = (w + w[::-1]) / 2
        x = (x - x[::-1]) / 2
    w *= mu0 / w.sum()
    return (x, w, mu0) if mu else (x, w)


def _gamma(x: float) -> float:
    try:
        return math.gamma(x)
    except (ValueError, OverflowError):
        return math.inf if x > 0 or x == 0 else math.nan


def roots_jacobi(n, alpha, beta, mu=False, *, device=None):
    r"""Gauss-Jacobi quadrature.

    torchbridge: the nodes ``x`` and weights ``w`` of the ``n``-point rule for
    the weight ``(1 - x)^alpha (1 + x)^beta`` on ``[-1, 1]``
    (``scipy.special.roots_jacobi``, ``alpha, beta > -1``; with ``mu=True``
    also the weight's integral) as float64 numpy arrays: Golub-Welsch
    eigenvalues (``torch.linalg.eigvalsh``) polished by two Newton steps on the
    orthonormal recurrence. ``device=None`` (keyword-only) is accepted as by
    every torchbridge routine; the rule is computed on the host.
    """
    m = _order(n)
    if alpha <= -1 or beta <= -1:
        raise ValueError("alpha and beta must be greater than -1.")
    if alpha == 0.0 and beta == 0.0:
        return roots_legendre(m, mu)
    if alpha == beta:
        return roots_gegenbauer(m, alpha + 0.5, mu)
    a, b = float(alpha), float(beta)
    if a + b <= 1000:
        mu0 = 2.0 ** (a + b + 1) * math.exp(math.lgamma(a + 1) + math.lgamma(b + 1) - math.lgamma(a + b + 2))
    else:
        mu0 = math.exp((a + b + 1) * math.log(2.0) + math.lgamma(a + 1) + math.lgamma(b + 1) - math.lgamma(a + b + 2))
    k = np.arange(m, dtype=np.float64)
    with np.errstate(all="ignore"):
        s = 2.0 * k + a + b
        diag = np.where(k == 0, (b - a) / (2 + a + b), (b * b - a * a) / (s * (s + 2)))
        if a + b == 0.0:
            diag = np.where(k == 0, diag, 0.0)
        j = k[1:]
        s = 2.0 * j + a + b
        off = 2.0 / s * np.sqrt((j + a) * (j + b) / (s + 1)) * np.where(j == 1, 1.0, np.sqrt(j * (j + a + b) / (s - 1)))
    return _gauss(m, mu0, diag, off, False, mu)


def roots_sh_jacobi(n, p1, q1, mu=False, *, device=None):
    """Gauss-Jacobi (shifted) quadrature.

    torchbridge: the nodes and weights of the ``n``-point rule for the weight
    ``(1 - x)^(p-q) x^(q-1)`` on ``[0, 1]`` (``scipy.special.roots_sh_jacobi``,
    ``p - q > -1``, ``q > 0``) as float64 numpy arrays, from
    :func:`roots_jacobi`. ``device=None`` (keyword-only) is accepted as by
    every torchbridge routine; the rule is computed on the host.
    """
    if (p1 - q1) <= -1 or q1 <= 0:
        raise ValueError("(p - q) must be greater than -1, and q must be greater than 0.")
    x, w, m = roots_jacobi(n, p1 - q1, q1 - 1, True)
    x = (x + 1) / 2
    scale = 2.0**p1
    w = w / scale
    m = m / scale
    return (x, w, m) if mu else (x, w)


def roots_genlaguerre(n, alpha, mu=False, *, device=None):
    r"""Gauss-generalized Laguerre quadrature.

    torchbridge: the nodes and weights of the ``n``-point rule for the weight
    ``x^alpha e^(-x)`` on ``[0, inf)`` (``scipy.special.roots_genlaguerre``,
    ``alpha > -1``) as float64 numpy arrays: Golub-Welsch eigenvalues polished
    by two Newton steps, the weights from a log-scaled recurrence (no overflow
    at large ``n``). ``device=None`` (keyword-only) is accepted as by every
    torchbridge routine; the rule is computed on the host.
    """
    m = _order(n)
    if alpha < -1:
        raise ValueError("alpha must be greater than -1.")
    alpha = float(alpha)
    mu0 = _gamma(alpha + 1)
    if m == 1:
        x = np.array([alpha + 1.0])
        w = np.array([mu0])
        return (x, w, mu0) if mu else (x, w)
    k = np.arange(m, dtype=np.float64)
    diag = 2 * k + alpha + 1
    j = k[1:]
    off = np.sqrt(j * (j + alpha))
    return _gauss(m, mu0, diag, off, False, mu)


def roots_laguerre(n, mu=False, *, device=None):
    r"""Gauss-Laguerre quadrature.

    torchbridge: the nodes and weights of the ``n``-point rule for the weight
    ``e^(-x)`` on ``[0, inf)`` (``scipy.special.roots_laguerre``) as float64
    numpy arrays, from :func:`roots_genlaguerre` with ``alpha = 0``.
    ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    return roots_genlaguerre(n, 0.0, mu=mu)


def roots_hermite(n, mu=False, *, device=None):
    r"""Gauss-Hermite (physicist's) quadrature.

    torchbridge: the nodes and weights of the ``n``-point rule for the weight
    ``e^(-x^2)`` on the real line (``scipy.special.roots_hermite``) as float64
    numpy arrays: Golub-Welsch eigenvalues polished by two Newton steps for
    every ``n`` (SciPy switches to an asymptotic expansion above ``n = 150``;
    the two agree to about 1e-13 in the nodes), the weights from a log-scaled
    recurrence (they underflow to 0 in the far tails, as SciPy's).
    ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    m = _order(n)
    k = np.arange(m, dtype=np.float64)
    return _gauss(m, math.sqrt(math.pi), 0.0 * k, np.sqrt(k[1:] / 2.0), True, mu)


def roots_hermitenorm(n, mu=False, *, device=None):
    r"""Gauss-Hermite (statistician's) quadrature.

    torchbridge: the nodes and weights of the ``n``-point rule for the weight
    ``e^(-x^2/2)`` on the real line (``scipy.special.roots_hermitenorm``) as
    float64 numpy arrays, Golub-Welsch with two Newton steps for every ``n``.
    ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    m = _order(n)
    k = np.arange(m, dtype=np.float64)
    return _gauss(m, math.sqrt(2.0 * math.pi), 0.0 * k, np.sqrt(k[1:]), True, mu)


def roots_gegenbauer(n, alpha, mu=False, *, device=None):
    r"""Gauss-Gegenbauer quadrature.

    torchbridge: the nodes and weights of the ``n``-point rule for the weight
    ``(1 - x^2)^(alpha - 1/2)`` on ``[-1, 1]``
    (``scipy.special.roots_gegenbauer``, ``alpha > -1/2``; ``alpha = 0`` is
    :func:`roots_chebyt`) as float64 numpy arrays, Golub-Welsch with two Newton
    steps. ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    m = _order(n)
    if alpha < -0.5:
        raise ValueError("alpha must be greater than -0.5.")
    elif alpha == 0.0:
        return roots_chebyt(n, mu)
    alpha = float(alpha)
    if alpha <= 170:
        mu0 = math.sqrt(math.pi) * _gamma(alpha + 0.5) / _gamma(alpha + 1)
    else:
        inv_alpha = 1.0 / alpha
        coeffs = [0.000207186, -0.00152206, -0.000640869, 0.00488281, 0.0078125, -0.125, 1.0]
        mu0 = coeffs[0]
        for c in coeffs[1:]:
            mu0 = mu0 * inv_alpha + c
        mu0 = mu0 * math.sqrt(math.pi / alpha)
    k = np.arange(m, dtype=np.float64)
    j = k[1:]
    with np.errstate(all="ignore"):
        off = np.sqrt(j * (j + 2 * alpha - 1) / (4 * (j + alpha) * (j + alpha - 1)))
    return _gauss(m, mu0, 0.0 * k, off, True, mu)


def _sinpi(t):
    # t in [-1/2, 1/2]: sin(pi t) with the argument reduced exactly
    return np.sin(np.pi * t)


def roots_chebyt(n, mu=False, *, device=None):
    r"""Gauss-Chebyshev (first kind) quadrature.

    torchbridge: the nodes ``sin(pi k / (2n))`` and the equal weights ``pi/n``
    (``scipy.special.roots_chebyt``, weight ``1/sqrt(1 - x^2)``) as float64
    numpy arrays, in closed form. ``device=None`` (keyword-only) is accepted
    as by every torchbridge routine; the rule is computed on the host.
    """
    m = _order(n)
    x = _sinpi(np.arange(-m + 1, m, 2) / (2 * m))
    w = np.full_like(x, math.pi / m)
    return (x, w, math.pi) if mu else (x, w)


def roots_chebyu(n, mu=False, *, device=None):
    r"""Gauss-Chebyshev (second kind) quadrature.

    torchbridge: the nodes ``cos(k pi / (n + 1))`` and weights
    ``pi sin^2(k pi / (n + 1)) / (n + 1)`` (``scipy.special.roots_chebyu``,
    weight ``sqrt(1 - x^2)``) as float64 numpy arrays, in closed form.
    ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    m = _order(n)
    t = np.arange(m, 0, -1) * math.pi / (m + 1)
    x = np.cos(t)
    w = math.pi * np.sin(t) ** 2 / (m + 1)
    return (x, w, math.pi / 2) if mu else (x, w)


def roots_chebyc(n, mu=False, *, device=None):
    r"""Gauss-Chebyshev (first kind) quadrature.

    torchbridge: :func:`roots_chebyt` scaled to ``[-2, 2]``
    (``scipy.special.roots_chebyc``, weight ``1/sqrt(1 - (x/2)^2)``) as float64
    numpy arrays. ``device=None`` (keyword-only) is accepted as by every
    torchbridge routine; the rule is computed on the host.
    """
    x, w, m = roots_chebyt(n, True)
    return (2 * x, 2 * w, 2 * m) if mu else (2 * x, 2 * w)


def roots_chebys(n, mu=False, *, device=None):
    r"""Gauss-Chebyshev (second kind) quadrature.

    torchbridge: :func:`roots_chebyu` scaled to ``[-2, 2]``
    (``scipy.special.roots_chebys``, weight ``sqrt(1 - (x/2)^2)``) as float64
    numpy arrays. ``device=None`` (keyword-only) is accepted as by every
    torchbridge routine; the rule is computed on the host.
    """
    x, w, m = roots_chebyu(n, True)
    return (2 * x, 2 * w, 2 * m) if mu else (2 * x, 2 * w)


def roots_sh_chebyt(n, mu=False, *, device=None):
    r"""Gauss-Chebyshev (first kind, shifted) quadrature.

    torchbridge: :func:`roots_chebyt` with the nodes moved to ``[0, 1]`` and,
    as SciPy's ``roots_sh_chebyt``, the weights (and ``mu``) left as they are,
    as float64 numpy arrays. ``device=None`` (keyword-only) is accepted as by
    every torchbridge routine; the rule is computed on the host.
    """
    xw = roots_chebyt(n, mu)
    return ((xw[0] + 1) / 2,) + xw[1:]


def roots_sh_chebyu(n, mu=False, *, device=None):
    r"""Gauss-Chebyshev (second kind, shifted) quadrature.

    torchbridge: :func:`roots_chebyu` moved to ``[0, 1]`` (weight
    ``sqrt(x - x^2)``, integral ``B(3/2, 3/2) = pi/8``;
    ``scipy.special.roots_sh_chebyu``) as float64 numpy arrays.
    ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    x, w, m = roots_chebyu(n, True)
    x = (x + 1) / 2
    m_us = math.pi / 8
    w = w * (m_us / m)
    return (x, w, m_us) if mu else (x, w)


def roots_legendre(n, mu=False, *, device=None):
    r"""Gauss-Legendre quadrature.

    torchbridge: the nodes and weights of the ``n``-point rule on ``[-1, 1]``
    (``scipy.special.roots_legendre``) as float64 numpy arrays: Golub-Welsch
    eigenvalues (``torch.linalg.eigvalsh``) polished by two Newton steps on the
    orthonormal recurrence, symmetrised, the weights normalised to 2.
    ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    m = _order(n)
    k = np.arange(m, dtype=np.float64)
    j = k[1:]
    return _gauss(m, 2.0, 0.0 * k, j * np.sqrt(1.0 / (4 * j * j - 1)), True, mu)


def roots_sh_legendre(n, mu=False, *, device=None):
    r"""Gauss-Legendre (shifted) quadrature.

    torchbridge: :func:`roots_legendre` moved to ``[0, 1]`` (weights halved,
    ``mu = 1``; ``scipy.special.roots_sh_legendre``) as float64 numpy arrays.
    ``device=None`` (keyword-only) is accepted as by every torchbridge
    routine; the rule is computed on the host.
    """
    x, w = roots_legendre(n)
    x = (x + 1) / 2
    w = w / 2
    return (x, w, 1.0) if mu else (x, w)
