//! The regularized incomplete gamma functions (Cephes' `igam.c`) and the
//! distributions built on them (`chdtr.c`, `pdtr.c`): gammainc, gammaincc,
//! chdtr, chdtrc, pdtr, pdtrc.

use std::f64::consts::PI;

use tch::{Kind, Tensor};

use super::constants::{LGAMMA1P, TEMME};
use super::helpers::*;
use crate::Result;

/// `log1p(s) - s` without cancellation for |s| < 1/2:
/// `-u s + 2 (u^3/3 + u^5/5 + ...)` with `u = s / (2 + s)`.
pub(super) fn log1pmx(s: &Tensor) -> Result<Tensor> {
    let u = s.f_div(&s.f_add_scalar(2.0)?)?;
    let u2 = u.f_square()?;
    let coeffs: Vec<f64> = (0..14).map(|k| 1.0 / (2 * k + 3) as f64).collect();
    let odd = horner(&u2, &coeffs)?.f_mul(&u2)?.f_mul(&u)?.f_mul_scalar(2.0)?;
    Ok(odd.f_sub(&u.f_mul(s)?)?)
}

/// The regime where libtorch's igamma uses its asymptotic series (off by up to
/// 2e-9 relative): `20 < a < 200, |x - a|/a < 0.3` or `a > 200, |x - a|/a < 4.5/sqrt(a)`.
pub(super) fn temme_regime(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    let ratio = x.f_sub(a)?.f_abs()?.f_div(a)?;
    let moderate = and(&and(&a.f_gt(20.0)?, &a.f_lt(200.0)?)?, &ratio.f_lt(0.3)?)?;
    let large = and(&a.f_gt(200.0)?, &ratio.f_lt_tensor(&a.f_rsqrt()?.f_mul_scalar(4.5)?)?)?;
    or(&moderate, &large)
}

/// `P(a, x)` (`upper = false`) or `Q(a, x)` by Temme's uniform asymptotic
/// expansion (DLMF 8.12.3/8.12.4) with the coefficients in [`TEMME`]:
/// `Q = erfc(eta sqrt(a/2))/2 + exp(-a eta^2/2)/sqrt(2 pi a) sum_k c_k(eta) a^-k`.
/// Relative error about 4e-15 in [`temme_regime`].
pub(super) fn gammainc_temme(a: &Tensor, x: &Tensor, upper: bool) -> Result<Tensor> {
    let s = x.f_sub(a)?.f_div(a)?;
    let lm = log1pmx(&s)?;
    let eta = lm.f_mul_scalar(-2.0)?.f_sqrt()?.f_copysign(&s)?;
    let m = eta.size()[0];
    let powers = |v: &Tensor| -> Result<Tensor> {
        let steps = v.f_unsqueeze(1)?.f_expand([m, 24], false)?.f_cumprod(1, None::<Kind>)?;
        Ok(Tensor::f_cat(&[v.f_ones_like()?.f_unsqueeze(1)?, steps], 1)?)
    };
    let flat: Vec<f64> = TEMME.iter().flat_map(|row| row.iter().copied()).collect();
    let d = Tensor::f_from_slice(&flat)?.f_reshape([25, 25])?.f_to(eta.device())?;
    let c = powers(&eta)?.f_matmul(&d.f_transpose(0, 1)?)?; // c[i, k] = c_k(eta_i)
    let sum = c.f_mul(&powers(&a.f_reciprocal()?)?)?.f_sum_dim_intlist([1i64].as_slice(), false, None::<Kind>)?;
    let r = a.f_mul(&lm)?.f_exp()?.f_div(&a.f_mul_scalar(2.0 * PI)?.f_sqrt()?)?.f_mul(&sum)?;
    let root = a.f_mul_scalar(0.5)?.f_sqrt()?.f_mul(&eta)?;
    if upper {
        Ok(root.f_erfc()?.f_mul_scalar(0.5)?.f_add(&r)?)
    } else {
        Ok(root.f_neg()?.f_erfc()?.f_mul_scalar(0.5)?.f_sub(&r)?)
    }
}

/// `Q(a, x)` for `0 < x <= 1.1` and small `a` by the series SciPy's igamc
/// uses there: `Q = -expm1(a log x - lgamma(1 + a)) - a x^a / Gamma(1 + a) sum_n (-x)^n / (n! (a + n))`.
/// libtorch's `gammaincc` loses everything there for tiny `a` (`Q(1e-300, 1)`
/// = 8e-301 instead of 2.2e-301).
pub(super) fn gammaincc_small_x(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    let log_power = a.f_mul(&x.f_log()?)?.f_sub(&lgamma1p(a)?)?;
    let head = log_power.f_expm1()?.f_neg()?;
    let mut factor = full(x, 1.0)?;
    let mut sum = x.f_zeros_like()?;
    for n in 1..=26 {
        factor = factor.f_mul(x)?.f_div_scalar(-(n as f64))?;
        sum = sum.f_add(&factor.f_div(&a.f_add_scalar(n as f64)?)?)?;
    }
    Ok(head.f_sub(&a.f_mul(&log_power.f_exp()?)?.f_mul(&sum)?)?)
}

