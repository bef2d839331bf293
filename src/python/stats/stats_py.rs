//! The `scipy.stats._stats_py` functions (with `variation` and `entropy`):
//! parsing SciPy's arguments, calling `crate::ops::stats::stats_py`, and
//! packing SciPy's result objects (`ModeResult`, `DescribeResult`, from
//! `torchbridge.stats._stats_py`).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyString, PyTuple};
use tch::{Kind, Tensor};

use super::{int_axis, policy, reduce, reduce_one, AxisArg, Device};
use crate::ops::stats::stats_py::{self as ops, Interpolation, Limits, NanPolicy, Power, RankMethod, Reduced};
use crate::Error;

pub(super) type Arg<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

mod inference;
mod ks;
pub(super) use inference::alternative;

pub(super) fn nan_policy(arg: Arg<'_, '_>) -> PyResult<NanPolicy> {
    match arg {
        None => Ok(NanPolicy::Propagate),
        Some(p) => policy(p),
    }
}

/// A result class of `torchbridge.stats._stats_py` (`ModeResult`, `DescribeResult`).
pub(super) fn result_class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("torchbridge.stats._stats_py")?.getattr(name)
}

/// `dtype=`: `None`, or a NumPy-style dtype (object, name or type), as a libtorch kind.
fn dtype_kind(dtype: Arg<'_, '_>) -> PyResult<Option<Kind>> {
    let Some(d) = dtype.filter(|d| !d.is_none()) else { return Ok(None) };
    let name: String = d.py().import("numpy")?.call_method1("dtype", (d,))?.getattr("name")?.extract()?;
    Ok(Some(match name.as_str() {
        "float16" => Kind::Half,
        "float32" => Kind::Float,
        "float64" => Kind::Double,
        "int8" => Kind::Int8,
        "int16" => Kind::Int16,
        "int32" => Kind::Int,
        "int64" => Kind::Int64,
        "uint8" => Kind::Uint8,
        "bool" => Kind::Bool,
        other => {
            return Err(
                Error::NotImplemented(format!("dtype={other}: torchbridge.stats computes in real dtypes")).into()
            )
        }
    }))
}

fn cast(t: &Tensor, kind: Option<Kind>) -> crate::Result<Tensor> {
    Ok(match kind {
        Some(k) if k != t.kind() => t.f_to_kind(k)?,
        _ => t.shallow_clone(),
    })
}

/// Compute the z score.
///
/// ``(a - mean) / std`` along ``axis`` (all of ``a`` for ``None``), the
/// standard deviation with ``ddof``; slices whose standard deviation
/// vanishes next to their mean are NaN, as SciPy's. ``nan_policy="omit"``
/// leaves NaNs out of the statistics (they stay NaN in the result).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = Some(0), ddof = 0.0, nan_policy = None, *, device = None), text_signature = "(a, axis=0, ddof=0, nan_policy='propagate', *, device=None)")]
fn zscore(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: Option<i64>,
    ddof: f64,
    nan_policy: Arg<'_, '_>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| {
        Ok(Reduced { values: vec![ops::zmap(&t[0], &t[0], axis, ddof, policy, true)?], warnings: vec![] })
    })
}

/// Calculate the relative z-scores.
///
/// ``(scores - mean(compare)) / std(compare)`` along ``axis`` (all of
/// ``compare`` for ``None``), the standard deviation with ``ddof``;
/// ``nan_policy="omit"`` leaves the NaNs of ``compare`` out of its statistics.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (scores, compare, axis = Some(0), ddof = 0.0, nan_policy = None, *, device = None), text_signature = "(scores, compare, axis=0, ddof=0, nan_policy='propagate', *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn zmap(
    py: Python<'_>,
    scores: &Bound<'_, PyAny>,
    compare: &Bound<'_, PyAny>,
    axis: Option<i64>,
    ddof: f64,
    nan_policy: Arg<'_, '_>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[scores, compare], move |t| {
        Ok(Reduced { values: vec![ops::zmap(&t[0], &t[1], axis, ddof, policy, false)?], warnings: vec![] })
    })
}

