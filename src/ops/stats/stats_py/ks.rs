//! The Kolmogorov-Smirnov tests of `scipy.stats._stats_py`: `ks_1samp` and
//! `ks_2samp`.
//!
//! The statistics are device work, one slice per row of the laid-out input:
//! a sort, the empirical CDFs (`searchsorted` of the pooled values in each
//! sorted sample for two samples; `i/n` against the given CDF for one), the
//! extreme differences with their first position (`argmax`), the location
//! gathered from the data. The p-values are scalar functions of each row's
//! statistic and sample sizes: the statistics (one per row) go to the host,
//! [`crate::ops::stats::ksstats`] evaluates the distributions there, and the
//! p-values come back to the device.
//!
//! Under `nan_policy="omit"` each row keeps its own count: NaNs sort last and
//! are masked out of the extremes (and, for two samples, counted out of the
//! CDFs), so rows of different lengths need no per-row loop.

use tch::{Kind, Tensor};

use super::{finish_all, from_host, host, independent, Alternative, Axis, Layout, NanPolicy, Reduced, Warning};
use crate::ops::stats::ksstats;
use crate::{Error, Result};

/// `ks_1samp`'s `method` for the two-sided test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ks1Method {
    /// SciPy's choice: always the exact distribution of `D_n`.
    Auto,
    /// The exact distribution of `D_n` (`kstwo`).
    Exact,
    /// Kolmogorov's limiting distribution of `sqrt(n) D_n` (`kstwobign`).
    Asymp,
    /// Twice the one-sided (Smirnov) p-value.
    Approx,
}

impl Ks1Method {
    /// SciPy's name for it.
    pub fn from_scipy(name: &str) -> Result<Ks1Method> {
        match name {
            "auto" => Ok(Ks1Method::Auto),
            "exact" => Ok(Ks1Method::Exact),
            "asymp" => Ok(Ks1Method::Asymp),
            "approx" => Ok(Ks1Method::Approx),
            _ => Err(Error::InvalidArgument(format!(
                "Invalid value for method: {name} (one of 'auto', 'exact', 'approx', 'asymp')"
            ))),
        }
    }
}

/// `ks_2samp`'s `method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ks2Method {
    /// Exact when both samples have at most 10000 values, else asymptotic.
    Auto,
    /// The exact distribution (falling back, with SciPy's warnings, where it cannot be computed).
    Exact,
    /// The asymptotic distribution.
    Asymp,
}

impl Ks2Method {
    /// SciPy's name for it.
    pub fn from_scipy(name: &str) -> Result<Ks2Method> {
        match name {
            "auto" => Ok(Ks2Method::Auto),
            "exact" => Ok(Ks2Method::Exact),
            "asymp" => Ok(Ks2Method::Asymp),
            _ => Err(Error::InvalidArgument(format!("Invalid value for mode: {name}"))),
        }
    }
}

/// SciPy's message when an exact two-sample p-value cannot be computed.
pub const KS2_EXACT_UNSUCCESSFUL: &str = "ks_2samp: Exact calculation unsuccessful. Switching to method=asymp.";

fn alt_code(alternative: Alternative) -> i8 {
    match alternative {
        Alternative::TwoSided => 0,
        Alternative::Less => -1,
        Alternative::Greater => 1,
    }
}

