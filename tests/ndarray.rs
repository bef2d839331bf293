//! Integration tests of the `ndarray` interop (`from_ndarray`, `to_ndarray`,
//! `with_ndarray_view`) and of `ops::special` on known values.

use std::fmt::Debug;

use ndarray::{arr0, s, Array1, Array2, Array3, ArrayD, Axis, IxDyn};
use tch::{Device, Kind, Tensor};
use torchbridge::dlpack::dtype_of;
use torchbridge::ops::special::{erf, erfc, expit, gamma, gammaln, hyp0f1, hyp1f1, kv, logit};
use torchbridge::{from_ndarray, to_ndarray, with_ndarray_view, DType, Element, Error};

fn assert_close(actual: f64, expected: f64, rtol: f64, what: &str) {
    if expected.is_nan() {
        assert!(actual.is_nan(), "{what}: expected nan, got {actual}");
    } else if expected.is_infinite() || expected == 0.0 {
        assert_eq!(actual, expected, "{what}");
    } else {
        let rel = ((actual - expected) / expected).abs();
        assert!(rel <= rtol, "{what}: got {actual:e}, expected {expected:e} (relative error {rel:e})");
    }
}

/// `f` applied to a 1-D f64 array, back as a Vec, after checking the dtype.
fn run_f64(f: fn(&Tensor) -> torchbridge::Result<Tensor>, input: &[f64]) -> Vec<f64> {
    let t = from_ndarray(Array1::from(input.to_vec())).unwrap();
    let out = f(&t).unwrap();
    assert_eq!(dtype_of(&out).unwrap(), DType::Float64);
    assert_eq!(out.size(), [input.len() as i64]);
    to_ndarray::<f64>(&out).unwrap().into_raw_vec_and_offset().0
}

fn check_f64(name: &str, f: fn(&Tensor) -> torchbridge::Result<Tensor>, cases: &[(f64, f64)]) {
    let inputs: Vec<f64> = cases.iter().map(|c| c.0).collect();
    let outputs = run_f64(f, &inputs);
    for (&(x, expected), &got) in cases.iter().zip(&outputs) {
        assert_close(got, expected, 1e-12, &format!("{name}({x})"));
    }
}

// ---------------------------------------------------------------------------
// from_ndarray / to_ndarray
// ---------------------------------------------------------------------------

#[test]
fn owned_array_moves_in_without_copying() {
    let a = Array2::<f64>::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
    let expected = a.clone().into_dyn();
    let ptr = a.as_ptr();
    let t = from_ndarray(a).unwrap();
    assert_eq!(t.data_ptr() as *const f64, ptr, "not zero-copy");
    assert_eq!(t.size(), [3, 4]);
    assert_eq!(t.stride(), [4, 1]);
    assert_eq!(t.kind(), Kind::Double);
    assert_eq!(to_ndarray::<f64>(&t).unwrap(), expected);

    // The tensor owns the buffer: views keep it alive after `t` is gone.
    let row = t.get(2);
    drop(t);
    assert_eq!(row.data_ptr() as *const f64, ptr.wrapping_add(8));
    assert_eq!(to_ndarray::<f64>(&row).unwrap(), ndarray::arr1(&[8.0, 9.0, 10.0, 11.0]).into_dyn());
}

#[test]
fn with_ndarray_view_is_zero_copy_and_sees_torch_writes() {
    let t = from_ndarray(Array1::from(vec![1.0f64, 2.0, 3.0])).unwrap();
    let mut w = t.shallow_clone();
    let _ = w.f_mul_(&Tensor::from(10.0f64)).unwrap();
    let (ptr, sum) = with_ndarray_view::<f64, _>(&t, |v| (v.as_ptr(), v.sum())).unwrap();
    assert_eq!(ptr, t.data_ptr() as *const f64);
    assert_eq!(sum, 60.0);
}

#[test]
fn transposed_array_stays_transposed() {
    let a = Array2::<f64>::from_shape_fn((3, 4), |(i, j)| (10 * i + j) as f64);
    let expected = a.t().to_owned().into_dyn();
    let ptr = a.as_ptr();
    let t = from_ndarray(a.reversed_axes()).unwrap();
    assert_eq!(t.data_ptr() as *const f64, ptr, "not zero-copy");
    assert_eq!(t.size(), [4, 3]);
    assert_eq!(t.stride(), [1, 4]);
    assert!(!t.is_contiguous());
    assert_eq!(to_ndarray::<f64>(&t).unwrap(), expected);
    assert_eq!(t.f_double_value(&[3, 2]).unwrap(), 23.0);
    // The view handed back has the same strides.
    let strides = with_ndarray_view::<f64, _>(&t, |v| v.strides().to_vec()).unwrap();
    assert_eq!(strides, [1, 4]);
}

