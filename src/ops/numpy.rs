//! NumPy's conventions, written once for every family: dtype promotion
//! (`result_type`, `can_cast`), the floating dtype SciPy computes in,
//! casting, broadcasting, axis normalisation, `check_finite`, one device
//! for all the arguments of a call, and `arange`.
//!
//! A routine that needs one of these calls it from here; no family keeps a
//! variant of its own.

use tch::{Device, Kind, Tensor};

use crate::aten::Arg;
use crate::error::try_vec;
use crate::{dlpack, DType, Error, Result};

/// NumPy's "safe" casting between the dtypes torchbridge exchanges
/// (`numpy.can_cast(from, to, "safe")`); bfloat16 casts like float16.
pub fn can_cast_safe(from: DType, to: DType) -> bool {
    use DType::*;
    if from == to {
        return true;
    }
    match (from, to) {
        (Bool, _) => true,
        (_, Bool) => false,
        (Int8, Int16 | Int32 | Int64) => true,
        (Int16, Int32 | Int64) => true,
        (Int32, Int64) => true,
        (UInt8, Int16 | Int32 | Int64 | UInt16 | UInt32 | UInt64) => true,
        (UInt16, Int32 | Int64 | UInt32 | UInt64) => true,
        (UInt32, Int64 | UInt64) => true,
        (Int8 | UInt8, Float16 | Float32 | Float64) => true,
        (Int16 | UInt16, Float32 | Float64) => true,
        (Int32 | UInt32 | Int64 | UInt64, Float64) => true,
        (Float16 | BFloat16, Float32 | Float64) => true,
        (Float32, Float64) => true,
        (Int8 | UInt8 | Int16 | UInt16 | Float16 | BFloat16 | Float32, Complex64 | Complex128) => true,
        (Int32 | UInt32 | Int64 | UInt64 | Float64 | Complex64, Complex128) => true,
        _ => false,
    }
}

/// NumPy's `result_type` for the dtypes torchbridge exchanges (NumPy 2: no
/// value-based casting). bfloat16, which NumPy lacks, promotes as float32.
pub fn result_type(dtypes: &[DType]) -> DType {
    use DType::*;
    fn float_bits_for_int(d: DType) -> u32 {
        match d {
            Bool => 0,
            Int8 | UInt8 => 16,
            Int16 | UInt16 => 32,
            _ => 64,
        }
    }
    let complex = dtypes.iter().any(|d| d.is_complex());
    let inexact = complex || dtypes.iter().any(|d| d.is_float());
    if inexact {
        let bits = dtypes
            .iter()
            .map(|&d| match d {
                Float16 => 16,
                BFloat16 | Float32 | Complex64 => 32,
                Float64 | Complex128 => 64,
                other => float_bits_for_int(other),
            })
            .max()
            .unwrap_or(64);
        return match (complex, bits) {
            (true, b) if b <= 32 => Complex64,
            (true, _) => Complex128,
            (false, 16) => Float16,
            (false, 32) => Float32,
            (false, _) => Float64,
        };
    }
    // Integers and bool: the smallest type holding both ranges.
    let (mut signed_bits, mut unsigned_bits) = (0u32, 0u32);
    for &d in dtypes {
        match d {
            Int8 => signed_bits = signed_bits.max(8),
            Int16 => signed_bits = signed_bits.max(16),
            Int32 => signed_bits = signed_bits.max(32),
            Int64 => signed_bits = signed_bits.max(64),
            UInt8 => unsigned_bits = unsigned_bits.max(8),
            UInt16 => unsigned_bits = unsigned_bits.max(16),
            UInt32 => unsigned_bits = unsigned_bits.max(32),
            UInt64 => unsigned_bits = unsigned_bits.max(64),
            _ => {}
        }
    }
    let signed = |bits: u32| match bits {
        8 => Int8,
        16 => Int16,
        32 => Int32,
        _ => Int64,
    };
    let unsigned = |bits: u32| match bits {
        8 => UInt8,
        16 => UInt16,
        32 => UInt32,
        _ => UInt64,
    };
    match (signed_bits, unsigned_bits) {
        (0, 0) => Bool,
        (s, 0) => signed(s),
        (0, u) => unsigned(u),
        (s, u) if s > u => signed(s),
        (_, 64) => Float64,
        (_, u) => signed(u * 2),
    }
}

