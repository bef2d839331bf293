//! Integration tests of the DLPack layer: `import`, `export_versioned`,
//! `export_legacy` and `dtype_of`.
//!
//! Every imported descriptor here is built with dlpark's public allocation API
//! around a test producer ([`Owner`]) that counts how often it is dropped, so
//! each test can assert both what libtorch sees and when the producer is
//! released (never while a view lives, exactly once afterwards, at once on
//! copies and errors).

use std::cell::UnsafeCell;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use dlpark::ffi::{DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned};
use dlpark::metadata::Dynamic;
use dlpark::{DlpackFlags, Managed, ManagedTensorBase};
use tch::{Kind, Tensor};
use torchbridge::dlpack::{dtype_of, export_legacy, export_versioned, import, CopyReason, Imported, ManagedDlpack};
use torchbridge::{DType, Error};

// ---------------------------------------------------------------------------
// Test producer
// ---------------------------------------------------------------------------

/// Backing memory shared by the producer context and the test, so the test can
/// still read it after the producer has been released (e.g. to check that a
/// copy left it untouched). `u64` words keep the base 8-byte aligned.
struct Buffer(UnsafeCell<Vec<u64>>);

// SAFETY: the memory is only accessed through raw pointers, by libtorch or by
// the test, and every test sequences those accesses on one thread (a torch
// write completes before the test reads).
unsafe impl Sync for Buffer {}

impl Buffer {
    fn base(&self) -> *mut u8 {
        // SAFETY: the Vec is never resized after construction; we only take
        // its heap pointer (no reference to the elements is created).
        unsafe { (*self.0.get()).as_mut_ptr().cast() }
    }
}

/// The producer's context: holds the memory and counts its own drops.
struct Owner {
    _buffer: Arc<Buffer>,
    drops: Arc<AtomicUsize>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

#[derive(Clone, Copy, Debug)]
enum Data {
    /// `buffer base + n` bytes.
    At(usize),
    /// A null data pointer.
    Null,
}

/// Everything a test chooses about a descriptor.
#[derive(Clone, Debug)]
struct Spec {
    shape: Vec<i64>,
    /// `None`: a null strides pointer.
    strides: Option<Vec<i64>>,
    dtype: DLDataType,
    device: DLDevice,
    data: Data,
    byte_offset: u64,
    flags: DlpackFlags,
}

impl Spec {
    fn new(dtype: DLDataType, shape: &[i64], strides: &[i64]) -> Self {
        Spec {
            shape: shape.to_vec(),
            strides: Some(strides.to_vec()),
            dtype,
            device: DLDevice::CPU,
            data: Data::At(0),
            byte_offset: 0,
            flags: DlpackFlags::empty(),
        }
    }
    fn f64(shape: &[i64], strides: &[i64]) -> Self {
        Self::new(DLDataType::F64, shape, strides)
    }
    fn data(mut self, data: Data) -> Self {
        self.data = data;
        self
    }
    fn byte_offset(mut self, byte_offset: u64) -> Self {
        self.byte_offset = byte_offset;
        self
    }
    fn device(mut self, device: DLDevice) -> Self {
        self.device = device;
        self
    }
    fn flags(mut self, flags: DlpackFlags) -> Self {
        self.flags = flags;
        self
    }
    fn null_strides(mut self) -> Self {
        self.strides = None;
        self
    }
}

/// The test's handle on one producer: its memory and its drop counter.
struct Producer {
    buffer: Arc<Buffer>,
    drops: Arc<AtomicUsize>,
    len: usize,
}

impl Producer {
    /// A producer whose memory holds `bytes` starting `lead` bytes past an
    /// 8-byte aligned base.
    fn with_lead(bytes: &[u8], lead: usize) -> Self {
        let len = lead + bytes.len();
        let words = vec![0u64; len.div_ceil(8) + 2];
        let buffer = Arc::new(Buffer(UnsafeCell::new(words)));
        // SAFETY: the allocation holds at least `len` bytes (sized above) and
        // nothing else accesses it yet.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.base().add(lead), bytes.len()) };
        Producer { buffer, drops: Arc::new(AtomicUsize::new(0)), len }
    }

    fn new(bytes: &[u8]) -> Self {
        Self::with_lead(bytes, 0)
    }

    fn f64(values: &[f64]) -> Self {
        Self::new(&f64_bytes(values))
    }

    fn base(&self) -> *mut u8 {
        self.buffer.base()
    }

    fn drops(&self) -> usize {
        self.drops.load(Ordering::SeqCst)
    }

    /// The producer's memory as it is now (readable even after its release,
    /// since the test holds the buffer too).
    fn bytes(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.len];
        // SAFETY: `len` bytes are in bounds; no torch write is in flight.
        unsafe { ptr::copy_nonoverlapping(self.base(), out.as_mut_ptr(), self.len) };
        out
    }

    /// Reads the `index`-th f64 of the producer's memory through the raw pointer.
    fn read_f64(&self, index: usize) -> f64 {
        assert!((index + 1) * 8 <= self.len);
        // SAFETY: in bounds (checked above), 8-byte aligned base, no write in flight.
        unsafe { self.base().cast::<f64>().add(index).read() }
    }

    fn build<M: ManagedTensorBase>(&self, spec: &Spec) -> Managed<M> {
        let strides = spec.strides.clone().unwrap_or_else(|| vec![0; spec.shape.len()]);
        let prepared =
            Dynamic::new(spec.shape.clone(), strides).prepare_as::<M>().expect("dlpark accepts the test metadata");
        let owner = Owner { _buffer: Arc::clone(&self.buffer), drops: Arc::clone(&self.drops) };
        let mut initialized = prepared.initialize(Box::new(owner));
        if spec.strides.is_none() {
            initialized.tensor_mut().strides = ptr::null_mut();
        }
        let data = match spec.data {
            Data::At(offset) => self.base().wrapping_add(offset).cast(),
            Data::Null => ptr::null_mut(),
        };
        initialized.set_data(data).set_dtype(spec.dtype).set_device(spec.device).set_byte_offset(spec.byte_offset);
        if !spec.flags.is_empty() {
            initialized.set_flags(spec.flags).expect("flags accepted");
        }
        // SAFETY: shape/strides live in dlpark's allocation; the data pointer
        // addresses the buffer the context keeps alive (or is deliberately
        // null/out of spec in the error tests, which never read it); READ_ONLY
        // is the only flag set and only makes a weaker promise.
        unsafe { initialized.finish() }
    }

