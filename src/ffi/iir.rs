//! Declarations of `csrc/iir.cpp` (SciPy's recurrent filter loops as CPU
//! kernels) and their safe wrappers, for `crate::ops::signal`'s `lfilter`.
//!
//! The shim checks every tensor it is given (device, dtype, contiguity,
//! shapes) and returns new tensors; nothing here writes the caller's memory.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_pair};
use crate::Result;

extern "C" {
    fn tb_lfilter_cpu(
        b: *const C_tensor,
        a: *const C_tensor,
        x: *const C_tensor,
        zi: *const C_tensor,
        reverse: i32,
        y: *mut *mut C_tensor,
        zf: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
    fn tb_sosfilt_cpu(
        sos: *const C_tensor,
        x: *const C_tensor,
        zi: *const C_tensor,
        reverse: i32,
        y: *mut *mut C_tensor,
        zf: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// SciPy's `lfilter` loop over the rows of `x` (`(rows, T)`, contiguous, CPU)
/// from the states `zi` (`(rows, max(len(a), len(b)) - 1)`): `(y, zf)`.
/// `b` and `a` (1-D, `a[0] != 0`) have `x`'s dtype; the kernel pads and
/// normalises them as SciPy does. `reverse`: time runs from the last sample
/// to the first (`y` in `x`'s orientation).
pub(crate) fn lfilter_cpu(b: &Tensor, a: &Tensor, x: &Tensor, zi: &Tensor, reverse: bool) -> Result<(Tensor, Tensor)> {
    let (mut y, mut zf) = (ptr::null_mut(), ptr::null_mut());
    let reverse = i32::from(reverse);
    // SAFETY: the four tensors are live for the call (the shim only reads
    // them); the out-pointers are valid for writes.
    unsafe { check(tb_lfilter_cpu(b.as_ptr(), a.as_ptr(), x.as_ptr(), zi.as_ptr(), reverse, &mut y, &mut zf))? };
    // SAFETY: after a successful call both are new tensors nobody owns.
    unsafe { take_pair(y, zf, "filter") }
}

/// SciPy's `sosfilt` loop over the rows of `x` (`(rows, T)`, contiguous,
/// CPU) from the states `zi` (`(rows, 2 * n_sections)`): `(y, zf)`. `sos`
/// (`(n_sections, 6)`, `sos[:, 3] == 1`) has `x`'s dtype. `reverse`: as for
/// [`lfilter_cpu`].
pub(crate) fn sosfilt_cpu(sos: &Tensor, x: &Tensor, zi: &Tensor, reverse: bool) -> Result<(Tensor, Tensor)> {
    let (mut y, mut zf) = (ptr::null_mut(), ptr::null_mut());
    let reverse = i32::from(reverse);
    // SAFETY: as in `lfilter_cpu`.
    unsafe { check(tb_sosfilt_cpu(sos.as_ptr(), x.as_ptr(), zi.as_ptr(), reverse, &mut y, &mut zf))? };
    // SAFETY: after a successful call both are new tensors nobody owns.
    unsafe { take_pair(y, zf, "filter") }
}
