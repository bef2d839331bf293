//! numpy results without a DLPack capsule: the array is built directly with
//! numpy's C API over the tensor's memory, the tensor's owner as its base.
//!
//! This is the per-call fast path for numpy callers (`np.from_dlpack` costs
//! a `__dlpack__` call, a managed tensor and a capsule per result). numpy's C
//! API table is read from the `numpy._core.multiarray._ARRAY_API` capsule;
//! the slot numbers used are part of numpy's stable ABI (1.x and 2.x).

use std::ffi::{c_int, c_void};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use tch::Tensor;

use crate::{DType, Device};

const SLOT_ARRAY_TYPE: usize = 2;
const SLOT_DESCR_FROM_TYPE: usize = 45;
const SLOT_SCALAR: usize = 60;
const SLOT_NEW_FROM_DESCR: usize = 94;
const SLOT_SET_BASE_OBJECT: usize = 282;
const NPY_ARRAY_ALIGNED: c_int = 0x0100;
const NPY_ARRAY_WRITEABLE: c_int = 0x0400;

type DescrFromType = unsafe extern "C" fn(c_int) -> *mut ffi::PyObject;
type NewFromDescr = unsafe extern "C" fn(
    *mut ffi::PyTypeObject,
    *mut ffi::PyObject,
    c_int,
    *const isize,
    *const isize,
    *mut c_void,
    c_int,
    *mut ffi::PyObject,
) -> *mut ffi::PyObject;
type ScalarFromData = unsafe extern "C" fn(*mut c_void, *mut ffi::PyObject, *mut ffi::PyObject) -> *mut ffi::PyObject;
type SetBaseObject = unsafe extern "C" fn(*mut ffi::PyObject, *mut ffi::PyObject) -> c_int;

/// The numpy C API table (an address, so that it is `Send + Sync`).
fn api_table(py: Python<'_>) -> PyResult<usize> {
    static TABLE: PyOnceLock<usize> = PyOnceLock::new();
    TABLE
        .get_or_try_init(py, || {
            let capsule = py.import("numpy._core.multiarray")?.getattr("_ARRAY_API")?;
            // SAFETY: `capsule` is a live object; PyCapsule_GetPointer checks
            // that it is a capsule and returns null (with an error set) if not.
            let table = unsafe { ffi::PyCapsule_GetPointer(capsule.as_ptr(), std::ptr::null()) };
            if table.is_null() {
                return Err(PyErr::take(py).unwrap_or_else(|| {
                    pyo3::exceptions::PyImportError::new_err("numpy's _ARRAY_API capsule is empty")
                }));
            }
            Ok(table as usize)
        })
        .copied()
}

/// numpy's type number for a dtype (Linux/macOS LP64: int64 is NPY_LONG).
fn type_number(dtype: DType) -> Option<c_int> {
    Some(match dtype {
        DType::Bool => 0,
        DType::Int8 => 1,
        DType::UInt8 => 2,
        DType::Int16 => 3,
        DType::UInt16 => 4,
        DType::Int32 => 5,
        DType::UInt32 => 6,
        DType::Int64 if cfg!(target_pointer_width = "64") && !cfg!(windows) => 7,
        DType::UInt64 if cfg!(target_pointer_width = "64") && !cfg!(windows) => 8,
        DType::Float16 => 23,
        DType::Float32 => 11,
        DType::Float64 => 12,
        DType::Complex64 => 14,
        DType::Complex128 => 15,
        _ => return None,
    })
}

const _: () = assert!(std::mem::size_of::<isize>() == std::mem::size_of::<i64>());

/// Dimensions up to this many are handled in stack buffers.
const MAX_STACK_DIMS: usize = 16;

/// The capsule name of a result's owner (see [`to_numpy`]).
const OWNER: &std::ffi::CStr = c"torchbridge.Tensor";

