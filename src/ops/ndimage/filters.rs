//! SciPy's `ndimage/_filters.py`: correlate1d, convolve1d, correlate,
//! convolve, uniform_filter(1d), gaussian_filter(1d), minimum/maximum_filter(1d),
//! rank/median/percentile_filter, sobel, prewitt, laplace, gaussian_laplace,
//! gaussian_gradient_magnitude, and the extension work of generic_filter1d and
//! generic_filter (the extended lines, the footprint windows), which hand the
//! values to a caller's closure a batch at a time.
//!
//! SciPy's C code extends every line (or footprint) beyond the array's edges
//! by an index map that repeats its reflection for any distance
//! ([`extend_map`]); here that map is an index tensor and the extension one
//! `index_select` per axis (`constant_pad_nd` for the constant mode), so a
//! footprint larger than the array is extended as SciPy extends it (torch's
//! own pads stop at the dimension). Every footprint position is then a view
//! of the extended tensor.
//!
//! The sums are computed in float64, in the order SciPy's C loops use
//! (`correlate1d`'s symmetric and antisymmetric shortcuts, `correlate`'s
//! footprint in C order skipping weights of magnitude at most `DBL_EPSILON`,
//! `uniform_filter1d`'s running sum as one sequential `cumsum`), one
//! elementwise op per C operation, so the results are SciPy's bit for bit
//! (libtorch's elementwise kernels round each op as C does). The result is
//! then cast to the output dtype as SciPy's C cast does (truncation toward
//! zero for integers). The separable filters cast after every axis, as
//! SciPy writes each pass into the output array.
//!
//! On the CPU, the line passes of `correlate1d` and `uniform_filter1d` (so
//! the Gaussian, Sobel, Prewitt and Laplace filters too) run SciPy's loops
//! as kernels instead (`csrc/ni_filters.cpp`, through `crate::ffi`): one
//! pass over the data where the composite makes one per operation, same
//! order, same bits (`tests/ndimage/filters.rs` compares the two). The
//! composites serve CUDA and inputs that require grad. The selection filters
//! (minimum, maximum, rank) compute in the input's dtype (its order is
//! preserved by SciPy's double buffer and its cast back).

use tch::{Kind, Tensor};

use crate::ops::autograd::records_grad;
use crate::ops::numpy::normalize_axis;
use crate::ops::signal::signaltools::order_filter::select_views;
use crate::{dlpack, DType, Error, Result};

/// SciPy's `DBL_EPSILON` threshold (symmetry tests, `correlate`'s footprint).
const DBL_EPSILON: f64 = f64::EPSILON;

/// A boundary mode of SciPy's filters (`_extend_mode_to_code(..., is_filter)`):
/// the `grid-*` names are the filters' synonyms of `reflect`, `wrap` and `constant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `d c b a | a b c d | d c b a` (NumPy's `symmetric`; also `grid-mirror`).
    Reflect,
    /// `k k k k | a b c d | k k k k` with `k = cval` (also `grid-constant`).
    Constant,
    /// `a a a a | a b c d | d d d d`.
    Nearest,
    /// `d c b | a b c d | c b a` (torch's and NumPy's `reflect`).
    Mirror,
    /// `a b c d | a b c d | a b c d` (also `grid-wrap`).
    Wrap,
}

impl Mode {
    /// The mode SciPy names `name`.
    pub fn from_name(name: &str) -> Result<Mode> {
        Ok(match name {
            "reflect" | "grid-mirror" => Mode::Reflect,
            "constant" | "grid-constant" => Mode::Constant,
            "nearest" => Mode::Nearest,
            "mirror" => Mode::Mirror,
            "wrap" | "grid-wrap" => Mode::Wrap,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "boundary mode not supported: {name:?} (accepted: 'reflect', 'constant', 'nearest', \
                     'mirror', 'wrap', 'grid-mirror', 'grid-constant', 'grid-wrap')"
                )))
            }
        })
    }
}

/// One value for every axis, or one per axis (SciPy's `_normalize_sequence`).
#[derive(Clone, Debug, PartialEq)]
pub enum PerAxis<T> {
    /// The same value along every axis.
    Same(T),
    /// One value per axis.
    Each(Vec<T>),
}

impl<T: Clone> PerAxis<T> {
    /// The values for `n` axes; a sequence of another length is refused as SciPy refuses it.
    pub fn normalize(&self, n: usize) -> Result<Vec<T>> {
        match self {
            PerAxis::Same(v) => Ok(vec![v.clone(); n]),
            PerAxis::Each(v) if v.len() == n => Ok(v.clone()),
            PerAxis::Each(v) => Err(Error::InvalidArgument(format!(
                "sequence argument must have length equal to input rank (got {} values for {n} axes)",
                v.len()
            ))),
        }
    }
}

/// The source index of every position `-before .. n + after` of a line of
/// `n` samples extended by `mode` (`-1`: the constant `cval`), SciPy's
/// extension repeated for any distance.
pub fn extend_map(mode: Mode, n: i64, before: i64, after: i64) -> Vec<i64> {
    (-before..n + after)
        .map(|i| {
            if (0..n).contains(&i) {
                return i;
            }
            match mode {
                Mode::Constant => -1,
                Mode::Nearest => i.clamp(0, n - 1),
                Mode::Wrap => i.rem_euclid(n),
                Mode::Reflect => {
                    let r = i.rem_euclid(2 * n);
                    if r < n {
                        r
                    } else {
                        2 * n - 1 - r
                    }
                }
                Mode::Mirror if n == 1 => 0,
                Mode::Mirror => {
                    let period = 2 * n - 2;
                    let r = i.rem_euclid(period);
                    if r < n {
                        r
                    } else {
                        period - r
                    }
                }
            }
        })
        .collect()
}

/// `x` extended along `axis` by `before` and `after` samples.
pub(crate) fn extend(x: &Tensor, axis: usize, mode: Mode, cval: f64, before: i64, after: i64) -> Result<Tensor> {
    if before == 0 && after == 0 {
        return Ok(x.shallow_clone());
    }
    if mode == Mode::Constant {
        let ndim = x.dim();
        // constant_pad_nd lists the last axis first
        let mut pad = vec![0i64; 2 * (ndim - axis)];
        pad[2 * (ndim - 1 - axis)] = before;
        pad[2 * (ndim - 1 - axis) + 1] = after;
        return Ok(x.f_pad(pad.as_slice(), "constant", Some(cval))?);
    }
    let n = x.size()[axis];
    let map = extend_map(mode, n, before, after);
    let index = Tensor::f_from_slice(&map)?.f_to_device(x.device())?;
    Ok(x.f_index_select(axis as i64, &index)?)
}

/// `x` extended along every axis by `before[d]`, `after[d]` (one mode for all).
pub(crate) fn extend_all(x: &Tensor, mode: Mode, cval: f64, before: &[i64], after: &[i64]) -> Result<Tensor> {
    let mut out = x.shallow_clone();
    for d in 0..x.dim() {
        out = extend(&out, d, mode, cval, before[d], after[d])?;
    }
    Ok(out)
}

/// The dtypes SciPy's filters accept (its C loops' types); the routine name for the message.
fn check_input(x: &Tensor, routine: &str) -> Result<DType> {
    let dtype = dlpack::dtype_of(x)?;
    if dtype.is_complex() {
        return Err(Error::NotImplemented(format!(
            "{routine}: complex input ({}) is not implemented; filter the real and imaginary parts",
            dtype.name()
        )));
    }
    if matches!(dtype, DType::Float16 | DType::BFloat16) {
        return Err(Error::DtypeNotAccepted {
            routine: "ndimage filters",
            dtype,
            accepted: "bool, integer, float32 and float64 input (SciPy's C loops)",
        });
    }
    Ok(dtype)
}

