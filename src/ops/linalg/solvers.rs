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
use super::decomp_schur::{complex_schur_of, schur, Schur, SchurOptions, SchurOutput, SchurSort};
use super::dtypes::*;
use super::host;
use super::lapack::{gebal, Dense, Scalar, C64};
use super::shapes::*;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::{broadcast_shapes, check_finite_all};
use crate::{DType, Error, Result};

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
    check_finite_all(true, &[&a, &q])?; // SciPy's solves check, with no way to turn it off
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

/// Which algebraic Riccati equation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Riccati {
    /// `solve_continuous_are`.
    Continuous,
    /// `solve_discrete_are`.
    Discrete,
}

/// The inputs of the Riccati solvers (`e`, `s` optional, SciPy's defaults:
/// the identity and zeros).
pub struct AreInput<'a> {
    /// `a` (`(..., M, M)`).
    pub a: &'a Tensor,
    /// `b` (`(..., M, N)`).
    pub b: &'a Tensor,
    /// `q` (`(..., M, M)`, Hermitian).
    pub q: &'a Tensor,
    /// `r` (`(..., N, N)`, Hermitian).
    pub r: &'a Tensor,
    /// `e` (`(..., M, M)`, nonsingular).
    pub e: Option<&'a Tensor>,
    /// `s` (`(..., M, N)`).
    pub s: Option<&'a Tensor>,
}

/// NumPy's `spacing` of a non-negative float64.
fn spacing(x: f64) -> f64 {
    let a = x.abs();
    f64::from_bits(a.to_bits() + 1) - a
}

/// The values of a (batch of) real scalars on the host.
fn host_values(t: &Tensor) -> Result<Vec<f64>> {
    let t = t.f_to_kind(Kind::Double)?.f_to(tch::Device::Cpu)?.f_contiguous()?.f_reshape([-1i64].as_slice())?;
    let mut out = filled(t.numel(), 0f64, "the Riccati checks")?;
    t.f_copy_data(&mut out, t.numel())?;
    Ok(out)
}

fn last2(x: &Tensor) -> (i64, i64) {
    let s = x.size();
    (s[s.len() - 2], s[s.len() - 1])
}

/// [`are_validate`]'s result: `[a, b, q, r]`, `e`, `s`, `m`, `n`.
type AreArrays = (Vec<Tensor>, Option<Tensor>, Option<Tensor>, i64, i64);

