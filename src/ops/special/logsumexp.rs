//! SciPy's `_logsumexp.py`: logsumexp, softmax, log_softmax, real and complex.

use std::f64::consts::PI;

use tch::{Kind, Tensor};

use super::helpers::*;
use crate::error::try_vec;
use crate::ops::numpy::{broadcast, can_cast_safe, cast, normalize_axis, same_device};
use crate::{dlpack, DType, Error, Result};

/// Axis arguments in NumPy's terms: `None` (all axes) or a list, each in
/// `-ndim..ndim` ([`crate::Error::AxisOutOfBounds`] otherwise), no duplicates.
pub(super) fn normalize_axes(axis: Option<&[i64]>, ndim: usize) -> Result<Vec<i64>> {
    let Some(axis) = axis else {
        return Ok((0..ndim as i64).collect());
    };
    let mut out = try_vec(axis.len(), "axes")?;
    for &a in axis {
        let a = normalize_axis(a, ndim)? as i64;
        if out.contains(&a) {
            return Err(Error::InvalidArgument("duplicate value in 'axis'".into()));
        }
        out.push(a);
    }
    Ok(out)
}

/// The maximum over `axes` (kept as size-1 dims); the tensor itself for no axes.
pub(super) fn max_keep(t: &Tensor, axes: &[i64]) -> Result<Tensor> {
    if axes.is_empty() {
        return Ok(t.shallow_clone());
    }
    let size = t.size();
    if axes.iter().any(|&a| size[a as usize] == 0) {
        return Err(Error::InvalidArgument(
            "zero-size array to reduction operation maximum which has no identity".into(),
        ));
    }
    Ok(t.f_amax(axes, true)?)
}

/// The sum over `axes` (kept as size-1 dims); the tensor itself for no axes.
pub(super) fn sum_keep(t: &Tensor, axes: &[i64]) -> Result<Tensor> {
    if axes.is_empty() {
        return Ok(t.shallow_clone());
    }
    Ok(t.f_sum_dim_intlist(axes, true, None::<Kind>)?)
}

pub(super) fn squeeze_axes(t: Tensor, axes: &[i64], keepdims: bool) -> Result<Tensor> {
    if keepdims || axes.is_empty() {
        Ok(t)
    } else {
        Ok(t.f_squeeze_dims(axes)?)
    }
}

/// The floating dtype `logsumexp` computes in: NumPy's promotion of the inputs,
/// float64 when that is not floating (SciPy's `xp_promote(force_floating=True)`).
pub fn logsumexp_dtype(dtypes: &[DType]) -> Result<DType> {
    if dtypes.iter().any(|d| d.is_complex()) {
        return [DType::Complex64, DType::Complex128]
            .into_iter()
            .find(|&c| dtypes.iter().all(|&d| d == c || can_cast_safe(d, c)))
            .ok_or_else(|| Error::InvalidArgument("no common complex dtype".into()));
    }
    if !dtypes.iter().any(|d| d.is_float()) {
        return Ok(DType::Float64);
    }
    [DType::Float16, DType::Float32, DType::Float64]
        .into_iter()
        .find(|&f| {
            dtypes.iter().all(|&d| d == f || can_cast_safe(d, f) && !(d == DType::BFloat16 && f == DType::Float16))
        })
        .ok_or_else(|| Error::InvalidArgument("no common floating dtype".into()))
}

/// The options of [`logsumexp`] and [`logsumexp_with_sign`] (SciPy's keywords).
#[derive(Clone, Copy, Debug, Default)]
pub struct LogsumexpOptions<'a> {
    /// The axes to reduce over; `None` (SciPy's default) reduces over all.
    pub axis: Option<&'a [i64]>,
    /// Weights `b`, broadcast against `a`; `None` for none.
    pub b: Option<&'a Tensor>,
    /// Keep the reduced axes as size-1 dimensions.
    pub keepdims: bool,
}

