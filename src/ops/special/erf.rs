//! The error function and the normal distribution (Cephes' `ndtr.c`): erf, erfc,
//! erfcx, erfinv, erfcinv, ndtr, ndtri, log_ndtr.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use tch::{Device, Kind, Tensor};

use super::constants::FRAC_1_SQRT_2_ERR;
use super::faddeeva::{erf_complex, erfc_complex, erfcx_complex, faddeeva, is_complex};
use super::helpers::*;
use super::loops;
use super::ufuncs::Ufunc;
use crate::ffi::faddeeva::Faddeeva;
use crate::ffi::ndtr::Erfc;
use crate::ops::autograd::records_grad;
use crate::ops::scipy_float_input_of;
use crate::Result;

/// The error function, `scipy.special.erf` (float32 in float32; complex input
/// by the Faddeeva kernel).
pub(super) fn erf(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    let dtype = crate::dlpack::dtype_of(x)?; // (asked once: this is the commonest one-element call)
    if dtype.is_complex() {
        return loops::unary(u, x, erf_complex);
    }
    Ok(scipy_float_input_of(u.qualified, x, dtype, true)?.f_erf()?)
}

/// The complementary error function `1 - erf(x)`, accurate in the upper tail.
pub(super) fn erfc(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    let dtype = crate::dlpack::dtype_of(x)?; // (asked once: this is the commonest one-element call)
    if dtype.is_complex() {
        return loops::unary(u, x, erfc_complex);
    }
    Ok(scipy_float_input_of(u.qualified, x, dtype, true)?.f_erfc()?)
}

/// The scaled complementary error function `exp(x^2) erfc(x)`, `scipy.special.erfcx`
/// (libtorch's kernel, which matches SciPy's to the last bit on our tests).
pub(super) fn erfcx(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return erfcx_complex(x);
    }
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

/// Below this `x` the rounding of `x / sqrt 2` costs `ndtr` more than its
/// last bit (`2 t^2` half-ulps relative, `t = x / sqrt 2`), so it is corrected.
const NDTR_CORRECTED_BELOW: f64 = -1.0;

/// The standard normal CDF, float64 in and out.
///
/// libtorch's `ndtr` is `0.5 (1 + erf(x / sqrt 2))`, which loses everything in
/// the lower tail (0 from x = -9). This is SciPy's formula in one piece,
/// `0.5 erfc(-x / sqrt 2)`, with one more step SciPy does not take, on the
/// elements below [`NDTR_CORRECTED_BELOW`] only (a few per cent of normal
/// data): the rounding error of `x / sqrt 2` (up to `2 t^2 eps` relative in
/// the tail, 1.5e-13 at x = -37) is corrected to first order,
/// `erfc(z + dz) = erfc(z) - dz 2 / sqrt(pi) exp(-z^2)`, so the tail is right
/// to a few ulp. Three elementwise ops on the bulk.
///
/// Float64 CPU input that carries no gradient takes the kernel of
/// `csrc/ndtr.cpp`: the same formulas in one pass (MKL's or SLEEF's vector
/// `erfc` as libtorch exports them: within 2 ulp of this composite), the
/// correction on the tail elements only, without gathering them.
pub(super) fn ndtr_f64(x: &Tensor) -> Result<Tensor> {
    if x.f_kind()? == Kind::Double && x.device() == Device::Cpu && !records_grad(x) {
        let x = x.f_contiguous()?;
        let mut out = x.f_empty_like()?;
        crate::ffi::ndtr::ndtr_cpu(&x, &mut out, NDTR_CORRECTED_BELOW, FRAC_1_SQRT_2_ERR, Erfc::Mkl)?;
        return Ok(out);
    }
    ndtr_composite(x)
}

/// [`ndtr_f64`] from libtorch ops, for any device and autograd.
pub(super) fn ndtr_composite(x: &Tensor) -> Result<Tensor> {
    let out = x.f_mul_scalar(-FRAC_1_SQRT_2)?.f_erfc()?.f_mul_scalar(0.5)?;
    let flat = x.f_reshape([-1])?;
    let tail = flat.f_lt(NDTR_CORRECTED_BELOW)?.f_nonzero()?.f_view([-1])?;
    if tail.numel() == 0 {
        return Ok(out);
    }
    // `out` is a fresh contiguous tensor: its flat view reads and writes it
    let mut out_flat = out.f_view([-1])?;
    // there x / sqrt 2 = t + d with t < 0, and out = erfc(z) / 2 with z = -t = |x| / sqrt 2 + d
    let (t, d) = over_sqrt2(&flat.f_index_select(0, &tail)?)?;
    let step = d.f_mul(&t.f_square()?.f_neg()?.f_exp()?)?.f_mul_scalar(1.0 / PI.sqrt())?;
    let corrected = out_flat.f_index_select(0, &tail)?.f_add(&step)?;
    let _ = out_flat.f_index_copy_(0, &tail, &corrected)?;
    Ok(out)
}

