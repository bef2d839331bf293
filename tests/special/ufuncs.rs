//! The ufunc machinery: SciPy's loop selection and result dtypes, the errors
//! each refusal maps to, broadcasting and shapes, read-only inputs, and the
//! ufunc table's loop strings.

use tch::{Kind, Tensor};
use torchbridge::dlpack::dtype_of;
use torchbridge::ops::special::{self as sp, LogsumexpOptions, Loop, Operand};
use torchbridge::{DType, Error};

use crate::common::{assert_rel, t64, values};

#[test]
fn loop_selection_follows_numpy() {
    let d = |dtype| Operand::Array(dtype);
    let pick = |types: &[&str], ops: &[Operand]| sp::resolve_loop(types, ops).map(|l| l.output);
    let xlogy = sp::ufunc_types("xlogy").unwrap();
    let rel_entr = sp::ufunc_types("rel_entr").unwrap();
    let legendre = sp::ufunc_types("eval_legendre").unwrap();
    let hermite = sp::ufunc_types("eval_hermite").unwrap();
    // exact match first, else the first safe loop
    assert_eq!(pick(xlogy, &[d(DType::Float32), d(DType::Float32)]), Some(DType::Float32));
    assert_eq!(pick(xlogy, &[d(DType::Float16), d(DType::Float32)]), Some(DType::Float64));
    assert_eq!(pick(rel_entr, &[d(DType::Int16), d(DType::UInt8)]), Some(DType::Float32));
    assert_eq!(pick(rel_entr, &[d(DType::Int32), d(DType::Float32)]), Some(DType::Float64));
    assert_eq!(pick(sp::ufunc_types("erfinv").unwrap(), &[d(DType::Float16)]), Some(DType::Float32));
    assert_eq!(pick(sp::ufunc_types("erf").unwrap(), &[d(DType::Float16)]), Some(DType::Float64));
    // weak Python literals
    assert_eq!(pick(xlogy, &[d(DType::Float32), Operand::PyFloat]), Some(DType::Float64));
    assert_eq!(pick(rel_entr, &[d(DType::Float32), Operand::PyFloat]), Some(DType::Float32));
    assert_eq!(pick(rel_entr, &[d(DType::Int8), Operand::PyInt]), Some(DType::Float32));
    assert_eq!(pick(rel_entr, &[d(DType::Int8), Operand::PyFloat]), Some(DType::Float64));
    assert_eq!(pick(rel_entr, &[d(DType::Bool), Operand::PyInt]), Some(DType::Float64));
    assert_eq!(pick(rel_entr, &[Operand::PyInt, Operand::PyInt]), Some(DType::Float64));
    assert_eq!(pick(legendre, &[Operand::PyInt, d(DType::Float32)]), Some(DType::Float64));
    assert_eq!(pick(legendre, &[d(DType::Float32), Operand::PyInt]), Some(DType::Float32));
    // no loop
    assert_eq!(pick(hermite, &[d(DType::Float64), d(DType::Float64)]), None);
    assert_eq!(pick(hermite, &[d(DType::UInt64), d(DType::Float64)]), None);
    let chosen: Loop = sp::resolve_loop(legendre, &[d(DType::Int32), d(DType::Float32)]).unwrap();
    assert_eq!(chosen.inputs, [DType::Int64, DType::Float64]);
}

#[test]
fn result_dtypes() {
    let f32s = Tensor::from_slice(&[0.5f32, 0.25]);
    let ints = Tensor::from_slice(&[1i32, 2]);
    assert_eq!(dtype_of(&sp::gamma(&f32s).unwrap()).unwrap(), DType::Float32);
    assert_eq!(dtype_of(&sp::gamma(&ints).unwrap()).unwrap(), DType::Float64);
    assert_eq!(dtype_of(&sp::erfinv(&f32s.to_kind(Kind::Half)).unwrap()).unwrap(), DType::Float32);
    assert_eq!(dtype_of(&sp::rel_entr(&ints.to_kind(Kind::Int8), &f32s).unwrap()).unwrap(), DType::Float32);
    assert_eq!(dtype_of(&sp::xlogy(&f32s, &f32s).unwrap()).unwrap(), DType::Float32);
    assert_eq!(dtype_of(&sp::eval_legendre(&ints, &f32s).unwrap()).unwrap(), DType::Float64);
    assert_eq!(dtype_of(&sp::polygamma(&ints, &f32s).unwrap()).unwrap(), DType::Float64);
    assert_eq!(dtype_of(&sp::polygamma(&f32s, &f32s).unwrap()).unwrap(), DType::Float32);
    assert_eq!(dtype_of(&sp::softmax(&ints.to_kind(Kind::Int8), None).unwrap()).unwrap(), DType::Float16);
    assert_eq!(dtype_of(&sp::sinc(&f32s.to_kind(Kind::Half)).unwrap()).unwrap(), DType::Float16);
}

