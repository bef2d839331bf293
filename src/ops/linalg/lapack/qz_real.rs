//! The real generalized Schur form on the host: LAPACK's `dhgeqz` (job
//! `'S'`, `compq = compz = 'V'`) in structure, its deflation and zero-chasing
//! steps ported as `zhgeqz`'s are in `qz.rs`, its sweeps the Moler-Stewart
//! double-shift step (3x3 Householder reflections from the left, Givens
//! rotations from the right restoring `T`), a single real shift on an
//! isolated 2x2 block with real eigenvalues, and `dhgeqz`'s standardization
//! of a 2x2 block with complex eigenvalues (`T`'s block made diagonal with
//! positive entries, `dlasv2` in effect). The code is 0-based.

use super::qz::hess_norm;
use super::scalar::{larfg, lartg, Dense};

/// `dhgeqz` with `job = 'S'`, `compq = compz = 'V'` (`ilo = 1`, `ihi = n`):
/// `(h, t)` Hessenberg-triangular becomes the real generalized Schur form
/// (`h` quasi-upper triangular with 1x1 and 2x2 blocks, the 2x2 ones for
/// complex conjugate pairs; `t` upper triangular with a non-negative
/// diagonal and each 2x2 block of `h` facing a diagonal block of `t`),
/// `q <- q Q`, `z <- z Z`. `Err(i)`: no convergence.
pub(crate) fn hgeqz_real(
    h: &mut Dense<f64>,
    t: &mut Dense<f64>,
    q: &mut Dense<f64>,
    z: &mut Dense<f64>,
) -> Result<(), usize> {
    let n = h.n;
    if n == 0 {
        return Ok(());
    }
    let safmin = f64::MIN_POSITIVE;
    let ulp = f64::EPSILON;
    let anorm = hess_norm(h);
    let bnorm = hess_norm(t);
    let atol = safmin.max(ulp * anorm);
    let btol = safmin.max(ulp * bnorm);
    let ascale = 1.0 / safmin.max(anorm);
    let ilo = 0usize;
    let mut ilast = n - 1;
    let mut ifirst;
    let mut iiter = 0usize;
    let maxit = 30 * n;
    enum Step {
        ZeroT,   // 70: t[ilast, ilast] = 0
        Deflate, // 80: h[ilast, ilast-1] = 0
        Sweep,   // 110: a QZ step on ifirst..=ilast
    }
    for _ in 0..maxit {
        let mut step;
        ifirst = ilo;
        'split: {
            if ilast == ilo {
                step = Step::Deflate;
                break 'split;
            }
            if h.at(ilast, ilast - 1).abs()
                <= safmin.max(ulp * (h.at(ilast, ilast).abs() + h.at(ilast - 1, ilast - 1).abs()))
            {
                *h.at_mut(ilast, ilast - 1) = 0.0;
                step = Step::Deflate;
                break 'split;
            }
            if t.at(ilast, ilast).abs() <= btol {
                *t.at_mut(ilast, ilast) = 0.0;
                step = Step::ZeroT;
                break 'split;
            }
            let mut j = ilast - 1;
            loop {
                let ilazro = if j == ilo {
                    true
                } else if h.at(j, j - 1).abs() <= safmin.max(ulp * (h.at(j, j).abs() + h.at(j - 1, j - 1).abs())) {
                    *h.at_mut(j, j - 1) = 0.0;
                    true
                } else {
                    false
                };
                if t.at(j, j).abs() < btol {
                    *t.at_mut(j, j) = 0.0;
                    let mut ilazr2 = !ilazro
                        && h.at(j, j - 1).abs() * (ascale * h.at(j + 1, j).abs()) <= h.at(j, j).abs() * (ascale * atol);
                    if ilazro || ilazr2 {
                        step = Step::ZeroT;
                        for jch in j..ilast {
                            let (c, s, r) = lartg(h.at(jch, jch), h.at(jch + 1, jch));
                            *h.at_mut(jch, jch) = r;
                            *h.at_mut(jch + 1, jch) = 0.0;
                            h.rot_rows(jch + 1..n, jch, jch + 1, c, s);
                            t.rot_rows(jch + 1..n, jch, jch + 1, c, s);
                            q.rot_cols(0..n, jch, jch + 1, c, s);
                            if ilazr2 {
                                *h.at_mut(jch, jch - 1) *= c;
                            }
                            ilazr2 = false;
                            if t.at(jch + 1, jch + 1).abs() >= btol {
                                if jch + 1 >= ilast {
                                    step = Step::Deflate;
                                } else {
                                    ifirst = jch + 1;
                                    step = Step::Sweep;
                                }
                                break;
                            }
                            *t.at_mut(jch + 1, jch + 1) = 0.0;
                        }
                        break 'split;
                    }
                    // chase the zero to t[ilast, ilast]
                    for jch in j..ilast {
                        let (c, s, r) = lartg(t.at(jch, jch + 1), t.at(jch + 1, jch + 1));
                        *t.at_mut(jch, jch + 1) = r;
                        *t.at_mut(jch + 1, jch + 1) = 0.0;
                        if jch + 2 < n {
                            t.rot_rows(jch + 2..n, jch, jch + 1, c, s);
                        }
                        h.rot_rows(jch - 1..n, jch, jch + 1, c, s);
                        q.rot_cols(0..n, jch, jch + 1, c, s);
                        let (c, s, r) = lartg(h.at(jch + 1, jch), h.at(jch + 1, jch - 1));
                        *h.at_mut(jch + 1, jch) = r;
                        *h.at_mut(jch + 1, jch - 1) = 0.0;
                        h.rot_cols(0..jch + 1, jch, jch - 1, c, s);
                        t.rot_cols(0..jch, jch, jch - 1, c, s);
                        z.rot_cols(0..n, jch, jch - 1, c, s);
                    }
                    step = Step::ZeroT;
                    break 'split;
                } else if ilazro {
                    ifirst = j;
                    step = Step::Sweep;
                    break 'split;
                }
                if j == ilo {
                    return Err(ilast + 1);
                }
                j -= 1;
            }
        }
        if let Step::ZeroT = step {
            // 70: clear h[ilast, ilast-1] with a column rotation
            let (c, s, r) = lartg(h.at(ilast, ilast), h.at(ilast, ilast - 1));
            *h.at_mut(ilast, ilast) = r;
            *h.at_mut(ilast, ilast - 1) = 0.0;
            h.rot_cols(0..ilast, ilast, ilast - 1, c, s);
            t.rot_cols(0..ilast, ilast, ilast - 1, c, s);
            z.rot_cols(0..n, ilast, ilast - 1, c, s);
            step = Step::Deflate;
        }
        match step {
            Step::Deflate => {
                // 80: t[ilast, ilast] non-negative
                if t.at(ilast, ilast) < 0.0 {
                    negate_column(h, t, z, ilast, ilast);
                }
                if ilast == ilo {
                    return Ok(());
                }
                ilast -= 1;
                iiter = 0;
            }
            Step::Sweep => {
                iiter += 1;
                if ifirst + 1 == ilast {
                    let (s, p) = shift_sum_product(h, t, ilast);
                    let half = 0.5 * s;
                    let disc = half * half - p;
                    if disc < 0.0 {
                        // a complex pair: t's block diagonal, positive
                        standardize_pair(h, t, q, z, ifirst);
                        if ifirst == ilo {
                            return Ok(());
                        }
                        ilast = ifirst - 1;
                        iiter = 0;
                        continue;
                    }
                    // real eigenvalues: one single-shift step, the one nearer m22
                    let root = disc.sqrt();
                    let m22 = shift_m22(h, t, ilast);
                    let (l1, l2) = (half + root, half - root);
                    let shift = if (l1 - m22).abs() <= (l2 - m22).abs() { l1 } else { l2 };
                    single_shift(h, t, q, z, ifirst, ilast, shift);
                } else {
                    let (s, p) = if iiter % 10 == 0 {
                        // an exceptional shift (a double real one)
                        let ex = shift_m22(h, t, ilast)
                            + 0.75
                                * ((h.at(ilast, ilast - 1) / t.at(ilast - 1, ilast - 1)).abs()
                                    + (h.at(ilast - 1, ilast - 2) / t.at(ilast - 2, ilast - 2)).abs());
                        (2.0 * ex, ex * ex)
                    } else {
                        shift_sum_product(h, t, ilast)
                    };
                    double_shift(h, t, q, z, ifirst, ilast, s, p);
                }
            }
            Step::ZeroT => unreachable!(),
        }
    }
    Err(ilast + 1)
}

