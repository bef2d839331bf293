//! The gamma function family (Cephes' `gamma.c`, `psi.c`; SciPy's `_basic.py` for
//! polygamma, multigammaln and factorial): gamma, gammaln, loggamma, digamma/psi,
//! polygamma, multigammaln, factorial.

use std::f64::consts::PI;

use tch::{Kind, Tensor};

use super::constants::*;
use super::faddeeva::is_complex;
use super::helpers::*;
use super::loops::{complex_not_implemented, finish, is_integer};
use super::ufuncs::Ufunc;
use super::xsf_complex::xsf_complex;
use super::zeta::hurwitz_zeta_f64;
use crate::ffi::xsf_complex::XsfComplex;
use crate::ops::autograd::{records_grad, with_derivatives};
use crate::ops::numpy::{broadcast, cast, same_device};
use crate::ops::scipy_float_input;
use crate::{dlpack, DType, Error, Result};

/// Gamma(y) for y >= 10 by Stirling's series, the power split as
/// `v * (v * e^-y)` with `v = y^(y/2 - 1/4)` so that it overflows only when
/// Gamma does. A few ulp.
pub(super) fn gamma_stirling(y: &Tensor) -> Result<Tensor> {
    let series = horner(&y.f_reciprocal()?, &STIRLING_GAMMA)?;
    let v = y.f_pow(&y.f_mul_scalar(0.5)?.f_sub_scalar(0.25)?)?;
    let e = y.f_neg()?.f_exp()?;
    Ok(v.f_mul(&v.f_mul(&e)?)?.f_mul(&series)?.f_mul_scalar(SQRT_2PI)?)
}

/// Gamma(y) for y >= 0 (and nan).
///
/// Below 10 the argument is reduced into [1, 2) by exact subtractions (or one
/// addition for y < 1, where Gamma(1 + y) is insensitive to it), Gamma there is
/// `exp(lgamma)` with lgamma in [-0.13, 0]; at 10 and above Stirling's series.
/// At the integers, the correctly rounded factorials.
pub(super) fn gamma_nonneg(y: &Tensor) -> Result<Tensor> {
    let out = gamma_stirling(&y.f_clamp_min(10.0)?)?;
    let out = patch(out, &y.f_lt(10.0)?, &[y], |v| {
        let y = &v[0];
        let small = y.f_lt(1.0)?;
        let mut t = pick(&small, &y.f_add_scalar(1.0)?, y)?;
        let mut product = full(y, 1.0)?;
        for _ in 0..8 {
            let step = and(&t.f_ge(2.0)?, &t.f_lt(10.0)?)?;
            t = pick(&step, &t.f_sub_scalar(1.0)?, &t)?;
            product = pick(&step, &product.f_mul(&t)?, &product)?;
        }
        let middle = t.f_lgamma()?.f_exp()?.f_mul(&product)?;
        pick(&small, &middle.f_div(y)?, &middle)
    })?;
    let exact = and(&is_integral(y)?, &and(&y.f_ge(1.0)?, &y.f_le(171.0)?)?)?;
    let index = pick(&exact, y, &full(y, 1.0)?)?.f_sub_scalar(1.0)?.f_to_kind(Kind::Int64)?;
    let table = Tensor::f_from_slice(&FACTORIALS)?.f_to(y.device())?;
    let factorial = table.f_index_select(0, &index.f_reshape([-1])?)?.f_reshape(y.size())?;
    let out = pick(&exact, &factorial, &out)?;
    fill(&out, &y.f_gt(MAX_GAMMA_ARG)?, f64::INFINITY)
}

