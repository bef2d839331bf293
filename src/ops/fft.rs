//! `scipy.fft` counterparts: discrete Fourier, cosine and sine transforms.
//!
//! Every routine follows `scipy.fft` (SciPy 1.17): the same dtype rules
//! (float16 computes in float32; bool, integers and bfloat16 in float64;
//! float32/complex64 stay single precision), the same handling of `n`/`s`
//! (zero padding or truncation), `axis`/`axes` and `norm`, and the same
//! errors. The Fourier transforms are libtorch's `torch.fft` kernels; the
//! cosine and sine transforms are composites of them (libtorch has no
//! DCT/DST), computed on the input's device.
//!
//! A routine never writes into its input and returns a fresh tensor, except
//! where SciPy returns its input unchanged (an n-D transform over no axes).

use std::f64::consts::{FRAC_1_SQRT_2, PI, SQRT_2};

use tch::{Device, Kind, Tensor};

use crate::{dlpack, DType, Error, Result};

/// The `norm` option of every `scipy.fft` transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Norm {
    /// No scaling on the forward transform, `1/n` on the inverse (SciPy's default, `None`).
    #[default]
    Backward,
    /// `1/sqrt(n)` on both directions: the transforms are unitary.
    Ortho,
    /// `1/n` on the forward transform, none on the inverse.
    Forward,
}

impl Norm {
    /// Parses SciPy's `norm` argument: `None`, `"backward"`, `"ortho"` or `"forward"`.
    pub fn from_scipy(norm: Option<&str>) -> Result<Norm> {
        match norm {
            None | Some("backward") => Ok(Norm::Backward),
            Some("ortho") => Ok(Norm::Ortho),
            Some("forward") => Ok(Norm::Forward),
            Some(other) => Err(Error::InvalidArgument(format!(
                "Invalid norm value '{other}', should be \"backward\", \"ortho\" or \"forward\""
            ))),
        }
    }

    /// The name `torch.fft` uses for the same convention.
    pub fn name(self) -> &'static str {
        match self {
            Norm::Backward => "backward",
            Norm::Ortho => "ortho",
            Norm::Forward => "forward",
        }
    }

    /// The same convention seen from the other direction (SciPy's
    /// `_normalization(norm, forward=False)`): an inverse transform with
    /// `Backward` scales like a forward transform with `Forward`.
    fn swapped(self) -> Norm {
        match self {
            Norm::Backward => Norm::Forward,
            Norm::Ortho => Norm::Ortho,
            Norm::Forward => Norm::Backward,
        }
    }

    /// The factor a forward-sense transform of logical length `length` is scaled by.
    fn factor(self, length: i64) -> f64 {
        match self {
            Norm::Backward => 1.0,
            Norm::Ortho => 1.0 / (length as f64).sqrt(),
            Norm::Forward => 1.0 / length as f64,
        }
    }
}

// ---------------------------------------------------------------------------
// Argument checks shared by the routines
// ---------------------------------------------------------------------------

/// The input as SciPy's `_asfarray` converts it: float16 to float32; bool,
/// integers and bfloat16 to float64; float32/64 and complex64/128 unchanged.
fn fft_input(x: &Tensor) -> Result<Tensor> {
    let target = match dlpack::dtype_of(x)? {
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128 => return Ok(x.shallow_clone()),
        DType::Float16 => Kind::Float,
        _ => Kind::Double,
    };
    Ok(x.f_to_kind(target)?)
}

/// [`fft_input`], refusing complex input (SciPy: "x must be a real sequence").
fn real_fft_input(routine: &'static str, x: &Tensor) -> Result<Tensor> {
    let x = fft_input(x)?;
    let dtype = dlpack::dtype_of(&x)?;
    if dtype.is_complex() {
        return Err(Error::DtypeNotAccepted {
            routine,
            dtype,
            accepted: "real input (x must be a real sequence): bool, integer and real floating-point",
        });
    }
    Ok(x)
}

/// The complex dtype of the same precision (real input to a complex-to-real transform).
fn as_complex(x: &Tensor) -> Result<Tensor> {
    Ok(match x.f_kind()? {
        Kind::Float => x.f_to_kind(Kind::ComplexFloat)?,
        Kind::Double => x.f_to_kind(Kind::ComplexDouble)?,
        _ => x.shallow_clone(),
    })
}

/// `axis` in `0..ndim` (negative counts from the end), as Python indexes `x.shape`.
pub fn normalize_axis(axis: i64, ndim: i64) -> Result<i64> {
    if (-ndim..ndim).contains(&axis) {
        Ok(if axis < 0 { axis + ndim } else { axis })
    } else {
        Err(Error::InvalidArgument(format!("axis {axis} is out of bounds for array of dimension {ndim}")))
    }
}

fn check_points(n: i64) -> Result<()> {
    if n < 1 {
        return Err(Error::InvalidArgument(format!("invalid number of data points ({n}) specified")));
    }
    Ok(())
}

/// The transform length along `axis`: `n`, or the input's length there.
fn length_1d(x: &Tensor, n: Option<i64>, axis: i64) -> Result<(i64, i64)> {
    if let Some(n) = n {
        check_points(n)?;
    }
    let axis = normalize_axis(axis, x.dim() as i64)?;
    let n = match n {
        Some(n) => n,
        None => {
            let len = x.size()[axis as usize];
            check_points(len)?;
            len
        }
    };
    Ok((n, axis))
}

