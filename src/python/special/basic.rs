//! The Python-level functions of SciPy's `_basic.py` and `_spfun_stats.py`
//! that are not ufuncs (`zeta`, `polygamma`, `multigammaln`, `lambertw`, the
//! array part of `factorial`), and `sinc` (NumPy's).

use pyo3::prelude::*;
use tch::Tensor;

use super::super::container::{classify, compute, import, import_all, wrap};
use super::super::placement::on_device;
use super::ufuncs::{binary_inputs, reject_ufunc_options, unary, Options};
use crate::ops::special::ufuncs::table;
use crate::ops::special::{self as sp, FactorialExtend};
use crate::{dlpack, DType, Error, Result};

/// Riemann or Hurwitz zeta function.
///
/// Riemann or Hurwitz zeta function (`scipy.special.zeta`): `zeta(x)` is
/// Riemann's, `zeta(x, q)` the Hurwitz zeta function `sum_k (k + q)**-x`.
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (x, q = None, out = None, *, device = None))]
fn zeta(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    q: Option<&Bound<'_, PyAny>>,
    out: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || match q.filter(|q| !q.is_none()) {
        None => unary(py, &table::zeta, x, out, &Options::NONE, sp::zeta),
        Some(q) => {
            reject_ufunc_options(&table::zeta, out, &Options::NONE)?;
            let (tensors, library) = binary_inputs(&table::hurwitz_zeta, x, q)?;
            let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
            let result = compute(py, elements, move || sp::hurwitz_zeta(&tensors[0], &tensors[1]))?;
            wrap(py, &library, result, true)
        }
    })
}

/// Polygamma functions.
///
/// The polygamma function psi^(n)(x) (`scipy.special.polygamma`); like SciPy,
/// the result is an array (0-d for scalars), float32 only for two float32 inputs.
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (n, x, *, device = None))]
fn polygamma(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    x: &Bound<'_, PyAny>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (tensors, library) = import_all(&[n, x])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let result = compute(py, elements, move || sp::polygamma(&tensors[0], &tensors[1]))?;
        wrap(py, &library, result, false)
    })
}

/// Lambert W function.
///
/// The Lambert W function `W_k(z)`, the solution of `w exp(w) = z` on branch
/// `k` (`scipy.special.lambertw(z, k=0, tol=1e-8)`): SciPy's starting guesses
/// and Halley's iteration to the relative tolerance `tol`, its branch cuts and
/// special values; always complex128. torchbridge computes it with a C++
/// kernel on the CPU only: arrays on another device are refused (pass
/// `device='cpu'`).
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (z, k = None, tol = None, *, device = None), text_signature = "(z, k=0, tol=1e-08, *, device=None)")]
fn lambertw(
    py: Python<'_>,
    z: &Bound<'_, PyAny>,
    k: Option<&Bound<'_, PyAny>>,
    tol: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let zero = 0i64.into_pyobject(py)?.into_any();
    let default_tol = 1e-8f64.into_pyobject(py)?.into_any();
    let k = k.filter(|k| !k.is_none()).unwrap_or(&zero);
    let tol = tol.filter(|t| !t.is_none()).unwrap_or(&default_tol);
    on_device(device, || {
        let (tensors, library) = import_all(&[z, k, tol])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let result = compute(py, elements, move || sp::lambertw(&tensors[0], &tensors[1], &tensors[2]))?;
        wrap(py, &library, result, true)
    })
}

/// SciPy's `d` of `multigammaln`: a scalar with an integral value.
fn dimension(d: &Bound<'_, PyAny>) -> Result<i64> {
    let value = d
        .extract::<f64>()
        .ok()
        .filter(|v| v.is_finite() && v.floor() == *v)
        .ok_or_else(|| Error::InvalidArgument("d should be a positive integer (dimension)".into()))?;
    // beyond i64 the condition on `a` or the allocation refuses it
    Ok(value.clamp(i64::MIN as f64, i64::MAX as f64) as i64)
}

/// Returns the log of multivariate gamma, also sometimes called the generalized gamma.
///
/// The log of the multivariate gamma function of dimension `d`
/// (`scipy.special.multigammaln`).
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (a, d, *, device = None))]
fn multigammaln(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    d: &Bound<'_, PyAny>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let dimension = dimension(d)?;
    on_device(device, || {
        let arg = classify(a)?;
        let tensor = import(&arg)?.tensor;
        let result = compute(py, tensor.numel(), move || sp::multigammaln(&tensor, dimension))?;
        wrap(py, &arg.library, result, true)
    })
}

/// SciPy's `extend` keyword of `factorial`.
struct Extend(FactorialExtend);

