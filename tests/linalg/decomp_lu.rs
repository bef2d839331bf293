//! SciPy's `_decomp_lu.py` (`ops::linalg::decomp_lu`): lu_factor, lu_solve, lu;
//! the one test of the factorizations of known matrices, which also checks
//! cholesky and cho_factor/cho_solve, qr, rq and svd on the same matrices.

use torchbridge::ops::linalg::{
    self as la, CheckFinite, LuOptions, LuSolveOptions, QrMode, QrOptions, SvdOptions, Trans,
};
use torchbridge::{dlpack::dtype_of, DType};

use crate::common::{assert_all_close, mat, values, vector};

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
