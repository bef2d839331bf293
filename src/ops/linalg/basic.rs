//! `scipy.linalg._basic`: linear systems (general, triangular), inverse,
//! determinant, least squares and pseudo-inverses; the structured solvers
//! (banded, Toeplitz, circulant) and `matrix_balance`, also in SciPy's
//! `_basic.py`, are in `basic/structured.rs` and re-exported here.

mod structured;

pub use structured::{
    matmul_toeplitz, matrix_balance, solve_banded, solve_circulant, solve_toeplitz, solveh_banded, BalanceOptions,
    Balanced, Singular, SolveCirculantOptions, SolvehBandedOptions,
};

use tch::{Device, Kind, Tensor};

use super::decomp::{eigh, Eigh, EighOptions};
use super::decomp_svd::{amax_or_zero, svd_reduced};
use super::dtypes::*;
use super::lapack::rcond_estimate;
use super::shapes::*;
use super::small;
use super::{invalid, not_implemented, CheckFinite, Trans};
use crate::ops::dtype;
use crate::ops::numpy::{self, broadcast_shapes, check_finite_all};
use crate::{Error, Result};

/// The matrix structures `scipy.linalg.solve(assume_a=...)` and `inv` know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Structure {
    /// `None`: SciPy detects the structure; the result is that of `General`.
    #[default]
    Auto,
    /// `'general'`/`'gen'`: LU with partial pivoting.
    General,
    /// `'diagonal'`.
    Diagonal,
    /// `'tridiagonal'`: only the three central diagonals are read.
    Tridiagonal,
    /// `'banded'`: SciPy takes the bandwidth from the data, so every entry is used.
    Banded,
    /// `'upper triangular'`.
    UpperTriangular,
    /// `'lower triangular'`.
    LowerTriangular,
    /// `'positive definite'`/`'pos'`: Cholesky, one triangle read (`lower`).
    PositiveDefinite,
    /// `'symmetric'`/`'sym'`: Bunch-Kaufman LDL^T, one triangle read.
    Symmetric,
    /// `'hermitian'`/`'her'`: Bunch-Kaufman LDL^H, one triangle read.
    Hermitian,
}

impl Structure {
    /// Parses SciPy's `assume_a` names.
    pub fn from_scipy(name: Option<&str>) -> Result<Structure> {
        Ok(match name {
            None => Structure::Auto,
            Some("general" | "gen") => Structure::General,
            Some("diagonal") => Structure::Diagonal,
            Some("tridiagonal") => Structure::Tridiagonal,
            Some("banded") => Structure::Banded,
            Some("upper triangular") => Structure::UpperTriangular,
            Some("lower triangular") => Structure::LowerTriangular,
            Some("positive definite" | "pos") => Structure::PositiveDefinite,
            Some("symmetric" | "sym") => Structure::Symmetric,
            Some("hermitian" | "her") => Structure::Hermitian,
            Some(other) => return Err(invalid(format!("{other} is not a recognized matrix structure"))),
        })
    }
}

/// A solution (or inverse) with the reciprocal condition number estimate of
/// each matrix of the batch (SciPy warns `LinAlgWarning` when it is below
/// the dtype's machine epsilon).
pub struct Solved {
    /// The solution.
    pub x: Tensor,
    /// Reciprocal 1-norm condition number estimates, batch-shaped.
    pub rcond: Tensor,
}

fn singular() -> Error {
    Error::LinAlg("A singular matrix detected.".into())
}

/// A factorization of a square matrix that can solve with it.
enum Factor {
    Lu { lu: Tensor, pivots: Tensor },
    Cholesky { l: Tensor },
    Ldl { ld: Tensor, pivots: Tensor, hermitian: bool },
    Triangular { t: Tensor, upper: bool },
    Diagonal { d: Tensor },
}

