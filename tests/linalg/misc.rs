//! SciPy's `_misc.py` (`ops::linalg::misc`): norm's orders and axes, errors,
//! no overflow.

use tch::Tensor;
use torchbridge::ops::linalg::{self as la, NormOptions, NormOrder};
use torchbridge::Error;

use crate::common::{assert_all_close, mat, values};

#[test]
fn norms() {
    let a = mat(&[&[1.0, -2.0], &[3.0, 4.0]]);
    let norm = |a: &Tensor, ord, axis: Option<&[i64]>| {
        la::norm(a, &NormOptions { ord, axis: axis.map(<[i64]>::to_vec), ..Default::default() })
    };
    let n = |ord, axis: Option<&[i64]>| values(&norm(&a, ord, axis).unwrap());
    assert!((n(NormOrder::Default, None)[0] - 30f64.sqrt()).abs() < 1e-15);
    assert_eq!(n(NormOrder::P(1.0), Some(&[0, 1])), vec![6.0]);
    assert_eq!(n(NormOrder::P(f64::INFINITY), Some(&[0, 1])), vec![7.0]);
    assert_eq!(n(NormOrder::P(-1.0), Some(&[0, 1])), vec![4.0]);
    assert_eq!(n(NormOrder::P(1.0), Some(&[1])), vec![3.0, 7.0]);
    assert_eq!(n(NormOrder::P(0.0), Some(&[0])), vec![2.0, 2.0]);
    let two = n(NormOrder::P(2.0), Some(&[0, 1]))[0];
    let nuc = n(NormOrder::Nuc, Some(&[0, 1]))[0];
    // singular values s1 s2 = |det| = 10, s1^2 + s2^2 = 30
    assert!((two * (nuc - two) - 10.0).abs() < 1e-12);
    let huge = Tensor::from_slice(&[3e300, 4e300]);
    assert_all_close(&norm(&huge, NormOrder::Default, None).unwrap(), &[5e300], 1e-15, "no overflow");
    assert!(norm(&a, NormOrder::Fro, Some(&[0])).is_err());
    assert!(norm(&a, NormOrder::P(3.0), Some(&[0, 1])).is_err());
    assert!(matches!(norm(&a, NormOrder::Default, Some(&[2])), Err(Error::AxisOutOfBounds { axis: 2, ndim: 2 })));
}
