//! Carlson's symmetric elliptic integrals (SciPy's `ellint_carlson`, real
//! arguments): elliprf, elliprd, elliprc, elliprj, elliprg, by Carlson's
//! duplication theorem (Carlson 1995, "Numerical computation of real or
//! complex elliptic integrals") with a fixed number of steps, so that every
//! element takes the same path on any device.
//!
//! Where the largest argument is beyond 2^1000 or below 2^-900, the arguments
//! are first scaled by an even power of two (the integrals are homogeneous,
//! and the scaling is exact), so that the duplication steps neither overflow
//! nor underflow; arguments of ordinary size are left alone, so that a tiny
//! one next to a huge one (R_F(1e-300, 0, 1e300)) is not flushed to 0 (the
//! first step's `lambda = sqrt(x z)` brings them together).
//! Each step brings the arguments' ratios `r` to `sqrt(r)` until they are of
//! one order, then divides their relative spread by 4: 25 steps take even
//! ratios of 1e-308 to a spread below 1e-6, where the fifth-order Taylor
//! polynomials are exact to the last bit.
//!
//! Complex arguments (SciPy's `FFF->F`, `DDD->D` loops; the loop makes every
//! argument complex) go to the C++ kernel of `csrc/carlson_math.h`
//! (`csrc/xsf_complex.cpp`), a CPU loop with SciPy's domain rules: input on
//! another device goes to the CPU and back. Not differentiable.

use tch::Tensor;

use super::faddeeva::is_complex;
use super::helpers::*;
use super::xsf_complex::carlson_complex;
use crate::ffi::xsf_complex::Carlson;
use crate::ops::autograd::with_derivatives;
use crate::Result;

/// The duplication steps of every integral.
const STEPS: usize = 25;

/// `(k, 2^-k args)` with `k` even: 0 where the largest finite argument is
/// between 2^-900 and 2^1000, else about its binary exponent less 1000 (for
/// huge arguments) or its exponent (for tiny ones, scaled to about 1).
fn scale(args: &[&Tensor]) -> Result<(Tensor, Vec<Tensor>)> {
    scale_to(args, Some(1000.0))
}

/// [`scale`] with the threshold `2^limit` (and `2^-limit` below, at least
/// -900) in place of 2^1000 (R_J multiplies three square roots: 2^600), or
/// with `None` the largest argument brought to about 1 in every case (R_G,
/// whose formula multiplies arguments together; a tiny argument next to a huge
/// one may then flush to 0, where R_G is continuous).
fn scale_to(args: &[&Tensor], limit: Option<f64>) -> Result<(Tensor, Vec<Tensor>)> {
    let mut largest = args[0].f_abs()?;
    for a in &args[1..] {
        largest = largest.f_fmax(&a.f_abs()?)?;
    }
    let usable = and(&largest.f_gt(0.0)?, &largest.f_isfinite()?)?;
    let e = largest.f_log2()?.f_mul_scalar(0.5)?.f_floor()?.f_mul_scalar(2.0)?;
    let k = match limit {
        None => e,
        Some(limit) => {
            let k = pick(&e.f_gt(limit)?, &e.f_sub_scalar(limit)?, &full(&e, 0.0)?)?;
            pick(&e.f_lt(-limit.min(900.0))?, &e, &k)?
        }
    };
    let k = fill(&k, &not(&usable)?, 0.0)?;
    let factor = k.f_neg()?.f_exp2()?;
    let scaled = args.iter().map(|a| Ok(a.f_mul(&factor)?)).collect::<Result<Vec<_>>>()?;
    Ok((k, scaled))
}

/// `value * 2^(-degree k)`, the scaling of [`scale`] undone for an integral
/// homogeneous of degree `-degree`, in two halves (`2^(-1.5 k)` alone
/// underflows where the product does not).
fn unscale(value: &Tensor, k: &Tensor, degree: f64) -> Result<Tensor> {
    let half = k.f_mul_scalar(-0.5 * degree)?.f_exp2()?;
    Ok(value.f_mul(&half)?.f_mul(&half)?)
}

/// `sqrt(x) sqrt(y) + sqrt(x) sqrt(z) + sqrt(y) sqrt(z)`.
fn lambda(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    let (sx, sy, sz) = (x.f_sqrt()?, y.f_sqrt()?, z.f_sqrt()?);
    Ok(sx.f_mul(&sy)?.f_add(&sx.f_mul(&sz)?)?.f_add(&sy.f_mul(&sz)?)?)
}

