//! FIR filter design by the window method (SciPy's `_fir_filter_design.py`):
//! `kaiser_beta`, `kaiser_atten`, `kaiserord`, `firwin`, `firwin2`.
//!
//! Design computations take no arrays: they run in float64 on the host,
//! with libtorch (`sinc`, the window, `irfft`) where arrays are involved.
//! The window itself is given as a tensor (the caller evaluates SciPy's
//! `get_window(window, numtaps, fftbins=False)`).

use std::f64::consts::PI;

use tch::{Device, Kind, Tensor};

use crate::ops::fft::plans;
use crate::{Error, Result};

const HOST: (Kind, Device) = (Kind::Double, Device::Cpu);

/// `scipy.signal.kaiser_beta`: the Kaiser window's `beta` for an attenuation of `a` dB.
pub fn kaiser_beta(a: f64) -> f64 {
    if a > 50.0 {
        0.1102 * (a - 8.7)
    } else if a > 21.0 {
        0.5842 * (a - 21.0).powf(0.4) + 0.07886 * (a - 21.0)
    } else {
        0.0
    }
}

/// `scipy.signal.kaiser_atten`: Kaiser's attenuation (dB) of `numtaps` taps
/// and a transition `width` (a fraction of Nyquist).
pub fn kaiser_atten(numtaps: f64, width: f64) -> f64 {
    2.285 * (numtaps - 1.0) * PI * width + 7.95
}

/// `scipy.signal.kaiserord`: `(numtaps, beta)` of the Kaiser window for a
/// `ripple` (dB) and a transition `width` (a fraction of Nyquist).
pub fn kaiserord(ripple: f64, width: f64) -> Result<(i64, f64)> {
    let a = ripple.abs();
    if a < 8.0 {
        return Err(Error::InvalidArgument(format!(
            "Requested maximum ripple attenuation {a:.6} is too small for the Kaiser formula."
        )));
    }
    let beta = kaiser_beta(a);
    let numtaps = (a - 7.95) / 2.285 / (PI * width) + 1.0;
    if !numtaps.is_finite() {
        return Err(Error::InvalidArgument(format!("kaiserord: width={width} gives no finite number of taps")));
    }
    Ok((numtaps.ceil() as i64, beta))
}

/// `firwin`'s `pass_zero`, the strings resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassZero {
    /// `True`, or `'bandstop'` (`lowpass` is `Bool(true)` checked for one cutoff).
    Bool(bool),
    /// `'lowpass'`: one cutoff, DC passed.
    Lowpass,
    /// `'highpass'`: one cutoff, DC stopped.
    Highpass,
    /// `'bandpass'`: at least two cutoffs, DC stopped.
    Bandpass,
    /// `'bandstop'`: at least two cutoffs, DC passed.
    Bandstop,
}

