//! The nonparametric tests and estimators of `ops::stats` (`ks_1samp`,
//! `ks_2samp`, `wilcoxon`, `theilslopes`, `binned_statistic`) against SciPy
//! 1.17.1's values for small fixed samples (printed by SciPy and copied
//! here), and errors.

use tch::{Kind, Tensor};
use torchbridge::ops::stats::binned_statistic::{binned_statistic, BinStatistic, Bins};
use torchbridge::ops::stats::morestats::{wilcoxon, WilcoxonMethod, ZeroMethod};
use torchbridge::ops::stats::stats_mstats_common::{theilslopes, TheilMethod};
use torchbridge::ops::stats::stats_py::{self as st, Alternative, Axis, Ks1Method, Ks2Method, NanPolicy};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn close(got: &Tensor, want: f64, rtol: f64) {
    let got = values(got)[0];
    assert!((got - want).abs() <= rtol * want.abs(), "{got} != {want}");
}

const X: [f64; 8] = [2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0];
const Y: [f64; 8] = [1.0, 7.0, 2.0, 3.0, 0.5, 8.0, 6.0, 1.5];
const TWO: Alternative = Alternative::TwoSided;
const P: NanPolicy = NanPolicy::Propagate;

#[test]
fn ks_tests_match_scipy() {
    let (x, y) = (Tensor::from_slice(&X), Tensor::from_slice(&Y));
    let axis = Axis::Dims(vec![0]);
    let r = st::ks_2samp(&x, &y, TWO, Ks2Method::Auto, &axis, P, false).unwrap();
    close(&r.values[0], 0.25, 1e-15);
    close(&r.values[1], 0.980_108_780_108_78, 1e-13);
    close(&r.values[2], 0.0, 0.0);
    assert_eq!(values(&r.values[3]), vec![1.0]);
    let uniform = |t: &Tensor| Ok(t.shallow_clone());
    let r = st::ks_1samp(&(y / 10.0), uniform, TWO, Ks1Method::Auto, &axis, P, false).unwrap();
    close(&r.values[0], 0.325, 1e-15);
    close(&r.values[1], 0.297_509_883_386_230_4, 1e-12);
    close(&r.values[2], 0.3, 1e-15);
    assert!(matches!(Ks2Method::from_scipy("fast"), Err(torchbridge::Error::InvalidArgument(_))));
}

#[test]
fn wilcoxon_matches_scipy() {
    let (x, y) = (Tensor::from_slice(&X), Tensor::from_slice(&Y));
    let axis = Axis::Dims(vec![0]);
    let r = wilcoxon(&x, Some(&y), ZeroMethod::Wilcox, false, TWO, WilcoxonMethod::Auto, &axis, P, false).unwrap();
    close(&r.values[0], 13.0, 0.0);
    close(&r.values[1], 0.523_437_5, 1e-15);
    let d = x - y + 0.25;
    let r = wilcoxon(&d, None, ZeroMethod::Wilcox, false, TWO, WilcoxonMethod::Asymptotic, &axis, P, false).unwrap();
    assert_eq!(r.values.len(), 3);
    close(&r.values[0], 11.0, 0.0);
    close(&r.values[1], 0.314_828_756_898_160_9, 1e-13);
}

#[test]
fn theilslopes_and_binned_statistic_match_scipy() {
    let (x, y) = (Tensor::from_slice(&X), Tensor::from_slice(&Y));
    let r = theilslopes(&y, Some(&x), 0.95, TheilMethod::Separate, &Axis::All, P, false).unwrap();
    close(&r.values[0], 0.677_083_333_333_333_3, 1e-15);
    close(&r.values[1], 0.468_75, 1e-15);
    close(&r.values[2], -0.25, 1e-15);
    close(&r.values[3], 1.0, 1e-15);
    let (s, e, b) = binned_statistic(&x, &y, BinStatistic::Median, Bins::Count(3), None).unwrap();
    assert_eq!(values(&s), vec![1.25, 3.0, 7.0]);
    assert_eq!(values(&e), vec![0.0, 3.0, 6.0, 9.0]);
    assert_eq!(values(&b), vec![1.0, 3.0, 1.0, 2.0, 1.0, 3.0, 3.0, 1.0]);
    let edges = Bins::Edges(Tensor::from_slice(&[0.0, 1.0, 1.0]));
    assert!(binned_statistic(&x, &y, BinStatistic::Sum, edges, None).is_err());
}
