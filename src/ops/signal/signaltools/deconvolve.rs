//! `scipy.signal.deconvolve`: polynomial division of `signal` by `divisor`.
//!
//! As SciPy computes it: the quotient is the impulse response of the filter
//! `signal / divisor` over `len(signal) - len(divisor) + 1` samples
//! ([`lfilter`]: a blocked scan on the tensors' device, not a loop per
//! sample), the remainder `signal - convolve(divisor, quotient)`.

use tch::{Kind, Tensor};

use super::convolve::{convolve, Method, Mode};
use super::lfilter::lfilter;
use crate::{Error, Result};

/// A shape as Python prints a tuple: `(3,)`, `(2, 3)`.
fn tuple_repr(dims: &[i64]) -> String {
    match dims {
        [one] => format!("({one},)"),
        _ => format!("({})", dims.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// `x` as a non-empty 1-d array (a 0-d one becomes 1-d), or SciPy's message.
fn vector(x: &Tensor, name: &str) -> Result<Tensor> {
    let x = if x.dim() == 0 { x.f_view([1])? } else { x.shallow_clone() };
    if x.dim() != 1 || x.numel() == 0 {
        return Err(Error::InvalidArgument(format!(
            "Parameter {name} must be non-empty 1d array, but its shape is {}!",
            tuple_repr(&x.size())
        )));
    }
    Ok(x)
}

/// `scipy.signal.deconvolve`: `(quotient, remainder)` with
/// `signal = convolve(divisor, quotient) + remainder`. When the divisor is
/// longer than the signal the quotient is empty (float64; SciPy returns an
/// empty list) and the remainder a copy of the signal.
pub fn deconvolve(signal: &Tensor, divisor: &Tensor) -> Result<(Tensor, Tensor)> {
    let num = vector(signal, "signal")?;
    let den = vector(divisor, "divisor")?;
    let (n, d) = (num.size()[0], den.size()[0]);
    if d > n {
        let quot = Tensor::f_zeros([0], (Kind::Double, num.device()))?;
        return Ok((quot, num.f_detach_copy()?));
    }
    let impulse = Tensor::f_cat(
        &[Tensor::f_ones([1], (Kind::Double, num.device()))?, Tensor::f_zeros([n - d], (Kind::Double, num.device()))?],
        0,
    )?;
    let (quot, _) = lfilter(&num, &den, &impulse, -1, None)?;
    let rem = num.f_sub(&convolve(&den, &quot, Mode::Full, Method::Auto)?)?;
    Ok((quot, rem))
}
