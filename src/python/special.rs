//! `torchbridge.special`: `scipy.special` routines on any array.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use tch::Tensor;

use super::container::{classify, compute, import, wrap};
use super::errors::Class;
use crate::{ops, Result};

/// SciPy's ufuncs take `out` and ufunc keywords; say plainly which are not supported.
fn reject_ufunc_options(
    routine: &str,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<()> {
    if out.is_some_and(|out| !out.is_none()) {
        return Err(Class::UnsupportedParameter
            .err(format!("special.{routine}: out= is not supported; use the returned array")));
    }
    if let Some(kwargs) = kwargs.filter(|k| !k.is_empty()) {
        let names: Vec<String> = kwargs.keys().iter().map(|k| k.to_string()).collect();
        return Err(Class::UnsupportedParameter.err(format!(
            "special.{routine}: ufunc keyword(s) {} are not supported",
            names.join(", ")
        )));
    }
    Ok(())
}

fn unary(
    py: Python<'_>,
    routine: &str,
    x: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(routine, out, kwargs)?;
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    let result = compute(py, tensor.numel(), move || op(&tensor))?;
    wrap(py, &arg.library, result, true)
}

macro_rules! unary_routines {
    ($($name:ident: $doc:literal),* $(,)?) => {
        $(
            #[doc = $doc]
            #[pyfunction]
            #[pyo3(signature = (x, /, out = None, **kwargs))]
            fn $name(
                py: Python<'_>,
                x: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Py<PyAny>> {
                unary(py, stringify!($name), x, out, kwargs, ops::special::$name)
            }
        )*

        /// Adds the `special` submodule to `_core`.
        pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
            let module = PyModule::new(parent.py(), "special")?;
            $(module.add_function(wrap_pyfunction!($name, &module)?)?;)*
            parent.add_submodule(&module)
        }
    };
}

unary_routines!(
    erf: "The error function, computed by libtorch (`scipy.special.erf`).",
    erfc: "The complementary error function `1 - erf(x)` (`scipy.special.erfc`).",
    expit: "The logistic sigmoid `1 / (1 + exp(-x))` (`scipy.special.expit`).",
    logit: "The logit `log(p / (1 - p))` (`scipy.special.logit`).",
    gammaln: "The logarithm of the absolute value of the gamma function (`scipy.special.gammaln`).",
);
