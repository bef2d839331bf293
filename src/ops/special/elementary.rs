//! Elementary functions SciPy gives accurate versions of (Cephes' `unity.c`,
//! `cbrt.c`, `sindg.c`, `exp10.c`...): expm1, exp2, exp10, log1p, cbrt, cosm1,
//! exprel, sindg, cosdg; and `numpy.sinc`.

use std::f64::consts::PI;

use tch::Tensor;

use super::helpers::*;
use crate::ops::numpy::cast;
use crate::{dlpack, DType, Result};

/// `exp(x) - 1`, `scipy.special.expm1` (real input).
pub(super) fn expm1(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_expm1()?)
}

/// `2**x`, `scipy.special.exp2`.
pub(super) fn exp2(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_exp2()?)
}

/// `10**x`, `scipy.special.exp10` (libtorch's `pow(10, x)`, within 1 ulp).
pub(super) fn exp10(x: &Tensor) -> Result<Tensor> {
    Ok(Tensor::f_pow_scalar(10.0, x)?)
}

/// `log(1 + x)`, `scipy.special.log1p` (real input).
pub(super) fn log1p(x: &Tensor) -> Result<Tensor> {
    log1p_f64(x)
}

/// The real cube root, `scipy.special.cbrt`: `|x|^(1/3)` refined by one Newton
/// step (within 1 ulp, exact on perfect cubes), with the sign of x.
pub(super) fn cbrt(x: &Tensor) -> Result<Tensor> {
    let a = x.f_abs()?;
    let y = a.f_pow_tensor_scalar(1.0 / 3.0)?;
    let refined = y.f_sub(&y.f_sub(&a.f_div(&y.f_square()?)?)?.f_div_scalar(3.0)?)?;
    let special = or(&a.f_eq(0.0)?, &not(&a.f_isfinite()?)?)?;
    Ok(pick(&special, &a, &refined)?.f_copysign(x)?)
}

/// `cos(x) - 1` accurate near the multiples of 2 pi, `scipy.special.cosm1`:
/// `-2 sin(x/2)^2`.
pub(super) fn cosm1(x: &Tensor) -> Result<Tensor> {
    // `+ 0` gives SciPy's +0.0 where -2 sin^2 is -0.0
    Ok(x.f_mul_scalar(0.5)?.f_sin()?.f_square()?.f_mul_scalar(-2.0)?.f_add_scalar(0.0)?)
}

/// `(exp(x) - 1) / x`, `scipy.special.exprel` (1 for |x| < 1e-16).
pub(super) fn exprel(x: &Tensor) -> Result<Tensor> {
    let value = x.f_expm1()?.f_div(x)?;
    let value = fill(&value, &x.f_isposinf()?, f64::INFINITY)?;
    fill(&value, &x.f_abs()?.f_lt(1e-16)?, 1.0)
}

/// `sin` of an angle in degrees, on float64: reduced exactly to [-45, 45] in its
/// quadrant, exactly ±1/2 at ±30 degrees; 0 beyond |x| = 1e14 (SciPy's cut-off).
pub(super) fn sindg_f64(x: &Tensor) -> Result<Tensor> {
    let n = x.f_div_scalar(90.0)?.f_round()?;
    let r = x.f_sub(&n.f_mul_scalar(90.0)?)?;
    let radians = r.f_mul_scalar(PI / 180.0)?;
    let sin = radians.f_sin()?;
    let sin = pick(&r.f_abs()?.f_eq(30.0)?, &r.f_sign()?.f_mul_scalar(0.5)?, &sin)?;
    let cos = radians.f_cos()?;
    let quadrant = n.f_remainder(4.0)?;
    let out = pick(&quadrant.f_eq(1.0)?, &cos, &sin)?;
    let out = pick(&quadrant.f_eq(2.0)?, &sin.f_neg()?, &out)?;
    let out = pick(&quadrant.f_eq(3.0)?, &cos.f_neg()?, &out)?;
    fill(&out, &x.f_abs()?.f_gt(1e14)?, 0.0)
}

/// The sine of an angle in degrees, `scipy.special.sindg`.
pub(super) fn sindg(x: &Tensor) -> Result<Tensor> {
    sindg_f64(x)
}

/// The cosine of an angle in degrees, `scipy.special.cosdg`: `sindg(x + 90)`.
pub(super) fn cosdg(x: &Tensor) -> Result<Tensor> {
    let out = sindg_f64(&x.f_add_scalar(90.0)?)?;
    fill(&out, &x.f_abs()?.f_gt(1e14)?, 0.0)
}

/// The normalized sinc `sin(pi x) / (pi x)` with NumPy's semantics
/// (`numpy.sinc`; SciPy has no sinc): computed in the dtype of `pi * x` (float16
/// stays float16, integers and bool give float64, complex is supported), with
/// `x = 0` replaced by the dtype's epsilon as NumPy does, so `sinc(0) = 1`.
pub fn sinc(x: &Tensor) -> Result<Tensor> {
    guarded(|| {
        let dtype = dlpack::dtype_of(x)?;
        let (target, eps) = match dtype {
            DType::Float16 => (DType::Float16, 2f64.powi(-10)),
            DType::BFloat16 => (DType::BFloat16, 2f64.powi(-7)),
            DType::Float32 => (DType::Float32, f64::from(f32::EPSILON)),
            DType::Complex64 | DType::Complex128 => (dtype, 1e-20),
            _ => (DType::Float64, f64::EPSILON),
        };
        let y = cast(x, target)?.f_mul_scalar(PI)?;
        let y = fill(&y, &y.f_eq(0.0)?, eps)?;
        Ok(y.f_sin()?.f_div(&y)?)
    })
}
