//! `scipy.fft._basic`: the discrete Fourier transforms, complex (`fft`,
//! `ifft`), real-input (`rfft`, `ihfft`) and complex-to-real (`irfft`,
//! `hfft`), in 1-D and n-D (the 2-D forms are the n-D ones over
//! [`FftnOptions::two_d`]'s axes).

use tch::Tensor;

use super::helper::{
    as_complex, check_points, check_size, fft_input, length_1d, nd_shape_and_axes, nonempty, real_fft_input, NdPlan,
};
use super::{plans, Norm};
use crate::ops::numpy::normalize_axis;
use crate::{Error, Result};

/// The options of a 1-D transform, with SciPy's defaults (`n=None, axis=-1, norm=None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FftOptions {
    /// The transform length: the input is zero-padded or truncated to it
    /// (the output length of `irfft`/`hfft`). `None`: the input's length
    /// (`2 * (m - 1)` for `irfft`/`hfft`).
    pub n: Option<i64>,
    /// The axis transformed; negative counts from the end.
    pub axis: i64,
    /// The scaling convention.
    pub norm: Norm,
}

impl Default for FftOptions {
    fn default() -> Self {
        FftOptions { n: None, axis: -1, norm: Norm::Backward }
    }
}

/// The options of an n-D transform, with SciPy's defaults (`s=None, axes=None, norm=None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FftnOptions {
    /// The transform shape along `axes` (`-1`: the input's length there).
    /// `None`: the input's lengths.
    pub s: Option<Vec<i64>>,
    /// The axes transformed, unique. `None`: all, or the last `len(s)` when `s` is given.
    pub axes: Option<Vec<i64>>,
    /// The scaling convention.
    pub norm: Norm,
}

impl FftnOptions {
    /// The defaults of SciPy's 2-D forms (`fft2`, `rfft2`, ...): `axes=(-2, -1)`.
    pub fn two_d() -> Self {
        FftnOptions { axes: Some(vec![-2, -1]), ..Default::default() }
    }
}

// ---------------------------------------------------------------------------
// 1-D transforms
// ---------------------------------------------------------------------------

/// The 1-D discrete Fourier transform, `scipy.fft.fft`.
///
/// `n` zero-pads or truncates the input along `axis`; real input gives a
/// complex result of the same precision (float32 -> complex64, float64,
/// bool and integers -> complex128).
pub fn fft(x: &Tensor, options: &FftOptions) -> Result<Tensor> {
    let x = fft_input(x)?;
    let (n, axis) = length_1d("fft.fft", &x, options.n, options.axis)?;
    nonempty(&x, &[axis], |x| plans::fft(x, n, axis, options.norm.name()))
}

/// The 1-D inverse discrete Fourier transform, `scipy.fft.ifft`.
pub fn ifft(x: &Tensor, options: &FftOptions) -> Result<Tensor> {
    let x = fft_input(x)?;
    let (n, axis) = length_1d("fft.ifft", &x, options.n, options.axis)?;
    nonempty(&x, &[axis], |x| plans::ifft(x, n, axis, options.norm.name()))
}

/// The 1-D transform of real input, `scipy.fft.rfft`: the `n // 2 + 1`
/// non-negative frequency terms. Complex input is refused.
pub fn rfft(x: &Tensor, options: &FftOptions) -> Result<Tensor> {
    let x = real_fft_input("fft.rfft", x)?;
    let (n, axis) = length_1d("fft.rfft", &x, options.n, options.axis)?;
    nonempty(&x, &[axis], |x| plans::rfft(x, n, axis, options.norm.name()))
}

/// The inverse of [`hfft`] for real input, `scipy.fft.ihfft`.
pub fn ihfft(x: &Tensor, options: &FftOptions) -> Result<Tensor> {
    let x = real_fft_input("fft.ihfft", x)?;
    let (n, axis) = length_1d("fft.ihfft", &x, options.n, options.axis)?;
    nonempty(&x, &[axis], |x| plans::ihfft(x, n, axis, options.norm.name()))
}

/// The output length of a 1-D complex-to-real transform and the axis, as
/// SciPy's `c2r` computes them: `n` defaults to `2 * (m - 1)` for `m` input
/// points; a given `n` reads `n // 2 + 1` input points, and `n == 0` (whose
/// half length is 1) gives one output point.
fn c2r_length(routine: &str, x: &Tensor, n: Option<i64>, axis: i64) -> Result<(i64, i64)> {
    if let Some(n) = n {
        check_points(n.div_euclid(2) + 1)?;
    }
    let axis = normalize_axis(axis, x.dim())?;
    let n = match n {
        Some(0) => 1,
        Some(n) => n,
        None => {
            let n = (x.size()[axis] - 1) * 2;
            if n < 1 {
                return Err(Error::InvalidArgument(format!("Invalid number of data points ({n}) specified")));
            }
            n
        }
    };
    let axis = axis as i64;
    check_size(routine, &x.size(), &[axis], &[n])?;
    Ok((n, axis))
}

