//! Integration tests of `torchbridge::ops::fft` on tch tensors: known values
//! (from SciPy 1.17.1), identities (orthonormality, inverses), dtypes,
//! shapes and errors.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::fft::{self, DctOptions, DctType, DctnOptions, FftOptions, FftnOptions, LengthFor, Norm};
use torchbridge::Error;

const CPU: Device = Device::Cpu;

fn vec_f64(t: &Tensor) -> Vec<f64> {
    let t = t.to_kind(Kind::Double).contiguous().view(-1);
    Vec::<f64>::try_from(&t).unwrap()
}

fn complex_parts(t: &Tensor) -> (Vec<f64>, Vec<f64>) {
    (vec_f64(&t.real()), vec_f64(&t.imag()))
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    let scale = want.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * scale, "{got:?} vs {want:?}");
    }
}

/// SciPy's `type` number as a [`DctType`].
fn ty(type_: i64) -> DctType {
    DctType::for_dct(type_).unwrap()
}

fn x4() -> Tensor {
    Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0])
}

fn random(shape: &[i64]) -> Tensor {
    tch::manual_seed(20261201);
    Tensor::randn(shape, (Kind::Double, CPU))
}

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
fn dtypes_follow_scipy() {
    let ints = Tensor::from_slice(&[1i64, 2, 3]);
    assert_eq!(
        fft::fft(&ints, &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap().kind(),
        Kind::ComplexDouble
    );
    let half = Tensor::from_slice(&[1.0f32, 2.0]).to_kind(Kind::Half);
    assert_eq!(
        fft::fft(&half, &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap().kind(),
        Kind::ComplexFloat
    );
    assert_eq!(
        fft::dct(&half, &DctOptions { type_: ty(2), n: None, axis: -1, norm: Norm::Backward, orthogonalize: None })
            .unwrap()
            .kind(),
        Kind::Float
    );
    let bools = Tensor::from_slice(&[true, false, true]);
    assert_eq!(
        fft::dst(&bools, &DctOptions { type_: ty(1), n: None, axis: -1, norm: Norm::Backward, orthogonalize: None })
            .unwrap()
            .kind(),
        Kind::Double
    );
    let single = Tensor::from_slice(&[1.0f32, 2.0, 3.0]);
    assert_eq!(
        fft::rfftn(&single, &FftnOptions { s: None, axes: None, norm: Norm::Ortho }).unwrap().kind(),
        Kind::ComplexFloat
    );
    assert_eq!(fft::hfft(&single, &FftOptions { n: None, axis: -1, norm: Norm::Ortho }).unwrap().kind(), Kind::Float);
    let complex = Tensor::ones([3], (Kind::ComplexFloat, CPU));
    assert_eq!(
        fft::idct(&complex, &DctOptions { type_: ty(4), n: None, axis: -1, norm: Norm::Backward, orthogonalize: None })
            .unwrap()
            .kind(),
        Kind::ComplexFloat
    );
    let err = fft::rfft(&complex, &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap_err();
    assert!(matches!(err, Error::DtypeNotAccepted { routine: "fft.rfft", .. }), "{err}");
}

#[test]
fn dct_and_dst_of_a_ramp_have_scipys_values() {
    let x = x4();
    let known: [(i64, [f64; 4], [f64; 4]); 4] = [
        (1, [15.0, -4.0, 0.0, -1.0], [15.388417685876266, -6.881909602355868, 3.6327126400268037, -1.624598481164532]),
        (
            2,
            [20.0, -6.308644059797899, 0.0, -0.4483415291679651],
            [13.065629648763766, -5.65685424949238, 5.41196100146197, -4.0],
        ),
        (
            3,
            [11.999626276085149, -9.102943217749218, 2.617661843510649, -1.51434490184658],
            [13.137071184544089, -1.6199144044217753, 0.723231346085845, -0.5197830649482906],
        ),
        (
            4,
            [10.181592984263283, -9.446695610035626, 5.010298174943416, -4.689564857456725],
            [15.447561493151783, -0.4469333786714663, 1.0031506944070392, 0.4083909335848668],
        ),
    ];
    for (type_, dct, dst) in known {
        assert_close(
            &vec_f64(
                &fft::dct(
                    &x,
                    &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Backward, orthogonalize: None },
                )
                .unwrap(),
            ),
            &dct,
            1e-14,
        );
        assert_close(
            &vec_f64(
                &fft::dst(
                    &x,
                    &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Backward, orthogonalize: None },
                )
                .unwrap(),
            ),
            &dst,
            1e-14,
        );
    }
    let ortho =
        fft::dct(&x, &DctOptions { type_: ty(2), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None }).unwrap();
    assert_close(&vec_f64(&ortho), &[5.000000000000001, -2.2304424973876635, 0.0, -0.15851266778110706], 1e-14);
    let forward = fft::dst(
        &Tensor::from_slice(&[1.0f64, 2.0, 3.0]),
        &DctOptions { type_: ty(3), n: None, axis: 0, norm: Norm::Forward, orthogonalize: None },
    )
    .unwrap();
    assert_close(&vec_f64(&forward), &[1.2440169358562922, -0.16666666666666663, 0.08931639747704097], 1e-14);
}

#[test]
fn orthonormal_transforms_have_orthonormal_matrices() {
    for n in [2i64, 3, 5, 8, 13] {
        let eye = Tensor::eye(n, (Kind::Double, CPU));
        for type_ in 1..=4 {
            for cosine in [true, false] {
                if cosine && type_ == 1 && n < 2 {
                    continue;
                }
                let matrix = if cosine {
                    fft::dct(
                        &eye,
                        &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None },
                    )
                } else {
                    fft::dst(
                        &eye,
                        &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None },
                    )
                }
                .unwrap();
                let gram = matrix.matmul(&matrix.transpose(0, 1));
                assert_close(&vec_f64(&gram), &vec_f64(&eye), 1e-14);
            }
        }
    }
}

