//! The unsafe half of the `ndarray` interop (the safe API is `crate::ndarray`).

use dlpark::allocation::dynamic;
use dlpark::ffi::DLManagedTensorVersioned;
use dlpark::TryFromDlpack;
use ndarray::{Array, ArrayViewD, Dimension};
use tch::Tensor;

use super::{export_versioned, ManagedDlpack};
use crate::{Device, Element, Error, Result};

/// Moves an owned array into a DLPack managed tensor without copying its data.
pub(crate) fn managed_from_array<A: Element, D: Dimension>(array: Array<A, D>) -> Result<ManagedDlpack> {
    let initialized: dynamic::Initialized<DLManagedTensorVersioned> =
        Box::new(array).try_into().map_err(|err: dlpark::metadata::Error| Error::InvalidTensor(err.to_string()))?;
    // SAFETY: dlpark's ndarray producer filled data, dtype, CPU device, shape
    // and explicit strides from the boxed array, which the tensor now owns.
    Ok(ManagedDlpack::Versioned(unsafe { initialized.finish() }))
}

/// Runs `f` on a zero-copy `ndarray` view of a CPU tensor.
///
/// The view cannot outlive the call, and the export it reads through holds a
/// reference to the tensor's storage for that time.
pub(crate) fn with_array_view<A: Element, R>(tensor: &Tensor, f: impl FnOnce(ArrayViewD<'_, A>) -> R) -> Result<R> {
    let dtype = super::dtype_of(tensor)?;
    if dtype != <A as Element>::DTYPE {
        return Err(Error::InvalidArgument(format!(
            "tensor has dtype {dtype}, the ndarray element type is {}",
            <A as Element>::DTYPE
        )));
    }
    if Device::from_tch(tensor.device())? != Device::Cpu {
        return Err(Error::InvalidArgument(format!(
            "an ndarray view needs a CPU tensor, got {:?}; move it with `to_device(Device::Cpu)` first",
            tensor.device()
        )));
    }
    let managed = export_versioned(tensor)?;
    // SAFETY: a CPU export of a live tensor, element type checked above; the
    // view borrows `managed`, which keeps the storage alive while `f` runs.
    // Writers elsewhere (another shallow clone of the tensor) are the caller's
    // to exclude, as with any tch tensor.
    let view = unsafe { ArrayViewD::<A>::try_from_dlpack(&managed, ()) }
        .map_err(|err| Error::InvalidTensor(err.to_string()))?;
    Ok(f(view))
}
