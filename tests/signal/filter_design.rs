//! `ops::signal::filter_design`: values quoted from SciPy 1.17.1.

use tch::{Kind, Tensor};
use torchbridge::ops::signal::filter_design::{self as fd, Pairing, WorN, C};

fn close(ours: &[f64], theirs: &[f64], tol: f64) {
    assert_eq!(ours.len(), theirs.len());
    for (o, t) in ours.iter().zip(theirs) {
        assert!((o - t).abs() <= tol * t.abs().max(1.0), "{o} != {t}");
    }
}

#[test]
fn butter_lowpass_ba_matches_scipy() {
    let f = fd::iirfilter(4.0, &[0.3], None, None, "low", false, "butter", "ba", None).unwrap();
    let (b, a) = fd::zpk2tf(&f.z, &f.p, C::new(f.k, 0.0));
    assert!(!b.complex && !a.complex);
    let re = |p: &fd::Poly| p.c.iter().map(|v| v.re).collect::<Vec<_>>();
    close(
        &re(&b),
        &[0.01856301062689717, 0.07425204250758868, 0.11137806376138303, 0.07425204250758868, 0.01856301062689717],
        1e-13,
    );
    close(&re(&a), &[1.0, -1.570398851228172, 1.27561332498328, -0.4844033683350857, 0.07619706461033242], 1e-13);
}

#[test]
fn cheby1_bandpass_sos_matches_scipy_order() {
    let f = fd::iirfilter(3.0, &[0.2, 0.5], Some(1.0), None, "band", false, "cheby1", "sos", None).unwrap();
    let sos = fd::zpk2sos(&f.z, &f.p, f.k, None, false).unwrap();
    let flat: Vec<f64> = sos.iter().flatten().copied().collect();
    close(
        &flat,
        &[
            0.03438496635181602,
            0.06876993270363205,
            0.03438496635181602,
            1.0,
            -0.8140733382778566,
            0.5977088859557689,
            1.0,
            0.0,
            -1.0,
            1.0,
            -0.0237268423724182,
            0.7750372218893987,
            1.0,
            -2.0,
            1.0,
            1.0,
            -1.4960327044170207,
            0.8599313682440282,
        ],
        1e-12,
    );
    assert!(fd::zpk2sos(&f.z, &f.p, f.k, Some(Pairing::Nearest), true).is_err());
}

#[test]
fn roots_of_a_quadratic_and_trailing_zeros() {
    // x^3 - 3x^2 + 2x = x (x - 1) (x - 2)
    let (r, real) = fd::roots(&[C::new(1.0, 0.0), C::new(-3.0, 0.0), C::new(2.0, 0.0), C::new(0.0, 0.0)]).unwrap();
    assert!(real);
    let mut v: Vec<f64> = r.iter().map(|c| c.re).collect();
    v.sort_by(f64::total_cmp);
    close(&v, &[0.0, 1.0, 2.0], 1e-14);
}

#[test]
fn freqz_matches_scipy_and_errors() {
    let b = Tensor::from_slice(&[
        0.01856301062689717,
        0.07425204250758868,
        0.11137806376138303,
        0.07425204250758868,
        0.01856301062689717,
    ]);
    let a = Tensor::from_slice(&[1.0, -1.570398851228172, 1.27561332498328, -0.4844033683350857, 0.07619706461033242]);
    let (w, h) = fd::freqz(&b, &a, WorN::Count(4), false, 2.0 * std::f64::consts::PI, false).unwrap();
    assert_eq!(w.size(), [4]);
    let re = Vec::<f64>::try_from(h.real().to_kind(Kind::Double)).unwrap();
    let im = Vec::<f64>::try_from(h.imag().to_kind(Kind::Double)).unwrap();
    close(&re, &[0.9999999999999998, -0.6883089810177836, 0.01214536996736601, 0.0016862780008298], 1e-12);
    close(&im, &[0.0, -0.6050096570995861, 0.06614213353493492, 0.00104549199122642], 1e-12);
    assert!(fd::freqz(&b, &a, WorN::Count(-1), false, 1.0, false).is_err());
    let bad = Tensor::zeros([2, 5], (Kind::Double, tch::Device::Cpu));
    assert!(fd::freqz_sos(&bad, WorN::Count(8), false, 1.0).is_err());
}

#[test]
fn design_errors() {
    assert!(fd::iirfilter(-1.0, &[0.3], None, None, "low", false, "butter", "ba", None).is_err());
    assert!(fd::iirfilter(4.0, &[1.3], None, None, "low", false, "butter", "ba", None).is_err());
    assert!(matches!(
        fd::iirfilter(4.0, &[0.3], Some(1.0), Some(40.0), "low", false, "ellip", "ba", None),
        Err(torchbridge::Error::NotImplemented(_))
    ));
}
