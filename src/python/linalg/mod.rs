//! `torchbridge._core.linalg`: the compiled face of `torchbridge.linalg`.
//!
//! The files mirror `ops::linalg` (SciPy's private modules): each holds one
//! `#[pyfunction]` per SciPy function, with SciPy's parameters and defaults
//! and a keyword-only `device=None`. Options are parsed here, once, with
//! SciPy's exceptions; what SciPy does around the computation (its
//! `LinAlgWarning`, the lists its `_apply_over_batch` returns for batches)
//! is done here too. This file holds what the seams share: the argument
//! imports, the one-array bodies (`map1`, `map2`), SciPy's batch checks and
//! result containers, and the warnings.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use tch::Tensor;

use super::container::{compute, import_all, wrap, Library};
use super::placement::on_device;
use crate::ops::numpy;

/// What every `linalg` routine's docstring ends with: how torchbridge differs from SciPy.
macro_rules! linalg_note {
    () => {
        "torchbridge: computed by libtorch (LAPACK, or cuSOLVER/MAGMA on CUDA), the\n\
         result in the caller's array type on its device; for numpy input SciPy's\n\
         dtype, shape and result type. ``overwrite_*`` and ``lwork`` are accepted\n\
         hints (torchbridge never writes into an input); ``check_finite`` as in\n\
         SciPy; options and dtypes torchbridge does not implement raise\n\
         ``UnsupportedParameterError`` (a ``NotImplementedError``) or SciPy's own\n\
         exception, naming them.\n\
         \n\
         ``device=None`` (keyword-only): ``\"cpu\"``, ``\"cuda\"`` (the inputs' CUDA\n\
         device, else ``cuda:0``), ``\"cuda:N\"`` or a ``torch.device`` computes there,\n\
         copying the inputs there and the results back to the caller's device; by\n\
         default (``None``) the computation runs where the arrays live, CUDA\n\
         included; a device libtorch cannot reach raises ``DeviceError``."
    };
}

mod array_utils;
mod basic;
mod decomp;
mod decomp_cholesky;
mod decomp_cossin;
mod decomp_ldl;
mod decomp_lu;
mod decomp_polar;
mod decomp_qr;
mod decomp_qz;
mod decomp_schur;
mod decomp_svd;
mod decomp_update;
mod matfuncs;
mod matfuncs_inv_ssq;
mod matfuncs_sqrtm;
mod misc;
mod procrustes;
mod sketches;
mod solvers;
mod special_matrices;

pyo3::create_exception!(
    torchbridge.linalg,
    LinAlgWarning,
    pyo3::exceptions::PyRuntimeWarning,
    "Warned for ill-conditioned input (SciPy's ``scipy.linalg.LinAlgWarning``)."
);

/// The `device=` keyword's argument (`None` or Python `None`: where the data is).
pub(super) type Device<'a, 'py> = Option<&'a Bound<'py, PyAny>>;

/// An argument as the caller passed it (`None` when not passed: SciPy's
/// default, which the binding's text signature shows), for the options SciPy
/// checks in its body, where an explicit `None` is refused like any other value.
#[derive(Debug, Default)]
pub(super) struct Passed(Option<Py<PyAny>>);

impl<'a, 'py> FromPyObject<'a, 'py> for Passed {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Passed> {
        Ok(Passed(Some(obj.to_owned().unbind())))
    }
}

impl Passed {
    /// The argument, or the string `default` when it was not passed.
    pub(super) fn or_str<'py>(&self, py: Python<'py>, default: &str) -> Bound<'py, PyAny> {
        match &self.0 {
            Some(obj) => obj.bind(py).clone(),
            None => PyString::new(py, default).into_any(),
        }
    }
}

