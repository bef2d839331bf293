//! Integration tests of `ops::linalg` on tch tensors: known values, dtype
//! rules, error kinds. (SciPy comparisons live in tests/python/test_linalg.py.)

use tch::{Device, Kind, Tensor};
use torchbridge::ops::linalg::{
    self as la, CheckFinite, EigOptions, EighOptions, EighTridiagonalOptions, LstsqDriver, LstsqOptions, LuOptions,
    LuSolveOptions, MatrixFunction, NormOptions, NormOrder, PascalKind, PascalOptions, QrMode, QrOptions,
    SolveCirculantOptions, SolveOptions, Structure, Subset, SvdOptions, Trans,
};
use torchbridge::ops::numpy::result_type;
use torchbridge::{dlpack::dtype_of, DType, Error};

fn mat(rows: &[&[f64]]) -> Tensor {
    let n = rows.len() as i64;
    let m = rows[0].len() as i64;
    let flat: Vec<f64> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    Tensor::from_slice(&flat).reshape([n, m])
}

fn vector(values: &[f64]) -> Tensor {
    Tensor::from_slice(values)
}

fn values(t: &Tensor) -> Vec<f64> {
    let t = t.to_kind(Kind::Double).contiguous().reshape([-1]);
    let mut out = vec![0.0; t.numel()];
    t.copy_data(&mut out, t.numel());
    out
}

fn assert_all_close(actual: &Tensor, expected: &[f64], tol: f64, what: &str) {
    let got = values(actual);
    assert_eq!(got.len(), expected.len(), "{what}: {got:?} vs {expected:?}");
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert!((g - e).abs() <= tol * (1.0 + e.abs()), "{what}[{i}]: got {g}, expected {e} (all: {got:?})");
    }
}

fn assert_linalg_error<T>(result: torchbridge::Result<T>, what: &str) {
    match result {
        Err(err) => assert!(matches!(err, Error::LinAlg(_)), "{what}: expected a LinAlgError, got {err}"),
        Ok(_) => panic!("{what}: expected a LinAlgError"),
    }
}

#[test]
fn dtype_rules_follow_scipy() {
    use DType::*;
    assert_eq!(la::lapack_kind(&[Float32]), Kind::Float);
    assert_eq!(la::lapack_kind(&[Int16]), Kind::Float);
    assert_eq!(la::lapack_kind(&[Bool]), Kind::Float);
    assert_eq!(la::lapack_kind(&[Int32]), Kind::Double);
    assert_eq!(la::lapack_kind(&[Float32, Int64]), Kind::Double);
    assert_eq!(la::lapack_kind(&[Complex64, Float64]), Kind::ComplexDouble);
    assert_eq!(la::cdsz_kind(&[Int8]), Kind::Double);
    assert_eq!(la::cdsz_kind(&[Float16, Int8]), Kind::Float);
    assert_eq!(result_type(&[Int8, UInt8]), Int16);
    assert_eq!(result_type(&[Int64, UInt64]), Float64);
    assert_eq!(result_type(&[UInt8, Int32]), Int32);
    assert_eq!(result_type(&[Int16, Float16]), Float32);
    assert_eq!(result_type(&[Float32, Complex64]), Complex64);
    assert_eq!(result_type(&[Float64, Complex64]), Complex128);
    assert_eq!(result_type(&[Bool, Bool]), Bool);
    assert_eq!(la::eps(Kind::ComplexFloat), f64::from(f32::EPSILON));
}

