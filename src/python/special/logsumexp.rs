//! SciPy's `_logsumexp.py`: logsumexp, softmax, log_softmax.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::super::container::{classify, compute, import, import_all, wrap};
use super::super::placement::on_device;
use super::ufuncs::operand_of;
use crate::dlpack;
use crate::ops::numpy::cast;
use crate::ops::special::{self as sp, LogSumExp, LogsumexpOptions, Operand};

/// NumPy's `axis` (not `None`): an int or a sequence of ints (anything else
/// is the TypeError of the failed conversion).
struct Axes(Vec<i64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Axes {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(single) = obj.extract::<i64>() {
            return Ok(Axes(vec![single]));
        }
        Ok(Axes(obj.extract::<Vec<i64>>()?))
    }
}

/// Compute the log of the sum of exponentials of input elements.
///
/// `log(sum(b * exp(a)))` over `axis`, with SciPy's signature and semantics
/// (`scipy.special.logsumexp`): a NumPy scalar for a full reduction of NumPy
/// input, `(result, sign)` with `return_sign=True`.
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = None, b = None, keepdims = false, return_sign = false, *, device = None))]
#[allow(clippy::too_many_arguments)]
fn logsumexp(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: Option<Axes>,
    b: Option<&Bound<'_, PyAny>>,
    keepdims: bool,
    return_sign: bool,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let axis = axis.map(|a| a.0);
    on_device(device, || {
        let b = b.filter(|b| !b.is_none());
        let (mut tensors, library) = match b {
            Some(b) => import_all(&[a, b])?,
            None => import_all(&[a])?,
        };
        if let Some(b_obj) = b {
            // a weak literal weight takes a's floating dtype (SciPy's xp_promote)
            if !matches!(operand_of(b_obj, &tensors[1])?, Operand::Array(_)) {
                let dtype = sp::logsumexp_dtype(&[dlpack::dtype_of(&tensors[0])?])?;
                tensors[1] = cast(&tensors[1], dtype)?;
            }
        }
        let elements = tensors[0].numel();
        let result = compute(py, elements, move || {
            let opts = LogsumexpOptions { axis: axis.as_deref(), b: tensors.get(1), keepdims };
            if return_sign {
                sp::logsumexp_with_sign(&tensors[0], &opts).map(|LogSumExp { value, sign }| (value, Some(sign)))
            } else {
                sp::logsumexp(&tensors[0], &opts).map(|value| (value, None))
            }
        })?;
        match result {
            (value, Some(sign)) => {
                let value = wrap(py, &library, value, true)?;
                let sign = wrap(py, &library, sign, true)?;
                Ok(PyTuple::new(py, [value, sign])?.into_any().unbind())
            }
            (value, None) => wrap(py, &library, value, true),
        }
    })
}

/// Compute the softmax function.
///
/// The softmax over `axis` (all axes for None), `scipy.special.softmax`.
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (x, axis = None, *, device = None))]
fn softmax(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    axis: Option<Axes>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let axis = axis.map(|a| a.0);
    on_device(device, || {
        let arg = classify(x)?;
        let tensor = import(&arg)?.tensor;
        let result = compute(py, tensor.numel(), move || sp::softmax(&tensor, axis.as_deref()))?;
        wrap(py, &arg.library, result, true)
    })
}

/// Compute the logarithm of the softmax function.
///
/// The logarithm of the softmax over `axis`, `scipy.special.log_softmax`.
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (x, axis = None, *, device = None))]
fn log_softmax(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    axis: Option<Axes>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let axis = axis.map(|a| a.0);
    on_device(device, || {
        let arg = classify(x)?;
        let tensor = import(&arg)?.tensor;
        let result = compute(py, tensor.numel(), move || sp::log_softmax(&tensor, axis.as_deref()))?;
        wrap(py, &arg.library, result, true)
    })
}

/// Adds this seam's functions to `module`.
pub(super) fn add(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(logsumexp, module)?)?;
    module.add_function(wrap_pyfunction!(softmax, module)?)?;
    module.add_function(wrap_pyfunction!(log_softmax, module)?)?;
    Ok(())
}
