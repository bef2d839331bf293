//! The Faddeeva function `w(z)` (`wofz`), the erf family of complex
//! argument and `voigt_profile` (SciPy's `Faddeeva` package behind them; the
//! C++ kernel of `csrc/faddeeva.cpp`, CPU only), and Dawson's integral and the
//! imaginary error function of real argument (libtorch ops, any device).

use std::f64::consts::PI;

use tch::{Device, Kind, Tensor};

use super::helpers::*;
use crate::ffi::faddeeva::{faddeeva_cpu, voigt_profile_cpu, Faddeeva};
use crate::{Error, Result};

/// Refuses a tensor that is not on the CPU: the Faddeeva kernel has no CUDA
/// version.
fn cpu_only(routine: &str, what: &str, x: &Tensor) -> Result<()> {
    if x.device() == Device::Cpu {
        return Ok(());
    }
    Err(Error::NotImplemented(format!(
        "special.{routine} on {what} runs on the CPU only (torchbridge's Faddeeva-function kernel has no CUDA \
         version): pass CPU arrays or device='cpu'"
    )))
}

/// `which` of the Faddeeva kernel on a complex tensor (the loop's complex128).
/// The result carries no gradient: the Python layer refuses an input that
/// requires grad (`NotDifferentiableError`).
pub(super) fn faddeeva(routine: &str, which: Faddeeva, z: &Tensor) -> Result<Tensor> {
    cpu_only(routine, "complex input", z)?;
    let z = z.f_to_kind(Kind::ComplexDouble)?.f_contiguous()?;
    let mut out = z.f_empty_like()?;
    faddeeva_cpu(&z, &mut out, which)?;
    Ok(out)
}

/// Whether `x` holds complex numbers (through DLPack's dtype: `tch::Kind`
/// cannot name uint16/32/64).
pub(super) fn is_complex(x: &Tensor) -> Result<bool> {
    Ok(crate::dlpack::dtype_of(x)?.is_complex())
}

/// The Faddeeva function `w(z) = exp(-z^2) erfc(-iz)`, `scipy.special.wofz`.
pub(super) fn wofz(z: &Tensor) -> Result<Tensor> {
    faddeeva("wofz", Faddeeva::W, z)
}

/// `erf(z)` of complex argument.
pub(super) fn erf_complex(z: &Tensor) -> Result<Tensor> {
    faddeeva("erf", Faddeeva::Erf, z)
}

/// `erfc(z)` of complex argument.
pub(super) fn erfc_complex(z: &Tensor) -> Result<Tensor> {
    faddeeva("erfc", Faddeeva::Erfc, z)
}

/// `erfcx(z) = w(iz)` of complex argument.
pub(super) fn erfcx_complex(z: &Tensor) -> Result<Tensor> {
    faddeeva("erfcx", Faddeeva::Erfcx, z)
}

/// The Voigt profile, `scipy.special.voigt_profile(x, sigma, gamma)`:
/// `Re w((x + i gamma) / (sqrt 2 sigma)) / (sigma sqrt(2 pi))`, with SciPy's
/// Cauchy (`sigma = 0`) and normal (`gamma = 0`) limits.
pub(super) fn voigt_profile(x: &Tensor, sigma: &Tensor, gamma: &Tensor) -> Result<Tensor> {
    for t in [x, sigma, gamma] {
        cpu_only("voigt_profile", "this device", t)?;
    }
    let [x, sigma, gamma] = [x, sigma, gamma].map(|t| t.f_to_kind(Kind::Double).and_then(|t| t.f_contiguous()));
    let (x, sigma, gamma) = (x?, sigma?, gamma?);
    let mut out = x.f_empty_like()?;
    voigt_profile_cpu(&x, &sigma, &gamma, &mut out)?;
    Ok(out)
}

/// Rybicki's step h and the number of odd terms on each side (error of the
/// sampling `exp(-(pi / 2h)^2)` = 6e-18; the Gaussian weights beyond the last
/// term `exp(-(31 h)^2)` are below 1e-26).
const RYBICKI_H: f64 = 0.25;
const RYBICKI_TERMS: i64 = 16;

