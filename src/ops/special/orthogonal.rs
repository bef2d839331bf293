//! Orthogonal polynomials of integer degree (SciPy's `orthogonal_eval.pxd`):
//! eval_chebyt, eval_chebyu, eval_hermite, eval_hermitenorm, eval_laguerre,
//! eval_legendre, the shifted eval_sh_legendre, eval_sh_chebyt, eval_sh_chebyu.

use tch::{Kind, Tensor};

use super::helpers::*;
use super::hypergeometric::complex_on_cpu;
use super::loops::{finish, prepare};
use super::ufuncs::Ufunc;
use crate::ffi::hypergeometric::HypergeometricComplexKind as Complex;
use crate::{dlpack, DType, Error, Result};

/// The largest degree |n| evaluated (2^24: a recurrence of that many steps).
const MAX_DEGREE: f64 = 16_777_216.0;

/// How a polynomial family extends to negative integer degrees (SciPy's rules).
#[derive(Clone, Copy)]
enum NegativeDegree {
    /// `T_-n = T_n`.
    Abs,
    /// `U_-n = -U_(n-2)`.
    ChebyshevU,
    /// `P_-n = P_(n-1)`.
    Legendre,
    /// nan.
    Nan,
    /// 0 (libtorch's own rule).
    Zero,
}

/// An orthogonal polynomial of integer degree by libtorch's kernel, with
/// SciPy's rules for negative degrees. Real-valued degrees (SciPy's `dd->d`
/// loops) must be integral: SciPy evaluates other degrees through
/// hypergeometric functions, which libtorch lacks.
fn eval_poly(
    u: &'static Ufunc,
    n: &Tensor,
    x: &Tensor,
    negative: NegativeDegree,
    kernel: fn(&Tensor, &Tensor) -> std::result::Result<Tensor, tch::TchError>,
    shifted: bool,
    complex: Option<Complex>,
) -> Result<Tensor> {
    let args = prepare(u, &[n, x])?;
    if let Some(kind) = complex {
        if let Some(out) = complex_loop(&args.tensors, kind)? {
            return finish(out, args.output);
        }
    }
    let n = &args.tensors[0];
    // the shifted polynomials are SciPy's `eval_<family>(n, 2 x - 1)`
    let shifted_x =
        if shifted { args.tensors[1].f_mul_scalar(2.0)?.f_sub_scalar(1.0)? } else { args.tensors[1].shallow_clone() };
    let x = &shifted_x;
    let integer_loop = dlpack::dtype_of(n)? == DType::Int64;
    let (n, mut invalid) = if integer_loop {
        (n.f_to_kind(Kind::Double)?, x.f_zeros_like()?.f_to_kind(Kind::Bool)?)
    } else {
        let finite = n.f_isfinite()?;
        let fractional = and(&finite, &not(&is_integral(n)?)?)?;
        if fractional.numel() > 0 && fractional.f_any()?.f_int64_value(&[])? != 0 {
            return Err(Error::NotImplemented(format!(
                "{} with a non-integer degree n is not implemented (SciPy evaluates it \
                 through hypergeometric functions, which libtorch lacks); integral degrees work",
                u.qualified
            )));
        }
        // SciPy's real-degree loops give nan for infinite n
        let invalid = not(&finite)?;
        (fill(n, &not(&finite)?, 0.0)?, invalid)
    };
    // libtorch's recurrences take |n| steps per element (as SciPy's do): a
    // degree beyond MAX_DEGREE would run for hours, so it is refused.
    let beyond = n.f_abs()?.f_gt(MAX_DEGREE)?.f_logical_and(&n.f_isfinite()?)?;
    if beyond.numel() > 0 && beyond.f_any()?.f_int64_value(&[])? != 0 {
        return Err(Error::NotImplemented(format!(
            "{} with a degree |n| above {MAX_DEGREE} is not implemented (the recurrence takes |n| steps)",
            u.qualified
        )));
    }
    let negative_n = n.f_lt(0.0)?;
    let degree = match negative {
        NegativeDegree::Abs => n.f_abs()?,
        NegativeDegree::ChebyshevU => pick(&negative_n, &n.f_neg()?.f_sub_scalar(2.0)?, &n)?,
        NegativeDegree::Legendre => pick(&negative_n, &n.f_neg()?.f_sub_scalar(1.0)?, &n)?,
        NegativeDegree::Nan | NegativeDegree::Zero => n.shallow_clone(),
    };
    let mut out = kernel(x, &degree)?;
    out = overflowed(out, negative, &degree, x)?;
    out = nonfinite_x(out, negative, integer_loop, &n, &degree, x)?;
    match negative {
        NegativeDegree::ChebyshevU => {
            // U_-1 = 0; U_-n = -U_(n-2)
            out = pick(&negative_n, &out.f_neg()?, &out)?;
            out = fill(&out, &n.f_eq(-1.0)?, 0.0)?;
            if !integer_loop {
                // SciPy's hypergeometric form of U_-1 is nan outside [-1, 1]
                let outside = not(&x.f_abs()?.f_le(1.0)?)?;
                out = fill(&out, &and(&n.f_eq(-1.0)?, &outside)?, f64::NAN)?;
            }
        }
        NegativeDegree::Nan => out = fill(&out, &negative_n, f64::NAN)?,
        NegativeDegree::Zero if !integer_loop => invalid = or(&invalid, &negative_n)?,
        _ => {}
    }
    finish(fill(&out, &invalid, f64::NAN)?, args.output)
}

