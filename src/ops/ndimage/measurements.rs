//! `scipy.ndimage._measurements`: `label` (connected components) and
//! `find_objects` (their bounding boxes), as composites of libtorch ops on
//! the input's device.
//!
//! `label` joins the structure's neighbour pairs by union-find on tensors:
//! every round hooks each root onto its smallest neighbouring root, then
//! compresses the pointers (Shiloach-Vishkin), so that long, winding
//! components take a few rounds, not one per pixel of their length. A
//! component's root is its smallest flat index, the raster order SciPy
//! numbers components in.

use tch::{Device, Kind, Tensor};

use crate::aten::{call, Arg};
use crate::ops::numpy::result_type;
use crate::{DType, Error, Result};

/// `torch.scatter_reduce(dest, 0, index, src, reduce, include_self)` (tch's
/// `scatter_reduce` is the older `scatter(reduce=)`, and `index_reduce`
/// warns that it is in beta).
fn scatter_reduce_with(
    dest: &Tensor,
    index: &Tensor,
    src: &Tensor,
    reduce: &str,
    include_self: bool,
) -> Result<Tensor> {
    let args = [
        Arg::ConstTensor(dest.shallow_clone()),
        Arg::Int(0),
        Arg::ConstTensor(index.shallow_clone()),
        Arg::ConstTensor(src.shallow_clone()),
        Arg::Str(reduce.into()),
    ];
    let mut out = call("aten::scatter_reduce.two", &args, &[("include_self", Arg::Bool(include_self))])?;
    out.swap_remove(0).into_tensor()
}

/// Reduces `src` into `dest` by `index`, `dest`'s own values included.
fn scatter_reduce(dest: &Tensor, index: &Tensor, src: &Tensor, reduce: &str) -> Result<Tensor> {
    scatter_reduce_with(dest, index, src, reduce, true)
}

/// Reduces `src` by `index`; the slots no element reaches keep `dest`'s value.
fn scatter_reduce_into(dest: &Tensor, index: &Tensor, src: &Tensor, reduce: &str) -> Result<Tensor> {
    scatter_reduce_with(dest, index, src, reduce, false)
}

/// The structure's offsets that come before its centre in raster order
/// (each `-1`, `0` or `1` per axis), checked as SciPy's `label` checks it.
/// `structure`: `None` for SciPy's default (`generate_binary_structure(ndim, 1)`:
/// the axis neighbours only), else a bool tensor of shape `(3,) * ndim`.
fn backward_offsets(structure: Option<&Tensor>, ndim: usize) -> Result<Vec<Vec<i64>>> {
    let Some(s) = structure else {
        return Ok((0..ndim)
            .map(|d| {
                let mut o = vec![0; ndim];
                o[d] = -1;
                o
            })
            .collect());
    };
    if s.dim() != ndim {
        return Err(Error::InvalidArgument("structure and input must have equal rank".into()));
    }
    if s.size().iter().any(|&n| n != 3) {
        return Err(Error::InvalidArgument("structure dimensions must be equal to 3".into()));
    }
    let flat =
        Vec::<bool>::try_from(&s.f_to_kind(Kind::Bool)?.f_to_device(Device::Cpu)?.f_contiguous()?.f_reshape([-1])?)?;
    let count = flat.len();
    if (0..count).any(|i| flat[i] != flat[count - 1 - i]) {
        return Err(Error::InvalidArgument("Structuring element is not symmetric".into()));
    }
    // Flat index i of the 3^ndim block <-> offsets (digit - 1) per axis, first axis slowest.
    let offsets = (0..count / 2)
        .filter(|&i| flat[i])
        .map(|i| {
            let mut o = vec![0; ndim];
            let mut rest = i;
            for d in (0..ndim).rev() {
                o[d] = (rest % 3) as i64 - 1;
                rest /= 3;
            }
            o
        })
        .collect();
    Ok(offsets)
}

