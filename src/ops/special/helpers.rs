//! Tensor helpers the kernels share (all on float64 tensors unless said otherwise).

use std::f64::consts::PI;

use tch::{Kind, Tensor};

use crate::{DType, Error, Result};

pub(super) fn full(like: &Tensor, value: f64) -> Result<Tensor> {
    Ok(like.f_full_like(value)?)
}

/// `yes` where `cond`, else `no`.
pub(super) fn pick(cond: &Tensor, yes: &Tensor, no: &Tensor) -> Result<Tensor> {
    Ok(yes.f_where_self(cond, no)?)
}

/// `t` with `value` where `cond`.
pub(super) fn fill(t: &Tensor, cond: &Tensor, value: f64) -> Result<Tensor> {
    Ok(t.f_masked_fill(cond, value)?)
}

pub(super) fn and(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_and(b)?)
}

pub(super) fn or(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_or(b)?)
}

pub(super) fn not(a: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_not()?)
}

/// `x == floor(x)` (true for infinities).
pub(super) fn is_integral(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_eq_tensor(&x.f_floor()?)?)
}

/// `log(1 + x)`: libtorch's `log1p` flushes subnormal `x` to 0, while
/// `log1p(x)` rounds to `x` itself below 2^-54.
pub(super) fn log1p_f64(x: &Tensor) -> Result<Tensor> {
    pick(&x.f_abs()?.f_lt(2f64.powi(-54))?, x, &x.f_log1p()?)
}

/// NumPy's `sign`: nan for nan (libtorch's `sign(nan)` is 0).
pub(super) fn sign(x: &Tensor) -> Result<Tensor> {
    fill(&x.f_sign()?, &x.f_isnan()?, f64::NAN)
}

/// `sum_k c[k] x^k` by Horner's rule.
pub(super) fn horner(x: &Tensor, coeffs: &[f64]) -> Result<Tensor> {
    let Some((last, rest)) = coeffs.split_last() else {
        return Ok(x.f_zeros_like()?); // the empty sum
    };
    let mut acc = full(x, *last)?;
    for &c in rest.iter().rev() {
        acc = acc.f_mul(x)?.f_add_scalar(c)?;
    }
    Ok(acc)
}

/// Whether `(-1)^n` is negative, for integral `n` (exact for any magnitude).
pub(super) fn is_odd(n: &Tensor) -> Result<Tensor> {
    Ok(n.f_fmod(2.0)?.f_abs()?.f_eq(1.0)?)
}

/// `sin(pi x)`, exactly 0 at integers and accurate for any |x|: the argument is
/// reduced exactly to `r = x - round(x)` in [-1/2, 1/2] first.
pub(super) fn sinpi(x: &Tensor) -> Result<Tensor> {
    let n = x.f_round()?;
    let s = x.f_sub(&n)?.f_mul_scalar(PI)?.f_sin()?;
    pick(&is_odd(&n)?, &s.f_neg()?, &s)
}

/// Computes `f` only where `mask`, on the selected elements of `inputs` (all of
/// `out`'s shape), and puts the results into a copy of `out`. For branches that
/// are costly or only valid on part of the domain.
pub(super) fn patch(
    out: Tensor,
    mask: &Tensor,
    inputs: &[&Tensor],
    f: impl FnOnce(&[Tensor]) -> Result<Tensor>,
) -> Result<Tensor> {
    let shape = out.size();
    let index = mask.f_reshape([-1])?.f_nonzero()?.f_reshape([-1])?;
    if index.size()[0] == 0 {
        return Ok(out);
    }
    if index.size()[0] == out.numel() as i64 {
        // every element: no gather or scatter
        let flat = inputs.iter().map(|t| Ok(t.f_reshape([-1])?)).collect::<Result<Vec<_>>>()?;
        return Ok(f(&flat)?.f_to_kind(out.kind())?.f_reshape(&shape)?);
    }
    let selected =
        inputs.iter().map(|t| Ok(t.f_reshape([-1])?.f_index_select(0, &index)?)).collect::<Result<Vec<_>>>()?;
    let values = f(&selected)?.f_to_kind(out.kind())?;
    Ok(out.f_reshape([-1])?.f_index_put(&[Some(index)], &values, false)?.f_reshape(&shape)?)
}

