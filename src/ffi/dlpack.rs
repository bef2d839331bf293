//! Declarations of `csrc/dlpack.cpp`: DLPack conversion and CUDA streams.
//! Called by the DLPack layer (`crate::dlpack`) only.

use std::ffi::{c_char, c_void};

use dlpark::ffi::{DLDataType, DLManagedTensor, DLManagedTensorVersioned};
use torch_sys::C_tensor;

extern "C" {
    pub(crate) fn tb_from_dlpack_versioned(src: *mut DLManagedTensorVersioned, out: *mut *mut C_tensor) -> *mut c_char;
    pub(crate) fn tb_to_dlpack_versioned(
        tensor: *const C_tensor,
        out: *mut *mut DLManagedTensorVersioned,
    ) -> *mut c_char;
    pub(crate) fn tb_to_dlpack_legacy(tensor: *const C_tensor, out: *mut *mut DLManagedTensor) -> *mut c_char;
    pub(crate) fn tb_dlpack_dtype(tensor: *const C_tensor, out: *mut DLDataType) -> *mut c_char;
    pub(crate) fn tb_numel(tensor: *const C_tensor) -> i64;
    #[cfg(feature = "python")]
    pub(crate) fn tb_host_view(tensor: *const C_tensor, out: *mut TbHostView) -> *mut c_char;
    #[cfg(feature = "python")]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn tb_view_host(
        data: *mut c_void,
        sizes: *const i64,
        strides: *const i64,
        ndim: i64,
        nbytes: usize,
        dtype: DLDataType,
        context: *mut c_void,
        release: unsafe extern "C" fn(*mut c_void),
        out: *mut *mut C_tensor,
    ) -> *mut c_char;
    pub(crate) fn tb_cuda_device_count() -> i64;
    pub(crate) fn tb_cuda_current_stream(index: i64, out: *mut TbStream) -> *mut c_char;
    pub(crate) fn tb_cuda_stream_synchronize(stream: *const TbStream) -> *mut c_char;
    pub(crate) fn tb_cuda_stream_wait(producer: *const TbStream, consumer: i64) -> *mut c_char;
}

/// c10's packed stream (`StreamData3`) and its native handle, as the shim's
/// `TbStream` lays it out.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct TbStream {
    pub id: i64,
    pub device_index: i64,
    pub device_type: i64,
    pub handle: *mut c_void,
}

/// What the numpy result path needs of a tensor, as the shim's `TbHostView`
/// lays it out (`tb_host_view`): `sizes`/`strides` (in elements) and `data`
/// are set only when `cpu` is 1 and `resolve` 0, and stay valid while the
/// tensor lives unchanged.
#[cfg(feature = "python")]
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct TbHostView {
    pub data: *mut c_void,
    pub sizes: *const i64,
    pub strides: *const i64,
    pub ndim: i64,
    pub dtype: DLDataType,
    /// 1: the tensor is on the CPU.
    pub cpu: i32,
    /// 1: it requires grad or has a conjugate or negative bit (to resolve first).
    pub resolve: i32,
}
