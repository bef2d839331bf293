//! The Struve functions H_v(x) and L_v(x) of real order and real argument
//! (xsf's `cephes/struve.h`): power series in double-double, the series in
//! Bessel functions and the large-x asymptotic expansion, the first one whose
//! error estimate is below 1e-12 taken (see `csrc/struve_kernels.h`).
//!
//! A scalar C++ loop on float64 CPU tensors; input on another device goes to
//! the CPU and back. Not differentiable: a torch tensor that
//! requires grad gets the Python layer's `NotDifferentiableError`.

use tch::Tensor;

use super::hypergeometric::on_cpu;
use crate::ffi::hypergeometric::HypergeometricKind;
use crate::Result;

/// The Struve function H_v(x), `scipy.special.struve`.
pub(super) fn struve(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    on_cpu(&[v, x], HypergeometricKind::Struve)
}

/// The modified Struve function L_v(x), `scipy.special.modstruve`.
pub(super) fn modstruve(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    on_cpu(&[v, x], HypergeometricKind::Modstruve)
}
