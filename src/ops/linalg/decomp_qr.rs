//! `scipy.linalg._decomp_qr`: `qr` and `rq`.

use tch::Tensor;

use super::dtypes::*;
use super::invalid;
use super::shapes::*;
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::Result;

/// The modes of `scipy.linalg.qr` and `rq`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QrMode {
    /// `'full'` (or `'qr'`): square `Q`.
    Full,
    /// `'economic'`: `Q` with `min(M, N)` columns (rows for `rq`).
    Economic,
    /// `'r'`: the triangular factor only, full-shaped.
    R,
    /// `'raw'`: LAPACK's `?geqrf` output `(qr, tau)` and `R`.
    Raw,
}

/// `scipy.linalg.qr`: `a = Q @ R` for `(..., M, N)` `a` by Householder QR
/// (LAPACK's `?geqrf`/`?orgqr` through libtorch). Returns `[Q, R]`, `[R]` or
/// `[qr, tau, R]` by `mode`.
pub fn qr(a: &Tensor, mode: QrMode, check: bool) -> Result<Vec<Tensor>> {
    let (m, n) = matrix_dims("qr", a).map_err(|_| invalid("expected a 2-D array"))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_all(check, &[&a])?;
    let k = m.min(n);
    let batch = batch_of(&a, 2);
    let device = a.device();
    let zeros = |shape: &[i64]| Tensor::f_zeros(concat(&batch, shape).as_slice(), (kind, device));
    if a.numel() == 0 {
        return Ok(match mode {
            QrMode::Full => vec![
                eye(m, kind, device)?.f_expand(concat(&batch, &[m, m]).as_slice(), false)?.f_contiguous()?,
                zeros(&[m, n])?,
            ],
            QrMode::R => vec![zeros(&[m, n])?],
            QrMode::Economic => vec![zeros(&[m, k])?, zeros(&[k, n])?],
            QrMode::Raw => vec![zeros(&[m, n])?, zeros(&[k])?, zeros(&[k, n])?],
        });
    }
    Ok(match mode {
        QrMode::Full => {
            let (q, r) = Tensor::f_linalg_qr(&a, "complete")?;
            vec![q, r]
        }
        QrMode::Economic => {
            let (q, r) = Tensor::f_linalg_qr(&a, "reduced")?;
            vec![q, r]
        }
        QrMode::R => {
            let (_, r) = Tensor::f_linalg_qr(&a, "r")?;
            let r = if m > k { Tensor::f_cat(&[r, zeros(&[m - k, n])?], -2)? } else { r };
            vec![r]
        }
        QrMode::Raw => {
            let (qr, tau) = a.f_geqrf()?;
            let r = if m < n { qr.f_triu(0)? } else { qr.f_narrow(-2, 0, n)?.f_triu(0)? };
            vec![qr, tau, r]
        }
    })
}

/// `scipy.linalg.rq`: `a = R @ Q` for `(..., M, N)` `a`, from the QR
/// decomposition of `a`'s row-reversed conjugate transpose (libtorch has no
/// `?gerqf`). The factorization is unique up to the signs of `R`'s diagonal
/// (and phases, for complex input), which may differ from LAPACK's.
/// Returns `[R, Q]` or `[R]` (`mode = R`).
pub fn rq(a: &Tensor, mode: QrMode, check: bool) -> Result<Vec<Tensor>> {
    let (m, n) = matrix_dims("rq", a).map_err(|_| invalid("expected matrix"))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_all(check, &[&a])?;
    let k = m.min(n);
    let batch = batch_of(&a, 2);
    let device = a.device();
    let zeros = |shape: &[i64]| Tensor::f_zeros(concat(&batch, shape).as_slice(), (kind, device));
    if mode == QrMode::Raw {
        return Err(invalid("Mode argument should be one of ['full', 'r', 'economic']"));
    }
    let economic = mode == QrMode::Economic && m <= n;
    if a.numel() == 0 {
        return Ok(match (mode, economic) {
            (QrMode::R, _) => vec![zeros(&[m, n])?],
            (_, true) => vec![zeros(&[m, k])?, zeros(&[k, n])?],
            _ => vec![
                zeros(&[m, n])?,
                eye(n, kind, device)?.f_expand(concat(&batch, &[n, n]).as_slice(), false)?.f_contiguous()?,
            ],
        });
    }
    let flipped = mh(&a.f_flip([-2i64].as_slice())?)?;
    let (q1, r1) = Tensor::f_linalg_qr(&flipped, if economic { "reduced" } else { "complete" })?;
    let r = mh(&r1)?.f_flip([-2i64, -1].as_slice())?;
    if mode == QrMode::R {
        return Ok(vec![r]);
    }
    let q = mh(&q1)?.f_flip([-2i64].as_slice())?;
    Ok(vec![r, q])
}
