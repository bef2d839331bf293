//! The exponential integrals (SciPy's `specfun` `e1xb`/`eix` behind `exp1` and
//! `expi`, Cephes' `expn.c`): exp1, expi, expn.
//!
//! On CPU input that records no gradient the real loops run the scalar
//! kernels of `csrc/cephes_misc.cpp` (the same regions and series as the
//! composites below, one pass over the elements, threads for large sizes);
//! elsewhere (CUDA, autograd) the composites of libtorch ops.

use tch::{Device, Tensor};

use super::constants::{EI_ROOT, EI_ROOT_ERR, EI_TAYLOR, EULER};
use super::faddeeva::is_complex;
use super::gamma::{digamma_nonneg, gamma_nonneg};
use super::helpers::*;
use super::xsf_complex::xsf_complex;
use crate::ffi::cephes_misc::MiscKind;
use crate::ffi::xsf_complex::XsfComplex;
use crate::ops::autograd::records_grad;
use crate::Result;

/// Whether the scalar CPU kernel takes `inputs`: all on the CPU, none
/// recording a gradient (the composites carry autograd).
fn on_kernel(inputs: &[&Tensor]) -> bool {
    inputs.iter().all(|t| t.device() == Device::Cpu && !records_grad(t))
}

/// The unary kernel `kind` of `csrc/cephes_misc.cpp` on `x` (float64 CPU).
fn kernel1(kind: MiscKind, x: &Tensor) -> Result<Tensor> {
    Ok(cephes_misc(kind, x, None)?.swap_remove(0))
}

/// `sum_(k=1..terms) sign^k x^k / (k k!)`, the tail of the power series of
/// E1 (`sign = -1`) and Ei (`sign = 1`), DLMF 6.6.1-2.
fn log_series(x: &Tensor, sign: f64, terms: usize) -> Result<Tensor> {
    let step = x.f_mul_scalar(sign)?;
    let mut term = x.f_ones_like()?;
    let mut sum = x.f_zeros_like()?;
    for k in 1..=terms {
        term = term.f_mul(&step)?.f_div_scalar(k as f64)?;
        sum = sum.f_add(&term.f_div_scalar(k as f64)?)?;
    }
    Ok(sum)
}

/// `e^-x / (x + n + t)` with the continued fraction
/// `t = -1 n / (x + n + 2 - 2 (n + 1) / (x + n + 4 - ...))` evaluated backwards
/// from `depth` (DLMF 8.19.17): `E_n(x)` for x >= 1, `E_1` with n = 1.
fn expn_fraction(n: &Tensor, x: &Tensor, depth: usize) -> Result<Tensor> {
    let xn = x.f_add(n)?;
    let mut t = x.f_zeros_like()?;
    for i in (1..=depth).rev() {
        let i = i as f64;
        let numerator = n.f_add_scalar(i - 1.0)?.f_mul_scalar(-i)?;
        t = numerator.f_div(&xn.f_add_scalar(2.0 * i)?.f_add(&t)?)?;
    }
    Ok(x.f_neg()?.f_exp()?.f_div(&xn.f_add(&t)?)?)
}

/// The continued fraction of [`expn_fraction`] to the depth its convergence
/// needs on x >= 1: 120 terms below 2 (4e-16 at x = 1), 60 above (specfun's
/// `e1xb` takes `20 + 80 / x`).
fn expn_above_one(out: Tensor, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    let near = and(&x.f_ge(1.0)?, &x.f_lt(2.0)?)?;
    let out = patch(out, &near, &[n, x], |v| expn_fraction(&v[0], &v[1], 120))?;
    patch(out, &x.f_ge(2.0)?, &[n, x], |v| expn_fraction(&v[0], &v[1], 60))
}

/// E1 on float64: the power series `-gamma - ln x - sum (-x)^k / (k k!)` below
/// 1, the continued fraction above (both as SciPy's `e1xb`); `inf` at ±0, nan
/// below 0 (SciPy's real loop). The scalar kernel where it applies.
pub(super) fn exp1_f64(x: &Tensor) -> Result<Tensor> {
    if on_kernel(&[x]) {
        return kernel1(MiscKind::Exp1, x);
    }
    exp1_composite(x)
}

/// [`exp1_f64`] from libtorch ops, for any device and autograd.
fn exp1_composite(x: &Tensor) -> Result<Tensor> {
    let out = full(x, f64::NAN)?;
    let small = and(&x.f_gt(0.0)?, &x.f_lt(1.0)?)?;
    let out = patch(out, &small, &[x], |v| {
        let x = &v[0];
        Ok(x.f_log()?.f_add(&log_series(x, -1.0, 25)?)?.f_add_scalar(EULER)?.f_neg()?)
    })?;
    let out = expn_above_one(out, &x.f_ones_like()?, x)?;
    fill(&out, &x.f_eq(0.0)?, f64::INFINITY)
}