impl Factor {
    /// Factors `a` (already cast) as `structure` says; singular -> LinAlgError.
    fn new(a: &Tensor, structure: Structure, lower: bool) -> Result<(Factor, Tensor)> {
        let complex = dtype(a)?.is_complex();
        Ok(match structure {
            Structure::Auto | Structure::General | Structure::Banded | Structure::Tridiagonal => {
                let used =
                    if structure == Structure::Tridiagonal { a.f_triu(-1)?.f_tril(1)? } else { a.shallow_clone() };
                let (lu, pivots, info) = Tensor::f_linalg_lu_factor_ex(&used, true, false)?;
                if any(&info.f_gt(0)?)? {
                    return Err(singular());
                }
                (Factor::Lu { lu, pivots }, used)
            }
            Structure::Diagonal => {
                let d = a.f_diagonal(0, -2, -1)?;
                if any(&d.f_eq(0.0)?)? {
                    return Err(singular());
                }
                let used = d.f_diag_embed(0, -2, -1)?;
                (Factor::Diagonal { d }, used)
            }
            Structure::UpperTriangular | Structure::LowerTriangular => {
                let upper = structure == Structure::UpperTriangular;
                let t = if upper { a.f_triu(0)? } else { a.f_tril(0)? };
                if any(&t.f_diagonal(0, -2, -1)?.f_eq(0.0)?)? {
                    return Err(singular());
                }
                let used = t.shallow_clone();
                (Factor::Triangular { t, upper }, used)
            }
            Structure::PositiveDefinite => {
                let used = from_triangle(a, lower, true)?;
                let (l, info) = used.f_linalg_cholesky_ex(false, false)?;
                if any(&info.f_gt(0)?)? {
                    return Err(singular());
                }
                (Factor::Cholesky { l }, used)
            }
            Structure::Symmetric | Structure::Hermitian => {
                let hermitian = structure == Structure::Hermitian && complex;
                let used = from_triangle(a, lower, hermitian)?;
                let (ld, pivots, info) = used.f_linalg_ldl_factor_ex(hermitian, false)?;
                if any(&info.f_gt(0)?)? {
                    return Err(singular());
                }
                (Factor::Ldl { ld, pivots, hermitian }, used)
            }
        })
    }

    /// Solves `A x = b` (`adjoint = false`) or `A^H x = b` for `(..., n, k)` `b`.
    fn solve(&self, b: &Tensor, adjoint: bool) -> Result<Tensor> {
        Ok(match self {
            Factor::Lu { lu, pivots } => Tensor::f_linalg_lu_solve(lu, pivots, b, true, adjoint)?,
            Factor::Cholesky { l } => b.f_cholesky_solve(l, false)?,
            Factor::Ldl { ld, pivots, hermitian } => {
                if adjoint && !hermitian {
                    // A symmetric: A^H = conj(A), so A^H x = b <=> A conj(x) = conj(b).
                    Tensor::f_linalg_ldl_solve(ld, pivots, &b.f_conj()?.f_resolve_conj()?, false)?.f_conj()?
                } else {
                    Tensor::f_linalg_ldl_solve(ld, pivots, b, *hermitian)?
                }
            }
            Factor::Triangular { t, upper } => {
                if adjoint {
                    mh(t)?.f_linalg_solve_triangular(b, !upper, true, false)?
                } else {
                    t.f_linalg_solve_triangular(b, *upper, true, false)?
                }
            }
            Factor::Diagonal { d } => {
                let d = if adjoint { d.f_conj()? } else { d.shallow_clone() };
                b.f_div(&d.f_unsqueeze(-1)?)?
            }
        })
    }
}