/// Dawson's integral `F(x) = e^(-x^2) int_0^x e^(t^2) dt` on float64.
///
/// |x| < 1/2: the power series `sum (-2 x^2)^n x / (2n+1)!!` (SciPy's Faddeeva
/// code is 1e-14 relative off there); up to 50: Rybicki's sampling theorem
/// `F(x) = 1/sqrt(pi) sum_(n odd) e^(-(x - n h)^2) / n` (Numerical Recipes
/// 6.10) with 32 terms about the nearest even multiple of h; beyond, the
/// asymptotic series `1 / (2x) sum (2k-1)!! / (2 x^2)^k`. Within 3e-15 of
/// mpmath, odd, `±0` at `±inf`.
pub(super) fn dawsn_f64(x: &Tensor) -> Result<Tensor> {
    let a = x.f_abs()?;
    let out = full(x, f64::NAN)?;
    let out = patch(out, &a.f_lt(0.5)?, &[&a], |v| {
        let a = &v[0];
        let step = a.f_square()?.f_mul_scalar(-2.0)?;
        let mut term = a.shallow_clone();
        let mut sum = a.shallow_clone();
        for n in 1..30 {
            term = term.f_mul(&step)?.f_div_scalar((2 * n + 1) as f64)?;
            sum = sum.f_add(&term)?;
        }
        Ok(sum)
    })?;
    let middle = and(&a.f_ge(0.5)?, &a.f_lt(50.0)?)?;
    let out = patch(out, &middle, &[&a], |v| {
        let a = &v[0];
        // n0: the even integer nearest a / h; the terms are n = n0 + k, k odd
        let n0 = a.f_mul_scalar(0.5 / RYBICKI_H)?.f_round()?.f_mul_scalar(2.0)?;
        let offset = a.f_sub(&n0.f_mul_scalar(RYBICKI_H)?)?;
        let mut sum = a.f_zeros_like()?;
        for k in (-(2 * RYBICKI_TERMS - 1)..2 * RYBICKI_TERMS).step_by(2) {
            let k = k as f64;
            let weight = offset.f_sub_scalar(k * RYBICKI_H)?.f_square()?.f_neg()?.f_exp()?;
            sum = sum.f_add(&weight.f_div(&n0.f_add_scalar(k)?)?)?;
        }
        Ok(sum.f_mul_scalar(1.0 / PI.sqrt())?)
    })?;
    let out = patch(out, &a.f_ge(50.0)?, &[&a], |v| {
        let a = &v[0];
        let y = a.f_square()?.f_mul_scalar(2.0)?.f_reciprocal()?;
        let mut term = a.f_ones_like()?;
        let mut sum = a.f_ones_like()?;
        for k in 1..12 {
            term = term.f_mul(&y)?.f_mul_scalar((2 * k - 1) as f64)?;
            sum = sum.f_add(&term)?;
        }
        // (1 / a) / 2: 1 / (2 a) would flush to 0 near the largest double
        Ok(a.f_reciprocal()?.f_mul_scalar(0.5)?.f_mul(&sum)?)
    })?;
    // odd: the sign of x (and of -0.0) back on
    Ok(out.f_copysign(x)?)
}

/// Dawson's integral, `scipy.special.dawsn`.
pub(super) fn dawsn(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return faddeeva("dawsn", Faddeeva::Dawsn, x);
    }
    dawsn_f64(x)
}

/// The imaginary error function `erfi(x) = -i erf(i x) = 2 / sqrt(pi) e^(x^2) F(x)`,
/// `scipy.special.erfi` (real input), with `e^(x^2)` as `e^hi (1 + lo)` for
/// `x^2 = hi + lo` exactly (a plain `exp(x * x)`, as SciPy's, is off by up to
/// `x^2` ulps near the overflow); `±inf` beyond |x| = 26.64.
pub(super) fn erfi(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return faddeeva("erfi", Faddeeva::Erfi, x);
    }
    let (hi, lo) = two_square(x)?;
    let scale = hi.f_exp()?.f_mul(&lo.f_add_scalar(1.0)?)?;
    let out = scale.f_mul(&dawsn_f64(x)?)?.f_mul_scalar(2.0 / PI.sqrt())?;
    // at ±inf: inf * ±0
    let out = pick(&x.f_isinf()?, x, &out)?;
    // tiny |x|: 2 x / sqrt(pi), without the series' rounding on subnormals
    let tiny = x.f_abs()?.f_lt(1e-20)?;
    pick(&tiny, &x.f_mul_scalar(2.0 / PI.sqrt())?, &out)
}

/// `x^2 = hi + lo` exactly (Dekker's product; `lo` is 0 where |x| >= 1e150).
pub(super) fn two_square(x: &Tensor) -> Result<(Tensor, Tensor)> {
    const SPLIT: f64 = 134_217_729.0; // 2^27 + 1
    let hi = x.f_square()?;
    let t = x.f_mul_scalar(SPLIT)?;
    let x_hi = t.f_sub(&t.f_sub(x)?)?;
    let x_lo = x.f_sub(&x_hi)?;
    let lo = x_hi.f_mul(&x_hi)?.f_sub(&hi)?.f_add(&x_hi.f_mul(&x_lo)?.f_mul_scalar(2.0)?)?.f_add(&x_lo.f_square()?)?;
    let lo = fill(&lo, &not(&x.f_abs()?.f_lt(1e150)?)?, 0.0)?;
    Ok((hi, lo))
}