/// The output dtype: `output` (SciPy's `_get_output` with a dtype) or the
/// input's, refused where SciPy's C store has no case (filters and interpolation).
pub(crate) fn output_dtype(input: DType, output: Option<DType>) -> Result<DType> {
    let out = output.unwrap_or(input);
    if out.is_complex() || matches!(out, DType::Float16 | DType::BFloat16) {
        return Err(Error::NotImplemented(format!(
            "output dtype {} is not implemented (accepted: bool, integer, float32, float64)",
            out.name()
        )));
    }
    Ok(out)
}

/// `x` as float64 (SciPy's double line buffers).
pub(crate) fn to_double(x: &Tensor) -> Result<Tensor> {
    Ok(if x.kind() == Kind::Double { x.shallow_clone() } else { x.f_to_kind(Kind::Double)? })
}

/// `x` (float64) cast to `dtype` as SciPy's C cast `(type)value` does;
/// `like`: a tensor of `dtype` when it has no `tch::Kind` (uint16/32/64).
pub(crate) fn cast(x: &Tensor, dtype: DType, like: Option<&Tensor>) -> Result<Tensor> {
    if let Some(kind) = dtype.kind() {
        if x.kind() == kind {
            return Ok(x.shallow_clone());
        }
        if kind == Kind::Bool || matches!(kind, Kind::Double | Kind::Float) {
            return Ok(x.f_to_kind(kind)?);
        }
        // truncation toward zero, through int64 as the C cast goes through a register
        return Ok(x.f_to_kind(Kind::Int64)?.f_to_kind(kind)?);
    }
    let (bits, like) = match (dtype, like) {
        (DType::UInt16, Some(t)) => (Kind::Int16, t),
        (DType::UInt32, Some(t)) => (Kind::Int, t),
        (DType::UInt64, Some(t)) => (Kind::Int64, t),
        _ => {
            return Err(Error::NotImplemented(format!(
                "output dtype {} is implemented only for input of that dtype",
                dtype.name()
            )))
        }
    };
    let out = like.f_empty_like()?.f_contiguous()?;
    let mut view = out.f_view_dtype(bits)?;
    let ints = if x.is_floating_point() { x.f_to_kind(Kind::Int64)? } else { x.shallow_clone() };
    view.f_copy_(&ints.f_to_kind(bits)?)?;
    Ok(out)
}

/// A pass's result in the output dtype (`like`: the input, for the wide unsigned types).
pub(crate) struct Output<'a> {
    pub(crate) dtype: DType,
    like: Option<&'a Tensor>,
}

impl Output<'_> {
    pub(crate) fn of<'a>(input: &'a Tensor, output: Option<DType>) -> Result<Output<'a>> {
        let dtype = output_dtype(dlpack::dtype_of(input)?, output)?;
        let like = (dlpack::dtype_of(input)? == dtype).then_some(input);
        Ok(Output { dtype, like })
    }

    pub(crate) fn cast(&self, x: &Tensor) -> Result<Tensor> {
        cast(x, self.dtype, self.like)
    }
}

/// SciPy's `_check_axes`: `None` is every axis; negative axes count from the end; no repeats.
pub fn check_axes(axes: Option<&[i64]>, ndim: usize) -> Result<Vec<usize>> {
    let Some(axes) = axes else {
        return Ok((0..ndim).collect());
    };
    let mut out = Vec::with_capacity(axes.len());
    for &a in axes {
        if a < -(ndim as i64) || a > ndim as i64 - 1 {
            return Err(Error::InvalidArgument(format!("specified axis: {a} is out of range")));
        }
        out.push(if a < 0 { (a + ndim as i64) as usize } else { a as usize });
    }
    let mut sorted = out.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != out.len() {
        return Err(Error::InvalidArgument("axes must be unique".into()));
    }
    Ok(out)
}

/// SciPy's `_invalid_origin` check for a filter of `len` taps.
pub(crate) fn check_origin(origin: i64, len: i64, message: &str) -> Result<()> {
    if len / 2 + origin < 0 || len / 2 + origin >= len {
        return Err(Error::InvalidArgument(message.into()));
    }
    Ok(())
}

/// The view of `ext` (extended by the footprint) at footprint offset `offset` along every axis.
pub(crate) fn view_at(ext: &Tensor, offset: &[i64], shape: &[i64]) -> Result<Tensor> {
    let mut view = ext.shallow_clone();
    for (d, (&o, &n)) in offset.iter().zip(shape).enumerate() {
        view = view.f_narrow(d as i64, o, n)?;
    }
    Ok(view)
}

/// SciPy's test of odd-length weights: 1 where symmetric, -1 where
/// antisymmetric (within `DBL_EPSILON`), else 0. A NaN difference is not
/// above the threshold, as in SciPy's `fabs(...) > DBL_EPSILON`.
fn symmetry(weights: &[f64]) -> i32 {
    let size = weights.len();
    if size % 2 == 0 {
        return 0;
    }
    let half = size / 2;
    let pairs = || (1..=half).map(|i| (weights[half + i], weights[half - i]));
    if !pairs().any(|(r, l)| (r - l).abs() > DBL_EPSILON) {
        1
    } else if !pairs().any(|(r, l)| (r + l).abs() > DBL_EPSILON) {
        -1
    } else {
        0
    }
}

/// `x` as the `(outer, n, inner)` contiguous tensor around `axis` the line kernels take.
fn lines_around(x: &Tensor, axis: usize) -> Result<Tensor> {
    let dims = x.size();
    let outer: i64 = dims[..axis].iter().product();
    let inner: i64 = dims[axis + 1..].iter().product();
    Ok(x.f_contiguous()?.f_view([outer, dims[axis], inner])?)
}

/// Whether the line kernels of `csrc/ni_filters.cpp` compute a pass of `x`
/// into `out`: on the CPU, where no gradient is to be recorded, float32 or
/// float64 in and out, `cval` exact in `x`'s dtype. Elsewhere the
/// libtorch-op composites, which give the same bits.
fn use_line_kernel(x: &Tensor, out: &Output<'_>, cval: f64) -> bool {
    let exact = match x.kind() {
        Kind::Double => true,
        Kind::Float => cval.is_nan() || f64::from(cval as f32) == cval,
        _ => false,
    };
    exact && x.device() == tch::Device::Cpu && !records_grad(x) && matches!(out.dtype, DType::Float32 | DType::Float64)
}

/// A pass of a line kernel: `x` seen around `axis`, extended by `mode` with
/// `size / 2 + origin` samples before, into a new tensor of `out`'s dtype.
fn line_kernel_pass(
    x: &Tensor,
    size: i64,
    axis: usize,
    mode: Mode,
    origin: i64,
    out: &Output<'_>,
    kernel: impl FnOnce(&Tensor, &Tensor, &mut Tensor) -> Result<()>,
) -> Result<Tensor> {
    let n = x.size()[axis];
    let map = Tensor::f_from_slice(&extend_map(mode, n, size / 2 + origin, size - size / 2 - 1 - origin))?;
    let lines = lines_around(x, axis)?;
    let kind = if out.dtype == DType::Float32 { Kind::Float } else { Kind::Double };
    let mut result = Tensor::f_empty(lines.size(), (kind, tch::Device::Cpu))?;
    kernel(&lines, &map, &mut result)?;
    Ok(result.f_view(x.size().as_slice())?)
}

