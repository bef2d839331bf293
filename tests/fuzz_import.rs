//! Fuzzing of the DLPack import over random descriptors (proptest), a replay
//! of the corpus kept in `fuzz/corpus.txt`, a threaded import test, and
//! compile-time checks that the types torchbridge hands between threads are
//! `Send`.
//!
//! Every descriptor is built with dlpark's allocation API around a producer
//! context that counts its drops, over a real buffer whenever the descriptor
//! is valid and its span is small enough to back. For each case the harness
//! predicts the outcome with its own model of the DLPack rules (computed in
//! `i128`, so the model cannot overflow where the code under test must not),
//! then asserts:
//!
//! - no crash (a crash kills the test binary, which is a failure);
//! - the outcome matches the model: the same error class, or success with the
//!   predicted zero-copy/copy decision, shape and dtype;
//! - the producer's deleter runs exactly once, on error paths too, never
//!   while a zero-copy view lives, at once after a copy;
//! - for valid descriptors over a real buffer, every byte read through the
//!   tensor equals the byte the descriptor addresses.
//!
//! Runs:
//! - `cargo test --release --test fuzz_import` runs 20,000 random cases plus
//!   the corpus (a few seconds). `TORCHBRIDGE_FUZZ_CASES=n` changes the count,
//!   `TORCHBRIDGE_FUZZ_SEED=n` the seed (the default seed is fixed).
//! - `cargo test --release --test fuzz_import -- --ignored --nocapture million`
//!   runs 1,000,000 cases with a fresh seed and prints a summary; the last
//!   result is recorded in `fuzz/RESULTS.md`.
//!
//! A failing case is shrunk by proptest and persisted in
//! `fuzz/import.proptest-regressions`, which is replayed first on every run.
//! A case that crashes the process cannot be shrunk: run with
//! `TORCHBRIDGE_FUZZ_LOG=/tmp/cases.txt` to write each case (in the corpus
//! format) before it runs, and add the last line to `fuzz/corpus.txt`.

use std::cell::UnsafeCell;
use std::fmt::Write as _;
use std::io::Write as _;
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use dlpark::ffi::{
    DLDataType, DLDataTypeCode, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned, DLPackVersion,
};
use dlpark::metadata::Dynamic;
use dlpark::{DlpackFlags, Managed, ManagedTensorBase};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use tch::{Kind, Tensor};
use torchbridge::dlpack::{dtype_of, import, CopyReason, Imported, ManagedDlpack};
use torchbridge::{DType, Device, Error};

// ---------------------------------------------------------------------------
// Compile-time thread-safety claims
// ---------------------------------------------------------------------------

const fn assert_send<T: Send>() {}
const fn assert_send_sync<T: Send + Sync>() {}

/// What the crate claims: imported tensors and producers may move to another
/// thread (and be dropped there); descriptors, dtypes, devices and errors may
/// also be shared. A change that breaks a claim fails to compile here.
const _: () = {
    assert_send::<Imported>();
    assert_send::<Tensor>();
    assert_send_sync::<ManagedDlpack>();
    assert_send_sync::<Managed<DLManagedTensorVersioned>>();
    assert_send_sync::<Managed<DLManagedTensor>>();
    assert_send_sync::<CopyReason>();
    assert_send_sync::<DType>();
    assert_send_sync::<Device>();
    assert_send_sync::<Error>();
};

// ---------------------------------------------------------------------------
// Producer: a buffer and a context that counts its drops
// ---------------------------------------------------------------------------

/// Memory shared by the producer context and the harness (which still reads it
/// after the producer is released). `u64` words keep the base 8-byte aligned.
struct Buffer(UnsafeCell<Vec<u64>>);

// SAFETY: the memory is only accessed through raw pointers; each case reads it
// on one thread after libtorch's reads are complete, and nothing writes it
// after construction except the threaded test, which gives each thread its
// own buffer.
unsafe impl Sync for Buffer {}

impl Buffer {
    fn new(bytes: &[u8]) -> Arc<Buffer> {
        let words = vec![0u64; bytes.len().div_ceil(8) + 1];
        let buffer = Arc::new(Buffer(UnsafeCell::new(words)));
        // SAFETY: the allocation holds at least `bytes.len()` bytes.
        unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), buffer.base(), bytes.len()) };
        buffer
    }

    fn base(&self) -> *mut u8 {
        // SAFETY: only the heap pointer is taken; the Vec is never resized.
        unsafe { (*self.0.get()).as_mut_ptr().cast() }
    }
}

/// The producer's context, dropped by the DLPack deleter.
struct Owner {
    _buffer: Option<Arc<Buffer>>,
    drops: Arc<AtomicUsize>,
}