/// Column `k` of `h` and `t` (rows `..=last`) and of `z` negated.
fn negate_column(h: &mut Dense<f64>, t: &mut Dense<f64>, z: &mut Dense<f64>, k: usize, last: usize) {
    for r in 0..=last {
        *h.at_mut(r, k) = -h.at(r, k);
        *t.at_mut(r, k) = -t.at(r, k);
    }
    for r in 0..z.n {
        *z.at_mut(r, k) = -z.at(r, k);
    }
}

/// The trailing 2x2 block `M` of `h t^{-1}` on rows/columns `l-1, l`.
fn trailing(h: &Dense<f64>, t: &Dense<f64>, l: usize) -> [[f64; 2]; 2] {
    let (b11, b12, b22) = (t.at(l - 1, l - 1), t.at(l - 1, l), t.at(l, l));
    let m11 = h.at(l - 1, l - 1) / b11;
    let m21 = h.at(l, l - 1) / b11;
    let m12 = (h.at(l - 1, l) - m11 * b12) / b22;
    let m22 = (h.at(l, l) - m21 * b12) / b22;
    [[m11, m12], [m21, m22]]
}

/// The sum and the product of the eigenvalues of the 2x2 pencil at `l-1, l`.
fn shift_sum_product(h: &Dense<f64>, t: &Dense<f64>, l: usize) -> (f64, f64) {
    let [[m11, m12], [m21, m22]] = trailing(h, t, l);
    (m11 + m22, m11 * m22 - m12 * m21)
}