/// `ks_2samp`: per slice `D`, its p-value, its location and sign (all `float64`
/// but the sign, `int8`).
pub fn ks_2samp(
    data1: &Tensor,
    data2: &Tensor,
    alternative: Alternative,
    method: Ks2Method,
    axis: &Axis,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    super::promote(&[data1.kind(), data2.kind()])?;
    let ls = independent(&[data1, data2], axis, policy, Kind::Double)?;
    let (l1, l2) = (&ls[0], &ls[1]);
    if l1.length == 0 || l2.length == 0 || l1.x.numel() == 0 || l2.x.numel() == 0 {
        let z = Tensor::f_full(&l1.out_shape, f64::NAN, (Kind::Double, l1.x.device()))?;
        return finish_all(&[l1, l2], vec![z.shallow_clone(), z.shallow_clone(), z.shallow_clone(), z], 0, keepdims);
    }
    let (s1, _) = l1.x.f_sort(-1, false)?;
    let (s2, _) = l2.x.f_sort(-1, false)?;
    let c1 = l1.count()?.f_to_kind(Kind::Int64)?;
    let c2 = l2.count()?.f_to_kind(Kind::Int64)?;
    // NaNs (last after the sort) stand in as +inf for the search; the counts clamp them out
    let f1 = s1.f_nan_to_num(f64::INFINITY, None, None)?.f_contiguous()?;
    let f2 = s2.f_nan_to_num(f64::INFINITY, None, None)?.f_contiguous()?;
    let pooled = Tensor::f_cat(&[&s1, &s2], -1)?;
    let search = Tensor::f_cat(&[&f1, &f2], -1)?.f_contiguous()?;
    let cdf = |sorted: &Tensor, count: &Tensor| -> Result<Tensor> {
        let k = search.f_searchsorted(sorted, false, true, "right", None::<Tensor>)?;
        let c = count.f_unsqueeze(-1)?;
        Ok(k.f_minimum(&c)?.f_to_kind(Kind::Double)?.f_div(&c.f_to_kind(Kind::Double)?)?)
    };
    let diffs = cdf(&f1, &c1)?.f_sub(&cdf(&f2, &c2)?)?;
    let (for_min, for_max) = if l1.omit() || l2.omit() {
        let invalid = pooled.f_isnan()?;
        (diffs.f_masked_fill(&invalid, f64::INFINITY)?, diffs.f_masked_fill(&invalid, f64::NEG_INFINITY)?)
    } else {
        (diffs.shallow_clone(), diffs.shallow_clone())
    };
    let arg_min = for_min.f_argmin(-1, true)?;
    let arg_max = for_max.f_argmax(-1, true)?;
    let min_s = diffs.f_gather(-1, &arg_min, false)?.f_squeeze_dim(-1)?.f_neg()?.f_clamp(0.0, 1.0)?;
    let max_s = diffs.f_gather(-1, &arg_max, false)?.f_squeeze_dim(-1)?;
    let loc_min = pooled.f_gather(-1, &arg_min, false)?.f_squeeze_dim(-1)?;
    let loc_max = pooled.f_gather(-1, &arg_max, false)?.f_squeeze_dim(-1)?;
    let use_min = match alternative {
        Alternative::Less => min_s.f_ones_like()?.f_to_kind(Kind::Bool)?,
        Alternative::Greater => min_s.f_zeros_like()?.f_to_kind(Kind::Bool)?,
        Alternative::TwoSided => min_s.f_gt_tensor(&max_s)?,
    };
    let d = min_s.f_where_self(&use_min, &max_s)?;
    let loc = loc_min.f_where_self(&use_min, &loc_max)?;
    let sign = Tensor::f_full(&l1.out_shape, 1i64, (Kind::Int8, d.device()))?.f_masked_fill(&use_min, -1)?;
    // the p-values: scalar functions of (n1, n2, d) per row, on the host
    let (hd, h1, h2) = (host(&d)?, host(&c1)?, host(&c2)?);
    let exact = match method {
        Ks2Method::Auto => None,
        Ks2Method::Exact => Some(true),
        Ks2Method::Asymp => Some(false),
    };
    let mut dv = Vec::with_capacity(hd.len());
    let mut pv = Vec::with_capacity(hd.len());
    let mut warnings: Vec<Warning> = Vec::new();
    for i in 0..hd.len() {
        let (n1, n2) = (h1[i] as i64, h2[i] as i64);
        if n1 == 0 || n2 == 0 || hd[i].is_nan() {
            dv.push(f64::NAN);
            pv.push(f64::NAN);
            continue;
        }
        let r = ksstats::ks_2samp_pvalue(n1, n2, hd[i], alt_code(alternative), exact);
        if r.lcm_too_big {
            let w = Warning::RuntimeText(format!(
                "Exact ks_2samp calculation not possible with samples sizes {n1} and {n2}. Switching to 'asymp'."
            ));
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
        if r.exact_failed && !warnings.contains(&Warning::Runtime(KS2_EXACT_UNSUCCESSFUL)) {
            warnings.push(Warning::Runtime(KS2_EXACT_UNSUCCESSFUL));
        }
        dv.push(r.d);
        pv.push(r.p);
    }
    let d = from_host(&dv, &d)?;
    let p = from_host(&pv, &d)?;
    let mut r = finish_all(&[l1, l2], vec![d, p, loc, sign], 0, keepdims)?;
    r.warnings.splice(0..0, warnings);
    Ok(r)
}

/// `ks_1samp`'s first half: each slice of `x` sorted (NaN last), in the
/// layout the CDF is evaluated on.
pub struct Ks1Prepared {
    layout: Layout,
    /// The sorted slices, `(*out_shape, n)`: what the CDF is called on.
    pub sorted: Tensor,
}

/// Lays `x` out over `axis` and sorts each slice (the CDF's argument).
pub fn ks_1samp_prepare(x: &Tensor, axis: &Axis, policy: NanPolicy) -> Result<Ks1Prepared> {
    let layout = Layout::new(x, axis, policy)?;
    let (sorted, _) = layout.x.f_sort(-1, false)?;
    Ok(Ks1Prepared { layout, sorted })
}

/// `ks_1samp`'s second half: `D` against the CDF values of the sorted
/// slices, its p-value, location and sign.
pub fn ks_1samp_finish(
    prepared: Ks1Prepared,
    cdfvals: &Tensor,
    alternative: Alternative,
    method: Ks1Method,
    keepdims: bool,
) -> Result<Reduced> {
    let l = &prepared.layout;
    let x = &prepared.sorted;
    let kind = x.kind();
    if l.length == 0 || x.numel() == 0 {
        let z = Tensor::f_full(&l.out_shape, f64::NAN, (kind, x.device()))?;
        return l.finish(vec![z.shallow_clone(), z.shallow_clone(), z.shallow_clone(), z], 0, true, keepdims);
    }
    let cdfvals = cdfvals
        .f_to_kind(kind)?
        .f_to_device(x.device())?
        .f_broadcast_to(x.size())
        .map_err(|_| Error::InvalidArgument("the CDF must return an array of the shape of its argument".into()))?;
    let n = l.count()?.f_to_kind(kind)?.f_unsqueeze(-1)?;
    let i = Tensor::f_arange_start(1i64, l.length + 1, (kind, x.device()))?;
    let d_plus = i.f_div(&n)?.f_sub(&cdfvals)?;
    let d_minus = cdfvals.f_sub(&i.f_sub_scalar(1.0)?.f_div(&n)?)?;
    let (d_plus, d_minus) = if l.omit() {
        let invalid = i.f_gt_tensor(&n)?;
        (d_plus.f_masked_fill(&invalid, f64::NEG_INFINITY)?, d_minus.f_masked_fill(&invalid, f64::NEG_INFINITY)?)
    } else {
        (d_plus, d_minus)
    };
    let extreme = |d: &Tensor| -> Result<(Tensor, Tensor)> {
        let a = d.f_argmax(-1, true)?;
        Ok((d.f_gather(-1, &a, false)?.f_squeeze_dim(-1)?, x.f_gather(-1, &a, false)?.f_squeeze_dim(-1)?))
    };
    let ones = Tensor::f_ones(&l.out_shape, (Kind::Int8, x.device()))?;
    let (d, loc, sign) = match alternative {
        Alternative::Greater => {
            let (d, loc) = extreme(&d_plus)?;
            (d, loc, ones)
        }
        Alternative::Less => {
            let (d, loc) = extreme(&d_minus)?;
            (d, loc, ones.f_neg()?)
        }
        Alternative::TwoSided => {
            let (dp, lp) = extreme(&d_plus)?;
            let (dm, lm) = extreme(&d_minus)?;
            let plus = dp.f_gt_tensor(&dm)?;
            (dp.f_where_self(&plus, &dm)?, lp.f_where_self(&plus, &lm)?, ones.f_where_self(&plus, &ones.f_neg()?)?)
        }
    };
    let (hd, hn) = (host(&d)?, host(&n)?);
    let pv: Vec<f64> = hd
        .iter()
        .zip(hn.iter())
        .map(|(&d, &n)| {
            let n = n as i64;
            if d.is_nan() || n == 0 {
                return f64::NAN;
            }
            let p = match (alternative, method) {
                (Alternative::Greater | Alternative::Less, _) => ksstats::smirnov(n, d),
                (Alternative::TwoSided, Ks1Method::Auto | Ks1Method::Exact) => ksstats::kolmogn(n, d, false),
                (Alternative::TwoSided, Ks1Method::Asymp) => ksstats::kolmogorov(d * (n as f64).sqrt()),
                (Alternative::TwoSided, Ks1Method::Approx) => 2.0 * ksstats::smirnov(n, d),
            };
            p.clamp(0.0, 1.0)
        })
        .collect();
    let p = from_host(&pv, &d)?.f_to_kind(kind)?;
    l.finish(vec![d, p, loc, sign], 0, true, keepdims)
}

/// `ks_1samp` with the CDF as a Rust function of the sorted slices.
#[allow(clippy::too_many_arguments)]
pub fn ks_1samp(
    x: &Tensor,
    cdf: impl FnOnce(&Tensor) -> Result<Tensor>,
    alternative: Alternative,
    method: Ks1Method,
    axis: &Axis,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let prepared = ks_1samp_prepare(x, axis, policy)?;
    let values = cdf(&prepared.sorted)?;
    ks_1samp_finish(prepared, &values, alternative, method, keepdims)
}
