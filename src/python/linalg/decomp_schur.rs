//! `scipy.linalg._decomp_schur`: `schur` and `rsf2csf`, with SciPy's option
//! checks and result containers (`(T, Z)`, `(T, Z, sdim)` when sorted, lists
//! for batches).

use pyo3::prelude::*;
use pyo3::types::PyComplex;

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{batched, import1, import2, sequence, Device};
use crate::ops::linalg::{self as ops, CheckFinite, Schur, SchurOptions, SchurOutput, SchurSort};
use crate::Error;

/// Compute Schur decomposition of a matrix.
///
/// Schur decomposition ``a = Z @ T @ Z^H`` (``scipy.linalg.schur``).
///
/// libtorch has no Schur decomposition: each matrix is copied to the host
/// (an explicit copy for CUDA input, and back), reduced to Hessenberg form
/// and iterated to Schur form by ports of LAPACK's ``?lahqr`` (Francis'
/// double shift for ``output='real'``, single shift for ``'complex'``), in
/// float64/complex128 (float32 input gets its dtype back). The form is not
/// unique: ``T``'s off-diagonal entries and ``Z``'s column phases may differ
/// from LAPACK's ``?gees`` where the eigenvalues are repeated or clustered;
/// ``Z @ T @ Z^H``, ``T``'s (quasi-)triangular structure and its
/// eigenvalues do not. ``sort`` (``'lhp'``, ``'rhp'``, ``'iuc'``, ``'ouc'``
/// or a callable, called as SciPy calls it) reorders the complex form
/// (``ztrexc``); with ``output='real'`` for real input it raises
/// ``UnsupportedParameterError`` (the real form's block reordering is not
/// implemented).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, output = "real", lwork = None, overwrite_a = false, sort = None, check_finite = true, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn schur(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    output: &str,
    lwork: Option<&Bound<'_, PyAny>>,
    overwrite_a: bool,
    sort: Option<&Bound<'_, PyAny>>,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (lwork, overwrite_a); // performance hints
    let output: SchurOutput = output.parse()?;
    let sort = sort.filter(|s| !s.is_none());
    let named = match sort {
        None => None,
        Some(s) if s.is_callable() => None,
        Some(s) => match s.extract::<String>().ok().as_deref() {
            Some("lhp") => Some(SchurSort::Lhp),
            Some("rhp") => Some(SchurSort::Rhp),
            Some("iuc") => Some(SchurSort::Iuc),
            Some("ouc") => Some(SchurSort::Ouc),
            _ => {
                return Err(Error::InvalidArgument(
                    "'sort' parameter must either be 'None', or a callable, or one of ('lhp','rhp','iuc','ouc')".into(),
                )
                .into())
            }
        },
    };
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("schur", &[(Some(&a), 2)])?;
        let shape: Vec<i64> = a.size()[..a.dim().saturating_sub(2)].to_vec();
        let complex_form = output == SchurOutput::Complex || crate::ops::dtype(&a)?.is_complex();
        // SciPy's callable: f(x) for the complex form, f(re, im) for the real one
        let callable: Option<Py<PyAny>> = sort.map(|s| s.clone().unbind());
        let call = |re: f64, im: f64| -> crate::Result<bool> {
            Python::attach(|py| {
                let f = callable.as_ref().ok_or_else(|| Error::Torch("sort callable missing".into()))?.bind(py);
                let result =
                    if complex_form { f.call1((PyComplex::from_doubles(py, re, im),)) } else { f.call1((re, im)) };
                result
                    .and_then(|r| r.is_truthy())
                    .map_err(|e| Error::InvalidArgument(format!("sort callable raised: {e}")))
            })
        };
        let sorting = match (sort, named) {
            (None, _) => None,
            (Some(_), Some(named)) => Some(named),
            (Some(_), None) => Some(SchurSort::Custom(&call)),
        };
        let options = SchurOptions { output, sort: sorting, check_finite: CheckFinite::from_flag(check_finite) };
        // (elements 0: the GIL stays held, the sort callable may run Python)
        let Schur { t, z, sdim } = compute(py, 0, move || ops::schur(&a, &options))?;
        let mut items = vec![wrap(py, &library, t, false)?, wrap(py, &library, z, false)?];
        if let Some(sdim) = sdim {
            if list {
                let counts = tch::Tensor::f_from_slice(&sdim)
                    .map_err(Error::from)?
                    .f_reshape(shape.as_slice())
                    .map_err(Error::from)?;
                items.push(wrap(py, &library, counts, false)?);
            } else {
                items.push(sdim.first().copied().unwrap_or(0).into_pyobject(py)?.into_any().unbind());
            }
        }
        sequence(py, items, list)
    })
}

/// Convert real Schur form to complex Schur form.
///
/// Real Schur form ``(T, Z)`` to the complex one (``scipy.linalg.rsf2csf``),
/// SciPy's Givens rotations of each 2x2 block, run on the host (an explicit
/// copy for CUDA input).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (T, Z, check_finite = true, *, device = None))]
#[allow(non_snake_case)] // SciPy's parameter names
fn rsf2csf(
    py: Python<'_>,
    T: &Bound<'_, PyAny>,
    Z: &Bound<'_, PyAny>,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (t, z, library) = import2(T, Z)?;
        let list = batched("rsf2csf", &[(Some(&t), 2), (Some(&z), 2)])?;
        let check = CheckFinite::from_flag(check_finite);
        let (t, z) = compute(py, t.numel() + z.numel(), move || ops::rsf2csf(&t, &z, check))?;
        sequence(py, vec![wrap(py, &library, t, false)?, wrap(py, &library, z, false)?], list)
    })
}

/// Adds `schur` and `rsf2csf` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(schur, module)?)?;
    module.add_function(wrap_pyfunction!(rsf2csf, module)?)?;
    Ok(())
}
