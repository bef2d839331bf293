//! The machinery of SciPy's `rv_generic`/`rv_continuous`/`rv_discrete`
//! (`scipy/stats/_distn_infrastructure.py`) around the standardised
//! distributions of [`super::continuous_distns`] and
//! [`super::discrete_distns`]: shifting and scaling by `loc`/`scale`, the
//! parameter check (`_argcheck` and `scale > 0`; invalid parameters give nan,
//! never an error), the support masks, the values outside the support
//! (pdf 0, cdf 0 or 1, `ppf(0)`/`ppf(1)` the support's ends), and the
//! moments (`stats`, `entropy`, `support`).
//!
//! Everything is computed in float64 (SciPy promotes every input to float64:
//! `np.promote_types(x.dtype, np.float64)`), on the inputs' device, with
//! libtorch's broadcasting. SciPy evaluates each formula on the valid
//! elements only (`argsreduce`); here the formulas run on every element and
//! `where` keeps the valid ones, which gives the same values (the formulas
//! are total: invalid elements give nan or inf, never an error).

use tch::{Kind, Tensor};

use super::continuous_distns::Continuous;
use super::discrete_distns::Discrete;
use crate::{Error, Result};

/// `yes` where `cond`, else `no`.
pub(crate) fn pick(cond: &Tensor, yes: &Tensor, no: &Tensor) -> Result<Tensor> {
    Ok(yes.f_where_self(cond, no)?)
}

/// `t` with `value` where `cond`.
pub(crate) fn fill(t: &Tensor, cond: &Tensor, value: f64) -> Result<Tensor> {
    Ok(t.f_masked_fill(cond, value)?)
}

/// Logical and.
pub(crate) fn and(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_and(b)?)
}

/// Logical or.
pub(crate) fn or(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_or(b)?)
}

/// Logical not.
pub(crate) fn not(a: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_not()?)
}

/// A float64 tensor of `like`'s shape and device holding `value`.
pub(crate) fn full(like: &Tensor, value: f64) -> Result<Tensor> {
    Ok(like.f_full_like(value)?)
}

/// A float64 0-d tensor on `like`'s device.
pub(crate) fn scalar(like: &Tensor, value: f64) -> Result<Tensor> {
    Ok(Tensor::f_scalar_tensor(value, (Kind::Double, like.device()))?)
}

/// `t` as float64 (complex input is refused: SciPy's distributions
/// evaluate some of their formulas on complex numbers, torchbridge's take
/// real input only).
pub(crate) fn float64(t: &Tensor) -> Result<Tensor> {
    if matches!(t.kind(), Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble) {
        return Err(Error::NotImplemented("the distributions take real input: complex input is not supported".into()));
    }
    if t.kind() == Kind::Double {
        Ok(t.shallow_clone())
    } else {
        Ok(t.f_to_kind(Kind::Double)?)
    }
}

/// The tensors broadcast against each other (as views).
pub(crate) fn broadcast(tensors: &[&Tensor]) -> Result<Vec<Tensor>> {
    Ok(Tensor::f_broadcast_tensors(tensors)?)
}

/// The standardised-distribution methods SciPy's public methods wrap
/// (`_pdf`, `_logpdf`, ...); `pmf`/`logpmf` are `Pdf`/`LogPdf` for a discrete
/// distribution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `pdf` (`pmf`).
    Pdf,
    /// `logpdf` (`logpmf`).
    LogPdf,
    /// `cdf`.
    Cdf,
    /// `logcdf`.
    LogCdf,
    /// `sf`.
    Sf,
    /// `logsf`.
    LogSf,
    /// `ppf`.
    Ppf,
    /// `isf`.
    Isf,
}

