//! SciPy's `_special_matrices.py` (`ops::linalg::special_matrices`): the
//! constructors' known values, bandwidth, issymmetric.

use tch::Kind;
use torchbridge::ops::linalg::{self as la, PascalKind, PascalOptions};

use crate::common::{assert_all_close, mat, values, vector};

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