/// `lgamma(1 + a)`, accurate for tiny `a` too (where `1 + a` rounds to 1):
/// its Taylor series below |a| = 0.2.
pub(super) fn lgamma1p(a: &Tensor) -> Result<Tensor> {
    let series = horner(a, &LGAMMA1P)?;
    pick(&a.f_abs()?.f_lt(0.2)?, &series, &a.f_add_scalar(1.0)?.f_lgamma()?)
}

/// Where SciPy's igamc takes [`gammaincc_small_x`]: `x <= 0.5, a <= -0.4 / log(x)`
/// or `0.5 < x <= 1.1, a <= 1.1 x`.
pub(super) fn small_x_regime(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    let low = and(&x.f_le(0.5)?, &a.f_le_tensor(&x.f_log()?.f_reciprocal()?.f_mul_scalar(-0.4)?)?)?;
    let mid = and(&and(&x.f_gt(0.5)?, &x.f_le(1.1)?)?, &a.f_le_tensor(&x.f_mul_scalar(1.1)?)?)?;
    and(&and(&x.f_gt(0.0)?, &a.f_gt(0.0)?)?, &or(&low, &mid)?)
}

pub(super) fn gammainc_f64(a: &Tensor, x: &Tensor, upper: bool) -> Result<Tensor> {
    // libtorch has no derivative in `a` (its backward raises): detached, so a
    // caller's `a` that requires grad is refused at the call, not at backward
    let a = &a.detach();
    let base = if upper { a.f_special_gammaincc(x)? } else { a.f_special_gammainc(x)? };
    let regime = temme_regime(a, x)?;
    let out = patch(base, &regime, &[a, x], |s| gammainc_temme(&s[0], &s[1], upper))?;
    let out =
        if upper { patch(out, &small_x_regime(a, x)?, &[a, x], |s| gammaincc_small_x(&s[0], &s[1]))? } else { out };
    // libtorch answers some nan arguments (P(nan, 0) = 0, P(inf, nan) = 0); SciPy gives nan
    fill(&out, &any_nan(a, x)?, f64::NAN)
}

/// The regularized lower incomplete gamma function `P(a, x)`,
/// `scipy.special.gammainc`: libtorch's kernel, except where `a ~ x > 20`, where
/// Temme's expansion replaces libtorch's (2e-9 off there).
pub(super) fn gammainc(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    gammainc_f64(a, x, false)
}

/// The regularized upper incomplete gamma function `Q(a, x) = 1 - P(a, x)`,
/// `scipy.special.gammaincc` (as [`gammainc`]).
pub(super) fn gammaincc(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    gammainc_f64(a, x, true)
}

/// The chi-square CDF `P(v/2, x/2)`, `scipy.special.chdtr(v, x)` (nan for x < 0).
pub(super) fn chdtr(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    let out = gammainc_f64(&v.f_mul_scalar(0.5)?, &x.f_mul_scalar(0.5)?, false)?;
    fill(&out, &x.f_lt(0.0)?, f64::NAN)
}

/// The chi-square survival function `Q(v/2, x/2)`, `scipy.special.chdtrc(v, x)`.
pub(super) fn chdtrc(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    let out = gammainc_f64(&v.f_mul_scalar(0.5)?, &x.f_mul_scalar(0.5)?, true)?;
    fill(&out, &x.f_lt(0.0)?, f64::NAN)
}

/// The Poisson CDF `Q(floor(k) + 1, m)`, `scipy.special.pdtr(k, m)`: 1 at
/// `m = 0`, nan for negative arguments.
pub(super) fn pdtr(k: &Tensor, m: &Tensor) -> Result<Tensor> {
    let out = gammainc_f64(&k.f_floor()?.f_add_scalar(1.0)?, m, true)?;
    let out = fill(&out, &m.f_eq(0.0)?, 1.0)?;
    fill(&out, &or(&k.f_lt(0.0)?, &m.f_lt(0.0)?)?, f64::NAN)
}

/// The Poisson survival function `P(floor(k) + 1, m)`, `scipy.special.pdtrc(k, m)`.
pub(super) fn pdtrc(k: &Tensor, m: &Tensor) -> Result<Tensor> {
    let out = gammainc_f64(&k.f_floor()?.f_add_scalar(1.0)?, m, false)?;
    let out = fill(&out, &m.f_eq(0.0)?, 0.0)?;
    fill(&out, &or(&k.f_lt(0.0)?, &m.f_lt(0.0)?)?, f64::NAN)
}
