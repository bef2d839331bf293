//! Spence's function (Cephes' `spence.c` in SciPy), real argument: the
//! dilogarithm `spence(x) = Li2(1 - x)`.

use std::f64::consts::PI;

use tch::Tensor;

use super::constants::DILOG_BERNOULLI;
use super::faddeeva::is_complex;
use super::helpers::*;
use super::xsf_complex::xsf_complex;
use crate::ffi::xsf_complex::XsfComplex;
use crate::Result;

/// `Li2(z)` from `u = -log(1 - z)`, |u| <= ln 2: the Bernoulli series
/// `sum B_n u^(n+1) / (n+1)!`, exact to the last bit after 21 terms.
fn dilog_series(u: &Tensor) -> Result<Tensor> {
    Ok(horner(u, &DILOG_BERNOULLI)?.f_mul(u)?)
}

/// Spence's function `int_1^x log(t) / (1 - t) dt = Li2(1 - x)` on float64,
/// `scipy.special.spence` (real input): for x in [1/2, 2] the series with
/// `u = -ln x` (so `1 - x` is never rounded, and the zero at 1 keeps its
/// relative accuracy); below 1/2 the reflection `pi^2/6 - ln(x) ln(1 - x) -
/// Li2(x)`; above 2 the inversion `-pi^2/6 - ln(x - 1)^2 / 2 - Li2(1/(1-x))`,
/// with `u = log1p(-1/x)`. nan below 0 and at `inf` (SciPy's values).
pub(super) fn spence(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("spence", XsfComplex::Spence, x);
    }
    let zeta2 = PI * PI / 6.0;
    let middle = and(&x.f_ge(0.5)?, &x.f_le(2.0)?)?;
    let out = full(x, f64::NAN)?;
    let out = patch(out, &middle, &[x], |v| dilog_series(&v[0].f_log()?.f_neg()?))?;
    let low = and(&x.f_ge(0.0)?, &x.f_lt(0.5)?)?;
    let out = patch(out, &low, &[x], |v| {
        let x = &v[0];
        let li2x = dilog_series(&x.f_neg()?.f_log1p()?.f_neg()?)?;
        // ln(x) ln(1 - x): 0 at x = 0 (the limit), not 0 * -inf
        let product = x.f_log()?.f_mul(&x.f_neg()?.f_log1p()?)?;
        let product = fill(&product, &x.f_eq(0.0)?, 0.0)?;
        Ok(product.f_add(&li2x)?.f_neg()?.f_add_scalar(zeta2)?)
    })?;
    let high = and(&x.f_gt(2.0)?, &x.f_isfinite()?)?;
    let out = patch(out, &high, &[x], |v| {
        let x = &v[0];
        let li2 = dilog_series(&x.f_reciprocal()?.f_neg()?.f_log1p()?)?;
        let log = x.f_sub_scalar(1.0)?.f_log()?;
        Ok(log.f_square()?.f_mul_scalar(-0.5)?.f_sub(&li2)?.f_sub_scalar(zeta2)?)
    })?;
    // `+ 0`: SciPy's +0.0 at x = 1, where the series gives -0.0
    Ok(out.f_add_scalar(0.0)?)
}
