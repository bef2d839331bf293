//! The spectral estimators, detrend and hilbert (SciPy's `_spectral_py.py`
//! and `_signaltools.py`; `ops::signal::spectral_py`,
//! `ops::signal::signaltools::{detrend, hilbert}`): values quoted from SciPy
//! 1.17.1 on an 8-sample signal, the STFT round trip, dtypes and refusals.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::signaltools::detrend::{detrend, Trend};
use torchbridge::ops::signal::signaltools::hilbert::{hilbert, hilbert2};
use torchbridge::ops::signal::spectral_py::{self as sp, Boundary, Inverse, Mode, Scaling, Segments};
use torchbridge::ops::signal::windows::hann;
use torchbridge::Error;

const CPU: Device = Device::Cpu;

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn assert_close(got: &Tensor, want: &[f64], tol: f64) {
    let got = values(got);
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, x) in got.iter().zip(want) {
        assert!((g - x).abs() <= tol, "{got:?} vs {want:?}");
    }
}

fn x() -> Tensor {
    Tensor::from_slice(&[1.0, 2.0, 0.0, -1.0, 3.0, 0.5, -2.0, 1.0])
}

fn y() -> Tensor {
    Tensor::from_slice(&[0.5, -1.0, 2.0, 0.0, 1.0, 1.0, -0.5, 2.0])
}

fn segments(nperseg: i64, noverlap: i64) -> Segments {
    Segments {
        fs: 1.0,
        nperseg,
        noverlap,
        nfft: nperseg,
        detrend: Some(Trend::Constant),
        onesided: true,
        scaling: Scaling::Density,
    }
}

#[test]
fn welch_matches_scipy() {
    let win = hann(4, false, CPU).unwrap();
    let (f, p) = sp::csd(&x(), None, &win, &segments(4, 2), -1, "mean").unwrap();
    assert_close(&f, &[0.0, 0.25, 0.5], 1e-15);
    assert_eq!(p.kind(), Kind::Double);
    assert_close(&p, &[1.9444444444444449, 6.958333333333336, 4.083333333333335], 1e-13);
    let s = Segments { scaling: Scaling::Spectrum, ..segments(4, 1) };
    let (_, p) = sp::csd(&x(), None, &win, &s, -1, "median").unwrap();
    assert_close(&p, &[0.1015625, 2.22265625, 0.03125], 1e-14);
    // float32 stays float32
    let (_, p) = sp::csd(&x().to_kind(Kind::Float), None, &win, &segments(4, 2), -1, "mean").unwrap();
    assert_eq!(p.kind(), Kind::Float);
}

#[test]
fn csd_matches_scipy() {
    let win = hann(4, false, CPU).unwrap();
    let (_, p) = sp::csd(&x(), Some(&y()), &win, &segments(4, 2), -1, "mean").unwrap();
    assert_eq!(p.kind(), Kind::ComplexDouble);
    assert_close(&p.real(), &[0.16666666666666666, 1.1319444444444444, 1.3055555555555556], 1e-14);
    assert_close(&p.imag(), &[0.0, -1.0694444444444446, 0.0], 1e-14);
    let (_, c) = sp::coherence(&x(), &y(), &win, &segments(4, 2), -1).unwrap();
    assert!(values(&c).iter().all(|&v| (0.0..=1.0 + 1e-12).contains(&v)));
}

#[test]
fn stft_matches_scipy_and_inverts() {
    let win = hann(4, false, CPU).unwrap();
    let s = Segments { detrend: None, scaling: Scaling::Spectrum, ..segments(4, 2) };
    let r = sp::spectral_helper(&x(), &win, &s, -1, Mode::Complex, Some(Boundary::Zeros), true).unwrap();
    assert_eq!(r.result.size(), [3, 5]);
    assert_close(&r.time, &[0.0, 2.0, 4.0, 6.0, 8.0], 1e-15);
    let re = [1.0, 0.25, 1.375, -0.625, 0.25, -0.5, 0.0, -1.5, 1.0, 0.0, 0.0, -0.25, 1.625, -1.375, -0.25];
    let im = [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, -0.75, 0.375, 0.125, -0.25, 0.0, 0.0, 0.0, 0.0, 0.0];
    assert_close(&r.result.real(), &re, 1e-14);
    assert_close(&r.result.imag(), &im, 1e-14);
    let p = Inverse {
        fs: 1.0,
        nperseg: 4,
        noverlap: 2,
        nfft: 4,
        input_onesided: true,
        boundary: true,
        time_axis: -1,
        freq_axis: -2,
        scaling: Scaling::Spectrum,
    };
    let (t, back, nola) = sp::istft(&r.result, &win, &p).unwrap();
    assert!(!nola);
    assert_eq!(t.size(), [8]);
    assert_close(&back, &values(&x()), 1e-14);
}

