//! Declaration of `csrc/ndtr.cpp` (`scipy.special.ndtr` and `log_ndtr` on
//! float64 CPU tensors, each in one pass) and its safe wrappers, for
//! `crate::ops::special::erf`.
//!
//! The shim writes only the `out` tensor it is given, which the wrapper's
//! caller owns (a fresh result); it checks both tensors (device, dtype,
//! contiguity, shape) first.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_ndtr_cpu(
        x: *const C_tensor,
        out: *mut C_tensor,
        below: f64,
        c_err: f64,
        vectorized: bool,
    ) -> *mut std::ffi::c_char;
    fn tb_ndtr_vectorized() -> bool;
    fn tb_log_ndtr_cpu(x: *const C_tensor, out: *mut C_tensor, c_err: f64) -> *mut std::ffi::c_char;
}

/// `ndtr(x)` into `out` (contiguous float64 CPU tensors of one shape, `out`
/// a fresh tensor of the caller's own): `erfc(-x / sqrt 2) / 2`, plus the
/// first-order correction for the rounding of `x / sqrt 2` where `x < below`
/// (`c_err`: the rounding error of the constant `1 / sqrt 2`). `vectorized`:
/// the SLEEF erfc that libtorch exports, where the CPU has AVX-512F or AVX2
/// (within 2 ulp of the composite), else the C library's.
pub(crate) fn ndtr_cpu(x: &Tensor, out: &mut Tensor, below: f64, c_err: f64, vectorized: bool) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_ndtr_cpu(x.as_ptr(), out.as_mut_ptr(), below, c_err, vectorized)) }
}

/// Whether [`ndtr_cpu`] runs SLEEF's vectorized erfc on this machine.
#[allow(dead_code)] // read by the unit tests
pub(crate) fn ndtr_vectorized() -> bool {
    // SAFETY: no arguments; the shim only reads CPU features and a symbol's address.
    unsafe { tb_ndtr_vectorized() }
}

/// `log_ndtr(x)` into `out` (contiguous float64 CPU tensors of one shape,
/// `out` a fresh tensor of the caller's own), `c_err` as for [`ndtr_cpu`].
pub(crate) fn log_ndtr_cpu(x: &Tensor, out: &mut Tensor, c_err: f64) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_log_ndtr_cpu(x.as_ptr(), out.as_mut_ptr(), c_err)) }
}
