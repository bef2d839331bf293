//! Operators by name: any ATen operator registered in libtorch's dispatcher,
//! called with arguments converted according to its schema.
//!
//! ```
//! use torchbridge::aten::{self, Arg, Value};
//!
//! let a = tch::Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
//! let b = tch::Tensor::from_slice(&[10.0f64, 20.0, 30.0]);
//! let out = aten::call("aten::add.Tensor", &[Arg::from(&a), Arg::from(&b)], &[("alpha", Arg::from(2))])?;
//! let sum = out.into_iter().next().unwrap().into_tensor()?;
//! assert_eq!(Vec::<f64>::try_from(&sum).unwrap(), [21.0, 42.0, 63.0]);
//!
//! // Without an overload name the first overload whose schema accepts the
//! // arguments is taken ("" first, then "Tensor", "Scalar", ...).
//! let out = aten::call("aten::max", &[Arg::from(&a), Arg::from(0)], &[])?;
//! assert!(matches!(out.as_slice(), [Value::Tensor(_), Value::Tensor(_)])); // max.dim
//! assert!(aten::schema("aten::add.Tensor")?.starts_with("aten::add.Tensor(Tensor self, Tensor other"));
//! # Ok::<(), torchbridge::Error>(())
//! ```
//!
//! How it works: Rust turns each [`Arg`] into a tagged value in an argument
//! list owned by the C++ shim; the shim finds the schema with
//! `c10::Dispatcher::findSchema`, converts every value to the `c10::IValue`
//! its parameter's type wants (defaults fill the rest), calls the operator
//! boxed (`callBoxed`), and hands the outputs back as tagged values, read here
//! into [`Value`]s. A value that does not fit its parameter is a mismatch with
//! the schema in the message; without an overload name the next overload is
//! tried. Overloads are tried twice: first strictly, then allowing a Python-
//! style coercion (a number where a tensor is expected becomes a wrapped
//! scalar tensor, a one-element tensor where a Scalar is expected is read out).
//!
//! Argument types: `Tensor`, `Tensor?`, `Tensor[]`, `Tensor?[]`, `int`,
//! `int[]` (an int broadcasts to `int[N]`), `SymInt`, `SymInt[]`, `float`,
//! `float[]`, `complex`, `bool`, `bool[]`, `str`, `Scalar`, `Scalar[]`,
//! `ScalarType`, `Layout`, `MemoryFormat`, `Device`, optionals of these, and
//! `Generator?` (None only). An empty list of any kind fits any list type.
//! Strings are accepted for `ScalarType` ("float32", "double", "torch.int64"),
//! `Layout` ("strided"), `MemoryFormat` ("channels_last") and `Device`
//! ("cpu", "cuda:0").
//!
//! Tensors passed as [`Arg::ConstTensor`] (or [`Arg::ConstTensorList`]) must
//! not be written: an operator whose schema writes into that parameter
//! (in-place `add_`, `out=`) is refused with [`Error::InvalidArgument`].

use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::sync::{Arc, RwLock};

use tch::Tensor;

use crate::ffi::aten::{self as ffi, tag, ArgList, CallFailure, OutputList, Push};
use crate::{DType, Error, Result};

/// A tensor layout (`c10::Layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Layout {
    /// Dense, strided (`torch.strided`).
    Strided,
    /// Sparse COO (`torch.sparse_coo`).
    SparseCoo,
    /// Sparse CSR (`torch.sparse_csr`).
    SparseCsr,
    /// Sparse CSC (`torch.sparse_csc`).
    SparseCsc,
}

impl Layout {
    fn code(self) -> i64 {
        match self {
            Layout::Strided => 0,
            Layout::SparseCoo => 1,
            Layout::SparseCsr => 2,
            Layout::SparseCsc => 4,
        }
    }
}

/// A memory format (`c10::MemoryFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MemoryFormat {
    /// Row-major (`torch.contiguous_format`).
    Contiguous,
    /// Keep the input's strides (`torch.preserve_format`).
    Preserve,
    /// NHWC (`torch.channels_last`).
    ChannelsLast,
    /// NDHWC (`torch.channels_last_3d`).
    ChannelsLast3d,
}