#[test]
fn inverses_undo_the_transforms_in_every_norm() {
    let x = random(&[4, 7, 6]);
    for type_ in 1..=4 {
        for norm in [Norm::Backward, Norm::Ortho, Norm::Forward] {
            for orthogonalize in [None, Some(true), Some(false)] {
                let y = fft::dct(&x, &DctOptions { type_: ty(type_), n: None, axis: 1, norm, orthogonalize }).unwrap();
                let back =
                    fft::idct(&y, &DctOptions { type_: ty(type_), n: None, axis: 1, norm, orthogonalize }).unwrap();
                assert_close(&vec_f64(&back), &vec_f64(&x), 1e-13);
                let y = fft::dstn(
                    &x,
                    &DctnOptions { type_: ty(type_), s: None, axes: Some(vec![0, -1]), norm, orthogonalize },
                )
                .unwrap();
                let back = fft::idstn(
                    &y,
                    &DctnOptions { type_: ty(type_), s: None, axes: Some(vec![0, -1]), norm, orthogonalize },
                )
                .unwrap();
                assert_close(&vec_f64(&back), &vec_f64(&x), 1e-13);
            }
        }
    }
    let y = fft::fftn(&x, &FftnOptions { s: Some(vec![5, -1]), axes: Some(vec![2, 0]), norm: Norm::Ortho }).unwrap();
    assert_eq!(y.size(), vec![4, 7, 5]);
    let back = fft::ifftn(&y, &FftnOptions { s: Some(vec![6, 4]), axes: Some(vec![2, 0]), norm: Norm::Ortho }).unwrap();
    assert_eq!(back.size(), vec![4, 7, 6]);
}

#[test]
fn complex_input_to_dct_transforms_the_parts() {
    let re = random(&[2, 9]);
    let im = re.flip([1]).multiply_scalar(3.0);
    let z = Tensor::complex(&re, &im);
    let got =
        fft::dct(&z, &DctOptions { type_: ty(3), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: Some(false) })
            .unwrap();
    // the parts keep the default orthogonalize (true for ortho), as SciPy
    let want_re =
        fft::dct(&re, &DctOptions { type_: ty(3), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None }).unwrap();
    let want_im =
        fft::dct(&im, &DctOptions { type_: ty(3), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None }).unwrap();
    assert_close(&vec_f64(&got.real()), &vec_f64(&want_re), 1e-15);
    assert_close(&vec_f64(&got.imag()), &vec_f64(&want_im), 1e-15);
}

#[test]
fn empty_batches_and_padded_empty_axes() {
    let empty = Tensor::zeros([0, 5], (Kind::Double, CPU));
    assert_eq!(fft::fft(&empty, &FftOptions { n: None, axis: -1, norm: Norm::Backward }).unwrap().size(), vec![0, 5]);
    assert_eq!(
        fft::rfftn(&empty, &FftnOptions { s: None, axes: Some(vec![1]), norm: Norm::Backward }).unwrap().size(),
        vec![0, 3]
    );
    assert_eq!(
        fft::dct(&empty, &DctOptions { type_: ty(2), n: None, axis: 1, norm: Norm::Ortho, orthogonalize: None })
            .unwrap()
            .size(),
        vec![0, 5]
    );
    let padded = fft::dct(
        &Tensor::zeros([3, 0], (Kind::Float, CPU)),
        &DctOptions { type_: ty(2), n: Some(4), axis: -1, norm: Norm::Backward, orthogonalize: None },
    )
    .unwrap();
    assert_eq!((padded.size(), padded.kind()), (vec![3, 4], Kind::Float));
    let err = fft::fft(&empty, &FftOptions { n: None, axis: 0, norm: Norm::Backward }).unwrap_err();
    assert!(err.to_string().contains("invalid number of data points (0)"), "{err}");
}

