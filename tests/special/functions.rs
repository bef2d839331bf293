//! The functions outside the ufunc table: the reductions logsumexp, softmax and
//! log_softmax (SciPy's `_logsumexp.py`), multigammaln and factorial
//! (`_basic.py`).

use tch::{Kind, Tensor};
use torchbridge::ops::special::{self as sp, FactorialExtend, LogSumExp, LogsumexpOptions};

use crate::common::{assert_rel, scalar, t64, values};

#[test]
fn reductions() {
    let a = t64(&[1.0, 2.0, 3.0]);
    // without return_sign there is no sign (the type says so: a bare Tensor)
    let out: Tensor = sp::logsumexp(&a, &LogsumexpOptions::default()).unwrap();
    assert_rel(scalar(&out), 3.40760596444438, 2e-16, "logsumexp");
    let b = t64(&[1.0, -1.0, 0.0]);
    let opts = LogsumexpOptions { axis: Some(&[0]), b: Some(&b), keepdims: true };
    let LogSumExp { value: out, sign } = sp::logsumexp_with_sign(&a, &opts).unwrap();
    assert_eq!(out.size(), [1]);
    assert_rel(values(&out)[0], (1f64.exp() - 2f64.exp()).abs().ln(), 1e-15, "weighted");
    assert_eq!(values(&sign), [-1.0]);
    // the same weights without return_sign: a negative sum is nan, as SciPy
    assert!(values(&sp::logsumexp(&a, &opts).unwrap())[0].is_nan());
    let m = t64(&[1.0, 2.0, 3.0, 4.0]).view([2, 2]);
    let s = sp::softmax(&m, Some(&[1])).unwrap();
    let row = values(&s);
    assert_rel(row[0] + row[1], 1.0, 2e-16, "softmax rows sum to 1");
    let ls = values(&sp::log_softmax(&m, None).unwrap());
    let total: f64 = ls.iter().map(|v| v.exp()).sum();
    assert_rel(total, 1.0, 4e-16, "log_softmax over all axes");
    assert_rel(scalar(&sp::multigammaln(&t64(&[3.5]).view([]), 3).unwrap()), 3.8958984821540388, 1e-15, "multigammaln");
    let f = values(&sp::factorial(&t64(&[5.0, -1.0, 2.5]), FactorialExtend::Zero).unwrap());
    assert_eq!(&f[..2], [120.0, 0.0]);
    assert_rel(f[2], 3.3233509704478426, 1e-15, "2.5!");
    assert!(values(&sp::factorial(&t64(&[-1.0]), FactorialExtend::Complex).unwrap())[0].is_nan());
    let exact = sp::factorial_exact(&Tensor::from_slice(&[20i64, -3, 0])).unwrap();
    assert_eq!(exact.kind(), Kind::Int64);
    assert_eq!(exact.int64_value(&[0]), 2432902008176640000);
    assert_eq!(exact.int64_value(&[1]), 0);
}
