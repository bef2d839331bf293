//! Integration tests of `torchbridge::ops::fft` on tch tensors: known values
//! (from SciPy 1.17.1), identities (orthonormality, inverses), dtypes,
//! shapes and errors.
//!
//! One test binary (linking libtorch is paid once), its tests in modules named
//! after SciPy's (`basic`, `realtransforms`, `helper`) and the checks across
//! the family (`inputs`, `errors`).

mod basic;
mod common;
mod errors;
mod helper;
mod inputs;
mod realtransforms;
