//! `scipy.stats._stats_py` (and `_entropy`, `_variation`): descriptive
//! statistics, z-scores, ranks and entropy.
//!
//! The reductions share SciPy's `_axis_nan_policy` semantics through
//! [`Layout`]: the input as at least 1-d, the reduced axes (`axis`: an int, a
//! tuple, or all of them for `None`) moved last and flattened into one, NaN
//! handled per `nan_policy` ("propagate": slices holding NaN give NaN;
//! "omit": NaNs masked out of every sum and count; "raise": a ValueError),
//! slices at or below a routine's minimum size NaN, with SciPy's
//! `SmallSampleWarning` messages where SciPy warns ([`Layout::finish`]).
//!
//! Moments are two-pass (the mean first, then the powers of the
//! deviations), as SciPy computes them, so data with a large mean keep their
//! skewness and kurtosis. Order statistics (quantiles, medians, trimmed
//! means, `mode`) sort each slice once, NaN last, and index each slice by
//! its own count of valid values (`iqr` and `median_abs_deviation` on CPU
//! floats select the few order statistics they need instead: `select`); ranks come from one stable sort and
//! segment arithmetic (cumulative max/min over tie boundaries).

use tch::{Kind, Tensor};

use crate::ops::numpy::normalize_axis;
use crate::{Error, Result};

mod inference;
mod ks;
mod select;
pub use inference::*;
pub use ks::*;

/// SciPy's `nan_policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NanPolicy {
    /// NaN in a slice makes its result NaN.
    Propagate,
    /// NaNs are left out of the computation.
    Omit,
    /// NaN in the input raises.
    Raise,
}

impl NanPolicy {
    /// The policy SciPy names `name`.
    pub fn from_scipy(name: &str) -> Result<NanPolicy> {
        match name {
            "propagate" => Ok(NanPolicy::Propagate),
            "omit" => Ok(NanPolicy::Omit),
            "raise" => Ok(NanPolicy::Raise),
            _ => Err(Error::InvalidArgument("nan_policy must be one of {'propagate', 'raise', 'omit'}.".into())),
        }
    }
}

/// The axes a reduction runs over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Axis {
    /// `axis=None`: the whole (flattened) array.
    All,
    /// These axes (negative ones count from the end), flattened together.
    Dims(Vec<i64>),
}

