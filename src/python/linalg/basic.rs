//! `scipy.linalg._basic`: linear systems (general, triangular, banded,
//! Hermitian banded, Toeplitz, circulant), `inv`, `det`, `lstsq`, the
//! pseudo-inverses and `matrix_balance`, one `#[pyfunction]` each with
//! SciPy's signature. `solve` and `inv` warn `LinAlgWarning` for an
//! ill-conditioned matrix, as SciPy's do; batches return lists where SciPy's
//! `_apply_over_batch` does.

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyTuple};
use tch::Tensor;

use super::super::container::{compute, import_all, wrap, Library};
use super::super::placement::on_device;
use super::{batched, import1, import2, min_rcond, rhs_core, sequence, unpack2, warn_ill_conditioned, Device};
use crate::ops::linalg::{self as ops, CheckFinite, LstsqDriver, Structure, Trans};
use crate::Error;

/// Solve the equation ``a @ x = b`` for ``x``, where `a` is a square matrix.
///
/// Solve ``a @ x = b`` for square ``a`` (``scipy.linalg.solve``).
///
/// ``assume_a``: ``None`` (general), ``'general'``/``'gen'`` (LU),
/// ``'diagonal'``, ``'tridiagonal'`` (only the three central diagonals are
/// read), ``'banded'``, ``'upper triangular'``, ``'lower triangular'``,
/// ``'symmetric'``/``'sym'`` and ``'hermitian'``/``'her'`` (Bunch-Kaufman
/// LDL, one triangle read), ``'positive definite'``/``'pos'`` (Cholesky, one
/// triangle read). ``a`` is ``(..., N, N)``; ``b`` is ``(N,)`` (broadcast to
/// every matrix) or ``(..., N, K)``. Exactly singular input raises
/// ``LinAlgError``; an estimated reciprocal condition number below the
/// dtype's eps warns ``LinAlgWarning``. Unlike SciPy, ``'banded'`` also
/// accepts batches.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, lower = false, overwrite_a = false, overwrite_b = false, check_finite = true, assume_a = None, transposed = false, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn solve(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    lower: bool,
    overwrite_a: bool,
    overwrite_b: bool,
    check_finite: bool,
    assume_a: Option<&str>,
    transposed: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, overwrite_b); // performance hints
    let options = ops::SolveOptions {
        lower,
        assume_a: Structure::from_scipy(assume_a)?,
        transposed,
        check_finite: CheckFinite::from_flag(check_finite),
    };
    on_device(device, || {
        let (a, b, library) = import2(a, b)?;
        let (x, rcond) = compute(py, a.numel() + b.numel(), move || {
            let solved = ops::solve(&a, &b, &options)?;
            Ok((solved.x, min_rcond(&solved.rcond)?))
        })?;
        warn_ill_conditioned(py, rcond, &x)?;
        wrap(py, &library, x, false)
    })
}

/// SciPy's `trans`: 0/'N', 1/'T', 2/'C' (any value equal to one of them, as
/// SciPy's dictionary lookup finds it).
struct TransArg(Trans);

impl<'a, 'py> FromPyObject<'a, 'py> for TransArg {
    type Error = PyErr;

    fn extract(trans: Borrowed<'a, 'py, PyAny>) -> PyResult<TransArg> {
        let parsed = if let Ok(code) = trans.extract::<String>() {
            code.parse().ok()
        } else if let Ok(code) = trans.extract::<i64>() {
            Trans::from_code(code).ok()
        } else if let Ok(code) = trans.extract::<f64>() {
            [Trans::N, Trans::T, Trans::C].into_iter().find(|t| *t as i64 as f64 == code)
        } else {
            None
        };
        match parsed {
            Some(trans) => Ok(TransArg(trans)),
            None => Err(Error::InvalidArgument(format!(
                "trans must be one of 0, 1, 2, 'N', 'T', 'C'; got {}",
                trans.repr()?
            ))
            .into()),
        }
    }
}