#[test]
fn spectrogram_modes_and_extensions() {
    let win = hann(4, false, CPU).unwrap();
    let psd = sp::spectral_helper(&x(), &win, &segments(4, 2), -1, Mode::Psd, None, false).unwrap();
    let mag = sp::spectral_helper(&x(), &win, &segments(4, 2), -1, Mode::Magnitude, None, false).unwrap();
    assert_eq!(psd.result.kind(), Kind::Double);
    assert_eq!(psd.result.size(), [3, 3]);
    // |X|^2 scaled (doubled off DC/Nyquist) against |X| scaled by the square root
    let (p, m) = (values(&psd.result), values(&mag.result));
    for (i, (p, m)) in p.iter().zip(&m).enumerate() {
        let doubled = if (3..6).contains(&i) { 2.0 } else { 1.0 };
        assert!((p - doubled * m * m).abs() < 1e-13, "{p} {m}");
    }
    for b in [Boundary::Even, Boundary::Odd, Boundary::Constant] {
        let r = sp::spectral_helper(&x(), &win, &segments(4, 2), -1, Mode::Complex, Some(b), false).unwrap();
        assert_eq!(r.result.size()[0], 3);
    }
    let z = x().to_kind(Kind::ComplexDouble);
    let r = sp::spectral_helper(&z, &win, &segments(4, 2), -1, Mode::Psd, None, false).unwrap();
    assert!(r.switched);
    assert_eq!(r.freqs.size(), [4]);
}

#[test]
fn median_bias_and_frequencies() {
    assert!((sp::median_bias(5) - 0.7833333333333333).abs() < 1e-15);
    assert!((sp::median_bias(4) - 0.8333333333333333).abs() < 1e-15);
    assert_eq!(sp::median_bias(1), 1.0);
    assert_close(&sp::frequencies(5, 10.0, false, CPU).unwrap(), &[0.0, 2.0, 4.0, -4.0, -2.0], 1e-15);
    assert_close(&sp::frequencies(4, 1.0, true, CPU).unwrap(), &[0.0, 0.25, 0.5], 1e-15);
}

#[test]
fn refusals() {
    let win = hann(4, false, CPU).unwrap();
    let bad = Segments { noverlap: 4, ..segments(4, 2) };
    assert!(matches!(sp::csd(&x(), None, &win, &bad, -1, "mean"), Err(Error::InvalidArgument(_))));
    let bad = Segments { nfft: 3, ..segments(4, 2) };
    assert!(matches!(sp::csd(&x(), None, &win, &bad, -1, "mean"), Err(Error::InvalidArgument(_))));
    assert!(matches!(sp::csd(&x(), None, &win, &segments(4, 2), -1, "mode"), Err(Error::InvalidArgument(_))));
    assert!(matches!(sp::csd(&x(), None, &win, &segments(4, 2), 1, "mean"), Err(Error::AxisOutOfBounds { .. })));
    assert!("wrap".parse::<Boundary>().is_err());
    assert!("power".parse::<Mode>().is_err());
}

#[test]
fn hilbert_and_detrend_match_scipy() {
    let h = hilbert(&Tensor::from_slice(&[1.0, 2.0, 3.0, 4.0]), None, -1).unwrap();
    assert_eq!(h.kind(), Kind::ComplexDouble);
    assert_close(&h.real(), &[1.0, 2.0, 3.0, 4.0], 1e-15);
    assert_close(&h.imag(), &[1.0, -1.0, -1.0, 1.0], 1e-15);
    assert!(hilbert(&h, None, -1).is_err()); // complex input
    assert!(hilbert(&x(), Some(0), -1).is_err());
    let h2 = hilbert2(&x().view([2, 4]), None, (-2, -1)).unwrap();
    assert_eq!(h2.size(), [2, 4]);
    let d = detrend(&Tensor::from_slice(&[1.0, 3.0, 2.0, 5.0]), -1, Trend::Linear, &[0]).unwrap();
    assert_close(&d, &[-0.1, 0.8, -1.3, 0.6], 1e-14);
    let d = detrend(&Tensor::from_slice(&[1.0, 3.0, 2.0, 5.0, 4.0, 4.0]), -1, Trend::Linear, &[3]).unwrap();
    assert_close(&d, &[-0.5, 1.0, -0.5, 1.0 / 6.0, -1.0 / 3.0, 1.0 / 6.0], 1e-14);
    let c = detrend(&Tensor::from_slice(&[1i64, 2, 6]), -1, Trend::Constant, &[]).unwrap();
    assert_eq!(c.kind(), Kind::Double);
    assert_close(&c, &[-2.0, -1.0, 3.0], 1e-15);
    assert!(detrend(&x(), -1, Trend::Linear, &[9]).is_err());
}