impl Drop for Owner {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

// ---------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Abi {
    Legacy,
    Versioned { major: u32, minor: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum DataChoice {
    Null,
    /// Backed by a real buffer; `pad` bytes before the lowest addressed byte
    /// (an odd pad makes the data misaligned).
    Buffer {
        pad: usize,
    },
}

/// One random descriptor.
#[derive(Clone, Debug, PartialEq)]
struct Case {
    abi: Abi,
    shape: Vec<i64>,
    /// `None`: a null strides pointer.
    strides: Option<Vec<i64>>,
    /// (code, bits, lanes)
    dtype: (u8, u8, u16),
    /// (device type, id)
    device: (u32, i32),
    data: DataChoice,
    byte_offset: u64,
    read_only: bool,
    /// Seeds the buffer contents.
    seed: u64,
}

impl Case {
    /// The case in the corpus format (one line, `key=value` fields).
    fn to_line(&self) -> String {
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let mut line = String::new();
        let abi = match self.abi {
            Abi::Legacy => "legacy".to_string(),
            Abi::Versioned { major, minor } => format!("v{major}.{minor}"),
        };
        let strides = self.strides.as_ref().map_or("null".to_string(), |s| list(s));
        let data = match self.data {
            DataChoice::Null => "null".to_string(),
            DataChoice::Buffer { pad } => format!("pad{pad}"),
        };
        let _ = write!(
            line,
            "abi={abi} shape={} strides={strides} dtype={}:{}:{} device={}:{} data={data} offset={} ro={} seed={}",
            list(&self.shape),
            self.dtype.0,
            self.dtype.1,
            self.dtype.2,
            self.device.0,
            self.device.1,
            self.byte_offset,
            u8::from(self.read_only),
            self.seed,
        );
        line
    }

    /// Parses a corpus line (see `fuzz/corpus.txt`).
    fn from_line(line: &str) -> Case {
        let mut case = Case {
            abi: Abi::Versioned { major: 1, minor: 3 },
            shape: vec![],
            strides: Some(vec![]),
            dtype: (2, 64, 1),
            device: (1, 0),
            data: DataChoice::Buffer { pad: 0 },
            byte_offset: 0,
            read_only: false,
            seed: 1,
        };
        let list = |v: &str| -> Vec<i64> {
            if v.is_empty() {
                vec![]
            } else {
                v.split(',').map(|x| x.parse().expect("integer")).collect()
            }
        };
        for field in line.split_whitespace() {
            let (key, value) = field.split_once('=').expect("key=value");
            match key {
                "abi" if value == "legacy" => case.abi = Abi::Legacy,
                "abi" => {
                    let (major, minor) = value.trim_start_matches('v').split_once('.').expect("vM.m");
                    case.abi =
                        Abi::Versioned { major: major.parse().expect("major"), minor: minor.parse().expect("minor") };
                }
                "shape" => case.shape = list(value),
                "strides" if value == "null" => case.strides = None,
                "strides" => case.strides = Some(list(value)),
                "dtype" => {
                    let parts: Vec<&str> = value.split(':').collect();
                    case.dtype = (
                        parts[0].parse().expect("code"),
                        parts[1].parse().expect("bits"),
                        parts[2].parse().expect("lanes"),
                    );
                }
                "device" => {
                    let (kind, id) = value.split_once(':').expect("type:id");
                    case.device = (kind.parse().expect("type"), id.parse().expect("id"));
                }
                "data" if value == "null" => case.data = DataChoice::Null,
                "data" => case.data = DataChoice::Buffer { pad: value.trim_start_matches("pad").parse().expect("pad") },
                "offset" => case.byte_offset = value.parse().expect("offset"),
                "ro" => case.read_only = value == "1",
                "seed" => case.seed = value.parse().expect("seed"),
                other => panic!("unknown corpus field {other}"),
            }
        }
        case
    }
}

const EXTREME_DIMS: [i64; 7] = [-1, -7, i64::MIN, 1 << 31, 1 << 40, 1 << 62, i64::MAX];
const EXTREME_STRIDES: [i64; 10] = [
    i64::MIN,
    i64::MAX,
    -(1 << 62),
    1 << 62,
    -(1 << 40),
    1 << 40,
    1 << 31,
    -(1 << 31),
    (1 << 60) + 3,
    -((1 << 59) - 1),
];
/// (code, bits) of every dtype torchbridge accepts.
const VALID_DTYPES: [(u8, u8); 15] = [
    (6, 8),
    (0, 8),
    (0, 16),
    (0, 32),
    (0, 64),
    (1, 8),
    (1, 16),
    (1, 32),
    (1, 64),
    (2, 16),
    (4, 16),
    (2, 32),
    (2, 64),
    (5, 64),
    (5, 128),
];

fn dim() -> impl Strategy<Value = i64> {
    prop_oneof![
        14 => 1i64..5,
        1 => Just(0i64),
        1 => prop::sample::select(EXTREME_DIMS.to_vec()),
    ]
}

fn stride() -> impl Strategy<Value = i64> {
    prop_oneof![
        14 => -6i64..9,
        1 => prop::sample::select(EXTREME_STRIDES.to_vec()),
    ]
}

fn dtype() -> impl Strategy<Value = (u8, u8, u16)> {
    prop_oneof![
        16 => prop::sample::select(VALID_DTYPES.to_vec()).prop_map(|(c, b)| (c, b, 1)),
        1 => (prop::sample::select(VALID_DTYPES.to_vec()), prop::sample::select(vec![0u16, 2, 4, 65535]))
            .prop_map(|((c, b), l)| (c, b, l)),
        1 => (any::<u8>(), prop::sample::select(vec![0u8, 1, 4, 8, 16, 32, 64, 128, 255]))
            .prop_map(|(c, b)| (c, b, 1)),
        1 => (any::<u8>(), any::<u8>(), any::<u16>()),
    ]
}

fn device() -> impl Strategy<Value = (u32, i32)> {
    prop_oneof![
        20 => Just((1u32, 0i32)),
        2 => Just((3u32, 0i32)),
        1 => (prop::sample::select(vec![2u32, 13]), prop::sample::select(vec![-1i32, 0, 1, 127, 128, i32::MAX])),
        1 => (0u32..40, any::<i32>()),
    ]
}

fn abi() -> impl Strategy<Value = Abi> {
    prop_oneof![
        4 => Just(Abi::Legacy),
        10 => (0u32..6).prop_map(|minor| Abi::Versioned { major: 1, minor }),
        1 => (prop::sample::select(vec![0u32, 2, 3, u32::MAX]), 0u32..4)
            .prop_map(|(major, minor)| Abi::Versioned { major, minor }),
    ]
}

fn byte_offset() -> impl Strategy<Value = u64> {
    prop_oneof![
        10 => Just(0u64),
        3 => (1u64..6).prop_map(|k| k * 16),
        2 => 1u64..16,
        1 => prop::sample::select(vec![1u64 << 40, (1u64 << 63) - 8, 1 << 63, u64::MAX - 7, u64::MAX]),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        abi(),
        prop::collection::vec((dim(), stride()), 0..=8),
        prop::bool::weighted(0.08),
        dtype(),
        device(),
        prop_oneof![
            1 => Just(DataChoice::Null),
            8 => Just(DataChoice::Buffer { pad: 0 }),
            4 => (1usize..16).prop_map(|pad| DataChoice::Buffer { pad }),
        ],
        byte_offset(),
        prop::bool::weighted(0.2),
        any::<u64>(),
    )
        .prop_map(|(abi, axes, null_strides, dtype, device, data, byte_offset, read_only, seed)| Case {
            abi,
            shape: axes.iter().map(|a| a.0).collect(),
            strides: if null_strides { None } else { Some(axes.iter().map(|a| a.1).collect()) },
            dtype,
            device,
            data,
            byte_offset,
            read_only,
            seed,
        })
}

// ---------------------------------------------------------------------------
// The model: what import must do with a case
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum ErrorClass {
    /// `Managed::from_raw` refused the version (before import).
    Version,
    InvalidTensor,
    UnsupportedDtype,
    UnsupportedDevice,
}

#[derive(Clone, Debug, PartialEq)]
enum Expected {
    Err(ErrorClass),
    Ok {
        dtype: DType,
        /// `Some` for a copy, with its reason.
        copied: Option<CopyReason>,
        numel: i128,
        itemsize: i128,
        /// The element strides the descriptor uses (compact for null strides).
        strides: Vec<i128>,
        /// Byte offset of the lowest and one past the highest addressed byte,
        /// relative to the first element (`data + byte_offset`).
        lo: i128,
        hi: i128,
    },
}

const I64_MAX: i128 = i64::MAX as i128;
const ISIZE_MAX: i128 = isize::MAX as i128;

fn accepted_dtype(code: u8, bits: u8, lanes: u16) -> Option<DType> {
    let index = VALID_DTYPES.iter().position(|&(c, b)| c == code && b == bits)?;
    (lanes == 1).then(|| DType::ALL[index])
}

/// Predicts the outcome of importing `case` (where the first element sits at
/// address `first`), following the DLPack rules torchbridge documents.
fn model(case: &Case, first: i128) -> Expected {
    use ErrorClass::*;
    if let Abi::Versioned { major, .. } = case.abi {
        if major != 1 {
            return Expected::Err(Version);
        }
    }
    let (code, bits, lanes) = case.dtype;
    // dlpark's structural validation.
    if bits == 0 || lanes == 0 {
        return Expected::Err(InvalidTensor);
    }
    if case.shape.iter().any(|&n| n < 0) {
        return Expected::Err(InvalidTensor);
    }
    // The element count, multiplied in axis order with a check at each step
    // (an overflow before a zero extent is still an overflow).
    let mut numel: i128 = 1;
    for &n in &case.shape {
        numel *= n as i128;
        if numel > u64::MAX as i128 {
            return Expected::Err(InvalidTensor);
        }
    }
    if numel * bits as i128 * lanes as i128 > u64::MAX as i128 {
        return Expected::Err(InvalidTensor);
    }
    let strict_strides = matches!(case.abi, Abi::Versioned { minor, .. } if minor >= 2);
    if case.strides.is_none() && strict_strides && !case.shape.is_empty() {
        return Expected::Err(InvalidTensor);
    }
    let Some(dtype) = accepted_dtype(code, bits, lanes) else {
        return Expected::Err(UnsupportedDtype);
    };
    let (kind, id) = case.device;
    let device_ok = match kind {
        1 | 3 => true,
        2 | 13 => (0..=127).contains(&id),
        _ => false,
    };
    if !device_ok {
        return Expected::Err(UnsupportedDevice);
    }
    if case.strides.is_none() && !case.shape.is_empty() {
        // Compact strides are computed from the last axis to the first; the
        // running product must fit i64.
        let mut product = 1i128;
        for &n in case.shape.iter().rev() {
            product *= n as i128;
            if product > I64_MAX {
                return Expected::Err(InvalidTensor);
            }
        }
    }
    let strides: Vec<i128> = match &case.strides {
        Some(s) if !case.shape.is_empty() => s.iter().map(|&x| x as i128).collect(),
        _ => {
            // Compact row-major strides.
            let mut out = vec![1i128; case.shape.len()];
            for axis in (0..case.shape.len().saturating_sub(1)).rev() {
                out[axis] = out[axis + 1] * case.shape[axis + 1] as i128;
            }
            out
        }
    };
    let itemsize = bits as i128 / 8;
    let ok = |copied, lo, hi| Expected::Ok { dtype, copied, numel, itemsize, strides: strides.clone(), lo, hi };
    if numel == 0 {
        return ok(None, 0, 0);
    }
    if matches!(case.data, DataChoice::Null) {
        return Expected::Err(InvalidTensor);
    }
    if case.byte_offset as i128 > ISIZE_MAX {
        return Expected::Err(InvalidTensor);
    }
    // Negative strides: moving the origin must not overflow, nor negating.
    let mut lo = 0i128;
    let mut hi = itemsize;
    let mut reach = 0i128; // sum of (n - 1) * |stride|
    let mut flipped = false;
    for (&n, &s) in case.shape.iter().zip(&strides) {
        let span = (n as i128 - 1) * s;
        if span.abs() > I64_MAX {
            // (n - 1) * stride alone leaves i64: the origin move (negative) or
            // the span (positive) overflows.
            return Expected::Err(InvalidTensor);
        }
        if s < 0 {
            if (span * itemsize).abs() > I64_MAX || s == i64::MIN as i128 {
                return Expected::Err(InvalidTensor);
            }
            lo += span * itemsize;
            flipped |= n > 1;
        } else {
            hi += span * itemsize;
        }
        reach += span.abs();
    }
    // The span libtorch will size: itemsize * (1 + reach) must fit i64, and the
    // end of the memory must not wrap the address space.
    let bytes = (reach + 1) * itemsize;
    let origin = (first + lo).rem_euclid(1i128 << 64);
    if reach > I64_MAX || bytes > I64_MAX || origin + bytes > u64::MAX as i128 {
        return Expected::Err(InvalidTensor);
    }
    // libtorch needs every element aligned to its full size (complex too).
    let alignment = itemsize;
    let misaligned = origin.rem_euclid(alignment) != 0;
    if flipped || misaligned {
        // The copy views the memory as bytes: byte strides must fit i64.
        if strides.iter().any(|s| (s.abs() * itemsize) > I64_MAX) {
            return Expected::Err(InvalidTensor);
        }
        let reason = if flipped { CopyReason::NegativeStrides } else { CopyReason::Misaligned };
        return ok(Some(reason), lo, hi);
    }
    ok(None, lo, hi)
}

// ---------------------------------------------------------------------------
// Running a case
// ---------------------------------------------------------------------------

/// Largest span the harness backs with a real buffer.
const MAX_BACKED: i128 = 1 << 20;

/// Outcome counters, for the summary of long runs.
#[derive(Default)]
struct Stats {
    zero_copy_checked: AtomicUsize,
    copy_checked: AtomicUsize,
    zero_size: AtomicUsize,
    unbacked_view: AtomicUsize,
    skipped_unbacked_copy: AtomicUsize,
    skipped_cuda: AtomicUsize,
    errors: [AtomicUsize; 4],
}

static STATS: Stats = Stats {
    zero_copy_checked: AtomicUsize::new(0),
    copy_checked: AtomicUsize::new(0),
    zero_size: AtomicUsize::new(0),
    unbacked_view: AtomicUsize::new(0),
    skipped_unbacked_copy: AtomicUsize::new(0),
    skipped_cuda: AtomicUsize::new(0),
    errors: [AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0), AtomicUsize::new(0)],
};

fn bump(counter: &AtomicUsize) {
    counter.fetch_add(1, Ordering::Relaxed);
}

fn summary() -> String {
    let get = |c: &AtomicUsize| c.load(Ordering::Relaxed);
    format!(
        "zero-copy checked {}, copies checked {}, zero-size {}, unbacked zero-copy views {}, \
         skipped (unbacked copy) {}, skipped (CUDA) {}, errors: version {}, invalid {}, dtype {}, device {}",
        get(&STATS.zero_copy_checked),
        get(&STATS.copy_checked),
        get(&STATS.zero_size),
        get(&STATS.unbacked_view),
        get(&STATS.skipped_unbacked_copy),
        get(&STATS.skipped_cuda),
        get(&STATS.errors[0]),
        get(&STATS.errors[1]),
        get(&STATS.errors[2]),
        get(&STATS.errors[3]),
    )
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn build<M: ManagedTensorBase>(case: &Case, data: *mut u8, owner: Owner) -> Result<Managed<M>, TestCaseError> {
    let strides = case.strides.clone().unwrap_or_else(|| vec![0; case.shape.len()]);
    let prepared = Dynamic::new(case.shape.clone(), strides)
        .prepare_as::<M>()
        .map_err(|e| TestCaseError::fail(format!("dlpark refused the test metadata: {e}")))?;
    let mut initialized = prepared.initialize(Box::new(owner));
    if case.strides.is_none() {
        initialized.tensor_mut().strides = ptr::null_mut();
    }
    initialized
        .set_data(data.cast())
        .set_dtype(DLDataType { code: DLDataTypeCode(case.dtype.0), bits: case.dtype.1, lanes: case.dtype.2 })
        .set_device(DLDevice { device_type: DLDeviceType(case.device.0), device_id: case.device.1 })
        .set_byte_offset(case.byte_offset);
    if case.read_only {
        initialized
            .set_flags(DlpackFlags::READ_ONLY)
            .map_err(|e| TestCaseError::fail(format!("flags refused: {e}")))?;
    }
    // SAFETY: shape/strides live in dlpark's allocation. The data pointer is
    // null or points into the buffer the owner keeps alive; the harness only
    // lets libtorch read through it when the model says the addressed span
    // lies inside that buffer. READ_ONLY only makes a weaker promise.
    Ok(unsafe { initialized.finish() })
}

/// Builds the managed tensor for `case`; for a versioned case with an
/// unusual version, rewrites it through the raw pointer and re-adopts it with
/// `Managed::from_raw`, which refuses (and releases) incompatible majors.
fn managed(case: &Case, data: *mut u8, owner: Owner) -> Result<Result<ManagedDlpack, String>, TestCaseError> {
    Ok(match case.abi {
        Abi::Legacy => Ok(ManagedDlpack::Legacy(build::<DLManagedTensor>(case, data, owner)?)),
        Abi::Versioned { major, minor } => {
            let built = build::<DLManagedTensorVersioned>(case, data, owner)?;
            let raw = built.into_raw();
            // SAFETY: `raw` is the live allocation just released by `into_raw`;
            // only its version field is written.
            unsafe { (*raw).version = DLPackVersion { major, minor } };
            // SAFETY: `raw` is owned and initialised; its deleter is dlpark's.
            match unsafe { Managed::from_raw(raw) } {
                Ok(m) => Ok(ManagedDlpack::Versioned(m)),
                Err(err) => Err(err.to_string()),
            }
        }
    })
}

fn classify(err: &Error) -> ErrorClass {
    match err {
        Error::InvalidTensor(_) => ErrorClass::InvalidTensor,
        Error::UnsupportedDtype { .. } => ErrorClass::UnsupportedDtype,
        Error::UnsupportedDevice { .. } => ErrorClass::UnsupportedDevice,
        other => panic!("unexpected error class: {other:?}"),
    }
}

fn log_case(case: &Case) {
    static LOG: Mutex<Option<std::fs::File>> = Mutex::new(None);
    let Ok(path) = std::env::var("TORCHBRIDGE_FUZZ_LOG") else { return };
    let mut guard = LOG.lock().unwrap_or_else(|p| p.into_inner());
    if guard.is_none() {
        *guard = std::fs::File::create(&path).ok();
    }
    if let Some(file) = guard.as_mut() {
        let _ = writeln!(file, "{}", case.to_line());
        let _ = file.flush();
    }
}

fn run_case(case: &Case) -> Result<(), TestCaseError> {
    log_case(case);
    let cuda = matches!(case.device.0, 2 | 13);
    let drops = Arc::new(AtomicUsize::new(0));

    let mut buffer = None;
    let mut data: *mut u8 = ptr::null_mut();
    let mut backed = false;
    if let DataChoice::Buffer { pad } = case.data {
        // Sized from the layout alone (not from the model), so that a model
        // error cannot make the harness hand libtorch an unbacked copy.
        let (lo, hi) = span_of(case);
        backed = hi.saturating_sub(lo) <= MAX_BACKED;
        let len = if backed { (pad as i128 + hi - lo) as usize } else { pad + 64 };
        let mut state = case.seed;
        let bool_data = case.dtype.0 == 6;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                let r = splitmix(&mut state);
                if bool_data {
                    (r & 1) as u8
                } else {
                    r as u8
                }
            })
            .collect();
        let buf = Buffer::new(&bytes);
        // The first element sits at base + pad - lo; data = first - byte_offset.
        let first = if backed {
            buf.base().wrapping_add(pad).wrapping_offset(-lo as isize)
        } else {
            buf.base().wrapping_add(pad)
        };
        data = first.wrapping_sub(case.byte_offset as usize);
        buffer = Some(buf);
    }
    let first_addr = (data as usize).wrapping_add(case.byte_offset as usize) as i128;
    let expected = model(case, first_addr);

