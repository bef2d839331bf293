//! SciPy's multi-ufuncs of `_multiufuncs.py`: `sph_harm_y`, `sph_legendre_p`,
//! `assoc_legendre_p`, `legendre_p`, each with the keyword-only `diff_n`
//! (and `branch_cut`, `norm`), validated with SciPy's messages, over the ops
//! of [`crate::ops::special::legendre`].

use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat};

use super::super::container::{compute, import_all, wrap, wrap_tuple};
use super::super::placement::on_device;
use crate::ops::special as sp;
use crate::Error;

/// SciPy's `_nonneg_int_or_fail(diff_n, "diff_n", strict=False)` and its
/// check for 0..=2 (ValueError, TypeError for what has no floor).
fn diff_n_lenient(diff_n: &Bound<'_, PyAny>) -> PyResult<i64> {
    let fail_value = || PyValueError::new_err("diff_n must be a non-negative integer");
    let value = if let Ok(v) = diff_n.extract::<i64>() {
        v
    } else if let Ok(x) = diff_n.extract::<f64>() {
        if x != x.floor() {
            return Err(fail_value());
        }
        if x > 2.0 {
            // (an integral float beyond i64 too)
            return Err(beyond(&x.to_string()));
        }
        x as i64
    } else if diff_n.is_instance_of::<pyo3::types::PyInt>() {
        // an int beyond i64
        return if diff_n.lt(0)? { Err(fail_value()) } else { Err(beyond(&diff_n.str()?.to_string())) };
    } else {
        return Err(PyTypeError::new_err("diff_n must be a non-negative integer"));
    };
    if value < 0 {
        return Err(fail_value());
    }
    if value > 2 {
        return Err(beyond(&value.to_string()));
    }
    Ok(value)
}

fn beyond(received: &str) -> PyErr {
    PyValueError::new_err(format!("diff_n is currently only implemented for orders 0, 1, and 2, received: {received}."))
}

/// `legendre_p`'s stricter check: an integral type (ValueError otherwise),
/// non-negative, and above 2 a NotImplementedError.
fn diff_n_strict(diff_n: &Bound<'_, PyAny>) -> PyResult<i64> {
    let integral = !diff_n.is_instance_of::<PyFloat>() && diff_n.extract::<i64>().is_ok();
    let received = diff_n.str().map(|s| s.to_string()).unwrap_or_default();
    if !integral || diff_n.extract::<i64>()? < 0 {
        return Err(PyValueError::new_err(format!("diff_n must be a non-negative integer, received: {received}.")));
    }
    let value = diff_n.extract::<i64>()?;
    if value > 2 {
        return Err(Error::NotImplemented(format!(
            "diff_n is currently only implemented for orders 0, 1, and 2, received: {received}."
        ))
        .into());
    }
    Ok(value)
}

/// SciPy looks `(norm, diff_n)` up in a dict: norm must equal True or False.
fn norm_flag(norm: &Bound<'_, PyAny>, diff_n: &Bound<'_, PyAny>) -> PyResult<bool> {
    if let Ok(b) = norm.cast::<PyBool>() {
        return Ok(b.is_true());
    }
    if let Ok(v) = norm.extract::<f64>() {
        if v == 0.0 || v == 1.0 {
            return Ok(v == 1.0);
        }
    }
    let key = pyo3::types::PyTuple::new(norm.py(), [norm, diff_n])?;
    Err(PyKeyError::new_err(key.unbind()))
}

/// Spherical harmonics. They are defined as
///
/// The spherical harmonic Y_n^m(theta, phi) of degree n and order m
/// (`scipy.special.sph_harm_y`): theta is the polar (colatitudinal) angle,
/// phi the azimuthal one, the Condon-Shortley phase is included, |m| > n and
/// n < 0 give 0. With ``diff_n=1`` the tuple ``(y, grad)`` with
/// ``grad[..., :] = [dY/dtheta, dY/dphi]``, with ``diff_n=2`` also the
/// Hessian ``(..., 2, 2)``, as SciPy. The normalized recurrences are SciPy's
/// (xsf), run with their coefficients in floating point: n and m in the
/// thousands stay accurate (SciPy's int coefficients overflow from n of about
/// 650 on). A degree or order outside int32, or a degree above 2**24 with
/// |m| <= n, gives nan. The result is complex128 (float32 angles take
/// SciPy's float64 loop, as in SciPy) and a 0-d array for scalars, as
/// SciPy's. A C++ kernel, CPU only (input on another device goes to the CPU
/// and back); not differentiable by torch's autograd.
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (n, m, theta, phi, *, diff_n = None, device = None), text_signature = "(n, m, theta, phi, *, diff_n=0, device=None)")]
fn sph_harm_y(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    m: &Bound<'_, PyAny>,
    theta: &Bound<'_, PyAny>,
    phi: &Bound<'_, PyAny>,
    diff_n: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let d = match diff_n {
        Some(d) => diff_n_lenient(d)?,
        None => 0,
    };
    on_device(device, || {
        let (tensors, library) = import_all(&[n, m, theta, phi])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let mut results =
            compute(py, elements, move || sp::sph_harm_y(&tensors[0], &tensors[1], &tensors[2], &tensors[3], d))?;
        if d == 0 {
            return wrap(py, &library, results.remove(0), false);
        }
        wrap_tuple(py, &library, results)
    })
}

