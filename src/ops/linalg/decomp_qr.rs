//! `scipy.linalg._decomp_qr`: `qr` and `rq`.

use tch::Tensor;

use super::dtypes::*;
use super::lapack::{geqp3_pivots, C64};
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
    let (m, n) = matrix_dims("qr", a).map_err(|_| invalid("expected a 2-D array"))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_all(options.check_finite.enabled(), &[&a])?;
    let (a, p) = if options.pivoting {
        let (permuted, p) = pivoted_columns(&a, m, n)?;
        (permuted, Some(p))
    } else {
        (a, None)
    };
    let mut parts = qr_parts(&a, options.mode)?;
    let missing = || Error::Torch("qr returned too few factors".into());
    let r = parts.pop().ok_or_else(missing)?;
    Ok(match options.mode {
        QrMode::Raw => {
            let tau = parts.pop().ok_or_else(missing)?;
            let qr = parts.pop().ok_or_else(missing)?;
            Qr { q: None, r, raw: Some(QrRaw { qr, tau }), p }
        }
        _ => Qr { q: parts.pop(), r, raw: None, p },
    })
}

/// The columns of `a` (`(..., m, n)`) in the order LAPACK's `?geqp3`
/// pivots them, and that order (int32 as SciPy's, `(..., n)`): the pivots are chosen
/// on the host (an explicit copy for CUDA input; the factorization itself
/// then runs on the input's device).
fn pivoted_columns(a: &Tensor, m: i64, n: i64) -> Result<(Tensor, Tensor)> {
    let batch = batch_of(a, 2);
    let count: i64 = batch.iter().product();
    let (mu, nu) = (m as usize, n as usize);
    let mut order: Vec<i64> = Vec::with_capacity((count * n).max(0) as usize);
    if a.numel() == 0 {
        for _ in 0..count {
            order.extend(0..n);
        }
    } else if is_complex_kind(a.kind()) {
        let host = a.f_to_kind(tch::Kind::ComplexDouble)?.f_to(tch::Device::Cpu)?.f_resolve_conj()?.f_contiguous()?;
        let pairs = host.f_view_as_real()?.f_reshape([-1i64].as_slice())?;
        let mut flat = filled(pairs.numel(), 0f64, "a host copy for the column pivoting")?;
        pairs.f_copy_data(&mut flat, pairs.numel())?;
        for chunk in flat.chunks(2 * mu * nu) {
            let mut work: Vec<C64> = chunk.chunks(2).map(|p| C64::new(p[0], p[1])).collect();
            order.extend(geqp3_pivots(&mut work, mu, nu).into_iter().map(|j| j as i64));
        }
    } else {
        let host = a.f_to_kind(tch::Kind::Double)?.f_to(tch::Device::Cpu)?.f_contiguous()?;
        let mut flat = filled(host.numel(), 0f64, "a host copy for the column pivoting")?;
        host.f_copy_data(&mut flat, host.numel())?;
        for chunk in flat.chunks(mu * nu) {
            let mut work = chunk.to_vec();
            order.extend(geqp3_pivots(&mut work, mu, nu).into_iter().map(|j| j as i64));
        }
    }
    let p = Tensor::f_from_slice(&order)?.f_reshape(concat(&batch, &[n]).as_slice())?.f_to(a.device())?;
    let index = p.f_unsqueeze(-2)?.f_expand(concat(&batch, &[m, n]).as_slice(), false)?;
    Ok((a.f_gather(-1, &index, false)?, p.f_to_kind(tch::Kind::Int)?))
}

/// The options of [`qr`] and [`rq`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QrOptions {
    /// `mode`.
    pub mode: QrMode,
    /// `check_finite`.
    pub check_finite: CheckFinite,
    /// `pivoting`: column pivoting as LAPACK's `?geqp3` (then `a[:, p] = Q @ R`).
    pub pivoting: bool,
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
    /// The column permutation (int32, as SciPy's) with `pivoting`.
    pub p: Option<Tensor>,
}

/// `a = R @ Q` ([`rq`]'s result).
pub struct Rq {
    /// `R`.
    pub r: Tensor,
    /// `Q` (`None` for mode `'r'`).
    pub q: Option<Tensor>,
}

