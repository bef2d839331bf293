//! `scipy.fft._realtransforms`: the discrete cosine and sine transforms of
//! types 1 to 4 (`dct`, `idct`, `dst`, `idst`) and their n-D forms,
//! composites of libtorch FFTs.

use std::f64::consts::{FRAC_1_SQRT_2, PI, SQRT_2};

use tch::{Device, Kind, Tensor};

use super::helper::{arange, check_size, fft_input, length_1d, nd_shape_and_axes, nonempty, resize_axis, NdPlan};
use super::Norm;
use crate::{Error, Result};

/// The type of a cosine or sine transform (SciPy's `type`, 1 to 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DctType {
    /// Type 1 (DCT-I needs at least 2 points).
    I,
    /// Type 2, SciPy's default (the inverse of type 3).
    #[default]
    II,
    /// Type 3.
    III,
    /// Type 4.
    IV,
}

impl DctType {
    /// SciPy's `type` of a cosine transform: 1 to 4, "invalid DCT type" otherwise.
    pub fn for_dct(type_: i64) -> Result<DctType> {
        DctType::new(type_).ok_or_else(|| Error::InvalidArgument("invalid DCT type".into()))
    }

    /// SciPy's `type` of a sine transform: 1 to 4, "invalid DST type" otherwise.
    pub fn for_dst(type_: i64) -> Result<DctType> {
        DctType::new(type_).ok_or_else(|| Error::InvalidArgument("invalid DST type".into()))
    }

    fn new(type_: i64) -> Option<DctType> {
        Some(match type_ {
            1 => DctType::I,
            2 => DctType::II,
            3 => DctType::III,
            4 => DctType::IV,
            _ => return None,
        })
    }

    /// The type as SciPy numbers it.
    pub fn number(self) -> i64 {
        match self {
            DctType::I => 1,
            DctType::II => 2,
            DctType::III => 3,
            DctType::IV => 4,
        }
    }

    /// The type the inverse transform runs (SciPy swaps 2 and 3).
    fn inverse(self) -> DctType {
        match self {
            DctType::II => DctType::III,
            DctType::III => DctType::II,
            other => other,
        }
    }
}

/// The options of a 1-D cosine or sine transform, with SciPy's defaults
/// (`type=2, n=None, axis=-1, norm=None, orthogonalize=None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DctOptions {
    /// The transform type.
    pub type_: DctType,
    /// The input is zero-padded or truncated to `n` points along `axis`.
    pub n: Option<i64>,
    /// The axis transformed; negative counts from the end.
    pub axis: i64,
    /// The scaling convention.
    pub norm: Norm,
    /// Rescale the end terms so that `Ortho` gives an orthonormal matrix;
    /// `None`: exactly when `norm` is `Ortho`. Complex input keeps the default
    /// whatever is passed, as in SciPy.
    pub orthogonalize: Option<bool>,
}

impl Default for DctOptions {
    fn default() -> Self {
        DctOptions { type_: DctType::II, n: None, axis: -1, norm: Norm::Backward, orthogonalize: None }
    }
}

/// The options of an n-D cosine or sine transform, with SciPy's defaults
/// (`type=2, s=None, axes=None, norm=None, orthogonalize=None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DctnOptions {
    /// The transform type (the same along every axis).
    pub type_: DctType,
    /// The transform shape along `axes` (`-1`: the input's length there).
    pub s: Option<Vec<i64>>,
    /// The axes transformed, unique. `None`: all, or the last `len(s)`.
    pub axes: Option<Vec<i64>>,
    /// The scaling convention.
    pub norm: Norm,
    /// As [`DctOptions::orthogonalize`].
    pub orthogonalize: Option<bool>,
}

/// Cosine or sine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trig {
    Cos,
    Sin,
}

/// The discrete cosine transform of type 1, 2, 3 or 4, `scipy.fft.dct`.
///
/// Complex input is transformed part by part. DCT-I needs at least 2 points.
pub fn dct(x: &Tensor, options: &DctOptions) -> Result<Tensor> {
    r2r("fft.dct", Trig::Cos, true, x, options)
}

