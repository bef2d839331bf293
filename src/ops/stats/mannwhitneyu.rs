//! `scipy.stats._mannwhitneyu`: the Mann-Whitney U test, with the normal
//! approximation (tie-corrected, optional continuity correction) and the
//! exact null distribution of U, tabulated on the host from the two sample
//! sizes alone and looked up on the device.

use tch::{Kind, Tensor};

use super::stats_py::{
    finish_all, independent, normal_pvalue, promote, rankdata, Alternative, Axis, NanPolicy, RankMethod, Reduced,
};
use crate::{Error, Result};

/// `mannwhitneyu`'s `method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MwuMethod {
    /// Exact when one sample has at most 8 values and nothing is tied, else asymptotic.
    Auto,
    /// The normal approximation.
    Asymptotic,
    /// The exact distribution of U.
    Exact,
}

impl MwuMethod {
    /// SciPy's name for it.
    pub fn from_scipy(name: &str) -> Result<MwuMethod> {
        match name.to_lowercase().as_str() {
            "auto" => Ok(MwuMethod::Auto),
            "asymptotic" => Ok(MwuMethod::Asymptotic),
            "exact" => Ok(MwuMethod::Exact),
            _ => Err(Error::InvalidArgument("`method` must be one of {'asymptotic', 'exact', 'auto'}.".into())),
        }
    }
}

/// `P(U >= k)` for `k = 0 ..= n1 n2` under the null: the probabilities of
/// U by the recurrence `p(m, n, u) = m/(m+n) p(m-1, n, u-n) + n/(m+n) p(m, n-1, u)`.
fn mwu_sf_table(n1: usize, n2: usize) -> Vec<f64> {
    // rows[n] holds p(m, n, .) for the current m
    let mut rows: Vec<Vec<f64>> = (0..=n2).map(|_| vec![1.0]).collect();
    for m in 1..=n1 {
        let mut next: Vec<Vec<f64>> = Vec::with_capacity(n2 + 1);
        next.push(vec![1.0]);
        for n in 1..=n2 {
            let size = m * n + 1;
            let mut p = vec![0.0; size];
            let (a, b) = (m as f64 / (m + n) as f64, n as f64 / (m + n) as f64);
            for (u, v) in rows[n].iter().enumerate() {
                p[u + n] += a * v;
            }
            for (u, v) in next[n - 1].iter().enumerate() {
                p[u] += b * v;
            }
            next.push(p);
        }
        rows = next;
    }
    let pmf = &rows[n2];
    let mut sf = vec![0.0; pmf.len()];
    let mut acc = 0.0;
    for k in (0..pmf.len()).rev() {
        acc += pmf[k];
        sf[k] = acc;
    }
    // SciPy sums the smaller tail from the left: sf(k) = 1 - cdf(k - 1) there
    let mut cdf = 0.0;
    for k in 0..pmf.len() {
        if 2 * k < pmf.len() - 1 {
            sf[k] = 1.0 - cdf;
        }
        cdf += pmf[k];
    }
    sf
}