/// Gamma on float64: the reflection `pi / (sin(pi x) (-x) Gamma(-x))` for
/// x < 0 (with `-x` exact, unlike `1 - x`), nan at the poles -1, -2, ... and at
/// -inf, `±inf` at `±0`.
pub(super) fn gamma_f64(x: &Tensor) -> Result<Tensor> {
    let negative = x.f_lt(0.0)?;
    let y = x.f_abs()?;
    let g = gamma_nonneg(&y)?;
    let reflected = y.f_mul(&g)?.f_mul(&sinpi(x)?)?.f_reciprocal()?.f_mul_scalar(PI)?;
    let out = pick(&negative, &reflected, &g)?;
    // just below 0, Gamma(1 + x) / x: the reflection's product underflows there
    let tiny = and(&negative, &x.f_gt(-1e-8)?)?;
    let out = patch(out, &tiny, &[x], |v| Ok(gamma_nonneg(&v[0].f_add_scalar(1.0)?)?.f_div(&v[0])?))?;
    let out = fill(&out, &and(&negative, &is_integral(x)?)?, f64::NAN)?;
    pick(&x.f_eq(0.0)?, &x.f_reciprocal()?, &out)
}

/// The sign of Gamma(x): 1 for x > 0, `(-1)^floor(x)` for negative non-integers
/// (1 at the poles, where callers decide separately).
pub(super) fn gamma_sign(x: &Tensor) -> Result<Tensor> {
    let odd = and(&x.f_lt(0.0)?, &is_odd(&x.f_floor()?)?)?;
    fill(&full(x, 1.0)?, &odd, -1.0)
}

/// The gamma function, `scipy.special.gamma` (real input): relative error
/// about 1e-15, correctly rounded factorials at the integers, `±inf` at `±0`,
/// nan at the negative integers and -inf, signed zeros below -171.
pub(super) fn gamma(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("gamma", XsfComplex::Gamma, x);
    }
    gamma_f64(x)
}

/// `log|Gamma(x)|`, `scipy.special.gammaln`.
///
/// libtorch's `lgamma(-inf)` is `+inf`; SciPy returns `-inf` (the limit of
/// `log|Gamma|` between the poles), and so does this. Float64 CPU input that
/// carries no gradient takes SciPy's own algorithm (Cephes' `lgam`,
/// `csrc/gammaln.cpp`) in one pass, except beside the zeros at 1 and 2 and
/// below 1e-300 (the C library's `lgamma`, libtorch's, more accurate there);
/// the rest libtorch's `lgamma`.
pub(super) fn gammaln(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    let x = scipy_float_input(u.qualified, x, false)?;
    if x.f_kind()? == Kind::Double && x.device() == tch::Device::Cpu && !records_grad(&x) {
        // SciPy's Cephes lgam in one pass (csrc/gammaln.cpp)
        let x = x.f_contiguous()?;
        let mut out = x.f_empty_like()?;
        crate::ffi::gammaln::gammaln_cpu(&x, &mut out)?;
        return Ok(out);
    }
    let at_minus_inf = x.f_eq(f64::NEG_INFINITY)?;
    Ok(x.f_lgamma()?.f_masked_fill(&at_minus_inf, f64::NEG_INFINITY)?)
}

/// The principal branch of `log(Gamma(x))` for real x, `scipy.special.loggamma`:
/// `lgamma(x)` for x >= 0 and nan for x < 0, as SciPy's real loop.
pub(super) fn loggamma(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("loggamma", XsfComplex::Loggamma, x);
    }
    fill(&x.f_lgamma()?, &x.f_lt(0.0)?, f64::NAN)
}

/// Digamma on y >= 0: the recurrence up to 10, then the asymptotic series; the
/// Taylor series about the zero 1.4616... where the recurrence cancels
/// (libtorch's digamma is 1e-9 relative off there).
pub(super) fn digamma_nonneg(y: &Tensor) -> Result<Tensor> {
    let mut z = y.shallow_clone();
    let mut sum = y.f_zeros_like()?;
    for _ in 0..10 {
        let step = z.f_lt(10.0)?;
        sum = pick(&step, &sum.f_add(&z.f_reciprocal()?)?, &sum)?;
        z = pick(&step, &z.f_add_scalar(1.0)?, &z)?;
    }
    let tail = horner(&z.f_square()?.f_reciprocal()?, &DIGAMMA_ASYMPTOTIC)?;
    let psi = z.f_log()?.f_sub(&z.f_reciprocal()?.f_mul_scalar(0.5)?)?.f_sub(&tail)?.f_sub(&sum)?;
    let near = y.f_sub_scalar(DIGAMMA_POS_ROOT)?.f_abs()?.f_lt(0.3)?;
    patch(psi, &near, &[y], |s| horner(&s[0].f_sub_scalar(DIGAMMA_POS_ROOT)?, &DIGAMMA_POS))
}