/// The standard normal CDF, `scipy.special.ndtr` (see the module notes: right
/// in the lower tail, 1.1e-19 at x = -9, where libtorch's `ndtr` gives 0).
pub(super) fn ndtr(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return faddeeva("ndtr", Faddeeva::Ndtr, x);
    }
    ndtr_f64(x)
}

/// The inverse of the standard normal CDF, `scipy.special.ndtri` (libtorch's kernel).
pub(super) fn ndtri(p: &Tensor) -> Result<Tensor> {
    Ok(p.f_special_ndtri()?)
}

/// `log(ndtr(x))`, `scipy.special.log_ndtr`: `log(erfcx(-x/sqrt 2)/2) - x^2/2`
/// below -1 (with `x^2/2` as `x (0.5 x)`, one rounding, and no overflow of `x^2`), and
/// `log1p(-ndtr(-x))` above, with the corrected tail of [`ndtr`] (libtorch's
/// `log_ndtr` loses 1e-13 relative from x = 5 on).
///
/// Float64 CPU input that carries no gradient takes `csrc/ndtr.cpp`'s
/// one-pass kernel: the same formulas, each element on its own branch only,
/// with the C library's `erfc`, `log` and `log1p` (libtorch's vectorized
/// ones in the composite: a few ulp apart).
pub(super) fn log_ndtr(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return faddeeva("log_ndtr", Faddeeva::LogNdtr, x);
    }
    if x.f_kind()? == Kind::Double && x.device() == Device::Cpu && !records_grad(x) {
        let x = x.f_contiguous()?;
        let mut out = x.f_empty_like()?;
        crate::ffi::ndtr::log_ndtr_cpu(&x, &mut out, FRAC_1_SQRT_2_ERR)?;
        return Ok(out);
    }
    let below = x.f_lt(-1.0)?;
    // Each branch sees a harmless stand-in where the other is picked: an
    // infinite value there (log1p(-1) far left, erfcx overflow far right)
    // would make the gradient of the pick 0 * inf = nan.
    let x_lower = fill(x, &not(&below)?, -1.0)?;
    let x_upper = fill(x, &below, 0.0)?;
    let t = x_lower.f_mul_scalar(FRAC_1_SQRT_2)?;
    let lower = t
        .f_neg()?
        .f_special_erfcx()?
        .f_mul_scalar(0.5)?
        .f_log()?
        // x (x/2): the same single rounding as x^2/2, without overflowing x^2 beyond 1.3e154
        .f_sub(&x_lower.f_mul(&x_lower.f_mul_scalar(0.5)?)?)?;
    let upper = log1p_f64(&ndtr_f64(&x_upper.f_neg()?)?.f_neg()?)?;
    pick(&below, &lower, &upper)
}

