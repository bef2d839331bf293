//! Legendre's elliptic integrals (Cephes' `ellpk.c`, `ellpe.c`, `ellik.c`,
//! `ellie.c` in SciPy): ellipk, ellipkm1, ellipe, ellipkinc, ellipeinc, all
//! through Carlson's symmetric integrals (`carlson`), with Cephes' rules for
//! the special values and the reduction of the amplitude by multiples of pi/2.

use std::f64::consts::FRAC_PI_2;

use tch::Tensor;

use super::carlson::{rd_f64, rf_f64, rg_f64};
use super::helpers::*;
use crate::ops::autograd::with_derivatives;
use crate::Result;

/// Below this |m| the derivatives in m are Taylor series: `E - K` and `E - F`
/// cancel there (their truncation errors and the formulas' meet near 1e-13).
const SERIES_BELOW: f64 = 1e-3;

/// `K(1 - p) = R_F(0, p, 1)` for p >= 0 (nan below, `inf` at 0, 0 at `inf`).
fn ellpk(p: &Tensor) -> Result<Tensor> {
    rf_f64(&p.f_zeros_like()?, p, &p.f_ones_like()?)
}

/// The complete elliptic integral of the first kind `K(m) = R_F(0, 1 - m, 1)`,
/// `scipy.special.ellipk` (nan for m > 1, `inf` at 1, 0 at -inf).
pub(super) fn ellipk(m: &Tensor) -> Result<Tensor> {
    let out = ellpk(&m.f_neg()?.f_add_scalar(1.0)?)?;
    fill(&out, &m.f_gt(1.0)?, f64::NAN)
}

/// `K(1 - p) = R_F(0, p, 1)`, accurate for small p, `scipy.special.ellipkm1`.
pub(super) fn ellipkm1(p: &Tensor) -> Result<Tensor> {
    ellpk(p)
}

/// `E(m)` on float64: `2 R_G(0, 1 - m, 1)`, whose terms never cancel (1 at
/// m = 1, where `K` diverges), nan for m > 1, `inf` at -inf.
fn ellpe(m: &Tensor) -> Result<Tensor> {
    let out = rg_f64(&m.f_zeros_like()?, &m.f_neg()?.f_add_scalar(1.0)?, &m.f_ones_like()?)?.f_mul_scalar(2.0)?;
    fill(&out, &m.f_gt(1.0)?, f64::NAN)
}

/// The complete elliptic integral of the second kind, `scipy.special.ellipe`.
/// Derivative `(E - K) / 2m` (DLMF 19.4.2), for |m| < 1e-3 (where `E - K`
/// cancels) the Taylor series of `E'`, which also gives the second derivative
/// at 0: autograd through `R_G`'s zero argument would give `0 * inf`.
pub(super) fn ellipe(m: &Tensor) -> Result<Tensor> {
    let slope = |e: &Tensor| {
        let small = m.f_abs()?.f_lt(SERIES_BELOW)?;
        let m_safe = pick(&small, &full(m, 1.0)?, m)?;
        let slope = e.f_sub(&ellipk(m)?)?.f_div(&m_safe.f_mul_scalar(2.0)?)?;
        // E(m) = pi/2 (1 - m/4 - 3m^2/64 - 5m^3/256 - 175m^4/16384 - ...)
        let series = horner(m, &[-0.25, -6.0 / 64.0, -15.0 / 256.0, -700.0 / 16384.0])?.f_mul_scalar(FRAC_PI_2)?;
        pick(&small, &series, &slope)
    };
    with_derivatives(|| ellpe(m), &[(m, &slope)])
}

/// The amplitude reduced as Cephes reduces it: `phi = r + n pi/2` with `n`
/// even (`floor(phi / (pi/2))`, made even upwards), `|r| <= pi/2`.
fn reduce(phi: &Tensor) -> Result<(Tensor, Tensor)> {
    let n = phi.f_div_scalar(FRAC_PI_2)?.f_floor()?;
    let n = pick(&is_odd(&n)?, &n.f_add_scalar(1.0)?, &n)?;
    // n = 0: phi itself (-0.0 keeps its sign)
    let r = pick(&n.f_eq(0.0)?, phi, &phi.f_sub(&n.f_mul_scalar(FRAC_PI_2)?)?)?;
    Ok((n, r))
}

/// `(sin r, cos r^2, 1 - m sin r^2)`, the last for m > 0 as `(1 - m) + m cos
/// r^2`, which keeps its relative accuracy where `m sin r^2` is near 1 (for
/// m < 0 both terms of `1 - m sin r^2` are positive).
fn carlson_arguments(r: &Tensor, m: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    let s = r.f_sin()?;
    let c2 = r.f_cos()?.f_square()?;
    let near_one = m.f_neg()?.f_add_scalar(1.0)?.f_add(&m.f_mul(&c2)?)?;
    let direct = m.f_mul(&s.f_square()?)?.f_neg()?.f_add_scalar(1.0)?;
    let delta2 = pick(&m.f_gt(0.0)?, &near_one, &direct)?;
    Ok((s, c2, delta2))
}

