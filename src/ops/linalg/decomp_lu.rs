//! `scipy.linalg._decomp_lu`: `lu`, `lu_factor` and `lu_solve`.

use tch::{Kind, Tensor};

use super::dtypes::*;
use super::shapes::*;
use super::small;
use super::{invalid, CheckFinite, Trans};
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// `scipy.linalg.lu`: `a = P @ L @ U` for `(..., M, N)` `a`. Returns
/// `[P, L, U]`, `[p, L, U]` with `p_indices` (row indices, int32, with
/// `a = L[p] @ U`), or `[P @ L, U]` with `permute_l`. `P` is real (float32 or
/// float64) as SciPy returns it.
pub fn lu(a: &Tensor, options: &LuOptions) -> Result<Lu> {
    let LuOptions { permute_l, p_indices, check_finite } = *options;
    let mut parts = lu_parts(a, permute_l, p_indices, check_finite.enabled())?.into_iter();
    let missing = || Error::Torch("lu returned too few factors".into());
    let p = if permute_l { None } else { Some(parts.next().ok_or_else(missing)?) };
    let l = parts.next().ok_or_else(missing)?;
    let u = parts.next().ok_or_else(missing)?;
    Ok(Lu { p, l, u })
}

/// The options of [`lu`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LuOptions {
    /// `permute_l`: return `P @ L` as `l` (and no `p`).
    pub permute_l: bool,
    /// `p_indices`: `p` as row indices (int32) instead of a matrix.
    pub p_indices: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `a = P @ L @ U` ([`lu`]'s result).
pub struct Lu {
    /// `P` (real), or the row indices with `p_indices`; `None` with `permute_l`.
    pub p: Option<Tensor>,
    /// `L`, or `P @ L` with `permute_l`.
    pub l: Tensor,
    /// `U`.
    pub u: Tensor,
}

/// LAPACK's compact LU ([`lu_factor`]'s result, [`lu_solve`]'s input).
pub struct LuFactor {
    /// `L` and `U` in one matrix.
    pub lu: Tensor,
    /// 0-based pivot indices (int32).
    pub piv: Tensor,
    /// LAPACK's `info`: the 1-based index of the first exactly zero pivot,
    /// 0 if none (SciPy warns `LinAlgWarning` when it is positive).
    pub info: i64,
}

/// The options of [`lu_solve`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LuSolveOptions {
    /// `trans`.
    pub trans: Trans,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

fn lu_parts(a: &Tensor, permute_l: bool, p_indices: bool, check: bool) -> Result<Vec<Tensor>> {
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid("The input array must be at least two-dimensional."));
    }
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_all(check, &[&a])?;
    let nd = batch_of(&a, 2);
    let (m, n) = (s[s.len() - 2], s[s.len() - 1]);
    let k = m.min(n);
    let device = a.device();
    let rkind = real_kind(kind);
    if k == 0 {
        let l = Tensor::f_zeros(concat(&nd, &[m, k]).as_slice(), (kind, device))?;
        let u = Tensor::f_zeros(concat(&nd, &[k, n]).as_slice(), (kind, device))?;
        if permute_l {
            return Ok(vec![l, u]);
        }
        let p = if p_indices {
            Tensor::f_zeros(concat(&nd, &[0]).as_slice(), (Kind::Int, device))?
        } else {
            Tensor::f_zeros(concat(&nd, &[0, 0]).as_slice(), (rkind, device))?
        };
        return Ok(vec![p, l, u]);
    }
    if m == 1 && n == 1 {
        let ones = a.f_ones_like()?;
        let u = crate::ops::deep_copy(&a)?;
        if permute_l {
            return Ok(vec![ones, u]);
        }
        let p = if p_indices {
            Tensor::f_zeros(concat(&nd, &[1]).as_slice(), (Kind::Int64, device))?
        } else {
            a.f_ones_like()?
        };
        return Ok(vec![p, ones, u]);
    }
    let (p, l, u) = Tensor::f_linalg_lu(&a, true)?;
    if permute_l {
        return Ok(vec![p.f_matmul(&l)?, u]);
    }
    let p = if p_indices {
        let real = if is_complex_kind(kind) { p.f_real()? } else { p };
        real.f_argmax(-1, false)?.f_to_kind(Kind::Int)?
    } else if is_complex_kind(kind) {
        p.f_real()?.f_contiguous()?
    } else {
        p
    };
    Ok(vec![p, l, u])
}