/// `scipy.ndimage.label(input, structure)`: the labels (int64, `input`'s
/// shape; 0 for the background) and the number of components. Nonzero
/// (NaN included) is foreground; complex input is refused as SciPy refuses it.
pub fn label(input: &Tensor, structure: Option<&Tensor>) -> Result<(Tensor, i64)> {
    let dtype = crate::dlpack::dtype_of(input)?;
    if dtype.is_complex() {
        return Err(Error::DtypeNotAccepted {
            routine: "ndimage.label",
            dtype,
            accepted: "real or bool input (SciPy: \"Complex type not supported\")",
        });
    }
    let dims = input.size();
    let offsets = backward_offsets(structure, dims.len())?;
    let device = input.device();
    let n = input.numel() as i64;
    let fg = input.f_ne(0)?;
    if dims.is_empty() || n == 0 {
        let labels = fg.f_to_kind(Kind::Int64)?;
        let count = if n == 0 { 0 } else { labels.f_int64_value(&[])? };
        return Ok((labels, count));
    }
    // Every edge once: the pairs (p, p + o), both foreground, for the offsets o before the centre.
    let index = Tensor::f_arange(n, (Kind::Int64, device))?.f_reshape(&dims[..])?;
    let (mut from, mut to) = (Vec::new(), Vec::new());
    for o in &offsets {
        let (mut p, mut q, mut fp, mut fq) =
            (index.shallow_clone(), index.shallow_clone(), fg.shallow_clone(), fg.shallow_clone());
        for (d, (&len, &step)) in dims.iter().zip(o).enumerate() {
            let (d, keep) = (d as i64, len - step.abs());
            let (start_p, start_q) = if step < 0 { (-step, 0) } else { (0, step) };
            p = p.f_narrow(d, start_p, keep)?;
            fp = fp.f_narrow(d, start_p, keep)?;
            q = q.f_narrow(d, start_q, keep)?;
            fq = fq.f_narrow(d, start_q, keep)?;
        }
        let both = fp.f_logical_and(&fq)?;
        from.push(p.f_masked_select(&both)?);
        to.push(q.f_masked_select(&both)?);
    }
    let (from, to) = (Tensor::f_cat(&from, 0)?, Tensor::f_cat(&to, 0)?);
    // Union by hooking: each round every root with an edge to a smaller root
    // points at the smallest such root, then the pointers are compressed to
    // roots (Shiloach-Vishkin's scheme, so a few rounds even for long,
    // winding components). Pointers only ever go to smaller indices, so a
    // component's root is its smallest index: its first pixel in raster order.
    let mut parent = Tensor::f_arange(n, (Kind::Int64, device))?;
    loop {
        let (rf, rt) = (parent.f_take(&from)?, parent.f_take(&to)?);
        let apart = rf.f_ne_tensor(&rt)?;
        if apart.f_any()?.f_int64_value(&[])? == 0 {
            break;
        }
        let (rf, rt) = (rf.f_masked_select(&apart)?, rt.f_masked_select(&apart)?);
        parent = scatter_reduce(&parent, &rf.f_maximum(&rt)?, &rf.f_minimum(&rt)?, "amin")?;
        loop {
            let next = parent.f_take(&parent)?;
            let settled = next.f_equal(&parent)?;
            parent = next;
            if settled {
                break;
            }
        }
    }
    let values = parent.f_reshape(&dims[..])?;
    // Each component's value is the flat index of its first pixel: number them in that order.
    let roots = values.f_masked_select(&fg)?;
    let (distinct, inverse, _) = roots.f_internal_unique2(true, true, false)?;
    let count = distinct.size()[0];
    let labels = Tensor::f_zeros(&dims[..], (Kind::Int64, device))?.f_masked_scatter(&fg, &inverse.f_add_scalar(1)?)?;
    Ok((labels, count))
}