/// The exponential integral `E1(x) = int_x^inf e^-t / t dt`, `scipy.special.exp1` (real input).
pub(super) fn exp1(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("exp1", XsfComplex::Exp1, x);
    }
    exp1_f64(x)
}

/// Ei on x > 0: the power series `gamma + ln x + sum x^k / (k k!)` up to 40
/// (60 terms to 6, 150 beyond, no cancellation), the Taylor series about its
/// zero 0.3725 where the power series cancels (SciPy loses every digit there),
/// and the asymptotic series `e^x / x sum k! / x^k` from 40 on, with `e^x / x`
/// split in halves so that it overflows only where Ei does (SciPy's `eix`
/// gives `inf` from 709.8, where Ei is still finite up to 716.4).
fn expi_positive(x: &Tensor) -> Result<Tensor> {
    let series = |x: &Tensor, terms: usize| -> Result<Tensor> {
        Ok(x.f_log()?.f_add(&log_series(x, 1.0, terms)?)?.f_add_scalar(EULER)?)
    };
    let out = full(x, f64::NAN)?;
    let out = patch(out, &x.f_le(6.0)?, &[x], |v| series(&v[0], 60))?;
    let out = patch(out, &and(&x.f_gt(6.0)?, &x.f_lt(40.0)?)?, &[x], |v| series(&v[0], 150))?;
    let out = patch(out, &x.f_ge(40.0)?, &[x], |v| {
        let x = &v[0];
        let inverse = x.f_reciprocal()?;
        let mut term = x.f_ones_like()?;
        let mut sum = x.f_ones_like()?;
        for k in 1..40 {
            term = term.f_mul(&inverse)?.f_mul_scalar(k as f64)?;
            sum = sum.f_add(&term)?;
        }
        let half = x.f_mul_scalar(0.5)?.f_exp()?;
        Ok(half.f_mul(&half.f_mul(&inverse)?)?.f_mul(&sum)?)
    })?;
    let near_root = x.f_sub_scalar(EI_ROOT)?.f_abs()?.f_lt(0.06)?;
    patch(out, &near_root, &[x], |v| {
        // x - root, the root's second double included (the subtraction is exact)
        let d = v[0].f_sub_scalar(EI_ROOT)?.f_sub_scalar(EI_ROOT_ERR)?;
        horner(&d, &EI_TAYLOR)
    })
}

/// The exponential integral Ei on float64: [`expi_positive`] above 0,
/// `-E1(-x)` below, `-inf` at ±0. The scalar kernel where it applies.
pub(super) fn expi_f64(x: &Tensor) -> Result<Tensor> {
    if on_kernel(&[x]) {
        return kernel1(MiscKind::Expi, x);
    }
    expi_composite(x)
}

/// [`expi_f64`] from libtorch ops, for any device and autograd.
fn expi_composite(x: &Tensor) -> Result<Tensor> {
    let positive = expi_positive(&x.f_clamp_min(f64::from_bits(1))?)?;
    let negative = exp1_composite(&x.f_neg()?.f_clamp_min(0.0)?)?.f_neg()?;
    let out = pick(&x.f_gt(0.0)?, &positive, &negative)?;
    let out = fill(&out, &x.f_eq(0.0)?, f64::NEG_INFINITY)?;
    let out = fill(&out, &x.f_isposinf()?, f64::INFINITY)?;
    fill(&out, &x.f_isnan()?, f64::NAN)
}

/// The exponential integral `Ei(x)`, `scipy.special.expi` (real input).
pub(super) fn expi(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("expi", XsfComplex::Expi, x);
    }
    expi_f64(x)
}

/// The number of terms of the large-n expansion (Cephes' `nA`).
const EXPN_LARGE_N_TERMS: usize = 13;

/// The polynomials `A_k(l)` of the expansion of `E_n(x)` for large n (DLMF
/// 8.20.ii): `A_0 = A_1 = 1`, `A_(k+1) = (1 - 2 k l) A_k + l (l + 1) A_k'`,
/// as coefficient lists in ascending powers (exact small integers).
fn expn_polynomials() -> Vec<Vec<f64>> {
    let mut polys = vec![vec![1.0], vec![1.0]];
    for k in 1..EXPN_LARGE_N_TERMS - 1 {
        let a = &polys[k];
        let mut next = vec![0.0; a.len() + 1];
        for (j, &c) in a.iter().enumerate() {
            next[j] += c; // 1 * A_k
            next[j + 1] -= 2.0 * k as f64 * c; // -2 k l A_k
            if j > 0 {
                // l (l + 1) * j c l^(j-1) = j c (l^j + l^(j+1))
                next[j] += j as f64 * c;
                next[j + 1] += j as f64 * c;
            }
        }
        polys.push(next);
    }
    polys
}

