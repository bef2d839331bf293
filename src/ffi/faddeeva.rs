//! Declaration of `csrc/faddeeva.cpp` (the Faddeeva function `w(z)`, the
//! complex erf family and ndtr/log_ndtr on complex128 CPU tensors, `voigt_profile` on float64
//! CPU tensors) and its safe wrappers, for `crate::ops::special::faddeeva`.
//!
//! The shim writes only the `out` tensor it is given, which the wrappers'
//! callers own (a fresh result); it checks every tensor (device, dtype,
//! contiguity, shape) first.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_faddeeva_cpu(z: *const C_tensor, out: *mut C_tensor, which: i32) -> *mut std::ffi::c_char;
    fn tb_voigt_profile_cpu(
        x: *const C_tensor,
        sigma: *const C_tensor,
        gamma: *const C_tensor,
        out: *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// Which function [`faddeeva_cpu`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Faddeeva {
    /// The Faddeeva function `w(z) = exp(-z^2) erfc(-iz)`.
    W = 0,
    /// `erf(z)`.
    Erf = 1,
    /// `erfc(z)`.
    Erfc = 2,
    /// `erfcx(z) = exp(z^2) erfc(z)`.
    Erfcx = 3,
    /// `erfi(z) = -i erf(iz)`.
    Erfi = 4,
    /// Dawson's integral.
    Dawsn = 5,
    /// `ndtr(z) = erfc(-z / sqrt 2) / 2`.
    Ndtr = 6,
    /// `log(ndtr(z))`, the principal branch.
    LogNdtr = 7,
}

/// `out = f(z)` elementwise, `z` and `out` contiguous complex128 CPU of one
/// shape, `out` a fresh tensor of the caller's that nothing else views.
pub(crate) fn faddeeva_cpu(z: &Tensor, out: &mut Tensor, which: Faddeeva) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim reads `z` and
    // writes `out`'s memory only, which the caller owns exclusively (`&mut`).
    unsafe { check(tb_faddeeva_cpu(z.as_ptr(), out.as_mut_ptr(), which as i32)) }
}

/// `out = voigt_profile(x, sigma, gamma)` elementwise, all contiguous float64
/// CPU of one shape, `out` a fresh tensor of the caller's.
pub(crate) fn voigt_profile_cpu(x: &Tensor, sigma: &Tensor, gamma: &Tensor, out: &mut Tensor) -> Result<()> {
    // SAFETY: all four tensors are live for the call; the shim reads the
    // inputs and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_voigt_profile_cpu(x.as_ptr(), sigma.as_ptr(), gamma.as_ptr(), out.as_mut_ptr())) }
}
