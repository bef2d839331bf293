//! SciPy's `ndimage/_morphology.py`: generate_binary_structure,
//! iterate_structure, the binary erosion, dilation, opening, closing,
//! propagation, hole filling and hit-or-miss, the grey erosion, dilation,
//! opening, closing, gradient, Laplace and top-hats, and the Euclidean,
//! chamfer and brute-force distance transforms.
//!
//! The binary routines follow SciPy's `NI_BinaryErosion`: every structure
//! position is a view of the input padded with `border_value`, folded with
//! `logical_and` (erosion) or `logical_or` (SciPy's `invert` form, the
//! dilation, which SciPy computes with the reflected structure); positions
//! outside `mask` keep the input. Repeated passes run until `iterations` or,
//! for `iterations < 1`, until a pass changes nothing (checked every few
//! passes, which gives the same fixed point).
//!
//! The grey routines with a non-separable footprint or a `structure` follow
//! SciPy's `NI_MinOrMaxFilter` one comparison at a time (the first position
//! in float64 with the structure value added in float64, the others in the
//! input's own type, `<`/`>` comparisons so that a NaN is kept only where
//! SciPy keeps it); a box (`size`, an all-true footprint) is the separable
//! `minimum_filter`/`maximum_filter` of `filters.rs`.
//!
//! `distance_transform_edt` is a separable exact transform: the nearest
//! background along the first axis from two scans (`cummax`/`cummin`), then
//! along every further axis the lower envelope of parabolas (Felzenszwalb and
//! Huttenlocher), its stack built position by position for all lines at once
//! and read back with a batched `searchsorted`. The distances are then
//! computed from the feature coordinates as SciPy computes them. On the CPU
//! (with some background) the transform is instead the host kernel of
//! [`super::edt`]: SciPy's own algorithm, one native pass per axis.

use tch::{Device, Kind, Tensor};

use super::filters::{
    self, check_axes, check_selection_input, copy_cast, cval_for, expand_origin, expand_shape, extend_all,
    footprint_extent, footprint_views, place_footprint, single_mode, Footprint, Mode, Output, PerAxis,
};
use crate::{dlpack, DType, Error, Result};

/// `scipy.ndimage.generate_binary_structure`: the `3**rank` neighbourhood
/// whose squared distance from the centre is at most `connectivity` (a 0-d
/// `True` for `rank < 1`).
pub fn generate_binary_structure(rank: i64, connectivity: i64) -> Result<Footprint> {
    let connectivity = connectivity.max(1);
    if rank < 1 {
        return Ok(Footprint { shape: vec![], mask: vec![true] });
    }
    if rank > 32 {
        return Err(Error::InvalidArgument(format!("rank {rank} is too large for a 3**rank structure")));
    }
    let shape = vec![3i64; rank as usize];
    let count = 3usize.pow(rank as u32);
    let mask = (0..count as i64)
        .map(|flat| filters::unravel(flat, &shape).iter().map(|&i| (i - 1).abs()).sum::<i64>() <= connectivity)
        .collect();
    Ok(Footprint { shape, mask })
}

/// A footprint as a bool tensor on `device`.
pub fn footprint_tensor(f: &Footprint, device: Device) -> Result<Tensor> {
    let flat: Vec<u8> = f.mask.iter().map(|&m| u8::from(m)).collect();
    Ok(Tensor::f_from_slice(&flat)?.f_reshape(f.shape.as_slice())?.f_to_kind(Kind::Bool)?.f_to_device(device)?)
}

/// The footprint of a bool tensor (nonzero: in it), read on the host.
fn footprint_of(t: &Tensor) -> Result<Footprint> {
    let shape = t.size();
    let flat = t.f_ne(0)?.f_to_kind(Kind::Uint8)?.f_to_device(Device::Cpu)?.f_contiguous()?.f_reshape([-1])?;
    let mask = Vec::<u8>::try_from(&flat)?.into_iter().map(|v| v != 0).collect();
    Ok(Footprint { shape, mask })
}

/// The footprint reflected along every axis (its C-order positions reversed).
fn reflected(f: &Footprint) -> Footprint {
    Footprint { shape: f.shape.clone(), mask: f.mask.iter().rev().copied().collect() }
}

/// SciPy's origin of a reflected filter: `-origin`, one less along an even axis.
fn reflected_origins(origins: &[i64], shape: &[i64]) -> Vec<i64> {
    origins.iter().zip(shape).map(|(&o, &k)| if k % 2 == 0 { -o - 1 } else { -o }).collect()
}

/// `scipy.ndimage.iterate_structure`: `structure` dilated by itself
/// `iterations - 1` times (a copy for fewer than 2 iterations); the origin,
/// when given, times `iterations`.
pub fn iterate_structure(structure: &Tensor, iterations: i64) -> Result<Tensor> {
    if iterations < 2 {
        return Ok(structure.f_detach_copy()?);
    }
    let f = footprint_of(structure)?;
    let ni = iterations - 1;
    let shape: Vec<i64> = f.shape.iter().map(|&k| k + ni * (k - 1)).collect();
    let x = Tensor::f_zeros(shape.as_slice(), (Kind::Bool, structure.device()))?;
    let mut slot = x.shallow_clone();
    for (d, &k) in f.shape.iter().enumerate() {
        slot = slot.f_narrow(d as i64, ni * (k / 2), k)?;
    }
    slot.f_copy_(&structure.f_ne(0)?)?;
    let origins = vec![0i64; f.shape.len()];
    let s = reflected(&f);
    let o = reflected_origins(&origins, &s.shape);
    let (before, after) = footprint_extent(&s.shape, &o)?;
    let pass = Pass { s: &s, before: &before, after: &after, border: false, invert: true, mask: None };
    iterate(&x, ni, &pass)
}

/// One of SciPy's `NI_BinaryErosion` passes: the structure, its extension, the border and the mask.
struct Pass<'a> {
    s: &'a Footprint,
    before: &'a [i64],
    after: &'a [i64],
    border: bool,
    invert: bool,
    mask: Option<&'a Tensor>,
}

impl Pass<'_> {
    /// One pass over bool `x`.
    fn run(&self, x: &Tensor) -> Result<Tensor> {
        let dims = x.size();
        let out = if !self.s.mask.iter().any(|&m| m) {
            // no position: SciPy's loop leaves its initial value (true for erosion, false for dilation)
            x.f_full_like(i64::from(!self.invert))?
        } else {
            let ext = pad_bool(x, self.border, self.before, self.after)?;
            let views = footprint_views(&ext, &self.s.shape, &self.s.mask, &dims)?;
            let mut acc = views[0].shallow_clone();
            for v in &views[1..] {
                acc = if self.invert { acc.f_logical_or(v)? } else { acc.f_logical_and(v)? };
            }
            if views.len() == 1 {
                acc.f_contiguous()?
            } else {
                acc
            }
        };
        match self.mask {
            Some(m) => Ok(out.f_where_self(m, x)?),
            None => Ok(out),
        }
    }
}

