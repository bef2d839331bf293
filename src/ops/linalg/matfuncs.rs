//! `scipy.linalg._matfuncs` (and `_expm_frechet`): the matrix exponential,
//! the trigonometric and hyperbolic matrix functions, and `expm_frechet`.

use tch::{Kind, Tensor};

use super::basic::{solve, SolveOptions, Solved};
use super::dtypes::*;
use super::invalid;
use super::lapack::{Dense, Scalar, C64};
use super::shapes::*;
use super::CheckFinite;
use crate::ops::dtype;
use crate::ops::numpy::{broadcast_shapes, check_finite_all};
use crate::{DType, Error, Result};

/// NumPy's `exp` loop dtype for this input (the 1x1 case of `expm`).
fn numpy_exp_kind(d: DType) -> Kind {
    match d {
        DType::Bool | DType::Int8 | DType::UInt8 | DType::Float16 => Kind::Half,
        DType::Int16 | DType::UInt16 | DType::Float32 => Kind::Float,
        DType::BFloat16 => Kind::BFloat16,
        DType::Complex64 => Kind::ComplexFloat,
        DType::Complex128 => Kind::ComplexDouble,
        _ => Kind::Double,
    }
}

/// Al-Mohy & Higham's `theta_m` (2009, Table 3.1) for `m` = 3, 5, 7, 9, 13,
/// as SciPy's `pick_pade_structure` uses them in both precisions.
const THETA: [f64; 5] =
    [0.014_955_852_179_582_92, 0.253_939_833_006_323, 0.950_417_899_616_293_2, 2.097_847_961_257_068, 4.25];

/// `|c_{2m+1}| / u` of the backward-error bound (the `ell` test), per `m`,
/// for float64 and float32 (SciPy's `coeff` tables).
const ELL_COEFF_DOUBLE: [f64; 5] = [
    1.119_104_808_822_157_8e-11,
    1.116_777_070_819_807_7e-6,
    0.498_261_243_104_934_7,
    656_628.625,
    1.257_336_186_533_943_7e19,
];
const ELL_COEFF_SINGLE: [f64; 5] =
    [0.006_008_148_193_359_375, 599.565_124_511_718_8, 267_501_968.0, 352_524_808_749_056.0, 6.750_272_251_550_805e27];

/// The Padé coefficients `b_0..=b_m` of the diagonal `[m/m]` approximant of `exp`.
fn pade_coefficients(m: i64) -> &'static [f64] {
    match m {
        3 => &[120.0, 60.0, 12.0, 1.0],
        5 => &[30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0],
        7 => &[17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0],
        9 => &[
            17643225600.0,
            8821612800.0,
            2075673600.0,
            302702400.0,
            30270240.0,
            2162160.0,
            110880.0,
            3960.0,
            90.0,
            1.0,
        ],
        _ => &[
            64764752532480000.0,
            32382376266240000.0,
            7771770303897600.0,
            1187353796428800.0,
            129060195264000.0,
            10559470521600.0,
            670442572800.0,
            33522128640.0,
            1323241920.0,
            40840800.0,
            960960.0,
            16380.0,
            182.0,
            1.0,
        ],
    }
}

/// The 1-norm (largest column sum of magnitudes) of each matrix of `x`, `(B,)`.
fn norm1(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_abs()?.f_sum_dim_intlist(-2, false, None::<Kind>)?.f_amax(-1, false)?)
}

