//! `scipy.linalg` counterparts: solvers, decompositions, matrix functions and
//! special matrices, on `tch::Tensor`s.
//!
//! Conventions, as SciPy 1.17 has them:
//!
//! - **dtypes.** Decompositions compute in the LAPACK type SciPy picks
//!   ([`lapack_kind`]: bool, 8/16-bit integers, float16 and float32 give
//!   float32; 32/64-bit integers and float64 give float64; complex stays
//!   complex). `solve`, `expm` and the trigonometric matrix functions follow
//!   NumPy's `result_type` instead ([`cdsz_kind`]: every integer gives
//!   float64). Special-matrix constructors keep their input's dtype.
//! - **batches.** Leading dimensions are a batch, as SciPy's
//!   `_apply_over_batch` treats them (libtorch's linear algebra is batched
//!   natively). Right-hand sides `b` are 1-D vectors or `(..., N, K)` stacks.
//! - **singular input.** Where SciPy raises `numpy.linalg.LinAlgError` these
//!   routines return [`Error::LinAlg`]; the Python layer raises
//!   `torchbridge.LinAlgError` (a `numpy.linalg.LinAlgError`) for it.
//! - **non-finite input.** With `check_finite`, NaN or infinity raises
//!   [`Error::InvalidArgument`] ("array must not contain infs or NaNs").

use tch::{Device, Kind, Tensor};

use crate::{dlpack, DType, Error, Result};

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// An error SciPy raises as `numpy.linalg.LinAlgError` (singular matrix, not
/// positive definite, no convergence).
pub fn linalg_error(message: impl std::fmt::Display) -> Error {
    Error::LinAlg(message.to_string())
}

/// Whether `err` came from [`linalg_error`].
pub fn is_linalg_error(err: &Error) -> bool {
    matches!(err, Error::LinAlg(_))
}

fn invalid(message: impl Into<String>) -> Error {
    Error::InvalidArgument(message.into())
}

fn not_implemented(message: impl Into<String>) -> Error {
    Error::NotImplemented(message.into())
}

// ---------------------------------------------------------------------------
// dtypes
// ---------------------------------------------------------------------------

fn dtype(x: &Tensor) -> Result<DType> {
    dlpack::dtype_of(x)
}

/// Dtypes whose values need float64 (complex128) to be held exactly.
fn needs_double(d: DType) -> bool {
    matches!(d, DType::Float64 | DType::Complex128 | DType::Int32 | DType::UInt32 | DType::Int64 | DType::UInt64)
}

fn kind_of(complex: bool, double: bool) -> Kind {
    match (complex, double) {
        (false, false) => Kind::Float,
        (false, true) => Kind::Double,
        (true, false) => Kind::ComplexFloat,
        (true, true) => Kind::ComplexDouble,
    }
}

/// The LAPACK type `scipy.linalg` computes in for arrays of these dtypes
/// (`find_best_lapack_type`): float32 unless a value needs float64, complex
/// when any input is complex.
pub fn lapack_kind(dtypes: &[DType]) -> Kind {
    kind_of(dtypes.iter().any(|d| d.is_complex()), dtypes.iter().any(|&d| needs_double(d)))
}

/// The type `scipy.linalg.solve` and `expm` compute in (`_ensure_dtype_cdsz`):
/// NumPy's result type, where all-integer (or bool) input gives float64.
pub fn cdsz_kind(dtypes: &[DType]) -> Kind {
    let inexact = dtypes.iter().any(|d| d.is_float() || d.is_complex());
    if !inexact {
        return Kind::Double;
    }
    lapack_kind(dtypes)
}

fn is_complex_kind(kind: Kind) -> bool {
    matches!(kind, Kind::ComplexFloat | Kind::ComplexDouble)
}

fn real_kind(kind: Kind) -> Kind {
    match kind {
        Kind::ComplexFloat | Kind::Float => Kind::Float,
        _ => Kind::Double,
    }
}

fn complex_kind(kind: Kind) -> Kind {
    match kind {
        Kind::ComplexFloat | Kind::Float => Kind::ComplexFloat,
        _ => Kind::ComplexDouble,
    }
}

/// Machine epsilon of a floating kind (of its real part).
pub fn eps(kind: Kind) -> f64 {
    match real_kind(kind) {
        Kind::Float => f64::from(f32::EPSILON),
        _ => f64::EPSILON,
    }
}

/// `x` as `kind` (shares memory when it already is).
fn cast(x: &Tensor, kind: Kind) -> Result<Tensor> {
    if dtype(x)?.kind() == Some(kind) {
        Ok(x.shallow_clone())
    } else {
        Ok(x.f_to_kind(kind)?)
    }
}

/// NumPy's `result_type` for the dtypes torchbridge exchanges (no value-based
/// casting: NumPy 2 semantics).
pub fn numpy_result_type(dtypes: &[DType]) -> DType {
    use DType::*;
    fn float_bits_for_int(d: DType) -> u32 {
        match d {
            Bool => 0,
            Int8 | UInt8 => 16,
            Int16 | UInt16 => 32,
            _ => 64,
        }
    }
    let complex = dtypes.iter().any(|d| d.is_complex());
    let inexact = complex || dtypes.iter().any(|d| d.is_float());
    if inexact {
        let bits = dtypes
            .iter()
            .map(|&d| match d {
                Float16 => 16,
                BFloat16 | Float32 | Complex64 => 32,
                Float64 | Complex128 => 64,
                other => float_bits_for_int(other),
            })
            .max()
            .unwrap_or(64);
        return match (complex, bits) {
            (true, b) if b <= 32 => Complex64,
            (true, _) => Complex128,
            (false, 16) if dtypes.iter().all(|&d| d == BFloat16 || !d.is_float()) && dtypes.contains(&BFloat16) => {
                BFloat16
            }
            (false, 16) => Float16,
            (false, 32) => Float32,
            (false, _) => Float64,
        };
    }
    // integers and bool
    let (mut signed_bits, mut unsigned_bits) = (0u32, 0u32);
    for &d in dtypes {
        match d {
            Int8 => signed_bits = signed_bits.max(8),
            Int16 => signed_bits = signed_bits.max(16),
            Int32 => signed_bits = signed_bits.max(32),
            Int64 => signed_bits = signed_bits.max(64),
            UInt8 => unsigned_bits = unsigned_bits.max(8),
            UInt16 => unsigned_bits = unsigned_bits.max(16),
            UInt32 => unsigned_bits = unsigned_bits.max(32),
            UInt64 => unsigned_bits = unsigned_bits.max(64),
            _ => {}
        }
    }
    let signed = |bits: u32| match bits {
        8 => Int8,
        16 => Int16,
        32 => Int32,
        _ => Int64,
    };
    let unsigned = |bits: u32| match bits {
        8 => UInt8,
        16 => UInt16,
        32 => UInt32,
        _ => UInt64,
    };
    match (signed_bits, unsigned_bits) {
        (0, 0) => Bool,
        (s, 0) => signed(s),
        (0, u) => unsigned(u),
        (s, u) if s > u => signed(s),
        (_, 64) => Float64,
        (_, u) => signed(u * 2),
    }
}

/// `x` as `dtype`; dtypes without a `tch::Kind` (uint16/32/64) only when `x`
/// already has that dtype.
fn cast_dtype(x: &Tensor, target: DType) -> Result<Tensor> {
    if dtype(x)? == target {
        return Ok(x.shallow_clone());
    }
    match target.kind() {
        Some(kind) => Ok(x.f_to_kind(kind)?),
        None => Err(not_implemented(format!(
            "mixing {} with {target} input is not implemented (libtorch's Rust bindings cannot name {target})",
            dtype(x)?
        ))),
    }
}

// ---------------------------------------------------------------------------
// Shapes and small helpers
// ---------------------------------------------------------------------------

/// Raises SciPy's ValueError when `x` holds NaN or infinity.
pub fn check_finite(x: &Tensor) -> Result<()> {
    let d = dtype(x)?;
    if !(d.is_float() || d.is_complex()) || x.numel() == 0 {
        return Ok(());
    }
    if x.f_isfinite()?.f_all()?.f_int64_value(&[])? == 0 {
        return Err(invalid("array must not contain infs or NaNs"));
    }
    Ok(())
}

fn check_finite_if(check: bool, tensors: &[&Tensor]) -> Result<()> {
    if check {
        for t in tensors {
            check_finite(t)?;
        }
    }
    Ok(())
}

/// NumPy's `broadcast_shapes` for two batch shapes.
pub fn broadcast_shapes(a: &[i64], b: &[i64]) -> Result<Vec<i64>> {
    let n = a.len().max(b.len());
    let mut out = vec![0; n];
    for i in 0..n {
        let x = if i + a.len() >= n { a[i + a.len() - n] } else { 1 };
        let y = if i + b.len() >= n { b[i + b.len() - n] } else { 1 };
        out[i] = match (x, y) {
            (x, y) if x == y => x,
            (1, y) => y,
            (x, 1) => x,
            _ => {
                return Err(invalid(format!(
                    "shape mismatch: objects cannot be broadcast to a single shape: {a:?} and {b:?}"
                )))
            }
        };
    }
    Ok(out)
}

fn concat(a: &[i64], b: &[i64]) -> Vec<i64> {
    a.iter().chain(b).copied().collect()
}

fn batch_of(x: &Tensor, core: usize) -> Vec<i64> {
    let s = x.size();
    s[..s.len().saturating_sub(core)].to_vec()
}

/// The square size `n` of `(..., n, n)` input, or SciPy's ValueError.
fn square(routine: &str, a: &Tensor) -> Result<i64> {
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid(format!("{routine}: expected at least 2-D input, got shape {s:?}")));
    }
    let (m, n) = (s[s.len() - 2], s[s.len() - 1]);
    if m != n {
        return Err(invalid(format!("{routine}: expected square matrix, got shape {s:?}")));
    }
    Ok(n)
}

fn matrix_dims(routine: &str, a: &Tensor) -> Result<(i64, i64)> {
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid(format!("{routine}: expected a 2-D array (or a stack of them), got shape {s:?}")));
    }
    Ok((s[s.len() - 2], s[s.len() - 1]))
}

/// Conjugate transpose of the last two dimensions.
fn mh(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_mt()?.f_conj()?)
}

fn eye(n: i64, kind: Kind, device: Device) -> Result<Tensor> {
    Ok(Tensor::f_eye(n, (kind, device))?)
}

fn any(x: &Tensor) -> Result<bool> {
    if x.numel() == 0 {
        return Ok(false);
    }
    Ok(x.f_any()?.f_int64_value(&[])? != 0)
}

/// The full symmetric (Hermitian when `hermitian` and complex) matrix whose
/// lower (`lower`) or upper triangle is that of `a`; the other triangle of `a`
/// is never read, as LAPACK's `?sy*`/`?he*`/`?po*` routines do not read it.
fn from_triangle(a: &Tensor, lower: bool, hermitian: bool) -> Result<Tensor> {
    let strict = if lower { a.f_tril(-1)? } else { a.f_triu(1)? };
    let complex = dtype(a)?.is_complex();
    let mirrored = if hermitian && complex { mh(&strict)? } else { strict.f_mt()? };
    let mut diagonal = a.f_diagonal(0, -2, -1)?;
    if hermitian && complex {
        // LAPACK ignores the imaginary part of a Hermitian matrix's diagonal.
        let kind = dtype(a)?.kind().unwrap_or(Kind::ComplexDouble);
        diagonal = diagonal.f_real()?.f_to_kind(kind)?;
    }
    Ok(strict.f_add(&mirrored)?.f_add(&diagonal.f_diag_embed(0, -2, -1)?)?)
}

/// NumPy's `atleast_2d`.
fn atleast_2d(x: &Tensor) -> Result<Tensor> {
    Ok(match x.dim() {
        0 => x.f_reshape([1, 1])?,
        1 => x.f_unsqueeze(0)?,
        _ => x.shallow_clone(),
    })
}

fn atleast_1d(x: &Tensor) -> Result<Tensor> {
    Ok(if x.dim() == 0 { x.f_reshape([1])? } else { x.shallow_clone() })
}

/// The 1-norm (largest absolute column sum) of each matrix in a batch.
fn norm1(a: &Tensor) -> Result<Tensor> {
    let sums = a.f_abs()?.f_sum_dim_intlist([-2i64].as_slice(), false, None::<Kind>)?;
    Ok(sums.f_amax([-1i64].as_slice(), false)?)
}

// ---------------------------------------------------------------------------
// Reciprocal condition number estimate (Hager/Higham, as LAPACK's ?lacn2)
// ---------------------------------------------------------------------------