impl Method {
    /// The method SciPy calls `name` (`"pmf"`/`"logpmf"` for discrete ones).
    pub fn from_name(name: &str) -> Result<Method> {
        Ok(match name {
            "pdf" | "pmf" => Method::Pdf,
            "logpdf" | "logpmf" => Method::LogPdf,
            "cdf" => Method::Cdf,
            "logcdf" => Method::LogCdf,
            "sf" => Method::Sf,
            "logsf" => Method::LogSf,
            "ppf" => Method::Ppf,
            "isf" => Method::Isf,
            other => {
                return Err(Error::InvalidArgument(format!(
                    "unknown distribution method {other:?}; expected one of pdf, pmf, logpdf, logpmf, cdf, \
                     logcdf, sf, logsf, ppf, isf"
                )))
            }
        })
    }
}

/// One of torchbridge's distributions, by SciPy's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distribution {
    /// An `rv_continuous`.
    Continuous(Continuous),
    /// An `rv_discrete`.
    Discrete(Discrete),
}

impl Distribution {
    /// The distribution SciPy names `name` (`"norm"`, `"poisson"`, ...).
    pub fn from_name(name: &str) -> Result<Distribution> {
        if let Some(c) = Continuous::ALL.iter().find(|c| c.name() == name) {
            return Ok(Distribution::Continuous(*c));
        }
        if let Some(d) = Discrete::ALL.iter().find(|d| d.name() == name) {
            return Ok(Distribution::Discrete(*d));
        }
        let known: Vec<&str> =
            Continuous::ALL.iter().map(|c| c.name()).chain(Discrete::ALL.iter().map(|d| d.name())).collect();
        Err(Error::InvalidArgument(format!("unknown distribution {name:?}; torchbridge has {}", known.join(", "))))
    }

    /// SciPy's name.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Continuous(c) => c.name(),
            Distribution::Discrete(d) => d.name(),
        }
    }

    /// The names of the shape parameters, in order (SciPy's `shapes`).
    pub fn shapes(self) -> &'static [&'static str] {
        match self {
            Distribution::Continuous(c) => c.shapes(),
            Distribution::Discrete(d) => d.shapes(),
        }
    }

    fn check_args(self, args: &[Tensor]) -> Result<()> {
        if args.len() != self.shapes().len() {
            return Err(Error::InvalidArgument(format!(
                "{} takes {} shape parameter(s), got {}",
                self.name(),
                self.shapes().len(),
                args.len()
            )));
        }
        Ok(())
    }

    /// `_argcheck(*args)`, a bool tensor.
    fn argcheck(self, args: &[Tensor], like: &Tensor) -> Result<Tensor> {
        match self {
            Distribution::Continuous(c) => c.argcheck(args, like),
            Distribution::Discrete(d) => d.argcheck(args, like),
        }
    }

    /// `_get_support(*args)`, float64 tensors.
    fn support(self, args: &[Tensor], like: &Tensor) -> Result<(Tensor, Tensor)> {
        match self {
            Distribution::Continuous(c) => {
                let (a, b) = c.support();
                Ok((scalar(like, a)?, scalar(like, b)?))
            }
            Distribution::Discrete(d) => d.support(args, like),
        }
    }
}

/// Public method `method` of `dist` at `x` (`q` for ppf/isf) with shape
/// parameters `args`, `loc` and `scale` (ignored for discrete
/// distributions), SciPy's `rv_continuous.pdf`, ..., `rv_discrete.isf`.
pub fn evaluate(
    dist: Distribution,
    method: Method,
    x: &Tensor,
    args: &[Tensor],
    loc: &Tensor,
    scale: &Tensor,
) -> Result<Tensor> {
    dist.check_args(args)?;
    let x = float64(x)?;
    let args = args.iter().map(float64).collect::<Result<Vec<_>>>()?;
    let loc = float64(loc)?;
    let scale = float64(scale)?;
    match dist {
        Distribution::Continuous(c) => continuous(c, method, &x, &args, &loc, &scale),
        Distribution::Discrete(d) => discrete(d, method, &x, &args, &loc),
    }
}