/// The degree `m` and squarings `s` of each matrix of `a` `(B, n, n)`:
/// SciPy's `pick_pade_structure` (Al-Mohy & Higham 2009, Algorithm 5.1),
/// with the `ell` test's norms of powers of `|A|` by repeated products with
/// a vector of ones, as SciPy's, and the exact 1-norms of `A^8` and `A^10`
/// at every size (SciPy estimates them from n = 400 on). Also the powers
/// `A^2`, `A^4`, `A^6` it needs.
fn pick_pade_structure(a: &Tensor) -> Result<(Vec<i64>, Vec<i64>, [Tensor; 3])> {
    let single = matches!(a.kind(), Kind::Float | Kind::ComplexFloat);
    let coeff = if single { ELL_COEFF_SINGLE } else { ELL_COEFF_DOUBLE };
    let abs = a.f_abs()?.f_to_kind(Kind::Double)?;
    let n = a.size()[a.dim() - 1];
    let mut v = Tensor::f_ones([a.size()[0], n, 1], (Kind::Double, a.device()))?;
    let spin = |times: usize, v: &mut Tensor| -> Result<Tensor> {
        for _ in 0..times {
            *v = abs.f_matmul(v)?;
        }
        Ok(v.f_amax(&[-2i64, -1][..], false)?)
    };
    let norm_a = spin(1, &mut v)?;
    let a2 = a.f_matmul(a)?;
    let a4 = a2.f_matmul(&a2)?;
    let a6 = a4.f_matmul(&a2)?;
    let root =
        |x: &Tensor, k: f64| -> Result<Tensor> { Ok(norm1(x)?.f_to_kind(Kind::Double)?.f_pow_tensor_scalar(1.0 / k)?) };
    // ell(A, m) = max(ceil(log2(||A|^(2m+1)|| / ||A|| / coeff) / (2m)), 0)
    let ell = |power: &Tensor, norm: &Tensor, c: f64, m: f64| -> Result<Tensor> {
        Ok(power.f_div(norm)?.f_div_scalar(c)?.f_log2()?.f_div_scalar(2.0 * m)?.f_ceil()?.f_clamp_min(0.0)?)
    };
    let (d4, d6) = (root(&a4, 4.0)?, root(&a6, 6.0)?);
    let eta1 = d4.f_maximum(&d6)?;
    let l3 = ell(&spin(6, &mut v)?, &norm_a, coeff[0], 3.0)?;
    let l5 = ell(&spin(4, &mut v)?, &norm_a, coeff[1], 5.0)?;
    let d8 = root(&a4.f_matmul(&a4)?, 8.0)?;
    let eta2 = d6.f_maximum(&d8)?;
    let l7 = ell(&spin(4, &mut v)?, &norm_a, coeff[2], 7.0)?;
    let l9 = ell(&spin(4, &mut v)?, &norm_a, coeff[3], 9.0)?;
    let d10 = root(&a6.f_matmul(&a4)?, 10.0)?;
    let eta4 = eta2.f_minimum(&d8.f_maximum(&d10)?)?;
    let s = eta4.f_div_scalar(THETA[4])?.f_log2()?.f_ceil()?.f_clamp_min(0.0)?.f_nan_to_num(0.0, 0.0, 0.0)?;
    // |A|^27 of the scaled matrix: the 19th power so far, scaled by 2^(-19 s), then 8 more of |A| 2^(-s).
    let scale = Tensor::f_pow_scalar(0.5, &s)?;
    let mut scaled = v.f_mul(&Tensor::f_pow_scalar(0.5, &s.f_mul_scalar(19.0)?)?.f_view([-1, 1, 1])?)?;
    let scaled_abs = abs.f_mul(&scale.f_view([-1, 1, 1])?)?;
    for _ in 0..8 {
        scaled = scaled_abs.f_matmul(&scaled)?;
    }
    let l13 = ell(&scaled.f_amax(&[-2i64, -1][..], false)?, &norm_a.f_mul(&scale)?, coeff[4], 13.0)?;
    let s13 = s.f_add(&l13.f_nan_to_num(0.0, 0.0, 0.0)?)?;
    let host = |t: &Tensor| -> Result<Vec<f64>> {
        Ok(Vec::<f64>::try_from(&t.f_to_device(tch::Device::Cpu)?.f_contiguous()?)?)
    };
    let tests = [
        (host(&eta1)?, host(&l3)?, THETA[0]),
        (host(&eta1)?, host(&l5)?, THETA[1]),
        (host(&eta2)?, host(&l7)?, THETA[2]),
        (host(&eta2)?, host(&l9)?, THETA[3]),
    ];
    let s13 = host(&s13)?;
    let mut ms = Vec::with_capacity(s13.len());
    let mut ss = Vec::with_capacity(s13.len());
    for (b, &squarings) in s13.iter().enumerate() {
        let degree = [3, 5, 7, 9].iter().zip(&tests).find(|(_, (eta, l, theta))| eta[b] < *theta && l[b] == 0.0);
        match degree {
            Some((&m, _)) => (ms.push(m), ss.push(0)),
            // A non-finite matrix gives s = 0 (its result is NaN, as SciPy's).
            None => (ms.push(13), ss.push(if squarings.is_finite() { squarings.min(2048.0) as i64 } else { 0 })),
        };
    }
    Ok((ms, ss, [a2, a4, a6]))
}

