//! Declaration of `csrc/xsf_complex.cpp` (SciPy's xsf kernels of complex
//! argument: loggamma, gamma, rgamma, digamma, exp1, expi, spence; the
//! Lambert W function; Carlson's symmetric elliptic integrals; the pairs
//! sici, shichi and fresnel) and its safe wrappers, for
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
    fn tb_carlson_complex_cpu(
        x: *const C_tensor,
        y: *const C_tensor,
        z: *const C_tensor,
        p: *const C_tensor,
        out: *mut C_tensor,
        which: i32,
    ) -> *mut std::ffi::c_char;
    fn tb_xsf_complex_pair_cpu(
        z: *const C_tensor,
        first: *mut C_tensor,
        second: *mut C_tensor,
        which: i32,
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

/// Which of Carlson's integrals [`carlson_complex_cpu`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carlson {
    /// R_F(x, y, z).
    Rf = 0,
    /// R_D(x, y, z).
    Rd = 1,
    /// R_C(x, y).
    Rc = 2,
    /// R_J(x, y, z, p).
    Rj = 3,
    /// R_G(x, y, z).
    Rg = 4,
}

/// `out = R(x, y, z, p)` elementwise (the arguments `which` does not take
/// are ignored), all contiguous complex128 CPU of one shape, `out` a fresh
/// tensor of the caller's.
pub(crate) fn carlson_complex_cpu(args: [&Tensor; 4], out: &mut Tensor, which: Carlson) -> Result<()> {
    let [x, y, z, p] = args;
    // SAFETY: all five tensors are live for the call; the shim reads the
    // inputs and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe {
        check(tb_carlson_complex_cpu(x.as_ptr(), y.as_ptr(), z.as_ptr(), p.as_ptr(), out.as_mut_ptr(), which as i32))
    }
}

/// Which pair [`xsf_complex_pair_cpu`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum XsfPair {
    /// (Si, Ci).
    Sici = 0,
    /// (Shi, Chi).
    Shichi = 1,
    /// (S, C), the Fresnel integrals.
    Fresnel = 2,
}

/// `(first, second) = f(z)` elementwise, all contiguous complex128 CPU of one
/// shape, `first` and `second` fresh tensors of the caller's.
pub(crate) fn xsf_complex_pair_cpu(z: &Tensor, first: &mut Tensor, second: &mut Tensor, which: XsfPair) -> Result<()> {
    // SAFETY: the three tensors are live for the call; the shim reads `z` and
    // writes the memory of `first` and `second` only, which the caller owns
    // exclusively (`&mut`).
    unsafe { check(tb_xsf_complex_pair_cpu(z.as_ptr(), first.as_mut_ptr(), second.as_mut_ptr(), which as i32)) }
}
