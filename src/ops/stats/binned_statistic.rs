//! `scipy.stats._binned_statistic`: `binned_statistic` (one dimension).
//!
//! The bin edges follow SciPy's rules (`np.linspace` over the data's or the
//! given range, widened by 0.5 on each side when it is empty; or the given
//! edges), evaluated on the host from two scalars: they are a parameter
//! array of `bins + 1` values. The data work is libtorch ops on the device:
//! the bin numbers by `searchsorted` (NumPy's `digitize`), values on the last
//! edge moved into the last bin with SciPy's rounding test, and the
//! statistics by scatter reductions over the `bins + 2` bins (the two outlier
//! bins dropped at the end): counts, sums, means, standard deviations about
//! each bin's mean (two passes), minima and maxima, and medians from one sort
//! of the values grouped by bin.

use tch::{Kind, Tensor};

use crate::aten::{call, Arg};
use crate::{Error, Result};

/// `binned_statistic`'s `statistic` (the built-in names; a callable is not built).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinStatistic {
    /// The mean of each bin (NaN when empty).
    Mean,
    /// The population standard deviation of each bin (NaN when empty).
    Std,
    /// The median of each bin (NaN when empty).
    Median,
    /// The number of values in each bin.
    Count,
    /// The sum of each bin (0 when empty).
    Sum,
    /// The smallest value of each bin (NaN when empty).
    Min,
    /// The largest value of each bin (NaN when empty).
    Max,
}

impl BinStatistic {
    /// SciPy's name for it.
    pub fn from_scipy(name: &str) -> Result<BinStatistic> {
        match name {
            "mean" => Ok(BinStatistic::Mean),
            "std" => Ok(BinStatistic::Std),
            "median" => Ok(BinStatistic::Median),
            "count" => Ok(BinStatistic::Count),
            "sum" => Ok(BinStatistic::Sum),
            "min" => Ok(BinStatistic::Min),
            "max" => Ok(BinStatistic::Max),
            _ => Err(Error::InvalidArgument(format!("invalid statistic '{name}'"))),
        }
    }
}

/// `bins`: a number of equal-width bins, or the edges.
pub enum Bins {
    /// This many bins between the range's ends.
    Count(i64),
    /// The bin edges (increasing), `len - 1` bins.
    Edges(Tensor),
}

fn float_kind(kind: Kind) -> Result<Kind> {
    match kind {
        Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double => Ok(kind),
        Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble => {
            Err(Error::NotImplemented("complex input: binned_statistic bins real data".into()))
        }
        _ => Ok(Kind::Double),
    }
}

fn scalar(t: &Tensor) -> Result<f64> {
    Ok(t.f_to_kind(Kind::Double)?.f_double_value(&[])?)
}