/// SciPy's `_init_nd_shape_and_axes`: the transform shape and the axes (in
/// `0..ndim`) of an n-D transform of an array with dimensions `dims`.
///
/// `axes` (default: all, or the last `len(s)` when `s` is given) must be
/// unique and in range; `s` (default: the input's lengths on `axes`) must
/// match `axes` in length, `-1` standing for the input's length, and every
/// length must be positive. An empty axis list is valid (SciPy then returns
/// its input for the complex and real-to-real transforms).
pub fn nd_shape_and_axes(dims: &[i64], s: Option<&[i64]>, axes: Option<&[i64]>) -> Result<(Vec<i64>, Vec<i64>)> {
    let ndim = dims.len() as i64;
    let invalid = |msg: &str| Err(Error::InvalidArgument(msg.to_string()));
    let axes: Option<Vec<i64>> = match axes {
        None => None,
        Some(axes) => {
            let axes: Vec<i64> = axes.iter().map(|&a| if a < 0 { a + ndim } else { a }).collect();
            if axes.iter().any(|&a| a < 0 || a >= ndim) {
                return invalid("axes exceeds dimensionality of input");
            }
            let mut sorted = axes.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != axes.len() {
                return invalid("all axes must be unique");
            }
            Some(axes)
        }
    };
    let (shape, axes) = match (s, axes) {
        (Some(s), axes) => {
            if let Some(axes) = &axes {
                if !axes.is_empty() && axes.len() != s.len() {
                    return invalid("when given, axes and shape arguments have to be of the same length");
                }
            }
            let axes = match axes {
                Some(axes) => axes,
                None => {
                    if s.len() as i64 > ndim {
                        return invalid("shape requires more axes than are present");
                    }
                    (ndim - s.len() as i64..ndim).collect()
                }
            };
            let shape = s.iter().zip(&axes).map(|(&n, &a)| if n == -1 { dims[a as usize] } else { n }).collect();
            (shape, axes)
        }
        (None, None) => (dims.to_vec(), (0..ndim).collect()),
        (None, Some(axes)) => (axes.iter().map(|&a| dims[a as usize]).collect(), axes),
    };
    if shape.iter().any(|&n| n < 1) {
        return Err(Error::InvalidArgument(format!("invalid number of data points ({shape:?}) specified")));
    }
    Ok((shape, axes))
}

/// `x` truncated or zero-padded to length `n` along `axis` (in `0..ndim`).
fn resize_axis(x: &Tensor, axis: i64, n: i64) -> Result<Tensor> {
    let len = x.size()[axis as usize];
    if n <= len {
        return Ok(x.f_narrow(axis, 0, n)?);
    }
    let mut pad = vec![0i64; 2 * (x.dim() - axis as usize)];
    if let Some(last) = pad.last_mut() {
        *last = n - len;
    }
    Ok(x.f_constant_pad_nd(pad)?)
}

/// Runs `op` on `x`, or, when `x` is empty, on a zero-filled stand-in whose
/// empty dimensions have length 1, cutting those not in `axes` back to 0
/// afterwards: libtorch's MKL FFTs fail on empty batches. An empty
/// transformed axis (padded by `n`/`s`) only ever holds zeros, as the stand-in does.
fn nonempty(x: &Tensor, axes: &[i64], op: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    if x.numel() != 0 {
        return op(x);
    }
    let size = x.size();
    let shape: Vec<i64> = size.iter().map(|&len| len.max(1)).collect();
    let mut y = op(&Tensor::f_zeros(shape.as_slice(), (x.f_kind()?, x.device()))?)?;
    for (dim, &len) in size.iter().enumerate() {
        let dim = dim as i64;
        if len == 0 && !axes.contains(&dim) {
            y = y.f_narrow(dim, 0, 0)?;
        }
    }
    Ok(y)
}

// ---------------------------------------------------------------------------
// Fourier transforms
// ---------------------------------------------------------------------------

/// The 1-D discrete Fourier transform, `scipy.fft.fft`.
///
/// `n` zero-pads or truncates the input along `axis`; real input gives a
/// complex result of the same precision (float32 -> complex64, float64,
/// bool and integers -> complex128).
pub fn fft(x: &Tensor, n: Option<i64>, axis: i64, norm: Norm) -> Result<Tensor> {
    let x = fft_input(x)?;
    let (n, axis) = length_1d(&x, n, axis)?;
    nonempty(&x, &[axis], |x| Ok(x.f_fft_fft(n, axis, norm.name())?))
}

/// The 1-D inverse discrete Fourier transform, `scipy.fft.ifft`.
pub fn ifft(x: &Tensor, n: Option<i64>, axis: i64, norm: Norm) -> Result<Tensor> {
    let x = fft_input(x)?;
    let (n, axis) = length_1d(&x, n, axis)?;
    nonempty(&x, &[axis], |x| Ok(x.f_fft_ifft(n, axis, norm.name())?))
}

/// The 1-D transform of real input, `scipy.fft.rfft`: the `n // 2 + 1`
/// non-negative frequency terms. Complex input is refused.
pub fn rfft(x: &Tensor, n: Option<i64>, axis: i64, norm: Norm) -> Result<Tensor> {
    let x = real_fft_input("fft.rfft", x)?;
    let (n, axis) = length_1d(&x, n, axis)?;
    nonempty(&x, &[axis], |x| Ok(x.f_fft_rfft(n, axis, norm.name())?))
}

