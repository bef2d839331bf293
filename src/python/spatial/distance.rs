//! The `scipy.spatial.distance` functions: `cdist`, `pdist`, `squareform`,
//! the distance-matrix checks and the single-pair distances.
//!
//! Parameters keep SciPy's names (`XA`, `X`, `D`, `Y`, `V`, `VI`): Python
//! callers pass them by keyword.
#![allow(non_snake_case)]

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use tch::{Kind, Tensor};

use super::super::container::{classify, compute, import, import_all, wrap, Library};
use super::super::errors::Class;
use super::super::placement::on_device;
use crate::ops::spatial::distance::{self as ops, Force, Metric, PairParams, Params};
use crate::Error;

type Device<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

/// The metric argument: a name (SciPy's aliases, any case); a callable is refused.
fn metric_of(metric: &Bound<'_, PyAny>) -> PyResult<Metric> {
    if let Ok(name) = metric.cast::<PyString>() {
        return Ok(Metric::from_scipy(&name.to_cow()?)?);
    }
    if metric.is_callable() {
        let name = metric.getattr("__name__").map(|n| n.to_string()).unwrap_or_else(|_| "?".into());
        return Err(Error::NotImplemented(format!(
            "callable metric {name}: torchbridge computes SciPy's named metrics only; pass the metric's name \
             (one of {})",
            Metric::ALL.iter().map(|m| m.name()).collect::<Vec<_>>().join(", ")
        ))
        .into());
    }
    Err(PyTypeError::new_err("2nd argument metric must be a string identifier or a function."))
}

/// The array keywords of a metric (`w`, `V`, `VI`) and `p`, checked against what its kernel takes.
struct Keywords<'py> {
    arrays: Vec<(&'static str, Bound<'py, PyAny>)>,
    p: Option<f64>,
}

fn keywords<'py>(routine: &str, metric: Metric, kwargs: Option<&Bound<'py, PyDict>>) -> PyResult<Keywords<'py>> {
    let mut found = Keywords { arrays: Vec::new(), p: None };
    let Some(kwargs) = kwargs else { return Ok(found) };
    for (key, value) in kwargs.iter() {
        let key: String = key.extract()?;
        let Some(&name) = metric.keywords().iter().find(|k| **k == key) else {
            return Err(PyTypeError::new_err(format!(
                "{routine}() got an unexpected keyword argument '{key}' for metric '{}' (it takes: {})",
                metric.name(),
                if metric.keywords().is_empty() { "none".to_string() } else { metric.keywords().join(", ") }
            )));
        };
        if value.is_none() {
            continue;
        }
        if name == "p" {
            found.p = Some(value.extract::<f64>()?);
        } else {
            found.arrays.push((name, value));
        }
    }
    Ok(found)
}