/// `exp(x)` for the whole of one of `pick_pade_structure`'s degree groups:
/// the `[m/m]` Padé approximant `(V - U)^-1 (V + U)` of `a / 2^s` (powers
/// `a2`, `a4`, `a6` of `a`, `scale` its `2^-s` per matrix, `(B,)`).
fn pade(a: &Tensor, powers: [&Tensor; 3], m: i64, scale: &Tensor) -> Result<Tensor> {
    let b = pade_coefficients(m);
    let per = |k: f64| -> Result<Tensor> {
        Ok(scale.f_pow_tensor_scalar(k)?.f_to_kind(real_kind(a.kind()))?.f_view([-1, 1, 1])?)
    };
    let a1 = a.f_mul(&per(1.0)?)?;
    let a2 = powers[0].f_mul(&per(2.0)?)?;
    let a4 = powers[1].f_mul(&per(4.0)?)?;
    let a6 = powers[2].f_mul(&per(6.0)?)?;
    let n = a.size()[a.dim() - 1];
    let eye = Tensor::f_eye(n, (a.kind(), a.device()))?;
    // sum_k c_k X_k over (coefficient, matrix) pairs
    let combo = |terms: &[(f64, &Tensor)]| -> Result<Tensor> {
        let mut sum = terms[0].1.f_mul_scalar(terms[0].0)?;
        for (c, x) in &terms[1..] {
            sum = sum.f_add(&x.f_mul_scalar(*c)?)?;
        }
        Ok(sum)
    };
    let (odd, even) = match m {
        3 => (combo(&[(b[3], &a2), (b[1], &eye)])?, combo(&[(b[2], &a2), (b[0], &eye)])?),
        5 => (combo(&[(b[5], &a4), (b[3], &a2), (b[1], &eye)])?, combo(&[(b[4], &a4), (b[2], &a2), (b[0], &eye)])?),
        7 => (
            combo(&[(b[7], &a6), (b[5], &a4), (b[3], &a2), (b[1], &eye)])?,
            combo(&[(b[6], &a6), (b[4], &a4), (b[2], &a2), (b[0], &eye)])?,
        ),
        9 => {
            let a8 = a4.f_matmul(&a4)?;
            (
                combo(&[(b[9], &a8), (b[7], &a6), (b[5], &a4), (b[3], &a2), (b[1], &eye)])?,
                combo(&[(b[8], &a8), (b[6], &a6), (b[4], &a4), (b[2], &a2), (b[0], &eye)])?,
            )
        }
        _ => {
            let high_odd = a6.f_matmul(&combo(&[(b[13], &a6), (b[11], &a4), (b[9], &a2)])?)?;
            let high_even = a6.f_matmul(&combo(&[(b[12], &a6), (b[10], &a4), (b[8], &a2)])?)?;
            (
                high_odd.f_add(&combo(&[(b[7], &a6), (b[5], &a4), (b[3], &a2), (b[1], &eye)])?)?,
                high_even.f_add(&combo(&[(b[6], &a6), (b[4], &a4), (b[2], &a2), (b[0], &eye)])?)?,
            )
        }
    };
    let u = a1.f_matmul(&odd)?;
    Ok(Tensor::f_linalg_solve(&even.f_sub(&u)?, &even.f_add(&u)?, true)?)
}

/// `(exp(b) - exp(a)) / (b - a)` for neighbouring `x = [.., a, b, ..]` along
/// the last axis (`exp(a)` where `a == b`): SciPy's `_exp_sinch`, the exact
/// first off-diagonal of the exponential of a bidiagonal matrix.
fn exp_sinch(x: &Tensor) -> Result<Tensor> {
    let n = x.size()[x.dim() - 1];
    let (head, tail) = (x.f_narrow(-1, 0, n - 1)?, x.f_narrow(-1, 1, n - 1)?);
    let exp_diff = tail.f_exp()?.f_sub(&head.f_exp()?)?;
    let diff = tail.f_sub(&head)?;
    let equal = diff.f_eq(0.0)?;
    let quotient = exp_diff.f_div(&diff.f_masked_fill(&equal, 1.0)?)?;
    Ok(head.f_exp()?.f_where_self(&equal, &quotient)?)
}

/// `m` with its diagonal replaced by `values`.
fn with_diagonal(m: &Tensor, values: &Tensor, offset: i64) -> Result<Tensor> {
    let old = m.f_diagonal(offset, -2, -1)?.f_diag_embed(offset, -2, -1)?;
    Ok(m.f_sub(&old)?.f_add(&values.f_diag_embed(offset, -2, -1)?)?)
}

/// Whether each matrix of `x` `(B, n, n)` has only zeros below its diagonal, `(B,)`.
fn upper_triangular(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_tril(-1)?.f_ne(0.0)?.f_any_dims(&[-2i64, -1][..], false)?.f_logical_not()?)
}

