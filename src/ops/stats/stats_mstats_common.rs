//! `scipy.stats._stats_mstats_common`: the Theil-Sen estimator
//! (`theilslopes`).
//!
//! Per slice, the slopes of all pairs with `x[i] > x[j]` come from one
//! `(n, n)` difference table (`n^2` values per slice in memory), sorted once
//! with the pairs that do not count (equal `x`, omitted NaNs) set to NaN so
//! they sort last; medians and the confidence bounds index each slice by
//! its own count. Sen's variance takes the tie groups of `x` and `y` from
//! the min/max ranks of one sort each.

use tch::{Kind, Tensor};

use super::stats_py::{paired, rankdata, Axis, Layout, NanPolicy, RankMethod, Reduced, Warning};
use crate::ops::special;
use crate::{Error, Result};

/// SciPy's warning when no two `x` differ.
pub const IDENTICAL_X: &str = "All `x` coordinates are identical.";

/// `theilslopes`' `method` for the intercept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TheilMethod {
    /// `median(y - slope x)`.
    Joint,
    /// `median(y) - slope median(x)`.
    Separate,
}

impl TheilMethod {
    /// SciPy's name for it.
    pub fn from_scipy(name: &str) -> Result<TheilMethod> {
        match name {
            "joint" => Ok(TheilMethod::Joint),
            "separate" => Ok(TheilMethod::Separate),
            _ => {
                Err(Error::InvalidArgument(format!("method must be either 'joint' or 'separate'.'{name}' is invalid.")))
            }
        }
    }
}

/// The value at (0-based, per-row) `index` of each sorted row.
fn at(sorted: &Tensor, index: &Tensor) -> Result<Tensor> {
    let last = *sorted.size().last().unwrap_or(&1);
    let i = index.f_clamp(0, (last - 1).max(0))?.f_unsqueeze(-1)?;
    Ok(sorted.f_gather(-1, &i, false)?.f_squeeze_dim(-1)?)
}

/// NumPy's median of the values of each row where `valid` (NaN when none).
fn masked_median(values: &Tensor, valid: &Tensor) -> Result<Tensor> {
    let (s, _) = values.f_masked_fill(&valid.f_logical_not()?, f64::NAN)?.f_sort(-1, false)?;
    let k = valid.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    let lo = at(&s, &k.f_sub_scalar(1)?.f_floor_divide_scalar(2)?)?;
    let hi = at(&s, &k.f_floor_divide_scalar(2)?)?;
    Ok(lo.f_add(&hi)?.f_div_scalar(2.0)?.f_masked_fill(&k.f_eq(0)?, f64::NAN)?)
}

/// `sum k (k - 1) (2k + 5)` over the tie groups of each row's valid values.
fn tie_term(values: &Tensor, valid: &Tensor) -> Result<Tensor> {
    let v = values.f_masked_fill(&valid.f_logical_not()?, f64::NAN)?;
    let lo = rankdata(&v, RankMethod::Min, Some(-1), NanPolicy::Omit)?.f_to_kind(Kind::Double)?;
    let hi = rankdata(&v, RankMethod::Max, Some(-1), NanPolicy::Omit)?.f_to_kind(Kind::Double)?;
    let g = hi.f_sub(&lo)?.f_add_scalar(1.0)?;
    // a group of g members: each contributes (g - 1)(2g + 5)
    let each = g.f_sub_scalar(1.0)?.f_mul(&g.f_mul_scalar(2.0)?.f_add_scalar(5.0)?)?;
    Ok(each.f_nan_to_num(0.0, None, None)?.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Double)?)
}

