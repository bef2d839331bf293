//! The LAPACK-type rules of `scipy.linalg` (which floating kind a routine
//! computes in), on top of NumPy's conventions in `ops::numpy`.

use tch::{Kind, Tensor};

use crate::ops::numpy;
use crate::{DType, Result};

/// Dtypes whose values need float64 (complex128) to be held exactly.
pub(crate) fn needs_double(d: DType) -> bool {
    matches!(d, DType::Float64 | DType::Complex128 | DType::Int32 | DType::UInt32 | DType::Int64 | DType::UInt64)
}

pub(crate) fn kind_of(complex: bool, double: bool) -> Kind {
    match (complex, double) {
        (false, false) => Kind::Float,
        (false, true) => Kind::Double,
        (true, false) => Kind::ComplexFloat,
        (true, true) => Kind::ComplexDouble,
    }
}

/// The LAPACK type `scipy.linalg` computes in for arrays of these dtypes
/// (`find_best_lapack_type`): float32 unless a value needs float64, complex
/// when any input is complex.
pub fn lapack_kind(dtypes: &[DType]) -> Kind {
    kind_of(dtypes.iter().any(|d| d.is_complex()), dtypes.iter().any(|&d| needs_double(d)))
}

/// The type `scipy.linalg.solve` and `expm` compute in (`_ensure_dtype_cdsz`):
/// NumPy's result type, where all-integer (or bool) input gives float64.
pub fn cdsz_kind(dtypes: &[DType]) -> Kind {
    let inexact = dtypes.iter().any(|d| d.is_float() || d.is_complex());
    if !inexact {
        return Kind::Double;
    }
    lapack_kind(dtypes)
}

pub(crate) fn is_complex_kind(kind: Kind) -> bool {
    matches!(kind, Kind::ComplexFloat | Kind::ComplexDouble)
}

pub(crate) fn real_kind(kind: Kind) -> Kind {
    match kind {
        Kind::ComplexFloat | Kind::Float => Kind::Float,
        _ => Kind::Double,
    }
}

pub(crate) fn complex_kind(kind: Kind) -> Kind {
    match kind {
        Kind::ComplexFloat | Kind::Float => Kind::ComplexFloat,
        _ => Kind::ComplexDouble,
    }
}

/// Machine epsilon of a floating kind (of its real part).
pub fn eps(kind: Kind) -> f64 {
    match real_kind(kind) {
        Kind::Float => f64::from(f32::EPSILON),
        _ => f64::EPSILON,
    }
}

/// `x` as `kind` (shares memory when it already is): [`numpy::cast`] for the
/// `tch::Kind`s the LAPACK-type rules produce.
pub(crate) fn cast(x: &Tensor, kind: Kind) -> Result<Tensor> {
    numpy::cast(x, DType::from_kind(kind)?)
}

/// The dtype the special-matrix constructors build in: one dtype is kept as
/// it is (bfloat16 included, which NumPy lacks), several promote by NumPy's
/// [`numpy::result_type`].
pub(crate) fn result_type(dtypes: &[DType]) -> DType {
    match dtypes.split_first() {
        Some((&first, rest)) if rest.iter().all(|&d| d == first) => first,
        _ => numpy::result_type(dtypes),
    }
}

/// The signed integer kind of the same width, for dtypes `tch::Kind` cannot
/// name (libtorch has few kernels for uint16/32/64: reinterpreting the bits
/// as signed integers, rearranging, and casting back, which wraps, keeps
/// every bit).
pub(crate) fn signed_twin(d: DType) -> Option<Kind> {
    match d {
        DType::UInt16 => Some(Kind::Int16),
        DType::UInt32 => Some(Kind::Int),
        DType::UInt64 => Some(Kind::Int64),
        _ => None,
    }
}

/// The type SciPy's Schur-based routines compute in: `schur` casts integer
/// input to `long` first (so float64), everything else as [`lapack_kind`].
pub(crate) fn schur_kind(d: DType) -> Kind {
    lapack_kind(&[schur_dtype(d)])
}

/// [`schur_kind`]'s view of a dtype: integers as int64.
pub(crate) fn schur_dtype(d: DType) -> DType {
    if d.is_complex() || d.is_float() || d == DType::Bool {
        d
    } else {
        DType::Int64
    }
}
