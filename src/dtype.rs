//! The dtype table: DLPack `DLDataType` <-> [`DType`] <-> `tch::Kind`.

use std::fmt;

use dlpark::ffi::{DLDataType, DLDataTypeCode};
use tch::Kind;

use crate::{Error, Result};

/// The dtypes torchbridge exchanges, in words (used in error messages).
pub const ACCEPTED_DTYPES: &str = "bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, \
     float16, bfloat16, float32, float64, complex64, complex128";

/// An element type that both DLPack and libtorch represent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum DType {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    Complex64,
    Complex128,
}

/// `(dtype, DLPack code, bits, tch kind)`; one row per dtype. `tch::Kind` has
/// no unsigned types wider than 8 bits (libtorch itself has them).
const TABLE: [(DType, u8, u8, Option<Kind>); 15] = [
    (DType::Bool, 6, 8, Some(Kind::Bool)),
    (DType::Int8, 0, 8, Some(Kind::Int8)),
    (DType::Int16, 0, 16, Some(Kind::Int16)),
    (DType::Int32, 0, 32, Some(Kind::Int)),
    (DType::Int64, 0, 64, Some(Kind::Int64)),
    (DType::UInt8, 1, 8, Some(Kind::Uint8)),
    (DType::UInt16, 1, 16, None),
    (DType::UInt32, 1, 32, None),
    (DType::UInt64, 1, 64, None),
    (DType::Float16, 2, 16, Some(Kind::Half)),
    (DType::BFloat16, 4, 16, Some(Kind::BFloat16)),
    (DType::Float32, 2, 32, Some(Kind::Float)),
    (DType::Float64, 2, 64, Some(Kind::Double)),
    (DType::Complex64, 5, 64, Some(Kind::ComplexFloat)),
    (DType::Complex128, 5, 128, Some(Kind::ComplexDouble)),
];

// [`DType::row`] indexes the table by the enum's discriminant.
const _: () = {
    let mut i = 0;
    while i < TABLE.len() {
        assert!(TABLE[i].0 as usize == i, "TABLE's rows follow DType's order");
        i += 1;
    }
};

