//! The private bindings behind `torchbridge.stats`' distribution objects
//! (`python/torchbridge/stats/_distn_infrastructure.py`): one for the
//! pointwise methods (`pdf`, ..., `isf`), one for the moments (`stats`,
//! `entropy`, `support`), one for `rvs`. Each takes the distribution's
//! SciPy name and the method's name, validated in Rust
//! ([`Distribution::from_name`], [`Method::from_name`]); the Python classes
//! parse SciPy's `*args, **kwds` first.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tch::Tensor;

use super::super::container::{classify, compute, import, import_all, wrap};
use super::super::placement::on_device;
use super::Device;
use crate::ops::stats::distn_infrastructure::{self as di, Distribution, Method, Moment};
use crate::Error;

/// `objs` imported together; the library results go back to.
fn import_params(objs: &[&Bound<'_, PyAny>]) -> PyResult<(Vec<Tensor>, super::super::container::Library)> {
    import_all(objs)
}

/// A pointwise method of a distribution (private: `torchbridge.stats`' rv objects call it).
///
/// ``_distn_method(name, method, x, args, loc, scale)``: ``method`` is one of
/// ``pdf``/``pmf``, ``logpdf``/``logpmf``, ``cdf``, ``logcdf``, ``sf``,
/// ``logsf``, ``ppf``, ``isf``; ``scale`` is ignored for discrete
/// distributions. The result is float64, in the caller's array type.
#[pyfunction]
#[pyo3(signature = (name, method, x, args, loc, scale, *, device = None))]
#[allow(clippy::too_many_arguments)]
fn _distn_method(
    py: Python<'_>,
    name: &str,
    method: &str,
    x: &Bound<'_, PyAny>,
    args: Vec<Bound<'_, PyAny>>,
    loc: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let dist = Distribution::from_name(name)?;
    let method = Method::from_name(method)?;
    on_device(device, || {
        let mut objs: Vec<&Bound<'_, PyAny>> = vec![x];
        objs.extend(args.iter());
        objs.push(loc);
        objs.push(scale);
        let (tensors, library) = import_params(&objs)?;
        let elements = crate::ops::numpy::broadcast_numel(&tensors);
        let n = tensors.len();
        let result = compute(py, elements, move || {
            di::evaluate(dist, method, &tensors[0], &tensors[1..n - 2], &tensors[n - 2], &tensors[n - 1])
        })?;
        wrap(py, &library, result, true)
    })
}

/// The moments, entropy and support of a distribution (private).
///
/// ``_distn_moments(name, which, args, loc, scale)``: one result per letter
/// of ``which`` (``m``, ``v``, ``s``, ``k``: SciPy's ``moments``; ``e``: the
/// entropy; ``a``/``b``: the support's ends), as a tuple.
#[pyfunction]
#[pyo3(signature = (name, which, args, loc, scale, *, device = None))]
fn _distn_moments(
    py: Python<'_>,
    name: &str,
    which: &str,
    args: Vec<Bound<'_, PyAny>>,
    loc: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let dist = Distribution::from_name(name)?;
    let which = Moment::parse(which)?;
    on_device(device, || {
        let mut objs: Vec<&Bound<'_, PyAny>> = args.iter().collect();
        objs.push(loc);
        objs.push(scale);
        let (tensors, library) = import_params(&objs)?;
        let n = tensors.len();
        let values =
            compute(py, 0, move || di::moments(dist, &which, &tensors[..n - 2], &tensors[n - 2], &tensors[n - 1]))?;
        let items = values.into_iter().map(|t| wrap(py, &library, t, true)).collect::<PyResult<Vec<_>>>()?;
        Ok(PyTuple::new(py, items)?.into_any().unbind())
    })
}

/// The output shape of `rvs`, SciPy's `_argcheck_rvs`: the parameters'
/// broadcast shape with leading 1s dropped, or `size`, which the parameters
/// must broadcast to.
///
/// Returns the shape and the parameters broadcast together, their leading 1s dropped.
fn rvs_shape(params: &[Tensor], size: Option<Vec<i64>>) -> Result<(Vec<i64>, Vec<Tensor>), Error> {
    let refs: Vec<&Tensor> = params.iter().collect();
    let full = di::broadcast(&refs)?;
    let mut bcast = full.first().map(|t| t.size()).unwrap_or_default();
    while bcast.first() == Some(&1) {
        bcast.remove(0);
    }
    let params = full.iter().map(|t| Ok(t.f_reshape(&bcast)?)).collect::<Result<Vec<_>, Error>>()?;
    let Some(size) = size else {
        return Ok((bcast, params));
    };
    let mut size_ = size.clone();
    let mut shape = bcast.clone();
    if shape.len() < size_.len() {
        let pad = size_.len() - shape.len();
        shape.splice(0..0, std::iter::repeat_n(1, pad));
    } else if shape.len() > size_.len() {
        let pad = shape.len() - size_.len();
        size_.splice(0..0, std::iter::repeat_n(1, pad));
    }
    if !shape.iter().zip(&size_).all(|(b, s)| *b == 1 || b == s) {
        return Err(Error::InvalidArgument(format!(
            "size does not match the broadcast shape of the parameters. {size:?}, {size_:?}, {bcast:?}"
        )));
    }
    Ok((size_, params))
}

/// `size` as SciPy reads it (`None`, an int, or a sequence of ints).
fn parse_size(size: &Bound<'_, PyAny>) -> PyResult<Option<Vec<i64>>> {
    if size.is_none() {
        return Ok(None);
    }
    if let Ok(n) = size.extract::<i64>() {
        return Ok(Some(vec![n]));
    }
    Ok(Some(size.extract::<Vec<i64>>()?))
}

/// Random variates of a distribution by inversion of uniform draws from a
/// torch generator (private).
///
/// ``_distn_rvs(name, args, loc, scale, size, random_state)``:
/// ``random_state`` is ``None`` (torch's default generator of the
/// parameters' device), an int (the seed of a fresh ``torch.Generator`` on
/// that device) or a ``torch.Generator`` (drawn on its own device).
#[pyfunction]
#[pyo3(signature = (name, args, loc, scale, size, random_state, *, device = None))]
#[allow(clippy::too_many_arguments)]
fn _distn_rvs(
    py: Python<'_>,
    name: &str,
    args: Vec<Bound<'_, PyAny>>,
    loc: &Bound<'_, PyAny>,
    scale: &Bound<'_, PyAny>,
    size: &Bound<'_, PyAny>,
    random_state: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let dist = Distribution::from_name(name)?;
    let size = parse_size(size)?;
    on_device(device, || {
        let mut objs: Vec<&Bound<'_, PyAny>> = args.iter().collect();
        objs.push(loc);
        objs.push(scale);
        let (tensors, library) = import_params(&objs)?;
        let n = tensors.len();
        if !di::rvs_parameters_valid(dist, &tensors[..n - 2], &tensors[n - 1])? {
            return Err(Error::InvalidArgument(format!(
                "Domain error in arguments. The `scale` parameter must be positive for all distributions, \
                 and many distributions have restrictions on shape parameters. Please see the \
                 `scipy.stats.{}` documentation for details.",
                dist.name()
            ))
            .into());
        }
        let (shape, tensors) = rvs_shape(&tensors, size.clone())?;
        let home = tensors[0].device();
        let torch = py.import("torch")?;
        let device_name = match home {
            tch::Device::Cuda(i) => format!("cuda:{i}"),
            _ => "cpu".to_string(),
        };
        let generator = if random_state.is_none() {
            None
        } else if let Ok(seed) = random_state.extract::<u64>() {
            let g = torch.getattr("Generator")?.call1((device_name.as_str(),))?;
            g.call_method1("manual_seed", (seed,))?;
            Some(g)
        } else {
            Some(random_state.clone())
        };
        let kwargs = PyDict::new(py);
        kwargs.set_item("dtype", torch.getattr("float64")?)?;
        match &generator {
            Some(g) => {
                kwargs.set_item("device", g.getattr("device")?)?;
                kwargs.set_item("generator", g)?;
            }
            None => kwargs.set_item("device", device_name.as_str())?,
        }
        let draws = torch.call_method("rand", (PyTuple::new(py, &shape)?,), Some(&kwargs))?;
        let u = import(&classify(&draws)?)?.tensor;
        let elements = u.numel();
        let result = compute(py, elements, move || {
            let u = u.f_to_device(home)?;
            // torch.rand's [0, 1): 0 (probability 2^-53) would give the support's lower end
            let u = u.f_clamp_min(f64::MIN_POSITIVE)?;
            di::sample(dist, &u, &tensors[..n - 2], &tensors[n - 2], &tensors[n - 1])
        })?;
        wrap(py, &library, result, true)
    })
}

/// Adds the distribution bindings to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(_distn_method, module)?)?;
    module.add_function(wrap_pyfunction!(_distn_moments, module)?)?;
    module.add_function(wrap_pyfunction!(_distn_rvs, module)?)?;
    Ok(())
}
