//! Declarations of `csrc/aten.cpp` (operators by name) and the safe handles
//! `crate::aten` drives them through: an argument list ([`ArgList`]), an
//! operator's outputs ([`OutputList`]), and the dispatcher's listings.
//!
//! Every pointer handed to the shim comes from a live Rust value for the
//! length of the call; every list the shim allocates is freed exactly once,
//! by the handle's `Drop`; every index into the outputs is checked here
//! before the shim reads it.

use std::ffi::{c_char, CStr};
use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::take_string;
use crate::{Error, Result};

/// The shim's argument list (opaque).
#[repr(C)]
struct RawArgs {
    _private: [u8; 0],
}

/// The shim's output list (opaque).
#[repr(C)]
struct RawOutputs {
    _private: [u8; 0],
}

extern "C" {
    fn tb_aten_args_new(out: *mut *mut RawArgs) -> *mut c_char;
    fn tb_aten_args_free(args: *mut RawArgs);
    fn tb_aten_args_push(
        args: *mut RawArgs,
        keyword: *const c_char,
        keyword_len: usize,
        tag: i32,
        i: i64,
        j: i64,
        f: f64,
        im: f64,
        s: *const c_char,
        s_len: usize,
        tensors: *const *const C_tensor,
        n_tensors: usize,
        ints: *const i64,
        floats: *const f64,
        n: usize,
        read_only: i32,
    ) -> *mut c_char;
    fn tb_aten_call(
        name: *const c_char,
        overload: *const c_char,
        args: *const RawArgs,
        lenient: i32,
        out: *mut *mut RawOutputs,
        status: *mut i32,
    ) -> *mut c_char;
    fn tb_aten_outputs_free(outputs: *mut RawOutputs);
    fn tb_aten_outputs_len(outputs: *const RawOutputs) -> usize;
    fn tb_aten_output_get(
        outputs: *const RawOutputs,
        k: usize,
        i: *mut i64,
        j: *mut i64,
        f: *mut f64,
        im: *mut f64,
        len: *mut usize,
    ) -> i32;
    fn tb_aten_output_tensor(outputs: *const RawOutputs, k: usize, e: usize, out: *mut *mut C_tensor) -> *mut c_char;
    fn tb_aten_output_ints(outputs: *const RawOutputs, k: usize, buf: *mut i64);
    fn tb_aten_output_floats(outputs: *const RawOutputs, k: usize, buf: *mut f64);
    fn tb_aten_output_str(outputs: *const RawOutputs, k: usize, len: *mut usize) -> *const c_char;
    fn tb_aten_schema(
        name: *const c_char,
        overload: *const c_char,
        out: *mut *mut c_char,
        status: *mut i32,
    ) -> *mut c_char;
    fn tb_aten_op_names(out: *mut *mut c_char) -> *mut c_char;
}

/// Value tags shared with the shim (`tb_aten::Tag` in csrc/aten.cpp).
pub(crate) mod tag {
    pub const NONE: i32 = 0;
    pub const BOOL: i32 = 1;
    pub const INT: i32 = 2;
    pub const FLOAT: i32 = 3;
    pub const COMPLEX: i32 = 4;
    pub const STR: i32 = 5;
    pub const TENSOR: i32 = 6;
    pub const TENSOR_LIST: i32 = 7;
    pub const OPT_TENSOR_LIST: i32 = 8;
    pub const INT_LIST: i32 = 9;
    pub const FLOAT_LIST: i32 = 10;
    pub const BOOL_LIST: i32 = 11;
    pub const SCALAR_TYPE: i32 = 12;
    pub const DEVICE: i32 = 13;
    pub const LAYOUT: i32 = 14;
    pub const MEMORY_FORMAT: i32 = 15;
}

/// The fields of one tagged argument value, as `tb_aten_args_push` takes them.
#[derive(Default)]
pub(crate) struct Push<'a> {
    pub tag: i32,
    pub i: i64,
    pub j: i64,
    pub f: f64,
    pub im: f64,
    pub s: &'a str,
    /// `None` entries are undefined tensors (`Tensor?[]`).
    pub tensors: Vec<Option<&'a Tensor>>,
    pub ints: Vec<i64>,
    pub floats: Vec<f64>,
    pub read_only: bool,
}

/// The shim's argument list, freed on drop.
pub(crate) struct ArgList(*mut RawArgs);

impl Drop for ArgList {
    fn drop(&mut self) {
        // SAFETY: made by tb_aten_args_new, freed exactly once here.
        unsafe { tb_aten_args_free(self.0) };
    }
}

