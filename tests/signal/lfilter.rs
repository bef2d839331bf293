//! The linear filters (`ops::signal::signaltools::lfilter`): both
//! implementations (the CPU kernel, and the blocked scan that autograd
//! inputs take) against a sample-by-sample recursion written here, the state
//! identities (`zi` as extra input, `zf` carried across a split), sections,
//! zero-phase filtering, and errors.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::signaltools::lfilter::{self as iir, PadType};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.detach().to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

/// `x` as itself (the CPU kernel) and as a leaf autograd records (the scan).
fn both_paths(x: &Tensor) -> [Tensor; 2] {
    [x.shallow_clone(), x.detach().copy().set_requires_grad(true)]
}

fn random(n: i64) -> Tensor {
    tch::manual_seed(20261202);
    Tensor::randn([n], (Kind::Double, Device::Cpu))
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    let scale = want.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol * scale, "at {k}: {g} vs {w}");
    }
}

/// Direct form II transposed, one sample at a time (SciPy's own recursion).
fn reference(b: &[f64], a: &[f64], x: &[f64]) -> Vec<f64> {
    let n = b.len().max(a.len());
    let norm = a[0];
    let coef = |c: &[f64], i: usize| c.get(i).copied().unwrap_or(0.0) / norm;
    let mut z = vec![0.0; n];
    x.iter()
        .map(|&xi| {
            let y = coef(b, 0) * xi + z[0];
            for i in 1..n {
                z[i - 1] = coef(b, i) * xi + z[i] - coef(a, i) * y;
            }
            y
        })
        .collect()
}

#[test]
fn the_scan_is_the_recursion() {
    // a 4th-order low-pass (scipy.signal.butter(4, 0.1)) and a pole pair at radius 0.999
    let butter_b = [
        0.0004165992044065786,
        0.0016663968176263143,
        0.0024995952264394715,
        0.0016663968176263143,
        0.0004165992044065786,
    ];
    let butter_a = [1.0, -3.180638548874721, 3.8611943489942133, -2.112155355110969, 0.43826514226197977];
    let (r, theta) = (0.999f64, 0.3f64);
    let resonant_a = [1.0, -2.0 * r * theta.cos(), r * r];
    for (b, a) in
        [(&butter_b[..], &butter_a[..]), (&[1.0, 0.5][..], &resonant_a[..]), (&[2.0, -1.0, 0.25][..], &[4.0][..])]
    {
        for n in [1i64, 31, 32, 33, 1000, 20_000] {
            for x in both_paths(&random(n)) {
                let (y, zf) = iir::lfilter(&Tensor::from_slice(b), &Tensor::from_slice(a), &x, -1, None).unwrap();
                assert!(zf.is_none());
                assert_eq!(y.requires_grad(), x.requires_grad());
                assert_close(&values(&y), &reference(b, a, &values(&x)), 1e-12);
            }
        }
    }
}

#[test]
fn the_final_state_carries_the_filter_across_a_split() {
    let (b, a) = (Tensor::from_slice(&[0.2f64, 0.3, 0.1]), Tensor::from_slice(&[1.0f64, -0.9, 0.2]));
    for x in both_paths(&random(1000)) {
        let (whole, _) = iir::lfilter(&b, &a, &x, -1, None).unwrap();
        let zero = Tensor::zeros([2], (Kind::Double, Device::Cpu));
        let (first, zf) = iir::lfilter(&b, &a, &x.narrow(0, 0, 377), -1, Some(&zero)).unwrap();
        let (second, _) = iir::lfilter(&b, &a, &x.narrow(0, 377, 623), -1, zf.as_ref()).unwrap();
        assert_close(&values(&Tensor::cat(&[first, second], 0)), &values(&whole), 1e-13);
    }
    // the steady state of the step response: a unit step stays at the filter's DC gain from the first sample
    let zi = iir::lfilter_zi(&b, &a).unwrap();
    let step = Tensor::ones([50], (Kind::Double, Device::Cpu));
    let (y, _) = iir::lfilter(&b, &a, &step, -1, Some(&zi)).unwrap();
    let gain = 0.6 / 0.3;
    assert_close(&values(&y), &[gain; 50], 1e-13);
}