    // What may safely be imported: any error (all are raised before a read),
    // any zero-size tensor, any zero-copy view (nothing is read until the
    // harness reads), and copies only over a backed span.
    // A backed descriptor is also read back (and a copy allocates), so its
    // element bytes are bounded as well (broadcast strides make them large).
    let readable =
        backed && matches!(&expected, Expected::Ok { numel, itemsize, .. } if numel * itemsize <= MAX_BACKED);
    let importable = match &expected {
        Expected::Err(_) => true,
        Expected::Ok { numel: 0, .. } => true,
        Expected::Ok { copied: None, .. } => true,
        Expected::Ok { copied: Some(_), .. } => readable,
    };
    if !importable {
        bump(&STATS.skipped_unbacked_copy);
        return Ok(());
    }
    if cuda && tch::Cuda::is_available() && !matches!(expected, Expected::Err(_)) {
        // On a CUDA machine a host buffer described as CUDA memory would be
        // read by CUDA kernels: a lie outside the trust boundary.
        bump(&STATS.skipped_cuda);
        return Ok(());
    }

    let owner = Owner { _buffer: buffer.clone(), drops: Arc::clone(&drops) };
    let source = match managed(case, data, owner)? {
        Ok(source) => source,
        Err(message) => {
            prop_assert_eq!(&expected, &Expected::Err(ErrorClass::Version), "from_raw refused: {}", message);
            prop_assert_eq!(drops.load(Ordering::SeqCst), 1, "refused version not released once");
            bump(&STATS.errors[0]);
            return Ok(());
        }
    };
    let result = import(source);
    let imported = match (result, &expected) {
        (Err(err), Expected::Err(class)) => {
            prop_assert_eq!(classify(&err), *class, "wrong error: {}", err);
            prop_assert_eq!(drops.load(Ordering::SeqCst), 1, "producer not released once on error {}", err);
            bump(&STATS.errors[*class as usize]);
            return Ok(());
        }
        (Err(Error::Torch(message)), Expected::Ok { .. }) if cuda => {
            // No CUDA here: libtorch may refuse a CUDA view; it must still release.
            prop_assert_eq!(drops.load(Ordering::SeqCst), 1, "not released after {}", message);
            bump(&STATS.skipped_cuda);
            return Ok(());
        }
        (Err(err), Expected::Ok { .. }) => {
            return Err(TestCaseError::fail(format!("import failed unexpectedly: {err:?}")));
        }
        (Ok(imported), Expected::Err(class)) => {
            return Err(TestCaseError::fail(format!("import succeeded, expected {class:?}: {:?}", imported.tensor)));
        }
        (Ok(imported), Expected::Ok { .. }) => imported,
    };
    let Expected::Ok { dtype, copied, numel, itemsize, strides, lo: _, hi: _ } = expected else { unreachable!() };

