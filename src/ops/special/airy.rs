//! The Airy functions (Cephes' `airy.c`, AMOS's `zairy`/`zbiry` for real x):
//! `airy` and `airye`, `(Ai, Ai', Bi, Bi')`. The scalar kernel
//! (`csrc/cephes_misc.cpp`: Maclaurin series near 0, the Bessel functions of
//! orders 1/3 and 2/3 of `csrc/bessel_kernels.h` beyond) is a CPU loop: input
//! on another device goes to the CPU and back. Not differentiable.

use tch::Tensor;

use super::helpers::cephes_misc;
use crate::ffi::cephes_misc::MiscKind;
use crate::Result;

/// `(Ai, Ai', Bi, Bi')` of real x, `scipy.special.airy` (nan where SciPy's
/// AMOS path gives nan).
pub(super) fn airy(x: &Tensor) -> Result<Vec<Tensor>> {
    cephes_misc(MiscKind::Airy, x, None)
}

/// `airy`'s exponentially scaled forms, `scipy.special.airye` for real x.
pub(super) fn airye(x: &Tensor) -> Result<Vec<Tensor>> {
    cephes_misc(MiscKind::Airye, x, None)
}