#[test]
fn stepped_owned_array_is_zero_copy() {
    let a = Array2::<i32>::from_shape_fn((4, 6), |(i, j)| (i * 6 + j) as i32);
    let stepped = a.slice_move(s![1.., ..;2]);
    let expected = stepped.to_owned().into_dyn();
    let ptr = stepped.as_ptr();
    let t = from_ndarray(stepped).unwrap();
    assert_eq!(t.data_ptr() as *const i32, ptr);
    assert_eq!(t.size(), [3, 3]);
    assert_eq!(t.stride(), [6, 2]);
    assert_eq!(to_ndarray::<i32>(&t).unwrap(), expected);
}

#[test]
fn inverted_axes_are_copied_with_values_in_order() {
    let mut a = Array2::<f64>::from_shape_fn((3, 4), |(i, j)| (10 * i + j) as f64);
    let buffer = a.as_ptr() as usize..a.as_ptr() as usize + 12 * 8;
    a.invert_axis(Axis(0));
    let expected = a.to_owned().into_dyn();
    assert_eq!(expected[[0, 0]], 20.0);
    let t = from_ndarray(a).unwrap();
    assert!(!buffer.contains(&(t.data_ptr() as usize)), "negative strides cannot be viewed");
    assert!(t.is_contiguous());
    assert_eq!(to_ndarray::<f64>(&t).unwrap(), expected);

    let mut b = Array3::<u16>::from_shape_fn((2, 3, 4), |(i, j, k)| (100 * i + 10 * j + k) as u16);
    b.invert_axis(Axis(2));
    b.invert_axis(Axis(0));
    let expected = b.to_owned().into_dyn();
    let t = from_ndarray(b).unwrap();
    assert_eq!(dtype_of(&t).unwrap(), DType::UInt16);
    assert_eq!(to_ndarray::<u16>(&t).unwrap(), expected);

    // A reversed slice (negative stride with a step).
    let c = Array1::from((0..10).map(f64::from).collect::<Vec<_>>()).slice_move(s![..;-3]);
    let expected = c.to_owned().into_dyn();
    let t = from_ndarray(c).unwrap();
    assert_eq!(to_ndarray::<f64>(&t).unwrap(), expected);
    assert_eq!(expected.as_slice().unwrap(), [9.0, 6.0, 3.0, 0.0]);
}

fn round_trip<A: Element + Copy + PartialEq + Debug>(values: [A; 6]) {
    let a = Array2::from_shape_vec((2, 3), values.to_vec()).unwrap();
    let ptr = a.as_ptr();
    let t = from_ndarray(a.clone()).unwrap();
    assert_eq!(dtype_of(&t).unwrap(), <A as Element>::DTYPE, "{:?}", <A as Element>::DTYPE);
    if let Some(kind) = <A as Element>::DTYPE.kind() {
        assert_eq!(t.kind(), kind);
    }
    let back = to_ndarray::<A>(&t).unwrap();
    assert_eq!(back, a.clone().into_dyn(), "{:?}", <A as Element>::DTYPE);
    // The view reads the same memory the moved-in clone owns.
    let first = with_ndarray_view::<A, _>(&t, |v| (v[[1, 2]], v.shape().to_vec())).unwrap();
    assert_eq!(first, (values[5], vec![2, 3]));
    // And the original array was untouched (a clone was moved in).
    assert_eq!(a.as_ptr(), ptr);
    // Transposed in, transposed out.
    let t = from_ndarray(a.clone().reversed_axes()).unwrap();
    assert_eq!(to_ndarray::<A>(&t).unwrap(), a.t().to_owned().into_dyn());
}

#[test]
fn every_element_type_round_trips() {
    round_trip::<i8>([i8::MIN, -1, 0, 1, 42, i8::MAX]);
    round_trip::<i16>([i16::MIN, -1, 0, 1, 4242, i16::MAX]);
    round_trip::<i32>([i32::MIN, -1, 0, 1, 424_242, i32::MAX]);
    round_trip::<i64>([i64::MIN, -1, 0, 1, 1 << 53, i64::MAX]);
    round_trip::<u8>([0, 1, 127, 128, 200, u8::MAX]);
    round_trip::<u16>([0, 1, 32767, 32768, 50000, u16::MAX]);
    round_trip::<u32>([0, 1, 1 << 31, 3_000_000_000, 7, u32::MAX]);
    round_trip::<u64>([0, 1, 1 << 63, (1 << 63) + 12345, 7, u64::MAX]);
    round_trip::<f32>([f32::MIN, -0.0, f32::MIN_POSITIVE, 1.5, f32::INFINITY, f32::MAX]);
    round_trip::<f64>([f64::MIN, -0.0, f64::MIN_POSITIVE, 1.5, f64::NEG_INFINITY, f64::MAX]);
}

