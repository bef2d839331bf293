//! SciPy's linear filters (`lfilter`, `lfilter_zi`, `lfiltic`, `sosfilt`,
//! `sosfilt_zi`, `filtfilt`, `sosfiltfilt`), two ways (see [`run`]): on the
//! CPU, without autograd, SciPy's own loops as kernels (`csrc/iir.cpp`, rows
//! over libtorch's threads); on CUDA or for autograd, a blocked
//! linear-recurrence scan on libtorch ops, no op per sample:
//!
//! A filter is a state-space system of dimension `K` in SciPy's direct form
//! II transposed (DF2T) state, `z[n+1] = F z[n] + g x[n]`,
//! `y[n] = c·z[n] + d x[n]` (for `sosfilt` the cascade of its sections, one
//! system of dimension `2 * n_sections` whose state is the sections' DF2T
//! states, SciPy's `zi` layout). Time (all batch rows together) is cut into
//! blocks of [`BLOCK`] samples:
//!
//! 1. one GEMM of the blocks with an `L x (L + K)` matrix gives every
//!    block's zero-state output (the lower-triangular Toeplitz matrix of the
//!    impulse response) and the state its input alone leaves at its end;
//! 2. the block-end states obey `s_k = A s_{k-1} + c_k` with `A = F^L`: solved
//!    by a second level of blocking, recursively (groups of blocks, one GEMM
//!    with the block lower-triangular matrix of `A`'s powers, then the groups'
//!    end states one level up), so each level is a few ops on data `L`
//!    times smaller;
//! 3. one more GEMM adds every block's incoming-state response.
//!
//! The small matrices (powers of `F`, impulse responses) are built on the
//! host in double-double arithmetic and rounded once: built in plain float64
//! they lose up to 8 digits for poles near the unit circle (the companion
//! matrices' powers are far from normal). The initial state `zi` is the
//! incoming state of the first block; `zf` the state after the last sample.

use std::ops::{Add, Div, Mul, Neg, Sub};

use tch::{Device, Kind, Tensor};

use crate::ffi::iir;
use crate::ops::autograd::records_grad;
use crate::ops::numpy::{normalize_axis, result_type};
use crate::ops::signal::arraytools::{extend_last, Extension};
use crate::{dlpack, DType, Error, Result};

/// Samples per block of the first level (chosen by measurement, when the
/// scan also ran on the CPU: 32 beat 16 and 64 on 1e6 and (64, 1e5) float64
/// inputs on the 2-core CPU).
pub const BLOCK: i64 = 32;

// ---------------------------------------------------------------------------
// Double-double complex arithmetic for the small host-side matrices
// ---------------------------------------------------------------------------

/// A double-double real number, `hi + lo` with `|lo| <= ulp(hi) / 2`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Dd {
    hi: f64,
    lo: f64,
}

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

fn quick(s: f64, e: f64) -> Dd {
    let hi = s + e;
    Dd { hi, lo: e - (hi - s) }
}

impl Dd {
    fn new(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    fn value(self) -> f64 {
        self.hi + self.lo
    }

    fn recip(self) -> Dd {
        let q1 = 1.0 / self.hi;
        let r = Dd::new(1.0) - self * Dd::new(q1);
        let q2 = r.hi / self.hi;
        let r2 = r - self * Dd::new(q2);
        let q3 = r2.hi / self.hi;
        let (s, e) = two_sum(q1, q2);
        quick(s, e) + Dd::new(q3)
    }
}

impl Add for Dd {
    type Output = Dd;
    fn add(self, o: Dd) -> Dd {
        if !self.hi.is_finite() || !o.hi.is_finite() {
            return Dd::new(self.hi + o.hi);
        }
        let (s, e) = two_sum(self.hi, o.hi);
        quick(s, e + self.lo + o.lo)
    }
}

impl Neg for Dd {
    type Output = Dd;
    fn neg(self) -> Dd {
        Dd { hi: -self.hi, lo: -self.lo }
    }
}

impl Sub for Dd {
    type Output = Dd;
    fn sub(self, o: Dd) -> Dd {
        self + (-o)
    }
}

impl Mul for Dd {
    type Output = Dd;
    fn mul(self, o: Dd) -> Dd {
        let p = self.hi * o.hi;
        if !p.is_finite() {
            return Dd::new(p);
        }
        let e = self.hi.mul_add(o.hi, -p);
        quick(p, e + self.hi * o.lo + self.lo * o.hi)
    }
}

/// A complex double-double number (real filters have `im == 0`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Cx {
    re: Dd,
    im: Dd,
}

impl Cx {
    const ZERO: Cx = Cx { re: Dd { hi: 0.0, lo: 0.0 }, im: Dd { hi: 0.0, lo: 0.0 } };
    const ONE: Cx = Cx { re: Dd { hi: 1.0, lo: 0.0 }, im: Dd { hi: 0.0, lo: 0.0 } };

    fn new(re: f64, im: f64) -> Cx {
        Cx { re: Dd::new(re), im: Dd::new(im) }
    }

    fn is_zero(self) -> bool {
        self.re.hi == 0.0 && self.im.hi == 0.0
    }

    fn recip(self) -> Cx {
        let norm = (self.re * self.re + self.im * self.im).recip();
        Cx { re: self.re * norm, im: -(self.im * norm) }
    }
}

impl Add for Cx {
    type Output = Cx;
    fn add(self, o: Cx) -> Cx {
        Cx { re: self.re + o.re, im: self.im + o.im }
    }
}

impl Sub for Cx {
    type Output = Cx;
    fn sub(self, o: Cx) -> Cx {
        Cx { re: self.re - o.re, im: self.im - o.im }
    }
}

