//! `scipy.fft._realtransforms`: the discrete cosine and sine transforms of
//! types 1 to 4 (`dct`, `idct`, `dst`, `idst`) and their n-D forms,
//! composites of libtorch FFTs.

use std::collections::HashMap;
use std::f64::consts::{FRAC_1_SQRT_2, PI, SQRT_2};
use std::sync::Mutex;

use tch::{Device, Kind, Tensor};

use super::helper::{arange, check_size, fft_input, length_1d, nd_shape_and_axes, nonempty, resize_axis, NdPlan};
use super::plans;
use super::Norm;
use crate::ops::autograd::records_grad;
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
    let sine = trig == Trig::Sin;
    let factor = match type_ {
        1 | 3 => norm.factor(logical),
        _ => 2.0 * norm.factor(logical),
    };
    // Types 2 and 3: one FFT between two gathers, every scaling folded into the twiddle.
    if type_ == 2 && n >= 1 && post == if sine { (1.0, post.1) } else { (post.0, 1.0) } && pre == (1.0, 1.0) {
        return dct2_fused(x, sine, factor, if sine { post.1 } else { post.0 });
    }
    if type_ == 3 && n >= 1 && pre == if sine { (1.0, pre.1) } else { (pre.0, 1.0) } && post == (1.0, 1.0) {
        return dct3_fused(x, sine, factor, if sine { pre.1 } else { pre.0 });
    }
    let x = if pre == (1.0, 1.0) { x.shallow_clone() } else { scaled(x, 1.0, pre)? };
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

/// What a cached constant of the transforms is ([`cached`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Constant {
    /// `[1, -1, 1, ...]`.
    Alternating,
    /// [`twiddle`]'s `(start, step)` and a scale of element 0, as f64 bits.
    Twiddle(u64, u64, u64, u64),
    /// A gather index of a fused type 2 or 3 transform, input or output side, cosine or sine.
    Index { type_: i64, output: bool, sine: bool },
    /// The output signs of DST-III (odd outputs negated).
    OddNegated,
}

/// Constants of the transforms (twiddles, gather indices, signs) by length,
/// dtype and device, made once: a call at 1e3 points spends more on making
/// them than on its FFT. A few hundred at most (the map is emptied when full).
#[allow(clippy::type_complexity)]
static CONSTANTS: Mutex<Option<HashMap<(Constant, i64, Kind, Device), Tensor>>> = Mutex::new(None);

/// The cached constant `what` of length `n`, or `make()` (cached unless it is
/// an inference tensor, which autograd could not save for a later backward).
fn cached(what: Constant, n: i64, kind: Kind, device: Device, make: impl FnOnce() -> Result<Tensor>) -> Result<Tensor> {
    const MOST: usize = 256;
    let key = (what, n, kind, device);
    {
        let map = CONSTANTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(found) = map.as_ref().and_then(|m| m.get(&key)) {
            return Ok(found.shallow_clone());
        }
    }
    let made = make()?;
    if !made.f_is_inference()? {
        let mut map = CONSTANTS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let map = map.get_or_insert_with(HashMap::new);
        if map.len() >= MOST {
            map.clear();
        }
        map.insert(key, made.shallow_clone());
    }
    Ok(made)
}

/// `[1, -1, 1, -1, ...]` of length `n`.
fn alternating(n: i64, kind: Kind, device: Device) -> Result<Tensor> {
    cached(Constant::Alternating, n, kind, device, || {
        let signs = Tensor::f_ones([n], (kind, device))?;
        let _ = signs.f_slice(0, 1, n, 2)?.f_neg_()?;
        Ok(signs)
    })
}

/// `exp(i * (start + step * k))` for `k` in `0..len`, computed in float64 and
/// returned in the complex dtype matching real `kind`.
fn twiddle(len: i64, start: f64, step: f64, kind: Kind, device: Device) -> Result<Tensor> {
    scaled_twiddle(len, start, step, 1.0, 1.0, kind, device)
}

