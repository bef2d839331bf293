//! Savitzky-Golay filters (SciPy's `_savitzky_golay.py`): `savgol_coeffs`,
//! `savgol_filter`.
//!
//! The coefficients are SciPy's: the minimum-norm least-squares solution of
//! the Vandermonde system (LAPACK's `gelsd` through libtorch, as
//! `scipy.linalg.lstsq` calls it), in float64 on the host, its rows scaled
//! to unit norm first (the same solution, better conditioned: for long
//! windows and high orders SciPy's own result carries errors of up to 1e-8).
//!
//! The filter is `ndimage.convolve1d` with the coefficients along `axis`, the
//! input extended by SciPy's `mode` (any distance: index arithmetic, not
//! libtorch's pads, which must be shorter than the axis). The convolution is
//! one GEMM: the extended signal cut into overlapping windows of
//! `B + window_length - 1` samples (`unfold`, step `B`), times a banded
//! Toeplitz matrix of `B` columns. Measured here on 1e6 float64 samples,
//! window 31: 10 ms, against 22 ms for a sum of 31 shifted copies, 78 ms for
//! the FFT and 21 ms for SciPy. `"interp"` replaces the `window_length // 2`
//! samples at either end by the polynomial fitted to the first (last)
//! `window_length` samples: a linear map of those samples, one small matrix
//! (the pseudo-inverse of the fit's Vandermonde matrix, columns scaled as
//! `np.polyfit` scales them, times the derivative's evaluation) built in
//! float64 on the host.
//!
//! Non-finite input takes a sum of shifted copies instead (one multiply-add
//! per coefficient), so that a NaN or inf spreads only as far as SciPy's.
//!
//! float32 input is filtered in float64 and rounded once, as ndimage's
//! double line buffers do; everything else but float32 gives float64.

use std::str::FromStr;

use tch::{Device, Kind, Tensor};

use crate::ops::numpy::normalize_axis;
use crate::{dlpack, DType, Error, Result};

/// `savgol_coeffs`' `use`: the order of the coefficients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Reversed, for a convolution (the default).
    Conv,
    /// In order, for a dot product with the window.
    Dot,
}

impl FromStr for Use {
    type Err = Error;

    fn from_str(name: &str) -> Result<Use> {
        match name {
            "conv" => Ok(Use::Conv),
            "dot" => Ok(Use::Dot),
            _ => Err(Error::InvalidArgument("`use` must be 'conv' or 'dot'".into())),
        }
    }
}

/// How `savgol_filter` extends the signal beyond its ends, SciPy's `mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SavgolMode {
    /// `d c b | a b c d | c b a` (ndimage's `mirror`).
    Mirror,
    /// With `cval`.
    Constant,
    /// The edge repeated.
    Nearest,
    /// Periodically.
    Wrap,
    /// No extension: a polynomial fitted to the `window_length` samples at
    /// each end gives the outputs there (the default).
    Interp,
}

/// SciPy's message for a `mode` it does not know.
pub const MODE_MESSAGE: &str = "mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.";

impl FromStr for SavgolMode {
    type Err = Error;

    fn from_str(name: &str) -> Result<SavgolMode> {
        match name {
            "mirror" => Ok(SavgolMode::Mirror),
            "constant" => Ok(SavgolMode::Constant),
            "nearest" => Ok(SavgolMode::Nearest),
            "wrap" => Ok(SavgolMode::Wrap),
            "interp" => Ok(SavgolMode::Interp),
            _ => Err(Error::InvalidArgument(MODE_MESSAGE.into())),
        }
    }
}

const HOST: (Kind, Device) = (Kind::Double, Device::Cpu);

/// `n!` as a float (`float_factorial`).
fn factorial(n: i64) -> f64 {
    (1..=n).map(|k| k as f64).product()
}

