//! The regularized incomplete beta function (Cephes' `incbet.c`, the seam of
//! SciPy's `betainc`, which calls Boost's `ibeta`) and the distributions built
//! on it (`stdtr.c`, `fdtr.c`, `bdtr.c`, `nbdtr.c`): betainc, betaincc, stdtr,
//! fdtr, fdtrc, bdtr, bdtrc, nbdtr, nbdtrc.
//!
//! # Method
//!
//! `I_x(a, b) = x^a y^b / (a B(a, b)) * K`, `y = 1 - x`, with `K` the continued
//! fraction of DLMF 8.17.22 in its even form (Numerical Recipes' `betacf`),
//! evaluated by the modified Lentz method. Where `x > (a + 1)/(a + b + 2)` the
//! symmetry `I_x(a, b) = 1 - I_y(b, a)` is taken first, so that the fraction
//! always converges quickly (in about `sqrt(max(a, b))` steps at worst). Both
//! `I` and its complement come out of one evaluation: the one the fraction
//! computes is accurate relative to itself, the other is `1 -` it.
//!
//! On float64 CPU tensors that carry no gradient, the scalar kernel of
//! `csrc/incbet.cpp` runs these formulas one element at a time (threads over
//! the elements): 2-3x SciPy's `betainc` at 1e6. Elsewhere (CUDA, autograd)
//! the fraction runs on the whole batch a few steps at a time; the elements
//! that have converged leave the batch after each block ([`continued_fraction`]),
//! so the cost follows the slowest element only on that element.
//!
//! The power terms `x^a y^b / B(a, b)` are computed in log space without
//! cancellation: for `a, b >= 8` by DiDonato & Morris' `brcomp` (TOMS 708):
//! `exp(-(a u + b v)) sqrt(a b / (2 pi (a + b))) exp(-Δ)` with
//! `u = rlog1(-λ/a)`, `v = rlog1(λ/b)`, `λ = a - (a + b) x` and `Δ` the
//! Stirling corrections; below, with `log B(a, b)` computed as TOMS 708's
//! `algdiv` does for one large argument. Callers that know `y = 1 - x` better
//! than `1 - x` rounds (stdtr, fdtr) pass both.

use std::f64::consts::PI;

use tch::{Device, Kind, Tensor};

use super::gammainc::log1pmx;
use super::helpers::*;
use crate::ops::autograd::records_grad;
use crate::Result;

/// Lentz's floor for the fraction's partial denominators.
const TINY: f64 = 1e-300;
/// The fraction's convergence test `|Δ - 1| < EPS`, checked at each block's end.
const EPS: f64 = 1e-15;
/// Fraction steps per convergence check.
const BLOCK: usize = 4;
/// The fraction's step budget (`a = b = 1e5` at the mean takes about 600).
const MAX_STEPS: usize = 20_000;
/// Where the Stirling form of `log B` takes over (TOMS 708's threshold).
const STIRLING_FROM: f64 = 8.0;
/// Above this many degrees of freedom Student's t is the normal distribution in double precision.
pub(super) const NORMAL_DF: f64 = 1e20;

/// The Stirling correction `lgamma(z) - ((z - 1/2) log z - z + log(2 pi)/2)`
/// for `z >= 8` (its asymptotic series to `z^-19`, about 1e-18 at 8). Inputs
/// below 8 are clamped: callers use it only there.
pub(super) fn stirling_correction(z: &Tensor) -> Result<Tensor> {
    // B_{2k} / (2k (2k - 1)), k = 1..10
    const C: [f64; 10] = [
        1.0 / 12.0,
        -1.0 / 360.0,
        1.0 / 1260.0,
        -1.0 / 1680.0,
        1.0 / 1188.0,
        -691.0 / 360360.0,
        1.0 / 156.0,
        -3617.0 / 122400.0,
        43867.0 / 244188.0,
        -174611.0 / 125400.0,
    ];
    let z = z.f_clamp_min(STIRLING_FROM)?;
    let r = z.f_reciprocal()?;
    Ok(horner(&r.f_square()?, &C)?.f_mul(&r)?)
}

