//! The structured solvers of `scipy.linalg._basic` (banded, Hermitian
//! banded, Toeplitz, circulant) and `matrix_balance` (LAPACK's `?gebal`, ported).

use tch::{Device, Kind, Tensor};

use super::super::dtypes::*;
use super::super::lapack::gebal;
use super::super::shapes::*;
use super::super::special_matrices::toeplitz;
use super::super::{invalid, CheckFinite};
use super::{solve, SolveOptions, Structure};
use crate::ops::autograd::records_grad;
use crate::ops::dtype;
use crate::ops::numpy::{self, broadcast_shapes, check_finite_all};
use crate::{Error, Result};

/// `scipy.linalg.solve_banded`: solves `A x = b` for banded `A` given in
/// LAPACK band storage with `l` lower and `u` upper diagonals (expanded to a
/// dense LU solve: the pivots and result are those of LAPACK's `?gbsv`).
pub fn solve_banded(l_and_u: (i64, i64), ab: &Tensor, b: &Tensor, check_finite: CheckFinite) -> Result<Tensor> {
    let ((l, u), check) = (l_and_u, check_finite.enabled());
    let b = atleast_1d(b)?;
    let (rows, n) = matrix_dims("solve_banded", ab)?;
    if n != rows_of(&b) {
        return Err(invalid("shapes of ab and b are not compatible."));
    }
    // (in i128: l and u come from the caller and may be anywhere in i64)
    let diagonals = i128::from(l) + i128::from(u) + 1;
    if diagonals != i128::from(rows) {
        return Err(invalid(format!(
            "invalid values for the number of lower and upper diagonals: l+u+1 ({diagonals}) does not equal ab.shape[0] ({rows})"
        )));
    }
    if l < 0 || u < 0 {
        return Err(invalid("the numbers of lower and upper diagonals must be non-negative"));
    }
    let kind = cdsz_kind(&[dtype(ab)?, dtype(&b)?]);
    let (ab, b) = (cast(ab, kind)?, cast(&b, kind)?);
    check_finite_all(check, &[&ab, &b])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    if n == 1 {
        let pivot = ab.f_narrow(-2, u, 1)?.f_narrow(-1, 0, 1)?.f_squeeze_dim(-1)?;
        return Ok(b.f_div(&if b.dim() == 1 { pivot } else { pivot.f_unsqueeze(-1)? })?);
    }
    let dense = band_to_dense(&ab, l, u)?;
    let options = SolveOptions { assume_a: Structure::General, check_finite: CheckFinite::No, ..Default::default() };
    match solve(&dense, &b, &options) {
        Ok(solved) => Ok(solved.x),
        Err(Error::LinAlg(_)) => Err(Error::LinAlg("singular matrix".into())),
        Err(err) => Err(err),
    }
}

/// The options of [`solveh_banded`] (and of `cholesky_banded`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolvehBandedOptions {
    /// `lower`: `ab` holds the lower band (else the upper one).
    pub lower: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `scipy.linalg.solveh_banded`: solves `A x = b` for Hermitian positive
/// definite banded `A` in symmetric band storage (Cholesky of the dense
/// matrix, as LAPACK's `?pbsv` factors it).
pub fn solveh_banded(ab: &Tensor, b: &Tensor, options: &SolvehBandedOptions) -> Result<Tensor> {
    let SolvehBandedOptions { lower, check_finite } = *options;
    let check = check_finite.enabled();
    let b = atleast_1d(b)?;
    let (_, n) = matrix_dims("solveh_banded", ab)?;
    if n != rows_of(&b) {
        return Err(invalid("shapes of ab and b are not compatible."));
    }
    let kind = lapack_kind(&[dtype(ab)?, dtype(&b)?]);
    let (ab, b) = (cast(ab, kind)?, cast(&b, kind)?);
    check_finite_all(check, &[&ab, &b])?;
    if b.numel() == 0 {
        return Ok(b.f_zeros_like()?);
    }
    let dense = hermitian_band_to_dense(&ab, lower)?;
    let (l, info) = dense.f_linalg_cholesky_ex(false, false)?;
    if let Some(order) = first_positive(&info)? {
        return Err(Error::LinAlg(format!("{order}th leading minor not positive definite")));
    }
    let (cols, vector) = as_columns(&b)?;
    let x = cols.f_cholesky_solve(&l, false)?;
    Ok(if vector { x.f_squeeze_dim(-1)? } else { x })
}

