//! `torchbridge._core.signal`: the `scipy.signal` functions, one
//! `#[pyfunction]` each with SciPy's signature (and a keyword-only
//! `device=None`), re-exported by `python/torchbridge/signal/`.
//!
//! The files mirror `crate::ops::signal`. Here lives the import -> compute ->
//! wrap path every binding shares ([`map`], [`map_tuple`]).

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

/// What the docstrings of the routines on arrays end with: how torchbridge differs from SciPy.
macro_rules! signal_note {
    () => {
        concat!(
            "torchbridge: composites of libtorch ops on the arrays' device, the result\n\
             in the caller's array type; a parameter value torchbridge does not\n\
             implement raises ``UnsupportedParameterError`` (a ``NotImplementedError``)\n\
             naming it.\n\n",
            device_note!()
        )
    };
}

mod convolve;
mod filter_design;
mod fir_filter_design;
mod hilbert;
mod lfilter;
mod order_filter;
mod resample;
mod savitzky_golay;
mod spectral_py;
mod upfirdn;
mod waveforms;
mod windows;

use pyo3::prelude::*;
use pyo3::types::PyString;
use tch::Tensor;

use super::container::{compute, import_all, wrap, wrap_tuple};
use super::placement::on_device;
use crate::{Error, Result};

/// The `device=` keyword's argument (`None` or Python `None`: where the data is).
pub(super) type Device<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

/// `fs`: `None` or a scalar (SciPy's `_validate_fs`), for the filter designs and responses.
pub(super) struct Fs(pub(super) Option<f64>);

impl<'a, 'py> FromPyObject<'a, 'py> for Fs {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Fs> {
        if obj.is_none() {
            return Ok(Fs(None));
        }
        match obj.extract::<f64>() {
            Ok(v) if !obj.is_instance_of::<PyString>() => Ok(Fs(Some(v))),
            _ => Err(Error::InvalidArgument("Sampling frequency fs must be a single scalar.".into()).into()),
        }
    }
}

/// Imports `arrays` (one library; Python scalars and lists follow it),
/// computes `op` on them where `device` says (the GIL released for large
/// inputs) and returns the result in the caller's array type.
pub(super) fn map(
    py: Python<'_>,
    device: Device<'_, '_>,
    arrays: &[&Bound<'_, PyAny>],
    op: impl FnOnce(Vec<Tensor>) -> Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (tensors, library) = import_all(arrays)?;
        let elements = tensors.iter().map(Tensor::numel).sum();
        let result = compute(py, elements, move || op(tensors))?;
        wrap(py, &library, result, false)
    })
}

/// [`map`] for a routine with several results: a tuple of the caller's arrays.
pub(super) fn map_tuple(
    py: Python<'_>,
    device: Device<'_, '_>,
    arrays: &[&Bound<'_, PyAny>],
    op: impl FnOnce(Vec<Tensor>) -> Result<Vec<Tensor>> + Send,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (tensors, library) = import_all(arrays)?;
        let elements = tensors.iter().map(Tensor::numel).sum();
        let results = compute(py, elements, move || op(tensors))?;
        wrap_tuple(py, &library, results)
    })
}

/// Adds the `signal` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "signal")?;
    convolve::register(&module)?;
    lfilter::register(&module)?;
    order_filter::register(&module)?;
    savitzky_golay::register(&module)?;
    filter_design::register(&module)?;
    hilbert::register(&module)?;
    spectral_py::register(&module)?;
    windows::register(&module)?;
    waveforms::register(&module)?;
    fir_filter_design::register(&module)?;
    upfirdn::register(&module)?;
    resample::register(&module)?;
    super::attach(parent, &module)
}