/// The options of [`solve`], SciPy's keywords (defaults as SciPy's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOptions {
    /// `lower`: which triangle the one-triangle structures read.
    pub lower: bool,
    /// `assume_a`.
    pub assume_a: Structure,
    /// `transposed`: solve `a^T x = b`.
    pub transposed: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `scipy.linalg.solve`: solves `a @ x = b` (or `a.T @ x = b` with
/// `transposed`) for square `a` of shape `(..., N, N)` and `b` of shape
/// `(N,)` or `(..., N, K)`, batch dimensions broadcast.
///
/// `structure` picks the factorization SciPy's `assume_a` names (structures
/// that read one triangle read the `lower` one or the upper one). Exactly
/// singular input gives a LinAlgError; the returned `rcond` lets the caller
/// warn about ill-conditioning as SciPy does.
pub fn solve(a: &Tensor, b: &Tensor, options: &SolveOptions) -> Result<Solved> {
    let SolveOptions { lower, assume_a: structure, transposed, check_finite } = *options;
    let check = check_finite.enabled();
    let a = atleast_2d(a)?;
    let b = atleast_1d(b)?;
    let kind = cdsz_kind(&[dtype(&a)?, dtype(&b)?]);
    let (a, b) = (cast(&a, kind)?, cast(&b, kind)?);
    let order = a.size()[a.dim() - 1];
    let host = matches!(structure, Structure::Auto | Structure::General)
        && small::eligible(&a, order)
        && small::eligible(&b, order);
    // (the host copies, checked before broadcasting as SciPy checks)
    let copies = if host {
        let (av, bv) = (small::data(&a)?, small::data(&b)?);
        small::check_finite(check, &av)?;
        small::check_finite(check, &bv)?;
        Some((av, bv))
    } else {
        check_finite_all(check, &[&a, &b])?;
        None
    };
    let n = square("solve", &a)?;
    if is_complex_kind(kind) && transposed {
        return Err(not_implemented(
            "scipy.linalg.solve can currently not solve a^T x = b or a^H x = b for complex matrices.",
        ));
    }
    let b_is_1d = b.dim() == 1;
    let b = if b_is_1d { b.f_unsqueeze(-1)? } else { b };
    let a_is_scalar = a.numel() == 1;
    if b.size()[b.dim() - 2] != n && !a_is_scalar {
        return Err(invalid(format!("incompatible shapes: a1.shape={:?} and b1.shape={:?}", a.size(), b.size())));
    }
    let batch = broadcast_shapes(&[&batch_of(&a, 2), &batch_of(&b, 2)])?;
    let a = a.f_broadcast_to(concat(&batch, &a.size()[a.dim() - 2..]).as_slice())?;
    let b = b.f_broadcast_to(concat(&batch, &b.size()[b.dim() - 2..]).as_slice())?;
    let finish = |x: Tensor| -> Result<Tensor> { Ok(if b_is_1d { x.f_squeeze_dim(-1)? } else { x }) };
    let rkind = real_kind(kind);
    if a.numel() == 0 || b.numel() == 0 {
        let x = b.f_zeros_like()?;
        let rcond = Tensor::f_ones(batch.as_slice(), (rkind, a.device()))?;
        return Ok(Solved { x: finish(x)?, rcond });
    }
    if a_is_scalar {
        if any(&a.f_eq(0.0)?)? {
            return Err(singular());
        }
        let rcond = Tensor::f_ones(batch.as_slice(), (rkind, a.device()))?;
        return Ok(Solved { x: finish(b.f_div(&a)?)?, rcond });
    }
    if let Some((av, bv)) = copies {
        // broadcasting changed the data only where it added elements
        let av = if av.len() == a.numel() { av } else { small::data(&a)? };
        let bv = if bv.len() == b.numel() { bv } else { small::data(&b)? };
        let (x, rcond) = small::solve_general(av, bv, &a.size(), &b.size(), transposed)?;
        return Ok(Solved { x: finish(x)?, rcond });
    }
    let (factor, used) = Factor::new(&a, structure, lower)?;
    let x = factor.solve(&b, transposed)?;
    // The condition of the matrix actually solved with (A^T when transposed).
    let anorm = if transposed { norm1(&used.f_mt()?)? } else { norm1(&used)? };
    let rcond = rcond_estimate(&anorm, n, kind, a.device(), &|y, adjoint| factor.solve(y, adjoint != transposed))?;
    Ok(Solved { x: finish(x)?, rcond })
}

/// The options of [`solve_triangular`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveTriangularOptions {
    /// `trans`.
    pub trans: Trans,
    /// `lower`: read the lower triangle (else the upper one).
    pub lower: bool,
    /// `unit_diagonal`: the diagonal is taken as ones and not read.
    pub unit_diagonal: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `scipy.linalg.solve_triangular`: solves `a x = b` (`trans` 0), `a^T x = b`
/// (1) or `a^H x = b` (2) with the `lower` (or upper) triangle of square `a`
/// (`unit_diagonal`: the diagonal is taken as ones and not read). An exactly
/// zero diagonal entry gives a LinAlgError, as LAPACK's `?trtrs` reports it.
pub fn solve_triangular(a: &Tensor, b: &Tensor, options: &SolveTriangularOptions) -> Result<Tensor> {
    let SolveTriangularOptions { trans, lower, unit_diagonal, check_finite } = *options;
    let (trans, check) = (trans as i64, check_finite.enabled());
    let b = atleast_1d(b)?;
    let n = square("solve_triangular", a).map_err(|_| invalid("expected square matrix"))?;
    if n != rows_of(&b) {
        return Err(invalid(format!("shapes of a {:?} and b {:?} are incompatible", a.size(), b.size())));
    }
    let kind = lapack_kind(&[dtype(a)?, dtype(&b)?]);
    let (a, b) = (cast(a, kind)?, cast(&b, kind)?);
    check_finite_all(check, &[&a, &b])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    if !unit_diagonal {
        let zero = a.f_diagonal(0, -2, -1)?.f_eq(0.0)?;
        if any(&zero)? {
            let first = zero
                .f_reshape([-1i64, n].as_slice())?
                .f_any_dim(0, false)?
                .f_to_kind(Kind::Int64)?
                .f_argmax(0, false)?;
            return Err(Error::LinAlg(format!(
                "singular matrix: resolution failed at diagonal {}",
                first.f_int64_value(&[])?
            )));
        }
    }
    let t = if lower { a.f_tril(0)? } else { a.f_triu(0)? };
    let (cols, vector) = as_columns(&b)?;
    let x = match trans {
        0 => t.f_linalg_solve_triangular(&cols, !lower, true, unit_diagonal)?,
        1 => t.f_mt()?.f_linalg_solve_triangular(&cols, lower, true, unit_diagonal)?,
        2 => mh(&t)?.f_linalg_solve_triangular(&cols, lower, true, unit_diagonal)?,
        other => return Err(invalid(format!("trans must be 0, 1 or 2 (or 'N', 'T', 'C'), got {other}"))),
    };
    Ok(if vector { x.f_squeeze_dim(-1)? } else { x })
}

/// The options of [`inv`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InvOptions {
    /// `assume_a`.
    pub assume_a: Structure,
    /// `lower`: which triangle `'pos'`, `'sym'` and `'her'` read.
    pub lower: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `scipy.linalg.inv`: the inverse of each square matrix of `(..., N, N)`
/// `a`, with the structure SciPy's `assume_a` names. The returned `rcond` is
/// `1 / (||A||_1 ||A^-1||_1)`, computed from the inverse itself.
pub fn inv(a: &Tensor, options: &InvOptions) -> Result<Solved> {
    let InvOptions { assume_a: structure, lower, check_finite } = *options;
    let check = check_finite.enabled();
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid(format!("Expected at least ndim=2, got a1.ndim={}", s.len())));
    }
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(invalid(format!("Expected square matrix, got a1.shape={s:?}")));
    }
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    let n = s[s.len() - 1];
    if matches!(structure, Structure::Auto | Structure::General) && small::eligible(&a, n) {
        let av = small::data(&a)?;
        small::check_finite(check, &av)?;
        let (x, rcond) = small::inv_general(av, &s)?;
        return Ok(Solved { x, rcond });
    }
    check_finite_all(check, &[&a])?;
    let batch = batch_of(&a, 2);
    let ones = || Tensor::f_ones(batch.as_slice(), (real_kind(kind), a.device()));
    if a.numel() == 0 {
        return Ok(Solved { x: a.f_zeros_like()?, rcond: ones()? });
    }
    let (factor, used) = Factor::new(&a, structure, lower)?;
    let x = match &factor {
        Factor::Lu { .. } => {
            let (x, info) = Tensor::f_linalg_inv_ex(&used, false)?;
            if any(&info.f_gt(0)?)? {
                return Err(singular());
            }
            x
        }
        Factor::Diagonal { d } => d.f_reciprocal()?.f_diag_embed(0, -2, -1)?,
        Factor::Cholesky { l } => l.f_cholesky_inverse(false)?,
        _ => factor.solve(&eye(n, kind, a.device())?.f_expand(s.as_slice(), false)?, false)?,
    };
    let rcond = norm1(&used)?.f_mul(&norm1(&x)?)?.f_reciprocal()?;
    Ok(Solved { x, rcond })
}