fn shift_m22(h: &Dense<f64>, t: &Dense<f64>, l: usize) -> f64 {
    trailing(h, t, l)[1][1]
}

/// One implicit single-shift QZ step on `first..=last` (`dhgeqz`'s real-shift branch).
fn single_shift(
    h: &mut Dense<f64>,
    t: &mut Dense<f64>,
    q: &mut Dense<f64>,
    z: &mut Dense<f64>,
    first: usize,
    last: usize,
    shift: f64,
) {
    let n = h.n;
    let (mut c, mut s, _) = lartg(h.at(first, first) - shift * t.at(first, first), h.at(first + 1, first));
    for j in first..last {
        if j > first {
            let (cc, ss, r) = lartg(h.at(j, j - 1), h.at(j + 1, j - 1));
            c = cc;
            s = ss;
            *h.at_mut(j, j - 1) = r;
            *h.at_mut(j + 1, j - 1) = 0.0;
        }
        h.rot_rows(j..n, j, j + 1, c, s);
        t.rot_rows(j..n, j, j + 1, c, s);
        q.rot_cols(0..n, j, j + 1, c, s);
        let (c2, s2, r) = lartg(t.at(j + 1, j + 1), t.at(j + 1, j));
        *t.at_mut(j + 1, j + 1) = r;
        *t.at_mut(j + 1, j) = 0.0;
        h.rot_cols(0..(j + 3).min(last + 1), j + 1, j, c2, s2);
        t.rot_cols(0..j + 1, j + 1, j, c2, s2);
        z.rot_cols(0..n, j + 1, j, c2, s2);
    }
}

/// Rows `k..k+3` of `m` (columns `cols`) reflected by `I - tau u u^T`, `u = [1, u1, u2]`.
fn reflect3_rows(m: &mut Dense<f64>, cols: std::ops::Range<usize>, k: usize, u: [f64; 3], tau: f64) {
    for j in cols {
        let w = tau * (m.at(k, j) + u[1] * m.at(k + 1, j) + u[2] * m.at(k + 2, j));
        for (i, ui) in u.iter().enumerate() {
            *m.at_mut(k + i, j) -= w * ui;
        }
    }
}