/// `logsumexp(..., return_sign=True)`: `log|sum(b exp(a))|` and the sign of the sum.
#[derive(Debug)]
pub struct LogSumExp {
    /// `log|sum(b * exp(a))|`.
    pub value: Tensor,
    /// The sign of `sum(b * exp(a))` (-1, 0 or 1; nan for nan).
    pub sign: Tensor,
}

/// `log(sum(b * exp(a)))` over `axis`, `scipy.special.logsumexp`, by SciPy's
/// algorithm (the largest term factored out exactly, `log1p` of the rest,
/// SciPy's handling of zero weights, negative sums and infinities): nan where
/// the weighted sum is negative.
///
/// ```no_run
/// # fn main() -> torchbridge::Result<()> {
/// use torchbridge::ops::special::{logsumexp, LogsumexpOptions};
/// let a = tch::Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
/// let all = logsumexp(&a, &LogsumexpOptions::default())?;
/// let rows = logsumexp(&a.view([1, 3]), &LogsumexpOptions { axis: Some(&[1]), keepdims: true, ..Default::default() })?;
/// # Ok(()) }
/// ```
pub fn logsumexp(a: &Tensor, opts: &LogsumexpOptions<'_>) -> Result<Tensor> {
    Ok(guarded(|| logsumexp_signed(a, opts, false))?.0)
}

/// `scipy.special.logsumexp(..., return_sign=True)`: `log|sum(b exp(a))|` and
/// the sign of the sum, for weights that make the sum negative.
pub fn logsumexp_with_sign(a: &Tensor, opts: &LogsumexpOptions<'_>) -> Result<LogSumExp> {
    let (value, sign) = guarded(|| logsumexp_signed(a, opts, true))?;
    Ok(LogSumExp { value, sign: sign.ok_or_else(|| Error::InvalidArgument("no sign computed".into()))? })
}

fn logsumexp_signed(a: &Tensor, opts: &LogsumexpOptions<'_>, return_sign: bool) -> Result<(Tensor, Option<Tensor>)> {
    let b = opts.b;
    let keepdims = opts.keepdims;
    let mut dtypes = vec![dlpack::dtype_of(a)?];
    if let Some(b) = b {
        dtypes.push(dlpack::dtype_of(b)?);
    }
    let output = logsumexp_dtype(&dtypes)?;
    if output.is_complex() {
        return logsumexp_complex(a, opts, return_sign, output);
    }
    let mut tensors = vec![cast(a, DType::Float64)?];
    if let Some(b) = b {
        tensors.push(cast(b, DType::Float64)?);
    }
    let tensors = broadcast(same_device(tensors)?)?;
    let atleast_1d = |t: Tensor| -> Result<Tensor> {
        if t.dim() == 0 {
            Ok(t.f_reshape([1])?)
        } else {
            Ok(t)
        }
    };
    let mut inputs = tensors.into_iter();
    let a = atleast_1d(inputs.next().ok_or_else(|| Error::InvalidArgument("logsumexp needs `a`".into()))?)?;
    let b = inputs.next().map(atleast_1d).transpose()?;
    let axes = normalize_axes(opts.axis, a.dim())?;
    let (out, sign) = if a.numel() == 0 {
        let mut shape = a.size();
        for &ax in &axes {
            shape[ax as usize] = 1;
        }
        let out = Tensor::f_full(&shape, f64::NEG_INFINITY, (Kind::Double, a.device()))?;
        let sign = sign(&out)?;
        (out, sign)
    } else {
        // the direct formula, for the infinite results
        let b_exp_a = match &b {
            Some(b) => b.f_mul(&a.f_exp()?)?,
            None => a.f_exp()?,
        };
        let direct = sum_keep(&b_exp_a, &axes)?;
        let sign_inf = sign(&direct)?;
        let out_inf = if return_sign { direct.f_abs()?.f_log()? } else { direct.f_log()? };
        // the stable formula
        let a = match &b {
            Some(b) => fill(&a, &b.f_eq(0.0)?, f64::NEG_INFINITY)?,
            None => a.shallow_clone(),
        };
        let a_max = max_keep(&a, &axes)?;
        let is_max = a.f_eq_tensor(&a_max)?;
        let a_rest = fill(&a, &is_max, f64::NEG_INFINITY)?;
        let weights_at_max = match &b {
            Some(b) => b.f_mul(&is_max.f_to_kind(Kind::Double)?)?,
            None => is_max.f_to_kind(Kind::Double)?,
        };
        let m = sum_keep(&weights_at_max, &axes)?;
        let shifted = a_rest.f_sub(&a_max)?.f_exp()?;
        let terms = match &b {
            Some(b) => b.f_mul(&shifted)?,
            None => shifted,
        };
        let s = sum_keep(&terms, &axes)?;
        let s = pick(&s.f_eq(0.0)?, &s, &s.f_div(&m)?)?;
        let sign = sign(&s.f_add_scalar(1.0)?)?.f_mul(&sign(&m)?)?;
        let s = pick(&s.f_lt(-1.0)?, &s.f_neg()?.f_sub_scalar(2.0)?, &s)?;
        let out = log1p_f64(&s)?.f_add(&m.f_abs()?.f_log()?)?.f_add(&a_max)?;
        let out = if return_sign { out } else { fill(&out, &sign.f_lt(0.0)?, f64::NAN)? };
        let finite = out.f_isfinite()?;
        (pick(&finite, &out, &out_inf)?, pick(&finite, &sign, &sign_inf)?)
    };
    let kind = kind_of(output)?;
    let out = squeeze_axes(out, &axes, keepdims)?.f_to_kind(kind)?;
    let sign = if return_sign { Some(squeeze_axes(sign, &axes, keepdims)?.f_to_kind(kind)?) } else { None };
    Ok((out, sign))
}

