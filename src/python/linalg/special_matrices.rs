//! `scipy.linalg._special_matrices`: the constructors, one `#[pyfunction]`
//! each with SciPy's signature. The order-`n` ones take no arrays and
//! return numpy arrays, as SciPy does.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::super::container::{compute, import_all, wrap, Library};
use super::super::placement::on_device;
use super::{batched, import_optional, map1, map2, warn, Device};
use crate::ops::linalg::{
    self as ops, ConvolutionMode, DftScale, HelmertOptions, InvHilbertOptions, PascalKind, PascalOptions,
};
use crate::Error;

/// Construct a Toeplitz matrix.
///
/// Toeplitz matrix with first column ``c`` and first row ``r``
/// (``scipy.linalg.toeplitz``; ``r`` default ``conj(c)``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (c, r = None, *, device = None))]
fn toeplitz(
    py: Python<'_>,
    c: &Bound<'_, PyAny>,
    r: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (c, r, library) = import_optional(c, r)?;
        batched("toeplitz", &[(Some(&c), 1), (r.as_ref(), 1)])?;
        let t = compute(py, c.numel(), move || ops::toeplitz(&c, r.as_ref()))?;
        wrap(py, &library, t, false)
    })
}

/// Construct a circulant matrix.
///
/// Circulant matrix with first column ``c`` (``scipy.linalg.circulant``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (c, *, device = None))]
fn circulant(py: Python<'_>, c: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map1(py, device, c, None, ops::circulant)
}

/// Construct a Hankel matrix.
///
/// Hankel matrix with first column ``c`` and last row ``r``
/// (``scipy.linalg.hankel``; multi-dimensional input is flattened with
/// SciPy 1.17's FutureWarning).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (c, r = None, *, device = None))]
fn hankel(
    py: Python<'_>,
    c: &Bound<'_, PyAny>,
    r: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (c, r, library) = import_optional(c, r)?;
        if c.dim() > 1 || r.as_ref().is_some_and(|r| r.dim() > 1) {
            warn(
                py,
                &py.get_type::<pyo3::exceptions::PyFutureWarning>(),
                "Beginning in SciPy 1.19, multidimensional input will be treated as a batch, not `ravel`ed. To \
                 preserve the existing behavior and silence this warning, `ravel` arguments before passing them to \
                 `hankel`.",
            )?;
        }
        let h = compute(py, c.numel(), move || ops::hankel(&c, r.as_ref()))?;
        wrap(py, &library, h, false)
    })
}

/// Create a block diagonal array from provided arrays.
///
/// Block diagonal matrix of the arrays (``scipy.linalg.block_diag``);
/// leading dimensions broadcast as batches.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (*arrs, device = None))]
fn block_diag(py: Python<'_>, arrs: &Bound<'_, PyTuple>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        if arrs.is_empty() {
            // SciPy's `np.zeros((1, 0))`.
            let empty = tch::Tensor::f_zeros([1i64, 0].as_slice(), (tch::Kind::Double, tch::Device::Cpu))
                .map_err(Error::from)?;
            return wrap(py, &Library::NumPy, empty, false);
        }
        let items: Vec<Bound<'_, PyAny>> = arrs.iter().collect();
        let refs: Vec<&Bound<'_, PyAny>> = items.iter().collect();
        let (tensors, library) = import_all(&refs)?;
        let elements = tensors.iter().map(|t| t.numel()).sum();
        let m = compute(py, elements, move || ops::block_diag(&tensors))?;
        wrap(py, &library, m, false)
    })
}

/// Khatri-Rao product of two matrices.
///
/// Column-wise Kronecker product (``scipy.linalg.khatri_rao``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, *, device = None))]
fn khatri_rao(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    map2(py, device, (a, b), Some(("khatri_rao", 2, 2)), ops::khatri_rao)
}

/// Create a companion matrix.
///
/// Companion matrix of polynomial coefficients ``a`` (``scipy.linalg.companion``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, *, device = None))]
fn companion(py: Python<'_>, a: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map1(py, device, a, None, ops::companion)
}