#[test]
fn unsigned_values_are_not_read_as_signed() {
    // uint64 has no tch::Kind; libtorch still computes on it as unsigned.
    let t = from_ndarray(Array1::from(vec![u64::MAX, 1 << 63])).unwrap();
    assert_eq!(dtype_of(&t).unwrap(), DType::UInt64);
    let as_double = t.f_to_kind(Kind::Double).unwrap();
    assert_eq!(as_double.f_double_value(&[0]).unwrap(), 2f64.powi(64));
    assert_eq!(as_double.f_double_value(&[1]).unwrap(), 2f64.powi(63));
}

#[test]
fn zero_dimensional_empty_and_higher_rank_arrays() {
    let t = from_ndarray(arr0(3.25f64)).unwrap();
    assert_eq!(t.dim(), 0);
    assert_eq!(to_ndarray::<f64>(&t).unwrap(), arr0(3.25).into_dyn());

    let empty = Array2::<f32>::zeros((0, 3));
    let t = from_ndarray(empty).unwrap();
    assert_eq!(t.size(), [0, 3]);
    let back = to_ndarray::<f32>(&t).unwrap();
    assert_eq!(back.shape(), [0, 3]);
    assert_eq!(with_ndarray_view::<f32, _>(&t, |v| v.len()).unwrap(), 0);

    let dynamic = ArrayD::<i64>::from_shape_fn(IxDyn(&[2, 1, 3, 1, 2]), |ix| (ix[0] * 100 + ix[2] * 10 + ix[4]) as i64);
    let t = from_ndarray(dynamic.clone()).unwrap();
    assert_eq!(t.size(), [2, 1, 3, 1, 2]);
    assert_eq!(to_ndarray::<i64>(&t).unwrap(), dynamic);
}

#[test]
fn views_of_strided_torch_tensors() {
    let base = Tensor::f_arange(12, (Kind::Double, Device::Cpu)).unwrap().f_reshape([3, 4]).unwrap();
    // Transposed.
    let tt = base.f_transpose(0, 1).unwrap();
    let v = to_ndarray::<f64>(&tt).unwrap();
    assert_eq!(v.shape(), [4, 3]);
    assert_eq!(v[[3, 1]], 7.0);
    // Sliced with a storage offset and a step.
    let sl = base.f_narrow(0, 1, 2).unwrap().f_slice(1, 1, 4, 2).unwrap();
    let (ptr, owned) = with_ndarray_view::<f64, _>(&sl, |v| (v.as_ptr(), v.to_owned())).unwrap();
    assert_eq!(ptr, sl.data_ptr() as *const f64);
    assert_eq!(owned, ndarray::arr2(&[[5.0, 7.0], [9.0, 11.0]]).into_dyn());
    // Broadcast (stride 0).
    let row = Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
    let expanded = row.f_expand([4, 3], false).unwrap();
    let sum = with_ndarray_view::<f64, _>(&expanded, |v| {
        assert_eq!(v.strides(), [0, 1]);
        v.sum()
    })
    .unwrap();
    assert_eq!(sum, 24.0);
    // A lazily negated view is resolved before it is exposed.
    let neg = row.f_internal_neg_view().unwrap();
    assert!(neg.is_neg());
    assert_eq!(to_ndarray::<f64>(&neg).unwrap(), ndarray::arr1(&[-1.0, -2.0, -3.0]).into_dyn());
}