/// `binned_statistic(x, values, statistic, bins, range)`: the statistic of
/// each bin (`values`' leading shape plus the bins, float64), the bin edges
/// (`x`'s floating dtype) and each value's bin number (0 below the first
/// edge, `nbins + 1` above the last; int64).
pub fn binned_statistic(
    x: &Tensor,
    values: &Tensor,
    statistic: BinStatistic,
    bins: Bins,
    range: Option<(f64, f64)>,
) -> Result<(Tensor, Tensor, Tensor)> {
    let dev = x.device();
    let xk = float_kind(x.kind())?;
    if x.dim() != 1 {
        return Err(Error::InvalidArgument("binned_statistic takes a 1-d `x`".into()));
    }
    let n = x.size()[0];
    let xs = x.f_to_kind(xk)?;
    let edges = match bins {
        Bins::Count(nb) => {
            if nb < 1 {
                return Err(Error::InvalidArgument("`bins` must be a positive integer.".into()));
            }
            if n > 0 && crate::ops::stats::stats_py::any_true(&xs.f_isfinite()?.f_logical_not()?)? {
                return Err(Error::InvalidArgument("`x` contains non-finite values.".into()));
            }
            let (mut lo, mut hi) = match range {
                Some(r) => r,
                None => {
                    if n == 0 {
                        return Err(Error::InvalidArgument(
                            "zero-size array to reduction operation minimum which has no identity".into(),
                        ));
                    }
                    (scalar(&xs.f_min()?)?, scalar(&xs.f_max()?)?)
                }
            };
            if lo == hi {
                lo -= 0.5;
                hi += 0.5;
            }
            // np.linspace: start + i * step, the last edge exactly the stop
            let step = (hi - lo) / nb as f64;
            let mut e: Vec<f64> = (0..=nb).map(|i| i as f64 * step + lo).collect();
            e[nb as usize] = hi;
            Tensor::f_from_slice(&e)?.f_to_kind(xk)?.f_to(dev)?
        }
        Bins::Edges(e) => {
            if e.dim() != 1 || e.numel() < 2 {
                return Err(Error::InvalidArgument("`bins` must be an integer or a 1-d array of edges.".into()));
            }
            e.f_to_kind(xk)?.f_to(dev)?
        }
    };
    let ne = edges.size()[0];
    let nbin = ne + 1; // with the two outlier bins
    let dedges = edges.f_narrow(0, 1, ne - 1)?.f_sub(&edges.f_narrow(0, 0, ne - 1)?)?;
    let dmin = scalar(&dedges.f_min()?)?;
    if dmin == 0.0 {
        return Err(Error::InvalidArgument("The smallest edge difference is numerically 0.".into()));
    }
    let decimal = (-dmin.log10()) as i64 + 6;
    let mut binnumber = xs.f_contiguous()?.f_searchsorted(&edges, false, true, "right", None::<Tensor>)?;
    let last = edges.f_narrow(0, ne - 1, 1)?;
    let on_edge = xs
        .f_ge_tensor(&last)?
        .f_logical_and(&xs.f_round_decimals(decimal)?.f_eq_tensor(&last.f_round_decimals(decimal)?)?)?;
    binnumber = binnumber.f_sub(&on_edge.f_to_kind(Kind::Int64)?)?;
    // values as (vdim, n): SciPy's np.atleast_2d
    let vshape = values.size();
    let v2 = match values.dim() {
        0 => values.f_reshape([1, 1])?,
        1 => values.f_unsqueeze(0)?,
        2 => values.shallow_clone(),
        _ => return Err(Error::InvalidArgument("`values` must be at most 2-d".into())),
    };
    let vdim = v2.size()[0];
    if statistic != BinStatistic::Count && v2.size()[1] != n {
        return Err(Error::InvalidArgument(
            "The number of `values` elements must match the length of each `sample` dimension.".into(),
        ));
    }
    let v2 = v2.f_to_kind(Kind::Double)?.f_to(dev)?;
    let idx = binnumber.f_unsqueeze(0)?.f_expand([vdim, n], false)?;
    let zeros = Tensor::f_zeros([vdim, nbin], (Kind::Double, dev))?;
    let count1 = Tensor::f_zeros([nbin], (Kind::Double, dev))?.f_scatter_add(
        0,
        &binnumber,
        &Tensor::f_ones([n], (Kind::Double, dev))?,
    )?;
    let count = count1.f_unsqueeze(0)?.f_expand([vdim, nbin], false)?;
    let empty = count.f_eq(0.0)?;
    let sum = || -> Result<Tensor> { Ok(zeros.f_scatter_add(1, &idx, &v2)?) };
    let result = match statistic {
        BinStatistic::Count => count.f_contiguous()?,
        BinStatistic::Sum => sum()?,
        BinStatistic::Mean => sum()?.f_div(&count)?.f_masked_fill(&empty, f64::NAN)?,
        BinStatistic::Std => {
            let mean = sum()?.f_div(&count)?;
            let delta = v2.f_sub(&mean.f_gather(1, &idx, false)?)?;
            zeros
                .f_scatter_add(1, &idx, &delta.f_square()?)?
                .f_div(&count)?
                .f_sqrt()?
                .f_masked_fill(&empty, f64::NAN)?
        }
        BinStatistic::Min | BinStatistic::Max => {
            let (reduce, fill) =
                if statistic == BinStatistic::Min { ("amin", f64::INFINITY) } else { ("amax", f64::NEG_INFINITY) };
            let nan = v2.f_isnan()?;
            let clean = v2.f_masked_fill(&nan, fill)?;
            let base = Tensor::f_full([vdim, nbin], fill, (Kind::Double, dev))?;
            // torch.scatter_reduce (tch's `scatter_reduce` is the older `scatter(reduce=)`)
            let args = [
                Arg::ConstTensor(base.shallow_clone()),
                Arg::Int(1),
                Arg::ConstTensor(idx.shallow_clone()),
                Arg::ConstTensor(clean.shallow_clone()),
                Arg::Str(reduce.into()),
            ];
            let r = call("aten::scatter_reduce.two", &args, &[("include_self", Arg::Bool(true))])?
                .swap_remove(0)
                .into_tensor()?;
            let numbers = zeros.f_scatter_add(1, &idx, &nan.f_logical_not()?.f_to_kind(Kind::Double)?)?;
            // SciPy assigns in sorted order: NaN (sorted last) wins for max, loses for min
            let r = if statistic == BinStatistic::Max {
                let any_nan = zeros.f_scatter_add(1, &idx, &nan.f_to_kind(Kind::Double)?)?.f_gt(0.0)?;
                r.f_masked_fill(&any_nan, f64::NAN)?
            } else {
                r.f_masked_fill(&numbers.f_eq(0.0)?, f64::NAN)?
            };
            r.f_masked_fill(&empty, f64::NAN)?
        }
        BinStatistic::Median => {
            // values sorted within each bin: by value (NaN last), then stably by bin
            let (sv, order) = v2.f_sort(1, false)?;
            let b = idx.f_gather(1, &order, false)?;
            let (_, order2) = b.f_sort_stable(true, 1, false)?;
            let grouped = sv.f_gather(1, &order2, false)?;
            let start = count1.f_cumsum(0, Kind::Double)?.f_sub(&count1)?;
            let mid = start.f_add(&count1.f_sub_scalar(1.0)?.f_div_scalar(2.0)?)?;
            let lo = mid.f_floor()?.f_clamp(0.0, (n - 1).max(0) as f64)?.f_to_kind(Kind::Int64)?;
            let hi = mid.f_ceil()?.f_clamp(0.0, (n - 1).max(0) as f64)?.f_to_kind(Kind::Int64)?;
            if n == 0 {
                zeros.f_full_like(f64::NAN)?
            } else {
                let a = grouped.f_index_select(1, &lo)?;
                let c = grouped.f_index_select(1, &hi)?;
                a.f_add(&c)?.f_div_scalar(2.0)?.f_masked_fill(&empty, f64::NAN)?
            }
        }
    };
    let core = result.f_narrow(1, 1, nbin - 2)?;
    let mut shape: Vec<i64> = if vshape.is_empty() { vec![] } else { vshape[..vshape.len() - 1].to_vec() };
    shape.push(nbin - 2);
    Ok((core.f_reshape(&shape)?, edges, binnumber))
}
