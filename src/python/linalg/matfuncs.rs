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

/// Relative condition number of the matrix exponential in the Frobenius norm.
///
/// ``||K||_2 ||A||_F / ||expm(A)||_F`` for the Kronecker form ``K`` of the
/// Frechet derivative (``scipy.linalg.expm_cond``); the ``n^2`` directional
/// derivatives are computed in one batched call. A float64 scalar, as SciPy's.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, check_finite = true, *, device = None))]
#[allow(non_snake_case)]
fn expm_cond(py: Python<'_>, A: &Bound<'_, PyAny>, check_finite: bool, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library) = import1(A)?;
        let check = CheckFinite::from_flag(check_finite);
        let kappa = compute(py, a.numel(), move || ops::expm_cond(&a, check))?;
        wrap(py, &library, kappa, true)
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
    module.add_function(wrap_pyfunction!(expm_cond, module)?)?;
    Ok(())
}

/// Python's `print(*args)`, as SciPy's `funm`/`signm` report an inaccurate result.
fn print(py: Python<'_>, message: &str, err: f64) -> PyResult<()> {
    py.import("builtins")?.getattr("print")?.call1((message, err))?;
    Ok(())
}

/// `funm`'s and `signm`'s result: `F`, or `(F, err)` (a list for a batch).
fn funm_result(
    py: Python<'_>,
    library: &Library,
    list: bool,
    f: Tensor,
    err: Vec<f64>,
    disp: bool,
) -> PyResult<Py<PyAny>> {
    let f = wrap(py, library, f, false)?;
    if disp {
        return Ok(f);
    }
    let err = if list {
        let errs = Tensor::f_from_slice(&err).map_err(Error::from)?;
        wrap(py, library, errs, false)?
    } else {
        err.first().copied().unwrap_or(f64::NAN).into_pyobject(py)?.into_any().unbind()
    };
    sequence(py, vec![f, err], list)
}

/// Evaluate a matrix function specified by a callable.
///
/// ``func(A)`` for ``(..., N, N)`` ``A`` by Schur-Parlett
/// (``scipy.linalg.funm``): SciPy's algorithm (its Schur form, ``func`` on
/// the eigenvalues, Parlett's recurrence, its error estimate, its printed
/// message when ``disp`` and the estimate is large). ``func`` is called once
/// per matrix with the eigenvalues as a complex array in the caller's array
/// type (complex64 for single precision input) and must return their images.
/// The Schur form is computed on the host (an explicit copy for CUDA input).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, func, disp = true, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn funm(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    func: &Bound<'_, PyAny>,
    disp: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library) = import1(A)?;
        let list = batched("funm", &[(Some(&a), 2)])?;
        let mut failure: Option<PyErr> = None;
        let mut call = |diag: &Tensor| -> crate::Result<Tensor> {
            let result = (|| -> PyResult<Tensor> {
                let arg = wrap(py, &library, diag.shallow_clone(), false)?;
                let out = func.call1((arg,))?;
                let (mut t, _) = super::super::container::import_all(&[&out])?;
                Ok(t.remove(0))
            })();
            result.map_err(|e| {
                let message = e.to_string();
                failure = Some(e);
                Error::InvalidArgument(message)
            })
        };
        let outcome = crate::error::no_panic(|| ops::funm(&a, &mut call));
        if let Some(err) = failure {
            return Err(err);
        }
        let ops::Funm { f, err } = outcome?;
        if disp {
            let single = matches!(f.kind(), tch::Kind::Float | tch::Kind::ComplexFloat);
            let tol = if single { f64::from(f32::EPSILON) } else { f64::EPSILON };
            for e in &err {
                if *e > 1000.0 * tol {
                    print(py, "funm result may be inaccurate, approximate err =", *e)?;
                }
            }
        }
        funm_result(py, &library, list, f, err, disp)
    })
}

/// Matrix sign function.
///
/// Matrix sign function of ``(..., N, N)`` ``A`` (``scipy.linalg.signm``):
/// SciPy's algorithm (``funm`` with the rounded sign of the eigenvalues, then
/// its Newton iteration where that is inaccurate), its printed message when
/// ``disp`` and the result may be inaccurate. ``disp`` is deprecated as in
/// SciPy 1.16. Schur forms on the host (an explicit copy for CUDA input).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, disp = None, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn signm(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    disp: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if disp.is_some() {
        super::matfuncs_sqrtm::deprecated(py, "disp")?;
    }
    let show = match disp {
        Some(d) => d.is_truthy()?,
        None => true,
    };
    on_device(device, || {
        let (a, library) = import1(A)?;
        let list = batched("signm", &[(Some(&a), 2)])?;
        let ops::Funm { f, err } = compute(py, a.numel(), move || ops::signm(&a))?;
        if show {
            let single = matches!(f.kind(), tch::Kind::Float | tch::Kind::ComplexFloat);
            let errtol = 1e3 * if single { f64::from(f32::EPSILON) } else { f64::EPSILON };
            for e in &err {
                if !e.is_finite() || *e >= errtol {
                    print(py, "signm result may be inaccurate, approximate err =", *e)?;
                }
            }
        }
        funm_result(py, &library, list, f, err, show)
    })
}

/// Adds `funm` and `signm` to `_core.linalg`.
pub(super) fn register_schur_functions(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(funm, module)?)?;
    module.add_function(wrap_pyfunction!(signm, module)?)?;
    Ok(())
}
