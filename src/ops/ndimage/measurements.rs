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
use crate::{Error, Result};

/// `torch.scatter_reduce(dest, 0, index, src, reduce, include_self=True)`
/// (tch's `scatter_reduce` is the older `scatter(reduce=)`, and
/// `index_reduce` warns that it is in beta).
fn scatter_reduce(dest: &Tensor, index: &Tensor, src: &Tensor, reduce: &str) -> Result<Tensor> {
    let args = [
        Arg::ConstTensor(dest.shallow_clone()),
        Arg::Int(0),
        Arg::ConstTensor(index.shallow_clone()),
        Arg::ConstTensor(src.shallow_clone()),
        Arg::Str(reduce.into()),
    ];
    let mut out = call("aten::scatter_reduce.two", &args, &[("include_self", Arg::Bool(true))])?;
    out.swap_remove(0).into_tensor()
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
