//! `scipy.linalg._decomp_cholesky`: `cholesky`, `cho_factor`, `cho_solve`
//! and `cholesky_banded`.

use tch::Tensor;

use super::dtypes::*;
use super::shapes::*;
use super::small;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// `scipy.linalg.cholesky` (`clean = true`) and `cho_factor`
/// (`clean = false`): the `lower` (or upper) Cholesky factor of Hermitian
/// positive definite `(..., N, N)` `a`, reading that triangle only. Without
/// `clean` the other triangle holds `a`'s entries, as LAPACK's `?potrf`
/// leaves them.
pub fn cholesky(a: &Tensor, options: &CholeskyOptions) -> Result<Tensor> {
    factor(a, options.lower, true, options.check_finite.enabled())
}

/// `scipy.linalg.cho_factor`: [`cholesky`]'s factor with `a`'s own entries
/// in the other triangle, and which triangle holds the factor.
pub fn cho_factor(a: &Tensor, options: &CholeskyOptions) -> Result<ChoFactor> {
    Ok(ChoFactor { c: factor(a, options.lower, false, options.check_finite.enabled())?, lower: options.lower })
}

/// The options of [`cholesky`], [`cho_factor`] and [`cholesky_banded`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CholeskyOptions {
    /// `lower`: the lower factor (else the upper one, SciPy's default).
    pub lower: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// [`cho_factor`]'s result, [`cho_solve`]'s input (SciPy's `(c, lower)`).
pub struct ChoFactor {
    /// The factor (in the `lower` or upper triangle).
    pub c: Tensor,
    /// Which triangle holds it.
    pub lower: bool,
}

fn factor(a: &Tensor, lower: bool, clean: bool, check: bool) -> Result<Tensor> {
    square("cholesky", a)
        .map_err(|_| invalid(format!("Input array is expected to be square but has the shape: {:?}.", a.size())))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    if small::eligible(&a, a.size()[a.dim() - 1]) {
        let av = small::data(&a)?;
        small::check_finite(check, &av)?;
        return small::cholesky(av, &a.size(), !lower, clean)?
            .map_err(|order| Error::LinAlg(format!("{order}-th leading minor of the array is not positive definite")));
    }
    check_finite_all(check, &[&a])?;
    if a.numel() == 0 {
        return Ok(a.f_zeros_like()?);
    }
    // libtorch's ?potrf reads only the triangle it factors, as SciPy's does.
    let (c, info) = a.f_linalg_cholesky_ex(!lower, false)?;
    if let Some(order) = first_positive(&info)? {
        return Err(Error::LinAlg(format!("{order}-th leading minor of the array is not positive definite")));
    }
    if clean {
        return Ok(c);
    }
    Ok(if lower { c.f_tril(0)?.f_add(&a.f_triu(1)?)? } else { c.f_triu(0)?.f_add(&a.f_tril(-1)?)? })
}

/// `scipy.linalg.cho_solve`: solves `A x = b` given `cho_factor`'s `c` and
/// `lower` (only that triangle of `c` is read).
pub fn cho_solve(c_and_lower: &ChoFactor, b: &Tensor, check_finite: CheckFinite) -> Result<Tensor> {
    let (c, lower, check) = (&c_and_lower.c, c_and_lower.lower, check_finite.enabled());
    if c.dim() < 2 || square("cho_solve", c).is_err() {
        return Err(invalid("The factored matrix c is not square."));
    }
    let b = atleast_1d(b)?;
    if c.size()[c.dim() - 1] != rows_of(&b) {
        return Err(invalid(format!("incompatible dimensions ({:?} and {:?})", c.size(), b.size())));
    }
    let kind = lapack_kind(&[dtype(c)?, dtype(&b)?]);
    let (c, b) = (cast(c, kind)?, cast(&b, kind)?);
    let n = c.size()[c.dim() - 1];
    if c.dim() == 2 && b.dim() <= 2 && b.numel() > 0 && small::eligible(&c, n) && small::eligible(&b, n) {
        let (bv, cv) = (small::data(&b)?, small::data(&c)?);
        small::check_finite(check, &bv)?;
        small::check_finite(check, &cv)?;
        return small::cho_solve(&cv, !lower, bv, &b.size());
    }
    check_finite_all(check, &[&b, &c])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    let (cols, vector) = as_columns(&b)?;
    let triangle = if lower { c.f_tril(0)? } else { c.f_triu(0)? };
    let x = cols.f_cholesky_solve(&triangle, !lower)?;
    Ok(if vector { x.f_squeeze_dim(-1)? } else { x })
}