/// The inverse of [`rfft`], `scipy.fft.irfft`: a real result of length `n`
/// (default `2 * (m - 1)`). As in SciPy (and NumPy), the imaginary parts of
/// the zero-frequency and, for even `n`, the Nyquist terms are ignored.
pub fn irfft(x: &Tensor, options: &FftOptions) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (n, axis) = c2r_length("fft.irfft", &x, options.n, options.axis)?;
    nonempty(&x, &[axis], |x| plans::irfft(x, n, axis, options.norm.name()))
}

/// The transform of a Hermitian-symmetric signal, `scipy.fft.hfft`: a real
/// result of length `n` (default `2 * (m - 1)`).
pub fn hfft(x: &Tensor, options: &FftOptions) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (n, axis) = c2r_length("fft.hfft", &x, options.n, options.axis)?;
    nonempty(&x, &[axis], |x| plans::hfft(x, n, axis, options.norm.name()))
}

// ---------------------------------------------------------------------------
// n-D transforms
// ---------------------------------------------------------------------------

/// The transform shape and axes of `options` for `x`, size-checked.
fn plan(routine: &str, x: &Tensor, options: &FftnOptions) -> Result<(Vec<i64>, Vec<i64>)> {
    let dims = x.size();
    let NdPlan { shape, axes } = nd_shape_and_axes(&dims, options.s.as_deref(), options.axes.as_deref())?;
    check_size(routine, &dims, &axes, &shape)?;
    Ok((shape, axes))
}

/// The n-D discrete Fourier transform, `scipy.fft.fftn` (and `fft2` with
/// [`FftnOptions::two_d`]). With no axes to transform, SciPy returns its
/// input unconverted; so does this (a shallow clone).
pub fn fftn(x: &Tensor, options: &FftnOptions) -> Result<Tensor> {
    c2cn("fft.fftn", x, options, true)
}

/// The n-D inverse discrete Fourier transform, `scipy.fft.ifftn` (and `ifft2`).
pub fn ifftn(x: &Tensor, options: &FftnOptions) -> Result<Tensor> {
    c2cn("fft.ifftn", x, options, false)
}

fn c2cn(routine: &str, x: &Tensor, options: &FftnOptions, forward: bool) -> Result<Tensor> {
    let (shape, axes) = plan(routine, x, options)?;
    if axes.is_empty() {
        return Ok(x.shallow_clone());
    }
    let x = fft_input(x)?;
    let norm = options.norm.name();
    nonempty(&x, &axes, |x| plans::c2cn(x, &shape, &axes, norm, forward))
}

/// The n-D transform of real input, `scipy.fft.rfftn` (and `rfft2`): the last
/// axis keeps its `s[-1] // 2 + 1` non-negative frequencies.
pub fn rfftn(x: &Tensor, options: &FftnOptions) -> Result<Tensor> {
    let x = real_fft_input("fft.rfftn", x)?;
    let (shape, axes) = real_nd("fft.rfftn", &x, options)?;
    nonempty(&x, &axes, |x| plans::rfftn(x, &shape, &axes, options.norm.name()))
}

/// The inverse of [`hfftn`] for real input, `scipy.fft.ihfftn` (and `ihfft2`).
pub fn ihfftn(x: &Tensor, options: &FftnOptions) -> Result<Tensor> {
    let x = real_fft_input("fft.ihfftn", x)?;
    let (shape, axes) = real_nd("fft.ihfftn", &x, options)?;
    nonempty(&x, &axes, |x| Ok(x.f_fft_ihfftn(shape.as_slice(), axes.as_slice(), options.norm.name())?))
}

fn real_nd(routine: &str, x: &Tensor, options: &FftnOptions) -> Result<(Vec<i64>, Vec<i64>)> {
    let (shape, axes) = plan(routine, x, options)?;
    if axes.is_empty() {
        return Err(Error::InvalidArgument("at least 1 axis must be transformed".into()));
    }
    Ok((shape, axes))
}

/// The inverse of [`rfftn`], `scipy.fft.irfftn` (and `irfft2`): without `s`
/// the last axis gets `2 * (m - 1)` output points (one point where `m` is 1,
/// as in SciPy).
pub fn irfftn(x: &Tensor, options: &FftnOptions) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (shape, axes) = c2r_nd("fft.irfftn", &x, options)?;
    nonempty(&x, &axes, |x| plans::irfftn(x, &shape, &axes, options.norm.name()))
}

/// The n-D transform of a Hermitian-symmetric signal, `scipy.fft.hfftn` (and `hfft2`).
pub fn hfftn(x: &Tensor, options: &FftnOptions) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (shape, axes) = c2r_nd("fft.hfftn", &x, options)?;
    nonempty(&x, &axes, |x| Ok(x.f_fft_hfftn(shape.as_slice(), axes.as_slice(), options.norm.name())?))
}

fn c2r_nd(routine: &str, x: &Tensor, options: &FftnOptions) -> Result<(Vec<i64>, Vec<i64>)> {
    let (mut shape, axes) = real_nd(routine, x, options)?;
    if let (None, Some(&last_axis), Some(last)) = (&options.s, axes.last(), shape.last_mut()) {
        // SciPy's pocketfft turns a last length of 0 into 2 * 1 - 1 points.
        *last = ((x.size()[last_axis as usize] - 1) * 2).max(1);
    }
    Ok((shape, axes))
}
