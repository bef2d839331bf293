//! SciPy's `_arraytools.py`: the extensions of a signal past its ends that
//! `filtfilt`/`sosfiltfilt` (`padtype`) and `stft` (`boundary`) share.

use tch::Tensor;

use crate::{Error, Result};

/// How a signal is extended past its ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Extension {
    /// Point-symmetric about the end samples (`odd_ext`: `2 x[0] - x[n:0:-1]`).
    Odd,
    /// Mirrored about the end samples, which are not repeated (`even_ext`).
    Even,
    /// The end samples repeated (`const_ext`).
    Constant,
    /// Zeros (`zero_ext`).
    Zeros,
}

/// `x` extended by `n` samples at both ends of its last axis. The odd and
/// even extensions reflect at most `len - 1` samples (SciPy's error beyond).
pub(crate) fn extend_last(x: &Tensor, n: i64, how: Extension) -> Result<Tensor> {
    if n == 0 {
        return Ok(x.shallow_clone());
    }
    let len = x.size()[x.dim() - 1];
    if matches!(how, Extension::Even | Extension::Odd) && n > len - 1 {
        return Err(Error::InvalidArgument(format!(
            "The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1 ({}).",
            len - 1
        )));
    }
    let first = x.f_narrow(-1, 0, 1)?;
    let last = x.f_narrow(-1, len - 1, 1)?;
    let (left, right) = match how {
        Extension::Zeros => return Ok(x.f_constant_pad_nd([n, n])?),
        Extension::Constant => {
            let mut shape = x.size();
            shape[x.dim() - 1] = n;
            (first.f_expand(&shape, false)?, last.f_expand(&shape, false)?)
        }
        Extension::Even | Extension::Odd => {
            let left = x.f_narrow(-1, 1, n)?.f_flip([-1])?;
            let right = x.f_narrow(-1, len - 1 - n, n)?.f_flip([-1])?;
            if how == Extension::Even {
                (left, right)
            } else {
                (first.f_mul_scalar(2.0)?.f_sub(&left)?, last.f_mul_scalar(2.0)?.f_sub(&right)?)
            }
        }
    };
    Ok(Tensor::f_cat(&[left, x.shallow_clone(), right], -1)?)
}
