//! `torchbridge._core.fft`: the `scipy.fft` functions, one `#[pyfunction]`
//! each with SciPy's signature (and a keyword-only `device=None`), re-exported
//! as they are by `python/torchbridge/fft/`.
//!
//! The files mirror `crate::ops::fft` (SciPy's `_basic`, `_realtransforms`,
//! `_helper`). Here live the option types every transform parses once, with
//! SciPy's checks and messages ([`Norm`], [`Workers`], [`NoPlan`], [`Shape`]
//! and [`Axes`], [`Truthy`]), and the import -> compute -> wrap path.

mod basic;
mod helper;
mod realtransforms;

use std::sync::OnceLock;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyString, PyType};
use tch::Tensor;

use super::container::{classify, compute, import, wrap};
use super::placement::on_device;
use crate::ops::fft::{nd_shape_and_axes, Norm};
use crate::{Error, Result};

/// `norm`: `None`, `"backward"`, `"ortho"` or `"forward"` (SciPy's `_normalization`).
impl<'a, 'py> FromPyObject<'a, 'py> for Norm {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Norm> {
        if obj.is_none() {
            return Ok(Norm::Backward);
        }
        if let Ok(name) = obj.cast::<PyString>() {
            if let Ok(norm) = name.to_cow()?.parse() {
                return Ok(norm);
            }
        }
        Err(Norm::invalid(&obj.repr()?.to_cow()?).into())
    }
}

/// `workers`, checked as SciPy's `_workers` does (then unused: libtorch runs
/// its own intra-op thread pool, see `torchbridge.set_num_threads`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Workers;

impl<'a, 'py> FromPyObject<'a, 'py> for Workers {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Workers> {
        if obj.is_none() {
            return Ok(Workers);
        }
        let workers: i64 = obj.extract()?;
        let cpus = cpu_count(obj.py())?;
        if workers == 0 {
            return Err(Error::InvalidArgument("workers must not be zero".into()).into());
        }
        if workers < -cpus {
            return Err(Error::InvalidArgument(format!(
                "workers value out of range; got {workers}, must not be less than {}",
                -cpus
            ))
            .into());
        }
        Ok(Workers)
    }
}

/// `os.cpu_count()`, as SciPy reads it (once).
fn cpu_count(py: Python<'_>) -> PyResult<i64> {
    static CPUS: OnceLock<i64> = OnceLock::new();
    if let Some(&cpus) = CPUS.get() {
        return Ok(cpus);
    }
    let cpus = py.import("os")?.getattr("cpu_count")?.call0()?.extract::<Option<i64>>()?.unwrap_or(1);
    Ok(*CPUS.get_or_init(|| cpus))
}

/// `plan`: only `None` (SciPy itself accepts no other value).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NoPlan;

impl<'a, 'py> FromPyObject<'a, 'py> for NoPlan {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<NoPlan> {
        if obj.is_none() {
            return Ok(NoPlan);
        }
        Err(Error::NotImplemented(format!(
            "plan={}: precomputed plans are not supported (scipy.fft supports none either)",
            obj.repr()?.to_cow()?
        ))
        .into())
    }
}

/// A flag taken by truthiness, as SciPy takes `overwrite_x`, `real` and
/// `orthogonalize` (`bool(value)`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Truthy(pub bool);

impl<'a, 'py> FromPyObject<'a, 'py> for Truthy {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Truthy> {
        Ok(Truthy(obj.is_truthy()?))
    }
}

/// SciPy's `_iterable_of_int(value, name)`: a number is a one-element list;
/// otherwise every element must convert with `operator.index`, else a
/// ValueError "{name} must be a scalar or iterable of integers".
fn iterable_of_int(obj: Borrowed<'_, '_, PyAny>, name: &str) -> PyResult<Vec<i64>> {
    static NUMBER: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let py = obj.py();
    let refused = |err: PyErr| -> PyErr {
        if err.is_instance_of::<PyTypeError>(py) {
            let refusal: PyErr =
                Error::InvalidArgument(format!("{name} must be a scalar or iterable of integers")).into();
            refusal.set_cause(py, Some(err));
            refusal
        } else {
            err
        }
    };
    if obj.is_instance(NUMBER.import(py, "numbers", "Number")?)? {
        return Ok(vec![obj.extract::<i64>().map_err(refused)?]);
    }
    let items = obj.try_iter().map_err(refused)?;
    let mut values = Vec::new();
    for item in items {
        push(&mut values, item?.extract::<i64>().map_err(refused)?, name)?;
    }
    Ok(values)
}

/// `values.push(value)`, a MemoryError (not an abort) when the list of
/// `what` cannot grow: an unbounded iterable grows it until memory runs out.
pub(crate) fn push(values: &mut Vec<i64>, value: i64, what: &str) -> PyResult<()> {
    values.try_reserve(1).map_err(|_| {
        let bytes = (values.len() as u128 + 1) * std::mem::size_of::<i64>() as u128;
        Error::out_of_memory(bytes, &format!("the {what} list"))
    })?;
    values.push(value);
    Ok(())
}

/// `s`: a transform shape, a scalar or an iterable of integers.
#[derive(Clone, Debug)]
pub(crate) struct Shape(pub Vec<i64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Shape {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Shape> {
        Ok(Shape(iterable_of_int(obj, "shape")?))
    }
}

/// `axes` of an n-D transform: a scalar or an iterable of integers.
#[derive(Clone, Debug)]
pub(crate) struct Axes(pub Vec<i64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Axes {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Axes> {
        Ok(Axes(iterable_of_int(obj, "axes")?))
    }
}

/// The default `axes` of SciPy's 2-D transforms, `(-2, -1)`.
pub(crate) fn last_two() -> Option<Axes> {
    Some(Axes(vec![-2, -1]))
}

/// Imports `x`, computes `op` on it where `device` says (the GIL released
/// for large inputs) and returns the result in the caller's library.
pub(crate) fn run(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    device: Option<&Bound<'_, PyAny>>,
    op: impl FnOnce(&Tensor) -> Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let arg = classify(x)?;
        let tensor = import(&arg)?.tensor;
        let result = compute(py, tensor.numel(), move || op(&tensor))?;
        wrap(py, &arg.library, result, false)
    })
}

/// [`run`] for a complex or real-to-real n-D transform: with no axes to
/// transform, returns `x` itself, unconverted, as SciPy does.
pub(crate) fn run_nd(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: &Option<Vec<i64>>,
    axes: &Option<Vec<i64>>,
    device: Option<&Bound<'_, PyAny>>,
    op: impl FnOnce(&Tensor) -> Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let arg = classify(x)?;
        let tensor = import(&arg)?.tensor;
        let planned = nd_shape_and_axes(&tensor.size(), s.as_deref(), axes.as_deref())?;
        if planned.axes.is_empty() {
            return Ok(arg.array.unbind());
        }
        let result = compute(py, tensor.numel(), move || op(&tensor))?;
        wrap(py, &arg.library, result, false)
    })
}

/// Adds the `fft` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "fft")?;
    basic::register(&module)?;
    realtransforms::register(&module)?;
    helper::register(&module)?;
    super::attach(parent, &module)
}
