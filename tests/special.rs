//! Integration tests of `ops::special`: known values (computed with mpmath at
//! 40 digits), SciPy's loop selection and result dtypes, broadcasting, the
//! reductions, and the errors each refusal maps to.

use tch::{Kind, Tensor};
use torchbridge::dlpack::dtype_of;
use torchbridge::ops::special::{self as sp, FactorialExtend, LogSumExp, LogsumexpOptions, Loop, Operand};
use torchbridge::{DType, Error};

fn t64(values: &[f64]) -> Tensor {
    Tensor::from_slice(values)
}

fn values(t: &Tensor) -> Vec<f64> {
    let t = t.to_kind(Kind::Double).contiguous().view(-1);
    (0..t.size()[0]).map(|i| t.double_value(&[i])).collect()
}

fn scalar(t: &Tensor) -> f64 {
    t.to_kind(Kind::Double).double_value(&[])
}

fn assert_rel(got: f64, want: f64, rtol: f64, what: &str) {
    if want.is_nan() {
        assert!(got.is_nan(), "{what}: expected nan, got {got:e}");
    } else if want.is_infinite() || want == 0.0 {
        assert_eq!(got, want, "{what}");
    } else {
        let rel = ((got - want) / want).abs();
        assert!(rel <= rtol, "{what}: got {got:e}, expected {want:e} (relative error {rel:e})");
    }
}

type Unary = fn(&Tensor) -> torchbridge::Result<Tensor>;
type Binary = fn(&Tensor, &Tensor) -> torchbridge::Result<Tensor>;

#[test]
fn unary_values_against_mpmath() {
    let cases: &[(&str, Unary, f64, f64, f64)] = &[
        // (name, routine, x, reference, rtol)
        ("ndtr", sp::ndtr, -9.0, 1.1285884059538405e-19, 4e-16),
        ("ndtr", sp::ndtr, -37.5, 4.605353009581955e-308, 4e-16),
        ("log_ndtr", sp::log_ndtr, -40.0, -804.6084420137538, 2e-16),
        ("log_ndtr", sp::log_ndtr, 20.0, -2.7536241186062337e-89, 4e-16),
        ("gamma", sp::gamma, -2.5, -0.9453087204829419, 4e-16),
        ("gamma", sp::gamma, 100.5, 9.320963104082716e+156, 2e-15),
        ("digamma", sp::digamma, 1.46, -0.0015805619870834522, 4e-16),
        ("psi", sp::psi, -0.5, 0.03648997397857652, 4e-16),
        ("j0", sp::j0, 30.0, -0.08636798358104021, 2e-15),
        ("y1", sp::y1, 0.1, -6.4589510947020266, 4e-16),
        ("j1", sp::j1, 1e10, -7.676508175684158e-06, 4e-16),
        ("y0", sp::y0, 7.0, -0.025949743967209265, 2e-14),
        ("zeta", sp::zeta, -7.5, 0.00326903957260022, 4e-16),
        ("zeta", sp::zeta, 0.5, -1.4603545088095868, 4e-16),
        ("erfcinv", sp::erfcinv, 1e-300, 26.209469960516124, 4e-16),
        ("log_expit", sp::log_expit, 40.0, -4.248354255291589e-18, 4e-16),
        ("erfcx", sp::erfcx, -5.0, 144009798674.66104, 4e-16),
        ("i0e", sp::i0e, 1e3, 0.012617240455891257, 4e-16),
        ("cbrt", sp::cbrt, -27.0, -3.0, 0.0),
        ("exp10", sp::exp10, -300.0, 1e-300, 4e-16),
        ("loggamma", sp::loggamma, -2.5, f64::NAN, 0.0),
        ("gamma", sp::gamma, -3.0, f64::NAN, 0.0),
        ("gamma", sp::gamma, 0.0, f64::INFINITY, 0.0),
        ("gamma", sp::gamma, -0.0, f64::NEG_INFINITY, 0.0),
        ("gamma", sp::gamma, 171.0, 7.257415615307999e306, 0.0),
        ("y0", sp::y0, 0.0, f64::NEG_INFINITY, 0.0),
        ("erfinv", sp::erfinv, 1.0, f64::INFINITY, 0.0),
        ("zeta", sp::zeta, -2.0, 0.0, 0.0),
    ];
    for &(name, routine, x, want, rtol) in cases {
        let got = scalar(&routine(&t64(&[x]).view([])).unwrap());
        assert_rel(got, want, rtol, &format!("{name}({x})"));
    }
}