/// The exponential of square matrices `(..., n, n)` already in a floating
/// kind, by SciPy's algorithm (Al-Mohy & Higham 2009): `exp` of the diagonal
/// for diagonal matrices; otherwise for each matrix the Padé degree and
/// scaling SciPy picks, then `s` squarings; for triangular input, the
/// diagonal and first off-diagonal recomputed exactly after each squaring
/// (their Code Fragment 2.1) and the other triangle kept zero, which keeps
/// badly scaled triangular matrices (entries 1 to 3e4) accurate where a
/// plain scaling and squaring loses every digit. Lower triangular matrices
/// are computed as `expm(A^T)^T`: libtorch's LU pivots on them, and their
/// error was ten times SciPy's on the Al-Mohy & Higham matrix. Batches are
/// computed together, grouped by degree.
fn expm_core(a: &Tensor) -> Result<Tensor> {
    let shape = a.size();
    let n = shape[shape.len() - 1];
    let a = a.f_reshape([-1, n, n])?;
    let upper = upper_triangular(&a)?;
    let lower = upper_triangular(&a.f_mt()?)?;
    let diagonal = upper.f_logical_and(&lower)?;
    let flip = lower.f_logical_and(&diagonal.f_logical_not()?)?.f_view([-1, 1, 1])?;
    // From here every triangular matrix is upper triangular.
    let a = a.f_mt()?.f_where_self(&flip, &a)?;
    let triangular = upper.f_logical_or(&lower)?;
    let mut result = a.f_diagonal(0, -2, -1)?.f_exp()?.f_diag_embed(0, -2, -1)?;
    let general = Vec::<bool>::try_from(&diagonal.f_logical_not()?.f_to_device(tch::Device::Cpu)?)?;
    let todo: Vec<i64> = (0..general.len() as i64).filter(|&b| general[b as usize]).collect();
    let device = a.device();
    let index = Tensor::f_from_slice(&todo)?.f_to_device(device)?;
    let sub = a.f_index_select(0, &index)?;
    let triangular = triangular.f_index_select(0, &index)?;
    let (ms, ss, powers) = if todo.is_empty() {
        (vec![], vec![], [sub.shallow_clone(), sub.shallow_clone(), sub.shallow_clone()])
    } else {
        pick_pade_structure(&sub)?
    };
    for m in [3, 5, 7, 9, 13] {
        let members: Vec<i64> = (0..ms.len()).filter(|&k| ms[k] == m).map(|k| k as i64).collect();
        if members.is_empty() {
            continue;
        }
        let local = Tensor::f_from_slice(&members)?.f_to_device(device)?;
        let pick = |x: &Tensor| x.f_index_select(0, &local);
        let squarings: Vec<i64> = members.iter().map(|&k| ss[k as usize]).collect();
        let s = Tensor::f_from_slice(&squarings)?.f_to_device(device)?;
        let x = pick(&sub)?;
        let scale = Tensor::f_pow_scalar(0.5, &s.f_to_kind(Kind::Double)?)?;
        let mut e = pade(&x, [&pick(&powers[0])?, &pick(&powers[1])?, &pick(&powers[2])?], m, &scale)?;
        let triangular = pick(&triangular)?.f_view([-1, 1, 1])?;
        let most = squarings.iter().copied().max().unwrap_or(0);
        if most > 0 {
            let (d, off) = (x.f_diagonal(0, -2, -1)?, x.f_diagonal(1, -2, -1)?);
            // For the triangular matrices, the exact diagonal (and first
            // superdiagonal) of exp(x / 2^i), `i` per matrix.
            let exact = |e: &Tensor, i: &Tensor, with_off: bool| -> Result<Tensor> {
                let factor = Tensor::f_pow_scalar(0.5, &i.f_to_kind(Kind::Double)?)?
                    .f_to_kind(real_kind(x.kind()))?
                    .f_view([-1, 1])?;
                let scaled = d.f_mul(&factor)?;
                let mut fixed = with_diagonal(e, &scaled.f_exp()?, 0)?;
                if with_off {
                    fixed = with_diagonal(&fixed, &exp_sinch(&scaled)?.f_mul(&off.f_mul(&factor)?)?, 1)?;
                }
                Ok(fixed.f_where_self(&triangular, e)?)
            };
            e = exact(&e, &s, false)?.f_where_self(&s.f_gt(0)?.f_view([-1, 1, 1])?, &e)?;
            for i in (0..most).rev() {
                let active = s.f_gt(i)?.f_view([-1, 1, 1])?;
                let squared = e.f_matmul(&e)?;
                e = exact(&squared, &s.f_full_like(i)?, true)?.f_where_self(&active, &e)?;
            }
        }
        // Triangular input: the lower triangle exactly zero, as SciPy's triu.
        e = e.f_triu(0)?.f_where_self(&triangular, &e)?;
        result = result.f_index_copy(0, &index.f_index_select(0, &local)?, &e)?;
    }
    Ok(result.f_mt()?.f_where_self(&flip, &result)?.f_reshape(shape.as_slice())?)
}

/// `scipy.linalg.expm`: the matrix exponential of `(..., N, N)` `a`. Integer
/// input computes in float64 and float16 in float32; a 1x1 matrix is `exp`
/// of its entry in NumPy's `exp` dtype, and a single number `[[exp(a)]]`.
pub fn expm(a: &Tensor) -> Result<Tensor> {
    let d = dtype(a)?;
    if a.numel() == 1 && a.dim() < 2 {
        let kind = if d.is_complex() { Kind::ComplexDouble } else { Kind::Double };
        return Ok(cast(a, kind)?.f_reshape([1i64, 1].as_slice())?.f_exp()?);
    }
    if a.dim() < 2 {
        return Err(Error::LinAlg("The input array must be at least two-dimensional".into()));
    }
    let s = a.size();
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(Error::LinAlg("Last 2 dimensions of the array must be square".into()));
    }
    if a.numel() == 0 {
        return Ok(cast(a, cdsz_kind(&[d]))?.f_zeros_like()?);
    }
    if s[s.len() - 1] == 1 {
        return Ok(cast(a, numpy_exp_kind(d))?.f_exp()?);
    }
    expm_core(&cast(a, cdsz_kind(&[d]))?)
}

/// `i * x` for real or complex `x`, complex result of `kind`.
fn times_i(x: &Tensor, kind: Kind) -> Result<Tensor> {
    if dtype(x)?.is_complex() {
        let (re, im) = (x.f_real()?, x.f_imag()?);
        Ok(Tensor::f_complex(&im.f_neg()?, &re)?.f_to_kind(kind)?)
    } else {
        Ok(Tensor::f_complex(&x.f_zeros_like()?, x)?.f_to_kind(kind)?)
    }
}

/// The trigonometric and hyperbolic matrix functions of `scipy.linalg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixFunction {
    /// `cosm`
    Cos,
    /// `sinm`
    Sin,
    /// `tanm`
    Tan,
    /// `coshm`
    Cosh,
    /// `sinhm`
    Sinh,
    /// `tanhm`
    Tanh,
}