/// Why a call did not produce outputs: the shim's status code and message.
pub(crate) struct CallFailure {
    /// 1: the arguments do not fit the schema; 2, 3: invalid arguments or no
    /// such operator; anything else: the operator raised.
    pub status: i32,
    pub message: String,
}

impl ArgList {
    /// A new, empty list.
    pub(crate) fn new() -> Result<ArgList> {
        let mut raw = ptr::null_mut();
        // SAFETY: valid out-pointer; the shim writes a fresh list or returns a message.
        if let Some(message) = unsafe { take_string(tb_aten_args_new(&mut raw)) } {
            return Err(Error::from_torch_message(message));
        }
        if raw.is_null() {
            return Err(Error::Torch("the shim returned no argument list".into()));
        }
        Ok(ArgList(raw))
    }

    /// Appends one value, positional or (with `keyword`) by name.
    pub(crate) fn push(&self, keyword: Option<&str>, p: &Push<'_>) -> Result<()> {
        let (keyword_ptr, keyword_len) = keyword.map_or((ptr::null(), 0), |k| (k.as_ptr().cast::<c_char>(), k.len()));
        let tensors: Vec<*const C_tensor> = p.tensors.iter().map(|t| t.map_or(ptr::null(), Tensor::as_ptr)).collect();
        let n = p.ints.len().max(p.floats.len());
        // The shim reads `n` entries of each non-null list: pad a shorter one.
        let ints = (!p.ints.is_empty()).then(|| padded(&p.ints, n));
        let floats = (!p.floats.is_empty()).then(|| padded(&p.floats, n));
        // SAFETY: every pointer addresses as many live elements as its length
        // says (the keyword and string by byte length, non-null `ints` and
        // `floats` hold `n` each); tensor pointers are live tch tensors (C_tensor is
        // `at::Tensor*`) or null for undefined ones, copied by the shim before
        // this returns. `self.0` is a live list.
        let message = unsafe {
            tb_aten_args_push(
                self.0,
                keyword_ptr,
                keyword_len,
                p.tag,
                p.i,
                p.j,
                p.f,
                p.im,
                p.s.as_ptr().cast::<c_char>(),
                p.s.len(),
                tensors.as_ptr(),
                tensors.len(),
                ints.as_ref().map_or(ptr::null(), |v| v.as_ptr()),
                floats.as_ref().map_or(ptr::null(), |v| v.as_ptr()),
                n,
                i32::from(p.read_only),
            )
        };
        // SAFETY: a shim message or null.
        match unsafe { take_string(message) } {
            Some(message) => Err(Error::from_torch_message(message)),
            None => Ok(()),
        }
    }

    /// Calls `op.overload` with this list (`lenient`: allow Python-style coercions).
    pub(crate) fn call(
        &self,
        op: &CStr,
        overload: &CStr,
        lenient: bool,
    ) -> std::result::Result<OutputList, CallFailure> {
        let mut out = ptr::null_mut();
        let mut status = 0i32;
        // SAFETY: NUL-terminated names, a live list, valid out-pointers.
        let message =
            unsafe { tb_aten_call(op.as_ptr(), overload.as_ptr(), self.0, i32::from(lenient), &mut out, &mut status) };
        // SAFETY: a shim message or null.
        if let Some(message) = unsafe { take_string(message) } {
            return Err(CallFailure { status, message });
        }
        if out.is_null() {
            return Err(CallFailure { status: 0, message: "the operator call returned no outputs".into() });
        }
        Ok(OutputList(out))
    }
}

fn padded<T: Copy + Default>(values: &[T], n: usize) -> Vec<T> {
    let mut all = values.to_vec();
    all.resize(n, T::default());
    all
}

/// The scalar fields of one output, as `tb_aten_output_get` reports them.
pub(crate) struct Entry {
    pub tag: i32,
    pub i: i64,
    pub f: f64,
    pub im: f64,
    /// Elements of a list output (1 for a tensor).
    pub len: usize,
}

/// The shim's outputs of one call, freed on drop.
pub(crate) struct OutputList(*mut RawOutputs);

impl Drop for OutputList {
    fn drop(&mut self) {
        // SAFETY: made by tb_aten_call, freed exactly once here.
        unsafe { tb_aten_outputs_free(self.0) };
    }
}

impl OutputList {
    /// The number of outputs.
    pub(crate) fn len(&self) -> usize {
        // SAFETY: a live output list.
        unsafe { tb_aten_outputs_len(self.0) }
    }

