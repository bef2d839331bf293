//! `scipy.stats._morestats`: the Box-Cox and Yeo-Johnson transformations
//! for a given `lmbda` (the maximum-likelihood `lmbda` is not built), and
//! the Wilcoxon signed-rank test (SciPy's `_wilcoxon`): ranks of `|d|` by
//! one sort per slice on the device, the normal approximation there; the
//! exact null distribution of the statistic tabulated on the host from the
//! slice sizes (one scalar p-value per slice), the exact permutation test
//! (all `2^n` sign flips, `n <= 13`) on the device.

use tch::{Kind, Tensor};

use super::stats_py::{
    from_host, host, paired, promote, rankdata, Alternative, Axis, Layout, NanPolicy, RankMethod, Reduced,
};
use crate::ops::numpy::normalize_axis;
use crate::ops::special;
use crate::{Error, Result};

/// The floating kind of `x` with a Python-float parameter (NumPy's weak scalar):
/// floats keep theirs, everything else is float64.
fn float_kind(kind: Kind) -> Result<Kind> {
    match kind {
        Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble => {
            Err(Error::InvalidArgument("Yeo-Johnson transformation is not defined for complex numbers.".into()))
        }
        Kind::Half | Kind::BFloat16 | Kind::Float | Kind::Double => Ok(kind),
        _ => Ok(Kind::Double),
    }
}

/// `boxcox(x, lmbda)`: SciPy's `special.boxcox` elementwise.
pub fn boxcox(x: &Tensor, lmbda: f64) -> Result<Tensor> {
    let kind = match x.kind() {
        Kind::Float => Kind::Float,
        Kind::Half | Kind::BFloat16 | Kind::Int8 | Kind::Uint8 | Kind::Int16 | Kind::Bool => Kind::Float,
        Kind::ComplexHalf | Kind::ComplexFloat | Kind::ComplexDouble => {
            return Err(Error::NotImplemented("complex input: boxcox transforms real data".into()))
        }
        _ => Kind::Double,
    };
    let l = Tensor::f_full([] as [i64; 0], lmbda, (kind, x.device()))?;
    special::boxcox(&x.f_to_kind(kind)?, &l)
}

/// `yeojohnson(x, lmbda)`: `((1 + x)**lmbda - 1) / lmbda` for `x >= 0`,
/// `-((1 - x)**(2 - lmbda) - 1) / (2 - lmbda)` below, with the logarithmic
/// limits at `lmbda` 0 and 2 (SciPy's `_yeojohnson_transform`).
pub fn yeojohnson(x: &Tensor, lmbda: f64) -> Result<Tensor> {
    let kind = float_kind(x.kind())?;
    let x = x.f_to_kind(kind)?;
    if x.numel() == 0 {
        return Ok(x);
    }
    let eps = match kind {
        Kind::Float => f32::EPSILON as f64,
        Kind::Half => 0.000_976_562_5,
        Kind::BFloat16 => 0.007_812_5,
        _ => f64::EPSILON,
    };
    let pos = x.f_ge(0.0)?;
    let xp = x.f_clamp_min(0.0)?;
    let xn = x.f_clamp_max(0.0)?;
    let up = if lmbda.abs() < eps {
        xp.f_log1p()?
    } else {
        xp.f_log1p()?.f_mul_scalar(lmbda)?.f_expm1()?.f_div_scalar(lmbda)?
    };
    let down = if (lmbda - 2.0).abs() > eps {
        xn.f_neg()?.f_log1p()?.f_mul_scalar(2.0 - lmbda)?.f_expm1()?.f_neg()?.f_div_scalar(2.0 - lmbda)?
    } else {
        xn.f_neg()?.f_log1p()?.f_neg()?
    };
    // NaN fails `x >= 0` and takes the lower branch, as in SciPy
    Ok(up.f_where_self(&pos, &down)?)
}

/// `wilcoxon`'s `zero_method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroMethod {
    /// Zero differences are dropped before ranking.
    Wilcox,
    /// Zeros are ranked, then dropped from the rank sums (Pratt).
    Pratt,
    /// Zeros are ranked and their ranks split between the two sums.
    Zsplit,
}

impl ZeroMethod {
    /// SciPy's name for it (any case).
    pub fn from_scipy(name: &str) -> Result<ZeroMethod> {
        match name.to_lowercase().as_str() {
            "wilcox" => Ok(ZeroMethod::Wilcox),
            "pratt" => Ok(ZeroMethod::Pratt),
            "zsplit" => Ok(ZeroMethod::Zsplit),
            _ => Err(Error::InvalidArgument("`zero_method` must be one of {'wilcox', 'pratt', 'zsplit'}.".into())),
        }
    }
}

