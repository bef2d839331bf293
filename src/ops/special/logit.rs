//! The logistic functions (SciPy's `_logit.h`): expit, logit, log_expit.

use tch::{Device, Kind, Tensor};

use super::helpers::*;
use super::ufuncs::Ufunc;
use crate::ops::autograd::with_derivatives;
use crate::ops::scipy_float_input;
use crate::Result;

/// The logistic sigmoid `1 / (1 + exp(-x))`, `scipy.special.expit`.
pub(super) fn expit(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input(u.qualified, x, false)?.f_sigmoid()?)
}

/// The logit `log(p / (1 - p))`, `scipy.special.logit`; nan outside [0, 1].
/// As SciPy's `_logit.h`: on [0.3, 0.65] `log1p(s) - log1p(-s)` with
/// `s = 2 (p - 1/2)` (exact there), which keeps full relative accuracy near
/// the zero at 1/2 (the quotient form, libtorch's, loses 4 digits at
/// `0.4999999999999`), `log(p / (1 - p))` outside; in the input's precision.
///
/// float32 and float64 CPU input takes `csrc/logit.cpp`'s one-pass kernel
/// (the composite's formulas and, with AVX2, libtorch's own SLEEF kernels:
/// its values to an ulp), with the derivative `1 / (p (1 - p))` attached; other
/// devices the composite of libtorch ops.
pub(super) fn logit(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    let x = scipy_float_input(u.qualified, x, false)?;
    if matches!(x.f_kind()?, Kind::Float | Kind::Double) && x.device() == Device::Cpu {
        return with_derivatives(|| logit_cpu(&x), &[(&x, &|_| logit_slope(&x))]);
    }
    logit_composite(&x)
}

/// [`logit`] of float32 or float64 CPU `x` in one pass, without a graph.
fn logit_cpu(x: &Tensor) -> Result<Tensor> {
    let x = x.f_contiguous()?;
    let mut out = x.f_empty_like()?;
    crate::ffi::logit::logit_cpu(&x, &mut out, true)?;
    Ok(out)
}

/// The derivative of the logit, `1 / (p (1 - p))` (with autograd on `p`).
fn logit_slope(p: &Tensor) -> Result<Tensor> {
    Ok(p.f_mul(&p.f_neg()?.f_add_scalar(1.0)?)?.f_reciprocal()?)
}

/// [`logit`] from libtorch ops, for any device and autograd.
fn logit_composite(x: &Tensor) -> Result<Tensor> {
    let middle = and(&x.f_ge(0.3)?, &x.f_le(0.65)?)?;
    // the middle branch sees 1/2 elsewhere (log1p(-1) = -inf there would make the pick's gradient nan)
    let s = fill(x, &not(&middle)?, 0.5)?.f_sub_scalar(0.5)?.f_mul_scalar(2.0)?;
    let near = s.f_log1p()?.f_sub(&s.f_neg()?.f_log1p()?)?;
    let far = x.f_div(&x.f_neg()?.f_add_scalar(1.0)?)?.f_log()?;
    pick(&middle, &near, &far)
}

/// `log(expit(x))`, `scipy.special.log_expit`: `x - log1p(exp(x))` for x < 0,
/// `-log1p(exp(-x))` otherwise, as SciPy (libtorch's `log_sigmoid` flushes its
/// subnormal results, x > 708, to 0).
pub(super) fn log_expit(x: &Tensor) -> Result<Tensor> {
    let negative = x.f_sub(&log1p_f64(&x.f_exp()?)?)?;
    let positive = log1p_f64(&x.f_neg()?.f_exp()?)?.f_neg()?;
    pick(&x.f_lt(0.0)?, &negative, &positive)
}

#[cfg(test)]
mod tests {
    use tch::{Kind, Tensor};

    use super::logit_composite;

    fn values(t: &Tensor) -> Vec<f64> {
        Vec::<f64>::try_from(&t.to_kind(Kind::Double)).unwrap()
    }

    /// The one-pass kernel against the composite, float32 and float64, both
    /// paths (SLEEF's kernels where `logit_vectorized()`, the C library's).
    #[test]
    fn one_pass_kernel_matches_the_composite() {
        let mut grid: Vec<f64> = (0..=1003).map(|i| i as f64 / 1003.0).collect();
        grid.extend([0.3, 0.65, 0.5, -0.0, 1e-300, 5e-324, 1.0 - 1e-16, -1.0, 2.0, f64::NAN, f64::INFINITY]);
        for kind in [Kind::Double, Kind::Float] {
            let x = Tensor::from_slice(&grid).to_kind(kind);
            let want = values(&logit_composite(&x).unwrap());
            let eps = if kind == Kind::Float { 1.2e-7 } else { 2.3e-16 };
            for vectorized in [true, false] {
                let mut out = x.empty_like();
                crate::ffi::logit::logit_cpu(&x, &mut out, vectorized).unwrap();
                for (got, want) in values(&out).into_iter().zip(want.iter().copied()) {
                    if !want.is_finite() {
                        assert!(got == want || (got.is_nan() && want.is_nan()), "{kind:?} {vectorized}: {got} {want}");
                    } else {
                        assert!((got - want).abs() <= 4.0 * eps * want.abs(), "{kind:?} {vectorized}: {got} {want}");
                    }
                }
            }
        }
    }
}
