//! Bessel functions of integer order 0 and 1 (Cephes' `i0.c`, `j0.c`, `k0.c`, ...):
//! i0, i0e, i1, i1e, j0, j1, y0, y1, k0, k0e, k1, k1e; and of real order and
//! real argument: jv (jn), yv, iv, kv, jve, yve, ive, kve, yn, whose scalar
//! kernels are `csrc/bessel_kernels.h` (methods there: Hankel's expansions,
//! Temme's method with Steed's continued fractions, power series).
//!
//! Complex arguments (SciPy's `fF->F`, `dD->D` loops, and `hankel1`,
//! `hankel2`, `hankel1e`, `hankel2e`, which have only those) go to the
//! complex kernels of `csrc/bessel_complex.h` (I and K in the right
//! half-plane by Hankel's expansions, Temme's series or the continued
//! fractions CF1/CF2; J, Y, H by rotation and analytic continuation), not
//! differentiable.
//!
//! The real-order kernels are scalar C++ loops on float64 CPU tensors; input
//! on another device goes to the CPU and back (there is no libtorch composite
//! of them). They are differentiable in `x` (DLMF 10.6.1, 10.29.1:
//! `J'_v = (J_v-1 - J_v+1) / 2`, `I'_v = (I_v-1 + I_v+1) / 2`,
//! `K'_v = -(K_v-1 + K_v+1) / 2`, the same for Y as for J), not in the order.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use tch::{Device, Kind, Tensor};

use super::constants::EULER;
use super::faddeeva::is_complex;
use super::helpers::*;
use crate::ffi::bessel::{bessel_complex_cpu, bessel_cpu, BesselComplexKind, BesselKind};
use crate::ops::autograd::with_derivatives;
use crate::Result;

/// The modified Bessel function I0, `scipy.special.i0` (libtorch's kernel).
pub(super) fn i0(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_i0()?)
}

/// The exponentially scaled I0, `exp(-|x|) i0(x)`, `scipy.special.i0e`.
pub(super) fn i0e(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_i0e()?)
}

/// The modified Bessel function I1, `scipy.special.i1`.
pub(super) fn i1(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_i1()?)
}

/// The exponentially scaled I1, `exp(-|x|) i1(x)`, `scipy.special.i1e`.
pub(super) fn i1e(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_special_i1e()?)
}

/// The modified Bessel function K0, `scipy.special.k0` (nan for x < 0);
/// libtorch's kernel has no derivative: `K0' = -K1` (DLMF 10.29.3).
pub(super) fn k0(x: &Tensor) -> Result<Tensor> {
    with_derivatives(|| Ok(x.f_special_modified_bessel_k0()?), &[(x, &|_| Ok(k1(x)?.f_neg()?))])
}

/// The exponentially scaled K0, `exp(x) k0(x)`, `scipy.special.k0e`;
/// derivative `k0e - k1e`.
pub(super) fn k0e(x: &Tensor) -> Result<Tensor> {
    with_derivatives(|| Ok(Tensor::f_special_scaled_modified_bessel_k0(x)?), &[(x, &|v| Ok(v.f_sub(&k1e(x)?)?))])
}

/// The modified Bessel function K1, `scipy.special.k1` (nan for x < 0);
/// derivative `-K0 - K1/x` (DLMF 10.29.2).
pub(super) fn k1(x: &Tensor) -> Result<Tensor> {
    with_derivatives(|| Ok(x.f_special_modified_bessel_k1()?), &[(x, &|v| Ok(k0(x)?.f_add(&v.f_div(x)?)?.f_neg()?))])
}

/// The exponentially scaled K1, `exp(x) k1(x)`, `scipy.special.k1e`;
/// derivative `k1e - k0e - k1e/x`.
pub(super) fn k1e(x: &Tensor) -> Result<Tensor> {
    with_derivatives(
        || Ok(Tensor::f_special_scaled_modified_bessel_k1(x)?),
        &[(x, &|v| Ok(v.f_sub(&k0e(x)?)?.f_sub(&v.f_div(x)?)?))],
    )
}

