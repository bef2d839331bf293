//! `scipy.linalg._decomp_qz`: `qz` and `ordqz`, and the generalized
//! eigenproblem of `eig`/`eigvals` (`b` given) computed from the same form.
//!
//! libtorch has no QZ algorithm: the matrices are copied to the host (an
//! explicit copy for CUDA input, and back), `B` is QR-factored and the pencil
//! reduced to Hessenberg-triangular form (`?gghrd`), then iterated to the
//! complex generalized Schur form by LAPACK's single-shift QZ (`zhgeqz`),
//! reordered by `ztgexc` swaps and its eigenvectors computed by `ztgevc`
//! (ports in `lapack/qz.rs`), in complex128 whatever the input precision.
//! `output='real'` for real input gives the real generalized Schur form
//! (1x1 and 2x2 blocks, `dhgeqz` with Moler-Stewart double-shift sweeps,
//! reordered by `dtgexc`-style block swaps: `lapack/qz_real.rs`), in float64.

use tch::{Kind, Tensor};

use super::decomp::{Eig, EigOptions};
use super::dtypes::*;
use super::host;
use super::lapack::{
    block_size, gghrd, hgeqz_complex, hgeqz_real, normalize_beta, real_eigenvalues, tgevc_complex, tgexc_complex,
    tgexc_real, Dense, Scalar, C64,
};
use super::shapes::*;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::{broadcast_shapes, check_finite_all};
use crate::{DType, Error, Result};

/// The complex generalized Schur form of one pencil: `(AA, BB, Q, Z)`
/// with `a = Q AA Z^H`, `b = Q BB Z^H`, `BB`'s diagonal real and non-negative.
pub(crate) fn complex_qz_host(a: &Dense<C64>, b: &Dense<C64>) -> Result<[Dense<C64>; 4]> {
    let (mut s, mut p) = (a.clone(), b.clone());
    let (mut q, mut z) = (Dense::identity(a.n), Dense::identity(a.n));
    gghrd(&mut s, &mut p, &mut q, &mut z);
    hgeqz_complex(&mut s, &mut p, &mut q, &mut z)
        .map_err(|_| Error::LinAlg("The QZ iteration failed: (A, B) are not in Schur form".into()))?;
    Ok([s, p, q, z])
}

/// `qz`'s and `ordqz`'s `output`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QzOutput {
    /// `'real'` (`'r'`).
    #[default]
    Real,
    /// `'complex'` (`'c'`).
    Complex,
}

impl std::str::FromStr for QzOutput {
    type Err = Error;

    fn from_str(output: &str) -> Result<QzOutput> {
        match output {
            "real" | "r" => Ok(QzOutput::Real),
            "complex" | "c" => Ok(QzOutput::Complex),
            _ => Err(invalid("argument must be 'real', or 'complex'")),
        }
    }
}

/// SciPy's sort callable: all `(re, im)` of `alpha`, then of `beta`, to one boolean each.
pub type QzSelect<'a> = &'a (dyn Fn(&[(f64, f64)], &[(f64, f64)]) -> Result<Vec<bool>> + Sync);

/// `ordqz`'s `sort`: which eigenvalues `alpha / beta` go to the leading block.
pub enum QzSort<'a> {
    /// `'lhp'`: `re(alpha / beta) < 0` (`beta != 0`).
    Lhp,
    /// `'rhp'`: `re(alpha / beta) > 0` (`beta != 0`).
    Rhp,
    /// `'iuc'`: `|alpha / beta| < 1` (`beta != 0`).
    Iuc,
    /// `'ouc'`: `|alpha / beta| > 1`, or `beta = 0 != alpha`.
    Ouc,
    /// SciPy's callable, given all `(alpha, beta)` of one pencil at once.
    Custom(QzSelect<'a>),
}

