//! `scipy.signal._waveforms`: chirp, sawtooth, square, gausspulse,
//! sweep_poly and unit_impulse, elementwise on `tch::Tensor`s on their own
//! device.
//!
//! The arithmetic follows SciPy's expressions in the same order and in the
//! dtype NumPy would compute them in (SciPy's parameters are Python floats,
//! which NumPy 2 treats as weak): `chirp`'s phase stays float32 for float32
//! `t`, then adds `deg2rad(phi)` (a float64 scalar); the other waveforms are
//! float64 results. Integer and bool `t` compute in float64; float16 and
//! bfloat16 `t` compute in float32 (NumPy would keep float16 for `chirp`'s
//! phase); complex `t` is refused.

use tch::{Device, Kind, Tensor};

use crate::ops::numpy::{broadcast, result_type};
use crate::{dlpack, DType, Error, Result};

const PI: f64 = std::f64::consts::PI;

/// The real floating kind `t` computes in (see the module's notes).
fn real_kind(routine: &'static str, dtypes: &[DType]) -> Result<Kind> {
    let dtype = result_type(dtypes);
    if dtype.is_complex() {
        return Err(Error::DtypeNotAccepted {
            routine,
            dtype,
            accepted: "real input: bool, integer and real floating",
        });
    }
    Ok(match dtype {
        DType::Float64 => Kind::Double,
        DType::Float32 | DType::Float16 | DType::BFloat16 => Kind::Float,
        _ => Kind::Double,
    })
}

fn real_input(routine: &'static str, t: &Tensor) -> Result<Tensor> {
    let kind = real_kind(routine, &[dlpack::dtype_of(t)?])?;
    Ok(t.f_to_kind(kind)?)
}

/// `a - t`, elementwise.
fn minus(a: f64, t: &Tensor) -> Result<Tensor> {
    Ok(t.f_neg()?.f_add_scalar(a)?)
}

/// `chirp`'s frequency sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChirpMethod {
    /// `f(t) = f0 + (f1 - f0) t / t1`.
    Linear,
    /// `f(t) = f0 + (f1 - f0) t^2 / t1^2` (vertex at `t = 0`, else at `t1`).
    Quadratic,
    /// `f(t) = f0 (f1/f0)^(t/t1)`.
    Logarithmic,
    /// `f(t) = f0 f1 t1 / ((f0 - f1) t + f1 t1)`.
    Hyperbolic,
}

impl ChirpMethod {
    /// The method SciPy's names (and abbreviations) stand for, with SciPy's message otherwise.
    pub fn from_name(name: &str) -> Result<ChirpMethod> {
        Ok(match name {
            "linear" | "lin" | "li" => ChirpMethod::Linear,
            "quadratic" | "quad" | "q" => ChirpMethod::Quadratic,
            "logarithmic" | "log" | "lo" => ChirpMethod::Logarithmic,
            "hyperbolic" | "hyp" => ChirpMethod::Hyperbolic,
            other => {
                return Err(Error::InvalidArgument(format!(
                    "method must be 'linear', 'quadratic', 'logarithmic', or 'hyperbolic', but a value of \
                     '{other}' was given."
                )))
            }
        })
    }
}

/// The phase offset `phi` in degrees: a Python number (float64) or an array.
pub enum Phi {
    /// A scalar (a float64 in NumPy's promotion).
    Degrees(f64),
    /// An array, broadcast against `t`.
    Tensor(Tensor),
}

impl Phi {
    /// `phase + phi * pi / 180`, in NumPy's result dtype; `phase` is updated
    /// in place where `in_place` allows (the general, allocating path otherwise).
    fn add_to(&self, phase: Fresh) -> Result<Fresh> {
        match self {
            Phi::Degrees(phi) => phase.in_kind(Kind::Double)?.add_scalar(phi * (PI / 180.0)),
            Phi::Tensor(phi) => {
                let kind = real_kind("phi", &[dlpack::dtype_of(&phase.value)?, dlpack::dtype_of(phi)?])?;
                let radians = phi.f_to_kind(kind)?.f_mul_scalar(PI / 180.0)?;
                // broadcasting may grow `phase`: a new tensor, as before
                Ok(Fresh { value: phase.value.f_to_kind(kind)?.f_add(&radians)?, in_place: phase.in_place })
            }
        }
    }

