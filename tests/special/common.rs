//! Helpers shared by the special test modules: tensors from slices, values
//! back, and the relative-error assertion.

use tch::{Kind, Tensor};

pub(crate) fn t64(values: &[f64]) -> Tensor {
    Tensor::from_slice(values)
}

pub(crate) fn values(t: &Tensor) -> Vec<f64> {
    let t = t.to_kind(Kind::Double).contiguous().view(-1);
    (0..t.size()[0]).map(|i| t.double_value(&[i])).collect()
}

pub(crate) fn scalar(t: &Tensor) -> f64 {
    t.to_kind(Kind::Double).double_value(&[])
}

pub(crate) fn assert_rel(got: f64, want: f64, rtol: f64, what: &str) {
    if want.is_nan() {
        assert!(got.is_nan(), "{what}: expected nan, got {got:e}");
    } else if want.is_infinite() || want == 0.0 {
        assert_eq!(got, want, "{what}");
    } else {
        let rel = ((got - want) / want).abs();
        assert!(rel <= rtol, "{what}: got {got:e}, expected {want:e} (relative error {rel:e})");
    }
}

pub(crate) type Unary = fn(&Tensor) -> torchbridge::Result<Tensor>;

pub(crate) type Binary = fn(&Tensor, &Tensor) -> torchbridge::Result<Tensor>;