impl QzSort<'_> {
    fn select(&self, alpha: &[C64], beta: &[C64]) -> Result<Vec<bool>> {
        let zero = C64::default();
        let each = |f: &dyn Fn(C64, C64) -> bool| alpha.iter().zip(beta).map(|(&a, &b)| f(a, b)).collect();
        Ok(match self {
            QzSort::Lhp => each(&|a, b| b != zero && (a / b).re < 0.0),
            QzSort::Rhp => each(&|a, b| b != zero && (a / b).re > 0.0),
            QzSort::Iuc => each(&|a, b| b != zero && (a / b).abs() < 1.0),
            QzSort::Ouc => each(&|a, b| if b == zero { a != zero } else { (a / b).abs() > 1.0 }),
            QzSort::Custom(f) => {
                let pairs = |v: &[C64]| v.iter().map(|c| (c.re, c.im)).collect::<Vec<_>>();
                let chosen = f(&pairs(alpha), &pairs(beta))?;
                if chosen.len() != alpha.len() {
                    return Err(invalid("the sort callable must return one boolean per eigenvalue"));
                }
                chosen
            }
        })
    }
}

/// The options of [`qz`] and [`ordqz`].
#[derive(Default)]
pub struct QzOptions<'a> {
    /// `output`.
    pub output: QzOutput,
    /// `ordqz`'s `sort` (`None` for `qz`).
    pub sort: Option<QzSort<'a>>,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `(A, B) = (Q AA Z^H, Q BB Z^H)` ([`qz`]'s result; `alpha`, `beta` for [`ordqz`]).
pub struct Qz {
    /// `AA`.
    pub aa: Tensor,
    /// `BB`.
    pub bb: Tensor,
    /// `alpha` (`ordqz`): `AA`'s diagonal (the real form: complex, `alphar + i
    /// alphai`, each 2x2 block's eigenvalues times `BB`'s diagonal there).
    pub alpha: Tensor,
    /// `beta` (`ordqz`): `BB`'s diagonal.
    pub beta: Tensor,
    /// `Q`: unitary.
    pub q: Tensor,
    /// `Z`: unitary.
    pub z: Tensor,
}

/// The two square inputs checked as SciPy's `_qz` checks them and broadcast
/// over their batch dimensions.
fn square_pair(a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor, Vec<i64>, i64)> {
    let dims = |x: &Tensor| if x.dim() >= 2 { Some((x.size()[x.dim() - 2], x.size()[x.dim() - 1])) } else { None };
    let (Some((am, an)), Some((bm, bn))) = (dims(a), dims(b)) else {
        return Err(invalid("Array dimensions must be square and agree"));
    };
    if !(am == an && an == bm && bm == bn) {
        return Err(invalid("Array dimensions must be square and agree"));
    }
    let batch = broadcast_shapes(&[&batch_of(a, 2), &batch_of(b, 2)])?;
    let full = concat(&batch, &[an, an]);
    Ok((a.f_broadcast_to(full.as_slice())?, b.f_broadcast_to(full.as_slice())?, batch, an))
}

/// The complex type SciPy's `_qz` computes in: with `output='complex'`
/// each real input made complex128 (int32, int64, float64) or complex64
/// (any other), then the wider of the two; with `output='real'` (complex
/// input) NumPy's result type of the two.
fn qz_kind(da: DType, db: DType, output: QzOutput) -> Kind {
    let double = |d: DType| match d {
        DType::Complex128 | DType::Float64 | DType::Int32 | DType::Int64 => true,
        DType::Complex64 => false,
        // NumPy's result type with a complex64 partner
        d if output == QzOutput::Real => matches!(d, DType::UInt32 | DType::UInt64),
        _ => false,
    };
    if double(da) || double(db) {
        Kind::ComplexDouble
    } else {
        Kind::ComplexFloat
    }
}

