//! The order filters, wiener and deconvolve
//! (`ops::signal::signaltools::{order_filter, deconvolve}`): values quoted
//! from SciPy 1.17.1, the network against a sort, dtypes and errors.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::signaltools::deconvolve::deconvolve;
use torchbridge::ops::signal::signaltools::order_filter::{
    medfilt, medfilt2d, order_filter, selection_network, wiener, KernelSize,
};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

#[test]
fn the_pruned_networks_select_the_rank() {
    // every rank of every small size, on permutations with ties
    for n in 1..=12usize {
        for rank in 0..n {
            let network = selection_network(n, rank);
            for seed in 0..200u64 {
                let mut v: Vec<i64> = (0..n as u64).map(|i| ((i * 7919 + seed * 104729) % 13) as i64).collect();
                let mut sorted = v.clone();
                sorted.sort();
                for c in &network {
                    let (lo, hi) = (v[c.i].min(v[c.j]), v[c.i].max(v[c.j]));
                    v[c.i] = lo;
                    v[c.j] = hi;
                }
                assert_eq!(v[rank], sorted[rank], "n {n} rank {rank}");
            }
        }
    }
    // the median of 5 takes 12 elementwise ops
    let ops: usize = selection_network(5, 2).iter().map(|c| usize::from(c.min) + usize::from(c.max)).sum();
    assert_eq!(ops, 12);
}

#[test]
fn medfilt_known_values() {
    // scipy.signal.medfilt([3, 1, 4, 1, 5, 9, 2, 6], 3) and (..., 5)
    let x = Tensor::from_slice(&[3.0f64, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0]);
    let (y, wide) = medfilt(&x, Some(&KernelSize::Scalar(3))).unwrap();
    assert!(!wide);
    assert_eq!(values(&y), vec![1.0, 3.0, 1.0, 4.0, 5.0, 5.0, 6.0, 2.0]);
    let (y, _) = medfilt(&x, Some(&KernelSize::Scalar(5))).unwrap();
    assert_eq!(values(&y), vec![1.0, 1.0, 3.0, 4.0, 4.0, 5.0, 5.0, 2.0]);
    // the kernel wider than the input: the flag SciPy warns on
    let (_, wide) = medfilt(&Tensor::from_slice(&[1.0f64, 2.0]), None).unwrap();
    assert!(wide);
    // integers keep their dtype
    let (y, _) = medfilt(&Tensor::from_slice(&[5i32, -3, 7, 7, 0]), None).unwrap();
    assert_eq!(y.kind(), Kind::Int);
    assert_eq!(Vec::<i32>::try_from(&y).unwrap(), vec![0, 5, 7, 7, 0]);
}

#[test]
fn large_footprints_sort_and_agree_with_the_network() {
    tch::manual_seed(20261202);
    let x = Tensor::randn([30, 30], (Kind::Double, Device::Cpu));
    // 13 x 13 = 169 positions takes the sort path; compare with a direct sort of every window
    let (y, _) = medfilt(&x, Some(&KernelSize::Scalar(13))).unwrap();
    let padded = x.constant_pad_nd([6, 6, 6, 6]);
    let windows = padded.unfold(0, 13, 1).unfold(1, 13, 1).reshape([30, 30, 169]);
    let want = windows.sort(-1, false).0.select(-1, 84);
    assert_eq!(values(&y), values(&want));
    // 3 x 3 (the network)
    let (y, _) = medfilt2d(&x, &KernelSize::Scalar(3)).unwrap();
    let windows = x.constant_pad_nd([1, 1, 1, 1]).unfold(0, 3, 1).unfold(1, 3, 1).reshape([30, 30, 9]);
    assert_eq!(values(&y), values(&windows.sort(-1, false).0.select(-1, 4)));
}

#[test]
fn nan_under_the_footprint_gives_nan() {
    let x = Tensor::from_slice(&[1.0f64, f64::NAN, 3.0, 2.0, 5.0]);
    let (y, _) = medfilt(&x, None).unwrap();
    let v = values(&y);
    assert!(v[0].is_nan() && v[1].is_nan() && v[2].is_nan());
    assert_eq!(&v[3..], &[3.0, 2.0]);
}