/// Bool `x` padded by `before`/`after` with `value`.
fn pad_bool(x: &Tensor, value: bool, before: &[i64], after: &[i64]) -> Result<Tensor> {
    if before.iter().chain(after).all(|&p| p == 0) {
        return Ok(x.shallow_clone());
    }
    let dims = x.size();
    let shape: Vec<i64> = dims.iter().zip(before.iter().zip(after)).map(|(&n, (&b, &a))| n + b + a).collect();
    let ext = Tensor::f_full(shape.as_slice(), i64::from(value), (Kind::Bool, x.device()))?;
    let mut slot = ext.shallow_clone();
    for (d, (&b, &n)) in before.iter().zip(&dims).enumerate() {
        slot = slot.f_narrow(d as i64, b, n)?;
    }
    slot.f_copy_(x)?;
    Ok(ext)
}

/// How many passes run between two stability checks.
const CHECK_EVERY: i64 = 4;

/// `pass` applied `iterations` times to `x` (until nothing changes for
/// `iterations < 1`); the passes stop early at a fixed point.
fn iterate(x: &Tensor, iterations: i64, pass: &Pass<'_>) -> Result<Tensor> {
    let mut current = pass.run(x)?;
    let mut done = 1i64;
    let limit = 2 * x.numel() as i64 + 8;
    while iterations < 1 || done < iterations {
        let next = pass.run(&current)?;
        done += 1;
        let last = iterations >= 1 && done >= iterations;
        if !last && done % CHECK_EVERY == 0 && next.f_equal(&current)? {
            return Ok(next);
        }
        current = next;
        if iterations < 1 && done > limit {
            return Err(Error::InvalidArgument(
                "the passes do not settle (a structure without its centre can oscillate); give iterations".into(),
            ));
        }
    }
    Ok(current)
}

/// A binary routine's structure and origins over every axis of an input of `ndim` dimensions.
fn prepare(
    ndim: usize,
    structure: Option<&Footprint>,
    origin: &PerAxis<i64>,
    axes: Option<&[i64]>,
) -> Result<(Footprint, Vec<i64>)> {
    let axes = check_axes(axes, ndim)?;
    let s = match structure {
        Some(s) => s.clone(),
        None => generate_binary_structure(axes.len() as i64, 1)?,
    };
    let shape = if ndim > axes.len() { expand_shape(&s.shape, &axes, ndim, "structure")? } else { s.shape.clone() };
    if shape.len() != ndim {
        return Err(Error::InvalidArgument("structure and input must have same dimensionality".into()));
    }
    if s.mask.is_empty() {
        return Err(Error::InvalidArgument("structure must not be empty".into()));
    }
    let origins = expand_origin(origin, &axes, ndim)?;
    Ok((Footprint { shape, mask: s.mask }, origins))
}

/// The output of a binary routine: bool whatever dtype `output` names (SciPy's
/// `_binary_erosion` writes into a new bool array unless given an array).
fn binary_output(b: Tensor, output: Option<DType>) -> Result<Tensor> {
    let _ = output;
    Ok(b)
}

/// The input's truth values (nonzero, NaN included), refusing complex input as SciPy does.
fn truth(input: &Tensor) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(input)?;
    if dtype.is_complex() {
        return Err(Error::DtypeNotAccepted {
            routine: "ndimage binary morphology",
            dtype,
            accepted: "Complex type not supported; bool, integer and real input",
        });
    }
    if input.kind() == Kind::Bool {
        return Ok(input.shallow_clone());
    }
    Ok(input.f_ne(0)?)
}

/// SciPy's `_binary_erosion`: erosion (`invert = false`) or the dilation form
/// (`invert = true`, the structure already reflected) of bool `x`.
#[allow(clippy::too_many_arguments)]
fn erosion(
    x: &Tensor,
    s: &Footprint,
    origins: &[i64],
    iterations: i64,
    mask: Option<&Tensor>,
    border: bool,
    invert: bool,
) -> Result<Tensor> {
    let (before, after) = footprint_extent(&s.shape, origins)?;
    if let Some(m) = mask {
        if m.size() != x.size() {
            return Err(Error::InvalidArgument("mask and input must have equal sizes".into()));
        }
    }
    if x.numel() == 0 {
        return Ok(x.f_detach_copy()?);
    }
    let mask = mask.map(truth).transpose()?;
    let pass = Pass { s, before: &before, after: &after, border, invert, mask: mask.as_ref() };
    if iterations == 1 {
        return pass.run(x);
    }
    iterate(x, iterations, &pass)
}

/// The options the binary erosion and dilation share.
#[derive(Clone, Debug)]
pub struct Binary<'a> {
    /// The structuring element (`None`: connectivity 1 over `axes`).
    pub structure: Option<&'a Footprint>,
    /// Passes; below 1: until nothing changes.
    pub iterations: i64,
    /// Where the passes may change the input.
    pub mask: Option<&'a Tensor>,
    /// The value beyond the array's edges.
    pub border_value: bool,
    /// The structure's shift, one or one per axis.
    pub origin: PerAxis<i64>,
    /// The axes filtered (`None`: all).
    pub axes: Option<&'a [i64]>,
}

/// `scipy.ndimage.binary_erosion`.
pub fn binary_erosion(input: &Tensor, b: &Binary<'_>, output: Option<DType>) -> Result<Tensor> {
    let x = truth(input)?;
    let (s, origins) = prepare(x.dim(), b.structure, &b.origin, b.axes)?;
    binary_output(erosion(&x, &s, &origins, b.iterations, b.mask, b.border_value, false)?, output)
}

/// `scipy.ndimage.binary_dilation`: the erosion form with the reflected structure.
pub fn binary_dilation(input: &Tensor, b: &Binary<'_>, output: Option<DType>) -> Result<Tensor> {
    let x = truth(input)?;
    binary_output(dilate_bool(&x, b)?, output)
}

fn dilate_bool(x: &Tensor, b: &Binary<'_>) -> Result<Tensor> {
    let (s, origins) = prepare(x.dim(), b.structure, &b.origin, b.axes)?;
    let r = reflected(&s);
    let o = reflected_origins(&origins, &r.shape);
    erosion(x, &r, &o, b.iterations, b.mask, b.border_value, true)
}

