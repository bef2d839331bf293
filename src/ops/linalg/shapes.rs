//! Shape helpers shared by the linear-algebra seams: core and batch
//! dimensions, triangles, right-hand sides, band storage, index grids.

use tch::{Device, Kind, Tensor};

use super::dtypes::*;
use super::{invalid, not_implemented};
use crate::error::try_vec;
use crate::ops::dtype;
use crate::{Error, Result};

pub(crate) fn concat(a: &[i64], b: &[i64]) -> Vec<i64> {
    a.iter().chain(b).copied().collect()
}

pub(crate) fn batch_of(x: &Tensor, core: usize) -> Vec<i64> {
    let s = x.size();
    s[..s.len().saturating_sub(core)].to_vec()
}

/// The square size `n` of `(..., n, n)` input, or SciPy's ValueError.
pub(crate) fn square(routine: &str, a: &Tensor) -> Result<i64> {
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

pub(crate) fn matrix_dims(routine: &str, a: &Tensor) -> Result<(i64, i64)> {
    let s = a.size();
    if s.len() < 2 {
        return Err(invalid(format!("{routine}: expected a 2-D array (or a stack of them), got shape {s:?}")));
    }
    Ok((s[s.len() - 2], s[s.len() - 1]))
}

/// Conjugate transpose of the last two dimensions.
pub(crate) fn mh(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_mt()?.f_conj()?)
}

pub(crate) fn eye(n: i64, kind: Kind, device: Device) -> Result<Tensor> {
    Ok(Tensor::f_eye(n, (kind, device))?)
}

pub(crate) fn any(x: &Tensor) -> Result<bool> {
    if x.numel() == 0 {
        return Ok(false);
    }
    Ok(x.f_any()?.f_int64_value(&[])? != 0)
}

