//! SciPy's `ndimage/_interpolation.py`: spline_filter1d, spline_filter,
//! map_coordinates, affine_transform, shift, zoom, rotate.
//!
//! **Prefilter.** SciPy's `_ni_splines.c` turns samples into B-spline
//! coefficients by a gain and, per pole `z`, a causal and an anti-causal
//! first-order recursion whose first values come from the boundary mode
//! (`_init_causal_mirror`, `_reflect`, `_wrap` and their anti-causal twins).
//! Here every line along the axis is one row of a matrix; the boundary
//! values are dot products of the rows with the initialisation's weights, and
//! a recursion `c[i] = u[i] + z c[i-1]` is computed in blocks of `L` samples:
//! one matrix product with the `L x L` lower-triangular matrix of powers of
//! `z` solves every block from zero state, then each block adds the
//! previous blocks' last values times `z^(i+1)` (two blocks back; `|z|^(2L)`
//! is below `1e-22`, so what is left out is below a double's rounding).
//! All lines and blocks go at once, on the input's device.
//!
//! **Interpolation.** For every output point and axis: SciPy's
//! `map_coordinate` of the coordinate (the mode's reflection for any
//! distance), the first tap `floor(c) - order/2` (`floor(c + 0.5)` for even
//! orders), the `order + 1` B-spline weights by `_ni_splines.c`'s formulas
//! and the taps' indices by the spline boundary mode (mirror for `constant`
//! and `wrap`, as SciPy's `_get_spline_boundary_mode`). The `(order+1)^ndim`
//! neighbours are gathered at once by flat index and contracted with the
//! weights one axis at a time. `nearest` and `grid-constant` with a
//! prefilter pad the input by 12 first, as SciPy does. On the CPU, where no
//! gradient is recorded, that step is one pass of `csrc/ni_interpolation.cpp`
//! instead (SciPy's `NI_GeometricTransform` point loop: per point the weights
//! and the taps' indices from the same tables, the same operations in the
//! same order, so the same bits); the composite serves CUDA and autograd.
//!
//! Values agree with SciPy to a few ulps (the sums run in another order);
//! integer outputs are rounded half away from zero and clipped to the
//! dtype's range, as SciPy's `CASE_INTERP_OUT_INT`/`_UINT`.

use tch::{Device, Kind, Tensor};

use super::filters::{cast, output_dtype, PerAxis};
use crate::ops::autograd::records_grad;
use crate::ops::numpy::normalize_axis;
use crate::{dlpack, DType, Error, Result};

/// A boundary mode of SciPy's interpolation (`_extend_mode_to_code`): here
/// `grid-wrap` and `grid-constant` differ from `wrap` and `constant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The edge value repeated (`a a | a b c d | d d`).
    Nearest,
    /// SciPy's `wrap`: period `n - 1` (the first and last samples coincide).
    Wrap,
    /// `reflect` (and `grid-mirror`): `b a | a b c d | d c`.
    Reflect,
    /// `mirror`: `c b | a b c d | c b`.
    Mirror,
    /// `constant`: `cval` outside `[0, n - 1]`, no interpolation there.
    Constant,
    /// `grid-wrap`: period `n`.
    GridWrap,
    /// `grid-constant`: `cval` for every tap outside the input, interpolated.
    GridConstant,
}

impl Mode {
    /// The mode SciPy names `name`.
    pub fn from_name(name: &str) -> Result<Mode> {
        Ok(match name {
            "nearest" => Mode::Nearest,
            "wrap" => Mode::Wrap,
            "reflect" | "grid-mirror" => Mode::Reflect,
            "mirror" => Mode::Mirror,
            "constant" => Mode::Constant,
            "grid-wrap" => Mode::GridWrap,
            "grid-constant" => Mode::GridConstant,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "boundary mode not supported: {name:?} (accepted: 'reflect', 'grid-mirror', 'constant', \
                     'grid-constant', 'nearest', 'mirror', 'wrap', 'grid-wrap')"
                )))
            }
        })
    }

    /// The code of the mode in `csrc/ni_interpolation.cpp` (its `Mode` enum).
    fn code(self) -> i32 {
        match self {
            Mode::Nearest => 0,
            Mode::Wrap => 1,
            Mode::Reflect => 2,
            Mode::Mirror => 3,
            Mode::Constant => 4,
            Mode::GridWrap => 5,
            Mode::GridConstant => 6,
        }
    }

    /// The mapping of the taps near the edges (SciPy's `_get_spline_boundary_mode`).
    fn spline(self) -> Mode {
        match self {
            Mode::Constant | Mode::Wrap => Mode::Mirror,
            m => m,
        }
    }
}

/// The causal/anti-causal initialisation `apply_filter` picks for a mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Init {
    Mirror,
    Reflect,
    Wrap,
}

fn init_of(mode: Mode) -> Init {
    match mode {
        Mode::GridConstant | Mode::Constant | Mode::Mirror | Mode::Wrap => Init::Mirror,
        Mode::GridWrap => Init::Wrap,
        Mode::Nearest | Mode::Reflect => Init::Reflect,
    }
}

/// SciPy's `get_filter_poles`.
fn poles(order: i64) -> &'static [f64] {
    match order {
        2 => &[-0.171_572_875_253_809_9],
        3 => &[-0.267_949_192_431_122_7],
        4 => &[-0.361_341_225_900_220_17, -0.013_725_429_297_339_121],
        5 => &[-0.430_575_347_099_973_8, -0.043_096_288_203_264_65],
        _ => &[],
    }
}

fn check_order(order: i64) -> Result<()> {
    if !(0..=5).contains(&order) {
        return Err(Error::InvalidArgument(format!("spline order not supported: {order} (accepted: 0 to 5)")));
    }
    Ok(())
}

/// The input's dtype, refused where SciPy's C loops have no case for it.
fn check_input(x: &Tensor) -> Result<DType> {
    let dtype = dlpack::dtype_of(x)?;
    if matches!(dtype, DType::Float16 | DType::BFloat16) {
        return Err(Error::DtypeNotAccepted {
            routine: "ndimage interpolation",
            dtype,
            accepted: "bool, integer, float32, float64 and complex input (SciPy's C loops)",
        });
    }
    Ok(dtype)
}

fn to_double(x: &Tensor) -> Result<Tensor> {
    Ok(if dlpack::dtype_of(x)? == DType::Float64 { x.shallow_clone() } else { x.f_to_kind(Kind::Double)? })
}

fn host(values: &[f64], device: Device) -> Result<Tensor> {
    Ok(Tensor::f_from_slice(values)?.f_to_device(device)?)
}

/// `z^0 .. z^(n-1)` by repeated products, as SciPy's loops form them.
fn powers(z: f64, n: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    let mut p = 1.0;
    for _ in 0..n {
        out.push(p);
        p *= z;
    }
    out
}

