//! Helpers shared by the fft test modules.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::fft::DctType;

pub(crate) const CPU: Device = Device::Cpu;

pub(crate) fn vec_f64(t: &Tensor) -> Vec<f64> {
    let t = t.to_kind(Kind::Double).contiguous().view(-1);
    Vec::<f64>::try_from(&t).unwrap()
}

pub(crate) fn complex_parts(t: &Tensor) -> (Vec<f64>, Vec<f64>) {
    (vec_f64(&t.real()), vec_f64(&t.imag()))
}

pub(crate) fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    let scale = want.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * scale, "{got:?} vs {want:?}");
    }
}

/// SciPy's `type` number as a [`DctType`].
pub(crate) fn ty(type_: i64) -> DctType {
    DctType::for_dct(type_).unwrap()
}

pub(crate) fn x4() -> Tensor {
    Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0])
}

pub(crate) fn random(shape: &[i64]) -> Tensor {
    tch::manual_seed(20261201);
    Tensor::randn(shape, (Kind::Double, CPU))
}
