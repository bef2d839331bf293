//! Convolution and correlation (`ops::signal::signaltools::convolve`):
//! values quoted from SciPy 1.17.1, the methods against each other, dtypes
//! and errors.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::signaltools::convolve::{self as conv, Boundary, Method, Mode};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn assert_close(got: &Tensor, want: &Tensor, tol: f64) {
    assert_eq!(got.size(), want.size());
    let (got, want) = (values(got), values(want));
    let scale = want.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() <= tol * scale, "{got:?} vs {want:?}");
    }
}

fn random(shape: &[i64]) -> Tensor {
    tch::manual_seed(20261202);
    Tensor::randn(shape, (Kind::Double, Device::Cpu))
}

#[test]
fn known_values() {
    let a = Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
    let k = Tensor::from_slice(&[0.0f64, 1.0, 0.5]);
    for method in [Method::Direct, Method::Fft, Method::Auto] {
        let out = conv::convolve(&a, &k, Mode::Full, method).unwrap();
        assert_close(&out, &Tensor::from_slice(&[0.0f64, 1.0, 2.5, 4.0, 1.5]), 1e-14);
    }
    // convolve2d of arange(1, 7).reshape(2, 3) with arange(1, 13).reshape(3, 4): the first row per boundary
    let a = Tensor::arange_start(1, 7, (Kind::Double, Device::Cpu)).view([2, 3]);
    let k = Tensor::arange_start(1, 13, (Kind::Double, Device::Cpu)).view([3, 4]);
    for (boundary, row) in [
        (Boundary::Fill, [1.0, 4.0, 10.0, 16.0, 17.0, 12.0]),
        (Boundary::Wrap, [213.0, 237.0, 252.0, 213.0, 237.0, 252.0]),
        (Boundary::Symm, [273.0, 243.0, 252.0, 291.0, 321.0, 312.0]),
    ] {
        let out = conv::convolve2d(&a, &k, Mode::Full, boundary, (0.0, 0.0)).unwrap();
        assert_eq!(out.size(), vec![4, 6]);
        assert_eq!(values(&out.get(0)), row.to_vec(), "{boundary:?}");
    }
    // correlate2d centres `same` mode from len(in2) // 2
    let a = Tensor::arange(9, (Kind::Double, Device::Cpu)).view([3, 3]);
    let k = Tensor::arange(4, (Kind::Double, Device::Cpu)).view([2, 2]);
    let out = conv::correlate2d(&a, &k, Mode::Same, Boundary::Fill, (0.0, 0.0)).unwrap();
    assert_eq!(values(&out), vec![19.0, 25.0, 10.0, 37.0, 43.0, 16.0, 7.0, 8.0, 0.0]);
    assert_eq!(conv::correlation_lags(3, 2, "same").unwrap(), vec![0, 1, 2]);
    assert_eq!(conv::correlation_lags(2, 4, "valid").unwrap(), vec![-2, -1, 0]);
}

#[test]
fn the_methods_agree() {
    for (s1, s2) in
        [(vec![200i64], vec![17i64]), (vec![17], vec![200]), (vec![30, 20], vec![5, 7]), (vec![6, 5, 4], vec![2, 3, 2])]
    {
        let (a, b) = (random(&s1), random(&s2).f_mul_scalar(0.5).unwrap());
        for mode in [Mode::Full, Mode::Same, Mode::Valid] {
            let direct = conv::convolve(&a, &b, mode, Method::Direct).unwrap();
            assert_close(&conv::convolve(&a, &b, mode, Method::Fft).unwrap(), &direct, 1e-12);
            assert_close(&conv::fftconvolve(&a, &b, mode, None).unwrap(), &direct, 1e-12);
            assert_close(&conv::oaconvolve(&a, &b, mode, None).unwrap(), &direct, 1e-12);
            let reversed = b.flip((0..b.dim() as i64).collect::<Vec<_>>());
            assert_close(&conv::correlate(&a, &reversed, mode, Method::Direct).unwrap(), &direct, 1e-12);
        }
    }
    // overlap-add over many blocks
    let (x, h) = (random(&[20_000]), random(&[301]));
    let full = conv::fftconvolve(&x, &h, Mode::Full, None).unwrap();
    assert_close(&conv::oaconvolve(&x, &h, Mode::Full, None).unwrap(), &full, 1e-12);
    assert_close(&conv::oaconvolve(&h, &x, Mode::Full, None).unwrap(), &full, 1e-12);
}

#[test]
fn dtypes_follow_numpy() {
    let i = Tensor::from_slice(&[1i64 << 40, -3, 7]);
    let j = Tensor::from_slice(&[1i64 << 11, 5]);
    assert_eq!(conv::choose_conv_method(&i, &j, Mode::Full).unwrap(), Method::Direct); // beyond 2**52
    let out = conv::convolve(&i, &j, Mode::Full, Method::Auto).unwrap();
    assert_eq!(out.kind(), Kind::Int64);
    assert_eq!(Vec::<i64>::try_from(&out).unwrap(), vec![1 << 51, 5 * (1 << 40) - 3 * 2048, -15 + 7 * 2048, 35]);
    let f = Tensor::from_slice(&[1.0f32, 2.0]);
    assert_eq!(conv::convolve(&f, &f, Mode::Full, Method::Direct).unwrap().kind(), Kind::Float);
    assert_eq!(
        conv::convolve(&f, &Tensor::from_slice(&[1i64]), Mode::Full, Method::Direct).unwrap().kind(),
        Kind::Double
    );
    assert_eq!(conv::fftconvolve(&i, &j, Mode::Full, None).unwrap().kind(), Kind::Double);
    let b = Tensor::from_slice(&[true, false, true]);
    let out = conv::convolve(&b, &b, Mode::Full, Method::Fft).unwrap();
    assert_eq!(out.kind(), Kind::Bool);
    assert_eq!(Vec::<bool>::try_from(&out).unwrap(), vec![true, false, true, false, true]);
}

#[test]
fn bad_input_is_an_error() {
    let (a, b) = (random(&[5]), random(&[3]));
    assert!("middle".parse::<Mode>().is_err());
    assert!("slow".parse::<Method>().is_err());
    assert!("reflect".parse::<Boundary>().is_err());
    assert!(conv::convolve(&a, &random(&[2, 2]), Mode::Full, Method::Auto).is_err());
    assert!(conv::convolve(&random(&[3, 2]), &random(&[2, 3]), Mode::Valid, Method::Direct).is_err());
    assert!(conv::fftconvolve(&a, &b, Mode::Full, Some(&[])).is_err());
    assert!(conv::fftconvolve(&a, &b, Mode::Full, Some(&[3])).is_err());
    assert!(conv::convolve2d(&a, &b, Mode::Full, Boundary::Fill, (0.0, 0.0)).is_err());
    let m = random(&[3, 3]);
    assert!(conv::convolve2d(&m, &m, Mode::Full, Boundary::Fill, (0.0, 1.0)).is_err()); // complex fill, real data
    assert!(conv::correlation_lags(3, 2, "sideways").is_err());
    assert!(conv::correlation_lags(i64::MAX, i64::MAX, "full").is_err()); // out of memory, not an abort
}
