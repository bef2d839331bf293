//! Declaration of `csrc/hypergeometric.cpp` (hyp2f1, hyp1f1, hyp0f1, hyperu,
//! wright_bessel, log_wright_bessel, struve and modstruve of real arguments, one scalar loop per element) and its safe
//! wrapper, for `crate::ops::special::hypergeometric` and
//! `crate::ops::special::struve`.
//!
//! The shim checks the tensors it is given (device, dtype, contiguity, shape,
//! count) and returns a new tensor; nothing here writes the caller's memory.

use std::ptr;

use tch::Tensor;
use torch_sys::C_tensor;

use super::{check, take_tensor};
use crate::Result;

extern "C" {
    fn tb_hypergeometric_cpu(
        inputs: *const *const C_tensor,
        n: i64,
        kind: i64,
        out: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
    fn tb_hypergeometric_complex_cpu(
        inputs: *const *const C_tensor,
        n: i64,
        kind: i64,
        out: *mut *mut C_tensor,
    ) -> *mut std::ffi::c_char;
}

/// The routines of `csrc/hypergeometric.cpp`, as its `Kind` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HypergeometricKind {
    /// `hyp2f1(a, b, c, x)`, four inputs.
    Hyp2f1 = 0,
    /// `hyp0f1(v, x)`, two inputs.
    Hyp0f1 = 1,
    /// `struve(v, x)`, two inputs.
    Struve = 2,
    /// `modstruve(v, x)`, two inputs.
    Modstruve = 3,
    /// `hyp1f1(a, b, x)`, three inputs.
    Hyp1f1 = 4,
    /// `hyperu(a, b, x)`, three inputs.
    Hyperu = 5,
    /// `wright_bessel(a, b, x)`, three inputs.
    WrightBessel = 6,
    /// `log_wright_bessel(a, b, x)`, three inputs.
    LogWrightBessel = 7,
}

/// The routine `kind` of `inputs` (one shape, contiguous float64, CPU, as
/// many as the routine takes), with SciPy's special values.
pub(crate) fn hypergeometric_cpu(inputs: &[&Tensor], kind: HypergeometricKind) -> Result<Tensor> {
    let pointers: Vec<*const C_tensor> = inputs.iter().map(|t| t.as_ptr()).collect();
    let mut out = ptr::null_mut();
    // SAFETY: every tensor of `inputs` is live for the call (the shim only reads
    // them), `pointers` holds `pointers.len()` valid pointers, and the out-pointer
    // is valid for writes.
    unsafe { check(tb_hypergeometric_cpu(pointers.as_ptr(), pointers.len() as i64, kind as i64, &mut out))? };
    // SAFETY: after a successful call `out` is a new tensor nobody owns.
    unsafe { take_tensor(out, "hypergeometric") }
}

/// The complex routines of `csrc/hypergeometric.cpp` (real parameters, a
/// complex argument), as its `ComplexKind` numbers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HypergeometricComplexKind {
    /// `hyp2f1(a, b, c, z)`.
    Hyp2f1 = 0,
    /// `hyp1f1(a, b, z)`.
    Hyp1f1 = 1,
    /// `eval_jacobi(n, alpha, beta, z)`.
    Jacobi = 2,
    /// `eval_gegenbauer(n, alpha, z)`.
    Gegenbauer = 3,
    /// `eval_genlaguerre(n, alpha, z)`.
    Genlaguerre = 4,
    /// `eval_chebyt(n, z)`.
    Chebyt = 5,
    /// `eval_chebyu(n, z)`.
    Chebyu = 6,
    /// `eval_legendre(n, z)`.
    Legendre = 7,
    /// `eval_laguerre(n, z)`.
    Laguerre = 8,
    /// `eval_sh_legendre(n, z)`.
    ShLegendre = 9,
    /// `eval_sh_chebyt(n, z)`.
    ShChebyt = 10,
    /// `eval_sh_chebyu(n, z)`.
    ShChebyu = 11,
}

/// The complex routine `kind` of `inputs` (one shape, contiguous, CPU: the
/// float64 parameters, then the complex128 argument), a new complex128 tensor.
pub(crate) fn hypergeometric_complex_cpu(inputs: &[&Tensor], kind: HypergeometricComplexKind) -> Result<Tensor> {
    let pointers: Vec<*const C_tensor> = inputs.iter().map(|t| t.as_ptr()).collect();
    let mut out = ptr::null_mut();
    // SAFETY: every tensor of `inputs` is live for the call (the shim only reads
    // them), `pointers` holds `pointers.len()` valid pointers, and the out-pointer
    // is valid for writes.
    unsafe { check(tb_hypergeometric_complex_cpu(pointers.as_ptr(), pointers.len() as i64, kind as i64, &mut out))? };
    // SAFETY: after a successful call `out` is a new tensor nobody owns.
    unsafe { take_tensor(out, "hypergeometric (complex)") }
}
