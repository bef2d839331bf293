//! The small-matrix path: float64 CPU matrices up to [`SMALL_N`] square
//! (and batches of them) copied to host buffers and factored by direct
//! LAPACK calls (`crate::ffi::lapack`, the same MKL routines libtorch's CPU
//! linear algebra calls), with the `?gecon`-style condition estimate run on
//! the factorization in host memory. At these sizes a libtorch call costs
//! more than the arithmetic, and the estimate as tensor ops was a few dozen
//! of them; here a whole `solve` is two copies and a few LAPACK calls.
//!
//! Values are those of the tensor path (the same LAPACK routines, the same
//! Hager/Higham iteration), up to the order of the final sums.

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

/// SciPy's `check_finite` error on host data.
pub(crate) fn check_finite(check: bool, v: &[f64]) -> Result<()> {
    if check && !v.iter().all(|x| x.is_finite()) {
        return Err(Error::InvalidArgument("array must not contain infs or NaNs".into()));
    }
    Ok(())
}

fn tensor(v: &[f64], shape: &[i64]) -> Result<Tensor> {
    Ok(Tensor::f_from_slice(v)?.f_reshape(shape)?)
}

/// The row-major `rows x cols` block as a column-major one.
fn to_col_major(src: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut out = vec![0f64; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            out[j * rows + i] = src[i * cols + j];
        }
    }
    out
}

/// Appends the column-major `rows x cols` block to `out` in row-major order.
fn push_row_major(src: &[f64], rows: usize, cols: usize, out: &mut Vec<f64>) {
    for i in 0..rows {
        for j in 0..cols {
            out.push(src[j * rows + i]);
        }
    }
}

