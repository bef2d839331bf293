//! Declaration of `csrc/tensor_impl.cpp` (a torch tensor taken as the
//! `at::Tensor` it is, through its `c10::TensorImpl` address) and its safe
//! wrappers, for the Python layer's torch route (`crate::python::container`).
//!
//! Both directions go through the impl's address: in, the `at::Tensor` that
//! torch's Python object holds (read where torch lays it out, right after the
//! object header, once checked against `tensor._cdata`; else `_cdata`); out,
//! torch's `THPVariable_Wrap` where libtorch_python exports it, else
//! `torch._C._wrap_tensor_impl(capsule)`; both take their own reference to
//! the impl. No DLPack capsule, no copy, and the autograd metadata travels
//! with the impl.

use std::ffi::c_void;
use std::ptr::{self, NonNull};
use std::sync::OnceLock;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use tch::Tensor;
use torch_sys::C_tensor;

use super::check;

extern "C" {
    fn tb_tensor_from_impl(impl_: *mut c_void, out: *mut *mut C_tensor) -> *mut std::ffi::c_char;
    fn tb_tensor_impl(tensor: *const C_tensor) -> *mut c_void;
    fn tb_resolve_lazy(tensor: *const C_tensor, out: *mut *mut C_tensor) -> *mut std::ffi::c_char;
    fn tb_impl_requires_grad(impl_: *mut c_void) -> bool;
    fn tb_wrap_tensor_available() -> bool;
    fn tb_wrap_tensor(tensor: *const C_tensor, out: *mut *mut c_void) -> *mut std::ffi::c_char;
    fn tb_graph_reaches(output: *const C_tensor, input_impl: *mut c_void, reaches: *mut bool) -> *mut std::ffi::c_char;
}

/// The `at::Tensor` behind the Python `torch.Tensor` `obj`, sharing its impl
/// (memory, metadata, autograd graph), with a conjugate or negative bit
/// applied; `None` for a tensor that is not a plain strided CPU/CUDA tensor
/// with storage (a Python-dispatch subclass, a functorch wrapper, a sparse or
/// meta tensor): those take the DLPack route.
///
/// `obj` must be a `torch.Tensor` (the caller classified it): see [`impl_address`].
pub(crate) fn tensor_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<Tensor>> {
    let address = impl_address(obj)?;
    let mut out = ptr::null_mut();
    // SAFETY: `address` is the impl of `obj`, which the borrow keeps alive for
    // the call (the shim takes its own reference); the out-pointer is valid.
    unsafe { check(tb_tensor_from_impl(address as *mut c_void, &mut out))? };
    if out.is_null() {
        return Ok(None);
    }
    // SAFETY: non-null after success: a `new at::Tensor` nobody else owns.
    Ok(Some(unsafe { Tensor::from_ptr(out) }))
}

/// `tensor` with a lazy conjugate or negation applied (plain memory, as
/// SciPy's results and numpy's `.numpy()` need; differentiable), or the
/// tensor itself where neither bit is set: one shim call.
pub(crate) fn resolve_lazy(tensor: Tensor) -> crate::Result<Tensor> {
    let mut out = ptr::null_mut();
    // SAFETY: `tensor` is a live `at::Tensor`; the out-pointer is valid for writes.
    unsafe { check(tb_resolve_lazy(tensor.as_ptr(), &mut out))? };
    if out.is_null() {
        return Ok(tensor);
    }
    // SAFETY: non-null after success: a `new at::Tensor` nobody else owns.
    Ok(unsafe { Tensor::from_ptr(out) })
}

/// Whether the Python `torch.Tensor` `obj` requires grad (its impl's
/// autograd metadata; `obj` as for [`tensor_of`]).
pub(crate) fn requires_grad(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    let address = impl_address(obj)?;
    // SAFETY: `address` is the impl of `obj`, which the borrow keeps alive for
    // the call; the shim only reads it.
    Ok(unsafe { tb_impl_requires_grad(address as *mut c_void) })
}