/// `c[i] = sum_{k <= i} z^(i-k) u[k]` along the rows of `u` (`(rows, n)`,
/// float64); `reverse`: `c[i] = sum_{k >= i} z^(k-i) u[k]`.
fn recursion(u: &Tensor, z: f64, reverse: bool) -> Result<Tensor> {
    let size = u.size();
    let (rows, n) = (size[0], size[1]);
    // the smallest block with |z|^(2L) < 1e-22
    let l = ((-22.0 * std::f64::consts::LN_10) / (2.0 * z.abs().ln())).ceil().max(1.0) as i64;
    let l = l.min(n);
    let lu = l as usize;
    let nb = (n + l - 1) / l;
    let zp = powers(z, lu + 1);
    // forward: m[k][i] = z^(i-k) for k <= i; reverse: z^(k-i) for k >= i
    let mut m = vec![0.0; lu * lu];
    for k in 0..lu {
        for i in 0..lu {
            if (!reverse && k <= i) || (reverse && k >= i) {
                m[k * lu + i] = zp[k.abs_diff(i)];
            }
        }
    }
    let device = u.device();
    let mat = host(&m, device)?.f_view([l, l])?;
    // zeros past the end change neither direction's values before it
    let padded = if nb * l > n { u.f_constant_pad_nd([0, nb * l - n])? } else { u.shallow_clone() };
    let y = padded.f_reshape([rows * nb, l])?.f_matmul(&mat)?.f_reshape([rows, nb, l])?;
    if nb == 1 {
        return Ok(y.f_reshape([rows, l])?.f_narrow(1, 0, n)?);
    }
    // each block's value at its edge, carried into the next block (two blocks deep)
    let edge = y.f_select(2, if reverse { 0 } else { l - 1 })?;
    // the edge values of the block `by` blocks before (after, in reverse)
    let shifted = |by: i64| -> Result<Tensor> {
        if nb <= by {
            return Ok(Tensor::f_zeros([rows, nb], (Kind::Double, device))?);
        }
        Ok(if reverse {
            edge.f_narrow(1, by, nb - by)?.f_constant_pad_nd([0, by])?
        } else {
            edge.f_narrow(1, 0, nb - by)?.f_constant_pad_nd([by, 0])?
        })
    };
    let (shift1, prev2) = (shifted(1)?, shifted(2)?);
    let carry = shift1.f_add(&prev2.f_mul_scalar(zp[lu])?)?;
    // forward: z^(i+1); reverse: z^(L-i)
    let ramp: Vec<f64> = (0..lu).map(|i| if reverse { zp[lu - i] } else { zp[i + 1] }).collect();
    let c = y.f_add(&carry.f_unsqueeze(2)?.f_mul(&host(&ramp, device)?)?)?;
    Ok(c.f_reshape([rows, nb * l])?.f_narrow(1, 0, n)?)
}

/// `_apply_filter` for one pole on the rows of `c` (`(rows, n)`, `n >= 2`).
fn apply_pole(c: &Tensor, z: f64, init: Init) -> Result<Tensor> {
    let n = c.size()[1];
    let nu = n as usize;
    let device = c.device();
    // the causal initial value as a dot product with the rows
    let zi = powers(z, 2 * nu + 1);
    let mut a = vec![0.0; nu];
    let c0 = match init {
        Init::Mirror => {
            let zn1 = zi[nu - 1];
            let den = 1.0 - zn1 * zn1;
            a[0] = 1.0;
            a[nu - 1] += zn1;
            for j in 1..nu.saturating_sub(1) {
                a[j] += zi[j];
                a[nu - 1 - j] += zi[j] * zn1;
            }
            c.f_matmul(&host(&a, device)?)?.f_div_scalar(den)?
        }
        Init::Reflect => {
            let zn = zi[nu];
            a[0] = 1.0;
            a[nu - 1] += zn;
            for j in 1..nu {
                a[j] += zi[j];
                a[nu - 1 - j] += zi[j] * zn;
            }
            let sum = c.f_matmul(&host(&a, device)?)?;
            c.f_select(1, 0)?.f_add(&sum.f_mul_scalar(z / (1.0 - zn * zn))?)?
        }
        Init::Wrap => {
            a[0] = 1.0;
            for i in 1..nu {
                a[nu - i] += zi[i];
            }
            c.f_matmul(&host(&a, device)?)?.f_div_scalar(1.0 - zi[nu])?
        }
    };
    let u = Tensor::f_cat(&[c0.f_unsqueeze(1)?, c.f_narrow(1, 1, n - 1)?], 1)?;
    let causal = recursion(&u, z, false)?;
    // the anti-causal initial value from the causal result
    let last = causal.f_select(1, n - 1)?;
    let cl = match init {
        Init::Mirror => {
            let before = causal.f_select(1, n - 2)?;
            before.f_mul_scalar(z)?.f_add(&last)?.f_mul_scalar(z / (z * z - 1.0))?
        }
        Init::Reflect => last.f_mul_scalar(z / (z - 1.0))?,
        Init::Wrap => {
            let mut b = vec![0.0; nu];
            for (i, bi) in b.iter_mut().enumerate().take(nu - 1) {
                *bi = zi[i + 1];
            }
            let sum = causal.f_matmul(&host(&b, device)?)?.f_add(&last)?;
            sum.f_mul_scalar(z / (zi[nu] - 1.0))?
        }
    };
    // c[i] = z c[i+1] - z causal[i], run backwards
    let v = Tensor::f_cat(&[causal.f_narrow(1, 0, n - 1)?.f_mul_scalar(-z)?, cl.f_unsqueeze(1)?], 1)?;
    recursion(&v, z, true)
}

/// SciPy's spline prefilter of float64 `x` along `axis` (any order 2..5; a
/// copy for lines of one sample and for orders 0 and 1).
fn spline_filter_axis(x: &Tensor, order: i64, axis: usize, mode: Mode) -> Result<Tensor> {
    let n = x.size()[axis];
    let poles = poles(order);
    if n < 2 || poles.is_empty() || x.numel() == 0 {
        return Ok(x.shallow_clone());
    }
    let moved = x.f_movedim([axis as i64], [-1])?.f_contiguous()?;
    let moved_shape = moved.size();
    let mut c = moved.f_reshape([-1, n])?;
    let mut gain = 1.0;
    for &z in poles {
        gain *= (1.0 - z) * (1.0 - 1.0 / z);
    }
    c = c.f_mul_scalar(gain)?;
    let init = init_of(mode);
    for &z in poles {
        c = apply_pole(&c, z, init)?;
    }
    Ok(c.f_reshape(moved_shape.as_slice())?.f_movedim([-1], [axis as i64])?)
}