/// The inverse of [`hfft`] for real input, `scipy.fft.ihfft`.
pub fn ihfft(x: &Tensor, n: Option<i64>, axis: i64, norm: Norm) -> Result<Tensor> {
    let x = real_fft_input("fft.ihfft", x)?;
    let (n, axis) = length_1d(&x, n, axis)?;
    nonempty(&x, &[axis], |x| Ok(x.f_fft_ihfft(n, axis, norm.name())?))
}

/// The output length of a 1-D complex-to-real transform and the axis, as
/// SciPy's `c2r` computes them: `n` defaults to `2 * (m - 1)` for `m` input
/// points; a given `n` reads `n // 2 + 1` input points, and `n == 0` (whose
/// half length is 1) gives one output point.
fn c2r_length(x: &Tensor, n: Option<i64>, axis: i64) -> Result<(i64, i64)> {
    if let Some(n) = n {
        check_points(n.div_euclid(2) + 1)?;
    }
    let axis = normalize_axis(axis, x.dim() as i64)?;
    let n = match n {
        Some(0) => 1,
        Some(n) => n,
        None => {
            let n = (x.size()[axis as usize] - 1) * 2;
            if n < 1 {
                return Err(Error::InvalidArgument(format!("Invalid number of data points ({n}) specified")));
            }
            n
        }
    };
    Ok((n, axis))
}

/// The inverse of [`rfft`], `scipy.fft.irfft`: a real result of length `n`
/// (default `2 * (m - 1)`). As in SciPy (and NumPy), the imaginary parts of
/// the zero-frequency and, for even `n`, the Nyquist terms are ignored.
pub fn irfft(x: &Tensor, n: Option<i64>, axis: i64, norm: Norm) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (n, axis) = c2r_length(&x, n, axis)?;
    nonempty(&x, &[axis], |x| Ok(x.f_fft_irfft(n, axis, norm.name())?))
}

/// The transform of a Hermitian-symmetric signal, `scipy.fft.hfft`: a real
/// result of length `n` (default `2 * (m - 1)`).
pub fn hfft(x: &Tensor, n: Option<i64>, axis: i64, norm: Norm) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (n, axis) = c2r_length(&x, n, axis)?;
    nonempty(&x, &[axis], |x| Ok(x.f_fft_hfft(n, axis, norm.name())?))
}

/// The n-D discrete Fourier transform, `scipy.fft.fftn` (and `fft2` with
/// `axes = [-2, -1]`). With no axes to transform, SciPy returns its input
/// unconverted; so does this (a shallow clone).
pub fn fftn(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    c2cn(x, s, axes, norm, true)
}

/// The n-D inverse discrete Fourier transform, `scipy.fft.ifftn` (and `ifft2`).
pub fn ifftn(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    c2cn(x, s, axes, norm, false)
}

fn c2cn(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm, forward: bool) -> Result<Tensor> {
    let (shape, axes) = nd_shape_and_axes(&x.size(), s, axes)?;
    if axes.is_empty() {
        return Ok(x.shallow_clone());
    }
    let x = fft_input(x)?;
    nonempty(&x, &axes, |x| {
        Ok(if forward {
            x.f_fft_fftn(shape.as_slice(), axes.as_slice(), norm.name())?
        } else {
            x.f_fft_ifftn(shape.as_slice(), axes.as_slice(), norm.name())?
        })
    })
}

/// The n-D transform of real input, `scipy.fft.rfftn` (and `rfft2`): the last
/// axis keeps its `s[-1] // 2 + 1` non-negative frequencies.
pub fn rfftn(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    let x = real_fft_input("fft.rfftn", x)?;
    let (shape, axes) = real_nd(&x, s, axes)?;
    nonempty(&x, &axes, |x| Ok(x.f_fft_rfftn(shape.as_slice(), axes.as_slice(), norm.name())?))
}

/// The inverse of [`hfftn`] for real input, `scipy.fft.ihfftn` (and `ihfft2`).
pub fn ihfftn(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    let x = real_fft_input("fft.ihfftn", x)?;
    let (shape, axes) = real_nd(&x, s, axes)?;
    nonempty(&x, &axes, |x| Ok(x.f_fft_ihfftn(shape.as_slice(), axes.as_slice(), norm.name())?))
}

fn real_nd(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>) -> Result<(Vec<i64>, Vec<i64>)> {
    let (shape, axes) = nd_shape_and_axes(&x.size(), s, axes)?;
    if axes.is_empty() {
        return Err(Error::InvalidArgument("at least 1 axis must be transformed".into()));
    }
    Ok((shape, axes))
}

/// The inverse of [`rfftn`], `scipy.fft.irfftn` (and `irfft2`): without `s`
/// the last axis gets `2 * (m - 1)` output points (one point where `m` is 1,
/// as in SciPy).
pub fn irfftn(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (shape, axes) = c2r_nd(&x, s, axes)?;
    nonempty(&x, &axes, |x| Ok(x.f_fft_irfftn(shape.as_slice(), axes.as_slice(), norm.name())?))
}

