//! IIR filter design and frequency responses (SciPy's `_filter_design.py`):
//! the conversions between transfer function, zeros-poles-gain and
//! second-order sections (`zpk2tf`, `tf2zpk`, `zpk2sos`, `tf2sos`, `sos2tf`,
//! `sos2zpk`), the Butterworth and Chebyshev designs (`iirfilter`, `butter`,
//! `cheby1`, `cheby2`) with their analog prototypes and frequency
//! transforms, and the frequency responses (`freqz`, `freqz_zpk`,
//! `freqz_sos`).
//!
//! A filter design is a handful of numbers: it is computed in float64 on the
//! host, step by step as SciPy computes it (the same formulas in the same
//! order, NumPy's complex division and square root), so that coefficients
//! agree with SciPy's to about 1e-14. Polynomial roots are `np.roots`'s: the
//! eigenvalues of the companion matrix, by libtorch's `linalg_eigvals`
//! (LAPACK `geev`). The frequency responses are libtorch ops on the
//! coefficients' device: an `rfft`/`fft` of the numerator when SciPy takes
//! that path (an integer `worN`, a scalar denominator), the ratio of the
//! numerator's and denominator's FFTs for an integer `worN` and a longer
//! denominator (SciPy: Horner's rule at the same frequencies; measured on an
//! order-8 Butterworth, worN=8192: the same values to 2e-12 of the peak), else Horner's
//! rule on `exp(-iw)` (a product of `exp(iw) - r` for `freqz_zpk`).

use std::f64::consts::PI;
use std::ops::{Add, Div, Mul, Neg, Sub};

use tch::{Device, Kind, Tensor};

use crate::ops::fft::plans;
use crate::{Error, Result};

/// A complex float64 with NumPy's arithmetic (Smith's division, `csqrt`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct C {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl C {
    /// `re + i im`.
    pub const fn new(re: f64, im: f64) -> C {
        C { re, im }
    }
    const fn real(re: f64) -> C {
        C { re, im: 0.0 }
    }
    fn conj(self) -> C {
        C::new(self.re, -self.im)
    }
    fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    fn is_real(self) -> bool {
        self.im == 0.0
    }
    fn sqrt(self) -> C {
        let (x, y) = (self.re, self.im);
        if x == 0.0 && y == 0.0 {
            return C::new(0.0, y);
        }
        let t = ((x.abs() + self.abs()) / 2.0).sqrt();
        if x >= 0.0 {
            C::new(t, y / (2.0 * t))
        } else {
            C::new(y.abs() / (2.0 * t), t.copysign(y))
        }
    }
}

