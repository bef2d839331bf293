//! `scipy.linalg._decomp`: eigenvalue problems (`eig`, `eigh`,
//! `eigh_tridiagonal` and their `eigvals` forms).

use tch::{Kind, Tensor};

use super::dtypes::*;
use super::shapes::*;
use super::{invalid, not_implemented, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::{self, broadcast_shapes, check_finite_all};
use crate::{Error, Result};

/// Which eigenvalues `eigh` returns (SciPy's `subset_by_index`/`subset_by_value`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Subset {
    /// All of them.
    #[default]
    All,
    /// Ascending indices `lo..=hi`.
    Index(i64, i64),
    /// Eigenvalues in the half-open interval `(lo, hi]`, as LAPACK's `?syevr`.
    Value(f64, f64),
}

/// `scipy.linalg.eigh`: eigenvalues (ascending) and eigenvectors of the
/// Hermitian matrices `a` (`(..., N, N)`, only the `lower` or upper triangle
/// read), or of the generalized problem with Hermitian positive definite `b`
/// (`itype` 1: `a v = w b v`, 2: `a b v = w v`, 3: `b a v = w v`), reduced
/// with `b`'s Cholesky factor as LAPACK's `?sygvd` does.
pub fn eigh(a: &Tensor, b: Option<&Tensor>, options: &EighOptions) -> Result<Eigh> {
    let EighOptions { lower, eigvals_only, type_, subset, check_finite } = *options;
    let (w, v) = eigh_parts(a, b, lower, eigvals_only, type_ as i64, subset, check_finite.enabled())?;
    Ok(Eigh { w, v })
}

/// The generalized problem `scipy.linalg.eigh`'s `type` names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EighType {
    /// `1`: `a v = w b v`.
    #[default]
    One = 1,
    /// `2`: `a b v = w v`.
    Two = 2,
    /// `3`: `b a v = w v`.
    Three = 3,
}

impl EighType {
    /// SciPy's `type` codes, with its ValueError for others.
    pub fn from_code(code: i64) -> Result<EighType> {
        match code {
            1 => Ok(EighType::One),
            2 => Ok(EighType::Two),
            3 => Ok(EighType::Three),
            _ => Err(invalid("\"type\" keyword only accepts 1, 2, and 3.")),
        }
    }
}

/// The options of [`eigh`] (SciPy's defaults: lower triangle, vectors, type 1, all).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EighOptions {
    /// `lower`.
    pub lower: bool,
    /// `eigvals_only`.
    pub eigvals_only: bool,
    /// `type`.
    pub type_: EighType,
    /// `subset_by_index` / `subset_by_value`.
    pub subset: Subset,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

impl Default for EighOptions {
    fn default() -> EighOptions {
        EighOptions {
            lower: true,
            eigvals_only: false,
            type_: EighType::One,
            subset: Subset::All,
            check_finite: CheckFinite::Yes,
        }
    }
}

/// Eigenvalues (ascending) and, unless `eigvals_only`, eigenvectors (columns).
pub struct Eigh {
    /// Eigenvalues, real.
    pub w: Tensor,
    /// Eigenvectors, when asked for.
    pub v: Option<Tensor>,
}