/// The n-D transform of a Hermitian-symmetric signal, `scipy.fft.hfftn` (and `hfft2`).
pub fn hfftn(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>, norm: Norm) -> Result<Tensor> {
    let x = as_complex(&fft_input(x)?)?;
    let (shape, axes) = c2r_nd(&x, s, axes)?;
    nonempty(&x, &axes, |x| Ok(x.f_fft_hfftn(shape.as_slice(), axes.as_slice(), norm.name())?))
}

fn c2r_nd(x: &Tensor, s: Option<&[i64]>, axes: Option<&[i64]>) -> Result<(Vec<i64>, Vec<i64>)> {
    let (mut shape, axes) = real_nd(x, s, axes)?;
    if let (None, Some(&last_axis), Some(last)) = (s, axes.last(), shape.last_mut()) {
        // SciPy's pocketfft turns a last length of 0 into 2 * 1 - 1 points.
        *last = ((x.size()[last_axis as usize] - 1) * 2).max(1);
    }
    Ok((shape, axes))
}

// ---------------------------------------------------------------------------
// Cosine and sine transforms
// ---------------------------------------------------------------------------

/// Cosine or sine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trig {
    Cos,
    Sin,
}

impl Trig {
    fn name(self) -> &'static str {
        match self {
            Trig::Cos => "DCT",
            Trig::Sin => "DST",
        }
    }
}

/// The discrete cosine transform of type 1, 2, 3 or 4, `scipy.fft.dct`.
///
/// `orthogonalize` (`None`: true exactly when `norm` is `Ortho`) rescales the
/// end terms so that `Ortho` gives an orthonormal matrix. Complex input is
/// transformed part by part; as in SciPy, `orthogonalize` then keeps its
/// default whatever is passed. DCT-I needs at least 2 points.
pub fn dct(
    x: &Tensor,
    type_: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2r(Trig::Cos, true, x, type_, n, axis, norm, orthogonalize)
}

/// The inverse discrete cosine transform, `scipy.fft.idct` (`idct` of type
/// 2 is a scaled DCT-III, of type 3 a scaled DCT-II).
pub fn idct(
    x: &Tensor,
    type_: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2r(Trig::Cos, false, x, type_, n, axis, norm, orthogonalize)
}

/// The discrete sine transform of type 1, 2, 3 or 4, `scipy.fft.dst`.
pub fn dst(
    x: &Tensor,
    type_: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2r(Trig::Sin, true, x, type_, n, axis, norm, orthogonalize)
}

/// The inverse discrete sine transform, `scipy.fft.idst`.
pub fn idst(
    x: &Tensor,
    type_: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2r(Trig::Sin, false, x, type_, n, axis, norm, orthogonalize)
}

/// The n-D discrete cosine transform, `scipy.fft.dctn`: [`dct`] along each
/// of `axes` in turn. With no axes SciPy returns its input; so does this.
pub fn dctn(
    x: &Tensor,
    type_: i64,
    s: Option<&[i64]>,
    axes: Option<&[i64]>,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2rn(Trig::Cos, true, x, type_, s, axes, norm, orthogonalize)
}

/// The n-D inverse discrete cosine transform, `scipy.fft.idctn`.
pub fn idctn(
    x: &Tensor,
    type_: i64,
    s: Option<&[i64]>,
    axes: Option<&[i64]>,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2rn(Trig::Cos, false, x, type_, s, axes, norm, orthogonalize)
}

/// The n-D discrete sine transform, `scipy.fft.dstn`.
pub fn dstn(
    x: &Tensor,
    type_: i64,
    s: Option<&[i64]>,
    axes: Option<&[i64]>,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2rn(Trig::Sin, true, x, type_, s, axes, norm, orthogonalize)
}

/// The n-D inverse discrete sine transform, `scipy.fft.idstn`.
pub fn idstn(
    x: &Tensor,
    type_: i64,
    s: Option<&[i64]>,
    axes: Option<&[i64]>,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    r2rn(Trig::Sin, false, x, type_, s, axes, norm, orthogonalize)
}

/// The transform type an inverse runs (SciPy swaps 2 and 3), validated.
fn r2r_type(trig: Trig, forward: bool, type_: i64) -> Result<i64> {
    match (forward, type_) {
        (_, 1 | 4) => Ok(type_),
        (true, 2 | 3) => Ok(type_),
        (false, 2) => Ok(3),
        (false, 3) => Ok(2),
        _ => Err(Error::InvalidArgument(format!("invalid {} type", trig.name()))),
    }
}

#[allow(clippy::too_many_arguments)]
fn r2r(
    trig: Trig,
    forward: bool,
    x: &Tensor,
    type_: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    let x = fft_input(x)?;
    let (n, axis) = length_1d(&x, n, axis)?;
    let x = resize_axis(&x, axis, n)?;
    let type_ = r2r_type(trig, forward, type_)?;
    let norm = if forward { norm } else { norm.swapped() };
    nonempty(&x, &[axis], |x| r2r_parts(x, trig, type_, &[axis], norm, orthogonalize))
}

