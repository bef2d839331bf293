//! `scipy.linalg._decomp_svd`: `svd`, `svdvals`, `diagsvd`, `orth`,
//! `null_space` and `subspace_angles`, with SciPy's `lapack_driver` checks
//! and result containers (lists for batches).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, map1, map2, sequence, Device, Passed};
use crate::ops::linalg::{self as ops, CheckFinite, NullSpaceOptions, Svd, SvdOptions};
use crate::Error;

/// SciPy's checks of `lapack_driver` (`'gesdd'` when not passed): both
/// drivers compute the same decomposition, libtorch picks its own.
fn check_driver(py: Python<'_>, lapack_driver: &Passed) -> PyResult<()> {
    let driver = lapack_driver.or_str(py, "gesdd");
    let Ok(name) = driver.cast::<PyString>() else {
        return Err(PyTypeError::new_err("lapack_driver must be a string"));
    };
    let name = name.to_cow()?;
    if name != "gesdd" && name != "gesvd" {
        return Err(
            Error::InvalidArgument(format!("lapack_driver must be \"gesdd\" or \"gesvd\", not \"{name}\"")).into()
        );
    }
    Ok(())
}

/// Singular Value Decomposition.
///
/// Singular value decomposition ``a = U @ diag(s) @ Vh`` (``scipy.linalg.svd``).
///
/// Returns ``(U, s, Vh)`` (a list for a batch), or ``s`` alone without
/// ``compute_uv``. ``lapack_driver`` ``'gesdd'`` or ``'gesvd'`` (both compute
/// the same decomposition; libtorch picks its own driver).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (
        a, full_matrices = true, compute_uv = true, overwrite_a = false, check_finite = true,
        lapack_driver = Passed::default(), *, device = None
    ),
    text_signature = "(a, full_matrices=True, compute_uv=True, overwrite_a=False, check_finite=True, \
                      lapack_driver='gesdd', *, device=None)"
)]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn svd(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    full_matrices: bool,
    compute_uv: bool,
    overwrite_a: bool,
    check_finite: bool,
    lapack_driver: Passed,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    check_driver(py, &lapack_driver)?;
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("svd", &[(Some(&a), 2)])?;
        let options = SvdOptions { full_matrices, compute_uv, check_finite: CheckFinite::from_flag(check_finite) };
        let Svd { u, s, vh } = compute(py, a.numel(), move || ops::svd(&a, &options))?;
        let s = wrap(py, &library, s, false)?;
        match (u, vh) {
            (Some(u), Some(vh)) => {
                sequence(py, vec![wrap(py, &library, u, false)?, s, wrap(py, &library, vh, false)?], list)
            }
            _ => Ok(s),
        }
    })
}

/// Compute singular values of a matrix.
///
/// Singular values, descending (``scipy.linalg.svdvals``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, overwrite_a = false, check_finite = true, *, device = None))]
fn svdvals(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    overwrite_a: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    let options =
        SvdOptions { full_matrices: true, compute_uv: false, check_finite: CheckFinite::from_flag(check_finite) };
    map1(py, device, a, Some(("svdvals", 2)), move |a| Ok(ops::svd(a, &options)?.s))
}

/// Construct the sigma matrix in SVD from singular values and size M, N.
///
/// The ``(M, N)`` matrix with ``s`` on its diagonal (``scipy.linalg.diagsvd``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (s, M, N, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter names
fn diagsvd(py: Python<'_>, s: &Bound<'_, PyAny>, M: i64, N: i64, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map1(py, device, s, Some(("diagsvd", 1)), move |s| ops::diagsvd(s, M, N))
}

/// Construct an orthonormal basis for the range of A using SVD
///
/// Orthonormal basis (columns) of the range of ``A``, from its reduced SVD
/// (``scipy.linalg.orth``); singular values below ``rcond`` times the largest
/// (default ``eps * max(M, N)``) count as zero.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, rcond = None, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn orth(py: Python<'_>, A: &Bound<'_, PyAny>, rcond: Option<f64>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map1(py, device, A, Some(("orth", 2)), move |a| ops::orth(a, rcond))
}

/// Construct an orthonormal basis for the null space of A using SVD
///
/// Orthonormal basis (columns) of the null space of ``A``, from its full SVD
/// (``scipy.linalg.null_space``); ``rcond`` as :func:`orth`'s.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (A, rcond = None, *, overwrite_a = false, check_finite = true, lapack_driver = Passed::default(), device = None),
    text_signature = "(A, rcond=None, *, overwrite_a=False, check_finite=True, lapack_driver='gesdd', device=None)"
)]
#[allow(non_snake_case)] // SciPy's parameter name
fn null_space(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    rcond: Option<f64>,
    overwrite_a: bool,
    check_finite: bool,
    lapack_driver: Passed,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    check_driver(py, &lapack_driver)?;
    let options = NullSpaceOptions { rcond, check_finite: CheckFinite::from_flag(check_finite) };
    map1(py, device, A, Some(("null_space", 2)), move |a| ops::null_space(a, &options))
}

/// Compute the subspace angles between two matrices.
///
/// Principal angles (descending) between the column spaces of ``A`` and
/// ``B`` (``scipy.linalg.subspace_angles``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, B, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter names
fn subspace_angles(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    B: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map2(py, device, (A, B), Some(("subspace_angles", 2, 2)), ops::subspace_angles)
}

/// Adds the SVD routines to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(svd, module)?)?;
    module.add_function(wrap_pyfunction!(svdvals, module)?)?;
    module.add_function(wrap_pyfunction!(diagsvd, module)?)?;
    module.add_function(wrap_pyfunction!(orth, module)?)?;
    module.add_function(wrap_pyfunction!(null_space, module)?)?;
    module.add_function(wrap_pyfunction!(subspace_angles, module)?)?;
    Ok(())
}