pub(super) fn digamma_f64(x: &Tensor) -> Result<Tensor> {
    let negative = x.f_lt(0.0)?;
    let y = x.f_abs()?;
    let psi = digamma_nonneg(&y)?;
    // x < 0: psi(x) = psi(1 - x) - pi / tan(pi x) = psi(-x) + 1/(-x) - pi / tan(pi r)
    let r = x.f_sub(&x.f_round()?)?;
    let cot = r.f_mul_scalar(PI)?.f_tan()?.f_reciprocal()?.f_mul_scalar(PI)?;
    let reflected = psi.f_add(&y.f_reciprocal()?)?.f_sub(&cot)?;
    let out = pick(&negative, &reflected, &psi)?;
    // just below 0, psi(1 + x) - 1/x: the reflection's terms are both infinite there
    let tiny = and(&negative, &x.f_gt(-1e-8)?)?;
    let out = patch(out, &tiny, &[x], |v| Ok(digamma_nonneg(&v[0].f_add_scalar(1.0)?)?.f_sub(&v[0].f_reciprocal()?)?))?;
    let out = fill(&out, &and(&negative, &is_integral(x)?)?, f64::NAN)?;
    let out = pick(&x.f_eq(0.0)?, &x.f_reciprocal()?.f_neg()?, &out)?;
    let near = x.f_sub_scalar(DIGAMMA_NEG_ROOT)?.f_abs()?.f_lt(0.1)?;
    patch(out, &near, &[x], |s| horner(&s[0].f_sub_scalar(DIGAMMA_NEG_ROOT)?, &DIGAMMA_NEG))
}

/// The digamma function `psi = Gamma'/Gamma`, `scipy.special.digamma` (real
/// input): recurrence and asymptotic series, reflection below 0, Taylor series
/// about the zeros at 1.4616 and -0.5041 (as SciPy), `psi(±0) = ∓inf`, nan at
/// the negative integers.
pub(super) fn digamma(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("digamma", XsfComplex::Digamma, x);
    }
    digamma_f64(x)
}

/// `scipy.special.psi`, the same function as [`digamma`].
pub(super) fn psi(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("psi", XsfComplex::Digamma, x);
    }
    digamma_f64(x)
}

/// The polygamma function, `scipy.special.polygamma` (a Python function in
/// SciPy): `psi(x)` where `n == 0`, else `(-1)^(n+1) Gamma(n+1) zeta(n+1, x)`,
/// SciPy's own formula, so non-integer `n` gives nan as there. The result is
/// float32 only when `n` and `x` are both float32, as SciPy's.
pub fn polygamma(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    guarded(|| {
        let n_dtype = dlpack::dtype_of(n)?;
        let x_dtype = dlpack::dtype_of(x)?;
        for dtype in [n_dtype, x_dtype] {
            if dtype.is_complex() {
                return Err(complex_not_implemented("special.polygamma", dtype));
            }
        }
        let output =
            if n_dtype == DType::Float32 && x_dtype == DType::Float32 { DType::Float32 } else { DType::Float64 };
        let tensors = broadcast(same_device(vec![cast(n, DType::Float64)?, cast(x, DType::Float64)?])?)?;
        let (n, x) = (&tensors[0], &tensors[1]);
        let n1 = n.f_add_scalar(1.0)?;
        let sign = Tensor::f_pow_scalar(-1.0, &n1)?;
        let value = sign.f_mul(&gamma_f64(&n1)?)?.f_mul(&hurwitz_zeta_f64(&n1, x)?)?;
        let out = pick(&n.f_eq(0.0)?, &digamma_f64(x)?, &value)?;
        finish(out, output)
    })
}

