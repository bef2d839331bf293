//! `scipy.linalg._decomp_update`: `qr_update`, `qr_insert` and `qr_delete`.
//!
//! SciPy updates the factors with Givens rotations and Householder
//! reflectors in a fixed order (its `_decomp_update.pyx`); the same loops
//! run here on the host (`lapack/qr_update.rs`; an explicit copy for CUDA
//! input), so the updated `Q` and `R` are SciPy's to rounding, signs
//! included, not merely a QR decomposition of the updated matrix. Paths
//! ported: rank-1 updates (full and economic; rank-k economic as SciPy's
//! loop of rank-1 updates), row insertion (full, any number; economic, one
//! row), column insertion (full, one column), row deletion (full), column
//! deletion (all). The others raise [`Error::NotImplemented`] naming them.

use tch::{Device, Kind, Tensor};

use super::lapack::qr_update::{self as host, Mat};
use super::lapack::{Scalar, C64};
use super::shapes::filled;
use super::{invalid, not_implemented, CheckFinite};
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// Whether rows or columns are inserted or deleted (SciPy's `which`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// `'row'`.
    Row,
    /// `'col'`.
    Col,
}

impl std::str::FromStr for Which {
    type Err = Error;

    fn from_str(which: &str) -> Result<Which> {
        match which {
            "row" => Ok(Which::Row),
            "col" => Ok(Which::Col),
            _ => Err(invalid("'which' must be either 'row' or 'col'")),
        }
    }
}

