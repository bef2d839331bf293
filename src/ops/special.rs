//! `scipy.special` counterparts.
//!
//! # Dtypes
//!
//! Every ufunc here picks its loop as NumPy picks SciPy's: the routine's loop
//! list ([`ufunc_types`], the same strings as `scipy.special.<name>.types`) is
//! searched for an exact match of the input dtypes first, then for the first
//! loop every input casts to safely ([`resolve_loop`]). So float32 stays
//! float32 where SciPy has an `f` loop, bool, integers and float16 go to the
//! first loop they fit (`float64` for `erf`, `float32` for `erfinv`), and the
//! result has the loop's output dtype. Python `int`/`float` literals take part
//! as NumPy's "weak" scalars ([`Operand`]).
//!
//! Float32 loops compute in float64 and round once at the end (SciPy's float
//! loops mostly call the double kernel the same way); `erf`, `erfc`, `expit`,
//! `logit` and `gammaln` keep libtorch's own float32 kernels.
//!
//! # Accuracy
//!
//! Where libtorch's kernel is as good as SciPy's it is used as it is. Where it
//! is not (`ndtr`'s lower tail, subnormal `log_sigmoid`/`log1p`, `digamma`
//! near its zeros, `j0`/`j1`/`y0`/`y1` beyond x = 5, `gammainc` for
//! `a ~ x > 20` and `gammaincc` for tiny `a`, `polygamma(1, x)`, the
//! polynomials at nan), or where libtorch has no kernel (`gamma`, `beta`,
//! `binom`, `zeta` below 1, `cbrt`, `exp10`, `sindg`, ...), the routine is
//! composed of libtorch tensor operations here, with the algorithm named at
//! each routine; costly branches run only on the elements that take them.
//! Every routine runs on the input's device. The series coefficients
//! (Temme's, digamma's Taylor coefficients, Borwein's weights) were computed
//! for torchbridge with mpmath; the tests check the results against mpmath.

// The generated tables print 17 significant digits, which round-trip exactly.
#![allow(clippy::excessive_precision)]

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use tch::{Device, Kind, Tensor};

use super::scipy_float_input;
use crate::{dlpack, DType, Error, Result};

// ===========================================================================
// Loop selection
// ===========================================================================

/// How one argument takes part in SciPy's (NumPy's) loop selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// An array or a NumPy scalar: its dtype counts as it is.
    Array(DType),
    /// A Python `int` literal, "weak" in NumPy 2 (NEP 50).
    PyInt,
    /// A Python `float` literal, "weak".
    PyFloat,
    /// A Python `complex` literal, "weak".
    PyComplex,
}

impl Operand {
    fn is_weak(self) -> bool {
        !matches!(self, Operand::Array(_))
    }

    /// The dtype NumPy gives the literal when it is not treated as weak.
    pub fn concrete(self) -> DType {
        match self {
            Operand::Array(dtype) => dtype,
            Operand::PyInt => DType::Int64,
            Operand::PyFloat => DType::Float64,
            Operand::PyComplex => DType::Complex128,
        }
    }
}

/// The loop SciPy runs for some inputs: the dtypes the inputs are cast to and
/// the dtype of the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// One dtype per input.
    pub inputs: Vec<DType>,
    /// The result's dtype.
    pub output: DType,
}

impl Loop {
    fn is_complex(&self) -> bool {
        self.output.is_complex() || self.inputs.iter().any(|d| d.is_complex())
    }
}

/// NumPy's type codes in SciPy's loop strings. `g` (long double) has no
/// DLPack equivalent: loops that use it are never chosen.
fn loop_code(code: u8) -> Option<DType> {
    match code {
        b'd' => Some(DType::Float64),
        b'f' => Some(DType::Float32),
        b'D' => Some(DType::Complex128),
        b'F' => Some(DType::Complex64),
        b'l' => Some(DType::Int64),
        _ => None,
    }
}

fn parse_loop(signature: &str) -> Option<Loop> {
    let (inputs, output) = signature.split_once("->")?;
    let inputs = inputs.bytes().map(loop_code).collect::<Option<Vec<_>>>()?;
    let output = match output.as_bytes() {
        [code] => loop_code(*code)?,
        _ => return None,
    };
    Some(Loop { inputs, output })
}

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

/// NumPy's order of kinds for the weak-scalar rule: bool, integers, inexact.
fn kind_rank(dtype: DType) -> u8 {
    match dtype {
        DType::Bool => 0,
        d if d.is_float() || d.is_complex() => 2,
        _ => 1,
    }
}

fn is_integer(dtype: DType) -> bool {
    kind_rank(dtype) == 1
}

/// Whether `operand` may run in a loop taking `to`. A weak literal fits any
/// loop of its kind or above when the arrays are of at least its kind (NumPy's
/// `should_use_min_scalar` with weak literals); otherwise it counts as int64,
/// float64 or complex128.
fn fits(operand: Operand, to: DType, weak_literals: bool) -> bool {
    match operand {
        Operand::Array(dtype) => can_cast_safe(dtype, to),
        Operand::PyInt if weak_literals => is_integer(to) || to.is_float() || to.is_complex(),
        Operand::PyFloat if weak_literals => to.is_float() || to.is_complex(),
        Operand::PyComplex if weak_literals => to.is_complex(),
        literal => can_cast_safe(literal.concrete(), to),
    }
}

/// The loop NumPy picks among `types` (SciPy's strings such as `"dd->d"`) for
/// `operands`: an exact match of array dtypes first, then the first loop every
/// operand fits safely. `None`: no loop accepts them (NumPy's `UFuncTypeError`).
pub fn resolve_loop(types: &[&str], operands: &[Operand]) -> Option<Loop> {
    let loops: Vec<Loop> =
        types.iter().filter_map(|t| parse_loop(t)).filter(|l| l.inputs.len() == operands.len()).collect();
    if !operands.iter().any(|o| o.is_weak()) {
        let exact = loops.iter().find(|l| l.inputs.iter().zip(operands).all(|(t, o)| Operand::Array(*t) == *o));
        if let Some(exact) = exact {
            return Some(exact.clone());
        }
    }
    let all_weak = operands.iter().all(|o| o.is_weak());
    let max_array = operands
        .iter()
        .filter_map(|o| match o {
            Operand::Array(d) => Some(kind_rank(*d)),
            _ => None,
        })
        .max();
    let max_literal = operands
        .iter()
        .filter_map(|o| match o {
            Operand::PyInt => Some(1),
            Operand::PyFloat | Operand::PyComplex => Some(2),
            Operand::Array(_) => None,
        })
        .max();
    let weak_literals = !all_weak && max_array >= max_literal;
    loops.into_iter().find(|l| l.inputs.iter().zip(operands).all(|(&to, &o)| fits(o, to, weak_literals)))
}

/// One SciPy ufunc: its loop strings and what it accepts, in words.
struct Ufunc {
    name: &'static str,
    qualified: &'static str,
    types: &'static [&'static str],
    accepts: &'static str,
}

macro_rules! ufuncs {
    ($($name:literal: [$($t:literal),*] $accepts:ident,)*) => {
        &[$(Ufunc { name: $name, qualified: concat!("special.", $name), types: &[$($t),*], accepts: $accepts },)*]
    };
}

const REAL: &str = "bool, integer and real floating-point input";
const REAL2: &str = "bool, integer and real floating-point inputs";
const DEGREE: &str = "an integer degree n (bool or integer up to int64) and real x";
const POLY: &str = "a degree n (integer, or real with integral values) and real x";

#[rustfmt::skip]
const UFUNCS: &[Ufunc] = ufuncs! {
    "erf": ["d->d", "f->f", "D->D", "F->F"] REAL,
    "erfc": ["d->d", "f->f", "D->D", "F->F"] REAL,
    "erfcx": ["d->d", "f->f", "D->D", "F->F"] REAL,
    "erfinv": ["f->f", "d->d"] REAL,
    "erfcinv": ["f->f", "d->d"] REAL,
    "expit": ["d->d", "f->f", "g->g"] REAL,
    "logit": ["d->d", "f->f", "g->g"] REAL,
    "log_expit": ["d->d", "f->f", "g->g"] REAL,
    "gamma": ["d->d", "D->D", "f->f", "F->F"] REAL,
    "gammaln": ["d->d", "f->f"] REAL,
    "loggamma": ["d->d", "D->D", "f->f", "F->F"] REAL,
    "digamma": ["d->d", "D->D", "f->f", "F->F"] REAL,
    "psi": ["d->d", "D->D", "f->f", "F->F"] REAL,
    "gammainc": ["dd->d", "ff->f"] REAL2,
    "gammaincc": ["dd->d", "ff->f"] REAL2,
    "beta": ["dd->d", "ff->f"] REAL2,
    "betaln": ["dd->d", "ff->f"] REAL2,
    "binom": ["ff->f", "dd->d"] REAL2,
    "i0": ["d->d", "f->f"] REAL,
    "i0e": ["d->d", "f->f"] REAL,
    "i1": ["d->d", "f->f"] REAL,
    "i1e": ["d->d", "f->f"] REAL,
    "j0": ["d->d", "f->f"] REAL,
    "j1": ["d->d", "f->f"] REAL,
    "y0": ["d->d", "f->f"] REAL,
    "y1": ["d->d", "f->f"] REAL,
    "k0": ["d->d", "f->f"] REAL,
    "k0e": ["d->d", "f->f"] REAL,
    "k1": ["d->d", "f->f"] REAL,
    "k1e": ["d->d", "f->f"] REAL,
    "ndtr": ["d->d", "f->f", "D->D", "F->F"] REAL,
    "ndtri": ["f->f", "d->d"] REAL,
    "log_ndtr": ["d->d", "f->f", "D->D", "F->F"] REAL,
    "xlogy": ["dd->d", "ff->f", "DD->D", "FF->F"] REAL2,
    "xlog1py": ["dd->d", "ff->f", "DD->D", "FF->F"] REAL2,
    "entr": ["f->f", "d->d"] REAL,
    "rel_entr": ["ff->f", "dd->d"] REAL2,
    "kl_div": ["ff->f", "dd->d"] REAL2,
    "huber": ["ff->f", "dd->d"] REAL2,
    "pseudo_huber": ["ff->f", "dd->d"] REAL2,
    "expm1": ["d->d", "f->f", "D->D", "F->F"] REAL,
    "exp2": ["d->d", "f->f"] REAL,
    "exp10": ["d->d", "f->f"] REAL,
    "log1p": ["d->d", "f->f", "D->D", "F->F"] REAL,
    "cbrt": ["d->d", "f->f"] REAL,
    "eval_chebyt": ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY,
    "eval_chebyu": ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY,
    "eval_hermite": ["ld->d"] DEGREE,
    "eval_hermitenorm": ["ld->d"] DEGREE,
    "eval_laguerre": ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY,
    "eval_legendre": ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY,
    "boxcox": ["ff->f", "dd->d"] REAL2,
    "inv_boxcox": ["ff->f", "dd->d"] REAL2,
    "boxcox1p": ["ff->f", "dd->d"] REAL2,
    "inv_boxcox1p": ["ff->f", "dd->d"] REAL2,
    // `zeta(x)` runs SciPy's `_riemann_zeta`, `zeta(x, q)` its `_zeta`.
    "zeta": ["d->d", "D->D", "f->f", "F->F"] REAL,
    "hurwitz_zeta": ["ff->f", "Ff->F", "dd->d", "Dd->D"] REAL2,
    "sindg": ["d->d", "f->f"] REAL,
    "cosdg": ["d->d", "f->f"] REAL,
    "cosm1": ["d->d", "f->f"] REAL,
    "exprel": ["d->d", "f->f"] REAL,
    "chdtr": ["ff->f", "dd->d"] REAL2,
    "chdtrc": ["ff->f", "dd->d"] REAL2,
    "pdtr": ["ff->f", "dd->d"] REAL2,
    "pdtrc": ["ff->f", "dd->d"] REAL2,
};

fn ufunc(routine: &str) -> Result<&'static Ufunc> {
    UFUNCS
        .iter()
        .find(|u| u.name == routine)
        .ok_or_else(|| Error::InvalidArgument(format!("special.{routine} is not a ufunc of torchbridge.special")))
}

/// SciPy's loop strings for a ufunc of this module (`scipy.special.<name>.types`;
/// `"zeta"` is SciPy's `_riemann_zeta`, `"hurwitz_zeta"` its `_zeta`).
pub fn ufunc_types(routine: &str) -> Option<&'static [&'static str]> {
    UFUNCS.iter().find(|u| u.name == routine).map(|u| u.types)
}

/// Every ufunc name [`ufunc_types`] knows.
pub fn ufunc_names() -> impl Iterator<Item = &'static str> {
    UFUNCS.iter().map(|u| u.name)
}

/// The loop `routine` runs for `operands`, or the error SciPy's refusal maps to:
/// [`Error::DtypeNotAccepted`] when no loop fits, [`Error::NotImplemented`] for
/// a complex loop (libtorch has no complex kernel for these routines).
pub fn loop_for(routine: &str, operands: &[Operand]) -> Result<Loop> {
    let ufunc = ufunc(routine)?;
    let has_complex_loops = ufunc.types.iter().any(|t| t.contains(['D', 'F']));
    let Some(chosen) = resolve_loop(ufunc.types, operands) else {
        let dtypes: Vec<DType> = operands.iter().map(|o| o.concrete()).collect();
        if let Some(&complex) = dtypes.iter().find(|d| d.is_complex()) {
            if has_complex_loops {
                return Err(complex_not_implemented(ufunc.qualified, complex));
            }
        }
        // Name the first argument that fits no loop in its position.
        let loops: Vec<Loop> = ufunc.types.iter().filter_map(|t| parse_loop(t)).collect();
        let offending = (0..operands.len())
            .find(|&i| !loops.iter().any(|l| l.inputs.get(i).is_some_and(|&to| fits(operands[i], to, false))))
            .map_or(dtypes[0], |i| dtypes[i]);
        return Err(Error::DtypeNotAccepted { routine: ufunc.qualified, dtype: offending, accepted: ufunc.accepts });
    };
    if chosen.is_complex() {
        let dtype = chosen.inputs.iter().copied().find(|d| d.is_complex()).unwrap_or(chosen.output);
        return Err(complex_not_implemented(ufunc.qualified, dtype));
    }
    Ok(chosen)
}

fn complex_not_implemented(routine: &str, dtype: DType) -> Error {
    Error::NotImplemented(format!(
        "{routine} on {dtype} input is not implemented (libtorch has no complex kernel for it)"
    ))
}

/// Casts `tensors` to the loop `routine` runs for `operands` (the Python layer
/// passes weak literals this way, so that the routine then finds that loop by
/// exact match). Returns the cast tensors.
pub fn cast_to_loop(routine: &str, tensors: &[&Tensor], operands: &[Operand]) -> Result<Vec<Tensor>> {
    let chosen = loop_for(routine, operands)?;
    tensors.iter().zip(&chosen.inputs).map(|(t, &dtype)| cast(t, dtype)).collect()
}

fn kind_of(dtype: DType) -> Result<Kind> {
    dtype.kind().ok_or_else(|| Error::InvalidArgument(format!("{dtype} has no libtorch kind")))
}

/// `t` as `dtype`; the same tensor (no copy) when it already is.
fn cast(t: &Tensor, dtype: DType) -> Result<Tensor> {
    if dlpack::dtype_of(t)? == dtype {
        Ok(t.shallow_clone())
    } else {
        Ok(t.f_to_kind(kind_of(dtype)?)?)
    }
}

/// Arguments of one ufunc call, ready to compute on: cast to the loop's input
/// dtypes (floating inputs to float64), on one device, broadcast to one shape.
struct Args {
    tensors: Vec<Tensor>,
    output: DType,
}

/// Resolves the loop of `routine` for `inputs` (arrays), casts, moves CPU
/// scalars to the other inputs' device and broadcasts.
fn prepare(routine: &str, inputs: &[&Tensor]) -> Result<Args> {
    let operands = inputs.iter().map(|t| dlpack::dtype_of(t).map(Operand::Array)).collect::<Result<Vec<_>>>()?;
    let chosen = loop_for(routine, &operands)?;
    let tensors = inputs
        .iter()
        .zip(&chosen.inputs)
        .map(|(t, &dtype)| cast(t, if dtype.is_float() { DType::Float64 } else { dtype }))
        .collect::<Result<Vec<_>>>()?;
    let tensors = broadcast(same_device(tensors)?)?;
    Ok(Args { tensors, output: chosen.output })
}

/// `result` in the loop's output dtype.
fn finish(result: Tensor, output: DType) -> Result<Tensor> {
    cast(&result, output)
}

/// Moves CPU tensors to the device of the others (a Python scalar beside a
/// CUDA array); two different accelerators are an error.
fn same_device(tensors: Vec<Tensor>) -> Result<Vec<Tensor>> {
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

/// NumPy's broadcasting of `shapes`, or NumPy's error message.
pub fn broadcast_shape(shapes: &[Vec<i64>]) -> Result<Vec<i64>> {
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

fn broadcast(tensors: Vec<Tensor>) -> Result<Vec<Tensor>> {
    if tensors.len() < 2 {
        return Ok(tensors);
    }
    let shape = broadcast_shape(&tensors.iter().map(|t| t.size()).collect::<Vec<_>>())?;
    tensors.into_iter().map(|t| if t.size() == shape { Ok(t) } else { Ok(t.f_expand(&shape, false)?) }).collect()
}

/// A unary ufunc: `f` computes on the float64 (or loop-typed) input.
fn unary(routine: &str, x: &Tensor, f: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let args = prepare(routine, &[x])?;
    finish(f(&args.tensors[0])?, args.output)
}

/// A binary ufunc: `f` computes on the broadcast float64 (or loop-typed) inputs.
fn binary(routine: &str, x: &Tensor, y: &Tensor, f: impl FnOnce(&Tensor, &Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let args = prepare(routine, &[x, y])?;
    finish(f(&args.tensors[0], &args.tensors[1])?, args.output)
}

// ===========================================================================
// Tensor helpers (all on float64 tensors unless said otherwise)
// ===========================================================================

fn full(like: &Tensor, value: f64) -> Result<Tensor> {
    Ok(like.f_full_like(value)?)
}

/// `yes` where `cond`, else `no`.
fn pick(cond: &Tensor, yes: &Tensor, no: &Tensor) -> Result<Tensor> {
    Ok(yes.f_where_self(cond, no)?)
}

/// `t` with `value` where `cond`.
fn fill(t: &Tensor, cond: &Tensor, value: f64) -> Result<Tensor> {
    Ok(t.f_masked_fill(cond, value)?)
}

fn and(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_and(b)?)
}

fn or(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_or(b)?)
}

fn not(a: &Tensor) -> Result<Tensor> {
    Ok(a.f_logical_not()?)
}

/// `x == floor(x)` (true for infinities).
fn is_integral(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_eq_tensor(&x.f_floor()?)?)
}