/// `scipy.ndimage.find_objects(input, max_label)` before it becomes slices:
/// for labels `1..=max_label` (`max_label == 0`: up to the largest label in
/// `input`), whether each occurs and, per axis, its first and one-past-last
/// index, as host vectors (`(present, starts, stops)`, `starts[label - 1][axis]`).
/// `input` must hold integers (SciPy's TypeError otherwise); labels below 1 are ignored.
#[allow(clippy::type_complexity)]
pub fn find_objects(input: &Tensor, max_label: i64) -> Result<(Vec<bool>, Vec<Vec<i64>>, Vec<Vec<i64>>)> {
    let dtype = crate::dlpack::dtype_of(input)?;
    if dtype.is_float() || dtype.is_complex() || dtype == crate::DType::Bool {
        return Err(Error::DtypeNotAccepted {
            routine: "ndimage.find_objects",
            dtype,
            accepted: "integer labels (SciPy: \"object cannot be interpreted as an integer\")",
        });
    }
    let dims = input.size();
    let labels = input.f_to_kind(Kind::Int64)?.f_reshape([-1])?;
    let max_label = if max_label > 0 {
        max_label
    } else if labels.numel() == 0 {
        0
    } else {
        labels.f_max()?.f_int64_value(&[])?.max(0)
    };
    let m = max_label as usize;
    if m == 0 {
        return Ok((Vec::new(), Vec::new(), Vec::new()));
    }
    let device = input.device();
    let keep = labels.f_ge(1)?.f_logical_and(&labels.f_le(max_label)?)?;
    let slot = labels.f_sub_scalar(1)?.f_masked_select(&keep)?;
    let present = Tensor::f_zeros([max_label], (Kind::Bool, device))?.f_index_fill(0, &slot, 1)?;
    let present = Vec::<bool>::try_from(&present.f_to_device(Device::Cpu)?)?;
    let (mut starts, mut stops) = (vec![Vec::with_capacity(dims.len()); m], vec![Vec::with_capacity(dims.len()); m]);
    let n = labels.numel() as i64;
    for d in 0..dims.len() {
        // Each element's index along axis d.
        let inner: i64 = dims[d + 1..].iter().product();
        let coord =
            Tensor::f_arange(n, (Kind::Int64, device))?.f_div_scalar_mode(inner, "floor")?.f_remainder(dims[d])?;
        let coord = coord.f_masked_select(&keep)?;
        let lo = scatter_reduce(&Tensor::f_full([max_label], i64::MAX, (Kind::Int64, device))?, &slot, &coord, "amin")?;
        let hi = scatter_reduce(&Tensor::f_full([max_label], -1, (Kind::Int64, device))?, &slot, &coord, "amax")?;
        let lo = Vec::<i64>::try_from(&lo.f_to_device(Device::Cpu)?)?;
        let hi = Vec::<i64>::try_from(&hi.f_to_device(Device::Cpu)?)?;
        for k in 0..m {
            starts[k].push(lo[k]);
            stops[k].push(hi[k] + 1);
        }
    }
    Ok((present, starts, stops))
}

/// Which elements of `labels` a labeled statistic (`sum_labels`, `mean`,
/// `minimum`, `histogram`, ...) is taken over: SciPy's `index` argument.
pub enum Index<'a> {
    /// `index=None`: one group, the elements whose label is positive.
    Positive,
    /// A scalar `index` (NumPy's `isscalar`): one group, the elements whose label equals it.
    Scalar(&'a Tensor),
    /// An array `index`: one group per entry, the result in its shape.
    Array(&'a Tensor),
}

/// How an array `index` is matched against the labels.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Matching {
    /// `_stats` and `_select`: with labels of an integer dtype NumPy can index
    /// by, all in `0..=labels.size`, the index is truncated to integers
    /// (`index=[2.5]` is label 2); otherwise entries are compared exactly.
    Statistics,
    /// `labeled_comprehension` (`histogram`): the index must convert to the
    /// labels' dtype without loss, and is compared in it.
    Comprehension,
}

/// The elements of the (broadcast) input in groups, as SciPy's `_stats`
/// and `_select` form them from `labels` and `index`.
pub struct Groups {
    /// The input's dtype (before unsigned integers are widened to int64).
    dtype: DType,
    /// The elements taken part: all of them with an array index, else the group's.
    values: Tensor,
    /// The broadcast shape of input and labels (positions are flat indices in it).
    shape: Vec<i64>,
    /// With one group, which flat elements `values` holds (`None`: all).
    mask: Option<Tensor>,
    /// With an array index: each value's group in `0..count`, or `count` for none.
    ids: Option<Tensor>,
    /// With an array index: each value's label, as compared with the index.
    keys: Option<Tensor>,
    /// The number of distinct index entries (1 with one group).
    count: i64,
    /// With an array index: the index's shape, each entry's group.
    pick: Option<Tensor>,
}

