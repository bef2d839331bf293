//! The small-matrix Schur machinery, ported from LAPACK 3.12 and run on the
//! host: Householder reduction to Hessenberg form (`?gehd2` + `?orghr`),
//! the double-shift (real, `dlahqr` with `dlanv2`) and single-shift
//! (complex, `zlahqr`) QR iterations with deflation, and the reordering of
//! a complex Schur form (`ztrexc`). Indices in the comments are LAPACK's
//! (1-based); the code is 0-based.

use super::scalar::{larfg, lartg, Dense, Scalar, C64};

/// `?gehd2` + `?orghr`: `a <- Q^H a Q` upper Hessenberg (entries below the
/// subdiagonal set to zero), `q` (when given, starting as the identity)
/// accumulating `Q = H(1) ... H(n-2)`.
pub(crate) fn gehrd<S: Scalar>(a: &mut Dense<S>, mut q: Option<&mut Dense<S>>) {
    let n = a.n;
    if n < 3 {
        return;
    }
    let mut v = vec![S::zero(); n];
    // (the last reflector, of order 1, makes a complex subdiagonal entry real)
    for k in 0..n - 1 {
        // the reflector annihilating a[k+2.., k]
        let alpha = a.at(k + 1, k);
        let len = n - k - 1;
        let mut x: Vec<S> = (k + 2..n).map(|i| a.at(i, k)).collect();
        let (beta, tau) = larfg(alpha, &mut x);
        *a.at_mut(k + 1, k) = beta;
        for i in k + 2..n {
            *a.at_mut(i, k) = S::zero();
        }
        if tau == S::zero() {
            continue;
        }
        v[0] = S::one();
        v[1..len].copy_from_slice(&x);
        let v = &v[..len];
        // from the right: a[:, k+1..] <- a[:, k+1..] (I - tau v v^H)
        for i in 0..n {
            let w = (0..len).fold(S::zero(), |acc, j| acc + a.at(i, k + 1 + j) * v[j]) * tau;
            for (j, vj) in v.iter().enumerate() {
                *a.at_mut(i, k + 1 + j) -= w * vj.conj();
            }
        }
        // from the left: a[k+1.., k+1..] <- (I - conj(tau) v v^H) a[k+1.., k+1..]
        for j in k + 1..n {
            let w = (0..len).fold(S::zero(), |acc, i| acc + v[i].conj() * a.at(k + 1 + i, j)) * tau.conj();
            for (i, vi) in v.iter().enumerate() {
                *a.at_mut(k + 1 + i, j) -= *vi * w;
            }
        }
        if let Some(q) = q.as_deref_mut() {
            for i in 0..n {
                let w = (0..len).fold(S::zero(), |acc, j| acc + q.at(i, k + 1 + j) * v[j]) * tau;
                for (j, vj) in v.iter().enumerate() {
                    *q.at_mut(i, k + 1 + j) -= w * vj.conj();
                }
            }
        }
    }
}

const DAT1: f64 = 3.0 / 4.0;
const DAT2: f64 = -0.4375;
const KEXSH: usize = 10;

