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
        erfc: std::ffi::c_int,
    ) -> *mut std::ffi::c_char;
    fn tb_ndtr_erfc_kernel(erfc: std::ffi::c_int) -> std::ffi::c_int;
    fn tb_log_ndtr_cpu(x: *const C_tensor, out: *mut C_tensor, c_err: f64) -> *mut std::ffi::c_char;
}

/// The `erfc` kernels of [`ndtr_cpu`], slowest first; each falls back to
/// the one before it where this machine lacks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(i32)]
pub(crate) enum Erfc {
    /// The C library's.
    CLibrary = 0,
    /// SLEEF's vectorized one that libtorch_cpu exports (AVX-512F or AVX2 and FMA).
    Sleef = 1,
    /// MKL's vector `vmdErfc` that libtorch_cpu exports.
    Mkl = 2,
}

/// `ndtr(x)` into `out` (contiguous float64 CPU tensors of one shape, `out`
/// a fresh tensor of the caller's own): `erfc(-x / sqrt 2) / 2`, plus the
/// first-order correction for the rounding of `x / sqrt 2` where `x < below`
/// (`c_err`: the rounding error of the constant `1 / sqrt 2`), with the
/// `erfc` kernel [`erfc_kernel`] names (the vectorized ones are within 2 ulp
/// of the composite).
pub(crate) fn ndtr_cpu(x: &Tensor, out: &mut Tensor, below: f64, c_err: f64, erfc: Erfc) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_ndtr_cpu(x.as_ptr(), out.as_mut_ptr(), below, c_err, erfc as std::ffi::c_int)) }
}

/// The kernel [`ndtr_cpu`] runs on this machine when asked for `erfc`.
#[allow(dead_code)] // read by the unit tests
pub(crate) fn erfc_kernel(erfc: Erfc) -> Erfc {
    // SAFETY: a plain integer in and out; the shim only reads CPU features and symbols' addresses.
    match unsafe { tb_ndtr_erfc_kernel(erfc as std::ffi::c_int) } {
        2 => Erfc::Mkl,
        1 => Erfc::Sleef,
        _ => Erfc::CLibrary,
    }
}

/// `log_ndtr(x)` into `out` (contiguous float64 CPU tensors of one shape,
/// `out` a fresh tensor of the caller's own), `c_err` as for [`ndtr_cpu`].
pub(crate) fn log_ndtr_cpu(x: &Tensor, out: &mut Tensor, c_err: f64) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_log_ndtr_cpu(x.as_ptr(), out.as_mut_ptr(), c_err)) }
}
