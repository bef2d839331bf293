//! Declarations of the C++ shim in `csrc/shim.cpp`.
//!
//! Every function catches C++ exceptions and returns them as an owned C
//! string (null on success); [`check`] turns that into an [`Error`].

use std::ffi::{c_char, c_void, CStr};

use dlpark::ffi::{DLDataType, DLManagedTensor, DLManagedTensorVersioned};
use torch_sys::C_tensor;

use crate::{Error, Result};

extern "C" {
    pub(super) fn tb_from_dlpack_versioned(src: *mut DLManagedTensorVersioned, out: *mut *mut C_tensor) -> *mut c_char;
    pub(super) fn tb_to_dlpack_versioned(
        tensor: *const C_tensor,
        out: *mut *mut DLManagedTensorVersioned,
    ) -> *mut c_char;
    pub(super) fn tb_to_dlpack_legacy(tensor: *const C_tensor, out: *mut *mut DLManagedTensor) -> *mut c_char;
    pub(super) fn tb_dlpack_dtype(tensor: *const C_tensor, out: *mut DLDataType) -> *mut c_char;
    fn tb_free_error(message: *mut c_char);
    pub(super) fn tb_cuda_device_count() -> i64;
    pub(super) fn tb_cuda_current_stream(index: i64, out: *mut TbStream) -> *mut c_char;
    pub(super) fn tb_cuda_stream_synchronize(stream: *const TbStream) -> *mut c_char;
    pub(super) fn tb_cuda_stream_wait(producer: *const TbStream, consumer: i64) -> *mut c_char;
}

/// c10's packed stream (`StreamData3`) and its native handle, as the shim's
/// `TbStream` lays it out.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(super) struct TbStream {
    pub id: i64,
    pub device_index: i64,
    pub device_type: i64,
    pub handle: *mut c_void,
}

/// Turns a shim return value into a `Result`, freeing the message.
///
/// # Safety
///
/// - `message` is null or a string returned by a shim function that has not
///   been freed yet; it is freed here.
pub(super) unsafe fn check(message: *mut c_char) -> Result<()> {
    if message.is_null() {
        return Ok(());
    }
    // SAFETY: the shim returns a NUL-terminated malloc'ed string (caller contract).
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    // SAFETY: `message` came from the shim and is freed exactly once, here.
    unsafe { tb_free_error(message) };
    Err(Error::Torch(text))
}
