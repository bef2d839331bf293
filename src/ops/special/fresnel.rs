//! The Fresnel integrals (Cephes' `fresnl.c`): `fresnel`, SciPy's `(S, C)`.
//! The scalar kernel (power series, the continued fraction of erfc of
//! complex argument, with the phase reduced exactly) is
//! `csrc/cephes_misc.cpp`'s, a CPU loop: input on another device goes to the
//! CPU and back. Not differentiable.

use tch::Tensor;

use super::helpers::cephes_misc;
use crate::ffi::cephes_misc::MiscKind;
use crate::Result;

/// `(S(x), C(x))`, `scipy.special.fresnel` for real x.
pub(super) fn fresnel(x: &Tensor) -> Result<Vec<Tensor>> {
    cephes_misc(MiscKind::Fresnel, x, None)
}
