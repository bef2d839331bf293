//! The generalized Schur (QZ) machinery, ported from LAPACK 3.12 and run on
//! the host: QR of `B` and the Hessenberg-triangular reduction (`?gghrd`),
//! the complex single-shift QZ iteration (`zhgeqz`), the swap of adjacent
//! diagonal entries of a complex generalized Schur form (`ztgex2`, driven as
//! `ztgexc`), and its eigenvectors (`ztgevc`). The code is 0-based; the
//! comments name LAPACK's steps.

use super::scalar::{larfg, lartg, Dense, Scalar, C64};

/// `B = Q R` by Householder reflections, then `?gghrd`: `a <- Q^H a Z`
/// upper Hessenberg and `b <- Q^H b Z` upper triangular by Givens
/// rotations, `q <- q Q`, `z <- z Z` (both starting as the identity).
pub(crate) fn gghrd<S: Scalar>(a: &mut Dense<S>, b: &mut Dense<S>, q: &mut Dense<S>, z: &mut Dense<S>) {
    let n = a.n;
    // QR of b (`?geqrf`, applied to a and accumulated in q)
    for k in 0..n.saturating_sub(1) {
        let mut x: Vec<S> = (k + 1..n).map(|i| b.at(i, k)).collect();
        let (beta, tau) = larfg(b.at(k, k), &mut x);
        *b.at_mut(k, k) = beta;
        for i in k + 1..n {
            *b.at_mut(i, k) = S::zero();
        }
        if tau == S::zero() {
            continue;
        }
        let mut v = vec![S::one()];
        v.extend_from_slice(&x);
        // H^H = I - conj(tau) v v^H from the left, on rows k.. (b's column k is done)
        reflect_rows(a, &v, tau, k, 0);
        reflect_rows(b, &v, tau, k, k + 1);
        for r in 0..n {
            let w = v.iter().enumerate().fold(S::zero(), |acc, (j, vj)| acc + q.at(r, k + j) * *vj) * tau;
            for (j, vj) in v.iter().enumerate() {
                *q.at_mut(r, k + j) -= w * vj.conj();
            }
        }
    }
    if n < 3 {
        return;
    }
    for jcol in 0..n - 2 {
        for jrow in (jcol + 2..n).rev() {
            // rows jrow-1, jrow: zero a[jrow, jcol]
            let (c, s, r) = lartg(a.at(jrow - 1, jcol), a.at(jrow, jcol));
            *a.at_mut(jrow - 1, jcol) = r;
            *a.at_mut(jrow, jcol) = S::zero();
            a.rot_rows(jcol + 1..n, jrow - 1, jrow, c, s);
            b.rot_rows(jrow - 1..n, jrow - 1, jrow, c, s);
            q.rot_cols(0..n, jrow - 1, jrow, c, s.conj());
            // columns jrow, jrow-1: zero b[jrow, jrow-1]
            let (c, s, r) = lartg(b.at(jrow, jrow), b.at(jrow, jrow - 1));
            *b.at_mut(jrow, jrow) = r;
            *b.at_mut(jrow, jrow - 1) = S::zero();
            a.rot_cols(0..n, jrow, jrow - 1, c, s);
            b.rot_cols(0..jrow, jrow, jrow - 1, c, s);
            z.rot_cols(0..n, jrow, jrow - 1, c, s);
        }
    }
}

/// `m[k.., start..] <- (I - conj(tau) v v^H) m[k.., start..]`.
fn reflect_rows<S: Scalar>(m: &mut Dense<S>, v: &[S], tau: S, k: usize, start: usize) {
    for j in start..m.n {
        let w = v.iter().enumerate().fold(S::zero(), |acc, (i, vi)| acc + vi.conj() * m.at(k + i, j));
        let w = w * tau.conj();
        for (i, vi) in v.iter().enumerate() {
            *m.at_mut(k + i, j) -= *vi * w;
        }
    }
}

/// The Frobenius norm of the entries of `m` on and above its subdiagonal.
pub(super) fn hess_norm<S: Scalar>(m: &Dense<S>) -> f64 {
    let n = m.n;
    let mut sum = 0f64;
    for i in 0..n {
        for j in i.saturating_sub(1)..n {
            sum = sum.hypot(m.at(i, j).abs());
        }
    }
    sum
}

