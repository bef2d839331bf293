//! Integration tests of `torchbridge::ops::signal` on tch tensors: values
//! against SciPy 1.17.1 (computed in the tests from closed forms, or quoted
//! where stated), identities, shapes and errors.
//!
//! One test binary (linking libtorch is paid once), its tests in modules
//! named after the ops' files.

mod convolve;
mod filter_design;
mod fir_filter_design;
mod lfilter;
mod order_filter;
mod savitzky_golay;
mod spectral;
mod waveforms;
mod windows;