/// Applies `op` to the real and imaginary parts of a complex `x` (with the
/// output dtype's real counterpart), or to `x`.
fn by_parts(
    x: &Tensor,
    output: Option<DType>,
    op: impl Fn(&Tensor, Option<DType>) -> Result<Tensor>,
) -> Result<Tensor> {
    let dtype = check_input(x)?;
    if !dtype.is_complex() {
        if output.is_some_and(DType::is_complex) {
            return Err(Error::NotImplemented("complex output for real input is not implemented".into()));
        }
        return op(x, output);
    }
    // SciPy promotes a real output dtype to complex (with a warning)
    let out = match output.unwrap_or(dtype) {
        DType::Complex64 | DType::Float32 => DType::Complex64,
        DType::Complex128 | DType::Float64 => DType::Complex128,
        other => {
            return Err(Error::NotImplemented(format!(
                "output dtype {} for complex input is not implemented (accepted: complex64, complex128)",
                other.name()
            )))
        }
    };
    let real_out = if out == DType::Complex64 { DType::Float32 } else { DType::Float64 };
    let re = op(&x.f_real()?, Some(real_out))?;
    let im = op(&x.f_imag()?, Some(real_out))?;
    Ok(Tensor::f_complex(&re, &im)?)
}

/// The output of float64 `t` in `dtype`: SciPy's rounding for integers.
fn store(t: &Tensor, dtype: DType, like: Option<&Tensor>) -> Result<Tensor> {
    let bounds = match dtype {
        DType::UInt8 => Some((0.0, u8::MAX as f64)),
        DType::UInt16 => Some((0.0, u16::MAX as f64)),
        DType::UInt32 => Some((0.0, u32::MAX as f64)),
        DType::UInt64 => Some((0.0, u64::MAX as f64)),
        DType::Int8 => Some((i8::MIN as f64, i8::MAX as f64)),
        DType::Int16 => Some((i16::MIN as f64, i16::MAX as f64)),
        DType::Int32 => Some((i32::MIN as f64, i32::MAX as f64)),
        DType::Int64 => Some((i64::MIN as f64, i64::MAX as f64)),
        _ => None,
    };
    let Some((lo, hi)) = bounds else { return cast(t, dtype, like) };
    let positive = t.f_gt(0.0)?;
    let below = if lo == 0.0 { t.f_zeros_like()? } else { t.f_sub_scalar(0.5)? };
    let rounded = t.f_add_scalar(0.5)?.f_where_self(&positive, &below)?.f_clamp(lo, hi)?;
    cast(&rounded, dtype, like)
}

/// `scipy.ndimage.spline_filter1d`: B-spline coefficients along `axis` (a copy for orders 0 and 1).
pub fn spline_filter1d(input: &Tensor, order: i64, axis: i64, output: Option<DType>, mode: Mode) -> Result<Tensor> {
    check_order(order)?;
    by_parts(input, output, |x, out| {
        let out = output_dtype(check_input(x)?, out)?;
        let axis = normalize_axis(axis, x.dim())?;
        let filtered = spline_filter_axis(&to_double(x)?, order, axis, mode)?;
        cast(&filtered, out, (dlpack::dtype_of(x)? == out).then_some(x))
    })
}

/// `scipy.ndimage.spline_filter`: [`spline_filter1d`] along every axis in turn (orders 2 to 5).
pub fn spline_filter(input: &Tensor, order: i64, output: Option<DType>, mode: Mode) -> Result<Tensor> {
    if !(2..=5).contains(&order) {
        return Err(Error::InvalidArgument(format!("spline order not supported: {order} (accepted: 2 to 5)")));
    }
    by_parts(input, output, |x, out| {
        let out = output_dtype(check_input(x)?, out)?;
        let mut y = to_double(x)?;
        for axis in 0..x.dim() {
            y = spline_filter_axis(&y, order, axis, mode)?;
            // SciPy writes each pass into the output array
            if out != DType::Float64 {
                y = to_double(&cast(&y, out, None)?)?;
            }
        }
        cast(&y, out, (dlpack::dtype_of(x)? == out).then_some(x))
    })
}

/// SciPy's `map_coordinate` on a float64 tensor of coordinates along an axis of `len`.
fn map_coordinate(c: &Tensor, len: i64, mode: Mode) -> Result<Tensor> {
    let lenf = len as f64;
    let (neg, pos) = match mode {
        Mode::Nearest => (c.f_zeros_like()?, c.f_zeros_like()?.f_add_scalar(lenf - 1.0)?),
        Mode::Constant => (c.f_full_like(-1.0)?, c.f_full_like(-1.0)?),
        _ if len <= 1 => (c.f_zeros_like()?, c.f_zeros_like()?),
        Mode::Mirror => {
            let sz2 = 2.0 * lenf - 2.0;
            let t = c.f_neg()?.f_div_scalar(sz2)?.f_trunc()?.f_mul_scalar(sz2)?.f_add(c)?;
            let neg = t.f_add_scalar(sz2)?.f_where_self(&t.f_le(1.0 - lenf)?, &t.f_neg()?)?;
            let p = c.f_sub(&c.f_div_scalar(sz2)?.f_trunc()?.f_mul_scalar(sz2)?)?;
            let pos = p.f_neg()?.f_add_scalar(sz2)?.f_where_self(&p.f_ge(lenf)?, &p)?;
            (neg, pos)
        }
        Mode::Reflect => {
            let sz2 = 2.0 * lenf;
            let wrapped = c.f_neg()?.f_div_scalar(sz2)?.f_trunc()?.f_mul_scalar(sz2)?.f_add(c)?;
            let t = wrapped.f_where_self(&c.f_lt(-sz2)?, c)?;
            let flipped = t.f_neg()?.f_clamp_min(1e-15)?.f_sub_scalar(1.0)?;
            // (t > -1e-15 ? 1e-15 : -t) - 1: -t >= 1e-15 exactly when t <= -1e-15
            let neg = t.f_add_scalar(sz2)?.f_where_self(&t.f_lt(-lenf)?, &flipped)?;
            let p = c.f_sub(&c.f_div_scalar(sz2)?.f_trunc()?.f_mul_scalar(sz2)?)?;
            let pos = p.f_neg()?.f_add_scalar(sz2 - 1.0)?.f_where_self(&p.f_ge(lenf)?, &p)?;
            (neg, pos)
        }
        Mode::Wrap => {
            let sz = lenf - 1.0;
            let neg = c.f_add(&c.f_neg()?.f_div_scalar(sz)?.f_trunc()?.f_add_scalar(1.0)?.f_mul_scalar(sz)?)?;
            let pos = c.f_sub(&c.f_div_scalar(sz)?.f_trunc()?.f_mul_scalar(sz)?)?;
            (neg, pos)
        }
        Mode::GridWrap => {
            let neg = c.f_add(
                &c.f_neg()?.f_sub_scalar(1.0)?.f_div_scalar(lenf)?.f_trunc()?.f_add_scalar(1.0)?.f_mul_scalar(lenf)?,
            )?;
            let pos = c.f_sub(&c.f_div_scalar(lenf)?.f_trunc()?.f_mul_scalar(lenf)?)?;
            (neg, pos)
        }
        Mode::GridConstant => return Ok(c.shallow_clone()),
    };
    let inside = c.f_where_self(&c.f_gt(lenf - 1.0)?.f_logical_not()?, &pos)?;
    Ok(neg.f_where_self(&c.f_lt(0.0)?, &inside)?)
}

