//! `resample` (the Fourier method), `resample_poly` (polyphase, a `firwin`
//! low-pass and `upfirdn`) and `decimate` (an anti-aliasing low-pass, then
//! every `q`-th sample) from SciPy's `_signaltools.py`.

use std::str::FromStr;

use tch::{Device, Kind, Tensor};

use super::convolve::fft_input;
use super::lfilter::{sosfilt, sosfiltfilt, PadType};
use crate::ops::fft::plans;
use crate::ops::numpy::normalize_axis;
use crate::ops::signal::filter_design::{iirfilter, zpk2sos};
use crate::ops::signal::fir_filter_design::{firwin, PassZero};
use crate::ops::signal::upfirdn::{output_len, upfirdn, UpfirdnMode};
use crate::ops::signal::windows::hamming;
use crate::{Error, Result};

/// `resample`'s `domain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// `x` is a signal (the default).
    Time,
    /// `x` is already the FFT of one.
    Freq,
}

impl FromStr for Domain {
    type Err = Error;

    fn from_str(name: &str) -> Result<Domain> {
        match name {
            "time" => Ok(Domain::Time),
            "freq" => Ok(Domain::Freq),
            other => Err(Error::InvalidArgument(format!("Parameter domain='{other}' not in ('time', 'freq')!"))),
        }
    }
}

/// `scipy.signal.resample`: `x` resampled to `num` samples along `axis` by
/// cutting or zero-padding its FFT (SciPy 1.17's handling of the unpaired
/// bin at `min(num, n)/2`), the spectrum first multiplied by `window` (the
/// `n` values `W`, already in FFT order) when given. With `t` (its first two
/// samples), also the `num` output times `t[0] + (t[1] - t[0]) n/num k` (float64).
pub fn resample(
    x: &Tensor,
    num: i64,
    t: Option<&Tensor>,
    axis: i64,
    window: Option<&Tensor>,
    domain: Domain,
) -> Result<(Tensor, Option<Tensor>)> {
    if x.dim() == 0 {
        return Err(Error::InvalidArgument("resample: x must be at least 1-D".into()));
    }
    if num < 1 {
        return Err(Error::InvalidArgument(format!("resample: num must be a positive integer, got {num}")));
    }
    let ax = if x.dim() > 1 { normalize_axis(axis, x.dim())? as i64 } else { 0 };
    let x = x.f_movedim([ax], [-1])?;
    let n_x = x.size()[x.dim() - 1];
    if n_x == 0 {
        return Err(Error::InvalidArgument("resample: x has no samples along axis".into()));
    }
    let s_fac = n_x as f64 / num as f64;
    let m = num.min(n_x);
    let m2 = m / 2 + 1;
    let device = x.device();
    let w = match window {
        Some(w) => {
            if w.size() != [n_x] {
                return Err(Error::InvalidArgument(format!(
                    "window.shape={:?} != ({n_x},), i.e., window length is not equal to number of frequency bins!",
                    w.size()
                )));
            }
            Some(w.f_to_device(device)?)
        }
        None => None,
    };
    let last = -1i64;
    let real_path = domain == Domain::Time && !x.is_complex();
    if x.numel() == 0 {
        // no lanes (another axis is empty): the FFT refuses an empty batch
        let kind = match (real_path, x.kind()) {
            (true, _) => fft_input(&x)?.kind(),
            (false, Kind::ComplexFloat | Kind::ComplexHalf | Kind::Float | Kind::Half | Kind::BFloat16) => {
                Kind::ComplexFloat
            }
            (false, _) => Kind::ComplexDouble,
        };
        let mut shape = x.size();
        *shape.last_mut().unwrap_or(&mut 0) = num;
        let x_r = Tensor::f_zeros(&shape, (kind, device))?.f_movedim([-1], [ax])?;
        return Ok((x_r, resample_times(t, num, s_fac)?));
    }
    let x_r = if real_path {
        let mut big_x = plans::rfft(&fft_input(&x)?, None, last, "backward")?;
        let ckind = big_x.kind();
        let n_big = big_x.size()[big_x.dim() - 1];
        if let Some(w) = &w {
            // fold the window: W1[l] = (W[l] + W[-l]) / 2 for 0 < l < n_X
            let w = w.f_to_kind(Kind::Double)?;
            let folded = if n_big > 1 {
                let tail = w.f_narrow(0, n_x - n_big + 1, n_big - 1)?.f_flip([0])?;
                let inner = w.f_narrow(0, 1, n_big - 1)?.f_add(&tail)?.f_div_scalar(2.0)?;
                Tensor::f_cat(&[w.f_narrow(0, 0, 1)?, inner], 0)?
            } else {
                w.f_narrow(0, 0, 1)?
            };
            big_x = big_x.f_mul(&folded)?.f_to_kind(ckind)?;
        }
        let mut big_x = big_x.f_narrow(last, 0, m2)?;
        if m % 2 == 0 && num != n_x {
            let f = if num < n_x { 2.0 } else { 0.5 };
            let k = m / 2;
            big_x = Tensor::f_cat(&[big_x.f_narrow(last, 0, k)?, big_x.f_narrow(last, k, 1)?.f_mul_scalar(f)?], last)?;
        }
        plans::irfft(&big_x.f_div_scalar(s_fac)?, num, last, "backward")?
    } else {
        let mut big_x = if domain == Domain::Time {
            plans::fft(&x, None, last, "backward")?
        } else if x.is_complex() {
            x.shallow_clone()
        } else {
            fft_input(&x)?
        };
        if let Some(w) = &w {
            big_x = big_x.f_mul(w)?;
        }
        let zeros = |count: i64| -> Result<Tensor> {
            let mut shape = big_x.size();
            *shape.last_mut().unwrap_or(&mut 0) = count;
            Ok(Tensor::f_zeros(&shape, (big_x.kind(), device))?)
        };
        let part = |start: i64, len: i64| big_x.f_narrow(last, start, len);
        let y = if m % 2 == 0 && num < n_x {
            let k = m / 2;
            let joined = part(k, 1)?.f_add(&part(n_x - k, 1)?)?;
            Tensor::f_cat(&[part(0, k)?, joined, part(n_x - k + 1, k - 1)?], last)?
        } else if m % 2 == 0 && n_x < num {
            let k = m / 2;
            let half = part(k, 1)?.f_div_scalar(2.0)?;
            Tensor::f_cat(
                &[part(0, k)?, half.shallow_clone(), zeros(num - m - 1)?, half, part(n_x - k + 1, k - 1)?],
                last,
            )?
        } else {
            let neg = m - m2;
            Tensor::f_cat(&[part(0, m2.min(m))?, zeros(num - m)?, part(n_x - neg, neg)?], last)?
        };
        plans::ifft(&y.f_div_scalar(s_fac)?, num, last, "backward")?
    };
    let x_r = x_r.f_movedim([-1], [ax])?;
    Ok((x_r, resample_times(t, num, s_fac)?))
}

