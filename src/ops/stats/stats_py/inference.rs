//! The inference half of `scipy.stats._stats_py`: the correlations
//! (`pearsonr`, `spearmanr`, `kendalltau`, `linregress`) and the tests
//! (`ttest_1samp`, `ttest_ind`, `ttest_rel`, `power_divergence`/`chisquare`,
//! `f_oneway`), with SciPy's `axis`/`keepdims`/`nan_policy` semantics through
//! [`Layout`] and p-values from `crate::ops::special` (`stdtr`, `betainc`,
//! `betaincc`, `chdtrc`, `fdtrc`, `ndtr`) on the data's device.
//!
//! Several samples are laid out together ([`independent`], [`paired`]): the
//! dimensions other than the reduced ones broadcast, as SciPy's decorator
//! broadcasts them; a paired sample's NaNs count as the first's. Exact null
//! distributions (Kendall's tau without ties) are tabulated on the host from
//! the sample size alone and looked up on the device: no data leaves it.

use tch::{Kind, Tensor};

use super::{any, result_kind, Axis, Layout, NanPolicy, Reduced, Warning};
use crate::ops::numpy::{broadcast_shapes, normalize_axis};
use crate::ops::special;
use crate::{Error, Result};

/// SciPy's `alternative`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alternative {
    /// The statistic differs from the null's in either direction.
    TwoSided,
    /// The statistic is smaller than the null's.
    Less,
    /// The statistic is greater.
    Greater,
}

impl Alternative {
    /// The alternative SciPy names `name`.
    pub fn from_scipy(name: &str) -> Result<Alternative> {
        match name {
            "two-sided" => Ok(Alternative::TwoSided),
            "less" => Ok(Alternative::Less),
            "greater" => Ok(Alternative::Greater),
            _ => Err(Error::InvalidArgument("`alternative` must be 'less', 'greater', or 'two-sided'.".into())),
        }
    }
}

/// SciPy's `ConstantInputWarning` message.
pub const CONSTANT_INPUT: &str = "An input array is constant; the correlation coefficient is not defined.";
/// SciPy's `NearConstantInputWarning` message (`pearsonr`).
pub const NEAR_CONSTANT_INPUT: &str =
    "An input array is nearly constant; the computed correlation coefficient may be inaccurate.";

/// A small per-slice tensor's values on the host (as `f64`), for the
/// p-values computed there (see `crate::ops::stats`' module docs).
pub(crate) fn host(t: &Tensor) -> Result<Vec<f64>> {
    let t = t.f_to_kind(Kind::Double)?.f_to_device(tch::Device::Cpu)?.f_contiguous()?.f_reshape([-1])?;
    let n = t.numel();
    let mut out = vec![0.0f64; n];
    t.f_copy_data(&mut out, n)?;
    Ok(out)
}

/// Values computed on the host ([`host`]), back on `like`'s device in its shape.
pub(crate) fn from_host(values: &[f64], like: &Tensor) -> Result<Tensor> {
    Ok(Tensor::f_from_slice(values)?.f_reshape(like.size())?.f_to(like.device())?)
}

/// The floating kind several inputs promote to (`xp_promote(force_floating=True)`).
pub(crate) fn promote(kinds: &[Kind]) -> Result<Kind> {
    let mut out: Option<Kind> = None;
    for &k in kinds {
        let k = result_kind(k)?;
        out = Some(match out {
            None => k,
            Some(o) if o == k => o,
            Some(o) if o == Kind::Double || k == Kind::Double => Kind::Double,
            Some(_) => Kind::Float,
        });
    }
    Ok(out.unwrap_or(Kind::Double))
}

/// The p-value of `stat` under a symmetric distribution with the given `cdf`
/// (SciPy's `_get_pvalue`: `sf(x) = cdf(-x)`).
fn symmetric_pvalue(
    stat: &Tensor,
    alternative: Alternative,
    cdf: impl Fn(&Tensor) -> Result<Tensor>,
) -> Result<Tensor> {
    Ok(match alternative {
        Alternative::Less => cdf(stat)?,
        Alternative::Greater => cdf(&stat.f_neg()?)?,
        Alternative::TwoSided => cdf(&stat.f_abs()?.f_neg()?)?.f_mul_scalar(2.0)?,
    })
}

/// Student's t p-value with `df` degrees of freedom.
pub(crate) fn t_pvalue(t: &Tensor, df: &Tensor, alternative: Alternative) -> Result<Tensor> {
    let df = df.f_to_kind(t.kind())?;
    symmetric_pvalue(t, alternative, |x| special::stdtr(&df, x))
}

/// The standard normal p-value.
pub(crate) fn normal_pvalue(z: &Tensor, alternative: Alternative) -> Result<Tensor> {
    symmetric_pvalue(z, alternative, special::ndtr)
}

/// The shape of `t` with its `ndim` padded by leading ones.
fn padded(t: &Tensor, ndim: usize) -> Result<Tensor> {
    let mut shape = vec![1i64; ndim - t.dim()];
    shape.extend(t.size());
    Ok(t.f_reshape(&shape)?)
}

/// The reduced axes (normalised against `ndim`), or `None` for all of them.
fn reduced_axes(axis: &Axis, ndim: usize) -> Result<Option<Vec<usize>>> {
    match axis {
        Axis::All => Ok(None),
        Axis::Dims(dims) => {
            let mut out = Vec::new();
            for &d in dims {
                let a = normalize_axis(d, ndim)?;
                if out.contains(&a) {
                    return Err(Error::InvalidArgument("repeated axis".into()));
                }
                out.push(a);
            }
            Ok(Some(out))
        }
    }
}

/// Independent samples laid out together: each in `kind`, its reduced axes
/// flattened last, the other dimensions broadcast against the others'.
pub fn independent(samples: &[&Tensor], axis: &Axis, policy: NanPolicy, kind: Kind) -> Result<Vec<Layout>> {
    let ndim = samples.iter().map(|s| s.dim().max(1)).max().unwrap_or(1);
    let samples = samples.iter().map(|s| padded(&s.f_to_kind(kind)?, ndim)).collect::<Result<Vec<Tensor>>>()?;
    let Some(reduced) = reduced_axes(axis, ndim)? else {
        return samples.iter().map(|s| Layout::new(s, &Axis::All, policy)).collect();
    };
    let kept: Vec<usize> = (0..ndim).filter(|a| !reduced.contains(a)).collect();
    let kept_shapes: Vec<Vec<i64>> = samples.iter().map(|s| kept.iter().map(|&a| s.size()[a]).collect()).collect();
    let refs: Vec<&[i64]> = kept_shapes.iter().map(Vec::as_slice).collect();
    let common = broadcast_shapes(&refs)
        .map_err(|_| Error::InvalidArgument("Array shapes are incompatible for broadcasting.".into()))?;
    let dims: Vec<i64> = reduced.iter().map(|&a| a as i64).collect();
    samples
        .iter()
        .map(|s| {
            let mut target = s.size();
            for (i, &a) in kept.iter().enumerate() {
                target[a] = common[i];
            }
            Layout::new(&s.f_expand(&target, false)?, &Axis::Dims(dims.clone()), policy)
        })
        .collect()
}

