//! `torchbridge.fft`: `scipy.fft` counterparts: discrete Fourier, cosine and sine transforms.
//!
//! The public functions live in `python/torchbridge/fft.py` with SciPy's exact
//! signatures; they validate the cheap options (`norm`, `workers`, `plan`,
//! integer conversions) and call these implementation functions, which take
//! already-parsed values, import the array, call `crate::ops::fft` and hand
//! the result back in the caller's library.

use std::sync::Arc;

use pyo3::prelude::*;
use tch::{Device, Kind, Tensor};

use super::container::{classify, compute, import, wrap, Library};
use crate::ops::fft::{self as ops, Norm};
use crate::Result;

fn check_axis(axis: i64, ndim: usize) -> PyResult<()> {
    crate::ops::numpy::normalize_axis(axis, ndim)?;
    Ok(())
}

fn norm(name: &str) -> PyResult<Norm> {
    Ok(Norm::from_scipy(Some(name))?)
}

/// Imports `x`, checks `axis` (if any) against its dimensions, runs `op`
/// (the GIL released for large inputs) and wraps the result.
fn run(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    axis: Option<i64>,
    op: impl FnOnce(&Tensor) -> Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    if let Some(axis) = axis {
        check_axis(axis, tensor.dim())?;
    }
    let result = compute(py, tensor.numel(), move || op(&tensor))?;
    wrap(py, &arg.library, result, false)
}

/// Like [`run`] for an n-D transform: with no axes to transform (and
/// `identity_when_empty`), returns `x` itself as SciPy does.
fn run_nd(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    s: Option<Vec<i64>>,
    axes: Option<Vec<i64>>,
    identity_when_empty: bool,
    op: impl FnOnce(&Tensor, Option<&[i64]>, Option<&[i64]>) -> Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    let (_, planned) = ops::nd_shape_and_axes(&tensor.size(), s.as_deref(), axes.as_deref())?;
    if planned.is_empty() && identity_when_empty {
        return Ok(arg.array.unbind());
    }
    let result = compute(py, tensor.numel(), move || op(&tensor, s.as_deref(), axes.as_deref()))?;
    wrap(py, &arg.library, result, false)
}

type OneD = fn(&Tensor, Option<i64>, i64, Norm) -> Result<Tensor>;

/// `fft`/`ifft` (`c2c`), `rfft`/`ihfft` (`r2c`), `hfft`/`irfft` (`c2r`).
#[pyfunction]
#[pyo3(signature = (routine, x, n, axis, norm_name))]
fn transform_1d(
    py: Python<'_>,
    routine: &str,
    x: &Bound<'_, PyAny>,
    n: Option<i64>,
    axis: i64,
    norm_name: &str,
) -> PyResult<Py<PyAny>> {
    let op: OneD = match routine {
        "fft" => ops::fft,
        "ifft" => ops::ifft,
        "rfft" => ops::rfft,
        "ihfft" => ops::ihfft,
        "hfft" => ops::hfft,
        "irfft" => ops::irfft,
        other => return Err(super::errors::Class::InvalidArgument.err(format!("unknown transform {other}"))),
    };
    let norm = norm(norm_name)?;
    run(py, x, Some(axis), move |t| op(t, n, axis, norm))
}

type NDim = fn(&Tensor, Option<&[i64]>, Option<&[i64]>, Norm) -> Result<Tensor>;

/// `fftn`/`ifftn`, `rfftn`/`ihfftn`, `hfftn`/`irfftn` (and their 2-D forms).
#[pyfunction]
#[pyo3(signature = (routine, x, s, axes, norm_name))]
fn transform_nd(
    py: Python<'_>,
    routine: &str,
    x: &Bound<'_, PyAny>,
    s: Option<Vec<i64>>,
    axes: Option<Vec<i64>>,
    norm_name: &str,
) -> PyResult<Py<PyAny>> {
    let (op, identity): (NDim, bool) = match routine {
        "fftn" => (ops::fftn, true),
        "ifftn" => (ops::ifftn, true),
        "rfftn" => (ops::rfftn, false),
        "ihfftn" => (ops::ihfftn, false),
        "hfftn" => (ops::hfftn, false),
        "irfftn" => (ops::irfftn, false),
        other => return Err(super::errors::Class::InvalidArgument.err(format!("unknown transform {other}"))),
    };
    let norm = norm(norm_name)?;
    run_nd(py, x, s, axes, identity, move |t, s, axes| op(t, s, axes, norm))
}

type R2r = fn(&Tensor, i64, Option<i64>, i64, Norm, Option<bool>) -> Result<Tensor>;
type R2rN = fn(&Tensor, i64, Option<&[i64]>, Option<&[i64]>, Norm, Option<bool>) -> Result<Tensor>;