/// `scipy.linalg.cosm`, `sinm`, `tanm`, `coshm`, `sinhm`, `tanhm`, by SciPy's
/// formulas through `expm` (`tanm = solve(cosm, sinm)`, `tanhm = solve(coshm,
/// sinhm)`; their `rcond` is returned for SciPy's ill-conditioning warning,
/// 1 for the others).
pub fn matrix_function(a: &Tensor, f: MatrixFunction) -> Result<Solved> {
    if square("matrix function", a).is_err() {
        return Err(invalid("expected square array_like input"));
    }
    let d = dtype(a)?;
    if d == DType::Bool && matches!(f, MatrixFunction::Cosh | MatrixFunction::Sinh | MatrixFunction::Tanh) {
        return Err(Error::DtypeNotAccepted {
            routine: "linalg.coshm/sinhm/tanhm",
            dtype: d,
            accepted: "integer, floating-point and complex input (NumPy cannot negate bool arrays)",
        });
    }
    let kind = cdsz_kind(&[d]);
    let ck = complex_kind(kind);
    let complex = is_complex_kind(kind);
    let a = cast(a, kind)?;
    let batch = batch_of(&a, 2);
    let ones = || Tensor::f_ones(batch.as_slice(), (real_kind(kind), a.device()));
    let plain = |x: Tensor| -> Result<Solved> { Ok(Solved { x, rcond: ones()? }) };
    if a.numel() == 0 {
        return plain(a.f_zeros_like()?);
    }
    // tanm/tanhm are SciPy's `solve(cosm(A), sinm(A))`: its check of the two (a ValueError where they
    // are not finite, for non-finite `A` too) is kept
    let checked = SolveOptions::default();
    let ia = || times_i(&a, ck);
    let cos = || -> Result<Tensor> {
        let e = expm_core(&ia()?)?;
        if complex {
            Ok(e.f_add(&expm_core(&ia()?.f_neg()?)?)?.f_mul_scalar(0.5)?)
        } else {
            Ok(e.f_real()?.f_contiguous()?)
        }
    };
    let sin = || -> Result<Tensor> {
        let e = expm_core(&ia()?)?;
        if complex {
            let diff = e.f_sub(&expm_core(&ia()?.f_neg()?)?)?;
            Ok(times_i(&diff, ck)?.f_mul_scalar(-0.5)?)
        } else {
            Ok(e.f_imag()?.f_contiguous()?)
        }
    };
    let cosh = || -> Result<Tensor> { Ok(expm_core(&a)?.f_add(&expm_core(&a.f_neg()?)?)?.f_mul_scalar(0.5)?) };
    let sinh = || -> Result<Tensor> { Ok(expm_core(&a)?.f_sub(&expm_core(&a.f_neg()?)?)?.f_mul_scalar(0.5)?) };
    match f {
        MatrixFunction::Cos => plain(cos()?),
        MatrixFunction::Sin => plain(sin()?),
        MatrixFunction::Cosh => plain(cosh()?),
        MatrixFunction::Sinh => plain(sinh()?),
        MatrixFunction::Tan => solve(&cos()?, &sin()?, &checked),
        MatrixFunction::Tanh => solve(&cosh()?, &sinh()?, &checked),
    }
}

/// `scipy.linalg.cosm`.
pub fn cosm(a: &Tensor) -> Result<Tensor> {
    Ok(matrix_function(a, MatrixFunction::Cos)?.x)
}

/// `scipy.linalg.sinm`.
pub fn sinm(a: &Tensor) -> Result<Tensor> {
    Ok(matrix_function(a, MatrixFunction::Sin)?.x)
}

/// `scipy.linalg.tanm`, with the `rcond` of its solve (SciPy warns below eps).
pub fn tanm(a: &Tensor) -> Result<Solved> {
    matrix_function(a, MatrixFunction::Tan)
}

/// `scipy.linalg.coshm`.
pub fn coshm(a: &Tensor) -> Result<Tensor> {
    Ok(matrix_function(a, MatrixFunction::Cosh)?.x)
}

/// `scipy.linalg.sinhm`.
pub fn sinhm(a: &Tensor) -> Result<Tensor> {
    Ok(matrix_function(a, MatrixFunction::Sinh)?.x)
}

/// `scipy.linalg.tanhm`, with the `rcond` of its solve.
pub fn tanhm(a: &Tensor) -> Result<Solved> {
    matrix_function(a, MatrixFunction::Tanh)
}

/// [`expm_frechet`]'s result.
pub struct ExpmFrechet {
    /// `expm(a)`.
    pub expm: Tensor,
    /// The Frechet derivative of `expm` at `a` in direction `e`.
    pub frechet: Tensor,
}