/// `R_F` on nonnegative finite arguments, at most one of them 0.
fn rf_core(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    let (k, s) = scale(&[x, y, z])?;
    let (mut x, mut y, mut z) = (s[0].shallow_clone(), s[1].shallow_clone(), s[2].shallow_clone());
    let mut a = x.f_add(&y)?.f_add(&z)?.f_div_scalar(3.0)?;
    for _ in 0..STEPS {
        let l = lambda(&x, &y, &z)?;
        x = x.f_add(&l)?.f_mul_scalar(0.25)?;
        y = y.f_add(&l)?.f_mul_scalar(0.25)?;
        z = z.f_add(&l)?.f_mul_scalar(0.25)?;
        a = a.f_add(&l)?.f_mul_scalar(0.25)?;
    }
    let dx = a.f_sub(&x)?.f_div(&a)?;
    let dy = a.f_sub(&y)?.f_div(&a)?;
    let dz = dx.f_add(&dy)?.f_neg()?;
    let e2 = dx.f_mul(&dy)?.f_sub(&dz.f_square()?)?;
    let e3 = dx.f_mul(&dy)?.f_mul(&dz)?;
    // 1 - E2/10 + E3/14 + E2^2/24 - 3 E2 E3/44
    let poly = e2
        .f_mul_scalar(-0.1)?
        .f_add(&e3.f_div_scalar(14.0)?)?
        .f_add(&e2.f_square()?.f_div_scalar(24.0)?)?
        .f_sub(&e2.f_mul(&e3)?.f_mul_scalar(3.0 / 44.0)?)?
        .f_add_scalar(1.0)?;
    unscale(&poly.f_div(&a.f_sqrt()?)?, &k, 0.5)
}

/// `1 - 3 E2/14 + E3/6 + 9 E2^2/88 - 3 E4/22 - 9 E2 E3/52 + 3 E5/26`, the
/// Taylor polynomial of `R_D` and `R_J`.
fn rj_polynomial(e2: &Tensor, e3: &Tensor, e4: &Tensor, e5: &Tensor) -> Result<Tensor> {
    Ok(e2
        .f_mul_scalar(-3.0 / 14.0)?
        .f_add(&e3.f_div_scalar(6.0)?)?
        .f_add(&e2.f_square()?.f_mul_scalar(9.0 / 88.0)?)?
        .f_sub(&e4.f_mul_scalar(3.0 / 22.0)?)?
        .f_sub(&e2.f_mul(e3)?.f_mul_scalar(9.0 / 52.0)?)?
        .f_add(&e5.f_mul_scalar(3.0 / 26.0)?)?
        .f_add_scalar(1.0)?)
}

/// `R_D` on nonnegative finite arguments, `z > 0` and `x + y > 0`.
fn rd_core(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    let (k, s) = scale(&[x, y, z])?;
    let (mut x, mut y, mut z) = (s[0].shallow_clone(), s[1].shallow_clone(), s[2].shallow_clone());
    let mut a = x.f_add(&y)?.f_add(&z.f_mul_scalar(3.0)?)?.f_div_scalar(5.0)?;
    let mut sum = x.f_zeros_like()?;
    let mut power = 1.0; // 4^-m
    for _ in 0..STEPS {
        let l = lambda(&x, &y, &z)?;
        sum = sum.f_add(&z.f_sqrt()?.f_mul(&z.f_add(&l)?)?.f_reciprocal()?.f_mul_scalar(power)?)?;
        x = x.f_add(&l)?.f_mul_scalar(0.25)?;
        y = y.f_add(&l)?.f_mul_scalar(0.25)?;
        z = z.f_add(&l)?.f_mul_scalar(0.25)?;
        a = a.f_add(&l)?.f_mul_scalar(0.25)?;
        power *= 0.25;
    }
    let dx = a.f_sub(&x)?.f_div(&a)?;
    let dy = a.f_sub(&y)?.f_div(&a)?;
    let dz = dx.f_add(&dy)?.f_div_scalar(-3.0)?;
    let xy = dx.f_mul(&dy)?;
    let z2 = dz.f_square()?;
    let e2 = xy.f_sub(&z2.f_mul_scalar(6.0)?)?;
    let e3 = xy.f_mul_scalar(3.0)?.f_sub(&z2.f_mul_scalar(8.0)?)?.f_mul(&dz)?;
    let e4 = xy.f_sub(&z2)?.f_mul(&z2)?.f_mul_scalar(3.0)?;
    let e5 = xy.f_mul(&z2)?.f_mul(&dz)?;
    let poly = rj_polynomial(&e2, &e3, &e4, &e5)?;
    let tail = poly.f_mul_scalar(power)?.f_div(&a.f_mul(&a.f_sqrt()?)?)?;
    unscale(&tail.f_add(&sum.f_mul_scalar(3.0)?)?, &k, 1.5)
}