/// The log of the multivariate gamma function, `scipy.special.multigammaln(a, d)`:
/// `d(d-1)/4 log(pi) + sum_j gammaln(a - (j-1)/2)`. SciPy's checks: `d` a
/// non-negative integer count, every `a > (d-1)/2` (else
/// [`Error::InvalidArgument`], SciPy's `ValueError`). Always float64.
pub fn multigammaln(a: &Tensor, d: i64) -> Result<Tensor> {
    guarded(|| {
        if let Some(dtype) = Some(dlpack::dtype_of(a)?).filter(|d| d.is_complex()) {
            return Err(complex_not_implemented("special.multigammaln", dtype));
        }
        let a = cast(a, DType::Float64)?;
        let bound = 0.5 * (d as f64 - 1.0);
        if a.numel() > 0 && a.f_le(bound)?.f_any()?.f_int64_value(&[])? != 0 {
            return Err(Error::InvalidArgument(format!("condition a > 0.5 * (d-1) ({bound}) not met")));
        }
        let constant = (d as f64) * (d as f64 - 1.0) * 0.25 * PI.ln();
        if d <= 0 || a.numel() == 0 {
            return Ok(a.f_zeros_like()?.f_add_scalar(constant)?);
        }
        // All d terms of every element at once, as SciPy holds them: a d too
        // large for memory is SciPy's MemoryError (libtorch's allocation failure
        // maps to it), and a product beyond i64 is refused before allocating.
        let elements = i64::try_from(a.numel()).unwrap_or(i64::MAX);
        d.checked_mul(elements)
            .and_then(|n| n.checked_mul(8))
            .ok_or_else(|| Error::out_of_memory(d as u128 * elements as u128 * 8, "multigammaln's terms"))?;
        // No scalar-argument libtorch call touches the d-sized tensors: tch's
        // `Scalar` is freed before the allocation error is read, which panics.
        let device = a.device();
        let counts = Tensor::f_ones([d], (Kind::Double, device))?.f_cumsum(0, Kind::Double)?;
        let one = Tensor::f_from_slice(&[1.0f64])?.f_to(device)?;
        let half = Tensor::f_from_slice(&[0.5f64])?.f_to(device)?;
        let halves = counts.f_sub(&one)?.f_mul(&half)?; // (j - 1) / 2 for j = 1..=d
        let terms = a.f_reshape([-1, 1])?.f_sub(&halves.f_reshape([1, -1])?)?.f_lgamma()?;
        let sum = terms.f_sum_dim_intlist([1i64].as_slice(), false, None::<Kind>)?;
        Ok(sum.f_reshape(a.size())?.f_add_scalar(constant)?)
    })
}

/// How `factorial` extends to non-integers and negatives (SciPy's `extend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactorialExtend {
    /// `n < 0` gives 0 (SciPy's default).
    Zero,
    /// `Gamma(n + 1)` everywhere, nan at the negative integers.
    Complex,
}

impl std::str::FromStr for FactorialExtend {
    type Err = Error;

    /// SciPy's `extend` values, with SciPy's message for the others.
    fn from_str(value: &str) -> Result<Self> {
        match value {
            "zero" => Ok(FactorialExtend::Zero),
            "complex" => Ok(FactorialExtend::Complex),
            other => Err(Error::InvalidArgument(format!(
                "argument `extend` must be either 'zero' or 'complex', received: {other}"
            ))),
        }
    }
}

/// `n!` as `Gamma(n + 1)` in float64, `scipy.special.factorial(n, exact=False,
/// extend)`: correctly rounded at the integers, nan kept, 0 for `n < 0` with
/// [`FactorialExtend::Zero`], nan at `n = -1, -2, ...` with `Complex`.
pub fn factorial(n: &Tensor, extend: FactorialExtend) -> Result<Tensor> {
    guarded(|| {
        if let Some(dtype) = Some(dlpack::dtype_of(n)?).filter(|d| d.is_complex()) {
            return Err(complex_not_implemented("special.factorial", dtype));
        }
        let n = cast(n, DType::Float64)?;
        let value = gamma_f64(&n.f_add_scalar(1.0)?)?;
        match extend {
            FactorialExtend::Zero => fill(&value, &n.f_lt(0.0)?, 0.0),
            FactorialExtend::Complex => fill(&value, &and(&n.f_lt(0.0)?, &is_integral(&n)?)?, f64::NAN),
        }
    })
}

