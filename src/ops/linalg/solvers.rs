//! `scipy.linalg._solvers`: the Sylvester and Lyapunov equations
//! (Bartels-Stewart on the Schur forms).
//!
//! SciPy reduces `a` (and `b^H`) to real Schur form and calls LAPACK's
//! `?trsyl`; here both go to complex Schur form on the host (an explicit copy
//! for CUDA input, see `decomp_schur`), the triangular equation is solved
//! column by column on the host, and the unitary transformations are applied
//! with libtorch on the input's device. Real input gives the real part (the
//! imaginary one is rounding). Near-singular equations (`r_ii + s_jj` below
//! `?trsyl`'s `smin`) are perturbed as `?trsyl` perturbs them.

use tch::{Kind, Tensor};

use super::basic::{inv, solve, InvOptions, SolveOptions, Solved};
use super::decomp_schur::complex_schur_of;
use super::dtypes::*;
use super::host;
use super::lapack::{Dense, Scalar, C64};
use super::shapes::*;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::{broadcast_shapes, check_finite_all};
use crate::Result;

/// `R Y + Y S = F` for upper triangular `r` (m x m), `s` (n x n), `f` (m x n,
/// row-major). Returns `Y` and whether a denominator was perturbed.
fn triangular_sylvester(r: &Dense<C64>, s: &Dense<C64>, f: &[C64], m: usize, n: usize) -> (Vec<C64>, bool) {
    let big = r.data.iter().chain(&s.data).fold(0.0f64, |acc, v| acc.max(v.abs()));
    let smin = (f64::EPSILON / 2.0 * big).max(f64::MIN_POSITIVE);
    let mut y = f.to_vec();
    let mut perturbed = false;
    for j in 0..n {
        // rhs = f_j - sum_{k<j} y_k s_kj
        for k in 0..j {
            let skj = s.at(k, j);
            if skj == C64::default() {
                continue;
            }
            for i in 0..m {
                let v = y[i * n + k] * skj;
                y[i * n + j] -= v;
            }
        }
        // (R + s_jj I) y_j = rhs, upward
        let sjj = s.at(j, j);
        for i in (0..m).rev() {
            let mut acc = y[i * n + j];
            for k in i + 1..m {
                acc -= r.at(i, k) * y[k * n + j];
            }
            let mut den = r.at(i, i) + sjj;
            if den.abs() < smin {
                den = C64::new(smin, 0.0);
                perturbed = true;
            }
            y[i * n + j] = acc / den;
        }
    }
    (y, perturbed)
}

/// [`solve_sylvester`]'s and the Lyapunov solvers' result.
pub struct SylvesterSolution {
    /// `X`.
    pub x: Tensor,
    /// Whether `?trsyl` would report `info = 1` (close eigenvalues, perturbed).
    pub perturbed: bool,
}