#[test]
fn sections_and_zero_phase() {
    // one section is the (b, a) filter itself
    let sos = Tensor::from_slice(&[0.2f64, 0.3, 0.1, 1.0, -0.9, 0.2]).view([1, 6]);
    let (b, a) = (Tensor::from_slice(&[0.2f64, 0.3, 0.1]), Tensor::from_slice(&[1.0f64, -0.9, 0.2]));
    let x = random(500);
    for x in both_paths(&x) {
        let (by_sections, _) = iir::sosfilt(&sos, &x, -1, None).unwrap();
        let (direct, _) = iir::lfilter(&b, &a, &x, -1, None).unwrap();
        assert_close(&values(&by_sections), &values(&direct), 1e-13);
    }
    // filtfilt is zero-phase: away from the edges (the poles, 0.5 and 0.4, forget the edges' initial
    // conditions within 100 samples) filtering the time-reversed signal gives the reversed result
    let forward = iir::filtfilt(&b, &a, &x, -1, Some(PadType::Odd), None).unwrap();
    let backward = iir::filtfilt(&b, &a, &x.flip([0]), -1, Some(PadType::Odd), None).unwrap().flip([0]);
    assert_close(&values(&forward.narrow(0, 100, 300)), &values(&backward.narrow(0, 100, 300)), 1e-12);
    let by_sos = iir::sosfiltfilt(&sos, &x, -1, Some(PadType::Odd), None).unwrap();
    assert_close(&values(&by_sos), &values(&forward), 1e-12);
}

#[test]
fn bad_filters_are_errors() {
    let x = random(10);
    let one = Tensor::from_slice(&[1.0f64]);
    assert!(iir::lfilter(&one, &Tensor::from_slice(&[0.0f64, 1.0]), &x, -1, None).is_err()); // a[0] == 0
    assert!(iir::lfilter(&one, &one, &x, 1, None).is_err()); // axis out of range
    let wrong_zi = Tensor::zeros([3], (Kind::Double, Device::Cpu));
    let (b, a) = (Tensor::from_slice(&[1.0f64, 0.5]), Tensor::from_slice(&[1.0f64, -0.5]));
    assert!(iir::lfilter(&b, &a, &x, -1, Some(&wrong_zi)).is_err()); // zi of the wrong length
    assert!(iir::sosfilt(&Tensor::ones([2, 5], (Kind::Double, Device::Cpu)), &x, -1, None).is_err()); // not (n, 6)
    assert!(iir::filtfilt(&b, &a, &random(3), -1, Some(PadType::Odd), None).is_err());
    // shorter than padlen
}

// scipy.signal.butter(8, 0.05, output="sos"); four poles at radius 0.999
// (zpk2sos); cheby1(6, 1, 0.3).
const BUTTER8_SOS: [f64; 24] = [
    9.835591130971297e-10,
    1.9671182261942594e-09,
    9.835591130971297e-10,
    1.0,
    -1.712612853373883,
    0.733960788017339,
    1.0,
    2.0,
    1.0,
    1.0,
    -1.7480118932421906,
    0.7698010813703797,
    1.0,
    2.0,
    1.0,
    1.0,
    -1.81742377699325,
    0.8400781929835782,
    1.0,
    2.0,
    1.0,
    1.0,
    -1.9168758348139512,
    0.9407699332148902,
];
const POLES_0999_SOS: [f64; 12] =
    [1.0, 2.0, 1.0, 1.0, -1.9979001008324972, 0.998001, 1.0, 2.0, 1.0, 1.0, -1.9971009674304772, 0.9980010000000001];
const CHEBY1_6_B: [f64; 7] = [
    0.0004866255629694497,
    0.002919753377816698,
    0.007299383444541745,
    0.009732511259388994,
    0.007299383444541745,
    0.002919753377816698,
    0.0004866255629694497,
];
const CHEBY1_6_A: [f64; 7] = [
    1.0,
    -3.9479572816023607,
    7.423727809679882,
    -8.252425936408052,
    5.666282450986354,
    -2.27276339509163,
    0.41808053560296166,
];

/// The CPU kernel is SciPy's loop (the Python tests check it bit for bit), so the scan
/// within 1e-12 of it is the scan within 1e-12 of SciPy: on order 8, on poles at
/// radius 0.999, and through the zero-phase filters' edges.
#[test]
fn the_scan_matches_the_kernel_on_hard_filters() {
    tch::manual_seed(7);
    let x = Tensor::randn([3, 5000], (Kind::Double, Device::Cpu));
    let (b, a) = (Tensor::from_slice(&CHEBY1_6_B), Tensor::from_slice(&CHEBY1_6_A));
    let [plain, recorded] = both_paths(&x);
    let pair = |f: &dyn Fn(&Tensor) -> Tensor, tol: f64| {
        let want = f(&plain);
        let got = f(&recorded);
        assert!(got.requires_grad() && !want.requires_grad());
        assert_close(&values(&got), &values(&want), tol);
    };
    pair(&|v| iir::lfilter(&b, &a, v, -1, None).unwrap().0, 1e-12);
    pair(&|v| iir::filtfilt(&b, &a, v, -1, Some(PadType::Odd), None).unwrap(), 1e-12);
    for sos in [&BUTTER8_SOS[..], &POLES_0999_SOS[..]] {
        let sos = Tensor::from_slice(sos).view([-1, 6]);
        pair(&|v| iir::sosfilt(&sos, v, -1, None).unwrap().0, 1e-12);
        pair(&|v| iir::sosfiltfilt(&sos, v, -1, Some(PadType::Odd), None).unwrap(), 5e-12);
    }
}