fn continuous(
    c: Continuous,
    method: Method,
    x: &Tensor,
    args: &[Tensor],
    loc: &Tensor,
    scale: &Tensor,
) -> Result<Tensor> {
    if let Some(value) = total(c, method, x, args, loc, scale)? {
        return Ok(value);
    }
    let d = Distribution::Continuous(c);
    let mut all: Vec<&Tensor> = vec![x, loc, scale];
    all.extend(args.iter());
    let b = broadcast(&all)?;
    let (x, loc, scale, args) = (&b[0], &b[1], &b[2], &b[3..]);
    let scale_ok = scale.f_gt(0.0)?;
    let (lo, hi) = d.support(args, x)?;
    let nan = full(x, f64::NAN)?;
    if matches!(method, Method::Ppf | Method::Isf) {
        // rv_continuous.ppf / isf
        let q = x;
        let cond0 = and(&and(&c.argcheck(args, q)?, &scale_ok)?, &loc.f_eq_tensor(loc)?)?;
        let inner = and(&q.f_gt(0.0)?, &q.f_lt(1.0)?)?;
        let cond = and(&cond0, &inner)?;
        let lower = lo.f_mul(scale)?.f_add(loc)?;
        let upper = hi.f_mul(scale)?.f_add(loc)?;
        let (at_lower, at_upper) = if method == Method::Ppf {
            (and(&cond0, &q.f_eq(0.0)?)?, and(&cond0, &q.f_eq(1.0)?)?)
        } else {
            (and(&cond0, &q.f_eq(1.0)?)?, and(&cond0, &q.f_eq(0.0)?)?)
        };
        let value = c.standard(method, q, args)?.f_mul(scale)?.f_add(loc)?;
        let out = pick(&at_lower, &lower.f_expand_as(q)?, &nan)?;
        let out = pick(&at_upper, &upper.f_expand_as(q)?, &out)?;
        return pick(&cond, &value, &out);
    }
    let y = x.f_sub(loc)?.f_div(scale)?;
    let cond0 = and(&c.argcheck(args, &y)?, &scale_ok)?;
    let bad = or(&not(&cond0)?, &y.f_isnan()?)?;
    match method {
        Method::Pdf | Method::LogPdf => {
            let mask = if c.open_support() {
                and(&lo.f_lt_tensor(&y)?, &y.f_lt_tensor(&hi)?)?
            } else {
                and(&lo.f_le_tensor(&y)?, &y.f_le_tensor(&hi)?)?
            };
            let cond = and(&cond0, &mask)?;
            let (value, outside) = if method == Method::Pdf {
                (c.standard(method, &y, args)?.f_div(scale)?, 0.0)
            } else {
                (c.standard(method, &y, args)?.f_sub(&scale.f_log()?)?, f64::NEG_INFINITY)
            };
            let out = fill(&full(&y, outside)?, &bad, f64::NAN)?;
            pick(&cond, &value, &out)
        }
        Method::Cdf | Method::LogCdf | Method::Sf | Method::LogSf => {
            let open = and(&lo.f_lt_tensor(&y)?, &y.f_lt_tensor(&hi)?)?;
            let cond = and(&cond0, &open)?;
            let upper_side = matches!(method, Method::Cdf | Method::LogCdf);
            // beyond the support on the side where the function is 1 (log: 0)
            let saturated = and(&if upper_side { y.f_ge_tensor(&hi)? } else { y.f_le_tensor(&lo)? }, &cond0)?;
            let (one, zero) = match method {
                Method::Cdf | Method::Sf => (1.0, 0.0),
                _ => (0.0, f64::NEG_INFINITY),
            };
            let out = fill(&full(&y, zero)?, &bad, f64::NAN)?;
            let out = fill(&out, &saturated, one)?;
            pick(&cond, &c.standard(method, &y, args)?, &out)
        }
        Method::Ppf | Method::Isf => unreachable!("handled above"),
    }
}

