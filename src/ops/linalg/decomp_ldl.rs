//! `scipy.linalg._decomp_ldl`: the LDL^T (Bunch-Kaufman) factorization.
//!
//! libtorch's `linalg.ldl_factor` is LAPACK's `?sytrf`/`?hetrf` with the
//! lower triangle; SciPy's post-processing of its compact output
//! (`_ldl_sanitize_ipiv`, `_ldl_get_d_and_l`, `_ldl_construct_tri_factor`)
//! is ported below and runs on the host. The upper-triangle factorization
//! (`lower=False`) is the lower one of the matrix with its rows and columns
//! reversed (`?sytrf`'s upper loop is its lower loop run backwards), mapped
//! back.

use tch::{Device, Kind, Tensor};

use super::dtypes::*;
use super::host;
use super::lapack::{Dense, C64};
use super::shapes::*;
use super::{invalid, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// The options of [`ldl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdlOptions {
    /// `lower`: factor the lower triangle (`A = L D L^H`), else the upper one.
    pub lower: bool,
    /// `hermitian`: for complex input, `A = L D L^H` (else `L D L^T`).
    pub hermitian: bool,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

impl Default for LdlOptions {
    fn default() -> LdlOptions {
        LdlOptions { lower: true, hermitian: true, check_finite: CheckFinite::Yes }
    }
}

/// [`ldl`]'s result: `A = lu @ d @ lu^H` (`^T` for complex symmetric input).
pub struct Ldl {
    /// The (permuted) triangular factor.
    pub lu: Tensor,
    /// The block diagonal factor (1x1 and 2x2 blocks).
    pub d: Tensor,
    /// The row permutation making `lu` triangular (`lu[perm]`), int64.
    pub perm: Tensor,
    /// Whether a Hermitian factorization ignored imaginary parts on the
    /// diagonal (SciPy's ComplexWarning).
    pub imaginary_diagonal: bool,
}

fn ipiv_error() -> Error {
    invalid(
        "While parsing the permutation array in \"scipy.linalg.ldl\", invalid entries found. The array syntax is invalid.",
    )
}

/// SciPy's `_ldl_sanitize_ipiv`: LAPACK's 1-based `ipiv` as row swaps and
/// pivot block sizes (2 for a 2x2 block's first row, then 0).
fn sanitize_ipiv(a: &[i64], lower: bool) -> Result<(Vec<usize>, Vec<u8>)> {
    let n = a.len();
    let mut swap: Vec<usize> = (0..n).collect();
    let mut pivots = vec![0u8; n];
    let x: isize = if lower { 1 } else { -1 };
    let order: Vec<usize> = if lower { (0..n).collect() } else { (0..n).rev().collect() };
    let mut skip = false;
    for ind in order {
        if skip {
            skip = false;
            continue;
        }
        let cur = a[ind];
        let next = ind.checked_add_signed(x).filter(|&k| k < n);
        if cur > 0 {
            if cur != ind as i64 + 1 {
                swap[ind] = swap[(cur - 1) as usize];
            }
            pivots[ind] = 1;
        } else if cur < 0 && next.is_some_and(|k| a[k] == cur) {
            let k = next.ok_or_else(ipiv_error)?;
            if -cur != ind as i64 + 2 {
                swap[k] = swap[(-cur - 1) as usize];
            }
            // the block's first row: `ind` when lower, `ind - 1` (= k) when upper
            pivots[if lower { ind } else { k }] = 2;
            skip = true;
        } else {
            return Err(ipiv_error());
        }
    }
    Ok((swap, pivots))
}

/// SciPy's `_ldl_get_d_and_l` and `_ldl_construct_tri_factor` on one
/// matrix: `(lu, d, perm)` from the compact factor `ldu`.
fn factors(
    ldu: &Dense<C64>,
    swap: &[usize],
    pivots: &[u8],
    lower: bool,
    hermitian: bool,
) -> (Dense<C64>, Dense<C64>, Vec<i64>) {
    let n = ldu.n;
    let mut d = Dense::<C64>::zeros(n);
    let mut lu = Dense::<C64>::zeros(n);
    for i in 0..n {
        *d.at_mut(i, i) = ldu.at(i, i);
        for j in 0..n {
            if (lower && j < i) || (!lower && j > i) {
                *lu.at_mut(i, j) = ldu.at(i, j);
            }
        }
        *lu.at_mut(i, i) = C64::new(1.0, 0.0);
    }
    let (x, y) = if lower { (1, 0) } else { (0, 1) };
    let mut blk = 0;
    for &size in pivots.iter().filter(|&&p| p != 0) {
        if size == 2 {
            let value = ldu.at(blk + x, blk + y);
            *d.at_mut(blk + x, blk + y) = value;
            *d.at_mut(blk + y, blk + x) = if hermitian { C64::new(value.re, -value.im) } else { value };
            *lu.at_mut(blk + x, blk + y) = C64::default();
        }
        blk += size as usize;
    }
    let mut perm: Vec<usize> = (0..n).collect();
    let order: Vec<usize> = if lower { (0..n).rev().collect() } else { (0..n).collect() };
    for ind in order {
        let s = swap[ind];
        if s == ind {
            continue;
        }
        let (mut col_s, mut col_e) = if lower { (ind, n) } else { (0, ind + 1) };
        if pivots[ind] == (if lower { 0 } else { 2 }) {
            if lower {
                col_s -= 1;
            } else {
                col_e += 1;
            }
        }
        for c in col_s..col_e {
            let (u, v) = (lu.at(s, c), lu.at(ind, c));
            *lu.at_mut(s, c) = v;
            *lu.at_mut(ind, c) = u;
        }
        perm.swap(s, ind);
    }
    // argsort(perm): perm is a permutation, so its inverse
    let mut inverse = vec![0i64; n];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p] = i as i64;
    }
    (lu, d, inverse)
}