/// The sign of the permutation of LAPACK pivots (1-based, `(..., k)`).
fn pivot_sign(pivots: &Tensor, kind: Kind) -> Result<Tensor> {
    let k = *pivots.size().last().unwrap_or(&0);
    let mut expected = numpy::arange(k, Kind::Int, pivots.device())?;
    let _ = expected.f_add_scalar_(1)?;
    let swaps = pivots.f_ne_tensor(&expected)?.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    // (-1)^swaps
    Ok(swaps.f_remainder(2)?.f_mul_scalar(-2)?.f_add_scalar(1)?.f_to_kind(kind)?)
}

/// `scipy.linalg.det`: the determinant of each square matrix of `(..., N, N)`
/// `a`, always float64 (complex128 for complex input) as SciPy returns it.
///
/// The LU factorization runs in the LAPACK type SciPy picks (float32 stays
/// float32), the product of the pivots in double precision, which avoids the
/// float32 overflow SciPy also avoids.
pub fn det(a: &Tensor, check_finite: CheckFinite) -> Result<Tensor> {
    let check = check_finite.enabled();
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid("The input array must be at least two-dimensional."));
    }
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(invalid(format!("Last 2 dimensions of the array must be square but received shape {s:?}.")));
    }
    let d = dtype(a)?;
    if small::eligible(a, s[s.len() - 1]) {
        let av = small::data(a)?;
        small::check_finite(check, &av)?;
        return small::det(av, &s);
    }
    check_finite_all(check, &[a])?;
    let kind = lapack_kind(&[d]);
    let out_kind = if is_complex_kind(kind) { Kind::ComplexDouble } else { Kind::Double };
    let batch = batch_of(a, 2);
    if a.numel() == 0 {
        return Ok(Tensor::f_ones(batch.as_slice(), (out_kind, a.device()))?);
    }
    let a = cast(a, kind)?;
    let (lu, pivots, _info) = Tensor::f_linalg_lu_factor_ex(&a, true, false)?;
    let diagonal = lu.f_diagonal(0, -2, -1)?.f_to_kind(out_kind)?;
    Ok(diagonal.f_prod_dim_int(-1, false, out_kind)?.f_mul(&pivot_sign(&pivots, out_kind)?)?)
}

