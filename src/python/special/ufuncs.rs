//! The ufunc bindings, generated from the ops' ufunc table
//! ([`crate::ops::special::ufuncs`]): one `#[pyfunction]` per ufunc with
//! SciPy's positional inputs, `out=None`, a keyword-only `device=None` and
//! `**kwargs` (SciPy's other ufunc keywords, refused by name), and
//! [`UFUNCS`], the names `torchbridge.special.__all__` takes from the table.
//! The multi-output ufuncs (`sici`, `airy`, `ellipj`, ...) return a tuple,
//! one array of the caller's type per output, each wrapped as the
//! single-output ufuncs wrap their result.

use pyo3::prelude::*;
use pyo3::types::{PyComplex, PyDict, PyFloat, PyInt, PyTuple};
use tch::Tensor;

use super::super::container::{classify, compute, import, import_all, wrap, Library, Subclasses};
use super::super::placement::on_device;
use crate::ops::special::ufuncs::{table, Ufunc};
use crate::ops::special::{self as sp, Operand};
use crate::{dlpack, Error, Result};

/// SciPy's ufuncs take `out` and ufunc keywords; say plainly which are not supported.
pub(super) fn reject_ufunc_options(
    ufunc: &Ufunc,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> Result<()> {
    // (a tuple of Nones: the multi-output ufuncs' default, `out=(None, None)`)
    let given = |out: &Bound<'_, PyAny>| {
        !out.is_none() && !out.cast::<PyTuple>().is_ok_and(|t| t.iter().all(|item| item.is_none()))
    };
    if out.is_some_and(given) {
        return Err(Error::NotImplemented(format!(
            "{}: out= is not supported; use the returned array",
            ufunc.qualified
        )));
    }
    if let Some(kwargs) = kwargs.filter(|k| !k.is_empty()) {
        let names: Vec<String> = kwargs.keys().iter().map(|k| k.to_string()).collect();
        return Err(Error::NotImplemented(format!(
            "{}: ufunc keyword(s) {} are not supported",
            ufunc.qualified,
            names.join(", ")
        )));
    }
    Ok(())
}

/// How NumPy sees `obj` in a ufunc call: a Python `int`, `float` or `complex`
/// literal (not a NumPy scalar, not a bool) is weak.
pub(super) fn operand_of(obj: &Bound<'_, PyAny>, tensor: &Tensor) -> Result<Operand> {
    if obj.is_exact_instance_of::<PyInt>() {
        Ok(Operand::PyInt)
    } else if obj.is_exact_instance_of::<PyFloat>() {
        Ok(Operand::PyFloat)
    } else if obj.is_exact_instance_of::<PyComplex>() {
        Ok(Operand::PyComplex)
    } else {
        Ok(Operand::Array(dlpack::dtype_of(tensor)?))
    }
}

/// A unary ufunc call: import, compute (the GIL released when large), wrap.
pub(super) fn unary(
    py: Python<'_>,
    ufunc: &Ufunc,
    x: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, kwargs)?;
    let (plain, subclasses) = Subclasses::unwrap(&[x])?;
    let arg = classify(&plain[0])?;
    let tensor = import(&arg)?.tensor;
    let result = compute(py, crate::ffi::numel(&tensor), move || op(&tensor))?;
    subclasses.rewrap(py, wrap(py, &arg.library, result, true)?)
}

/// Imports both arguments of a binary ufunc and casts them to the loop NumPy
/// would pick (weak literals included), so that `op` finds it by exact match.
pub(super) fn binary_inputs(
    ufunc: &Ufunc,
    x1: &Bound<'_, PyAny>,
    x2: &Bound<'_, PyAny>,
) -> PyResult<(Vec<Tensor>, Library)> {
    let (tensors, library) = import_all(&[x1, x2])?;
    let operands = [operand_of(x1, &tensors[0])?, operand_of(x2, &tensors[1])?];
    let cast = ufunc.cast_to_loop(&[&tensors[0], &tensors[1]], &operands)?;
    Ok((cast, library))
}