/// NaN-propagating maximum (libtorch's `maximum`/`amax`).
fn nanmax(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// The 1-norm of the column-major `n x n` `a` (`rows`: of its transpose).
fn norm1(a: &[f64], n: usize, rows: bool) -> f64 {
    (0..n).fold(0.0, |m, j| {
        let s: f64 = (0..n).map(|i| if rows { a[j + i * n] } else { a[i + j * n] }.abs()).sum();
        nanmax(m, s)
    })
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
    let mut est = 0.0f64;
    let abs_sum = |y: &[f64]| y.iter().map(|v| v.abs()).sum::<f64>();
    for _ in 0..3 {
        let mut y = x.clone();
        solve(&mut y, false);
        est = nanmax(est, abs_sum(&y));
        let mut z: Vec<f64> = y.iter().map(|&v| if v >= 0.0 { 1.0 } else { -1.0 }).collect();
        solve(&mut z, true);
        let j = argmax_abs(&z);
        x.fill(0.0);
        x[j] = 1.0;
    }
    if n > 1 {
        let mut y: Vec<f64> = (0..n)
            .map(|i| {
                let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
                sign * (1.0 + i as f64 / (n - 1) as f64)
            })
            .collect();
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

/// `solve` with `assume_a` general: `a` `(B..., n, n)` and `b` `(B..., n, k)`
/// (batches already broadcast); the solutions `(B..., n, k)` and the
/// reciprocal condition estimates `(B...)`. A singular matrix is an error.
pub(crate) fn solve_general(a: &Tensor, b: &Tensor, transposed: bool) -> Result<(Tensor, Tensor)> {
    let (sa, sb) = (a.size(), b.size());
    let n = sa[sa.len() - 1] as usize;
    let k = sb[sb.len() - 1] as usize;
    let (av, bv) = (data(a)?, data(b)?);
    let count = av.len() / (n * n);
    let mut xs = Vec::with_capacity(bv.len());
    let mut rconds = Vec::with_capacity(count);
    let mut ipiv = vec![0i32; n];
    for m in 0..count {
        let mut lu = to_col_major(&av[m * n * n..(m + 1) * n * n], n, n);
        if dgetrf(n, &mut lu, &mut ipiv) > 0 {
            return Err(singular());
        }
        let mut x = to_col_major(&bv[m * n * k..(m + 1) * n * k], n, k);
        dgetrs(transposed, n, k, &lu, &ipiv, &mut x);
        push_row_major(&x, n, k, &mut xs);
        let anorm = norm1(&av[m * n * n..(m + 1) * n * n], n, !transposed);
        rconds.push(rcond(anorm, n, &|v, adjoint| {
            dgetrs(adjoint != transposed, n, 1, &lu, &ipiv, v);
        }));
    }
    Ok((tensor(&xs, &sb)?, tensor(&rconds, &sa[..sa.len() - 2])?))
}

/// `inv` with `assume_a` general: the inverses of `a` `(B..., n, n)` and
/// `1 / (||A||_1 ||A^-1||_1)`. A singular matrix is an error.
pub(crate) fn inv_general(a: &Tensor) -> Result<(Tensor, Tensor)> {
    let sa = a.size();
    let n = sa[sa.len() - 1] as usize;
    let av = data(a)?;
    let count = av.len() / (n * n);
    let mut xs = Vec::with_capacity(av.len());
    let mut rconds = Vec::with_capacity(count);
    let mut ipiv = vec![0i32; n];
    for m in 0..count {
        let block = &av[m * n * n..(m + 1) * n * n];
        let mut lu = to_col_major(block, n, n);
        if dgetrf(n, &mut lu, &mut ipiv) > 0 {
            return Err(singular());
        }
        let mut x = vec![0f64; n * n];
        for i in 0..n {
            x[i * n + i] = 1.0;
        }
        dgetrs(false, n, n, &lu, &ipiv, &mut x);
        // (row-major `block`: its column sums are the row sums of the transpose)
        rconds.push(1.0 / (norm1(block, n, true) * norm1(&x, n, false)));
        push_row_major(&x, n, n, &mut xs);
    }
    Ok((tensor(&xs, &sa)?, tensor(&rconds, &sa[..sa.len() - 2])?))
}

/// `det` of each matrix of `a` `(B..., n, n)`: the product of `U`'s
/// diagonal, in order, with the sign of the pivots' permutation.
pub(crate) fn det(a: &Tensor) -> Result<Tensor> {
    let sa = a.size();
    let n = sa[sa.len() - 1] as usize;
    let av = data(a)?;
    let count = av.len() / (n * n);
    let mut dets = Vec::with_capacity(count);
    let mut ipiv = vec![0i32; n];
    for m in 0..count {
        let mut lu = to_col_major(&av[m * n * n..(m + 1) * n * n], n, n);
        dgetrf(n, &mut lu, &mut ipiv);
        let swaps = ipiv.iter().enumerate().filter(|(i, &p)| p != *i as i32 + 1).count();
        let d = (0..n).fold(1.0, |d, i| d * lu[i * n + i]);
        dets.push(if swaps % 2 == 1 { -d } else { d });
    }
    tensor(&dets, &sa[..sa.len() - 2])
}

/// `lu_factor` of square `a` `(B..., n, n)`: the packed factors, the
/// 0-based pivots (int32, `(B..., n)`) and the smallest positive `info`.
pub(crate) fn lu_factor(a: &Tensor) -> Result<(Tensor, Tensor, i64)> {
    let sa = a.size();
    let n = sa[sa.len() - 1] as usize;
    let av = data(a)?;
    let count = av.len() / (n * n);
    let mut lus = Vec::with_capacity(av.len());
    let mut pivs = Vec::with_capacity(count * n);
    let mut ipiv = vec![0i32; n];
    let mut first = 0i64;
    for m in 0..count {
        let mut lu = to_col_major(&av[m * n * n..(m + 1) * n * n], n, n);
        let info = dgetrf(n, &mut lu, &mut ipiv) as i64;
        if info > 0 && (first == 0 || info < first) {
            first = info;
        }
        push_row_major(&lu, n, n, &mut lus);
        pivs.extend(ipiv.iter().map(|p| p - 1));
    }
    let piv = Tensor::f_from_slice(&pivs)?.f_reshape(&sa[..sa.len() - 1])?;
    Ok((tensor(&lus, &sa)?, piv, first))
}

/// `lu_solve` with one `n x n` factorization `lu` (row-major, packed),
/// 0-based `piv` and `b` `(n, k)`: `A x = b` or (`transpose`) `A^T x = b`.
pub(crate) fn lu_solve(lu: &Tensor, piv: &[i64], b: &Tensor, transpose: bool) -> Result<Tensor> {
    let n = lu.size()[0] as usize;
    let sb = b.size();
    let k = sb[sb.len() - 1] as usize;
    let ipiv: Vec<i32> = piv.iter().map(|&p| p as i32 + 1).collect();
    let lu = to_col_major(&data(lu)?, n, n);
    let mut x = to_col_major(&data(b)?, n, k);
    dgetrs(transpose, n, k, &lu, &ipiv, &mut x);
    let mut out = Vec::with_capacity(n * k);
    push_row_major(&x, n, k, &mut out);
    tensor(&out, &sb)
}

/// `cholesky`/`cho_factor` of `a` `(B..., n, n)`: the `upper` (else lower)
/// factor, the other triangle zeroed (`clean`) or `a`'s own; the smallest
/// positive `info` when a leading minor is not positive definite.
pub(crate) fn cholesky(a: &Tensor, upper: bool, clean: bool) -> Result<std::result::Result<Tensor, i64>> {
    let sa = a.size();
    let n = sa[sa.len() - 1] as usize;
    let av = data(a)?;
    let count = av.len() / (n * n);
    let mut out = Vec::with_capacity(av.len());
    let mut first = 0i64;
    for m in 0..count {
        let mut c = to_col_major(&av[m * n * n..(m + 1) * n * n], n, n);
        let info = dpotrf(upper, n, &mut c) as i64;
        if info > 0 && (first == 0 || info < first) {
            first = info;
        }
        if clean {
            for j in 0..n {
                for i in 0..n {
                    if (upper && i > j) || (!upper && i < j) {
                        c[j * n + i] = 0.0;
                    }
                }
            }
        }
        push_row_major(&c, n, n, &mut out);
    }
    if first > 0 {
        return Ok(Err(first));
    }
    Ok(Ok(tensor(&out, &sa)?))
}

/// `cho_solve` with one `n x n` factor `c` (its `upper` or lower triangle
/// read) and `b` `(n, k)`.
pub(crate) fn cho_solve(c: &Tensor, upper: bool, b: &Tensor) -> Result<Tensor> {
    let n = c.size()[0] as usize;
    let sb = b.size();
    let k = sb[sb.len() - 1] as usize;
    let c = to_col_major(&data(c)?, n, n);
    let mut x = to_col_major(&data(b)?, n, k);
    dpotrs(upper, n, k, &c, &mut x);
    let mut out = Vec::with_capacity(n * k);
    push_row_major(&x, n, k, &mut out);
    tensor(&out, &sb)
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
    let mut us = Vec::with_capacity(if vectors { count * m * ucols } else { 0 });
    let mut vts = Vec::with_capacity(if vectors { count * vrows * n } else { 0 });
    let mut s = vec![0f64; k];
    for b in 0..count {
        let mut a = to_col_major(&av[b * m * n..(b + 1) * m * n], m, n);
        let (info, u, vt) = dgesdd(m, n, &mut a, &mut s, vectors.then_some(full));
        if info != 0 {
            return Ok(Err(()));
        }
        ss.extend_from_slice(&s);
        if vectors {
            push_row_major(&u, m, ucols, &mut us);
            push_row_major(&vt, vrows, n, &mut vts);
        }
    }
    let with = |tail: &[i64]| -> Vec<i64> { batch.iter().chain(tail).copied().collect() };
    let s = tensor(&ss, &with(&[k as i64]))?;
    if !vectors {
        return Ok(Ok((None, s, None)));
    }
    let u = tensor(&us, &with(&[m as i64, ucols as i64]))?;
    let vh = tensor(&vts, &with(&[vrows as i64, n as i64]))?;
    Ok(Ok((Some(u), s, Some(vh))))
}
