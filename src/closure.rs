//! Any tch code on zero-copy tensor views of borrowed `ndarray` arrays.
//!
//! [`with_tensors`] lends libtorch read-only views of arrays the caller
//! borrows, runs a closure on them, and returns what the closure returns;
//! [`with_tensors_mut`] lends writable views of mutably borrowed arrays, so
//! in-place operators write straight into them.
//!
//! ```
//! use ndarray::{array, Array2};
//!
//! let a = array![[1.0f64, 2.0], [3.0, 4.0]];
//! let b = Array2::<f64>::eye(2) * 2.0;
//! let product = torchbridge::with_tensors(&[a.view().into_dyn(), b.view().into_dyn()], |ts| {
//!     ts[0].f_matmul(&ts[1])
//! })?;
//! let product: ndarray::ArrayD<f64> = torchbridge::to_ndarray(&product)?; // one copy, into Rust memory
//! assert_eq!(product, (&a * 2.0).into_dyn());
//!
//! let mut c = Array2::<f32>::zeros((2, 3));
//! torchbridge::with_tensors_mut(&mut [c.view_mut()], |ts| ts[0].f_fill_(7.0).map(|_| ()))?;
//! assert!(c.iter().all(|&v| v == 7.0));                 // written in place
//! # Ok::<(), torchbridge::Error>(())
//! ```
//!
//! # Zero-copy, and what comes back
//!
//! Inputs are viewed in place (the tensor's `data_ptr` is the array's); an
//! array with negative strides (after `invert_axis`, or a `s![..;-1]` slice)
//! is the one case copied, since libtorch has no negative strides. The
//! closure's result ([`Outputs`]: a `Tensor`, tuples or `Vec`s of them, or
//! plain numbers) is returned as it is: a tensor result is libtorch memory,
//! never a view of the borrowed arrays (see below). Read it zero-copy with
//! [`crate::with_ndarray_view`], or copy it into an `ndarray` with
//! [`crate::to_ndarray`] (one copy; `ndarray` cannot own libtorch's memory).
//!
//! # Ownership
//!
//! Each input tensor is built over the borrowed memory with a DLPack hold
//! whose release raises a flag. When the closure is done, the inputs are
//! dropped and every flag must be up: no tensor views the borrowed memory
//! any more, so the borrow can end. If some flag is down, the closure let a
//! view escape:
//!
//! - through its result (it returned `ts[0].shallow_clone()`, a slice, a
//!   reshape, or a result whose autograd graph saved an input): every result
//!   tensor is then replaced by a detached copy in fresh memory, the original
//!   results are dropped, and the flags are checked again;
//! - anywhere else (a captured variable, a `static`, another thread): the
//!   view would outlive the memory it reads, and continuing would be unsound,
//!   so the process prints what happened to stderr and **aborts**
//!   (`std::process::abort`). The same check runs when the closure panics,
//!   during unwinding.
//!
//! `with_tensors` lends memory that is borrowed shared (`&`), and libtorch
//! has no read-only tensors: the closure must not write into its inputs
//! (in-place operators, `out=` targets, `copy_`). libtorch's version counter
//! catches such writes after the fact: the call then fails with
//! [`Error::InvalidArgument`]; use [`with_tensors_mut`] to write.

use ndarray::{ArrayBase, Data, DataMut, Dimension};
use tch::Tensor;

use crate::dlpack::loan::Loan;
#[doc(hidden)]
pub use crate::dlpack::loan::RawView;
use crate::{Element, Error, Result};

mod sealed {
    pub trait Sealed {}
    impl<S: ndarray::RawData, D: ndarray::Dimension> Sealed for ndarray::ArrayBase<S, D> {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
    impl<T: Sealed + ?Sized> Sealed for &mut T {}
}

/// An array [`with_tensors`] can lend to libtorch read-only: any `ndarray`
/// array or view of an [`Element`] type (`ArrayView`, `&Array`, ...), or a
/// reference to one (`&dyn InputArray` mixes element types in one call).
pub trait InputArray: sealed::Sealed {
    #[doc(hidden)]
    fn raw_view(&self) -> RawView<'_>;
}

impl<A: Element, S: Data<Elem = A>, D: Dimension> InputArray for ArrayBase<S, D> {
    fn raw_view(&self) -> RawView<'_> {
        RawView::of(self)
    }
}

impl<T: InputArray + ?Sized> InputArray for &T {
    fn raw_view(&self) -> RawView<'_> {
        (**self).raw_view()
    }
}

/// An array [`with_tensors_mut`] can lend to libtorch for writing: any
/// mutable `ndarray` array or view of an [`Element`] type (`ArrayViewMut`,
/// `Array`), or a mutable reference to one.
pub trait InputArrayMut: sealed::Sealed {
    #[doc(hidden)]
    fn raw_view_mut(&mut self) -> RawView<'_>;
    /// Copies `tensor` (same shape and dtype) into the array.
    #[doc(hidden)]
    fn write_back(&mut self, tensor: &Tensor) -> Result<()>;
}

impl<A: Element, S: DataMut<Elem = A>, D: Dimension> InputArrayMut for ArrayBase<S, D> {
    fn raw_view_mut(&mut self) -> RawView<'_> {
        RawView::of_mut(self)
    }

    fn write_back(&mut self, tensor: &Tensor) -> Result<()> {
        let shape = self.raw_dim();
        crate::with_ndarray_view::<A, _>(tensor, |view| {
            let view = view.into_dimensionality::<D>().ok().filter(|v| v.raw_dim() == shape).ok_or_else(|| {
                Error::InvalidArgument("the closure replaced an input tensor with one of another shape".into())
            })?;
            self.assign(&view);
            Ok(())
        })?
    }
}