/// `zhgeqz` with `job = 'S'`, `compq = compz = 'V'` (`ilo = 1`, `ihi = n`):
/// `(h, t)` Hessenberg-triangular becomes the complex generalized Schur form
/// (both upper triangular, `t`'s diagonal real and non-negative),
/// `q <- q Q`, `z <- z Z`. `Err(i)`: no convergence.
pub(crate) fn hgeqz_complex(
    h: &mut Dense<C64>,
    t: &mut Dense<C64>,
    q: &mut Dense<C64>,
    z: &mut Dense<C64>,
) -> Result<(), usize> {
    let n = h.n;
    if n == 0 {
        return Ok(());
    }
    let zero = C64::default();
    let safmin = f64::MIN_POSITIVE;
    let ulp = f64::EPSILON;
    let anorm = hess_norm(h);
    let bnorm = hess_norm(t);
    let atol = safmin.max(ulp * anorm);
    let btol = safmin.max(ulp * bnorm);
    let ascale = 1.0 / safmin.max(anorm);
    let bscale = 1.0 / safmin.max(bnorm);
    let ilo = 0usize;
    let mut ilast = n - 1;
    let mut ifirst;
    let mut iiter = 0usize;
    let mut eshift = zero;
    let maxit = 30 * n;
    // the steps of zhgeqz's loop (its labels)
    enum Step {
        ZeroT,   // 50: t[ilast, ilast] = 0
        Deflate, // 60: h[ilast, ilast-1] = 0
        Sweep,   // 70: a QZ sweep on ifirst..=ilast
    }
    for _ in 0..maxit {
        let mut step;
        ifirst = ilo;
        'split: {
            if ilast == ilo {
                step = Step::Deflate;
                break 'split;
            }
            if h.at(ilast, ilast - 1).abs1()
                <= safmin.max(ulp * (h.at(ilast, ilast).abs1() + h.at(ilast - 1, ilast - 1).abs1()))
            {
                *h.at_mut(ilast, ilast - 1) = zero;
                step = Step::Deflate;
                break 'split;
            }
            if t.at(ilast, ilast).abs() <= btol {
                *t.at_mut(ilast, ilast) = zero;
                step = Step::ZeroT;
                break 'split;
            }
            let mut j = ilast - 1;
            loop {
                let ilazro = if j == ilo {
                    true
                } else if h.at(j, j - 1).abs1() <= safmin.max(ulp * (h.at(j, j).abs1() + h.at(j - 1, j - 1).abs1())) {
                    *h.at_mut(j, j - 1) = zero;
                    true
                } else {
                    false
                };
                if t.at(j, j).abs() < btol {
                    *t.at_mut(j, j) = zero;
                    let mut ilazr2 = !ilazro
                        && h.at(j, j - 1).abs1() * (ascale * h.at(j + 1, j).abs1())
                            <= h.at(j, j).abs1() * (ascale * atol);
                    if ilazro || ilazr2 {
                        step = Step::ZeroT;
                        for jch in j..ilast {
                            let (c, s, r) = lartg(h.at(jch, jch), h.at(jch + 1, jch));
                            *h.at_mut(jch, jch) = r;
                            *h.at_mut(jch + 1, jch) = zero;
                            h.rot_rows(jch + 1..n, jch, jch + 1, c, s);
                            t.rot_rows(jch + 1..n, jch, jch + 1, c, s);
                            q.rot_cols(0..n, jch, jch + 1, c, s.conj());
                            if ilazr2 {
                                *h.at_mut(jch, jch - 1) = h.at(jch, jch - 1).scale(c);
                            }
                            ilazr2 = false;
                            if t.at(jch + 1, jch + 1).abs1() >= btol {
                                if jch + 1 >= ilast {
                                    step = Step::Deflate;
                                } else {
                                    ifirst = jch + 1;
                                    step = Step::Sweep;
                                }
                                break;
                            }
                            *t.at_mut(jch + 1, jch + 1) = zero;
                        }
                        break 'split;
                    }
                    // chase the zero to t[ilast, ilast]
                    for jch in j..ilast {
                        let (c, s, r) = lartg(t.at(jch, jch + 1), t.at(jch + 1, jch + 1));
                        *t.at_mut(jch, jch + 1) = r;
                        *t.at_mut(jch + 1, jch + 1) = zero;
                        if jch + 2 < n {
                            t.rot_rows(jch + 2..n, jch, jch + 1, c, s);
                        }
                        h.rot_rows(jch - 1..n, jch, jch + 1, c, s);
                        q.rot_cols(0..n, jch, jch + 1, c, s.conj());
                        let (c, s, r) = lartg(h.at(jch + 1, jch), h.at(jch + 1, jch - 1));
                        *h.at_mut(jch + 1, jch) = r;
                        *h.at_mut(jch + 1, jch - 1) = zero;
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
            // 50: clear h[ilast, ilast-1] with a column rotation
            let (c, s, r) = lartg(h.at(ilast, ilast), h.at(ilast, ilast - 1));
            *h.at_mut(ilast, ilast) = r;
            *h.at_mut(ilast, ilast - 1) = zero;
            h.rot_cols(0..ilast, ilast, ilast - 1, c, s);
            t.rot_cols(0..ilast, ilast, ilast - 1, c, s);
            z.rot_cols(0..n, ilast, ilast - 1, c, s);
            step = Step::Deflate;
        }
        match step {
            Step::Deflate => {
                // 60: make t[ilast, ilast] real and non-negative
                let absb = t.at(ilast, ilast).abs();
                if absb > safmin {
                    let signbc = t.at(ilast, ilast).scale(1.0 / absb).conj();
                    *t.at_mut(ilast, ilast) = C64::new(absb, 0.0);
                    for r in 0..ilast {
                        *t.at_mut(r, ilast) = t.at(r, ilast) * signbc;
                    }
                    for r in 0..=ilast {
                        *h.at_mut(r, ilast) = h.at(r, ilast) * signbc;
                    }
                    for r in 0..n {
                        *z.at_mut(r, ilast) = z.at(r, ilast) * signbc;
                    }
                } else {
                    *t.at_mut(ilast, ilast) = zero;
                }
                if ilast == ilo {
                    return Ok(());
                }
                ilast -= 1;
                iiter = 0;
                eshift = zero;
            }
            Step::Sweep => {
                sweep(h, t, q, z, ifirst, ilast, &mut iiter, &mut eshift, (ascale, bscale, atol));
            }
            Step::ZeroT => unreachable!(),
        }
    }
    Err(ilast + 1)
}

/// `zhgeqz`'s step 70: the shift and one implicit single-shift QZ sweep on
/// rows and columns `ifirst..=ilast`.
#[allow(clippy::too_many_arguments)]
fn sweep(
    h: &mut Dense<C64>,
    t: &mut Dense<C64>,
    q: &mut Dense<C64>,
    z: &mut Dense<C64>,
    ifirst: usize,
    ilast: usize,
    iiter: &mut usize,
    eshift: &mut C64,
    (ascale, bscale, atol): (f64, f64, f64),
) {
    let n = h.n;
    let safmin = f64::MIN_POSITIVE;
    *iiter += 1;
    let shift = if *iiter % 10 != 0 {
        // Wilkinson's shift: the eigenvalue of the trailing 2x2 pencil nearer (h, t)[ilast, ilast]
        let u12 = t.at(ilast - 1, ilast).scale(bscale) / t.at(ilast, ilast).scale(bscale);
        let ad11 = h.at(ilast - 1, ilast - 1).scale(ascale) / t.at(ilast - 1, ilast - 1).scale(bscale);
        let ad21 = h.at(ilast, ilast - 1).scale(ascale) / t.at(ilast - 1, ilast - 1).scale(bscale);
        let ad12 = h.at(ilast - 1, ilast).scale(ascale) / t.at(ilast, ilast).scale(bscale);
        let ad22 = h.at(ilast, ilast).scale(ascale) / t.at(ilast, ilast).scale(bscale);
        let abi22 = ad22 - u12 * ad21;
        let abi12 = ad12 - u12 * ad11;
        let mut shift = abi22;
        let ctemp = abi12.sqrt() * ad21.sqrt();
        let mut temp = ctemp.abs1();
        if ctemp != C64::default() {
            let x = (ad11 - shift).scale(0.5);
            let temp2 = x.abs1();
            temp = temp.max(x.abs1());
            let (xs, cs) = (x.scale(1.0 / temp), ctemp.scale(1.0 / temp));
            let mut y = (xs * xs + cs * cs).sqrt().scale(temp);
            if temp2 > 0.0 {
                let xn = x.scale(1.0 / temp2);
                if xn.re * y.re + xn.im * y.im < 0.0 {
                    y = -y;
                }
            }
            shift -= ctemp * (ctemp / (x + y));
        }
        shift
    } else {
        // an exceptional shift
        if *iiter % 20 == 0 && bscale * t.at(ilast, ilast).abs1() > safmin {
            *eshift += h.at(ilast, ilast).scale(ascale) / t.at(ilast, ilast).scale(bscale);
        } else {
            *eshift += h.at(ilast, ilast - 1).scale(ascale) / t.at(ilast - 1, ilast - 1).scale(bscale);
        }
        *eshift
    };
    // two consecutive small subdiagonal entries?
    let mut istart = ifirst;
    let mut ctemp = h.at(ifirst, ifirst).scale(ascale) - shift * t.at(ifirst, ifirst).scale(bscale);
    for j in (ifirst + 1..ilast).rev() {
        let c = h.at(j, j).scale(ascale) - shift * t.at(j, j).scale(bscale);
        let mut temp = c.abs1();
        let mut temp2 = ascale * h.at(j + 1, j).abs1();
        let tempr = temp.max(temp2);
        if tempr < 1.0 && tempr != 0.0 {
            temp /= tempr;
            temp2 /= tempr;
        }
        if h.at(j, j - 1).abs1() * temp2 <= temp * atol {
            istart = j;
            ctemp = c;
            break;
        }
    }
    let ctemp2 = h.at(istart + 1, istart).scale(ascale);
    let (mut c, mut s, _) = lartg(ctemp, ctemp2);
    for j in istart..ilast {
        if j > istart {
            let (cc, ss, r) = lartg(h.at(j, j - 1), h.at(j + 1, j - 1));
            c = cc;
            s = ss;
            *h.at_mut(j, j - 1) = r;
            *h.at_mut(j + 1, j - 1) = C64::default();
        }
        h.rot_rows(j..n, j, j + 1, c, s);
        t.rot_rows(j..n, j, j + 1, c, s);
        q.rot_cols(0..n, j, j + 1, c, s.conj());
        let (c2, s2, r) = lartg(t.at(j + 1, j + 1), t.at(j + 1, j));
        *t.at_mut(j + 1, j + 1) = r;
        *t.at_mut(j + 1, j) = C64::default();
        h.rot_cols(0..(j + 3).min(ilast + 1), j + 1, j, c2, s2);
        t.rot_cols(0..j + 1, j + 1, j, c2, s2);
        z.rot_cols(0..n, j + 1, j, c2, s2);
    }
}

/// `ztgex2` (as `ztgexc` drives it): swaps the diagonal entries `k` and
/// `k + 1` of the complex generalized Schur form `(a, b)`, updating `q`, `z`.
pub(crate) fn tgex2_complex(a: &mut Dense<C64>, b: &mut Dense<C64>, q: &mut Dense<C64>, z: &mut Dense<C64>, k: usize) {
    let n = a.n;
    let s = [[a.at(k, k), a.at(k, k + 1)], [C64::default(), a.at(k + 1, k + 1)]];
    let tt = [[b.at(k, k), b.at(k, k + 1)], [C64::default(), b.at(k + 1, k + 1)]];
    let f = s[1][1] * tt[0][0] - tt[1][1] * s[0][0];
    let g = s[1][1] * tt[0][1] - tt[1][1] * s[0][1];
    let sa = s[1][1].abs() * tt[0][0].abs();
    let sb = s[0][0].abs() * tt[1][1].abs();
    let (cz, sz, _) = lartg(g, f);
    let sz = -sz;
    // the 2x2 blocks after the column rotation, to choose the row rotation
    let rot = |m: [[C64; 2]; 2]| {
        let mut m = m;
        for row in &mut m {
            let (x, y) = (row[0], row[1]);
            row[0] = x.scale(cz) + sz.conj() * y;
            row[1] = y.scale(cz) - sz * x;
        }
        m
    };
    let (s2, t2) = (rot(s), rot(tt));
    let (cq, sq, _) = if sa >= sb { lartg(s2[0][0], s2[1][0]) } else { lartg(t2[0][0], t2[1][0]) };
    a.rot_cols(0..k + 2, k, k + 1, cz, sz.conj());
    b.rot_cols(0..k + 2, k, k + 1, cz, sz.conj());
    a.rot_rows(k..n, k, k + 1, cq, sq);
    b.rot_rows(k..n, k, k + 1, cq, sq);
    *a.at_mut(k + 1, k) = C64::default();
    *b.at_mut(k + 1, k) = C64::default();
    z.rot_cols(0..n, k, k + 1, cz, sz.conj());
    q.rot_cols(0..n, k, k + 1, cq, sq.conj());
}

/// `ztgexc`: moves the diagonal entry `ifst` of the complex generalized
/// Schur form to `ilst` by adjacent swaps.
pub(crate) fn tgexc_complex(
    a: &mut Dense<C64>,
    b: &mut Dense<C64>,
    q: &mut Dense<C64>,
    z: &mut Dense<C64>,
    ifst: usize,
    ilst: usize,
) {
    if ifst < ilst {
        for k in ifst..ilst {
            tgex2_complex(a, b, q, z, k);
        }
    } else {
        for k in (ilst..ifst).rev() {
            tgex2_complex(a, b, q, z, k);
        }
    }
}

/// `ztgsen`'s closing normalization: each `b[k, k]` real and non-negative
/// (row `k` of `a` and `b` and column `k` of `q` scaled by its phase).
pub(crate) fn normalize_beta(a: &mut Dense<C64>, b: &mut Dense<C64>, q: &mut Dense<C64>) {
    let n = a.n;
    for k in 0..n {
        let d = b.at(k, k).abs();
        if d > f64::MIN_POSITIVE {
            let phase = b.at(k, k).scale(1.0 / d);
            *b.at_mut(k, k) = C64::new(d, 0.0);
            for j in k + 1..n {
                *b.at_mut(k, j) = phase.conj() * b.at(k, j);
            }
            for j in k..n {
                *a.at_mut(k, j) = phase.conj() * a.at(k, j);
            }
            for r in 0..n {
                *q.at_mut(r, k) = q.at(r, k) * phase;
            }
        } else {
            *b.at_mut(k, k) = C64::default();
        }
    }
}

/// `ztgevc` with `howmny = 'B'` (back-transformed): the right (`left =
/// false`: `(beta_k S - alpha_k P) x = 0`, returned as `z x`) or left
/// (`y^H (beta_k S - alpha_k P) = 0`, returned as `q y`) eigenvectors of the
/// generalized Schur form `(s, p)`, as columns, each of unit 2-norm.
pub(crate) fn tgevc_complex(s: &Dense<C64>, p: &Dense<C64>, back: &Dense<C64>, left: bool) -> Dense<C64> {
    let n = s.n;
    let safmin = f64::MIN_POSITIVE;
    let ulp = f64::EPSILON;
    let anorm = hess_norm(s).max(safmin);
    let bnorm = hess_norm(p).max(safmin);
    let mut out = Dense::zeros(n);
    let mut x = vec![C64::default(); n];
    for je in 0..n {
        // the pencil's diagonal entries scaled as ztgevc scales them
        let (a0, b0) = (s.at(je, je), p.at(je, je));
        let temp = 1.0 / (a0.abs1() / anorm).max(b0.abs() / bnorm).max(safmin);
        let (salpha, sbeta) = (a0.scale(temp / anorm), b0.scale(temp / bnorm));
        let (bcoef, acoef) = (sbeta.scale(1.0 / anorm), salpha.scale(1.0 / bnorm));
        let dmin = (ulp * bcoef.abs1() * anorm).max(ulp * acoef.abs1() * bnorm).max(safmin);
        // the matrix bcoef S - acoef P
        let m = |i: usize, j: usize| bcoef * s.at(i, j) - acoef * p.at(i, j);
        x.iter_mut().for_each(|v| *v = C64::default());
        x[je] = C64::new(1.0, 0.0);
        let pivot = |d: C64| if d.abs1() < dmin { C64::new(dmin, 0.0) } else { d };
        if left {
            for j in je + 1..n {
                let mut sum = C64::default();
                for (k, xk) in x.iter().enumerate().take(j).skip(je) {
                    sum += m(k, j).conj() * *xk;
                }
                x[j] = -(sum / pivot(m(j, j).conj()));
            }
        } else {
            for j in (0..je).rev() {
                let mut sum = C64::default();
                for (k, xk) in x.iter().enumerate().take(je + 1).skip(j + 1) {
                    sum += m(j, k) * *xk;
                }
                x[j] = -(sum / pivot(m(j, j)));
            }
        }
        let mut col = vec![C64::default(); n];
        for (r, c) in col.iter_mut().enumerate() {
            *c = (0..n).fold(C64::default(), |acc, k| acc + back.at(r, k) * x[k]);
        }
        let norm = col.iter().fold(0f64, |acc, v| acc.hypot(v.abs()));
        for (r, c) in col.into_iter().enumerate() {
            *out.at_mut(r, je) = if norm > 0.0 { c.scale(1.0 / norm) } else { c };
        }
    }
    out
}