impl MemoryFormat {
    fn code(self) -> i64 {
        match self {
            MemoryFormat::Contiguous => 0,
            MemoryFormat::Preserve => 1,
            MemoryFormat::ChannelsLast => 2,
            MemoryFormat::ChannelsLast3d => 3,
        }
    }
}

/// One argument of an operator call, converted by the shim to what the
/// operator's schema wants (see the module docs for the conversions).
#[derive(Debug)]
#[non_exhaustive]
pub enum Arg {
    /// `None`: for optional parameters (`Tensor?`, `int?`, `Generator?`, ...).
    None,
    /// A `bool`.
    Bool(bool),
    /// An `int` or `SymInt` (also fits `float`, `complex`, `Scalar`, and `int[N]`).
    Int(i64),
    /// A `float` (also fits `complex` and `Scalar`).
    Float(f64),
    /// A `complex` `(re, im)` (also fits `Scalar`).
    Complex(f64, f64),
    /// A `str`; also parsed for `ScalarType`, `Layout`, `MemoryFormat` and `Device` parameters.
    Str(String),
    /// A tensor the operator may write into (in-place operators, `out=`).
    Tensor(Tensor),
    /// A tensor whose memory must not be written: operators that would write
    /// into it are refused.
    ConstTensor(Tensor),
    /// A `Tensor[]` (`cat`, `stack`, ...).
    TensorList(Vec<Tensor>),
    /// A `Tensor[]` whose memory must not be written.
    ConstTensorList(Vec<Tensor>),
    /// A `Tensor?[]` (`index.Tensor`'s indices).
    OptionalTensorList(Vec<Option<Tensor>>),
    /// An `int[]` / `SymInt[]` (also fits `float[]` and `Scalar[]`).
    IntList(Vec<i64>),
    /// A `float[]` (also fits `Scalar[]`).
    FloatList(Vec<f64>),
    /// A `bool[]`.
    BoolList(Vec<bool>),
    /// A `ScalarType` (`dtype=`).
    Dtype(DType),
    /// A `Device`.
    Device(tch::Device),
    /// A `Layout`.
    Layout(Layout),
    /// A `MemoryFormat`.
    MemoryFormat(MemoryFormat),
}

impl Arg {
    /// The kind of value, in schema words, for messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Arg::None => "None",
            Arg::Bool(_) => "bool",
            Arg::Int(_) => "int",
            Arg::Float(_) => "float",
            Arg::Complex(..) => "complex",
            Arg::Str(_) => "str",
            Arg::Tensor(_) | Arg::ConstTensor(_) => "Tensor",
            Arg::TensorList(_) | Arg::ConstTensorList(_) => "Tensor[]",
            Arg::OptionalTensorList(_) => "Tensor?[]",
            Arg::IntList(_) => "int[]",
            Arg::FloatList(_) => "float[]",
            Arg::BoolList(_) => "bool[]",
            Arg::Dtype(_) => "ScalarType",
            Arg::Device(_) => "Device",
            Arg::Layout(_) => "Layout",
            Arg::MemoryFormat(_) => "MemoryFormat",
        }
    }
}

impl From<&Tensor> for Arg {
    fn from(t: &Tensor) -> Self {
        Arg::Tensor(t.shallow_clone())
    }
}

impl From<Tensor> for Arg {
    fn from(t: Tensor) -> Self {
        Arg::Tensor(t)
    }
}

impl From<bool> for Arg {
    fn from(v: bool) -> Self {
        Arg::Bool(v)
    }
}

macro_rules! int_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(v: $t) -> Self {
                Arg::Int(i64::from(v))
            }
        }
    )*};
}
int_args!(i8, i16, i32, i64, u8, u16, u32);

impl From<f64> for Arg {
    fn from(v: f64) -> Self {
        Arg::Float(v)
    }
}

