//! The beta function and binomial coefficients (Cephes' `beta.c`, SciPy's
//! `orthogonal_eval.pxd` binom): beta, betaln, binom.

use std::f64::consts::PI;

use tch::Tensor;

use super::constants::MAX_GAMMA_ARG;
use super::gamma::{gamma_f64, gamma_sign};
use super::helpers::*;
use crate::Result;

/// Where the asymptotic form of the beta function applies (SciPy's rule):
/// `|a| > 1e6 |b|` and `a > 1e6`, for `|a| >= |b|`.
const BETA_ASYMPTOTIC: f64 = 1e6;

/// `log|B(a, b)|` for `a >> b` (SciPy's rule above): the expansion of
/// `lgamma(a) - lgamma(a + b)` in 1/a to third order.
pub(super) fn lbeta_asymptotic(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let one_b = b.f_neg()?.f_add_scalar(1.0)?; // 1 - b
    let bb = b.f_mul(&one_b)?; // b (1 - b)
    let t1 = bb.f_div(&a.f_mul_scalar(2.0)?)?;
    let t2 = bb.f_mul(&b.f_mul_scalar(-2.0)?.f_add_scalar(1.0)?)?.f_div(&a.f_square()?.f_mul_scalar(12.0)?)?;
    let t3 = bb.f_square()?.f_div(&a.f_pow_tensor_scalar(3.0)?.f_mul_scalar(12.0)?)?;
    Ok(b.f_lgamma()?.f_sub(&b.f_mul(&a.f_log()?)?)?.f_add(&t1)?.f_add(&t2)?.f_sub(&t3)?)
}

/// A non-positive integer that fits an `int` (SciPy's `a == (int)a`).
pub(super) fn nonpositive_integer(a: &Tensor) -> Result<Tensor> {
    and(&and(&a.f_le(0.0)?, &is_integral(a)?)?, &a.f_ge(-2147483648.0)?)
}

/// B(a, b) or log|B(a, b)| (with `log`) away from the non-positive integers:
/// Gamma quotients while all arguments are below 171.6 (ordered to avoid
/// overflow, as SciPy), lgamma sums with signs above, the asymptotic form for
/// `a >> b`.
pub(super) fn beta_regular(a: &Tensor, b: &Tensor, log: bool) -> Result<Tensor> {
    let swap = a.f_abs()?.f_lt_tensor(&b.f_abs()?)?;
    let (a, b) = (pick(&swap, b, a)?, pick(&swap, a, b)?);
    let y = a.f_add(&b)?;
    let asymptotic =
        and(&a.f_abs()?.f_gt_tensor(&b.f_abs()?.f_mul_scalar(BETA_ASYMPTOTIC)?)?, &a.f_gt(BETA_ASYMPTOTIC)?)?;
    let large =
        or(&or(&y.f_abs()?.f_gt(MAX_GAMMA_ARG)?, &a.f_abs()?.f_gt(MAX_GAMMA_ARG)?)?, &b.f_abs()?.f_gt(MAX_GAMMA_ARG)?)?;
    let large = and(&large, &not(&asymptotic)?)?;
    let direct = not(&or(&large, &asymptotic)?)?;
    // each branch only where it applies: the Gamma quotient is the costly one
    let out = full(&a, f64::NAN)?;
    let out = patch(out, &direct, &[&a, &b], |v| {
        let (a, b) = (&v[0], &v[1]);
        let y = a.f_add(b)?;
        // Gamma(a + b) at its poles counts as +inf (SciPy's beta(1.5, -1.5) = 0)
        let (ga, gb) = (gamma_f64(a)?, gamma_f64(b)?);
        let gy = fill(&gamma_f64(&y)?, &and(&y.f_le(0.0)?, &is_integral(&y)?)?, f64::INFINITY)?;
        let (fa, fb, fy) = (ga.f_abs()?, gb.f_abs()?, gy.f_abs()?);
        // ordered like SciPy's, to keep the intermediate finite
        let a_first = fa.f_sub(&fy)?.f_abs()?.f_gt_tensor(&fb.f_sub(&fy)?.f_abs()?)?;
        let value = pick(&a_first, &gb.f_div(&gy)?.f_mul(&ga)?, &ga.f_div(&gy)?.f_mul(&gb)?)?;
        let value = fill(&value, &gy.f_eq(0.0)?, f64::INFINITY)?;
        // subnormal a or b: Gamma overflows, B(a, b) = 1/a + 1/b + O(1) does too
        let overflow = or(&ga.f_isinf()?, &gb.f_isinf()?)?;
        let value = pick(&overflow, &a.f_reciprocal()?.f_add(&b.f_reciprocal()?)?, &value)?;
        if log {
            Ok(value.f_abs()?.f_log()?)
        } else {
            Ok(value)
        }
    })?;
    let out = patch(out, &large, &[&a, &b], |v| {
        let (a, b) = (&v[0], &v[1]);
        let y = a.f_add(b)?;
        let value = a.f_lgamma()?.f_add(&b.f_lgamma()?.f_sub(&y.f_lgamma()?)?)?;
        if log {
            return Ok(value);
        }
        let sign = gamma_sign(a)?.f_mul(&gamma_sign(b)?)?.f_mul(&gamma_sign(&y)?)?;
        Ok(sign.f_mul(&value.f_exp()?)?)
    })?;
    patch(out, &asymptotic, &[&a, &b], |v| {
        let value = lbeta_asymptotic(&v[0], &v[1])?;
        if log {
            Ok(value)
        } else {
            Ok(gamma_sign(&v[1])?.f_mul(&value.f_exp()?)?)
        }
    })
}