/// J0, J1, Y0, Y1 at `t < 2` by their power series (DLMF 10.8.1-10.8.2).
pub(super) fn bessel_series(t: &Tensor) -> Result<Vec<Tensor>> {
    let q = t.f_square()?.f_mul_scalar(0.25)?.f_neg()?;
    let half = t.f_mul_scalar(0.5)?;
    let mut term = full(t, 1.0)?;
    let mut harmonic = 0.0;
    let (mut j0, mut j1) = (t.f_zeros_like()?, t.f_zeros_like()?);
    let (mut s0, mut s1) = (t.f_zeros_like()?, t.f_zeros_like()?);
    for k in 0..18 {
        if k > 0 {
            term = term.f_mul(&q)?.f_div_scalar((k * k) as f64)?;
            harmonic += 1.0 / k as f64;
        }
        j0 = j0.f_add(&term)?;
        s0 = s0.f_sub(&term.f_mul_scalar(harmonic)?)?;
        let t1 = term.f_mul(&half)?.f_div_scalar((k + 1) as f64)?;
        j1 = j1.f_add(&t1)?;
        // psi(k+1) + psi(k+2) = 2 H_k + 1/(k+1) - 2 gamma
        s1 = s1.f_add(&t1.f_mul_scalar(2.0 * harmonic + 1.0 / (k + 1) as f64 - 2.0 * EULER)?)?;
    }
    let log_half = t.f_log()?.f_sub_scalar(std::f64::consts::LN_2)?; // t/2 underflows at 5e-324
    let y0 = log_half.f_add_scalar(EULER)?.f_mul(&j0)?.f_add(&s0)?.f_mul_scalar(2.0 / PI)?;
    let y1 = t
        .f_reciprocal()?
        .f_mul_scalar(-2.0 / PI)?
        .f_add(&log_half.f_mul(&j1)?.f_mul_scalar(2.0 / PI)?)?
        .f_sub(&s1.f_mul_scalar(1.0 / PI)?)?;
    let y1 = fill(&y1, &t.f_eq(0.0)?, f64::NEG_INFINITY)?;
    Ok(vec![j0, j1, y0, y1])
}

/// J0, J1, Y0, Y1 for 2 <= t < 25 by Miller's backward recurrence, normalised
/// by `J0 + 2 sum J_2k = 1`; Y0 and Y1 from the Neumann series
/// `(pi/2) Y0 = (log(t/2) + gamma) J0 - 2 sum (-1)^k J_2k / k` and its derivative
/// `(pi/2) Y1 = (log(t/2) + gamma) J1 - J0/t + sum (-1)^k (J_2k-1 - J_2k+1) / k`.
/// Absolute error a few 1e-16.
pub(super) fn bessel_miller(t: &Tensor) -> Result<Vec<Tensor>> {
    let t_max = t.f_max()?.f_double_value(&[])?;
    let start = 2 * ((t_max + 3.0 * t_max.cbrt() + 30.0) / 2.0).ceil() as i64;
    let inv = t.f_reciprocal()?;
    let mut next = t.f_zeros_like()?;
    let mut cur = full(t, 1e-30)?;
    let (mut norm, mut s0, mut s1) = (t.f_zeros_like()?, t.f_zeros_like()?, t.f_zeros_like()?);
    let mut j1 = t.f_zeros_like()?;
    for n in (1..=start).rev() {
        let prev = cur.f_mul(&inv)?.f_mul_scalar(2.0 * n as f64)?.f_sub(&next)?;
        let m = n - 1;
        if m % 2 == 0 {
            if m >= 2 {
                let k = (m / 2) as f64;
                let sign = if (m / 2) % 2 == 0 { 1.0 } else { -1.0 };
                norm = norm.f_add(&prev.f_mul_scalar(2.0)?)?;
                s0 = s0.f_add(&prev.f_mul_scalar(sign / k)?)?;
            }
        } else {
            // J_m appears in the Y1 sum for k = (m+1)/2 (as J_2k-1) and k = (m-1)/2 (as -J_2k+1)
            let k = (m + 1) / 2;
            let mut coef = if k % 2 == 0 { 1.0 } else { -1.0 } / k as f64;
            if m >= 3 {
                let k2 = (m - 1) / 2;
                coef -= if k2 % 2 == 0 { 1.0 } else { -1.0 } / k2 as f64;
            }
            s1 = s1.f_add(&prev.f_mul_scalar(coef)?)?;
            if m == 1 {
                j1 = prev.shallow_clone();
            }
        }
        next = cur;
        cur = prev;
    }
    let norm = norm.f_add(&cur)?;
    let j0 = cur.f_div(&norm)?;
    let j1 = j1.f_div(&norm)?;
    let log_term = t.f_mul_scalar(0.5)?.f_log()?.f_add_scalar(EULER)?;
    let y0 = log_term.f_mul(&j0)?.f_sub(&s0.f_div(&norm)?.f_mul_scalar(2.0)?)?.f_mul_scalar(2.0 / PI)?;
    let y1 = log_term.f_mul(&j1)?.f_sub(&j0.f_mul(&inv)?)?.f_add(&s1.f_div(&norm)?)?.f_mul_scalar(2.0 / PI)?;
    Ok(vec![j0, j1, y0, y1])
}