/// `scipy.linalg.solve_toeplitz`: solves `T x = b` for the Toeplitz matrix
/// with first column `c` and first row `r` by Levinson-Durbin recursion, as
/// SciPy's `levinson` runs it (the same recurrences, batched over the leading
/// dimensions and the columns of `b`, on the input's device). A zero leading
/// principal minor (a zero denominator of the recursion) raises
/// [`Error::LinAlg`] ("Singular principal minor") where SciPy raises
/// `LinAlgError`, even where `T` itself is regular. float64 or complex128,
/// as SciPy returns.
pub fn solve_toeplitz(c: &Tensor, r: &Tensor, b: &Tensor, check_finite: CheckFinite) -> Result<Tensor> {
    let check = check_finite.enabled();
    let (c, r, b) = (atleast_1d(c)?, atleast_1d(r)?, atleast_1d(b)?);
    check_finite_all(check, &[&c, &r, &b])?;
    let nc = c.size()[c.dim() - 1];
    let nr = r.size()[r.dim() - 1];
    if nr != nc || rows_of(&b) != nr {
        return Err(invalid("Incompatible dimensions."));
    }
    let complex = [&c, &r, &b].iter().any(|t| dtype(t).map(|d| d.is_complex()).unwrap_or(false));
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let (c, r, b) = (cast(&c, kind)?, cast(&r, kind)?, cast(&b, kind)?);
    let (cols, vector) = as_columns(&b)?;
    let batch = broadcast_shapes(&[&batch_of(&c, 1), &batch_of(&r, 1), &batch_of(&cols, 2)])?;
    let k = cols.size()[cols.dim() - 1];
    let finish = |x: Tensor| -> Result<Tensor> { Ok(if vector { x.f_squeeze_dim(-1)? } else { x }) };
    if cols.numel() == 0 || batch.contains(&0) {
        return finish(Tensor::f_zeros(concat(&batch, &[nc, k]).as_slice(), (kind, b.device()))?);
    }
    // SciPy's `vals`: r[:0:-1] followed by c, flattened over the batch.
    let tail = r.f_narrow(-1, 1, nr - 1)?.f_flip([-1i64].as_slice())?;
    let tail = tail.f_broadcast_to(concat(&batch, &[nr - 1]).as_slice())?;
    let c = c.f_broadcast_to(concat(&batch, &[nc]).as_slice())?;
    let a = Tensor::f_cat(&[tail, c.shallow_clone()], -1)?.f_reshape([-1, 2 * nc - 1])?;
    let b = cols.f_broadcast_to(concat(&batch, &[nc, k]).as_slice())?.f_reshape([-1, nc, k])?;
    let x = levinson(&a.detach(), &b.detach())?;
    if records_grad(&a) || records_grad(&b) {
        // The recursion updates its vectors in place, which autograd cannot
        // follow: with a graph to record, it only decides the singular minors
        // (SciPy's errors), and the values come from the dense matrix's solve.
        let r = r.f_broadcast_to(concat(&batch, &[nr]).as_slice())?;
        let t = toeplitz(&c, Some(&r))?;
        let options =
            SolveOptions { assume_a: Structure::General, check_finite: CheckFinite::No, ..Default::default() };
        let dense = concat(&batch, &[nc, nc]);
        let cols = cols.f_broadcast_to(concat(&batch, &[nc, k]).as_slice())?;
        return finish(solve(&t.f_broadcast_to(dense.as_slice())?, &cols, &options)?.x);
    }
    finish(x.f_reshape(concat(&batch, &[nc, k]).as_slice())?)
}

