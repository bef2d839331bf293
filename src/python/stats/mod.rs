//! `torchbridge._core.stats`: the `scipy.stats` functions, one
//! `#[pyfunction]` each with SciPy's signature (and a keyword-only
//! `device=None`), re-exported by `python/torchbridge/stats/`.
//!
//! The files mirror `crate::ops::stats`. Here live the argument types every
//! binding shares (`axis`, `nan_policy`) and the import -> compute -> warn ->
//! wrap path ([`reduce`]).

/// The `device=` paragraph of the docstrings of the routines that compute on arrays.
macro_rules! device_note {
    () => {
        "``device=None`` (keyword-only): ``\"cpu\"``, ``\"cuda\"`` (the inputs' CUDA\n\
         device, else ``cuda:0``), ``\"cuda:N\"`` or a ``torch.device`` computes there,\n\
         copying the inputs there and the results back to the caller's device; by\n\
         default (``None``) the computation runs where the arrays live, CUDA\n\
         included; a device libtorch cannot reach raises ``DeviceError``."
    };
}

/// What the docstrings end with: how torchbridge differs from SciPy.
macro_rules! stats_note {
    () => {
        concat!(
            "torchbridge: composites of libtorch ops on the arrays' device (two-pass\n\
             moments, one sort per slice for order statistics and ranks), the result in\n\
             the caller's array type (NumPy scalars for NumPy input reduced to 0-d, as\n\
             SciPy). ``axis`` (an int, a tuple or ``None``), ``keepdims`` and\n\
             ``nan_policy`` follow SciPy's ``_axis_nan_policy`` rules, its\n\
             ``SmallSampleWarning`` included (``torchbridge.stats._axis_nan_policy``).\n\
             Complex input and parameter values torchbridge does not implement raise\n\
             ``UnsupportedParameterError`` (a ``NotImplementedError``) naming them.\n\n",
            device_note!()
        )
    };
}

mod binned_statistic;
mod distn_infrastructure;
mod others;
mod stats_mstats_common;
mod stats_py;

use std::ffi::CString;

use pyo3::exceptions::{PyRuntimeWarning, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};
use tch::Tensor;

use super::container::{compute, import_all, wrap};
use super::placement::on_device;
use crate::ops::stats::stats_py::{Axis, NanPolicy, Reduced, Warning};
use crate::Result;

/// The `device=` keyword's argument (`None` or Python `None`: where the data is).
pub(super) type Device<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

/// `axis`: `None` (all axes), an int, or a tuple of ints.
pub(super) struct AxisArg(pub(super) Axis);

impl AxisArg {
    pub(super) fn zero() -> AxisArg {
        AxisArg(Axis::Dims(vec![0]))
    }

    pub(super) fn none() -> AxisArg {
        AxisArg(Axis::All)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for AxisArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<AxisArg> {
        if obj.is_none() {
            return Ok(AxisArg(Axis::All));
        }
        if let Ok(t) = obj.cast::<PyTuple>() {
            let dims = t.iter().map(|d| index(&d)).collect::<PyResult<Vec<i64>>>()?;
            return Ok(AxisArg(Axis::Dims(dims)));
        }
        Ok(AxisArg(Axis::Dims(vec![index(&obj)?])))
    }
}

/// An integer argument as Python's `operator.index` takes it.
pub(super) fn index(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let py = obj.py();
    let op = py.import("operator")?;
    match op.call_method1("index", (obj,)) {
        Ok(i) => i.extract(),
        Err(_) => Err(PyTypeError::new_err(format!(
            "'{}' object cannot be interpreted as an integer",
            obj.get_type().name()?
        ))),
    }
}

/// `axis` for the routines that take an int or `None` only.
pub(super) fn int_axis(axis: Option<&Bound<'_, PyAny>>) -> PyResult<Option<i64>> {
    match axis {
        None => Ok(None),
        Some(a) if a.is_none() => Ok(None),
        Some(a) => Ok(Some(index(a)?)),
    }
}

/// `nan_policy`.
pub(super) fn policy(name: &Bound<'_, PyAny>) -> PyResult<NanPolicy> {
    match name.cast::<PyString>() {
        Ok(s) => Ok(NanPolicy::from_scipy(&s.to_cow()?)?),
        Err(_) => Ok(NanPolicy::from_scipy("")?),
    }
}

/// Raises SciPy's warnings for a result.
pub(super) fn warn(py: Python<'_>, warnings: &[Warning]) -> PyResult<()> {
    for w in warnings {
        let (category, message) = match w {
            Warning::SmallSample(m) => {
                (py.import("torchbridge.stats._axis_nan_policy")?.getattr("SmallSampleWarning")?, *m)
            }
            Warning::Runtime(m) => (py.get_type::<PyRuntimeWarning>().into_any(), *m),
            Warning::RuntimeText(m) => (py.get_type::<PyRuntimeWarning>().into_any(), m.as_str()),
            Warning::ConstantInput(m) => {
                (py.import("torchbridge.stats._warnings_errors")?.getattr("ConstantInputWarning")?, *m)
            }
            Warning::NearConstantInput(m) => {
                (py.import("torchbridge.stats._warnings_errors")?.getattr("NearConstantInputWarning")?, *m)
            }
        };
        let message = CString::new(message).expect("static messages hold no NUL");
        PyErr::warn(py, &category, &message, 2)?;
    }
    Ok(())
}

/// Imports `arrays` (one library; Python scalars and lists follow it),
/// computes `op` where `device` says (the GIL released for large inputs),
/// gives SciPy's warnings and returns each result in the caller's array type
/// (0-d NumPy results as NumPy scalars).
pub(super) fn reduce(
    py: Python<'_>,
    device: Device<'_, '_>,
    arrays: &[&Bound<'_, PyAny>],
    op: impl FnOnce(Vec<Tensor>) -> Result<Reduced> + Send,
) -> PyResult<Vec<Py<PyAny>>> {
    on_device(device, || {
        let (tensors, library) = import_all(arrays)?;
        let elements = tensors.iter().map(Tensor::numel).sum();
        let reduced = compute(py, elements, move || op(tensors))?;
        warn(py, &reduced.warnings)?;
        reduced.values.into_iter().map(|t| wrap(py, &library, t, true)).collect()
    })
}

/// [`reduce`] for a routine with one result.
pub(super) fn reduce_one(
    py: Python<'_>,
    device: Device<'_, '_>,
    arrays: &[&Bound<'_, PyAny>],
    op: impl FnOnce(Vec<Tensor>) -> Result<Reduced> + Send,
) -> PyResult<Py<PyAny>> {
    let mut values = reduce(py, device, arrays, op)?;
    Ok(values.remove(0))
}

/// Adds the `stats` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "stats")?;
    stats_py::register(&module)?;
    others::register(&module)?;
    distn_infrastructure::register(&module)?;
    stats_mstats_common::register(&module)?;
    binned_statistic::register(&module)?;
    super::attach(parent, &module)
}
