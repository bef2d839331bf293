//! The `scipy.stats` functions of `_mannwhitneyu`, `_morestats` (`boxcox`,
//! `yeojohnson` for a given `lmbda`, `wilcoxon`) and `_entropy`
//! (`differential_entropy`).

use pyo3::prelude::*;

use super::stats_py::{alternative, nan_policy, Arg};
use super::{reduce, reduce_one, AxisArg, Device};
use crate::ops::stats::entropy::{self, EntropyMethod};
use crate::ops::stats::mannwhitneyu::{self as mwu, MwuMethod};
use crate::ops::stats::morestats::{self, WilcoxonMethod, ZeroMethod};
use crate::ops::stats::stats_py::{Alternative, Reduced};
use crate::Error;

/// Perform the Mann-Whitney U rank test on two independent samples.
///
/// U of ``x`` from the average ranks of both samples together (two sorts
/// per slice give the ranks and the tie sizes); the p-value exact (the null
/// distribution of U tabulated on the host from the two sizes, looked up on
/// the device) or from the tie-corrected normal approximation with
/// ``use_continuity``; ``method="auto"`` chooses as SciPy (exact when a
/// sample has at most 8 values and nothing is tied). A
/// ``MannwhitneyuResult``. A ``PermutationMethod`` raises
/// ``UnsupportedParameterError``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, y, use_continuity = true, alternative = None, axis = AxisArg::zero(), method = None, *, nan_policy = None, keepdims = false, device = None), text_signature = "(x, y, use_continuity=True, alternative='two-sided', axis=0, method='auto', *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn mannwhitneyu(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    use_continuity: bool,
    alternative: Arg<'_, '_>,
    axis: AxisArg,
    method: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = self::alternative(alternative)?;
    let method = match method.filter(|m| !m.is_none()) {
        None => MwuMethod::Auto,
        Some(m) => match m.extract::<String>() {
            Ok(s) => MwuMethod::from_scipy(&s)?,
            Err(_) => {
                return Err(Error::NotImplemented(
                    "mannwhitneyu method= a PermutationMethod: use 'auto', 'asymptotic' or 'exact'".into(),
                )
                .into())
            }
        },
    };
    let v = reduce(py, device, &[x, y], move |t| {
        mwu::mannwhitneyu(&t[0], &t[1], use_continuity, alt, &axis.0, method, policy, keepdims)
    })?;
    let class = py.import("torchbridge.stats._mannwhitneyu")?.getattr("MannwhitneyuResult")?;
    Ok(class.call1(pyo3::types::PyTuple::new(py, v)?)?.unbind())
}

fn lmbda_value(lmbda: Arg<'_, '_>, routine: &str) -> PyResult<f64> {
    match lmbda.filter(|l| !l.is_none()) {
        None => Err(Error::NotImplemented(format!(
            "{routine} with lmbda=None: the maximum-likelihood lmbda is not built; pass lmbda"
        ))
        .into()),
        Some(l) => l.extract::<f64>(),
    }
}

/// Return a dataset transformed by a Box-Cox power transformation.
///
/// ``(x**lmbda - 1) / lmbda`` (``log(x)`` at ``lmbda = 0``), SciPy's
/// ``special.boxcox`` elementwise (torchbridge's ``special.boxcox`` kernel,
/// composed of libtorch ops on the input's device). Only a given ``lmbda``: ``lmbda=None``
/// (the maximum-likelihood estimate, with ``alpha``/``optimizer``) raises
/// ``UnsupportedParameterError``.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (x, lmbda = None, alpha = None, optimizer = None, *, device = None), text_signature = "(x, lmbda=None, alpha=None, optimizer=None, *, device=None)")]
fn boxcox(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    lmbda: Arg<'_, '_>,
    alpha: Arg<'_, '_>,
    optimizer: Arg<'_, '_>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (alpha, optimizer);
    let l = lmbda_value(lmbda, "boxcox")?;
    reduce_one(py, device, &[x], move |t| Ok(Reduced { values: vec![morestats::boxcox(&t[0], l)?], warnings: vec![] }))
}

/// Return a dataset transformed by a Yeo-Johnson power transformation.
///
/// ``((1 + x)**lmbda - 1) / lmbda`` for ``x >= 0`` and
/// ``-((1 - x)**(2 - lmbda) - 1) / (2 - lmbda)`` below (``log1p``/``expm1``
/// forms, the logarithmic limits at ``lmbda`` 0 and 2), computed by
/// torchbridge from libtorch ops on the input's device. Only a given
/// ``lmbda``: ``lmbda=None`` raises ``UnsupportedParameterError``.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (x, lmbda = None, *, device = None), text_signature = "(x, lmbda=None, *, device=None)")]
fn yeojohnson(py: Python<'_>, x: &Bound<'_, PyAny>, lmbda: Arg<'_, '_>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    let l = lmbda_value(lmbda, "yeojohnson")?;
    reduce_one(py, device, &[x], move |t| {
        Ok(Reduced { values: vec![morestats::yeojohnson(&t[0], l)?], warnings: vec![] })
    })
}

