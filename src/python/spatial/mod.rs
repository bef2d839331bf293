//! `torchbridge._core.spatial_distance`: the `scipy.spatial.distance`
//! functions, one `#[pyfunction]` each with SciPy's signature (and a
//! keyword-only `device=None`), re-exported by
//! `python/torchbridge/spatial/distance.py`.
//!
//! The compiled module is flat (`spatial_distance`, registered in
//! `sys.modules` under its full name) so that every function pickles by
//! reference; the public package nests it as SciPy does (`spatial.distance`).

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

/// What the docstrings of the routines end with: how torchbridge differs from SciPy.
macro_rules! spatial_note {
    () => {
        concat!(
            "torchbridge: composites of libtorch ops (matrix products, libtorch's\n\
             ``cdist`` kernel, blocked broadcasts) on the arrays' device, the result in\n\
             the caller's array type. Complex input and callable metrics raise\n\
             ``UnsupportedParameterError`` (a ``NotImplementedError``).\n\n",
            device_note!()
        )
    };
}

mod distance;

use pyo3::prelude::*;

/// Adds the `spatial_distance` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "spatial_distance")?;
    distance::register(&module)?;
    super::attach(parent, &module)
}
