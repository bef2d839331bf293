//! SciPy's Python-level spherical Bessel functions (`_spherical_bessel.py`):
//! `spherical_jn`, `spherical_yn`, `spherical_in`, `spherical_kn`, each
//! `(n, z, derivative=False)`, over the table's internal loops
//! (`table::spherical_jn` ... `table::spherical_kn_d`, SciPy's
//! `_spherical_jn` ... `_spherical_kn_d`).

use pyo3::prelude::*;
use tch::{Kind, Tensor};

use super::super::container::{compute, import_all, wrap};
use super::super::placement::on_device;
use super::ufuncs::operand_of;
use crate::ops::special::ufuncs::{table, Ufunc};
use crate::ops::special::{self as sp, Operand};
use crate::{dlpack, DType, Error, Result};

/// One call: `n` as SciPy's `np.asarray(n, dtype=long)` (real orders
/// truncated), then the loop of `ufunc` for `(int64, z)`. `widen`: the
/// float32 loop's result as float64, as SciPy's `spherical_jn`, `_yn` and
/// `_in` give it (their reflection for negative z multiplies by an int64 sign
/// array; `spherical_kn`'s does not).
fn call(
    py: Python<'_>,
    ufunc: &'static Ufunc,
    n: &Bound<'_, PyAny>,
    z: &Bound<'_, PyAny>,
    op: fn(&Tensor, &Tensor) -> Result<Tensor>,
    widen: bool,
) -> PyResult<Py<PyAny>> {
    let (tensors, library) = import_all(&[n, z])?;
    let n_dtype = dlpack::dtype_of(&tensors[0])?;
    if n_dtype.is_complex() {
        return Err(
            Error::DtypeNotAccepted { routine: ufunc.qualified, dtype: n_dtype, accepted: ufunc.accepts }.into()
        );
    }
    let order = tensors[0].f_to_kind(Kind::Int64).map_err(Error::from)?;
    let operands = [Operand::Array(DType::Int64), operand_of(z, &tensors[1])?];
    let cast = ufunc.cast_to_loop(&[&order, &tensors[1]], &operands)?;
    let elements = cast.iter().map(|t| t.numel()).max().unwrap_or(0);
    let result = compute(py, elements, move || {
        let result = op(&cast[0], &cast[1])?;
        if widen && result.kind() == Kind::Float {
            return Ok(result.f_to_kind(Kind::Double)?);
        }
        Ok(result)
    })?;
    wrap(py, &library, result, true)
}

macro_rules! spherical {
    ($name:ident, $plain:ident, $derivative:ident, $widen:literal, $dtype_note:literal, $summary:literal, $what:literal) => {
        #[doc = concat!($summary, "\n\n", $what, " of integer order n and real or complex z (`scipy.special.", stringify!($name),
                            "`), or its derivative in z with ``derivative=True``; n < 0 gives nan, as SciPy.\n",
                            "n is taken as SciPy takes it (``np.asarray(n, dtype=long)``: real orders truncated);\n",
                            "the result's dtype is SciPy's (float32 z: ", $dtype_note, ").\n",
                            "A C++ kernel, CPU only (input on another device goes to the CPU and back);\n",
                            "complex z: sqrt(pi / (2z)) times torchbridge's complex-argument Bessel function of\n",
                            "order n + 1/2, with SciPy's special values.\n\n")]
        #[doc = special_note!()]
        #[pyfunction]
        #[pyo3(signature = (n, z, derivative = false, *, device = None))]
        fn $name(
            py: Python<'_>,
            n: &Bound<'_, PyAny>,
            z: &Bound<'_, PyAny>,
            derivative: bool,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            on_device(device, || {
                if derivative {
                    call(py, &table::$derivative, n, z, sp::$derivative, $widen)
                } else {
                    call(py, &table::$plain, n, z, sp::$plain, $widen)
                }
            })
        }
    };
}

spherical!(
    spherical_jn,
    spherical_jn,
    spherical_jn_d,
    true,
    "computed in float32, returned as float64",
    "Spherical Bessel function of the first kind or its derivative.",
    "The spherical Bessel function of the first kind j_n(z)"
);
spherical!(
    spherical_yn,
    spherical_yn,
    spherical_yn_d,
    true,
    "computed in float32, returned as float64",
    "Spherical Bessel function of the second kind or its derivative.",
    "The spherical Bessel function of the second kind y_n(z)"
);
spherical!(
    spherical_in,
    spherical_in,
    spherical_in_d,
    true,
    "computed in float32, returned as float64",
    "Modified spherical Bessel function of the first kind or its derivative.",
    "The modified spherical Bessel function of the first kind i_n(z)"
);
spherical!(
    spherical_kn,
    spherical_kn,
    spherical_kn_d,
    false,
    "float32",
    "Modified spherical Bessel function of the second kind or its derivative.",
    "The modified spherical Bessel function of the second kind k_n(z)"
);

/// Adds the spherical Bessel functions to `module`.
pub(super) fn add(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(spherical_jn, module)?)?;
    module.add_function(wrap_pyfunction!(spherical_yn, module)?)?;
    module.add_function(wrap_pyfunction!(spherical_in, module)?)?;
    module.add_function(wrap_pyfunction!(spherical_kn, module)?)?;
    Ok(())
}