/// The fast path of [`continuous`] for a method the distribution's formula
/// gives on the whole line ([`Continuous::total`]) with no shape parameters
/// and a 0-d, finite `loc` and 0-d, finite, positive `scale`: the formula at
/// `(x - loc) / scale`, the same values (and autograd graph) as the masks
/// and `where`s of the generic path, which would keep every element of it.
/// With `loc` +0 and `scale` 1 (the defaults) and neither requiring grad,
/// the formula at `x` itself (`x - 0` and `/ 1` change no value, `-0.0`
/// included). `None`: the generic path.
fn total(
    c: Continuous,
    method: Method,
    x: &Tensor,
    args: &[Tensor],
    loc: &Tensor,
    scale: &Tensor,
) -> Result<Option<Tensor>> {
    if !args.is_empty() || !c.total(method) || loc.dim() != 0 || scale.dim() != 0 {
        return Ok(None);
    }
    let (Ok(l), Ok(s)) = (loc.f_double_value(&[]), scale.f_double_value(&[])) else {
        return Ok(None);
    };
    if !(l.is_finite() && s.is_finite() && s > 0.0) {
        return Ok(None);
    }
    let standard = l == 0.0 && l.is_sign_positive() && s == 1.0 && !loc.requires_grad() && !scale.requires_grad();
    let y = if standard { x.shallow_clone() } else { x.f_sub(loc)?.f_div(scale)? };
    Ok(Some(c.standard(method, &y, args)?))
}

fn discrete(d: Discrete, method: Method, x: &Tensor, args: &[Tensor], loc: &Tensor) -> Result<Tensor> {
    let dist = Distribution::Discrete(d);
    let mut all: Vec<&Tensor> = vec![x, loc];
    all.extend(args.iter());
    let b = broadcast(&all)?;
    let (x, loc, args) = (&b[0], &b[1], &b[2..]);
    let (lo, hi) = dist.support(args, x)?;
    let nan = full(x, f64::NAN)?;
    if matches!(method, Method::Ppf | Method::Isf) {
        // rv_discrete.ppf / isf
        let q = x;
        let cond0 = and(&d.argcheck(args, q)?, &loc.f_eq_tensor(loc)?)?;
        let inner = and(&q.f_gt(0.0)?, &q.f_lt(1.0)?)?;
        let cond = and(&cond0, &inner)?;
        let lower = lo.f_sub_scalar(1.0)?.f_add(loc)?;
        let upper = hi.f_add(loc)?;
        let out = if method == Method::Ppf {
            let out = pick(&and(&cond0, &q.f_eq(0.0)?)?, &lower.f_expand_as(q)?, &nan)?;
            pick(&and(&cond0, &q.f_eq(1.0)?)?, &upper.f_expand_as(q)?, &out)?
        } else {
            let out = pick(&and(&cond0, &q.f_eq(1.0)?)?, &lower.f_expand_as(q)?, &nan)?;
            pick(&and(&cond0, &q.f_eq(0.0)?)?, &upper.f_expand_as(q)?, &out)?
        };
        let value = d.quantile(method == Method::Isf, q, &cond, args)?.f_add(loc)?;
        return pick(&cond, &value, &out);
    }
    let k = x.f_sub(loc)?;
    let cond0 = d.argcheck(args, &k)?;
    let bad = or(&not(&cond0)?, &k.f_isnan()?)?;
    match method {
        Method::Pdf | Method::LogPdf => {
            let integral = k.f_floor()?.f_eq_tensor(&k)?;
            let inside = and(&and(&k.f_ge_tensor(&lo)?, &k.f_le_tensor(&hi)?)?, &integral)?;
            let cond = and(&cond0, &inside)?;
            let (value, outside) = if method == Method::Pdf {
                (d.standard(method, &k, args)?.f_clamp(0.0, 1.0)?, 0.0)
            } else {
                (d.standard(method, &k, args)?, f64::NEG_INFINITY)
            };
            let out = fill(&full(&k, outside)?, &bad, f64::NAN)?;
            pick(&cond, &value, &out)
        }
        Method::Cdf | Method::LogCdf | Method::Sf | Method::LogSf => {
            // SciPy's rv_discrete.cdf/logcdf/sf/logsf, in their order of `place`s
            let inside = and(&cond0, &and(&k.f_ge_tensor(&lo)?, &k.f_lt_tensor(&hi)?)?)?;
            let finite_inside = and(&inside, &k.f_isfinite()?)?;
            let at_or_above = k.f_ge_tensor(&hi)?;
            let below = k.f_lt_tensor(&lo)?;
            let value = d.standard(method, &k, args)?;
            let (out, cond) = match method {
                Method::Cdf => {
                    let out = fill(&full(&k, 0.0)?, &at_or_above, 1.0)?;
                    let out = fill(&out, &k.f_isneginf()?, 0.0)?;
                    (fill(&out, &bad, f64::NAN)?, finite_inside)
                }
                Method::LogCdf => {
                    let out = fill(&full(&k, f64::NEG_INFINITY)?, &bad, f64::NAN)?;
                    (fill(&out, &at_or_above, 0.0)?, inside)
                }
                Method::Sf => {
                    let out = fill(&full(&k, 0.0)?, &bad, f64::NAN)?;
                    let below = and(&or(&below, &k.f_isneginf()?)?, &cond0)?;
                    (fill(&out, &below, 1.0)?, finite_inside)
                }
                _ => {
                    let out = fill(&full(&k, f64::NEG_INFINITY)?, &bad, f64::NAN)?;
                    (fill(&out, &and(&below, &cond0)?, 0.0)?, inside)
                }
            };
            let value = if matches!(method, Method::Cdf | Method::Sf) { value.f_clamp(0.0, 1.0)? } else { value };
            pick(&cond, &value, &out)
        }
        Method::Ppf | Method::Isf => unreachable!("handled above"),
    }
}

