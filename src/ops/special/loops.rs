//! NumPy's ufunc type resolution for SciPy's loop tables: which loop of a
//! ufunc ([`Ufunc::types`], the strings of `scipy.special.<name>.types`) runs
//! for given inputs, and the casts, device moves and broadcasting around the
//! kernel that computes it. NumPy's casting and broadcasting rules themselves
//! are [`crate::ops::numpy`]'s.

use tch::Tensor;

use super::ufuncs::{self, Ufunc};
use crate::ops::numpy::{broadcast, can_cast_safe, cast, same_device};
use crate::{dlpack, DType, Error, Result};

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
/// the dtype of the result (of every result, for the multi-output ufuncs,
/// whose loops give all their outputs one dtype).
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
    // one output code, or several equal ones (`"d->dddd"`)
    let output = match output.as_bytes() {
        [code, rest @ ..] if rest.iter().all(|c| c == code) => loop_code(*code)?,
        _ => return None,
    };
    Some(Loop { inputs, output })
}

/// NumPy's order of kinds for the weak-scalar rule: bool, integers, inexact.
fn kind_rank(dtype: DType) -> u8 {
    match dtype {
        DType::Bool => 0,
        d if d.is_float() || d.is_complex() => 2,
        _ => 1,
    }
}

pub(super) fn is_integer(dtype: DType) -> bool {
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

/// SciPy's loop strings for a ufunc of this module (`scipy.special.<name>.types`;
/// `"zeta"` is SciPy's `_riemann_zeta`, `"hurwitz_zeta"` its `_zeta`).
pub fn ufunc_types(routine: &str) -> Option<&'static [&'static str]> {
    ufuncs::ufunc(routine).map(|u| u.types)
}

/// Every ufunc name [`ufunc_types`] knows.
pub fn ufunc_names() -> impl Iterator<Item = &'static str> {
    ufuncs::ALL.iter().map(|u| u.name)
}

/// The loop the ufunc named `routine` runs for `operands` (see [`Ufunc::loop_for`]);
/// [`Error::InvalidArgument`] for a name that is not one of this module's ufuncs.
pub fn loop_for(routine: &str, operands: &[Operand]) -> Result<Loop> {
    ufuncs::ufunc(routine)
        .ok_or_else(|| Error::InvalidArgument(format!("special.{routine} is not a ufunc of torchbridge.special")))?
        .loop_for(operands)
}

impl Ufunc {
    /// The loop this ufunc runs for `operands`, or the error SciPy's refusal
    /// maps to: [`Error::DtypeNotAccepted`] when no loop fits,
    /// [`Error::NotImplemented`] for a complex loop torchbridge does not
    /// compute (see `COMPLEX_KERNELS`).
    pub fn loop_for(&self, operands: &[Operand]) -> Result<Loop> {
        let has_complex_loops = self.types.iter().any(|t| t.contains(['D', 'F']));
        let Some(chosen) = resolve_loop(self.types, operands) else {
            let dtypes: Vec<DType> = operands.iter().map(|o| o.concrete()).collect();
            if let Some(&complex) = dtypes.iter().find(|d| d.is_complex()) {
                if has_complex_loops {
                    return Err(complex_not_implemented(self.qualified, complex));
                }
            }
            // Name the first argument that fits no loop in its position.
            let loops: Vec<Loop> = self.types.iter().filter_map(|t| parse_loop(t)).collect();
            let offending = (0..operands.len())
                .find(|&i| !loops.iter().any(|l| l.inputs.get(i).is_some_and(|&to| fits(operands[i], to, false))))
                .map_or_else(|| dtypes.first().copied().unwrap_or(DType::Float64), |i| dtypes[i]);
            return Err(Error::DtypeNotAccepted { routine: self.qualified, dtype: offending, accepted: self.accepts });
        };
        if chosen.is_complex() && !COMPLEX_KERNELS.contains(&self.name) {
            let dtype = chosen.inputs.iter().copied().find(|d| d.is_complex()).unwrap_or(chosen.output);
            return Err(complex_not_implemented(self.qualified, dtype));
        }
        Ok(chosen)
    }

