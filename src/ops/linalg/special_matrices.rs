//! `scipy.linalg._special_matrices`: constructors (Toeplitz, Hankel,
//! circulant, companion, Hadamard, Hilbert, Pascal, DFT, ...). Array-built
//! ones keep their input's dtype, as SciPy keeps it.

use tch::{Kind, Tensor};

use super::dtypes::*;
use super::shapes::*;
use super::{invalid, not_implemented};
use crate::error::try_vec;
use crate::ops::dtype;
use crate::ops::numpy::{self, broadcast_shapes};
use crate::{DType, Error, Result};

/// `scipy.linalg.toeplitz`: the Toeplitz matrix with first column `c` and
/// first row `r` (`r` default `conj(c)`; `c[0]` wins over `r[0]`). Leading
/// dimensions of `c` and `r` are batches.
pub fn toeplitz(c: &Tensor, r: Option<&Tensor>) -> Result<Tensor> {
    let c = atleast_1d(c)?;
    let r = match r {
        Some(r) => atleast_1d(r)?,
        None => c.f_conj()?.f_resolve_conj()?,
    };
    let target = result_type(&[dtype(&c)?, dtype(&r)?]);
    let (c, r) = (numpy::cast(&c, target)?, numpy::cast(&r, target)?);
    let batch = broadcast_shapes(&[&batch_of(&c, 1), &batch_of(&r, 1)])?;
    let (m, n) = (c.size()[c.dim() - 1], r.size()[r.dim() - 1]);
    let c = c.f_broadcast_to(concat(&batch, &[m]).as_slice())?;
    let r = r.f_broadcast_to(concat(&batch, &[n]).as_slice())?;
    let tail = if n > 0 { r.f_narrow(-1, 1, n - 1)? } else { r.shallow_clone() };
    let vals = Tensor::f_cat(&[c, tail], -1)?;
    // vals = c followed by r[1:]: entry (i, j) is c[i - j] below the
    // diagonal and r[j - i] = vals[m - 1 + j - i] above it.
    let idx = index_grid(m, n, vals.device(), |i, j| if i >= j { i - j } else { m - 1 + j - i })?;
    rearrange(&vals, |v| take_grid(v, &idx))
}

/// `scipy.linalg.circulant`: the circulant matrix with first column `c`
/// (leading dimensions are a batch).
pub fn circulant(c: &Tensor) -> Result<Tensor> {
    let c = atleast_1d(c)?;
    let n = c.size()[c.dim() - 1];
    let idx = index_grid(n, n, c.device(), |i, j| (i - j).rem_euclid(n.max(1)))?;
    rearrange(&c, |v| take_grid(v, &idx))
}

/// `scipy.linalg.hankel`: the Hankel matrix with first column `c` and last
/// row `r` (`r` default zeros; `r[0]` is ignored). Multi-dimensional input
/// is flattened, as SciPy 1.17 still does (with a FutureWarning there).
pub fn hankel(c: &Tensor, r: Option<&Tensor>) -> Result<Tensor> {
    if c.dim() == 0 || r.is_some_and(|r| r.dim() == 0) {
        // SciPy 1.17 concatenates `c` and `r` without raveling 0-d ones first (a ValueError)
        return Err(invalid(
            "hankel: `c` and `r` must be at least 1-D (zero-dimensional arrays cannot be concatenated)",
        ));
    }
    let c = c.f_reshape([-1i64].as_slice())?;
    let r = match r {
        Some(r) => r.f_reshape([-1i64].as_slice())?,
        None => c.f_zeros_like()?,
    };
    let target = result_type(&[dtype(&c)?, dtype(&r)?]);
    let (c, r) = (numpy::cast(&c, target)?, numpy::cast(&r, target)?);
    let (m, n) = (c.size()[0], r.size()[0]);
    let tail = if n > 0 { r.f_narrow(0, 1, n - 1)? } else { r.shallow_clone() };
    let vals = Tensor::f_cat(&[c, tail], 0)?;
    let idx = index_grid(m, n, vals.device(), |i, j| i + j)?;
    rearrange(&vals, |v| take_grid(v, &idx))
}