/// `scipy.linalg.expm_frechet`: `expm(a)` and the Frechet derivative of the
/// matrix exponential at `a` in direction `e`, read off the exponential of
/// the block matrix `[[a, e], [0, a]]` (SciPy's `'blockEnlarge'` method;
/// its default `'SPS'` computes the same quantity). Always float64 or
/// complex128, as SciPy returns it.
pub fn expm_frechet(a: &Tensor, e: &Tensor, check_finite: CheckFinite) -> Result<ExpmFrechet> {
    let check = check_finite.enabled();
    if square("expm_frechet", a).is_err() {
        return Err(invalid("expected A to be a square matrix"));
    }
    if square("expm_frechet", e).is_err() {
        return Err(invalid("expected E to be a square matrix"));
    }
    if a.size()[a.dim() - 2..] != e.size()[e.dim() - 2..] {
        return Err(invalid("expected A and E to be the same shape"));
    }
    check_finite_all(check, &[a, e])?;
    for x in [a, e] {
        let d = dtype(x)?;
        if matches!(d, DType::Float16 | DType::BFloat16) {
            // SciPy's expm_frechet fails on half precision too (ValueError).
            return Err(invalid(format!("expm_frechet does not support {d} input")));
        }
    }
    let complex = dtype(a)?.is_complex() || dtype(e)?.is_complex();
    let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
    let batch = broadcast_shapes(&[&batch_of(a, 2), &batch_of(e, 2)])?;
    let n = a.size()[a.dim() - 1];
    let shape = concat(&batch, &[n, n]);
    let a = cast(a, kind)?.f_broadcast_to(shape.as_slice())?;
    let e = cast(e, kind)?.f_broadcast_to(shape.as_slice())?;
    if n == 0 {
        return Ok(ExpmFrechet { expm: a.f_zeros_like()?, frechet: e.f_zeros_like()? });
    }
    let top = Tensor::f_cat(&[a.shallow_clone(), e], -1)?;
    let bottom = Tensor::f_cat(&[a.f_zeros_like()?, a.shallow_clone()], -1)?;
    let big = expm_core(&Tensor::f_cat(&[top, bottom], -2)?)?;
    let exp_a = big.f_narrow(-2, 0, n)?.f_narrow(-1, 0, n)?.f_contiguous()?;
    let frechet = big.f_narrow(-2, 0, n)?.f_narrow(-1, n, n)?.f_contiguous()?;
    Ok(ExpmFrechet { expm: exp_a, frechet })
}

/// SciPy's `_funm_loops` (Golub & Van Loan's Algorithm 11.1.1, Parlett's
/// recurrence): completes the upper triangle of `f = f(T)` from its diagonal
/// for upper triangular `t`. Returns `f` and the smallest distance between
/// two diagonal entries met (`|t_00|` to start with, as SciPy).
pub(crate) fn parlett(t: &Dense<C64>, mut f: Dense<C64>) -> (Dense<C64>, f64) {
    let n = t.n;
    let mut minden = if n > 0 { t.at(0, 0).abs() } else { f64::INFINITY };
    for p in 1..n {
        for i in 1..=n - p {
            let j = i + p;
            let mut s = t.at(i - 1, j - 1) * (f.at(j - 1, j - 1) - f.at(i - 1, i - 1));
            let mut val = C64::default();
            for k in i..j - 1 {
                val += t.at(i - 1, k) * f.at(k, j - 1);
            }
            let mut val2 = C64::default();
            for k in i..j - 1 {
                val2 += f.at(i - 1, k) * t.at(k, j - 1);
            }
            s += val - val2;
            let den = t.at(j - 1, j - 1) - t.at(i - 1, i - 1);
            if den != C64::default() {
                s = s / den;
            }
            *f.at_mut(i - 1, j - 1) = s;
            minden = minden.min(den.abs());
        }
    }
    (f, minden)
}

/// [`funm`]'s and [`signm`]'s result.
pub struct Funm {
    /// `F = f(A)`.
    pub f: Tensor,
    /// SciPy's error estimate per matrix.
    pub err: Vec<f64>,
}

/// The Schur forms `funm` works on and the precision SciPy computes them in.
fn funm_schur(a: &Tensor) -> Result<(Tensor, Vec<super::decomp_schur::SchurPair>, bool)> {
    let kind = schur_kind(dtype(a)?);
    let single = matches!(kind, Kind::Float | Kind::ComplexFloat);
    let a = cast(a, kind)?;
    let parts = if is_complex_kind(kind) {
        super::decomp_schur::complex_schur_of(&a)?
    } else {
        super::matfuncs_sqrtm::real_to_complex_schur(&a)?.0
    };
    Ok((a, parts, single))
}