/// Given a sample of a distribution, estimate the differential entropy.
///
/// The m-spacing estimators on each slice sorted once: Vasicek, van Es,
/// Ebrahimi, Correa; ``"auto"`` picks as SciPy (van Es up to 10 values,
/// Ebrahimi up to 1000, Vasicek beyond). ``window_length`` defaults to
/// ``round(sqrt(n))``. ``nan_policy="omit"`` on n-d input holding NaN raises
/// ``UnsupportedParameterError`` (the slices would differ in length).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (values, *, window_length = None, base = None, axis = 0, method = None, nan_policy = None, keepdims = false, device = None), text_signature = "(values, *, window_length=None, base=None, axis=0, method='auto', nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn differential_entropy(
    py: Python<'_>,
    values: &Bound<'_, PyAny>,
    window_length: Option<i64>,
    base: Option<f64>,
    axis: i64,
    method: Option<String>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let method = EntropyMethod::from_scipy(method.as_deref().unwrap_or("auto"))?;
    reduce_one(py, device, &[values], move |t| {
        entropy::differential_entropy(&t[0], window_length, base, axis, method, policy, keepdims)
    })
}

/// Calculate the Wilcoxon signed-rank test.
///
/// The differences ``d = x - y`` (or ``x``) along ``axis``; the ranks of
/// ``|d|`` by one sort per slice (average ranks for ties; zeros handled per
/// ``zero_method``), the signed-rank sums and the tie-corrected normal
/// approximation (``correction``: the continuity correction) from libtorch
/// ops on the device. The exact p-value uses the null distribution of the
/// statistic tabulated on the host from each slice's size (one scalar per
/// slice leaves the device); ``method="auto"`` chooses as SciPy (asymptotic
/// beyond 50 values; exact without ties and zeros; the exact permutation
/// test over all ``2**n`` sign flips, on the device, up to 13 values; else
/// asymptotic). A ``WilcoxonResult`` (``statistic``, ``pvalue``, and
/// ``zstatistic`` for ``method="asymptotic"``). A ``PermutationMethod``
/// ``method`` raises ``UnsupportedParameterError``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, y = None, zero_method = None, correction = None, alternative = None, method = None, *, axis = AxisArg::zero(), nan_policy = None, keepdims = false, device = None), text_signature = "(x, y=None, zero_method='wilcox', correction=False, alternative='two-sided', method='auto', *, axis=0, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn wilcoxon(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: Arg<'_, '_>,
    zero_method: Arg<'_, '_>,
    correction: Arg<'_, '_>,
    alternative: Arg<'_, '_>,
    method: Arg<'_, '_>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let text = |a: Arg<'_, '_>, default: &str| -> PyResult<String> {
        match a {
            None => Ok(default.to_string()),
            Some(v) => Ok(v.str()?.to_cow()?.to_lowercase()),
        }
    };
    let zero = ZeroMethod::from_scipy(&text(zero_method, "wilcox")?)?;
    let correction = match correction {
        None => false,
        Some(c) => match c.extract::<i64>() {
            Ok(0) => false,
            Ok(1) => true,
            _ => return Err(Error::InvalidArgument("`correction` must be one of {False, True}.".into()).into()),
        },
    };
    let alt = match text(alternative, "two-sided")?.as_str() {
        "two-sided" => Alternative::TwoSided,
        "less" => Alternative::Less,
        "greater" => Alternative::Greater,
        _ => {
            return Err(
                Error::InvalidArgument("`alternative` must be one of {'two-sided', 'less', 'greater'}.".into()).into()
            )
        }
    };
    let method = match method.filter(|m| !m.is_none()) {
        None => WilcoxonMethod::Auto,
        Some(m) => match m.extract::<String>() {
            Ok(s) => WilcoxonMethod::from_scipy(&s)?,
            Err(_) => {
                return Err(Error::NotImplemented(
                    "wilcoxon method= a PermutationMethod: use 'auto', 'asymptotic' or 'exact'".into(),
                )
                .into())
            }
        },
    };
    let y = y.filter(|v| !v.is_none());
    let mut arrays = vec![x];
    arrays.extend(y);
    let paired = y.is_some();
    let mut v = reduce(py, device, &arrays, move |t| {
        morestats::wilcoxon(
            &t[0],
            if paired { Some(&t[1]) } else { None },
            zero,
            correction,
            alt,
            method,
            &axis.0,
            policy,
            keepdims,
        )
    })?;
    let z = if v.len() == 3 { v.pop() } else { None };
    let class = py.import("torchbridge.stats._morestats")?.getattr("WilcoxonResult")?;
    let result = class.call1(pyo3::types::PyTuple::new(py, v)?)?;
    if let Some(z) = z {
        result.setattr("zstatistic", z)?;
    }
    Ok(result.unbind())
}

/// Adds the functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(mannwhitneyu, module)?)?;
    module.add_function(wrap_pyfunction!(boxcox, module)?)?;
    module.add_function(wrap_pyfunction!(yeojohnson, module)?)?;
    module.add_function(wrap_pyfunction!(differential_entropy, module)?)?;
    module.add_function(wrap_pyfunction!(wilcoxon, module)?)?;
    Ok(())
}