/// `scipy.linalg.block_diag`: the block diagonal matrix of the (at least
/// 2-D) arrays, batch dimensions broadcast, dtype NumPy's result type.
pub fn block_diag(arrays: &[Tensor]) -> Result<Tensor> {
    if arrays.is_empty() {
        return Err(invalid("block_diag needs at least one array"));
    }
    let arrays = arrays.iter().map(atleast_2d).collect::<Result<Vec<_>>>()?;
    let target = result_type(&arrays.iter().map(dtype).collect::<Result<Vec<_>>>()?);
    let mut batch: Vec<i64> = vec![];
    for a in &arrays {
        batch = broadcast_shapes(&[&batch, &batch_of(a, 2)])?;
    }
    let rows: i64 = arrays.iter().map(|a| a.size()[a.dim() - 2]).sum();
    let cols: i64 = arrays.iter().map(|a| a.size()[a.dim() - 1]).sum();
    let cast_all = arrays.iter().map(|a| numpy::cast(a, target)).collect::<Result<Vec<_>>>()?;
    let proto = cast_all.iter().find(|a| a.numel() > 0).unwrap_or(&cast_all[0]);
    let mut out = zeros_as(proto, concat(&batch, &[rows, cols]).as_slice())?;
    let (mut r, mut c) = (0, 0);
    for a in &cast_all {
        let (rr, cc) = (a.size()[a.dim() - 2], a.size()[a.dim() - 1]);
        if rr > 0 && cc > 0 {
            let mut block = out.f_narrow(-2, r, rr)?.f_narrow(-1, c, cc)?;
            block.f_copy_(&a.f_broadcast_to(concat(&batch, &[rr, cc]).as_slice())?)?;
        }
        r += rr;
        c += cc;
    }
    out = out.f_contiguous()?;
    Ok(out)
}

/// `scipy.linalg.khatri_rao`: the column-wise Kronecker product of
/// `(..., M, K)` `a` and `(..., P, K)` `b`, `(..., M * P, K)`.
pub fn khatri_rao(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dim() < 2 || b.dim() < 2 {
        return Err(invalid("The both arrays should be 2-dimensional."));
    }
    let (ma, ka) = (a.size()[a.dim() - 2], a.size()[a.dim() - 1]);
    let (mb, kb) = (b.size()[b.dim() - 2], b.size()[b.dim() - 1]);
    if ka != kb {
        return Err(invalid("The number of columns for both arrays should be equal."));
    }
    let batch = broadcast_shapes(&[&batch_of(a, 2), &batch_of(b, 2)])?;
    let itemsize = dtype(a)?.itemsize().max(dtype(b)?.itemsize());
    check_alloc(&concat(&batch, &[ma, mb, ka]), itemsize, "the Khatri-Rao product")?;
    if a.numel() == 0 || b.numel() == 0 {
        return zeros_as(a, concat(&batch, &[ma * mb, ka]).as_slice());
    }
    let target = result_type(&[dtype(a)?, dtype(b)?]);
    let (a, b) = (numpy::cast(a, target)?, numpy::cast(b, target)?);
    let c = a.f_unsqueeze(-2)?.f_mul(&b.f_unsqueeze(-3)?)?;
    Ok(c.f_reshape(concat(&batch, &[ma * mb, ka]).as_slice())?)
}

