//! The waveforms (SciPy's `_waveforms.py`; `ops::signal::waveforms`): values
//! quoted from SciPy 1.17.1, dtypes, broadcasting and refusals.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::waveforms::{self as wf, ChirpMethod, ImpulseAt, Phi};
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

fn times() -> Tensor {
    Tensor::from_slice(&[0.0, 0.5, 1.3])
}

#[test]
fn chirps_match_scipy() {
    let t = times();
    let hyp = wf::chirp(&t, 1.0, 2.0, 3.0, ChirpMethod::Hyperbolic, &Phi::Degrees(10.0), true, false).unwrap();
    assert_eq!(hyp.kind(), Kind::Double);
    assert_close(&hyp, &[0.984807753012208, -0.8917400255023361, -0.11454252642643514], 1e-14);
    let log = wf::chirp(&t, 1.0, 2.0, 3.0, ChirpMethod::from_name("log").unwrap(), &Phi::Degrees(0.0), true, false);
    assert_close(&log.unwrap(), &[1.0, -0.8898457087982509, 0.7999265003049695], 1e-14);
    let quad = wf::chirp(&t, 1.0, 2.0, 3.0, ChirpMethod::Quadratic, &Phi::Degrees(0.0), false, false).unwrap();
    assert_close(&quad, &[1.0, -0.13052619222005163, -0.7122711002594643], 1e-14);
    // complex: exp(1j phase), whose real part is the cosine chirp
    let z = wf::chirp(&t, 1.0, 2.0, 3.0, ChirpMethod::Linear, &Phi::Degrees(0.0), true, true).unwrap();
    assert_eq!(z.kind(), Kind::ComplexDouble);
    let real = wf::chirp(&t, 1.0, 2.0, 3.0, ChirpMethod::Linear, &Phi::Degrees(0.0), true, false).unwrap();
    assert_close(&z.real(), &values(&real), 1e-15);
    // float32 t: a float32 phase, a float64 result (phi is a float64 scalar)
    let t32 = t.to_kind(Kind::Float);
    let r = wf::chirp(&t32, 1.0, 2.0, 3.0, ChirpMethod::Linear, &Phi::Degrees(0.0), true, false).unwrap();
    assert_eq!(r.kind(), Kind::Double);
    let r = wf::chirp(&t32, 1.0, 2.0, 3.0, ChirpMethod::Linear, &Phi::Tensor(Tensor::from_slice(&[0f32])), true, false);
    assert_eq!(r.unwrap().kind(), Kind::Float);
}

#[test]
fn chirp_refusals() {
    assert!(matches!(ChirpMethod::from_name("cubic"), Err(Error::InvalidArgument(m)) if m.contains("'cubic'")));
    let t = times();
    assert!(wf::chirp_phase(&t, -1.0, 2.0, 3.0, ChirpMethod::Logarithmic, true).is_err());
    assert!(wf::chirp_phase(&t, 0.0, 2.0, 3.0, ChirpMethod::Hyperbolic, true).is_err());
    let z = Tensor::from_slice(&[1.0f64]).to_kind(Kind::ComplexDouble);
    assert!(matches!(
        wf::chirp_phase(&z, 1.0, 2.0, 3.0, ChirpMethod::Linear, true),
        Err(Error::DtypeNotAccepted { .. })
    ));
}