/// A warning SciPy gives, for the binding to raise in Python.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Warning {
    /// `scipy.stats`' `SmallSampleWarning` (a `RuntimeWarning`), with its message.
    SmallSample(&'static str),
    /// A plain `RuntimeWarning`.
    Runtime(&'static str),
    /// A plain `RuntimeWarning` whose message names values of the call.
    RuntimeText(String),
    /// `scipy.stats.ConstantInputWarning`.
    ConstantInput(&'static str),
    /// `scipy.stats.NearConstantInputWarning`.
    NearConstantInput(&'static str),
}

/// SciPy's `SmallSampleWarning` messages (`scipy/stats/_axis_nan_policy.py`).
pub const TOO_SMALL_1D: &str = "One or more sample arguments is too small; all returned values will be NaN. \
                                See documentation for sample size requirements.";
/// The message after NaNs were omitted from a 1-d sample.
pub const TOO_SMALL_1D_OMIT: &str = "After omitting NaNs, one or more sample arguments is too small; all returned \
                                     values will be NaN. See documentation for sample size requirements.";
/// The message when every slice of an n-d sample is too small.
pub const TOO_SMALL_ND: &str = "All axis-slices of one or more sample arguments are too small; all elements of \
                                returned arrays will be NaN. See documentation for sample size requirements.";
/// The message when, after NaNs were omitted, some slices are too small.
pub const TOO_SMALL_ND_OMIT: &str = "After omitting NaNs, one or more axis-slices of one or more sample arguments \
                                     is too small; corresponding elements of returned arrays will be NaN. See \
                                     documentation for sample size requirements.";

/// SciPy's warning when the deviations from the mean cancel (`_demean`).
pub const PRECISION_LOSS: &str = "Precision loss occurred in moment calculation due to catastrophic cancellation. \
                                  This occurs when the data are nearly identical. Results may be unreliable.";

/// Results with the warnings SciPy gives for them.
pub struct Reduced {
    /// The results, in the routine's order.
    pub values: Vec<Tensor>,
    /// The warnings, in order.
    pub warnings: Vec<Warning>,
}

fn is_floating(kind: Kind) -> bool {
    matches!(kind, Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double)
}

fn is_complex(kind: Kind) -> bool {
    matches!(kind, Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble)
}

/// The floating dtype SciPy computes and returns (`xp_promote(force_floating=True)`):
/// floats keep theirs, integers and bool become float64.
fn result_kind(kind: Kind) -> Result<Kind> {
    if is_complex(kind) {
        return Err(Error::NotImplemented("complex input: torchbridge.stats computes on real data".into()));
    }
    Ok(if is_floating(kind) { kind } else { Kind::Double })
}

/// The kind the arithmetic runs in: half precision is computed in float32.
fn compute_kind(kind: Kind) -> Kind {
    match kind {
        Kind::Half | Kind::BFloat16 => Kind::Float,
        other => other,
    }
}

fn eps(kind: Kind) -> f64 {
    match kind {
        Kind::Float => f32::EPSILON as f64,
        Kind::Half => 0.000_976_562_5,
        Kind::BFloat16 => 0.007_812_5,
        _ => f64::EPSILON,
    }
}

fn any(t: &Tensor) -> Result<bool> {
    Ok(t.numel() > 0 && t.f_any()?.f_int64_value(&[])? != 0)
}

/// Whether any element of a boolean tensor is true (false when empty).
pub(crate) fn any_true(t: &Tensor) -> Result<bool> {
    any(t)
}

fn all(t: &Tensor) -> Result<bool> {
    Ok(t.f_all()?.f_int64_value(&[])? != 0)
}

fn nan_like(t: &Tensor) -> Result<Tensor> {
    Ok(t.f_full_like(f64::NAN)?)
}

/// Whether a floating tensor holds NaN.
fn has_nan(t: &Tensor) -> Result<bool> {
    if !is_floating(t.kind()) {
        return Ok(false);
    }
    any(&t.f_isnan()?)
}

/// A sample laid out for a reduction over its last dimension, with SciPy's
/// `_axis_nan_policy` bookkeeping.
pub struct Layout {
    /// The input in its own dtype, reduced axes last and flattened: `(*out_shape, length)`.
    pub raw: Tensor,
    /// `raw` in the working floating dtype.
    pub x: Tensor,
    /// The shape of a result.
    pub out_shape: Vec<i64>,
    /// The shape of a result with `keepdims=True`.
    pub keep_shape: Vec<i64>,
    /// How many values each slice has.
    pub length: i64,
    /// SciPy's 1-d path: the reduction covers the whole (at least 1-d) input.
    pub one_d: bool,
    /// Where the input (or a paired sample) holds NaN; `None` when it holds none.
    pub nans: Option<Tensor>,
    /// The `nan_policy`.
    pub policy: NanPolicy,
    /// The dtype of the results.
    pub out_kind: Kind,
    perm: Vec<i64>,
    laid_shape: Vec<i64>,
    /// Set when deviations from the mean lost their precision (SciPy's `_demean` warning).
    precision_lost: std::cell::Cell<bool>,
}

impl Layout {
    /// Lays `x` out for a reduction over `axis`; raises for NaN under "raise".
    pub fn new(x: &Tensor, axis: &Axis, policy: NanPolicy) -> Result<Layout> {
        let x = if x.dim() == 0 { x.f_reshape([1])? } else { x.shallow_clone() };
        let shape = x.size();
        let nd = shape.len();
        let (perm, out_shape, keep_shape, length) = match axis {
            Axis::All => ((0..nd as i64).collect(), vec![], vec![1; nd], shape.iter().product()),
            Axis::Dims(dims) => {
                let mut reduced: Vec<usize> = Vec::new();
                for &d in dims {
                    let a = normalize_axis(d, nd)?;
                    if reduced.contains(&a) {
                        return Err(Error::InvalidArgument("repeated axis".into()));
                    }
                    reduced.push(a);
                }
                let kept: Vec<usize> = (0..nd).filter(|a| !reduced.contains(a)).collect();
                let perm = kept.iter().chain(reduced.iter()).map(|&a| a as i64).collect();
                let out_shape = kept.iter().map(|&a| shape[a]).collect();
                let keep_shape = (0..nd).map(|a| if reduced.contains(&a) { 1 } else { shape[a] }).collect();
                (perm, out_shape, keep_shape, reduced.iter().map(|&a| shape[a]).product())
            }
        };
        let mut laid_shape: Vec<i64> = out_shape.clone();
        laid_shape.push(length);
        let raw = x.f_permute(&perm)?.f_reshape(&laid_shape)?;
        let out_kind = result_kind(raw.kind())?;
        let xf = raw.f_to_kind(compute_kind(out_kind))?;
        let nans = if has_nan(&raw)? { Some(xf.f_isnan()?) } else { None };
        if nans.is_some() && policy == NanPolicy::Raise {
            return Err(Error::InvalidArgument("The input contains nan values".into()));
        }
        Ok(Layout {
            raw,
            x: xf,
            one_d: out_shape.is_empty(),
            out_shape,
            keep_shape,
            length,
            nans,
            policy,
            out_kind,
            perm,
            laid_shape,
            precision_lost: std::cell::Cell::new(false),
        })
    }

    /// `t` (broadcastable to the original input's shape) laid out as the input is.
    pub fn lay(&self, t: &Tensor, original_shape: &[i64]) -> Result<Tensor> {
        let t = if original_shape.is_empty() { t.f_reshape([1])? } else { t.shallow_clone() };
        let shape: Vec<i64> = if original_shape.is_empty() { vec![1] } else { original_shape.to_vec() };
        Ok(t.f_expand(&shape, false)?.f_permute(&self.perm)?.f_reshape(&self.laid_shape)?)
    }

    /// Adds a paired sample (already [`lay`](Self::lay)ed): its NaNs count as the input's.
    pub fn pair(&mut self, other: &Tensor) -> Result<()> {
        if has_nan(other)? {
            if self.policy == NanPolicy::Raise {
                return Err(Error::InvalidArgument("The input contains nan values".into()));
            }
            let other_nans = other.f_isnan()?;
            self.nans = Some(match &self.nans {
                Some(n) => n.f_logical_or(&other_nans)?,
                None => other_nans,
            });
        }
        Ok(())
    }

    /// Whether NaNs are being left out (the policy is "omit" and there are some).
    pub fn omit(&self) -> bool {
        self.policy == NanPolicy::Omit && self.nans.is_some()
    }

    /// The positions left out: the NaNs under "omit", else none.
    fn omitted(&self) -> Option<&Tensor> {
        if self.omit() {
            self.nans.as_ref()
        } else {
            None
        }
    }

    fn kind(&self) -> Kind {
        self.x.kind()
    }

    /// The number of values each slice contributes, in the working dtype.
    pub fn count(&self) -> Result<Tensor> {
        match self.omitted() {
            Some(nans) => Ok(nans.f_logical_not()?.f_sum_dim_intlist([-1i64].as_slice(), false, self.kind())?),
            None => Ok(Tensor::f_full(&self.out_shape, self.length as f64, (self.kind(), self.x.device()))?),
        }
    }

    /// The sum of `t` (laid out as the input) over each slice, the omitted positions left out.
    pub fn sum(&self, t: &Tensor) -> Result<Tensor> {
        let t = match self.omitted() {
            Some(nans) => t.f_masked_fill(nans, 0.0)?,
            None => t.shallow_clone(),
        };
        Ok(t.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)?)
    }

    /// The mean of each slice.
    pub fn mean(&self, n: &Tensor) -> Result<Tensor> {
        Ok(self.sum(&self.x)?.f_div(n)?)
    }

    /// The mean of `(x - center)**order` over each slice.
    pub fn central(&self, center: &Tensor, order: f64, n: &Tensor) -> Result<Tensor> {
        let d = self.x.f_sub(&center.f_unsqueeze(-1)?)?;
        self.check_precision(&d, center, n, &self.sum(&d.f_square()?)?.f_div(n)?)?;
        let p = if order == 2.0 { d.f_square()? } else { d.f_pow_tensor_scalar(order)? };
        Ok(self.sum(&p)?.f_div(n)?)
    }

    /// The central moments of `orders` (each 2, 3 or 4) about `center`: the
    /// deviations computed once, their powers by multiplication.
    fn central_moments(&self, center: &Tensor, n: &Tensor, orders: &[u8]) -> Result<Vec<Tensor>> {
        let d = self.x.f_sub(&center.f_unsqueeze(-1)?)?;
        let d = match self.omitted() {
            Some(nans) => d.f_masked_fill(nans, 0.0)?,
            None => d,
        };
        let mut d2 = d.f_square()?;
        let dims = [-1i64];
        let m2 = d2.f_sum_dim_intlist(dims.as_slice(), false, None::<Kind>)?.f_div(n)?;
        self.check_precision(&d, center, n, &m2)?;
        let mut out = Vec::with_capacity(orders.len());
        let mut power = 2u8;
        // d2 is ours: raised in place (d2 * d, d2 * d2) once its own sum is taken, no new buffers
        for &k in orders {
            if k == 3 && power == 2 {
                let _ = d2.f_mul_(&d)?;
                power = 3;
            } else if k == 4 && power == 2 {
                let _ = d2.f_square_()?;
                power = 4;
            }
            if power != k {
                return Err(Error::InvalidArgument(format!("central moments in the order 2, 3 or 2, 4 (got {k})")));
            }
            out.push(d2.f_sum_dim_intlist(dims.as_slice(), false, None::<Kind>)?.f_div(n)?);
        }
        Ok(out)
    }

    /// SciPy's `_demean` test: deviations all below `10 eps |mean|` in a
    /// slice of more than one value lost their precision to cancellation.
    /// Only slices whose second moment is that small can fail it, so the
    /// full test runs only when one does.
    fn check_precision(&self, d: &Tensor, center: &Tensor, n: &Tensor, m2: &Tensor) -> Result<()> {
        let bound = center.f_abs()?.f_mul_scalar(10.0 * eps(self.kind()))?;
        let candidates = m2.f_le_tensor(&bound.f_square()?)?.f_logical_and(&n.f_gt(1.0)?)?;
        if !any(&candidates)? {
            return Ok(());
        }
        let dev = match self.omitted() {
            Some(nans) => d.f_abs()?.f_masked_fill(nans, 0.0)?,
            None => d.f_abs()?,
        };
        let lost = dev.f_amax([-1i64].as_slice(), false)?.f_lt_tensor(&bound)?.f_logical_and(&candidates)?;
        if any(&lost)? {
            self.precision_lost.set(true);
        }
        Ok(())
    }

    /// Each slice sorted, NaN last, with its count of valid values.
    pub fn sorted(&self, values: &Tensor) -> Result<(Tensor, Tensor)> {
        let (s, _) = values.f_sort(-1, false)?;
        let n = match self.omitted() {
            Some(_) => s.f_isnan()?.f_logical_not()?.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Int64)?,
            None => Tensor::f_full(&self.out_shape, self.length, (Kind::Int64, self.x.device()))?,
        };
        Ok((s, n))
    }

    /// SciPy's decorator on the results: NaN for too-small slices (at most
    /// `too_small` values) with SciPy's warnings, NaN for slices holding NaN
    /// under "propagate" (unless the routine handles NaN itself:
    /// `nan_propagation` false), the `keepdims` shape and the result dtype.
    pub fn finish(
        &self,
        values: Vec<Tensor>,
        too_small: i64,
        nan_propagation: bool,
        keepdims: bool,
    ) -> Result<Reduced> {
        let mut warnings = Vec::new();
        // None: keep; Some(None): all NaN; Some(Some(mask)): NaN where mask.
        let mut nan_at: Option<Option<Tensor>> = None;
        let out_numel: i64 = self.out_shape.iter().product();
        let propagating = self.policy == NanPolicy::Propagate && nan_propagation;
        if self.one_d {
            if propagating && self.nans.is_some() {
                nan_at = Some(None);
            } else {
                let n = match self.omitted() {
                    Some(nans) => self.length - nans.f_sum(Kind::Int64)?.f_int64_value(&[])?,
                    None => self.length,
                };
                if n <= too_small {
                    warnings.push(Warning::SmallSample(if self.omit() { TOO_SMALL_1D_OMIT } else { TOO_SMALL_1D }));
                    nan_at = Some(None);
                }
            }
        } else if self.x.numel() == 0 && (self.length <= too_small || out_numel == 0) {
            if self.length <= too_small && out_numel > 0 {
                warnings.push(Warning::SmallSample(TOO_SMALL_ND));
            }
            nan_at = Some(None);
        } else if self.omit() {
            let small = self.count()?.f_le(too_small)?;
            if any(&small)? {
                warnings.push(Warning::SmallSample(TOO_SMALL_ND_OMIT));
                nan_at = Some(Some(small));
            }
        } else if propagating {
            if let Some(nans) = &self.nans {
                nan_at = Some(Some(nans.f_any_dim(-1, false)?));
            }
        }
        let shape = if keepdims { &self.keep_shape } else { &self.out_shape };
        let values = values
            .into_iter()
            .map(|v| {
                let mut v = v;
                if let Some(mask) = &nan_at {
                    if !is_floating(v.kind()) {
                        v = v.f_to_kind(Kind::Double)?;
                    }
                    v = match mask {
                        None => Tensor::f_full(&self.out_shape, f64::NAN, (v.kind(), v.device()))?,
                        Some(m) => v.f_masked_fill(m, f64::NAN)?,
                    };
                }
                if is_floating(v.kind()) && is_floating(self.out_kind) && v.kind() != self.out_kind {
                    v = v.f_to_kind(self.out_kind)?;
                }
                Ok(v.f_reshape(shape.as_slice())?)
            })
            .collect::<Result<Vec<_>>>()?;
        if self.precision_lost.get() {
            warnings.insert(0, Warning::Runtime(PRECISION_LOSS));
        }
        Ok(Reduced { values, warnings })
    }

    fn one(&self, value: Tensor, too_small: i64, keepdims: bool) -> Result<Reduced> {
        self.finish(vec![value], too_small, true, keepdims)
    }
}

/// `m3 / m2**1.5` with SciPy's "all values equal" test and bias correction.
fn skew_of(l: &Layout, bias: bool) -> Result<Tensor> {
    let n = l.count()?;
    let mean = l.mean(&n)?;
    let m = l.central_moments(&mean, &n, &[2, 3])?;
    let (m2, m3) = (&m[0], &m[1]);
    let zero = m2.f_le_tensor(&mean.f_mul_scalar(eps(l.kind()))?.f_square()?)?;
    let g1 = m3.f_div(&m2.f_pow_tensor_scalar(1.5)?)?;
    let mut vals = g1.f_masked_fill(&zero, f64::NAN)?;
    let n = &n;
    if !bias {
        let can = zero.f_logical_not()?.f_logical_and(&n.f_gt(2.0)?)?;
        let factor = n.f_sub_scalar(1.0)?.f_mul(n)?.f_sqrt()?.f_div(&n.f_sub_scalar(2.0)?)?;
        vals = g1.f_mul(&factor)?.f_where_self(&can, &vals)?;
    }
    Ok(vals)
}

fn kurtosis_of(l: &Layout, fisher: bool, bias: bool) -> Result<Tensor> {
    let n = l.count()?;
    let mean = l.mean(&n)?;
    let m = l.central_moments(&mean, &n, &[2, 4])?;
    let (m2, m4) = (&m[0], &m[1]);
    let zero = m2.f_le_tensor(&mean.f_mul_scalar(eps(l.kind()))?.f_square()?)?;
    let b2 = m4.f_div(&m2.f_square()?)?;
    let mut vals = b2.f_masked_fill(&zero, f64::NAN)?;
    let n = &n;
    if !bias {
        let can = zero.f_logical_not()?.f_logical_and(&n.f_gt(3.0)?)?;
        // 1/(n-2)/(n-3) * ((n**2 - 1) * m4/m2**2 - 3 * (n-1)**2) + 3
        let n1 = n.f_sub_scalar(1.0)?;
        let corrected = n
            .f_square()?
            .f_sub_scalar(1.0)?
            .f_mul(&b2)?
            .f_sub(&n1.f_square()?.f_mul_scalar(3.0)?)?
            .f_div(&n.f_sub_scalar(2.0)?)?
            .f_div(&n.f_sub_scalar(3.0)?)?
            .f_add_scalar(3.0)?;
        vals = corrected.f_where_self(&can, &vals)?;
    }
    Ok(if fisher { vals.f_sub_scalar(3.0)? } else { vals })
}

/// `scipy.stats.skew`: the Fisher-Pearson coefficient `m3 / m2**1.5` (bias-corrected when `bias` is false).
pub fn skew(a: &Tensor, axis: &Axis, bias: bool, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let v = skew_of(&l, bias)?;
    l.one(v, 0, keepdims)
}

/// `scipy.stats.kurtosis`: `m4 / m2**2`, less 3 when `fisher` (bias-corrected when `bias` is false).
pub fn kurtosis(
    a: &Tensor,
    axis: &Axis,
    fisher: bool,
    bias: bool,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let v = kurtosis_of(&l, fisher, bias)?;
    l.one(v, 0, keepdims)
}

/// `scipy.stats.moment`: the moments of `orders` (integral values) about
/// the mean, or about `center`; one result per order.
pub fn moment(
    a: &Tensor,
    orders: &[f64],
    axis: &Axis,
    policy: NanPolicy,
    center: Option<f64>,
    keepdims: bool,
) -> Result<Reduced> {
    if orders.is_empty() {
        return Err(Error::InvalidArgument("`order` must be a scalar or a non-empty 1D array.".into()));
    }
    if orders.iter().any(|o| o.fract() != 0.0 || !o.is_finite()) {
        return Err(Error::InvalidArgument("All elements of `order` must be integral.".into()));
    }
    let l = Layout::new(a, axis, policy)?;
    let n = l.count()?;
    let options = (l.kind(), l.x.device());
    let mean = if center.is_none() && orders.iter().any(|&o| o > 1.0) { Some(l.mean(&n)?) } else { None };
    let mut values = Vec::with_capacity(orders.len());
    for &order in orders {
        let v = if order == 0.0 {
            Tensor::f_ones(&l.out_shape, options)?
        } else if let Some(c) = center {
            l.central(&Tensor::f_full(&l.out_shape, c, options)?, order, &n)?
        } else if order == 1.0 {
            Tensor::f_zeros(&l.out_shape, options)?
        } else {
            l.central(mean.as_ref().expect("computed for orders above 1"), order, &n)?
        };
        values.push(v);
    }
    l.finish(values, 0, true, keepdims)
}

/// The variance of each slice with `ddof`, as NumPy's `var` (NaN or inf where `n - ddof <= 0`).
fn var_of(l: &Layout, n: &Tensor, mean: &Tensor, ddof: f64) -> Result<Tensor> {
    let m2 = l.central(mean, 2.0, n)?;
    Ok(m2.f_mul(n)?.f_div(&n.f_sub_scalar(ddof)?.f_clamp_min(0.0)?)?)
}

/// `scipy.stats.sem`: the standard error of the mean, `std(ddof) / sqrt(n)`.
pub fn sem(a: &Tensor, axis: &Axis, ddof: f64, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let n = l.count()?;
    let mean = l.mean(&n)?;
    let v = var_of(&l, &n, &mean, ddof)?.f_sqrt()?.f_div(&n.f_sqrt()?)?;
    l.one(v, 1, keepdims)
}

/// `scipy.stats.variation`: `std(ddof) / mean`, with SciPy's `ddof == n` cases (+-inf or NaN).
pub fn variation(a: &Tensor, axis: &Axis, policy: NanPolicy, ddof: f64, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let n = l.count()?;
    let mean = l.mean(&n)?;
    let std = l.central(&mean, 2.0, &n)?.f_sqrt()?;
    let correction = n.f_div(&n.f_sub_scalar(ddof)?)?.f_sqrt()?;
    let result = std.f_mul(&correction)?.f_div(&mean)?;
    let special =
        mean.f_full_like(f64::INFINITY)?.f_copysign(&mean)?.f_where_self(&std.f_gt(0.0)?, &nan_like(&mean)?)?;
    let v = special.f_where_self(&n.f_eq(ddof)?, &result)?;
    l.one(v, 0, keepdims)
}

/// Which generalised mean [`power_mean`] takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Power {
    /// `gmean`: `exp(mean(log a))`.
    Geometric,
    /// `hmean`: `1 / mean(1 / a)`.
    Harmonic,
    /// `pmean(p)`: `mean(a**p)**(1/p)` (`p = 0` is the geometric mean).
    P(f64),
}

