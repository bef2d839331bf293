#!/usr/bin/env python3
"""Regenerates the tables of ``constants.rs`` and checks them against the file.

    python src/ops/special/constants.py           # check: every committed double
                                                  # equals the regenerated one
    python src/ops/special/constants.py --print   # print the tables as Rust

Where the tables come from (none is copied from a published table; all are
computed here, as they were for torchbridge):

- ``TEMME``: Temme's coefficients d[k][n] of the uniform asymptotic expansion
  of the incomplete gamma function (DLMF 8.12.12-8.12.13), in exact rational
  arithmetic: the series of eta(lambda) = sign(lambda) sqrt(2 (lambda -
  log(1 + lambda))), its Lagrange inversion alpha, d[0][n] = (n + 2)
  alpha[n + 2] and d[k][n] = (-1)^k g_k d[0][n] + (n + 2) d[k - 1][n + 2],
  with g_k Stirling's coefficients. (SciPy's ``igam.h`` table ``d`` holds the
  same numbers, from its ``_precompute/gammainc_asy.py``.)
- ``STIRLING_GAMMA``: Stirling's series g_k (DLMF 5.11.3), exact rationals
  from the exponential of the Bernoulli series of log Gamma*.
- ``DIGAMMA_ASYMPTOTIC``: B_2k / (2k) (DLMF 5.11.2), exact.
- ``LGAMMA1P``: -gamma, then (-1)^k zeta(k) / k (DLMF 5.7.3), with mpmath.
- ``DIGAMMA_POS``/``DIGAMMA_NEG``: Taylor coefficients of digamma about the
  double nearest each zero: psi(r), then (-1)^(n+1) zeta(n+1, r), mpmath.
- ``BORWEIN``: Borwein's weights (-1)^k (d_k - d_n) / d_n for n = 24
  (Borwein 1991, algorithm 2), exact integers.
- ``FACTORIALS``: (n-1)! for n = 1..171, exact integers rounded once.
- ``DILOG_BERNOULLI``: B_n / (n + 1)! (B_1 = -1/2), the coefficients of the
  dilogarithm in u = -log(1 - z) ('t Hooft and Veltman 1979), exact.
- ``EI_TAYLOR``: the Taylor coefficients of Ei about its positive zero
  ``EI_ROOT`` (+ ``EI_ROOT_ERR``), Ei^(k)(root) / k!, with mpmath.
- the scalars: mpmath at 60 digits.

The series tables were written as 17 significant digits of the exact value
(which a double reads back within half an ulp, not always to the nearest
double): ``printed`` reproduces that; ``FACTORIALS`` are correctly rounded.

mpmath (a SciPy test dependency) is the only requirement.
"""

from __future__ import annotations

import math
import re
import sys
from fractions import Fraction
from pathlib import Path

import mpmath as mp

mp.mp.dps = 60
HERE = Path(__file__).with_name("constants.rs")


def bernoulli(n_max: int) -> list[Fraction]:
    """B_0..B_n_max (B_1 = -1/2), exactly."""
    b = [Fraction(0)] * (n_max + 1)
    for m in range(n_max + 1):
        b[m] = (
            Fraction(1)
            if m == 0
            else -sum(math.comb(m + 1, k) * b[k] for k in range(m)) / (m + 1)
        )
    return b


def series_exp(c: list[Fraction]) -> list[Fraction]:
    """exp of a power series with c[0] = 0, to len(c) terms."""
    n = len(c)
    e = [Fraction(1)] + [Fraction(0)] * (n - 1)
    for k in range(1, n):  # e' = c' e
        e[k] = sum(j * c[j] * e[k - j] for j in range(1, k + 1)) / k
    return e