fn erode_bool(x: &Tensor, b: &Binary<'_>) -> Result<Tensor> {
    let (s, origins) = prepare(x.dim(), b.structure, &b.origin, b.axes)?;
    erosion(x, &s, &origins, b.iterations, b.mask, b.border_value, false)
}

/// `scipy.ndimage.binary_opening`: erosion, then dilation, with the same options.
pub fn binary_opening(input: &Tensor, b: &Binary<'_>, output: Option<DType>) -> Result<Tensor> {
    let x = truth(input)?;
    binary_output(dilate_bool(&erode_bool(&x, b)?, b)?, output)
}

/// `scipy.ndimage.binary_closing`: dilation, then erosion, with the same options.
pub fn binary_closing(input: &Tensor, b: &Binary<'_>, output: Option<DType>) -> Result<Tensor> {
    let x = truth(input)?;
    binary_output(erode_bool(&dilate_bool(&x, b)?, b)?, output)
}

/// `scipy.ndimage.binary_propagation`: dilation until nothing changes, within `mask`.
pub fn binary_propagation(input: &Tensor, b: &Binary<'_>, output: Option<DType>) -> Result<Tensor> {
    let b = Binary { iterations: -1, ..b.clone() };
    binary_dilation(input, &b, output)
}

/// `scipy.ndimage.binary_fill_holes`: the complement of the background
/// reached from the border (propagation into `!input` from a border of ones).
pub fn binary_fill_holes(
    input: &Tensor,
    structure: Option<&Footprint>,
    output: Option<DType>,
    origin: &PerAxis<i64>,
    axes: Option<&[i64]>,
) -> Result<Tensor> {
    let x = truth(input)?;
    let mask = x.f_logical_not()?;
    let zeros = x.f_zeros_like()?;
    let b = Binary { structure, iterations: -1, mask: Some(&mask), border_value: true, origin: origin.clone(), axes };
    binary_output(dilate_bool(&zeros, &b)?.f_logical_not()?, output)
}

/// `scipy.ndimage.binary_hit_or_miss`: where `structure1` fits the input and
/// `structure2` (by default its complement) fits the background.
#[allow(clippy::too_many_arguments)]
pub fn binary_hit_or_miss(
    input: &Tensor,
    structure1: Option<&Footprint>,
    structure2: Option<&Footprint>,
    output: Option<DType>,
    origin1: &PerAxis<i64>,
    origin2: Option<&PerAxis<i64>>,
    axes: Option<&[i64]>,
) -> Result<Tensor> {
    let x = truth(input)?;
    let ndim = x.dim();
    let n_axes = check_axes(axes, ndim)?.len();
    let s1 = match structure1 {
        Some(s) => s.clone(),
        None => generate_binary_structure(n_axes as i64, 1)?,
    };
    let s2 = match structure2 {
        Some(s) => s.clone(),
        None => Footprint { shape: s1.shape.clone(), mask: s1.mask.iter().map(|&m| !m).collect() },
    };
    // SciPy normalises both origins over the axes before use
    origin1.normalize(n_axes)?;
    let origin2 = origin2.unwrap_or(origin1);
    origin2.normalize(n_axes)?;
    let (s1, o1) = prepare(ndim, Some(&s1), origin1, axes)?;
    let (s2, o2) = prepare(ndim, Some(&s2), origin2, axes)?;
    let fit = erosion(&x, &s1, &o1, 1, None, false, false)?;
    let touch = erosion(&x, &s2, &o2, 1, None, false, true)?;
    binary_output(fit.f_logical_and(&touch.f_logical_not()?)?, output)
}

/// A grey structuring element: its shape and values (C order).
#[derive(Clone, Debug)]
pub struct Structure {
    /// The shape.
    pub shape: Vec<i64>,
    /// The values, C order.
    pub values: Vec<f64>,
}

/// What a grey routine filters with (SciPy's `size`, `footprint`, `structure`).
#[derive(Clone, Debug)]
pub struct Grey<'a> {
    /// A box of this size.
    pub size: Option<PerAxis<i64>>,
    /// The positions of the footprint.
    pub footprint: Option<&'a Footprint>,
    /// Values added (dilation) or subtracted (erosion).
    pub structure: Option<&'a Structure>,
    /// The boundary mode(s).
    pub mode: PerAxis<Mode>,
    /// The value beyond the edges in the constant mode.
    pub cval: f64,
    /// The shift, one or one per axis.
    pub origin: PerAxis<i64>,
    /// The axes filtered (`None`: all).
    pub axes: Option<&'a [i64]>,
}

/// `scipy.ndimage.grey_erosion`.
pub fn grey_erosion(input: &Tensor, g: &Grey<'_>, output: Option<DType>) -> Result<Tensor> {
    if g.size.is_none() && g.footprint.is_none() && g.structure.is_none() {
        return Err(Error::InvalidArgument("size, footprint, or structure must be specified".into()));
    }
    min_or_max(input, g, output, true)
}

/// `scipy.ndimage.grey_dilation`: the maximum with the footprint and structure reflected.
pub fn grey_dilation(input: &Tensor, g: &Grey<'_>, output: Option<DType>) -> Result<Tensor> {
    if g.size.is_none() && g.footprint.is_none() && g.structure.is_none() {
        return Err(Error::InvalidArgument("size, footprint, or structure must be specified".into()));
    }
    let n_axes = check_axes(g.axes, input.dim())?.len();
    let footprint = g.footprint.map(reflected);
    let structure =
        g.structure.map(|s| Structure { shape: s.shape.clone(), values: s.values.iter().rev().copied().collect() });
    let origins = g.origin.normalize(n_axes)?;
    let mut flipped = Vec::with_capacity(n_axes);
    for (ii, &o) in origins.iter().enumerate() {
        let sz = if let Some(f) = &footprint {
            f.shape.get(ii).copied()
        } else if let Some(s) = &structure {
            s.shape.get(ii).copied()
        } else {
            match &g.size {
                Some(PerAxis::Same(k)) => Some(*k),
                Some(PerAxis::Each(k)) => k.get(ii).copied(),
                None => None,
            }
        };
        let sz = sz.ok_or_else(|| Error::InvalidArgument("tuple index out of range".into()))?;
        flipped.push(if sz & 1 == 0 { -o - 1 } else { -o });
    }
    let g = Grey {
        footprint: footprint.as_ref(),
        structure: structure.as_ref(),
        origin: PerAxis::Each(flipped),
        ..g.clone()
    };
    min_or_max(input, &g, output, false)
}

