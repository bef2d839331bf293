//! Helpers shared by the linalg test modules.

use tch::{Kind, Tensor};
use torchbridge::Error;

pub(crate) fn mat(rows: &[&[f64]]) -> Tensor {
    let n = rows.len() as i64;
    let m = rows[0].len() as i64;
    let flat: Vec<f64> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    Tensor::from_slice(&flat).reshape([n, m])
}

pub(crate) fn vector(values: &[f64]) -> Tensor {
    Tensor::from_slice(values)
}

pub(crate) fn values(t: &Tensor) -> Vec<f64> {
    let t = t.to_kind(Kind::Double).contiguous().reshape([-1]);
    let mut out = vec![0.0; t.numel()];
    t.copy_data(&mut out, t.numel());
    out
}

pub(crate) fn assert_all_close(actual: &Tensor, expected: &[f64], tol: f64, what: &str) {
    let got = values(actual);
    assert_eq!(got.len(), expected.len(), "{what}: {got:?} vs {expected:?}");
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert!((g - e).abs() <= tol * (1.0 + e.abs()), "{what}[{i}]: got {g}, expected {e} (all: {got:?})");
    }
}

pub(crate) fn assert_linalg_error<T>(result: torchbridge::Result<T>, what: &str) {
    match result {
        Err(err) => assert!(matches!(err, Error::LinAlg(_)), "{what}: expected a LinAlgError, got {err}"),
        Ok(_) => panic!("{what}: expected a LinAlgError"),
    }
}