    // Metadata.
    let tensor = imported.tensor;
    prop_assert_eq!(tensor.size(), case.shape.clone());
    prop_assert_eq!(dtype_of(&tensor).map_err(|e| TestCaseError::fail(e.to_string()))?, dtype);
    prop_assert_eq!(imported.copied, if numel == 0 { None } else { copied });
    let flags_read_only = case.read_only && matches!(case.abi, Abi::Versioned { .. });
    prop_assert_eq!(imported.read_only, flags_read_only && imported.copied.is_none());
    if cuda {
        // Never read a host buffer described as CUDA memory.
        drop(tensor);
        prop_assert_eq!(drops.load(Ordering::SeqCst), 1);
        bump(&STATS.skipped_cuda);
        return Ok(());
    }
    if numel == 0 {
        prop_assert_eq!(drops.load(Ordering::SeqCst), 0, "released while an empty view lives");
        drop(tensor);
        prop_assert_eq!(drops.load(Ordering::SeqCst), 1, "empty view did not release once");
        bump(&STATS.zero_size);
        return Ok(());
    }
    if std::env::var_os("TORCHBRIDGE_FUZZ_CASE").is_some() {
        eprintln!(
            "first {first_addr:#x} tensor {:?} strides {:?} ptr {:?}",
            tensor.size(),
            tensor.stride(),
            tensor.data_ptr()
        );
    }
    match copied {
        None => {
            prop_assert_eq!(tensor.data_ptr() as i128, first_addr, "zero-copy view moved");
            let expected_strides: Vec<i64> = strides.iter().map(|&s| s as i64).collect();
            // libtorch keeps the strides of every axis of extent > 1.
            for (axis, (&n, (&got, &want))) in
                case.shape.iter().zip(tensor.stride().iter().zip(&expected_strides)).enumerate()
            {
                if n > 1 {
                    prop_assert_eq!(got, want, "stride of axis {}", axis);
                }
            }
            prop_assert_eq!(drops.load(Ordering::SeqCst), 0, "released while a view lives");
        }
        Some(_) => {
            prop_assert!(tensor.is_contiguous());
            prop_assert_eq!(drops.load(Ordering::SeqCst), 1, "producer not released right after the copy");
        }
    }
    if readable {
        // Every byte read through the tensor equals the byte the descriptor addresses.
        let dense = tensor.f_contiguous().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let count = (numel * itemsize) as usize;
        let mut got = vec![0u8; count];
        // SAFETY: `dense` is a live contiguous CPU tensor of numel elements of
        // `itemsize` bytes; nothing writes it while we copy.
        unsafe { ptr::copy_nonoverlapping(dense.data_ptr().cast::<u8>(), got.as_mut_ptr(), count) };
        let want = gather(first_addr, &case.shape, &strides, itemsize);
        prop_assert!(got == want, "values differ from the addressed memory");
        drop(dense);
        if copied.is_none() {
            bump(&STATS.zero_copy_checked);
        } else {
            bump(&STATS.copy_checked);
        }
    } else {
        bump(&STATS.unbacked_view);
    }
    drop(tensor);
    prop_assert_eq!(drops.load(Ordering::SeqCst), 1, "producer not released exactly once");
    drop(buffer);
    Ok(())
}

