//! Declaration of `csrc/realtransforms.cpp` (the DCT/DST of types 2 and 3
//! of float32 and float64 CPU tensors, each in one call: a pass, the FFT, a
//! pass) and its safe wrappers, for `crate::ops::fft::realtransforms`.
//!
//! Every tensor is 2-D (`[rows, length]`) except the twiddle; the shim
//! checks devices, dtypes, shapes and contiguity (the input `x` may have any
//! strides, the others must be contiguous) and writes only the output
//! tensor it is given, which the wrapper's caller owns (a fresh result),
//! besides the calling thread's own scratch (kept between calls, at most
//! 16 MiB; a larger call's freed after it).

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_dct2_cpu(
        x: *const C_tensor,
        w: *const C_tensor,
        t: *const C_tensor,
        y: *mut C_tensor,
        sine: bool,
    ) -> *mut std::ffi::c_char;
    fn tb_dct3_cpu(
        x: *const C_tensor,
        w: *const C_tensor,
        t: *const C_tensor,
        y: *mut C_tensor,
        sine: bool,
    ) -> *mut std::ffi::c_char;
    fn tb_realtransforms_scratch_kept() -> i64;
}

/// DCT-II (DST-II with `sine`) of each row of the real `[rows, N]` `x` into
/// `y` (contiguous, x's shape and dtype, a fresh tensor of the caller's
/// own): Makhoul's permutation, the FFT and the scaled twiddle `w`
/// (contiguous complex `[N/2 + 1]`, every scaling in it). `t` (contiguous
/// complex) chooses the FFT: for even N, `exp(-2 pi i k / N)` for `k` in
/// `0..=N/4`, an N/2-point complex FFT split by `t` in the pass after it;
/// empty, the N-point real FFT.
pub(crate) fn dct2(x: &Tensor, w: &Tensor, t: &Tensor, y: &mut Tensor, sine: bool) -> Result<()> {
    // SAFETY: the tensors are live for the call; the shim checks them, reads
    // `x`, `w` and `t`, and writes only `y`'s memory, which the caller owns
    // (`&mut`), and its own per-thread scratch.
    unsafe { check(tb_dct2_cpu(x.as_ptr(), w.as_ptr(), t.as_ptr(), y.as_mut_ptr(), sine)) }
}

/// DCT-III (DST-III with `sine`, `x` read reversed) of each row of the real
/// `[rows, N]` `x` into `y` (contiguous, x's shape and dtype, a fresh tensor
/// of the caller's own): the half-spectrum twiddled by `w` (contiguous
/// complex `[N/2 + 1]`), the inverse FFT (as [`dct2`]'s, `t` the same) and
/// the output order.
pub(crate) fn dct3(x: &Tensor, w: &Tensor, t: &Tensor, y: &mut Tensor, sine: bool) -> Result<()> {
    // SAFETY: as for `dct2`.
    unsafe { check(tb_dct3_cpu(x.as_ptr(), w.as_ptr(), t.as_ptr(), y.as_mut_ptr(), sine)) }
}

/// The bytes of scratch the calling thread keeps between calls.
#[allow(dead_code)] // read by the unit tests
pub(crate) fn scratch_kept() -> i64 {
    // SAFETY: no arguments; the shim reads the calling thread's own record.
    unsafe { tb_realtransforms_scratch_kept() }
}
