//! `scipy.linalg._cythonized_array_utils`: `bandwidth`, `issymmetric` and
//! `ishermitian`.

use tch::{Kind, Tensor};

use super::dtypes::*;
use super::invalid;
use super::shapes::*;
use crate::ops::dtype;
use crate::{DType, Error, Result};

/// SciPy's Cython structure tests have no half-precision loops (TypeError).
fn refuse_half(routine: &'static str, a: &Tensor) -> Result<()> {
    let d = dtype(a)?;
    if matches!(d, DType::Float16 | DType::BFloat16) {
        return Err(Error::DtypeNotAccepted {
            routine,
            dtype: d,
            accepted: "bool, integer, float32/64 and complex input",
        });
    }
    Ok(())
}

/// `scipy.linalg.bandwidth`: lower and upper bandwidth of each matrix of
/// `(..., N, M)` `a` (int64, batch-shaped).
pub fn bandwidth(a: &Tensor) -> Result<Bandwidth> {
    refuse_half("linalg.bandwidth", a)?;
    let (n, m) = matrix_dims("bandwidth", a).map_err(|_| invalid("Input array must be a 2D NumPy array."))?;
    let batch = batch_of(a, 2);
    let device = a.device();
    if n == 0 || m == 0 {
        let z = Tensor::f_zeros(batch.as_slice(), (Kind::Int64, device))?;
        return Ok(Bandwidth { lower: z.shallow_clone(), upper: z });
    }
    let nonzero = a.f_ne(0.0)?;
    let offset = index_grid(n, m, device, |i, j| i - j)?;
    let lower = offset.f_clamp_min(0)?.f_mul(&nonzero)?.f_amax([-2i64, -1].as_slice(), false)?;
    let upper = offset.f_neg()?.f_clamp_min(0)?.f_mul(&nonzero)?.f_amax([-2i64, -1].as_slice(), false)?;
    Ok(Bandwidth { lower, upper })
}

/// `scipy.linalg.issymmetric` (`hermitian = false`) and `ishermitian`: exact
/// comparison with the (conjugate) transpose, the diagonal not scanned for
/// symmetry; with a tolerance, NumPy's `allclose` of the whole matrix.
/// Returns a bool per matrix.
pub fn issymmetric(a: &Tensor, options: &SymmetryOptions) -> Result<Tensor> {
    symmetric(a, options.atol, options.rtol, false)
}

/// `scipy.linalg.ishermitian`: as [`issymmetric`] with the conjugate transpose.
pub fn ishermitian(a: &Tensor, options: &SymmetryOptions) -> Result<Tensor> {
    symmetric(a, options.atol, options.rtol, true)
}

/// The tolerances of [`issymmetric`] and [`ishermitian`] (`None`: exact comparison).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SymmetryOptions {
    /// `atol`.
    pub atol: Option<f64>,
    /// `rtol`.
    pub rtol: Option<f64>,
}

/// Lower and upper bandwidth of each matrix (int64, batch-shaped).
pub struct Bandwidth {
    /// `lower`.
    pub lower: Tensor,
    /// `upper`.
    pub upper: Tensor,
}

fn symmetric(a: &Tensor, atol: Option<f64>, rtol: Option<f64>, hermitian: bool) -> Result<Tensor> {
    refuse_half("linalg.issymmetric/ishermitian", a)?;
    let (n, m) = matrix_dims("issymmetric", a).map_err(|_| invalid("Input array must be a 2D NumPy array."))?;
    if n != m {
        return Err(invalid("Input array must be square."));
    }
    let batch = batch_of(a, 2);
    if n == 0 {
        return Ok(Tensor::f_ones(batch.as_slice(), (Kind::Bool, a.device()))?);
    }
    let complex = dtype(a)?.is_complex();
    let t = if hermitian && complex { mh(a)?.f_resolve_conj()? } else { a.f_mt()? };
    let close = match (atol, rtol) {
        (None, None) => {
            let equal = a.f_eq_tensor(&t)?;
            if hermitian && complex {
                equal
            } else {
                // the diagonal is not scanned
                let diagonal = Tensor::f_eye(n, (Kind::Bool, a.device()))?;
                equal.f_logical_or(&diagonal)?
            }
        }
        (atol, rtol) => {
            let (atol, rtol) = (atol.unwrap_or(0.0), rtol.unwrap_or(0.0));
            let kind = if complex { Kind::ComplexDouble } else { Kind::Double };
            let (x, y) = (cast(a, kind)?, cast(&t, kind)?);
            let bound = y.f_abs()?.f_mul_scalar(rtol)?.f_add_scalar(atol)?;
            let within = x.f_sub(&y)?.f_abs()?.f_le_tensor(&bound)?;
            // infinities compare equal when identical (numpy.isclose)
            within.f_logical_or(&x.f_eq_tensor(&y)?.f_logical_and(&x.f_isinf()?)?)?
        }
    };
    Ok(close.f_reshape(concat(&batch, &[-1]).as_slice())?.f_all_dim(-1, false)?)
}