#[test]
fn solve_known_system_and_structures() {
    let a = mat(&[&[4.0, 1.0], &[1.0, 3.0]]);
    let b = vector(&[1.0, 2.0]);
    // exact solution (1/11, 7/11)
    for structure in [Structure::Auto, Structure::General, Structure::Symmetric, Structure::PositiveDefinite] {
        let solved = la::solve(&a, &b, &SolveOptions { assume_a: structure, ..Default::default() }).unwrap();
        assert_all_close(&solved.x, &[1.0 / 11.0, 7.0 / 11.0], 1e-15, &format!("{structure:?}"));
        // condition number estimate: ||A||_1 ||A^-1||_1 = 5 * (5/11)
        assert_all_close(&solved.rcond, &[11.0 / 25.0], 1e-12, "rcond");
    }
    // the lower triangle alone defines the symmetric matrix
    let lower_only = mat(&[&[4.0, 99.0], &[1.0, 3.0]]);
    let solved = la::solve(
        &lower_only,
        &b,
        &SolveOptions { lower: true, assume_a: Structure::PositiveDefinite, ..Default::default() },
    )
    .unwrap();
    assert_all_close(&solved.x, &[1.0 / 11.0, 7.0 / 11.0], 1e-15, "lower");
    let solved =
        la::solve(&a, &b, &SolveOptions { assume_a: Structure::UpperTriangular, ..Default::default() }).unwrap();
    assert_all_close(&solved.x, &[0.25 - 1.0 / 6.0, 2.0 / 3.0], 1e-15, "upper triangular");
    let solved = la::solve(&a, &b, &SolveOptions { assume_a: Structure::Diagonal, ..Default::default() }).unwrap();
    assert_all_close(&solved.x, &[0.25, 2.0 / 3.0], 1e-15, "diagonal");
    // transposed: a^T x = b
    let c = mat(&[&[1.0, 2.0], &[0.0, 1.0]]);
    let solved =
        la::solve(&c, &b, &SolveOptions { assume_a: Structure::General, transposed: true, ..Default::default() })
            .unwrap();
    assert_all_close(&solved.x, &[1.0, 0.0], 1e-15, "transposed");
    assert!(matches!(Structure::from_scipy(Some("nope")), Err(Error::InvalidArgument(_))));
}

#[test]
fn singular_and_non_finite_input() {
    let singular = mat(&[&[1.0, 2.0], &[2.0, 4.0]]);
    let b = vector(&[1.0, 1.0]);
    assert_linalg_error(la::solve(&singular, &b, &SolveOptions::default()), "solve");
    assert_linalg_error(la::inv(&singular, &Default::default()), "inv");
    assert_linalg_error(la::cholesky(&singular, &Default::default()), "cholesky");
    assert_linalg_error(la::solve_triangular(&mat(&[&[1.0, 1.0], &[0.0, 0.0]]), &b, &Default::default()), "trtrs");
    let nan = mat(&[&[1.0, f64::NAN], &[0.0, 1.0]]);
    match la::det(&nan, CheckFinite::Yes) {
        Err(Error::InvalidArgument(message)) => assert!(message.contains("infs or NaNs")),
        other => panic!("expected the finiteness error, got {:?}", other.map(|t| values(&t))),
    }
    let d = la::det(&nan, CheckFinite::No).unwrap();
    assert!(values(&d)[0].is_nan() || values(&d)[0] == 1.0);
}

#[test]
fn inverse_determinant_and_their_dtypes() {
    let a = mat(&[&[0.0, 2.0], &[3.0, 1.0]]);
    let inverse = la::inv(&a, &Default::default()).unwrap().x;
    assert_all_close(&inverse, &[-1.0 / 6.0, 1.0 / 3.0, 0.5, 0.0], 1e-15, "inv");
    // one row exchange: det = -6
    let d = la::det(&a, CheckFinite::Yes).unwrap();
    assert_eq!(dtype_of(&d).unwrap(), DType::Float64);
    assert_all_close(&d, &[-6.0], 1e-15, "det");
    let d32 = la::det(&a.to_kind(Kind::Float), CheckFinite::Yes).unwrap();
    assert_eq!(dtype_of(&d32).unwrap(), DType::Float64, "SciPy returns float64 for float32 input");
    let batch = Tensor::stack(&[a.shallow_clone(), a.neg(), Tensor::eye(2, (Kind::Double, Device::Cpu))], 0);
    assert_all_close(&la::det(&batch, CheckFinite::Yes).unwrap(), &[-6.0, -6.0, 1.0], 1e-15, "batched det");
    let empty = Tensor::zeros([0, 0], (Kind::Float, Device::Cpu));
    assert_all_close(&la::det(&empty, CheckFinite::Yes).unwrap(), &[1.0], 0.0, "det of 0x0");
}

