//! `torchbridge._core.special`: `scipy.special` routines on any array.
//!
//! Ufuncs take SciPy's positional arguments and `out=None`; the other ufunc
//! keywords (`where`, `dtype`, `casting`, ...) are refused by name. SciPy's
//! Python-level functions (`logsumexp`, `softmax`, `zeta`, `polygamma`, ...)
//! keep SciPy's exact signatures. Every function takes a keyword-only
//! `device=None`. Python `int`/`float` literals take part in the loop
//! selection as NumPy's weak scalars. The ufunc bindings come from the ops'
//! ufunc table ([`ufuncs`]); `UFUNCS` (and `__all__`) lists their names.

/// What every ufunc binding's docstring says after its loops: how torchbridge differs from SciPy.
macro_rules! ufunc_note {
    () => {
        "torchbridge: computed by libtorch, the result in the caller's array type;\n\
         for numpy input a numpy scalar or ndarray of the dtype SciPy's loop gives\n\
         (NumPy's weak Python scalars included). Input no loop takes raises\n\
         ``DtypeError`` (a ``TypeError``, as in SciPy); complex input to SciPy's\n\
         complex loops (``D->D``), ``out=`` arrays and the ufunc options\n\
         (``where``, ``casting``, ``order``, ``dtype``, ``subok``, ``signature``) other\n\
         than their defaults raise ``UnsupportedParameterError`` (a\n\
         ``NotImplementedError``) naming them.\n\
         \n\
         ``device=None`` (keyword-only): ``\"cpu\"``, ``\"cuda\"`` (the inputs' CUDA\n\
         device, else ``cuda:0``), ``\"cuda:N\"`` or a ``torch.device`` computes there,\n\
         copying the inputs there and the results back to the caller's device; by\n\
         default (``None``) the computation runs where the arrays live, CUDA\n\
         included; a device libtorch cannot reach raises ``DeviceError``."
    };
}

/// What the docstrings of `special`'s Python-level functions end with.
macro_rules! special_note {
    () => {
        "torchbridge: computed by libtorch, the result in the caller's array type\n\
         (for numpy input SciPy's type, dtype and shape); a parameter value\n\
         torchbridge does not implement raises ``UnsupportedParameterError`` (a\n\
         ``NotImplementedError``) naming it.\n\
         \n\
         ``device=None`` (keyword-only): ``\"cpu\"``, ``\"cuda\"`` (the inputs' CUDA\n\
         device, else ``cuda:0``), ``\"cuda:N\"`` or a ``torch.device`` computes there,\n\
         copying the inputs there and the results back to the caller's device; by\n\
         default (``None``) the computation runs where the arrays live, CUDA\n\
         included; a device libtorch cannot reach raises ``DeviceError``."
    };
}

mod basic;
mod legendre;
mod logsumexp;
mod sph_bessel;
mod ufuncs;

use pyo3::prelude::*;

use crate::ops::special as sp;

/// SciPy's loop strings for one of this module's ufuncs (for tests and docs).
#[pyfunction]
fn _ufunc_types(name: &str) -> Option<Vec<&'static str>> {
    sp::ufunc_types(name).map(|t| t.to_vec())
}

/// Adds the `special` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "special")?;
    ufuncs::add(&module)?;
    basic::add(&module)?;
    logsumexp::add(&module)?;
    sph_bessel::add(&module)?;
    legendre::add(&module)?;
    module.add_function(wrap_pyfunction!(_ufunc_types, &module)?)?;
    module.add_function(wrap_pyfunction!(ufuncs::set_reporting, &module)?)?;
    module.add_function(wrap_pyfunction!(ufuncs::reporting, &module)?)?;
    // `from torchbridge._core.special import *` takes exactly the ufuncs
    module.add("UFUNCS", pyo3::types::PyTuple::new(parent.py(), ufuncs::UFUNCS)?)?;
    module.add("__all__", ufuncs::UFUNCS.to_vec())?;
    super::attach(parent, &module)
}
