//! SciPy's `_decomp_update.pyx` (Givens-rotation and reflector updates of a
//! QR decomposition), ported to the host on row-major complex matrices (real
//! input stays real: every rotation of real data is real). The loops follow
//! SciPy's so that the updated factors are SciPy's, not just some QR
//! decomposition of the updated matrix.

use super::scalar::{larfg, lartg, Scalar, C64};

/// A row-major `rows x cols` matrix.
#[derive(Clone, Debug)]
pub(crate) struct Mat {
    pub(crate) rows: usize,
    pub(crate) cols: usize,
    pub(crate) data: Vec<C64>,
}

impl Mat {
    pub(crate) fn zeros(rows: usize, cols: usize) -> Mat {
        Mat { rows, cols, data: vec![C64::default(); rows * cols] }
    }

    #[inline]
    pub(crate) fn at(&self, i: usize, j: usize) -> C64 {
        self.data[i * self.cols + j]
    }

    #[inline]
    pub(crate) fn set(&mut self, i: usize, j: usize, v: C64) {
        self.data[i * self.cols + j] = v;
    }

    /// Rows `i1`, `i2` over `cols`: `(x, y) <- (c x + s y, c y - conj(s) x)` (`?rot`).
    fn rot_rows(&mut self, i1: usize, i2: usize, cols: std::ops::Range<usize>, c: f64, s: C64) {
        for j in cols {
            let (x, y) = (self.at(i1, j), self.at(i2, j));
            self.set(i1, j, x.scale(c) + s * y);
            self.set(i2, j, y.scale(c) - s.conj() * x);
        }
    }

    /// Columns `j1`, `j2` over `rows`, as [`Mat::rot_rows`].
    fn rot_cols(&mut self, j1: usize, j2: usize, rows: std::ops::Range<usize>, c: f64, s: C64) {
        for i in rows {
            let (x, y) = (self.at(i, j1), self.at(i, j2));
            self.set(i, j1, x.scale(c) + s * y);
            self.set(i, j2, y.scale(c) - s.conj() * x);
        }
    }

    fn swap_rows(&mut self, a: usize, b: usize) {
        for j in 0..self.cols {
            self.data.swap(a * self.cols + j, b * self.cols + j);
        }
    }

    /// The leading `rows x cols` block starting at `(r0, c0)`.
    pub(crate) fn block(&self, r0: usize, c0: usize, rows: usize, cols: usize) -> Mat {
        let mut out = Mat::zeros(rows, cols);
        for i in 0..rows {
            for j in 0..cols {
                out.set(i, j, self.at(r0 + i, c0 + j));
            }
        }
        out
    }
}

/// LAPACK's `?lartg` on `(f, g)`, as SciPy's wrapper: `f <- r`, `g <- 0`.
fn givens(f: &mut C64, g: &mut C64) -> (f64, C64) {
    let (c, s, r) = lartg(*f, *g);
    *f = r;
    *g = C64::default();
    (c, s)
}

fn norm(x: &[C64]) -> f64 {
    x.iter().fold(0.0f64, |acc, v| acc.hypot(v.abs()))
}

/// SciPy's `hessenberg_qr`: the upper Hessenberg `r` (`m` rows, `n`
/// columns) made triangular from column `k` on, the rotations applied to `q`'s columns.
fn hessenberg_qr(m: usize, n: usize, q: &mut Mat, r: &mut Mat, k: usize) {
    let limit = (m.saturating_sub(1)).min(n);
    for j in k..limit {
        let (mut f, mut g) = (r.at(j, j), r.at(j + 1, j));
        let (c, s) = givens(&mut f, &mut g);
        r.set(j, j, f);
        r.set(j + 1, j, g);
        if j + 1 < m {
            r.rot_rows(j, j + 1, j + 1..n, c, s);
        }
        q.rot_cols(j, j + 1, 0..q.rows, c, s.conj());
    }
}

/// LAPACK's `?larf` from the left on `r[row0.., cols]` with `v` (length `v.len()`): `C <- C - tau v (v^H C)`.
fn larf_left(r: &mut Mat, row0: usize, cols: std::ops::Range<usize>, v: &[C64], tau: C64) {
    for j in cols {
        let mut w = C64::default();
        for (i, vi) in v.iter().enumerate() {
            w += vi.conj() * r.at(row0 + i, j);
        }
        let w = tau * w;
        for (i, vi) in v.iter().enumerate() {
            let value = r.at(row0 + i, j) - *vi * w;
            r.set(row0 + i, j, value);
        }
    }
}