/// Solve the equation ``a @ x = b`` for ``x``, where `a` is a triangular matrix.
///
/// Solve ``a x = b`` with triangular ``a`` (``scipy.linalg.solve_triangular``).
///
/// ``trans``: 0/'N' (``a x = b``), 1/'T' (``a^T x = b``), 2/'C' (``a^H x = b``).
/// Only the ``lower`` (or upper) triangle is read; ``unit_diagonal`` takes
/// the diagonal as ones. A zero on the diagonal raises ``LinAlgError``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, trans = TransArg(Trans::N), lower = false, unit_diagonal = false, overwrite_b = false, check_finite = true, *, device = None))]
#[pyo3(
    text_signature = "(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True, *, device=None)"
)]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn solve_triangular(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    trans: TransArg,
    lower: bool,
    unit_diagonal: bool,
    overwrite_b: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_b; // a performance hint
    let options = ops::SolveTriangularOptions {
        trans: trans.0,
        lower,
        unit_diagonal,
        check_finite: CheckFinite::from_flag(check_finite),
    };
    on_device(device, || {
        let (a, b, library) = import2(a, b)?;
        batched("solve_triangular", &[(Some(&a), 2), (Some(&b), rhs_core(&b))])?;
        let x = compute(py, a.numel() + b.numel(), move || ops::solve_triangular(&a, &b, &options))?;
        wrap(py, &library, x, false)
    })
}

/// Compute the inverse of a matrix.
///
/// The inverse of square matrices ``(..., N, N)`` (``scipy.linalg.inv``).
///
/// ``assume_a`` as SciPy's: ``None``/``'general'``/``'gen'``, ``'diagonal'``,
/// ``'upper triangular'``, ``'lower triangular'``, ``'pos'`` (Cholesky),
/// ``'sym'``, ``'her'`` (``lower`` picks the triangle read by the last three).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, overwrite_a = false, check_finite = true, *, assume_a = None, lower = false, device = None))]
fn inv(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    overwrite_a: bool,
    check_finite: bool,
    assume_a: Option<&Bound<'_, PyAny>>,
    lower: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    let structure = match assume_a.filter(|s| !s.is_none()) {
        None => Structure::Auto,
        Some(name) => {
            // SciPy looks the name up in a dict: unknown (hashable) names raise KeyError(name).
            name.hash()?;
            match name.extract::<String>().as_deref() {
                Ok(
                    text @ ("general" | "gen" | "diagonal" | "upper triangular" | "lower triangular" | "pos" | "sym"
                    | "her"),
                ) => Structure::from_scipy(Some(text))?,
                _ => return Err(PyKeyError::new_err(name.clone().unbind())),
            }
        }
    };
    let options = ops::InvOptions { assume_a: structure, lower, check_finite: CheckFinite::from_flag(check_finite) };
    on_device(device, || {
        let (a, library) = import1(a)?;
        let (x, rcond) = compute(py, a.numel(), move || {
            let solved = ops::inv(&a, &options)?;
            Ok((solved.x, min_rcond(&solved.rcond)?))
        })?;
        warn_ill_conditioned(py, rcond, &x)?;
        wrap(py, &library, x, false)
    })
}

/// Compute the determinant of a matrix
///
/// Determinant of square matrices ``(..., N, N)`` (``scipy.linalg.det``).
///
/// float64 (complex128 for complex input) always, a numpy scalar for one
/// numpy matrix, as SciPy returns it.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, overwrite_a = false, check_finite = true, *, device = None))]
fn det(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    overwrite_a: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    let check = CheckFinite::from_flag(check_finite);
    on_device(device, || {
        let (a, library) = import1(a)?;
        let d = compute(py, a.numel(), move || ops::det(&a, check))?;
        wrap(py, &library, d, true)
    })
}

/// A 0-d integer tensor as a Python int.
fn int_of(t: &Tensor) -> PyResult<i64> {
    Ok(t.f_int64_value(&[]).map_err(Error::from)?)
}