/// NumPy's `sign` of complex numbers, `z / |z|` (0 at 0).
fn complex_sign(z: &Tensor) -> Result<Tensor> {
    Ok(z.f_sgn()?)
}

/// `x` into (-pi, pi] as SciPy's `_wrap_radians` (unchanged where |x| < pi).
fn wrap_radians(x: &Tensor) -> Result<Tensor> {
    let wrapped = x.f_neg()?.f_add_scalar(PI)?.f_remainder(2.0 * PI)?.f_sub_scalar(PI)?.f_neg()?;
    pick(&x.f_abs()?.f_lt(PI)?, x, &wrapped)
}

/// `re + i im` of two float64 tensors.
fn complex_of(re: &Tensor, im: &Tensor) -> Result<Tensor> {
    Ok(Tensor::f_complex(re, im)?)
}

/// SciPy's `logsumexp` of complex input (`a` or `b` complex): the element of
/// largest real part (the last of ties) factored out, `log1p` of the rest's
/// sum, the sign a complex phase `sign(s + 1) sign(m) exp(i Im a_max)`, the
/// direct `log(sum(b exp(a)))` where that is not finite, and the imaginary
/// part of the result (or of the sign, with `return_sign`, whose value is
/// then real: `log|sum|`) wrapped into (-pi, pi].
fn logsumexp_complex(
    a: &Tensor,
    opts: &LogsumexpOptions<'_>,
    return_sign: bool,
    output: DType,
) -> Result<(Tensor, Option<Tensor>)> {
    let mut tensors = vec![cast(a, DType::Complex128)?];
    if let Some(b) = opts.b {
        tensors.push(cast(b, DType::Complex128)?);
    }
    let tensors = broadcast(same_device(tensors)?)?;
    let atleast_1d = |t: Tensor| -> Result<Tensor> {
        if t.dim() == 0 {
            Ok(t.f_reshape([1])?)
        } else {
            Ok(t)
        }
    };
    let mut inputs = tensors.into_iter();
    let a = atleast_1d(inputs.next().ok_or_else(|| Error::InvalidArgument("logsumexp needs `a`".into()))?)?;
    let b = inputs.next().map(atleast_1d).transpose()?;
    let axes = normalize_axes(opts.axis, a.dim())?;
    let (out, sign) = if a.numel() == 0 {
        let mut shape = a.size();
        for &ax in &axes {
            shape[ax as usize] = 1;
        }
        let out = Tensor::f_full(&shape, f64::NEG_INFINITY, (Kind::Double, a.device()))?;
        let out = complex_of(&out, &out.f_zeros_like()?)?;
        let sign = complex_sign(&out)?;
        (out, sign)
    } else {
        let b_exp_a = match &b {
            Some(b) => b.f_mul(&a.f_exp()?)?,
            None => a.f_exp()?,
        };
        let direct = sum_keep(&b_exp_a, &axes)?;
        let sign_inf = complex_sign(&direct)?;
        let out_inf = if return_sign { direct.f_abs()?.f_log()? } else { direct.f_log()? };
        let a = match &b {
            Some(b) => a.f_masked_fill(&b.f_eq(0.0)?, f64::NEG_INFINITY)?,
            None => a.shallow_clone(),
        };
        // the element of largest real part, the last of ties
        let re = a.f_real()?;
        let is_max = re.f_eq_tensor(&max_keep(&re, &axes)?)?;
        let index = Tensor::f_arange(a.numel() as i64, (Kind::Int64, a.device()))?.f_reshape(a.size())?;
        let index = index.f_masked_fill(&not(&is_max)?, -1)?;
        let is_max = index.f_eq_tensor(&max_keep(&index, &axes)?)?;
        let a_max = sum_keep(&a.f_masked_fill(&not(&is_max)?, 0.0)?, &axes)?;
        let a_rest = a.f_masked_fill(&is_max, f64::NEG_INFINITY)?;
        let at_max = is_max.f_to_kind(Kind::ComplexDouble)?;
        let m = sum_keep(
            &match &b {
                Some(b) => b.f_mul(&at_max)?,
                None => at_max,
            },
            &axes,
        )?;
        let shifted = a_rest.f_sub(&a_max)?.f_exp()?;
        let terms = match &b {
            Some(b) => b.f_mul(&shifted)?,
            None => shifted,
        };
        let s = sum_keep(&terms, &axes)?;
        let s = s.f_where_self(&s.f_eq(0.0)?, &s.f_div(&m)?)?;
        let phase = complex_of(&a_max.f_zeros_like()?.f_real()?, &a_max.f_imag()?)?.f_exp()?;
        let sign = complex_sign(&s.f_add_scalar(1.0)?)?.f_mul(&complex_sign(&m)?)?.f_mul(&phase)?;
        let out = s.f_add_scalar(1.0)?.f_log()?.f_add(&m.f_log()?)?.f_add(&a_max)?;
        let out = if return_sign { out.f_real()?.f_contiguous()? } else { out };
        let finite = out.f_isfinite()?;
        (out.f_where_self(&finite, &out_inf)?, sign.f_where_self(&finite, &sign_inf)?)
    };
    let real_kind = if output == DType::Complex64 { Kind::Float } else { Kind::Double };
    let complex_kind = kind_of(output)?;
    let (out, sign) = if return_sign {
        let sign = complex_of(&sign.f_real()?, &wrap_radians(&sign.f_imag()?)?)?;
        (out.f_to_kind(real_kind)?, Some(sign.f_to_kind(complex_kind)?))
    } else {
        let out = complex_of(&out.f_real()?, &wrap_radians(&out.f_imag()?)?)?;
        (out.f_to_kind(complex_kind)?, None)
    };
    let out = squeeze_axes(out, &axes, opts.keepdims)?;
    let sign = sign.map(|s| squeeze_axes(s, &axes, opts.keepdims)).transpose()?;
    Ok((out, sign))
}

