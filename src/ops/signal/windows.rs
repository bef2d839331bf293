//! `scipy.signal.windows` (SciPy's `windows/_windows.py`): the window
//! functions, as float64 tensors of length `m` on `device`.
//!
//! Each window follows SciPy 1.17.1's formula operation for operation (the
//! same grid, the same order of the arithmetic), so that the values agree
//! with SciPy's to a few units in the last place; libtorch's `cos`, `exp`,
//! `i0` and FFT differ from NumPy's by about one ulp. `sym = false` gives the
//! periodic ("DFT-even") window: the symmetric window of length `m + 1`
//! without its last sample. Lengths 0 and 1 give `ones(m)`, as SciPy's
//! `_len_guards`; a negative length is refused with SciPy's message.
//!
//! [`Window`] names a window with its parameters (what `get_window` takes),
//! [`window_name`] is SciPy's table of names and aliases.

use tch::{Device, Kind, Tensor};

use crate::ops::numpy::arange;
use crate::{Error, Result};

const F64: Kind = Kind::Double;
const PI: f64 = std::f64::consts::PI;

/// SciPy's `_len_guards`: refuses negative lengths; `true` for lengths 0 and 1
/// (whose window is `ones(m)`).
fn len_guards(m: i64) -> Result<bool> {
    if m < 0 {
        return Err(Error::InvalidArgument("Window length M must be a non-negative integer".into()));
    }
    Ok(m <= 1)
}

fn ones(m: i64, device: Device) -> Result<Tensor> {
    Ok(Tensor::f_ones([m], (F64, device))?)
}

/// SciPy's `_extend`: the length to compute and whether to drop the last sample.
fn extend(m: i64, sym: bool) -> (i64, bool) {
    if sym {
        (m, false)
    } else {
        (m + 1, true)
    }
}

/// SciPy's `_truncate`.
fn truncate(w: Tensor, needed: bool) -> Result<Tensor> {
    if needed {
        let len = w.size()[0];
        Ok(w.f_narrow(0, 0, len - 1)?)
    } else {
        Ok(w)
    }
}

/// `[0, 1, ..., m - 1]` in float64.
fn ramp(m: i64, device: Device) -> Result<Tensor> {
    arange(m, F64, device)
}

/// `a / t`, elementwise (a scalar over a tensor, rounded once as NumPy does).
fn over(a: f64, t: &Tensor) -> Result<Tensor> {
    Ok(Tensor::f_scalar_tensor(a, (F64, t.device()))?.f_div(t)?)
}

/// `a - t`, elementwise.
fn minus(a: f64, t: &Tensor) -> Result<Tensor> {
    Ok(t.f_neg()?.f_add_scalar(a)?)
}

/// NumPy's `linspace(start, stop, m)` (m >= 2): `k * step + start`, the last
/// sample exactly `stop`.
fn linspace(start: f64, stop: f64, m: i64, device: Device) -> Result<Tensor> {
    let step = (stop - start) / (m - 1) as f64;
    let y = ramp(m, device)?.f_mul_scalar(step)?.f_add_scalar(start)?;
    let _ = y.f_narrow(0, m - 1, 1)?.f_fill_(stop)?;
    Ok(y)
}

fn flip(t: &Tensor) -> Result<Tensor> {
    Ok(t.f_flip([0])?)
}

fn cat(parts: &[&Tensor]) -> Result<Tensor> {
    Ok(Tensor::f_cat(parts, 0)?)
}

/// `t[start:]` (clamped as Python slices are).
fn from(t: &Tensor, start: i64) -> Result<Tensor> {
    let len = t.size()[0];
    let start = start.clamp(0, len);
    Ok(t.f_narrow(0, start, len - start)?)
}

/// `t[start:stop]` (clamped as Python slices are).
fn slice(t: &Tensor, start: i64, stop: i64) -> Result<Tensor> {
    let len = t.size()[0];
    let start = start.clamp(0, len);
    let stop = stop.clamp(start, len);
    Ok(t.f_narrow(0, start, stop - start)?)
}

/// `general_cosine`: `sum_k a[k] cos(k x)` on `x = linspace(-pi, pi, m)`.
pub fn general_cosine(m: i64, a: &[f64], sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let fac = linspace(-PI, PI, m, device)?;
    let mut w = Tensor::f_zeros([m], (F64, device))?;
    for (k, &ak) in a.iter().enumerate() {
        let term = fac.f_mul_scalar(k as f64)?.f_cos()?.f_mul_scalar(ak)?;
        w = w.f_add(&term)?;
    }
    truncate(w, needs_trunc)
}