/// The destructor of [`to_numpy`]'s owner capsule: drops the `at::Tensor` it holds.
///
/// # Safety
///
/// - `capsule` is a capsule named [`OWNER`] whose pointer is a `new at::Tensor`
///   it owns (tch's `C_tensor`); Python calls this once, with the GIL held.
unsafe extern "C" fn release_owner(capsule: *mut ffi::PyObject) {
    // SAFETY: per the contract; the name matches, so no error is set.
    unsafe {
        let raw = ffi::PyCapsule_GetPointer(capsule, OWNER.as_ptr());
        if !raw.is_null() {
            drop(Tensor::from_ptr(raw.cast()));
        }
    }
}

/// A numpy array viewing `tensor`'s memory, or with `scalar` and a 0-d
/// tensor the numpy scalar of its value (what indexing such an array with
/// `()` gives: NumPy's ufuncs return scalars for 0-d results). A tensor that
/// requires grad or has a conjugate or negative bit is resolved first (as
/// [`super::export::exportable`]). The array's base is a capsule that owns the
/// tensor (no Python class, no GC tracking, no second tensor handle).
/// `Err(tensor)` (the resolved tensor) where this path does not apply (not
/// on the CPU, a dtype numpy lacks); the caller then goes through DLPack.
pub(crate) fn to_numpy(
    py: Python<'_>,
    mut tensor: Tensor,
    scalar: bool,
) -> PyResult<std::result::Result<Bound<'_, PyAny>, Tensor>> {
    let mut view = host_view(&tensor)?;
    if view.resolve != 0 {
        tensor = tensor
            .f_detach()
            .and_then(|t| t.f_resolve_conj())
            .and_then(|t| t.f_resolve_neg())
            .map_err(crate::Error::from)?;
        view = host_view(&tensor)?;
    }
    if view.cpu == 0 {
        return Ok(Err(tensor));
    }
    let dtype = DType::from_dlpack(view.dtype)?;
    let Some(typenum) = type_number(dtype) else { return Ok(Err(tensor)) };
    let itemsize = dtype.itemsize() as isize;
    let nd = usize::try_from(view.ndim).unwrap_or(0);
    let nd_c = c_int::try_from(nd).map_err(|_| pyo3::exceptions::PyValueError::new_err("too many dimensions"))?;
    // SAFETY: `tb_host_view` set `sizes` and `strides` to `ndim` elements
    // each (when ndim > 0), which stay valid while `tensor` lives unchanged:
    // it lives, unchanged, until it is handed to the capsule below and after.
    let (sizes, element_strides) = unsafe {
        if nd == 0 {
            (&[][..], &[][..])
        } else {
            (std::slice::from_raw_parts(view.sizes, nd), std::slice::from_raw_parts(view.strides, nd))
        }
    };
    let mut stack = [0isize; MAX_STACK_DIMS];
    let mut heap = Vec::new();
    let byte_strides: &mut [isize] = if nd <= MAX_STACK_DIMS {
        &mut stack[..nd]
    } else {
        heap.resize(nd, 0);
        &mut heap
    };
    for (slot, &s) in byte_strides.iter_mut().zip(element_strides) {
        *slot = s as isize * itemsize;
    }
    // SAFETY: i64 and isize have the same size and alignment (the `const`
    // assertion above: libtorch supports 64-bit targets only), and every i64
    // bit pattern is an isize.
    let dims: &[isize] = unsafe { std::slice::from_raw_parts(sizes.as_ptr().cast::<isize>(), nd) };
    let table = api_table(py)? as *const *const c_void;
    // SAFETY: `table` is numpy's C API table and the slots used hold the
    // functions (and type object) of numpy's stable ABI with these signatures.
    // The array views `tensor`'s memory (dims/strides describe exactly the
    // tensor's elements, all inside its storage), and takes as its base the
    // capsule that owns `tensor` from then on; on every error path each new
    // reference is released exactly once, and the tensor dropped once.
    unsafe {
        let descr_from_type: DescrFromType = std::mem::transmute(*table.add(SLOT_DESCR_FROM_TYPE));
        let descr = descr_from_type(typenum);
        if descr.is_null() {
            return Err(PyErr::fetch(py));
        }
        let data = view.data;
        if scalar && nd == 0 {
            // PyArray_Scalar copies the value out (it does not steal `descr`)
            let to_scalar: ScalarFromData = std::mem::transmute(*table.add(SLOT_SCALAR));
            let value = to_scalar(data, descr, std::ptr::null_mut());
            ffi::Py_DECREF(descr);
            if value.is_null() {
                return Err(PyErr::fetch(py));
            }
            return Ok(Ok(Bound::from_owned_ptr(py, value)));
        }
        let array_type = *table.add(SLOT_ARRAY_TYPE) as *mut ffi::PyTypeObject;
        let new_from_descr: NewFromDescr = std::mem::transmute(*table.add(SLOT_NEW_FROM_DESCR));
        let set_base_object: SetBaseObject = std::mem::transmute(*table.add(SLOT_SET_BASE_OBJECT));
        // numpy allocates when data is null: only possible for empty tensors.
        let data = if data.is_null() { std::ptr::NonNull::<u128>::dangling().as_ptr().cast() } else { data };
        // NewFromDescr steals `descr` and copies dims and strides; with data
        // given it recomputes the contiguity and alignment flags itself.
        let array = new_from_descr(
            array_type,
            descr,
            nd_c,
            dims.as_ptr(),
            byte_strides.as_ptr(),
            data,
            NPY_ARRAY_WRITEABLE,
            std::ptr::null_mut(),
        );
        if array.is_null() {
            return Err(PyErr::fetch(py));
        }
        let array = Bound::from_owned_ptr(py, array);
        let raw = tensor.as_mut_ptr();
        std::mem::forget(tensor); // the capsule owns it from here
        let owner = ffi::PyCapsule_New(raw.cast(), OWNER.as_ptr(), Some(release_owner));
        if owner.is_null() {
            drop(Tensor::from_ptr(raw));
            return Err(PyErr::fetch(py));
        }
        // SetBaseObject steals the owner reference, also on failure.
        if set_base_object(array.as_ptr(), owner) != 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(Ok(array))
    }
}