/// NumPy's maximum of complex numbers over `axes` (lexicographic: the largest
/// real part, then the largest imaginary part among those), kept as size-1 dims.
fn complex_max_keep(x: &Tensor, axes: &[i64]) -> Result<Tensor> {
    let re = x.f_real()?;
    let im = x.f_imag()?;
    let max_re = max_keep(&re, axes)?;
    let im = im.f_masked_fill(&not(&re.f_eq_tensor(&max_re)?)?, f64::NEG_INFINITY)?;
    let max_im = max_keep(&im, axes)?;
    complex_of(&max_re.f_contiguous()?, &max_im.f_contiguous()?)
}

/// Softmax of complex input (SciPy's formula on NumPy's complex maximum).
fn softmax_complex(x: &Tensor, axes: &[i64], output: DType) -> Result<Tensor> {
    let x = cast(x, DType::Complex128)?;
    let e = x.f_sub(&complex_max_keep(&x, axes)?)?.f_exp()?;
    Ok(e.f_div(&sum_keep(&e, axes)?)?.f_to_kind(kind_of(output)?)?)
}

/// Log-softmax of complex input: `(x - max) - log(sum(exp(x - max)))`, a
/// non-finite maximum taken as 0 (SciPy's formula on NumPy's complex maximum).
fn log_softmax_complex(x: &Tensor, axes: &[i64], output: DType) -> Result<Tensor> {
    let x = cast(x, DType::Complex128)?;
    let x_max = complex_max_keep(&x, axes)?;
    let x_max = x_max.f_masked_fill(&not(&x_max.f_isfinite()?)?, 0.0)?;
    let shifted = x.f_sub(&x_max)?;
    let log_sum = sum_keep(&shifted.f_exp()?, axes)?.f_log()?;
    Ok(shifted.f_sub(&log_sum)?.f_to_kind(kind_of(output)?)?)
}