/// SciPy's complex loops (`dD->D`, `ddD->D`, `dddD->D`): the kernel of
/// `csrc/hypergeometric_complex.h` on the loop's inputs when the argument
/// (the last) is complex; `None` for the real loops.
fn complex_loop(tensors: &[Tensor], kind: Complex) -> Result<Option<Tensor>> {
    let last = &tensors[tensors.len() - 1];
    if !dlpack::dtype_of(last)?.is_complex() {
        return Ok(None);
    }
    let refs: Vec<&Tensor> = tensors.iter().collect();
    Ok(Some(complex_on_cpu(&refs, kind)?))
}

/// `±inf`, the sign of the leading term (`sign(x)^n`, `sign(-x)^n` for
/// Laguerre), where libtorch's recurrence overflowed into `inf - inf` at a
/// large finite `x`. SciPy's own recurrences give nan there as often as inf.
fn overflowed(out: Tensor, family: NegativeDegree, degree: &Tensor, x: &Tensor) -> Result<Tensor> {
    let lost = and(&out.f_isnan()?, &x.f_isfinite()?)?;
    let base = if matches!(family, NegativeDegree::Zero) { x.f_neg()? } else { x.shallow_clone() };
    let negative = and(&base.f_lt(0.0)?, &is_odd(degree)?)?;
    let infinity = pick(&negative, &full(x, f64::NEG_INFINITY)?, &full(x, f64::INFINITY)?)?;
    pick(&lost, &infinity, &out)
}

/// SciPy's values at `x = nan, ±inf`, which follow its recurrences (libtorch's
/// kernels return garbage for nan `x` and degrees from 2). Integer degrees:
/// exactly SciPy's. Real-valued degrees: nan except for constant polynomials
/// (SciPy gives ±inf for a few degrees below 3 there, which is not copied).
fn nonfinite_x(
    out: Tensor,
    family: NegativeDegree,
    integer_loop: bool,
    n: &Tensor,
    degree: &Tensor,
    x: &Tensor,
) -> Result<Tensor> {
    let nan_x = x.f_isnan()?;
    let pinf = x.f_isposinf()?;
    let ninf = x.f_isneginf()?;
    let nonfinite = not(&x.f_isfinite()?)?;
    let constant = degree.f_eq(0.0)?;
    if !integer_loop {
        let out = fill(&out, &nonfinite, f64::NAN)?;
        return match family {
            NegativeDegree::Abs | NegativeDegree::Legendre => fill(&out, &and(&nonfinite, &constant)?, 1.0),
            NegativeDegree::ChebyshevU => {
                let out = fill(&out, &and(&nonfinite, &n.f_eq(0.0)?)?, 1.0)?;
                fill(&out, &and(&nonfinite, &n.f_eq(-2.0)?)?, -1.0)
            }
            NegativeDegree::Zero => fill(&out, &and(&ninf, &n.f_eq(0.0)?)?, 1.0),
            NegativeDegree::Nan => Ok(out),
        };
    }
    match family {
        NegativeDegree::Abs | NegativeDegree::ChebyshevU => fill(&out, &nonfinite, f64::NAN),
        NegativeDegree::Nan => fill(&out, &nan_x, f64::NAN),
        NegativeDegree::Zero => {
            let out = fill(&out, &nan_x, f64::NAN)?;
            let out = fill(&out, &and(&pinf, &n.f_ge(2.0)?)?, f64::NAN)?;
            fill(&out, &and(&ninf, &n.f_ge(1.0)?)?, f64::INFINITY)
        }
        NegativeDegree::Legendre => {
            let out = fill(&out, &and(&nan_x, &not(&constant)?)?, f64::NAN)?;
            let out = fill(&out, &and(&pinf, &not(&constant)?)?, f64::INFINITY)?;
            let out = fill(&out, &and(&ninf, &degree.f_ge(2.0)?)?, f64::NAN)?;
            let out = fill(&out, &and(&ninf, &degree.f_eq(1.0)?)?, f64::NEG_INFINITY)?;
            fill(&out, &and(&nonfinite, &constant)?, 1.0)
        }
    }
}

