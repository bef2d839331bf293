//! The Fourier transforms (SciPy's `_basic.py`; `ops::fft::basic`): known
//! values, round trips, complex-to-real lengths, n-D shapes and axes.

use tch::{Kind, Tensor};
use torchbridge::ops::fft::{self, FftOptions, FftnOptions, Norm};

use crate::common::{assert_close, complex_parts, random, vec_f64, x4, CPU};

#[test]
fn fft_of_a_ramp_has_known_values() {
    let y = fft::fft(&x4(), &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap();
    assert_eq!(y.kind(), Kind::ComplexDouble);
    let (re, im) = complex_parts(&y);
    assert_close(&re, &[10.0, -2.0, -2.0, -2.0], 1e-15);
    assert_close(&im, &[0.0, 2.0, 0.0, -2.0], 1e-15);
    // n pads with zeros, ortho scales by 1/sqrt(n)
    let (re, _) = complex_parts(&fft::fft(&x4(), &FftOptions { n: Some(8), axis: 0, norm: Norm::Ortho }).unwrap());
    assert_close(&re[..1], &[10.0 / 8f64.sqrt()], 1e-15);
    let (re, _) = complex_parts(&fft::fft(&x4(), &FftOptions { n: Some(2), axis: 0, norm: Norm::Forward }).unwrap());
    assert_close(&re, &[1.5, -0.5], 1e-15);
}

#[test]
fn real_transforms_round_trip_and_hermitian_values() {
    let x = random(&[3, 10]);
    for norm in [Norm::Backward, Norm::Ortho, Norm::Forward] {
        let spectrum = fft::rfft(&x, &FftOptions { n: None, axis: -1, norm }).unwrap();
        assert_eq!(spectrum.size(), vec![3, 6]);
        let back = fft::irfft(&spectrum, &FftOptions { n: Some(10), axis: -1, norm }).unwrap();
        assert_close(&vec_f64(&back), &vec_f64(&x), 1e-14);
        let inverse = fft::ihfft(&x, &FftOptions { n: None, axis: 1, norm }).unwrap();
        let back = fft::hfft(&inverse, &FftOptions { n: Some(10), axis: 1, norm }).unwrap();
        assert_close(&vec_f64(&back), &vec_f64(&x), 1e-14);
    }
    let z = Tensor::complex(&Tensor::from_slice(&[1.0f64, 0.0, 3.0]), &Tensor::from_slice(&[0.0f64, 2.0, 0.0]));
    assert_close(
        &vec_f64(&fft::hfft(&z, &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap()),
        &[4.0, 2.0, 4.0, -6.0],
        1e-15,
    );
    let (re, im) = complex_parts(&fft::ihfft(&x4(), &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap());
    assert_close(&re, &[2.5, -0.5, -0.5], 1e-15);
    assert_close(&im, &[0.0, -0.5, 0.0], 1e-15);
}

#[test]
fn c2r_lengths_follow_scipy() {
    let z = Tensor::ones([5], (Kind::ComplexDouble, CPU));
    assert_eq!(fft::irfft(&z, &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap().size(), vec![8]);
    assert_eq!(fft::irfft(&z, &FftOptions { n: Some(0), axis: -1, norm: Norm::Backward }).unwrap().size(), vec![1]);
    assert_eq!(fft::hfft(&z, &FftOptions { n: Some(7), axis: -1, norm: Norm::Backward }).unwrap().size(), vec![7]);
    let err = fft::irfft(&z.narrow(0, 0, 1), &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap_err();
    assert!(err.to_string().contains("Invalid number of data points (0)"), "{err}");
    assert!(fft::hfft(&z, &FftOptions { n: Some(-1), axis: -1, norm: Norm::Backward }).is_err());
    // real input to a complex-to-real transform is taken as complex
    let real = fft::irfft(&x4(), &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap();
    assert_eq!((real.kind(), real.size()), (Kind::Double, vec![6]));
    let nd = fft::irfftn(
        &Tensor::ones([2, 1], (Kind::ComplexFloat, CPU)),
        &FftnOptions { s: None, axes: None, norm: Norm::Backward },
    )
    .unwrap();
    assert_eq!((nd.kind(), nd.size()), (Kind::Float, vec![2, 1]));
}

#[test]
fn nd_shape_and_axes_follow_scipy() {
    let plan = |shape: Vec<i64>, axes: Vec<i64>| fft::NdPlan { shape, axes };
    let dims = [2i64, 3, 4];
    assert_eq!(fft::nd_shape_and_axes(&dims, None, None).unwrap(), plan(vec![2, 3, 4], vec![0, 1, 2]));
    assert_eq!(fft::nd_shape_and_axes(&dims, Some(&[5, -1]), None).unwrap(), plan(vec![5, 4], vec![1, 2]));
    assert_eq!(fft::nd_shape_and_axes(&dims, None, Some(&[-1, 0])).unwrap(), plan(vec![4, 2], vec![2, 0]));
    assert_eq!(fft::nd_shape_and_axes(&dims, Some(&[7]), Some(&[])).unwrap(), plan(vec![], vec![]));
    let message = |s: Option<&[i64]>, a: Option<&[i64]>| fft::nd_shape_and_axes(&dims, s, a).unwrap_err().to_string();
    assert_eq!(message(None, Some(&[0, -3])), "all axes must be unique");
    assert_eq!(message(None, Some(&[3])), "axes exceeds dimensionality of input");
    assert_eq!(message(Some(&[1, 2, 3, 4]), None), "shape requires more axes than are present");
    assert!(message(Some(&[1]), Some(&[0, 1])).contains("same length"));
    assert_eq!(message(Some(&[0, 4]), None), "invalid number of data points ([0, 4]) specified");
    let x = Tensor::ones([2, 3], (Kind::Int64, CPU));
    let same = fft::fftn(&x, &FftnOptions { s: None, axes: Some(vec![]), norm: Norm::Backward }).unwrap();
    assert_eq!(same.kind(), Kind::Int64, "no axes: the input, unconverted, as SciPy");
    assert!(fft::rfftn(&x, &FftnOptions { s: None, axes: Some(vec![]), norm: Norm::Backward }).is_err());
}
