//! `torchbridge._core.special`: `scipy.special` routines on any array.
//!
//! Ufuncs take SciPy's positional arguments and `out=None`; the other ufunc
//! keywords (`where`, `dtype`, `casting`, ...) are refused by name. SciPy's
//! Python-level functions (`logsumexp`, `softmax`, `zeta`, `polygamma`, ...)
//! keep SciPy's exact signatures. Every function takes a keyword-only
//! `device=None`. Python `int`/`float` literals take part in the loop
//! selection as NumPy's weak scalars. The ufunc bindings come from the ops'
//! ufunc table ([`ufuncs`]); `UFUNCS` (and `__all__`) lists their names.

mod basic;
mod logsumexp;
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
    module.add_function(wrap_pyfunction!(_ufunc_types, &module)?)?;
    // `from torchbridge._core.special import *` takes exactly the ufuncs
    module.add("UFUNCS", pyo3::types::PyTuple::new(parent.py(), ufuncs::UFUNCS)?)?;
    module.add("__all__", ufuncs::UFUNCS.to_vec())?;
    super::attach(parent, &module)
}