fn eigh_parts(
    a: &Tensor,
    b: Option<&Tensor>,
    lower: bool,
    eigvals_only: bool,
    itype: i64,
    subset: Subset,
    check: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    let n = square("eigh", a).map_err(|_| invalid("expected square \"a\" matrix"))?;
    let mut dtypes = vec![dtype(a)?];
    if let Some(b) = b {
        dtypes.push(dtype(b)?);
    }
    let kind = lapack_kind(&dtypes);
    let a = cast(a, kind)?;
    check_finite_all(check, &[&a])?;
    let b = match b {
        Some(b) => {
            let b = cast(b, kind)?;
            check_finite_all(check, &[&b])?;
            square("eigh", &b).map_err(|_| invalid("expected square \"b\" matrix"))?;
            if b.size()[b.dim() - 2..] != a.size()[a.dim() - 2..] {
                // SciPy's message, with the matrices' shapes as Python tuples
                let (bs, as_) = (b.size(), a.size());
                let (b2, a2) = (&bs[bs.len() - 2..], &as_[as_.len() - 2..]);
                return Err(invalid(format!(
                    "wrong b dimensions ({}, {}), should be ({}, {})",
                    b2[0], b2[1], a2[0], a2[1]
                )));
            }
            Some(b)
        }
        None => None,
    };
    if let Subset::Index(lo, hi) = subset {
        if !(0 <= lo && lo <= hi && hi < n) {
            return Err(invalid(format!(
                "Requested eigenvalue indices are not valid. Valid range is [0, {}] and start <= end, but start={lo}, end={hi} is given",
                n - 1
            )));
        }
    }
    let device = a.device();
    let batch = match &b {
        Some(b) => broadcast_shapes(&[&batch_of(&a, 2), &batch_of(b, 2)])?,
        None => batch_of(&a, 2),
    };
    if n == 0 {
        let w = Tensor::f_zeros(concat(&batch, &[0]).as_slice(), (real_kind(kind), device))?;
        let v = Tensor::f_zeros(concat(&batch, &[0, 0]).as_slice(), (kind, device))?;
        return Ok((w, if eigvals_only { None } else { Some(v) }));
    }
    let uplo = if lower { "L" } else { "U" };
    let (w, v) = match &b {
        None if eigvals_only && subset == Subset::All => (a.f_linalg_eigvalsh(uplo)?, None),
        None => {
            let (w, v) = a.f_linalg_eigh(uplo)?;
            (w, Some(v))
        }
        Some(b) => {
            let a_full = from_triangle(&a, lower, true)?;
            let b_full = from_triangle(b, lower, true)?;
            let (l, info) = b_full.f_linalg_cholesky_ex(false, false)?;
            if let Some(order) = first_positive(&info)? {
                return Err(Error::LinAlg(format!(
                    "The leading minor of order {order} of B is not positive definite. The factorization of B \
                     could not be completed and no eigenvalues or eigenvectors were computed."
                )));
            }
            let c = match itype {
                1 => {
                    let y = l.f_linalg_solve_triangular(&a_full, false, true, false)?;
                    l.f_linalg_solve_triangular(&mh(&y)?, false, true, false)?
                }
                2 | 3 => mh(&l)?.f_matmul(&a_full)?.f_matmul(&l)?,
                other => return Err(invalid(format!("\"type\" keyword only accepts 1, 2, and 3, got {other}"))),
            };
            let (w, y) = c.f_linalg_eigh("L")?;
            let v =
                if itype == 3 { l.f_matmul(&y)? } else { mh(&l)?.f_linalg_solve_triangular(&y, true, true, false)? };
            (w, Some(v))
        }
    };
    let (w, v) = match subset {
        Subset::All => (w, v),
        Subset::Index(lo, hi) => {
            let k = hi - lo + 1;
            let v = match v {
                Some(v) => Some(v.f_narrow(-1, lo, k)?),
                None => None,
            };
            (w.f_narrow(-1, lo, k)?, v)
        }
        Subset::Value(lo, hi) => {
            let selected = w.f_gt(lo)?.f_logical_and(&w.f_le(hi)?)?;
            let k = common_count(
                &selected.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?,
                "number of eigenvalues in the interval",
            )?;
            let start = w.f_le(lo)?.f_sum_dim_intlist([-1i64].as_slice(), true, Kind::Int64)?;
            let index = start.f_add(&numpy::arange(k, Kind::Int64, device)?)?;
            let v = match v {
                Some(v) => {
                    let index_v =
                        index.f_unsqueeze(-2)?.f_expand(concat(&batch_of(&v, 2), &[n, k]).as_slice(), false)?;
                    Some(v.f_gather(-1, &index_v, false)?)
                }
                None => None,
            };
            (w.f_gather(-1, &index, false)?, v)
        }
    };
    Ok((w, if eigvals_only { None } else { v }))
}

