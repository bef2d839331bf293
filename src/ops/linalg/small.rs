//! The small-matrix path: float64 CPU matrices up to [`SMALL_N`] square
//! (and batches of them) copied to host buffers and factored by direct
//! LAPACK calls (`crate::ffi::lapack`, the same MKL routines libtorch's CPU
//! linear algebra calls), with the `?gecon`-style condition estimate run on
//! the factorization in host memory. At these sizes a libtorch call costs
//! more than the arithmetic, and the estimate as tensor ops was a few dozen
//! of them; here a whole `solve` is two copies and a few LAPACK calls.
//!
//! LAPACK reads column-major matrices, and a row-major buffer read
//! column-major is the transpose: `det`, `inv`, `solve` and `cholesky` factor
//! the caller's row-major copy as it is (`A^T`) and use `det(A^T) = det(A)`,
//! `inv(A^T) = inv(A)^T`, the transposed solve and the other triangle; only
//! `lu_factor` (whose packed factors are of `A` itself; it returns them
//! column-major, as SciPy does) and `svd` transpose.
//!
//! Values are those of the tensor path (the same LAPACK routines, the same
//! Hager/Higham iteration), up to rounding: the factorization of `A^T` is
//! not bit for bit that of `A`.

use tch::{Device, Kind, Tensor};

use crate::ffi::lapack::{dgesdd, dgetrf, dgetrs, dpotrf, dpotrs};
use crate::{Error, Result};

/// The largest matrix order the host path takes.
pub(crate) const SMALL_N: i64 = 64;
/// The most elements (of one operand) the host path copies.
const SMALL_NUMEL: usize = 1 << 16;

/// Whether `t` (a float64 operand of a square `n x n` routine) takes the
/// host path: on the CPU, `1 <= n <= SMALL_N`, small, and not recording
/// autograd (the tensor path keeps the graph).
pub(crate) fn eligible(t: &Tensor, n: i64) -> bool {
    t.device() == Device::Cpu
        && t.kind() == Kind::Double
        && (1..=SMALL_N).contains(&n)
        && t.numel() <= SMALL_NUMEL
        && !t.requires_grad()
}

/// `t`'s elements in row-major order, on the host.
pub(crate) fn data(t: &Tensor) -> Result<Vec<f64>> {
    let c = t.f_contiguous()?;
    let len = c.numel();
    let mut v = vec![0f64; len];
    c.f_copy_data(&mut v, len)?;
    Ok(v)
}

/// The elements of `t`'s matrices in column-major order (a copy only where
/// `t` is not already so laid out, as LAPACK's and SciPy's results are).
pub(crate) fn data_col_major(t: &Tensor) -> Result<Vec<f64>> {
    data(&t.f_mt()?)
}

/// SciPy's `check_finite` error on host data.
pub(crate) fn check_finite(check: bool, v: &[f64]) -> Result<()> {
    // (whole chunks without an early exit vectorize)
    if check && !v.chunks(64).all(|c| c.iter().fold(true, |ok, x| ok & x.is_finite())) {
        return Err(Error::InvalidArgument("array must not contain infs or NaNs".into()));
    }
    Ok(())
}

/// `v` (row-major) as a tensor of `shape`, moved into libtorch without a copy.
fn tensor<T: crate::Element>(v: Vec<T>, shape: &[i64]) -> Result<Tensor> {
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let array = ndarray::Array::from_shape_vec(dims, v).map_err(|e| Error::InvalidArgument(e.to_string()))?;
    crate::from_ndarray(array)
}

/// `v`, its `(r, c)` matrices each stored column-major, as a tensor of
/// `shape` `(B..., r, c)` with those strides (no copy).
fn tensor_col_major(v: Vec<f64>, shape: &[i64]) -> Result<Tensor> {
    use ndarray::ShapeBuilder;
    let dims: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
    let d = dims.len();
    let mut strides = vec![1usize; d];
    strides[d - 1] = dims[d - 2];
    let mut step = dims[d - 2] * dims[d - 1];
    for i in (0..d - 2).rev() {
        strides[i] = step;
        step *= dims[i];
    }
    let shape = ndarray::IxDyn(&dims).strides(ndarray::IxDyn(&strides));
    let array = ndarray::Array::from_shape_vec(shape, v).map_err(|e| Error::InvalidArgument(e.to_string()))?;
    crate::from_ndarray(array)
}

