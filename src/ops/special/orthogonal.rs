//! Orthogonal polynomials of integer degree (SciPy's `orthogonal_eval.pxd`):
//! eval_chebyt, eval_chebyu, eval_hermite, eval_hermitenorm, eval_laguerre,
//! eval_legendre.

use tch::{Kind, Tensor};

use super::helpers::*;
use super::loops::{finish, prepare};
use super::ufuncs::Ufunc;
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
) -> Result<Tensor> {
    let args = prepare(u, &[n, x])?;
    let (n, x) = (&args.tensors[0], &args.tensors[1]);
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
    eval_poly(u, n, x, NegativeDegree::Abs, Tensor::f_special_chebyshev_polynomial_t)
}

/// The Chebyshev polynomial of the second kind `U_n(x)`, `scipy.special.eval_chebyu`.
pub(super) fn eval_chebyu(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::ChebyshevU, Tensor::f_special_chebyshev_polynomial_u)
}

/// The physicists' Hermite polynomial `H_n(x)`, `scipy.special.eval_hermite`
/// (integer n only, as SciPy; nan for n < 0).
pub(super) fn eval_hermite(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Nan, Tensor::f_special_hermite_polynomial_h)
}

/// The probabilists' Hermite polynomial `He_n(x)`, `scipy.special.eval_hermitenorm`.
pub(super) fn eval_hermitenorm(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Nan, Tensor::f_special_hermite_polynomial_he)
}

/// The Laguerre polynomial `L_n(x)`, `scipy.special.eval_laguerre` (0 for
/// integer n < 0, nan for real-valued n < 0, as SciPy).
pub(super) fn eval_laguerre(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Zero, Tensor::f_special_laguerre_polynomial_l)
}

/// The Legendre polynomial `P_n(x)`, `scipy.special.eval_legendre` (`P_-n = P_(n-1)`).
pub(super) fn eval_legendre(u: &'static Ufunc, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly(u, n, x, NegativeDegree::Legendre, Tensor::f_special_legendre_polynomial_p)
}