/// `scipy.linalg.companion`: the companion matrix of the polynomial with
/// coefficients `a` (highest degree first; leading dimensions are a batch).
/// Integer input gives float64; floating and complex input keep their dtype.
pub fn companion(a: &Tensor) -> Result<Tensor> {
    let a = atleast_1d(a)?;
    let d = dtype(&a)?;
    if d == DType::Bool {
        return Err(Error::DtypeNotAccepted { routine: "linalg.companion", dtype: d, accepted: "numeric input" });
    }
    let n = a.size()[a.dim() - 1];
    if n < 2 {
        return Err(invalid("The length of `a` along the last axis must be at least 2."));
    }
    let kind = if d.is_float() || d.is_complex() { d.kind().unwrap_or(Kind::Double) } else { Kind::Double };
    let a = cast(&a, kind)?;
    let lead = a.f_narrow(-1, 0, 1)?;
    if any(&lead.f_eq(0.0)?)? {
        return Err(invalid("The first coefficient(s) of `a` (i.e. elements of `a[..., 0]`) must not be zero."));
    }
    let first_row = a.f_narrow(-1, 1, n - 1)?.f_neg()?.f_div(&lead)?;
    let batch = batch_of(&a, 1);
    check_alloc(&concat(&batch, &[n - 1, n - 1]), dtype(&a)?.itemsize(), "the companion matrix")?;
    let shift = Tensor::f_eye_m(n - 2, n - 1, (kind, a.device()))?
        .f_expand(concat(&batch, &[n - 2, n - 1]).as_slice(), false)?;
    Ok(Tensor::f_cat(&[first_row.f_unsqueeze(-2)?, shift], -2)?)
}

/// `scipy.linalg.fiedler_companion`: the Fiedler companion matrix (a
/// pentadiagonal matrix with the eigenvalues of the companion matrix) of the
/// polynomial with coefficients `a` (highest degree first; leading
/// dimensions are a batch, as SciPy's `apply_along_axis`). The coefficients
/// are divided by the leading one: integer and bool input give float64,
/// floating and complex input keep their dtype; one coefficient or none
/// gives an empty array of the input's dtype, as SciPy's.
pub fn fiedler_companion(a: &Tensor) -> Result<Tensor> {
    let a = atleast_1d(a)?;
    let d = dtype(&a)?;
    let size = a.size()[a.dim() - 1];
    let batch = batch_of(&a, 1);
    if size <= 1 {
        return zeros_as(&a, &concat(&batch, &[0]));
    }
    let kind = if d.is_float() || d.is_complex() { d.kind().unwrap_or(Kind::Double) } else { Kind::Double };
    let a = cast(&a, kind)?;
    let lead = a.f_narrow(-1, 0, 1)?;
    if size > 2 && any(&lead.f_eq(0.0)?)? {
        return Err(invalid("Leading coefficient is zero."));
    }
    let minus = a.f_div(&lead)?.f_neg()?;
    let n = size - 1;
    check_alloc(&concat(&batch, &[n, n]), dtype(&a)?.itemsize(), "the Fiedler companion matrix")?;
    // values[..., 0] = 0, values[..., 1] = 1, values[..., 2 + k] = -a[k] / a[0]
    let zero = minus.f_narrow(-1, 0, 1)?.f_zeros_like()?;
    let values = Tensor::f_cat(&[zero.shallow_clone(), zero.f_ones_like()?, minus], -1)?;
    let grid = index_grid(n, n, a.device(), |i, j| match (i, j) {
        (0, 0) => 3,
        (1, 0) => 1,
        // subdiagonals: ones at (i, i - 2) for odd i >= 3, -a[i + 1] at (i, i - 1) for even i >= 2
        _ if i % 2 == 1 && i >= 3 && j == i - 2 => 1,
        _ if i % 2 == 0 && i >= 2 && j == i - 1 => 2 + i + 1,
        // superdiagonals: ones at (i, i + 2), -a[i + 2] at (i, i + 1), for even i
        _ if i % 2 == 0 && i < n - 2 && j == i + 2 => 1,
        _ if i % 2 == 0 && i < n - 1 && j == i + 1 => 2 + i + 2,
        _ => 0,
    })?;
    take_grid(&values, &grid)
}

