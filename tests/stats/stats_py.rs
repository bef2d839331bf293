//! `ops::stats::stats_py`: reductions against sums written out here, the
//! `_axis_nan_policy` bookkeeping (omit, propagate, raise, too-small
//! slices and their warnings), ranks with ties, and errors.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::stats::stats_py::{self as st, Axis, NanPolicy, RankMethod, Warning};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn vector(v: &[f64]) -> Tensor {
    Tensor::from_slice(v)
}

fn close(got: f64, want: f64, rtol: f64) {
    assert!((got.is_nan() && want.is_nan()) || (got - want).abs() <= rtol * want.abs().max(1e-300), "{got} != {want}");
}

fn moments(v: &[f64]) -> (f64, f64, f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let m = |k: i32| v.iter().map(|x| (x - mean).powi(k)).sum::<f64>() / n;
    (mean, m(2), m(3), m(4))
}

const DATA: [f64; 8] = [2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0];

#[test]
fn skew_and_kurtosis_are_the_moment_ratios() {
    let (_, m2, m3, m4) = moments(&DATA);
    let x = vector(&DATA);
    let s = st::skew(&x, &Axis::Dims(vec![0]), true, NanPolicy::Propagate, false).unwrap();
    close(values(&s.values[0])[0], m3 / m2.powf(1.5), 1e-14);
    close(values(&s.values[0])[0], 0.265_055_412_269_857_3, 1e-13); // SciPy's docstring example
    let k = st::kurtosis(&x, &Axis::All, true, true, NanPolicy::Propagate, false).unwrap();
    close(values(&k.values[0])[0], m4 / (m2 * m2) - 3.0, 1e-14);
    assert!(s.warnings.is_empty() && k.warnings.is_empty());
}

#[test]
fn large_offsets_keep_the_shape_statistics() {
    let shifted: Vec<f64> = DATA.iter().map(|x| x + 1e9).collect();
    let a = st::skew(&vector(&shifted), &Axis::All, true, NanPolicy::Propagate, false).unwrap();
    close(values(&a.values[0])[0], 0.265_055_412_269_857_3, 1e-6);
}

#[test]
fn omit_leaves_nans_out_and_propagate_keeps_them() {
    let x = Tensor::from_slice(&[1.0, f64::NAN, 3.0, 4.0, 2.0, 2.0]).view([3, 2]);
    let omit = st::moment(&x, &[2.0], &Axis::Dims(vec![0]), NanPolicy::Omit, None, false).unwrap();
    let got = values(&omit.values[0]);
    close(got[0], moments(&[1.0, 3.0, 2.0]).1, 1e-14);
    close(got[1], moments(&[4.0, 2.0]).1, 1e-14);
    let prop = st::moment(&x, &[2.0], &Axis::Dims(vec![0]), NanPolicy::Propagate, None, false).unwrap();
    let got = values(&prop.values[0]);
    assert!(!got[0].is_nan() && got[1].is_nan());
    let raised = st::moment(&x, &[2.0], &Axis::Dims(vec![0]), NanPolicy::Raise, None, false);
    assert!(raised.is_err());
}

#[test]
fn too_small_slices_are_nan_with_scipys_warnings() {
    let one = st::sem(&vector(&[1.0]), &Axis::All, 1.0, NanPolicy::Propagate, false).unwrap();
    assert!(values(&one.values[0])[0].is_nan());
    assert_eq!(one.warnings, vec![Warning::SmallSample(st::TOO_SMALL_1D)]);
    let x = Tensor::from_slice(&[1.0, f64::NAN, 2.0, f64::NAN]).view([2, 2]);
    let omitted = st::skew(&x, &Axis::Dims(vec![0]), true, NanPolicy::Omit, false).unwrap();
    assert_eq!(omitted.warnings, vec![Warning::SmallSample(st::TOO_SMALL_ND_OMIT)]);
    assert!(values(&omitted.values[0])[1].is_nan());
    let empty = Tensor::zeros([0, 3], (Kind::Double, Device::Cpu));
    let r = st::skew(&empty, &Axis::Dims(vec![0]), true, NanPolicy::Propagate, true).unwrap();
    assert_eq!(r.values[0].size(), vec![1, 3]);
    assert_eq!(r.warnings, vec![Warning::SmallSample(st::TOO_SMALL_ND)]);
}

