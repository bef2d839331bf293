//! `ops::ndimage::filters`: the index maps (SciPy's extensions repeated for
//! any distance), values quoted from SciPy 1.17.1, output dtypes and errors.

use tch::{Kind, Tensor};
use torchbridge::ops::ndimage::filters::{
    convolve1d, correlate1d, extend_map, gaussian_filter, gaussian_kernel1d, rank_filter, uniform_filter1d, Gaussian,
    Mode, PerAxis, Rank,
};
use torchbridge::DType;

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

/// The reference extension of a line of `n` by `pad` on each side, by
/// repeated reflection one period at a time (the way SciPy's line buffer grows).
fn reference(mode: Mode, n: i64, pad: i64) -> Vec<i64> {
    let line: Vec<i64> = (0..n).collect();
    let period: Vec<i64> = match mode {
        Mode::Reflect => line.iter().copied().chain(line.iter().rev().copied()).collect(),
        Mode::Mirror if n == 1 => vec![0],
        Mode::Mirror => line.iter().copied().chain(line[1..n as usize - 1].iter().rev().copied()).collect(),
        Mode::Wrap => line.clone(),
        _ => unreachable!(),
    };
    let p = period.len() as i64;
    (-pad..n + pad).map(|i| period[i.rem_euclid(p) as usize]).collect()
}

#[test]
fn index_maps_repeat_the_extension_past_the_dimension() {
    for n in 1..8 {
        for pad in [0, 1, 3, 7, 20] {
            for mode in [Mode::Reflect, Mode::Mirror, Mode::Wrap] {
                assert_eq!(extend_map(mode, n, pad, pad), reference(mode, n, pad), "{mode:?} n {n} pad {pad}");
            }
            let nearest = extend_map(Mode::Nearest, n, pad, pad);
            assert!(nearest[..pad as usize].iter().all(|&i| i == 0));
            assert!(nearest[(n + pad) as usize..].iter().all(|&i| i == n - 1));
            let constant = extend_map(Mode::Constant, n, pad, pad);
            assert_eq!(constant.iter().filter(|&&i| i == -1).count() as i64, 2 * pad);
        }
    }
    // the DESIGN note's example: (1, 2, 3, 4) padded by 3
    assert_eq!(extend_map(Mode::Reflect, 4, 3, 3), vec![2, 1, 0, 0, 1, 2, 3, 3, 2, 1]);
    assert_eq!(extend_map(Mode::Mirror, 4, 3, 3), vec![3, 2, 1, 0, 1, 2, 3, 2, 1, 0]);
    assert_eq!(extend_map(Mode::Wrap, 4, 3, 3), vec![1, 2, 3, 0, 1, 2, 3, 0, 1, 2]);
}

#[test]
fn grid_modes_are_the_filters_synonyms() {
    assert_eq!(Mode::from_name("grid-mirror").unwrap(), Mode::Reflect);
    assert_eq!(Mode::from_name("grid-wrap").unwrap(), Mode::Wrap);
    assert_eq!(Mode::from_name("grid-constant").unwrap(), Mode::Constant);
    assert!(Mode::from_name("symmetric").is_err());
}

#[test]
fn correlate1d_values_quoted_from_scipy() {
    // scipy.ndimage.correlate1d([2, 8, 0, 4, 1, 9, 9, 0], weights=[1, 3]) (SciPy's docstring)
    let x = Tensor::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0]);
    let got = correlate1d(&x, &[1.0, 3.0], -1, None, Mode::Reflect, 0.0, 0).unwrap();
    assert_eq!(got.kind(), Kind::Int64);
    assert_eq!(values(&got), vec![8.0, 26.0, 8.0, 12.0, 7.0, 28.0, 36.0, 9.0]);
    // convolve1d([2, 8, 0, 4, 1, 9, 9, 0], weights=[1, 3]) (SciPy's docstring)
    let got = convolve1d(&x, &[1.0, 3.0], -1, None, Mode::Reflect, 0.0, 0).unwrap();
    assert_eq!(values(&got), vec![14.0, 24.0, 4.0, 13.0, 12.0, 36.0, 27.0, 0.0]);
    // a footprint larger than the line: correlate1d([1., 2.], ones(7), mode='mirror') == [11., 10.]
    let y = Tensor::from_slice(&[1.0f64, 2.0]);
    let got = correlate1d(&y, &[1.0; 7], 0, None, Mode::Mirror, 0.0, 0).unwrap();
    assert_eq!(values(&got), vec![11.0, 10.0]);
}

