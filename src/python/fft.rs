//! `torchbridge.fft`: `scipy.fft` counterparts: discrete Fourier, cosine and sine transforms.

use pyo3::prelude::*;

/// Adds the `fft` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = PyModule::new(parent.py(), "fft")?;
    parent.add_submodule(&module)
}
