//! The window functions (SciPy's `windows/_windows.py`; `ops::signal::windows`):
//! values quoted from SciPy 1.17.1, symmetry, the periodic form, lengths 0
//! and 1, and SciPy's refusals.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::windows::{self as w, DpssNorm, Parameters, Window};
use torchbridge::Error;

const CPU: Device = Device::Cpu;

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn assert_close(got: &Tensor, want: &[f64], tol: f64) {
    assert_eq!(got.kind(), Kind::Double);
    let got = values(got);
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, x) in got.iter().zip(want) {
        assert!((g - x).abs() <= tol, "{got:?} vs {want:?}");
    }
}

#[test]
fn closed_forms_match_scipy() {
    assert_close(&w::hann(5, true, CPU).unwrap(), &[0.0, 0.5, 1.0, 0.5, 0.0], 1e-15);
    assert_close(&w::hann(4, false, CPU).unwrap(), &[0.0, 0.5, 1.0, 0.5], 1e-15);
    let kaiser = [0.00133251399790242, 0.20105486954533092, 0.8494161890910448];
    assert_close(
        &w::kaiser(6, 8.6, true, CPU).unwrap(),
        &[kaiser[0], kaiser[1], kaiser[2], kaiser[2], kaiser[1], kaiser[0]],
        1e-15,
    );
    assert_close(&w::triang(5, true, CPU).unwrap(), &[1.0 / 3.0, 2.0 / 3.0, 1.0, 2.0 / 3.0, 1.0 / 3.0], 1e-15);
    assert_close(&w::triang(4, true, CPU).unwrap(), &[0.25, 0.75, 0.75, 0.25], 1e-15);
    let parzen = [0.00925925925925925, 0.25, 0.8611111111111112];
    assert_close(
        &w::parzen(6, true, CPU).unwrap(),
        &[parzen[0], parzen[1], parzen[2], parzen[2], parzen[1], parzen[0]],
        1e-15,
    );
    assert_close(&w::bohman(5, true, CPU).unwrap(), &[0.0, 0.31830988618379075, 1.0, 0.31830988618379075, 0.0], 1e-15);
    let tukey = [0.0, 0.6913417161825449, 1.0, 1.0, 1.0, 1.0, 1.0, 0.6913417161825449, 0.0];
    assert_close(&w::tukey(9, 0.4, true, CPU).unwrap(), &tukey, 1e-15);
    let kbd = [0.22047876123724322, std::f64::consts::FRAC_1_SQRT_2, 0.9753917755667671];
    assert_close(
        &w::kaiser_bessel_derived(6, 4.0, true, CPU).unwrap(),
        &[kbd[0], kbd[1], kbd[2], kbd[2], kbd[1], kbd[0]],
        1e-15,
    );
    let exp = [0.36787944117144233, 0.6065306597126334, 1.0, 0.6065306597126334, 0.36787944117144233];
    assert_close(&w::exponential(5, None, 2.0, true, CPU).unwrap(), &exp, 1e-15);
    let poisson = [1.0, 0.36787944117144233, 0.1353352832366127, 0.04978706836786394];
    assert_close(&w::exponential(4, Some(0.0), 1.0, false, CPU).unwrap(), &poisson, 1e-15);
    let gauss = [0.41111229050718745, 0.8007374029168081, 1.0, 0.8007374029168081, 0.41111229050718745];
    assert_close(&w::gaussian(5, 1.5, true, CPU).unwrap(), &gauss, 1e-15);
    let general = [0.6065306597126334, 0.9394130628134758, 1.0, 0.9394130628134758, 0.6065306597126334];
    assert_close(&w::general_gaussian(5, 1.5, 2.0, true, CPU).unwrap(), &general, 1e-15);
    let cosine = [0.3826834323650898, 0.9238795325112867, 0.9238795325112867, 0.3826834323650899];
    assert_close(&w::cosine(4, true, CPU).unwrap(), &cosine, 1e-15);
    assert_close(&w::bartlett(6, true, CPU).unwrap(), &[0.0, 0.4, 0.8, 0.8, 0.4, 0.0], 1e-15);
    let barthann = [0.0, 0.35857354213752, 0.8794264578624801, 0.8794264578624801, 0.3585735421375199, 0.0];
    assert_close(&w::barthann(6, true, CPU).unwrap(), &barthann, 1e-15);
    let lanczos = [3.8981718325193755e-17, 0.504_551_152_427_104_6, 0.935_489_283_788_639];
    assert_close(
        &w::lanczos(6, true, CPU).unwrap(),
        &[lanczos[0], lanczos[1], lanczos[2], lanczos[2], lanczos[1], lanczos[0]],
        1e-15,
    );
}

