//! The inverse of the regularized incomplete beta function (Cephes' `incbi.c`,
//! the seam of SciPy's `betaincinv`, which calls Boost's `ibeta_inv`) and the
//! distribution quantiles built on it: betaincinv, betainccinv, stdtrit,
//! fdtri, bdtri, nbdtri.
//!
//! # Method
//!
//! An initial guess (Numerical Recipes' `invbetai`: the normal approximation
//! of Abramowitz & Stegun 26.5.22 for `a, b >= 1`, the two power-law tails
//! otherwise), then safeguarded Newton steps in log space: the unknown is the
//! logarithm of the smaller of `x` and `y = 1 - x` (so that both ends keep
//! their relative accuracy), the residual is `log F - log p` with `F` whichever
//! of `I_x(a, b)` and its complement is matched against the smaller of `p`
//! and `q = 1 - p`. The power-law tails are then nearly linear, and a step
//! that leaves the bracket kept per element is replaced by a geometric
//! bisection. Elements leave the batch as they converge ([`iterate`]).
//!
//! # Gradients
//!
//! Differentiating through the Newton iterations gives the derivative of the
//! iteration, not of the inverse (measured: `stdtrit` failed gradcheck). The
//! iterations run on detached inputs, and the derivative in the probability
//! comes in closed form, `1 / f(x)` with `f` the density at the solution
//! ([`with_derivatives`]); in the shape parameters there is none (libtorch has
//! no derivative of `betainc` in `a`, `b` either), so a caller's parameter that
//! requires grad gets the Python layer's `NotDifferentiableError`.

use tch::{Kind, Tensor};

use super::helpers::*;
use super::incbet::{incbet_pair, log_power_terms};
use crate::ops::autograd::with_derivatives;
use crate::Result;

/// Newton steps at most (each one forward evaluation on the active elements).
pub(super) const MAX_ITER: usize = 40;
/// Converged when a step changes the unknown by less than this, relatively
/// (Newton's next step would then be below the forward function's rounding).
pub(super) const STEP_TOL: f64 = 1e-13;
/// Converged when `|log F - log p|` is this small: a few ulp of `F`.
pub(super) const RESIDUAL_TOL: f64 = 1e-15;
/// The largest Newton step in `log x` (a factor of about 150).
pub(super) const MAX_LOG_STEP: f64 = 5.0;

/// Runs `step` on the active part of `state` (1-D tensors of one length)
/// until every element is done or `max_iter` steps have run: `step` returns the
/// next state and which elements are done. Returns the final state.
pub(super) fn iterate(
    state: Vec<Tensor>,
    max_iter: usize,
    mut step: impl FnMut(&[Tensor]) -> Result<(Vec<Tensor>, Tensor)>,
) -> Result<Vec<Tensor>> {
    let n = state[0].size()[0];
    let mut results: Vec<Tensor> = state.iter().map(|t| t.shallow_clone()).collect();
    let mut index = Tensor::f_arange(n, (Kind::Int64, state[0].device()))?;
    let mut active = state;
    for _ in 0..max_iter {
        if index.size()[0] == 0 {
            break;
        }
        let (next, done) = step(&active)?;
        results = results
            .iter()
            .zip(&next)
            .map(|(r, v)| Ok(r.f_index_put(&[Some(index.shallow_clone())], v, false)?))
            .collect::<Result<Vec<_>>>()?;
        let stay = not(&done)?.f_nonzero()?.f_reshape([-1])?;
        if stay.size()[0] == index.size()[0] {
            active = next;
            continue;
        }
        index = index.f_index_select(0, &stay)?;
        active = next.iter().map(|t| Ok(t.f_index_select(0, &stay)?)).collect::<Result<Vec<_>>>()?;
    }
    Ok(results)
}

