//! The Rust side of the C++ shim in `csrc/`: every `extern "C"` declaration
//! of the crate, in one place, with the error hand-off they share.
//!
//! - [`dfti`] declares `csrc/dfti.cpp` (1-D FFTs of CPU tensors through
//!   MKL descriptors kept for reuse) and wraps it for `crate::ops::fft`.
//! - [`dlpack`] declares `csrc/dlpack.cpp` (DLPack conversion, CUDA streams);
//!   the DLPack layer (`crate::dlpack`) is its only caller.
//! - [`autograd`] declares `csrc/autograd.cpp` (a value with given
//!   derivatives, one autograd node) and the grad-mode query, for
//!   `crate::ops::autograd`.
//! - [`aten`] declares `csrc/aten.cpp` (operators by name) and wraps it in
//!   safe handles, so that `crate::aten` holds no `unsafe` code.
//! - [`iir`] declares `csrc/iir.cpp` (SciPy's `lfilter` and `sosfilt` loops
//!   as CPU kernels) and wraps it in safe functions for `crate::ops::signal`.
//! - [`ni_filters`] declares `csrc/ni_filters.cpp` (the line loops of
//!   SciPy's `ni_filters.c`) and wraps it for `crate::ops::ndimage`.
//! - [`gammaln`] declares `csrc/gammaln.cpp` (`gammaln` in one pass on
//!   float64 CPU tensors) and wraps it for `crate::ops::special`.
//! - [`bessel`] declares `csrc/bessel.cpp` (Bessel functions of real order
//!   and real argument as a scalar loop) and wraps it for `crate::ops::special`.
//! - [`hypergeometric`] declares `csrc/hypergeometric.cpp` (hyp2f1, hyp1f1, hyp0f1,
//!   struve and modstruve as a scalar loop) and wraps it for `crate::ops::special`.
//! - [`cephes_misc`] declares `csrc/cephes_misc.cpp` (SciPy's multi-output
//!   ufuncs of real argument: sici, shichi, fresnel, airy, airye, ellipj) and
//!   wraps it for `crate::ops::special`.
//! - [`incbet`] declares `csrc/incbet.cpp` (the regularized incomplete beta
//!   function as a scalar loop) and wraps it for `crate::ops::special`.
//! - [`faddeeva`] declares `csrc/faddeeva.cpp` (the Faddeeva function and
//!   the complex erf family and ndtr/log_ndtr on complex128 CPU tensors,
//!   `voigt_profile`) and wraps it for `crate::ops::special`.
//! - [`xsf_complex`] declares `csrc/xsf_complex.cpp` (loggamma, gamma,
//!   rgamma, digamma, exp1, expi and spence of complex argument, lambertw,
//!   on complex128 CPU tensors) and wraps it for `crate::ops::special`.
//! - [`legendre`] declares `csrc/legendre.cpp` (the Legendre functions and
//!   the spherical harmonics, with their derivatives, as a scalar loop) and
//!   wraps it for `crate::ops::special`.
//! - [`lapack`] declares LAPACK's `dgetrf_`/`dgetrs_`/`dpotrf_`/`dpotrs_`
//!   (exported by libtorch_cpu) and wraps them for `crate::ops::linalg`'s
//!   small-matrix path.
//! - [`logit`] declares `csrc/logit.cpp` (`logit` in one pass on float32
//!   and float64 CPU tensors) and wraps it for `crate::ops::special`.
//! - [`ndtr`] declares `csrc/ndtr.cpp` (the last pass of `ndtr` and all of
//!   `log_ndtr` on float64 CPU tensors) and wraps it for `crate::ops::special`.
//! - [`ni_interpolation`] declares `csrc/ni_interpolation.cpp` (the point
//!   loop of SciPy's `NI_GeometricTransform`) and wraps it for
//!   `crate::ops::ndimage::interpolation`.
//! - [`realtransforms`] declares `csrc/realtransforms.cpp` (the DCT/DST of
//!   types 2 and 3 on float32 and float64 CPU tensors, each in one call:
//!   the passes around the FFT and the FFT) and wraps it for `crate::ops::fft`.
//! - [`rankdata`] declares `csrc/rankdata.cpp` (`rankdata` by a radix sort)
//!   and wraps it for `crate::ops::stats`.
//! - [`threads`] declares `csrc/threads.cpp` (the calling thread's libtorch
//!   OpenMP team and MKL count) and wraps it for `crate::threads`.
//! - [`tensor_impl`] declares `csrc/tensor_impl.cpp` (a Python torch tensor
//!   as the `at::Tensor` it is, for autograd) and wraps it for `crate::python`.
//!
//! Every shim function catches C++ exceptions and returns them as a
//! `malloc`ed C string (null on success), freed by `tb_free_error`.

