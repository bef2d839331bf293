//! Declaration of `csrc/autograd.cpp` (a value with given derivatives, as one
//! autograd node) and of the grad-mode query of `csrc/tensor_impl.cpp`, with
//! their safe wrappers for `crate::ops::autograd`.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_tensor};
use crate::Result;

extern "C" {
    fn tb_grad_mode_enabled() -> bool;
    fn tb_with_derivatives(
        value: *const C_tensor,
        inputs: *const *const C_tensor,
        derivatives: *const *const C_tensor,
        n: usize,
        out: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// Whether libtorch's autograd records on this thread (`torch.is_grad_enabled()`:
/// false under `torch.no_grad()` and in inference mode).
pub(crate) fn grad_mode_enabled() -> bool {
    // SAFETY: reads a thread-local flag; no arguments.
    unsafe { tb_grad_mode_enabled() }
}

/// `value` (detached) as the output of one autograd node whose backward
/// multiplies the incoming gradient by `derivatives[i]` for `inputs[i]`.
pub(crate) fn with_derivatives(value: &Tensor, inputs: &[&Tensor], derivatives: &[Tensor]) -> Result<Tensor> {
    assert_eq!(inputs.len(), derivatives.len(), "one derivative per input");
    let inputs: Vec<*const C_tensor> = inputs.iter().map(|t| t.as_ptr()).collect();
    let derivatives: Vec<*const C_tensor> = derivatives.iter().map(Tensor::as_ptr).collect();
    let mut out = ptr::null_mut();
    // SAFETY: every pointer is a live `at::Tensor` borrowed for the call (the
    // shim copies the handles it keeps); both arrays hold `n` elements; the
    // out-pointer is valid for writes.
    unsafe {
        check(tb_with_derivatives(value.as_ptr(), inputs.as_ptr(), derivatives.as_ptr(), inputs.len(), &mut out))?;
        take_tensor(out, "with_derivatives")
    }
}