/// Compute least-squares solution to the equation ``a @ x = b``.
///
/// Least-squares solution of ``a @ x = b`` (``scipy.linalg.lstsq``).
///
/// Returns ``(x, residues, rank, s)``. ``lapack_driver``: ``None`` (gelsd),
/// ``'gelsd'``, ``'gelss'``, ``'gelsy'`` (``s`` is then ``None``); on CUDA an
/// SVD composite computes what gelsd computes.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, cond = None, overwrite_a = false, overwrite_b = false, check_finite = true, lapack_driver = None, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn lstsq(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    cond: Option<f64>,
    overwrite_a: bool,
    overwrite_b: bool,
    check_finite: bool,
    lapack_driver: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, overwrite_b); // performance hints
    let driver: LstsqDriver = match lapack_driver.filter(|d| !d.is_none()) {
        None => LstsqDriver::Gelsd,
        Some(name) => match name.extract::<String>() {
            Ok(text) => text.parse()?,
            Err(_) => {
                return Err(Error::InvalidArgument(format!("LAPACK driver \"{}\" is not found", name.str()?)).into())
            }
        },
    };
    let options = ops::LstsqOptions { cond, lapack_driver: driver, check_finite: CheckFinite::from_flag(check_finite) };
    on_device(device, || {
        let (a, b, library) = import2(a, b)?;
        let list = batched("lstsq", &[(Some(&a), 2), (Some(&b), rhs_core(&b))])?;
        if a.dim() != 2 && !list {
            return Err(Error::InvalidArgument("Input array a should be 2D".into()).into());
        }
        let result = compute(py, a.numel() + b.numel(), move || ops::lstsq(&a, &b, &options))?;
        let s = match result.s {
            Some(s) => wrap(py, &library, s, false)?,
            None => py.None(),
        };
        let rank = if list {
            wrap(py, &library, result.rank, false)?
        } else {
            PyInt::new(py, int_of(&result.rank)?).into_any().unbind()
        };
        let x = wrap(py, &library, result.x, false)?;
        let residues = wrap(py, &library, result.residues, true)?;
        sequence(py, vec![x, residues, rank, s], list)
    })
}

/// Compute the (Moore-Penrose) pseudo-inverse of a matrix.
///
/// Moore-Penrose pseudo-inverse (``scipy.linalg.pinv``), from the SVD;
/// singular values at or below ``atol + rtol * max(s)`` are dropped.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, *, atol = None, rtol = None, return_rank = false, check_finite = true, device = None))]
fn pinv(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    atol: Option<f64>,
    rtol: Option<f64>,
    return_rank: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let options = ops::PinvOptions { atol, rtol, check_finite: CheckFinite::from_flag(check_finite) };
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("pinv", &[(Some(&a), 2)])?;
        let ops::Pinv { b, rank } = compute(py, a.numel(), move || ops::pinv(&a, &options))?;
        let b = wrap(py, &library, b, false)?;
        if !return_rank {
            return Ok(b);
        }
        // (one matrix: the rank is a numpy integer scalar, as SciPy's)
        sequence(py, vec![b, wrap(py, &library, rank, true)?], list)
    })
}

/// Compute the (Moore-Penrose) pseudo-inverse of a Hermitian matrix.
///
/// Pseudo-inverse of a Hermitian matrix (``scipy.linalg.pinvh``), from its
/// eigendecomposition (``lower`` or upper triangle read).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, atol = None, rtol = None, lower = true, return_rank = false, check_finite = true, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn pinvh(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    atol: Option<f64>,
    rtol: Option<f64>,
    lower: bool,
    return_rank: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let options = ops::PinvhOptions { atol, rtol, lower, check_finite: CheckFinite::from_flag(check_finite) };
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("pinvh", &[(Some(&a), 2)])?;
        let ops::Pinv { b, rank } = compute(py, a.numel(), move || ops::pinvh(&a, &options))?;
        let b = wrap(py, &library, b, false)?;
        if !return_rank {
            return Ok(b);
        }
        let rank =
            if list { wrap(py, &library, rank, true)? } else { PyInt::new(py, int_of(&rank)?).into_any().unbind() };
        sequence(py, vec![b, rank], list)
    })
}

/// Solve the equation ``a @ x = b`` for ``x``, where ``a`` is the banded matrix defined by `ab`.
///
/// Solve ``A x = b`` for banded ``A`` in LAPACK band storage
/// (``scipy.linalg.solve_banded``); the band is expanded to a dense LU solve.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (l_and_u, ab, b, overwrite_ab = false, overwrite_b = false, check_finite = true, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn solve_banded(
    py: Python<'_>,
    l_and_u: &Bound<'_, PyAny>,
    ab: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    overwrite_ab: bool,
    overwrite_b: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_ab, overwrite_b); // performance hints
    let [nlower, nupper] = unpack2(l_and_u)?;
    let check = CheckFinite::from_flag(check_finite);
    on_device(device, || {
        let (ab, b, library) = import2(ab, b)?;
        batched("solve_banded", &[(Some(&ab), 2), (Some(&b), rhs_core(&b))])?;
        let (lower, upper) = (band_counts(py, &nlower)?, band_counts(py, &nupper)?);
        let x = match (&lower, &upper) {
            (BandCounts::One(l), BandCounts::One(u)) => {
                let l_and_u = (*l, *u);
                compute(py, ab.numel() + b.numel(), move || ops::solve_banded(l_and_u, &ab, &b, check))?
            }
            _ => compute(py, ab.numel() + b.numel(), move || per_matrix_banded(&lower, &upper, &ab, &b, check))?,
        };
        wrap(py, &library, x, false)
    })
}