/// The minimum-norm least-squares solution of `a x = b` (LAPACK `gelsd`,
/// `rcond = eps * max(a.shape)`, as SciPy's `_lstsq`).
fn lstsq(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let size = a.size();
    let rcond = f64::EPSILON * size.iter().copied().max().unwrap_or(1) as f64;
    let (x, _, _, _) = a.f_linalg_lstsq(b, rcond, "gelsd")?;
    Ok(x)
}

fn host_tensor(values: &[f64], shape: &[i64]) -> Result<Tensor> {
    Ok(Tensor::f_from_slice(values)?.f_view(shape)?)
}

/// `scipy.signal.savgol_coeffs`: the `window_length` coefficients of the
/// Savitzky-Golay filter of order `polyorder` (the `deriv`-th derivative,
/// samples `delta` apart, evaluated at `pos`: default the window's centre),
/// reversed for a convolution when `use` is [`Use::Conv`]. Float64 on the
/// host.
pub fn savgol_coeffs(
    window_length: i64,
    polyorder: i64,
    deriv: i64,
    delta: f64,
    pos: Option<f64>,
    use_: Use,
) -> Result<Tensor> {
    if polyorder >= window_length {
        return Err(Error::InvalidArgument("polyorder must be less than window_length.".into()));
    }
    if polyorder < 0 {
        return Err(Error::InvalidArgument(format!("polyorder must be nonnegative, got {polyorder}")));
    }
    if deriv < 0 {
        return Err(Error::InvalidArgument(format!("deriv must be nonnegative, got {deriv}")));
    }
    let (halflen, rem) = (window_length / 2, window_length % 2);
    let pos = pos.unwrap_or(if rem == 0 { halflen as f64 - 0.5 } else { halflen as f64 });
    if !(0.0 <= pos && pos < window_length as f64) {
        return Err(Error::InvalidArgument("pos must be nonnegative and less than window_length.".into()));
    }
    let w = window_length as usize;
    if deriv > polyorder {
        return Ok(Tensor::f_zeros([window_length], HOST)?);
    }
    let mut x: Vec<f64> = (0..w).map(|k| -pos + k as f64).collect();
    if use_ == Use::Conv {
        x.reverse();
    }
    let rows = (polyorder + 1) as usize;
    let mut a: Vec<f64> = (0..rows).flat_map(|o| x.iter().map(move |&v| v.powf(o as f64))).collect();
    let mut y = vec![0.0; rows];
    y[deriv as usize] = factorial(deriv) / delta.powf(deriv as f64);
    // each row (power) scaled to unit norm: the same solutions, better conditioned
    for o in 0..rows {
        let norm = a[o * w..(o + 1) * w].iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm > 0.0 {
            a[o * w..(o + 1) * w].iter_mut().for_each(|v| *v /= norm);
            y[o] /= norm;
        }
    }
    let a = host_tensor(&a, &[rows as i64, window_length])?;
    let y = host_tensor(&y, &[rows as i64, 1])?;
    Ok(lstsq(&a, &y)?.f_view([window_length])?)
}

/// The `(halflen, window_length)` map from the `window_length` samples at an
/// end to the interpolated outputs at positions `start..start + halflen` of
/// that window (SciPy's `_fit_edge`: `polyfit`, `polyder`, `polyval`).
fn edge_map(window_length: i64, polyorder: i64, deriv: i64, delta: f64, start: i64, halflen: i64) -> Result<Tensor> {
    let (w, p) = (window_length as usize, (polyorder + 1) as usize);
    // the Vandermonde matrix of 0..w, columns lowest power first, scaled to unit norm
    let mut v: Vec<f64> = (0..w).flat_map(|t| (0..p).map(move |o| (t as f64).powf(o as f64))).collect();
    let scale: Vec<f64> = (0..p).map(|o| (0..w).map(|t| v[t * p + o].powi(2)).sum::<f64>().sqrt()).collect();
    for t in 0..w {
        for o in 0..p {
            v[t * p + o] /= scale[o];
        }
    }
    let eye = Tensor::f_eye(window_length, HOST)?;
    let pinv = lstsq(&host_tensor(&v, &[w as i64, p as i64])?, &eye)?; // (p, w)
                                                                       // the derivative's evaluation at the positions, the scale folded in
    let mut e = vec![0.0; halflen as usize * p];
    for i in 0..halflen as usize {
        let t = (start + i as i64) as f64;
        for o in (deriv as usize)..p {
            let falling: f64 = ((o - deriv as usize + 1)..=o).map(|k| k as f64).product();
            e[i * p + o] = falling * t.powf((o - deriv as usize) as f64) / scale[o] / delta.powf(deriv as f64);
        }
    }
    Ok(host_tensor(&e, &[halflen, p as i64])?.f_matmul(&pinv)?)
}