/// [`twiddle`] times `factor`, its element 0 times `first` as well.
fn scaled_twiddle(
    len: i64,
    start: f64,
    step: f64,
    factor: f64,
    first: f64,
    kind: Kind,
    device: Device,
) -> Result<Tensor> {
    let what = Constant::Twiddle(start.to_bits(), step.to_bits(), factor.to_bits(), first.to_bits());
    cached(what, len, kind, device, || {
        let mut angle = arange(len, Kind::Double, device)?;
        let _ = angle.f_mul_scalar_(step)?;
        let _ = angle.f_add_scalar_(start)?;
        let mut unit = Tensor::f_complex(&angle.f_cos()?, &angle.f_sin()?)?;
        if factor != 1.0 {
            let _ = unit.f_mul_scalar_(factor)?;
        }
        if first != 1.0 && len > 0 {
            let _ = unit.f_narrow(0, 0, 1)?.f_mul_scalar_(first)?;
        }
        let complex = if kind == Kind::Float { Kind::ComplexFloat } else { Kind::ComplexDouble };
        Ok(unit.f_to_kind(complex)?)
    })
}

/// A cached int64 gather index (see [`Constant::Index`]).
fn gather_index(
    type_: i64,
    output: bool,
    sine: bool,
    n: i64,
    device: Device,
    index: impl Fn(i64) -> i64,
    len: i64,
) -> Result<Tensor> {
    cached(Constant::Index { type_, output, sine }, n, Kind::Int64, device, || {
        let values: Vec<i64> = (0..len).map(index).collect();
        Ok(Tensor::f_from_slice(&values)?.f_to_device(device)?)
    })
}

/// `x` (real, last axis transformed, at least one point) as `[rows, N]` (a
/// view where its strides allow) when the one-pass kernels of
/// `csrc/realtransforms.cpp` take it: float32 or float64 on the CPU, no
/// gradient recorded (autograd follows the composite's libtorch ops).
fn one_pass_rows(x: &Tensor) -> Result<Option<Tensor>> {
    let n = x.size().last().copied().unwrap_or(0);
    if x.device() != Device::Cpu || !matches!(x.f_kind()?, Kind::Float | Kind::Double) || n < 1 || records_grad(x) {
        return Ok(None);
    }
    Ok(Some(x.f_reshape([-1, n])?))
}

/// From this many points (even), the one-pass kernels run the real FFT as
/// an FFT of half the length, complex, and split its result into the real
/// FFT's in their own pass: one sweep over memory fewer, measured 10-15% of
/// the call from 8192 float64 points up. Below, the real FFT's own split
/// runs in cache and costs no more, and MKL's real FFT gives the
/// composite's values to the ulp.
const SPLIT_FROM: i64 = 8192;

/// The one-pass kernels' split twiddle for `n` points of real `kind` on the
/// CPU: for even `n` from [`SPLIT_FROM`], `exp(-2 pi i k / n)` for `k` in
/// `0..=n/4`; otherwise an empty tensor (the `n`-point real FFT, no split).
fn split_twiddle(n: i64, kind: Kind) -> Result<Tensor> {
    if n % 2 == 1 || n < SPLIT_FROM {
        let complex = if kind == Kind::Float { Kind::ComplexFloat } else { Kind::ComplexDouble };
        return Ok(Tensor::f_empty([0], (complex, Device::Cpu))?);
    }
    Ok(scaled_twiddle(n / 4 + 1, 0.0, -2.0 * PI / n as f64, 1.0, 1.0, kind, Device::Cpu)?.f_contiguous()?)
}