/// `R_C(1, w)` for w >= 0: `atan(s) / s` with `s = sqrt(w - 1)` above 1,
/// `ln((1 + s) / sqrt(w)) / s` with `s = sqrt(1 - w)` below (`atanh(s) / s`
/// written so that it keeps its accuracy as w goes to 0), and the Taylor
/// series `sum (-t)^n / (2n + 1)` in `t = w - 1` for |t| < 1e-3.
fn rc_one(w: &Tensor) -> Result<Tensor> {
    let t = w.f_sub_scalar(1.0)?;
    let root = t.f_abs()?.f_sqrt()?;
    let positive = root.f_atan()?.f_div(&root)?;
    let negative = root.f_add_scalar(1.0)?.f_div(&w.f_sqrt()?)?.f_log()?.f_div(&root)?;
    let out = pick(&t.f_gt(0.0)?, &positive, &negative)?;
    let t = &t;
    let coefficients: Vec<f64> = (0..7).map(|n| (-1f64).powi(n) / f64::from(2 * n + 1)).collect();
    pick(&t.f_abs()?.f_lt(1e-3)?, &horner(t, &coefficients)?, &out)
}

/// `R_J` on nonnegative finite `x, y, z` (at most one 0) and finite `p > 0`,
/// in [`STEPS`] duplication steps, more where p is far above x, y and z: the
/// steps bring x, y and z together by square roots, but p down to them only by
/// a factor 4 each. For `p / max(x, y, z)` up to 1e32, 90 steps; beyond, the
/// expansion `R_J = 3 R_F(x, y, z) / p - 3 pi / (2 p^(3/2)) + O(max / p^2)`.
fn rj_positive(x: &Tensor, y: &Tensor, z: &Tensor, p: &Tensor) -> Result<Tensor> {
    let ratio = p.f_div(&x.f_maximum(y)?.f_maximum(z)?)?;
    let out = rj_core(x, y, z, p, STEPS)?;
    let far = and(&ratio.f_gt(1e5)?, &ratio.f_le(1e32)?)?;
    let out = patch(out, &far, &[x, y, z, p], |v| rj_core(&v[0], &v[1], &v[2], &v[3], 90))?;
    patch(out, &ratio.f_gt(1e32)?, &[x, y, z, p], |v| {
        let inverse = v[3].f_reciprocal()?;
        let lead = rf_core(&v[0], &v[1], &v[2])?.f_mul(&inverse)?.f_mul_scalar(3.0)?;
        let next = inverse.f_mul(&inverse.f_sqrt()?)?.f_mul_scalar(1.5 * std::f64::consts::PI)?;
        Ok(lead.f_sub(&next)?)
    })
}

