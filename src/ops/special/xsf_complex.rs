//! SciPy's complex kernels of xsf (`loggamma.h`, `digamma.h`, `expint.h`,
//! `spence`, `lambertw.h`): loggamma, gamma, rgamma, digamma/psi, exp1, expi
//! and spence of complex argument, and `lambertw(z, k, tol)`. The C++ kernel
//! of `csrc/xsf_complex.cpp` computes them, CPU only (it has no CUDA
//! version: other devices are refused with `NotImplemented`).
//!
//! The same file computes Carlson's symmetric elliptic integrals of complex
//! arguments (`csrc/carlson_math.h`) and the pairs sici, shichi and fresnel of
//! complex argument (`csrc/sici_complex_math.h`), SciPy's `ellint_carlson`
//! and xsf complex loops; those take input on another device to the CPU and
//! back, as the real multi-output kernels do.

use tch::{Device, Kind, Tensor};

use super::helpers::guarded;
use crate::ffi::xsf_complex::{
    carlson_complex_cpu, lambertw_cpu, xsf_complex_cpu, xsf_complex_pair_cpu, Carlson, XsfComplex, XsfPair,
};
use crate::ops::numpy::{broadcast, cast, same_device};
use crate::{DType, Error, Result};

/// Refuses a tensor that is not on the CPU.
fn cpu_only(routine: &str, x: &Tensor) -> Result<()> {
    if x.device() == Device::Cpu {
        return Ok(());
    }
    Err(Error::NotImplemented(format!(
        "special.{routine} on complex input runs on the CPU only (torchbridge's complex xsf kernel has no CUDA \
         version): pass CPU arrays or device='cpu'"
    )))
}

/// `which` of the kernel on a complex tensor (the loop's complex128).
pub(super) fn xsf_complex(routine: &str, which: XsfComplex, z: &Tensor) -> Result<Tensor> {
    cpu_only(routine, z)?;
    let z = z.f_to_kind(Kind::ComplexDouble)?.f_contiguous()?;
    let mut out = z.f_empty_like()?;
    xsf_complex_cpu(&z, &mut out, which)?;
    Ok(out)
}

/// The Lambert W function, `scipy.special.lambertw(z, k=0, tol=1e-8)` (SciPy's
/// `_lambertw` ufunc, loop `Dld->D`): `z` cast to complex128, `k` to int64
/// (truncated, as NumPy's `asarray(k, dtype=long)`), `tol` to float64, all
/// broadcast together; the result is complex128. CPU only.
pub fn lambertw(z: &Tensor, k: &Tensor, tol: &Tensor) -> Result<Tensor> {
    guarded(|| {
        let z = cast(z, DType::Complex128)?;
        let k = cast(k, DType::Int64)?;
        let tol = cast(tol, DType::Float64)?;
        let tensors = broadcast(same_device(vec![z, k, tol])?)?;
        cpu_only("lambertw", &tensors[0])?;
        let [z, k, tol] = [&tensors[0], &tensors[1], &tensors[2]].map(|t| t.f_contiguous());
        let (z, k, tol) = (z?, k?, tol?);
        let mut out = z.f_empty_like()?;
        lambertw_cpu(&z, &k, &tol, &mut out)?;
        Ok(out)
    })
}

/// `t` as contiguous complex128 on the CPU.
fn host_complex(t: &Tensor) -> Result<Tensor> {
    Ok(t.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(Kind::ComplexDouble)?.f_contiguous()?)
}

/// Carlson's integral `which` of complex arguments (the broadcast inputs of
/// the loop, complex128; R_C takes two, R_J four, the others three), on the
/// CPU, the result back on the inputs' device.
pub(super) fn carlson_complex(which: Carlson, args: &[&Tensor]) -> Result<Tensor> {
    let device = args[0].device();
    let host = args.iter().map(|t| host_complex(t)).collect::<Result<Vec<_>>>()?;
    let pick = |i: usize| &host[i.min(host.len() - 1)];
    let mut out = host[0].f_empty_like()?;
    carlson_complex_cpu([pick(0), pick(1), pick(2), pick(3)], &mut out, which)?;
    Ok(if device == Device::Cpu { out } else { out.f_to_device(device)? })
}

/// The pair `which` of complex argument (sici, shichi, fresnel), on the
/// CPU, the results back on the input's device.
pub(super) fn xsf_complex_pair(which: XsfPair, z: &Tensor) -> Result<Vec<Tensor>> {
    let device = z.device();
    let host = host_complex(z)?;
    let mut first = host.f_empty_like()?;
    let mut second = host.f_empty_like()?;
    xsf_complex_pair_cpu(&host, &mut first, &mut second, which)?;
    [first, second].into_iter().map(|t| Ok(if device == Device::Cpu { t } else { t.f_to_device(device)? })).collect()
}