/// The Chebyshev polynomial of the first kind `T_n(x)`, `scipy.special.eval_chebyt`.
pub(super) fn eval_chebyt(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Abs, Tensor::f_special_chebyshev_polynomial_t, false, Some(Complex::Chebyt))
}

/// The Chebyshev polynomial of the second kind `U_n(x)`, `scipy.special.eval_chebyu`.
pub(super) fn eval_chebyu(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(
        u,
        n,
        x,
        NegativeDegree::ChebyshevU,
        Tensor::f_special_chebyshev_polynomial_u,
        false,
        Some(Complex::Chebyu),
    )
}

/// The physicists' Hermite polynomial `H_n(x)`, `scipy.special.eval_hermite`
/// (integer n only, as SciPy; nan for n < 0).
pub(super) fn eval_hermite(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Nan, Tensor::f_special_hermite_polynomial_h, false, None)
}

/// The probabilists' Hermite polynomial `He_n(x)`, `scipy.special.eval_hermitenorm`.
pub(super) fn eval_hermitenorm(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Nan, Tensor::f_special_hermite_polynomial_he, false, None)
}

/// The Laguerre polynomial `L_n(x)`, `scipy.special.eval_laguerre` (0 for
/// integer n < 0, nan for real-valued n < 0, as SciPy).
pub(super) fn eval_laguerre(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Zero, Tensor::f_special_laguerre_polynomial_l, false, Some(Complex::Laguerre))
}

/// The Legendre polynomial `P_n(x)`, `scipy.special.eval_legendre` (`P_-n = P_(n-1)`).
pub(super) fn eval_legendre(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(
        u,
        n,
        x,
        NegativeDegree::Legendre,
        Tensor::f_special_legendre_polynomial_p,
        false,
        Some(Complex::Legendre),
    )
}

/// The shifted Legendre polynomial `P_n(2x - 1)`, `scipy.special.eval_sh_legendre`.
pub(super) fn eval_sh_legendre(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(
        u,
        n,
        x,
        NegativeDegree::Legendre,
        Tensor::f_special_legendre_polynomial_p,
        true,
        Some(Complex::ShLegendre),
    )
}

/// The shifted Chebyshev polynomial of the first kind `T_n(2x - 1)`, `scipy.special.eval_sh_chebyt`.
pub(super) fn eval_sh_chebyt(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Abs, Tensor::f_special_chebyshev_polynomial_t, true, Some(Complex::ShChebyt))
}

/// The shifted Chebyshev polynomial of the second kind `U_n(2x - 1)`, `scipy.special.eval_sh_chebyu`.
pub(super) fn eval_sh_chebyu(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(
        u,
        n,
        x,
        NegativeDegree::ChebyshevU,
        Tensor::f_special_chebyshev_polynomial_u,
        true,
        Some(Complex::ShChebyu),
    )
}

/// The largest degree the recurrences below run to: each step is a few
/// elementwise operations over the whole array (SciPy's loops take n steps
/// per element).
const MAX_RECURRENCE_DEGREE: f64 = 65_536.0;

