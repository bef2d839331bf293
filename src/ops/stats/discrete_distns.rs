//! The standardised discrete distributions of SciPy's
//! `scipy/stats/_discrete_distns.py` (`loc = 0`): `poisson`, `binom` and
//! `nbinom` as libtorch-op formulas after SciPy's `_pmf`, `_logpmf`,
//! `_cdf`, ..., with the special functions of [`crate::ops::special`].
//!
//! SciPy computes `binom`'s and `nbinom`'s pmf, cdf and sf with Boost; the
//! same quantities are the regularised incomplete beta function here
//! (`binom.cdf = betaincc(k + 1, n - k, p)`, `nbinom.cdf = betainc(n, k + 1,
//! p)`, Boost's own identities), the pmfs `exp(logpmf)` with SciPy's
//! `_logpmf`. The quantiles (`ppf`, `isf`; SciPy: `pdtrik`, Boost's
//! quantile search) are the smallest integer `k` with `cdf(k) >= q`
//! (`sf(k) <= q`), found by a vectorised search: a Cornish-Fisher first
//! guess, doubling steps to bracket, then integer bisection on the cdf.

use tch::Tensor;

use super::distn_infrastructure::{and, fill, full, or, pick, scalar, Method};
use crate::ops::special as sp;
use crate::{Error, Result};

/// The discrete distributions torchbridge has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Discrete {
    /// `poisson(mu)`.
    Poisson,
    /// `binom(n, p)`.
    Binom,
    /// `nbinom(n, p)`.
    Nbinom,
}

/// The most steps of each phase of the quantile search (bracketing, bisection).
const SEARCH_STEPS: usize = 1100;

impl Discrete {
    /// Every discrete distribution.
    pub const ALL: [Discrete; 3] = [Discrete::Binom, Discrete::Nbinom, Discrete::Poisson];

