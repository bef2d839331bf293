//! Declaration of `csrc/ni_interpolation.cpp` (the point loop of SciPy's
//! `NI_GeometricTransform`: per point the spline weights of every axis, the
//! taps' indices by the boundary mode, the weighted sum of the
//! `(order + 1)^ndim` taps) and its safe wrapper, for
//! `crate::ops::ndimage::interpolation`.
//!
//! The shim checks every tensor it is given (device, dtype, contiguity,
//! shapes, the tables' range) and writes only the `out` tensor it is given,
//! which the caller allocates; nothing here writes the caller's memory.

use tch::Tensor;
use torch_sys::C_tensor;

use super::check;
use crate::{Error, Result};

extern "C" {
    #[allow(clippy::too_many_arguments)]
    fn tb_map_points_cpu(
        src: *const C_tensor,
        coords: *const *const C_tensor,
        tables: *const *const C_tensor,
        ndim: i64,
        order: i64,
        mode: i32,
        cval: f64,
        shift: f64,
        out: *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// Interpolates `src` (`(B, *spatial)`, contiguous float32 or float64, CPU:
/// the spline coefficients of `B` images) at `P` points into `out` (`(B, P)`,
/// contiguous float64, CPU, written whole). `coords`: one 1-D float64 CPU
/// tensor of `P` values per spatial axis (any stride), `shift` (the
/// prefilter's padding) still to be added; `tables`: one contiguous int32 CPU
/// tensor per spatial axis, the input index (-1: `cval`) of every tap
/// position `-(order + 2) .. n + order + 2`; `mode`: the code of
/// `interpolation::Mode::code`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn map_points_cpu(
    src: &Tensor,
    coords: &[Tensor],
    tables: &[Tensor],
    order: i64,
    mode: i32,
    cval: f64,
    shift: f64,
    out: &mut Tensor,
) -> Result<()> {
    if coords.is_empty() || coords.len() != tables.len() {
        return Err(Error::InvalidArgument(format!(
            "map_points: {} coordinate tensors and {} tables (one of each per axis, at least one)",
            coords.len(),
            tables.len()
        )));
    }
    let coord_ptrs: Vec<*const C_tensor> = coords.iter().map(|c| c.as_ptr()).collect();
    let table_ptrs: Vec<*const C_tensor> = tables.iter().map(|t| t.as_ptr()).collect();
    // SAFETY: every tensor is live for the call and the two pointer arrays
    // hold `coords.len()` (== `tables.len()`, the `ndim` passed) valid
    // pointers each, alive until the call returns; the shim reads `src`,
    // the coordinates and the tables, and writes only the data of `out`,
    // borrowed mutably here.
    unsafe {
        check(tb_map_points_cpu(
            src.as_ptr(),
            coord_ptrs.as_ptr(),
            table_ptrs.as_ptr(),
            coords.len() as i64,
            order,
            mode,
            cval,
            shift,
            out.as_mut_ptr(),
        ))
    }
}