/// `wilcoxon`'s `method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WilcoxonMethod {
    /// SciPy's choice: asymptotic beyond 50 values; else exact without ties
    /// and zeros; else the exact permutation test up to 13 values; else asymptotic.
    Auto,
    /// The normal approximation (the result then carries `zstatistic`).
    Asymptotic,
    /// The exact null distribution of the signed-rank statistic.
    Exact,
}

impl WilcoxonMethod {
    /// SciPy's name for it (`"approx"` is `"asymptotic"`, as SciPy keeps it).
    pub fn from_scipy(name: &str) -> Result<WilcoxonMethod> {
        match name {
            "auto" => Ok(WilcoxonMethod::Auto),
            "asymptotic" | "approx" => Ok(WilcoxonMethod::Asymptotic),
            "exact" => Ok(WilcoxonMethod::Exact),
            _ => Err(Error::InvalidArgument(
                "`method` must be one of {'auto', 'asymptotic', 'exact'} or an instance of `stats.PermutationMethod`."
                    .into(),
            )),
        }
    }
}

/// The null distribution of the signed-rank statistic `r_plus` for `n`
/// values: the probabilities of `0 ..= n(n+1)/2` (SciPy's `_get_wilcoxon_distr`).
fn wilcoxon_pmf(n: usize) -> Vec<f64> {
    let mut c = vec![1.0f64];
    for k in 1..=n {
        let mut next = vec![0.0f64; k * (k + 1) / 2 + 1];
        let m = c.len();
        let len = next.len();
        for (i, v) in c.iter().enumerate() {
            next[i] += v * 0.5;
            next[len - m + i] += v * 0.5;
        }
        c = next;
    }
    c
}

/// SciPy's `WilcoxonDistribution` `cdf`/`sf` at integer `k` (as float).
fn wilcoxon_tail(pmf: &[f64], n: f64, k: f64, upper: bool) -> f64 {
    let mean = n * (n + 1.0) / 4.0;
    let sum = |lo: f64, hi: f64| -> f64 {
        // sum of pmf[lo..hi] with NumPy's clamped slicing
        let lo = lo.max(0.0).min(pmf.len() as f64) as usize;
        let hi = hi.max(0.0).min(pmf.len() as f64) as usize;
        if lo >= hi {
            0.0
        } else {
            pmf[lo..hi].iter().sum()
        }
    };
    let len = pmf.len() as f64;
    if upper {
        if k <= mean {
            sum(k, len)
        } else {
            1.0 - sum(0.0, k)
        }
    } else if k <= mean {
        sum(0.0, k + 1.0)
    } else {
        1.0 - sum(k + 1.0, len)
    }
}

