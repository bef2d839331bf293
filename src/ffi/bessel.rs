//! Declaration of `csrc/bessel.cpp` (Bessel functions of real order and real
//! argument, one scalar loop per element) and its safe wrapper, for
//! `crate::ops::special::bessel`.
//!
//! The shim checks the tensors it is given (device, dtype, contiguity, shape)
//! and returns a new tensor; nothing here writes the caller's memory.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_tensor};
use crate::Result;

extern "C" {
    fn tb_bessel_cpu(
        v: *const C_tensor,
        x: *const C_tensor,
        kind: i64,
        out: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// The routines of `csrc/bessel_kernels.h`, as its `Kind` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BesselKind {
    Jv = 0,
    Yv = 1,
    Iv = 2,
    Kv = 3,
    Jve = 4,
    Yve = 5,
    Ive = 6,
    Kve = 7,
    Yn = 8,
}

/// The routine `kind` of `v` and `x` (one shape, contiguous float64, CPU),
/// with SciPy's special values.
pub(crate) fn bessel_cpu(v: &Tensor, x: &Tensor, kind: BesselKind) -> Result<Tensor> {
    let mut out = ptr::null_mut();
    // SAFETY: both tensors are live for the call (the shim only reads them);
    // the out-pointer is valid for writes.
    unsafe { check(tb_bessel_cpu(v.as_ptr(), x.as_ptr(), kind as i64, &mut out))? };
    // SAFETY: after a successful call `out` is a new tensor nobody owns.
    unsafe { take_tensor(out, "bessel") }
}
