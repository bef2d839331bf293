//! `scipy.linalg._decomp_cossin`: `cossin`, with SciPy's argument forms
//! (`X` with `p`, `q`, or its four blocks) and result containers.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use tch::Tensor;

use super::super::container::{compute, import_all, wrap};
use super::super::placement::on_device;
use super::{batched, sequence, Device};
use crate::ops::linalg::{self as ops, CosSin, CosSinOptions};
use crate::Error;

/// Compute the cosine-sine (CS) decomposition of an orthogonal/unitary matrix.
///
/// ``X = U @ CS @ VDH`` (``scipy.linalg.cossin``) with ``U = block_diag(U1,
/// U2)`` and ``VDH = block_diag(V1H, V2H)`` unitary (orthogonal) and ``CS``
/// SciPy's cosine-sine factor (``-S``, ``-I`` top-right, or bottom-left with
/// ``swap_sign=True``); ``separate=True`` returns ``(U1, U2), theta, (V1H,
/// V2H)``, ``theta`` increasing in ``[0, pi/2]``. ``X`` with ``p``, ``q``
/// (checked finite and square as SciPy does), or its four blocks ``(X11,
/// X12, X21, X22)``; batched over leading dimensions as SciPy's
/// ``_apply_over_batch`` (``separate=True`` on a batch, which SciPy cannot
/// stack, raises ``UnsupportedParameterError``).
///
/// libtorch and the LAPACK it exports have no ``?orcsd``/``?uncsd``: the
/// factors are built from SVDs and a QR on the input's device (Van Loan's
/// construction: the SVD of ``X11``; ``U2`` from ``X21 V1``, the columns of
/// small sines re-split by a second SVD; ``V2H`` from ``X12`` and ``X22``),
/// so ``U1``, ``U2``, ``V1H``, ``V2H`` may differ from LAPACK's by signs and
/// rotations within repeated angles; the products and ``theta`` do not.
/// ``X`` is assumed unitary, as SciPy assumes it. Not differentiable.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (
    X, p = None, q = None, separate = false, swap_sign = false, compute_u = true, compute_vh = true, *, device = None
))]
#[allow(non_snake_case, clippy::too_many_arguments)] // SciPy's parameters
fn cossin(
    py: Python<'_>,
    X: &Bound<'_, PyAny>,
    p: Option<&Bound<'_, PyAny>>,
    q: Option<&Bound<'_, PyAny>>,
    separate: bool,
    swap_sign: bool,
    compute_u: bool,
    compute_vh: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    // SciPy's `if p or q:`, then `int(p)` (1 when None)
    let truthy = |v: Option<&Bound<'_, PyAny>>| -> PyResult<bool> { v.map_or(Ok(false), |v| v.is_truthy()) };
    let to_int = |v: Option<&Bound<'_, PyAny>>| -> PyResult<i64> {
        match v {
            None => Ok(1),
            Some(v) => py.import("builtins")?.getattr("int")?.call1((v,))?.extract(),
        }
    };
    let (pq, parts): (Option<(i64, i64)>, Vec<Bound<'_, PyAny>>) = if truthy(p)? || truthy(q)? {
        (Some((to_int(p)?, to_int(q)?)), vec![X.clone()])
    } else {
        let iterable = py.import("collections.abc")?.getattr("Iterable")?;
        if !X.is_instance(&iterable)? {
            return Err(Error::InvalidArgument(
                "When p and q are None, X must be an Iterable containing the subblocks of X".into(),
            )
            .into());
        }
        let n = X.len()?;
        if n != 4 {
            return Err(Error::InvalidArgument(format!(
                "When p and q are None, exactly four arrays should be in X, got {n}"
            ))
            .into());
        }
        (None, X.try_iter()?.collect::<PyResult<Vec<_>>>()?)
    };
    let options = CosSinOptions { swap_sign, compute_u, compute_vh };
    on_device(device, || {
        let refs: Vec<&Bound<'_, PyAny>> = parts.iter().collect();
        let (tensors, library) = import_all(&refs)?;
        let blocks: Vec<Tensor> = match pq {
            Some((p, q)) => ops::cossin_split(&tensors[0], p, q)?.into_iter().collect(),
            // (np.atleast_2d)
            None => tensors
                .iter()
                .map(|t| match t.dim() {
                    0 => t.f_reshape([1i64, 1].as_slice()),
                    1 => t.f_unsqueeze(0),
                    _ => Ok(t.shallow_clone()),
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(Error::from)?,
        };
        let list = batched("cossin", &blocks.iter().map(|b| (Some(b), 2)).collect::<Vec<_>>())?;
        if list && separate {
            return Err(Error::NotImplemented(
                "linalg.cossin: separate=True on a batch (SciPy's _apply_over_batch cannot stack the nested tuples)"
                    .into(),
            )
            .into());
        }
        let elements = blocks.iter().map(Tensor::numel).sum();
        let CosSin { u1, u2, theta, v1h, v2h, u, cs, vh } =
            compute(py, elements, move || ops::cossin([&blocks[0], &blocks[1], &blocks[2], &blocks[3]], &options))?;
        let one = |t: Tensor| wrap(py, &library, t, false);
        if separate {
            let us = PyTuple::new(py, [one(u1)?, one(u2)?])?.into_any().unbind();
            let theta = one(theta)?;
            let vhs = PyTuple::new(py, [one(v1h)?, one(v2h)?])?.into_any().unbind();
            return Ok(PyTuple::new(py, [us, theta, vhs])?.into_any().unbind());
        }
        sequence(py, vec![one(u)?, one(cs)?, one(vh)?], list)
    })
}

/// Adds `cossin` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(cossin, module)?)?;
    Ok(())
}
