//! `scipy.linalg._decomp`: `eigh`, `eigvalsh`, `eig`, `eigvals`,
//! `eigh_tridiagonal` and `eigvalsh_tridiagonal`, with SciPy's option checks
//! (`driver`, `type`, the subsets, `select`/`select_range`, `lapack_driver`)
//! and result containers (lists for batches, the eigenvalues alone without
//! vectors).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyString};

use super::super::container::{compute, wrap, Library};
use super::super::placement::on_device;
use super::{batched, import1, import2, import_optional, sequence, unpack2, Device, Passed};
use crate::ops::linalg::{
    self as ops, CheckFinite, Eig, EigBandedOptions, EigOptions, Eigh, EighOptions, EighTridiagonalOptions, EighType,
    Subset,
};
use crate::Error;

/// `eigh`'s LAPACK driver names (SciPy's, `None` aside).
const EIGH_DRIVERS: [&str; 7] = ["ev", "evd", "evr", "evx", "gv", "gvd", "gvx"];

/// `eigh_tridiagonal`'s `lapack_driver` names.
const TRIDIAGONAL_DRIVERS: [&str; 6] = ["auto", "stemr", "sterf", "stebz", "stev", "stevd"];

fn invalid(message: impl Into<String>) -> PyErr {
    Error::InvalidArgument(message.into()).into()
}

/// Python's `int(x)`.
fn int(x: &Bound<'_, PyAny>) -> PyResult<i64> {
    x.py().get_type::<PyInt>().call1((x,))?.extract()
}

/// Python's `float(x)`.
fn float(x: &Bound<'_, PyAny>) -> PyResult<f64> {
    x.py().get_type::<PyFloat>().call1((x,))?.extract()
}

/// SciPy's checks of `eigh`'s `driver`, `type` and subsets (in its order):
/// the generalized problem's type and the subset asked for.
fn eigh_checks(
    has_b: bool,
    type_code: i64,
    subset_by_index: Option<&Bound<'_, PyAny>>,
    subset_by_value: Option<&Bound<'_, PyAny>>,
    driver: Option<&Bound<'_, PyAny>>,
) -> PyResult<(EighType, Subset)> {
    let driver = match driver {
        None => None,
        Some(driver) => match driver.extract::<String>().ok().filter(|name| EIGH_DRIVERS.contains(&name.as_str())) {
            Some(name) => Some(name),
            None => {
                return Err(invalid(format!(
                    "\"{}\" is unknown. Possible values are \"None\", \"{}\".",
                    driver.str()?,
                    EIGH_DRIVERS.join("\", \"")
                )))
            }
        },
    };
    // (SciPy reads `type` only for the generalized problem)
    let type_ = if has_b { EighType::from_code(type_code)? } else { EighType::One };
    let subset = subset_by_index.is_some() || subset_by_value.is_some();
    let truthy = |x: Option<&Bound<'_, PyAny>>| x.map_or(Ok(false), |x| x.is_truthy());
    let by_index = truthy(subset_by_index)?;
    if by_index && truthy(subset_by_value)? {
        return Err(invalid("Either index or value subset can be requested."));
    }
    let mut chosen = Subset::All;
    if let Some(index) = subset_by_index.filter(|_| by_index) {
        let items: Vec<Bound<'_, PyAny>> = index.try_iter()?.collect::<PyResult<_>>()?;
        let values = items.iter().map(int).collect::<PyResult<Vec<i64>>>()?;
        match values[..] {
            [lo, hi] => chosen = Subset::Index(lo, hi),
            [] | [_] => return Err(invalid(format!("not enough values to unpack (expected 2, got {})", values.len()))),
            _ => return Err(invalid("too many values to unpack (expected 2)")),
        }
    }
    if let Some(value) = subset_by_value.filter(|_| !by_index) {
        if value.is_truthy()? {
            let [lo_given, hi_given] = unpack2(value)?;
            let (lo, hi) = (float(&lo_given)?, float(&hi_given)?);
            // -inf <= lo < hi <= inf: NaN fails it
            if lo.partial_cmp(&hi) != Some(std::cmp::Ordering::Less) {
                return Err(invalid(format!(
                    "Requested eigenvalue bounds are not valid. Valid range is (-inf, inf) and low < high, \
                     but low={}, high={} is given",
                    lo_given.str()?,
                    hi_given.str()?
                )));
            }
            chosen = Subset::Value(lo, hi);
        }
    }
    if let Some(driver) = driver.as_deref() {
        if !has_b && matches!(driver, "gv" | "gvd" | "gvx") {
            return Err(invalid(format!(
                "{driver} requires input b array to be supplied for generalized eigenvalue problems."
            )));
        }
        if has_b && matches!(driver, "ev" | "evd" | "evr" | "evx") {
            return Err(invalid(format!(
                "\"{driver}\" does not accept input b array for standard eigenvalue problems."
            )));
        }
        if subset && matches!(driver, "ev" | "evd" | "gv" | "gvd") {
            return Err(invalid(format!("\"{driver}\" cannot compute subsets of eigenvalues")));
        }
    }
    Ok((type_, chosen))
}

