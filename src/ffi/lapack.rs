//! LAPACK's double-precision LU and Cholesky drivers, called directly on
//! host buffers for small CPU matrices (`crate::ops::linalg::small`): the
//! same routines libtorch's CPU linear algebra calls (its `libtorch_cpu`
//! exports MKL's LP64 Fortran interface: `dgetrf_`, `dgetrs_`, `dpotrf_`,
//! `dpotrs_`, `dgesdd_`), without the per-call cost of a dozen small tensor ops.
//!
//! Every wrapper takes column-major slices and checks their lengths against
//! the dimensions it passes, so that LAPACK never reads or writes past them.

use std::ffi::c_char;

extern "C" {
    fn dgetrf_(m: *const i32, n: *const i32, a: *mut f64, lda: *const i32, ipiv: *mut i32, info: *mut i32);
    fn dgetrs_(
        trans: *const c_char,
        n: *const i32,
        nrhs: *const i32,
        a: *const f64,
        lda: *const i32,
        ipiv: *const i32,
        b: *mut f64,
        ldb: *const i32,
        info: *mut i32,
    );
    fn dpotrf_(uplo: *const c_char, n: *const i32, a: *mut f64, lda: *const i32, info: *mut i32);
    fn dgesdd_(
        jobz: *const c_char,
        m: *const i32,
        n: *const i32,
        a: *mut f64,
        lda: *const i32,
        s: *mut f64,
        u: *mut f64,
        ldu: *const i32,
        vt: *mut f64,
        ldvt: *const i32,
        work: *mut f64,
        lwork: *const i32,
        iwork: *mut i32,
        info: *mut i32,
    );
    fn dpotrs_(
        uplo: *const c_char,
        n: *const i32,
        nrhs: *const i32,
        a: *const f64,
        lda: *const i32,
        b: *mut f64,
        ldb: *const i32,
        info: *mut i32,
    );
}

fn dim(n: usize) -> i32 {
    i32::try_from(n).expect("a small matrix's dimension fits LAPACK's 32-bit integers")
}

/// `dgetrf`: the LU factorization with partial pivoting of the column-major
/// `n x n` matrix `a` (overwritten by `L` and `U`), its 1-based pivots in
/// `ipiv`; LAPACK's `info` (> 0: `U[info-1, info-1]` is exactly zero).
pub(crate) fn dgetrf(n: usize, a: &mut [f64], ipiv: &mut [i32]) -> i32 {
    assert!(a.len() >= n * n && ipiv.len() >= n);
    let (nn, mut info) = (dim(n), 0i32);
    let lda = nn.max(1);
    // SAFETY: `a` holds n*n doubles (leading dimension n) and `ipiv` n
    // integers, checked above; all scalars are live locals for the call.
    unsafe { dgetrf_(&nn, &nn, a.as_mut_ptr(), &lda, ipiv.as_mut_ptr(), &mut info) };
    info
}

/// `dgetrs`: solves `A x = b` (`transpose` false) or `A^T x = b` in place on
/// the column-major `n x nrhs` `b`, from [`dgetrf`]'s `lu` and `ipiv`.
pub(crate) fn dgetrs(transpose: bool, n: usize, nrhs: usize, lu: &[f64], ipiv: &[i32], b: &mut [f64]) -> i32 {
    assert!(lu.len() >= n * n && ipiv.len() >= n && b.len() >= n * nrhs);
    let trans: c_char = if transpose { b'T' as c_char } else { b'N' as c_char };
    let (nn, nr, mut info) = (dim(n), dim(nrhs), 0i32);
    let ld = nn.max(1);
    // SAFETY: `lu` holds n*n doubles, `ipiv` n pivots, `b` n*nrhs doubles
    // (leading dimension n), checked above; `dgetrs` reads `lu` and `ipiv`
    // and writes `b` only.
    unsafe { dgetrs_(&trans, &nn, &nr, lu.as_ptr(), &ld, ipiv.as_ptr(), b.as_mut_ptr(), &ld, &mut info) };
    info
}