#[test]
fn tuple_axes_reduce_together() {
    tch::manual_seed(20261202);
    let x = Tensor::randn([3, 4, 5], (Kind::Double, Device::Cpu));
    let r = st::tmean(&x, &st::Limits::default(), &Axis::Dims(vec![0, 2]), NanPolicy::Propagate, true).unwrap();
    assert_eq!(r.values[0].size(), vec![1, 4, 1]);
    let want = values(&x.mean_dim([0i64, 2].as_slice(), false, Kind::Double));
    for (g, w) in values(&r.values[0]).iter().zip(&want) {
        close(*g, *w, 1e-13);
    }
    assert!(st::skew(&x, &Axis::Dims(vec![1, 1]), true, NanPolicy::Propagate, false).is_err());
    assert!(st::skew(&x, &Axis::Dims(vec![3]), true, NanPolicy::Propagate, false).is_err());
}

#[test]
fn ranks_with_ties() {
    let x = vector(&[3.0, 1.0, 3.0, 2.0, 3.0]);
    let cases = [
        (RankMethod::Average, vec![4.0, 1.0, 4.0, 2.0, 4.0]),
        (RankMethod::Min, vec![3.0, 1.0, 3.0, 2.0, 3.0]),
        (RankMethod::Max, vec![5.0, 1.0, 5.0, 2.0, 5.0]),
        (RankMethod::Dense, vec![3.0, 1.0, 3.0, 2.0, 3.0]),
        (RankMethod::Ordinal, vec![3.0, 1.0, 4.0, 2.0, 5.0]),
    ];
    for (method, want) in cases {
        let r = st::rankdata(&x, method, None, NanPolicy::Propagate).unwrap();
        assert_eq!(r.kind(), if method == RankMethod::Average { Kind::Double } else { Kind::Int64 });
        assert_eq!(values(&r), want, "{method:?}");
    }
    let with_nan = vector(&[2.0, f64::NAN, 1.0]);
    let omit = values(&st::rankdata(&with_nan, RankMethod::Average, None, NanPolicy::Omit).unwrap());
    assert_eq!(omit[0], 2.0);
    assert!(omit[1].is_nan());
    let prop = values(&st::rankdata(&with_nan, RankMethod::Min, None, NanPolicy::Propagate).unwrap());
    assert!(prop.iter().all(|v| v.is_nan()));
}

#[test]
fn mode_takes_the_smallest_of_the_most_frequent() {
    let x = Tensor::from_slice(&[3i64, 1, 3, 1, 2]);
    let r = st::mode(&x, &Axis::All, NanPolicy::Propagate, false).unwrap();
    assert_eq!(r.values[0].kind(), Kind::Int64);
    assert_eq!(values(&r.values[0]), vec![1.0]);
    assert_eq!(values(&r.values[1]), vec![2.0]);
}

#[test]
fn quantile_spreads_and_trimmed_means() {
    let x = vector(&(1..=9).map(f64::from).collect::<Vec<_>>());
    let iqr =
        st::iqr(&x, &Axis::All, (25.0, 75.0), 1.0, NanPolicy::Propagate, st::Interpolation::Linear, false).unwrap();
    close(values(&iqr.values[0])[0], 4.0, 1e-15);
    let mad = st::median_abs_deviation(&x, &Axis::All, 1.0, NanPolicy::Propagate, false).unwrap();
    close(values(&mad.values[0])[0], 2.0, 1e-15);
    let tm = st::trim_mean(&x, 0.25, &Axis::All, NanPolicy::Propagate, false).unwrap();
    close(values(&tm.values[0])[0], 5.0, 1e-15);
    assert!(st::trim_mean(&x, 0.6, &Axis::All, NanPolicy::Propagate, false).is_err());
}

#[test]
fn zscore_is_centred_and_scaled() {
    let x = vector(&DATA);
    let z = values(&st::zmap(&x, &x, Some(0), 0.0, NanPolicy::Propagate, true).unwrap());
    let (mean, m2, _, _) = moments(&DATA);
    for (g, v) in z.iter().zip(DATA) {
        close(*g, (v - mean) / m2.sqrt(), 1e-14);
    }
    let constant = vector(&[5.0, 5.0, 5.0]);
    assert!(values(&st::zmap(&constant, &constant, None, 0.0, NanPolicy::Propagate, true).unwrap())
        .iter()
        .all(|v| v.is_nan()));
}

#[test]
fn bad_arguments_are_errors() {
    assert!(NanPolicy::from_scipy("ignore").is_err());
    assert!(RankMethod::from_scipy("mean").is_err());
    let x = vector(&DATA);
    assert!(st::moment(&x, &[1.5], &Axis::All, NanPolicy::Propagate, None, false).is_err());
    assert!(st::moment(&x, &[], &Axis::All, NanPolicy::Propagate, None, false).is_err());
    assert!(st::entropy(&x, None, Some(-1.0), &Axis::All, NanPolicy::Propagate, false).is_err());
    let complex = x.to_kind(Kind::ComplexDouble);
    assert!(st::skew(&complex, &Axis::All, true, NanPolicy::Propagate, false).is_err());
}