/// SciPy's `_min_or_max_filter`: separable passes for a box, the comparison chain otherwise.
fn min_or_max(input: &Tensor, g: &Grey<'_>, output: Option<DType>, minimum: bool) -> Result<Tensor> {
    if g.structure.is_none() {
        let separable = match g.footprint {
            None => {
                if g.size.is_none() {
                    return Err(Error::InvalidArgument("no footprint provided".into()));
                }
                true
            }
            Some(f) => {
                if !f.mask.iter().any(|&m| m) {
                    return Err(Error::InvalidArgument("All-zero footprint is not supported.".into()));
                }
                f.mask.iter().all(|&m| m)
            }
        };
        if separable {
            let size = g.footprint.map(|f| PerAxis::Each(f.shape.clone())).or_else(|| g.size.clone());
            return filters::minmax_filter(
                input,
                size.as_ref(),
                None,
                output,
                &g.mode,
                g.cval,
                &g.origin,
                g.axes,
                minimum,
            );
        }
    }
    let dtype = check_selection_input(input)?;
    let out = Output::of(input, output)?;
    let ndim = input.dim();
    let axes = check_axes(g.axes, ndim)?;
    let footprint = match (g.footprint, g.structure) {
        (Some(f), _) => f.clone(),
        (None, Some(s)) => Footprint { shape: s.shape.clone(), mask: vec![true; s.values.len()] },
        (None, None) => return Err(Error::InvalidArgument("no footprint provided".into())),
    };
    let filters::Placement { shape, before, after, .. } = place_footprint(&footprint, &g.origin, &axes, ndim)?;
    let ss: Option<Vec<f64>> = match g.structure {
        Some(s) => {
            if s.shape.len() != axes.len() {
                return Err(Error::InvalidArgument("structure array has incorrect shape".into()));
            }
            if s.values.len() != footprint.mask.len() {
                return Err(Error::InvalidArgument("structure and footprint shapes differ".into()));
            }
            Some(
                s.values
                    .iter()
                    .zip(&footprint.mask)
                    .filter(|(_, &m)| m)
                    .map(|(&v, _)| if minimum { -v } else { v })
                    .collect(),
            )
        }
        None => None,
    };
    let mode = single_mode(&g.mode, "A sequence of modes is not supported for non-separable footprints")?;
    if input.numel() == 0 {
        return copy_cast(input, &out);
    }
    if ss.is_some() && dtype == DType::UInt64 {
        return Err(Error::NotImplemented("grey morphology with a structure on uint64 input".into()));
    }
    // the working tensor: C's type, uint16/uint32 in int64 reduced to their bits after each sum
    let wrap_bits = match dtype {
        DType::UInt16 => Some(16),
        DType::UInt32 => Some(32),
        _ => None,
    };
    let work = match dtype {
        DType::Bool => input.f_to_kind(Kind::Uint8)?,
        DType::UInt16 | DType::UInt32 => input.f_to_kind(Kind::Int64)?,
        DType::UInt64 => input.f_to_kind(Kind::Double)?,
        _ => input.shallow_clone(),
    };
    let cv = match wrap_bits {
        Some(bits) => {
            let v = if g.cval.is_finite() { g.cval.trunc() as i64 } else { 0 };
            (v & ((1i64 << bits) - 1)) as f64
        }
        None => cval_for(&work, g.cval),
    };
    let ext = extend_all(&work, mode, cv, &before, &after)?;
    let views = footprint_views(&ext, &shape, &footprint.mask, &work.size())?;
    // without a structure the values compare exactly in their own type (int64 aside, as C's double)
    let native = ss.is_none() && work.kind() != Kind::Int64;
    let widen =
        |t: &Tensor| -> Result<Tensor> { Ok(if native { t.shallow_clone() } else { t.f_to_kind(Kind::Double)? }) };
    let mut res = widen(&views[0])?;
    if let Some(ss) = &ss {
        res = res.f_add_scalar(ss[0])?;
    }
    for (k, v) in views.iter().enumerate().skip(1) {
        let t = match &ss {
            None => v.shallow_clone(),
            Some(ss) => typed_add(v, ss[k], wrap_bits)?,
        };
        let t = widen(&t)?;
        let better = if minimum { t.f_lt_tensor(&res)? } else { t.f_gt_tensor(&res)? };
        res = t.f_where_self(&better, &res)?;
    }
    let res = if native { res.f_to_kind(Kind::Double)? } else { res };
    if out.dtype == DType::Bool {
        // SciPy stores (npy_bool)(tmp): the truncated value's low byte, nonzero or not
        let t = res.f_trunc()?.f_to_kind(Kind::Int64)?.f_to_kind(Kind::Uint8)?;
        return Ok(t.f_ne(0)?);
    }
    out.cast(&res)
}

/// `v + (T)s` in `v`'s type `T` (C's `_tmp += (_type)ss`), integers wrapping.
fn typed_add(v: &Tensor, s: f64, wrap_bits: Option<i64>) -> Result<Tensor> {
    match v.kind() {
        Kind::Double => Ok(v.f_add_scalar(s)?),
        Kind::Float => Ok(v.f_add(&Tensor::f_from_slice(&[s as f32])?.f_to_device(v.device())?.f_reshape([])?)?),
        kind => {
            let si = if s.is_finite() { s.trunc() as i64 } else { 0 };
            let si = match kind {
                Kind::Uint8 => i64::from(si as u8),
                Kind::Int8 => i64::from(si as i8),
                Kind::Int16 => i64::from(si as i16),
                Kind::Int => i64::from(si as i32),
                _ => si,
            };
            let sum = v.f_add_scalar(si)?;
            match wrap_bits {
                Some(bits) => Ok(sum.f_bitwise_and((1i64 << bits) - 1)?),
                None => Ok(sum),
            }
        }
    }
}

/// `scipy.ndimage.grey_opening`: grey erosion, then grey dilation.
pub fn grey_opening(input: &Tensor, g: &Grey<'_>, output: Option<DType>) -> Result<Tensor> {
    let tmp = grey_erosion(input, g, None)?;
    grey_dilation(&tmp, g, output)
}

/// `scipy.ndimage.grey_closing`: grey dilation, then grey erosion.
pub fn grey_closing(input: &Tensor, g: &Grey<'_>, output: Option<DType>) -> Result<Tensor> {
    let tmp = grey_dilation(input, g, None)?;
    grey_erosion(&tmp, g, output)
}

/// SciPy's subtraction of two results of the input's dtype (NumPy refuses booleans).
fn difference(a: &Tensor, b: &Tensor, routine: &'static str) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(a)?;
    if dtype == DType::Bool {
        return Err(Error::DtypeNotAccepted {
            routine,
            dtype,
            accepted: "numpy boolean subtract, the `-` operator, is not supported; non-boolean input",
        });
    }
    if dtype.kind().is_none() {
        return Err(Error::NotImplemented(format!("{routine} on {} input", dtype.name())));
    }
    Ok(a.f_sub(b)?)
}