#[test]
fn eigenproblems() {
    let a = mat(&[&[2.0, 1.0], &[1.0, 2.0]]);
    let la::Eigh { w, v } = la::eigh(&a, None, &EighOptions::default()).unwrap();
    assert_all_close(&w, &[1.0, 3.0], 1e-15, "eigh");
    assert_eq!(v.unwrap().size(), vec![2, 2]);
    let only = |subset| EighOptions { eigvals_only: true, subset, ..Default::default() };
    let w = la::eigh(&a, None, &only(Subset::Value(2.0, 5.0))).unwrap().w;
    assert_all_close(&w, &[3.0], 1e-15, "subset by value (2, 5]");
    let w = la::eigh(&a, None, &only(Subset::Index(0, 0))).unwrap().w;
    assert_all_close(&w, &[1.0], 1e-15, "subset by index");
    // generalized: a v = w b v with b = 2 I has eigenvalues w / 2, v^T b v = I
    let b = mat(&[&[2.0, 0.0], &[0.0, 2.0]]);
    let la::Eigh { w, v } = la::eigh(&a, Some(&b), &EighOptions::default()).unwrap();
    assert_all_close(&w, &[0.5, 1.5], 1e-15, "generalized");
    let v = v.unwrap();
    let gram = v.transpose(0, 1).matmul(&b).matmul(&v);
    assert_all_close(&gram, &[1.0, 0.0, 0.0, 1.0], 1e-14, "B-orthonormal");
    // rotation by 90 degrees: eigenvalues +-i, complex eigenvectors
    let rotation = mat(&[&[0.0, -1.0], &[1.0, 0.0]]);
    let result = la::eig(&rotation, &EigOptions::default()).unwrap();
    let imag = values(&result.w.imag());
    assert!((imag[0].abs() - 1.0).abs() < 1e-15 && (imag[0] + imag[1]).abs() < 1e-15);
    assert!(dtype_of(result.vr.as_ref().unwrap()).unwrap().is_complex());
    // symmetric: real eigenvectors, as SciPy returns them
    let result = la::eig(&a, &EigOptions { left: true, homogeneous_eigvals: true, ..Default::default() }).unwrap();
    assert_eq!(dtype_of(result.vr.as_ref().unwrap()).unwrap(), DType::Float64);
    assert_eq!(result.w.size(), vec![2, 2], "homogeneous coordinates");
}

