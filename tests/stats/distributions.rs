//! The distributions of `ops::stats` (`continuous_distns`, `discrete_distns`,
//! `distn_infrastructure`) against SciPy 1.17.1's values (printed by SciPy
//! and copied here), SciPy's nan for invalid parameters, the support's ends,
//! sampling, and the errors for unknown names.

use tch::{Kind, Tensor};
use torchbridge::ops::stats::distn_infrastructure::{self as di, Distribution, Method, Moment};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn s(v: f64) -> Tensor {
    Tensor::from(v)
}

fn eval(name: &str, method: &str, x: f64, args: &[f64], loc: f64, scale: f64) -> f64 {
    let args: Vec<Tensor> = args.iter().map(|&a| s(a)).collect();
    let dist = Distribution::from_name(name).unwrap();
    let method = Method::from_name(method).unwrap();
    values(&di::evaluate(dist, method, &s(x), &args, &s(loc), &s(scale)).unwrap())[0]
}

fn close(got: f64, want: f64, rtol: f64) {
    assert!((got - want).abs() <= rtol * want.abs(), "{got} != {want}");
}

#[test]
fn pointwise_methods_match_scipy() {
    close(eval("norm", "cdf", 1.3, &[], 0.5, 2.0), 0.655_421_741_610_324_2, 1e-15);
    close(eval("gamma", "ppf", 0.3, &[2.5], 0.0, 3.0), 4.499_862_199_139_86, 1e-13);
    close(eval("t", "logpdf", 0.7, &[4.5], 0.0, 1.0), -1.258_296_600_004_967_8, 1e-14);
    close(eval("beta", "sf", 0.4, &[2.3, 3.7], 0.0, 1.0), 0.441_699_591_202_306_7, 1e-13);
    close(eval("poisson", "pmf", 3.0, &[3.7], 0.0, 1.0), 0.208_720_131_050_350_25, 1e-14);
    close(eval("binom", "cdf", 4.0, &[12.0, 0.35], 0.0, 1.0), 0.583_345_050_488_947_7, 1e-13);
    assert_eq!(eval("nbinom", "ppf", 0.6, &[4.5, 0.4], 0.0, 1.0), 7.0);
    assert_eq!(eval("poisson", "ppf", 0.5, &[3.7], 0.0, 1.0), 4.0);
    // far tails, as SciPy's
    close(eval("norm", "logcdf", -40.0, &[], 0.0, 1.0), -804.608_442_013_753_9, 1e-14);
    close(eval("expon", "logsf", 1e3, &[], 0.0, 1.0), -1e3, 1e-15);
}

#[test]
fn invalid_parameters_and_support_ends() {
    assert!(eval("norm", "pdf", 0.0, &[], 0.0, -1.0).is_nan());
    assert!(eval("gamma", "cdf", 1.0, &[-2.0], 0.0, 1.0).is_nan());
    assert!(eval("binom", "pmf", 1.0, &[2.5, 0.3], 0.0, 1.0).is_nan());
    assert_eq!(eval("expon", "cdf", -1.0, &[], 0.0, 1.0), 0.0);
    assert_eq!(eval("beta", "cdf", 2.0, &[2.0, 3.0], 0.0, 1.0), 1.0);
    assert_eq!(eval("beta", "ppf", 1.0, &[2.0, 3.0], 1.0, 2.0), 3.0);
    assert_eq!(eval("norm", "ppf", 0.0, &[], 0.0, 1.0), f64::NEG_INFINITY);
    assert_eq!(eval("poisson", "ppf", 0.0, &[2.0], 0.0, 1.0), -1.0);
    assert_eq!(eval("binom", "isf", 0.0, &[7.0, 0.5], 2.0, 1.0), 9.0);
}

#[test]
fn moments_match_scipy() {
    let dist = Distribution::from_name("gamma").unwrap();
    let which = Moment::parse("mvske").unwrap();
    let got = di::moments(dist, &which, &[s(2.5)], &s(0.0), &s(3.0)).unwrap();
    let got: Vec<f64> = got.iter().map(|t| values(t)[0]).collect();
    close(got[0], 7.5, 1e-15);
    close(got[1], 22.5, 1e-15);
    close(got[2], 1.264_911_064_067_351_8, 1e-15);
    close(got[3], 2.4, 1e-15);
    close(got[4], 1.729_947_909_505_054_5 + 3f64.ln(), 1e-14);
    assert!(Moment::parse("mx").is_err());
}

#[test]
fn sampling_inverts_the_cdf() {
    let u = Tensor::from_slice(&[0.1, 0.5, 0.9]);
    let dist = Distribution::from_name("expon").unwrap();
    let x = values(&di::sample(dist, &u, &[], &s(1.0), &s(2.0)).unwrap());
    close(x[0], 1.0 - 2.0 * 0.9f64.ln(), 1e-15);
    let poisson = Distribution::from_name("poisson").unwrap();
    let k = di::sample(poisson, &u, &[s(3.7)], &s(0.0), &s(1.0)).unwrap();
    assert_eq!(k.kind(), Kind::Int64);
    assert!(di::rvs_parameters_valid(poisson, &[s(3.7)], &s(1.0)).unwrap());
    assert!(!di::rvs_parameters_valid(poisson, &[s(-3.7)], &s(1.0)).unwrap());
}

#[test]
fn unknown_names_and_wrong_arity_are_errors() {
    assert!(Distribution::from_name("nope").is_err());
    assert!(Method::from_name("pdff").is_err());
    let gamma = Distribution::from_name("gamma").unwrap();
    assert!(di::evaluate(gamma, Method::Cdf, &s(1.0), &[], &s(0.0), &s(1.0)).is_err());
    assert_eq!(gamma.shapes(), &["a"]);
}