/// `wilcoxon`: the signed-rank statistic of `x` (or of `x - y`) along
/// `axis`, its p-value, and (for `method=Asymptotic`) the z statistic.
#[allow(clippy::too_many_arguments)]
pub fn wilcoxon(
    x: &Tensor,
    y: Option<&Tensor>,
    zero_method: ZeroMethod,
    correction: bool,
    alternative: Alternative,
    method: WilcoxonMethod,
    axis: &Axis,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let kind = match y {
        Some(y) => promote(&[x.kind(), y.kind()])?,
        None => promote(&[x.kind()])?,
    };
    let (l, d) = match y {
        Some(y) => {
            if let Axis::Dims(dims) = axis {
                let (nx, ny) = (x.dim().max(1), y.dim().max(1));
                for &a in dims {
                    let (ax, ay) = (normalize_axis(a, nx)?, normalize_axis(a, ny)?);
                    let (sx, sy) = (x.size().get(ax).copied().unwrap_or(1), y.size().get(ay).copied().unwrap_or(1));
                    if sx != sy {
                        return Err(Error::InvalidArgument(
                            "`x` and `y` must have the same length along `axis`.".into(),
                        ));
                    }
                }
            }
            let (l, others) = paired(&[x, y], axis, policy, kind)?;
            let d = l.x.f_sub(&others[0])?;
            (l, d)
        }
        None => {
            let l = Layout::new(&x.f_to_kind(kind)?, axis, policy)?;
            let d = l.x.shallow_clone();
            (l, d)
        }
    };
    let outputs = if method == WilcoxonMethod::Asymptotic { 3 } else { 2 };
    let out_kind = d.kind();
    if l.length == 0 || d.numel() == 0 {
        let z = Tensor::f_full(&l.out_shape, f64::NAN, (out_kind, d.device()))?;
        return l.finish((0..outputs).map(|_| z.shallow_clone()).collect(), 0, true, keepdims);
    }
    let d = d.f_to_kind(Kind::Double)?;
    let omitted = l.omit();
    // NaN slices propagate through the decorator: compute on numbers meanwhile
    let nan = d.f_isnan()?;
    let d = if omitted { d } else { d.f_nan_to_num(0.0, None, None)? };
    let zeros = d.f_eq(0.0)?;
    let excluded = if zero_method == ZeroMethod::Wilcox { zeros.f_logical_or(&nan)? } else { nan.shallow_clone() };
    let dims = [-1i64];
    let rowsum = |t: &Tensor| -> Result<Tensor> { Ok(t.f_sum_dim_intlist(dims.as_slice(), false, Kind::Double)?) };
    let ranked = d.f_abs()?.f_masked_fill(&excluded, f64::NAN)?;
    let lo = rankdata(&ranked, RankMethod::Min, Some(-1), NanPolicy::Omit)?.f_to_kind(Kind::Double)?;
    let hi = rankdata(&ranked, RankMethod::Max, Some(-1), NanPolicy::Omit)?.f_to_kind(Kind::Double)?;
    let r = lo.f_add(&hi)?.f_mul_scalar(0.5)?.f_nan_to_num(0.0, None, None)?;
    let g = hi.f_sub(&lo)?.f_add_scalar(1.0)?.f_nan_to_num(1.0, None, None)?;
    let count = rowsum(&excluded.f_logical_not()?)?;
    let pos = d.f_gt(0.0)?;
    let neg = d.f_lt(0.0)?;
    let mut r_plus = rowsum(&r.f_mul(&pos)?)?;
    let mut r_minus = rowsum(&r.f_mul(&neg)?)?;
    let zsplit = if zero_method == ZeroMethod::Zsplit {
        let half = rowsum(&r.f_mul(&zeros)?)?.f_div_scalar(2.0)?;
        r_plus = r_plus.f_add(&half)?;
        r_minus = r_minus.f_add(&half)?;
        Some(half)
    } else {
        None
    };
    let mut mn = count.f_mul(&count.f_add_scalar(1.0)?)?.f_mul_scalar(0.25)?;
    let mut se = count.f_mul(&count.f_add_scalar(1.0)?)?.f_mul(&count.f_mul_scalar(2.0)?.f_add_scalar(1.0)?)?;
    // the tie groups (sum of t^3 - t over groups = sum of g^2 - 1 over members)
    let in_ties =
        if zero_method == ZeroMethod::Pratt { excluded.f_logical_or(&zeros)? } else { excluded.shallow_clone() };
    let tie_correct = rowsum(&g.f_square()?.f_sub_scalar(1.0)?.f_masked_fill(&in_ties, 0.0)?)?;
    if zero_method == ZeroMethod::Pratt {
        let nz = rowsum(&zeros.f_logical_and(&nan.f_logical_not()?)?)?;
        mn = mn.f_sub(&nz.f_mul(&nz.f_add_scalar(1.0)?)?.f_mul_scalar(0.25)?)?;
        se = se.f_sub(&nz.f_mul(&nz.f_add_scalar(1.0)?)?.f_mul(&nz.f_mul_scalar(2.0)?.f_add_scalar(1.0)?)?)?;
    }
    let se = se.f_sub(&tie_correct.f_div_scalar(2.0)?)?.f_div_scalar(24.0)?.f_sqrt()?;
    let mut z = r_plus.f_sub(&mn)?.f_div(&se)?;
    // the method per slice: SciPy decides for the whole array, but slice by
    // slice where the input holds NaN (its decorator then calls it per slice)
    let valid = nan.f_logical_not()?;
    let tied = g.f_gt(1.0)?.f_logical_and(&excluded.f_logical_not()?)?;
    let zero_here = zeros.f_logical_and(&valid)?;
    let rows = l.out_shape.clone();
    let (row_len, row_tied, row_zero) = if l.nans.is_some() {
        let len =
            if omitted { rowsum(&valid)? } else { Tensor::f_full(&rows, l.length as f64, (Kind::Double, d.device()))? };
        (len, tied.f_any_dim(-1, false)?, zero_here.f_any_dim(-1, false)?)
    } else {
        let full = |b: bool| -> Result<Tensor> { Ok(Tensor::f_full(&rows, i64::from(b), (Kind::Bool, d.device()))?) };
        (
            Tensor::f_full(&rows, l.length as f64, (Kind::Double, d.device()))?,
            full(super::stats_py::any_true(&tied)?)?,
            full(super::stats_py::any_true(&zero_here)?)?,
        )
    };
    let hlen = host(&row_len)?;
    let htied = host(&row_tied)?;
    let hzero = host(&row_zero)?;
    // 0: asymptotic, 1: exact, 2: permutation
    let choice: Vec<u8> = (0..hlen.len())
        .map(|i| match method {
            WilcoxonMethod::Asymptotic => 0,
            WilcoxonMethod::Exact => 1,
            WilcoxonMethod::Auto => {
                if hlen[i] > 50.0 {
                    0
                } else if htied[i] == 0.0 && hzero[i] == 0.0 {
                    1
                } else if hlen[i] <= 13.0 {
                    2
                } else {
                    0
                }
            }
        })
        .collect();
    if (0..choice.len()).any(|i| choice[i] == 2 && hlen[i] < 2.0) {
        // SciPy's permutation_test refuses a single observation
        return Err(Error::InvalidArgument(
            "each sample in `data` must contain two or more observations along `axis`.".into(),
        ));
    }
    if correction {
        let sign = match alternative {
            Alternative::Greater => z.f_ones_like()?,
            Alternative::Less => z.f_ones_like()?.f_neg()?,
            Alternative::TwoSided => z.f_sign()?,
        };
        z = z.f_sub(&sign.f_mul_scalar(0.5)?.f_div(&se)?)?;
    }
    let mut p = match alternative {
        Alternative::Less => special::ndtr(&z)?,
        Alternative::Greater => special::ndtr(&z.f_neg()?)?,
        Alternative::TwoSided => special::ndtr(&z.f_abs()?.f_neg()?)?.f_mul_scalar(2.0)?,
    };
    if choice.contains(&1) {
        let (hr, hc) = (host(&r_plus)?, host(&count)?);
        let mut tables: std::collections::HashMap<usize, Vec<f64>> = std::collections::HashMap::new();
        let hp = host(&p)?;
        let exact: Vec<f64> = (0..hr.len())
            .map(|i| {
                if choice[i] != 1 || hr[i].is_nan() {
                    return hp[i];
                }
                let n = hc[i].max(0.0) as usize;
                let pmf = tables.entry(n).or_insert_with(|| wilcoxon_pmf(n));
                let cdf = wilcoxon_tail(pmf, n as f64, hr[i].ceil(), false);
                let sf = wilcoxon_tail(pmf, n as f64, hr[i].floor(), true);
                match alternative {
                    Alternative::Less => cdf,
                    Alternative::Greater => sf,
                    Alternative::TwoSided => (2.0 * sf.min(cdf)).clamp(0.0, 1.0),
                }
            })
            .collect();
        p = from_host(&exact, &p)?;
    }
    if choice.contains(&2) {
        // the exact permutation test: r_plus under all 2^n sign flips
        let n = l.length;
        let flips = Tensor::f_arange(1i64 << n, (Kind::Int64, d.device()))?
            .f_unsqueeze(-1)?
            .f_bitwise_right_shift(&Tensor::f_arange(n, (Kind::Int64, d.device()))?)?
            .f_bitwise_and_tensor(&Tensor::f_ones([], (Kind::Int64, d.device()))?)?
            .f_to_kind(Kind::Double)?; // (2^n, n): 1 where the sign is flipped
        let rp = r.f_mul(&pos)?; // rank where positive
        let rn = r.f_mul(&neg)?; // rank where negative: positive once flipped
                                 // null r_plus = sum(rp * (1 - f) + rn * f): two products with the flip table,
                                 // (rows, 2^n) without a (rows, 2^n, n) intermediate (sums of half-integers: exact)
        let keep = flips.f_neg()?.f_add_scalar(1.0)?;
        let null = rp.f_matmul(&keep.f_tr()?)?.f_add(&rn.f_matmul(&flips.f_tr()?)?)?;
        let null = match &zsplit {
            Some(h) => null.f_add(&h.f_unsqueeze(-1)?)?,
            None => null,
        };
        let observed = r_plus.f_unsqueeze(-1)?;
        let gamma = observed.f_abs()?.f_mul_scalar(f64::EPSILON * 100.0)?;
        let total = (1i64 << n) as f64;
        let less = rowsum(&null.f_le_tensor(&observed.f_add(&gamma)?)?)?.f_div_scalar(total)?;
        let greater = rowsum(&null.f_ge_tensor(&observed.f_sub(&gamma)?)?)?.f_div_scalar(total)?;
        let perm = match alternative {
            Alternative::Less => less,
            Alternative::Greater => greater,
            Alternative::TwoSided => less.f_minimum(&greater)?.f_mul_scalar(2.0)?,
        }
        .f_clamp(0.0, 1.0)?;
        let mask: Vec<f64> = choice.iter().map(|&c| if c == 2 { 1.0 } else { 0.0 }).collect();
        let mask = from_host(&mask, &p)?.f_gt(0.5)?;
        p = perm.f_where_self(&mask, &p)?;
    }
    let p = p.f_clamp(0.0, 1.0)?;
    let statistic = if alternative == Alternative::TwoSided { r_plus.f_minimum(&r_minus)? } else { r_plus };
    let mut values = vec![statistic.f_to_kind(out_kind)?, p.f_to_kind(out_kind)?];
    if outputs == 3 {
        let z = if alternative == Alternative::TwoSided { z.f_abs()?.f_neg()? } else { z };
        values.push(z.f_to_kind(out_kind)?);
    }
    l.finish(values, 0, true, keepdims)
}