/// `scipy.linalg.fiedler`: the symmetric matrix `|a_i - a_j|` (leading
/// dimensions are a batch; integer dtypes kept, wrapping as NumPy's do).
pub fn fiedler(a: &Tensor) -> Result<Tensor> {
    let a = atleast_1d(a)?;
    let d = dtype(&a)?;
    if d == DType::Bool {
        return Err(Error::DtypeNotAccepted { routine: "linalg.fiedler", dtype: d, accepted: "numeric input" });
    }
    if a.numel() == 0 {
        return Ok(Tensor::f_zeros([0i64].as_slice(), (Kind::Double, a.device()))?);
    }
    if a.numel() == 1 {
        return Ok(Tensor::f_zeros([1i64, 1].as_slice(), (Kind::Double, a.device()))?);
    }
    let n = a.size()[a.dim() - 1];
    check_alloc(&concat(&batch_of(&a, 1), &[n, n]), d.itemsize(), "the Fiedler matrix")?;
    if let Some(kind) = signed_twin(d) {
        // NumPy subtracts unsigned integers with wraparound and |.| is the
        // identity on them: the wrapped difference, computed on the bits.
        let bits = a.f_view_dtype(kind)?;
        return Ok(bits.f_unsqueeze(-1)?.f_sub(&bits.f_unsqueeze(-2)?)?.f_type_as(&a)?);
    }
    Ok(a.f_unsqueeze(-1)?.f_sub(&a.f_unsqueeze(-2)?)?.f_abs()?)
}

/// `scipy.linalg.leslie`: the Leslie matrix with fecundities `f` (first row)
/// and survival coefficients `s` (subdiagonal); leading dimensions batch.
pub fn leslie(f: &Tensor, s: &Tensor) -> Result<Tensor> {
    let f = atleast_1d(f)?;
    let s = atleast_1d(s)?;
    let n = f.size()[f.dim() - 1];
    let ns = s.size()[s.dim() - 1];
    if n != ns + 1 {
        return Err(invalid(
            "Incorrect lengths for f and s. The length of s along the last axis must be one less than the length of f.",
        ));
    }
    if ns == 0 {
        return Err(invalid("The length of s must be at least 1."));
    }
    let target = result_type(&[dtype(&f)?, dtype(&s)?]);
    let batch = broadcast_shapes(&[&batch_of(&f, 1), &batch_of(&s, 1)])?;
    let f = numpy::cast(&f, target)?.f_broadcast_to(concat(&batch, &[n]).as_slice())?;
    let s = numpy::cast(&s, target)?.f_broadcast_to(concat(&batch, &[ns]).as_slice())?;
    check_alloc(&concat(&batch, &[n, n]), target.itemsize(), "the Leslie matrix")?;
    let sub = s.f_diag_embed(0, -2, -1)?;
    let zero_col = zeros_as(&s, concat(&batch, &[ns, 1]).as_slice())?;
    let bottom = Tensor::f_cat(&[sub, zero_col], -1)?;
    Ok(Tensor::f_cat(&[f.f_unsqueeze(-2)?, bottom], -2)?)
}

/// The modes of `scipy.linalg.convolution_matrix`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvolutionMode {
    /// `'full'`
    Full,
    /// `'valid'`
    Valid,
    /// `'same'`
    Same,
}

/// `scipy.linalg.convolution_matrix`: the Toeplitz matrix `A` with
/// `A @ v == np.convolve(a, v, mode)` for `v` of length `n` (leading
/// dimensions of `a` batch).
pub fn convolution_matrix(a: &Tensor, n: i64, mode: ConvolutionMode) -> Result<Tensor> {
    if n <= 0 {
        return Err(invalid("n must be a positive integer."));
    }
    if a.dim() == 0 {
        // SciPy 1.17 fails on a 0-d `a` too (an IndexError from its batch handling)
        return Err(invalid("convolution_matrix: `a` must be at least 1-D"));
    }
    if a.numel() == 0 {
        return Err(invalid("len(a) must be at least 1."));
    }
    let a = a.shallow_clone();
    let len = a.size()[a.dim() - 1];
    let batch = batch_of(&a, 1);
    let pad = zeros_as(&a, concat(&batch, &[n - 1]).as_slice())?;
    let padded = Tensor::f_cat(&[pad.shallow_clone(), a.shallow_clone(), pad], -1)?;
    let full_rows = add_sizes(len, n - 1, "the convolution matrix")?;
    let (start, rows) = match mode {
        ConvolutionMode::Full => (0, full_rows),
        ConvolutionMode::Same => {
            let trim = n.min(len) - 1;
            (trim / 2, full_rows - trim)
        }
        ConvolutionMode::Valid => {
            let trim = n.min(len) - 1;
            (trim, full_rows - 2 * trim)
        }
    };
    let idx = index_grid(rows, n, a.device(), |i, j| i - j + start + n - 1)?;
    rearrange(&padded, |v| take_grid(v, &idx))
}