#[test]
fn binary_values_against_mpmath() {
    let cases: &[(&str, Binary, f64, f64, f64, f64)] = &[
        ("gammainc", sp::gammainc, 30.0, 28.0, 0.3773896943143976, 2e-15),
        ("gammaincc", sp::gammaincc, 1e-300, 1.0, 2.193839343955203e-301, 1e-14),
        ("beta", sp::beta, 0.5, 30.0, 0.3249554203948302, 1e-15),
        ("binom", sp::binom, 7.5, 2.0, 24.375, 0.0),
        ("hurwitz_zeta", sp::hurwitz_zeta, 3.0, 0.25, 64.66386996876847, 1e-15),
        ("xlogy", sp::xlogy, 0.0, 0.0, 0.0, 0.0),
        ("rel_entr", sp::rel_entr, -1.0, 1.0, f64::INFINITY, 0.0),
        ("kl_div", sp::kl_div, 0.0, 2.0, 2.0, 0.0),
        ("boxcox", sp::boxcox, 2.0, 0.0, std::f64::consts::LN_2, 0.0),
        ("huber", sp::huber, -1.0, 1.0, f64::INFINITY, 0.0),
    ];
    for &(name, routine, a, b, want, rtol) in cases {
        let got = scalar(&routine(&t64(&[a]).view([]), &t64(&[b]).view([])).unwrap());
        assert_rel(got, want, rtol, &format!("{name}({a}, {b})"));
    }
    let pg = sp::polygamma(&Tensor::from_slice(&[3i64]), &t64(&[0.7])).unwrap();
    assert_rel(values(&pg)[0], 25.879149678427737, 1e-15, "polygamma(3, 0.7)");
}

#[test]
fn libtorch_traps_are_avoided() {
    // libtorch's own kernels, for contrast
    let x = t64(&[-9.0]);
    assert_eq!(scalar(&x.special_ndtr()), 0.0);
    assert!(scalar(&sp::ndtr(&x).unwrap()) > 1e-19);
    let garbage = Tensor::special_chebyshev_polynomial_u(&t64(&[f64::NAN]), &t64(&[2.0]));
    assert!(!scalar(&garbage).is_nan(), "libtorch returns uninitialised memory for nan x");
    assert!(scalar(&sp::eval_chebyu(&Tensor::from_slice(&[2i64]), &t64(&[f64::NAN])).unwrap()).is_nan());
    let exact = values(&sp::gamma(&t64(&[5.0, 11.0, 24.0])).unwrap());
    assert_eq!(exact, [24.0, 3628800.0, 25852016738884976640000.0]);
}

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
    assert!(matches!(sp::gamma(&z), Err(Error::NotImplemented(m)) if m.contains("complex")));
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
fn reductions() {
    let a = t64(&[1.0, 2.0, 3.0]);
    // without return_sign there is no sign (the type says so: a bare Tensor)
    let out: Tensor = sp::logsumexp(&a, &LogsumexpOptions::default()).unwrap();
    assert_rel(scalar(&out), 3.40760596444438, 2e-16, "logsumexp");
    let b = t64(&[1.0, -1.0, 0.0]);
    let opts = LogsumexpOptions { axis: Some(&[0]), b: Some(&b), keepdims: true };
    let LogSumExp { value: out, sign } = sp::logsumexp_with_sign(&a, &opts).unwrap();
    assert_eq!(out.size(), [1]);
    assert_rel(values(&out)[0], (1f64.exp() - 2f64.exp()).abs().ln(), 1e-15, "weighted");
    assert_eq!(values(&sign), [-1.0]);
    // the same weights without return_sign: a negative sum is nan, as SciPy
    assert!(values(&sp::logsumexp(&a, &opts).unwrap())[0].is_nan());
    let m = t64(&[1.0, 2.0, 3.0, 4.0]).view([2, 2]);
    let s = sp::softmax(&m, Some(&[1])).unwrap();
    let row = values(&s);
    assert_rel(row[0] + row[1], 1.0, 2e-16, "softmax rows sum to 1");
    let ls = values(&sp::log_softmax(&m, None).unwrap());
    let total: f64 = ls.iter().map(|v| v.exp()).sum();
    assert_rel(total, 1.0, 4e-16, "log_softmax over all axes");
    assert_rel(scalar(&sp::multigammaln(&t64(&[3.5]).view([]), 3).unwrap()), 3.8958984821540388, 1e-15, "multigammaln");
    let f = values(&sp::factorial(&t64(&[5.0, -1.0, 2.5]), FactorialExtend::Zero).unwrap());
    assert_eq!(&f[..2], [120.0, 0.0]);
    assert_rel(f[2], 3.3233509704478426, 1e-15, "2.5!");
    assert!(values(&sp::factorial(&t64(&[-1.0]), FactorialExtend::Complex).unwrap())[0].is_nan());
    let exact = sp::factorial_exact(&Tensor::from_slice(&[20i64, -3, 0])).unwrap();
    assert_eq!(exact.kind(), Kind::Int64);
    assert_eq!(exact.int64_value(&[0]), 2432902008176640000);
    assert_eq!(exact.int64_value(&[1]), 0);
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