/// Estimates `1 / (||A||_1 ||A^-1||_1)` for each matrix of a batch, given
/// `anorm = ||A||_1` and a solver for `A x = y` (`adjoint = false`) and
/// `A^H x = y` (`adjoint = true`), as LAPACK's `?gecon` does: a few power-like
/// iterations of Hager's method plus Higham's alternating test vector. The
/// estimate of `||A^-1||_1` is a lower bound, usually exact.
fn rcond_estimate(
    anorm: &Tensor,
    n: i64,
    kind: Kind,
    device: Device,
    solve: &dyn Fn(&Tensor, bool) -> Result<Tensor>,
) -> Result<Tensor> {
    let batch = anorm.size();
    let shape = concat(&batch, &[n, 1]);
    let rkind = real_kind(kind);
    let mut x = Tensor::f_full(shape.as_slice(), 1.0 / n as f64, (kind, device))?;
    let mut est = Tensor::f_zeros(batch.as_slice(), (rkind, device))?;
    let abs_sum =
        |y: &Tensor| -> Result<Tensor> { Ok(y.f_abs()?.f_sum_dim_intlist([-2i64, -1].as_slice(), false, rkind)?) };
    for _ in 0..3 {
        let y = solve(&x, false)?;
        est = est.f_maximum(&abs_sum(&y)?)?;
        let sign = if is_complex_kind(kind) {
            let s = y.f_sgn()?;
            s.f_where_scalarother(&y.f_ne(0.0)?, 1.0)?
        } else {
            Tensor::f_where_scalarself(&y.f_ge(0.0)?, 1.0, &Tensor::f_full([1i64].as_slice(), -1.0, (kind, device))?)?
        };
        let z = solve(&sign, true)?;
        let j = z.f_abs()?.f_argmax(-2, true)?;
        x = Tensor::f_zeros(shape.as_slice(), (kind, device))?.f_scatter_value(-2, &j, 1.0)?;
    }
    if n > 1 {
        // Higham's test vector x_i = (-1)^i (1 + i / (n - 1)).
        let i = Tensor::f_arange(n, (rkind, device))?;
        let alt_sign =
            Tensor::f_ones([n].as_slice(), (rkind, device))?.f_sub(&i.f_remainder(2.0)?.f_mul_scalar(2.0)?)?;
        let alt = alt_sign.f_mul(&i.f_div_scalar((n - 1) as f64)?.f_add_scalar(1.0)?)?;
        let alt = alt.f_to_kind(kind)?.f_reshape([n, 1])?.f_expand(shape.as_slice(), false)?;
        let y = solve(&alt, false)?;
        est = est.f_maximum(&abs_sum(&y)?.f_mul_scalar(2.0 / (3.0 * n as f64))?)?;
    }
    let product = anorm.f_mul(&est)?;
    // rcond = 0 for a zero matrix, as LAPACK returns.
    Ok(product.f_reciprocal()?.f_where_scalarother(&anorm.f_ne(0.0)?, 0.0)?)
}

// ---------------------------------------------------------------------------
// solve, inv, det
// ---------------------------------------------------------------------------

/// The matrix structures `scipy.linalg.solve(assume_a=...)` and `inv` know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    /// `None`: SciPy detects the structure; the result is that of `General`.
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
    linalg_error("A singular matrix detected.")
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

/// `scipy.linalg.solve`: solves `a @ x = b` (or `a.T @ x = b` with
/// `transposed`) for square `a` of shape `(..., N, N)` and `b` of shape
/// `(N,)` or `(..., N, K)`, batch dimensions broadcast.
///
/// `structure` picks the factorization SciPy's `assume_a` names (structures
/// that read one triangle read the `lower` one or the upper one). Exactly
/// singular input gives a LinAlgError; the returned `rcond` lets the caller
/// warn about ill-conditioning as SciPy does.
pub fn solve(
    a: &Tensor,
    b: &Tensor,
    lower: bool,
    structure: Structure,
    transposed: bool,
    check: bool,
) -> Result<Solved> {
    let a = atleast_2d(a)?;
    let b = atleast_1d(b)?;
    let kind = cdsz_kind(&[dtype(&a)?, dtype(&b)?]);
    let (a, b) = (cast(&a, kind)?, cast(&b, kind)?);
    check_finite_if(check, &[&a, &b])?;
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
    let batch = broadcast_shapes(&batch_of(&a, 2), &batch_of(&b, 2))?;
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
    let (factor, used) = Factor::new(&a, structure, lower)?;
    let x = factor.solve(&b, transposed)?;
    // The condition of the matrix actually solved with (A^T when transposed).
    let anorm = if transposed { norm1(&used.f_mt()?)? } else { norm1(&used)? };
    let rcond = rcond_estimate(&anorm, n, kind, a.device(), &|y, adjoint| factor.solve(y, adjoint != transposed))?;
    Ok(Solved { x: finish(x)?, rcond })
}

/// `scipy.linalg.solve_triangular`: solves `a x = b` (`trans` 0), `a^T x = b`
/// (1) or `a^H x = b` (2) with the `lower` (or upper) triangle of square `a`
/// (`unit_diagonal`: the diagonal is taken as ones and not read). An exactly
/// zero diagonal entry gives a LinAlgError, as LAPACK's `?trtrs` reports it.
pub fn solve_triangular(
    a: &Tensor,
    b: &Tensor,
    trans: i64,
    lower: bool,
    unit_diagonal: bool,
    check: bool,
) -> Result<Tensor> {
    let b = atleast_1d(b)?;
    let n = square("solve_triangular", a).map_err(|_| invalid("expected square matrix"))?;
    if n != rows_of(&b) {
        return Err(invalid(format!("shapes of a {:?} and b {:?} are incompatible", a.size(), b.size())));
    }
    let kind = lapack_kind(&[dtype(a)?, dtype(&b)?]);
    let (a, b) = (cast(a, kind)?, cast(&b, kind)?);
    check_finite_if(check, &[&a, &b])?;
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
            return Err(linalg_error(format!(
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

/// `scipy.linalg.inv`: the inverse of each square matrix of `(..., N, N)`
/// `a`, with the structure SciPy's `assume_a` names. The returned `rcond` is
/// `1 / (||A||_1 ||A^-1||_1)`, computed from the inverse itself.
pub fn inv(a: &Tensor, structure: Structure, lower: bool, check: bool) -> Result<Solved> {
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid(format!("Expected at least ndim=2, got a1.ndim={}", s.len())));
    }
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(invalid(format!("Expected square matrix, got a1.shape={s:?}")));
    }
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_if(check, &[&a])?;
    let batch = batch_of(&a, 2);
    let n = s[s.len() - 1];
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
    let expected = Tensor::f_arange_start(1, k + 1, (Kind::Int, pivots.device()))?;
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
pub fn det(a: &Tensor, check: bool) -> Result<Tensor> {
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid("The input array must be at least two-dimensional."));
    }
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(invalid(format!("Last 2 dimensions of the array must be square but received shape {s:?}.")));
    }
    let d = dtype(a)?;
    check_finite_if(check, &[a])?;
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

// ---------------------------------------------------------------------------
// Eigenvalue problems
// ---------------------------------------------------------------------------

/// Which eigenvalues `eigh` returns (SciPy's `subset_by_index`/`subset_by_value`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Subset {
    /// All of them.
    All,
    /// Ascending indices `lo..=hi`.
    Index(i64, i64),
    /// Eigenvalues in the half-open interval `(lo, hi]`, as LAPACK's `?syevr`.
    Value(f64, f64),
}

/// The first positive entry of a LAPACK-style `info` tensor, if any.
fn first_positive(info: &Tensor) -> Result<Option<i64>> {
    if !any(&info.f_gt(0)?)? {
        return Ok(None);
    }
    // (int64 first: tch panics on a scalar that overflows the tensor's dtype)
    let info = info.f_to_kind(Kind::Int64)?;
    let positive = info.f_where_scalarother(&info.f_gt(0)?, i64::MAX)?;
    Ok(Some(positive.f_min()?.f_int64_value(&[])?))
}

/// The one count shared by every matrix of a batch (SciPy stacks per-matrix
/// results, which fails when their sizes differ).
fn common_count(counts: &Tensor, what: &str) -> Result<i64> {
    if counts.numel() == 0 {
        return Ok(0);
    }
    let hi = counts.f_max()?.f_int64_value(&[])?;
    let lo = counts.f_min()?.f_int64_value(&[])?;
    if hi != lo {
        return Err(invalid(format!(
            "all input arrays must have the same shape: the {what} differs between the matrices of the batch ({lo} to {hi})"
        )));
    }
    Ok(hi)
}

/// `scipy.linalg.eigh`: eigenvalues (ascending) and eigenvectors of the
/// Hermitian matrices `a` (`(..., N, N)`, only the `lower` or upper triangle
/// read), or of the generalized problem with Hermitian positive definite `b`
/// (`itype` 1: `a v = w b v`, 2: `a b v = w v`, 3: `b a v = w v`), reduced
/// with `b`'s Cholesky factor as LAPACK's `?sygvd` does.
pub fn eigh(
    a: &Tensor,
    b: Option<&Tensor>,
    lower: bool,
    eigvals_only: bool,
    itype: i64,
    subset: Subset,
    check: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    let n = square("eigh", a).map_err(|_| invalid("expected square \"a\" matrix"))?;
    let mut dtypes = vec![dtype(a)?];
    if let Some(b) = b {
        dtypes.push(dtype(b)?);
    }
    let kind = lapack_kind(&dtypes);
    let a = cast(a, kind)?;
    check_finite_if(check, &[&a])?;
    let b = match b {
        Some(b) => {
            let b = cast(b, kind)?;
            check_finite_if(check, &[&b])?;
            square("eigh", &b).map_err(|_| invalid("expected square \"b\" matrix"))?;
            if b.size()[b.dim() - 2..] != a.size()[a.dim() - 2..] {
                return Err(invalid(format!("wrong b dimensions {:?}, should be {:?}", b.size(), a.size())));
            }
            Some(b)
        }
        None => None,
    };
    if let Subset::Index(lo, hi) = subset {
        if !(0 <= lo && lo <= hi && hi < n) {
            return Err(invalid(format!(
                "Requested eigenvalue indices are not valid. Valid range is [0, {}] and start <= end, but start={lo}, end={hi} is given",
                n - 1
            )));
        }
    }
    let device = a.device();
    let batch = match &b {
        Some(b) => broadcast_shapes(&batch_of(&a, 2), &batch_of(b, 2))?,
        None => batch_of(&a, 2),
    };
    if n == 0 {
        let w = Tensor::f_zeros(concat(&batch, &[0]).as_slice(), (real_kind(kind), device))?;
        let v = Tensor::f_zeros(concat(&batch, &[0, 0]).as_slice(), (kind, device))?;
        return Ok((w, if eigvals_only { None } else { Some(v) }));
    }
    let uplo = if lower { "L" } else { "U" };
    let (w, v) = match &b {
        None if eigvals_only && subset == Subset::All => (a.f_linalg_eigvalsh(uplo)?, None),
        None => {
            let (w, v) = a.f_linalg_eigh(uplo)?;
            (w, Some(v))
        }
        Some(b) => {
            let a_full = from_triangle(&a, lower, true)?;
            let b_full = from_triangle(b, lower, true)?;
            let (l, info) = b_full.f_linalg_cholesky_ex(false, false)?;
            if let Some(order) = first_positive(&info)? {
                return Err(linalg_error(format!(
                    "The leading minor of order {order} of B is not positive definite. The factorization of B \
                     could not be completed and no eigenvalues or eigenvectors were computed."
                )));
            }
            let c = match itype {
                1 => {
                    let y = l.f_linalg_solve_triangular(&a_full, false, true, false)?;
                    l.f_linalg_solve_triangular(&mh(&y)?, false, true, false)?
                }
                2 | 3 => mh(&l)?.f_matmul(&a_full)?.f_matmul(&l)?,
                other => return Err(invalid(format!("\"type\" keyword only accepts 1, 2, and 3, got {other}"))),
            };
            let (w, y) = c.f_linalg_eigh("L")?;
            let v =
                if itype == 3 { l.f_matmul(&y)? } else { mh(&l)?.f_linalg_solve_triangular(&y, true, true, false)? };
            (w, Some(v))
        }
    };
    let (w, v) = match subset {
        Subset::All => (w, v),
        Subset::Index(lo, hi) => {
            let k = hi - lo + 1;
            let v = match v {
                Some(v) => Some(v.f_narrow(-1, lo, k)?),
                None => None,
            };
            (w.f_narrow(-1, lo, k)?, v)
        }
        Subset::Value(lo, hi) => {
            let selected = w.f_gt(lo)?.f_logical_and(&w.f_le(hi)?)?;
            let k = common_count(
                &selected.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?,
                "number of eigenvalues in the interval",
            )?;
            let start = w.f_le(lo)?.f_sum_dim_intlist([-1i64].as_slice(), true, Kind::Int64)?;
            let index = start.f_add(&Tensor::f_arange(k, (Kind::Int64, device))?)?;
            let v = match v {
                Some(v) => {
                    let index_v =
                        index.f_unsqueeze(-2)?.f_expand(concat(&batch_of(&v, 2), &[n, k]).as_slice(), false)?;
                    Some(v.f_gather(-1, &index_v, false)?)
                }
                None => None,
            };
            (w.f_gather(-1, &index, false)?, v)
        }
    };
    Ok((w, if eigvals_only { None } else { v }))
}

/// The result of [`eig`].
pub struct Eig {
    /// Eigenvalues (complex), or `(..., 2, N)` homogeneous coordinates.
    pub w: Tensor,
    /// Left eigenvectors (columns), when asked for.
    pub vl: Option<Tensor>,
    /// Right eigenvectors (columns), when asked for.
    pub vr: Option<Tensor>,
}

/// Scales each column to unit 2-norm with its largest component real and
/// non-negative (LAPACK's `?geev` normalization, up to that sign).
fn normalize_columns(v: &Tensor) -> Result<Tensor> {
    let norms = v.f_abs()?.f_square()?.f_sum_dim_intlist([-2i64].as_slice(), true, None::<Kind>)?.f_sqrt()?;
    let v = v.f_div(&norms.f_to_kind(dtype(v)?.kind().unwrap_or(Kind::ComplexDouble))?)?;
    if !dtype(&v)?.is_complex() {
        return Ok(v);
    }
    let largest = v.f_abs()?.f_argmax(-2, true)?;
    let pivot = v.f_gather(-2, &largest, false)?;
    let phase = pivot.f_sgn()?.f_conj()?;
    let phase = phase.f_where_scalarother(&pivot.f_ne(0.0)?, 1.0)?;
    Ok(v.f_mul(&phase)?)
}

