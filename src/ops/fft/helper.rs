//! `scipy.fft._helper`: sample frequencies, shifts and fast lengths, and the
//! argument planning every transform shares (SciPy's dtype conversion, `n`
//! and `s`/`axes` handling, padding, size checks).

use tch::{Device, Kind, Tensor};

pub(super) use crate::ops::numpy::arange;
use crate::ops::numpy::normalize_axis;
use crate::{dlpack, DType, Error, Result};

// ---------------------------------------------------------------------------
// Argument planning shared by the transforms
// ---------------------------------------------------------------------------

/// The input as SciPy's `_asfarray` converts it: float16 to float32; bool,
/// integers and bfloat16 to float64; float32/64 and complex64/128 unchanged.
pub(super) fn fft_input(x: &Tensor) -> Result<Tensor> {
    let target = match dlpack::dtype_of(x)? {
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128 => return Ok(x.shallow_clone()),
        DType::Float16 => Kind::Float,
        _ => Kind::Double,
    };
    Ok(x.f_to_kind(target)?)
}

/// [`fft_input`], refusing complex input (SciPy: "x must be a real sequence").
pub(super) fn real_fft_input(routine: &'static str, x: &Tensor) -> Result<Tensor> {
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
pub(super) fn as_complex(x: &Tensor) -> Result<Tensor> {
    Ok(match x.f_kind()? {
        Kind::Float => x.f_to_kind(Kind::ComplexFloat)?,
        Kind::Double => x.f_to_kind(Kind::ComplexDouble)?,
        _ => x.shallow_clone(),
    })
}

pub(super) fn check_points(n: i64) -> Result<()> {
    if n < 1 {
        return Err(Error::InvalidArgument(format!("invalid number of data points ({n}) specified")));
    }
    Ok(())
}

/// The transform length along `axis` and the axis (in `0..ndim`): `n`, or
/// the input's length there. A length whose transform could not be held in
/// memory is refused ([`check_size`]) before anything is computed.
pub(super) fn length_1d(routine: &str, x: &Tensor, n: Option<i64>, axis: i64) -> Result<(i64, i64)> {
    if let Some(n) = n {
        check_points(n)?;
    }
    let axis = normalize_axis(axis, x.dim())?;
    let n = match n {
        Some(n) => n,
        None => {
            let len = x.size()[axis];
            check_points(len)?;
            len
        }
    };
    check_size(routine, &x.size(), &[axis as i64], &[n])?;
    Ok((n, axis as i64))
}

/// The bytes a transform's largest array may take: complex128 elements.
const BYTES_PER_ELEMENT: u128 = 16;

/// Refuses (with [`Error::OutOfMemory`], NumPy's `MemoryError`) a transform
/// of an array with dimensions `dims` whose `axes` get the lengths `lengths`
/// when its (complex128) result would not fit an allocation: libtorch would
/// otherwise compute a wrapped-around size. Empty dimensions count as 1, as
/// [`nonempty`] computes on a stand-in of that shape.
pub(super) fn check_size(routine: &str, dims: &[i64], axes: &[i64], lengths: &[i64]) -> Result<()> {
    let mut elements: Option<u128> = Some(BYTES_PER_ELEMENT);
    for (dim, &len) in dims.iter().enumerate() {
        let len = axes.iter().position(|&a| a == dim as i64).map_or(len, |i| lengths[i]);
        elements = elements.and_then(|e| e.checked_mul(len.max(1) as u128));
    }
    match elements {
        Some(bytes) if bytes <= isize::MAX as u128 => Ok(()),
        bytes => Err(Error::out_of_memory(bytes.unwrap_or(u128::MAX), &format!("the result of {routine}"))),
    }
}

/// What [`nd_shape_and_axes`] plans for an n-D transform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NdPlan {
    /// The transform's length along each of `axes`.
    pub shape: Vec<i64>,
    /// The axes transformed, in `0..ndim`, in the order given.
    pub axes: Vec<i64>,
}

/// SciPy's `_init_nd_shape_and_axes`: the transform shape and the axes (in
/// `0..ndim`) of an n-D transform of an array with dimensions `dims`.
///
/// `axes` (default: all, or the last `len(s)` when `s` is given) must be
/// unique and in range; `s` (default: the input's lengths on `axes`) must
/// match `axes` in length, `-1` standing for the input's length, and every
/// length must be positive. An empty axis list is valid (SciPy then returns
/// its input for the complex and real-to-real transforms).
pub fn nd_shape_and_axes(dims: &[i64], s: Option<&[i64]>, axes: Option<&[i64]>) -> Result<NdPlan> {
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
    Ok(NdPlan { shape, axes })
}

