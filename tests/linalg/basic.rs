//! SciPy's `_basic.py` (`ops::linalg::basic`): solve and its structures, inv,
//! det, lstsq, pinv, pinvh, the banded, circulant and Toeplitz solvers,
//! matrix_balance.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::linalg::{
    self as la, CheckFinite, EighTridiagonalOptions, LstsqDriver, LstsqOptions, SolveCirculantOptions, SolveOptions,
    Structure,
};
use torchbridge::{dlpack::dtype_of, DType, Error};

use crate::common::{assert_all_close, mat, values, vector};

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
