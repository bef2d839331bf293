//! The Box-Cox transformations (SciPy's `_boxcox.pxd`): boxcox, boxcox1p,
//! inv_boxcox, inv_boxcox1p.

use tch::Tensor;

use super::helpers::*;
use crate::Result;

/// `copysign(1, lmbda) exp(lmbda lg - log|lmbda|) - 1/lmbda`: the Box-Cox
/// value where `expm1` would overflow.
pub(super) fn boxcox_large(lg: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let e = lmbda.f_mul(lg)?.f_sub(&lmbda.f_abs()?.f_log()?)?.f_exp()?;
    Ok(full(lmbda, 1.0)?.f_copysign(lmbda)?.f_mul(&e)?.f_sub(&lmbda.f_reciprocal()?)?)
}

/// `expm1(lmbda lg) / lmbda`, or the large-value form, or `lg` where `small`.
pub(super) fn boxcox_from_log(lg: &Tensor, lmbda: &Tensor, small: &Tensor) -> Result<Tensor> {
    let product = lmbda.f_mul(lg)?;
    let regular = product.f_expm1()?.f_div(lmbda)?;
    let value = pick(&product.f_lt(709.78)?, &regular, &boxcox_large(lg, lmbda)?)?;
    pick(small, lg, &value)
}

/// The Box-Cox transformation `(x^lmbda - 1) / lmbda`, `log(x)` at `lmbda = 0`,
/// `scipy.special.boxcox` (SciPy's branches: `log` for |lmbda| < 1e-19).
pub(super) fn boxcox(x: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let lg = x.f_log()?;
    boxcox_from_log(&lg, lmbda, &lmbda.f_abs()?.f_lt(1e-19)?)
}

/// The Box-Cox transformation of `1 + x`, `scipy.special.boxcox1p`.
pub(super) fn boxcox1p(x: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let lg = log1p_f64(x)?;
    let tiny = and(&lg.f_abs()?.f_lt(1e-289)?, &lmbda.f_abs()?.f_lt(1e273)?)?;
    boxcox_from_log(&lg, lmbda, &or(&lmbda.f_abs()?.f_lt(1e-19)?, &tiny)?)
}

/// `log(1 + lmbda x) / lmbda`, or the overflow-safe form where `lmbda x`
/// reaches 1.79e308.
pub(super) fn inv_boxcox_log(x: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let product = lmbda.f_mul(x)?;
    let regular = log1p_f64(&product)?.f_div(lmbda)?;
    let sign = full(lmbda, 1.0)?.f_copysign(lmbda)?;
    let large =
        sign.f_mul(&x.f_add(&lmbda.f_reciprocal()?)?)?.f_log()?.f_add(&lmbda.f_abs()?.f_log()?)?.f_div(lmbda)?;
    pick(&product.f_lt(1.79e308)?, &regular, &large)
}

/// The inverse Box-Cox transformation, `scipy.special.inv_boxcox`.
pub(super) fn inv_boxcox(y: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let value = inv_boxcox_log(y, lmbda)?.f_exp()?;
    pick(&lmbda.f_eq(0.0)?, &y.f_exp()?, &value)
}

/// The inverse of [`boxcox1p`], `scipy.special.inv_boxcox1p`.
pub(super) fn inv_boxcox1p(y: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let value = inv_boxcox_log(y, lmbda)?.f_expm1()?;
    let value = pick(&lmbda.f_mul(y)?.f_abs()?.f_lt(1e-154)?, y, &value)?;
    pick(&lmbda.f_eq(0.0)?, &y.f_expm1()?, &value)
}