/// `R_J` by `steps` duplication steps (see [`rj_positive`]).
fn rj_core(x: &Tensor, y: &Tensor, z: &Tensor, p: &Tensor, steps: usize) -> Result<Tensor> {
    let (k, s) = scale_to(&[x, y, z, p], Some(600.0))?;
    let (mut x, mut y, mut z, mut p) =
        (s[0].shallow_clone(), s[1].shallow_clone(), s[2].shallow_clone(), s[3].shallow_clone());
    let mut a = x.f_add(&y)?.f_add(&z)?.f_add(&p.f_mul_scalar(2.0)?)?.f_div_scalar(5.0)?;
    let mut sum = x.f_zeros_like()?;
    let mut power = 1.0; // 4^-m
    for _ in 0..steps {
        let (sx, sy, sz, sp) = (x.f_sqrt()?, y.f_sqrt()?, z.f_sqrt()?, p.f_sqrt()?);
        let l = sx.f_mul(&sy)?.f_add(&sx.f_mul(&sz)?)?.f_add(&sy.f_mul(&sz)?)?;
        let d = sp.f_add(&sx)?.f_mul(&sp.f_add(&sy)?)?.f_mul(&sp.f_add(&sz)?)?;
        // 1 + e_m with e_m = 4^(-3m) delta / d^2, delta = (p0 - x0)(p0 - y0)(p0 - z0):
        // d^2 + (p - x)(p - y)(p - z) = 2 sqrt(p) (p + lambda) d, so 1 + e_m
        // = 2 sqrt(p) (p + lambda) / d without the cancellation where e_m ~ -1
        let w = sp.f_mul(&p.f_add(&l)?)?.f_mul_scalar(2.0)?.f_div(&d)?;
        sum = sum.f_add(&rc_one(&w)?.f_div(&d)?.f_mul_scalar(power)?)?;
        x = x.f_add(&l)?.f_mul_scalar(0.25)?;
        y = y.f_add(&l)?.f_mul_scalar(0.25)?;
        z = z.f_add(&l)?.f_mul_scalar(0.25)?;
        p = p.f_add(&l)?.f_mul_scalar(0.25)?;
        a = a.f_add(&l)?.f_mul_scalar(0.25)?;
        power *= 0.25;
    }
    let dx = a.f_sub(&x)?.f_div(&a)?;
    let dy = a.f_sub(&y)?.f_div(&a)?;
    let dz = a.f_sub(&z)?.f_div(&a)?;
    let dp = dx.f_add(&dy)?.f_add(&dz)?.f_mul_scalar(-0.5)?;
    let xyz = dx.f_mul(&dy)?.f_mul(&dz)?;
    let p2 = dp.f_square()?;
    let e2 = dx.f_mul(&dy)?.f_add(&dx.f_mul(&dz)?)?.f_add(&dy.f_mul(&dz)?)?.f_sub(&p2.f_mul_scalar(3.0)?)?;
    let e3 = xyz.f_add(&e2.f_mul(&dp)?.f_mul_scalar(2.0)?)?.f_add(&p2.f_mul(&dp)?.f_mul_scalar(4.0)?)?;
    let e4 = xyz.f_mul_scalar(2.0)?.f_add(&e2.f_mul(&dp)?)?.f_add(&p2.f_mul(&dp)?.f_mul_scalar(3.0)?)?.f_mul(&dp)?;
    let e5 = xyz.f_mul(&p2)?;
    let poly = rj_polynomial(&e2, &e3, &e4, &e5)?;
    let tail = poly.f_mul_scalar(power)?.f_div(&a.f_mul(&a.f_sqrt()?)?)?;
    unscale(&tail.f_add(&sum.f_mul_scalar(6.0)?)?, &k, 1.5)
}

/// `R_C` on `x >= 0` finite and `y > 0` finite.
fn rc_core(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (k, s) = scale(&[x, y])?;
    let (mut x, mut y) = (s[0].shallow_clone(), s[1].shallow_clone());
    let mut a = x.f_add(&y.f_mul_scalar(2.0)?)?.f_div_scalar(3.0)?;
    for _ in 0..STEPS {
        let l = x.f_sqrt()?.f_mul(&y.f_sqrt()?)?.f_mul_scalar(2.0)?.f_add(&y)?;
        x = x.f_add(&l)?.f_mul_scalar(0.25)?;
        y = y.f_add(&l)?.f_mul_scalar(0.25)?;
        a = a.f_add(&l)?.f_mul_scalar(0.25)?;
    }
    let s = y.f_sub(&a)?.f_div(&a)?;
    // 1 + s^2 (3/10 + s (1/7 + s (3/8 + s (9/22 + s (159/208 + 9 s / 8)))))
    let poly = horner(&s, &[1.0, 0.0, 0.3, 1.0 / 7.0, 0.375, 9.0 / 22.0, 159.0 / 208.0, 1.125])?;
    unscale(&poly.f_div(&a.f_sqrt()?)?, &k, 0.5)
}

/// Whether any of `args` is nan.
fn any_nan_of(args: &[&Tensor]) -> Result<Tensor> {
    let mut out = args[0].f_isnan()?;
    for a in &args[1..] {
        out = or(&out, &a.f_isnan()?)?;
    }
    Ok(out)
}