#[test]
fn chebwin_and_taylor_match_scipy() {
    let odd = [0.11169109836363099, 0.41962998924433415, 0.813773592568722, 1.0];
    assert_close(
        &w::chebwin(7, 50.0, true, CPU).unwrap(),
        &[odd[0], odd[1], odd[2], odd[3], odd[2], odd[1], odd[0]],
        1e-13,
    );
    let even = [0.13265103435564735, 0.5477085429608687, 1.0];
    assert_close(
        &w::chebwin(6, 60.0, true, CPU).unwrap(),
        &[even[0], even[1], even[2], even[2], even[1], even[0]],
        1e-13,
    );
    assert!(w::chebwin_warns(30.0) && !w::chebwin_warns(-50.0));
    let taylor = [0.29009531272714734, 0.5782126011092212, 0.8780082248652833, 1.0];
    let t = [taylor[0], taylor[1], taylor[2], taylor[3], taylor[2], taylor[1], taylor[0]];
    assert_close(&w::taylor(7, 4, 30.0, true, true, CPU).unwrap(), &t, 1e-14);
    assert!(w::taylor(7, 0, 30.0, true, true, CPU).is_err());
}

#[test]
fn dpss_matches_scipy_with_its_signs_and_norms() {
    let two = w::dpss(8, 2.0, Some(2), true, DpssNorm::L2, false, CPU).unwrap();
    assert_eq!(two.windows.size(), vec![2, 8]);
    assert!(two.ratios.is_none());
    let first = [0.04986698658256845, 0.19047207647937736, 0.39530205784058536, 0.5522408485414734];
    let second = [0.17263018791800613, 0.4194633759455041, 0.4938487324606203, 0.2244164073922254];
    let mut want: Vec<f64> = first.iter().chain(first.iter().rev()).copied().collect();
    want.extend(second.iter().copied().chain(second.iter().rev().map(|v| -v)));
    assert_close(&two.windows, &want, 1e-12);

    let one = w::dpss(8, 2.0, None, true, DpssNorm::Approximate, true, CPU).unwrap();
    let taper = [0.08756300064500669, 0.3344558734866399, 0.6941232410014382, 0.9696969696969697];
    let want: Vec<f64> = taper.iter().chain(taper.iter().rev()).copied().collect();
    assert_close(&one.windows, &want, 1e-12);
    let ratio = one.ratios.unwrap();
    assert_eq!(ratio.dim(), 0);
    assert!((ratio.double_value(&[]) - 0.9999838545284159).abs() < 1e-12);

    let periodic = w::dpss(7, 1.5, None, false, DpssNorm::Subsample, false, CPU).unwrap().windows;
    let want = [
        0.16743374640809844,
        0.4436589051591347,
        0.7578713156375777,
        0.96892120094511,
        0.9689212009451103,
        0.7578713156375779,
        0.4436589051591347,
    ];
    assert_close(&periodic, &want, 1e-12);

    assert_close(&w::dpss(1, 2.0, Some(3), true, DpssNorm::L2, false, CPU).unwrap().windows, &[1.0], 0.0);
    for (m, nw, kmax, message) in [
        (8, 2.0, Some(9), "Kmax must be greater than 0 and less than M"),
        (8, 2.0, Some(0), "Kmax must be greater than 0 and less than M"),
        (8, 4.0, None, "NW must be less than M/2."),
        (8, 0.0, None, "NW must be positive"),
    ] {
        match w::dpss(m, nw, kmax, true, DpssNorm::L2, false, CPU) {
            Err(Error::InvalidArgument(got)) => assert_eq!(got, message),
            _ => panic!("dpss({m}, {nw}, {kmax:?}) should fail"),
        }
    }
}

