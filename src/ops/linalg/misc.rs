//! `scipy.linalg._misc`: `norm` (NumPy's `linalg.norm` semantics, scaled
//! sums so that huge and tiny values neither overflow nor underflow).

use tch::{Kind, Tensor};

use super::decomp_svd::torch_svd;
use super::dtypes::*;
use super::shapes::*;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::{self, check_finite_all};
use crate::{DType, Error, Result};

/// The `ord` of `scipy.linalg.norm` (NumPy's `linalg.norm`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum NormOrder {
    /// `None`: 2-norm of vectors, Frobenius norm of matrices.
    #[default]
    Default,
    /// `'fro'` (or `'f'`): Frobenius norm (matrices only).
    Fro,
    /// `'nuc'`: nuclear norm (matrices only).
    Nuc,
    /// A number: `inf`, `-inf`, `0`, `1`, `-1`, `2`, `-2` or any `p` (vectors).
    P(f64),
}

impl NormOrder {
    fn describe(self) -> String {
        match self {
            NormOrder::Default => "None".into(),
            NormOrder::Fro => "fro".into(),
            NormOrder::Nuc => "nuc".into(),
            NormOrder::P(p) => format!("{p}"),
        }
    }
}

/// Sum of squares of `|x|` over `dims`, square-rooted, with scaling by the
/// largest entry so that huge or tiny values neither overflow nor underflow
/// (as BLAS `nrm2` does; NumPy's unscaled sum overflows from about 1e154).
fn two_norm(x: &Tensor, dims: &[i64], keepdim: bool) -> Result<Tensor> {
    let ax = x.f_abs()?;
    let squares = ax.f_square()?.f_sum_dim_intlist(dims, keepdim, None::<Kind>)?;
    if ax.numel() == 0 {
        return Ok(squares.f_sqrt()?);
    }
    // Fast path: the plain sum of squares is exact enough unless it
    // overflowed or fell to where the squares of the entries underflow.
    let smallest = match dtype(&squares)? {
        DType::Float32 => f64::from(f32::MIN_POSITIVE) / f64::from(f32::EPSILON),
        _ => f64::MIN_POSITIVE / f64::EPSILON,
    };
    let safe = squares.f_isfinite()?.f_logical_and(&squares.f_ge(smallest)?)?;
    // (a slice holding inf or NaN is right as it is: inf or NaN)
    let finite = ax.f_isfinite()?.f_logical_not()?.f_sum_dim_intlist(dims, keepdim, Kind::Int64)?.f_eq(0)?;
    if !any(&safe.f_logical_not()?.f_logical_and(&finite)?)? {
        return Ok(squares.f_sqrt()?);
    }
    let m = ax.f_amax(dims, true)?;
    let scalable = m.f_gt(0.0)?.f_logical_and(&m.f_isfinite()?)?;
    let safe = m.f_where_scalarother(&scalable, 1.0)?;
    let s = ax.f_div(&safe)?.f_square()?.f_sum_dim_intlist(dims, true, None::<Kind>)?.f_sqrt()?.f_mul(&safe)?;
    squeeze_dims(s, dims, keepdim)
}

fn squeeze_dims(mut s: Tensor, dims: &[i64], keepdim: bool) -> Result<Tensor> {
    if keepdim {
        return Ok(s);
    }
    let mut sorted = dims.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    for d in sorted {
        s = s.f_squeeze_dim(d)?;
    }
    Ok(s)
}

/// The `p`-norm (`p` finite, not 0, 1 or 2) over `dim`, scaled like [`two_norm`].
fn p_norm(x: &Tensor, p: f64, dim: i64, keepdim: bool) -> Result<Tensor> {
    let ax = x.f_abs()?;
    if ax.numel() == 0 {
        return Ok(ax
            .f_pow_tensor_scalar(p)?
            .f_sum_dim_intlist([dim].as_slice(), keepdim, None::<Kind>)?
            .f_pow_tensor_scalar(1.0 / p)?);
    }
    let m = ax.f_amax([dim].as_slice(), true)?;
    let scalable = m.f_gt(0.0)?.f_logical_and(&m.f_isfinite()?)?;
    let safe = m.f_where_scalarother(&scalable, 1.0)?;
    let s = ax
        .f_div(&safe)?
        .f_pow_tensor_scalar(p)?
        .f_sum_dim_intlist([dim].as_slice(), true, None::<Kind>)?
        .f_pow_tensor_scalar(1.0 / p)?
        .f_mul(&safe)?;
    squeeze_dims(s, &[dim], keepdim)
}

