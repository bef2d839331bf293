//! `scipy.stats._morestats`: the Box-Cox and Yeo-Johnson transformations
//! for a given `lmbda` (the maximum-likelihood `lmbda` is not built).

use tch::{Kind, Tensor};

use crate::ops::special;
use crate::{Error, Result};

/// The floating kind of `x` with a Python-float parameter (NumPy's weak scalar):
/// floats keep theirs, everything else is float64.
fn float_kind(kind: Kind) -> Result<Kind> {
    match kind {
        Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble => {
            Err(Error::InvalidArgument("Yeo-Johnson transformation is not defined for complex numbers.".into()))
        }
        Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double => Ok(kind),
        _ => Ok(Kind::Double),
    }
}

/// `boxcox(x, lmbda)`: SciPy's `special.boxcox` elementwise.
pub fn boxcox(x: &Tensor, lmbda: f64) -> Result<Tensor> {
    let kind = match x.kind() {
        Kind::Float => Kind::Float,
        Kind::Half | Kind::BFloat16 | Kind::Int8 | Kind::Uint8 | Kind::Int16 | Kind::Bool => Kind::Float,
        Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble => {
            return Err(Error::NotImplemented("complex input: boxcox transforms real data".into()))
        }
        _ => Kind::Double,
    };
    let l = Tensor::f_full([] as [i64; 0], lmbda, (kind, x.device()))?;
    special::boxcox(&x.f_to_kind(kind)?, &l)
}

/// `yeojohnson(x, lmbda)`: `((1 + x)**lmbda - 1) / lmbda` for `x >= 0`,
/// `-((1 - x)**(2 - lmbda) - 1) / (2 - lmbda)` below, with the logarithmic
/// limits at `lmbda` 0 and 2 (SciPy's `_yeojohnson_transform`).
pub fn yeojohnson(x: &Tensor, lmbda: f64) -> Result<Tensor> {
    let kind = float_kind(x.kind())?;
    let x = x.f_to_kind(kind)?;
    if x.numel() == 0 {
        return Ok(x);
    }
    let eps = match kind {
        Kind::Float => f32::EPSILON as f64,
        Kind::Half => 0.000_976_562_5,
        Kind::BFloat16 => 0.007_812_5,
        _ => f64::EPSILON,
    };
    let pos = x.f_ge(0.0)?;
    let xp = x.f_clamp_min(0.0)?;
    let xn = x.f_clamp_max(0.0)?;
    let up = if lmbda.abs() < eps {
        xp.f_log1p()?
    } else {
        xp.f_log1p()?.f_mul_scalar(lmbda)?.f_expm1()?.f_div_scalar(lmbda)?
    };
    let down = if (lmbda - 2.0).abs() > eps {
        xn.f_neg()?.f_log1p()?.f_mul_scalar(2.0 - lmbda)?.f_expm1()?.f_neg()?.f_div_scalar(2.0 - lmbda)?
    } else {
        xn.f_neg()?.f_log1p()?.f_neg()?
    };
    // NaN fails `x >= 0` and takes the lower branch, as in SciPy
    Ok(up.f_where_self(&pos, &down)?)
}