/// `scipy.linalg.eig` (standard problem): eigenvalues and left/right
/// eigenvectors of general square matrices `(..., N, N)`.
///
/// As SciPy returns them, eigenvalues are complex; for real input whose
/// eigenvalues are all real, the eigenvectors are real. Left eigenvectors
/// are the conjugate-transposed rows of the inverse of the right ones,
/// normalized as LAPACK normalizes them (the input must not be defective).
pub fn eig(a: &Tensor, left: bool, right: bool, homogeneous: bool, check: bool) -> Result<Eig> {
    let n = square("eig", a).map_err(|_| invalid("expected square matrix"))?;
    let input_complex = dtype(a)?.is_complex();
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_if(check, &[&a])?;
    let batch = batch_of(&a, 2);
    let device = a.device();
    let homogenize = |w: Tensor| -> Result<Tensor> {
        if homogeneous {
            Ok(Tensor::f_stack(&[w.shallow_clone(), w.f_ones_like()?], -2)?)
        } else {
            Ok(w)
        }
    };
    if n == 0 {
        let w = Tensor::f_zeros(concat(&batch, &[0]).as_slice(), (complex_kind(kind), device))?;
        let v = || Tensor::f_zeros(concat(&batch, &[0, 0]).as_slice(), (kind, device));
        return Ok(Eig {
            w: homogenize(w)?,
            vl: if left { Some(v()?) } else { None },
            vr: if right { Some(v()?) } else { None },
        });
    }
    if !left && !right {
        return Ok(Eig { w: homogenize(a.f_linalg_eigvals()?)?, vl: None, vr: None });
    }
    let (w, v) = a.f_linalg_eig()?;
    let all_real = !input_complex && !any(&w.f_imag()?.f_ne(0.0)?)?;
    let vl = if left {
        let (inverse, info) = Tensor::f_linalg_inv_ex(&v, false)?;
        if any(&info.f_gt(0)?)? {
            return Err(not_implemented(
                "eig(left=True) of a defective matrix (its eigenvectors do not span the space) is not implemented",
            ));
        }
        let vl = normalize_columns(&mh(&inverse)?)?;
        Some(if all_real { vl.f_real()? } else { vl })
    } else {
        None
    };
    let vr = if right { Some(if all_real { v.f_real()? } else { v }) } else { None };
    Ok(Eig { w: homogenize(w)?, vl, vr })
}

// ---------------------------------------------------------------------------
// SVD and friends
// ---------------------------------------------------------------------------

/// libtorch's SVD (`torch.svd`, the one libtorch entry point that takes no
/// driver string), with SciPy's errors.
fn torch_svd(a: &Tensor, reduced: bool, compute_uv: bool) -> Result<(Tensor, Tensor, Tensor)> {
    a.f_svd(reduced, compute_uv).map_err(|err| {
        let message = err.to_string();
        if message.contains("non-finite") {
            invalid("A has a NaN entry")
        } else if message.contains("converge") {
            linalg_error("SVD did not converge")
        } else {
            Error::from(err)
        }
    })
}