/// `n!` exactly for integer `n` (`exact=True`), as int64: 0 for `n < 0`, and an
/// error beyond 20! (SciPy returns Python integers there, which no array holds).
pub fn factorial_exact(n: &Tensor) -> Result<Tensor> {
    guarded(|| {
        let dtype = dlpack::dtype_of(n)?;
        if !is_integer(dtype) {
            return Err(Error::InvalidArgument(format!(
                "`exact=True` only supports integers, cannot use data type {dtype}"
            )));
        }
        let n = cast(n, DType::Int64)?;
        if n.numel() > 0 && n.f_gt(20)?.f_any()?.f_int64_value(&[])? != 0 {
            return Err(Error::NotImplemented(
                "special.factorial(exact=True) beyond 20! needs Python integers (SciPy returns an object array), \
             which no DLPack array holds"
                    .into(),
            ));
        }
        let table: Vec<i64> = (0..=20)
            .scan(1i64, |acc, k| {
                if k > 0 {
                    *acc *= k;
                }
                Some(*acc)
            })
            .collect();
        let table = Tensor::f_from_slice(&table)?.f_to(n.device())?;
        let index = n.f_clamp(0, 20)?;
        let out = table.f_index_select(0, &index.f_reshape([-1])?)?.f_reshape(n.size())?;
        Ok(out.f_masked_fill(&n.f_lt(0)?, 0)?)
    })
}

/// `1 / Gamma(x)`, `scipy.special.rgamma` (real input): `x / Gamma(1 + x)` on
/// (0, 1) (exact for subnormal x), `1 / Gamma(x)` up to 171.6 and
/// `exp(-lgamma(x))` beyond, where it underflows; below 0 the reflection
/// `Gamma(1 - x) sin(pi x) / pi` with `Gamma(1 - x) = -x Gamma(-x)` (exact
/// zeros at the poles, `±inf` where it overflows below -171.6); `±0` at `±0`,
/// 0 at `±inf`.
pub(super) fn rgamma(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("rgamma", XsfComplex::Rgamma, x);
    }
    let positive = x.f_gt(0.0)?;
    let small = and(&positive, &x.f_lt(1.0)?)?;
    let out = gamma_f64(x)?.f_reciprocal()?;
    let out = patch(out, &small, &[x], |v| Ok(v[0].f_div(&gamma_nonneg(&v[0].f_add_scalar(1.0)?)?)?))?;
    let out =
        patch(out, &and(&positive, &x.f_gt(MAX_GAMMA_ARG)?)?, &[x], |v| Ok(v[0].f_lgamma()?.f_neg()?.f_exp()?))?;
    let out = patch(out, &x.f_lt(0.0)?, &[x], |v| {
        let x = &v[0];
        let y = x.f_neg()?;
        let sine = sinpi(x)?.f_mul_scalar(1.0 / PI)?;
        // -1 < x < 0: Gamma(1 - x) sin(pi x) / pi; below, Gamma(-x) (-x sin(pi x) / pi)
        // with -x exact, multiplied in the order that overflows only with the result
        let above = gamma_nonneg(&y.f_add_scalar(1.0)?)?.f_mul(&sine)?;
        let below = gamma_nonneg(&y)?.f_mul(&y.f_mul(&sine)?)?;
        let value = pick(&y.f_lt(1.0)?, &above, &below)?;
        fill(&value, &is_integral(x)?, 0.0)
    })?;
    let out = pick(&x.f_eq(0.0)?, x, &out)?;
    fill(&out, &x.f_isinf()?, 0.0)
}

/// The sign of the gamma function, `scipy.special.gammasgn`: 1 above 0 (and
/// at +0 and inf), -1 at -0, `(-1)^ceil(-x)` between the poles, nan at the
/// poles, -inf and nan.
pub(super) fn gammasgn(x: &Tensor) -> Result<Tensor> {
    let out = gamma_sign(x)?;
    let out = fill(&out, &and(&x.f_eq(0.0)?, &x.f_signbit()?)?, -1.0)?;
    let poles = and(&x.f_lt(0.0)?, &is_integral(x)?)?;
    fill(&out, &or(&poles, &x.f_isnan()?)?, f64::NAN)
}