/// [`TbHostView`](crate::ffi::dlpack::TbHostView) of `tensor`: one shim call.
fn host_view(tensor: &Tensor) -> crate::Result<crate::ffi::dlpack::TbHostView> {
    let mut view = crate::ffi::dlpack::TbHostView {
        data: std::ptr::null_mut(),
        sizes: std::ptr::null(),
        strides: std::ptr::null(),
        ndim: 0,
        dtype: Default::default(),
        cpu: 0,
        resolve: 0,
    };
    // SAFETY: `tensor` is live; the shim writes `view` or returns an error.
    unsafe { crate::ffi::check(crate::ffi::dlpack::tb_host_view(tensor.as_ptr(), &mut view))? };
    Ok(view)
}

/// The leading fields of numpy's `PyArrayObject_fields` (stable since numpy 1.7).
#[repr(C)]
struct ArrayFields {
    head: ffi::PyObject,
    data: *mut u8,
    nd: c_int,
    dimensions: *const isize,
    strides: *const isize,
    base: *mut ffi::PyObject,
    descr: *const DescrFields,
    flags: c_int,
}

/// The leading fields of numpy's `PyArray_Descr` (the same in numpy 1.x and 2.x).
#[repr(C)]
struct DescrFields {
    head: ffi::PyObject,
    typeobj: *mut ffi::PyTypeObject,
    kind: u8,
    type_char: u8,
    byteorder: u8,
    former_flags: u8,
    type_num: c_int,
}

/// Whether an exact `numpy.ndarray` is writable, aligned, in native byte order
/// and not complex: what `apply` and the `tb.torch` proxies view with
/// `torch.from_numpy` on their numpy fast path (`python::bridge`'s
/// `numpy_call`). Everything else takes the general route, which copies
/// read-only and unaligned memory (and complex data off its itemsize's
/// alignment) or explains the refusal.
pub(crate) fn plain_writable(array: &Bound<'_, PyAny>) -> bool {
    // SAFETY: the caller checked that `array` is exactly a numpy.ndarray, so
    // its object starts with these fields; they are only read, with the GIL
    // held (we hold `array`).
    unsafe {
        let fields = &*(array.as_ptr() as *const ArrayFields);
        let descr = &*fields.descr;
        let both = NPY_ARRAY_WRITEABLE | NPY_ARRAY_ALIGNED;
        fields.flags & both == both && descr.kind != b'c' && descr.byteorder != b'>'
    }
}