/// `scipy.linalg.svd`: `a = U @ diag(s) @ Vh` for `(..., M, N)` `a`;
/// `(None, s, None)` without `compute_uv`.
pub fn svd(
    a: &Tensor,
    full_matrices: bool,
    compute_uv: bool,
    check: bool,
) -> Result<(Option<Tensor>, Tensor, Option<Tensor>)> {
    let (m, n) = matrix_dims("svd", a).map_err(|_| invalid("expected matrix"))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_if(check, &[&a])?;
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
fn svd_reduced(a: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    let (u, s, vh) = svd(a, false, true, false)?;
    match (u, vh) {
        (Some(u), Some(vh)) => Ok((u, s, vh)),
        _ => Err(Error::Torch("svd returned no singular vectors".into())),
    }
}

/// The largest entry along the last dimension, 0 for an empty one (NumPy's
/// `amax(..., initial=0.)`).
fn amax_or_zero(s: &Tensor) -> Result<Tensor> {
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

/// `scipy.linalg.null_space`: an orthonormal basis (columns) of the null
/// space of `(..., M, N)` `a`, from the full SVD.
pub fn null_space(a: &Tensor, rcond: Option<f64>, check: bool) -> Result<Tensor> {
    let (m, n) = matrix_dims("null_space", a)?;
    let (_, s, vh) = svd(a, true, true, check)?;
    let vh = vh.ok_or_else(|| Error::Torch("svd returned no singular vectors".into()))?;
    let num = numerical_rank(&s, m, n, rcond)?;
    mh(&vh.f_narrow(-2, num, n - num)?)
}

/// `scipy.linalg.orth`: an orthonormal basis (columns) of the range of
/// `(..., M, N)` `a`, from the reduced SVD.
pub fn orth(a: &Tensor, rcond: Option<f64>) -> Result<Tensor> {
    let (m, n) = matrix_dims("orth", a)?;
    let (u, s, _) = svd(a, false, true, true)?;
    let u = u.ok_or_else(|| Error::Torch("svd returned no singular vectors".into()))?;
    let num = numerical_rank(&s, m, n, rcond)?;
    Ok(u.f_narrow(-1, 0, num)?)
}

/// `scipy.linalg.pinv`: the Moore-Penrose pseudo-inverse of `(..., M, N)`
/// `a` from its SVD, singular values at or below `atol + rtol * max(s)`
/// dropped (`atol` default 0, `rtol` default `max(M, N) * eps`). Also
/// returns the rank of each matrix.
pub fn pinv(a: &Tensor, atol: Option<f64>, rtol: Option<f64>, check: bool) -> Result<(Tensor, Tensor)> {
    let (m, n) = matrix_dims("pinv", a)?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_if(check, &[&a])?;
    let atol = atol.unwrap_or(0.0);
    let rtol = rtol.unwrap_or(m.max(n) as f64 * eps(kind));
    if atol < 0.0 || rtol < 0.0 {
        return Err(invalid("atol and rtol values must be positive."));
    }
    let batch = batch_of(&a, 2);
    if m.min(n) == 0 {
        let b = Tensor::f_zeros(concat(&batch, &[n, m]).as_slice(), (kind, a.device()))?;
        return Ok((b, Tensor::f_zeros(batch.as_slice(), (Kind::Int64, a.device()))?));
    }
    let (u, s, vh) = svd_reduced(&a)?;
    let val = amax_or_zero(&s)?.f_mul_scalar(rtol)?.f_add_scalar(atol)?.f_unsqueeze(-1)?;
    let kept = s.f_gt_tensor(&val)?;
    let rank = kept.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    let s_inv = s.f_reciprocal()?.f_where_scalarother(&kept, 0.0)?.f_to_kind(kind)?;
    let b = mh(&vh)?.f_mul(&s_inv.f_unsqueeze(-2)?)?.f_matmul(&mh(&u)?)?;
    Ok((b, rank))
}

/// `scipy.linalg.pinvh`: the pseudo-inverse of Hermitian `(..., N, N)` `a`
/// (`lower` or upper triangle read) from its eigendecomposition, eigenvalues
/// with `|w| <= atol + rtol * max|w|` dropped. Also returns the ranks.
pub fn pinvh(a: &Tensor, atol: Option<f64>, rtol: Option<f64>, lower: bool, check: bool) -> Result<(Tensor, Tensor)> {
    let n = square("pinvh", a).map_err(|_| invalid("expected square \"a\" matrix"))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let atol = atol.unwrap_or(0.0);
    let rtol = rtol.unwrap_or(n as f64 * eps(kind));
    if atol < 0.0 || rtol < 0.0 {
        return Err(invalid("atol and rtol values must be positive."));
    }
    let (s, u) = eigh(a, None, lower, false, 1, Subset::All, check)?;
    let u = u.ok_or_else(|| Error::Torch("eigh returned no eigenvectors".into()))?;
    let abs_s = s.f_abs()?;
    let val = amax_or_zero(&abs_s)?.f_mul_scalar(rtol)?.f_add_scalar(atol)?.f_unsqueeze(-1)?;
    let kept = abs_s.f_gt_tensor(&val)?;
    let rank = kept.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    let s_inv = s.f_reciprocal()?.f_where_scalarother(&kept, 0.0)?.f_to_kind(kind)?;
    let b = u.f_mul(&s_inv.f_unsqueeze(-2)?)?.f_matmul(&mh(&u)?)?;
    Ok((b, rank))
}

/// `scipy.linalg.polar`: `a = u @ p` (`side = "right"`) or `a = p @ u`
/// (`"left"`) with `u` having orthonormal columns (rows) and `p` Hermitian
/// positive semi-definite, from the SVD.
pub fn polar(a: &Tensor, right_side: bool) -> Result<(Tensor, Tensor)> {
    matrix_dims("polar", a).map_err(|_| invalid("`a` must be a 2-D array."))?;
    let (w, s, vh) = svd_reduced(a)?;
    let kind = dtype(&w)?.kind().unwrap_or(Kind::Double);
    let s = s.f_to_kind(kind)?.f_unsqueeze(-2)?;
    let u = w.f_matmul(&vh)?;
    let p = if right_side { mh(&vh)?.f_mul(&s)?.f_matmul(&vh)? } else { w.f_mul(&s)?.f_matmul(&mh(&w)?)? };
    Ok((u, p))
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
    let (_, sigma, _) = svd(&qa_h_qb, false, false, false)?;
    let residual = if qa.size()[qa.dim() - 1] >= qb.size()[qb.dim() - 1] {
        qb.f_sub(&qa.f_matmul(&qa_h_qb)?)?
    } else {
        qa.f_sub(&qb.f_matmul(&mh(&qa_h_qb)?)?)?
    };
    let mask = sigma.f_square()?.f_ge(0.5)?;
    let mu_arcsin = if any(&mask)? {
        let (_, mu, _) = svd(&residual, false, false, false)?;
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

/// `scipy.linalg.orthogonal_procrustes`: the unitary `r` minimizing
/// `||a @ r - b||_F`, and the sum of the singular values of `b^T conj(a)`.
pub fn orthogonal_procrustes(a: &Tensor, b: &Tensor, check: bool) -> Result<(Tensor, Tensor)> {
    matrix_dims("orthogonal_procrustes", a)?;
    if a.size() != b.size() {
        return Err(invalid(format!("the shapes of A and B differ ({:?} vs {:?})", a.size(), b.size())));
    }
    let kind = lapack_kind(&[dtype(a)?, dtype(b)?]);
    let (a, b) = (cast(a, kind)?, cast(b, kind)?);
    check_finite_if(check, &[&a, &b])?;
    let m = mh(&a)?.f_matmul(&b)?;
    let (u, w, vt) = svd(&m, true, true, false)?;
    let (u, vt) = match (u, vt) {
        (Some(u), Some(vt)) => (u, vt),
        _ => return Err(Error::Torch("svd returned no singular vectors".into())),
    };
    let r = u.f_matmul(&vt)?;
    Ok((r, w.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)?))
}

// ---------------------------------------------------------------------------
// Cholesky, LU, QR, RQ
// ---------------------------------------------------------------------------

/// `scipy.linalg.cholesky` (`clean = true`) and `cho_factor`
/// (`clean = false`): the `lower` (or upper) Cholesky factor of Hermitian
/// positive definite `(..., N, N)` `a`, reading that triangle only. Without
/// `clean` the other triangle holds `a`'s entries, as LAPACK's `?potrf`
/// leaves them.
pub fn cholesky(a: &Tensor, lower: bool, clean: bool, check: bool) -> Result<Tensor> {
    square("cholesky", a)
        .map_err(|_| invalid(format!("Input array is expected to be square but has the shape: {:?}.", a.size())))?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_if(check, &[&a])?;
    if a.numel() == 0 {
        return Ok(a.f_zeros_like()?);
    }
    // libtorch's ?potrf reads only the triangle it factors, as SciPy's does.
    let (c, info) = a.f_linalg_cholesky_ex(!lower, false)?;
    if let Some(order) = first_positive(&info)? {
        return Err(linalg_error(format!("{order}-th leading minor of the array is not positive definite")));
    }
    if clean {
        return Ok(c);
    }
    Ok(if lower { c.f_tril(0)?.f_add(&a.f_triu(1)?)? } else { c.f_triu(0)?.f_add(&a.f_tril(-1)?)? })
}

/// Splits a right-hand side into `(..., N, K)` form, remembering a 1-D one.
fn as_columns(b: &Tensor) -> Result<(Tensor, bool)> {
    if b.dim() == 1 {
        Ok((b.f_unsqueeze(-1)?, true))
    } else {
        Ok((b.shallow_clone(), false))
    }
}

fn rows_of(b: &Tensor) -> i64 {
    let s = b.size();
    if s.len() == 1 {
        s[0]
    } else {
        s[s.len() - 2]
    }
}

/// `scipy.linalg.cho_solve`: solves `A x = b` given `cho_factor`'s `c` and
/// `lower` (only that triangle of `c` is read).
pub fn cho_solve(c: &Tensor, lower: bool, b: &Tensor, check: bool) -> Result<Tensor> {
    if c.dim() < 2 || square("cho_solve", c).is_err() {
        return Err(invalid("The factored matrix c is not square."));
    }
    let b = atleast_1d(b)?;
    if c.size()[c.dim() - 1] != rows_of(&b) {
        return Err(invalid(format!("incompatible dimensions ({:?} and {:?})", c.size(), b.size())));
    }
    let kind = lapack_kind(&[dtype(c)?, dtype(&b)?]);
    let (c, b) = (cast(c, kind)?, cast(&b, kind)?);
    check_finite_if(check, &[&b, &c])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    let (cols, vector) = as_columns(&b)?;
    let triangle = if lower { c.f_tril(0)? } else { c.f_triu(0)? };
    let x = cols.f_cholesky_solve(&triangle, !lower)?;
    Ok(if vector { x.f_squeeze_dim(-1)? } else { x })
}

/// `scipy.linalg.lu`: `a = P @ L @ U` for `(..., M, N)` `a`. Returns
/// `[P, L, U]`, `[p, L, U]` with `p_indices` (row indices, int32, with
/// `a = L[p] @ U`), or `[P @ L, U]` with `permute_l`. `P` is real (float32 or
/// float64) as SciPy returns it.
pub fn lu(a: &Tensor, permute_l: bool, p_indices: bool, check: bool) -> Result<Vec<Tensor>> {
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid("The input array must be at least two-dimensional."));
    }
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_if(check, &[&a])?;
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
pub fn lu_factor(a: &Tensor, check: bool) -> Result<(Tensor, Tensor, i64)> {
    check_finite_if(check, &[a])?;
    if a.numel() == 0 {
        let piv = Tensor::f_zeros([0i64].as_slice(), (Kind::Int, a.device()))?;
        return Ok((crate::ops::deep_copy(a)?, piv, 0));
    }
    matrix_dims("lu_factor", a)?;
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    let (lu, pivots, info) = Tensor::f_linalg_lu_factor_ex(&a, true, false)?;
    let info = first_positive(&info)?.unwrap_or(0);
    Ok((lu, pivots.f_sub_scalar(1)?, info))
}

/// `scipy.linalg.lu_solve`: solves `A x = b` (`trans` 0), `A^T x = b` (1) or
/// `A^H x = b` (2) from `lu_factor`'s `(lu, piv)` (0-based pivots).
pub fn lu_solve(lu: &Tensor, piv: &Tensor, b: &Tensor, trans: i64, check: bool) -> Result<Tensor> {
    let b = atleast_1d(b)?;
    check_finite_if(check, &[&b])?;
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
    check_finite_if(check, &[&a])?;
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
    check_finite_if(check, &[&a])?;
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

// ---------------------------------------------------------------------------
// Least squares
// ---------------------------------------------------------------------------

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
pub fn lstsq(a: &Tensor, b: &Tensor, cond: Option<f64>, driver: &str, check: bool) -> Result<Lstsq> {
    if !matches!(driver, "gelsd" | "gelss" | "gelsy") {
        return Err(invalid(format!("LAPACK driver \"{driver}\" is not found")));
    }
    let (m, n) = matrix_dims("lstsq", a).map_err(|_| invalid("Input array a should be 2D"))?;
    let b = atleast_1d(b)?;
    check_finite_if(check, &[a, &b])?;
    if m != rows_of(&b) {
        return Err(invalid(format!(
            "Shape mismatch: a and b should have the same number of rows ({m} != {}).",
            rows_of(&b)
        )));
    }
    let device = a.device();
    let (cols, vector) = as_columns(&b)?;
    let nrhs = cols.size()[cols.dim() - 1];
    let batch = broadcast_shapes(&batch_of(a, 2), &batch_of(&cols, 2))?;
    let unvector = |x: Tensor| -> Result<Tensor> { Ok(if vector { x.f_squeeze_dim(-1)? } else { x }) };
    if m == 0 || n == 0 {
        let ad = dtype(a)?;
        let bd = dtype(&b)?;
        let common = numpy_result_type(&[ad, bd]);
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

// ---------------------------------------------------------------------------
// Norms
// ---------------------------------------------------------------------------

/// The `ord` of `scipy.linalg.norm` (NumPy's `linalg.norm`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NormOrder {
    /// `None`: 2-norm of vectors, Frobenius norm of matrices.
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

/// `scipy.linalg.norm` (NumPy's `linalg.norm` semantics): vector norms over
/// one axis, matrix norms over two, the 2-norm of the flattened array by
/// default. Integer input computes in float64; float16 in float32 and
/// returns float16; complex input gives real norms.
pub fn norm(a: &Tensor, ord: NormOrder, axis: Option<&[i64]>, keepdims: bool, check: bool) -> Result<Tensor> {
    let d = dtype(a)?;
    check_finite_if(check, &[a])?;
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
        Some(list) => list
            .iter()
            .map(|&ax| {
                if ax < -nd || ax >= nd {
                    Err(invalid(format!("axis {ax} is out of bounds for array of dimension {nd}")))
                } else {
                    Ok(if ax < 0 { ax + nd } else { ax })
                }
            })
            .collect::<Result<_>>()?,
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

// ---------------------------------------------------------------------------
// Matrix functions
// ---------------------------------------------------------------------------

/// NumPy's `exp` loop dtype for this input (the 1x1 case of `expm`).
fn numpy_exp_kind(d: DType) -> Kind {
    match d {
        DType::Bool | DType::Int8 | DType::UInt8 | DType::Float16 => Kind::Half,
        DType::Int16 | DType::UInt16 | DType::Float32 => Kind::Float,
        DType::BFloat16 => Kind::BFloat16,
        DType::Complex64 => Kind::ComplexFloat,
        DType::Complex128 => Kind::ComplexDouble,
        _ => Kind::Double,
    }
}

/// The exponential of square matrices already in a floating kind: exact
/// `exp` of the diagonal for diagonal input, triangular structure kept (with
/// the exact diagonal) for triangular input, libtorch's `matrix_exp` (a
/// scaled and squared Taylor approximant) otherwise.
fn expm_core(a: &Tensor) -> Result<Tensor> {
    let diagonal = a.f_diagonal(0, -2, -1)?;
    let below = any(&a.f_tril(-1)?.f_ne(0.0)?)?;
    let above = any(&a.f_triu(1)?.f_ne(0.0)?)?;
    let exp_diagonal = diagonal.f_exp()?.f_diag_embed(0, -2, -1)?;
    match (below, above) {
        (false, false) => Ok(exp_diagonal),
        (false, true) => Ok(a.f_matrix_exp()?.f_triu(1)?.f_add(&exp_diagonal)?),
        (true, false) => Ok(a.f_matrix_exp()?.f_tril(-1)?.f_add(&exp_diagonal)?),
        (true, true) => Ok(a.f_matrix_exp()?),
    }
}

/// `scipy.linalg.expm`: the matrix exponential of `(..., N, N)` `a`. Integer
/// input computes in float64 and float16 in float32; a 1x1 matrix is `exp`
/// of its entry in NumPy's `exp` dtype, and a single number `[[exp(a)]]`.
pub fn expm(a: &Tensor) -> Result<Tensor> {
    let d = dtype(a)?;
    if a.numel() == 1 && a.dim() < 2 {
        let kind = if d.is_complex() { Kind::ComplexDouble } else { Kind::Double };
        return Ok(cast(a, kind)?.f_reshape([1i64, 1].as_slice())?.f_exp()?);
    }
    if a.dim() < 2 {
        return Err(linalg_error("The input array must be at least two-dimensional"));
    }
    let s = a.size();
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(linalg_error("Last 2 dimensions of the array must be square"));
    }
    if a.numel() == 0 {
        return Ok(cast(a, cdsz_kind(&[d]))?.f_zeros_like()?);
    }
    if s[s.len() - 1] == 1 {
        return Ok(cast(a, numpy_exp_kind(d))?.f_exp()?);
    }
    expm_core(&cast(a, cdsz_kind(&[d]))?)
}

/// `i * x` for real or complex `x`, complex result of `kind`.
fn times_i(x: &Tensor, kind: Kind) -> Result<Tensor> {
    if dtype(x)?.is_complex() {
        let (re, im) = (x.f_real()?, x.f_imag()?);
        Ok(Tensor::f_complex(&im.f_neg()?, &re)?.f_to_kind(kind)?)
    } else {
        Ok(Tensor::f_complex(&x.f_zeros_like()?, x)?.f_to_kind(kind)?)
    }
}

/// The trigonometric and hyperbolic matrix functions of `scipy.linalg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixFunction {
    /// `cosm`
    Cos,
    /// `sinm`
    Sin,
    /// `tanm`
    Tan,
    /// `coshm`
    Cosh,
    /// `sinhm`
    Sinh,
    /// `tanhm`
    Tanh,
}

/// `scipy.linalg.cosm`, `sinm`, `tanm`, `coshm`, `sinhm`, `tanhm`, by SciPy's
/// formulas through `expm` (`tanm = solve(cosm, sinm)`, `tanhm = solve(coshm,
/// sinhm)`; their `rcond` is returned for SciPy's ill-conditioning warning,
/// 1 for the others).
pub fn matrix_function(a: &Tensor, f: MatrixFunction) -> Result<Solved> {
    if square("matrix function", a).is_err() {
        return Err(invalid("expected square array_like input"));
    }
    let d = dtype(a)?;
    if d == DType::Bool && matches!(f, MatrixFunction::Cosh | MatrixFunction::Sinh | MatrixFunction::Tanh) {
        return Err(Error::DtypeNotAccepted {
            routine: "linalg.coshm/sinhm/tanhm",
            dtype: d,
            accepted: "integer, floating-point and complex input (NumPy cannot negate bool arrays)",
        });
    }
    let kind = cdsz_kind(&[d]);
    let ck = complex_kind(kind);
    let complex = is_complex_kind(kind);
    let a = cast(a, kind)?;
    let batch = batch_of(&a, 2);
    let ones = || Tensor::f_ones(batch.as_slice(), (real_kind(kind), a.device()));
    let plain = |x: Tensor| -> Result<Solved> { Ok(Solved { x, rcond: ones()? }) };
    if a.numel() == 0 {
        return plain(a.f_zeros_like()?);
    }
    let ia = || times_i(&a, ck);
    let cos = || -> Result<Tensor> {
        let e = expm_core(&ia()?)?;
        if complex {
            Ok(e.f_add(&expm_core(&ia()?.f_neg()?)?)?.f_mul_scalar(0.5)?)
        } else {
            Ok(e.f_real()?.f_contiguous()?)
        }
    };
    let sin = || -> Result<Tensor> {
        let e = expm_core(&ia()?)?;
        if complex {
            let diff = e.f_sub(&expm_core(&ia()?.f_neg()?)?)?;
            Ok(times_i(&diff, ck)?.f_mul_scalar(-0.5)?)
        } else {
            Ok(e.f_imag()?.f_contiguous()?)
        }
    };
    let cosh = || -> Result<Tensor> { Ok(expm_core(&a)?.f_add(&expm_core(&a.f_neg()?)?)?.f_mul_scalar(0.5)?) };
    let sinh = || -> Result<Tensor> { Ok(expm_core(&a)?.f_sub(&expm_core(&a.f_neg()?)?)?.f_mul_scalar(0.5)?) };
    match f {
        MatrixFunction::Cos => plain(cos()?),
        MatrixFunction::Sin => plain(sin()?),
        MatrixFunction::Cosh => plain(cosh()?),
        MatrixFunction::Sinh => plain(sinh()?),
        MatrixFunction::Tan => solve(&cos()?, &sin()?, false, Structure::Auto, false, false),
        MatrixFunction::Tanh => solve(&cosh()?, &sinh()?, false, Structure::Auto, false, false),
    }
}

/// `scipy.linalg.expm_frechet`: `expm(a)` and the Frechet derivative of the
/// matrix exponential at `a` in direction `e`, read off the exponential of
/// the block matrix `[[a, e], [0, a]]` (SciPy's `'blockEnlarge'` method;
/// its default `'SPS'` computes the same quantity). Always float64 or
/// complex128, as SciPy returns it.
pub fn expm_frechet(a: &Tensor, e: &Tensor, check: bool) -> Result<(Tensor, Tensor)> {
    if square("expm_frechet", a).is_err() {
        return Err(invalid("expected A to be a square matrix"));
    }
    if square("expm_frechet", e).is_err() {
        return Err(invalid("expected E to be a square matrix"));
    }
    if a.size()[a.dim() - 2..] != e.size()[e.dim() - 2..] {
        return Err(invalid("expected A and E to be the same shape"));
    }
    check_finite_if(check, &[a, e])?;
    for x in [a, e] {
        let d = dtype(x)?;
        if matches!(d, DType::Float16 | DType::BFloat16) {
            // SciPy's expm_frechet fails on half precision too (ValueError).
            return Err(invalid(format!("expm_frechet does not support {d} input")));
        }
    }
    let complex = dtype(a)?.is_complex() || dtype(e)?.is_complex();
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let batch = broadcast_shapes(&batch_of(a, 2), &batch_of(e, 2))?;
    let n = a.size()[a.dim() - 1];
    let shape = concat(&batch, &[n, n]);
    let a = cast(a, kind)?.f_broadcast_to(shape.as_slice())?;
    let e = cast(e, kind)?.f_broadcast_to(shape.as_slice())?;
    if n == 0 {
        return Ok((a.f_zeros_like()?, e.f_zeros_like()?));
    }
    let top = Tensor::f_cat(&[a.shallow_clone(), e], -1)?;
    let bottom = Tensor::f_cat(&[a.f_zeros_like()?, a.shallow_clone()], -1)?;
    let big = expm_core(&Tensor::f_cat(&[top, bottom], -2)?)?;
    let exp_a = big.f_narrow(-2, 0, n)?.f_narrow(-1, 0, n)?.f_contiguous()?;
    let frechet = big.f_narrow(-2, 0, n)?.f_narrow(-1, n, n)?.f_contiguous()?;
    Ok((exp_a, frechet))
}

// ---------------------------------------------------------------------------
// Special matrices (dtype kept, as SciPy keeps it)
// ---------------------------------------------------------------------------

/// The signed integer kind of the same width, for dtypes `tch::Kind` cannot
/// name (libtorch has few kernels for uint16/32/64: reinterpreting the bits
/// as signed integers, rearranging, and casting back, which wraps, keeps
/// every bit).
fn signed_twin(d: DType) -> Option<Kind> {
    match d {
        DType::UInt16 => Some(Kind::Int16),
        DType::UInt32 => Some(Kind::Int),
        DType::UInt64 => Some(Kind::Int64),
        _ => None,
    }
}

/// Applies a bit-preserving rearrangement `f` to `x`, through its signed
/// twin for uint16/32/64.
fn rearrange(x: &Tensor, f: impl Fn(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    match signed_twin(dtype(x)?) {
        Some(kind) => Ok(f(&x.f_view_dtype(kind)?)?.f_type_as(x)?),
        None => f(x),
    }
}

/// Index tensor `rows x cols` with entries `f(i, j)`.
fn index_grid(rows: i64, cols: i64, device: Device, f: impl Fn(i64, i64) -> i64) -> Result<Tensor> {
    let mut data = Vec::with_capacity((rows.max(0) * cols.max(0)) as usize);
    for i in 0..rows {
        for j in 0..cols {
            data.push(f(i, j));
        }
    }
    Ok(Tensor::f_from_slice(&data)?.f_to(device)?.f_reshape([rows, cols])?)
}

/// Gathers `vals[..., idx]` for a `(rows, cols)` index grid.
fn take_grid(vals: &Tensor, idx: &Tensor) -> Result<Tensor> {
    let (rows, cols) = (idx.size()[0], idx.size()[1]);
    let batch = batch_of(vals, 1);
    let flat = vals.f_index_select(-1, &idx.f_reshape([-1i64].as_slice())?)?;
    Ok(flat.f_reshape(concat(&batch, &[rows, cols]).as_slice())?)
}

/// Zeros of `proto`'s dtype and device in `shape` (works for dtypes without a
/// `tch::Kind`, as long as `proto` is not empty).
fn zeros_as(proto: &Tensor, shape: &[i64]) -> Result<Tensor> {
    if let Some(kind) = dtype(proto)?.kind() {
        return Ok(Tensor::f_zeros(shape, (kind, proto.device()))?);
    }
    if proto.numel() == 0 {
        return Err(not_implemented(format!("zero-filled {} output from empty input", dtype(proto)?)));
    }
    let one = proto.f_reshape([-1i64].as_slice())?.f_narrow(0, 0, 1)?.f_zeros_like()?;
    let ones_shape = vec![1i64; shape.len()];
    Ok(one.f_reshape(ones_shape.as_slice())?.f_expand(shape, false)?.f_contiguous()?)
}

/// `scipy.linalg.toeplitz`: the Toeplitz matrix with first column `c` and
/// first row `r` (`r` default `conj(c)`; `c[0]` wins over `r[0]`). Leading
/// dimensions of `c` and `r` are batches.
pub fn toeplitz(c: &Tensor, r: Option<&Tensor>) -> Result<Tensor> {
    let c = atleast_1d(c)?;
    let r = match r {
        Some(r) => atleast_1d(r)?,
        None => c.f_conj()?.f_resolve_conj()?,
    };
    let target = numpy_result_type(&[dtype(&c)?, dtype(&r)?]);
    let (c, r) = (cast_dtype(&c, target)?, cast_dtype(&r, target)?);
    let batch = broadcast_shapes(&batch_of(&c, 1), &batch_of(&r, 1))?;
    let (m, n) = (c.size()[c.dim() - 1], r.size()[r.dim() - 1]);
    let c = c.f_broadcast_to(concat(&batch, &[m]).as_slice())?;
    let r = r.f_broadcast_to(concat(&batch, &[n]).as_slice())?;
    let tail = if n > 0 { r.f_narrow(-1, 1, n - 1)? } else { r.shallow_clone() };
    let vals = Tensor::f_cat(&[c, tail], -1)?;
    // vals = c followed by r[1:]: entry (i, j) is c[i - j] below the
    // diagonal and r[j - i] = vals[m - 1 + j - i] above it.
    let idx = index_grid(m, n, vals.device(), |i, j| if i >= j { i - j } else { m - 1 + j - i })?;
    rearrange(&vals, |v| take_grid(v, &idx))
}

/// `scipy.linalg.circulant`: the circulant matrix with first column `c`
/// (leading dimensions are a batch).
pub fn circulant(c: &Tensor) -> Result<Tensor> {
    let c = atleast_1d(c)?;
    let n = c.size()[c.dim() - 1];
    let idx = index_grid(n, n, c.device(), |i, j| (i - j).rem_euclid(n.max(1)))?;
    rearrange(&c, |v| take_grid(v, &idx))
}

/// `scipy.linalg.hankel`: the Hankel matrix with first column `c` and last
/// row `r` (`r` default zeros; `r[0]` is ignored). Multi-dimensional input
/// is flattened, as SciPy 1.17 still does (with a FutureWarning there).
pub fn hankel(c: &Tensor, r: Option<&Tensor>) -> Result<Tensor> {
    let c = c.f_reshape([-1i64].as_slice())?;
    let r = match r {
        Some(r) => r.f_reshape([-1i64].as_slice())?,
        None => c.f_zeros_like()?,
    };
    let target = numpy_result_type(&[dtype(&c)?, dtype(&r)?]);
    let (c, r) = (cast_dtype(&c, target)?, cast_dtype(&r, target)?);
    let (m, n) = (c.size()[0], r.size()[0]);
    let tail = if n > 0 { r.f_narrow(0, 1, n - 1)? } else { r.shallow_clone() };
    let vals = Tensor::f_cat(&[c, tail], 0)?;
    let idx = index_grid(m, n, vals.device(), |i, j| i + j)?;
    rearrange(&vals, |v| take_grid(v, &idx))
}

/// `scipy.linalg.block_diag`: the block diagonal matrix of the (at least
/// 2-D) arrays, batch dimensions broadcast, dtype NumPy's result type.
pub fn block_diag(arrays: &[Tensor]) -> Result<Tensor> {
    if arrays.is_empty() {
        return Err(invalid("block_diag needs at least one array"));
    }
    let arrays = arrays.iter().map(atleast_2d).collect::<Result<Vec<_>>>()?;
    let target = numpy_result_type(&arrays.iter().map(dtype).collect::<Result<Vec<_>>>()?);
    let mut batch: Vec<i64> = vec![];
    for a in &arrays {
        batch = broadcast_shapes(&batch, &batch_of(a, 2))?;
    }
    let rows: i64 = arrays.iter().map(|a| a.size()[a.dim() - 2]).sum();
    let cols: i64 = arrays.iter().map(|a| a.size()[a.dim() - 1]).sum();
    let cast_all = arrays.iter().map(|a| cast_dtype(a, target)).collect::<Result<Vec<_>>>()?;
    let proto = cast_all.iter().find(|a| a.numel() > 0).unwrap_or(&cast_all[0]);
    let mut out = zeros_as(proto, concat(&batch, &[rows, cols]).as_slice())?;
    let (mut r, mut c) = (0, 0);
    for a in &cast_all {
        let (rr, cc) = (a.size()[a.dim() - 2], a.size()[a.dim() - 1]);
        if rr > 0 && cc > 0 {
            let mut block = out.f_narrow(-2, r, rr)?.f_narrow(-1, c, cc)?;
            block.f_copy_(&a.f_broadcast_to(concat(&batch, &[rr, cc]).as_slice())?)?;
        }
        r += rr;
        c += cc;
    }
    out = out.f_contiguous()?;
    Ok(out)
}

/// `scipy.linalg.khatri_rao`: the column-wise Kronecker product of
/// `(..., M, K)` `a` and `(..., P, K)` `b`, `(..., M * P, K)`.
pub fn khatri_rao(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dim() < 2 || b.dim() < 2 {
        return Err(invalid("The both arrays should be 2-dimensional."));
    }
    let (ma, ka) = (a.size()[a.dim() - 2], a.size()[a.dim() - 1]);
    let (mb, kb) = (b.size()[b.dim() - 2], b.size()[b.dim() - 1]);
    if ka != kb {
        return Err(invalid("The number of columns for both arrays should be equal."));
    }
    let batch = broadcast_shapes(&batch_of(a, 2), &batch_of(b, 2))?;
    if a.numel() == 0 || b.numel() == 0 {
        return zeros_as(a, concat(&batch, &[ma * mb, ka]).as_slice());
    }
    let target = numpy_result_type(&[dtype(a)?, dtype(b)?]);
    let (a, b) = (cast_dtype(a, target)?, cast_dtype(b, target)?);
    let c = a.f_unsqueeze(-2)?.f_mul(&b.f_unsqueeze(-3)?)?;
    Ok(c.f_reshape(concat(&batch, &[ma * mb, ka]).as_slice())?)
}

/// `scipy.linalg.companion`: the companion matrix of the polynomial with
/// coefficients `a` (highest degree first; leading dimensions are a batch).
/// Integer input gives float64; floating and complex input keep their dtype.
pub fn companion(a: &Tensor) -> Result<Tensor> {
    let a = atleast_1d(a)?;
    let d = dtype(&a)?;
    if d == DType::Bool {
        return Err(Error::DtypeNotAccepted { routine: "linalg.companion", dtype: d, accepted: "numeric input" });
    }
    let n = a.size()[a.dim() - 1];
    if n < 2 {
        return Err(invalid("The length of `a` along the last axis must be at least 2."));
    }
    let kind = if d.is_float() || d.is_complex() { d.kind().unwrap_or(Kind::Double) } else { Kind::Double };
    let a = cast(&a, kind)?;
    let lead = a.f_narrow(-1, 0, 1)?;
    if any(&lead.f_eq(0.0)?)? {
        return Err(invalid("The first coefficient(s) of `a` (i.e. elements of `a[..., 0]`) must not be zero."));
    }
    let first_row = a.f_narrow(-1, 1, n - 1)?.f_neg()?.f_div(&lead)?;
    let batch = batch_of(&a, 1);
    let shift = Tensor::f_eye_m(n - 2, n - 1, (kind, a.device()))?
        .f_expand(concat(&batch, &[n - 2, n - 1]).as_slice(), false)?;
    Ok(Tensor::f_cat(&[first_row.f_unsqueeze(-2)?, shift], -2)?)
}

/// `scipy.linalg.fiedler`: the symmetric matrix `|a_i - a_j|` (leading
/// dimensions are a batch; integer dtypes kept, wrapping as NumPy's do).
pub fn fiedler(a: &Tensor) -> Result<Tensor> {
    let a = atleast_1d(a)?;
    let d = dtype(&a)?;
    if d == DType::Bool {
        return Err(Error::DtypeNotAccepted { routine: "linalg.fiedler", dtype: d, accepted: "numeric input" });
    }
    if a.numel() == 0 {
        return Ok(Tensor::f_zeros([0i64].as_slice(), (Kind::Double, a.device()))?);
    }
    if a.numel() == 1 {
        return Ok(Tensor::f_zeros([1i64, 1].as_slice(), (Kind::Double, a.device()))?);
    }
    if let Some(kind) = signed_twin(d) {
        // NumPy subtracts unsigned integers with wraparound and |.| is the
        // identity on them: the wrapped difference, computed on the bits.
        let bits = a.f_view_dtype(kind)?;
        return Ok(bits.f_unsqueeze(-1)?.f_sub(&bits.f_unsqueeze(-2)?)?.f_type_as(&a)?);
    }
    Ok(a.f_unsqueeze(-1)?.f_sub(&a.f_unsqueeze(-2)?)?.f_abs()?)
}

/// `scipy.linalg.leslie`: the Leslie matrix with fecundities `f` (first row)
/// and survival coefficients `s` (subdiagonal); leading dimensions batch.
pub fn leslie(f: &Tensor, s: &Tensor) -> Result<Tensor> {
    let f = atleast_1d(f)?;
    let s = atleast_1d(s)?;
    let n = f.size()[f.dim() - 1];
    let ns = s.size()[s.dim() - 1];
    if n != ns + 1 {
        return Err(invalid(
            "Incorrect lengths for f and s. The length of s along the last axis must be one less than the length of f.",
        ));
    }
    if ns == 0 {
        return Err(invalid("The length of s must be at least 1."));
    }
    let target = numpy_result_type(&[dtype(&f)?, dtype(&s)?]);
    let batch = broadcast_shapes(&batch_of(&f, 1), &batch_of(&s, 1))?;
    let f = cast_dtype(&f, target)?.f_broadcast_to(concat(&batch, &[n]).as_slice())?;
    let s = cast_dtype(&s, target)?.f_broadcast_to(concat(&batch, &[ns]).as_slice())?;
    let sub = s.f_diag_embed(0, -2, -1)?;
    let zero_col = zeros_as(&s, concat(&batch, &[ns, 1]).as_slice())?;
    let bottom = Tensor::f_cat(&[sub, zero_col], -1)?;
    Ok(Tensor::f_cat(&[f.f_unsqueeze(-2)?, bottom], -2)?)
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
    let part = s.f_diag_embed(0, -2, -1)?;
    if k == m {
        let pad = zeros_as(&s, concat(&batch, &[m, n - m]).as_slice())?;
        Ok(Tensor::f_cat(&[part, pad], -1)?)
    } else {
        let pad = zeros_as(&s, concat(&batch, &[m - n, n]).as_slice())?;
        Ok(Tensor::f_cat(&[part, pad], -2)?)
    }
}

/// The modes of `scipy.linalg.convolution_matrix`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvolutionMode {
    /// `'full'`
    Full,
    /// `'valid'`
    Valid,
    /// `'same'`
    Same,
}

/// `scipy.linalg.convolution_matrix`: the Toeplitz matrix `A` with
/// `A @ v == np.convolve(a, v, mode)` for `v` of length `n` (leading
/// dimensions of `a` batch).
pub fn convolution_matrix(a: &Tensor, n: i64, mode: ConvolutionMode) -> Result<Tensor> {
    if n <= 0 {
        return Err(invalid("n must be a positive integer."));
    }
    if a.numel() == 0 {
        return Err(invalid("len(a) must be at least 1."));
    }
    let a = atleast_1d(a)?;
    let len = a.size()[a.dim() - 1];
    let batch = batch_of(&a, 1);
    let pad = zeros_as(&a, concat(&batch, &[n - 1]).as_slice())?;
    let padded = Tensor::f_cat(&[pad.shallow_clone(), a.shallow_clone(), pad], -1)?;
    let full_rows = len + n - 1;
    let (start, rows) = match mode {
        ConvolutionMode::Full => (0, full_rows),
        ConvolutionMode::Same => {
            let trim = n.min(len) - 1;
            (trim / 2, full_rows - trim)
        }
        ConvolutionMode::Valid => {
            let trim = n.min(len) - 1;
            (trim, full_rows - 2 * trim)
        }
    };
    let idx = index_grid(rows, n, a.device(), |i, j| i + start - j + n - 1)?;
    rearrange(&padded, |v| take_grid(v, &idx))
}

/// SciPy's Cython structure tests have no half-precision loops (TypeError).
fn refuse_half(routine: &'static str, a: &Tensor) -> Result<()> {
    let d = dtype(a)?;
    if matches!(d, DType::Float16 | DType::BFloat16) {
        return Err(Error::DtypeNotAccepted {
            routine,
            dtype: d,
            accepted: "bool, integer, float32/64 and complex input",
        });
    }
    Ok(())
}

/// `scipy.linalg.bandwidth`: lower and upper bandwidth of each matrix of
/// `(..., N, M)` `a` (int64, batch-shaped).
pub fn bandwidth(a: &Tensor) -> Result<(Tensor, Tensor)> {
    refuse_half("linalg.bandwidth", a)?;
    let (n, m) = matrix_dims("bandwidth", a).map_err(|_| invalid("Input array must be a 2D NumPy array."))?;
    let batch = batch_of(a, 2);
    let device = a.device();
    if n == 0 || m == 0 {
        let z = Tensor::f_zeros(batch.as_slice(), (Kind::Int64, device))?;
        return Ok((z.shallow_clone(), z));
    }
    let nonzero = a.f_ne(0.0)?;
    let offset = index_grid(n, m, device, |i, j| i - j)?;
    let lower = offset.f_clamp_min(0)?.f_mul(&nonzero)?.f_amax([-2i64, -1].as_slice(), false)?;
    let upper = offset.f_neg()?.f_clamp_min(0)?.f_mul(&nonzero)?.f_amax([-2i64, -1].as_slice(), false)?;
    Ok((lower, upper))
}

/// `scipy.linalg.issymmetric` (`hermitian = false`) and `ishermitian`: exact
/// comparison with the (conjugate) transpose, the diagonal not scanned for
/// symmetry; with a tolerance, NumPy's `allclose` of the whole matrix.
/// Returns a bool per matrix.
pub fn is_symmetric(a: &Tensor, atol: Option<f64>, rtol: Option<f64>, hermitian: bool) -> Result<Tensor> {
    refuse_half("linalg.issymmetric/ishermitian", a)?;
    let (n, m) = matrix_dims("issymmetric", a).map_err(|_| invalid("Input array must be a 2D NumPy array."))?;
    if n != m {
        return Err(invalid("Input array must be square."));
    }
    let batch = batch_of(a, 2);
    if n == 0 {
        return Ok(Tensor::f_ones(batch.as_slice(), (Kind::Bool, a.device()))?);
    }
    let complex = dtype(a)?.is_complex();
    let t = if hermitian && complex { mh(a)?.f_resolve_conj()? } else { a.f_mt()? };
    let close = match (atol, rtol) {
        (None, None) => {
            let equal = a.f_eq_tensor(&t)?;
            if hermitian && complex {
                equal
            } else {
                // the diagonal is not scanned
                let diagonal = Tensor::f_eye(n, (Kind::Bool, a.device()))?;
                equal.f_logical_or(&diagonal)?
            }
        }
        (atol, rtol) => {
            let (atol, rtol) = (atol.unwrap_or(0.0), rtol.unwrap_or(0.0));
            let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
            let (x, y) = (cast(a, kind)?, cast(&t, kind)?);
            let bound = y.f_abs()?.f_mul_scalar(rtol)?.f_add_scalar(atol)?;
            let within = x.f_sub(&y)?.f_abs()?.f_le_tensor(&bound)?;
            // infinities compare equal when identical (numpy.isclose)
            within.f_logical_or(&x.f_eq_tensor(&y)?.f_logical_and(&x.f_isinf()?)?)?
        }
    };
    Ok(close.f_reshape(concat(&batch, &[-1]).as_slice())?.f_all_dim(-1, false)?)
}

// ---------------------------------------------------------------------------
// Banded, tridiagonal, Toeplitz and circulant systems
// ---------------------------------------------------------------------------

/// The dense `(..., N, N)` matrix of LAPACK band storage `ab`
/// (`ab[u + i - j, j] = A[i, j]`, `l` sub- and `u` superdiagonals).
fn band_to_dense(ab: &Tensor, l: i64, u: i64) -> Result<Tensor> {
    let n = ab.size()[ab.dim() - 1];
    let batch = batch_of(ab, 2);
    let mut dense =
        Tensor::f_zeros(concat(&batch, &[n, n]).as_slice(), (dtype(ab)?.kind().unwrap_or(Kind::Double), ab.device()))?;
    for k in -l..=u {
        let len = n - k.abs();
        if len <= 0 {
            continue;
        }
        let row = ab.f_select(-2, u - k)?;
        let values = row.f_narrow(-1, k.max(0), len)?;
        dense = dense.f_add(&values.f_diag_embed(k, -2, -1)?)?;
    }
    Ok(dense)
}

/// `scipy.linalg.solve_banded`: solves `A x = b` for banded `A` given in
/// LAPACK band storage with `l` lower and `u` upper diagonals (expanded to a
/// dense LU solve: the pivots and result are those of LAPACK's `?gbsv`).
pub fn solve_banded(l: i64, u: i64, ab: &Tensor, b: &Tensor, check: bool) -> Result<Tensor> {
    let b = atleast_1d(b)?;
    let (rows, n) = matrix_dims("solve_banded", ab)?;
    if n != rows_of(&b) {
        return Err(invalid("shapes of ab and b are not compatible."));
    }
    if l + u + 1 != rows {
        return Err(invalid(format!(
            "invalid values for the number of lower and upper diagonals: l+u+1 ({}) does not equal ab.shape[0] ({rows})",
            l + u + 1
        )));
    }
    if l < 0 || u < 0 {
        return Err(invalid("the numbers of lower and upper diagonals must be non-negative"));
    }
    let kind = cdsz_kind(&[dtype(ab)?, dtype(&b)?]);
    let (ab, b) = (cast(ab, kind)?, cast(&b, kind)?);
    check_finite_if(check, &[&ab, &b])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    if n == 1 {
        let pivot = ab.f_narrow(-2, u, 1)?.f_narrow(-1, 0, 1)?.f_squeeze_dim(-1)?;
        return Ok(b.f_div(&if b.dim() == 1 { pivot } else { pivot.f_unsqueeze(-1)? })?);
    }
    let dense = band_to_dense(&ab, l, u)?;
    match solve(&dense, &b, false, Structure::General, false, false) {
        Ok(solved) => Ok(solved.x),
        Err(err) if is_linalg_error(&err) => Err(linalg_error("singular matrix")),
        Err(err) => Err(err),
    }
}

/// The Hermitian matrix of symmetric band storage `ab` (`lower`: `ab[i - j,
/// j] = A[i, j]`; upper: `ab[u + i - j, j] = A[i, j]`).
fn hermitian_band_to_dense(ab: &Tensor, lower: bool) -> Result<Tensor> {
    let u = ab.size()[ab.dim() - 2] - 1;
    let half = if lower { band_to_dense(ab, u, 0)? } else { band_to_dense(ab, 0, u)? };
    from_triangle(&half, lower, true)
}

/// `scipy.linalg.solveh_banded`: solves `A x = b` for Hermitian positive
/// definite banded `A` in symmetric band storage (Cholesky of the dense
/// matrix, as LAPACK's `?pbsv` factors it).
pub fn solveh_banded(ab: &Tensor, b: &Tensor, lower: bool, check: bool) -> Result<Tensor> {
    let b = atleast_1d(b)?;
    let (_, n) = matrix_dims("solveh_banded", ab)?;
    if n != rows_of(&b) {
        return Err(invalid("shapes of ab and b are not compatible."));
    }
    let kind = lapack_kind(&[dtype(ab)?, dtype(&b)?]);
    let (ab, b) = (cast(ab, kind)?, cast(&b, kind)?);
    check_finite_if(check, &[&ab, &b])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    let dense = hermitian_band_to_dense(&ab, lower)?;
    let (l, info) = dense.f_linalg_cholesky_ex(false, false)?;
    if let Some(order) = first_positive(&info)? {
        return Err(linalg_error(format!("{order}th leading minor not positive definite")));
    }
    let (cols, vector) = as_columns(&b)?;
    let x = cols.f_cholesky_solve(&l, false)?;
    Ok(if vector { x.f_squeeze_dim(-1)? } else { x })
}

/// `scipy.linalg.cholesky_banded`: the Cholesky factor of a Hermitian
/// positive definite banded matrix, in the same band storage. Storage
/// entries outside the matrix keep their input values, as `?pbtrf` leaves them.
pub fn cholesky_banded(ab: &Tensor, lower: bool, check: bool) -> Result<Tensor> {
    let (rows, n) = matrix_dims("cholesky_banded", ab)?;
    let kind = lapack_kind(&[dtype(ab)?]);
    let ab = cast(ab, kind)?;
    check_finite_if(check, &[&ab])?;
    if ab.numel() == 0 {
        return Ok(ab.f_zeros_like()?);
    }
    let u = rows - 1;
    let dense = hermitian_band_to_dense(&ab, lower)?;
    let (c, info) = dense.f_linalg_cholesky_ex(!lower, false)?;
    if let Some(order) = first_positive(&info)? {
        return Err(linalg_error(format!("{order}-th leading minor not positive definite")));
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

/// `scipy.linalg.eigh_tridiagonal`/`eigvalsh_tridiagonal`: eigenvalues
/// (ascending) and eigenvectors of the real symmetric tridiagonal matrix with
/// diagonal `d` and off-diagonal `e` (through the dense symmetric solver).
pub fn eigh_tridiagonal(
    d: &Tensor,
    e: &Tensor,
    eigvals_only: bool,
    subset: Subset,
    check: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    for x in [d, e] {
        if dtype(x)?.is_complex() {
            return Err(Error::DtypeNotAccepted {
                routine: "linalg.eigh_tridiagonal",
                dtype: dtype(x)?,
                accepted: "real input (Only real arrays currently supported)",
            });
        }
    }
    if d.dim() < 1 || e.dim() < 1 {
        return Err(invalid("expected a 1-D array"));
    }
    let n = d.size()[d.dim() - 1];
    if n != e.size()[e.dim() - 1] + 1 {
        return Err(invalid(format!("d ({n}) must have one more element than e ({})", e.size()[e.dim() - 1])));
    }
    check_finite_if(check, &[d, e])?;
    if n == 1 && d.dim() == 1 && e.dim() == 1 {
        // SciPy's quick exit: the input dtype is kept.
        if let Subset::Value(lo, hi) = subset {
            let d0 = d.f_to_kind(Kind::Double)?.f_double_value(&[0])?;
            if !(lo < d0 && d0 <= hi) {
                let w = Tensor::f_zeros([0i64].as_slice(), (Kind::Double, d.device()))?;
                return Ok((
                    w,
                    if eigvals_only {
                        None
                    } else {
                        Some(d.f_reshape([1i64, 1].as_slice())?.f_narrow(1, 0, 0)?.f_contiguous()?)
                    },
                ));
            }
        }
        let v = d.f_reshape([1i64, 1].as_slice())?.f_ones_like()?;
        return Ok((crate::ops::deep_copy(d)?, if eigvals_only { None } else { Some(v) }));
    }
    let kind = lapack_kind(&[dtype(d)?, dtype(e)?]);
    let batch = broadcast_shapes(&batch_of(d, 1), &batch_of(e, 1))?;
    let d = cast(d, kind)?.f_broadcast_to(concat(&batch, &[n]).as_slice())?;
    let e = cast(e, kind)?.f_broadcast_to(concat(&batch, &[n - 1]).as_slice())?;
    let t = d.f_diag_embed(0, -2, -1)?.f_add(&e.f_diag_embed(1, -2, -1)?)?.f_add(&e.f_diag_embed(-1, -2, -1)?)?;
    eigh(&t, None, true, eigvals_only, 1, subset, false)
}

/// `scipy.linalg.solve_toeplitz`: solves `T x = b` for the Toeplitz matrix
/// with first column `c` and first row `r` (SciPy: Levinson recursion;
/// here LU of the dense matrix, which also handles matrices whose leading
/// minors are singular). float64 or complex128, as SciPy returns.
pub fn solve_toeplitz(c: &Tensor, r: &Tensor, b: &Tensor, check: bool) -> Result<Tensor> {
    let (c, r, b) = (atleast_1d(c)?, atleast_1d(r)?, atleast_1d(b)?);
    check_finite_if(check, &[&c, &r, &b])?;
    let nc = c.size()[c.dim() - 1];
    let nr = r.size()[r.dim() - 1];
    if nr != nc || rows_of(&b) != nr {
        return Err(invalid("Incompatible dimensions."));
    }
    let complex = [&c, &r, &b].iter().any(|t| dtype(t).map(|d| d.is_complex()).unwrap_or(false));
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let (c, r, b) = (cast(&c, kind)?, cast(&r, kind)?, cast(&b, kind)?);
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    let t = toeplitz(&c, Some(&r))?;
    Ok(solve(&t, &b, false, Structure::General, false, false)?.x)
}

/// `scipy.linalg.matmul_toeplitz`: `T @ x` for the Toeplitz matrix with
/// first column `c` and first row `r`, by FFT of the embedding circulant
/// (as SciPy). float64 or complex128.
pub fn matmul_toeplitz(c: &Tensor, r: &Tensor, x: &Tensor, check: bool) -> Result<Tensor> {
    let (c, r, x) = (atleast_1d(c)?, atleast_1d(r)?, atleast_1d(x)?);
    check_finite_if(check, &[&c, &r, &x])?;
    let nc = c.size()[c.dim() - 1];
    let nr = r.size()[r.dim() - 1];
    if rows_of(&x) != nr {
        return Err(invalid("Incompatible dimensions."));
    }
    let complex = [&c, &r, &x].iter().any(|t| dtype(t).map(|d| d.is_complex()).unwrap_or(false));
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let (c, r, x) = (cast(&c, kind)?, cast(&r, kind)?, cast(&x, kind)?);
    let (cols, vector) = as_columns(&x)?;
    let m = cols.size()[cols.dim() - 1];
    let batch = broadcast_shapes(&broadcast_shapes(&batch_of(&c, 1), &batch_of(&r, 1))?, &batch_of(&cols, 2))?;
    let finish = |y: Tensor| -> Result<Tensor> { Ok(if vector { y.f_squeeze_dim(-1)? } else { y }) };
    if cols.numel() == 0 || nc == 0 {
        return finish(Tensor::f_zeros(concat(&batch, &[nc, m]).as_slice(), (kind, x.device()))?);
    }
    let p = nc + nr - 1;
    let tail = r.f_narrow(-1, 1, nr - 1)?.f_flip([-1i64].as_slice())?;
    let c = c.f_broadcast_to(concat(&batch, &[nc]).as_slice())?;
    let tail = tail.f_broadcast_to(concat(&batch, &[nr - 1]).as_slice())?;
    let embedded = Tensor::f_cat(&[c, tail], -1)?.f_unsqueeze(-1)?;
    let y = if complex {
        let fm = embedded.f_fft_fft(p, -2, "backward")?;
        let fx = cols.f_fft_fft(p, -2, "backward")?;
        fm.f_mul(&fx)?.f_fft_ifft(p, -2, "backward")?
    } else {
        let fm = embedded.f_fft_rfft(p, -2, "backward")?;
        let fx = cols.f_fft_rfft(p, -2, "backward")?;
        fm.f_mul(&fx)?.f_fft_irfft(p, -2, "backward")?
    };
    finish(y.f_narrow(-2, 0, nc)?.f_contiguous()?)
}

/// `scipy.linalg.solve_circulant`: solves `C x = b` for the circulant matrix
/// with first column `c`, by FFT, along `caxis` of `c` and `baxis` of `b`,
/// the solution's axis at `outaxis`. Near-singular systems (`|fft(c)| <=
/// tol`, default `max|fft(c)| * N * eps`) raise a LinAlgError unless
/// `least_squares` (SciPy's `singular='lstsq'`).
pub fn solve_circulant(
    c: &Tensor,
    b: &Tensor,
    least_squares: bool,
    tol: Option<f64>,
    caxis: i64,
    baxis: i64,
    outaxis: i64,
) -> Result<Tensor> {
    let (c, b) = (atleast_1d(c)?, atleast_1d(b)?);
    let axis = |t: &Tensor, ax: i64, name: &str| -> Result<i64> {
        let nd = t.dim() as i64;
        if ax < -nd || ax >= nd {
            return Err(invalid(format!("{name} has shape {:?}, so the axis {ax} is out of range", t.size())));
        }
        Ok(if ax < 0 { ax + nd } else { ax })
    };
    let (ca, ba) = (axis(&c, caxis, "c")?, axis(&b, baxis, "b")?);
    let (nc, nb) = (c.size()[ca as usize], b.size()[ba as usize]);
    if nc != nb {
        return Err(invalid(format!("Shapes of c {:?} and b {:?} are incompatible", c.size(), b.size())));
    }
    let complex = dtype(&c)?.is_complex() || dtype(&b)?.is_complex();
    let kind = cdsz_kind(&[dtype(&c)?, dtype(&b)?]);
    let rkind = real_kind(kind);
    if b.numel() == 0 {
        return Ok(cast(&b, if complex { complex_kind(kind) } else { rkind })?.f_zeros_like()?);
    }
    let c = cast(&c, kind)?.f_movedim([ca].as_slice(), [-1i64].as_slice())?;
    let b = cast(&b, kind)?.f_movedim([ba].as_slice(), [-1i64].as_slice())?;
    let fc = c.f_fft_fft(None::<i64>, -1, "backward")?;
    let abs_fc = fc.f_abs()?;
    let tol = match tol {
        Some(t) => Tensor::f_full([1i64].as_slice(), t, (rkind, c.device()))?,
        None => abs_fc.f_amax([-1i64].as_slice(), true)?.f_mul_scalar(nc as f64 * f64::EPSILON)?,
    };
    let near_zero = abs_fc.f_le_tensor(&tol)?;
    let singular = any(&near_zero)?;
    if singular && !least_squares {
        return Err(linalg_error("near singular circulant matrix."));
    }
    let fc = if singular { fc.f_masked_fill(&near_zero, 1.0)? } else { fc };
    let fb = b.f_fft_fft(None::<i64>, -1, "backward")?;
    let mut q = fb.f_div(&fc)?;
    if singular {
        q = q.f_masked_fill(&near_zero.f_broadcast_to(q.size().as_slice())?, 0.0)?;
    }
    let x = q.f_fft_ifft(None::<i64>, -1, "backward")?;
    let x = if complex { x } else { x.f_real()? };
    let nd = x.dim() as i64;
    let out = if outaxis < 0 { outaxis + nd } else { outaxis };
    if out < 0 || out >= nd {
        return Err(invalid(format!("outaxis {outaxis} is out of bounds for the result of dimension {nd}")));
    }
    Ok(x.f_movedim([-1i64].as_slice(), [out].as_slice())?.f_contiguous()?)
}

// ---------------------------------------------------------------------------
// Special matrices of a given order (built on the CPU)
// ---------------------------------------------------------------------------

fn matrix_from(data: Vec<f64>, n: i64, m: i64) -> Result<Tensor> {
    Ok(Tensor::f_from_slice(&data)?.f_reshape([n, m])?)
}

fn check_order(n: i64) -> Result<usize> {
    usize::try_from(n).map_err(|_| invalid(format!("negative dimensions are not allowed (n={n})")))
}

/// `scipy.linalg.hilbert`: the Hilbert matrix `1 / (i + j + 1)`, float64.
pub fn hilbert(n: i64) -> Result<Tensor> {
    let size = check_order(n)?;
    let data = (0..size * size).map(|k| 1.0 / ((k / size + k % size) as f64 + 1.0)).collect();
    matrix_from(data, n, n)
}

/// `scipy.linalg.helmert`: the (full, or without its first row) Helmert
/// matrix of order `n`, float64.
pub fn helmert(n: i64, full: bool) -> Result<Tensor> {
    let size = check_order(n)?;
    let mut data = vec![0.0; size * size];
    for i in 0..size {
        let d = if i == 0 { size as f64 } else { (i * (i + 1)) as f64 };
        let scale = d.sqrt();
        for j in 0..size {
            let h = if i == 0 || j < i {
                1.0
            } else if j == i {
                -(i as f64)
            } else {
                0.0
            };
            data[i * size + j] = h / scale;
        }
    }
    let h = matrix_from(data, n, n)?;
    if full || n == 0 {
        Ok(h)
    } else {
        Ok(h.f_narrow(0, 1, n - 1)?.f_contiguous()?)
    }
}

/// `scipy.linalg.dft`: the `n`-point DFT matrix `exp(-2 pi i jk / n)`
/// (angles reduced mod `n` exactly, so large `n` keeps full accuracy),
/// complex128, divided by `sqrt(n)` or `n` as `scale` asks.
pub fn dft(n: i64, scale: Option<&str>) -> Result<Tensor> {
    let size = check_order(n)?;
    let divisor = match scale {
        None => 1.0,
        Some("sqrtn") => (n as f64).sqrt(),
        Some("n") => n as f64,
        Some(other) => return Err(invalid(format!("scale must be None, 'sqrtn', or 'n'; '{other}' is not valid."))),
    };
    let mut re = Vec::with_capacity(size * size);
    let mut im = Vec::with_capacity(size * size);
    for j in 0..size {
        for k in 0..size {
            let angle = -2.0 * std::f64::consts::PI * ((j * k) % size.max(1)) as f64 / n as f64;
            re.push(angle.cos() / divisor);
            im.push(angle.sin() / divisor);
        }
    }
    Ok(Tensor::f_complex(&matrix_from(re, n, n)?, &matrix_from(im, n, n)?)?)
}

/// `scipy.linalg.hadamard`: the Sylvester Hadamard matrix of order `n` (a
/// power of 2), int64.
pub fn hadamard(n: i64) -> Result<Tensor> {
    if n < 1 || (n & (n - 1)) != 0 {
        return Err(invalid("n must be an positive integer, and n must be a power of 2"));
    }
    let size = n as usize;
    let data: Vec<i64> =
        (0..size * size).map(|k| if ((k / size) & (k % size)).count_ones() % 2 == 0 { 1 } else { -1 }).collect();
    Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?)
}

/// Exact binomial coefficient, `None` on overflow.
fn binomial_exact(n: i64, k: i64) -> Option<i128> {
    if k < 0 || n < 0 || k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: i128 = 1;
    for i in 1..=k as i128 {
        r = r.checked_mul(n as i128 - k as i128 + i)? / i;
    }
    Some(r)
}

/// Binomial coefficient in floating point (exact while it fits 2^53).
fn binomial_float(n: i64, k: i64) -> f64 {
    match binomial_exact(n, k) {
        Some(v) => v as f64,
        None => {
            let k = k.min(n - k);
            let mut r = 1.0f64;
            for i in 1..=k {
                r = r * (n - k + i) as f64 / i as f64;
            }
            r.round()
        }
    }
}

/// `scipy.linalg.invhilbert`: the inverse of the Hilbert matrix of order
/// `n`, float64, or int64 with `exact` (SciPy returns Python objects beyond
/// `n = 14`; that is not implemented). The float64 entries are the exact
/// integers rounded once (SciPy's floating-point `comb` products differ in
/// the last digits).
pub fn invhilbert(n: i64, exact: bool) -> Result<Tensor> {
    let size = check_order(n)?;
    if exact && n > 14 {
        return Err(not_implemented(
            "invhilbert(n, exact=True) for n > 14 (SciPy returns an object array of Python ints)",
        ));
    }
    let entry = |i: i64, j: i64| -> Option<i128> {
        let s = i + j;
        let sign: i128 = if s % 2 == 0 { 1 } else { -1 };
        let c = binomial_exact(s, i)?;
        sign.checked_mul((s + 1) as i128)?
            .checked_mul(binomial_exact(n + i, n - j - 1)?)?
            .checked_mul(binomial_exact(n + j, n - i - 1)?)?
            .checked_mul(c.checked_mul(c)?)
    };
    if exact {
        let mut data = vec![0i64; size * size];
        for i in 0..n {
            for j in 0..n {
                let v = entry(i, j).ok_or_else(|| not_implemented("invhilbert: entry overflows int64"))?;
                data[(i * n + j) as usize] =
                    i64::try_from(v).map_err(|_| not_implemented("invhilbert: entry overflows int64"))?;
            }
        }
        return Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?);
    }
    let mut data = vec![0f64; size * size];
    for i in 0..n {
        for j in 0..n {
            data[(i * n + j) as usize] = match entry(i, j) {
                Some(v) => v as f64,
                None => {
                    let s = i + j;
                    let sign = if s % 2 == 0 { 1.0 } else { -1.0 };
                    let c = binomial_float(s, i);
                    sign * (s + 1) as f64 * binomial_float(n + i, n - j - 1) * binomial_float(n + j, n - i - 1) * c * c
                }
            };
        }
    }
    matrix_from(data, n, n)
}

/// Which Pascal matrix: `'symmetric'`, `'lower'` or `'upper'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PascalKind {
    /// `C(i + j, i)`
    Symmetric,
    /// `C(i, j)`
    Lower,
    /// `C(j, i)`
    Upper,
}

/// `scipy.linalg.pascal`: with `exact` (`n < 35`; SciPy returns Python
/// objects beyond, not implemented) the bit patterns of SciPy's uint64
/// values in an int64 tensor (`tch::Kind` cannot name uint64: view it as
/// uint64), float64 otherwise.
pub fn pascal(n: i64, kind: PascalKind, exact: bool) -> Result<Tensor> {
    let size = check_order(n)?;
    if exact && n >= 35 {
        return Err(not_implemented(
            "pascal(n, exact=True) for n >= 35 (SciPy returns an object array of Python ints)",
        ));
    }
    let value = |i: i64, j: i64| match kind {
        PascalKind::Symmetric => (i + j, i),
        PascalKind::Lower => (i, j),
        PascalKind::Upper => (j, i),
    };
    if exact {
        let mut data = vec![0i64; size * size];
        for i in 0..n {
            for j in 0..n {
                let (a, b) = value(i, j);
                let v = binomial_exact(a, b).ok_or_else(|| not_implemented("pascal: entry overflows"))?;
                // bit pattern of the uint64 value (C(68, 34) < 2^64)
                data[(i * n + j) as usize] = v as u64 as i64;
            }
        }
        return Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?);
    }
    let mut data = vec![0f64; size * size];
    for i in 0..n {
        for j in 0..n {
            let (a, b) = value(i, j);
            data[(i * n + j) as usize] = binomial_float(a, b);
        }
    }
    matrix_from(data, n, n)
}

/// `scipy.linalg.invpascal`: the inverse of [`pascal`], int64 with `exact`
/// (`n <= 34`), float64 otherwise.
pub fn invpascal(n: i64, kind: PascalKind, exact: bool) -> Result<Tensor> {
    let size = check_order(n)?;
    if exact && n > 34 {
        return Err(not_implemented(
            "invpascal(n, exact=True) for n > 34 (SciPy returns an object array of Python ints)",
        ));
    }
    let entry = |i: i64, j: i64| -> Option<i128> {
        let sign: i128 = if (i - j).rem_euclid(2) == 0 { 1 } else { -1 };
        match kind {
            PascalKind::Lower => Some(sign * binomial_exact(i, j)?),
            PascalKind::Upper => Some(sign * binomial_exact(j, i)?),
            PascalKind::Symmetric => {
                let (i, j) = if j > i { (j, i) } else { (i, j) };
                let mut v: i128 = 0;
                for k in 0..(n - i) {
                    v = v.checked_add(binomial_exact(i + k, k)?.checked_mul(binomial_exact(i + k, i + k - j)?)?)?;
                }
                Some(sign * v)
            }
        }
    };
    if exact {
        let mut data = vec![0i64; size * size];
        for i in 0..n {
            for j in 0..n {
                let v = entry(i, j).ok_or_else(|| not_implemented("invpascal: entry overflows int64"))?;
                data[(i * n + j) as usize] =
                    i64::try_from(v).map_err(|_| not_implemented("invpascal: entry overflows int64"))?;
            }
        }
        return Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?);
    }
    let mut data = vec![0f64; size * size];
    for i in 0..n {
        for j in 0..n {
            data[(i * n + j) as usize] = match entry(i, j) {
                Some(v) => v as f64,
                None => return Err(not_implemented("invpascal: entries beyond 2^127 are not implemented")),
            };
        }
    }
    matrix_from(data, n, n)
}

// ---------------------------------------------------------------------------
// matrix_balance: LAPACK's ?gebal (3.12), ported
// ---------------------------------------------------------------------------

/// The result of [`matrix_balance`].
pub struct Balanced {
    /// The balanced matrix.
    pub b: Tensor,
    /// Scaling factors (float64).
    pub scaling: Tensor,
    /// The permutation (int64).
    pub perm: Tensor,
    /// `diag(scaling)[inverse perm, :]` (float64), SciPy's second result.
    pub t: Tensor,
}

/// `?gebal` on a dense row-major `n x n` matrix of `(re, im)` entries, in
/// place. Returns `(ilo, ihi, scale)` with LAPACK's 1-based `ilo`/`ihi` and
/// `scale` holding 1-based permutation indices outside `ilo..=ihi`.
fn gebal(a: &mut [[f64; 2]], n: usize, permute: bool, scale: bool, single: bool) -> Result<(usize, usize, Vec<f64>)> {
    let idx = |i: usize, j: usize| (i - 1) * n + (j - 1); // 1-based (row, col)
    let nonzero = |v: [f64; 2]| v[0] != 0.0 || v[1] != 0.0;
    let modulus = |v: [f64; 2]| v[0].hypot(v[1]);
    let cabs1 = |v: [f64; 2]| v[0].abs() + v[1].abs();
    let mut sc = vec![1.0f64; n + 1]; // 1-based
    if n == 0 {
        return Ok((1, 0, vec![]));
    }
    if !permute && !scale {
        return Ok((1, n, vec![1.0; n]));
    }
    let swap_cols = |a: &mut [[f64; 2]], c1: usize, c2: usize, rows: usize| {
        for r in 1..=rows {
            a.swap(idx(r, c1), idx(r, c2));
        }
    };
    let swap_rows = |a: &mut [[f64; 2]], r1: usize, r2: usize, from: usize| {
        for c in from..=n {
            a.swap(idx(r1, c), idx(r2, c));
        }
    };
    let mut k = 1usize;
    let mut l = n;
    if permute {
        let mut noconv = true;
        while noconv {
            noconv = false;
            let mut i = l;
            let start_l = l;
            let _ = start_l;
            while i >= 1 {
                let mut canswap = true;
                for j in 1..=l {
                    if i != j && nonzero(a[idx(i, j)]) {
                        canswap = false;
                        break;
                    }
                }
                if canswap {
                    sc[l] = i as f64;
                    if i != l {
                        swap_cols(a, i, l, l);
                        swap_rows(a, i, l, k);
                    }
                    noconv = true;
                    if l == 1 {
                        let mut out = sc[1..].to_vec();
                        out.truncate(n);
                        return Ok((1, 1, out));
                    }
                    l -= 1;
                }
                i -= 1;
            }
        }
        let mut noconv = true;
        while noconv {
            noconv = false;
            let mut j = k;
            let l_fixed = l;
            while j <= l_fixed {
                let mut canswap = true;
                for i in k..=l {
                    if i != j && nonzero(a[idx(i, j)]) {
                        canswap = false;
                        break;
                    }
                }
                if canswap {
                    sc[k] = j as f64;
                    if j != k {
                        swap_cols(a, j, k, l);
                        swap_rows(a, j, k, k);
                    }
                    noconv = true;
                    k += 1;
                }
                j += 1;
            }
        }
    }
    for s in sc.iter_mut().take(l + 1).skip(k) {
        *s = 1.0;
    }
    if !scale {
        return Ok((k, l, sc[1..].to_vec()));
    }
    let sclfac = 2.0f64;
    let factor = 0.95f64;
    let (safe_min, precision) = if single {
        (f64::from(f32::MIN_POSITIVE), f64::from(f32::EPSILON))
    } else {
        (f64::MIN_POSITIVE, f64::EPSILON)
    };
    let sfmin1 = safe_min / precision;
    let sfmax1 = 1.0 / sfmin1;
    let sfmin2 = sfmin1 * sclfac;
    let sfmax2 = 1.0 / sfmin2;
    let mut noconv = true;
    while noconv {
        noconv = false;
        for i in k..=l {
            let mut c = (k..=l).map(|r| modulus(a[idx(r, i)]).powi(2)).sum::<f64>().sqrt();
            let mut r = (k..=l).map(|col| modulus(a[idx(i, col)]).powi(2)).sum::<f64>().sqrt();
            let ica = (1..=l).fold((1, -1.0), |best, row| {
                let v = cabs1(a[idx(row, i)]);
                if v > best.1 {
                    (row, v)
                } else {
                    best
                }
            });
            let mut ca = modulus(a[idx(ica.0, i)]);
            let ira = (k..=n).fold((k, -1.0), |best, col| {
                let v = cabs1(a[idx(i, col)]);
                if v > best.1 {
                    (col, v)
                } else {
                    best
                }
            });
            let mut ra = modulus(a[idx(i, ira.0)]);
            if c == 0.0 || r == 0.0 {
                continue;
            }
            if (c + ca + r + ra).is_nan() {
                return Err(invalid("xGEBAL exited with the internal error \"illegal value in argument number 3.\""));
            }
            let mut g = r / sclfac;
            let mut f = 1.0f64;
            let s = c + r;
            while c < g && f.max(c).max(ca) < sfmax2 && r.min(g).min(ra) > sfmin2 {
                f *= sclfac;
                c *= sclfac;
                ca *= sclfac;
                r /= sclfac;
                g /= sclfac;
                ra /= sclfac;
            }
            g = c / sclfac;
            while g >= r && r.max(ra) < sfmax2 && f.min(c).min(g).min(ca) > sfmin2 {
                f /= sclfac;
                c /= sclfac;
                g /= sclfac;
                ca /= sclfac;
                r *= sclfac;
                ra *= sclfac;
            }
            if c + r >= factor * s {
                continue;
            }
            if f < 1.0 && sc[i] < 1.0 && f * sc[i] <= sfmin1 {
                continue;
            }
            if f > 1.0 && sc[i] > 1.0 && sc[i] >= sfmax1 / f {
                continue;
            }
            let g = 1.0 / f;
            sc[i] *= f;
            noconv = true;
            for col in k..=n {
                let v = &mut a[idx(i, col)];
                v[0] *= g;
                v[1] *= g;
            }
            for row in 1..=l {
                let v = &mut a[idx(row, i)];
                v[0] *= f;
                v[1] *= f;
            }
        }
    }
    Ok((k, l, sc[1..].to_vec()))
}

/// `scipy.linalg.matrix_balance`: LAPACK's `?gebal` (version 3.12, ported:
/// libtorch has no kernel for it; it runs on the host, a sequential
/// algorithm on a copy of `a`). Returns the balanced matrix, the scaling
/// and permutation, and SciPy's `T` with `B = T^-1 A T`.
pub fn matrix_balance(a: &Tensor, permute: bool, scale: bool) -> Result<Balanced> {
    let a = atleast_2d(a)?;
    check_finite(&a)?;
    let (m, n) = matrix_dims("matrix_balance", &a)?;
    if a.dim() != 2 {
        return Err(not_implemented("matrix_balance of a stack of matrices"));
    }
    if m != n {
        return Err(invalid("The data matrix for balancing should be square."));
    }
    let kind = lapack_kind(&[dtype(&a)?]);
    let complex = is_complex_kind(kind);
    let device = a.device();
    let a = cast(&a, kind)?;
    let size = n as usize;
    let host = a.f_to_kind(Kind::ComplexDouble)?.f_to(Device::Cpu)?.f_contiguous()?;
    let pairs = host.f_view_as_real()?.f_reshape([-1i64].as_slice())?;
    let mut flat = vec![0f64; 2 * size * size];
    pairs.f_copy_data(&mut flat, 2 * size * size)?;
    let mut work: Vec<[f64; 2]> = flat.chunks(2).map(|p| [p[0], p[1]]).collect();
    let (lo, hi, ps) = gebal(&mut work, size, permute, scale, matches!(kind, Kind::Float | Kind::ComplexFloat))?;
    // SciPy's post-processing (0-based lo/hi)
    let (lo, hi) = (lo as i64 - 1, hi as i64 - 1);
    let mut scaling = vec![1.0f64; size];
    for i in 0..size {
        if (i as i64) >= lo && (i as i64) <= hi {
            scaling[i] = ps[i];
        }
    }
    let psi: Vec<i64> = ps.iter().map(|&p| p as i64 - 1).collect();
    let mut perm: Vec<i64> = (0..n).collect();
    if hi < n {
        let tail: Vec<i64> = psi[(hi + 1) as usize..].iter().rev().copied().collect();
        for (ind, &x) in tail.iter().enumerate() {
            let ind = ind as i64 + 1;
            if n - ind == x {
                continue;
            }
            perm.swap(x as usize, (n - ind) as usize);
        }
    }
    if lo > 0 {
        for (ind, &x) in psi[..lo as usize].iter().enumerate() {
            if ind as i64 == x {
                continue;
            }
            perm.swap(x as usize, ind);
        }
    }
    let mut iperm = vec![0i64; size];
    for (i, &p) in perm.iter().enumerate() {
        iperm[p as usize] = i as i64;
    }
    let mut t = vec![0f64; size * size];
    for (row, &p) in iperm.iter().enumerate() {
        t[row * size + p as usize] = scaling[p as usize];
    }
    let re: Vec<f64> = work.iter().map(|v| v[0]).collect();
    let b_re = Tensor::f_from_slice(&re)?.f_reshape([n, n])?;
    let b = if complex {
        let im: Vec<f64> = work.iter().map(|v| v[1]).collect();
        Tensor::f_complex(&b_re, &Tensor::f_from_slice(&im)?.f_reshape([n, n])?)?
    } else {
        b_re
    };
    Ok(Balanced {
        b: b.f_to_kind(kind)?.f_to(device)?,
        scaling: Tensor::f_from_slice(&scaling)?.f_to(device)?,
        perm: Tensor::f_from_slice(&perm)?.f_to(device)?,
        t: matrix_from(t, n, n)?.f_to(device)?,
    })
}