/// `scipy.ndimage.morphological_gradient`: dilation minus erosion, in the
/// input's dtype (SciPy ignores an `output` dtype here).
pub fn morphological_gradient(input: &Tensor, g: &Grey<'_>) -> Result<Tensor> {
    let dil = grey_dilation(input, g, None)?;
    let ero = grey_erosion(input, g, None)?;
    difference(&dil, &ero, "morphological_gradient")
}

/// `scipy.ndimage.morphological_laplace`: dilation plus erosion minus twice
/// the input, in the input's dtype (SciPy ignores an `output` dtype here).
pub fn morphological_laplace(input: &Tensor, g: &Grey<'_>) -> Result<Tensor> {
    let dil = grey_dilation(input, g, None)?;
    let ero = grey_erosion(input, g, None)?;
    if dlpack::dtype_of(input)? == DType::Bool {
        // np.add of booleans is `or`; the subtraction then refuses them
        return difference(input, input, "morphological_laplace");
    }
    let sum = dil.f_add(&ero)?;
    let once = difference(&sum, input, "morphological_laplace")?;
    difference(&once, input, "morphological_laplace")
}

/// `scipy.ndimage.white_tophat` (`white`: input minus its opening) or
/// `black_tophat` (closing minus input); booleans by `xor`.
pub fn tophat(input: &Tensor, g: &Grey<'_>, output: Option<DType>, white: bool) -> Result<Tensor> {
    let tmp = if white {
        grey_dilation(&grey_erosion(input, g, None)?, g, output)?
    } else {
        grey_erosion(&grey_dilation(input, g, None)?, g, output)?
    };
    let in_dtype = dlpack::dtype_of(input)?;
    let tmp_dtype = dlpack::dtype_of(&tmp)?;
    if in_dtype == DType::Bool && tmp_dtype == DType::Bool {
        return Ok(input.f_logical_xor(&tmp)?);
    }
    let (a, b) =
        if white { (input.shallow_clone(), tmp.shallow_clone()) } else { (tmp.shallow_clone(), input.shallow_clone()) };
    if in_dtype == tmp_dtype {
        return difference(&a, &b, if white { "white_tophat" } else { "black_tophat" });
    }
    // np.subtract(..., out=tmp): the promoted difference cast to tmp's dtype (same-kind casting)
    let Some(out_kind) = tmp_dtype.kind() else {
        return Err(Error::NotImplemented(format!("tophat output dtype {}", tmp_dtype.name())));
    };
    let floating = input.is_floating_point() || tmp.is_floating_point();
    if floating && !tmp.is_floating_point() {
        return Err(Error::DtypeNotAccepted {
            routine: "tophat",
            dtype: in_dtype,
            accepted: "Cannot cast ufunc 'subtract' output from a float dtype to an integer output with casting \
                       rule 'same_kind'",
        });
    }
    let wide = if floating { Kind::Double } else { Kind::Int64 };
    let diff = a.f_to_kind(wide)?.f_sub(&b.f_to_kind(wide)?)?;
    Ok(diff.f_to_kind(out_kind)?)
}

/// A very large index offset (no feature).
const FAR: i64 = 1 << 40;

/// The argmin `k` of `h[k] + w (u - k)**2` along the lines (rows) of `h`
/// (float64, `inf`: no site) for every `u`: the lower envelope of the
/// parabolas (Felzenszwalb and Huttenlocher), built for all lines at once.
fn envelope(h: &Tensor, w: f64) -> Result<Tensor> {
    let (lines, m) = (h.size()[0], h.size()[1]);
    let dev = h.device();
    let positions = Tensor::f_arange(m, (Kind::Double, dev))?;
    let f = h.f_add(&positions.f_square()?.f_mul_scalar(w)?)?;
    let valid = h.f_isfinite()?;
    let mut v = Tensor::f_zeros([lines, m], (Kind::Int64, dev))?;
    let mut z = Tensor::f_full([lines, m + 1], f64::INFINITY, (Kind::Double, dev))?;
    let mut k = Tensor::f_full([lines], -1i64, (Kind::Int64, dev))?;
    let neg_inf = Tensor::f_full([lines], f64::NEG_INFINITY, (Kind::Double, dev))?;
    let pos_inf = Tensor::f_full([lines, 1], f64::INFINITY, (Kind::Double, dev))?;
    for q in 0..m {
        let fq = f.f_select(1, q)?;
        let ok = valid.f_select(1, q)?;
        let mut s;
        loop {
            let kc = k.f_clamp_min(0)?.f_unsqueeze(1)?;
            let vk = v.f_gather(1, &kc, false)?;
            let fv = f.f_gather(1, &vk, false)?.f_squeeze_dim(1)?;
            let gap = vk.f_squeeze_dim(1)?.f_neg()?.f_add_scalar(q)?.f_to_kind(Kind::Double)?;
            s = fq.f_sub(&fv)?.f_div(&gap.f_mul_scalar(2.0 * w)?)?;
            let zk = z.f_gather(1, &kc, false)?.f_squeeze_dim(1)?;
            let pop = ok.f_logical_and(&k.f_ge(0)?)?.f_logical_and(&s.f_le_tensor(&zk)?)?;
            if !bool::try_from(pop.f_any()?)? {
                break;
            }
            k = k.f_sub(&pop.f_to_kind(Kind::Int64)?)?;
        }
        let started = k.f_ge(0)?;
        let newk = k.f_add(&ok.f_to_kind(Kind::Int64)?)?;
        let nk = newk.f_clamp_min(0)?.f_unsqueeze(1)?;
        let okc = ok.f_unsqueeze(1)?;
        let qv = Tensor::f_full([lines, 1], q, (Kind::Int64, dev))?;
        let vnew = qv.f_where_self(&okc, &v.f_gather(1, &nk, false)?)?;
        v = v.f_scatter(1, &nk, &vnew)?;
        let boundary = s.f_where_self(&started, &neg_inf)?.f_unsqueeze(1)?;
        let znew = boundary.f_where_self(&okc, &z.f_gather(1, &nk, false)?)?;
        z = z.f_scatter(1, &nk, &znew)?;
        let nk1 = nk.f_add_scalar(1)?;
        let zinf = pos_inf.f_where_self(&okc, &z.f_gather(1, &nk1, false)?)?;
        z = z.f_scatter(1, &nk1, &zinf)?;
        k = newk;
    }
    // the boundaries above each stack's top are stale: +inf
    let cols = Tensor::f_arange(m + 1, (Kind::Int64, dev))?.f_unsqueeze(0)?;
    let live = cols.f_le_tensor(&k.f_unsqueeze(1)?)?;
    let z = z.f_where_self(&live, &pos_inf)?;
    let bounds = z.f_narrow(1, 1, m)?.f_contiguous()?;
    let us = positions.f_unsqueeze(0)?.f_expand([lines, m], false)?.f_contiguous()?;
    // `while z[j + 1] < u: j += 1`: the number of boundaries below u
    let j = us.f_searchsorted(&bounds, false, false, "left", None::<Tensor>)?.f_clamp_max(m - 1)?;
    Ok(v.f_gather(1, &j, false)?)
}

