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
const SLOT_NEW_FROM_DESCR: usize = 94;
const SLOT_SET_BASE_OBJECT: usize = 282;
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

/// A numpy array viewing `tensor` (already prepared for export: no conj or
/// neg bit), with `owner` (which must keep `tensor`'s storage alive) as its
/// base. `None` where this path does not apply (not on the CPU, a dtype
/// numpy lacks); the caller then goes through DLPack.
pub(crate) fn to_numpy<'py>(
    py: Python<'py>,
    tensor: &Tensor,
    owner: Bound<'py, PyAny>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if !matches!(Device::from_tch(tensor.device()), Ok(Device::Cpu)) {
        return Ok(None);
    }
    let dtype = super::dtype_of(tensor)?;
    let Some(typenum) = type_number(dtype) else { return Ok(None) };
    let itemsize = dtype.itemsize() as isize;
    let dims: Vec<isize> = tensor.size().iter().map(|&d| d as isize).collect();
    let strides: Vec<isize> = tensor.stride().iter().map(|&s| s as isize * itemsize).collect();
    let nd = c_int::try_from(dims.len()).map_err(|_| pyo3::exceptions::PyValueError::new_err("too many dimensions"))?;
    let table = api_table(py)? as *const *const c_void;
    // SAFETY: `table` is numpy's C API table and the slots used hold the
    // functions (and type object) of numpy's stable ABI with these signatures.
    // The array views `tensor`'s memory (dims/strides describe exactly the
    // tensor's elements, all inside its storage), and takes `owner`, which
    // keeps that storage alive, as its base; on every error path each new
    // reference is released exactly once.
    unsafe {
        let array_type = *table.add(SLOT_ARRAY_TYPE) as *mut ffi::PyTypeObject;
        let descr_from_type: DescrFromType = std::mem::transmute(*table.add(SLOT_DESCR_FROM_TYPE));
        let new_from_descr: NewFromDescr = std::mem::transmute(*table.add(SLOT_NEW_FROM_DESCR));
        let set_base_object: SetBaseObject = std::mem::transmute(*table.add(SLOT_SET_BASE_OBJECT));
        let descr = descr_from_type(typenum);
        if descr.is_null() {
            return Err(PyErr::fetch(py));
        }
        let data = tensor.data_ptr();
        // numpy allocates when data is null: only possible for empty tensors.
        let data = if data.is_null() { std::ptr::NonNull::<u128>::dangling().as_ptr().cast() } else { data };
        // NewFromDescr steals `descr`, and with data given it recomputes the
        // contiguity and alignment flags itself.
        let array = new_from_descr(
            array_type,
            descr,
            nd,
            dims.as_ptr(),
            strides.as_ptr(),
            data,
            NPY_ARRAY_WRITEABLE,
            std::ptr::null_mut(),
        );
        if array.is_null() {
            return Err(PyErr::fetch(py));
        }
        let array = Bound::from_owned_ptr(py, array);
        // SetBaseObject steals the owner reference, also on failure.
        if set_base_object(array.as_ptr(), owner.into_ptr()) != 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(Some(array))
    }
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
    // held (we hold `array`), and the array lives while the tensor's owner does.
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
        let shape: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
        let numel = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d as usize));
        let Some(numel) = numel else { return Ok(None) };
        super::import::Memory {
            dtype,
            device: Device::Cpu,
            strides: strides.iter().map(|&s| (s / itemsize) as i64).collect(),
            shape,
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
