//! The crate's one error type. No pyo3 here: the Python layer maps each
//! variant to an exception class in `src/python/errors.rs`.

use std::fmt;

/// Every fallible torchbridge call returns this.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong, with enough structure for a caller to react to it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A DLPack dtype that torchbridge cannot hand to libtorch.
    #[error(
        "unsupported dtype (DLPack code {code}, {bits} bits, {lanes} lanes{name}); accepted: {accepted}",
        name = DtypeName(*code, *bits),
        accepted = crate::dtype::ACCEPTED_DTYPES
    )]
    UnsupportedDtype {
        /// DLPack `DLDataTypeCode`.
        code: u8,
        /// Bits per lane.
        bits: u8,
        /// Vector lanes; only 1 is accepted.
        lanes: u16,
    },

    /// A routine that has no loop for this (supported) dtype, as SciPy would refuse it.
    #[error("{routine} does not accept {dtype} input; accepted: {accepted}")]
    DtypeNotAccepted {
        /// The routine's name, e.g. `special.expit`.
        routine: &'static str,
        /// The dtype it was given.
        dtype: crate::DType,
        /// What it accepts, in words.
        accepted: &'static str,
    },

    /// Memory on a device torchbridge does not handle.
    #[error(
        "unsupported device: DLPack device type {device_type} (id {device_id}); \
         accepted: CPU (1), CUDA (2), CUDA host (3), CUDA managed (13)"
    )]
    UnsupportedDevice {
        /// DLPack `DLDeviceType`.
        device_type: u32,
        /// Device ordinal.
        device_id: i32,
    },

    /// A device torchbridge handles, but libtorch cannot reach from this
    /// process (no CUDA support in this libtorch, no GPU, an ordinal beyond
    /// the visible devices).
    #[error("{0}")]
    DeviceUnavailable(String),

    /// A DLPack descriptor that fails validation (shape, strides, pointers, version).
    #[error("invalid DLPack tensor: {0}")]
    InvalidTensor(String),

    /// An argument outside what a routine accepts (shape, axis, option value).
    #[error("{0}")]
    InvalidArgument(String),

    /// A parameter value SciPy accepts that torchbridge does not implement yet.
    #[error("{0}")]
    NotImplemented(String),

    /// An axis outside an array's dimensions (NumPy's `AxisError`, also an
    /// `IndexError` in Python).
    #[error("axis {axis} is out of bounds for array of dimension {ndim}")]
    AxisOutOfBounds {
        /// The axis as the caller gave it.
        axis: i64,
        /// The array's number of dimensions.
        ndim: usize,
    },

    /// A linear-algebra failure SciPy raises as `numpy.linalg.LinAlgError`
    /// (singular matrix, not positive definite, no convergence).
    #[error("{0}")]
    LinAlg(String),

    /// An allocation that cannot be made: a size taken from the caller that
    /// does not fit in memory (Python's `MemoryError`, as NumPy raises it).
    #[error("{0}")]
    OutOfMemory(String),

    /// libtorch raised an error (a C++ exception, caught in the shim or by tch).
    #[error("libtorch error: {0}")]
    Torch(String),
}

impl Error {
    /// The error for `bytes` that cannot be allocated for `what`.
    pub(crate) fn out_of_memory(bytes: u128, what: &str) -> Error {
        Error::OutOfMemory(format!("Unable to allocate {} for {what}", ByteCount(bytes)))
    }

    /// A libtorch error message as an error: [`Error::OutOfMemory`] when it
    /// reports a failed allocation (its CPU and CUDA allocators' wording),
    /// [`Error::Torch`] otherwise.
    pub(crate) fn from_torch_message(message: String) -> Error {
        if message.contains("can't allocate memory") || message.contains("out of memory") {
            Error::OutOfMemory(message)
        } else {
            Error::Torch(message)
        }
    }
}

/// A `Vec` with room for `len` elements, or [`Error::OutOfMemory`]: Rust's
/// infallible allocation aborts the process, so every buffer whose size comes
/// from the caller is reserved through here.
pub(crate) fn try_vec<T>(len: usize, what: &str) -> Result<Vec<T>> {
    let mut buffer = Vec::new();
    buffer
        .try_reserve_exact(len)
        .map_err(|_| Error::out_of_memory(len as u128 * std::mem::size_of::<T>().max(1) as u128, what))?;
    Ok(buffer)
}

/// Runs `work`, turning a panic inside tch into an error.
///
/// tch's scalar-argument wrappers (`f_mul_scalar`, `f_gt`, `f_masked_fill`,
/// `f_arange`, ...) free their `Scalar` before reading libtorch's error, and
/// that free panics when an error is pending: a libtorch failure there (an
/// allocation for a huge shape, say) would unwind instead of returning `Err`.
/// Routines avoid those wrappers where they can; this is the net under the
/// rest: the special family runs its kernels through it, and the Python layer
/// every computation, so such a failure is [`Error::OutOfMemory`] (or
/// [`Error::Torch`]) like any other, never a `PanicException`.
pub(crate) fn no_panic<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|payload| {
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a libtorch call failed".into());
        Err(Error::from_torch_message(message))
    })
}

/// Bytes in NumPy's wording (`7.28 TiB`).
struct ByteCount(u128);

impl fmt::Display for ByteCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 7] = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} bytes", self.0)
        } else {
            write!(f, "{value:.2} {}", UNITS[unit])
        }
    }
}

impl From<tch::TchError> for Error {
    fn from(err: tch::TchError) -> Self {
        Error::from_torch_message(err.to_string())
    }
}

impl From<dlpark::tensor::Error> for Error {
    fn from(err: dlpark::tensor::Error) -> Self {
        Error::InvalidTensor(err.to_string())
    }
}

/// Formats `, i.e. float64` after a DLPack dtype triple when it has a name.
struct DtypeName(u8, u8);

impl fmt::Display for DtypeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match crate::dtype::DType::from_code_bits(self.0, self.1) {
            Some(dtype) => write!(f, ", i.e. {dtype} in vectors"),
            None => Ok(()),
        }
    }
}
