//! The zeta functions (Cephes' `zeta.c`, `zetac.c`): Riemann's and Hurwitz's;
//! Riemann's of complex argument by the kernel of `csrc/zeta_complex_math.h`
//! (Euler-Maclaurin in long double, the reflection for Re s < 0), CPU only.

use std::f64::consts::PI;

use tch::Tensor;

use super::constants::{BORWEIN, STIRLING_GAMMA};
use super::faddeeva::is_complex;
use super::gamma::gamma_nonneg;
use super::helpers::*;
use super::xsf_complex::xsf_complex;
use crate::ffi::xsf_complex::XsfComplex;
use crate::Result;

/// `(2 pi)^-e` for e >= 0, with `e ln(2 pi)` evaluated exactly enough that the
/// result keeps full relative accuracy for large `e` (a plain `pow` loses
/// `e * 4e-17`).
pub(super) fn two_pi_pow_neg(e: &Tensor) -> Result<Tensor> {
    const LN_2PI: f64 = 1.837_877_066_409_345_6;
    const LN_2PI_ERR: f64 = -7.756_588_316_134_483e-17;
    let (hi, lo) = two_product(e, LN_2PI)?;
    let lo = lo.f_add(&e.f_mul_scalar(LN_2PI_ERR)?)?;
    Ok(hi.f_neg()?.f_exp()?.f_mul(&lo.f_neg()?.f_add_scalar(1.0)?)?)
}

/// Riemann's zeta on float64: libtorch's Hurwitz zeta at q = 1 above 1,
/// Borwein's alternating-series algorithm on [-1/2, 1), the functional equation
/// `zeta(s) = 2 (2 pi)^(s-1) sin(pi s / 2) Gamma(1 - s) zeta(1 - s)` below, with
/// `Gamma(1 - s) (2 pi)^(s-1)` from Stirling's series in overflow-safe quarters
/// for s <= -10. Exact zeros at the negative even integers.
pub(super) fn riemann_zeta_f64(s: &Tensor) -> Result<Tensor> {
    // libtorch's zeta has no derivative in `x`: detached, so an `x` that
    // requires grad is refused at the call (the middle branch alone would
    // give a gradient, the others none)
    let s = &s.detach();
    let above = s.f_special_zeta(&s.f_ones_like()?)?;
    let middle = and(&s.f_ge(-0.5)?, &s.f_lt(1.0)?)?;
    let out = patch(above, &middle, &[s], |v| {
        let s = &v[0];
        let mut acc = s.f_zeros_like()?;
        for (k, w) in BORWEIN.iter().enumerate() {
            acc = acc.f_add(&Tensor::f_pow_scalar((k + 1) as f64, &s.f_neg()?)?.f_mul_scalar(*w)?)?;
        }
        Ok(acc.f_div(&s.f_neg()?.f_add_scalar(1.0)?.f_mul_scalar(std::f64::consts::LN_2)?.f_expm1()?)?)
    })?;
    let out = fill(&out, &s.f_eq(0.0)?, -0.5)?; // exactly, as SciPy (the series rounds)
    patch(out, &s.f_lt(-0.5)?, &[s], |v| {
        let s = &v[0];
        let u = s.f_neg()?; // -s > 1/2, exact
        let sine = sinpi(&s.f_mul_scalar(0.5)?)?;
        let zeta_reflected = u.f_add_scalar(1.0)?.f_special_zeta(&u.f_ones_like()?)?;
        // small |s|: direct
        let direct = Tensor::f_pow_scalar(2.0 * PI, &s.f_sub_scalar(1.0)?)?.f_mul(&u)?.f_mul(&gamma_nonneg(&u)?)?;
        // large |s|: (2 pi)^(-u-1) u Gamma(u) = (2 pi)^(-u-1/2) u^(u+1/2) e^-u S(1/u), in quarters
        let u_big = u.f_clamp_min(10.0)?;
        let e = u_big.f_add_scalar(0.5)?.f_mul_scalar(0.25)?;
        let quarter = u_big.f_pow(&e)?.f_mul(&two_pi_pow_neg(&e)?)?.f_mul(&u_big.f_mul_scalar(-0.25)?.f_exp()?)?;
        let series = horner(&u_big.f_reciprocal()?, &STIRLING_GAMMA)?;
        let half = quarter.f_square()?;
        // the small factors (the sine near the even integers) go in between the
        // two halves: `half^2` alone overflows where the product does not
        // (zeta(-260.00000000001) = -5.7e297)
        let small = sine.f_mul_scalar(2.0)?.f_mul(&zeta_reflected)?;
        let stirling = half.f_mul(&small)?.f_mul(&series)?.f_mul(&half)?;
        let direct = small.f_mul(&direct)?;
        let value = pick(&u.f_ge(10.0)?, &stirling, &direct)?;
        let value = fill(&value, &is_integral(&s.f_mul_scalar(0.5)?)?, 0.0)?;
        fill(&value, &s.f_isinf()?, f64::NAN)
    })
}