def stirling(n: int) -> list[Fraction]:
    """g_0..g_{n-1}: Gamma(x) ~ sqrt(2 pi) x^(x-1/2) e^-x sum g_k x^-k."""
    b = bernoulli(2 * n + 2)
    # log Gamma* = sum_j B_2j / (2j (2j-1)) x^(1-2j): a series in 1/x
    c = [Fraction(0)] * n
    for j in range(1, n):
        if 2 * j - 1 < n:
            c[2 * j - 1] = b[2 * j] / (2 * j * (2 * j - 1))
    return series_exp(c)


def temme(K: int = 25, N: int = 25) -> list[list[Fraction]]:
    M = N + 2 * K
    terms = M + 3
    # lambda - log(1 + lambda) = lambda^2 sum_k (-1)^k lambda^(k-2) / k; eta = lambda sqrt(2 (...)/lambda^2)
    q = [Fraction(2 * (-1) ** (k + 2), k + 2) for k in range(terms)]
    s = [Fraction(1)] + [Fraction(0)] * (terms - 1)  # sqrt(q), q[0] = 1
    for k in range(1, terms):
        s[k] = (q[k] - sum(s[i] * s[k - i] for i in range(1, k))) / 2
    # eta = lambda * s(lambda), so x / eta(x) = 1 / s(x)
    # Lagrange inversion: alpha_k = [x^(k-1)] (x / eta(x))^k / k
    h = [Fraction(0)] * terms
    h[0] = Fraction(1)
    for k in range(1, terms):
        h[k] = -sum(s[i] * h[k - i] for i in range(1, k + 1))
    alpha = [Fraction(0)]
    power = [Fraction(1)] + [Fraction(0)] * (terms - 1)
    for k in range(1, M + 3):
        power = [sum(power[i] * h[j - i] for i in range(j + 1)) for j in range(terms)]
        alpha.append(power[k - 1] / k)
    g = stirling(K)
    d0 = [Fraction(-1, 3)] + [(n + 2) * alpha[n + 2] for n in range(1, M)]
    d = [d0]
    for k in range(1, K):
        d.append(
            [
                (-1) ** k * g[k] * d0[n] + (n + 2) * d[k - 1][n + 2]
                for n in range(M - 2 * k)
            ]
        )
    return [row[:N] for row in d]


def printed(v) -> float:
    """`v` (a Fraction or an mpf) as the tables were written: printed to 17
    significant digits, then read as a double (which is not always the double
    nearest `v`: the decimal rounding comes first)."""
    if isinstance(v, Fraction):
        v = mp.mpf(v.numerator) / v.denominator
    return float(mp.nstr(v, 17, min_fixed=1, max_fixed=0))


def digamma_taylor(root: float, n: int) -> list[float]:
    r = mp.mpf(root)
    return [printed(mp.psi(0, r))] + [
        printed((-1) ** (k + 1) * mp.zeta(k + 1, r)) for k in range(1, n)
    ]


def borwein(n: int = 24) -> list[float]:
    def d(k: int) -> Fraction:
        return n * sum(
            Fraction(
                math.factorial(n + i - 1) * 4**i,
                math.factorial(n - i) * math.factorial(2 * i),
            )
            for i in range(k + 1)
        )

    dn = d(n)
    return [printed((-1) ** k * (d(k) - dn) / dn) for k in range(n)]