/// Returns a Fiedler companion matrix
///
/// Fiedler companion matrix of polynomial coefficients ``a``
/// (``scipy.linalg.fiedler_companion``): a pentadiagonal matrix with the
/// companion matrix's eigenvalues; leading dimensions are a batch.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, *, device = None))]
fn fiedler_companion(py: Python<'_>, a: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map1(py, device, a, None, ops::fiedler_companion)
}

/// Returns a symmetric Fiedler matrix
///
/// Fiedler matrix ``|a_i - a_j|`` (``scipy.linalg.fiedler``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, *, device = None))]
fn fiedler(py: Python<'_>, a: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map1(py, device, a, None, ops::fiedler)
}

/// Create a Leslie matrix.
///
/// Leslie matrix (``scipy.linalg.leslie``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (f, s, *, device = None))]
fn leslie(py: Python<'_>, f: &Bound<'_, PyAny>, s: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    map2(py, device, (f, s), Some(("leslie", 1, 1)), ops::leslie)
}

/// Construct a convolution matrix.
///
/// Matrix of the convolution with ``a`` (``scipy.linalg.convolution_matrix``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, n, mode = "full", *, device = None))]
fn convolution_matrix(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    n: i64,
    mode: &str,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if n <= 0 {
        return Err(Error::InvalidArgument("n must be a positive integer.".into()).into());
    }
    let mode = match mode {
        "full" => ConvolutionMode::Full,
        "valid" => ConvolutionMode::Valid,
        "same" => ConvolutionMode::Same,
        _ => {
            return Err(Error::InvalidArgument("'mode' argument must be one of ('full', 'valid', 'same')".into()).into())
        }
    };
    map1(py, device, a, None, move |a| ops::convolution_matrix(a, n, mode))
}

/// A numpy array built without input arrays (the order-`n` constructors).
fn order_matrix(
    py: Python<'_>,
    device: Device<'_, '_>,
    build: impl FnOnce() -> crate::Result<tch::Tensor>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || wrap(py, &Library::NumPy, build()?, false))
}

/// Create a Hilbert matrix of order `n`.
///
/// Hilbert matrix of order ``n``, float64 (``scipy.linalg.hilbert``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (n, *, device = None))]
fn hilbert(py: Python<'_>, n: i64, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    order_matrix(py, device, || ops::hilbert(n))
}

/// Compute the inverse of the Hilbert matrix of order `n`.
///
/// Inverse Hilbert matrix (``scipy.linalg.invhilbert``): float64, or int64
/// with ``exact`` (``n > 14``, where SciPy returns Python ints, is not
/// implemented). The float64 entries are the exact integers, rounded once.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (n, exact = false, *, device = None))]
fn invhilbert(py: Python<'_>, n: i64, exact: bool, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    order_matrix(py, device, || ops::invhilbert(n, &InvHilbertOptions { exact }))
}

/// Create an Helmert matrix of order `n`.
///
/// Helmert matrix of order ``n`` (``scipy.linalg.helmert``).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (n, full = false, *, device = None))]
fn helmert(py: Python<'_>, n: i64, full: bool, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    order_matrix(py, device, || ops::helmert(n, &HelmertOptions { full }))
}

/// Discrete Fourier transform matrix.
///
/// DFT matrix of order ``n`` (``scipy.linalg.dft``); angles are reduced
/// exactly, so entries are accurate to 1 ulp for any ``n``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (n, scale = None, *, device = None))]
fn dft(py: Python<'_>, n: i64, scale: Option<&Bound<'_, PyAny>>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    let scale = match scale.filter(|s| !s.is_none()) {
        None => DftScale::None,
        Some(s) => match s.extract::<String>() {
            Ok(name) => DftScale::from_scipy(Some(&name))?,
            Err(_) => {
                let shown = s.repr()?;
                return Err(Error::InvalidArgument(format!(
                    "scale must be None, 'sqrtn', or 'n'; {shown} is not valid."
                ))
                .into());
            }
        },
    };
    order_matrix(py, device, || ops::dft(n, scale))
}