/// Compute the sample skewness of a data set.
///
/// The Fisher-Pearson coefficient ``m3 / m2**1.5`` of each slice (two-pass
/// central moments), NaN where all values are equal; ``bias=False`` applies
/// the adjusted Fisher-Pearson correction (slices of more than 2 values).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), bias = true, nan_policy = None, *, keepdims = false, device = None), text_signature = "(a, axis=0, bias=True, nan_policy='propagate', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn skew(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    bias: bool,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| ops::skew(&t[0], &axis.0, bias, policy, keepdims))
}

/// Compute the kurtosis (Fisher or Pearson) of a dataset.
///
/// ``m4 / m2**2`` of each slice (two-pass central moments), less 3 when
/// ``fisher``; NaN where all values are equal; ``bias=False`` applies the
/// k-statistics correction (slices of more than 3 values).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), fisher = true, bias = true, nan_policy = None, *, keepdims = false, device = None), text_signature = "(a, axis=0, fisher=True, bias=True, nan_policy='propagate', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn kurtosis(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    fisher: bool,
    bias: bool,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| ops::kurtosis(&t[0], &axis.0, fisher, bias, policy, keepdims))
}

/// `order`: an integral scalar or a non-empty 1-d sequence of them; whether it was a sequence.
fn orders(order: &Bound<'_, PyAny>) -> PyResult<(Vec<f64>, bool)> {
    if let Ok(v) = order.extract::<f64>() {
        return Ok((vec![v], false));
    }
    match order.extract::<Vec<f64>>() {
        Ok(v) => Ok((v, true)),
        Err(_) => Err(PyValueError::new_err("`order` must be a scalar or a non-empty 1D array.")),
    }
}

/// Calculate the nth moment about the mean for a sample.
///
/// The mean of ``(a - mean)**order`` over each slice (about ``center``
/// instead when given), for an integral ``order`` or a list of them (the
/// results stacked along a new first axis, as SciPy's).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, order = None, axis = AxisArg::zero(), nan_policy = None, *, center = None, keepdims = false, device = None), text_signature = "(a, order=1, axis=0, nan_policy='propagate', *, center=None, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn moment(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    order: Arg<'_, '_>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    center: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let (orders, listed) = match order {
        Some(o) => orders(o)?,
        None => (vec![1.0], false),
    };
    let center = match center.filter(|c| !c.is_none()) {
        None => None,
        Some(c) => match c.extract::<f64>() {
            Ok(v) if c.cast::<PyString>().is_err() => Some(v),
            _ => {
                return Err(Error::NotImplemented(
                    "center= an array: torchbridge's moment takes a scalar center (or None)".into(),
                )
                .into())
            }
        },
    };
    reduce_one(py, device, &[a], move |t| {
        let r = ops::moment(&t[0], &orders, &axis.0, policy, center, keepdims)?;
        if listed {
            Ok(Reduced { values: vec![Tensor::f_stack(&r.values, 0)?], warnings: r.warnings })
        } else {
            Ok(r)
        }
    })
}

/// Compute several descriptive statistics of the passed array.
///
/// A ``DescribeResult`` (``nobs``, ``minmax``, ``mean``, ``variance`` with
/// ``ddof``, ``skewness`` and ``kurtosis`` with ``bias``) along ``axis``
/// (all of ``a`` for ``None``); empty input raises ``ValueError``. Under
/// ``nan_policy="omit"`` SciPy answers with masked arrays; torchbridge
/// with plain arrays of the statistics of the values that are not NaN
/// (``nobs`` counted per slice).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), ddof = 1.0, bias = true, nan_policy = None, *, device = None), text_signature = "(a, axis=0, ddof=1, bias=True, nan_policy='propagate', *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn describe(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    ddof: f64,
    bias: bool,
    nan_policy: Arg<'_, '_>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let axis = match axis.0 {
        ops::Axis::Dims(d) if d.len() != 1 => {
            return Err(Error::NotImplemented("describe with a tuple axis: pass an int or None, as SciPy".into()).into())
        }
        other => other,
    };
    let v = reduce(py, device, &[a], move |t| {
        Ok(Reduced { values: ops::describe(&t[0], &axis, ddof, bias, policy)?, warnings: vec![] })
    })?;
    let minmax = PyTuple::new(py, [&v[1], &v[2]])?;
    Ok(result_class(py, "DescribeResult")?.call1((&v[0], minmax, &v[3], &v[4], &v[5], &v[6]))?.unbind())
}

