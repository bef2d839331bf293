//! The incomplete beta family and the incomplete gamma inverses: values
//! (mpmath, 40 digits), round trips, SciPy's edges and the ternary loops.

use tch::{Kind, Tensor};
use torchbridge::ops::special as sp;

use crate::common::{assert_rel, t64, values};

#[test]
fn betainc_known_values() {
    let a = t64(&[2.0, 0.5, 2e3]);
    let b = t64(&[3.0, 1e4, 3e3]);
    let x = t64(&[0.3, 1e-3, 0.41]);
    let lower = values(&sp::betainc(&a, &b, &x).unwrap());
    let upper = values(&sp::betaincc(&a, &b, &x).unwrap());
    assert_rel(lower[0], 0.3483, 1e-14, "betainc(2, 3, 0.3)");
    assert_rel(lower[1], MPMATH_SMALL_A, 1e-12, "betainc(0.5, 1e4, 1e-3)");
    assert_rel(upper[2], MPMATH_LARGE, 1e-12, "betaincc(2e3, 3e3, 0.41)");
}

const MPMATH_SMALL_A: f64 = 0.9999922941884307;
const MPMATH_LARGE: f64 = 0.07473787379169583;

#[test]
fn inverses_round_trip() {
    let a = t64(&[0.5, 2.0, 30.0, 1e3]);
    let b = t64(&[4.0, 0.2, 50.0, 2e3]);
    let p = t64(&[1e-20, 0.3, 0.999, 0.5]);
    let x = sp::betaincinv(&a, &b, &p).unwrap();
    let back = values(&sp::betainc(&a, &b, &x).unwrap());
    for (got, want) in back.iter().zip(values(&p)) {
        assert_rel(*got, want, 1e-13, "betainc(betaincinv)");
    }
    let g = sp::gammaincinv(&a, &p).unwrap();
    let back = values(&sp::gammainc(&a, &g).unwrap());
    for (got, want) in back.iter().zip(values(&p)) {
        assert_rel(*got, want, 1e-13, "gammainc(gammaincinv)");
    }
}

#[test]
fn edges_and_loops() {
    let nan = f64::NAN;
    let got = values(
        &sp::betainc(&t64(&[0.0, -1.0, 2.0, 2.0]), &t64(&[3.0, 3.0, 0.0, 3.0]), &t64(&[0.3, 0.3, 0.3, 1.0])).unwrap(),
    );
    let want = [1.0, nan, 0.0, 1.0];
    for (g, w) in got.iter().zip(want) {
        assert_rel(*g, w, 0.0, "betainc edges");
    }
    // float32 in, float32 out; integer counts take SciPy's lld->d loop
    let f = Tensor::from_slice(&[0.5f32]);
    assert_eq!(sp::betainc(&f, &f, &f).unwrap().kind(), Kind::Float);
    let k = Tensor::from_slice(&[3i64]);
    let n = Tensor::from_slice(&[5i64]);
    let out = sp::nbdtr(&k, &n, &t64(&[0.4])).unwrap();
    assert_eq!(out.kind(), Kind::Double);
    assert_rel(values(&out)[0], 0.1736704, 1e-13, "nbdtr(3, 5, 0.4)");
}
