//! SciPy's `_convex_analysis.pxd` and `_xlogy.pxd`: entr, rel_entr, kl_div,
//! huber, pseudo_huber, and the xlogy, xlog1py they build on.

use tch::Tensor;

use super::constants::DBL_MIN;
use super::elementary::log1p_complex;
use super::faddeeva::is_complex;
use super::helpers::*;
use crate::Result;

/// `-x log(x)` for x > 0, 0 at 0, `-inf` below, `scipy.special.entr`.
pub(super) fn entr(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_entr()?)
}

/// `x log(y)`, 0 where `x == 0` unless y is nan, `scipy.special.xlogy`.
pub(super) fn xlogy(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    if is_complex(x)? || is_complex(y)? {
        return x_times_zero_rule(x, y, &y.f_log()?);
    }
    Ok(x.f_special_xlogy(y)?)
}

/// `x log1p(y)`, 0 where `x == 0` unless y is nan, `scipy.special.xlog1py`.
pub(super) fn xlog1py(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    if is_complex(x)? || is_complex(y)? {
        return x_times_zero_rule(x, y, &log1p_complex(y)?);
    }
    Ok(x.f_special_xlog1py(y)?)
}

/// `x * log_y` of complex arguments (SciPy's `DD->D` loops of xlogy and
/// xlog1py), 0 where `x == 0` unless a part of `y` is nan.
fn x_times_zero_rule(x: &Tensor, y: &Tensor, log_y: &Tensor) -> Result<Tensor> {
    let out = c99_mul(x, log_y)?;
    let zero = and(&x.f_eq(0.0)?, &not(&y.f_isnan()?)?)?;
    Ok(out.f_masked_fill(&zero, 0.0)?)
}

/// `x * y` of complex tensors of one shape as C99's Annex G (C++'s
/// `std::complex` product, SciPy's) defines it: where the plain product is
/// nan + nan i although a factor is infinite, or a partial product overflowed,
/// the infinities recovered (glibc's `__muldc3`).
fn c99_mul(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (a, b, c, d) = (x.f_real()?, x.f_imag()?, y.f_real()?, y.f_imag()?);
    let out = x.f_mul(y)?;
    let lost = and(&out.f_real()?.f_isnan()?, &out.f_imag()?.f_isnan()?)?;
    if lost.f_any()?.f_int64_value(&[])? == 0 {
        return Ok(out);
    }
    // an infinite part boxed to +-1, the other parts to +-0; nan parts of the other factor to +-0
    let boxed = |p: &Tensor| -> Result<Tensor> { Ok(p.f_isinf()?.f_to_kind(tch::Kind::Double)?.f_copysign(p)?) };
    let zero_nan = |p: &Tensor| -> Result<Tensor> { pick(&p.f_isnan()?, &p.f_zeros_like()?.f_copysign(p)?, p) };
    let products = [a.f_mul(&c)?, b.f_mul(&d)?, a.f_mul(&d)?, b.f_mul(&c)?];
    let x_inf = or(&a.f_isinf()?, &b.f_isinf()?)?;
    let (a1, b1) = (pick(&x_inf, &boxed(&a)?, &a)?, pick(&x_inf, &boxed(&b)?, &b)?);
    let (c1, d1) = (pick(&x_inf, &zero_nan(&c)?, &c)?, pick(&x_inf, &zero_nan(&d)?, &d)?);
    let y_inf = or(&c.f_isinf()?, &d.f_isinf()?)?;
    let (c2, d2) = (pick(&y_inf, &boxed(&c1)?, &c1)?, pick(&y_inf, &boxed(&d1)?, &d1)?);
    let (a2, b2) = (pick(&y_inf, &zero_nan(&a1)?, &a1)?, pick(&y_inf, &zero_nan(&b1)?, &b1)?);
    let mut overflowed = products[0].f_isinf()?;
    for p in &products[1..] {
        overflowed = or(&overflowed, &p.f_isinf()?)?;
    }
    let overflowed = and(&overflowed, &not(&or(&x_inf, &y_inf)?)?)?;
    let [a3, b3, c3, d3] = [&a2, &b2, &c2, &d2].map(|p| -> Result<Tensor> { pick(&overflowed, &zero_nan(p)?, p) });
    let (a3, b3, c3, d3) = (a3?, b3?, c3?, d3?);
    let recalc = and(&lost, &or(&or(&x_inf, &y_inf)?, &overflowed)?)?;
    let re = a3.f_mul(&c3)?.f_sub(&b3.f_mul(&d3)?)?.f_mul_scalar(f64::INFINITY)?;
    let im = a3.f_mul(&d3)?.f_add(&b3.f_mul(&c3)?)?.f_mul_scalar(f64::INFINITY)?;
    pick(&recalc, &Tensor::f_complex(&re, &im)?, &out)
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
