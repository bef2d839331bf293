//! `scipy.linalg._decomp_qr`: `qr` and `rq`.

use tch::Tensor;

use super::dtypes::*;
use super::shapes::*;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// The modes of `scipy.linalg.qr` and `rq`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QrMode {
    /// `'full'` (or `'qr'`): square `Q`.
    #[default]
    Full,
    /// `'economic'`: `Q` with `min(M, N)` columns (rows for `rq`).
    Economic,
    /// `'r'`: the triangular factor only, full-shaped.
    R,
    /// `'raw'`: LAPACK's `?geqrf` output `(qr, tau)` and `R`.
    Raw,
}

impl std::str::FromStr for QrMode {
    type Err = Error;

    /// `scipy.linalg.qr`'s names (`'qr'` is `'full'`), with its ValueError.
    fn from_str(mode: &str) -> Result<QrMode> {
        match mode {
            "full" | "qr" => Ok(QrMode::Full),
            "economic" => Ok(QrMode::Economic),
            "r" => Ok(QrMode::R),
            "raw" => Ok(QrMode::Raw),
            _ => Err(invalid("Mode argument should be one of ['full', 'r', 'economic', 'raw']")),
        }
    }
}

/// `scipy.linalg.qr`: `a = Q @ R` for `(..., M, N)` `a` by Householder QR
/// (LAPACK's `?geqrf`/`?orgqr` through libtorch). Returns `[Q, R]`, `[R]` or
/// `[qr, tau, R]` by `mode`.
pub fn qr(a: &Tensor, options: &QrOptions) -> Result<Qr> {
    let mut parts = qr_parts(a, options.mode, options.check_finite.enabled())?;
    let missing = || Error::Torch("qr returned too few factors".into());
    let r = parts.pop().ok_or_else(missing)?;
    Ok(match options.mode {
        QrMode::Raw => {
            let tau = parts.pop().ok_or_else(missing)?;
            let qr = parts.pop().ok_or_else(missing)?;
            Qr { q: None, r, raw: Some(QrRaw { qr, tau }) }
        }
        _ => Qr { q: parts.pop(), r, raw: None },
    })
}

/// The options of [`qr`] and [`rq`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QrOptions {
    /// `mode`.
    pub mode: QrMode,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// LAPACK's `?geqrf` output (`mode='raw'`).
pub struct QrRaw {
    /// Householder reflectors below the diagonal, `R` on and above it.
    pub qr: Tensor,
    /// The reflectors' scalar factors.
    pub tau: Tensor,
}

/// `a = Q @ R` ([`qr`]'s result).
pub struct Qr {
    /// `Q` (`None` for modes `'r'` and `'raw'`).
    pub q: Option<Tensor>,
    /// `R`.
    pub r: Tensor,
    /// `(qr, tau)` for mode `'raw'`.
    pub raw: Option<QrRaw>,
}

/// `a = R @ Q` ([`rq`]'s result).
pub struct Rq {
    /// `R`.
    pub r: Tensor,
    /// `Q` (`None` for mode `'r'`).
    pub q: Option<Tensor>,
}

fn qr_parts(a: &Tensor, mode: QrMode, check: bool) -> Result<Vec<Tensor>> {
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
pub fn rq(a: &Tensor, options: &QrOptions) -> Result<Rq> {
    let mut parts = rq_parts(a, options.mode, options.check_finite.enabled())?.into_iter();
    let r = parts.next().ok_or_else(|| Error::Torch("rq returned no factor".into()))?;
    Ok(Rq { r, q: parts.next() })
}

fn rq_parts(a: &Tensor, mode: QrMode, check: bool) -> Result<Vec<Tensor>> {
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
