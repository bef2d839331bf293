//! Ports of the LAPACK routines libtorch does not expose, and the estimates
//! LAPACK computes beside its drivers.

mod gebal;
mod gecon;

pub(crate) use gebal::gebal;
pub(crate) use gecon::rcond_estimate;