/// The floating dtype `numpy.exp` returns for `dtype` (what SciPy's softmax
/// and log_softmax return); bool is refused as NumPy refuses `x - x.max()`.
pub(super) fn exp_dtype(routine: &'static str, dtype: DType) -> Result<DType> {
    use DType::*;
    match dtype {
        Bool => Err(Error::DtypeNotAccepted {
            routine,
            dtype,
            accepted: "integer and real floating-point input (NumPy has no boolean subtract)",
        }),
        Int8 | UInt8 | Float16 => Ok(Float16),
        BFloat16 => Ok(BFloat16),
        Int16 | UInt16 | Float32 => Ok(Float32),
        Int32 | UInt32 | Int64 | UInt64 | Float64 => Ok(Float64),
        Complex64 | Complex128 => Ok(dtype),
    }
}

/// `x - max(x)` as NumPy computes it in `x`'s own dtype (integers wrap around),
/// returned as float64, and the maximum (with `zero_nonfinite_max`, non-finite
/// maxima replaced by 0 as in `log_softmax`).
pub(super) fn shifted_by_max(x: &Tensor, axes: &[i64], zero_nonfinite_max: bool) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(x)?;
    if dtype.is_float() {
        let x = cast(x, DType::Float64)?;
        let x_max = max_keep(&x, axes)?;
        let x_max = if zero_nonfinite_max { fill(&x_max, &not(&x_max.f_isfinite()?)?, 0.0)? } else { x_max };
        return Ok(x.f_sub(&x_max)?);
    }
    match dtype {
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 | DType::UInt8 => {
            let x_max = max_keep(x, axes)?;
            Ok(x.f_sub(&x_max)?.f_to_kind(Kind::Double)?)
        }
        DType::UInt16 | DType::UInt32 => {
            let wide = cast(x, DType::Int64)?;
            let d = wide.f_sub(&max_keep(&wide, axes)?)?;
            let modulus = if dtype == DType::UInt16 { 1i64 << 16 } else { 1i64 << 32 };
            Ok(d.f_remainder(modulus)?.f_to_kind(Kind::Double)?)
        }
        _ => {
            // uint64: the wrapped difference, approximately, in float64
            let wide = cast(x, DType::Float64)?;
            let d = wide.f_sub(&max_keep(&wide, axes)?)?;
            Ok(pick(&d.f_lt(0.0)?, &d.f_add_scalar(18446744073709551616.0)?, &d)?)
        }
    }
}