def tables() -> dict[str, object]:
    b = bernoulli(20)
    ei_root = mp.findroot(mp.ei, 0.3725)
    max_gamma = mp.findroot(
        lambda x: mp.loggamma(x) - mp.log(sys.float_info.max), 171.6
    )
    return {
        "FRAC_1_SQRT_2_ERR": float(mp.sqrt(mp.mpf(1) / 2) - mp.mpf(math.sqrt(0.5))),
        "SQRT_2PI": float(mp.sqrt(2 * mp.pi)),
        "EULER": float(mp.euler),
        "MAX_GAMMA_ARG": float(max_gamma),
        "DBL_MIN": None,  # f64::MIN_POSITIVE, not a literal
        "STIRLING_GAMMA": [printed(v) for v in stirling(13)],
        "DIGAMMA_ASYMPTOTIC": [0.0]
        + [printed(b[2 * k] / (2 * k)) for k in range(1, 10)],
        "LGAMMA1P": [0.0, printed(-mp.euler)]
        + [printed((-1) ** k * mp.zeta(k) / k) for k in range(2, 28)],
        "FACTORIALS": [float(math.factorial(n - 1)) for n in range(1, 172)],
        "TEMME": [[printed(v) for v in row] for row in temme()],
        "DIGAMMA_POS": digamma_taylor(1.4616321449683622, 30),
        "DIGAMMA_POS_ROOT": 1.4616321449683622,
        "DIGAMMA_NEG": digamma_taylor(-0.5040830082644554, 30),
        "DIGAMMA_NEG_ROOT": -0.5040830082644554,
        "BORWEIN": borwein(),
        "DILOG_BERNOULLI": [printed(b[n] / math.factorial(n + 1)) for n in range(21)],
        "EI_ROOT": float(ei_root),
        "EI_ROOT_ERR": float(ei_root - mp.mpf(float(ei_root))),
        "EI_TAYLOR": [0.0] + [printed(c) for c in mp.taylor(mp.ei, ei_root, 26)[1:]],
    }


def committed() -> dict[str, object]:
    """The constants of constants.rs, parsed."""
    text = HERE.read_text()
    number = r"-?[0-9][0-9_]*(?:\.[0-9_]*)?(?:e[+-]?[0-9]+)?"
    found: dict[str, object] = {}
    for name, body in re.findall(r"const (\w+): [^=]+= ([^;]+);", text):
        values = [float(v.replace("_", "")) for v in re.findall(number, body)]
        found[name] = values[0] if body.strip()[0] != "[" else values
    for name in ("TEMME",):
        flat = found[name]
        found[name] = [flat[i * 25 : (i + 1) * 25] for i in range(25)]
    return found


def rust_float(v: float) -> str:
    """17 significant digits, trailing zeros dropped, exponent without padding."""
    mantissa, exponent = f"{v:.16e}".split("e")
    mantissa = mantissa.rstrip("0")
    mantissa += "0" if mantissa.endswith(".") else ""
    e = int(exponent)
    return mantissa if e == 0 else f"{mantissa}e{e:+d}".replace("e+", "e+")


def main() -> int:
    new = tables()
    if "--print" in sys.argv:
        for name, value in new.items():
            if isinstance(value, list):
                rows = value if isinstance(value[0], list) else [value]
                body = ",\n    ".join(
                    "[" + ", ".join(map(rust_float, r)) + "]" for r in rows
                )
                print(f"const {name} = {body};")
            elif value is not None:
                print(f"const {name}: f64 = {value!r};")
        return 0
    old = committed()
    bad = []
    for name, value in new.items():
        if value is None:
            continue
        if name not in old:
            bad.append(f"{name}: not in constants.rs")
            continue
        want, got = value, old[name]
        flat_w = (
            [x for r in want for x in (r if isinstance(r, list) else [r])]
            if isinstance(want, list)
            else [want]
        )
        flat_g = (
            [x for r in got for x in (r if isinstance(r, list) else [r])]
            if isinstance(got, list)
            else [got]
        )
        if len(flat_w) != len(flat_g):
            bad.append(
                f"{name}: {len(flat_g)} values committed, {len(flat_w)} generated"
            )
            continue
        diff = [i for i, (w, g) in enumerate(zip(flat_w, flat_g)) if w != g]
        if diff:
            i = diff[0]
            ulps = (
                abs(flat_w[i] - flat_g[i]) / math.ulp(flat_w[i])
                if flat_w[i]
                else float("inf")
            )
            bad.append(
                f"{name}: {len(diff)} of {len(flat_w)} differ, first at {i}: "
                f"committed {flat_g[i]!r}, generated {flat_w[i]!r} ({ulps:.0f} ulp)"
            )
    for line in bad:
        print(line)
    print(
        "constants.rs matches the generated tables"
        if not bad
        else f"{len(bad)} table(s) differ"
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