/// `scipy.linalg.cho_solve_banded`: solves `A x = b` from the banded
/// Cholesky factor `cb` of `A` (as [`cholesky_banded`] returns it: the
/// `lower` factor `L` with `A = L L^H`, or the upper `U` with `A = U^H U`, in
/// band storage), through the dense triangular factor (the triangular solves
/// of LAPACK's `?pbtrs`). Batches of `cb` and of `b` broadcast.
pub fn cho_solve_banded(cb: &Tensor, lower: bool, b: &Tensor, check_finite: CheckFinite) -> Result<Tensor> {
    let (rows, n) = matrix_dims("cho_solve_banded", cb)?;
    let b = atleast_1d(b)?;
    if n != rows_of(&b) {
        return Err(invalid("shapes of cb and b are not compatible."));
    }
    let kind = lapack_kind(&[dtype(cb)?, dtype(&b)?]);
    let (cb, b) = (cast(cb, kind)?, cast(&b, kind)?);
    check_finite_all(check_finite.enabled(), &[&cb, &b])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    let u = rows - 1;
    let factor = if lower { band_to_dense(&cb, u, 0)? } else { band_to_dense(&cb, 0, u)? };
    let (cols, vector) = as_columns(&b)?;
    let x = cols.f_cholesky_solve(&factor, !lower)?;
    Ok(if vector { x.f_squeeze_dim(-1)? } else { x })
}

/// `scipy.linalg.cholesky_banded`: the Cholesky factor of a Hermitian
/// positive definite banded matrix, in the same band storage. Storage
/// entries outside the matrix keep their input values, as `?pbtrf` leaves them.
pub fn cholesky_banded(ab: &Tensor, options: &CholeskyOptions) -> Result<Tensor> {
    let (lower, check) = (options.lower, options.check_finite.enabled());
    let (rows, n) = matrix_dims("cholesky_banded", ab)?;
    let kind = lapack_kind(&[dtype(ab)?]);
    let ab = cast(ab, kind)?;
    check_finite_all(check, &[&ab])?;
    if ab.numel() == 0 {
        return Ok(ab.f_zeros_like()?);
    }
    let u = rows - 1;
    let dense = hermitian_band_to_dense(&ab, lower)?;
    let (c, info) = dense.f_linalg_cholesky_ex(!lower, false)?;
    if let Some(order) = first_positive(&info)? {
        return Err(Error::LinAlg(format!("{order}-th leading minor not positive definite")));
    }
    let mut out_rows = Vec::with_capacity(rows as usize);
    for r in 0..rows {
        // storage row r holds diagonal k = u - r (upper) or k = -r (lower)
        let k = if lower { -r } else { u - r };
        let len = n - k.abs();
        let original = ab.f_select(-2, r)?;
        if len <= 0 {
            out_rows.push(original);
            continue;
        }
        let values = c.f_diagonal(k, -2, -1)?;
        let start = k.max(0);
        let mut parts = vec![];
        if start > 0 {
            parts.push(original.f_narrow(-1, 0, start)?);
        }
        parts.push(values);
        if start + len < n {
            parts.push(original.f_narrow(-1, start + len, n - start - len)?);
        }
        out_rows.push(Tensor::f_cat(&parts, -1)?);
    }
    Ok(Tensor::f_stack(&out_rows, -2)?)
}