/// The initial guess `(x, y)` for `I_x(a, b) = p` (`q = 1 - p`), see the module docs.
fn initial_guess(a: &Tensor, b: &Tensor, p: &Tensor, q: &Tensor) -> Result<(Tensor, Tensor)> {
    let use_p = p.f_le_tensor(q)?;
    let pp = p.f_minimum(q)?;
    // A&S 26.2.22 (as NR): minus the normal deviate of p
    let t = pp.f_log()?.f_mul_scalar(-2.0)?.f_sqrt()?;
    let z = t
        .f_mul_scalar(0.27061)?
        .f_add_scalar(2.30753)?
        .f_div(&t.f_mul(&t.f_mul_scalar(0.04481)?.f_add_scalar(0.99229)?)?.f_add_scalar(1.0)?)?
        .f_sub(&t)?;
    let z = pick(&use_p, &z.f_neg()?, &z)?;
    let al = z.f_square()?.f_sub_scalar(3.0)?.f_div_scalar(6.0)?;
    let ra = a.f_mul_scalar(2.0)?.f_sub_scalar(1.0)?.f_reciprocal()?;
    let rb = b.f_mul_scalar(2.0)?.f_sub_scalar(1.0)?.f_reciprocal()?;
    let h = ra.f_add(&rb)?.f_reciprocal()?.f_mul_scalar(2.0)?;
    let w = z.f_mul(&al.f_add(&h)?.f_sqrt()?)?.f_div(&h)?.f_sub(
        &rb.f_sub(&ra)?.f_mul(&al.f_add_scalar(5.0 / 6.0)?.f_sub(&h.f_reciprocal()?.f_mul_scalar(2.0 / 3.0)?)?)?,
    )?;
    // x = a / (a + b e^{2w}) = sigmoid(-s), y = sigmoid(s), s = 2w + log(b/a)
    let s = w.f_mul_scalar(2.0)?.f_add(&b.f_log()?)?.f_sub(&a.f_log()?)?;
    let (x_normal, y_normal) = (s.f_neg()?.f_sigmoid()?, s.f_sigmoid()?);
    // the power-law tails x ~ (a w p)^(1/a), y ~ (b w q)^(1/b)
    let lsum = a.f_add(b)?.f_log()?;
    let lt = a.f_mul(&a.f_log()?.f_sub(&lsum)?)?.f_sub(&a.f_log()?)?;
    let lu = b.f_mul(&b.f_log()?.f_sub(&lsum)?)?.f_sub(&b.f_log()?)?;
    let lw = lt.f_logaddexp(&lu)?;
    let lower = p.f_log()?.f_lt_tensor(&lt.f_sub(&lw)?)?;
    let x_tail = a.f_log()?.f_add(&lw)?.f_add(&p.f_log()?)?.f_div(a)?.f_exp()?;
    let y_tail = b.f_log()?.f_add(&lw)?.f_add(&q.f_log()?)?.f_div(b)?.f_exp()?;
    let x_tail2 = y_tail.f_neg()?.f_add_scalar(1.0)?;
    let y_tail2 = x_tail.f_neg()?.f_add_scalar(1.0)?;
    let (x_power, y_power) = (pick(&lower, &x_tail, &x_tail2)?, pick(&lower, &y_tail2, &y_tail)?);
    let normal = and(&a.f_ge(1.0)?, &b.f_ge(1.0)?)?;
    let x = pick(&normal, &x_normal, &x_power)?;
    let y = pick(&normal, &y_normal, &y_power)?;
    // strictly inside (0, 1), the larger recomputed from the smaller
    let x = x.f_clamp(f64::MIN_POSITIVE, 1.0)?;
    let y = y.f_clamp(f64::MIN_POSITIVE, 1.0)?;
    let x_small = x.f_le_tensor(&y)?;
    let x = pick(&x_small, &x, &y.f_neg()?.f_add_scalar(1.0)?)?;
    let y = pick(&x_small, &x.f_neg()?.f_add_scalar(1.0)?, &y)?;
    Ok((x, y))
}

