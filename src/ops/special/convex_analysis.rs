//! SciPy's `_convex_analysis.pxd` and `_xlogy.pxd`: entr, rel_entr, kl_div,
//! huber, pseudo_huber, and the xlogy, xlog1py they build on.

use tch::Tensor;

use super::constants::DBL_MIN;
use super::helpers::*;
use crate::Result;

/// `-x log(x)` for x > 0, 0 at 0, `-inf` below, `scipy.special.entr`.
pub(super) fn entr(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_entr()?)
}

/// `x log(y)`, 0 where `x == 0` unless y is nan, `scipy.special.xlogy`.
pub(super) fn xlogy(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_xlogy(y)?)
}

/// `x log1p(y)`, 0 where `x == 0` unless y is nan, `scipy.special.xlog1py`.
pub(super) fn xlog1py(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_xlog1py(y)?)
}

/// `x log(x / y)` as SciPy evaluates it: `log1p((x - y)/y)` for ratios in
/// (1/2, 2), `log(ratio)` when the ratio is a normal number, else
/// `log(x) - log(y)`.
pub(super) fn x_log_ratio(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let ratio = x.f_div(y)?;
    let close = and(&ratio.f_gt(0.5)?, &ratio.f_lt(2.0)?)?;
    let normal = and(&ratio.f_gt(DBL_MIN)?, &ratio.f_lt(f64::INFINITY)?)?;
    let near = log1p_f64(&x.f_sub(y)?.f_div(y)?)?;
    let far = pick(&normal, &ratio.f_log()?, &x.f_log()?.f_sub(&y.f_log()?)?)?;
    Ok(pick(&close, &near, &far)?.f_mul(x)?)
}

/// Elementwise relative entropy `x log(x/y)`, `scipy.special.rel_entr`: 0 for
/// `x == 0, y >= 0`, `inf` for negative arguments, nan for nan.
pub(super) fn rel_entr(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let positive = and(&x.f_gt(0.0)?, &y.f_gt(0.0)?)?;
    let zero = and(&x.f_eq(0.0)?, &y.f_ge(0.0)?)?;
    let out = pick(&positive, &x_log_ratio(x, y)?, &fill(&full(x, f64::INFINITY)?, &zero, 0.0)?)?;
    fill(&out, &any_nan(x, y)?, f64::NAN)
}

/// Elementwise Kullback-Leibler divergence `x log(x/y) - x + y`,
/// `scipy.special.kl_div`: y for `x == 0, y >= 0`, `inf` for negatives.
pub(super) fn kl_div(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let positive = and(&x.f_gt(0.0)?, &y.f_gt(0.0)?)?;
    let zero = and(&x.f_eq(0.0)?, &y.f_ge(0.0)?)?;
    let value = x.f_mul(&x.f_div(y)?.f_log()?)?.f_sub(x)?.f_add(y)?;
    let out = pick(&positive, &value, &pick(&zero, y, &full(x, f64::INFINITY)?)?)?;
    fill(&out, &any_nan(x, y)?, f64::NAN)
}

/// The Huber loss, `scipy.special.huber(delta, r)`: `r^2/2` for `|r| <= delta`,
/// `delta (|r| - delta/2)` beyond, `inf` for `delta < 0`.
pub(super) fn huber(delta: &Tensor, r: &Tensor) -> Result<Tensor> {
    let a = r.f_abs()?;
    let inner = r.f_square()?.f_mul_scalar(0.5)?;
    let outer = delta.f_mul(&a.f_sub(&delta.f_mul_scalar(0.5)?)?)?;
    let out = pick(&a.f_le_tensor(delta)?, &inner, &outer)?;
    fill(&out, &delta.f_lt(0.0)?, f64::INFINITY)
}

/// The pseudo-Huber loss `delta^2 (sqrt(1 + (r/delta)^2) - 1)`,
/// `scipy.special.pseudo_huber`, as `delta^2 expm1(log1p((r/delta)^2)/2)`.
pub(super) fn pseudo_huber(delta: &Tensor, r: &Tensor) -> Result<Tensor> {
    let v = r.f_div(delta)?;
    let value = log1p_f64(&v.f_square()?)?.f_mul_scalar(0.5)?.f_expm1()?.f_mul(&delta.f_square()?)?;
    let out = fill(&value, &or(&delta.f_eq(0.0)?, &r.f_eq(0.0)?)?, 0.0)?;
    fill(&out, &delta.f_lt(0.0)?, f64::INFINITY)
}