/// `x` truncated or zero-padded to length `n` along `axis` (in `0..ndim`).
pub(super) fn resize_axis(x: &Tensor, axis: i64, n: i64) -> Result<Tensor> {
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
pub(super) fn nonempty(x: &Tensor, axes: &[i64], op: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
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
// Frequencies, shifts, fast lengths
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
    check_size("fft.fftfreq", &[n], &[], &[])?;
    frequency_kind(options.0)?;
    let positive = (n - 1).div_euclid(2) + 1;
    let ks = arange(n, Kind::Double, options.1)?;
    // [positive, n) becomes [positive - n, 0), in place
    let _ = ks.f_narrow(0, positive, n - positive)?.f_sub_scalar_(n)?;
    frequencies(ks, scale, options.0)
}

/// The non-negative sample frequencies for [`rfft`], `scipy.fft.rfftfreq`:
/// `[0, 1, ..., n//2] * (1 / (n d))` (empty for negative `n`, as NumPy).
pub fn rfftfreq(n: i64, d: f64, options: (Kind, Device)) -> Result<Tensor> {
    rfftfreq_scaled(n, frequency_scale(n, d)?, options)
}

/// [`rfftfreq`] with the frequency step `scale = 1 / (n d)` computed by the caller.
pub fn rfftfreq_scaled(n: i64, scale: f64, options: (Kind, Device)) -> Result<Tensor> {
    let count = (n.div_euclid(2) + 1).max(0);
    check_size("fft.rfftfreq", &[count], &[], &[])?;
    frequency_kind(options.0)?;
    frequencies(arange(count, Kind::Double, options.1)?, scale, options.0)
}

fn frequency_scale(n: i64, d: f64) -> Result<f64> {
    let product = n as f64 * d;
    if product == 0.0 {
        return Err(Error::InvalidArgument("float division by zero: n * d is 0".into()));
    }
    Ok(1.0 / product)
}

fn frequency_kind(kind: Kind) -> Result<()> {
    if !matches!(kind, Kind::Float | Kind::Double | Kind::Half | Kind::BFloat16) {
        return Err(Error::InvalidArgument(format!("frequencies are real floating-point, not {kind:?}")));
    }
    Ok(())
}

/// The integers `ks` (float64) times `scale`, as NumPy computes them, cast to `kind`.
fn frequencies(mut ks: Tensor, scale: f64, kind: Kind) -> Result<Tensor> {
    let _ = ks.f_mul_scalar_(scale)?;
    Ok(ks.f_to_kind(kind)?)
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
        let axis = normalize_axis(axis, dims.len())?;
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
        return crate::ops::deep_copy(x);
    }
    Ok(x.f_roll(shifts.as_slice(), roll_axes.as_slice())?)
}

/// Which transform a fast length is for (`scipy.fft.next_fast_len`'s `real`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LengthFor {
    /// Complex transforms: lengths whose prime factors are at most 11 (`real=False`).
    #[default]
    Complex,
    /// Real transforms: 5-smooth lengths (`real=True`).
    Real,
}

impl LengthFor {
    /// The largest target returned unchanged and the odd primes above 3 allowed.
    fn smoothness(self) -> (u128, &'static [u128]) {
        match self {
            LengthFor::Complex => (12, &[11, 7, 5]),
            LengthFor::Real => (6, &[5]),
        }
    }
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
/// factors are all at most 11 ([`LengthFor::Complex`]) or 5 ([`LengthFor::Real`]), exactly as
/// pocketfft's `good_size`; targets up to 12 (6 for real), 0 included, are
/// returned unchanged. Errors for a negative or too large target, with SciPy's
/// messages.
pub fn next_fast_len(target: i64, transform: LengthFor) -> Result<u64> {
    let n = fast_len_target(target)?;
    let (small, primes) = transform.smoothness();
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
/// factors are all at most 11 (complex) or 5 (real), as pocketfft's
/// `prev_good_size`; targets up to 12 (6 for real) are returned unchanged.
pub fn prev_fast_len(target: i64, transform: LengthFor) -> Result<u64> {
    let n = fast_len_target(target)?;
    let (small, primes) = transform.smoothness();
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