/// One implicit Francis double-shift QZ step (Moler-Stewart) on `first..=last`
/// (`last - first >= 2`), the shifts given by their sum `s` and product `p`.
#[allow(clippy::too_many_arguments)]
fn double_shift(
    h: &mut Dense<f64>,
    t: &mut Dense<f64>,
    q: &mut Dense<f64>,
    z: &mut Dense<f64>,
    first: usize,
    last: usize,
    s: f64,
    p: f64,
) {
    let n = h.n;
    let f = first;
    // the first column of (M - s1)(M - s2) e1, M = h t^{-1}
    let (b11, b12, b22) = (t.at(f, f), t.at(f, f + 1), t.at(f + 1, f + 1));
    let c11 = h.at(f, f) / b11;
    let c21 = h.at(f + 1, f) / b11;
    let c12 = (h.at(f, f + 1) - c11 * b12) / b22;
    let c22 = (h.at(f + 1, f + 1) - c21 * b12) / b22;
    let c32 = h.at(f + 2, f + 1) / b22;
    let mut v = [c11 * c11 + c12 * c21 - s * c11 + p, c21 * (c11 + c22 - s), c32 * c21];
    let big = v.iter().fold(0f64, |m, x| m.max(x.abs()));
    if big > 0.0 && big.is_finite() {
        v.iter_mut().for_each(|x| *x /= big);
    }
    for j in first..last - 1 {
        let (alpha, mut x) =
            if j > first { (h.at(j, j - 1), [h.at(j + 1, j - 1), h.at(j + 2, j - 1)]) } else { (v[0], [v[1], v[2]]) };
        let (beta, tau) = larfg(alpha, &mut x);
        if j > first {
            *h.at_mut(j, j - 1) = beta;
            *h.at_mut(j + 1, j - 1) = 0.0;
            *h.at_mut(j + 2, j - 1) = 0.0;
        }
        if tau != 0.0 {
            let u = [1.0, x[0], x[1]];
            reflect3_rows(h, j..n, j, u, tau);
            reflect3_rows(t, j..n, j, u, tau);
            for r in 0..n {
                let w = tau * (q.at(r, j) + u[1] * q.at(r, j + 1) + u[2] * q.at(r, j + 2));
                for (i, ui) in u.iter().enumerate() {
                    *q.at_mut(r, j + i) -= w * ui;
                }
            }
        }
        // t's rows j+1, j+2 back to triangular by column rotations
        let hrows = 0..(j + 4).min(last + 1);
        for (keep, kill, row) in [(j + 2, j + 1, j + 2), (j + 2, j, j + 2), (j + 1, j, j + 1)] {
            let (c, s, r) = lartg(t.at(row, keep), t.at(row, kill));
            *t.at_mut(row, keep) = r;
            *t.at_mut(row, kill) = 0.0;
            t.rot_cols(0..row, keep, kill, c, s);
            h.rot_cols(hrows.clone(), keep, kill, c, s);
            z.rot_cols(0..n, keep, kill, c, s);
        }
    }
    // the last step: a 2x2 rotation on rows last-1, last
    let j = last - 1;
    let (c, s, r) = lartg(h.at(j, j - 1), h.at(j + 1, j - 1));
    *h.at_mut(j, j - 1) = r;
    *h.at_mut(j + 1, j - 1) = 0.0;
    h.rot_rows(j..n, j, j + 1, c, s);
    t.rot_rows(j..n, j, j + 1, c, s);
    q.rot_cols(0..n, j, j + 1, c, s);
    let (c, s, r) = lartg(t.at(j + 1, j + 1), t.at(j + 1, j));
    *t.at_mut(j + 1, j + 1) = r;
    *t.at_mut(j + 1, j) = 0.0;
    t.rot_cols(0..j + 1, j + 1, j, c, s);
    h.rot_cols(0..last + 1, j + 1, j, c, s);
    z.rot_cols(0..n, j + 1, j, c, s);
}