/// The full symmetric (Hermitian when `hermitian` and complex) matrix whose
/// lower (`lower`) or upper triangle is that of `a`; the other triangle of `a`
/// is never read, as LAPACK's `?sy*`/`?he*`/`?po*` routines do not read it.
pub(crate) fn from_triangle(a: &Tensor, lower: bool, hermitian: bool) -> Result<Tensor> {
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
pub(crate) fn atleast_2d(x: &Tensor) -> Result<Tensor> {
    Ok(match x.dim() {
        0 => x.f_reshape([1, 1])?,
        1 => x.f_unsqueeze(0)?,
        _ => x.shallow_clone(),
    })
}

pub(crate) fn atleast_1d(x: &Tensor) -> Result<Tensor> {
    Ok(if x.dim() == 0 { x.f_reshape([1])? } else { x.shallow_clone() })
}

/// The 1-norm (largest absolute column sum) of each matrix in a batch.
pub(crate) fn norm1(a: &Tensor) -> Result<Tensor> {
    let sums = a.f_abs()?.f_sum_dim_intlist([-2i64].as_slice(), false, None::<Kind>)?;
    Ok(sums.f_amax([-1i64].as_slice(), false)?)
}

/// The first positive entry of a LAPACK-style `info` tensor, if any.
pub(crate) fn first_positive(info: &Tensor) -> Result<Option<i64>> {
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
pub(crate) fn common_count(counts: &Tensor, what: &str) -> Result<i64> {
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

/// Splits a right-hand side into `(..., N, K)` form, remembering a 1-D one.
pub(crate) fn as_columns(b: &Tensor) -> Result<(Tensor, bool)> {
    if b.dim() == 1 {
        Ok((b.f_unsqueeze(-1)?, true))
    } else {
        Ok((b.shallow_clone(), false))
    }
}

pub(crate) fn rows_of(b: &Tensor) -> i64 {
    let s = b.size();
    if s.len() == 1 {
        s[0]
    } else {
        s[s.len() - 2]
    }
}

/// Applies a bit-preserving rearrangement `f` to `x`, through its signed
/// twin for uint16/32/64.
pub(crate) fn rearrange(x: &Tensor, f: impl Fn(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    match signed_twin(dtype(x)?) {
        Some(kind) => Ok(f(&x.f_view_dtype(kind)?)?.f_type_as(x)?),
        None => f(x),
    }
}

/// Checks that an array of `shape` with `itemsize`-byte elements can exist
/// before anything allocates it: negative dimensions are NumPy's ValueError,
/// a size beyond what an address space holds (or than a `Vec`/libtorch size
/// can count) is [`Error::OutOfMemory`], as NumPy raises `MemoryError`.
pub(crate) fn check_alloc(shape: &[i64], itemsize: usize, what: &str) -> Result<()> {
    if let Some(&d) = shape.iter().find(|&&d| d < 0) {
        return Err(invalid(format!("negative dimensions are not allowed (got {d} for {what})")));
    }
    let bytes = shape.iter().try_fold(itemsize as u128, |acc, &d| acc.checked_mul(d as u128)).unwrap_or(u128::MAX);
    if bytes > isize::MAX as u128 {
        return Err(Error::out_of_memory(bytes, what));
    }
    Ok(())
}

/// `a + b` for sizes taken from the caller, [`Error::OutOfMemory`] on overflow.
pub(crate) fn add_sizes(a: i64, b: i64, what: &str) -> Result<i64> {
    a.checked_add(b).ok_or_else(|| Error::out_of_memory(a as u128 + b as u128, what))
}

/// The `rows x cols` int64 index tensor of `f(i, j)`, on `device`.
///
/// Built on the host (one small copy beats the half-dozen libtorch calls an
/// index expression costs at the sizes these constructors see), after the
/// size is checked and the buffer reserved fallibly: a size the caller makes
/// too large is [`Error::OutOfMemory`], never an abort.
pub(crate) fn index_grid(rows: i64, cols: i64, device: Device, f: impl Fn(i64, i64) -> i64) -> Result<Tensor> {
    check_alloc(&[rows, cols], 8, "an index grid")?;
    // check_alloc bounds rows * cols * 8 by isize::MAX, so the product fits.
    let mut data = try_vec::<i64>((rows * cols) as usize, "an index grid")?;
    for i in 0..rows {
        data.extend((0..cols).map(|j| f(i, j)));
    }
    Ok(Tensor::f_from_slice(&data)?.f_reshape([rows, cols].as_slice())?.f_to(device)?)
}

/// Gathers `vals[..., idx]` for a `(rows, cols)` index grid.
pub(crate) fn take_grid(vals: &Tensor, idx: &Tensor) -> Result<Tensor> {
    let (rows, cols) = (idx.size()[0], idx.size()[1]);
    let batch = batch_of(vals, 1);
    check_alloc(&concat(&batch, &[rows, cols]), dtype(vals)?.itemsize(), "the matrix")?;
    let flat = vals.f_index_select(-1, &idx.f_reshape([-1i64].as_slice())?)?;
    Ok(flat.f_reshape(concat(&batch, &[rows, cols]).as_slice())?)
}

/// Zeros of `proto`'s dtype and device in `shape` (works for dtypes without a
/// `tch::Kind`, as long as `proto` is not empty).
pub(crate) fn zeros_as(proto: &Tensor, shape: &[i64]) -> Result<Tensor> {
    check_alloc(shape, dtype(proto)?.itemsize(), "the matrix")?;
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

/// The dense `(..., N, N)` matrix of LAPACK band storage `ab`
/// (`ab[u + i - j, j] = A[i, j]`, `l` sub- and `u` superdiagonals).
pub(crate) fn band_to_dense(ab: &Tensor, l: i64, u: i64) -> Result<Tensor> {
    let n = ab.size()[ab.dim() - 1];
    let batch = batch_of(ab, 2);
    check_alloc(&concat(&batch, &[n, n]), dtype(ab)?.itemsize(), "the dense banded matrix")?;
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

/// The Hermitian matrix of symmetric band storage `ab` (`lower`: `ab[i - j,
/// j] = A[i, j]`; upper: `ab[u + i - j, j] = A[i, j]`).
pub(crate) fn hermitian_band_to_dense(ab: &Tensor, lower: bool) -> Result<Tensor> {
    let u = ab.size()[ab.dim() - 2] - 1;
    let half = if lower { band_to_dense(ab, u, 0)? } else { band_to_dense(ab, 0, u)? };
    from_triangle(&half, lower, true)
}

/// The `n x m` float64 matrix of row-major `data` (host memory).
pub(crate) fn matrix_from(data: Vec<f64>, n: i64, m: i64) -> Result<Tensor> {
    Ok(Tensor::f_from_slice(&data)?.f_reshape([n, m])?)
}

/// `len` copies of `value` in a fallibly reserved `Vec` (see [`try_vec`]).
pub(crate) fn filled<T: Clone>(len: usize, value: T, what: &str) -> Result<Vec<T>> {
    let mut buffer = try_vec(len, what)?;
    buffer.resize(len, value);
    Ok(buffer)
}