/// `gmean`, `hmean` and `pmean`: the weighted generalised means (weights
/// broadcast against `a`; NaNs in either are left out together under "omit").
pub fn power_mean(
    a: &Tensor,
    power: Power,
    axis: &Axis,
    weights: Option<&Tensor>,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let power = match power {
        Power::P(0.0) => Power::Geometric,
        Power::P(p) if p.is_infinite() => {
            return Err(Error::NotImplemented("Power mean only implemented for finite `p`".into()))
        }
        Power::P(p) if p.is_nan() => {
            return Err(Error::NotImplemented("Power mean only implemented for finite `p` (got nan)".into()))
        }
        other => other,
    };
    let (a, weights) = match weights {
        Some(w) => {
            let shape = crate::ops::numpy::broadcast_shapes(&[&a.size(), &w.size()])?;
            let kind = result_kind(a.kind())?;
            let wkind = result_kind(w.kind())?;
            let kind = if kind == Kind::Double || wkind == Kind::Double { Kind::Double } else { kind };
            (a.f_expand(&shape, false)?.f_to_kind(kind)?, Some(w.f_expand(&shape, false)?.f_to_kind(kind)?))
        }
        // NumPy's `log` loop for integers, which SciPy's gmean keeps: float16 for 8 bits, float32 for 16
        None if power == Power::Geometric && !is_floating(a.kind()) && !is_complex(a.kind()) => {
            let kind = match a.kind() {
                Kind::Bool | Kind::Int8 | Kind::Uint8 => Kind::Half,
                Kind::Int16 => Kind::Float,
                _ => Kind::Double,
            };
            (a.f_to_kind(kind)?, None)
        }
        None => (a.shallow_clone(), None),
    };
    let mut l = Layout::new(&a, axis, policy)?;
    let w = match &weights {
        Some(w) => {
            let w = l.lay(&w.f_to_kind(l.kind())?, &a.size())?;
            l.pair(&w)?;
            Some(w)
        }
        None => None,
    };
    let mut warnings = Vec::new();
    let mut x = l.x.shallow_clone();
    if !matches!(power, Power::Geometric) && any(&x.f_lt(0.0)?)? {
        x = x.f_masked_fill(&x.f_lt(0.0)?, f64::NAN)?;
        warnings.push(Warning::Runtime(match power {
            Power::Harmonic => {
                "The harmonic mean is only defined if all elements are non-negative; otherwise, the result is NaN."
            }
            _ => "The power mean is only defined if all elements are non-negative; otherwise, the result is NaN.",
        }));
    }
    let transformed = match power {
        Power::Geometric => x.f_log()?,
        Power::Harmonic => x.f_reciprocal()?,
        Power::P(p) => x.f_pow_tensor_scalar(p)?,
    };
    let mean = match &w {
        Some(w) => l.sum(&transformed.f_mul(w)?)?.f_div(&l.sum(w)?)?,
        None => l.sum(&transformed)?.f_div(&l.count()?)?,
    };
    let v = match power {
        Power::Geometric => mean.f_exp()?,
        Power::Harmonic => mean.f_reciprocal()?,
        Power::P(p) => mean.f_pow_tensor_scalar(1.0 / p)?,
    };
    let mut reduced = l.one(v, 0, keepdims)?;
    warnings.append(&mut reduced.warnings);
    reduced.warnings = warnings;
    Ok(reduced)
}