/// Stirling's correction `sum B_2k / (2k (2k-1) y^(2k-1))` of `ln Gamma(y)`
/// (DLMF 5.11.1), for y >= 10 (below 1e-17 after these eight terms).
fn stirling_correction(y: &Tensor) -> Result<Tensor> {
    const C: [f64; 8] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360_360.0,
        1.0 / 156.0,
        -3617.0 / 122_400.0,
    ];
    let inverse = y.f_reciprocal()?;
    Ok(horner(&inverse.f_square()?, &C)?.f_mul(&inverse)?)
}

/// `Gamma(b) / Gamma(a)` for `a, b >= 10`, `b = a + m`, from the difference
/// of Stirling's series taken term by term, `(a - 1/2) log1p(m / a) + m ln b
/// - m + S(b) - S(a)`, so that nothing overflows and no large logarithm
/// cancels (the relative error is `eps` times the logarithm of the result).
fn gamma_ratio_large(a: &Tensor, m: &Tensor) -> Result<Tensor> {
    let b = a.f_add(m)?;
    let log = a
        .f_sub_scalar(0.5)?
        .f_mul(&m.f_div(a)?.f_log1p()?)?
        .f_add(&m.f_mul(&b.f_log()?)?)?
        .f_sub(m)?
        .f_add(&stirling_correction(&b)?.f_sub(&stirling_correction(a)?)?)?;
    Ok(log.f_exp()?)
}

/// Whether x is 0 or a negative integer (Cephes' `is_nonpos_int`, which
/// stops at |x| = 1e13).
fn nonpositive_integer(x: &Tensor) -> Result<Tensor> {
    and(&and(&x.f_le(0.0)?, &is_integral(x)?)?, &x.f_abs()?.f_lt(1e13)?)
}

/// Pochhammer's symbol `(a)_m = Gamma(a + m) / Gamma(a)`, `scipy.special.poch`.
///
/// `a + m` is taken with its rounding error (Cephes keeps it exact by taking
/// integers off m first), corrected through `psi(a + m)`.
/// Where both gammas are finite (|a|, |a + m| <= 170) their quotient (a few
/// ulp); for `a, a + m >= 10` beyond, the difference of Stirling's series
/// ([`gamma_ratio_large`]); elsewhere `exp(lgamma(a + m) - lgamma(a))` with
/// the signs, as Cephes. Cephes' rules at the poles: 1 for m = 0, `inf` where
/// only `a + m` is a pole, 0 where only `a` is, `(-1)^m Gamma(1 - a) /
/// Gamma(1 - a - m)` where both are.
///
/// Derivatives `(a)_m (psi(a + m) - psi(a))` and `(a)_m psi(a + m)`: autograd
/// through the rounding-error correction and the pole rules gives nan in `m`.
pub(super) fn poch(a: &Tensor, m: &Tensor) -> Result<Tensor> {
    let in_a = |v: &Tensor| Ok(v.f_mul(&a.f_add(m)?.f_digamma()?.f_sub(&a.f_digamma()?)?)?);
    let in_m = |v: &Tensor| Ok(v.f_mul(&a.f_add(m)?.f_digamma()?)?);
    with_derivatives(|| poch_value(a, m), &[(a, &in_a), (m, &in_m)])
}

