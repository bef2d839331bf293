//! The `scipy.fft._basic` functions: the Fourier transforms in 1-D, 2-D and n-D.
// SciPy's signatures have eight parameters, `device` included.
#![allow(clippy::too_many_arguments)]

use pyo3::prelude::*;
use tch::Tensor;

use super::{last_two, run, run_nd, Axes, NoPlan, Shape, Truthy, Workers};
use crate::ops::fft::{self as ops, FftOptions, FftnOptions, Norm};
use crate::Result;

type OneD = fn(&Tensor, &FftOptions) -> Result<Tensor>;
type NDim = fn(&Tensor, &FftnOptions) -> Result<Tensor>;

/// A 1-D transform of `x` with parsed options.
fn one_d(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    options: FftOptions,
    device: Option<&Bound<'_, PyAny>>,
    op: OneD,
) -> PyResult<Py<PyAny>> {
    run(py, x, device, move |t| op(t, &options))
}

/// An n-D transform of `x` with parsed options. The complex transforms
/// (`identity_when_empty`) return `x` itself when there are no axes, as SciPy;
/// the real ones refuse that.
fn n_d(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    options: FftnOptions,
    identity_when_empty: bool,
    device: Option<&Bound<'_, PyAny>>,
    op: NDim,
) -> PyResult<Py<PyAny>> {
    if identity_when_empty {
        let (s, axes) = (options.s.clone(), options.axes.clone());
        run_nd(py, x, &s, &axes, device, move |t| op(t, &options))
    } else {
        run(py, x, device, move |t| op(t, &options))
    }
}

/// One `#[pyfunction]` per 1-D transform, with scipy.fft's signature: the
/// options parsed in Rust, then `$op` on the imported array.
macro_rules! transforms_1d {
    ($($(#[$doc:meta])* $name:ident => $op:path;)*) => {$(
        $(#[$doc])*
        #[doc = ""]
        #[doc = fft_note!()]
        #[pyfunction]
        #[pyo3(
            signature = (x, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
            text_signature = "(x, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"
        )]
        pub(super) fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            n: Option<i64>,
            axis: i64,
            norm: Norm,
            overwrite_x: Truthy,
            workers: Workers,
            plan: NoPlan,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            let _hints = (overwrite_x, workers, plan);
            one_d(py, x, FftOptions { n, axis, norm }, device, $op)
        }
    )*};
}

