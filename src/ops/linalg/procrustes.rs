//! `scipy.linalg._procrustes`: the orthogonal Procrustes problem.

use tch::{Kind, Tensor};

use super::decomp_svd::svd_parts;
use super::dtypes::*;
use super::invalid;
use super::shapes::*;
use super::CheckFinite;
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// [`orthogonal_procrustes`]'s result.
pub struct Procrustes {
    /// The unitary matrix.
    pub r: Tensor,
    /// The sum of the singular values of `a^H b`.
    pub scale: Tensor,
}

/// `scipy.linalg.orthogonal_procrustes`: the unitary `r` minimizing
/// `||a @ r - b||_F`, and the sum of the singular values of `b^T conj(a)`.
pub fn orthogonal_procrustes(a: &Tensor, b: &Tensor, check_finite: CheckFinite) -> Result<Procrustes> {
    let check = check_finite.enabled();
    matrix_dims("orthogonal_procrustes", a)?;
    if a.size() != b.size() {
        return Err(invalid(format!("the shapes of A and B differ ({:?} vs {:?})", a.size(), b.size())));
    }
    let kind = lapack_kind(&[dtype(a)?, dtype(b)?]);
    let (a, b) = (cast(a, kind)?, cast(b, kind)?);
    check_finite_all(check, &[&a, &b])?;
    let m = mh(&a)?.f_matmul(&b)?;
    let (u, w, vt) = svd_parts(&m, true, true, false)?;
    let (u, vt) = match (u, vt) {
        (Some(u), Some(vt)) => (u, vt),
        _ => return Err(Error::Torch("svd returned no singular vectors".into())),
    };
    let r = u.f_matmul(&vt)?;
    Ok(Procrustes { r, scale: w.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)? })
}