fn poch_value(a: &Tensor, m: &Tensor) -> Result<Tensor> {
    let b = a.f_add(m)?;
    // the rounding error of a + m (Knuth's two-sum): near a pole of Gamma(a + m)
    // it costs |psi(a + m)| ulps (8e-11 at -22.99998), for large a + m ln(a + m) ulps
    let bb = b.f_sub(a)?;
    let b_lo = a.f_sub(&b.f_sub(&bb)?)?.f_add(&m.f_sub(&bb)?)?;
    let b_lo = fill(&b_lo, &not(&b_lo.f_isfinite()?)?, 0.0)?;
    let a_pole = nonpositive_integer(a)?;
    let b_pole = nonpositive_integer(&b)?;
    let ratio = gamma_f64(&b)?.f_div(&gamma_f64(a)?)?;
    let in_range = and(&a.f_abs()?.f_le(170.0)?, &b.f_abs()?.f_le(170.0)?)?;
    let logs = b.f_lgamma()?.f_sub(&a.f_lgamma()?)?.f_exp()?.f_mul(&gammasgn(&b)?)?.f_mul(&gammasgn(a)?)?;
    let out = pick(&in_range, &ratio, &logs)?;
    let large = and(&not(&in_range)?, &and(&a.f_ge(10.0)?, &b.f_ge(10.0)?)?)?;
    let large = and(&large, &and(&a.f_isfinite()?, &b.f_isfinite()?)?)?;
    let out = patch(out, &large, &[a, m], |v| gamma_ratio_large(&v[0], &v[1]))?;
    // Gamma(b + b_lo) = Gamma(b) e^(psi(b) b_lo), to first order
    let before = out.shallow_clone();
    // (not on the large path, whose log1p(m / a) takes m exactly)
    // (nor where the quotient overflowed or underflowed: a correction of inf or 0 is none)
    let finite = and(&before.f_isfinite()?, &before.f_ne(0.0)?)?;
    let correct = and(&and(&b_lo.f_ne(0.0)?, &not(&large)?)?, &finite)?;
    let out =
        patch(out, &correct, &[&before, &b, &b_lo], |v| Ok(v[0].f_mul(&digamma_f64(&v[1])?.f_mul(&v[2])?.f_exp()?)?))?;
    // both poles, m integral: (a)_m = (-1)^m Gamma(1 - a) / Gamma(1 - b),
    // 1 - a and 1 - b >= 1 (Cephes gives nan for fractional m there)
    let both = and(&and(&a_pole, &b_pole)?, &is_integral(m)?)?;
    let out = patch(out, &both, &[a, &b, m], |v| {
        let (u, w) = (v[0].f_neg()?.f_add_scalar(1.0)?, v[1].f_neg()?.f_add_scalar(1.0)?);
        let value = pick(
            &and(&u.f_le(170.0)?, &w.f_le(170.0)?)?,
            &gamma_nonneg(&u)?.f_div(&gamma_nonneg(&w)?)?,
            &u.f_lgamma()?.f_sub(&w.f_lgamma()?)?.f_exp()?,
        )?;
        pick(&is_odd(&v[2])?, &value.f_neg()?, &value)
    })?;
    // infinities as Cephes' loops leave them: m = inf gives the sign of
    // Gamma(a) times inf; a = inf gives inf for 0 < m <= 2, 0 for -2 <= m < 0
    // (`a^m` after one step of the loop), nan beyond (lgamma(inf) - lgamma(inf))
    let signed_inf = gammasgn(a)?.f_mul_scalar(f64::INFINITY)?;
    let out = pick(&and(&m.f_isposinf()?, &a.f_isfinite()?)?, &signed_inf, &out)?;
    let out = pick(&a.f_isposinf()?, &Tensor::f_pow_scalar(f64::INFINITY, m)?, &out)?;
    let nan = or(&m.f_isneginf()?, &and(&a.f_isposinf()?, &m.f_abs()?.f_gt(2.0)?)?)?;
    let nan = or(&nan, &or(&a.f_isneginf()?, &any_nan(a, m)?)?)?;
    let out = fill(&out, &nan, f64::NAN)?;
    // small integral m: the product Cephes' loops compute, exact to a few ulp
    // for any a (a = -1e300, a = 1e-300 next to m = -2, ...)
    // (infinite a only for |m| = 1, where Cephes' loop stops at the first factor)
    let small = and(&and(&is_integral(m)?, &m.f_abs()?.f_le(POCH_PRODUCT_STEPS as f64)?)?, &m.f_ne(0.0)?)?;
    let small = and(&small, &or(&a.f_isfinite()?, &m.f_abs()?.f_eq(1.0)?)?)?;
    let out = patch(out, &small, &[a, m], |v| {
        let (a, m) = (&v[0], &v[1]);
        let mut rising = a.f_ones_like()?; // prod_(k<m) (a + k) for m > 0
        let mut falling = a.f_ones_like()?; // prod_(k=1..-m) (a - k) for m < 0
        for k in 0..POCH_PRODUCT_STEPS {
            let k = k as f64;
            rising = pick(&m.f_gt(k)?, &rising.f_mul(&a.f_add_scalar(k)?)?, &rising)?;
            falling = pick(&m.f_neg()?.f_gt(k)?, &falling.f_mul(&a.f_sub_scalar(k + 1.0)?)?, &falling)?;
        }
        pick(&m.f_gt(0.0)?, &rising, &falling.f_reciprocal()?)
    })?;
    // Cephes' rules at the poles come before nan and infinite m: a pole of
    // Gamma(a + m) alone gives inf (where a + m != m), a pole of Gamma(a) alone 0
    let out = fill(&out, &and(&and(&b_pole, &not(&a_pole)?)?, &b.f_ne_tensor(m)?)?, f64::INFINITY)?;
    let out = fill(&out, &and(&a_pole, &not(&b_pole)?)?, 0.0)?;
    let out = fill(&out, &and(&and(&a_pole, &b_pole)?, &not(&is_integral(m)?)?)?, f64::NAN)?;
    fill(&out, &m.f_eq(0.0)?, 1.0)
}

