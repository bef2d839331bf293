//! LAPACK's `?gebal` (version 3.12), ported: balancing of a general matrix
//! (permutation to isolate eigenvalues, then diagonal scaling).

use super::super::invalid;
use crate::Result;

/// `?gebal` on a dense row-major `n x n` matrix of `(re, im)` entries, in
/// place. Returns `(ilo, ihi, scale)` with LAPACK's 1-based `ilo`/`ihi` and
/// `scale` holding 1-based permutation indices outside `ilo..=ihi`.
pub(crate) fn gebal(
    a: &mut [[f64; 2]],
    n: usize,
    permute: bool,
    scale: bool,
    single: bool,
) -> Result<(usize, usize, Vec<f64>)> {
    let idx = |i: usize, j: usize| (i - 1) * n + (j - 1); // 1-based (row, col)
    let nonzero = |v: [f64; 2]| v[0] != 0.0 || v[1] != 0.0;
    let modulus = |v: [f64; 2]| v[0].hypot(v[1]);
    let cabs1 = |v: [f64; 2]| v[0].abs() + v[1].abs();
    let mut sc = vec![1.0f64; n + 1]; // 1-based
    if n == 0 {
        return Ok((1, 0, vec![]));
    }
    if !permute && !scale {
        return Ok((1, n, vec![1.0; n]));
    }
    let swap_cols = |a: &mut [[f64; 2]], c1: usize, c2: usize, rows: usize| {
        for r in 1..=rows {
            a.swap(idx(r, c1), idx(r, c2));
        }
    };
    let swap_rows = |a: &mut [[f64; 2]], r1: usize, r2: usize, from: usize| {
        for c in from..=n {
            a.swap(idx(r1, c), idx(r2, c));
        }
    };
    let mut k = 1usize;
    let mut l = n;
    if permute {
        let mut noconv = true;
        while noconv {
            noconv = false;
            let mut i = l;
            let start_l = l;
            let _ = start_l;
            while i >= 1 {
                let mut canswap = true;
                for j in 1..=l {
                    if i != j && nonzero(a[idx(i, j)]) {
                        canswap = false;
                        break;
                    }
                }
                if canswap {
                    sc[l] = i as f64;
                    if i != l {
                        swap_cols(a, i, l, l);
                        swap_rows(a, i, l, k);
                    }
                    noconv = true;
                    if l == 1 {
                        let mut out = sc[1..].to_vec();
                        out.truncate(n);
                        return Ok((1, 1, out));
                    }
                    l -= 1;
                }
                i -= 1;
            }
        }
        let mut noconv = true;
        while noconv {
            noconv = false;
            let mut j = k;
            let l_fixed = l;
            while j <= l_fixed {
                let mut canswap = true;
                for i in k..=l {
                    if i != j && nonzero(a[idx(i, j)]) {
                        canswap = false;
                        break;
                    }
                }
                if canswap {
                    sc[k] = j as f64;
                    if j != k {
                        swap_cols(a, j, k, l);
                        swap_rows(a, j, k, k);
                    }
                    noconv = true;
                    k += 1;
                }
                j += 1;
            }
        }
    }
    for s in sc.iter_mut().take(l + 1).skip(k) {
        *s = 1.0;
    }
    if !scale {
        return Ok((k, l, sc[1..].to_vec()));
    }
    let sclfac = 2.0f64;
    let factor = 0.95f64;
    let (safe_min, precision) = if single {
        (f64::from(f32::MIN_POSITIVE), f64::from(f32::EPSILON))
    } else {
        (f64::MIN_POSITIVE, f64::EPSILON)
    };
    let sfmin1 = safe_min / precision;
    let sfmax1 = 1.0 / sfmin1;
    let sfmin2 = sfmin1 * sclfac;
    let sfmax2 = 1.0 / sfmin2;
    let mut noconv = true;
    while noconv {
        noconv = false;
        for i in k..=l {
            let mut c = (k..=l).map(|r| modulus(a[idx(r, i)]).powi(2)).sum::<f64>().sqrt();
            let mut r = (k..=l).map(|col| modulus(a[idx(i, col)]).powi(2)).sum::<f64>().sqrt();
            let ica = (1..=l).fold((1, -1.0), |best, row| {
                let v = cabs1(a[idx(row, i)]);
                if v > best.1 {
                    (row, v)
                } else {
                    best
                }
            });
            let mut ca = modulus(a[idx(ica.0, i)]);
            let ira = (k..=n).fold((k, -1.0), |best, col| {
                let v = cabs1(a[idx(i, col)]);
                if v > best.1 {
                    (col, v)
                } else {
                    best
                }
            });
            let mut ra = modulus(a[idx(i, ira.0)]);
            if c == 0.0 || r == 0.0 {
                continue;
            }
            if (c + ca + r + ra).is_nan() {
                return Err(invalid("xGEBAL exited with the internal error \"illegal value in argument number 3.\""));
            }
            let mut g = r / sclfac;
            let mut f = 1.0f64;
            let s = c + r;
            while c < g && f.max(c).max(ca) < sfmax2 && r.min(g).min(ra) > sfmin2 {
                f *= sclfac;
                c *= sclfac;
                ca *= sclfac;
                r /= sclfac;
                g /= sclfac;
                ra /= sclfac;
            }
            g = c / sclfac;
            while g >= r && r.max(ra) < sfmax2 && f.min(c).min(g).min(ca) > sfmin2 {
                f /= sclfac;
                c /= sclfac;
                g /= sclfac;
                ca /= sclfac;
                r *= sclfac;
                ra *= sclfac;
            }
            if c + r >= factor * s {
                continue;
            }
            if f < 1.0 && sc[i] < 1.0 && f * sc[i] <= sfmin1 {
                continue;
            }
            if f > 1.0 && sc[i] > 1.0 && sc[i] >= sfmax1 / f {
                continue;
            }
            let g = 1.0 / f;
            sc[i] *= f;
            noconv = true;
            for col in k..=n {
                let v = &mut a[idx(i, col)];
                v[0] *= g;
                v[1] *= g;
            }
            for row in 1..=l {
                let v = &mut a[idx(row, i)];
                v[0] *= f;
                v[1] *= f;
            }
        }
    }
    Ok((k, l, sc[1..].to_vec()))
}
