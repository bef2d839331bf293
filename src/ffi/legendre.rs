//! Declaration of `csrc/legendre.cpp` (the Legendre functions of the first
//! kind and the spherical harmonics with their derivatives, and `lpmv`, one
//! scalar loop per element) and its safe wrapper, for
//! `crate::ops::special::legendre`.
//!
//! The shim checks the tensors it is given (device, dtype, contiguity, shape,
//! count, the derivative order) and returns a new tensor; nothing here writes
//! the caller's memory.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_tensor};
use crate::Result;

extern "C" {
    fn tb_legendre_cpu(
        inputs: *const *const C_tensor,
        n: i64,
        kind: i64,
        diff_n: i64,
        norm: bool,
        out: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// The routines of `csrc/legendre.cpp`, as its `Kind` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LegendreKind {
    /// `sph_harm_y(n, m, theta, phi)`: int64, int64, float64, float64; a
    /// complex128 tensor of shape `[(d + 1)^2, *shape]`, the mixed derivatives
    /// `d^i/dtheta^i d^j/dphi^j` at `i * (d + 1) + j`.
    SphHarmY = 0,
    /// `sph_legendre_p(n, m, theta)`: `[d + 1, *shape]` float64.
    SphLegendreP = 1,
    /// `assoc_legendre_p(n, m, z, branch_cut)`: z float64 or complex128, `[d + 1, *shape]` of z's dtype.
    AssocLegendreP = 2,
    /// `legendre_p(n, z)`: `[d + 1, *shape]` float64.
    LegendreP = 3,
    /// `lpmv(m, v, x)`, all float64: `[*shape]`.
    Lpmv = 4,
}

/// The routine `kind` of `inputs` (one shape, contiguous, CPU; see
/// [`LegendreKind`] for the dtypes), with the derivatives up to `diff_n`
/// (0, 1 or 2) and, for [`LegendreKind::AssocLegendreP`], the normalization `norm`.
pub(crate) fn legendre_cpu(inputs: &[&Tensor], kind: LegendreKind, diff_n: i64, norm: bool) -> Result<Tensor> {
    let pointers: Vec<*const C_tensor> = inputs.iter().map(|t| t.as_ptr()).collect();
    let mut out = ptr::null_mut();
    // SAFETY: every tensor of `inputs` is live for the call (the shim only reads
    // them), `pointers` holds `pointers.len()` valid pointers, and the out-pointer
    // is valid for writes.
    unsafe { check(tb_legendre_cpu(pointers.as_ptr(), pointers.len() as i64, kind as i64, diff_n, norm, &mut out))? };
    // SAFETY: after a successful call `out` is a new tensor nobody owns.
    unsafe { take_tensor(out, "legendre") }
}
