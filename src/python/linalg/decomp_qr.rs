//! `scipy.linalg._decomp_qr`: `qr` and `rq`, with SciPy's result shapes
//! (`(Q, R)`, a 1-tuple `(R,)` for `mode='r'`, `((qr, tau), R)` for `'raw'`,
//! lists for batches).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, sequence};
use crate::ops::linalg::{self as ops, CheckFinite, Qr, QrMode, QrOptions, QrRaw, Rq};
use crate::Error;

/// Compute QR decomposition of a matrix.
///
/// QR decomposition ``a = Q @ R`` (``scipy.linalg.qr``).
///
/// ``mode``: ``'full'`` (``(Q, R)``), ``'economic'``, ``'r'`` (``(R,)``, a
/// 1-tuple as SciPy returns it; ``R`` alone for a batch) or ``'raw'``
/// (``((qr, tau), R)`` in LAPACK's ``?geqrf`` format). Column pivoting
/// (``pivoting=True``) is not implemented: libtorch has no ``?geqp3``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, overwrite_a = false, lwork = None, mode = "full", pivoting = false, check_finite = true, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn qr(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    overwrite_a: bool,
    lwork: Option<&Bound<'_, PyAny>>,
    mode: &str,
    pivoting: bool,
    check_finite: bool,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, lwork); // performance hints
    let mode: QrMode = mode.parse()?;
    if pivoting {
        return Err(Error::NotImplemented("linalg.qr: pivoting=True is not supported".into()).into());
    }
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("qr", &[(Some(&a), 2)])?;
        if list && mode == QrMode::Raw {
            return Err(Error::NotImplemented(
                "linalg.qr: mode='raw (with a batch of matrices)' is not supported".into(),
            )
            .into());
        }
        let options = QrOptions { mode, check_finite: CheckFinite::from_flag(check_finite) };
        let Qr { q, r, raw } = compute(py, a.numel(), move || ops::qr(&a, &options))?;
        let r = wrap(py, &library, r, false)?;
        if let Some(QrRaw { qr, tau }) = raw {
            let pair = PyTuple::new(py, [wrap(py, &library, qr, false)?, wrap(py, &library, tau, false)?])?;
            return Ok(PyTuple::new(py, [pair.into_any().unbind(), r])?.into_any().unbind());
        }
        match q {
            Some(q) => sequence(py, vec![wrap(py, &library, q, false)?, r], list),
            None if list => Ok(r),
            None => sequence(py, vec![r], false),
        }
    })
}

/// Compute RQ decomposition of a matrix.
///
/// RQ decomposition ``a = R @ Q`` (``scipy.linalg.rq``).
///
/// Computed from a QR decomposition (libtorch has no ``?gerqf``): ``R``'s
/// diagonal signs (phases) may differ from LAPACK's; ``R @ Q`` does not.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, overwrite_a = false, lwork = None, mode = "full", check_finite = true, *, device = None))]
fn rq(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    overwrite_a: bool,
    lwork: Option<&Bound<'_, PyAny>>,
    mode: &str,
    check_finite: bool,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, lwork); // performance hints
    let mode = match mode {
        "full" => QrMode::Full,
        "r" => QrMode::R,
        "economic" => QrMode::Economic,
        _ => {
            return Err(Error::InvalidArgument("Mode argument should be one of ['full', 'r', 'economic']".into()).into())
        }
    };
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("rq", &[(Some(&a), 2)])?;
        let options = QrOptions { mode, check_finite: CheckFinite::from_flag(check_finite) };
        let Rq { r, q } = compute(py, a.numel(), move || ops::rq(&a, &options))?;
        let r = wrap(py, &library, r, false)?;
        match q {
            Some(q) => sequence(py, vec![r, wrap(py, &library, q, false)?], list),
            None => Ok(r),
        }
    })
}

/// Adds `qr` and `rq` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(qr, module)?)?;
    module.add_function(wrap_pyfunction!(rq, module)?)?;
    Ok(())
}