impl Add for C {
    type Output = C;
    fn add(self, o: C) -> C {
        C::new(self.re + o.re, self.im + o.im)
    }
}
impl Sub for C {
    type Output = C;
    fn sub(self, o: C) -> C {
        C::new(self.re - o.re, self.im - o.im)
    }
}
impl Mul for C {
    type Output = C;
    fn mul(self, o: C) -> C {
        C::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
}
impl Neg for C {
    type Output = C;
    fn neg(self) -> C {
        C::new(-self.re, -self.im)
    }
}
impl Div for C {
    type Output = C;
    fn div(self, o: C) -> C {
        let (ar, ai, br, bi) = (self.re, self.im, o.re, o.im);
        if br.abs() >= bi.abs() {
            if br == 0.0 && bi == 0.0 {
                return C::new(ar / br.abs(), ai / br.abs());
            }
            let rat = bi / br;
            let scl = 1.0 / (br + bi * rat);
            C::new((ar + ai * rat) * scl, (ai - ar * rat) * scl)
        } else {
            let rat = br / bi;
            let scl = 1.0 / (bi + br * rat);
            C::new((ar * rat + ai) * scl, (ai * rat - ar) * scl)
        }
    }
}

fn prod(values: &[C]) -> C {
    values.iter().fold(C::real(1.0), |acc, &v| acc * v)
}

/// Zeros, poles and gain, with NumPy's dtypes: `z_real`/`p_real` say
/// whether SciPy's arrays would be float64 (else complex128).
#[derive(Clone, Debug, PartialEq)]
pub struct Zpk {
    /// The zeros.
    pub z: Vec<C>,
    /// Whether SciPy's `z` is a real array.
    pub z_real: bool,
    /// The poles.
    pub p: Vec<C>,
    /// Whether SciPy's `p` is a real array.
    pub p_real: bool,
    /// The gain.
    pub k: f64,
}

/// A polynomial's coefficients (highest power first), real unless `complex`.
#[derive(Clone, Debug, PartialEq)]
pub struct Poly {
    /// The coefficients.
    pub c: Vec<C>,
    /// Whether SciPy's array is complex.
    pub complex: bool,
}

/// `np.poly`: the monic polynomial with roots `zeros` (real when they come in
/// exact conjugate pairs, as `_polyutils.poly` checks).
pub fn poly(zeros: &[C]) -> Poly {
    let mut a = vec![C::real(1.0)];
    for &zero in zeros {
        let mut next = vec![C::real(0.0); a.len() + 1];
        for (i, &ai) in a.iter().enumerate() {
            next[i] = next[i] + ai;
            next[i + 1] = next[i + 1] - ai * zero;
        }
        a = next;
    }
    let complex = zeros.iter().any(|z| !z.is_real());
    if complex {
        let mut im: Vec<f64> = zeros.iter().map(|z| z.im).collect();
        let mut conj: Vec<f64> = zeros.iter().map(|z| -z.im).collect();
        im.sort_by(f64::total_cmp);
        conj.sort_by(f64::total_cmp);
        if im == conj {
            return Poly { c: a.into_iter().map(|v| C::real(v.re)).collect(), complex: false };
        }
    }
    Poly { c: a, complex }
}

/// `np.roots`: the roots of `coef` (highest power first), the companion
/// matrix's eigenvalues (libtorch `linalg_eigvals`), zeros for the trailing
/// zero coefficients; real when every imaginary part is zero (as
/// `np.linalg.eigvals` returns).
pub fn roots(coef: &[C]) -> Result<(Vec<C>, bool)> {
    let nonzero: Vec<usize> = (0..coef.len()).filter(|&i| coef[i] != C::real(0.0)).collect();
    let (Some(&first), Some(&last)) = (nonzero.first(), nonzero.last()) else {
        return Ok((vec![], true));
    };
    let trailing = coef.len() - last - 1;
    let p = &coef[first..=last];
    let n = p.len();
    let mut out = Vec::new();
    if n > 1 {
        let m = n - 1;
        let complex = p.iter().any(|v| !v.is_real());
        let mut re = vec![0.0; m * m];
        let mut im = vec![0.0; m * m];
        for j in 0..m {
            let v = -p[j + 1] / p[0];
            re[j] = v.re;
            im[j] = v.im;
        }
        // LAPACK's balancing crashes the process on a NaN (MKL's ZGEBAL): refuse it
        // as np.linalg.eigvals does, including a ratio that overflowed
        if re.iter().chain(&im).any(|v| !v.is_finite()) {
            return Err(Error::InvalidArgument(
                "roots: the coefficients must be finite (the companion matrix must not contain infs or NaNs)".into(),
            ));
        }
        for i in 1..m {
            re[i * m + i - 1] = 1.0;
        }
        let a = Tensor::f_from_slice(&re)?.f_view([m as i64, m as i64])?;
        let a = if complex {
            let imag = Tensor::f_from_slice(&im)?.f_view([m as i64, m as i64])?;
            Tensor::f_complex(&a, &imag)?
        } else {
            a
        };
        let w = a.f_linalg_eigvals()?;
        out = complex_values(&w)?;
    }
    out.extend(std::iter::repeat_n(C::real(0.0), trailing));
    let real = out.iter().all(|v| v.is_real());
    Ok((out, real))
}

/// The values of a (complex or real) 1-d tensor, on the host.
pub fn complex_values(t: &Tensor) -> Result<Vec<C>> {
    let t = t.f_to_device(Device::Cpu)?.f_reshape([-1])?;
    if t.is_complex() {
        let t = t.f_to_kind(Kind::ComplexDouble)?;
        let re = Vec::<f64>::try_from(t.f_real()?.f_contiguous()?)?;
        let im = Vec::<f64>::try_from(t.f_imag()?.f_contiguous()?)?;
        Ok(re.into_iter().zip(im).map(|(r, i)| C::new(r, i)).collect())
    } else {
        let re = Vec::<f64>::try_from(t.f_to_kind(Kind::Double)?.f_contiguous()?)?;
        Ok(re.into_iter().map(C::real).collect())
    }
}

/// A float64 (`real`) or complex128 1-d host tensor of `values`.
pub fn to_tensor(values: &[C], real: bool) -> Result<Tensor> {
    let re: Vec<f64> = values.iter().map(|v| v.re).collect();
    let re = Tensor::f_from_slice(&re)?;
    if real {
        return Ok(re);
    }
    let im: Vec<f64> = values.iter().map(|v| v.im).collect();
    Ok(Tensor::f_complex(&re, &Tensor::f_from_slice(&im)?)?)
}

/// The highest filter order the designs accept: far beyond any filter that is
/// meaningful in these forms (SciPy's own `bessel` stops converging near 100),
/// and it keeps a huge `N` a clear error rather than an allocation that
/// aborts or a polynomial product that runs for hours.
pub const MAX_ORDER: usize = 1024;

fn check_order(n: f64) -> Result<usize> {
    if n.trunc().abs() != n || !n.is_finite() {
        return Err(Error::InvalidArgument("Filter order must be a nonnegative integer".into()));
    }
    if n > MAX_ORDER as f64 {
        return Err(Error::InvalidArgument(format!(
            "Filter order N={n} is above the {MAX_ORDER} torchbridge designs; accepted: 0 <= N <= {MAX_ORDER}"
        )));
    }
    Ok(n as usize)
}

/// `m = arange(-N+1, N, 2)`.
fn odd_range(n: usize) -> Vec<f64> {
    (0..n).map(|i| -(n as f64) + 1.0 + 2.0 * i as f64).collect()
}

/// `buttap`: the analog Butterworth prototype of order `n`.
pub fn buttap(n: f64) -> Result<Zpk> {
    let n = check_order(n)?;
    let p = odd_range(n)
        .into_iter()
        .map(|m| {
            let x = PI * m / (2.0 * n as f64);
            -C::new(x.cos(), x.sin())
        })
        .collect();
    Ok(Zpk { z: vec![], z_real: true, p, p_real: false, k: 1.0 })
}

/// `cheb1ap`: the analog Chebyshev type I prototype (`rp` dB of ripple).
pub fn cheb1ap(n: f64, rp: f64) -> Result<Zpk> {
    let n = check_order(n)?;
    if n == 0 {
        return Ok(Zpk { z: vec![], z_real: true, p: vec![], p_real: false, k: 10f64.powf(-rp / 20.0) });
    }
    let eps = (10f64.powf(0.1 * rp) - 1.0).sqrt();
    let mu = 1.0 / n as f64 * (1.0 / eps).asinh();
    let p: Vec<C> = odd_range(n)
        .into_iter()
        .map(|m| {
            let theta = PI * m / (2.0 * n as f64);
            -C::new(mu.sinh() * theta.cos(), mu.cosh() * theta.sin())
        })
        .collect();
    let negated: Vec<C> = p.iter().map(|&v| -v).collect();
    let mut k = prod(&negated).re;
    if n % 2 == 0 {
        k /= (1.0 + eps * eps).sqrt();
    }
    Ok(Zpk { z: vec![], z_real: true, p, p_real: false, k })
}

/// `cheb2ap`: the analog Chebyshev type II prototype (`rs` dB down in the stopband).
pub fn cheb2ap(n: f64, rs: f64) -> Result<Zpk> {
    let n = check_order(n)?;
    if n == 0 {
        return Ok(Zpk { z: vec![], z_real: false, p: vec![], p_real: false, k: 1.0 });
    }
    let nf = n as f64;
    let de = 1.0 / (10f64.powf(0.1 * rs) - 1.0).sqrt();
    let mu = (1.0 / de).asinh() / nf;
    let m: Vec<f64> = odd_range(n).into_iter().filter(|&m| n % 2 == 0 || m != 0.0).collect();
    let z: Vec<C> = m.iter().map(|&m| C::new(0.0, 1.0) / C::real((m * PI / (2.0 * nf)).sin())).collect();
    let p: Vec<C> = odd_range(n)
        .into_iter()
        .map(|m| {
            let theta = PI * m / (2.0 * nf);
            -C::real(1.0) / C::new(mu.sinh() * theta.cos(), mu.cosh() * theta.sin())
        })
        .collect();
    let nz: Vec<C> = z.iter().map(|&v| -v).collect();
    let np_: Vec<C> = p.iter().map(|&v| -v).collect();
    let k = (prod(&np_) / prod(&nz)).re;
    Ok(Zpk { z, z_real: false, p, p_real: false, k })
}

fn relative_degree(f: &Zpk) -> Result<usize> {
    if f.p.len() < f.z.len() {
        return Err(Error::InvalidArgument(
            "Improper transfer function. Must have at least as many poles as zeros.".into(),
        ));
    }
    Ok(f.p.len() - f.z.len())
}

/// `besselap`'s `norm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BesselNorm {
    /// Phase response -pi N / 4 at the critical frequency (the default).
    Phase,
    /// Group delay 1 / w at low frequencies.
    Delay,
    /// Gain -3 dB at the critical frequency.
    Mag,
}