/// Writes the transpose of the row-major `rows x cols` `src` to `dst`
/// (row-major `cols x rows`), a whole 8x8 tile at a time where one fits, so
/// that both sides' cache lines stay hot and the tile loops unroll.
fn transpose(src: &[f64], dst: &mut [f64], rows: usize, cols: usize) {
    const TILE: usize = 8;
    let (src, dst) = (&src[..rows * cols], &mut dst[..rows * cols]);
    for i0 in (0..rows).step_by(TILE) {
        for j0 in (0..cols).step_by(TILE) {
            if i0 + TILE <= rows && j0 + TILE <= cols {
                let mut tile = [[0f64; TILE]; TILE];
                for (r, row) in tile.iter_mut().enumerate() {
                    row.copy_from_slice(&src[(i0 + r) * cols + j0..][..TILE]);
                }
                for c in 0..TILE {
                    let out = &mut dst[(j0 + c) * rows + i0..][..TILE];
                    for (r, o) in out.iter_mut().enumerate() {
                        *o = tile[r][c];
                    }
                }
            } else {
                for i in i0..(i0 + TILE).min(rows) {
                    for j in j0..(j0 + TILE).min(cols) {
                        dst[j * rows + i] = src[i * cols + j];
                    }
                }
            }
        }
    }
}

/// Runs `solve` (on a column-major `n x k` block) on the row-major `n x k`
/// `b` in place; one column is the same either way.
fn on_columns(b: &mut [f64], n: usize, k: usize, solve: impl FnOnce(&mut [f64])) {
    if k == 1 {
        return solve(b);
    }
    let mut x = vec![0f64; n * k];
    transpose(b, &mut x, n, k);
    solve(&mut x);
    transpose(&x, b, k, n);
}

