//! Borrowed `ndarray` memory lent to libtorch: the unsafe half of
//! `crate::closure` (`with_tensors`, `with_tensors_mut`).
//!
//! A [`RawView`] can only be made from a borrow of an array ([`RawView::of`]
//! for a shared one, read-only; [`RawView::of_mut`] for an exclusive one), and
//! carries that borrow's lifetime. A [`Loan`] views each in libtorch through a
//! DLPack hold whose release raises a flag, and cannot outlive the borrows.
//! When the loan is dropped every flag must be up: a tensor still viewing the
//! memory would outlive the borrow, and the process aborts rather than let it.
//!
//! [`Loan`] is crate-private on purpose: its soundness rests on its `Drop`
//! running before the borrows end, which `closure::with_tensors(_mut)`
//! guarantees and `std::mem::forget` in a caller's hands would not.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use dlpark::ffi::DLManagedTensorVersioned;
use dlpark::metadata::Dynamic;
use dlpark::DlpackFlags;
use ndarray::{ArrayBase, Data, DataMut, Dimension, RawData};
use tch::Tensor;

use super::ManagedDlpack;
use crate::{DType, Device, Element, Error, Result};

/// Where a borrowed array's elements are, for the length of borrow `'a`.
#[doc(hidden)]
pub struct RawView<'a> {
    data: *mut std::ffi::c_void,
    shape: Vec<i64>,
    strides: Vec<i64>,
    dtype: DType,
    /// Made from a shared borrow: libtorch must not write.
    read_only: bool,
    borrow: PhantomData<&'a ()>,
}

impl<'a> RawView<'a> {
    fn new<S: RawData, D: Dimension>(
        array: &ArrayBase<S, D>,
        data: *mut std::ffi::c_void,
        dtype: DType,
        read_only: bool,
    ) -> RawView<'a> {
        RawView {
            data,
            shape: array.shape().iter().map(|&n| n as i64).collect(),
            strides: array.strides().iter().map(|&s| s as i64).collect(),
            dtype,
            read_only,
            borrow: PhantomData,
        }
    }

    /// A read-only view of `array`'s elements.
    pub fn of<A: Element, S: Data<Elem = A>, D: Dimension>(array: &'a ArrayBase<S, D>) -> RawView<'a> {
        RawView::new(array, array.as_ptr().cast_mut().cast(), <A as Element>::DTYPE, true)
    }

    /// A writable view of `array`'s elements.
    pub fn of_mut<A: Element, S: DataMut<Elem = A>, D: Dimension>(array: &'a mut ArrayBase<S, D>) -> RawView<'a> {
        let data = array.as_mut_ptr().cast();
        RawView::new(array, data, <A as Element>::DTYPE, false)
    }
}

/// Raises its flag when dropped: the DLPack deleter of a borrowed view ran.
struct ReleaseFlag(Arc<AtomicBool>);

impl Drop for ReleaseFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// What stays known about one lent input.
struct Lent {
    released: Arc<AtomicBool>,
    /// The import copied (negative strides): the tensor does not alias the array.
    copied: bool,
}

/// Views `raw` in libtorch. The returned flag rises once no tensor views it.
///
/// # Safety
///
/// - The caller keeps `raw`'s borrow alive (a `RawView` carries it) until the
///   flag has risen.
unsafe fn lend(raw: RawView<'_>) -> Result<(Tensor, Lent)> {
    let released = Arc::new(AtomicBool::new(false));
    let prepared = Dynamic::new(raw.shape.as_slice(), raw.strides.as_slice())
        .prepare_as::<DLManagedTensorVersioned>()
        .map_err(|err| Error::InvalidTensor(err.to_string()))?;
    let mut initialized = prepared.initialize(Box::new(ReleaseFlag(Arc::clone(&released))));
    initialized.set_data(raw.data).set_dtype(raw.dtype.to_dlpack()).set_device(Device::Cpu.to_dlpack());
    if raw.read_only {
        initialized.set_flags(DlpackFlags::READ_ONLY)?;
    }
    // SAFETY: the descriptor's data, shape and strides describe the borrowed
    // array's elements (a RawView is only made from an array borrow); dlpark
    // copied shape and strides into the allocation; the flags are honest
    // (READ_ONLY for shared borrows); the memory stays valid until the deleter
    // runs, because the caller keeps the borrow until `released` rises.
    let managed = unsafe { initialized.finish() };
    let imported = super::import(ManagedDlpack::Versioned(managed))?;
    Ok((imported.tensor, Lent { released, copied: imported.copied.is_some() }))
}

/// Tensors viewing borrowed arrays, for no longer than the borrows `'a`.
/// Dropping it drops the tensors and aborts the process if any view of the
/// borrowed memory is still alive.
pub(crate) struct Loan<'a> {
    lent: Vec<Lent>,
    tensors: Vec<Tensor>,
    borrow: PhantomData<&'a ()>,
}

impl<'a> Loan<'a> {
    /// Views each of `raws` in libtorch, in order.
    pub(crate) fn new(raws: Vec<RawView<'a>>) -> Result<Loan<'a>> {
        let mut loan =
            Loan { lent: Vec::with_capacity(raws.len()), tensors: Vec::with_capacity(raws.len()), borrow: PhantomData };
        for raw in raws {
            // SAFETY: `raw` holds a borrow for 'a, which `loan` cannot outlive,
            // and `loan` does not end (its Drop aborts otherwise) while a view
            // of that memory is alive.
            let (tensor, lent) = unsafe { lend(raw)? };
            loan.tensors.push(tensor);
            loan.lent.push(lent);
        }
        Ok(loan)
    }

    /// The tensors, in the order of the views.
    pub(crate) fn tensors(&self) -> &[Tensor] {
        &self.tensors
    }

    /// The tensors, writable (in-place operators reach the arrays lent `of_mut`).
    pub(crate) fn tensors_mut(&mut self) -> &mut [Tensor] {
        &mut self.tensors
    }

    /// Whether input `k` was lent as a copy (negative strides), not a view.
    pub(crate) fn copied(&self, k: usize) -> bool {
        self.lent[k].copied
    }

    /// Drops the input tensors and tells whether every view of the borrowed
    /// memory is gone (`false`: something, e.g. a result, still views it).
    pub(crate) fn release_inputs(&mut self) -> bool {
        self.tensors.clear();
        self.lent.iter().all(|lent| lent.released.load(Ordering::Acquire))
    }
}

impl Drop for Loan<'_> {
    fn drop(&mut self) {
        if !self.release_inputs() {
            eprintln!(
                "torchbridge::with_tensors: a tensor viewing a borrowed ndarray array is still alive after \
                 the closure returned: it was stored outside the closure's result (a captured variable, a \
                 static, another thread). It would read memory whose borrow has ended; aborting the process."
            );
            std::process::abort();
        }
    }
}