/// The inverse discrete cosine transform, `scipy.fft.idct` (`idct` of type
/// 2 is a scaled DCT-III, of type 3 a scaled DCT-II).
pub fn idct(x: &Tensor, options: &DctOptions) -> Result<Tensor> {
    r2r("fft.idct", Trig::Cos, false, x, options)
}

/// The discrete sine transform of type 1, 2, 3 or 4, `scipy.fft.dst`.
pub fn dst(x: &Tensor, options: &DctOptions) -> Result<Tensor> {
    r2r("fft.dst", Trig::Sin, true, x, options)
}

/// The inverse discrete sine transform, `scipy.fft.idst`.
pub fn idst(x: &Tensor, options: &DctOptions) -> Result<Tensor> {
    r2r("fft.idst", Trig::Sin, false, x, options)
}

/// The n-D discrete cosine transform, `scipy.fft.dctn`: [`dct`] along each
/// of `axes` in turn. With no axes SciPy returns its input; so does this.
pub fn dctn(x: &Tensor, options: &DctnOptions) -> Result<Tensor> {
    r2rn("fft.dctn", Trig::Cos, true, x, options)
}

/// The n-D inverse discrete cosine transform, `scipy.fft.idctn`.
pub fn idctn(x: &Tensor, options: &DctnOptions) -> Result<Tensor> {
    r2rn("fft.idctn", Trig::Cos, false, x, options)
}

/// The n-D discrete sine transform, `scipy.fft.dstn`.
pub fn dstn(x: &Tensor, options: &DctnOptions) -> Result<Tensor> {
    r2rn("fft.dstn", Trig::Sin, true, x, options)
}

/// The n-D inverse discrete sine transform, `scipy.fft.idstn`.
pub fn idstn(x: &Tensor, options: &DctnOptions) -> Result<Tensor> {
    r2rn("fft.idstn", Trig::Sin, false, x, options)
}

/// The type and the (forward-sense) scaling a transform in direction `forward` runs.
fn direction(forward: bool, type_: DctType, norm: Norm) -> (i64, Norm) {
    if forward {
        (type_.number(), norm)
    } else {
        (type_.inverse().number(), norm.swapped())
    }
}

fn r2r(routine: &str, trig: Trig, forward: bool, x: &Tensor, options: &DctOptions) -> Result<Tensor> {
    let x = fft_input(x)?;
    let (n, axis) = length_1d(routine, &x, options.n, options.axis)?;
    let x = resize_axis(&x, axis, n)?;
    let (type_, norm) = direction(forward, options.type_, options.norm);
    nonempty(&x, &[axis], |x| r2r_parts(x, trig, type_, &[axis], norm, options.orthogonalize))
}

fn r2rn(routine: &str, trig: Trig, forward: bool, x: &Tensor, options: &DctnOptions) -> Result<Tensor> {
    let dims = x.size();
    let NdPlan { shape, axes } = nd_shape_and_axes(&dims, options.s.as_deref(), options.axes.as_deref())?;
    if axes.is_empty() {
        return Ok(x.shallow_clone());
    }
    check_size(routine, &dims, &axes, &shape)?;
    let mut x = fft_input(x)?;
    for (&axis, &n) in axes.iter().zip(&shape) {
        x = resize_axis(&x, axis, n)?;
    }
    let (type_, norm) = direction(forward, options.type_, options.norm);
    nonempty(&x, &axes, |x| r2r_parts(x, trig, type_, &axes, norm, options.orthogonalize))
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
    // A fresh copy scaled in place: tch's allocating scalar-argument
    // wrappers (`f_mul_scalar`) panic when their call fails.
    let mut y = crate::ops::deep_copy(x)?;
    if factor != 1.0 {
        let _ = y.f_mul_scalar_(factor)?;
    }
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
    let signs = Tensor::f_ones([n], (kind, device))?;
    let _ = signs.f_slice(0, 1, n, 2)?.f_neg_()?;
    Ok(signs)
}

/// `exp(i * (start + step * k))` for `k` in `0..len`, computed in float64 and
/// returned in the complex dtype matching real `kind`.
fn twiddle(len: i64, start: f64, step: f64, kind: Kind, device: Device) -> Result<Tensor> {
    let mut angle = arange(len, Kind::Double, device)?;
    let _ = angle.f_mul_scalar_(step)?;
    let _ = angle.f_add_scalar_(start)?;
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
