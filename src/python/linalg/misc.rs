//! `scipy.linalg._misc`: `norm`, with SciPy's result types (a Python float
//! where SciPy's BLAS/LAPACK shortcuts return one, a numpy scalar otherwise).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyList, PyString, PyTuple};

use super::super::container::{compute, wrap};
use super::super::placement::on_device;
use super::{import1, Device};
use crate::ops::linalg::{self as ops, CheckFinite, NormOrder};
use crate::Error;

/// `ord` as given: `None`, a string (matrix norms only) or a number.
enum Order {
    Default,
    Name(String),
    P(f64),
}

impl Order {
    fn parse(ord: Option<&Bound<'_, PyAny>>) -> PyResult<Order> {
        Ok(match ord.filter(|o| !o.is_none()) {
            None => Order::Default,
            Some(ord) if ord.is_instance_of::<PyString>() => Order::Name(ord.extract()?),
            Some(ord) => Order::P(ord.extract()?),
        })
    }

    /// The norm for `naxes` axes, with NumPy's errors for names.
    fn resolve(&self, naxes: usize) -> crate::Result<NormOrder> {
        Ok(match self {
            Order::Default => NormOrder::Default,
            Order::P(p) => NormOrder::P(*p),
            Order::Name(name) if naxes == 1 => {
                return Err(Error::InvalidArgument(format!("Invalid norm order '{name}' for vectors")))
            }
            Order::Name(_) if naxes != 2 => {
                return Err(Error::InvalidArgument("Improper number of dimensions to norm.".into()))
            }
            Order::Name(name) => match name.as_str() {
                "fro" | "f" => NormOrder::Fro,
                "nuc" => NormOrder::Nuc,
                _ => return Err(Error::InvalidArgument("Invalid norm order for matrices.".into())),
            },
        })
    }
}

/// `axis`: `None`, an integer or a tuple of integers.
fn parse_axis(axis: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<i64>>> {
    let Some(axis) = axis.filter(|a| !a.is_none()) else {
        return Ok(None);
    };
    if let Ok(axes) = axis.cast::<PyTuple>() {
        // (each entry through `int()`, as torchbridge has always read them)
        let int = axis.py().get_type::<PyInt>();
        return Ok(Some(axes.iter().map(|a| int.call1((a,))?.extract::<i64>()).collect::<PyResult<_>>()?));
    }
    match axis.extract::<i64>() {
        Ok(axis) => Ok(Some(vec![axis])),
        Err(err) if err.is_instance_of::<PyTypeError>(axis.py()) => {
            Err(PyTypeError::new_err("'axis' must be None, an integer or a tuple of integers"))
        }
        Err(err) => Err(err),
    }
}

/// An array-like that is taken as numpy (`__array__` or `__array_interface__`
/// without `__dlpack__`: a pandas Series or DataFrame), as SciPy's `np.asarray` takes it.
fn numpy_array_like(a: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(!a.hasattr("__dlpack__")? && (a.hasattr("__array__")? || a.hasattr("__array_interface__")?))
}

/// Whether SciPy computes this norm (of the whole array, no `keepdims`) with
/// BLAS ``nrm2`` or LAPACK ``lange``, whose f2py wrappers return a Python
/// float, rather than NumPy: float32/64 and complex64/128 numpy arrays (or
/// lists and tuples), not empty; 1-D with `ord` `None` or 2; 2-D with `ord`
/// 1 or `inf` and Fortran-ordered `a` or `a.T`.
fn blas_norm(py: Python<'_>, a: &Bound<'_, PyAny>, ord: &Order) -> PyResult<bool> {
    let vector = matches!(ord, Order::Default) || matches!(ord, Order::P(p) if *p == 2.0);
    let matrix = matches!(ord, Order::P(p) if *p == 1.0 || *p == f64::INFINITY);
    if !vector && !matrix {
        return Ok(false);
    }
    let numpy = py.import("numpy")?;
    let x = if a.is_instance(&numpy.getattr("ndarray")?)? {
        a.clone()
    } else if a.is_instance_of::<PyList>() || a.is_instance_of::<PyTuple>() || numpy_array_like(a)? {
        numpy.call_method1("asarray", (a,))?
    } else {
        return Ok(false);
    };
    let size: usize = x.getattr("size")?.extract()?;
    let char: String = x.getattr("dtype")?.getattr("char")?.extract()?;
    if size == 0 || !matches!(char.as_str(), "f" | "d" | "F" | "D") {
        return Ok(false);
    }
    match x.getattr("ndim")?.extract::<usize>()? {
        1 => Ok(vector),
        2 if matrix => {
            // np.isfortran(x) or np.isfortran(x.T): exactly one of the two contiguity flags
            let flags = x.getattr("flags")?;
            let c: bool = flags.getattr("c_contiguous")?.extract()?;
            let f: bool = flags.getattr("f_contiguous")?.extract()?;
            Ok(c != f)
        }
        _ => Ok(false),
    }
}

/// Matrix or vector norm.
///
/// Matrix or vector norm (``scipy.linalg.norm``, NumPy's semantics).
///
/// Sums of squares are scaled by the largest entry, so the 2-norm and
/// Frobenius norm of very large (small) values do not overflow (underflow)
/// where NumPy's unscaled sum does.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, ord = None, axis = None, keepdims = false, check_finite = true, *, device = None))]
fn norm(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    ord: Option<&Bound<'_, PyAny>>,
    axis: Option<&Bound<'_, PyAny>>,
    keepdims: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let axis = parse_axis(axis)?;
    let order = Order::parse(ord)?;
    let whole = axis.is_none() && !keepdims;
    let check_finite = CheckFinite::from_flag(check_finite);
    on_device(device, || {
        let (x, library) = import1(a)?;
        let ord = order.resolve(axis.as_ref().map_or(x.dim(), Vec::len))?;
        let options = ops::NormOptions { ord, axis, keepdims, check_finite };
        let r = compute(py, x.numel(), move || ops::norm(&x, &options))?;
        if whole && blas_norm(py, a, &order)? {
            // SciPy's BLAS/LAPACK shortcuts return Python floats
            let value = r.f_to_kind(tch::Kind::Double).and_then(|r| r.f_double_value(&[])).map_err(Error::from)?;
            return Ok(PyFloat::new(py, value).into_any().unbind());
        }
        wrap(py, &library, r, true)
    })
}

/// Adds `norm` to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(norm, module)?)?;
    Ok(())
}
