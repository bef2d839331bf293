//! Routines by family, on `tch::Tensor`s, with SciPy's semantics.
//!
//! Every routine takes tensors by reference, never writes into them, and
//! returns a fresh tensor on the input's device.

pub use crate::aten::{call, schema, Arg, Value};

pub mod fft;
pub mod linalg;
pub mod special;

use tch::Tensor;

use crate::{dlpack, DType, Error, Result};

/// Casts `x` to the floating dtype SciPy's ufunc loops would pick.
///
/// `complex_in_scipy`: SciPy has complex loops for this routine; a complex
/// input is then "not implemented here" rather than "not accepted".
pub(crate) fn scipy_float_input(routine: &'static str, x: &Tensor, complex_in_scipy: bool) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(x)?;
    match dtype.scipy_float_loop(false) {
        Some(target) if target == dtype => Ok(x.shallow_clone()),
        Some(target) => Ok(x.f_to_kind(target.kind().expect("float dtypes have a tch kind"))?),
        None if complex_in_scipy => Err(Error::NotImplemented(format!(
            "{routine} on {dtype} input is not implemented (libtorch has no complex kernel for it)"
        ))),
        None => {
            Err(Error::DtypeNotAccepted { routine, dtype, accepted: "bool, integer and real floating-point input" })
        }
    }
}

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