/// The eigenvalues alone, or `(w, v)` (a list for a batch).
fn eigen_pair(py: Python<'_>, library: &Library, eigh: Eigh, list: bool) -> PyResult<Py<PyAny>> {
    let Eigh { w, v } = eigh;
    let w = wrap(py, library, w, false)?;
    match v {
        Some(v) => sequence(py, vec![w, wrap(py, library, v, false)?], list),
        None => Ok(w),
    }
}

/// `eigh`/`eigvalsh` once the options are checked.
fn hermitian(
    py: Python<'_>,
    name: &str,
    (a, b): (&Bound<'_, PyAny>, Option<&Bound<'_, PyAny>>),
    options: EighOptions,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, b, library) = import_optional(a, b)?;
        let list = batched(name, &[(Some(&a), 2), (b.as_ref(), 2)])?;
        let elements = a.numel() + b.as_ref().map_or(0, |b| b.numel());
        let result = compute(py, elements, move || ops::eigh(&a, b.as_ref(), &options))?;
        eigen_pair(py, &library, result, list)
    })
}

/// Solve a standard or generalized eigenvalue problem for a complex Hermitian or real symmetric matrix.
///
/// Eigenvalues (ascending) and eigenvectors of Hermitian matrices, or of the
/// generalized problem with Hermitian positive definite ``b``
/// (``scipy.linalg.eigh``).
///
/// ``type`` 1, 2, 3 as SciPy's; the generalized problem is reduced with
/// ``b``'s Cholesky factor as LAPACK's ``?sygvd`` does. ``driver`` names a
/// LAPACK driver: all compute the same decomposition, so any valid one is
/// accepted (libtorch picks its own). ``subset_by_index``/``subset_by_value``
/// select from the full decomposition (values in ``(lo, hi]``). Returns
/// ``w`` with ``eigvals_only``, else ``(w, v)`` (a list for a batch).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (
    a, b = None, *, lower = true, eigvals_only = false, overwrite_a = false, overwrite_b = false, r#type = 1,
    check_finite = true, subset_by_index = None, subset_by_value = None, driver = None, device = None
))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn eigh(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    lower: bool,
    eigvals_only: bool,
    overwrite_a: bool,
    overwrite_b: bool,
    r#type: i64,
    check_finite: bool,
    subset_by_index: Option<&Bound<'_, PyAny>>,
    subset_by_value: Option<&Bound<'_, PyAny>>,
    driver: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, overwrite_b); // performance hints
    let (type_, subset) = eigh_checks(b.is_some(), r#type, subset_by_index, subset_by_value, driver)?;
    let check_finite = CheckFinite::from_flag(check_finite);
    let options = EighOptions { lower, eigvals_only, type_, subset, check_finite };
    hermitian(py, "eigh", (a, b), options, device)
}

/// Solves a standard or generalized eigenvalue problem for a complex Hermitian or real symmetric matrix.
///
/// Eigenvalues (ascending) of Hermitian matrices, or of the generalized
/// problem (``scipy.linalg.eigvalsh``); see :func:`eigh`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (
    a, b = None, *, lower = true, overwrite_a = false, overwrite_b = false, r#type = 1, check_finite = true,
    subset_by_index = None, subset_by_value = None, driver = None, device = None
))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn eigvalsh(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    lower: bool,
    overwrite_a: bool,
    overwrite_b: bool,
    r#type: i64,
    check_finite: bool,
    subset_by_index: Option<&Bound<'_, PyAny>>,
    subset_by_value: Option<&Bound<'_, PyAny>>,
    driver: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, overwrite_b); // performance hints
    let (type_, subset) = eigh_checks(b.is_some(), r#type, subset_by_index, subset_by_value, driver)?;
    let check_finite = CheckFinite::from_flag(check_finite);
    let options = EighOptions { lower, eigvals_only: true, type_, subset, check_finite };
    hermitian(py, "eigvalsh", (a, b), options, device)
}

