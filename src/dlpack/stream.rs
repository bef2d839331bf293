//! CUDA stream hand-off for DLPack exchanges (the array API's `stream=`).
//!
//! libtorch queues its kernels on the calling thread's *current* stream of
//! each device. Across a DLPack exchange the two sides agree on ordering:
//!
//! - importing, torchbridge is the consumer: it passes its current stream to
//!   the producer's `__dlpack__(stream=...)`, and the producer orders its
//!   pending writes before that stream's later work;
//! - exporting, torchbridge is the producer: a consumer on the stream that
//!   computed the result needs nothing; any other stream is made to wait on
//!   the device for that stream's work ([`CudaStream::order_before`]), or, if
//!   that fails, the host waits for it ([`CudaStream::synchronize`]).
//!
//! Streams are reached through c10's device-generic interfaces, so CPU-only
//! libtorch builds compile and run the same code and report "no CUDA device".

use std::ptr;

use crate::ffi;
use crate::ffi::dlpack::{self as shim, TbStream};
use crate::{Device, Error, Result};

/// The number of CUDA devices libtorch sees (0 without CUDA support or GPU).
pub fn cuda_device_count() -> usize {
    // SAFETY: takes no arguments and catches every exception.
    usize::try_from(unsafe { shim::tb_cuda_device_count() }).unwrap_or(0)
}

/// One libtorch CUDA stream: c10's packed identity and its `cudaStream_t`.
#[derive(Clone, Copy, Debug)]
pub struct CudaStream(TbStream);

// SAFETY: a stream is a process-wide CUDA handle plus plain integers; c10's
// stream calls are thread-safe.
unsafe impl Send for CudaStream {}
// SAFETY: as for `Send`: nothing is mutated through a shared reference.
unsafe impl Sync for CudaStream {}

impl PartialEq for CudaStream {
    fn eq(&self, other: &Self) -> bool {
        (self.0.id, self.0.device_index, self.0.device_type) == (other.0.id, other.0.device_index, other.0.device_type)
    }
}

impl Eq for CudaStream {}

impl CudaStream {
    /// libtorch's current stream for CUDA device `index` on this thread.
    ///
    /// Fails with [`Error::DeviceUnavailable`] when libtorch sees no such device.
    pub fn current(index: usize) -> Result<CudaStream> {
        let mut out = TbStream { id: 0, device_index: 0, device_type: 0, handle: ptr::null_mut() };
        let index = i64::try_from(index).unwrap_or(i64::MAX);
        // SAFETY: `out` is a valid, writable TbStream; the shim catches exceptions.
        unsafe { ffi::check(shim::tb_cuda_current_stream(index, &mut out)) }.map_err(|err| match err {
            Error::Torch(message) => Error::DeviceUnavailable(message),
            other => other,
        })?;
        Ok(CudaStream(out))
    }

    /// The current stream of `device`'s CUDA device; `None` for host memory,
    /// which has no stream.
    pub fn current_for(device: Device) -> Result<Option<CudaStream>> {
        match device {
            Device::Cpu => Ok(None),
            Device::Cuda(index) => CudaStream::current(index).map(Some),
        }
    }

    /// The native handle (`cudaStream_t`); 0 is CUDA's legacy default stream.
    pub fn handle(&self) -> usize {
        self.0.handle as usize
    }

    /// The CUDA device ordinal.
    pub fn device_index(&self) -> usize {
        usize::try_from(self.0.device_index).unwrap_or(0)
    }

    /// The value that names this stream in `__dlpack__(stream=...)`: the
    /// handle, except the legacy default stream, which the protocol spells 1.
    pub fn dlpack_value(&self) -> i64 {
        match self.handle() {
            0 => 1,
            handle => handle as i64,
        }
    }

    /// Whether a consumer's `__dlpack__(stream=...)` value names this stream,
    /// so that its later work is already ordered after this stream's.
    pub fn is_named_by(&self, value: i64) -> bool {
        value == self.dlpack_value()
    }

    /// Orders the work a consumer will queue on the stream its
    /// `__dlpack__(stream=value)` names after the work queued so far on this
    /// stream, without waiting on the host: the consumer's stream waits for
    /// an event recorded here. `value` follows the protocol: 1 (or an omitted
    /// stream) is the legacy default stream, 2 the per-thread default stream,
    /// anything larger a `cudaStream_t` on this stream's device.
    pub fn order_before(&self, value: i64) -> Result<()> {
        if self.is_named_by(value) {
            return Ok(());
        }
        let handle = match value {
            1 => 0, // c10's id of the default (legacy) stream
            v if v >= 2 => v,
            v => return Err(Error::InvalidArgument(format!("{v} names no CUDA stream in the DLPack protocol"))),
        };
        // SAFETY: `self.0` came from `current`; the shim catches exceptions.
        unsafe { ffi::check(shim::tb_cuda_stream_wait(&self.0, handle)) }
    }

    /// Blocks the calling thread until all work queued on this stream is done.
    pub fn synchronize(&self) -> Result<()> {
        // SAFETY: the stream came from `current`; the shim catches exceptions.
        unsafe { ffi::check(shim::tb_cuda_stream_synchronize(&self.0)) }
    }
}

#[cfg(feature = "python")]
pub(crate) use python::ConsumerStream;

#[cfg(feature = "python")]
mod python {
    use std::ffi::c_void;

    use dlpark::ffi::DLDevice;
    use dlpark::python::{DlpackStream, StreamArg};
    use pyo3::prelude::*;

    use super::CudaStream;

    /// torchbridge as a DLPack consumer on a CUDA device: its current stream.
    pub(crate) struct ConsumerStream(pub CudaStream);

    // SAFETY: the value passed is libtorch's current stream of the device the
    // producer reported (live while the process runs), encoded as the Python
    // protocol requires (1 for the legacy default stream, else the handle).
    unsafe impl DlpackStream for ConsumerStream {
        fn as_python_arg(&self, _py: Python<'_>, _device: DLDevice) -> PyResult<StreamArg> {
            Ok(dlpark::python::consumer::stream::cuda(self.0.handle() as *mut c_void))
        }

        /// A producer on this very stream (torch itself, through the C exchange
        /// API) is already ordered; any other declines, and the import falls
        /// back to `__dlpack__(stream=...)`, where the producer orders its work.
        unsafe fn wait_for_producer(&self, _device: DLDevice, producer: *mut c_void) -> PyResult<bool> {
            Ok(producer as usize == self.0.handle())
        }
    }
}