/// Compute standard error of the mean.
///
/// ``std(a, ddof) / sqrt(n)`` of each slice (two-pass); slices of fewer than
/// two values are NaN with SciPy's ``SmallSampleWarning``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), ddof = 1.0, nan_policy = None, *, keepdims = false, device = None), text_signature = "(a, axis=0, ddof=1, nan_policy='propagate', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn sem(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    ddof: f64,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| ops::sem(&t[0], &axis.0, ddof, policy, keepdims))
}

/// Compute the coefficient of variation.
///
/// ``std(a, ddof) / mean(a)`` of each slice, with SciPy's special cases
/// where ``ddof`` equals the slice's size (``+-inf`` or NaN).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), nan_policy = None, ddof = 0.0, *, keepdims = false, device = None), text_signature = "(a, axis=0, nan_policy='propagate', ddof=0, *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn variation(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    ddof: f64,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| ops::variation(&t[0], &axis.0, policy, ddof, keepdims))
}

#[allow(clippy::too_many_arguments)]
fn power_mean(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    power: Power,
    axis: AxisArg,
    dtype: Arg<'_, '_>,
    weights: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let kind = dtype_kind(dtype)?;
    let weights = weights.filter(|w| !w.is_none());
    let mut arrays = vec![a];
    arrays.extend(weights);
    reduce_one(py, device, &arrays, move |t| {
        let a = cast(&t[0], kind)?;
        let w = t.get(1).map(|w| cast(w, kind)).transpose()?;
        ops::power_mean(&a, power, &axis.0, w.as_ref(), policy, keepdims)
    })
}

/// Compute the weighted geometric mean along the specified axis.
///
/// ``exp(sum(weights * log(a)) / sum(weights))`` of each slice (equal
/// weights by default; ``weights`` broadcast against ``a``); ``dtype``
/// casts ``a`` first, as SciPy's.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), dtype = None, weights = None, *, nan_policy = None, keepdims = false, device = None), text_signature = "(a, axis=0, dtype=None, weights=None, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn gmean(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    dtype: Arg<'_, '_>,
    weights: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    power_mean(py, a, Power::Geometric, axis, dtype, weights, nan_policy, keepdims, device)
}

/// Calculate the weighted harmonic mean along the specified axis.
///
/// ``sum(weights) / sum(weights / a)`` of each slice (equal weights by
/// default); negative values make their slice NaN with SciPy's
/// ``RuntimeWarning``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), dtype = None, *, weights = None, nan_policy = None, keepdims = false, device = None), text_signature = "(a, axis=0, dtype=None, *, weights=None, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn hmean(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    dtype: Arg<'_, '_>,
    weights: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    power_mean(py, a, Power::Harmonic, axis, dtype, weights, nan_policy, keepdims, device)
}

/// Calculate the weighted power mean along the specified axis.
///
/// ``(sum(weights * a**p) / sum(weights))**(1/p)`` of each slice (the
/// geometric mean for ``p = 0``); negative values make their slice NaN with
/// SciPy's ``RuntimeWarning``; an infinite ``p`` raises
/// ``NotImplementedError``, as SciPy's.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, p, *, axis = AxisArg::zero(), dtype = None, weights = None, nan_policy = None, keepdims = false, device = None), text_signature = "(a, p, *, axis=0, dtype=None, weights=None, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn pmean(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    p: &Bound<'_, PyAny>,
    axis: AxisArg,
    dtype: Arg<'_, '_>,
    weights: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let is_number = p.is_instance_of::<PyInt>() || p.is_instance_of::<PyFloat>();
    if !is_number {
        return Err(PyValueError::new_err("Power mean only defined for exponent of type int or float."));
    }
    let p: f64 = p.extract()?;
    power_mean(py, a, Power::P(p), axis, dtype, weights, nan_policy, keepdims, device)
}