/// The address of the `c10::TensorImpl` of the Python `torch.Tensor` `obj`
/// (what `obj._cdata` gives). torch's `THPVariable` holds its `at::Tensor`,
/// one pointer to the impl, right after the object header: that word is read
/// directly once the first tensor seen showed it equal to `_cdata` (a torch
/// or a Python build that lays the object out otherwise keeps `_cdata`, an
/// attribute lookup that costs a tenth of a one-element call).
fn impl_address(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    static DIRECT: OnceLock<bool> = OnceLock::new();
    // SAFETY: `obj` is a live torch.Tensor (the caller classified it), whose
    // object, a `THPVariable` or a subclass of it, extends past its header by
    // at least the `at::Tensor` there; the borrow keeps it alive while read.
    let direct =
        unsafe { obj.as_ptr().cast::<u8>().add(std::mem::size_of::<pyo3::ffi::PyObject>()).cast::<usize>().read() };
    if DIRECT.get() == Some(&true) {
        return Ok(direct);
    }
    let address: usize = obj.getattr(intern!(obj.py(), "_cdata"))?.extract()?;
    let _ = DIRECT.set(address == direct);
    Ok(address)
}

/// Whether `output`'s autograd graph reaches the Python `torch.Tensor`
/// `input` (its gradient accumulator or grad_fn), or `output` is `input`.
pub(crate) fn graph_reaches(output: &Tensor, input: &Bound<'_, PyAny>) -> PyResult<bool> {
    let address = impl_address(input)?;
    let mut reaches = false;
    // SAFETY: `output` is a live `at::Tensor`; `address` is the impl of
    // `input`, which the borrow keeps alive for the call (the shim takes its
    // own reference); the out-pointer is valid for writes.
    unsafe { check(tb_graph_reaches(output.as_ptr(), address as *mut c_void, &mut reaches))? };
    Ok(reaches)
}

/// `tensor` as a Python `torch.Tensor` sharing its impl, through torch's
/// `THPVariable_Wrap` where libtorch_python exports it, else through
/// `wrap_tensor_impl` (torch's `torch._C._wrap_tensor_impl`): the tensor's
/// existing Python object where it has one, else a new one. torch is imported.
pub(crate) fn to_python<'py>(
    py: Python<'py>,
    wrap_tensor_impl: &Bound<'py, PyAny>,
    tensor: &Tensor,
) -> PyResult<Bound<'py, PyAny>> {
    static DIRECT: OnceLock<bool> = OnceLock::new();
    // SAFETY: no arguments; asked once torch is imported (the caller holds its wrap).
    if *DIRECT.get_or_init(|| unsafe { tb_wrap_tensor_available() }) {
        let mut out = ptr::null_mut();
        // SAFETY: `tensor` is a live `at::Tensor`; the GIL is held (`py`), as
        // torch's wrap needs; the out-pointer is valid for writes.
        unsafe { check(tb_wrap_tensor(tensor.as_ptr(), &mut out))? };
        // SAFETY: a new reference (or null with the Python error set), ours to own.
        return unsafe { Bound::from_owned_ptr_or_err(py, out.cast()) };
    }
    // SAFETY: `tensor` is a live `at::Tensor`; the shim only reads its impl pointer.
    let address = unsafe { tb_tensor_impl(tensor.as_ptr()) };
    let address = NonNull::new(address).ok_or_else(|| crate::Error::Torch("an undefined tensor".into()))?;
    // SAFETY: the capsule holds a borrowed impl pointer and no destructor; it
    // is used only by the call below, while `tensor` (borrowed for this whole
    // function) keeps the impl alive, and `_wrap_tensor_impl` takes its own
    // reference before returning.
    let capsule = unsafe { PyCapsule::new_with_pointer(py, address, c"torchbridge.TensorImpl") }?;
    wrap_tensor_impl.call1((capsule,))
}