    fn check_index(&self, k: usize) -> Result<()> {
        if k < self.len() {
            Ok(())
        } else {
            Err(Error::Torch(format!("output {k} of {} requested", self.len())))
        }
    }

    /// Output `k`'s scalar fields.
    pub(crate) fn entry(&self, k: usize) -> Result<Entry> {
        self.check_index(k)?;
        let (mut i, mut j, mut f, mut im, mut len) = (0i64, 0i64, 0f64, 0f64, 0usize);
        // SAFETY: k < len (checked); valid out-pointers.
        let tag = unsafe { tb_aten_output_get(self.0, k, &mut i, &mut j, &mut f, &mut im, &mut len) };
        Ok(Entry { tag, i, f, im, len })
    }

    /// Element `e` of output `k`'s tensors (`None` for an undefined one).
    pub(crate) fn tensor(&self, k: usize, e: usize) -> Result<Option<Tensor>> {
        self.check_index(k)?;
        let mut out = ptr::null_mut();
        // SAFETY: k in range (checked; the shim range-checks `e` itself); valid out-pointer.
        if let Some(message) = unsafe { take_string(tb_aten_output_tensor(self.0, k, e, &mut out)) } {
            return Err(Error::from_torch_message(message));
        }
        // SAFETY: a non-null result is a `new at::Tensor`, tch's C_tensor, now ours.
        Ok((!out.is_null()).then(|| unsafe { Tensor::from_ptr(out) }))
    }

    /// Output `k`'s string (a str output, or the description of a device or other kind).
    pub(crate) fn string(&self, k: usize) -> Result<String> {
        self.check_index(k)?;
        let mut n = 0usize;
        // SAFETY: k in range; the string lives until the list is freed and is copied below.
        let p = unsafe { tb_aten_output_str(self.0, k, &mut n) };
        if p.is_null() || n == 0 {
            return Ok(String::new());
        }
        // SAFETY: `p` addresses `n` bytes (the shim's std::string), live while `self` is.
        let bytes = unsafe { std::slice::from_raw_parts(p.cast::<u8>(), n) };
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    /// Output `k`'s int (or bool) list.
    pub(crate) fn ints(&self, k: usize) -> Result<Vec<i64>> {
        let entry = self.entry(k)?;
        let mut buf = crate::error::try_vec::<i64>(entry.len, "an operator's int list output")?;
        buf.resize(entry.len, 0);
        // SAFETY: k in range; the list holds exactly `entry.len` ints and `buf` has room for them.
        unsafe { tb_aten_output_ints(self.0, k, buf.as_mut_ptr()) };
        Ok(buf)
    }

    /// Output `k`'s float list.
    pub(crate) fn floats(&self, k: usize) -> Result<Vec<f64>> {
        let entry = self.entry(k)?;
        let mut buf = crate::error::try_vec::<f64>(entry.len, "an operator's float list output")?;
        buf.resize(entry.len, 0.0);
        // SAFETY: k in range; the list holds exactly `entry.len` floats and `buf` has room for them.
        unsafe { tb_aten_output_floats(self.0, k, buf.as_mut_ptr()) };
        Ok(buf)
    }
}

/// The schema of `op.overload`: `Ok(Err(status))` when the shim reports a
/// status without a schema (3: no such overload).
pub(crate) fn schema(op: &CStr, overload: &CStr) -> Result<std::result::Result<String, (i32, String)>> {
    let mut out = ptr::null_mut();
    let mut status = 0i32;
    // SAFETY: NUL-terminated names and valid out-pointers.
    let message = unsafe { tb_aten_schema(op.as_ptr(), overload.as_ptr(), &mut out, &mut status) };
    // SAFETY: a shim message or null.
    if let Some(message) = unsafe { take_string(message) } {
        return Ok(Err((status, message)));
    }
    // SAFETY: the shim's malloc'ed schema string, taken over here.
    unsafe { take_string(out) }.map(Ok).ok_or_else(|| Error::Torch("no schema returned".into()))
}

/// Every operator the dispatcher knows, one `name\toverload` per line.
pub(crate) fn op_names() -> Result<String> {
    let mut raw = ptr::null_mut();
    // SAFETY: valid out-pointer; the shim returns a message or fills `raw`.
    if let Some(message) = unsafe { take_string(tb_aten_op_names(&mut raw)) } {
        return Err(Error::from_torch_message(message));
    }
    // SAFETY: the shim's malloc'ed listing, taken over here.
    Ok(unsafe { take_string(raw) }.unwrap_or_default())
}