/// `t` (float64) rounded to `dtype` and back: NumPy computes `exp` in the
/// result dtype, so float16 overflows to inf beyond 65504 as there.
pub(super) fn in_dtype(t: &Tensor, dtype: DType) -> Result<Tensor> {
    if dtype == DType::Float64 {
        return Ok(t.shallow_clone());
    }
    Ok(t.f_to_kind(kind_of(dtype)?)?.f_to_kind(Kind::Double)?)
}

/// The softmax `exp(x - max) / sum(exp(x - max))` over `axis` (all axes for
/// `None`), `scipy.special.softmax`, in the dtype NumPy's `exp` gives `x`.
pub fn softmax(x: &Tensor, axis: Option<&[i64]>) -> Result<Tensor> {
    guarded(|| {
        let output = exp_dtype("special.softmax", dlpack::dtype_of(x)?)?;
        let axes = normalize_axes(axis, x.dim())?;
        if output.is_complex() {
            return softmax_complex(x, &axes, output);
        }
        let e = in_dtype(&shifted_by_max(x, &axes, false)?.f_exp()?, output)?;
        let out = e.f_div(&sum_keep(&e, &axes)?)?;
        Ok(out.f_to_kind(kind_of(output)?)?)
    })
}

/// The logarithm of the softmax, `scipy.special.log_softmax`:
/// `(x - max) - log(sum(exp(x - max)))`, non-finite maxima taken as 0 (SciPy).
pub fn log_softmax(x: &Tensor, axis: Option<&[i64]>) -> Result<Tensor> {
    guarded(|| {
        let output = exp_dtype("special.log_softmax", dlpack::dtype_of(x)?)?;
        let axes = normalize_axes(axis, x.dim())?;
        if output.is_complex() {
            return log_softmax_complex(x, &axes, output);
        }
        let shifted = shifted_by_max(x, &axes, true)?;
        let log_sum = sum_keep(&in_dtype(&shifted.f_exp()?, output)?, &axes)?.f_log()?;
        Ok(shifted.f_sub(&log_sum)?.f_to_kind(kind_of(output)?)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes() {
        assert_eq!(normalize_axes(None, 3).unwrap(), [0, 1, 2]);
        assert_eq!(normalize_axes(Some(&[-1, 0]), 3).unwrap(), [2, 0]);
        assert!(matches!(normalize_axes(Some(&[3]), 3), Err(Error::AxisOutOfBounds { axis: 3, ndim: 3 })));
        assert!(normalize_axes(Some(&[1, -2]), 3).is_err());
        assert!(normalize_axes(Some(&[i64::MAX]), 3).is_err());
    }

    #[test]
    fn logsumexp_promotes_like_scipy() {
        use DType::*;
        assert_eq!(logsumexp_dtype(&[Int8]).unwrap(), Float64);
        assert_eq!(logsumexp_dtype(&[Float16]).unwrap(), Float16);
        assert_eq!(logsumexp_dtype(&[Int8, Float16]).unwrap(), Float16);
        assert_eq!(logsumexp_dtype(&[Int32, Float16]).unwrap(), Float64);
        assert_eq!(logsumexp_dtype(&[Float32, Float64]).unwrap(), Float64);
        assert_eq!(logsumexp_dtype(&[Complex64]).unwrap(), Complex64);
        assert_eq!(logsumexp_dtype(&[Complex64, Float64]).unwrap(), Complex128);
        assert_eq!(logsumexp_dtype(&[Int32, Complex64]).unwrap(), Complex128);
    }
}