/// SciPy's `get_spline_interpolation_weights` for the offsets `x` from the
/// middle knot: `order + 1` tensors.
fn weights(x: &Tensor, order: i64) -> Result<Vec<Tensor>> {
    let one_minus = |t: &Tensor| -> Result<Tensor> { Ok(t.f_neg()?.f_add_scalar(1.0)?) };
    let mut w: Vec<Tensor> = match order {
        1 => vec![one_minus(x)?],
        2 => {
            let w1 = x.f_mul(x)?.f_neg()?.f_add_scalar(0.75)?;
            let y = x.f_neg()?.f_add_scalar(0.5)?;
            vec![y.f_mul(&y)?.f_mul_scalar(0.5)?, w1]
        }
        3 => {
            let cubic = |y: &Tensor| -> Result<Tensor> {
                Ok(y.f_mul(y)?.f_mul(&y.f_sub_scalar(2.0)?)?.f_mul_scalar(3.0)?.f_add_scalar(4.0)?.f_div_scalar(6.0)?)
            };
            let z = one_minus(x)?;
            let w1 = cubic(x)?;
            let w2 = cubic(&z)?;
            let w0 = z.f_mul(&z)?.f_mul(&z)?.f_div_scalar(6.0)?;
            vec![w0, w1, w2]
        }
        4 => {
            let outer = |y: &Tensor| -> Result<Tensor> {
                // y * (y * (y * (5 - y) / 6 - 1.25) + 5/24) + 55/96
                let a = y.f_neg()?.f_add_scalar(5.0)?.f_mul(y)?.f_div_scalar(6.0)?.f_sub_scalar(1.25)?;
                Ok(a.f_mul(y)?.f_add_scalar(5.0 / 24.0)?.f_mul(y)?.f_add_scalar(55.0 / 96.0)?)
            };
            let t = x.f_mul(x)?;
            let w2 = t.f_mul_scalar(0.25)?.f_sub_scalar(0.625)?.f_mul(&t)?.f_add_scalar(115.0 / 192.0)?;
            let w1 = outer(&x.f_add_scalar(1.0)?)?;
            let w3 = outer(&one_minus(x)?)?;
            let y = x.f_neg()?.f_add_scalar(0.5)?;
            let t = y.f_mul(&y)?;
            let w0 = t.f_mul(&t)?.f_div_scalar(24.0)?;
            vec![w0, w1, w2, w3]
        }
        5 => {
            let inner = |y: &Tensor| -> Result<Tensor> {
                // t * (t * (0.25 - y / 12) - 0.5) + 0.55 with t = y * y
                let t = y.f_mul(y)?;
                let a = y.f_div_scalar(12.0)?.f_neg()?.f_add_scalar(0.25)?;
                Ok(a.f_mul(&t)?.f_sub_scalar(0.5)?.f_mul(&t)?.f_add_scalar(0.55)?)
            };
            let outer = |y: &Tensor| -> Result<Tensor> {
                // y * (y * (y * (y * (y / 24 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425
                let a = y.f_div_scalar(24.0)?.f_sub_scalar(0.375)?;
                let a = a.f_mul(y)?.f_add_scalar(1.25)?;
                let a = a.f_mul(y)?.f_sub_scalar(1.75)?;
                let a = a.f_mul(y)?.f_add_scalar(0.625)?;
                Ok(a.f_mul(y)?.f_add_scalar(0.425)?)
            };
            let z = one_minus(x)?;
            let w2 = inner(x)?;
            let w3 = inner(&z)?;
            let w1 = outer(&x.f_add_scalar(1.0)?)?;
            let w4 = outer(&z.f_add_scalar(1.0)?)?;
            let t = z.f_mul(&z)?;
            let w0 = z.f_mul(&t)?.f_mul(&t)?.f_div_scalar(120.0)?;
            vec![w0, w1, w2, w3, w4]
        }
        _ => return Err(Error::InvalidArgument(format!("spline order not supported: {order}"))),
    };
    // all weights add to one: the last is what the others leave
    let mut last = one_minus(&w[0])?;
    for wi in &w[1..] {
        last = last.f_sub(wi)?;
    }
    w.push(last);
    Ok(w)
}

/// SciPy's `map_coordinate` of one value (the C function, for the taps' table).
fn map_scalar(x: f64, len: i64, mode: Mode) -> f64 {
    let lenf = len as f64;
    if x < 0.0 {
        match mode {
            Mode::Nearest => 0.0,
            Mode::Constant => -1.0,
            _ if len <= 1 => 0.0,
            Mode::Mirror => {
                let sz2 = 2.0 * lenf - 2.0;
                let t = sz2 * (-x / sz2).trunc() + x;
                if t <= 1.0 - lenf {
                    t + sz2
                } else {
                    -t
                }
            }
            Mode::Reflect => {
                let sz2 = 2.0 * lenf;
                let t = if x < -sz2 { sz2 * (-x / sz2).trunc() + x } else { x };
                if t < -lenf {
                    t + sz2
                } else {
                    (if t > -1e-15 { 1e-15 } else { -t }) - 1.0
                }
            }
            Mode::Wrap => {
                let sz = lenf - 1.0;
                x + sz * ((-x / sz).trunc() + 1.0)
            }
            Mode::GridWrap => x + lenf * (((-1.0 - x) / lenf).trunc() + 1.0),
            Mode::GridConstant => x,
        }
    } else if x > lenf - 1.0 {
        match mode {
            Mode::Nearest => lenf - 1.0,
            Mode::Constant => -1.0,
            _ if len <= 1 => 0.0,
            Mode::Mirror => {
                let sz2 = 2.0 * lenf - 2.0;
                let t = x - sz2 * (x / sz2).trunc();
                if t >= lenf {
                    sz2 - t
                } else {
                    t
                }
            }
            Mode::Reflect => {
                let sz2 = 2.0 * lenf;
                let t = x - sz2 * (x / sz2).trunc();
                if t >= lenf {
                    sz2 - t - 1.0
                } else {
                    t
                }
            }
            Mode::Wrap => {
                let sz = lenf - 1.0;
                x - sz * (x / sz).trunc()
            }
            Mode::GridWrap => x - lenf * (x / lenf).trunc(),
            Mode::GridConstant => x,
        }
    } else {
        x
    }
}

/// The input index of every tap position `-K .. len + K` (`K = order + 2`)
/// by the spline boundary mode; `-1`: outside (`grid-constant`).
fn tap_table(len: i64, order: i64, mode: Mode) -> Vec<i32> {
    let k = order + 2;
    (-k..len + k)
        .map(|t| {
            if mode == Mode::GridConstant {
                if (0..len).contains(&t) {
                    t as i32
                } else {
                    -1
                }
            } else {
                map_scalar(t as f64, len, mode.spline()) as i32
            }
        })
        .collect()
}

