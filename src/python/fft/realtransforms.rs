//! The `scipy.fft._realtransforms` functions: the cosine and sine transforms.
// SciPy's signatures have nine parameters, `device` included.
#![allow(clippy::too_many_arguments)]

use pyo3::prelude::*;

use super::{run, run_nd, Axes, Shape, Truthy, Workers};
use crate::ops::fft::{self as ops, DctOptions, DctType, DctnOptions, Norm};

/// Discrete cosine transform of type 1, 2, 3 or 4 (`scipy.fft.dct`).
///
/// Float32 input stays float32; complex input is transformed part by part.
/// ``orthogonalize`` (default: True exactly for ``norm="ortho"``) rescales the
/// end terms so that "ortho" gives an orthonormal transform; as in SciPy it
/// keeps its default for complex input. DCT-I needs at least 2 points.
/// Computed from libtorch FFTs (Makhoul's algorithm for types 2 and 3).
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
    text_signature = "(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
)]
pub(super) fn dct(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dct(r#type)?;
    let options = DctOptions { type_, n, axis, norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run(py, x, device, move |t| ops::dct(t, &options))
}

/// Inverse discrete cosine transform (`scipy.fft.idct`); see :func:`dct`.
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
    text_signature = "(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
)]
pub(super) fn idct(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dct(r#type)?;
    let options = DctOptions { type_, n, axis, norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run(py, x, device, move |t| ops::idct(t, &options))
}

/// Discrete sine transform of type 1, 2, 3 or 4 (`scipy.fft.dst`); see :func:`dct`.
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
    text_signature = "(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
)]
pub(super) fn dst(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dst(r#type)?;
    let options = DctOptions { type_, n, axis, norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run(py, x, device, move |t| ops::dst(t, &options))
}

/// Inverse discrete sine transform (`scipy.fft.idst`); see :func:`dct`.
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
    text_signature = "(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
)]
pub(super) fn idst(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    n: Option<i64>,
    axis: i64,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dst(r#type)?;
    let options = DctOptions { type_, n, axis, norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run(py, x, device, move |t| ops::idst(t, &options))
}

/// N-D discrete cosine transform (`scipy.fft.dctn`): :func:`dct` along
/// each of `axes` (``s``/``axes`` as in :func:`fftn`).
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, orthogonalize = None, device = None),
    text_signature = "(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None, device=None)"
)]
pub(super) fn dctn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dct(r#type)?;
    let (s, axes) = (s.map(|s| s.0), axes.map(|a| a.0));
    let options =
        DctnOptions { type_, s: s.clone(), axes: axes.clone(), norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run_nd(py, x, &s, &axes, device, move |t| ops::dctn(t, &options))
}

/// N-D inverse discrete cosine transform (`scipy.fft.idctn`).
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
    text_signature = "(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
)]
pub(super) fn idctn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dct(r#type)?;
    let (s, axes) = (s.map(|s| s.0), axes.map(|a| a.0));
    let options =
        DctnOptions { type_, s: s.clone(), axes: axes.clone(), norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run_nd(py, x, &s, &axes, device, move |t| ops::idctn(t, &options))
}

/// N-D discrete sine transform (`scipy.fft.dstn`).
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
    text_signature = "(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
)]
pub(super) fn dstn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dst(r#type)?;
    let (s, axes) = (s.map(|s| s.0), axes.map(|a| a.0));
    let options =
        DctnOptions { type_, s: s.clone(), axes: axes.clone(), norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run_nd(py, x, &s, &axes, device, move |t| ops::dstn(t, &options))
}

/// N-D inverse discrete sine transform (`scipy.fft.idstn`).
#[pyfunction]
#[pyo3(
    signature = (x, r#type = 2, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
    text_signature = "(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
)]
pub(super) fn idstn(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    r#type: i64,
    s: Option<Shape>,
    axes: Option<Axes>,
    norm: Norm,
    overwrite_x: Truthy,
    workers: Workers,
    orthogonalize: Option<Truthy>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _hints = (overwrite_x, workers);
    let type_ = DctType::for_dst(r#type)?;
    let (s, axes) = (s.map(|s| s.0), axes.map(|a| a.0));
    let options =
        DctnOptions { type_, s: s.clone(), axes: axes.clone(), norm, orthogonalize: orthogonalize.map(|o| o.0) };
    run_nd(py, x, &s, &axes, device, move |t| ops::idstn(t, &options))
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(dct, module)?)?;
    module.add_function(wrap_pyfunction!(idct, module)?)?;
    module.add_function(wrap_pyfunction!(dst, module)?)?;
    module.add_function(wrap_pyfunction!(idst, module)?)?;
    module.add_function(wrap_pyfunction!(dctn, module)?)?;
    module.add_function(wrap_pyfunction!(idctn, module)?)?;
    module.add_function(wrap_pyfunction!(dstn, module)?)?;
    module.add_function(wrap_pyfunction!(idstn, module)?)?;
    Ok(())
}