#[allow(clippy::too_many_arguments)]
fn r2rn(
    trig: Trig,
    forward: bool,
    x: &Tensor,
    type_: i64,
    s: Option<&[i64]>,
    axes: Option<&[i64]>,
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    let (shape, axes) = nd_shape_and_axes(&x.size(), s, axes)?;
    if axes.is_empty() {
        return Ok(x.shallow_clone());
    }
    let mut x = fft_input(x)?;
    for (&axis, &n) in axes.iter().zip(&shape) {
        x = resize_axis(&x, axis, n)?;
    }
    let type_ = r2r_type(trig, forward, type_)?;
    let norm = if forward { norm } else { norm.swapped() };
    nonempty(&x, &axes, |x| r2r_parts(x, trig, type_, &axes, norm, orthogonalize))
}

/// Real input: the transform along each axis. Complex input: the real and
/// imaginary parts separately, with the default `orthogonalize` (SciPy passes
/// no `orthogonalize` to its kernel for complex input).
fn r2r_parts(
    x: &Tensor,
    trig: Trig,
    type_: i64,
    axes: &[i64],
    norm: Norm,
    orthogonalize: Option<bool>,
) -> Result<Tensor> {
    let default_orthogonal = norm == Norm::Ortho;
    if matches!(x.f_kind()?, Kind::ComplexFloat | Kind::ComplexDouble) {
        let real = r2r_axes(&x.f_real()?, trig, type_, axes, norm, default_orthogonal)?;
        let imag = r2r_axes(&x.f_imag()?, trig, type_, axes, norm, default_orthogonal)?;
        return Ok(Tensor::f_complex(&real, &imag)?);
    }
    r2r_axes(x, trig, type_, axes, norm, orthogonalize.unwrap_or(default_orthogonal))
}

fn r2r_axes(x: &Tensor, trig: Trig, type_: i64, axes: &[i64], norm: Norm, orthogonalize: bool) -> Result<Tensor> {
    let mut y = x.shallow_clone();
    for &axis in axes {
        let len = y.size()[axis as usize];
        if trig == Trig::Cos && type_ == 1 && len < 2 {
            return Err(Error::InvalidArgument(format!(
                "invalid number of data points ({len}) specified: DCT-I needs at least 2 \
                 (SciPy raises 'zero-length FFT requested')"
            )));
        }
        let last = y.f_movedim(axis, -1)?;
        let transformed = r2r_last(&last, trig, type_, norm, orthogonalize)?;
        y = transformed.f_movedim(-1, axis)?;
    }
    Ok(y)
}

/// One real-to-real transform along the last axis of real `x` (float32 or
/// float64), in SciPy's forward-sense scaling `norm`.
///
/// Unnormalized kernels (SciPy's definitions, `N` points):
/// - DCT-I: `y[k] = x[0] + (-1)^k x[N-1] + 2 sum_{n=1}^{N-2} x[n] cos(pi k n / (N-1))`,
///   the real part of the FFT of the even extension `[x, x[N-2:0:-1]]`;
/// - DST-I: `y[k] = 2 sum x[n] sin(pi (k+1)(n+1) / (N+1))`, from the FFT of the
///   odd extension `[0, x, 0, -x[::-1]]`;
/// - DCT-II: Makhoul's algorithm: an N-point real FFT of `[x[0::2], x[1::2][::-1]]`
///   and a quarter-wave twiddle;
/// - DCT-III: its transpose, an N-point inverse real FFT and the interleave;
/// - DCT-IV: for even N an N/2-point complex FFT of `x[0::2] + i x[::-1][0::2]`
///   between twiddles; for odd N a 2N-point FFT of `x[n] exp(-i pi n / 2N)`
///   and the post-twiddle `exp(-i pi (2k+1) / 4N)`;
/// - DST-II/III/IV from DCT-II/III/IV by sign alternation and reversal,
///   folded into the permutations.
///
/// Scaling: `Ortho` divides by `sqrt(M)`, `Forward` by `M`, with the logical
/// length `M = 2(N-1)` (DCT-I), `2(N+1)` (DST-I), `2N` otherwise.
fn r2r_last(x: &Tensor, trig: Trig, type_: i64, norm: Norm, orthogonalize: bool) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let logical = match (trig, type_) {
        (Trig::Cos, 1) => 2 * (n - 1),
        (Trig::Sin, 1) => 2 * (n + 1),
        _ => 2 * n,
    };
    // orthogonalize: end terms scaled by sqrt(2) before and/or after.
    let (pre, post) = match (orthogonalize, trig, type_) {
        (true, Trig::Cos, 1) => ((SQRT_2, SQRT_2), (FRAC_1_SQRT_2, FRAC_1_SQRT_2)),
        (true, Trig::Cos, 2) => ((1.0, 1.0), (FRAC_1_SQRT_2, 1.0)),
        (true, Trig::Cos, 3) => ((SQRT_2, 1.0), (1.0, 1.0)),
        (true, Trig::Sin, 2) => ((1.0, 1.0), (1.0, FRAC_1_SQRT_2)),
        (true, Trig::Sin, 3) => ((1.0, SQRT_2), (1.0, 1.0)),
        _ => ((1.0, 1.0), (1.0, 1.0)),
    };
    let x = if pre == (1.0, 1.0) { x.shallow_clone() } else { scaled(x, 1.0, pre)? };
    let sine = trig == Trig::Sin;
    // Each kernel returns the transform up to a constant gain.
    let (y, gain) = match (trig, type_) {
        (Trig::Cos, 1) => (dct1(&x)?, 1.0),
        (Trig::Sin, 1) => (dst1(&x)?, -1.0),
        (_, 2) => (dct2(&x, sine)?, 2.0),
        (_, 3) => (dct3(&x, sine)?, 1.0),
        _ => (dct4(&x, sine)?, 2.0),
    };
    let factor = gain * norm.factor(logical);
    if post == (1.0, 1.0) && factor == 1.0 {
        return Ok(y);
    }
    scaled(&y, factor, post)
}