/// J0, J1, Y0, Y1 for t >= 25 by Hankel's asymptotic expansion (DLMF 10.17.3),
/// 21 terms each of P and Q; the phase `t - pi/4` enters through `sin t` and
/// `cos t` of the exact argument.
pub(super) fn bessel_hankel(t: &Tensor) -> Result<Vec<Tensor>> {
    let w = t.f_square()?.f_reciprocal()?;
    let (s, c) = (t.f_sin()?, t.f_cos()?);
    let amplitude = t.f_reciprocal()?.f_mul_scalar(2.0 / PI)?.f_sqrt()?;
    let mut out = Vec::with_capacity(4);
    let mut ys = Vec::with_capacity(2);
    for nu in [0.0f64, 1.0] {
        let mu = 4.0 * nu * nu;
        let mut a = vec![1.0f64];
        for k in 1..42 {
            let prev = a[k - 1];
            a.push(prev * (mu - ((2 * k - 1) * (2 * k - 1)) as f64) / (8.0 * k as f64));
        }
        let sign = |k: usize| if k % 2 == 0 { 1.0 } else { -1.0 };
        let p_coeffs: Vec<f64> = (0..21).map(|k| sign(k) * a[2 * k]).collect();
        let q_coeffs: Vec<f64> = (0..21).map(|k| sign(k) * a[2 * k + 1]).collect();
        let p = horner(&w, &p_coeffs)?;
        let q = horner(&w, &q_coeffs)?.f_div(t)?;
        let (cos_chi, sin_chi) = if nu == 0.0 {
            (c.f_add(&s)?.f_mul_scalar(FRAC_1_SQRT_2)?, s.f_sub(&c)?.f_mul_scalar(FRAC_1_SQRT_2)?)
        } else {
            (s.f_sub(&c)?.f_mul_scalar(FRAC_1_SQRT_2)?, c.f_add(&s)?.f_mul_scalar(-FRAC_1_SQRT_2)?)
        };
        out.push(p.f_mul(&cos_chi)?.f_sub(&q.f_mul(&sin_chi)?)?.f_mul(&amplitude)?);
        ys.push(p.f_mul(&sin_chi)?.f_add(&q.f_mul(&cos_chi)?)?.f_mul(&amplitude)?);
    }
    out.extend(ys);
    Ok(out)
}