/// One of the quantities [`moments`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// The mean (`'m'`).
    Mean,
    /// The variance (`'v'`).
    Var,
    /// The skewness (`'s'`).
    Skew,
    /// The excess kurtosis (`'k'`).
    Kurtosis,
    /// The differential entropy (`'e'`).
    Entropy,
    /// The lower end of the support (`'a'`).
    Lower,
    /// The upper end of the support (`'b'`).
    Upper,
}

impl Moment {
    /// The quantities named by the letters of `letters` (SciPy's `moments`
    /// letters `mvsk`, plus `e` for the entropy and `a`/`b` for the support).
    pub fn parse(letters: &str) -> Result<Vec<Moment>> {
        letters
            .chars()
            .map(|ch| {
                Ok(match ch {
                    'm' => Moment::Mean,
                    'v' => Moment::Var,
                    's' => Moment::Skew,
                    'k' => Moment::Kurtosis,
                    'e' => Moment::Entropy,
                    'a' => Moment::Lower,
                    'b' => Moment::Upper,
                    other => {
                        return Err(Error::InvalidArgument(format!(
                            "moments: unknown letter {other:?}; expected letters of 'mvsk'"
                        )))
                    }
                })
            })
            .collect()
    }
}

/// SciPy's `stats(*args, loc, scale, moments)`, `entropy` and `support` of
/// `dist`: one tensor per entry of `which`, nan where the parameters are
/// invalid (the mean and variance shifted and scaled, the entropy plus
/// `log(scale)`).
pub fn moments(
    dist: Distribution,
    which: &[Moment],
    args: &[Tensor],
    loc: &Tensor,
    scale: &Tensor,
) -> Result<Vec<Tensor>> {
    dist.check_args(args)?;
    let args = args.iter().map(float64).collect::<Result<Vec<_>>>()?;
    let loc = float64(loc)?;
    let scale = match dist {
        Distribution::Continuous(_) => float64(scale)?,
        Distribution::Discrete(_) => scalar(&loc, 1.0)?,
    };
    let mut all: Vec<&Tensor> = vec![&loc, &scale];
    all.extend(args.iter());
    let b = broadcast(&all)?;
    let (loc, scale, args) = (&b[0], &b[1], &b[2..]);
    let like = loc.f_add(scale)?;
    let cond = and(&and(&dist.argcheck(args, &like)?, &scale.f_gt(0.0)?)?, &loc.f_eq_tensor(loc)?)?;
    let nan = full(&like, f64::NAN)?;
    let stats = match dist {
        Distribution::Continuous(c) => c.stats(args, &like)?,
        Distribution::Discrete(d) => d.stats(args, &like)?,
    };
    let [mu, mu2, g1, g2] = stats;
    which
        .iter()
        .map(|m| {
            let value = match m {
                Moment::Mean => mu.f_mul(scale)?.f_add(loc)?,
                Moment::Var => mu2.f_mul(scale)?.f_mul(scale)?,
                Moment::Skew => g1.f_expand_as(&like)?,
                Moment::Kurtosis => g2.f_expand_as(&like)?,
                Moment::Entropy => match dist {
                    Distribution::Continuous(c) => c.entropy(args, &like)?.f_add(&scale.f_log()?)?,
                    Distribution::Discrete(d) => d.entropy(args, &like)?,
                },
                Moment::Lower | Moment::Upper => {
                    let (lo, hi) = dist.support(args, &like)?;
                    let end = if *m == Moment::Lower { lo } else { hi };
                    end.f_mul(scale)?.f_add(loc)?
                }
            };
            let value = value.f_expand_as(&like)?;
            pick(&cond, &value, &nan)
        })
        .collect()
}