/// Casts `x` to the floating dtype SciPy's ufunc loops would pick
/// ([`DType::scipy_float_loop`]).
///
/// `complex_in_scipy`: SciPy has complex loops for this routine; a complex
/// input is then "not implemented here" rather than "not accepted".
pub fn scipy_float_input(routine: &'static str, x: &Tensor, complex_in_scipy: bool) -> Result<Tensor> {
    scipy_float_input_of(routine, x, dlpack::dtype_of(x)?, complex_in_scipy)
}

/// [`scipy_float_input`] for `x` whose dtype the caller has already asked.
pub fn scipy_float_input_of(routine: &'static str, x: &Tensor, dtype: DType, complex_in_scipy: bool) -> Result<Tensor> {
    match dtype.scipy_float_loop(false) {
        Some(target) if target == dtype => Ok(x.shallow_clone()), // (what `cast` gives, asking the dtype once)
        Some(target) => cast(x, target),
        None if complex_in_scipy => Err(Error::NotImplemented(format!(
            "{routine} on {dtype} input is not implemented (libtorch has no complex kernel for it)"
        ))),
        None => {
            Err(Error::DtypeNotAccepted { routine, dtype, accepted: "bool, integer and real floating-point input" })
        }
    }
}

/// `x` as `dtype`: the same tensor (no copy) when it already is. The dtypes
/// `tch::Kind` cannot name (uint16/32/64) are reachable only that way.
pub fn cast(x: &Tensor, dtype: DType) -> Result<Tensor> {
    let from = dlpack::dtype_of(x)?;
    if from == dtype {
        return Ok(x.shallow_clone());
    }
    match dtype.kind() {
        Some(kind) => Ok(x.f_to_kind(kind)?),
        // `tch::Kind` cannot name uint16/32/64; libtorch's `to` can.
        None => crate::aten::call("aten::to.dtype", &[Arg::ConstTensor(x.shallow_clone()), Arg::Dtype(dtype)], &[])?
            .swap_remove(0)
            .into_tensor(),
    }
}

/// NumPy's broadcasting of `shapes`, with the message of NumPy's ufuncs.
pub fn broadcast_shapes(shapes: &[&[i64]]) -> Result<Vec<i64>> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1i64; ndim];
    for shape in shapes {
        let offset = ndim - shape.len();
        for (i, &n) in shape.iter().enumerate() {
            let slot = &mut out[offset + i];
            if *slot == 1 {
                *slot = n;
            } else if n != 1 && n != *slot {
                let listed: Vec<String> = shapes.iter().map(|s| format!("{s:?}")).collect();
                return Err(Error::InvalidArgument(format!(
                    "operands could not be broadcast together with shapes {}",
                    listed.join(" ")
                )));
            }
        }
    }
    Ok(out)
}

/// The elements of `tensors`' broadcast result: what a call on them writes
/// (a (1000, 1) by (1, 1000) call writes 1e6, not the 1000 of its largest
/// input). Shapes that do not broadcast count as their largest, for the op
/// itself to refuse.
pub fn broadcast_numel(tensors: &[Tensor]) -> usize {
    let counts = tensors.iter().map(crate::ffi::numel);
    let largest = counts.clone().max().unwrap_or(0);
    let product = counts.fold(1usize, usize::saturating_mul);
    if product <= largest {
        // an empty input (an empty result), or at most one input with more
        // than one element (the common call, a scalar with an array): no shapes needed
        return product;
    }
    let sizes: Vec<Vec<i64>> = tensors.iter().map(Tensor::size).collect();
    match broadcast_shapes(&sizes.iter().map(Vec::as_slice).collect::<Vec<_>>()) {
        Ok(shape) => shape.iter().map(|&n| usize::try_from(n).unwrap_or(0)).product(),
        Err(_) => largest,
    }
}