/// `scipy.linalg.qz` (`sort = None`) and `scipy.linalg.ordqz` (`sort`
/// given): the generalized Schur decomposition `(A, B) = (Q AA Z^H, Q BB
/// Z^H)` of square `(..., n, n)` pencils, batched over the leading
/// dimensions. The complex form (`output = Complex`, or complex input):
/// `AA` upper triangular, `BB` upper triangular with a real non-negative
/// diagonal; the real form (`output = Real`, real input): `AA`
/// quasi-upper triangular (2x2 blocks for complex pairs), `BB` upper
/// triangular with a non-negative diagonal, diagonal under each 2x2 block.
/// `ordqz` moves the selected eigenvalues to the leading block (`ztgexc`
/// swaps, or `dtgexc`-style block swaps, the others keeping their order).
pub fn qz(a: &Tensor, b: &Tensor, options: &QzOptions<'_>) -> Result<Qz> {
    let (a, b, batch, n) = square_pair(a, b)?;
    let (da, db) = (dtype(&a)?, dtype(&b)?);
    let complex_in = da.is_complex() || db.is_complex();
    check_finite_all(options.check_finite.enabled(), &[&a, &b])?;
    if options.output == QzOutput::Real && !complex_in {
        return real_qz(&a, &b, &batch, n, [da, db], options);
    }
    let kind = qz_kind(da, db, options.output);
    let device = a.device();
    let count = batch.iter().product::<i64>().max(0) as usize;
    let (mut aas, mut bbs, mut qs, mut zs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut alphas, mut betas) = (Vec::new(), Vec::new());
    if n > 0 && count > 0 {
        let (ams, bms) = (host::complex_mats(&a)?, host::complex_mats(&b)?);
        for (am, bm) in ams.iter().zip(&bms) {
            let [mut s, mut p, mut q, mut z] = complex_qz_host(am, bm)?;
            if let Some(sort) = &options.sort {
                let alpha: Vec<C64> = (0..s.n).map(|k| s.at(k, k)).collect();
                let beta: Vec<C64> = (0..s.n).map(|k| p.at(k, k)).collect();
                let chosen = sort.select(&alpha, &beta)?;
                let mut ks = 0;
                for (k, &pick) in chosen.iter().enumerate() {
                    if pick {
                        tgexc_complex(&mut s, &mut p, &mut q, &mut z, k, ks);
                        ks += 1;
                    }
                }
                normalize_beta(&mut s, &mut p, &mut q);
            }
            alphas.extend((0..s.n).map(|k| s.at(k, k)));
            betas.extend((0..s.n).map(|k| p.at(k, k)));
            aas.push(s);
            bbs.push(p);
            qs.push(q);
            zs.push(z);
        }
    }
    let vector = |v: &[C64]| -> Result<Tensor> {
        let flat: Vec<f64> = v.iter().flat_map(|c| [c.re, c.im]).collect();
        let t = Tensor::f_from_slice(&flat)?.f_reshape(concat(&batch, &[n, 2]).as_slice())?.f_view_as_complex()?;
        Ok(t.f_to_kind(kind)?.f_to(device)?)
    };
    let mats = |m: &[Dense<C64>]| -> Result<Tensor> {
        if m.is_empty() {
            return Ok(Tensor::f_zeros(concat(&batch, &[n, n]).as_slice(), (kind, device))?);
        }
        host::from_complex(m, &batch, kind, device)
    };
    Ok(Qz {
        aa: mats(&aas)?,
        bb: mats(&bbs)?,
        alpha: vector(&alphas)?,
        beta: vector(&betas)?,
        q: mats(&qs)?,
        z: mats(&zs)?,
    })
}

/// The real generalized Schur form of one real pencil: `(AA, BB, Q, Z)`
/// with `a = Q AA Z^T`, `b = Q BB Z^T` (`AA` quasi-upper triangular, `BB`
/// upper triangular with a non-negative diagonal, diagonal under each 2x2
/// block of `AA`).
pub(crate) fn real_qz_host(a: &Dense<f64>, b: &Dense<f64>) -> Result<[Dense<f64>; 4]> {
    let (mut s, mut p) = (a.clone(), b.clone());
    let (mut q, mut z) = (Dense::identity(a.n), Dense::identity(a.n));
    gghrd(&mut s, &mut p, &mut q, &mut z);
    hgeqz_real(&mut s, &mut p, &mut q, &mut z)
        .map_err(|_| Error::LinAlg("The QZ iteration failed: (A, B) are not in Schur form".into()))?;
    Ok([s, p, q, z])
}