#[test]
fn factorizations_of_known_matrices() {
    let a = mat(&[&[4.0, 2.0], &[2.0, 5.0]]);
    let c = la::cholesky(&a, &Default::default()).unwrap();
    assert_all_close(&c, &[2.0, 1.0, 0.0, 2.0], 1e-15, "upper factor");
    // cho_factor keeps a's entries in the triangle it does not use
    let factor = la::cho_factor(&a, &la::CholeskyOptions { lower: true, ..Default::default() }).unwrap();
    let c = factor.c.shallow_clone();
    assert_all_close(&c, &[2.0, 2.0, 1.0, 2.0], 1e-15, "cho_factor lower");
    let x = la::cho_solve(&factor, &vector(&[6.0, 7.0]), CheckFinite::Yes).unwrap();
    assert_all_close(&x, &[1.0, 1.0], 1e-15, "cho_solve");

    let b = mat(&[&[1.0, 2.0], &[3.0, 4.0]]);
    let la::LuFactor { lu, piv, info } = la::lu_factor(&b, CheckFinite::Yes).unwrap();
    assert_eq!(info, 0);
    assert_eq!(dtype_of(&piv).unwrap(), DType::Int32);
    assert_all_close(&piv, &[1.0, 1.0], 0.0, "0-based pivots");
    assert_all_close(&lu, &[3.0, 4.0, 1.0 / 3.0, 2.0 / 3.0], 1e-15, "packed LU");
    let x = la::lu_solve(&lu, &piv, &vector(&[5.0, 6.0]), &LuSolveOptions { trans: Trans::T, ..Default::default() })
        .unwrap();
    // b^T x = (5, 6): x = (-1, 2)
    assert_all_close(&x, &[-1.0, 2.0], 1e-14, "trans=1");
    let parts = la::lu(&b, &LuOptions { p_indices: true, ..Default::default() }).unwrap();
    assert_all_close(parts.p.as_ref().unwrap(), &[1.0, 0.0], 0.0, "p_indices");
    let parts = la::lu(&b, &LuOptions::default()).unwrap();
    let rebuilt = parts.p.unwrap().matmul(&parts.l).matmul(&parts.u);
    assert_all_close(&rebuilt, &[1.0, 2.0, 3.0, 4.0], 1e-15, "P L U");

    let q_r = la::qr(&b, &QrOptions::default()).unwrap();
    assert_all_close(&q_r.q.as_ref().unwrap().matmul(&q_r.r), &[1.0, 2.0, 3.0, 4.0], 1e-14, "Q R");
    assert_all_close(&q_r.r.abs(), &[10f64.sqrt(), 14.0 / 10f64.sqrt(), 0.0, 2.0 / 10f64.sqrt()], 1e-14, "|R|");
    let raw = la::qr(&b, &QrOptions { mode: QrMode::Raw, ..Default::default() }).unwrap();
    assert!(raw.raw.is_some() && raw.q.is_none());
    assert!(matches!("economic".parse::<QrMode>(), Ok(QrMode::Economic)));
    let r_q = la::rq(&b, &QrOptions::default()).unwrap();
    assert_all_close(&r_q.r.matmul(r_q.q.as_ref().unwrap()), &[1.0, 2.0, 3.0, 4.0], 1e-14, "R Q");
    assert_all_close(&r_q.r.tril(-1), &[0.0; 4], 0.0, "R upper triangular");
    let la::Svd { u, s, vh } = la::svd(&b, &SvdOptions::default()).unwrap();
    let s_values = values(&s);
    assert!((s_values[0] * s_values[1] - 2.0).abs() < 1e-14, "product of singular values is |det|");
    let rebuilt = u.unwrap().matmul(&s.diag_embed(0, -2, -1)).matmul(&vh.unwrap());
    assert_all_close(&rebuilt, &[1.0, 2.0, 3.0, 4.0], 1e-14, "U S Vh");
}