/// `E_n(x)` for n > 50, Cephes' `expn_large_n`: `e^-x / ((l + 1) n) sum_k
/// A_k(l) / (n (l + 1)^2)^k` with `l = x / n`.
fn expn_large_n(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    let lambda = x.f_div(n)?;
    let l1 = lambda.f_add_scalar(1.0)?;
    let multiplier = n.f_mul(&l1.f_square()?)?.f_reciprocal()?;
    let mut factor = x.f_ones_like()?;
    let mut sum = x.f_zeros_like()?;
    for poly in expn_polynomials() {
        sum = sum.f_add(&factor.f_mul(&horner(&lambda, &poly)?)?)?;
        factor = factor.f_mul(&multiplier)?;
    }
    Ok(x.f_neg()?.f_exp()?.f_div(&l1)?.f_div(n)?.f_mul(&sum)?)
}

/// `E_n(x)` for integer 1 <= n <= 50 and 0 < x <= 1, Cephes' power series
/// (DLMF 8.19.8): `(-x)^(n-1) (psi(n) - ln x) / (n-1)! - sum_(k != n-1)
/// (-x)^k / (k! (k - n + 1))`.
fn expn_series(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    let minus_x = x.f_neg()?;
    let mut term = x.f_ones_like()?; // (-x)^k / k!
    let mut sum = x.f_zeros_like()?;
    for k in 0..=25 {
        if k > 0 {
            term = term.f_mul(&minus_x)?.f_div_scalar(k as f64)?;
        }
        let denominator = n.f_neg()?.f_add_scalar(k as f64 + 1.0)?;
        let skip = denominator.f_eq(0.0)?;
        let add = term.f_div(&fill(&denominator, &skip, 1.0)?)?;
        sum = sum.f_add(&fill(&add, &skip, 0.0)?)?;
    }
    let n1 = n.f_sub_scalar(1.0)?;
    let psi = digamma_nonneg(n)?.f_sub(&x.f_log()?)?;
    let lead = minus_x.f_pow(&n1)?.f_mul(&psi)?.f_div(&gamma_nonneg(n)?)?;
    Ok(lead.f_sub(&sum)?)
}

/// The generalized exponential integral `E_n(x) = int_1^inf e^(-x t) / t^n dt`,
/// `scipy.special.expn(n, x)`, as Cephes' `expn`: n truncated to an integer
/// (SciPy's `dd->d` loop warns and truncates), nan for n < 0 or beyond the C
/// int, x < 0 or nan; `e^-x / x` for n = 0, the power series for x <= 1,
/// the continued fraction above, the large-n expansion for n > 50. Results
/// below the smallest normal double are kept (Cephes returns 0 beyond x = 709.8).
/// The scalar kernel where it applies.
pub(super) fn expn(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    if on_kernel(&[n, x]) {
        let n = n.f_to_kind(tch::Kind::Double)?;
        let both = Tensor::f_broadcast_tensors(&[&n, x])?;
        return Ok(cephes_misc(MiscKind::Expn, &both[0], Some(&both[1]))?.swap_remove(0));
    }
    expn_composite(n, x)
}

/// [`expn`] from libtorch ops, for any device and autograd.
fn expn_composite(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    let n = n.f_to_kind(tch::Kind::Double)?.f_trunc()?;
    let bad = or(&or(&n.f_lt(0.0)?, &n.f_gt(f64::from(i32::MAX))?)?, &or(&x.f_lt(0.0)?, &any_nan(&n, x)?)?)?;
    let n = fill(&n, &bad, 1.0)?;
    let x = fill(x, &bad, 1.0)?;
    let large = n.f_gt(50.0)?;
    let out = x.f_neg()?.f_exp()?.f_div(&x)?; // n = 0
    let moderate = and(&n.f_ge(1.0)?, &not(&large)?)?;
    let series = and(&moderate, &and(&x.f_gt(0.0)?, &x.f_le(1.0)?)?)?;
    let out = patch(out, &series, &[&n, &x], |v| expn_series(&v[0], &v[1]))?;
    let out =
        patch(out, &and(&moderate, &x.f_gt(1.0)?)?, &[&n, &x], |v| expn_above_one(full(&v[1], 0.0)?, &v[0], &v[1]))?;
    let out = patch(out, &and(&large, &x.f_gt(0.0)?)?, &[&n, &x], |v| expn_large_n(&v[0], &v[1]))?;
    // E_n(0) = 1 / (n - 1) for n >= 2, inf for n < 2
    let at_zero = n.f_sub_scalar(1.0)?.f_reciprocal()?;
    let at_zero = fill(&at_zero, &n.f_lt(2.0)?, f64::INFINITY)?;
    let out = pick(&x.f_eq(0.0)?, &at_zero, &out)?;
    // beyond 746, e^-x (and E_n below it) underflows to 0
    let out = fill(&out, &x.f_gt(746.0)?, 0.0)?;
    fill(&out, &bad, f64::NAN)
}