impl From<f32> for Arg {
    fn from(v: f32) -> Self {
        Arg::Float(f64::from(v))
    }
}

impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg::Str(v.to_owned())
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg::Str(v)
    }
}

impl From<&[i64]> for Arg {
    fn from(v: &[i64]) -> Self {
        Arg::IntList(v.to_vec())
    }
}

impl<const N: usize> From<[i64; N]> for Arg {
    fn from(v: [i64; N]) -> Self {
        Arg::IntList(v.to_vec())
    }
}

impl From<Vec<i64>> for Arg {
    fn from(v: Vec<i64>) -> Self {
        Arg::IntList(v)
    }
}

impl From<Vec<f64>> for Arg {
    fn from(v: Vec<f64>) -> Self {
        Arg::FloatList(v)
    }
}

impl From<Vec<bool>> for Arg {
    fn from(v: Vec<bool>) -> Self {
        Arg::BoolList(v)
    }
}

impl From<&[Tensor]> for Arg {
    fn from(v: &[Tensor]) -> Self {
        Arg::TensorList(v.iter().map(Tensor::shallow_clone).collect())
    }
}

impl From<&[&Tensor]> for Arg {
    fn from(v: &[&Tensor]) -> Self {
        Arg::TensorList(v.iter().map(|t| t.shallow_clone()).collect())
    }
}

impl From<Vec<Tensor>> for Arg {
    fn from(v: Vec<Tensor>) -> Self {
        Arg::TensorList(v)
    }
}

impl From<DType> for Arg {
    fn from(v: DType) -> Self {
        Arg::Dtype(v)
    }
}

impl From<tch::Device> for Arg {
    fn from(v: tch::Device) -> Self {
        Arg::Device(v)
    }
}

impl From<Layout> for Arg {
    fn from(v: Layout) -> Self {
        Arg::Layout(v)
    }
}

impl From<MemoryFormat> for Arg {
    fn from(v: MemoryFormat) -> Self {
        Arg::MemoryFormat(v)
    }
}

impl<T: Into<Arg>> From<Option<T>> for Arg {
    fn from(v: Option<T>) -> Self {
        v.map_or(Arg::None, Into::into)
    }
}

/// One output of an operator call.
#[derive(Debug)]
#[non_exhaustive]
pub enum Value {
    /// `None` (also an undefined tensor).
    None,
    /// A `bool`.
    Bool(bool),
    /// An `int` (also a `SymInt`, a `ScalarType` code, an integral `Scalar`).
    Int(i64),
    /// A `float` (also a floating `Scalar`).
    Float(f64),
    /// A `complex` `(re, im)`.
    Complex(f64, f64),
    /// A `str`.
    Str(String),
    /// A tensor.
    Tensor(Tensor),
    /// A `Tensor[]`.
    TensorList(Vec<Tensor>),
    /// A list of tensors some of which are undefined.
    OptionalTensorList(Vec<Option<Tensor>>),
    /// An `int[]`.
    IntList(Vec<i64>),
    /// A `float[]`.
    FloatList(Vec<f64>),
    /// A `bool[]`.
    BoolList(Vec<bool>),
    /// A `Device`, as its string (`"cpu"`, `"cuda:0"`).
    Device(String),
    /// A kind torchbridge does not convert, described.
    Other(String),
}

impl Value {
    /// The tensor, or an error naming what the value is instead.
    pub fn into_tensor(self) -> Result<Tensor> {
        match self {
            Value::Tensor(t) => Ok(t),
            other => Err(Error::InvalidArgument(format!("expected a Tensor output, got {other:?}"))),
        }
    }

    /// The tensor list, or an error naming what the value is instead.
    pub fn into_tensor_list(self) -> Result<Vec<Tensor>> {
        match self {
            Value::TensorList(ts) => Ok(ts),
            other => Err(Error::InvalidArgument(format!("expected a Tensor[] output, got {other:?}"))),
        }
    }
}