/// `scipy.linalg.funm`: `f(A)` for square `(..., n, n)` `a` by Schur-Parlett
/// (SciPy's algorithm: Schur form, `func` on its diagonal, Parlett's
/// recurrence, which fails for repeated eigenvalues as SciPy's does and says
/// so in the error estimate). `func` receives each matrix's eigenvalues as a
/// complex `(n,)` tensor (complex64 for single precision input) and returns
/// their images. Real input with a result whose imaginary part is rounding
/// gives a real result (SciPy's `_maybe_real`). Schur forms on the host.
pub fn funm(a: &Tensor, func: &mut dyn FnMut(&Tensor) -> Result<Tensor>) -> Result<Funm> {
    let n = square("funm", a).map_err(|_| invalid("expected square array_like input"))?;
    crate::ops::numpy::check_finite(a)?; // SciPy's schur checks
    let complex_in = dtype(a)?.is_complex();
    let (a, parts, single) = funm_schur(a)?;
    let batch = batch_of(&a, 2);
    let device = a.device();
    let tkind = if single { Kind::ComplexFloat } else { Kind::ComplexDouble };
    let tol = if single { f64::from(f32::EPSILON) } else { f64::EPSILON };
    let mut fs = Vec::with_capacity(parts.len());
    let mut minden = Vec::with_capacity(parts.len());
    for (t, _) in &parts {
        let diag: Vec<f64> = (0..t.n).flat_map(|i| [t.at(i, i).re, t.at(i, i).im]).collect();
        let diag =
            Tensor::f_from_slice(&diag)?.f_reshape([n, 2])?.f_view_as_complex()?.f_to_kind(tkind)?.f_to(device)?;
        let values = func(&diag)?.f_to_kind(tkind)?.f_to_kind(Kind::ComplexDouble)?.f_to(tch::Device::Cpu)?;
        let values = values.f_broadcast_to([n].as_slice())?.f_resolve_conj()?.f_contiguous()?.f_view_as_real()?;
        let mut flat = vec![0f64; 2 * n as usize];
        values.f_copy_data(&mut flat, 2 * n as usize)?;
        let mut f = Dense::<C64>::zeros(t.n);
        for i in 0..t.n {
            *f.at_mut(i, i) = C64::new(flat[2 * i], flat[2 * i + 1]);
        }
        let (f, m) = parlett(t, f);
        fs.push(f);
        minden.push(m);
    }
    let f = if parts.is_empty() || n == 0 {
        Tensor::f_zeros(concat(&batch, &[n, n]).as_slice(), (Kind::ComplexDouble, device))?
    } else {
        super::matfuncs_sqrtm::unschur(&parts, &fs, &batch, device)?
    };
    let f = f.f_to_kind(tkind)?;
    let f = super::matfuncs_inv_ssq::maybe_real(complex_in, &f)?;
    let mut err = Vec::with_capacity(parts.len());
    let finite = f.f_isfinite()?.f_reshape([-1, n * n])?.f_all_dim(-1, false)?.f_to(tch::Device::Cpu)?;
    for (index, ((t, _), minden)) in parts.iter().zip(minden).enumerate() {
        let minden = if minden == 0.0 { tol } else { minden };
        let upper = (0..t.n).map(|j| (0..j).map(|i| t.at(i, j).abs()).sum::<f64>()).fold(0.0, f64::max);
        let mut e = 1f64.min(tol.max((tol / minden) * upper));
        if finite.f_int64_value(&[index as i64])? == 0 {
            e = f64::INFINITY;
        }
        err.push(e);
    }
    Ok(Funm { f: f.f_contiguous()?, err })
}