/// J0, J1, Y0, Y1 of `t = |x|`. libtorch's Bessel J and Y kernels are off by up
/// to 4e-7 absolute beyond x = 5, so these are computed here: power series
/// below 2, Miller's recurrence to 25, Hankel's expansion beyond.
pub(super) fn bessel_jy(t: &Tensor) -> Result<Vec<Tensor>> {
    let outs = bessel_series(&t.f_clamp_max(2.0)?)?;
    let middle = and(&t.f_ge(2.0)?, &t.f_lt(25.0)?)?;
    let outs = patch_all(outs, &middle, &[t], |s| bessel_miller(&s[0]))?;
    patch_all(outs, &t.f_ge(25.0)?, &[t], |s| bessel_hankel(&s[0]))
}

/// The Bessel function of the first kind of order 0, `scipy.special.j0`.
pub(super) fn j0(x: &Tensor) -> Result<Tensor> {
    Ok(bessel_jy(&x.f_abs()?)?.swap_remove(0))
}

/// The Bessel function of the first kind of order 1, `scipy.special.j1` (odd).
pub(super) fn j1(x: &Tensor) -> Result<Tensor> {
    let j = bessel_jy(&x.f_abs()?)?.swap_remove(1);
    pick(&x.f_signbit()?, &j.f_neg()?, &j)
}

/// The Bessel function of the second kind of order 0, `scipy.special.y0`
/// (`-inf` at 0, nan for x < 0).
pub(super) fn y0(x: &Tensor) -> Result<Tensor> {
    fill(&bessel_jy(&x.f_abs()?)?.swap_remove(2), &x.f_lt(0.0)?, f64::NAN)
}

/// The Bessel function of the second kind of order 1, `scipy.special.y1`.
pub(super) fn y1(x: &Tensor) -> Result<Tensor> {
    fill(&bessel_jy(&x.f_abs()?)?.swap_remove(3), &x.f_lt(0.0)?, f64::NAN)
}

/// The real-order kernel `kind` of `v` and `x` (broadcast float64), on the
/// CPU: inputs elsewhere go there and the result comes back.
fn real_order(v: &Tensor, x: &Tensor, kind: BesselKind) -> Result<Tensor> {
    let device = x.device();
    let host = |t: &Tensor| -> Result<Tensor> {
        Ok(t.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(Kind::Double)?.f_contiguous()?)
    };
    let out = bessel_cpu(&host(v)?, &host(x)?, kind)?;
    if device == Device::Cpu {
        return Ok(out);
    }
    Ok(out.f_to_device(device)?)
}

/// The complex kernel `kind` of the real orders `v` and complex arguments
/// `z` (broadcast, the loop's float64 and complex128), on the CPU: inputs
/// elsewhere go there and the result comes back.
pub(super) fn complex_arg(v: &Tensor, z: &Tensor, kind: BesselComplexKind) -> Result<Tensor> {
    let device = z.device();
    let v = v.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(Kind::Double)?.f_contiguous()?;
    let z = z.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(Kind::ComplexDouble)?.f_contiguous()?;
    let out = bessel_complex_cpu(&v, &z, kind)?;
    if device == Device::Cpu {
        return Ok(out);
    }
    Ok(out.f_to_device(device)?)
}

/// `(f(v - 1, x) + sign f(v + 1, x)) / 2`, the derivative in `x` of the
/// cylinder functions (`sign` -1 for J and Y, +1 for I; K negates it).
fn neighbours(f: fn(&Tensor, &Tensor) -> Result<Tensor>, v: &Tensor, x: &Tensor, sign: f64) -> Result<Tensor> {
    let below = f(&v.f_sub_scalar(1.0)?, x)?;
    let above = f(&v.f_add_scalar(1.0)?, x)?;
    Ok(below.f_add(&above.f_mul_scalar(sign)?)?.f_mul_scalar(0.5)?)
}

/// The Bessel function of the first kind of real order, `scipy.special.jv`
/// (and `jn`): real `x`, nan for x < 0 unless `v` is an integer.
pub(super) fn jv(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Jv);
    }
    with_derivatives(|| real_order(v, x, BesselKind::Jv), &[(x, &|_| neighbours(jv, v, x, -1.0))])
}

/// The Bessel function of the second kind of real order, `scipy.special.yv`.
pub(super) fn yv(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Yv);
    }
    with_derivatives(|| real_order(v, x, BesselKind::Yv), &[(x, &|_| neighbours(yv, v, x, -1.0))])
}