/// `resample`'s output timestamps `t[0] + (t[1] - t[0]) s_fac k` (float64).
fn resample_times(t: Option<&Tensor>, num: i64, s_fac: f64) -> Result<Option<Tensor>> {
    let Some(t) = t else {
        return Ok(None);
    };
    if t.dim() != 1 || t.size()[0] < 2 {
        return Err(Error::InvalidArgument("t must hold at least the first two timestamps of x".into()));
    }
    let t = t.f_to_kind(Kind::Double)?;
    let (t0, t1) = (t.f_narrow(0, 0, 1)?, t.f_narrow(0, 1, 1)?);
    let k = Tensor::f_arange(num, (Kind::Double, t.device()))?;
    Ok(Some(t0.f_add(&t1.f_sub(&t0)?.f_mul_scalar(s_fac)?.f_mul(&k)?)?))
}

/// `resample_poly`'s `padtype`: an `upfirdn` mode, or a background removed first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padtype {
    /// One of `upfirdn`'s modes.
    Mode(UpfirdnMode),
    /// The mean along the axis removed before and added after.
    Mean,
    /// The median.
    Median,
    /// The maximum.
    Maximum,
    /// The minimum.
    Minimum,
}

/// SciPy's message for an unknown `padtype`.
pub const PADTYPE_MESSAGE: &str = "padtype must be one of: maximum, mean, median, minimum, \
    constant, wrap, edge, smooth, symmetric, reflect, antisymmetric, antireflect, line";

impl FromStr for Padtype {
    type Err = Error;

    fn from_str(name: &str) -> Result<Padtype> {
        Ok(match name {
            "mean" => Padtype::Mean,
            "median" => Padtype::Median,
            "maximum" => Padtype::Maximum,
            "minimum" => Padtype::Minimum,
            "constant" | "wrap" | "edge" | "smooth" | "symmetric" | "reflect" | "antisymmetric" | "antireflect"
            | "line" => Padtype::Mode(name.parse()?),
            _ => return Err(Error::InvalidArgument(PADTYPE_MESSAGE.into())),
        })
    }
}

/// `up` and `down` reduced by their gcd (`Err` unless both are at least 1).
pub fn reduced_rates(up: i64, down: i64) -> Result<(i64, i64)> {
    if up < 1 || down < 1 {
        return Err(Error::InvalidArgument("up and down must be >= 1".into()));
    }
    let (mut a, mut b) = (up, down);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    Ok((up / a, down / a))
}

