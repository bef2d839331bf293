//! The inference half of `scipy.stats._stats_py`: correlations and tests,
//! packed in SciPy's result objects (`torchbridge.stats._stats_py`).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::super::{reduce, AxisArg, Device};
use super::{nan_policy, result_class, Arg};
use crate::ops::stats::stats_py::{self as ops, Alternative, KendallMethod};
use crate::Error;

/// `alternative=`.
pub(in crate::python::stats) fn alternative(arg: Arg<'_, '_>) -> PyResult<Alternative> {
    match arg {
        None => Ok(Alternative::TwoSided),
        Some(a) => match a.cast::<PyString>() {
            Ok(s) => Ok(Alternative::from_scipy(&s.to_cow()?)?),
            Err(_) => Ok(Alternative::from_scipy("")?),
        },
    }
}

fn string(arg: Arg<'_, '_>, default: &str) -> PyResult<String> {
    match arg {
        None => Ok(default.to_string()),
        Some(a) => Ok(a.str()?.to_cow()?.into_owned()),
    }
}

/// Packs `values` in the result class `name` of `torchbridge.stats._stats_py`.
pub(in crate::python::stats) fn pack(py: Python<'_>, name: &str, values: Vec<Py<PyAny>>) -> PyResult<Py<PyAny>> {
    let mut values = values;
    if name == "SignificanceResult" {
        // SciPy sets `correlation` to the statistic
        values.push(values[0].clone_ref(py));
    }
    Ok(result_class(py, name)?.call1(PyTuple::new(py, values)?)?.unbind())
}

/// Pearson correlation coefficient and p-value for testing non-correlation.
///
/// ``r = sum(xm * ym) / (|xm| |ym|)`` of the centred slices along ``axis``
/// (rescaled by their largest deviation first, as SciPy), clipped to
/// [-1, 1]; the p-value from the beta distribution ``r`` follows under the
/// null (``betainc``/``betaincc`` with ``a = b = n/2 - 1``). Constant input
/// gives NaN with SciPy's ``ConstantInputWarning``. A ``PearsonRResult``
/// (``statistic``, ``pvalue``; no ``confidence_interval`` method); ``method``
/// other than ``None`` (the resampling tests) raises
/// ``UnsupportedParameterError``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, y, *, alternative = None, method = None, axis = Some(0), device = None), text_signature = "(x, y, *, alternative='two-sided', method=None, axis=0, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn pearsonr(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    alternative: Arg<'_, '_>,
    method: Arg<'_, '_>,
    axis: Option<i64>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let alt = self::alternative(alternative)?;
    if method.is_some_and(|m| !m.is_none()) {
        return Err(Error::NotImplemented(
            "pearsonr method= a PermutationMethod/MonteCarloMethod: torchbridge computes the analytic p-value only"
                .into(),
        )
        .into());
    }
    let v = reduce(py, device, &[x, y], move |t| ops::pearsonr(&t[0], &t[1], alt, axis))?;
    pack(py, "PearsonRResult", v)
}

/// Calculate a Spearman correlation coefficient with associated p-value.
///
/// The Pearson correlation of the average ranks of each variable (one sort
/// per variable), its p-value from Student's t with ``n - 2`` degrees of
/// freedom. ``a`` (and ``b``) 1-d or 2-d with the observations along
/// ``axis``; a scalar coefficient for two variables, else the matrix, as
/// SciPy. ``nan_policy="omit"`` drops the observations holding NaN (two
/// variables; more raise ``UnsupportedParameterError``).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, b = None, axis = Some(0), nan_policy = None, alternative = None, *, device = None), text_signature = "(a, b=None, axis=0, nan_policy='propagate', alternative='two-sided', *, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn spearmanr(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: Arg<'_, '_>,
    axis: Option<i64>,
    nan_policy: Arg<'_, '_>,
    alternative: Arg<'_, '_>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = self::alternative(alternative)?;
    let b = b.filter(|b| !b.is_none());
    let mut arrays = vec![a];
    arrays.extend(b);
    let v = reduce(py, device, &arrays, move |t| ops::spearmanr(&t[0], t.get(1), axis, policy, alt))?;
    pack(py, "SignificanceResult", v)
}