/// `(x, y = 1 - x)` with `I_x(a, b) = p`, for 1-D positive finite `a`, `b`
/// and `0 < p < 1`, `q = 1 - p` (see the module docs).
pub(super) fn incbi_pair(a: &Tensor, b: &Tensor, p: &Tensor, q: &Tensor) -> Result<(Tensor, Tensor)> {
    let (x, y) = initial_guess(a, b, p, q)?;
    let zeros = x.f_zeros_like()?;
    let ones = x.f_ones_like()?;
    // state: x, y, bracket x in [xlo, xhi] (y in [ylo, yhi]), a, b, p, q
    let state = vec![
        x,
        y,
        zeros.shallow_clone(),
        ones.shallow_clone(),
        zeros,
        ones,
        a.shallow_clone(),
        b.shallow_clone(),
        p.shallow_clone(),
        q.shallow_clone(),
    ];
    let out = iterate(state, MAX_ITER, |s| {
        let (x, y, xlo, xhi, ylo, yhi, a, b, p, q) =
            (&s[0], &s[1], &s[2], &s[3], &s[4], &s[5], &s[6], &s[7], &s[8], &s[9]);
        let use_p = p.f_le_tensor(q)?;
        let (lower, upper) = incbet_pair(a, b, x, y)?;
        let f = pick(&use_p, &lower, &upper)?;
        let target = pick(&use_p, p, q)?;
        let r = f.f_log()?.f_sub(&target.f_log()?)?;
        // |d log F / dx| = x^(a-1) y^(b-1) / (B(a, b) F)
        let log_slope = log_power_terms(a, b, x, y)?.f_sub(&x.f_log()?)?.f_sub(&y.f_log()?)?.f_sub(&f.f_log()?)?;
        let slope = log_slope.f_exp()?;
        // the signed residual grows with x when matching p, falls when matching q
        let sr = pick(&use_p, &r, &r.f_neg()?)?;
        let too_big = sr.f_gt(0.0)?;
        let too_small = sr.f_lt(0.0)?;
        let xhi = pick(&too_big, x, xhi)?;
        let ylo = pick(&too_big, y, ylo)?;
        let xlo = pick(&too_small, x, xlo)?;
        let yhi = pick(&too_small, y, yhi)?;
        // Newton in log of the smaller unknown: d r / d log x = x r'(x), d r / d log y = -y r'(x)
        let x_primary = x.f_le_tensor(y)?;
        let step_x = sr.f_div(&x.f_mul(&slope)?)?;
        let step_y = sr.f_div(&y.f_mul(&slope)?)?.f_neg()?;
        let step = pick(&x_primary, &step_x, &step_y)?.f_clamp(-MAX_LOG_STEP, MAX_LOG_STEP)?;
        let base = pick(&x_primary, x, y)?;
        let next = base.f_mul(&step.f_neg()?.f_exp()?)?;
        let (lo, hi) = (pick(&x_primary, &xlo, &ylo)?, pick(&x_primary, &xhi, &yhi)?);
        // a step below the tolerance ends it (even onto the bracket's end)
        let converged =
            and(&next.f_isfinite()?, &next.f_sub(&base)?.f_abs()?.f_le_tensor(&base.f_mul_scalar(STEP_TOL)?)?)?;
        let inside = and(&and(&next.f_gt_tensor(&lo)?, &next.f_lt_tensor(&hi)?)?, &next.f_isfinite()?)?;
        let inside = or(&inside, &converged)?;
        let mid = pick(&lo.f_gt(0.0)?, &lo.f_sqrt()?.f_mul(&hi.f_sqrt()?)?, &hi.f_mul_scalar(1.0 / 16.0)?)?;
        let next = pick(&inside, &next, &mid)?;
        let other = next.f_neg()?.f_add_scalar(1.0)?;
        let (nx, ny) = (pick(&x_primary, &next, &other)?, pick(&x_primary, &other, &next)?);
        // a residual at the forward function's rounding: nothing more to gain
        let converged = or(&converged, &r.f_abs()?.f_le(RESIDUAL_TOL)?)?;
        let done = or(&or(&converged, &r.f_eq(0.0)?)?, &r.f_isnan()?)?;
        // a collapsed bracket ends it too
        let done = or(&done, &hi.f_sub(&lo)?.f_le_tensor(&hi.f_mul_scalar(4e-16)?)?)?;
        let settled = r.f_abs()?.f_le(RESIDUAL_TOL)?;
        let (nx, ny) = (pick(&settled, x, &nx)?, pick(&settled, y, &ny)?);
        Ok((
            vec![
                nx,
                ny,
                xlo,
                xhi,
                ylo,
                yhi,
                a.shallow_clone(),
                b.shallow_clone(),
                p.shallow_clone(),
                q.shallow_clone(),
            ],
            done,
        ))
    })?;
    Ok((out[0].shallow_clone(), out[1].shallow_clone()))
}

