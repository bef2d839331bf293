//! `scipy.linalg._matfuncs` (and `_expm_frechet`): one `#[pyfunction]` per
//! matrix function, with SciPy's signature; `tanm`/`tanhm` warn
//! `LinAlgWarning` for an ill-conditioned solve, as SciPy's do.

use pyo3::prelude::*;
use tch::Tensor;

use super::super::container::{compute, wrap, Library};
use super::super::placement::on_device;
use super::{batched, import1, import2, map1, min_rcond, sequence, warn_ill_conditioned, Device};
use crate::ops::linalg::{self as ops, CheckFinite, ExpmFrechet, MatrixFunction};
use crate::Error;

/// Compute the matrix exponential of an array.
///
/// Matrix exponential of ``(..., N, N)`` ``A`` (``scipy.linalg.expm``).
///
/// libtorch's ``matrix_exp`` (scaled and squared Taylor approximant) for
/// general input; diagonal input is exact, triangular input keeps its
/// structure and exact diagonal, as in SciPy.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn expm(py: Python<'_>, A: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map1(py, device, A, None, ops::expm)
}

/// One of the trigonometric/hyperbolic matrix functions, SciPy's way.
fn matrix_function(
    py: Python<'_>,
    name: &str,
    a: &Bound<'_, PyAny>,
    f: MatrixFunction,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library): (Tensor, Library) = import1(a)?;
        batched(name, &[(Some(&a), 2)])?;
        let (x, rcond) = compute(py, a.numel(), move || {
            let solved = ops::matrix_function(&a, f)?;
            Ok((solved.x, min_rcond(&solved.rcond)?))
        })?;
        warn_ill_conditioned(py, rcond, &x)?;
        wrap(py, &library, x, false)
    })
}

/// Compute the matrix cosine.
///
/// Matrix cosine (``scipy.linalg.cosm``), through :func:`expm`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, *, device = None))]
#[allow(non_snake_case)]
fn cosm(py: Python<'_>, A: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    matrix_function(py, "cosm", A, MatrixFunction::Cos, device)
}

/// Compute the matrix sine.
///
/// Matrix sine (``scipy.linalg.sinm``), through :func:`expm`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, *, device = None))]
#[allow(non_snake_case)]
fn sinm(py: Python<'_>, A: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    matrix_function(py, "sinm", A, MatrixFunction::Sin, device)
}

/// Compute the matrix tangent.
///
/// Matrix tangent ``solve(cosm(A), sinm(A))`` (``scipy.linalg.tanm``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, *, device = None))]
#[allow(non_snake_case)]
fn tanm(py: Python<'_>, A: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    matrix_function(py, "tanm", A, MatrixFunction::Tan, device)
}

/// Compute the hyperbolic matrix cosine.
///
/// Matrix hyperbolic cosine (``scipy.linalg.coshm``), through :func:`expm`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, *, device = None))]
#[allow(non_snake_case)]
fn coshm(py: Python<'_>, A: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    matrix_function(py, "coshm", A, MatrixFunction::Cosh, device)
}

/// Compute the hyperbolic matrix sine.
///
/// Matrix hyperbolic sine (``scipy.linalg.sinhm``), through :func:`expm`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, *, device = None))]
#[allow(non_snake_case)]
fn sinhm(py: Python<'_>, A: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    matrix_function(py, "sinhm", A, MatrixFunction::Sinh, device)
}

/// Compute the hyperbolic matrix tangent.
///
/// Matrix hyperbolic tangent ``solve(coshm(A), sinhm(A))`` (``scipy.linalg.tanhm``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, *, device = None))]
#[allow(non_snake_case)]
fn tanhm(py: Python<'_>, A: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    matrix_function(py, "tanhm", A, MatrixFunction::Tanh, device)
}

/// Frechet derivative of the matrix exponential of A in the direction E.
///
/// ``expm(A)`` and the Frechet derivative of ``expm`` at ``A`` in direction
/// ``E`` (``scipy.linalg.expm_frechet``).
///
/// ``method``: ``None``/``'SPS'``/``'blockEnlarge'`` all compute the same
/// quantity; torchbridge reads it off ``expm([[A, E], [0, A]])``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, E, method = None, compute_expm = true, check_finite = true, *, device = None))]
#[allow(non_snake_case)]
fn expm_frechet(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    E: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    compute_expm: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if let Some(method) = method.filter(|m| !m.is_none()) {
        if !matches!(method.extract::<String>().as_deref(), Ok("SPS" | "blockEnlarge")) {
            return Err(Error::InvalidArgument(format!("Unknown implementation {}", method.str()?)).into());
        }
    }
    on_device(device, || {
        let (a, e, library) = import2(A, E)?;
        let list = batched("expm_frechet", &[(Some(&a), 2), (Some(&e), 2)])?;
        let check = CheckFinite::from_flag(check_finite);
        let ExpmFrechet { expm, frechet } =
            compute(py, a.numel() + e.numel(), move || ops::expm_frechet(&a, &e, check))?;
        if !compute_expm {
            return wrap(py, &library, frechet, false);
        }
        let items = vec![wrap(py, &library, expm, false)?, wrap(py, &library, frechet, false)?];
        sequence(py, items, list)
    })
}

/// Adds the matrix functions to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(expm, module)?)?;
    module.add_function(wrap_pyfunction!(cosm, module)?)?;
    module.add_function(wrap_pyfunction!(sinm, module)?)?;
    module.add_function(wrap_pyfunction!(tanm, module)?)?;
    module.add_function(wrap_pyfunction!(coshm, module)?)?;
    module.add_function(wrap_pyfunction!(sinhm, module)?)?;
    module.add_function(wrap_pyfunction!(tanhm, module)?)?;
    module.add_function(wrap_pyfunction!(expm_frechet, module)?)?;
    Ok(())
}