/// `dhgeqz`'s standardization of the 2x2 block at `k, k+1` with complex
/// eigenvalues: `t`'s block made diagonal (its SVD: a one-sided Jacobi
/// rotation of the columns, then a row rotation) with positive entries.
pub(crate) fn standardize_pair(
    h: &mut Dense<f64>,
    t: &mut Dense<f64>,
    q: &mut Dense<f64>,
    z: &mut Dense<f64>,
    k: usize,
) {
    let n = h.n;
    let last = k + 1;
    let (t11, t12, t22) = (t.at(k, k), t.at(k, k + 1), t.at(k + 1, k + 1));
    let (alpha, beta, gamma) = (t11 * t11, t12 * t12 + t22 * t22, t11 * t12);
    if gamma != 0.0 {
        let zeta = (beta - alpha) / (2.0 * gamma);
        let tn = zeta.signum() / (zeta.abs() + 1f64.hypot(zeta));
        let c = 1.0 / 1f64.hypot(tn);
        let s = c * tn;
        // (x, y) <- (c x - s y, s x + c y)
        h.rot_cols(0..last + 1, k, k + 1, c, -s);
        t.rot_cols(0..last + 1, k, k + 1, c, -s);
        z.rot_cols(0..n, k, k + 1, c, -s);
    }
    let (c, s, r) = lartg(t.at(k, k), t.at(k + 1, k));
    h.rot_rows(k..n, k, k + 1, c, s);
    t.rot_rows(k..n, k, k + 1, c, s);
    q.rot_cols(0..n, k, k + 1, c, s);
    *t.at_mut(k, k) = r;
    *t.at_mut(k + 1, k) = 0.0;
    *t.at_mut(k, k + 1) = 0.0;
    for kk in [k, k + 1] {
        if t.at(kk, kk) < 0.0 {
            negate_column(h, t, z, kk, last);
        }
    }
}

/// The start of the diagonal block that ends at `k - 1` (`k - 2` for a 2x2 block).
fn block_before(a: &Dense<f64>, k: usize) -> usize {
    if k >= 2 && a.at(k - 1, k - 2) != 0.0 {
        k - 2
    } else {
        k - 1
    }
}

/// The size (1 or 2) of the diagonal block starting at `k`.
pub(crate) fn block_size(a: &Dense<f64>, k: usize) -> usize {
    if k + 1 < a.n && a.at(k + 1, k) != 0.0 {
        2
    } else {
        1
    }
}

/// `dtgexc` moving up: the diagonal block starting at `ifst` moved to start
/// at `ilst <= ifst` (a block boundary) by swaps with the blocks before it.
pub(crate) fn tgexc_real(
    a: &mut Dense<f64>,
    b: &mut Dense<f64>,
    q: &mut Dense<f64>,
    z: &mut Dense<f64>,
    ifst: usize,
    ilst: usize,
) -> Result<(), SwapRefused> {
    let mut k = ifst;
    while k > ilst {
        let prev = block_before(a, k);
        let (n1, n2) = (k - prev, block_size(a, k));
        tgex2_real(a, b, q, z, prev, n1, n2)?;
        k = prev;
    }
    Ok(())
}

/// A swap of two diagonal blocks that would leave the pencil too far from
/// generalized Schur form (`dtgex2`'s `info = 1`: eigenvalues too close to
/// separate); the matrices are left partly transformed.
#[derive(Debug)]
pub(crate) struct SwapRefused;