/// SciPy's `levinson` (`_solve_toeplitz.pyx`, after Alan Miller's
/// toeplitz.f90) on `(P, 2n-1)` `a` and `(P, n, K)` `b`, every problem of the
/// batch and column at once. The recursion's denominators are checked for
/// exact zeros as SciPy checks them; the check reads back to the host at the
/// steps 1, 2, 4, 8, ... and at the end only, so that a singular system
/// stops early without a synchronisation per step.
fn levinson(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let n = b.size()[1];
    let at = |i: i64| a.f_narrow(1, i, 1); // (P, 1)
    let dot = |u: &Tensor, v: &Tensor| -> Result<Tensor> {
        Ok(u.f_mul(v)?.f_sum_dim_intlist([-1i64].as_slice(), true, None::<Kind>)?)
    };
    let singular = || Error::LinAlg("Singular principal minor".into());
    let diag = at(n - 1)?;
    let mut zero = diag.f_eq(0.0)?;
    let x = b.f_zeros_like()?;
    x.f_narrow(1, 0, 1)?.f_copy_(&b.f_narrow(1, 0, 1)?.f_div(&diag.f_unsqueeze(-1)?)?)?;
    let check = |zero: &Tensor| -> Result<()> {
        if zero.f_any()?.f_int64_value(&[])? != 0 {
            return Err(singular());
        }
        Ok(())
    };
    if n == 1 {
        check(&zero)?;
        return Ok(x);
    }
    let g = Tensor::f_zeros([a.size()[0], n].as_slice(), (a.kind(), a.device()))?;
    let h = g.f_zeros_like()?;
    g.f_narrow(1, 0, 1)?.f_copy_(&at(n - 2)?.f_div(&diag)?)?;
    h.f_narrow(1, 0, 1)?.f_copy_(&at(n)?.f_div(&diag)?)?;
    for m in 1..n {
        let front = a.f_narrow(1, n, m)?; // a[n + i], i < m
        let mut gm = g.f_narrow(1, 0, m)?;
        let mut hm = h.f_narrow(1, 0, m)?;
        // x_num = -b[m] + sum_j a[n+m-1-j] x[j];  x_den = -a[n-1] + sum_i a[n+i] g[i]
        let mut xs = x.f_narrow(1, 0, m)?;
        let x_num = front.f_flip([-1i64].as_slice())?.f_unsqueeze(1)?.f_matmul(&xs)?.f_sub(&b.f_narrow(1, m, 1)?)?;
        let x_den = dot(&front, &gm)?.f_sub(&diag)?;
        zero = zero.f_logical_or(&x_den.f_eq(0.0)?)?;
        let xm = x_num.f_div(&x_den.f_unsqueeze(-1)?)?; // (P, 1, K)
                                                        // x[j] -= x[m] g[m-1-j]
        let update = gm.f_flip([-1i64].as_slice())?.f_unsqueeze(-1)?.f_mul(&xm)?;
        xs.f_copy_(&xs.f_sub(&update)?)?;
        x.f_narrow(1, m, 1)?.f_copy_(&xm)?;
        if m == n - 1 {
            break;
        }
        // g_num = -a[n-m-2] + sum_j a[n+j-m-1] g[j];  h_num = -a[n+m] + sum_j a[n+m-1-j] h[j]
        // g_den = -a[n-1] + sum_j a[n+j-m-1] h[m-1-j]
        let back = a.f_narrow(1, n - m - 1, m)?; // a[n+j-m-1], j < m
        let g_num = dot(&back, &gm)?.f_sub(&at(n - m - 2)?)?;
        let h_num = dot(&front.f_flip([-1i64].as_slice())?, &hm)?.f_sub(&at(n + m)?)?;
        let g_den = dot(&back, &hm.f_flip([-1i64].as_slice())?)?.f_sub(&diag)?;
        zero = zero.f_logical_or(&g_den.f_eq(0.0)?)?;
        let c1 = g_num.f_div(&g_den)?;
        let c2 = h_num.f_div(&x_den)?;
        // g[j] -= c1 h[m-1-j], h[j] -= c2 g[m-1-j] (both from the old values)
        let g_new = gm.f_sub(&hm.f_flip([-1i64].as_slice())?.f_mul(&c1)?)?;
        let h_new = hm.f_sub(&gm.f_flip([-1i64].as_slice())?.f_mul(&c2)?)?;
        gm.f_copy_(&g_new)?;
        hm.f_copy_(&h_new)?;
        g.f_narrow(1, m, 1)?.f_copy_(&c1)?;
        h.f_narrow(1, m, 1)?.f_copy_(&c2)?;
        if (m & (m - 1)) == 0 {
            check(&zero)?; // m a power of two: stop early on a singular minor
        }
    }
    check(&zero)?;
    Ok(x)
}