/// NaN-propagating maximum (libtorch's `maximum`/`amax`).
fn nanmax(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// The 1-norm (largest column sum of `|a_ij|`) of the row-major `n x n` `a`,
/// summed row after row so that the reads run along memory.
fn norm1(a: &[f64], n: usize) -> f64 {
    let mut sums = vec![0f64; n];
    for row in a.chunks_exact(n) {
        for (s, v) in sums.iter_mut().zip(row) {
            *s += v.abs();
        }
    }
    sums.into_iter().fold(0.0, nanmax)
}

/// The 1-norm of the transpose of the row-major `n x n` `a` (its largest row sum).
fn norm1_transposed(a: &[f64], n: usize) -> f64 {
    a.chunks_exact(n).fold(0.0, |m, row| nanmax(m, row.iter().map(|v| v.abs()).sum()))
}

/// The first index of the largest `|z_i|` (a NaN counts as largest), as
/// libtorch's `argmax` picks it.
fn argmax_abs(z: &[f64]) -> usize {
    let mut best = 0;
    for (i, v) in z.iter().enumerate() {
        if v.is_nan() {
            return i;
        }
        if v.abs() > z[best].abs() {
            best = i;
        }
    }
    best
}

/// `1 / (anorm ||A^-1||_1)` as `lapack::rcond_estimate` computes it (Hager's
/// method, three steps, and Higham's alternating vector), with `solve(v,
/// adjoint)` solving in place with `A` or `A^T`.
fn rcond(anorm: f64, n: usize, solve: &dyn Fn(&mut [f64], bool)) -> f64 {
    let mut x = vec![1.0 / n as f64; n];
    let mut y = vec![0f64; n];
    let mut est = 0.0f64;
    let abs_sum = |y: &[f64]| y.iter().map(|v| v.abs()).sum::<f64>();
    for _ in 0..3 {
        y.copy_from_slice(&x);
        solve(&mut y, false);
        est = nanmax(est, abs_sum(&y));
        for v in y.iter_mut() {
            *v = if *v >= 0.0 { 1.0 } else { -1.0 };
        }
        solve(&mut y, true);
        let j = argmax_abs(&y);
        x.fill(0.0);
        x[j] = 1.0;
    }
    if n > 1 {
        for (i, v) in y.iter_mut().enumerate() {
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            *v = sign * (1.0 + i as f64 / (n - 1) as f64);
        }
        solve(&mut y, false);
        est = nanmax(est, abs_sum(&y) * (2.0 / (3.0 * n as f64)));
    }
    if anorm != 0.0 {
        1.0 / (anorm * est)
    } else {
        0.0
    }
}

fn singular() -> Error {
    Error::LinAlg("A singular matrix detected.".into())
}

/// `solve` with `assume_a` general: `av` `sa = (B..., n, n)` and `bv`
/// `sb = (B..., n, k)` (row-major, batches already broadcast); the solutions
/// `(B..., n, k)` and the reciprocal condition estimates `(B...)`. A
/// singular matrix is an error.
pub(crate) fn solve_general(
    mut av: Vec<f64>,
    mut bv: Vec<f64>,
    sa: &[i64],
    sb: &[i64],
    transposed: bool,
) -> Result<(Tensor, Tensor)> {
    let n = sa[sa.len() - 1] as usize;
    let k = sb[sb.len() - 1] as usize;
    let mut rconds = Vec::with_capacity(av.len() / (n * n));
    let mut ipiv = vec![0i32; n];
    for (lu, b) in av.chunks_exact_mut(n * n).zip(bv.chunks_exact_mut(n * k)) {
        // the condition of the matrix solved with: A, or A^T when transposed
        let anorm = if transposed { norm1_transposed(lu, n) } else { norm1(lu, n) };
        // `lu` is A^T to LAPACK: A x = b is its transposed solve
        if dgetrf(n, lu, &mut ipiv) > 0 {
            return Err(singular());
        }
        let lu = &*lu;
        on_columns(b, n, k, |x| {
            dgetrs(!transposed, n, k, lu, &ipiv, x);
        });
        rconds.push(rcond(anorm, n, &|v, adjoint| {
            dgetrs(adjoint == transposed, n, 1, lu, &ipiv, v);
        }));
    }
    Ok((tensor(bv, sb)?, tensor(rconds, &sa[..sa.len() - 2])?))
}

/// `inv` with `assume_a` general of `av` `sa = (B..., n, n)`: the inverses
/// and `1 / (||A||_1 ||A^-1||_1)`. A singular matrix is an error.
pub(crate) fn inv_general(mut av: Vec<f64>, sa: &[i64]) -> Result<(Tensor, Tensor)> {
    let n = sa[sa.len() - 1] as usize;
    let mut xs = vec![0f64; av.len()];
    let mut rconds = Vec::with_capacity(av.len() / (n * n));
    let mut ipiv = vec![0i32; n];
    for (lu, x) in av.chunks_exact_mut(n * n).zip(xs.chunks_exact_mut(n * n)) {
        let anorm = norm1(lu, n);
        if dgetrf(n, lu, &mut ipiv) > 0 {
            return Err(singular());
        }
        for i in 0..n {
            x[i * n + i] = 1.0;
        }
        // `lu` is A^T to LAPACK; inv(A^T) column-major is inv(A) row-major
        dgetrs(false, n, n, lu, &ipiv, x);
        rconds.push(1.0 / (anorm * norm1(x, n)));
    }
    Ok((tensor(xs, sa)?, tensor(rconds, &sa[..sa.len() - 2])?))
}

/// `det` of each matrix of `av` `sa = (B..., n, n)`: the product of `U`'s
/// diagonal, in order, with the sign of the pivots' permutation (of `A^T`'s
/// LU: `det(A^T) = det(A)`).
pub(crate) fn det(mut av: Vec<f64>, sa: &[i64]) -> Result<Tensor> {
    let n = sa[sa.len() - 1] as usize;
    let mut dets = Vec::with_capacity(av.len() / (n * n));
    let mut ipiv = vec![0i32; n];
    for lu in av.chunks_exact_mut(n * n) {
        dgetrf(n, lu, &mut ipiv);
        let swaps = ipiv.iter().enumerate().filter(|(i, &p)| p != *i as i32 + 1).count();
        let d = (0..n).fold(1.0, |d, i| d * lu[i * n + i]);
        dets.push(if swaps % 2 == 1 { -d } else { d });
    }
    tensor(dets, &sa[..sa.len() - 2])
}

/// `lu_factor` of square `av` `sa = (B..., n, n)`: the packed factors of `A`
/// itself, column-major as LAPACK (and SciPy's result, and the tensor path's)
/// has them, the 0-based pivots (int32, `(B..., n)`) and the smallest
/// positive `info`.
pub(crate) fn lu_factor(av: &[f64], sa: &[i64]) -> Result<(Tensor, Tensor, i64)> {
    let n = sa[sa.len() - 1] as usize;
    let mut pivs = vec![0i32; av.len() / n];
    let mut lus = vec![0f64; av.len()];
    let mut first = 0i64;
    for ((a, lu), piv) in av.chunks_exact(n * n).zip(lus.chunks_exact_mut(n * n)).zip(pivs.chunks_exact_mut(n)) {
        transpose(a, lu, n, n);
        let info = dgetrf(n, lu, piv) as i64;
        if info > 0 && (first == 0 || info < first) {
            first = info;
        }
        piv.iter_mut().for_each(|p| *p -= 1);
    }
    Ok((tensor_col_major(lus, sa)?, tensor(pivs, &sa[..sa.len() - 1])?, first))
}

/// The columns of a right-hand side of shape `(n,)` or `(n, k)`.
fn columns(sb: &[i64]) -> usize {
    if sb.len() == 2 {
        sb[1] as usize
    } else {
        1
    }
}

/// `lu_solve` with one column-major `n x n` factorization `lu` (packed),
/// 0-based `piv` and row-major `bv` of shape `sb` (`(n,)` or `(n, k)`):
/// `A x = b` or (`transpose`) `A^T x = b`.
pub(crate) fn lu_solve(lu: &[f64], piv: &[i64], mut bv: Vec<f64>, sb: &[i64], transpose: bool) -> Result<Tensor> {
    let (n, k) = (piv.len(), columns(sb));
    let ipiv: Vec<i32> = piv.iter().map(|&p| p as i32 + 1).collect();
    on_columns(&mut bv, n, k, |x| {
        dgetrs(transpose, n, k, lu, &ipiv, x);
    });
    tensor(bv, sb)
}

/// `cholesky`/`cho_factor` of `av` `sa = (B..., n, n)`: the `upper` (else
/// lower) factor, reading that triangle only, the other triangle zeroed
/// (`clean`) or `a`'s own; the smallest positive `info` when a leading minor
/// is not positive definite.
pub(crate) fn cholesky(
    mut av: Vec<f64>,
    sa: &[i64],
    upper: bool,
    clean: bool,
) -> Result<std::result::Result<Tensor, i64>> {
    let n = sa[sa.len() - 1] as usize;
    let mut first = 0i64;
    for c in av.chunks_exact_mut(n * n) {
        // `c` is A^T to LAPACK: A's upper triangle is its lower one, and
        // A = U^T U is A^T = L L^T with L = U^T, stored where U is.
        let info = dpotrf(!upper, n, c) as i64;
        if info > 0 && (first == 0 || info < first) {
            first = info;
        }
        if clean {
            for (i, row) in c.chunks_exact_mut(n).enumerate() {
                let other = if upper { &mut row[..i] } else { &mut row[i + 1..] };
                other.fill(0.0);
            }
        }
    }
    if first > 0 {
        return Ok(Err(first));
    }
    Ok(Ok(tensor(av, sa)?))
}

/// `cho_solve` with one row-major `n x n` factor `c` (its `upper` or lower
/// triangle read) and row-major `bv` of shape `sb` (`(n,)` or `(n, k)`).
pub(crate) fn cho_solve(c: &[f64], upper: bool, mut bv: Vec<f64>, sb: &[i64]) -> Result<Tensor> {
    let (n, k) = (sb[0] as usize, columns(sb));
    // `c` is C^T to LAPACK, its factor in the other triangle (as in `cholesky`)
    on_columns(&mut bv, n, k, |x| {
        dpotrs(!upper, n, k, c, x);
    });
    tensor(bv, sb)
}

/// `svd` of `a` `(B..., m, n)` with finite entries: `U`, `s`, `V^H` (`full`
/// or reduced factors; `None` without `vectors`), as libtorch's `?gesdd`.
/// `Err(())` inside: a matrix did not converge.
#[allow(clippy::type_complexity)]
pub(crate) fn svd(
    av: &[f64],
    shape: &[i64],
    full: bool,
    vectors: bool,
) -> Result<std::result::Result<(Option<Tensor>, Tensor, Option<Tensor>), ()>> {
    let (m, n) = (shape[shape.len() - 2] as usize, shape[shape.len() - 1] as usize);
    let batch = &shape[..shape.len() - 2];
    let k = m.min(n);
    let count = av.len().checked_div(m * n).unwrap_or(0);
    let (ucols, vrows) = if full { (m, n) } else { (k, k) };
    let mut ss = Vec::with_capacity(count * k);
    let mut us = vec![0f64; if vectors { count * m * ucols } else { 0 }];
    let mut vts = vec![0f64; if vectors { count * vrows * n } else { 0 }];
    let mut s = vec![0f64; k];
    let mut a = vec![0f64; m * n];
    for b in 0..count {
        transpose(&av[b * m * n..(b + 1) * m * n], &mut a, m, n);
        let (info, u, vt) = dgesdd(m, n, &mut a, &mut s, vectors.then_some(full));
        if info != 0 {
            return Ok(Err(()));
        }
        ss.extend_from_slice(&s);
        if vectors {
            transpose(&u, &mut us[b * m * ucols..], ucols, m);
            transpose(&vt, &mut vts[b * vrows * n..], n, vrows);
        }
    }
    let with = |tail: &[i64]| -> Vec<i64> { batch.iter().chain(tail).copied().collect() };
    let s = tensor(ss, &with(&[k as i64]))?;
    if !vectors {
        return Ok(Ok((None, s, None)));
    }
    let u = tensor(us, &with(&[m as i64, ucols as i64]))?;
    let vh = tensor(vts, &with(&[vrows as i64, n as i64]))?;
    Ok(Ok((Some(u), s, Some(vh))))
}