/// The error-free product of Dekker and Veltkamp: `x * c = hi + lo` exactly
/// (for |x| < 1e290), with `hi` the rounded product. `c` is split at compile
/// time by the caller into 26-bit halves.
pub(super) fn two_product(x: &Tensor, c: f64) -> Result<(Tensor, Tensor)> {
    const SPLIT: f64 = 134_217_729.0; // 2^27 + 1
    let split = |v: f64| {
        let t = v * SPLIT;
        let hi = t - (t - v);
        (hi, v - hi)
    };
    let (c_hi, c_lo) = split(c);
    let hi = x.f_mul_scalar(c)?;
    let t = x.f_mul_scalar(SPLIT)?;
    let x_hi = t.f_sub(&t.f_sub(x)?)?;
    let x_lo = x.f_sub(&x_hi)?;
    let lo = x_hi
        .f_mul_scalar(c_hi)?
        .f_sub(&hi)?
        .f_add(&x_hi.f_mul_scalar(c_lo)?)?
        .f_add(&x_lo.f_mul_scalar(c_hi)?)?
        .f_add(&x_lo.f_mul_scalar(c_lo)?)?;
    Ok((hi, lo))
}

/// Like [`patch`], for several outputs computed together.
pub(super) fn patch_all(
    outs: Vec<Tensor>,
    mask: &Tensor,
    inputs: &[&Tensor],
    f: impl FnOnce(&[Tensor]) -> Result<Vec<Tensor>>,
) -> Result<Vec<Tensor>> {
    let index = mask.f_reshape([-1])?.f_nonzero()?.f_reshape([-1])?;
    if index.size()[0] == 0 {
        return Ok(outs);
    }
    let selected =
        inputs.iter().map(|t| Ok(t.f_reshape([-1])?.f_index_select(0, &index)?)).collect::<Result<Vec<_>>>()?;
    let values = f(&selected)?;
    outs.into_iter()
        .zip(values)
        .map(|(out, v)| {
            let shape = out.size();
            let v = v.f_to_kind(out.kind())?;
            Ok(out.f_reshape([-1])?.f_index_put(&[Some(index.shallow_clone())], &v, false)?.f_reshape(&shape)?)
        })
        .collect()
}

/// Whether `x` or `y` is nan.
pub(super) fn any_nan(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    or(&x.f_isnan()?, &y.f_isnan()?)
}

/// The libtorch kind of a dtype the kernels compute in.
pub(super) fn kind_of(dtype: DType) -> Result<Kind> {
    dtype.kind().ok_or_else(|| Error::InvalidArgument(format!("{dtype} has no libtorch kind")))
}

/// Runs `work`, a panic inside tch turned into an error ([`crate::error::no_panic`]):
/// every public routine of this module runs its kernel through here.
pub(super) fn guarded<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    crate::error::no_panic(work)
}

/// The multi-output kernel `kind` of `csrc/cephes_misc.cpp` on `x` (and `y`;
/// broadcast float64): its outputs in SciPy's order. The kernels are scalar
/// C++ loops on the CPU: input on another device goes there and the results
/// come back (there is no libtorch composite of them).
pub(super) fn cephes_misc(
    kind: crate::ffi::cephes_misc::MiscKind,
    x: &Tensor,
    y: Option<&Tensor>,
) -> Result<Vec<Tensor>> {
    let device = x.device();
    let host = |t: &Tensor| -> Result<Tensor> {
        Ok(t.f_detach()?.f_to_device(tch::Device::Cpu)?.f_to_kind(Kind::Double)?.f_contiguous()?)
    };
    let y = y.map(host).transpose()?;
    let stacked = crate::ffi::cephes_misc::cephes_misc_cpu(kind, &host(x)?, y.as_ref())?;
    let stacked = if device == tch::Device::Cpu { stacked } else { stacked.f_to_device(device)? };
    Ok(stacked.f_unbind(0)?)
}
