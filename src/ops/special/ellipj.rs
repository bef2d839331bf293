//! The Jacobi elliptic functions (Cephes' `ellpj.c`): `ellipj`,
//! `(sn, cn, dn, ph)` of u and the parameter m. The scalar kernel
//! (`csrc/cephes_misc.cpp`: the arithmetic-geometric mean, first-order
//! expansions next to m = 0 and m = 1) is a CPU loop: input on another device
//! goes to the CPU and back. Not differentiable.

use tch::Tensor;

use super::helpers::cephes_misc;
use crate::ffi::cephes_misc::MiscKind;
use crate::Result;

/// `(sn, cn, dn, ph)` of u and m, `scipy.special.ellipj` (nan for m outside [0, 1]).
pub(super) fn ellipj(u: &Tensor, m: &Tensor) -> Result<Vec<Tensor>> {
    cephes_misc(MiscKind::Ellipj, u, Some(m))
}