/// `log(1 + x)`: libtorch's `log1p` flushes subnormal `x` to 0, while
/// `log1p(x)` rounds to `x` itself below 2^-54.
fn log1p_f64(x: &Tensor) -> Result<Tensor> {
    pick(&x.f_abs()?.f_lt(2f64.powi(-54))?, x, &x.f_log1p()?)
}

/// NumPy's `sign`: nan for nan (libtorch's `sign(nan)` is 0).
fn sign(x: &Tensor) -> Result<Tensor> {
    fill(&x.f_sign()?, &x.f_isnan()?, f64::NAN)
}

/// `sum_k c[k] x^k` by Horner's rule.
fn horner(x: &Tensor, coeffs: &[f64]) -> Result<Tensor> {
    let (last, rest) = coeffs.split_last().expect("at least one coefficient");
    let mut acc = full(x, *last)?;
    for &c in rest.iter().rev() {
        acc = acc.f_mul(x)?.f_add_scalar(c)?;
    }
    Ok(acc)
}

/// Whether `(-1)^n` is negative, for integral `n` (exact for any magnitude).
fn is_odd(n: &Tensor) -> Result<Tensor> {
    Ok(n.f_fmod(2.0)?.f_abs()?.f_eq(1.0)?)
}

/// `sin(pi x)`, exactly 0 at integers and accurate for any |x|: the argument is
/// reduced exactly to `r = x - round(x)` in [-1/2, 1/2] first.
fn sinpi(x: &Tensor) -> Result<Tensor> {
    let n = x.f_round()?;
    let s = x.f_sub(&n)?.f_mul_scalar(PI)?.f_sin()?;
    pick(&is_odd(&n)?, &s.f_neg()?, &s)
}

/// Computes `f` only where `mask`, on the selected elements of `inputs` (all of
/// `out`'s shape), and puts the results into a copy of `out`. For branches that
/// are costly or only valid on part of the domain.
fn patch(
    out: Tensor,
    mask: &Tensor,
    inputs: &[&Tensor],
    f: impl FnOnce(&[Tensor]) -> Result<Tensor>,
) -> Result<Tensor> {
    let shape = out.size();
    let index = mask.f_reshape([-1])?.f_nonzero()?.f_reshape([-1])?;
    if index.size()[0] == 0 {
        return Ok(out);
    }
    let selected =
        inputs.iter().map(|t| Ok(t.f_reshape([-1])?.f_index_select(0, &index)?)).collect::<Result<Vec<_>>>()?;
    let values = f(&selected)?.f_to_kind(out.kind())?;
    Ok(out.f_reshape([-1])?.f_index_put(&[Some(index)], &values, false)?.f_reshape(&shape)?)
}

/// The error-free product of Dekker and Veltkamp: `x * c = hi + lo` exactly
/// (for |x| < 1e290), with `hi` the rounded product. `c` is split at compile
/// time by the caller into 26-bit halves.
fn two_product(x: &Tensor, c: f64) -> Result<(Tensor, Tensor)> {
    const SPLIT: f64 = 134_217_729.0; // 2^27 + 1
    let split = |v: f64| {
        let t = v * SPLIT;
        let hi = t - (t - v);
        (hi, v - hi)
    };
    let (c_hi, c_lo) = split(c);
    let hi = x.f_mul_scalar(c)?;
    let t = x.f_mul_scalar(SPLIT)?;
    let x_hi = t.f_sub(&t.f_sub(x)?)?;
    let x_lo = x.f_sub(&x_hi)?;
    let lo = x_hi
        .f_mul_scalar(c_hi)?
        .f_sub(&hi)?
        .f_add(&x_hi.f_mul_scalar(c_lo)?)?
        .f_add(&x_lo.f_mul_scalar(c_hi)?)?
        .f_add(&x_lo.f_mul_scalar(c_lo)?)?;
    Ok((hi, lo))
}

/// Like [`patch`], for several outputs computed together.
fn patch_all(
    outs: Vec<Tensor>,
    mask: &Tensor,
    inputs: &[&Tensor],
    f: impl FnOnce(&[Tensor]) -> Result<Vec<Tensor>>,
) -> Result<Vec<Tensor>> {
    let index = mask.f_reshape([-1])?.f_nonzero()?.f_reshape([-1])?;
    if index.size()[0] == 0 {
        return Ok(outs);
    }
    let selected =
        inputs.iter().map(|t| Ok(t.f_reshape([-1])?.f_index_select(0, &index)?)).collect::<Result<Vec<_>>>()?;
    let values = f(&selected)?;
    outs.into_iter()
        .zip(values)
        .map(|(out, v)| {
            let shape = out.size();
            let v = v.f_to_kind(out.kind())?;
            Ok(out.f_reshape([-1])?.f_index_put(&[Some(index.shallow_clone())], &v, false)?.f_reshape(&shape)?)
        })
        .collect()
}

// ===========================================================================
// Constants (the tables are generated with mpmath; see each doc comment)
// ===========================================================================

/// `sqrt(1/2) - FRAC_1_SQRT_2`: the rounding error of the double constant.
const FRAC_1_SQRT_2_ERR: f64 = -4.833_646_656_726_456_5e-17;
const SQRT_2PI: f64 = 2.506_628_274_631_000_7;
const EULER: f64 = 0.577_215_664_901_532_9;
/// The largest x with a finite Gamma(x).
const MAX_GAMMA_ARG: f64 = 171.624_376_956_302_7;
const DBL_MIN: f64 = f64::MIN_POSITIVE;

/// Stirling's series for the gamma function (DLMF 5.11.3):
/// `Gamma(x) ~ sqrt(2 pi) x^(x - 1/2) e^-x sum_k g_k x^-k`.
#[rustfmt::skip]
const STIRLING_GAMMA: [f64; 13] = [
    1.0, 8.3333333333333333e-2, 3.4722222222222222e-3, -2.6813271604938272e-3, -2.2947209362139918e-4,
    7.8403922172006663e-4, 6.9728137583658578e-5, -5.9216643735369388e-4, -5.1717909082605922e-5,
    8.3949872067208728e-4, 7.2048954160200106e-5, -1.9144384985654775e-3, -1.6251626278391582e-4,
];

/// `B_2k / (2k)` for the asymptotic series of digamma (DLMF 5.11.2), k = 1..9.
#[rustfmt::skip]
const DIGAMMA_ASYMPTOTIC: [f64; 10] = [
    0.0, 8.3333333333333333e-2, -8.3333333333333333e-3, 3.9682539682539683e-3, -4.1666666666666667e-3,
    7.5757575757575758e-3, -2.1092796092796093e-2, 8.3333333333333333e-2, -4.4325980392156863e-1,
    3.0539543302701197,
];

/// Taylor coefficients of `lgamma(1 + a)` about 0: `-gamma`, then
/// `(-1)^k zeta(k) / k` (DLMF 5.7.3), computed with mpmath.
#[rustfmt::skip]
const LGAMMA1P: [f64; 28] = [0.0, -5.7721566490153286e-1, 8.2246703342411322e-1, -4.0068563438653143e-1, 2.7058080842778455e-1, -2.0738555102867399e-1, 1.6955717699740819e-1, -1.4404989676884612e-1, 1.2550966952474304e-1, -1.1133426586956469e-1, 1.0009945751278181e-1, -9.0954017145829042e-2, 8.3353840546109004e-2, -7.6932516411352191e-2, 7.1432946295361336e-2, -6.6668705882420468e-2, 6.2500955141213041e-2, -5.8823978658684582e-2, 5.5555767627403611e-2, -5.2631679379616661e-2, 5.0000047698101694e-2, -4.7619070330142228e-2, 4.5454556293204669e-2, -4.3478266053040259e-2, 4.166666915034121e-2, -4.0000001192140141e-2, 3.8461539034675186e-2, -3.7037037312989326e-2];