fn qr_parts(a: &Tensor, mode: QrMode) -> Result<Vec<Tensor>> {
    let (m, n) = matrix_dims("qr", a)?;
    let kind = a.kind();
    let k = m.min(n);
    let batch = batch_of(a, 2);
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
            let (q, r) = Tensor::f_linalg_qr(a, "complete")?;
            vec![q, r]
        }
        QrMode::Economic => {
            let (q, r) = Tensor::f_linalg_qr(a, "reduced")?;
            vec![q, r]
        }
        QrMode::R => {
            let (_, r) = Tensor::f_linalg_qr(a, "r")?;
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

/// Where `qr_multiply` multiplies by `Q`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QrMultiplyMode {
    /// `'right'`: `c @ Q`.
    #[default]
    Right,
    /// `'left'`: `Q @ c`.
    Left,
}

/// The options of [`qr_multiply`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QrMultiplyOptions {
    /// `mode`.
    pub mode: QrMultiplyMode,
    /// `pivoting`.
    pub pivoting: bool,
    /// `conjugate`: multiply by `conj(Q)`.
    pub conjugate: bool,
    /// `overwrite_c`: as in SciPy, with `mode='left'` and `M > N` it asks for
    /// `c` with `M` rows, multiplied by the full `M x M` `Q`.
    pub overwrite_c: bool,
}

/// [`qr_multiply`]'s result.
pub struct QrMultiply {
    /// The product.
    pub cq: Tensor,
    /// `R` (`(K, N)`).
    pub r: Tensor,
    /// The column permutation (int32, as SciPy's) with `pivoting`.
    pub p: Option<Tensor>,
}

fn shape_text(s: &[i64]) -> String {
    match s {
        [one] => format!("({one},)"),
        _ => format!("({})", s.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// `scipy.linalg.qr_multiply`: the QR decomposition of `(..., M, N)` `a`
/// and the product of its `Q` (economic, `M x K`) with `c`: `Q @ c`
/// (`mode = Left`, `c` with `K` rows) or `c @ Q` (`Right`, `c` with `M`
/// columns); a 1-D `c` gives a 1-D product. Returns the product, `R` and,
/// with `pivoting`, the column permutation. Batches of `a` and `c` broadcast.
pub fn qr_multiply(a: &Tensor, c: &Tensor, options: &QrMultiplyOptions) -> Result<QrMultiply> {
    let QrMultiplyOptions { mode, pivoting, conjugate, overwrite_c } = *options;
    check_finite_all(true, &[c])?;
    let left = mode == QrMultiplyMode::Left;
    let onedim = c.dim() < 2;
    let c2 = atleast_2d(c)?;
    let c2 = if onedim && left { c2.f_mt()? } else { c2 };
    let a = atleast_2d(a)?;
    let (m, n) = matrix_dims("qr_multiply", &a)?;
    let (cr, cc) = (c2.size()[c2.dim() - 2], c2.size()[c2.dim() - 1]);
    let a2 = &a.size()[a.dim() - 2..];
    let cs = &c2.size()[c2.dim() - 2..];
    let full_left = left && overwrite_c && m > n;
    if left {
        let rows = if full_left { m } else { m.min(n) };
        if cr != rows {
            return Err(invalid(format!(
                "Array shapes are not compatible for Q @ c operation: {} vs {}",
                shape_text(a2),
                shape_text(cs)
            )));
        }
    } else if m != cc {
        return Err(invalid(format!(
            "Array shapes are not compatible for c @ Q operation: {} vs {}",
            shape_text(cs),
            shape_text(a2)
        )));
    }
    let mut kind = lapack_kind(&[dtype(&a)?]);
    if dtype(c)?.is_complex() {
        kind = complex_kind(kind);
    }
    let mode = if full_left { QrMode::Full } else { QrMode::Economic };
    let Qr { q, r, p, .. } = qr(&cast(&a, kind)?, &QrOptions { mode, check_finite: CheckFinite::Yes, pivoting })?;
    let q = q.ok_or_else(|| Error::Torch("qr returned no Q".into()))?;
    // (SciPy's R is that of mode 'raw': K rows)
    let r = if full_left { r.f_narrow(-2, 0, m.min(n))? } else { r };
    if c2.numel() == 0 {
        return Ok(QrMultiply { cq: zeros_as(&c2, &c2.size())?, r, p });
    }
    let q = if conjugate { q.f_conj()?.f_resolve_conj()? } else { q };
    let c2 = cast(&c2, kind)?;
    let cq = if left { q.f_matmul(&c2)? } else { c2.f_matmul(&q)? };
    let cq = match (onedim, left) {
        (false, _) => cq,
        (true, true) => cq.f_squeeze_dim(-1)?,
        (true, false) => cq.f_squeeze_dim(-2)?,
    };
    Ok(QrMultiply { cq, r, p })
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
