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

/// The CPU kernel (`csrc/incbet.cpp`, taken by float64 CPU tensors) and the
/// libtorch-op composite (taken by a tensor that requires grad) compute the
/// same formulas over both sides of the symmetry switch, small and large
/// parameters (the Stirling branch) and the tails: of `I` and `1 - I` the one
/// the fraction computes agrees to a few ulps relative, the other (`1 -` it)
/// to a few ulps absolute.
#[test]
fn kernel_matches_composite() {
    let mut a = vec![];
    let mut b = vec![];
    let mut x = vec![];
    for &p in &[1e-3, 0.3, 1.0, 2.5, 7.9, 8.0, 30.0, 1e3, 1e5] {
        for &q in &[2e-3, 0.5, 4.0, 8.5, 200.0, 5e4] {
            for &v in &[1e-12, 1e-3, 0.1, 0.5, 0.77, 0.999, 1.0 - 1e-9] {
                a.push(p);
                b.push(q);
                x.push(v);
            }
        }
    }
    let (a, b, x) = (t64(&a), t64(&b), t64(&x));
    let traced = x.copy().set_requires_grad(true);
    let pair = |x: &Tensor| {
        let lower = values(&sp::betainc(&a, &b, x).unwrap().detach());
        let upper = values(&sp::betaincc(&a, &b, x).unwrap().detach());
        (lower, upper)
    };
    let (kernel, composite) = (pair(&x), pair(&traced));
    for i in 0..kernel.0.len() {
        let (kl, ku, cl, cu) = (kernel.0[i], kernel.1[i], composite.0[i], composite.1[i]);
        let relative = |k: f64, c: f64| (k - c).abs() / k.abs().max(f64::MIN_POSITIVE);
        let close =
            relative(kl, cl).min(relative(ku, cu)) <= 1e-13 && (kl - cl).abs() <= 1e-14 && (ku - cu).abs() <= 1e-14;
        assert!(close, "element {i}: kernel ({kl:e}, {ku:e}), composite ({cl:e}, {cu:e})");
    }
    // t's CDF goes through the same pair
    let df = t64(&[0.5, 3.0, 40.0, 1e6]);
    let t = t64(&[-30.0, -1.5, 0.25, 4.0]);
    let kernel = values(&sp::stdtr(&df, &t).unwrap());
    let composite = values(&sp::stdtr(&df, &t.copy().set_requires_grad(true)).unwrap().detach());
    for (k, c) in kernel.iter().zip(&composite) {
        assert!((k - c).abs() <= 1e-13 * k.abs(), "stdtr: kernel {k:e}, composite {c:e}");
    }
}

/// An inverse whose answer rounds to 1: its iterates reach `x = 1` with `y = 1 - x`
/// still positive, which the kernel must take as the composite does (SciPy: 1.0).
#[test]
fn inverse_next_to_one() {
    let got = values(
        &sp::betainccinv(&t64(&[14.915911856105058]), &t64(&[0.028580726316873584]), &t64(&[0.2881760889580641]))
            .unwrap(),
    );
    assert_eq!(got[0], 1.0);
}
