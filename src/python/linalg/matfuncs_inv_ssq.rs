//! `scipy.linalg.logm` and `fractional_matrix_power` (`_matfuncs_inv_ssq`),
//! with SciPy's warnings and result structures.

use pyo3::exceptions::{PyRuntimeWarning, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::PyType;
use tch::Tensor;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::matfuncs_sqrtm::deprecated;
use super::{batched, import1, sequence, warn, Device};
use crate::ops::linalg::{self as ops, Logm, Singularity};
use crate::Error;

/// SciPy's warning class `name` of `scipy.linalg._matfuncs_inv_ssq`, or
/// `UserWarning` (its base) where SciPy is not installed.
fn scipy_warning<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    let theirs = py
        .import("scipy.linalg._matfuncs_inv_ssq")
        .and_then(|m| m.getattr(name))
        .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
    Ok(theirs.unwrap_or_else(|_| py.get_type::<PyUserWarning>()))
}

/// Compute matrix logarithm.
///
/// Principal matrix logarithm of ``(..., N, N)`` ``A``
/// (``scipy.linalg.logm``): inverse scaling and squaring on the complex
/// Schur form (computed on the host, an explicit copy for CUDA input), the
/// diagonal and superdiagonal set exactly; the result is float64, or
/// complex128 where the logarithm is not real (SciPy's ``_maybe_real``).
/// SciPy's warnings: ``LogmExactlySingularWarning`` /
/// ``LogmNearlySingularWarning`` (SciPy's classes where installed, else
/// ``UserWarning``) and the ``RuntimeWarning`` for an inaccurate result.
/// ``disp`` is deprecated as in SciPy 1.16; ``disp=False`` returns
/// ``(F, errest)``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, disp = None, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn logm(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    disp: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if disp.is_some() {
        deprecated(py, "disp")?;
    }
    let show = match disp {
        Some(d) => d.is_truthy()?,
        None => true,
    };
    on_device(device, || {
        let (a, library) = import1(A)?;
        let list = batched("logm", &[(Some(&a), 2)])?;
        let Logm { f, errest, singularity } = compute(py, a.numel(), move || ops::logm(&a))?;
        match singularity {
            Singularity::Exact => warn(
                py,
                &scipy_warning(py, "LogmExactlySingularWarning")?,
                "The logm input matrix is exactly singular.",
            )?,
            Singularity::Near => warn(
                py,
                &scipy_warning(py, "LogmNearlySingularWarning")?,
                "The logm input matrix may be nearly singular.",
            )?,
            Singularity::None => {}
        }
        let errors: Vec<f64> = {
            let flat = errest.f_reshape([-1i64].as_slice()).map_err(Error::from)?;
            let flat = flat.f_to_kind(tch::Kind::Double).and_then(|t| t.f_to(tch::Device::Cpu)).map_err(Error::from)?;
            let mut v = vec![0f64; flat.numel()];
            flat.f_copy_data(&mut v, flat.numel()).map_err(Error::from)?;
            v
        };
        let f = wrap(py, &library, f, false)?;
        if show {
            let errtol = 1000.0 * f64::EPSILON;
            for e in errors {
                if !e.is_finite() || e >= errtol {
                    let shown: String = pyo3::types::PyFloat::new(py, e).repr()?.extract()?;
                    let message = format!("logm result may be inaccurate, approximate err = {shown}");
                    warn(py, &py.get_type::<PyRuntimeWarning>(), &message)?;
                }
            }
            return Ok(f);
        }
        let errest = if list { errest } else { errest.f_reshape([0i64; 0].as_slice()).map_err(Error::from)? };
        sequence(py, vec![f, wrap(py, &library, errest, !list)?], list)
    })
}

/// Compute the fractional power of a matrix.
///
/// ``A ** t`` for ``(..., N, N)`` ``A`` and real ``t``
/// (``scipy.linalg.fractional_matrix_power``): an integer ``t`` is
/// ``numpy.linalg.matrix_power`` (dtype kept); otherwise SciPy's split
/// ``A^a A^b`` (``|b| < 1``, ``a`` by the condition number) with ``A^b =
/// exp(b log A)`` on the complex Schur form (host, an explicit copy for
/// CUDA input; SciPy uses a Padé approximant of ``(I - X)^b``: the results
/// agree to rounding for well-conditioned input). Singular input: NaN for
/// ``t < 0``, ``funm``'s Schur-Parlett for ``t > 0``, as SciPy.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, t, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn fractional_matrix_power(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    t: f64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library) = import1(A)?;
        batched("fractional_matrix_power", &[(Some(&a), 2)])?;
        let x: Tensor = compute(py, a.numel(), move || ops::fractional_matrix_power(&a, t))?;
        wrap(py, &library, x, false)
    })
}

/// Adds `logm` and `fractional_matrix_power` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(logm, module)?)?;
    module.add_function(wrap_pyfunction!(fractional_matrix_power, module)?)?;
    Ok(())
}