/// `(x, 1 - x)` solving `I_x(a, b) = p` on any shape, `q = 1 - p` given, where
/// `inside` (positive finite `a`, `b`, `0 < p < 1`); nan elsewhere.
fn incbi_where(inside: &Tensor, a: &Tensor, b: &Tensor, p: &Tensor, q: &Tensor) -> Result<(Tensor, Tensor)> {
    let shape = a.size();
    let flat = |t: &Tensor| t.f_reshape([-1]);
    let nan = full(&flat(a)?, f64::NAN)?;
    let out = patch_all(
        vec![nan.shallow_clone(), nan],
        &flat(inside)?,
        &[&flat(a)?, &flat(b)?, &flat(p)?, &flat(q)?],
        |v| {
            let (x, y) = incbi_pair(&v[0], &v[1], &v[2], &v[3])?;
            Ok(vec![x, y])
        },
    )?;
    Ok((out[0].f_reshape(&shape)?, out[1].f_reshape(&shape)?))
}

fn positive_finite(t: &Tensor) -> Result<Tensor> {
    and(&t.f_gt(0.0)?, &t.f_lt(f64::INFINITY)?)
}

/// `betaincinv` (`upper = false`, `y = p`) or `betainccinv` (`y = q`) with SciPy's edges:
/// 0 and 1 at the ends (for any `a, b > 0`), nan for nan, `a, b <= 0`, `y`
/// outside [0, 1] and infinite `a` or `b` inside.
fn incbi_f64(a: &Tensor, b: &Tensor, y: &Tensor, upper: bool) -> Result<Tensor> {
    let (a, b, y) = (&a.detach(), &b.detach(), &y.detach()); // see "Gradients" above
    let complement = y.f_neg()?.f_add_scalar(1.0)?;
    let (p, q) = if upper { (complement, y.shallow_clone()) } else { (y.shallow_clone(), complement) };
    // p may round to 1 where q > 0 (betainccinv at tiny y): q > 0 decides
    let inside = and(&and(&positive_finite(a)?, &positive_finite(b)?)?, &and(&p.f_gt(0.0)?, &q.f_gt(0.0)?)?)?;
    let (x, _) = incbi_where(&inside, a, b, &p, &q)?;
    let x = fill(&x, &p.f_eq(0.0)?, 0.0)?;
    let x = fill(&x, &q.f_eq(0.0)?, 1.0)?;
    let bad = or(&or(&a.f_le(0.0)?, &b.f_le(0.0)?)?, &or(&any_nan(a, b)?, &y.f_isnan()?)?)?;
    let bad = or(&bad, &or(&y.f_lt(0.0)?, &y.f_gt(1.0)?)?)?;
    fill(&x, &bad, f64::NAN)
}