/// `(n-1)!` for n = 1..=171, correctly rounded (Python's exact integers, then
/// one rounding): Gamma at the positive integers.
#[rustfmt::skip]
const FACTORIALS: [f64; 171] = [
    1.0, 1.0, 2.0, 6.0, 24.0, 120.0,
    720.0, 5040.0, 40320.0, 362880.0, 3628800.0, 39916800.0,
    479001600.0, 6227020800.0, 87178291200.0, 1307674368000.0, 20922789888000.0, 355687428096000.0,
    6402373705728000.0, 1.21645100408832e+17, 2.43290200817664e+18, 5.109094217170944e+19, 1.1240007277776077e+21, 2.585201673888498e+22,
    6.204484017332394e+23, 1.5511210043330986e+25, 4.0329146112660565e+26, 1.0888869450418352e+28, 3.0488834461171387e+29, 8.841761993739702e+30,
    2.6525285981219107e+32, 8.222838654177922e+33, 2.631308369336935e+35, 8.683317618811886e+36, 2.9523279903960416e+38, 1.0333147966386145e+40,
    3.7199332678990125e+41, 1.3763753091226346e+43, 5.230226174666011e+44, 2.0397882081197444e+46, 8.159152832478977e+47, 3.345252661316381e+49,
    1.40500611775288e+51, 6.041526306337383e+52, 2.658271574788449e+54, 1.1962222086548019e+56, 5.502622159812089e+57, 2.5862324151116818e+59,
    1.2413915592536073e+61, 6.082818640342675e+62, 3.0414093201713376e+64, 1.5511187532873822e+66, 8.065817517094388e+67, 4.2748832840600255e+69,
    2.308436973392414e+71, 1.2696403353658276e+73, 7.109985878048635e+74, 4.0526919504877214e+76, 2.3505613312828785e+78, 1.3868311854568984e+80,
    8.32098711274139e+81, 5.075802138772248e+83, 3.146997326038794e+85, 1.98260831540444e+87, 1.2688693218588417e+89, 8.247650592082472e+90,
    5.443449390774431e+92, 3.647111091818868e+94, 2.4800355424368305e+96, 1.711224524281413e+98, 1.1978571669969892e+100, 8.504785885678623e+101,
    6.1234458376886085e+103, 4.4701154615126844e+105, 3.307885441519386e+107, 2.48091408113954e+109, 1.8854947016660504e+111, 1.4518309202828587e+113,
    1.1324281178206297e+115, 8.946182130782976e+116, 7.156945704626381e+118, 5.797126020747368e+120, 4.753643337012842e+122, 3.945523969720659e+124,
    3.314240134565353e+126, 2.81710411438055e+128, 2.4227095383672734e+130, 2.107757298379528e+132, 1.8548264225739844e+134, 1.650795516090846e+136,
    1.4857159644817615e+138, 1.352001527678403e+140, 1.2438414054641308e+142, 1.1567725070816416e+144, 1.087366156656743e+146, 1.032997848823906e+148,
    9.916779348709496e+149, 9.619275968248212e+151, 9.426890448883248e+153, 9.332621544394415e+155, 9.332621544394415e+157, 9.42594775983836e+159,
    9.614466715035127e+161, 9.90290071648618e+163, 1.0299016745145628e+166, 1.081396758240291e+168, 1.1462805637347084e+170, 1.226520203196138e+172,
    1.324641819451829e+174, 1.4438595832024937e+176, 1.588245541522743e+178, 1.7629525510902446e+180, 1.974506857221074e+182, 2.2311927486598138e+184,
    2.5435597334721877e+186, 2.925093693493016e+188, 3.393108684451898e+190, 3.969937160808721e+192, 4.684525849754291e+194, 5.574585761207606e+196,
    6.689502913449127e+198, 8.094298525273444e+200, 9.875044200833601e+202, 1.214630436702533e+205, 1.506141741511141e+207, 1.882677176888926e+209,
    2.372173242880047e+211, 3.0126600184576594e+213, 3.856204823625804e+215, 4.974504222477287e+217, 6.466855489220474e+219, 8.47158069087882e+221,
    1.1182486511960043e+224, 1.4872707060906857e+226, 1.9929427461615188e+228, 2.6904727073180504e+230, 3.659042881952549e+232, 5.012888748274992e+234,
    6.917786472619489e+236, 9.615723196941089e+238, 1.3462012475717526e+241, 1.898143759076171e+243, 2.695364137888163e+245, 3.854370717180073e+247,
    5.5502938327393044e+249, 8.047926057471992e+251, 1.1749972043909107e+254, 1.727245890454639e+256, 2.5563239178728654e+258, 3.80892263763057e+260,
    5.713383956445855e+262, 8.62720977423324e+264, 1.3113358856834524e+267, 2.0063439050956823e+269, 3.0897696138473508e+271, 4.789142901463394e+273,
    7.471062926282894e+275, 1.1729568794264145e+278, 1.853271869493735e+280, 2.9467022724950384e+282, 4.7147236359920616e+284, 7.590705053947219e+286,
    1.2296942187394494e+289, 2.0044015765453026e+291, 3.287218585534296e+293, 5.423910666131589e+295, 9.003691705778438e+297, 1.503616514864999e+300,
    2.5260757449731984e+302, 4.269068009004705e+304, 7.257415615307999e+306,
];
/// Temme's coefficients `d[k][n]` of the uniform asymptotic expansion of the
/// incomplete gamma function (DLMF 8.12.8-8.12.10), computed for torchbridge with
/// mpmath at 100 digits: the series of `1/(lambda - 1) - 1/eta` and the recursion
/// `c_k = c_{k-1}'(eta)/eta + (-1)^k g_k/(lambda - 1)` with `g_k` from Stirling's series.
#[rustfmt::skip]
const TEMME: [[f64; 25]; 25] = [
    [-3.3333333333333331e-1, 8.3333333333333329e-2, -1.4814814814814815e-2, 1.1574074074074073e-3, 3.5273368606701942e-4, -1.787551440329218e-4, 3.9192631785224377e-5, -2.1854485106799924e-6, -1.85406221071516e-6, 8.2967113409530865e-7, -1.7665952736826078e-7, 6.7078535434014984e-9, 1.0261809784240309e-8, -4.3820360184533529e-9, 9.1476995822367902e-10, -2.5514193994946251e-11, -5.8307721325504256e-11, 2.4361948020667415e-11, -5.0276692801141755e-12, 1.1004392031956135e-13, 3.3717632624009856e-13, -1.3923887224181621e-13, 2.8534893807047445e-14, -5.1391118342425723e-16, -1.9752288294349442e-15],
    [-1.8518518518518519e-3, -3.472222222222222e-3, 2.6455026455026454e-3, -9.9022633744855963e-4, 2.0576131687242798e-4, -4.018775720164609e-7, -1.8098550334489977e-5, 7.6491609160811098e-6, -1.6120900894563446e-6, 4.647127802807434e-9, 1.3786334469157209e-7, -5.7525456035177047e-8, 1.1951628599778148e-8, -1.7543241719747647e-11, -1.0091543710600413e-9, 4.1627929918425828e-10, -8.5639070264929801e-11, 6.0672151016047582e-14, 7.1624989648114856e-12, -2.9331866437714371e-12, 5.9966963656836885e-13, -2.1671786527323313e-16, -4.9783399723692617e-14, 2.0291628823713425e-14, -4.1312557138106099e-15],
    [4.1335978835978834e-3, -2.6813271604938273e-3, 7.716049382716049e-4, 2.0093878600823047e-6, -1.0736653226365161e-4, 5.2923448829120125e-5, -1.2760635188618728e-5, 3.4235787340961378e-8, 1.3721957309062932e-6, -6.2989921383800548e-7, 1.4280614206064242e-7, -2.0477098421990866e-10, -1.409252991086752e-8, 6.2289740849220218e-9, -1.3670488396617112e-9, 9.428356159014678e-13, 1.2872252400089318e-10, -5.5645956134363323e-11, 1.1975935546366981e-11, -4.1689782251838634e-15, -1.0940640427884595e-12, 4.6622399463901356e-13, -9.9051057639069066e-14, 1.8931876768373515e-17, 8.8592218725911265e-15],
    [6.4943415637860077e-4, 2.2947209362139917e-4, -4.691894943952557e-4, 2.6772063206283885e-4, -7.5618016718839766e-5, -2.3965051138672968e-7, 1.1082654115347302e-5, -5.6749528269915965e-6, 1.4230900732435883e-6, -2.7861080291528143e-11, -1.6958404091930278e-7, 8.0994649053880827e-8, -1.9111168485973655e-8, 2.3928620439808118e-12, 2.0620131815488797e-9, -9.460496661855133e-10, 2.1541049775774907e-10, -1.388823336813903e-14, -2.1894761681963938e-11, 9.7909989511716844e-12, -2.1782191880180961e-12, 6.2088195734079008e-17, 2.1269783632797371e-13, -9.344688791517433e-14, 2.0453671226782849e-14],
    [-8.6188829091671173e-4, 7.8403922172006662e-4, -2.9907248030319018e-4, -1.4638452578843418e-6, 6.6414982154651219e-5, -3.9683650471794347e-5, 1.1375726970678419e-5, 2.5074972262375329e-10, -1.6954149536558305e-6, 8.9075075322053094e-7, -2.2929348340008049e-7, 2.9567941375440492e-11, 2.8865829742708783e-8, -1.4189739437803219e-8, 3.4463580499464896e-9, -2.3024517174528067e-13, -3.9409233028046403e-10, 1.8602338968504501e-10, -4.3563230050566177e-11, 1.278600101629623e-15, 4.6792750266579197e-12, -2.149246470613483e-12, 4.908815614809652e-13, -6.3385914848915601e-18, -5.0453320690800942e-14],
    [-3.3679855336635813e-4, -6.9728137583658585e-5, 2.7727532449593918e-4, -1.9932570516188847e-4, 6.797780477937208e-5, 1.4190629206439671e-7, -1.3594048189768693e-5, 8.018470256334202e-6, -2.2914811765080952e-6, -3.2524735512984538e-10, 3.4652846491085265e-7, -1.8447187191171344e-7, 4.8240967037894184e-8, -1.7989466721743514e-14, -6.3061945000135231e-9, 3.1624176287745678e-9, -7.8409242536974288e-10, 5.1926791652540408e-15, 9.3589442423067842e-11, -4.513426216163278e-11, 1.0799129993116828e-11, -3.661886712685252e-17, -1.2109020690551549e-12, 5.6807435849905644e-13, -1.3249659916340829e-13],
    [5.3130793646399225e-4, -5.9216643735369393e-4, 2.708782096718045e-4, 7.9023532326603281e-7, -8.1539693675619691e-5, 5.6116827531062497e-5, -1.8329116582843375e-5, -3.0796134506033047e-9, 3.4651553688036091e-6, -2.0291327396058603e-6, 5.7887928631490039e-7, 2.3386306738266568e-13, -8.828600746330484e-8, 4.7435958880408125e-8, -1.2545415020710382e-8, 8.6496488580102926e-14, 1.6846058979264062e-9, -8.5754928235775943e-10, 2.1598224929232125e-10, -7.6132305204761534e-16, -2.6639822008536144e-11, 1.3065700536611057e-11, -3.1799163902367977e-12, 4.7109761213674312e-18, 3.6902800842763465e-13],
    [3.4436760689237765e-4, 5.1717909082605919e-5, -3.3493161081142234e-4, 2.8126951547632369e-4, -1.0976582244684731e-4, -1.2741009095484485e-7, 2.7744451511563645e-5, -1.8263488805711332e-5, 5.7876949497350525e-6, 4.9387589339362701e-10, -1.0595367014026043e-6, 6.1667143761104078e-7, -1.7562973359060463e-7, -1.2974473287015439e-12, 2.6954236062889659e-8, -1.4578352908731272e-8, 3.887645959386175e-9, -3.8810022510194121e-17, -5.3279941738772864e-10, 2.7437977643314844e-10, -6.995796092070568e-11, 2.5899863874868481e-17, 8.8566890996696389e-12, -4.4031688158713109e-12, 1.0865561947091654e-12],
    [-6.5262391859530937e-4, 8.3949872067208726e-4, -4.3829709854172099e-4, -6.9690914584205523e-7, 1.6644846642067547e-4, -1.2783517679769218e-4, 4.6299532636913042e-5, 4.557909867922708e-9, -1.0595271125805195e-5, 6.7833429048651668e-6, -2.1075476666258803e-6, -1.7213731432817144e-11, 3.7735877416110978e-7, -2.1867506700122867e-7, 6.2202288040189267e-8, 6.5977038267330002e-16, -9.5903864974256859e-9, 5.2132144922808074e-9, -1.3991589583935709e-9, 5.3820589990605749e-16, 1.9484714275467745e-10, -1.0127287556389682e-10, 2.6077347197254926e-11, -5.0904186999932991e-18, -3.3721464474854593e-12],
    [-5.9676129019274626e-4, -7.2048954160200109e-5, 6.782308837667328e-4, -6.401475260262758e-4, 2.7750107634328704e-4, 1.8197008380465151e-7, -8.4795071170685031e-5, 6.1051920825015314e-5, -2.1073920183404862e-5, -8.8585890141255993e-10, 4.5284535953805374e-6, -2.8427815022504407e-6, 8.7082341778646408e-7, 3.6886101871706966e-12, -1.5344695190702061e-7, 8.8624667787906948e-8, -2.5184812301826817e-8, -1.0225912098215092e-14, 3.8969470758154778e-9, -2.1267304792235634e-9, 5.7370135528051383e-10, -1.8877498501697116e-19, -8.0931538694657872e-11, 4.23827232834492e-11, -1.1002224534207727e-11],
    [1.3324454494800656e-3, -1.9144384985654776e-3, 1.1089369134596636e-3, 9.9324041226422995e-7, -5.0874501293093194e-4, 4.2735056665392886e-4, -1.68588537679108e-4, -8.1301893922785004e-9, 4.5284402370562144e-5, -3.1270536747817339e-5, 1.0449868285303381e-5, 4.8435226265680926e-11, -2.1482565873456259e-6, 1.329369701097492e-6, -4.029569309210103e-7, -1.7567877666323291e-13, 7.0145043163668253e-8, -4.0407877349994832e-8, 1.1474026743371962e-8, 3.9642746853563942e-18, -1.7804938269892715e-9, 9.7480262548731649e-10, -2.6405338676507616e-10, 5.7948751634037602e-18, 3.7647749553543838e-11],
    [1.579727660730835e-3, 1.6251626278391583e-4, -2.0633421035543276e-3, 2.1389686185689098e-3, -1.0108559391263003e-3, -3.9912705529919201e-7, 3.6235025084764691e-4, -2.8143901463712157e-4, 1.0449513336495887e-4, 2.1211418491830298e-9, -2.5779417251947842e-5, 1.7281818956040464e-5, -5.6413773872904282e-6, -1.1024320105776174e-11, 1.1223224418895176e-6, -6.8693396379526738e-7, 2.0653236975414888e-7, 4.6714772409838506e-14, -3.5609886164949055e-8, 2.0470855345905963e-8, -5.8091738633283357e-9, -1.3328212875828647e-16, 9.0354604391335135e-10, -4.9598782517330839e-10, 1.3481607129399748e-10],
    [-4.0725121195140162e-3, 6.4033628338080696e-3, -4.041016108167662e-3, -2.1837328028662332e-6, 2.174044180125464e-3, -1.9700440518418891e-3, 8.3595469747962459e-4, 1.9445447567109655e-8, -2.5779387120421698e-4, 1.9009987368139304e-4, -6.7696499937438964e-5, -1.4440629666426571e-10, 1.5712512518742267e-5, -1.0304008744776892e-5, 3.3045177674013869e-6, 7.9829760242325708e-13, -6.4097794149312999e-7, 3.8894624761300054e-7, -1.161834764494887e-7, -2.8168086305964423e-15, 1.9878012911297094e-8, -1.1407719956357511e-8, 3.2355857064185554e-9, 4.1759462466484876e-20, -5.0423112718105821e-10],
    [-5.9475779383993e-3, -5.4016476789260452e-4, 8.7910413550767903e-3, -9.8576315587856119e-3, 5.0134695031021541e-3, 1.2807521786221875e-6, -2.0626019342754685e-3, 1.7109128573523059e-3, -6.7695312714133803e-4, -6.9011545676562137e-9, 1.8855128143995903e-4, -1.339521566349197e-4, 4.6263183033528039e-5, 4.0034230613321352e-11, -1.0255652921494033e-5, 6.6120863727976508e-6, -2.0913022027253007e-6, -2.0951775649603821e-13, 3.9756029041993248e-7, -2.3956211978815888e-7, 7.1182883382145858e-8, 8.9255748717132516e-16, -1.2101547235064675e-8, 6.9350618248334389e-9, -1.9661464453856089e-9],
    [1.7402027787522711e-2, -2.9527880945699123e-2, 2.0045875571402798e-2, 7.0289515966903405e-6, -1.2375421071343148e-2, 1.1976293444235253e-2, -5.4156038466518525e-3, -6.3290893396418622e-8, 1.8855118129005065e-3, -1.473473274825001e-3, 5.5515810097708383e-4, 5.2406834412550662e-10, -1.4357913535784837e-4, 9.9181293224943293e-5, -3.3460834749478309e-5, -3.5755837291098967e-12, 7.1560851960630075e-6, -4.5516802628155527e-6, 1.4236576649271474e-6, 1.8803149079275236e-14, -2.6623403898929208e-7, 1.5950642189595716e-7, -4.7187514673841069e-8, -6.5107812648216942e-17, 7.9795091026746769e-9],
    [3.0249124160905892e-2, 2.4817436002649977e-3, -4.9939134373457025e-2, 5.9915643009307872e-2, -3.248320760162339e-2, -5.7212968652103442e-6, 1.5085251778569354e-2, -1.3261324005088445e-2, 5.5515262632426145e-3, 3.0263182257030013e-8, -1.7229548406756724e-3, 1.2893570099929638e-3, -4.6845138348319875e-4, -1.8302599378930447e-10, 1.1449739014822654e-4, -7.7378565221244473e-5, 2.5625836246985202e-5, 1.0766165332658074e-12, -5.3246809282422619e-6, 3.3496348630644643e-6, -1.038125312868401e-6, -5.6089085334787489e-15, 1.9150821930676722e-7, -1.1418365800203776e-7, 3.3654425209152331e-8],
    [-9.9051020880159046e-2, 1.7954011706123485e-1, -1.2989606383463778e-1, -3.1478872752284355e-5, 9.0510635276848134e-2, -9.2828824411184396e-2, 4.441211283987781e-2, 2.7779236316835886e-7, -1.7229543805449696e-2, 1.4182925050891573e-2, -5.6214161633747336e-3, -2.3959850918638095e-9, 1.6029634366079909e-3, -1.1606784674435774e-3, 4.1001337768153875e-4, 1.8365800753181603e-11, -9.5844256563655899e-5, 6.3643062337764711e-5, -2.0762506244890635e-5, -1.1806017999805488e-13, 4.2131808239120937e-6, -2.6262241337013133e-6, 8.077062049488396e-7, 5.9964096905633376e-16, -1.47297373744462e-7],
    [-1.9994542198219728e-1, -1.5056113040026424e-2, 3.6470239469348487e-1, -4.6435192311733547e-1, 2.6640934719197895e-1, 3.4038266027147192e-5, -1.3784338709329624e-1, 1.276467178337056e-1, -5.6213828755200985e-2, -1.7531508854830108e-7, 1.9235592956768112e-2, -1.5088821281095314e-2, 5.7401854451350123e-3, 1.0622382710173866e-9, -1.5335082692563998e-3, 1.0819320643228215e-3, -3.7372510193945632e-4, -6.617090419433389e-12, 8.4263617380910205e-5, -5.5150706827484874e-5, 1.7769536448337797e-5, 3.8790705710065682e-14, -3.5351369749902462e-6, 2.1865832127706725e-6, -6.6812849492405421e-7],
    [7.2438608504029434e-1, -1.3918010932653375, 1.0654143352413967, 1.8761738689502581e-4, -8.2705501176152696e-1, 8.9352433347828419e-1, -4.4971003995291337e-1, -1.6107401567546651e-6, 1.9235590165271091e-1, -1.659770216004261e-1, 6.8882222681814334e-2, 1.3910091724431419e-8, -2.1469115615086631e-2, 1.6228980898865892e-2, -5.9796016172584216e-3, -1.1287468171928069e-10, 1.516745111978496e-3, -1.0478634293554165e-3, 3.5539072889105875e-4, 8.162616536150783e-13, -7.7773013444708849e-5, 5.0291413891629069e-5, -1.6035083877747675e-5, -5.0260094840152135e-15, 3.1369106037108428e-6],
    [1.6668949727276812, 1.1654627659946321e-1, -3.3288393225018904, 4.4692325482864037, -2.6977693045875806, -2.6006678598910609e-4, 1.5389017615694538, -1.4937962361134611, 6.888196463323315e-1, 1.3077482004532885e-6, -2.5762963325596289e-1, 2.1097676102125451e-1, -8.3714408359219825e-2, -7.7920427470006737e-9, 2.4267923064833764e-2, -1.7813678334552763e-2, 6.3970330388863073e-3, 4.9415957307924725e-11, -1.5554602758916928e-3, 1.0561196918773697e-3, -3.5277184484116647e-4, -3.0939103274354235e-13, 7.5285854528775128e-5, -4.8186515801973001e-5, 1.5227272261135095e-5],
    [-6.6188298861372932, 1.3397985455142589e+1, -1.0789350606845145e+1, -1.4352254537875018e-3, 9.2333694596189808, -1.0456552819547769e+1, 5.5105526029033474, 1.2024439690699191e-5, -2.5762961164755818, 2.3207442745387179, -1.0045728797216278, -1.0207833106546672e-7, 3.3975092171169696e-1, -2.6720517450758147e-1, 1.0235252851556788e-1, 8.430448585452676e-10, -2.799828495925492e-2, 2.0066274142830732e-2, -7.0554368962373734e-3, -6.5100368967900423e-12, 1.6562887995937561e-3, -1.1082898634291512e-3, 3.6545453426391661e-4, 4.5041940828204548e-14, -7.6340113005579318e-5],
    [-1.7112706061976095e+1, -1.1208044642899115, 3.7131966511885445e+1, -5.229827102534896e+1, 3.3058589696624615e+1, 2.4791298976198995e-3, -2.0610894034115262e+1, 2.0886727751455822e+1, -1.0045703956517746e+1, -1.2238783428880736e-5, 4.0770134274221421, -3.4736673584702831, 1.4329352617303721, 7.1356127717327988e-8, -4.4797257160415332e-1, 3.4112666076996123e-1, -1.2699786335106672e-1, -4.5009172627885263e-10, 3.3125776059235765e-2, -2.3274087133486544e-2, 8.0399997492886822e-3, 2.9014850241350154e-12, -1.8321627125162138e-3, 1.2108140743081241e-3, -3.9487195597625305e-4],
    [7.389033153567425e+1, -1.5680141270402274e+2, 1.3221775427591641e+2, 1.3692876877323932e-2, -1.2366496885920151e+2, 1.4620689391062729e+2, -8.0365587724865293e+1, -1.1259851130717249e-4, 4.0770132196180214e+1, -3.8210340013274006e+1, 1.7195222942763678e+1, 9.3514785252251112e-7, -6.2716159909566649, 5.1168999066380128, -2.0319658125917894, -7.6801557692727896e-9, 5.9626396900089218e-1, -4.4220765550893937e-1, 1.6079999498013861e-1, 6.1054523223997452e-11, -4.0307579674978791e-2, 2.7848723708930791e-2, -9.4769269433980906e-3, -4.5311013227974904e-13, 2.1053350936332208e-3],
    [2.1216837098382521e+2, 1.3107863022633866e+1, -4.969828593287175e+2, 7.3121595266969211e+2, -4.8213821720890815e+2, -2.8817248691623405e-2, 3.2616720302947323e+2, -3.4389340280087987e+2, 1.719519387080629e+2, 1.4038023228364068e-4, -7.5259419591943427e+1, 6.6519699838095079e+1, -2.8447519767218779e+1, -8.0231177475248858e-7, 9.5402236474514961, -7.5175301476526304, 2.8943999004997618, 4.9800238071185723e-9, -8.0615159428792149e-1, 5.8482319790480164e-1, -2.0849239270188827e-1, -3.2254384913265941e-11, 5.0528042251671609e-2, -3.441205280628807e-2, 1.1560069800937042e-2],
    [-9.8959643098322363e+2, 2.1925555360905232e+3, -1.9283586782723344e+3, -1.5925738121579511e-1, 1.9569985945919991e+3, -2.4072514765082169e+3, 1.3756149959328543e+3, 1.2920686502737788e-3, -7.5259417161664078e+2, 7.3171668734383024e+2, -3.4137023489099647e+2, -1.0517978697205148e-5, 1.3356313092981054e+2, -1.1276295215735033e+2, 4.631039839600551e+1, 8.4994841281034395e-8, -1.4510728696418298e+1, 1.1111640759871898e+1, -4.1698478539718637, -6.7878452381260726e-10, 1.1116169295323557, -7.9147721454280051e-1, 2.7744167522211499e-1, 5.226168222780974e-12, -6.5314399924991162e-2],
];
/// Taylor coefficients of digamma about 1.4616321449683622 (the double nearest a zero):
/// `psi(r)` then `(-1)^(n+1) zeta(n+1, r)`, computed with mpmath.
#[rustfmt::skip]
const DIGAMMA_POS: [f64; 30] = [-9.2412655217294275e-17, 9.6767224544762125e-1, -4.4276316898359218e-1, 2.5849976095565107e-1, -1.6394270544240658e-1, 1.0782405069126241e-1, -7.2199561256454744e-2, 4.8804288164143133e-2, -3.3161126474847379e-2, 2.2597648232218119e-2, -1.542476590494897e-2, 1.0538791616612184e-2, -7.2045343863568744e-3, 4.926781395729858e-3, -3.3698016554393314e-3, 2.3051263267349302e-3, -1.576936771430199e-3, 1.0788252019162978e-3, -7.3807093899600605e-4, 5.049532658346027e-4, -3.4546802510630817e-4, 2.3635601564027087e-4, -1.6170622091974828e-4, 1.1063372768747428e-4, -7.5691795821950783e-5, 5.1785757952220897e-5, -3.5430070947659669e-5, 2.4240066118601362e-5, -1.6584242271854165e-5, 1.1346384584663872e-5];
const DIGAMMA_POS_ROOT: f64 = 1.4616321449683622;
/// Taylor coefficients of digamma about -0.5040830082644554 (the double nearest a zero):
/// `psi(r)` then `(-1)^(n+1) zeta(n+1, r)`, computed with mpmath.
#[rustfmt::skip]
const DIGAMMA_NEG: [f64; 30] = [7.2897639029768949e-17, 8.9397985587921345, -8.0934546253064991e-1, 3.2258572064915506e+1, -2.7610116487908229, 1.2827342343090902e+2, -1.4706721735530331e+1, 5.1327046295628616e+2, -7.537700066344616e+1, 2.0555357119463315e+3, -3.6857835038321839e+2, 8.2346670992030684e+3, -1.7433646088673593e+3, 3.2997785655255046e+4, -8.0518181553634813e+3, 1.3226295480834589e+5, -3.6529945969485572e+4, 5.3028039124201759e+5, -1.6345179342700221e+5, 2.126602372596875e+6, -7.2331888618042908e+5, 8.5306048785439822e+6, -3.1721313155744699e+6, 3.4228316695801115e+7, -1.380748199726386e+7, 1.3737343587411496e+8, -5.9721085411294179e+7, 5.5148125185854488e+8, -2.569150937987531e+8, 2.2144645680139103e+9];
const DIGAMMA_NEG_ROOT: f64 = -0.5040830082644554;
/// Borwein's weights `(-1)^k (d_k - d_n) / d_n` for n = 24 (Borwein 1991,
/// algorithm 2): `zeta(s) = -sum_k w_k (k+1)^-s / (1 - 2^(1-s))`, error below 1e-17.
#[rustfmt::skip]
const BORWEIN: [f64; 24] = [-1.0, 9.9999999999999902e-1, -9.9999999999981204e-1, 9.9999999998555167e-1, -9.999999994080065e-1, 9.999999850335489e-1, -9.9999974502366604e-1, 9.9999689655472651e-1, -9.9997187750254101e-1, 9.9980442972843672e-1, -9.9893193869494596e-1, 9.9533621807207494e-1, -9.8348076239521759e-1, 9.5196348945735682e-1, -8.8409295990333919e-1, 7.6551456344114746e-1, -5.9768788135151321e-1, 4.0622785187314258e-1, -2.3178649168173823e-1, 1.0672469148761619e-1, -3.7780365739574554e-2, 9.59406764049133e-3, -1.5493525382159912e-3, 1.1918096447815317e-4];

// ===========================================================================
// Error function family and the normal distribution
// ===========================================================================

/// The error function, `scipy.special.erf` (real input; float32 in float32).
pub fn erf(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.erf", x, true)?.f_erf()?)
}

/// The complementary error function `1 - erf(x)`, accurate in the upper tail.
pub fn erfc(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.erfc", x, true)?.f_erfc()?)
}

/// The scaled complementary error function `exp(x^2) erfc(x)`, `scipy.special.erfcx`
/// (libtorch's kernel, which matches SciPy's to the last bit on our tests).
pub fn erfcx(x: &Tensor) -> Result<Tensor> {
    unary("erfcx", x, |x| Ok(x.f_special_erfcx()?))
}

/// The inverse error function on [-1, 1], `scipy.special.erfinv`: nan outside,
/// `±inf` at `±1` (libtorch's kernel, relative error below 1e-15 up to ±1).
pub fn erfinv(x: &Tensor) -> Result<Tensor> {
    // `+ 0` turns libtorch's `erfinv(-0.0) = -0.0` into SciPy's `0.0`
    unary("erfinv", x, |x| Ok(x.f_erfinv()?.f_add_scalar(0.0)?))
}

