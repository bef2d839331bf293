//! Elementary functions SciPy gives accurate versions of (Cephes' `unity.c`,
//! `cbrt.c`, `sindg.c`, `exp10.c`...): expm1, exp2, exp10, log1p, cbrt, cosm1,
//! exprel, sindg, cosdg; and `numpy.sinc`.

use std::f64::consts::PI;

use tch::Tensor;

use super::faddeeva::{is_complex, two_square};
use super::helpers::*;
use crate::ops::numpy::cast;
use crate::{dlpack, DType, Result};

/// `exp(x) - 1`, `scipy.special.expm1`.
pub(super) fn expm1(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return expm1_complex(x);
    }
    Ok(x.f_expm1()?)
}

/// `exp(z) - 1` of complex argument, as SciPy's `cexpm1`: real part
/// `expm1(x) cos(y) + cosm1(y)` (no cancellation next to 0), -1 from x = -40
/// down; imaginary part `exp(x) sin(y)`; `exp(z) - 1` where a part is not finite.
fn expm1_complex(z: &Tensor) -> Result<Tensor> {
    let x = z.f_real()?;
    let y = z.f_imag()?;
    let ezr = x.f_expm1()?;
    let re = ezr.f_mul(&y.f_cos()?)?.f_add(&cosm1(&y)?)?;
    let re = fill(&re, &x.f_le(-40.0)?, -1.0)?;
    let scale = pick(&x.f_gt(-1.0)?, &ezr.f_add_scalar(1.0)?, &x.f_exp()?)?;
    let im = scale.f_mul(&y.f_sin()?)?;
    let out = Tensor::f_complex(&re, &im)?;
    let finite = and(&x.f_isfinite()?, &y.f_isfinite()?)?;
    pick(&finite, &out, &z.f_exp()?.f_sub_scalar(1.0)?)
}

/// `a + b = s + e` exactly (Knuth's two-sum).
fn two_sum(a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
    let s = a.f_add(b)?;
    let bb = s.f_sub(a)?;
    let e = a.f_sub(&s.f_sub(&bb)?)?.f_add(&b.f_sub(&bb)?)?;
    Ok((s, e))
}

/// `log(1 + z)` of complex argument, as SciPy's `clog1p`: `log1p(x)` on the
/// real axis from -1 on; for |z| < 0.707 the real part `log1p(|z| (|z| + 2x / |z|)) / 2`,
/// or, where `2x + x^2 + y^2` cancels (SciPy's double-double branch), that sum
/// exactly (Dekker's squares, Knuth's sums) before `log1p`, and the imaginary
/// part `atan2(y, 1 + x)`; `log(1 + z)` elsewhere.
pub(super) fn log1p_complex(z: &Tensor) -> Result<Tensor> {
    let x = z.f_real()?;
    let y = z.f_imag()?;
    // 1 + z as (1 + x) + i y: a complex 1 + 0i would turn y = -0.0 into +0.0
    let general = Tensor::f_complex(&x.f_add_scalar(1.0)?, &y)?.f_log()?;
    let az = x.f_hypot(&y)?;
    let im = y.f_atan2(&x.f_add_scalar(1.0)?)?;
    let plain = az.f_mul(&az.f_add(&x.f_mul_scalar(2.0)?.f_div(&az)?)?)?.f_log1p()?.f_mul_scalar(0.5)?;
    let (x2, x2_lo) = two_square(&x)?;
    let (y2, y2_lo) = two_square(&y)?;
    let (s1, e1) = two_sum(&x.f_mul_scalar(2.0)?, &x2)?;
    let (s2, e2) = two_sum(&s1, &y2)?;
    let exact = s2.f_add(&e1.f_add(&e2)?.f_add(&x2_lo)?.f_add(&y2_lo)?)?.f_log1p()?.f_mul_scalar(0.5)?;
    let minus_x = x.f_neg()?;
    let cancels = minus_x.f_sub(&y2.f_mul_scalar(0.5)?)?.f_abs()?.f_div(&minus_x)?.f_lt(0.5)?;
    let cancels = and(&x.f_lt(0.0)?, &cancels)?;
    let small = Tensor::f_complex(&pick(&cancels, &exact, &plain)?, &im)?;
    let out = pick(&az.f_lt(0.707)?, &small, &general)?;
    let axis = and(&y.f_eq(0.0)?, &x.f_ge(-1.0)?)?;
    let on_axis = Tensor::f_complex(&log1p_f64(&x)?, &x.f_zeros_like()?)?;
    let out = pick(&axis, &on_axis, &out)?;
    pick(&and(&x.f_isfinite()?, &y.f_isfinite()?)?, &out, &general)
}

/// `2**x`, `scipy.special.exp2`.
pub(super) fn exp2(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_exp2()?)
}

/// `10**x`, `scipy.special.exp10` (libtorch's `pow(10, x)`, within 1 ulp).
pub(super) fn exp10(x: &Tensor) -> Result<Tensor> {
    Ok(Tensor::f_pow_scalar(10.0, x)?)
}

/// `log(1 + x)`, `scipy.special.log1p`.
pub(super) fn log1p(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return log1p_complex(x);
    }
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
/// quadrant, exactly ±1/2 at ±30 degrees. No cut-off: the callers apply SciPy's
/// (0 beyond |x| = 1e14) to their own argument.
fn sin_degrees(x: &Tensor) -> Result<Tensor> {
    let n = x.f_div_scalar(90.0)?.f_round()?;
    let r = x.f_sub(&n.f_mul_scalar(90.0)?)?;
    let radians = r.f_mul_scalar(PI / 180.0)?;
    let sin = radians.f_sin()?;
    let sin = pick(&r.f_abs()?.f_eq(30.0)?, &r.f_sign()?.f_mul_scalar(0.5)?, &sin)?;
    let cos = radians.f_cos()?;
    let quadrant = n.f_remainder(4.0)?;
    let out = pick(&quadrant.f_eq(1.0)?, &cos, &sin)?;
    let out = pick(&quadrant.f_eq(2.0)?, &sin.f_neg()?, &out)?;
    pick(&quadrant.f_eq(3.0)?, &cos.f_neg()?, &out)
}

/// The sine of an angle in degrees, `scipy.special.sindg`.
pub(super) fn sindg(x: &Tensor) -> Result<Tensor> {
    let out = sin_degrees(x)?;
    fill(&out, &x.f_abs()?.f_gt(1e14)?, 0.0)
}

/// The cosine of an angle in degrees, `scipy.special.cosdg`: the sine of
/// `x + 90` (exact below the cut-off, where x's ulp is at most 1/64), with the
/// cut-off on x itself (`cosdg(1e14)` is cos(280 degrees), as in SciPy).
pub(super) fn cosdg(x: &Tensor) -> Result<Tensor> {
    let out = sin_degrees(&x.f_add_scalar(90.0)?)?;
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