/// `limits`/`inclusive` of the trimmed statistics: `(lower, upper)`, each optional.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// The lower limit, if any.
    pub lower: Option<f64>,
    /// The upper limit, if any.
    pub upper: Option<f64>,
    /// Whether values equal to the lower limit are kept.
    pub lower_inclusive: bool,
    /// Whether values equal to the upper limit are kept.
    pub upper_inclusive: bool,
}

impl Limits {
    /// Where `x` lies outside the limits (SciPy's `_put_val_to_limits` mask);
    /// raises when nothing is inside.
    fn outside(&self, x: &Tensor, omitted: Option<&Tensor>) -> Result<Tensor> {
        let mut mask = x.f_zeros_like()?.f_to_kind(Kind::Bool)?;
        if let Some(lo) = self.lower {
            mask = mask.f_logical_or(&if self.lower_inclusive { x.f_lt(lo)? } else { x.f_le(lo)? })?;
        }
        if let Some(hi) = self.upper {
            mask = mask.f_logical_or(&if self.upper_inclusive { x.f_gt(hi)? } else { x.f_ge(hi)? })?;
        }
        if self.lower.is_some() || self.upper.is_some() {
            let gone = match omitted {
                Some(o) => mask.f_logical_or(o)?,
                None => mask.shallow_clone(),
            };
            if x.numel() > 0 && all(&gone)? {
                return Err(Error::InvalidArgument("No array values within given limits".into()));
            }
        }
        Ok(mask)
    }
}