/// `log B(a, b)` for positive finite `a`, `b` with `min(a, b) < 8`: lgamma sums
/// when both are below 8, else `lgamma(s) + log(Gamma(l) / Gamma(s + l))` with
/// the quotient by Stirling's series (TOMS 708's `algdiv`), which keeps the
/// accuracy that `lgamma(l) - lgamma(s + l)` loses for large `l`.
fn log_beta_small(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let s = a.f_minimum(b)?;
    let l = a.f_maximum(b)?;
    let sum = s.f_add(&l)?;
    let direct = s.f_lgamma()?.f_add(&l.f_lgamma()?)?.f_sub(&sum.f_lgamma()?)?;
    // log(Gamma(l)/Gamma(s+l)) = -s log l - (s + l - 1/2) log1p(s/l) + s + del(l) - del(s + l)
    let quotient = s
        .f_mul(&l.f_log()?)?
        .f_neg()?
        .f_sub(&sum.f_sub_scalar(0.5)?.f_mul(&log1p_f64(&s.f_div(&l)?)?)?)?
        .f_add(&s)?
        .f_add(&stirling_correction(&l)?)?
        .f_sub(&stirling_correction(&sum)?)?;
    let stirling = s.f_lgamma()?.f_add(&quotient)?;
    pick(&l.f_lt(STIRLING_FROM)?, &direct, &stirling)
}

/// `log x` and `log y` for `x + y = 1`, each from the smaller of the two
/// (the larger is known only as well as `1 -` the smaller rounds).
fn log_pair(x: &Tensor, y: &Tensor) -> Result<(Tensor, Tensor)> {
    let x_small = x.f_le_tensor(y)?;
    let log_x = pick(&x_small, &x.f_log()?, &log1p_f64(&y.f_neg()?)?)?;
    let log_y = pick(&x_small, &log1p_f64(&x.f_neg()?)?, &y.f_log()?)?;
    Ok((log_x, log_y))
}

/// `a rlog1(e)` with `e = t/t0 - 1`, `t0 = a/(a + b)`, given `e` and `log t`:
/// the series while `|e| < 1/2`, else `a e - a log(t/t0)` from `log t` (which
/// `1 + e` would lose when `t << t0`).
fn scaled_rlog1(a: &Tensor, e: &Tensor, log_t: &Tensor, log_t0: &Tensor) -> Result<Tensor> {
    let small = e.f_abs()?.f_lt(0.5)?;
    let series = a.f_mul(&log1pmx(&e.f_clamp(-0.5, 0.5)?)?.f_neg()?)?;
    let direct = a.f_mul(&e.f_sub(&log_t.f_sub(log_t0)?)?)?;
    pick(&small, &series, &direct)
}

/// `log(x^a y^b / B(a, b))` for positive finite `a`, `b` and `x + y = 1`
/// (see the module docs).
pub(super) fn log_power_terms(a: &Tensor, b: &Tensor, x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (log_x, log_y) = log_pair(x, y)?;
    let general = a.f_mul(&log_x)?.f_add(&b.f_mul(&log_y)?)?.f_sub(&log_beta_small(a, b)?)?;
    let large = and(&a.f_ge(STIRLING_FROM)?, &b.f_ge(STIRLING_FROM)?)?;
    patch(general, &large, &[a, b, x, y, &log_x, &log_y], |v| {
        let (a, b, x, y, log_x, log_y) = (&v[0], &v[1], &v[2], &v[3], &v[4], &v[5]);
        let sum = a.f_add(b)?;
        // λ = a - (a + b) x, from whichever of x, y is the better known
        let lambda = pick(&x.f_gt_tensor(y)?, &sum.f_mul(y)?.f_sub(b)?, &a.f_sub(&sum.f_mul(x)?)?)?;
        let log_sum = sum.f_log()?;
        let au = scaled_rlog1(a, &lambda.f_neg()?.f_div(a)?, log_x, &a.f_log()?.f_sub(&log_sum)?)?;
        let bv = scaled_rlog1(b, &lambda.f_div(b)?, log_y, &b.f_log()?.f_sub(&log_sum)?)?;
        let exponent = au.f_add(&bv)?.f_neg()?;
        // log sqrt(a b / (2 pi (a + b)))
        let root = a.f_log()?.f_sub(&log1p_f64(&a.f_div(b)?)?)?.f_sub_scalar((2.0 * PI).ln())?.f_mul_scalar(0.5)?;
        let correction = stirling_correction(a)?.f_add(&stirling_correction(b)?)?.f_sub(&stirling_correction(&sum)?)?;
        Ok(exponent.f_add(&root)?.f_sub(&correction)?)
    })
}

/// Lentz's floor on a partial denominator.
fn floor_tiny(t: &Tensor) -> Result<Tensor> {
    let t_abs = t.f_abs()?;
    Ok(t.f_where_self(&t_abs.f_ge(TINY)?, &t.f_full_like(TINY)?)?)
}