/// The body of a binding with one array in and one array out: on `device`,
/// imports `a` (with `core` trailing dimensions, SciPy's `_apply_over_batch`
/// checks run when given), computes `f` and returns the caller's array type.
pub(super) fn map1(
    py: Python<'_>,
    device: Device<'_, '_>,
    a: &Bound<'_, PyAny>,
    batch: Option<(&str, usize)>,
    f: impl FnOnce(&Tensor) -> crate::Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, library) = import1(a)?;
        if let Some((name, core)) = batch {
            batched(name, &[(Some(&a), core)])?;
        }
        let result = compute(py, a.numel(), move || f(&a))?;
        wrap(py, &library, result, false)
    })
}

/// [`map1`] for two array arguments (`batch`: the name and each one's core dimensions).
pub(super) fn map2(
    py: Python<'_>,
    device: Device<'_, '_>,
    (a, b): (&Bound<'_, PyAny>, &Bound<'_, PyAny>),
    batch: Option<(&str, usize, usize)>,
    f: impl FnOnce(&Tensor, &Tensor) -> crate::Result<Tensor> + Send,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, b, library) = import2(a, b)?;
        if let Some((name, core_a, core_b)) = batch {
            batched(name, &[(Some(&a), core_a), (Some(&b), core_b)])?;
        }
        let result = compute(py, a.numel() + b.numel(), move || f(&a, &b))?;
        wrap(py, &library, result, false)
    })
}

/// Python's `x, y = value`, with its exceptions.
pub(super) fn unpack2<'py>(value: &Bound<'py, PyAny>) -> PyResult<[Bound<'py, PyAny>; 2]> {
    let items = match value.try_iter() {
        Ok(items) => items,
        Err(err) if err.is_instance_of::<PyTypeError>(value.py()) => {
            let name = value.get_type().name()?;
            return Err(PyTypeError::new_err(format!("cannot unpack non-iterable {name} object")));
        }
        Err(err) => return Err(err),
    };
    let mut items: Vec<Bound<'py, PyAny>> = items.take(3).collect::<PyResult<_>>()?;
    match items.len() {
        2 => {
            let second = items.remove(1);
            Ok([items.remove(0), second])
        }
        n if n < 2 => Err(PyValueError::new_err(format!("not enough values to unpack (expected 2, got {n})"))),
        _ => Err(PyValueError::new_err("too many values to unpack (expected 2)")),
    }
}

/// Imports one array argument.
pub(super) fn import1(a: &Bound<'_, PyAny>) -> PyResult<(Tensor, Library)> {
    let (mut tensors, library) = import_all(&[a])?;
    Ok((tensors.remove(0), library))
}

