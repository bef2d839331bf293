//! The 1-D transforms the routines are built from (`torch.fft`'s `fft`,
//! `ifft`, `rfft`, `irfft`, `hfft`, `ihfft` along one axis, with their `n`
//! and `norm`), run through MKL plans kept for reuse (`crate::ffi::dfti`)
//! where that applies: CPU float32/float64 tensors that record no gradient,
//! with a libtorch that has MKL. Elsewhere (CUDA, autograd, empty input) they
//! are libtorch's own ops, which plan on every call: for 1e5 points that
//! planning cost more than the transform itself (see `csrc/dfti.cpp`).
//!
//! Both routes give the same values: the same MKL kernels with the same
//! scale factors (`1/n` or `1/sqrt(n)` in the descriptor, as ATen sets them).

use tch::{Device, Kind, Tensor};

use super::helper::resize_axis;
use crate::ffi::dfti;
use crate::ops::autograd::records_grad;
use crate::ops::linalg::dtypes::{complex_kind, real_kind};
use crate::ops::numpy::normalize_axis;
use crate::Result;

/// `torch.fft.fft(x, n, dim, norm)`.
pub(crate) fn fft(x: &Tensor, n: impl Into<Option<i64>>, dim: i64, norm: &str) -> Result<Tensor> {
    c2c(x, n.into(), dim, norm, true)
}

/// `torch.fft.ifft(x, n, dim, norm)`.
pub(crate) fn ifft(x: &Tensor, n: impl Into<Option<i64>>, dim: i64, norm: &str) -> Result<Tensor> {
    c2c(x, n.into(), dim, norm, false)
}

/// `torch.fft.rfft(x, n, dim, norm)` of real `x`.
pub(crate) fn rfft(x: &Tensor, n: impl Into<Option<i64>>, dim: i64, norm: &str) -> Result<Tensor> {
    let n = n.into();
    // (complex input: libtorch's error)
    let planned = if x.is_complex() { None } else { planned(x, n, dim, |len| len)? };
    let Some((x, axis, points)) = planned else {
        return Ok(x.f_fft_rfft(n, dim, norm)?);
    };
    let kind = complex_kind(x.kind());
    along_last(&x, axis, points / 2 + 1, kind, |rows, out| dfti::r2c(rows, out, points, scale(norm, points, true)))
}

/// `torch.fft.irfft(x, n, dim, norm)` of complex `x` (its Hermitian half):
/// `n` real points, by default `2 * (m - 1)` for `m` input points.
pub(crate) fn irfft(x: &Tensor, n: impl Into<Option<i64>>, dim: i64, norm: &str) -> Result<Tensor> {
    let n = n.into();
    let Some((x, axis, points)) = planned_c2r(x, n, dim)? else {
        return Ok(x.f_fft_irfft(n, dim, norm)?);
    };
    let kind = real_kind(x.kind());
    along_last(&x, axis, points, kind, |rows, out| dfti::c2r(rows, out, points, scale(norm, points, false)))
}

/// `torch.fft.hfft(x, n, dim, norm)`: NumPy's `irfft(conj(x), n, norm=swapped)`.
pub(crate) fn hfft(x: &Tensor, n: impl Into<Option<i64>>, dim: i64, norm: &str) -> Result<Tensor> {
    let n = n.into();
    if !plannable(x) {
        return Ok(x.f_fft_hfft(n, dim, norm)?);
    }
    irfft(&x.f_conj()?, n, dim, swapped(norm))
}

/// `torch.fft.ihfft(x, n, dim, norm)`: NumPy's `conj(rfft(x, n, norm=swapped))`.
pub(crate) fn ihfft(x: &Tensor, n: impl Into<Option<i64>>, dim: i64, norm: &str) -> Result<Tensor> {
    let n = n.into();
    if !plannable(x) || x.is_complex() {
        return Ok(x.f_fft_ihfft(n, dim, norm)?);
    }
    Ok(rfft(x, n, dim, swapped(norm))?.f_conj_physical()?)
}

/// `torch.fft.fftn` (`forward`) or `ifftn` with lengths `shape` along
/// `axes`: along one axis, the planned 1-D transform.
pub(crate) fn c2cn(x: &Tensor, shape: &[i64], axes: &[i64], norm: &str, forward: bool) -> Result<Tensor> {
    match (shape, axes) {
        (&[n], &[axis]) => c2c(x, Some(n), axis, norm, forward),
        _ if forward => Ok(x.f_fft_fftn(shape, axes, norm)?),
        _ => Ok(x.f_fft_ifftn(shape, axes, norm)?),
    }
}