impl DType {
    /// Every dtype torchbridge exchanges.
    pub const ALL: [DType; 15] = {
        let mut all = [DType::Bool; 15];
        let mut i = 0;
        while i < TABLE.len() {
            all[i] = TABLE[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static (DType, u8, u8, Option<Kind>) {
        &TABLE[self as usize] // rows in the enum's order (checked at compile time above)
    }

    /// Looks a scalar DLPack dtype up by code and bits (every call's import
    /// and result ask: a match, not a walk of the table).
    pub fn from_code_bits(code: u8, bits: u8) -> Option<DType> {
        Some(match (code, bits) {
            (6, 8) => DType::Bool,
            (0, 8) => DType::Int8,
            (0, 16) => DType::Int16,
            (0, 32) => DType::Int32,
            (0, 64) => DType::Int64,
            (1, 8) => DType::UInt8,
            (1, 16) => DType::UInt16,
            (1, 32) => DType::UInt32,
            (1, 64) => DType::UInt64,
            (2, 16) => DType::Float16,
            (4, 16) => DType::BFloat16,
            (2, 32) => DType::Float32,
            (2, 64) => DType::Float64,
            (5, 64) => DType::Complex64,
            (5, 128) => DType::Complex128,
            _ => return None,
        })
    }

    /// The dtype of a DLPack descriptor; vectors (`lanes != 1`) and unknown codes are errors.
    pub fn from_dlpack(dtype: DLDataType) -> Result<DType> {
        let DLDataType { code: DLDataTypeCode(code), bits, lanes } = dtype;
        match Self::from_code_bits(code, bits) {
            Some(found) if lanes == 1 => Ok(found),
            _ => Err(Error::UnsupportedDtype { code, bits, lanes }),
        }
    }

    /// The DLPack descriptor of this dtype.
    pub fn to_dlpack(self) -> DLDataType {
        let &(_, code, bits, _) = self.row();
        DLDataType { code: DLDataTypeCode(code), bits, lanes: 1 }
    }

    /// The `tch::Kind`; `None` for uint16/32/64, which tch cannot name.
    pub fn kind(self) -> Option<Kind> {
        self.row().3
    }

    /// The dtype of a libtorch scalar type, if torchbridge exchanges it.
    pub fn from_kind(kind: Kind) -> Result<DType> {
        TABLE.iter().find(|row| row.3 == Some(kind)).map(|row| row.0).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "libtorch dtype {kind:?} has no DLPack equivalent; accepted: {ACCEPTED_DTYPES}"
            ))
        })
    }

    /// Bytes per element.
    pub fn itemsize(self) -> usize {
        usize::from(self.row().2) / 8
    }

    /// The alignment a well-formed buffer of this dtype has (a complex number
    /// is aligned like its real component).
    pub fn alignment(self) -> usize {
        if self.is_complex() {
            self.itemsize() / 2
        } else {
            self.itemsize()
        }
    }

    /// Complex dtypes.
    pub fn is_complex(self) -> bool {
        matches!(self, DType::Complex64 | DType::Complex128)
    }

    /// Real floating-point dtypes.
    pub fn is_float(self) -> bool {
        matches!(self, DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64)
    }

    /// NumPy's name for the dtype (`bfloat16` as in ml_dtypes).
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::UInt8 => "uint8",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
        }
    }

    /// The dtype SciPy's ufuncs compute and return for this input when their
    /// loops are `d->d, f->f` (plus `D->D, F->F` when `complex_loops`), as
    /// NumPy resolves them: an exact match first, else the first loop the
    /// input casts to safely. So float32 stays float32, and bool, integers,
    /// float16 and bfloat16 give float64. `None`: no loop accepts the input.
    pub fn scipy_float_loop(self, complex_loops: bool) -> Option<DType> {
        use DType::*;
        match self {
            Float32 => Some(Float32),
            Complex64 | Complex128 if complex_loops => Some(self),
            Complex64 | Complex128 => None,
            _ => Some(Float64),
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_round_trips() {
        for dtype in DType::ALL {
            assert_eq!(DType::from_dlpack(dtype.to_dlpack()).unwrap(), dtype);
            if let Some(kind) = dtype.kind() {
                assert_eq!(DType::from_kind(kind).unwrap(), dtype);
            }
            assert_eq!(dtype.itemsize() * 8, usize::from(dtype.to_dlpack().bits));
        }
    }

    #[test]
    fn code_bits_lookup_is_the_table() {
        for code in 0..=u8::MAX {
            for bits in 0..=u8::MAX {
                let row = TABLE.iter().find(|row| row.1 == code && row.2 == bits).map(|row| row.0);
                assert_eq!(DType::from_code_bits(code, bits), row, "code {code}, bits {bits}");
            }
        }
    }

    #[test]
    fn vectors_and_unknown_codes_are_rejected_with_their_numbers() {
        let vector = DLDataType { code: DLDataTypeCode(2), bits: 32, lanes: 4 };
        let err = DType::from_dlpack(vector).unwrap_err();
        assert!(matches!(err, Error::UnsupportedDtype { code: 2, bits: 32, lanes: 4 }));
        assert!(err.to_string().contains("float32"), "{err}");
        let opaque = DLDataType { code: DLDataTypeCode(3), bits: 64, lanes: 1 };
        assert!(DType::from_dlpack(opaque).unwrap_err().to_string().contains("accepted: bool"));
        let float128 = DLDataType { code: DLDataTypeCode(2), bits: 128, lanes: 1 };
        assert!(DType::from_dlpack(float128).is_err());
    }

    #[test]
    fn scipy_loop_selection_follows_safe_casting() {
        assert_eq!(DType::Int16.scipy_float_loop(false), Some(DType::Float64));
        assert_eq!(DType::Float16.scipy_float_loop(false), Some(DType::Float64));
        assert_eq!(DType::Float32.scipy_float_loop(false), Some(DType::Float32));
        assert_eq!(DType::Bool.scipy_float_loop(true), Some(DType::Float64));
        assert_eq!(DType::Complex64.scipy_float_loop(true), Some(DType::Complex64));
        assert_eq!(DType::Complex64.scipy_float_loop(false), None);
    }
}