/// A binary ufunc call.
pub(super) fn binary(
    py: Python<'_>,
    ufunc: &Ufunc,
    x1: &Bound<'_, PyAny>,
    x2: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor, &Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, kwargs)?;
    let (plain, subclasses) = Subclasses::unwrap(&[x1, x2])?;
    let (tensors, library) = binary_inputs(ufunc, &plain[0], &plain[1])?;
    let elements = crate::ops::numpy::broadcast_numel(&tensors);
    let result = compute(py, elements, move || op(&tensors[0], &tensors[1]))?;
    subclasses.rewrap(py, wrap(py, &library, result, true)?)
}

/// A ternary ufunc call (as [`binary`], three inputs).
pub(super) fn ternary(
    py: Python<'_>,
    ufunc: &Ufunc,
    inputs: [&Bound<'_, PyAny>; 3],
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor, &Tensor, &Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, kwargs)?;
    let (plain, subclasses) = Subclasses::unwrap(&inputs)?;
    let inputs: Vec<&Bound<'_, PyAny>> = plain.iter().collect();
    let (tensors, library) = import_all(&inputs)?;
    let operands = inputs.iter().zip(&tensors).map(|(obj, t)| operand_of(obj, t)).collect::<Result<Vec<_>>>()?;
    let cast = ufunc.cast_to_loop(&tensors.iter().collect::<Vec<_>>(), &operands)?;
    let elements = crate::ops::numpy::broadcast_numel(&cast);
    let result = compute(py, elements, move || op(&cast[0], &cast[1], &cast[2]))?;
    subclasses.rewrap(py, wrap(py, &library, result, true)?)
}

/// A four-input ufunc call (as [`ternary`]).
pub(super) fn quaternary(
    py: Python<'_>,
    ufunc: &Ufunc,
    inputs: [&Bound<'_, PyAny>; 4],
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor, &Tensor, &Tensor, &Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, kwargs)?;
    let (plain, subclasses) = Subclasses::unwrap(&inputs)?;
    let inputs: Vec<&Bound<'_, PyAny>> = plain.iter().collect();
    let (tensors, library) = import_all(&inputs)?;
    let operands = inputs.iter().zip(&tensors).map(|(obj, t)| operand_of(obj, t)).collect::<Result<Vec<_>>>()?;
    let cast = ufunc.cast_to_loop(&tensors.iter().collect::<Vec<_>>(), &operands)?;
    let elements = crate::ops::numpy::broadcast_numel(&cast);
    let result = compute(py, elements, move || op(&cast[0], &cast[1], &cast[2], &cast[3]))?;
    subclasses.rewrap(py, wrap(py, &library, result, true)?)
}

/// The outputs of a multi-output ufunc as a tuple of the caller's arrays.
fn wrap_outputs(
    py: Python<'_>,
    library: &Library,
    subclasses: &Subclasses,
    results: Vec<Tensor>,
) -> PyResult<Py<PyAny>> {
    let items = results
        .into_iter()
        .map(|t| subclasses.rewrap(py, wrap(py, library, t, true)?))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}

/// A multi-output unary ufunc call (SciPy's `sici`, `airy`, ...): a tuple.
pub(super) fn unary_multi(
    py: Python<'_>,
    ufunc: &Ufunc,
    x: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor) -> Result<Vec<Tensor>>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, kwargs)?;
    let (plain, subclasses) = Subclasses::unwrap(&[x])?;
    let arg = classify(&plain[0])?;
    let tensor = import(&arg)?.tensor;
    let results = compute(py, crate::ffi::numel(&tensor), move || op(&tensor))?;
    wrap_outputs(py, &arg.library, &subclasses, results)
}

