//! `detrend` (SciPy's `_signaltools.py`): the least-squares line (per piece
//! between break points) or the mean removed along an axis, batched over
//! every other axis in one pass of libtorch reductions.

use std::str::FromStr;

use tch::{Kind, Tensor};

use crate::ops::numpy::normalize_axis;
use crate::{Error, Result};

/// What `detrend` removes, SciPy's `type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trend {
    /// The least-squares line (SciPy's `"linear"`, `"l"`).
    Linear,
    /// The mean (SciPy's `"constant"`, `"c"`).
    Constant,
}

impl FromStr for Trend {
    type Err = Error;

    fn from_str(name: &str) -> Result<Trend> {
        match name {
            "linear" | "l" => Ok(Trend::Linear),
            "constant" | "c" => Ok(Trend::Constant),
            _ => Err(Error::InvalidArgument("Trend type must be 'linear' or 'constant'.".into())),
        }
    }
}

/// The dtype SciPy's `detrend` computes in: float32/float64/complex64/complex128
/// stay; `"constant"` keeps float16 (NumPy's mean), everything else is float64.
fn detrend_kind(kind: Kind, trend: Trend) -> Result<Kind> {
    Ok(match kind {
        Kind::Float | Kind::Double | Kind::ComplexFloat | Kind::ComplexDouble => kind,
        Kind::Half if trend == Trend::Constant => Kind::Half,
        Kind::ComplexHalf => {
            return Err(Error::NotImplemented(
                "detrend does not accept complex32 input; accepted: real, complex64, complex128".into(),
            ))
        }
        _ => Kind::Double,
    })
}

/// Removes the mean or the least-squares line along the LAST axis of `x`
/// (already in a floating dtype): the batched core of [`detrend`], also used
/// on the segments of the spectral estimators.
pub fn detrend_last(x: &Tensor, trend: Trend) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    if n == 0 {
        return Ok(x.f_detach_copy()?);
    }
    let mean = x.f_mean_dim(Some([-1i64].as_slice()), true, None::<Kind>)?;
    let centred = x.f_sub(&mean)?;
    if trend == Trend::Constant {
        return Ok(centred);
    }
    // y - mean(y) - slope (t - mean(t)), slope = sum((t - tm) y) / sum((t - tm)^2):
    // the least-squares line of SciPy's lstsq, without forming the normal equations.
    let real = match x.kind() {
        Kind::ComplexFloat => Kind::Float,
        Kind::ComplexDouble => Kind::Double,
        k => k,
    };
    let t = Tensor::f_arange(n, (Kind::Double, x.device()))?.f_sub_scalar((n as f64 - 1.0) / 2.0)?;
    let tt: f64 = (n as f64) * ((n as f64) * (n as f64) - 1.0) / 12.0;
    if tt == 0.0 {
        return Ok(centred);
    }
    let t = t.f_to_kind(real)?;
    let slope = centred.f_matmul(&t.f_to_kind(x.kind())?.f_unsqueeze(-1)?)?.f_div_scalar(tt)?;
    Ok(centred.f_sub(&slope.f_mul(&t)?)?)
}

/// SciPy's `detrend(data, axis, type, bp)`: `bp` break points (indices along
/// `axis`; each piece between two is fitted on its own; only for
/// [`Trend::Linear`]; NaN or infinity in `data` raises, as SciPy's
/// `lstsq`). Never writes into `data`.
pub fn detrend(data: &Tensor, axis: i64, trend: Trend, bp: &[i64]) -> Result<Tensor> {
    let kind = detrend_kind(data.kind(), trend)?;
    if data.dim() == 0 {
        return Err(Error::InvalidArgument("detrend needs at least a 1-D array: data is 0-d".into()));
    }
    let ax = normalize_axis(axis, data.dim())? as i64;
    let x = data.f_to_kind(kind)?.f_movedim([ax], [-1])?;
    let n = x.size()[x.dim() - 1];
    let out = if trend == Trend::Constant {
        detrend_last(&x, trend)?
    } else {
        // SciPy's lstsq refuses non-finite data (its `check_finite`)
        crate::ops::numpy::check_finite(&x)?;
        let mut points: Vec<i64> = bp.to_vec();
        if points.iter().any(|&p| p > n) {
            return Err(Error::InvalidArgument(
                "Breakpoints must be less than length of data along given axis.".into(),
            ));
        }
        if points.iter().any(|&p| p < 0) {
            return Err(Error::InvalidArgument(format!(
                "Breakpoints must be non-negative indices along the axis (0 to {n}), got {points:?}"
            )));
        }
        points.push(0);
        points.push(n);
        points.sort_unstable();
        points.dedup();
        if points.len() == 2 {
            detrend_last(&x, trend)?
        } else {
            let pieces = points
                .windows(2)
                .map(|w| detrend_last(&x.f_narrow(-1, w[0], w[1] - w[0])?, trend))
                .collect::<Result<Vec<_>>>()?;
            Tensor::f_cat(&pieces, -1)?
        }
    };
    Ok(out.f_movedim([-1], [ax])?.f_contiguous()?)
}