/// DCT-II of the last axis times `factor`, its output 0 (DST-II: N-1) times
/// `end` as well; DST-II with `sine`. Makhoul's algorithm as [`dct2`], in four
/// libtorch ops: the permutation (circularly reversed, so that the FFT gives
/// the conjugate spectrum), an N-point real FFT, the twiddle (with every
/// scaling in it), and one gather that picks `Re Z[k]` and `-Im Z[N-k]` (the
/// conjugate's real and imaginary parts, side by side in its real view) in
/// output order. DST-II negates the odd half of the permutation (one op more)
/// and reverses the output (in the gather).
fn dct2_fused(x: &Tensor, sine: bool, factor: f64, end: f64) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let (kind, device) = (x.f_kind()?, x.device());
    let half = n / 2 + 1;
    let ceil = (n + 1) / 2;
    if let Some(rows) = one_pass_rows(x)? {
        // the same ops as below in one call: the gathers, signs and twiddle
        // as csrc/realtransforms.cpp's passes, the FFT on a kept plan (from
        // SPLIT_FROM even points half as long, complex, split by `t` in the last pass)
        let w = scaled_twiddle(half, 0.0, PI / (2 * n) as f64, factor, end, kind, device)?.f_contiguous()?;
        let t = split_twiddle(n, kind)?;
        let mut y = Tensor::f_empty(rows.size(), (kind, Device::Cpu))?;
        crate::ffi::realtransforms::dct2(&rows, &w, &t, &mut y, sine)?;
        return Ok(y.f_reshape(x.size())?);
    }
    // v[m] = x[2m] (m < ceil), x[2(n-1-m)+1] (m >= ceil); read circularly reversed
    let permutation = |m: i64| if m < ceil { 2 * m } else { 2 * (n - 1 - m) + 1 };
    let input = gather_index(2, false, false, n, device, |j| permutation((n - j) % n), n)?;
    let mut v = x.f_index_select(-1, &input)?;
    if sine {
        // the odd half of v, negated: where the reversed read takes it
        let signs = cached(Constant::OddNegated, n, kind, device, || {
            let values: Vec<f64> = (0..n).map(|j| if (n - j) % n < ceil { 1.0 } else { -1.0 }).collect();
            Ok(Tensor::f_from_slice(&values)?.f_to_kind(kind)?.f_to_device(device)?)
        })?;
        v = v.f_mul(&signs)?;
    }
    // conj(Z[k]) = conj(V[k]) exp(+i pi k / 2N), times the scaling
    let w = scaled_twiddle(half, 0.0, PI / (2 * n) as f64, factor, end, kind, device)?;
    let z = plans::rfft(&v, None, -1, "backward")?.f_mul(&w)?;
    let mut shape = z.size();
    if let Some(last) = shape.last_mut() {
        *last *= 2;
    }
    let parts = z.f_view_as_real()?.f_reshape(shape.as_slice())?;
    // y[m] = Re Z[m] (m < half), -Im Z[n-m] (m >= half); DST-II reversed
    let pick = |m: i64| if m < half { 2 * m } else { 2 * (n - m) + 1 };
    let output = gather_index(2, true, sine, n, device, |m| if sine { pick(n - 1 - m) } else { pick(m) }, n)?;
    Ok(parts.f_index_select(-1, &output)?)
}