/// `scipy.linalg.matmul_toeplitz`: `T @ x` for the Toeplitz matrix with
/// first column `c` and first row `r`, by FFT of the embedding circulant
/// (as SciPy). float64 or complex128.
pub fn matmul_toeplitz(c: &Tensor, r: &Tensor, x: &Tensor, check_finite: CheckFinite) -> Result<Tensor> {
    let check = check_finite.enabled();
    let (c, r, x) = (atleast_1d(c)?, atleast_1d(r)?, atleast_1d(x)?);
    check_finite_all(check, &[&c, &r, &x])?;
    let nc = c.size()[c.dim() - 1];
    let nr = r.size()[r.dim() - 1];
    if rows_of(&x) != nr {
        return Err(invalid("Incompatible dimensions."));
    }
    let complex = [&c, &r, &x].iter().any(|t| dtype(t).map(|d| d.is_complex()).unwrap_or(false));
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let (c, r, x) = (cast(&c, kind)?, cast(&r, kind)?, cast(&x, kind)?);
    let (cols, vector) = as_columns(&x)?;
    let m = cols.size()[cols.dim() - 1];
    let batch = broadcast_shapes(&[&batch_of(&c, 1), &batch_of(&r, 1), &batch_of(&cols, 2)])?;
    let finish = |y: Tensor| -> Result<Tensor> { Ok(if vector { y.f_squeeze_dim(-1)? } else { y }) };
    if cols.numel() == 0 || nc == 0 {
        return finish(Tensor::f_zeros(concat(&batch, &[nc, m]).as_slice(), (kind, x.device()))?);
    }
    let p = nc + nr - 1;
    let tail = r.f_narrow(-1, 1, nr - 1)?.f_flip([-1i64].as_slice())?;
    let c = c.f_broadcast_to(concat(&batch, &[nc]).as_slice())?;
    let tail = tail.f_broadcast_to(concat(&batch, &[nr - 1]).as_slice())?;
    let embedded = Tensor::f_cat(&[c, tail], -1)?.f_unsqueeze(-1)?;
    let y = if complex {
        let fm = embedded.f_fft_fft(p, -2, "backward")?;
        let fx = cols.f_fft_fft(p, -2, "backward")?;
        fm.f_mul(&fx)?.f_fft_ifft(p, -2, "backward")?
    } else {
        let fm = embedded.f_fft_rfft(p, -2, "backward")?;
        let fx = cols.f_fft_rfft(p, -2, "backward")?;
        fm.f_mul(&fx)?.f_fft_irfft(p, -2, "backward")?
    };
    finish(y.f_narrow(-2, 0, nc)?.f_contiguous()?)
}

/// What [`solve_circulant`] does with a near-singular matrix (SciPy's `singular`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Singular {
    /// `'raise'`: a LinAlgError.
    #[default]
    Raise,
    /// `'lstsq'`: the least-squares solution.
    Lstsq,
}

impl Singular {
    /// SciPy's reading: `'raise'` raises, any other value solves in the
    /// least-squares sense.
    pub fn from_scipy(singular: &str) -> Singular {
        if singular == "raise" {
            Singular::Raise
        } else {
            Singular::Lstsq
        }
    }
}

/// The options of [`solve_circulant`] (SciPy's defaults: raise, default
/// tolerance, `caxis=-1`, `baxis=0`, `outaxis=0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveCirculantOptions {
    /// `singular`.
    pub singular: Singular,
    /// `tol` (`None`: `max|fft(c)| * N * eps`).
    pub tol: Option<f64>,
    /// `caxis`.
    pub caxis: i64,
    /// `baxis`.
    pub baxis: i64,
    /// `outaxis`.
    pub outaxis: i64,
}

impl Default for SolveCirculantOptions {
    fn default() -> SolveCirculantOptions {
        SolveCirculantOptions { singular: Singular::Raise, tol: None, caxis: -1, baxis: 0, outaxis: 0 }
    }
}