#[test]
fn least_squares_and_pseudo_inverse() {
    // fit y = 1 + 2 t through exact points
    let a = mat(&[&[1.0, 0.0], &[1.0, 1.0], &[1.0, 2.0]]);
    let y = vector(&[1.0, 3.0, 5.0]);
    let fit = la::lstsq(&a, &y, &LstsqOptions::default()).unwrap();
    assert_all_close(&fit.x, &[1.0, 2.0], 1e-14, "coefficients");
    assert_all_close(&fit.rank, &[2.0], 0.0, "rank");
    assert!(values(&fit.residues)[0].abs() < 1e-25);
    let deficient = mat(&[&[1.0, 1.0], &[1.0, 1.0]]);
    let fit = la::lstsq(
        &deficient,
        &vector(&[2.0, 2.0]),
        &LstsqOptions { lapack_driver: LstsqDriver::Gelss, ..Default::default() },
    )
    .unwrap();
    assert_all_close(&fit.x, &[1.0, 1.0], 1e-14, "minimum norm");
    assert_all_close(&fit.rank, &[1.0], 0.0, "rank deficient");
    assert!("gels".parse::<LstsqDriver>().is_err());
    // a batch of matrices with one right-hand side: broadcast, as SciPy applies it
    let batch = Tensor::stack(&[&a, &a.multiply_scalar(2.0)], 0);
    let fit = la::lstsq(&batch, &y.unsqueeze(-1), &LstsqOptions::default()).unwrap();
    assert_eq!(fit.x.size(), [2, 2, 1]);
    assert_all_close(&fit.x, &[1.0, 2.0, 0.5, 1.0], 1e-13, "broadcast coefficients");
    assert_all_close(&fit.rank, &[2.0, 2.0], 0.0, "broadcast ranks");
    let la::Pinv { b: p, rank } = la::pinv(&deficient, &Default::default()).unwrap();
    assert_all_close(&p, &[0.25; 4], 1e-15, "pinv");
    assert_all_close(&rank, &[1.0], 0.0, "pinv rank");
    let p = la::pinvh(&deficient, &Default::default()).unwrap().b;
    assert_all_close(&p, &[0.25; 4], 1e-15, "pinvh");
}

#[test]
fn norms() {
    let a = mat(&[&[1.0, -2.0], &[3.0, 4.0]]);
    let norm = |a: &Tensor, ord, axis: Option<&[i64]>| {
        la::norm(a, &NormOptions { ord, axis: axis.map(<[i64]>::to_vec), ..Default::default() })
    };
    let n = |ord, axis: Option<&[i64]>| values(&norm(&a, ord, axis).unwrap());
    assert!((n(NormOrder::Default, None)[0] - 30f64.sqrt()).abs() < 1e-15);
    assert_eq!(n(NormOrder::P(1.0), Some(&[0, 1])), vec![6.0]);
    assert_eq!(n(NormOrder::P(f64::INFINITY), Some(&[0, 1])), vec![7.0]);
    assert_eq!(n(NormOrder::P(-1.0), Some(&[0, 1])), vec![4.0]);
    assert_eq!(n(NormOrder::P(1.0), Some(&[1])), vec![3.0, 7.0]);
    assert_eq!(n(NormOrder::P(0.0), Some(&[0])), vec![2.0, 2.0]);
    let two = n(NormOrder::P(2.0), Some(&[0, 1]))[0];
    let nuc = n(NormOrder::Nuc, Some(&[0, 1]))[0];
    // singular values s1 s2 = |det| = 10, s1^2 + s2^2 = 30
    assert!((two * (nuc - two) - 10.0).abs() < 1e-12);
    let huge = Tensor::from_slice(&[3e300, 4e300]);
    assert_all_close(&norm(&huge, NormOrder::Default, None).unwrap(), &[5e300], 1e-15, "no overflow");
    assert!(norm(&a, NormOrder::Fro, Some(&[0])).is_err());
    assert!(norm(&a, NormOrder::P(3.0), Some(&[0, 1])).is_err());
    assert!(matches!(norm(&a, NormOrder::Default, Some(&[2])), Err(Error::AxisOutOfBounds { axis: 2, ndim: 2 })));
}