/// The options of [`eig`] (SciPy's defaults: right eigenvectors only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EigOptions {
    /// `left`.
    pub left: bool,
    /// `right`.
    pub right: bool,
    /// `homogeneous_eigvals`.
    pub homogeneous_eigvals: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

impl Default for EigOptions {
    fn default() -> EigOptions {
        EigOptions { left: false, right: true, homogeneous_eigvals: false, check_finite: CheckFinite::Yes }
    }
}

/// The result of [`eig`].
pub struct Eig {
    /// Eigenvalues (complex), or `(..., 2, N)` homogeneous coordinates.
    pub w: Tensor,
    /// Left eigenvectors (columns), when asked for.
    pub vl: Option<Tensor>,
    /// Right eigenvectors (columns), when asked for.
    pub vr: Option<Tensor>,
}

/// Scales each column to unit 2-norm with its largest component real and
/// non-negative (LAPACK's `?geev` normalization, up to that sign).
fn normalize_columns(v: &Tensor) -> Result<Tensor> {
    let norms = v.f_abs()?.f_square()?.f_sum_dim_intlist([-2i64].as_slice(), true, None::<Kind>)?.f_sqrt()?;
    let v = v.f_div(&norms.f_to_kind(dtype(v)?.kind().unwrap_or(Kind::ComplexDouble))?)?;
    if !dtype(&v)?.is_complex() {
        return Ok(v);
    }
    let largest = v.f_abs()?.f_argmax(-2, true)?;
    let pivot = v.f_gather(-2, &largest, false)?;
    let phase = pivot.f_sgn()?.f_conj()?;
    let phase = phase.f_where_scalarother(&pivot.f_ne(0.0)?, 1.0)?;
    Ok(v.f_mul(&phase)?)
}

/// `scipy.linalg.eig` (standard problem): eigenvalues and left/right
/// eigenvectors of general square matrices `(..., N, N)`.
///
/// As SciPy returns them, eigenvalues are complex; for real input whose
/// eigenvalues are all real, the eigenvectors are real. Left eigenvectors
/// are the conjugate-transposed rows of the inverse of the right ones,
/// normalized as LAPACK normalizes them (the input must not be defective).
pub fn eig(a: &Tensor, options: &EigOptions) -> Result<Eig> {
    let EigOptions { left, right, homogeneous_eigvals: homogeneous, check_finite } = *options;
    let check = check_finite.enabled();
    let n = square("eig", a).map_err(|_| invalid("expected square matrix"))?;
    let input_complex = dtype(a)?.is_complex();
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    check_finite_all(check, &[&a])?;
    let batch = batch_of(&a, 2);
    let device = a.device();
    let homogenize = |w: Tensor| -> Result<Tensor> {
        if homogeneous {
            Ok(Tensor::f_stack(&[w.shallow_clone(), w.f_ones_like()?], -2)?)
        } else {
            Ok(w)
        }
    };
    if n == 0 {
        let w = Tensor::f_zeros(concat(&batch, &[0]).as_slice(), (complex_kind(kind), device))?;
        let v = || Tensor::f_zeros(concat(&batch, &[0, 0]).as_slice(), (kind, device));
        return Ok(Eig {
            w: homogenize(w)?,
            vl: if left { Some(v()?) } else { None },
            vr: if right { Some(v()?) } else { None },
        });
    }
    if !left && !right {
        return Ok(Eig { w: homogenize(a.f_linalg_eigvals()?)?, vl: None, vr: None });
    }
    let (w, v) = a.f_linalg_eig()?;
    let all_real = !input_complex && !any(&w.f_imag()?.f_ne(0.0)?)?;
    let vl = if left {
        let (inverse, info) = Tensor::f_linalg_inv_ex(&v, false)?;
        if any(&info.f_gt(0)?)? {
            return Err(not_implemented(
                "eig(left=True) of a defective matrix (its eigenvectors do not span the space) is not implemented",
            ));
        }
        let vl = normalize_columns(&mh(&inverse)?)?;
        Some(if all_real { vl.f_real()? } else { vl })
    } else {
        None
    };
    let vr = if right { Some(if all_real { v.f_real()? } else { v }) } else { None };
    Ok(Eig { w: homogenize(w)?, vl, vr })
}