/// `a x + x b = q` by Bartels-Stewart, batched; `kind` is the result's.
fn sylvester(a: &Tensor, b: &Tensor, q: &Tensor, kind: Kind) -> Result<SylvesterSolution> {
    let (m, n) = (a.size()[a.dim() - 1], b.size()[b.dim() - 1]);
    let batch = broadcast_shapes(&[&batch_of(a, 2), &batch_of(b, 2), &batch_of(q, 2)])?;
    let device = q.device();
    if a.numel() == 0 || b.numel() == 0 || batch.contains(&0) {
        return Ok(SylvesterSolution {
            x: Tensor::f_zeros(concat(&batch, &[m, n]).as_slice(), (kind, device))?,
            perturbed: false,
        });
    }
    let wide = Kind::ComplexDouble;
    let a = a.f_to_kind(wide)?.f_broadcast_to(concat(&batch, &[m, m]).as_slice())?;
    let b = b.f_to_kind(wide)?.f_broadcast_to(concat(&batch, &[n, n]).as_slice())?;
    let q = q.f_to_kind(wide)?.f_broadcast_to(concat(&batch, &[m, n]).as_slice())?;
    let ra = complex_schur_of(&a)?;
    let sb = complex_schur_of(&b)?;
    let (ta, ua): (Vec<_>, Vec<_>) = ra.into_iter().unzip();
    let (tb, vb): (Vec<_>, Vec<_>) = sb.into_iter().unzip();
    let u = host::from_complex(&ua, &batch, wide, device)?;
    let v = host::from_complex(&vb, &batch, wide, device)?;
    // F = U^H Q V
    let f = mh(&u)?.f_matmul(&q)?.f_matmul(&v)?.f_to(tch::Device::Cpu)?.f_contiguous()?;
    let f = f.f_reshape([-1, m * n])?.f_resolve_conj()?.f_view_as_real()?.f_contiguous()?;
    let mut flat = filled(f.numel(), 0f64, "solve_sylvester's F")?;
    f.f_copy_data(&mut flat, f.numel())?;
    let (mu, nu) = (m as usize, n as usize);
    let mut ys = Vec::with_capacity(ta.len());
    let mut perturbed = false;
    for (index, (r, s)) in ta.iter().zip(&tb).enumerate() {
        let chunk = &flat[index * 2 * mu * nu..(index + 1) * 2 * mu * nu];
        let fv: Vec<C64> = chunk.chunks(2).map(|p| C64::new(p[0], p[1])).collect();
        let (y, p) = triangular_sylvester(r, s, &fv, mu, nu);
        perturbed |= p;
        ys.extend(y.into_iter().flat_map(|v| [v.re, v.im]));
    }
    let y = Tensor::f_from_slice(&ys)?
        .f_reshape(concat(&batch, &[m, n, 2]).as_slice())?
        .f_view_as_complex()?
        .f_to(device)?;
    let x = u.f_matmul(&y)?.f_matmul(&mh(&v)?)?;
    let x = if is_complex_kind(kind) { x } else { x.f_real()? };
    Ok(SylvesterSolution { x: x.f_to_kind(kind)?.f_contiguous()?, perturbed })
}

fn square_named(x: &Tensor, message: String) -> Result<i64> {
    if x.dim() < 2 || x.size()[x.dim() - 1] != x.size()[x.dim() - 2] {
        return Err(invalid(message));
    }
    Ok(x.size()[x.dim() - 1])
}

/// `scipy.linalg.solve_sylvester`: `X` with `A X + X B = Q` for `(..., M, M)`
/// `a`, `(..., N, N)` `b`, `(..., M, N)` `q` (batches broadcast), in the
/// LAPACK type of the three (float32 stays float32).
pub fn solve_sylvester(a: &Tensor, b: &Tensor, q: &Tensor) -> Result<SylvesterSolution> {
    check_finite_all(true, &[a, b, q])?;
    let m = square_named(a, "expected square matrix".into())?;
    let n = square_named(b, "expected square matrix".into())?;
    let qs = q.size();
    if q.dim() < 2 || qs[qs.len() - 2] != m || qs[qs.len() - 1] != n {
        return Err(invalid(format!("q must be of shape ({m}, {n}), got {qs:?}")));
    }
    let kind = lapack_kind(&[schur_dtype(dtype(a)?), schur_dtype(dtype(b)?), dtype(q)?]);
    sylvester(a, b, q, kind)
}

/// `scipy.linalg.solve_continuous_lyapunov`: `X` with `A X + X A^H = Q`
/// (`solve_sylvester(a, a^H, q)`, as SciPy's `?trsyl` call), batched; the
/// LAPACK type of `a` and `q`. `perturbed`: SciPy's RuntimeWarning case.
pub fn solve_continuous_lyapunov(a: &Tensor, q: &Tensor) -> Result<SylvesterSolution> {
    let (a, q) = (atleast_2d(a)?, atleast_2d(q)?);
    check_finite_all(true, &[&a, &q])?;
    square_named(&a, "Matrix a should be square.".into())?;
    square_named(&q, "Matrix q should be square.".into())?;
    if a.size()[a.dim() - 2..] != q.size()[q.dim() - 2..] {
        return Err(invalid("Matrix a and q should have the same shape."));
    }
    let kind = lapack_kind(&[schur_dtype(dtype(&a)?), dtype(&q)?]);
    let ah = mh(&a)?;
    sylvester(&a, &ah, &q, kind)
}