/// A scale given as a number or one of SciPy's names.
fn scale_of(scale: &Bound<'_, PyAny>, normal: f64, message: impl Fn(&str) -> String) -> PyResult<f64> {
    if let Ok(s) = scale.cast::<PyString>() {
        let s = s.to_cow()?;
        return if s.to_lowercase() == "normal" { Ok(normal) } else { Err(PyValueError::new_err(message(&s))) };
    }
    scale.extract::<f64>()
}

/// Compute the interquartile range of the data along the specified axis.
///
/// The difference between the ``rng`` percentiles (``(25, 75)`` by
/// default) of each slice, divided by ``scale`` (``"normal"``: about
/// 1.349), with ``interpolation`` ``"linear"``, ``"lower"``, ``"higher"``,
/// ``"midpoint"`` or ``"nearest"``; one sort per slice.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, axis = AxisArg::none(), rng = None, scale = None, nan_policy = None, interpolation = "linear", keepdims = false, *, device = None), text_signature = "(x, axis=None, rng=(25, 75), scale=1.0, nan_policy='propagate', interpolation='linear', keepdims=False, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn iqr(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    axis: AxisArg,
    rng: Arg<'_, '_>,
    scale: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    interpolation: &str,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let scale = match scale {
        None => 1.0,
        Some(s) => scale_of(s, 1.348_979_500_392_163_4, |s| format!("{s} not a valid scale for `iqr`"))?,
    };
    let rng = match rng {
        None => (25.0, 75.0),
        Some(r) => {
            let v: Vec<f64> = r.extract().map_err(|_| PyTypeError::new_err("`rng` must be a two element sequence."))?;
            if v.len() != 2 {
                return Err(PyTypeError::new_err("`rng` must be a two element sequence."));
            }
            (v[0], v[1])
        }
    };
    let interpolation = Interpolation::from_scipy(interpolation)?;
    reduce_one(py, device, &[x], move |t| ops::iqr(&t[0], &axis.0, rng, scale, policy, interpolation, keepdims))
}

/// Compute the median absolute deviation of the data along the given axis.
///
/// The median of ``|x - median(x)|`` over each slice, divided by ``scale``
/// (``"normal"``: about 0.6745, making it consistent with the standard
/// deviation of normal data); ``center`` is the median (``None`` or
/// ``numpy.median``); another callable raises ``NotImplementedError``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (x, axis = AxisArg::zero(), center = None, scale = None, nan_policy = None, *, keepdims = false, device = None), text_signature = "(x, axis=0, center=None, scale=1.0, nan_policy='propagate', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn median_abs_deviation(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    axis: AxisArg,
    center: Arg<'_, '_>,
    scale: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    if let Some(c) = center.filter(|c| !c.is_none()) {
        if !c.is_callable() {
            return Err(PyTypeError::new_err(format!(
                "The argument 'center' must be callable. The given value {} is not callable.",
                c.repr()?
            )));
        }
        let median = py.import("numpy")?.getattr("median")?;
        if !c.is(&median) {
            return Err(Error::NotImplemented(
                "center= a callable other than numpy.median: torchbridge computes the median center only".into(),
            )
            .into());
        }
    }
    let scale = match scale {
        None => 1.0,
        Some(s) => scale_of(s, 0.674_489_750_196_081_7, |s| format!("{s} is not a valid scale value."))?,
    };
    reduce_one(py, device, &[x], move |t| ops::median_abs_deviation(&t[0], &axis.0, scale, policy, keepdims))
}