/// The Hurwitz zeta function on float64: libtorch's kernel (a port of the same
/// Cephes routine SciPy uses), with SciPy's limit 0 at `q = inf`.
pub(super) fn hurwitz_zeta_f64(x: &Tensor, q: &Tensor) -> Result<Tensor> {
    let x = &x.detach(); // differentiable in `q` only (libtorch's zeta)
    let out = x.f_special_zeta(q)?;
    // q > 1e8: the first two terms of Euler-Maclaurin, `(1/(x-1) + 1/(2q)) q^(1-x)`,
    // as SciPy's cephes (libtorch's series underflows its terms to 0 there:
    // zeta(1.75, 1.49e185) = 1.76e-139, not 0)
    let large = and(&q.f_gt(1e8)?, &x.f_gt(1.0)?)?;
    let (xb, qb) = (x.f_expand_as(&out)?, q.f_expand_as(&out)?);
    let out = patch(out, &large, &[&xb, &qb], |v| {
        let (x, q) = (&v[0], &v[1]);
        let lead = x.f_sub_scalar(1.0)?.f_reciprocal()?.f_add(&q.f_mul_scalar(2.0)?.f_reciprocal()?)?;
        Ok(lead.f_mul(&q.f_pow(&x.f_neg()?.f_add_scalar(1.0)?)?)?)
    })?;
    fill(&out, &and(&q.f_isposinf()?, &x.f_gt(1.0)?)?, 0.0)
}

/// Riemann's zeta function, `scipy.special.zeta(x)` (real x): see the module
/// notes; defined on the whole real line as SciPy's (`-0.5` at 0, 0 at the
/// negative even integers, `inf` at 1).
pub(super) fn zeta(x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return xsf_complex("zeta", XsfComplex::Zeta, x);
    }
    riemann_zeta_f64(x)
}

/// The Hurwitz zeta function `sum_k (k + q)^-x`, `scipy.special.zeta(x, q)`
/// (nan for x < 1, as SciPy).
pub(super) fn hurwitz_zeta(x: &Tensor, q: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        // SciPy's complex `_zeta` loops give nan + nanj everywhere
        let nan = x.f_real()?.f_to_kind(tch::Kind::Double)?.f_full_like(f64::NAN)?;
        let nan = nan.f_add(&q.f_to_kind(tch::Kind::Double)?.f_zeros_like()?)?;
        return Ok(Tensor::f_complex(&nan, &nan)?);
    }
    hurwitz_zeta_f64(x, q)
}

/// `zeta(x) - 1`, `scipy.special.zetac`: above 1 the Hurwitz zeta at q = 2
/// (`sum_(k>=2) k^-x`, no cancellation, full relative accuracy where it is
/// `2^-x`), below 1 Riemann's zeta minus 1; nan at -inf, 0 at inf.
pub(super) fn zetac(x: &Tensor) -> Result<Tensor> {
    let two = full(x, 2.0)?;
    let above = x.f_gt(1.0)?;
    let out = riemann_zeta_f64(x)?.f_sub_scalar(1.0)?;
    let out = pick(&above, &hurwitz_zeta_f64(&pick(&above, x, &two)?, &two)?, &out)?;
    let out = fill(&out, &x.f_eq(1.0)?, f64::INFINITY)?;
    // 2^-x underflows beyond 1075 (and libtorch's zeta gives nan from 1e300)
    let out = fill(&out, &x.f_gt(1080.0)?, 0.0)?;
    fill(&out, &x.f_isneginf()?, f64::NAN)
}