fn dtype_code(dtype: DType) -> i64 {
    match dtype {
        DType::UInt8 => 0,
        DType::Int8 => 1,
        DType::Int16 => 2,
        DType::Int32 => 3,
        DType::Int64 => 4,
        DType::Float16 => 5,
        DType::Float32 => 6,
        DType::Float64 => 7,
        DType::Complex64 => 9,
        DType::Complex128 => 10,
        DType::Bool => 11,
        DType::BFloat16 => 15,
        DType::UInt16 => 27,
        DType::UInt32 => 28,
        DType::UInt64 => 29,
    }
}

/// The dtype called `name` (`"float32"`, `"uint16"`, `"bfloat16"`: numpy's and torch's names).
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub(crate) fn dtype_named(name: &str) -> Option<DType> {
    use DType::*;
    [
        Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float16, BFloat16, Float32, Float64, Complex64,
        Complex128,
    ]
    .into_iter()
    .find(|d| d.name() == name)
}

/// Builds the shim's argument list for `args` and `kwargs`.
fn build_args(args: &[Arg], kwargs: &[(&str, Arg)]) -> Result<ArgList> {
    let list = ArgList::new()?;
    for arg in args {
        list.push(None, &push_of(arg)?)?;
    }
    for (keyword, arg) in kwargs {
        list.push(Some(keyword), &push_of(arg)?)?;
    }
    Ok(list)
}

/// One argument as the shim's tagged value.
fn push_of(arg: &Arg) -> Result<Push<'_>> {
    fn tensor_list(ts: &[Tensor]) -> Vec<Option<&Tensor>> {
        ts.iter().map(Some).collect()
    }
    let mut p = Push { j: -1, ..Push::default() };
    match arg {
        Arg::None => p.tag = tag::NONE,
        Arg::Bool(b) => (p.tag, p.i) = (tag::BOOL, i64::from(*b)),
        Arg::Int(i) => (p.tag, p.i) = (tag::INT, *i),
        Arg::Float(f) => (p.tag, p.f) = (tag::FLOAT, *f),
        Arg::Complex(re, im) => (p.tag, p.f, p.im) = (tag::COMPLEX, *re, *im),
        Arg::Str(s) => (p.tag, p.s) = (tag::STR, s.as_str()),
        Arg::Tensor(t) => (p.tag, p.tensors) = (tag::TENSOR, vec![Some(t)]),
        Arg::ConstTensor(t) => (p.tag, p.tensors, p.read_only) = (tag::TENSOR, vec![Some(t)], true),
        Arg::TensorList(ts) => (p.tag, p.tensors) = (tag::TENSOR_LIST, tensor_list(ts)),
        Arg::ConstTensorList(ts) => (p.tag, p.tensors, p.read_only) = (tag::TENSOR_LIST, tensor_list(ts), true),
        Arg::OptionalTensorList(ts) => {
            (p.tag, p.tensors) = (tag::OPT_TENSOR_LIST, ts.iter().map(Option::as_ref).collect())
        }
        Arg::IntList(v) => (p.tag, p.ints) = (tag::INT_LIST, v.clone()),
        Arg::FloatList(v) => (p.tag, p.floats) = (tag::FLOAT_LIST, v.clone()),
        Arg::BoolList(v) => (p.tag, p.ints) = (tag::BOOL_LIST, v.iter().map(|&b| i64::from(b)).collect()),
        Arg::Dtype(d) => (p.tag, p.i) = (tag::SCALAR_TYPE, dtype_code(*d)),
        Arg::Device(d) => {
            p.tag = tag::DEVICE;
            (p.i, p.j) = match *d {
                tch::Device::Cpu => (0, -1),
                tch::Device::Cuda(index) => (
                    1,
                    i64::try_from(index)
                        .ok()
                        .filter(|&i| i <= i64::from(i8::MAX))
                        .ok_or_else(|| Error::InvalidArgument(format!("CUDA device index {index} is out of range")))?,
                ),
                tch::Device::Mps => (13, -1),
                tch::Device::Vulkan => (10, -1),
            };
        }
        Arg::Layout(l) => (p.tag, p.i) = (tag::LAYOUT, l.code()),
        Arg::MemoryFormat(m) => (p.tag, p.i) = (tag::MEMORY_FORMAT, m.code()),
    }
    Ok(p)
}

