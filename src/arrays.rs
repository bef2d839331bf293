//! `ndarray` in, `ndarray` out.
//!
//! - [`from_ndarray`] moves an owned array into libtorch without copying: the
//!   tensor owns the array's buffer and frees it when its last view dies.
//! - [`with_ndarray_view`] lends a zero-copy `ArrayViewD` of a CPU tensor to a
//!   closure; [`to_ndarray`] copies a tensor into an owned `ArrayD`.

use ndarray::{Array, ArrayD, ArrayViewD, Dimension};
use tch::Tensor;

use crate::dlpack::{self, ndarray_view};
use crate::{DType, Result};

mod sealed {
    pub trait Sealed {}
}

/// An `ndarray` element type that has a DLPack and libtorch dtype.
pub trait Element: dlpark::DlpackElement + Clone + Send + sealed::Sealed + 'static {
    /// The matching torchbridge dtype.
    const DTYPE: DType;
}

macro_rules! elements {
    ($($ty:ty => $dtype:ident),* $(,)?) => {$(
        impl sealed::Sealed for $ty {}
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;
        }
    )*};
}

elements!(
    i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64,
    u8 => UInt8, u16 => UInt16, u32 => UInt32, u64 => UInt64,
    f32 => Float32, f64 => Float64,
);

/// Moves an owned array into a CPU `tch::Tensor` without copying its data.
///
/// The tensor keeps the array's layout (a transposed array gives a transposed
/// tensor). Negative strides (after `invert_axis`) are the one case copied,
/// since libtorch cannot represent them.
///
/// ```
/// let a = ndarray::Array2::<f64>::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
/// let ptr = a.as_ptr();
/// let t = torchbridge::from_ndarray(a)?;
/// assert_eq!(t.data_ptr() as *const f64, ptr);
/// assert_eq!(t.size(), [3, 4]);
/// # Ok::<(), torchbridge::Error>(())
/// ```
pub fn from_ndarray<A: Element, D: Dimension>(array: Array<A, D>) -> Result<Tensor> {
    Ok(dlpack::import(ndarray_view::managed_from_array(array)?)?.tensor)
}

/// Runs `f` on a zero-copy view of a CPU tensor whose dtype is `A`.
///
/// ```
/// let t = tch::Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
/// let sum = torchbridge::with_ndarray_view::<f64, _>(&t, |v| v.sum())?;
/// assert_eq!(sum, 6.0);
/// # Ok::<(), torchbridge::Error>(())
/// ```
pub fn with_ndarray_view<A: Element, R>(tensor: &Tensor, f: impl FnOnce(ArrayViewD<'_, A>) -> R) -> Result<R> {
    ndarray_view::with_array_view(tensor, f)
}

/// Copies a CPU tensor into an owned, row-major `ArrayD` (one copy).
pub fn to_ndarray<A: Element>(tensor: &Tensor) -> Result<ArrayD<A>> {
    ndarray_view::with_array_view(tensor, |view| view.as_standard_layout().into_owned())
}