    fn versioned(&self, spec: &Spec) -> ManagedDlpack {
        ManagedDlpack::Versioned(self.build::<DLManagedTensorVersioned>(spec))
    }

    fn legacy(&self, spec: &Spec) -> ManagedDlpack {
        ManagedDlpack::Legacy(self.build::<DLManagedTensor>(spec))
    }
}

fn f64_bytes(values: &[f64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn iota(n: usize) -> Vec<f64> {
    (0..n).map(|i| i as f64).collect()
}

fn expect_err(result: torchbridge::Result<Imported>) -> Error {
    match result {
        Ok(imported) => panic!("import succeeded unexpectedly: {:?}", imported.tensor),
        Err(err) => err,
    }
}

fn value(t: &Tensor, index: &[i64]) -> f64 {
    t.f_double_value(index).expect("readable element")
}

/// All elements of a 2-D tensor, row by row.
fn values_2d(t: &Tensor) -> Vec<Vec<f64>> {
    let size = t.size();
    assert_eq!(size.len(), 2, "expected a 2-D tensor");
    (0..size[0]).map(|i| (0..size[1]).map(|j| value(t, &[i, j])).collect()).collect()
}

fn values_1d(t: &Tensor) -> Vec<f64> {
    let size = t.size();
    assert_eq!(size.len(), 1, "expected a 1-D tensor");
    (0..size[0]).map(|i| value(t, &[i])).collect()
}

// ---------------------------------------------------------------------------
// Zero-copy imports
// ---------------------------------------------------------------------------

#[test]
fn contiguous_f64_is_zero_copy_shared_and_released_once() {
    let producer = Producer::f64(&iota(6));
    let imported = import(producer.versioned(&Spec::f64(&[2, 3], &[3, 1]))).unwrap();
    assert_eq!(imported.copied, None);
    assert!(!imported.read_only);
    let tensor = imported.tensor;
    assert_eq!(tensor.data_ptr().cast::<u8>(), producer.base(), "not zero-copy");
    assert_eq!(tensor.size(), [2, 3]);
    assert_eq!(tensor.stride(), [3, 1]);
    assert_eq!(tensor.kind(), Kind::Double);
    assert_eq!(values_2d(&tensor), [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]);
    assert_eq!(producer.drops(), 0);

    // A write through torch lands in the producer's memory.
    let mut clone = tensor.shallow_clone();
    let _ = clone.f_fill_(7.0).unwrap();
    for i in 0..6 {
        assert_eq!(producer.read_f64(i), 7.0, "element {i}");
    }
    // And a write through a row view only touches that row.
    let mut row = tensor.get(1);
    let slice = tensor.f_slice(1, 1, 3, 1).unwrap();
    let _ = row.f_fill_(42.0).unwrap();
    assert_eq!((0..6).map(|i| producer.read_f64(i)).collect::<Vec<_>>(), [7.0, 7.0, 7.0, 42.0, 42.0, 42.0]);
    assert_eq!(value(&tensor, &[1, 2]), 42.0);

    // The producer lives as long as any view does.
    drop(tensor);
    assert_eq!(producer.drops(), 0, "released while a shallow clone lives");
    drop(clone);
    assert_eq!(producer.drops(), 0, "released while a row view lives");
    drop(row);
    assert_eq!(producer.drops(), 0, "released while a slice view lives");
    assert_eq!(values_2d(&slice), [[7.0, 7.0], [42.0, 42.0]]);
    drop(slice);
    assert_eq!(producer.drops(), 1, "not released exactly once after the last view");
}

#[test]
fn transposed_layout_is_zero_copy() {
    // Memory holds [[0, 1, 2], [3, 4, 5]] row-major; shape [3, 2] with
    // strides [1, 3] is its transpose.
    let producer = Producer::f64(&iota(6));
    let imported = import(producer.versioned(&Spec::f64(&[3, 2], &[1, 3]))).unwrap();
    assert_eq!(imported.copied, None);
    let t = imported.tensor;
    assert_eq!(t.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(t.size(), [3, 2]);
    assert_eq!(t.stride(), [1, 3]);
    assert!(!t.is_contiguous());
    assert_eq!(values_2d(&t), [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]);
    // A libtorch computation on the strided view is right too.
    let sums = t.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double).unwrap();
    assert_eq!(values_1d(&sums), [3.0, 5.0, 7.0]);
    drop((t, sums));
    assert_eq!(producer.drops(), 1);
}

#[test]
fn stepped_layouts_are_zero_copy() {
    let producer = Producer::f64(&iota(12));
    let t = import(producer.versioned(&Spec::f64(&[5], &[2]))).unwrap().tensor;
    assert_eq!(t.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(t.stride(), [2]);
    assert_eq!(values_1d(&t), [0.0, 2.0, 4.0, 6.0, 8.0]);

    // Every other row and every other column of a 3x4 matrix.
    let u = import(producer.versioned(&Spec::f64(&[2, 2], &[8, 2]))).unwrap().tensor;
    assert_eq!(u.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(values_2d(&u), [[0.0, 2.0], [8.0, 10.0]]);

    // Broadcast (stride 0) rows.
    let b = import(producer.versioned(&Spec::f64(&[3, 4], &[0, 1]))).unwrap().tensor;
    assert_eq!(b.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(values_2d(&b), vec![vec![0.0, 1.0, 2.0, 3.0]; 3]);

    assert_eq!(producer.drops(), 0);
    drop((t, u, b));
    assert_eq!(producer.drops(), 3, "one release per imported descriptor");
}

#[test]
fn aligned_byte_offset_and_data_offset_are_zero_copy() {
    let producer = Producer::f64(&iota(6));
    let t = import(producer.versioned(&Spec::f64(&[2], &[1]).byte_offset(16))).unwrap();
    assert_eq!(t.copied, None);
    assert_eq!(t.tensor.data_ptr().cast::<u8>(), producer.base().wrapping_add(16));
    assert_eq!(values_1d(&t.tensor), [2.0, 3.0]);

    let u = import(producer.versioned(&Spec::f64(&[2], &[1]).data(Data::At(24)).byte_offset(8))).unwrap();
    assert_eq!(u.copied, None);
    assert_eq!(u.tensor.data_ptr().cast::<u8>(), producer.base().wrapping_add(32));
    assert_eq!(values_1d(&u.tensor), [4.0, 5.0]);
    drop((t, u));
    assert_eq!(producer.drops(), 2);
}

#[test]
fn views_can_be_dropped_on_another_thread() {
    let producer = Producer::f64(&iota(4));
    let t = import(producer.versioned(&Spec::f64(&[4], &[1]))).unwrap().tensor;
    let sum = std::thread::spawn(move || {
        let sum = t.f_sum(Kind::Double).unwrap().f_double_value(&[]).unwrap();
        drop(t);
        sum
    })
    .join()
    .unwrap();
    assert_eq!(sum, 6.0);
    assert_eq!(producer.drops(), 1);
}

// ---------------------------------------------------------------------------
// Copied imports
// ---------------------------------------------------------------------------

#[test]
fn negative_strides_are_copied_in_logical_order() {
    let original = f64_bytes(&iota(6));
    let producer = Producer::new(&original);

    // Rows reversed: data points at row 1, stride -3.
    let rows = import(producer.versioned(&Spec::f64(&[2, 3], &[-3, 1]).data(Data::At(24)))).unwrap();
    assert_eq!(rows.copied, Some(CopyReason::NegativeStrides));
    assert!(!rows.read_only);
    assert_eq!(producer.drops(), 1, "the producer must be released right after a copy");
    let t = rows.tensor;
    assert_eq!(values_2d(&t), [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]);
    assert!(t.is_contiguous());
    let start = producer.base() as usize;
    let ptr = t.data_ptr() as usize;
    assert!(ptr < start || ptr >= start + 48, "a copy must not alias the producer");

    // Both axes reversed: data points at the last element.
    let both = import(producer.versioned(&Spec::f64(&[2, 3], &[-3, -1]).data(Data::At(40)))).unwrap();
    assert_eq!(both.copied, Some(CopyReason::NegativeStrides));
    assert_eq!(values_2d(&both.tensor), [[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]]);
    assert_eq!(producer.drops(), 2);

    // 1-D reversed with a stride of -2 (every other element, backwards).
    let back = import(producer.versioned(&Spec::f64(&[3], &[-2]).data(Data::At(40)))).unwrap();
    assert_eq!(back.copied, Some(CopyReason::NegativeStrides));
    assert_eq!(values_1d(&back.tensor), [5.0, 3.0, 1.0]);
    assert_eq!(producer.drops(), 3);

    // Writing to the copy leaves the producer's memory alone.
    let mut w = t.shallow_clone();
    let _ = w.f_fill_(-1.0).unwrap();
    assert_eq!(producer.bytes(), original, "the producer's memory was modified");
    drop((t, w, both, back));
    assert_eq!(producer.drops(), 3, "a copy must not release the producer again");
}

#[test]
fn negative_stride_on_an_extent_one_axis_needs_no_copy() {
    let producer = Producer::f64(&iota(3));
    let imported = import(producer.versioned(&Spec::f64(&[1, 3], &[-3, 1]))).unwrap();
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(values_2d(&imported.tensor), [[0.0, 1.0, 2.0]]);
    assert_eq!(imported.tensor.stride()[1], 1);
    drop(imported);
    assert_eq!(producer.drops(), 1);
}

#[test]
fn read_only_negative_strides_give_a_writable_copy() {
    let producer = Producer::f64(&iota(4));
    let spec = Spec::f64(&[4], &[-1]).data(Data::At(24)).flags(DlpackFlags::READ_ONLY);
    let imported = import(producer.versioned(&spec)).unwrap();
    assert_eq!(imported.copied, Some(CopyReason::NegativeStrides));
    // The tensor owns fresh memory, so the producer's READ_ONLY does not apply.
    assert!(!imported.read_only);
    assert_eq!(values_1d(&imported.tensor), [3.0, 2.0, 1.0, 0.0]);
    assert_eq!(producer.drops(), 1);
}

#[test]
fn misaligned_data_is_copied() {
    let values = [1.5, -2.25, 3.0, 1e300, -0.0, f64::MIN_POSITIVE];
    let original = f64_bytes(&values);
    let producer = Producer::with_lead(&original, 1);

    // Through byte_offset.
    let a = import(producer.versioned(&Spec::f64(&[2, 3], &[3, 1]).byte_offset(1))).unwrap();
    assert_eq!(a.copied, Some(CopyReason::Misaligned));
    assert_eq!(producer.drops(), 1, "released right after the copy");
    assert_eq!(a.tensor.data_ptr() as usize % 8, 0, "the copy must be aligned");
    assert_eq!(values_2d(&a.tensor), [[1.5, -2.25, 3.0], [1e300, -0.0, f64::MIN_POSITIVE]]);
    assert!(value(&a.tensor, &[1, 1]).is_sign_negative(), "-0.0 keeps its sign bit");

    // Through the data pointer itself.
    let b = import(producer.versioned(&Spec::f64(&[6], &[1]).data(Data::At(1)))).unwrap();
    assert_eq!(b.copied, Some(CopyReason::Misaligned));
    assert_eq!(values_1d(&b.tensor), values);
    assert_eq!(producer.drops(), 2);

    // Misaligned and transposed: the copy is in logical order.
    let c = import(producer.versioned(&Spec::f64(&[3, 2], &[1, 3]).data(Data::At(1)))).unwrap();
    assert_eq!(c.copied, Some(CopyReason::Misaligned));
    assert_eq!(values_2d(&c.tensor), [[1.5, 1e300], [-2.25, -0.0], [3.0, f64::MIN_POSITIVE]]);

    // Misaligned and reversed: negative strides are the reported reason.
    let d = import(producer.versioned(&Spec::f64(&[6], &[-1]).data(Data::At(41)))).unwrap();
    assert_eq!(d.copied, Some(CopyReason::NegativeStrides));
    let mut reversed = values;
    reversed.reverse();
    assert_eq!(values_1d(&d.tensor), reversed);

    assert_eq!(producer.drops(), 4);
    let mut after = producer.bytes();
    assert_eq!(after.remove(0), 0);
    assert_eq!(after, original, "the producer's memory was modified");
}

#[test]
fn alignment_is_judged_per_dtype() {
    // One-byte types are never misaligned.
    let producer = Producer::with_lead(&[1, 0, 1, 7], 1);
    let b = import(producer.versioned(&Spec::new(DLDataType::BOOL, &[3], &[1]).data(Data::At(1)))).unwrap();
    assert_eq!(b.copied, None);
    assert_eq!(b.tensor.data_ptr().cast::<u8>(), producer.base().wrapping_add(1));
    assert_eq!(b.tensor.kind(), Kind::Bool);
    assert_eq!(values_1d(&b.tensor), [1.0, 0.0, 1.0]);
    let u = import(producer.versioned(&Spec::new(DLDataType::U8, &[4], &[1]).data(Data::At(1)))).unwrap();
    assert_eq!(u.copied, None);
    assert_eq!(values_1d(&u.tensor), [1.0, 0.0, 1.0, 7.0]);

    // complex128 needs 16-byte alignment in libtorch (c10::complex<double> is
    // alignas(16)), although C and NumPy align it like f64: at 8 mod 16 it is
    // copied (libtorch's copy kernels fault on it otherwise).
    let z = Producer::f64(&[0.0, 1.0, 2.0, 3.0, 4.0]);
    let c128 = DLDataType { code: DLDataTypeCode::COMPLEX, bits: 128, lanes: 1 };
    // The base is 8-byte aligned: of +8 and +16, one is 8 mod 16.
    let (odd, even) = if (z.base() as usize + 8) % 16 == 8 { (8, 16) } else { (16, 8) };
    let zi = import(z.versioned(&Spec::new(c128, &[1], &[1]).data(Data::At(odd)))).unwrap();
    assert_eq!(zi.copied, Some(CopyReason::Misaligned));
    assert_eq!(zi.tensor.data_ptr() as usize % 16, 0);
    let parts = zi.tensor.f_view_as_real().unwrap();
    let first = odd / 8;
    assert_eq!(values_2d(&parts), [[first as f64, first as f64 + 1.0]]);
    let zj = import(z.versioned(&Spec::new(c128, &[1], &[1]).data(Data::At(even)))).unwrap();
    assert_eq!(zj.copied, None, "16-byte aligned complex128 is zero-copy");
    assert_eq!(zj.tensor.data_ptr().cast::<u8>(), z.base().wrapping_add(even));
    let parts = zj.tensor.f_view_as_real().unwrap();
    assert_eq!(values_2d(&parts), [[(even / 8) as f64, (even / 8) as f64 + 1.0]]);

    // float16 at an odd address is misaligned.
    let h = Producer::with_lead(&[0x00, 0x3C, 0x00, 0xC0], 1); // 1.0, -2.0
    let hi = import(h.versioned(&Spec::new(DType::Float16.to_dlpack(), &[2], &[1]).data(Data::At(1)))).unwrap();
    assert_eq!(hi.copied, Some(CopyReason::Misaligned));
    assert_eq!(hi.tensor.kind(), Kind::Half);
    assert_eq!(values_1d(&hi.tensor), [1.0, -2.0]);
    assert_eq!(h.drops(), 1);
}

// ---------------------------------------------------------------------------
// Flags and ABIs
// ---------------------------------------------------------------------------

#[test]
fn read_only_flag_is_reported() {
    let producer = Producer::f64(&iota(3));
    let imported = import(producer.versioned(&Spec::f64(&[3], &[1]).flags(DlpackFlags::READ_ONLY))).unwrap();
    assert!(imported.read_only);
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(values_1d(&imported.tensor), [0.0, 1.0, 2.0]);
    drop(imported);
    assert_eq!(producer.drops(), 1);
}

#[test]
fn legacy_import_is_zero_copy_and_writable() {
    let producer = Producer::f64(&iota(6));
    let imported = import(producer.legacy(&Spec::f64(&[3, 2], &[2, 1]))).unwrap();
    assert!(!imported.read_only);
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(values_2d(&imported.tensor), [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]);
    let mut t = imported.tensor.shallow_clone();
    let _ = t.f_fill_(9.0).unwrap();
    assert_eq!(producer.read_f64(5), 9.0);
    drop((imported, t));
    assert_eq!(producer.drops(), 1);
}

#[test]
fn legacy_null_strides_mean_row_major() {
    let producer = Producer::f64(&iota(6));
    let imported = import(producer.legacy(&Spec::f64(&[2, 3], &[0, 0]).null_strides())).unwrap();
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.stride(), [3, 1]);
    assert_eq!(values_2d(&imported.tensor), [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]);
    drop(imported);
    assert_eq!(producer.drops(), 1);
}

#[test]
fn versioned_null_strides_are_rejected() {
    // DLPack >= 1.2 requires explicit strides for ndim != 0.
    let producer = Producer::f64(&iota(6));
    let err = expect_err(import(producer.versioned(&Spec::f64(&[2, 3], &[0, 0]).null_strides())));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
    assert_eq!(producer.drops(), 1);
}

// ---------------------------------------------------------------------------
// Errors (each must release the producer exactly once)
// ---------------------------------------------------------------------------

fn import_error(spec: Spec) -> Error {
    let producer = Producer::f64(&iota(4));
    let err = expect_err(import(producer.versioned(&spec)));
    assert_eq!(producer.drops(), 1, "producer not released exactly once on {err:?}");
    // The legacy ABI takes the same path.
    let legacy_producer = Producer::f64(&iota(4));
    let legacy_err = expect_err(import(legacy_producer.legacy(&spec)));
    assert_eq!(legacy_producer.drops(), 1, "legacy producer not released on {legacy_err:?}");
    assert_eq!(err.to_string(), legacy_err.to_string());
    err
}

#[test]
fn unsupported_dtypes_are_rejected_with_their_fields() {
    let opaque = DLDataType { code: DLDataTypeCode::OPAQUEHANDLE, bits: 64, lanes: 1 };
    let err = import_error(Spec::new(opaque, &[4], &[1]));
    assert!(matches!(err, Error::UnsupportedDtype { code: 3, bits: 64, lanes: 1 }), "{err:?}");
    assert!(err.to_string().contains("accepted"), "{err}");

    let float128 = DLDataType { code: DLDataTypeCode::FLOAT, bits: 128, lanes: 1 };
    let err = import_error(Spec::new(float128, &[1], &[1]));
    assert!(matches!(err, Error::UnsupportedDtype { code: 2, bits: 128, lanes: 1 }), "{err:?}");

    let vector = DLDataType { code: DLDataTypeCode::FLOAT, bits: 32, lanes: 4 };
    let err = import_error(Spec::new(vector, &[2], &[1]));
    assert!(matches!(err, Error::UnsupportedDtype { code: 2, bits: 32, lanes: 4 }), "{err:?}");

    let fp8 = DLDataType { code: DLDataTypeCode::FLOAT8_E5M2, bits: 8, lanes: 1 };
    let err = import_error(Spec::new(fp8, &[4], &[1]));
    assert!(matches!(err, Error::UnsupportedDtype { code: 12, bits: 8, lanes: 1 }), "{err:?}");
}

#[test]
fn unsupported_devices_are_rejected() {
    let err = import_error(Spec::f64(&[4], &[1]).device(DLDevice::metal(0)));
    assert!(matches!(err, Error::UnsupportedDevice { device_type: 8, device_id: 0 }), "{err:?}");

    let opencl = DLDevice { device_type: DLDeviceType::OPENCL, device_id: 1 };
    let err = import_error(Spec::f64(&[4], &[1]).device(opencl));
    assert!(matches!(err, Error::UnsupportedDevice { device_type: 4, device_id: 1 }), "{err:?}");

    let rocm = DLDevice { device_type: DLDeviceType::ROCM, device_id: 0 };
    let err = import_error(Spec::f64(&[4], &[1]).device(rocm));
    assert!(matches!(err, Error::UnsupportedDevice { device_type: 10, .. }), "{err:?}");

    let negative_cuda = DLDevice { device_type: DLDeviceType::CUDA, device_id: -1 };
    let err = import_error(Spec::f64(&[4], &[1]).device(negative_cuda));
    assert!(matches!(err, Error::UnsupportedDevice { device_type: 2, device_id: -1 }), "{err:?}");
}

#[test]
fn null_data_with_elements_is_invalid() {
    let err = import_error(Spec::f64(&[2, 2], &[2, 1]).data(Data::Null));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
    assert!(err.to_string().contains("null"), "{err}");
    // Also for a 0-d tensor, which has one element.
    let err = import_error(Spec::f64(&[], &[]).data(Data::Null));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
}

#[test]
fn malformed_metadata_is_invalid() {
    let err = import_error(Spec::f64(&[-1, 2], &[2, 1]));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
    let zero_bits = DLDataType { code: DLDataTypeCode::FLOAT, bits: 0, lanes: 1 };
    let err = import_error(Spec::new(zero_bits, &[2], &[1]));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
}

// ---------------------------------------------------------------------------
// Shapes at the edges
// ---------------------------------------------------------------------------

#[test]
fn zero_size_with_odd_strides_and_null_data_is_accepted() {
    let producer = Producer::f64(&[]);
    let imported = import(producer.versioned(&Spec::f64(&[0, 3], &[7, -2]).data(Data::Null))).unwrap();
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.size(), [0, 3]);
    assert_eq!(imported.tensor.numel(), 0);
    // libtorch can compute on it.
    let s = imported.tensor.f_sum(Kind::Double).unwrap();
    assert_eq!(value(&s, &[]), 0.0);
    assert_eq!(producer.drops(), 0, "the producer lives with its (empty) view");
    drop((imported, s));
    assert_eq!(producer.drops(), 1);

    // A misaligned pointer does not matter when nothing is read.
    let other = Producer::f64(&[1.0]);
    let imported = import(other.versioned(&Spec::f64(&[4, 0, 2], &[-1, 5, 3]).data(Data::At(3)))).unwrap();
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.size(), [4, 0, 2]);
    drop(imported);
    assert_eq!(other.drops(), 1);
}

#[test]
fn zero_dimensional_tensor() {
    let producer = Producer::f64(&[2.5]);
    let imported = import(producer.versioned(&Spec::f64(&[], &[]))).unwrap();
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.dim(), 0);
    assert_eq!(imported.tensor.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(value(&imported.tensor, &[]), 2.5);
    drop(imported);
    // Misaligned 0-d gets copied and keeps its value.
    let odd = Producer::with_lead(&f64_bytes(&[-4.75]), 4);
    let imported = import(odd.versioned(&Spec::f64(&[], &[]).data(Data::At(4)))).unwrap();
    assert_eq!(imported.copied, Some(CopyReason::Misaligned));
    assert_eq!(imported.tensor.dim(), 0);
    assert_eq!(value(&imported.tensor, &[]), -4.75);
    assert_eq!((producer.drops(), odd.drops()), (1, 1));
}

#[test]
fn thirty_two_unit_dimensions() {
    let producer = Producer::f64(&[6.25]);
    // Strides of extent-1 axes are arbitrary, negative ones included.
    let strides: Vec<i64> = (0..32).map(|i| if i % 2 == 0 { i } else { -i }).collect();
    let imported = import(producer.versioned(&Spec::f64(&[1; 32], &strides))).unwrap();
    assert_eq!(imported.copied, None);
    assert_eq!(imported.tensor.dim(), 32);
    assert_eq!(imported.tensor.size(), vec![1i64; 32]);
    assert_eq!(imported.tensor.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(value(&imported.tensor, &[0; 32]), 6.25);
    drop(imported);
    assert_eq!(producer.drops(), 1);
}

// ---------------------------------------------------------------------------
// Every dtype
// ---------------------------------------------------------------------------

/// Three elements of `dtype` as little-endian bytes, and what
/// `f64`-valued reads of them must give (real and imaginary parts for complex).
fn sample(dtype: DType) -> (Vec<u8>, Vec<f64>) {
    fn le<T, const N: usize>(values: &[T], to: impl Fn(&T) -> [u8; N]) -> Vec<u8> {
        values.iter().flat_map(to).collect()
    }
    match dtype {
        DType::Bool => (vec![1, 0, 1], vec![1.0, 0.0, 1.0]),
        DType::Int8 => (le(&[1i8, -2, 127], |v| v.to_le_bytes()), vec![1.0, -2.0, 127.0]),
        DType::Int16 => (le(&[1i16, -2, 32767], |v| v.to_le_bytes()), vec![1.0, -2.0, 32767.0]),
        DType::Int32 => (le(&[1i32, -2, i32::MAX], |v| v.to_le_bytes()), vec![1.0, -2.0, i32::MAX as f64]),
        DType::Int64 => (le(&[1i64, -2, 1 << 40], |v| v.to_le_bytes()), vec![1.0, -2.0, (1u64 << 40) as f64]),
        DType::UInt8 => (vec![1, 200, 255], vec![1.0, 200.0, 255.0]),
        DType::UInt16 => (le(&[1u16, 40000, u16::MAX], |v| v.to_le_bytes()), vec![1.0, 40000.0, 65535.0]),
        DType::UInt32 => (le(&[1u32, 3_000_000_000, u32::MAX], |v| v.to_le_bytes()), vec![1.0, 3e9, u32::MAX as f64]),
        DType::UInt64 => (le(&[1u64, 1 << 63, 5], |v| v.to_le_bytes()), vec![1.0, 2f64.powi(63), 5.0]),
        // 1.0, -2.0, 0.5 in IEEE half and in bfloat16.
        DType::Float16 => (le(&[0x3C00u16, 0xC000, 0x3800], |v| v.to_le_bytes()), vec![1.0, -2.0, 0.5]),
        DType::BFloat16 => (le(&[0x3F80u16, 0xC000, 0x3F00], |v| v.to_le_bytes()), vec![1.0, -2.0, 0.5]),
        DType::Float32 => (le(&[1.0f32, -2.0, 0.5], |v| v.to_le_bytes()), vec![1.0, -2.0, 0.5]),
        DType::Float64 => (f64_bytes(&[1.0, -2.0, 0.5]), vec![1.0, -2.0, 0.5]),
        DType::Complex64 => {
            let parts = [1.0f32, -1.0, -2.0, 0.5, 0.5, 3.0];
            (le(&parts, |v| v.to_le_bytes()), parts.iter().map(|&v| f64::from(v)).collect())
        }
        DType::Complex128 => {
            let parts = [1.0f64, -1.0, -2.0, 0.5, 0.5, 3.0];
            (f64_bytes(&parts), parts.to_vec())
        }
    }
}

/// The tensor's elements as f64 (complex: interleaved real, imaginary).
fn read_back(t: &Tensor, dtype: DType) -> Vec<f64> {
    if dtype.is_complex() {
        let parts = t.f_view_as_real().unwrap();
        values_2d(&parts).concat()
    } else {
        values_1d(t)
    }
}

#[test]
fn every_dtype_imports_and_reports_itself() {
    for dtype in DType::ALL {
        let (bytes, expected) = sample(dtype);
        let producer = Producer::new(&bytes);
        let imported = import(producer.versioned(&Spec::new(dtype.to_dlpack(), &[3], &[1])))
            .unwrap_or_else(|err| panic!("{dtype}: {err}"));
        assert_eq!(imported.copied, None, "{dtype}");
        let t = imported.tensor;
        assert_eq!(t.data_ptr().cast::<u8>(), producer.base(), "{dtype}: not zero-copy");
        assert_eq!(dtype_of(&t).unwrap(), dtype, "{dtype}: dtype_of");
        assert_eq!(torchbridge::ops::dtype(&t).unwrap(), dtype, "{dtype}: ops::dtype");
        if let Some(kind) = dtype.kind() {
            assert_eq!(t.kind(), kind, "{dtype}: tch kind");
        }
        assert_eq!(read_back(&t, dtype), expected, "{dtype}: values");

        // Export and import again: same memory, same dtype.
        let back = import(ManagedDlpack::Versioned(export_versioned(&t).unwrap())).unwrap().tensor;
        assert_eq!(back.data_ptr(), t.data_ptr(), "{dtype}: re-import is not zero-copy");
        assert_eq!(dtype_of(&back).unwrap(), dtype, "{dtype}: dtype after export");
        let legacy = import(ManagedDlpack::Legacy(export_legacy(&t).unwrap())).unwrap().tensor;
        assert_eq!(dtype_of(&legacy).unwrap(), dtype, "{dtype}: dtype after legacy export");
        assert_eq!(read_back(&legacy, dtype), expected, "{dtype}: values after legacy export");

        drop((t, back));
        assert_eq!(producer.drops(), 0, "{dtype}: released while the legacy view lives");
        drop(legacy);
        assert_eq!(producer.drops(), 1, "{dtype}: not released exactly once");
    }
}

#[test]
fn exported_descriptor_carries_the_dlpack_dtype() {
    for dtype in DType::ALL {
        let (bytes, _) = sample(dtype);
        let producer = Producer::new(&bytes);
        let t = import(producer.versioned(&Spec::new(dtype.to_dlpack(), &[3], &[1]))).unwrap().tensor;
        let managed = export_versioned(&t).unwrap();
        let view = managed.validate().unwrap();
        assert_eq!(view.dtype(), dtype.to_dlpack(), "{dtype}");
        assert_eq!(view.shape(), [3]);
        assert_eq!(view.device(), DLDevice::CPU);
        assert_eq!(view.data_ptr().cast::<u8>().cast_mut(), producer.base());
    }
}

// ---------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------

#[test]
fn export_then_import_is_zero_copy() {
    let t = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]).f_reshape([2, 3]).unwrap();
    let managed = export_versioned(&t).unwrap();
    {
        let view = managed.validate().unwrap();
        assert_eq!(view.shape(), [2, 3]);
        assert_eq!(view.dtype(), DLDataType::F64);
        assert_eq!(view.strides_or_compact().unwrap().as_ref(), [3, 1]);
        assert_eq!(view.data_ptr(), t.data_ptr().cast_const());
        assert!(!managed.flags().contains(DlpackFlags::READ_ONLY));
    }
    let back = import(ManagedDlpack::Versioned(managed)).unwrap();
    assert_eq!(back.copied, None);
    assert!(!back.read_only);
    assert_eq!(back.tensor.data_ptr(), t.data_ptr());
    assert_eq!(values_2d(&back.tensor), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);

    let legacy = export_legacy(&t).unwrap();
    assert_eq!(legacy.validate().unwrap().data_ptr(), t.data_ptr().cast_const());
    let back_legacy = import(ManagedDlpack::Legacy(legacy)).unwrap();
    assert_eq!(back_legacy.tensor.data_ptr(), t.data_ptr());

    // Writes through a re-imported view reach the original tensor.
    let mut w = back_legacy.tensor.shallow_clone();
    let _ = w.f_fill_(0.5).unwrap();
    assert_eq!(value(&t, &[1, 2]), 0.5);
}

#[test]
fn export_keeps_layout_of_strided_views() {
    let base = Tensor::f_arange(12, (Kind::Double, tch::Device::Cpu)).unwrap().f_reshape([3, 4]).unwrap();
    let transposed = base.f_transpose(0, 1).unwrap();
    let narrowed = base.f_narrow(0, 1, 2).unwrap().f_slice(1, 0, 4, 2).unwrap();
    for (name, view) in [("transposed", transposed), ("narrowed", narrowed)] {
        let managed = export_versioned(&view).unwrap();
        let back = import(ManagedDlpack::Versioned(managed)).unwrap();
        assert_eq!(back.copied, None, "{name}");
        assert_eq!(back.tensor.data_ptr(), view.data_ptr(), "{name}");
        assert_eq!(back.tensor.size(), view.size(), "{name}");
        assert!(back.tensor.f_equal(&view).unwrap(), "{name}: values differ");
    }
}

#[test]
fn exported_tensor_keeps_storage_alive() {
    let n = 4096usize;
    let expected: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let t = Tensor::from_slice(&expected);
    let ptr = t.data_ptr();
    let versioned = export_versioned(&t).unwrap();
    let legacy = export_legacy(&t).unwrap();
    drop(t);
    // Churn the allocator: were the storage freed, these would likely reuse it.
    let churn: Vec<Tensor> =
        (0..16).map(|_| Tensor::f_full([n as i64], -1.0, (Kind::Double, tch::Device::Cpu)).unwrap()).collect();
    {
        let view = versioned.validate().unwrap();
        assert_eq!(view.data_ptr(), ptr.cast_const());
        // SAFETY: a CPU, f64, compact export whose storage the managed tensor keeps alive.
        let data = unsafe { view.cpu_slice::<f64>() }.unwrap();
        assert_eq!(data, expected.as_slice());
    }
    drop(churn);
    let back = import(ManagedDlpack::Versioned(versioned)).unwrap().tensor;
    assert_eq!(back.data_ptr(), ptr);
    assert_eq!(value(&back, &[(n - 1) as i64]), expected[n - 1]);
    drop(back);
    // The legacy export holds its own reference.
    let view = legacy.validate().unwrap();
    // SAFETY: as above, for the legacy export.
    let data = unsafe { view.cpu_slice::<f64>() }.unwrap();
    assert_eq!(data, expected.as_slice());
}

#[test]
fn export_of_an_import_keeps_the_producer_alive() {
    let producer = Producer::f64(&iota(3));
    let t = import(producer.versioned(&Spec::f64(&[3], &[1]))).unwrap().tensor;
    let managed = export_versioned(&t).unwrap();
    drop(t);
    assert_eq!(producer.drops(), 0, "released while an export lives");
    assert_eq!(managed.validate().unwrap().data_ptr().cast::<u8>().cast_mut(), producer.base());
    drop(managed);
    assert_eq!(producer.drops(), 1);
}

#[test]
fn conjugated_complex_exports_resolved_values() {
    let real = Tensor::from_slice(&[1.0f64, 2.0]);
    let imag = Tensor::from_slice(&[3.0f64, -4.0]);
    let z = Tensor::f_complex(&real, &imag).unwrap();
    let zc = z.conj();
    assert!(zc.is_conj(), "precondition: a lazy conjugate view");

    let versioned = export_versioned(&zc).unwrap();
    let view = versioned.validate().unwrap();
    assert_eq!(view.dtype(), DType::Complex128.to_dlpack());
    // SAFETY: a compact CPU complex128 export (2 elements = 32 bytes) that
    // `versioned` keeps alive while `bytes` is used.
    let bytes = unsafe { view.cpu_bytes() }.unwrap();
    let from_versioned: Vec<f64> = bytes.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(from_versioned, [1.0, -3.0, 2.0, 4.0], "exported unresolved conjugate");

    let legacy = export_legacy(&zc).unwrap();
    let back = import(ManagedDlpack::Legacy(legacy)).unwrap().tensor;
    assert!(!back.is_conj());
    assert_eq!(read_back(&back, DType::Complex128), [1.0, -3.0, 2.0, 4.0]);

    // The original is untouched.
    assert_eq!(read_back(&z, DType::Complex128), [1.0, 3.0, 2.0, -4.0]);
}

#[test]
fn export_detaches_autograd_tensors() {
    let t = Tensor::from_slice(&[1.0f64, 2.0]).set_requires_grad(true);
    let back = import(ManagedDlpack::Versioned(export_versioned(&t).unwrap())).unwrap().tensor;
    assert!(!back.requires_grad());
    assert_eq!(back.data_ptr(), t.data_ptr());
    assert_eq!(values_1d(&back), [1.0, 2.0]);
}

#[test]
fn export_and_import_round_trip_on_cuda_when_available() {
    if !tch::Cuda::is_available() {
        eprintln!("skipped: no CUDA device visible to libtorch");
        return;
    }
    let t = Tensor::f_arange(6, (Kind::Double, tch::Device::Cuda(0))).unwrap();
    let managed = export_versioned(&t).unwrap();
    assert_eq!(managed.validate().unwrap().device(), DLDevice::cuda(0));
    let back = import(ManagedDlpack::Versioned(managed)).unwrap();
    assert_eq!(back.copied, None);
    assert_eq!(back.tensor.device(), tch::Device::Cuda(0));
    assert_eq!(back.tensor.data_ptr(), t.data_ptr());
    assert_eq!(values_1d(&back.tensor.f_to_device(tch::Device::Cpu).unwrap()), iota(6));
}

// ---------------------------------------------------------------------------
// More edges: device aliases, libtorch refusals, arithmetic overflow
// ---------------------------------------------------------------------------

#[test]
fn cuda_host_memory_is_imported_as_cpu() {
    let producer = Producer::f64(&iota(3));
    let pinned = DLDevice { device_type: DLDeviceType::CUDAHOST, device_id: 0 };
    let imported = import(producer.versioned(&Spec::f64(&[3], &[1]).device(pinned))).unwrap();
    assert_eq!(imported.tensor.device(), tch::Device::Cpu);
    assert_eq!(imported.tensor.data_ptr().cast::<u8>(), producer.base());
    assert_eq!(values_1d(&imported.tensor), [0.0, 1.0, 2.0]);
    drop(imported);
    assert_eq!(producer.drops(), 1);
}

/// libtorch stores a device ordinal in `c10::DeviceIndex` (an `i8`). Larger
/// DLPack ordinals wrap silently: cuda:256 becomes a tensor on cuda:0 and
/// cuda:255 one whose index is -1, which tch reports as `Device::Cpu` (so
/// `with_ndarray_view` would read device memory from the host). They must be
/// rejected before libtorch sees them.
#[test]
fn cuda_ordinals_beyond_libtorch_range_are_rejected() {
    for id in [128, 255, 256, 1000, i32::MAX] {
        let producer = Producer::f64(&iota(3));
        let spec = Spec::f64(&[3], &[1]).device(DLDevice::cuda(id));
        match import(producer.versioned(&spec)) {
            Ok(imported) => {
                let index = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| imported.tensor.device()));
                drop(imported);
                panic!("cuda:{id} was accepted; libtorch placed it on {index:?}");
            }
            Err(err) => {
                assert!(
                    matches!(err, Error::UnsupportedDevice { device_type: 2, device_id } if device_id == id),
                    "{err:?}"
                );
                assert_eq!(producer.drops(), 1);
            }
        }
    }
}