/// `dlanv2`: the Schur factorization of a real 2x2 nonsymmetric matrix in
/// standardized form. Returns `(a, b, c, d, cs, sn)`.
fn lanv2(mut a: f64, mut b: f64, mut c: f64, mut d: f64) -> (f64, f64, f64, f64, f64, f64) {
    let eps = f64::EPSILON / 2.0; // dlamch('P')
    let sign = |x: f64, y: f64| if y >= 0.0 { x.abs() } else { -x.abs() };
    let (mut cs, mut sn);
    if c == 0.0 {
        cs = 1.0;
        sn = 0.0;
    } else if b == 0.0 {
        cs = 0.0;
        sn = 1.0;
        std::mem::swap(&mut a, &mut d);
        b = -c;
        c = 0.0;
    } else if a - d == 0.0 && sign(1.0, b) != sign(1.0, c) {
        cs = 1.0;
        sn = 0.0;
    } else {
        let temp = a - d;
        let mut p = 0.5 * temp;
        let bcmax = b.abs().max(c.abs());
        let bcmis = b.abs().min(c.abs()) * sign(1.0, b) * sign(1.0, c);
        let scale = p.abs().max(bcmax);
        let mut z = (p / scale) * p + (bcmax / scale) * bcmis;
        if z >= 4.0 * eps {
            // real eigenvalues
            z = p + sign(scale.sqrt() * z.sqrt(), p);
            a = d + z;
            d -= (bcmax / z) * bcmis;
            let tau = c.hypot(z);
            cs = z / tau;
            sn = c / tau;
            b -= c;
            c = 0.0;
        } else {
            // complex or (almost) equal real eigenvalues: equal diagonal
            let sigma = b + c;
            let tau = sigma.hypot(temp);
            cs = (0.5 * (1.0 + sigma.abs() / tau)).sqrt();
            sn = -(p / (tau * cs)) * sign(1.0, sigma);
            let aa = a * cs + b * sn;
            let bb = -a * sn + b * cs;
            let cc = c * cs + d * sn;
            let dd = -c * sn + d * cs;
            a = aa * cs + cc * sn;
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            d = -bb * sn + dd * cs;
            let temp = 0.5 * (a + d);
            a = temp;
            d = temp;
            if c != 0.0 {
                if b != 0.0 {
                    if sign(1.0, b) == sign(1.0, c) {
                        // real eigenvalues: upper triangular
                        let sab = b.abs().sqrt();
                        let sac = c.abs().sqrt();
                        p = sign(sab * sac, c);
                        let tau = 1.0 / (b + c).abs().sqrt();
                        a = temp + p;
                        d = temp - p;
                        b -= c;
                        c = 0.0;
                        let cs1 = sab * tau;
                        let sn1 = sac * tau;
                        let t = cs * cs1 - sn * sn1;
                        sn = cs * sn1 + sn * cs1;
                        cs = t;
                    }
                } else {
                    b = -c;
                    c = 0.0;
                    let t = cs;
                    cs = -sn;
                    sn = t;
                }
            }
        }
    }
    (a, b, c, d, cs, sn)
}

