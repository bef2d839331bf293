//! Bad input across the family: singular matrices raise LinAlgError, non-finite
//! input the finiteness error unless `check_finite` is off.

use torchbridge::ops::linalg::{self as la, CheckFinite, SolveOptions};
use torchbridge::Error;

use crate::common::{assert_linalg_error, mat, values, vector};

#[test]
fn singular_and_non_finite_input() {
    let singular = mat(&[&[1.0, 2.0], &[2.0, 4.0]]);
    let b = vector(&[1.0, 1.0]);
    assert_linalg_error(la::solve(&singular, &b, &SolveOptions::default()), "solve");
    assert_linalg_error(la::inv(&singular, &Default::default()), "inv");
    assert_linalg_error(la::cholesky(&singular, &Default::default()), "cholesky");
    assert_linalg_error(la::solve_triangular(&mat(&[&[1.0, 1.0], &[0.0, 0.0]]), &b, &Default::default()), "trtrs");
    let nan = mat(&[&[1.0, f64::NAN], &[0.0, 1.0]]);
    match la::det(&nan, CheckFinite::Yes) {
        Err(Error::InvalidArgument(message)) => assert!(message.contains("infs or NaNs")),
        other => panic!("expected the finiteness error, got {:?}", other.map(|t| values(&t))),
    }
    let d = la::det(&nan, CheckFinite::No).unwrap();
    assert!(values(&d)[0].is_nan() || values(&d)[0] == 1.0);
}