/// `?larf` from the right on `q[.., col0..col0 + v.len()]`: `C <- C - tau (C v) v^H`.
fn larf_right(q: &mut Mat, col0: usize, v: &[C64], tau: C64) {
    for i in 0..q.rows {
        let mut w = C64::default();
        for (j, vj) in v.iter().enumerate() {
            w += q.at(i, col0 + j) * *vj;
        }
        let w = tau * w;
        for (j, vj) in v.iter().enumerate() {
            let value = q.at(i, col0 + j) - w * vj.conj();
            q.set(i, col0 + j, value);
        }
    }
}

/// SciPy's `p_subdiag_qr`: `r` (`o x n`) with `p` subdiagonals from column
/// `k` on made triangular by reflectors, applied to `q` (`m x o`).
fn p_subdiag_qr(m: usize, o: usize, n: usize, q: &mut Mat, r: &mut Mat, k: usize, p: usize) {
    let limit = (m.saturating_sub(1)).min(n);
    for j in k..limit {
        let last = (p + 1).min(o - j);
        let mut tail: Vec<C64> = (1..last).map(|i| r.at(j + i, j)).collect();
        let (beta, tau) = larfg(r.at(j, j), &mut tail);
        let mut v = vec![C64::new(1.0, 0.0)];
        v.extend(tail);
        if j + 1 < n {
            larf_left(r, j, j + 1..n, &v, tau.conj());
        }
        larf_right(q, j, &v, tau);
        for i in 1..last {
            r.set(j + i, j, C64::default());
        }
        r.set(j, j, beta);
    }
}

/// SciPy's `reorth` (with `RCOND = 0`): `u = Q s + p w`, `w` of unit length
/// orthogonal to `q`'s `n` columns; `u` becomes `w`, returns `s` (length
/// `n + 1`, its last entry `p`; SciPy's quirks kept) and whether `u` lay in
/// the span of `q`.
fn reorth(q: &Mat, u: &mut [C64]) -> (Vec<C64>, f64, bool) {
    let (m, n) = (q.rows, q.cols);
    let unorm = norm(u);
    for x in u.iter_mut() {
        *x = x.scale(1.0 / unorm);
    }
    let project = |u: &[C64]| -> Vec<C64> {
        (0..n).map(|j| (0..m).fold(C64::default(), |acc, i| acc + q.at(i, j).conj() * u[i])).collect()
    };
    let subtract = |u: &mut [C64], s: &[C64]| {
        for (i, x) in u.iter_mut().enumerate() {
            let mut acc = C64::default();
            for (j, sj) in s.iter().enumerate() {
                acc += q.at(i, j) * *sj;
            }
            *x -= acc;
        }
    };
    let mut s = project(u);
    let snorm = norm(&s);
    let sigma_max = (1.0 + snorm).sqrt();
    subtract(u, &s);
    let wnorm = norm(u);
    let rc = wnorm / sigma_max / sigma_max;
    let root2 = 2f64.sqrt();
    if root2 < wnorm {
        for x in u.iter_mut() {
            *x = x.scale(1.0 / wnorm);
        }
        let mut out: Vec<C64> = s.iter().map(|v| v.scale(unorm)).collect();
        out.push(C64::new(unorm * wnorm, 0.0));
        return (out, rc, false);
    }
    let second = project(u);
    subtract(u, &second);
    let wpnorm = norm(u);
    if wpnorm < wnorm / root2 {
        u.iter_mut().for_each(|x| *x = C64::default());
        for v in s.iter_mut() {
            *v = v.scale(unorm);
        }
        s.push(C64::default());
        return (s, rc, true);
    }
    for x in u.iter_mut() {
        *x = x.scale(1.0 / wpnorm);
    }
    for v in s.iter_mut() {
        *v = v.scale(unorm);
    }
    s.push(C64::new(wpnorm * unorm, 0.0));
    (s, rc, false)
}

/// SciPy's `qr_rank_1_update` (full `q`, `m x m`; `r`, `m x n`): `qtu = Q^H u`.
pub(crate) fn rank_1_update(q: &mut Mat, r: &mut Mat, mut qtu: Vec<C64>, v: &[C64]) {
    let (m, n) = (r.rows, r.cols);
    for j in (0..m.saturating_sub(1)).rev() {
        let (mut f, mut g) = (qtu[j], qtu[j + 1]);
        let (c, s) = givens(&mut f, &mut g);
        qtu[j] = f;
        qtu[j + 1] = g;
        if n > j {
            r.rot_rows(j, j + 1, j..n, c, s);
        }
        q.rot_cols(j, j + 1, 0..m, c, s.conj());
    }
    for (j, vj) in v.iter().enumerate() {
        let value = r.at(0, j) + qtu[0] * vj.conj();
        r.set(0, j, value);
    }
    hessenberg_qr(m, n, q, r, 0);
}