/// The taps of one axis for points at coordinates `c` (float64, `(P,)`).
struct Taps {
    /// Input indices, `(order + 1, P)`, int32 (`-1`: outside, `grid-constant`).
    index: Tensor,
    /// Weights, one `(P,)` tensor per tap (empty for order 0).
    weights: Vec<Tensor>,
    /// Points that interpolate (the others take `cval`), `(P,)`.
    valid: Tensor,
}

fn taps(c: &Tensor, len: i64, order: i64, mode: Mode, npad: i64, table: &Tensor) -> Result<Taps> {
    let mut cc = if npad != 0 { c.f_add_scalar(npad as f64)? } else { c.shallow_clone() };
    let lenf = len as f64;
    let valid = match mode {
        // SciPy's floor of a NaN or infinite coordinate is undefined; cval here
        Mode::GridConstant | Mode::Nearest => cc.f_isfinite()?,
        // map_coordinate's -1 outside [0, len - 1] (NaN fails both tests)
        Mode::Constant => cc.f_ge(0.0)?.f_logical_and(&cc.f_le(lenf - 1.0)?)?,
        _ => {
            cc = map_coordinate(&cc, len, mode)?;
            cc.f_gt(-1.0)?
        }
    };
    let cc = cc.f_where_scalarother(&valid, 0.0)?;
    let base = if order % 2 == 1 { cc.f_floor()? } else { cc.f_add_scalar(0.5)?.f_floor()? };
    let k = order + 2;
    // the first tap's position in the table, clamped so that far points
    // (nearest, grid-constant) stay in it: the ends of the table are the edge
    // index (nearest) and outside (grid-constant) alike
    let first = base
        .f_add_scalar((k - order / 2) as f64)?
        .f_clamp(0.0, (len + k + k - 1 - order) as f64)?
        .f_to_kind(Kind::Int)?;
    let ramp = Tensor::f_arange(order + 1, (Kind::Int, c.device()))?;
    let positions = ramp.f_unsqueeze(1)?.f_add(&first.f_unsqueeze(0)?)?;
    let index = table.f_index_select(0, &positions.f_view(-1)?)?.f_view([order + 1, -1])?;
    let weights = if order > 0 { weights(&cc.f_sub(&base)?, order)? } else { Vec::new() };
    Ok(Taps { index, weights, valid })
}

/// The elements per chunk on the CPU: libtorch's parallel grain (32768), so
/// that no op of a chunk opens an OpenMP region (which stalls for a scheduler
/// slice whenever another process holds a core) and the taps stay in cache.
const CHUNK: i64 = 1 << 15;

/// Whether [`interpolate`] runs the point loop of `csrc/ni_interpolation.cpp`:
/// on the CPU, where no gradient is to be recorded (`src` and the
/// coordinates), for at most 32 axes. Elsewhere the libtorch-op composite,
/// which gives the same bits.
fn use_point_kernel(src: &Tensor, coords: &[Tensor]) -> bool {
    src.device() == Device::Cpu
        && !records_grad(src)
        && coords.len() <= 32
        && coords.iter().all(|c| c.device() == Device::Cpu && !records_grad(c))
}

/// Interpolates `src` (`(B, *spatial)`, the coefficients) at the points
/// `coords` (one float64 `(P,)` tensor per spatial axis): `(B, P)` float64.
fn interpolate(src: &Tensor, coords: &[Tensor], order: i64, mode: Mode, cval: f64, npad: i64) -> Result<Tensor> {
    let size = src.size();
    let batch = size[0];
    let spatial = &size[1..];
    let k = spatial.len();
    let p = coords[0].numel() as i64;
    let device = src.device();
    if p == 0 {
        return Ok(Tensor::f_zeros([batch, 0], (Kind::Double, device))?);
    }
    if spatial.contains(&0) {
        return Ok(Tensor::f_full([batch, p], cval, (Kind::Double, device))?);
    }
    let float_src = matches!(dlpack::dtype_of(src)?, DType::Float32 | DType::Float64);
    if use_point_kernel(src, coords) {
        let src = if float_src { src.f_contiguous()? } else { to_double(src)?.f_contiguous()? };
        let tables: Vec<Tensor> =
            spatial.iter().map(|&n| Ok(Tensor::f_from_slice(&tap_table(n, order, mode))?)).collect::<Result<_>>()?;
        let mut out = Tensor::f_empty([batch, p], (Kind::Double, Device::Cpu))?;
        crate::ffi::ni_interpolation::map_points_cpu(
            &src,
            coords,
            &tables,
            order,
            mode.code(),
            cval,
            npad as f64,
            &mut out,
        )?;
        return Ok(out);
    }
    let flat = src.f_contiguous()?.f_view(-1)?;
    let flat = if float_src { flat } else { to_double(&flat)? };
    let numel: i64 = spatial.iter().product();
    let wide = batch * numel >= i64::from(i32::MAX);
    let ikind = if wide { Kind::Int64 } else { Kind::Int };
    let mut strides = vec![1i64; k];
    for d in (0..k.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * spatial[d + 1];
    }
    let tables: Vec<Tensor> = spatial
        .iter()
        .map(|&n| Ok(Tensor::f_from_slice(&tap_table(n, order, mode))?.f_to_device(device)?))
        .collect::<Result<_>>()?;
    let o = order + 1;
    let chunk = if device == Device::Cpu { (CHUNK / o.pow(k as u32)).max(1024) } else { p };
    let mut pieces = Vec::new();
    let mut start = 0;
    while start < p {
        let len = chunk.min(p - start);
        let mut index: Option<Tensor> = None;
        let mut outside: Option<Tensor> = None;
        let mut valid: Option<Tensor> = None;
        let mut ws = Vec::with_capacity(k);
        for d in 0..k {
            let t = taps(&coords[d].f_narrow(0, start, len)?, spatial[d], order, mode, npad, &tables[d])?;
            // (1, .., o, .., 1, 1, P): the taps along axis d, tap-major
            let mut shape: Vec<i64> = (0..k).map(|e| if e == d { o } else { 1 }).collect();
            shape.extend([1, len]);
            let mut tap = t.index.f_view(shape.as_slice())?;
            if mode == Mode::GridConstant {
                let out = tap.f_lt(0)?;
                tap = tap.f_clamp_min(0)?;
                outside = Some(match outside {
                    None => out,
                    Some(a) => a.f_logical_or(&out)?,
                });
            }
            if wide {
                tap = tap.f_to_kind(Kind::Int64)?;
            }
            let idx = if strides[d] == 1 { tap } else { tap.f_mul_scalar(strides[d])? };
            index = Some(match index {
                None => idx,
                Some(i) => i.f_add(&idx)?,
            });
            valid = Some(match valid {
                None => t.valid,
                Some(v) => v.f_logical_and(&t.valid)?,
            });
            ws.push(t.weights);
        }
        let missing = || Error::InvalidArgument("input and output rank must be > 0".into());
        let index = index.ok_or_else(missing)?;
        // (o, .., o, B, P)
        let full = if batch > 1 {
            let mut bshape = vec![1i64; k];
            bshape.extend([batch, 1]);
            let offsets = Tensor::f_arange(batch, (ikind, device))?.f_mul_scalar(numel)?;
            index.f_add(&offsets.f_view(bshape.as_slice())?)?
        } else {
            index
        };
        let full_shape = full.size();
        let mut vals = flat.f_index_select(0, &full.f_reshape([-1])?)?.f_view(full_shape.as_slice())?;
        if vals.kind() != Kind::Double {
            vals = vals.f_to_kind(Kind::Double)?;
        }
        if let Some(out) = outside {
            vals = vals.f_masked_fill(&out, cval)?;
        }
        // SciPy's order: each tap's value times the weights axis by axis,
        // then the taps summed one by one in C order
        for (d, w) in ws.iter().enumerate() {
            if w.is_empty() {
                continue;
            }
            let mut shape: Vec<i64> = (0..k).map(|e| if e == d { o } else { 1 }).collect();
            shape.extend([1, len]);
            vals = vals.f_mul(&Tensor::f_stack(w, 0)?.f_view(shape.as_slice())?)?;
        }
        let taps = vals.f_reshape([-1, batch, len])?;
        let mut acc = taps.f_select(0, 0)?;
        for j in 1..taps.size()[0] {
            acc = acc.f_add(&taps.f_select(0, j)?)?;
        }
        let vals = acc;
        let valid = valid.ok_or_else(missing)?;
        pieces.push(vals.f_where_scalarother(&valid.f_unsqueeze(0)?, cval)?);
        start += len;
    }
    Ok(if pieces.len() == 1 { pieces.remove(0) } else { Tensor::f_cat(&pieces, 1)? })
}

