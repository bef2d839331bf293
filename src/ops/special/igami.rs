//! The inverses of the regularized incomplete gamma functions (Cephes'
//! `igami.c`, the seam of SciPy's `gammaincinv`/`gammainccinv`) and the
//! quantiles built on them (`chdtr.c`, `pdtr.c`): gammaincinv, gammainccinv,
//! chdtri, pdtri.
//!
//! An initial guess (Wilson-Hilferty for `a > 1`, the small-`x` power law and
//! the exponential tail below, as Numerical Recipes' `invgammp`), then
//! safeguarded Newton steps on `log x` with the residual `log F - log p`, `F`
//! whichever of `P(a, x)` and `Q(a, x)` is matched against the smaller of `p`
//! and `q = 1 - p`, and a geometric bisection where a step leaves the bracket
//! (as `incbi`).
//!
//! The iterations' own derivative is NaN where a step the `where`s discard
//! overflowed (measured by gradcheck), so they run on detached inputs and the
//! derivative in `y` comes in closed form, `dx/dy = +-Gamma(a) e^x x^(1-a)`
//! ([`with_derivatives`]); in `a` there is none (libtorch has no derivative of
//! `gammainc` in `a`), so a caller's `a` that requires grad gets the Python
//! layer's `NotDifferentiableError` (as `incbi`'s).

use tch::Tensor;

use super::gammainc::gammainc_f64;
use super::helpers::*;
use super::incbi::iterate;
use crate::ops::autograd::with_derivatives;
use crate::Result;

use super::incbi::{MAX_ITER, MAX_LOG_STEP, RESIDUAL_TOL, STEP_TOL};

/// The initial guess for `P(a, x) = p` (`q = 1 - p`).
fn initial_guess(a: &Tensor, p: &Tensor, q: &Tensor) -> Result<Tensor> {
    let use_p = p.f_le_tensor(q)?;
    let pp = p.f_minimum(q)?;
    let t = pp.f_log()?.f_mul_scalar(-2.0)?.f_sqrt()?;
    let z = t
        .f_mul_scalar(0.27061)?
        .f_add_scalar(2.30753)?
        .f_div(&t.f_mul(&t.f_mul_scalar(0.04481)?.f_add_scalar(0.99229)?)?.f_add_scalar(1.0)?)?
        .f_sub(&t)?;
    let z = pick(&use_p, &z, &z.f_neg()?)?; // the normal deviate of p (A&S 26.2.22)
                                            // Wilson-Hilferty: a (1 - 1/(9a) + z / (3 sqrt a))^3
    let cube = a
        .f_mul_scalar(9.0)?
        .f_reciprocal()?
        .f_neg()?
        .f_add_scalar(1.0)?
        .f_add(&z.f_div(&a.f_sqrt()?.f_mul_scalar(3.0)?)?)?;
    let wilson = a.f_mul(&cube.f_clamp_min(0.0)?.f_pow_tensor_scalar(3.0)?)?.f_clamp_min(1e-3)?;
    // a <= 1: (p / t)^(1/a) below t = 1 - a (0.253 + 0.12 a), 1 - log(q / (1 - t)) above
    let tt = a.f_mul(&a.f_mul_scalar(0.12)?.f_add_scalar(0.253)?)?.f_neg()?.f_add_scalar(1.0)?;
    let power = p.f_log()?.f_sub(&tt.f_log()?)?.f_div(a)?.f_exp()?;
    let expo = q.f_log()?.f_sub(&tt.f_neg()?.f_add_scalar(1.0)?.f_log()?)?.f_neg()?.f_add_scalar(1.0)?;
    let small = pick(&p.f_lt_tensor(&tt)?, &power, &expo)?;
    // a > 1 and a small p: Wilson-Hilferty's cube is not positive (its guess
    // clamped to 1e-3, hundreds of decades too large for p = 1e-300): the
    // power law below instead, where it is small
    let tail = and(&use_p, &power_law_bound(a, p)?.f_lt(0.01)?)?;
    let large = pick(&tail, &power_law_bound(a, p)?, &wilson)?;
    let x = pick(&a.f_le(1.0)?, &small, &large)?;
    Ok(x.f_clamp(f64::MIN_POSITIVE, f64::MAX)?)
}