/// The degree of a polynomial with parameters, as float64, and whether it
/// came from SciPy's integer loop. Real-valued degrees must be integral
/// (SciPy evaluates other degrees through hypergeometric functions, which
/// libtorch lacks).
fn parametric_degree(u: &'static Ufunc, n: &Tensor) -> Result<(Tensor, bool, f64)> {
    let integer_loop = dlpack::dtype_of(n)? == DType::Int64;
    let n = n.f_to_kind(Kind::Double)?;
    if !integer_loop {
        let fractional = and(&n.f_isfinite()?, &not(&is_integral(&n)?)?)?;
        if fractional.numel() > 0 && fractional.f_any()?.f_int64_value(&[])? != 0 {
            return Err(Error::NotImplemented(format!(
                "{} with a non-integer degree n is not implemented (SciPy evaluates it \
                 through hypergeometric functions, which libtorch lacks); integral degrees work",
                u.qualified
            )));
        }
    }
    let finite = n.f_isfinite()?;
    let largest = if n.numel() == 0 { 0.0 } else { fill(&n, &not(&finite)?, 0.0)?.f_max()?.f_double_value(&[])? };
    if largest > MAX_RECURRENCE_DEGREE {
        return Err(Error::NotImplemented(format!(
            "{} with a degree above {MAX_RECURRENCE_DEGREE} is not implemented (the recurrence takes n steps \
             over the whole array)",
            u.qualified
        )));
    }
    Ok((n, integer_loop, largest))
}

/// Runs SciPy's recurrence `(d, p) <- step(k, d, p)` for k = 1 .. n - 1 on
/// every element at once, each element stopping at its own degree.
fn run_recurrence(
    n: &Tensor,
    largest: f64,
    mut d: Tensor,
    mut p: Tensor,
    step: impl Fn(f64, &Tensor, &Tensor) -> Result<(Tensor, Tensor)>,
) -> Result<Tensor> {
    let steps = (largest - 1.0).max(0.0) as usize;
    for kk in 0..steps {
        let k = kk as f64 + 1.0;
        let active = n.f_sub_scalar(1.0)?.f_gt(kk as f64)?;
        let (d_new, p_new) = step(k, &d, &p)?;
        d = pick(&active, &d_new, &d)?;
        p = pick(&active, &p_new, &p)?;
    }
    Ok(p)
}

/// SciPy's values at non-finite x for real-valued degrees (its hypergeometric
/// forms): nan, except for the constant polynomial.
fn real_degree_nonfinite(out: Tensor, integer_loop: bool, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    if integer_loop {
        return Ok(out);
    }
    let out = fill(&out, &and(&not(&x.f_isfinite()?)?, &n.f_ne(0.0)?)?, f64::NAN)?;
    fill(&out, &not(&n.f_isfinite()?)?, f64::NAN)
}

/// The generalized Laguerre polynomial `L_n^(alpha)(x)`,
/// `scipy.special.eval_genlaguerre(n, alpha, x)`: SciPy's recurrence for
/// `L / binom(n + alpha, n)` (`eval_genlaguerre_l`), step for step; nan for
/// alpha <= -1 or nan input, 0 for n < 0.
pub(super) fn eval_genlaguerre(u: &'static Ufunc, n: &Tensor, alpha: &Tensor, x: &Tensor) -> Result<Tensor> {
    let args = prepare(u, &[n, alpha, x])?;
    if let Some(out) = complex_loop(&args.tensors, Complex::Genlaguerre)? {
        return finish(out, args.output);
    }
    let (n, integer_loop, largest) = parametric_degree(u, &args.tensors[0])?;
    let (alpha, x) = (&args.tensors[1], &args.tensors[2]);
    let a1 = alpha.f_add_scalar(1.0)?;
    let d = x.f_neg()?.f_div(&a1)?;
    let p = d.f_add_scalar(1.0)?;
    let p = run_recurrence(&n, largest, d, p, |k, d, p| {
        let denominator = alpha.f_add_scalar(k + 1.0)?;
        let d =
            x.f_neg()?.f_div(&denominator)?.f_mul(p)?.f_add(&denominator.f_reciprocal()?.f_mul_scalar(k)?.f_mul(d)?)?;
        let p = d.f_add(p)?;
        Ok((d, p))
    })?;
    let out = super::beta::binom(&n.f_add(alpha)?, &n)?.f_mul(&p)?;
    // n = 1: (-x + alpha) + 1, in SciPy's order
    let out = pick(&n.f_eq(1.0)?, &x.f_neg()?.f_add(alpha)?.f_add_scalar(1.0)?, &out)?;
    let out = fill(&out, &n.f_eq(0.0)?, 1.0)?;
    let out = fill(&out, &n.f_lt(0.0)?, 0.0)?;
    let out = real_degree_nonfinite(out, integer_loop, &n, x)?;
    let nan = or(&alpha.f_le(-1.0)?, &any_nan(alpha, x)?)?;
    finish(fill(&out, &or(&nan, &n.f_isnan()?)?, f64::NAN)?, args.output)
}

