//! Owen's T function (SciPy's `owens_t`, Cephes' `owens_t.c`), by
//! Gauss-Legendre quadrature of its defining integral.
//!
//! `T(h, a) = 1/(2 pi) int_0^a exp(-h^2 (1 + x^2) / 2) / (1 + x^2) dx`, even in
//! `h` and odd in `a`. For `|a| <= 1` the integral is taken with 24
//! Gauss-Legendre nodes: in `x` while `a h <= 3`, else in `u = h x` over
//! `[0, min(a h, 9)]` (beyond `u = 9` the integrand is below `e^-40` of its
//! peak at 0), where the poles of `1 / (1 + u^2 / h^2)` at `u = +-i h` are at
//! least 3 away; `exp(-h^2 / 2)` is taken with `h^2` split exactly. For
//! `|a| > 1` Owen's identity `T(h, a) = (Phi(h) Q(a h) + Phi(a h) Q(h)) / 2 -
//! T(a h, 1 / a)` (h >= 0, `Q = 1 - Phi`), no cancellation. Measured against
//! mpmath: 3e-14 relative (SciPy's Patefield-Tandy code is up to 5e-13 off).

use std::f64::consts::PI;

use tch::Tensor;

use super::helpers::*;
use crate::ops::autograd::with_derivatives;
use crate::Result;

/// Quadrature nodes.
const NODES: usize = 24;

/// The `n`-point Gauss-Legendre rule on [0, 1]: `(nodes, weights)`, by
/// Newton's method on the Legendre recurrence.
pub(super) fn gauss_legendre_unit(n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut nodes = Vec::with_capacity(n);
    let mut weights = Vec::with_capacity(n);
    let nf = n as f64;
    for i in 0..n {
        let mut x = (PI * (i as f64 + 0.75) / (nf + 0.5)).cos();
        let mut derivative = 1.0;
        for _ in 0..100 {
            let (mut p0, mut p1) = (1.0, x);
            for k in 2..=n {
                let kf = k as f64;
                let p2 = ((2.0 * kf - 1.0) * x * p1 - (kf - 1.0) * p0) / kf;
                p0 = p1;
                p1 = p2;
            }
            derivative = nf * (x * p1 - p0) / (x * x - 1.0);
            let step = p1 / derivative;
            x -= step;
            if step.abs() <= 1e-17 {
                break;
            }
        }
        nodes.push((1.0 - x) / 2.0);
        weights.push(1.0 / ((1.0 - x * x) * derivative * derivative));
    }
    (nodes, weights)
}

/// `exp(-h^2 / 2)` with `h^2` split exactly (Veltkamp), so that large `h`
/// loses nothing to the rounding of the square.
fn gaussian(h: &Tensor) -> Result<Tensor> {
    const SPLIT: f64 = 134_217_729.0;
    let t = h.f_mul_scalar(SPLIT)?;
    let hi = t.f_sub(&t.f_sub(h)?)?;
    let lo = h.f_sub(&hi)?;
    let rest = hi.f_mul(&lo)?.f_mul_scalar(2.0)?.f_add(&lo.f_square()?)?;
    Ok(hi.f_square()?.f_mul_scalar(-0.5)?.f_exp()?.f_mul(&rest.f_mul_scalar(-0.5)?.f_exp()?)?)
}