/// SciPy's `_are_validate_args`: finite, at least 2-D, square, consistent
/// shapes, Hermitian `q` and `r`, nonsingular `r` (continuous) and `e`.
/// Returns the arrays cast to float64/complex128, batches broadcast, and
/// `(m, n)`.
fn are_validate(input: &AreInput<'_>, which: Riccati) -> Result<AreArrays> {
    let mut present: Vec<&Tensor> = vec![input.a, input.b, input.q, input.r];
    present.extend(input.e);
    present.extend(input.s);
    check_finite_all(true, &present)?;
    // SciPy's own refusals: NumPy has no boolean negative or subtract (its symmetry check, `-q`, `-a^H`,
    // `-s`), and its CARE's singular-value check of `r` refuses float16.
    let routine = match which {
        Riccati::Continuous => "linalg.solve_continuous_are",
        Riccati::Discrete => "linalg.solve_discrete_are",
    };
    let mut negated = vec![input.q, input.r];
    if which == Riccati::Continuous {
        negated.push(input.a);
    }
    negated.extend(input.s);
    for t in negated {
        if dtype(t)? == DType::Bool {
            return Err(Error::DtypeNotAccepted { routine, dtype: DType::Bool, accepted: "numeric input" });
        }
    }
    if which == Riccati::Continuous && matches!(dtype(input.r)?, DType::Float16 | DType::BFloat16) {
        return Err(Error::DtypeNotAccepted {
            routine,
            dtype: dtype(input.r)?,
            accepted: "r of single or double precision",
        });
    }
    let complex = present.iter().map(|t| dtype(t)).collect::<Result<Vec<_>>>()?.iter().any(|d| d.is_complex());
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let prepare = |t: &Tensor| -> Result<Tensor> { cast(&atleast_2d(t)?, kind) };
    let (a, b, q, r) = (prepare(input.a)?, prepare(input.b)?, prepare(input.q)?, prepare(input.r)?);
    for (name, mat) in [("a", &a), ("q", &q), ("r", &r)] {
        let (rows, cols) = last2(mat);
        if rows != cols {
            return Err(invalid(format!("Matrix {name} should be square.")));
        }
    }
    let (m, n) = last2(&b);
    if m != last2(&a).0 {
        return Err(invalid("Matrix a and b should have the same number of rows."));
    }
    if m != last2(&q).0 {
        return Err(invalid("Matrix a and q should have the same shape."));
    }
    if n != last2(&r).0 {
        return Err(invalid("Matrix b and r should have the same number of cols."));
    }
    for (name, mat) in [("q", &q), ("r", &r)] {
        let asym = host_values(&norm1(&mat.f_sub(&mh(mat)?)?)?)?;
        let size = host_values(&norm1(mat)?)?;
        if asym.iter().zip(&size).any(|(d, s)| *d > spacing(*s) * 100.0) {
            return Err(invalid(format!("Matrix {name} should be symmetric/hermitian.")));
        }
    }
    let singular = |mat: &Tensor| -> Result<bool> {
        if mat.numel() == 0 {
            return Ok(false);
        }
        let sv = host_values(&mat.f_svd(true, false)?.1.f_amin([-1i64].as_slice(), false)?)?;
        let size = host_values(&norm1(mat)?)?;
        Ok(sv.iter().zip(&size).any(|(v, s)| *v == 0.0 || *v < f64::EPSILON * s))
    };
    if which == Riccati::Continuous && singular(&r)? {
        return Err(invalid("Matrix r is numerically singular."));
    }
    let e = match input.e {
        Some(e) => {
            let e = prepare(e)?;
            let (rows, cols) = last2(&e);
            if rows != cols {
                return Err(invalid("Matrix e should be square."));
            }
            if m != rows {
                return Err(invalid("Matrix a and e should have the same shape."));
            }
            if singular(&e)? {
                return Err(invalid("Matrix e is numerically singular."));
            }
            Some(e)
        }
        None => None,
    };
    let s = match input.s {
        Some(s) => {
            let s = prepare(s)?;
            if last2(&s) != (m, n) {
                return Err(invalid("Matrix b and s should have the same shape."));
            }
            Some(s)
        }
        None => None,
    };
    let mut batches = vec![batch_of(&a, 2), batch_of(&b, 2), batch_of(&q, 2), batch_of(&r, 2)];
    batches.extend(e.iter().map(|e| batch_of(e, 2)));
    batches.extend(s.iter().map(|s| batch_of(s, 2)));
    let batch = broadcast_shapes(&batches.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
    let expand = |t: &Tensor| -> Result<Tensor> {
        let (rows, cols) = last2(t);
        Ok(t.f_broadcast_to(concat(&batch, &[rows, cols]).as_slice())?)
    };
    let e = e.map(|e| expand(&e)).transpose()?;
    let s = s.map(|s| expand(&s)).transpose()?;
    Ok((vec![expand(&a)?, expand(&b)?, expand(&q)?, expand(&r)?], e, s, m, n))
}

/// LAPACK's `?gebal` scaling (no permutation) of each matrix of the
/// non-negative real stack `m` (`(..., k, k)`), as float64 `(..., k)`.
fn balance_scaling(m: &Tensor) -> Result<Tensor> {
    let k = last2(m).1;
    let size = k as usize;
    let mut scalings = Vec::new();
    for mat in host::real_mats(m)? {
        let mut work: Vec<[f64; 2]> = mat.data.iter().map(|&v| [v, 0.0]).collect();
        let (_, _, ps) = gebal(&mut work, size, false, true, false)?;
        scalings.extend(ps);
    }
    Ok(Tensor::f_from_slice(&scalings)?.f_reshape(concat(&batch_of(m, 2), &[k]).as_slice())?.f_to(m.device())?)
}

/// The Riccati solvers, after SciPy's `_solve_continuous_are` /
/// `_solve_discrete_are`: the extended pencil `H - lambda J` (balanced as
/// SciPy balances it), deflated to `2m x 2m` by the QR decomposition of its
/// last `n` columns; then the stable deflating subspace. SciPy takes it from
/// the ordered QZ decomposition; here from the ordered complex Schur form of
/// `J2^-1 H2` (continuous: eigenvalues in the left half plane) or of the
/// Cayley transform `(H2 + J2)^-1 (H2 - J2)` (discrete: eigenvalues inside
/// the unit circle become those in the left half plane), which has the same
/// invariant subspace. `X = U10 (E U00)^-1`, with SciPy's checks.
fn riccati(input: &AreInput<'_>, balanced: bool, which: Riccati) -> Result<Tensor> {
    let (mats, e, s, m, n) = are_validate(input, which)?;
    let (a, b, q, r) = (&mats[0], &mats[1], &mats[2], &mats[3]);
    let kind = a.kind();
    let device = a.device();
    let batch = batch_of(a, 2);
    let zeros = |rows: i64, cols: i64| Tensor::f_zeros(concat(&batch, &[rows, cols]).as_slice(), (kind, device));
    let identity =
        || -> Result<Tensor> { Ok(eye(m, kind, device)?.f_expand(concat(&batch, &[m, m]).as_slice(), false)?) };
    let (s_block, sh_block) = match &s {
        Some(s) => (s.f_neg()?, mh(s)?),
        None => (zeros(m, n)?, zeros(n, m)?),
    };
    let e_mat = match &e {
        Some(e) => e.shallow_clone(),
        None => identity()?,
    };
    let row = |blocks: &[Tensor]| -> Result<Tensor> { Ok(Tensor::f_cat(blocks, -1)?) };
    let (h, j) = match which {
        Riccati::Continuous => {
            let h = Tensor::f_cat(
                &[
                    row(&[a.shallow_clone(), zeros(m, m)?, b.shallow_clone()])?,
                    row(&[q.f_neg()?, mh(a)?.f_neg()?, s_block])?,
                    row(&[sh_block, mh(b)?, r.shallow_clone()])?,
                ],
                -2,
            )?;
            let j = Tensor::f_cat(
                &[
                    row(&[e_mat.shallow_clone(), zeros(m, m)?, zeros(m, n)?])?,
                    row(&[zeros(m, m)?, mh(&e_mat)?, zeros(m, n)?])?,
                    zeros(n, 2 * m + n)?,
                ],
                -2,
            )?;
            (h, j)
        }
        Riccati::Discrete => {
            let h = Tensor::f_cat(
                &[
                    row(&[a.shallow_clone(), zeros(m, m)?, b.shallow_clone()])?,
                    row(&[q.f_neg()?, mh(&e_mat)?, s_block])?,
                    row(&[sh_block, zeros(n, m)?, r.shallow_clone()])?,
                ],
                -2,
            )?;
            let j = Tensor::f_cat(
                &[
                    row(&[e_mat.shallow_clone(), zeros(m, m)?, zeros(m, n)?])?,
                    row(&[zeros(m, m)?, mh(a)?, zeros(m, n)?])?,
                    row(&[zeros(n, m)?, mh(b)?.f_neg()?, zeros(n, n)?])?,
                ],
                -2,
            )?;
            (h, j)
        }
    };
    let (mut h, mut j) = (h, j);
    let mut sca_m: Option<Tensor> = None;
    if balanced {
        let size = 2 * m + n;
        let off = Tensor::f_ones([size, size].as_slice(), (Kind::Double, device))?
            .f_sub(&Tensor::f_eye(size, (Kind::Double, device))?)?;
        let mags = h.f_abs()?.f_to_kind(Kind::Double)?.f_add(&j.f_abs()?.f_to_kind(Kind::Double)?)?.f_mul(&off)?;
        let sca = balance_scaling(&mags)?.f_log2()?;
        let top = sca.f_narrow(-1, 0, m)?;
        let mid = sca.f_narrow(-1, m, m)?;
        let half = mid.f_sub(&top)?.f_div_scalar(2.0)?.f_round()?;
        let exps = Tensor::f_cat(&[half.shallow_clone(), half.f_neg()?, sca.f_narrow(-1, 2 * m, n)?], -1)?;
        let sca = Tensor::f_full([1i64].as_slice(), 2.0, (Kind::Double, device))?.f_pow(&exps)?;
        let scale = sca.f_unsqueeze(-1)?.f_div(&sca.f_unsqueeze(-2)?)?.f_to_kind(kind)?;
        h = h.f_mul(&scale)?;
        j = j.f_mul(&scale)?;
        sca_m = Some(sca.f_narrow(-1, 0, m)?);
    }
    // deflate to 2m x 2m
    let (qf, _) = Tensor::f_linalg_qr(&h.f_narrow(-1, 2 * m, n)?, "complete")?;
    let qn = mh(&qf.f_narrow(-1, n, 2 * m)?)?;
    let h2 = qn.f_matmul(&h.f_narrow(-1, 0, 2 * m)?)?;
    let j2 = qn.f_matmul(&j.f_narrow(-1, 0, 2 * m)?)?;
    let wide = Kind::ComplexDouble;
    let (lhs, rhs) = match which {
        Riccati::Continuous => (j2, h2),
        Riccati::Discrete => (h2.f_add(&j2)?, h2.f_sub(&j2)?),
    };
    let (pencil, info) = Tensor::f_linalg_solve_ex(&lhs.f_to_kind(wide)?, &rhs.f_to_kind(wide)?, true, false)?;
    if any(&info.f_gt(0)?)? {
        return Err(Error::LinAlg("Failed to find a finite solution.".into()));
    }
    let options =
        SchurOptions { output: SchurOutput::Complex, sort: Some(SchurSort::Lhp), check_finite: CheckFinite::No };
    let Schur { z, sdim, .. } = schur(&pencil, &options)?;
    let close = match which {
        Riccati::Continuous => "The associated Hamiltonian pencil has eigenvalues too close to the imaginary axis",
        Riccati::Discrete => "The associated symplectic pencil has eigenvalues too close to the unit circle",
    };
    if sdim.unwrap_or_default().iter().any(|&k| k != m) {
        return Err(Error::LinAlg(close.into()));
    }
    let mut u = z.f_narrow(-1, 0, m)?;
    if let Some(e) = &e {
        let top = e.f_to_kind(wide)?.f_matmul(&u.f_narrow(-2, 0, m)?)?;
        let stacked = Tensor::f_cat(&[top, u.f_narrow(-2, m, m)?], -2)?;
        u = Tensor::f_linalg_qr(&stacked, "reduced")?.0;
    }
    let u00 = u.f_narrow(-2, 0, m)?;
    let u10 = u.f_narrow(-2, m, m)?;
    let (_, _, uu) = Tensor::f_linalg_lu(&u00, true)?;
    let sv = uu.f_svd(true, false)?.1;
    let rcond = sv.f_amin([-1i64].as_slice(), false)?.f_div(&sv.f_amax([-1i64].as_slice(), false)?)?;
    if host_values(&rcond)?.iter().any(|&v| v.is_nan() || v < f64::EPSILON) {
        return Err(Error::LinAlg("Failed to find a finite solution.".into()));
    }
    let mut x = Tensor::f_linalg_solve(&u00, &u10, false)?;
    if let Some(sca) = sca_m {
        x = x.f_mul(&sca.f_unsqueeze(-1)?.f_mul(&sca.f_unsqueeze(-2)?)?.f_to_kind(wide)?)?;
    }
    let u_sym = mh(&u00)?.f_matmul(&u10)?;
    let size = host_values(&norm1(&u_sym)?)?;
    let asym = host_values(&norm1(&u_sym.f_sub(&mh(&u_sym)?)?)?)?;
    if asym.iter().zip(&size).any(|(d, s)| *d > spacing(1000.0).max(0.1 * s)) {
        return Err(Error::LinAlg(close.into()));
    }
    let x = x.f_add(&mh(&x)?)?.f_div_scalar(2.0)?;
    let x = if is_complex_kind(kind) { x } else { x.f_real()? };
    Ok(x.f_to_kind(kind)?.f_contiguous()?)
}

/// `scipy.linalg.solve_continuous_are`: the stabilizing solution `X` of
/// `A^H X E + E^H X A - (E^H X B + S) R^-1 (B^H X E + S^H) + Q = 0`
/// (`e`: the identity, `s`: zeros when absent), batched; float64 or
/// complex128. Raises [`Error::LinAlg`] where SciPy does (no stabilizing
/// solution found).
pub fn solve_continuous_are(input: &AreInput<'_>, balanced: bool) -> Result<Tensor> {
    riccati(input, balanced, Riccati::Continuous)
}

/// `scipy.linalg.solve_discrete_are`: the stabilizing solution `X` of
/// `A^H X A - E^H X E - (A^H X B + S) (R + B^H X B)^-1 (B^H X A + S^H) + Q = 0`,
/// batched; float64 or complex128 (see [`solve_continuous_are`]).
pub fn solve_discrete_are(input: &AreInput<'_>, balanced: bool) -> Result<Tensor> {
    riccati(input, balanced, Riccati::Discrete)
}