/// `scipy.linalg.eigh_tridiagonal`/`eigvalsh_tridiagonal`: eigenvalues
/// (ascending) and eigenvectors of the real symmetric tridiagonal matrix with
/// diagonal `d` and off-diagonal `e` (through the dense symmetric solver).
pub fn eigh_tridiagonal(d: &Tensor, e: &Tensor, options: &EighTridiagonalOptions) -> Result<Eigh> {
    let EighTridiagonalOptions { eigvals_only, subset, check_finite } = *options;
    let (w, v) = eigh_tridiagonal_parts(d, e, eigvals_only, subset, check_finite.enabled())?;
    Ok(Eigh { w, v })
}

/// The options of [`eigh_tridiagonal`] (`subset` from SciPy's `select`/`select_range`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EighTridiagonalOptions {
    /// `eigvals_only`.
    pub eigvals_only: bool,
    /// `select` and `select_range`.
    pub subset: Subset,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

fn eigh_tridiagonal_parts(
    d: &Tensor,
    e: &Tensor,
    eigvals_only: bool,
    subset: Subset,
    check: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    for x in [d, e] {
        if dtype(x)?.is_complex() {
            return Err(Error::DtypeNotAccepted {
                routine: "linalg.eigh_tridiagonal",
                dtype: dtype(x)?,
                accepted: "real input (Only real arrays currently supported)",
            });
        }
    }
    if d.dim() < 1 || e.dim() < 1 {
        return Err(invalid("expected a 1-D array"));
    }
    let n = d.size()[d.dim() - 1];
    if n != e.size()[e.dim() - 1] + 1 {
        return Err(invalid(format!("d ({n}) must have one more element than e ({})", e.size()[e.dim() - 1])));
    }
    check_finite_all(check, &[d, e])?;
    if n == 1 && d.dim() == 1 && e.dim() == 1 {
        // SciPy's quick exit: the input dtype is kept.
        if let Subset::Value(lo, hi) = subset {
            let d0 = d.f_to_kind(Kind::Double)?.f_double_value(&[0])?;
            if !(lo < d0 && d0 <= hi) {
                let w = Tensor::f_zeros([0i64].as_slice(), (Kind::Double, d.device()))?;
                return Ok((
                    w,
                    if eigvals_only {
                        None
                    } else {
                        Some(d.f_reshape([1i64, 1].as_slice())?.f_narrow(1, 0, 0)?.f_contiguous()?)
                    },
                ));
            }
        }
        let v = d.f_reshape([1i64, 1].as_slice())?.f_ones_like()?;
        return Ok((crate::ops::deep_copy(d)?, if eigvals_only { None } else { Some(v) }));
    }
    let kind = lapack_kind(&[dtype(d)?, dtype(e)?]);
    let batch = broadcast_shapes(&[&batch_of(d, 1), &batch_of(e, 1)])?;
    let d = cast(d, kind)?.f_broadcast_to(concat(&batch, &[n]).as_slice())?;
    let e = cast(e, kind)?.f_broadcast_to(concat(&batch, &[n - 1]).as_slice())?;
    let t = d.f_diag_embed(0, -2, -1)?.f_add(&e.f_diag_embed(1, -2, -1)?)?.f_add(&e.f_diag_embed(-1, -2, -1)?)?;
    eigh_parts(&t, None, true, eigvals_only, 1, subset, false)
}

/// The options of [`eig_banded`] (`subset` from SciPy's `select`/`select_range`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EigBandedOptions {
    /// `lower`: `a_band` holds the lower band (else the upper one).
    pub lower: bool,
    /// `eigvals_only`.
    pub eigvals_only: bool,
    /// `select` and `select_range`.
    pub subset: Subset,
    /// `check_finite` (SciPy checks finiteness regardless when eigenvectors are asked for).
    pub check_finite: CheckFinite,
}

