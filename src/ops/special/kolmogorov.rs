//! The Kolmogorov distribution (Cephes' `kolmogorov.c` in SciPy):
//! kolmogorov, its survival function, and kolmogi, the inverse; and the
//! one-sided Smirnov statistic's smirnov and smirnovi, whose scalar kernels
//! are `csrc/cephes_misc.cpp`'s (CPU loops: input on another device goes to
//! the CPU and back; not differentiable).

use std::f64::consts::PI;

use tch::Tensor;

use super::helpers::*;
use crate::Result;

/// Below this y the CDF is summed (Jacobi's theta form), above the survival
/// function (SciPy's cut-over); each side then needs at most 6 terms.
const CUTOVER: f64 = 0.82;

/// `(log sf, log cdf, d log sf / dy, d log cdf / dy)` of the Kolmogorov
/// distribution at y > 0, all in log space so that neither tail underflows:
/// above [`CUTOVER`] `sf = 2 e^(-2 y^2) sum (-1)^(k-1) e^(-2 (k^2 - 1) y^2)`,
/// below `cdf = sqrt(2 pi) / y e^(-a_1 / y^2) sum e^(-(a_k - a_1) / y^2)` with
/// `a_k = (2k - 1)^2 pi^2 / 8`; the other one as the complement (never below
/// 0.45 there, no cancellation).
fn kolmogorov_parts(y: &Tensor) -> Result<[Tensor; 4]> {
    let above = y.f_ge(CUTOVER)?;
    // the survival function's series, relative to its first term
    let y2 = y.f_square()?;
    let mut s0 = y.f_zeros_like()?;
    let mut s1 = y.f_zeros_like()?; // sum (-1)^(k-1) k^2 e^(-2 (k^2-1) y^2)
    for k in 1..=8 {
        let k2 = f64::from(k * k);
        let sign = if k % 2 == 1 { 1.0 } else { -1.0 };
        let term = y2.f_mul_scalar(-2.0 * (k2 - 1.0))?.f_exp()?.f_mul_scalar(sign)?;
        s0 = s0.f_add(&term)?;
        s1 = s1.f_add(&term.f_mul_scalar(k2)?)?;
    }
    let log_sf_above = s0.f_log()?.f_sub(&y2.f_mul_scalar(2.0)?)?.f_add_scalar(2f64.ln())?;
    let slope_sf_above = s1.f_div(&s0)?.f_mul(y)?.f_mul_scalar(-4.0)?;
    // the CDF's series, relative to its first term (y clamped away from 0,
    // where the CDF underflows to 0 in any case)
    let ys = y.f_clamp_min(1e-3)?;
    let inv2 = ys.f_square()?.f_reciprocal()?;
    let a1 = PI * PI / 8.0;
    let mut t0 = y.f_zeros_like()?;
    let mut t1 = y.f_zeros_like()?; // sum e^(-(a_k - a_1) / y^2) 2 (a_k - a_1)
    for k in 1..=6 {
        let d = f64::from((2 * k - 1) * (2 * k - 1) - 1) * a1;
        let term = inv2.f_mul_scalar(-d)?.f_exp()?;
        t0 = t0.f_add(&term)?;
        t1 = t1.f_add(&term.f_mul_scalar(2.0 * d)?)?;
    }
    let log_cdf_below =
        t0.f_log()?.f_sub(&inv2.f_mul_scalar(a1)?)?.f_sub(&ys.f_log()?)?.f_add_scalar(0.5 * (2.0 * PI).ln())?;
    // d/dy [-ln y - a_1 / y^2 + ln t0] = -1/y + 2 a_1 / y^3 + t1 / (t0 y^3)
    let inv3 = inv2.f_div(&ys)?;
    let slope_cdf_below =
        ys.f_reciprocal()?.f_neg()?.f_add(&inv3.f_mul_scalar(2.0 * a1)?)?.f_add(&t1.f_div(&t0)?.f_mul(&inv3)?)?;
    let log_cdf_below = fill(&log_cdf_below, &y.f_lt(1e-3)?, f64::NEG_INFINITY)?;
    // the complements: log(1 - e^l), and the slopes through pdf = -sf' = cdf'
    let complement = |l: &Tensor| -> Result<Tensor> { Ok(l.f_exp()?.f_neg()?.f_log1p()?) };
    let log_sf = pick(&above, &log_sf_above, &complement(&log_cdf_below)?)?;
    let log_cdf = pick(&above, &complement(&log_sf_above)?, &log_cdf_below)?;
    // pdf = -sf slope_sf = cdf slope_cdf
    let pdf_above = log_sf_above.f_exp()?.f_mul(&slope_sf_above)?.f_neg()?;
    let pdf_below = log_cdf_below.f_exp()?.f_mul(&slope_cdf_below)?;
    let slope_sf = pick(&above, &slope_sf_above, &pdf_below.f_neg()?.f_div(&log_sf.f_exp()?)?)?;
    let slope_cdf = pick(&above, &pdf_above.f_div(&log_cdf.f_exp()?)?, &slope_cdf_below)?;
    Ok([log_sf, log_cdf, slope_sf, slope_cdf])
}