/// A fresh `x * factor` whose first and last elements along the last axis
/// are further multiplied by `ends.0` and `ends.1` (never in place on `x`).
fn scaled(x: &Tensor, factor: f64, ends: (f64, f64)) -> Result<Tensor> {
    let y = x.f_mul_scalar(factor)?;
    let n = y.size().last().copied().unwrap_or(0);
    if n > 0 {
        // In place on views of `y`: this function's own fresh tensor.
        if ends.0 != 1.0 {
            let _ = y.f_narrow(-1, 0, 1)?.f_mul_scalar_(ends.0)?;
        }
        if ends.1 != 1.0 {
            let _ = y.f_narrow(-1, n - 1, 1)?.f_mul_scalar_(ends.1)?;
        }
    }
    Ok(y)
}

/// `[1, -1, 1, -1, ...]` of length `n`.
fn alternating(n: i64, kind: Kind, device: Device) -> Result<Tensor> {
    let parity = Tensor::f_arange(n, (Kind::Int64, device))?.f_remainder(2)?;
    Ok(parity.f_mul_scalar(-2)?.f_add_scalar(1)?.f_to_kind(kind)?)
}

/// `exp(i * (start + step * k))` for `k` in `0..len`, computed in float64 and
/// returned in the complex dtype matching real `kind`.
fn twiddle(len: i64, start: f64, step: f64, kind: Kind, device: Device) -> Result<Tensor> {
    let angle = Tensor::f_arange(len, (Kind::Double, device))?.f_mul_scalar(step)?.f_add_scalar(start)?;
    let unit = Tensor::f_complex(&angle.f_cos()?, &angle.f_sin()?)?;
    let complex = if kind == Kind::Float { Kind::ComplexFloat } else { Kind::ComplexDouble };
    Ok(unit.f_to_kind(complex)?)
}

/// DCT-I: the real part of the FFT of the even extension `[x, x[N-2:0:-1]]`.
fn dct1(x: &Tensor) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let inner = x.f_narrow(-1, 1, n - 2)?.f_flip([-1])?;
    let even = Tensor::f_cat(&[x, &inner], -1)?;
    Ok(even.f_fft_rfft(None, -1, "backward")?.f_real()?)
}

/// Minus DST-I: the imaginary part of the FFT of the odd extension `[0, x, 0, -x[::-1]]`.
fn dst1(x: &Tensor) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let zero = x.f_narrow(-1, 0, 1)?.f_zeros_like()?;
    let odd = Tensor::f_cat(&[&zero, x, &zero, &x.f_flip([-1])?.f_neg()?], -1)?;
    Ok(odd.f_fft_rfft(None, -1, "backward")?.f_imag()?.f_narrow(-1, 1, n)?)
}

/// Half DCT-II (Makhoul), or half DST-II with `sine`: DST-II(x) is DCT-II of
/// `(-1)^n x[n]` reversed, the sign falling on the odd half of Makhoul's permutation.
fn dct2(x: &Tensor, sine: bool) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let half = n / 2 + 1;
    let even = x.f_slice(-1, 0, n, 2)?;
    let mut odd = x.f_slice(-1, 1, n, 2)?.f_flip([-1])?;
    if sine {
        odd = odd.f_neg()?;
    }
    let v = Tensor::f_cat(&[&even, &odd], -1)?;
    // Z[k] = exp(-i pi k / 2N) V[k] for k <= N/2; V's upper half is conj(V[N-k]),
    // so y[k] = Re Z[k] there and y[N-j] = -Im Z[j] for 1 <= j < N - N/2.
    let w = twiddle(half, 0.0, -PI / (2 * n) as f64, x.f_kind()?, x.device())?;
    let z = v.f_fft_rfft(None, -1, "backward")?.f_mul(&w)?;
    let upper = z.f_imag()?.f_narrow(-1, 1, n - half)?.f_flip([-1])?.f_neg()?;
    let y = Tensor::f_cat(&[z.f_real()?, upper], -1)?;
    Ok(if sine { y.f_flip([-1])? } else { y })
}

/// DCT-III (Makhoul's inverse), or DST-III with `sine`: DST-III(x) is
/// `(-1)^k` DCT-III of `x` reversed, the sign falling on the odd outputs.
fn dct3(x: &Tensor, sine: bool) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let x = if sine { x.f_flip([-1])? } else { x.shallow_clone() };
    let half = n / 2 + 1;
    // V[k] = exp(i pi k / 2N) (x[k] - i x[N-k]), x[N] = 0, for k <= N/2.
    let re = x.f_narrow(-1, 0, half)?;
    let tail = x.f_narrow(-1, n - (half - 1), half - 1)?.f_flip([-1])?.f_neg()?;
    let im = Tensor::f_cat(&[&x.f_narrow(-1, 0, 1)?.f_zeros_like()?, &tail], -1)?;
    let w = twiddle(half, 0.0, PI / (2 * n) as f64, x.f_kind()?, x.device())?;
    let spectrum = Tensor::f_complex(&re, &im)?.f_mul(&w)?;
    let v = spectrum.f_fft_irfft(n, -1, "forward")?;
    // y[2j] = v[j], y[2j+1] = v[N-1-j]
    let ceil = (n + 1) / 2;
    let front = v.f_narrow(-1, 0, ceil)?;
    let mut back = v.f_narrow(-1, ceil, n - ceil)?.f_flip([-1])?;
    if sine {
        back = back.f_neg()?;
    }
    if n % 2 == 1 {
        back = back.f_constant_pad_nd([0i64, 1])?;
    }
    Ok(Tensor::f_stack(&[front, back], -1)?.f_flatten(-2, -1)?.f_narrow(-1, 0, n)?)
}