impl Mul for Cx {
    type Output = Cx;
    fn mul(self, o: Cx) -> Cx {
        Cx { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
}

/// A small dense row-major matrix of [`Cx`].
#[derive(Clone, Debug)]
struct Mat {
    rows: usize,
    cols: usize,
    data: Vec<Cx>,
}

impl Mat {
    fn zeros(rows: usize, cols: usize) -> Mat {
        Mat { rows, cols, data: vec![Cx::ZERO; rows * cols] }
    }

    fn eye(n: usize) -> Mat {
        let mut m = Mat::zeros(n, n);
        for i in 0..n {
            m.set(i, i, Cx::ONE);
        }
        m
    }

    fn at(&self, i: usize, j: usize) -> Cx {
        self.data[i * self.cols + j]
    }

    fn set(&mut self, i: usize, j: usize, v: Cx) {
        self.data[i * self.cols + j] = v;
    }

    fn matmul(&self, o: &Mat) -> Mat {
        let mut out = Mat::zeros(self.rows, o.cols);
        for i in 0..self.rows {
            for k in 0..self.cols {
                let a = self.at(i, k);
                if a.is_zero() {
                    continue;
                }
                for j in 0..o.cols {
                    let v = out.at(i, j) + a * o.at(k, j);
                    out.set(i, j, v);
                }
            }
        }
        out
    }

    fn matvec(&self, v: &[Cx]) -> Vec<Cx> {
        (0..self.rows).map(|i| (0..self.cols).fold(Cx::ZERO, |acc, j| acc + self.at(i, j) * v[j])).collect()
    }

    /// The matrix as a tensor of `kind` (a real kind takes the real parts).
    fn tensor(&self, kind: Kind, device: Device) -> Result<Tensor> {
        let shape = [self.rows as i64, self.cols as i64];
        let t = if is_complex(kind) {
            let flat: Vec<f64> = self.data.iter().flat_map(|c| [c.re.value(), c.im.value()]).collect();
            Tensor::f_from_slice(&flat)?.f_reshape([shape[0], shape[1], 2])?.f_view_as_complex()?
        } else {
            let flat: Vec<f64> = self.data.iter().map(|c| c.re.value()).collect();
            Tensor::f_from_slice(&flat)?.f_reshape(shape)?
        };
        Ok(t.f_to_device(device)?.f_to_kind(kind)?)
    }
}

fn is_complex(kind: Kind) -> bool {
    matches!(kind, Kind::ComplexFloat | Kind::ComplexDouble)
}

/// A state-space system `z' = F z + g x`, `y = c·z + d x`.
#[derive(Clone, Debug)]
struct System {
    f: Mat,
    g: Vec<Cx>,
    c: Vec<Cx>,
    d: Cx,
}

impl System {
    fn order(&self) -> usize {
        self.g.len()
    }

    /// SciPy's DF2T structure of `b / a` (normalised by `a[0]`, the shorter padded with zeros).
    fn df2t(b: &[Cx], a: &[Cx]) -> System {
        let inv = a[0].recip();
        let n = a.len().max(b.len());
        let coef = |v: &[Cx], i: usize| if i < v.len() { v[i] * inv } else { Cx::ZERO };
        let k = n - 1;
        let mut f = Mat::zeros(k, k);
        for i in 0..k {
            f.set(i, 0, Cx::ZERO - coef(a, i + 1));
            if i + 1 < k {
                f.set(i, i + 1, Cx::ONE);
            }
        }
        let b0 = coef(b, 0);
        let g = (0..k).map(|i| coef(b, i + 1) - coef(a, i + 1) * b0).collect();
        let mut c = vec![Cx::ZERO; k];
        if k > 0 {
            c[0] = Cx::ONE;
        }
        System { f, g, c, d: b0 }
    }

    /// The cascade of `sections` (each a DF2T of order 2), its state the sections' states in order.
    fn cascade(sections: &[System]) -> System {
        let k: usize = sections.iter().map(System::order).sum();
        let mut f = Mat::zeros(k, k);
        let mut g = vec![Cx::ZERO; k];
        // The current section's input as `cin·z + din x`.
        let mut cin = vec![Cx::ZERO; k];
        let mut din = Cx::ONE;
        let mut offset = 0;
        for s in sections {
            let ks = s.order();
            for i in 0..ks {
                for (j, &input) in cin.iter().enumerate() {
                    let mut v = s.g[i] * input;
                    if (offset..offset + ks).contains(&j) {
                        v = v + s.f.at(i, j - offset);
                    }
                    f.set(offset + i, j, v);
                }
                g[offset + i] = s.g[i] * din;
            }
            // This section's output becomes the next one's input.
            let mut cout: Vec<Cx> = cin.iter().map(|&v| s.d * v).collect();
            for i in 0..ks {
                cout[offset + i] = cout[offset + i] + s.c[i];
            }
            cin = cout;
            din = s.d * din;
            offset += ks;
        }
        System { f, g, c: cin, d: din }
    }
}

/// The host-side matrices of one filtering plan.
struct Plan {
    /// `L x (L + K)`: a block's zero-state output and its input's end state.
    w: Tensor,
    /// `K x L`: a block's response to its incoming state (rows `c·F^n`).
    ot: Tensor,
    /// `F^n` for `n` in `0..=L` (for the last, partial block's final state).
    powers: Vec<Mat>,
    /// The block-to-block transition `F^L`.
    a: Mat,
}

fn plan(sys: &System, kind: Kind, device: Device) -> Result<Plan> {
    let k = sys.order();
    let l = BLOCK as usize;
    let mut powers = vec![Mat::eye(k)];
    for _ in 0..l {
        let next = sys.f.matmul(powers.last().expect("nonempty"));
        powers.push(next);
    }
    // F^j g for j in 0..L.
    let mut fg = Vec::with_capacity(l);
    let mut v = sys.g.clone();
    for _ in 0..l {
        let next = sys.f.matvec(&v);
        fg.push(std::mem::replace(&mut v, next));
    }
    let dot = |u: &[Cx], w: &[Cx]| u.iter().zip(w).fold(Cx::ZERO, |acc, (&p, &q)| acc + p * q);
    let mut h = vec![sys.d];
    h.extend((1..l).map(|j| dot(&sys.c, &fg[j - 1])));
    let mut w = Mat::zeros(l, l + k);
    for m in 0..l {
        for n in m..l {
            w.set(m, n, h[n - m]);
        }
        for (i, &value) in fg[l - 1 - m].iter().enumerate() {
            w.set(m, l + i, value);
        }
    }
    let mut ot = Mat::zeros(k, l);
    for (n, power) in powers.iter().take(l).enumerate() {
        for i in 0..k {
            let v = (0..k).fold(Cx::ZERO, |acc, j| acc + sys.c[j] * power.at(j, i));
            ot.set(i, n, v);
        }
    }
    let a = powers[l].clone();
    Ok(Plan { w: w.tensor(kind, device)?, ot: ot.tensor(kind, device)?, powers, a })
}

fn transpose(m: &Mat) -> Mat {
    let mut t = Mat::zeros(m.cols, m.rows);
    for i in 0..m.rows {
        for j in 0..m.cols {
            t.set(j, i, m.at(i, j));
        }
    }
    t
}

/// Blocks per group at the second and higher levels: about 64 state values a row.
fn group(k: usize) -> usize {
    (64 / k.max(1)).clamp(2, 16)
}

/// Solves `s_k = A s_{k-1} + c_k` (row vectors, `c`: `(rows, n, K)`, `s0`: `(rows, K)`).
fn solve_states(c: &Tensor, s0: &Tensor, a: &Mat, kind: Kind, device: Device) -> Result<Tensor> {
    let size = c.size();
    let (rows, n, k) = (size[0], size[1], size[2]);
    let l2 = group(k as usize);
    let ku = k as usize;
    let mut pw = vec![Mat::eye(ku)];
    for _ in 0..l2 {
        let next = a.matmul(pw.last().expect("nonempty"));
        pw.push(next);
    }
    let width = l2 * ku;
    let mut m = Mat::zeros(width, width);
    let mut p = Mat::zeros(ku, width);
    for i in 0..l2 {
        for j in 0..=i {
            let t = &pw[i - j];
            for q in 0..ku {
                for r in 0..ku {
                    m.set(j * ku + r, i * ku + q, t.at(q, r));
                }
            }
        }
        for q in 0..ku {
            for r in 0..ku {
                p.set(r, i * ku + q, pw[i + 1].at(q, r));
            }
        }
    }
    let l2i = l2 as i64;
    let groups = (n + l2i - 1) / l2i;
    let padded = if groups * l2i != n { c.f_constant_pad_nd([0, 0, 0, groups * l2i - n])? } else { c.shallow_clone() };
    let mut local = padded.f_reshape([rows * groups, l2i * k])?.f_mm(&m.tensor(kind, device)?)?;
    let incoming = if groups == 1 {
        s0.shallow_clone()
    } else {
        let ends = local.f_reshape([rows, groups, l2i * k])?.f_narrow(2, (l2i - 1) * k, k)?;
        let next = pw[l2].clone();
        let s = solve_states(&ends, s0, &next, kind, device)?;
        Tensor::f_cat(&[s0.f_unsqueeze(1)?, s.f_narrow(1, 0, groups - 1)?], 1)?.f_reshape([rows * groups, k])?
    };
    // in place: `ends` (a view of `local`) has been consumed by the level above
    let _ = local.f_addmm_(&incoming, &p.tensor(kind, device)?)?;
    Ok(local.f_reshape([rows, groups * l2i, k])?.f_narrow(1, 0, n)?)
}

/// A filter as the two implementations take it: SciPy's coefficients for the
/// CPU kernels (`crate::ffi::iir`, SciPy's own loops) and the state-space
/// system for the scan.
struct Filter {
    sys: System,
    coefficients: Coefficients,
}

/// SciPy's coefficients in the result dtype, on the CPU, as given (not normalised).
enum Coefficients {
    /// `lfilter`'s `b` and `a`.
    Ba(Tensor, Tensor),
    /// `sosfilt`'s `(n_sections, 6)` array.
    Sos(Tensor),
}

impl Filter {
    /// `b / a` in SciPy's DF2T form.
    fn ba(b: &Tensor, a: &Tensor, kind: Kind) -> Result<Filter> {
        let (bv, av) = ba(b, a, kind)?;
        let host = |t: &Tensor| t.f_detach()?.f_to_kind(kind)?.f_to_device(Device::Cpu)?.f_contiguous();
        Ok(Filter { sys: System::df2t(&bv, &av), coefficients: Coefficients::Ba(host(b)?, host(a)?) })
    }

    /// The cascade of `sos`'s sections (checked by [`sections`]; at least one).
    fn sos(sos: &Tensor, kind: Kind) -> Result<Filter> {
        let secs = sections(sos, kind)?;
        let coefs = sos.f_detach()?.f_reshape([-1, 6])?.f_to_kind(kind)?.f_to_device(Device::Cpu)?.f_contiguous()?;
        Ok(Filter { sys: System::cascade(&secs), coefficients: Coefficients::Sos(coefs) })
    }
}

/// Which way [`run`] goes along the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    /// From the last sample to the first, the outputs in the input's order
    /// (`flip(filter(flip(x)))`): the backward pass of the zero-phase filters.
    Backward,
}

/// Filters the rows of `x` (`(rows, T)`, contiguous, of the result kind)
/// through `filter` from the states `zi` (`(rows, K)`; zeros when `None`)
/// in `direction`: returns `y` (`(rows, T)`) and the final states (`(rows, K)`).
///
/// On the CPU, where autograd need not record the computation, this is
/// SciPy's own loop (`crate::ffi::iir`: rows in parallel, rounding as
/// SciPy's); otherwise the blocked scan ([`scan`]), on the data's device and
/// differentiable.
fn run(filter: &Filter, x: &Tensor, zi: Option<&Tensor>, direction: Direction) -> Result<(Tensor, Tensor)> {
    let reverse = direction == Direction::Backward;
    let needs_graph = records_grad(x) || zi.is_some_and(records_grad);
    if x.device() != Device::Cpu || needs_graph {
        if !reverse {
            return scan(&filter.sys, x, zi);
        }
        let (y, zf) = scan(&filter.sys, &x.f_flip([1])?, zi)?;
        return Ok((y.f_flip([1])?, zf));
    }
    let zi = match zi {
        Some(z) => z.shallow_clone(),
        None => Tensor::f_zeros([x.size()[0], filter.sys.order() as i64], (x.kind(), Device::Cpu))?,
    };
    match &filter.coefficients {
        Coefficients::Ba(b, a) => iir::lfilter_cpu(b, a, x, &zi, reverse),
        Coefficients::Sos(sos) => iir::sosfilt_cpu(sos, x, &zi, reverse),
    }
}

/// [`run`] as the blocked scan of the module docs.
fn scan(sys: &System, x: &Tensor, zi: Option<&Tensor>) -> Result<(Tensor, Tensor)> {
    if x.numel() == 0 || sys.order() == 0 {
        return run_finite(sys, x, zi);
    }
    // A NaN or infinity would reach earlier outputs of its block through the
    // GEMM's zeros (0 * NaN): filter the finite values, then mark what the
    // non-finite ones reach (SciPy's recursion: every later output of the row;
    // a FIR filter: the outputs within its taps) as NaN.
    // The common case first, in one pass: without NaN or infinity the sum is finite (a sum that
    // overflows on finite data only sends the call on to the exact test below).
    let zi_finite = match zi {
        Some(z) => z.f_isfinite()?.f_all()?.f_int64_value(&[])? != 0,
        None => true,
    };
    if zi_finite && x.f_sum(x.kind())?.f_isfinite()?.f_int64_value(&[])? != 0 {
        return run_finite(sys, x, zi);
    }
    let bad = x.f_isfinite()?.f_logical_not()?;
    let bad_zi = match zi {
        Some(z) => z.f_isfinite()?.f_logical_not()?.f_any_dim(1, true)?,
        None => Tensor::f_zeros([x.size()[0], 1], (Kind::Bool, x.device()))?,
    };
    let any_bad = bad.f_any()?.f_logical_or(&bad_zi.f_any()?)?;
    if any_bad.f_int64_value(&[])? == 0 {
        return run_finite(sys, x, zi);
    }
    let clean = x.f_masked_fill(&bad, 0.0)?;
    let clean_zi = zi.map(|z| z.f_nan_to_num(0.0, 0.0, 0.0)).transpose()?;
    let (y, zf) = run_finite(sys, &clean, clean_zi.as_ref())?;
    let recursive = (0..sys.order()).any(|i| (0..sys.order()).any(|j| !sys.f.at(i, j).is_zero() && j != i + 1));
    let reached = if recursive {
        bad.f_to_kind(Kind::Int)?.f_cumsum(1, Kind::Int)?.f_gt(0)?
    } else {
        // The FIR filter's taps as 0/1 weights applied to the indicator: exact small integers.
        let taps =
            (0..=sys.order()).map(|n| if n == 0 { sys.d } else { sys.g.get(n - 1).copied().unwrap_or(Cx::ZERO) });
        let ones: Vec<Cx> = taps.map(|t| if t.is_zero() { Cx::ZERO } else { Cx::ONE }).collect();
        let indicator = System::df2t(&ones, &[Cx::ONE]);
        let counts = run_finite(&indicator, &bad.f_to_kind(Kind::Double)?, None)?.0;
        counts.f_gt(0.5)?
    };
    let reached = reached.f_logical_or(&bad_zi)?;
    let y = y.f_masked_fill(&reached, f64::NAN)?;
    let row_bad = reached.f_any_dim(1, true)?;
    let zf = zf.f_masked_fill(&row_bad, f64::NAN)?;
    Ok((y, zf))
}

/// [`scan`] on finite data.
fn run_finite(sys: &System, x: &Tensor, zi: Option<&Tensor>) -> Result<(Tensor, Tensor)> {
    let (kind, device) = (x.kind(), x.device());
    let size = x.size();
    let (rows, t) = (size[0], size[1]);
    let k = sys.order() as i64;
    let zi = match zi {
        Some(z) => z.shallow_clone(),
        None => Tensor::f_zeros([rows, k], (kind, device))?,
    };
    if t == 0 || rows == 0 {
        return Ok((x.f_detach_copy()?, zi.f_detach_copy()?));
    }
    if k == 0 {
        return Ok((x.f_mul(&scalar(sys.d, kind, device)?)?, zi.f_detach_copy()?));
    }
    let plan = plan(sys, kind, device)?;
    let l = BLOCK;
    let nb = (t + l - 1) / l;
    // zeros to a whole last block (cat: one pass over x, where constant_pad_nd fills, then copies)
    let xp = if nb * l != t {
        Tensor::f_cat(&[x, &Tensor::f_zeros([rows, nb * l - t], (kind, device))?], 1)?
    } else {
        x.shallow_clone()
    };
    let blocks = xp.f_reshape([rows * nb, l])?;
    // Two products rather than one with `w` whole: the outputs then come out contiguous, and the
    // incoming states are added in place, with no copy of the (rows * T) outputs.
    let c = blocks.f_mm(&plan.w.f_narrow(1, l, k)?)?.f_reshape([rows, nb, k])?;
    let s = solve_states(&c, &zi, &plan.a, kind, device)?;
    let incoming = Tensor::f_cat(&[zi.f_unsqueeze(1)?, s.f_narrow(1, 0, nb - 1)?], 1)?;
    let mut y = blocks.f_mm(&plan.w.f_narrow(1, 0, l)?)?;
    let _ = y.f_addmm_(&incoming.f_reshape([rows * nb, k])?, &plan.ot)?;
    let y = y.f_reshape([rows, nb * l])?.f_narrow(1, 0, t)?;
    // The final state: the last block's incoming state advanced over its `rest` samples.
    let rest = t - (nb - 1) * l;
    let last_in = incoming.f_select(1, nb - 1)?;
    let advance = transpose(&plan.powers[rest as usize]).tensor(kind, device)?;
    let last_x = x.f_narrow(1, (nb - 1) * l, rest)?;
    let from_input = plan.w.f_narrow(0, l - rest, rest)?.f_narrow(1, l, k)?;
    let zf = last_in.f_mm(&advance)?.f_addmm(&last_x, &from_input)?;
    Ok((y.f_contiguous()?, zf))
}

fn scalar(v: Cx, kind: Kind, device: Device) -> Result<Tensor> {
    let mut m = Mat::zeros(1, 1);
    m.set(0, 0, v);
    Ok(m.tensor(kind, device)?.f_reshape([1])?)
}

// ---------------------------------------------------------------------------
// Coefficients, dtypes, layout
// ---------------------------------------------------------------------------

/// The values of a (small) coefficient tensor on the host, after casting to `kind`.
fn host_values(t: &Tensor, kind: Kind) -> Result<Vec<Cx>> {
    let flat = t.f_reshape([-1])?.f_to_device(Device::Cpu)?.f_to_kind(kind)?;
    if is_complex(kind) {
        let parts = flat.f_to_kind(Kind::ComplexDouble)?.f_view_as_real()?.f_contiguous()?;
        let v = Vec::<f64>::try_from(&parts.f_reshape([-1])?)?;
        Ok(v.chunks(2).map(|p| Cx::new(p[0], p[1])).collect())
    } else {
        let v = Vec::<f64>::try_from(&flat.f_to_kind(Kind::Double)?.f_contiguous()?)?;
        Ok(v.into_iter().map(|re| Cx::new(re, 0.0)).collect())
    }
}

/// The dtype SciPy's filters compute in: NumPy's `result_type` of the
/// arguments, which must be float32, float64, complex64 or complex128 (else
/// SciPy's NotImplementedError "input type ... not supported").
fn filter_kind(tensors: &[&Tensor]) -> Result<Kind> {
    let dtypes = tensors.iter().map(|t| dlpack::dtype_of(t)).collect::<Result<Vec<_>>>()?;
    let dtype = result_type(&dtypes);
    match dtype {
        DType::Float32 => Ok(Kind::Float),
        DType::Float64 => Ok(Kind::Double),
        DType::Complex64 => Ok(Kind::ComplexFloat),
        DType::Complex128 => Ok(Kind::ComplexDouble),
        other => Err(Error::NotImplemented(format!(
            "input type '{other}' not supported (the filters compute in float32, float64, complex64 or \
             complex128, the result type of the coefficients and the data, as SciPy's do)"
        ))),
    }
}

/// [`filter_kind`] where integer coefficients count as float64 (what
/// `lfilter_zi`/`sosfilt_zi` make of them before `filtfilt` uses them).
fn float_coefficients_kind(coefs: &[&Tensor], x: &Tensor) -> Result<Kind> {
    let float64 = Tensor::f_zeros([0], (Kind::Double, Device::Cpu))?;
    let coef_dtypes = coefs.iter().map(|t| dlpack::dtype_of(t)).collect::<Result<Vec<_>>>()?;
    let inexact = coef_dtypes.iter().any(|d| d.is_float() || d.is_complex());
    let mut all: Vec<&Tensor> = coefs.to_vec();
    if !inexact {
        all.push(&float64);
    }
    all.push(x);
    filter_kind(&all)
}

fn check_coefficients(name: &str, t: &Tensor) -> Result<()> {
    let dims = t.size();
    if dims.len() != 1 || dims[0] == 0 {
        return Err(Error::InvalidArgument(format!(
            "Parameter {name} is not a non-empty 1d array, since {name}.shape={}!",
            shape_repr(&dims)
        )));
    }
    Ok(())
}

/// A shape as Python prints a tuple: `(3,)`, `(2, 4)`, `()`.
fn shape_repr(dims: &[i64]) -> String {
    match dims {
        [one] => format!("({one},)"),
        _ => format!("({})", dims.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// `x` with `axis` moved last, as `(rows, T)` rows (contiguous) of `kind`.
fn rows_of(x: &Tensor, axis: usize, kind: Kind) -> Result<(Tensor, Vec<i64>)> {
    let moved = x.f_movedim(axis as i64, -1)?;
    let moved_shape = moved.size();
    let t = *moved_shape.last().unwrap_or(&1);
    let count: i64 = moved_shape[..moved_shape.len() - 1].iter().product();
    let rows = moved.f_to_kind(kind)?.f_contiguous()?.f_reshape([count, t])?;
    Ok((rows, moved_shape))
}

/// Rows back to `x`'s layout: `moved_shape` (with `axis` last) then `axis` in place.
fn unrows(y: &Tensor, moved_shape: &[i64], axis: usize) -> Result<Tensor> {
    Ok(y.f_reshape(moved_shape)?.f_movedim(-1, axis as i64)?)
}

fn check_x(x: &Tensor) -> Result<()> {
    if x.dim() == 0 {
        return Err(Error::InvalidArgument("x must be at least 1-D".into()));
    }
    Ok(())
}

fn axis_of(axis: i64, ndim: usize) -> Result<usize> {
    normalize_axis(axis, ndim).map_err(|_| Error::InvalidArgument("selected axis is out of range".into()))
}

/// `lfilter`'s coefficients: `b` and `a` as host values of `kind`, `a[0]` checked.
fn ba(b: &Tensor, a: &Tensor, kind: Kind) -> Result<(Vec<Cx>, Vec<Cx>)> {
    let (bv, av) = (host_values(b, kind)?, host_values(a, kind)?);
    if av[0].is_zero() {
        return Err(Error::InvalidArgument(if av.len() > 1 {
            "BUG: filter coefficient a[0] == 0 not supported yet".into()
        } else {
            "First `a` filter coefficient must be non-zero (a = [0] divides by zero).".into()
        }));
    }
    Ok((bv, av))
}

/// `zi` (`x`'s shape with `axis` of length `k`, singleton dims broadcast) as `(rows, k)` rows.
fn zi_rows(zi: &Tensor, x_shape: &[i64], axis: usize, k: i64, kind: Kind) -> Result<Tensor> {
    let mut expected = x_shape.to_vec();
    expected[axis] = k;
    let dims = zi.size();
    let fits = dims.len() == expected.len()
        && dims.iter().zip(&expected).enumerate().all(|(i, (&d, &e))| d == e || (i != axis && d == 1));
    if !fits {
        return Err(Error::InvalidArgument(format!(
            "Unexpected shape for zi: expected {}, found {}.",
            shape_repr(&expected),
            shape_repr(&dims)
        )));
    }
    let full = zi.f_expand(&expected, false)?;
    Ok(rows_of(&full, axis, kind)?.0)
}

// ---------------------------------------------------------------------------
// The public routines
// ---------------------------------------------------------------------------

/// `scipy.signal.lfilter(b, a, x, axis, zi)`: `y`, and `zf` when `zi` is given.
///
/// The result dtype is NumPy's `result_type(b, a, x, zi)` (float32,
/// float64, complex64 or complex128; others raise [`Error::NotImplemented`]
/// as SciPy does). `zi` has `x`'s shape with `axis` of length
/// `max(len(a), len(b)) - 1` (singleton dimensions broadcast).
pub fn lfilter(b: &Tensor, a: &Tensor, x: &Tensor, axis: i64, zi: Option<&Tensor>) -> Result<(Tensor, Option<Tensor>)> {
    check_coefficients("b", b)?;
    check_coefficients("a", a)?;
    check_x(x)?;
    let axis = axis_of(axis, x.dim())?;
    let mut all = vec![b, a, x];
    if let Some(z) = zi {
        all.push(z);
    }
    let kind = filter_kind(&all)?;
    if let Some(done) = lfilter_host(b, a, x, axis, zi, kind)? {
        return Ok(done);
    }
    let filter = Filter::ba(b, a, kind)?;
    let k = filter.sys.order() as i64;
    let (rows, moved) = rows_of(x, axis, kind)?;
    let zi = zi.map(|z| zi_rows(z, &x.size(), axis, k, kind)).transpose()?;
    let (y, zf) = run(&filter, &rows, zi.as_ref(), Direction::Forward)?;
    let y = unrows(&y, &moved, axis)?;
    let zf = match zi {
        Some(_) => {
            let mut zshape = moved.clone();
            *zshape.last_mut().expect("x is at least 1-D") = k;
            Some(unrows(&zf, &zshape, axis)?)
        }
        None => None,
    };
    Ok((y, zf))
}

/// Samples (all rows together) up to which a one-row [`lfilter`] call takes
/// [`lfilter_host`]; several rows, up to [`HOST_ROWS_SAMPLES`] (beyond that the
/// kernel's interleaved rows and threads win).
const HOST_SAMPLES: i64 = 1 << 14;
/// See [`HOST_SAMPLES`].
const HOST_ROWS_SAMPLES: i64 = 1 << 12;

/// [`lfilter`] for small real calls whose arrays already are what the
/// kernel needs (on the CPU, of the result `kind`, contiguous, `axis` the
/// last, `zi` of its exact shape, no autograd): SciPy's loop on host copies,
/// without the tensor ops that cost a small call more than its filtering
/// (the DF2T system in double-double, the layout moves, the kernel's own
/// checks and copies). The same arithmetic as `csrc/iir_kernels.h`'s
/// `lfilter_lanes`, so results equal the kernel's (and SciPy's) bit for bit.
/// `None`: the call takes the general path.
fn lfilter_host(
    b: &Tensor,
    a: &Tensor,
    x: &Tensor,
    axis: usize,
    zi: Option<&Tensor>,
    kind: Kind,
) -> Result<Option<(Tensor, Option<Tensor>)>> {
    let shape = x.size();
    let (samples, len) = (x.numel() as i64, shape[axis]);
    let rows = if len == 0 { 0 } else { samples / len };
    let ready = |t: &Tensor| t.device() == Device::Cpu && t.kind() == kind && !records_grad(t) && t.is_contiguous();
    let small = samples > 0 && samples <= HOST_SAMPLES && (rows == 1 || samples <= HOST_ROWS_SAMPLES);
    if !small || axis + 1 != shape.len() || !ready(b) || !ready(a) || !ready(x) || !zi.is_none_or(ready) {
        return Ok(None);
    }
    match kind {
        Kind::Double => host_filter::<f64>(b, a, x, &shape, zi),
        Kind::Float => host_filter::<f32>(b, a, x, &shape, zi),
        _ => Ok(None),
    }
}

/// A tensor's elements as a vector (`t` contiguous, on the CPU, of `T`'s kind).
fn host_vec<T: tch::kind::Element + Copy + Default>(t: &Tensor) -> Result<Vec<T>> {
    let mut v = vec![T::default(); t.numel()];
    t.f_copy_data(&mut v, t.numel())?;
    Ok(v)
}

/// [`lfilter_host`] in `T` (the result kind's element type).
fn host_filter<T>(
    b: &Tensor,
    a: &Tensor,
    x: &Tensor,
    shape: &[i64],
    zi: Option<&Tensor>,
) -> Result<Option<(Tensor, Option<Tensor>)>>
where
    T: tch::kind::Element
        + Copy
        + Default
        + PartialEq
        + Add<Output = T>
        + Sub<Output = T>
        + Mul<Output = T>
        + Div<Output = T>,
{
    let zero = T::default();
    let (bv, av) = (host_vec::<T>(b)?, host_vec::<T>(a)?);
    let a0 = av[0];
    if a0 == zero {
        return Ok(None); // the general path explains
    }
    let n = bv.len().max(av.len());
    let k = n - 1;
    let mut zshape = shape.to_vec();
    *zshape.last_mut().expect("x is at least 1-D") = k as i64;
    if zi.is_some_and(|z| z.size() != zshape) {
        return Ok(None); // broadcast singleton dimensions: the general path
    }
    // Padded to `n`, then normalised by a[0] in `T`, b first (the kernel's order).
    let (mut bn, mut an) = (vec![zero; n], vec![zero; n]);
    bn[..bv.len()].copy_from_slice(&bv);
    an[..av.len()].copy_from_slice(&av);
    for v in bn.iter_mut().chain(an.iter_mut()) {
        *v = *v / a0;
    }
    let fir = av.len() == 1;
    let xv = host_vec::<T>(x)?;
    let len = *shape.last().expect("x is at least 1-D") as usize;
    let mut state = match zi {
        Some(z) => host_vec::<T>(z)?,
        None => vec![zero; xv.len() / len * k],
    };
    let mut y = vec![zero; xv.len()];
    if k == 0 {
        // a gain: SciPy's `y = x * b[0]`
        for (out, &xn) in y.iter_mut().zip(&xv) {
            *out = xn * bn[0];
        }
    } else {
        let rows = xv.chunks_exact(len).zip(y.chunks_exact_mut(len)).zip(state.chunks_exact_mut(k));
        macro_rules! fixed {
            ($($k:literal)*) => {
                match k {
                    $($k => {
                        for ((xr, yr), s) in rows {
                            host_row::<T, $k>(&bn, &an, fir, xr, yr, s.try_into().expect("k states"));
                        }
                    })*
                    _ => {
                        for ((xr, yr), s) in rows {
                            for (&xn, out) in xr.iter().zip(yr.iter_mut()) {
                                *out = host_step(&bn, &an, fir, s, xn);
                            }
                        }
                    }
                }
            };
        }
        fixed!(1 2 3 4 5 6 7 8);
    }
    let shaped = |v: &[T], dims: &[i64]| -> Result<Tensor> {
        let t = Tensor::f_from_slice(v)?;
        Ok(if dims.len() == 1 { t } else { t.f_view(dims)? })
    };
    let zf = match zi {
        Some(_) => Some(shaped(&state, &zshape)?),
        None => None,
    };
    Ok(Some((shaped(&y, shape)?, zf)))
}

/// One sample through the DF2T states `s` (`k = s.len()`; `b`, `a`: `k + 1`
/// coefficients normalised by `a[0]`), in SciPy's order of operations (the
/// kernel's `lfilter_lanes`); `fir` leaves out the `a` terms, as SciPy does.
#[inline(always)]
fn host_step<T>(b: &[T], a: &[T], fir: bool, s: &mut [T], xn: T) -> T
where
    T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>,
{
    let k = s.len();
    let yn = s[0] + b[0] * xn;
    for i in 0..k - 1 {
        s[i] = if fir { s[i + 1] + xn * b[i + 1] } else { s[i + 1] + xn * b[i + 1] - yn * a[i + 1] };
    }
    s[k - 1] = if fir { xn * b[k] } else { xn * b[k] - yn * a[k] };
    yn
}

/// [`host_step`] over one row of `K` states, the states in registers.
fn host_row<T, const K: usize>(b: &[T], a: &[T], fir: bool, x: &[T], y: &mut [T], state: &mut [T; K])
where
    T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>,
{
    let mut s = *state;
    let (b, a) = (&b[..=K], &a[..=K]);
    for (&xn, out) in x.iter().zip(y.iter_mut()) {
        *out = host_step(b, a, fir, &mut s, xn);
    }
    *state = s;
}

/// `scipy.signal.lfilter_zi(b, a)`: the steady-state initial state of the step response.
pub fn lfilter_zi(b: &Tensor, a: &Tensor) -> Result<Tensor> {
    let b1 = if b.dim() == 0 { b.f_reshape([1])? } else { b.shallow_clone() };
    let a1 = if a.dim() == 0 { a.f_reshape([1])? } else { a.shallow_clone() };
    if b1.dim() != 1 {
        return Err(Error::InvalidArgument("Numerator b must be 1-D.".into()));
    }
    if a1.dim() != 1 {
        return Err(Error::InvalidArgument("Denominator a must be 1-D.".into()));
    }
    let kind = float_coefficients_kind(&[&b1, &a1], &Tensor::f_zeros([0], (Kind::Bool, Device::Cpu))?)?;
    let device = b1.device();
    let bv = host_values(&b1, kind)?;
    let mut av = host_values(&a1, kind)?;
    while av.len() > 1 && av[0].is_zero() {
        av.remove(0);
    }
    if av.is_empty() || av[0].is_zero() {
        return Err(Error::InvalidArgument("There must be at least one nonzero `a` coefficient.".into()));
    }
    if bv.is_empty() {
        return Err(Error::InvalidArgument("Numerator b must be 1-D.".into()));
    }
    let sys = System::df2t(&bv, &av);
    Ok(steady_state(&sys)?.tensor(kind, device)?.f_reshape([-1])?)
}

/// The state `z` with `z = F z + g` (a unit step's steady state), by Gaussian
/// elimination with partial pivoting on `I - F` (as `numpy.linalg.solve`).
fn steady_state(sys: &System) -> Result<Mat> {
    let k = sys.order();
    let mut m = Mat::zeros(k, k + 1);
    for i in 0..k {
        for j in 0..k {
            let v = if i == j { Cx::ONE - sys.f.at(i, j) } else { Cx::ZERO - sys.f.at(i, j) };
            m.set(i, j, v);
        }
        m.set(i, k, sys.g[i]);
    }
    let mag = |c: Cx| c.re.value().hypot(c.im.value());
    for col in 0..k {
        let pivot = (col..k).max_by(|&p, &q| mag(m.at(p, col)).total_cmp(&mag(m.at(q, col)))).unwrap_or(col);
        if mag(m.at(pivot, col)) == 0.0 {
            return Err(Error::LinAlg("Singular matrix".into()));
        }
        for j in 0..=k {
            let (p, q) = (m.at(col, j), m.at(pivot, j));
            m.set(col, j, q);
            m.set(pivot, j, p);
        }
        let inv = m.at(col, col).recip();
        for row in 0..k {
            if row == col {
                continue;
            }
            let factor = m.at(row, col) * inv;
            for j in col..=k {
                let v = m.at(row, j) - factor * m.at(col, j);
                m.set(row, j, v);
            }
        }
    }
    let mut z = Mat::zeros(k, 1);
    for i in 0..k {
        z.set(i, 0, m.at(i, k) * m.at(i, i).recip());
    }
    Ok(z)
}

/// `scipy.signal.lfiltic(b, a, y, x)`: the DF2T initial state from past outputs `y` and inputs `x`
/// (`y[0]` the most recent).
pub fn lfiltic(b: &Tensor, a: &Tensor, y: &Tensor, x: Option<&Tensor>) -> Result<Tensor> {
    let n = a.size().first().copied().unwrap_or(1) - 1;
    let m = b.size().first().copied().unwrap_or(1) - 1;
    if a.dim() != 1 || n < 0 {
        return Err(Error::InvalidArgument("There must be at least one `a` coefficient.".into()));
    }
    if b.dim() != 1 || m < 0 {
        return Err(Error::InvalidArgument("Parameter b is not a non-empty 1d array.".into()));
    }
    let k = m.max(n) as usize;
    let mut all = vec![b, a, y];
    if let Some(x) = x {
        all.push(x);
    }
    let dtypes = all.iter().map(|t| dlpack::dtype_of(t)).collect::<Result<Vec<_>>>()?;
    let kind = match result_type(&dtypes) {
        d if !(d.is_float() || d.is_complex()) => Kind::Double,
        DType::Float16 | DType::BFloat16 => Kind::Float,
        d => d.kind().unwrap_or(Kind::Double),
    };
    let device = y.device();
    let bv = host_values(b, kind)?;
    let av = host_values(a, kind)?;
    let yv = host_values(y, kind)?;
    let xv = match x {
        Some(x) => host_values(x, kind)?,
        None => Vec::new(),
    };
    let at = |v: &[Cx], i: usize| v.get(i).copied().unwrap_or(Cx::ZERO);
    let mut zi = Mat::zeros(k, 1);
    for mm in 0..m as usize {
        let s = (mm + 1..=m as usize).fold(Cx::ZERO, |acc, j| acc + bv[j] * at(&xv, j - mm - 1));
        zi.set(mm, 0, s);
    }
    for nn in 0..n as usize {
        let s = (nn + 1..=n as usize).fold(Cx::ZERO, |acc, j| acc + av[j] * at(&yv, j - nn - 1));
        let v = zi.at(nn, 0) - s;
        zi.set(nn, 0, v);
    }
    if av[0] != Cx::ONE {
        if av[0].is_zero() {
            return Err(Error::InvalidArgument("First `a` filter coefficient must be non-zero.".into()));
        }
        let inv = av[0].recip();
        for i in 0..k {
            let v = zi.at(i, 0) * inv;
            zi.set(i, 0, v);
        }
    }
    Ok(zi.tensor(kind, device)?.f_reshape([-1])?)
}

/// The sections of `sos` (`(n_sections, 6)`, `sos[:, 3] == 1`), checked as SciPy's `_validate_sos`.
fn sections(sos: &Tensor, kind: Kind) -> Result<Vec<System>> {
    let sos = if sos.dim() < 2 { sos.f_reshape([1, -1])? } else { sos.shallow_clone() };
    let dims = sos.size();
    if dims.len() != 2 {
        return Err(Error::InvalidArgument("sos array must be 2D".into()));
    }
    if dims[1] != 6 {
        return Err(Error::InvalidArgument("sos array must be shape (n_sections, 6)".into()));
    }
    let v = host_values(&sos, kind)?;
    let mut out = Vec::with_capacity(dims[0] as usize);
    for row in v.chunks(6) {
        if row[3] != Cx::ONE {
            return Err(Error::InvalidArgument("sos[:, 3] should be all ones".into()));
        }
        out.push(System::df2t(&row[..3], &row[3..]));
    }
    Ok(out)
}

fn sos_count(sos: &Tensor) -> i64 {
    if sos.dim() < 2 {
        1
    } else {
        sos.size()[0]
    }
}

/// `scipy.signal.sosfilt(sos, x, axis, zi)`: `y`, and `zf` when `zi` is given
/// (`zi`/`zf` of shape `(n_sections, ..., 2, ...)`).
pub fn sosfilt(sos: &Tensor, x: &Tensor, axis: i64, zi: Option<&Tensor>) -> Result<(Tensor, Option<Tensor>)> {
    check_x(x)?;
    let mut all = vec![sos, x];
    if let Some(z) = zi {
        all.push(z);
    }
    let kind = filter_kind(&all)?;
    let ns = sections(sos, kind)?.len() as i64;
    let axis = axis_of(axis, x.dim())?;
    let (rows, moved) = rows_of(x, axis, kind)?;
    let zi_rows = match zi {
        Some(z) => {
            let mut expected = vec![ns];
            let mut xs = x.size();
            xs[axis] = 2;
            expected.extend(&xs);
            if z.size() != expected {
                return Err(Error::InvalidArgument(format!(
                    "Invalid zi shape. With axis={axis}, an input with shape {}, and an sos array with {ns} \
                     sections, zi must have shape {}, got {}.",
                    shape_repr(&x.size()),
                    shape_repr(&expected),
                    shape_repr(&z.size())
                )));
            }
            // (ns, ..., 2, ...) -> (rows, ns * 2), sections major.
            let moved_z = z.f_movedim(axis as i64 + 1, -1)?.f_movedim(0, -2)?.f_to_kind(kind)?.f_contiguous()?;
            let count: i64 = moved[..moved.len() - 1].iter().product();
            Some(moved_z.f_reshape([count, ns * 2])?)
        }
        None => None,
    };
    let (y, zf) = if ns == 0 {
        (
            rows.f_detach_copy()?,
            zi_rows
                .as_ref()
                .map(|z| z.f_detach_copy())
                .transpose()?
                .unwrap_or(Tensor::f_zeros([0], (kind, x.device()))?),
        )
    } else {
        run(&Filter::sos(sos, kind)?, &rows, zi_rows.as_ref(), Direction::Forward)?
    };
    let y = unrows(&y, &moved, axis)?;
    let zf = match zi {
        Some(_) => {
            let mut zshape = moved[..moved.len() - 1].to_vec();
            zshape.extend([ns, 2]);
            let z = zf.f_reshape(&zshape[..])?.f_movedim(-2, 0)?.f_movedim(-1, axis as i64 + 1)?;
            Some(z)
        }
        None => None,
    };
    Ok((y, zf))
}

/// `scipy.signal.sosfilt_zi(sos)`: `(n_sections, 2)` steady-state initial states of the step response.
pub fn sosfilt_zi(sos: &Tensor) -> Result<Tensor> {
    if sos.dim() != 2 || sos.size()[1] != 6 {
        return Err(Error::InvalidArgument("sos must be shape (n_sections, 6)".into()));
    }
    let dtype = dlpack::dtype_of(sos)?;
    let kind = if dtype.is_float() || dtype.is_complex() { filter_kind(&[sos])? } else { Kind::Double };
    let v = host_values(sos, kind)?;
    let mut out = Mat::zeros(v.len() / 6, 2);
    let mut scale = Cx::ONE;
    for (i, row) in v.chunks(6).enumerate() {
        let mut av = row[3..].to_vec();
        while av.len() > 1 && av[0].is_zero() {
            av.remove(0);
        }
        if av[0].is_zero() {
            return Err(Error::InvalidArgument("There must be at least one nonzero `a` coefficient.".into()));
        }
        let sys = System::df2t(&row[..3], &av);
        let z = steady_state(&sys)?;
        for j in 0..sys.order().min(2) {
            out.set(i, j, scale * z.at(j, 0));
        }
        let bsum = row[..3].iter().fold(Cx::ZERO, |acc, &c| acc + c);
        let asum = row[3..].iter().fold(Cx::ZERO, |acc, &c| acc + c);
        scale = scale * bsum * asum.recip();
    }
    out.tensor(kind, sos.device())
}

/// `x` as SciPy's extension leaves it: the odd extension of bool data is
/// integer (`2 * x[0] - x[...]`), which then promotes as int64.
fn extended_input(x: &Tensor, padtype: Option<PadType>, padlen: Option<i64>) -> Result<Tensor> {
    if x.kind() == Kind::Bool && padtype == Some(PadType::Odd) && padlen != Some(0) {
        Ok(x.f_to_kind(Kind::Int64)?)
    } else {
        Ok(x.shallow_clone())
    }
}

/// `filtfilt`'s and `sosfiltfilt`'s edge extension (`padtype`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PadType {
    /// Odd extension (`2 x[0] - x[n:0:-1]`), SciPy's default.
    Odd,
    /// Even extension (mirror, edge not repeated).
    Even,
    /// The edge values repeated.
    Constant,
}

impl std::str::FromStr for PadType {
    type Err = Error;
    fn from_str(s: &str) -> Result<PadType> {
        match s {
            "odd" => Ok(PadType::Odd),
            "even" => Ok(PadType::Even),
            "constant" => Ok(PadType::Constant),
            _ => Err(Error::InvalidArgument(format!(
                "Unknown value '{s}' given to padtype. padtype must be 'even', 'odd', 'constant', or None."
            ))),
        }
    }
}

/// SciPy's `_validate_pad` on rows `(rows, T)`: the edge length and the extended rows.
fn extend(x: &Tensor, padtype: Option<PadType>, padlen: Option<i64>, ntaps: i64) -> Result<(i64, Tensor)> {
    let t = x.size()[1];
    let edge = match (padtype, padlen) {
        (None, _) => 0,
        (_, None) => ntaps * 3,
        (_, Some(p)) => p,
    };
    if t <= edge {
        return Err(Error::InvalidArgument(format!(
            "The length of the input vector x must be greater than padlen, which is {edge}."
        )));
    }
    if edge < 0 {
        return Err(Error::InvalidArgument(format!("padlen must be nonnegative, got {edge}")));
    }
    let Some(padtype) = padtype.filter(|_| edge > 0) else {
        return Ok((edge, x.shallow_clone()));
    };
    let how = match padtype {
        PadType::Odd => Extension::Odd,
        PadType::Even => Extension::Even,
        PadType::Constant => Extension::Constant,
    };
    Ok((edge, extend_last(x, edge, how)?))
}

/// Forward then backward through `filter` from `zi * edge value` each way, the edges cut off.
fn forward_backward(filter: &Filter, zi: &Tensor, ext: &Tensor, edge: i64, t: i64) -> Result<Tensor> {
    let n = ext.size()[1];
    let x0 = ext.f_narrow(1, 0, 1)?;
    let (y, _) = run(filter, &ext.f_contiguous()?, Some(&x0.f_mul(zi)?), Direction::Forward)?;
    let y0 = y.f_narrow(1, n - 1, 1)?;
    let (y, _) = run(filter, &y, Some(&y0.f_mul(zi)?), Direction::Backward)?;
    Ok(y.f_narrow(1, edge, t)?)
}

/// `scipy.signal.filtfilt(b, a, x, axis, padtype, padlen)` with `method="pad"`.
pub fn filtfilt(
    b: &Tensor,
    a: &Tensor,
    x: &Tensor,
    axis: i64,
    padtype: Option<PadType>,
    padlen: Option<i64>,
) -> Result<Tensor> {
    check_coefficients("b", b)?;
    check_coefficients("a", a)?;
    check_x(x)?;
    let axis = axis_of(axis, x.dim())?;
    let x = &extended_input(x, padtype, padlen)?;
    let kind = float_coefficients_kind(&[b, a], x)?;
    let ntaps = a.size()[0].max(b.size()[0]);
    let (rows, moved) = rows_of(x, axis, kind)?;
    let t = rows.size()[1];
    let (edge, ext) = extend(&rows, padtype, padlen, ntaps)?;
    let filter = Filter::ba(b, a, kind)?;
    let zi = steady_state(&filter.sys)?;
    let zi = transpose(&zi).tensor(kind, x.device())?;
    let y = forward_backward(&filter, &zi, &ext, edge, t)?;
    // A view of the filtered extension, as SciPy's result is (no copy of the middle).
    unrows(&y, &moved, axis)
}

/// `scipy.signal.sosfiltfilt(sos, x, axis, padtype, padlen)`.
pub fn sosfiltfilt(
    sos: &Tensor,
    x: &Tensor,
    axis: i64,
    padtype: Option<PadType>,
    padlen: Option<i64>,
) -> Result<Tensor> {
    let x = &extended_input(x, padtype, padlen)?;
    let kind = float_coefficients_kind(&[sos], x)?;
    let ns = sections(sos, kind)?.len();
    check_x(x)?;
    let axis = axis_of(axis, x.dim())?;
    // SciPy's default padlen: 3 * (2 * n_sections + 1 - trailing zeros at the origin).
    let host = host_values(&if sos.dim() < 2 { sos.f_reshape([1, -1])? } else { sos.shallow_clone() }, kind)?;
    let zeros_b = host.chunks(6).filter(|r| r[2].is_zero()).count() as i64;
    let zeros_a = host.chunks(6).filter(|r| r[5].is_zero()).count() as i64;
    let ntaps = 2 * sos_count(sos) + 1 - zeros_b.min(zeros_a);
    let (rows, moved) = rows_of(x, axis, kind)?;
    let t = rows.size()[1];
    let (edge, ext) = extend(&rows, padtype, padlen, ntaps)?;
    let zi = sosfilt_zi(&sos.f_to_kind(kind)?)?.f_to_kind(kind)?.f_reshape([1, -1])?.f_to_device(x.device())?;
    let y = if ns == 0 {
        ext.f_narrow(1, edge, t)?
    } else {
        forward_backward(&Filter::sos(sos, kind)?, &zi, &ext, edge, t)?
    };
    unrows(&y, &moved, axis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_double_recovers_what_float64_rounds_away() {
        let third = Dd::new(3.0).recip();
        let back = third * Dd::new(3.0);
        assert!((back.hi - 1.0).abs() < 1e-30 && back.lo.abs() < 1e-30);
        let sum = Dd::new(1.0) + Dd::new(1e-20);
        assert_eq!(sum.hi, 1.0);
        assert_eq!(sum.lo, 1e-20);
    }

    #[test]
    fn cascade_of_one_section_is_the_section() {
        let b = [Cx::new(1.0, 0.0), Cx::new(0.5, 0.0), Cx::new(0.25, 0.0)];
        let a = [Cx::new(1.0, 0.0), Cx::new(-0.5, 0.0), Cx::new(0.1, 0.0)];
        let s = System::df2t(&b, &a);
        let c = System::cascade(std::slice::from_ref(&s));
        assert_eq!(c.f.data, s.f.data);
        assert_eq!(c.g, s.g);
        assert_eq!(c.c, s.c);
        assert_eq!(c.d, s.d);
    }

    #[test]
    fn padtype_parses_scipy_names() {
        assert_eq!("odd".parse::<PadType>().ok(), Some(PadType::Odd));
        assert!("mirror".parse::<PadType>().is_err());
    }
}