/// The continued fraction `K(a, b, x)` of DLMF 8.17.22 (even form), for 1-D
/// `a`, `b`, `x` with `x <= (a + 1)/(a + b + 2)`: blocks of [`BLOCK`] steps,
/// the converged elements written out and dropped after each block.
fn continued_fraction(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    let n = a.size()[0];
    let mut out = a.f_zeros_like()?;
    let mut index = Tensor::f_arange(n, (Kind::Int64, a.device()))?;
    let (mut a, mut b, mut x) = (a.shallow_clone(), b.shallow_clone(), x.shallow_clone());
    let mut sum = a.f_add(&b)?;
    let mut c = a.f_ones_like()?;
    let mut d =
        floor_tiny(&sum.f_mul(&x)?.f_div(&a.f_add_scalar(1.0)?)?.f_neg()?.f_add_scalar(1.0)?)?.f_reciprocal()?;
    let mut h = d.shallow_clone();
    let mut m = 1usize;
    if n == 0 {
        return Ok(out);
    }
    loop {
        let mut delta = h.f_ones_like()?;
        for _ in 0..BLOCK {
            let mf = m as f64;
            let a2m = a.f_add_scalar(2.0 * mf)?;
            // even step: m (b - m) x / ((a + 2m - 1)(a + 2m))
            let num = b.f_sub_scalar(mf)?.f_mul(&x)?.f_mul_scalar(mf)?.f_div(&a2m.f_sub_scalar(1.0)?.f_mul(&a2m)?)?;
            d = floor_tiny(&num.f_mul(&d)?.f_add_scalar(1.0)?)?.f_reciprocal()?;
            c = floor_tiny(&num.f_div(&c)?.f_add_scalar(1.0)?)?;
            h = h.f_mul(&d)?.f_mul(&c)?;
            // odd step: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
            let num = a
                .f_add_scalar(mf)?
                .f_mul(&sum.f_add_scalar(mf)?)?
                .f_mul(&x)?
                .f_div(&a2m.f_mul(&a2m.f_add_scalar(1.0)?)?)?
                .f_neg()?;
            d = floor_tiny(&num.f_mul(&d)?.f_add_scalar(1.0)?)?.f_reciprocal()?;
            c = floor_tiny(&num.f_div(&c)?.f_add_scalar(1.0)?)?;
            delta = d.f_mul(&c)?;
            h = h.f_mul(&delta)?;
            m += 1;
        }
        // nan never converges; it leaves with the budget (and stays nan)
        let done = or(&delta.f_sub_scalar(1.0)?.f_abs()?.f_lt(EPS)?, &h.f_isnan()?)?;
        let finished = m > MAX_STEPS;
        let done = if finished { done.f_ones_like()? } else { done };
        let leaving = done.f_nonzero()?.f_reshape([-1])?;
        if leaving.size()[0] > 0 {
            out =
                out.f_index_put(&[Some(index.f_index_select(0, &leaving)?)], &h.f_index_select(0, &leaving)?, false)?;
        }
        if finished || leaving.size()[0] == index.size()[0] {
            break;
        }
        if leaving.size()[0] > 0 {
            let stay = not(&done)?.f_nonzero()?.f_reshape([-1])?;
            let keep = |t: &Tensor| t.f_index_select(0, &stay);
            (a, b, x, sum, c, d, h, index) =
                (keep(&a)?, keep(&b)?, keep(&x)?, keep(&sum)?, keep(&c)?, keep(&d)?, keep(&h)?, keep(&index)?);
        }
    }
    Ok(out)
}

/// `(I_x(a, b), 1 - I_x(a, b))` for positive finite `a`, `b` and `0 <= x <= 1`,
/// `y = 1 - x` (one shape; see the module docs): float64 CPU tensors that
/// carry no gradient take the scalar kernel of `csrc/incbet.cpp` (the same
/// formulas, one loop per element), the rest [`incbet_pair_composite`].
pub(super) fn incbet_pair(a: &Tensor, b: &Tensor, x: &Tensor, y: &Tensor) -> Result<(Tensor, Tensor)> {
    let inputs = [a, b, x, y];
    let kernel = inputs.iter().all(|t| t.kind() == Kind::Double && t.device() == Device::Cpu && !records_grad(t));
    if kernel {
        let [a, b, x, y] = inputs.map(|t| t.f_contiguous());
        return crate::ffi::incbet::incbet_pair_cpu(&a?, &b?, &x?, &y?);
    }
    incbet_pair_composite(a, b, x, y)
}