// --- lombscargle -----------------------------------------------------------------------------

fn lomb_xy() -> (Tensor, Tensor) {
    (Tensor::from_slice(&[0.0, 0.7, 1.9, 2.4, 3.8, 5.1, 5.5, 7.2]), x())
}

fn lomb(normalize: sp::LombNormalize, floating_mean: bool) -> sp::Lomb {
    sp::Lomb { precenter: false, normalize, floating_mean }
}

#[test]
fn lombscargle_matches_scipy() {
    let (t, y) = lomb_xy();
    let f = Tensor::from_slice(&[0.5, 1.0, 2.0]);
    let p = sp::lombscargle(&t, &y, &f, None, &lomb(sp::LombNormalize::Power, false)).unwrap();
    assert_eq!(p.kind(), Kind::Double);
    assert_close(&p, &[0.8022295336717986, 0.044210738928916166, 6.329246733370017], 1e-13);
    let w = Tensor::from_slice(&[1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 3.0, 1.0]);
    let p = sp::lombscargle(&t, &y, &f, Some(&w), &lomb(sp::LombNormalize::Normalize, true)).unwrap();
    assert_close(&p, &[0.302405681195142, 0.2028927213090164, 0.8109635151960914], 1e-13);
    let a = sp::lombscargle(&t, &y, &f, None, &lomb(sp::LombNormalize::Amplitude, true)).unwrap();
    assert_eq!(a.kind(), Kind::ComplexDouble);
    assert_close(&a.real(), &[0.474844915474697, -0.1776403627292834, -0.034246199213421875], 1e-13);
    assert_close(&a.imag(), &[-0.32603299978581585, -0.0009150028684423235, 1.5394022573785755], 1e-13);
    // one frequency: 0-d, as SciPy's squeeze; integer input computes in float64
    let one =
        sp::lombscargle(&t, &y, &Tensor::from_slice(&[1.0]), None, &lomb(sp::LombNormalize::Power, false)).unwrap();
    assert_eq!(one.dim(), 0);
    assert_eq!(one.kind(), Kind::Double);
    assert!((one.double_value(&[]) - 0.04421073892891603).abs() < 1e-14);
    let ints = Tensor::from_slice(&[0i64, 1, 2, 3]);
    let i = sp::lombscargle(&ints, &ints, &f, None, &lomb(sp::LombNormalize::Power, false)).unwrap();
    assert_eq!(i.kind(), Kind::Double);
}

#[test]
fn lombscargle_refusals() {
    let (t, y) = lomb_xy();
    let f = Tensor::from_slice(&[0.5, 1.0]);
    let p = lomb(sp::LombNormalize::Power, false);
    let invalid = |r: torchbridge::Result<Tensor>| matches!(r, Err(Error::InvalidArgument(_)));
    assert!(invalid(sp::lombscargle(&t, &y.narrow(0, 0, 7), &f, None, &p)));
    assert!(invalid(sp::lombscargle(&t, &y, &Tensor::from_slice::<f64>(&[]), None, &p)));
    assert!(invalid(sp::lombscargle(&t, &y, &f.view([1, 2]), None, &p)));
    assert!(invalid(sp::lombscargle(&t, &y, &f, Some(&Tensor::zeros([8], (Kind::Double, CPU))), &p)));
    assert!(invalid(sp::lombscargle(&t, &y, &f, Some(&(-Tensor::ones([8], (Kind::Double, CPU)))), &p)));
    assert!(matches!(
        sp::lombscargle(&t, &y.to_kind(Kind::ComplexDouble), &f, None, &p),
        Err(Error::NotImplemented(_))
    ));
    assert!("psd".parse::<sp::LombNormalize>().is_err());
    assert_eq!("amplitude".parse::<sp::LombNormalize>().unwrap(), sp::LombNormalize::Amplitude);
}