impl Groups {
    /// The groups of `input`'s elements: all of them without `labels`
    /// (`index` is then ignored, as SciPy ignores it), else as `index` says.
    pub fn new(input: &Tensor, labels: Option<&Tensor>, index: Index<'_>, matching: Matching) -> Result<Self> {
        let dtype = crate::dlpack::dtype_of(input)?;
        let input = widened(input)?;
        let Some(labels) = labels else {
            return Ok(Self::one(dtype, input.f_reshape([-1])?, input.size(), None));
        };
        let labels = widened(labels)?;
        if crate::dlpack::dtype_of(&labels)?.is_complex() {
            return Err(Error::InvalidArgument("labels must be real (complex labels have no order)".into()));
        }
        let pair = Tensor::f_broadcast_tensors(&[&input, &labels]).map_err(|_| {
            Error::InvalidArgument(format!(
                "input and labels must have the same shape (excepting dimensions with width 1); got {:?} and {:?}",
                input.size(),
                labels.size()
            ))
        })?;
        let shape = pair[0].size();
        let (values, labels) = (pair[0].f_reshape([-1])?, pair[1].f_reshape([-1])?);
        let mask = match index {
            Index::Positive => labels.f_gt(0)?,
            Index::Scalar(value) => labels.f_eq_tensor(&value.f_to_device(labels.device())?)?,
            Index::Array(index) => return Self::many(dtype, values, labels, shape, index, matching),
        };
        Ok(Self::one(dtype, values.f_masked_select(&mask)?, shape, Some(mask)))
    }

    fn one(dtype: DType, values: Tensor, shape: Vec<i64>, mask: Option<Tensor>) -> Self {
        Self { dtype, values, shape, mask, ids: None, keys: None, count: 1, pick: None }
    }

    /// One group per distinct entry of `index`; each label finds its entry by a binary search.
    fn many(
        dtype: DType,
        values: Tensor,
        labels: Tensor,
        shape: Vec<i64>,
        index: &Tensor,
        matching: Matching,
    ) -> Result<Self> {
        let device = labels.device();
        let index = widened(&index.f_to_device(device)?)?;
        let label_dtype = crate::dlpack::dtype_of(&labels)?;
        let (keys, wanted) = match matching {
            Matching::Statistics => {
                if labels.numel() == 0 {
                    return Err(Error::InvalidArgument(
                        "labels are empty, so an index array matches nothing (SciPy: \"zero-size array to \
                         reduction operation minimum which has no identity\")"
                            .into(),
                    ));
                }
                let indexable = matches!(
                    label_dtype,
                    DType::Int8
                        | DType::Int16
                        | DType::Int32
                        | DType::Int64
                        | DType::UInt8
                        | DType::UInt16
                        | DType::UInt32
                );
                let in_range = indexable
                    && labels.f_min()?.f_int64_value(&[])? >= 0
                    && labels.f_max()?.f_int64_value(&[])? <= labels.numel() as i64;
                if in_range {
                    (labels.f_to_kind(Kind::Int64)?, index.f_to_kind(Kind::Int64)?)
                } else {
                    let common = result_type(&[label_dtype, crate::dlpack::dtype_of(&index)?]);
                    let kind = common.kind().unwrap_or(Kind::Double);
                    (labels.f_to_kind(kind)?, index.f_to_kind(kind)?)
                }
            }
            Matching::Comprehension => {
                let cast = index.f_to_kind(labels.kind())?;
                let back = cast.f_to_kind(index.kind())?;
                if back.f_ne_tensor(&index)?.f_any()?.f_int64_value(&[])? != 0 {
                    return Err(Error::InvalidArgument(format!(
                        "Cannot convert index values from <{}> to <{}> (labels' type) without loss of precision",
                        crate::dlpack::dtype_of(&index)?.name(),
                        label_dtype.name()
                    )));
                }
                (labels, cast)
            }
        };
        let (distinct, inverse, _) = wanted.f_reshape([-1])?.f_internal_unique2(true, true, false)?;
        let count = distinct.size()[0];
        let ids = if count == 0 {
            Tensor::f_zeros_like(&keys)?.f_to_kind(Kind::Int64)?
        } else {
            let at = keys.f_searchsorted(&distinct, false, false, "left", None::<&Tensor>)?.f_clamp_max(count - 1)?;
            let hit = distinct.f_take(&at)?.f_eq_tensor(&keys)?;
            at.f_where_scalarother(&hit, count)?
        };
        let pick = Some(inverse.f_reshape(index.size())?);
        Ok(Self { dtype, values, shape, mask: None, ids: Some(ids), keys: Some(keys), count, pick })
    }

    /// The flat positions (in the broadcast shape) of `values`.
    fn positions(&self) -> Result<Tensor> {
        let n: i64 = self.shape.iter().product();
        let all = Tensor::f_arange(n, (Kind::Int64, self.values.device()))?;
        Ok(match &self.mask {
            Some(mask) => all.f_masked_select(mask)?,
            None => all,
        })
    }

