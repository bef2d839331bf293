//! The error function and the normal distribution (Cephes' `ndtr.c`): erf, erfc,
//! erfcx, erfinv, erfcinv, ndtr, ndtri, log_ndtr.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use tch::Tensor;

use super::constants::FRAC_1_SQRT_2_ERR;
use super::helpers::*;
use super::ufuncs::Ufunc;
use crate::ops::scipy_float_input;
use crate::Result;

/// The error function, `scipy.special.erf` (real input; float32 in float32).
pub(super) fn erf(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input(u.qualified, x, true)?.f_erf()?)
}

/// The complementary error function `1 - erf(x)`, accurate in the upper tail.
pub(super) fn erfc(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input(u.qualified, x, true)?.f_erfc()?)
}

/// The scaled complementary error function `exp(x^2) erfc(x)`, `scipy.special.erfcx`
/// (libtorch's kernel, which matches SciPy's to the last bit on our tests).
pub(super) fn erfcx(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_erfcx()?)
}

/// The inverse error function on [-1, 1], `scipy.special.erfinv`: nan outside,
/// `±inf` at `±1` (libtorch's kernel, relative error below 1e-15 up to ±1).
pub(super) fn erfinv(x: &Tensor) -> Result<Tensor> {
    // `+ 0` turns libtorch's `erfinv(-0.0) = -0.0` into SciPy's `0.0`
    Ok(x.f_erfinv()?.f_add_scalar(0.0)?)
}

/// The inverse complementary error function on [0, 2], `scipy.special.erfcinv`:
/// `-ndtri(y/2) / sqrt(2)`, as SciPy computes it, which keeps full relative
/// accuracy for tiny `y` (26.2 at 1e-300).
pub(super) fn erfcinv(y: &Tensor) -> Result<Tensor> {
    let out = y.f_mul_scalar(0.5)?.f_special_ndtri()?.f_mul_scalar(-FRAC_1_SQRT_2)?;
    fill(&out, &y.f_lt(0.0)?, f64::NAN) // -5e-324 halves to -0.0
}

/// `x / sqrt(2)` as an unevaluated sum `hi + lo`: `hi` is the rounded
/// `x * FRAC_1_SQRT_2` (what SciPy uses) and `lo` its error, including the
/// constant's own rounding. `lo` is 0 where |x| >= 1e290 (no correction needed).
pub(super) fn over_sqrt2(x: &Tensor) -> Result<(Tensor, Tensor)> {
    let (hi, lo) = two_product(x, FRAC_1_SQRT_2)?;
    let lo = lo.f_add(&x.f_mul_scalar(FRAC_1_SQRT_2_ERR)?)?;
    let lo = fill(&lo, &not(&x.f_abs()?.f_lt(1e290)?)?, 0.0)?;
    Ok((hi, lo))
}

/// `erfc(z + dz)` for `z >= 0` and a residual `|dz| << ulp(z)`, to first order:
/// `erfc(z) (1 - dz 2 / (sqrt(pi) erfcx(z)))`.
pub(super) fn erfc_corrected(z: &Tensor, dz: &Tensor) -> Result<Tensor> {
    let slope = z.f_special_erfcx()?.f_reciprocal()?.f_mul_scalar(2.0 / PI.sqrt())?;
    let factor = dz.f_mul(&slope)?.f_neg()?.f_add_scalar(1.0)?;
    let factor = fill(&factor, &not(&factor.f_isfinite()?)?, 1.0)?;
    Ok(z.f_erfc()?.f_mul(&factor)?)
}

/// The standard normal CDF, float64 in and out.
///
/// libtorch's `ndtr` is `0.5 (1 + erf(x / sqrt 2))`, which loses everything in
/// the lower tail (0 from x = -9). This is SciPy's formula, `0.5 erfc(-x/sqrt 2)`
/// for |x| > 1, with one more step SciPy does not take: the rounding error of
/// `x / sqrt 2` (up to `2 t^2 eps` relative in the tail, 1.5e-13 at x = -37) is
/// corrected to first order, so the tail is right to a few ulp.
pub(super) fn ndtr_f64(x: &Tensor) -> Result<Tensor> {
    let (t, d) = over_sqrt2(x)?;
    let z = t.f_abs()?;
    let dz = pick(&t.f_lt(0.0)?, &d.f_neg()?, &d)?;
    let middle = t.f_erf()?.f_mul_scalar(0.5)?.f_add_scalar(0.5)?;
    let tail = erfc_corrected(&z, &dz)?.f_mul_scalar(0.5)?;
    let upper = tail.f_neg()?.f_add_scalar(1.0)?;
    let outer = pick(&t.f_gt(0.0)?, &upper, &tail)?;
    pick(&z.f_lt(FRAC_1_SQRT_2)?, &middle, &outer)
}

/// The standard normal CDF, `scipy.special.ndtr` (see the module notes: right
/// in the lower tail, 1.1e-19 at x = -9, where libtorch's `ndtr` gives 0).
pub(super) fn ndtr(x: &Tensor) -> Result<Tensor> {
    ndtr_f64(x)
}

/// The inverse of the standard normal CDF, `scipy.special.ndtri` (libtorch's kernel).
pub(super) fn ndtri(p: &Tensor) -> Result<Tensor> {
    Ok(p.f_special_ndtri()?)
}

/// `log(ndtr(x))`, `scipy.special.log_ndtr`: `log(erfcx(-x/sqrt 2)/2) - x^2/2`
/// below -1 (with `x^2/2` as `0.5 x x`, one rounding instead of two), and
/// `log1p(-ndtr(-x))` above, with the corrected tail of [`ndtr`] (libtorch's
/// `log_ndtr` loses 1e-13 relative from x = 5 on).
pub(super) fn log_ndtr(x: &Tensor) -> Result<Tensor> {
    let t = x.f_mul_scalar(FRAC_1_SQRT_2)?;
    let lower = t.f_neg()?.f_special_erfcx()?.f_mul_scalar(0.5)?.f_log()?.f_sub(&x.f_mul(x)?.f_mul_scalar(0.5)?)?;
    let upper = log1p_f64(&ndtr_f64(&x.f_neg()?)?.f_neg()?)?;
    pick(&x.f_lt(-1.0)?, &lower, &upper)
}
