//! Integration tests of `ops::linalg` on tch tensors: known values, dtype
//! rules, error kinds. (SciPy comparisons live in tests/python/linalg/.)
//!
//! One test binary (linking libtorch is paid once), its tests in modules named
//! after SciPy's (`basic`, `decomp`, `decomp_lu`, `matfuncs`, `misc`,
//! `special_matrices`) and the checks across the family (`dtypes`, `bad_input`).

mod bad_input;
mod basic;
mod common;
mod decomp;
mod decomp_lu;
mod dtypes;
mod matfuncs;
mod misc;
mod special_matrices;
