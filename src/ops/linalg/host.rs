//! Copies of `(..., n, n)` stacks to host matrices and back, for the
//! routines whose iterations run on the host (the Schur family: libtorch has
//! no Schur decomposition). An explicit copy for CUDA input, documented on
//! each routine that takes it.

use tch::{Device, Kind, Tensor};

use super::lapack::{Dense, C64};
use super::shapes::*;
use crate::Result;

/// The matrices of `a` (`(..., n, n)`, any real kind) as float64 host matrices.
pub(crate) fn real_mats(a: &Tensor) -> Result<Vec<Dense<f64>>> {
    let n = a.size()[a.dim() - 1] as usize;
    let host = a.f_to_kind(Kind::Double)?.f_to(Device::Cpu)?.f_contiguous()?;
    let len = host.numel();
    let mut flat = filled(len, 0f64, "a host copy of the matrices")?;
    host.f_copy_data(&mut flat, len)?;
    if n == 0 {
        return Ok(vec![Dense { n, data: vec![] }; count(a)]);
    }
    Ok(flat.chunks(n * n).map(|c| Dense { n, data: c.to_vec() }).collect::<Vec<_>>())
}

/// The matrices of `a` (`(..., n, n)`, any kind) as complex128 host matrices.
pub(crate) fn complex_mats(a: &Tensor) -> Result<Vec<Dense<C64>>> {
    let n = a.size()[a.dim() - 1] as usize;
    let host =
        a.f_to_kind(Kind::ComplexDouble)?.f_to(Device::Cpu)?.f_resolve_conj()?.f_contiguous()?.f_view_as_real()?;
    let len = host.numel();
    let mut flat = filled(len, 0f64, "a host copy of the matrices")?;
    host.f_copy_data(&mut flat, len)?;
    if n == 0 {
        return Ok(vec![Dense { n, data: vec![] }; count(a)]);
    }
    Ok(flat.chunks(2 * n * n).map(|c| Dense { n, data: c.chunks(2).map(|p| C64::new(p[0], p[1])).collect() }).collect())
}

/// How many matrices `a` stacks.
fn count(a: &Tensor) -> usize {
    batch_of(a, 2).iter().product::<i64>().max(0) as usize
}

/// Host matrices back as one `(batch..., n, n)` tensor of `kind` on `device`.
pub(crate) fn from_real(mats: &[Dense<f64>], batch: &[i64], kind: Kind, device: Device) -> Result<Tensor> {
    let n = mats.first().map_or(0, |m| m.n) as i64;
    if n == 0 || mats.is_empty() {
        return Ok(Tensor::f_zeros(concat(batch, &[n, n]).as_slice(), (kind, device))?);
    }
    let flat: Vec<f64> = mats.iter().flat_map(|m| m.data.iter().copied()).collect();
    let t = Tensor::f_from_slice(&flat)?.f_reshape(concat(batch, &[n, n]).as_slice())?;
    Ok(t.f_to_kind(kind)?.f_to(device)?)
}

/// Complex host matrices back as one `(batch..., n, n)` tensor of `kind`
/// (a complex kind, or a real one: the real parts) on `device`.
pub(crate) fn from_complex(mats: &[Dense<C64>], batch: &[i64], kind: Kind, device: Device) -> Result<Tensor> {
    let n = mats.first().map_or(0, |m| m.n) as i64;
    if n == 0 || mats.is_empty() {
        return Ok(Tensor::f_zeros(concat(batch, &[n, n]).as_slice(), (kind, device))?);
    }
    let flat: Vec<f64> = mats.iter().flat_map(|m| m.data.iter().flat_map(|v| [v.re, v.im])).collect();
    let t = Tensor::f_from_slice(&flat)?.f_reshape(concat(batch, &[n, n, 2]).as_slice())?.f_view_as_complex()?;
    let t = if super::dtypes::is_complex_kind(kind) { t } else { t.f_real()? };
    Ok(t.f_to_kind(kind)?.f_to(device)?)
}