/// DCT-III of the last axis times `factor`, its input 0 (DST-III: N-1) times
/// `first` as well; DST-III with `sine`. As [`dct3`] in five libtorch ops: a
/// zero appended, one gather that pairs `x[k]` with `x[N-k]` as a complex
/// half-spectrum, the twiddle (conjugated, with every scaling in it), an
/// N-point inverse real FFT (which then gives the output reversed), and one
/// gather back into output order. DST-III reads `x` reversed (in the first
/// gather) and negates its odd outputs (one op more).
fn dct3_fused(x: &Tensor, sine: bool, factor: f64, first: f64) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let (kind, device) = (x.f_kind()?, x.device());
    let half = n / 2 + 1;
    if let Some(rows) = one_pass_rows(x)? {
        // the same ops as below in one call: the gathers, signs and twiddle
        // as csrc/realtransforms.cpp's passes, the FFT on a kept plan (from
        // SPLIT_FROM even points half as long, complex, split by `t` in the first pass)
        let w = scaled_twiddle(half, 0.0, -PI / (2 * n) as f64, factor, first, kind, device)?.f_contiguous()?;
        let t = split_twiddle(n, kind)?;
        let mut y = Tensor::f_empty(rows.size(), (kind, Device::Cpu))?;
        crate::ffi::realtransforms::dct3(&rows, &w, &t, &mut y, sine)?;
        return Ok(y.f_reshape(x.size())?);
    }
    let padded = x.f_constant_pad_nd([0i64, 1])?; // padded[n] = 0
                                                  // x'[k] = x[k] (DST: x[n-1-k]) for k < n, x'[n] = 0; pairs (x'[k], x'[n-k]) for k < half
    let source = |k: i64| {
        if k == n {
            n
        } else if sine {
            n - 1 - k
        } else {
            k
        }
    };
    let input = gather_index(
        3,
        false,
        sine,
        n,
        device,
        |j| if j % 2 == 0 { source(j / 2) } else { source(n - j / 2) },
        2 * half,
    )?;
    let mut shape = x.size();
    if let Some(last) = shape.last_mut() {
        *last = half;
    }
    shape.push(2);
    let u = padded.f_index_select(-1, &input)?.f_reshape(shape.as_slice())?.f_view_as_complex()?;
    // S = conj(w) u: irfft(S) is v reversed, v = irfft(w conj(u)) the current kernel's
    let w = scaled_twiddle(half, 0.0, -PI / (2 * n) as f64, factor, first, kind, device)?;
    let s = plans::irfft(&u.f_mul(&w)?, n, -1, "forward")?;
    // y[2j] = v[j] = s[(n-j) % n], y[2j+1] = v[n-1-j] = s[(j+1) % n]
    let output =
        gather_index(3, true, false, n, device, |m| if m % 2 == 0 { (n - m / 2) % n } else { (m / 2 + 1) % n }, n)?;
    let y = s.f_index_select(-1, &output)?;
    if !sine {
        return Ok(y);
    }
    Ok(y.f_mul(&alternating(n, kind, device)?)?)
}

/// DCT-I: the real part of the FFT of the even extension `[x, x[N-2:0:-1]]`.
fn dct1(x: &Tensor) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let inner = x.f_narrow(-1, 1, n - 2)?.f_flip([-1])?;
    let even = Tensor::f_cat(&[x, &inner], -1)?;
    Ok(plans::rfft(&even, None, -1, "backward")?.f_real()?)
}