/// `tensors` expanded (views, no copy) to their common broadcast shape.
pub fn broadcast(tensors: Vec<Tensor>) -> Result<Vec<Tensor>> {
    if tensors.len() < 2 {
        return Ok(tensors);
    }
    let sizes: Vec<Vec<i64>> = tensors.iter().map(|t| t.size()).collect();
    let shape = broadcast_shapes(&sizes.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
    tensors.into_iter().map(|t| if t.size() == shape { Ok(t) } else { Ok(t.f_expand(&shape, false)?) }).collect()
}

/// `axis` in `0..ndim` (negative counts from the end), as Python indexes a
/// shape; [`Error::AxisOutOfBounds`] otherwise.
pub fn normalize_axis(axis: i64, ndim: usize) -> Result<usize> {
    let n = i64::try_from(ndim).unwrap_or(i64::MAX);
    if (-n..n).contains(&axis) {
        // In range, so the sum is in 0..n and fits a usize.
        Ok(if axis < 0 { (axis + n) as usize } else { axis as usize })
    } else {
        Err(Error::AxisOutOfBounds { axis, ndim })
    }
}

/// SciPy's `check_finite`: a ValueError when a floating `x` holds NaN or infinity.
pub fn check_finite(x: &Tensor) -> Result<()> {
    let d = dlpack::dtype_of(x)?;
    if !(d.is_float() || d.is_complex()) || x.numel() == 0 {
        return Ok(());
    }
    // A finite sum means finite elements (a NaN or an infinity makes the sum
    // NaN or infinite, inf - inf included): one reduction, where isfinite
    // writes a boolean per element (144 against 7 us at 256x256). Only a
    // sum that is not finite (an overflow too) needs the exact test.
    if x.f_sum(None::<Kind>)?.f_isfinite()?.f_int64_value(&[])? != 0 {
        return Ok(());
    }
    if x.f_isfinite()?.f_all()?.f_int64_value(&[])? == 0 {
        return Err(Error::InvalidArgument("array must not contain infs or NaNs".into()));
    }
    Ok(())
}

/// [`check_finite`] on each of `tensors` when `check` (SciPy's keyword) is set.
pub fn check_finite_all(check: bool, tensors: &[&Tensor]) -> Result<()> {
    if check {
        tensors.iter().try_for_each(|t| check_finite(t))?;
    }
    Ok(())
}

/// Moves CPU tensors to the device of the others (a Python scalar beside a
/// CUDA array); two different accelerators are an error.
pub fn same_device(tensors: Vec<Tensor>) -> Result<Vec<Tensor>> {
    let target = tensors.iter().map(|t| t.device()).find(|d| *d != Device::Cpu).unwrap_or(Device::Cpu);
    tensors
        .into_iter()
        .map(|t| match t.device() {
            d if d == target => Ok(t),
            Device::Cpu => Ok(t.f_to(target)?),
            other => Err(Error::InvalidArgument(format!(
                "arguments on two devices ({other:?} and {target:?}); move them to one device"
            ))),
        })
        .collect()
}

/// NumPy's `arange(n)`: `[0, 1, ..., n - 1]` as `kind` on `device`.
///
/// Built on the host (a fallible reservation, exact integers) and copied
/// once: tch's `f_arange` panics when libtorch fails (see
/// [`crate::error`]'s `no_panic`), and a ramp summed in libtorch (`ones`,
/// `cumsum`) costs a cast and a copy on top, three times `arange`'s time on
/// the small lengths where a call's overhead shows.
pub fn arange(n: i64, kind: Kind, device: Device) -> Result<Tensor> {
    let len = usize::try_from(n).map_err(|_| Error::InvalidArgument(format!("arange: negative length {n}")))?;
    // In `kind`'s own element type where it holds every value exactly, so
    // that no cast follows; else exact in int64/float64, then cast.
    let host = match kind {
        Kind::Int64 => host_ramp(len, |k| k as i64)?,
        Kind::Int if n <= 1 << 31 => host_ramp(len, |k| k as i32)?,
        Kind::Float if n <= 1 << 24 => host_ramp(len, |k| k as f32)?,
        Kind::Int => host_ramp(len, |k| k as i64)?,
        Kind::Bool | Kind::Uint8 | Kind::Int8 | Kind::Int16 => host_ramp(len, |k| k as i64)?,
        _ => host_ramp(len, |k| k as f64)?,
    };
    Ok(host.f_to_device_(device, kind, false, false)?)
}

/// `[f(0), f(1), ..., f(len - 1)]` as a CPU tensor, reserved fallibly.
fn host_ramp<T: tch::kind::Element>(len: usize, f: impl Fn(usize) -> T) -> Result<Tensor> {
    let mut ramp = try_vec::<T>(len, "a range")?;
    ramp.extend((0..len).map(f));
    Ok(Tensor::f_from_slice(&ramp)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    #[test]
    fn arange_is_exact_in_every_kind_and_refuses_negative_lengths() {
        for kind in [Kind::Double, Kind::Float, Kind::Int64, Kind::Int] {
            let r = arange(5, kind, Device::Cpu).unwrap();
            assert_eq!((r.kind(), r.size()), (kind, vec![5]));
            let values: Vec<i64> = Vec::try_from(r.to_kind(Kind::Int64)).unwrap();
            assert_eq!(values, [0, 1, 2, 3, 4]);
        }
        assert_eq!(arange(0, Kind::Double, Device::Cpu).unwrap().size(), vec![0]);
        assert!(matches!(arange(-1, Kind::Double, Device::Cpu), Err(Error::InvalidArgument(_))));
        assert!(matches!(arange(i64::MAX, Kind::Double, Device::Cpu), Err(Error::OutOfMemory(_))));
    }

    #[test]
    fn check_finite_refuses_every_non_finite_and_only_those() {
        let t = |values: &[f64]| Tensor::from_slice(values);
        assert!(check_finite(&t(&[1.0, -0.0, 5e-324])).is_ok());
        assert!(check_finite(&t(&[1e308, 1e308])).is_ok()); // the sum overflows: the exact test decides
        assert!(check_finite(&t(&[1e308, 1e308]).to_kind(Kind::Float)).is_err()); // inf as float32
        assert!(check_finite(&t(&[3e38, 3e38]).to_kind(Kind::Float)).is_ok());
        for bad in [[f64::INFINITY, f64::NEG_INFINITY], [f64::NAN, 1.0], [1.0, f64::INFINITY]] {
            assert!(matches!(check_finite(&t(&bad)), Err(Error::InvalidArgument(_))));
        }
        let complex = Tensor::complex(&t(&[1.0, 2.0]), &t(&[0.0, f64::INFINITY]));
        assert!(check_finite(&complex).is_err());
        assert!(check_finite(&Tensor::complex(&t(&[1.0]), &t(&[-2.0]))).is_ok());
    }

    #[test]
    fn broadcast_numel_counts_the_result() {
        let t = |shape: &[i64]| Tensor::zeros(shape, (Kind::Double, Device::Cpu));
        assert_eq!(broadcast_numel(&[t(&[1000, 1]), t(&[1, 1000])]), 1_000_000);
        assert_eq!(broadcast_numel(&[t(&[5]), t(&[3, 1]), t(&[2, 1, 1])]), 30);
        assert_eq!(broadcast_numel(&[t(&[7]), t(&[])]), 7);
        assert_eq!(broadcast_numel(&[t(&[0, 1]), t(&[1, 9])]), 0);
        assert_eq!(broadcast_numel(&[t(&[2]), t(&[3])]), 3); // refused later by the op
    }

    #[test]
    fn result_type_follows_numpy() {
        assert_eq!(result_type(&[Int8, UInt8]), Int16);
        assert_eq!(result_type(&[Int64, UInt64]), Float64);
        assert_eq!(result_type(&[Float32, Int16]), Float32);
        assert_eq!(result_type(&[Float32, Int32]), Float64);
        assert_eq!(result_type(&[Float16, Complex64]), Complex64);
        assert_eq!(result_type(&[Float64, Complex64]), Complex128);
        assert_eq!(result_type(&[BFloat16]), Float32);
        assert_eq!(result_type(&[Float16, Int8]), Float16);
        assert_eq!(result_type(&[Bool, Bool]), Bool);
    }

    #[test]
    fn safe_casts() {
        assert!(can_cast_safe(Int32, Float64));
        assert!(!can_cast_safe(Int32, Float32));
        assert!(!can_cast_safe(Float64, Float32));
        assert!(can_cast_safe(Bool, UInt8));
        assert!(!can_cast_safe(Complex64, Float64));
    }

    #[test]
    fn broadcasting_and_its_message() {
        assert_eq!(broadcast_shapes(&[&[3, 1], &[4], &[]]).unwrap(), vec![3, 4]);
        assert_eq!(broadcast_shapes(&[&[0, 1], &[1, 5]]).unwrap(), vec![0, 5]);
        let err = broadcast_shapes(&[&[2], &[3]]).unwrap_err().to_string();
        assert_eq!(err, "operands could not be broadcast together with shapes [2] [3]");
    }

    #[test]
    fn axes() {
        assert_eq!(normalize_axis(-1, 3).unwrap(), 2);
        assert_eq!(normalize_axis(2, 3).unwrap(), 2);
        assert!(matches!(normalize_axis(3, 3), Err(Error::AxisOutOfBounds { axis: 3, ndim: 3 })));
        assert!(matches!(normalize_axis(-4, 3), Err(Error::AxisOutOfBounds { axis: -4, ndim: 3 })));
        assert!(normalize_axis(0, 0).is_err());
        assert!(normalize_axis(i64::MIN, 2).is_err());
    }
}