/// `eig`/`eigvals` of the standard problem, or of the generalized one (`b`
/// given: the host QZ port, `ops::eig_generalized`).
fn general(
    py: Python<'_>,
    name: &str,
    (a, b): (&Bound<'_, PyAny>, Option<&Bound<'_, PyAny>>),
    options: EigOptions,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let b = b.filter(|b| !b.is_none());
    on_device(device, || {
        let (a, b, library) = import_optional(a, b)?;
        let list = batched(name, &[(Some(&a), 2), (b.as_ref(), 2)])?;
        let elements = a.numel() + b.as_ref().map_or(0, |b| b.numel());
        let Eig { w, vl, vr } = compute(py, elements, move || match &b {
            Some(b) => ops::eig_generalized(&a, b, &options),
            None => ops::eig(&a, &options),
        })?;
        let mut out = vec![wrap(py, &library, w, false)?];
        for v in vl.into_iter().chain(vr) {
            out.push(wrap(py, &library, v, false)?);
        }
        if out.len() == 1 {
            return Ok(out.remove(0));
        }
        sequence(py, out, list)
    })
}

/// Solve an ordinary or generalized eigenvalue problem of a square matrix.
///
/// Eigenvalues and left/right eigenvectors of general square matrices
/// (``scipy.linalg.eig``).
///
/// Eigenvalues are complex; for real input whose eigenvalues are all real the
/// eigenvectors are real, as SciPy returns them. Left eigenvectors come from
/// the inverse of the right ones (not for defective matrices). Returns ``w``
/// alone, or ``(w, vl, vr)`` without what was not asked for (a list for a
/// batch). The generalized problem (``b`` given, ``a v = w b v``) runs on
/// the host (an explicit copy for CUDA input): libtorch has no ``?ggev``, so
/// the pencil is reduced by a port of LAPACK's complex QZ (see ``qz``) and
/// the eigenvectors computed from that form (``ztgevc``), each of unit
/// 2-norm as SciPy normalizes them (their phases may differ from LAPACK's);
/// ``w`` is ``inf`` where ``b`` is singular as SciPy's ``_make_eigvals``
/// gives it. For real input the eigenvalues are computed in complex
/// arithmetic: those with a rounding-level imaginary part are made real
/// (with real eigenvectors), and their order may differ from ``?ggev``'s.
/// Not differentiable with ``b``.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (
    a, b = None, left = false, right = true, overwrite_a = false, overwrite_b = false, check_finite = true,
    homogeneous_eigvals = false, *, device = None
))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn eig(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    left: bool,
    right: bool,
    overwrite_a: bool,
    overwrite_b: bool,
    check_finite: bool,
    homogeneous_eigvals: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a, overwrite_b); // performance hints
    let options = EigOptions { left, right, homogeneous_eigvals, check_finite: CheckFinite::from_flag(check_finite) };
    general(py, "eig", (a, b), options, device)
}

/// Compute eigenvalues from an ordinary or generalized eigenvalue problem.
///
/// Eigenvalues of general square matrices (``scipy.linalg.eigvals``); see :func:`eig`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b = None, overwrite_a = false, check_finite = true, homogeneous_eigvals = false, *, device = None))]
fn eigvals(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: Option<&Bound<'_, PyAny>>,
    overwrite_a: bool,
    check_finite: bool,
    homogeneous_eigvals: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    let check_finite = CheckFinite::from_flag(check_finite);
    let options = EigOptions { left: false, right: false, homogeneous_eigvals, check_finite };
    general(py, "eigvals", (a, b), options, device)
}

/// SciPy's `select` codes: 0 all, 1 by value, 2 by index (`None`: invalid).
fn select_code(select: &Bound<'_, PyAny>) -> PyResult<Option<i64>> {
    if let Ok(name) = select.cast::<PyString>() {
        return Ok(match name.to_cow()?.to_lowercase().as_str() {
            "a" | "all" => Some(0),
            "v" | "value" => Some(1),
            "i" | "index" => Some(2),
            _ => None,
        });
    }
    // a dictionary lookup: hashable, and equal to one of the codes
    if select.hash().is_err() {
        return Ok(None);
    }
    Ok((0..3i64).find(|code| select.eq(code).unwrap_or(false)))
}