/// Calls `op.overload` with `list`.
fn call_overload(
    list: &ArgList,
    op: &CStr,
    overload: &CStr,
    lenient: bool,
) -> std::result::Result<Vec<Value>, Failure> {
    match list.call(op, overload, lenient) {
        Ok(outputs) => read_outputs(&outputs).map_err(Failure::Fatal),
        Err(CallFailure { status: 1, message }) => Err(Failure::Mismatch(message)),
        Err(CallFailure { status: 2 | 3, message }) => Err(Failure::Fatal(Error::InvalidArgument(message))),
        Err(CallFailure { message, .. }) => Err(Failure::Fatal(Error::from_torch_message(message))),
    }
}

/// Why one overload did not run.
enum Failure {
    /// The arguments do not fit its schema: try the next overload.
    Mismatch(String),
    /// A final error.
    Fatal(Error),
}

/// An operator's outputs as [`Value`]s, in schema order.
fn read_outputs(outputs: &OutputList) -> Result<Vec<Value>> {
    let count = outputs.len();
    let mut values = crate::error::try_vec(count, "an operator's outputs")?;
    for k in 0..count {
        let entry = outputs.entry(k)?;
        values.push(match entry.tag {
            tag::NONE => Value::None,
            tag::BOOL => Value::Bool(entry.i != 0),
            tag::INT => Value::Int(entry.i),
            tag::FLOAT => Value::Float(entry.f),
            tag::COMPLEX => Value::Complex(entry.f, entry.im),
            tag::STR => Value::Str(outputs.string(k)?),
            tag::TENSOR => match outputs.tensor(k, 0)? {
                Some(t) => Value::Tensor(t),
                None => Value::None,
            },
            tag::TENSOR_LIST => Value::TensorList(
                (0..entry.len)
                    .map(|e| {
                        outputs
                            .tensor(k, e)?
                            .ok_or_else(|| Error::Torch("undefined tensor in a Tensor[] output".into()))
                    })
                    .collect::<Result<_>>()?,
            ),
            tag::OPT_TENSOR_LIST => {
                Value::OptionalTensorList((0..entry.len).map(|e| outputs.tensor(k, e)).collect::<Result<_>>()?)
            }
            tag::INT_LIST => Value::IntList(outputs.ints(k)?),
            tag::BOOL_LIST => Value::BoolList(outputs.ints(k)?.into_iter().map(|b| b != 0).collect()),
            tag::FLOAT_LIST => Value::FloatList(outputs.floats(k)?),
            tag::DEVICE => Value::Device(outputs.string(k)?),
            _ => Value::Other(outputs.string(k)?),
        });
    }
    Ok(values)
}

/// An operator name split into `ns::name` and an optional overload.
struct OpName {
    op: String,
    overload: Option<String>,
}

fn parse_name(name: &str) -> Result<OpName> {
    let name = name.trim();
    let (namespace, rest) = name.split_once("::").unwrap_or(("aten", name));
    let (base, overload) = match rest.split_once('.') {
        Some((base, overload)) => (base, Some(if overload == "default" { "" } else { overload })),
        None => (rest, None),
    };
    let valid = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid(namespace) || !valid(base) || overload.is_some_and(|o| !o.is_empty() && !valid(o)) {
        return Err(Error::InvalidArgument(format!(
            "invalid operator name {name:?}: expected \"namespace::name\" or \"namespace::name.overload\", e.g. \"aten::add.Tensor\""
        )));
    }
    Ok(OpName { op: format!("{namespace}::{base}"), overload: overload.map(str::to_owned) })
}

type Index = BTreeMap<String, Vec<String>>;