/// Horner's rule for `c` (highest power first) and its derivative at `x`.
fn horner(c: &[C], x: C) -> (C, C) {
    let (mut v, mut d) = (C::real(0.0), C::real(0.0));
    for &ci in c {
        d = d * x + v;
        v = v * x + ci;
    }
    (v, d)
}

/// SciPy's `optimize.newton` without a derivative (the secant method, `tol=1.48e-8`).
fn secant(f: impl Fn(f64) -> f64, x0: f64) -> Result<f64> {
    let (tol, eps) = (1.48e-8, 1e-4);
    let mut p0 = x0;
    let mut p1 = x0 * (1.0 + eps);
    p1 += if p1 >= 0.0 { eps } else { -eps };
    let (mut q0, mut q1) = (f(p0), f(p1));
    if q1.abs() < q0.abs() {
        std::mem::swap(&mut p0, &mut p1);
        std::mem::swap(&mut q0, &mut q1);
    }
    for _ in 0..50 {
        if q1 == q0 {
            return Ok((p1 + p0) / 2.0);
        }
        let p = if q1.abs() > q0.abs() {
            (-q0 / q1 * p1 + p0) / (1.0 - q0 / q1)
        } else {
            (-q1 / q0 * p0 + p1) / (1.0 - q1 / q0)
        };
        if (p - p1).abs() <= tol {
            return Ok(p);
        }
        p0 = p1;
        q0 = q1;
        p1 = p;
        q1 = f(p1);
    }
    Err(Error::InvalidArgument("Bessel normalization: the secant method failed to converge".into()))
}

/// `besselap`: the analog Bessel/Thomson prototype of order `n`: the roots of
/// the reverse Bessel polynomial (companion eigenvalues polished by Newton's
/// method, made exactly conjugate-symmetric), scaled as `norm` says.
pub fn besselap(n: f64, norm: BesselNorm) -> Result<Zpk> {
    let n = check_order(n)?;
    if n == 0 {
        return Ok(Zpk { z: vec![], z_real: true, p: vec![], p_real: false, k: 1.0 });
    }
    // theta_n(s) = sum_k (2n - k)! / (2^(n - k) k! (n - k)!) s^k, highest power first
    let coef = |k: usize| -> f64 {
        let mut v = 1.0;
        for j in (n - k + 1)..=(2 * n - k) {
            v *= j as f64;
        }
        for j in 1..=k {
            v /= j as f64;
        }
        v / 2f64.powi((n - k) as i32)
    };
    let c: Vec<C> = (0..=n).rev().map(|k| C::real(coef(k))).collect();
    let a_last = coef(0);
    let (mut p, _) = roots(&c)?;
    for _ in 0..4 {
        for x in p.iter_mut() {
            let (v, d) = horner(&c, *x);
            if d != C::real(0.0) {
                *x = *x - v / d;
            }
        }
    }
    p.sort_by(|a, b| a.im.total_cmp(&b.im));
    let q = p.clone();
    for i in 0..n {
        p[i] = (q[i] + q[n - 1 - i].conj()) / C::real(2.0);
    }
    let mut k = 1.0;
    match norm {
        BesselNorm::Phase => {
            let scale = C::real(10f64.powf(-a_last.log10() / n as f64));
            for x in p.iter_mut() {
                *x = *x * scale;
            }
        }
        BesselNorm::Delay => k = a_last,
        BesselNorm::Mag => {
            let gain = |w: f64| -> f64 {
                let d: Vec<C> = p.iter().map(|&x| C::new(0.0, w) - x).collect();
                (C::real(a_last) / prod(&d)).abs() - std::f64::consts::FRAC_1_SQRT_2
            };
            let nf = secant(gain, 1.5)?;
            for x in p.iter_mut() {
                *x = *x / C::real(nf);
            }
            k = nf.powi(-(n as i32)) * a_last;
        }
    }
    Ok(Zpk { z: vec![], z_real: true, p, p_real: false, k })
}

/// `lp2lp_zpk`: a lowpass prototype moved to cutoff `wo`.
pub fn lp2lp_zpk(f: &Zpk, wo: f64) -> Result<Zpk> {
    let degree = relative_degree(f)?;
    let w = C::real(wo);
    Ok(Zpk {
        z: f.z.iter().map(|&v| w * v).collect(),
        z_real: f.z_real,
        p: f.p.iter().map(|&v| w * v).collect(),
        p_real: f.p_real,
        k: f.k * wo.powi(degree as i32),
    })
}

/// `lp2hp_zpk`: a lowpass prototype turned into a highpass of cutoff `wo`.
pub fn lp2hp_zpk(f: &Zpk, wo: f64) -> Result<Zpk> {
    let degree = relative_degree(f)?;
    let w = C::real(wo);
    let mut z: Vec<C> = f.z.iter().map(|&v| w / v).collect();
    z.extend(std::iter::repeat_n(C::real(0.0), degree));
    let p = f.p.iter().map(|&v| w / v).collect();
    let nz: Vec<C> = f.z.iter().map(|&v| -v).collect();
    let np_: Vec<C> = f.p.iter().map(|&v| -v).collect();
    let k = f.k * (prod(&nz) / prod(&np_)).re;
    Ok(Zpk { z, z_real: f.z_real, p, p_real: f.p_real, k })
}

fn shift(points: &[C], scale: impl Fn(C) -> C, wo: f64) -> Vec<C> {
    let lp: Vec<C> = points.iter().map(|&v| scale(v)).collect();
    let w2 = C::real(wo * wo);
    let mut out: Vec<C> = lp.iter().map(|&v| v + (v * v - w2).sqrt()).collect();
    out.extend(lp.iter().map(|&v| v - (v * v - w2).sqrt()));
    out
}

