//! `torchbridge::aten`: ATen operators by name, through the dispatcher.

use tch::{Kind, Tensor};
use torchbridge::aten::{self, Arg, MemoryFormat, Value};
use torchbridge::{DType, Error};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).flatten(0, -1)).unwrap()
}

fn one(outputs: Vec<Value>) -> Tensor {
    assert_eq!(outputs.len(), 1, "{outputs:?}");
    outputs.into_iter().next().unwrap().into_tensor().unwrap()
}

#[test]
fn add_tensor_with_alpha_keyword() {
    let a = Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
    let b = Tensor::from_slice(&[10.0f64, 20.0, 30.0]);
    let out = aten::call("aten::add.Tensor", &[Arg::from(&a), Arg::from(&b)], &[("alpha", Arg::from(2))]).unwrap();
    assert_eq!(values(&one(out)), [21.0, 42.0, 63.0]);
}

#[test]
fn overload_resolution_without_a_name() {
    let a = Tensor::from_slice(&[1.0f64, 5.0, 3.0]);
    // add with a Python-style number: the Tensor overload does not fit strictly, add.Scalar does.
    let out = aten::call("aten::add", &[Arg::from(&a), Arg::from(1.5)], &[]).unwrap();
    assert_eq!(values(&one(out)), [2.5, 6.5, 4.5]);
    // max(Tensor) -> Tensor and max.dim(Tensor, int) -> (values, indices)
    let out = aten::call("aten::max", &[Arg::from(&a)], &[]).unwrap();
    assert_eq!(values(&one(out)), [5.0]);
    let out = aten::call("aten::max", &[Arg::from(&a), Arg::from(0)], &[]).unwrap();
    match out.as_slice() {
        [Value::Tensor(v), Value::Tensor(i)] => {
            assert_eq!(values(v), [5.0]);
            assert_eq!(i.int64_value(&[]), 1);
        }
        other => panic!("{other:?}"),
    }
    // "erf" alone is aten::erf
    let out = aten::call("erf", &[Arg::from(&a)], &[]).unwrap();
    assert!((values(&one(out))[0] - 0.842_700_792_949_714_9).abs() < 1e-15);
}

#[test]
fn int_lists_scalar_types_bools_and_optionals() {
    let x = Tensor::arange(6, (Kind::Double, tch::Device::Cpu)).reshape([2, 3]);
    let out = aten::call(
        "aten::sum.dim_IntList",
        &[Arg::from(&x), Arg::from(vec![1i64]), Arg::from(true)],
        &[("dtype", Arg::from(DType::Float32))],
    )
    .unwrap();
    let s = one(out);
    assert_eq!(s.kind(), Kind::Float);
    assert_eq!(s.size(), [2, 1]);
    assert_eq!(values(&s), [3.0, 12.0]);
    // dtype as a string, optional dim as None
    let out =
        aten::call("aten::sum.dim_IntList", &[Arg::from(&x), Arg::None], &[("dtype", Arg::from("int64"))]).unwrap();
    let s = one(out);
    assert_eq!(s.kind(), Kind::Int64);
    assert_eq!(s.int64_value(&[]), 15);
    // an int broadcasts to int[1]
    let out = aten::call("aten::sum.dim_IntList", &[Arg::from(&x), Arg::from(0)], &[]).unwrap();
    assert_eq!(values(&one(out)), [3.0, 5.0, 7.0]);
}

#[test]
fn tensor_lists_in_and_out() {
    let a = Tensor::from_slice(&[1.0f32, 2.0]);
    let b = Tensor::from_slice(&[3.0f32, 4.0]);
    let out = aten::call("aten::cat", &[Arg::from(vec![a.shallow_clone(), b.shallow_clone()])], &[]).unwrap();
    assert_eq!(values(&one(out)), [1.0, 2.0, 3.0, 4.0]);
    let out = aten::call("aten::stack", &[Arg::from(&[&a, &b][..])], &[("dim", Arg::from(1))]).unwrap();
    let s = one(out);
    assert_eq!(s.size(), [2, 2]);
    assert_eq!(values(&s), [1.0, 3.0, 2.0, 4.0]);
    let out = aten::call("aten::unbind.int", &[Arg::from(&s)], &[]).unwrap();
    let parts = out.into_iter().next().unwrap().into_tensor_list().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(values(&parts[1]), [2.0, 4.0]);
}

