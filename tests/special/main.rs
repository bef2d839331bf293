//! Integration tests of `ops::special`: known values (computed with mpmath at
//! 40 digits), SciPy's loop selection and result dtypes, broadcasting, the
//! reductions, and the errors each refusal maps to.
//!
//! One test binary (linking libtorch is paid once), its tests in modules named
//! for what they hold.

mod common;
mod functions;
mod incbet;
mod ufuncs;
mod values;