/// `lp2bp_zpk`: a lowpass prototype turned into a bandpass (centre `wo`, width `bw`).
pub fn lp2bp_zpk(f: &Zpk, wo: f64, bw: f64) -> Result<Zpk> {
    let degree = relative_degree(f)?;
    let half = C::real(bw / 2.0);
    let mut z = shift(&f.z, |v| v * half, wo);
    z.extend(std::iter::repeat_n(C::real(0.0), degree));
    let p = shift(&f.p, |v| v * half, wo);
    Ok(Zpk { z, z_real: false, p, p_real: false, k: f.k * bw.powi(degree as i32) })
}

/// `lp2bs_zpk`: a lowpass prototype turned into a bandstop (centre `wo`, width `bw`).
pub fn lp2bs_zpk(f: &Zpk, wo: f64, bw: f64) -> Result<Zpk> {
    let degree = relative_degree(f)?;
    let half = C::real(bw / 2.0);
    let mut z = shift(&f.z, |v| half / v, wo);
    z.extend(std::iter::repeat_n(C::new(0.0, wo), degree));
    z.extend(std::iter::repeat_n(C::new(0.0, -wo), degree));
    let p = shift(&f.p, |v| half / v, wo);
    let nz: Vec<C> = f.z.iter().map(|&v| -v).collect();
    let np_: Vec<C> = f.p.iter().map(|&v| -v).collect();
    let k = f.k * (prod(&nz) / prod(&np_)).re;
    Ok(Zpk { z, z_real: false, p, p_real: false, k })
}

/// `bilinear_zpk`: the digital filter of an analog one, sampled at `fs`.
pub fn bilinear_zpk(f: &Zpk, fs: f64) -> Result<Zpk> {
    let degree = relative_degree(f)?;
    let fs2 = C::real(2.0 * fs);
    let mut z: Vec<C> = f.z.iter().map(|&v| (fs2 + v) / (fs2 - v)).collect();
    z.extend(std::iter::repeat_n(C::real(-1.0), degree));
    let p = f.p.iter().map(|&v| (fs2 + v) / (fs2 - v)).collect();
    let dz: Vec<C> = f.z.iter().map(|&v| fs2 - v).collect();
    let dp: Vec<C> = f.p.iter().map(|&v| fs2 - v).collect();
    let k = f.k * (prod(&dz) / prod(&dp)).re;
    Ok(Zpk { z, z_real: f.z_real, p, p_real: f.p_real, k })
}

/// `zpk2tf` for 1-d `z`: `(b, a)`, `b = k * poly(z)`, `a = poly(p)`.
pub fn zpk2tf(z: &[C], p: &[C], k: C) -> (Poly, Poly) {
    let pz = poly(z);
    let complex = pz.complex || !k.is_real();
    let b = Poly { c: pz.c.iter().map(|&v| k * v).collect(), complex };
    (b, poly(p))
}

/// `normalize(b, a)` for 1-d `b`: leading zeros of `a` trimmed, both divided
/// by `a[0]`, numerator columns of magnitude at most 1e-14 trimmed (keeping one).
pub fn normalize(b: &[C], a: &[C]) -> Result<(Vec<C>, Vec<C>)> {
    if b.is_empty() {
        // SciPy fails on it with an IndexError
        return Err(Error::InvalidArgument("The numerator must have at least one element.".into()));
    }
    if a.is_empty() || a.iter().all(|&v| v == C::real(0.0)) {
        return Err(Error::InvalidArgument("Denominator must have at least on nonzero element.".into()));
    }
    let first = a.iter().position(|&v| v != C::real(0.0)).unwrap_or(0);
    let a = &a[first..];
    let a0 = a[0];
    let mut num: Vec<C> = b.iter().map(|&v| v / a0).collect();
    let den: Vec<C> = a.iter().map(|&v| v / a0).collect();
    let mut leading = num.iter().take_while(|v| v.abs() <= 1e-14).count();
    if leading > 0 {
        if leading == num.len() {
            leading -= 1;
        }
        num.drain(..leading);
    }
    Ok((num, den))
}

/// `tf2zpk`'s result: `(z, z_real, p, p_real, k)`.
pub type TfZpk = (Vec<C>, bool, Vec<C>, bool, C);

/// `tf2zpk` for 1-d `b`: `(z, z_real, p, p_real, k)`.
pub fn tf2zpk(b: &[C], a: &[C]) -> Result<TfZpk> {
    let (b, a) = normalize(b, a)?;
    let k = b[0];
    let b: Vec<C> = b.iter().map(|&v| v / k).collect();
    let (z, zr) = if b.len() < 2 { (vec![], true) } else { roots(&b)? };
    let (p, pr) = if a.len() < 2 { (vec![], true) } else { roots(&a)? };
    Ok((z, zr, p, pr, k))
}

/// `_cplxreal`: one of each conjugate pair (positive imaginary part, the pair
/// averaged) and the real values, as SciPy orders them.
pub fn cplxreal(z: &[C]) -> Result<(Vec<C>, Vec<f64>)> {
    if z.is_empty() {
        return Ok((vec![], vec![]));
    }
    let tol = 100.0 * f64::EPSILON;
    let mut z = z.to_vec();
    z.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.abs().total_cmp(&b.im.abs())));
    let is_real = |v: &C| v.im.abs() <= tol * v.abs();
    let zr: Vec<f64> = z.iter().filter(|v| is_real(v)).map(|v| v.re).collect();
    if zr.len() == z.len() {
        return Ok((vec![], zr));
    }
    let rest: Vec<C> = z.iter().copied().filter(|v| !is_real(v)).collect();
    let mut zp: Vec<C> = rest.iter().copied().filter(|v| v.im > 0.0).collect();
    let mut zn: Vec<C> = rest.iter().copied().filter(|v| v.im < 0.0).collect();
    let unmatched = || Error::InvalidArgument("Array contains complex value with no matching conjugate.".into());
    if zp.len() != zn.len() {
        return Err(unmatched());
    }
    let same: Vec<bool> = (1..zp.len()).map(|i| zp[i].re - zp[i - 1].re <= tol * zp[i - 1].abs()).collect();
    let mut i = 0;
    while i < same.len() {
        if same[i] {
            let start = i;
            while i < same.len() && same[i] {
                i += 1;
            }
            let stop = i + 1;
            zp[start..stop].sort_by(|a, b| a.im.abs().total_cmp(&b.im.abs()));
            zn[start..stop].sort_by(|a, b| a.im.abs().total_cmp(&b.im.abs()));
        } else {
            i += 1;
        }
    }
    if zp.iter().zip(&zn).any(|(&a, &b)| (a - b.conj()).abs() > tol * b.abs()) {
        return Err(unmatched());
    }
    let zc = zp.iter().zip(&zn).map(|(&a, &b)| (a + b.conj()) / C::real(2.0)).collect();
    Ok((zc, zr))
}

