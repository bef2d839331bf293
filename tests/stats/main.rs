//! Integration tests of `torchbridge::ops::stats` on tch tensors: the
//! moments, order statistics, ranks and z-scores against direct
//! computations written here, SciPy's nan_policy and small-sample rules,
//! and errors.

mod distributions;
mod inference;
mod nonparametric;
mod stats_py;
