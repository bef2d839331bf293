//! `scipy.linalg._decomp_ldl`: `ldl`, with SciPy's ComplexWarning.

use pyo3::prelude::*;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, sequence, warn, Device};
use crate::ops::linalg::{self as ops, CheckFinite, Ldl, LdlOptions};

/// Computes the LDLt or Bunch-Kaufman factorization of a symmetric/ hermitian matrix.
///
/// ``A = lu @ d @ lu^H`` (``lu^T`` for complex symmetric input,
/// ``hermitian=False``) with ``d`` block diagonal (1x1 and 2x2 blocks) and
/// ``lu[perm]`` triangular (``scipy.linalg.ldl``): LAPACK's ``?sytrf``/
/// ``?hetrf`` through libtorch (the upper triangle, ``lower=False``, as the
/// lower one of the reversed matrix: the same pivots but for exact ties),
/// then SciPy's post-processing on the host (an explicit copy for CUDA
/// input). Returns ``(lu, d, perm)``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, lower = true, hermitian = true, overwrite_a = false, check_finite = true, *, device = None))]
#[allow(non_snake_case)]
fn ldl(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    lower: bool,
    hermitian: bool,
    overwrite_a: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    on_device(device, || {
        let (a, library) = import1(A)?;
        let list = batched("ldl", &[(Some(&a), 2)])?;
        let options = LdlOptions { lower, hermitian, check_finite: CheckFinite::from_flag(check_finite) };
        let Ldl { lu, d, perm, imaginary_diagonal } = compute(py, a.numel(), move || ops::ldl(&a, &options))?;
        if imaginary_diagonal {
            let category =
                py.import("numpy.exceptions")?.getattr("ComplexWarning")?.cast_into::<pyo3::types::PyType>()?;
            let message =
                "scipy.linalg.ldl():\nThe imaginary parts of the diagonalare ignored. Use \"hermitian=False\" \
                           for factorization ofcomplex symmetric arrays.";
            warn(py, &category, message)?;
        }
        let items =
            vec![wrap(py, &library, lu, false)?, wrap(py, &library, d, false)?, wrap(py, &library, perm, false)?];
        sequence(py, items, list)
    })
}

/// Adds `ldl` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(ldl, module)?)?;
    Ok(())
}
