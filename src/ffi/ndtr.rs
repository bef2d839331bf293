//! Declaration of `csrc/ndtr.cpp` (the last pass of `scipy.special.ndtr` on
//! float64 CPU tensors: the halving and the lower tail's correction) and its
//! safe wrapper, and `log_ndtr` in one pass, for `crate::ops::special::erf`.
//!
//! The shim writes only the `out` tensor it is given, which the wrapper's
//! caller owns (a fresh result); it checks both tensors (device, dtype,
//! contiguity, shape) first.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_ndtr_finish_cpu(x: *const C_tensor, out: *mut C_tensor, below: f64, c_err: f64) -> *mut std::ffi::c_char;
    fn tb_log_ndtr_cpu(x: *const C_tensor, out: *mut C_tensor, c_err: f64) -> *mut std::ffi::c_char;
}

/// In place on `out` (contiguous float64 CPU, holding `erfc(-x / sqrt 2)`,
/// a tensor of the caller's own that nothing else views): `out / 2`, plus
/// the first-order correction for the rounding of `x / sqrt 2` where
/// `x < below` (`c_err`: the rounding error of the constant `1 / sqrt 2`).
pub(crate) fn ndtr_finish_cpu(x: &Tensor, out: &mut Tensor, below: f64, c_err: f64) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim reads `x` and
    // writes `out`'s memory only, which the caller owns exclusively (`&mut`).
    unsafe { check(tb_ndtr_finish_cpu(x.as_ptr(), out.as_mut_ptr(), below, c_err)) }
}

/// `log_ndtr(x)` into `out` (contiguous float64 CPU tensors of one shape,
/// `out` a fresh tensor of the caller's own), `c_err` as for [`ndtr_finish_cpu`].
pub(crate) fn log_ndtr_cpu(x: &Tensor, out: &mut Tensor, c_err: f64) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_log_ndtr_cpu(x.as_ptr(), out.as_mut_ptr(), c_err)) }
}
