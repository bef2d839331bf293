//! The Airy functions (Cephes' `airy.c`, AMOS's `zairy`/`zbiry` for real x):
//! `airy` and `airye`, `(Ai, Ai', Bi, Bi')`. The scalar kernel
//! (`csrc/cephes_misc.cpp`: Maclaurin series near 0, the Bessel functions of
//! orders 1/3 and 2/3 of `csrc/bessel_kernels.h` beyond) is a CPU loop: input
//! on another device goes to the CPU and back. Not differentiable.
//!
//! Complex input (SciPy's `D->DDDD`, `F->FFFF` loops) goes to
//! `csrc/airy_complex.h`: the Maclaurin series for |z| <= 1, beyond it I and K
//! of orders 1/3, 2/3 of complex argument (`csrc/bessel_complex.h`) at zeta =
//! 2/3 z^(3/2) for |ph z| <= pi/3 and, through the connection formulas
//! DLMF 9.2.10-11, at -zeta elsewhere; AMOS's overflow (nan) and underflow (0)
//! rules, as SciPy.

use tch::{Device, Kind, Tensor};

use super::faddeeva::is_complex;
use super::helpers::cephes_misc;
use crate::ffi::bessel::airy_complex_cpu;
use crate::ffi::cephes_misc::MiscKind;
use crate::Result;

/// The four Airy outputs of complex `z` (airye's when `scaled`), on the CPU,
/// the results back on `z`'s device.
fn airy_complex(z: &Tensor, scaled: bool) -> Result<Vec<Tensor>> {
    let device = z.device();
    let host = z.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(Kind::ComplexDouble)?.f_contiguous()?;
    let rows = airy_complex_cpu(&host, scaled)?;
    let shape = z.size();
    (0..4)
        .map(|i| {
            let t = rows.f_select(0, i)?.f_reshape(&shape)?;
            Ok(if device == Device::Cpu { t } else { t.f_to_device(device)? })
        })
        .collect()
}

/// `(Ai, Ai', Bi, Bi')` of real or complex x, `scipy.special.airy` (nan
/// where SciPy's AMOS path gives nan).
pub(super) fn airy(x: &Tensor) -> Result<Vec<Tensor>> {
    if is_complex(x)? {
        return airy_complex(x, false);
    }
    cephes_misc(MiscKind::Airy, x, None)
}

/// `airy`'s exponentially scaled forms, `scipy.special.airye` (complex z:
/// Ai, Ai' times exp(zeta), Bi, Bi' times exp(-|Re zeta|)).
pub(super) fn airye(x: &Tensor) -> Result<Vec<Tensor>> {
    if is_complex(x)? {
        return airy_complex(x, true);
    }
    cephes_misc(MiscKind::Airye, x, None)
}