/// SciPy's value at a non-positive integer `a` (`neg`): for integer `b` with
/// `1 - a - b > 0`, `(-1)^b B(1 - a - b, b)` (log: `log|B|`), else `inf`.
pub(super) fn beta_at_negative_integer(a: &Tensor, b: &Tensor, log: bool) -> Result<Tensor> {
    let c = a.f_neg()?.f_add_scalar(1.0)?.f_sub(b)?; // 1 - a - b
    let defined = and(&and(&is_integral(b)?, &c.f_gt(0.0)?)?, &b.f_gt(0.0)?)?;
    // b <= 0 as well: SciPy recurses into another negative-integer case, which is inf
    let c_safe = pick(&defined, &c, &full(&c, 1.0)?)?;
    let b_safe = pick(&defined, b, &full(b, 1.0)?)?;
    let value = beta_regular(&c_safe, &b_safe, log)?;
    let sign = pick(&is_odd(b)?, &full(b, -1.0)?, &full(b, 1.0)?)?;
    let value = if log { value } else { value.f_mul(&sign)? };
    let infinite = if log { full(b, f64::INFINITY)? } else { sign.f_mul_scalar(f64::INFINITY)? };
    let recursed = and(&and(&is_integral(b)?, &c.f_gt(0.0)?)?, &b.f_le(0.0)?)?;
    let out = pick(&defined, &value, &full(b, f64::INFINITY)?)?;
    pick(&recursed, &infinite, &out)
}

pub(super) fn beta_f64(a: &Tensor, b: &Tensor, log: bool) -> Result<Tensor> {
    let a_neg = nonpositive_integer(a)?;
    let b_neg = nonpositive_integer(b)?;
    let out = beta_regular(a, b, log)?;
    let out = patch(out, &and(&b_neg, &not(&a_neg)?)?, &[a, b], |v| beta_at_negative_integer(&v[1], &v[0], log))?;
    let out = patch(out, &a_neg, &[a, b], |v| beta_at_negative_integer(&v[0], &v[1], log))?;
    // non-positive integers beyond int range: SciPy's overflow branch
    let huge = |t: &Tensor| -> Result<Tensor> { and(&t.f_lt(-2147483648.0)?, &is_integral(t)?) };
    fill(&out, &or(&huge(a)?, &huge(b)?)?, f64::INFINITY)
}

