//! `scipy.linalg._decomp_polar`: the polar decomposition.

use tch::{Kind, Tensor};

use super::decomp_svd::svd_reduced;
use super::invalid;
use super::shapes::*;
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::Result;

/// Which polar decomposition (SciPy's `side`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// `'right'`: `a = u @ p`.
    #[default]
    Right,
    /// `'left'`: `a = p @ u`.
    Left,
}

impl std::str::FromStr for Side {
    type Err = crate::Error;

    /// SciPy's names, with its ValueError for others.
    fn from_str(side: &str) -> Result<Side> {
        match side {
            "right" => Ok(Side::Right),
            "left" => Ok(Side::Left),
            _ => Err(invalid("`side` must be either 'right' or 'left'")),
        }
    }
}

/// [`polar`]'s result.
pub struct Polar {
    /// The factor with orthonormal columns (rows).
    pub u: Tensor,
    /// The Hermitian positive semi-definite factor.
    pub p: Tensor,
}

/// `scipy.linalg.polar`: `a = u @ p` (`side = "right"`) or `a = p @ u`
/// (`"left"`) with `u` having orthonormal columns (rows) and `p` Hermitian
/// positive semi-definite, from the SVD.
pub fn polar(a: &Tensor, side: Side) -> Result<Polar> {
    let right_side = side == Side::Right;
    matrix_dims("polar", a).map_err(|_| invalid("`a` must be a 2-D array."))?;
    check_finite_all(true, &[a])?; // SciPy's svd(a) checks, with no way to turn it off
    let (w, s, vh) = svd_reduced(a)?;
    let kind = dtype(&w)?.kind().unwrap_or(Kind::Double);
    let s = s.f_to_kind(kind)?.f_unsqueeze(-2)?;
    let u = w.f_matmul(&vh)?;
    let p = if right_side { mh(&vh)?.f_mul(&s)?.f_matmul(&vh)? } else { w.f_mul(&s)?.f_matmul(&mh(&w)?)? };
    Ok(Polar { u, p })
}