/// Paired samples: broadcast together and laid out as the first, each one's
/// NaNs counting as the first's; the laid-out others are returned.
pub fn paired(samples: &[&Tensor], axis: &Axis, policy: NanPolicy, kind: Kind) -> Result<(Layout, Vec<Tensor>)> {
    let shapes: Vec<Vec<i64>> = samples.iter().map(|s| s.size()).collect();
    let refs: Vec<&[i64]> = shapes.iter().map(Vec::as_slice).collect();
    let shape = broadcast_shapes(&refs)
        .map_err(|_| Error::InvalidArgument("Array shapes are incompatible for broadcasting.".into()))?;
    let first = samples[0].f_to_kind(kind)?.f_expand(&shape, false)?;
    let mut l = Layout::new(&first, axis, policy)?;
    let mut others = Vec::new();
    for s in &samples[1..] {
        let o = l.lay(&s.f_to_kind(kind)?, &shape)?;
        l.pair(&o)?;
        others.push(o);
    }
    Ok((l, others))
}

/// Finishes results over several layouts (NaN where any is too small or propagates NaN).
pub(crate) fn finish_all(layouts: &[&Layout], values: Vec<Tensor>, too_small: i64, keepdims: bool) -> Result<Reduced> {
    let mut values = values;
    let mut warnings: Vec<Warning> = Vec::new();
    for (i, l) in layouts.iter().enumerate() {
        let r = l.finish(values, too_small, true, keepdims && i + 1 == layouts.len())?;
        values = r.values;
        for w in r.warnings {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    Ok(Reduced { values, warnings })
}

/// The sample variance (`ddof`) of each slice of `l`, with its mean and count.
fn mean_var(l: &Layout, ddof: f64) -> Result<(Tensor, Tensor, Tensor)> {
    let n = l.count()?;
    let mean = l.mean(&n)?;
    let m2 = l.central(&mean, 2.0, &n)?;
    let var = m2.f_mul(&n)?.f_div(&n.f_sub_scalar(ddof)?)?;
    Ok((mean, var, n))
}

/// `ttest_1samp`: `t = (mean - popmean) / sqrt(var / n)` with `n - 1`
/// degrees of freedom; `popmean` broadcasts against the result kept with its
/// reduced axes. Results: `t`, the p-value, `df`.
pub fn ttest_1samp(
    a: &Tensor,
    popmean: &Tensor,
    axis: &Axis,
    policy: NanPolicy,
    alternative: Alternative,
    keepdims: bool,
) -> Result<Reduced> {
    let kind = promote(&[a.kind(), popmean.kind()])?;
    let l = Layout::new(&a.f_to_kind(kind)?, axis, policy)?;
    let popmean = popmean
        .f_to_kind(l.x.kind())?
        .f_expand(&l.keep_shape, false)
        .map_err(|_| Error::InvalidArgument("`popmean.shape[axis]` must equal 1.".into()))?
        .f_reshape(&l.out_shape)?;
    one_sample_t(&l, &popmean, alternative, keepdims)
}

fn one_sample_t(l: &Layout, popmean: &Tensor, alternative: Alternative, keepdims: bool) -> Result<Reduced> {
    let (mean, var, n) = mean_var(l, 1.0)?;
    let denom = var.f_div(&n)?.f_sqrt()?;
    let t = mean.f_sub(popmean)?.f_div(&denom)?;
    let df = n.f_sub_scalar(1.0)?;
    let p = t_pvalue(&t, &df, alternative)?;
    l.finish(vec![t, p, df], 0, true, keepdims)
}

/// `ttest_rel`: [`ttest_1samp`] of the differences `a - b` against 0.
pub fn ttest_rel(
    a: &Tensor,
    b: &Tensor,
    axis: &Axis,
    policy: NanPolicy,
    alternative: Alternative,
    keepdims: bool,
) -> Result<Reduced> {
    let kind = promote(&[a.kind(), b.kind()])?;
    let shape = broadcast_shapes(&[&a.size(), &b.size()])
        .map_err(|_| Error::InvalidArgument("Array shapes are incompatible for broadcasting.".into()))?;
    let d = a.f_to_kind(kind)?.f_expand(&shape, false)?.f_sub(&b.f_to_kind(kind)?)?;
    let l = Layout::new(&d, axis, policy)?;
    let zero = Tensor::f_zeros(&l.out_shape, (l.x.kind(), l.x.device()))?;
    one_sample_t(&l, &zero, alternative, keepdims)
}

/// `ttest_ind`: Student's (`equal_var`) or Welch's two-sample t test.
/// Results: `t`, the p-value, `df`.
pub fn ttest_ind(
    a: &Tensor,
    b: &Tensor,
    axis: &Axis,
    equal_var: bool,
    policy: NanPolicy,
    alternative: Alternative,
    keepdims: bool,
) -> Result<Reduced> {
    let kind = promote(&[a.kind(), b.kind()])?;
    let ls = independent(&[a, b], axis, policy, kind)?;
    let (m1, v1, n1) = mean_var(&ls[0], 1.0)?;
    let (m2, v2, n2) = mean_var(&ls[1], 1.0)?;
    let (df, denom) = if equal_var {
        let v1 = v1.f_masked_fill(&n1.f_eq(1.0)?, 0.0)?;
        let v2 = v2.f_masked_fill(&n2.f_eq(1.0)?, 0.0)?;
        let df = n1.f_add(&n2)?.f_sub_scalar(2.0)?;
        let svar = n1.f_sub_scalar(1.0)?.f_mul(&v1)?.f_add(&n2.f_sub_scalar(1.0)?.f_mul(&v2)?)?.f_div(&df)?;
        let denom = svar.f_mul(&n1.f_reciprocal()?.f_add(&n2.f_reciprocal()?)?)?.f_sqrt()?;
        (df, denom)
    } else {
        let vn1 = v1.f_div(&n1)?;
        let vn2 = v2.f_div(&n2)?;
        let s = vn1.f_add(&vn2)?;
        let df = s.f_square()?.f_div(
            &vn1.f_square()?.f_div(&n1.f_sub_scalar(1.0)?)?.f_add(&vn2.f_square()?.f_div(&n2.f_sub_scalar(1.0)?)?)?,
        )?;
        let df = df.f_masked_fill(&df.f_isnan()?, 1.0)?;
        (df, s.f_sqrt()?)
    };
    let t = m1.f_sub(&m2)?.f_div(&denom)?;
    let p = t_pvalue(&t, &df, alternative)?;
    finish_all(&[&ls[0], &ls[1]], vec![t, p, df], 0, keepdims)
}

/// `pearsonr`'s numbers: `r`, the p-value, and which warnings SciPy gives
/// (constant input, nearly constant input). `axis` `None` flattens both.
pub fn pearsonr(x: &Tensor, y: &Tensor, alternative: Alternative, axis: Option<i64>) -> Result<Reduced> {
    let kind = promote(&[x.kind(), y.kind()])?;
    let (x, y, axis) = match axis {
        None => (x.f_reshape([-1])?, y.f_reshape([-1])?, -1),
        Some(a) => (x.shallow_clone(), y.shallow_clone(), a),
    };
    let shape = broadcast_shapes(&[&x.size(), &y.size()])
        .map_err(|_| Error::InvalidArgument("`x` and `y` must be broadcastable.".into()))?;
    let ndim = shape.len().max(1);
    let (x, y) = (padded(&x, ndim)?, padded(&y, ndim)?);
    let ax = normalize_axis(axis, ndim)?;
    if x.size()[ax] != y.size()[ax] {
        return Err(Error::InvalidArgument("`x` and `y` must have the same length along `axis`.".into()));
    }
    let n = x.size()[ax];
    if n < 2 {
        return Err(Error::InvalidArgument("`x` and `y` must have length at least 2.".into()));
    }
    let mut target = shape.clone();
    if target.is_empty() {
        target.push(1);
    }
    target[ax] = n;
    let x = x.f_to_kind(kind)?.f_expand(&target, false)?.f_movedim([ax as i64], [-1])?;
    let y = y.f_to_kind(kind)?.f_expand(&target, false)?.f_movedim([ax as i64], [-1])?;
    let work = super::compute_kind(kind);
    let (x, y) = (x.f_to_kind(work)?, y.f_to_kind(work)?);
    let dims = [-1i64];
    // one pass each for the mean, the deviations, their range and their sums of products
    let centred = |t: &Tensor| -> Result<(Tensor, Tensor, Tensor, Tensor, Tensor)> {
        let mean = t.f_mean_dim(dims.as_slice(), true, None::<Kind>)?;
        let tm = t.f_sub(&mean)?;
        let (lo, hi) = t.f_aminmax(-1, false)?;
        // SciPy's test `all(x == x[0])`: the range is 0 (NaN compares unequal)
        let constant = lo.f_eq_tensor(&hi)?;
        let ss = tm.f_square()?.f_sum_dim_intlist(dims.as_slice(), true, None::<Kind>)?;
        Ok((tm, ss, mean, constant, hi.f_sub(&lo)?))
    };
    let (xm, ssx, xmean, const_x, xrange) = centred(&x)?;
    let (ym, ssy, ymean, const_y, yrange) = centred(&y)?;
    let const_xy = const_x.f_logical_or(&const_y)?;
    let mut warnings = Vec::new();
    if any(&const_xy)? {
        warnings.push(Warning::ConstantInput(CONSTANT_INPUT));
    }
    // SciPy scales the deviations by their largest before squaring them; the
    // plain sums agree unless the squares overflow or underflow, where the
    // scaled form is taken
    let tiny = if work == Kind::Double { 1e-140 } else { 1e-17 };
    let huge = if work == Kind::Double { 1e140 } else { 1e17 };
    let extreme = |r: &Tensor| -> Result<bool> {
        any(&r.f_gt(huge)?.f_logical_or(&r.f_lt(tiny)?.f_logical_and(&r.f_gt(0.0)?)?)?)
    };
    let scaled = extreme(&xrange)? || extreme(&yrange)?;
    let norm = |tm: &Tensor, ss: &Tensor| -> Result<Tensor> {
        if scaled {
            let tmax = tm.f_abs()?.f_amax(dims.as_slice(), true)?;
            let s = tm.f_div(&tmax)?.f_square()?.f_sum_dim_intlist(dims.as_slice(), true, None::<Kind>)?;
            Ok(s.f_sqrt()?.f_mul(&tmax)?)
        } else {
            Ok(ss.f_sqrt()?)
        }
    };
    let (normx, normy) = (norm(&xm, &ssx)?, norm(&ym, &ssy)?);
    let threshold = super::eps(work).powf(0.75);
    let near = |norm: &Tensor, mean: &Tensor| -> Result<Tensor> {
        Ok(norm.f_lt_tensor(&mean.f_abs()?.f_mul_scalar(threshold)?)?.f_squeeze_dim(-1)?)
    };
    let nconst = near(&normx, &xmean)?.f_logical_or(&near(&normy, &ymean)?)?;
    if any(&nconst.f_logical_and(&const_xy.f_logical_not()?)?)? {
        warnings.push(Warning::NearConstantInput(NEAR_CONSTANT_INPUT));
    }
    let r = if scaled {
        xm.f_div(&normx)?.f_mul(&ym.f_div(&normy)?)?.f_sum_dim_intlist(dims.as_slice(), false, None::<Kind>)?
    } else {
        xm.f_mul(&ym)?
            .f_sum_dim_intlist(dims.as_slice(), false, None::<Kind>)?
            .f_div(&normx.f_mul(&normy)?.f_squeeze_dim(-1)?)?
    };
    let r = r.f_clamp(-1.0, 1.0)?.f_masked_fill(&const_xy, f64::NAN)?;
    let (r, p) = if n == 2 {
        let r = r.f_round()?;
        let p = r.f_ones_like()?.f_masked_fill(&r.f_isnan()?, f64::NAN)?;
        (r, p)
    } else {
        let ab = r.f_full_like(n as f64 / 2.0 - 1.0)?;
        let half = |t: &Tensor| -> Result<Tensor> { Ok(t.f_add_scalar(1.0)?.f_mul_scalar(0.5)?) };
        let p = match alternative {
            Alternative::Less => special::betainc(&ab, &ab, &half(&r)?)?,
            Alternative::Greater => special::betaincc(&ab, &ab, &half(&r)?)?,
            Alternative::TwoSided => special::betaincc(&ab, &ab, &half(&r.f_abs()?)?)?.f_mul_scalar(2.0)?,
        };
        (r, p)
    };
    let cast = |t: Tensor| -> Result<Tensor> { Ok(if t.kind() != kind { t.f_to_kind(kind)? } else { t }) };
    Ok(Reduced { values: vec![cast(r)?, cast(p)?], warnings })
}

/// `linregress`: `slope`, `intercept`, `rvalue`, `pvalue`, `stderr`,
/// `intercept_stderr` of the least-squares line through each slice's pairs.
pub fn linregress(
    x: &Tensor,
    y: &Tensor,
    alternative: Alternative,
    axis: &Axis,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let kind = promote(&[x.kind(), y.kind()])?;
    let (l, others) = paired(&[x, y], axis, policy, kind)?;
    if l.length == 0 {
        return Err(Error::InvalidArgument("Inputs must not be empty.".into()));
    }
    let y = &others[0];
    let n = l.count()?;
    let xmean = l.mean(&n)?;
    let ymean = l.sum(y)?.f_div(&n)?;
    let xd = l.x.f_sub(&xmean.f_unsqueeze(-1)?)?;
    let yd = y.f_sub(&ymean.f_unsqueeze(-1)?)?;
    let ssxm = l.sum(&xd.f_square()?)?.f_div(&n)?;
    let ssym = l.sum(&yd.f_square()?)?.f_div(&n)?;
    let ssxym = l.sum(&xd.f_mul(&yd)?)?.f_div(&n)?;
    // SciPy raises for a slice (of more than one value) whose x are all equal
    let valid = if l.omit() { l.nans.as_ref().map(Tensor::f_logical_not).transpose()? } else { None };
    let (lo, hi) = match &valid {
        Some(v) => (
            l.x.f_masked_fill(&v.f_logical_not()?, f64::INFINITY)?.f_amin([-1i64].as_slice(), false)?,
            l.x.f_masked_fill(&v.f_logical_not()?, f64::NEG_INFINITY)?.f_amax([-1i64].as_slice(), false)?,
        ),
        None => (l.x.f_amin([-1i64].as_slice(), false)?, l.x.f_amax([-1i64].as_slice(), false)?),
    };
    if any(&lo.f_eq_tensor(&hi)?.f_logical_and(&n.f_gt(1.0)?)?)? {
        return Err(Error::InvalidArgument(
            "Cannot calculate a linear regression if all x values are identical".into(),
        ));
    }
    let degenerate = ssxm.f_eq(0.0)?.f_logical_or(&ssym.f_eq(0.0)?)?;
    let r = ssxym.f_div(&ssxm.f_mul(&ssym)?.f_sqrt()?)?.f_clamp(-1.0, 1.0)?;
    let special_r = ssxym.f_zeros_like()?.f_masked_fill(&ssxym.f_eq(0.0)?, f64::NAN)?;
    let r = special_r.f_where_self(&degenerate, &r)?;
    let slope = ssxym.f_div(&ssxm)?;
    let intercept = ymean.f_sub(&slope.f_mul(&xmean)?)?;
    const TINY: f64 = 1e-20;
    let df = n.f_sub_scalar(2.0)?;
    let t =
        r.f_mul(&df.f_div(&r.f_neg()?.f_add_scalar(1.0 + TINY)?.f_mul(&r.f_add_scalar(1.0 + TINY)?)?)?.f_sqrt()?)?;
    let p = t_pvalue(&t, &df, alternative)?;
    let stderr = r.f_square()?.f_neg()?.f_add_scalar(1.0)?.f_mul(&ssym)?.f_div(&ssxm)?.f_div(&df)?.f_sqrt()?;
    let istderr = stderr.f_mul(&ssxm.f_add(&xmean.f_square()?)?.f_sqrt()?)?;
    // two points: the line through them, p 1 when the y are equal (else 0), no standard errors
    let two = n.f_eq(2.0)?;
    let p2 = ssym.f_eq(0.0)?.f_to_kind(p.kind())?;
    let p = p2.f_where_self(&two, &p)?;
    let stderr = stderr.f_masked_fill(&two, 0.0)?;
    let istderr = istderr.f_masked_fill(&two, 0.0)?;
    l.finish(vec![slope, intercept, r, p, stderr, istderr], 1, true, keepdims)
}

/// Ranks (average ties) along the last axis of `x`, NaN where `x` is.
fn ranks_last(x: &Tensor) -> Result<Tensor> {
    super::rankdata(x, super::RankMethod::Average, Some(-1), NanPolicy::Omit)
}

/// `spearmanr` of the variables in the columns of the 2-d `a` (observations
/// along dim 0), NaN handled by the caller: `rho` (a matrix, or the one
/// coefficient for two variables) and its p-values.
pub fn spearman_columns(a: &Tensor, alternative: Alternative) -> Result<(Tensor, Tensor)> {
    let n_obs = a.size()[0];
    let ranks = ranks_last(&a.f_transpose(0, 1)?.f_to_kind(Kind::Double)?)?; // (n_vars, n_obs)
    let rs = ranks.f_corrcoef()?;
    let rs = if rs.dim() == 0 { rs.f_reshape([1, 1])? } else { rs };
    let dof = (n_obs - 2) as f64;
    let t = rs.f_mul(
        &rs.f_add_scalar(1.0)?
            .f_mul(&rs.f_neg()?.f_add_scalar(1.0)?)?
            .f_reciprocal()?
            .f_mul_scalar(dof)?
            .f_clamp_min(0.0)?
            .f_sqrt()?,
    )?;
    let df = t.f_full_like(dof)?;
    let p = t_pvalue(&t, &df, alternative)?;
    Ok((rs, p))
}

/// The pairwise sums Kendall's tau needs for each slice, over blocks of rows
/// so that no more than a few million comparisons are held at once: the sum
/// of `sign(dx) sign(dy)`, the tied pairs in x and in y, the per-element tie
/// counts' sums `sum h(g)/g` for SciPy's variance terms, the distinct counts.
struct KendallSums {
    con_minus_dis: Tensor,
    xtie: Tensor,
    ytie: Tensor,
    x0: Tensor,
    x1: Tensor,
    y0: Tensor,
    y1: Tensor,
    xdistinct: Tensor,
    ydistinct: Tensor,
}

fn kendall_sums(x: &Tensor, y: &Tensor, valid: Option<&Tensor>) -> Result<KendallSums> {
    let len = *x.size().last().unwrap_or(&0);
    let batch: i64 = x.size()[..x.dim() - 1].iter().product::<i64>().max(1);
    let rows = (4_000_000 / (batch * len.max(1))).clamp(1, len.max(1));
    let dims = [-1i64];
    let vmask = match valid {
        Some(v) => v.f_to_kind(x.kind())?,
        None => x.f_ones_like()?,
    };
    let mut cmd = Tensor::f_zeros(&x.size()[..x.dim() - 1], (x.kind(), x.device()))?;
    let mut gx_parts = Vec::new();
    let mut gy_parts = Vec::new();
    let mut start = 0;
    while start < len {
        let k = rows.min(len - start);
        let xi = x.f_narrow(-1, start, k)?.f_unsqueeze(-1)?; // (..., k, 1)
        let yi = y.f_narrow(-1, start, k)?.f_unsqueeze(-1)?;
        let vi = vmask.f_narrow(-1, start, k)?.f_unsqueeze(-1)?;
        let xj = x.f_unsqueeze(-2)?; // (..., 1, n)
        let yj = y.f_unsqueeze(-2)?;
        let vj = vmask.f_unsqueeze(-2)?;
        let w = vi.f_mul(&vj)?; // (..., k, n)
        let s = xi.f_sub(&xj)?.f_sign()?.f_mul(&yi.f_sub(&yj)?.f_sign()?)?.f_mul(&w)?;
        cmd = cmd.f_add(&s.f_sum_dim_intlist([-1i64, -2].as_slice(), false, None::<Kind>)?)?;
        gx_parts.push(xi.f_eq_tensor(&xj)?.f_to_kind(x.kind())?.f_mul(&w)?.f_sum_dim_intlist(
            dims.as_slice(),
            false,
            None::<Kind>,
        )?);
        gy_parts.push(yi.f_eq_tensor(&yj)?.f_to_kind(x.kind())?.f_mul(&w)?.f_sum_dim_intlist(
            dims.as_slice(),
            false,
            None::<Kind>,
        )?);
        start += k;
    }
    // each pair was counted twice (i, j) and (j, i)
    let cmd = cmd.f_mul_scalar(0.5)?;
    let gx = Tensor::f_cat(&gx_parts, -1)?;
    let gy = Tensor::f_cat(&gy_parts, -1)?;
    // sum over tie groups of h(cnt) = sum over elements of h(g) / g (valid elements only)
    let per = |g: &Tensor, h: &dyn Fn(&Tensor) -> Result<Tensor>| -> Result<Tensor> {
        let gs = g.f_clamp_min(1.0)?;
        Ok(h(&gs)?.f_div(&gs)?.f_mul(&vmask)?.f_sum_dim_intlist(dims.as_slice(), false, None::<Kind>)?)
    };
    let pairs = |g: &Tensor| -> Result<Tensor> { Ok(g.f_mul(&g.f_sub_scalar(1.0)?)?.f_mul_scalar(0.5)?) };
    let h0 = |g: &Tensor| -> Result<Tensor> { Ok(g.f_mul(&g.f_sub_scalar(1.0)?)?.f_mul(&g.f_sub_scalar(2.0)?)?) };
    let h1 = |g: &Tensor| -> Result<Tensor> {
        Ok(g.f_mul(&g.f_sub_scalar(1.0)?)?.f_mul(&g.f_mul_scalar(2.0)?.f_add_scalar(5.0)?)?)
    };
    let ones = |g: &Tensor| -> Result<Tensor> { Ok(g.f_ones_like()?) };
    Ok(KendallSums {
        con_minus_dis: cmd,
        xtie: per(&gx, &pairs)?.f_round()?,
        ytie: per(&gy, &pairs)?.f_round()?,
        x0: per(&gx, &h0)?.f_round()?,
        x1: per(&gx, &h1)?.f_round()?,
        y0: per(&gy, &h0)?.f_round()?,
        y1: per(&gy, &h1)?.f_round()?,
        xdistinct: per(&gx, &ones)?.f_round()?,
        ydistinct: per(&gy, &ones)?.f_round()?,
    })
}

/// `kendalltau`'s `method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KendallMethod {
    /// Exact without ties and for at most 33 values (or nearly sorted data), else asymptotic.
    Auto,
    /// The normal approximation with SciPy's tie-corrected variance.
    Asymptotic,
    /// The exact null distribution (no ties).
    Exact,
}

/// The cumulative exact null distribution of the number of concordant pairs
/// among `n` values without ties, up to `cmax`: `(cdf, pmf)` as in SciPy's
/// `_kendall_p_exact` (the Mahonian numbers, normalised as they grow).
fn kendall_exact_table(n: i64, cmax: i64) -> (Vec<f64>, Vec<f64>) {
    let c = cmax.max(0) as usize;
    let mut new = vec![0.0f64; c + 1];
    new[0] = 1.0;
    if c >= 1 {
        new[1] = 1.0;
    }
    if n <= 1 {
        return (vec![1.0; c + 1], vec![1.0; c + 1]);
    }
    // new holds the counts for j = 2 (0 and 1 inversions), divided by 2!
    for v in new.iter_mut() {
        *v /= 2.0;
    }
    for j in 3..=n as usize {
        let mut acc = 0.0;
        for v in new.iter_mut() {
            acc += *v;
            *v = acc / j as f64;
        }
        if j <= c {
            for i in (j..=c).rev() {
                new[i] -= new[i - j];
            }
        }
    }
    let mut cdf = Vec::with_capacity(c + 1);
    let mut acc = 0.0;
    for &v in &new {
        acc += v;
        cdf.push(acc);
    }
    (cdf, new)
}

/// `kendalltau` (variants "b" and "c"): `tau` and its p-value per slice.
#[allow(clippy::too_many_arguments)]
pub fn kendalltau(
    x: &Tensor,
    y: &Tensor,
    policy: NanPolicy,
    method: KendallMethod,
    variant_c: bool,
    alternative: Alternative,
    axis: &Axis,
    keepdims: bool,
) -> Result<Reduced> {
    let kind = promote(&[x.kind(), y.kind()])?;
    let (l, others) = paired(&[x, y], axis, policy, kind)?;
    // the pair counts in float64, exact as integers up to 2**53
    let work = Kind::Double;
    let xs = l.x.f_to_kind(work)?;
    let ys = others[0].f_to_kind(work)?;
    let valid = if l.omit() { Some(l.nans.as_ref().expect("omit has NaNs").f_logical_not()?) } else { None };
    let n = l.count()?.f_to_kind(work)?;
    let s = kendall_sums(&xs, &ys, valid.as_ref())?;
    let tot = n.f_mul(&n.f_sub_scalar(1.0)?)?.f_mul_scalar(0.5)?;
    let all_tied = s.xtie.f_eq_tensor(&tot)?.f_logical_or(&s.ytie.f_eq_tensor(&tot)?)?;
    let cmd = &s.con_minus_dis;
    let tau = if variant_c {
        let mc = s.xdistinct.f_minimum(&s.ydistinct)?;
        cmd.f_mul_scalar(2.0)?.f_div(&n.f_square()?.f_mul(&mc.f_sub_scalar(1.0)?)?.f_div(&mc)?)?
    } else {
        cmd.f_div(&tot.f_sub(&s.xtie)?.f_sqrt()?)?.f_div(&tot.f_sub(&s.ytie)?.f_sqrt()?)?
    };
    let tau = tau.f_clamp(-1.0, 1.0)?;
    let ties = any(&s.xtie.f_ne(0.0)?.f_logical_or(&s.ytie.f_ne(0.0)?)?.f_logical_and(&n.f_gt(1.0)?)?)?;
    if method == KendallMethod::Exact && ties {
        return Err(Error::InvalidArgument("Ties found, exact method cannot be used.".into()));
    }
    let dis = tot.f_sub(cmd)?.f_mul_scalar(0.5)?;
    let exact = match method {
        KendallMethod::Exact => true,
        KendallMethod::Asymptotic => false,
        KendallMethod::Auto => {
            !ties && {
                let few = n.f_le(33.0)?;
                let nearly = dis.f_minimum(&tot.f_sub(&dis)?)?.f_le(1.0)?;
                super::all(&few.f_logical_or(&nearly)?.f_logical_or(&n.f_le(1.0)?)?)?
            }
        }
    };
    let p = if exact {
        let counts = n.f_flatten(0, -1)?;
        let n0 = if counts.numel() == 0 { 0.0 } else { counts.f_max()?.f_double_value(&[])? };
        if counts.numel() > 0 && counts.f_min()?.f_double_value(&[])? != n0 {
            return Err(Error::NotImplemented(
                "kendalltau's exact p-value for slices of different sizes (nan_policy='omit'): use method='asymptotic'"
                    .into(),
            ));
        }
        let nn = n0 as i64;
        let totn = nn * (nn - 1) / 2;
        // c: the concordant pairs; SciPy's p-value from min(c, tot - c)
        let c = tot.f_sub(&dis)?.f_round()?;
        let cm = c.f_minimum(&tot.f_sub(&c)?)?.f_clamp_min(0.0)?;
        let cmax = if cm.numel() == 0 { 0 } else { cm.f_max()?.f_double_value(&[])? as i64 };
        let cmax = cmax.min(totn / 2 + 1);
        let (cdf, pmf) = kendall_exact_table(nn, cmax);
        let device = n.device();
        let cdf_t = Tensor::f_from_slice(&cdf)?.f_to(device)?;
        let pmf_t = Tensor::f_from_slice(&pmf)?.f_to(device)?;
        let idx = cm.f_clamp(0.0, cmax as f64)?.f_to_kind(Kind::Int64)?;
        let f = cdf_t.f_take(&idx)?;
        let pm = pmf_t.f_take(&idx)?;
        let right = c.f_ge_tensor(&tot.f_sub(&c)?)?;
        let p = match alternative {
            Alternative::TwoSided => f.f_mul_scalar(2.0)?,
            _ => {
                let same = if alternative == Alternative::Greater { right } else { right.f_logical_not()? };
                f.f_where_self(&same, &f.f_neg()?.f_add_scalar(1.0)?.f_add(&pm)?)?
            }
        };
        p.f_clamp(0.0, 1.0)?
    } else {
        let m = n.f_mul(&n.f_sub_scalar(1.0)?)?;
        let var = m
            .f_mul(&n.f_mul_scalar(2.0)?.f_add_scalar(5.0)?)?
            .f_sub(&s.x1)?
            .f_sub(&s.y1)?
            .f_div_scalar(18.0)?
            .f_add(&s.xtie.f_mul(&s.ytie)?.f_mul_scalar(2.0)?.f_div(&m)?)?
            .f_add(&s.x0.f_mul(&s.y0)?.f_div(&m.f_mul(&n.f_sub_scalar(2.0)?)?.f_mul_scalar(9.0)?)?)?;
        let z = cmd.f_div(&var.f_sqrt()?)?;
        normal_pvalue(&z, alternative)?
    };
    let tau = tau.f_masked_fill(&all_tied, f64::NAN)?.f_to_kind(l.x.kind())?;
    let p = p.f_masked_fill(&all_tied, f64::NAN)?.f_to_kind(l.x.kind())?;
    l.finish(vec![tau, p], 1, true, keepdims)
}

/// `power_divergence`'s `lambda_` by SciPy's names.
pub fn lambda_by_name(name: &str) -> Result<f64> {
    Ok(match name {
        "pearson" => 1.0,
        "log-likelihood" => 0.0,
        "freeman-tukey" => -0.5,
        "mod-log-likelihood" => -1.0,
        "neyman" => -2.0,
        "cressie-read" => 2.0 / 3.0,
        other => {
            return Err(Error::InvalidArgument(format!(
                "invalid string for lambda_: '{other}'. Valid strings are 'pearson', 'log-likelihood', \
                 'freeman-tukey', 'mod-log-likelihood', 'neyman', 'cressie-read'"
            )))
        }
    })
}

/// `power_divergence` (and `chisquare`, `lambda_ = 1`): the Cressie-Read
/// statistic of `f_obs` against `f_exp` (the slices' means when `None`) and
/// its chi-square p-value with `k - 1 - ddof` degrees of freedom.
#[allow(clippy::too_many_arguments)]
pub fn power_divergence(
    f_obs: &Tensor,
    f_exp: Option<&Tensor>,
    ddof: f64,
    axis: &Axis,
    lambda: f64,
    sum_check: bool,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let mut kinds = vec![f_obs.kind()];
    kinds.extend(f_exp.map(Tensor::kind));
    let kind = promote(&kinds)?;
    let (l, others) = match f_exp {
        Some(e) => paired(&[f_obs, e], axis, policy, kind)?,
        None => (Layout::new(&f_obs.f_to_kind(kind)?, axis, policy)?, vec![]),
    };
    let obs = &l.x;
    let n = l.count()?;
    let exp = match others.first() {
        Some(e) => {
            if sum_check {
                let so = l.sum(obs)?;
                let se = l.sum(e)?;
                let rtol = super::eps(result_kind(kind)?).sqrt();
                let rel = so.f_sub(&se)?.f_abs()?.f_div(&so.f_minimum(&se)?)?;
                if any(&rel.f_gt(rtol)?)? {
                    return Err(Error::InvalidArgument(format!(
                        "For each axis slice, the sum of the observed frequencies must agree with the sum of the \
                         expected frequencies to a relative tolerance of {rtol}, but the percent differences are:\n{}",
                        rel.f_to_kind(Kind::Double)?
                            .f_flatten(0, -1)?
                            .f_to_device(tch::Device::Cpu)?
                            .f_double_value(&[0])
                            .unwrap_or(f64::NAN)
                    )));
                }
            }
            e.shallow_clone()
        }
        None => l.mean(&n)?.f_unsqueeze(-1)?,
    };
    let terms = if lambda == 1.0 {
        obs.f_sub(&exp)?.f_square()?.f_div(&exp)?
    } else if lambda == 0.0 {
        special::xlogy(obs, &obs.f_div(&exp)?)?.f_mul_scalar(2.0)?
    } else if lambda == -1.0 {
        special::xlogy(&exp.f_expand_as(obs)?, &exp.f_div(obs)?)?.f_mul_scalar(2.0)?
    } else {
        obs.f_mul(&obs.f_div(&exp)?.f_pow_tensor_scalar(lambda)?.f_sub_scalar(1.0)?)?
            .f_div_scalar(0.5 * lambda * (lambda + 1.0))?
    };
    let stat = l.sum(&terms)?;
    let df = n.f_sub_scalar(1.0 + ddof)?;
    let p = special::chdtrc(&df, &stat)?;
    l.finish(vec![stat, p], -1, true, keepdims)
}

/// `f_oneway`: the one-way ANOVA F statistic (Welch's when `equal_var` is
/// false) of the samples and its p-value. Every slice of every sample is
/// reduced together; the samples broadcast in their other dimensions.
pub fn f_oneway(
    samples: &[&Tensor],
    axis: &Axis,
    equal_var: bool,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    if samples.len() < 2 {
        return Err(Error::InvalidArgument(format!("At least two samples are required; got {}.", samples.len())));
    }
    let kinds: Vec<Kind> = samples.iter().map(|s| s.kind()).collect();
    let kind = promote(&kinds)?;
    let ls = independent(samples, axis, policy, kind)?;
    let k = ls.len() as f64;
    let refs: Vec<&Layout> = ls.iter().collect();
    let nan_out = || -> Result<Reduced> {
        let z = Tensor::f_full(&ls[0].out_shape, f64::NAN, (ls[0].x.kind(), ls[0].x.device()))?;
        finish_all(&refs, vec![z.shallow_clone(), z], 0, keepdims)
    };
    if ls.iter().any(|l| l.length == 0) {
        let mut r = nan_out()?;
        if r.warnings.is_empty() {
            r.warnings.push(Warning::SmallSample(super::TOO_SMALL_1D));
        }
        return Ok(r);
    }
    if ls.iter().all(|l| l.length == 1) {
        let mut r = nan_out()?;
        r.warnings.push(Warning::SmallSample(
            "all input arrays have length 1.  f_oneway requires that at least one input has length greater than 1.",
        ));
        return Ok(r);
    }
    let dims = [-1i64];
    let counts = ls.iter().map(Layout::count).collect::<Result<Vec<_>>>()?;
    let sums = ls.iter().map(|l| l.sum(&l.x)).collect::<Result<Vec<_>>>()?;
    let extreme = |l: &Layout, hi: bool| -> Result<Tensor> {
        let fill = if hi { f64::NEG_INFINITY } else { f64::INFINITY };
        let x = match (&l.nans, l.omit()) {
            (Some(m), true) => l.x.f_masked_fill(m, fill)?,
            _ => l.x.shallow_clone(),
        };
        Ok(if hi { x.f_amax(dims.as_slice(), false)? } else { x.f_amin(dims.as_slice(), false)? })
    };
    let mut all_const: Option<Tensor> = None;
    let mut lo_all: Option<Tensor> = None;
    let mut hi_all: Option<Tensor> = None;
    for l in &ls {
        let (lo, hi) = (extreme(l, false)?, extreme(l, true)?);
        let c = lo.f_eq_tensor(&hi)?;
        all_const = Some(match all_const {
            None => c,
            Some(a) => a.f_logical_and(&c)?,
        });
        lo_all = Some(match lo_all {
            None => lo.shallow_clone(),
            Some(a) => a.f_minimum(&lo)?,
        });
        hi_all = Some(match hi_all {
            None => hi,
            Some(a) => a.f_maximum(&hi)?,
        });
    }
    let all_const = all_const.expect("two samples at least");
    let all_same = lo_all.expect("two samples").f_eq_tensor(&hi_all.expect("two samples"))?;
    let (f, dfn, dfd) = if equal_var {
        let mut bign = counts[0].shallow_clone();
        let mut total = sums[0].shallow_clone();
        for i in 1..ls.len() {
            bign = bign.f_add(&counts[i])?;
            total = total.f_add(&sums[i])?;
        }
        let offset = total.f_div(&bign)?;
        let mut sum_c = Tensor::f_zeros_like(&offset)?;
        let mut sq_c = Tensor::f_zeros_like(&offset)?;
        let mut ssbn = Tensor::f_zeros_like(&offset)?;
        for (i, l) in ls.iter().enumerate() {
            let c = l.x.f_sub(&offset.f_unsqueeze(-1)?)?;
            let s = l.sum(&c)?;
            sum_c = sum_c.f_add(&s)?;
            sq_c = sq_c.f_add(&l.sum(&c.f_square()?)?)?;
            ssbn = ssbn.f_add(&s.f_square()?.f_div(&counts[i])?)?;
        }
        let normalized_ss = sum_c.f_square()?.f_div(&bign)?;
        let sstot = sq_c.f_sub(&normalized_ss)?;
        let ssbn = ssbn.f_sub(&normalized_ss)?;
        let sswn = sstot.f_sub(&ssbn)?;
        let dfwn = bign.f_sub_scalar(k)?;
        let msb = ssbn.f_div_scalar(k - 1.0)?;
        let msw = sswn.f_div(&dfwn)?;
        (msb.f_div(&msw)?, dfwn.f_full_like(k - 1.0)?, dfwn)
    } else {
        let stats = ls.iter().map(|l| mean_var(l, 1.0)).collect::<Result<Vec<_>>>()?;
        let w: Vec<Tensor> = stats.iter().map(|(_, v, n)| n.f_div(v)).collect::<std::result::Result<_, _>>()?;
        let mut sw = w[0].shallow_clone();
        let mut swy = w[0].f_mul(&stats[0].0)?;
        for i in 1..w.len() {
            sw = sw.f_add(&w[i])?;
            swy = swy.f_add(&w[i].f_mul(&stats[i].0)?)?;
        }
        let y_hat = swy.f_div(&sw)?;
        let mut num = Tensor::f_zeros_like(&sw)?;
        let mut tmp = Tensor::f_zeros_like(&sw)?;
        for (i, (m, _, n)) in stats.iter().enumerate() {
            num = num.f_add(&w[i].f_mul(&m.f_sub(&y_hat)?.f_square()?)?)?;
            let q = w[i].f_div(&sw)?.f_neg()?.f_add_scalar(1.0)?.f_square()?;
            tmp = tmp.f_add(&q.f_div(&n.f_sub_scalar(1.0)?)?)?;
        }
        let num = num.f_div_scalar(k - 1.0)?;
        let denom = tmp.f_mul_scalar(2.0 * (k - 2.0) / (k * k - 1.0))?.f_add_scalar(1.0)?;
        let dfd = tmp.f_mul_scalar(3.0)?.f_reciprocal()?.f_mul_scalar(k * k - 1.0)?;
        (num.f_div(&denom)?, dfd.f_full_like(k - 1.0)?, dfd)
    };
    let f = f.f_masked_fill(&all_const, f64::INFINITY)?.f_masked_fill(&all_same, f64::NAN)?;
    let p = special::fdtrc(&dfn, &dfd, &f)?;
    finish_all(&refs, vec![f, p], 0, keepdims)
}

/// `spearmanr`: `a` (and `b`) 1-d or 2-d, observations along `axis` (0 or
/// 1; `None` flattens them into one variable each). The coefficient and
/// p-value (scalars for two variables, matrices for more).
pub fn spearmanr(
    a: &Tensor,
    b: Option<&Tensor>,
    axis: Option<i64>,
    policy: NanPolicy,
    alternative: Alternative,
) -> Result<Reduced> {
    if let Some(ax) = axis {
        if ax > 1 {
            return Err(Error::InvalidArgument(format!(
                "spearmanr only handles 1-D or 2-D arrays, supplied axis argument {ax}, please use only values 0, 1 or None for axis"
            )));
        }
        if ax < 0 {
            return Err(Error::NotImplemented(format!("spearmanr with axis={ax}: pass 0, 1 or None")));
        }
    }
    let prep = |t: &Tensor| -> Result<Tensor> {
        let t = t.f_to_kind(Kind::Double)?;
        Ok(match axis {
            None => t.f_reshape([-1])?,
            Some(_) if t.dim() == 0 => t.f_reshape([1])?,
            Some(_) => t,
        })
    };
    let axisout = axis.unwrap_or(0);
    let a = prep(a)?;
    if a.dim() > 2 {
        return Err(Error::InvalidArgument("spearmanr only handles 1-D or 2-D arrays".into()));
    }
    // variables in the columns, observations along dim 0
    let m = match b {
        None => {
            if a.dim() < 2 {
                return Err(Error::InvalidArgument("`spearmanr` needs at least 2 variables to compare".into()));
            }
            if axisout == 0 {
                a
            } else {
                a.f_transpose(0, 1)?
            }
        }
        Some(b) => {
            let b = prep(b)?;
            let col = |t: &Tensor| -> Result<Tensor> {
                Ok(if t.dim() == 1 { t.f_unsqueeze(if axisout == 0 { 1 } else { 0 })? } else { t.shallow_clone() })
            };
            let joined = Tensor::f_cat(&[col(&a)?, col(&b)?], if axisout == 0 { 1 } else { 0 })?;
            if axisout == 0 {
                joined
            } else {
                joined.f_transpose(0, 1)?
            }
        }
    };
    let (n_obs, n_vars) = (m.size()[0], m.size()[1]);
    let device = m.device();
    let nan = || -> Result<Tensor> { Ok(Tensor::f_full([] as [i64; 0], f64::NAN, (Kind::Double, device))?) };
    if n_obs <= 1 {
        return Ok(Reduced { values: vec![nan()?, nan()?], warnings: vec![] });
    }
    let constant = |j: i64| -> Result<bool> {
        let c = m.f_select(1, j)?;
        super::all(&c.f_eq_tensor(&c.f_narrow(0, 0, 1)?)?)
    };
    if n_vars >= 2 && (constant(0)? || constant(1)?) {
        return Ok(Reduced { values: vec![nan()?, nan()?], warnings: vec![Warning::ConstantInput(CONSTANT_INPUT)] });
    }
    let nans = m.f_isnan()?;
    let mut variable_has_nan: Option<Tensor> = None;
    let mut m = m;
    if any(&nans)? {
        match policy {
            NanPolicy::Raise => return Err(Error::InvalidArgument("The input contains nan values".into())),
            NanPolicy::Omit => {
                if n_vars != 2 {
                    return Err(Error::NotImplemented(
                        "spearmanr with nan_policy='omit' for more than two variables holding NaN".into(),
                    ));
                }
                let keep = nans.f_any_dim(1, false)?.f_logical_not()?;
                m = m.f_index(&[Some(keep)])?;
                if m.size()[0] <= 1 {
                    return Ok(Reduced { values: vec![nan()?, nan()?], warnings: vec![] });
                }
            }
            NanPolicy::Propagate => {
                if n_vars <= 2 {
                    return Ok(Reduced { values: vec![nan()?, nan()?], warnings: vec![] });
                }
                variable_has_nan = Some(nans.f_any_dim(0, false)?);
            }
        }
    }
    let (mut rs, mut p) = spearman_columns(&m, alternative)?;
    if rs.size() == [2, 2] {
        return Ok(Reduced {
            values: vec![rs.f_select(0, 1)?.f_select(0, 0)?, p.f_select(0, 1)?.f_select(0, 0)?],
            warnings: vec![],
        });
    }
    if let Some(v) = variable_has_nan {
        let both = v.f_unsqueeze(0)?.f_logical_or(&v.f_unsqueeze(1)?)?;
        rs = rs.f_masked_fill(&both, f64::NAN)?;
        p = p.f_masked_fill(&both, f64::NAN)?;
    }
    Ok(Reduced { values: vec![rs, p], warnings: vec![] })
}