/// SciPy's `_check_select` and `lapack_driver` checks of
/// `eigh_tridiagonal` (`n`: the matrix order): the subset asked for.
fn tridiagonal_select(
    n: i64,
    select: &Bound<'_, PyAny>,
    select_range: Option<&Bound<'_, PyAny>>,
    eigvals_only: bool,
    lapack_driver: &Bound<'_, PyAny>,
) -> PyResult<Subset> {
    let (code, subset) = select_subset(n, select, select_range)?;
    let driver = match lapack_driver.cast::<PyString>() {
        Ok(name) => name.to_cow()?.into_owned(),
        Err(_) => return Err(PyTypeError::new_err("lapack_driver must be str")),
    };
    if !TRIDIAGONAL_DRIVERS.contains(&driver.as_str()) {
        return Err(invalid(format!(
            "lapack_driver must be one of ('{}'), got {driver}",
            TRIDIAGONAL_DRIVERS.join("', '")
        )));
    }
    if matches!(driver.as_str(), "sterf" | "stev" | "stevd") && code != 0 {
        return Err(invalid(format!("{driver} can only be used when select == \"a\"")));
    }
    if driver == "sterf" && !eigvals_only {
        return Err(invalid("sterf can only be used when eigvals_only is True"));
    }
    Ok(subset)
}

/// SciPy's `_check_select` (`n`: the matrix order): the `select` code and the subset asked for.
fn select_subset(
    n: i64,
    select: &Bound<'_, PyAny>,
    select_range: Option<&Bound<'_, PyAny>>,
) -> PyResult<(i64, Subset)> {
    let py = select.py();
    let code = select_code(select)?.ok_or_else(|| invalid("invalid argument for select"))?;
    let mut subset = Subset::All;
    if code != 0 {
        let range = py.import("numpy")?.call_method1("asarray", (select_range,))?;
        let (ndim, size): (i64, i64) = (range.getattr("ndim")?.extract()?, range.getattr("size")?.extract()?);
        if ndim != 1 || size != 2 || range.get_item(1)?.lt(range.get_item(0)?)? {
            return Err(invalid("select_range must be a 2-element array-like in nondecreasing order"));
        }
        let (first, second) = (range.get_item(0)?, range.get_item(1)?);
        if code == 1 {
            subset = Subset::Value(float(&first)?, float(&second)?);
        } else {
            let dtype = range.getattr("dtype")?;
            let char: String = dtype.getattr("char")?.extract()?;
            if !"hilqp".contains(char.to_lowercase().as_str()) {
                return Err(invalid(format!(
                    "when using select=\"i\", select_range must contain integers, got dtype {} ({char})",
                    dtype.str()?
                )));
            }
            let (lo, hi) = (int(&first)?, int(&second)?);
            if lo.min(hi) < 0 || lo.max(hi) > n - 1 {
                return Err(invalid("select_range out of bounds"));
            }
            subset = Subset::Index(lo, hi);
        }
    }
    Ok((code, subset))
}

/// `eigh_tridiagonal`/`eigvalsh_tridiagonal`: options checked after the batch check, as SciPy's.
#[allow(clippy::too_many_arguments)]
fn tridiagonal(
    py: Python<'_>,
    name: &str,
    (d, e): (&Bound<'_, PyAny>, &Bound<'_, PyAny>),
    eigvals_only: bool,
    (select, select_range): (&Passed, Option<&Bound<'_, PyAny>>),
    check_finite: bool,
    lapack_driver: &Passed,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let (select, lapack_driver) = (select.or_str(py, "a"), lapack_driver.or_str(py, "auto"));
    on_device(device, || {
        let (d, e, library) = import2(d, e)?;
        let list = batched(name, &[(Some(&d), 1), (Some(&e), 1)])?;
        let n = d.size().last().copied().unwrap_or(1);
        let subset = tridiagonal_select(n, &select, select_range, eigvals_only, &lapack_driver)?;
        let options =
            EighTridiagonalOptions { eigvals_only, subset, check_finite: CheckFinite::from_flag(check_finite) };
        let result = compute(py, d.numel() + e.numel(), move || ops::eigh_tridiagonal(&d, &e, &options))?;
        eigen_pair(py, &library, result, list)
    })
}

/// Solve eigenvalue problem for a real symmetric tridiagonal matrix.
///
/// Eigenvalues (ascending) and eigenvectors of a real symmetric tridiagonal
/// matrix with diagonal ``d`` and off-diagonal ``e``
/// (``scipy.linalg.eigh_tridiagonal``), through the dense symmetric solver.
///
/// ``select`` ``'a'`` (all), ``'v'`` (values in ``(lo, hi]``) or ``'i'``
/// (indices ``lo..=hi``) with ``select_range = (lo, hi)``; ``tol`` and
/// ``lapack_driver`` are accepted (validated as SciPy does) and do not change
/// the result beyond rounding.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (
        d, e, eigvals_only = false, select = Passed::default(), select_range = None, check_finite = true, tol = 0.0,
        lapack_driver = Passed::default(), *, device = None
    ),
    text_signature = "(d, e, eigvals_only=False, select='a', select_range=None, check_finite=True, tol=0.0, \
                      lapack_driver='auto', *, device=None)"
)]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn eigh_tridiagonal(
    py: Python<'_>,
    d: &Bound<'_, PyAny>,
    e: &Bound<'_, PyAny>,
    eigvals_only: bool,
    select: Passed,
    select_range: Option<&Bound<'_, PyAny>>,
    check_finite: bool,
    tol: f64,
    lapack_driver: Passed,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = tol; // LAPACK's bisection tolerance: the dense solver has none
    tridiagonal(
        py,
        "eigh_tridiagonal",
        (d, e),
        eigvals_only,
        (&select, select_range),
        check_finite,
        &lapack_driver,
        device,
    )
}

