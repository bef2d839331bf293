//! `scipy.ndimage` on `tch::Tensor`s, with SciPy's semantics.
//!
//! The files follow SciPy's private modules: [`filters`] (`_filters.py`: the
//! correlations and convolutions, the uniform, Gaussian, minimum, maximum,
//! rank, median and percentile filters, the derivative filters),
//! [`measurements`] (`_measurements.py`: `label`, `find_objects`) and
//! [`morphology`] (`_morphology.py`: binary and grey morphology, the
//! distance transforms). Arrays are
//! computed on with composites of libtorch ops on the input's device; the
//! boundary extensions are index maps built here (any distance, as SciPy's)
//! and applied with a gather.

mod edt;
pub mod filters;
pub mod interpolation;
pub mod measurements;
pub mod morphology;
