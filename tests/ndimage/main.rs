//! Integration tests of `torchbridge::ops::ndimage` on tch tensors: the
//! boundary index maps, values quoted from SciPy 1.17.1, dtypes and errors.
//!
//! One test binary (linking libtorch is paid once), its tests in modules
//! named after the ops' files.

mod filters;
mod interpolation;
mod measurements;
mod morphology;
