//! The standardised continuous distributions of SciPy's
//! `scipy/stats/_continuous_distns.py` (`loc = 0`, `scale = 1`): each a set
//! of libtorch-op formulas after SciPy's `_pdf`, `_logpdf`, `_cdf`, ...,
//! `_stats`, `_entropy`, with the special functions of
//! [`crate::ops::special`]. [`super::distn_infrastructure`] adds `loc`,
//! `scale`, the parameter check and the support.
//!
//! Where SciPy leaves a method to `rv_continuous`'s generic one, the same
//! generic is used: `logpdf = log(pdf)`, `sf = 1 - cdf`, `isf = ppf(1 - q)`,
//! and `logcdf`/`logsf` as `log(cdf)` below the median and `log1p(-sf)`
//! above (SciPy's `rv_continuous._logcdf`; torchbridge tells the sides by
//! `cdf < 1/2` instead of computing `ppf(1/2)`). `laplace`'s `logpdf`,
//! `logcdf` and `logsf` are written out (`-|x| - log 2`, ...), so they stay
//! finite where SciPy's `log(pdf)` underflows to `-inf` beyond |x| = 745.

use std::f64::consts::{LN_2, PI};

use tch::Tensor;

use super::distn_infrastructure::{and, full, pick, Method};
use crate::ops::special as sp;
use crate::Result;

/// `log(sqrt(2 pi))`.
const LN_SQRT_2PI: f64 = 0.918_938_533_204_672_8;
/// Euler's constant.
const EULER: f64 = 0.577_215_664_901_532_9;

/// The continuous distributions torchbridge has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Continuous {
    /// `norm`.
    Norm,
    /// `expon`.
    Expon,
    /// `uniform`.
    Uniform,
    /// `laplace`.
    Laplace,
    /// `logistic`.
    Logistic,
    /// `cauchy`.
    Cauchy,
    /// `lognorm(s)`.
    Lognorm,
    /// `gamma(a)`.
    Gamma,
    /// `beta(a, b)`.
    Beta,
    /// `t(df)`.
    T,
    /// `chi2(df)`.
    Chi2,
    /// `f(dfn, dfd)`.
    F,
    /// `weibull_min(c)`.
    WeibullMin,
}

impl Continuous {
    /// Every continuous distribution, in SciPy's alphabetical order of names.
    pub const ALL: [Continuous; 13] = [
        Continuous::Beta,
        Continuous::Cauchy,
        Continuous::Chi2,
        Continuous::Expon,
        Continuous::F,
        Continuous::Gamma,
        Continuous::Laplace,
        Continuous::Logistic,
        Continuous::Lognorm,
        Continuous::Norm,
        Continuous::T,
        Continuous::Uniform,
        Continuous::WeibullMin,
    ];