#[test]
fn matrix_functions() {
    let nilpotent = mat(&[&[0.0, 1.0], &[0.0, 0.0]]);
    assert_all_close(&la::expm(&nilpotent).unwrap(), &[1.0, 1.0, 0.0, 1.0], 1e-15, "expm nilpotent");
    let diagonal = mat(&[&[1.0, 0.0], &[0.0, -700.0]]);
    assert_all_close(&la::expm(&diagonal).unwrap(), &[1f64.exp(), 0.0, 0.0, (-700f64).exp()], 1e-15, "exact diagonal");
    let t = 0.3;
    let rotation = mat(&[&[0.0, -t], &[t, 0.0]]);
    assert_all_close(&la::expm(&rotation).unwrap(), &[t.cos(), -t.sin(), t.sin(), t.cos()], 1e-15, "rotation");
    let cos = la::cosm(&rotation).unwrap();
    assert_all_close(&cos, &[t.cosh(), 0.0, 0.0, t.cosh()], 1e-15, "cosm of a rotation generator");
    let sinh = la::matrix_function(&rotation, MatrixFunction::Sinh).unwrap().x;
    assert_all_close(&la::sinhm(&rotation).unwrap(), &values(&sinh), 0.0, "sinhm");
    assert_all_close(&sinh, &[0.0, -t.sin(), t.sin(), 0.0], 1e-15, "sinhm");
    let la::ExpmFrechet { expm: e, frechet: l } =
        la::expm_frechet(&nilpotent, &Tensor::eye(2, (Kind::Double, Device::Cpu)), CheckFinite::Yes).unwrap();
    // d/ds expm(N + s I) at 0 = expm(N)
    assert_all_close(&l, &values(&e), 1e-14, "Frechet derivative along I");
    let scalar = Tensor::from(2.0f64);
    assert_eq!(la::expm(&scalar).unwrap().size(), vec![1, 1]);
    assert_linalg_error(la::expm(&vector(&[1.0, 2.0])), "expm of a vector");
}

#[test]
fn special_matrices() {
    let c = vector(&[1.0, 2.0, 3.0]);
    let r = vector(&[1.0, 4.0]);
    assert_all_close(&la::toeplitz(&c, Some(&r)).unwrap(), &[1.0, 4.0, 2.0, 1.0, 3.0, 2.0], 0.0, "toeplitz");
    assert_all_close(&la::circulant(&c).unwrap(), &[1.0, 3.0, 2.0, 2.0, 1.0, 3.0, 3.0, 2.0, 1.0], 0.0, "circulant");
    assert_all_close(&la::hankel(&c, Some(&r)).unwrap(), &[1.0, 2.0, 2.0, 3.0, 3.0, 4.0], 0.0, "hankel");
    let blocks = [mat(&[&[1.0]]), mat(&[&[2.0, 3.0]])];
    assert_all_close(&la::block_diag(&blocks).unwrap(), &[1.0, 0.0, 0.0, 0.0, 2.0, 3.0], 0.0, "block_diag");
    let comp = la::companion(&vector(&[1.0, -3.0, 2.0])).unwrap();
    assert_all_close(&comp, &[3.0, -2.0, 1.0, 0.0], 0.0, "companion of (x-1)(x-2)");
    let kr = la::khatri_rao(&mat(&[&[1.0, 2.0]]), &mat(&[&[3.0, 4.0], &[5.0, 6.0]])).unwrap();
    assert_all_close(&kr, &[3.0, 8.0, 5.0, 12.0], 0.0, "khatri_rao");
    assert_all_close(&la::hilbert(2).unwrap(), &[1.0, 0.5, 0.5, 1.0 / 3.0], 0.0, "hilbert");
    let exact = la::invhilbert(2, &la::InvHilbertOptions { exact: true }).unwrap();
    assert_eq!(exact.kind(), Kind::Int64, "invhilbert exact entries are int64");
    assert_all_close(&exact, &[4.0, -6.0, -6.0, 12.0], 0.0, "invhilbert exact");
    let float = la::invhilbert(2, &la::InvHilbertOptions::default()).unwrap();
    assert_eq!(float.kind(), Kind::Double, "invhilbert's default entries are float64");
    assert_all_close(&float, &[4.0, -6.0, -6.0, 12.0], 0.0, "invhilbert float");
    // helmert(2): the first row 1/sqrt(2) (1, 1) only with `full`.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    assert_all_close(&la::helmert(2, &la::HelmertOptions::default()).unwrap(), &[h, -h], 1e-15, "helmert");
    assert_all_close(
        &la::helmert(2, &la::HelmertOptions { full: true }).unwrap(),
        &[h, h, h, -h],
        1e-15,
        "helmert full",
    );
    assert_all_close(
        &la::pascal(3, &PascalOptions::default()).unwrap(),
        &[1.0, 1.0, 1.0, 1.0, 2.0, 3.0, 1.0, 3.0, 6.0],
        0.0,
        "pascal",
    );
    let inverse = la::invpascal(3, &PascalOptions { kind: PascalKind::Symmetric, exact: true }).unwrap();
    let product = la::pascal(3, &PascalOptions::default()).unwrap().matmul(&inverse);
    assert_all_close(&product, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], 0.0, "pascal @ invpascal");
    assert_all_close(&la::hadamard(2).unwrap(), &[1.0, 1.0, 1.0, -1.0], 0.0, "hadamard");
    assert!(la::hadamard(3).is_err());
    let f = la::dft(4, la::DftScale::None).unwrap();
    assert!(la::DftScale::from_scipy(Some("half")).is_err());
    assert_all_close(
        &f.imag(),
        &[0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0],
        2e-16,
        "dft (sin(pi) is 1.2e-16)",
    );
    let la::Bandwidth { lower, upper } =
        la::bandwidth(&mat(&[&[1.0, 2.0, 0.0], &[0.0, 1.0, 0.0], &[5.0, 0.0, 1.0]])).unwrap();
    assert_eq!((values(&lower), values(&upper)), (vec![2.0], vec![1.0]));
    let symmetric = la::issymmetric(&mat(&[&[f64::NAN, 1.0], &[1.0, 2.0]]), &Default::default()).unwrap();
    assert_eq!(values(&symmetric), vec![1.0], "the diagonal is not scanned");
}