/// Half DCT-IV, or half DST-IV with `sine` (`(-1)^k` DCT-IV of `x` reversed).
fn dct4(x: &Tensor, sine: bool) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let (kind, device) = (x.f_kind()?, x.device());
    let x = if sine { x.f_flip([-1])? } else { x.shallow_clone() };
    if n % 2 == 0 {
        // Even N: an N/2-point complex FFT of (x[2m] + i x[N-1-2m]) exp(-i pi (4m+1) / 4N),
        // post-twiddled by exp(-i pi k / N): y[2k] = Re u[k], y[N-1-2k] = -Im u[k].
        let m = n / 2;
        let v = Tensor::f_complex(&x.f_slice(-1, 0, n, 2)?, &x.f_flip([-1])?.f_slice(-1, 0, n, 2)?)?;
        let four_n = (4 * n) as f64;
        let pre = twiddle(m, -PI / four_n, -4.0 * PI / four_n, kind, device)?;
        let post = twiddle(m, 0.0, -PI / n as f64, kind, device)?;
        let u = v.f_mul(&pre)?.f_fft_fft(None, -1, "backward")?.f_mul(&post)?;
        let mut odd = u.f_imag()?.f_flip([-1])?;
        if !sine {
            odd = odd.f_neg()?;
        }
        return Ok(Tensor::f_stack(&[u.f_real()?, odd], -1)?.f_flatten(-2, -1)?);
    }
    // Odd N: a 2N-point FFT of x[n] exp(-i pi n / 2N), post-twiddled by exp(-i pi (2k+1) / 4N).
    let pre = twiddle(n, 0.0, -PI / (2 * n) as f64, kind, device)?;
    let spectrum = x.f_mul(&pre)?.f_fft_fft(2 * n, -1, "backward")?.f_narrow(-1, 0, n)?;
    let four_n = (4 * n) as f64;
    let post = twiddle(n, -PI / four_n, -2.0 * PI / four_n, kind, device)?;
    let y = spectrum.f_mul(&post)?.f_real()?;
    Ok(if sine { y.f_mul(&alternating(n, kind, device)?)? } else { y })
}

// ---------------------------------------------------------------------------
// Helpers: frequencies, shifts, fast lengths
// ---------------------------------------------------------------------------

/// The sample frequencies of an `n`-point FFT with sample spacing `d`,
/// `scipy.fft.fftfreq`: `[0, 1, ..., (n-1)//2, -(n//2), ..., -1] * (1 / (n d))`,
/// computed as NumPy does (the integers times the float64 `1 / (n d)`), then
/// cast to `options.0`. Errors for `n * d == 0` and negative `n`.
pub fn fftfreq(n: i64, d: f64, options: (Kind, Device)) -> Result<Tensor> {
    fftfreq_scaled(n, frequency_scale(n, d)?, options)
}

/// [`fftfreq`] with the frequency step `scale = 1 / (n d)` computed by the
/// caller (NumPy rounds it to the precision of `d`, e.g. float32).
pub fn fftfreq_scaled(n: i64, scale: f64, options: (Kind, Device)) -> Result<Tensor> {
    if n < 0 {
        return Err(Error::InvalidArgument("negative dimensions are not allowed".into()));
    }
    let positive = (n - 1).div_euclid(2) + 1;
    let low = Tensor::f_arange(positive, (Kind::Int64, options.1))?;
    let high = Tensor::f_arange_start(positive - n, 0, (Kind::Int64, options.1))?;
    frequencies(&Tensor::f_cat(&[low, high], 0)?, scale, options.0)
}

/// The non-negative sample frequencies for [`rfft`], `scipy.fft.rfftfreq`:
/// `[0, 1, ..., n//2] * (1 / (n d))` (empty for negative `n`, as NumPy).
pub fn rfftfreq(n: i64, d: f64, options: (Kind, Device)) -> Result<Tensor> {
    rfftfreq_scaled(n, frequency_scale(n, d)?, options)
}

/// [`rfftfreq`] with the frequency step `scale = 1 / (n d)` computed by the caller.
pub fn rfftfreq_scaled(n: i64, scale: f64, options: (Kind, Device)) -> Result<Tensor> {
    let count = (n.div_euclid(2) + 1).max(0);
    frequencies(&Tensor::f_arange(count, (Kind::Int64, options.1))?, scale, options.0)
}

fn frequency_scale(n: i64, d: f64) -> Result<f64> {
    let product = n as f64 * d;
    if product == 0.0 {
        return Err(Error::InvalidArgument("float division by zero: n * d is 0".into()));
    }
    Ok(1.0 / product)
}

