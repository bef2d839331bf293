//! `hilbert` and `hilbert2` (SciPy's `_signaltools.py`): the analytic signal
//! by one FFT, a multiplication by SciPy's step function and one inverse FFT.

use tch::{Kind, Tensor};

use crate::ops::fft::plans;
use crate::ops::numpy::normalize_axis;
use crate::{Error, Result};

/// The complex dtype the FFT gives `x`'s dtype (float32 -> complex64, as
/// `scipy.fft`; integers and bool -> complex128); complex input is refused.
fn analytic_kind(x: &Tensor) -> Result<Kind> {
    match x.kind() {
        Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble => {
            Err(Error::InvalidArgument("x must be real.".into()))
        }
        Kind::Float | Kind::Half | Kind::BFloat16 => Ok(Kind::Float),
        _ => Ok(Kind::Double),
    }
}

/// SciPy's multiplier along one axis of length `n`: 1 at 0 (and at `n/2` for
/// even `n`), 2 on the positive frequencies, 0 on the negative ones.
fn step(n: i64, kind: Kind, device: tch::Device) -> Result<Tensor> {
    let mut h = vec![0.0f64; n as usize];
    h[0] = 1.0;
    let half = ((n + 1) / 2) as usize;
    for v in h.iter_mut().take(half).skip(1) {
        *v = 2.0;
    }
    if n % 2 == 0 {
        h[(n / 2) as usize] = 1.0;
    }
    Ok(Tensor::f_from_slice(&h)?.f_to_kind(kind)?.f_to_device(device)?)
}

/// The analytic signal of real `x` along `axis`, `n` points (`None`: the
/// axis's length; shorter truncates, longer zero-pads, as `fft(x, n)`).
pub fn hilbert(x: &Tensor, n: Option<i64>, axis: i64) -> Result<Tensor> {
    let real = analytic_kind(x)?;
    if x.dim() == 0 {
        return Err(Error::InvalidArgument("hilbert needs at least a 1-D array: x is 0-d".into()));
    }
    let ax = normalize_axis(axis, x.dim())?;
    let n = n.unwrap_or(x.size()[ax]);
    if n <= 0 {
        return Err(Error::InvalidArgument("N must be positive.".into()));
    }
    let xf = plans::fft(&x.f_to_kind(real)?, n, ax as i64, "backward")?;
    let mut shape = vec![1i64; x.dim()];
    shape[ax] = n;
    let h = step(n, real, x.device())?.f_reshape(&shape)?;
    plans::ifft(&xf.f_mul(&h)?, None, ax as i64, "backward")
}

/// The 2-D "single-orthant" analytic signal of real `x` (at least 2-D; a 1-D
/// `x` is taken as one row) over `axes`, `n` points per axis.
pub fn hilbert2(x: &Tensor, n: Option<(i64, i64)>, axes: (i64, i64)) -> Result<Tensor> {
    let real = analytic_kind(x)?;
    let x = match x.dim() {
        0 => x.f_reshape([1, 1])?,
        1 => x.f_unsqueeze(0)?,
        _ => x.shallow_clone(),
    };
    let a0 = normalize_axis(axes.0, x.dim())?;
    let a1 = normalize_axis(axes.1, x.dim())?;
    if a0 == a1 {
        return Err(Error::InvalidArgument("axes must contain 2 distinct axes".into()));
    }
    let (n0, n1) = n.unwrap_or((x.size()[a0], x.size()[a1]));
    if n0 <= 0 || n1 <= 0 {
        return Err(Error::InvalidArgument("When given as a tuple, N must hold exactly two positive integers".into()));
    }
    let dims = [a0 as i64, a1 as i64];
    let xf = x.f_to_kind(real)?.f_fft_fftn(Some([n0, n1].as_slice()), Some(dims.as_slice()), "backward")?;
    // SciPy: 2 on 1..k (k = (n+1)//2), 0 from k on, 1 at 0 (the Nyquist bin of an even length is zeroed).
    let orthant = |n: i64, axis: usize| -> Result<Tensor> {
        let k = (n + 1) / 2;
        let h: Vec<f64> = (0..n)
            .map(|i| {
                if i == 0 {
                    1.0
                } else if i < k {
                    2.0
                } else {
                    0.0
                }
            })
            .collect();
        let mut shape = vec![1i64; x.dim()];
        shape[axis] = n;
        Ok(Tensor::f_from_slice(&h)?.f_to_kind(real)?.f_to_device(x.device())?.f_reshape(&shape)?)
    };
    let xa = xf.f_mul(&orthant(n0, a0)?)?.f_mul(&orthant(n1, a1)?)?;
    Ok(xa.f_fft_ifftn(None::<&[i64]>, Some(dims.as_slice()), "backward")?)
}
