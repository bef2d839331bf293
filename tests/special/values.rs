//! Known values of every kernel family (computed with mpmath at 40 digits), and
//! the libtorch kernels they avoid.

use tch::Tensor;
use torchbridge::ops::special as sp;

use crate::common::{assert_rel, scalar, t64, values, Binary, Unary};

#[test]
fn unary_values_against_mpmath() {
    let cases: &[(&str, Unary, f64, f64, f64)] = &[
        // (name, routine, x, reference, rtol)
        ("ndtr", sp::ndtr, -9.0, 1.1285884059538405e-19, 4e-16),
        ("ndtr", sp::ndtr, -37.5, 4.605353009581955e-308, 4e-16),
        ("log_ndtr", sp::log_ndtr, -40.0, -804.6084420137538, 2e-16),
        ("log_ndtr", sp::log_ndtr, 20.0, -2.7536241186062337e-89, 4e-16),
        ("gamma", sp::gamma, -2.5, -0.9453087204829419, 4e-16),
        ("gamma", sp::gamma, 100.5, 9.320963104082716e+156, 2e-15),
        ("digamma", sp::digamma, 1.46, -0.0015805619870834522, 4e-16),
        ("psi", sp::psi, -0.5, 0.03648997397857652, 4e-16),
        ("j0", sp::j0, 30.0, -0.08636798358104021, 2e-15),
        ("y1", sp::y1, 0.1, -6.4589510947020266, 4e-16),
        ("j1", sp::j1, 1e10, -7.676508175684158e-06, 4e-16),
        ("y0", sp::y0, 7.0, -0.025949743967209265, 2e-14),
        ("zeta", sp::zeta, -7.5, 0.00326903957260022, 4e-16),
        ("zeta", sp::zeta, 0.5, -1.4603545088095868, 4e-16),
        ("erfcinv", sp::erfcinv, 1e-300, 26.209469960516124, 4e-16),
        ("log_expit", sp::log_expit, 40.0, -4.248354255291589e-18, 4e-16),
        ("logit", sp::logit, 0.4999999999999, -3.999023334699814e-13, 4e-16),
        ("logit", sp::logit, 0.3, -0.8472978603872037, 4e-16),
        ("logit", sp::logit, 0.65, 0.6190392084062235, 4e-16),
        ("logit", sp::logit, 0.9, 2.1972245773362196, 4e-16),
        ("logit", sp::logit, 1e-300, -690.7755278982137, 4e-16),
        ("logit", sp::logit, 0.0, f64::NEG_INFINITY, 0.0),
        ("logit", sp::logit, -0.0, f64::NEG_INFINITY, 0.0),
        ("logit", sp::logit, 1.0, f64::INFINITY, 0.0),
        ("logit", sp::logit, 1.5, f64::NAN, 0.0),
        ("erfcx", sp::erfcx, -5.0, 144009798674.66104, 4e-16),
        ("i0e", sp::i0e, 1e3, 0.012617240455891257, 4e-16),
        ("cbrt", sp::cbrt, -27.0, -3.0, 0.0),
        ("exp10", sp::exp10, -300.0, 1e-300, 4e-16),
        ("loggamma", sp::loggamma, -2.5, f64::NAN, 0.0),
        ("gamma", sp::gamma, -3.0, f64::NAN, 0.0),
        ("gamma", sp::gamma, 0.0, f64::INFINITY, 0.0),
        ("gamma", sp::gamma, -0.0, f64::NEG_INFINITY, 0.0),
        ("gamma", sp::gamma, 171.0, 7.257415615307999e306, 0.0),
        ("y0", sp::y0, 0.0, f64::NEG_INFINITY, 0.0),
        ("erfinv", sp::erfinv, 1.0, f64::INFINITY, 0.0),
        ("zeta", sp::zeta, -2.0, 0.0, 0.0),
    ];
    for &(name, routine, x, want, rtol) in cases {
        let got = scalar(&routine(&t64(&[x]).view([])).unwrap());
        assert_rel(got, want, rtol, &format!("{name}({x})"));
    }
}

#[test]
fn binary_values_against_mpmath() {
    let cases: &[(&str, Binary, f64, f64, f64, f64)] = &[
        ("gammainc", sp::gammainc, 30.0, 28.0, 0.3773896943143976, 2e-15),
        ("gammaincc", sp::gammaincc, 1e-300, 1.0, 2.193839343955203e-301, 1e-14),
        ("beta", sp::beta, 0.5, 30.0, 0.3249554203948302, 1e-15),
        ("binom", sp::binom, 7.5, 2.0, 24.375, 0.0),
        ("hurwitz_zeta", sp::hurwitz_zeta, 3.0, 0.25, 64.66386996876847, 1e-15),
        ("xlogy", sp::xlogy, 0.0, 0.0, 0.0, 0.0),
        ("rel_entr", sp::rel_entr, -1.0, 1.0, f64::INFINITY, 0.0),
        ("kl_div", sp::kl_div, 0.0, 2.0, 2.0, 0.0),
        ("boxcox", sp::boxcox, 2.0, 0.0, std::f64::consts::LN_2, 0.0),
        ("huber", sp::huber, -1.0, 1.0, f64::INFINITY, 0.0),
    ];
    for &(name, routine, a, b, want, rtol) in cases {
        let got = scalar(&routine(&t64(&[a]).view([]), &t64(&[b]).view([])).unwrap());
        assert_rel(got, want, rtol, &format!("{name}({a}, {b})"));
    }
    let pg = sp::polygamma(&Tensor::from_slice(&[3i64]), &t64(&[0.7])).unwrap();
    assert_rel(values(&pg)[0], 25.879149678427737, 1e-15, "polygamma(3, 0.7)");
}

#[test]
fn libtorch_traps_are_avoided() {
    // libtorch's own kernels, for contrast
    let x = t64(&[-9.0]);
    assert_eq!(scalar(&x.special_ndtr()), 0.0);
    assert!(scalar(&sp::ndtr(&x).unwrap()) > 1e-19);
    let garbage = Tensor::special_chebyshev_polynomial_u(&t64(&[f64::NAN]), &t64(&[2.0]));
    assert!(!scalar(&garbage).is_nan(), "libtorch returns uninitialised memory for nan x");
    assert!(scalar(&sp::eval_chebyu(&Tensor::from_slice(&[2i64]), &t64(&[f64::NAN])).unwrap()).is_nan());
    let exact = values(&sp::gamma(&t64(&[5.0, 11.0, 24.0])).unwrap());
    assert_eq!(exact, [24.0, 3628800.0, 25852016738884976640000.0]);
}