    /// The broadcast shape positions index.
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    /// Per-group results (a row per group, and with an index array a last
    /// one for elements of no group) gathered into the index's shape; a
    /// single group's is its row.
    fn gather(&self, per_group: &Tensor) -> Result<Tensor> {
        Ok(match &self.pick {
            Some(pick) => per_group
                .f_index_select(0, &pick.f_reshape([-1])?)?
                .f_reshape([pick.size(), per_group.size()[1..].to_vec()].concat())?,
            None => per_group.f_select(0, 0)?,
        })
    }

    /// Adds `weights` (one row per value) up by group: `count + 1` rows (the
    /// last for values of no group).
    fn group_sums(&self, weights: &Tensor) -> Result<Tensor> {
        let ids = match &self.ids {
            Some(ids) => ids.shallow_clone(),
            None => Tensor::f_zeros([weights.size()[0]], (Kind::Int64, weights.device()))?,
        };
        let mut size = weights.size();
        size[0] = self.count + 1;
        Ok(Tensor::f_zeros(&size[..], (weights.kind(), weights.device()))?.f_index_add(0, &ids, weights)?)
    }

    fn refuse_complex(&self, routine: &'static str) -> Result<DType> {
        let dtype = crate::dlpack::dtype_of(&self.values)?;
        if dtype.is_complex()
            && (self.ids.is_some() || !matches!(routine, "ndimage.sum_labels" | "ndimage.mean" | "ndimage.variance"))
        {
            return Err(Error::DtypeNotAccepted {
                routine,
                dtype,
                accepted: "real input (sum_labels, mean and variance take complex input without an index array, as SciPy's bincount does)",
            });
        }
        Ok(dtype)
    }
}

/// uint16/32/64 as int64, the unsigned types libtorch has few kernels for.
fn widened(t: &Tensor) -> Result<Tensor> {
    Ok(match crate::dlpack::dtype_of(t)? {
        DType::UInt16 | DType::UInt32 | DType::UInt64 => t.f_to_kind(Kind::Int64)?,
        _ => t.shallow_clone(),
    })
}

/// The element count of each group (`count + 1` rows), as float64.
fn counts(groups: &Groups) -> Result<Tensor> {
    let ones = Tensor::f_ones([groups.values.numel() as i64], (Kind::Double, groups.values.device()))?;
    groups.group_sums(&ones)
}

/// The sum and element count of each group (float64; one group: NumPy's
/// `sum` dtype, integers in int64) and their count.
fn sums_and_counts(groups: &Groups, routine: &'static str) -> Result<(Tensor, Tensor)> {
    let dtype = groups.refuse_complex(routine)?;
    let values = &groups.values;
    if groups.ids.is_none() {
        let sum = match groups.dtype {
            _ if dtype.is_float() || dtype.is_complex() => values.f_sum(None::<Kind>)?,
            // NumPy sums unsigned integers in uint64 (modulo 2**64, as the int64 sum wraps).
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
                crate::ops::numpy::cast(&values.f_sum(Kind::Int64)?, DType::UInt64)?
            }
            _ => values.f_sum(Kind::Int64)?,
        };
        let count = Tensor::f_from_slice(&[values.numel() as f64])?.f_to_device(values.device())?;
        return Ok((sum.f_unsqueeze(0)?, count));
    }
    let weights = values.f_to_kind(Kind::Double)?;
    Ok((groups.group_sums(&weights)?, counts(groups)?))
}

/// `scipy.ndimage.sum_labels`: each group's sum (float64 with an index
/// array, as SciPy's `bincount`; a single group keeps NumPy's `sum` dtype).
pub fn sum_labels(groups: &Groups) -> Result<Tensor> {
    let (sums, _) = sums_and_counts(groups, "ndimage.sum_labels")?;
    groups.gather(&sums)
}

/// `scipy.ndimage.mean`: sum over count in float64 (complex128 for complex
/// input); an empty group's mean is NaN.
pub fn mean(groups: &Groups) -> Result<Tensor> {
    let (sums, counts) = sums_and_counts(groups, "ndimage.mean")?;
    let sums = if sums.is_complex() { sums.f_to_kind(Kind::ComplexDouble)? } else { sums.f_to_kind(Kind::Double)? };
    groups.gather(&sums.f_div(&counts)?)
}