/// The inverse complementary error function on [0, 2], `scipy.special.erfcinv`:
/// `-ndtri(y/2) / sqrt(2)`, as SciPy computes it, which keeps full relative
/// accuracy for tiny `y` (26.2 at 1e-300).
pub fn erfcinv(y: &Tensor) -> Result<Tensor> {
    unary("erfcinv", y, |y| {
        let out = y.f_mul_scalar(0.5)?.f_special_ndtri()?.f_mul_scalar(-FRAC_1_SQRT_2)?;
        fill(&out, &y.f_lt(0.0)?, f64::NAN) // -5e-324 halves to -0.0
    })
}

/// `x / sqrt(2)` as an unevaluated sum `hi + lo`: `hi` is the rounded
/// `x * FRAC_1_SQRT_2` (what SciPy uses) and `lo` its error, including the
/// constant's own rounding. `lo` is 0 where |x| >= 1e290 (no correction needed).
fn over_sqrt2(x: &Tensor) -> Result<(Tensor, Tensor)> {
    let (hi, lo) = two_product(x, FRAC_1_SQRT_2)?;
    let lo = lo.f_add(&x.f_mul_scalar(FRAC_1_SQRT_2_ERR)?)?;
    let lo = fill(&lo, &not(&x.f_abs()?.f_lt(1e290)?)?, 0.0)?;
    Ok((hi, lo))
}

/// `erfc(z + dz)` for `z >= 0` and a residual `|dz| << ulp(z)`, to first order:
/// `erfc(z) (1 - dz 2 / (sqrt(pi) erfcx(z)))`.
fn erfc_corrected(z: &Tensor, dz: &Tensor) -> Result<Tensor> {
    let slope = z.f_special_erfcx()?.f_reciprocal()?.f_mul_scalar(2.0 / PI.sqrt())?;
    let factor = dz.f_mul(&slope)?.f_neg()?.f_add_scalar(1.0)?;
    let factor = fill(&factor, &not(&factor.f_isfinite()?)?, 1.0)?;
    Ok(z.f_erfc()?.f_mul(&factor)?)
}

/// The standard normal CDF, float64 in and out.
///
/// libtorch's `ndtr` is `0.5 (1 + erf(x / sqrt 2))`, which loses everything in
/// the lower tail (0 from x = -9). This is SciPy's formula, `0.5 erfc(-x/sqrt 2)`
/// for |x| > 1, with one more step SciPy does not take: the rounding error of
/// `x / sqrt 2` (up to `2 t^2 eps` relative in the tail, 1.5e-13 at x = -37) is
/// corrected to first order, so the tail is right to a few ulp.
fn ndtr_f64(x: &Tensor) -> Result<Tensor> {
    let (t, d) = over_sqrt2(x)?;
    let z = t.f_abs()?;
    let dz = pick(&t.f_lt(0.0)?, &d.f_neg()?, &d)?;
    let middle = t.f_erf()?.f_mul_scalar(0.5)?.f_add_scalar(0.5)?;
    let tail = erfc_corrected(&z, &dz)?.f_mul_scalar(0.5)?;
    let upper = tail.f_neg()?.f_add_scalar(1.0)?;
    let outer = pick(&t.f_gt(0.0)?, &upper, &tail)?;
    pick(&z.f_lt(FRAC_1_SQRT_2)?, &middle, &outer)
}

/// The standard normal CDF, `scipy.special.ndtr` (see the module notes: right
/// in the lower tail, 1.1e-19 at x = -9, where libtorch's `ndtr` gives 0).
pub fn ndtr(x: &Tensor) -> Result<Tensor> {
    unary("ndtr", x, ndtr_f64)
}

/// The inverse of the standard normal CDF, `scipy.special.ndtri` (libtorch's kernel).
pub fn ndtri(p: &Tensor) -> Result<Tensor> {
    unary("ndtri", p, |p| Ok(p.f_special_ndtri()?))
}

/// `log(ndtr(x))`, `scipy.special.log_ndtr`: `log(erfcx(-x/sqrt 2)/2) - x^2/2`
/// below -1 (with `x^2/2` as `0.5 x x`, one rounding instead of two), and
/// `log1p(-ndtr(-x))` above, with the corrected tail of [`ndtr`] (libtorch's
/// `log_ndtr` loses 1e-13 relative from x = 5 on).
pub fn log_ndtr(x: &Tensor) -> Result<Tensor> {
    unary("log_ndtr", x, |x| {
        let t = x.f_mul_scalar(FRAC_1_SQRT_2)?;
        let lower = t.f_neg()?.f_special_erfcx()?.f_mul_scalar(0.5)?.f_log()?.f_sub(&x.f_mul(x)?.f_mul_scalar(0.5)?)?;
        let upper = log1p_f64(&ndtr_f64(&x.f_neg()?)?.f_neg()?)?;
        pick(&x.f_lt(-1.0)?, &lower, &upper)
    })
}

// ===========================================================================
// Logistic functions
// ===========================================================================

/// The logistic sigmoid `1 / (1 + exp(-x))`, `scipy.special.expit`.
pub fn expit(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.expit", x, false)?.f_sigmoid()?)
}

/// The logit `log(p / (1 - p))`, `scipy.special.logit`; nan outside [0, 1].
pub fn logit(x: &Tensor) -> Result<Tensor> {
    Ok(scipy_float_input("special.logit", x, false)?.f_logit(None)?)
}

/// `log(expit(x))`, `scipy.special.log_expit`: `x - log1p(exp(x))` for x < 0,
/// `-log1p(exp(-x))` otherwise, as SciPy (libtorch's `log_sigmoid` flushes its
/// subnormal results, x > 708, to 0).
pub fn log_expit(x: &Tensor) -> Result<Tensor> {
    unary("log_expit", x, |x| {
        let negative = x.f_sub(&log1p_f64(&x.f_exp()?)?)?;
        let positive = log1p_f64(&x.f_neg()?.f_exp()?)?.f_neg()?;
        pick(&x.f_lt(0.0)?, &negative, &positive)
    })
}

// ===========================================================================
// Gamma function family
// ===========================================================================

/// Gamma(y) for y >= 10 by Stirling's series, the power split as
/// `v * (v * e^-y)` with `v = y^(y/2 - 1/4)` so that it overflows only when
/// Gamma does. A few ulp.
fn gamma_stirling(y: &Tensor) -> Result<Tensor> {
    let series = horner(&y.f_reciprocal()?, &STIRLING_GAMMA)?;
    let v = y.f_pow(&y.f_mul_scalar(0.5)?.f_sub_scalar(0.25)?)?;
    let e = y.f_neg()?.f_exp()?;
    Ok(v.f_mul(&v.f_mul(&e)?)?.f_mul(&series)?.f_mul_scalar(SQRT_2PI)?)
}

/// Gamma(y) for y >= 0 (and nan).
///
/// Below 10 the argument is reduced into [1, 2) by exact subtractions (or one
/// addition for y < 1, where Gamma(1 + y) is insensitive to it), Gamma there is
/// `exp(lgamma)` with lgamma in [-0.13, 0]; at 10 and above Stirling's series.
/// At the integers, the correctly rounded factorials.
fn gamma_nonneg(y: &Tensor) -> Result<Tensor> {
    let out = gamma_stirling(&y.f_clamp_min(10.0)?)?;
    let out = patch(out, &y.f_lt(10.0)?, &[y], |v| {
        let y = &v[0];
        let small = y.f_lt(1.0)?;
        let mut t = pick(&small, &y.f_add_scalar(1.0)?, y)?;
        let mut product = full(y, 1.0)?;
        for _ in 0..8 {
            let step = and(&t.f_ge(2.0)?, &t.f_lt(10.0)?)?;
            t = pick(&step, &t.f_sub_scalar(1.0)?, &t)?;
            product = pick(&step, &product.f_mul(&t)?, &product)?;
        }
        let middle = t.f_lgamma()?.f_exp()?.f_mul(&product)?;
        pick(&small, &middle.f_div(y)?, &middle)
    })?;
    let exact = and(&is_integral(y)?, &and(&y.f_ge(1.0)?, &y.f_le(171.0)?)?)?;
    let index = pick(&exact, y, &full(y, 1.0)?)?.f_sub_scalar(1.0)?.f_to_kind(Kind::Int64)?;
    let table = Tensor::f_from_slice(&FACTORIALS)?.f_to(y.device())?;
    let factorial = table.f_index_select(0, &index.f_reshape([-1])?)?.f_reshape(y.size())?;
    let out = pick(&exact, &factorial, &out)?;
    fill(&out, &y.f_gt(MAX_GAMMA_ARG)?, f64::INFINITY)
}

/// Gamma on float64: the reflection `pi / (sin(pi x) (-x) Gamma(-x))` for
/// x < 0 (with `-x` exact, unlike `1 - x`), nan at the poles -1, -2, ... and at
/// -inf, `±inf` at `±0`.
fn gamma_f64(x: &Tensor) -> Result<Tensor> {
    let negative = x.f_lt(0.0)?;
    let y = x.f_abs()?;
    let g = gamma_nonneg(&y)?;
    let reflected = y.f_mul(&g)?.f_mul(&sinpi(x)?)?.f_reciprocal()?.f_mul_scalar(PI)?;
    let out = pick(&negative, &reflected, &g)?;
    // just below 0, Gamma(1 + x) / x: the reflection's product underflows there
    let tiny = and(&negative, &x.f_gt(-1e-8)?)?;
    let out = patch(out, &tiny, &[x], |v| Ok(gamma_nonneg(&v[0].f_add_scalar(1.0)?)?.f_div(&v[0])?))?;
    let out = fill(&out, &and(&negative, &is_integral(x)?)?, f64::NAN)?;
    pick(&x.f_eq(0.0)?, &x.f_reciprocal()?, &out)
}

/// The sign of Gamma(x): 1 for x > 0, `(-1)^floor(x)` for negative non-integers
/// (1 at the poles, where callers decide separately).
fn gamma_sign(x: &Tensor) -> Result<Tensor> {
    let odd = and(&x.f_lt(0.0)?, &is_odd(&x.f_floor()?)?)?;
    fill(&full(x, 1.0)?, &odd, -1.0)
}

/// The gamma function, `scipy.special.gamma` (real input): relative error
/// about 1e-15, correctly rounded factorials at the integers, `±inf` at `±0`,
/// nan at the negative integers and -inf, signed zeros below -171.
pub fn gamma(x: &Tensor) -> Result<Tensor> {
    unary("gamma", x, gamma_f64)
}

/// `log|Gamma(x)|`, `scipy.special.gammaln`.
///
/// libtorch's `lgamma(-inf)` is `+inf`; SciPy returns `-inf` (the limit of
/// `log|Gamma|` between the poles), and so does this.
pub fn gammaln(x: &Tensor) -> Result<Tensor> {
    let x = scipy_float_input("special.gammaln", x, false)?;
    let at_minus_inf = x.f_eq(f64::NEG_INFINITY)?;
    Ok(x.f_lgamma()?.f_masked_fill(&at_minus_inf, f64::NEG_INFINITY)?)
}

/// The principal branch of `log(Gamma(x))` for real x, `scipy.special.loggamma`:
/// `lgamma(x)` for x >= 0 and nan for x < 0, as SciPy's real loop.
pub fn loggamma(x: &Tensor) -> Result<Tensor> {
    unary("loggamma", x, |x| fill(&x.f_lgamma()?, &x.f_lt(0.0)?, f64::NAN))
}

/// Digamma on y >= 0: the recurrence up to 10, then the asymptotic series; the
/// Taylor series about the zero 1.4616... where the recurrence cancels
/// (libtorch's digamma is 1e-9 relative off there).
fn digamma_nonneg(y: &Tensor) -> Result<Tensor> {
    let mut z = y.shallow_clone();
    let mut sum = y.f_zeros_like()?;
    for _ in 0..10 {
        let step = z.f_lt(10.0)?;
        sum = pick(&step, &sum.f_add(&z.f_reciprocal()?)?, &sum)?;
        z = pick(&step, &z.f_add_scalar(1.0)?, &z)?;
    }
    let tail = horner(&z.f_square()?.f_reciprocal()?, &DIGAMMA_ASYMPTOTIC)?;
    let psi = z.f_log()?.f_sub(&z.f_reciprocal()?.f_mul_scalar(0.5)?)?.f_sub(&tail)?.f_sub(&sum)?;
    let near = y.f_sub_scalar(DIGAMMA_POS_ROOT)?.f_abs()?.f_lt(0.3)?;
    patch(psi, &near, &[y], |s| horner(&s[0].f_sub_scalar(DIGAMMA_POS_ROOT)?, &DIGAMMA_POS))
}

fn digamma_f64(x: &Tensor) -> Result<Tensor> {
    let negative = x.f_lt(0.0)?;
    let y = x.f_abs()?;
    let psi = digamma_nonneg(&y)?;
    // x < 0: psi(x) = psi(1 - x) - pi / tan(pi x) = psi(-x) + 1/(-x) - pi / tan(pi r)
    let r = x.f_sub(&x.f_round()?)?;
    let cot = r.f_mul_scalar(PI)?.f_tan()?.f_reciprocal()?.f_mul_scalar(PI)?;
    let reflected = psi.f_add(&y.f_reciprocal()?)?.f_sub(&cot)?;
    let out = pick(&negative, &reflected, &psi)?;
    // just below 0, psi(1 + x) - 1/x: the reflection's terms are both infinite there
    let tiny = and(&negative, &x.f_gt(-1e-8)?)?;
    let out = patch(out, &tiny, &[x], |v| Ok(digamma_nonneg(&v[0].f_add_scalar(1.0)?)?.f_sub(&v[0].f_reciprocal()?)?))?;
    let out = fill(&out, &and(&negative, &is_integral(x)?)?, f64::NAN)?;
    let out = pick(&x.f_eq(0.0)?, &x.f_reciprocal()?.f_neg()?, &out)?;
    let near = x.f_sub_scalar(DIGAMMA_NEG_ROOT)?.f_abs()?.f_lt(0.1)?;
    patch(out, &near, &[x], |s| horner(&s[0].f_sub_scalar(DIGAMMA_NEG_ROOT)?, &DIGAMMA_NEG))
}

/// The digamma function `psi = Gamma'/Gamma`, `scipy.special.digamma` (real
/// input): recurrence and asymptotic series, reflection below 0, Taylor series
/// about the zeros at 1.4616 and -0.5041 (as SciPy), `psi(±0) = ∓inf`, nan at
/// the negative integers.
pub fn digamma(x: &Tensor) -> Result<Tensor> {
    unary("digamma", x, digamma_f64)
}

/// `scipy.special.psi`, the same function as [`digamma`].
pub fn psi(x: &Tensor) -> Result<Tensor> {
    unary("psi", x, digamma_f64)
}

/// The polygamma function, `scipy.special.polygamma` (a Python function in
/// SciPy): `psi(x)` where `n == 0`, else `(-1)^(n+1) Gamma(n+1) zeta(n+1, x)`,
/// SciPy's own formula, so non-integer `n` gives nan as there. The result is
/// float32 only when `n` and `x` are both float32, as SciPy's.
pub fn polygamma(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    let n_dtype = dlpack::dtype_of(n)?;
    let x_dtype = dlpack::dtype_of(x)?;
    for dtype in [n_dtype, x_dtype] {
        if dtype.is_complex() {
            return Err(complex_not_implemented("special.polygamma", dtype));
        }
    }
    let output = if n_dtype == DType::Float32 && x_dtype == DType::Float32 { DType::Float32 } else { DType::Float64 };
    let tensors = broadcast(same_device(vec![cast(n, DType::Float64)?, cast(x, DType::Float64)?])?)?;
    let (n, x) = (&tensors[0], &tensors[1]);
    let n1 = n.f_add_scalar(1.0)?;
    let sign = Tensor::f_pow_scalar(-1.0, &n1)?;
    let value = sign.f_mul(&gamma_f64(&n1)?)?.f_mul(&hurwitz_zeta_f64(&n1, x)?)?;
    let out = pick(&n.f_eq(0.0)?, &digamma_f64(x)?, &value)?;
    finish(out, output)
}

/// The log of the multivariate gamma function, `scipy.special.multigammaln(a, d)`:
/// `d(d-1)/4 log(pi) + sum_j gammaln(a - (j-1)/2)`. SciPy's checks: `d` a
/// non-negative integer count, every `a > (d-1)/2` (else
/// [`Error::InvalidArgument`], SciPy's `ValueError`). Always float64.
pub fn multigammaln(a: &Tensor, d: i64) -> Result<Tensor> {
    if let Some(dtype) = Some(dlpack::dtype_of(a)?).filter(|d| d.is_complex()) {
        return Err(complex_not_implemented("special.multigammaln", dtype));
    }
    let a = cast(a, DType::Float64)?;
    let bound = 0.5 * (d as f64 - 1.0);
    if a.numel() > 0 && a.f_le(bound)?.f_any()?.f_int64_value(&[])? != 0 {
        return Err(Error::InvalidArgument(format!("condition a > 0.5 * (d-1) ({bound}) not met")));
    }
    let mut sum = a.f_zeros_like()?;
    for j in 1..=d.max(0) {
        sum = sum.f_add(&a.f_sub_scalar((j as f64 - 1.0) / 2.0)?.f_lgamma()?)?;
    }
    Ok(sum.f_add_scalar((d as f64) * (d as f64 - 1.0) * 0.25 * PI.ln())?)
}

/// How `factorial` extends to non-integers and negatives (SciPy's `extend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FactorialExtend {
    /// `n < 0` gives 0 (SciPy's default).
    Zero,
    /// `Gamma(n + 1)` everywhere, nan at the negative integers.
    Complex,
}

/// `n!` as `Gamma(n + 1)` in float64, `scipy.special.factorial(n, exact=False,
/// extend)`: correctly rounded at the integers, nan kept, 0 for `n < 0` with
/// [`FactorialExtend::Zero`], nan at `n = -1, -2, ...` with `Complex`.
pub fn factorial(n: &Tensor, extend: FactorialExtend) -> Result<Tensor> {
    if let Some(dtype) = Some(dlpack::dtype_of(n)?).filter(|d| d.is_complex()) {
        return Err(complex_not_implemented("special.factorial", dtype));
    }
    let n = cast(n, DType::Float64)?;
    let value = gamma_f64(&n.f_add_scalar(1.0)?)?;
    match extend {
        FactorialExtend::Zero => fill(&value, &n.f_lt(0.0)?, 0.0),
        FactorialExtend::Complex => fill(&value, &and(&n.f_lt(0.0)?, &is_integral(&n)?)?, f64::NAN),
    }
}