/// `dlahqr` with `wantt` and `wantz` (`ilo = 1`, `ihi = n`): `h` upper
/// Hessenberg becomes the real Schur form `T` (standardized 2x2 blocks),
/// `z <- z Q`. `Err(i)`: no convergence (LAPACK's `info = i`).
pub(crate) fn lahqr_real(h: &mut Dense<f64>, z: &mut Dense<f64>) -> Result<(), usize> {
    let n = h.n;
    if n <= 1 {
        return Ok(());
    }
    // 1-based accessors, as the Fortran reads
    macro_rules! hh {
        ($i:expr, $j:expr) => {
            h.data[($i - 1) * n + ($j - 1)]
        };
    }
    for j in 1..=n.saturating_sub(3) {
        hh!(j + 2, j) = 0.0;
        hh!(j + 3, j) = 0.0;
    }
    if n >= 3 {
        hh!(n, n - 2) = 0.0;
    }
    let (ilo, ihi) = (1usize, n);
    let nh = ihi - ilo + 1;
    let safmin = f64::MIN_POSITIVE;
    let ulp = f64::EPSILON; // dlamch('PRECISION') = eps * base
    let smlnum = safmin * (nh as f64 / ulp);
    let (i1, i2) = (1usize, n);
    let itmax = 30 * nh.max(10);
    let mut kdefl = 0usize;
    let mut i = ihi;
    let mut v = [0.0f64; 3];
    while i >= ilo {
        let mut l = ilo;
        let mut converged = false;
        for _its in 0..=itmax {
            // look for a single small subdiagonal element
            let mut k = i;
            while k > l {
                if hh!(k, k - 1).abs() <= smlnum {
                    break;
                }
                let mut tst = hh!(k - 1, k - 1).abs() + hh!(k, k).abs();
                if tst == 0.0 {
                    if k >= ilo + 2 {
                        tst += hh!(k - 1, k - 2).abs();
                    }
                    if k < ihi {
                        tst += hh!(k + 1, k).abs();
                    }
                }
                if hh!(k, k - 1).abs() <= ulp * tst {
                    let ab = hh!(k, k - 1).abs().max(hh!(k - 1, k).abs());
                    let ba = hh!(k, k - 1).abs().min(hh!(k - 1, k).abs());
                    let aa = hh!(k, k).abs().max((hh!(k - 1, k - 1) - hh!(k, k)).abs());
                    let bb = hh!(k, k).abs().min((hh!(k - 1, k - 1) - hh!(k, k)).abs());
                    let s = aa + ab;
                    if ba * (ab / s) <= smlnum.max(ulp * (bb * (aa / s))) {
                        break;
                    }
                }
                k -= 1;
            }
            l = k;
            if l > ilo {
                hh!(l, l - 1) = 0.0;
            }
            if l + 1 >= i {
                converged = true;
                break;
            }
            kdefl += 1;
            let (mut h11, mut h12, mut h21, mut h22);
            if kdefl % (2 * KEXSH) == 0 {
                let s = hh!(i, i - 1).abs() + hh!(i - 1, i - 2).abs();
                h11 = DAT1 * s + hh!(i, i);
                h12 = DAT2 * s;
                h21 = s;
                h22 = h11;
            } else if kdefl % KEXSH == 0 {
                let s = hh!(l + 1, l).abs() + hh!(l + 2, l + 1).abs();
                h11 = DAT1 * s + hh!(l, l);
                h12 = DAT2 * s;
                h21 = s;
                h22 = h11;
            } else {
                h11 = hh!(i - 1, i - 1);
                h21 = hh!(i, i - 1);
                h12 = hh!(i - 1, i);
                h22 = hh!(i, i);
            }
            let s = h11.abs() + h12.abs() + h21.abs() + h22.abs();
            let (rt1r, rt1i, rt2r, rt2i);
            if s == 0.0 {
                (rt1r, rt1i, rt2r, rt2i) = (0.0, 0.0, 0.0, 0.0);
            } else {
                h11 /= s;
                h21 /= s;
                h12 /= s;
                h22 /= s;
                let tr = (h11 + h22) / 2.0;
                let det = (h11 - tr) * (h22 - tr) - h12 * h21;
                let rtdisc = det.abs().sqrt();
                if det >= 0.0 {
                    rt1r = tr * s;
                    rt2r = rt1r;
                    rt1i = rtdisc * s;
                    rt2i = -rt1i;
                } else {
                    let (a, b) = (tr + rtdisc, tr - rtdisc);
                    let r = if (a - h22).abs() <= (b - h22).abs() { a * s } else { b * s };
                    rt1r = r;
                    rt2r = r;
                    rt1i = 0.0;
                    rt2i = 0.0;
                }
            }
            // look for two consecutive small subdiagonal elements
            let mut m = i - 2;
            loop {
                let h21s = hh!(m + 1, m);
                let s = (hh!(m, m) - rt2r).abs() + rt2i.abs() + h21s.abs();
                let h21s = hh!(m + 1, m) / s;
                v[0] = h21s * hh!(m, m + 1) + (hh!(m, m) - rt1r) * ((hh!(m, m) - rt2r) / s) - rt1i * (rt2i / s);
                v[1] = h21s * (hh!(m, m) + hh!(m + 1, m + 1) - rt1r - rt2r);
                v[2] = h21s * hh!(m + 2, m + 1);
                let s = v[0].abs() + v[1].abs() + v[2].abs();
                v[0] /= s;
                v[1] /= s;
                v[2] /= s;
                if m == l {
                    break;
                }
                let h00 = hh!(m - 1, m - 1).abs() + hh!(m, m).abs() + hh!(m + 1, m + 1).abs();
                if hh!(m, m - 1).abs() * (v[1].abs() + v[2].abs()) <= ulp * v[0].abs() * h00 {
                    break;
                }
                m -= 1;
            }
            // double-shift QR step
            for k in m..i {
                let nr = 3.min(i - k + 1);
                if k > m {
                    for (t, vt) in v.iter_mut().enumerate().take(nr) {
                        *vt = hh!(k + t, k - 1);
                    }
                }
                let (beta, t1) = {
                    let (head, tail) = v.split_at_mut(1);
                    let (beta, tau) = larfg(head[0], &mut tail[..nr - 1]);
                    (beta, tau)
                };
                v[0] = beta;
                if k > m {
                    hh!(k, k - 1) = v[0];
                    hh!(k + 1, k - 1) = 0.0;
                    if k < i - 1 {
                        hh!(k + 2, k - 1) = 0.0;
                    }
                } else if m > l {
                    hh!(k, k - 1) *= 1.0 - t1;
                }
                let v2 = v[1];
                let t2 = t1 * v2;
                if nr == 3 {
                    let v3 = v[2];
                    let t3 = t1 * v3;
                    for j in k..=i2 {
                        let sum = hh!(k, j) + v2 * hh!(k + 1, j) + v3 * hh!(k + 2, j);
                        hh!(k, j) -= sum * t1;
                        hh!(k + 1, j) -= sum * t2;
                        hh!(k + 2, j) -= sum * t3;
                    }
                    for j in i1..=(k + 3).min(i) {
                        let sum = hh!(j, k) + v2 * hh!(j, k + 1) + v3 * hh!(j, k + 2);
                        hh!(j, k) -= sum * t1;
                        hh!(j, k + 1) -= sum * t2;
                        hh!(j, k + 2) -= sum * t3;
                    }
                    for j in 0..n {
                        let sum = z.at(j, k - 1) + v2 * z.at(j, k) + v3 * z.at(j, k + 1);
                        *z.at_mut(j, k - 1) -= sum * t1;
                        *z.at_mut(j, k) -= sum * t2;
                        *z.at_mut(j, k + 1) -= sum * t3;
                    }
                } else if nr == 2 {
                    for j in k..=i2 {
                        let sum = hh!(k, j) + v2 * hh!(k + 1, j);
                        hh!(k, j) -= sum * t1;
                        hh!(k + 1, j) -= sum * t2;
                    }
                    for j in i1..=i {
                        let sum = hh!(j, k) + v2 * hh!(j, k + 1);
                        hh!(j, k) -= sum * t1;
                        hh!(j, k + 1) -= sum * t2;
                    }
                    for j in 0..n {
                        let sum = z.at(j, k - 1) + v2 * z.at(j, k);
                        *z.at_mut(j, k - 1) -= sum * t1;
                        *z.at_mut(j, k) -= sum * t2;
                    }
                }
            }
        }
        if !converged {
            return Err(i);
        }
        if l + 1 == i {
            // a 2x2 block: standardize it
            let (a, b, c, d, cs, sn) = lanv2(hh!(i - 1, i - 1), hh!(i - 1, i), hh!(i, i - 1), hh!(i, i));
            hh!(i - 1, i - 1) = a;
            hh!(i - 1, i) = b;
            hh!(i, i - 1) = c;
            hh!(i, i) = d;
            if i2 > i {
                h.rot_rows(i..i2, i - 2, i - 1, cs, sn);
            }
            h.rot_cols(i1 - 1..i - 2, i - 2, i - 1, cs, sn);
            z.rot_cols(0..n, i - 2, i - 1, cs, sn);
        }
        kdefl = 0;
        if l == 0 {
            break;
        }
        i = l - 1;
        if i == 0 {
            break;
        }
    }
    Ok(())
}