/// `scipy.ndimage.variance`: the mean of the squared deviations from the
/// group's mean (the two passes SciPy makes), float64.
pub fn variance(groups: &Groups) -> Result<Tensor> {
    let dtype = groups.refuse_complex("ndimage.variance")?;
    let values = &groups.values;
    if groups.ids.is_none() {
        // SciPy: `vals - vals.mean()` in the values' dtype (integers in float64).
        let values = if dtype.is_float() || dtype.is_complex() {
            values.shallow_clone()
        } else {
            values.f_to_kind(Kind::Double)?
        };
        let centred = values.f_sub(&values.f_mean(None::<Kind>)?)?;
        let squares = centred.f_mul(&centred.f_conj()?.f_resolve_conj()?)?;
        let kind = if dtype.is_complex() { Kind::ComplexDouble } else { Kind::Double };
        return Ok(squares.f_sum(None::<Kind>)?.f_to_kind(kind)?.f_div_scalar(values.numel() as f64)?);
    }
    let (sums, counts) = sums_and_counts(groups, "ndimage.variance")?;
    let means = sums.f_div(&counts)?;
    let ids = groups.ids.as_ref().expect("an index array");
    let centred = values.f_to_kind(Kind::Double)?.f_sub(&means.f_take(ids)?)?;
    groups.gather(&groups.group_sums(&centred.f_square()?)?.f_div(&counts)?)
}

/// Which extreme `extreme` takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Extreme {
    /// `minimum`, `minimum_position`.
    Minimum,
    /// `maximum`, `maximum_position`.
    Maximum,
}

impl Extreme {
    fn routine(self) -> &'static str {
        match self {
            Extreme::Minimum => "ndimage.minimum",
            Extreme::Maximum => "ndimage.maximum",
        }
    }
}

/// `scipy.ndimage.minimum` / `maximum`: each group's extreme, in the
/// input's dtype. As SciPy's, a single group's is NaN if any value is (and
/// an empty one raises); with an index array the values are ranked as
/// NumPy's `argsort` ranks them (NaN last), so a group's minimum is NaN only
/// if all its values are, its maximum if any is, and a group with no
/// elements gives 0.
pub fn extreme(groups: &Groups, which: Extreme) -> Result<Tensor> {
    // In the input's dtype (uint16/32/64 were ranked as int64).
    crate::ops::numpy::cast(&groups.gather(&per_group_extreme(groups, which)?)?, groups.dtype)
}

/// [`extreme`] before the gather (and with unsigned input in int64): one
/// row per group and one for no group (a single group: its one row).
fn per_group_extreme(groups: &Groups, which: Extreme) -> Result<Tensor> {
    let dtype = groups.refuse_complex(which.routine())?;
    let values = &groups.values;
    let Some(ids) = &groups.ids else {
        if values.numel() == 0 {
            let name = &which.routine()["ndimage.".len()..];
            return Err(Error::InvalidArgument(format!(
                "the group is empty (SciPy: \"zero-size array to reduction operation {name} which has no identity\")"
            )));
        }
        let all: &[i64] = &[];
        let value = match which {
            Extreme::Minimum => values.f_amin(all, false)?,
            Extreme::Maximum => values.f_amax(all, false)?,
        };
        return Ok(value.f_unsqueeze(0)?);
    };
    // scatter_reduce has no bool kernels: rank bools as bytes.
    let ranked = if dtype == DType::Bool { values.f_to_kind(Kind::Uint8)? } else { values.shallow_clone() };
    let (reduce, nan_rank) = match which {
        Extreme::Minimum => ("amin", f64::INFINITY),
        Extreme::Maximum => ("amax", f64::NEG_INFINITY),
    };
    let nan = if dtype.is_float() { Some(ranked.f_isnan()?) } else { None };
    let ranked = match &nan {
        Some(nan) => ranked.f_masked_fill(nan, nan_rank)?,
        None => ranked,
    };
    let zeros = Tensor::f_zeros([groups.count + 1], (ranked.kind(), ranked.device()))?;
    let mut per_group = scatter_reduce_into(&zeros, ids, &ranked, reduce)?;
    if let Some(nan) = nan {
        // NaNs per group against its size: a minimum is NaN when all are, a maximum when any is.
        let nans = groups.group_sums(&nan.f_to_kind(Kind::Double)?)?;
        let any = nans.f_gt(0)?;
        let turns = match which {
            Extreme::Minimum => any.f_logical_and(&nans.f_eq_tensor(&counts(groups)?)?)?,
            Extreme::Maximum => any,
        };
        per_group = per_group.f_masked_fill(&turns, f64::NAN)?;
    }
    Ok(per_group.f_to_kind(values.kind())?)
}