/// Calculate Kendall's tau, a correlation measure for ordinal data.
///
/// Tau-b (or tau-c) from the pairwise signs of each slice's differences
/// (``O(n**2)`` comparisons in blocks); the p-value exact (no ties, at most
/// 33 values or nearly sorted data under ``method="auto"``: the Mahonian
/// distribution tabulated on the host from ``n`` and looked up on the
/// device) or from the normal approximation with SciPy's tie-corrected
/// variance. A ``SignificanceResult``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, y, *, nan_policy = None, method = None, variant = None, alternative = None, axis = AxisArg::none(), keepdims = false, device = None), text_signature = "(x, y, *, nan_policy='propagate', method='auto', variant='b', alternative='two-sided', axis=None, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn kendalltau(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    nan_policy: Arg<'_, '_>,
    method: Arg<'_, '_>,
    variant: Arg<'_, '_>,
    alternative: Arg<'_, '_>,
    axis: AxisArg,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = self::alternative(alternative)?;
    let method = match string(method, "auto")?.as_str() {
        "auto" => KendallMethod::Auto,
        "asymptotic" => KendallMethod::Asymptotic,
        "exact" => KendallMethod::Exact,
        other => {
            return Err(Error::InvalidArgument(format!(
                "Unknown method {other} specified.  Use 'auto', 'exact' or 'asymptotic'."
            ))
            .into())
        }
    };
    let variant_c = match string(variant, "b")?.as_str() {
        "b" => false,
        "c" => true,
        other => {
            return Err(Error::InvalidArgument(format!(
                "Unknown variant of the method chosen: {other}. variant must be 'b' or 'c'."
            ))
            .into())
        }
    };
    let v = reduce(py, device, &[x, y], move |t| {
        ops::kendalltau(&t[0], &t[1], policy, method, variant_c, alt, &axis.0, keepdims)
    })?;
    pack(py, "SignificanceResult", v)
}

/// Calculate a linear least-squares regression for two sets of measurements.
///
/// Slope, intercept, ``r``, the p-value of the slope (Student's t with
/// ``n - 2`` degrees of freedom) and the standard errors of slope and
/// intercept, from two-pass (co)variances of each slice's pairs. A
/// ``LinregressResult`` (unpacks as its first five fields, as SciPy's;
/// ``intercept_stderr`` by attribute).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, y, alternative = None, *, axis = AxisArg::zero(), nan_policy = None, keepdims = false, device = None), text_signature = "(x, y, alternative='two-sided', *, axis=0, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn linregress(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    alternative: Arg<'_, '_>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = self::alternative(alternative)?;
    let v = reduce(py, device, &[x, y], move |t| ops::linregress(&t[0], &t[1], alt, &axis.0, policy, keepdims))?;
    pack(py, "LinregressResult", v)
}

/// Calculate the T-test for the mean of ONE group of scores.
///
/// ``t = (mean - popmean) / sqrt(var / n)`` (two-pass variance, ``ddof=1``)
/// with ``n - 1`` degrees of freedom, the p-value from ``stdtr``. A
/// ``TtestResult`` (``statistic``, ``pvalue``, ``df``; no
/// ``confidence_interval`` method).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, popmean, axis = AxisArg::zero(), nan_policy = None, alternative = None, *, keepdims = false, device = None), text_signature = "(a, popmean, axis=0, nan_policy='propagate', alternative='two-sided', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn ttest_1samp(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    popmean: &Bound<'_, PyAny>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    alternative: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = self::alternative(alternative)?;
    let v = reduce(py, device, &[a, popmean], move |t| ops::ttest_1samp(&t[0], &t[1], &axis.0, policy, alt, keepdims))?;
    pack(py, "TtestResult", v)
}

/// Calculate the T-test for the means of *two independent* samples of scores.
///
/// Student's t with the pooled variance (``equal_var``) or Welch's t with
/// the Welch-Satterthwaite degrees of freedom, the p-value from ``stdtr``;
/// the samples broadcast in their other dimensions. A ``TtestResult``.
/// ``trim`` other than 0 and ``method`` other than ``None`` raise
/// ``UnsupportedParameterError``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, *, axis = AxisArg::zero(), equal_var = true, nan_policy = None, alternative = None, trim = 0.0, method = None, keepdims = false, device = None), text_signature = "(a, b, *, axis=0, equal_var=True, nan_policy='propagate', alternative='two-sided', trim=0, method=None, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn ttest_ind(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    axis: AxisArg,
    equal_var: bool,
    nan_policy: Arg<'_, '_>,
    alternative: Arg<'_, '_>,
    trim: f64,
    method: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = self::alternative(alternative)?;
    if !(0.0..0.5).contains(&trim) {
        return Err(Error::InvalidArgument("Trimming percentage should be 0 <= `trim` < .5.".into()).into());
    }
    if trim != 0.0 {
        return Err(
            Error::NotImplemented(format!("ttest_ind trim={trim}: the trimmed (Yuen) t test is not built")).into()
        );
    }
    if method.is_some_and(|m| !m.is_none()) {
        return Err(Error::NotImplemented(
            "ttest_ind method= a PermutationMethod/MonteCarloMethod: torchbridge computes the analytic p-value only"
                .into(),
        )
        .into());
    }
    let v =
        reduce(py, device, &[a, b], move |t| ops::ttest_ind(&t[0], &t[1], &axis.0, equal_var, policy, alt, keepdims))?;
    pack(py, "TtestResult", v)
}