/// The order `n` as a `usize` and the element count `n * n` of an `n x n`
/// matrix of `itemsize`-byte entries, checked before anything is allocated.
fn check_order(n: i64, itemsize: usize) -> Result<(usize, usize)> {
    let size = usize::try_from(n).map_err(|_| invalid(format!("negative dimensions are not allowed (n={n})")))?;
    check_alloc(&[n, n], itemsize, "the matrix")?;
    // (within isize::MAX bytes, so the product fits)
    Ok((size, size * size))
}

/// `scipy.linalg.hilbert`: the Hilbert matrix `1 / (i + j + 1)`, float64.
pub fn hilbert(n: i64) -> Result<Tensor> {
    let (size, len) = check_order(n, 8)?;
    let mut data = try_vec(len, "the Hilbert matrix")?;
    data.extend((0..len).map(|k| 1.0 / ((k / size + k % size) as f64 + 1.0)));
    matrix_from(data, n, n)
}

/// The options of [`helmert`] (SciPy's default: without the first row).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HelmertOptions {
    /// `full`: keep the first row (the constant vector).
    pub full: bool,
}

/// `scipy.linalg.helmert`: the (full, or without its first row) Helmert
/// matrix of order `n`, float64.
pub fn helmert(n: i64, options: &HelmertOptions) -> Result<Tensor> {
    let (size, len) = check_order(n, 8)?;
    let mut data = filled(len, 0.0, "the Helmert matrix")?;
    for i in 0..size {
        let d = if i == 0 { size as f64 } else { (i * (i + 1)) as f64 };
        let scale = d.sqrt();
        for j in 0..size {
            let h = if i == 0 || j < i {
                1.0
            } else if j == i {
                -(i as f64)
            } else {
                0.0
            };
            data[i * size + j] = h / scale;
        }
    }
    let h = matrix_from(data, n, n)?;
    if options.full || n == 0 {
        Ok(h)
    } else {
        Ok(h.f_narrow(0, 1, n - 1)?.f_contiguous()?)
    }
}

/// `scipy.linalg.dft`'s `scale`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DftScale {
    /// `None`: no scaling.
    #[default]
    None,
    /// `'sqrtn'`: divided by `sqrt(n)`.
    SqrtN,
    /// `'n'`: divided by `n`.
    N,
}

impl DftScale {
    /// SciPy's values (`None`, `'sqrtn'`, `'n'`), with its ValueError for others.
    pub fn from_scipy(scale: Option<&str>) -> Result<DftScale> {
        match scale {
            None => Ok(DftScale::None),
            Some("sqrtn") => Ok(DftScale::SqrtN),
            Some("n") => Ok(DftScale::N),
            Some(other) => Err(invalid(format!("scale must be None, 'sqrtn', or 'n'; '{other}' is not valid."))),
        }
    }
}

/// `scipy.linalg.dft`: the `n`-point DFT matrix `exp(-2 pi i jk / n)`
/// (angles reduced mod `n` exactly, so large `n` keeps full accuracy),
/// complex128, divided by `sqrt(n)` or `n` as `scale` asks.
pub fn dft(n: i64, scale: DftScale) -> Result<Tensor> {
    let (size, len) = check_order(n, 16)?;
    let divisor = match scale {
        DftScale::None => 1.0,
        DftScale::SqrtN => (n as f64).sqrt(),
        DftScale::N => n as f64,
    };
    let mut re = try_vec(len, "the DFT matrix")?;
    let mut im = try_vec(len, "the DFT matrix")?;
    for j in 0..size {
        for k in 0..size {
            let angle = -2.0 * std::f64::consts::PI * ((j * k) % size.max(1)) as f64 / n as f64;
            re.push(angle.cos() / divisor);
            im.push(angle.sin() / divisor);
        }
    }
    Ok(Tensor::f_complex(&matrix_from(re, n, n)?, &matrix_from(im, n, n)?)?)
}

