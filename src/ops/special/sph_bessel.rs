//! The spherical Bessel functions (SciPy's xsf `sph_bessel.h`): j_n, y_n,
//! i_n, k_n of integer order n and real x, and their derivatives in x, the
//! ufunc loops (`ld->d`, `lf->f`) behind SciPy's Python-level
//! `spherical_jn(n, z, derivative=False)` and its siblings. The scalar kernels
//! (upward recurrences from sin x / x and cos x / x where they are stable,
//! `sqrt(pi / 2x)` times the Bessel functions of order n + 1/2 of
//! `csrc/bessel_kernels.h` elsewhere; derivatives by DLMF 10.51.2) are
//! `csrc/cephes_misc.cpp`'s, CPU loops: input on another device goes to the
//! CPU and back. Not differentiable through autograd (the `_d` forms are the
//! derivatives). Complex z (the `lD->D`, `lF->F` loops): sqrt(pi / 2z) times
//! the complex-argument kernel of order n + 1/2 (`csrc/bessel_complex.h`),
//! with SciPy's special values.

use tch::Tensor;

use super::bessel::complex_arg;
use super::faddeeva::is_complex;
use super::helpers::cephes_misc;
use crate::ffi::bessel::BesselComplexKind;
use crate::ffi::cephes_misc::MiscKind;
use crate::Result;

fn one(kind: MiscKind, n: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        let complex = match kind {
            MiscKind::SphJn => BesselComplexKind::SphJn,
            MiscKind::SphYn => BesselComplexKind::SphYn,
            MiscKind::SphIn => BesselComplexKind::SphIn,
            MiscKind::SphKn => BesselComplexKind::SphKn,
            MiscKind::SphJnD => BesselComplexKind::SphJnD,
            MiscKind::SphYnD => BesselComplexKind::SphYnD,
            MiscKind::SphInD => BesselComplexKind::SphInD,
            _ => BesselComplexKind::SphKnD,
        };
        return complex_arg(n, x, complex);
    }
    Ok(cephes_misc(kind, n, Some(x))?.swap_remove(0))
}

/// j_n(x).
pub(super) fn jn(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphJn, n, x)
}

/// y_n(x).
pub(super) fn yn(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphYn, n, x)
}

/// i_n(x).
pub(super) fn in_(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphIn, n, x)
}

/// k_n(x).
pub(super) fn kn(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphKn, n, x)
}

/// j_n'(x).
pub(super) fn jn_d(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphJnD, n, x)
}

/// y_n'(x).
pub(super) fn yn_d(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphYnD, n, x)
}

/// i_n'(x).
pub(super) fn in_d(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphInD, n, x)
}

/// k_n'(x).
pub(super) fn kn_d(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    one(MiscKind::SphKnD, n, x)
}
