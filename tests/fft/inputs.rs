//! Across the family: result dtypes as SciPy's, empty batches and padded empty
//! axes.

use tch::{Kind, Tensor};
use torchbridge::ops::fft::{self, DctOptions, FftOptions, FftnOptions, Norm};
use torchbridge::Error;

use crate::common::{ty, CPU};

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