/// The options of [`pinv`] (tolerances `None`: SciPy's defaults).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PinvOptions {
    /// `atol`.
    pub atol: Option<f64>,
    /// `rtol`.
    pub rtol: Option<f64>,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// The options of [`pinvh`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PinvhOptions {
    /// `atol`.
    pub atol: Option<f64>,
    /// `rtol`.
    pub rtol: Option<f64>,
    /// `lower` (SciPy's default `True`).
    pub lower: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

impl Default for PinvhOptions {
    fn default() -> PinvhOptions {
        PinvhOptions { atol: None, rtol: None, lower: true, check_finite: CheckFinite::Yes }
    }
}

/// A pseudo-inverse and the effective rank of each matrix (int64,
/// batch-shaped), SciPy's `return_rank=True` pair.
pub struct Pinv {
    /// The pseudo-inverse.
    pub b: Tensor,
    /// The effective ranks.
    pub rank: Tensor,
}

/// `scipy.linalg.pinv`: the Moore-Penrose pseudo-inverse of `(..., M, N)`
/// `a` from its SVD, singular values at or below `atol + rtol * max(s)`
/// dropped (`atol` default 0, `rtol` default `max(M, N) * eps`). Also
/// returns the rank of each matrix.
pub fn pinv(a: &Tensor, options: &PinvOptions) -> Result<Pinv> {
    let PinvOptions { atol, rtol, check_finite } = *options;
    let check = check_finite.enabled();
    let (m, n) = matrix_dims("pinv", a)?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_all(check, &[&a])?;
    let atol = atol.unwrap_or(0.0);
    let rtol = rtol.unwrap_or(m.max(n) as f64 * eps(kind));
    if atol < 0.0 || rtol < 0.0 {
        return Err(invalid("atol and rtol values must be positive."));
    }
    let batch = batch_of(&a, 2);
    if m.min(n) == 0 {
        let b = Tensor::f_zeros(concat(&batch, &[n, m]).as_slice(), (kind, a.device()))?;
        return Ok(Pinv { b, rank: Tensor::f_zeros(batch.as_slice(), (Kind::Int64, a.device()))? });
    }
    let (u, s, vh) = svd_reduced(&a)?;
    let val = amax_or_zero(&s)?.f_mul_scalar(rtol)?.f_add_scalar(atol)?.f_unsqueeze(-1)?;
    let kept = s.f_gt_tensor(&val)?;
    let rank = kept.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    let s_inv = s.f_reciprocal()?.f_where_scalarother(&kept, 0.0)?.f_to_kind(kind)?;
    let b = mh(&vh)?.f_mul(&s_inv.f_unsqueeze(-2)?)?.f_matmul(&mh(&u)?)?;
    Ok(Pinv { b, rank })
}

