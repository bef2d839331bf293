//! `torchbridge._core.ndimage`: the `scipy.ndimage` functions, one
//! `#[pyfunction]` each with SciPy's signature (and a keyword-only
//! `device=None`), re-exported by `python/torchbridge/ndimage/`.
//!
//! The files mirror `crate::ops::ndimage`.

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
macro_rules! ndimage_note {
    () => {
        concat!(
            "torchbridge: composites of libtorch ops on the input's device, the result in\n\
             the caller's array type. The boundary extension is SciPy's index map (any\n\
             distance) applied by a gather; sums run in float64 in SciPy's order, so the\n\
             values are SciPy's. ``output`` may be ``None`` or a dtype; an array to write\n\
             into, and complex input, raise ``UnsupportedParameterError`` (a\n\
             ``NotImplementedError``). SciPy's ``RuntimeError`` for a bad size, mode or\n\
             footprint is a ``ValueError`` (``InvalidArgumentError``) here.\n\n",
            device_note!()
        )
    };
}

mod filters;
mod interpolation;
mod measurements;
mod morphology;

use pyo3::prelude::*;

/// NumPy's `exp` of a few host values (the Gaussian kernels' samples, as
/// SciPy's `_gaussian_kernel1d` computes them); `None` if NumPy fails.
fn numpy_exp(x: &[f64]) -> Option<Vec<f64>> {
    Python::attach(|py| {
        let exp = py.import("numpy")?.getattr("exp")?;
        let values = exp.call1((pyo3::types::PyList::new(py, x)?,))?;
        values.call_method0("tolist")?.extract::<Vec<f64>>()
    })
    .ok()
}

/// Adds the `ndimage` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::ops::ndimage::filters::set_kernel_exp(numpy_exp);
    let module = super::submodule(parent, "ndimage")?;
    filters::register(&module)?;
    interpolation::register(&module)?;
    measurements::register(&module)?;
    morphology::register(&module)?;
    super::attach(parent, &module)
}