/// `scipy.linalg.ldl`: `A = lu @ d @ lu^H` (`lu^T` for complex symmetric
/// input, `hermitian=False`) for square `(..., N, N)` `a`, reading the
/// `lower` (or upper) triangle, by Bunch-Kaufman diagonal pivoting (LAPACK's
/// `?sytrf`/`?hetrf` through libtorch), then SciPy's post-processing on the
/// host (an explicit copy for CUDA input). Returns `lu`, `d` and `perm`
/// (`lu[perm]` is triangular).
pub fn ldl(a: &Tensor, options: &LdlOptions) -> Result<Ldl> {
    let LdlOptions { lower, hermitian, check_finite } = *options;
    let a = atleast_2d(a)?;
    check_finite_all(check_finite.enabled(), &[&a])?;
    let s = a.size();
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(invalid("The input array \"a\" should be square."));
    }
    let n = s[s.len() - 1];
    let batch = batch_of(&a, 2);
    let device = a.device();
    if a.numel() == 0 {
        let empty = zeros_as(&a, &s)?;
        let perm = Tensor::f_zeros(concat(&batch, &[0]).as_slice(), (Kind::Int64, device))?;
        return Ok(Ldl { lu: empty.f_zeros_like()?, d: empty, perm, imaginary_diagonal: false });
    }
    let kind = lapack_kind(&[dtype(&a)?]);
    let a = cast(&a, kind)?;
    let complex = is_complex_kind(kind);
    let imaginary_diagonal = complex && hermitian && any(&a.f_diagonal(0, -2, -1)?.f_imag()?.f_ne(0.0)?)?;
    // the upper triangle's factorization: the lower one of the reversed matrix
    let source = if lower { a.shallow_clone() } else { a.f_flip([-2i64, -1].as_slice())? };
    let (ld, pivots, _info) = source.f_linalg_ldl_factor_ex(complex && hermitian, false)?;
    let ld = if lower { ld } else { ld.f_flip([-2i64, -1].as_slice())? };
    let pivots = pivots.f_to_kind(Kind::Int64)?.f_to(Device::Cpu)?.f_contiguous()?;
    let mut ipiv = filled(pivots.numel(), 0i64, "ldl's pivots")?;
    pivots.f_copy_data(&mut ipiv, pivots.numel())?;
    let nu = n as usize;
    let mats = host::complex_mats(&ld)?;
    let (mut lus, mut ds, mut perms) = (Vec::new(), Vec::new(), Vec::new());
    for (k, ldu) in mats.iter().enumerate() {
        let mut piv = ipiv[k * nu..(k + 1) * nu].to_vec();
        if !lower {
            // reversed positions and targets: k <-> n + 1 - k (1-based), signs kept
            piv.reverse();
            for p in piv.iter_mut() {
                *p = if *p > 0 { n + 1 - *p } else { -(n + 1 + *p) };
            }
        }
        let (swap, sizes) = sanitize_ipiv(&piv, lower)?;
        let (lu, d, perm) = factors(ldu, &swap, &sizes, lower, hermitian && complex);
        lus.push(lu);
        ds.push(d);
        perms.extend(perm);
    }
    Ok(Ldl {
        lu: host::from_complex(&lus, &batch, kind, device)?,
        d: host::from_complex(&ds, &batch, kind, device)?,
        perm: Tensor::f_from_slice(&perms)?.f_reshape(concat(&batch, &[n]).as_slice())?.f_to(device)?,
        imaginary_diagonal,
    })
}