/// SciPy's prefilter of the spatial axes of `x` (`(B, *spatial)`): the
/// coefficients and the padding (`_prepad_for_spline_filter`).
fn prefiltered(x: &Tensor, order: i64, mode: Mode, cval: f64, prefilter: bool) -> Result<(Tensor, i64)> {
    if !prefilter || order < 2 {
        return Ok((x.shallow_clone(), 0));
    }
    let mut y = to_double(x)?;
    let k = y.dim();
    let npad = if matches!(mode, Mode::Nearest | Mode::GridConstant) { 12 } else { 0 };
    if npad > 0 {
        if mode == Mode::GridConstant {
            let mut pad = vec![npad; 2 * (k - 1)];
            pad.extend([0, 0]);
            y = y.f_pad(pad.as_slice(), "constant", Some(cval))?;
        } else {
            for d in 1..k {
                let n = y.size()[d];
                let map: Vec<i64> = (-npad..n + npad).map(|i| i.clamp(0, n - 1)).collect();
                let index = Tensor::f_from_slice(&map)?.f_to_device(y.device())?;
                y = y.f_index_select(d as i64, &index)?;
            }
        }
    }
    for d in 1..k {
        y = spline_filter_axis(&y, order, d, mode)?;
    }
    Ok((y, npad))
}

/// Common checks and the output dtype of the interpolating routines.
fn prepare(input: &Tensor, order: i64, output: Option<DType>) -> Result<DType> {
    check_order(order)?;
    if input.dim() < 1 {
        return Err(Error::InvalidArgument("input and output rank must be > 0".into()));
    }
    output_dtype(check_input(input)?, output)
}

/// Interpolates `x` (real) at `coords` (one tensor of the output shape per axis) and stores in `out`.
#[allow(clippy::too_many_arguments)]
fn at_points(
    x: &Tensor,
    coords: &[Tensor],
    out_shape: &[i64],
    out: DType,
    order: i64,
    mode: Mode,
    cval: f64,
    prefilter: bool,
) -> Result<Tensor> {
    let (src, npad) = prefiltered(&x.f_unsqueeze(0)?, order, mode, cval, prefilter)?;
    let flat: Vec<Tensor> = coords.iter().map(|c| c.f_reshape([-1])).collect::<std::result::Result<_, _>>()?;
    let t = interpolate(&src, &flat, order, mode, cval, npad)?.f_reshape(out_shape)?;
    store(&t, out, (dlpack::dtype_of(x)? == out).then_some(x))
}

/// `scipy.ndimage.map_coordinates`: `input` interpolated at `coordinates` (`(input.ndim, ...)`).
pub fn map_coordinates(
    input: &Tensor,
    coordinates: &Tensor,
    output: Option<DType>,
    order: i64,
    mode: Mode,
    cval: f64,
    prefilter: bool,
) -> Result<Tensor> {
    check_order(order)?;
    let cdtype = dlpack::dtype_of(coordinates)?;
    if cdtype.is_complex() {
        return Err(Error::InvalidArgument("Complex type not supported".into()));
    }
    let cshape = coordinates.size();
    if input.dim() < 1 || cshape.len() < 2 {
        return Err(Error::InvalidArgument("input and output rank must be > 0".into()));
    }
    if cshape[0] != input.dim() as i64 {
        return Err(Error::InvalidArgument(format!(
            "invalid shape for coordinate array: {} coordinates for an input of {} dimensions",
            cshape[0],
            input.dim()
        )));
    }
    let coords = to_double(&coordinates.f_to_device(input.device())?)?;
    by_parts(input, output, |x, out| {
        let out = prepare(x, order, out)?;
        let per_axis: Vec<Tensor> =
            (0..x.dim() as i64).map(|d| coords.f_select(0, d)).collect::<std::result::Result<_, _>>()?;
        at_points(x, &per_axis, &cshape[1..], out, order, mode, cval, prefilter)
    })
}

/// The output grid's coordinates along each axis, `(n_d,)` float64 each.
fn grid(shape: &[i64], device: Device) -> Result<Vec<Tensor>> {
    shape.iter().map(|&n| Ok(Tensor::f_arange(n, (Kind::Double, device))?)).collect()
}

