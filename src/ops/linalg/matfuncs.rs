//! `scipy.linalg._matfuncs` (and `_expm_frechet`): the matrix exponential,
//! the trigonometric and hyperbolic matrix functions, and `expm_frechet`.

use tch::{Kind, Tensor};

use super::basic::{solve, SolveOptions, Solved};
use super::dtypes::*;
use super::invalid;
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

/// The exponential of square matrices already in a floating kind: exact
/// `exp` of the diagonal for diagonal input, triangular structure kept (with
/// the exact diagonal) for triangular input, libtorch's `matrix_exp` (a
/// scaled and squared Taylor approximant) otherwise.
fn expm_core(a: &Tensor) -> Result<Tensor> {
    let diagonal = a.f_diagonal(0, -2, -1)?;
    let below = any(&a.f_tril(-1)?.f_ne(0.0)?)?;
    let above = any(&a.f_triu(1)?.f_ne(0.0)?)?;
    let exp_diagonal = diagonal.f_exp()?.f_diag_embed(0, -2, -1)?;
    match (below, above) {
        (false, false) => Ok(exp_diagonal),
        (false, true) => Ok(a.f_matrix_exp()?.f_triu(1)?.f_add(&exp_diagonal)?),
        (true, false) => Ok(a.f_matrix_exp()?.f_tril(-1)?.f_add(&exp_diagonal)?),
        (true, true) => Ok(a.f_matrix_exp()?),
    }
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
    let unchecked = SolveOptions { check_finite: CheckFinite::No, ..Default::default() };
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
        MatrixFunction::Tan => solve(&cos()?, &sin()?, &unchecked),
        MatrixFunction::Tanh => solve(&cosh()?, &sinh()?, &unchecked),
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
