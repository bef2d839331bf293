//! `scipy.special` counterparts.
//!
//! Integer and bool inputs are cast as SciPy's ufunc loops cast them (8- and
//! 16-bit integers and bool to float32, wider integers to float64); float32
//! stays float32.

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
pub fn gammaln(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.gammaln", x, false)?.f_lgamma()?)
}