/// `dtgex2` in effect: swaps the adjacent diagonal blocks of sizes `n1` (at
/// `j1`) and `n2` (at `j1 + n1`) of the real generalized Schur form: the
/// generalized Sylvester equation `A11 R - L A22 = -A12`, `B11 R - L B22 =
/// -B12` solved (Gaussian elimination with complete pivoting, tiny pivots
/// perturbed as `dtgsy2` does), the deflating subspaces `[R; I]`, `[L; I]`
/// made orthonormal (Householder QR) for `Z` and `Q`, the new blocks then
/// standardized. As `dtgex2`, the swap is refused where the entries it
/// would set to zero exceed `20 eps` times the two blocks' norm.
pub(crate) fn tgex2_real(
    a: &mut Dense<f64>,
    b: &mut Dense<f64>,
    q: &mut Dense<f64>,
    z: &mut Dense<f64>,
    j1: usize,
    n1: usize,
    n2: usize,
) -> Result<(), SwapRefused> {
    let n = a.n;
    let m = n1 + n2;
    let block_norm = [&*a, &*b]
        .iter()
        .flat_map(|mat| (0..m).flat_map(move |i| (0..m).map(move |j| mat.at(j1 + i, j1 + j).powi(2))))
        .sum::<f64>()
        .sqrt();
    let mut dropped = 0f64;
    let np = n1 * n2;
    let unknowns = 2 * np;
    // rows: the equations (first a's, then b's); columns: R[i][j] at i*n2+j, L at np + i*n2+j
    let mut sys = vec![vec![0.0f64; unknowns + 1]; unknowns];
    for (eq, mat) in [(0usize, &*a), (np, &*b)] {
        for i in 0..n1 {
            for j in 0..n2 {
                let row = &mut sys[eq + i * n2 + j];
                for k in 0..n1 {
                    row[k * n2 + j] += mat.at(j1 + i, j1 + k);
                }
                for k in 0..n2 {
                    row[np + i * n2 + k] -= mat.at(j1 + n1 + k, j1 + n1 + j);
                }
                row[unknowns] = -mat.at(j1 + i, j1 + n1 + j);
            }
        }
    }
    let x = solve_small(sys, unknowns);
    let r = |i: usize, j: usize| x[i * n2 + j];
    let l = |i: usize, j: usize| x[np + i * n2 + j];
    let basis = |f: &dyn Fn(usize, usize) -> f64| {
        let cols: Vec<Vec<f64>> = (0..n2)
            .map(|j| {
                (0..m)
                    .map(|i| {
                        if i < n1 {
                            f(i, j)
                        } else if i - n1 == j {
                            1.0
                        } else {
                            0.0
                        }
                    })
                    .collect()
            })
            .collect();
        orthonormal_completion(cols, m)
    };
    let zz = basis(&r);
    let qq = basis(&l);
    // a, b <- Q^T a Z on the blocks' rows and columns; q <- q Q, z <- z Z
    for mat in [&mut *a, &mut *b] {
        for c in j1..n {
            let col: Vec<f64> = (0..m).map(|i| mat.at(j1 + i, c)).collect();
            for (i, qi) in qq.iter().enumerate() {
                *mat.at_mut(j1 + i, c) = qi.iter().zip(&col).map(|(x, y)| x * y).sum();
            }
        }
        for rr in 0..(j1 + m) {
            let row: Vec<f64> = (0..m).map(|i| mat.at(rr, j1 + i)).collect();
            for (i, zi) in zz.iter().enumerate() {
                *mat.at_mut(rr, j1 + i) = zi.iter().zip(&row).map(|(x, y)| x * y).sum();
            }
        }
        for i in n2..m {
            for j in 0..n2 {
                dropped = dropped.max(mat.at(j1 + i, j1 + j).abs());
                *mat.at_mut(j1 + i, j1 + j) = 0.0;
            }
        }
    }
    if dropped > (20.0 * f64::EPSILON * block_norm).max(f64::MIN_POSITIVE) {
        return Err(SwapRefused);
    }
    for (acc, basis) in [(&mut *q, &qq), (&mut *z, &zz)] {
        for rr in 0..n {
            let row: Vec<f64> = (0..m).map(|i| acc.at(rr, j1 + i)).collect();
            for (i, bi) in basis.iter().enumerate() {
                *acc.at_mut(rr, j1 + i) = bi.iter().zip(&row).map(|(x, y)| x * y).sum();
            }
        }
    }
    standardize_block(a, b, q, z, j1, n2);
    standardize_block(a, b, q, z, j1 + n2, n1);
    Ok(())
}

/// A diagonal block after a swap back in standard form: `b`'s block upper
/// triangular, a 2x2 pair's made diagonal, the diagonal of `b` non-negative.
fn standardize_block(
    a: &mut Dense<f64>,
    b: &mut Dense<f64>,
    q: &mut Dense<f64>,
    z: &mut Dense<f64>,
    k: usize,
    size: usize,
) {
    let n = a.n;
    if size == 2 {
        let (c, s, r) = lartg(b.at(k, k), b.at(k + 1, k));
        a.rot_rows(k..n, k, k + 1, c, s);
        b.rot_rows(k..n, k, k + 1, c, s);
        q.rot_cols(0..n, k, k + 1, c, s);
        *b.at_mut(k, k) = r;
        *b.at_mut(k + 1, k) = 0.0;
        standardize_pair(a, b, q, z, k);
    } else if b.at(k, k) < 0.0 {
        negate_column(a, b, z, k, k);
    }
}