/// Samples of `x` (last axis, length `n`) at `positions` outside `0..n`,
/// extended by `mode` (`cval` for `Constant`, zero for `Interp`).
fn extension(x: &Tensor, positions: std::ops::Range<i64>, mode: SavgolMode, cval: f64) -> Result<Tensor> {
    let n = *x.size().last().unwrap_or(&0);
    let count = positions.end - positions.start;
    if matches!(mode, SavgolMode::Constant | SavgolMode::Interp) {
        let value = if mode == SavgolMode::Constant { cval } else { 0.0 };
        let mut shape = x.size();
        if let Some(last) = shape.last_mut() {
            *last = count;
        }
        return Ok(Tensor::f_full(shape.as_slice(), value, (x.kind(), x.device()))?);
    }
    let index: Vec<i64> = positions
        .map(|p| match mode {
            SavgolMode::Nearest => p.clamp(0, n - 1),
            SavgolMode::Wrap => p.rem_euclid(n),
            _ if n == 1 => 0,
            _ => {
                let period = 2 * (n - 1);
                let q = p.rem_euclid(period);
                if q >= n {
                    period - q
                } else {
                    q
                }
            }
        })
        .collect();
    let index = Tensor::f_from_slice(&index)?.f_to_device(x.device())?;
    Ok(x.f_index_select(-1, &index)?)
}

/// `ndimage.convolve1d(x, coeffs, mode=mode, cval=cval)` along the last axis
/// of the float64 `x`, as one GEMM (see the module's notes).
fn convolve_last(x: &Tensor, coeffs: &[f64], mode: SavgolMode, cval: f64) -> Result<Tensor> {
    let shape = x.size();
    let n = *shape.last().unwrap_or(&0);
    let w = coeffs.len() as i64;
    // convolve1d: the reversed weights correlated, (w - 1) // 2 samples before each output
    let left = (w - 1) / 2;
    let right = w - 1 - left;
    let block = w.max(64).min(n.max(1));
    let blocks = (n + block - 1) / block;
    let tail = blocks * block - n; // zeros that complete the last block
    let ext = Tensor::f_cat(
        &[
            extension(x, -left..0, mode, cval)?,
            x.shallow_clone(),
            extension(x, n..n + right, mode, cval)?,
            Tensor::f_zeros([&shape[..shape.len() - 1], &[tail]].concat().as_slice(), (x.kind(), x.device()))?,
        ],
        -1,
    )?;
    // a finite sum means finite samples (a NaN or inf makes it non-finite; an overflow
    // only sends finite input down the slower path): 0.3 ms for 1e6 samples, where
    // `isfinite().all()` takes 4 ms
    if !bool::try_from(&x.f_sum(Kind::Double)?.f_isfinite()?)? {
        // the GEMM multiplies every sample of a block by the Toeplitz zeros, which
        // would spread a NaN or inf over the block: a sum of shifted copies instead
        let mut y = Tensor::f_zeros_like(x)?;
        for (k, &c) in coeffs.iter().rev().enumerate() {
            y = y.f_add(&ext.f_narrow(-1, k as i64, n)?.f_mul_scalar(c)?)?;
        }
        return Ok(y);
    }
    let span = block + w - 1;
    let windows = ext.f_unfold(-1, span, block)?; // (..., blocks, span)
    let mut toeplitz = vec![0.0; (span * block) as usize];
    for j in 0..block {
        for k in 0..w {
            // output j of a block reads window samples j..j + w, weights reversed
            toeplitz[((j + k) * block + j) as usize] = coeffs[(w - 1 - k) as usize];
        }
    }
    let toeplitz = host_tensor(&toeplitz, &[span, block])?.f_to_device(x.device())?;
    let y = windows.f_matmul(&toeplitz)?; // (..., blocks, block)
    let mut flat = shape.clone();
    if let Some(last) = flat.last_mut() {
        *last = blocks * block;
    }
    Ok(y.f_reshape(flat.as_slice())?.f_narrow(-1, 0, n)?)
}