/// Return mean of array after trimming a specified fraction of extreme values
///
/// The mean of each slice once ``int(proportiontocut * n)`` of its values
/// are cut off each end of it (one sort per slice); a proportion leaving
/// nothing raises ``ValueError``, as SciPy's.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, proportiontocut, axis = AxisArg::zero(), *, nan_policy = None, keepdims = false, device = None), text_signature = "(a, proportiontocut, axis=0, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn trim_mean(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    proportiontocut: f64,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| ops::trim_mean(&t[0], proportiontocut, &axis.0, policy, keepdims))
}

/// A limit: `None` or a number.
fn limit(obj: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
    if obj.is_none() {
        Ok(None)
    } else {
        Ok(Some(obj.extract::<f64>()?))
    }
}

/// `limits` and `inclusive` of `tmean`/`tvar`/`tstd`/`tsem`.
fn limits(limits: Arg<'_, '_>, inclusive: Arg<'_, '_>) -> PyResult<Limits> {
    let (lower_inclusive, upper_inclusive) = match inclusive {
        None => (true, true),
        Some(i) => i.extract::<(bool, bool)>()?,
    };
    let (lower, upper) = match limits.filter(|l| !l.is_none()) {
        None => (None, None),
        Some(l) => {
            let pair: (Bound<'_, PyAny>, Bound<'_, PyAny>) = l.extract()?;
            (limit(&pair.0)?, limit(&pair.1)?)
        }
    };
    Ok(Limits { lower, upper, lower_inclusive, upper_inclusive })
}

/// Compute the trimmed mean.
///
/// The mean of the values of each slice within ``limits`` (``(lower,
/// upper)``, either ``None``; ``inclusive`` says whether values equal to a
/// limit count); no value within the limits raises ``ValueError``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, limits = None, inclusive = None, axis = AxisArg::none(), *, nan_policy = None, keepdims = false, device = None), text_signature = "(a, limits=None, inclusive=(True, True), axis=None, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn tmean(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    limits: Arg<'_, '_>,
    inclusive: Arg<'_, '_>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let lim = self::limits(limits, inclusive)?;
    reduce_one(py, device, &[a], move |t| ops::tmean(&t[0], &lim, &axis.0, policy, keepdims))
}

/// Compute the trimmed variance.
///
/// The variance (with ``ddof``) of the values of each slice within
/// ``limits`` (``inclusive`` as in ``tmean``), two-pass.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, limits = None, inclusive = None, axis = AxisArg::zero(), ddof = 1.0, *, nan_policy = None, keepdims = false, device = None), text_signature = "(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn tvar(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    limits: Arg<'_, '_>,
    inclusive: Arg<'_, '_>,
    axis: AxisArg,
    ddof: f64,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let lim = self::limits(limits, inclusive)?;
    reduce_one(py, device, &[a], move |t| ops::tvar(&t[0], &lim, &axis.0, ddof, policy, keepdims))
}

/// Compute the trimmed sample standard deviation.
///
/// The square root of ``tvar``: the standard deviation (with ``ddof``) of
/// the values of each slice within ``limits``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, limits = None, inclusive = None, axis = AxisArg::zero(), ddof = 1.0, *, nan_policy = None, keepdims = false, device = None), text_signature = "(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn tstd(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    limits: Arg<'_, '_>,
    inclusive: Arg<'_, '_>,
    axis: AxisArg,
    ddof: f64,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let lim = self::limits(limits, inclusive)?;
    reduce_one(py, device, &[a], move |t| ops::tstd(&t[0], &lim, &axis.0, ddof, policy, keepdims))
}

