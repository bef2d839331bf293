//! Consumer direction: DLPack managed tensor -> `tch::Tensor`, zero-copy.

use std::ffi::c_void;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use dlpark::ffi::{DLDataType, DLDevice, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion, DLTensor};
use dlpark::{DlpackFlags, Managed};
use tch::Tensor;

use crate::ffi::{self, dlpack as shim};
use crate::{DType, Device, Error, Result};

/// An owning DLPack tensor in either ABI, as a producer handed it over.
pub enum ManagedDlpack {
    /// A legacy `DLManagedTensor` (no version, no flags).
    Legacy(Managed<DLManagedTensor>),
    /// A versioned `DLManagedTensorVersioned`.
    Versioned(Managed<DLManagedTensorVersioned>),
}

impl ManagedDlpack {
    fn flags(&self) -> DlpackFlags {
        match self {
            Self::Legacy(tensor) => tensor.flags(),
            Self::Versioned(tensor) => tensor.flags(),
        }
    }

    fn validate(&self) -> Result<dlpark::TensorRef<'_>> {
        Ok(match self {
            Self::Legacy(tensor) => tensor.validate()?,
            Self::Versioned(tensor) => tensor.validate()?,
        })
    }
}

/// Why an import could not be zero-copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyReason {
    /// libtorch has no negative strides; the data was copied in logical order.
    NegativeStrides,
    /// The data pointer was not a multiple of the element size (libtorch aligns
    /// complex numbers to their full size); it was copied to aligned memory.
    Misaligned,
}

/// The result of an import.
pub struct Imported {
    /// The tensor, viewing the producer's memory unless `copied` says otherwise.
    pub tensor: Tensor,
    /// The producer marked its memory read-only (DLPack `READ_ONLY`). libtorch
    /// ignores the flag: callers must not write through `tensor` when it is set.
    pub read_only: bool,
    /// Set when the tensor holds a copy instead of a view, with the reason.
    pub copied: Option<CopyReason>,
}

