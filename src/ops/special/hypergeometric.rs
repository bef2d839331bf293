//! Hypergeometric functions of real arguments (xsf's `hyp2f1.h`,
//! `hyp0f1.h`): `hyp2f1(a, b, c, x)` by Cephes' method (power series with the
//! linear transformations of DLMF 15.8, see `csrc/hypergeometric_kernels.h`),
//! `hyp1f1(a, b, x)` by Kummer's series, Kummer's transformation, the
//! large-x expansion and the recurrence in b (SciPy uses Boost's), and
//! `hyp0f1(v, x)` through the Bessel kernels of `csrc/bessel_kernels.h`
//! (complex x: `csrc/hyp0f1_complex.h`, the power series or the complex
//! Bessel kernels),
//! Tricomi's `hyperu(a, b, x)` (`csrc/hyperu_kernels.h`: polynomials, the
//! large-x expansion, Kummer's relation to 1F1, an integral by
//! double-exponential quadrature with the recurrence in a) and Wright's
//! generalized Bessel function `wright_bessel(a, b, x)` and its logarithm
//! (`csrc/wright_bessel_kernels.h`: the positive series summed in long double
//! around its largest term).
//!
//! The kernels are scalar C++ loops on float64 CPU tensors; input on another
//! device goes to the CPU and back (there is no libtorch composite of them).
//! They are not differentiable: a torch tensor that requires grad gets the
//! Python layer's `NotDifferentiableError`.

use tch::{Device, Kind, Tensor};

use super::bessel::complex_arg;
use super::faddeeva::is_complex;
use crate::ffi::bessel::BesselComplexKind;
use crate::ffi::hypergeometric::{
    hypergeometric_complex_cpu, hypergeometric_cpu, HypergeometricComplexKind, HypergeometricKind,
};
use crate::Result;

/// The kernel `kind` of the broadcast float64 `inputs`, on the CPU: inputs
/// elsewhere go there and the result comes back.
pub(super) fn on_cpu(inputs: &[&Tensor], kind: HypergeometricKind) -> Result<Tensor> {
    let device = inputs[0].device();
    let host = inputs
        .iter()
        .map(|t| Ok(t.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(Kind::Double)?.f_contiguous()?))
        .collect::<Result<Vec<Tensor>>>()?;
    let refs: Vec<&Tensor> = host.iter().collect();
    let out = hypergeometric_cpu(&refs, kind)?;
    if device == Device::Cpu {
        return Ok(out);
    }
    Ok(out.f_to_device(device)?)
}

/// The complex kernel `kind` of the broadcast real parameters and complex
/// argument (last), on the CPU (see `csrc/hypergeometric_complex.h`): inputs
/// elsewhere go there and the complex128 result comes back.
pub(super) fn complex_on_cpu(inputs: &[&Tensor], kind: HypergeometricComplexKind) -> Result<Tensor> {
    let device = inputs[0].device();
    let last = inputs.len() - 1;
    let host = inputs
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let wanted = if i == last { Kind::ComplexDouble } else { Kind::Double };
            Ok(t.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(wanted)?.f_contiguous()?)
        })
        .collect::<Result<Vec<Tensor>>>()?;
    let refs: Vec<&Tensor> = host.iter().collect();
    let out = hypergeometric_complex_cpu(&refs, kind)?;
    if device == Device::Cpu {
        return Ok(out);
    }
    Ok(out.f_to_device(device)?)
}

/// The Gauss hypergeometric function 2F1(a, b; c; z), `scipy.special.hyp2f1`:
/// real z by Cephes' method, complex z (SciPy's `dddD->D` loop) by the kernel
/// of `csrc/hypergeometric_complex.h`.
pub(super) fn hyp2f1(a: &Tensor, b: &Tensor, c: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_on_cpu(&[a, b, c, x], HypergeometricComplexKind::Hyp2f1);
    }
    on_cpu(&[a, b, c, x], HypergeometricKind::Hyp2f1)
}

/// Kummer's confluent hypergeometric function 1F1(a; b; z), `scipy.special.hyp1f1`:
/// real x by the real kernel, complex z (`ddD->D`) by the complex one.
pub(super) fn hyp1f1(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_on_cpu(&[a, b, x], HypergeometricComplexKind::Hyp1f1);
    }
    on_cpu(&[a, b, x], HypergeometricKind::Hyp1f1)
}

/// The confluent hypergeometric limit function 0F1(; v; x), `scipy.special.hyp0f1`;
/// complex x by `csrc/hyp0f1_complex.h` (the power series, or the complex
/// Bessel functions of `csrc/bessel_complex.h`).
pub(super) fn hyp0f1(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Hyp0f1);
    }
    on_cpu(&[v, x], HypergeometricKind::Hyp0f1)
}

/// Tricomi's confluent hypergeometric function U(a, b, x), `scipy.special.hyperu`,
/// real arguments.
pub(super) fn hyperu(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    on_cpu(&[a, b, x], HypergeometricKind::Hyperu)
}

/// Wright's generalized Bessel function Phi(a, b; x), `scipy.special.wright_bessel`.
pub(super) fn wright_bessel(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    on_cpu(&[a, b, x], HypergeometricKind::WrightBessel)
}

/// The logarithm of Wright's generalized Bessel function, `scipy.special.log_wright_bessel`.
pub(super) fn log_wright_bessel(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    on_cpu(&[a, b, x], HypergeometricKind::LogWrightBessel)
}
