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
/// (with AVX2 or AVX-512, one SLEEF `log` per element of the quotient carried
/// to twice the precision: within 1.2 ulp, SciPy's within 1.8), with the
/// derivative `1 / (p (1 - p))` attached; other devices the composite of
/// libtorch ops.
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
    use crate::ffi::logit::{logit_cpu_by, LogitKernel};

    fn values(t: &Tensor) -> Vec<f64> {
        Vec::<f64>::try_from(&t.to_kind(Kind::Double)).unwrap()
    }

    /// The one-pass kernel against the composite, float32 and float64, both
    /// paths (SLEEF's `log` where `LogitKernel::available()` has it, the C library's).
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

    /// Every kernel this machine runs (SciPy's formulas with the C library's
    /// `log1p`/`log`, SLEEF's AVX2 and AVX-512 `log` of the double-length
    /// quotient) against the first: edge values, the branch boundaries of
    /// SciPy's formulas and their neighbours, subnormals, float32 and float64,
    /// every tail length of the vector loops.
    #[test]
    fn every_kernel_against_scipys_formulas() {
        let mut grid = vec![
            f64::NAN,
            f64::NEG_INFINITY,
            -1.0,
            -5e-324,
            -0.0,
            0.0,
            5e-324,
            f64::MIN_POSITIVE,
            f64::from_bits(0x000F_FFFF_FFFF_FFFF), // the largest subnormal
            1e-300,
            1e-30,
            1e-8,
            0.1,
            0.9,
            1.0 - 2f64.powi(-53),
            1.0 - 1e-16,
            1.0,
            1.0 + 2f64.powi(-52),
            1.5,
            f64::INFINITY,
        ];
        for b in [0.3f64, 0.5, 0.65] {
            for k in -4..=4 {
                grid.push(b + k as f64 * b * f64::EPSILON / 2.0);
            }
        }
        grid.extend((1..=997).map(|i| i as f64 / 998.0));
        for kind in [Kind::Double, Kind::Float] {
            let (eps, tiny) = if kind == Kind::Float { (f32::EPSILON as f64, 1e-45) } else { (f64::EPSILON, 5e-324) };
            for len in (1..=19).chain([grid.len()]) {
                let x = Tensor::from_slice(&grid[grid.len() - len..]).to_kind(kind);
                let mut want = x.empty_like();
                logit_cpu_by(&x, &mut want, LogitKernel::Scalar).unwrap();
                let want = values(&want);
                for kernel in [LogitKernel::Avx2, LogitKernel::Avx512] {
                    if kernel > LogitKernel::available() {
                        continue;
                    }
                    let mut out = x.empty_like();
                    logit_cpu_by(&x, &mut out, kernel).unwrap();
                    let inputs = values(&x);
                    for ((got, want), p) in values(&out).into_iter().zip(want.iter().copied()).zip(inputs) {
                        let what = format!("{kind:?} {kernel:?} logit({p:e}) = {got:e}, SciPy's formulas {want:e}");
                        if !want.is_finite() || want == 0.0 {
                            // nan, the infinities (-inf at -0.0 too) and the zero at 1/2: exactly
                            assert!(got == want || (got.is_nan() && want.is_nan()), "{what}");
                        } else {
                            // SciPy's formulas err by up to 1.8 ulp, these by 1.2
                            assert!((got - want).abs() <= 2.25 * eps * want.abs().max(tiny), "{what}");
                        }
                    }
                }
            }
        }
    }
}