/// `scipy.ndimage.minimum_position` / `maximum_position` before they are
/// unravelled: the flat position (in the broadcast shape) of the first
/// element in raster order that holds the group's [`extreme`] (NaN
/// included); 0 for a group with no elements. (SciPy's index-array path
/// takes whichever tied element its unstable `argsort` puts first; its
/// single-group path, the first in raster order, as here.)
pub fn extreme_position(groups: &Groups, which: Extreme) -> Result<Tensor> {
    let per_group = per_group_extreme(groups, which)?;
    let values = &groups.values;
    let target = match &groups.ids {
        Some(ids) => per_group.f_take(ids)?,
        None => per_group.f_select(0, 0)?,
    };
    let hit = values.f_eq_tensor(&target)?.f_logical_or(&values.f_isnan()?.f_logical_and(&target.f_isnan()?)?)?;
    let positions = groups.positions()?.f_masked_select(&hit)?;
    let Some(ids) = &groups.ids else {
        // Not reached empty (`per_group_extreme` raises), but a NaN-free miss cannot happen either.
        return Ok(positions.f_amin(&[] as &[i64], false)?);
    };
    let zeros = Tensor::f_zeros([groups.count + 1], (Kind::Int64, values.device()))?;
    groups.gather(&scatter_reduce_into(&zeros, &ids.f_masked_select(&hit)?, &positions, "amin")?)
}

/// `scipy.ndimage.median`: the mean of each group's middle two values (its
/// middle one), ranked NaN last; float64 for integer and bool input. A
/// single group's is NaN if any value is (NumPy's `median`) or it is empty;
/// with an index array, a group with no elements gets SciPy's value: the
/// smallest value of the smallest label.
pub fn median(groups: &Groups) -> Result<Tensor> {
    let dtype = groups.refuse_complex("ndimage.median")?;
    let values =
        if dtype.is_float() { groups.values.shallow_clone() } else { groups.values.f_to_kind(Kind::Double)? };
    let n = values.numel() as i64;
    let Some(ids) = &groups.ids else {
        if n == 0 || values.f_isnan()?.f_any()?.f_int64_value(&[])? != 0 {
            return Ok(Tensor::f_full([], f64::NAN, (values.kind(), values.device()))?);
        }
        let sorted = values.f_sort(0, false)?.0;
        let (lo, hi) = (sorted.f_select(0, (n - 1) / 2)?, sorted.f_select(0, n / 2)?);
        return Ok(lo.f_add(&hi)?.f_div_scalar(2.0)?.f_to_kind(values.kind())?);
    };
    if n == 0 {
        return groups.gather(&Tensor::f_zeros([groups.count + 1], (values.kind(), values.device()))?);
    }
    // Sorted by value (NaN last, torch's order), then stably by group.
    let by_value = values.f_argsort_stable(true, 0, false)?;
    let by_group = ids.f_take(&by_value)?.f_argsort_stable(true, 0, false)?;
    let sorted = values.f_take(&by_value.f_take(&by_group)?)?;
    let sizes = counts(groups)?.f_to_kind(Kind::Int64)?;
    let starts = sizes.f_cumsum(0, None::<Kind>)?.f_sub(&sizes)?;
    let last = n - 1;
    let lo = starts.f_add(&sizes.f_sub_scalar(1)?.f_div_scalar_mode(2, "floor")?)?.f_clamp(0, last)?;
    let hi = starts.f_add(&sizes.f_div_scalar_mode(2, "floor")?)?.f_clamp(0, last)?;
    let middle = sorted.f_take(&lo)?.f_add(&sorted.f_take(&hi)?)?.f_div_scalar(2.0)?.f_to_kind(values.kind())?;
    let empty = sizes.f_eq(0)?;
    let fallback = smallest_of_smallest_label(groups, &values)?;
    groups.gather(&middle.f_where_self(&empty.f_logical_not()?, &fallback)?)
}

/// SciPy's median for an index entry with no elements: the first value of
/// its lexsort by (label, value), the smallest value (NaN last) of the
/// smallest label.
fn smallest_of_smallest_label(groups: &Groups, values: &Tensor) -> Result<Tensor> {
    let keys = groups.keys.as_ref().expect("an index array");
    let all: &[i64] = &[];
    let ranked_keys =
        if keys.is_floating_point() { keys.f_nan_to_num(f64::INFINITY, None, None)? } else { keys.shallow_clone() };
    let first = ranked_keys.f_eq_tensor(&ranked_keys.f_amin(all, false)?)?;
    let candidates = values.f_masked_select(&first)?;
    let numbers = candidates.f_masked_select(&candidates.f_isnan()?.f_logical_not()?)?;
    Ok(if numbers.numel() > 0 { numbers.f_amin(all, false)? } else { candidates.f_select(0, 0)? })
}

