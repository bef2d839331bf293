//! Routines by family, on `tch::Tensor`s, with SciPy's semantics.
//!
//! Every routine takes tensors by reference, never writes into them, and
//! returns a fresh tensor on the input's device.

pub use crate::aten::{call, schema, Arg, Value};

mod autograd;
pub mod fft;
pub mod linalg;
pub mod ndimage;
pub mod numpy;
pub mod signal;
pub mod spatial;
pub mod special;
pub mod stats;

pub(crate) use numpy::{scipy_float_input, scipy_float_input_of};

use tch::Tensor;

use crate::{dlpack, DType, Result};

/// The dtype of `x` (re-exported for the routines' callers).
pub fn dtype(x: &Tensor) -> Result<DType> {
    dlpack::dtype_of(x)
}

/// A copy of `x` in fresh memory with the same shape, dtype, device and
/// (for dense tensors) strides.
pub fn deep_copy(x: &Tensor) -> Result<Tensor> {
    let mut copy = x.f_empty_like()?;
    copy.f_copy_(x)?;
    Ok(copy)
}