#[test]
fn gaussian_values_quoted_from_scipy() {
    // gaussian_filter1d([1., 2., 3., 4., 5.], 1) (SciPy's docstring, printed to 8 digits)
    let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0]);
    let g = Gaussian { sigma: PerAxis::Same(1.0), order: PerAxis::Same(0), truncate: 4.0, radius: PerAxis::Same(None) };
    let got = values(&gaussian_filter(&x, &g, None, &PerAxis::Same(Mode::Reflect), 0.0, None).unwrap());
    for (a, b) in got.iter().zip([1.42704095, 2.06782203, 3.0, 3.93217797, 4.57295905]) {
        assert!((a - b).abs() < 5e-9, "{a} {b}");
    }
    let k = gaussian_kernel1d(1.0, 0, 4).unwrap();
    assert_eq!(k.len(), 9);
    assert!((k.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    let d = gaussian_kernel1d(2.0, 1, 3).unwrap();
    assert!(d.iter().zip(d.iter().rev()).all(|(a, b)| (a + b).abs() < 1e-18), "odd derivative kernel");
    assert!(gaussian_kernel1d(1.0, -1, 3).is_err());
}

#[test]
fn uniform_filter_output_dtype_and_errors() {
    let x = Tensor::from_slice(&[1.0f32, 2.0, 4.0, 8.0]);
    let got = uniform_filter1d(&x, 2, 0, Some(DType::Float64), Mode::Nearest, 0.0, 0).unwrap();
    assert_eq!(got.kind(), Kind::Double);
    assert_eq!(values(&got), vec![1.0, 1.5, 3.0, 6.0]);
    assert!(uniform_filter1d(&x, 0, 0, None, Mode::Nearest, 0.0, 0).is_err());
    assert!(uniform_filter1d(&x, 3, 0, None, Mode::Nearest, 0.0, 2).is_err());
    assert!(uniform_filter1d(&x, 3, 1, None, Mode::Nearest, 0.0, 0).is_err());
}

#[test]
fn median_of_an_even_window_is_the_upper_middle() {
    let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0]);
    let size = PerAxis::Same(4);
    let mode = PerAxis::Same(Mode::Constant);
    let got = rank_filter(&x, Rank::Median, Some(&size), None, None, &mode, 10.0, &PerAxis::Same(0), None).unwrap();
    let got = values(&got);
    // windows (origin 0, size 4 covers i-2..=i+1): [10,10,1,2] [10,1,2,3] [1,2,3,4] [2,3,4,10]
    assert_eq!(got, vec![10.0, 3.0, 3.0, 4.0]);
}

/// Bit patterns of `t` (float32 or float64), for exact comparison (NaN included).
fn bits(t: &Tensor) -> Vec<i64> {
    let t = t.detach().contiguous().view(-1);
    match t.kind() {
        Kind::Float => Vec::<f32>::try_from(&t).unwrap().iter().map(|v| i64::from(v.to_bits())).collect(),
        _ => Vec::<f64>::try_from(&t.to_kind(Kind::Double)).unwrap().iter().map(|v| v.to_bits() as i64).collect(),
    }
}