    /// Whether autograd records `phi` (an array that requires grad).
    fn requires_grad(&self) -> bool {
        matches!(self, Phi::Tensor(phi) if phi.requires_grad())
    }
}

/// A tensor that only the computation holds (the result of an op on the
/// caller's arrays, never one of them): each step updates it in place, where
/// `in_place` (no input requires grad: autograd records none of the steps),
/// and allocates a new tensor as an out-of-place op otherwise. Both run the
/// same ATen kernels, so the values are the same.
struct Fresh {
    value: Tensor,
    in_place: bool,
}

impl Fresh {
    fn step(
        mut self,
        in_place: impl FnOnce(&mut Tensor) -> std::result::Result<Tensor, tch::TchError>,
        out_of_place: impl FnOnce(&Tensor) -> std::result::Result<Tensor, tch::TchError>,
    ) -> Result<Fresh> {
        if self.in_place {
            let _ = in_place(&mut self.value)?;
        } else {
            self.value = out_of_place(&self.value)?;
        }
        Ok(self)
    }

    fn mul_scalar(self, s: f64) -> Result<Fresh> {
        self.step(move |v| v.f_mul_scalar_(s), move |v| v.f_mul_scalar(s))
    }

    fn div_scalar(self, s: f64) -> Result<Fresh> {
        self.step(move |v| v.f_div_scalar_(s), move |v| v.f_div_scalar(s))
    }

    fn add_scalar(self, s: f64) -> Result<Fresh> {
        self.step(move |v| v.f_add_scalar_(s), move |v| v.f_add_scalar(s))
    }

    fn sub_scalar(self, s: f64) -> Result<Fresh> {
        self.step(move |v| v.f_sub_scalar_(s), move |v| v.f_sub_scalar(s))
    }

    fn mul(self, other: &Tensor) -> Result<Fresh> {
        self.step(|v| v.f_mul_(other), |v| v.f_mul(other))
    }

    fn add(self, other: &Tensor) -> Result<Fresh> {
        self.step(|v| v.f_add_(other), |v| v.f_add(other))
    }

    fn cube(self) -> Result<Fresh> {
        self.step(|v| v.f_pow_(3), |v| v.f_pow_tensor_scalar(3))
    }

    /// `a - self`.
    fn minus_from(self, a: f64) -> Result<Fresh> {
        self.step(|v| v.f_neg_(), |v| v.f_neg())?.add_scalar(a)
    }

    fn abs(self) -> Result<Fresh> {
        self.step(|v| v.f_abs_(), |v| v.f_abs())
    }

    fn log(self) -> Result<Fresh> {
        self.step(|v| v.f_log_(), |v| v.f_log())
    }

    fn cos(self) -> Result<Fresh> {
        self.step(|v| v.f_cos_(), |v| v.f_cos())
    }

    /// `self` in `kind`: itself where it is already (no op), else a new tensor.
    fn in_kind(self, kind: Kind) -> Result<Fresh> {
        if self.value.kind() == kind {
            return Ok(self);
        }
        Ok(Fresh { value: self.value.f_to_kind(kind)?, in_place: self.in_place })
    }
}

/// SciPy's checks of `chirp`'s parameters (on the host, before `t` is looked
/// at), with SciPy's messages.
pub fn chirp_check(f0: f64, f1: f64, method: ChirpMethod) -> Result<()> {
    match method {
        ChirpMethod::Logarithmic if f0 * f1 <= 0.0 => Err(Error::InvalidArgument(
            "For a logarithmic chirp, f0 and f1 must be nonzero and have the same sign.".into(),
        )),
        ChirpMethod::Hyperbolic if f0 == 0.0 || f1 == 0.0 => {
            Err(Error::InvalidArgument("For a hyperbolic chirp, f0 and f1 must be nonzero.".into()))
        }
        _ => Ok(()),
    }
}

/// SciPy's `_chirp_phase`: the phase (radians) of a chirp at times `t`.
pub fn chirp_phase(t: &Tensor, f0: f64, t1: f64, f1: f64, method: ChirpMethod, vertex_zero: bool) -> Result<Tensor> {
    Ok(phase(t, f0, t1, f1, method, vertex_zero, !t.requires_grad())?.value)
}