/// What keeps the memory a torch view points at alive.
pub(crate) enum Owner {
    /// An imported producer: dropping it calls the producer's deleter.
    Producer(#[allow(dead_code)] ManagedDlpack),
    /// A libtorch tensor whose storage is viewed with another dtype.
    Tensor(#[allow(dead_code)] Tensor),
    /// A Python object (a numpy array) whose buffer is viewed; released with
    /// the GIL taken, from whichever thread drops the last view.
    #[cfg(feature = "python")]
    Python(Option<pyo3::Py<pyo3::PyAny>>),
    /// CUDA memory of another library, read by kernels queued on `stream`:
    /// that work is waited for before the inner owner is released, since the
    /// producer's memory pool may hand the memory out again at once, to work
    /// on a stream that is not ordered after `stream`.
    Ordered {
        #[allow(dead_code)]
        inner: Box<Owner>,
        stream: super::CudaStream,
    },
}

impl Owner {
    /// Waits for `Ordered` work; the caller then drops the owner.
    fn settle(&mut self) {
        if let Owner::Ordered { stream, .. } = self {
            // A deleter cannot report: if waiting fails the CUDA context is
            // already broken, and nothing safer than releasing is left.
            let _ = stream.synchronize();
        }
    }
}

impl Drop for Owner {
    fn drop(&mut self) {
        self.settle();
        #[cfg(feature = "python")]
        if let Owner::Python(object) = self {
            if let Some(object) = object.take() {
                let object = object.into_ptr();
                // SAFETY: `object` is a strong reference we own. The last view
                // can die on any thread, with or without the GIL, and even
                // inside a pyo3 call whose thread libtorch detached from the
                // interpreter (torch releases the GIL while freeing tensors),
                // so pyo3's own bookkeeping cannot tell: PyGILState_Ensure
                // looks at the real thread state, as numpy's DLPack deleter does.
                unsafe {
                    let state = pyo3::ffi::PyGILState_Ensure();
                    pyo3::ffi::Py_DECREF(object);
                    pyo3::ffi::PyGILState_Release(state);
                }
            }
        }
    }
}

/// The manager context behind every descriptor torchbridge gives libtorch.
struct Hold {
    managed: DLManagedTensorVersioned,
    shape: Vec<i64>,
    strides: Vec<i64>,
    _owner: Owner,
    released: Arc<AtomicBool>,
}

/// The deleter libtorch calls when the last view of a [`Hold`] dies.
///
/// # Safety
///
/// - `managed` is the `managed` field of a `Hold` made by [`view_in_torch`],
///   whose `manager_ctx` points to that boxed `Hold`, and this is the only call.
unsafe extern "C" fn release_hold(managed: *mut DLManagedTensorVersioned) {
    // SAFETY: per the contract, manager_ctx is the Box<Hold> leaked in view_in_torch.
    let hold = unsafe { Box::from_raw((*managed).manager_ctx.cast::<Hold>()) };
    let released = Arc::clone(&hold.released);
    drop(hold);
    released.store(true, Ordering::Release);
}

/// A fully validated strided layout that libtorch can view as is.
pub(crate) struct Layout {
    pub data: *mut c_void,
    pub shape: Vec<i64>,
    pub strides: Vec<i64>,
    pub dtype: DLDataType,
    pub device: DLDevice,
}

/// Hands `layout` to libtorch as a tensor, with `owner` kept alive until its
/// last view dies. Returns the tensor and a flag set once that happened.
///
/// # Safety
///
/// - `layout.data` addresses, on `layout.device`, every element that
///   `layout.shape`/`layout.strides` reach (all strides non-negative), aligned
///   to the dtype, and it stays valid for as long as `owner` lives.
/// - `layout.dtype` and `layout.device` come from the crate's own tables.
pub(crate) unsafe fn view_in_torch(layout: Layout, owner: Owner, read_only: bool) -> Result<(Tensor, Arc<AtomicBool>)> {
    // An error here drops `owner`, which releases the producer exactly once.
    check_storage_span(&layout)?;
    let released = Arc::new(AtomicBool::new(false));
    let hold = Box::into_raw(Box::new(Hold {
        managed: DLManagedTensorVersioned {
            version: DLPackVersion { major: 1, minor: 3 },
            manager_ctx: ptr::null_mut(),
            deleter: Some(release_hold),
            flags: if read_only { DlpackFlags::READ_ONLY } else { DlpackFlags::empty() },
            dl_tensor: DLTensor {
                data: layout.data,
                device: layout.device,
                ndim: i32::try_from(layout.shape.len())
                    .map_err(|_| Error::InvalidTensor("too many dimensions".into()))?,
                dtype: layout.dtype,
                shape: ptr::null_mut(),
                strides: ptr::null_mut(),
                byte_offset: 0,
            },
        },
        shape: layout.shape,
        strides: layout.strides,
        _owner: owner,
        released: Arc::clone(&released),
    }));
    // SAFETY: `hold` is a fresh, valid allocation; the Vec buffers it points the
    // descriptor at live inside it and are never resized.
    let managed = unsafe {
        let h = &mut *hold;
        h.managed.manager_ctx = hold.cast();
        h.managed.dl_tensor.shape = h.shape.as_mut_ptr();
        h.managed.dl_tensor.strides = h.strides.as_mut_ptr();
        ptr::addr_of_mut!(h.managed)
    };
    let mut out: *mut torch_sys::C_tensor = ptr::null_mut();
    // SAFETY: `managed` is a well-formed descriptor (caller contract for the
    // memory; shape/strides/deleter set above). The shim catches exceptions.
    let status = unsafe { ffi::check(shim::tb_from_dlpack_versioned(managed, &mut out)) };
    match status {
        // SAFETY: on success `out` is a `new at::Tensor`, which is tch's C_tensor.
        Ok(()) if !out.is_null() => Ok((unsafe { Tensor::from_ptr(out) }, released)),
        result => {
            // libtorch failed before or after taking ownership: release the
            // hold exactly once, unless its deleter already ran.
            if !released.load(Ordering::Acquire) {
                // SAFETY: the deleter has not run, so nothing else frees `hold`.
                drop(unsafe { Box::from_raw(hold) });
            }
            Err(result.err().unwrap_or_else(|| Error::Torch("libtorch returned no tensor".into())))
        }
    }
}

/// Checks that libtorch can size the storage `layout` spans, before libtorch sees it.
///
/// libtorch's `TensorMaker::computeStorageSize` is `noexcept` but calls
/// `computeStorageNbytes`, which throws when `itemsize * (1 + sum((n - 1) * stride))`
/// overflows `i64`: the exception cannot be caught and the process aborts
/// (`std::terminate`). The same sum must also not wrap the address space from
/// `data`. Any extent that is zero means an empty storage, as in libtorch.
fn check_storage_span(layout: &Layout) -> Result<()> {
    let itemsize = (u64::from(layout.dtype.bits) * u64::from(layout.dtype.lanes)).div_ceil(8) as i64;
    check_span(layout.data, &layout.shape, &layout.strides, itemsize).map(drop)
}

/// [`check_storage_span`] for `shape` and `strides` (in elements) from
/// `data`: the storage's size in bytes (libtorch's `computeStorageNbytes`).
fn check_span(data: *mut c_void, shape: &[i64], strides: &[i64], itemsize: i64) -> Result<usize> {
    if shape.contains(&0) {
        return Ok(0);
    }
    let too_large = || {
        Error::InvalidTensor(format!(
            "shape {shape:?} with strides {strides:?} spans more memory than a process can address"
        ))
    };
    let mut last = 0i64;
    for (&extent, &stride) in shape.iter().zip(strides) {
        if extent < 0 || stride < 0 {
            return Err(Error::InvalidTensor(format!(
                "negative extent or stride reached libtorch: shape {shape:?}, strides {strides:?}"
            )));
        }
        let reach = (extent - 1).checked_mul(stride).ok_or_else(too_large)?;
        last = last.checked_add(reach).ok_or_else(too_large)?;
    }
    let bytes = last.checked_add(1).and_then(|n| n.checked_mul(itemsize)).ok_or_else(too_large)?;
    let bytes = usize::try_from(bytes).map_err(|_| too_large())?;
    (data as usize).checked_add(bytes).ok_or_else(too_large)?;
    Ok(bytes)
}

/// The release of [`view_python_memory`]'s owner: one strong reference to a
/// Python object, dropped with the GIL taken (as [`Owner::Python`]'s drop).
///
/// # Safety
///
/// - `object` is a strong `PyObject` reference the caller owns; called once.
#[cfg(feature = "python")]
unsafe extern "C" fn release_python(object: *mut c_void) {
    // SAFETY: per the contract; the last view can die on any thread, with or
    // without the GIL (see `Owner::drop`), so the GIL is ensured here.
    unsafe {
        let state = pyo3::ffi::PyGILState_Ensure();
        pyo3::ffi::Py_DECREF(object.cast());
        pyo3::ffi::PyGILState_Release(state);
    }
}

/// A CPU tensor viewing the memory a Python object `owner` holds (a numpy
/// array's buffer) without a DLPack descriptor: the per-call fast path of
/// [`import_memory`] for the common layout, with the owner's reference as
/// libtorch's deleter context (no hold, no copies of shape and strides).
/// `None` (the owner handed back) where the layout is not that: empty,
/// a negative stride, data not aligned to the element size; the caller then
/// takes [`import_memory`], which handles those.
///
/// # Safety
///
/// - `data` with `shape` and `strides` (in elements) addresses only CPU
///   memory that stays valid while `owner` lives.
#[cfg(feature = "python")]
pub(crate) unsafe fn view_python_memory(
    data: *mut u8,
    shape: &[i64],
    strides: &[i64],
    dtype: DType,
    owner: pyo3::Py<pyo3::PyAny>,
) -> Result<std::result::Result<Tensor, pyo3::Py<pyo3::PyAny>>> {
    let itemsize = dtype.itemsize();
    let plain = !data.is_null()
        && (data as usize) % itemsize == 0
        && strides.iter().all(|&s| s >= 0)
        && shape.iter().all(|&n| n > 0);
    if !plain {
        return Ok(Err(owner));
    }
    let nbytes = check_span(data.cast(), shape, strides, itemsize as i64)?;
    let ndim = i64::try_from(shape.len()).map_err(|_| Error::InvalidTensor("too many dimensions".into()))?;
    let mut out: *mut torch_sys::C_tensor = ptr::null_mut();
    // SAFETY: the memory is valid while `owner` lives (caller contract), the
    // strides are non-negative, the data aligned and the span (`nbytes`,
    // which covers every element) checked above;
    // the shim takes the owner's reference (released once by
    // `release_python`, also on failure) and catches every exception.
    let status = unsafe {
        ffi::check(shim::tb_view_host(
            data.cast(),
            shape.as_ptr(),
            strides.as_ptr(),
            ndim,
            nbytes,
            dtype.to_dlpack(),
            owner.into_ptr().cast(),
            release_python,
            &mut out,
        ))
    };
    status?;
    // SAFETY: on success `out` is a `new at::Tensor` nobody else owns.
    unsafe { ffi::take_tensor(out, "host view") }.map(Ok)
}

/// Row-major strides (in elements) for `shape`.
pub(crate) fn compact_strides(shape: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; shape.len()];
    for axis in (0..shape.len().saturating_sub(1)).rev() {
        strides[axis] = strides[axis + 1].saturating_mul(shape[axis + 1].max(1));
    }
    strides
}

/// Imports a producer's tensor into libtorch.
///
/// Zero-copy whenever libtorch can represent the layout. Negative strides and
/// misaligned data are copied (once, on the tensor's device), and the result
/// says so in [`Imported::copied`]. The producer is released exactly once: when
/// the last view dies, or before returning (copies, errors).
pub fn import(source: ManagedDlpack) -> Result<Imported> {
    import_owned(source, |producer| producer)
}

fn import_owned(source: ManagedDlpack, owner: impl FnOnce(Owner) -> Owner) -> Result<Imported> {
    let read_only = source.flags().contains(DlpackFlags::READ_ONLY);
    let memory = {
        let view = source.validate()?;
        Memory {
            dtype: DType::from_dlpack(view.dtype())?,
            device: Device::from_dlpack(view.device())?,
            shape: view.shape().to_vec(),
            strides: view.strides_or_compact()?.into_owned(),
            base: view.data_ptr() as *mut u8,
            byte_offset: view.byte_offset(),
            numel: view.num_elements(),
            read_only,
        }
    };
    // SAFETY: the producer vouches for the memory it describes (the trust
    // boundary in the module docs) for as long as it lives, and it lives in
    // the owner.
    unsafe { import_memory(memory, owner(Owner::Producer(source))) }
}

/// [`import`] for CUDA memory whose producer may reuse it, once released, for
/// work that is not ordered after `stream` (another library's memory pool):
/// the release waits for the work queued on `stream` first.
pub fn import_ordered(source: ManagedDlpack, stream: super::CudaStream) -> Result<Imported> {
    import_owned(source, |producer| Owner::Ordered { inner: Box::new(producer), stream })
}

/// Strided memory described by a producer, its metadata already validated.
pub(crate) struct Memory {
    pub dtype: DType,
    pub device: Device,
    pub shape: Vec<i64>,
    /// In elements; may be negative.
    pub strides: Vec<i64>,
    pub base: *mut u8,
    pub byte_offset: u64,
    pub numel: usize,
    pub read_only: bool,
}

/// [`import`] for memory described by other means than a DLPack tensor.
///
/// # Safety
///
/// - `memory.base + memory.byte_offset` with `shape` and `strides` addresses
///   only memory of `memory.device` that stays valid while `owner` lives.
pub(crate) unsafe fn import_memory(memory: Memory, owner: Owner) -> Result<Imported> {
    let Memory { dtype, device, shape, mut strides, base, byte_offset, numel, read_only } = memory;
    let itemsize = dtype.itemsize() as i64;
    let overflow = || Error::InvalidTensor("byte offsets overflow the address space".into());

    if numel == 0 {
        // Nothing will be read: normalise odd strides and a null pointer.
        let data = if base.is_null() { NonNull::<u128>::dangling().as_ptr().cast() } else { base };
        let layout = Layout {
            data: data.cast(),
            strides: compact_strides(&shape),
            shape,
            dtype: dtype.to_dlpack(),
            device: device.to_dlpack(),
        };
        // SAFETY: an empty tensor reads no memory; the pointer is non-null and aligned.
        let (tensor, _) = unsafe { view_in_torch(layout, owner, read_only)? };
        return Ok(Imported { tensor, read_only, copied: None });
    }
    if base.is_null() {
        return Err(Error::InvalidTensor(format!("null data pointer for a tensor of {numel} elements")));
    }
    let offset = isize::try_from(byte_offset).map_err(|_| overflow())?;
    let mut data = base.wrapping_offset(offset);
    // Move the origin to the lowest address and record the axes to flip.
    let mut flipped = Vec::new();
    for (axis, (stride, &extent)) in strides.iter_mut().zip(&shape).enumerate() {
        if *stride < 0 {
            let span = (extent - 1).checked_mul(*stride).and_then(|s| s.checked_mul(itemsize));
            let span = span.and_then(|s| isize::try_from(s).ok()).ok_or_else(overflow)?;
            data = data.wrapping_offset(span);
            *stride = stride.checked_neg().ok_or_else(overflow)?;
            if extent > 1 {
                flipped.push(axis as i64);
            }
        }
    }
    // libtorch's kernels assume each element aligned to its full size:
    // `c10::complex<T>` is `alignas(2 * sizeof(T))`, so a complex128 at an
    // address that is 8 mod 16 (aligned for C and NumPy, `DType::alignment`)
    // makes libtorch's vectorised copy kernels fault. Copy those too.
    let misaligned = (data as usize) % dtype.itemsize() != 0;
    if flipped.is_empty() && !misaligned {
        let layout = Layout { data: data.cast(), shape, strides, dtype: dtype.to_dlpack(), device: device.to_dlpack() };
        // SAFETY: the memory is valid while `owner` lives (caller contract);
        // strides are non-negative, data is aligned, and the owner lives in the hold.
        let (tensor, _) = unsafe { view_in_torch(layout, owner, read_only)? };
        return Ok(Imported { tensor, read_only, copied: None });
    }
    let reason = if flipped.is_empty() { CopyReason::Misaligned } else { CopyReason::NegativeStrides };
    let tensor = copy_in_logical_order(data, shape, strides, dtype, device, &flipped, owner)?;
    Ok(Imported { tensor, read_only: false, copied: Some(reason) })
}

/// Copies a strided buffer (origin at its lowest address, axes in `flipped`
/// to be reversed) into fresh, aligned, row-major memory on the same device.
///
/// The copy works on bytes, so it serves every dtype, aligned or not.
fn copy_in_logical_order(
    data: *mut u8,
    shape: Vec<i64>,
    strides: Vec<i64>,
    dtype: DType,
    device: Device,
    flipped: &[i64],
    owner: Owner,
) -> Result<Tensor> {
    let itemsize = dtype.itemsize() as i64;
    let overflow = || Error::InvalidTensor("byte strides overflow".into());
    let mut byte_shape = shape.clone();
    byte_shape.push(itemsize);
    let mut byte_strides =
        strides.iter().map(|s| s.checked_mul(itemsize).ok_or_else(overflow)).collect::<Result<Vec<_>>>()?;
    byte_strides.push(1);
    let bytes = Layout {
        data: data.cast(),
        shape: byte_shape.clone(),
        strides: byte_strides,
        dtype: DType::UInt8.to_dlpack(),
        device: device.to_dlpack(),
    };
    // SAFETY: the same memory the producer described, read as bytes (always
    // aligned); the producer lives in the hold until the copy below is done.
    let (raw, _) = unsafe { view_in_torch(bytes, owner, true)? };
    let ordered = if flipped.is_empty() { raw } else { raw.f_flip(flipped)? };
    let dense = Tensor::f_empty(&byte_shape, (tch::Kind::Uint8, device.to_tch()))?;
    let mut target = dense.shallow_clone();
    target.f_copy_(&ordered)?;
    drop((ordered, target));
    let layout = Layout {
        data: dense.data_ptr(),
        strides: compact_strides(&shape),
        shape,
        dtype: dtype.to_dlpack(),
        device: device.to_dlpack(),
    };
    // SAFETY: `dense` is a fresh, contiguous, 64-byte aligned libtorch buffer of
    // exactly shape x itemsize bytes, kept alive by the hold.
    let (tensor, _) = unsafe { view_in_torch(layout, Owner::Tensor(dense), false)? };
    Ok(tensor)
}