/// `dx/dI = 1 / (d/dx I_x(a, b)) = B(a, b) x^(1-a) (1-x)^(1-b)`, the slope of
/// the incomplete beta function's inverse at its solution `x` (`a`, `b` are
/// not differentiated).
fn beta_quantile_slope(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    let (a, b) = (&a.detach(), &b.detach());
    let log_beta = super::beta::beta_f64(a, b, true)?;
    let log_x = x.f_log()?.f_mul(&a.f_sub_scalar(1.0)?)?;
    let log_y = x.f_neg()?.f_log1p()?.f_mul(&b.f_sub_scalar(1.0)?)?;
    Ok(log_beta.f_sub(&log_x)?.f_sub(&log_y)?.f_exp()?)
}

/// The inverse of the regularized incomplete beta function in `x`,
/// `scipy.special.betaincinv(a, b, y)`.
pub(super) fn betaincinv(a: &Tensor, b: &Tensor, y: &Tensor) -> Result<Tensor> {
    with_derivatives(|| incbi_f64(a, b, y, false), &[(y, &|x| beta_quantile_slope(a, b, x))])
}

/// The inverse of `betaincc` in `x`, `scipy.special.betainccinv(a, b, y)`
/// (accurate for small `y`, where `1 - y` would round).
pub(super) fn betainccinv(a: &Tensor, b: &Tensor, y: &Tensor) -> Result<Tensor> {
    with_derivatives(|| incbi_f64(a, b, y, true), &[(y, &|x| Ok(beta_quantile_slope(a, b, x)?.f_neg()?))])
}

/// Student's t quantile, `scipy.special.stdtrit(df, p)`: `t^2 = df y/x` with
/// `I_x(df/2, 1/2) = 2 min(p, 1 - p)` (both `x` and `y` from the solver); the
/// normal quantile for `df = inf`; SciPy's `inf` at `p = 0` and `p = 1`; nan for
/// `df <= 0`.
pub(super) fn stdtrit(df: &Tensor, p: &Tensor) -> Result<Tensor> {
    with_derivatives(|| stdtrit_value(df, p), &[(p, &|t| t_quantile_slope(df, t))])
}

/// `1 / pdf(t)` of Student's t with `df` degrees of freedom (the normal density
/// beyond `NORMAL_DF`, where [`stdtrit`] takes the normal quantile).
fn t_quantile_slope(df: &Tensor, t: &Tensor) -> Result<Tensor> {
    let df = &df.detach();
    let half = df.f_mul_scalar(0.5)?;
    let log_norm = half.f_add_scalar(0.5)?.f_lgamma()?.f_sub(&half.f_lgamma()?)?;
    let log_norm = log_norm.f_sub(&df.f_mul_scalar(std::f64::consts::PI)?.f_log()?.f_mul_scalar(0.5)?)?;
    let log_kernel = t.f_square()?.f_div(df)?.f_log1p()?.f_mul(&half.f_add_scalar(0.5)?)?;
    let student = log_kernel.f_sub(&log_norm)?.f_exp()?;
    let normal = t.f_square()?.f_mul_scalar(0.5)?.f_exp()?.f_mul_scalar((2.0 * std::f64::consts::PI).sqrt())?;
    pick(&df.f_gt(super::incbet::NORMAL_DF)?, &normal, &student)
}

