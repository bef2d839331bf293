//! Declaration of `csrc/gammaln.cpp` (`scipy.special.gammaln` on float64
//! CPU tensors: SciPy's Cephes `lgam` in one pass) and its safe wrapper, for
//! `crate::ops::special::gamma`.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_gammaln_cpu(x: *const C_tensor, out: *mut C_tensor, vectorized: bool) -> *mut std::ffi::c_char;
    fn tb_gammaln_vectorized() -> bool;
}

/// `gammaln(x)` (Cephes' `lgam`, SciPy's values) into `out` (contiguous float64 CPU tensors of
/// one shape, `out` a fresh tensor of the caller's own).
pub(crate) fn gammaln_cpu(x: &Tensor, out: &mut Tensor) -> Result<()> {
    gammaln_cpu_by(x, out, true)
}

/// [`gammaln_cpu`] by the AVX-512 kernel where this machine has it
/// (`vectorized`; the same bits) or by the scalar loop.
pub(crate) fn gammaln_cpu_by(x: &Tensor, out: &mut Tensor, vectorized: bool) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_gammaln_cpu(x.as_ptr(), out.as_mut_ptr(), vectorized)) }
}

/// Whether [`gammaln_cpu`] runs the AVX-512 kernel on this machine.
#[allow(dead_code)] // read by the unit tests
pub(crate) fn gammaln_vectorized() -> bool {
    // SAFETY: no arguments; the shim only reads CPU features.
    unsafe { tb_gammaln_vectorized() }
}