    /// Casts `tensors` to the loop this ufunc runs for `operands` (the Python
    /// layer passes weak literals this way, so that the kernel then finds that
    /// loop by exact match). Returns the cast tensors.
    pub fn cast_to_loop(&self, tensors: &[&Tensor], operands: &[Operand]) -> Result<Vec<Tensor>> {
        let chosen = self.loop_for(operands)?;
        tensors.iter().zip(&chosen.inputs).map(|(t, &dtype)| cast(t, dtype)).collect()
    }
}

/// The ufuncs whose complex loops torchbridge computes (the Faddeeva-function
/// kernel of `csrc/faddeeva.cpp`, ndtr and log_ndtr included; the complex xsf
/// kernels of `csrc/xsf_complex.cpp`, Riemann's zeta (Hurwitz's: nan + nan j,
/// as SciPy), Carlson's integrals and the pairs sici, shichi, fresnel included;
/// the Bessel functions of complex argument of `csrc/bessel_complex.h`, and
/// hyp0f1, airy and airye built on them;
/// `expm1`, `log1p`, `xlogy` and `xlog1py` from libtorch's complex ops;
/// hyp2f1, hyp1f1 and the orthogonal polynomials' complex loops of
/// `csrc/hypergeometric_complex.h`). That is every complex loop SciPy has
/// among torchbridge's ufuncs: the refusal of any other ("not implemented")
/// guards the routines added later.
const COMPLEX_KERNELS: &[&str] = &[
    "wofz",
    "erf",
    "erfc",
    "erfcx",
    "erfi",
    "dawsn",
    "expm1",
    "log1p",
    "ndtr",
    "log_ndtr",
    "gamma",
    "loggamma",
    "rgamma",
    "digamma",
    "psi",
    "exp1",
    "expi",
    "spence",
    "xlogy",
    "xlog1py",
    "jv",
    "jn",
    "yv",
    "iv",
    "kv",
    "jve",
    "yve",
    "ive",
    "kve",
    "hankel1",
    "hankel2",
    "hankel1e",
    "hankel2e",
    "hyp0f1",
    "spherical_jn",
    "spherical_yn",
    "spherical_in",
    "spherical_kn",
    "spherical_jn_d",
    "spherical_yn_d",
    "spherical_in_d",
    "spherical_kn_d",
    "zeta",
    "hurwitz_zeta",
    "elliprf",
    "elliprd",
    "elliprc",
    "elliprj",
    "elliprg",
    "sici",
    "shichi",
    "fresnel",
    "airy",
    "airye",
    "hyp2f1",
    "hyp1f1",
    "eval_jacobi",
    "eval_gegenbauer",
    "eval_genlaguerre",
    "eval_chebyt",
    "eval_chebyu",
    "eval_legendre",
    "eval_laguerre",
    "eval_sh_legendre",
    "eval_sh_chebyt",
    "eval_sh_chebyu",
];

/// "not implemented" for a complex input SciPy accepts.
pub(super) fn complex_not_implemented(routine: &str, dtype: DType) -> Error {
    Error::NotImplemented(format!(
        "{routine} on {dtype} input is not implemented (libtorch has no complex kernel for it)"
    ))
}

/// Arguments of one ufunc call, ready to compute on: cast to the loop's input
/// dtypes (floating inputs to float64, complex to complex128), on one device,
/// broadcast to one shape.
pub(super) struct Args {
    pub(super) tensors: Vec<Tensor>,
    pub(super) output: DType,
}

/// Resolves the loop of `ufunc` for `inputs` (arrays), casts, moves CPU
/// scalars to the other inputs' device and broadcasts.
pub(super) fn prepare(ufunc: &Ufunc, inputs: &[&Tensor]) -> Result<Args> {
    let operands = inputs.iter().map(|t| dlpack::dtype_of(t).map(Operand::Array)).collect::<Result<Vec<_>>>()?;
    let chosen = ufunc.loop_for(&operands)?;
    let tensors = inputs
        .iter()
        .zip(&chosen.inputs)
        .map(|(t, &dtype)| {
            let wide = if dtype.is_float() {
                DType::Float64
            } else if dtype.is_complex() {
                DType::Complex128
            } else {
                dtype
            };
            cast(t, wide)
        })
        .collect::<Result<Vec<_>>>()?;
    let tensors = broadcast(same_device(tensors)?)?;
    Ok(Args { tensors, output: chosen.output })
}

/// `result` in the loop's output dtype.
pub(super) fn finish(result: Tensor, output: DType) -> Result<Tensor> {
    cast(&result, output)
}