#[test]
fn tuple_outputs_sort_and_eigh() {
    let x = Tensor::from_slice(&[3.0f64, 1.0, 2.0]);
    let out = aten::call("aten::sort", &[Arg::from(&x)], &[("descending", Arg::from(true))]).unwrap();
    let [Value::Tensor(v), Value::Tensor(i)] = out.as_slice() else { panic!("{out:?}") };
    assert_eq!(values(v), [3.0, 2.0, 1.0]);
    assert_eq!(values(i), [0.0, 2.0, 1.0]);

    let a = Tensor::from_slice(&[2.0f64, 1.0, 1.0, 2.0]).reshape([2, 2]);
    let out = aten::call("aten::linalg_eigh", &[Arg::from(&a)], &[("UPLO", Arg::from("U"))]).unwrap();
    let [Value::Tensor(w), Value::Tensor(_)] = out.as_slice() else { panic!("{out:?}") };
    let w = values(w);
    assert!((w[0] - 1.0).abs() < 1e-12 && (w[1] - 3.0).abs() < 1e-12, "{w:?}");
}

#[test]
fn scalar_and_list_outputs() {
    let x = Tensor::from_slice(&[1i64, 2, 3]);
    let out = aten::call("aten::_local_scalar_dense", &[Arg::from(&x.sum(Kind::Int64))], &[]).unwrap();
    assert!(matches!(out.as_slice(), [Value::Int(6)]), "{out:?}");
    let out = aten::call("aten::is_floating_point", &[Arg::from(&x)], &[]).unwrap();
    assert!(matches!(out.as_slice(), [Value::Bool(false)]), "{out:?}");
    let out = aten::call("aten::sym_size.int", &[Arg::from(&x), Arg::from(0)], &[]).unwrap();
    assert!(matches!(out.as_slice(), [Value::Int(3)]), "{out:?}");
}

#[test]
fn factory_with_dtype_device_layout_memory_format() {
    let out = aten::call(
        "aten::empty.memory_format",
        &[Arg::from(vec![2i64, 3, 4, 5])],
        &[
            ("dtype", Arg::from(DType::Float64)),
            ("device", Arg::from(tch::Device::Cpu)),
            ("layout", Arg::from(aten::Layout::Strided)),
            ("memory_format", Arg::from(MemoryFormat::ChannelsLast)),
        ],
    )
    .unwrap();
    let t = one(out);
    assert_eq!(t.kind(), Kind::Double);
    assert_eq!(t.stride(), [60, 1, 15, 3]);
    let out =
        aten::call("aten::full", &[Arg::from(vec![2i64]), Arg::from(7)], &[("dtype", Arg::from("float32"))]).unwrap();
    let t = one(out);
    assert_eq!((t.kind(), values(&t)), (Kind::Float, vec![7.0, 7.0]));
}

#[test]
fn in_place_writes_and_const_tensors_are_refused() {
    let x = Tensor::from_slice(&[1.0f64, 2.0]);
    aten::call("aten::add_.Tensor", &[Arg::from(&x), Arg::from(&x)], &[]).unwrap();
    assert_eq!(values(&x), [2.0, 4.0]);
    let err = aten::call("aten::add_.Tensor", &[Arg::ConstTensor(x.shallow_clone()), Arg::from(&x)], &[]).unwrap_err();
    assert!(matches!(&err, Error::InvalidArgument(m) if m.contains("writes into argument 'self'")), "{err}");
    assert_eq!(values(&x), [2.0, 4.0]);
    // reading a const tensor is fine
    let out = aten::call("aten::neg", &[Arg::ConstTensor(x.shallow_clone())], &[]).unwrap();
    assert_eq!(values(&one(out)), [-2.0, -4.0]);
    // out= into a const tensor is refused too
    let target = Tensor::zeros([2], (Kind::Double, tch::Device::Cpu));
    let err =
        aten::call("aten::neg", &[Arg::from(&x)], &[("out", Arg::ConstTensor(target.shallow_clone()))]).unwrap_err();
    assert!(err.to_string().contains("'out'"), "{err}");
    aten::call("aten::neg", &[Arg::from(&x)], &[("out", Arg::from(&target))]).unwrap();
    assert_eq!(values(&target), [-2.0, -4.0]);
}