/// SciPy's `thin_qr_rank_1_update` (economic `q`, `m x n`; `r`, `n x n`).
pub(crate) fn thin_rank_1_update(q: &mut Mat, r: &mut Mat, u: &[C64], v: &[C64]) {
    let (m, n) = (q.rows, r.cols);
    let mut u = u.to_vec();
    let (mut s, _, _) = reorth(q, &mut u);
    // the last rotation, with u as q's (n + 1)-th column
    let (mut f, mut g) = (s[n - 1], s[n]);
    let (c, sn) = givens(&mut f, &mut g);
    s[n - 1] = f;
    s[n] = g;
    let t = r.at(n - 1, n - 1);
    let mut rlast = -(t * sn.conj());
    r.set(n - 1, n - 1, t.scale(c));
    rot_with_vector(q, n - 1, &mut u, c, sn.conj(), m);
    for j in (0..n - 1).rev() {
        let (mut f, mut g) = (s[j], s[j + 1]);
        let (c, sn) = givens(&mut f, &mut g);
        s[j] = f;
        s[j + 1] = g;
        r.rot_rows(j, j + 1, j..n, c, sn);
        q.rot_cols(j, j + 1, 0..m, c, sn.conj());
    }
    for (j, vj) in v.iter().enumerate() {
        let value = r.at(0, j) + s[0] * vj.conj();
        r.set(0, j, value);
    }
    for j in 0..n - 1 {
        let (mut f, mut g) = (r.at(j, j), r.at(j + 1, j));
        let (c, sn) = givens(&mut f, &mut g);
        r.set(j, j, f);
        r.set(j + 1, j, g);
        r.rot_rows(j, j + 1, j + 1..n, c, sn);
        q.rot_cols(j, j + 1, 0..m, c, sn.conj());
    }
    let mut f = r.at(n - 1, n - 1);
    let (c, sn) = givens(&mut f, &mut rlast);
    r.set(n - 1, n - 1, f);
    rot_with_vector(q, n - 1, &mut u, c, sn.conj(), m);
}

/// `?rot` on `q`'s column `j` and the vector `u`.
fn rot_with_vector(q: &mut Mat, j: usize, u: &mut [C64], c: f64, s: C64, m: usize) {
    for (i, y) in u.iter_mut().enumerate().take(m) {
        let x = q.at(i, j);
        q.set(i, j, x.scale(c) + s * *y);
        *y = y.scale(c) - s.conj() * x;
    }
}

/// SciPy's `qr_row_insert` (`p = 1`) and `qr_block_row_insert` (full):
/// `q` (`M x M`, the old `Q` bordered by an identity) and `r` (`M x n`, the
/// new rows last); the new rows end at row `k`.
pub(crate) fn row_insert(q: &mut Mat, r: &mut Mat, k: usize, p: usize) {
    let (mm, n) = (r.rows, r.cols);
    if p == 1 {
        let limit = (mm - 1).min(n);
        for j in 0..limit {
            let (mut f, mut g) = (r.at(j, j), r.at(mm - 1, j));
            let (c, s) = givens(&mut f, &mut g);
            r.set(j, j, f);
            r.set(mm - 1, j, g);
            r.rot_rows(j, mm - 1, j + 1..n, c, s);
            q.rot_cols(j, mm - 1, 0..mm, c, s.conj());
        }
        for j in (k + 1..mm).rev() {
            q.swap_rows(j, j - 1);
        }
        return;
    }
    let limit = mm.min(n);
    for j in 0..limit {
        let mut tail: Vec<C64> = (j + 1..mm).map(|i| r.at(i, j)).collect();
        let (beta, tau) = larfg(r.at(j, j), &mut tail);
        let mut v = vec![C64::new(1.0, 0.0)];
        v.extend(tail);
        if j + 1 < n {
            larf_left(r, j, j + 1..n, &v, tau.conj());
        }
        larf_right(q, j, &v, tau);
        for i in j + 1..mm {
            r.set(i, j, C64::default());
        }
        r.set(j, j, beta);
    }
    move_last_rows(q, k, p);
}