    /// SciPy's name.
    pub fn name(self) -> &'static str {
        match self {
            Continuous::Norm => "norm",
            Continuous::Expon => "expon",
            Continuous::Uniform => "uniform",
            Continuous::Laplace => "laplace",
            Continuous::Logistic => "logistic",
            Continuous::Cauchy => "cauchy",
            Continuous::Lognorm => "lognorm",
            Continuous::Gamma => "gamma",
            Continuous::Beta => "beta",
            Continuous::T => "t",
            Continuous::Chi2 => "chi2",
            Continuous::F => "f",
            Continuous::WeibullMin => "weibull_min",
        }
    }

    /// SciPy's shape parameters.
    pub fn shapes(self) -> &'static [&'static str] {
        match self {
            Continuous::Lognorm => &["s"],
            Continuous::Gamma => &["a"],
            Continuous::Beta => &["a", "b"],
            Continuous::T | Continuous::Chi2 => &["df"],
            Continuous::F => &["dfn", "dfd"],
            Continuous::WeibullMin => &["c"],
            _ => &[],
        }
    }

    /// The support of the standardised distribution (SciPy's `a`, `b`).
    pub fn support(self) -> (f64, f64) {
        match self {
            Continuous::Uniform | Continuous::Beta => (0.0, 1.0),
            Continuous::Expon
            | Continuous::Lognorm
            | Continuous::Gamma
            | Continuous::Chi2
            | Continuous::F
            | Continuous::WeibullMin => (0.0, f64::INFINITY),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        }
    }

    /// Whether `pdf` is 0 on the support's ends (`_open_support_mask`).
    pub(crate) fn open_support(self) -> bool {
        matches!(self, Continuous::Lognorm)
    }

    /// Whether the standardised `method` is already what `rv_continuous`
    /// gives on the whole extended real line: the distribution has no shape
    /// parameters, its support is the real line, and the formula itself
    /// gives the saturated values at `±inf` (`cdf` 0 and 1, `logcdf` `-inf`
    /// and 0, ...) and nan at nan. Then, with a valid 0-d `loc`/`scale`,
    /// [`super::distn_infrastructure`] evaluates the formula at
    /// `(x - loc) / scale` without its masks.
    pub(crate) fn total(self, method: Method) -> bool {
        matches!((self, method), (Continuous::Norm, Method::Cdf | Method::LogCdf | Method::Sf | Method::LogSf))
    }

    /// SciPy's default `_argcheck`: every shape parameter positive.
    pub(crate) fn argcheck(self, args: &[Tensor], like: &Tensor) -> Result<Tensor> {
        // a 0-d true that broadcasts, for the distributions without shape parameters
        let mut cond = Tensor::f_ones([], (tch::Kind::Bool, like.device()))?;
        for a in args {
            cond = and(&cond, &a.f_gt(0.0)?)?;
        }
        Ok(cond)
    }

    /// The standardised `method` at `x` (`q` for ppf/isf), SciPy's `_pdf`,
    /// ..., with `rv_continuous`'s generic methods where SciPy has no
    /// specific one.
    pub(crate) fn standard(self, method: Method, x: &Tensor, args: &[Tensor]) -> Result<Tensor> {
        if let Some(value) = self.specific(method, x, args)? {
            return Ok(value);
        }
        match method {
            Method::LogPdf => Ok(self.standard(Method::Pdf, x, args)?.f_log()?),
            Method::Sf => Ok(self.standard(Method::Cdf, x, args)?.f_neg()?.f_add_scalar(1.0)?),
            Method::Isf => self.standard(Method::Ppf, &x.f_neg()?.f_add_scalar(1.0)?, args),
            Method::LogCdf => {
                let cdf = self.standard(Method::Cdf, x, args)?;
                let sf = self.standard(Method::Sf, x, args)?;
                pick(&cdf.f_lt(0.5)?, &cdf.f_log()?, &sp::log1p(&sf.f_neg()?)?)
            }
            Method::LogSf => {
                let cdf = self.standard(Method::Cdf, x, args)?;
                let sf = self.standard(Method::Sf, x, args)?;
                pick(&sf.f_lt(0.5)?, &sf.f_log()?, &sp::log1p(&cdf.f_neg()?)?)
            }
            Method::Pdf => Ok(self.standard(Method::LogPdf, x, args)?.f_exp()?),
            Method::Cdf | Method::Ppf => Err(crate::Error::InvalidArgument(format!(
                "{}: no {method:?} formula (a torchbridge bug)",
                self.name()
            ))),
        }
    }

    /// The formulas SciPy writes out for this distribution (`None`: the generic one).
    fn specific(self, method: Method, x: &Tensor, args: &[Tensor]) -> Result<Option<Tensor>> {
        use Method::*;
        let v = match (self, method) {
            (Continuous::Norm, Pdf) => {
                x.f_square()?.f_mul_scalar(-0.5)?.f_exp()?.f_mul_scalar(1.0 / (2.0 * PI).sqrt())?
            }
            (Continuous::Norm, LogPdf) => x.f_square()?.f_mul_scalar(-0.5)?.f_sub_scalar(LN_SQRT_2PI)?,
            (Continuous::Norm, Cdf) => sp::ndtr(x)?,
            (Continuous::Norm, LogCdf) => sp::log_ndtr(x)?,
            (Continuous::Norm, Sf) => sp::ndtr(&x.f_neg()?)?,
            (Continuous::Norm, LogSf) => sp::log_ndtr(&x.f_neg()?)?,
            (Continuous::Norm, Ppf) => sp::ndtri(x)?,
            (Continuous::Norm, Isf) => sp::ndtri(x)?.f_neg()?,

            (Continuous::Expon, Pdf) | (Continuous::Expon, Sf) => x.f_neg()?.f_exp()?,
            (Continuous::Expon, LogPdf) | (Continuous::Expon, LogSf) => x.f_neg()?,
            (Continuous::Expon, Cdf) => sp::expm1(&x.f_neg()?)?.f_neg()?,
            (Continuous::Expon, Ppf) => sp::log1p(&x.f_neg()?)?.f_neg()?,
            (Continuous::Expon, Isf) => x.f_log()?.f_neg()?,

            (Continuous::Uniform, Pdf) => x.f_eq_tensor(x)?.f_to_kind(tch::Kind::Double)?,
            (Continuous::Uniform, Cdf) | (Continuous::Uniform, Ppf) => x.shallow_clone(),

            (Continuous::Laplace, Pdf) => x.f_abs()?.f_neg()?.f_exp()?.f_mul_scalar(0.5)?,
            (Continuous::Laplace, LogPdf) => x.f_abs()?.f_neg()?.f_sub_scalar(LN_2)?,
            (Continuous::Laplace, Cdf) => laplace_cdf(x)?,
            (Continuous::Laplace, Sf) => laplace_cdf(&x.f_neg()?)?,
            (Continuous::Laplace, LogCdf) => laplace_logcdf(x)?,
            (Continuous::Laplace, LogSf) => laplace_logcdf(&x.f_neg()?)?,
            (Continuous::Laplace, Ppf) => laplace_ppf(x)?,
            (Continuous::Laplace, Isf) => laplace_ppf(x)?.f_neg()?,

            (Continuous::Logistic, LogPdf) => {
                let y = x.f_abs()?.f_neg()?;
                y.f_sub(&sp::log1p(&y.f_exp()?)?.f_mul_scalar(2.0)?)?
            }
            (Continuous::Logistic, Cdf) => sp::expit(x)?,
            (Continuous::Logistic, LogCdf) => sp::log_expit(x)?,
            (Continuous::Logistic, Sf) => sp::expit(&x.f_neg()?)?,
            (Continuous::Logistic, LogSf) => sp::log_expit(&x.f_neg()?)?,
            (Continuous::Logistic, Ppf) => sp::logit(x)?,
            (Continuous::Logistic, Isf) => sp::logit(x)?.f_neg()?,

            (Continuous::Cauchy, Pdf) => x.f_square()?.f_add_scalar(1.0)?.f_reciprocal()?.f_mul_scalar(1.0 / PI)?,
            (Continuous::Cauchy, LogPdf) => {
                let ax = x.f_abs()?;
                let small = sp::log1p(&ax.f_square()?)?;
                let large = ax.f_log()?.f_mul_scalar(2.0)?.f_add(&sp::log1p(&ax.f_reciprocal()?.f_square()?)?)?;
                pick(&ax.f_lt(1.0)?, &small, &large)?.f_neg()?.f_sub_scalar(PI.ln())?
            }
            (Continuous::Cauchy, Cdf) => full(x, 1.0)?.f_atan2(&x.f_neg()?)?.f_mul_scalar(1.0 / PI)?,
            (Continuous::Cauchy, Sf) => full(x, 1.0)?.f_atan2(x)?.f_mul_scalar(1.0 / PI)?,
            (Continuous::Cauchy, Ppf) => cauchy_ppf(x)?,
            (Continuous::Cauchy, Isf) => cauchy_ppf(x)?.f_neg()?,

            (Continuous::Lognorm, LogPdf) => {
                let s = &args[0];
                let lx = x.f_log()?;
                let v = lx
                    .f_square()?
                    .f_div(&s.f_square()?.f_mul_scalar(2.0)?)?
                    .f_neg()?
                    .f_sub(&s.f_mul(x)?.f_log()?)?
                    .f_sub_scalar(LN_SQRT_2PI)?;
                v.f_masked_fill(&x.f_eq(0.0)?, f64::NEG_INFINITY)?
            }
            (Continuous::Lognorm, Cdf) => sp::ndtr(&x.f_log()?.f_div(&args[0])?)?,
            (Continuous::Lognorm, LogCdf) => sp::log_ndtr(&x.f_log()?.f_div(&args[0])?)?,
            (Continuous::Lognorm, Sf) => sp::ndtr(&x.f_log()?.f_div(&args[0])?.f_neg()?)?,
            (Continuous::Lognorm, LogSf) => sp::log_ndtr(&x.f_log()?.f_div(&args[0])?.f_neg()?)?,
            (Continuous::Lognorm, Ppf) => args[0].f_mul(&sp::ndtri(x)?)?.f_exp()?,
            (Continuous::Lognorm, Isf) => args[0].f_mul(&sp::ndtri(x)?)?.f_neg()?.f_exp()?,

            (Continuous::Gamma, LogPdf) => {
                let a = &args[0];
                sp::xlogy(&a.f_sub_scalar(1.0)?, x)?.f_sub(x)?.f_sub(&sp::gammaln(a)?)?
            }
            (Continuous::Gamma, Cdf) => sp::gammainc(&args[0], x)?,
            (Continuous::Gamma, Sf) => sp::gammaincc(&args[0], x)?,
            (Continuous::Gamma, Ppf) => sp::gammaincinv(&args[0], x)?,
            (Continuous::Gamma, Isf) => sp::gammainccinv(&args[0], x)?,

            (Continuous::Beta, LogPdf) => {
                let (a, b) = (&args[0], &args[1]);
                sp::xlog1py(&b.f_sub_scalar(1.0)?, &x.f_neg()?)?
                    .f_add(&sp::xlogy(&a.f_sub_scalar(1.0)?, x)?)?
                    .f_sub(&sp::betaln(a, b)?)?
            }
            (Continuous::Beta, Cdf) => sp::betainc(&args[0], &args[1], x)?,
            (Continuous::Beta, Sf) => sp::betaincc(&args[0], &args[1], x)?,
            (Continuous::Beta, Ppf) => sp::betaincinv(&args[0], &args[1], x)?,
            (Continuous::Beta, Isf) => sp::betainccinv(&args[0], &args[1], x)?,

            (Continuous::T, LogPdf) => t_logpdf(x, &args[0])?,
            // df = inf: the normal distribution's functions themselves
            (Continuous::T, Cdf) => t_or_normal(&args[0], sp::stdtr(&args[0], x)?, sp::ndtr(x)?)?,
            (Continuous::T, Sf) => {
                let mx = x.f_neg()?;
                t_or_normal(&args[0], sp::stdtr(&args[0], &mx)?, sp::ndtr(&mx)?)?
            }
            (Continuous::T, Ppf) => t_or_normal(&args[0], sp::stdtrit(&args[0], x)?, sp::ndtri(x)?)?,
            (Continuous::T, Isf) => t_or_normal(&args[0], sp::stdtrit(&args[0], x)?, sp::ndtri(x)?)?.f_neg()?,

            (Continuous::Chi2, LogPdf) => {
                let half = args[0].f_mul_scalar(0.5)?;
                sp::xlogy(&half.f_sub_scalar(1.0)?, x)?
                    .f_sub(&x.f_mul_scalar(0.5)?)?
                    .f_sub(&sp::gammaln(&half)?)?
                    .f_sub(&half.f_mul_scalar(LN_2)?)?
            }
            (Continuous::Chi2, Cdf) => sp::chdtr(&args[0], x)?,
            (Continuous::Chi2, Sf) => sp::chdtrc(&args[0], x)?,
            (Continuous::Chi2, Ppf) => sp::gammaincinv(&args[0].f_mul_scalar(0.5)?, x)?.f_mul_scalar(2.0)?,
            (Continuous::Chi2, Isf) => sp::chdtri(&args[0], x)?,

            (Continuous::F, LogPdf) => {
                let (n, m) = (&args[0], &args[1]);
                let half_n = n.f_mul_scalar(0.5)?;
                let half_m = m.f_mul_scalar(0.5)?;
                half_m
                    .f_mul(&m.f_log()?)?
                    .f_add(&half_n.f_mul(&n.f_log()?)?)?
                    .f_add(&sp::xlogy(&half_n.f_sub_scalar(1.0)?, x)?)?
                    .f_sub(&half_n.f_add(&half_m)?.f_mul(&m.f_add(&n.f_mul(x)?)?.f_log()?)?)?
                    .f_sub(&sp::betaln(&half_n, &half_m)?)?
            }
            (Continuous::F, Cdf) => sp::fdtr(&args[0], &args[1], x)?,
            (Continuous::F, Sf) => sp::fdtrc(&args[0], &args[1], x)?,
            (Continuous::F, Ppf) => sp::fdtri(&args[0], &args[1], x)?,

            (Continuous::WeibullMin, Pdf) => {
                let c = &args[0];
                let xc = x.f_pow(c)?;
                c.f_mul(&x.f_pow(&c.f_sub_scalar(1.0)?)?)?.f_mul(&xc.f_neg()?.f_exp()?)?
            }
            (Continuous::WeibullMin, LogPdf) => {
                let c = &args[0];
                c.f_log()?.f_add(&sp::xlogy(&c.f_sub_scalar(1.0)?, x)?)?.f_sub(&x.f_pow(c)?)?
            }
            (Continuous::WeibullMin, Cdf) => sp::expm1(&x.f_pow(&args[0])?.f_neg()?)?.f_neg()?,
            (Continuous::WeibullMin, Sf) => x.f_pow(&args[0])?.f_neg()?.f_exp()?,
            (Continuous::WeibullMin, LogSf) => x.f_pow(&args[0])?.f_neg()?,
            (Continuous::WeibullMin, Ppf) => sp::log1p(&x.f_neg()?)?.f_neg()?.f_pow(&args[0].f_reciprocal()?)?,
            (Continuous::WeibullMin, Isf) => x.f_log()?.f_neg()?.f_pow(&args[0].f_reciprocal()?)?,
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// `_stats(*args)`: mean, variance, skewness, excess kurtosis of the
    /// standardised distribution.
    pub(crate) fn stats(self, args: &[Tensor], like: &Tensor) -> Result<[Tensor; 4]> {
        let c = |v: f64| full(like, v);
        Ok(match self {
            Continuous::Norm => [c(0.0)?, c(1.0)?, c(0.0)?, c(0.0)?],
            Continuous::Expon => [c(1.0)?, c(1.0)?, c(2.0)?, c(6.0)?],
            Continuous::Uniform => [c(0.5)?, c(1.0 / 12.0)?, c(0.0)?, c(-1.2)?],
            Continuous::Laplace => [c(0.0)?, c(2.0)?, c(0.0)?, c(3.0)?],
            Continuous::Logistic => [c(0.0)?, c(PI * PI / 3.0)?, c(0.0)?, c(1.2)?],
            Continuous::Cauchy => [c(f64::NAN)?, c(f64::NAN)?, c(f64::NAN)?, c(f64::NAN)?],
            Continuous::Lognorm => {
                let p = args[0].f_square()?.f_exp()?;
                let mu = p.f_sqrt()?;
                let mu2 = p.f_mul(&p.f_sub_scalar(1.0)?)?;
                let g1 = p.f_sub_scalar(1.0)?.f_sqrt()?.f_mul(&p.f_add_scalar(2.0)?)?;
                // polyval([1, 2, 3, 0, -6], p)
                let g2 = p.f_add_scalar(2.0)?.f_mul(&p)?.f_add_scalar(3.0)?.f_mul(&p)?.f_mul(&p)?.f_sub_scalar(6.0)?;
                [mu, mu2, g1, g2]
            }
            Continuous::Gamma => {
                let a = &args[0];
                [
                    a.shallow_clone(),
                    a.shallow_clone(),
                    a.f_sqrt()?.f_reciprocal()?.f_mul_scalar(2.0)?,
                    a.f_reciprocal()?.f_mul_scalar(6.0)?,
                ]
            }
            Continuous::Beta => {
                let (a, b) = (&args[0], &args[1]);
                let ab = a.f_add(b)?;
                let mean = a.f_div(&ab)?;
                let var = a.f_mul(b)?.f_div(&ab.f_square()?.f_mul(&ab.f_add_scalar(1.0)?)?)?;
                let skew = b
                    .f_sub(a)?
                    .f_mul_scalar(2.0)?
                    .f_mul(&ab.f_add_scalar(1.0)?.f_sqrt()?)?
                    .f_div(&ab.f_add_scalar(2.0)?.f_mul(&a.f_mul(b)?.f_sqrt()?)?)?;
                let num = a
                    .f_sub(b)?
                    .f_square()?
                    .f_mul(&ab.f_add_scalar(1.0)?)?
                    .f_sub(&a.f_mul(b)?.f_mul(&ab.f_add_scalar(2.0)?)?)?
                    .f_mul_scalar(6.0)?;
                let den = a.f_mul(b)?.f_mul(&ab.f_add_scalar(2.0)?)?.f_mul(&ab.f_add_scalar(3.0)?)?;
                [mean, var, skew, num.f_div(&den)?]
            }
            Continuous::T => {
                let df = &args[0];
                let inf = df.f_isposinf()?;
                let mu = pick(&df.f_gt(1.0)?, &c(0.0)?, &c(f64::INFINITY)?)?;
                let mu2 = c(f64::NAN)?;
                let mu2 = pick(&and(&df.f_gt(1.0)?, &df.f_le(2.0)?)?, &c(f64::INFINITY)?, &mu2)?;
                let mu2 = pick(&and(&df.f_gt(2.0)?, &df.f_isfinite()?)?, &df.f_div(&df.f_sub_scalar(2.0)?)?, &mu2)?;
                let mu2 = pick(&inf, &c(1.0)?, &mu2)?;
                let g1 = pick(&df.f_gt(3.0)?, &c(0.0)?, &c(f64::NAN)?)?;
                let g2 = c(f64::NAN)?;
                let g2 = pick(&and(&df.f_gt(2.0)?, &df.f_le(4.0)?)?, &c(f64::INFINITY)?, &g2)?;
                let g2 = pick(
                    &and(&df.f_gt(4.0)?, &df.f_isfinite()?)?,
                    &df.f_sub_scalar(4.0)?.f_reciprocal()?.f_mul_scalar(6.0)?,
                    &g2,
                )?;
                let g2 = pick(&inf, &c(0.0)?, &g2)?;
                [mu, mu2, g1, g2]
            }
            Continuous::Chi2 => {
                let df = &args[0];
                [
                    df.shallow_clone(),
                    df.f_mul_scalar(2.0)?,
                    df.f_reciprocal()?.f_mul_scalar(2.0)?.f_sqrt()?.f_mul_scalar(2.0)?,
                    df.f_reciprocal()?.f_mul_scalar(12.0)?,
                ]
            }
            Continuous::F => {
                let (v1, v2) = (&args[0], &args[1]);
                let v2_2 = v2.f_sub_scalar(2.0)?;
                let v2_4 = v2.f_sub_scalar(4.0)?;
                let v2_6 = v2.f_sub_scalar(6.0)?;
                let v2_8 = v2.f_sub_scalar(8.0)?;
                let mu = pick(&v2.f_gt(2.0)?, &v2.f_div(&v2_2)?, &c(f64::INFINITY)?)?;
                let mu2 = v2
                    .f_square()?
                    .f_mul_scalar(2.0)?
                    .f_mul(&v1.f_add(&v2_2)?)?
                    .f_div(&v1.f_mul(&v2_2.f_square()?)?.f_mul(&v2_4)?)?;
                let mu2 = pick(&v2.f_gt(4.0)?, &mu2, &c(f64::INFINITY)?)?;
                let g1 = v1
                    .f_mul_scalar(2.0)?
                    .f_add(&v2_2)?
                    .f_div(&v2_6)?
                    .f_mul(&v2_4.f_div(&v1.f_mul(&v1.f_add(&v2_2)?)?)?.f_sqrt()?)?;
                let g1 = pick(&v2.f_gt(6.0)?, &g1, &c(f64::NAN)?)?.f_mul_scalar(8f64.sqrt())?;
                let g2 = g1.f_square()?.f_mul(&v2_6)?.f_add_scalar(8.0)?.f_div(&v2_8)?;
                let g2 = pick(&v2.f_gt(8.0)?, &g2, &c(f64::NAN)?)?.f_mul_scalar(1.5)?;
                [mu, mu2, g1, g2]
            }
            Continuous::WeibullMin => {
                // rv_continuous's generic _stats from the raw moments gamma(1 + n/c)
                let inv = args[0].f_reciprocal()?;
                let m = |n: f64| sp::gamma(&inv.f_mul_scalar(n)?.f_add_scalar(1.0)?);
                let (m1, m2, m3, m4) = (m(1.0)?, m(2.0)?, m(3.0)?, m(4.0)?);
                let mu2 = m2.f_sub(&m1.f_square()?)?;
                let mu3 = m3
                    .f_sub(&m1.f_mul(&m2)?.f_mul_scalar(3.0)?)?
                    .f_add(&m1.f_pow_tensor_scalar(3.0)?.f_mul_scalar(2.0)?)?;
                let g1 = mu3.f_div(&mu2.f_pow_tensor_scalar(1.5)?)?;
                let mu4 = m4
                    .f_sub(&m1.f_mul(&m3)?.f_mul_scalar(4.0)?)?
                    .f_add(&m1.f_square()?.f_mul(&m2)?.f_mul_scalar(6.0)?)?
                    .f_sub(&m1.f_pow_tensor_scalar(4.0)?.f_mul_scalar(3.0)?)?;
                let g2 = mu4.f_div(&mu2.f_square()?)?.f_sub_scalar(3.0)?;
                [m1, mu2, g1, g2]
            }
        })
    }

    /// `_entropy(*args)` of the standardised distribution.
    pub(crate) fn entropy(self, args: &[Tensor], like: &Tensor) -> Result<Tensor> {
        let c = |v: f64| full(like, v);
        let norm_entropy = 0.5 * ((2.0 * PI).ln() + 1.0);
        match self {
            Continuous::Norm => c(norm_entropy),
            Continuous::Expon => c(1.0),
            Continuous::Uniform => c(0.0),
            Continuous::Laplace => c(LN_2 + 1.0),
            Continuous::Logistic => c(2.0),
            Continuous::Cauchy => c((4.0 * PI).ln()),
            Continuous::Lognorm => {
                Ok(args[0].f_log()?.f_mul_scalar(2.0)?.f_add_scalar(1.0 + (2.0 * PI).ln())?.f_mul_scalar(0.5)?)
            }
            Continuous::Gamma => {
                let a = &args[0];
                let regular =
                    sp::digamma(a)?.f_mul(&a.f_neg()?.f_add_scalar(1.0)?)?.f_add(a)?.f_add(&sp::gammaln(a)?)?;
                let asym = a
                    .f_log()?
                    .f_add_scalar(1.0 + (2.0 * PI).ln())?
                    .f_mul_scalar(0.5)?
                    .f_sub(&series(a, &[0.0, 1.0 / 3.0, 1.0 / 12.0, 1.0 / 90.0, -1.0 / 120.0])?)?;
                pick(&a.f_lt(250.0)?, &regular, &asym)
            }
            Continuous::Chi2 => {
                let h = args[0].f_mul_scalar(0.5)?;
                let regular = h
                    .f_add_scalar(LN_2)?
                    .f_add(&sp::gammaln(&h)?)?
                    .f_add(&h.f_neg()?.f_add_scalar(1.0)?.f_mul(&sp::digamma(&h)?)?)?;
                // h' = 0.5/h: h' (-2/3 + h' (-1/3 + h' (-4/45 + h'/7.5))) + log(h)/2 + c
                let hh = h.f_reciprocal()?.f_mul_scalar(0.5)?;
                let asym = horner(&hh, &[0.0, -2.0 / 3.0, -1.0 / 3.0, -4.0 / 45.0, 1.0 / 7.5])?
                    .f_add(&h.f_log()?.f_mul_scalar(0.5)?)?
                    .f_add_scalar(LN_2 + 0.5 * (1.0 + (2.0 * PI).ln()))?;
                pick(&h.f_lt(125.0)?, &regular, &asym)
            }
            Continuous::WeibullMin => {
                let cc = &args[0];
                Ok(cc.f_reciprocal()?.f_mul_scalar(-EULER)?.f_sub(&cc.f_log()?)?.f_add_scalar(EULER + 1.0)?)
            }
            Continuous::F => {
                let (dfn, dfd) = (&args[0], &args[1]);
                let hn = dfn.f_mul_scalar(0.5)?;
                let hd = dfd.f_mul_scalar(0.5)?;
                let hs = hn.f_add(&hd)?;
                Ok(dfd
                    .f_log()?
                    .f_sub(&dfn.f_log()?)?
                    .f_add(&sp::betaln(&hn, &hd)?)?
                    .f_add(&hn.f_neg()?.f_add_scalar(1.0)?.f_mul(&sp::digamma(&hn)?)?)?
                    .f_sub(&hd.f_add_scalar(1.0)?.f_mul(&sp::digamma(&hd)?)?)?
                    .f_add(&hs.f_mul(&sp::digamma(&hs)?)?)?)
            }
            Continuous::T => {
                let df = &args[0];
                let half = df.f_mul_scalar(0.5)?;
                let half1 = df.f_add_scalar(1.0)?.f_mul_scalar(0.5)?;
                let regular = half1
                    .f_mul(&sp::digamma(&half1)?.f_sub(&sp::digamma(&half)?)?)?
                    .f_add(&df.f_log()?.f_mul_scalar(0.5)?)?
                    .f_add(&sp::betaln(&half, &full(df, 0.5)?)?)?;
                let asym = series(df, &[norm_entropy, 1.0, 0.25, -1.0 / 6.0, -0.125, 0.3, 0.25])?;
                let value = pick(&df.f_ge(100.0)?, &asym, &regular)?;
                pick(&df.f_isposinf()?, &c(norm_entropy)?, &value)
            }
            Continuous::Beta => beta_entropy(&args[0], &args[1]),
        }
    }
}

/// `sum_k c[k] x^k`.
fn horner(x: &Tensor, coeffs: &[f64]) -> Result<Tensor> {
    let (last, rest) = coeffs.split_last().expect("non-empty coefficients");
    let mut acc = full(x, *last)?;
    for &c in rest.iter().rev() {
        acc = acc.f_mul(x)?.f_add_scalar(c)?;
    }
    Ok(acc)
}

/// `sum_k c[k] x^(-k)`.
fn series(x: &Tensor, coeffs: &[f64]) -> Result<Tensor> {
    horner(&x.f_reciprocal()?, coeffs)
}

fn laplace_cdf(x: &Tensor) -> Result<Tensor> {
    let upper = x.f_neg()?.f_exp()?.f_mul_scalar(-0.5)?.f_add_scalar(1.0)?;
    let lower = x.f_exp()?.f_mul_scalar(0.5)?;
    pick(&x.f_gt(0.0)?, &upper, &lower)
}

/// `log(cdf)` of the Laplace distribution: `x - log 2` below 0, `log1p(-exp(-x)/2)` above.
fn laplace_logcdf(x: &Tensor) -> Result<Tensor> {
    let upper = sp::log1p(&x.f_neg()?.f_exp()?.f_mul_scalar(-0.5)?)?;
    pick(&x.f_gt(0.0)?, &upper, &x.f_sub_scalar(LN_2)?)
}

fn laplace_ppf(q: &Tensor) -> Result<Tensor> {
    let upper = q.f_neg()?.f_add_scalar(1.0)?.f_mul_scalar(2.0)?.f_log()?.f_neg()?;
    let lower = q.f_mul_scalar(2.0)?.f_log()?;
    pick(&q.f_gt(0.5)?, &upper, &lower)
}

/// Boost's Cauchy quantile (SciPy's `_cauchy_ppf`): `-1/tan(pi P)` with
/// `P = q` below 1/2 and `q - 1` above (exact), 0 at 1/2.
fn cauchy_ppf(q: &Tensor) -> Result<Tensor> {
    let p = pick(&q.f_gt(0.5)?, &q.f_sub_scalar(1.0)?, q)?;
    let v = p.f_mul_scalar(PI)?.f_tan()?.f_reciprocal()?.f_neg()?;
    Ok(v.f_masked_fill(&q.f_eq(0.5)?, 0.0)?)
}

/// `log(poch(h, 1/2)) = lgamma(h + 1/2) - lgamma(h)`: the difference of
/// `gammaln` below 20, the asymptotic series
/// `log(h)/2 - 1/(8h) + 1/(192h^3) - 1/(640h^5) + ...` (Bernoulli
/// polynomials) above, free of the cancellation of the difference.
fn log_poch_half(h: &Tensor) -> Result<Tensor> {
    let small = sp::gammaln(&h.f_add_scalar(0.5)?)?.f_sub(&sp::gammaln(h)?)?;
    let inv = h.f_reciprocal()?;
    let inv2 = inv.f_square()?;
    let tail =
        horner(&inv2, &[-1.0 / 8.0, 1.0 / 192.0, -1.0 / 640.0, 17.0 / 14336.0, -31.0 / 18432.0, 691.0 / 180224.0])?
            .f_mul(&inv)?;
    let large = h.f_log()?.f_mul_scalar(0.5)?.f_add(&tail)?;
    pick(&h.f_lt(20.0)?, &small, &large)
}

/// `normal` where `df` is +inf, else `t`.
fn t_or_normal(df: &Tensor, t: Tensor, normal: Tensor) -> Result<Tensor> {
    pick(&df.f_isposinf()?, &normal, &t)
}

fn t_logpdf(x: &Tensor, df: &Tensor) -> Result<Tensor> {
    let value = log_poch_half(&df.f_mul_scalar(0.5)?)?
        .f_sub(&df.f_log()?.f_add_scalar(PI.ln())?.f_mul_scalar(0.5)?)?
        .f_sub(&df.f_add_scalar(1.0)?.f_mul_scalar(0.5)?.f_mul(&sp::log1p(&x.f_square()?.f_div(df)?)?)?)?;
    let normal = x.f_square()?.f_mul_scalar(-0.5)?.f_sub_scalar(LN_SQRT_2PI)?;
    pick(&df.f_isposinf()?, &normal, &value)
}

/// SciPy's `beta._entropy`: the digamma formula, with asymptotic forms where
/// `a` or `b` (or both) are huge.
fn beta_entropy(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let regular = sp::betaln(a, b)?
        .f_sub(&a.f_sub_scalar(1.0)?.f_mul(&sp::digamma(a)?)?)?
        .f_sub(&b.f_sub_scalar(1.0)?.f_mul(&sp::digamma(b)?)?)?
        .f_add(&a.f_add(b)?.f_sub_scalar(2.0)?.f_mul(&sp::digamma(&a.f_add(b)?)?)?)?;
    let s = a.f_add(b)?;
    let ab_large = a
        .f_log()?
        .f_add(&b.f_log()?)?
        .f_sub(&s.f_log()?.f_mul_scalar(3.0)?)?
        .f_add_scalar((2.0 * PI).ln() + 1.0)?
        .f_mul_scalar(0.5)?
        .f_add(
            &series(&s, &[0.0, 110.0, 20.0, 1.0, -2.0])?
                .f_add(&series(a, &[0.0, -50.0, -10.0, -1.0, 1.0])?)?
                .f_add(&series(b, &[0.0, -50.0, -10.0, -1.0, 1.0])?)?
                .f_mul_scalar(1.0 / 120.0)?,
        )?;
    let b_large = |a: &Tensor, b: &Tensor| -> Result<Tensor> {
        let s = a.f_add(b)?;
        let t1 = sp::gammaln(a)?.f_sub(&a.f_sub_scalar(1.0)?.f_mul(&sp::digamma(a)?)?)?;
        let t2 =
            series(b, &[0.0, -0.5 + 1.0 / 12.0, -1.0 / 12.0, -1.0 / 120.0, 1.0 / 120.0, 1.0 / 252.0, -1.0 / 252.0])?
                .f_add(&series(
                    &s,
                    &[0.0, 1.0 - 1.0 / 12.0, 1.0 / 6.0, 1.0 / 120.0, -1.0 / 60.0, -1.0 / 252.0, 1.0 / 126.0],
                )?)?;
        let log_term = s.f_mul(&sp::log1p(&a.f_div(b)?)?)?.f_add(&b.f_log()?)?.f_sub(&s.f_log()?.f_mul_scalar(2.0)?)?;
        Ok(t1.f_add(&t2)?.f_add(&log_term)?)
    };
    // threshold_large(v): d * 10^(7 + j), j = floor(log10 v), d = floor(v / 10^j) + 2 (1000 at v = 1)
    let threshold = |v: &Tensor| -> Result<Tensor> {
        let j = v.f_log10()?.f_floor()?;
        let p = full(v, 10.0)?.f_pow(&j)?;
        let d = v.f_div(&p)?.f_floor()?.f_add_scalar(2.0)?;
        let t = d.f_mul(&full(v, 10.0)?.f_pow(&j.f_add_scalar(7.0)?)?)?;
        Ok(t.f_masked_fill(&v.f_eq(1.0)?, 1000.0)?)
    };
    let c_ab = and(&a.f_ge(4960000.0)?, &b.f_ge(4960000.0)?)?;
    let c_b = and(&and(&a.f_le(4900000.0)?, &b.f_sub(a)?.f_ge(1e6)?)?, &b.f_ge_tensor(&threshold(a)?)?)?;
    let c_a = and(&and(&b.f_le(4900000.0)?, &a.f_sub(b)?.f_ge(1e6)?)?, &a.f_ge_tensor(&threshold(b)?)?)?;
    let c_r = and(&a.f_lt(4900000.0)?, &b.f_lt(4900000.0)?)?;
    // _lazyselect: the first condition that holds wins; its default 0 where none does
    let out = full(a, 0.0)?;
    let out = pick(&c_r, &regular, &out)?;
    let out = pick(&c_a, &b_large(b, a)?, &out)?;
    let out = pick(&c_b, &b_large(a, b)?, &out)?;
    pick(&c_ab, &ab_large, &out)
}
