//! `scipy.linalg._matfuncs_inv_ssq`: the matrix logarithm and fractional
//! powers by inverse scaling and squaring on the (complex) Schur form.
//!
//! The triangular logarithm takes square roots of `T` until `||T - I||_1 <=
//! 1/4`, evaluates the degree-8 diagonal Padé approximant of `log(I + X)`
//! as its partial fraction (8-point Gauss-Legendre quadrature, Higham 2001),
//! scales back by `2^s`, and then sets the diagonal to `log(t_ii)` and the
//! superdiagonal to its exact 2x2 formula (Al-Mohy & Higham 2012, with the
//! unwinding number). SciPy runs Al-Mohy & Higham's algorithm with its own
//! choice of degree and square roots; results agree to rounding for
//! well-conditioned input. Fractional powers `A^p` are `A^a A^b` with SciPy's
//! choice of the integer `a` and `|b| < 1`, `T^b = exp(b log T)` (the
//! exponential by libtorch, the diagonal set to `t_ii^b`). Schur forms are
//! computed on the host; float32 input computes and returns float64, as SciPy.

use std::f64::consts::PI;

use tch::{Kind, Tensor};

use super::dtypes::*;
use super::lapack::{Dense, Scalar, C64};
use super::matfuncs_sqrtm::{real_to_complex_schur, sqrtm_triu, unschur};
use super::shapes::*;
use super::{decomp_schur, invalid};
use crate::ops::dtype;
use crate::{Error, Result};

// 8-point Gauss-Legendre nodes and weights on [0, 1]
const GL_NODES: [f64; 8] = [
    0.019855071751231856,
    0.10166676129318664,
    0.2372337950418355,
    0.4082826787521751,
    0.591_717_321_247_825,
    0.7627662049581645,
    0.8983332387068134,
    0.9801449282487681,
];
const GL_WEIGHTS: [f64; 8] = [
    0.05061426814518813,
    0.11119051722668724,
    0.15685332293894363,
    0.181_341_891_689_181,
    0.181_341_891_689_181,
    0.15685332293894363,
    0.11119051722668724,
    0.05061426814518813,
];

fn clog(z: C64) -> C64 {
    C64::new(z.re.hypot(z.im).ln(), z.im.atan2(z.re))
}

fn cexp(z: C64) -> C64 {
    let m = z.re.exp();
    C64::new(m * z.im.cos(), m * z.im.sin())
}

/// `U Y = B` for upper triangular `U` (host).
fn solve_upper(u: &Dense<C64>, b: &Dense<C64>) -> Dense<C64> {
    let n = u.n;
    let mut y = b.clone();
    for c in 0..n {
        for i in (0..n).rev() {
            let mut s = y.at(i, c);
            for k in i + 1..n {
                s -= u.at(i, k) * y.at(k, c);
            }
            *y.at_mut(i, c) = s / u.at(i, i);
        }
    }
    y
}

fn host_norm1(x: &Dense<C64>) -> f64 {
    (0..x.n).map(|j| (0..x.n).map(|i| x.at(i, j).abs()).sum::<f64>()).fold(0.0, f64::max)
}

/// `log(l2) - log(l1)` divided by `l2 - l1` with care for close eigenvalues
/// (the exact superdiagonal of the logarithm of a 2x2 triangular block, over `t12`).
fn log_divided_difference(l1: C64, l2: C64) -> C64 {
    if l1 == l2 {
        return C64::new(1.0, 0.0) / l1;
    }
    let direct = clog(l2) - clog(l1);
    let delta = (l2 - l1) / l1;
    if delta.re.hypot(delta.im) >= 0.5 {
        return direct / (l2 - l1);
    }
    // log(1 + delta) without cancellation, then the unwinding (a multiple of 2 pi i)
    let re = 0.5 * (2.0 * delta.re + delta.re * delta.re + delta.im * delta.im).ln_1p();
    let im = delta.im.atan2(1.0 + delta.re);
    let turns = ((direct.im - im) / (2.0 * PI)).round();
    C64::new(re, im + 2.0 * PI * turns) / (l2 - l1)
}