/// `n!` exactly for integer `n` (`exact=True`), as int64: 0 for `n < 0`, and an
/// error beyond 20! (SciPy returns Python integers there, which no array holds).
pub fn factorial_exact(n: &Tensor) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(n)?;
    if !is_integer(dtype) {
        return Err(Error::InvalidArgument(format!(
            "`exact=True` only supports integers, cannot use data type {dtype}"
        )));
    }
    let n = cast(n, DType::Int64)?;
    if n.numel() > 0 && n.f_gt(20)?.f_any()?.f_int64_value(&[])? != 0 {
        return Err(Error::NotImplemented(
            "special.factorial(exact=True) beyond 20! needs Python integers (SciPy returns an object array), \
             which no DLPack array holds"
                .into(),
        ));
    }
    let table: Vec<i64> = (0..=20)
        .scan(1i64, |acc, k| {
            if k > 0 {
                *acc *= k;
            }
            Some(*acc)
        })
        .collect();
    let table = Tensor::f_from_slice(&table)?.f_to(n.device())?;
    let index = n.f_clamp(0, 20)?;
    let out = table.f_index_select(0, &index.f_reshape([-1])?)?.f_reshape(n.size())?;
    Ok(out.f_masked_fill(&n.f_lt(0)?, 0)?)
}

// ===========================================================================
// Bessel functions
// ===========================================================================

/// The modified Bessel function I0, `scipy.special.i0` (libtorch's kernel).
pub fn i0(x: &Tensor) -> Result<Tensor> {
    unary("i0", x, |x| Ok(x.f_i0()?))
}

/// The exponentially scaled I0, `exp(-|x|) i0(x)`, `scipy.special.i0e`.
pub fn i0e(x: &Tensor) -> Result<Tensor> {
    unary("i0e", x, |x| Ok(x.f_special_i0e()?))
}

/// The modified Bessel function I1, `scipy.special.i1`.
pub fn i1(x: &Tensor) -> Result<Tensor> {
    unary("i1", x, |x| Ok(x.f_special_i1()?))
}

/// The exponentially scaled I1, `exp(-|x|) i1(x)`, `scipy.special.i1e`.
pub fn i1e(x: &Tensor) -> Result<Tensor> {
    unary("i1e", x, |x| Ok(x.f_special_i1e()?))
}

/// The modified Bessel function K0, `scipy.special.k0` (nan for x < 0).
pub fn k0(x: &Tensor) -> Result<Tensor> {
    unary("k0", x, |x| Ok(x.f_special_modified_bessel_k0()?))
}

/// The exponentially scaled K0, `exp(x) k0(x)`, `scipy.special.k0e`.
pub fn k0e(x: &Tensor) -> Result<Tensor> {
    unary("k0e", x, |x| Ok(Tensor::f_special_scaled_modified_bessel_k0(x)?))
}

/// The modified Bessel function K1, `scipy.special.k1` (nan for x < 0).
pub fn k1(x: &Tensor) -> Result<Tensor> {
    unary("k1", x, |x| Ok(x.f_special_modified_bessel_k1()?))
}

/// The exponentially scaled K1, `exp(x) k1(x)`, `scipy.special.k1e`.
pub fn k1e(x: &Tensor) -> Result<Tensor> {
    unary("k1e", x, |x| Ok(Tensor::f_special_scaled_modified_bessel_k1(x)?))
}

/// J0, J1, Y0, Y1 at `t < 2` by their power series (DLMF 10.8.1-10.8.2).
fn bessel_series(t: &Tensor) -> Result<Vec<Tensor>> {
    let q = t.f_square()?.f_mul_scalar(0.25)?.f_neg()?;
    let half = t.f_mul_scalar(0.5)?;
    let mut term = full(t, 1.0)?;
    let mut harmonic = 0.0;
    let (mut j0, mut j1) = (t.f_zeros_like()?, t.f_zeros_like()?);
    let (mut s0, mut s1) = (t.f_zeros_like()?, t.f_zeros_like()?);
    for k in 0..18 {
        if k > 0 {
            term = term.f_mul(&q)?.f_div_scalar((k * k) as f64)?;
            harmonic += 1.0 / k as f64;
        }
        j0 = j0.f_add(&term)?;
        s0 = s0.f_sub(&term.f_mul_scalar(harmonic)?)?;
        let t1 = term.f_mul(&half)?.f_div_scalar((k + 1) as f64)?;
        j1 = j1.f_add(&t1)?;
        // psi(k+1) + psi(k+2) = 2 H_k + 1/(k+1) - 2 gamma
        s1 = s1.f_add(&t1.f_mul_scalar(2.0 * harmonic + 1.0 / (k + 1) as f64 - 2.0 * EULER)?)?;
    }
    let log_half = t.f_log()?.f_sub_scalar(std::f64::consts::LN_2)?; // t/2 underflows at 5e-324
    let y0 = log_half.f_add_scalar(EULER)?.f_mul(&j0)?.f_add(&s0)?.f_mul_scalar(2.0 / PI)?;
    let y1 = t
        .f_reciprocal()?
        .f_mul_scalar(-2.0 / PI)?
        .f_add(&log_half.f_mul(&j1)?.f_mul_scalar(2.0 / PI)?)?
        .f_sub(&s1.f_mul_scalar(1.0 / PI)?)?;
    let y1 = fill(&y1, &t.f_eq(0.0)?, f64::NEG_INFINITY)?;
    Ok(vec![j0, j1, y0, y1])
}

/// J0, J1, Y0, Y1 for 2 <= t < 25 by Miller's backward recurrence, normalised
/// by `J0 + 2 sum J_2k = 1`; Y0 and Y1 from the Neumann series
/// `(pi/2) Y0 = (log(t/2) + gamma) J0 - 2 sum (-1)^k J_2k / k` and its derivative
/// `(pi/2) Y1 = (log(t/2) + gamma) J1 - J0/t + sum (-1)^k (J_2k-1 - J_2k+1) / k`.
/// Absolute error a few 1e-16.
fn bessel_miller(t: &Tensor) -> Result<Vec<Tensor>> {
    let t_max = t.f_max()?.f_double_value(&[])?;
    let start = 2 * ((t_max + 3.0 * t_max.cbrt() + 30.0) / 2.0).ceil() as i64;
    let inv = t.f_reciprocal()?;
    let mut next = t.f_zeros_like()?;
    let mut cur = full(t, 1e-30)?;
    let (mut norm, mut s0, mut s1) = (t.f_zeros_like()?, t.f_zeros_like()?, t.f_zeros_like()?);
    let mut j1 = t.f_zeros_like()?;
    for n in (1..=start).rev() {
        let prev = cur.f_mul(&inv)?.f_mul_scalar(2.0 * n as f64)?.f_sub(&next)?;
        let m = n - 1;
        if m % 2 == 0 {
            if m >= 2 {
                let k = (m / 2) as f64;
                let sign = if (m / 2) % 2 == 0 { 1.0 } else { -1.0 };
                norm = norm.f_add(&prev.f_mul_scalar(2.0)?)?;
                s0 = s0.f_add(&prev.f_mul_scalar(sign / k)?)?;
            }
        } else {
            // J_m appears in the Y1 sum for k = (m+1)/2 (as J_2k-1) and k = (m-1)/2 (as -J_2k+1)
            let k = (m + 1) / 2;
            let mut coef = if k % 2 == 0 { 1.0 } else { -1.0 } / k as f64;
            if m >= 3 {
                let k2 = (m - 1) / 2;
                coef -= if k2 % 2 == 0 { 1.0 } else { -1.0 } / k2 as f64;
            }
            s1 = s1.f_add(&prev.f_mul_scalar(coef)?)?;
            if m == 1 {
                j1 = prev.shallow_clone();
            }
        }
        next = cur;
        cur = prev;
    }
    let norm = norm.f_add(&cur)?;
    let j0 = cur.f_div(&norm)?;
    let j1 = j1.f_div(&norm)?;
    let log_term = t.f_mul_scalar(0.5)?.f_log()?.f_add_scalar(EULER)?;
    let y0 = log_term.f_mul(&j0)?.f_sub(&s0.f_div(&norm)?.f_mul_scalar(2.0)?)?.f_mul_scalar(2.0 / PI)?;
    let y1 = log_term.f_mul(&j1)?.f_sub(&j0.f_mul(&inv)?)?.f_add(&s1.f_div(&norm)?)?.f_mul_scalar(2.0 / PI)?;
    Ok(vec![j0, j1, y0, y1])
}

/// J0, J1, Y0, Y1 for t >= 25 by Hankel's asymptotic expansion (DLMF 10.17.3),
/// 21 terms each of P and Q; the phase `t - pi/4` enters through `sin t` and
/// `cos t` of the exact argument.
fn bessel_hankel(t: &Tensor) -> Result<Vec<Tensor>> {
    let w = t.f_square()?.f_reciprocal()?;
    let (s, c) = (t.f_sin()?, t.f_cos()?);
    let amplitude = t.f_reciprocal()?.f_mul_scalar(2.0 / PI)?.f_sqrt()?;
    let mut out = Vec::with_capacity(4);
    let mut ys = Vec::with_capacity(2);
    for nu in [0.0f64, 1.0] {
        let mu = 4.0 * nu * nu;
        let mut a = vec![1.0f64];
        for k in 1..42 {
            let prev = a[k - 1];
            a.push(prev * (mu - ((2 * k - 1) * (2 * k - 1)) as f64) / (8.0 * k as f64));
        }
        let sign = |k: usize| if k % 2 == 0 { 1.0 } else { -1.0 };
        let p_coeffs: Vec<f64> = (0..21).map(|k| sign(k) * a[2 * k]).collect();
        let q_coeffs: Vec<f64> = (0..21).map(|k| sign(k) * a[2 * k + 1]).collect();
        let p = horner(&w, &p_coeffs)?;
        let q = horner(&w, &q_coeffs)?.f_div(t)?;
        let (cos_chi, sin_chi) = if nu == 0.0 {
            (c.f_add(&s)?.f_mul_scalar(FRAC_1_SQRT_2)?, s.f_sub(&c)?.f_mul_scalar(FRAC_1_SQRT_2)?)
        } else {
            (s.f_sub(&c)?.f_mul_scalar(FRAC_1_SQRT_2)?, c.f_add(&s)?.f_mul_scalar(-FRAC_1_SQRT_2)?)
        };
        out.push(p.f_mul(&cos_chi)?.f_sub(&q.f_mul(&sin_chi)?)?.f_mul(&amplitude)?);
        ys.push(p.f_mul(&sin_chi)?.f_add(&q.f_mul(&cos_chi)?)?.f_mul(&amplitude)?);
    }
    out.extend(ys);
    Ok(out)
}

/// J0, J1, Y0, Y1 of `t = |x|`. libtorch's Bessel J and Y kernels are off by up
/// to 4e-7 absolute beyond x = 5, so these are computed here: power series
/// below 2, Miller's recurrence to 25, Hankel's expansion beyond.
fn bessel_jy(t: &Tensor) -> Result<Vec<Tensor>> {
    let outs = bessel_series(&t.f_clamp_max(2.0)?)?;
    let middle = and(&t.f_ge(2.0)?, &t.f_lt(25.0)?)?;
    let outs = patch_all(outs, &middle, &[t], |s| bessel_miller(&s[0]))?;
    patch_all(outs, &t.f_ge(25.0)?, &[t], |s| bessel_hankel(&s[0]))
}

/// The Bessel function of the first kind of order 0, `scipy.special.j0`.
pub fn j0(x: &Tensor) -> Result<Tensor> {
    unary("j0", x, |x| Ok(bessel_jy(&x.f_abs()?)?.swap_remove(0)))
}

/// The Bessel function of the first kind of order 1, `scipy.special.j1` (odd).
pub fn j1(x: &Tensor) -> Result<Tensor> {
    unary("j1", x, |x| {
        let j = bessel_jy(&x.f_abs()?)?.swap_remove(1);
        pick(&x.f_signbit()?, &j.f_neg()?, &j)
    })
}

/// The Bessel function of the second kind of order 0, `scipy.special.y0`
/// (`-inf` at 0, nan for x < 0).
pub fn y0(x: &Tensor) -> Result<Tensor> {
    unary("y0", x, |x| fill(&bessel_jy(&x.f_abs()?)?.swap_remove(2), &x.f_lt(0.0)?, f64::NAN))
}

/// The Bessel function of the second kind of order 1, `scipy.special.y1`.
pub fn y1(x: &Tensor) -> Result<Tensor> {
    unary("y1", x, |x| fill(&bessel_jy(&x.f_abs()?)?.swap_remove(3), &x.f_lt(0.0)?, f64::NAN))
}

// ===========================================================================
// Exponentials, logarithms, roots, trigonometry in degrees
// ===========================================================================

/// `exp(x) - 1`, `scipy.special.expm1` (real input).
pub fn expm1(x: &Tensor) -> Result<Tensor> {
    unary("expm1", x, |x| Ok(x.f_expm1()?))
}

/// `2**x`, `scipy.special.exp2`.
pub fn exp2(x: &Tensor) -> Result<Tensor> {
    unary("exp2", x, |x| Ok(x.f_exp2()?))
}

/// `10**x`, `scipy.special.exp10` (libtorch's `pow(10, x)`, within 1 ulp).
pub fn exp10(x: &Tensor) -> Result<Tensor> {
    unary("exp10", x, |x| Ok(Tensor::f_pow_scalar(10.0, x)?))
}

/// `log(1 + x)`, `scipy.special.log1p` (real input).
pub fn log1p(x: &Tensor) -> Result<Tensor> {
    unary("log1p", x, log1p_f64)
}

/// The real cube root, `scipy.special.cbrt`: `|x|^(1/3)` refined by one Newton
/// step (within 1 ulp, exact on perfect cubes), with the sign of x.
pub fn cbrt(x: &Tensor) -> Result<Tensor> {
    unary("cbrt", x, |x| {
        let a = x.f_abs()?;
        let y = a.f_pow_tensor_scalar(1.0 / 3.0)?;
        let refined = y.f_sub(&y.f_sub(&a.f_div(&y.f_square()?)?)?.f_div_scalar(3.0)?)?;
        let special = or(&a.f_eq(0.0)?, &not(&a.f_isfinite()?)?)?;
        Ok(pick(&special, &a, &refined)?.f_copysign(x)?)
    })
}

/// `cos(x) - 1` accurate near the multiples of 2 pi, `scipy.special.cosm1`:
/// `-2 sin(x/2)^2`.
pub fn cosm1(x: &Tensor) -> Result<Tensor> {
    // `+ 0` gives SciPy's +0.0 where -2 sin^2 is -0.0
    unary("cosm1", x, |x| Ok(x.f_mul_scalar(0.5)?.f_sin()?.f_square()?.f_mul_scalar(-2.0)?.f_add_scalar(0.0)?))
}

/// `(exp(x) - 1) / x`, `scipy.special.exprel` (1 for |x| < 1e-16).
pub fn exprel(x: &Tensor) -> Result<Tensor> {
    unary("exprel", x, |x| {
        let value = x.f_expm1()?.f_div(x)?;
        let value = fill(&value, &x.f_isposinf()?, f64::INFINITY)?;
        fill(&value, &x.f_abs()?.f_lt(1e-16)?, 1.0)
    })
}

/// `sin` of an angle in degrees, on float64: reduced exactly to [-45, 45] in its
/// quadrant, exactly ±1/2 at ±30 degrees; 0 beyond |x| = 1e14 (SciPy's cut-off).
fn sindg_f64(x: &Tensor) -> Result<Tensor> {
    let n = x.f_div_scalar(90.0)?.f_round()?;
    let r = x.f_sub(&n.f_mul_scalar(90.0)?)?;
    let radians = r.f_mul_scalar(PI / 180.0)?;
    let sin = radians.f_sin()?;
    let sin = pick(&r.f_abs()?.f_eq(30.0)?, &r.f_sign()?.f_mul_scalar(0.5)?, &sin)?;
    let cos = radians.f_cos()?;
    let quadrant = n.f_remainder(4.0)?;
    let out = pick(&quadrant.f_eq(1.0)?, &cos, &sin)?;
    let out = pick(&quadrant.f_eq(2.0)?, &sin.f_neg()?, &out)?;
    let out = pick(&quadrant.f_eq(3.0)?, &cos.f_neg()?, &out)?;
    fill(&out, &x.f_abs()?.f_gt(1e14)?, 0.0)
}

/// The sine of an angle in degrees, `scipy.special.sindg`.
pub fn sindg(x: &Tensor) -> Result<Tensor> {
    unary("sindg", x, sindg_f64)
}

/// The cosine of an angle in degrees, `scipy.special.cosdg`: `sindg(x + 90)`.
pub fn cosdg(x: &Tensor) -> Result<Tensor> {
    unary("cosdg", x, |x| {
        let out = sindg_f64(&x.f_add_scalar(90.0)?)?;
        fill(&out, &x.f_abs()?.f_gt(1e14)?, 0.0)
    })
}

// ===========================================================================
// Information theory and losses
// ===========================================================================

/// `-x log(x)` for x > 0, 0 at 0, `-inf` below, `scipy.special.entr`.
pub fn entr(x: &Tensor) -> Result<Tensor> {
    unary("entr", x, |x| Ok(x.f_special_entr()?))
}

/// `x log(y)`, 0 where `x == 0` unless y is nan, `scipy.special.xlogy`.
pub fn xlogy(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    binary("xlogy", x, y, |x, y| Ok(x.f_special_xlogy(y)?))
}

/// `x log1p(y)`, 0 where `x == 0` unless y is nan, `scipy.special.xlog1py`.
pub fn xlog1py(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    binary("xlog1py", x, y, |x, y| Ok(x.f_special_xlog1py(y)?))
}

fn any_nan(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    or(&x.f_isnan()?, &y.f_isnan()?)
}

/// `x log(x / y)` as SciPy evaluates it: `log1p((x - y)/y)` for ratios in
/// (1/2, 2), `log(ratio)` when the ratio is a normal number, else
/// `log(x) - log(y)`.
fn x_log_ratio(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let ratio = x.f_div(y)?;
    let close = and(&ratio.f_gt(0.5)?, &ratio.f_lt(2.0)?)?;
    let normal = and(&ratio.f_gt(DBL_MIN)?, &ratio.f_lt(f64::INFINITY)?)?;
    let near = log1p_f64(&x.f_sub(y)?.f_div(y)?)?;
    let far = pick(&normal, &ratio.f_log()?, &x.f_log()?.f_sub(&y.f_log()?)?)?;
    Ok(pick(&close, &near, &far)?.f_mul(x)?)
}

/// Elementwise relative entropy `x log(x/y)`, `scipy.special.rel_entr`: 0 for
/// `x == 0, y >= 0`, `inf` for negative arguments, nan for nan.
pub fn rel_entr(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    binary("rel_entr", x, y, |x, y| {
        let positive = and(&x.f_gt(0.0)?, &y.f_gt(0.0)?)?;
        let zero = and(&x.f_eq(0.0)?, &y.f_ge(0.0)?)?;
        let out = pick(&positive, &x_log_ratio(x, y)?, &fill(&full(x, f64::INFINITY)?, &zero, 0.0)?)?;
        fill(&out, &any_nan(x, y)?, f64::NAN)
    })
}