/// The last `p` rows of `q` moved to start at row `k`.
fn move_last_rows(q: &mut Mat, k: usize, p: usize) {
    let mm = q.rows;
    if k == mm - p {
        return;
    }
    let mut order: Vec<usize> = (0..k).collect();
    order.extend(mm - p..mm);
    order.extend(k..mm - p);
    let old = q.clone();
    for (new, &from) in order.iter().enumerate() {
        for j in 0..q.cols {
            q.set(new, j, old.at(from, j));
        }
    }
}

/// SciPy's `thin_qr_row_insert` (`p = 1`): `q` is `M x (n + 1)` (the old
/// `Q` bordered by an identity), `r` `n x n`, `u` the new row.
pub(crate) fn thin_row_insert(q: &mut Mat, r: &mut Mat, u: &[C64], k: usize) {
    let n = r.cols;
    let mut u = u.to_vec();
    for j in 0..n {
        let (mut f, mut g) = (r.at(j, j), u[j]);
        let (c, s) = givens(&mut f, &mut g);
        r.set(j, j, f);
        u[j] = g;
        for (jj, y) in u.iter_mut().enumerate().take(n).skip(j + 1) {
            let x = r.at(j, jj);
            r.set(j, jj, x.scale(c) + s * *y);
            *y = y.scale(c) - s.conj() * x;
        }
        q.rot_cols(j, n, 0..q.rows, c, s.conj());
    }
    for j in (k + 1..q.rows).rev() {
        q.swap_rows(j, j - 1);
    }
}

/// SciPy's `qr_col_insert` (`p = 1`, full): `r` (`m x (n + 1)`) with column
/// `k` holding `Q^H u`.
pub(crate) fn col_insert(q: &mut Mat, r: &mut Mat, k: usize) {
    let (m, n) = (q.rows, r.cols);
    for j in (k..m.saturating_sub(1)).rev() {
        let (mut f, mut g) = (r.at(j, k), r.at(j + 1, k));
        let (c, s) = givens(&mut f, &mut g);
        r.set(j, k, f);
        r.set(j + 1, k, g);
        if j + 1 < n {
            r.rot_rows(j, j + 1, j + 1..n, c, s);
        }
        q.rot_cols(j, j + 1, 0..m, c, s.conj());
    }
}

/// SciPy's `qr_col_delete` (`p = 1`) and `qr_block_col_delete`: `q` is
/// `m x o`, `r` `o x n`; columns `k..k + p` of `r` are removed (the
/// caller crops the last `p` columns, and for economic input the last `p` rows and `q`'s last `p` columns).
pub(crate) fn col_delete(q: &mut Mat, r: &mut Mat, k: usize, p: usize) {
    let (m, o, n) = (q.rows, r.rows, r.cols);
    let limit = o.min(n);
    for j in k..n - p {
        for i in 0..limit {
            let value = r.at(i, j + p);
            r.set(i, j, value);
        }
    }
    if p == 1 {
        hessenberg_qr(m, n - 1, q, r, k);
    } else {
        p_subdiag_qr(m, o, n - p, q, r, k, p);
    }
}

/// SciPy's `qr_block_row_delete` (full `q`, `m x m`; `r`, `m x n`): rows
/// `k..k + p` removed; the caller keeps `q[p.., p..]` and `r[p.., ..]`.
pub(crate) fn row_delete(q: &mut Mat, r: &mut Mat, k: usize, p: usize) {
    let (m, n) = (q.rows, r.cols);
    for j in (1..=k).rev() {
        q.swap_rows(j + p - 1, j - 1);
    }
    for i in 0..p {
        for j in 0..m {
            let value = q.at(i, j).conj();
            q.set(i, j, value);
        }
    }
    for i in 0..p {
        for j in (i..m - 1).rev() {
            let (mut f, mut g) = (q.at(i, j), q.at(i, j + 1));
            let (c, s) = givens(&mut f, &mut g);
            q.set(i, j, f);
            q.set(i, j + 1, g);
            for rr in i + 1..p {
                let (x, y) = (q.at(rr, j), q.at(rr, j + 1));
                q.set(rr, j, x.scale(c) + s * y);
                q.set(rr, j + 1, y.scale(c) - s.conj() * x);
            }
            if j - i < n {
                r.rot_rows(j, j + 1, j - i..n, c, s);
            }
            q.rot_cols(j, j + 1, p..m, c, s.conj());
        }
    }
}