/// The principal logarithm of upper triangular `t` with no zero on its
/// diagonal (inverse scaling and squaring; see the module notes).
pub(crate) fn logm_triu(t: &Dense<C64>) -> Dense<C64> {
    let n = t.n;
    let mut r = t.clone();
    let mut s = 0u32;
    loop {
        let mut x = r.clone();
        for i in 0..n {
            *x.at_mut(i, i) -= C64::new(1.0, 0.0);
        }
        if host_norm1(&x) <= 0.25 || s >= 64 {
            break;
        }
        r = sqrtm_triu(&r);
        s += 1;
    }
    let mut x = r;
    for i in 0..n {
        *x.at_mut(i, i) -= C64::new(1.0, 0.0);
    }
    let mut f = Dense::<C64>::zeros(n);
    for (node, weight) in GL_NODES.iter().zip(GL_WEIGHTS) {
        // weight * (I + node X)^{-1} X
        let mut u = Dense::<C64>::identity(n);
        for (ud, xd) in u.data.iter_mut().zip(&x.data) {
            *ud += xd.scale(*node);
        }
        let y = solve_upper(&u, &x);
        for (fd, yd) in f.data.iter_mut().zip(&y.data) {
            *fd += yd.scale(weight);
        }
    }
    let scale = 2f64.powi(s as i32);
    for v in f.data.iter_mut() {
        *v = v.scale(scale);
    }
    for i in 0..n {
        *f.at_mut(i, i) = clog(t.at(i, i));
    }
    for i in 0..n.saturating_sub(1) {
        *f.at_mut(i, i + 1) = t.at(i, i + 1) * log_divided_difference(t.at(i, i), t.at(i + 1, i + 1));
    }
    for i in 0..n {
        for j in 0..i {
            *f.at_mut(i, j) = C64::default();
        }
    }
    f
}

/// SciPy's `_maybe_real`: the real part of `b` when `a` is real and `b`'s
/// imaginary part is within `1e6 eps` (`1e3 feps` for complex64) of zero.
pub(crate) fn maybe_real(a_complex: bool, b: &Tensor) -> Result<Tensor> {
    if a_complex || !is_complex_kind(b.kind()) {
        return Ok(b.shallow_clone());
    }
    let tol = if b.kind() == Kind::ComplexFloat { 1e3 * f64::from(f32::EPSILON) } else { 1e6 * f64::EPSILON };
    let imag = b.f_imag()?;
    if imag.numel() == 0 || !any(&imag.f_abs()?.f_gt(tol)?)? && !any(&imag.f_isnan()?)? {
        return Ok(b.f_real()?.f_contiguous()?);
    }
    Ok(b.shallow_clone())
}

/// How close to singular [`logm`]'s triangular factor is: SciPy's two warnings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Singularity {
    /// No diagonal entry of `T` below `1e-20` in modulus.
    #[default]
    None,
    /// Some entry below `1e-20` (SciPy's `LogmNearlySingularWarning`).
    Near,
    /// Some entry exactly zero, replaced by `1e-20` (`LogmExactlySingularWarning`).
    Exact,
}

/// [`logm`]'s result.
pub struct Logm {
    /// `F` with `expm(F) = A`.
    pub f: Tensor,
    /// SciPy's error estimate `||expm(F) - A||_1 / ||A||_1` per matrix.
    pub errest: Tensor,
    /// Whether SciPy would warn that the input is (nearly) singular.
    pub singularity: Singularity,
}

/// The complex Schur forms SciPy's `_logm` and `_fractional_matrix_power` use.
fn schur_forms(a: &Tensor) -> Result<Vec<(Dense<C64>, Dense<C64>)>> {
    if is_complex_kind(a.kind()) {
        decomp_schur::complex_schur_of(a)
    } else {
        Ok(real_to_complex_schur(a)?.0)
    }
}

fn square_input(a: &Tensor, message: &str) -> Result<i64> {
    if a.dim() < 2 || a.size()[a.dim() - 1] != a.size()[a.dim() - 2] {
        return Err(invalid(message));
    }
    Ok(a.size()[a.dim() - 1])
}