impl<'a, 'py> FromPyObject<'a, 'py> for Extend {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let text = obj.str()?;
        Ok(Extend(text.to_cow()?.parse::<FactorialExtend>()?))
    }
}

/// The array part of `factorial` (scalars are handled in Python, see
/// `torchbridge/special/_basic.py`).
#[pyfunction]
#[pyo3(signature = (n, exact, extend, *, device = None))]
fn _factorial_array(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    exact: bool,
    extend: Extend,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let extend = extend.0;
    on_device(device, || {
        let arg = classify(n)?;
        let tensor = import(&arg)?.tensor;
        let dtype = dlpack::dtype_of(&tensor)?;
        if dtype == DType::Bool {
            return Err(Error::InvalidArgument(format!(
                "Unsupported data type for `n` in factorial: {dtype}\nPermitted data types are integers and \
                 floating point numbers, as well as complex numbers if `extend='complex' is passed."
            ))
            .into());
        }
        if dtype.is_complex() && extend != FactorialExtend::Complex {
            return Err(Error::InvalidArgument(
                "In order to use non-integer arguments, you must opt into this by passing `extend='complex'`. \
                 Note that this changes the result for all negative arguments (which by default return 0)."
                    .into(),
            )
            .into());
        }
        if exact && (dtype.is_float() || dtype.is_complex()) {
            return Err(Error::InvalidArgument(format!(
                "`exact=True` only supports integers, cannot use data type {dtype}"
            ))
            .into());
        }
        if tensor.numel() == 0 {
            return Ok(arg.array.clone().unbind());
        }
        let result = compute(py, tensor.numel(), move || {
            if exact {
                sp::factorial_exact(&tensor)
            } else if extend == FactorialExtend::Complex {
                factorial_complex(&tensor)
            } else {
                sp::factorial(&tensor, FactorialExtend::Zero)
            }
        })?;
        wrap(py, &arg.library, result, false)
    })
}

/// `gamma(n + 1)` in the dtype SciPy's `_gamma1p` gets (n + 1 keeps n's dtype;
/// then gamma's loop), nan at n = -1.
fn factorial_complex(n: &Tensor) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(n)?;
    let plus_one = if dtype.kind().is_some() && dtype != DType::Bool {
        n.f_add_scalar(1)?
    } else {
        n.f_to_kind(tch::Kind::Int64)?.f_add_scalar(1)?
    };
    let value = sp::gamma(&plus_one)?;
    let at_minus_one = n.f_to_kind(tch::Kind::Double)?.f_eq(-1.0)?;
    Ok(value.f_masked_fill(&at_minus_one, f64::NAN)?)
}

/// The floating-point part of `comb` (`exact=False`; `exact=True` is
/// Python's, see `torchbridge/special/_basic.py`).
#[pyfunction]
#[pyo3(signature = (n, k, repetition, *, device = None))]
fn _comb_float(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    repetition: bool,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (tensors, library) = import_all(&[n, k])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let result = compute(py, elements, move || sp::comb(&tensors[0], &tensors[1], repetition))?;
        wrap(py, &library, result, true)
    })
}

/// The floating-point part of `perm` (`exact=False`).
#[pyfunction]
#[pyo3(signature = (n, k, *, device = None))]
fn _perm_float(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    k: &Bound<'_, PyAny>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (tensors, library) = import_all(&[n, k])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let result = compute(py, elements, move || sp::perm(&tensors[0], &tensors[1]))?;
        wrap(py, &library, result, true)
    })
}

/// Return the normalized sinc function.
///
/// The normalized sinc `sin(pi x) / (pi x)` with `numpy.sinc`'s semantics
/// (SciPy has no sinc).
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (x, *, device = None))]
fn sinc(py: Python<'_>, x: &Bound<'_, PyAny>, device: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let arg = classify(x)?;
        let tensor = import(&arg)?.tensor;
        let result = compute(py, tensor.numel(), move || sp::sinc(&tensor))?;
        wrap(py, &arg.library, result, true)
    })
}

/// Adds this seam's functions to `module`.
pub(super) fn add(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(zeta, module)?)?;
    module.add_function(wrap_pyfunction!(polygamma, module)?)?;
    module.add_function(wrap_pyfunction!(multigammaln, module)?)?;
    module.add_function(wrap_pyfunction!(lambertw, module)?)?;
    module.add_function(wrap_pyfunction!(_factorial_array, module)?)?;
    module.add_function(wrap_pyfunction!(sinc, module)?)?;
    module.add_function(wrap_pyfunction!(_comb_float, module)?)?;
    module.add_function(wrap_pyfunction!(_perm_float, module)?)?;
    Ok(())
}