/// [`incbet_pair`] from libtorch ops, for any device and autograd.
pub(super) fn incbet_pair_composite(a: &Tensor, b: &Tensor, x: &Tensor, y: &Tensor) -> Result<(Tensor, Tensor)> {
    let shape = a.size();
    let flat = |t: &Tensor| t.f_reshape([-1]);
    let (a, b, x, y) = (flat(a)?, flat(b)?, flat(x)?, flat(y)?);
    let swap = x.f_gt_tensor(&a.f_add_scalar(1.0)?.f_div(&a.f_add(&b)?.f_add_scalar(2.0)?)?)?;
    let (aa, bb) = (pick(&swap, &b, &a)?, pick(&swap, &a, &b)?);
    let (xx, yy) = (pick(&swap, &y, &x)?, pick(&swap, &x, &y)?);
    let front = log_power_terms(&aa, &bb, &xx, &yy)?.f_sub(&aa.f_log()?)?.f_exp()?;
    // the fraction only where the power terms leave something to compute
    let live = and(&front.f_gt(0.0)?, &xx.f_gt(0.0)?)?;
    let fraction = patch(front.f_ones_like()?, &live, &[&aa, &bb, &xx], |v| continued_fraction(&v[0], &v[1], &v[2]))?;
    let w = front.f_mul(&fraction)?.f_clamp(0.0, 1.0)?;
    let wc = w.f_neg()?.f_add_scalar(1.0)?;
    let lower = pick(&swap, &wc, &w)?.f_reshape(&shape)?;
    let upper = pick(&swap, &w, &wc)?.f_reshape(&shape)?;
    Ok((lower, upper))
}

/// SciPy's special values of `I_x(a, b)` (`upper`: of `1 - I_x(a, b)`) where
/// they are not the computed ones: nan for nan, `a < 0`, `b < 0`, `x` outside
/// [0, 1], `a = b = 0` and `a = b = inf`; the limits at `x = 0, 1`, `a = 0`
/// (all mass at 0), `b = 0`, `a = inf` (all mass at 1) and `b = inf`.
fn incbet_edges(a: &Tensor, b: &Tensor, x: &Tensor, value: Tensor, upper: bool) -> Result<Tensor> {
    let (lo, hi) = if upper { (1.0, 0.0) } else { (0.0, 1.0) };
    let at_zero = or(&a.f_eq(f64::INFINITY)?, &b.f_eq(0.0)?)?; // I = 0 for x < 1
    let at_one = or(&a.f_eq(0.0)?, &b.f_eq(f64::INFINITY)?)?; // I = 1 for x > 0
    let out = fill(&value, &at_zero, lo)?;
    let out = fill(&out, &at_one, hi)?;
    let out = fill(&out, &x.f_eq(0.0)?, lo)?;
    let out = fill(&out, &x.f_eq(1.0)?, hi)?;
    let nan = or(&any_nan(a, b)?, &x.f_isnan()?)?;
    let nan = or(&nan, &or(&a.f_lt(0.0)?, &b.f_lt(0.0)?)?)?;
    let nan = or(&nan, &or(&x.f_lt(0.0)?, &x.f_gt(1.0)?)?)?;
    let nan = or(&nan, &and(&a.f_eq(0.0)?, &b.f_eq(0.0)?)?)?;
    let nan = or(&nan, &and(&a.f_isinf()?, &b.f_isinf()?)?)?;
    fill(&out, &nan, f64::NAN)
}

/// Where the kernel computes: positive finite `a`, `b`, `0 < x < 1`.
fn interior(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    let finite = |t: &Tensor| -> Result<Tensor> { and(&t.f_gt(0.0)?, &t.f_lt(f64::INFINITY)?) };
    and(&and(&finite(a)?, &finite(b)?)?, &and(&x.f_gt(0.0)?, &x.f_lt(1.0)?)?)
}

/// `I_x(a, b)` (`upper`: `1 - I_x(a, b)`) with SciPy's edges, `y = 1 - x` given.
pub(super) fn incbet_with_y(a: &Tensor, b: &Tensor, x: &Tensor, y: &Tensor, upper: bool) -> Result<Tensor> {
    let inside = interior(a, b, x)?;
    let out = patch(full(x, f64::NAN)?, &inside, &[a, b, x, y], |v| {
        let (lower, complement) = incbet_pair(&v[0], &v[1], &v[2], &v[3])?;
        Ok(if upper { complement } else { lower })
    })?;
    incbet_edges(a, b, x, out, upper)
}