fn dtype_of_type_number(typenum: c_int) -> Option<DType> {
    let long_is_64 = cfg!(target_pointer_width = "64") && !cfg!(windows);
    Some(match typenum {
        0 => DType::Bool,
        1 => DType::Int8,
        2 => DType::UInt8,
        3 => DType::Int16,
        4 => DType::UInt16,
        5 => DType::Int32,
        6 => DType::UInt32,
        7 if long_is_64 => DType::Int64,
        8 if long_is_64 => DType::UInt64,
        9 => DType::Int64,
        10 => DType::UInt64,
        11 => DType::Float32,
        12 => DType::Float64,
        14 => DType::Complex64,
        15 => DType::Complex128,
        23 => DType::Float16,
        _ => return None,
    })
}

/// Imports an exact `numpy.ndarray` by reading its fields, without a DLPack
/// capsule (the per-call fast path). `None` where this path does not apply
/// (byte-swapped or non-DLPack dtypes, strides that are not a multiple of the
/// item size): the caller then asks `__dlpack__`, which explains the refusal.
///
/// The array itself is the owner: the tensor keeps a reference to it.
pub(crate) fn import_ndarray(array: &Bound<'_, PyAny>) -> crate::Result<Option<super::Imported>> {
    // SAFETY: the caller checked that `array` is exactly a numpy.ndarray, so
    // its object starts with these fields; they are only read, with the GIL
    // held (we hold `array`), and the array lives while the tensor's owner
    // does (a reference to it is the owner, on both paths): numpy's buffer
    // stays valid while the array lives.
    let memory = unsafe {
        let fields = &*(array.as_ptr() as *const ArrayFields);
        let descr = &*fields.descr;
        let Some(dtype) = dtype_of_type_number(descr.type_num) else { return Ok(None) };
        if descr.byteorder == b'>' {
            return Ok(None);
        }
        let nd = usize::try_from(fields.nd).unwrap_or(0);
        let (dims, strides) = if nd == 0 {
            (&[][..], &[][..])
        } else {
            (std::slice::from_raw_parts(fields.dimensions, nd), std::slice::from_raw_parts(fields.strides, nd))
        };
        let itemsize = dtype.itemsize() as isize;
        if strides.iter().any(|s| s % itemsize != 0) {
            return Ok(None);
        }
        let Some(numel) = dims.iter().try_fold(1usize, |n, &d| n.checked_mul(d as usize)) else { return Ok(None) };
        // Fast path: shape and element strides on the stack, the array itself
        // as libtorch's deleter context (`view_python_memory`); what it
        // declines (empty, negative strides, misaligned) takes `import_memory`.
        if nd <= MAX_STACK_DIMS {
            let mut shape = [0i64; MAX_STACK_DIMS];
            let mut element_strides = [0i64; MAX_STACK_DIMS];
            for (slot, &d) in shape.iter_mut().zip(dims) {
                *slot = d as i64;
            }
            for (slot, &s) in element_strides.iter_mut().zip(strides) {
                *slot = (s / itemsize) as i64;
            }
            let read_only = fields.flags & NPY_ARRAY_WRITEABLE == 0;
            let owner = array.clone().unbind();
            match super::import::view_python_memory(fields.data, &shape[..nd], &element_strides[..nd], dtype, owner)? {
                Ok(tensor) => return Ok(Some(super::Imported { tensor, read_only, copied: None })),
                Err(_declined) => {} // (the reference is dropped: the GIL is held)
            }
        }
        super::import::Memory {
            dtype,
            device: Device::Cpu,
            strides: strides.iter().map(|&s| (s / itemsize) as i64).collect(),
            shape: dims.iter().map(|&d| d as i64).collect(),
            base: fields.data,
            byte_offset: 0,
            numel,
            read_only: fields.flags & NPY_ARRAY_WRITEABLE == 0,
        }
    };
    let owner = super::import::Owner::Python(Some(array.clone().unbind()));
    // SAFETY: numpy's buffer stays valid while the array lives, and the owner
    // holds a reference to the array.
    unsafe { super::import::import_memory(memory, owner) }.map(Some)
}