/// `mannwhitneyu`: U of the first sample and its p-value per slice.
#[allow(clippy::too_many_arguments)]
pub fn mannwhitneyu(
    x: &Tensor,
    y: &Tensor,
    use_continuity: bool,
    alternative: Alternative,
    axis: &Axis,
    method: MwuMethod,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let kind = promote(&[x.kind(), y.kind()])?;
    let ls = independent(&[x, y], axis, policy, kind)?;
    let (lx, ly) = (&ls[0], &ls[1]);
    let (n1, n2) = (lx.length, ly.length);
    if n1 == 0 || n2 == 0 || lx.x.numel() == 0 || ly.x.numel() == 0 {
        let z = Tensor::f_full(&lx.out_shape, f64::NAN, (lx.x.kind(), lx.x.device()))?;
        return finish_all(&[lx, ly], vec![z.shallow_clone(), z], 0, keepdims);
    }
    let omitted = lx.omit() || ly.omit();
    let xy = Tensor::f_cat(&[&lx.x.f_to_kind(Kind::Double)?, &ly.x.f_to_kind(Kind::Double)?], -1)?;
    let xy = if omitted {
        xy
    } else {
        // NaN slices propagate through the decorator; rank them as numbers meanwhile
        xy.f_nan_to_num(0.0, None, None)?
    };
    let lo = rankdata(&xy, RankMethod::Min, Some(-1), NanPolicy::Omit)?.f_to_kind(Kind::Double)?;
    let hi = rankdata(&xy, RankMethod::Max, Some(-1), NanPolicy::Omit)?.f_to_kind(Kind::Double)?;
    let ranks = lo.f_add(&hi)?.f_mul_scalar(0.5)?;
    let g = hi.f_sub(&lo)?.f_add_scalar(1.0)?;
    let valid = ranks.f_isnan()?.f_logical_not()?;
    let dims = [-1i64];
    let sum = |t: &Tensor| -> Result<Tensor> {
        Ok(t.f_masked_fill(&valid.f_logical_not()?, 0.0)?.f_sum_dim_intlist(dims.as_slice(), false, None::<Kind>)?)
    };
    let m1 = lx.count()?.f_to_kind(Kind::Double)?;
    let m2 = ly.count()?.f_to_kind(Kind::Double)?;
    let r1 = ranks.f_narrow(-1, 0, n1)?.f_nan_to_num(0.0, None, None)?.f_sum_dim_intlist(
        dims.as_slice(),
        false,
        None::<Kind>,
    )?;
    let u1 = r1.f_sub(&m1.f_mul(&m1.f_add_scalar(1.0)?)?.f_mul_scalar(0.5)?)?;
    let u2 = m1.f_mul(&m2)?.f_sub(&u1)?;
    let (u, factor) = match alternative {
        Alternative::Greater => (u1.shallow_clone(), 1.0),
        Alternative::Less => (u2, 1.0),
        Alternative::TwoSided => (u1.f_maximum(&u2)?, 2.0),
    };
    let any_ties = super::stats_py::any_true(&g.f_gt(1.0)?.f_logical_and(&valid)?)?;
    let exact = match method {
        MwuMethod::Exact => true,
        MwuMethod::Asymptotic => false,
        MwuMethod::Auto => !((n1 > 8 && n2 > 8) || any_ties),
    };
    let p = if exact {
        if omitted {
            return Err(Error::NotImplemented(
                "mannwhitneyu's exact p-value after nan_policy='omit' left NaNs out: use method='asymptotic'".into(),
            ));
        }
        let (a, b) = (n1 as usize, n2 as usize);
        if (a * b) as f64 * ((a * b) as f64) > 4e9 {
            return Err(Error::NotImplemented(format!(
                "mannwhitneyu method='exact' for samples of {n1} and {n2} values: use method='asymptotic'"
            )));
        }
        let table = Tensor::f_from_slice(&mwu_sf_table(a, b))?.f_to(u.device())?;
        let idx = u.f_clamp(0.0, (a * b) as f64)?.f_trunc()?.f_to_kind(Kind::Int64)?;
        table.f_take(&idx)?
    } else {
        let mu = m1.f_mul(&m2)?.f_mul_scalar(0.5)?;
        let n = m1.f_add(&m2)?;
        let tie_term = sum(&g.f_square()?.f_sub_scalar(1.0)?)?;
        let s = m1
            .f_mul(&m2)?
            .f_div_scalar(12.0)?
            .f_mul(&n.f_add_scalar(1.0)?.f_sub(&tie_term.f_div(&n.f_mul(&n.f_sub_scalar(1.0)?)?)?)?)?
            .f_sqrt()?;
        let mut num = u.f_sub(&mu)?;
        if use_continuity {
            num = num.f_sub_scalar(0.5)?;
        }
        let z = num.f_div(&s)?;
        normal_pvalue(&z, Alternative::Greater)?
    };
    let p = p.f_mul_scalar(factor)?.f_clamp(0.0, 1.0)?;
    let out = lx.x.kind();
    finish_all(&[lx, ly], vec![u1.f_to_kind(out)?, p.f_to_kind(out)?], 0, keepdims)
}