/// `zpk2sos`'s `pairing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pairing {
    /// Poles paired with their nearest zeros, an odd order padded to even.
    Nearest,
    /// As `Nearest`, the odd pole kept first-order.
    KeepOdd,
    /// No zeros added: first-order sections where needed (analog's only pairing).
    Minimal,
}

impl std::str::FromStr for Pairing {
    type Err = Error;
    fn from_str(name: &str) -> Result<Pairing> {
        match name {
            "nearest" => Ok(Pairing::Nearest),
            "keep_odd" => Ok(Pairing::KeepOdd),
            "minimal" => Ok(Pairing::Minimal),
            _ => Err(Error::InvalidArgument(format!(
                "pairing must be one of ['nearest', 'keep_odd', 'minimal'], not {name}"
            ))),
        }
    }
}

fn nearest_idx(fro: &[C], to: C, which: &str) -> Option<usize> {
    let mut order: Vec<usize> = (0..fro.len()).collect();
    order.sort_by(|&a, &b| (fro[a] - to).abs().total_cmp(&(fro[b] - to).abs()));
    match which {
        "any" => order.first().copied(),
        "real" => order.into_iter().find(|&i| fro[i].is_real()),
        _ => order.into_iter().find(|&i| !fro[i].is_real()),
    }
}

fn single_sos(z: &[C], p: &[C]) -> [f64; 6] {
    let (b, a) = zpk2tf(z, p, C::real(1.0));
    let mut sos = [0.0; 6];
    for (i, v) in b.c.iter().enumerate() {
        sos[3 - b.c.len() + i] = v.re;
    }
    for (i, v) in a.c.iter().enumerate() {
        sos[6 - a.c.len() + i] = v.re;
    }
    sos
}

/// `zpk2sos`: second-order sections (rows `b0 b1 b2 1 a1 a2`) in SciPy's order and pairing.
pub fn zpk2sos(z: &[C], p: &[C], k: f64, pairing: Option<Pairing>, analog: bool) -> Result<Vec<[f64; 6]>> {
    let pairing = pairing.unwrap_or(if analog { Pairing::Minimal } else { Pairing::Nearest });
    if analog && pairing != Pairing::Minimal {
        return Err(Error::InvalidArgument("for analog zpk2sos conversion, pairing must be \"minimal\"".into()));
    }
    if z.is_empty() && p.is_empty() {
        return Ok(vec![if analog { [0.0, 0.0, k, 0.0, 0.0, 1.0] } else { [k, 0.0, 0.0, 1.0, 0.0, 0.0] }]);
    }
    let (mut z, mut p) = (z.to_vec(), p.to_vec());
    let n_sections;
    if pairing != Pairing::Minimal {
        let (nz, np_) = (z.len(), p.len());
        p.extend(std::iter::repeat_n(C::real(0.0), nz.saturating_sub(np_)));
        z.extend(std::iter::repeat_n(C::real(0.0), np_.saturating_sub(nz)));
        n_sections = p.len().max(z.len()).div_ceil(2);
        if p.len() % 2 == 1 && pairing == Pairing::Nearest {
            p.push(C::real(0.0));
            z.push(C::real(0.0));
        }
    } else {
        if p.len() < z.len() {
            return Err(Error::InvalidArgument("for analog zpk2sos conversion, must have len(p)>=len(z)".into()));
        }
        n_sections = p.len().div_ceil(2);
    }
    let join = |(c, r): (Vec<C>, Vec<f64>)| c.into_iter().chain(r.into_iter().map(C::real)).collect::<Vec<C>>();
    let mut z = join(cplxreal(&z)?);
    let mut p = join(cplxreal(&p)?);
    let worst = |p: &[C]| -> usize {
        let key = |v: &C| if analog { v.re.abs() } else { (1.0 - v.abs()).abs() };
        let mut best = 0;
        for i in 1..p.len() {
            if key(&p[i]) < key(&p[best]) {
                best = i;
            }
        }
        best
    };
    let mut sos = vec![[0.0; 6]; n_sections];
    let bad = || Error::InvalidArgument("zpk2sos: the poles and zeros cannot be paired".into());
    for si in (0..n_sections).rev() {
        if p.is_empty() {
            return Err(bad());
        }
        let p1 = p.remove(worst(&p));
        let real_p = p.iter().filter(|v| v.is_real()).count();
        if p1.is_real() && real_p == 0 {
            if pairing != Pairing::Minimal {
                let i = nearest_idx(&z, p1, "real").ok_or_else(bad)?;
                let z1 = z.remove(i);
                sos[si] = single_sos(&[z1, C::real(0.0)], &[p1, C::real(0.0)]);
            } else if !z.is_empty() {
                let i = nearest_idx(&z, p1, "real").ok_or_else(bad)?;
                let z1 = z.remove(i);
                sos[si] = single_sos(&[z1], &[p1]);
            } else {
                sos[si] = single_sos(&[], &[p1]);
            }
        } else if p.len() + 1 == z.len()
            && !p1.is_real()
            && real_p == 1
            && z.iter().filter(|v| v.is_real()).count() == 1
        {
            let i = nearest_idx(&z, p1, "complex").ok_or_else(bad)?;
            let z1 = z.remove(i);
            sos[si] = single_sos(&[z1, z1.conj()], &[p1, p1.conj()]);
        } else {
            let p2 = if p1.is_real() {
                let reals: Vec<usize> = (0..p.len()).filter(|&i| p[i].is_real()).collect();
                let sub: Vec<C> = reals.iter().map(|&i| p[i]).collect();
                if sub.is_empty() {
                    return Err(bad());
                }
                p.remove(reals[worst(&sub)])
            } else {
                p1.conj()
            };
            if !z.is_empty() {
                let i = nearest_idx(&z, p1, "any").ok_or_else(bad)?;
                let z1 = z.remove(i);
                if !z1.is_real() {
                    sos[si] = single_sos(&[z1, z1.conj()], &[p1, p2]);
                } else if !z.is_empty() {
                    let j = nearest_idx(&z, p1, "real").ok_or_else(bad)?;
                    let z2 = z.remove(j);
                    sos[si] = single_sos(&[z1, z2], &[p1, p2]);
                } else {
                    sos[si] = single_sos(&[z1], &[p1, p2]);
                }
            } else {
                sos[si] = single_sos(&[], &[p1, p2]);
            }
        }
    }
    if !p.is_empty() || !z.is_empty() {
        return Err(bad());
    }
    for v in &mut sos[0][..3] {
        *v *= k;
    }
    Ok(sos)
}