/// The largest |m| for which [`poch`] multiplies out `(a)_m`.
const POCH_PRODUCT_STEPS: usize = 30;

#[cfg(test)]
mod tests {
    use tch::Tensor;

    use crate::ffi::gammaln::{gammaln_cpu_by, gammaln_vectorized};

    /// The AVX-512 kernel (where this machine has it) gives the scalar loop's
    /// bits: every regime and its boundaries (the reflection below -34, the
    /// poles, the recurrence's trip counts, [2, 3), Stirling's three forms
    /// from 13, the overflow), near_libm's cases, non-finite input, every
    /// tail length and block boundary of the compaction.
    #[test]
    fn gammaln_vectorized_kernel_gives_the_scalar_loops_bits() {
        if !gammaln_vectorized() {
            return;
        }
        let mut grid = vec![
            f64::NAN,
            f64::NEG_INFINITY,
            f64::INFINITY,
            -0.0,
            0.0,
            5e-324,
            -5e-324,
            1e-300,
            -1e-300,
            1.5e-300,
            2.556348e305,
            2.5563481e305,
            1e306,
            f64::MAX,
        ];
        for b in
            [-34.5f64, -34.0, -33.5, -1.0, 0.5, 0.875, 1.0, 1.125, 1.875, 2.0, 2.125, 3.0, 4.0, 12.0, 13.0, 1000.0, 1e8]
        {
            for k in -3..=3 {
                grid.push(b + k as f64 * b.abs() * f64::EPSILON);
            }
        }
        for i in 0..4000 {
            // a deterministic spread over [-40, 60] and, every tenth, up to 1e12
            let t = (i as f64 * 0.6180339887498949).fract();
            grid.push(if i % 10 == 9 { 10f64.powf(12.0 * t) } else { -40.0 + 100.0 * t });
        }
        for len in (1..=17).chain([255, 256, 257, 511, grid.len()]) {
            let x = Tensor::from_slice(&grid[grid.len() - len..]);
            let mut want = x.empty_like();
            let mut got = x.empty_like();
            gammaln_cpu_by(&x, &mut want, false).unwrap();
            gammaln_cpu_by(&x, &mut got, true).unwrap();
            let (want, got) = (Vec::<f64>::try_from(&want).unwrap(), Vec::<f64>::try_from(&got).unwrap());
            for ((w, g), x) in want.iter().zip(&got).zip(&grid[grid.len() - len..]) {
                assert!(w.to_bits() == g.to_bits(), "gammaln({x:e}): {g:e}, the scalar loop's {w:e}");
            }
        }
    }
}