/// Whether every element of the parameters is valid for `rvs` (SciPy's
/// `_argcheck(*args) & (scale >= 0)`, all of it).
pub fn rvs_parameters_valid(dist: Distribution, args: &[Tensor], scale: &Tensor) -> Result<bool> {
    dist.check_args(args)?;
    let args = args.iter().map(float64).collect::<Result<Vec<_>>>()?;
    let scale = float64(scale)?;
    let mut all: Vec<&Tensor> = vec![&scale];
    all.extend(args.iter());
    let b = broadcast(&all)?;
    let cond = and(&dist.argcheck(&b[1..], &b[0])?, &b[0].f_ge(0.0)?)?;
    Ok(cond.f_all()?.f_int64_value(&[])? != 0)
}

/// Random variates of `dist` by inversion: `ppf(u)` of uniform draws `u` in
/// (0, 1), shifted and scaled (discrete: as int64).
pub fn sample(dist: Distribution, u: &Tensor, args: &[Tensor], loc: &Tensor, scale: &Tensor) -> Result<Tensor> {
    // the standardised draw first (rvs allows scale == 0), then loc/scale
    dist.check_args(args)?;
    let u = float64(u)?;
    let args = args.iter().map(float64).collect::<Result<Vec<_>>>()?;
    let zero = scalar(&u, 0.0)?;
    let one = scalar(&u, 1.0)?;
    let standard = evaluate(dist, Method::Ppf, &u, &args, &zero, &one)?;
    match dist {
        Distribution::Continuous(_) => {
            let (scale, loc) = (float64(scale)?, float64(loc)?);
            let value = standard.f_mul(&scale)?.f_add(&loc)?;
            // SciPy returns `loc` for scale == 0
            pick(&scale.f_eq(0.0)?, &loc.f_expand_as(&value)?, &value)
        }
        Distribution::Discrete(_) => Ok(standard.f_add(&float64(loc)?)?.f_to_kind(Kind::Int64)?),
    }
}
