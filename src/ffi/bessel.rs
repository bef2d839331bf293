//! Declaration of `csrc/bessel.cpp` (Bessel functions of real order and real
//! or complex argument, one scalar loop per element; hyp0f1 and the Airy
//! functions of complex argument, built on the complex ones) and its safe
//! wrappers, for `crate::ops::special::bessel`, `airy` and `hypergeometric`.
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
    fn tb_bessel_complex_cpu(
        v: *const C_tensor,
        z: *const C_tensor,
        kind: i64,
        out: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
    fn tb_airy_complex_cpu(z: *const C_tensor, scaled: i64, out: *mut *mut C_tensor) -> *mut std::ffi::c_char;
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

/// The complex-argument routines of `csrc/bessel_complex.h`, as its
/// `ComplexKind` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BesselComplexKind {
    Jv = 0,
    Yv = 1,
    Iv = 2,
    Kv = 3,
    Jve = 4,
    Yve = 5,
    Ive = 6,
    Kve = 7,
    Hankel1 = 9,
    Hankel2 = 10,
    Hankel1e = 11,
    Hankel2e = 12,
    SphJn = 20,
    SphYn = 21,
    SphIn = 22,
    SphKn = 23,
    SphJnD = 24,
    SphYnD = 25,
    SphInD = 26,
    SphKnD = 27,
    /// `hyp0f1(v, z)`, the order argument `v` its parameter.
    Hyp0f1 = 30,
}

/// The routine `kind` of the real orders `v` (contiguous float64) and complex
/// arguments `z` (contiguous complex128), one shape, CPU, with SciPy's special
/// values; a new complex128 tensor.
pub(crate) fn bessel_complex_cpu(v: &Tensor, z: &Tensor, kind: BesselComplexKind) -> Result<Tensor> {
    let mut out = ptr::null_mut();
    // SAFETY: both tensors are live for the call (the shim only reads them);
    // the out-pointer is valid for writes.
    unsafe { check(tb_bessel_complex_cpu(v.as_ptr(), z.as_ptr(), kind as i64, &mut out))? };
    // SAFETY: after a successful call `out` is a new tensor nobody owns.
    unsafe { take_tensor(out, "bessel_complex") }
}

/// `(Ai, Ai', Bi, Bi')` of the complex arguments `z` (contiguous complex128,
/// CPU), airye's scaled forms when `scaled`, with SciPy's special values: a
/// new complex128 tensor of shape `[4, z.numel()]`, the outputs in rows.
pub(crate) fn airy_complex_cpu(z: &Tensor, scaled: bool) -> Result<Tensor> {
    let mut out = ptr::null_mut();
    // SAFETY: `z` is live for the call (the shim only reads it); the
    // out-pointer is valid for writes.
    unsafe { check(tb_airy_complex_cpu(z.as_ptr(), i64::from(scaled), &mut out))? };
    // SAFETY: after a successful call `out` is a new tensor nobody owns.
    unsafe { take_tensor(out, "airy_complex") }
}