/// `cols` (`k` columns of length `m`) completed to an orthogonal `m x m`
/// matrix whose first `k` columns span them, returned as its columns.
fn orthonormal_completion(cols: Vec<Vec<f64>>, m: usize) -> Vec<Vec<f64>> {
    // Householder QR of the m x k matrix; the product H1 H2 ... applied to the identity
    let k = cols.len();
    let mut work = cols;
    let mut reflectors: Vec<(usize, Vec<f64>, f64)> = Vec::new();
    for j in 0..k {
        let mut x: Vec<f64> = work[j][j + 1..].to_vec();
        let (beta, tau) = larfg(work[j][j], &mut x);
        work[j][j] = beta;
        let mut v = vec![1.0];
        v.extend_from_slice(&x);
        for col in work.iter_mut().skip(j + 1) {
            let w = tau * v.iter().enumerate().map(|(i, vi)| vi * col[j + i]).sum::<f64>();
            for (i, vi) in v.iter().enumerate() {
                col[j + i] -= w * vi;
            }
        }
        reflectors.push((j, v, tau));
    }
    // columns of H1 ... Hk = (H1 ... Hk) e_c
    (0..m)
        .map(|c| {
            let mut e = vec![0.0; m];
            e[c] = 1.0;
            for (j, v, tau) in reflectors.iter().rev() {
                let w = tau * v.iter().enumerate().map(|(i, vi)| vi * e[j + i]).sum::<f64>();
                for (i, vi) in v.iter().enumerate() {
                    e[j + i] -= w * vi;
                }
            }
            e
        })
        .collect()
}

/// The solution of the small square system `sys` (augmented rows), by
/// Gaussian elimination with complete pivoting; pivots below rounding level
/// are perturbed to it (`dgetc2`).
fn solve_small(mut sys: Vec<Vec<f64>>, n: usize) -> Vec<f64> {
    let norm = sys.iter().flat_map(|r| r[..n].iter()).fold(0f64, |m, x| m.max(x.abs()));
    let smin = (f64::EPSILON * norm).max(f64::MIN_POSITIVE);
    let mut perm: Vec<usize> = (0..n).collect();
    for k in 0..n {
        let (mut pi, mut pj, mut best) = (k, k, -1.0);
        for (i, row) in sys.iter().enumerate().skip(k) {
            for (j, v) in row.iter().enumerate().take(n).skip(k) {
                if v.abs() > best {
                    best = v.abs();
                    pi = i;
                    pj = j;
                }
            }
        }
        sys.swap(k, pi);
        if pj != k {
            for row in sys.iter_mut() {
                row.swap(k, pj);
            }
            perm.swap(k, pj);
        }
        if sys[k][k].abs() < smin {
            sys[k][k] = smin;
        }
        let pivot = sys[k][k];
        for i in k + 1..n {
            let f = sys[i][k] / pivot;
            if f != 0.0 {
                let (top, bottom) = sys.split_at_mut(i);
                for (x, v) in bottom[0][k..=n].iter_mut().zip(&top[k][k..=n]) {
                    *x -= f * v;
                }
            }
        }
    }
    let mut y = vec![0.0; n];
    for k in (0..n).rev() {
        let s: f64 = (k + 1..n).map(|j| sys[k][j] * y[j]).sum();
        y[k] = (sys[k][n] - s) / sys[k][k];
    }
    let mut x = vec![0.0; n];
    for (k, &p) in perm.iter().enumerate() {
        x[p] = y[k];
    }
    x
}