/// Minus DST-I: the imaginary part of the FFT of the odd extension `[0, x, 0, -x[::-1]]`.
fn dst1(x: &Tensor) -> Result<Tensor> {
    let n = x.size().last().copied().unwrap_or(0);
    let zero = x.f_narrow(-1, 0, 1)?.f_zeros_like()?;
    let odd = Tensor::f_cat(&[&zero, x, &zero, &x.f_flip([-1])?.f_neg()?], -1)?;
    Ok(plans::rfft(&odd, None, -1, "backward")?.f_imag()?.f_narrow(-1, 1, n)?)
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
    let z = plans::rfft(&v, None, -1, "backward")?.f_mul(&w)?;
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
    let v = plans::irfft(&spectrum, n, -1, "forward")?;
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
        let u = plans::fft(&v.f_mul(&pre)?, None, -1, "backward")?.f_mul(&post)?;
        let mut odd = u.f_imag()?.f_flip([-1])?;
        if !sine {
            odd = odd.f_neg()?;
        }
        return Ok(Tensor::f_stack(&[u.f_real()?, odd], -1)?.f_flatten(-2, -1)?);
    }
    // Odd N: a 2N-point FFT of x[n] exp(-i pi n / 2N), post-twiddled by exp(-i pi (2k+1) / 4N).
    let pre = twiddle(n, 0.0, -PI / (2 * n) as f64, kind, device)?;
    let spectrum = plans::fft(&x.f_mul(&pre)?, 2 * n, -1, "backward")?.f_narrow(-1, 0, n)?;
    let four_n = (4 * n) as f64;
    let post = twiddle(n, -PI / four_n, -2.0 * PI / four_n, kind, device)?;
    let y = spectrum.f_mul(&post)?.f_real()?;
    Ok(if sine { y.f_mul(&alternating(n, kind, device)?)? } else { y })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::realtransforms::scratch_kept;

    /// The type 2 and 3 transforms of `x` through the one-pass kernels and
    /// through the composite (the same call on input recording a gradient),
    /// and `x` left as it was. Within 2 ulps of the largest output; where the
    /// kernels split a half-length FFT themselves (even lengths from
    /// [`SPLIT_FROM`]), 6: that split and MKL's real FFT round differently,
    /// each up to about 4 ulps from the exact transform (2 apart, observed).
    fn assert_one_pass_like_composite(x: &Tensor) {
        let n = x.size()[1];
        let ulps = if n % 2 == 0 && n >= SPLIT_FROM { 6.0 } else { 2.0 };
        let before = x.copy();
        let grad = x.copy().set_requires_grad(true);
        let eps = if x.kind() == Kind::Float { f64::from(f32::EPSILON) } else { f64::EPSILON };
        let transforms: [fn(&Tensor, &DctOptions) -> Result<Tensor>; 4] = [dct, dst, idct, idst];
        for transform in transforms {
            for type_ in [DctType::II, DctType::III] {
                let options = DctOptions { type_, ..DctOptions::default() };
                let ours = transform(x, &options).unwrap();
                let composite = transform(&grad, &options).unwrap().detach();
                let scale = composite.abs().max().double_value(&[]);
                let error = (&ours - &composite).abs().max().double_value(&[]);
                assert!(error <= ulps * eps * scale, "{:?} {:?}: error {error} against {scale}", x.size(), type_);
            }
        }
        assert!(x.equal(&before), "the input was written");
    }

    /// Calls on one thread in turn, of sizes up and down, dtypes and row
    /// counts: each gives the composite's values, the scratch grows to the
    /// largest kept size and stays, and a call above the bound takes a
    /// buffer of its own; another thread's scratch is its own.
    #[test]
    fn realtransforms_scratch_is_per_thread_reused_and_bounded() {
        std::thread::spawn(move || {
            assert_eq!(scratch_kept(), 0);
            let small = 1002 * 8; // the real FFT: 2 (N/2 + 1) reals a row
            let larger = 2 * 8194 * 4; // the split: N reals a row, float32
                                       // (rows, N, kind, the scratch kept after the call)
            let calls = [
                (1, 1000, Kind::Double, small),
                (4, 7, Kind::Double, small),
                (2, 8194, Kind::Float, larger),
                (1, 1000, Kind::Double, larger),
                (1, 8192, Kind::Double, larger),
                (3, 2, Kind::Float, larger),
                (1, 1, Kind::Double, larger),
            ];
            for (rows, n, kind, kept) in calls {
                let x = Tensor::randn([rows, n], (kind, Device::Cpu));
                assert_one_pass_like_composite(&x);
                assert_eq!(scratch_kept(), kept, "after [{rows}, {n}] {kind:?}");
            }
            // 3 rows of 2^21 float64 points: 48 MiB, above the 16 MiB kept
            let x = Tensor::randn([3, 1 << 21], (Kind::Double, Device::Cpu));
            let before = x.copy();
            let grad = x.copy().set_requires_grad(true);
            let ours = dct(&x, &DctOptions::default()).unwrap();
            let composite = dct(&grad, &DctOptions::default()).unwrap().detach();
            let scale = composite.abs().max().double_value(&[]);
            assert!((&ours - &composite).abs().max().double_value(&[]) <= 6.0 * f64::EPSILON * scale);
            assert!(x.equal(&before));
            assert_eq!(scratch_kept(), larger);
            std::thread::spawn(|| assert_eq!(scratch_kept(), 0)).join().unwrap();
        })
        .join()
        .unwrap();
    }

    /// Threads transforming different sizes at once (split and not): each
    /// its own scratch, each the composite's values.
    #[test]
    fn realtransforms_threads_at_once_keep_their_own_scratch() {
        let workers: Vec<_> = [(3, 64), (1, 1001), (2, 8192), (5, 33)]
            .into_iter()
            .map(|(rows, n)| {
                std::thread::spawn(move || {
                    for round in 0..8 {
                        let kind = if round % 2 == 0 { Kind::Double } else { Kind::Float };
                        assert_one_pass_like_composite(&Tensor::randn([rows, n + round], (kind, Device::Cpu)));
                    }
                })
            })
            .collect();
        for worker in workers {
            worker.join().unwrap();
        }
    }
}