/// `scipy.linalg.eig_banded`/`eigvals_banded`: eigenvalues (ascending) and
/// eigenvectors of the Hermitian band matrix in LAPACK band storage `a_band`
/// (`(..., u + 1, N)`, the `lower` or upper band), through the dense
/// Hermitian solver on the expanded matrix (LAPACK's `?sbevd`/`?hbevx`
/// compute the same decomposition from the band).
pub fn eig_banded(a_band: &Tensor, options: &EigBandedOptions) -> Result<Eigh> {
    let EigBandedOptions { lower, eigvals_only, subset, check_finite } = *options;
    if a_band.dim() < 2 {
        return Err(invalid("expected a 2-D array"));
    }
    let d = dtype(a_band)?;
    // SciPy checks a copied band for finiteness whenever eigenvectors are computed.
    let check = check_finite.enabled() || (!eigvals_only && (d.is_float() || d.is_complex()));
    check_finite_all(check, &[a_band])?;
    let kind = lapack_kind(&[d]);
    let ab = cast(a_band, kind)?;
    let batch = batch_of(&ab, 2);
    if ab.numel() == 0 {
        let w = Tensor::f_zeros(concat(&batch, &[0]).as_slice(), (real_kind(kind), ab.device()))?;
        let v = Tensor::f_zeros(concat(&batch, &[0, 0]).as_slice(), (kind, ab.device()))?;
        return Ok(Eigh { w, v: if eigvals_only { None } else { Some(v) } });
    }
    let dense = hermitian_band_to_dense(&ab, lower)?;
    let (w, v) = eigh_parts(&dense, None, true, eigvals_only, 1, subset, false)?;
    Ok(Eigh { w, v })
}

/// `scipy.linalg.hessenberg`: `a = Q H Q^H` with `H` upper Hessenberg, by
/// Householder reflections as LAPACK's `?gehrd`/`?orghr` (SciPy calls them
/// without balancing), run on the host (libtorch has no `?gehrd`; an
/// explicit copy for CUDA input), batched over the leading dimensions.
/// Returns `(H, Q)` (`Q` when `calc_q`). As SciPy, a matrix of order 2 or
/// less is returned as it is (its dtype kept) with `Q` the float64 identity.
pub fn hessenberg(a: &Tensor, calc_q: bool, check_finite: CheckFinite) -> Result<(Tensor, Option<Tensor>)> {
    let n = square("hessenberg", a).map_err(|_| invalid("expected square matrix"))?;
    check_finite_all(check_finite.enabled(), &[a])?;
    let batch = batch_of(a, 2);
    let device = a.device();
    if n <= 2 && a.numel() > 0 {
        let q = if calc_q {
            let eye = eye(n, Kind::Double, device)?.f_expand(concat(&batch, &[n, n]).as_slice(), false)?;
            Some(eye.f_contiguous()?)
        } else {
            None
        };
        return Ok((a.shallow_clone(), q));
    }
    let kind = lapack_kind(&[dtype(a)?]);
    let a = cast(a, kind)?;
    if a.numel() == 0 {
        let h = a.f_zeros_like()?;
        return Ok((h.shallow_clone(), if calc_q { Some(h) } else { None }));
    }
    use super::lapack::{gehrd, Dense};
    if is_complex_kind(kind) {
        let mut hs = super::host::complex_mats(&a)?;
        let mut qs = Vec::with_capacity(hs.len());
        for h in hs.iter_mut() {
            let mut q = Dense::identity(h.n);
            gehrd(h, if calc_q { Some(&mut q) } else { None });
            qs.push(q);
        }
        let h = super::host::from_complex(&hs, &batch, kind, device)?;
        let q = if calc_q { Some(super::host::from_complex(&qs, &batch, kind, device)?) } else { None };
        Ok((h, q))
    } else {
        let mut hs = super::host::real_mats(&a)?;
        let mut qs = Vec::with_capacity(hs.len());
        for h in hs.iter_mut() {
            let mut q = Dense::identity(h.n);
            gehrd(h, if calc_q { Some(&mut q) } else { None });
            qs.push(q);
        }
        let h = super::host::from_real(&hs, &batch, kind, device)?;
        let q = if calc_q { Some(super::host::from_real(&qs, &batch, kind, device)?) } else { None };
        Ok((h, q))
    }
}