/// Bytes addressed by `case` relative to its first element: the lowest, and
/// one past the highest (saturating, so absurd layouts give absurd spans).
fn span_of(case: &Case) -> (i128, i128) {
    let itemsize = (case.dtype.1 as i128 / 8).max(1);
    if case.shape.iter().any(|&n| n <= 0) {
        return (0, itemsize);
    }
    let strides: Vec<i128> = match &case.strides {
        Some(s) if !case.shape.is_empty() => s.iter().map(|&x| x as i128).collect(),
        _ => {
            let mut out = vec![1i128; case.shape.len()];
            for axis in (0..case.shape.len().saturating_sub(1)).rev() {
                out[axis] = out[axis + 1].saturating_mul(case.shape[axis + 1] as i128);
            }
            out
        }
    };
    let (mut lo, mut hi) = (0i128, itemsize);
    for (&n, &s) in case.shape.iter().zip(&strides) {
        let reach = (n as i128 - 1).saturating_mul(s).saturating_mul(itemsize);
        if reach < 0 {
            lo = lo.saturating_add(reach);
        } else {
            hi = hi.saturating_add(reach);
        }
    }
    (lo, hi)
}

/// The bytes the descriptor addresses, element by element in row-major order.
fn gather(first: i128, shape: &[i64], strides: &[i128], itemsize: i128) -> Vec<u8> {
    let numel: i64 = shape.iter().product();
    let mut out = Vec::with_capacity((numel as i128 * itemsize) as usize);
    let mut index = vec![0i64; shape.len()];
    for _ in 0..numel {
        let offset: i128 = index.iter().zip(strides).map(|(&i, &s)| i as i128 * s).sum::<i128>() * itemsize;
        let address = (first + offset) as usize as *const u8;
        for b in 0..itemsize as usize {
            // SAFETY: the model placed every addressed byte inside the buffer,
            // which the caller keeps alive.
            out.push(unsafe { address.add(b).read() });
        }
        for axis in (0..shape.len()).rev() {
            index[axis] += 1;
            if index[axis] < shape[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
    out
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.replace('_', "").parse().ok())
}

fn fuzz(cases: u32, seed: u64) {
    let config = Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("fuzz/import.proptest-regressions"))),
        source_file: Some(file!()),
        max_shrink_iters: 4096,
        ..Config::default()
    };
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let result = runner.run(&case(), |case| run_case(&case));
    if let Err(err) = result {
        panic!("fuzz failure (seed {seed}): {err}");
    }
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn random_descriptors() {
    let cases = env_number("TORCHBRIDGE_FUZZ_CASES").unwrap_or(20_000) as u32;
    let seed = env_number("TORCHBRIDGE_FUZZ_SEED").unwrap_or(20_261_201);
    fuzz(cases, seed);
    // The generator must reach every branch, or the fuzz proves little.
    let get = |c: &AtomicUsize| c.load(Ordering::Relaxed);
    if cases >= 20_000 {
        assert!(get(&STATS.zero_copy_checked) > 100, "{}", summary());
        assert!(get(&STATS.copy_checked) > 50, "{}", summary());
        assert!(get(&STATS.zero_size) > 20, "{}", summary());
        assert!(STATS.errors.iter().all(|c| get(c) > 5), "{}", summary());
    }
    eprintln!("{cases} cases, seed {seed}: {}", summary());
}