/// `scipy.signal.savgol_filter`: `x` filtered along `axis` by the
/// Savitzky-Golay filter of `window_length` and `polyorder` (the `deriv`-th
/// derivative, samples `delta` apart), the ends handled by `mode` (`cval`
/// for `Constant`). float32 stays float32; other real input gives float64;
/// complex input is not implemented.
#[allow(clippy::too_many_arguments)]
pub fn savgol_filter(
    x: &Tensor,
    window_length: i64,
    polyorder: i64,
    deriv: i64,
    delta: f64,
    axis: i64,
    mode: SavgolMode,
    cval: f64,
) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(x)?;
    if dtype.is_complex() {
        return Err(Error::NotImplemented(format!(
            "savgol_filter on {} input is not implemented (SciPy casts it to float64, discarding the \
             imaginary part); filter the real and imaginary parts separately",
            dtype.name()
        )));
    }
    let out_kind = if dtype == DType::Float32 { Kind::Float } else { Kind::Double };
    let coeffs = savgol_coeffs(window_length, polyorder, deriv, delta, None, Use::Conv)?;
    let coeffs = Vec::<f64>::try_from(&coeffs)?;
    let axis = normalize_axis(axis, x.dim())? as i64;
    let n = x.size()[axis as usize];
    if mode == SavgolMode::Interp && window_length > n {
        return Err(Error::InvalidArgument(
            "If mode is 'interp', window_length must be less than or equal to the size of x.".into(),
        ));
    }
    let xt = x.f_to_kind(Kind::Double)?.f_movedim([axis], [-1])?;
    if n == 0 || xt.numel() == 0 {
        return Ok(xt.f_movedim([-1], [axis])?.f_to_kind(out_kind)?.f_contiguous()?);
    }
    let mut y = convolve_last(&xt, &coeffs, mode, cval)?;
    if mode == SavgolMode::Interp {
        let halflen = window_length / 2;
        if halflen > 0 {
            let first = edge_map(window_length, polyorder, deriv, delta, 0, halflen)?.f_to_device(x.device())?;
            let last = edge_map(window_length, polyorder, deriv, delta, window_length - halflen, halflen)?
                .f_to_device(x.device())?;
            let head = xt.f_narrow(-1, 0, window_length)?.f_matmul(&first.f_transpose(0, 1)?)?;
            let tail = xt.f_narrow(-1, n - window_length, window_length)?.f_matmul(&last.f_transpose(0, 1)?)?;
            // written into the fresh result, not concatenated (one copy of the signal less)
            let y_own = y.f_contiguous()?;
            y_own.f_narrow(-1, 0, halflen)?.f_copy_(&head)?;
            y_own.f_narrow(-1, n - halflen, halflen)?.f_copy_(&tail)?;
            y = y_own;
        }
    }
    Ok(y.f_movedim([-1], [axis])?.f_to_kind(out_kind)?.f_contiguous()?)
}