/// `cc[d] = (kk + shift[d]) * zoom[d]` (SciPy's `NI_ZoomShift`) for every output point.
#[allow(clippy::too_many_arguments)]
fn zoom_shift(
    x: &Tensor,
    zooms: Option<&[f64]>,
    shifts: Option<&[f64]>,
    out_shape: &[i64],
    out: DType,
    order: i64,
    mode: Mode,
    cval: f64,
    prefilter: bool,
    grid_mode: bool,
) -> Result<Tensor> {
    let axes = grid(out_shape, x.device())?;
    let k = out_shape.len();
    let mut coords = Vec::with_capacity(k);
    for (d, a) in axes.iter().enumerate() {
        let mut cc = a.shallow_clone();
        if let Some(s) = shifts {
            cc = cc.f_add_scalar(s[d])?;
        }
        if let Some(z) = zooms {
            cc = if grid_mode {
                cc.f_add_scalar(0.5)?.f_mul_scalar(z[d])?.f_sub_scalar(0.5)?
            } else {
                cc.f_mul_scalar(z[d])?
            };
        }
        let mut view = vec![1i64; k];
        view[d] = out_shape[d];
        coords.push(cc.f_view(view.as_slice())?.f_expand(out_shape, false)?);
    }
    at_points(x, &coords, out_shape, out, order, mode, cval, prefilter)
}

/// `icoor[h] = offset[h] + sum_l kk[l] matrix[h][l]` (SciPy's affine loop, in its order).
fn affine_coords(
    matrix: &[f64],
    rows: usize,
    offset: &[f64],
    out_shape: &[i64],
    device: Device,
) -> Result<Vec<Tensor>> {
    let cols = out_shape.len();
    let axes = grid(out_shape, device)?;
    let mut coords = Vec::with_capacity(rows);
    for h in 0..rows {
        let mut t = Tensor::f_full(out_shape, offset[h], (Kind::Double, device))?;
        for (l, a) in axes.iter().enumerate() {
            let mut view = vec![1i64; cols];
            view[l] = out_shape[l];
            t = t.f_add(&a.f_mul_scalar(matrix[h * cols + l])?.f_view(view.as_slice())?)?;
        }
        coords.push(t);
    }
    Ok(coords)
}

/// `scipy.ndimage.affine_transform`: `matrix` (values in C order, shape
/// `mshape`: `(ndim,)`, `(ndim, ndim)`, `(ndim, ndim + 1)` or `(ndim + 1, ndim + 1)`),
/// `offset` (one value or one per axis).
#[allow(clippy::too_many_arguments)]
pub fn affine_transform(
    input: &Tensor,
    matrix: &[f64],
    mshape: &[i64],
    offset: &PerAxis<f64>,
    output_shape: Option<&[i64]>,
    output: Option<DType>,
    order: i64,
    mode: Mode,
    cval: f64,
    prefilter: bool,
) -> Result<Tensor> {
    check_order(order)?;
    let ndim = input.dim();
    let out_shape: Vec<i64> = output_shape.map_or_else(|| input.size(), <[i64]>::to_vec);
    if ndim < 1 || out_shape.is_empty() {
        return Err(Error::InvalidArgument("input and output rank must be > 0".into()));
    }
    if !(1..=2).contains(&mshape.len()) || mshape[0] < 1 {
        return Err(Error::InvalidArgument("no proper affine matrix provided".into()));
    }
    let n = ndim as i64;
    let (mut m, mut shape, mut offsets) = (matrix.to_vec(), mshape.to_vec(), None);
    if shape.len() == 2 && shape[1] == n + 1 && (shape[0] == n || shape[0] == n + 1) {
        let cols = (n + 1) as usize;
        if shape[0] == n + 1 {
            let bottom = &matrix[ndim * cols..];
            if bottom.iter().enumerate().any(|(j, &v)| v != if j == ndim { 1.0 } else { 0.0 }) {
                return Err(Error::InvalidArgument(format!(
                    "Expected homogeneous transformation matrix with shape {mshape:?} for image shape {:?}, \
                     but bottom row was not equal to {:?}",
                    input.size(),
                    (0..=ndim).map(|j| i64::from(j == ndim)).collect::<Vec<_>>()
                )));
            }
        }
        offsets = Some((0..ndim).map(|h| matrix[h * cols + ndim]).collect::<Vec<f64>>());
        m = (0..ndim).flat_map(|h| matrix[h * cols..h * cols + ndim].to_vec()).collect();
        shape = vec![n, n];
    }
    if shape[0] != n {
        return Err(Error::InvalidArgument("affine matrix has wrong number of rows".into()));
    }
    if shape.len() == 2 && shape[1] != out_shape.len() as i64 {
        return Err(Error::InvalidArgument("affine matrix has wrong number of columns".into()));
    }
    let offsets = match offsets {
        Some(o) => o,
        None => offset.normalize(ndim)?,
    };
    if shape.len() == 1 && out_shape.len() != ndim {
        return Err(Error::InvalidArgument(
            "a 1-d affine matrix (a zoom per axis) needs an output of the input's rank".into(),
        ));
    }
    by_parts(input, output, |x, out| {
        let out = prepare(x, order, out)?;
        if shape.len() == 1 {
            let shifts: Vec<f64> = offsets.iter().zip(&m).map(|(o, z)| o / z).collect();
            zoom_shift(x, Some(&m), Some(&shifts), &out_shape, out, order, mode, cval, prefilter, false)
        } else {
            let coords = affine_coords(&m, ndim, &offsets, &out_shape, x.device())?;
            at_points(x, &coords, &out_shape, out, order, mode, cval, prefilter)
        }
    })
}

/// `scipy.ndimage.shift`: `input` shifted by `shift` (one value or one per axis).
#[allow(clippy::too_many_arguments)]
pub fn shift(
    input: &Tensor,
    shift: &PerAxis<f64>,
    output: Option<DType>,
    order: i64,
    mode: Mode,
    cval: f64,
    prefilter: bool,
) -> Result<Tensor> {
    check_order(order)?;
    if input.dim() < 1 {
        return Err(Error::InvalidArgument("input and output rank must be > 0".into()));
    }
    let shifts: Vec<f64> = shift.normalize(input.dim())?.iter().map(|s| -s).collect();
    by_parts(input, output, |x, out| {
        let out = prepare(x, order, out)?;
        zoom_shift(x, None, Some(&shifts), &x.size(), out, order, mode, cval, prefilter, false)
    })
}

/// The output shape `zoom` gives (`int(round(n * zoom))` per axis).
pub fn zoom_shape(shape: &[i64], zooms: &[f64]) -> Vec<i64> {
    shape.iter().zip(zooms).map(|(&n, &z)| (n as f64 * z).round_ties_even() as i64).collect()
}

/// `scipy.ndimage.zoom`: `input` resampled by `zoom` per axis (`grid_mode`: pixel edges align).
#[allow(clippy::too_many_arguments)]
pub fn zoom(
    input: &Tensor,
    zoom: &PerAxis<f64>,
    output: Option<DType>,
    order: i64,
    mode: Mode,
    cval: f64,
    prefilter: bool,
    grid_mode: bool,
) -> Result<Tensor> {
    check_order(order)?;
    if input.dim() < 1 {
        return Err(Error::InvalidArgument("input and output rank must be > 0".into()));
    }
    let zooms = zoom.normalize(input.dim())?;
    let in_shape = input.size();
    let out_shape = zoom_shape(&in_shape, &zooms);
    by_parts(input, output, |x, out| {
        let out = prepare(x, order, out)?;
        if zooms.iter().all(|&z| z == 1.0) && prefilter {
            // SciPy's early exit (gh-20999): the input assigned to the output
            if dlpack::dtype_of(x)? == out {
                return Ok(x.f_detach_copy()?);
            }
            return cast(&to_double(x)?, out, None);
        }
        let factors: Vec<f64> = in_shape
            .iter()
            .zip(&out_shape)
            .map(|(&i, &o)| {
                let (num, div) = if grid_mode { (i, o) } else { (i - 1, o - 1) };
                if div != 0 {
                    num as f64 / div as f64
                } else {
                    1.0
                }
            })
            .collect();
        zoom_shift(x, Some(&factors), None, &out_shape, out, order, mode, cval, prefilter, grid_mode)
    })
}