/// The complementary CDF of the Kolmogorov distribution, `scipy.special.kolmogorov(y)`:
/// 1 for y <= 0, 0 at `inf`, nan for nan.
pub(super) fn kolmogorov(y: &Tensor) -> Result<Tensor> {
    let [log_sf, ..] = kolmogorov_parts(&y.f_clamp(1e-300, 1e3)?)?;
    let out = log_sf.f_exp()?;
    let out = fill(&out, &y.f_le(0.0)?, 1.0)?;
    let out = fill(&out, &y.f_isposinf()?, 0.0)?;
    fill(&out, &y.f_isnan()?, f64::NAN)
}

/// The inverse of [`kolmogorov`], `scipy.special.kolmogi(p)`: Newton's method
/// on `log sf(y) = log p` for p <= 1/2 and on `log cdf(y) = log1p(-p)` above
/// (so that both tails keep their relative accuracy), from the leading term
/// of the series (`p = 2 e^(-2 y^2)`, `1 - p = sqrt(2 pi)/y e^(-pi^2/(8 y^2))`),
/// eight steps. 0 at p = 1, `inf` at 0, nan outside [0, 1]; finite down to the
/// smallest subnormal p (SciPy's is `inf` below about 1e-308).
pub(super) fn kolmogi(probability: &Tensor) -> Result<Tensor> {
    let valid = and(&probability.f_gt(0.0)?, &probability.f_lt(1.0)?)?;
    let p = fill(probability, &not(&valid)?, 0.5)?;
    let upper = p.f_le(0.5)?;
    let log_p = p.f_log()?;
    let log_q = p.f_neg()?.f_log1p()?;
    // starting points
    let from_sf = log_p.f_sub_scalar(2f64.ln())?.f_mul_scalar(-0.5)?.f_sqrt()?;
    let mut from_cdf = p.f_ones_like()?.f_mul_scalar(0.5)?;
    for _ in 0..4 {
        let d = from_cdf.f_log()?.f_neg()?.f_add_scalar(0.5 * (2.0 * PI).ln())?.f_sub(&log_q)?;
        from_cdf = d.f_clamp_min(0.5)?.f_mul_scalar(8.0)?.f_sqrt()?.f_reciprocal()?.f_mul_scalar(PI)?;
    }
    let mut y = pick(&upper, &from_sf.f_clamp_min(CUTOVER * 0.9)?, &from_cdf)?;
    for _ in 0..8 {
        let [log_sf, log_cdf, slope_sf, slope_cdf] = kolmogorov_parts(&y)?;
        let step_sf = log_sf.f_sub(&log_p)?.f_div(&slope_sf)?;
        let step_cdf = log_cdf.f_sub(&log_q)?.f_div(&slope_cdf)?;
        let step = pick(&upper, &step_sf, &step_cdf)?;
        y = y.f_sub(&step)?.f_clamp_min(1e-3)?;
    }
    let out = fill(&y, &not(&valid)?, f64::NAN)?;
    let out = fill(&out, &probability.f_eq(0.0)?, f64::INFINITY)?;
    fill(&out, &probability.f_eq(1.0)?, 0.0)
}

/// The survival function of the one-sided Kolmogorov-Smirnov statistic,
/// `scipy.special.smirnov(n, d)` (`n` as float64 with integral values, or the
/// int64 loop's order).
pub(super) fn smirnov(n: &Tensor, d: &Tensor) -> Result<Tensor> {
    Ok(cephes_misc(crate::ffi::cephes_misc::MiscKind::Smirnov, n, Some(d))?.swap_remove(0))
}

/// The inverse of [`smirnov`] in d, `scipy.special.smirnovi(n, p)`.
pub(super) fn smirnovi(n: &Tensor, p: &Tensor) -> Result<Tensor> {
    Ok(cephes_misc(crate::ffi::cephes_misc::MiscKind::Smirnovi, n, Some(p))?.swap_remove(0))
}