/// Elementwise Kullback-Leibler divergence `x log(x/y) - x + y`,
/// `scipy.special.kl_div`: y for `x == 0, y >= 0`, `inf` for negatives.
pub fn kl_div(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    binary("kl_div", x, y, |x, y| {
        let positive = and(&x.f_gt(0.0)?, &y.f_gt(0.0)?)?;
        let zero = and(&x.f_eq(0.0)?, &y.f_ge(0.0)?)?;
        let value = x.f_mul(&x.f_div(y)?.f_log()?)?.f_sub(x)?.f_add(y)?;
        let out = pick(&positive, &value, &pick(&zero, y, &full(x, f64::INFINITY)?)?)?;
        fill(&out, &any_nan(x, y)?, f64::NAN)
    })
}

/// The Huber loss, `scipy.special.huber(delta, r)`: `r^2/2` for `|r| <= delta`,
/// `delta (|r| - delta/2)` beyond, `inf` for `delta < 0`.
pub fn huber(delta: &Tensor, r: &Tensor) -> Result<Tensor> {
    binary("huber", delta, r, |delta, r| {
        let a = r.f_abs()?;
        let inner = r.f_square()?.f_mul_scalar(0.5)?;
        let outer = delta.f_mul(&a.f_sub(&delta.f_mul_scalar(0.5)?)?)?;
        let out = pick(&a.f_le_tensor(delta)?, &inner, &outer)?;
        fill(&out, &delta.f_lt(0.0)?, f64::INFINITY)
    })
}

/// The pseudo-Huber loss `delta^2 (sqrt(1 + (r/delta)^2) - 1)`,
/// `scipy.special.pseudo_huber`, as `delta^2 expm1(log1p((r/delta)^2)/2)`.
pub fn pseudo_huber(delta: &Tensor, r: &Tensor) -> Result<Tensor> {
    binary("pseudo_huber", delta, r, |delta, r| {
        let v = r.f_div(delta)?;
        let value = log1p_f64(&v.f_square()?)?.f_mul_scalar(0.5)?.f_expm1()?.f_mul(&delta.f_square()?)?;
        let out = fill(&value, &or(&delta.f_eq(0.0)?, &r.f_eq(0.0)?)?, 0.0)?;
        fill(&out, &delta.f_lt(0.0)?, f64::INFINITY)
    })
}

// ===========================================================================
// Box-Cox transformations
// ===========================================================================

/// `copysign(1, lmbda) exp(lmbda lg - log|lmbda|) - 1/lmbda`: the Box-Cox
/// value where `expm1` would overflow.
fn boxcox_large(lg: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let e = lmbda.f_mul(lg)?.f_sub(&lmbda.f_abs()?.f_log()?)?.f_exp()?;
    Ok(full(lmbda, 1.0)?.f_copysign(lmbda)?.f_mul(&e)?.f_sub(&lmbda.f_reciprocal()?)?)
}

/// `expm1(lmbda lg) / lmbda`, or the large-value form, or `lg` where `small`.
fn boxcox_from_log(lg: &Tensor, lmbda: &Tensor, small: &Tensor) -> Result<Tensor> {
    let product = lmbda.f_mul(lg)?;
    let regular = product.f_expm1()?.f_div(lmbda)?;
    let value = pick(&product.f_lt(709.78)?, &regular, &boxcox_large(lg, lmbda)?)?;
    pick(small, lg, &value)
}

/// The Box-Cox transformation `(x^lmbda - 1) / lmbda`, `log(x)` at `lmbda = 0`,
/// `scipy.special.boxcox` (SciPy's branches: `log` for |lmbda| < 1e-19).
pub fn boxcox(x: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    binary("boxcox", x, lmbda, |x, lmbda| {
        let lg = x.f_log()?;
        boxcox_from_log(&lg, lmbda, &lmbda.f_abs()?.f_lt(1e-19)?)
    })
}

/// The Box-Cox transformation of `1 + x`, `scipy.special.boxcox1p`.
pub fn boxcox1p(x: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    binary("boxcox1p", x, lmbda, |x, lmbda| {
        let lg = log1p_f64(x)?;
        let tiny = and(&lg.f_abs()?.f_lt(1e-289)?, &lmbda.f_abs()?.f_lt(1e273)?)?;
        boxcox_from_log(&lg, lmbda, &or(&lmbda.f_abs()?.f_lt(1e-19)?, &tiny)?)
    })
}

/// `log(1 + lmbda x) / lmbda`, or the overflow-safe form where `lmbda x`
/// reaches 1.79e308.
fn inv_boxcox_log(x: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    let product = lmbda.f_mul(x)?;
    let regular = log1p_f64(&product)?.f_div(lmbda)?;
    let sign = full(lmbda, 1.0)?.f_copysign(lmbda)?;
    let large =
        sign.f_mul(&x.f_add(&lmbda.f_reciprocal()?)?)?.f_log()?.f_add(&lmbda.f_abs()?.f_log()?)?.f_div(lmbda)?;
    pick(&product.f_lt(1.79e308)?, &regular, &large)
}

/// The inverse Box-Cox transformation, `scipy.special.inv_boxcox`.
pub fn inv_boxcox(y: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    binary("inv_boxcox", y, lmbda, |y, lmbda| {
        let value = inv_boxcox_log(y, lmbda)?.f_exp()?;
        pick(&lmbda.f_eq(0.0)?, &y.f_exp()?, &value)
    })
}

/// The inverse of [`boxcox1p`], `scipy.special.inv_boxcox1p`.
pub fn inv_boxcox1p(y: &Tensor, lmbda: &Tensor) -> Result<Tensor> {
    binary("inv_boxcox1p", y, lmbda, |y, lmbda| {
        let value = inv_boxcox_log(y, lmbda)?.f_expm1()?;
        let value = pick(&lmbda.f_mul(y)?.f_abs()?.f_lt(1e-154)?, y, &value)?;
        pick(&lmbda.f_eq(0.0)?, &y.f_expm1()?, &value)
    })
}

// ===========================================================================
// Incomplete gamma functions
// ===========================================================================

/// `log1p(s) - s` without cancellation for |s| < 1/2:
/// `-u s + 2 (u^3/3 + u^5/5 + ...)` with `u = s / (2 + s)`.
fn log1pmx(s: &Tensor) -> Result<Tensor> {
    let u = s.f_div(&s.f_add_scalar(2.0)?)?;
    let u2 = u.f_square()?;
    let coeffs: Vec<f64> = (0..14).map(|k| 1.0 / (2 * k + 3) as f64).collect();
    let odd = horner(&u2, &coeffs)?.f_mul(&u2)?.f_mul(&u)?.f_mul_scalar(2.0)?;
    Ok(odd.f_sub(&u.f_mul(s)?)?)
}

/// The regime where libtorch's igamma uses its asymptotic series (off by up to
/// 2e-9 relative): `20 < a < 200, |x - a|/a < 0.3` or `a > 200, |x - a|/a < 4.5/sqrt(a)`.
fn temme_regime(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    let ratio = x.f_sub(a)?.f_abs()?.f_div(a)?;
    let moderate = and(&and(&a.f_gt(20.0)?, &a.f_lt(200.0)?)?, &ratio.f_lt(0.3)?)?;
    let large = and(&a.f_gt(200.0)?, &ratio.f_lt_tensor(&a.f_rsqrt()?.f_mul_scalar(4.5)?)?)?;
    or(&moderate, &large)
}

/// `P(a, x)` (`upper = false`) or `Q(a, x)` by Temme's uniform asymptotic
/// expansion (DLMF 8.12.3/8.12.4) with the coefficients in [`TEMME`]:
/// `Q = erfc(eta sqrt(a/2))/2 + exp(-a eta^2/2)/sqrt(2 pi a) sum_k c_k(eta) a^-k`.
/// Relative error about 4e-15 in [`temme_regime`].
fn gammainc_temme(a: &Tensor, x: &Tensor, upper: bool) -> Result<Tensor> {
    let s = x.f_sub(a)?.f_div(a)?;
    let lm = log1pmx(&s)?;
    let eta = lm.f_mul_scalar(-2.0)?.f_sqrt()?.f_copysign(&s)?;
    let m = eta.size()[0];
    let powers = |v: &Tensor| -> Result<Tensor> {
        let steps = v.f_unsqueeze(1)?.f_expand([m, 24], false)?.f_cumprod(1, None::<Kind>)?;
        Ok(Tensor::f_cat(&[v.f_ones_like()?.f_unsqueeze(1)?, steps], 1)?)
    };
    let flat: Vec<f64> = TEMME.iter().flat_map(|row| row.iter().copied()).collect();
    let d = Tensor::f_from_slice(&flat)?.f_reshape([25, 25])?.f_to(eta.device())?;
    let c = powers(&eta)?.f_matmul(&d.f_transpose(0, 1)?)?; // c[i, k] = c_k(eta_i)
    let sum = c.f_mul(&powers(&a.f_reciprocal()?)?)?.f_sum_dim_intlist([1i64].as_slice(), false, None::<Kind>)?;
    let r = a.f_mul(&lm)?.f_exp()?.f_div(&a.f_mul_scalar(2.0 * PI)?.f_sqrt()?)?.f_mul(&sum)?;
    let root = a.f_mul_scalar(0.5)?.f_sqrt()?.f_mul(&eta)?;
    if upper {
        Ok(root.f_erfc()?.f_mul_scalar(0.5)?.f_add(&r)?)
    } else {
        Ok(root.f_neg()?.f_erfc()?.f_mul_scalar(0.5)?.f_sub(&r)?)
    }
}

/// `Q(a, x)` for `0 < x <= 1.1` and small `a` by the series SciPy's igamc
/// uses there: `Q = -expm1(a log x - lgamma(1 + a)) - a x^a / Gamma(1 + a) sum_n (-x)^n / (n! (a + n))`.
/// libtorch's `gammaincc` loses everything there for tiny `a` (`Q(1e-300, 1)`
/// = 8e-301 instead of 2.2e-301).
fn gammaincc_small_x(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    let log_power = a.f_mul(&x.f_log()?)?.f_sub(&lgamma1p(a)?)?;
    let head = log_power.f_expm1()?.f_neg()?;
    let mut factor = full(x, 1.0)?;
    let mut sum = x.f_zeros_like()?;
    for n in 1..=26 {
        factor = factor.f_mul(x)?.f_div_scalar(-(n as f64))?;
        sum = sum.f_add(&factor.f_div(&a.f_add_scalar(n as f64)?)?)?;
    }
    Ok(head.f_sub(&a.f_mul(&log_power.f_exp()?)?.f_mul(&sum)?)?)
}

/// `lgamma(1 + a)`, accurate for tiny `a` too (where `1 + a` rounds to 1):
/// its Taylor series below |a| = 0.2.
fn lgamma1p(a: &Tensor) -> Result<Tensor> {
    let series = horner(a, &LGAMMA1P)?;
    pick(&a.f_abs()?.f_lt(0.2)?, &series, &a.f_add_scalar(1.0)?.f_lgamma()?)
}

/// Where SciPy's igamc takes [`gammaincc_small_x`]: `x <= 0.5, a <= -0.4 / log(x)`
/// or `0.5 < x <= 1.1, a <= 1.1 x`.
fn small_x_regime(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    let low = and(&x.f_le(0.5)?, &a.f_le_tensor(&x.f_log()?.f_reciprocal()?.f_mul_scalar(-0.4)?)?)?;
    let mid = and(&and(&x.f_gt(0.5)?, &x.f_le(1.1)?)?, &a.f_le_tensor(&x.f_mul_scalar(1.1)?)?)?;
    and(&and(&x.f_gt(0.0)?, &a.f_gt(0.0)?)?, &or(&low, &mid)?)
}

fn gammainc_f64(a: &Tensor, x: &Tensor, upper: bool) -> Result<Tensor> {
    let base = if upper { a.f_special_gammaincc(x)? } else { a.f_special_gammainc(x)? };
    let regime = temme_regime(a, x)?;
    let out = patch(base, &regime, &[a, x], |s| gammainc_temme(&s[0], &s[1], upper))?;
    let out =
        if upper { patch(out, &small_x_regime(a, x)?, &[a, x], |s| gammaincc_small_x(&s[0], &s[1]))? } else { out };
    // libtorch answers some nan arguments (P(nan, 0) = 0, P(inf, nan) = 0); SciPy gives nan
    fill(&out, &any_nan(a, x)?, f64::NAN)
}

/// The regularized lower incomplete gamma function `P(a, x)`,
/// `scipy.special.gammainc`: libtorch's kernel, except where `a ~ x > 20`, where
/// Temme's expansion replaces libtorch's (2e-9 off there).
pub fn gammainc(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    binary("gammainc", a, x, |a, x| gammainc_f64(a, x, false))
}

/// The regularized upper incomplete gamma function `Q(a, x) = 1 - P(a, x)`,
/// `scipy.special.gammaincc` (as [`gammainc`]).
pub fn gammaincc(a: &Tensor, x: &Tensor) -> Result<Tensor> {
    binary("gammaincc", a, x, |a, x| gammainc_f64(a, x, true))
}

/// The chi-square CDF `P(v/2, x/2)`, `scipy.special.chdtr(v, x)` (nan for x < 0).
pub fn chdtr(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    binary("chdtr", v, x, |v, x| {
        let out = gammainc_f64(&v.f_mul_scalar(0.5)?, &x.f_mul_scalar(0.5)?, false)?;
        fill(&out, &x.f_lt(0.0)?, f64::NAN)
    })
}

/// The chi-square survival function `Q(v/2, x/2)`, `scipy.special.chdtrc(v, x)`.
pub fn chdtrc(v: &Tensor, x: &Tensor) -> Result<Tensor> {
    binary("chdtrc", v, x, |v, x| {
        let out = gammainc_f64(&v.f_mul_scalar(0.5)?, &x.f_mul_scalar(0.5)?, true)?;
        fill(&out, &x.f_lt(0.0)?, f64::NAN)
    })
}

/// The Poisson CDF `Q(floor(k) + 1, m)`, `scipy.special.pdtr(k, m)`: 1 at
/// `m = 0`, nan for negative arguments.
pub fn pdtr(k: &Tensor, m: &Tensor) -> Result<Tensor> {
    binary("pdtr", k, m, |k, m| {
        let out = gammainc_f64(&k.f_floor()?.f_add_scalar(1.0)?, m, true)?;
        let out = fill(&out, &m.f_eq(0.0)?, 1.0)?;
        fill(&out, &or(&k.f_lt(0.0)?, &m.f_lt(0.0)?)?, f64::NAN)
    })
}

/// The Poisson survival function `P(floor(k) + 1, m)`, `scipy.special.pdtrc(k, m)`.
pub fn pdtrc(k: &Tensor, m: &Tensor) -> Result<Tensor> {
    binary("pdtrc", k, m, |k, m| {
        let out = gammainc_f64(&k.f_floor()?.f_add_scalar(1.0)?, m, false)?;
        let out = fill(&out, &m.f_eq(0.0)?, 0.0)?;
        fill(&out, &or(&k.f_lt(0.0)?, &m.f_lt(0.0)?)?, f64::NAN)
    })
}

// ===========================================================================
// Beta function and binomial coefficients
// ===========================================================================

/// Where the asymptotic form of the beta function applies (SciPy's rule):
/// `|a| > 1e6 |b|` and `a > 1e6`, for `|a| >= |b|`.
const BETA_ASYMPTOTIC: f64 = 1e6;

/// `log|B(a, b)|` for `a >> b` (SciPy's rule above): the expansion of
/// `lgamma(a) - lgamma(a + b)` in 1/a to third order.
fn lbeta_asymptotic(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let one_b = b.f_neg()?.f_add_scalar(1.0)?; // 1 - b
    let bb = b.f_mul(&one_b)?; // b (1 - b)
    let t1 = bb.f_div(&a.f_mul_scalar(2.0)?)?;
    let t2 = bb.f_mul(&b.f_mul_scalar(-2.0)?.f_add_scalar(1.0)?)?.f_div(&a.f_square()?.f_mul_scalar(12.0)?)?;
    let t3 = bb.f_square()?.f_div(&a.f_pow_tensor_scalar(3.0)?.f_mul_scalar(12.0)?)?;
    Ok(b.f_lgamma()?.f_sub(&b.f_mul(&a.f_log()?)?)?.f_add(&t1)?.f_add(&t2)?.f_sub(&t3)?)
}

/// A non-positive integer that fits an `int` (SciPy's `a == (int)a`).
fn nonpositive_integer(a: &Tensor) -> Result<Tensor> {
    and(&and(&a.f_le(0.0)?, &is_integral(a)?)?, &a.f_ge(-2147483648.0)?)
}

/// B(a, b) or log|B(a, b)| (with `log`) away from the non-positive integers:
/// Gamma quotients while all arguments are below 171.6 (ordered to avoid
/// overflow, as SciPy), lgamma sums with signs above, the asymptotic form for
/// `a >> b`.
fn beta_regular(a: &Tensor, b: &Tensor, log: bool) -> Result<Tensor> {
    let swap = a.f_abs()?.f_lt_tensor(&b.f_abs()?)?;
    let (a, b) = (pick(&swap, b, a)?, pick(&swap, a, b)?);
    let y = a.f_add(&b)?;
    let asymptotic =
        and(&a.f_abs()?.f_gt_tensor(&b.f_abs()?.f_mul_scalar(BETA_ASYMPTOTIC)?)?, &a.f_gt(BETA_ASYMPTOTIC)?)?;
    let large =
        or(&or(&y.f_abs()?.f_gt(MAX_GAMMA_ARG)?, &a.f_abs()?.f_gt(MAX_GAMMA_ARG)?)?, &b.f_abs()?.f_gt(MAX_GAMMA_ARG)?)?;
    let large = and(&large, &not(&asymptotic)?)?;
    let direct = not(&or(&large, &asymptotic)?)?;
    // each branch only where it applies: the Gamma quotient is the costly one
    let out = full(&a, f64::NAN)?;
    let out = patch(out, &direct, &[&a, &b], |v| {
        let (a, b) = (&v[0], &v[1]);
        let y = a.f_add(b)?;
        // Gamma(a + b) at its poles counts as +inf (SciPy's beta(1.5, -1.5) = 0)
        let (ga, gb) = (gamma_f64(a)?, gamma_f64(b)?);
        let gy = fill(&gamma_f64(&y)?, &and(&y.f_le(0.0)?, &is_integral(&y)?)?, f64::INFINITY)?;
        let (fa, fb, fy) = (ga.f_abs()?, gb.f_abs()?, gy.f_abs()?);
        // ordered like SciPy's, to keep the intermediate finite
        let a_first = fa.f_sub(&fy)?.f_abs()?.f_gt_tensor(&fb.f_sub(&fy)?.f_abs()?)?;
        let value = pick(&a_first, &gb.f_div(&gy)?.f_mul(&ga)?, &ga.f_div(&gy)?.f_mul(&gb)?)?;
        let value = fill(&value, &gy.f_eq(0.0)?, f64::INFINITY)?;
        // subnormal a or b: Gamma overflows, B(a, b) = 1/a + 1/b + O(1) does too
        let overflow = or(&ga.f_isinf()?, &gb.f_isinf()?)?;
        let value = pick(&overflow, &a.f_reciprocal()?.f_add(&b.f_reciprocal()?)?, &value)?;
        if log {
            Ok(value.f_abs()?.f_log()?)
        } else {
            Ok(value)
        }
    })?;
    let out = patch(out, &large, &[&a, &b], |v| {
        let (a, b) = (&v[0], &v[1]);
        let y = a.f_add(b)?;
        let value = a.f_lgamma()?.f_add(&b.f_lgamma()?.f_sub(&y.f_lgamma()?)?)?;
        if log {
            return Ok(value);
        }
        let sign = gamma_sign(a)?.f_mul(&gamma_sign(b)?)?.f_mul(&gamma_sign(&y)?)?;
        Ok(sign.f_mul(&value.f_exp()?)?)
    })?;
    patch(out, &asymptotic, &[&a, &b], |v| {
        let value = lbeta_asymptotic(&v[0], &v[1])?;
        if log {
            Ok(value)
        } else {
            Ok(gamma_sign(&v[1])?.f_mul(&value.f_exp()?)?)
        }
    })
}