/// The number of zeros among `args`, as float64.
fn zeros_of(args: &[&Tensor]) -> Result<Tensor> {
    let mut out = args[0].f_eq(0.0)?.f_to_kind(tch::Kind::Double)?;
    for a in &args[1..] {
        out = out.f_add(&a.f_eq(0.0)?.f_to_kind(tch::Kind::Double)?)?;
    }
    Ok(out)
}

/// Whether any of `args` is infinite.
fn any_inf_of(args: &[&Tensor]) -> Result<Tensor> {
    let mut out = args[0].f_isinf()?;
    for a in &args[1..] {
        out = or(&out, &a.f_isinf()?)?;
    }
    Ok(out)
}

/// Whether any of `args` is negative.
fn any_negative_of(args: &[&Tensor]) -> Result<Tensor> {
    let mut out = args[0].f_lt(0.0)?;
    for a in &args[1..] {
        out = or(&out, &a.f_lt(0.0)?)?;
    }
    Ok(out)
}

/// `args` with 1 where `mask`, so that the core never sees the excluded values.
fn tame(args: &[&Tensor], mask: &Tensor) -> Result<Vec<Tensor>> {
    args.iter().map(|a| fill(a, mask, 1.0)).collect()
}

/// `R_F(x, y, z)` on float64: nan for a negative or nan argument, 0 where one
/// is infinite, else `inf` where two arguments are 0.
pub(super) fn rf_f64(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    let args = [x, y, z];
    let nan = or(&any_nan_of(&args)?, &any_negative_of(&args)?)?;
    let inf = zeros_of(&args)?.f_ge(2.0)?;
    let zero = any_inf_of(&args)?;
    let special = or(&or(&nan, &inf)?, &zero)?;
    let t = tame(&args, &special)?;
    let out = rf_core(&t[0], &t[1], &t[2])?;
    let out = fill(&out, &inf, f64::INFINITY)?;
    let out = fill(&out, &zero, 0.0)?;
    fill(&out, &nan, f64::NAN)
}

/// Carlson's completely symmetric elliptic integral of the first kind,
/// `scipy.special.elliprf` (real arguments).
pub(super) fn elliprf(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return carlson_complex(Carlson::Rf, &[x, y, z]);
    }
    rf_f64(x, y, z)
}

/// `R_D(x, y, z)` on float64, with SciPy's order of the special values: nan
/// for a negative or nan argument, `inf` where z = 0, else 0 where one is
/// infinite, else `inf` where x = y = 0.
pub(super) fn rd_f64(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    let args = [x, y, z];
    let nan = or(&any_nan_of(&args)?, &any_negative_of(&args)?)?;
    let both_zero = and(&x.f_eq(0.0)?, &y.f_eq(0.0)?)?;
    let z_zero = z.f_eq(0.0)?;
    let zero = any_inf_of(&args)?;
    let special = or(&or(&nan, &or(&both_zero, &z_zero)?)?, &zero)?;
    let t = tame(&args, &special)?;
    let out = rd_core(&t[0], &t[1], &t[2])?;
    let out = fill(&out, &both_zero, f64::INFINITY)?;
    let out = fill(&out, &zero, 0.0)?;
    let out = fill(&out, &z_zero, f64::INFINITY)?;
    fill(&out, &nan, f64::NAN)
}

/// Carlson's symmetric elliptic integral of the second kind `R_D`,
/// `scipy.special.elliprd` (real arguments).
pub(super) fn elliprd(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return carlson_complex(Carlson::Rd, &[x, y, z]);
    }
    rd_f64(x, y, z)
}

/// `R_C(x, y)` on float64: the duplication algorithm (no cancellation at
/// x ~ y, unlike the closed forms with acos/acosh), Cauchy's principal value
/// `sqrt(x / (x - y)) R_C(x - y, -y)` for y < 0; nan for x < 0, y = 0 or nan
/// (SciPy's values), 0 where x or |y| is infinite.
pub(super) fn rc_f64(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let nan = or(&any_nan_of(&[x, y])?, &or(&x.f_lt(0.0)?, &y.f_eq(0.0)?)?)?;
    let zero = any_inf_of(&[x, y])?;
    let special = or(&nan, &zero)?;
    let t = tame(&[x, y], &special)?;
    let (x, y) = (&t[0], &t[1]);
    let negative = y.f_lt(0.0)?;
    let u = pick(&negative, &x.f_sub(y)?, x)?;
    let v = y.f_abs()?;
    let factor = pick(&negative, &x.f_div(&x.f_sub(y)?)?.f_sqrt()?, &full(x, 1.0)?)?;
    let out = rc_core(&u, &v)?.f_mul(&factor)?;
    let out = fill(&out, &zero, 0.0)?;
    fill(&out, &nan, f64::NAN)
}