/// A multi-output binary ufunc call (SciPy's `ellipj`): a tuple.
pub(super) fn binary_multi(
    py: Python<'_>,
    ufunc: &Ufunc,
    x1: &Bound<'_, PyAny>,
    x2: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor, &Tensor) -> Result<Vec<Tensor>>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, kwargs)?;
    let (plain, subclasses) = Subclasses::unwrap(&[x1, x2])?;
    let (tensors, library) = binary_inputs(ufunc, &plain[0], &plain[1])?;
    let elements = crate::ops::numpy::broadcast_numel(&tensors);
    let results = compute(py, elements, move || op(&tensors[0], &tensors[1]))?;
    wrap_outputs(py, &library, &subclasses, results)
}

/// One multi-output ufunc binding: SciPy's signature shows `out` as a tuple
/// of `nout` Nones (`out=(None, None)`), so the text signature says so (the
/// argument itself takes None or such a tuple, the default).
macro_rules! multi_binding {
    (unary 2 $name:ident, [$($doc:tt)*]) => {
        multi_binding!(@unary $name, [$($doc)*], "(x, /, out=(None, None), *, device=None, **kwargs)");
    };
    (unary 4 $name:ident, [$($doc:tt)*]) => {
        multi_binding!(@unary $name, [$($doc)*], "(x, /, out=(None, None, None, None), *, device=None, **kwargs)");
    };
    (binary 4 $name:ident, [$($doc:tt)*]) => {
        multi_binding!(@binary $name, [$($doc)*], "(x1, x2, /, out=(None, None, None, None), *, device=None, **kwargs)");
    };
    (@unary $name:ident, [$($doc:tt)*], $sig:tt) => {
        #[doc = $($doc)*]
        #[pyfunction]
        #[pyo3(signature = (x, /, out = None, *, device = None, **kwargs), text_signature = $sig)]
        fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            out: Option<&Bound<'_, PyAny>>,
            device: Option<&Bound<'_, PyAny>>,
            kwargs: Option<&Bound<'_, PyDict>>,
        ) -> PyResult<Py<PyAny>> {
            on_device(device, || unary_multi(py, &table::$name, x, out, kwargs, sp::$name))
        }
    };
    (@binary $name:ident, [$($doc:tt)*], $sig:tt) => {
        #[doc = $($doc)*]
        #[pyfunction]
        #[pyo3(signature = (x1, x2, /, out = None, *, device = None, **kwargs), text_signature = $sig)]
        fn $name(
            py: Python<'_>,
            x1: &Bound<'_, PyAny>,
            x2: &Bound<'_, PyAny>,
            out: Option<&Bound<'_, PyAny>>,
            device: Option<&Bound<'_, PyAny>>,
            kwargs: Option<&Bound<'_, PyDict>>,
        ) -> PyResult<Py<PyAny>> {
            on_device(device, || binary_multi(py, &table::$name, x1, x2, out, kwargs, sp::$name))
        }
    };
}