/// The number of taps of `resample_poly`'s designed filter: `20 max(up, down) + 1` (rates reduced).
pub fn design_taps(up: i64, down: i64) -> Result<i64> {
    let (u, d) = reduced_rates(up, down)?;
    Ok(20 * u.max(d) + 1)
}

/// `resample_poly`'s filter.
pub enum PolyFilter {
    /// The FIR coefficients given (any 1-D dtype; kept as given).
    Taps(Tensor),
    /// The symmetric window of [`design_taps`] samples for SciPy's `firwin` design.
    Window(Tensor),
}

/// `scipy.signal.resample_poly`: `x` resampled by `up / down` along `axis`
/// (upsampled, low-pass filtered by `filter`, downsampled: [`upfirdn`]),
/// the output centred on the filter; `padtype` says what lies past the ends
/// (`cval` for `constant`, default zero).
pub fn resample_poly(
    x: &Tensor,
    up: i64,
    down: i64,
    axis: i64,
    filter: PolyFilter,
    padtype: Padtype,
    cval: Option<f64>,
) -> Result<Tensor> {
    if cval.is_some() && padtype != Padtype::Mode(UpfirdnMode::Constant) {
        return Err(Error::InvalidArgument(format!("cval has no effect when padtype is {padtype:?}")));
    }
    let (up, down) = reduced_rates(up, down)?;
    if x.dim() == 0 {
        return Err(Error::InvalidArgument("resample_poly: x must be at least 1-D".into()));
    }
    let ax = normalize_axis(axis, x.dim())?;
    if up == 1 && down == 1 {
        return Ok(x.copy());
    }
    let n_in = x.size()[ax];
    let n_out = n_in * up;
    let n_out = n_out / down + i64::from(n_out % down != 0);
    let (h, half_len) = match filter {
        PolyFilter::Taps(h) => {
            if h.dim() > 1 {
                return Err(Error::InvalidArgument("window must be 1-D".into()));
            }
            let h = h.f_reshape([-1])?;
            let half_len = (h.numel() as i64 - 1) / 2;
            (h, half_len)
        }
        PolyFilter::Window(w) => {
            let max_rate = up.max(down);
            let half_len = 10 * max_rate;
            let h = firwin(2 * half_len + 1, &[1.0 / max_rate as f64], &w, PassZero::Bool(true), true, 2.0)?;
            let kind = x.kind();
            let h =
                if matches!(kind, Kind::Float | Kind::Double | Kind::ComplexFloat | Kind::ComplexDouble | Kind::Half) {
                    h.f_to_kind(kind)?
                } else {
                    h
                };
            (h, half_len)
        }
    };
    let h = h.f_to_device(x.device())?.f_mul_scalar(up)?;
    let n_pre_pad = down - half_len.rem_euclid(down);
    let mut n_post_pad = 0;
    let n_pre_remove = (half_len + n_pre_pad) / down;
    let len_h = h.size()[0];
    while output_len(len_h + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove {
        n_post_pad += 1;
    }
    let h = h.f_constant_pad_nd([n_pre_pad, n_post_pad])?;
    let (x, background) = match padtype {
        Padtype::Mode(_) => (x.shallow_clone(), None),
        Padtype::Mean => {
            let xf =
                if x.is_complex() || x.is_floating_point() { x.shallow_clone() } else { x.f_to_kind(Kind::Double)? };
            let b = xf.f_mean_dim(Some([ax as i64].as_slice()), true, None::<Kind>)?;
            (xf.f_sub(&b)?, Some(b))
        }
        Padtype::Median => {
            if x.is_complex() {
                return Err(Error::NotImplemented("resample_poly: padtype='median' of complex input".into()));
            }
            let xf = if x.is_floating_point() { x.shallow_clone() } else { x.f_to_kind(Kind::Double)? };
            let (sorted, _) = xf.f_sort(ax as i64, false)?;
            if n_in == 0 {
                return Err(Error::InvalidArgument("resample_poly: the median of an empty axis".into()));
            }
            let b = if n_in % 2 == 1 {
                sorted.f_narrow(ax as i64, n_in / 2, 1)?
            } else {
                sorted.f_narrow(ax as i64, n_in / 2 - 1, 2)?.f_mean_dim(
                    Some([ax as i64].as_slice()),
                    true,
                    None::<Kind>,
                )?
            };
            (xf.f_sub(&b)?, Some(b))
        }
        Padtype::Maximum | Padtype::Minimum => {
            if x.is_complex() {
                return Err(Error::InvalidArgument("resample_poly: the maximum/minimum of complex input".into()));
            }
            let b =
                if padtype == Padtype::Maximum { x.f_amax([ax as i64], true)? } else { x.f_amin([ax as i64], true)? };
            (x.f_sub(&b)?, Some(b))
        }
    };
    let (mode, cval) = match padtype {
        Padtype::Mode(m) => (m, cval.unwrap_or(0.0)),
        _ => (UpfirdnMode::Constant, 0.0),
    };
    let y = upfirdn(&h, &x, up, down, ax as i64, mode, cval)?;
    let kept = y.f_narrow(ax as i64, n_pre_remove, n_out)?;
    match background {
        Some(b) => Ok(kept.f_add(&b)?.f_to_kind(kept.kind())?),
        None => Ok(kept),
    }
}

/// `decimate`'s anti-aliasing filter, SciPy's `ftype` (a `dlti` system is
/// not accepted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimateFilter {
    /// A Chebyshev type I low-pass of order `n` (default 8), 0.05 dB ripple,
    /// cutoff `0.8 / q` (the default), applied as second-order sections.
    Iir,
    /// A Hamming-windowed `firwin` low-pass of `n + 1` taps (default
    /// `n = 20 q`), cutoff `1 / q`.
    Fir,
}

