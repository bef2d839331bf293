//! Declaration of `csrc/cephes_misc.cpp` (SciPy's multi-output ufuncs of
//! real argument, one scalar loop per element) and its safe wrapper, for
//! `crate::ops::special`'s `sici`, `fresnel`, `airy`, `ellipj`,
//! `sph_bessel`, `kolmogorov` and `expint` modules.
//!
//! The shim checks the tensors it is given (device, dtype, contiguity, shape)
//! and returns a new tensor; nothing here writes the caller's memory.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_tensor};
use crate::Result;

extern "C" {
    fn tb_cephes_misc_cpu(
        kind: i64,
        x: *const C_tensor,
        y: *const C_tensor,
        out: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// The routines of `csrc/cephes_misc.cpp`, as its `Kind` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MiscKind {
    /// `(si, ci)` of x.
    Sici = 0,
    /// `(shi, chi)` of x.
    Shichi = 1,
    /// `(S, C)` of x.
    Fresnel = 2,
    /// `(Ai, Ai', Bi, Bi')` of x.
    Airy = 3,
    /// airy's exponentially scaled forms.
    Airye = 4,
    /// `(sn, cn, dn, ph)` of u and m.
    Ellipj = 5,
    /// j_n(x) of n (integral, as float64) and x; the others alike.
    SphJn = 6,
    SphYn = 7,
    SphIn = 8,
    SphKn = 9,
    /// j_n'(x); the others alike.
    SphJnD = 10,
    SphYnD = 11,
    SphInD = 12,
    SphKnD = 13,
    /// smirnov(n, d) of n (as float64) and d.
    Smirnov = 14,
    /// smirnovi(n, p).
    Smirnovi = 15,
    /// E1(x), SciPy's real `exp1`.
    Exp1 = 16,
    /// Ei(x), SciPy's real `expi`.
    Expi = 17,
    /// E_n(x) of n (as float64, truncated) and x, SciPy's `expn`.
    Expn = 18,
}

/// The routine `kind` of `x` (and `y` for [`MiscKind::Ellipj`], the
/// spherical Bessel kinds, smirnov and expn, whose `x` is the order; one shape,
/// contiguous float64, CPU): a tensor of shape `[nout, *shape]`, the outputs
/// stacked in SciPy's order.
pub(crate) fn cephes_misc_cpu(kind: MiscKind, x: &Tensor, y: Option<&Tensor>) -> Result<Tensor> {
    let mut out = ptr::null_mut();
    let y = y.map_or(ptr::null(), |y| y.as_ptr());
    // SAFETY: the tensors are live for the call (the shim only reads them; a
    // null `y` is what it expects for the unary kinds); the out-pointer is
    // valid for writes.
    unsafe { check(tb_cephes_misc_cpu(kind as i64, x.as_ptr(), y, &mut out))? };
    // SAFETY: after a successful call `out` is a new tensor nobody owns.
    unsafe { take_tensor(out, "cephes_misc") }
}
