//! The sine and cosine integrals and their hyperbolic counterparts (Cephes'
//! `sici.c`, `shichi.c`): `sici` and `shichi`, two outputs each. The scalar
//! kernels (power series, the continued fraction of E1 of imaginary argument,
//! the asymptotic series of Ei) are `csrc/cephes_misc.cpp`'s, CPU loops: input
//! on another device goes to the CPU and back. Complex input (SciPy's `F->FF`,
//! `D->DD` loops) goes to `csrc/sici_complex_math.h` (series below |z| = 0.8,
//! the complex Ei beyond, SciPy's xsf conventions). Not differentiable.

use tch::Tensor;

use super::faddeeva::is_complex;
use super::helpers::cephes_misc;
use super::xsf_complex::xsf_complex_pair;
use crate::ffi::cephes_misc::MiscKind;
use crate::ffi::xsf_complex::XsfPair;
use crate::Result;

/// `(Si(x), Ci(x))`, `scipy.special.sici` for real x (Ci(x) for x < 0 is the
/// real part Ci(|x|), Ci(0) = -inf, as SciPy).
pub(super) fn sici(x: &Tensor) -> Result<Vec<Tensor>> {
    if is_complex(x)? {
        return xsf_complex_pair(XsfPair::Sici, x);
    }
    cephes_misc(MiscKind::Sici, x, None)
}

/// `(Shi(x), Chi(x))`, `scipy.special.shichi` for real x.
pub(super) fn shichi(x: &Tensor) -> Result<Vec<Tensor>> {
    if is_complex(x)? {
        return xsf_complex_pair(XsfPair::Shichi, x);
    }
    cephes_misc(MiscKind::Shichi, x, None)
}