/// The regularized incomplete beta function `I_x(a, b)`, `scipy.special.betainc`.
pub(super) fn betainc(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    incbet_with_y(a, b, x, &x.f_neg()?.f_add_scalar(1.0)?, false)
}

/// Its complement `1 - I_x(a, b)`, `scipy.special.betaincc`, accurate where it is small.
pub(super) fn betaincc(a: &Tensor, b: &Tensor, x: &Tensor) -> Result<Tensor> {
    incbet_with_y(a, b, x, &x.f_neg()?.f_add_scalar(1.0)?, true)
}

/// Student's t CDF, `scipy.special.stdtr(df, t)`:
/// `I_{df/(df+t^2)}(df/2, 1/2) / 2` for `t < 0` (and its complement for `t > 0`),
/// with both arguments of `I` computed directly; the normal CDF for `df = inf`;
/// nan for `df <= 0`.
pub(super) fn stdtr(df: &Tensor, t: &Tensor) -> Result<Tensor> {
    let t2 = t.f_square()?;
    let denom = df.f_add(&t2)?;
    let x = df.f_div(&denom)?;
    let y = t2.f_div(&denom)?;
    let half_df = df.f_mul_scalar(0.5)?;
    let half = full(df, 0.5)?;
    let inside = and(&and(&df.f_gt(0.0)?, &df.f_le(NORMAL_DF)?)?, &t.f_isfinite()?)?;
    let inside = and(&inside, &t.f_ne(0.0)?)?;
    let out = patch(full(t, f64::NAN)?, &inside, &[&half_df, &half, &x, &y, t], |v| {
        // x < 1 here unless t^2 is below df's rounding: then y carries the answer
        let (lower, complement) = incbet_pair(&v[0], &v[1], &v[2].f_clamp_max(1.0)?, &v[3])?;
        let tail = lower.f_mul_scalar(0.5)?;
        let body = complement.f_mul_scalar(0.5)?.f_add_scalar(0.5)?;
        pick(&v[4].f_lt(0.0)?, &tail, &body)
    })?;
    let out = fill(&out, &t.f_eq(0.0)?, 0.5)?;
    let normal = t.f_mul_scalar(-std::f64::consts::FRAC_1_SQRT_2)?.f_erfc()?.f_mul_scalar(0.5)?;
    // df > 1e20: the normal CDF to double precision (the fraction is not built for it)
    let out = pick(&df.f_gt(NORMAL_DF)?, &normal, &out)?;
    let out = fill(&out, &t.f_eq(f64::INFINITY)?, 1.0)?;
    let out = fill(&out, &t.f_eq(f64::NEG_INFINITY)?, 0.0)?;
    fill(&out, &or(&any_nan(df, t)?, &df.f_le(0.0)?)?, f64::NAN)
}

/// The F distribution's CDF (`upper`: survival function), `scipy.special.fdtr` /
/// `fdtrc(dfn, dfd, x)`: `I_w(dfn/2, dfd/2)` with `w = dfn x/(dfn x + dfd)` and
/// `1 - w = dfd/(dfn x + dfd)` computed directly; nan for `dfn, dfd <= 0`, `x < 0`.
fn fdtr_f64(dfn: &Tensor, dfd: &Tensor, x: &Tensor, upper: bool) -> Result<Tensor> {
    let nx = dfn.f_mul(x)?;
    let denom = nx.f_add(dfd)?;
    let w = nx.f_div(&denom)?;
    let y = dfd.f_div(&denom)?;
    let bad = or(&or(&dfn.f_le(0.0)?, &dfd.f_le(0.0)?)?, &x.f_lt(0.0)?)?;
    // x = inf: w = 1 (inf/inf)
    let w = fill(&w, &x.f_eq(f64::INFINITY)?, 1.0)?;
    let y = fill(&y, &x.f_eq(f64::INFINITY)?, 0.0)?;
    let out = incbet_with_y(&dfn.f_mul_scalar(0.5)?, &dfd.f_mul_scalar(0.5)?, &w, &y, upper)?;
    // infinite degrees of freedom: nan except at x = inf (SciPy's)
    let infinite = and(&or(&dfn.f_isinf()?, &dfd.f_isinf()?)?, &x.f_ne(f64::INFINITY)?)?;
    let bad = or(&bad, &infinite)?;
    fill(&out, &or(&bad, &or(&any_nan(dfn, dfd)?, &x.f_isnan()?)?)?, f64::NAN)
}