#[test]
fn nd_shape_and_axes_follow_scipy() {
    let dims = [2i64, 3, 4];
    assert_eq!(fft::nd_shape_and_axes(&dims, None, None).unwrap(), (vec![2, 3, 4], vec![0, 1, 2]));
    assert_eq!(fft::nd_shape_and_axes(&dims, Some(&[5, -1]), None).unwrap(), (vec![5, 4], vec![1, 2]));
    assert_eq!(fft::nd_shape_and_axes(&dims, None, Some(&[-1, 0])).unwrap(), (vec![4, 2], vec![2, 0]));
    assert_eq!(fft::nd_shape_and_axes(&dims, Some(&[7]), Some(&[])).unwrap(), (vec![], vec![]));
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

#[test]
fn argument_errors() {
    let x = x4();
    let invalid = |r: torchbridge::Result<Tensor>| match r {
        Err(Error::InvalidArgument(message)) => message,
        // an axis out of range is NumPy's AxisError (ops::numpy::normalize_axis)
        Err(err @ Error::AxisOutOfBounds { .. }) => err.to_string(),
        other => panic!("expected InvalidArgument, got {other:?}"),
    };
    assert!(invalid(fft::fft(&x, &FftOptions { n: None, axis: 1, norm: Norm::Backward })).contains("out of bounds"));
    assert!(invalid(fft::dct(
        &x,
        &DctOptions { type_: ty(2), n: None, axis: -2, norm: Norm::Backward, orthogonalize: None }
    ))
    .contains("out of bounds"));
    assert!(invalid(fft::fft(&x, &FftOptions { n: Some(0), axis: 0, norm: Norm::Backward })).contains("(0)"));
    // SciPy's `type` is parsed into a DctType, with SciPy's messages
    assert_eq!(invalid(DctType::for_dct(5).map(|_| x.shallow_clone())), "invalid DCT type");
    assert_eq!(invalid(DctType::for_dst(0).map(|_| x.shallow_clone())), "invalid DST type");
    assert!(invalid(fft::dct(
        &x,
        &DctOptions { type_: ty(1), n: Some(1), axis: -1, norm: Norm::Backward, orthogonalize: None }
    ))
    .contains("DCT-I needs at least 2"));
    assert!(fft::dst(
        &x,
        &DctOptions { type_: ty(1), n: Some(1), axis: -1, norm: Norm::Backward, orthogonalize: None }
    )
    .is_ok());
    assert!(invalid(fft::fftshift(&Tensor::from(1.0f64), None)).contains("at least one dimension"));
    assert!(Norm::from_scipy(Some("bad")).unwrap_err().to_string().contains("Invalid norm value 'bad'"));
    assert_eq!(Norm::from_scipy(None).unwrap(), Norm::Backward);
    assert_eq!(Norm::from_scipy(Some("forward")).unwrap(), Norm::Forward);
}

#[test]
fn frequencies_and_shifts() {
    let f = fft::fftfreq(5, 0.5, (Kind::Double, CPU)).unwrap();
    assert_eq!(vec_f64(&f), vec![0.0, 0.4, 0.8, -0.8, -0.4]);
    let r = fft::rfftfreq(6, 2.0, (Kind::Float, CPU)).unwrap();
    assert_eq!(r.kind(), Kind::Float);
    assert_close(&vec_f64(&r), &[0.0, 1.0 / 12.0, 2.0 / 12.0, 3.0 / 12.0], 1e-7);
    assert_eq!(fft::rfftfreq(-3, 1.0, (Kind::Double, CPU)).unwrap().size(), vec![0]);
    assert!(fft::fftfreq(-3, 1.0, (Kind::Double, CPU)).is_err());
    assert!(fft::fftfreq(0, 1.0, (Kind::Double, CPU)).is_err());

    let x = Tensor::arange(5, (Kind::Int64, CPU));
    let shifted = fft::fftshift(&x, None).unwrap();
    assert_eq!(Vec::<i64>::try_from(&shifted).unwrap(), vec![3, 4, 0, 1, 2]);
    let back = fft::ifftshift(&shifted, Some(&[0])).unwrap();
    assert_eq!(Vec::<i64>::try_from(&back).unwrap(), vec![0, 1, 2, 3, 4]);
    let twice = fft::fftshift(&x, Some(&[0, -1])).unwrap(); // a repeated axis rolls twice
    assert_eq!(Vec::<i64>::try_from(&twice).unwrap(), vec![1, 2, 3, 4, 0]);
    let grid = Tensor::arange(6, (Kind::Int64, CPU)).view([2, 3]);
    let rows = fft::fftshift(&grid, Some(&[1])).unwrap().contiguous().view(-1);
    assert_eq!(Vec::<i64>::try_from(&rows).unwrap(), vec![2, 0, 1, 5, 3, 4]);
}

#[test]
fn fast_lengths_match_pocketfft() {
    let next: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::next_fast_len(t, LengthFor::Complex).unwrap()).collect();
    assert_eq!(next, vec![14, 98, 1024, 1_000_188_000]);
    let next: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::next_fast_len(t, LengthFor::Real).unwrap()).collect();
    assert_eq!(next, vec![15, 100, 1024, 1_006_632_960]);
    let prev: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::prev_fast_len(t, LengthFor::Complex).unwrap()).collect();
    assert_eq!(prev, vec![12, 96, 1008, 1_000_000_000]);
    let prev: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::prev_fast_len(t, LengthFor::Real).unwrap()).collect();
    assert_eq!(prev, vec![12, 96, 1000, 1_000_000_000]);
    for small in 0..=12 {
        assert_eq!(fft::next_fast_len(small, LengthFor::Complex).unwrap(), small as u64);
        assert_eq!(fft::prev_fast_len(small, LengthFor::Complex).unwrap(), small as u64);
    }
    // definitions: 11-smooth (complex) and 5-smooth (real), brute force
    let smooth = |mut v: u64, primes: &[u64]| {
        for &p in primes {
            while v % p == 0 {
                v /= p;
            }
        }
        v == 1
    };
    for t in 13..3000i64 {
        let want = (t as u64..).find(|&v| smooth(v, &[2, 3, 5, 7, 11])).unwrap();
        assert_eq!(fft::next_fast_len(t, LengthFor::Complex).unwrap(), want);
        let want = (1..=t as u64).rev().find(|&v| smooth(v, &[2, 3, 5])).unwrap();
        assert_eq!(fft::prev_fast_len(t, LengthFor::Real).unwrap(), want);
    }
    assert_eq!(fft::next_fast_len(1_676_976_733_973_595_602, LengthFor::Real).unwrap(), 1_677_721_600_000_000_000);
    assert!(fft::next_fast_len(1_676_976_733_973_595_603, LengthFor::Complex)
        .unwrap_err()
        .to_string()
        .contains("too large"));
    assert!(fft::prev_fast_len(-1, LengthFor::Complex).unwrap_err().to_string().contains("must be positive"));
}