#[test]
fn dtype_mismatch_is_an_invalid_argument() {
    let f32_tensor = Tensor::from_slice(&[1.0f32, 2.0]);
    let err = with_ndarray_view::<f64, _>(&f32_tensor, |v| v.sum()).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    assert!(err.to_string().contains("float32") && err.to_string().contains("float64"), "{err}");
    let err = to_ndarray::<f64>(&f32_tensor).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");

    // Same width, other signedness.
    let u16_tensor = from_ndarray(Array1::from(vec![1u16, 2])).unwrap();
    let err = to_ndarray::<i16>(&u16_tensor).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    // bool is not u8; complex64 is not f32 (nor a pair of them).
    let bools = Tensor::from_slice(&[true, false]);
    assert!(matches!(to_ndarray::<u8>(&bools).unwrap_err(), Error::InvalidArgument(_)));
    let complex = Tensor::f_complex(&Tensor::from_slice(&[1.0f32]), &Tensor::from_slice(&[2.0f32])).unwrap();
    assert!(matches!(to_ndarray::<f32>(&complex).unwrap_err(), Error::InvalidArgument(_)));
    // The closure never ran for any of them: nothing else to check.
}

#[test]
fn dtypes_without_dlpack_equivalent_are_unsupported_in_views() {
    let fp8 = Tensor::f_zeros([2], (Kind::Float8e4m3fn, Device::Cpu)).unwrap();
    let err = to_ndarray::<u8>(&fp8).unwrap_err();
    assert!(matches!(err, Error::UnsupportedDtype { .. }), "{err:?}");
}

#[test]
fn non_cpu_tensors_are_an_invalid_argument() {
    if !tch::Cuda::is_available() {
        eprintln!("skipped: no CUDA device visible to libtorch");
        return;
    }
    let t = Tensor::f_zeros([3], (Kind::Double, Device::Cuda(0))).unwrap();
    let err = with_ndarray_view::<f64, _>(&t, |v| v.sum()).unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    assert!(err.to_string().contains("CPU"), "{err}");
    assert!(matches!(to_ndarray::<f64>(&t).unwrap_err(), Error::InvalidArgument(_)));
}

// ---------------------------------------------------------------------------
// ops::special
// ---------------------------------------------------------------------------

// Reference values from SciPy 1.17.1 (scipy.special, float64).

#[test]
fn erf_known_values() {
    check_f64(
        "erf",
        erf,
        &[
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497148),
            (-2.0, -0.9953222650189527),
            (0.0, 0.0),
            (-0.25, -0.2763263901682369),
            (f64::INFINITY, 1.0),
            (f64::NAN, f64::NAN),
        ],
    );
}

#[test]
fn erfc_known_values() {
    check_f64(
        "erfc",
        erfc,
        &[
            (3.0, 2.209049699858544e-05),
            (0.5, 0.4795001221869535),
            (-2.0, 1.9953222650189528),
            (0.0, 1.0),
            // Far in the upper tail, where 1 - erf(x) would be 0.
            (10.0, 2.088487583762545e-45),
        ],
    );
}

#[test]
fn expit_known_values() {
    check_f64(
        "expit",
        expit,
        &[
            (0.0, 0.5),
            (2.0, 0.8807970779778823),
            (-3.0, 0.04742587317756678),
            (20.0, 0.9999999979388463),
            (-800.0, 0.0),
            (800.0, 1.0),
        ],
    );
}

#[test]
fn logit_known_values() {
    check_f64(
        "logit",
        logit,
        &[
            (0.25, -1.0986122886681098),
            (0.9, 2.1972245773362196),
            (0.5, 0.0),
            (0.0, f64::NEG_INFINITY),
            (1.0, f64::INFINITY),
            (1.5, f64::NAN),
            (-0.1, f64::NAN),
        ],
    );
}

#[test]
fn gammaln_known_values() {
    check_f64(
        "gammaln",
        gammaln,
        &[
            (0.5, 0.5723649429247001),
            (1.0, 0.0),
            (3.0, std::f64::consts::LN_2),
            (10.0, 12.801827480081469),
            (100.0, 359.1342053695754),
            (-0.5, 1.2655121234846454),
            (2.5, 0.2846828704729192),
            (0.0, f64::INFINITY),
            (-1.0, f64::INFINITY),
        ],
    );
}

#[test]
fn special_functions_leave_their_input_alone() {
    let a = Array1::from(vec![0.1f64, 0.5, 0.9]);
    let t = from_ndarray(a.clone()).unwrap();
    for f in [erf, erfc, expit, logit, gammaln] {
        let out = f(&t).unwrap();
        assert_ne!(out.data_ptr(), t.data_ptr(), "a routine returned its input's memory");
    }
    assert_eq!(to_ndarray::<f64>(&t).unwrap(), a.into_dyn());
}