/// `zlahqr` with `wantt` and `wantz` (`ilo = 1`, `ihi = n`): `h` upper
/// Hessenberg becomes the complex Schur form `T` (upper triangular),
/// `z <- z Q`. `Err(i)`: no convergence.
pub(crate) fn lahqr_complex(h: &mut Dense<C64>, z: &mut Dense<C64>) -> Result<(), usize> {
    let n = h.n;
    if n <= 1 {
        return Ok(());
    }
    macro_rules! hh {
        ($i:expr, $j:expr) => {
            h.data[($i - 1) * n + ($j - 1)]
        };
    }
    let zero = C64::default();
    for j in 1..=n.saturating_sub(3) {
        hh!(j + 2, j) = zero;
        hh!(j + 3, j) = zero;
    }
    if n >= 3 {
        hh!(n, n - 2) = zero;
    }
    let (ilo, ihi) = (1usize, n);
    let (jlo, jhi) = (1usize, n);
    // make the subdiagonal real
    for i in ilo + 1..=ihi {
        if hh!(i, i - 1).im != 0.0 {
            let sub = hh!(i, i - 1);
            let sc = sub.scale(1.0 / sub.abs1());
            let sc = sc.conj().scale(1.0 / sc.abs());
            hh!(i, i - 1) = C64::new(sub.abs(), 0.0);
            for j in i..=jhi {
                hh!(i, j) = sc * hh!(i, j);
            }
            for r in jlo..=jhi.min(i + 1) {
                hh!(r, i) = sc.conj() * hh!(r, i);
            }
            for r in 0..n {
                *z.at_mut(r, i - 1) = sc.conj() * z.at(r, i - 1);
            }
        }
    }
    let nh = ihi - ilo + 1;
    let safmin = f64::MIN_POSITIVE;
    let ulp = f64::EPSILON;
    let smlnum = safmin * (nh as f64 / ulp);
    let (i1, i2) = (1usize, n);
    let itmax = 30 * nh.max(10);
    let mut i = ihi;
    let mut v = [zero; 2];
    while i >= ilo {
        let mut l = ilo;
        let mut converged = false;
        for its in 0..=itmax {
            let mut k = i;
            while k > l {
                if hh!(k, k - 1).abs1() <= smlnum {
                    break;
                }
                let mut tst = hh!(k - 1, k - 1).abs1() + hh!(k, k).abs1();
                if tst == 0.0 {
                    if k >= ilo + 2 {
                        tst += hh!(k - 1, k - 2).re.abs();
                    }
                    if k < ihi {
                        tst += hh!(k + 1, k).re.abs();
                    }
                }
                if hh!(k, k - 1).re.abs() <= ulp * tst {
                    let ab = hh!(k, k - 1).abs1().max(hh!(k - 1, k).abs1());
                    let ba = hh!(k, k - 1).abs1().min(hh!(k - 1, k).abs1());
                    let aa = hh!(k, k).abs1().max((hh!(k - 1, k - 1) - hh!(k, k)).abs1());
                    let bb = hh!(k, k).abs1().min((hh!(k - 1, k - 1) - hh!(k, k)).abs1());
                    let s = aa + ab;
                    if ba * (ab / s) <= smlnum.max(ulp * (bb * (aa / s))) {
                        break;
                    }
                }
                k -= 1;
            }
            l = k;
            if l > ilo {
                hh!(l, l - 1) = zero;
            }
            if l >= i {
                converged = true;
                break;
            }
            let t;
            if its == 10 {
                let s = DAT1 * hh!(l + 1, l).re.abs();
                t = C64::new(s, 0.0) + hh!(l, l);
            } else if its == 20 {
                let s = DAT1 * hh!(i, i - 1).re.abs();
                t = C64::new(s, 0.0) + hh!(i, i);
            } else {
                // Wilkinson's shift
                let mut tt = hh!(i, i);
                let u = hh!(i - 1, i).sqrt() * hh!(i, i - 1).sqrt();
                let mut s = u.abs1();
                if s != 0.0 {
                    let x = (hh!(i - 1, i - 1) - tt).scale(0.5);
                    let sx = x.abs1();
                    s = s.max(x.abs1());
                    let xs = x.scale(1.0 / s);
                    let us = u.scale(1.0 / s);
                    let mut y = (xs * xs + us * us).sqrt().scale(s);
                    if sx > 0.0 {
                        let xn = x.scale(1.0 / sx);
                        if xn.re * y.re + xn.im * y.im < 0.0 {
                            y = -y;
                        }
                    }
                    tt -= u * (u / (x + y));
                }
                t = tt;
            }
            // look for two consecutive small subdiagonal elements
            let mut m = i - 1;
            loop {
                if m == l {
                    let h11s = hh!(l, l) - t;
                    let h21 = hh!(l + 1, l).re;
                    let s = h11s.abs1() + h21.abs();
                    v[0] = h11s.scale(1.0 / s);
                    v[1] = C64::new(h21 / s, 0.0);
                    break;
                }
                let h11 = hh!(m, m);
                let h22 = hh!(m + 1, m + 1);
                let h11s = h11 - t;
                let h21 = hh!(m + 1, m).re;
                let s = h11s.abs1() + h21.abs();
                let h11s = h11s.scale(1.0 / s);
                let h21 = h21 / s;
                v[0] = h11s;
                v[1] = C64::new(h21, 0.0);
                let h10 = hh!(m, m - 1).re;
                if h10.abs() * h21.abs() <= ulp * (h11s.abs1() * (h11.abs1() + h22.abs1())) {
                    break;
                }
                m -= 1;
            }
            // single-shift QR step
            for k in m..i {
                if k > m {
                    v[0] = hh!(k, k - 1);
                    v[1] = hh!(k + 1, k - 1);
                }
                let (beta, t1) = {
                    let (head, tail) = v.split_at_mut(1);
                    larfg(head[0], &mut tail[..1])
                };
                v[0] = beta;
                if k > m {
                    hh!(k, k - 1) = v[0];
                    hh!(k + 1, k - 1) = zero;
                }
                let v2 = v[1];
                let t2 = (t1 * v2).re;
                for j in k..=i2 {
                    let sum = t1.conj() * hh!(k, j) + hh!(k + 1, j).scale(t2);
                    hh!(k, j) -= sum;
                    hh!(k + 1, j) -= sum * v2;
                }
                for j in i1..=(k + 2).min(i) {
                    let sum = t1 * hh!(j, k) + hh!(j, k + 1).scale(t2);
                    hh!(j, k) -= sum;
                    hh!(j, k + 1) -= sum * v2.conj();
                }
                for j in 0..n {
                    let sum = t1 * z.at(j, k - 1) + z.at(j, k).scale(t2);
                    *z.at_mut(j, k - 1) -= sum;
                    *z.at_mut(j, k) -= sum * v2.conj();
                }
                if k == m && m > l {
                    let temp = C64::new(1.0, 0.0) - t1;
                    let temp = temp.scale(1.0 / temp.abs());
                    hh!(m + 1, m) *= temp.conj();
                    if m + 2 <= i {
                        hh!(m + 2, m + 1) *= temp;
                    }
                    for j in m..=i {
                        if j != m + 1 {
                            for c in j + 1..=i2 {
                                hh!(j, c) = temp * hh!(j, c);
                            }
                            for r in i1..j {
                                hh!(r, j) = temp.conj() * hh!(r, j);
                            }
                            for r in 0..n {
                                *z.at_mut(r, j - 1) = temp.conj() * z.at(r, j - 1);
                            }
                        }
                    }
                }
            }
            // make H(i, i-1) real
            let temp = hh!(i, i - 1);
            if temp.im != 0.0 {
                let rtemp = temp.abs();
                hh!(i, i - 1) = C64::new(rtemp, 0.0);
                let temp = temp.scale(1.0 / rtemp);
                for c in i + 1..=i2 {
                    hh!(i, c) = temp.conj() * hh!(i, c);
                }
                for r in i1..i {
                    hh!(r, i) = temp * hh!(r, i);
                }
                for r in 0..n {
                    *z.at_mut(r, i - 1) = temp * z.at(r, i - 1);
                }
            }
        }
        if !converged {
            return Err(i);
        }
        if l <= 1 {
            break;
        }
        i = l - 1;
    }
    Ok(())
}

/// `ztrexc`: moves the diagonal entry of the complex Schur form `t` at row
/// `ifst` to row `ilst` (0-based) by adjacent swaps, updating `q`.
pub(crate) fn trexc_complex(t: &mut Dense<C64>, q: &mut Dense<C64>, ifst: usize, ilst: usize) {
    let n = t.n;
    if ifst == ilst {
        return;
    }
    let swap = |t: &mut Dense<C64>, q: &mut Dense<C64>, k: usize| {
        // swap t[k, k] and t[k+1, k+1]
        let (t11, t22) = (t.at(k, k), t.at(k + 1, k + 1));
        let (cs, sn, _) = lartg(t.at(k, k + 1), t22 - t11);
        if k + 2 < n {
            t.rot_rows(k + 2..n, k, k + 1, cs, sn);
        }
        t.rot_cols(0..k, k, k + 1, cs, sn.conj());
        *t.at_mut(k, k) = t22;
        *t.at_mut(k + 1, k + 1) = t11;
        q.rot_cols(0..n, k, k + 1, cs, sn.conj());
    };
    if ifst < ilst {
        for k in ifst..ilst {
            swap(t, q, k);
        }
    } else {
        for k in (ilst..ifst).rev() {
            swap(t, q, k);
        }
    }
}