/// `scipy.linalg.pinvh`: the pseudo-inverse of Hermitian `(..., N, N)` `a`
/// (`lower` or upper triangle read) from its eigendecomposition, eigenvalues
/// with `|w| <= atol + rtol * max|w|` dropped. Also returns the ranks.
pub fn pinvh(a: &Tensor, options: &PinvhOptions) -> Result<Pinv> {
    let PinvhOptions { atol, rtol, lower, check_finite } = *options;
    let n = square("pinvh", a).map_err(|_| invalid("expected square \"a\" matrix"))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let atol = atol.unwrap_or(0.0);
    let rtol = rtol.unwrap_or(n as f64 * eps(kind));
    if atol < 0.0 || rtol < 0.0 {
        return Err(invalid("atol and rtol values must be positive."));
    }
    let Eigh { w: s, v: u } = eigh(a, None, &EighOptions { lower, check_finite, ..Default::default() })?;
    let u = u.ok_or_else(|| Error::Torch("eigh returned no eigenvectors".into()))?;
    let abs_s = s.f_abs()?;
    let val = amax_or_zero(&abs_s)?.f_mul_scalar(rtol)?.f_add_scalar(atol)?.f_unsqueeze(-1)?;
    let kept = abs_s.f_gt_tensor(&val)?;
    let rank = kept.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    let s_inv = s.f_reciprocal()?.f_where_scalarother(&kept, 0.0)?.f_to_kind(kind)?;
    let b = u.f_mul(&s_inv.f_unsqueeze(-2)?)?.f_matmul(&mh(&u)?)?;
    Ok(Pinv { b, rank })
}

/// The LAPACK drivers `scipy.linalg.lstsq` names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LstsqDriver {
    /// `'gelsd'` (SciPy's default, `None`).
    #[default]
    Gelsd,
    /// `'gelss'`.
    Gelss,
    /// `'gelsy'` (no singular values).
    Gelsy,
}

impl LstsqDriver {
    /// LAPACK's name.
    pub fn name(self) -> &'static str {
        match self {
            LstsqDriver::Gelsd => "gelsd",
            LstsqDriver::Gelss => "gelss",
            LstsqDriver::Gelsy => "gelsy",
        }
    }
}

impl std::str::FromStr for LstsqDriver {
    type Err = Error;

    /// SciPy's names, with its ValueError for others.
    fn from_str(name: &str) -> Result<LstsqDriver> {
        match name {
            "gelsd" => Ok(LstsqDriver::Gelsd),
            "gelss" => Ok(LstsqDriver::Gelss),
            "gelsy" => Ok(LstsqDriver::Gelsy),
            other => Err(invalid(format!("LAPACK driver \"{other}\" is not found"))),
        }
    }
}

/// The options of [`lstsq`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LstsqOptions {
    /// `cond` (`None`: the dtype's eps).
    pub cond: Option<f64>,
    /// `lapack_driver`.
    pub lapack_driver: LstsqDriver,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// The result of [`lstsq`], SciPy's 4-tuple.
pub struct Lstsq {
    /// The least-squares solution, `(N,)` or `(N, K)`.
    pub x: Tensor,
    /// Squared residual 2-norms per column when `M > N` and `a` has full
    /// rank (0-d for 1-D `b`), else empty.
    pub residues: Tensor,
    /// Effective rank of each matrix (int64).
    pub rank: Tensor,
    /// Singular values of `a` (`None` for the `gelsy` driver, as SciPy).
    pub s: Option<Tensor>,
}