impl<T: InputArrayMut + ?Sized> InputArrayMut for &mut T {
    fn raw_view_mut(&mut self) -> RawView<'_> {
        (**self).raw_view_mut()
    }

    fn write_back(&mut self, tensor: &Tensor) -> Result<()> {
        (**self).write_back(tensor)
    }
}

/// What a [`with_tensors`] closure may return: tensors (alone, in tuples of
/// up to four, in a `Vec`, optional) or plain values without tensors.
pub trait Outputs {
    /// Every tensor in the value, to be replaced by a copy if it views borrowed memory.
    fn tensors_mut(&mut self) -> Vec<&mut Tensor>;
}

impl Outputs for Tensor {
    fn tensors_mut(&mut self) -> Vec<&mut Tensor> {
        vec![self]
    }
}

impl Outputs for Vec<Tensor> {
    fn tensors_mut(&mut self) -> Vec<&mut Tensor> {
        self.iter_mut().collect()
    }
}

impl<T: Outputs> Outputs for Option<T> {
    fn tensors_mut(&mut self) -> Vec<&mut Tensor> {
        self.as_mut().map(Outputs::tensors_mut).unwrap_or_default()
    }
}

macro_rules! tuple_outputs {
    ($(($($name:ident . $idx:tt),+)),*) => {$(
        impl<$($name: Outputs),+> Outputs for ($($name,)+) {
            fn tensors_mut(&mut self) -> Vec<&mut Tensor> {
                let mut all = Vec::new();
                $(all.extend(self.$idx.tensors_mut());)+
                all
            }
        }
    )*};
}
tuple_outputs!((A.0, B.1), (A.0, B.1, C.2), (A.0, B.1, C.2, D.3));

macro_rules! plain_outputs {
    ($($t:ty),*) => {$(
        impl Outputs for $t {
            fn tensors_mut(&mut self) -> Vec<&mut Tensor> {
                Vec::new()
            }
        }
    )*};
}
plain_outputs!((), bool, i64, f64, f32, usize, Vec<f64>, Vec<i64>);

/// A detached copy of `t` in fresh memory.
fn detached_copy(t: &Tensor) -> Result<Tensor> {
    crate::ops::deep_copy(&t.f_detach()?)
}

/// Finishes a call: drops the inputs, copies results that still view them,
/// and checks that nothing else does (the loan's drop aborts otherwise).
fn settle<O: Outputs>(mut loan: Loan<'_>, mut output: Result<O>) -> Result<O> {
    if !loan.release_inputs() {
        if let Ok(value) = &mut output {
            let copied = value.tensors_mut().into_iter().try_for_each(|t| {
                *t = detached_copy(t)?;
                Ok(())
            });
            if let Err(err) = copied {
                output = Err(err);
            }
        }
    }
    drop(loan);
    output
}

/// Runs `f` on zero-copy, read-only tensor views of `arrays` (CPU tensors
/// with the arrays' shapes, strides and dtypes) and returns its result.
///
/// See the [module docs](crate::closure) for what may escape the closure
/// (results are copied if they view the inputs; anything else aborts), and
/// why `f` must not write into its inputs (checked: such a write makes the
/// call fail with [`Error::InvalidArgument`]).
pub fn with_tensors<V, O, E, F>(arrays: &[V], f: F) -> Result<O>
where
    V: InputArray,
    O: Outputs,
    E: Into<Error>,
    F: FnOnce(&[Tensor]) -> std::result::Result<O, E>,
{
    let loan = Loan::new(arrays.iter().map(InputArray::raw_view).collect())?;
    let versions = loan
        .tensors()
        .iter()
        .enumerate()
        .map(|(k, t)| if loan.copied(k) { Ok(None) } else { t.f_internal_version().map(Some) })
        .collect::<Result<Vec<_>, _>>()?;
    let output = f(loan.tensors()).map_err(Into::into);
    let mut written = None;
    for (k, (t, before)) in loan.tensors().iter().zip(&versions).enumerate() {
        if before.is_some() && t.f_internal_version().ok() != *before {
            written = Some(k);
        }
    }
    let output = settle(loan, output);
    match written {
        Some(k) => Err(Error::InvalidArgument(format!(
            "the closure wrote into input {k}, which with_tensors lends read-only (the array is borrowed \
             shared); use with_tensors_mut to write into arrays"
        ))),
        None => output,
    }
}

/// Runs `f` on zero-copy, writable tensor views of `arrays` and returns its
/// result: in-place operators on the tensors write into the arrays.
///
/// An array with negative strides is lent as a copy and written back after
/// `f` returns (also when it returns an error; not when it panics). Results
/// and escaping views are handled as in [`with_tensors`].
pub fn with_tensors_mut<V, O, E, F>(arrays: &mut [V], f: F) -> Result<O>
where
    V: InputArrayMut,
    O: Outputs,
    E: Into<Error>,
    F: FnOnce(&mut [Tensor]) -> std::result::Result<O, E>,
{
    let mut loan = Loan::new(arrays.iter_mut().map(InputArrayMut::raw_view_mut).collect())?;
    let output = f(loan.tensors_mut()).map_err(Into::into);
    // Inputs lent as copies (negative strides) are not views of the arrays:
    // keep them past the loan and write them back once the borrows are free.
    let copies: Vec<(usize, Tensor)> =
        (0..loan.tensors().len()).filter(|&k| loan.copied(k)).map(|k| (k, loan.tensors()[k].shallow_clone())).collect();
    let mut output = settle(loan, output);
    for (k, copy) in copies {
        if let Err(err) = arrays[k].write_back(&copy) {
            output = Err(err);
        }
    }
    output
}
