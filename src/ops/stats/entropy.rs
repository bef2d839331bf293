//! `scipy.stats._entropy`'s `differential_entropy` (`entropy` itself lives
//! in [`super::stats_py`]): the m-spacing estimators of Vasicek, van Es,
//! Ebrahimi and Correa on each slice sorted once.

use tch::{Kind, Tensor};

use super::stats_py::{Axis, Layout, NanPolicy, Reduced, Warning, TOO_SMALL_1D};
use crate::{Error, Result};

/// `differential_entropy`'s `method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntropyMethod {
    /// van Es up to 10 values, Ebrahimi up to 1000, Vasicek beyond.
    Auto,
    /// Vasicek's m-spacing estimator.
    Vasicek,
    /// van Es's.
    VanEs,
    /// Ebrahimi's.
    Ebrahimi,
    /// Correa's local linear regression estimator.
    Correa,
}

impl EntropyMethod {
    /// SciPy's name for it (any case).
    pub fn from_scipy(name: &str) -> Result<EntropyMethod> {
        Ok(match name.to_lowercase().as_str() {
            "auto" => EntropyMethod::Auto,
            "vasicek" => EntropyMethod::Vasicek,
            "van es" => EntropyMethod::VanEs,
            "ebrahimi" => EntropyMethod::Ebrahimi,
            "correa" => EntropyMethod::Correa,
            _ => {
                return Err(Error::InvalidArgument(
                    "`method` must be one of {'vasicek', 'van es', 'correa', 'ebrahimi', 'auto'}".into(),
                ))
            }
        })
    }
}

/// `X` padded by `m` copies of its first and last values along the last axis.
fn pad(x: &Tensor, m: i64) -> Result<Tensor> {
    let n = *x.size().last().expect("at least 1-d");
    let mut shape = x.size();
    *shape.last_mut().expect("at least 1-d") = m;
    let l = x.f_narrow(-1, 0, 1)?.f_expand(&shape, false)?;
    let r = x.f_narrow(-1, n - 1, 1)?.f_expand(&shape, false)?;
    Ok(Tensor::f_cat(&[&l, x, &r], -1)?)
}

fn estimate(s: &Tensor, m: i64, method: EntropyMethod) -> Result<Tensor> {
    let n = *s.size().last().expect("at least 1-d");
    let nf = n as f64;
    let mf = m as f64;
    let dims = [-1i64];
    let (kind, device) = (s.kind(), s.device());
    Ok(match method {
        EntropyMethod::Vasicek | EntropyMethod::Auto => {
            let x = pad(s, m)?;
            let d = x.f_narrow(-1, 2 * m, n)?.f_sub(&x.f_narrow(-1, 0, n)?)?;
            d.f_mul_scalar(nf / (2.0 * mf))?.f_log()?.f_mean_dim(dims.as_slice(), false, None::<Kind>)?
        }
        EntropyMethod::VanEs => {
            let d = s.f_narrow(-1, m, n - m)?.f_sub(&s.f_narrow(-1, 0, n - m)?)?;
            let term1 = d
                .f_mul_scalar((nf + 1.0) / mf)?
                .f_log()?
                .f_sum_dim_intlist(dims.as_slice(), false, None::<Kind>)?
                .f_div_scalar(nf - mf)?;
            let k = Tensor::f_arange_start(m, n + 1, (kind, device))?;
            let harmonic = k.f_reciprocal()?.f_sum(kind)?;
            term1.f_add(&harmonic)?.f_add_scalar(mf.ln() - (nf + 1.0).ln())?
        }
        EntropyMethod::Ebrahimi => {
            let x = pad(s, m)?;
            let d = x.f_narrow(-1, 2 * m, n)?.f_sub(&x.f_narrow(-1, 0, n)?)?;
            let i = Tensor::f_arange_start(1, n + 1, (kind, device))?;
            let two = i.f_full_like(2.0)?;
            let ci = i.f_sub_scalar(1.0)?.f_div_scalar(mf)?.f_add_scalar(1.0)?.f_where_self(&i.f_le(mf)?, &two)?;
            let tail = i.f_neg()?.f_add_scalar(nf)?.f_div_scalar(mf)?.f_add_scalar(1.0)?;
            let ci = tail.f_where_self(&i.f_ge(nf - mf + 1.0)?, &ci)?;
            d.f_mul_scalar(nf)?.f_div(&ci.f_mul_scalar(mf)?)?.f_log()?.f_mean_dim(
                dims.as_slice(),
                false,
                None::<Kind>,
            )?
        }
        EntropyMethod::Correa => {
            let x = pad(s, m)?;
            let i = Tensor::f_arange_start(1, n + 1, (Kind::Int64, device))?;
            let dj = Tensor::f_arange_start(-m, m + 1, (Kind::Int64, device))?.f_unsqueeze(1)?;
            let j0 = i.f_add(&dj)?.f_add_scalar(m - 1)?; // (2m+1, n)
            let idx = j0.f_flatten(0, -1)?;
            let mut shape = s.size();
            shape.pop();
            shape.push(2 * m + 1);
            shape.push(n);
            let xj = x.f_index_select(-1, &idx)?.f_reshape(&shape)?; // (..., 2m+1, n)
            let mean = xj.f_mean_dim([-2i64].as_slice(), true, None::<Kind>)?;
            let diff = xj.f_sub(&mean)?;
            let djf = dj.f_to_kind(kind)?;
            let num = diff.f_mul(&djf)?.f_sum_dim_intlist([-2i64].as_slice(), false, None::<Kind>)?;
            let den = diff.f_square()?.f_sum_dim_intlist([-2i64].as_slice(), false, None::<Kind>)?.f_mul_scalar(nf)?;
            num.f_div(&den)?.f_log()?.f_mean_dim(dims.as_slice(), false, None::<Kind>)?.f_neg()?
        }
    })
}

