//! `ops::spatial::distance`: cdist/pdist against per-pair sums, the exact
//! recomputation where the euclidean expansion cancels, squareform, errors.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::spatial::distance::{self as dist, Force, Metric, Params};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn random(rows: i64, cols: i64) -> Tensor {
    tch::manual_seed(20261202);
    Tensor::randn([rows, cols], (Kind::Double, Device::Cpu))
}

/// A distance between two rows, written out as a sum.
type PairDistance = fn(&[f64], &[f64]) -> f64;

fn rows_of(t: &Tensor) -> Vec<Vec<f64>> {
    let cols = t.size()[1] as usize;
    values(t).chunks(cols).map(<[f64]>::to_vec).collect()
}

#[test]
fn cdist_is_the_sum_over_pairs() {
    let (a, b) = (random(7, 5), random(4, 5).f_mul_scalar(2.0).unwrap());
    let (ra, rb) = (rows_of(&a), rows_of(&b));
    let metrics: [(Metric, PairDistance); 4] = [
        (Metric::Euclidean, |u, v| u.iter().zip(v).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()),
        (Metric::Cityblock, |u, v| u.iter().zip(v).map(|(x, y)| (x - y).abs()).sum()),
        (Metric::Chebyshev, |u, v| u.iter().zip(v).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)),
        (Metric::Braycurtis, |u, v| {
            u.iter().zip(v).map(|(x, y)| (x - y).abs()).sum::<f64>()
                / u.iter().zip(v).map(|(x, y)| (x + y).abs()).sum::<f64>()
        }),
    ];
    for (metric, direct) in metrics {
        let got = values(&dist::cdist(&a, &b, metric, &Params::default()).unwrap());
        let want: Vec<f64> = ra.iter().flat_map(|u| rb.iter().map(move |v| direct(u, v))).collect();
        for (g, w) in got.iter().zip(&want) {
            assert!((g - w).abs() <= 1e-13 * w.abs().max(1.0), "{metric:?}: {g} vs {w}");
        }
    }
}

#[test]
fn near_points_far_from_the_origin_keep_their_digits() {
    // the expansion |x|^2 + |y|^2 - 2 x.y cancels here: the distances must still be exact to 1e-12
    let base = random(1, 8).f_add_scalar(1e6).unwrap();
    let offsets = random(6, 8).f_mul_scalar(1e-3).unwrap();
    let points = base.f_add(&offsets).unwrap();
    let got = values(&dist::cdist(&points, &points, Metric::Euclidean, &Params::default()).unwrap());
    let p = rows_of(&points);
    for (k, g) in got.iter().enumerate() {
        let (i, j) = (k / 6, k % 6);
        let want = p[i].iter().zip(&p[j]).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt();
        assert!((g - want).abs() <= 1e-12 * want.max(1e-300) || (i == j && *g == 0.0), "({i}, {j}): {g} vs {want}");
    }
}

#[test]
fn pdist_and_squareform_agree_with_cdist() {
    let x = random(6, 3);
    let square = dist::cdist(&x, &x, Metric::Sqeuclidean, &Params::default()).unwrap();
    let condensed = dist::pdist(&x, Metric::Sqeuclidean, &Params::default()).unwrap();
    assert_eq!(condensed.size(), vec![15]);
    let back = dist::squareform(&condensed, Force::No, true).unwrap();
    let (b, s) = (values(&back), values(&square));
    for (g, w) in b.iter().zip(&s) {
        assert!((g - w).abs() <= 1e-13 * w.abs().max(1.0));
    }
    let again = dist::squareform(&back, Force::ToVector, true).unwrap();
    assert_eq!(values(&again), values(&condensed));
}

#[test]
fn bad_input_is_an_error() {
    let (a, b) = (random(3, 4), random(3, 5));
    assert!(dist::cdist(&a, &b, Metric::Euclidean, &Params::default()).is_err()); // feature counts differ
    assert!(dist::cdist(&a.view([-1]), &a, Metric::Euclidean, &Params::default()).is_err()); // not 2-D
    assert!(Metric::from_scipy("no-such-metric").is_err());
    let w = Params { w: Some(Tensor::from_slice(&[1.0f64, -1.0, 1.0, 1.0])), ..Default::default() };
    assert!(dist::cdist(&a, &a, Metric::Euclidean, &w).is_err()); // negative weight
                                                                  // mahalanobis without VI needs more points (of XA and XB together) than features
    let few = random(2, 4);
    assert!(dist::cdist(&few, &few, Metric::Mahalanobis, &Params::default()).is_err());
    assert!(dist::squareform(&Tensor::ones([4], (Kind::Double, Device::Cpu)), Force::No, true).is_err());
    // not m(m-1)/2
}
