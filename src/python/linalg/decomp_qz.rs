//! `scipy.linalg._decomp_qz`: `qz` and `ordqz`, with SciPy's option checks
//! and result containers (tuples, lists for batches).

use pyo3::prelude::*;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import2, sequence, Device, Passed};
use crate::ops::linalg::{self as ops, CheckFinite, Qz, QzOptions, QzOutput, QzSort};
use crate::Error;

/// QZ decomposition for generalized eigenvalues of a pair of matrices.
///
/// The generalized Schur decomposition ``(A, B) = (Q @ AA @ Z^H, Q @ BB @ Z^H)``
/// of square pencils (``scipy.linalg.qz``), batched over leading dimensions
/// as SciPy's ``_apply_over_batch`` (a list of results for a batch).
///
/// libtorch has no QZ algorithm: each pencil is copied to the host (an
/// explicit copy for CUDA input, and back), ``B`` QR-factored, the pencil
/// reduced to Hessenberg-triangular form (``?gghrd``) and iterated on the
/// host. ``output='complex'`` (or complex input): a port of LAPACK's
/// single-shift ``zhgeqz`` in complex128 (complex64 back for
/// single-precision input), ``AA`` upper triangular and ``BB`` upper
/// triangular with a real non-negative diagonal. ``output='real'`` for real
/// input (SciPy's default): the real generalized Schur form in float64
/// (``dhgeqz``'s deflations with Moler-Stewart double-shift sweeps; float32
/// back where SciPy would call ``sgges``), ``AA`` quasi-upper triangular with
/// 1x1 blocks and 2x2 blocks for complex conjugate pairs, ``BB`` upper
/// triangular with a non-negative diagonal and diagonal under each 2x2
/// block. The form is not unique: ``AA``, ``BB``, ``Q``, ``Z`` may differ
/// from LAPACK's ``?gges`` by signs and, for clustered eigenvalues, more;
/// the products and eigenvalues do not. ``sort``
/// must be ``None`` (use ``ordqz``), as in SciPy. Not differentiable: inputs
/// that require grad raise ``NotDifferentiableError``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (
    A, B, output = "real", lwork = None, sort = None, overwrite_a = false, overwrite_b = false, check_finite = true,
    *, device = None
))]
#[allow(non_snake_case, clippy::too_many_arguments)] // SciPy's parameters
fn qz(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    B: &Bound<'_, PyAny>,
    output: &str,
    lwork: Option<&Bound<'_, PyAny>>,
    sort: Option<&Bound<'_, PyAny>>,
    overwrite_a: bool,
    overwrite_b: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (lwork, overwrite_a, overwrite_b); // performance hints
    if sort.is_some_and(|s| !s.is_none()) {
        return Err(Error::InvalidArgument(
            "The 'sort' input of qz() has to be None and will be removed in a future release. Use ordqz instead."
                .into(),
        )
        .into());
    }
    let output: QzOutput = output.parse()?;
    on_device(device, || {
        let (a, b, library) = import2(A, B)?;
        let list = batched("qz", &[(Some(&a), 2), (Some(&b), 2)])?;
        let options = QzOptions { output, sort: None, check_finite: CheckFinite::from_flag(check_finite) };
        let Qz { aa, bb, q, z, .. } = compute(py, a.numel() + b.numel(), move || ops::qz(&a, &b, &options))?;
        let items = [aa, bb, q, z].into_iter().map(|t| wrap(py, &library, t, false)).collect::<PyResult<Vec<_>>>()?;
        sequence(py, items, list)
    })
}