/// `scipy.signal.firwin`'s coefficients (float64, host): `cutoff` in the
/// units of `fs` (default 2), `window` the `numtaps` samples of the
/// symmetric window, `width` (when given) replaced by the caller with the
/// Kaiser window of [`firwin_width_beta`].
pub fn firwin(
    numtaps: i64,
    cutoff: &[f64],
    window: &Tensor,
    pass_zero: PassZero,
    scale: bool,
    fs: f64,
) -> Result<Tensor> {
    let nyq = 0.5 * fs;
    let cutoff: Vec<f64> = cutoff.iter().map(|c| c / nyq).collect();
    if cutoff.is_empty() {
        return Err(Error::InvalidArgument("At least one cutoff frequency must be given.".into()));
    }
    let (lo, hi) = cutoff.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &c| (a.min(c), b.max(c)));
    if lo <= 0.0 || hi >= 1.0 || cutoff.iter().any(|c| c.is_nan()) {
        return Err(Error::InvalidArgument(
            "Invalid cutoff frequency: frequencies must be greater than 0 and less than fs/2.".into(),
        ));
    }
    if cutoff.windows(2).any(|w| w[1] - w[0] <= 0.0) {
        return Err(Error::InvalidArgument(
            "Invalid cutoff frequencies: the frequencies must be strictly increasing.".into(),
        ));
    }
    let n = cutoff.len();
    let shape = format!("({n},)");
    let pass_zero = match pass_zero {
        PassZero::Bool(b) => b,
        PassZero::Lowpass | PassZero::Highpass if n != 1 => {
            let name = if pass_zero == PassZero::Lowpass { "lowpass" } else { "highpass" };
            return Err(Error::InvalidArgument(format!(
                "cutoff must have one element if pass_zero==\"{name}\", got {shape}"
            )));
        }
        PassZero::Bandpass | PassZero::Bandstop if n <= 1 => {
            let name = if pass_zero == PassZero::Bandpass { "bandpass" } else { "bandstop" };
            return Err(Error::InvalidArgument(format!(
                "cutoff must have at least two elements if pass_zero==\"{name}\", got {shape}"
            )));
        }
        PassZero::Lowpass | PassZero::Bandstop => true,
        PassZero::Highpass | PassZero::Bandpass => false,
    };
    let pass_nyquist = (n % 2 == 0) == pass_zero;
    if pass_nyquist && numtaps % 2 == 0 {
        return Err(Error::InvalidArgument(
            "A filter with an even number of coefficients must have zero response at the Nyquist frequency.".into(),
        ));
    }
    if numtaps < 1 {
        return Err(Error::InvalidArgument(format!("numtaps must be positive, got {numtaps}")));
    }
    let mut edges = Vec::with_capacity(n + 2);
    if pass_zero {
        edges.push(0.0);
    }
    edges.extend_from_slice(&cutoff);
    if pass_nyquist {
        edges.push(1.0);
    }
    let alpha = 0.5 * (numtaps - 1) as f64;
    let m = Tensor::f_arange(numtaps, HOST)?.f_sub_scalar(alpha)?;
    let mut h = Tensor::f_zeros([numtaps], HOST)?;
    for band in edges.chunks(2) {
        let (left, right) = (band[0], band[1]);
        h = h.f_add(&m.f_mul_scalar(right)?.f_sinc()?.f_mul_scalar(right)?)?;
        h = h.f_sub(&m.f_mul_scalar(left)?.f_sinc()?.f_mul_scalar(left)?)?;
    }
    if window.size() != [numtaps] {
        return Err(Error::InvalidArgument(format!(
            "firwin: the window has {:?} samples, not {numtaps}",
            window.size()
        )));
    }
    h = h.f_mul(&window.f_to_kind(Kind::Double)?.f_to_device(Device::Cpu)?)?;
    if scale {
        let (left, right) = (edges[0], edges[1]);
        let f = if left == 0.0 {
            0.0
        } else if right == 1.0 {
            1.0
        } else {
            0.5 * (left + right)
        };
        let c = m.f_mul_scalar(PI)?.f_mul_scalar(f)?.f_cos()?;
        let s = h.f_mul(&c)?.f_sum(Kind::Double)?;
        h = h.f_div(&s)?;
    }
    Ok(h)
}

/// The Kaiser `beta` `firwin` uses for a transition `width` (units of `fs`).
pub fn firwin_width_beta(numtaps: i64, width: f64, fs: f64) -> f64 {
    kaiser_beta(kaiser_atten(numtaps as f64, width / (0.5 * fs)))
}

/// NumPy's `interp` for increasing `xp` (`x` inside `[xp[0], xp[-1]]`).
fn interp(x: f64, xp: &[f64], fp: &[f64]) -> f64 {
    let last = xp.len() - 1;
    if x >= xp[last] {
        return fp[last];
    }
    if x <= xp[0] {
        return fp[0];
    }
    // the largest j with xp[j] <= x
    let j = xp.partition_point(|&v| v <= x) - 1;
    if x == xp[j] {
        return fp[j];
    }
    let slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
    slope * (x - xp[j]) + fp[j]
}