/// [`qz`] for real input with `output = Real`: float64 on the host, the
/// result float32 where SciPy's `?gges` would be `sgges` (every input of a
/// kind NumPy's BLAS-type lookup scores single), float64 otherwise.
fn real_qz(a: &Tensor, b: &Tensor, batch: &[i64], n: i64, dtypes: [DType; 2], options: &QzOptions<'_>) -> Result<Qz> {
    let double = |d: DType| matches!(d, DType::Float64 | DType::Int32 | DType::Int64 | DType::UInt32 | DType::UInt64);
    let (kind, ckind) = if dtypes.iter().any(|&d| double(d)) {
        (Kind::Double, Kind::ComplexDouble)
    } else {
        (Kind::Float, Kind::ComplexFloat)
    };
    let device = a.device();
    let count = batch.iter().product::<i64>().max(0) as usize;
    let (mut aas, mut bbs, mut qs, mut zs) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut alphas, mut betas) = (Vec::new(), Vec::new());
    if n > 0 && count > 0 {
        let (ams, bms) = (host::real_mats(a)?, host::real_mats(b)?);
        for (am, bm) in ams.iter().zip(&bms) {
            let [mut s, mut p, mut q, mut z] = real_qz_host(am, bm)?;
            if let Some(sort) = &options.sort {
                let eig = real_eigenvalues(&s, &p);
                let alpha: Vec<C64> = eig.iter().map(|&((re, im), _)| C64::new(re, im)).collect();
                let beta: Vec<C64> = eig.iter().map(|&(_, be)| C64::new(be, 0.0)).collect();
                let chosen = sort.select(&alpha, &beta)?;
                // dtgsen: a pair is selected when either of its eigenvalues is
                let mut blocks = Vec::new();
                let mut k = 0;
                while k < s.n {
                    let size = block_size(&s, k);
                    blocks.push((k, size, chosen[k..k + size].iter().any(|&c| c)));
                    k += size;
                }
                // (moving a block up permutes only the positions before its end)
                let mut ks = 0;
                for &(start, size, pick) in &blocks {
                    if pick {
                        tgexc_real(&mut s, &mut p, &mut q, &mut z, start, ks).map_err(|_| {
                            invalid(
                                "Reordering of (A, B) failed because the transformed matrix pair (A, B) would be \
                                 too far from generalized Schur form; the problem is very ill-conditioned",
                            )
                        })?;
                        ks += size;
                    }
                }
            }
            let eig = real_eigenvalues(&s, &p);
            alphas.extend(eig.iter().map(|&((re, im), _)| C64::new(re, im)));
            betas.extend(eig.iter().map(|&(_, be)| be));
            aas.push(s);
            bbs.push(p);
            qs.push(q);
            zs.push(z);
        }
    }
    let alpha = {
        let flat: Vec<f64> = alphas.iter().flat_map(|c| [c.re, c.im]).collect();
        let t = Tensor::f_from_slice(&flat)?.f_reshape(concat(batch, &[n, 2]).as_slice())?.f_view_as_complex()?;
        t.f_to_kind(ckind)?.f_to(device)?
    };
    let beta =
        Tensor::f_from_slice(&betas)?.f_reshape(concat(batch, &[n]).as_slice())?.f_to_kind(kind)?.f_to(device)?;
    let mats = |m: &[Dense<f64>]| host::from_real(m, batch, kind, device);
    Ok(Qz { aa: mats(&aas)?, bb: mats(&bbs)?, alpha, beta, q: mats(&qs)?, z: mats(&zs)? })
}

/// `scipy.linalg.ordqz`: [`qz`] with the eigenvalues `options.sort`
/// selects moved to the leading block (`'lhp'` when not given, SciPy's default).
pub fn ordqz(a: &Tensor, b: &Tensor, options: &QzOptions<'_>) -> Result<Qz> {
    if options.sort.is_none() {
        let options = QzOptions { output: options.output, sort: Some(QzSort::Lhp), check_finite: options.check_finite };
        return qz(a, b, &options);
    }
    qz(a, b, options)
}