#[test]
fn float32_composites_stay_accurate() {
    let x = random(&[3, 50]);
    let single = x.to_kind(Kind::Float);
    for type_ in 1..=4 {
        let want =
            fft::dst(&x, &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None })
                .unwrap();
        let got = fft::dst(
            &single,
            &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None },
        )
        .unwrap();
        assert_eq!(got.kind(), Kind::Float);
        assert_close(&vec_f64(&got), &vec_f64(&want), 2e-6);
    }
}

#[test]
fn huge_sizes_are_clean_errors() {
    let x = x4();
    let oom = |r: torchbridge::Result<Tensor>| matches!(r, Err(Error::OutOfMemory(_)));
    assert!(oom(fft::fft(&x, &FftOptions { n: Some(1 << 62), ..Default::default() })));
    assert!(oom(fft::irfft(&x, &FftOptions { n: Some(i64::MAX), ..Default::default() })));
    assert!(oom(fft::rfft(&x, &FftOptions { n: Some(1 << 40), ..Default::default() })));
    let cube = Tensor::ones([2, 2, 2], (Kind::Double, CPU));
    assert!(oom(fft::fftn(&cube, &FftnOptions { s: Some(vec![1 << 31; 3]), ..Default::default() })));
    assert!(oom(fft::dctn(&cube, &DctnOptions { s: Some(vec![i64::MAX; 3]), ..Default::default() })));
    assert!(oom(fft::dct(&x, &DctOptions { n: Some(1 << 62), ..Default::default() })));
    assert!(oom(fft::fftfreq(1 << 62, 1.0, (Kind::Double, CPU))));
    assert!(oom(fft::fftfreq(1 << 40, 1.0, (Kind::Double, CPU))));
    assert!(oom(fft::rfftfreq(i64::MAX, 1.0, (Kind::Double, CPU))));
    let axis = fft::fft(&x, &FftOptions { axis: i64::MIN, ..Default::default() }).unwrap_err();
    assert!(matches!(axis, Error::AxisOutOfBounds { axis: i64::MIN, ndim: 1 }), "{axis}");
    assert!(fft::next_fast_len(i64::MAX, LengthFor::Real).is_err());
}
