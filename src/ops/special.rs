//! `scipy.special` counterparts.
//!
//! Inputs are cast as SciPy's ufunc loops cast them: float32 stays float32,
//! bool, integers and half precision compute in (and return) float64.

use tch::Tensor;

use super::scipy_float_input;
use crate::Result;

/// The error function, `scipy.special.erf` (real input).
pub fn erf(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.erf", x, true)?.f_erf()?)
}

/// The complementary error function `1 - erf(x)`, accurate in the upper tail.
pub fn erfc(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.erfc", x, true)?.f_erfc()?)
}

/// The logistic sigmoid `1 / (1 + exp(-x))`, `scipy.special.expit`.
pub fn expit(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.expit", x, false)?.f_sigmoid()?)
}

/// The logit `log(p / (1 - p))`, `scipy.special.logit`; nan outside [0, 1].
pub fn logit(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.logit", x, false)?.f_logit(None)?)
}

/// `log|Gamma(x)|`, `scipy.special.gammaln`.
///
/// libtorch's `lgamma(-inf)` is `+inf`; SciPy returns `-inf` (the limit of
/// `log|Gamma|` between the poles), and so does this.
pub fn gammaln(x: &Tensor) -> Result<Tensor> {
    let x = scipy_float_input("special.gammaln", x, false)?;
    let at_minus_inf = x.f_eq(f64::NEG_INFINITY)?;
    Ok(x.f_lgamma()?.f_masked_fill(&at_minus_inf, f64::NEG_INFINITY)?)
}