/// `(alphar + i alphai, beta)` of each diagonal entry of the real
/// generalized Schur form (`beta` = `b`'s diagonal; a pair's `alpha` is its
/// eigenvalue times `beta`, the one with positive imaginary part first).
pub(crate) fn real_eigenvalues(a: &Dense<f64>, b: &Dense<f64>) -> Vec<((f64, f64), f64)> {
    let n = a.n;
    let mut out = Vec::with_capacity(n);
    let mut k = 0;
    while k < n {
        if block_size(a, k) == 2 {
            let [[m11, m12], [m21, m22]] = trailing(a, b, k + 1);
            let wr = 0.5 * (m11 + m22);
            let wi = (m11 * m22 - m12 * m21 - wr * wr).max(0.0).sqrt();
            let (b1, b2) = (b.at(k, k), b.at(k + 1, k + 1));
            out.push(((wr * b1, wi * b1), b1));
            out.push(((wr * b2, -wi * b2), b2));
            k += 2;
        } else {
            out.push(((a.at(k, k), 0.0), b.at(k, k)));
            k += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::qz::gghrd;
    use super::*;

    fn mat(n: usize, seed: u64) -> Dense<f64> {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        Dense { n, data: (0..n * n).map(|_| next()).collect() }
    }

    fn residual(a: &Dense<f64>, q: &Dense<f64>, s: &Dense<f64>, z: &Dense<f64>) -> f64 {
        let n = a.n;
        let mut worst = 0f64;
        for i in 0..n {
            for j in 0..n {
                let mut acc = 0.0;
                for k in 0..n {
                    for l in 0..n {
                        acc += q.at(i, k) * s.at(k, l) * z.at(j, l);
                    }
                }
                worst = worst.max((acc - a.at(i, j)).abs());
            }
        }
        worst
    }

    pub(crate) fn check_form(s: &Dense<f64>, p: &Dense<f64>) {
        let n = s.n;
        for i in 0..n {
            assert!(p.at(i, i) >= 0.0);
            for j in 0..i {
                assert_eq!(p.at(i, j), 0.0);
                if i > j + 1 {
                    assert_eq!(s.at(i, j), 0.0);
                }
            }
            if i + 1 < n && s.at(i + 1, i) != 0.0 {
                assert_eq!(p.at(i, i + 1), 0.0);
                if i + 2 < n {
                    assert_eq!(s.at(i + 2, i + 1), 0.0);
                }
            }
        }
    }

    #[test]
    fn real_reorder_keeps_the_pencil() {
        for seed in 0..6u64 {
            let n = 9;
            let (a, b) = (mat(n, 11 + seed), mat(n, 77 + seed));
            let (mut s, mut p) = (a.clone(), b.clone());
            let (mut q, mut z) = (Dense::identity(n), Dense::identity(n));
            gghrd(&mut s, &mut p, &mut q, &mut z);
            hgeqz_real(&mut s, &mut p, &mut q, &mut z).unwrap();
            // the last block to the front, then the (new) last again
            for _ in 0..2 {
                let last = if n >= 2 && s.at(n - 1, n - 2) != 0.0 { n - 2 } else { n - 1 };
                tgexc_real(&mut s, &mut p, &mut q, &mut z, last, 0).unwrap();
                assert!(residual(&a, &q, &s, &z) < 1e-12);
                assert!(residual(&b, &q, &p, &z) < 1e-12);
                check_form(&s, &p);
            }
        }
    }

    #[test]
    fn real_qz_reconstructs() {
        for n in [1usize, 2, 3, 4, 6, 12, 30] {
            for seed in 0..4u64 {
                let (a, mut b) = (mat(n, 1 + n as u64 + 100 * seed), mat(n, 1000 + n as u64 + 100 * seed));
                if n > 2 && seed == 1 {
                    for j in 0..n {
                        *b.at_mut(n - 1, j) = b.at(0, j);
                    }
                }
                let (mut s, mut p) = (a.clone(), b.clone());
                let (mut q, mut z) = (Dense::identity(n), Dense::identity(n));
                gghrd(&mut s, &mut p, &mut q, &mut z);
                hgeqz_real(&mut s, &mut p, &mut q, &mut z).unwrap();
                assert!(residual(&a, &q, &s, &z) < 1e-12, "n={n}");
                assert!(residual(&b, &q, &p, &z) < 1e-12, "n={n}");
                check_form(&s, &p);
            }
        }
    }
}