static INDEX: RwLock<Option<Arc<Index>>> = RwLock::new(None);

/// The dispatcher's operators, `ns::name` -> overload names; rebuilt on request.
fn index(refresh: bool) -> Result<Arc<Index>> {
    if !refresh {
        if let Some(index) = INDEX.read().ok().and_then(|guard| guard.clone()) {
            return Ok(index);
        }
    }
    let text = ffi::op_names()?;
    let mut map = Index::new();
    for line in text.lines() {
        if let Some((name, overload)) = line.split_once('\t') {
            map.entry(name.to_owned()).or_default().push(overload.to_owned());
        }
    }
    for overloads in map.values_mut() {
        overloads.sort_by(|a, b| overload_rank(a).cmp(&overload_rank(b)).then_with(|| a.cmp(b)));
    }
    let map = Arc::new(map);
    if let Ok(mut guard) = INDEX.write() {
        *guard = Some(Arc::clone(&map));
    }
    Ok(map)
}

/// The order overloads are tried in when the caller names none: the default
/// overload, then the common tensor and scalar forms, then the rest, with
/// `out=` variants last.
fn overload_rank(overload: &str) -> u8 {
    match overload {
        "" => 0,
        "Tensor" => 1,
        "Scalar" => 2,
        "self" => 3,
        o if o == "out" || o.ends_with("_out") || o.starts_with("out_") => 5,
        _ => 4,
    }
}

fn lookup(op: &str) -> Result<Option<Vec<String>>> {
    if let Some(found) = index(false)?.get(op) {
        return Ok(Some(found.clone()));
    }
    // Libraries loaded since the index was built may have registered it.
    Ok(index(true)?.get(op).cloned())
}

fn unknown_operator(op: &str) -> Error {
    let (namespace, base) = op.split_once("::").unwrap_or(("aten", op));
    let similar: Vec<String> = index(false)
        .map(|index| {
            index
                .keys()
                .filter_map(|k| k.strip_prefix(namespace).and_then(|r| r.strip_prefix("::")))
                .filter(|candidate| {
                    candidate.contains(base) || (base.len() > 3 && base.contains(candidate) && candidate.len() > 3)
                })
                .take(8)
                .map(|c| format!("{namespace}::{c}"))
                .collect()
        })
        .unwrap_or_default();
    let hint = if similar.is_empty() { String::new() } else { format!("; similar names: {}", similar.join(", ")) };
    Error::InvalidArgument(format!("unknown operator {op}: libtorch's dispatcher has no operator of that name{hint}"))
}

/// The overload names of operator `op` (`"aten::add"`), in the order a call
/// without an overload name tries them; `None` if there is no such operator.
pub fn overloads(op: &str) -> Result<Option<Vec<String>>> {
    let parsed = parse_name(op)?;
    lookup(&parsed.op)
}

/// Every operator in libtorch's dispatcher as `ns::name` (sorted), optionally
/// only those of one namespace (`"aten"`).
pub fn operators(namespace: Option<&str>) -> Result<Vec<String>> {
    let index = index(false)?;
    Ok(index
        .keys()
        .filter(|name| namespace.is_none_or(|ns| name.split_once("::").is_some_and(|(n, _)| n == ns)))
        .cloned()
        .collect())
}

/// The schema of `name` as libtorch prints it, e.g.
/// `aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`.
///
/// Without an overload name, the default overload's schema; an operator that
/// has none is an error listing its overloads.
pub fn schema(name: &str) -> Result<String> {
    let parsed = parse_name(name)?;
    let overload = match parsed.overload {
        Some(overload) => overload,
        None => {
            let overloads = lookup(&parsed.op)?.ok_or_else(|| unknown_operator(&parsed.op))?;
            if !overloads.iter().any(String::is_empty) {
                return Err(Error::InvalidArgument(format!(
                    "{} has no default overload; name one of: {}",
                    parsed.op,
                    overloads.iter().map(|o| format!("{}.{o}", parsed.op)).collect::<Vec<_>>().join(", ")
                )));
            }
            String::new()
        }
    };
    let (op, overload_c) = c_names(&parsed.op, &overload)?;
    match ffi::schema(&op, &overload_c)? {
        Ok(schema) => Ok(schema),
        Err((3, _)) => Err(no_overload(&parsed.op, &overload)),
        Err((_, message)) => Err(Error::from_torch_message(message)),
    }
}

