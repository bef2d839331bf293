//! `scipy.linalg._decomp_svd`: `svd`, `null_space`, `orth`,
//! `subspace_angles` and `diagsvd`.

use tch::{Kind, Tensor};

use super::dtypes::*;
use super::shapes::*;
use super::small;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// libtorch's SVD (`torch.svd`, the one libtorch entry point that takes no
/// driver string), with SciPy's errors.
pub(super) fn torch_svd(a: &Tensor, reduced: bool, compute_uv: bool) -> Result<(Tensor, Tensor, Tensor)> {
    a.f_svd(reduced, compute_uv).map_err(|err| {
        let message = err.to_string();
        if message.contains("non-finite") {
            invalid("A has a NaN entry")
        } else if message.contains("converge") {
            Error::LinAlg("SVD did not converge".into())
        } else {
            Error::from(err)
        }
    })
}

/// `scipy.linalg.svd`: `a = U @ diag(s) @ Vh` for `(..., M, N)` `a`;
/// `(None, s, None)` without `compute_uv`.
pub fn svd(a: &Tensor, options: &SvdOptions) -> Result<Svd> {
    let SvdOptions { full_matrices, compute_uv, check_finite } = *options;
    let (u, s, vh) = svd_parts(a, full_matrices, compute_uv, check_finite.enabled())?;
    Ok(Svd { u, s, vh })
}

/// The options of [`svd`] (SciPy's defaults: full matrices, with vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvdOptions {
    /// `full_matrices`.
    pub full_matrices: bool,
    /// `compute_uv`.
    pub compute_uv: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

impl Default for SvdOptions {
    fn default() -> SvdOptions {
        SvdOptions { full_matrices: true, compute_uv: true, check_finite: CheckFinite::Yes }
    }
}

/// `a = U @ diag(s) @ Vh` ([`svd`]'s result; `u`, `vh` `None` without `compute_uv`).
pub struct Svd {
    /// `U`.
    pub u: Option<Tensor>,
    /// Singular values, descending.
    pub s: Tensor,
    /// `Vh`.
    pub vh: Option<Tensor>,
}

/// [`svd`] with positional options, for the composites of the family.
pub(super) fn svd_parts(
    a: &Tensor,
    full_matrices: bool,
    compute_uv: bool,
    check: bool,
) -> Result<(Option<Tensor>, Tensor, Option<Tensor>)> {
    let (m, n) = matrix_dims("svd", a).map_err(|_| invalid("expected matrix"))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    if m > 0 && n > 0 && small::eligible(&a, m.max(n)) {
        let av = small::data(&a)?;
        small::check_finite(check, &av)?;
        // (non-finite entries unchecked: the tensor path's error)
        if av.iter().all(|v| v.is_finite()) {
            return small::svd(&av, &a.size(), full_matrices, compute_uv)?
                .map_err(|()| Error::LinAlg("SVD did not converge".into()));
        }
    }
    check_finite_all(check, &[&a])?;
    let batch = batch_of(&a, 2);
    let device = a.device();
    if a.numel() == 0 {
        let s = Tensor::f_zeros(concat(&batch, &[0]).as_slice(), (real_kind(kind), device))?;
        if !compute_uv {
            return Ok((None, s, None));
        }
        let (u, vh) = if full_matrices {
            (
                eye(m, kind, device)?.f_expand(concat(&batch, &[m, m]).as_slice(), false)?.f_contiguous()?,
                eye(n, kind, device)?.f_expand(concat(&batch, &[n, n]).as_slice(), false)?.f_contiguous()?,
            )
        } else {
            (
                Tensor::f_zeros(concat(&batch, &[m, 0]).as_slice(), (kind, device))?,
                Tensor::f_zeros(concat(&batch, &[0, n]).as_slice(), (kind, device))?,
            )
        };
        return Ok((Some(u), s, Some(vh)));
    }
    let (u, s, v) = torch_svd(&a, !full_matrices, compute_uv)?;
    if compute_uv {
        Ok((Some(u), s, Some(mh(&v)?)))
    } else {
        Ok((None, s, None))
    }
}

/// `svd` with reduced factors, for the composites below.
pub(super) fn svd_reduced(a: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    let (u, s, vh) = svd_parts(a, false, true, false)?;
    match (u, vh) {
        (Some(u), Some(vh)) => Ok((u, s, vh)),
        _ => Err(Error::Torch("svd returned no singular vectors".into())),
    }
}

/// The largest entry along the last dimension, 0 for an empty one (NumPy's
/// `amax(..., initial=0.)`).
pub(super) fn amax_or_zero(s: &Tensor) -> Result<Tensor> {
    let size = s.size();
    if size.last() == Some(&0) {
        return Ok(Tensor::f_zeros(&size[..size.len() - 1], (dtype(s)?.kind().unwrap_or(Kind::Double), s.device()))?);
    }
    Ok(s.f_amax([-1i64].as_slice(), false)?)
}

/// Number of singular values above `rcond * max(s)` (`rcond` default
/// `eps * max(M, N)`), one count for the whole batch.
fn numerical_rank(s: &Tensor, m: i64, n: i64, rcond: Option<f64>) -> Result<i64> {
    let rcond =
        rcond.unwrap_or_else(|| eps(dtype(s).ok().and_then(|d| d.kind()).unwrap_or(Kind::Double)) * m.max(n) as f64);
    let tol = amax_or_zero(s)?.f_mul_scalar(rcond)?.f_unsqueeze(-1)?;
    let counts = s.f_gt_tensor(&tol)?.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    common_count(&counts, "rank")
}

