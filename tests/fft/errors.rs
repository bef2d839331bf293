//! Across the family: argument errors with SciPy's messages, and huge sizes as
//! clean errors (never an abort or a panic).

use tch::{Kind, Tensor};
use torchbridge::ops::fft::{self, DctOptions, DctType, DctnOptions, FftOptions, FftnOptions, LengthFor, Norm};
use torchbridge::Error;

use crate::common::{ty, x4, CPU};

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
