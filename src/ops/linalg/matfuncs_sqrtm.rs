//! `scipy.linalg._matfuncs_sqrtm`: the matrix square root by the Schur
//! method (Björck & Hammarling 1983; Higham 1987 for real input).
//!
//! The Schur form is computed on the host (`decomp_schur`): real input goes
//! through its real Schur form made complex by `rsf2csf`, the triangular
//! square root is formed column by column in complex arithmetic, and
//! `Z R Z^H` is multiplied back with libtorch on the input's device. Real
//! input with no eigenvalue on the negative real axis gives a real result
//! (the real part: the imaginary one is rounding), as SciPy's real-Schur
//! path does; otherwise complex.

use tch::{Kind, Tensor};

use super::decomp_schur::{real_schur_host, rsf2csf_host, to_complex, SchurPair};
use super::dtypes::*;
use super::host;
use super::lapack::{Dense, C64};
use super::shapes::*;
use crate::ops::dtype;
use crate::{DType, Error, Result};

/// The upper triangular square root of upper triangular `t` (principal
/// branch on the diagonal). A zero denominator with a zero numerator gives
/// zero (SciPy's rule for singular `t`), otherwise the division's infinity.
pub(crate) fn sqrtm_triu(t: &Dense<C64>) -> Dense<C64> {
    let n = t.n;
    let mut r = Dense::zeros(n);
    for i in 0..n {
        *r.at_mut(i, i) = t.at(i, i).sqrt();
    }
    for j in 0..n {
        for i in (0..j).rev() {
            let mut s = t.at(i, j);
            for k in i + 1..j {
                s -= r.at(i, k) * r.at(k, j);
            }
            let den = r.at(i, i) + r.at(j, j);
            *r.at_mut(i, j) = if den == C64::default() && s == C64::default() { C64::default() } else { s / den };
        }
    }
    r
}

/// The complex Schur forms of the matrices of real `a` by way of their real
/// Schur forms, and whether some matrix has a real negative eigenvalue (a
/// 1x1 block below zero).
pub(crate) fn real_to_complex_schur(a: &Tensor) -> Result<(Vec<SchurPair>, bool)> {
    let mut negative = false;
    let mut out = Vec::new();
    for m in host::real_mats(a)? {
        let (t, z) = real_schur_host(&m)?;
        let n = t.n;
        for i in 0..n {
            let isolated = (i == 0 || t.at(i, i - 1) == 0.0) && (i + 1 == n || t.at(i + 1, i) == 0.0);
            if isolated && t.at(i, i) < 0.0 {
                negative = true;
            }
        }
        let (mut t, mut z) = (to_complex(&t), to_complex(&z));
        rsf2csf_host(&mut t, &mut z);
        out.push((t, z));
    }
    Ok((out, negative))
}

/// `Z F Z^H` for the host matrices, as one `(batch..., n, n)` complex128
/// tensor on `device`.
pub(crate) fn unschur(
    parts: &[(Dense<C64>, Dense<C64>)],
    f: &[Dense<C64>],
    batch: &[i64],
    device: tch::Device,
) -> Result<Tensor> {
    let z: Vec<Dense<C64>> = parts.iter().map(|(_, z)| z.clone()).collect();
    let z = host::from_complex(&z, batch, Kind::ComplexDouble, device)?;
    let f = host::from_complex(f, batch, Kind::ComplexDouble, device)?;
    Ok(z.f_matmul(&f)?.f_matmul(&mh(&z)?)?)
}

/// `scipy.linalg.sqrtm`'s result: `X` and the warnings SciPy gives.
pub struct Sqrtm {
    /// `X` with `X @ X = A`.
    pub x: Tensor,
    /// Some matrix is exactly singular (a zero eigenvalue): SciPy's LinAlgWarning.
    pub singular: bool,
}

/// `scipy.linalg.sqrtm` for square `(..., n, n)` `a`: dtypes as SciPy
/// (integers give float64, float16 float32; real input stays real unless
/// some eigenvalue is real and negative, then the whole batch is complex;
/// float32/complex64 keep their precision in the result, computed in
/// float64/complex128). The 1x1 case is NumPy's `emath.sqrt`.
pub fn sqrtm(a: &Tensor) -> Result<Sqrtm> {
    if a.dim() < 2 {
        return Err(Error::LinAlg("The input array must be at least two-dimensional".into()));
    }
    let s = a.size();
    let n = s[s.len() - 1];
    if s[s.len() - 2] != n {
        return Err(Error::LinAlg("Last 2 dimensions of the array must be square".into()));
    }
    let d = dtype(a)?;
    let kind = match d {
        DType::Float16 => Kind::Float,
        DType::Float32 => Kind::Float,
        DType::Complex64 => Kind::ComplexFloat,
        DType::Complex128 => Kind::ComplexDouble,
        _ => Kind::Double,
    };
    let complex_in = is_complex_kind(kind);
    let device = a.device();
    if a.numel() == 0 {
        return Ok(Sqrtm { x: Tensor::f_zeros(s.as_slice(), (kind, device))?, singular: false });
    }
    let a = cast(a, kind)?;
    let batch = batch_of(&a, 2);
    if n == 1 {
        // np.emath.sqrt: complex when some entry is real and negative
        let negative = !complex_in && any(&a.f_lt(0.0)?)?;
        let x = if negative { a.f_to_kind(complex_kind(kind))?.f_sqrt()? } else { a.f_sqrt()? };
        let singular = any(&a.f_eq(0.0)?)?;
        return Ok(Sqrtm { x, singular });
    }
    let (parts, negative) = if complex_in {
        (super::decomp_schur::complex_schur_of(&a)?.into_iter().collect::<Vec<_>>(), false)
    } else {
        real_to_complex_schur(&a)?
    };
    let singular = parts.iter().any(|(t, _)| (0..t.n).any(|i| t.at(i, i) == C64::default()));
    let roots: Vec<Dense<C64>> = parts.iter().map(|(t, _)| sqrtm_triu(t)).collect();
    let x = unschur(&parts, &roots, &batch, device)?;
    let x = if complex_in || negative { x.f_to_kind(complex_kind(kind))? } else { x.f_real()?.f_to_kind(kind)? };
    Ok(Sqrtm { x: x.f_contiguous()?, singular })
}