fn frequencies(ks: &Tensor, scale: f64, kind: Kind) -> Result<Tensor> {
    if !matches!(kind, Kind::Float | Kind::Double | Kind::Half | Kind::BFloat16) {
        return Err(Error::InvalidArgument(format!("frequencies are real floating-point, not {kind:?}")));
    }
    Ok(ks.f_to_kind(Kind::Double)?.f_mul_scalar(scale)?.f_to_kind(kind)?)
}

/// `scipy.fft.fftshift`: rolls each of `axes` (default all) by half its
/// length, moving the zero frequency to the centre. A repeated axis is rolled
/// once per mention, as NumPy's `roll` does. Any dtype; a fresh tensor.
pub fn fftshift(x: &Tensor, axes: Option<&[i64]>) -> Result<Tensor> {
    shift(x, axes, false)
}

/// `scipy.fft.ifftshift`, the inverse of [`fftshift`] (they differ for odd lengths).
pub fn ifftshift(x: &Tensor, axes: Option<&[i64]>) -> Result<Tensor> {
    shift(x, axes, true)
}

fn shift(x: &Tensor, axes: Option<&[i64]>, inverse: bool) -> Result<Tensor> {
    let ndim = x.dim() as i64;
    if ndim == 0 {
        return Err(Error::InvalidArgument("fftshift needs an array of at least one dimension".into()));
    }
    let dims = x.size();
    let all: Vec<i64> = (0..ndim).collect();
    let mut total = vec![0i64; dims.len()];
    for &axis in axes.unwrap_or(&all) {
        let axis = normalize_axis(axis, ndim)? as usize;
        let half = dims[axis] / 2;
        total[axis] += if inverse { -half } else { half };
    }
    let (shifts, roll_axes): (Vec<i64>, Vec<i64>) = total
        .iter()
        .enumerate()
        .filter(|&(axis, &shift)| dims[axis] > 0 && shift.rem_euclid(dims[axis]) != 0)
        .map(|(axis, &shift)| (shift, axis as i64))
        .unzip();
    if roll_axes.is_empty() {
        return super::deep_copy(x);
    }
    Ok(x.f_roll(shifts.as_slice(), roll_axes.as_slice())?)
}

/// The largest target SciPy's `good_size` accepts: `(target - 1) * 11` must fit a `size_t`.
const MAX_FAST_LEN_TARGET: i64 = (u64::MAX / 11) as i64 + 1;

fn fast_len_target(target: i64) -> Result<u128> {
    if target < 0 {
        return Err(Error::InvalidArgument("Target length must be positive".into()));
    }
    if target > MAX_FAST_LEN_TARGET {
        return Err(Error::InvalidArgument(format!("Target length is too large to perform an FFT: {target}")));
    }
    Ok(target as u128)
}

/// `scipy.fft.next_fast_len`: the smallest length `>= target` whose prime
/// factors are all at most 11 (complex FFTs) or 5 (`real`), exactly as
/// pocketfft's `good_size`; targets up to 12 (6 for `real`), 0 included, are
/// returned unchanged. Errors for a negative or too large target, with SciPy's
/// messages.
pub fn next_fast_len(target: i64, real: bool) -> Result<u64> {
    let n = fast_len_target(target)?;
    let (small, primes): (u128, &[u128]) = if real { (6, &[5]) } else { (12, &[11, 7, 5]) };
    if n <= small {
        return Ok(n as u64);
    }
    let mut best = 2 * n;
    for odd in odd_smooth(primes, best) {
        // Walk the 2^a 3^b multiples of `odd` around n (pocketfft's search).
        let mut x = odd;
        while x < n {
            x *= 2;
        }
        loop {
            if x < n {
                x *= 3;
            } else if x > n {
                best = best.min(x);
                if x % 2 == 1 {
                    break;
                }
                x /= 2;
            } else {
                return Ok(n as u64);
            }
        }
    }
    Ok(best as u64)
}

/// `scipy.fft.prev_fast_len`: the largest length `<= target` whose prime
/// factors are all at most 11 (complex) or 5 (`real`), as pocketfft's
/// `prev_good_size`; targets up to 12 (6 for `real`) are returned unchanged.
pub fn prev_fast_len(target: i64, real: bool) -> Result<u64> {
    let n = fast_len_target(target)?;
    let (small, primes): (u128, &[u128]) = if real { (6, &[5]) } else { (12, &[11, 7, 5]) };
    if n <= small {
        return Ok(n as u64);
    }
    let mut best = 1;
    for odd in odd_smooth(primes, n + 1) {
        let mut x = odd;
        while x * 2 <= n {
            x *= 2;
        }
        best = best.max(x);
        loop {
            if x * 3 <= n {
                x *= 3;
            } else if x % 2 == 0 {
                x /= 2;
            } else {
                break;
            }
            best = best.max(x);
        }
    }
    Ok(best as u64)
}

/// Every product of powers of `primes` (all odd, above 3) below `bound`.
fn odd_smooth(primes: &[u128], bound: u128) -> Vec<u128> {
    let mut values = vec![1u128];
    for &p in primes {
        let mut more = Vec::new();
        for &v in &values {
            let mut x = v * p;
            while x < bound {
                more.push(x);
                x *= p;
            }
        }
        values.extend(more);
    }
    values
}