/// The modified Bessel function of the first kind, `scipy.special.iv`.
pub(super) fn iv(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Iv);
    }
    with_derivatives(|| real_order(v, x, BesselKind::Iv), &[(x, &|_| neighbours(iv, v, x, 1.0))])
}

/// The modified Bessel function of the second kind, `scipy.special.kv`.
pub(super) fn kv(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Kv);
    }
    with_derivatives(|| real_order(v, x, BesselKind::Kv), &[(x, &|_| Ok(neighbours(kv, v, x, 1.0)?.f_neg()?))])
}

/// `jv(v, x) exp(-|imag x|)`, `scipy.special.jve`: jv itself for real `x`
/// but for SciPy's (Amos') special values (nan at x = 0 for negative
/// non-integer v and for infinite v).
pub(super) fn jve(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Jve);
    }
    with_derivatives(|| real_order(v, x, BesselKind::Jve), &[(x, &|_| neighbours(jv, v, x, -1.0))])
}

/// `yv(v, x) exp(-|imag x|)`, `scipy.special.yve`: yv for real `x` but nan
/// at x = 0, as SciPy.
pub(super) fn yve(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Yve);
    }
    with_derivatives(|| real_order(v, x, BesselKind::Yve), &[(x, &|_| neighbours(yv, v, x, -1.0))])
}

/// `iv(v, x) exp(-|x|)`, `scipy.special.ive`; derivative
/// `(ive(v-1) + ive(v+1)) / 2 - sign(x) ive(v)`.
pub(super) fn ive(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Ive);
    }
    with_derivatives(
        || real_order(v, x, BesselKind::Ive),
        &[(x, &|value| Ok(neighbours(ive, v, x, 1.0)?.f_sub(&value.f_mul(&x.f_sign()?)?)?))],
    )
}

/// `kv(v, x) exp(x)`, `scipy.special.kve`; derivative
/// `kve(v) - (kve(v-1) + kve(v+1)) / 2`.
pub(super) fn kve(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    if is_complex(x)? {
        return complex_arg(v, x, BesselComplexKind::Kve);
    }
    with_derivatives(
        || real_order(v, x, BesselKind::Kve),
        &[(x, &|value| Ok(value.f_sub(&neighbours(kve, v, x, 1.0)?)?))],
    )
}

/// The Bessel function of the second kind of integer order, `scipy.special.yn`
/// (a real `n` truncated to an integer, as SciPy's loops cast it).
pub(super) fn yn(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    with_derivatives(|| real_order(n, x, BesselKind::Yn), &[(x, &|_| neighbours(yn_exact, n, x, -1.0))])
}

/// yv at the truncated order (yn's derivative: `trunc(n) +- 1`, not `trunc(n +- 1)`).
fn yn_exact(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    yv(&n.f_trunc()?, x)
}

/// The Hankel function of the first kind, `scipy.special.hankel1` (complex
/// argument only, as SciPy's loops).
pub(super) fn hankel1(v: &Tensor, z: &Tensor) -> Result<Tensor> {
    complex_arg(v, z, BesselComplexKind::Hankel1)
}

/// The Hankel function of the second kind, `scipy.special.hankel2`.
pub(super) fn hankel2(v: &Tensor, z: &Tensor) -> Result<Tensor> {
    complex_arg(v, z, BesselComplexKind::Hankel2)
}

/// `hankel1(v, z) exp(-iz)`, `scipy.special.hankel1e`.
pub(super) fn hankel1e(v: &Tensor, z: &Tensor) -> Result<Tensor> {
    complex_arg(v, z, BesselComplexKind::Hankel1e)
}

/// `hankel2(v, z) exp(iz)`, `scipy.special.hankel2e`.
pub(super) fn hankel2e(v: &Tensor, z: &Tensor) -> Result<Tensor> {
    complex_arg(v, z, BesselComplexKind::Hankel2e)
}