/// Construct an Hadamard matrix.
///
/// Sylvester-construction Hadamard matrix (``scipy.linalg.hadamard``);
/// ``dtype=None`` is SciPy's default ``int`` (which a compiled function's
/// signature cannot show: the Python face ``hadamard`` has it).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (n, dtype = None, *, device = None))]
fn hadamard(py: Python<'_>, n: i64, dtype: Option<&Bound<'_, PyAny>>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    let h = order_matrix(py, device, || ops::hadamard(n))?;
    let builtin_int = py.get_type::<pyo3::types::PyInt>().into_any();
    let dtype = dtype.cloned().unwrap_or(builtin_int);
    let kwargs = PyDict::new(py);
    kwargs.set_item("copy", false)?;
    Ok(h.bind(py).call_method("astype", (dtype,), Some(&kwargs))?.unbind())
}

/// SciPy's `kind` of the Pascal matrices, with `message` for other values.
fn pascal_kind(kind: Option<&Bound<'_, PyAny>>, message: &str) -> PyResult<PascalKind> {
    let Some(kind) = kind else {
        return Ok(PascalKind::Symmetric);
    };
    match kind.extract::<String>().as_deref() {
        Ok("symmetric") => Ok(PascalKind::Symmetric),
        Ok("lower") => Ok(PascalKind::Lower),
        Ok("upper") => Ok(PascalKind::Upper),
        _ => Err(Error::InvalidArgument(message.into()).into()),
    }
}

/// Returns the n x n Pascal matrix.
///
/// Pascal matrix (``scipy.linalg.pascal``): uint64 with ``exact`` (``n >= 35``,
/// where SciPy returns Python ints, is not implemented), float64 otherwise.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (n, kind = None, exact = true, *, device = None),
    text_signature = "(n, kind='symmetric', exact=True, *, device=None)"
)]
fn pascal(
    py: Python<'_>,
    n: i64,
    kind: Option<&Bound<'_, PyAny>>,
    exact: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let kind = pascal_kind(kind, "kind must be 'symmetric', 'lower', or 'upper'")?;
    let p = order_matrix(py, device, || ops::pascal(n, &PascalOptions { kind, exact }))?;
    if !exact {
        return Ok(p);
    }
    // The bit patterns of SciPy's uint64 values, viewed as uint64.
    let uint64 = py.import("numpy")?.getattr("uint64")?;
    Ok(p.bind(py).call_method1("view", (uint64,))?.unbind())
}

/// Returns the inverse of the n x n Pascal matrix.
///
/// Inverse Pascal matrix (``scipy.linalg.invpascal``): int64 with ``exact``
/// (``n > 34`` not implemented), float64 otherwise.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (n, kind = None, exact = true, *, device = None),
    text_signature = "(n, kind='symmetric', exact=True, *, device=None)"
)]
fn invpascal(
    py: Python<'_>,
    n: i64,
    kind: Option<&Bound<'_, PyAny>>,
    exact: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let kind = pascal_kind(kind, "'kind' must be 'symmetric', 'lower' or 'upper'.")?;
    order_matrix(py, device, || ops::invpascal(n, &PascalOptions { kind, exact }))
}

/// Adds the constructors to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(toeplitz, module)?)?;
    module.add_function(wrap_pyfunction!(circulant, module)?)?;
    module.add_function(wrap_pyfunction!(hankel, module)?)?;
    module.add_function(wrap_pyfunction!(block_diag, module)?)?;
    module.add_function(wrap_pyfunction!(khatri_rao, module)?)?;
    module.add_function(wrap_pyfunction!(companion, module)?)?;
    module.add_function(wrap_pyfunction!(fiedler, module)?)?;
    module.add_function(wrap_pyfunction!(fiedler_companion, module)?)?;
    module.add_function(wrap_pyfunction!(leslie, module)?)?;
    module.add_function(wrap_pyfunction!(convolution_matrix, module)?)?;
    module.add_function(wrap_pyfunction!(hilbert, module)?)?;
    module.add_function(wrap_pyfunction!(invhilbert, module)?)?;
    module.add_function(wrap_pyfunction!(helmert, module)?)?;
    module.add_function(wrap_pyfunction!(dft, module)?)?;
    module.add_function(wrap_pyfunction!(hadamard, module)?)?;
    module.add_function(wrap_pyfunction!(pascal, module)?)?;
    module.add_function(wrap_pyfunction!(invpascal, module)?)?;
    Ok(())
}