/// `(p Gamma(a + 1))^(1/a)`, a lower bound of the `x` with `P(a, x) = p`:
/// `P(a, x) = x^a e^-x M(a, x) / Gamma(a + 1)` with `e^-x M <= 1` (DLMF
/// 8.7.1), and close to it where `x` is small against `a + 1`.
fn power_law_bound(a: &Tensor, p: &Tensor) -> Result<Tensor> {
    Ok(p.f_log()?.f_add(&a.f_add_scalar(1.0)?.f_lgamma()?)?.f_div(a)?.f_exp()?)
}

/// `x` with `P(a, x) = p`, for 1-D positive finite `a` and `0 < p < 1`, `q = 1 - p`.
fn igami_1d(a: &Tensor, p: &Tensor, q: &Tensor) -> Result<Tensor> {
    let x = initial_guess(a, p, q)?;
    // the power law's bound (less its rounding) brackets the root from below where p is matched
    let bound = power_law_bound(a, p)?.f_mul_scalar(1.0 - 1e-12)?.f_minimum(&x)?;
    let lo = pick(&p.f_le_tensor(q)?, &bound, &x.f_zeros_like()?)?;
    let hi = x.f_full_like(f64::INFINITY)?;
    let lgamma_a = a.f_lgamma()?;
    let state = vec![x, lo, hi, a.shallow_clone(), p.shallow_clone(), q.shallow_clone(), lgamma_a];
    let out = iterate(state, MAX_ITER, |s| {
        let (x, lo, hi, a, p, q, lgamma_a) = (&s[0], &s[1], &s[2], &s[3], &s[4], &s[5], &s[6]);
        let use_p = p.f_le_tensor(q)?;
        // P where p is matched, Q where q is
        let f = patch(gammainc_f64(a, x, true)?, &use_p, &[a, x], |v| gammainc_f64(&v[0], &v[1], false))?;
        let target = pick(&use_p, p, q)?;
        let r = f.f_log()?.f_sub(&target.f_log()?)?;
        // d log F / d log x = ± x^a e^-x / (Gamma(a) F)
        let log_slope = a.f_mul(&x.f_log()?)?.f_sub(x)?.f_sub(lgamma_a)?.f_sub(&f.f_log()?)?;
        let slope = log_slope.f_exp()?;
        let sr = pick(&use_p, &r, &r.f_neg()?)?;
        let hi = pick(&sr.f_gt(0.0)?, x, hi)?;
        let lo = pick(&sr.f_lt(0.0)?, x, lo)?;
        let step = sr.f_div(&slope)?.f_clamp(-MAX_LOG_STEP, MAX_LOG_STEP)?;
        let next = x.f_mul(&step.f_neg()?.f_exp()?)?;
        // a step below the tolerance ends it (even onto the bracket's end)
        let converged = and(&next.f_isfinite()?, &next.f_sub(x)?.f_abs()?.f_le_tensor(&x.f_mul_scalar(STEP_TOL)?)?)?;
        let inside = and(&and(&next.f_gt_tensor(&lo)?, &next.f_lt_tensor(&hi)?)?, &next.f_isfinite()?)?;
        let inside = or(&inside, &converged)?;
        let mid = pick(
            &lo.f_eq(0.0)?,
            &hi.f_mul_scalar(1.0 / 16.0)?,
            &pick(&hi.f_isinf()?, &lo.f_mul_scalar(16.0)?, &lo.f_sqrt()?.f_mul(&hi.f_sqrt()?)?)?,
        )?;
        let next = pick(&inside, &next, &mid)?;
        let exact = r.f_abs()?.f_le(RESIDUAL_TOL)?;
        let collapsed = and(&hi.f_isfinite()?, &hi.f_sub(&lo)?.f_le_tensor(&hi.f_mul_scalar(4e-16)?)?)?;
        let done = or(&or(&converged, &exact)?, &or(&r.f_isnan()?, &collapsed)?)?;
        let next = pick(&exact, x, &next)?;
        Ok((
            vec![next, lo, hi, a.shallow_clone(), p.shallow_clone(), q.shallow_clone(), lgamma_a.shallow_clone()],
            done,
        ))
    })?;
    Ok(out[0].shallow_clone())
}