fn stdtrit_value(df: &Tensor, p: &Tensor) -> Result<Tensor> {
    let (df, p) = (&df.detach(), &p.detach()); // see "Gradients" above
    let q = p.f_neg()?.f_add_scalar(1.0)?;
    let lower = p.f_lt_tensor(&q)?;
    let tail = p.f_minimum(&q)?.f_mul_scalar(2.0)?;
    let tail_c = tail.f_neg()?.f_add_scalar(1.0)?;
    let half_df = df.f_mul_scalar(0.5)?;
    let half = full(df, 0.5)?;
    let inside = and(&and(&df.f_gt(0.0)?, &df.f_le(super::incbet::NORMAL_DF)?)?, &and(&p.f_gt(0.0)?, &p.f_lt(1.0)?)?)?;
    let inside = and(&inside, &tail.f_lt(1.0)?)?;
    let (x, y) = incbi_where(&inside, &half_df, &half, &tail, &tail_c)?;
    let t = df.f_mul(&y)?.f_div(&x)?.f_sqrt()?;
    let t = pick(&lower, &t.f_neg()?, &t)?;
    let t = fill(&t, &and(&tail.f_eq(1.0)?, &positive_finite(df)?)?, 0.0)?;
    // df = inf: the normal quantile sqrt(2) erfinv(2p - 1), from the smaller tail
    let normal = tail.f_neg()?.f_add_scalar(1.0)?.f_erfinv()?.f_mul_scalar(std::f64::consts::SQRT_2)?;
    let normal = pick(&lower, &normal.f_neg()?, &normal)?;
    let t = pick(&df.f_gt(super::incbet::NORMAL_DF)?, &normal, &t)?;
    let t = fill(&t, &or(&p.f_eq(0.0)?, &p.f_eq(1.0)?)?, f64::INFINITY)?;
    let bad = or(&or(&df.f_le(0.0)?, &any_nan(df, p)?)?, &or(&p.f_lt(0.0)?, &p.f_gt(1.0)?)?)?;
    fill(&t, &bad, f64::NAN)
}

/// The F distribution's quantile, `scipy.special.fdtri(dfn, dfd, p)`:
/// `x = dfd w / (dfn (1 - w))` with `I_w(dfn/2, dfd/2) = p`; 0 at `p = 0`, inf
/// at `p = 1`; nan for non-positive or infinite degrees of freedom.
pub(super) fn fdtri(dfn: &Tensor, dfd: &Tensor, p: &Tensor) -> Result<Tensor> {
    with_derivatives(|| fdtri_value(dfn, dfd, p), &[(p, &|x| f_quantile_slope(dfn, dfd, x))])
}

/// `1 / pdf(x)` of the F distribution: with `w = dfn x / (dfn x + dfd)`, the
/// CDF is `I_w(dfn/2, dfd/2)` and `dw/dx = dfn dfd / (dfn x + dfd)^2`.
fn f_quantile_slope(dfn: &Tensor, dfd: &Tensor, x: &Tensor) -> Result<Tensor> {
    let (dfn, dfd) = (&dfn.detach(), &dfd.detach());
    let denominator = dfn.f_mul(x)?.f_add(dfd)?;
    let w = dfn.f_mul(x)?.f_div(&denominator)?;
    let dw = dfn.f_mul(dfd)?.f_div(&denominator.f_square()?)?;
    Ok(beta_quantile_slope(&dfn.f_mul_scalar(0.5)?, &dfd.f_mul_scalar(0.5)?, &w)?.f_div(&dw)?)
}

fn fdtri_value(dfn: &Tensor, dfd: &Tensor, p: &Tensor) -> Result<Tensor> {
    let (dfn, dfd, p) = (&dfn.detach(), &dfd.detach(), &p.detach()); // see "Gradients" above
    let q = p.f_neg()?.f_add_scalar(1.0)?;
    let (a, b) = (dfn.f_mul_scalar(0.5)?, dfd.f_mul_scalar(0.5)?);
    let dofs = and(&positive_finite(dfn)?, &positive_finite(dfd)?)?;
    let inside = and(&dofs, &and(&p.f_gt(0.0)?, &p.f_lt(1.0)?)?)?;
    let (w, y) = incbi_where(&inside, &a, &b, p, &q)?;
    let x = dfd.f_mul(&w)?.f_div(&dfn.f_mul(&y)?)?;
    let x = fill(&x, &and(&dofs, &p.f_eq(0.0)?)?, 0.0)?;
    let x = fill(&x, &and(&dofs, &p.f_eq(1.0)?)?, f64::INFINITY)?;
    let bad = or(&not(&dofs)?, &or(&p.f_isnan()?, &or(&p.f_lt(0.0)?, &p.f_gt(1.0)?)?)?)?;
    fill(&x, &bad, f64::NAN)
}

