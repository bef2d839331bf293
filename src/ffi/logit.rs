//! Declaration of `csrc/logit.cpp` (`scipy.special.logit` on float32 and
//! float64 CPU tensors in one pass) and its safe wrapper, for
//! `crate::ops::special::logit`.
//!
//! The shim writes only the `out` tensor it is given, which the wrapper's
//! caller owns (a fresh result); it checks both tensors (device, dtype,
//! contiguity, shape) first.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_logit_cpu(x: *const C_tensor, out: *mut C_tensor, vectorized: bool) -> *mut std::ffi::c_char;
    fn tb_logit_vectorized() -> bool;
}

/// `logit(x)` into `out` (contiguous CPU tensors of one shape and dtype,
/// float32 or float64, `out` a fresh tensor of the caller's own).
/// `vectorized`: libtorch's SLEEF kernels where the CPU and libtorch have
/// them (the composite's values), else the C library's `log` and `log1p`.
pub(crate) fn logit_cpu(x: &Tensor, out: &mut Tensor, vectorized: bool) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_logit_cpu(x.as_ptr(), out.as_mut_ptr(), vectorized)) }
}

/// Whether [`logit_cpu`] runs SLEEF's vectorized kernels on this machine.
#[allow(dead_code)] // read by the unit tests
pub(crate) fn logit_vectorized() -> bool {
    // SAFETY: no arguments; the shim only reads CPU features and symbol addresses.
    unsafe { tb_logit_vectorized() }
}
