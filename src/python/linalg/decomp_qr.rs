//! `scipy.linalg._decomp_qr`: `qr` and `rq`, with SciPy's result shapes
//! (`(Q, R)`, a 1-tuple `(R,)` for `mode='r'`, `((qr, tau), R)` for `'raw'`,
//! lists for batches).

use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::super::container::{compute, wrap, wrap_all};
use super::super::placement::on_device;
use super::{batched, import1, import2, rhs_core, sequence};
use crate::ops::linalg::{
    self as ops, CheckFinite, Qr, QrMode, QrMultiply, QrMultiplyMode, QrMultiplyOptions, QrOptions, QrRaw, Rq,
};
use crate::Error;

/// Compute QR decomposition of a matrix.
///
/// QR decomposition ``a = Q @ R`` (``scipy.linalg.qr``).
///
/// ``mode``: ``'full'`` (``(Q, R)``), ``'economic'``, ``'r'`` (``(R,)``, a
/// 1-tuple as SciPy returns it; ``R`` alone for a batch) or ``'raw'``
/// (``((qr, tau), R)`` in LAPACK's ``?geqrf`` format). ``pivoting=True``
/// adds the column permutation ``P`` (int32, as SciPy's) with ``a[:, P] = Q @
/// R``: the pivots are LAPACK ``?geqp3``'s (the largest remaining column norm
/// first, norms downdated as ``?laqp2`` does), chosen on the host (an
/// explicit copy for CUDA input), the factors then computed by libtorch
/// from the permuted matrix.
/// ``lwork`` is checked as SciPy's LAPACK wrappers check it (``lwork >= N``
/// for ``?geqrf``, then ``?orgqr``'s bound; ``-1`` queries) and otherwise
/// ignored; a too small one raises ``ValueError`` with SciPy's message.
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
    let _ = overwrite_a; // a performance hint
    let mode: QrMode = mode.parse()?;
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("qr", &[(Some(&a), 2)])?;
        if let (Some(lwork), true) = (lwork, a.numel() > 0 && a.dim() >= 2) {
            let (m, n) = (a.size()[a.dim() - 2], a.size()[a.dim() - 1]);
            // ?geqrf needs lwork >= N; ?orgqr/?ungqr (for Q) lwork >= its matrix's columns
            let mut calls = vec![("geqrf", "n", n)];
            if matches!(mode, QrMode::Full | QrMode::Economic) {
                let columns = if m < n || mode == QrMode::Full { m } else { n };
                calls.push(("orgqr", "n", columns));
            }
            check_lwork(lwork, &a, &calls)?;
        }
        if list && mode == QrMode::Raw {
            return Err(Error::NotImplemented(
                "linalg.qr: mode='raw (with a batch of matrices)' is not supported".into(),
            )
            .into());
        }
        let options = QrOptions { mode, check_finite: CheckFinite::from_flag(check_finite), pivoting };
        let Qr { q, r, raw, p } = compute(py, a.numel(), move || ops::qr(&a, &options))?;
        let mut rj = vec![wrap(py, &library, r, false)?];
        if let Some(p) = p {
            rj.push(wrap(py, &library, p, false)?);
        }
        if let Some(QrRaw { qr, tau }) = raw {
            let pair = PyTuple::new(py, [wrap(py, &library, qr, false)?, wrap(py, &library, tau, false)?])?;
            rj.insert(0, pair.into_any().unbind());
            return sequence(py, rj, false);
        }
        match q {
            Some(q) => {
                rj.insert(0, wrap(py, &library, q, false)?);
                sequence(py, rj, list)
            }
            None if list && rj.len() == 1 => Ok(rj.remove(0)),
            None => sequence(py, rj, list),
        }
    })
}

