//! Quantiles of each slice by selection, on the host: the CPU path of `iqr`
//! and `median_abs_deviation`.
//!
//! libtorch's `sort` always carries int64 indices and is O(n log n); a
//! quantile needs at most two order statistics per slice, which
//! [`slice::select_nth_unstable_by`] finds in O(n) (as NumPy's
//! `np.partition` does for `np.percentile`). Each slice is copied to a
//! scratch buffer without its NaNs (the input may be the caller's memory);
//! the NaNs count as sorting after every value, as they do in libtorch's
//! sort, so the results equal [`super::quantile_sorted`]'s on the sorted
//! slice: same positions, same interpolation in the slice's own dtype.
//! The slices are done one after another on the calling thread
//! ([`quantiles_of`] says why).

use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Sub};

use tch::{Kind, Tensor};

use super::Interpolation;
use crate::Result;

/// The element types the selection runs in (`f32`, `f64`).
pub(super) trait Sample:
    Copy + PartialEq + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Div<Output = Self>
{
    const NAN: Self;
    const ZERO: Self;
    const TWO: Self;
    fn is_nan(self) -> bool;
    fn total_cmp(&self, other: &Self) -> Ordering;
    /// `v` rounded to `Self` (as libtorch's cast from double does).
    fn from_f64(v: f64) -> Self;
}

macro_rules! sample {
    ($t:ty) => {
        impl Sample for $t {
            const NAN: Self = <$t>::NAN;
            const ZERO: Self = 0.0;
            const TWO: Self = 2.0;
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn total_cmp(&self, other: &Self) -> Ordering {
                <$t>::total_cmp(self, other)
            }
            fn from_f64(v: f64) -> Self {
                v as $t
            }
        }
    };
}
sample!(f32);
sample!(f64);

/// Where the `q` quantile of `n >= 1` sorted values lies: the lower and upper
/// positions, the position rounded (half to even) and the fraction between
/// them, as [`super::quantile_sorted`] computes them in double.
fn position(n: usize, q: f64) -> (usize, usize, usize, f64) {
    let pos = ((n as f64 - 1.0) * q).max(0.0);
    let (lo, hi) = (pos.floor(), pos.ceil());
    (lo as usize, hi as usize, pos.round_ties_even() as usize, pos - lo)
}

/// The order statistics `ks` (ascending, distinct, each below `v.len()`) of
/// `v`, into `out`; `v` is left partitioned around each of them.
fn order_stats<T: Sample>(v: &mut [T], ks: &[usize], out: &mut [T]) {
    let mut start = 0;
    for (&k, o) in ks.iter().zip(out.iter_mut()) {
        if k == start {
            // everything from `start` on is at least the statistic before: the minimum is the next
            let mut best = start;
            for i in start + 1..v.len() {
                if v[i].total_cmp(&v[best]) == Ordering::Less {
                    best = i;
                }
            }
            v.swap(start, best);
        } else {
            v[start..].select_nth_unstable_by(k - start, T::total_cmp);
        }
        *o = v[k];
        start = k + 1;
    }
}

/// The `qs` quantiles of one slice, into `out`. `scratch` is reused across
/// slices; `has_nan` false promises the slice holds no NaN; `omit` counts
/// only the non-NaN values (else NaNs are values that sort last).
fn slice_quantiles<T: Sample>(
    x: &[T],
    qs: &[f64],
    method: Interpolation,
    omit: bool,
    has_nan: bool,
    scratch: &mut Vec<T>,
    out: &mut [T],
) {
    scratch.clear();
    if has_nan {
        scratch.extend(x.iter().copied().filter(|v| !v.is_nan()));
    } else {
        scratch.extend_from_slice(x);
    }
    let valid = scratch.len();
    let n = if omit { valid } else { x.len() };
    if n == 0 {
        out.fill(T::NAN);
        return;
    }
    // every position needed, ascending and distinct; those at or past `valid` are NaN
    let mut ks: Vec<usize> = Vec::with_capacity(2 * qs.len());
    for &q in qs {
        let (lo, hi, near, _) = position(n, q);
        match method {
            Interpolation::Lower => ks.push(lo),
            Interpolation::Higher => ks.push(hi),
            Interpolation::Nearest => ks.push(near),
            Interpolation::Linear | Interpolation::Midpoint => ks.extend([lo, hi]),
        }
    }
    ks.sort_unstable();
    ks.dedup();
    let selected = ks.iter().take_while(|&&k| k < valid).count();
    let mut stats = vec![T::NAN; ks.len()];
    order_stats(&mut scratch[..valid], &ks[..selected], &mut stats[..selected]);
    let at = |k: usize| stats[ks.binary_search(&k).unwrap_or(0)];
    for (&q, o) in qs.iter().zip(out.iter_mut()) {
        let (lo, hi, near, frac) = position(n, q);
        *o = match method {
            Interpolation::Lower => at(lo),
            Interpolation::Higher => at(hi),
            Interpolation::Nearest => at(near),
            Interpolation::Midpoint => {
                let a = at(lo);
                if lo != hi {
                    (a + at(hi)) / T::TWO
                } else {
                    a
                }
            }
            Interpolation::Linear => {
                let (a, frac) = (at(lo), T::from_f64(frac));
                if frac != T::ZERO {
                    a + (at(hi) - a) * frac
                } else {
                    a
                }
            }
        };
    }
}