/// Expands the table's `unary` and `binary` groups into pyfunctions (the
/// `*_internal` groups have no ufunc binding of their own).
macro_rules! ufunc_bindings {
    (
        unary { $($u:ident: [$($ut:literal),*] $uacc:ident $uhow:ident $ukernel:path, $udoc:literal;)* }
        binary { $($b:ident: [$($bt:literal),*] $bacc:ident $bhow:ident $bkernel:path, $bdoc:literal;)* }
        ternary { $($t:ident: [$($tt:literal),*] $tacc:ident $thow:ident $tkernel:path, $tdoc:literal;)* }
        quaternary { $($q:ident: [$($qt:literal),*] $qacc:ident $qhow:ident $qkernel:path, $qdoc:literal;)* }
        unary_multi { $($um:ident: $umn:tt [$($umt:literal),*] $umacc:ident $umkernel:path, $umdoc:literal;)* }
        binary_multi { $($bm:ident: $bmn:tt [$($bmt:literal),*] $bmacc:ident $bmkernel:path, $bmdoc:literal;)* }
        unary_internal { $($ui:ident: [$($uit:literal),*] $uiacc:ident $uihow:ident $uikernel:path, $uidoc:literal;)* }
        binary_internal { $($bi:ident: [$($bit:literal),*] $biacc:ident $bihow:ident $bikernel:path, $bidoc:literal;)* }
    ) => {
        $(
            #[doc = concat!($udoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $ut, "``",)* ".\n\n", ufunc_note!())]
            #[pyfunction]
            #[pyo3(signature = (x, /, out = None, *, device = None, **kwargs))]
            fn $u(
                py: Python<'_>,
                x: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Py<PyAny>> {
                on_device(device, || unary(py, &table::$u, x, out, kwargs, sp::$u))
            }
        )*
        $(
            #[doc = concat!($bdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $bt, "``",)* ".\n\n", ufunc_note!())]
            #[pyfunction]
            #[pyo3(signature = (x1, x2, /, out = None, *, device = None, **kwargs))]
            fn $b(
                py: Python<'_>,
                x1: &Bound<'_, PyAny>,
                x2: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Py<PyAny>> {
                on_device(device, || binary(py, &table::$b, x1, x2, out, kwargs, sp::$b))
            }
        )*
        $(
            #[doc = concat!($tdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $tt, "``",)* ".\n\n", ufunc_note!())]
            #[pyfunction]
            #[pyo3(signature = (x1, x2, x3, /, out = None, *, device = None, **kwargs))]
            fn $t(
                py: Python<'_>,
                x1: &Bound<'_, PyAny>,
                x2: &Bound<'_, PyAny>,
                x3: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Py<PyAny>> {
                on_device(device, || ternary(py, &table::$t, [x1, x2, x3], out, kwargs, sp::$t))
            }
        )*
        $(
            #[doc = concat!($qdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $qt, "``",)* ".\n\n", ufunc_note!())]
            #[pyfunction]
            #[pyo3(signature = (x1, x2, x3, x4, /, out = None, *, device = None, **kwargs))]
            #[allow(clippy::too_many_arguments)]
            fn $q(
                py: Python<'_>,
                x1: &Bound<'_, PyAny>,
                x2: &Bound<'_, PyAny>,
                x3: &Bound<'_, PyAny>,
                x4: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Py<PyAny>> {
                on_device(device, || quaternary(py, &table::$q, [x1, x2, x3, x4], out, kwargs, sp::$q))
            }
        )*
        $(
            multi_binding!(
                unary $umn $um,
                [concat!($umdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $umt, "``",)* ", a tuple of ", stringify!($umn), " arrays.\n\n", ufunc_note!())]
            );
        )*
        $(
            multi_binding!(
                binary $bmn $bm,
                [concat!($bmdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $bmt, "``",)* ", a tuple of ", stringify!($bmn), " arrays.\n\n", ufunc_note!())]
            );
        )*

        /// The names of the bound ufuncs, in the table's order.
        pub(super) const UFUNCS: &[&str] = &[
            $(stringify!($u),)* $(stringify!($b),)* $(stringify!($t),)* $(stringify!($q),)*
            $(stringify!($um),)* $(stringify!($bm),)*
        ];

        /// Adds every bound ufunc to `module`.
        pub(super) fn add(module: &Bound<'_, PyModule>) -> PyResult<()> {
            $(module.add_function(wrap_pyfunction!($u, module)?)?;)*
            $(module.add_function(wrap_pyfunction!($b, module)?)?;)*
            $(module.add_function(wrap_pyfunction!($t, module)?)?;)*
            $(module.add_function(wrap_pyfunction!($q, module)?)?;)*
            $(module.add_function(wrap_pyfunction!($um, module)?)?;)*
            $(module.add_function(wrap_pyfunction!($bm, module)?)?;)*
            Ok(())
        }
    };
}

crate::ops::special::special_ufuncs!(ufunc_bindings);