/// `scipy.signal.firwin2`'s coefficients (float64, host): the gains `gain`
/// at frequencies `freq` (units of `fs`, default 2) interpolated on
/// `nfreqs` points, one inverse real FFT, the first `numtaps` samples times
/// `window` (the symmetric window, `None`: none).
pub fn firwin2(
    numtaps: i64,
    freq: &[f64],
    gain: &[f64],
    nfreqs: Option<i64>,
    window: Option<&Tensor>,
    antisymmetric: bool,
    fs: f64,
) -> Result<Tensor> {
    let nyq = 0.5 * fs;
    let invalid = |m: &str| Err(Error::InvalidArgument(m.into()));
    if freq.len() != gain.len() {
        return invalid("freq and gain must be of same length.");
    }
    if let Some(nf) = nfreqs {
        if numtaps >= nf {
            return Err(Error::InvalidArgument(format!(
                "ntaps must be less than nfreqs, but firwin2 was called with ntaps={numtaps} and nfreqs={nf}"
            )));
        }
    }
    if freq.len() < 2 {
        return invalid("freq must start with 0 and end with fs/2.");
    }
    if freq[0] != 0.0 || freq[freq.len() - 1] != nyq {
        return invalid("freq must start with 0 and end with fs/2.");
    }
    let d: Vec<f64> = freq.windows(2).map(|w| w[1] - w[0]).collect();
    if d.iter().any(|&v| v < 0.0) {
        return invalid("The values in freq must be nondecreasing.");
    }
    if d.windows(2).any(|w| w[0] + w[1] == 0.0) {
        return invalid("A value in freq must not occur more than twice.");
    }
    if freq[1] == 0.0 {
        return invalid("Value 0 must not be repeated in freq");
    }
    if freq[freq.len() - 2] == nyq {
        return invalid("Value fs/2 must not be repeated in freq");
    }
    if numtaps < 1 {
        return Err(Error::InvalidArgument(format!("numtaps must be positive, got {numtaps}")));
    }
    let ftype = match (antisymmetric, numtaps % 2 == 0) {
        (false, false) => 1,
        (false, true) => 2,
        (true, false) => 3,
        (true, true) => 4,
    };
    let (g0, g1) = (gain[0], gain[gain.len() - 1]);
    if ftype == 2 && g1 != 0.0 {
        return invalid("A Type II filter must have zero gain at the Nyquist frequency.");
    } else if ftype == 3 && (g0 != 0.0 || g1 != 0.0) {
        return invalid("A Type III filter must have zero gain at zero and Nyquist frequencies.");
    } else if ftype == 4 && g0 != 0.0 {
        return invalid("A Type IV filter must have zero gain at zero frequency.");
    }
    let nfreqs = match nfreqs {
        Some(nf) => nf,
        None => 1 + 2i64.pow(((numtaps as f64).ln() / 2f64.ln()).ceil() as u32),
    };
    if nfreqs < 2 {
        return Err(Error::InvalidArgument(format!("nfreqs must be at least 2, got {nfreqs}")));
    }
    let mut freq = freq.to_vec();
    if d.contains(&0.0) {
        let eps = f64::EPSILON * nyq;
        for k in 0..freq.len() - 1 {
            if freq[k] == freq[k + 1] {
                freq[k] -= eps;
                freq[k + 1] += eps;
            }
        }
        if freq.windows(2).any(|w| w[1] - w[0] <= 0.0) {
            return Err(Error::InvalidArgument(format!(
                "freq cannot contain numbers that are too close (within eps * (fs/2): {eps}) to a repeated value"
            )));
        }
    }
    // np.linspace(0, nyq, nfreqs): i * step, the last exactly nyq
    let step = nyq / (nfreqs - 1) as f64;
    let mesh: Vec<f64> = (0..nfreqs).map(|i| if i == nfreqs - 1 { nyq } else { i as f64 * step }).collect();
    let fx: Vec<f64> = mesh.iter().map(|&x| interp(x, &freq, gain)).collect();
    let a = -((numtaps - 1) as f64) / 2.0;
    let (mut re, mut im) = (Vec::with_capacity(mesh.len()), Vec::with_capacity(mesh.len()));
    for (&x, &g) in mesh.iter().zip(&fx) {
        let phase = a * PI * x / nyq;
        let (s, c) = phase.sin_cos();
        let (sr, si) = if ftype > 2 { (-s, c) } else { (c, s) };
        re.push(g * sr);
        im.push(g * si);
    }
    let spectrum = Tensor::f_complex(&Tensor::f_from_slice(&re)?, &Tensor::f_from_slice(&im)?)?;
    let full = plans::irfft(&spectrum, None, -1, "backward")?;
    let mut out = full.f_narrow(0, 0, numtaps.min(full.size()[0]))?.f_contiguous()?;
    if let Some(w) = window {
        out = out.f_mul(&w.f_to_kind(Kind::Double)?.f_to_device(Device::Cpu)?)?;
    }
    if ftype == 3 {
        let mid = out.size()[0] / 2;
        out = out.f_index_fill(0, &Tensor::f_from_slice(&[mid])?, 0.0)?;
    }
    Ok(out)
}