/// Calculate the QR decomposition and multiply Q with a matrix.
///
/// The QR decomposition of ``a`` and the product of its (economic) ``Q``
/// with ``c`` (``scipy.linalg.qr_multiply``): ``Q @ c`` (``mode='left'``) or
/// ``c @ Q`` (``'right'``), ``conj(Q)`` with ``conjugate=True``; returns
/// ``(CQ, R)`` or, with ``pivoting=True``, ``(CQ, R, P)`` (see :func:`qr`).
/// The product is a matrix product by libtorch (SciPy applies the
/// reflectors with LAPACK's ``?ormqr``; the results agree to rounding).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (
    a, c, mode = "right", pivoting = false, conjugate = false, overwrite_a = false, overwrite_c = false, *,
    device = None
))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn qr_multiply(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    c: &Bound<'_, PyAny>,
    mode: &str,
    pivoting: bool,
    conjugate: bool,
    overwrite_a: bool,
    overwrite_c: bool,
    device: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    let mode = match mode {
        "left" => QrMultiplyMode::Left,
        "right" => QrMultiplyMode::Right,
        other => {
            return Err(Error::InvalidArgument(format!(
                "Mode argument can only be 'left' or 'right' but not '{other}'"
            ))
            .into())
        }
    };
    on_device(device, || {
        let (a, c, library) = import2(a, c)?;
        let list = batched("qr_multiply", &[(Some(&a), 2), (Some(&c), rhs_core(&c))])?;
        let options = QrMultiplyOptions { mode, pivoting, conjugate, overwrite_c };
        let QrMultiply { cq, r, p } = compute(py, a.numel() + c.numel(), move || ops::qr_multiply(&a, &c, &options))?;
        let mut tensors = vec![cq, r];
        tensors.extend(p);
        sequence(py, wrap_all(py, &library, tensors)?, list)
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
    let _ = overwrite_a; // a performance hint
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
        if let (Some(lwork), true) = (lwork, a.numel() > 0 && a.dim() >= 2) {
            let (m, n) = (a.size()[a.dim() - 2], a.size()[a.dim() - 1]);
            // ?gerqf needs lwork >= M; ?orgrq/?ungrq (for Q) lwork >= its matrix's rows
            let mut calls = vec![("gerqf", "m", m)];
            if mode != QrMode::R {
                let rows = if n < m || mode != QrMode::Economic { n } else { m };
                calls.push(("orgrq", "m", rows));
            }
            check_lwork(lwork, &a, &calls)?;
        }
        let options = QrOptions { mode, check_finite: CheckFinite::from_flag(check_finite), pivoting: false };
        let Rq { r, q } = compute(py, a.numel(), move || ops::rq(&a, &options))?;
        let r = wrap(py, &library, r, false)?;
        match q {
            Some(q) => sequence(py, vec![r, wrap(py, &library, q, false)?], list),
            None => Ok(r),
        }
    })
}

/// SciPy's workspace checks (f2py's for LAPACK's `lwork`): each `(routine,
/// dimension name, dimension)` of `calls` in SciPy's order needs `lwork >=
/// dimension` or `lwork == -1` (a workspace query); `lwork` converts as f2py
/// converts it (`int()`, a C int). Raised as ValueError with f2py's message
/// (SciPy raises `_flapack.error` there, an `Exception`).
fn check_lwork(lwork: &Bound<'_, PyAny>, a: &tch::Tensor, calls: &[(&str, &str, i64)]) -> PyResult<()> {
    if lwork.is_none() {
        return Ok(());
    }
    let kind = crate::ops::linalg::lapack_kind(&[crate::ops::dtype(a)?]);
    let (prefix, complex) = match kind {
        tch::Kind::Float => ('s', false),
        tch::Kind::ComplexFloat => ('c', true),
        tch::Kind::ComplexDouble => ('z', true),
        _ => ('d', false),
    };
    let name = |routine: &str| {
        let routine = if complex { routine.replace("or", "un") } else { routine.to_string() };
        format!("{prefix}{routine}")
    };
    let first = name(calls.first().map_or("geqrf", |c| c.0));
    let refused =
        || Error::InvalidArgument(format!("_flapack.{first}() 1st keyword (lwork) can't be converted to int"));
    if lwork.is_instance_of::<pyo3::types::PyString>() || lwork.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(refused().into());
    }
    let py = lwork.py();
    let as_int = match py.import("builtins")?.getattr("int")?.call1((lwork,)) {
        Ok(value) => value,
        Err(err) if err.is_instance_of::<pyo3::exceptions::PyTypeError>(py) => return Err(refused().into()),
        Err(err) => return Err(err),
    };
    let value: i32 = as_int
        .extract()
        .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("Python int too large to convert to C int"))?;
    for &(routine, dim, size) in calls {
        if value != -1 && i64::from(value) < size {
            let routine = name(routine);
            return Err(Error::InvalidArgument(format!(
                "(lwork>={dim}||lwork==-1) failed for 1st keyword lwork: {routine}:lwork={value}"
            ))
            .into());
        }
    }
    Ok(())
}

/// Adds `qr` and `rq` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(qr, module)?)?;
    module.add_function(wrap_pyfunction!(rq, module)?)?;
    module.add_function(wrap_pyfunction!(qr_multiply, module)?)?;
    Ok(())
}
