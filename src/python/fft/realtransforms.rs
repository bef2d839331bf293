//! The `scipy.fft._realtransforms` functions: the cosine and sine transforms.
// SciPy's signatures have nine parameters, `device` included.
#![allow(clippy::too_many_arguments)]

use pyo3::prelude::*;

use super::{run, run_nd, Axes, Shape, Truthy, Workers};
use crate::ops::fft::{self as ops, DctOptions, DctType, DctnOptions, Norm};

/// One `#[pyfunction]` per 1-D transform, with scipy.fft's signature:
/// `type` read by `$kind` (`DctType::for_dct`/`for_dst`), then `$op`.
macro_rules! transforms_1d {
    ($($(#[$doc:meta])* $name:ident => $op:path, $kind:path;)*) => {$(
        $(#[$doc])*
        #[doc = ""]
        #[doc = fft_note!()]
        #[pyfunction]
        #[pyo3(
            signature = (x, r#type = 2, n = None, axis = -1, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None),
            text_signature = "(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
        )]
        pub(super) fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            r#type: i64,
            n: Option<i64>,
            axis: i64,
            norm: Norm,
            overwrite_x: Truthy,
            workers: Workers,
            orthogonalize: Option<Truthy>,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            let _hints = (overwrite_x, workers);
            let options = DctOptions { type_: $kind(r#type)?, n, axis, norm, orthogonalize: orthogonalize.map(|o| o.0) };
            run(py, x, device, move |t| $op(t, &options))
        }
    )*};
}

/// One `#[pyfunction]` per n-D transform, with scipy.fft's signature (whose
/// `orthogonalize` is keyword-only in `dctn` alone: `keyword_orthogonalize:`).
macro_rules! transforms_nd {
    (keyword_orthogonalize: $($(#[$doc:meta])* $name:ident => $op:path, $kind:path;)*) => {$(
        transforms_nd!(@define
            [(x, r#type = 2, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, *, orthogonalize = None, device = None)]
            "(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None, device=None)"
            $(#[$doc])* $name => $op, $kind);
    )*};
    (positional_orthogonalize: $($(#[$doc:meta])* $name:ident => $op:path, $kind:path;)*) => {$(
        transforms_nd!(@define
            [(x, r#type = 2, s = None, axes = None, norm = Norm::Backward, overwrite_x = Truthy(false), workers = Workers, orthogonalize = None, *, device = None)]
            "(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, orthogonalize=None, *, device=None)"
            $(#[$doc])* $name => $op, $kind);
    )*};
    (@define [$signature:tt] $text:literal $(#[$doc:meta])* $name:ident => $op:path, $kind:path) => {
        $(#[$doc])*
        #[doc = ""]
        #[doc = fft_note!()]
        #[pyfunction]
        #[pyo3(signature = $signature, text_signature = $text)]
        pub(super) fn $name(
            py: Python<'_>,
            x: &Bound<'_, PyAny>,
            r#type: i64,
            s: Option<Shape>,
            axes: Option<Axes>,
            norm: Norm,
            overwrite_x: Truthy,
            workers: Workers,
            orthogonalize: Option<Truthy>,
            device: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Py<PyAny>> {
            let _hints = (overwrite_x, workers);
            let type_ = $kind(r#type)?;
            let (s, axes) = (s.map(|s| s.0), axes.map(|a| a.0));
            let options =
                DctnOptions { type_, s: s.clone(), axes: axes.clone(), norm, orthogonalize: orthogonalize.map(|o| o.0) };
            run_nd(py, x, &s, &axes, device, move |t| $op(t, &options))
        }
    };
}

transforms_1d! {
    /// Return the Discrete Cosine Transform of arbitrary type sequence x.
    ///
    /// Discrete cosine transform of type 1, 2, 3 or 4 (`scipy.fft.dct`).
    ///
    /// Float32 input stays float32; complex input is transformed part by part.
    /// ``orthogonalize`` (default: True exactly for ``norm="ortho"``) rescales the
    /// end terms so that "ortho" gives an orthonormal transform; as in SciPy it
    /// keeps its default for complex input. DCT-I needs at least 2 points.
    /// Computed from libtorch FFTs (Makhoul's algorithm for types 2 and 3).
    dct => ops::dct, DctType::for_dct;
    /// Return the Inverse Discrete Cosine Transform of an arbitrary type sequence.
    ///
    /// Inverse discrete cosine transform (`scipy.fft.idct`); see :func:`dct`.
    idct => ops::idct, DctType::for_dct;
    /// Return the Discrete Sine Transform of arbitrary type sequence x.
    ///
    /// Discrete sine transform of type 1, 2, 3 or 4 (`scipy.fft.dst`); see :func:`dct`.
    dst => ops::dst, DctType::for_dst;
    /// Return the Inverse Discrete Sine Transform of an arbitrary type sequence.
    ///
    /// Inverse discrete sine transform (`scipy.fft.idst`); see :func:`dct`.
    idst => ops::idst, DctType::for_dst;
}

transforms_nd! {
    keyword_orthogonalize:
    /// Return multidimensional Discrete Cosine Transform along the specified axes.
    ///
    /// N-D discrete cosine transform (`scipy.fft.dctn`): :func:`dct` along
    /// each of `axes` (``s``/``axes`` as in :func:`fftn`).
    dctn => ops::dctn, DctType::for_dct;
}

transforms_nd! {
    positional_orthogonalize:
    /// Return multidimensional Inverse Discrete Cosine Transform along the specified axes.
    ///
    /// N-D inverse discrete cosine transform (`scipy.fft.idctn`).
    idctn => ops::idctn, DctType::for_dct;
    /// Return multidimensional Discrete Sine Transform along the specified axes.
    ///
    /// N-D discrete sine transform (`scipy.fft.dstn`).
    dstn => ops::dstn, DctType::for_dst;
    /// Return multidimensional Inverse Discrete Sine Transform along the specified axes.
    ///
    /// N-D inverse discrete sine transform (`scipy.fft.idstn`).
    idstn => ops::idstn, DctType::for_dst;
}

/// Adds this file's functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(dct, module)?)?;
    module.add_function(wrap_pyfunction!(idct, module)?)?;
    module.add_function(wrap_pyfunction!(dst, module)?)?;
    module.add_function(wrap_pyfunction!(idst, module)?)?;
    module.add_function(wrap_pyfunction!(dctn, module)?)?;
    module.add_function(wrap_pyfunction!(idctn, module)?)?;
    module.add_function(wrap_pyfunction!(dstn, module)?)?;
    module.add_function(wrap_pyfunction!(idstn, module)?)?;
    Ok(())
}