fn params_from(names: &[&'static str], tensors: &mut Vec<Tensor>, p: Option<f64>) -> Params {
    let mut params = Params { p, ..Default::default() };
    for name in names.iter().rev() {
        let t = tensors.pop();
        match *name {
            "w" => params.w = t,
            "V" => params.v = t,
            _ => params.vi = t,
        }
    }
    params
}

/// SciPy's `_prepare_out_argument`, then the result copied into `out`, which is returned.
fn into_out(py: Python<'_>, out: &Bound<'_, PyAny>, result: Tensor) -> PyResult<Py<PyAny>> {
    let arg = classify(out)?;
    if matches!(arg.library, Library::Jax) {
        return Err(Error::NotImplemented("out= a jax array: jax arrays are immutable".into()).into());
    }
    let imported = import(&arg)?;
    let mut target = imported.tensor;
    if target.size() != result.size() {
        return Err(PyValueError::new_err("Output array has incorrect shape."));
    }
    if !target.is_contiguous() {
        return Err(PyValueError::new_err("Output array must be C-contiguous."));
    }
    if target.kind() != Kind::Double {
        return Err(PyValueError::new_err("Output array must be double type."));
    }
    if imported.read_only {
        return Err(Class::InvalidArgument.err("out= is read-only: torchbridge never writes into read-only memory"));
    }
    compute(py, 0, move || Ok(target.f_copy_(&result).map(|_| ())?))?;
    Ok(out.clone().unbind())
}

/// Compute distance between each pair of the two collections of inputs.
///
/// ``Y[i, j]`` is ``metric(XA[i], XB[j])`` for SciPy's named metrics and
/// aliases, with their keywords (``p``, ``w``, ``V``, ``VI``) and defaults;
/// float64 results for every real input dtype, as SciPy; ``out=`` a
/// C-contiguous float64 array of shape ``(mA, mB)`` receives the result.
/// euclidean-type metrics expand into matrix products, pairs where that
/// cancels are recomputed directly (SciPy's values to about 1e-13).
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(
    signature = (XA, XB, metric = None, *, out = None, device = None, **kwargs),
    text_signature = "(XA, XB, metric='euclidean', *, out=None, device=None, **kwargs)"
)]
pub(super) fn cdist(
    py: Python<'_>,
    XA: &Bound<'_, PyAny>,
    XB: &Bound<'_, PyAny>,
    metric: Option<&Bound<'_, PyAny>>,
    out: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let metric = match metric {
        Some(m) => metric_of(m)?,
        None => Metric::Euclidean,
    };
    let found = keywords("cdist", metric, kwargs)?;
    on_device(device, || {
        let mut objs = vec![XA, XB];
        objs.extend(found.arrays.iter().map(|(_, v)| v));
        let names: Vec<&'static str> = found.arrays.iter().map(|(n, _)| *n).collect();
        let (mut tensors, library) = import_all(&objs)?;
        let elements = tensors.iter().map(Tensor::numel).sum();
        let params = params_from(&names, &mut tensors, found.p);
        let (a, b) = (tensors.remove(0), tensors.remove(0));
        let result = compute(py, elements, move || ops::cdist(&a, &b, metric, &params))?;
        match out.filter(|o| !o.is_none()) {
            Some(out) => into_out(py, out, result),
            None => wrap(py, &library, result, false),
        }
    })
}

/// Pairwise distances between observations in n-dimensional space.
///
/// The condensed distance vector of ``X``'s rows: ``metric(X[i], X[j])`` for
/// ``i < j``, row by row (``m * (m - 1) // 2`` entries), with SciPy's named
/// metrics, keywords and defaults; float64 results; ``out=`` as in SciPy.
/// On the CPU (no autograd), unweighted ``euclidean`` and ``sqeuclidean``
/// sum each pair's squared differences directly, as SciPy does, straight
/// into the condensed vector; the other cases are computed as ``cdist``.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(
    signature = (X, metric = None, *, out = None, device = None, **kwargs),
    text_signature = "(X, metric='euclidean', *, out=None, device=None, **kwargs)"
)]
pub(super) fn pdist(
    py: Python<'_>,
    X: &Bound<'_, PyAny>,
    metric: Option<&Bound<'_, PyAny>>,
    out: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let metric = match metric {
        Some(m) => metric_of(m)?,
        None => Metric::Euclidean,
    };
    let found = keywords("pdist", metric, kwargs)?;
    on_device(device, || {
        let mut objs = vec![X];
        objs.extend(found.arrays.iter().map(|(_, v)| v));
        let names: Vec<&'static str> = found.arrays.iter().map(|(n, _)| *n).collect();
        let (mut tensors, library) = import_all(&objs)?;
        let elements = tensors.iter().map(Tensor::numel).sum();
        let params = params_from(&names, &mut tensors, found.p);
        let a = tensors.remove(0);
        let result = compute(py, elements, move || ops::pdist(&a, metric, &params))?;
        match out.filter(|o| !o.is_none()) {
            Some(out) => into_out(py, out, result),
            None => wrap(py, &library, result, false),
        }
    })
}

