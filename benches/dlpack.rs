//! Criterion benchmarks of the torchbridge bridge and of a few libtorch
//! routines against their plain-`ndarray` counterparts, on the CPU, in f64.
//!
//! What is timed:
//!
//! - `from_ndarray`: moving an owned `Array1<f64>` of 10 .. 1e7 elements into
//!   a `tch::Tensor` and dropping that tensor (DLPack descriptor, libtorch
//!   tensor, deleter, and freeing the array's buffer). Allocating and filling
//!   the input array is excluded (`iter_batched` setup).
//! - `dlpack_round_trip`: `export_versioned` + `import` of an existing tensor,
//!   and dropping the re-imported view. No data is touched, so it should be
//!   flat across sizes; the data itself is never copied.
//! - `erf`: `ops::special::erf` on an existing tensor (result allocation
//!   included) against `Array::mapv` with a scalar W. J. Cody rational
//!   approximation (`cody_erf`, ~1e-16 relative error, checked against
//!   libtorch before timing), single-threaded.
//! - `sum_axis0`: column sums of a 1000x1000 matrix, `f_sum_dim_intlist` vs
//!   `ndarray::sum_axis`.
//! - `matmul`: 256x256 by 256x256, `f_matmul` vs `ndarray::dot`.
//!
//! What is left out: converting results back to `ndarray` (`to_ndarray`
//! copies; `with_ndarray_view` is free), GPU devices, other dtypes, and
//! thread-count control. libtorch runs its intra-op thread pool (all cores
//! by default) while the `ndarray` side is single-threaded and, without a
//! BLAS feature, `dot` uses the `matrixmultiply` crate: the comparisons
//! show what a caller gets out of the box, not per-core efficiency.
//!
//! Settings are deliberately quick (10 samples, 1 s measurement, 0.3 s
//! warm-up): `cargo bench --bench dlpack`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use ndarray::{Array1, Array2, Axis};
use tch::{Kind, Tensor};
use torchbridge::dlpack::{export_versioned, import, ManagedDlpack};
use torchbridge::{from_ndarray, to_ndarray};

const SIZES: [usize; 4] = [10, 1_000, 100_000, 10_000_000];

fn input(n: usize) -> Array1<f64> {
    Array1::from_shape_fn(n, |i| (i % 1000) as f64 / 250.0 - 2.0)
}

fn batch_size(n: usize) -> BatchSize {
    if n >= 1_000_000 {
        BatchSize::PerIteration
    } else {
        BatchSize::LargeInput
    }
}

/// `erf(x)` after W. J. Cody, "Rational Chebyshev approximations for the
/// error function", Math. Comp. 23 (1969), as in his CALERF routine.
#[allow(clippy::excessive_precision, clippy::needless_range_loop)]
fn cody_erf(x: f64) -> f64 {
    const A: [f64; 5] = [
        3.16112374387056560e00,
        1.13864154151050156e02,
        3.77485237685302021e02,
        3.20937758913846947e03,
        1.85777706184603153e-1,
    ];
    const B: [f64; 4] =
        [2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03, 2.84423683343917062e03];
    const C: [f64; 9] = [
        5.64188496988670089e-1,
        8.88314979438837594e00,
        6.61191906371416295e01,
        2.98635138197400131e02,
        8.81952221241769090e02,
        1.71204761263407058e03,
        2.05107837782607147e03,
        1.23033935479799725e03,
        2.15311535474403846e-8,
    ];
    const D: [f64; 8] = [
        1.57449261107098347e01,
        1.17693950891312499e02,
        5.37181101862009858e02,
        1.62138957456669019e03,
        3.29079923573345963e03,
        4.36261909014324716e03,
        3.43936767414372164e03,
        1.23033935480374942e03,
    ];
    const P: [f64; 6] = [
        3.05326634961232344e-1,
        3.60344899949804439e-1,
        1.25781726111229246e-1,
        1.60837851487422766e-2,
        6.58749161529837803e-4,
        1.63153871373020978e-2,
    ];
    const Q: [f64; 5] = [
        2.56852019228982242e00,
        1.87295284992346725e00,
        5.27905102951428412e-1,
        6.05183413124413191e-2,
        2.33520497626869185e-3,
    ];
    const FRAC_1_SQRT_PI: f64 = 5.6418958354775628695e-1;

    if x.is_nan() {
        return x;
    }
    let y = x.abs();
    if y <= 0.468_75 {
        let ysq = y * y;
        let mut num = A[4] * ysq;
        let mut den = ysq;
        for i in 0..3 {
            num = (num + A[i]) * ysq;
            den = (den + B[i]) * ysq;
        }
        return x * (num + A[3]) / (den + B[3]);
    }
    // erfc(y) = exp(-y^2) * R(y), with exp(-y^2) split to keep accuracy.
    let ratio = if y <= 4.0 {
        let mut num = C[8] * y;
        let mut den = y;
        for i in 0..7 {
            num = (num + C[i]) * y;
            den = (den + D[i]) * y;
        }
        (num + C[7]) / (den + D[7])
    } else if y < 27.0 {
        let zsq = 1.0 / (y * y);
        let mut num = P[5] * zsq;
        let mut den = zsq;
        for i in 0..4 {
            num = (num + P[i]) * zsq;
            den = (den + Q[i]) * zsq;
        }
        let r = zsq * (num + P[4]) / (den + Q[4]);
        (FRAC_1_SQRT_PI - r) / y
    } else {
        0.0
    };
    let ysq = (y * 16.0).trunc() / 16.0;
    let del = (y - ysq) * (y + ysq);
    let erfc = (-ysq * ysq).exp() * (-del).exp() * ratio;
    let erf = (0.5 - erfc) + 0.5;
    if x < 0.0 {
        -erf
    } else {
        erf
    }
}