pub(crate) mod aten;
pub(crate) mod autograd;
pub(crate) mod bessel;
pub(crate) mod cephes_misc;
pub(crate) mod dfti;
pub(crate) mod dlpack;
pub(crate) mod faddeeva;
pub(crate) mod gammaln;
pub(crate) mod hypergeometric;
pub(crate) mod iir;
pub(crate) mod incbet;
pub(crate) mod lapack;
pub(crate) mod legendre;
pub(crate) mod logit;
pub(crate) mod ndtr;
pub(crate) mod ni_filters;
pub(crate) mod ni_interpolation;
pub(crate) mod rankdata;
pub(crate) mod realtransforms;
#[cfg(feature = "python")]
pub(crate) mod tensor_impl;
pub(crate) mod threads;
pub(crate) mod xsf_complex;

use std::ffi::{c_char, CStr};

use tch::Tensor;
use torch_sys::C_tensor;

use crate::{Error, Result};

extern "C" {
    fn tb_free_error(message: *mut c_char);
}

/// Takes ownership of a shim string: `None` for null, else its text (the
/// string is freed).
///
/// # Safety
///
/// - `message` is null or a NUL-terminated string the shim allocated with
///   `malloc` that nobody has freed; it is freed here, exactly once.
pub(crate) unsafe fn take_string(message: *mut c_char) -> Option<String> {
    if message.is_null() {
        return None;
    }
    // SAFETY: non-null, NUL-terminated and live (caller contract).
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    // SAFETY: allocated by the shim with malloc, freed exactly once here.
    unsafe { tb_free_error(message) };
    Some(text)
}

/// Turns a shim return value into a `Result`: a message is an [`Error::Torch`]
/// (or [`Error::OutOfMemory`] when libtorch's allocator said so).
///
/// # Safety
///
/// - As for [`take_string`].
pub(crate) unsafe fn check(message: *mut c_char) -> Result<()> {
    // SAFETY: forwarded caller contract.
    match unsafe { take_string(message) } {
        None => Ok(()),
        Some(text) => Err(Error::from_torch_message(text)),
    }
}

/// Takes a tensor a successful shim call returned through an out-pointer;
/// `what` names the kernel for the error a null pointer gets.
///
/// # Safety
///
/// - `raw` is null or a `new at::Tensor` (tch's `C_tensor`) that nobody else owns.
pub(crate) unsafe fn take_tensor(raw: *mut C_tensor, what: &str) -> Result<Tensor> {
    if raw.is_null() {
        return Err(Error::Torch(format!("the {what} kernel returned no tensor")));
    }
    // SAFETY: non-null `new at::Tensor`, now ours (caller contract).
    Ok(unsafe { Tensor::from_ptr(raw) })
}

/// Takes the two tensors a successful shim call returned through two
/// out-pointers; a null one is an error, the other still taken (and dropped).
///
/// # Safety
///
/// - `first` and `second` are null or `new at::Tensor`s that nobody else owns.
pub(crate) unsafe fn take_pair(first: *mut C_tensor, second: *mut C_tensor, what: &str) -> Result<(Tensor, Tensor)> {
    // SAFETY: forwarded caller contract, each pointer taken exactly once
    // (both before either result is looked at, so neither leaks).
    let (first, second) = unsafe { (take_tensor(first, what), take_tensor(second, what)) };
    Ok((first?, second?))
}

/// The number of elements of `tensor`: one shim call (tch's `numel` copies
/// the shape out into a `Vec` and checks for an error after each of its calls).
pub(crate) fn numel(tensor: &Tensor) -> usize {
    // SAFETY: `tensor` is a live `at::Tensor`; `numel()` does not throw.
    let n = unsafe { dlpack::tb_numel(tensor.as_ptr()) };
    usize::try_from(n).unwrap_or(0)
}