#[test]
fn order_filter_domains() {
    let a = Tensor::arange(5, (Kind::Double, Device::Cpu));
    // scipy.signal.order_filter(arange(5.), [1, 0, 0], 0) looks one sample back
    let y = order_filter(&a, &Tensor::from_slice(&[1i64, 0, 0]), 0).unwrap();
    assert_eq!(values(&y), vec![0.0, 0.0, 1.0, 2.0, 3.0]);
    let y = order_filter(&a, &Tensor::from_slice(&[0i64, 0, 1]), 0).unwrap();
    assert_eq!(values(&y), vec![1.0, 2.0, 3.0, 4.0, 0.0]);
    // rank -1: the maximum
    let y = order_filter(&a, &Tensor::ones([3], (Kind::Double, Device::Cpu)), -1).unwrap();
    assert_eq!(values(&y), vec![1.0, 2.0, 3.0, 4.0, 4.0]);
    let err = |d: Tensor, r: i64| order_filter(&a, &d, r).unwrap_err().to_string();
    assert!(err(Tensor::ones([2], (Kind::Double, Device::Cpu)), 0).contains("odd number of elements"));
    assert!(err(Tensor::ones([3], (Kind::Double, Device::Cpu)), 3).contains("rank not within filter footprint size"));
    assert!(err(Tensor::zeros([3], (Kind::Double, Device::Cpu)), 0).contains("rank not within"));
    assert!(err(Tensor::ones([3, 3], (Kind::Double, Device::Cpu)), 0).contains("same number of dimensions"));
    let bools = Tensor::from_slice(&[true, false, true]);
    let msg = order_filter(&bools, &Tensor::ones([3], (Kind::Double, Device::Cpu)), 0).unwrap_err().to_string();
    assert!(msg.contains("dtype=bool is not supported by order_filter"), "{msg}");
}

#[test]
fn kernel_size_errors() {
    let x = Tensor::ones([4, 4], (Kind::Double, Device::Cpu));
    let err = |k: KernelSize| medfilt(&x, Some(&k)).unwrap_err().to_string();
    assert!(err(KernelSize::Scalar(4)).contains("should be odd"));
    assert!(err(KernelSize::Scalar(-1)).contains("positive"));
    assert!(err(KernelSize::PerAxis(vec![3])).contains("one size per dimension"));
    let msg = medfilt2d(&Tensor::ones([5], (Kind::Double, Device::Cpu)), &KernelSize::Scalar(3)).unwrap_err();
    assert!(msg.to_string().contains("2-d"));
    let msg = medfilt2d(&x, &KernelSize::PerAxis(vec![3, 3, 3])).unwrap_err();
    assert!(msg.to_string().contains("length two sequence"));
}

#[test]
fn wiener_known_values() {
    // scipy.signal.wiener(arange(6.).reshape(2, 3), 2) (warnings aside)
    let im = Tensor::arange(6, (Kind::Double, Device::Cpu)).view([2, 3]);
    let y = wiener(&im, Some(&KernelSize::Scalar(2)), None).unwrap();
    let want = [0.0, 0.25, 0.75, 1.319_444_444_444_444_4, 2.991_666_666_666_666_6, 3.991_666_666_666_666_6];
    for (g, w) in values(&y).iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{g} vs {w}");
    }
    assert_eq!(y.kind(), Kind::Double);
    let complex = Tensor::ones([4], (Kind::ComplexDouble, Device::Cpu));
    assert!(wiener(&complex, None, None).unwrap_err().to_string().contains("not implemented"));
}

#[test]
fn deconvolve_known_values() {
    // scipy.signal.deconvolve([1, 2, 3, 4], [1, 2]) == ([1, 0, 3], [0, 0, 0, -2])
    let (q, r) = deconvolve(&Tensor::from_slice(&[1i64, 2, 3, 4]), &Tensor::from_slice(&[1i64, 2])).unwrap();
    assert_eq!(values(&q), vec![1.0, 0.0, 3.0]);
    assert_eq!(values(&r), vec![0.0, 0.0, 0.0, -2.0]);
    assert_eq!(q.kind(), Kind::Double);
    // the divisor longer: empty quotient, the signal back
    let s = Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
    let (q, r) = deconvolve(&s, &Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0])).unwrap();
    assert_eq!(q.size(), vec![0]);
    assert_eq!(values(&r), vec![1.0, 2.0, 3.0]);
    let msg = deconvolve(&Tensor::zeros([0], (Kind::Double, Device::Cpu)), &s).unwrap_err().to_string();
    assert!(msg.contains("Parameter signal must be non-empty 1d array, but its shape is (0,)!"), "{msg}");
}