fn trim_leading(c: &[C]) -> Vec<C> {
    let first = c.iter().position(|&v| v != C::real(0.0)).unwrap_or(c.len());
    let out = c[first..].to_vec();
    if out.is_empty() {
        vec![C::real(0.0)]
    } else {
        out
    }
}

fn polymul(a: &[C], b: &[C]) -> Vec<C> {
    let (a, b) = (trim_leading(a), trim_leading(b));
    let mut out = vec![C::real(0.0); a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            out[i + j] = out[i + j] + x * y;
        }
    }
    out
}

/// `sos2tf`: the products of the sections' numerators and denominators.
pub fn sos2tf(sos: &[[C; 6]]) -> (Vec<C>, Vec<C>) {
    let (mut b, mut a) = (vec![C::real(1.0)], vec![C::real(1.0)]);
    for s in sos {
        b = polymul(&b, &s[..3]);
        a = polymul(&a, &s[3..]);
    }
    (b, a)
}

/// `sos2zpk`: each section's zeros and poles (two slots each, zeros where a
/// section has fewer) and the product of their gains.
pub fn sos2zpk(sos: &[[C; 6]]) -> Result<(Vec<C>, Vec<C>, C)> {
    let n = sos.len();
    let (mut z, mut p, mut k) = (vec![C::real(0.0); 2 * n], vec![C::real(0.0); 2 * n], C::real(1.0));
    for (i, s) in sos.iter().enumerate() {
        let (zs, _, ps, _, ks) = tf2zpk(&s[..3], &s[3..])?;
        for (j, v) in zs.into_iter().take(2).enumerate() {
            z[2 * i + j] = v;
        }
        for (j, v) in ps.into_iter().take(2).enumerate() {
            p[2 * i + j] = v;
        }
        k = k * ks;
    }
    Ok((z, p, k))
}

/// `iirfilter`'s `btype`, SciPy's `band_dict`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BType {
    /// Lowpass.
    Lowpass,
    /// Highpass.
    Highpass,
    /// Bandpass.
    Bandpass,
    /// Bandstop.
    Bandstop,
}

impl std::str::FromStr for BType {
    type Err = Error;
    fn from_str(name: &str) -> Result<BType> {
        match name.to_lowercase().as_str() {
            "band" | "bandpass" | "pass" | "bp" => Ok(BType::Bandpass),
            "bs" | "bandstop" | "bands" | "stop" => Ok(BType::Bandstop),
            "l" | "low" | "lowpass" | "lp" => Ok(BType::Lowpass),
            "high" | "highpass" | "h" | "hp" => Ok(BType::Highpass),
            other => Err(Error::InvalidArgument(format!("'{other}' is an invalid bandtype for filter."))),
        }
    }
}

/// `iirfilter`'s `ftype`: the prototypes torchbridge implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FType {
    /// Butterworth.
    Butter,
    /// Chebyshev type I.
    Cheby1,
    /// Chebyshev type II.
    Cheby2,
    /// Bessel/Thomson, normalized as [`BesselNorm`] says.
    Bessel(BesselNorm),
}

impl std::str::FromStr for FType {
    type Err = Error;
    fn from_str(name: &str) -> Result<FType> {
        match name.to_lowercase().as_str() {
            "butter" | "butterworth" => Ok(FType::Butter),
            "cheby1" | "chebyshev1" | "chebyshevi" => Ok(FType::Cheby1),
            "cheby2" | "chebyshev2" | "chebyshevii" => Ok(FType::Cheby2),
            "bessel" | "bessel_phase" => Ok(FType::Bessel(BesselNorm::Phase)),
            "bessel_delay" => Ok(FType::Bessel(BesselNorm::Delay)),
            "bessel_mag" => Ok(FType::Bessel(BesselNorm::Mag)),
            other @ ("cauer" | "elliptic" | "ellip") => {
                Err(Error::NotImplemented(format!("iirfilter: ftype='{other}' is not implemented by torchbridge")))
            }
            other => Err(Error::InvalidArgument(format!("'{other}' is not a valid basic IIR filter."))),
        }
    }
}

/// `iirfilter`: the zeros, poles and gain of an IIR filter of order `n`,
/// critical frequencies `wn` (one, or two for band filters; units of `fs`,
/// else of the Nyquist frequency), in SciPy's order of checks.
#[allow(clippy::too_many_arguments)]
pub fn iirfilter(
    n: f64,
    wn: &[f64],
    rp: Option<f64>,
    rs: Option<f64>,
    btype: &str,
    analog: bool,
    ftype: &str,
    output: &str,
    fs: Option<f64>,
) -> Result<Zpk> {
    let mut wn = wn.to_vec();
    if let Some(fs) = fs {
        if analog {
            return Err(Error::InvalidArgument("fs cannot be specified for an analog filter".into()));
        }
        for w in &mut wn {
            *w /= fs / 2.0;
        }
    }
    if wn.iter().any(|&w| w <= 0.0) {
        return Err(Error::InvalidArgument("filter critical frequencies must be greater than 0".into()));
    }
    if wn.len() > 1 && wn[0].partial_cmp(&wn[1]) != Some(std::cmp::Ordering::Less) {
        return Err(Error::InvalidArgument("Wn[0] must be less than Wn[1]".into()));
    }
    let btype: BType = btype.parse()?;
    let ftype: FType = ftype.parse()?;
    if !matches!(output.to_lowercase().as_str(), "ba" | "zpk" | "sos") {
        return Err(Error::InvalidArgument(format!("'{output}' is not a valid output form.")));
    }
    if rp.is_some_and(|r| r < 0.0) {
        return Err(Error::InvalidArgument("passband ripple (rp) must be positive".into()));
    }
    if rs.is_some_and(|r| r < 0.0) {
        return Err(Error::InvalidArgument("stopband attenuation (rs) must be positive".into()));
    }
    let proto = match ftype {
        FType::Butter => buttap(n)?,
        FType::Bessel(norm) => besselap(n, norm)?,
        FType::Cheby1 => {
            let rp = rp.ok_or_else(|| {
                Error::InvalidArgument("passband ripple (rp) must be provided to design a Chebyshev I filter.".into())
            })?;
            cheb1ap(n, rp)?
        }
        FType::Cheby2 => {
            let rs = rs.ok_or_else(|| {
                Error::InvalidArgument(
                    "stopband attenuation (rs) must be provided to design an Chebyshev II filter.".into(),
                )
            })?;
            cheb2ap(n, rs)?
        }
    };
    let warped: Vec<f64> = if analog {
        wn.clone()
    } else {
        if wn.iter().any(|&w| w <= 0.0 || w >= 1.0) {
            return Err(Error::InvalidArgument(match fs {
                Some(fs) => format!(
                    "Digital filter critical frequencies must be 0 < Wn < fs/2 (fs={} -> fs/2={})",
                    py_float(fs),
                    py_float(fs / 2.0)
                ),
                None => "Digital filter critical frequencies must be 0 < Wn < 1".into(),
            }));
        }
        wn.iter().map(|&w| 2.0 * 2.0 * (PI * w / 2.0).tan()).collect()
    };
    let f = match btype {
        BType::Lowpass | BType::Highpass => {
            if wn.len() != 1 {
                return Err(Error::InvalidArgument(
                    "Must specify a single critical frequency Wn for lowpass or highpass filter".into(),
                ));
            }
            if btype == BType::Lowpass {
                lp2lp_zpk(&proto, warped[0])?
            } else {
                lp2hp_zpk(&proto, warped[0])?
            }
        }
        BType::Bandpass | BType::Bandstop => {
            if warped.len() < 2 {
                return Err(Error::InvalidArgument(
                    "Wn must specify start and stop frequencies for bandpass or bandstop filter".into(),
                ));
            }
            let bw = warped[1] - warped[0];
            let wo = (warped[0] * warped[1]).sqrt();
            if btype == BType::Bandpass {
                lp2bp_zpk(&proto, wo, bw)?
            } else {
                lp2bs_zpk(&proto, wo, bw)?
            }
        }
    };
    if analog {
        Ok(f)
    } else {
        bilinear_zpk(&f, 2.0)
    }
}