/// The argmin of [`envelope`] by offsets `t = 1, 2, ...` on both sides of
/// every position at once, stopping once `w t**2` exceeds every distance
/// found (the smallest `k` on ties, as the envelope); `None` past `limit`
/// offsets (far sites: the envelope is then cheaper).
fn scan(h: &Tensor, w: f64, limit: i64) -> Result<Option<Tensor>> {
    let (lines, m) = (h.size()[0], h.size()[1]);
    let dev = h.device();
    let best = h.f_detach_copy()?;
    let positions = Tensor::f_arange(m, (Kind::Int64, dev))?;
    let k = positions.f_unsqueeze(0)?.f_expand([lines, m], false)?.f_contiguous()?;
    let has_site = h.f_isfinite()?.f_any_dim(1, true)?;
    for t in 1..m {
        let wt = w * (t * t) as f64;
        let reach = best.f_where_scalarother(&has_site, 0.0)?.f_max()?;
        if f64::try_from(reach)? < wt {
            break;
        }
        if t > limit {
            return Ok(None);
        }
        let n = m - t;
        // from the left (smaller k: wins ties)
        let c = h.f_narrow(1, 0, n)?.f_add_scalar(wt)?;
        let mut b = best.f_narrow(1, t, n)?;
        let take = c.f_le_tensor(&b)?;
        let nb = c.f_where_self(&take, &b)?;
        b.f_copy_(&nb)?;
        let mut kk = k.f_narrow(1, t, n)?;
        let nk = positions.f_narrow(0, 0, n)?.f_expand([lines, n], false)?.f_where_self(&take, &kk)?;
        kk.f_copy_(&nk)?;
        // from the right (larger k: loses ties)
        let c = h.f_narrow(1, t, n)?.f_add_scalar(wt)?;
        let mut b = best.f_narrow(1, 0, n)?;
        let take = c.f_lt_tensor(&b)?;
        let nb = c.f_where_self(&take, &b)?;
        b.f_copy_(&nb)?;
        let mut kk = k.f_narrow(1, 0, n)?;
        let nk = positions.f_narrow(0, t, n)?.f_expand([lines, n], false)?.f_where_self(&take, &kk)?;
        kk.f_copy_(&nk)?;
    }
    Ok(Some(k))
}

/// `x` with `axis` moved last and flattened to `(lines, n)`.
fn lines_of(x: &Tensor, axis: usize) -> Result<Tensor> {
    let last = x.dim() as i64 - 1;
    let moved = x.f_movedim(&[axis as i64][..], &[last][..])?.f_contiguous()?;
    let n = x.size()[axis];
    Ok(moved.f_reshape([-1, n])?)
}

/// The inverse of [`lines_of`] for an array of `shape`.
fn from_lines(t: &Tensor, shape: &[i64], axis: usize) -> Result<Tensor> {
    let mut moved_shape: Vec<i64> = shape.to_vec();
    let n = moved_shape.remove(axis);
    moved_shape.push(n);
    let last = shape.len() as i64 - 1;
    Ok(t.f_reshape(moved_shape.as_slice())?.f_movedim(&[last][..], &[axis as i64][..])?)
}

/// The index of every element along `axis`, broadcast to `shape` (int64).
fn coordinate(shape: &[i64], axis: usize, device: Device) -> Result<Tensor> {
    let mut view = vec![1i64; shape.len()];
    view[axis] = shape[axis];
    Ok(Tensor::f_arange(shape[axis], (Kind::Int64, device))?.f_reshape(view.as_slice())?.f_expand(shape, false)?)
}

/// The results of a distance transform.
pub struct Transform {
    /// The distances, when asked for.
    pub distances: Option<Tensor>,
    /// The feature indices, `(ndim,) + shape`, when asked for.
    pub indices: Option<Tensor>,
}

/// SciPy's `_distance_tranform_arg_check` (without output arrays).
pub fn check_returns(return_distances: bool, return_indices: bool) -> Result<()> {
    if !return_distances && !return_indices {
        return Err(Error::InvalidArgument("at least one of return_distances/return_indices must be True".into()));
    }
    Ok(())
}

/// `scipy.ndimage.distance_transform_edt`: the exact Euclidean distance of
/// every foreground (nonzero) element to the nearest background (zero)
/// element, with `sampling` the spacing along each axis, and the index of
/// that background element.
pub fn distance_transform_edt(
    input: &Tensor,
    sampling: Option<&PerAxis<f64>>,
    return_distances: bool,
    return_indices: bool,
) -> Result<Transform> {
    check_returns(return_distances, return_indices)?;
    let x = if input.dim() == 0 { input.f_reshape([1])? } else { input.shallow_clone() };
    let ndim = x.dim();
    let shape = x.size();
    let dev = x.device();
    let sampling = match sampling {
        Some(s) => s.normalize(ndim)?,
        None => vec![1.0; ndim],
    };
    let background = x.f_eq(0)?;
    if dev == Device::Cpu && x.numel() > 0 {
        let flags = Vec::<bool>::try_from(&background.f_contiguous()?.f_reshape([-1])?)?;
        if flags.iter().any(|&b| b) {
            return edt_on_host(&flags, &shape, &sampling, return_distances, return_indices);
        }
    }
    let features: Vec<Tensor> = if x.numel() == 0 {
        (0..ndim)
            .map(|_| Tensor::f_zeros(shape.as_slice(), (Kind::Int64, dev)))
            .collect::<std::result::Result<_, _>>()?
    } else if !bool::try_from(background.f_any()?)? {
        // SciPy's feature transform without any background: -1 along the first axis, 0 along the others
        (0..ndim)
            .map(|d| Tensor::f_full(shape.as_slice(), if d == 0 { -1i64 } else { 0 }, (Kind::Int64, dev)))
            .collect::<std::result::Result<_, _>>()?
    } else {
        feature_transform(&background, &sampling)?
    };
    let distances = if return_distances {
        let mut acc: Option<Tensor> = None;
        for (d, f) in features.iter().enumerate() {
            let delta = f.f_sub(&coordinate(&shape, d, dev)?)?.f_to_kind(Kind::Double)?;
            let delta = if sampling[d] != 1.0 { delta.f_mul_scalar(sampling[d])? } else { delta };
            let sq = delta.f_mul(&delta)?;
            acc = Some(match acc {
                None => sq,
                Some(a) => a.f_add(&sq)?,
            });
        }
        let acc = acc.ok_or_else(|| Error::InvalidArgument("a 0-d transform".into()))?;
        Some(acc.f_sqrt()?)
    } else {
        None
    };
    let indices = if return_indices { Some(Tensor::f_stack(&features, 0)?.f_to_kind(Kind::Int)?) } else { None };
    Ok(Transform { distances, indices })
}