#[test]
fn structured_solvers_and_balancing() {
    // tridiagonal (-1, 2, -1) in band storage
    let ab = mat(&[&[0.0, -1.0, -1.0], &[2.0, 2.0, 2.0], &[-1.0, -1.0, 0.0]]);
    let x = la::solve_banded((1, 1), &ab, &vector(&[1.0, 0.0, 1.0]), CheckFinite::Yes).unwrap();
    assert_all_close(&x, &[1.0, 1.0, 1.0], 1e-15, "solve_banded");
    let x = la::solveh_banded(&ab.narrow(0, 0, 2), &vector(&[1.0, 0.0, 1.0]), &Default::default()).unwrap();
    assert_all_close(&x, &[1.0, 1.0, 1.0], 1e-15, "solveh_banded");
    let options = EighTridiagonalOptions { eigvals_only: true, ..Default::default() };
    let w = la::eigh_tridiagonal(&vector(&[2.0, 2.0]), &vector(&[1.0]), &options).unwrap().w;
    assert_all_close(&w, &[1.0, 3.0], 1e-15, "eigvalsh_tridiagonal");
    let x =
        la::solve_circulant(&vector(&[2.0, 1.0, 0.0]), &vector(&[3.0, 3.0, 3.0]), &SolveCirculantOptions::default())
            .unwrap();
    assert_all_close(&x, &[1.0, 1.0, 1.0], 1e-15, "solve_circulant");
    let y = la::matmul_toeplitz(
        &vector(&[1.0, 2.0]),
        &vector(&[1.0, 3.0, 4.0]),
        &vector(&[1.0, 1.0, 1.0]),
        CheckFinite::No,
    )
    .unwrap();
    assert_all_close(&y, &[8.0, 6.0], 1e-14, "matmul_toeplitz");
    // SciPy 1.17 (LAPACK 3.12 gebal): scaling (16, 0.25)
    let balanced = la::matrix_balance(&mat(&[&[1.0, 100.0], &[0.01, 1.0]]), &Default::default()).unwrap();
    assert_all_close(&balanced.b, &[1.0, 1.5625, 0.64, 1.0], 1e-15, "balanced");
    assert_all_close(&balanced.scaling, &[16.0, 0.25], 0.0, "scaling");
}
