//! `upfirdn` (`scipy.signal._upfirdn`; see `crate::ops::signal::upfirdn`).

use pyo3::prelude::*;

use super::{map, Device};
use crate::ops::signal::upfirdn::{self as ops, UpfirdnMode};

/// Upsample, FIR filter, and downsample.
///
/// ``x`` upsampled by ``up`` (``up - 1`` zeros after each sample), filtered
/// by the 1-D FIR ``h`` and downsampled by ``down`` along ``axis``; the
/// output has ``ceil(((n - 1) up + len(h)) / down)`` samples there, ``len(h)``
/// rounded up to a multiple of ``up``. ``mode`` says what lies past the
/// ends: ``"constant"`` (``cval``), ``"symmetric"``, ``"reflect"``,
/// ``"edge"``, ``"wrap"``, ``"smooth"``, ``"antisymmetric"``, ``"line"``.
/// The dtype is ``result_type(h, x, float32)`` (float32 stays float32,
/// integers give float64, complex supported).
///
/// torchbridge: polyphase: the ``up`` sub-filters ``h[p::up]`` are the
/// output channels of one ``conv1d`` of the extended signal (every other
/// axis batched; sub-filters of 256 taps or more through the FFT), the phases
/// interleaved by a reshape and sliced with step ``down``: no per-sample
/// loop. ``mode="antireflect"`` raises ``UnsupportedParameterError``.
///
#[doc = signal_note!()]
#[pyfunction]
#[pyo3(signature = (h, x, up = 1, down = 1, axis = -1, mode = "constant", cval = 0.0, *, device = None), text_signature = "(h, x, up=1, down=1, axis=-1, mode='constant', cval=0, *, device=None)")]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub(super) fn upfirdn(
    py: Python<'_>,
    h: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    up: i64,
    down: i64,
    axis: i64,
    mode: &str,
    cval: f64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let mode: UpfirdnMode = mode.parse()?;
    map(py, device, &[h, x], move |t| ops::upfirdn(&t[0], &t[1], up, down, axis, mode, cval))
}

/// Adds `upfirdn` to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(upfirdn, module)?)
}