/// `scipy.linalg.logm`: the principal matrix logarithm of square `(..., n,
/// n)` `a`; float64 (complex128 for complex input or where the logarithm
/// is not real). A zero eigenvalue is replaced by `1e-20` with SciPy's warning.
pub fn logm(a: &Tensor) -> Result<Logm> {
    square_input(a, "expected a square matrix")?;
    crate::ops::numpy::check_finite(a)?; // SciPy's schur checks
    if a.numel() == 0 {
        // SciPy: np.argmax of the empty diagonal
        return Err(invalid("attempt to get argmax of an empty sequence"));
    }
    let complex = dtype(a)?.is_complex();
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let a = cast(a, kind)?;
    let batch = batch_of(&a, 2);
    let device = a.device();
    if a.numel() == 0 {
        let errest = Tensor::f_full(batch.as_slice(), f64::NAN, (Kind::Double, device))?;
        return Ok(Logm { f: a.f_zeros_like()?, errest, singularity: Singularity::None });
    }
    let mut parts = schur_forms(&a)?;
    let mut singularity = Singularity::None;
    for (t, _) in parts.iter_mut() {
        for i in 0..t.n {
            let d = t.at(i, i);
            if d == C64::default() {
                singularity = Singularity::Exact;
                *t.at_mut(i, i) = C64::new(1e-20, 0.0);
            } else if d.re.hypot(d.im) < 1e-20 && singularity == Singularity::None {
                singularity = Singularity::Near;
            }
        }
    }
    let logs: Vec<Dense<C64>> = parts.iter().map(|(t, _)| logm_triu(t)).collect();
    let f = unschur(&parts, &logs, &batch, device)?;
    let f = maybe_real(complex, &f)?;
    let errest = {
        let e = super::matfuncs::expm(&f)?.f_sub(&a.f_to_kind(f.kind())?)?;
        norm1(&e)?.f_div(&norm1(&a)?)?
    };
    Ok(Logm { f, errest, singularity })
}

/// `numpy.linalg.matrix_power(a, p)` (integer `p`; negative through the inverse).
pub fn matrix_power(a: &Tensor, p: i64) -> Result<Tensor> {
    if p >= 0 {
        return Ok(a.f_linalg_matrix_power(p)?);
    }
    let kind = if is_complex_kind(a.kind()) || is_float_kind(a.kind()) { a.kind() } else { Kind::Double };
    let a = cast(a, kind)?;
    let (inv, info) = Tensor::f_linalg_inv_ex(&a, false)?;
    if any(&info.f_ne(0)?)? {
        return Err(Error::LinAlg("Singular matrix".into()));
    }
    Ok(inv.f_linalg_matrix_power(-p)?)
}

fn is_float_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double)
}

/// `scipy.linalg.fractional_matrix_power`: `A^p` for square `(..., n, n)`
/// `a` and real `p`. Integer `p` is `numpy.linalg.matrix_power` (dtype
/// kept). Otherwise `A^a A^b` as SciPy splits it (by the 2-norm condition
/// number), float64 or complex128; a singular matrix gives NaN for `p < 0`
/// and, for `p > 0`, SciPy's fallback `funm(A, x**b) A^a` (here `exp(b log)`
/// on the Schur form with the zero eigenvalues kept at zero).
pub fn fractional_matrix_power(a: &Tensor, p: f64) -> Result<Tensor> {
    square_input(a, "expected a square matrix")?;
    if p == p.trunc() && p.abs() < 9.2e18 {
        return matrix_power(a, p as i64);
    }
    crate::ops::numpy::check_finite(a)?; // SciPy's svdvals checks
    let complex = dtype(a)?.is_complex();
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let a = cast(a, kind)?;
    let batch = batch_of(&a, 2);
    if a.numel() == 0 {
        return Ok(a.f_zeros_like()?);
    }
    let mats = a.f_reshape([-1, a.size()[a.dim() - 2], a.size()[a.dim() - 1]])?;
    let count = mats.size()[0];
    let mut results = Vec::with_capacity(count as usize);
    let mut any_complex = complex;
    for index in 0..count {
        let m = mats.f_get(index)?;
        let r = fractional_one(&m, p)?;
        any_complex |= is_complex_kind(r.kind());
        results.push(r);
    }
    let kind = if any_complex { Kind::ComplexDouble } else { Kind::Double };
    let results: Vec<Tensor> = results.iter().map(|r| r.f_to_kind(kind)).collect::<std::result::Result<_, _>>()?;
    Ok(Tensor::f_stack(&results, 0)?
        .f_reshape(concat(&batch, &[a.size()[a.dim() - 2], a.size()[a.dim() - 1]]).as_slice())?)
}