/// `scipy.linalg.eig`/`eigvals` of the generalized problem `a v = w b v`
/// (`?ggev`), from the complex generalized Schur form: eigenvalues
/// `alpha / beta` (`inf` where `beta = 0`, `nan` where both vanish), or
/// `(..., 2, n)` homogeneous `(alpha, beta)`; right (`a v = w b v`) and
/// left (`u^H a = w u^H b`) eigenvectors from `ztgevc`, each of unit
/// 2-norm. For real input, eigenvalues whose imaginary part is at rounding
/// level are made real, and their eigenvectors real (all real when every
/// eigenvalue is, as SciPy returns them).
pub fn eig_generalized(a: &Tensor, b: &Tensor, options: &EigOptions) -> Result<Eig> {
    let EigOptions { left, right, homogeneous_eigvals, check_finite } = *options;
    // SciPy's order: a's checks, its empty quick exit (b unread), b's checks
    let na = square("eig", a).map_err(|_| invalid("expected square matrix"))?;
    check_finite_all(check_finite.enabled(), &[a])?;
    if na == 0 {
        return super::decomp::eig(a, options);
    }
    let nb = square("eig", b).map_err(|_| invalid("expected square matrix"))?;
    if na != nb {
        return Err(invalid("a and b must have the same shape"));
    }
    check_finite_all(check_finite.enabled(), &[b])?;
    let (da, db) = (dtype(a)?, dtype(b)?);
    let kind = lapack_kind(&[da, db]);
    let (a, b) = (cast(a, kind)?, cast(b, kind)?);
    let (a, b, batch, n) = square_pair(&a, &b)?;
    let real_in = !is_complex_kind(kind);
    let ckind = complex_kind(kind);
    let device = a.device();
    let count = batch.iter().product::<i64>().max(0) as usize;
    let (mut ws, mut alphas, mut betas) = (Vec::new(), Vec::new(), Vec::new());
    let (mut vls, mut vrs) = (Vec::new(), Vec::new());
    let mut all_real = real_in;
    if n > 0 && count > 0 {
        let (ams, bms) = (host::complex_mats(&a)?, host::complex_mats(&b)?);
        let tol = 64.0 * (n as f64) * f64::EPSILON;
        for (am, bm) in ams.iter().zip(&bms) {
            let [s, p, q, z] = complex_qz_host(am, bm)?;
            let mut real_k = vec![false; n as usize];
            for (k, real) in real_k.iter_mut().enumerate() {
                let (mut al, be) = (s.at(k, k), p.at(k, k));
                if real_in && al.im.abs() <= tol * (al.abs() + be.abs()) {
                    al.im = 0.0;
                    *real = true;
                } else {
                    all_real = false;
                }
                alphas.push(al);
                betas.push(be);
                ws.push(ratio(al, be));
            }
            // SciPy's nan for 0/0: a real nan when every alpha of the pencil is real
            let first = ws.len() - s.n;
            if alphas[first..].iter().all(|a| a.im == 0.0) {
                for w in &mut ws[first..] {
                    if w.re.is_nan() {
                        *w = C64::new(f64::NAN, 0.0);
                    }
                }
            }
            let fix = |mut v: Dense<C64>| {
                for (k, &r) in real_k.iter().enumerate() {
                    if r {
                        realify_column(&mut v, k);
                    }
                }
                v
            };
            if left {
                vls.push(fix(tgevc_complex(&s, &p, &q, true)));
            }
            if right {
                vrs.push(fix(tgevc_complex(&s, &p, &z, false)));
            }
        }
    }
    let vector = |v: &[C64]| -> Result<Tensor> {
        let flat: Vec<f64> = v.iter().flat_map(|c| [c.re, c.im]).collect();
        let t = Tensor::f_from_slice(&flat)?.f_reshape(concat(&batch, &[n, 2]).as_slice())?.f_view_as_complex()?;
        Ok(t.f_to_kind(ckind)?.f_to(device)?)
    };
    let w = if homogeneous_eigvals { Tensor::f_stack(&[vector(&alphas)?, vector(&betas)?], -2)? } else { vector(&ws)? };
    let vkind = if all_real { kind } else { ckind };
    let mats = |m: &[Dense<C64>]| -> Result<Tensor> {
        if m.is_empty() {
            return Ok(Tensor::f_zeros(concat(&batch, &[n, n]).as_slice(), (vkind, device))?);
        }
        host::from_complex(m, &batch, vkind, device)
    };
    Ok(Eig { w, vl: if left { Some(mats(&vls)?) } else { None }, vr: if right { Some(mats(&vrs)?) } else { None } })
}