/// Convert a vector-form distance vector to a square-form distance matrix, and vice-versa.
///
/// A condensed vector of ``d * (d - 1) // 2`` entries becomes the symmetric
/// ``(d, d)`` matrix with a zero diagonal; a square distance matrix becomes
/// its condensed vector (checked to be symmetric with a zero diagonal when
/// ``checks``). ``force`` as in SciPy; the input's dtype is kept.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(signature = (X, force = "no", checks = true, *, device = None), text_signature = "(X, force='no', checks=True, *, device=None)")]
pub(super) fn squareform(
    py: Python<'_>,
    X: &Bound<'_, PyAny>,
    force: &str,
    checks: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let force = Force::parse(force);
    on_device(device, || {
        let (mut tensors, library) = import_all(&[X])?;
        let a = tensors.remove(0);
        let result = compute(py, a.numel(), move || ops::squareform(&a, force, checks))?;
        wrap(py, &library, result, false)
    })
}

/// Imports one array (on `device`) and runs `check` on it.
fn inspect<T: Send>(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
    check: impl FnOnce(&Tensor) -> crate::Result<T> + Send,
) -> PyResult<T> {
    on_device(device, || {
        let (mut tensors, _) = import_all(&[x])?;
        let a = tensors.remove(0);
        Ok(compute(py, a.numel(), move || check(&a))?)
    })
}

/// SciPy's handling of a failed check: raise with `throw`, warn with `warning`, else `False`.
fn verdict(py: Python<'_>, problem: Option<String>, throw: bool, warning: bool) -> PyResult<bool> {
    let Some(problem) = problem else { return Ok(true) };
    if throw {
        return Err(PyValueError::new_err(problem));
    }
    if warning {
        let message = std::ffi::CString::new(problem).map_err(|e| Error::InvalidArgument(e.to_string()))?;
        PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyUserWarning>(), &message, 2)?;
    }
    Ok(false)
}

/// Return True if input array satisfies basic distance matrix properties (symmetry and zero diagonal).
///
/// ``D`` must be 2-d, equal to its transpose and zero on its diagonal
/// (within ``tol`` when given); ``throw`` raises SciPy's ValueError,
/// ``warning`` warns with its message instead.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(
    signature = (D, tol = 0.0, throw = false, name = Some("D".to_string()), warning = false, *, device = None),
    text_signature = "(D, tol=0.0, throw=False, name='D', warning=False, *, device=None)"
)]
pub(super) fn is_valid_dm(
    py: Python<'_>,
    D: &Bound<'_, PyAny>,
    tol: f64,
    throw: bool,
    name: Option<String>,
    warning: bool,
    device: Device<'_, '_>,
) -> PyResult<bool> {
    let name = name.filter(|n| !n.is_empty());
    let problem = inspect(py, D, device, move |t| ops::dm_problem(t, tol, name.as_deref()))?;
    verdict(py, problem, throw, warning)
}

/// Return True if the input array is a valid condensed distance matrix.
///
/// ``y`` must be 1-d with ``k * (k - 1) // 2`` entries for some ``k``;
/// ``throw`` raises SciPy's ValueError, ``warning`` warns with its message.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(
    signature = (y, warning = false, throw = false, name = None, *, device = None),
    text_signature = "(y, warning=False, throw=False, name=None, *, device=None)"
)]
pub(super) fn is_valid_y(
    py: Python<'_>,
    y: &Bound<'_, PyAny>,
    warning: bool,
    throw: bool,
    name: Option<String>,
    device: Device<'_, '_>,
) -> PyResult<bool> {
    let name = name.filter(|n| !n.is_empty());
    let problem = inspect(py, y, device, move |t| Ok(ops::y_problem(&t.size(), name.as_deref())))?;
    verdict(py, problem, throw, warning)
}

