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
/// As SciPy's `_logit.h`: on [0.3, 0.65] `log1p(s) - log1p(-s)` with
/// `s = 2 (p - 1/2)` (exact there), which keeps full relative accuracy near
/// the zero at 1/2 (the quotient form, libtorch's, loses 4 digits at
/// `0.4999999999999`), `log(p / (1 - p))` outside; in the input's precision.
pub(super) fn logit(u: &'static Ufunc, x: &Tensor) -> Result<Tensor> {
    let x = scipy_float_input(u.qualified, x, false)?;
    let middle = and(&x.f_ge(0.3)?, &x.f_le(0.65)?)?;
    // the middle branch sees 1/2 elsewhere (log1p(-1) = -inf there would make the pick's gradient nan)
    let s = fill(&x, &not(&middle)?, 0.5)?.f_sub_scalar(0.5)?.f_mul_scalar(2.0)?;
    let near = s.f_log1p()?.f_sub(&s.f_neg()?.f_log1p()?)?;
    let far = x.f_div(&x.f_neg()?.f_add_scalar(1.0)?)?.f_log()?;
    pick(&middle, &near, &far)
}

/// `log(expit(x))`, `scipy.special.log_expit`: `x - log1p(exp(x))` for x < 0,
/// `-log1p(exp(-x))` otherwise, as SciPy (libtorch's `log_sigmoid` flushes its
/// subnormal results, x > 708, to 0).
pub(super) fn log_expit(x: &Tensor) -> Result<Tensor> {
    let negative = x.f_sub(&log1p_f64(&x.f_exp()?)?)?;
    let positive = log1p_f64(&x.f_neg()?.f_exp()?)?.f_neg()?;
    pick(&x.f_lt(0.0)?, &negative, &positive)
}