/// `solve_banded`'s `l` or `u`: one count, or one per matrix (SciPy 1.17 batches them with `ab`).
enum BandCounts {
    One(i64),
    PerMatrix(Vec<i64>, Vec<i64>),
}

fn band_counts(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<BandCounts> {
    if let Ok(count) = value.extract::<i64>() {
        return Ok(BandCounts::One(count));
    }
    let array = py.import("numpy")?.call_method1("asarray", (value,))?;
    let ndim: usize = array.getattr("ndim")?.extract()?;
    if ndim == 0 {
        return Ok(BandCounts::One(array.call_method0("item")?.extract()?));
    }
    let shape: Vec<i64> = array.getattr("shape")?.extract()?;
    let values: Vec<i64> = array.call_method0("ravel")?.call_method0("tolist")?.extract()?;
    Ok(BandCounts::PerMatrix(shape, values))
}

/// `solve_banded` with per-matrix `l` and `u`: each matrix of the broadcast batch on its own.
fn per_matrix_banded(
    lower: &BandCounts,
    upper: &BandCounts,
    ab: &tch::Tensor,
    b: &tch::Tensor,
    check: CheckFinite,
) -> crate::Result<tch::Tensor> {
    let as_tensor = |counts: &BandCounts| -> crate::Result<tch::Tensor> {
        Ok(match counts {
            BandCounts::One(c) => tch::Tensor::f_from_slice(&[*c])?.f_reshape([0i64; 0].as_slice())?,
            BandCounts::PerMatrix(shape, values) => tch::Tensor::f_from_slice(values)?.f_reshape(shape.as_slice())?,
        })
    };
    let (l, u) = (as_tensor(lower)?, as_tensor(upper)?);
    let b_core = if b.dim() >= 2 { 2 } else { 1 };
    let shapes = [l.size(), u.size(), ab.size()[..ab.dim() - 2].to_vec(), b.size()[..b.dim() - b_core].to_vec()];
    let batch = crate::ops::numpy::broadcast_shapes(&shapes.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
    let count: i64 = batch.iter().product();
    let with_core = |core: &[i64]| -> Vec<i64> { batch.iter().chain(core).copied().collect() };
    let l = l.f_broadcast_to(batch.as_slice())?.f_reshape([-1i64].as_slice())?;
    let u = u.f_broadcast_to(batch.as_slice())?.f_reshape([-1i64].as_slice())?;
    let ab_core = &ab.size()[ab.dim() - 2..];
    let ab =
        ab.f_broadcast_to(with_core(ab_core).as_slice())?.f_reshape([&[count][..], ab_core].concat().as_slice())?;
    let b_shape = b.size()[b.dim() - b_core..].to_vec();
    let b =
        b.f_broadcast_to(with_core(&b_shape).as_slice())?.f_reshape([&[count][..], &b_shape].concat().as_slice())?;
    let mut solutions = Vec::with_capacity(count as usize);
    for i in 0..count {
        let l_and_u = (l.f_int64_value(&[i])?, u.f_int64_value(&[i])?);
        solutions.push(ops::solve_banded(l_and_u, &ab.f_select(0, i)?, &b.f_select(0, i)?, check)?);
    }
    let x = tch::Tensor::f_stack(&solutions, 0)?;
    let core = x.size()[1..].to_vec();
    Ok(x.f_reshape(with_core(&core).as_slice())?)
}

/// Solve the equation ``a @ x = b`` for ``x``, where ``a`` is the Hermitian positive-definite banded matrix defined by `ab`.
///
/// Solve ``A x = b`` for Hermitian positive definite banded ``A``
/// (``scipy.linalg.solveh_banded``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (ab, b, overwrite_ab = false, overwrite_b = false, lower = false, check_finite = true, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn solveh_banded(
    py: Python<'_>,
    ab: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    overwrite_ab: bool,
    overwrite_b: bool,
    lower: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_ab, overwrite_b); // performance hints
    let options = ops::SolvehBandedOptions { lower, check_finite: CheckFinite::from_flag(check_finite) };
    on_device(device, || {
        let (ab, b, library) = import2(ab, b)?;
        batched("solveh_banded", &[(Some(&ab), 2), (Some(&b), rhs_core(&b))])?;
        let x = compute(py, ab.numel() + b.numel(), move || ops::solveh_banded(&ab, &b, &options))?;
        wrap(py, &library, x, false)
    })
}