/// The Gegenbauer polynomial `C_n^(alpha)(x)`, `scipy.special.eval_gegenbauer(n,
/// alpha, x)`: SciPy's recurrence (`eval_gegenbauer_l`) for |x| >= 1e-5 and its
/// power series below, step for step; 0 for n < 0 (nan for real-valued n,
/// as SciPy's other loop) and for alpha = 0, n >= 1 (SciPy's normalization),
/// nan for nan input.
pub(super) fn eval_gegenbauer(u: &'static Ufunc, n: &Tensor, alpha: &Tensor, x: &Tensor) -> Result<Tensor> {
    let args = prepare(u, &[n, alpha, x])?;
    if let Some(out) = complex_loop(&args.tensors, Complex::Gegenbauer)? {
        return finish(out, args.output);
    }
    let (n, integer_loop, largest) = parametric_degree(u, &args.tensors[0])?;
    let (alpha, x) = (&args.tensors[1], &args.tensors[2]);
    let two_alpha = alpha.f_mul_scalar(2.0)?;
    let xm1 = x.f_sub_scalar(1.0)?;
    let p = run_recurrence(&n, largest, xm1.shallow_clone(), x.shallow_clone(), |k, d, p| {
        let k2a = two_alpha.f_add_scalar(k)?;
        let d = alpha
            .f_add_scalar(k)?
            .f_mul_scalar(2.0)?
            .f_div(&k2a)?
            .f_mul(&xm1)?
            .f_mul(p)?
            .f_add(&k2a.f_reciprocal()?.f_mul_scalar(k)?.f_mul(d)?)?;
        let p = d.f_add(p)?;
        Ok((d, p))
    })?;
    let n_safe = fill(&n, &n.f_eq(0.0)?, 1.0)?;
    let tiny_ratio = alpha.f_div(&n_safe)?.f_abs()?.f_lt(1e-8)?;
    let scale = pick(
        &tiny_ratio,
        &two_alpha.f_div(&n_safe)?,
        &super::beta::binom(&n.f_add(&two_alpha)?.f_sub_scalar(1.0)?, &n)?,
    )?;
    let out = scale.f_mul(&p)?;
    // |x| < 1e-5: the power series about 0 (SciPy's, functions.wolfram.com GegenbauerC3/02)
    let near_zero = x.f_abs()?.f_lt(1e-5)?;
    let out = patch(out, &near_zero, &[&n, alpha, x], |v| {
        let (n, alpha, x) = (&v[0], &v[1], &v[2]);
        let a = n.f_div_scalar(2.0)?.f_floor()?;
        let sign = pick(&is_odd(&a)?, &full(x, -1.0)?, &full(x, 1.0)?)?;
        let mut d = sign.f_div(&super::beta::beta(alpha, &a.f_add_scalar(1.0)?)?)?;
        let even = n.f_eq_tensor(&a.f_mul_scalar(2.0)?)?;
        d = pick(&even, &d.f_div(&a.f_add(alpha)?)?, &d.f_mul(&x.f_mul_scalar(2.0)?)?)?;
        let mut sum = x.f_zeros_like()?;
        let x2 = x.f_square()?.f_mul_scalar(-4.0)?;
        let terms = (largest / 2.0).floor() as usize + 1;
        for kk in 0..terms {
            let kk = kk as f64;
            let active = a.f_ge(kk)?;
            sum = pick(&active, &sum.f_add(&d)?, &sum)?;
            let numerator = x2.f_mul(&a.f_sub_scalar(kk)?)?.f_mul(&alpha.f_sub(&a)?.f_add(n)?.f_add_scalar(kk)?)?;
            let base = n.f_sub(&a.f_mul_scalar(2.0)?)?.f_add_scalar(2.0 * kk)?;
            let denominator = base.f_add_scalar(1.0)?.f_mul(&base.f_add_scalar(2.0)?)?;
            d = d.f_mul(&numerator)?.f_div(&denominator)?;
        }
        Ok(sum)
    })?;
    let out = pick(&n.f_eq(1.0)?, &two_alpha.f_mul(x)?, &out)?;
    // alpha = 0: SciPy's Gamma(n) / (Gamma(n + 1) Gamma(0)) = 0 times its
    // hypergeometric form, nan where that overflows (|x|^n beyond the doubles)
    let alpha_zero = and(&alpha.f_eq(0.0)?, &n.f_ge(1.0)?)?;
    let overflows = or(&not(&x.f_isfinite()?)?, &x.f_abs()?.f_log()?.f_mul(&n)?.f_gt(709.78)?)?;
    let out = fill(&out, &alpha_zero, 0.0)?;
    let out = fill(&out, &and(&alpha_zero, &overflows)?, f64::NAN)?;
    let out = fill(&out, &n.f_eq(0.0)?, 1.0)?;
    // n < 0: 0 in SciPy's integer loop, nan in its real loop (Gamma(1 + n) has a pole)
    let out = fill(&out, &n.f_lt(0.0)?, if integer_loop { 0.0 } else { f64::NAN })?;
    let out = real_degree_nonfinite(out, integer_loop, &n, x)?;
    finish(fill(&out, &or(&any_nan(alpha, x)?, &n.f_isnan()?)?, f64::NAN)?, args.output)
}