/// `scipy.linalg.lstsq`: the minimum-norm least-squares solution of
/// `a @ x = b` for `(..., M, N)` `a`, singular values below `cond * max(s)`
/// treated as zero (`cond` default: the dtype's eps). On CPU libtorch runs
/// the LAPACK driver SciPy names (`gelsd`, `gelss`, `gelsy`); on CUDA,
/// where libtorch only has `gels`, an SVD composite computes what `gelsd` does.
pub fn lstsq(a: &Tensor, b: &Tensor, options: &LstsqOptions) -> Result<Lstsq> {
    let LstsqOptions { cond, lapack_driver, check_finite } = *options;
    let (driver, check) = (lapack_driver.name(), check_finite.enabled());
    let (m, n) = matrix_dims("lstsq", a).map_err(|_| invalid("Input array a should be 2D"))?;
    let b = atleast_1d(b)?;
    check_finite_all(check, &[a, &b])?;
    if m != rows_of(&b) {
        return Err(invalid(format!(
            "Shape mismatch: a and b should have the same number of rows ({m} != {}).",
            rows_of(&b)
        )));
    }
    let device = a.device();
    let (cols, vector) = as_columns(&b)?;
    let nrhs = cols.size()[cols.dim() - 1];
    let batch = broadcast_shapes(&[&batch_of(a, 2), &batch_of(&cols, 2)])?;
    let unvector = |x: Tensor| -> Result<Tensor> { Ok(if vector { x.f_squeeze_dim(-1)? } else { x }) };
    if m == 0 || n == 0 {
        let ad = dtype(a)?;
        let bd = dtype(&b)?;
        let common = result_type(&[ad, bd]);
        let xkind =
            if common.is_float() || common.is_complex() { common.kind().unwrap_or(Kind::Double) } else { Kind::Double };
        let x = unvector(Tensor::f_zeros(concat(&batch, &[n, nrhs]).as_slice(), (xkind, device))?)?;
        let residues = if n == 0 {
            let rkind = if bd.is_float() || bd.is_complex() {
                real_kind(bd.kind().unwrap_or(Kind::Double))
            } else {
                Kind::Double
            };
            let bf = cast(&cols, if bd.is_complex() { bd.kind().unwrap_or(Kind::ComplexDouble) } else { rkind })?;
            unvector(
                bf.f_abs()?
                    .f_square()?
                    .f_sum_dim_intlist([-2i64].as_slice(), false, rkind)?
                    .f_broadcast_to(concat(&batch, &[nrhs]).as_slice())?
                    .f_unsqueeze(-2)?,
            )?
            .f_reshape(if vector { batch.clone() } else { concat(&batch, &[nrhs]) }.as_slice())?
        } else {
            Tensor::f_zeros([0i64].as_slice(), (Kind::Double, device))?
        };
        return Ok(Lstsq {
            x,
            residues,
            rank: Tensor::f_zeros(batch.as_slice(), (Kind::Int64, device))?,
            s: Some(Tensor::f_zeros([0i64].as_slice(), (Kind::Double, device))?),
        });
    }
    let kind = lapack_kind(&[dtype(a)?, dtype(&b)?]);
    let (a, cols) = (cast(a, kind)?, cast(&cols, kind)?);
    // (libtorch's lstsq does not broadcast: a batch of `a` with one `b`, or
    // the reverse, is expanded to the common batch, as SciPy applies it)
    let (a, cols) = (
        a.f_expand(concat(&batch, &[m, n]).as_slice(), false)?,
        cols.f_expand(concat(&batch, &[m, nrhs]).as_slice(), false)?,
    );
    let rcond = cond.unwrap_or_else(|| eps(kind));
    let rkind = real_kind(kind);
    let (x, lapack_residuals, rank, s) = if device == Device::Cpu {
        let (x, residuals, rank, s) = a.f_linalg_lstsq(&cols, rcond, driver)?;
        (x, Some(residuals), rank, if driver == "gelsy" { None } else { Some(s) })
    } else {
        let (u, s, vh) = svd_reduced(&a)?;
        let tol = amax_or_zero(&s)?.f_mul_scalar(rcond)?.f_unsqueeze(-1)?;
        let kept = s.f_gt_tensor(&tol)?;
        let rank = kept.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
        let s_inv = s.f_reciprocal()?.f_where_scalarother(&kept, 0.0)?.f_to_kind(kind)?;
        let x = mh(&vh)?.f_matmul(&mh(&u)?.f_matmul(&cols)?.f_mul(&s_inv.f_unsqueeze(-1)?)?)?;
        (x, None, rank, if driver == "gelsy" { None } else { Some(s) })
    };
    let full_rank = rank.numel() > 0 && !any(&rank.f_ne(n)?)?;
    let residues = if m > n && full_rank && driver != "gelsy" {
        // LAPACK's residuals (from the transformed right-hand side) where
        // libtorch returns them, else ||b - a x||^2 per column.
        let r = match lapack_residuals {
            Some(r) if r.numel() > 0 => r.f_to_kind(rkind)?,
            _ => cols.f_sub(&a.f_matmul(&x)?)?.f_abs()?.f_square()?.f_sum_dim_intlist(
                [-2i64].as_slice(),
                false,
                rkind,
            )?,
        };
        if vector {
            r.f_squeeze_dim(-1)?
        } else {
            r
        }
    } else {
        Tensor::f_zeros([0i64].as_slice(), (kind, device))?
    };
    Ok(Lstsq { x: unvector(x)?, residues, rank, s })
}