/// `scipy.linalg.signm`: the matrix sign function of square `(..., n, n)`
/// `a`, as SciPy computes it: `funm` with the rounded sign of the
/// eigenvalues' real parts, and where that is not accurate (defective
/// matrices) SciPy's Newton iteration `S <- (S + S^{-1}) / 2` from
/// `A + I / (2 sigma_max)`, up to 100 steps (float64 then, as SciPy).
pub fn signm(a: &Tensor) -> Result<Funm> {
    let n = square("signm", a).map_err(|_| invalid("expected square array_like input"))?;
    if n == 0 {
        // SciPy fails here too (a ValueError from a reduction of nothing)
        return Err(invalid("signm needs at least a 1x1 matrix (its spectral radius is undefined for a 0x0 one)"));
    }
    let mut sign = |x: &Tensor| -> Result<Tensor> {
        let single = x.kind() == Kind::ComplexFloat;
        let eps = if single { f64::from(f32::EPSILON) } else { f64::EPSILON };
        let host = x
            .f_to_kind(Kind::ComplexDouble)?
            .f_to(tch::Device::Cpu)?
            .f_resolve_conj()?
            .f_contiguous()?
            .f_view_as_real()?;
        let len = host.numel();
        let mut flat = vec![0f64; len];
        host.f_copy_data(&mut flat, len)?;
        let values: Vec<(f64, f64)> = flat.chunks(2).map(|p| (p[0], p[1])).collect();
        // numpy's amax of complex numbers: lexicographic
        let top = values.iter().copied().fold((f64::NEG_INFINITY, f64::NEG_INFINITY), |m, v| {
            if v.0 > m.0 || (v.0 == m.0 && v.1 > m.1) {
                v
            } else {
                m
            }
        });
        let c = (1e3 * eps * top.0, 1e3 * eps * top.1);
        let signs: Vec<f64> = values
            .iter()
            .map(|&(re, _)| {
                let keep = re.abs() > c.0 || (re.abs() == c.0 && 0.0 > c.1);
                if keep && re != 0.0 {
                    re.signum()
                } else {
                    0.0
                }
            })
            .collect();
        Ok(Tensor::f_from_slice(&signs)?.f_to_kind(real_kind(x.kind()))?.f_to(x.device())?)
    };
    let Funm { f, err } = funm(a, &mut sign)?;
    let single = matches!(f.kind(), Kind::Float | Kind::ComplexFloat);
    let errtol = 1e3 * if single { f64::from(f32::EPSILON) } else { f64::EPSILON };
    if err.iter().all(|&e| e < errtol) {
        return Ok(Funm { f, err });
    }
    // SciPy's Newton iteration, per matrix whose estimate failed
    let a64 = a.f_to_kind(if dtype(a)?.is_complex() { Kind::ComplexDouble } else { Kind::Double })?;
    let batch = batch_of(a, 2);
    let mats = a64.f_reshape([-1, n, n])?;
    let fs = f.f_reshape([-1, n, n])?;
    let wide =
        if is_complex_kind(a64.kind()) || is_complex_kind(f.kind()) { Kind::ComplexDouble } else { Kind::Double };
    let mut out = Vec::with_capacity(err.len());
    let mut errs = Vec::with_capacity(err.len());
    for (index, e) in err.iter().enumerate() {
        let index = index as i64;
        if *e < errtol {
            out.push(fs.f_get(index)?.f_to_kind(wide)?);
            errs.push(*e);
            continue;
        }
        let m = mats.f_get(index)?;
        let sv = super::decomp_svd::svd(&m, &singular_values())?.s;
        let c = 0.5 / sv.f_max()?.f_double_value(&[])?;
        let eye = Tensor::f_eye(n, (m.kind(), m.device()))?;
        let mut s0 = m.f_add(&eye.f_mul_scalar(c)?)?;
        let mut prev = *e;
        let mut errest = *e;
        for _ in 0..100 {
            let inv = Tensor::f_linalg_inv(&s0)?;
            s0 = s0.f_add(&inv)?.f_mul_scalar(0.5)?;
            let pp = s0.f_matmul(&s0)?.f_add(&s0)?.f_mul_scalar(0.5)?;
            errest = norm1(&pp.f_matmul(&pp)?.f_sub(&pp)?)?.f_double_value(&[])?;
            if errest < errtol || prev == errest {
                break;
            }
            prev = errest;
        }
        out.push(s0.f_to_kind(wide)?);
        errs.push(errest);
    }
    let f = Tensor::f_stack(&out, 0)?.f_reshape(concat(&batch, &[n, n]).as_slice())?;
    Ok(Funm { f, err: errs })
}

/// `svd(a, compute_uv=False)`'s options, unchecked (the callers checked `a`).
pub(crate) fn singular_values() -> super::decomp_svd::SvdOptions {
    super::decomp_svd::SvdOptions { full_matrices: false, compute_uv: false, check_finite: CheckFinite::No }
}

/// `scipy.linalg.expm_cond`: the relative condition number of the matrix
/// exponential at the square matrix `a` in the Frobenius norm,
/// `||K||_2 ||a||_F / ||expm(a)||_F`, with `K` the `n^2 x n^2` Kronecker form
/// of the Frechet derivative (SciPy's `expm_frechet_kronform`: its columns
/// are the derivatives in the directions `e_i e_j^T`, all `n^2` of them
/// computed in one batched call here). A float64 scalar (0-d), as SciPy's.
pub fn expm_cond(a: &Tensor, check_finite: CheckFinite) -> Result<Tensor> {
    let s = a.size();
    if s.len() != 2 || s[0] != s[1] {
        return Err(invalid("expected a square matrix"));
    }
    if s[0] == 0 {
        // SciPy fails here too (a ValueError from concatenating nothing)
        return Err(invalid("expm_cond needs at least a 1x1 matrix (the condition of a 0x0 one is undefined)"));
    }
    check_finite_all(check_finite.enabled(), &[a])?;
    let d = dtype(a)?;
    if matches!(d, DType::Float16 | DType::BFloat16) {
        // SciPy's expm_frechet (inside expm_frechet_kronform) refuses half precision (ValueError).
        return Err(invalid(format!("expm_cond does not support {d} input")));
    }
    let n = s[0];
    let x = expm(a)?;
    let complex = dtype(a)?.is_complex();
    let wide = if complex { Kind::ComplexDouble } else { Kind::Double };
    let a_wide = cast(a, wide)?;
    let directions = Tensor::f_eye(n * n, (wide, a.device()))?.f_reshape([n * n, n, n])?;
    let ExpmFrechet { frechet, .. } = expm_frechet(&a_wide.f_unsqueeze(0)?, &directions, CheckFinite::No)?;
    // the Kronecker form up to a permutation of its rows and columns, which leaves its 2-norm as it is
    let k = frechet.f_reshape([n * n, n * n])?;
    let k_norm = k.f_svd(true, false)?.1.f_amax([-1i64].as_slice(), false)?;
    let fro = |t: &Tensor| -> Result<Tensor> {
        let t = if is_complex_kind(t.kind()) { t.f_abs()? } else { t.shallow_clone() };
        Ok(t.f_to_kind(Kind::Double)?.f_square()?.f_sum(Kind::Double)?.f_sqrt()?)
    };
    Ok(k_norm.f_mul(&fro(&a_wide)?)?.f_div(&fro(&x)?)?)
}