/// One `#[pyfunction]` per 2-D transform (`two:`, `axes` defaults to the last
/// two) or n-D transform (`all:`, `axes` defaults to all), with scipy.fft's
/// signature; `identity_when_empty` as in [`n_d`].
macro_rules! transforms_nd {
    (two: $($(#[$doc:meta])* $name:ident => $op:path, identity_when_empty = $identity:literal;)*) => {$(
        transforms_nd!(@define [last_two(), "(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"] $(#[$doc])* $name => $op, $identity);
    )*};
    (all: $($(#[$doc:meta])* $name:ident => $op:path, identity_when_empty = $identity:literal;)*) => {$(
        transforms_nd!(@define [None, "(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, device=None)"] $(#[$doc])* $name => $op, $identity);
    )*};
    (@define [$axes:expr, $text:literal] $(#[$doc:meta])* $name:ident => $op:path, $identity:literal) => {
        $(#[$doc])*
        #[doc = ""]
        #[doc = fft_note!()]
        #[pyfunction]
        #[pyo3(
            signature = (x, s = None, axes = $axes, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, plan = NoPlan, device = None),
            text_signature = $text
        )]
        pub(super) fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            s: Option<Shape>,
            axes: Option<Axes>,
            norm: Norm,
            overwrite_x: Truthy,
            workers: Workers,
            plan: NoPlan,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            let _hints = (overwrite_x, workers, plan);
            let options = FftnOptions { s: s.map(|s| s.0), axes: axes.map(|a| a.0), norm };
            n_d(py, x, options, $identity, device, $op)
        }
    };
}

transforms_1d! {
    /// Compute the 1-D discrete Fourier Transform.
    ///
    /// 1-D discrete Fourier transform (`scipy.fft.fft`).
    ///
    /// ``n`` zero-pads or truncates `x` along `axis`; ``norm`` is "backward"
    /// (default, no scaling), "ortho" or "forward". Real input gives a complex
    /// result of matching precision. ``overwrite_x`` and ``workers`` are accepted
    /// hints without effect; ``plan`` must be None.
    fft => ops::fft;
    /// Compute the 1-D inverse discrete Fourier Transform.
    ///
    /// 1-D inverse discrete Fourier transform (`scipy.fft.ifft`); see :func:`fft`.
    ifft => ops::ifft;
    /// Compute the 1-D discrete Fourier Transform for real input.
    ///
    /// 1-D transform of real input (`scipy.fft.rfft`): the ``n//2 + 1``
    /// non-negative frequency terms. Complex input raises TypeError.
    rfft => ops::rfft;
    /// Computes the inverse of `rfft`.
    ///
    /// Inverse of :func:`rfft` (`scipy.fft.irfft`): a real result of length
    /// ``n`` (default ``2*(m-1)`` for ``m`` input points).
    irfft => ops::irfft;
    /// Compute the FFT of a signal that has Hermitian symmetry, i.e., a real spectrum.
    ///
    /// FFT of a Hermitian-symmetric signal (`scipy.fft.hfft`): a real result
    /// of length ``n`` (default ``2*(m-1)``).
    hfft => ops::hfft;
    /// Compute the inverse FFT of a signal that has Hermitian symmetry.
    ///
    /// Inverse of :func:`hfft` for real input (`scipy.fft.ihfft`).
    ihfft => ops::ihfft;
}

transforms_nd! {
    two:
    /// Compute the 2-D discrete Fourier Transform
    ///
    /// 2-D discrete Fourier transform (`scipy.fft.fft2`): :func:`fftn` over `axes`.
    fft2 => ops::fftn, identity_when_empty = true;
    /// Compute the 2-D inverse discrete Fourier Transform.
    ///
    /// 2-D inverse discrete Fourier transform (`scipy.fft.ifft2`).
    ifft2 => ops::ifftn, identity_when_empty = true;
    /// Compute the 2-D FFT of a real array.
    ///
    /// 2-D transform of real input (`scipy.fft.rfft2`).
    rfft2 => ops::rfftn, identity_when_empty = false;
    /// Computes the inverse of `rfft2`
    ///
    /// Inverse of :func:`rfft2` (`scipy.fft.irfft2`).
    irfft2 => ops::irfftn, identity_when_empty = false;
    /// Compute the 2-D FFT of a Hermitian complex array.
    ///
    /// 2-D FFT of a Hermitian-symmetric signal (`scipy.fft.hfft2`).
    hfft2 => ops::hfftn, identity_when_empty = false;
    /// Compute the 2-D inverse FFT of a real spectrum.
    ///
    /// Inverse of :func:`hfft2` for real input (`scipy.fft.ihfft2`).
    ihfft2 => ops::ihfftn, identity_when_empty = false;
}

transforms_nd! {
    all:
    /// Compute the N-D discrete Fourier Transform.
    ///
    /// N-D discrete Fourier transform (`scipy.fft.fftn`).
    ///
    /// ``s`` (lengths, ``-1`` keeps the input's) and ``axes`` (default: all, or
    /// the last ``len(s)``) as in SciPy; axes must be unique. With no axes to
    /// transform the input is returned as is.
    fftn => ops::fftn, identity_when_empty = true;
    /// Compute the N-D inverse discrete Fourier Transform.
    ///
    /// N-D inverse discrete Fourier transform (`scipy.fft.ifftn`); see :func:`fftn`.
    ifftn => ops::ifftn, identity_when_empty = true;
    /// Compute the N-D discrete Fourier Transform for real input.
    ///
    /// N-D transform of real input (`scipy.fft.rfftn`): the last axis keeps
    /// ``s[-1]//2 + 1`` non-negative frequencies.
    rfftn => ops::rfftn, identity_when_empty = false;
    /// Computes the inverse of `rfftn`
    ///
    /// Inverse of :func:`rfftn` (`scipy.fft.irfftn`): real output, the last
    /// axis ``2*(m-1)`` long unless ``s`` says otherwise.
    irfftn => ops::irfftn, identity_when_empty = false;
    /// Compute the N-D FFT of Hermitian symmetric complex input, i.e., a signal with a real spectrum.
    ///
    /// N-D FFT of a Hermitian-symmetric signal (`scipy.fft.hfftn`): real output.
    hfftn => ops::hfftn, identity_when_empty = false;
    /// Compute the N-D inverse discrete Fourier Transform for a real spectrum.
    ///
    /// Inverse of :func:`hfftn` for real input (`scipy.fft.ihfftn`).
    ihfftn => ops::ihfftn, identity_when_empty = false;
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(fft, module)?)?;
    module.add_function(wrap_pyfunction!(ifft, module)?)?;
    module.add_function(wrap_pyfunction!(rfft, module)?)?;
    module.add_function(wrap_pyfunction!(irfft, module)?)?;
    module.add_function(wrap_pyfunction!(hfft, module)?)?;
    module.add_function(wrap_pyfunction!(ihfft, module)?)?;
    module.add_function(wrap_pyfunction!(fft2, module)?)?;
    module.add_function(wrap_pyfunction!(ifft2, module)?)?;
    module.add_function(wrap_pyfunction!(fftn, module)?)?;
    module.add_function(wrap_pyfunction!(ifftn, module)?)?;
    module.add_function(wrap_pyfunction!(rfft2, module)?)?;
    module.add_function(wrap_pyfunction!(irfft2, module)?)?;
    module.add_function(wrap_pyfunction!(rfftn, module)?)?;
    module.add_function(wrap_pyfunction!(irfftn, module)?)?;
    module.add_function(wrap_pyfunction!(hfft2, module)?)?;
    module.add_function(wrap_pyfunction!(ihfft2, module)?)?;
    module.add_function(wrap_pyfunction!(hfftn, module)?)?;
    module.add_function(wrap_pyfunction!(ihfftn, module)?)?;
    Ok(())
}