    /// SciPy's name.
    pub fn name(self) -> &'static str {
        match self {
            Discrete::Poisson => "poisson",
            Discrete::Binom => "binom",
            Discrete::Nbinom => "nbinom",
        }
    }

    /// SciPy's shape parameters.
    pub fn shapes(self) -> &'static [&'static str] {
        match self {
            Discrete::Poisson => &["mu"],
            Discrete::Binom | Discrete::Nbinom => &["n", "p"],
        }
    }

    /// `_argcheck(*args)`.
    pub(crate) fn argcheck(self, args: &[Tensor], like: &Tensor) -> Result<Tensor> {
        let cond = match self {
            Discrete::Poisson => args[0].f_ge(0.0)?,
            Discrete::Binom => {
                let (n, p) = (&args[0], &args[1]);
                let n_ok = and(&n.f_ge(0.0)?, &n.f_floor()?.f_eq_tensor(n)?)?;
                and(&n_ok, &and(&p.f_ge(0.0)?, &p.f_le(1.0)?)?)?
            }
            Discrete::Nbinom => {
                let (n, p) = (&args[0], &args[1]);
                and(&n.f_gt(0.0)?, &and(&p.f_gt(0.0)?, &p.f_le(1.0)?)?)?
            }
        };
        Ok(cond.f_logical_and(&like.f_ones_like()?.f_to_kind(tch::Kind::Bool)?)?)
    }

    /// `_get_support(*args)`: `[0, inf)`, `binom`'s `[0, n]`.
    pub(crate) fn support(self, args: &[Tensor], like: &Tensor) -> Result<(Tensor, Tensor)> {
        match self {
            Discrete::Binom => Ok((scalar(like, 0.0)?, args[0].shallow_clone())),
            _ => Ok((scalar(like, 0.0)?, scalar(like, f64::INFINITY)?)),
        }
    }

    /// The standardised `method` at `k` (pmf, logpmf, cdf, logcdf, sf, logsf).
    pub(crate) fn standard(self, method: Method, k: &Tensor, args: &[Tensor]) -> Result<Tensor> {
        use Method::*;
        match method {
            Pdf => Ok(self.standard(LogPdf, k, args)?.f_exp()?),
            LogPdf => self.logpmf(k, args),
            Cdf => self.cdf(&k.f_floor()?, args),
            Sf => self.sf(&k.f_floor()?, args),
            LogCdf => {
                let k = k.f_floor()?;
                let cdf = self.cdf(&k, args)?;
                if self == Discrete::Nbinom {
                    // SciPy's nbinom._logcdf: log1p(-sf) above 1/2
                    let sf = self.sf(&k, args)?;
                    return pick(&cdf.f_gt(0.5)?, &sp::log1p(&sf.f_neg()?)?, &cdf.f_log()?);
                }
                Ok(cdf.f_log()?)
            }
            LogSf => Ok(self.sf(&k.f_floor()?, args)?.f_log()?),
            Ppf | Isf => Err(Error::InvalidArgument(format!(
                "{}: quantiles go through Discrete::quantile (a torchbridge bug)",
                self.name()
            ))),
        }
    }

    fn logpmf(self, k: &Tensor, args: &[Tensor]) -> Result<Tensor> {
        match self {
            Discrete::Poisson => {
                let mu = &args[0];
                Ok(sp::xlogy(k, mu)?.f_sub(&sp::gammaln(&k.f_add_scalar(1.0)?)?)?.f_sub(mu)?)
            }
            Discrete::Binom => {
                let (n, p) = (&args[0], &args[1]);
                let k = k.f_floor()?;
                let combiln = sp::gammaln(&n.f_add_scalar(1.0)?)?.f_sub(
                    &sp::gammaln(&k.f_add_scalar(1.0)?)?.f_add(&sp::gammaln(&n.f_sub(&k)?.f_add_scalar(1.0)?)?)?,
                )?;
                Ok(combiln.f_add(&sp::xlogy(&k, p)?)?.f_add(&sp::xlog1py(&n.f_sub(&k)?, &p.f_neg()?)?)?)
            }
            Discrete::Nbinom => {
                let (n, p) = (&args[0], &args[1]);
                let coeff =
                    sp::gammaln(&n.f_add(k)?)?.f_sub(&sp::gammaln(&k.f_add_scalar(1.0)?)?)?.f_sub(&sp::gammaln(n)?)?;
                Ok(coeff.f_add(&n.f_mul(&p.f_log()?)?)?.f_add(&sp::xlog1py(k, &p.f_neg()?)?)?)
            }
        }
    }

    /// The cdf at integral `k` of the support.
    fn cdf(self, k: &Tensor, args: &[Tensor]) -> Result<Tensor> {
        match self {
            Discrete::Poisson => sp::pdtr(k, &args[0]),
            Discrete::Binom => {
                let (n, p) = (&args[0], &args[1]);
                sp::betaincc(&k.f_add_scalar(1.0)?, &n.f_sub(k)?, p)
            }
            Discrete::Nbinom => sp::betainc(&args[0], &k.f_add_scalar(1.0)?, &args[1]),
        }
    }

    /// The survival function at integral `k` of the support.
    fn sf(self, k: &Tensor, args: &[Tensor]) -> Result<Tensor> {
        match self {
            Discrete::Poisson => sp::pdtrc(k, &args[0]),
            Discrete::Binom => {
                let (n, p) = (&args[0], &args[1]);
                sp::betainc(&k.f_add_scalar(1.0)?, &n.f_sub(k)?, p)
            }
            Discrete::Nbinom => sp::betaincc(&args[0], &k.f_add_scalar(1.0)?, &args[1]),
        }
    }

    /// `_stats(*args)`: mean, variance, skewness, excess kurtosis.
    pub(crate) fn stats(self, args: &[Tensor], like: &Tensor) -> Result<[Tensor; 4]> {
        Ok(match self {
            Discrete::Poisson => {
                let mu = &args[0];
                let positive = mu.f_gt(0.0)?;
                let inf = full(like, f64::INFINITY)?;
                let g1 = pick(&positive, &mu.f_reciprocal()?.f_sqrt()?, &inf)?;
                let g2 = pick(&positive, &mu.f_reciprocal()?, &inf)?;
                [mu.shallow_clone(), mu.shallow_clone(), g1, g2]
            }
            Discrete::Binom => {
                let (n, p) = (&args[0], &args[1]);
                let mu = n.f_mul(p)?;
                let var = mu.f_sub(&n.f_mul(&p.f_square()?)?)?;
                let pq = p.f_sub(&p.f_square()?)?;
                let npq_sqrt = n.f_mul(&pq)?.f_sqrt()?;
                let g1 = npq_sqrt.f_reciprocal()?.f_sub(&p.f_mul_scalar(2.0)?.f_div(&npq_sqrt)?)?;
                let g2 = n.f_mul(&pq)?.f_reciprocal()?.f_sub(&n.f_reciprocal()?.f_mul_scalar(6.0)?)?;
                [mu, var, g1, g2]
            }
            Discrete::Nbinom => {
                // Boost's negative_binomial mean, variance, skewness, kurtosis_excess
                let (n, p) = (&args[0], &args[1]);
                let q = p.f_neg()?.f_add_scalar(1.0)?;
                let mean = n.f_mul(&q)?.f_div(p)?;
                let var = mean.f_div(p)?;
                let skew = p.f_neg()?.f_add_scalar(2.0)?.f_div(&n.f_mul(&q)?.f_sqrt()?)?;
                let kurt = n.f_reciprocal()?.f_mul_scalar(6.0)?.f_add(&p.f_square()?.f_div(&n.f_mul(&q)?)?)?;
                [mean, var, skew, kurt]
            }
        })
    }

    /// The entropy `-sum_k pmf(k) log pmf(k)`, summed over the support
    /// between `ppf(1e-20)` and `isf(1e-20)` (SciPy: `binom` sums the whole
    /// support, `poisson` and `nbinom` sum outwards from the median until
    /// the terms vanish). One `[..., width]` block of pmf values, `width`
    /// the widest range; refused when that block would exceed 5e7 values.
    pub(crate) fn entropy(self, args: &[Tensor], like: &Tensor) -> Result<Tensor> {
        let like = like.f_zeros_like()?;
        let args: Vec<Tensor> =
            args.iter().map(|a| Ok(a.f_expand_as(&like)?.f_contiguous()?)).collect::<Result<_>>()?;
        let cond = self.argcheck(&args, &like)?;
        let q = full(&like, 1e-20)?;
        let lo = self.quantile(false, &q, &cond, &args)?;
        let hi = self.quantile(true, &q, &cond, &args)?;
        if like.numel() == 0 {
            return Ok(like);
        }
        let width = hi.f_sub(&lo)?.f_max()?.f_double_value(&[])? + 1.0;
        if !width.is_finite() || width * (like.numel() as f64) > 5e7 {
            return Err(Error::NotImplemented(format!(
                "{}.entropy: the support to sum over is too wide ({width} values per distribution)",
                self.name()
            )));
        }
        let steps = Tensor::f_arange(width as i64, (tch::Kind::Double, like.device()))?;
        let k = lo.f_unsqueeze(-1)?.f_add(&steps)?;
        let expanded: Vec<Tensor> = args.iter().map(|a| a.f_unsqueeze(-1)).collect::<std::result::Result<_, _>>()?;
        let logp = self.logpmf(&k, &expanded)?;
        let p = logp.f_exp()?;
        let (_, top) = self.support(&expanded, &k)?;
        let keep = and(&and(&p.f_gt(0.0)?, &k.f_le_tensor(&top)?)?, &k.f_le_tensor(&hi.f_unsqueeze(-1)?)?)?;
        let terms = pick(&keep, &p.f_mul(&logp)?.f_neg()?, &k.f_zeros_like()?)?;
        Ok(terms.f_sum_dim_intlist(-1, false, tch::Kind::Double)?)
    }

    /// The quantile (`isf`: of the survival function) at `q` in (0, 1),
    /// computed where `cond` (elsewhere 0): the smallest integer `k` of the
    /// support with `cdf(k) >= q` (`sf(k) <= q`).
    pub(crate) fn quantile(self, isf: bool, q: &Tensor, cond: &Tensor, args: &[Tensor]) -> Result<Tensor> {
        let shape = q.size();
        let out = q.f_zeros_like()?;
        let index = cond.f_reshape([-1])?.f_nonzero()?.f_reshape([-1])?;
        if index.size()[0] == 0 {
            return Ok(out);
        }
        let select =
            |t: &Tensor| -> Result<Tensor> { Ok(t.f_expand_as(q)?.f_reshape([-1])?.f_index_select(0, &index)?) };
        let qs = select(q)?;
        let args: Vec<Tensor> = args.iter().map(select).collect::<Result<_>>()?;
        let (lo_end, hi_end) = self.support(&args, &qs)?;
        let (lo_end, hi_end) = (lo_end.f_expand_as(&qs)?, hi_end.f_expand_as(&qs)?);
        // P(k): true from the answer on
        let reached = |k: &Tensor| -> Result<Tensor> {
            let inside = k.f_clamp_tensor(Some(&lo_end), Some(&hi_end))?;
            let below = k.f_lt_tensor(&lo_end)?;
            let above = k.f_ge_tensor(&hi_end)?;
            let p = if isf {
                let sf = self.sf(&inside, &args)?;
                let sf = fill(&fill(&sf, &below, 1.0)?, &above, 0.0)?;
                sf.f_le_tensor(&qs)?
            } else {
                let cdf = self.cdf(&inside, &args)?;
                let cdf = fill(&fill(&cdf, &below, 0.0)?, &above, 1.0)?;
                cdf.f_ge_tensor(&qs)?
            };
            Ok(p)
        };
        // Cornish-Fisher first guess
        let [mu, var, g1, _] = self.stats(&args, &qs)?;
        let z = sp::ndtri(&qs)?;
        let z = if isf { z.f_neg()? } else { z };
        let w = z.f_add(&g1.f_mul(&z.f_square()?.f_sub_scalar(1.0)?)?.f_mul_scalar(1.0 / 6.0)?)?;
        let guess = mu.f_add(&var.f_sqrt()?.f_mul(&w)?)?.f_floor()?;
        let guess = pick(&guess.f_isfinite()?, &guess, &mu.f_floor()?)?;
        let guess = pick(&guess.f_isfinite()?, &guess, &lo_end)?;
        let lower_start = lo_end.f_sub_scalar(1.0)?;
        let k0 = guess.f_clamp_tensor(Some(&lower_start), Some(&hi_end))?;
        // bracket: lo with P false, hi with P true
        let nan = full(&qs, f64::NAN)?;
        let p0 = reached(&k0)?;
        let mut hi = pick(&p0, &k0, &nan)?;
        let mut lo = pick(&p0, &nan, &k0)?;
        let mut step = 1.0;
        let mut done = false;
        for _ in 0..SEARCH_STEPS {
            let need_lo = lo.f_isnan()?;
            let need_hi = hi.f_isnan()?;
            if or(&need_lo, &need_hi)?.f_any()?.f_int64_value(&[])? == 0 {
                done = true;
                break;
            }
            let cand_lo = hi.f_sub_scalar(step)?.f_maximum(&lower_start)?;
            let cand_hi = lo.f_add_scalar(step)?.f_minimum(&hi_end)?;
            let cand = pick(&need_lo, &cand_lo, &cand_hi)?;
            let cand = pick(&or(&need_lo, &need_hi)?, &cand, &k0)?;
            let p = reached(&cand)?;
            let active = or(&need_lo, &need_hi)?;
            hi = pick(&and(&active, &p)?, &cand, &hi)?;
            lo = pick(&and(&active, &p.f_logical_not()?)?, &cand, &lo)?;
            step *= 2.0;
        }
        if !done {
            return Err(Error::InvalidArgument(format!("{}: the quantile search did not converge", self.name())));
        }
        // integer bisection
        for _ in 0..SEARCH_STEPS {
            let open = hi.f_sub(&lo)?.f_gt(1.0)?;
            if open.f_any()?.f_int64_value(&[])? == 0 {
                break;
            }
            let mid = lo.f_add(&hi)?.f_mul_scalar(0.5)?.f_floor()?;
            let moved = and(&open, &and(&mid.f_gt_tensor(&lo)?, &mid.f_lt_tensor(&hi)?)?)?;
            if moved.f_any()?.f_int64_value(&[])? == 0 {
                break; // beyond 2^53 the integers are not all representable
            }
            let p = reached(&mid)?;
            hi = pick(&and(&moved, &p)?, &mid, &hi)?;
            lo = pick(&and(&moved, &p.f_logical_not()?)?, &mid, &lo)?;
        }
        Ok(out.f_reshape([-1])?.f_index_put(&[Some(index)], &hi, false)?.f_reshape(&shape)?)
    }
}
