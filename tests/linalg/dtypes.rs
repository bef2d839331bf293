//! The dtype rules across the family: LAPACK's working kinds (SciPy's
//! `lapack_kind`, `cdsz_kind`), NumPy's result types, `eps`.

use tch::Kind;
use torchbridge::ops::linalg as la;
use torchbridge::ops::numpy::result_type;
use torchbridge::DType;

#[test]
fn dtype_rules_follow_scipy() {
    use DType::*;
    assert_eq!(la::lapack_kind(&[Float32]), Kind::Float);
    assert_eq!(la::lapack_kind(&[Int16]), Kind::Float);
    assert_eq!(la::lapack_kind(&[Bool]), Kind::Float);
    assert_eq!(la::lapack_kind(&[Int32]), Kind::Double);
    assert_eq!(la::lapack_kind(&[Float32, Int64]), Kind::Double);
    assert_eq!(la::lapack_kind(&[Complex64, Float64]), Kind::ComplexDouble);
    assert_eq!(la::cdsz_kind(&[Int8]), Kind::Double);
    assert_eq!(la::cdsz_kind(&[Float16, Int8]), Kind::Float);
    assert_eq!(result_type(&[Int8, UInt8]), Int16);
    assert_eq!(result_type(&[Int64, UInt64]), Float64);
    assert_eq!(result_type(&[UInt8, Int32]), Int32);
    assert_eq!(result_type(&[Int16, Float16]), Float32);
    assert_eq!(result_type(&[Float32, Complex64]), Complex64);
    assert_eq!(result_type(&[Float64, Complex64]), Complex128);
    assert_eq!(result_type(&[Bool, Bool]), Bool);
    assert_eq!(la::eps(Kind::ComplexFloat), f64::from(f32::EPSILON));
}