#[test]
fn line_kernels_give_the_composites_bits() {
    // On the CPU the passes run csrc/ni_filters.cpp; an input that requires
    // grad takes the libtorch-op composites (the CUDA and autograd path).
    // Both are SciPy's operation order, so they must agree bit for bit: every
    // mode, along the last and a middle axis, symmetric, antisymmetric and
    // general weights longer than the axis, every origin, float32 and float64
    // in and out, a cval that float32 cannot hold exactly, NaN and inf data.
    tch::manual_seed(7);
    let modes = [Mode::Reflect, Mode::Constant, Mode::Nearest, Mode::Mirror, Mode::Wrap];
    let weights: [&[f64]; 4] = [&[0.25, 0.5, 0.25], &[-1.0, 0.0, 1.0], &[1.0, 3.0, -2.0, 0.5], &[0.1; 9]];
    for shape in [[3_i64, 5, 4], [2, 1, 700], [1, 600, 3]] {
        let x = Tensor::randn(shape, (Kind::Double, tch::Device::Cpu));
        let _ = x.get(0).get(0).get(0).fill_(f64::NAN);
        let _ = x.get(0).get(shape[1] - 1).get(shape[2] - 1).fill_(f64::INFINITY);
        for kind in [Kind::Double, Kind::Float] {
            let x = x.to_kind(kind);
            let graph = x.copy().set_requires_grad(true);
            for axis in [1_i64, 2] {
                for mode in modes {
                    for cval in [0.0, 0.1] {
                        for w in weights {
                            let size = w.len() as i64;
                            for origin in -(size / 2)..=(size - 1) / 2 {
                                for output in [None, Some(DType::Float32), Some(DType::Float64)] {
                                    let got = correlate1d(&x, w, axis, output, mode, cval, origin).unwrap();
                                    let want = correlate1d(&graph, w, axis, output, mode, cval, origin).unwrap();
                                    assert_eq!(got.kind(), want.kind());
                                    let case = format!("{shape:?} {kind:?} axis {axis} {mode:?} cval {cval} {w:?} origin {origin} {output:?}");
                                    assert_eq!(bits(&got), bits(&want), "correlate1d {case}");
                                }
                                let got = uniform_filter1d(&x, size, axis, None, mode, cval, origin).unwrap();
                                let want = uniform_filter1d(&graph, size, axis, None, mode, cval, origin).unwrap();
                                assert_eq!(
                                    bits(&got),
                                    bits(&want),
                                    "uniform_filter1d {shape:?} {kind:?} {axis} {mode:?} {size} {origin}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn generic_filter1d_hands_the_extended_lines_to_the_closure() {
    use torchbridge::ops::ndimage::filters::generic_filter1d;
    let x = Tensor::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0]);
    // SciPy 1.17.1: out[i] = line[i] + 10 line[i+1] + 100 line[i+2], mode "mirror"
    let got = generic_filter1d(&x, 3, -1, None, Mode::Mirror, 0.0, 0, |lines: &Tensor, out: &Tensor| {
        assert_eq!(lines.size(), [1, 7]);
        let n = out.size()[1];
        let sum = lines.narrow(1, 0, n) + lines.narrow(1, 1, n) * 10.0 + lines.narrow(1, 2, n) * 100.0;
        out.shallow_clone().copy_(&sum);
        Ok::<(), torchbridge::Error>(())
    })
    .unwrap();
    assert_eq!(values(&got), vec![212.0, 321.0, 432.0, 543.0, 454.0]);
    assert!(generic_filter1d(&x, 0, -1, None, Mode::Mirror, 0.0, 0, |_: &Tensor, _: &Tensor| Ok::<
        (),
        torchbridge::Error,
    >(()))
    .is_err());
}

#[test]
fn generic_filter_hands_the_windows_to_the_closure() {
    use torchbridge::ops::ndimage::filters::{generic_filter, Footprint};
    let x = Tensor::arange(6, (Kind::Double, tch::Device::Cpu)).reshape([2, 3]);
    let footprint = Footprint { shape: vec![1, 3], mask: vec![true, false, true] };
    // SciPy 1.17.1: max - min over the footprint, mode "wrap"
    let got =
        generic_filter(&x, None, Some(&footprint), None, Mode::Wrap, 0.0, &PerAxis::Same(0), None, |rows: &Tensor| {
            assert_eq!(rows.size()[1], 2);
            Ok::<Tensor, torchbridge::Error>(rows.amax(1, false) - rows.amin(1, false))
        })
        .unwrap();
    assert_eq!(values(&got), vec![1.0, 2.0, 1.0, 1.0, 2.0, 1.0]);
    // the results are cast as SciPy's C cast: truncation toward zero
    let got = generic_filter(
        &x,
        Some(&PerAxis::Same(3)),
        None,
        Some(DType::Int32),
        Mode::Reflect,
        0.0,
        &PerAxis::Same(0),
        None,
        |rows: &Tensor| {
            Ok::<Tensor, torchbridge::Error>(Tensor::full([rows.size()[0]], -2.7, (Kind::Double, tch::Device::Cpu)))
        },
    )
    .unwrap();
    assert_eq!(got.kind(), Kind::Int);
    assert_eq!(values(&got), vec![-2.0; 6]);
}
