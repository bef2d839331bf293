//! Declaration of `csrc/autograd.cpp` (a value with given derivatives, as one
//! autograd node) and of the grad-mode query and below-autograd guard of
//! `csrc/tensor_impl.cpp`, with their safe wrappers for `crate::ops::autograd`
//! and the Python layer.

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

#[cfg(feature = "python")]
pub(crate) use below::BelowAutograd;

/// The below-autograd guard, for the Python layer's calls on non-torch arrays.
#[cfg(feature = "python")]
mod below {
    use std::ffi::c_void;
    use std::marker::PhantomData;
    use std::ptr::NonNull;

    extern "C" {
        fn tb_below_autograd_enter() -> *mut c_void;
        fn tb_below_autograd_exit(guard: *mut c_void);
    }

    /// libtorch's dispatch below autograd on the calling thread until dropped
    /// (`at::AutoDispatchBelowADInplaceOrView`): each op goes straight to its
    /// kernel, past the autograd and view-tracking layers (two dispatcher hops
    /// and a guard an op: 15% of a one-element call of a composite ufunc such as
    /// `stdtr`). The tensors it makes are plain, with no autograd history and no
    /// view metadata: only for work whose inputs record no gradient and whose
    /// results leave torch (a NumPy, JAX or CuPy result).
    pub(crate) struct BelowAutograd {
        guard: NonNull<c_void>,
        /// The guard is the calling thread's (a raw pointer is neither Send nor Sync).
        _thread: PhantomData<*const ()>,
    }

    impl BelowAutograd {
        /// Enters the guard; `None` where libtorch could not make it (the work
        /// then runs as it would without).
        pub(crate) fn enter() -> Option<Self> {
            // SAFETY: no arguments; returns a new guard object or null.
            let guard = NonNull::new(unsafe { tb_below_autograd_enter() })?;
            Some(Self { guard, _thread: PhantomData })
        }
    }

    impl Drop for BelowAutograd {
        fn drop(&mut self) {
            // SAFETY: `guard` came from `tb_below_autograd_enter` on this thread
            // (the type is not Send) and is dropped once; guards made later on the
            // thread were dropped first (scoped borrows drop in reverse order).
            unsafe { tb_below_autograd_exit(self.guard.as_ptr()) }
        }
    }
}