impl FromStr for DecimateFilter {
    type Err = Error;

    fn from_str(name: &str) -> Result<DecimateFilter> {
        match name {
            "iir" => Ok(DecimateFilter::Iir),
            "fir" => Ok(DecimateFilter::Fir),
            _ => Err(Error::InvalidArgument("invalid ftype".into())),
        }
    }
}

/// `scipy.signal.decimate`: `x` low-pass filtered by `ftype`'s filter and
/// every `q`-th sample kept along `axis`; `zero_phase` filters forward and
/// backward ([`sosfiltfilt`], or [`resample_poly`] with the FIR taps), else
/// once ([`sosfilt`], or [`upfirdn`]'s polyphase `down = q`). The filter
/// is in `x`'s dtype where that is inexact (float16 and integers: float64),
/// as SciPy casts it.
pub fn decimate(
    x: &Tensor,
    q: i64,
    n: Option<i64>,
    ftype: DecimateFilter,
    axis: i64,
    zero_phase: bool,
) -> Result<Tensor> {
    if q < 1 {
        return Err(Error::InvalidArgument(format!("q must be a positive integer, got {q}")));
    }
    if let Some(n) = n.filter(|&n| n < 1) {
        return Err(Error::InvalidArgument(format!("n must be a positive integer, got {n}")));
    }
    if x.dim() == 0 {
        return Err(Error::InvalidArgument("decimate: x must be at least 1-D".into()));
    }
    let ax = normalize_axis(axis, x.dim())? as i64;
    let kind = match x.kind() {
        k @ (Kind::Float | Kind::Double | Kind::ComplexFloat | Kind::ComplexDouble) => k,
        Kind::ComplexHalf => Kind::ComplexDouble,
        _ => Kind::Double,
    };
    let x = &x.f_to_kind(kind)?;
    match ftype {
        DecimateFilter::Fir => {
            let n = n.unwrap_or(20 * q);
            let window = hamming(n + 1, true, Device::Cpu)?;
            let taps = firwin(n + 1, &[1.0 / q as f64], &window, PassZero::Bool(true), true, 2.0)?;
            let taps = taps.f_to_kind(kind)?.f_to_device(x.device())?;
            if zero_phase {
                resample_poly(x, 1, q, ax, PolyFilter::Taps(taps), Padtype::Mode(UpfirdnMode::Constant), None)
            } else {
                let kept = (x.size()[ax as usize] + q - 1) / q;
                Ok(upfirdn(&taps, x, 1, q, ax, UpfirdnMode::Constant, 0.0)?.f_narrow(ax, 0, kept)?)
            }
        }
        DecimateFilter::Iir => {
            let n = n.unwrap_or(8);
            let design =
                iirfilter(n as f64, &[0.8 / q as f64], Some(0.05), None, "lowpass", false, "cheby1", "sos", None)?;
            let sections = zpk2sos(&design.z, &design.p, design.k, None, false)?;
            let sos = Tensor::f_from_slice(sections.as_flattened())?
                .f_reshape([-1, 6])?
                .f_to_kind(kind)?
                .f_to_device(x.device())?;
            let y = if zero_phase {
                sosfiltfilt(&sos, x, ax, Some(PadType::Odd), None)?
            } else {
                sosfilt(&sos, x, ax, None)?.0
            };
            Ok(y.f_slice(ax, 0, None, q)?)
        }
    }
}
