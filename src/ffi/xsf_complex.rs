//! Declaration of `csrc/xsf_complex.cpp` (SciPy's xsf kernels of complex
//! argument: loggamma, gamma, rgamma, digamma, exp1, expi, spence; the
//! Lambert W function) and its safe wrappers, for
//! `crate::ops::special::xsf_complex`.
//!
//! The shim writes only the `out` tensor it is given, which the wrappers'
//! callers own (a fresh result); it checks every tensor (device, dtype,
//! contiguity, shape) first.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_xsf_complex_cpu(z: *const C_tensor, out: *mut C_tensor, which: i32) -> *mut std::ffi::c_char;
    fn tb_lambertw_cpu(
        z: *const C_tensor,
        k: *const C_tensor,
        tol: *const C_tensor,
        out: *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// Which function [`xsf_complex_cpu`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum XsfComplex {
    /// The principal branch of log Gamma.
    Loggamma = 0,
    /// Gamma.
    Gamma = 1,
    /// 1 / Gamma.
    Rgamma = 2,
    /// The digamma function.
    Digamma = 3,
    /// The exponential integral E1.
    Exp1 = 4,
    /// The exponential integral Ei.
    Expi = 5,
    /// Spence's function.
    Spence = 6,
    /// Riemann's zeta function.
    Zeta = 7,
}

/// `out = f(z)` elementwise, `z` and `out` contiguous complex128 CPU of one
/// shape, `out` a fresh tensor of the caller's that nothing else views.
pub(crate) fn xsf_complex_cpu(z: &Tensor, out: &mut Tensor, which: XsfComplex) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim reads `z` and
    // writes `out`'s memory only, which the caller owns exclusively (`&mut`).
    unsafe { check(tb_xsf_complex_cpu(z.as_ptr(), out.as_mut_ptr(), which as i32)) }
}

/// `out = lambertw(z, k, tol)` elementwise: `z` and `out` contiguous
/// complex128, `k` int64, `tol` float64, all CPU of one shape, `out` a fresh
/// tensor of the caller's.
pub(crate) fn lambertw_cpu(z: &Tensor, k: &Tensor, tol: &Tensor, out: &mut Tensor) -> Result<()> {
    // SAFETY: all four tensors are live for the call; the shim reads the
    // inputs and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_lambertw_cpu(z.as_ptr(), k.as_ptr(), tol.as_ptr(), out.as_mut_ptr())) }
}