#[test]
#[ignore = "a million cases: minutes; run with --ignored (see fuzz/RESULTS.md)"]
fn million_descriptors() {
    let cases = env_number("TORCHBRIDGE_FUZZ_CASES").unwrap_or(1_000_000) as u32;
    let seed = env_number("TORCHBRIDGE_FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
    });
    let start = std::time::Instant::now();
    fuzz(cases, seed);
    println!("million_descriptors: {cases} cases, seed {seed}, {:.1} s: {}", start.elapsed().as_secs_f64(), summary());
}

#[test]
fn corpus_replays() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/corpus.txt")).expect("fuzz/corpus.txt");
    let mut count = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let case = Case::from_line(line);
        assert_eq!(Case::from_line(&case.to_line()), case, "corpus format round trip");
        if let Err(err) = run_case(&case) {
            panic!("corpus case failed: {line}\n{err}");
        }
        count += 1;
    }
    assert!(count >= 20, "corpus has only {count} cases");
}

/// Replays one case given in the corpus format:
/// `TORCHBRIDGE_FUZZ_CASE='abi=v1.3 shape=...' cargo test --release --test fuzz_import -- --ignored replay`.
#[test]
#[ignore = "replays the case in TORCHBRIDGE_FUZZ_CASE"]
fn replay() {
    let line = std::env::var("TORCHBRIDGE_FUZZ_CASE").expect("TORCHBRIDGE_FUZZ_CASE");
    let case = Case::from_line(&line);
    eprintln!("{case:?}\nspan {:?}", span_of(&case));
    if let Err(err) = run_case(&case) {
        panic!("{err}");
    }
}

