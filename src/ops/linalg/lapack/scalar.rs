//! The scalars the host-side LAPACK ports compute in: `f64`, and [`C64`]
//! (a complex double, since the crate has no complex-number dependency),
//! behind one [`Scalar`] trait for the routines written once for both.

use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A complex double `re + i im`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct C64 {
    pub(crate) re: f64,
    pub(crate) im: f64,
}

impl C64 {
    pub(crate) const fn new(re: f64, im: f64) -> C64 {
        C64 { re, im }
    }

    /// The principal square root.
    pub(crate) fn sqrt(self) -> C64 {
        if self.im == 0.0 {
            return if self.re >= 0.0 {
                C64::new(self.re.sqrt(), self.im)
            } else {
                C64::new(0.0, (-self.re).sqrt().copysign(self.im))
            };
        }
        let r = self.abs();
        let re = ((r + self.re) / 2.0).sqrt();
        let im = ((r - self.re) / 2.0).sqrt().copysign(self.im);
        C64::new(re, im)
    }
}

impl Add for C64 {
    type Output = C64;
    fn add(self, o: C64) -> C64 {
        C64::new(self.re + o.re, self.im + o.im)
    }
}

impl Sub for C64 {
    type Output = C64;
    fn sub(self, o: C64) -> C64 {
        C64::new(self.re - o.re, self.im - o.im)
    }
}

impl Mul for C64 {
    type Output = C64;
    fn mul(self, o: C64) -> C64 {
        C64::new(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)
    }
}

impl Div for C64 {
    type Output = C64;
    /// Smith's algorithm (LAPACK's `zladiv` in spirit: no needless overflow).
    fn div(self, o: C64) -> C64 {
        if o.re.abs() >= o.im.abs() {
            if o.re == 0.0 && o.im == 0.0 {
                return C64::new(self.re / 0.0, self.im / 0.0);
            }
            let ratio = o.im / o.re;
            let d = o.re + o.im * ratio;
            C64::new((self.re + self.im * ratio) / d, (self.im - self.re * ratio) / d)
        } else {
            let ratio = o.re / o.im;
            let d = o.re * ratio + o.im;
            C64::new((self.re * ratio + self.im) / d, (self.im * ratio - self.re) / d)
        }
    }
}

impl Neg for C64 {
    type Output = C64;
    fn neg(self) -> C64 {
        C64::new(-self.re, -self.im)
    }
}

impl AddAssign for C64 {
    fn add_assign(&mut self, o: C64) {
        *self = *self + o;
    }
}

impl SubAssign for C64 {
    fn sub_assign(&mut self, o: C64) {
        *self = *self - o;
    }
}

impl MulAssign for C64 {
    fn mul_assign(&mut self, o: C64) {
        *self = *self * o;
    }
}

/// What the shared ports need of a scalar.
pub(crate) trait Scalar:
    Copy
    + Default
    + PartialEq
    + std::fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + Send
    + Sync
{
    fn re(self) -> f64;
    fn im(self) -> f64;
    /// `re + i im` (the imaginary part dropped for a real type).
    fn from_parts(re: f64, im: f64) -> Self;
    fn from_re(re: f64) -> Self {
        Self::from_parts(re, 0.0)
    }
    fn conj(self) -> Self;
    /// The modulus.
    fn abs(self) -> f64;
    /// `|re| + |im|` (LAPACK's `cabs1`).
    fn abs1(self) -> f64 {
        self.re().abs() + self.im().abs()
    }
    fn scale(self, s: f64) -> Self;
    fn zero() -> Self {
        Self::default()
    }
    fn one() -> Self {
        Self::from_re(1.0)
    }
}

impl Scalar for f64 {
    fn re(self) -> f64 {
        self
    }
    fn im(self) -> f64 {
        0.0
    }
    fn from_parts(re: f64, _im: f64) -> f64 {
        re
    }
    fn conj(self) -> f64 {
        self
    }
    fn abs(self) -> f64 {
        f64::abs(self)
    }
    fn scale(self, s: f64) -> f64 {
        self * s
    }
}

