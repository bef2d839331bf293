//! Declaration of `csrc/dfti.cpp` (1-D FFTs of float32/float64 CPU tensors
//! through MKL descriptors kept for reuse) and its safe wrappers, for
//! `crate::ops::fft::plans`.
//!
//! Every tensor is 2-D (`[rows, points]`) and contiguous; the shim checks
//! devices, dtypes, shapes and contiguity, only reads `x`, and writes only
//! the `out` tensor it is given, which the wrapper's caller owns (a fresh
//! result).

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_fft_plans_available() -> bool;
    fn tb_fft_r2c_cpu(x: *const C_tensor, out: *mut C_tensor, length: i64, scale: f64) -> *mut std::ffi::c_char;
    fn tb_fft_c2r_cpu(x: *const C_tensor, out: *mut C_tensor, length: i64, scale: f64) -> *mut std::ffi::c_char;
    fn tb_fft_c2c_cpu(
        x: *const C_tensor,
        out: *mut C_tensor,
        length: i64,
        forward: bool,
        scale: f64,
    ) -> *mut std::ffi::c_char;
    fn tb_fft_plans_cached() -> i64;
}

/// Whether this libtorch exports MKL's DFTI (else the transforms here fail
/// and callers use libtorch's own FFT).
pub(crate) fn available() -> bool {
    // SAFETY: no arguments; the shim only compares symbol addresses.
    unsafe { tb_fft_plans_available() }
}

/// The real FFT of each row of `x` (`[rows, length]`) into `out`
/// (`[rows, length / 2 + 1]`, the complex dtype of `x`'s precision), times `scale`.
pub(crate) fn r2c(x: &Tensor, out: &mut Tensor, length: i64, scale: f64) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_fft_r2c_cpu(x.as_ptr(), out.as_mut_ptr(), length, scale)) }
}

/// The unnormalized inverse real FFT of each row of `x`
/// (`[rows, length / 2 + 1]`) into `out` (`[rows, length]`), times `scale`.
pub(crate) fn c2r(x: &Tensor, out: &mut Tensor, length: i64, scale: f64) -> Result<()> {
    // SAFETY: as for `r2c`.
    unsafe { check(tb_fft_c2r_cpu(x.as_ptr(), out.as_mut_ptr(), length, scale)) }
}

/// The complex FFT (`forward`, else the unnormalized inverse) of each row of
/// `x` (`[rows, length]`) into `out` (the same shape and dtype), times `scale`.
pub(crate) fn c2c(x: &Tensor, out: &mut Tensor, length: i64, forward: bool, scale: f64) -> Result<()> {
    // SAFETY: as for `r2c`.
    unsafe { check(tb_fft_c2c_cpu(x.as_ptr(), out.as_mut_ptr(), length, forward, scale)) }
}

/// The descriptors kept now.
#[allow(dead_code)] // read by the unit tests
pub(crate) fn cached() -> i64 {
    // SAFETY: no arguments; the shim reads its pool's size under its lock.
    unsafe { tb_fft_plans_cached() }
}
