//! Declaration of `csrc/logit.cpp` (`scipy.special.logit` on float32 and
//! float64 CPU tensors in one pass) and its safe wrapper, for
//! `crate::ops::special::logit`.
//!
//! The shim writes only the `out` tensor it is given, which the wrapper's
//! caller owns (a fresh result); it checks both tensors (device, dtype,
//! contiguity, shape) first.

use std::ffi::{c_char, c_int};

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_logit_cpu(x: *const C_tensor, out: *mut C_tensor, max_simd: c_int) -> *mut c_char;
    fn tb_logit_simd() -> c_int;
}

/// The kernels of `csrc/logit.cpp`, in order of preference.
#[allow(dead_code)] // Avx2 named by the unit tests only
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LogitKernel {
    /// SciPy's formulas with the C library's `log` and `log1p`.
    Scalar = 0,
    /// One SLEEF AVX2 `log` per element (four doubles at a time).
    Avx2 = 1,
    /// One SLEEF AVX-512 `log` per element (eight doubles at a time).
    Avx512 = 2,
}

impl LogitKernel {
    /// The best this machine (CPU and libtorch) runs.
    #[allow(dead_code)] // read by the unit tests
    pub(crate) fn available() -> LogitKernel {
        // SAFETY: no arguments; the shim only reads CPU features and symbol addresses.
        match unsafe { tb_logit_simd() } {
            2 => LogitKernel::Avx512,
            1 => LogitKernel::Avx2,
            _ => LogitKernel::Scalar,
        }
    }
}

/// `logit(x)` into `out` (contiguous CPU tensors of one shape and dtype,
/// float32 or float64, `out` a fresh tensor of the caller's own).
/// `vectorized`: one SLEEF `log` per element where the CPU and libtorch have
/// it (see `csrc/logit.cpp`), else SciPy's formulas with the C library's
/// `log` and `log1p`.
pub(crate) fn logit_cpu(x: &Tensor, out: &mut Tensor, vectorized: bool) -> Result<()> {
    let best = if vectorized { LogitKernel::Avx512 } else { LogitKernel::Scalar };
    logit_cpu_by(x, out, best)
}

/// [`logit_cpu`] by the best kernel up to `best` that this machine runs.
pub(crate) fn logit_cpu_by(x: &Tensor, out: &mut Tensor, best: LogitKernel) -> Result<()> {
    // SAFETY: both tensors are live for the call; the shim checks them,
    // reads `x` and writes `out`'s memory only, which the caller owns (`&mut`).
    unsafe { check(tb_logit_cpu(x.as_ptr(), out.as_mut_ptr(), best as c_int)) }
}
