//! `scipy.linalg._solvers`: `solve_sylvester` and the Lyapunov solvers,
//! with SciPy's warnings.

use pyo3::exceptions::PyRuntimeWarning;
use pyo3::prelude::*;

use super::super::container::{compute, import_all, wrap};
use super::super::placement::on_device;
use super::{batched, import2, min_rcond, warn, warn_ill_conditioned, Device};
use crate::ops::linalg::{self as ops, DiscreteLyapunovMethod, SylvesterSolution};
use crate::Error;

/// Computes a solution (X) to the Sylvester equation :math:`AX + XB = Q`.
///
/// ``X`` with ``A @ X + X @ B = Q`` (``scipy.linalg.solve_sylvester``), by
/// Bartels-Stewart: complex Schur forms of ``A`` and ``B`` on the host (an
/// explicit copy for CUDA input), the triangular equation solved there, the
/// transformations applied on the input's device. Real input gives a real
/// result (SciPy uses the real Schur form and ``?trsyl``; the results agree
/// to rounding). Batches broadcast as in SciPy 1.17.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, q, *, device = None))]
fn solve_sylvester(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (mut t, library) = import_all(&[a, b, q])?;
        let (q, b, a) = (t.remove(2), t.remove(1), t.remove(0));
        batched("solve_sylvester", &[(Some(&a), 2), (Some(&b), 2), (Some(&q), 2)])?;
        let elements = a.numel() + b.numel() + q.numel();
        let SylvesterSolution { x, .. } = compute(py, elements, move || ops::solve_sylvester(&a, &b, &q))?;
        wrap(py, &library, x, false)
    })
}

/// Solves the continuous Lyapunov equation :math:`AX + XA^H = Q`.
///
/// ``X`` with ``A @ X + X @ A^H = Q``
/// (``scipy.linalg.solve_continuous_lyapunov``): ``solve_sylvester(A,
/// A^H, Q)``, with SciPy's RuntimeWarning where two eigenvalues of ``A`` sum
/// to (nearly) zero and the equation is perturbed (LAPACK ``?trsyl``'s rule).
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, q, *, device = None))]
fn solve_continuous_lyapunov(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    on_device(device, || {
        let (a, q, library) = import2(a, q)?;
        batched("solve_continuous_lyapunov", &[(Some(&a), 2), (Some(&q), 2)])?;
        let elements = a.numel() + q.numel();
        let SylvesterSolution { x, perturbed } = compute(py, elements, move || ops::solve_continuous_lyapunov(&a, &q))?;
        if perturbed {
            let message = "Input \"a\" has an eigenvalue pair whose sum is very close to or exactly zero. \
                           The solution is obtained via perturbing the coefficients.";
            warn(py, &py.get_type::<PyRuntimeWarning>(), message)?;
        }
        wrap(py, &library, x, false)
    })
}

/// Solves the discrete Lyapunov equation :math:`AXA^H - X + Q = 0`.
///
/// ``X`` with ``A @ X @ A^H - X + Q = 0``
/// (``scipy.linalg.solve_discrete_lyapunov``), by SciPy's two methods:
/// ``'direct'`` (the ``N^2 x N^2`` Kronecker system, libtorch's LU) and
/// ``'bilinear'`` (to a continuous equation); ``None`` picks as SciPy
/// (``'direct'`` below order 10). float64/complex128 as SciPy; its
/// ``LinAlgWarning`` for an ill-conditioned solve.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, q, method = None, *, device = None))]
fn solve_discrete_lyapunov(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let method = match method.filter(|m| !m.is_none()) {
        None => None,
        Some(m) => {
            let lowered: String = m.call_method0("lower")?.extract()?;
            match lowered.as_str() {
                "direct" => Some(DiscreteLyapunovMethod::Direct),
                "bilinear" => Some(DiscreteLyapunovMethod::Bilinear),
                _ => return Err(Error::InvalidArgument(format!("Unknown solver {}", m.str()?)).into()),
            }
        }
    };
    on_device(device, || {
        let (a, q, library) = import2(a, q)?;
        batched("solve_discrete_lyapunov", &[(Some(&a), 2), (Some(&q), 2)])?;
        let elements = a.numel() + q.numel();
        let (x, rcond) = compute(py, elements, move || {
            let (x, rcond) = ops::solve_discrete_lyapunov(&a, &q, method)?;
            Ok((x, min_rcond(&rcond)?))
        })?;
        warn_ill_conditioned(py, rcond, &x)?;
        wrap(py, &library, x, false)
    })
}