/// Python's `repr` of a float (enough for SciPy's messages).
fn py_float(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e16 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

/// `freqz`'s `worN`: a number of frequencies, or the frequencies themselves.
pub enum WorN {
    /// `N` frequencies spaced over `[0, pi)` (or `[0, 2 pi)` with `whole`).
    Count(i64),
    /// The frequencies, in units of `fs`.
    At(Tensor),
}

fn real_kind(kind: Kind) -> Kind {
    match kind {
        Kind::Float | Kind::ComplexFloat | Kind::Half | Kind::BFloat16 => Kind::Float,
        _ => Kind::Double,
    }
}

fn complex_kind(kind: Kind) -> Kind {
    if real_kind(kind) == Kind::Float {
        Kind::ComplexFloat
    } else {
        Kind::ComplexDouble
    }
}

fn is_float_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Float | Kind::Double | Kind::Half | Kind::BFloat16)
}

fn is_int_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Bool | Kind::Uint8 | Kind::Int8 | Kind::Int16 | Kind::Int | Kind::Int64)
}

/// The dtype NumPy's `result_type` gives two coefficient arrays (ints promoted to float64).
fn result_kind(a: Kind, b: Kind) -> Kind {
    let complex = !is_float_kind(a) && !is_int_kind(a) || !is_float_kind(b) && !is_int_kind(b);
    let single = |k: Kind| matches!(k, Kind::Float | Kind::ComplexFloat | Kind::Half | Kind::BFloat16);
    let both_single = (single(a) || is_int_kind(a) && single(b)) && (single(b) || is_int_kind(b) && single(a));
    let both_int = is_int_kind(a) && is_int_kind(b);
    let base = if both_single && !both_int { Kind::Float } else { Kind::Double };
    if complex {
        complex_kind(base)
    } else {
        base
    }
}

/// NumPy's `linspace(0, last, n, endpoint)` in `kind` on `device`.
fn linspace(last: f64, n: i64, endpoint: bool, kind: Kind, device: Device) -> Result<Tensor> {
    let div = if endpoint { (n - 1).max(1) } else { n.max(1) };
    let step = last / div as f64;
    let w = Tensor::f_arange(n, (Kind::Double, device))?.f_mul_scalar(step)?;
    if endpoint && n > 1 {
        let _ = w.f_narrow(0, n - 1, 1)?.f_fill_(last)?;
    }
    Ok(w.f_to_kind(kind)?)
}

/// Horner's rule: `sum c[i] x^i` (`npp_polyval(x, c, tensor=False)`), `c` 1-d.
fn polyval(x: &Tensor, c: &Tensor) -> Result<Tensor> {
    let n = c.size()[0];
    let mut acc = c.f_get(n - 1)?.f_add(&x.f_zeros_like()?)?;
    for i in (0..n - 1).rev() {
        acc = acc.f_mul(x)?.f_add(&c.f_get(i)?)?;
    }
    Ok(acc)
}