/// Solve eigenvalue problem for a real symmetric tridiagonal matrix.
///
/// Eigenvalues (ascending) of a real symmetric tridiagonal matrix
/// (``scipy.linalg.eigvalsh_tridiagonal``); see :func:`eigh_tridiagonal`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (
        d, e, select = Passed::default(), select_range = None, check_finite = true, tol = 0.0, lapack_driver = Passed::default(), *,
        device = None
    ),
    text_signature = "(d, e, select='a', select_range=None, check_finite=True, tol=0.0, lapack_driver='auto', *, \
                      device=None)"
)]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn eigvalsh_tridiagonal(
    py: Python<'_>,
    d: &Bound<'_, PyAny>,
    e: &Bound<'_, PyAny>,
    select: Passed,
    select_range: Option<&Bound<'_, PyAny>>,
    check_finite: bool,
    tol: f64,
    lapack_driver: Passed,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = tol; // LAPACK's bisection tolerance: the dense solver has none
    tridiagonal(py, "eigvalsh_tridiagonal", (d, e), true, (&select, select_range), check_finite, &lapack_driver, device)
}

/// `eig_banded`/`eigvals_banded` once the options are parsed.
#[allow(clippy::too_many_arguments)]
fn banded(
    py: Python<'_>,
    name: &str,
    a_band: &Bound<'_, PyAny>,
    lower: bool,
    eigvals_only: bool,
    (select, select_range): (&Passed, Option<&Bound<'_, PyAny>>),
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let select = select.or_str(py, "a");
    on_device(device, || {
        let (a, library) = import1(a_band)?;
        let list = batched(name, &[(Some(&a), 2)])?;
        if a.dim() < 2 {
            return Err(invalid("expected a 2-D array"));
        }
        let n = a.size()[a.dim() - 1];
        let subset = if a.numel() == 0 { Subset::All } else { select_subset(n, &select, select_range)?.1 };
        let options =
            EigBandedOptions { lower, eigvals_only, subset, check_finite: CheckFinite::from_flag(check_finite) };
        let result = compute(py, a.numel(), move || ops::eig_banded(&a, &options))?;
        eigen_pair(py, &library, result, list)
    })
}

/// Solve real symmetric or complex Hermitian band matrix eigenvalue problem.
///
/// Eigenvalues (ascending) and eigenvectors of a Hermitian band matrix in
/// LAPACK band storage (``scipy.linalg.eig_banded``), through the dense
/// Hermitian solver on the expanded matrix (LAPACK's ``?sbevd``/``?hbevx``
/// work on the band; the decomposition is the same up to rounding and the
/// eigenvectors' signs). ``select`` ``'a'``, ``'v'`` (values in ``(lo,
/// hi]``) or ``'i'`` (indices ``lo..=hi``) as SciPy's; ``max_ev`` is
/// accepted and does not limit the number of eigenvalues returned.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (
        a_band, lower = false, eigvals_only = false, overwrite_a_band = false, select = Passed::default(),
        select_range = None, max_ev = 0, check_finite = true, *, device = None
    ),
    text_signature = "(a_band, lower=False, eigvals_only=False, overwrite_a_band=False, select='a', \
                      select_range=None, max_ev=0, check_finite=True, *, device=None)"
)]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn eig_banded(
    py: Python<'_>,
    a_band: &Bound<'_, PyAny>,
    lower: bool,
    eigvals_only: bool,
    overwrite_a_band: bool,
    select: Passed,
    select_range: Option<&Bound<'_, PyAny>>,
    max_ev: i64,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = (overwrite_a_band, max_ev); // a performance hint; LAPACK's workspace bound
    banded(py, "eig_banded", a_band, lower, eigvals_only, (&select, select_range), check_finite, device)
}