/// [`chirp_phase`] as a [`Fresh`] tensor (never `t` itself), its steps in
/// place where `in_place`.
fn phase(
    t: &Tensor,
    f0: f64,
    t1: f64,
    f1: f64,
    method: ChirpMethod,
    vertex_zero: bool,
    in_place: bool,
) -> Result<Fresh> {
    let t = real_input("signal.chirp", t)?;
    chirp_check(f0, f1, method)?;
    let fresh = |value: Tensor| Fresh { value, in_place };
    let two_pi = 2.0 * PI;
    match method {
        ChirpMethod::Linear => {
            let beta = (f1 - f0) / t1;
            let quadratic = fresh(t.f_mul_scalar(0.5 * beta)?).mul(&t)?;
            fresh(t.f_mul_scalar(f0)?).add(&quadratic.value)?.mul_scalar(two_pi)
        }
        ChirpMethod::Quadratic => {
            let beta = (f1 - f0) / (t1 * t1);
            if vertex_zero {
                let cubic = fresh(t.f_pow_tensor_scalar(3)?).mul_scalar(beta)?.div_scalar(3.0)?;
                fresh(t.f_mul_scalar(f0)?).add(&cubic.value)?.mul_scalar(two_pi)
            } else {
                let cubic = fresh(t.f_neg()?)
                    .add_scalar(t1)?
                    .cube()?
                    .sub_scalar(t1.powi(3))?
                    .mul_scalar(beta)?
                    .div_scalar(3.0)?;
                fresh(t.f_mul_scalar(f1)?).add(&cubic.value)?.mul_scalar(two_pi)
            }
        }
        ChirpMethod::Logarithmic => {
            if f0 == f1 {
                Ok(fresh(t.f_mul_scalar(two_pi * f0)?))
            } else {
                let beta = t1 / (f1 / f0).ln();
                let growth = fresh(Tensor::f_pow_scalar(f1 / f0, &t.f_div_scalar(t1)?)?).sub_scalar(1.0)?;
                growth.mul_scalar(two_pi * beta * f0)
            }
        }
        ChirpMethod::Hyperbolic => {
            if f0 == f1 {
                Ok(fresh(t.f_mul_scalar(two_pi * f0)?))
            } else {
                let sing = -f1 * t1 / (f0 - f1);
                fresh(t.f_div_scalar(sing)?).minus_from(1.0)?.abs()?.log()?.mul_scalar(two_pi * (-sing * f0))
            }
        }
    }
}

/// `chirp`: `cos(phase + phi)` (or `exp(1j (phase + phi))` with `complex`),
/// `phi` in degrees. Where no input requires grad, the intermediates are
/// updated in place (one to three new tensors a call instead of six to
/// eleven); otherwise each op allocates, as autograd needs.
#[allow(clippy::too_many_arguments)] // SciPy's parameters
pub fn chirp(
    t: &Tensor,
    f0: f64,
    t1: f64,
    f1: f64,
    method: ChirpMethod,
    phi: &Phi,
    vertex_zero: bool,
    complex: bool,
) -> Result<Tensor> {
    let in_place = !t.requires_grad() && !phi.requires_grad();
    let phase = phase(t, f0, t1, f1, method, vertex_zero, in_place)?;
    if complex {
        let phase = phi.add_to(phase)?.value;
        return Ok(Tensor::f_polar(&phase.f_ones_like()?, &phase)?);
    }
    let phase = match phi {
        // `x + 0` is `x` but for -0.0, whose cosine is cos(+0.0): the same values
        Phi::Degrees(degrees) if *degrees == 0.0 => phase.in_kind(Kind::Double)?,
        _ => phi.add_to(phase)?,
    };
    Ok(phase.cos()?.value)
}

/// `t` and the shape parameter broadcast together, in the kind NumPy
/// computes `mod(t, 2 pi)` and the comparisons in.
fn periodic_inputs(routine: &'static str, t: &Tensor, w: &Tensor) -> Result<(Tensor, Tensor)> {
    let kind = real_kind(routine, &[dlpack::dtype_of(t)?, dlpack::dtype_of(w)?])?;
    let mut both = broadcast(vec![t.f_to_kind(kind)?, w.f_to_kind(kind)?])?.into_iter();
    match (both.next(), both.next()) {
        (Some(t), Some(w)) => Ok((t, w)),
        _ => Err(Error::InvalidArgument(format!("{routine}: broadcasting failed"))),
    }
}