#[test]
fn refusals_map_to_their_errors() {
    let z = Tensor::from_slice(&[0.5f64, 0.5]).view([1, 2]).view_as_complex();
    // gamma, kv and hyp0f1 compute complex input (the xsf and complex Bessel kernels)
    assert!(sp::gamma(&z).is_ok() && sp::kv(&t64(&[0.5]), &z).is_ok() && sp::hyp0f1(&t64(&[0.5]), &z).is_ok());
    // hyp2f1 of complex z computes (csrc/hypergeometric_complex.h): 2F1(1, 1; 2; z) = -log(1 - z) / z
    let one = t64(&[1.0]);
    let f = sp::hyp2f1(&one, &one, &t64(&[2.0]), &z).unwrap().view_as_real();
    let (re, im) = (f.double_value(&[0, 0]), f.double_value(&[0, 1]));
    // -log(0.5 - 0.5i) / (0.5 + 0.5i) = (ln(2)/2 + i pi/4)(1 - i)
    let (p, q) = (std::f64::consts::LN_2 / 2.0, std::f64::consts::FRAC_PI_4);
    assert!((re - (p + q)).abs() < 1e-15 && (im - (q - p)).abs() < 1e-15, "{re} {im}");
    assert!(matches!(sp::expit(&z), Err(Error::DtypeNotAccepted { .. })));
    let err = sp::eval_hermite(&t64(&[2.0]), &t64(&[0.5])).unwrap_err();
    assert!(matches!(err, Error::DtypeNotAccepted { routine: "special.eval_hermite", dtype: DType::Float64, .. }));
    let err = sp::eval_legendre(&t64(&[2.5]), &t64(&[0.5])).unwrap_err();
    assert!(matches!(err, Error::NotImplemented(m) if m.contains("non-integer degree")));
    let err = sp::xlogy(&t64(&[1.0, 2.0, 3.0]), &t64(&[1.0, 2.0])).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(m) if m.contains("could not be broadcast")));
    let err = sp::multigammaln(&t64(&[0.4]), 2).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(m) if m.contains("not met")));
    let err = sp::factorial_exact(&Tensor::from_slice(&[21i64])).unwrap_err();
    assert!(matches!(err, Error::NotImplemented(_)));
    let opts = LogsumexpOptions { axis: Some(&[1]), ..Default::default() };
    let err = sp::logsumexp(&t64(&[1.0]), &opts).unwrap_err();
    assert!(err.to_string().contains("out of bounds"), "{err}");
    assert!(matches!(err, Error::AxisOutOfBounds { axis: 1, ndim: 1 }));
    assert!(matches!(sp::loop_for("no_such_ufunc", &[]), Err(Error::InvalidArgument(_))));
}

#[test]
fn broadcasting_and_shapes() {
    let n = Tensor::from_slice(&[0i64, 1, 2, 3]).view([4, 1]);
    let x = t64(&[0.5, -0.5, 2.0]);
    let p = sp::eval_legendre(&n, &x).unwrap();
    assert_eq!(p.size(), [4, 3]);
    let got = values(&p);
    let want = [1.0, 1.0, 1.0, 0.5, -0.5, 2.0, -0.125, -0.125, 5.5, -0.4375, 0.4375, 17.0];
    for (g, w) in got.iter().zip(want) {
        assert_rel(*g, w, 1e-15, "P_n(x)");
    }
    let empty = sp::j0(&Tensor::zeros([0, 3], (Kind::Double, tch::Device::Cpu))).unwrap();
    assert_eq!(empty.size(), [0, 3]);
    let scalar_in = sp::beta(&t64(&[2.0]).view([]), &t64(&[3.0, 4.0])).unwrap();
    assert_eq!(scalar_in.size(), [2]);
}

#[test]
fn inputs_are_not_written() {
    let x = t64(&[-3.5, -0.5, 0.0, 1e-300, 2.5, 30.0]);
    let copy = x.copy();
    for f in [sp::gamma, sp::digamma, sp::j0, sp::y1, sp::ndtr, sp::log_ndtr, sp::zeta, sp::cbrt] {
        let _ = f(&x).unwrap();
    }
    let _ = sp::gammainc(&x.abs(), &x.abs()).unwrap();
    let _ = sp::binom(&x, &x).unwrap();
    assert!(x.equal(&copy));
}

#[test]
fn every_ufunc_name_has_scipys_loops() {
    let names: Vec<&str> = sp::ufunc_names().collect();
    assert!(names.len() >= 60, "{}", names.len());
    for name in names {
        let types = sp::ufunc_types(name).unwrap();
        assert!(types.iter().all(|t| t.contains("->")), "{name}");
    }
}