/// `scipy.linalg.lu_factor`: LAPACK's compact LU of `(..., M, N)` `a` and its
/// 0-based pivot indices (int32). The third value is LAPACK's `info` (the
/// 1-based index of the first exactly zero pivot, 0 if none): SciPy warns
/// `LinAlgWarning` when it is positive.
pub fn lu_factor(a: &Tensor, check_finite: CheckFinite) -> Result<LuFactor> {
    let check = check_finite.enabled();
    let s = a.size();
    if s.len() >= 2 && s[s.len() - 1] == s[s.len() - 2] && small::eligible(a, s[s.len() - 1]) {
        let av = small::data(a)?;
        small::check_finite(check, &av)?;
        let (lu, piv, info) = small::lu_factor(&av, &s)?;
        return Ok(LuFactor { lu, piv, info });
    }
    check_finite_all(check, &[a])?;
    if a.numel() == 0 {
        let piv = Tensor::f_zeros([0i64].as_slice(), (Kind::Int, a.device()))?;
        return Ok(LuFactor { lu: crate::ops::deep_copy(a)?, piv, info: 0 });
    }
    matrix_dims("lu_factor", a)?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    let (lu, pivots, info) = Tensor::f_linalg_lu_factor_ex(&a, true, false)?;
    let info = first_positive(&info)?.unwrap_or(0);
    Ok(LuFactor { lu, piv: pivots.f_sub_scalar(1)?, info })
}

/// [`lu_solve`] on the host for one small float64 CPU factorization with
/// valid pivots (`None`: the tensor path takes it).
fn lu_solve_small(lu: &Tensor, piv: &Tensor, b: &Tensor, trans: i64, check: bool) -> Result<Option<Tensor>> {
    let n = lu.size().last().copied().unwrap_or(0);
    let fits = lu.dim() == 2
        && lu.size()[0] == n
        && b.dim() <= 2
        && b.numel() > 0
        && rows_of(b) == n
        && piv.dim() == 1
        && piv.size()[0] == n
        && (0..=2).contains(&trans)
        && small::eligible(lu, n)
        && small::eligible(b, n)
        && matches!(piv.kind(), Kind::Int | Kind::Int64);
    if !fits {
        return Ok(None);
    }
    let p = piv.f_to_kind(Kind::Int64)?.f_contiguous()?;
    let mut pv = vec![0i64; n as usize];
    p.f_copy_data(&mut pv, n as usize)?;
    if pv.iter().any(|&v| v < 0 || v >= n) {
        return Ok(None);
    }
    let bv = small::data(b)?;
    small::check_finite(check, &bv)?;
    Ok(Some(small::lu_solve(&small::data_col_major(lu)?, &pv, bv, &b.size(), trans != 0)?))
}

/// `scipy.linalg.lu_solve`: solves `A x = b` (`trans` 0), `A^T x = b` (1) or
/// `A^H x = b` (2) from `lu_factor`'s `(lu, piv)` (0-based pivots).
pub fn lu_solve(lu: &Tensor, piv: &Tensor, b: &Tensor, options: &LuSolveOptions) -> Result<Tensor> {
    let (trans, check) = (options.trans as i64, options.check_finite.enabled());
    let b = atleast_1d(b)?;
    if let Some(x) = lu_solve_small(lu, piv, &b, trans, check)? {
        return Ok(x);
    }
    check_finite_all(check, &[&b])?;
    square("lu_solve", lu)?;
    if lu.size()[lu.dim() - 2] != rows_of(&b) {
        return Err(invalid(format!("Shapes of lu {:?} and b {:?} are incompatible", lu.size(), b.size())));
    }
    let kind = lapack_kind(&[dtype(lu)?, dtype(&b)?]);
    let (lu, b) = (cast(lu, kind)?, cast(&b, kind)?);
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    let pivots = piv.f_to_kind(Kind::Int)?.f_add_scalar(1)?;
    let (cols, vector) = as_columns(&b)?;
    let x = match trans {
        0 => Tensor::f_linalg_lu_solve(&lu, &pivots, &cols, true, false)?,
        1 if is_complex_kind(kind) => {
            // A^T x = b  <=>  A^H conj(x) = conj(b)
            Tensor::f_linalg_lu_solve(&lu, &pivots, &cols.f_conj()?.f_resolve_conj()?, true, true)?.f_conj()?
        }
        1 | 2 => Tensor::f_linalg_lu_solve(&lu, &pivots, &cols, true, true)?,
        other => return Err(invalid(format!("trans must be 0, 1 or 2, got {other}"))),
    };
    Ok(if vector { x.f_squeeze_dim(-1)? } else { x })
}