/// The incomplete elliptic integral of the first kind `F(phi | m)`,
/// `scipy.special.ellipkinc(phi, m)`: `sin r R_F(cos^2 r, 1 - m sin^2 r, 1)
/// + n K(m)` for `phi = r + n pi/2`, with Cephes' special values (nan for
/// m > 1, `phi` where m = 0 or phi is infinite, 0 where m is infinite,
/// `asinh(tan phi)` at m = 1, `inf` there from |phi| = pi/2 on).
pub(super) fn ellipkinc(phi: &Tensor, m: &Tensor) -> Result<Tensor> {
    let (n, r) = reduce(phi)?;
    let (s, c2, delta2) = carlson_arguments(&r, m)?;
    let f = s.f_mul(&rf_f64(&c2, &delta2, &c2.f_ones_like()?)?)?;
    let k = ellipk(m)?;
    let out = pick(&n.f_eq(0.0)?, &f, &f.f_add(&n.f_mul(&k)?)?)?;
    // Cephes' sign of F(-0.0 | m): -0.0 only for m < 0 (its separate branch)
    let out = pick(&m.f_lt(0.0)?, &out, &out.f_add_scalar(0.0)?)?;
    let at_one = phi.f_tan()?.f_asinh()?;
    let at_one = fill(&at_one, &not(&phi.f_abs()?.f_lt(FRAC_PI_2)?)?, f64::INFINITY)?;
    let out = pick(&m.f_eq(1.0)?, &at_one, &out)?;
    let out = pick(&m.f_eq(0.0)?, phi, &out)?;
    let out = fill(&out, &and(&m.f_isinf()?, &phi.f_isfinite()?)?, 0.0)?;
    let out = pick(&and(&phi.f_isinf()?, &m.f_isfinite()?)?, phi, &out)?;
    let nan = or(&any_nan(phi, m)?, &or(&m.f_gt(1.0)?, &and(&phi.f_isinf()?, &m.f_isinf()?)?)?)?;
    fill(&out, &nan, f64::NAN)
}

/// The incomplete elliptic integral of the second kind `E(phi | m)`,
/// `scipy.special.ellipeinc(phi, m)`: `sin r R_F(c^2, d^2, 1) - m/3 sin^3 r
/// R_D(c^2, d^2, 1) + n E(m)` for `phi = r + n pi/2`, with Cephes' special
/// values (nan for m > 1, `phi` where m = 0 or phi is infinite, `-m` where m
/// is infinite, `sin r + n` at m = 1).
pub(super) fn ellipeinc(phi: &Tensor, m: &Tensor) -> Result<Tensor> {
    // d/dphi: the integrand; d/dm: (E - F) / 2m (DLMF 19.4.4), for |m| < 1e-3
    // (where E - F cancels) the series of -1/2 of the integral of sin^2 / sqrt(1
    // - m sin^2). Autograd through R_D's and R_F's zero arguments would give
    // 0 * inf.
    let integrand = |_: &Tensor| Ok(m.f_mul(&phi.f_sin()?.f_square()?)?.f_neg()?.f_add_scalar(1.0)?.f_sqrt()?);
    let in_m = |e: &Tensor| {
        let small = m.f_abs()?.f_lt(SERIES_BELOW)?;
        let m_safe = pick(&small, &full(m, 1.0)?, m)?;
        let slope = e.f_sub(&ellipkinc(phi, m)?)?.f_div(&m_safe.f_mul_scalar(2.0)?)?;
        // -1/2 (I2 + m/2 I4 + 3m^2/8 I6), I_k the integral of sin^k over [0, phi]
        let sine = |k: f64| phi.f_mul_scalar(k)?.f_sin().map_err(crate::Error::from);
        let i2 = phi.f_mul_scalar(0.5)?.f_sub(&sine(2.0)?.f_mul_scalar(0.25)?)?;
        let i4 =
            phi.f_mul_scalar(0.375)?.f_sub(&sine(2.0)?.f_mul_scalar(0.25)?)?.f_add(&sine(4.0)?.f_div_scalar(32.0)?)?;
        let i6 = phi.f_mul_scalar(5.0 / 16.0)?.f_sub(&sine(2.0)?.f_mul_scalar(15.0 / 64.0)?)?;
        let i6 = i6.f_add(&sine(4.0)?.f_mul_scalar(3.0 / 64.0)?)?.f_sub(&sine(6.0)?.f_div_scalar(192.0)?)?;
        let series = i6.f_mul(m)?.f_mul_scalar(0.375)?.f_add(&i4.f_mul_scalar(0.5)?)?.f_mul(m)?.f_add(&i2)?;
        pick(&small, &series.f_mul_scalar(-0.5)?, &slope)
    };
    with_derivatives(|| ellipeinc_value(phi, m), &[(phi, &integrand), (m, &in_m)])
}

fn ellipeinc_value(phi: &Tensor, m: &Tensor) -> Result<Tensor> {
    let (n, r) = reduce(phi)?;
    let (s, c2, delta2) = carlson_arguments(&r, m)?;
    let one = c2.f_ones_like()?;
    let rf = rf_f64(&c2, &delta2, &one)?;
    let rd = rd_f64(&c2, &delta2, &one)?;
    let e = s.f_mul(&rf)?.f_sub(&m.f_div_scalar(3.0)?.f_mul(&s.f_pow_tensor_scalar(3.0)?)?.f_mul(&rd)?)?;
    // m = 1: E(r | 1) = sin r (R_D diverges at c = d = 0)
    let e = pick(&m.f_eq(1.0)?, &s, &e)?;
    let out = pick(&n.f_eq(0.0)?, &e, &e.f_add(&n.f_mul(&ellpe(m)?)?)?)?;
    // `+ 0`: Cephes' +0.0 at phi = -0.0 (except for m = 0, below)
    let out = out.f_add_scalar(0.0)?;
    let out = pick(&m.f_eq(0.0)?, phi, &out)?;
    let out = pick(&m.f_isinf()?, &m.f_neg()?, &out)?;
    let out = pick(&phi.f_isinf()?, phi, &out)?;
    let nan = or(&any_nan(phi, m)?, &m.f_gt(1.0)?)?;
    fill(&out, &nan, f64::NAN)
}