/// Imports two array arguments of one call.
pub(super) fn import2(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<(Tensor, Tensor, Library)> {
    let (mut tensors, library) = import_all(&[a, b])?;
    let b = tensors.remove(1);
    Ok((tensors.remove(0), b, library))
}

/// Imports `a` and an optional second array (`None` or Python `None`: absent).
pub(super) fn import_optional(
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Tensor, Option<Tensor>, Library)> {
    match b.filter(|b| !b.is_none()) {
        Some(b) => import2(a, b).map(|(a, b, library)| (a, Some(b), library)),
        None => import1(a).map(|(a, library)| (a, None, library)),
    }
}

/// Whether SciPy's `_apply_over_batch` batches this call: some argument has
/// dimensions beyond its `core` ones. Raises its ValueError for zero-size batches.
pub(super) fn batched(name: &str, parts: &[(Option<&Tensor>, usize)]) -> crate::Result<bool> {
    let batches: Vec<Vec<i64>> =
        parts.iter().filter_map(|(t, core)| t.map(|t| t.size()[..t.dim().saturating_sub(*core)].to_vec())).collect();
    if batches.iter().all(Vec::is_empty) {
        return Ok(false);
    }
    let shape = numpy::broadcast_shapes(&batches.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
    if shape.contains(&0) {
        return Err(crate::Error::InvalidArgument(format!("`{name}` does not support zero-size batches.")));
    }
    Ok(true)
}

/// SciPy's `'1|2'` core dimensions of a right-hand side.
pub(super) fn rhs_core(b: &Tensor) -> usize {
    if b.dim() >= 2 {
        2
    } else {
        1
    }
}

/// The smallest entry of a (batch of) reciprocal condition numbers, NaN
/// propagated (SciPy warns for NaN too).
pub(super) fn min_rcond(rcond: &Tensor) -> crate::Result<f64> {
    // (one batch entry per matrix: read on the host rather than by tensor ops)
    let n = rcond.numel();
    let mut values = vec![0f64; n];
    rcond.f_to_kind(tch::Kind::Double)?.f_copy_data(&mut values, n)?;
    Ok(values.into_iter().fold(f64::INFINITY, |m, v| if m.is_nan() || v.is_nan() { f64::NAN } else { m.min(v) }))
}

/// SciPy's `LinAlgWarning` when `rcond` is below the eps of `x`'s dtype (or NaN).
pub(super) fn warn_ill_conditioned(py: Python<'_>, rcond: f64, x: &Tensor) -> PyResult<()> {
    let single = matches!(x.kind(), tch::Kind::Float | tch::Kind::ComplexFloat);
    let eps = if single { f64::from(f32::EPSILON) } else { f64::EPSILON };
    if rcond >= eps {
        return Ok(());
    }
    // Python's `:.6g`, as SciPy formats it.
    let shown: String = pyo3::types::PyFloat::new(py, rcond).call_method1("__format__", (".6g",))?.extract()?;
    let message = format!("An ill-conditioned matrix detected: rcond = {shown}: result may not be accurate.");
    warn(py, &linalg_warning(py)?, &message)
}

/// The category the routines warn with: `torchbridge.linalg.LinAlgWarning`,
/// a subclass of the compiled class and of SciPy's `LinAlgWarning` where
/// SciPy is installed (made on first use by `torchbridge.linalg._misc`).
pub(super) fn linalg_warning(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyType>> {
    Ok(py.import("torchbridge.linalg")?.getattr("LinAlgWarning")?.cast_into::<pyo3::types::PyType>()?)
}

/// `warnings.warn(message, category)` attributed to the caller.
pub(super) fn warn(py: Python<'_>, category: &Bound<'_, pyo3::types::PyType>, message: &str) -> PyResult<()> {
    let message = std::ffi::CString::new(message).map_err(|e| crate::Error::InvalidArgument(e.to_string()))?;
    PyErr::warn(py, category.as_any(), &message, 1)
}

/// SciPy's result container: a list for a batch (`_apply_over_batch`), else a tuple.
pub(super) fn sequence(py: Python<'_>, items: Vec<Py<PyAny>>, list: bool) -> PyResult<Py<PyAny>> {
    Ok(if list { PyList::new(py, items)?.into_any().unbind() } else { PyTuple::new(py, items)?.into_any().unbind() })
}

/// Adds the `linalg` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "linalg")?;
    module.add("LinAlgWarning", parent.py().get_type::<LinAlgWarning>())?;
    array_utils::register(&module)?;
    basic::register(&module)?;
    decomp::register(&module)?;
    decomp_cholesky::register(&module)?;
    decomp_cossin::register(&module)?;
    decomp_ldl::register(&module)?;
    decomp_lu::register(&module)?;
    decomp_polar::register(&module)?;
    decomp_qr::register(&module)?;
    decomp_schur::register(&module)?;
    decomp_qz::register(&module)?;
    decomp_svd::register(&module)?;
    decomp_update::register(&module)?;
    matfuncs::register(&module)?;
    matfuncs::register_schur_functions(&module)?;
    matfuncs_inv_ssq::register(&module)?;
    matfuncs_sqrtm::register(&module)?;
    misc::register(&module)?;
    procrustes::register(&module)?;
    sketches::register(&module)?;
    solvers::register(&module)?;
    special_matrices::register(&module)?;
    super::attach(parent, &module)
}