fn nan_like(t: &Tensor) -> Result<Tensor> {
    Ok(t.f_full_like(f64::NAN)?)
}

/// `sawtooth`: the sawtooth wave of period `2 pi` rising on `[0, width 2 pi)`
/// (NaN where `width` is outside `[0, 1]`); float64.
pub fn sawtooth(t: &Tensor, width: &Tensor) -> Result<Tensor> {
    let (t, w) = periodic_inputs("signal.sawtooth", t, width)?;
    let invalid = w.f_gt(1.0)?.f_logical_or(&w.f_lt(0.0)?)?;
    let tmod = t.f_remainder(2.0 * PI)?;
    let rising_part = tmod.f_lt_tensor(&w.f_mul_scalar(2.0 * PI)?)?;
    let rising = tmod.f_div(&w.f_mul_scalar(PI)?)?.f_sub_scalar(1.0)?;
    let falling = w.f_add_scalar(1.0)?.f_mul_scalar(PI)?.f_sub(&tmod)?.f_div(&minus(1.0, &w)?.f_mul_scalar(PI)?)?;
    let y = rising.f_where_self(&rising_part, &falling)?.f_to_kind(Kind::Double)?;
    Ok(nan_like(&y)?.f_where_self(&invalid, &y)?)
}

/// `square`: the square wave of period `2 pi`, `1` on `[0, duty 2 pi)` and
/// `-1` after (NaN where `duty` is outside `[0, 1]`); float64.
pub fn square(t: &Tensor, duty: &Tensor) -> Result<Tensor> {
    let (t, w) = periodic_inputs("signal.square", t, duty)?;
    let invalid = w.f_gt(1.0)?.f_logical_or(&w.f_lt(0.0)?)?;
    let tmod = t.f_remainder(2.0 * PI)?;
    let high = tmod.f_lt_tensor(&w.f_mul_scalar(2.0 * PI)?)?;
    let options = (Kind::Double, t.device());
    let y = Tensor::f_ones(t.size(), options)?.f_where_self(&high, &Tensor::f_full(t.size(), -1.0, options)?)?;
    Ok(Tensor::f_full(t.size(), f64::NAN, options)?.f_where_self(&invalid, &y)?)
}

/// `gausspulse`'s checks and its exponent `a` (the envelope is `exp(-a t^2)`).
fn gausspulse_rate(fc: f64, bw: f64, bwr: f64) -> Result<f64> {
    if fc < 0.0 {
        return Err(Error::InvalidArgument(format!("Center frequency (fc={fc:.2}) must be >=0.")));
    }
    if bw <= 0.0 {
        return Err(Error::InvalidArgument(format!("Fractional bandwidth (bw={bw:.2}) must be > 0.")));
    }
    if bwr >= 0.0 {
        return Err(Error::InvalidArgument(format!("Reference level for bandwidth (bwr={bwr:.2}) must be < 0 dB")));
    }
    let reference = 10f64.powf(bwr / 20.0);
    Ok(-(PI * fc * bw).powi(2) / (4.0 * reference.ln()))
}

/// `gausspulse(t="cutoff")`: the time at which the envelope falls to `tpr` dB.
pub fn gausspulse_cutoff(fc: f64, bw: f64, bwr: f64, tpr: f64) -> Result<f64> {
    let a = gausspulse_rate(fc, bw, bwr)?;
    if tpr >= 0.0 {
        return Err(Error::InvalidArgument("Reference level for time cutoff must be < 0 dB".into()));
    }
    let tref = 10f64.powf(tpr / 20.0);
    Ok((-tref.ln() / a).sqrt())
}