/// SciPy's `_make_eigvals`: `alpha / beta`, `inf` where only `beta` vanishes,
/// `nan + nan j` where both do (made `nan` by the caller when every alpha is real).
fn ratio(a: C64, b: C64) -> C64 {
    let zero = C64::default();
    if b != zero {
        a / b
    } else if a != zero {
        C64::new(f64::INFINITY, 0.0)
    } else {
        C64::new(f64::NAN, f64::NAN)
    }
}

/// Column `k` of `v` turned real: multiplied by the conjugate phase of its
/// largest entry, its imaginary parts (rounding errors then) dropped.
fn realify_column(v: &mut Dense<C64>, k: usize) {
    let n = v.n;
    let (mut best, mut pivot) = (0.0, C64::new(1.0, 0.0));
    for r in 0..n {
        if v.at(r, k).abs() > best {
            best = v.at(r, k).abs();
            pivot = v.at(r, k);
        }
    }
    let phase = if best > 0.0 { pivot.scale(1.0 / best).conj() } else { C64::new(1.0, 0.0) };
    let mut norm = 0f64;
    for r in 0..n {
        let x = v.at(r, k) * phase;
        *v.at_mut(r, k) = C64::new(x.re, 0.0);
        norm = norm.hypot(x.re);
    }
    if norm > 0.0 {
        for r in 0..n {
            *v.at_mut(r, k) = v.at(r, k).scale(1.0 / norm);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mat(n: usize, seed: u64) -> Dense<C64> {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        Dense { n, data: (0..n * n).map(|_| C64::new(next(), next())).collect() }
    }

    fn residual(a: &Dense<C64>, q: &Dense<C64>, s: &Dense<C64>, z: &Dense<C64>) -> f64 {
        let n = a.n;
        let mut worst = 0f64;
        for i in 0..n {
            for j in 0..n {
                let mut acc = C64::default();
                for k in 0..n {
                    for l in 0..n {
                        acc += q.at(i, k) * s.at(k, l) * z.at(j, l).conj();
                    }
                }
                worst = worst.max((acc - a.at(i, j)).abs());
            }
        }
        worst
    }

    #[test]
    fn complex_qz_reconstructs() {
        for n in [1usize, 2, 3, 6, 12] {
            let (a, mut b) = (mat(n, 1 + n as u64), mat(n, 100 + n as u64));
            if n > 2 {
                // a singular b: an infinite eigenvalue
                for j in 0..n {
                    *b.at_mut(n - 1, j) = b.at(0, j);
                }
            }
            let [s, p, q, z] = complex_qz_host(&a, &b).unwrap();
            assert!(residual(&a, &q, &s, &z) < 1e-12, "n={n}");
            assert!(residual(&b, &q, &p, &z) < 1e-12, "n={n}");
            for i in 0..n {
                for j in 0..i {
                    assert!(s.at(i, j).abs() < 1e-13 && p.at(i, j).abs() < 1e-13);
                }
                assert!(p.at(i, i).im == 0.0 && p.at(i, i).re >= 0.0);
            }
        }
    }

    #[test]
    fn reorder_keeps_the_pencil() {
        let n = 7;
        let (a, b) = (mat(n, 7), mat(n, 8));
        let [mut s, mut p, mut q, mut z] = complex_qz_host(&a, &b).unwrap();
        tgexc_complex(&mut s, &mut p, &mut q, &mut z, 5, 0);
        tgexc_complex(&mut s, &mut p, &mut q, &mut z, 2, 6);
        normalize_beta(&mut s, &mut p, &mut q);
        assert!(residual(&a, &q, &s, &z) < 1e-12);
        assert!(residual(&b, &q, &p, &z) < 1e-12);
        for i in 0..n {
            for j in 0..i {
                assert!(s.at(i, j).abs() < 1e-13 && p.at(i, j).abs() < 1e-13);
            }
        }
    }
}