/// `general_cosine` with coefficients given as a tensor (any real dtype, any
/// device): the window in float64 on the coefficients' device.
pub fn general_cosine_tensor(m: i64, a: &Tensor, sym: bool) -> Result<Tensor> {
    if a.dim() != 1 {
        return Err(Error::InvalidArgument(format!(
            "general_cosine: the coefficients `a` must be a 1-D sequence, got {} dimensions",
            a.dim()
        )));
    }
    if a.f_is_complex()? {
        return Err(Error::NotImplemented("general_cosine: complex coefficients are not supported".into()));
    }
    let coefficients: Vec<f64> = Vec::<f64>::try_from(a.f_to_kind(F64)?.f_to_device(Device::Cpu)?)?;
    general_cosine(m, &coefficients, sym, a.device())
}

/// `boxcar`: ones.
pub fn boxcar(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    truncate(ones(m, device)?, needs_trunc)
}

/// `triang`: the triangular window without zero end points.
pub fn triang(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let n = ramp((m + 1) / 2, device)?.f_add_scalar(1.0)?;
    let w = if m % 2 == 0 {
        let w = n.f_mul_scalar(2.0)?.f_sub_scalar(1.0)?.f_div_scalar(m as f64)?;
        cat(&[&w, &flip(&w)?])?
    } else {
        let w = n.f_mul_scalar(2.0)?.f_div_scalar(m as f64 + 1.0)?;
        let len = w.size()[0];
        cat(&[&w, &flip(&w.f_narrow(0, 0, len - 1)?)?])?
    };
    truncate(w, needs_trunc)
}

/// `parzen`: the de la Vallée Poussin window.
pub fn parzen(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let half = m as f64 / 2.0;
    let n = ramp(m, device)?.f_add_scalar(-(m as f64 - 1.0) / 2.0)?;
    let a = n.f_abs()?;
    let r = a.f_div_scalar(half)?;
    let inner = minus(1.0, &r.f_pow_tensor_scalar(2.0)?.f_mul_scalar(6.0)?)?
        .f_add(&r.f_pow_tensor_scalar(3.0)?.f_mul_scalar(6.0)?)?;
    let outer = minus(1.0, &r)?.f_pow_tensor_scalar(3.0)?.f_mul_scalar(2.0)?;
    let w = inner.f_where_self(&a.f_le((m as f64 - 1.0) / 4.0)?, &outer)?;
    truncate(w, needs_trunc)
}

/// `bohman`: the Bohman window.
pub fn bohman(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let fac = linspace(-1.0, 1.0, m, device)?.f_narrow(0, 1, m - 2)?.f_abs()?;
    let pifac = fac.f_mul_scalar(PI)?;
    let w = minus(1.0, &fac)?.f_mul(&pifac.f_cos()?)?.f_add(&pifac.f_sin()?.f_mul_scalar(1.0 / PI)?)?;
    let zero = Tensor::f_zeros([1], (F64, device))?;
    truncate(cat(&[&zero, &w, &zero])?, needs_trunc)
}

/// `blackman`: the Blackman window.
pub fn blackman(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    general_cosine(m, &[0.42, 0.50, 0.08], sym, device)
}