/// The beta function `Gamma(a) Gamma(b) / Gamma(a + b)`, `scipy.special.beta`,
/// with SciPy's branches (including its values at the negative integers).
pub(super) fn beta(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    beta_f64(a, b, false)
}

/// `log|B(a, b)|`, `scipy.special.betaln`.
pub(super) fn betaln(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    beta_f64(a, b, true)
}

/// Binomial coefficients for real arguments, `scipy.special.binom(n, k)`:
/// SciPy's multiplication formula for integer `k < 20` (exact for integer
/// results), its two asymptotic branches, and `1 / ((n + 1) B(n - k + 1, k + 1))`
/// elsewhere; nan at negative integer `n`.
pub(super) fn binom(n: &Tensor, k: &Tensor) -> Result<Tensor> {
    // integer k below 20 (after SciPy's symmetry reduction): the product formula
    // n >= 1e10 k > 0, and k > 1e8 |n|: SciPy's asymptotic branches
    let kx = k.f_floor()?;
    let nx = n.f_floor()?;
    let n_int = n.f_eq_tensor(&nx)?;
    let n1 = n.f_add_scalar(1.0)?;
    let integer_k = and(&k.f_eq_tensor(&kx)?, &or(&n.f_abs()?.f_gt(1e-8)?, &n.f_eq(0.0)?)?)?;
    let reduce = and(&and(&n_int, &kx.f_gt_tensor(&nx.f_mul_scalar(0.5)?)?)?, &nx.f_gt(0.0)?)?;
    let kr = pick(&reduce, &nx.f_sub(&kx)?, &kx)?;
    let use_product = and(&integer_k, &and(&kr.f_ge(0.0)?, &kr.f_lt(20.0)?)?)?;
    let huge_n = and(&and(&n.f_ge_tensor(&k.f_mul_scalar(1e10)?)?, &k.f_gt(0.0)?)?, &not(&use_product)?)?;
    let huge_k = and(&k.f_gt_tensor(&n.f_abs()?.f_mul_scalar(1e8)?)?, &not(&or(&use_product, &huge_n)?)?)?;
    let general = not(&or(&or(&use_product, &huge_n)?, &huge_k)?)?;
    let out = full(n, f64::NAN)?;
    let out = patch(out, &general, &[n, k], |v| {
        let (n, k) = (&v[0], &v[1]);
        let n1 = n.f_add_scalar(1.0)?;
        Ok(n1.f_reciprocal()?.f_div(&beta_f64(&n1.f_sub(k)?, &k.f_add_scalar(1.0)?, false)?)?)
    })?;
    let out = patch(out, &use_product, &[n, &kr], |v| {
        let (n, kr) = (&v[0], &v[1]);
        let (mut num, mut den) = (full(n, 1.0)?, full(n, 1.0)?);
        for i in 1..20 {
            let active = kr.f_ge(i as f64)?;
            let num_i = n.f_add_scalar(i as f64)?.f_sub(kr)?.f_mul(&num)?;
            let den_i = den.f_mul_scalar(i as f64)?;
            let rescale = num_i.f_abs()?.f_gt(1e50)?;
            let num_r = pick(&rescale, &num_i.f_div(&den_i)?, &num_i)?;
            let den_r = fill(&den_i, &rescale, 1.0)?;
            num = pick(&active, &num_r, &num)?;
            den = pick(&active, &den_r, &den)?;
        }
        Ok(num.f_div(&den)?)
    })?;
    let out = patch(out, &huge_n, &[k, &n1], |v| {
        let (k, n1) = (&v[0], &v[1]);
        let lbeta = beta_f64(&n1.f_sub(k)?, &k.f_add_scalar(1.0)?, true)?;
        Ok(lbeta.f_add(&n1.f_log()?)?.f_neg()?.f_exp()?)
    })?;
    let out = patch(out, &huge_k, &[n, k, &n1], |v| {
        let (n, k, n1) = (&v[0], &v[1], &v[2]);
        let kx = k.f_floor()?;
        let gn = gamma_f64(n1)?;
        let ak = k.f_abs()?;
        let num = gn.f_div(&ak)?.f_add(&gn.f_mul(n)?.f_div(&k.f_square()?.f_mul_scalar(2.0)?)?)?;
        let num = num.f_div(&ak.f_pow(n)?.f_mul_scalar(PI)?)?;
        let kx_int = and(&kx.f_abs()?.f_lt(2147483648.0)?, &k.f_isfinite()?)?;
        let dk = pick(&kx_int, &k.f_sub(&kx)?, k)?;
        let sgn = pick(&and(&kx_int, &is_odd(&kx)?)?, &full(k, -1.0)?, &full(k, 1.0)?)?;
        let positive = num.f_mul(&dk.f_sub(n)?.f_mul_scalar(PI)?.f_sin()?)?.f_mul(&sgn)?;
        let negative = fill(&num.f_mul(&k.f_mul_scalar(PI)?.f_sin()?)?, &kx_int, 0.0)?;
        pick(&k.f_gt(0.0)?, &positive, &negative)
    })?;
    fill(&out, &and(&n.f_lt(0.0)?, &n_int)?, f64::NAN)
}