/// The Jacobi polynomial `P_n^(alpha, beta)(x)`, `scipy.special.eval_jacobi(n,
/// alpha, beta, x)`: SciPy's recurrence for `P / binom(n + alpha, n)`
/// (`eval_jacobi_l`), step for step; for n < 0 the binomial factor of SciPy's
/// hypergeometric form, 0 (or nan); 1 for n = 0.
pub(super) fn eval_jacobi(u: &'static Ufunc, n: &Tensor, alpha: &Tensor, beta: &Tensor, x: &Tensor) -> Result<Tensor> {
    let args = prepare(u, &[n, alpha, beta, x])?;
    if let Some(out) = complex_loop(&args.tensors, Complex::Jacobi)? {
        return finish(out, args.output);
    }
    let (n, integer_loop, largest) = parametric_degree(u, &args.tensors[0])?;
    let (alpha, beta, x) = (&args.tensors[1], &args.tensors[2], &args.tensors[3]);
    let ab = alpha.f_add(beta)?;
    let xm1 = x.f_sub_scalar(1.0)?;
    let d = ab.f_add_scalar(2.0)?.f_mul(&xm1)?.f_div(&alpha.f_add_scalar(1.0)?.f_mul_scalar(2.0)?)?;
    let p = d.f_add_scalar(1.0)?;
    let p = run_recurrence(&n, largest, d, p, |k, d, p| {
        let t = ab.f_add_scalar(2.0 * k)?;
        let t2 = t.f_add_scalar(2.0)?;
        let first = t.f_mul(&t.f_add_scalar(1.0)?)?.f_mul(&t2)?.f_mul(&xm1)?.f_mul(p)?;
        let second = beta.f_add_scalar(k)?.f_mul_scalar(2.0 * k)?.f_mul(&t2)?.f_mul(d)?;
        let denominator =
            alpha.f_add_scalar(k + 1.0)?.f_mul_scalar(2.0)?.f_mul(&ab.f_add_scalar(k + 1.0)?)?.f_mul(&t)?;
        let d = first.f_add(&second)?.f_div(&denominator)?;
        let p = d.f_add(p)?;
        Ok((d, p))
    })?;
    let out = super::beta::binom(&n.f_add(alpha)?, &n)?.f_mul(&p)?;
    let first =
        alpha.f_add_scalar(1.0)?.f_mul_scalar(2.0)?.f_add(&ab.f_add_scalar(2.0)?.f_mul(&xm1)?)?.f_mul_scalar(0.5)?;
    let out = pick(&n.f_eq(1.0)?, &first, &out)?;
    let out = fill(&out, &n.f_eq(0.0)?, 1.0)?;
    // n < 0: SciPy's binom(n + alpha, n) hyp2f1(-n, n + alpha + beta + 1, alpha + 1,
    // (1 - x) / 2): the binomial is 0 (or nan, kept)
    let zero = super::beta::binom(&n.f_add(alpha)?, &n)?.f_mul_scalar(0.0)?;
    let out = pick(&n.f_lt(0.0)?, &zero, &out)?;
    // SciPy checks no nan here: n = 0 gives 1 whatever the parameters
    let out = real_degree_nonfinite(out, integer_loop, &n, x)?;
    let out = fill(&out, &n.f_isnan()?, f64::NAN)?;
    finish(fill(&out, &n.f_eq(0.0)?, 1.0)?, args.output)
}