/// `solve_discrete_lyapunov`'s `method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscreteLyapunovMethod {
    /// `'direct'`: the `n^2 x n^2` Kronecker system.
    Direct,
    /// `'bilinear'`: the bilinear transformation to a continuous equation.
    Bilinear,
}

/// `scipy.linalg.solve_discrete_lyapunov`: `X` with `A X A^H - X + Q = 0`,
/// batched, float64/complex128 as SciPy (its identity matrices are float64).
/// `method = None` is SciPy's choice (`Direct` below order 10). Returns the
/// solution and the smallest reciprocal condition number of the solves
/// (SciPy's `solve` warns for it).
pub fn solve_discrete_lyapunov(
    a: &Tensor,
    q: &Tensor,
    method: Option<DiscreteLyapunovMethod>,
) -> Result<(Tensor, Tensor)> {
    let n = a.size().get(a.dim().wrapping_sub(2)).copied().unwrap_or(0);
    let method = method.unwrap_or(if a.dim() >= 2 && n >= 10 {
        DiscreteLyapunovMethod::Bilinear
    } else {
        DiscreteLyapunovMethod::Direct
    });
    let complex = dtype(a)?.is_complex() || dtype(q)?.is_complex();
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let (a, q) = (cast(a, kind)?, cast(q, kind)?);
    let n = square_named(&a, "expected square matrix".into())?;
    let device = a.device();
    match method {
        DiscreteLyapunovMethod::Direct => {
            // lhs = I - kron(a, conj(a)), x = solve(lhs, q.flatten())
            let batch = broadcast_shapes(&[&batch_of(&a, 2), &batch_of(&q, 2)])?;
            let a = a.f_broadcast_to(concat(&batch, &[n, n]).as_slice())?;
            let ac = a.f_conj()?.f_resolve_conj()?;
            let kron = a.f_unsqueeze(-1)?.f_unsqueeze(-1)?.f_mul(&ac.f_unsqueeze(-3)?.f_unsqueeze(-3)?)?;
            let kron = kron.f_permute(
                concat(
                    &(0..batch.len() as i64).collect::<Vec<_>>(),
                    &[batch.len() as i64, batch.len() as i64 + 2, batch.len() as i64 + 1, batch.len() as i64 + 3],
                )
                .as_slice(),
            )?;
            let kron = kron.f_reshape(concat(&batch, &[n * n, n * n]).as_slice())?;
            let lhs = Tensor::f_eye(n * n, (kind, device))?.f_sub(&kron)?;
            let qs = q.size();
            let rhs = q.f_reshape(concat(&batch_of(&q, 2), &[qs[qs.len() - 2] * qs[qs.len() - 1], 1]).as_slice())?;
            let options = SolveOptions { check_finite: CheckFinite::No, ..Default::default() };
            let Solved { x, rcond } = solve(&lhs, &rhs, &options)?;
            let xs = x.size();
            let shape = concat(&xs[..xs.len() - 2], &[qs[qs.len() - 2], qs[qs.len() - 1]]);
            Ok((x.f_reshape(shape.as_slice())?, rcond))
        }
        DiscreteLyapunovMethod::Bilinear => {
            let eye = Tensor::f_eye(n, (kind, device))?;
            let ah = mh(&a)?;
            let options = InvOptions { check_finite: CheckFinite::No, ..Default::default() };
            let Solved { x: ahi_inv, rcond: r1 } = inv(&ah.f_add(&eye)?, &options)?;
            let b = ah.f_sub(&eye)?.f_matmul(&ahi_inv)?;
            let Solved { x: ai_inv, rcond: r2 } = inv(&a.f_add(&eye)?, &options)?;
            let c = ai_inv.f_matmul(&q)?.f_matmul(&ahi_inv)?.f_mul_scalar(2.0)?;
            let x = solve_continuous_lyapunov(&mh(&b)?, &c.f_neg()?)?.x;
            Ok((x, r1.f_minimum(&r2)?))
        }
    }
}