/// The F distribution's CDF, `scipy.special.fdtr(dfn, dfd, x)`.
pub(super) fn fdtr(dfn: &Tensor, dfd: &Tensor, x: &Tensor) -> Result<Tensor> {
    fdtr_f64(dfn, dfd, x, false)
}

/// The F distribution's survival function, `scipy.special.fdtrc(dfn, dfd, x)`.
pub(super) fn fdtrc(dfn: &Tensor, dfd: &Tensor, x: &Tensor) -> Result<Tensor> {
    fdtr_f64(dfn, dfd, x, true)
}

/// The binomial CDF (`upper`: survival function) at `floor(k)`,
/// `scipy.special.bdtr(k, n, p)` = `I_{1-p}(n - k, k + 1)`; nan for `p`
/// outside [0, 1], `n < k` or (bdtr) `k < 0`, where bdtrc is 1 (SciPy's).
fn bdtr_f64(k: &Tensor, n: &Tensor, p: &Tensor, upper: bool) -> Result<Tensor> {
    let k = k.f_floor()?;
    let n = n.f_floor()?;
    let q = p.f_neg()?.f_add_scalar(1.0)?;
    // I_{1-p}(n - k, k + 1): its complement is I_p(k + 1, n - k)
    let out = incbet_with_y(&n.f_sub(&k)?, &k.f_add_scalar(1.0)?, &q, p, upper)?;
    // k = n: P(X <= n) = 1, P(X > n) = 0
    let out = fill(&out, &k.f_eq_tensor(&n)?, if upper { 0.0 } else { 1.0 })?;
    // k < 0: P(X <= k) is nan in SciPy (Cephes' domain error), P(X > k) = 1
    let out = fill(&out, &k.f_lt(0.0)?, if upper { 1.0 } else { f64::NAN })?;
    let counts = or(&n.f_lt_tensor(&k)?, &or(&k.f_isinf()?, &n.f_isinf()?)?)?;
    let counts = if upper { and(&counts, &k.f_ge(0.0)?)? } else { or(&counts, &k.f_lt(0.0)?)? };
    let bad = or(&or(&p.f_lt(0.0)?, &p.f_gt(1.0)?)?, &counts)?;
    fill(&out, &or(&bad, &or(&any_nan(&k, &n)?, &p.f_isnan()?)?)?, f64::NAN)
}

/// The binomial CDF, `scipy.special.bdtr(k, n, p)`.
pub(super) fn bdtr(k: &Tensor, n: &Tensor, p: &Tensor) -> Result<Tensor> {
    bdtr_f64(k, n, p, false)
}

/// The binomial survival function, `scipy.special.bdtrc(k, n, p)`.
pub(super) fn bdtrc(k: &Tensor, n: &Tensor, p: &Tensor) -> Result<Tensor> {
    bdtr_f64(k, n, p, true)
}

/// The negative binomial CDF (`upper`: survival function) at `floor(k)`,
/// `scipy.special.nbdtr(k, n, p)` = `I_p(n, k + 1)`; nan for `p` outside [0, 1],
/// `k < 0`, `n < 1`.
fn nbdtr_f64(k: &Tensor, n: &Tensor, p: &Tensor, upper: bool) -> Result<Tensor> {
    let k = k.f_floor()?;
    let n = n.f_floor()?;
    let q = p.f_neg()?.f_add_scalar(1.0)?;
    let out = incbet_with_y(&n, &k.f_add_scalar(1.0)?, p, &q, upper)?;
    let bad = or(&or(&p.f_lt(0.0)?, &p.f_gt(1.0)?)?, &or(&k.f_lt(0.0)?, &n.f_lt(1.0)?)?)?;
    let bad = or(&bad, &or(&k.f_isinf()?, &n.f_isinf()?)?)?;
    fill(&out, &or(&bad, &or(&any_nan(&k, &n)?, &p.f_isnan()?)?)?, f64::NAN)
}

/// The negative binomial CDF, `scipy.special.nbdtr(k, n, p)`.
pub(super) fn nbdtr(k: &Tensor, n: &Tensor, p: &Tensor) -> Result<Tensor> {
    nbdtr_f64(k, n, p, false)
}

/// The negative binomial survival function, `scipy.special.nbdtrc(k, n, p)`.
pub(super) fn nbdtrc(k: &Tensor, n: &Tensor, p: &Tensor) -> Result<Tensor> {
    nbdtr_f64(k, n, p, true)
}