/// `ndtri(exp(y))`, `scipy.special.ndtri_exp`, accurate where `exp(y)` is
/// near 1 or underflows: `-ndtri(-expm1(y))` above `log1p(-exp(-2))` (SciPy's
/// split), `ndtri(exp(y))` down to -700 (the quantile is insensitive to the
/// rounding of `exp(y)` there), and below, the tail `log_ndtr(x) = y` solved
/// by the fixed point of `x^2 = -2y - ln(x^2) - ln(2 pi)` refined by Newton
/// steps on `log_ndtr` (up to |y| = 1e10, beyond which the fixed point is
/// exact). nan above 0, `inf` at 0, `-inf` at -inf.
pub(super) fn ndtri_exp(y: &Tensor) -> Result<Tensor> {
    let split = (-(-2f64).exp()).ln_1p();
    let upper = y.f_expm1()?.f_neg()?.f_special_ndtri()?.f_neg()?;
    let middle = y.f_exp()?.f_special_ndtri()?;
    let out = pick(&y.f_gt(split)?, &upper, &middle)?;
    let out = patch(out, &y.f_lt(-700.0)?, &[y], |v| {
        let y = &v[0];
        let t = y.f_neg()?; // -y > 700; x^2 / 2 = t - ln(x^2) / 2 - ln(2 pi) / 2
        let half_log_2pi = 0.5 * (2.0 * PI).ln();
        let mut half_x2 = t.shallow_clone();
        for _ in 0..4 {
            // ln(x^2) / 2 = (ln 2 + ln(x^2 / 2)) / 2
            let half_log_x2 = half_x2.f_log()?.f_add_scalar(std::f64::consts::LN_2)?.f_mul_scalar(0.5)?;
            half_x2 = t.f_sub(&half_log_x2)?.f_sub_scalar(half_log_2pi)?;
        }
        let mut x = half_x2.f_sqrt()?.f_mul_scalar(-std::f64::consts::SQRT_2)?;
        let newton = y.f_gt(-1e10)?;
        for _ in 0..3 {
            let xs = x.f_clamp_min(-1e6)?;
            let log_cdf = log_ndtr(&xs)?;
            // d log_ndtr / dx = pdf / cdf = exp(-x^2/2 - ln(2 pi)/2 - log_cdf)
            let slope = xs.f_square()?.f_mul_scalar(-0.5)?.f_sub_scalar(half_log_2pi)?.f_sub(&log_cdf)?.f_exp()?;
            let step = log_cdf.f_sub(y)?.f_div(&slope)?;
            x = pick(&newton, &xs.f_sub(&step)?, &x)?;
        }
        Ok(x)
    })?;
    let out = fill(&out, &y.f_gt(0.0)?, f64::NAN)?;
    let out = fill(&out, &y.f_isneginf()?, f64::NEG_INFINITY)?;
    fill(&out, &y.f_eq(0.0)?, f64::INFINITY)
}

#[cfg(test)]
mod tests {
    use tch::{Kind, Tensor};

    use super::{ndtr_composite, FRAC_1_SQRT_2_ERR, NDTR_CORRECTED_BELOW};
    use crate::ffi::ndtr::Erfc;

    /// The one-pass kernel against the composite, each of its erfc kernels
    /// (MKL's, SLEEF's, the C library's), tail and bulk.
    #[test]
    fn one_pass_kernel_matches_the_composite() {
        let mut grid: Vec<f64> = (0..=4003).map(|i| -39.0 + 48.0 * i as f64 / 4003.0).collect();
        grid.extend([-1.0, -0.0, 0.0, -1e300, 1e300, -38.4, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]);
        let x = Tensor::from_slice(&grid);
        let want = Vec::<f64>::try_from(&ndtr_composite(&x).unwrap()).unwrap();
        for erfc in [Erfc::Mkl, Erfc::Sleef, Erfc::CLibrary] {
            let mut out = x.empty_like();
            crate::ffi::ndtr::ndtr_cpu(&x, &mut out, NDTR_CORRECTED_BELOW, FRAC_1_SQRT_2_ERR, erfc).unwrap();
            let got = Vec::<f64>::try_from(&out.to_kind(Kind::Double)).unwrap();
            for ((g, w), v) in got.into_iter().zip(want.iter().copied()).zip(grid.iter()) {
                if !w.is_finite() || w == 0.0 {
                    assert!(g == w || (g.is_nan() && w.is_nan()), "{erfc:?} at {v}: {g} {w}");
                } else if w >= f64::MIN_POSITIVE {
                    // one erfc against another: a few ulp
                    assert!((g - w).abs() <= 8.0 * f64::EPSILON * w, "{erfc:?} at {v}: {g} {w}");
                } else {
                    // subnormal results: their few bits
                    assert!((g - w).abs() <= 16.0 * 5e-324, "{erfc:?} at {v}: {g} {w}");
                }
            }
        }
        // libtorch_cpu from the x86-64 PyPI wheel exports MKL's vector erfc
        #[cfg(target_arch = "x86_64")]
        assert_eq!(crate::ffi::ndtr::erfc_kernel(Erfc::Mkl), Erfc::Mkl);
        // libtorch_cpu exports SLEEF's erfc: on an AVX2 machine the kernel takes it
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
            assert_eq!(crate::ffi::ndtr::erfc_kernel(Erfc::Sleef), Erfc::Sleef);
        }
    }
}
