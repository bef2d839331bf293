//! The DLPack layer: the only module that names dlpark types or calls the C++
//! shim, and the only home of `unsafe` code in the crate.
//!
//! - [`import`]: a DLPack managed tensor (from Python, from an `ndarray`, from
//!   any producer) becomes a `tch::Tensor` viewing the same memory. libtorch
//!   owns the producer and releases it exactly once, when the last view dies.
//! - [`export`]: a `tch::Tensor` becomes a versioned DLPack managed tensor
//!   that keeps the tensor's storage alive until its consumer calls the deleter.
//! - [`stream`]: the CUDA stream hand-off on both sides of an exchange.
//!
//! Trust boundary: an imported descriptor is trusted for what DLPack cannot
//! let us check, namely that `data` really addresses the memory its shape and
//! strides describe and that it stays valid until the deleter runs. Everything
//! checkable is validated before libtorch sees it: dlpark's metadata checks
//! (rank, shape, stride and byte counts without overflow), dtype and device
//! tables, null data with a non-zero size, the DLPack ABI version, and the
//! byte span of shape and strides (libtorch sizes it in a `noexcept` function
//! and would abort on overflow).
//! libtorch only ever receives a descriptor that torchbridge built itself.

pub mod export;
pub mod import;
pub(crate) mod loan;
pub(crate) mod ndarray_view;
#[cfg(feature = "python")]
pub(crate) mod numpy_array;
pub mod stream;

pub use export::{dtype_of, export_legacy, export_versioned};
pub use import::{import, import_ordered, CopyReason, Imported, ManagedDlpack};
pub use stream::{cuda_device_count, CudaStream};