/// `tmean`: the mean of the values within the limits.
pub fn tmean(a: &Tensor, limits: &Limits, axis: &Axis, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let outside = limits.outside(&l.x, l.omitted())?;
    let inside = outside.f_logical_not()?;
    let n = l.sum(&inside.f_to_kind(l.kind())?)?;
    let s = l.sum(&l.x.f_masked_fill(&outside, 0.0)?)?;
    let v = s.f_div(&n)?.f_masked_fill(&n.f_eq(0.0)?, f64::NAN)?;
    l.one(v, 0, keepdims)
}

/// The variance of the values within the limits and not NaN (SciPy's `tvar`
/// omits NaN inside), with their count.
fn tvar_of(l: &Layout, limits: &Limits, ddof: f64) -> Result<(Tensor, Tensor)> {
    let outside = limits.outside(&l.x, l.omitted())?;
    let out = outside.f_logical_or(&l.x.f_isnan()?)?;
    let x = l.x.f_masked_fill(&out, 0.0)?;
    let keep = out.f_logical_not()?.f_to_kind(l.kind())?;
    let n = keep.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)?;
    let mean = x.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)?.f_div(&n)?;
    let d = x.f_sub(&mean.f_unsqueeze(-1)?)?.f_mul(&keep)?;
    let m2 = d.f_square()?.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)?.f_div(&n)?;
    let nc = n.f_sub_scalar(ddof)?;
    let var = m2.f_mul(&n)?.f_div(&nc)?.f_masked_fill(&nc.f_le(0.0)?, f64::NAN)?;
    Ok((var, n))
}

/// `tvar`: the variance (with `ddof`) of the values within the limits.
pub fn tvar(a: &Tensor, limits: &Limits, axis: &Axis, ddof: f64, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let (v, _) = tvar_of(&l, limits, ddof)?;
    l.one(v, 0, keepdims)
}

/// `tstd`: the square root of [`tvar`].
pub fn tstd(a: &Tensor, limits: &Limits, axis: &Axis, ddof: f64, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let (v, _) = tvar_of(&l, limits, ddof)?;
    l.one(v.f_sqrt()?, 0, keepdims)
}

/// `tsem`: the standard error of the mean of the values within the limits.
pub fn tsem(a: &Tensor, limits: &Limits, axis: &Axis, ddof: f64, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let (v, n) = tvar_of(&l, limits, ddof)?;
    l.one(v.f_sqrt()?.f_div(&n.f_sqrt()?)?, 0, keepdims)
}

/// `tmin` (`upper == false`) and `tmax`: the extreme value within one limit,
/// in the input's dtype (NaN, as float64 for integers, where a slice has none).
pub fn textreme(
    a: &Tensor,
    limit: Option<f64>,
    upper: bool,
    axis: &Axis,
    inclusive: bool,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let limits = if upper {
        Limits { upper: limit, upper_inclusive: inclusive, ..Default::default() }
    } else {
        Limits { lower: limit, lower_inclusive: inclusive, ..Default::default() }
    };
    let floating = is_floating(l.raw.kind());
    let probe = if floating { l.raw.shallow_clone() } else { l.raw.f_to_kind(Kind::Double)? };
    let mut outside = limits.outside(&probe, l.omitted())?;
    if let Some(o) = l.omitted() {
        outside = outside.f_logical_or(o)?;
    }
    let dims = [-1i64];
    let res = if l.length == 0 {
        Tensor::f_full(&l.out_shape, f64::NAN, (l.kind(), l.x.device()))?
    } else if floating {
        let fill = if upper { f64::NEG_INFINITY } else { f64::INFINITY };
        let v = l.raw.f_masked_fill(&outside, fill)?;
        if upper {
            v.f_amax(dims.as_slice(), false)?
        } else {
            v.f_amin(dims.as_slice(), false)?
        }
    } else {
        // integers: the input's own dtype, the values outside replaced by one that cannot win
        let filled = if l.raw.numel() == 0 {
            l.raw.shallow_clone()
        } else {
            let stand_in = if upper { l.raw.f_min()? } else { l.raw.f_max()? };
            stand_in.f_expand_as(&l.raw)?.f_where_self(&outside, &l.raw)?
        };
        if upper {
            filled.f_amax(dims.as_slice(), false)?
        } else {
            filled.f_amin(dims.as_slice(), false)?
        }
    };
    let invalid = if l.length == 0 { None } else { Some(outside.f_all_dim(-1, false)?) };
    let res = match invalid {
        Some(inv) if any(&inv)? => {
            let r = if is_floating(res.kind()) { res } else { res.f_to_kind(Kind::Double)? };
            r.f_masked_fill(&inv, f64::NAN)?
        }
        _ => res,
    };
    l.finish(vec![res], 0, true, keepdims)
}

/// How a quantile between two order statistics is taken (`iqr`'s `interpolation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// `a + (b - a) * fraction`.
    Linear,
    /// The lower order statistic.
    Lower,
    /// The higher order statistic.
    Higher,
    /// Their mean.
    Midpoint,
    /// The nearer one (ties to the even index).
    Nearest,
}

impl Interpolation {
    /// SciPy's name for it.
    pub fn from_scipy(name: &str) -> Result<Interpolation> {
        Ok(match name {
            "linear" => Interpolation::Linear,
            "lower" => Interpolation::Lower,
            "higher" => Interpolation::Higher,
            "midpoint" => Interpolation::Midpoint,
            "nearest" => Interpolation::Nearest,
            other => {
                return Err(Error::InvalidArgument(format!(
                    "`method` must be one of ['inverted_cdf', 'averaged_inverted_cdf', 'closest_observation', \
                     'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', 'median_unbiased', \
                     'normal_unbiased', 'harrell-davis', '_lower', '_midpoint', '_higher', '_nearest', \
                     'round_outward', 'round_inward', 'round_nearest']; got '{other}'"
                )))
            }
        })
    }
}

/// The `q` quantile of each sorted slice (`n` valid values each, NaN after them).
fn quantile_sorted(sorted: &Tensor, n: &Tensor, q: f64, method: Interpolation) -> Result<Tensor> {
    let len = *sorted.size().last().unwrap_or(&0);
    if len == 0 {
        let mut shape = sorted.size();
        shape.pop();
        return Ok(Tensor::f_full(&shape, f64::NAN, (sorted.kind(), sorted.device()))?);
    }
    let nf = n.f_to_kind(Kind::Double)?;
    let pos = nf.f_sub_scalar(1.0)?.f_mul_scalar(q)?.f_clamp_min(0.0)?;
    let lo = pos.f_floor()?;
    let hi = pos.f_ceil()?;
    let frac = pos.f_sub(&lo)?.f_to_kind(sorted.kind())?;
    let take = |i: &Tensor| -> Result<Tensor> {
        let idx = i.f_clamp(0.0, (len - 1) as f64)?.f_to_kind(Kind::Int64)?.f_unsqueeze(-1)?;
        Ok(sorted.f_gather(-1, &idx, false)?.f_squeeze_dim(-1)?)
    };
    Ok(match method {
        Interpolation::Lower => take(&lo)?,
        Interpolation::Higher => take(&hi)?,
        Interpolation::Nearest => take(&pos.f_round()?)?,
        Interpolation::Midpoint => {
            let (a, b) = (take(&lo)?, take(&hi)?);
            a.f_add(&b)?.f_div_scalar(2.0)?.f_where_self(&lo.f_ne_tensor(&hi)?, &a)?
        }
        Interpolation::Linear => {
            let (a, b) = (take(&lo)?, take(&hi)?);
            a.f_add(&b.f_sub(&a)?.f_mul(&frac)?)?.f_where_self(&frac.f_ne(0.0)?, &a)?
        }
    })
}