fn fractional_one(a: &Tensor, p: f64) -> Result<Tensor> {
    let s = super::decomp_svd::svd(a, &super::matfuncs::singular_values())?
        .s
        .f_to_kind(Kind::Double)?
        .f_to(tch::Device::Cpu)?;
    let n = s.size()[0];
    let (smax, smin) = (s.f_double_value(&[0])?, s.f_double_value(&[n - 1])?);
    if smin != 0.0 {
        let k2 = smax / smin;
        let p1 = p - p.floor();
        let p2 = p - p.ceil();
        let (power, b) = if p1 * k2.powf(1.0 - p1) <= -p2 * k2 { (p.floor(), p1) } else { (p.ceil(), p2) };
        if let Some(r) = remainder_power(a, b)? {
            let q = matrix_power(a, power as i64)?;
            return Ok(q.f_to_kind(r.kind())?.f_matmul(&r)?);
        }
    }
    if p < 0.0 {
        return Ok(a.f_full_like(f64::NAN)?);
    }
    // SciPy: funm(A, x**b) A^floor(p)
    let b = p - p.floor();
    let power = p.floor() as i64;
    let parts = schur_forms(&a.f_unsqueeze(0)?)?;
    let (t, _) = &parts[0];
    let n = t.n;
    let mut f = Dense::<C64>::zeros(n);
    for i in 0..n {
        let d = t.at(i, i);
        *f.at_mut(i, i) = if d == C64::default() { d } else { cexp(clog(d).scale(b)) };
    }
    let f = super::matfuncs::parlett(t, f).0;
    let r = unschur(&parts, &[f], &[1], a.device())?.f_squeeze_dim(0)?;
    let r = maybe_real(is_complex_kind(a.kind()), &r)?;
    let q = matrix_power(a, power)?;
    Ok(q.f_to_kind(r.kind())?.f_matmul(&r)?)
}

/// SciPy's `_remainder_matrix_power(A, b)` for `|b| < 1`: `None` where the
/// triangular factor is singular (SciPy's `FractionalMatrixPowerError`).
fn remainder_power(a: &Tensor, b: f64) -> Result<Option<Tensor>> {
    let n = a.size()[0];
    let triangular = !any(&a.f_tril(-1)?.f_ne(0.0)?)?;
    let parts = if triangular {
        let host = if is_complex_kind(a.kind()) {
            super::host::complex_mats(&a.f_unsqueeze(0)?)?
        } else {
            super::host::real_mats(&a.f_unsqueeze(0)?)?.iter().map(decomp_schur::to_complex).collect()
        };
        host.into_iter().map(|t| (t, Dense::identity(n as usize))).collect::<Vec<_>>()
    } else {
        schur_forms(&a.f_unsqueeze(0)?)?
    };
    let (t, _) = &parts[0];
    if (0..t.n).any(|i| t.at(i, i) == C64::default()) {
        return Ok(None);
    }
    // real when the triangular factor is real with a non-negative diagonal
    let real_t = t.data.iter().all(|v| v.im == 0.0);
    let negative = (0..t.n).any(|i| t.at(i, i).re < 0.0);
    let stays_real = !is_complex_kind(a.kind()) && real_t && !negative;
    let l = logm_triu(t);
    let lt = super::host::from_complex(&[l], &[], Kind::ComplexDouble, a.device())?;
    let e = lt.f_mul_scalar(b)?.f_linalg_matrix_exp()?;
    let mut diag: Vec<Dense<C64>> = super::host::complex_mats(&e.f_unsqueeze(0)?)?;
    for i in 0..t.n {
        *diag[0].at_mut(i, i) = cexp(clog(t.at(i, i)).scale(b));
    }
    let u = unschur(&parts, &diag, &[1], a.device())?.f_squeeze_dim(0)?;
    Ok(Some(if stays_real { u.f_real()?.f_contiguous()? } else { u }))
}