/// Return the number of original observations that correspond to a square, redundant distance matrix.
///
/// ``d.shape[0]`` of a 2-d (square) distance matrix, else SciPy's ValueError.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(signature = (d, *, device = None), text_signature = "(d, *, device=None)")]
pub(super) fn num_obs_dm(py: Python<'_>, d: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<i64> {
    let problem = inspect(py, d, device, |t| ops::dm_problem(t, f64::INFINITY, Some("d")))?;
    verdict(py, problem, true, false)?;
    inspect(py, d, device, |t| Ok(t.size()[0]))
}

/// Return the number of original observations that correspond to a condensed distance matrix.
///
/// The ``n`` with ``n * (n - 1) // 2 == len(Y)``, else SciPy's ValueError.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(signature = (Y, *, device = None), text_signature = "(Y, *, device=None)")]
pub(super) fn num_obs_y(py: Python<'_>, Y: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<i64> {
    let shape = inspect(py, Y, device, |t| Ok(t.size()))?;
    Ok(ops::num_obs_y(&shape)?)
}

/// One pair: imports `u`, `v` and the optional arrays, computes `metric` and
/// returns a 0-d result (a numpy scalar for numpy input).
fn pair(
    py: Python<'_>,
    device: Device<'_, '_>,
    metric: Metric,
    (u, v): (&Bound<'_, PyAny>, &Bound<'_, PyAny>),
    w: Option<&Bound<'_, PyAny>>,
    m: Option<&Bound<'_, PyAny>>,
    (p, centered): (f64, bool),
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let w = w.filter(|w| !w.is_none());
        let mut objs = vec![u, v];
        objs.extend(w);
        objs.extend(m);
        let (mut tensors, library) = import_all(&objs)?;
        let m = if m.is_some() { tensors.pop() } else { None };
        let w = if w.is_some() { tensors.pop() } else { None };
        let (a, b) = (tensors.remove(0), tensors.remove(0));
        // SciPy's euclidean (and minkowski with p = 2) take BLAS's nrm2: a Python float
        let nrm2 = matches!(metric, Metric::Euclidean) || (matches!(metric, Metric::Minkowski) && p == 2.0);
        let params = PairParams { p, w, m, centered };
        let result = compute(py, a.numel() + b.numel(), move || ops::pair(&a, &b, metric, &params))?;
        let out = wrap(py, &library, result, true)?;
        let bound = out.bind(py);
        if nrm2 && bound.is_instance(&py.import("numpy")?.getattr("floating")?)? {
            return Ok(pyo3::types::PyFloat::new(py, bound.extract::<f64>()?).into_any().unbind());
        }
        Ok(out)
    })
}