/// `iqr`: the spread between the `rng` percentiles, divided by `scale`.
#[allow(clippy::too_many_arguments)]
pub fn iqr(
    x: &Tensor,
    axis: &Axis,
    rng: (f64, f64),
    scale: f64,
    policy: NanPolicy,
    interpolation: Interpolation,
    keepdims: bool,
) -> Result<Reduced> {
    if rng.0.is_nan() || rng.1.is_nan() {
        return Err(Error::InvalidArgument("`rng` must not contain NaNs.".into()));
    }
    let (lo, hi) = if rng.0 < rng.1 { (rng.0 / 100.0, rng.1 / 100.0) } else { (rng.1 / 100.0, rng.0 / 100.0) };
    if lo < 0.0 || hi > 1.0 {
        return Err(Error::InvalidArgument("Elements of `rng` must be in the range [0, 100].".into()));
    }
    let l = Layout::new(x, axis, policy)?;
    let v = match select::quantiles(&l.x, &[lo, hi], interpolation, l.omit(), l.nans.is_some())? {
        // a CPU float: both quantiles by selection
        Some(q) => q[1].f_sub(&q[0])?,
        None => {
            let (s, n) = l.sorted(&l.x)?;
            quantile_sorted(&s, &n, hi, interpolation)?.f_sub(&quantile_sorted(&s, &n, lo, interpolation)?)?
        }
    };
    let v = if scale != 1.0 { v.f_div_scalar(scale)? } else { v };
    l.one(v, 0, keepdims)
}

/// `median_abs_deviation`: the median of `|x - median(x)|`, divided by `scale`.
pub fn median_abs_deviation(x: &Tensor, axis: &Axis, scale: f64, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(x, axis, policy)?;
    let median = |t: &Tensor, has_nan: bool| -> Result<Tensor> {
        match select::quantiles(t, &[0.5], Interpolation::Linear, l.omit(), has_nan)? {
            Some(mut q) => Ok(q.remove(0)),
            None => {
                let (s, n) = l.sorted(t)?;
                quantile_sorted(&s, &n, 0.5, Interpolation::Linear)
            }
        }
    };
    let med = median(&l.x, l.nans.is_some())?;
    let dev = l.x.f_sub(&med.f_unsqueeze(-1)?)?.f_abs()?;
    // `inf - inf` makes NaN deviations where the input has none
    let v = median(&dev, true)?.f_div_scalar(scale)?;
    l.one(v, 0, keepdims)
}

/// `trim_mean`: the mean after cutting `int(proportiontocut * n)` values off each end of each sorted slice.
pub fn trim_mean(a: &Tensor, proportiontocut: f64, axis: &Axis, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    let (s, n) = l.sorted(&l.x)?;
    let nf = n.f_to_kind(Kind::Double)?;
    let lower = nf.f_mul_scalar(proportiontocut)?.f_trunc()?;
    let upper = nf.f_sub(&lower)?;
    if l.x.numel() > 0 && any(&lower.f_gt_tensor(&upper)?)? {
        return Err(Error::InvalidArgument("Proportion too big.".into()));
    }
    let idx = Tensor::f_arange(l.length, (Kind::Double, l.x.device()))?;
    let keep = idx.f_ge_tensor(&lower.f_unsqueeze(-1)?)?.f_logical_and(&idx.f_lt_tensor(&upper.f_unsqueeze(-1)?)?)?;
    let kept = s.f_masked_fill(&keep.f_logical_not()?, 0.0)?;
    let count = keep.f_sum_dim_intlist([-1i64].as_slice(), false, l.kind())?;
    let v = kept.f_sum_dim_intlist([-1i64].as_slice(), false, None::<Kind>)?.f_div(&count)?;
    l.one(v, 0, keepdims)
}

/// `mode`: each slice's most frequent value (the smallest among ties) and its
/// count; NaNs count as one value unless omitted. The mode keeps the input's
/// dtype, the count is int64 (float64 where a slice is too small, as SciPy's).
pub fn mode(a: &Tensor, axis: &Axis, policy: NanPolicy, keepdims: bool) -> Result<Reduced> {
    let l = Layout::new(a, axis, policy)?;
    if l.length == 0 {
        let r = l.finish(
            vec![
                Tensor::f_zeros(&l.out_shape, (l.out_kind, l.x.device()))?,
                Tensor::f_zeros(&l.out_shape, (Kind::Double, l.x.device()))?,
            ],
            0,
            false,
            keepdims,
        )?;
        let count = r.values[1].f_zeros_like()?;
        return Ok(Reduced { values: vec![r.values[0].shallow_clone(), count], warnings: r.warnings });
    }
    let (y, _) = l.raw.f_sort(-1, false)?;
    let len = l.length;
    let differs = y.f_narrow(-1, 1, len - 1)?.f_ne_tensor(&y.f_narrow(-1, 0, len - 1)?)?;
    let differs = if is_floating(y.kind()) {
        differs.f_logical_and(&y.f_narrow(-1, 0, len - 1)?.f_isnan()?.f_logical_not()?)?
    } else {
        differs
    };
    let mut first_shape = l.out_shape.clone();
    first_shape.push(1);
    let starts = Tensor::f_cat(&[Tensor::f_ones(&first_shape, (Kind::Bool, y.device()))?, differs], -1)?;
    let segment = starts.f_cumsum(-1, Kind::Int64)?.f_sub_scalar(1)?;
    let per_segment = segment.f_zeros_like()?.f_scatter_add(-1, &segment, &segment.f_ones_like()?)?;
    let mut counts = per_segment.f_gather(-1, &segment, false)?;
    if l.omit() {
        counts = counts.f_masked_fill(&y.f_isnan()?, 0)?;
    }
    let k = counts.f_argmax(-1, true)?;
    let modes = y.f_gather(-1, &k, false)?.f_squeeze_dim(-1)?;
    let count = counts.f_gather(-1, &k, false)?.f_squeeze_dim(-1)?;
    let r = l.finish(vec![modes, count], 0, false, keepdims)?;
    let count = &r.values[1];
    let count = if is_floating(count.kind()) { count.f_nan_to_num(0.0, None, None)? } else { count.shallow_clone() };
    Ok(Reduced { values: vec![r.values[0].shallow_clone(), count], warnings: r.warnings })
}

/// `rankdata`'s tie methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankMethod {
    /// The mean of the tied ranks.
    Average,
    /// The lowest of them.
    Min,
    /// The highest of them.
    Max,
    /// Ranks without gaps: the number of distinct values so far.
    Dense,
    /// Distinct ranks in order of appearance.
    Ordinal,
}