/// The `qs` quantiles of each `len`-long slice of `data` (`len >= 1`), slice
/// by slice: `out[s * qs.len() + i]` is slice `s`'s `qs[i]` quantile.
///
/// On the calling thread only: threads of its own were slower here at every
/// size measured (a (300, 300) axis-0 iqr 0.7 ms serial against 1.6-4 ms on
/// two, 1000 slices of 1000 8.2 against 10.4 ms on 2 cores): they start
/// beside libtorch's OpenMP workers, which still spin on the cores after the
/// layout's own parallel copy.
pub(super) fn quantiles_of<T: Sample>(
    data: &[T],
    len: usize,
    qs: &[f64],
    method: Interpolation,
    omit: bool,
    has_nan: bool,
) -> Vec<T> {
    let nq = qs.len();
    let mut out = vec![T::NAN; data.len() / len * nq];
    let mut scratch = Vec::with_capacity(len);
    for (x, o) in data.chunks_exact(len).zip(out.chunks_exact_mut(nq)) {
        slice_quantiles(x, qs, method, omit, has_nan, &mut scratch, o);
    }
    out
}

/// The `qs` quantiles of each slice of `x` (a CPU float32 or float64 tensor,
/// slices along its last dimension, at least one value each), each of shape
/// `x.size()[..-1]` in `x`'s dtype; `None` for any other tensor.
pub(super) fn quantiles(
    x: &Tensor,
    qs: &[f64],
    method: Interpolation,
    omit: bool,
    has_nan: bool,
) -> Result<Option<Vec<Tensor>>> {
    let kind = x.kind();
    let len = *x.size().last().unwrap_or(&0);
    if x.device() != tch::Device::Cpu
        || !matches!(kind, Kind::Float | Kind::Double)
        || x.requires_grad()
        || len == 0
        || x.numel() == 0
    {
        return Ok(None);
    }
    let x = x.f_contiguous()?;
    let len = len as usize;
    let mut shape = x.size();
    shape.pop();
    let columns = qs.len() as i64;
    let table = match kind {
        Kind::Float => crate::with_ndarray_view::<f32, _>(&x, |v| {
            v.as_slice().map(|d| Tensor::from_slice(&quantiles_of(d, len, qs, method, omit, has_nan)))
        })?,
        _ => crate::with_ndarray_view::<f64, _>(&x, |v| {
            v.as_slice().map(|d| Tensor::from_slice(&quantiles_of(d, len, qs, method, omit, has_nan)))
        })?,
    };
    let Some(table) = table else { return Ok(None) };
    let table = table.f_view([-1, columns])?;
    (0..columns)
        .map(|i| Ok(table.f_select(1, i)?.f_contiguous()?.f_reshape(shape.as_slice())?))
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quantiles by a full sort, NaN last (libtorch's order), in the
    /// formula of `quantile_sorted`.
    fn by_sort(x: &[f64], qs: &[f64], method: Interpolation, omit: bool) -> Vec<f64> {
        let mut s: Vec<f64> = x.iter().copied().filter(|v| !v.is_nan()).collect();
        s.sort_by(f64::total_cmp);
        let valid = s.len();
        s.resize(x.len(), f64::NAN);
        let n = if omit { valid } else { x.len() };
        let q = |q: f64| {
            if n == 0 {
                return f64::NAN;
            }
            let (lo, hi, near, frac) = position(n, q);
            let (a, b) = (s[lo], s[hi]);
            match method {
                Interpolation::Lower => a,
                Interpolation::Higher => b,
                Interpolation::Nearest => s[near],
                Interpolation::Midpoint if lo != hi => (a + b) / 2.0,
                Interpolation::Linear if frac != 0.0 => a + (b - a) * frac,
                _ => a,
            }
        };
        qs.iter().map(|&p| q(p)).collect()
    }

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) || (a == 0.0 && b == 0.0)
    }

    const METHODS: [Interpolation; 5] = [
        Interpolation::Linear,
        Interpolation::Lower,
        Interpolation::Higher,
        Interpolation::Midpoint,
        Interpolation::Nearest,
    ];

    #[test]
    fn selection_gives_the_sorts_quantiles() {
        let (inf, nan) = (f64::INFINITY, f64::NAN);
        let cases: Vec<Vec<f64>> = vec![
            vec![2.5],
            vec![3.0, -1.0],
            vec![nan],
            vec![nan, 1.0],
            vec![-nan, 4.0, nan, -2.0, 7.0],
            vec![1.0, 1.0, 1.0, 2.0, 2.0, 0.5, 0.5, 1.0],
            vec![-0.0, 0.0, -0.0, 0.0, 1.0, -1.0],
            vec![inf, -inf, 0.0, 1.0, inf, -inf, 3.0],
            vec![inf, inf, inf],
            vec![-inf, nan, inf, nan, 2.0],
            (0..257).map(|i| ((i * 7919) % 263) as f64 / 10.0 - 12.0).collect(),
            (0..100).map(|i| ((i * 37) % 11) as f64).collect(),
        ];
        let qss: [&[f64]; 5] = [&[0.25, 0.75], &[0.0, 1.0], &[0.5], &[0.1, 0.1], &[0.3, 0.3000001, 0.9]];
        for x in &cases {
            for &method in &METHODS {
                for qs in qss {
                    for omit in [false, true] {
                        let want = by_sort(x, qs, method, omit);
                        let mut got = vec![0.0; qs.len()];
                        slice_quantiles(x, qs, method, omit, true, &mut Vec::new(), &mut got);
                        let ok = want.iter().zip(&got).all(|(&a, &b)| same(a, b));
                        assert!(ok, "{x:?} {method:?} {qs:?} omit={omit}: {got:?} != {want:?}");
                        if !x.iter().any(|v| v.is_nan()) {
                            slice_quantiles(x, qs, method, omit, false, &mut Vec::new(), &mut got);
                            assert!(want.iter().zip(&got).all(|(&a, &b)| same(a, b)));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn tensors_give_the_sort_paths_quantiles() {
        let x = Tensor::f_randn([37, 1001], (Kind::Double, tch::Device::Cpu)).unwrap();
        let _ = x.get(3).narrow(0, 5, 40).fill_(f64::NAN);
        let _ = x.get(4).fill_(f64::NAN);
        let _ = x.get(5).narrow(0, 0, 9).fill_(f64::INFINITY);
        let _ = x.get(6).narrow(0, 0, 600).fill_(0.5);
        for kind in [Kind::Double, Kind::Float] {
            let x = x.to_kind(kind);
            let data: Vec<f64> = Vec::<f64>::try_from(&x.to_kind(Kind::Double).view([-1])).unwrap();
            for &method in &METHODS {
                for omit in [false, true] {
                    let qs = [0.25, 0.75];
                    let got = quantiles(&x, &qs, method, omit, true).unwrap().unwrap();
                    assert_eq!(got[0].size(), [37]);
                    assert_eq!(got[0].kind(), kind);
                    for (row, slice) in data.chunks(1001).enumerate() {
                        let want = by_sort(slice, &qs, method, omit);
                        for (i, w) in want.iter().enumerate() {
                            let g = got[i].double_value(&[row as i64]);
                            // float32 interpolates in float32: compare to the float64 value rounded
                            let tol = if kind == Kind::Float { 1e-6 * w.abs().max(1.0) } else { 0.0 };
                            assert!(same(g, *w) || (g - w).abs() <= tol, "{kind:?} {method:?} {row}: {g} {w}");
                        }
                    }
                }
            }
        }
        assert!(quantiles(
            &Tensor::f_zeros([3, 0], (Kind::Double, tch::Device::Cpu)).unwrap(),
            &[0.5],
            METHODS[0],
            false,
            false
        )
        .unwrap()
        .is_none());
        assert!(quantiles(&x.to_kind(Kind::Half), &[0.5], METHODS[0], false, false).unwrap().is_none());
    }

    #[test]
    fn iqr_and_mad_equal_the_sort_path() {
        use super::super::{iqr, median_abs_deviation, Axis, NanPolicy};
        let x = Tensor::f_randn([9, 7, 33], (Kind::Double, tch::Device::Cpu)).unwrap();
        let _ = x.get(2).get(3).narrow(0, 1, 5).fill_(f64::NAN);
        let _ = x.get(4).get(1).narrow(0, 0, 4).fill_(f64::INFINITY);
        let _ = x.get(5).get(0).narrow(0, 0, 3).fill_(f64::NEG_INFINITY);
        let axes = [Axis::All, Axis::Dims(vec![0]), Axis::Dims(vec![2]), Axis::Dims(vec![0, 2])];
        for kind in [Kind::Double, Kind::Float] {
            let x = x.to_kind(kind);
            // requiring grad keeps the libtorch sort path
            let xg = x.copy().set_requires_grad(true);
            for axis in &axes {
                for policy in [NanPolicy::Propagate, NanPolicy::Omit] {
                    for &method in &METHODS {
                        let a = iqr(&x, axis, (10.0, 80.0), 1.5, policy, method, false).unwrap().values.remove(0);
                        let b = iqr(&xg, axis, (10.0, 80.0), 1.5, policy, method, false).unwrap().values.remove(0);
                        assert_eq!(a.kind(), b.kind());
                        assert!(a.allclose(&b.detach(), 0.0, 0.0, true), "{kind:?} {axis:?} {policy:?} {method:?}");
                    }
                    let a = median_abs_deviation(&x, axis, 1.0, policy, false).unwrap().values.remove(0);
                    let b = median_abs_deviation(&xg, axis, 1.0, policy, false).unwrap().values.remove(0);
                    assert!(a.allclose(&b.detach(), 0.0, 0.0, true), "mad {kind:?} {axis:?} {policy:?}");
                }
            }
        }
    }
}