fn shape_text(t: &Tensor) -> String {
    match t.size().as_slice() {
        [one] => format!("({one},)"),
        s => format!("({})", s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// SciPy's `validate_qr`: `(m, n, economic)`.
fn validate_qr(q: &Tensor, r: &Tensor, check_finite: CheckFinite) -> Result<(usize, usize, bool)> {
    if q.dim() != 2 || r.dim() != 2 {
        return Err(invalid("Q and R must be 2-D"));
    }
    if q.kind() != r.kind() {
        return Err(invalid("Q and R must have the same dtype"));
    }
    if !matches!(q.kind(), Kind::Float | Kind::Double | Kind::ComplexFloat | Kind::ComplexDouble) {
        return Err(invalid("Only arrays with dtypes float32, float64, complex64, and complex128 are supported."));
    }
    let (qs, rs) = (q.size(), r.size());
    if qs[1] != rs[0] {
        return Err(invalid(format!(
            "Q and R do not have compatible shapes. Expected (M,M) (M,N) or (M,N) (N,N) but found {} {} for Q and R \
             respectively",
            shape_text(q),
            shape_text(r)
        )));
    }
    let economic = if qs[0] != qs[1] && rs[0] == rs[1] {
        true
    } else if qs[0] != qs[1] {
        return Err(invalid(format!(
            "Expected (M,M) (M,N) or (M,N) (N,N) but found {} {} for Q and R respectively",
            shape_text(q),
            shape_text(r)
        )));
    } else {
        false
    };
    check_finite_all(check_finite.enabled(), &[q, r])?;
    Ok((qs[0] as usize, rs[1] as usize, economic))
}

/// A 2-D tensor (or a 1-D one, as one row) on the host.
fn to_host(t: &Tensor) -> Result<Mat> {
    let (rows, cols) = match t.size().as_slice() {
        [n] => (1, *n as usize),
        [m, n] => (*m as usize, *n as usize),
        _ => return Err(invalid("expected a 1-D or 2-D array")),
    };
    let host = t.f_to_kind(Kind::ComplexDouble)?.f_to(Device::Cpu)?.f_resolve_conj()?.f_contiguous()?;
    let pairs = host.f_view_as_real()?.f_reshape([-1i64].as_slice())?;
    let mut flat = filled(pairs.numel(), 0f64, "a host copy of the factors")?;
    pairs.f_copy_data(&mut flat, pairs.numel())?;
    Ok(Mat { rows, cols, data: flat.chunks(2).map(|p| C64::new(p[0], p[1])).collect() })
}

fn from_host(m: &Mat, kind: Kind, device: Device) -> Result<Tensor> {
    let flat: Vec<f64> = m.data.iter().flat_map(|v| [v.re, v.im]).collect();
    let t =
        Tensor::f_from_slice(&flat)?.f_reshape([m.rows as i64, m.cols as i64, 2].as_slice())?.f_view_as_complex()?;
    let t = if matches!(kind, Kind::ComplexFloat | Kind::ComplexDouble) { t } else { t.f_real()? };
    Ok(t.f_to_kind(kind)?.f_contiguous()?.f_to(device)?)
}

fn columns(m: &Mat) -> Vec<Vec<C64>> {
    (0..m.cols).map(|j| (0..m.rows).map(|i| m.at(i, j)).collect()).collect()
}

/// `Q^H x` for a vector `x`.
fn qh_times(q: &Mat, x: &[C64]) -> Vec<C64> {
    (0..q.cols).map(|j| (0..q.rows).fold(C64::default(), |acc, i| acc + q.at(i, j).conj() * x[i])).collect()
}

/// `scipy.linalg.qr_update`: the QR decomposition of `A + u v^H` from that
/// of `A` (`Q` `(M, M)` and `R` `(M, N)`, or economic `(M, N)` and `(N, N)`),
/// `u` `(M,)` or `(M, k)`, `v` `(N,)` or `(N, k)`.
pub fn qr_update(
    q: &Tensor,
    r: &Tensor,
    u: &Tensor,
    v: &Tensor,
    check_finite: CheckFinite,
) -> Result<(Tensor, Tensor)> {
    let (m, n, economic) = validate_qr(q, r, check_finite)?;
    if u.kind() != q.kind() || v.kind() != q.kind() {
        return Err(invalid("u and v must have the same type as Q and R"));
    }
    if u.dim() == 0 || u.size()[0] as usize != m {
        return Err(invalid("u.shape[0] must equal Q.shape[0]"));
    }
    if v.dim() == 0 || v.size()[0] as usize != n {
        return Err(invalid("v.shape[0] must equal R.shape[1]"));
    }
    if u.dim() > 2 || v.dim() > 2 {
        return Err(invalid("u and v can be no more than 2-D"));
    }
    if u.dim() != v.dim() {
        return Err(invalid("u and v must have the same number of dimensions"));
    }
    if u.dim() == 2 && u.size()[1] != v.size()[1] {
        return Err(invalid("Second dimension of u and v must be the same"));
    }
    let p = if u.dim() == 1 { 1 } else { u.size()[1] as usize };
    if p > n || p > m {
        return Err(invalid("Update rank larger than np.dot(Q, R)."));
    }
    check_finite_all(check_finite.enabled(), &[u, v])?;
    let (kind, device) = (q.kind(), q.device());
    let (mut qh, mut rh) = (to_host(q)?, to_host(r)?);
    let as_columns = |t: &Tensor| -> Result<Vec<Vec<C64>>> {
        let h = to_host(t)?;
        Ok(if t.dim() == 1 { vec![h.data] } else { columns(&h) })
    };
    let (us, vs) = (as_columns(u)?, as_columns(v)?);
    if economic {
        for (uj, vj) in us.iter().zip(&vs) {
            host::thin_rank_1_update(&mut qh, &mut rh, uj, vj);
        }
    } else if p == 1 {
        let qtu = qh_times(&qh, &us[0]);
        host::rank_1_update(&mut qh, &mut rh, qtu, &vs[0]);
    } else {
        return Err(not_implemented("linalg.qr_update: a rank-k update (k > 1) of a full (M, M) (M, N) decomposition"));
    }
    Ok((from_host(&qh, kind, device)?, from_host(&rh, kind, device)?))
}

/// `scipy.linalg.qr_insert`: the QR decomposition of `A` with the rows
/// (`which = Row`: `u` `(N,)` or `(p, N)`) or columns (`Col`: `(M,)` or
/// `(M, p)`) of `u` inserted before row or column `k`.
pub fn qr_insert(
    q: &Tensor,
    r: &Tensor,
    u: &Tensor,
    k: i64,
    which: Which,
    rcond: Option<f64>,
    check_finite: CheckFinite,
) -> Result<(Tensor, Tensor)> {
    if which == Which::Row && rcond.is_some() {
        return Err(invalid("'rcond' is unused when inserting rows and must be None"));
    }
    let (m, n, economic) = validate_qr(q, r, check_finite)?;
    let (kind, device) = (q.kind(), q.device());
    let bound = if which == Which::Row { m } else { n } as i64;
    if u.kind() != q.kind() {
        return Err(invalid(if which == Which::Row {
            "'u' must have the same type as 'Q' and 'R'"
        } else {
            "'u' must have the same type as Q and R"
        }));
    }
    if !(-bound <= k && k < bound) {
        return Err(invalid("'k' is out of bounds"));
    }
    let k = if k < 0 { k + bound } else { k } as usize;
    let (length, shape_message) = match which {
        Which::Row => (n, "'u' should be either (N,) or (p,N) when inserting rows. Found"),
        Which::Col => (m, "'u' should be either (M,) or (M,p) when inserting columns. Found"),
    };
    let p = match (u.dim(), which) {
        (1, _) if u.size()[0] as usize == length => 1,
        (2, Which::Row) if u.size()[1] as usize == length => u.size()[0] as usize,
        (2, Which::Col) if u.size()[0] as usize == length => u.size()[1] as usize,
        (1 | 2, _) => return Err(invalid(format!("{shape_message} {}.", shape_text(u)))),
        _ => return Err(invalid("'u' can be at most 2-D")),
    };
    if which == Which::Col && rcond.is_some() && !economic {
        return Err(invalid("'rcond' is not used when updating full, (M,M) (M,N) decompositions and must be None."));
    }
    check_finite_all(check_finite.enabled(), &[u])?;
    let (qh, rh, uh) = (to_host(q)?, to_host(r)?, to_host(u)?);
    match (which, economic) {
        (Which::Row, true) => {
            if p != 1 {
                return Err(not_implemented("linalg.qr_insert: inserting several rows into an economic decomposition"));
            }
            let mut qn = Mat::zeros(m + 1, n + 1);
            for i in 0..m {
                for j in 0..n {
                    qn.set(i, j, qh.at(i, j));
                }
            }
            qn.set(m, n, C64::new(1.0, 0.0));
            let mut rn = rh;
            host::thin_row_insert(&mut qn, &mut rn, &uh.data, k);
            let qn = qn.block(0, 0, m + 1, n);
            Ok((from_host(&qn, kind, device)?, from_host(&rn, kind, device)?))
        }
        (Which::Row, false) => {
            let mut qn = Mat::zeros(m + p, m + p);
            for i in 0..m {
                for j in 0..m {
                    qn.set(i, j, qh.at(i, j));
                }
            }
            for j in m..m + p {
                qn.set(j, j, C64::new(1.0, 0.0));
            }
            let mut rn = Mat::zeros(m + p, n);
            for i in 0..m {
                for j in 0..n {
                    rn.set(i, j, rh.at(i, j));
                }
            }
            for i in 0..p {
                for j in 0..n {
                    rn.set(m + i, j, uh.at(i, j));
                }
            }
            host::row_insert(&mut qn, &mut rn, k, p);
            Ok((from_host(&qn, kind, device)?, from_host(&rn, kind, device)?))
        }
        (Which::Col, true) => {
            Err(not_implemented("linalg.qr_insert: inserting columns into an economic decomposition"))
        }
        (Which::Col, false) => {
            if p != 1 {
                return Err(not_implemented("linalg.qr_insert: inserting several columns (full decomposition)"));
            }
            let mut rn = Mat::zeros(m, n + 1);
            let qtu = qh_times(&qh, &uh.data);
            for (i, value) in qtu.iter().enumerate() {
                for j in 0..n {
                    rn.set(i, if j < k { j } else { j + 1 }, rh.at(i, j));
                }
                rn.set(i, k, *value);
            }
            let mut qn = qh;
            host::col_insert(&mut qn, &mut rn, k);
            Ok((from_host(&qn, kind, device)?, from_host(&rn, kind, device)?))
        }
    }
}

/// `scipy.linalg.qr_delete`: the QR decomposition of `A` with `p` rows
/// (`which = Row`) or columns (`Col`) removed, starting at `k`.
pub fn qr_delete(
    q: &Tensor,
    r: &Tensor,
    k: i64,
    p: i64,
    which: Which,
    check_finite: CheckFinite,
) -> Result<(Tensor, Tensor)> {
    let (m, n, economic) = validate_qr(q, r, check_finite)?;
    let (kind, device) = (q.kind(), q.device());
    let bound = if which == Which::Row { m } else { n } as i64;
    if !(-bound <= k && k < bound) {
        return Err(invalid("'k' is out of bounds"));
    }
    let k = if k < 0 { k + bound } else { k };
    if k + p > bound || p <= 0 {
        return Err(invalid("'p' is out of range"));
    }
    let (k, p) = (k as usize, p as usize);
    let (mut qh, mut rh) = (to_host(q)?, to_host(r)?);
    match which {
        Which::Row => {
            if economic {
                return Err(not_implemented("linalg.qr_delete: deleting rows from an economic decomposition"));
            }
            host::row_delete(&mut qh, &mut rh, k, p);
            let qn = qh.block(p, p, m - p, m - p);
            let rn = rh.block(p, 0, m - p, n);
            Ok((from_host(&qn, kind, device)?, from_host(&rn, kind, device)?))
        }
        Which::Col => {
            host::col_delete(&mut qh, &mut rh, k, p);
            let (qn, rn) = if economic {
                (qh.block(0, 0, m, n - p), rh.block(0, 0, n - p, n - p))
            } else {
                (qh, rh.block(0, 0, m, n - p))
            };
            Ok((from_host(&qn, kind, device)?, from_host(&rn, kind, device)?))
        }
    }
}