/// `scipy.linalg.hadamard`: the Sylvester Hadamard matrix of order `n` (a
/// power of 2), int64.
pub fn hadamard(n: i64) -> Result<Tensor> {
    if n < 1 || (n & (n - 1)) != 0 {
        return Err(invalid("n must be an positive integer, and n must be a power of 2"));
    }
    let (size, len) = check_order(n, 8)?;
    let mut data: Vec<i64> = try_vec(len, "the Hadamard matrix")?;
    data.extend((0..len).map(|k| if ((k / size) & (k % size)).count_ones() % 2 == 0 { 1 } else { -1 }));
    Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?)
}

/// Exact binomial coefficient, `None` on overflow.
fn binomial_exact(n: i64, k: i64) -> Option<i128> {
    if k < 0 || n < 0 || k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: i128 = 1;
    for i in 1..=k as i128 {
        r = r.checked_mul(n as i128 - k as i128 + i)? / i;
    }
    Some(r)
}

/// Binomial coefficient in floating point (exact while it fits 2^53).
fn binomial_float(n: i64, k: i64) -> f64 {
    match binomial_exact(n, k) {
        Some(v) => v as f64,
        None => {
            let k = k.min(n - k);
            let mut r = 1.0f64;
            for i in 1..=k {
                r = r * (n - k + i) as f64 / i as f64;
            }
            r.round()
        }
    }
}

/// The options of [`invhilbert`] (SciPy's default: float64 entries).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InvHilbertOptions {
    /// `exact`: int64 entries (else float64).
    pub exact: bool,
}

/// `scipy.linalg.invhilbert`: the inverse of the Hilbert matrix of order
/// `n`, float64, or int64 with `exact` (SciPy returns Python objects beyond
/// `n = 14`; that is not implemented). The float64 entries are the exact
/// integers rounded once (SciPy's floating-point `comb` products differ in
/// the last digits).
pub fn invhilbert(n: i64, options: &InvHilbertOptions) -> Result<Tensor> {
    let exact = options.exact;
    let (_, len) = check_order(n, 8)?;
    if exact && n > 14 {
        return Err(not_implemented(
            "invhilbert(n, exact=True) for n > 14 (SciPy returns an object array of Python ints)",
        ));
    }
    let entry = |i: i64, j: i64| -> Option<i128> {
        let s = i + j;
        let sign: i128 = if s % 2 == 0 { 1 } else { -1 };
        let c = binomial_exact(s, i)?;
        sign.checked_mul((s + 1) as i128)?
            .checked_mul(binomial_exact(n + i, n - j - 1)?)?
            .checked_mul(binomial_exact(n + j, n - i - 1)?)?
            .checked_mul(c.checked_mul(c)?)
    };
    if exact {
        let mut data = filled(len, 0i64, "the matrix")?;
        for i in 0..n {
            for j in 0..n {
                let v = entry(i, j).ok_or_else(|| not_implemented("invhilbert: entry overflows int64"))?;
                data[(i * n + j) as usize] =
                    i64::try_from(v).map_err(|_| not_implemented("invhilbert: entry overflows int64"))?;
            }
        }
        return Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?);
    }
    let mut data = filled(len, 0f64, "the matrix")?;
    for i in 0..n {
        for j in 0..n {
            data[(i * n + j) as usize] = match entry(i, j) {
                Some(v) => v as f64,
                None => {
                    let s = i + j;
                    let sign = if s % 2 == 0 { 1.0 } else { -1.0 };
                    let c = binomial_float(s, i);
                    sign * (s + 1) as f64 * binomial_float(n + i, n - j - 1) * binomial_float(n + j, n - i - 1) * c * c
                }
            };
        }
    }
    matrix_from(data, n, n)
}

/// Which Pascal matrix: `'symmetric'`, `'lower'` or `'upper'`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PascalKind {
    /// `C(i + j, i)`
    #[default]
    Symmetric,
    /// `C(i, j)`
    Lower,
    /// `C(j, i)`
    Upper,
}

