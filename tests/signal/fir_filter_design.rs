//! FIR design (`ops::signal::fir_filter_design`), `upfirdn` and the
//! resamplers (`ops::signal::signaltools::resample`: resample, resample_poly,
//! decimate): values quoted from
//! SciPy 1.17.1, closed forms, errors.

use std::f64::consts::FRAC_1_PI;

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::fir_filter_design::{firwin, firwin2, kaiser_atten, kaiser_beta, kaiserord, PassZero};
use torchbridge::ops::signal::signaltools::resample::{
    decimate, resample, resample_poly, DecimateFilter, Domain, Padtype, PolyFilter,
};
use torchbridge::ops::signal::upfirdn::{output_len, upfirdn, UpfirdnMode};
use torchbridge::ops::signal::windows::{boxcar, kaiser};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * w.abs().max(1.0), "{got:?} vs {want:?}");
    }
}

fn host(v: &[f64]) -> Tensor {
    Tensor::from_slice(v)
}

#[test]
fn kaiser_formulas() {
    assert!((kaiser_beta(65.0) - 6.20426).abs() < 1e-12);
    assert_eq!(kaiser_beta(20.0), 0.0);
    assert!((kaiser_atten(211.0, 0.0375) - 64.48099630593983).abs() < 1e-11);
    assert_eq!(kaiserord(65.0, 24.0 / 500.0).unwrap().0, 167);
    assert!(kaiserord(7.0, 0.1).is_err());
}

#[test]
fn firwin_values() {
    // scipy.signal.firwin(5, 0.5, window='boxcar', scale=False)
    let w = boxcar(5, true, Device::Cpu).unwrap();
    let h = firwin(5, &[0.5], &w, PassZero::Bool(true), false, 2.0).unwrap();
    assert_close(&values(&h), &[1.9490859162596877e-17, FRAC_1_PI, 0.5, FRAC_1_PI, 1.9490859162596877e-17], 1e-15);
    // scaled: unit gain at DC
    let w = kaiser(31, 5.0, true, Device::Cpu).unwrap();
    let h = firwin(31, &[0.3], &w, PassZero::Bool(true), true, 2.0).unwrap();
    assert!((values(&h).iter().sum::<f64>() - 1.0).abs() < 1e-14);
    // errors: even taps passing Nyquist, bad cutoffs, pass_zero strings
    let w = boxcar(30, true, Device::Cpu).unwrap();
    assert!(firwin(30, &[0.3], &w, PassZero::Bool(false), true, 2.0).is_err());
    assert!(firwin(30, &[1.3], &w, PassZero::Bool(true), true, 2.0).is_err());
    assert!(firwin(30, &[0.5, 0.3], &w, PassZero::Bool(true), true, 2.0).is_err());
    assert!(firwin(30, &[0.3, 0.5], &w, PassZero::Lowpass, true, 2.0).is_err());
    assert!(firwin(30, &[], &w, PassZero::Bool(true), true, 2.0).is_err());
}

#[test]
fn firwin2_values() {
    // scipy.signal.firwin2(5, [0, 0.5, 1], [1, 1, 0], window=None)
    let h = firwin2(5, &[0.0, 0.5, 1.0], &[1.0, 1.0, 0.0], None, None, false, 2.0).unwrap();
    assert_close(
        &values(&h),
        &[-0.10669417382415922, 0.20526673725850145, 0.75, 0.20526673725850134, -0.10669417382415922],
        1e-14,
    );
    assert!(firwin2(4, &[0.0, 0.5, 1.0], &[1.0, 1.0, 1.0], None, None, false, 2.0).is_err());
    assert!(firwin2(5, &[0.0, 0.5], &[1.0, 1.0, 0.0], None, None, false, 2.0).is_err());
}