impl RankMethod {
    /// SciPy's name for it.
    pub fn from_scipy(name: &str) -> Result<RankMethod> {
        Ok(match name {
            "average" => RankMethod::Average,
            "min" => RankMethod::Min,
            "max" => RankMethod::Max,
            "dense" => RankMethod::Dense,
            "ordinal" => RankMethod::Ordinal,
            other => return Err(Error::InvalidArgument(format!("unknown method \"{other}\""))),
        })
    }
}

/// `xl` as the kernel of `csrc/rankdata.cpp` takes it (contiguous, float64
/// or int64, values unchanged), where it ranks: on the CPU, for real and
/// integer dtypes (libtorch's sort serves CUDA).
fn rank_kernel_input(xl: &Tensor) -> Result<Option<Tensor>> {
    if xl.device() != tch::Device::Cpu {
        return Ok(None);
    }
    let kind = match xl.kind() {
        Kind::Double | Kind::Float | Kind::Half | Kind::BFloat16 => Kind::Double,
        Kind::Int64 | Kind::Int | Kind::Int16 | Kind::Int8 | Kind::Uint8 | Kind::Bool => Kind::Int64,
        _ => return Ok(None),
    };
    Ok(Some(xl.f_detach()?.f_to_kind(kind)?.f_contiguous()?))
}

/// The ranks along the last axis of `xl` from libtorch ops: a sort, then the
/// tie groups from the sorted rows (the path off the CPU kernel).
fn rank_by_sort(xl: &Tensor, method: RankMethod) -> Result<Tensor> {
    let len = *xl.size().last().unwrap_or(&0);
    // only "ordinal" tells tied values apart by position: the others take the faster unstable sort
    let (y, j) = xl.f_sort_stable(method == RankMethod::Ordinal, -1, false)?;
    let ordinal = Tensor::f_arange_start(1, len + 1, (Kind::Int64, xl.device()))?.f_expand(xl.size(), false)?;
    let sorted_ranks = if method == RankMethod::Ordinal {
        ordinal.shallow_clone()
    } else {
        let mut first = xl.size();
        *first.last_mut().expect("at least 1-d") = 1;
        let ones = Tensor::f_ones(&first, (Kind::Bool, xl.device()))?;
        let differs = y.f_narrow(-1, 1, len - 1)?.f_ne_tensor(&y.f_narrow(-1, 0, len - 1)?)?;
        let starts = Tensor::f_cat(&[&ones, &differs], -1)?;
        let min = || -> Result<Tensor> { Ok(ordinal.f_mul(&starts)?.f_cummax(-1)?.0) };
        let max = || -> Result<Tensor> {
            let ends = Tensor::f_cat(&[&differs, &ones], -1)?;
            let marked = ordinal.f_masked_fill(&ends.f_logical_not()?, len + 1)?;
            Ok(marked.f_flip([-1i64])?.f_cummin(-1)?.0.f_flip([-1i64])?)
        };
        match method {
            RankMethod::Min => min()?,
            RankMethod::Max => max()?,
            RankMethod::Average => min()?.f_add(&max()?)?.f_to_kind(Kind::Double)?.f_div_scalar(2.0)?,
            RankMethod::Dense => starts.f_cumsum(-1, Kind::Int64)?,
            RankMethod::Ordinal => unreachable!("handled above"),
        }
    };
    Ok(sorted_ranks.f_zeros_like()?.f_scatter(-1, &j, &sorted_ranks)?)
}

/// `rankdata`: ranks from 1 along `axis` (the flattened array for `None`),
/// float64 for "average" and int64 otherwise (float64 with NaN where NaN was
/// and is not raised: the NaN positions under "omit", whole slices under
/// "propagate").
pub fn rankdata(a: &Tensor, method: RankMethod, axis: Option<i64>, policy: NanPolicy) -> Result<Tensor> {
    if is_complex(a.kind()) {
        return Err(Error::NotImplemented("complex input: rankdata ranks real data".into()));
    }
    let (x, axis) = match axis {
        None => (a.f_reshape([-1])?, 0usize),
        Some(ax) => {
            let nd = a.dim().max(1);
            let x = if a.dim() == 0 { a.f_reshape([1])? } else { a.shallow_clone() };
            (x, normalize_axis(ax, nd)?)
        }
    };
    let out_kind = if method == RankMethod::Average { Kind::Double } else { Kind::Int64 };
    if x.numel() == 0 {
        return Ok(Tensor::f_empty(x.size(), (out_kind, x.device()))?);
    }
    let nans = if has_nan(&x)? { Some(x.f_isnan()?) } else { None };
    if nans.is_some() && policy == NanPolicy::Raise {
        return Err(Error::InvalidArgument("The input contains nan values".into()));
    }
    let last = x.dim() as i64 - 1;
    let xl = x.f_movedim([axis as i64], [last])?;
    let len = *xl.size().last().unwrap_or(&0);
    let mut ranks = match rank_kernel_input(&xl)? {
        Some(rows) => {
            let ranks = crate::ffi::rankdata::rankdata_cpu(&rows.f_view([-1, len])?, method)?;
            ranks.f_view(xl.size().as_slice())?
        }
        None => rank_by_sort(&xl, method)?,
    };
    if let Some(nans) = &nans {
        let nl = nans.f_movedim([axis as i64], [last])?;
        let at = if policy == NanPolicy::Omit { nl } else { nl.f_any_dim(-1, true)?.f_expand(xl.size(), false)? };
        ranks = ranks.f_to_kind(Kind::Double)?.f_masked_fill(&at, f64::NAN)?;
    }
    Ok(ranks.f_movedim([last], [axis as i64])?)
}

/// `zmap` (and `zscore`, where `scores` is `compare` and slices whose
/// standard deviation vanishes next to their mean are NaN): `(scores -
/// mean) / std`, the statistics of `compare` along `axis` (all of it for
/// `None`), NaNs of `compare` left out under "omit".
pub fn zmap(
    scores: &Tensor,
    compare: &Tensor,
    axis: Option<i64>,
    ddof: f64,
    policy: NanPolicy,
    like_zscore: bool,
) -> Result<Tensor> {
    let kind = {
        let (a, b) = (result_kind(scores.kind())?, result_kind(compare.kind())?);
        if a == b {
            a
        } else if a == Kind::Double || b == Kind::Double {
            Kind::Double
        } else {
            Kind::Float
        }
    };
    let work = compute_kind(kind);
    let scores = scores.f_to_kind(work)?;
    let compare = compare.f_to_kind(work)?;
    let dims: Vec<i64> = match axis {
        None => (0..compare.dim() as i64).collect(),
        Some(ax) => vec![normalize_axis(ax, compare.dim())? as i64],
    };
    let nans = if has_nan(&compare)? { Some(compare.f_isnan()?) } else { None };
    if policy == NanPolicy::Raise && (nans.is_some() || has_nan(&scores)?) {
        return Err(Error::InvalidArgument("The input contains nan values".into()));
    }
    let omit = policy == NanPolicy::Omit && nans.is_some();
    let sum = |t: &Tensor| -> Result<Tensor> {
        let t = match (&nans, omit) {
            (Some(m), true) => t.f_masked_fill(m, 0.0)?,
            _ => t.shallow_clone(),
        };
        Ok(t.f_sum_dim_intlist(dims.as_slice(), true, None::<Kind>)?)
    };
    let n = match (&nans, omit) {
        (Some(m), true) => m.f_logical_not()?.f_sum_dim_intlist(dims.as_slice(), true, work)?,
        _ => {
            let count: i64 = dims.iter().map(|&d| compare.size()[d as usize]).product();
            Tensor::f_full([1], count as f64, (work, compare.device()))?
        }
    };
    let mean = sum(&compare)?.f_div(&n)?;
    let m2 = sum(&compare.f_sub(&mean)?.f_square_()?)?.f_div(&n)?;
    let nc = n.f_sub_scalar(ddof)?;
    let var = m2.f_mul(&n)?.f_div(&nc)?.f_masked_fill(&nc.f_le(0.0)?, f64::NAN)?;
    let mut std = var.f_sqrt()?;
    if like_zscore {
        // NaN where the standard deviation vanishes next to the mean: set on the (small) std, not on z
        let zero = std.f_le_tensor(&mean.f_mul_scalar(eps(work))?.f_abs()?)?;
        std = std.f_masked_fill(&zero, f64::NAN)?;
    }
    let mut z = scores.f_sub(&mean)?;
    let _ = z.f_div_(&std)?;
    Ok(if z.kind() != kind { z.f_to_kind(kind)? } else { z })
}