/// `gausspulse`: the in-phase part, then (as asked) the quadrature part and
/// the envelope, each float64.
pub fn gausspulse(t: &Tensor, fc: f64, bw: f64, bwr: f64, retquad: bool, retenv: bool) -> Result<Vec<Tensor>> {
    let a = gausspulse_rate(fc, bw, bwr)?;
    let dtype = dlpack::dtype_of(t)?;
    if dtype.is_complex() {
        return Err(Error::DtypeNotAccepted {
            routine: "signal.gausspulse",
            dtype,
            accepted: "real input: bool, integer and real floating",
        });
    }
    let t = t.f_to_kind(Kind::Double)?;
    let yenv = t.f_mul_scalar(-a)?.f_mul(&t)?.f_exp()?;
    let angle = t.f_mul_scalar(2.0 * PI * fc)?;
    let mut out = vec![yenv.f_mul(&angle.f_cos()?)?];
    if retquad {
        out.push(yenv.f_mul(&angle.f_sin()?)?);
    }
    if retenv {
        out.push(yenv);
    }
    Ok(out)
}

/// `sweep_poly`: `cos(2 pi P(t) + phi)` with `P` the antiderivative (zero at
/// 0) of the polynomial of `coefficients` (highest power first), `phi` in
/// degrees; float64.
pub fn sweep_poly(t: &Tensor, coefficients: &[f64], phi: &Phi) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(t)?;
    if dtype.is_complex() {
        return Err(Error::DtypeNotAccepted {
            routine: "signal.sweep_poly",
            dtype,
            accepted: "real input: bool, integer and real floating",
        });
    }
    let t = t.f_to_kind(Kind::Double)?;
    // numpy.polyint: c_k / (n - k), then the constant 0
    let n = coefficients.len();
    let integrated: Vec<f64> =
        coefficients.iter().enumerate().map(|(k, c)| c / (n - k) as f64).chain(std::iter::once(0.0)).collect();
    // numpy.polyval: Horner's scheme from zeros_like(t)
    let mut y = t.f_zeros_like()?;
    for &c in &integrated {
        y = y.f_mul(&t)?.f_add_scalar(c)?;
    }
    let phase = y.f_mul_scalar(2.0 * PI)?;
    let phase = match phi {
        Phi::Degrees(phi) => phase.f_add_scalar(phi * (PI / 180.0))?,
        Phi::Tensor(phi) => phase.f_add(&phi.f_to_kind(Kind::Double)?.f_mul_scalar(PI / 180.0)?)?,
    };
    Ok(phase.f_cos()?)
}

/// Where `unit_impulse` puts its 1.
pub enum ImpulseAt {
    /// The first sample (`idx=None`).
    Start,
    /// The middle, `shape // 2` (`idx="mid"`).
    Middle,
    /// The same index on every axis (`idx=int`).
    Every(i64),
    /// One index per leading axis (`idx=tuple`; fewer than the axes sets a block).
    At(Vec<i64>),
}

/// `unit_impulse`: zeros of `shape` and `kind` with a 1 at `idx` (negative
/// indices count from the end, as NumPy's indexing).
pub fn unit_impulse(shape: &[i64], idx: &ImpulseAt, kind: Kind, device: Device) -> Result<Tensor> {
    if shape.iter().any(|&n| n < 0) {
        return Err(Error::InvalidArgument("negative dimensions are not allowed".into()));
    }
    let out = Tensor::f_zeros(shape, (kind, device))?;
    let index: Vec<i64> = match idx {
        ImpulseAt::Start => vec![0; shape.len()],
        ImpulseAt::Middle => shape.iter().map(|n| n / 2).collect(),
        ImpulseAt::Every(i) => vec![*i; shape.len()],
        ImpulseAt::At(at) => at.clone(),
    };
    if index.len() > shape.len() {
        return Err(Error::InvalidArgument(format!(
            "too many indices for array: array is {}-dimensional, but {} were indexed",
            shape.len(),
            index.len()
        )));
    }
    let mut view = out.shallow_clone();
    for (axis, (&i, &n)) in index.iter().zip(shape).enumerate() {
        let at = if i < 0 { i + n } else { i };
        if !(0..n).contains(&at) {
            return Err(Error::InvalidArgument(format!("index {i} is out of bounds for axis {axis} with size {n}")));
        }
        view = view.f_narrow(axis as i64, at, 1)?;
    }
    let _ = view.f_fill_(1)?;
    Ok(out)
}