/// `dct`, `idct`, `dst`, `idst`.
#[pyfunction]
#[pyo3(signature = (routine, x, type_, n, axis, norm_name, orthogonalize))]
#[allow(clippy::too_many_arguments)]
fn real_transform(
    py: Python<'_>,
    routine: &str,
    x: &Bound<'_, PyAny>,
    type_: i64,
    n: Option<i64>,
    axis: i64,
    norm_name: &str,
    orthogonalize: Option<bool>,
) -> PyResult<Py<PyAny>> {
    let op: R2r = match routine {
        "dct" => ops::dct,
        "idct" => ops::idct,
        "dst" => ops::dst,
        "idst" => ops::idst,
        other => return Err(super::errors::Class::InvalidArgument.err(format!("unknown transform {other}"))),
    };
    let norm = norm(norm_name)?;
    run(py, x, Some(axis), move |t| op(t, type_, n, axis, norm, orthogonalize))
}

/// `dctn`, `idctn`, `dstn`, `idstn`.
#[pyfunction]
#[pyo3(signature = (routine, x, type_, s, axes, norm_name, orthogonalize))]
#[allow(clippy::too_many_arguments)]
fn real_transform_nd(
    py: Python<'_>,
    routine: &str,
    x: &Bound<'_, PyAny>,
    type_: i64,
    s: Option<Vec<i64>>,
    axes: Option<Vec<i64>>,
    norm_name: &str,
    orthogonalize: Option<bool>,
) -> PyResult<Py<PyAny>> {
    let op: R2rN = match routine {
        "dctn" => ops::dctn,
        "idctn" => ops::idctn,
        "dstn" => ops::dstn,
        "idstn" => ops::idstn,
        other => return Err(super::errors::Class::InvalidArgument.err(format!("unknown transform {other}"))),
    };
    let norm = norm(norm_name)?;
    run_nd(py, x, s, axes, true, move |t, s, axes| op(t, type_, s, axes, norm, orthogonalize))
}

/// `fftshift` / `ifftshift`; `axes` already a list of integers (or None).
#[pyfunction]
#[pyo3(signature = (x, axes, inverse))]
fn shift(py: Python<'_>, x: &Bound<'_, PyAny>, axes: Option<Vec<i64>>, inverse: bool) -> PyResult<Py<PyAny>> {
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    for &axis in axes.iter().flatten() {
        check_axis(axis, tensor.dim())?;
    }
    let result = compute(py, tensor.numel(), move || {
        if inverse {
            ops::ifftshift(&tensor, axes.as_deref())
        } else {
            ops::fftshift(&tensor, axes.as_deref())
        }
    })?;
    wrap(py, &arg.library, result, false)
}

/// `fftfreq` / `rfftfreq` with the step `scale = 1 / (n d)` as NumPy computes
/// it: computed by libtorch on the CPU in `dtype` ("float32"/"float64") and
/// returned through `xp.from_dlpack` (numpy when `xp` is None); the Python
/// layer moves it to a requested device.
#[pyfunction]
#[pyo3(signature = (n, scale, real, xp, dtype))]
fn frequencies(
    py: Python<'_>,
    n: i64,
    scale: f64,
    real: bool,
    xp: Option<Bound<'_, PyAny>>,
    dtype: &str,
) -> PyResult<Py<PyAny>> {
    let kind = match dtype {
        "float32" => Kind::Float,
        "float64" => Kind::Double,
        other => {
            return Err(super::errors::Class::InvalidArgument.err(format!("frequencies in {other} are not supported")));
        }
    };
    let device = Device::Cpu;
    let result = if real {
        ops::rfftfreq_scaled(n, scale, (kind, device))?
    } else {
        ops::fftfreq_scaled(n, scale, (kind, device))?
    };
    let library = match xp {
        None => Library::NumPy,
        Some(xp) => {
            let name = xp.getattr("__name__").map(|n| n.to_string()).unwrap_or_else(|_| "namespace".into());
            Library::Namespace { name, namespace: Arc::new(xp.unbind()) }
        }
    };
    wrap(py, &library, result, false)
}

/// `next_fast_len` (`prev == false`) or `prev_fast_len`.
#[pyfunction]
#[pyo3(signature = (target, real, prev))]
fn fast_len(target: i64, real: bool, prev: bool) -> PyResult<u64> {
    Ok(if prev { ops::prev_fast_len(target, real)? } else { ops::next_fast_len(target, real)? })
}

/// Adds the `fft` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "fft")?;
    module.add_function(wrap_pyfunction!(transform_1d, &module)?)?;
    module.add_function(wrap_pyfunction!(transform_nd, &module)?)?;
    module.add_function(wrap_pyfunction!(real_transform, &module)?)?;
    module.add_function(wrap_pyfunction!(real_transform_nd, &module)?)?;
    module.add_function(wrap_pyfunction!(shift, &module)?)?;
    module.add_function(wrap_pyfunction!(frequencies, &module)?)?;
    module.add_function(wrap_pyfunction!(fast_len, &module)?)?;
    super::attach(parent, &module)
}