/// The floating-point `comb(N, k, exact=False, repetition=...)` of SciPy's
/// `_basic.py`: `binom(N, k)` where `0 <= k <= N`, 0 elsewhere; with
/// `repetition`, `binom(N + k - 1, k)`, 1 where `k == 0` and `N >= 0`. The
/// loop is `binom`'s for the two arrays (SciPy passes `asarray`s: Python
/// literals are not weak here), `N + k - 1` formed in the loop's dtype.
pub fn comb(n: &Tensor, k: &Tensor, repetition: bool) -> Result<Tensor> {
    guarded(|| {
        let (n, k) = loop_inputs(&super::ufuncs::table::binom, n, k)?;
        if repetition {
            let value = super::ufuncs::binom(&n.f_add(&k)?.f_sub_scalar(1.0)?, &k)?;
            let one = and(&k.f_eq(0.0)?, &n.f_ge(0.0)?)?;
            Ok(value.f_masked_fill(&one, 1.0)?)
        } else {
            let value = super::ufuncs::binom(&n, &k)?;
            let valid = and(&and(&k.f_le_tensor(&n)?, &n.f_ge(0.0)?)?, &k.f_ge(0.0)?)?;
            Ok(value.f_masked_fill(&not(&valid)?, 0.0)?)
        }
    })
}

/// The floating-point `perm(N, k, exact=False)` of SciPy's `_basic.py`:
/// `poch(N - k + 1, k)` where `0 <= k <= N`, 0 elsewhere (`poch`'s loop).
pub fn perm(n: &Tensor, k: &Tensor) -> Result<Tensor> {
    guarded(|| {
        let (n, k) = loop_inputs(&super::ufuncs::table::poch, n, k)?;
        let value = super::ufuncs::poch(&n.f_sub(&k)?.f_add_scalar(1.0)?, &k)?;
        let valid = and(&and(&k.f_le_tensor(&n)?, &n.f_ge(0.0)?)?, &k.f_ge(0.0)?)?;
        Ok(value.f_masked_fill(&not(&valid)?, 0.0)?)
    })
}

/// `n` and `k` cast to the loop `ufunc` runs for the two arrays, broadcast on one device.
fn loop_inputs(ufunc: &super::ufuncs::Ufunc, n: &Tensor, k: &Tensor) -> Result<(Tensor, Tensor)> {
    use super::loops::Operand;
    use crate::ops::numpy::{broadcast, cast, same_device};
    let operands = [Operand::Array(crate::dlpack::dtype_of(n)?), Operand::Array(crate::dlpack::dtype_of(k)?)];
    let chosen = ufunc.loop_for(&operands)?;
    let cast_n = cast(n, chosen.inputs[0])?;
    let cast_k = cast(k, chosen.inputs[1])?;
    let mut both = broadcast(same_device(vec![cast_n, cast_k])?)?;
    let k = both.pop().expect("two tensors");
    let n = both.pop().expect("two tensors");
    Ok((n, k))
}
