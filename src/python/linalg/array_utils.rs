//! `scipy.linalg._cythonized_array_utils`: `bandwidth`, `issymmetric`,
//! `ishermitian`. One matrix gives Python ints/bools, as SciPy returns them;
//! a batch gives arrays (a list of two for `bandwidth`).

use pyo3::prelude::*;
use pyo3::types::PyBool;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, sequence};
use crate::ops::linalg::{self as ops, Bandwidth, SymmetryOptions};
use crate::Error;

/// Return the lower and upper bandwidth of a 2D numeric array.
///
/// Lower and upper bandwidth (``scipy.linalg.bandwidth``): Python ints for
/// one matrix, a list of two arrays for a batch.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, *, device = None))]
fn bandwidth(py: Python<'_>, a: &Bound<'_, PyAny>, device: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("bandwidth", &[(Some(&a), 2)])?;
        let Bandwidth { lower, upper } = compute(py, a.numel(), move || ops::bandwidth(&a))?;
        if list {
            return sequence(py, vec![wrap(py, &library, lower, false)?, wrap(py, &library, upper, false)?], true);
        }
        let lower = lower.f_int64_value(&[]).map_err(Error::from)?;
        let upper = upper.f_int64_value(&[]).map_err(Error::from)?;
        Ok((lower, upper).into_pyobject(py)?.into_any().unbind())
    })
}

fn symmetry(
    py: Python<'_>,
    name: &str,
    a: &Bound<'_, PyAny>,
    options: SymmetryOptions,
    hermitian: bool,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched(name, &[(Some(&a), 2)])?;
        let r = compute(py, a.numel(), move || {
            if hermitian {
                ops::ishermitian(&a, &options)
            } else {
                ops::issymmetric(&a, &options)
            }
        })?;
        if list {
            return wrap(py, &library, r, false);
        }
        let value = r.f_int64_value(&[]).map_err(Error::from)? != 0;
        Ok(PyBool::new(py, value).to_owned().into_any().unbind())
    })
}

/// Check if a square 2D array is symmetric.
///
/// Whether ``a`` equals its transpose (``scipy.linalg.issymmetric``; exact
/// unless a tolerance is given, the diagonal not scanned).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, atol = None, rtol = None, *, device = None))]
fn issymmetric(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    atol: Option<f64>,
    rtol: Option<f64>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    symmetry(py, "issymmetric", a, SymmetryOptions { atol, rtol }, false, device)
}

/// Check if a square 2D array is Hermitian.
///
/// Whether ``a`` equals its conjugate transpose (``scipy.linalg.ishermitian``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, atol = None, rtol = None, *, device = None))]
fn ishermitian(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    atol: Option<f64>,
    rtol: Option<f64>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    symmetry(py, "ishermitian", a, SymmetryOptions { atol, rtol }, true, device)
}

/// Adds the array utilities to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(bandwidth, module)?)?;
    module.add_function(wrap_pyfunction!(issymmetric, module)?)?;
    module.add_function(wrap_pyfunction!(ishermitian, module)?)?;
    Ok(())
}