#[test]
fn in_range_cuda_ordinals_keep_their_index() {
    // Only the descriptor is handed over: the tensor is never read, so this
    // runs without a GPU too (libtorch does not touch the memory on import).
    for id in [0, 1, 127] {
        let producer = Producer::f64(&iota(3));
        let spec = Spec::f64(&[3], &[1]).device(DLDevice::cuda(id));
        let imported = import(producer.versioned(&spec)).unwrap();
        assert_eq!(imported.tensor.device(), tch::Device::Cuda(id as usize));
        assert_eq!(imported.copied, None);
        drop(imported);
        assert_eq!(producer.drops(), 1);
    }
}

#[test]
fn offsets_that_overflow_are_invalid() {
    let err = import_error(Spec::f64(&[2], &[1]).byte_offset(u64::MAX));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
    // (extent - 1) * stride * itemsize overflows i64 while moving the origin.
    let err = import_error(Spec::f64(&[2], &[i64::MIN]));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
    let err = import_error(Spec::f64(&[3, 2], &[-(1 << 61), 1]));
    assert!(matches!(err, Error::InvalidTensor(_)), "{err:?}");
}

#[test]
fn torch_dtypes_without_a_dlpack_equivalent_are_reported() {
    let half_complex = Tensor::f_zeros([2], (Kind::ComplexHalf, tch::Device::Cpu)).unwrap();
    let err = dtype_of(&half_complex).unwrap_err();
    assert!(matches!(err, Error::UnsupportedDtype { code: 5, bits: 32, lanes: 1 }), "{err:?}");

    let fp8 = Tensor::f_zeros([2], (Kind::Float8e5m2, tch::Device::Cpu)).unwrap();
    let err = dtype_of(&fp8).unwrap_err();
    assert!(matches!(err, Error::UnsupportedDtype { code: 12, bits: 8, lanes: 1 }), "{err:?}");
    // libtorch exports it; importing that export is refused and releases it.
    let managed = export_versioned(&fp8).unwrap();
    let err = expect_err(import(ManagedDlpack::Versioned(managed)));
    assert!(matches!(err, Error::UnsupportedDtype { code: 12, .. }), "{err:?}");
}