/// Compute the trimmed standard error of the mean.
///
/// ``tstd / sqrt(n)`` with ``n`` the number of values of each slice within
/// ``limits``.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, limits = None, inclusive = None, axis = AxisArg::zero(), ddof = 1.0, *, nan_policy = None, keepdims = false, device = None), text_signature = "(a, limits=None, inclusive=(True, True), axis=0, ddof=1, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn tsem(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    limits: Arg<'_, '_>,
    inclusive: Arg<'_, '_>,
    axis: AxisArg,
    ddof: f64,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let lim = self::limits(limits, inclusive)?;
    reduce_one(py, device, &[a], move |t| ops::tsem(&t[0], &lim, &axis.0, ddof, policy, keepdims))
}

/// Compute the trimmed minimum.
///
/// The smallest value of each slice at or above ``lowerlimit`` (above it
/// when ``inclusive`` is false), in the input's dtype; a slice with no such
/// value is NaN.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, lowerlimit = None, axis = AxisArg::zero(), inclusive = true, nan_policy = None, *, keepdims = false, device = None), text_signature = "(a, lowerlimit=None, axis=0, inclusive=True, nan_policy='propagate', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn tmin(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    lowerlimit: Option<f64>,
    axis: AxisArg,
    inclusive: bool,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| ops::textreme(&t[0], lowerlimit, false, &axis.0, inclusive, policy, keepdims))
}

/// Compute the trimmed maximum.
///
/// The largest value of each slice at or below ``upperlimit`` (below it
/// when ``inclusive`` is false), in the input's dtype; a slice with no such
/// value is NaN.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, upperlimit = None, axis = AxisArg::zero(), inclusive = true, nan_policy = None, *, keepdims = false, device = None), text_signature = "(a, upperlimit=None, axis=0, inclusive=True, nan_policy='propagate', *, keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn tmax(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    upperlimit: Option<f64>,
    axis: AxisArg,
    inclusive: bool,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    reduce_one(py, device, &[a], move |t| ops::textreme(&t[0], upperlimit, true, &axis.0, inclusive, policy, keepdims))
}

/// Return an array of the modal (most common) value in the passed array.
///
/// A ``ModeResult`` (``mode``, ``count``): the most frequent value of each
/// slice, the smallest among ties (SciPy's rule), in the input's dtype, and
/// how often it occurs; NaNs count as one value unless omitted. One sort
/// and a segment count per slice.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, axis = AxisArg::zero(), nan_policy = None, keepdims = false, *, device = None), text_signature = "(a, axis=0, nan_policy='propagate', keepdims=False, *, device=None)")]
fn mode(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    if a.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "Argument `a` is not recognized as numeric. Support for input that cannot be coerced to a numeric \
             array was deprecated in SciPy 1.9.0 and removed in SciPy 1.11.0. Please consider `np.unique`.",
        ));
    }
    let v = reduce(py, device, &[a], move |t| ops::mode(&t[0], &axis.0, policy, keepdims))?;
    Ok(result_class(py, "ModeResult")?.call1((&v[0], &v[1]))?.unbind())
}

/// Assign ranks to data, dealing with ties appropriately.
///
/// Ranks from 1 along ``axis`` (of the flattened array for ``None``) with
/// the tie ``method`` ``"average"``, ``"min"``, ``"max"``, ``"dense"`` or
/// ``"ordinal"``: float64 for ``"average"``, int64 otherwise (float64 with
/// NaN where NaN is propagated or omitted). One stable sort and segment
/// arithmetic on the ties, no Python loop.
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (a, method = "average", *, axis = None, nan_policy = None, device = None), text_signature = "(a, method='average', *, axis=None, nan_policy='propagate', device=None)")]
fn rankdata(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    method: &str,
    axis: Arg<'_, '_>,
    nan_policy: Arg<'_, '_>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let method = RankMethod::from_scipy(method)?;
    let policy = self::nan_policy(nan_policy)?;
    let axis = int_axis(axis)?;
    let v = reduce(py, device, &[a], move |t| {
        Ok(Reduced { values: vec![ops::rankdata(&t[0], method, axis, policy)?], warnings: vec![] })
    })?;
    Ok(v.into_iter().next().expect("one result"))
}

