//! Reciprocal condition number estimate, as LAPACK's `?gecon` computes it
//! with `?lacn2` (Hager's method with Higham's refinement), on libtorch solves.

use tch::{Device, Kind, Tensor};

use super::super::dtypes::*;
use super::super::shapes::*;
use crate::ops::numpy;
use crate::Result;

/// Estimates `1 / (||A||_1 ||A^-1||_1)` for each matrix of a batch, given
/// `anorm = ||A||_1` and a solver for `A x = y` (`adjoint = false`) and
/// `A^H x = y` (`adjoint = true`), as LAPACK's `?gecon` does: a few power-like
/// iterations of Hager's method plus Higham's alternating test vector. The
/// estimate of `||A^-1||_1` is a lower bound, usually exact.
pub(crate) fn rcond_estimate(
    anorm: &Tensor,
    n: i64,
    kind: Kind,
    device: Device,
    solve: &dyn Fn(&Tensor, bool) -> Result<Tensor>,
) -> Result<Tensor> {
    let batch = anorm.size();
    let shape = concat(&batch, &[n, 1]);
    let rkind = real_kind(kind);
    let mut x = Tensor::f_full(shape.as_slice(), 1.0 / n as f64, (kind, device))?;
    let mut est = Tensor::f_zeros(batch.as_slice(), (rkind, device))?;
    let abs_sum =
        |y: &Tensor| -> Result<Tensor> { Ok(y.f_abs()?.f_sum_dim_intlist([-2i64, -1].as_slice(), false, rkind)?) };
    for _ in 0..3 {
        let y = solve(&x, false)?;
        est = est.f_maximum(&abs_sum(&y)?)?;
        let sign = if is_complex_kind(kind) {
            let s = y.f_sgn()?;
            s.f_where_scalarother(&y.f_ne(0.0)?, 1.0)?
        } else {
            Tensor::f_where_scalarself(&y.f_ge(0.0)?, 1.0, &Tensor::f_full([1i64].as_slice(), -1.0, (kind, device))?)?
        };
        let z = solve(&sign, true)?;
        let j = z.f_abs()?.f_argmax(-2, true)?;
        x = Tensor::f_zeros(shape.as_slice(), (kind, device))?.f_scatter_value(-2, &j, 1.0)?;
    }
    if n > 1 {
        // Higham's test vector x_i = (-1)^i (1 + i / (n - 1)).
        let i = numpy::arange(n, rkind, device)?;
        let alt_sign =
            Tensor::f_ones([n].as_slice(), (rkind, device))?.f_sub(&i.f_remainder(2.0)?.f_mul_scalar(2.0)?)?;
        let alt = alt_sign.f_mul(&i.f_div_scalar((n - 1) as f64)?.f_add_scalar(1.0)?)?;
        let alt = alt.f_to_kind(kind)?.f_reshape([n, 1])?.f_expand(shape.as_slice(), false)?;
        let y = solve(&alt, false)?;
        est = est.f_maximum(&abs_sum(&y)?.f_mul_scalar(2.0 / (3.0 * n as f64))?)?;
    }
    let product = anorm.f_mul(&est)?;
    // rcond = 0 for a zero matrix, as LAPACK returns.
    Ok(product.f_reciprocal()?.f_where_scalarother(&anorm.f_ne(0.0)?, 0.0)?)
}