/// The single-pair functions `(u, v, w=None)`.
macro_rules! pair_functions {
    ($($(#[$doc:meta])* $name:ident => $metric:ident;)*) => {$(
        $(#[$doc])*
        #[doc = ""]
        #[doc = spatial_note!()]
        #[pyfunction]
        #[pyo3(signature = (u, v, w = None, *, device = None), text_signature = "(u, v, w=None, *, device=None)")]
        pub(super) fn $name(
            py: Python<'_>,
            u: &Bound<'_, PyAny>,
            v: &Bound<'_, PyAny>,
            w: Option<&Bound<'_, PyAny>>,
            device: Device<'_, '_>,
        ) -> PyResult<Py<PyAny>> {
            pair(py, device, Metric::$metric, (u, v), w, None, (2.0, true))
        }
    )*};
}

pair_functions! {
    /// Compute the Bray-Curtis distance between two 1-D arrays.
    ///
    /// ``sum(|u - v|) / sum(|u + v|)``, weighted by ``w``; float64.
    braycurtis => Braycurtis;
    /// Compute the Canberra distance between two 1-D arrays.
    ///
    /// ``sum(|u - v| / (|u| + |v|))``, 0/0 terms skipped; float64.
    canberra => Canberra;
    /// Compute the Chebyshev distance.
    ///
    /// ``max(|u - v|)`` over the features with positive weight; the inputs' dtype.
    chebyshev => Chebyshev;
    /// Compute the City Block (Manhattan) distance.
    ///
    /// ``sum(w * |u - v|)``; the inputs' dtype without weights (int64 for integers).
    cityblock => Cityblock;
    /// Compute the Cosine distance between 1-D arrays.
    ///
    /// ``1 - u.v / (|u| |v|)``, weighted by ``w``, clipped to [0, 2].
    cosine => Cosine;
    /// Compute the Dice dissimilarity between two boolean 1-D arrays.
    ///
    /// ``(ntf + nft) / (2 ntt + ntf + nft)`` from SciPy's counts of the values.
    dice => Dice;
    /// Computes the Euclidean distance between two 1-D arrays.
    ///
    /// ``sqrt(sum(w * (u - v) ** 2))``.
    euclidean => Euclidean;
    /// Compute the Hamming distance between two 1-D arrays.
    ///
    /// The (weighted) fraction of entries where ``u != v``.
    hamming => Hamming;
    /// Compute the Jaccard dissimilarity between two boolean vectors.
    ///
    /// The (weighted) fraction of the entries nonzero in ``u`` or ``v`` that differ (as booleans).
    jaccard => Jaccard;
    /// Compute the Rogers-Tanimoto dissimilarity between two boolean 1-D arrays.
    ///
    /// ``R / (ntt + nff + R)`` with ``R = 2 (ntf + nft)``, from SciPy's counts of the values.
    rogerstanimoto => Rogerstanimoto;
    /// Compute the Russell-Rao dissimilarity between two boolean 1-D arrays.
    ///
    /// ``(n - ntt) / n`` from SciPy's counts of the values.
    russellrao => Russellrao;
    /// Compute the Sokal-Sneath dissimilarity between two boolean 1-D arrays.
    ///
    /// ``R / (ntt + R)`` with ``R = 2 (ntf + nft)``; SciPy's ValueError for entirely false vectors.
    sokalsneath => Sokalsneath;
    /// Compute the squared Euclidean distance between two 1-D arrays.
    ///
    /// ``sum(w * (u - v) ** 2)``.
    sqeuclidean => Sqeuclidean;
    /// Compute the Yule dissimilarity between two boolean 1-D arrays.
    ///
    /// ``2 ntf nft / (ntt nff + ntf nft)`` (0 when ``ntf nft == 0``).
    yule => Yule;
}

/// Compute the correlation distance between two 1-D arrays.
///
/// ``1 - (u - mean(u)).(v - mean(v)) / (|u - mean(u)| |v - mean(v)|)``,
/// weighted by ``w``, uncentred when ``centered=False``; clipped to [0, 2].
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(signature = (u, v, w = None, centered = true, *, device = None), text_signature = "(u, v, w=None, centered=True, *, device=None)")]
pub(super) fn correlation(
    py: Python<'_>,
    u: &Bound<'_, PyAny>,
    v: &Bound<'_, PyAny>,
    w: Option<&Bound<'_, PyAny>>,
    centered: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    pair(py, device, Metric::Correlation, (u, v), w, None, (2.0, centered))
}

/// Compute the Minkowski distance between two 1-D arrays.
///
/// ``sum(w * |u - v| ** p) ** (1 / p)`` (``p = inf``: the maximum), ``p > 0``.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(signature = (u, v, p = 2.0, w = None, *, device = None), text_signature = "(u, v, p=2, w=None, *, device=None)")]
pub(super) fn minkowski(
    py: Python<'_>,
    u: &Bound<'_, PyAny>,
    v: &Bound<'_, PyAny>,
    p: f64,
    w: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    pair(py, device, Metric::Minkowski, (u, v), w, None, (p, true))
}

/// Return the standardized Euclidean distance between two 1-D arrays.
///
/// ``sqrt(sum((u - v) ** 2 / V))``.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(signature = (u, v, V, *, device = None), text_signature = "(u, v, V, *, device=None)")]
pub(super) fn seuclidean(
    py: Python<'_>,
    u: &Bound<'_, PyAny>,
    v: &Bound<'_, PyAny>,
    V: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    pair(py, device, Metric::Seuclidean, (u, v), None, Some(V), (2.0, true))
}

/// Compute the Mahalanobis distance between two 1-D arrays.
///
/// ``sqrt((u - v) VI (u - v))``.
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(signature = (u, v, VI, *, device = None), text_signature = "(u, v, VI, *, device=None)")]
pub(super) fn mahalanobis(
    py: Python<'_>,
    u: &Bound<'_, PyAny>,
    v: &Bound<'_, PyAny>,
    VI: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    pair(py, device, Metric::Mahalanobis, (u, v), None, Some(VI), (2.0, true))
}

