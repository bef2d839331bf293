//! `scipy.fft` counterparts: discrete Fourier, cosine and sine transforms.
//!
//! Every routine follows `scipy.fft` (SciPy 1.17): the same dtype rules
//! (float16 computes in float32; bool, integers and bfloat16 in float64;
//! float32/complex64 stay single precision), the same handling of `n`/`s`
//! (zero padding or truncation), `axis`/`axes` and `norm`, and the same
//! errors. The Fourier transforms are libtorch's `torch.fft` kernels (on the
//! CPU, their 1-D forms run MKL's with plans kept for reuse, where libtorch
//! would plan on every call); the cosine and sine transforms are composites
//! of them (libtorch has no DCT/DST), computed on the input's device.
//!
//! The files follow SciPy's private modules: `basic` holds the
//! Fourier transforms (`scipy/fft/_basic.py`), `realtransforms` the cosine
//! and sine transforms (`_realtransforms.py`), `helper` the frequencies,
//! shifts, fast lengths and the shape/axes planning (`_helper.py`); `plans`
//! the 1-D transforms all of them are built from.
//!
//! Options are structs with SciPy's defaults:
//!
//! ```no_run
//! use tch::{Device, Kind, Tensor};
//! use torchbridge::ops::fft::{self, DctOptions, DctType, FftOptions, FftnOptions, Norm};
//!
//! let x = Tensor::randn([4, 6], (Kind::Double, Device::Cpu));
//! let spectrum = fft::fft(&x, &FftOptions::default())?; // scipy.fft.fft(x)
//! let padded = fft::rfft(&x, &FftOptions { n: Some(16), norm: Norm::Ortho, ..Default::default() })?;
//! let image = fft::fftn(&x, &FftnOptions::two_d())?; // scipy.fft.fft2(x)
//! let cosine = fft::dct(&x, &DctOptions { type_: DctType::IV, axis: 0, ..Default::default() })?;
//! # Ok::<(), torchbridge::Error>(())
//! ```
//!
//! A routine never writes into its input and returns a fresh tensor, except
//! where SciPy returns its input unchanged (an n-D transform over no axes).

mod basic;
mod helper;
pub(crate) mod plans;
mod realtransforms;

use std::str::FromStr;

pub use basic::{
    fft, fftn, hfft, hfftn, ifft, ifftn, ihfft, ihfftn, irfft, irfftn, rfft, rfftn, FftOptions, FftnOptions,
};
pub use helper::{
    fftfreq, fftfreq_scaled, fftshift, ifftshift, nd_shape_and_axes, next_fast_len, prev_fast_len, rfftfreq,
    rfftfreq_scaled, LengthFor, NdPlan,
};
pub use realtransforms::{dct, dctn, dst, dstn, idct, idctn, idst, idstn, DctOptions, DctType, DctnOptions};

use crate::{Error, Result};

/// The `norm` option of every `scipy.fft` transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Norm {
    /// No scaling on the forward transform, `1/n` on the inverse (SciPy's default, `None`).
    #[default]
    Backward,
    /// `1/sqrt(n)` on both directions: the transforms are unitary.
    Ortho,
    /// `1/n` on the forward transform, none on the inverse.
    Forward,
}

impl FromStr for Norm {
    type Err = Error;

    /// `"backward"`, `"ortho"` or `"forward"`, with SciPy's message otherwise.
    fn from_str(name: &str) -> Result<Norm> {
        match name {
            "backward" => Ok(Norm::Backward),
            "ortho" => Ok(Norm::Ortho),
            "forward" => Ok(Norm::Forward),
            other => Err(Norm::invalid(&format!("'{other}'"))),
        }
    }
}

impl Norm {
    /// Parses SciPy's `norm` argument: `None`, `"backward"`, `"ortho"` or `"forward"`.
    pub fn from_scipy(norm: Option<&str>) -> Result<Norm> {
        norm.map_or(Ok(Norm::Backward), str::parse)
    }

    /// SciPy's error for a `norm` value, given as Python's `repr` of it.
    pub fn invalid(repr: &str) -> Error {
        Error::InvalidArgument(format!("Invalid norm value {repr}, should be \"backward\", \"ortho\" or \"forward\""))
    }

    /// The name `torch.fft` uses for the same convention.
    pub fn name(self) -> &'static str {
        match self {
            Norm::Backward => "backward",
            Norm::Ortho => "ortho",
            Norm::Forward => "forward",
        }
    }

    /// The same convention seen from the other direction (SciPy's
    /// `_normalization(norm, forward=False)`): an inverse transform with
    /// `Backward` scales like a forward transform with `Forward`.
    fn swapped(self) -> Norm {
        match self {
            Norm::Backward => Norm::Forward,
            Norm::Ortho => Norm::Ortho,
            Norm::Forward => Norm::Backward,
        }
    }

    /// The factor a forward-sense transform of logical length `length` is scaled by.
    fn factor(self, length: i64) -> f64 {
        match self {
            Norm::Backward => 1.0,
            Norm::Ortho => 1.0 / (length as f64).sqrt(),
            Norm::Forward => 1.0 / length as f64,
        }
    }
}
