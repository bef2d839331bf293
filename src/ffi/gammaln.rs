//! Declaration of `csrc/gammaln.cpp` (`scipy.special.gammaln` on float64
//! CPU tensors: SciPy's Cephes `lgam` in one pass) and its safe wrapper, for
//! `crate::ops::special::gamma`.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_gammaln_cpu(x: *const C_tensor, out: *mut C_tensor) -> *mut std::ffi::c_char;
}

/// `gammaln(x)` (Cephes' `lgam`, SciPy's values) into `out` (contiguous float64 CPU tensors of
/// one shape, `out` a fresh tensor of the caller's own).
pub(crate) fn gammaln_cpu(x: &Tensor, out: &mut Tensor) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_gammaln_cpu(x.as_ptr(), out.as_mut_ptr())) }
}