#[test]
fn model_agrees_with_known_descriptors() {
    // The model itself, on hand-checked descriptors (so a wrong model cannot
    // silently accept a wrong implementation).
    let base = Case::from_line("abi=v1.3 shape=2,3 strides=3,1 dtype=2:64:1 device=1:0 data=pad0 offset=0");
    assert!(matches!(model(&base, 4096), Expected::Ok { copied: None, lo: 0, hi: 48, .. }));
    let flipped = Case::from_line("abi=v1.3 shape=2,3 strides=-3,1 dtype=2:64:1 device=1:0 data=pad0 offset=0");
    assert!(matches!(
        model(&flipped, 4096),
        Expected::Ok { copied: Some(CopyReason::NegativeStrides), lo: -24, hi: 24, .. }
    ));
    assert!(matches!(model(&base, 4097), Expected::Ok { copied: Some(CopyReason::Misaligned), .. }));
    let overflow =
        Case::from_line("abi=v1.3 shape=4 strides=4611686018427387904 dtype=2:64:1 device=1:0 data=pad0 offset=0");
    assert_eq!(model(&overflow, 4096), Expected::Err(ErrorClass::InvalidTensor));
    let future = Case::from_line("abi=v2.0 shape=1 strides=1 dtype=2:64:1 device=1:0 data=pad0 offset=0");
    assert_eq!(model(&future, 4096), Expected::Err(ErrorClass::Version));
    let lanes = Case::from_line("abi=v1.3 shape=1 strides=1 dtype=2:32:4 device=1:0 data=pad0 offset=0");
    assert_eq!(model(&lanes, 4096), Expected::Err(ErrorClass::UnsupportedDtype));
    let metal = Case::from_line("abi=v1.3 shape=1 strides=1 dtype=2:32:1 device=8:0 data=pad0 offset=0");
    assert_eq!(model(&metal, 4096), Expected::Err(ErrorClass::UnsupportedDevice));
    let empty = Case::from_line("abi=v1.3 shape=0,3 strides=-7,9 dtype=2:32:1 device=1:0 data=null offset=0");
    assert!(matches!(model(&empty, 0), Expected::Ok { numel: 0, .. }));
}