/// `scipy.linalg.cdf2rdf`: the real block-diagonal form `(wr, vr)` of the
/// complex eigenvalues `w` (`(..., n)`) and eigenvectors `v` (`(..., n, n)`)
/// of real matrices, as SciPy builds it: each run of two consecutive complex
/// entries of `w` (a conjugate pair, not checked further, as SciPy) becomes a
/// 2x2 block, and `vr = Re(v U)`. `wr` has `w`'s real dtype; `vr` is float64
/// (SciPy's `U` is complex128). The pairing is found on the host.
pub fn cdf2rdf(w: &Tensor, v: &Tensor) -> Result<(Tensor, Tensor)> {
    check_finite_all(true, &[w, v])?;
    if w.dim() < 1 {
        return Err(invalid("expected w to be at least 1D"));
    }
    if v.dim() < 2 {
        return Err(invalid("expected v to be at least 2D"));
    }
    if v.dim() != w.dim() + 1 {
        return Err(invalid("expected eigenvectors array to have exactly one dimension more than eigenvalues array"));
    }
    let n = w.size()[w.dim() - 1];
    let vs = v.size();
    if vs[vs.len() - 2] != vs[vs.len() - 1] {
        return Err(invalid("expected v to be a square matrix or stacked square matrices: v.shape[-2] = v.shape[-1]"));
    }
    if vs[vs.len() - 1] != n {
        return Err(invalid("expected the same number of eigenvalues as eigenvectors"));
    }
    let batch = batch_of(w, 1);
    let device = w.device();
    let wkind = dtype(w)?;
    let real_kind_w = if wkind.is_complex() { real_kind(w.kind()) } else { w.kind() };
    let count = batch.iter().product::<i64>().max(0) as usize;
    let size = n as usize;
    // w on the host, as (re, im) pairs
    let host =
        w.f_to_kind(Kind::ComplexDouble)?.f_to(tch::Device::Cpu)?.f_resolve_conj()?.f_contiguous()?.f_view_as_real()?;
    let mut pairs = filled(host.numel(), 0f64, "cdf2rdf's copy of w")?;
    host.f_copy_data(&mut pairs, host.numel())?;
    let mut wr = filled(count * size * size, 0f64, "cdf2rdf's wr")?;
    // u as (re, im)
    let mut u = filled(count * size * size * 2, 0f64, "cdf2rdf's U")?;
    for b in 0..count {
        let at = |i: usize| (pairs[2 * (b * size + i)], pairs[2 * (b * size + i) + 1]);
        let complex: Vec<usize> = (0..size).filter(|&i| at(i).1 != 0.0).collect();
        if complex.len() % 2 != 0 {
            return Err(invalid("expected complex-conjugate pairs of eigenvalues"));
        }
        let base = b * size * size;
        for i in 0..size {
            wr[base + i * size + i] = at(i).0;
            u[2 * (base + i * size + i)] = 1.0;
        }
        for pair in complex.chunks(2) {
            let (j, k) = (pair[0], pair[1]);
            wr[base + j * size + k] = at(j).1;
            wr[base + k * size + j] = at(k).1;
            let mut put = |r: usize, c: usize, re: f64, im: f64| {
                u[2 * (base + r * size + c)] = re;
                u[2 * (base + r * size + c) + 1] = im;
            };
            put(j, j, 0.0, 0.5);
            put(j, k, 0.5, 0.0);
            put(k, j, 0.0, -0.5);
            put(k, k, 0.5, 0.0);
        }
    }
    let full = concat(&batch, &[n, n]);
    let wr = Tensor::f_from_slice(&wr)?.f_reshape(full.as_slice())?.f_to_kind(real_kind_w)?.f_to(device)?;
    let u = Tensor::f_from_slice(&u)?.f_reshape(concat(&full, &[2]).as_slice())?.f_view_as_complex()?.f_to(device)?;
    let vr = v.f_to_kind(Kind::ComplexDouble)?.f_matmul(&u)?.f_real()?.f_contiguous()?;
    Ok((wr, vr))
}