/// The options of [`norm`] (SciPy's defaults: `ord=None`, all axes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NormOptions {
    /// `ord`.
    pub ord: NormOrder,
    /// `axis`: one axis (vector norms) or two (matrix norms); `None`: all.
    pub axis: Option<Vec<i64>>,
    /// `keepdims`.
    pub keepdims: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `scipy.linalg.norm` (NumPy's `linalg.norm` semantics): vector norms over
/// one axis, matrix norms over two, the 2-norm of the flattened array by
/// default. Integer input computes in float64; float16 in float32 and
/// returns float16; complex input gives real norms.
pub fn norm(a: &Tensor, options: &NormOptions) -> Result<Tensor> {
    let NormOptions { ord, ref axis, keepdims, check_finite } = *options;
    let (axis, check) = (axis.as_deref(), check_finite.enabled());
    let d = dtype(a)?;
    check_finite_all(check, &[a])?;
    let (work, out) = match d {
        DType::Float16 => (Kind::Float, Kind::Half),
        DType::BFloat16 => (Kind::Float, Kind::BFloat16),
        DType::Float32 | DType::Complex64 => (lapack_kind(&[d]), Kind::Float),
        DType::Float64 | DType::Complex128 => (lapack_kind(&[d]), Kind::Double),
        _ => (Kind::Double, Kind::Double),
    };
    let x = cast(a, work)?;
    let nd = x.dim() as i64;
    let finish = |t: Tensor| -> Result<Tensor> { cast(&t, out) };
    if axis.is_none()
        && (ord == NormOrder::Default || (ord == NormOrder::Fro && nd == 2) || (ord == NormOrder::P(2.0) && nd == 1))
    {
        let flat = two_norm(&x.f_reshape([-1i64].as_slice())?, &[0], false)?;
        let flat = if keepdims { flat.f_reshape(vec![1i64; nd as usize].as_slice())? } else { flat };
        return finish(flat);
    }
    let axes: Vec<i64> = match axis {
        None => (0..nd).collect(),
        Some(list) => list.iter().map(|&ax| Ok(numpy::normalize_axis(ax, x.dim())? as i64)).collect::<Result<_>>()?,
    };
    let real_zero_count = |x: &Tensor, dim: i64| -> Result<Tensor> {
        Ok(x.f_ne(0.0)?.f_sum_dim_intlist([dim].as_slice(), keepdims, real_kind(work))?)
    };
    match axes.len() {
        1 => {
            let ax = axes[0];
            let r = match ord {
                NormOrder::P(p) if p == f64::INFINITY => x.f_abs()?.f_amax([ax].as_slice(), keepdims)?,
                NormOrder::P(p) if p == f64::NEG_INFINITY => x.f_abs()?.f_amin([ax].as_slice(), keepdims)?,
                NormOrder::P(0.0) => real_zero_count(&x, ax)?,
                NormOrder::P(1.0) => x.f_abs()?.f_sum_dim_intlist([ax].as_slice(), keepdims, None::<Kind>)?,
                NormOrder::Default => two_norm(&x, &[ax], keepdims)?,
                NormOrder::P(2.0) => two_norm(&x, &[ax], keepdims)?,
                NormOrder::P(p) => p_norm(&x, p, ax, keepdims)?,
                NormOrder::Fro | NormOrder::Nuc => {
                    return Err(invalid(format!("Invalid norm order '{}' for vectors", ord.describe())))
                }
            };
            finish(r)
        }
        2 => {
            let (row, col) = (axes[0], axes[1]);
            if row == col {
                return Err(invalid("Duplicate axes given."));
            }
            let keep = |t: Tensor| squeeze_dims(t, &[row, col], keepdims);
            let svals = || -> Result<Tensor> {
                let moved = x.f_movedim([row, col].as_slice(), [nd - 2, nd - 1].as_slice())?;
                let (_, s, _) = torch_svd(&moved, true, false)?;
                Ok(s)
            };
            // Restores the two reduced axes (as size 1) after an SVD-based norm.
            let reinsert = |t: Tensor| -> Result<Tensor> {
                let (lo, hi) = if row < col { (row, col) } else { (col, row) };
                t.f_unsqueeze(lo)?.f_unsqueeze(hi).map_err(Error::from)
            };
            let r = match ord {
                NormOrder::P(2.0) => keep(reinsert(svals()?.f_amax([-1i64].as_slice(), false)?)?)?,
                NormOrder::P(-2.0) => keep(reinsert(svals()?.f_amin([-1i64].as_slice(), false)?)?)?,
                NormOrder::Nuc => {
                    keep(reinsert(svals()?.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)?)?)?
                }
                NormOrder::P(p) if p == 1.0 || p == -1.0 => {
                    let sums = x.f_abs()?.f_sum_dim_intlist([row].as_slice(), true, None::<Kind>)?;
                    keep(if p > 0.0 {
                        sums.f_amax([col].as_slice(), true)?
                    } else {
                        sums.f_amin([col].as_slice(), true)?
                    })?
                }
                NormOrder::P(p) if p.is_infinite() => {
                    let sums = x.f_abs()?.f_sum_dim_intlist([col].as_slice(), true, None::<Kind>)?;
                    keep(if p > 0.0 {
                        sums.f_amax([row].as_slice(), true)?
                    } else {
                        sums.f_amin([row].as_slice(), true)?
                    })?
                }
                NormOrder::Default | NormOrder::Fro => two_norm(&x, &[row, col], keepdims)?,
                _ => return Err(invalid("Invalid norm order for matrices.")),
            };
            finish(r)
        }
        _ => Err(invalid("Improper number of dimensions to norm.")),
    }
}
