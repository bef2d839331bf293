//! The ufunc bindings, generated from the ops' ufunc table
//! ([`crate::ops::special::ufuncs`]): one `#[pyfunction]` per ufunc with
//! SciPy's positional inputs, `out=None`, SciPy's keyword-only ufunc options
//! (taken at their defaults only, see [`Options`]), a keyword-only
//! `device=None`, and
//! [`UFUNCS`], the names `torchbridge.special.__all__` takes from the table.
//! The multi-output ufuncs (`sici`, `airy`, `ellipj`, ...) return a tuple,
//! one array of the caller's type per output, each wrapped as the
//! single-output ufuncs wrap their result.

use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyComplex, PyDict, PyFloat, PyInt, PyTuple};
use tch::Tensor;

use super::super::container::{
    classify, compute, import, import_all, imported, is_exact_array, wrap, Library, Subclasses,
};
use super::super::errors::Class;
use super::super::placement::on_device;
use crate::ffi::autograd::BelowAutograd;
use crate::ops::special::ufuncs::{table, Ufunc};
use crate::ops::special::{self as sp, Operand};
use crate::{dlpack, Error, Result};

/// Whether some thread has asked `torchbridge.special.errstate` for reports:
/// set by `_errstate.seterr` (through [`set_reporting`]) as it opens and
/// closes its gate, with the Python faces' flags.
static REPORTING: AtomicBool = AtomicBool::new(false);

/// Sets the flag [`face`] reads after each call (`_errstate` only).
#[pyfunction]
pub(super) fn set_reporting(on: bool) {
    REPORTING.store(on, Ordering::Relaxed);
}

/// The flag [`face`] reads after each call.
#[pyfunction]
pub(super) fn reporting() -> bool {
    REPORTING.load(Ordering::Relaxed)
}