/// Cephes' `sindg`/`cosdg` polynomials (SciPy's `special.sindg`, `cosdg`).
#[allow(clippy::excessive_precision)]
const SINCOF: [f64; 6] = [
    1.58962301572218447952E-10,
    -2.50507477628503540135E-8,
    2.75573136213856773549E-6,
    -1.98412698295895384658E-4,
    8.33333333332211858862E-3,
    -1.66666666666666307295E-1,
];
#[allow(clippy::excessive_precision)]
const COSCOF: [f64; 7] = [
    1.13678171382044553091E-11,
    -2.08758833757683644217E-9,
    2.75573155429816611547E-7,
    -2.48015872936186303776E-5,
    1.38888888888806666760E-3,
    -4.16666666666666348141E-2,
    4.99999999999999999798E-1,
];
#[allow(clippy::excessive_precision)]
const PI180: f64 = 1.74532925199432957692E-2;

fn polevl(x: f64, coef: &[f64]) -> f64 {
    coef[1..].iter().fold(coef[0], |acc, &c| acc * x + c)
}

/// Cephes' octant reduction: `(j, z)` with `z` the angle within its octant, in radians.
fn octant(x: f64) -> (i64, f64) {
    let mut y = (x / 45.0).floor();
    let z = y - (y / 16.0).floor() * 16.0;
    let mut j = z as i64;
    if j & 1 == 1 {
        j += 1;
        y += 1.0;
    }
    (j & 7, (x - y * 45.0) * PI180)
}

/// `special.cosdg` (Cephes): the cosine of an angle in degrees.
fn cosdg(x: f64) -> f64 {
    let (mut j, z) = octant(x.abs());
    let mut sign = 1.0;
    if j > 3 {
        j -= 4;
        sign = -sign;
    }
    if j > 1 {
        sign = -sign;
    }
    let zz = z * z;
    let y = if j == 1 || j == 2 { z + z * (zz * polevl(zz, &SINCOF)) } else { 1.0 - zz * polevl(zz, &COSCOF) };
    sign * y
}

/// `special.sindg` (Cephes): the sine of an angle in degrees.
fn sindg(x: f64) -> f64 {
    let mut sign = if x.is_sign_negative() { -1.0 } else { 1.0 };
    let (mut j, z) = octant(x.abs());
    if j > 3 {
        sign = -sign;
        j -= 4;
    }
    let zz = z * z;
    let y = if j == 1 || j == 2 { 1.0 - zz * polevl(zz, &COSCOF) } else { z + z * (zz * polevl(zz, &SINCOF)) };
    sign * y
}

/// `scipy.ndimage.rotate`: the plane of `axes` rotated by `angle` degrees
/// (`reshape`: the output holds the whole rotated input).
#[allow(clippy::too_many_arguments)]
pub fn rotate(
    input: &Tensor,
    angle: f64,
    axes: (i64, i64),
    reshape: bool,
    output: Option<DType>,
    order: i64,
    mode: Mode,
    cval: f64,
    prefilter: bool,
) -> Result<Tensor> {
    let ndim = input.dim() as i64;
    if ndim < 2 {
        return Err(Error::InvalidArgument("input array should be at least 2D".into()));
    }
    let (mut a0, mut a1) = axes;
    if a0 < 0 {
        a0 += ndim;
    }
    if a1 < 0 {
        a1 += ndim;
    }
    if a0 < 0 || a1 < 0 || a0 >= ndim || a1 >= ndim {
        return Err(Error::InvalidArgument("invalid rotation plane specified".into()));
    }
    let (a0, a1) = (a0.min(a1), a0.max(a1));
    check_order(order)?;
    let (c, s) = (cosdg(angle), sindg(angle));
    let rot = [c, s, -s, c];
    let shape = input.size();
    let (iy, ix) = (shape[a0 as usize] as f64, shape[a1 as usize] as f64);
    let out_plane = if reshape {
        let xs = [0.0, 0.0, iy, iy];
        let ys = [0.0, ix, 0.0, ix];
        let extent = |r0: f64, r1: f64| {
            let v: Vec<f64> = (0..4).map(|j| r0 * xs[j] + r1 * ys[j]).collect();
            let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let min = v.iter().copied().fold(f64::INFINITY, f64::min);
            (max - min + 0.5) as i64
        };
        [extent(rot[0], rot[1]), extent(rot[2], rot[3])]
    } else {
        [shape[a0 as usize], shape[a1 as usize]]
    };
    let oc = [(out_plane[0] - 1) as f64 / 2.0, (out_plane[1] - 1) as f64 / 2.0];
    let out_center = [rot[0] * oc[0] + rot[1] * oc[1], rot[2] * oc[0] + rot[3] * oc[1]];
    let in_center = [(iy - 1.0) / 2.0, (ix - 1.0) / 2.0];
    let offset = [in_center[0] - out_center[0], in_center[1] - out_center[1]];
    if a0 == a1 {
        return Err(Error::InvalidArgument("invalid rotation plane specified".into()));
    }
    by_parts(input, output, |x, out| {
        let out = output_dtype(check_input(x)?, out)?;
        // the planes as a batch: (B, iy, ix)
        let moved = x.f_movedim([a0, a1], [ndim - 2, ndim - 1])?;
        let batch_shape: Vec<i64> = moved.size()[..ndim as usize - 2].to_vec();
        let planes = moved.f_reshape([-1, shape[a0 as usize], shape[a1 as usize]])?;
        let (src, npad) = prefiltered(&planes, order, mode, cval, prefilter)?;
        let coords = affine_coords(&rot, 2, &offset, &out_plane, x.device())?;
        let flat: Vec<Tensor> = coords.iter().map(|c| c.f_reshape([-1])).collect::<std::result::Result<_, _>>()?;
        let t = interpolate(&src, &flat, order, mode, cval, npad)?;
        let mut full = batch_shape.clone();
        full.extend(out_plane);
        let t = t.f_reshape(full.as_slice())?.f_movedim([ndim - 2, ndim - 1], [a0, a1])?;
        store(&t.f_contiguous()?, out, (dlpack::dtype_of(x)? == out).then_some(x))
    })
}