/// `torch.fft.rfftn(x, shape, axes, norm)`: along one axis, the planned 1-D transform.
pub(crate) fn rfftn(x: &Tensor, shape: &[i64], axes: &[i64], norm: &str) -> Result<Tensor> {
    match (shape, axes) {
        (&[n], &[axis]) => rfft(x, n, axis, norm),
        _ => Ok(x.f_fft_rfftn(shape, axes, norm)?),
    }
}

/// `torch.fft.irfftn(x, shape, axes, norm)`: along one axis, the planned 1-D transform.
pub(crate) fn irfftn(x: &Tensor, shape: &[i64], axes: &[i64], norm: &str) -> Result<Tensor> {
    match (shape, axes) {
        (&[n], &[axis]) => irfft(x, n, axis, norm),
        _ => Ok(x.f_fft_irfftn(shape, axes, norm)?),
    }
}

fn c2c(x: &Tensor, n: Option<i64>, dim: i64, norm: &str, forward: bool) -> Result<Tensor> {
    let Some((x, axis, points)) = planned(x, n, dim, |len| len)? else {
        return Ok(if forward { x.f_fft_fft(n, dim, norm)? } else { x.f_fft_ifft(n, dim, norm)? });
    };
    // real input: the complex transform of its complex copy
    let kind = complex_kind(x.kind());
    let x = if x.kind() == kind { x } else { x.f_to_kind(kind)? };
    along_last(&x, axis, points, kind, |rows, out| dfti::c2c(rows, out, points, forward, scale(norm, points, forward)))
}

/// Whether `x` takes the planned route: a non-empty CPU float32/float64 or
/// complex64/128 tensor that records no gradient, MKL's DFTI present.
fn plannable(x: &Tensor) -> bool {
    x.device() == Device::Cpu
        && matches!(x.kind(), Kind::Float | Kind::Double | Kind::ComplexFloat | Kind::ComplexDouble)
        && x.numel() != 0
        && !records_grad(x)
        && dfti::available()
}

/// For the planned route: `x` with plain memory (a lazy conjugate or
/// negation applied) and `input_points(n)` points along `dim` (zero-padded
/// or cut), the axis in `0..ndim`, and the transform's `n` (`x`'s length
/// along `dim` by default). `None`: libtorch's route.
fn planned(
    x: &Tensor,
    n: Option<i64>,
    dim: i64,
    input_points: impl FnOnce(i64) -> i64,
) -> Result<Option<(Tensor, i64, i64)>> {
    if !plannable(x) {
        return Ok(None);
    }
    let axis = normalize_axis(dim, x.dim())? as i64;
    let len = x.size()[axis as usize];
    let points = n.unwrap_or(len);
    if points < 1 {
        return Ok(None); // libtorch's error
    }
    let wanted = input_points(points);
    let x = if wanted == len { x.shallow_clone() } else { resize_axis(x, axis, wanted)? };
    Ok(Some((x.f_resolve_conj()?.f_resolve_neg()?, axis, points)))
}

/// [`planned`] for a complex-to-real transform: `n // 2 + 1` input points
/// for `n` output points, `n` by default `2 * (m - 1)`.
fn planned_c2r(x: &Tensor, n: Option<i64>, dim: i64) -> Result<Option<(Tensor, i64, i64)>> {
    if !plannable(x) || !x.is_complex() {
        return Ok(None);
    }
    let axis = normalize_axis(dim, x.dim())?;
    let points = n.unwrap_or(2 * (x.size()[axis] - 1));
    planned(x, Some(points), dim, |points| points / 2 + 1)
}

/// Runs `transform(rows, out)` on `x` with `axis` moved last and made
/// contiguous, viewed as `[rows, points]`, into a fresh `out` of `kind` and
/// shape `[rows, out_points]`; the result has `axis` back in its place.
fn along_last(
    x: &Tensor,
    axis: i64,
    out_points: i64,
    kind: Kind,
    transform: impl FnOnce(&Tensor, &mut Tensor) -> Result<()>,
) -> Result<Tensor> {
    let last = x.dim() as i64 - 1;
    let moved = if axis == last { x.f_contiguous()? } else { x.f_movedim([axis], [last])?.f_contiguous()? };
    let mut shape = moved.size();
    let points = shape[last as usize];
    let rows = moved.numel() as i64 / points;
    let mut out = Tensor::f_empty([rows, out_points], (kind, Device::Cpu))?;
    transform(&moved.f_view([rows, points])?, &mut out)?;
    shape[last as usize] = out_points;
    let out = out.f_view(shape.as_slice())?;
    Ok(if axis == last { out } else { out.f_movedim([last], [axis])? })
}