// ---------------------------------------------------------------------------
// Threads
// ---------------------------------------------------------------------------

#[test]
fn imports_computes_and_drops_across_threads() {
    const THREADS: usize = 8;
    const ROUNDS: usize = 300;
    let values: Vec<f64> = (0..64).map(|i| i as f64 * 0.5 - 3.0).collect();
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    // One buffer shared by every thread (read only), one per thread (written).
    let shared = Buffer::new(&bytes);
    let drops = Arc::new(AtomicUsize::new(0));
    let (sender, receiver) = std::sync::mpsc::channel::<(Tensor, f64)>();
    let receiver = Arc::new(Mutex::new(receiver));

    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let shared = Arc::clone(&shared);
            let drops = Arc::clone(&drops);
            let sender = sender.clone();
            let receiver = Arc::clone(&receiver);
            let bytes = bytes.clone();
            let values = values.clone();
            std::thread::spawn(move || {
                let own = Buffer::new(&bytes);
                for round in 0..ROUNDS {
                    let (buffer, reversed) = if (round + t) % 2 == 0 { (&shared, false) } else { (&own, true) };
                    let case = if reversed {
                        Case::from_line("abi=v1.3 shape=8,8 strides=-8,1 dtype=2:64:1 device=1:0 data=pad0 offset=448")
                    } else {
                        Case::from_line("abi=legacy shape=8,8 strides=1,8 dtype=2:64:1 device=1:0 data=pad0 offset=0")
                    };
                    let owner = Owner { _buffer: Some(Arc::clone(buffer)), drops: Arc::clone(&drops) };
                    let source = managed(&case, buffer.base(), owner).unwrap().unwrap();
                    let imported = import(source).unwrap();
                    assert_eq!(imported.copied.is_some(), reversed);
                    let tensor = imported.tensor;
                    let sum = tensor.f_sum(Kind::Double).unwrap().f_double_value(&[]).unwrap();
                    assert_eq!(sum, values.iter().sum::<f64>());
                    let row0 = tensor.f_select(0, 0).unwrap();
                    let first = row0.f_double_value(&[1]).unwrap();
                    // Transposed: row 0 is column 0, so element 1 is values[8];
                    // reversed rows: row 0 is the last row, element 1 is values[57].
                    assert_eq!(first, if reversed { values[57] } else { values[8] });
                    if !reversed {
                        // Writes into the per-thread buffer are not used by the
                        // shared reads; a view of the shared buffer is only read.
                        assert_eq!(tensor.data_ptr().cast::<u8>(), buffer.base());
                    }
                    // Half the views die on another thread.
                    if round % 2 == 0 {
                        sender.send((tensor, sum)).unwrap();
                        let received = receiver.lock().unwrap().try_recv();
                        if let Ok((other, other_sum)) = received {
                            let again = other.f_sum(Kind::Double).unwrap().f_double_value(&[]).unwrap();
                            assert_eq!(again, other_sum);
                            drop(other);
                        }
                    } else {
                        drop((tensor, row0));
                    }
                }
            })
        })
        .collect();
    drop(sender);
    for handle in handles {
        handle.join().expect("a worker panicked");
    }
    // Views still queued die here, on the main thread.
    let receiver = Arc::try_unwrap(receiver).expect("workers are done").into_inner().unwrap();
    for (tensor, sum) in receiver.try_iter() {
        assert_eq!(tensor.f_sum(Kind::Double).unwrap().f_double_value(&[]).unwrap(), sum);
    }
    assert_eq!(drops.load(Ordering::SeqCst), THREADS * ROUNDS, "every producer released exactly once");
}
