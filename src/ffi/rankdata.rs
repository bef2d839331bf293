//! Declaration of `csrc/rankdata.cpp` (`scipy.stats.rankdata` on the rows of
//! a CPU tensor: a radix sort and one pass over the ties) and its safe
//! wrapper, for `crate::ops::stats`.
//!
//! The shim checks the tensor it is given (device, dtype, contiguity) and
//! returns a new tensor; nothing here writes the caller's memory.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_tensor};
use crate::ops::stats::stats_py::RankMethod;
use crate::Result;

extern "C" {
    fn tb_rankdata_cpu(x: *const C_tensor, method: i32, out: *mut *mut C_tensor) -> *mut std::ffi::c_char;
}

/// `rankdata` of every row of `x` (`(rows, len)`, contiguous float64 or
/// int64, CPU): float64 ranks for [`RankMethod::Average`], int64 otherwise.
/// NaNs rank last and tie with each other (the caller's NaN policy replaces
/// their ranks).
pub(crate) fn rankdata_cpu(x: &Tensor, method: RankMethod) -> Result<Tensor> {
    // the codes of csrc/rankdata.cpp's `Method`
    let code = match method {
        RankMethod::Average => 0,
        RankMethod::Min => 1,
        RankMethod::Max => 2,
        RankMethod::Dense => 3,
        RankMethod::Ordinal => 4,
    };
    let mut out = ptr::null_mut();
    // SAFETY: `x` is live for the call (the shim only reads it); the
    // out-pointer is valid for writes.
    unsafe { check(tb_rankdata_cpu(x.as_ptr(), code, &mut out))? };
    // SAFETY: after a successful call `out` is null or a new `at::Tensor` nobody owns.
    unsafe { take_tensor(out, "rankdata") }
}
