//! `scipy.linalg.sqrtm` (its `_matfuncs_sqrtm` and `_matfuncs` halves): the
//! Schur method, SciPy's deprecated `disp`/`blocksize`, its warnings.

use pyo3::exceptions::PyDeprecationWarning;
use pyo3::prelude::*;
use tch::{Kind, Tensor};

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, linalg_warning, warn, Device};
use crate::ops::linalg::{self as ops, Sqrtm};
use crate::Error;

/// SciPy 1.16's DeprecationWarning for a deprecated keyword that was passed.
pub(super) fn deprecated(py: Python<'_>, name: &str) -> PyResult<()> {
    let message = format!("The `{name}` argument is deprecated and will be removed in SciPy 1.18.0.");
    warn(py, &py.get_type::<PyDeprecationWarning>(), &message)
}

/// Compute, if exists, the matrix square root.
///
/// Matrix square root ``X @ X = A`` of ``(..., N, N)`` ``A``
/// (``scipy.linalg.sqrtm``), by the Schur method: each matrix's Schur form
/// on the host (an explicit copy for CUDA input; see ``schur``), the
/// triangular root column by column in complex128, ``Z R Z^H`` back on the
/// input's device. Real input stays real unless an eigenvalue is real and
/// negative (then the whole result is complex, as in SciPy); float32 and
/// complex64 keep their dtype. ``disp`` and ``blocksize`` are deprecated as
/// in SciPy 1.16 (a DeprecationWarning; ``disp=False`` returns ``(X, errest)``
/// with SciPy's ``||X @ X - A||_F^2 / ||A||_F``, ``inf`` for a batch). A
/// singular matrix warns ``LinAlgWarning`` as SciPy does; SciPy's warning for
/// ill-conditioned input is not given.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (A, disp = None, blocksize = None, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter name
fn sqrtm(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    disp: Option<&Bound<'_, PyAny>>,
    blocksize: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if disp.is_some() {
        deprecated(py, "disp")?;
    }
    if blocksize.is_some() {
        deprecated(py, "blocksize")?;
    }
    // `disp is False` (an explicit None or True returns the root alone)
    let tuple = match disp {
        Some(d) => d.is(pyo3::types::PyBool::new(py, false)),
        None => false,
    };
    on_device(device, || {
        let (a, library) = import1(A)?;
        if a.dim() < 2 && a.numel() == 1 {
            // SciPy's early return for one element: [[exp(a)]]
            let kind = if crate::ops::dtype(&a)?.is_complex() { Kind::ComplexDouble } else { Kind::Double };
            let x = a.f_to_kind(kind).and_then(|x| x.f_exp()).and_then(|x| x.f_reshape([1, 1])).map_err(Error::from)?;
            return wrap(py, &library, x, false);
        }
        let list = a.dim() > 2 && batched("sqrtm", &[(Some(&a), 2)])?;
        let original = a.shallow_clone();
        let Sqrtm { x, singular } = compute(py, a.numel(), move || ops::sqrtm(&a))?;
        if singular {
            let message =
                "Matrix is singular. The result might be inaccurate or the array might not have a square root.";
            warn(py, &linalg_warning(py)?, message)?;
        }
        if !tuple {
            return wrap(py, &library, x, false);
        }
        let errest = if list {
            f64::INFINITY
        } else {
            let err = (|| -> crate::Result<f64> {
                let wide = if x.is_complex() || original.is_complex() { Kind::ComplexDouble } else { Kind::Double };
                let (x64, a64) = (x.f_to_kind(wide)?, original.f_to_kind(wide)?);
                let r = x64.f_matmul(&x64)?.f_sub(&a64)?;
                let fro = |t: &Tensor| -> crate::Result<f64> {
                    Ok(t.f_abs()?.f_square()?.f_sum(Kind::Double)?.f_sqrt()?.f_double_value(&[])?)
                };
                Ok(fro(&r)?.powi(2) / fro(&a64)?)
            })()?;
            if err.is_nan() {
                f64::INFINITY
            } else {
                err
            }
        };
        let x = wrap(py, &library, x, false)?;
        let errest = wrap(py, &library, Tensor::from(errest), true)?;
        Ok(pyo3::types::PyTuple::new(py, [x, errest])?.into_any().unbind())
    })
}

/// Adds `sqrtm` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(sqrtm, module)?)?;
    Ok(())
}