/// One `correlate1d` pass of SciPy's (`NI_Correlate1D`, the sums in float64
/// in its order, the weights' symmetry tested as it tests it), cast to `out`:
/// the kernel of `csrc/ni_filters.cpp` where [`use_line_kernel`], else
/// [`correlate1d_composite`].
fn correlate1d_pass(
    x: &Tensor,
    weights: &[f64],
    axis: usize,
    mode: Mode,
    cval: f64,
    origin: i64,
    out: &Output<'_>,
) -> Result<Tensor> {
    if !use_line_kernel(x, out, cval) {
        return out.cast(&correlate1d_composite(&to_double(x)?, weights, axis, mode, cval, origin)?);
    }
    let w = Tensor::f_from_slice(weights)?;
    line_kernel_pass(x, weights.len() as i64, axis, mode, origin, out, |lines, map, result| {
        crate::ffi::ni_filters::correlate1d_cpu(lines, &w, map, cval, symmetry(weights), result)
    })
}

/// [`correlate1d_pass`] on float64 `x` from libtorch ops (the CUDA and
/// autograd path): every tap a view of the extended tensor, one elementwise
/// op per C operation.
pub(crate) fn correlate1d_composite(
    x: &Tensor,
    weights: &[f64],
    axis: usize,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Tensor> {
    let size = weights.len() as i64;
    let (size1, size2) = (size / 2, size - size / 2 - 1);
    let n = x.size()[axis];
    let ext = extend(x, axis, mode, cval, size1 + origin, size2 - origin)?;
    // iline[jj] of SciPy's loop (jj relative to the centre) as a view
    let at = |jj: i64| ext.f_narrow(axis as i64, size1 + jj, n);
    let w = |jj: i64| weights[(size1 + jj) as usize];
    let symmetric = symmetry(weights);
    let mut out;
    if symmetric != 0 {
        out = at(0)?.f_mul_scalar(w(0))?;
        for jj in -size1..0 {
            let pair = if symmetric > 0 { at(jj)?.f_add(&at(-jj)?)? } else { at(jj)?.f_sub(&at(-jj)?)? };
            out = out.f_add(&pair.f_mul_scalar(w(jj))?)?;
        }
    } else {
        out = at(size2)?.f_mul_scalar(w(size2))?;
        for jj in -size1..size2 {
            out = out.f_add(&at(jj)?.f_mul_scalar(w(jj))?)?;
        }
    }
    Ok(out)
}

/// An empty result of the output dtype, for empty input.
fn empty_result(input: &Tensor, out: &Output<'_>) -> Result<Tensor> {
    out.cast(&to_double(input)?)
}

/// `scipy.ndimage.correlate1d`: the lines of `input` along `axis` correlated with `weights`.
pub fn correlate1d(
    input: &Tensor,
    weights: &[f64],
    axis: i64,
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Tensor> {
    check_input(input, "correlate1d")?;
    let out = Output::of(input, output)?;
    if weights.is_empty() {
        return Err(Error::InvalidArgument("no filter weights given".into()));
    }
    let axis = normalize_axis(axis, input.dim())?;
    let len = weights.len() as i64;
    if origin < -(len / 2) || origin > (len - 1) / 2 {
        return Err(Error::InvalidArgument(
            "Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= (len(weights)-1) // 2".into(),
        ));
    }
    if input.numel() == 0 {
        return empty_result(input, &out);
    }
    correlate1d_pass(input, weights, axis, mode, cval, origin, &out)
}

/// `scipy.ndimage.convolve1d`: [`correlate1d`] with the weights reversed and the origin mirrored.
pub fn convolve1d(
    input: &Tensor,
    weights: &[f64],
    axis: i64,
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Tensor> {
    let reversed: Vec<f64> = weights.iter().rev().copied().collect();
    let mut origin = -origin;
    if weights.len() % 2 == 0 {
        origin -= 1;
    }
    correlate1d(input, &reversed, axis, output, mode, cval, origin)
}

/// A footprint placed on the input's axes (see [`place_footprint`]).
pub(crate) struct Placement {
    /// Its shape over the input's `ndim` axes ([`expand_shape`]).
    pub(crate) shape: Vec<i64>,
    /// The origin along every axis ([`expand_origin`]).
    pub(crate) origins: Vec<i64>,
    /// The extension needed before and after each axis ([`footprint_extent`]).
    pub(crate) before: Vec<i64>,
    pub(crate) after: Vec<i64>,
}

/// A footprint of `axes.len()` dimensions placed on the input's `ndim` axes
/// with its `origin`s, as SciPy's selection filters place it.
pub(crate) fn place_footprint(
    footprint: &Footprint,
    origin: &PerAxis<i64>,
    axes: &[usize],
    ndim: usize,
) -> Result<Placement> {
    let shape = expand_shape(&footprint.shape, axes, ndim, "footprint")?;
    let origins = expand_origin(origin, axes, ndim)?;
    if shape.iter().filter(|&&k| k > 0).count() != ndim {
        return Err(Error::InvalidArgument(format!(
            "footprint.ndim ({}) must match len(axes) ({})",
            footprint.shape.len(),
            axes.len()
        )));
    }
    let (before, after) = footprint_extent(&shape, &origins)?;
    Ok(Placement { shape, origins, before, after })
}

/// A footprint (weights or mask) of `axes.len()` dimensions spread over the
/// input's `ndim` (size 1 along the other axes), as SciPy's `_expand_footprint`.
pub(crate) fn expand_shape(shape: &[i64], axes: &[usize], ndim: usize, name: &str) -> Result<Vec<i64>> {
    if axes.len() < ndim && shape.len() != axes.len() {
        return Err(Error::InvalidArgument(format!(
            "{name}.ndim ({}) must match len(axes) ({})",
            shape.len(),
            axes.len()
        )));
    }
    if axes.len() == ndim {
        return Ok(shape.to_vec());
    }
    let mut full = vec![1i64; ndim];
    // np.expand_dims keeps the footprint's axes in order
    let mut sorted = axes.to_vec();
    sorted.sort_unstable();
    for (k, &ax) in sorted.iter().enumerate() {
        full[ax] = shape[k];
    }
    Ok(full)
}

/// The origins for every axis of the input (0 where not filtered), SciPy's `_expand_origin`.
pub(crate) fn expand_origin(origin: &PerAxis<i64>, axes: &[usize], ndim: usize) -> Result<Vec<i64>> {
    let origins = origin.normalize(axes.len())?;
    if axes.len() == ndim {
        return Ok(origins);
    }
    let mut full = vec![0i64; ndim];
    for (&o, &ax) in origins.iter().zip(axes) {
        full[ax] = o;
    }
    Ok(full)
}

/// The C-order multi-index of `flat` in `shape`.
pub(crate) fn unravel(mut flat: i64, shape: &[i64]) -> Vec<i64> {
    let mut index = vec![0i64; shape.len()];
    for d in (0..shape.len()).rev() {
        index[d] = flat % shape[d];
        flat /= shape[d];
    }
    index
}

/// `scipy.ndimage.correlate` (`convolution`: `convolve`) of `input` with
/// `weights` (float64 values in C order, of shape `wshape`).
#[allow(clippy::too_many_arguments)]
pub fn correlate_nd(
    input: &Tensor,
    weights: &[f64],
    wshape: &[i64],
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    origin: &PerAxis<i64>,
    axes: Option<&[i64]>,
    convolution: bool,
) -> Result<Tensor> {
    let routine = if convolution { "convolve" } else { "correlate" };
    check_input(input, routine)?;
    let out = Output::of(input, output)?;
    let ndim = input.dim();
    let axes = check_axes(axes, ndim)?;
    let shape = expand_shape(wshape, &axes, ndim, "weights")?;
    let mut origins = expand_origin(origin, &axes, ndim)?;
    if shape.iter().filter(|&&k| k > 0).count() != ndim {
        return Err(Error::InvalidArgument(format!(
            "weights.ndim ({}) must match len(axes) ({})",
            shape.iter().filter(|&&k| k > 0).count(),
            axes.len()
        )));
    }
    let mut weights = weights.to_vec();
    if convolution {
        weights.reverse();
        for (o, &k) in origins.iter_mut().zip(&shape) {
            *o = -*o;
            if k % 2 == 0 {
                *o -= 1;
            }
        }
    }
    for (&o, &k) in origins.iter().zip(&shape) {
        if o < -(k / 2) || o > (k - 1) / 2 {
            return Err(Error::InvalidArgument(
                "Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= \
                 (weights.shape[k]-1) // 2"
                    .into(),
            ));
        }
    }
    if input.numel() == 0 {
        return empty_result(input, &out);
    }
    let x = to_double(input)?;
    let before: Vec<i64> = shape.iter().zip(&origins).map(|(&k, &o)| k / 2 + o).collect();
    let after: Vec<i64> = shape.iter().zip(&before).map(|(&k, &b)| k - 1 - b).collect();
    let ext = extend_all(&x, mode, cval, &before, &after)?;
    let dims = x.size();
    // SciPy's footprint: the weights of magnitude above DBL_EPSILON, in C order, from tmp = 0.0
    let mut acc = x.f_zeros_like()?;
    for (flat, &w) in weights.iter().enumerate() {
        if w.abs() > DBL_EPSILON {
            let view = view_at(&ext, &unravel(flat as i64, &shape), &dims)?;
            acc = acc.f_add(&view.f_mul_scalar(w)?)?;
        }
    }
    out.cast(&acc)
}

/// One `uniform_filter1d` pass of SciPy's (`NI_UniformFilter1D`: the
/// running sum in float64, divided by the size), cast to `out`: the kernel of
/// `csrc/ni_filters.cpp` where [`use_line_kernel`], else [`uniform1d_composite`].
fn uniform1d_pass(
    x: &Tensor,
    size: i64,
    axis: usize,
    mode: Mode,
    cval: f64,
    origin: i64,
    out: &Output<'_>,
) -> Result<Tensor> {
    if !use_line_kernel(x, out, cval) {
        return out.cast(&uniform1d_composite(&to_double(x)?, size, axis, mode, cval, origin)?);
    }
    line_kernel_pass(x, size, axis, mode, origin, out, |lines, map, result| {
        crate::ffi::ni_filters::uniform_filter1d_cpu(lines, size, map, cval, result)
    })
}

/// [`uniform1d_pass`] on float64 `x` from libtorch ops (the CUDA and
/// autograd path): the running sum as one sequential `cumsum`.
pub(crate) fn uniform1d_composite(
    x: &Tensor,
    size: i64,
    axis: usize,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Tensor> {
    let (size1, size2) = (size / 2, size - size / 2 - 1);
    let n = x.size()[axis];
    let ax = axis as i64;
    let ext = extend(x, axis, mode, cval, size1 + origin, size2 - origin)?;
    // tmp = 0.0; tmp += iline[ll] for the first window; then tmp += iline[ll + size - 1] - iline[ll - 1],
    // each output tmp / size
    let first = ext.f_narrow(ax, 0, size)?.f_cumsum(ax, Kind::Double)?.f_narrow(ax, size - 1, 1)?;
    if n == 1 {
        return Ok(first.f_div_scalar(size as f64)?);
    }
    let steps = ext.f_narrow(ax, size, n - 1)?.f_sub(&ext.f_narrow(ax, 0, n - 1)?)?;
    Ok(Tensor::f_cat(&[first, steps], ax)?.f_cumsum(ax, Kind::Double)?.f_div_scalar(size as f64)?)
}

/// `scipy.ndimage.uniform_filter1d`: the mean of every `size` window along `axis`.
pub fn uniform_filter1d(
    input: &Tensor,
    size: i64,
    axis: i64,
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    origin: i64,
) -> Result<Tensor> {
    check_input(input, "uniform_filter1d")?;
    let out = Output::of(input, output)?;
    let axis = normalize_axis(axis, input.dim())?;
    if size < 1 {
        return Err(Error::InvalidArgument("incorrect filter size".into()));
    }
    check_origin(origin, size, "invalid origin")?;
    if input.numel() == 0 {
        return empty_result(input, &out);
    }
    uniform1d_pass(input, size, axis, mode, cval, origin, &out)
}

/// `scipy.ndimage.uniform_filter`: [`uniform_filter1d`] along each of `axes`
/// (sizes above 1), each pass cast to the output dtype.
pub fn uniform_filter(
    input: &Tensor,
    size: &PerAxis<i64>,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    origin: &PerAxis<i64>,
    axes: Option<&[i64]>,
) -> Result<Tensor> {
    check_input(input, "uniform_filter")?;
    let out = Output::of(input, output)?;
    let axes = check_axes(axes, input.dim())?;
    let sizes = size.normalize(axes.len())?;
    let origins = origin.normalize(axes.len())?;
    let modes = mode.normalize(axes.len())?;
    let mut current = input.shallow_clone();
    let mut any = false;
    for k in 0..axes.len() {
        if sizes[k] <= 1 {
            continue;
        }
        check_origin(origins[k], sizes[k], "invalid origin")?;
        any = true;
        if input.numel() == 0 {
            continue;
        }
        current = uniform1d_pass(&current, sizes[k], axes[k], modes[k], cval, origins[k], &out)?;
    }
    if !any || input.numel() == 0 {
        return copy_cast(input, &out);
    }
    Ok(current)
}

/// `input` converted to the output dtype (SciPy's `output[...] = input`).
pub(crate) fn copy_cast(input: &Tensor, out: &Output<'_>) -> Result<Tensor> {
    if dlpack::dtype_of(input)? == out.dtype {
        return Ok(input.f_detach_copy()?);
    }
    if input.is_floating_point() {
        return out.cast(input);
    }
    out.cast(&input.f_to_kind(Kind::Int64)?)
}

/// An `exp` over a few host values, for the Gaussian kernels.
pub type KernelExp = fn(&[f64]) -> Option<Vec<f64>>;

/// The `exp` SciPy's kernels are sampled with, NumPy's, where the Python
/// layer installed it ([`set_kernel_exp`]); `None`, or a call that declines,
/// means libtorch's CPU kernel. NumPy's exp has SIMD paths (AVX512F) that
/// round some values one ulp away from libtorch's, which would make the
/// filters differ from SciPy's by that ulp on such CPUs.
static KERNEL_EXP: std::sync::OnceLock<KernelExp> = std::sync::OnceLock::new();

/// Sets the `exp` of the Gaussian kernels (once per process; later calls are ignored).
pub fn set_kernel_exp(exp: KernelExp) {
    let _ = KERNEL_EXP.set(exp);
}

/// SciPy's `_gaussian_kernel1d`: the Gaussian of `sigma` sampled at
/// `-radius..=radius`, normalised (NumPy's pairwise sum), times the
/// polynomial of the `order`-th derivative. `exp` is NumPy's where the
/// Python layer provides it, else libtorch's (see [`set_kernel_exp`]).
pub fn gaussian_kernel1d(sigma: f64, order: i64, radius: i64) -> Result<Vec<f64>> {
    if order < 0 {
        return Err(Error::InvalidArgument("order must be non-negative".into()));
    }
    let sigma2 = sigma * sigma;
    let xs: Vec<i64> = (-radius..=radius).collect();
    let scale = -0.5 / sigma2;
    let exponents: Vec<f64> = xs.iter().map(|&x| scale * ((x * x) as f64)).collect();
    let phi = match KERNEL_EXP.get().and_then(|exp| exp(&exponents)) {
        Some(phi) if phi.len() == exponents.len() => phi,
        _ => Vec::<f64>::try_from(&Tensor::f_from_slice(&exponents)?.f_exp()?)?,
    };
    let total = pairwise_sum(&phi);
    let phi: Vec<f64> = phi.iter().map(|p| p / total).collect();
    if order == 0 {
        return Ok(phi);
    }
    let order = order as usize;
    // q(x) coefficients; Q_deriv = D + P with D[i][i+1] = i+1, P[i+1][i] = -1/sigma2
    let mut q = vec![0.0f64; order + 1];
    q[0] = 1.0;
    let p = 1.0 / -sigma2;
    for _ in 0..order {
        // Q_deriv.dot(q): row i = D[i][i+1] q[i+1] + P[i][i-1] q[i-1], in NumPy's dot order (ascending j)
        let next: Vec<f64> = (0..=order)
            .map(|i| {
                let mut acc = 0.0;
                for (j, &qj) in q.iter().enumerate() {
                    let m = if j == i + 1 {
                        (i + 1) as f64
                    } else if i >= 1 && j == i - 1 {
                        p
                    } else {
                        0.0
                    };
                    acc += m * qj;
                }
                acc
            })
            .collect();
        q = next;
    }
    Ok(xs
        .iter()
        .zip(&phi)
        .map(|(&x, &ph)| {
            let mut acc = 0.0;
            for (e, &c) in q.iter().enumerate() {
                acc += ((x as f64).powi(e as i32)) * c;
            }
            acc * ph
        })
        .collect())
}

/// NumPy's pairwise sum of a contiguous float64 array (8 partial sums per block of 128).
fn pairwise_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut res = 0.0;
        for &v in a {
            res += v;
        }
        res
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        while i < n {
            res += a[i];
            i += 1;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        pairwise_sum(&a[..n2]) + pairwise_sum(&a[n2..])
    }
}

/// The radius SciPy uses: `radius`, else `int(truncate * sigma + 0.5)`.
fn gaussian_radius(sigma: f64, truncate: f64, radius: Option<i64>) -> Result<i64> {
    let lw = match radius {
        Some(r) => r,
        None => {
            let v = truncate * sigma + 0.5;
            if !v.is_finite() {
                return Err(Error::InvalidArgument(format!("cannot convert float {v} to integer (truncate * sigma)")));
            }
            v.trunc() as i64
        }
    };
    if lw < 0 {
        return Err(Error::InvalidArgument("Radius must be a nonnegative integer.".into()));
    }
    Ok(lw)
}

/// The reversed kernel `gaussian_filter1d` correlates with.
fn gaussian_weights(sigma: f64, order: i64, truncate: f64, radius: Option<i64>) -> Result<Vec<f64>> {
    let lw = gaussian_radius(sigma, truncate, radius)?;
    let mut w = gaussian_kernel1d(sigma, order, lw)?;
    w.reverse();
    Ok(w)
}

/// `scipy.ndimage.gaussian_filter1d`.
#[allow(clippy::too_many_arguments)]
pub fn gaussian_filter1d(
    input: &Tensor,
    sigma: f64,
    axis: i64,
    order: i64,
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    truncate: f64,
    radius: Option<i64>,
) -> Result<Tensor> {
    let weights = gaussian_weights(sigma, order, truncate, radius)?;
    correlate1d(input, &weights, axis, output, mode, cval, 0)
}

/// The parameters of [`gaussian_filter`] along each axis.
#[derive(Clone, Debug)]
pub struct Gaussian {
    /// `sigma`: one or one per axis.
    pub sigma: PerAxis<f64>,
    /// `order`: 0 (smoothing) to any derivative, one or one per axis.
    pub order: PerAxis<i64>,
    /// `truncate`: the radius in standard deviations when `radius` is `None`.
    pub truncate: f64,
    /// `radius`: one (or `None`) or one per axis.
    pub radius: PerAxis<Option<i64>>,
}

/// `scipy.ndimage.gaussian_filter`: [`gaussian_filter1d`] along each of
/// `axes` whose sigma exceeds 1e-15, each pass cast to the output dtype.
pub fn gaussian_filter(
    input: &Tensor,
    g: &Gaussian,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    axes: Option<&[i64]>,
) -> Result<Tensor> {
    check_input(input, "gaussian_filter")?;
    let out = Output::of(input, output)?;
    let axes = check_axes(axes, input.dim())?;
    let n = axes.len();
    let (orders, sigmas, modes, radii) =
        (g.order.normalize(n)?, g.sigma.normalize(n)?, mode.normalize(n)?, g.radius.normalize(n)?);
    let mut passes = Vec::new();
    for k in 0..n {
        if sigmas[k] > 1e-15 {
            passes.push((axes[k], gaussian_weights(sigmas[k], orders[k], g.truncate, radii[k])?, modes[k]));
        }
    }
    if passes.is_empty() || input.numel() == 0 {
        return copy_cast(input, &out);
    }
    let mut current = input.shallow_clone();
    for (axis, weights, mode) in passes {
        current = correlate1d_pass(&current, &weights, axis, mode, cval, 0, &out)?;
    }
    Ok(current)
}

/// The working tensor of the selection filters: the input's own dtype where
/// libtorch orders it (bool, uint16/32/64 as float64), and `cval` in it.
fn selection_work(input: &Tensor) -> Result<Tensor> {
    Ok(match dlpack::dtype_of(input)? {
        DType::Bool | DType::UInt16 | DType::UInt32 | DType::UInt64 => input.f_to_kind(Kind::Double)?,
        _ => input.shallow_clone(),
    })
}

/// `cval` as SciPy's `(type)cval` for the working tensor's kind (truncated for integers).
pub(crate) fn cval_for(work: &Tensor, cval: f64) -> f64 {
    // the C cast goes through a 64-bit register, then keeps the type's low bits
    let v = if cval.is_finite() { cval.trunc() as i64 } else { 0 };
    match work.kind() {
        Kind::Uint8 => f64::from(v as u8),
        Kind::Int8 => f64::from(v as i8),
        Kind::Int16 => f64::from(v as i16),
        Kind::Int => f64::from(v as i32),
        Kind::Int64 => v as f64,
        _ => cval,
    }
}

/// The footprint extension of `work` for a selection filter (the
/// constant mode pads with `cval` in the working dtype).
fn extend_selection(work: &Tensor, mode: Mode, cval: f64, before: &[i64], after: &[i64]) -> Result<Tensor> {
    extend_all(work, mode, cval_for(work, cval), before, after)
}

/// SciPy's min/max of one axis (`NI_MinOrMaxFilter1D`), on float64 `work` (its line buffer).
fn minmax1d(
    work: &Tensor,
    size: i64,
    axis: usize,
    mode: Mode,
    cval: f64,
    origin: i64,
    minimum: bool,
) -> Result<Tensor> {
    let (size1, size2) = (size / 2, size - size / 2 - 1);
    let n = work.size()[axis];
    let ext = extend(work, axis, mode, cval, size1 + origin, size2 - origin)?;
    let mut val = ext.f_narrow(axis as i64, 0, n)?;
    for j in 1..size {
        let v = ext.f_narrow(axis as i64, j, n)?;
        val = if minimum { val.f_minimum(&v)? } else { val.f_maximum(&v)? };
    }
    Ok(if size == 1 { val.f_contiguous()? } else { val })
}

/// `scipy.ndimage.minimum_filter1d` (`minimum`) or `maximum_filter1d`.
#[allow(clippy::too_many_arguments)]
pub fn minmax_filter1d(
    input: &Tensor,
    size: i64,
    axis: i64,
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    origin: i64,
    minimum: bool,
) -> Result<Tensor> {
    check_selection_input(input)?;
    let out = Output::of(input, output)?;
    let axis = normalize_axis(axis, input.dim())?;
    if size < 1 {
        return Err(Error::InvalidArgument("incorrect filter size".into()));
    }
    check_origin(origin, size, "invalid origin")?;
    if input.numel() == 0 {
        return copy_cast(input, &out);
    }
    // SciPy's 1-D pass runs on its double line buffer, cval uncast
    out.cast(&minmax1d(&to_double(input)?, size, axis, mode, cval, origin, minimum)?)
}

/// SciPy's selection filters refuse complex input with a `TypeError`.
pub(crate) fn check_selection_input(input: &Tensor) -> Result<DType> {
    let dtype = dlpack::dtype_of(input)?;
    if dtype.is_complex() {
        return Err(Error::DtypeNotAccepted {
            routine: "ndimage selection filters",
            dtype,
            accepted: "Complex type not supported; bool, integer, float32 and float64 input",
        });
    }
    check_input(input, "filter")
}

/// A selection result (in the working dtype) in the output dtype.
fn cast_selection(x: &Tensor, out: &Output<'_>) -> Result<Tensor> {
    if x.is_floating_point() {
        return out.cast(&to_double(x)?);
    }
    // integers: exact through int64 (the working dtype is the input's)
    if let Some(kind) = out.dtype.kind() {
        return Ok(x.f_to_kind(kind)?);
    }
    out.cast(&x.f_to_kind(Kind::Int64)?)
}

/// A footprint: its shape and its positions (C order).
#[derive(Clone, Debug)]
pub struct Footprint {
    /// The shape.
    pub shape: Vec<i64>,
    /// Which positions are in it, C order.
    pub mask: Vec<bool>,
}

/// The footprint of `size` or `footprint` (`footprint` wins), SciPy's rules.
fn footprint_of(size: Option<&PerAxis<i64>>, footprint: Option<&Footprint>, n: usize) -> Result<Footprint> {
    match (footprint, size) {
        (Some(f), _) => Ok(f.clone()),
        (None, Some(s)) => {
            let shape = s.normalize(n)?;
            let count: i64 = shape.iter().map(|&k| k.max(0)).product();
            Ok(Footprint { shape, mask: vec![true; count as usize] })
        }
        (None, None) => Err(Error::InvalidArgument("no footprint or filter size provided".into())),
    }
}

/// The views of `ext` under the footprint (expanded to the input's `ndim`).
pub(crate) fn footprint_views(ext: &Tensor, shape: &[i64], mask: &[bool], dims: &[i64]) -> Result<Vec<Tensor>> {
    let mut views = Vec::new();
    for (flat, _) in mask.iter().enumerate().filter(|(_, &on)| on) {
        views.push(view_at(ext, &unravel(flat as i64, shape), dims)?);
    }
    Ok(views)
}

/// The `before`/`after` extension of a footprint of `shape` with `origins`,
/// after SciPy's `invalid origin` check.
pub(crate) fn footprint_extent(shape: &[i64], origins: &[i64]) -> Result<(Vec<i64>, Vec<i64>)> {
    for (&o, &k) in origins.iter().zip(shape) {
        check_origin(o, k, "invalid origin")?;
    }
    let before: Vec<i64> = shape.iter().zip(origins).map(|(&k, &o)| k / 2 + o).collect();
    let after: Vec<i64> = shape.iter().zip(&before).map(|(&k, &b)| k - 1 - b).collect();
    Ok((before, after))
}

/// `scipy.ndimage.minimum_filter` (`minimum`) or `maximum_filter`: separable
/// passes for a box, the footprint's views otherwise.
#[allow(clippy::too_many_arguments)]
pub fn minmax_filter(
    input: &Tensor,
    size: Option<&PerAxis<i64>>,
    footprint: Option<&Footprint>,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    origin: &PerAxis<i64>,
    axes: Option<&[i64]>,
    minimum: bool,
) -> Result<Tensor> {
    if footprint.is_none() && size.is_none() {
        return Err(Error::InvalidArgument("no footprint provided".into()));
    }
    if let Some(f) = footprint {
        if !f.mask.iter().any(|&m| m) {
            return Err(Error::InvalidArgument("All-zero footprint is not supported.".into()));
        }
    }
    check_selection_input(input)?;
    let out = Output::of(input, output)?;
    let ndim = input.dim();
    let axes = check_axes(axes, ndim)?;
    let separable = footprint.is_none_or(|f| f.mask.iter().all(|&m| m));
    if separable {
        let sizes = match footprint {
            Some(f) => PerAxis::Each(f.shape.clone()),
            None => size.cloned().unwrap_or(PerAxis::Same(1)),
        };
        let sizes = sizes.normalize(axes.len())?;
        let origins = origin.normalize(axes.len())?;
        let modes = mode.normalize(axes.len())?;
        let mut current = input.shallow_clone();
        let mut any = false;
        for k in 0..axes.len() {
            if sizes[k] <= 1 {
                continue;
            }
            if sizes[k] < 1 {
                return Err(Error::InvalidArgument("incorrect filter size".into()));
            }
            check_origin(origins[k], sizes[k], "invalid origin")?;
            any = true;
            if input.numel() > 0 {
                let pass = minmax1d(&to_double(&current)?, sizes[k], axes[k], modes[k], cval, origins[k], minimum)?;
                current = out.cast(&pass)?;
            }
        }
        if !any || input.numel() == 0 {
            return copy_cast(input, &out);
        }
        return Ok(current);
    }
    let Some(f) = footprint else { return Err(Error::InvalidArgument("no footprint provided".into())) };
    let modes = single_mode(mode, "A sequence of modes is not supported for non-separable footprints")?;
    let shape = expand_shape(&f.shape, &axes, ndim, "footprint")?;
    let origins = expand_origin(origin, &axes, ndim)?;
    let (before, after) = footprint_extent(&shape, &origins)?;
    if input.numel() == 0 {
        return copy_cast(input, &out);
    }
    let work = selection_work(input)?;
    let ext = extend_selection(&work, modes, cval, &before, &after)?;
    let views = footprint_views(&ext, &shape, &f.mask, &work.size())?;
    let mut val = views[0].shallow_clone();
    for v in &views[1..] {
        val = if minimum { val.f_minimum(v)? } else { val.f_maximum(v)? };
    }
    cast_selection(&val, &out)
}

/// The one mode of a non-separable filter (SciPy refuses a sequence).
pub(crate) fn single_mode(mode: &PerAxis<Mode>, message: &str) -> Result<Mode> {
    match mode {
        PerAxis::Same(m) => Ok(*m),
        PerAxis::Each(_) => Err(Error::InvalidArgument(message.into())),
    }
}

/// What [`rank_filter`] selects.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rank {
    /// `rank_filter`'s `rank` (negative counts from the largest).
    Rank(i64),
    /// `median_filter`: rank `count // 2`.
    Median,
    /// `percentile_filter`'s `percentile` (negative counts from 100).
    Percentile(f64),
}

/// `scipy.ndimage.rank_filter`, `median_filter`, `percentile_filter`.
#[allow(clippy::too_many_arguments)]
pub fn rank_filter(
    input: &Tensor,
    rank: Rank,
    size: Option<&PerAxis<i64>>,
    footprint: Option<&Footprint>,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    origin: &PerAxis<i64>,
    axes: Option<&[i64]>,
) -> Result<Tensor> {
    check_selection_input(input)?;
    let ndim = input.dim();
    let axes_v = check_axes(axes, ndim)?;
    let f = footprint_of(size, footprint, axes_v.len())?;
    let Placement { shape, origins, before, after } = place_footprint(&f, origin, &axes_v, ndim)?;
    let count = f.mask.iter().filter(|&&m| m).count() as i64;
    let mut r = match rank {
        Rank::Rank(r) => r,
        Rank::Median => count / 2,
        Rank::Percentile(p) => {
            let p = if p < 0.0 { p + 100.0 } else { p };
            if !(0.0..=100.0).contains(&p) {
                return Err(Error::InvalidArgument("invalid percentile".into()));
            }
            if p == 100.0 {
                count - 1
            } else {
                (count as f64 * p / 100.0) as i64
            }
        }
    };
    if r < 0 {
        r += count;
    }
    if r < 0 || r >= count {
        return Err(Error::InvalidArgument("rank not within filter footprint size".into()));
    }
    // SciPy hands the extremes to minimum_filter/maximum_filter (the footprint, full ndim)
    let expanded = Footprint { shape: shape.clone(), mask: f.mask.clone() };
    let full_mode = match mode {
        PerAxis::Each(m) if axes_v.len() < ndim => {
            let mut all = vec![Mode::Constant; ndim];
            for (k, &ax) in axes_v.iter().enumerate() {
                all[ax] = m.get(k).copied().unwrap_or(Mode::Constant);
            }
            PerAxis::Each(all)
        }
        other => other.clone(),
    };
    if r == 0 || r == count - 1 {
        return minmax_filter(
            input,
            None,
            Some(&expanded),
            output,
            &full_mode,
            cval,
            &PerAxis::Each(origins),
            None,
            r == 0,
        );
    }
    let out = Output::of(input, output)?;
    let mode = single_mode(&full_mode, "A sequence of modes is not supported by non-separable rank filters")?;
    if input.numel() == 0 {
        return copy_cast(input, &out);
    }
    let work = selection_work(input)?;
    let ext = extend_selection(&work, mode, cval, &before, &after)?;
    let views = footprint_views(&ext, &shape, &f.mask, &work.size())?;
    cast_selection(&select_views(views, r as usize)?, &out)
}

/// SciPy's `prewitt` (`smooth = [1, 1, 1]`) or `sobel` (`[1, 2, 1]`): the
/// central difference along `axis`, then the smoothing along every other
/// axis, each pass cast to the output dtype.
pub fn edge_filter(
    input: &Tensor,
    axis: i64,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    smooth: &[f64; 3],
) -> Result<Tensor> {
    check_input(input, "sobel/prewitt")?;
    let out = Output::of(input, output)?;
    let ndim = input.dim();
    let axis = normalize_axis(axis, ndim)?;
    let modes = mode.normalize(ndim)?;
    if input.numel() == 0 {
        return empty_result(input, &out);
    }
    let mut current = correlate1d_pass(input, &[-1.0, 0.0, 1.0], axis, modes[axis], cval, 0, &out)?;
    for ii in (0..ndim).filter(|&ii| ii != axis) {
        current = correlate1d_pass(&current, smooth, ii, modes[ii], cval, 0, &out)?;
    }
    Ok(current)
}

/// `scipy.ndimage.laplace`: the second differences along `axes`, summed in the output dtype.
pub fn laplace(
    input: &Tensor,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    axes: Option<&[i64]>,
) -> Result<Tensor> {
    check_input(input, "laplace")?;
    let out = Output::of(input, output)?;
    let axes = check_axes(axes, input.dim())?;
    if axes.is_empty() || input.numel() == 0 {
        return copy_cast(input, &out);
    }
    let modes = mode.normalize(axes.len())?;
    let mut acc: Option<Tensor> = None;
    for (k, &ax) in axes.iter().enumerate() {
        let d = correlate1d_pass(input, &[1.0, -2.0, 1.0], ax, modes[k], cval, 0, &out)?;
        acc = Some(match acc {
            None => d,
            Some(a) => a.f_add(&d)?,
        });
    }
    acc.ok_or_else(|| Error::Torch("laplace summed no axis".into()))
}

/// `scipy.ndimage.gaussian_laplace`: the sum over `axes` of the Gaussian
/// filter with the second derivative along that axis (sigma 0 elsewhere
/// than `axes`), in the output dtype.
#[allow(clippy::too_many_arguments)]
pub fn gaussian_laplace(
    input: &Tensor,
    sigma: &PerAxis<f64>,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    axes: Option<&[i64]>,
    truncate: f64,
    radius: &PerAxis<Option<i64>>,
) -> Result<Tensor> {
    check_input(input, "gaussian_laplace")?;
    let out = Output::of(input, output)?;
    let ndim = input.dim();
    let axes_v = check_axes(axes, ndim)?;
    let sigmas = sigma.normalize(axes_v.len())?;
    let full_sigma = if axes_v.len() < ndim {
        let mut s = vec![0.0; ndim];
        for (&v, &ax) in sigmas.iter().zip(&axes_v) {
            s[ax] = v;
        }
        s
    } else {
        sigmas
    };
    if axes_v.is_empty() {
        return copy_cast(input, &out);
    }
    let modes = mode.normalize(axes_v.len())?;
    let mut acc: Option<Tensor> = None;
    for (k, &ax) in axes_v.iter().enumerate() {
        let mut order = vec![0i64; ndim];
        order[ax] = 2;
        let g = Gaussian {
            sigma: PerAxis::Each(full_sigma.clone()),
            order: PerAxis::Each(order),
            truncate,
            radius: radius.clone(),
        };
        let d = gaussian_filter(input, &g, Some(out.dtype), &PerAxis::Same(modes[k]), cval, None)?;
        acc = Some(match acc {
            None => d,
            Some(a) => a.f_add(&d)?,
        });
    }
    acc.ok_or_else(|| Error::Torch("gaussian_laplace summed no axis".into()))
}

/// `scipy.ndimage.gaussian_gradient_magnitude`: the root of the sum over
/// `axes` of the squared Gaussian first derivatives (the derivative along
/// that axis, smoothing along every axis), in the output dtype.
#[allow(clippy::too_many_arguments)]
pub fn gaussian_gradient_magnitude(
    input: &Tensor,
    sigma: &PerAxis<f64>,
    output: Option<DType>,
    mode: &PerAxis<Mode>,
    cval: f64,
    axes: Option<&[i64]>,
    truncate: f64,
    radius: &PerAxis<Option<i64>>,
) -> Result<Tensor> {
    check_input(input, "gaussian_gradient_magnitude")?;
    let out = Output::of(input, output)?;
    let ndim = input.dim();
    let axes_v = check_axes(axes, ndim)?;
    if axes_v.is_empty() {
        return copy_cast(input, &out);
    }
    let modes = mode.normalize(axes_v.len())?;
    let mut acc: Option<Tensor> = None;
    for (k, &ax) in axes_v.iter().enumerate() {
        let mut order = vec![0i64; ndim];
        order[ax] = 1;
        let g = Gaussian { sigma: sigma.clone(), order: PerAxis::Each(order), truncate, radius: radius.clone() };
        let d = gaussian_filter(input, &g, Some(out.dtype), &PerAxis::Same(modes[k]), cval, None)?;
        let sq = d.f_mul(&d)?;
        acc = Some(match acc {
            None => sq,
            Some(a) => a.f_add(&sq)?,
        });
    }
    let acc = acc.ok_or_else(|| Error::Torch("gaussian_gradient_magnitude summed no axis".into()))?;
    if acc.kind() == Kind::Float {
        // libtorch's float32 sqrt is not always correctly rounded; float64's, rounded to float32, is
        return Ok(to_double(&acc)?.f_sqrt()?.f_to_kind(Kind::Float)?);
    }
    if acc.is_floating_point() {
        // libtorch's float64 sqrt (SLEEF) is within 1 ulp of NumPy's correctly rounded one
        return Ok(acc.f_sqrt()?);
    }
    // np.sqrt of integers in float64, cast back unsafely
    out.cast(&to_double(&acc)?.f_sqrt()?)
}

/// How many window values [`generic_filter`] gathers at once (8 MiB of float64).
const WINDOW_CHUNK: i64 = 1 << 20;

/// `scipy.ndimage.generic_filter1d`: `function` filters the lines of `input`
/// along `axis`, each extended by `mode` as SciPy extends it (`filter_size / 2
/// + origin` samples before, the rest after, any distance).
///
/// `function` receives every line at once: `lines`, float64 of shape
/// `(lines, n + filter_size - 1)` (the other axes in C order, SciPy's
/// iteration order), and `out`, float64 zeros of shape `(lines, n)` to fill;
/// the filled lines are then cast to the output dtype as SciPy's C cast does.
/// The function's error type is the caller's (a binding's `PyErr`).
#[allow(clippy::too_many_arguments)]
pub fn generic_filter1d<E: From<Error>>(
    input: &Tensor,
    filter_size: i64,
    axis: i64,
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    origin: i64,
    function: impl FnOnce(&Tensor, &Tensor) -> std::result::Result<(), E>,
) -> std::result::Result<Tensor, E> {
    check_selection_input(input)?;
    let out = Output::of(input, output)?;
    if filter_size < 1 {
        return Err(Error::InvalidArgument("invalid filter size".into()).into());
    }
    let axis = normalize_axis(axis, input.dim())?;
    check_origin(origin, filter_size, "invalid origin")?;
    if input.numel() == 0 {
        return Ok(copy_cast(input, &out)?);
    }
    let work = input.f_to_kind(Kind::Double).map_err(Error::from)?;
    let before = filter_size / 2 + origin;
    let after = filter_size - filter_size / 2 - 1 - origin;
    let ext = extend(&work, axis, mode, cval, before, after)?;
    let last = work.dim() as i64 - 1;
    let moved = ext.f_movedim([axis as i64], [last]).map_err(Error::from)?.f_contiguous().map_err(Error::from)?;
    let n = work.size()[axis];
    let lines = moved.f_reshape([-1, n + filter_size - 1]).map_err(Error::from)?;
    let filtered = Tensor::f_zeros([lines.size()[0], n], (Kind::Double, tch::Device::Cpu))
        .map_err(Error::from)?
        .f_to_device(lines.device())
        .map_err(Error::from)?;
    function(&lines, &filtered)?;
    let mut shape = moved.size();
    shape[work.dim() - 1] = n;
    let result = filtered
        .f_reshape(shape.as_slice())
        .map_err(Error::from)?
        .f_movedim([last], [axis as i64])
        .map_err(Error::from)?
        .f_reshape(input.size().as_slice())
        .map_err(Error::from)?;
    Ok(out.cast(&result.f_contiguous().map_err(Error::from)?)?)
}

/// The windows of [`generic_filter`]: the input (float64) extended by the
/// footprint, flat, and the flat offset of every footprint position.
struct Windows {
    ext: Tensor,
    dims: Vec<i64>,
    strides: Vec<i64>,
    offsets: Tensor,
}

impl Windows {
    /// The windows of the points `start .. start + len` (C order), float64 of
    /// shape `(len, footprint count)`, the footprint in C order.
    fn rows(&self, start: i64, len: i64) -> Result<Tensor> {
        let device = self.ext.device();
        let mut rest = Tensor::f_arange_start(start, start + len, (Kind::Int64, device))?;
        let mut base = Tensor::f_zeros([len], (Kind::Int64, device))?;
        for d in (0..self.dims.len()).rev() {
            let i = rest.f_remainder(self.dims[d])?;
            base = base.f_add(&i.f_mul_scalar(self.strides[d])?)?;
            rest = rest.f_floor_divide_scalar(self.dims[d])?;
        }
        let index = base.f_unsqueeze(1)?.f_add(&self.offsets.f_unsqueeze(0)?)?;
        Ok(self.ext.f_take(&index)?)
    }
}

/// `scipy.ndimage.generic_filter`: `function` of the input values under the
/// footprint (`size`, a box, or `footprint`), at every point, the input
/// extended by `mode` as SciPy's n-D filters extend it (any distance).
///
/// `function` receives the windows of a chunk of points at once: float64 of
/// shape `(points, count)`, the points in C order, each row the values under
/// the footprint's `count` positions in C order (SciPy's buffer), and returns
/// one value per point (any shape of `points` elements, converted to
/// float64); the chunks hold at most about 2^20 values. The results are cast
/// to the output dtype as SciPy's C cast does. The function's error type is
/// the caller's (a binding's `PyErr`).
#[allow(clippy::too_many_arguments)]
pub fn generic_filter<E: From<Error>>(
    input: &Tensor,
    size: Option<&PerAxis<i64>>,
    footprint: Option<&Footprint>,
    output: Option<DType>,
    mode: Mode,
    cval: f64,
    origin: &PerAxis<i64>,
    axes: Option<&[i64]>,
    mut function: impl FnMut(&Tensor) -> std::result::Result<Tensor, E>,
) -> std::result::Result<Tensor, E> {
    check_selection_input(input)?;
    let ndim = input.dim();
    let axes_v = check_axes(axes, ndim)?;
    let f = footprint_of(size, footprint, axes_v.len())?;
    let Placement { shape, before, after, .. } = place_footprint(&f, origin, &axes_v, ndim)?;
    let out = Output::of(input, output)?;
    if input.numel() == 0 {
        return Ok(copy_cast(input, &out)?);
    }
    let work = input.f_to_kind(Kind::Double).map_err(Error::from)?;
    let ext = extend_all(&work, mode, cval, &before, &after)?.f_contiguous().map_err(Error::from)?;
    let strides = ext.stride();
    let offsets: Vec<i64> = f
        .mask
        .iter()
        .enumerate()
        .filter(|(_, &on)| on)
        .map(|(flat, _)| unravel(flat as i64, &shape).iter().zip(&strides).map(|(i, s)| i * s).sum())
        .collect();
    let count = offsets.len() as i64;
    let windows = Windows {
        ext: ext.f_reshape([-1]).map_err(Error::from)?,
        dims: work.size(),
        strides,
        offsets: Tensor::f_from_slice(&offsets)
            .map_err(Error::from)?
            .f_to_device(work.device())
            .map_err(Error::from)?,
    };
    let points = work.numel() as i64;
    let chunk = (WINDOW_CHUNK / count.max(1)).max(1);
    let mut values = Vec::new();
    let mut start = 0;
    while start < points {
        let len = chunk.min(points - start);
        let rows = windows.rows(start, len)?;
        let v = function(&rows)?;
        let v = v.f_to_kind(Kind::Double).map_err(Error::from)?.f_reshape([-1]).map_err(Error::from)?;
        if v.numel() as i64 != len {
            return Err(Error::InvalidArgument(format!(
                "generic_filter: the function gave {} values for {len} points",
                v.numel()
            ))
            .into());
        }
        values.push(v.f_to_device(work.device()).map_err(Error::from)?);
        start += len;
    }
    let result =
        Tensor::f_cat(&values, 0).map_err(Error::from)?.f_reshape(work.size().as_slice()).map_err(Error::from)?;
    Ok(out.cast(&result)?)
}