/// `theilslopes(y, x)`: the median slope, the intercept, and the bounds of
/// the slope's `alpha` confidence interval, per slice along `axis`.
pub fn theilslopes(
    y: &Tensor,
    x: Option<&Tensor>,
    alpha: f64,
    method: TheilMethod,
    axis: &Axis,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let (l, xs) = match x {
        Some(x) => {
            if let Axis::All = axis {
                if x.numel() != y.numel() {
                    return Err(Error::InvalidArgument("Array shapes are incompatible for broadcasting.".into()));
                }
                let x = x.f_reshape(y.size())?;
                let (l, others) = paired(&[y, &x], axis, policy, Kind::Double)?;
                (l, others.into_iter().next())
            } else {
                let (l, others) = paired(&[y, x], axis, policy, Kind::Double)?;
                (l, others.into_iter().next())
            }
        }
        None => (Layout::new(&y.f_to_kind(Kind::Double)?, axis, policy)?, None),
    };
    let n = l.length;
    let dev = l.x.device();
    let nan4 = |l: &Layout| -> Result<Reduced> {
        let z = Tensor::f_full(&l.out_shape, f64::NAN, (Kind::Double, dev))?;
        l.finish(vec![z.shallow_clone(), z.shallow_clone(), z.shallow_clone(), z], 1, true, keepdims)
    };
    if n <= 1 || l.x.numel() == 0 {
        return nan4(&l);
    }
    let yv = l.x.shallow_clone();
    let xv = match xs {
        Some(x) => x,
        None => Tensor::f_arange(n, (Kind::Double, dev))?.f_expand(yv.size(), false)?,
    };
    let valid = if l.omit() {
        l.nans.as_ref().map(|m| m.f_logical_not()).transpose()?.expect("omit implies a NaN mask")
    } else {
        yv.f_ones_like()?.f_to_kind(Kind::Bool)?
    };
    let dx = xv.f_unsqueeze(-1)?.f_sub(&xv.f_unsqueeze(-2)?)?;
    let dy = yv.f_unsqueeze(-1)?.f_sub(&yv.f_unsqueeze(-2)?)?;
    let pair_valid = valid.f_unsqueeze(-1)?.f_logical_and(&valid.f_unsqueeze(-2)?)?;
    let counted = dx.f_gt(0.0)?.f_logical_and(&pair_valid)?;
    let mut flat = l.out_shape.clone();
    flat.push(n * n);
    let slopes = dy.f_div(&dx)?.f_masked_fill(&counted.f_logical_not()?, f64::NAN)?.f_reshape(&flat)?;
    let counted = counted.f_reshape(&flat)?;
    let (sorted, _) = slopes.f_sort(-1, false)?;
    let nt = counted.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?;
    let lo = at(&sorted, &nt.f_sub_scalar(1)?.f_floor_divide_scalar(2)?)?;
    let hi = at(&sorted, &nt.f_floor_divide_scalar(2)?)?;
    let none = nt.f_eq(0)?;
    let medslope = lo.f_add(&hi)?.f_div_scalar(2.0)?.f_masked_fill(&none, f64::NAN)?;
    let mut warnings = Vec::new();
    // rows whose NaNs propagate take no part in SciPy's warning
    let live = match (&l.nans, l.omit()) {
        (Some(m), false) => none.f_logical_and(&m.f_any_dim(-1, false)?.f_logical_not()?)?,
        _ => none.shallow_clone(),
    };
    if super::stats_py::any_true(&live)? {
        warnings.push(Warning::Runtime(IDENTICAL_X));
    }
    let medinter = match method {
        TheilMethod::Joint => masked_median(&yv.f_sub(&medslope.f_unsqueeze(-1)?.f_mul(&xv)?)?, &valid)?,
        TheilMethod::Separate => masked_median(&yv, &valid)?.f_sub(&medslope.f_mul(&masked_median(&xv, &valid)?)?)?,
    };
    let a = if alpha > 0.5 { 1.0 - alpha } else { alpha };
    let z = special::ndtri(&Tensor::f_from_slice(&[a / 2.0])?)?.f_double_value(&[0])?;
    let ny = valid.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Double)?;
    let sigsq = ny
        .f_mul(&ny.f_sub_scalar(1.0)?)?
        .f_mul(&ny.f_mul_scalar(2.0)?.f_add_scalar(5.0)?)?
        .f_sub(&tie_term(&xv, &valid)?)?
        .f_sub(&tie_term(&yv, &valid)?)?
        .f_div_scalar(18.0)?;
    let sigma = sigsq.f_sqrt()?;
    let ntf = nt.f_to_kind(Kind::Double)?;
    let ru = ntf.f_sub(&sigma.f_mul_scalar(z)?)?.f_div_scalar(2.0)?.f_round()?.f_minimum(&ntf.f_sub_scalar(1.0)?)?;
    let rl = ntf.f_add(&sigma.f_mul_scalar(z)?)?.f_div_scalar(2.0)?.f_round()?.f_sub_scalar(1.0)?.f_clamp_min(0.0)?;
    let bad = sigma.f_isnan()?.f_logical_or(&none)?;
    let index = |r: &Tensor| -> Result<Tensor> { Ok(r.f_nan_to_num(0.0, None, None)?.f_to_kind(Kind::Int64)?) };
    let low = at(&sorted, &index(&rl)?)?.f_masked_fill(&bad, f64::NAN)?;
    let high = at(&sorted, &index(&ru)?)?.f_masked_fill(&bad, f64::NAN)?;
    let mut r = l.finish(vec![medslope, medinter, low, high], 1, true, keepdims)?;
    warnings.extend(r.warnings);
    r.warnings = warnings;
    Ok(r)
}