/// `nuttall`: the minimum 4-term Blackman-Harris window of Nuttall.
pub fn nuttall(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    general_cosine(m, &[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym, device)
}

/// `blackmanharris`: the minimum 4-term Blackman-Harris window.
pub fn blackmanharris(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    general_cosine(m, &[0.35875, 0.48829, 0.14128, 0.01168], sym, device)
}

/// `flattop`: the flat top window.
pub fn flattop(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    general_cosine(m, &[0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368], sym, device)
}

/// `bartlett`: the triangular window with zero end points.
pub fn bartlett(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let n = ramp(m, device)?;
    let rising = n.f_mul_scalar(2.0)?.f_div_scalar((m - 1) as f64)?;
    let falling = minus(2.0, &rising)?;
    let w = rising.f_where_self(&n.f_le((m as f64 - 1.0) / 2.0)?, &falling)?;
    truncate(w, needs_trunc)
}

/// `hann`: the Hann window (`general_hamming` with `alpha = 0.5`).
pub fn hann(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    general_hamming(m, 0.5, sym, device)
}

/// `tukey`: the tapered cosine window (`alpha <= 0`: boxcar; `alpha >= 1`: hann).
pub fn tukey(m: i64, alpha: f64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    if alpha <= 0.0 {
        return ones(m, device);
    } else if alpha >= 1.0 {
        return hann(m, sym, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let n = ramp(m, device)?;
    let width = (alpha * (m - 1) as f64 / 2.0).floor() as i64;
    let n1 = slice(&n, 0, width + 1)?;
    let n2 = slice(&n, width + 1, m - width - 1)?;
    let n3 = from(&n, m - width - 1)?;
    let taper =
        |x: Tensor| -> Result<Tensor> { Ok(x.f_mul_scalar(PI)?.f_cos()?.f_add_scalar(1.0)?.f_mul_scalar(0.5)?) };
    let w1 = taper(n1.f_mul_scalar(2.0)?.f_div_scalar(alpha)?.f_div_scalar((m - 1) as f64)?.f_add_scalar(-1.0)?)?;
    let w2 = Tensor::f_ones(n2.size(), (F64, device))?;
    let w3 = taper(
        n3.f_mul_scalar(2.0)?.f_div_scalar(alpha)?.f_div_scalar((m - 1) as f64)?.f_add_scalar(-2.0 / alpha + 1.0)?,
    )?;
    truncate(cat(&[&w1, &w2, &w3])?, needs_trunc)
}

/// `barthann`: the modified Bartlett-Hann window.
pub fn barthann(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let fac = ramp(m, device)?.f_div_scalar(m as f64 - 1.0)?.f_sub_scalar(0.5)?.f_abs()?;
    let w = minus(0.62, &fac.f_mul_scalar(0.48)?)?.f_add(&fac.f_mul_scalar(2.0 * PI)?.f_cos()?.f_mul_scalar(0.38)?)?;
    truncate(w, needs_trunc)
}

/// `general_hamming`: `alpha - (1 - alpha) cos(2 pi n / (M - 1))`.
pub fn general_hamming(m: i64, alpha: f64, sym: bool, device: Device) -> Result<Tensor> {
    general_cosine(m, &[alpha, 1.0 - alpha], sym, device)
}

/// `hamming`: the Hamming window (`general_hamming` with `alpha = 0.54`).
pub fn hamming(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    general_hamming(m, 0.54, sym, device)
}

/// `kaiser`: `I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)`.
pub fn kaiser(m: i64, beta: f64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let alpha = (m - 1) as f64 / 2.0;
    let n = ramp(m, device)?;
    let arg = minus(1.0, &n.f_sub_scalar(alpha)?.f_div_scalar(alpha)?.f_pow_tensor_scalar(2.0)?)?.f_sqrt()?;
    let numerator = arg.f_mul_scalar(beta)?.f_i0()?;
    let denominator = Tensor::f_scalar_tensor(beta, (F64, device))?.f_i0()?;
    truncate(numerator.f_div(&denominator)?, needs_trunc)
}

/// `kaiser_bessel_derived`: the Kaiser-Bessel derived window (symmetric, even
/// lengths only; empty for `m < 1`).
pub fn kaiser_bessel_derived(m: i64, beta: f64, sym: bool, device: Device) -> Result<Tensor> {
    if !sym {
        return Err(Error::InvalidArgument(
            "Kaiser-Bessel Derived windows are only defined for symmetric shapes".into(),
        ));
    } else if m < 1 {
        return Ok(Tensor::f_zeros([0], (F64, device))?);
    } else if m % 2 != 0 {
        return Err(Error::InvalidArgument(
            "Kaiser-Bessel Derived windows are only defined for even number of points".into(),
        ));
    }
    let kaiser_window = kaiser(m / 2 + 1, beta, true, device)?;
    let csum = kaiser_window.f_cumsum(0, F64)?;
    let len = csum.size()[0];
    let half = csum.f_narrow(0, 0, len - 1)?.f_div(&csum.f_narrow(0, len - 1, 1)?)?.f_sqrt()?;
    cat(&[&half, &flip(&half)?])
}

/// `gaussian`: `exp(-n^2 / (2 std^2))` on `n` centred at `(M-1)/2`.
pub fn gaussian(m: i64, std: f64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let n = ramp(m, device)?.f_sub_scalar((m as f64 - 1.0) / 2.0)?;
    let sig2 = 2.0 * std * std;
    let w = n.f_pow_tensor_scalar(2.0)?.f_neg()?.f_div_scalar(sig2)?.f_exp()?;
    truncate(w, needs_trunc)
}

/// `general_gaussian`: `exp(-0.5 |n / sig|^(2p))`.
pub fn general_gaussian(m: i64, p: f64, sig: f64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let n = ramp(m, device)?.f_sub_scalar((m as f64 - 1.0) / 2.0)?;
    let w = n.f_div_scalar(sig)?.f_abs()?.f_pow_tensor_scalar(2.0 * p)?.f_mul_scalar(-0.5)?.f_exp()?;
    truncate(w, needs_trunc)
}

/// Whether `chebwin`'s attenuation is below the 45 dB where SciPy warns that
/// the window is unsuitable for spectral analysis.
pub fn chebwin_warns(at: f64) -> bool {
    at.abs() < 45.0
}

/// `chebwin`: the Dolph-Chebyshev window of sidelobe attenuation `at` dB.
pub fn chebwin(m: i64, at: f64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let order = m as f64 - 1.0;
    let beta = (1.0 / order * 10f64.powf(at.abs() / 20.0).acosh()).cosh();
    let k = ramp(m, device)?;
    let x = k.f_mul_scalar(PI)?.f_div_scalar(m as f64)?.f_cos()?.f_mul_scalar(beta)?;
    let above = x.f_acosh()?.f_mul_scalar(order)?.f_cosh()?;
    let below = x.f_neg()?.f_acosh()?.f_mul_scalar(order)?.f_cosh()?.f_mul_scalar((2 * (m % 2) - 1) as f64)?;
    let inside = x.f_acos()?.f_mul_scalar(order)?.f_cos()?;
    let p = inside.f_where_self(&x.f_abs()?.f_le(1.0)?, &Tensor::f_zeros_like(&x)?)?;
    let p = below.f_where_self(&x.f_lt(-1.0)?, &p)?;
    let p = above.f_where_self(&x.f_gt(1.0)?, &p)?;
    let w = if m % 2 == 1 {
        let w = p.f_fft_fft(None::<i64>, 0, "backward")?.f_real()?;
        let n = (m + 1) / 2;
        let w = w.f_narrow(0, 0, n)?;
        cat(&[&flip(&w.f_narrow(0, 1, n - 1)?)?, &w])?
    } else {
        let phase = ramp(m, device)?.f_mul_scalar(PI / m as f64)?;
        let rotation = Tensor::f_polar(&Tensor::f_ones_like(&phase)?, &phase)?;
        let w = p.f_mul(&rotation)?.f_fft_fft(None::<i64>, 0, "backward")?.f_real()?;
        let n = m / 2 + 1;
        let tail = w.f_narrow(0, 1, n - 1)?;
        cat(&[&flip(&tail)?, &tail])?
    };
    let w = w.f_div(&w.f_max()?)?;
    truncate(w, needs_trunc)
}

/// `cosine`: `sin(pi (n + 0.5) / M)`.
pub fn cosine(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let w = ramp(m, device)?.f_add_scalar(0.5)?.f_mul_scalar(PI / m as f64)?.f_sin()?;
    truncate(w, needs_trunc)
}

/// `exponential`: `exp(-|n - center| / tau)` (`center` defaults to the
/// middle; SciPy refuses a `center` with `sym`).
pub fn exponential(m: i64, center: Option<f64>, tau: f64, sym: bool, device: Device) -> Result<Tensor> {
    if sym && center.is_some() {
        return Err(Error::InvalidArgument("If sym==True, center must be None.".into()));
    }
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let center = center.unwrap_or((m - 1) as f64 / 2.0);
    let w = ramp(m, device)?.f_sub_scalar(center)?.f_abs()?.f_neg()?.f_div_scalar(tau)?.f_exp()?;
    truncate(w, needs_trunc)
}

/// `taylor`: the Taylor window of `nbar` nearly constant sidelobes `sll` dB
/// down (normalised to 1 at the centre with `norm`).
pub fn taylor(m: i64, nbar: i64, sll: f64, norm: bool, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    if nbar < 1 {
        return Err(Error::InvalidArgument(format!("taylor: nbar must be a positive integer, got {nbar}")));
    }
    let (m, needs_trunc) = extend(m, sym);
    let b = 10f64.powf(sll / 20.0);
    let a = b.acosh() / PI;
    let s2 = (nbar * nbar) as f64 / (a * a + (nbar as f64 - 0.5).powi(2));
    let ma: Vec<f64> = (1..nbar).map(|k| k as f64).collect();
    let m2: Vec<f64> = ma.iter().map(|m| m * m).collect();
    let mut fm = Vec::with_capacity(ma.len());
    for mi in 0..ma.len() {
        let sign = if mi % 2 == 0 { 1.0 } else { -1.0 };
        let numer = sign * ma.iter().map(|mk| 1.0 - m2[mi] / s2 / (a * a + (mk - 0.5) * (mk - 0.5))).product::<f64>();
        let below: f64 = m2[..mi].iter().map(|m2k| 1.0 - m2[mi] / m2k).product();
        let above: f64 = m2[mi + 1..].iter().map(|m2k| 1.0 - m2[mi] / m2k).product();
        fm.push(numer / (2.0 * below * above));
    }
    let fm_t = Tensor::f_from_slice(&fm)?.f_to_device(device)?;
    let ma_t = Tensor::f_from_slice(&ma)?.f_to_device(device)?.f_unsqueeze(1)?;
    let window = |n: &Tensor| -> Result<Tensor> {
        let shifted = n.f_add_scalar(-(m as f64) / 2.0 + 0.5)?.f_unsqueeze(0)?;
        let angles = ma_t.f_mul_scalar(2.0 * PI)?.f_mul(&shifted)?.f_div_scalar(m as f64)?;
        Ok(fm_t.f_matmul(&angles.f_cos()?)?.f_mul_scalar(2.0)?.f_add_scalar(1.0)?)
    };
    let mut w = window(&ramp(m, device)?)?;
    if norm {
        let centre = Tensor::f_from_slice(&[(m - 1) as f64 / 2.0])?.f_to_device(device)?;
        let scale = over(1.0, &window(&centre)?)?;
        w = w.f_mul(&scale)?;
    }
    truncate(w, needs_trunc)
}

/// `lanczos`: the sinc window `sinc(2n/(M-1) - 1)`, built symmetric from its right half.
pub fn lanczos(m: i64, sym: bool, device: Device) -> Result<Tensor> {
    if len_guards(m)? {
        return ones(m, device);
    }
    let (m, needs_trunc) = extend(m, sym);
    let right = |start: i64| -> Result<Tensor> {
        let n = ramp(m - start, device)?.f_add_scalar(start as f64)?;
        Ok(n.f_mul_scalar(2.0)?.f_div_scalar((m - 1) as f64)?.f_sub_scalar(1.0)?.f_sinc()?)
    };
    let w = if m % 2 == 0 {
        let wh = right(m / 2)?;
        cat(&[&flip(&wh)?, &wh])?
    } else {
        let wh = right((m + 1) / 2)?;
        cat(&[&flip(&wh)?, &ones(1, device)?, &wh])?
    };
    truncate(w, needs_trunc)
}

/// `dpss`'s normalisation of the tapers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DpssNorm {
    /// `2`: unit energy (the eigenvectors as they come).
    L2,
    /// `"approximate"`: maximum 1, with the even-length correction `M^2 / (M^2 + NW)`.
    Approximate,
    /// `"subsample"`: maximum 1, the even-length correction from the spectrum of the first taper.
    Subsample,
}

/// What [`dpss`] returns: the tapers (`(M,)` for one, `(Kmax, M)` for
/// several) and, when asked, their concentration ratios (a 0-d tensor for
/// one taper, `(Kmax,)` for several).
pub struct Dpss {
    /// The tapers.
    pub windows: Tensor,
    /// The concentration ratios, when asked for.
    pub ratios: Option<Tensor>,
}

/// `dpss`: the first `kmax` (one when `None`) discrete prolate spheroidal
/// (Slepian) sequences of half-bandwidth `nw`.
///
/// SciPy solves the tridiagonal eigenproblem with LAPACK's `stebz`/`stein`
/// for the `kmax` largest eigenvalues only; libtorch has no tridiagonal
/// solver, so this takes the dense symmetric eigendecomposition
/// (`linalg_eigh`) of the same matrix: O(M^3) time and O(M^2) memory, fine
/// to a few thousand samples.
pub fn dpss(
    m: i64,
    nw: f64,
    kmax: Option<i64>,
    sym: bool,
    norm: DpssNorm,
    return_ratios: bool,
    device: Device,
) -> Result<Dpss> {
    let singleton = kmax.is_none();
    let kmax = kmax.unwrap_or(1);
    if len_guards(m)? {
        let windows = ones(m, device)?;
        let ratios = match (return_ratios, singleton) {
            (false, _) => None,
            (true, true) => Some(Tensor::f_scalar_tensor(1.0, (F64, device))?),
            (true, false) => Some(ones(1, device)?),
        };
        return Ok(Dpss { windows, ratios });
    }
    if !(0 < kmax && kmax <= m) {
        return Err(Error::InvalidArgument("Kmax must be greater than 0 and less than M".into()));
    }
    if nw >= m as f64 / 2.0 {
        return Err(Error::InvalidArgument("NW must be less than M/2.".into()));
    }
    if nw <= 0.0 || nw.is_nan() {
        return Err(Error::InvalidArgument("NW must be positive".into()));
    }
    let (m, needs_trunc) = extend(m, sym);
    let w_band = nw / m as f64;
    let nidx = ramp(m, device)?;
    let d = minus((m - 1) as f64, &nidx.f_mul_scalar(2.0)?)?
        .f_div_scalar(2.0)?
        .f_pow_tensor_scalar(2.0)?
        .f_mul_scalar((2.0 * PI * w_band).cos())?;
    let tail = from(&nidx, 1)?;
    let e = tail.f_mul(&minus(m as f64, &tail)?)?.f_div_scalar(2.0)?;
    let matrix = d.f_diag_embed(0, -2, -1)?.f_add(&e.f_diag_embed(1, -2, -1)?)?.f_add(&e.f_diag_embed(-1, -2, -1)?)?;
    let (_, vectors) = matrix.f_linalg_eigh("L")?;
    // the kmax largest eigenvalues' vectors, largest first, one taper a row
    let mut windows = vectors.f_narrow(1, m - kmax, kmax)?.f_flip([1])?.f_transpose(0, 1)?.f_contiguous()?;
    // symmetric tapers (k = 0, 2, ...) have a positive mean
    let rows = Tensor::f_arange(kmax, (Kind::Int64, device))?;
    let even = rows.f_remainder(2)?.f_eq(0)?;
    let negative_sum = windows.f_sum_dim_intlist(1, false, F64)?.f_lt(0.0)?;
    // antisymmetric tapers (k = 1, 3, ...) start with a positive lobe: the
    // first sample above the numerical noise is positive
    let thresh = (1.0 / m as f64).max(1e-7);
    let above = windows.f_square()?.f_gt(thresh)?;
    let first = above.f_to_kind(Kind::Int8)?.f_argmax(1, true)?;
    let first_value = windows.f_gather(1, &first, false)?.f_squeeze_dim(1)?;
    let negative_lobe = first_value.f_lt(0.0)?.f_logical_and(&above.f_any_dim(1, false)?)?;
    let flip_rows = negative_sum.f_where_self(&even, &negative_lobe)?;
    let signs = Tensor::f_ones([kmax], (F64, device))?.f_masked_fill(&flip_rows, -1.0)?;
    windows = windows.f_mul(&signs.f_unsqueeze(1)?)?;
    let ratios = if return_ratios {
        let rxx = autocorrelation(&windows)?;
        let r = nidx.f_mul_scalar(2.0 * w_band)?.f_sinc()?.f_mul_scalar(4.0 * w_band)?;
        let _ = r.f_narrow(0, 0, 1)?.f_fill_(2.0 * w_band)?;
        let ratios = rxx.f_matmul(&r)?;
        Some(if singleton { ratios.f_select(0, 0)? } else { ratios })
    } else {
        None
    };
    if norm != DpssNorm::L2 {
        windows = windows.f_div(&windows.f_max()?)?;
        if m % 2 == 0 {
            let correction = match norm {
                DpssNorm::Approximate => {
                    Tensor::f_scalar_tensor((m * m) as f64 / ((m * m) as f64 + nw), (F64, device))?
                }
                _ => {
                    let s = windows.f_select(0, 0)?.f_fft_rfft(None::<i64>, 0, "backward")?;
                    let shift = ramp(m / 2, device)?.f_add_scalar(1.0)?.f_mul_scalar(-(1.0 - 1.0 / m as f64))?;
                    let rotation = Tensor::f_polar(&Tensor::f_ones_like(&shift)?, &shift.f_mul_scalar(-PI)?)?;
                    let rest = from(&s, 1)?.f_mul(&rotation.f_mul_scalar(2.0)?)?;
                    let s = cat(&[&s.f_narrow(0, 0, 1)?, &rest])?;
                    over(m as f64, &s.f_real()?.f_sum(F64)?)?
                }
            };
            windows = windows.f_mul(&correction)?;
        }
    }
    if needs_trunc {
        windows = windows.f_narrow(1, 0, m - 1)?;
    }
    if singleton {
        windows = windows.f_select(0, 0)?;
    }
    Ok(Dpss { windows: windows.f_contiguous()?, ratios })
}

/// SciPy's `_fftautocorr`: the autocorrelation of each row at lags `0..N`
/// (through an FFT of length at least `2N - 1`).
fn autocorrelation(x: &Tensor) -> Result<Tensor> {
    let n = x.size()[1];
    let length = crate::ops::fft::next_fast_len(2 * n - 1, crate::ops::fft::LengthFor::Real)? as i64;
    let spectrum = x.f_fft_rfft(length, -1, "backward")?;
    let power = spectrum.f_mul(&spectrum.f_conj()?)?.f_resolve_conj()?;
    let cxy = power.f_fft_irfft(length, -1, "backward")?;
    Ok(cxy.f_narrow(1, 0, n)?)
}

/// A window with its parameters: what `get_window` names.
#[derive(Clone, Debug, PartialEq)]
pub enum Window {
    /// [`barthann`]
    Barthann,
    /// [`bartlett`]
    Bartlett,
    /// [`blackman`]
    Blackman,
    /// [`blackmanharris`]
    Blackmanharris,
    /// [`bohman`]
    Bohman,
    /// [`boxcar`]
    Boxcar,
    /// [`chebwin`]
    Chebwin {
        /// Attenuation in dB.
        at: f64,
    },
    /// [`cosine`]
    Cosine,
    /// [`dpss`] (one taper, SciPy's default normalisation).
    Dpss {
        /// Standardized half bandwidth.
        nw: f64,
    },
    /// [`exponential`]
    Exponential {
        /// The centre (`None`: the middle).
        center: Option<f64>,
        /// The decay.
        tau: f64,
    },
    /// [`flattop`]
    Flattop,
    /// [`gaussian`]
    Gaussian {
        /// The standard deviation.
        std: f64,
    },
    /// [`general_cosine`]
    GeneralCosine {
        /// The weighting coefficients.
        a: Vec<f64>,
    },
    /// [`general_gaussian`]
    GeneralGaussian {
        /// The shape parameter.
        p: f64,
        /// The standard deviation.
        sig: f64,
    },
    /// [`general_hamming`]
    GeneralHamming {
        /// The window coefficient.
        alpha: f64,
    },
    /// [`hamming`]
    Hamming,
    /// [`hann`]
    Hann,
    /// [`kaiser`]
    Kaiser {
        /// The shape parameter.
        beta: f64,
    },
    /// [`kaiser_bessel_derived`]
    KaiserBesselDerived {
        /// The shape parameter.
        beta: f64,
    },
    /// [`lanczos`]
    Lanczos,
    /// [`nuttall`]
    Nuttall,
    /// [`parzen`]
    Parzen,
    /// [`taylor`]
    Taylor {
        /// Number of nearly constant sidelobes.
        nbar: i64,
        /// Sidelobe level in dB.
        sll: f64,
        /// Normalise to 1 at the centre.
        norm: bool,
    },
    /// [`triang`]
    Triang,
    /// [`tukey`]
    Tukey {
        /// The taper fraction.
        alpha: f64,
    },
}

impl Window {
    /// The window of length `m` (`sym = false`: periodic).
    pub fn compute(&self, m: i64, sym: bool, device: Device) -> Result<Tensor> {
        match self {
            Window::Barthann => barthann(m, sym, device),
            Window::Bartlett => bartlett(m, sym, device),
            Window::Blackman => blackman(m, sym, device),
            Window::Blackmanharris => blackmanharris(m, sym, device),
            Window::Bohman => bohman(m, sym, device),
            Window::Boxcar => boxcar(m, sym, device),
            Window::Chebwin { at } => chebwin(m, *at, sym, device),
            Window::Cosine => cosine(m, sym, device),
            Window::Dpss { nw } => Ok(dpss(m, *nw, None, sym, DpssNorm::Approximate, false, device)?.windows),
            Window::Exponential { center, tau } => exponential(m, *center, *tau, sym, device),
            Window::Flattop => flattop(m, sym, device),
            Window::Gaussian { std } => gaussian(m, *std, sym, device),
            Window::GeneralCosine { a } => general_cosine(m, a, sym, device),
            Window::GeneralGaussian { p, sig } => general_gaussian(m, *p, *sig, sym, device),
            Window::GeneralHamming { alpha } => general_hamming(m, *alpha, sym, device),
            Window::Hamming => hamming(m, sym, device),
            Window::Hann => hann(m, sym, device),
            Window::Kaiser { beta } => kaiser(m, *beta, sym, device),
            Window::KaiserBesselDerived { beta } => kaiser_bessel_derived(m, *beta, sym, device),
            Window::Lanczos => lanczos(m, sym, device),
            Window::Nuttall => nuttall(m, sym, device),
            Window::Parzen => parzen(m, sym, device),
            Window::Taylor { nbar, sll, norm } => taylor(m, *nbar, *sll, *norm, sym, device),
            Window::Triang => triang(m, sym, device),
            Window::Tukey { alpha } => tukey(m, *alpha, sym, device),
        }
    }
}

/// Whether a window named in `get_window` takes parameters (SciPy's `has_args`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parameters {
    /// None allowed.
    None,
    /// At least one required.
    Required,
    /// Optional.
    Optional,
}

/// SciPy's `_WIN_FUNC_DATA`: the canonical name of the window that `name`
/// (a name or one of SciPy's aliases, exactly) stands for, and whether it
/// takes parameters.
pub fn window_name(name: &str) -> Option<(&'static str, Parameters)> {
    use Parameters::{None as No, Optional, Required};
    const TABLE: &[(&[&str], &str, Parameters)] = &[
        (&["barthann", "brthan", "bth"], "barthann", No),
        (&["bartlett", "bart", "brt"], "bartlett", No),
        (&["blackman", "black", "blk"], "blackman", No),
        (&["blackmanharris", "blackharr", "bkh"], "blackmanharris", No),
        (&["bohman", "bman", "bmn"], "bohman", No),
        (&["boxcar", "box", "ones", "rect", "rectangular"], "boxcar", No),
        (&["chebwin", "cheb"], "chebwin", Required),
        (&["cosine", "halfcosine"], "cosine", No),
        (&["dpss"], "dpss", Required),
        (&["exponential", "poisson"], "exponential", Optional),
        (&["flattop", "flat", "flt"], "flattop", No),
        (&["gaussian", "gauss", "gss"], "gaussian", Required),
        (&["general cosine", "general_cosine"], "general_cosine", Required),
        (
            &["general gaussian", "general_gaussian", "general gauss", "general_gauss", "ggs"],
            "general_gaussian",
            Required,
        ),
        (&["general hamming", "general_hamming"], "general_hamming", Required),
        (&["hamming", "hamm", "ham"], "hamming", No),
        (&["hann", "han"], "hann", No),
        (&["kaiser", "ksr"], "kaiser", Required),
        (&["kaiser bessel derived", "kaiser_bessel_derived", "kbd"], "kaiser_bessel_derived", Required),
        (&["lanczos", "sinc"], "lanczos", No),
        (&["nuttall", "nutl", "nut"], "nuttall", No),
        (&["parzen", "parz", "par"], "parzen", No),
        (&["taylor", "taylorwin"], "taylor", Optional),
        (&["triangle", "triang", "tri"], "triang", No),
        (&["tukey", "tuk"], "tukey", Optional),
    ];
    TABLE.iter().find(|(names, _, _)| names.contains(&name)).map(|(_, canonical, p)| (*canonical, *p))
}