/// `scipy.ndimage.center_of_mass`: per group, the position of each axis
/// weighted by the values, over their sum (float64; one row of `ndim`
/// coordinates per index entry, or `(ndim,)` for a single group). SciPy
/// divides as it sums: a group summing to 0 gives inf or NaN.
pub fn center_of_mass(groups: &Groups) -> Result<Tensor> {
    groups.refuse_complex("ndimage.center_of_mass")?;
    if groups.shape.is_empty() {
        return Err(Error::InvalidArgument("center_of_mass needs an input of at least one dimension".into()));
    }
    let positions = groups.positions()?;
    let mut coordinates = Vec::with_capacity(groups.shape.len());
    let mut inner = 1;
    for &len in groups.shape.iter().rev() {
        coordinates.push(positions.f_div_scalar_mode(inner, "floor")?.f_remainder(len)?);
        inner *= len;
    }
    coordinates.reverse();
    let weights = groups.values.f_to_kind(Kind::Double)?;
    let weighted = Tensor::f_stack(&coordinates, 1)?.f_to_kind(Kind::Double)?.f_mul(&weights.f_unsqueeze(1)?)?;
    if groups.ids.is_none() {
        let total = sums_and_counts(groups, "ndimage.center_of_mass")?.0.f_to_kind(Kind::Double)?;
        return Ok(weighted.f_sum_dim_intlist(0, false, None::<Kind>)?.f_div(&total)?);
    }
    let totals = groups.group_sums(&weights)?;
    groups.gather(&groups.group_sums(&weighted)?.f_div(&totals.f_unsqueeze(1)?)?)
}

/// `scipy.ndimage.histogram` per group: the counts (int64) of values in
/// `bins` equal bins from `min` to `max` (NumPy's `linspace` edges, each bin
/// closed on the left, the last on both sides; NaN and values outside
/// uncounted), and whether the group has any elements
/// (`labeled_comprehension` gives `None` where it has not). Rows in the
/// index's shape (a single group: `(bins,)`).
pub fn histogram(groups: &Groups, min: f64, max: f64, bins: i64) -> Result<(Tensor, Tensor)> {
    groups.refuse_complex("ndimage.histogram")?;
    if bins < 1 {
        return Err(Error::InvalidArgument(format!("bins must be a positive integer; got {bins}")));
    }
    let device = groups.values.device();
    // NumPy's linspace: start + i * step, the last edge exactly `max`.
    let step = (max - min) / bins as f64;
    let mut edges: Vec<f64> = (0..=bins).map(|i| i as f64 * step + min).collect();
    edges[bins as usize] = max;
    if edges.windows(2).any(|w| w[1] < w[0]) || edges.iter().any(|e| e.is_nan()) {
        return Err(Error::InvalidArgument("`bins` must increase monotonically, when an array (min > max)".into()));
    }
    let edges = Tensor::f_from_slice(&edges)?.f_to_device(device)?;
    let values = groups.values.f_to_kind(Kind::Double)?;
    // The last edge not above each value; a value equal to `max` goes in the last bin.
    let bin = values.f_searchsorted(&edges, false, true, "right", None::<&Tensor>)?.f_sub_scalar(1)?;
    let bin = bin.f_where_scalarother(&values.f_ne(max)?, bins - 1)?;
    let inside = bin.f_ge(0)?.f_logical_and(&bin.f_lt(bins)?)?.f_logical_and(&values.f_isnan()?.f_logical_not()?)?;
    let slots = groups.count + 1;
    let group = match &groups.ids {
        Some(ids) => ids.shallow_clone(),
        None => Tensor::f_zeros_like(&bin)?,
    };
    let slot = group.f_mul_scalar(bins)?.f_add(&bin)?.f_masked_select(&inside)?;
    let counts_ = slot.f_bincount(None::<&Tensor>, slots * bins)?.f_reshape([slots, bins])?;
    let occupied = counts(groups)?.f_gt(0)?;
    Ok((groups.gather(&counts_)?, groups.gather(&occupied)?))
}