/// `gammaincinv(a, p)` (`q = 1 - p` given) with SciPy's edges: 0 at `p = 0`,
/// inf at `q = 0`, nan for nan, `a < 0`, `p` outside [0, 1] and, inside, for
/// `a = 0` or `a = inf`.
fn igami_f64(a: &Tensor, p: &Tensor, q: &Tensor, y: &Tensor) -> Result<Tensor> {
    let shape = a.size();
    let inside = and(&and(&a.f_gt(0.0)?, &a.f_lt(f64::INFINITY)?)?, &and(&p.f_gt(0.0)?, &q.f_gt(0.0)?)?)?;
    let flat = |t: &Tensor| t.f_reshape([-1]);
    let x = patch(full(&flat(a)?, f64::NAN)?, &flat(&inside)?, &[&flat(a)?, &flat(p)?, &flat(q)?], |v| {
        igami_1d(&v[0], &v[1], &v[2])
    })?
    .f_reshape(&shape)?;
    let x = fill(&x, &p.f_eq(0.0)?, 0.0)?;
    let x = fill(&x, &q.f_eq(0.0)?, f64::INFINITY)?;
    let bad = or(&or(&a.f_lt(0.0)?, &any_nan(a, y)?)?, &or(&y.f_lt(0.0)?, &y.f_gt(1.0)?)?)?;
    fill(&x, &bad, f64::NAN)
}

/// The inverse of the regularized lower incomplete gamma function,
/// `scipy.special.gammaincinv(a, y)`.
pub(super) fn gammaincinv(a: &Tensor, y: &Tensor) -> Result<Tensor> {
    let value = || {
        let (a, y) = (&a.detach(), &y.detach()); // see the module's note
        igami_f64(a, y, &y.f_neg()?.f_add_scalar(1.0)?, y)
    };
    with_derivatives(value, &[(y, &|x| gamma_quantile_slope(a, x))])
}

/// `1 / (d/dx P(a, x)) = Gamma(a) e^x x^(1-a)` at the solution `x`.
fn gamma_quantile_slope(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    let a = &a.detach();
    let log_power = x.f_log()?.f_mul(&a.f_sub_scalar(1.0)?)?;
    Ok(a.f_lgamma()?.f_add(x)?.f_sub(&log_power)?.f_exp()?)
}

/// The inverse of the regularized upper incomplete gamma function,
/// `scipy.special.gammainccinv(a, y)` (accurate for small `y`).
pub(super) fn gammainccinv(a: &Tensor, y: &Tensor) -> Result<Tensor> {
    let value = || {
        let (a, y) = (&a.detach(), &y.detach()); // see the module's note
        igami_f64(a, &y.f_neg()?.f_add_scalar(1.0)?, y, y)
    };
    with_derivatives(value, &[(y, &|x| Ok(gamma_quantile_slope(a, x)?.f_neg()?))])
}

/// The chi-square quantile of the survival function, `scipy.special.chdtri(v, p)`
/// = `2 gammainccinv(v/2, p)`.
pub(super) fn chdtri(v: &Tensor, p: &Tensor) -> Result<Tensor> {
    Ok(gammainccinv(&v.f_mul_scalar(0.5)?, p)?.f_mul_scalar(2.0)?)
}

/// The inverse of the Poisson CDF in `m`, `scipy.special.pdtri(k, y)` =
/// `gammainccinv(floor(k) + 1, y)`: nan for `k < 0`, infinite `k` and `y >= 1`
/// (Cephes' domain).
pub(super) fn pdtri(k: &Tensor, y: &Tensor) -> Result<Tensor> {
    let k = k.f_to_kind(tch::Kind::Double)?.f_floor()?;
    let m = gammainccinv(&k.f_add_scalar(1.0)?, y)?;
    let bad = or(&or(&k.f_lt(0.0)?, &k.f_isinf()?)?, &y.f_ge(1.0)?)?;
    fill(&m, &bad, f64::NAN)
}