/// The options of [`pascal`] and [`invpascal`] (SciPy's defaults:
/// symmetric, exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PascalOptions {
    /// `kind`.
    pub kind: PascalKind,
    /// `exact`: integer entries (else float64).
    pub exact: bool,
}

impl Default for PascalOptions {
    fn default() -> PascalOptions {
        PascalOptions { kind: PascalKind::Symmetric, exact: true }
    }
}

/// `scipy.linalg.pascal`: with `exact` (`n < 35`; SciPy returns Python
/// objects beyond, not implemented) the bit patterns of SciPy's uint64
/// values in an int64 tensor (`tch::Kind` cannot name uint64: view it as
/// uint64), float64 otherwise.
pub fn pascal(n: i64, options: &PascalOptions) -> Result<Tensor> {
    let PascalOptions { kind, exact } = *options;
    let (_, len) = check_order(n, 8)?;
    if exact && n >= 35 {
        return Err(not_implemented(
            "pascal(n, exact=True) for n >= 35 (SciPy returns an object array of Python ints)",
        ));
    }
    let value = |i: i64, j: i64| match kind {
        PascalKind::Symmetric => (i + j, i),
        PascalKind::Lower => (i, j),
        PascalKind::Upper => (j, i),
    };
    if exact {
        let mut data = filled(len, 0i64, "the matrix")?;
        for i in 0..n {
            for j in 0..n {
                let (a, b) = value(i, j);
                let v = binomial_exact(a, b).ok_or_else(|| not_implemented("pascal: entry overflows"))?;
                // bit pattern of the uint64 value (C(68, 34) < 2^64)
                data[(i * n + j) as usize] = v as u64 as i64;
            }
        }
        return Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?);
    }
    let mut data = filled(len, 0f64, "the matrix")?;
    for i in 0..n {
        for j in 0..n {
            let (a, b) = value(i, j);
            data[(i * n + j) as usize] = binomial_float(a, b);
        }
    }
    matrix_from(data, n, n)
}

/// `scipy.linalg.invpascal`: the inverse of [`pascal`], int64 with `exact`
/// (`n <= 34`), float64 otherwise.
pub fn invpascal(n: i64, options: &PascalOptions) -> Result<Tensor> {
    let PascalOptions { kind, exact } = *options;
    let (_, len) = check_order(n, 8)?;
    if exact && n > 34 {
        return Err(not_implemented(
            "invpascal(n, exact=True) for n > 34 (SciPy returns an object array of Python ints)",
        ));
    }
    let entry = |i: i64, j: i64| -> Option<i128> {
        let sign: i128 = if (i - j).rem_euclid(2) == 0 { 1 } else { -1 };
        match kind {
            PascalKind::Lower => Some(sign * binomial_exact(i, j)?),
            PascalKind::Upper => Some(sign * binomial_exact(j, i)?),
            PascalKind::Symmetric => {
                let (i, j) = if j > i { (j, i) } else { (i, j) };
                let mut v: i128 = 0;
                for k in 0..(n - i) {
                    v = v.checked_add(binomial_exact(i + k, k)?.checked_mul(binomial_exact(i + k, i + k - j)?)?)?;
                }
                Some(sign * v)
            }
        }
    };
    if exact {
        let mut data = filled(len, 0i64, "the matrix")?;
        for i in 0..n {
            for j in 0..n {
                let v = entry(i, j).ok_or_else(|| not_implemented("invpascal: entry overflows int64"))?;
                data[(i * n + j) as usize] =
                    i64::try_from(v).map_err(|_| not_implemented("invpascal: entry overflows int64"))?;
            }
        }
        return Ok(Tensor::f_from_slice(&data)?.f_reshape([n, n])?);
    }
    let mut data = filled(len, 0f64, "the matrix")?;
    for i in 0..n {
        for j in 0..n {
            data[(i * n + j) as usize] = match entry(i, j) {
                Some(v) => v as f64,
                None => return Err(not_implemented("invpascal: entries beyond 2^127 are not implemented")),
            };
        }
    }
    matrix_from(data, n, n)
}