impl Scalar for C64 {
    fn re(self) -> f64 {
        self.re
    }
    fn im(self) -> f64 {
        self.im
    }
    fn from_parts(re: f64, im: f64) -> C64 {
        C64::new(re, im)
    }
    fn conj(self) -> C64 {
        C64::new(self.re, -self.im)
    }
    fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
    fn scale(self, s: f64) -> C64 {
        C64::new(self.re * s, self.im * s)
    }
}

/// A dense row-major `n x n` matrix on the host.
#[derive(Clone, Debug)]
pub(crate) struct Dense<S> {
    pub(crate) n: usize,
    pub(crate) data: Vec<S>,
}

impl<S: Scalar> Dense<S> {
    pub(crate) fn zeros(n: usize) -> Dense<S> {
        Dense { n, data: vec![S::zero(); n * n] }
    }

    pub(crate) fn identity(n: usize) -> Dense<S> {
        let mut m = Dense::zeros(n);
        for i in 0..n {
            m.data[i * n + i] = S::one();
        }
        m
    }

    #[inline]
    pub(crate) fn at(&self, i: usize, j: usize) -> S {
        self.data[i * self.n + j]
    }

    #[inline]
    pub(crate) fn at_mut(&mut self, i: usize, j: usize) -> &mut S {
        &mut self.data[i * self.n + j]
    }

    /// Columns `j1` and `j2`, rows `rows`: `(x, y) <- (c x + s y, c y - conj(s) x)` (`?rot`).
    pub(crate) fn rot_cols(&mut self, rows: std::ops::Range<usize>, j1: usize, j2: usize, c: f64, s: S) {
        for i in rows {
            let (x, y) = (self.at(i, j1), self.at(i, j2));
            *self.at_mut(i, j1) = x.scale(c) + s * y;
            *self.at_mut(i, j2) = y.scale(c) - s.conj() * x;
        }
    }

    /// Rows `i1` and `i2`, columns `cols`: as [`Dense::rot_cols`].
    pub(crate) fn rot_rows(&mut self, cols: std::ops::Range<usize>, i1: usize, i2: usize, c: f64, s: S) {
        for j in cols {
            let (x, y) = (self.at(i1, j), self.at(i2, j));
            *self.at_mut(i1, j) = x.scale(c) + s * y;
            *self.at_mut(i2, j) = y.scale(c) - s.conj() * x;
        }
    }
}

/// LAPACK's `?larfg`: the elementary reflector `H = I - tau v v^H` with
/// `H^H [alpha; x] = [beta; 0]`, `v = [1; x']`, `beta` real. Overwrites `x`
/// with `x'` and returns `(beta, tau)`.
pub(crate) fn larfg<S: Scalar>(alpha: S, x: &mut [S]) -> (S, S) {
    let xnorm = x.iter().fold(0.0f64, |acc, v| acc.hypot(v.abs()));
    let (alphr, alphi) = (alpha.re(), alpha.im());
    if xnorm == 0.0 && alphi == 0.0 {
        return (alpha, S::zero());
    }
    let norm = alphr.hypot(alphi).hypot(xnorm);
    let beta = if alphr >= 0.0 { -norm } else { norm };
    let tau = S::from_parts((beta - alphr) / beta, -alphi / beta);
    let factor = S::one() / (alpha - S::from_re(beta));
    for v in x.iter_mut() {
        *v = factor * *v;
    }
    (S::from_re(beta), tau)
}

/// LAPACK's `?lartg`: `(c, s, r)` with `[c s; -conj(s) c] [f; g] = [r; 0]`.
pub(crate) fn lartg<S: Scalar>(f: S, g: S) -> (f64, S, S) {
    if g == S::zero() {
        return (1.0, S::zero(), f);
    }
    if f == S::zero() {
        let ga = g.abs();
        return (0.0, g.conj().scale(1.0 / ga), S::from_re(ga));
    }
    let (fa, ga) = (f.abs(), g.abs());
    let d = fa.hypot(ga);
    let phase = f.scale(1.0 / fa);
    (fa / d, phase * g.conj().scale(1.0 / d), phase.scale(d))
}