#[test]
fn upfirdn_examples() {
    assert_eq!(output_len(13, 50, 3, 2), 80);
    assert_eq!(output_len(1, 3, 3, 1), 7);
    let y = upfirdn(&host(&[1.0, 1.0, 1.0]), &host(&[1.0, 2.0, 3.0]), 3, 1, -1, UpfirdnMode::Constant, 0.0).unwrap();
    assert_close(&values(&y), &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0], 0.0);
    let x = Tensor::arange(10, (Kind::Double, Device::Cpu));
    let y = upfirdn(&host(&[0.5, 1.0, 0.5]), &x, 2, 3, -1, UpfirdnMode::Constant, 0.0).unwrap();
    assert_close(&values(&y), &[0.0, 1.0, 2.5, 4.0, 5.5, 7.0, 8.5], 1e-15);
    // cval past the ends: SciPy's [11, 8, 6, 10, 13]
    let y = upfirdn(&host(&[1.0, 1.0, 1.0]), &host(&[1.0, 2.0, 3.0]), 1, 1, 0, UpfirdnMode::Constant, 5.0).unwrap();
    assert_close(&values(&y), &[11.0, 8.0, 6.0, 10.0, 13.0], 0.0);
    // wrap: SciPy's [10, 9, 11, 10, 9, 11, 10]
    let y = upfirdn(&host(&[1.0; 5]), &host(&[1.0, 2.0, 3.0]), 1, 1, 0, UpfirdnMode::Wrap, 0.0).unwrap();
    assert_close(&values(&y), &[10.0, 9.0, 11.0, 10.0, 9.0, 11.0, 10.0], 1e-15);
    // float32 stays float32
    let y = upfirdn(&host(&[1.0]).to_kind(Kind::Float), &x.to_kind(Kind::Float), 2, 1, 0, UpfirdnMode::Constant, 0.0)
        .unwrap();
    assert_eq!(y.kind(), Kind::Float);
    assert!(upfirdn(&host(&[]), &x, 1, 1, 0, UpfirdnMode::Constant, 0.0).is_err());
    assert!(upfirdn(&host(&[1.0]), &x, 0, 1, 0, UpfirdnMode::Constant, 0.0).is_err());
    assert!(upfirdn(&host(&[1.0, 2.0]), &x, 1, 1, 0, UpfirdnMode::Antireflect, 0.0).is_err());
}

#[test]
fn resample_values() {
    // scipy.signal.resample([1, 2, 3, 4], 6)
    let (y, t) = resample(&host(&[1.0, 2.0, 3.0, 4.0]), 6, None, 0, None, Domain::Time).unwrap();
    assert!(t.is_none());
    assert_close(
        &values(&y),
        &[1.0, 1.3839745962155612, 2.383974596215561, 3.0, 4.116025403784438, 3.1160254037844384],
        1e-14,
    );
    // scipy.signal.resample_poly(np.arange(6.), 3, 2)
    let x = Tensor::arange(6, (Kind::Double, Device::Cpu));
    let w = kaiser(61, 5.0, true, Device::Cpu).unwrap();
    let y = resample_poly(&x, 3, 2, 0, PolyFilter::Window(w), Padtype::Mode(UpfirdnMode::Constant), None).unwrap();
    assert_close(
        &values(&y),
        &[
            6.230479345482316e-17,
            0.690165883525995,
            1.2544187668862505,
            2.0012123471075545,
            2.8676197360831823,
            3.0444792917599077,
            4.002424694215109,
            5.420240360416296,
            3.5583860571465995,
        ],
        1e-13,
    );
    assert!(resample(&x, 0, None, 0, None, Domain::Time).is_err());
}

#[test]
fn decimate_matches_scipy() {
    let x = |n: i64| Tensor::arange(n, (Kind::Double, Device::Cpu)).remainder(7);
    // scipy.signal.decimate(np.arange(40.) % 7, 4, ftype='fir')
    let y = decimate(&x(40), 4, None, DecimateFilter::Fir, -1, true).unwrap();
    assert_close(
        &values(&y),
        &[
            0.48147159786811056,
            3.721993350945831,
            2.5890243921084366,
            3.2743077832225267,
            2.8310822950875734,
            3.1013365290316286,
            2.973096082173356,
            2.976834135215295,
            3.080721920443973,
            2.921123547322911,
        ],
        1e-13,
    );
    // scipy.signal.decimate(np.arange(60.) % 7, 3, n=4, zero_phase=False)[:6]
    let y = decimate(&x(60), 3, Some(4), DecimateFilter::Iir, 0, false).unwrap();
    assert_eq!(y.size(), [20]);
    assert_close(
        &values(&y)[..6],
        &[0.0, 0.47522909925783535, 3.3461995154442747, 3.961999598624904, 1.261054656740944, 5.067995674561085],
        1e-12,
    );
    // scipy.signal.decimate(np.arange(60.) % 7, 3)[:3]: the order-8 sections forward and backward
    let y = decimate(&x(60), 3, None, DecimateFilter::Iir, -1, true).unwrap();
    assert_close(&values(&y)[..3], &[-0.08902485814622321, 3.9423744979436623, 2.752048621605877], 1e-12);
    assert!(decimate(&x(60), 0, None, DecimateFilter::Iir, -1, true).is_err());
    assert!(decimate(&x(60), 1, None, DecimateFilter::Fir, -1, true).is_err()); // cutoff 1/q at Nyquist
    assert!("cheby".parse::<DecimateFilter>().is_err());
}