#[test]
fn errors_carry_the_schema() {
    let x = Tensor::from_slice(&[1.0f64]);
    let err = aten::call("aten::add.Tensor", &[Arg::from(&x)], &[]).unwrap_err().to_string();
    assert!(err.contains("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"), "{err}");
    assert!(err.contains("missing required argument 'other'"), "{err}");
    let err = aten::call("aten::erf", &[Arg::from(&x), Arg::from(&x)], &[]).unwrap_err().to_string();
    assert!(err.contains("aten::erf(Tensor self) -> Tensor") && err.contains("at most 1 positional"), "{err}");
    let err = aten::call("aten::erf.default", &[Arg::from("x")], &[]).unwrap_err().to_string();
    assert!(err.contains("argument 'self' (position 0) must be Tensor, not str 'x'"), "{err}");
    let err = aten::call("aten::erf.default", &[Arg::from(&x)], &[("bogus", Arg::from(1))]).unwrap_err().to_string();
    assert!(err.contains("unexpected keyword argument 'bogus'"), "{err}");
    let err = aten::call("aten::add", &[Arg::from("a"), Arg::from("b")], &[]).unwrap_err().to_string();
    assert!(err.contains("no overload of aten::add accepts (str, str)") && err.contains("aten::add.Tensor("), "{err}");
}

#[test]
fn unknown_names() {
    let err = aten::call("aten::definitely_not_an_op", &[], &[]).unwrap_err();
    assert!(
        matches!(&err, Error::InvalidArgument(m) if m.contains("unknown operator aten::definitely_not_an_op")),
        "{err}"
    );
    let err = aten::call("aten::add.NoSuchOverload", &[], &[]).unwrap_err().to_string();
    assert!(err.contains("has no overload \"NoSuchOverload\"") && err.contains("Tensor"), "{err}");
    assert!(aten::schema("aten::nope").is_err());
    assert!(aten::call("not a name!", &[], &[]).is_err());
    assert_eq!(aten::overloads("aten::nope").unwrap(), None);
}

#[test]
fn libtorch_errors_are_torch_errors() {
    let a = Tensor::zeros([2, 3], (Kind::Double, tch::Device::Cpu));
    let b = Tensor::zeros([4, 5], (Kind::Double, tch::Device::Cpu));
    let err = aten::call("aten::mm", &[Arg::from(&a), Arg::from(&b)], &[]).unwrap_err();
    assert!(matches!(&err, Error::Torch(m) if m.starts_with("aten::mm: ")), "{err}");
}

#[test]
fn schemas_and_listing() {
    assert_eq!(aten::schema("aten::erf").unwrap(), "aten::erf(Tensor self) -> Tensor");
    assert_eq!(
        aten::schema("aten::add.Tensor").unwrap(),
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
    );
    let err = aten::schema("aten::add").unwrap_err().to_string();
    assert!(err.contains("no default overload") && err.contains("aten::add.Tensor"), "{err}");
    let overloads = aten::overloads("aten::add").unwrap().unwrap();
    assert_eq!(overloads[0], "Tensor");
    assert!(overloads.contains(&"out".to_owned()));
    let all = aten::operators(Some("aten")).unwrap();
    assert!(all.len() > 1500, "{}", all.len());
    assert!(all.iter().any(|n| n == "aten::linalg_eigh"));
}