#[test]
fn float32_stays_float32() {
    let t = from_ndarray(Array1::from(vec![0.5f32, 3.0])).unwrap();
    let y = erf(&t).unwrap();
    assert_eq!(dtype_of(&y).unwrap(), DType::Float32);
    let y = to_ndarray::<f32>(&y).unwrap();
    assert_close(f64::from(y[0]), 0.5204998778130465, 1e-6, "erf(0.5f32)");
    assert_close(f64::from(y[1]), 0.9999779095030014, 1e-6, "erf(3f32)");
    let g = to_ndarray::<f32>(&gammaln(&t).unwrap()).unwrap();
    assert_close(f64::from(g[0]), 0.5723649429247001, 1e-6, "gammaln(0.5f32)");
}

#[test]
fn integer_input_is_cast_like_scipy() {
    // int32 -> float64.
    let t = from_ndarray(Array1::from(vec![1i32, -2, 3])).unwrap();
    let y = erf(&t).unwrap();
    assert_eq!(dtype_of(&y).unwrap(), DType::Float64);
    let y = to_ndarray::<f64>(&y).unwrap();
    for (got, want) in y.iter().zip([0.8427007929497148, -0.9953222650189527, 0.9999779095030014]) {
        assert_close(*got, want, 1e-12, "erf(int32)");
    }
    let g = to_ndarray::<f64>(&gammaln(&t).unwrap()).unwrap();
    assert_eq!(g[1], f64::INFINITY);
    assert_close(g[2], std::f64::consts::LN_2, 1e-12, "gammaln(3 as int32)");

    // int64 and uint64 -> float64 too.
    for t in [
        from_ndarray(Array1::from(vec![2i64])).unwrap(),
        from_ndarray(Array1::from(vec![2u64])).unwrap(),
        from_ndarray(Array1::from(vec![2u32])).unwrap(),
    ] {
        let y = expit(&t).unwrap();
        assert_eq!(dtype_of(&y).unwrap(), DType::Float64);
        assert_close(to_ndarray::<f64>(&y).unwrap()[0], 0.8807970779778823, 1e-12, "expit(2)");
    }

    // int16 -> float64 as well. SciPy 1.17.1 (this project's venv) lists
    // its loops as `d->d, f->f`, so every non-float32 real input, 8/16-bit
    // integers, bool and float16 included, resolves to the float64 loop
    // (checked: scipy.special.erf(np.int16 array).dtype == float64).
    let t = from_ndarray(Array1::from(vec![1i16, -2, 3])).unwrap();
    let y = erf(&t).unwrap();
    assert_eq!(dtype_of(&y).unwrap(), DType::Float64);
    let y = to_ndarray::<f64>(&y).unwrap();
    for (got, want) in y.iter().zip([0.8427007929497148, -0.9953222650189527, 0.9999779095030014]) {
        assert_close(*got, want, 1e-12, "erf(int16)");
    }
    let half = Tensor::from_slice(&[0.5f32]).f_to_kind(Kind::Half).unwrap();
    for t in [
        from_ndarray(Array1::from(vec![1i8])).unwrap(),
        from_ndarray(Array1::from(vec![1u8])).unwrap(),
        from_ndarray(Array1::from(vec![1u16])).unwrap(),
        Tensor::from_slice(&[true]),
    ] {
        let y = logit(&t).unwrap();
        assert_eq!(dtype_of(&y).unwrap(), DType::Float64);
        assert_eq!(to_ndarray::<f64>(&y).unwrap()[0], f64::INFINITY);
    }
    let y = gammaln(&half).unwrap();
    assert_eq!(dtype_of(&y).unwrap(), DType::Float64);
    assert_close(to_ndarray::<f64>(&y).unwrap()[0], 0.5723649429247001, 1e-12, "gammaln(float16 0.5)");
}