/// The Riccati solvers' body: imports the present arrays, SciPy's batch checks, the solve.
#[allow(clippy::too_many_arguments)]
fn riccati(
    py: Python<'_>,
    name: &str,
    arrays: [&Bound<'_, PyAny>; 4],
    e: Option<&Bound<'_, PyAny>>,
    s: Option<&Bound<'_, PyAny>>,
    balanced: bool,
    device: Device<'_, '_>,
    solve: fn(&ops::AreInput<'_>, bool) -> crate::Result<tch::Tensor>,
) -> PyResult<Py<PyAny>> {
    let (e, s) = (e.filter(|x| !x.is_none()), s.filter(|x| !x.is_none()));
    on_device(device, || {
        let mut all: Vec<&Bound<'_, PyAny>> = arrays.to_vec();
        all.extend(e);
        all.extend(s);
        let (mut t, library) = import_all(&all)?;
        let s_t = if s.is_some() { t.pop() } else { None };
        let e_t = if e.is_some() { t.pop() } else { None };
        let parts: Vec<(Option<&tch::Tensor>, usize)> =
            t.iter().chain(e_t.iter()).chain(s_t.iter()).map(|x| (Some(x), 2)).collect();
        batched(name, &parts)?;
        let elements = t.iter().chain(e_t.iter()).chain(s_t.iter()).map(tch::Tensor::numel).sum();
        let x = compute(py, elements, move || {
            let input = ops::AreInput { a: &t[0], b: &t[1], q: &t[2], r: &t[3], e: e_t.as_ref(), s: s_t.as_ref() };
            solve(&input, balanced)
        })?;
        wrap(py, &library, x, false)
    })
}

/// Solves the continuous-time algebraic Riccati equation (CARE).
///
/// The stabilizing solution ``X`` of ``A^H X E + E^H X A - (E^H X B + S)
/// R^-1 (B^H X E + S^H) + Q = 0`` (``scipy.linalg.solve_continuous_are``;
/// ``e``, ``s`` default to the identity and zeros), from SciPy's balanced,
/// deflated extended pencil; its stable deflating subspace comes from the
/// ordered complex Schur form of ``J^-1 H`` on the host (an explicit copy for
/// CUDA input; SciPy uses the ordered QZ decomposition of the pencil). The
/// solution is unique, so the results agree to rounding. float64/complex128
/// as SciPy; ``LinAlgError`` where SciPy raises it.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, q, r, e = None, s = None, balanced = true, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn solve_continuous_are(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    r: &Bound<'_, PyAny>,
    e: Option<&Bound<'_, PyAny>>,
    s: Option<&Bound<'_, PyAny>>,
    balanced: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    riccati(py, "solve_continuous_are", [a, b, q, r], e, s, balanced, device, ops::solve_continuous_are)
}

/// Solves the discrete-time algebraic Riccati equation (DARE).
///
/// The stabilizing solution ``X`` of ``A^H X A - E^H X E - (A^H X B + S)
/// (R + B^H X B)^-1 (B^H X A + S^H) + Q = 0``
/// (``scipy.linalg.solve_discrete_are``), from SciPy's balanced, deflated
/// extended pencil; its deflating subspace for the eigenvalues inside the
/// unit circle is that of the Cayley transform ``(H + J)^-1 (H - J)`` for
/// the left half plane, from its ordered complex Schur form on the host (an
/// explicit copy for CUDA input; SciPy uses the ordered QZ decomposition).
/// float64/complex128 as SciPy; ``LinAlgError`` where SciPy raises it.
///
#[doc = linalg_note!()]
#[pyfunction]
#[pyo3(signature = (a, b, q, r, e = None, s = None, balanced = true, *, device = None))]
#[allow(clippy::too_many_arguments)] // SciPy's parameters
fn solve_discrete_are(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    q: &Bound<'_, PyAny>,
    r: &Bound<'_, PyAny>,
    e: Option<&Bound<'_, PyAny>>,
    s: Option<&Bound<'_, PyAny>>,
    balanced: bool,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    riccati(py, "solve_discrete_are", [a, b, q, r], e, s, balanced, device, ops::solve_discrete_are)
}

/// Adds the Sylvester and Lyapunov solvers to `_core.linalg`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(solve_sylvester, module)?)?;
    module.add_function(wrap_pyfunction!(solve_continuous_lyapunov, module)?)?;
    module.add_function(wrap_pyfunction!(solve_discrete_lyapunov, module)?)?;
    module.add_function(wrap_pyfunction!(solve_continuous_are, module)?)?;
    module.add_function(wrap_pyfunction!(solve_discrete_are, module)?)?;
    Ok(())
}