/// Compute the Jensen-Shannon distance (metric) between two probability arrays. This is the square root of the Jensen-Shannon divergence.
///
/// ``p`` and ``q`` are normalised along ``axis``; the result is
/// ``sqrt((KL(p, m) + KL(q, m)) / 2)`` with ``m = (p + q) / 2``, in units of
/// ``log(base)`` (natural by default), reduced over ``axis`` (kept with ``keepdims``).
///
#[doc = spatial_note!()]
#[pyfunction]
#[pyo3(
    signature = (p, q, base = None, *, axis = 0, keepdims = false, device = None),
    text_signature = "(p, q, base=None, *, axis=0, keepdims=False, device=None)"
)]
#[allow(clippy::too_many_arguments)]
pub(super) fn jensenshannon(
    py: Python<'_>,
    p: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    base: Option<f64>,
    axis: i64,
    keepdims: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (mut tensors, library) = import_all(&[p, q])?;
        let (a, b) = (tensors.remove(0), tensors.remove(0));
        let result = compute(py, a.numel() + b.numel(), move || ops::jensenshannon(&a, &b, base, axis, keepdims))?;
        wrap(py, &library, result, true)
    })
}

pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(cdist, module)?)?;
    module.add_function(wrap_pyfunction!(pdist, module)?)?;
    module.add_function(wrap_pyfunction!(squareform, module)?)?;
    module.add_function(wrap_pyfunction!(is_valid_dm, module)?)?;
    module.add_function(wrap_pyfunction!(is_valid_y, module)?)?;
    module.add_function(wrap_pyfunction!(num_obs_dm, module)?)?;
    module.add_function(wrap_pyfunction!(num_obs_y, module)?)?;
    module.add_function(wrap_pyfunction!(braycurtis, module)?)?;
    module.add_function(wrap_pyfunction!(canberra, module)?)?;
    module.add_function(wrap_pyfunction!(chebyshev, module)?)?;
    module.add_function(wrap_pyfunction!(cityblock, module)?)?;
    module.add_function(wrap_pyfunction!(correlation, module)?)?;
    module.add_function(wrap_pyfunction!(cosine, module)?)?;
    module.add_function(wrap_pyfunction!(dice, module)?)?;
    module.add_function(wrap_pyfunction!(euclidean, module)?)?;
    module.add_function(wrap_pyfunction!(hamming, module)?)?;
    module.add_function(wrap_pyfunction!(jaccard, module)?)?;
    module.add_function(wrap_pyfunction!(jensenshannon, module)?)?;
    module.add_function(wrap_pyfunction!(mahalanobis, module)?)?;
    module.add_function(wrap_pyfunction!(minkowski, module)?)?;
    module.add_function(wrap_pyfunction!(rogerstanimoto, module)?)?;
    module.add_function(wrap_pyfunction!(russellrao, module)?)?;
    module.add_function(wrap_pyfunction!(seuclidean, module)?)?;
    module.add_function(wrap_pyfunction!(sokalsneath, module)?)?;
    module.add_function(wrap_pyfunction!(sqeuclidean, module)?)?;
    module.add_function(wrap_pyfunction!(yule, module)?)?;
    Ok(())
}