/// `scipy.linalg.solve_circulant`: solves `C x = b` for the circulant matrix
/// with first column `c`, by FFT, along `caxis` of `c` and `baxis` of `b`,
/// the solution's axis at `outaxis`. Near-singular systems (`|fft(c)| <=
/// tol`, default `max|fft(c)| * N * eps`) raise a LinAlgError unless
/// `least_squares` (SciPy's `singular='lstsq'`).
pub fn solve_circulant(c: &Tensor, b: &Tensor, options: &SolveCirculantOptions) -> Result<Tensor> {
    let SolveCirculantOptions { singular, tol, caxis, baxis, outaxis } = *options;
    let least_squares = singular == Singular::Lstsq;
    let (c, b) = (atleast_1d(c)?, atleast_1d(b)?);
    let axis = |t: &Tensor, ax: i64, name: &str| -> Result<i64> {
        let nd = t.dim() as i64;
        if ax < -nd || ax >= nd {
            return Err(invalid(format!("{name} has shape {:?}, so the axis {ax} is out of range", t.size())));
        }
        Ok(if ax < 0 { ax + nd } else { ax })
    };
    let (ca, ba) = (axis(&c, caxis, "c")?, axis(&b, baxis, "b")?);
    let (nc, nb) = (c.size()[ca as usize], b.size()[ba as usize]);
    if nc != nb {
        return Err(invalid(format!("Shapes of c {:?} and b {:?} are incompatible", c.size(), b.size())));
    }
    let complex = dtype(&c)?.is_complex() || dtype(&b)?.is_complex();
    let kind = cdsz_kind(&[dtype(&c)?, dtype(&b)?]);
    let rkind = real_kind(kind);
    if b.numel() == 0 {
        return Ok(cast(&b, if complex { complex_kind(kind) } else { rkind })?.f_zeros_like()?);
    }
    let c = cast(&c, kind)?.f_movedim([ca].as_slice(), [-1i64].as_slice())?;
    let b = cast(&b, kind)?.f_movedim([ba].as_slice(), [-1i64].as_slice())?;
    let fc = c.f_fft_fft(None::<i64>, -1, "backward")?;
    let abs_fc = fc.f_abs()?;
    let tol = match tol {
        Some(t) => Tensor::f_full([1i64].as_slice(), t, (rkind, c.device()))?,
        None => abs_fc.f_amax([-1i64].as_slice(), true)?.f_mul_scalar(nc as f64 * f64::EPSILON)?,
    };
    let near_zero = abs_fc.f_le_tensor(&tol)?;
    let singular = any(&near_zero)?;
    if singular && !least_squares {
        return Err(Error::LinAlg("near singular circulant matrix.".into()));
    }
    let fc = if singular { fc.f_masked_fill(&near_zero, 1.0)? } else { fc };
    let fb = b.f_fft_fft(None::<i64>, -1, "backward")?;
    let mut q = fb.f_div(&fc)?;
    if singular {
        q = q.f_masked_fill(&near_zero.f_broadcast_to(q.size().as_slice())?, 0.0)?;
    }
    let x = q.f_fft_ifft(None::<i64>, -1, "backward")?;
    let x = if complex { x } else { x.f_real()? };
    let out = numpy::normalize_axis(outaxis, x.dim())? as i64;
    Ok(x.f_movedim([-1i64].as_slice(), [out].as_slice())?.f_contiguous()?)
}

/// The options of [`matrix_balance`] (both `true` by default, as SciPy's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BalanceOptions {
    /// `permute`.
    pub permute: bool,
    /// `scale`.
    pub scale: bool,
}

impl Default for BalanceOptions {
    fn default() -> BalanceOptions {
        BalanceOptions { permute: true, scale: true }
    }
}

/// The result of [`matrix_balance`].
pub struct Balanced {
    /// The balanced matrix.
    pub b: Tensor,
    /// Scaling factors (float64).
    pub scaling: Tensor,
    /// The permutation (int64).
    pub perm: Tensor,
    /// `diag(scaling)[inverse perm, :]` (float64), SciPy's second result.
    pub t: Tensor,
}

