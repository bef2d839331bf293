//! Declarations of `csrc/ni_filters.cpp` (the line loops of SciPy's
//! `ni_filters.c`: `NI_Correlate1D`, `NI_UniformFilter1D`) and their safe
//! wrappers, for `crate::ops::ndimage::filters`.
//!
//! The shim checks every tensor it is given (device, dtype, contiguity,
//! shapes, the map's range) and writes only the `out` tensor it is given,
//! which the callers allocate; nothing here writes the caller's memory.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::Result;

extern "C" {
    fn tb_correlate1d_cpu(
        x: *const C_tensor,
        weights: *const C_tensor,
        map: *const C_tensor,
        cval: f64,
        symmetric: i32,
        out: *mut C_tensor,
    ) -> *mut std::ffi::c_char;
    fn tb_uniform_filter1d_cpu(
        x: *const C_tensor,
        size: i64,
        map: *const C_tensor,
        cval: f64,
        out: *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// `NI_Correlate1D` along the middle axis of `x` (`(outer, n, inner)`,
/// contiguous float32 or float64, CPU) into `out` (`x`'s shape, contiguous
/// float32 or float64, CPU, written whole): `weights` (1-D float64, CPU)
/// correlated with the axis extended by `map` (`n + len(weights) - 1` source
/// indices, -1 for `cval`, which must be exact in `x`'s dtype); `symmetric`
/// is SciPy's test of the weights (1, -1 or 0).
pub(crate) fn correlate1d_cpu(
    x: &Tensor,
    weights: &Tensor,
    map: &Tensor,
    cval: f64,
    symmetric: i32,
    out: &mut Tensor,
) -> Result<()> {
    // SAFETY: the four tensors are live for the call; the shim reads the
    // first three and writes only the data of `out`, borrowed mutably here.
    unsafe { check(tb_correlate1d_cpu(x.as_ptr(), weights.as_ptr(), map.as_ptr(), cval, symmetric, out.as_mut_ptr())) }
}

/// `NI_UniformFilter1D` of `size` along the middle axis of `x` into `out` (as
/// for [`correlate1d_cpu`], `map` holding `n + size - 1` entries).
pub(crate) fn uniform_filter1d_cpu(x: &Tensor, size: i64, map: &Tensor, cval: f64, out: &mut Tensor) -> Result<()> {
    // SAFETY: as in `correlate1d_cpu`.
    unsafe { check(tb_uniform_filter1d_cpu(x.as_ptr(), size, map.as_ptr(), cval, out.as_mut_ptr())) }
}
