//! The Tukey lambda distribution's CDF (SciPy's `tklmbda`, Cephes'
//! `tukey.c`).
//!
//! The quantile function is `x = (p^l - (1 - p)^l) / l`; the CDF inverts it.
//! SciPy bisects on p to an absolute 1e-14 (so its lower tail has no relative
//! accuracy) and takes the logistic CDF for `|l| < 1e-4` (off by O(l)).
//! Here the smaller tail `q = min(p, 1 - p)` is found from `-|x|` by bisection
//! on `t = log q` over `[-745, log 1/2]` (60 halvings: `t` to 7e-16) and one
//! Newton step in p, with the quantile written `(expm1(l t) - expm1(l log1p(-e^t))) / l`
//! where both powers are near 1 (its limit `t - log1p(-e^t)` at `l = 0`), so
//! that every `l` and both tails keep their relative accuracy; 1/2 for
//! `l < -1000`, where every finite x is the quantile of a p within an ulp of 1/2. `q = 0` beyond the support (`|x| >= 1 / l`
//! for `l > 0`) or below the smallest subnormal.

use tch::Tensor;

use super::helpers::*;
use crate::Result;

/// The quantile at `p = e^t` (t <= log 1/2), and `p` times its derivative in `p`:
/// `p^l - (1 - p)^l` as `expm1(l t) - expm1(l log1p(-e^t))` where `|l t| < 1`
/// (both powers near 1), directly elsewhere (either power far from 1: the
/// expm1 form would lose the small one to the absolute error of the -1's).
fn quantile(t: &Tensor, l: &Tensor, zero: &Tensor) -> Result<(Tensor, Tensor)> {
    let p = t.f_exp()?;
    let log_q = p.f_neg()?.f_log1p()?; // log(1 - p)
    let (lt, lq) = (l.f_mul(t)?, l.f_mul(&log_q)?);
    let near_one = lt.f_abs()?.f_lt(1.0)?;
    let direct = p.f_pow(l)?.f_sub(&p.f_neg()?.f_add_scalar(1.0)?.f_pow(l)?)?;
    let difference = pick(&near_one, &lt.f_expm1()?.f_sub(&lq.f_expm1()?)?, &direct)?;
    let value = pick(zero, &t.f_sub(&log_q)?, &difference.f_div(l)?)?;
    // p d/dp = d/dt: p^l + p (1 - p)^(l - 1) (finite where the quantile is)
    let slope = lt.f_exp()?.f_add(&p.f_mul(&l.f_sub_scalar(1.0)?.f_mul(&log_q)?.f_exp()?)?)?;
    Ok((value, slope))
}

/// The Tukey lambda CDF at `x` for shape `lmbda`, `scipy.special.tklmbda(x, lmbda)`.
pub(super) fn tklmbda(x: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let target = x.f_abs()?.f_neg()?;
    let target = fill(&target, &target.f_isnan()?, -1.0)?;
    let l = fill(lmbda, &lmbda.f_isnan()?, 1.0)?;
    let zero = l.f_eq(0.0)?;
    let mut lo = x.f_full_like(-745.0)?;
    let mut hi = x.f_full_like(0.5f64.ln())?;
    for _ in 0..60 {
        let mid = lo.f_add(&hi)?.f_mul_scalar(0.5)?;
        let (value, _) = quantile(&mid, &l, &zero)?;
        let above = value.f_gt_tensor(&target)?;
        hi = pick(&above, &mid, &hi)?;
        lo = pick(&above, &lo, &mid)?;
    }
    // one Newton step in p itself, relative (a step in t = log p would leave
    // |t| eps): p (1 - (g(p) - x) / (p g'(p)))
    let t = lo.f_add(&hi)?.f_mul_scalar(0.5)?;
    let (value, slope) = quantile(&t, &l, &zero)?;
    let step = value.f_sub(&target)?.f_div(&slope)?;
    let step = fill(&step, &not(&step.f_isfinite()?)?, 0.0)?;
    let mut tail = t.f_exp()?.f_mul(&step.f_neg()?.f_add_scalar(1.0)?)?.f_clamp(0.0, 0.5)?;
    // below the support's lower end, or below the smallest subnormal
    let (at_bottom, _) = quantile(&x.f_full_like(-745.0)?, &l, &zero)?;
    tail = fill(&tail, &at_bottom.f_ge_tensor(&target)?, 0.0)?;
    let positive = l.f_gt(0.0)?;
    let outside = and(&positive, &x.f_abs()?.f_ge_tensor(&l.f_reciprocal()?)?)?;
    tail = fill(&tail, &outside, 0.0)?;
    tail = fill(&tail, &target.f_eq(0.0)?, 0.5)?;
    let out = pick(&x.f_lt(0.0)?, &tail, &tail.f_neg()?.f_add_scalar(1.0)?)?;
    // l < -1000: 2^-l overflows, every finite x is the quantile of a p within
    // an ulp of 1/2 (SciPy's bisection wanders off to 1 - 7e-15 there)
    let out = fill(&out, &and(&lmbda.f_lt(-1e3)?, &x.f_isfinite()?)?, 0.5)?;
    let out = fill(&fill(&out, &x.f_isneginf()?, 0.0)?, &x.f_isposinf()?, 1.0)?;
    // SciPy's order: x <= -1/l gives 0 before x >= 1/l gives 1 (l = inf at x = 0)
    let out = fill(&out, &and(&positive, &x.f_le_tensor(&l.f_reciprocal()?.f_neg()?)?)?, 0.0)?;
    fill(&out, &any_nan(x, lmbda)?, f64::NAN)
}