/// `scipy.linalg.matrix_balance`: LAPACK's `?gebal` (version 3.12, ported:
/// libtorch has no kernel for it; it runs on the host, a sequential
/// algorithm on a copy of `a`). Returns the balanced matrix, the scaling
/// and permutation, and SciPy's `T` with `B = T^-1 A T`. Leading dimensions
/// are a batch (SciPy 1.17's `_apply_over_batch`), balanced one matrix at a time.
pub fn matrix_balance(a: &Tensor, options: &BalanceOptions) -> Result<Balanced> {
    let a = atleast_2d(a)?;
    if a.dim() == 2 {
        return balance_one(&a, options);
    }
    numpy::check_finite(&a)?;
    let (m, n) = matrix_dims("matrix_balance", &a)?;
    if m != n {
        return Err(invalid("The data matrix for balancing should be square."));
    }
    let batch = batch_of(&a, 2);
    let flat = a.f_reshape([-1, n, n].as_slice())?;
    let mut parts: [Vec<Tensor>; 4] = Default::default();
    for i in 0..flat.size()[0] {
        let Balanced { b, scaling, perm, t } = balance_one(&flat.f_select(0, i)?, options)?;
        for (store, value) in parts.iter_mut().zip([b, scaling, perm, t]) {
            store.push(value);
        }
    }
    let [bs, scalings, perms, ts] = parts;
    let stack = |items: Vec<Tensor>, core: &[i64]| -> Result<Tensor> {
        Ok(Tensor::f_stack(&items, 0)?.f_reshape(concat(&batch, core).as_slice())?)
    };
    Ok(Balanced {
        b: stack(bs, &[n, n])?,
        scaling: stack(scalings, &[n])?,
        perm: stack(perms, &[n])?,
        t: stack(ts, &[n, n])?,
    })
}

fn balance_one(a: &Tensor, options: &BalanceOptions) -> Result<Balanced> {
    let BalanceOptions { permute, scale } = *options;
    numpy::check_finite(a)?;
    let (m, n) = matrix_dims("matrix_balance", a)?;
    if m != n {
        return Err(invalid("The data matrix for balancing should be square."));
    }
    let kind = lapack_kind(&[dtype(a)?]);
    let complex = is_complex_kind(kind);
    let device = a.device();
    let a = cast(a, kind)?;
    let size = n as usize;
    let host = a.f_to_kind(Kind::ComplexDouble)?.f_to(Device::Cpu)?.f_contiguous()?;
    let pairs = host.f_view_as_real()?.f_reshape([-1i64].as_slice())?;
    let mut flat = filled(2 * size * size, 0f64, "matrix_balance's copy of the matrix")?;
    pairs.f_copy_data(&mut flat, 2 * size * size)?;
    let mut work: Vec<[f64; 2]> = flat.chunks(2).map(|p| [p[0], p[1]]).collect();
    let (lo, hi, ps) = gebal(&mut work, size, permute, scale, matches!(kind, Kind::Float | Kind::ComplexFloat))?;
    // SciPy's post-processing (0-based lo/hi)
    let (lo, hi) = (lo as i64 - 1, hi as i64 - 1);
    let mut scaling = vec![1.0f64; size];
    for i in 0..size {
        if (i as i64) >= lo && (i as i64) <= hi {
            scaling[i] = ps[i];
        }
    }
    let psi: Vec<i64> = ps.iter().map(|&p| p as i64 - 1).collect();
    let mut perm: Vec<i64> = (0..n).collect();
    if hi < n {
        let tail: Vec<i64> = psi[(hi + 1) as usize..].iter().rev().copied().collect();
        for (ind, &x) in tail.iter().enumerate() {
            let ind = ind as i64 + 1;
            if n - ind == x {
                continue;
            }
            perm.swap(x as usize, (n - ind) as usize);
        }
    }
    if lo > 0 {
        for (ind, &x) in psi[..lo as usize].iter().enumerate() {
            if ind as i64 == x {
                continue;
            }
            perm.swap(x as usize, ind);
        }
    }
    let mut iperm = vec![0i64; size];
    for (i, &p) in perm.iter().enumerate() {
        iperm[p as usize] = i as i64;
    }
    let mut t = filled(size * size, 0f64, "matrix_balance's T")?;
    for (row, &p) in iperm.iter().enumerate() {
        t[row * size + p as usize] = scaling[p as usize];
    }
    let re: Vec<f64> = work.iter().map(|v| v[0]).collect();
    let b_re = Tensor::f_from_slice(&re)?.f_reshape([n, n])?;
    let b = if complex {
        let im: Vec<f64> = work.iter().map(|v| v[1]).collect();
        Tensor::f_complex(&b_re, &Tensor::f_from_slice(&im)?.f_reshape([n, n])?)?
    } else {
        b_re
    };
    Ok(Balanced {
        b: b.f_to_kind(kind)?.f_to(device)?,
        scaling: Tensor::f_from_slice(&scaling)?.f_to(device)?,
        perm: Tensor::f_from_slice(&perm)?.f_to(device)?,
        t: matrix_from(t, n, n)?.f_to(device)?,
    })
}
