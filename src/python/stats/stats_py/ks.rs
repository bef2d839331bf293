//! `ks_1samp` and `ks_2samp`, packed in SciPy's `KstestResult`
//! (`torchbridge.stats._stats_py`).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::super::{reduce, warn, AxisArg, Device};
use super::{nan_policy, result_class, Arg};
use crate::ops::stats::stats_py::{self as ops, Alternative, Ks1Method, Ks2Method};
use crate::python::container::{compute, import_all, wrap};
use crate::python::placement::on_device;

/// `alternative=` as the KS tests read it: by its first letter, any case.
fn ks_alternative(arg: Arg<'_, '_>, message: impl Fn(&str) -> String) -> PyResult<Alternative> {
    let Some(a) = arg else { return Ok(Alternative::TwoSided) };
    let s: String = a.extract().map_err(|_| PyValueError::new_err(message(&a.to_string())))?;
    match s.to_lowercase().chars().next() {
        Some('t') => Ok(Alternative::TwoSided),
        Some('g') => Ok(Alternative::Greater),
        Some('l') => Ok(Alternative::Less),
        _ => Err(PyValueError::new_err(message(&s))),
    }
}

fn method_name(arg: Arg<'_, '_>) -> PyResult<String> {
    match arg {
        None => Ok("auto".into()),
        Some(m) => Ok(m.str()?.to_cow()?.into_owned()),
    }
}

fn pack(py: Python<'_>, values: Vec<Py<PyAny>>) -> PyResult<Py<PyAny>> {
    Ok(result_class(py, "KstestResult")?.call1(PyTuple::new(py, values)?)?.unbind())
}

/// Performs the one-sample Kolmogorov-Smirnov test for goodness of fit.
///
/// Each slice along ``axis`` sorted on the device; ``cdf(sorted, *args)``
/// called once on all the sorted slices together (an array of the caller's
/// type, on the caller's device, the reduced axis last); ``D+ = max(i/n -
/// F)`` and ``D- = max(F - (i-1)/n)`` with their first positions by libtorch
/// ops. The p-values are evaluated on the host, one scalar per slice (only
/// the statistics leave the device): ``smirnov(n, D)`` for the one-sided
/// tests; for the two-sided test the exact distribution of ``D_n``
/// (``method="auto"``/``"exact"``: Durbin's matrix, Pomeranz's recursion,
/// Pelz-Good or ``2 smirnov`` as SciPy's ``kstwo`` chooses),
/// ``kolmogorov(sqrt(n) D)`` (``"asymp"``) or ``2 smirnov(n, D)``
/// (``"approx"``). A ``KstestResult`` (``statistic``, ``pvalue``; with
/// ``statistic_location`` and ``statistic_sign`` as attributes).
///
/// ``cdf`` may also be a distribution's name, looked up as
/// ``getattr(torchbridge.stats, name).cdf`` (``AttributeError`` where
/// torchbridge has no such distribution; SciPy's ``ks_1samp`` takes callables
/// only, its ``kstest`` names). A ``method`` other than SciPy's four names
/// raises ``ValueError`` (SciPy treats any other value as ``"approx"``).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, cdf, args = None, alternative = None, method = None, *, axis = AxisArg::zero(), nan_policy = None, keepdims = false, device = None), text_signature = "(x, cdf, args=(), alternative='two-sided', method='auto', *, axis=0, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(in crate::python::stats) fn ks_1samp(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    cdf: &Bound<'_, PyAny>,
    args: Arg<'_, '_>,
    alternative: Arg<'_, '_>,
    method: Arg<'_, '_>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = ks_alternative(alternative, |a| format!("Unexpected value alternative='{a}'"))?;
    let method = Ks1Method::from_scipy(&method_name(method)?)?;
    let cdf = if let Ok(name) = cdf.cast::<PyString>() {
        py.import("torchbridge.stats")?.getattr(name)?.getattr("cdf")?
    } else if cdf.is_callable() {
        cdf.clone()
    } else {
        return Err(PyTypeError::new_err(format!("'{}' object is not callable", cdf.get_type().name()?)));
    };
    let extra: Vec<Bound<'_, PyAny>> = match args.filter(|a| !a.is_none()) {
        None => Vec::new(),
        Some(a) => a.try_iter()?.collect::<PyResult<_>>()?,
    };
    let values = on_device(device, || {
        let (tensors, library) = import_all(&[x])?;
        let elements = tensors[0].numel();
        let prepared = compute(py, elements, move || ops::ks_1samp_prepare(&tensors[0], &axis.0, policy))?;
        let sorted = wrap(py, &library, prepared.sorted.shallow_clone(), false)?;
        let mut call = vec![sorted.into_bound(py)];
        call.extend(extra);
        let cdfvals = cdf.call1(PyTuple::new(py, call)?)?;
        let (v, _) = import_all(&[&cdfvals])?;
        let reduced = compute(py, elements, move || ops::ks_1samp_finish(prepared, &v[0], alt, method, keepdims))?;
        warn(py, &reduced.warnings)?;
        reduced.values.into_iter().map(|t| wrap(py, &library, t, true)).collect::<PyResult<Vec<_>>>()
    })?;
    pack(py, values)
}

/// Performs the two-sample Kolmogorov-Smirnov test for goodness of fit.
///
/// Both samples sorted per slice on the device; the empirical CDFs at every
/// pooled value by ``searchsorted``; ``D`` the largest difference (with its
/// first location and sign, as SciPy picks them), by libtorch ops; the
/// samples broadcast in their other dimensions. The p-values are evaluated
/// on the host, one scalar per slice (only the statistics and sample sizes
/// leave the device): exact (``method="exact"``, or ``"auto"`` when neither
/// sample has more than 10000 values: Hodges' lattice-path counts, the
/// statistic rounded to a multiple of ``1/lcm(n1, n2)`` as SciPy's) or
/// asymptotic (``kstwo`` at the effective size for the two-sided test,
/// Hodges' approximation for the one-sided ones), with SciPy's fallback and
/// its ``RuntimeWarning`` where the exact count overflows. A ``KstestResult``
/// (``statistic``, ``pvalue``; ``statistic_location`` and
/// ``statistic_sign`` as attributes). The statistic, p-value and location
/// are float64 (SciPy's statistic and p-value are; its location keeps the
/// input's dtype).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (data1, data2, alternative = None, method = None, *, axis = AxisArg::zero(), nan_policy = None, keepdims = false, device = None), text_signature = "(data1, data2, alternative='two-sided', method='auto', *, axis=0, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(in crate::python::stats) fn ks_2samp(
    py: Python<'_>,
    data1: &Bound<'_, PyAny>,
    data2: &Bound<'_, PyAny>,
    alternative: Arg<'_, '_>,
    method: Arg<'_, '_>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let method = Ks2Method::from_scipy(&method_name(method)?)?;
    let alt = ks_alternative(alternative, |a| format!("Invalid value for alternative: {a}"))?;
    let v = reduce(py, device, &[data1, data2], move |t| {
        ops::ks_2samp(&t[0], &t[1], alt, method, &axis.0, policy, keepdims)
    })?;
    pack(py, v)
}