/// The degenerate symmetric elliptic integral `R_C`, `scipy.special.elliprc`
/// (real arguments). Derivatives `-R_D(y, y, x) / 6` and `-R_D(x, y, y) / 3`
/// (DLMF 19.18.1 with `R_C(x, y) = R_F(x, y, y)`); for y < 0 (the principal
/// value) `(R_C - sqrt(x)/y) / 2(x - y)` in y, by parts, and `x` from Euler's
/// relation `x d_x + y d_y = -R_C/2`. Autograd through the duplication
/// steps' square roots gives nan at x = 0 < y.
pub(super) fn elliprc(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return carlson_complex(Carlson::Rc, &[x, y]);
    }
    let positive = y.f_gt(0.0)?;
    let y_safe = pick(&positive, y, &full(y, 1.0)?)?; // R_D needs y > 0
    let principal_in_y = |rc: &Tensor| {
        let x_minus_y = pick(&positive, &full(x, 1.0)?, &x.f_sub(y)?)?; // > 0 where y < 0 <= x
        Ok::<_, crate::Error>(rc.f_sub(&x.f_sqrt()?.f_div(y)?)?.f_div(&x_minus_y.f_mul_scalar(2.0)?)?)
    };
    let in_y = |rc: &Tensor| {
        let by_rd = rd_f64(x, &y_safe, &y_safe)?.f_div_scalar(-3.0)?;
        pick(&positive, &by_rd, &principal_in_y(rc)?)
    };
    let in_x = |rc: &Tensor| {
        let by_rd = rd_f64(&y_safe, &y_safe, x)?.f_div_scalar(-6.0)?;
        let euler = rc.f_mul_scalar(-0.5)?.f_sub(&y.f_mul(&principal_in_y(rc)?)?)?.f_div(x)?;
        pick(&positive, &by_rd, &euler)
    };
    with_derivatives(|| rc_f64(x, y), &[(x, &in_x), (y, &in_y)])
}

/// `(lo, mid, hi)`: the three arguments sorted, elementwise.
fn sort3(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    let lo = x.f_minimum(y)?;
    let hi = x.f_maximum(y)?;
    let mid = lo.f_maximum(&hi.f_minimum(z)?)?;
    Ok((lo.f_minimum(z)?, mid, hi.f_maximum(z)?))
}

