//! The sine and cosine integrals and their hyperbolic counterparts (Cephes'
//! `sici.c`, `shichi.c`): `sici` and `shichi`, two outputs each. The scalar
//! kernels (power series, the continued fraction of E1 of imaginary argument,
//! the asymptotic series of Ei) are `csrc/cephes_misc.cpp`'s, CPU loops: input
//! on another device goes to the CPU and back. Not differentiable.

use tch::Tensor;

use super::helpers::cephes_misc;
use crate::ffi::cephes_misc::MiscKind;
use crate::Result;

/// `(Si(x), Ci(x))`, `scipy.special.sici` for real x (Ci(x) for x < 0 is the
/// real part Ci(|x|), Ci(0) = -inf, as SciPy).
pub(super) fn sici(x: &Tensor) -> Result<Vec<Tensor>> {
    cephes_misc(MiscKind::Sici, x, None)
}

/// `(Shi(x), Chi(x))`, `scipy.special.shichi` for real x.
pub(super) fn shichi(x: &Tensor) -> Result<Vec<Tensor>> {
    cephes_misc(MiscKind::Shichi, x, None)
}