/// Spherical Legendre polynomial of the first kind.
///
/// The spherical Legendre function of degree n and order m at the polar
/// angle theta (`scipy.special.sph_legendre_p`: the normalized associated
/// Legendre function of Y_n^m at phi = 0, Condon-Shortley phase included)
/// and its derivatives in theta up to ``diff_n``: one array of shape
/// ``(diff_n + 1, ...)``, as SciPy's (which keeps that axis for ``diff_n=0``
/// too). Normalized recurrences in floating point, accurate for n and m in
/// the thousands; a degree or order outside int32, or a degree above 2**24
/// with |m| <= n, gives nan. float64 (float32 angles too, as SciPy). A C++
/// kernel, CPU only (input on another device goes to the CPU and back).
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (n, m, theta, *, diff_n = None, device = None), text_signature = "(n, m, theta, *, diff_n=0, device=None)")]
fn sph_legendre_p(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    m: &Bound<'_, PyAny>,
    theta: &Bound<'_, PyAny>,
    diff_n: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let d = match diff_n {
        Some(d) => diff_n_lenient(d)?,
        None => 0,
    };
    on_device(device, || {
        let (tensors, library) = import_all(&[n, m, theta])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let result = compute(py, elements, move || sp::sph_legendre_p(&tensors[0], &tensors[1], &tensors[2], d))?;
        wrap(py, &library, result, false)
    })
}

/// Associated Legendre polynomial of the first kind.
///
/// The associated Legendre function P_n^m(z) of degree n and order m
/// (`scipy.special.assoc_legendre_p`), real or complex z, with the branch cut
/// ``branch_cut`` (2: |z| > 1 on the real axis, 3: -1 < z < 1; an array
/// broadcast with the others, as SciPy's) and, with ``norm=True``, the
/// normalization sqrt((2n + 1) (n - m)! / (2 (n + m)!)), and its derivatives
/// in z up to ``diff_n``: one array of shape ``(diff_n + 1, ...)``, as
/// SciPy's. SciPy's values at z = +-1 (its limits of the derivatives,
/// infinite for m = +-1) are kept. Recurrences in floating point; a degree
/// or order outside int32, or a degree above 2**24 with |m| <= n, gives nan.
/// float64 or complex128 (float32 and complex64 z too, as SciPy). A C++
/// kernel, CPU only (input on another device goes to the CPU and back).
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(
    signature = (n, m, z, *, branch_cut = None, norm = None, diff_n = None, device = None),
    text_signature = "(n, m, z, *, branch_cut=2, norm=False, diff_n=0, device=None)"
)]
#[allow(clippy::too_many_arguments)]
fn assoc_legendre_p(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    m: &Bound<'_, PyAny>,
    z: &Bound<'_, PyAny>,
    branch_cut: Option<&Bound<'_, PyAny>>,
    norm: Option<&Bound<'_, PyAny>>,
    diff_n: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let d = match diff_n {
        Some(d) => diff_n_lenient(d)?,
        None => 0,
    };
    let zero = 0i64.into_pyobject(py)?.into_any();
    let norm = match norm {
        Some(flag) => norm_flag(flag, diff_n.unwrap_or(&zero))?,
        None => false,
    };
    let two = 2i64.into_pyobject(py)?.into_any();
    let branch_cut = branch_cut.filter(|b| !b.is_none()).unwrap_or(&two);
    on_device(device, || {
        let (tensors, library) = import_all(&[n, m, z, branch_cut])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let result = compute(py, elements, move || {
            sp::assoc_legendre_p(&tensors[0], &tensors[1], &tensors[2], &tensors[3], norm, d)
        })?;
        wrap(py, &library, result, false)
    })
}

/// Legendre polynomial of the first kind.
///
/// The Legendre polynomial P_n(z) of degree n (`scipy.special.legendre_p`,
/// real z) and its derivatives up to ``diff_n``: one array of shape
/// ``(diff_n + 1, ...)``, as SciPy's; SciPy's three-term recurrence (n < 0
/// gives z, as SciPy's); a degree outside int32 or above 2**24 gives nan.
/// float64 (float32 z too, as SciPy). A C++ kernel, CPU only (input on
/// another device goes to the CPU and back).
///
#[doc = special_note!()]
#[pyfunction]
#[pyo3(signature = (n, z, *, diff_n = None, device = None), text_signature = "(n, z, *, diff_n=0, device=None)")]
fn legendre_p(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    z: &Bound<'_, PyAny>,
    diff_n: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let d = match diff_n {
        Some(d) => diff_n_strict(d)?,
        None => 0,
    };
    on_device(device, || {
        let (tensors, library) = import_all(&[n, z])?;
        let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
        let result = compute(py, elements, move || sp::legendre_p(&tensors[0], &tensors[1], d))?;
        wrap(py, &library, result, false)
    })
}

/// Adds the Legendre functions and spherical harmonics to `module`.
pub(super) fn add(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(sph_harm_y, module)?)?;
    module.add_function(wrap_pyfunction!(sph_legendre_p, module)?)?;
    module.add_function(wrap_pyfunction!(assoc_legendre_p, module)?)?;
    module.add_function(wrap_pyfunction!(legendre_p, module)?)?;
    Ok(())
}