/// `differential_entropy` of each slice along `axis`, in units of `base`
/// (nats for `None`).
pub fn differential_entropy(
    values: &Tensor,
    window_length: Option<i64>,
    base: Option<f64>,
    axis: i64,
    method: EntropyMethod,
    policy: NanPolicy,
    keepdims: bool,
) -> Result<Reduced> {
    let l = Layout::new(values, &Axis::Dims(vec![axis]), policy)?;
    let x = if l.omit() {
        if !l.one_d {
            return Err(Error::NotImplemented(
                "differential_entropy with nan_policy='omit' on n-d input holding NaN: the slices would differ in length"
                    .into(),
            ));
        }
        let keep = l.nans.as_ref().expect("omit has NaNs").f_logical_not()?;
        l.x.f_masked_select(&keep)?.f_unsqueeze(0)?.f_reshape([-1])?
    } else {
        l.x.shallow_clone()
    };
    let n = *x.size().last().unwrap_or(&0);
    let m = window_length.unwrap_or(((n as f64).sqrt() + 0.5).floor() as i64);
    // SciPy's decorator: a slice too short for the window is NaN, with its warning
    if !(2 <= 2 * m && 2 * m < n) {
        let z = Tensor::f_full(&l.out_shape, f64::NAN, (l.x.kind(), l.x.device()))?;
        let mut r = l.finish(vec![z], i64::MAX, false, keepdims)?;
        if r.warnings.is_empty() {
            r.warnings.push(Warning::SmallSample(TOO_SMALL_1D));
        }
        return Ok(r);
    }
    if let Some(b) = base {
        if b <= 0.0 {
            return Err(Error::InvalidArgument("`base` must be a positive number or `None`.".into()));
        }
    }
    let method = match method {
        EntropyMethod::Auto if n <= 10 => EntropyMethod::VanEs,
        EntropyMethod::Auto if n <= 1000 => EntropyMethod::Ebrahimi,
        EntropyMethod::Auto => EntropyMethod::Vasicek,
        other => other,
    };
    let (s, _) = x.f_sort(-1, false)?;
    let mut res = estimate(&s, m, method)?;
    if let Some(b) = base {
        res = res.f_div_scalar(b.ln())?;
    }
    if l.omit() {
        return Ok(Reduced {
            values: vec![res.f_reshape(if keepdims { &l.keep_shape } else { &l.out_shape })?.f_to_kind(l.out_kind)?],
            warnings: vec![],
        });
    }
    l.finish(vec![res], -1, true, keepdims)
}