/// SciPy's value at a non-positive integer `a` (`neg`): for integer `b` with
/// `1 - a - b > 0`, `(-1)^b B(1 - a - b, b)` (log: `log|B|`), else `inf`.
fn beta_at_negative_integer(a: &Tensor, b: &Tensor, log: bool) -> Result<Tensor> {
    let c = a.f_neg()?.f_add_scalar(1.0)?.f_sub(b)?; // 1 - a - b
    let defined = and(&and(&is_integral(b)?, &c.f_gt(0.0)?)?, &b.f_gt(0.0)?)?;
    // b <= 0 as well: SciPy recurses into another negative-integer case, which is inf
    let c_safe = pick(&defined, &c, &full(&c, 1.0)?)?;
    let b_safe = pick(&defined, b, &full(b, 1.0)?)?;
    let value = beta_regular(&c_safe, &b_safe, log)?;
    let sign = pick(&is_odd(b)?, &full(b, -1.0)?, &full(b, 1.0)?)?;
    let value = if log { value } else { value.f_mul(&sign)? };
    let infinite = if log { full(b, f64::INFINITY)? } else { sign.f_mul_scalar(f64::INFINITY)? };
    let recursed = and(&and(&is_integral(b)?, &c.f_gt(0.0)?)?, &b.f_le(0.0)?)?;
    let out = pick(&defined, &value, &full(b, f64::INFINITY)?)?;
    pick(&recursed, &infinite, &out)
}

fn beta_f64(a: &Tensor, b: &Tensor, log: bool) -> Result<Tensor> {
    let a_neg = nonpositive_integer(a)?;
    let b_neg = nonpositive_integer(b)?;
    let out = beta_regular(a, b, log)?;
    let out = patch(out, &and(&b_neg, &not(&a_neg)?)?, &[a, b], |v| beta_at_negative_integer(&v[1], &v[0], log))?;
    let out = patch(out, &a_neg, &[a, b], |v| beta_at_negative_integer(&v[0], &v[1], log))?;
    // non-positive integers beyond int range: SciPy's overflow branch
    let huge = |t: &Tensor| -> Result<Tensor> { and(&t.f_lt(-2147483648.0)?, &is_integral(t)?) };
    fill(&out, &or(&huge(a)?, &huge(b)?)?, f64::INFINITY)
}

/// The beta function `Gamma(a) Gamma(b) / Gamma(a + b)`, `scipy.special.beta`,
/// with SciPy's branches (including its values at the negative integers).
pub fn beta(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary("beta", a, b, |a, b| beta_f64(a, b, false))
}

/// `log|B(a, b)|`, `scipy.special.betaln`.
pub fn betaln(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary("betaln", a, b, |a, b| beta_f64(a, b, true))
}

/// Binomial coefficients for real arguments, `scipy.special.binom(n, k)`:
/// SciPy's multiplication formula for integer `k < 20` (exact for integer
/// results), its two asymptotic branches, and `1 / ((n + 1) B(n - k + 1, k + 1))`
/// elsewhere; nan at negative integer `n`.
pub fn binom(n: &Tensor, k: &Tensor) -> Result<Tensor> {
    binary("binom", n, k, |n, k| {
        let kx = k.f_floor()?;
        let nx = n.f_floor()?;
        let n_int = n.f_eq_tensor(&nx)?;
        let n1 = n.f_add_scalar(1.0)?;
        // integer k below 20 (after SciPy's symmetry reduction): the product formula
        let integer_k = and(&k.f_eq_tensor(&kx)?, &or(&n.f_abs()?.f_gt(1e-8)?, &n.f_eq(0.0)?)?)?;
        let reduce = and(&and(&n_int, &kx.f_gt_tensor(&nx.f_mul_scalar(0.5)?)?)?, &nx.f_gt(0.0)?)?;
        let kr = pick(&reduce, &nx.f_sub(&kx)?, &kx)?;
        let use_product = and(&integer_k, &and(&kr.f_ge(0.0)?, &kr.f_lt(20.0)?)?)?;
        // n >= 1e10 k > 0, and k > 1e8 |n|: SciPy's asymptotic branches
        let huge_n = and(&and(&n.f_ge_tensor(&k.f_mul_scalar(1e10)?)?, &k.f_gt(0.0)?)?, &not(&use_product)?)?;
        let huge_k = and(&k.f_gt_tensor(&n.f_abs()?.f_mul_scalar(1e8)?)?, &not(&or(&use_product, &huge_n)?)?)?;
        let general = not(&or(&or(&use_product, &huge_n)?, &huge_k)?)?;
        let out = full(n, f64::NAN)?;
        let out = patch(out, &general, &[n, k], |v| {
            let (n, k) = (&v[0], &v[1]);
            let n1 = n.f_add_scalar(1.0)?;
            Ok(n1.f_reciprocal()?.f_div(&beta_f64(&n1.f_sub(k)?, &k.f_add_scalar(1.0)?, false)?)?)
        })?;
        let out = patch(out, &use_product, &[n, &kr], |v| {
            let (n, kr) = (&v[0], &v[1]);
            let (mut num, mut den) = (full(n, 1.0)?, full(n, 1.0)?);
            for i in 1..20 {
                let active = kr.f_ge(i as f64)?;
                let num_i = n.f_add_scalar(i as f64)?.f_sub(kr)?.f_mul(&num)?;
                let den_i = den.f_mul_scalar(i as f64)?;
                let rescale = num_i.f_abs()?.f_gt(1e50)?;
                let num_r = pick(&rescale, &num_i.f_div(&den_i)?, &num_i)?;
                let den_r = fill(&den_i, &rescale, 1.0)?;
                num = pick(&active, &num_r, &num)?;
                den = pick(&active, &den_r, &den)?;
            }
            Ok(num.f_div(&den)?)
        })?;
        let out = patch(out, &huge_n, &[k, &n1], |v| {
            let (k, n1) = (&v[0], &v[1]);
            let lbeta = beta_f64(&n1.f_sub(k)?, &k.f_add_scalar(1.0)?, true)?;
            Ok(lbeta.f_add(&n1.f_log()?)?.f_neg()?.f_exp()?)
        })?;
        let out = patch(out, &huge_k, &[n, k, &n1], |v| {
            let (n, k, n1) = (&v[0], &v[1], &v[2]);
            let kx = k.f_floor()?;
            let gn = gamma_f64(n1)?;
            let ak = k.f_abs()?;
            let num = gn.f_div(&ak)?.f_add(&gn.f_mul(n)?.f_div(&k.f_square()?.f_mul_scalar(2.0)?)?)?;
            let num = num.f_div(&ak.f_pow(n)?.f_mul_scalar(PI)?)?;
            let kx_int = and(&kx.f_abs()?.f_lt(2147483648.0)?, &k.f_isfinite()?)?;
            let dk = pick(&kx_int, &k.f_sub(&kx)?, k)?;
            let sgn = pick(&and(&kx_int, &is_odd(&kx)?)?, &full(k, -1.0)?, &full(k, 1.0)?)?;
            let positive = num.f_mul(&dk.f_sub(n)?.f_mul_scalar(PI)?.f_sin()?)?.f_mul(&sgn)?;
            let negative = fill(&num.f_mul(&k.f_mul_scalar(PI)?.f_sin()?)?, &kx_int, 0.0)?;
            pick(&k.f_gt(0.0)?, &positive, &negative)
        })?;
        fill(&out, &and(&n.f_lt(0.0)?, &n_int)?, f64::NAN)
    })
}

// ===========================================================================
// Zeta functions
// ===========================================================================

/// `(2 pi)^-e` for e >= 0, with `e ln(2 pi)` evaluated exactly enough that the
/// result keeps full relative accuracy for large `e` (a plain `pow` loses
/// `e * 4e-17`).
fn two_pi_pow_neg(e: &Tensor) -> Result<Tensor> {
    const LN_2PI: f64 = 1.837_877_066_409_345_6;
    const LN_2PI_ERR: f64 = -7.756_588_316_134_483e-17;
    let (hi, lo) = two_product(e, LN_2PI)?;
    let lo = lo.f_add(&e.f_mul_scalar(LN_2PI_ERR)?)?;
    Ok(hi.f_neg()?.f_exp()?.f_mul(&lo.f_neg()?.f_add_scalar(1.0)?)?)
}

/// Riemann's zeta on float64: libtorch's Hurwitz zeta at q = 1 above 1,
/// Borwein's alternating-series algorithm on [-1/2, 1), the functional equation
/// `zeta(s) = 2 (2 pi)^(s-1) sin(pi s / 2) Gamma(1 - s) zeta(1 - s)` below, with
/// `Gamma(1 - s) (2 pi)^(s-1)` from Stirling's series in overflow-safe quarters
/// for s <= -10. Exact zeros at the negative even integers.
fn riemann_zeta_f64(s: &Tensor) -> Result<Tensor> {
    let above = s.f_special_zeta(&s.f_ones_like()?)?;
    let middle = and(&s.f_ge(-0.5)?, &s.f_lt(1.0)?)?;
    let out = patch(above, &middle, &[s], |v| {
        let s = &v[0];
        let mut acc = s.f_zeros_like()?;
        for (k, w) in BORWEIN.iter().enumerate() {
            acc = acc.f_add(&Tensor::f_pow_scalar((k + 1) as f64, &s.f_neg()?)?.f_mul_scalar(*w)?)?;
        }
        Ok(acc.f_div(&s.f_neg()?.f_add_scalar(1.0)?.f_mul_scalar(std::f64::consts::LN_2)?.f_expm1()?)?)
    })?;
    patch(out, &s.f_lt(-0.5)?, &[s], |v| {
        let s = &v[0];
        let u = s.f_neg()?; // -s > 1/2, exact
        let sine = sinpi(&s.f_mul_scalar(0.5)?)?;
        let zeta_reflected = u.f_add_scalar(1.0)?.f_special_zeta(&u.f_ones_like()?)?;
        // small |s|: direct
        let direct = Tensor::f_pow_scalar(2.0 * PI, &s.f_sub_scalar(1.0)?)?.f_mul(&u)?.f_mul(&gamma_nonneg(&u)?)?;
        // large |s|: (2 pi)^(-u-1) u Gamma(u) = (2 pi)^(-u-1/2) u^(u+1/2) e^-u S(1/u), in quarters
        let u_big = u.f_clamp_min(10.0)?;
        let e = u_big.f_add_scalar(0.5)?.f_mul_scalar(0.25)?;
        let quarter = u_big.f_pow(&e)?.f_mul(&two_pi_pow_neg(&e)?)?.f_mul(&u_big.f_mul_scalar(-0.25)?.f_exp()?)?;
        let series = horner(&u_big.f_reciprocal()?, &STIRLING_GAMMA)?;
        let half = quarter.f_square()?;
        let stirling = half.f_mul(&series)?.f_mul(&half)?;
        let factor = pick(&u.f_ge(10.0)?, &stirling, &direct)?;
        let value = sine.f_mul_scalar(2.0)?.f_mul(&zeta_reflected)?.f_mul(&factor)?;
        let value = fill(&value, &is_integral(&s.f_mul_scalar(0.5)?)?, 0.0)?;
        fill(&value, &s.f_isinf()?, f64::NAN)
    })
}

/// The Hurwitz zeta function on float64: libtorch's kernel (a port of the same
/// Cephes routine SciPy uses), with SciPy's limit 0 at `q = inf`.
fn hurwitz_zeta_f64(x: &Tensor, q: &Tensor) -> Result<Tensor> {
    let out = x.f_special_zeta(q)?;
    fill(&out, &and(&q.f_isposinf()?, &x.f_gt(1.0)?)?, 0.0)
}

/// Riemann's zeta function, `scipy.special.zeta(x)` (real x): see the module
/// notes; defined on the whole real line as SciPy's (`-0.5` at 0, 0 at the
/// negative even integers, `inf` at 1).
pub fn zeta(x: &Tensor) -> Result<Tensor> {
    unary("zeta", x, riemann_zeta_f64)
}

/// The Hurwitz zeta function `sum_k (k + q)^-x`, `scipy.special.zeta(x, q)`
/// (nan for x < 1, as SciPy).
pub fn hurwitz_zeta(x: &Tensor, q: &Tensor) -> Result<Tensor> {
    binary("hurwitz_zeta", x, q, hurwitz_zeta_f64)
}

// ===========================================================================
// Orthogonal polynomials
// ===========================================================================

/// How a polynomial family extends to negative integer degrees (SciPy's rules).
#[derive(Clone, Copy)]
enum NegativeDegree {
    /// `T_-n = T_n`.
    Abs,
    /// `U_-n = -U_(n-2)`.
    ChebyshevU,
    /// `P_-n = P_(n-1)`.
    Legendre,
    /// nan.
    Nan,
    /// 0 (libtorch's own rule).
    Zero,
}

/// An orthogonal polynomial of integer degree by libtorch's kernel, with
/// SciPy's rules for negative degrees. Real-valued degrees (SciPy's `dd->d`
/// loops) must be integral: SciPy evaluates other degrees through
/// hypergeometric functions, which libtorch lacks.
fn eval_poly(
    routine: &str,
    n: &Tensor,
    x: &Tensor,
    negative: NegativeDegree,
    kernel: fn(&Tensor, &Tensor) -> std::result::Result<Tensor, tch::TchError>,
) -> Result<Tensor> {
    let args = prepare(routine, &[n, x])?;
    let (n, x) = (&args.tensors[0], &args.tensors[1]);
    let integer_loop = dlpack::dtype_of(n)? == DType::Int64;
    let (n, mut invalid) = if integer_loop {
        (n.f_to_kind(Kind::Double)?, x.f_zeros_like()?.f_to_kind(Kind::Bool)?)
    } else {
        let finite = n.f_isfinite()?;
        let fractional = and(&finite, &not(&is_integral(n)?)?)?;
        if fractional.numel() > 0 && fractional.f_any()?.f_int64_value(&[])? != 0 {
            return Err(Error::NotImplemented(format!(
                "special.{routine} with a non-integer degree n is not implemented (SciPy evaluates it \
                 through hypergeometric functions, which libtorch lacks); integral degrees work"
            )));
        }
        // SciPy's real-degree loops give nan for infinite n
        let invalid = not(&finite)?;
        (fill(n, &not(&finite)?, 0.0)?, invalid)
    };
    let negative_n = n.f_lt(0.0)?;
    let degree = match negative {
        NegativeDegree::Abs => n.f_abs()?,
        NegativeDegree::ChebyshevU => pick(&negative_n, &n.f_neg()?.f_sub_scalar(2.0)?, &n)?,
        NegativeDegree::Legendre => pick(&negative_n, &n.f_neg()?.f_sub_scalar(1.0)?, &n)?,
        NegativeDegree::Nan | NegativeDegree::Zero => n.shallow_clone(),
    };
    let mut out = kernel(x, &degree)?;
    out = overflowed(out, negative, &degree, x)?;
    out = nonfinite_x(out, negative, integer_loop, &n, &degree, x)?;
    match negative {
        NegativeDegree::ChebyshevU => {
            // U_-1 = 0; U_-n = -U_(n-2)
            out = pick(&negative_n, &out.f_neg()?, &out)?;
            out = fill(&out, &n.f_eq(-1.0)?, 0.0)?;
            if !integer_loop {
                // SciPy's hypergeometric form of U_-1 is nan outside [-1, 1]
                let outside = not(&x.f_abs()?.f_le(1.0)?)?;
                out = fill(&out, &and(&n.f_eq(-1.0)?, &outside)?, f64::NAN)?;
            }
        }
        NegativeDegree::Nan => out = fill(&out, &negative_n, f64::NAN)?,
        NegativeDegree::Zero if !integer_loop => invalid = or(&invalid, &negative_n)?,
        _ => {}
    }
    finish(fill(&out, &invalid, f64::NAN)?, args.output)
}

/// `±inf`, the sign of the leading term (`sign(x)^n`, `sign(-x)^n` for
/// Laguerre), where libtorch's recurrence overflowed into `inf - inf` at a
/// large finite `x`. SciPy's own recurrences give nan there as often as inf.
fn overflowed(out: Tensor, family: NegativeDegree, degree: &Tensor, x: &Tensor) -> Result<Tensor> {
    let lost = and(&out.f_isnan()?, &x.f_isfinite()?)?;
    let base = if matches!(family, NegativeDegree::Zero) { x.f_neg()? } else { x.shallow_clone() };
    let negative = and(&base.f_lt(0.0)?, &is_odd(degree)?)?;
    let infinity = pick(&negative, &full(x, f64::NEG_INFINITY)?, &full(x, f64::INFINITY)?)?;
    pick(&lost, &infinity, &out)
}

/// SciPy's values at `x = nan, ±inf`, which follow its recurrences (libtorch's
/// kernels return garbage for nan `x` and degrees from 2). Integer degrees:
/// exactly SciPy's. Real-valued degrees: nan except for constant polynomials
/// (SciPy gives ±inf for a few degrees below 3 there, which is not copied).
fn nonfinite_x(
    out: Tensor,
    family: NegativeDegree,
    integer_loop: bool,
    n: &Tensor,
    degree: &Tensor,
    x: &Tensor,
) -> Result<Tensor> {
    let nan_x = x.f_isnan()?;
    let pinf = x.f_isposinf()?;
    let ninf = x.f_isneginf()?;
    let nonfinite = not(&x.f_isfinite()?)?;
    let constant = degree.f_eq(0.0)?;
    if !integer_loop {
        let out = fill(&out, &nonfinite, f64::NAN)?;
        return match family {
            NegativeDegree::Abs | NegativeDegree::Legendre => fill(&out, &and(&nonfinite, &constant)?, 1.0),
            NegativeDegree::ChebyshevU => {
                let out = fill(&out, &and(&nonfinite, &n.f_eq(0.0)?)?, 1.0)?;
                fill(&out, &and(&nonfinite, &n.f_eq(-2.0)?)?, -1.0)
            }
            NegativeDegree::Zero => fill(&out, &and(&ninf, &n.f_eq(0.0)?)?, 1.0),
            NegativeDegree::Nan => Ok(out),
        };
    }
    match family {
        NegativeDegree::Abs | NegativeDegree::ChebyshevU => fill(&out, &nonfinite, f64::NAN),
        NegativeDegree::Nan => fill(&out, &nan_x, f64::NAN),
        NegativeDegree::Zero => {
            let out = fill(&out, &nan_x, f64::NAN)?;
            let out = fill(&out, &and(&pinf, &n.f_ge(2.0)?)?, f64::NAN)?;
            fill(&out, &and(&ninf, &n.f_ge(1.0)?)?, f64::INFINITY)
        }
        NegativeDegree::Legendre => {
            let out = fill(&out, &and(&nan_x, &not(&constant)?)?, f64::NAN)?;
            let out = fill(&out, &and(&pinf, &not(&constant)?)?, f64::INFINITY)?;
            let out = fill(&out, &and(&ninf, &degree.f_ge(2.0)?)?, f64::NAN)?;
            let out = fill(&out, &and(&ninf, &degree.f_eq(1.0)?)?, f64::NEG_INFINITY)?;
            fill(&out, &and(&nonfinite, &constant)?, 1.0)
        }
    }
}

