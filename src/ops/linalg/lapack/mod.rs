//! Ports of the LAPACK routines libtorch does not expose, and the estimates
//! LAPACK computes beside its drivers.

mod gebal;
mod gecon;
mod geqp3;
mod hqr;
pub(crate) mod qr_update;
mod qz;
mod qz_real;
mod scalar;

pub(crate) use gebal::gebal;
pub(crate) use gecon::rcond_estimate;
pub(crate) use geqp3::geqp3_pivots;
pub(crate) use hqr::{gehrd, lahqr_complex, lahqr_real, trexc_complex};
pub(crate) use qz::{gghrd, hgeqz_complex, normalize_beta, tgevc_complex, tgexc_complex};
pub(crate) use qz_real::{block_size, hgeqz_real, real_eigenvalues, tgexc_real};
pub(crate) use scalar::{Dense, Scalar, C64};
