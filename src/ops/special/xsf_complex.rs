//! SciPy's complex kernels of xsf (`loggamma.h`, `digamma.h`, `expint.h`,
//! `spence`, `lambertw.h`): loggamma, gamma, rgamma, digamma/psi, exp1, expi
//! and spence of complex argument, and `lambertw(z, k, tol)`. The C++ kernel
//! of `csrc/xsf_complex.cpp` computes them, CPU only (it has no CUDA
//! version: other devices are refused with `NotImplemented`).

use tch::{Device, Kind, Tensor};

use super::helpers::guarded;
use crate::ffi::xsf_complex::{lambertw_cpu, xsf_complex_cpu, XsfComplex};
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