/// The options of [`null_space`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NullSpaceOptions {
    /// `rcond` (`None`: `eps * max(M, N)`).
    pub rcond: Option<f64>,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `scipy.linalg.null_space`: an orthonormal basis (columns) of the null
/// space of `(..., M, N)` `a`, from the full SVD.
pub fn null_space(a: &Tensor, options: &NullSpaceOptions) -> Result<Tensor> {
    let NullSpaceOptions { rcond, check_finite } = *options;
    let check = check_finite.enabled();
    let (m, n) = matrix_dims("null_space", a)?;
    let (_, s, vh) = svd_parts(a, true, true, check)?;
    let vh = vh.ok_or_else(|| Error::Torch("svd returned no singular vectors".into()))?;
    let num = numerical_rank(&s, m, n, rcond)?;
    mh(&vh.f_narrow(-2, num, n - num)?)
}

/// `scipy.linalg.orth`: an orthonormal basis (columns) of the range of
/// `(..., M, N)` `a`, from the reduced SVD.
pub fn orth(a: &Tensor, rcond: Option<f64>) -> Result<Tensor> {
    let (m, n) = matrix_dims("orth", a)?;
    let (u, s, _) = svd_parts(a, false, true, true)?;
    let u = u.ok_or_else(|| Error::Torch("svd returned no singular vectors".into()))?;
    let num = numerical_rank(&s, m, n, rcond)?;
    Ok(u.f_narrow(-1, 0, num)?)
}

/// `scipy.linalg.subspace_angles`: principal angles (descending) between the
/// column spaces of `(..., M, N)` `a` and `(..., M, K)` `b` (Knyazev and
/// Argentati's algorithm, as SciPy).
pub fn subspace_angles(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (ma, _) = matrix_dims("subspace_angles", a)?;
    let (mb, _) = matrix_dims("subspace_angles", b)?;
    if ma != mb {
        return Err(invalid(format!("A and B must have the same number of rows, got {ma} and {mb}")));
    }
    let qa = orth(a, None)?;
    let qb = orth(b, None)?;
    let kind = lapack_kind(&[dtype(&qa)?, dtype(&qb)?]);
    let (qa, qb) = (cast(&qa, kind)?, cast(&qb, kind)?);
    let qa_h_qb = mh(&qa)?.f_matmul(&qb)?;
    let (_, sigma, _) = svd_parts(&qa_h_qb, false, false, false)?;
    let residual = if qa.size()[qa.dim() - 1] >= qb.size()[qb.dim() - 1] {
        qb.f_sub(&qa.f_matmul(&qa_h_qb)?)?
    } else {
        qa.f_sub(&qb.f_matmul(&mh(&qa_h_qb)?)?)?
    };
    let mask = sigma.f_square()?.f_ge(0.5)?;
    let mu_arcsin = if any(&mask)? {
        let (_, mu, _) = svd_parts(&residual, false, false, false)?;
        mu.f_clamp(-1.0, 1.0)?.f_asin()?
    } else {
        sigma.f_zeros_like()?
    };
    let arccos = sigma.f_flip([-1i64].as_slice())?.f_clamp(-1.0, 1.0)?.f_acos()?;
    // `mu_arcsin` has as many entries as `sigma` when the mask is set: both
    // come from min(rank A, rank B)-column blocks.
    if mu_arcsin.size() != arccos.size() {
        let k = *arccos.size().last().unwrap_or(&0);
        let mu = mu_arcsin.f_narrow(-1, 0, k.min(*mu_arcsin.size().last().unwrap_or(&0)))?;
        return Ok(mu.f_where_self(
            &mask.f_narrow(-1, 0, mu.size()[mu.dim() - 1])?,
            &arccos.f_narrow(-1, 0, mu.size()[mu.dim() - 1])?,
        )?);
    }
    Ok(mu_arcsin.f_where_self(&mask, &arccos)?)
}

/// `scipy.linalg.diagsvd`: the `(M, N)` matrix with `s` on its diagonal
/// (`len(s)` must be `M` or `N`); leading dimensions of `s` batch.
pub fn diagsvd(s: &Tensor, m: i64, n: i64) -> Result<Tensor> {
    let s = atleast_1d(s)?;
    let k = s.size()[s.dim() - 1];
    if k != m && k != n {
        return Err(invalid("Length of s must be M or N."));
    }
    let batch = batch_of(&s, 1);
    check_alloc(&concat(&batch, &[m, n]), dtype(&s)?.itemsize(), "the diagsvd matrix")?;
    let part = s.f_diag_embed(0, -2, -1)?;
    if k == m {
        let pad = zeros_as(&s, concat(&batch, &[m, n - m]).as_slice())?;
        Ok(Tensor::f_cat(&[part, pad], -1)?)
    } else {
        let pad = zeros_as(&s, concat(&batch, &[m - n, n]).as_slice())?;
        Ok(Tensor::f_cat(&[part, pad], -2)?)
    }
}