/// QZ decomposition for a pair of matrices with reordering.
///
/// The generalized Schur decomposition with the eigenvalues ``sort``
/// selects in the leading block (``scipy.linalg.ordqz``): returns
/// ``(AA, BB, alpha, beta, Q, Z)``, batched as SciPy's ``_apply_over_batch``.
///
/// Computed on the host as ``qz`` computes it, then reordered by adjacent
/// swaps, the selected eigenvalues keeping their relative order as
/// ``?tgsen`` moves them: ports of LAPACK's ``ztgexc``/``ztgex2`` for the
/// complex form (``BB``'s diagonal then made real non-negative); for the
/// real form (``output='real'``, real input) swaps of 1x1 and 2x2 blocks as
/// ``dtgexc`` makes them (the generalized Sylvester equation of the two
/// blocks solved, its deflating subspaces orthonormalized), a complex pair
/// selected when either of its eigenvalues is, ``alpha`` complex
/// (``alphar + 1j*alphai``) and ``beta`` real as SciPy returns them.
/// ``sort``: ``'lhp'``, ``'rhp'``, ``'iuc'``, ``'ouc'`` as SciPy defines
/// them, or a callable called once per pencil with the arrays ``(alpha,
/// beta)``, returning a boolean array. Not differentiable.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (
        A, B, sort = Passed::default(), output = "real", overwrite_a = false, overwrite_b = false,
        check_finite = true, *, device = None
    ),
    text_signature = "(A, B, sort='lhp', output='real', overwrite_a=False, overwrite_b=False, check_finite=True, *, \
                      device=None)"
)]
#[allow(non_snake_case, clippy::too_many_arguments)] // SciPy's parameters
fn ordqz(
    py: Python<'_>,
    A: &Bound<'_, PyAny>,
    B: &Bound<'_, PyAny>,
    sort: Passed,
    output: &str,
    overwrite_a: bool,
    overwrite_b: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, overwrite_b); // performance hints
    let output: QzOutput = output.parse()?;
    let sort = sort.or_str(py, "lhp");
    let named = match &sort {
        s if s.is_callable() => None,
        s => match s.extract::<String>().ok().as_deref() {
            Some("lhp") => Some(QzSort::Lhp),
            Some("rhp") => Some(QzSort::Rhp),
            Some("iuc") => Some(QzSort::Iuc),
            Some("ouc") => Some(QzSort::Ouc),
            _ => {
                return Err(Error::InvalidArgument(
                    "sort parameter must be None, a callable, or one of ('lhp','rhp','iuc','ouc')".into(),
                )
                .into())
            }
        },
    };
    on_device(device, || {
        let (a, b, library) = import2(A, B)?;
        let list = batched("ordqz", &[(Some(&a), 2), (Some(&b), 2)])?;
        // SciPy's beta is real for the real form
        let real_form =
            output == QzOutput::Real && !crate::ops::dtype(&a)?.is_complex() && !crate::ops::dtype(&b)?.is_complex();
        let callable: Option<Py<PyAny>> = Some(sort.clone().unbind());
        let call = |alpha: &[(f64, f64)], beta: &[(f64, f64)]| -> crate::Result<Vec<bool>> {
            Python::attach(|py| {
                let f = callable.as_ref().ok_or_else(|| Error::Torch("sort callable missing".into()))?.bind(py);
                let np = py.import("numpy").map_err(|e| Error::Torch(e.to_string()))?;
                let to_array = |v: &[(f64, f64)]| -> PyResult<Bound<'_, PyAny>> {
                    let items: Vec<pyo3::Bound<'_, pyo3::types::PyComplex>> =
                        v.iter().map(|c| pyo3::types::PyComplex::from_doubles(py, c.0, c.1)).collect();
                    np.call_method1("asarray", (items, "complex128"))
                };
                let beta_array = |v: &[(f64, f64)]| -> PyResult<Bound<'_, PyAny>> {
                    if real_form {
                        let items: Vec<f64> = v.iter().map(|c| c.0).collect();
                        np.call_method1("asarray", (items, "float64"))
                    } else {
                        to_array(v)
                    }
                };
                let result = to_array(alpha)
                    .and_then(|al| beta_array(beta).and_then(|be| f.call1((al, be))))
                    .and_then(|r| np.call_method1("asarray", (r, "bool")))
                    .and_then(|r| r.call_method0("ravel"))
                    .and_then(|r| r.call_method0("tolist"))
                    .and_then(|r| r.extract::<Vec<bool>>());
                result.map_err(|e| Error::InvalidArgument(format!("sort callable raised: {e}")))
            })
        };
        let sorting = match named {
            Some(named) => named,
            None => QzSort::Custom(&call),
        };
        let options = QzOptions { output, sort: Some(sorting), check_finite: CheckFinite::from_flag(check_finite) };
        // (elements 0: the GIL stays held, the sort callable may run Python)
        let Qz { aa, bb, alpha, beta, q, z } = compute(py, 0, move || ops::ordqz(&a, &b, &options))?;
        let items = [aa, bb, alpha, beta, q, z]
            .into_iter()
            .map(|t| wrap(py, &library, t, false))
            .collect::<PyResult<Vec<_>>>()?;
        sequence(py, items, list)
    })
}

/// Adds `qz` and `ordqz` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(qz, module)?)?;
    module.add_function(wrap_pyfunction!(ordqz, module)?)?;
    Ok(())
}