/// [`distance_transform_edt`] of a CPU array with some background
/// (`background`, C order, of `shape`): the host kernel of [`super::edt`],
/// on the calling thread's libtorch team (one thread below
/// [`crate::threads::SERIAL_BELOW`] elements).
fn edt_on_host(
    background: &[bool],
    shape: &[i64],
    sampling: &[f64],
    return_distances: bool,
    return_indices: bool,
) -> Result<Transform> {
    let dims: Vec<usize> = shape.iter().map(|&n| n as usize).collect();
    let threads = if background.len() < crate::threads::SERIAL_BELOW {
        1
    } else {
        usize::try_from(crate::threads::current_team()).unwrap_or(1).max(1)
    };
    let (mut squared, planes) = super::edt::feature_transform(background, &dims, sampling, return_indices, threads);
    let distances = if return_distances {
        squared.iter_mut().for_each(|v| *v = v.sqrt());
        Some(Tensor::f_from_slice(&squared)?.f_reshape(shape)?)
    } else {
        None
    };
    let indices = if return_indices {
        let mut flat = Vec::with_capacity(planes.len() * background.len());
        for p in &planes {
            flat.extend_from_slice(p);
        }
        let mut full = vec![planes.len() as i64];
        full.extend_from_slice(shape);
        Some(Tensor::f_from_slice(&flat)?.f_reshape(full.as_slice())?)
    } else {
        None
    };
    Ok(Transform { distances, indices })
}

/// The coordinates of the nearest background element of every element (at
/// least one background element exists).
fn feature_transform(background: &Tensor, sampling: &[f64]) -> Result<Vec<Tensor>> {
    let shape = background.size();
    let dev = background.device();
    let ndim = shape.len();
    // first axis: the nearest background before and after every element
    let idx = coordinate(&shape, 0, dev)?;
    let before = idx.f_where_scalarother(background, -FAR)?.f_cummax(0)?.0;
    let after = idx.f_where_scalarother(background, FAR)?.f_flip([0])?.f_cummin(0)?.0.f_flip([0])?;
    let nearer_before = idx.f_sub(&before)?.f_le_tensor(&after.f_sub(&idx)?)?;
    let f0 = before.f_where_self(&nearer_before, &after)?;
    let found = f0.f_abs()?.f_lt(FAR / 2)?;
    let d0 = f0.f_sub(&idx)?.f_to_kind(Kind::Double)?.f_mul_scalar(sampling[0])?;
    let mut h = d0.f_square()?.f_where_scalarother(&found, f64::INFINITY)?;
    let mut features = vec![f0];
    for d in 1..ndim {
        let w = sampling[d] * sampling[d];
        let lines = lines_of(&h, d)?;
        let k = match scan(&lines, w, (shape[d] / 5).max(8))? {
            Some(k) => k,
            None => envelope(&lines, w)?,
        };
        let u = Tensor::f_arange(shape[d], (Kind::Double, dev))?.f_unsqueeze(0)?;
        let delta = k.f_to_kind(Kind::Double)?.f_sub(&u)?;
        let h_lines = lines.f_gather(1, &k, false)?.f_add(&delta.f_square()?.f_mul_scalar(w)?)?;
        h = from_lines(&h_lines, &shape, d)?;
        let mut next = Vec::with_capacity(d + 1);
        for f in &features {
            next.push(from_lines(&lines_of(f, d)?.f_gather(1, &k, false)?, &shape, d)?);
        }
        next.push(from_lines(&k, &shape, d)?);
        features = next;
    }
    Ok(features)
}

/// `scipy.ndimage.distance_transform_cdt`: the number of `metric` steps
/// (a `3**ndim` structure) from every foreground element to the background
/// (int32; -1 everywhere without background).
pub fn distance_transform_cdt(input: &Tensor, metric: &Footprint) -> Result<Tensor> {
    let x = truth(input)?;
    let ndim = x.dim();
    if metric.shape.len() != ndim && !(ndim == 0 && metric.shape.is_empty()) {
        return Err(Error::InvalidArgument("structure and input must have same dimensionality".into()));
    }
    if metric.shape.iter().any(|&k| k != 3) {
        return Err(Error::InvalidArgument("metric sizes must be equal to 3".into()));
    }
    if x.numel() == 0 {
        return Ok(x.f_to_kind(Kind::Int)?);
    }
    let mut covered = x.f_logical_not()?;
    if !bool::try_from(covered.f_any()?)? {
        return Ok(Tensor::f_full(x.size().as_slice(), -1i64, (Kind::Int, x.device()))?);
    }
    let s = reflected(metric);
    let origins = vec![0i64; ndim];
    let (before, after) = footprint_extent(&s.shape, &origins)?;
    let pass = Pass { s: &s, before: &before, after: &after, border: false, invert: true, mask: None };
    let mut dist = Tensor::f_zeros(x.size().as_slice(), (Kind::Int, x.device()))?;
    loop {
        if bool::try_from(covered.f_all()?)? {
            return Ok(dist);
        }
        let next = pass.run(&covered)?.f_logical_or(&covered)?;
        if next.f_equal(&covered)? {
            // the metric reaches no further: SciPy's -1 for the rest
            return Ok(dist.f_where_scalarother(&covered, -1)?);
        }
        dist = dist.f_add(&covered.f_logical_not()?.f_to_kind(Kind::Int)?)?;
        covered = next;
    }
}

/// How many foreground-border pairs [`distance_transform_bf`] compares at
/// once: 2 MiB a temporary, small enough to stay in cache.
const PAIR_CHUNK: i64 = 1 << 18;

/// The metric of [`distance_transform_bf`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// The Euclidean distance (with `sampling`), float64.
    Euclidean,
    /// The sum of the absolute coordinate differences (`taxicab`,
    /// `cityblock`, `manhattan`), uint32.
    Taxicab,
    /// The largest absolute coordinate difference, uint32.
    Chessboard,
}