/// Calculate the t-test on TWO RELATED samples of scores, a and b.
///
/// The one-sample t test of the paired differences ``a - b`` against 0. A
/// ``TtestResult``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, axis = AxisArg::zero(), nan_policy = None, alternative = None, *, keepdims = false, device = None), text_signature = "(a, b, axis=0, nan_policy='propagate', alternative='two-sided', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn ttest_rel(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    alternative: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let alt = self::alternative(alternative)?;
    let v = reduce(py, device, &[a, b], move |t| ops::ttest_rel(&t[0], &t[1], &axis.0, policy, alt, keepdims))?;
    pack(py, "TtestResult", v)
}

/// `lambda_`: `None` (Pearson's 1), one of SciPy's names, or a number.
fn lambda(arg: Arg<'_, '_>) -> PyResult<f64> {
    match arg.filter(|a| !a.is_none()) {
        None => Ok(1.0),
        Some(a) => match a.cast::<PyString>() {
            Ok(s) => Ok(ops::lambda_by_name(&s.to_cow()?)?),
            Err(_) => a.extract::<f64>(),
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn divergence(
    py: Python<'_>,
    f_obs: &Bound<'_, PyAny>,
    f_exp: Arg<'_, '_>,
    ddof: f64,
    axis: AxisArg,
    lambda: f64,
    sum_check: bool,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let f_exp = f_exp.filter(|f| !f.is_none());
    let mut arrays = vec![f_obs];
    arrays.extend(f_exp);
    let v = reduce(py, device, &arrays, move |t| {
        ops::power_divergence(&t[0], t.get(1), ddof, &axis.0, lambda, sum_check, policy, keepdims)
    })?;
    pack(py, "Power_divergenceResult", v)
}

/// Cressie-Read power divergence statistic and goodness of fit test.
///
/// ``2/(lambda (lambda + 1)) sum(f_obs ((f_obs/f_exp)**lambda - 1))`` (the
/// limits ``2 sum(xlogy)`` at ``lambda`` 0 and -1) along ``axis``, against
/// the slice means when ``f_exp`` is ``None``; the p-value from ``chdtrc``
/// with ``k - 1 - ddof`` degrees of freedom. ``lambda_`` by value or by
/// SciPy's names. A ``Power_divergenceResult``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (f_obs, f_exp = None, ddof = 0.0, axis = AxisArg::zero(), lambda_ = None, *, nan_policy = None, keepdims = false, device = None), text_signature = "(f_obs, f_exp=None, ddof=0, axis=0, lambda_=None, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn power_divergence(
    py: Python<'_>,
    f_obs: &Bound<'_, PyAny>,
    f_exp: Arg<'_, '_>,
    ddof: f64,
    axis: AxisArg,
    lambda_: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let lambda = self::lambda(lambda_)?;
    divergence(py, f_obs, f_exp, ddof, axis, lambda, true, nan_policy, keepdims, device)
}

/// Perform Pearson's chi-squared test.
///
/// ``sum((f_obs - f_exp)**2 / f_exp)`` along ``axis`` (``f_exp`` the slice
/// means when ``None``; its sums must match ``f_obs``'s when ``sum_check``),
/// the p-value from ``chdtrc`` with ``k - 1 - ddof`` degrees of freedom. A
/// ``Power_divergenceResult``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (f_obs, f_exp = None, ddof = 0.0, axis = AxisArg::zero(), *, sum_check = true, nan_policy = None, keepdims = false, device = None), text_signature = "(f_obs, f_exp=None, ddof=0, axis=0, *, sum_check=True, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
pub(super) fn chisquare(
    py: Python<'_>,
    f_obs: &Bound<'_, PyAny>,
    f_exp: Arg<'_, '_>,
    ddof: f64,
    axis: AxisArg,
    sum_check: bool,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    divergence(py, f_obs, f_exp, ddof, axis, 1.0, sum_check, nan_policy, keepdims, device)
}

/// Perform one-way ANOVA.
///
/// The ratio of the between-group to the within-group mean squares (data
/// centred on the grand mean first, as SciPy), or Welch's F when
/// ``equal_var`` is false; the p-value from ``fdtrc``. Groups each constant
/// but differing give ``inf``, all equal NaN. An ``F_onewayResult``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (*samples, axis = AxisArg::zero(), equal_var = true, nan_policy = None, keepdims = false, device = None), text_signature = "(*samples, axis=0, equal_var=True, nan_policy='propagate', keepdims=False, device=None)")]
pub(super) fn f_oneway(
    py: Python<'_>,
    samples: &Bound<'_, PyTuple>,
    axis: AxisArg,
    equal_var: bool,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    if samples.len() < 2 {
        return Err(PyTypeError::new_err(format!("At least two samples are required; got {}.", samples.len())));
    }
    let items: Vec<Bound<'_, PyAny>> = samples.iter().collect();
    let refs: Vec<&Bound<'_, PyAny>> = items.iter().collect();
    let v = reduce(py, device, &refs, move |t| {
        let r: Vec<&tch::Tensor> = t.iter().collect();
        ops::f_oneway(&r, &axis.0, equal_var, policy, keepdims)
    })?;
    pack(py, "F_onewayResult", v)
}
