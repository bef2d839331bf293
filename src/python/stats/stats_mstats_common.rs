//! The `scipy.stats._stats_mstats_common` functions: `theilslopes`, packed
//! in SciPy's `TheilslopesResult` (`torchbridge.stats._stats_mstats_common`).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::stats_py::{nan_policy, Arg};
use super::{reduce, AxisArg, Device};
use crate::ops::stats::stats_mstats_common::{self as ops, TheilMethod};

/// Computes the Theil-Sen estimator for a set of points (x, y).
///
/// Per slice along ``axis`` (all of ``y`` for ``None``, SciPy's default),
/// the slopes of every pair with distinct ``x`` from one ``(n, n)``
/// difference table on the device (``n**2`` values per slice in memory),
/// sorted once; the median slope, the intercept (``method="separate"``:
/// ``median(y) - slope * median(x)``; ``"joint"``: ``median(y - slope *
/// x)``) and the bounds of the ``alpha`` confidence interval by Sen's
/// normal approximation (tie-corrected variance, the quantile from
/// ``ndtri``), all libtorch ops. ``x`` defaults to ``arange(n)``. A
/// ``TheilslopesResult`` (``slope``, ``intercept``, ``low_slope``,
/// ``high_slope``), float64 as SciPy's.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (y, x = None, alpha = 0.95, method = None, *, axis = AxisArg::none(), nan_policy = None, keepdims = false, device = None), text_signature = "(y, x=None, alpha=0.95, method='separate', *, axis=None, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn theilslopes(
    py: Python<'_>,
    y: &Bound<'_, PyAny>,
    x: Arg<'_, '_>,
    alpha: f64,
    method: Arg<'_, '_>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let method = match method {
        None => TheilMethod::Separate,
        Some(m) => TheilMethod::from_scipy(&m.str()?.to_cow()?)?,
    };
    let x = x.filter(|v| !v.is_none());
    let mut arrays = vec![y];
    arrays.extend(x);
    let has_x = x.is_some();
    let v = reduce(py, device, &arrays, move |t| {
        ops::theilslopes(&t[0], if has_x { Some(&t[1]) } else { None }, alpha, method, &axis.0, policy, keepdims)
    })?;
    let class = py.import("torchbridge.stats._stats_mstats_common")?.getattr("TheilslopesResult")?;
    Ok(class.call1(PyTuple::new(py, v)?)?.unbind())
}

/// Adds the functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(theilslopes, module)?)?;
    Ok(())
}
