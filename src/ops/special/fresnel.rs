//! The Fresnel integrals (Cephes' `fresnl.c`): `fresnel`, SciPy's `(S, C)`.
//! The scalar kernel (power series, the continued fraction of erfc of
//! complex argument, with the phase reduced exactly) is
//! `csrc/cephes_misc.cpp`'s, a CPU loop: input on another device goes to the
//! CPU and back. Complex input (SciPy's `D->DD`, `F->FF` loops) goes to
//! `csrc/sici_complex_math.h`: power series below |z| = 1, the complex erf
//! (the Faddeeva kernel) beyond. Not differentiable.

use tch::Tensor;

use super::faddeeva::is_complex;
use super::helpers::cephes_misc;
use super::xsf_complex::xsf_complex_pair;
use crate::ffi::cephes_misc::MiscKind;
use crate::ffi::xsf_complex::XsfPair;
use crate::Result;

/// `(S(x), C(x))`, `scipy.special.fresnel` for real x.
pub(super) fn fresnel(x: &Tensor) -> Result<Vec<Tensor>> {
    if is_complex(x)? {
        return xsf_complex_pair(XsfPair::Fresnel, x);
    }
    cephes_misc(MiscKind::Fresnel, x, None)
}