#[test]
fn periodic_windows_are_the_symmetric_ones_one_longer_truncated() {
    for window in [
        Window::Hann,
        Window::Blackman,
        Window::Kaiser { beta: 5.0 },
        Window::Taylor { nbar: 5, sll: 40.0, norm: true },
    ] {
        for m in [2, 5, 8, 33] {
            let periodic = values(&window.compute(m, false, CPU).unwrap());
            let symmetric = values(&window.compute(m + 1, true, CPU).unwrap());
            assert_eq!(periodic, symmetric[..m as usize], "{window:?} {m}");
        }
    }
}

#[test]
fn symmetric_windows_are_symmetric() {
    let all = [
        Window::Barthann,
        Window::Bartlett,
        Window::Blackman,
        Window::Blackmanharris,
        Window::Bohman,
        Window::Boxcar,
        Window::Chebwin { at: 80.0 },
        Window::Cosine,
        Window::Dpss { nw: 3.0 },
        Window::Flattop,
        Window::Gaussian { std: 7.0 },
        Window::GeneralCosine { a: vec![1.0, 1.9, 1.3, 0.4] },
        Window::GeneralGaussian { p: 1.5, sig: 7.0 },
        Window::GeneralHamming { alpha: 0.6 },
        Window::Hamming,
        Window::Hann,
        Window::Kaiser { beta: 14.0 },
        Window::Lanczos,
        Window::Nuttall,
        Window::Parzen,
        Window::Taylor { nbar: 4, sll: 30.0, norm: true },
        Window::Triang,
        Window::Tukey { alpha: 0.5 },
        Window::Exponential { center: None, tau: 3.0 },
    ];
    for window in &all {
        for m in [16, 17] {
            let v = values(&window.compute(m, true, CPU).unwrap());
            let r: Vec<f64> = v.iter().rev().copied().collect();
            for (a, b) in v.iter().zip(&r) {
                assert!((a - b).abs() < 1e-12, "{window:?} {m}: {v:?}");
            }
            assert!(v.iter().all(|x| x.is_finite()), "{window:?}");
        }
        assert_eq!(values(&window.compute(0, true, CPU).unwrap()), Vec::<f64>::new(), "{window:?}");
        assert_eq!(values(&window.compute(1, false, CPU).unwrap()), vec![1.0], "{window:?}");
    }
}

#[test]
fn refusals_carry_scipys_messages() {
    match w::hann(-1, true, CPU) {
        Err(Error::InvalidArgument(m)) => assert_eq!(m, "Window length M must be a non-negative integer"),
        other => panic!("{:?}", other.map(|t| t.size())),
    }
    assert!(
        matches!(w::kaiser_bessel_derived(6, 1.0, false, CPU), Err(Error::InvalidArgument(m)) if m.contains("symmetric"))
    );
    assert!(
        matches!(w::kaiser_bessel_derived(5, 1.0, true, CPU), Err(Error::InvalidArgument(m)) if m.contains("even"))
    );
    assert_eq!(w::kaiser_bessel_derived(0, 1.0, true, CPU).unwrap().size(), vec![0]);
    assert!(
        matches!(w::exponential(5, Some(1.0), 1.0, true, CPU), Err(Error::InvalidArgument(m)) if m == "If sym==True, center must be None.")
    );
    assert!(w::general_cosine_tensor(4, &Tensor::ones([2, 2], (Kind::Double, CPU)), true).is_err());
}

#[test]
fn the_name_table_is_scipys() {
    assert_eq!(w::window_name("hann"), Some(("hann", Parameters::None)));
    assert_eq!(w::window_name("ksr"), Some(("kaiser", Parameters::Required)));
    assert_eq!(w::window_name("general gauss"), Some(("general_gaussian", Parameters::Required)));
    assert_eq!(w::window_name("poisson"), Some(("exponential", Parameters::Optional)));
    assert_eq!(w::window_name("sinc"), Some(("lanczos", Parameters::None)));
    assert_eq!(w::window_name("hanning"), None);
}