/// SciPy's `c_or_cr`: a tuple is `(c, r)` (`r` may be `None`), anything else `c`.
fn c_and_r<'py>(c_or_cr: &Bound<'py, PyAny>) -> PyResult<(Bound<'py, PyAny>, Option<Bound<'py, PyAny>>)> {
    if !c_or_cr.is_instance_of::<PyTuple>() {
        return Ok((c_or_cr.clone(), None));
    }
    let [c, r] = unpack2(c_or_cr)?;
    Ok((c, Some(r).filter(|r| !r.is_none())))
}

/// Imports `(c, r or None, b)` and checks SciPy's batches; `r` defaults to
/// `conj(c)` (SciPy's default).
fn import_toeplitz(
    name: &str,
    c: &Bound<'_, PyAny>,
    r: Option<&Bound<'_, PyAny>>,
    b: &Bound<'_, PyAny>,
) -> PyResult<(Tensor, Tensor, Tensor, Library)> {
    let (c, r, b, library) = match r {
        Some(r) => {
            let (mut t, library) = import_all(&[c, r, b])?;
            let (b, r, c) = (t.remove(2), t.remove(1), t.remove(0));
            (c, Some(r), b, library)
        }
        None => {
            let (c, b, library) = import2(c, b)?;
            (c, None, b, library)
        }
    };
    batched(name, &[(Some(&c), 1), (r.as_ref(), 1), (Some(&b), rhs_core(&b))])?;
    let r = match r {
        Some(r) => r,
        None => c.f_conj().and_then(|r| r.f_resolve_conj()).map_err(Error::from)?,
    };
    Ok((c, r, b, library))
}

/// Solve the equation ``T @ x = b`` for ``x``, where ``T`` is a Toeplitz matrix defined by `c_or_cr`.
///
/// Solve ``T x = b`` for Toeplitz ``T`` given its first column (and row)
/// (``scipy.linalg.solve_toeplitz``); dense LU instead of Levinson recursion.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (c_or_cr, b, check_finite = true, *, device = None))]
fn solve_toeplitz(
    py: Python<'_>,
    c_or_cr: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let (c, r) = c_and_r(c_or_cr)?;
    let check = CheckFinite::from_flag(check_finite);
    on_device(device, || {
        let (c, r, b, library) = import_toeplitz("solve_toeplitz", &c, r.as_ref(), b)?;
        let x = compute(py, c.numel() * r.numel() + b.numel(), move || ops::solve_toeplitz(&c, &r, &b, check))?;
        wrap(py, &library, x, false)
    })
}

/// Efficient Toeplitz Matrix-Matrix Multiplication using FFT
///
/// ``T @ x`` for Toeplitz ``T`` by FFT (``scipy.linalg.matmul_toeplitz``;
/// ``workers`` is a hint, libtorch picks its threads).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (c_or_cr, x, check_finite = false, workers = None, *, device = None))]
fn matmul_toeplitz(
    py: Python<'_>,
    c_or_cr: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    check_finite: bool,
    workers: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = workers; // a performance hint
    let (c, r) = c_and_r(c_or_cr)?;
    let check = CheckFinite::from_flag(check_finite);
    on_device(device, || {
        let (c, r, x, library) = import_toeplitz("matmul_toeplitz", &c, r.as_ref(), x)?;
        let y = compute(py, c.numel() + r.numel() + x.numel(), move || ops::matmul_toeplitz(&c, &r, &x, check))?;
        wrap(py, &library, y, false)
    })
}

