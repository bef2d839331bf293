//! Declaration of `csrc/incbet.cpp` (the regularized incomplete beta function
//! and its complement, one scalar loop per element) and its safe wrapper, for
//! `crate::ops::special::incbet`.
//!
//! The shim checks the tensors it is given (device, dtype, contiguity, shape)
//! and returns new tensors; nothing here writes the caller's memory.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_pair};
use crate::Result;

extern "C" {
    fn tb_incbet_pair_cpu(
        a: *const C_tensor,
        b: *const C_tensor,
        x: *const C_tensor,
        y: *const C_tensor,
        lower: *mut *mut C_tensor,
        upper: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// `(I_x(a, b), 1 - I_x(a, b))` for `a`, `b`, `x` and `y = 1 - x` (one shape,
/// contiguous float64, CPU): nan where `a` or `b` is not positive and finite
/// or `x` or `y` is outside [0, 1].
pub(crate) fn incbet_pair_cpu(a: &Tensor, b: &Tensor, x: &Tensor, y: &Tensor) -> Result<(Tensor, Tensor)> {
    let (mut lower, mut upper) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: the four tensors are live for the call (the shim only reads
    // them); the out-pointers are valid for writes.
    unsafe { check(tb_incbet_pair_cpu(a.as_ptr(), b.as_ptr(), x.as_ptr(), y.as_ptr(), &mut lower, &mut upper))? };
    // SAFETY: after a successful call both are new tensors nobody owns.
    unsafe { take_pair(lower, upper, "incbet") }
}