fn c_names(op: &str, overload: &str) -> Result<(CString, CString)> {
    let nul = |_| Error::InvalidArgument("operator names cannot contain NUL bytes".into());
    Ok((CString::new(op).map_err(nul)?, CString::new(overload).map_err(nul)?))
}

fn no_overload(op: &str, overload: &str) -> Error {
    match lookup(op) {
        Ok(Some(overloads)) => Error::InvalidArgument(format!(
            "{op} has no overload {overload:?}; its overloads: {}",
            overloads
                .iter()
                .map(|o| if o.is_empty() { "default".to_owned() } else { o.clone() })
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => unknown_operator(op),
    }
}

/// Calls the operator `name` (`"aten::add.Tensor"`, or `"aten::add"` to pick
/// the first overload whose schema accepts the arguments) with positional
/// `args` and keyword `kwargs`, and returns its outputs in schema order.
///
/// Errors: [`Error::InvalidArgument`] for unknown names, arguments that fit no
/// schema (the message shows the schemas and why each did not fit), and
/// writes into [`Arg::ConstTensor`]s; [`Error::Torch`] when the operator
/// itself raises.
pub fn call(name: &str, args: &[Arg], kwargs: &[(&str, Arg)]) -> Result<Vec<Value>> {
    let parsed = parse_name(name)?;
    let candidates = match &parsed.overload {
        Some(overload) => vec![overload.clone()],
        None => lookup(&parsed.op)?.ok_or_else(|| unknown_operator(&parsed.op))?,
    };
    let list = build_args(args, kwargs)?;
    let mut reasons = Vec::new();
    for lenient in [false, true] {
        reasons.clear();
        for overload in &candidates {
            let (op, overload_c) = c_names(&parsed.op, overload)?;
            match call_overload(&list, &op, &overload_c, lenient) {
                Ok(values) => return Ok(values),
                Err(Failure::Mismatch(reason)) => reasons.push(reason),
                Err(Failure::Fatal(Error::InvalidArgument(message))) if message.starts_with("no operator ") => {
                    return Err(no_overload(&parsed.op, overload));
                }
                Err(Failure::Fatal(err)) => return Err(err),
            }
        }
    }
    let given: Vec<String> = args
        .iter()
        .map(|a| a.kind_name().to_owned())
        .chain(kwargs.iter().map(|(k, a)| format!("{k}={}", a.kind_name())))
        .collect();
    Err(Error::InvalidArgument(match reasons.as_slice() {
        [single] => single.clone(),
        _ => format!("no overload of {} accepts ({}):\n  {}", parsed.op, given.join(", "), reasons.join("\n  ")),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse() {
        let n = parse_name("aten::add.Tensor").unwrap();
        assert_eq!((n.op.as_str(), n.overload.as_deref()), ("aten::add", Some("Tensor")));
        let n = parse_name("erf").unwrap();
        assert_eq!((n.op.as_str(), n.overload.as_deref()), ("aten::erf", None));
        let n = parse_name("aten::erf.default").unwrap();
        assert_eq!(n.overload.as_deref(), Some(""));
        assert!(parse_name("aten::").is_err());
        assert!(parse_name("aten::a-b").is_err());
    }

    #[test]
    fn overload_order_prefers_default_then_tensor_then_scalar() {
        let mut names = vec!["out", "Scalar", "Tensor", "", "dim", "values_out"];
        names.sort_by(|a, b| overload_rank(a).cmp(&overload_rank(b)).then_with(|| a.cmp(b)));
        assert_eq!(names, ["", "Tensor", "Scalar", "dim", "out", "values_out"]);
    }
}