/// `dpotrf`: the Cholesky factor of the column-major `n x n` `a` in its
/// `upper` (else lower) triangle; the other triangle is neither read nor
/// written. LAPACK's `info` (> 0: that leading minor is not positive definite).
pub(crate) fn dpotrf(upper: bool, n: usize, a: &mut [f64]) -> i32 {
    assert!(a.len() >= n * n);
    let uplo: c_char = if upper { b'U' as c_char } else { b'L' as c_char };
    let (nn, mut info) = (dim(n), 0i32);
    let lda = nn.max(1);
    // SAFETY: `a` holds n*n doubles (leading dimension n), checked above.
    unsafe { dpotrf_(&uplo, &nn, a.as_mut_ptr(), &lda, &mut info) };
    info
}

/// `dpotrs`: solves `A x = b` in place on the column-major `n x nrhs` `b`
/// from [`dpotrf`]'s factor `c` (its `upper` or lower triangle).
pub(crate) fn dpotrs(upper: bool, n: usize, nrhs: usize, c: &[f64], b: &mut [f64]) -> i32 {
    assert!(c.len() >= n * n && b.len() >= n * nrhs);
    let uplo: c_char = if upper { b'U' as c_char } else { b'L' as c_char };
    let (nn, nr, mut info) = (dim(n), dim(nrhs), 0i32);
    let ld = nn.max(1);
    // SAFETY: `c` holds n*n doubles and `b` n*nrhs doubles (leading
    // dimension n), checked above; `dpotrs` reads `c` and writes `b` only.
    unsafe { dpotrs_(&uplo, &nn, &nr, c.as_ptr(), &ld, b.as_mut_ptr(), &ld, &mut info) };
    info
}

/// `dgesdd`: the singular values of the column-major `m x n` `a`
/// (destroyed) into `s` (`min(m, n)`), and with `vectors` (`Some(full)`)
/// `U` (`m x m` full, else `m x k`) and `V^T` (`n x n`, else `k x n`),
/// column-major, returned. LAPACK's `info` (> 0: no convergence).
pub(crate) fn dgesdd(
    m: usize,
    n: usize,
    a: &mut [f64],
    s: &mut [f64],
    vectors: Option<bool>,
) -> (i32, Vec<f64>, Vec<f64>) {
    let k = m.min(n);
    assert!(a.len() >= m * n && s.len() >= k);
    let (jobz, ucols, vtrows) = match vectors {
        None => (b'N', 1, 1),
        Some(true) => (b'A', m, n),
        Some(false) => (b'S', k, k),
    };
    let (ldu, ldvt) = (m.max(1), if vectors.is_some() { vtrows.max(1) } else { 1 });
    let mut u = vec![0f64; if vectors.is_some() { ldu * ucols } else { 1 }];
    let mut vt = vec![0f64; if vectors.is_some() { ldvt * n } else { 1 }];
    let mut iwork = vec![0i32; 8 * k.max(1)];
    let jobz = jobz as c_char;
    let (mm, nn, lda, ldu_, ldvt_) = (dim(m), dim(n), dim(m.max(1)), dim(ldu), dim(ldvt));
    let mut info = 0i32;
    let mut query = 0f64;
    let minus_one = -1i32;
    // SAFETY: a workspace query (lwork = -1): LAPACK writes the optimal size
    // to `query` and touches no other array; every pointer is live.
    unsafe {
        dgesdd_(
            &jobz,
            &mm,
            &nn,
            a.as_mut_ptr(),
            &lda,
            s.as_mut_ptr(),
            u.as_mut_ptr(),
            &ldu_,
            vt.as_mut_ptr(),
            &ldvt_,
            &mut query,
            &minus_one,
            iwork.as_mut_ptr(),
            &mut info,
        )
    };
    if info != 0 {
        return (info, u, vt);
    }
    let lwork = (query as usize).max(1);
    let mut work = vec![0f64; lwork];
    let lw = dim(lwork);
    // SAFETY: `a` holds m*n doubles (leading dimension m), `s` min(m, n),
    // `u` ldu*ucols and `vt` ldvt*n (or one each with jobz 'N', which LAPACK
    // does not reference), `work` the queried size, `iwork` 8 min(m, n): the
    // sizes `dgesdd` documents for these arguments.
    unsafe {
        dgesdd_(
            &jobz,
            &mm,
            &nn,
            a.as_mut_ptr(),
            &lda,
            s.as_mut_ptr(),
            u.as_mut_ptr(),
            &ldu_,
            vt.as_mut_ptr(),
            &ldvt_,
            work.as_mut_ptr(),
            &lw,
            iwork.as_mut_ptr(),
            &mut info,
        )
    };
    (info, u, vt)
}