/// `describe`'s numbers: `nobs`, `min`, `max`, `mean`, `variance` (with
/// `ddof`), `skewness` and `kurtosis` (with `bias`), NaNs left out under
/// "omit" (SciPy answers with masked arrays there).
pub fn describe(a: &Tensor, axis: &Axis, ddof: f64, bias: bool, policy: NanPolicy) -> Result<Vec<Tensor>> {
    if a.numel() == 0 {
        return Err(Error::InvalidArgument("The input must not be empty.".into()));
    }
    let l = Layout::new(a, axis, policy)?;
    let n = l.count()?;
    let dims = [-1i64];
    let (lo, hi) = match l.omitted() {
        Some(m) => (
            l.raw.f_masked_fill(m, f64::INFINITY)?.f_amin(dims.as_slice(), false)?,
            l.raw.f_masked_fill(m, f64::NEG_INFINITY)?.f_amax(dims.as_slice(), false)?,
        ),
        None => (l.raw.f_amin(dims.as_slice(), false)?, l.raw.f_amax(dims.as_slice(), false)?),
    };
    let mean = l.mean(&n)?;
    let m2 = l.central(&mean, 2.0, &n)?;
    let var = m2.f_mul(&n)?.f_div(&n.f_sub_scalar(ddof)?)?;
    let sk = skew_of(&l, bias)?;
    let ku = kurtosis_of(&l, true, bias)?;
    let nobs = if l.omit() {
        n.f_to_kind(Kind::Int64)?
    } else {
        Tensor::f_full([] as [i64; 0], l.length, (Kind::Int64, l.x.device()))?
    };
    let cast = |t: Tensor| -> Result<Tensor> { Ok(if t.kind() != l.out_kind { t.f_to_kind(l.out_kind)? } else { t }) };
    Ok(vec![nobs, lo, hi, cast(mean)?, cast(var)?, cast(sk)?, cast(ku)?])
}

/// `entropy`: `-sum(p log p)` of `pk` normalised over `axis`, or the
/// relative entropy `sum(p log(p / q))` against `qk`; in units of `base`
/// (nats for `None`).
pub fn entropy(
    pk: &Tensor,
    qk: Option<&Tensor>,
    base: Option<f64>,
    axis: &Axis,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    if let Some(b) = base {
        if b <= 0.0 || b.is_nan() {
            return Err(Error::InvalidArgument("`base` must be a positive number or `None`.".into()));
        }
    }
    let (pk, qk) = match qk {
        Some(q) => {
            let shape = crate::ops::numpy::broadcast_shapes(&[&pk.size(), &q.size()])?;
            let kind = {
                let (a, b) = (result_kind(pk.kind())?, result_kind(q.kind())?);
                if a == b {
                    a
                } else if a == Kind::Double || b == Kind::Double {
                    Kind::Double
                } else {
                    Kind::Float
                }
            };
            (pk.f_expand(&shape, false)?.f_to_kind(kind)?, Some(q.f_expand(&shape, false)?.f_to_kind(kind)?))
        }
        None => (pk.shallow_clone(), None),
    };
    let mut l = Layout::new(&pk, axis, policy)?;
    let q = match &qk {
        Some(q) => {
            let q = l.lay(&q.f_to_kind(l.kind())?, &pk.size())?;
            l.pair(&q)?;
            Some(q)
        }
        None => None,
    };
    let norm = |t: &Tensor| -> Result<Tensor> { Ok(t.f_div(&l.sum(t)?.f_unsqueeze(-1)?)?) };
    let p = norm(&l.x)?;
    let vec = match &q {
        None => p.f_special_entr()?,
        Some(q) => {
            let q = norm(q)?;
            // rel_entr: p log(p/q) for p, q > 0; 0 for p == 0 <= q; inf otherwise; NaN for NaN
            let both = p.f_gt(0.0)?.f_logical_and(&q.f_gt(0.0)?)?;
            let value = p.f_mul(&p.f_div(&q)?.f_log()?)?;
            let zero = p.f_eq(0.0)?.f_logical_and(&q.f_ge(0.0)?)?;
            let r = value.f_where_self(&both, &p.f_full_like(f64::INFINITY)?)?.f_masked_fill(&zero, 0.0)?;
            r.f_masked_fill(&p.f_isnan()?.f_logical_or(&q.f_isnan()?)?, f64::NAN)?
        }
    };
    let mut s = l.sum(&vec)?;
    if let Some(b) = base {
        s = s.f_div_scalar(b.ln())?;
    }
    l.one(s, -1, keepdims)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_kernel_gives_the_sort_paths_ranks() {
        // csrc/rankdata.cpp (the CPU path) against the libtorch-sort path
        // (CUDA's), on rows with many ties, -0.0 beside 0.0, infinities,
        // a single element and integers; NaN ranks are replaced by the
        // callers, so NaNs are left out here.
        let methods = [RankMethod::Average, RankMethod::Min, RankMethod::Max, RankMethod::Dense, RankMethod::Ordinal];
        let data = Tensor::f_randint_low(-6, 7, [5, 300], (Kind::Int64, tch::Device::Cpu)).unwrap();
        let floats = data.to_kind(Kind::Double).f_div_scalar(4.0).unwrap();
        floats.get(0).narrow(0, 0, 3).copy_(&Tensor::from_slice(&[-0.0, 0.0, f64::INFINITY]));
        let _ = floats.get(1).narrow(0, 0, 2).fill_(f64::NEG_INFINITY);
        let single = Tensor::from_slice(&[2.5]).view([1, 1]);
        for x in [&floats, &data, &single, &floats.to_kind(Kind::Float)] {
            for &method in &methods {
                let want = rank_by_sort(x, method).unwrap();
                let input = rank_kernel_input(x).unwrap().expect("a CPU tensor takes the kernel");
                let got = crate::ffi::rankdata::rankdata_cpu(&input.view([-1, *x.size().last().unwrap()]), method)
                    .unwrap()
                    .view(x.size().as_slice());
                assert_eq!(got.kind(), want.kind(), "{method:?}");
                assert!(got.equal(&want), "{method:?} on {:?}", x.kind());
            }
        }
    }
}