#[test]
fn complex_input_computes_or_is_refused_with_the_right_error() {
    let z = Tensor::f_complex(&Tensor::from_slice(&[1.0f64]), &Tensor::from_slice(&[2.0f64])).unwrap();
    // SciPy has complex loops for erf/erfc, computed here from the Faddeeva function (values from SciPy) ...
    for (f, want) in [
        (erf as fn(&Tensor) -> _, (-0.5366435657785664, -5.049143703447037)),
        (erfc, (1.5366435657785666, 5.049143703447037)),
    ] {
        let got = f(&z).unwrap();
        let (re, im) = (got.real().double_value(&[0]), got.imag().double_value(&[0]));
        assert!((re - want.0).abs() <= 1e-13 * want.0.abs() && (im - want.1).abs() <= 1e-13 * want.1.abs());
    }
    // ... and gamma's, from the complex xsf kernel (SciPy's gamma(1+2j)) ...
    let got = gamma(&z).unwrap();
    let (re, im) = (got.real().double_value(&[0]), got.imag().double_value(&[0]));
    let want = (0.1519040026700362, 0.019804880161854988);
    assert!((re - want.0).abs() <= 1e-13 * want.0.abs() && (im - want.1).abs() <= 1e-13 * want.1.abs());
    // ... and kv's, from the complex Bessel kernel (SciPy's kv(1.5, 1+2j)) ...
    let order = Tensor::from_slice(&[1.5f64]);
    let got = kv(&order, &z).unwrap();
    let (re, im) = (got.real().double_value(&[0]), got.imag().double_value(&[0]));
    let want = (-0.3762721693456979, -0.10262602586821047);
    assert!((re - want.0).abs() <= 1e-13 * want.0.abs() && (im - want.1).abs() <= 1e-13 * want.1.abs());
    // ... and hyp0f1's (SciPy's hyp0f1(1.5, 1+2j)) ...
    let got = hyp0f1(&order, &z).unwrap();
    let (re, im) = (got.real().double_value(&[0]), got.imag().double_value(&[0]));
    let want = (1.1231748668403436, 1.8233962823386207);
    assert!((re - want.0).abs() <= 1e-13 * want.0.abs() && (im - want.1).abs() <= 1e-13 * want.1.abs());
    // ... and hyp1f1's (1F1(a; a; z) = exp(z)) ...
    let got = hyp1f1(&order, &order, &z).unwrap();
    let (re, im) = (got.real().double_value(&[0]), got.imag().double_value(&[0]));
    let want = (std::f64::consts::E * 2f64.cos(), std::f64::consts::E * 2f64.sin());
    assert!((re - want.0).abs() <= 1e-13 * want.0.abs() && (im - want.1).abs() <= 1e-13 * want.1.abs());
    // It has none for expit/logit/gammaln: "not accepted", naming the dtype.
    for (name, f) in
        [("special.expit", expit as fn(&Tensor) -> _), ("special.logit", logit), ("special.gammaln", gammaln)]
    {
        match f(&z).unwrap_err() {
            Error::DtypeNotAccepted { routine, dtype, .. } => {
                assert_eq!(routine, name);
                assert_eq!(dtype, DType::Complex128);
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn threads_convert_and_compute_independently() {
    let handles: Vec<_> = (0..8)
        .map(|k| {
            std::thread::spawn(move || {
                let n = 1000 + 17 * k;
                let a = Array1::from_shape_fn(n, |i| (i as f64 - n as f64 / 2.0) / n as f64 * 4.0 + k as f64 * 0.01);
                let ptr = a.as_ptr();
                let t = from_ndarray(a.clone()).unwrap();
                assert_ne!(t.data_ptr() as *const f64, ptr, "moved a clone, not the original");
                let y = to_ndarray::<f64>(&erf(&t).unwrap()).unwrap();
                let p = to_ndarray::<f64>(&expit(&t).unwrap()).unwrap();
                let back = to_ndarray::<f64>(&logit(&from_ndarray(p.clone()).unwrap()).unwrap()).unwrap();
                // erf is odd and bounded; logit inverts expit.
                for ((&x, &e), &b) in a.iter().zip(&y).zip(&back) {
                    assert!(e.abs() < 1.0 && e.signum() == x.signum() || x == 0.0, "erf({x}) = {e}");
                    assert!((b - x).abs() < 1e-12, "logit(expit({x})) = {b}");
                }
                (k, n, y.sum())
            })
        })
        .collect();
    let mut seen = Vec::new();
    for handle in handles {
        let (k, n, sum) = handle.join().expect("worker panicked");
        // Each thread's erf sum matches a single-threaded recomputation.
        let a = Array1::from_shape_fn(n, |i| (i as f64 - n as f64 / 2.0) / n as f64 * 4.0 + k as f64 * 0.01);
        let again = to_ndarray::<f64>(&erf(&from_ndarray(a).unwrap()).unwrap()).unwrap().sum();
        assert_eq!(sum, again, "thread {k}");
        seen.push(k);
    }
    assert_eq!(seen, (0..8).collect::<Vec<_>>());
}

#[test]
fn tensors_move_between_threads() {
    let t = from_ndarray(Array2::<f64>::from_elem((4, 4), 0.5)).unwrap();
    let y = std::thread::spawn(move || erf(&t).unwrap()).join().unwrap();
    let y = to_ndarray::<f64>(&y).unwrap();
    assert!(y.iter().all(|&v| (v - 0.5204998778130465).abs() < 1e-15));
}