#[test]
fn sawtooth_and_square_match_scipy() {
    let t = Tensor::from_slice(&[0.0, 1.0, 4.0, 7.0]);
    let saw = wf::sawtooth(&t, &Tensor::from(0.5)).unwrap();
    assert_close(&saw, &[-1.0, -0.3633802276324186, 0.4535209105296745, -0.5436615934269304], 1e-15);
    let sq = wf::square(&t, &Tensor::from(0.3)).unwrap();
    assert_eq!(values(&sq), vec![1.0, 1.0, -1.0, 1.0]);
    // a width outside [0, 1] is NaN; widths broadcast against t; int t computes in float64
    let widths = Tensor::from_slice(&[0.5, 1.5]).view([2, 1]);
    let both = wf::sawtooth(&Tensor::from_slice(&[0i64, 1, 2]), &widths).unwrap();
    assert_eq!((both.size(), both.kind()), (vec![2, 3], Kind::Double));
    let v = values(&both);
    assert!(v[..3].iter().all(|x| x.is_finite()) && v[3..].iter().all(|x| x.is_nan()));
    assert!(wf::square(&Tensor::zeros([3], (Kind::Double, CPU)), &Tensor::zeros([2], (Kind::Double, CPU))).is_err());
}

#[test]
fn gausspulse_matches_scipy() {
    let t = Tensor::from_slice(&[-1e-3, 0.0, 2e-4]);
    let out = wf::gausspulse(&t, 1000.0, 0.5, -6.0, true, true).unwrap();
    assert_eq!(out.len(), 3);
    assert_close(&out[0], &[0.40943290494207846, 1.0, 0.2981739329771592], 1e-15);
    assert_close(&out[1], &[1.0028213930058379e-16, 0.0, 0.917_685_004_738_600_3], 1e-15);
    assert_close(&out[2], &[0.40943290494207846, 1.0, 0.9649111162325534], 1e-15);
    assert_eq!(wf::gausspulse(&t, 1000.0, 0.5, -6.0, false, false).unwrap().len(), 1);
    let cutoff = wf::gausspulse_cutoff(1000.0, 0.5, -6.0, -60.0).unwrap();
    assert!((cutoff - 0.0027812950448142565).abs() < 1e-18);
    assert!(
        matches!(wf::gausspulse_cutoff(-1.0, 0.5, -6.0, -60.0), Err(Error::InvalidArgument(m)) if m == "Center frequency (fc=-1.00) must be >=0.")
    );
    assert!(wf::gausspulse_cutoff(1000.0, 0.0, -6.0, -60.0).is_err());
    assert!(wf::gausspulse_cutoff(1000.0, 0.5, 1.0, -60.0).is_err());
    assert!(wf::gausspulse_cutoff(1000.0, 0.5, -6.0, 0.0).is_err());
}

#[test]
fn sweep_poly_matches_scipy() {
    let r = wf::sweep_poly(&times(), &[1.0, 2.0, 3.0], &Phi::Degrees(15.0)).unwrap();
    assert_close(&r, &[0.9659258262890683, 0.4999999999999991, -0.6565857557529605], 1e-14);
}

#[test]
fn unit_impulses() {
    let first = wf::unit_impulse(&[5], &ImpulseAt::Start, Kind::Double, CPU).unwrap();
    assert_eq!(values(&first), vec![1.0, 0.0, 0.0, 0.0, 0.0]);
    let mid = wf::unit_impulse(&[3, 3], &ImpulseAt::Middle, Kind::Int64, CPU).unwrap();
    assert_eq!((mid.kind(), values(&mid)), (Kind::Int64, vec![0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]));
    let last = wf::unit_impulse(&[4], &ImpulseAt::Every(-1), Kind::Float, CPU).unwrap();
    assert_eq!(values(&last), vec![0.0, 0.0, 0.0, 1.0]);
    let row = wf::unit_impulse(&[2, 3], &ImpulseAt::At(vec![1]), Kind::Double, CPU).unwrap();
    assert_eq!(values(&row), vec![0.0, 0.0, 0.0, 1.0, 1.0, 1.0]);
    assert!(wf::unit_impulse(&[3], &ImpulseAt::Every(3), Kind::Double, CPU).is_err());
    assert!(wf::unit_impulse(&[-1], &ImpulseAt::Start, Kind::Double, CPU).is_err());
    assert!(wf::unit_impulse(&[3], &ImpulseAt::At(vec![0, 0]), Kind::Double, CPU).is_err());
}