/// `t` as float64, unless it is complex (a complex loop's complex128 input,
/// which the kernel takes as it is).
fn real_to_f64(t: &Tensor) -> Result<Tensor> {
    if crate::dlpack::dtype_of(t)?.is_complex() {
        return Ok(t.shallow_clone());
    }
    cast(t, DType::Float64)
}

/// A unary ufunc: `kernel` computes on the float64 (or loop-typed) input.
pub(super) fn unary(ufunc: &Ufunc, x: &Tensor, kernel: fn(&Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let args = prepare(ufunc, &[x])?;
    finish(kernel(&args.tensors[0])?, args.output)
}

/// A binary ufunc: `kernel` computes on the broadcast float64 (or loop-typed) inputs.
pub(super) fn binary(
    ufunc: &Ufunc,
    x: &Tensor,
    y: &Tensor,
    kernel: fn(&Tensor, &Tensor) -> Result<Tensor>,
) -> Result<Tensor> {
    let args = prepare(ufunc, &[x, y])?;
    finish(kernel(&args.tensors[0], &args.tensors[1])?, args.output)
}

/// A multi-output unary ufunc: `kernel` computes on the float64 input and
/// returns one tensor per output, each rounded to the loop's output dtype.
pub(super) fn unary_multi(
    ufunc: &Ufunc,
    x: &Tensor,
    kernel: fn(&Tensor) -> Result<Vec<Tensor>>,
) -> Result<Vec<Tensor>> {
    let args = prepare(ufunc, &[x])?;
    let x = real_to_f64(&args.tensors[0])?;
    kernel(&x)?.into_iter().map(|t| finish(t, args.output)).collect()
}

/// A multi-output binary ufunc (SciPy's `ellipj`), as [`unary_multi`].
pub(super) fn binary_multi(
    ufunc: &Ufunc,
    x: &Tensor,
    y: &Tensor,
    kernel: fn(&Tensor, &Tensor) -> Result<Vec<Tensor>>,
) -> Result<Vec<Tensor>> {
    let args = prepare(ufunc, &[x, y])?;
    let t = args.tensors.iter().map(real_to_f64).collect::<Result<Vec<_>>>()?;
    kernel(&t[0], &t[1])?.into_iter().map(|t| finish(t, args.output)).collect()
}

/// A ternary ufunc: `kernel` computes on the broadcast inputs, all as float64
/// (integer loops such as `dld->d` take integral values the kernels floor).
pub(super) fn ternary(
    ufunc: &Ufunc,
    x: &Tensor,
    y: &Tensor,
    z: &Tensor,
    kernel: fn(&Tensor, &Tensor, &Tensor) -> Result<Tensor>,
) -> Result<Tensor> {
    let args = prepare(ufunc, &[x, y, z])?;
    let t = args.tensors.iter().map(real_to_f64).collect::<Result<Vec<_>>>()?;
    finish(kernel(&t[0], &t[1], &t[2])?, args.output)
}

/// A four-input ufunc (SciPy's `elliprj`), as [`ternary`].
pub(super) fn quaternary(
    ufunc: &Ufunc,
    x: &Tensor,
    y: &Tensor,
    z: &Tensor,
    w: &Tensor,
    kernel: fn(&Tensor, &Tensor, &Tensor, &Tensor) -> Result<Tensor>,
) -> Result<Tensor> {
    let args = prepare(ufunc, &[x, y, z, w])?;
    let t = args.tensors.iter().map(real_to_f64).collect::<Result<Vec<_>>>()?;
    finish(kernel(&t[0], &t[1], &t[2], &t[3])?, args.output)
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
        assert_eq!(parse_loop("d->dddd").unwrap().output, DType::Float64);
        assert!(parse_loop("d->df").is_none(), "outputs of one dtype only");
        for ufunc in ufuncs::ALL {
            assert!(ufunc.types.iter().any(|t| parse_loop(t).is_some()), "{}", ufunc.name);
            assert_eq!(ufunc.qualified, format!("special.{}", ufunc.name));
            assert!(ufunc.types.iter().all(|t| t.split_once("->").unwrap().0.len() == ufunc.nin), "{}", ufunc.name);
            assert!(ufunc.types.iter().all(|t| t.split_once("->").unwrap().1.len() == ufunc.nout), "{}", ufunc.name);
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
}
