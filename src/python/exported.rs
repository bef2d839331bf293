//! `DLPackTensor`: a libtorch result offered to a consumer through the
//! standard `__dlpack__` / `__dlpack_device__` protocol.

use std::sync::Mutex;

use dlpark::ffi::{DLDevice, DLManagedTensor, DLManagedTensorVersioned};
use dlpark::python::{export_dlpack, CudaStreamRequest, DlpackExporter, ExportRequest};
use dlpark::{DlpackFlags, Managed};
use pyo3::prelude::*;
use tch::Tensor;

use crate::dlpack::{self, CudaStream};
use crate::Device;

/// A tensor held for export. Each `__dlpack__` call makes a fresh DLPack
/// tensor that shares the storage, so it may be consumed any number of times.
#[pyclass(frozen, module = "torchbridge._core", name = "DLPackTensor")]
pub struct DlpackTensor {
    // tch::Tensor is Send but not Sync; the lock makes the class shareable.
    tensor: Mutex<Tensor>,
    device: DLDevice,
    /// For CUDA memory: the stream the tensor was computed on (libtorch's
    /// current stream when it was handed over for export).
    stream: Option<CudaStream>,
}

impl DlpackTensor {
    pub(crate) fn new(tensor: Tensor) -> PyResult<Self> {
        let device = Device::from_tch(tensor.device())?;
        let stream = CudaStream::current_for(device)?;
        Ok(Self { tensor: Mutex::new(tensor), device: device.to_dlpack(), stream })
    }

    fn with_tensor<R>(&self, f: impl FnOnce(&Tensor) -> R) -> R {
        let guard = self.tensor.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&guard)
    }
}

/// `tensor` as the legacy DLPack capsule `DLPackTensor.__dlpack__()` returns,
/// for a consumer torchbridge calls itself (no Python method call between).
pub(crate) fn legacy_capsule(py: Python<'_>, tensor: Tensor) -> PyResult<Py<PyAny>> {
    export_dlpack(&DlpackTensor::new(tensor)?, py, ExportRequest::parse(None, None, None, None)?)
}

#[pymethods]
impl DlpackTensor {
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__(
        &self,
        py: Python<'_>,
        stream: Option<&Bound<'_, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(u32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Py<PyAny>> {
        let request = ExportRequest::parse(stream, max_version, dl_device, copy)?;
        export_dlpack(self, py, request)
    }

    fn __dlpack_device__(&self) -> (u32, i32) {
        (self.device.device_type.0, self.device.device_id)
    }

    fn __repr__(&self) -> String {
        self.with_tensor(|t| format!("DLPackTensor(shape={:?}, device={:?})", t.size(), t.device()))
    }
}

impl DlpackExporter for DlpackTensor {
    fn device(&self) -> DLDevice {
        self.device
    }

    fn flags(&self) -> DlpackFlags {
        DlpackFlags::empty()
    }

    /// The array API's hand-off: the consumer names the stream it will read
    /// on (an omitted one is the legacy default stream; `-1` asks for no
    /// ordering). Its later work is ordered after the stream that computed
    /// the tensor: nothing to do when that is the same stream, otherwise the
    /// consumer's stream waits for an event on the device; should that fail,
    /// the host waits for the computation instead.
    fn prepare_export(&self, py: Python<'_>, request: &ExportRequest<'_>) -> PyResult<()> {
        let Some(stream) = self.stream else {
            return Ok(());
        };
        let consumer = match request.cuda_stream()? {
            CudaStreamRequest::NoSync => return Ok(()),
            CudaStreamRequest::Omitted | CudaStreamRequest::LegacyDefault => 1,
            CudaStreamRequest::PerThreadDefault => 2,
            CudaStreamRequest::Pointer(handle) => i64::try_from(handle).unwrap_or(i64::MAX),
        };
        if stream.order_before(consumer).is_err() {
            py.detach(|| stream.synchronize())?;
        }
        Ok(())
    }

    fn export_legacy(&self, _py: Python<'_>) -> PyResult<Managed<DLManagedTensor>> {
        Ok(self.with_tensor(dlpack::export_legacy)?)
    }

    fn export_versioned(&self, _py: Python<'_>) -> PyResult<Managed<DLManagedTensorVersioned>> {
        Ok(self.with_tensor(dlpack::export_versioned)?)
    }
}
