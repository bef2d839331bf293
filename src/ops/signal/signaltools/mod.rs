//! SciPy's `_signaltools.py`, one file per group of routines.

pub mod convolve;
pub mod deconvolve;
pub mod detrend;
pub mod hilbert;
pub mod lfilter;
pub mod order_filter;
pub mod resample;