/// Solve the equation ``C @ x = b`` for ``x``, where ``C`` is a circulant matrix defined by `c`.
///
/// Solve ``C x = b`` for circulant ``C`` by FFT (``scipy.linalg.solve_circulant``).
///
/// ``singular='raise'`` raises ``LinAlgError`` for a near-singular matrix
/// (``|fft(c)| <= tol``, default ``max|fft(c)| * N * eps``); any other value
/// solves in the least-squares sense, as SciPy reads it.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (c, b, singular = SingularArg(ops::Singular::Raise), tol = None, caxis = -1, baxis = 0, outaxis = 0, *, device = None))]
#[pyo3(text_signature = "(c, b, singular='raise', tol=None, caxis=-1, baxis=0, outaxis=0, *, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn solve_circulant(
    py: Python<'_>,
    c: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    singular: SingularArg,
    tol: Option<f64>,
    caxis: i64,
    baxis: i64,
    outaxis: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let options = ops::SolveCirculantOptions { singular: singular.0, tol, caxis, baxis, outaxis };
    super::map2(py, device, (c, b), None, move |c, b| ops::solve_circulant(c, b, &options))
}

/// SciPy's `singular`, read as its `singular == 'raise'` reads it: any
/// other object (not only `'lstsq'`) means the least-squares solution.
struct SingularArg(ops::Singular);

impl<'a, 'py> FromPyObject<'a, 'py> for SingularArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<SingularArg> {
        Ok(SingularArg(if obj.eq("raise")? { ops::Singular::Raise } else { ops::Singular::Lstsq }))
    }
}

/// Compute a diagonal similarity transformation for row/column balancing.
///
/// Balance a square matrix (``scipy.linalg.matrix_balance``): LAPACK's
/// ``?gebal`` (3.12) ported, run on the host (libtorch has no kernel for
/// it). Returns ``(B, T)`` or ``(B, (scaling, perm))`` with ``separate``.
/// A stack of matrices is not implemented.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, permute = true, scale = true, separate = false, overwrite_a = false, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn matrix_balance(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    permute: bool,
    scale: bool,
    separate: bool,
    overwrite_a: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    let options = ops::BalanceOptions { permute, scale };
    on_device(device, || {
        let (a, library) = import1(A)?;
        let list = batched("matrix_balance", &[(Some(&a), 2)])?;
        let ops::Balanced { b, scaling, perm, t } = compute(py, a.numel(), move || {
            let balanced = ops::matrix_balance(&a, &options)?;
            if list && separate {
                // SciPy's batch stacks (scale, perm) per matrix: one float64 (..., 2, n) array
                let pair = tch::Tensor::f_stack(
                    &[balanced.scaling.shallow_clone(), balanced.perm.f_to_kind(tch::Kind::Double)?],
                    -2,
                )?;
                return Ok(ops::Balanced { scaling: pair, ..balanced });
            }
            Ok(balanced)
        })?;
        let b = wrap(py, &library, b, false)?;
        let second = match (separate, list) {
            (true, true) => wrap(py, &library, scaling, false)?,
            (true, false) => {
                sequence(py, vec![wrap(py, &library, scaling, false)?, wrap(py, &library, perm, false)?], false)?
            }
            (false, _) => wrap(py, &library, t, false)?,
        };
        sequence(py, vec![b, second], list)
    })
}

/// Adds the `_basic` routines to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(solve_triangular, module)?)?;
    module.add_function(wrap_pyfunction!(inv, module)?)?;
    module.add_function(wrap_pyfunction!(det, module)?)?;
    module.add_function(wrap_pyfunction!(lstsq, module)?)?;
    module.add_function(wrap_pyfunction!(pinv, module)?)?;
    module.add_function(wrap_pyfunction!(pinvh, module)?)?;
    module.add_function(wrap_pyfunction!(solve_banded, module)?)?;
    module.add_function(wrap_pyfunction!(solveh_banded, module)?)?;
    module.add_function(wrap_pyfunction!(solve_toeplitz, module)?)?;
    module.add_function(wrap_pyfunction!(matmul_toeplitz, module)?)?;
    module.add_function(wrap_pyfunction!(solve_circulant, module)?)?;
    module.add_function(wrap_pyfunction!(matrix_balance, module)?)?;
    Ok(())
}
