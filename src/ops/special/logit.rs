//! The logistic functions (SciPy's `_logit.h`): expit, logit, log_expit.

use tch::Tensor;

use super::helpers::*;
use super::ufuncs::Ufunc;
use crate::ops::scipy_float_input;
use crate::Result;

/// The logistic sigmoid `1 / (1 + exp(-x))`, `scipy.special.expit`.
pub(super) fn expit(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input(u.qualified, x, false)?.f_sigmoid()?)
}

/// The logit `log(p / (1 - p))`, `scipy.special.logit`; nan outside [0, 1].
pub(super) fn logit(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input(u.qualified, x, false)?.f_logit(None)?)
}

/// `log(expit(x))`, `scipy.special.log_expit`: `x - log1p(exp(x))` for x < 0,
/// `-log1p(exp(-x))` otherwise, as SciPy (libtorch's `log_sigmoid` flushes its
/// subnormal results, x > 708, to 0).
pub(super) fn log_expit(x: &Tensor) -> Result<Tensor> {
    let negative = x.f_sub(&log1p_f64(&x.f_exp()?)?)?;
    let positive = log1p_f64(&x.f_neg()?.f_exp()?)?.f_neg()?;
    pick(&x.f_lt(0.0)?, &negative, &positive)
}