/// The factor a transform of `points` points is scaled by under `norm`:
/// `forward` ones by `1/n` for "forward", inverse ones for "backward" (the
/// default), both by `1/sqrt(n)` for "ortho".
fn scale(norm: &str, points: i64, forward: bool) -> f64 {
    match (norm, forward) {
        ("ortho", _) => 1.0 / (points as f64).sqrt(),
        ("forward", true) | ("backward", false) => 1.0 / points as f64,
        _ => 1.0,
    }
}

/// The `norm` of the opposite direction (NumPy's `_swap_direction`).
fn swapped(norm: &str) -> &'static str {
    match norm {
        "forward" => "backward",
        "ortho" => "ortho",
        _ => "forward",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Tensor, b: &Tensor) -> bool {
        a.allclose(b, 1e-12, 1e-12, false)
    }

    /// Every transform, norm, axis and length (padded, cut, odd, even)
    /// against libtorch's own op, and the input left as it was.
    #[test]
    fn planned_transforms_match_libtorch() {
        if !dfti::available() {
            return; // a libtorch without MKL: only libtorch's route exists
        }
        let real = Tensor::randn([3, 7, 5], (Kind::Double, Device::Cpu));
        let complex = Tensor::randn([3, 7, 5], (Kind::ComplexDouble, Device::Cpu));
        let (real_before, complex_before) = (real.copy(), complex.copy());
        for norm in ["backward", "forward", "ortho"] {
            for dim in [-1, 0, 1] {
                for n in [None, Some(1), Some(4), Some(9)] {
                    assert!(close(&rfft(&real, n, dim, norm).unwrap(), &real.fft_rfft(n, dim, norm)));
                    assert!(close(&ihfft(&real, n, dim, norm).unwrap(), &real.fft_ihfft(n, dim, norm)));
                    assert!(close(&fft(&real, n, dim, norm).unwrap(), &real.fft_fft(n, dim, norm)));
                    assert!(close(&fft(&complex, n, dim, norm).unwrap(), &complex.fft_fft(n, dim, norm)));
                    assert!(close(&ifft(&complex, n, dim, norm).unwrap(), &complex.fft_ifft(n, dim, norm)));
                    assert!(close(&irfft(&complex, n, dim, norm).unwrap(), &complex.fft_irfft(n, dim, norm)));
                    assert!(close(&hfft(&complex, n, dim, norm).unwrap(), &complex.fft_hfft(n, dim, norm)));
                }
            }
        }
        assert!(real.equal(&real_before) && complex.equal(&complex_before));
        assert!(dfti::cached() > 0);
    }

    /// float32 stays single precision; a conjugate view is read conjugated.
    #[test]
    fn planned_single_precision_and_conjugate_views() {
        if !dfti::available() {
            return;
        }
        let x = Tensor::randn([4, 64], (Kind::ComplexFloat, Device::Cpu));
        let planned = fft(&x.conj(), None, -1, "backward").unwrap();
        assert_eq!(planned.kind(), Kind::ComplexFloat);
        assert!(planned.allclose(&x.conj().fft_fft(None, -1, "backward"), 1e-4, 1e-4, false));
        let r = Tensor::randn([4, 64], (Kind::Float, Device::Cpu));
        assert_eq!(rfft(&r, None, -1, "backward").unwrap().kind(), Kind::ComplexFloat);
        assert_eq!(irfft(&x, None, -1, "backward").unwrap().kind(), Kind::Float);
    }

    /// A tensor that records a gradient takes libtorch's route and keeps its graph.
    #[test]
    fn recorded_gradients_take_libtorchs_route() {
        let x = Tensor::randn([8], (Kind::Double, Device::Cpu)).set_requires_grad(true);
        let y = rfft(&x, None, -1, "backward").unwrap();
        assert!(y.requires_grad());
    }
}
