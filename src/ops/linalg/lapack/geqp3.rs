//! LAPACK's `?geqp3` column pivoting (its `?laqp2` loop): which column
//! each step of a Householder QR with column pivoting moves to the front.
//! The factors themselves are computed by libtorch from the permuted matrix
//! (Householder QR of `a[:, p]` is what `?geqp3` computes).

use super::scalar::{larfg, Scalar};

/// The column order `?geqp3` chooses for the row-major `m x n` matrix `a`
/// (overwritten by the partial factorization): at step `i` the remaining
/// column of largest (downdated) norm, the first one on ties (`i?amax`);
/// the partial column norms are downdated and recomputed as `?laqp2` does.
pub(crate) fn geqp3_pivots<S: Scalar>(a: &mut [S], m: usize, n: usize) -> Vec<usize> {
    let at = |i: usize, j: usize| i * n + j;
    let column_norm = |a: &[S], j: usize, from: usize| (from..m).fold(0.0f64, |acc, i| acc.hypot(a[at(i, j)].abs()));
    let mut jpvt: Vec<usize> = (0..n).collect();
    let mut vn1: Vec<f64> = (0..n).map(|j| column_norm(a, j, 0)).collect();
    let mut vn2 = vn1.clone();
    let tol3z = f64::EPSILON.sqrt();
    let k = m.min(n);
    let mut v = vec![S::zero(); m];
    for i in 0..k {
        // the pivot: the first largest remaining norm
        let mut pvt = i;
        for j in i + 1..n {
            if vn1[j] > vn1[pvt] {
                pvt = j;
            }
        }
        if pvt != i {
            for r in 0..m {
                a.swap(at(r, pvt), at(r, i));
            }
            jpvt.swap(pvt, i);
            vn1[pvt] = vn1[i];
            vn2[pvt] = vn2[i];
        }
        // the reflector of column i, rows i..m
        let mut tail: Vec<S> = (i + 1..m).map(|r| a[at(r, i)]).collect();
        let (beta, tau) = larfg(a[at(i, i)], &mut tail);
        a[at(i, i)] = beta;
        for (r, value) in (i + 1..m).zip(&tail) {
            a[at(r, i)] = *value;
        }
        // apply H^H = I - conj(tau) v v^H to the trailing columns
        if i + 1 < n && tau != S::zero() {
            v[i] = S::one();
            for r in i + 1..m {
                v[r] = a[at(r, i)];
            }
            let ctau = tau.conj();
            for j in i + 1..n {
                let mut w = S::zero();
                for r in i..m {
                    w += v[r].conj() * a[at(r, j)];
                }
                let w = ctau * w;
                for r in i..m {
                    let update = v[r] * w;
                    a[at(r, j)] -= update;
                }
            }
        }
        // downdate the partial column norms
        for j in i + 1..n {
            if vn1[j] == 0.0 {
                continue;
            }
            let ratio = a[at(i, j)].abs() / vn1[j];
            let temp = (1.0 - ratio * ratio).max(0.0);
            let temp2 = temp * (vn1[j] / vn2[j]) * (vn1[j] / vn2[j]);
            if temp2 <= tol3z {
                if i + 1 < m {
                    vn1[j] = column_norm(a, j, i + 1);
                    vn2[j] = vn1[j];
                } else {
                    vn1[j] = 0.0;
                    vn2[j] = 0.0;
                }
            } else {
                vn1[j] *= temp.sqrt();
            }
        }
    }
    jpvt
}