/// Calculate the Shannon entropy/relative entropy of given distribution(s).
///
/// ``-sum(pk * log(pk))`` of ``pk`` normalised along ``axis``, or the
/// relative entropy ``sum(pk * log(pk / qk))`` against ``qk`` (broadcast
/// against ``pk``, normalised too), in units of ``base`` (nats for ``None``).
///
#[doc = stats_note!()]
#[pyfunction]
#[pyo3(signature = (pk, qk = None, base = None, axis = AxisArg::zero(), *, nan_policy = None, keepdims = false, device = None), text_signature = "(pk, qk=None, base=None, axis=0, *, nan_policy='propagate', keepdims=False, device=None)")]
#[allow(clippy::too_many_arguments)]
fn entropy(
    py: Python<'_>,
    pk: &Bound<'_, PyAny>,
    qk: Arg<'_, '_>,
    base: Option<f64>,
    axis: AxisArg,
    nan_policy: Arg<'_, '_>,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let policy = self::nan_policy(nan_policy)?;
    let qk = qk.filter(|q| !q.is_none());
    let mut arrays = vec![pk];
    arrays.extend(qk);
    reduce_one(py, device, &arrays, move |t| ops::entropy(&t[0], t.get(1), base, &axis.0, policy, keepdims))
}

/// Adds the functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(zscore, module)?)?;
    module.add_function(wrap_pyfunction!(zmap, module)?)?;
    module.add_function(wrap_pyfunction!(skew, module)?)?;
    module.add_function(wrap_pyfunction!(kurtosis, module)?)?;
    module.add_function(wrap_pyfunction!(moment, module)?)?;
    module.add_function(wrap_pyfunction!(describe, module)?)?;
    module.add_function(wrap_pyfunction!(sem, module)?)?;
    module.add_function(wrap_pyfunction!(variation, module)?)?;
    module.add_function(wrap_pyfunction!(gmean, module)?)?;
    module.add_function(wrap_pyfunction!(hmean, module)?)?;
    module.add_function(wrap_pyfunction!(pmean, module)?)?;
    module.add_function(wrap_pyfunction!(iqr, module)?)?;
    module.add_function(wrap_pyfunction!(median_abs_deviation, module)?)?;
    module.add_function(wrap_pyfunction!(trim_mean, module)?)?;
    module.add_function(wrap_pyfunction!(tmean, module)?)?;
    module.add_function(wrap_pyfunction!(tvar, module)?)?;
    module.add_function(wrap_pyfunction!(tstd, module)?)?;
    module.add_function(wrap_pyfunction!(tsem, module)?)?;
    module.add_function(wrap_pyfunction!(tmin, module)?)?;
    module.add_function(wrap_pyfunction!(tmax, module)?)?;
    module.add_function(wrap_pyfunction!(mode, module)?)?;
    module.add_function(wrap_pyfunction!(rankdata, module)?)?;
    module.add_function(wrap_pyfunction!(entropy, module)?)?;
    module.add_function(wrap_pyfunction!(inference::pearsonr, module)?)?;
    module.add_function(wrap_pyfunction!(inference::spearmanr, module)?)?;
    module.add_function(wrap_pyfunction!(inference::kendalltau, module)?)?;
    module.add_function(wrap_pyfunction!(inference::linregress, module)?)?;
    module.add_function(wrap_pyfunction!(inference::ttest_1samp, module)?)?;
    module.add_function(wrap_pyfunction!(inference::ttest_ind, module)?)?;
    module.add_function(wrap_pyfunction!(inference::ttest_rel, module)?)?;
    module.add_function(wrap_pyfunction!(inference::power_divergence, module)?)?;
    module.add_function(wrap_pyfunction!(inference::chisquare, module)?)?;
    module.add_function(wrap_pyfunction!(inference::f_oneway, module)?)?;
    module.add_function(wrap_pyfunction!(ks::ks_1samp, module)?)?;
    module.add_function(wrap_pyfunction!(ks::ks_2samp, module)?)?;
    Ok(())
}
