//! Producer direction: `tch::Tensor` -> DLPack managed tensor.

use std::ptr;

use dlpark::ffi::{DLDataType, DLManagedTensor, DLManagedTensorVersioned};
use dlpark::Managed;
use tch::Tensor;

use crate::ffi::{self, dlpack as shim};
use crate::{DType, Error, Result};

/// The tensor as a consumer must see it: no autograd history, conjugate and
/// negative bits materialised (DLPack has no way to carry them, and libtorch's
/// C++ exporter would otherwise hand out the unconjugated bytes).
pub(crate) fn exportable(tensor: &Tensor) -> Result<Tensor> {
    if !tensor.requires_grad() && !tensor.f_is_conj()? && !tensor.f_is_neg()? {
        return Ok(tensor.shallow_clone()); // the common case: nothing to resolve
    }
    Ok(tensor.f_detach()?.f_resolve_conj()?.f_resolve_neg()?)
}

/// Exports `tensor` as a versioned DLPack tensor that shares its storage.
pub fn export_versioned(tensor: &Tensor) -> Result<Managed<DLManagedTensorVersioned>> {
    let ready = exportable(tensor)?;
    let mut out: *mut DLManagedTensorVersioned = ptr::null_mut();
    // SAFETY: `ready` is a live tensor; the shim catches exceptions and on
    // success hands us sole ownership of a fresh managed tensor.
    unsafe { ffi::check(shim::tb_to_dlpack_versioned(ready.as_ptr(), &mut out))? };
    // SAFETY: `out` is owned by us, initialised by libtorch, with a deleter
    // callable once from any thread.
    unsafe { Managed::from_raw(out) }.map_err(|err| Error::Torch(err.to_string()))
}

/// Exports `tensor` with the legacy (unversioned) DLPack ABI.
pub fn export_legacy(tensor: &Tensor) -> Result<Managed<DLManagedTensor>> {
    let ready = exportable(tensor)?;
    let mut out: *mut DLManagedTensor = ptr::null_mut();
    // SAFETY: as in `export_versioned`.
    unsafe { ffi::check(shim::tb_to_dlpack_legacy(ready.as_ptr(), &mut out))? };
    // SAFETY: as in `export_versioned`.
    unsafe { Managed::from_raw(out) }.map_err(|err| Error::Torch(err.to_string()))
}

/// The dtype of a libtorch tensor, for every dtype torchbridge exchanges
/// (including uint16/32/64, which `tch::Kind` cannot name).
pub fn dtype_of(tensor: &Tensor) -> Result<DType> {
    let mut out = DLDataType::default();
    // SAFETY: `tensor` is live; the shim writes `out` or returns an error.
    unsafe { ffi::check(shim::tb_dlpack_dtype(tensor.as_ptr(), &mut out))? };
    DType::from_dlpack(out)
}