/// The inverse of the binomial CDF in `p`, `scipy.special.bdtri(k, n, y)`:
/// `p` with `I_p(k + 1, n - k) = 1 - y`, `k` and `n` floored; nan for `k < 0`
/// or `k >= n`.
pub(super) fn bdtri(k: &Tensor, n: &Tensor, y: &Tensor) -> Result<Tensor> {
    let slope = |p: &Tensor| {
        let (k, n) = (k.f_floor()?, n.f_floor()?);
        Ok(beta_quantile_slope(&k.f_add_scalar(1.0)?, &n.f_sub(&k)?, p)?.f_neg()?)
    };
    with_derivatives(|| bdtri_value(k, n, y), &[(y, &slope)])
}

fn bdtri_value(k: &Tensor, n: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (k, n, y) = (&k.detach(), &n.detach(), &y.detach()); // see "Gradients" above
    let k = k.f_floor()?;
    let n = n.f_floor()?;
    let (a, b) = (k.f_add_scalar(1.0)?, n.f_sub(&k)?);
    let q = y.shallow_clone();
    let p = y.f_neg()?.f_add_scalar(1.0)?;
    let valid = and(&k.f_ge(0.0)?, &k.f_lt_tensor(&n)?)?;
    let valid = and(&valid, &n.f_lt(f64::INFINITY)?)?;
    let inside = and(&valid, &and(&y.f_gt(0.0)?, &y.f_lt(1.0)?)?)?;
    let (x, _) = incbi_where(&inside, &a, &b, &p, &q)?;
    let x = fill(&x, &and(&valid, &y.f_eq(0.0)?)?, 1.0)?;
    let x = fill(&x, &and(&valid, &y.f_eq(1.0)?)?, 0.0)?;
    let bad = or(&not(&valid)?, &or(&y.f_isnan()?, &or(&y.f_lt(0.0)?, &y.f_gt(1.0)?)?)?)?;
    fill(&x, &bad, f64::NAN)
}

/// The inverse of the negative binomial CDF in `p`, `scipy.special.nbdtri(k, n, y)`:
/// `p` with `I_p(n, k + 1) = y`, `k` and `n` floored; 0 and 1 at `y = 0, 1`
/// (for `k >= 0`), nan for `k < 0` and, inside, for `n < 1`.
pub(super) fn nbdtri(k: &Tensor, n: &Tensor, y: &Tensor) -> Result<Tensor> {
    let slope = |p: &Tensor| beta_quantile_slope(&n.f_floor()?, &k.f_floor()?.f_add_scalar(1.0)?, p);
    with_derivatives(|| nbdtri_value(k, n, y), &[(y, &slope)])
}

fn nbdtri_value(k: &Tensor, n: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (k, n, y) = (&k.detach(), &n.detach(), &y.detach()); // see "Gradients" above
    let k = k.f_floor()?;
    let n = n.f_floor()?;
    let b = k.f_add_scalar(1.0)?;
    let q = y.f_neg()?.f_add_scalar(1.0)?;
    let valid = and(&and(&k.f_ge(0.0)?, &n.f_ge(1.0)?)?, &and(&k.f_lt(f64::INFINITY)?, &n.f_lt(f64::INFINITY)?)?)?;
    let inside = and(&valid, &and(&y.f_gt(0.0)?, &y.f_lt(1.0)?)?)?;
    let (x, _) = incbi_where(&inside, &n, &b, y, &q)?;
    let ends = k.f_ge(0.0)?;
    let x = fill(&x, &and(&ends, &y.f_eq(0.0)?)?, 0.0)?;
    let x = fill(&x, &and(&ends, &y.f_eq(1.0)?)?, 1.0)?;
    let bad = or(&or(&k.f_lt(0.0)?, &any_nan(&k, &n)?)?, &or(&y.f_isnan()?, &or(&y.f_lt(0.0)?, &y.f_gt(1.0)?)?)?)?;
    let bad = or(&bad, &or(&k.f_isinf()?, &n.f_isinf()?)?)?;
    fill(&x, &bad, f64::NAN)
}
