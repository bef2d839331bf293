//! The correlations and tests of `ops::stats` (`stats_py`'s inference half,
//! `mannwhitneyu`, `morestats`, `entropy`) against SciPy 1.17.1's values for
//! small fixed samples (printed by SciPy and copied here), and errors.

use tch::{Kind, Tensor};
use torchbridge::ops::stats::entropy::{differential_entropy, EntropyMethod};
use torchbridge::ops::stats::mannwhitneyu::{mannwhitneyu, MwuMethod};
use torchbridge::ops::stats::morestats::{boxcox, yeojohnson};
use torchbridge::ops::stats::stats_py::{self as st, Alternative, Axis, KendallMethod, NanPolicy};

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

fn x() -> Tensor {
    Tensor::from_slice(&X)
}

fn y() -> Tensor {
    Tensor::from_slice(&Y)
}

#[test]
fn t_tests_match_scipy() {
    let r = st::ttest_1samp(&x(), &Tensor::from(3.0f64), &Axis::Dims(vec![0]), P, TWO, false).unwrap();
    close(&r.values[0], 0.799_520_713_248_375_1, 1e-13);
    close(&r.values[1], 0.450_262_824_655_865_76, 1e-12);
    close(&r.values[2], 7.0, 0.0);
    let y6 = y().narrow(0, 0, 6);
    let r = st::ttest_ind(&x(), &y6, &Axis::Dims(vec![0]), true, P, TWO, false).unwrap();
    close(&r.values[0], 0.273_749_938_623_934_26, 1e-13);
    close(&r.values[1], 0.788_931_746_594_892_1, 1e-12);
    let r = st::ttest_ind(&x(), &y6, &Axis::Dims(vec![0]), false, P, TWO, false).unwrap();
    close(&r.values[0], 0.283_384_607_775_795_3, 1e-13);
    close(&r.values[1], 0.781_745_299_827_003_6, 1e-12);
    close(&r.values[2], 11.915_911_697_280_5, 1e-13);
}

#[test]
fn correlations_match_scipy() {
    let r = st::pearsonr(&x(), &y(), TWO, Some(0)).unwrap();
    close(&r.values[0], 0.939_592_930_497_638_3, 1e-14);
    close(&r.values[1], 0.000_526_401_045_557_570_8, 1e-10);
    let r = st::kendalltau(&x(), &y(), P, KendallMethod::Auto, false, TWO, &Axis::All, false).unwrap();
    close(&r.values[0], 0.592_999_453_328_880_9, 1e-14);
    close(&r.values[1], 0.044_378_427_345_486_87, 1e-12);
    // no ties and 8 values: the exact distribution
    let z = Tensor::from_slice(&[3.0, 1.0, 4.0, 1.5, 9.0, 2.6, 5.0, 3.5]);
    let r = st::kendalltau(&y(), &z, P, KendallMethod::Auto, false, TWO, &Axis::All, false).unwrap();
    close(&r.values[0], -0.357_142_857_142_857_1, 1e-14);
    close(&r.values[1], 0.275_099_206_349_206_37, 1e-13);
    let r = st::spearmanr(&x(), Some(&y()), Some(0), P, TWO).unwrap();
    close(&r.values[0], 0.759_091_241_021_210_8, 1e-14);
    close(&r.values[1], 0.028_942_810_224_944_944, 1e-12);
    let r = st::linregress(&x(), &y(), TWO, &Axis::Dims(vec![0]), P, false).unwrap();
    let want = [0.693_348_365_276_211_9, 0.764_937_993_235_626, 0.939_592_930_497_638_1];
    for (v, w) in r.values.iter().zip(want) {
        close(v, w, 1e-13);
    }
    close(&r.values[4], 0.103_118_196_863_847_78, 1e-13);
    close(&r.values[5], 0.572_979_116_497_654_7, 1e-13);
}

#[test]
fn goodness_of_fit_anova_and_ranks_match_scipy() {
    let obs = Tensor::from_slice(&[16.0, 18.0, 16.0, 14.0, 12.0, 12.0]);
    let r = st::power_divergence(&obs, None, 0.0, &Axis::Dims(vec![0]), 1.0, true, P, false).unwrap();
    close(&r.values[0], 2.0, 1e-15);
    close(&r.values[1], 0.849_145_036_084_609_6, 1e-12);
    let (a, b) = (x().narrow(0, 0, 4), x().narrow(0, 4, 4));
    let r = st::f_oneway(&[&a, &b, &y()], &Axis::Dims(vec![0]), true, P, false).unwrap();
    close(&r.values[0], 0.159_479_553_903_345_73, 1e-13);
    close(&r.values[1], 0.854_230_225_188_729_8, 1e-12);
    let r = mannwhitneyu(
        &x().narrow(0, 0, 5),
        &y().narrow(0, 0, 4),
        true,
        TWO,
        &Axis::Dims(vec![0]),
        MwuMethod::Auto,
        P,
        false,
    )
    .unwrap();
    close(&r.values[0], 9.0, 0.0);
    close(&r.values[1], 0.901_704_803_731_654_8, 1e-12);
    let xy = Tensor::cat(&[x(), y()], 0);
    let r = differential_entropy(&xy, None, None, 0, EntropyMethod::Auto, P, false).unwrap();
    close(&r.values[0], 2.183_421_662_135_210_7, 1e-13);
}

#[test]
fn transforms_and_errors() {
    let t = Tensor::from_slice(&[0.5, 1.0, 2.0]);
    let b = values(&boxcox(&t, 0.5).unwrap());
    for (g, v) in b.iter().zip([0.5f64, 1.0, 2.0]) {
        assert!((g - 2.0 * (v.sqrt() - 1.0)).abs() < 1e-15);
    }
    let yj = values(&yeojohnson(&Tensor::from_slice(&[-1.0, 0.0, 3.0]), 0.0).unwrap());
    assert!((yj[0] - (-1.5)).abs() < 1e-15 && yj[1] == 0.0 && (yj[2] - 4f64.ln()).abs() < 1e-15);
    assert!(Alternative::from_scipy("two").is_err());
    assert!(st::pearsonr(&Tensor::from_slice(&[1.0]), &Tensor::from_slice(&[1.0]), TWO, Some(0)).is_err());
    let ties = Tensor::from_slice(&[1.0, 1.0, 2.0, 3.0]);
    assert!(st::kendalltau(&ties, &ties, P, KendallMethod::Exact, false, TWO, &Axis::All, false).is_err());
    assert!(st::lambda_by_name("pearsons").is_err());
    let r = st::ttest_1samp(&x(), &Tensor::from(0.0f64), &Axis::Dims(vec![0]), NanPolicy::Raise, TWO, false);
    assert!(r.is_ok());
}

#[test]
fn f_oneway_of_fewer_than_two_samples_is_an_error_not_a_panic() {
    let one = Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
    for samples in [vec![], vec![&one]] {
        let err = st::f_oneway(&samples, &Axis::Dims(vec![0]), true, NanPolicy::Propagate, false).err();
        assert!(
            matches!(err, Some(torchbridge::Error::InvalidArgument(ref m)) if m.contains("At least two samples")),
            "{err:?}"
        );
    }
}