/// `freqz(b, a, worN, whole, fs=fs, include_nyquist)`: `(w, h)` on the
/// coefficients' device.
pub fn freqz(
    b: &Tensor,
    a: &Tensor,
    worn: WorN,
    whole: bool,
    fs: f64,
    include_nyquist: bool,
) -> Result<(Tensor, Tensor)> {
    let device = b.device();
    let a = a.f_to_device(device)?;
    let a = if is_int_kind(a.kind()) { a.f_to_kind(Kind::Double)? } else { a };
    let b = if b.dim() == 0 { b.f_reshape([1])? } else { b.shallow_clone() };
    let a = if a.dim() == 0 { a.f_reshape([1])? } else { a };
    if b.size()[0] == 0 || a.size()[0] == 0 {
        // SciPy fails on them with an IndexError
        return Err(Error::InvalidArgument("freqz: b and a must not be empty".into()));
    }
    let res = result_kind(b.kind(), a.kind());
    let real = real_kind(res);
    let mut h = None;
    let w = match worn {
        WorN::Count(n) => {
            if n < 0 {
                return Err(Error::InvalidArgument(format!("worN must be nonnegative, got {n}")));
            }
            let last = if whole { 2.0 * PI } else { PI };
            let w = linspace(last, n, include_nyquist && !whole, real, device)?;
            let n_fft = if whole {
                n
            } else if include_nyquist {
                2 * (n - 1)
            } else {
                2 * n
            };
            let b_size = b.size();
            let rfft = is_float_kind(b.kind()) && is_float_kind(a.kind());
            // SciPy's FFT path, of one polynomial: rfft/fft of n_fft points, the first N, and
            // the conjugate mirror image for `whole` after an rfft.
            let spectrum = |x: &Tensor| -> Result<Tensor> {
                let x = if is_int_kind(x.kind()) { x.f_to_kind(Kind::Double)? } else { x.shallow_clone() };
                let mut hh = if rfft {
                    plans::rfft(&x.f_to_kind(real)?, n_fft, 0, "backward")?
                } else {
                    plans::fft(&x.f_to_kind(complex_kind(res))?, n_fft, 0, "backward")?
                };
                let len = hh.size()[0];
                hh = hh.f_narrow(0, 0, n.min(len))?;
                if rfft && whole {
                    let stop = if n_fft % 2 == 1 { len } else { len - 1 };
                    let middle = hh.f_narrow(0, 1, (stop - 1).max(0))?.f_flip([0])?.f_conj_physical()?;
                    hh = Tensor::f_cat(&[hh, middle], 0)?;
                }
                Ok(hh)
            };
            if a.numel() == 1 && (b.dim() == 1 || b_size[b_size.len() - 1] == 1) && n_fft >= b_size[0] && n_fft > 0 {
                let mut hh = spectrum(&b)?.f_div(&a.f_reshape([-1])?.f_get(0)?)?;
                if b.dim() > 1 {
                    hh = hh.f_select(-1, 0)?.f_movedim([0], [-1])?;
                }
                h = Some(hh);
            } else if b.dim() == 1 && a.dim() == 1 && n_fft >= b_size[0].max(a.size()[0]) && n_fft > 0 {
                // torchbridge: the same frequencies pi k / N (2 pi k / N), so the ratio of the two
                // polynomials' FFTs equals SciPy's Horner evaluation (to rounding) at a fraction of its cost.
                h = Some(spectrum(&b)?.f_div(&spectrum(&a)?)?);
            }
            w
        }
        WorN::At(w) => {
            let w = w.f_to_device(device)?;
            let w = if w.dim() == 0 { w.f_reshape([1])? } else { w };
            let w = if w.is_complex() { w.f_real()? } else { w };
            let kind = if is_int_kind(w.kind()) { Kind::Double } else { real_kind(res).max_with(w.kind()) };
            w.f_to_kind(kind)?.f_mul_scalar(2.0 * PI)?.f_div_scalar(fs)?
        }
    };
    let h = match h {
        Some(h) => h,
        None => {
            if b.dim() > 1 || a.dim() > 1 {
                return Err(Error::NotImplemented(
                    "freqz: multi-dimensional b or a outside the FFT path (integer worN, scalar a)".into(),
                ));
            }
            let zm1 = Tensor::f_complex(&w.f_zeros_like()?, &w.f_neg()?)?.f_exp()?;
            let bb = b.f_to_kind(complex_kind(res))?;
            let aa = a.f_to_kind(complex_kind(res))?;
            polyval(&zm1, &bb)?.f_div(&polyval(&zm1, &aa)?)?
        }
    };
    let w = w.f_mul_scalar(fs / (2.0 * PI))?;
    Ok((w, h))
}

trait KindMax {
    fn max_with(self, other: Kind) -> Kind;
}

impl KindMax for Kind {
    fn max_with(self, other: Kind) -> Kind {
        if self == Kind::Double || real_kind(other) == Kind::Double {
            Kind::Double
        } else {
            Kind::Float
        }
    }
}

/// `freqz_zpk(z, p, k, worN, whole, fs)`: `(w, h)` on the zeros' device.
pub fn freqz_zpk(z: &Tensor, p: &Tensor, k: &Tensor, worn: WorN, whole: bool, fs: f64) -> Result<(Tensor, Tensor)> {
    let device = z.device();
    let p = p.f_to_device(device)?;
    let k = k.f_to_device(device)?;
    let z = z.f_reshape([-1])?;
    let p = p.f_reshape([-1])?;
    let res = if matches!(result_kind(z.kind(), p.kind()), Kind::Double | Kind::ComplexDouble) {
        Kind::Double
    } else {
        Kind::Float
    };
    let last = if whole { 2.0 * PI } else { PI };
    let w = match worn {
        WorN::Count(n) => linspace(last, n, false, res, device)?,
        WorN::At(w) => {
            let w = w.f_to_device(device)?.f_reshape([-1])?;
            let w = if is_int_kind(w.kind()) { w.f_to_kind(Kind::Double)? } else { w };
            w.f_mul_scalar(2.0 * PI)?.f_div_scalar(fs)?
        }
    };
    let ck = complex_kind(w.kind());
    let x = Tensor::f_complex(&w.f_zeros_like()?, &w)?.f_exp()?;
    let from_roots = |r: &Tensor| -> Result<Tensor> {
        let roots = r.f_to_kind(ck)?;
        let mut acc = x.f_ones_like()?;
        for i in 0..roots.size()[0] {
            acc = acc.f_mul(&x.f_sub(&roots.f_get(i)?)?)?;
        }
        Ok(acc)
    };
    let kk = k.f_to_kind(res)?.f_reshape([])?;
    let h = from_roots(&z)?.f_div(&from_roots(&p)?)?.f_mul(&kk)?;
    let w = w.f_mul_scalar(fs / (2.0 * PI))?;
    Ok((w, h))
}

/// `freqz_sos(sos, worN, whole, fs)`: the product of the sections' `freqz`.
pub fn freqz_sos(sos: &Tensor, worn: WorN, whole: bool, fs: f64) -> Result<(Tensor, Tensor)> {
    let sos = if sos.dim() < 2 { sos.f_reshape([1, -1])? } else { sos.shallow_clone() };
    if sos.dim() != 2 {
        return Err(Error::InvalidArgument("sos array must be 2D".into()));
    }
    let size = sos.size();
    if size[1] != 6 {
        return Err(Error::InvalidArgument("sos array must be shape (n_sections, 6)".into()));
    }
    if !bool::try_from(sos.f_select(1, 3)?.f_eq(1)?.f_all()?)? {
        return Err(Error::InvalidArgument("sos[:, 3] should be all ones".into()));
    }
    if size[0] == 0 {
        return Err(Error::InvalidArgument("Cannot compute frequencies with no sections".into()));
    }
    let mut out: Option<(Tensor, Tensor)> = None;
    for j in 0..size[0] {
        let row = sos.f_get(j)?;
        let worn_j = match &worn {
            WorN::Count(n) => WorN::Count(*n),
            WorN::At(w) => WorN::At(w.shallow_clone()),
        };
        let (w, h) = freqz(&row.f_narrow(0, 0, 3)?, &row.f_narrow(0, 3, 3)?, worn_j, whole, fs, false)?;
        out = Some(match out {
            None => (w, h),
            Some((_, acc)) => (w, acc.f_mul(&h)?),
        });
    }
    out.ok_or_else(|| Error::InvalidArgument("Cannot compute frequencies with no sections".into()))
}
