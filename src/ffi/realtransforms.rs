//! Declaration of `csrc/realtransforms.cpp` (the passes before and after the
//! FFT of the DCT/DST of types 2 and 3 on float32 and float64 CPU tensors)
//! and its safe wrappers, for `crate::ops::fft::realtransforms`.
//!
//! Every tensor is 2-D (`[rows, length]`); the shim checks devices, dtypes,
//! shapes and contiguity (the input `x` may have any strides, the others
//! must be contiguous) and writes only the output tensor it is given, which
//! the wrapper's caller owns (a fresh result).

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_dct2_pre_cpu(x: *const C_tensor, v: *mut C_tensor, sine: bool) -> *mut std::ffi::c_char;
    fn tb_dct2_post_cpu(z: *const C_tensor, w: *const C_tensor, y: *mut C_tensor, sine: bool) -> *mut std::ffi::c_char;
    fn tb_dct3_pre_cpu(x: *const C_tensor, w: *const C_tensor, u: *mut C_tensor, sine: bool) -> *mut std::ffi::c_char;
    fn tb_dct3_post_cpu(s: *const C_tensor, y: *mut C_tensor, sine: bool) -> *mut std::ffi::c_char;
}

/// DCT-II's input permutation (Makhoul's, read circularly reversed; DST-II
/// with `sine`: its odd half negated) of the real `[rows, N]` `x` into `v`
/// (contiguous, x's shape and dtype, a fresh tensor of the caller's own).
pub(crate) fn dct2_pre(x: &Tensor, v: &mut Tensor, sine: bool) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `v`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_dct2_pre_cpu(x.as_ptr(), v.as_mut_ptr(), sine)) }
}

/// DCT-II (DST-II with `sine`) into `y` (contiguous real `[rows, N]`, a
/// fresh tensor of the caller's own) from the real FFT `z` (contiguous
/// complex `[rows, N/2 + 1]`) of [`dct2_pre`]'s output and the scaled
/// twiddle `w` (contiguous complex `[N/2 + 1]`).
pub(crate) fn dct2_post(z: &Tensor, w: &Tensor, y: &mut Tensor, sine: bool) -> Result<()> {
    // SAFETY: the tensors are live for the call; the shim checks them, reads
    // `z` and `w` and writes `y`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_dct2_post_cpu(z.as_ptr(), w.as_ptr(), y.as_mut_ptr(), sine)) }
}

/// DCT-III's twiddled half-spectrum (DST-III with `sine`: `x` read
/// reversed) of the real `[rows, N]` `x` into `u` (contiguous complex
/// `[rows, N/2 + 1]`, a fresh tensor of the caller's own), `w` the scaled
/// twiddle (contiguous complex `[N/2 + 1]`).
pub(crate) fn dct3_pre(x: &Tensor, w: &Tensor, u: &mut Tensor, sine: bool) -> Result<()> {
    // SAFETY: the tensors are live for the call; the shim checks them, reads
    // `x` and `w` and writes `u`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_dct3_pre_cpu(x.as_ptr(), w.as_ptr(), u.as_mut_ptr(), sine)) }
}

/// DCT-III's output order (DST-III with `sine`: odd outputs negated) of the
/// inverse real FFT `s` (contiguous real `[rows, N]`) into `y` (s's shape
/// and dtype, a fresh tensor of the caller's own).
pub(crate) fn dct3_post(s: &Tensor, y: &mut Tensor, sine: bool) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `s` and writes `y`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_dct3_post_cpu(s.as_ptr(), y.as_mut_ptr(), sine)) }
}