/// Solve real symmetric or complex Hermitian band matrix eigenvalue problem.
///
/// Eigenvalues (ascending) of a Hermitian band matrix in LAPACK band storage
/// (``scipy.linalg.eigvals_banded``); see :func:`eig_banded`.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(
    signature = (
        a_band, lower = false, overwrite_a_band = false, select = Passed::default(), select_range = None,
        check_finite = true, *, device = None
    ),
    text_signature = "(a_band, lower=False, overwrite_a_band=False, select='a', select_range=None, \
                      check_finite=True, *, device=None)"
)]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn eigvals_banded(
    py: Python<'_>,
    a_band: &Bound<'_, PyAny>,
    lower: bool,
    overwrite_a_band: bool,
    select: Passed,
    select_range: Option<&Bound<'_, PyAny>>,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a_band; // a performance hint
    banded(py, "eigvals_banded", a_band, lower, true, (&select, select_range), check_finite, device)
}

/// Compute Hessenberg form of a matrix.
///
/// Hessenberg form ``a = Q @ H @ Q^H`` (``scipy.linalg.hessenberg``).
///
/// Householder reflections as LAPACK's ``?gehrd``/``?orghr`` (which SciPy
/// calls, unbalanced), on the host: an explicit copy for CUDA input, and
/// back. Matrices of order 2 or less come back as they are (their dtype
/// kept), with ``Q`` the float64 identity, as in SciPy.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, calc_q = false, overwrite_a = false, check_finite = true, *, device = None))]
fn hessenberg(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    calc_q: bool,
    overwrite_a: bool,
    check_finite: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = overwrite_a; // a performance hint
    on_device(device, || {
        let (a, library) = import1(a)?;
        let list = batched("hessenberg", &[(Some(&a), 2)])?;
        let check = CheckFinite::from_flag(check_finite);
        let (h, q) = compute(py, a.numel(), move || ops::hessenberg(&a, calc_q, check))?;
        let h = wrap(py, &library, h, false)?;
        match q {
            Some(q) => sequence(py, vec![h, wrap(py, &library, q, false)?], list),
            None => Ok(h),
        }
    })
}

/// Complex diagonal form to real diagonal block form.
///
/// Real block-diagonal form of complex eigenpairs (``scipy.linalg.cdf2rdf``):
/// ``vr @ wr = X @ vr`` for the real matrices ``X`` whose eigenpairs ``w``,
/// ``v`` are. Batched over leading dimensions, as SciPy; the pairing of the
/// complex eigenvalues is found on the host.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (w, v, *, device = None))]
fn cdf2rdf(py: Python<'_>, w: &Bound<'_, PyAny>, v: &Bound<'_, PyAny>, device: Device<'_, '_>) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (w, v, library) = import2(w, v)?;
        let (wr, vr) = compute(py, w.numel() + v.numel(), move || ops::cdf2rdf(&w, &v))?;
        sequence(py, vec![wrap(py, &library, wr, false)?, wrap(py, &library, vr, false)?], false)
    })
}

/// Adds the eigenvalue routines to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(eigh, module)?)?;
    module.add_function(wrap_pyfunction!(eigvalsh, module)?)?;
    module.add_function(wrap_pyfunction!(eig, module)?)?;
    module.add_function(wrap_pyfunction!(eigvals, module)?)?;
    module.add_function(wrap_pyfunction!(eigh_tridiagonal, module)?)?;
    module.add_function(wrap_pyfunction!(eigvalsh_tridiagonal, module)?)?;
    module.add_function(wrap_pyfunction!(eig_banded, module)?)?;
    module.add_function(wrap_pyfunction!(eigvals_banded, module)?)?;
    module.add_function(wrap_pyfunction!(hessenberg, module)?)?;
    module.add_function(wrap_pyfunction!(cdf2rdf, module)?)?;
    Ok(())
}