/// The Chebyshev polynomial of the first kind `T_n(x)`, `scipy.special.eval_chebyt`.
pub fn eval_chebyt(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly("eval_chebyt", n, x, NegativeDegree::Abs, Tensor::f_special_chebyshev_polynomial_t)
}

/// The Chebyshev polynomial of the second kind `U_n(x)`, `scipy.special.eval_chebyu`.
pub fn eval_chebyu(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly("eval_chebyu", n, x, NegativeDegree::ChebyshevU, Tensor::f_special_chebyshev_polynomial_u)
}

/// The physicists' Hermite polynomial `H_n(x)`, `scipy.special.eval_hermite`
/// (integer n only, as SciPy; nan for n < 0).
pub fn eval_hermite(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly("eval_hermite", n, x, NegativeDegree::Nan, Tensor::f_special_hermite_polynomial_h)
}

/// The probabilists' Hermite polynomial `He_n(x)`, `scipy.special.eval_hermitenorm`.
pub fn eval_hermitenorm(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly("eval_hermitenorm", n, x, NegativeDegree::Nan, Tensor::f_special_hermite_polynomial_he)
}

/// The Laguerre polynomial `L_n(x)`, `scipy.special.eval_laguerre` (0 for
/// integer n < 0, nan for real-valued n < 0, as SciPy).
pub fn eval_laguerre(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly("eval_laguerre", n, x, NegativeDegree::Zero, Tensor::f_special_laguerre_polynomial_l)
}

/// The Legendre polynomial `P_n(x)`, `scipy.special.eval_legendre` (`P_-n = P_(n-1)`).
pub fn eval_legendre(n: &Tensor, x: &Tensor) -> Result<Tensor> {
    eval_poly("eval_legendre", n, x, NegativeDegree::Legendre, Tensor::f_special_legendre_polynomial_p)
}

// ===========================================================================
// sinc and the reductions
// ===========================================================================

/// The normalized sinc `sin(pi x) / (pi x)` with NumPy's semantics
/// (`numpy.sinc`; SciPy has no sinc): computed in the dtype of `pi * x` (float16
/// stays float16, integers and bool give float64, complex is supported), with
/// `x = 0` replaced by the dtype's epsilon as NumPy does, so `sinc(0) = 1`.
pub fn sinc(x: &Tensor) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(x)?;
    let (target, eps) = match dtype {
        DType::Float16 => (DType::Float16, 2f64.powi(-10)),
        DType::BFloat16 => (DType::BFloat16, 2f64.powi(-7)),
        DType::Float32 => (DType::Float32, f64::from(f32::EPSILON)),
        DType::Complex64 | DType::Complex128 => (dtype, 1e-20),
        _ => (DType::Float64, f64::EPSILON),
    };
    let y = cast(x, target)?.f_mul_scalar(PI)?;
    let y = fill(&y, &y.f_eq(0.0)?, eps)?;
    Ok(y.f_sin()?.f_div(&y)?)
}

/// Axis arguments in NumPy's terms: `None` (all axes) or a list, each in
/// `-ndim..ndim`, no duplicates.
fn normalize_axes(axis: Option<&[i64]>, ndim: i64) -> Result<Vec<i64>> {
    let Some(axis) = axis else {
        return Ok((0..ndim).collect());
    };
    let mut out = Vec::with_capacity(axis.len());
    for &a in axis {
        if a < -ndim || a >= ndim {
            return Err(Error::InvalidArgument(format!("axis {a} is out of bounds for array of dimension {ndim}")));
        }
        let a = if a < 0 { a + ndim } else { a };
        if out.contains(&a) {
            return Err(Error::InvalidArgument("duplicate value in 'axis'".into()));
        }
        out.push(a);
    }
    Ok(out)
}

/// The maximum over `axes` (kept as size-1 dims); the tensor itself for no axes.
fn max_keep(t: &Tensor, axes: &[i64]) -> Result<Tensor> {
    if axes.is_empty() {
        return Ok(t.shallow_clone());
    }
    let size = t.size();
    if axes.iter().any(|&a| size[a as usize] == 0) {
        return Err(Error::InvalidArgument(
            "zero-size array to reduction operation maximum which has no identity".into(),
        ));
    }
    Ok(t.f_amax(axes, true)?)
}

/// The sum over `axes` (kept as size-1 dims); the tensor itself for no axes.
fn sum_keep(t: &Tensor, axes: &[i64]) -> Result<Tensor> {
    if axes.is_empty() {
        return Ok(t.shallow_clone());
    }
    Ok(t.f_sum_dim_intlist(axes, true, None::<Kind>)?)
}

fn squeeze_axes(t: Tensor, axes: &[i64], keepdims: bool) -> Result<Tensor> {
    if keepdims || axes.is_empty() {
        Ok(t)
    } else {
        Ok(t.f_squeeze_dims(axes)?)
    }
}

/// The floating dtype `logsumexp` computes in: NumPy's promotion of the inputs,
/// float64 when that is not floating (SciPy's `xp_promote(force_floating=True)`).
pub fn logsumexp_dtype(dtypes: &[DType]) -> Result<DType> {
    if let Some(&complex) = dtypes.iter().find(|d| d.is_complex()) {
        return Err(complex_not_implemented("special.logsumexp", complex));
    }
    if !dtypes.iter().any(|d| d.is_float()) {
        return Ok(DType::Float64);
    }
    [DType::Float16, DType::Float32, DType::Float64]
        .into_iter()
        .find(|&f| {
            dtypes.iter().all(|&d| d == f || can_cast_safe(d, f) && !(d == DType::BFloat16 && f == DType::Float16))
        })
        .ok_or_else(|| Error::InvalidArgument("no common floating dtype".into()))
}

/// `log(sum(b * exp(a)))` over `axis`, `scipy.special.logsumexp`, by SciPy's
/// algorithm (the largest term factored out exactly, `log1p` of the rest,
/// SciPy's handling of zero weights, negative sums and infinities). Returns
/// the result and, with `return_sign`, the sign of the sum.
pub fn logsumexp(
    a: &Tensor,
    axis: Option<&[i64]>,
    b: Option<&Tensor>,
    keepdims: bool,
    return_sign: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    let mut dtypes = vec![dlpack::dtype_of(a)?];
    if let Some(b) = b {
        dtypes.push(dlpack::dtype_of(b)?);
    }
    let output = logsumexp_dtype(&dtypes)?;
    let mut tensors = vec![cast(a, DType::Float64)?];
    if let Some(b) = b {
        tensors.push(cast(b, DType::Float64)?);
    }
    let mut tensors = broadcast(same_device(tensors)?)?;
    let atleast_1d = |t: Tensor| -> Result<Tensor> {
        if t.dim() == 0 {
            Ok(t.f_reshape([1])?)
        } else {
            Ok(t)
        }
    };
    let b = if tensors.len() == 2 { Some(atleast_1d(tensors.pop().expect("two"))?) } else { None };
    let a = atleast_1d(tensors.pop().expect("one"))?;
    let axes = normalize_axes(axis, a.dim() as i64)?;
    let (out, sign) = if a.numel() == 0 {
        let mut shape = a.size();
        for &ax in &axes {
            shape[ax as usize] = 1;
        }
        let out = Tensor::f_full(&shape, f64::NEG_INFINITY, (Kind::Double, a.device()))?;
        let sign = sign(&out)?;
        (out, sign)
    } else {
        // the direct formula, for the infinite results
        let b_exp_a = match &b {
            Some(b) => b.f_mul(&a.f_exp()?)?,
            None => a.f_exp()?,
        };
        let direct = sum_keep(&b_exp_a, &axes)?;
        let sign_inf = sign(&direct)?;
        let out_inf = if return_sign { direct.f_abs()?.f_log()? } else { direct.f_log()? };
        // the stable formula
        let a = match &b {
            Some(b) => fill(&a, &b.f_eq(0.0)?, f64::NEG_INFINITY)?,
            None => a.shallow_clone(),
        };
        let a_max = max_keep(&a, &axes)?;
        let is_max = a.f_eq_tensor(&a_max)?;
        let a_rest = fill(&a, &is_max, f64::NEG_INFINITY)?;
        let weights_at_max = match &b {
            Some(b) => b.f_mul(&is_max.f_to_kind(Kind::Double)?)?,
            None => is_max.f_to_kind(Kind::Double)?,
        };
        let m = sum_keep(&weights_at_max, &axes)?;
        let shifted = a_rest.f_sub(&a_max)?.f_exp()?;
        let terms = match &b {
            Some(b) => b.f_mul(&shifted)?,
            None => shifted,
        };
        let s = sum_keep(&terms, &axes)?;
        let s = pick(&s.f_eq(0.0)?, &s, &s.f_div(&m)?)?;
        let sign = sign(&s.f_add_scalar(1.0)?)?.f_mul(&sign(&m)?)?;
        let s = pick(&s.f_lt(-1.0)?, &s.f_neg()?.f_sub_scalar(2.0)?, &s)?;
        let out = log1p_f64(&s)?.f_add(&m.f_abs()?.f_log()?)?.f_add(&a_max)?;
        let out = if return_sign { out } else { fill(&out, &sign.f_lt(0.0)?, f64::NAN)? };
        let finite = out.f_isfinite()?;
        (pick(&finite, &out, &out_inf)?, pick(&finite, &sign, &sign_inf)?)
    };
    let kind = kind_of(output)?;
    let out = squeeze_axes(out, &axes, keepdims)?.f_to_kind(kind)?;
    let sign = if return_sign { Some(squeeze_axes(sign, &axes, keepdims)?.f_to_kind(kind)?) } else { None };
    Ok((out, sign))
}

/// The floating dtype `numpy.exp` returns for `dtype` (what SciPy's softmax
/// and log_softmax return); bool is refused as NumPy refuses `x - x.max()`.
fn exp_dtype(routine: &'static str, dtype: DType) -> Result<DType> {
    use DType::*;
    match dtype {
        Bool => Err(Error::DtypeNotAccepted {
            routine,
            dtype,
            accepted: "integer and real floating-point input (NumPy has no boolean subtract)",
        }),
        Int8 | UInt8 | Float16 => Ok(Float16),
        BFloat16 => Ok(BFloat16),
        Int16 | UInt16 | Float32 => Ok(Float32),
        Int32 | UInt32 | Int64 | UInt64 | Float64 => Ok(Float64),
        Complex64 | Complex128 => Err(complex_not_implemented(routine, dtype)),
    }
}

/// `x - max(x)` as NumPy computes it in `x`'s own dtype (integers wrap around),
/// returned as float64, and the maximum (with `zero_nonfinite_max`, non-finite
/// maxima replaced by 0 as in `log_softmax`).
fn shifted_by_max(x: &Tensor, axes: &[i64], zero_nonfinite_max: bool) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(x)?;
    if dtype.is_float() {
        let x = cast(x, DType::Float64)?;
        let x_max = max_keep(&x, axes)?;
        let x_max = if zero_nonfinite_max { fill(&x_max, &not(&x_max.f_isfinite()?)?, 0.0)? } else { x_max };
        return Ok(x.f_sub(&x_max)?);
    }
    match dtype {
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 | DType::UInt8 => {
            let x_max = max_keep(x, axes)?;
            Ok(x.f_sub(&x_max)?.f_to_kind(Kind::Double)?)
        }
        DType::UInt16 | DType::UInt32 => {
            let wide = cast(x, DType::Int64)?;
            let d = wide.f_sub(&max_keep(&wide, axes)?)?;
            let modulus = if dtype == DType::UInt16 { 1i64 << 16 } else { 1i64 << 32 };
            Ok(d.f_remainder(modulus)?.f_to_kind(Kind::Double)?)
        }
        _ => {
            // uint64: the wrapped difference, approximately, in float64
            let wide = cast(x, DType::Float64)?;
            let d = wide.f_sub(&max_keep(&wide, axes)?)?;
            Ok(pick(&d.f_lt(0.0)?, &d.f_add_scalar(18446744073709551616.0)?, &d)?)
        }
    }
}

/// `t` (float64) rounded to `dtype` and back: NumPy computes `exp` in the
/// result dtype, so float16 overflows to inf beyond 65504 as there.
fn in_dtype(t: &Tensor, dtype: DType) -> Result<Tensor> {
    if dtype == DType::Float64 {
        return Ok(t.shallow_clone());
    }
    Ok(t.f_to_kind(kind_of(dtype)?)?.f_to_kind(Kind::Double)?)
}

/// The softmax `exp(x - max) / sum(exp(x - max))` over `axis` (all axes for
/// `None`), `scipy.special.softmax`, in the dtype NumPy's `exp` gives `x`.
pub fn softmax(x: &Tensor, axis: Option<&[i64]>) -> Result<Tensor> {
    let output = exp_dtype("special.softmax", dlpack::dtype_of(x)?)?;
    let axes = normalize_axes(axis, x.dim() as i64)?;
    let e = in_dtype(&shifted_by_max(x, &axes, false)?.f_exp()?, output)?;
    let out = e.f_div(&sum_keep(&e, &axes)?)?;
    Ok(out.f_to_kind(kind_of(output)?)?)
}

/// The logarithm of the softmax, `scipy.special.log_softmax`:
/// `(x - max) - log(sum(exp(x - max)))`, non-finite maxima taken as 0 (SciPy).
pub fn log_softmax(x: &Tensor, axis: Option<&[i64]>) -> Result<Tensor> {
    let output = exp_dtype("special.log_softmax", dlpack::dtype_of(x)?)?;
    let axes = normalize_axes(axis, x.dim() as i64)?;
    let shifted = shifted_by_max(x, &axes, true)?;
    let log_sum = sum_keep(&in_dtype(&shifted.f_exp()?, output)?, &axes)?.f_log()?;
    Ok(shifted.f_sub(&log_sum)?.f_to_kind(kind_of(output)?)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_strings_parse() {
        let parsed = parse_loop("ld->d").unwrap();
        assert_eq!(parsed.inputs, [DType::Int64, DType::Float64]);
        assert_eq!(parsed.output, DType::Float64);
        assert!(parse_loop("g->g").is_none(), "long double loops are never chosen");
        assert!(parse_loop("dd").is_none());
        for ufunc in UFUNCS {
            assert!(ufunc.types.iter().any(|t| parse_loop(t).is_some()), "{}", ufunc.name);
            assert_eq!(ufunc.qualified, format!("special.{}", ufunc.name));
        }
    }

    #[test]
    fn safe_casts_are_numpys() {
        use DType::*;
        let yes = [
            (Int8, Float16),
            (UInt8, Float16),
            (Int16, Float32),
            (Int64, Float64),
            (UInt64, Float64),
            (UInt32, Int64),
            (Float16, Float32),
            (Bool, Int64),
            (Float32, Complex64),
            (Int32, Complex128),
        ];
        let no = [
            (Int16, Float16),
            (Int32, Float32),
            (UInt64, Int64),
            (Float64, Float32),
            (Float32, Int64),
            (Int32, Complex64),
            (Complex64, Float64),
            (Int8, Bool),
        ];
        for (from, to) in yes {
            assert!(can_cast_safe(from, to), "{from} -> {to}");
        }
        for (from, to) in no {
            assert!(!can_cast_safe(from, to), "{from} -> {to}");
        }
    }

    #[test]
    fn weak_literals_fit_loops_of_their_kind() {
        assert!(fits(Operand::PyInt, DType::Float32, true));
        assert!(fits(Operand::PyInt, DType::Int64, true));
        assert!(!fits(Operand::PyFloat, DType::Int64, true));
        assert!(!fits(Operand::PyFloat, DType::Float32, false), "a concrete float64 does not fit f");
        assert!(fits(Operand::PyComplex, DType::Complex64, true));
        assert!(!fits(Operand::PyComplex, DType::Float64, true));
    }

    #[test]
    fn broadcast_shapes_and_axes() {
        assert_eq!(broadcast_shape(&[vec![3, 1], vec![4]]).unwrap(), [3, 4]);
        assert_eq!(broadcast_shape(&[vec![], vec![2, 0]]).unwrap(), [2, 0]);
        assert!(broadcast_shape(&[vec![3], vec![4]]).is_err());
        assert_eq!(normalize_axes(None, 3).unwrap(), [0, 1, 2]);
        assert_eq!(normalize_axes(Some(&[-1, 0]), 3).unwrap(), [2, 0]);
        assert!(normalize_axes(Some(&[3]), 3).is_err());
        assert!(normalize_axes(Some(&[1, -2]), 3).is_err());
    }

    #[test]
    fn logsumexp_promotes_like_scipy() {
        use DType::*;
        assert_eq!(logsumexp_dtype(&[Int8]).unwrap(), Float64);
        assert_eq!(logsumexp_dtype(&[Float16]).unwrap(), Float16);
        assert_eq!(logsumexp_dtype(&[Int8, Float16]).unwrap(), Float16);
        assert_eq!(logsumexp_dtype(&[Int32, Float16]).unwrap(), Float64);
        assert_eq!(logsumexp_dtype(&[Float32, Float64]).unwrap(), Float64);
        assert!(logsumexp_dtype(&[Complex64]).is_err());
    }

    #[test]
    fn generated_tables_are_sane() {
        // c_0(0) = -1/3 and c_1(0) = -1/540 (Temme), psi at its zeros, Borwein's weights
        assert_eq!(TEMME[0][0], -1.0 / 3.0);
        assert!((TEMME[1][0] + 1.0 / 540.0).abs() < 1e-18);
        assert!(DIGAMMA_POS[0].abs() < 1e-16 && DIGAMMA_NEG[0].abs() < 1e-16);
        assert_eq!(BORWEIN[0], -1.0);
        assert_eq!(FACTORIALS[5], 120.0);
        assert_eq!(LGAMMA1P[1], -EULER);
    }
}