impl Metric {
    /// The metric SciPy names `name` (any case).
    pub fn from_name(name: &str) -> Result<Metric> {
        Ok(match name.to_lowercase().as_str() {
            "euclidean" => Metric::Euclidean,
            "taxicab" | "cityblock" | "manhattan" => Metric::Taxicab,
            "chessboard" => Metric::Chessboard,
            _ => return Err(Error::InvalidArgument(format!("distance metric not supported: {name:?}"))),
        })
    }
}

/// The C-order coordinates (int64, one row per axis) of the flat indices `flat` in `shape`.
fn unravel_all(flat: &Tensor, shape: &[i64]) -> Result<Vec<Tensor>> {
    let mut rest = flat.shallow_clone();
    let mut coords = Vec::with_capacity(shape.len());
    for &n in shape.iter().rev() {
        coords.push(rest.f_remainder(n)?);
        rest = rest.f_floor_divide_scalar(n)?;
    }
    coords.reverse();
    Ok(coords)
}

/// `scipy.ndimage.distance_transform_bf`: the distance from every nonzero
/// element of `input` to the nearest zero element by brute force, as SciPy's
/// `NI_DistanceTransformBruteForce` computes it.
///
/// The candidates are SciPy's: the zero elements next to a nonzero one (the
/// full `3**ndim` neighbourhood). Every foreground element is compared with
/// all of them, a chunk of foreground elements at a time (about 2^18 pairs),
/// the squared Euclidean distance summed axis by axis in float64 as SciPy's
/// loop sums it (`sampling` applies to it only, as in SciPy). Where several
/// candidates are equally near, SciPy keeps the last in C order (its list is
/// built backwards and only a strictly smaller distance replaces the
/// current), and so does this. Zero elements are at distance 0 of
/// themselves. Without any zero element the distances are
/// `sqrt(f64::MAX)` (Euclidean) or `u32::MAX`, the index 0, as in SciPy.
/// Distances are float64 (Euclidean) or uint32; the indices are
/// `(ndim,) + shape` int32.
pub fn distance_transform_bf(
    input: &Tensor,
    metric: Metric,
    sampling: Option<&PerAxis<f64>>,
    return_distances: bool,
    return_indices: bool,
) -> Result<Transform> {
    check_returns(return_distances, return_indices)?;
    let dev = input.device();
    let shape = input.size();
    let ndim = shape.len();
    let sampling = sampling.map(|s| s.normalize(ndim)).transpose()?;
    let fg = input.f_ne(0)?;
    // the zeros next to a nonzero element: SciPy's binary_dilation by the full structure, xor
    let mut near = fg.f_to_kind(Kind::Uint8)?;
    for (axis, &n) in shape.iter().enumerate() {
        if n == 0 {
            break;
        }
        let padded = filters::extend(&near, axis, Mode::Constant, 0.0, 1, 1)?;
        let a = padded.f_narrow(axis as i64, 0, n)?;
        let b = padded.f_narrow(axis as i64, 1, n)?;
        let c = padded.f_narrow(axis as i64, 2, n)?;
        near = a.f_maximum(&b)?.f_maximum(&c)?;
    }
    let border = near.f_ne(0)?.f_logical_and(&fg.f_logical_not()?)?;
    let numel = input.numel() as i64;
    let fg_flat = fg.f_reshape([-1])?;
    // SciPy's candidates run from the last in C order to the first
    let candidates = border.f_reshape([-1])?.f_nonzero()?.f_reshape([-1])?.f_flip([0])?;
    let foreground = fg_flat.f_nonzero()?.f_reshape([-1])?;
    let euclidean = metric == Metric::Euclidean;
    let work = if euclidean { Kind::Double } else { Kind::Int64 };
    let mut distances = Tensor::f_zeros([numel], (work, dev))?;
    let mut features = Tensor::f_arange(numel, (Kind::Int64, dev))?;
    let (nf, nb) = (foreground.size()[0], candidates.size()[0]);
    if nf > 0 && nb == 0 {
        let none = if euclidean { f64::MAX.sqrt() } else { f64::from(u32::MAX) };
        distances = distances.f_index_fill(0, &foreground, none)?;
        features = features.f_index_fill(0, &foreground, 0)?;
    } else if nf > 0 {
        // the coordinates in the working kind (exact: integers), so the
        // differences are computed there as SciPy's loop computes them
        let coordinates = |flat: &Tensor| -> Result<Vec<Tensor>> {
            unravel_all(flat, &shape)?.iter().map(|c| Ok(c.f_to_kind(work)?)).collect()
        };
        let to = coordinates(&candidates)?;
        let rows = (PAIR_CHUNK / nb).max(1);
        let mut start = 0;
        while start < nf {
            let len = rows.min(nf - start);
            let points = foreground.f_narrow(0, start, len)?;
            let from = coordinates(&points)?;
            let mut acc: Option<Tensor> = None;
            for d in 0..ndim {
                let t = from[d].f_unsqueeze(1)?.f_sub(&to[d].f_unsqueeze(0)?)?;
                let term = match (metric, &sampling) {
                    (Metric::Euclidean, Some(s)) => {
                        let t = t.f_mul_scalar(s[d])?;
                        t.f_mul(&t)?
                    }
                    (Metric::Euclidean, None) => t.f_mul(&t)?,
                    _ => t.f_abs()?,
                };
                acc = Some(match acc {
                    None => term,
                    Some(a) if metric == Metric::Chessboard => a.f_maximum(&term)?,
                    Some(a) => a.f_add(&term)?,
                });
            }
            let acc = acc.ok_or_else(|| Error::InvalidArgument("a 0-d transform".into()))?;
            let nearest = acc.f_argmin(1, false)?;
            let best = acc.f_gather(1, &nearest.f_unsqueeze(1)?, false)?.f_reshape([-1])?;
            let best = if euclidean { best.f_sqrt()? } else { best };
            let _ = distances.f_index_copy_(0, &points, &best)?;
            let _ = features.f_index_copy_(0, &points, &candidates.f_index_select(0, &nearest)?)?;
            start += len;
        }
    }
    let distances = if return_distances {
        let d = distances.f_reshape(shape.as_slice())?;
        Some(if euclidean { d } else { crate::ops::numpy::cast(&d, DType::UInt32)? })
    } else {
        None
    };
    let indices = if return_indices {
        let coords = unravel_all(&features, &shape)?;
        let stacked = if coords.is_empty() {
            Tensor::f_zeros([0], (Kind::Int64, dev))?
        } else {
            Tensor::f_stack(&coords, 0)?.f_reshape([&[ndim as i64][..], &shape[..]].concat().as_slice())?
        };
        Some(stacked.f_to_kind(Kind::Int)?)
    } else {
        None
    };
    Ok(Transform { distances, indices })
}