/// `T(h, a)` for `h >= 0` and `0 <= a <= 1`.
fn owens_t_small(h: &Tensor, a: &Tensor) -> Result<Tensor> {
    let (nodes, weights) = gauss_legendre_unit(NODES);
    let ah = a.f_mul(h)?;
    let in_u = ah.f_gt(3.0)?;
    let hs = fill(h, &not(&in_u)?, 1.0)?;
    let upper = ah.f_clamp_max(9.0)?;
    let h2 = h.f_square()?;
    let inv_h2 = hs.f_square()?.f_reciprocal()?;
    let mut in_x_sum = h.f_zeros_like()?;
    let mut in_u_sum = h.f_zeros_like()?;
    for (&x, &w) in nodes.iter().zip(&weights) {
        let xx = a.f_mul_scalar(x)?.f_square()?;
        let term = h2.f_mul(&xx)?.f_mul_scalar(-0.5)?.f_exp()?.f_div(&xx.f_add_scalar(1.0)?)?;
        in_x_sum = in_x_sum.f_add(&term.f_mul_scalar(w)?)?;
        let uu = upper.f_mul_scalar(x)?.f_square()?;
        let term = uu.f_mul_scalar(-0.5)?.f_exp()?.f_div(&uu.f_mul(&inv_h2)?.f_add_scalar(1.0)?)?;
        in_u_sum = in_u_sum.f_add(&term.f_mul_scalar(w)?)?;
    }
    let in_x = in_x_sum.f_mul(a)?;
    let in_u_value = in_u_sum.f_mul(&upper)?.f_div(&hs)?;
    Ok(pick(&in_u, &in_u_value, &in_x)?.f_mul(&gaussian(h)?)?.f_mul_scalar(0.5 / PI)?)
}

/// Owen's T function `T(h, a)`, `scipy.special.owens_t(h, a)`: `atan(a) / (2 pi)`
/// at `h = 0`, `Q(|h|) / 2` (signed as `a`) for infinite `a`, nan for nan.
///
/// Derivatives `dT/dh = -phi(h) erf(a h / sqrt 2) / 2` and
/// `dT/da = exp(-h^2 (1 + a^2) / 2) / (2 pi (1 + a^2))`.
pub(super) fn owens_t(h: &Tensor, a: &Tensor) -> Result<Tensor> {
    let in_h = |_: &Tensor| -> Result<Tensor> {
        let phi = h.f_square()?.f_mul_scalar(-0.5)?.f_exp()?.f_mul_scalar(1.0 / (2.0 * PI).sqrt())?;
        Ok(phi.f_mul(&a.f_mul(h)?.f_mul_scalar(std::f64::consts::FRAC_1_SQRT_2)?.f_erf()?)?.f_mul_scalar(-0.5)?)
    };
    let in_a = |_: &Tensor| -> Result<Tensor> {
        let one_a2 = a.f_square()?.f_add_scalar(1.0)?;
        let e = h.f_square()?.f_mul(&one_a2)?.f_mul_scalar(-0.5)?.f_exp()?;
        Ok(e.f_div(&one_a2)?.f_mul_scalar(0.5 / PI)?)
    };
    with_derivatives(|| owens_t_value(h, a), &[(h, &in_h), (a, &in_a)])
}

fn owens_t_value(h: &Tensor, a: &Tensor) -> Result<Tensor> {
    let habs = h.f_abs()?;
    let aabs = a.f_abs()?;
    let large = aabs.f_gt(1.0)?;
    let ah = aabs.f_mul(&habs)?;
    let (hh, aa) = (pick(&large, &ah, &habs)?, pick(&large, &aabs.f_reciprocal()?, &aabs)?);
    let hh = fill(&hh, &hh.f_isnan()?, 0.0)?.f_clamp_max(1e3)?;
    let small = owens_t_small(&hh, &aa)?;
    let phi = |x: &Tensor| super::erf::ndtr(x);
    let (p_h, q_h) = (phi(&habs)?, phi(&habs.f_neg()?)?);
    let (p_ah, q_ah) = (phi(&ah)?, phi(&ah.f_neg()?)?);
    let identity = p_h.f_mul(&q_ah)?.f_add(&p_ah.f_mul(&q_h)?)?.f_mul_scalar(0.5)?.f_sub(&small)?;
    let value = pick(&large, &identity, &small)?;
    let value = pick(&habs.f_eq(0.0)?, &aabs.f_atan()?.f_mul_scalar(0.5 / PI)?, &value)?;
    let value = value.f_mul(&sign(a)?)?;
    fill(&value, &any_nan(h, a)?, f64::NAN)
}