/// `R_J(x, y, z, p)` on float64. p > 0: the duplication algorithm (Carlson
/// 1995, algorithm 2), see [`rj_positive`]. p < 0: Cauchy's principal value
/// by Carlson's transformation (as Boost's `ellint_rj`) with `x <= y <= z`
/// sorted, `q = -p` and `r = (z (x + y + q) - x y) / (z + q) > 0`:
/// `(z + q) R_J(x, y, z, p)` is `(r - z) R_J(x, y, z, r) - 3 R_F(x, y, z)`
/// plus `3 sqrt(x y z / (x y + r q)) R_C(x y + r q, r q)`. nan for negative
/// x, y, z or nan input; SciPy's special values: nan for p = 0 unless an
/// argument is infinite, else `inf` where two of x, y, z are 0, else 0 where
/// an argument is infinite.
pub(super) fn rj_f64(x: &Tensor, y: &Tensor, z: &Tensor, p: &Tensor) -> Result<Tensor> {
    let args = [x, y, z];
    let nan = or(&any_nan_of(&[x, y, z, p])?, &any_negative_of(&args)?)?;
    let p_zero = p.f_eq(0.0)?;
    let inf = zeros_of(&args)?.f_ge(2.0)?;
    let zero = any_inf_of(&[x, y, z, p])?;
    let special = or(&or(&or(&nan, &inf)?, &zero)?, &p_zero)?;
    let t = tame(&[x, y, z, p], &special)?;
    let (x, y, z, p) = (&t[0], &t[1], &t[2], &t[3]);
    let out = rj_positive(x, y, z, &p.f_abs()?)?;
    let out = patch(out, &p.f_lt(0.0)?, &[x, y, z, p], |v| {
        let (x, y, z) = sort3(&v[0], &v[1], &v[2])?;
        let q = v[3].f_neg()?;
        let z_q = z.f_add(&q)?;
        // the positive parameter of the transformation, (z (x + y + q) - x y) / (z + q)
        let r = z.f_mul(&x.f_add(&y)?.f_add(&q)?)?.f_sub(&x.f_mul(&y)?)?.f_div(&z_q)?;
        // r - z = -(z - x)(z - y) / (z + q), without the cancellation of r - z
        let r_z = z.f_sub(&x)?.f_mul(&z.f_sub(&y)?)?.f_div(&z_q)?.f_neg()?;
        let rq = r.f_mul(&q)?;
        let xy_rq = x.f_mul(&y)?.f_add(&rq)?;
        let root = x.f_mul(&y)?.f_mul(&z)?.f_div(&xy_rq)?.f_sqrt()?;
        let value = r_z
            .f_mul(&rj_positive(&x, &y, &z, &r)?)?
            .f_sub(&rf_core(&x, &y, &z)?.f_mul_scalar(3.0)?)?
            .f_add(&root.f_mul(&rc_core(&xy_rq, &rq)?)?.f_mul_scalar(3.0)?)?;
        Ok(value.f_div(&z_q)?)
    })?;
    let out = fill(&out, &zero, 0.0)?;
    let out = fill(&out, &inf, f64::INFINITY)?;
    let out = fill(&out, &and(&p_zero, &not(&zero)?)?, f64::NAN)?;
    fill(&out, &nan, f64::NAN)
}

/// Carlson's symmetric elliptic integral of the third kind `R_J`,
/// `scipy.special.elliprj(x, y, z, p)` (real arguments).
pub(super) fn elliprj(x: &Tensor, y: &Tensor, z: &Tensor, p: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return carlson_complex(Carlson::Rj, &[x, y, z, p]);
    }
    rj_f64(x, y, z, p)
}

/// `R_G(x, y, z)` on float64, with the arguments sorted `lo <= mid <= hi` and
/// `mid` in the third place so that no term cancels (DLMF 19.21.10):
/// `2 R_G = mid R_F + (mid - lo)(hi - mid) R_D(lo, hi, mid) / 3 + sqrt(lo hi / mid)`;
/// `sqrt(hi) / 2` where `mid = 0`; nan for negative or nan input, `inf` where one is infinite.
pub(super) fn rg_f64(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    let args = [x, y, z];
    let nan = or(&any_nan_of(&args)?, &any_negative_of(&args)?)?;
    let inf = any_inf_of(&args)?;
    let t = tame(&args, &or(&nan, &inf)?)?;
    // R_G is homogeneous of degree 1/2: scaled so that no term below overflows
    let (k, t) = scale_to(&[&t[0], &t[1], &t[2]], None)?;
    let (lo, mid, hi) = sort3(&t[0], &t[1], &t[2])?;
    let positive = mid.f_gt(0.0)?;
    let m = fill(&mid, &not(&positive)?, 1.0)?;
    let rf = rf_core(&lo, &m, &hi)?;
    let rd = rd_core(&lo, &hi, &m)?;
    let spread = m.f_sub(&lo)?.f_mul(&hi.f_sub(&m)?)?;
    // spread = 0 (two equal arguments): no R_D term, whatever R_D's size
    let rd_term = fill(&spread.f_mul(&rd)?.f_div_scalar(3.0)?, &spread.f_eq(0.0)?, 0.0)?;
    let value = m.f_mul(&rf)?.f_add(&rd_term)?.f_add(&lo.f_mul(&hi)?.f_div(&m)?.f_sqrt()?)?.f_mul_scalar(0.5)?;
    let out = unscale(&pick(&positive, &value, &hi.f_sqrt()?.f_mul_scalar(0.5)?)?, &k, -0.5)?;
    let out = fill(&out, &inf, f64::INFINITY)?;
    fill(&out, &nan, f64::NAN)
}

/// Carlson's completely symmetric elliptic integral of the second kind `R_G`,
/// `scipy.special.elliprg` (real arguments).
pub(super) fn elliprg(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return carlson_complex(Carlson::Rg, &[x, y, z]);
    }
    rg_f64(x, y, z)
}