/// The scalar `erf` must agree with libtorch before its speed means anything.
fn check_cody_erf() {
    let x = Array1::from_shape_fn(2001, |i| (i as f64 - 1000.0) / 150.0);
    let ours = x.mapv(cody_erf);
    let theirs = to_ndarray::<f64>(&torchbridge::ops::special::erf(&from_ndarray(x.clone()).unwrap()).unwrap())
        .expect("f64 result");
    for ((&xi, &a), &b) in x.iter().zip(&ours).zip(&theirs) {
        assert!((a - b).abs() <= 1e-15 + 1e-13 * b.abs(), "cody_erf({xi}) = {a}, libtorch {b}");
    }
}

fn from_ndarray_group(c: &mut Criterion) {
    let mut group = c.benchmark_group("from_ndarray");
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter_batched(|| input(n), |a| drop(black_box(from_ndarray(a).unwrap())), batch_size(n));
        });
    }
    group.finish();
}

fn round_trip_group(c: &mut Criterion) {
    let mut group = c.benchmark_group("dlpack_round_trip");
    for n in SIZES {
        let t = from_ndarray(input(n)).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(n), &t, |b, t| {
            b.iter(|| {
                let managed = export_versioned(black_box(t)).unwrap();
                black_box(import(ManagedDlpack::Versioned(managed)).unwrap().tensor)
            });
        });
    }
    group.finish();
}

fn erf_group(c: &mut Criterion) {
    check_cody_erf();
    let mut group = c.benchmark_group("erf");
    for n in SIZES {
        group.throughput(Throughput::Elements(n as u64));
        let a = input(n);
        let t = from_ndarray(a.clone()).unwrap();
        group.bench_with_input(BenchmarkId::new("torchbridge", n), &t, |b, t| {
            b.iter(|| torchbridge::ops::special::erf(black_box(t)).unwrap());
        });
        group.bench_with_input(BenchmarkId::new("ndarray_mapv", n), &a, |b, a| {
            b.iter(|| black_box(a).mapv(cody_erf));
        });
    }
    group.finish();
}

fn sum_axis_group(c: &mut Criterion) {
    let mut group = c.benchmark_group("sum_axis0");
    let n = 1000;
    let a = Array2::from_shape_fn((n, n), |(i, j)| ((i * 7 + j * 13) % 101) as f64);
    let t = from_ndarray(a.clone()).unwrap();
    group.throughput(Throughput::Elements((n * n) as u64));
    group.bench_with_input(BenchmarkId::new("tch", "1000x1000"), &t, |b, t| {
        b.iter(|| black_box(t).f_sum_dim_intlist([0i64].as_slice(), false, Kind::Double).unwrap());
    });
    group.bench_with_input(BenchmarkId::new("ndarray", "1000x1000"), &a, |b, a| {
        b.iter(|| black_box(a).sum_axis(Axis(0)));
    });
    group.finish();
}

fn matmul_group(c: &mut Criterion) {
    let mut group = c.benchmark_group("matmul");
    let n = 256;
    let a = Array2::from_shape_fn((n, n), |(i, j)| ((i + 2 * j) % 17) as f64 / 17.0);
    let b = Array2::from_shape_fn((n, n), |(i, j)| ((3 * i + j) % 13) as f64 / 13.0);
    let ta = from_ndarray(a.clone()).unwrap();
    let tb = from_ndarray(b.clone()).unwrap();
    group.throughput(Throughput::Elements((2 * n * n * n) as u64)); // flops
    group.bench_function(BenchmarkId::new("tch", "256x256"), |bench| {
        bench.iter(|| black_box(&ta).f_matmul(black_box(&tb)).unwrap());
    });
    group.bench_function(BenchmarkId::new("ndarray", "256x256"), |bench| {
        bench.iter(|| black_box(&a).dot(black_box(&b)));
    });
    group.finish();
    // Same numbers on both sides (checked once, outside the timing).
    let ours: Tensor = ta.f_matmul(&tb).unwrap();
    let reference = a.dot(&b).into_dyn();
    let ours = to_ndarray::<f64>(&ours).unwrap();
    assert!(ours.iter().zip(&reference).all(|(x, y)| (x - y).abs() <= 1e-9 * y.abs().max(1.0)));
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(300))
}

criterion_group! {
    name = benches;
    config = config();
    targets = from_ndarray_group, round_trip_group, erf_group, sum_axis_group, matmul_group
}
criterion_main!(benches);