/// The public face of a ufunc, done by the compiled function itself: it is
/// what `torchbridge.special` exports, with no Python wrapper around it (a
/// Python face forwarding `*args, **kwargs` cost 0.2 us, a sixth of a
/// one-element call; SciPy's ufuncs are compiled objects too). What the
/// faces of `torchbridge._dispatch` do, it does here, each only when needed:
///
/// - after the call, the errstate report (`_errstate.report`) while some
///   thread asks for reports ([`REPORTING`]), and pandas containers back
///   (`_pandas.like`) once pandas is imported and an input is not an
///   exact ndarray;
/// - an argument type the call refuses (`InputTypeError`) goes to the dask
///   route (`torchbridge.dask._route.route`) once `dask.array` is imported.
///
/// Those calls see the inputs as positional arguments, and `out`, `device`
/// and the other keywords as keywords.
fn face(
    py: Python<'_>,
    ufunc: &Ufunc,
    inputs: &[&Bound<'_, PyAny>],
    out: Option<&Bound<'_, PyAny>>,
    device: Option<&Bound<'_, PyAny>>,
    options: &Options<'_, '_>,
    call: impl FnOnce() -> PyResult<Py<PyAny>>,
) -> PyResult<Py<PyAny>> {
    let arguments = || -> PyResult<(Bound<'_, PyTuple>, Bound<'_, PyDict>)> {
        let keywords = PyDict::new(py);
        for (key, value) in options.given().chain([("out", out), ("device", device)]) {
            if let Some(value) = value.filter(|v| !v.is_none()) {
                keywords.set_item(key, value)?;
            }
        }
        Ok((PyTuple::new(py, inputs)?, keywords))
    };
    let result = match call() {
        Ok(result) => result,
        Err(refused) => {
            if !refused.is_instance(py, Class::InputType.type_object(py)?) || !imported(py, intern!(py, "dask.array"))?
            {
                return Err(refused);
            }
            let (args, keywords) = arguments()?;
            let public = py.import(intern!(py, "torchbridge.special"))?.getattr(ufunc.name)?;
            let route = py.import(intern!(py, "torchbridge.dask._route"))?.getattr(intern!(py, "route"))?;
            let lazy = route.call1((ufunc.qualified, public, args, keywords))?;
            return if lazy.is(py.NotImplemented()) { Err(refused) } else { Ok(lazy.unbind()) };
        }
    };
    let reporting = REPORTING.load(Ordering::Relaxed);
    let mut pandas = false;
    for x in inputs {
        if !is_exact_array(x)? {
            pandas = imported(py, intern!(py, "pandas"))?;
            break;
        }
    }
    if !reporting && !pandas {
        return Ok(result);
    }
    let (args, keywords) = arguments()?;
    if reporting {
        let report = py.import(intern!(py, "torchbridge.special._errstate"))?.getattr(intern!(py, "report"))?;
        report.call1((ufunc.name, &args, &keywords, &result))?;
    }
    if pandas {
        let like = py.import(intern!(py, "torchbridge._pandas"))?.getattr(intern!(py, "like"))?;
        return Ok(like.call1((result, args))?.unbind());
    }
    Ok(result)
}

/// SciPy's keyword-only ufunc options, `where=True, casting='same_kind',
/// order='K', dtype=None, subok=True, signature=None`, each as the caller
/// gave it (`None`: not given). torchbridge computes as those defaults say;
/// a value other than its default is refused by name
/// ([`reject_ufunc_options`]). Named parameters, not `**kwargs`, so that
/// the binding takes CPython's vectorcall (no argument tuple per call), and
/// an unknown keyword is a `TypeError`, as NumPy's ufuncs raise.
pub(super) struct Options<'a, 'py>(pub(super) [Option<&'a Bound<'py, PyAny>>; 6]);

impl<'a, 'py> Options<'a, 'py> {
    /// No option given (the callers that have none to pass on).
    pub(super) const NONE: Options<'static, 'static> = Options([None; 6]);

    const NAMES: [&'static str; 6] = ["where", "casting", "order", "dtype", "subok", "signature"];

    /// The options given, by name.
    fn given(&self) -> impl Iterator<Item = (&'static str, Option<&'a Bound<'py, PyAny>>)> + '_ {
        Self::NAMES.into_iter().zip(self.0).filter(|(_, value)| value.is_some())
    }

    /// The names of the options given at other values than their defaults.
    fn departures(&self) -> PyResult<Vec<&'static str>> {
        let mut names = Vec::new();
        for (name, value) in self.given() {
            let Some(value) = value else { continue };
            let default = match name {
                "where" | "subok" => value.is(pyo3::types::PyBool::new(value.py(), true)),
                "casting" => value.eq("same_kind")?,
                "order" => value.eq("K")?,
                _ => value.is_none(),
            };
            if !default {
                names.push(name);
            }
        }
        Ok(names)
    }
}

/// SciPy's ufuncs take `out` and ufunc options; say plainly which are not supported.
pub(super) fn reject_ufunc_options(
    ufunc: &Ufunc,
    out: Option<&Bound<'_, PyAny>>,
    options: &Options<'_, '_>,
) -> Result<()> {
    if out.is_none() && options.0.iter().all(Option::is_none) {
        return Ok(()); // the common call: nothing given
    }
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
    let departures = options.departures().map_err(|err| Error::InvalidArgument(err.to_string()))?;
    if !departures.is_empty() {
        return Err(Error::NotImplemented(format!(
            "{}: ufunc option(s) {} are supported at their defaults only \
             (where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None)",
            ufunc.qualified,
            departures.join(", ")
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

/// [`compute`] (without its team fit for the smallest calls, see
/// [`crate::threads::ELEMENTWISE_UNFITTED_BELOW`]), dispatching below
/// autograd (see [`BelowAutograd`]) where the
/// row's kernel is a float64 loop and the results go back to another library
/// than torch: their inputs record no gradient, and nothing of torch's
/// autograd state reaches the caller. A float64 loop runs several libtorch
/// ops, where skipping two dispatch layers an op saves 13-15% of a small
/// call (`stdtr`, `gammaincc` on one element); a direct kernel is mostly one
/// op, where entering the guard costs more than it saves.
fn compute_for<T: Send>(
    py: Python<'_>,
    ufunc: &Ufunc,
    library: &Library,
    elements: usize,
    work: impl FnOnce() -> Result<T> + Send,
) -> Result<T> {
    let _below = match library {
        Library::Torch { .. } => None,
        _ if ufunc.float64 => BelowAutograd::enter(),
        _ => None,
    };
    if elements < crate::threads::ELEMENTWISE_UNFITTED_BELOW {
        return crate::error::no_panic(work); // (what `compute` does there, less the team fit)
    }
    compute(py, elements, work)
}

/// A unary ufunc call: import, compute (the GIL released when large), wrap.
pub(super) fn unary(
    py: Python<'_>,
    ufunc: &Ufunc,
    x: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    options: &Options<'_, '_>,
    op: fn(&Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, options)?;
    let (plain, subclasses) = Subclasses::unwrap([x])?;
    let arg = classify(&plain[0])?;
    let tensor = import(&arg)?.tensor;
    let result = compute_for(py, ufunc, &arg.library, crate::ffi::numel(&tensor), move || op(&tensor))?;
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
    options: &Options<'_, '_>,
    op: fn(&Tensor, &Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, options)?;
    let (plain, subclasses) = Subclasses::unwrap([x1, x2])?;
    let (tensors, library) = binary_inputs(ufunc, &plain[0], &plain[1])?;
    let elements = crate::ops::numpy::broadcast_numel(&tensors);
    let result = compute_for(py, ufunc, &library, elements, move || op(&tensors[0], &tensors[1]))?;
    subclasses.rewrap(py, wrap(py, &library, result, true)?)
}

/// A ternary ufunc call (as [`binary`], three inputs).
pub(super) fn ternary(
    py: Python<'_>,
    ufunc: &Ufunc,
    inputs: [&Bound<'_, PyAny>; 3],
    out: Option<&Bound<'_, PyAny>>,
    options: &Options<'_, '_>,
    op: fn(&Tensor, &Tensor, &Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, options)?;
    let (plain, subclasses) = Subclasses::unwrap(inputs)?;
    let inputs: Vec<&Bound<'_, PyAny>> = plain.iter().collect();
    let (tensors, library) = import_all(&inputs)?;
    let operands = inputs.iter().zip(&tensors).map(|(obj, t)| operand_of(obj, t)).collect::<Result<Vec<_>>>()?;
    let cast = ufunc.cast_to_loop(&tensors.iter().collect::<Vec<_>>(), &operands)?;
    let elements = crate::ops::numpy::broadcast_numel(&cast);
    let result = compute_for(py, ufunc, &library, elements, move || op(&cast[0], &cast[1], &cast[2]))?;
    subclasses.rewrap(py, wrap(py, &library, result, true)?)
}

/// A four-input ufunc call (as [`ternary`]).
pub(super) fn quaternary(
    py: Python<'_>,
    ufunc: &Ufunc,
    inputs: [&Bound<'_, PyAny>; 4],
    out: Option<&Bound<'_, PyAny>>,
    options: &Options<'_, '_>,
    op: fn(&Tensor, &Tensor, &Tensor, &Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, options)?;
    let (plain, subclasses) = Subclasses::unwrap(inputs)?;
    let inputs: Vec<&Bound<'_, PyAny>> = plain.iter().collect();
    let (tensors, library) = import_all(&inputs)?;
    let operands = inputs.iter().zip(&tensors).map(|(obj, t)| operand_of(obj, t)).collect::<Result<Vec<_>>>()?;
    let cast = ufunc.cast_to_loop(&tensors.iter().collect::<Vec<_>>(), &operands)?;
    let elements = crate::ops::numpy::broadcast_numel(&cast);
    let result = compute_for(py, ufunc, &library, elements, move || op(&cast[0], &cast[1], &cast[2], &cast[3]))?;
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
    options: &Options<'_, '_>,
    op: fn(&Tensor) -> Result<Vec<Tensor>>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, options)?;
    let (plain, subclasses) = Subclasses::unwrap([x])?;
    let arg = classify(&plain[0])?;
    let tensor = import(&arg)?.tensor;
    let results = compute_for(py, ufunc, &arg.library, crate::ffi::numel(&tensor), move || op(&tensor))?;
    wrap_outputs(py, &arg.library, &subclasses, results)
}

/// A multi-output binary ufunc call (SciPy's `ellipj`): a tuple.
pub(super) fn binary_multi(
    py: Python<'_>,
    ufunc: &Ufunc,
    x1: &Bound<'_, PyAny>,
    x2: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    options: &Options<'_, '_>,
    op: fn(&Tensor, &Tensor) -> Result<Vec<Tensor>>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(ufunc, out, options)?;
    let (plain, subclasses) = Subclasses::unwrap([x1, x2])?;
    let (tensors, library) = binary_inputs(ufunc, &plain[0], &plain[1])?;
    let elements = crate::ops::numpy::broadcast_numel(&tensors);
    let results = compute_for(py, ufunc, &library, elements, move || op(&tensors[0], &tensors[1]))?;
    wrap_outputs(py, &library, &subclasses, results)
}

/// One multi-output ufunc binding: SciPy's signature shows `out` as a tuple
/// of `nout` Nones (`out=(None, None)`), so the text signature says so (the
/// argument itself takes None or such a tuple, the default).
macro_rules! multi_binding {
    (unary 2 $name:ident, [$($doc:tt)*]) => {
        multi_binding!(@unary $name, [$($doc)*], "(x, /, out=(None, None), *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None, device=None)");
    };
    (unary 4 $name:ident, [$($doc:tt)*]) => {
        multi_binding!(@unary $name, [$($doc)*], "(x, /, out=(None, None, None, None), *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None, device=None)");
    };
    (binary 4 $name:ident, [$($doc:tt)*]) => {
        multi_binding!(@binary $name, [$($doc)*], "(x1, x2, /, out=(None, None, None, None), *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None, device=None)");
    };
    (@unary $name:ident, [$($doc:tt)*], $sig:tt) => {
        #[doc = $($doc)*]
        #[pyfunction]
        #[allow(clippy::too_many_arguments)] // SciPy's ufunc options, one parameter each
        #[pyo3(signature = (x, /, out = None, *, r#where = None, casting = None, order = None, dtype = None, subok = None, signature = None, device = None), text_signature = $sig)]
        fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            out: Option<&Bound<'_, PyAny>>,
            r#where: Option<&Bound<'_, PyAny>>,
            casting: Option<&Bound<'_, PyAny>>,
            order: Option<&Bound<'_, PyAny>>,
            dtype: Option<&Bound<'_, PyAny>>,
            subok: Option<&Bound<'_, PyAny>>,
            signature: Option<&Bound<'_, PyAny>>,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            let options = Options([r#where, casting, order, dtype, subok, signature]);
            face(py, &table::$name, &[x], out, device, &options, || {
                on_device(device, || unary_multi(py, &table::$name, x, out, &options, sp::$name))
            })
        }
    };
    (@binary $name:ident, [$($doc:tt)*], $sig:tt) => {
        #[doc = $($doc)*]
        #[pyfunction]
        #[allow(clippy::too_many_arguments)] // SciPy's ufunc options, one parameter each
        #[pyo3(signature = (x1, x2, /, out = None, *, r#where = None, casting = None, order = None, dtype = None, subok = None, signature = None, device = None), text_signature = $sig)]
        fn $name(
            py: Python<'_>,
            x1: &Bound<'_, PyAny>,
            x2: &Bound<'_, PyAny>,
            out: Option<&Bound<'_, PyAny>>,
            r#where: Option<&Bound<'_, PyAny>>,
            casting: Option<&Bound<'_, PyAny>>,
            order: Option<&Bound<'_, PyAny>>,
            dtype: Option<&Bound<'_, PyAny>>,
            subok: Option<&Bound<'_, PyAny>>,
            signature: Option<&Bound<'_, PyAny>>,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            let options = Options([r#where, casting, order, dtype, subok, signature]);
            face(py, &table::$name, &[x1, x2], out, device, &options, || {
                on_device(device, || binary_multi(py, &table::$name, x1, x2, out, &options, sp::$name))
            })
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
            #[allow(clippy::too_many_arguments)] // SciPy's ufunc options, one parameter each
            #[pyo3(
                signature = (x, /, out = None, *, r#where = None, casting = None, order = None, dtype = None, subok = None, signature = None, device = None),
                text_signature = "(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None, device=None)"
            )]
            fn $u(
                py: Python<'_>,
                x: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                r#where: Option<&Bound<'_, PyAny>>,
                casting: Option<&Bound<'_, PyAny>>,
                order: Option<&Bound<'_, PyAny>>,
                dtype: Option<&Bound<'_, PyAny>>,
                subok: Option<&Bound<'_, PyAny>>,
                signature: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Py<PyAny>> {
                let options = Options([r#where, casting, order, dtype, subok, signature]);
                face(py, &table::$u, &[x], out, device, &options, || {
                    on_device(device, || unary(py, &table::$u, x, out, &options, sp::$u))
                })
            }
        )*
        $(
            #[doc = concat!($bdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $bt, "``",)* ".\n\n", ufunc_note!())]
            #[pyfunction]
            #[allow(clippy::too_many_arguments)] // SciPy's ufunc options, one parameter each
            #[pyo3(
                signature = (x1, x2, /, out = None, *, r#where = None, casting = None, order = None, dtype = None, subok = None, signature = None, device = None),
                text_signature = "(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None, device=None)"
            )]
            fn $b(
                py: Python<'_>,
                x1: &Bound<'_, PyAny>,
                x2: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                r#where: Option<&Bound<'_, PyAny>>,
                casting: Option<&Bound<'_, PyAny>>,
                order: Option<&Bound<'_, PyAny>>,
                dtype: Option<&Bound<'_, PyAny>>,
                subok: Option<&Bound<'_, PyAny>>,
                signature: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Py<PyAny>> {
                let options = Options([r#where, casting, order, dtype, subok, signature]);
                face(py, &table::$b, &[x1, x2], out, device, &options, || {
                    on_device(device, || binary(py, &table::$b, x1, x2, out, &options, sp::$b))
                })
            }
        )*
        $(
            #[doc = concat!($tdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $tt, "``",)* ".\n\n", ufunc_note!())]
            #[pyfunction]
            #[allow(clippy::too_many_arguments)] // SciPy's ufunc options, one parameter each
            #[pyo3(
                signature = (x1, x2, x3, /, out = None, *, r#where = None, casting = None, order = None, dtype = None, subok = None, signature = None, device = None),
                text_signature = "(x1, x2, x3, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None, device=None)"
            )]
            fn $t(
                py: Python<'_>,
                x1: &Bound<'_, PyAny>,
                x2: &Bound<'_, PyAny>,
                x3: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                r#where: Option<&Bound<'_, PyAny>>,
                casting: Option<&Bound<'_, PyAny>>,
                order: Option<&Bound<'_, PyAny>>,
                dtype: Option<&Bound<'_, PyAny>>,
                subok: Option<&Bound<'_, PyAny>>,
                signature: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Py<PyAny>> {
                let options = Options([r#where, casting, order, dtype, subok, signature]);
                face(py, &table::$t, &[x1, x2, x3], out, device, &options, || {
                    on_device(device, || ternary(py, &table::$t, [x1, x2, x3], out, &options, sp::$t))
                })
            }
        )*
        $(
            #[doc = concat!($qdoc, "\n\nSciPy's loops (its ``types``):", $(" ``", $qt, "``",)* ".\n\n", ufunc_note!())]
            #[pyfunction]
            #[allow(clippy::too_many_arguments)] // SciPy's ufunc options, one parameter each
            #[pyo3(
                signature = (x1, x2, x3, x4, /, out = None, *, r#where = None, casting = None, order = None, dtype = None, subok = None, signature = None, device = None),
                text_signature = "(x1, x2, x3, x4, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True, signature=None, device=None)"
            )]
            fn $q(
                py: Python<'_>,
                x1: &Bound<'_, PyAny>,
                x2: &Bound<'_, PyAny>,
                x3: &Bound<'_, PyAny>,
                x4: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                r#where: Option<&Bound<'_, PyAny>>,
                casting: Option<&Bound<'_, PyAny>>,
                order: Option<&Bound<'_, PyAny>>,
                dtype: Option<&Bound<'_, PyAny>>,
                subok: Option<&Bound<'_, PyAny>>,
                signature: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Py<PyAny>> {
                let options = Options([r#where, casting, order, dtype, subok, signature]);
                face(py, &table::$q, &[x1, x2, x3, x4], out, device, &options, || {
                    on_device(device, || quaternary(py, &table::$q, [x1, x2, x3, x4], out, &options, sp::$q))
                })
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
