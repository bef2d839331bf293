//! `ops::ndimage::interpolation`: values quoted from SciPy 1.17.1, modes,
//! output dtypes and errors.

use tch::{Kind, Tensor};
use torchbridge::ops::ndimage::filters::PerAxis;
use torchbridge::ops::ndimage::interpolation::{
    affine_transform, map_coordinates, rotate, shift, spline_filter, spline_filter1d, zoom, zoom_shape, Mode,
};
use torchbridge::{DType, Error};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn assert_close(got: &[f64], want: &[f64], rtol: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= rtol * w.abs().max(1.0), "{got:?} vs {want:?}");
    }
}

fn line() -> Tensor {
    Tensor::from_slice(&[1.0f64, 4.0, 2.0, 8.0, 5.0, 7.0])
}

#[test]
fn cubic_prefilter_matches_scipy() {
    let got = spline_filter1d(&line(), 3, -1, None, Mode::Mirror).unwrap();
    let want = [
        -1.9569377990430623,
        6.913875598086125,
        -1.6985645933014355,
        11.88038277511962,
        2.1770334928229667,
        9.411483253588518,
    ];
    assert_close(&values(&got), &want, 1e-13);
    // the n-d filter of a line is the 1-d one
    let nd = spline_filter(&line(), 3, Some(DType::Float64), Mode::Mirror).unwrap();
    assert_close(&values(&nd), &want, 1e-13);
}

#[test]
fn map_coordinates_matches_scipy() {
    let image = line().unsqueeze(0).repeat([2, 1]) * Tensor::from_slice(&[1.0f64, 2.0]).unsqueeze(1);
    let coords = Tensor::from_slice(&[0.5f64, 1.25, -0.3, 2.5, 4.75, 7.0]).view([2, 3]);
    let got = map_coordinates(&image, &coords, None, 1, Mode::Constant, 0.0, true).unwrap();
    assert_eq!(values(&got), vec![7.5, 0.0, 0.0]);
    let coords = Tensor::from_slice(&[-2.5f64, 0.5, 6.7, 13.1]).view([1, 4]);
    let got = map_coordinates(&line(), &coords, None, 3, Mode::GridWrap, 0.0, true).unwrap();
    assert_close(&values(&got), &[6.800000000000001, 2.2000000000000006, 3.1504000000000008, 3.970999999999999], 1e-13);
}

#[test]
fn integer_outputs_round_as_scipy() {
    let got = shift(&line(), &PerAxis::Same(1.5), Some(DType::Int32), 1, Mode::Nearest, 0.0, true).unwrap();
    assert_eq!(got.kind(), Kind::Int);
    assert_eq!(values(&got), vec![1.0, 1.0, 3.0, 3.0, 5.0, 7.0]);
}

#[test]
fn zoom_matches_scipy() {
    assert_eq!(zoom_shape(&[6, 5], &[1.5, 0.5]), vec![9, 2]); // round(2.5) == 2, as Python
    let got = zoom(&line(), &PerAxis::Same(1.5), None, 1, Mode::Constant, 0.0, true, false).unwrap();
    assert_close(&values(&got), &[1.0, 2.875, 3.5, 2.25, 5.0, 7.625, 5.75, 5.75, 7.0], 1e-14);
}

#[test]
fn every_mode_order_and_matrix_form_runs() {
    let image = Tensor::arange(20, (Kind::Double, tch::Device::Cpu)).view([4, 5]);
    for mode in ["nearest", "wrap", "reflect", "grid-mirror", "mirror", "constant", "grid-wrap", "grid-constant"] {
        let mode = Mode::from_name(mode).unwrap();
        for order in 0..=5 {
            let m = [1.0, 0.0, 0.5, 0.0, 1.0, -0.25, 0.0, 0.0, 1.0];
            let a =
                affine_transform(&image, &m, &[3, 3], &PerAxis::Same(0.0), None, None, order, mode, 0.0, true).unwrap();
            let s = shift(&image, &PerAxis::Each(vec![-0.5, 0.25]), None, order, mode, 0.0, true).unwrap();
            assert_close(&values(&a), &values(&s), 1e-12);
            let r = rotate(&image, 90.0, (1, 0), true, None, order, mode, 0.0, true).unwrap();
            assert_eq!(r.size(), vec![5, 4]);
        }
    }
}

#[test]
fn errors() {
    let coords = Tensor::zeros([2, 3], (Kind::Double, tch::Device::Cpu));
    assert!(matches!(Mode::from_name("symmetric"), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        map_coordinates(&line(), &coords, None, 3, Mode::Constant, 0.0, true),
        Err(Error::InvalidArgument(m)) if m.contains("invalid shape for coordinate array")
    ));
    assert!(matches!(
        map_coordinates(&line(), &coords.narrow(0, 0, 1), None, 6, Mode::Constant, 0.0, true),
        Err(Error::InvalidArgument(m)) if m.contains("spline order")
    ));
    assert!(matches!(spline_filter(&line(), 1, None, Mode::Mirror), Err(Error::InvalidArgument(_))));
    let bad = affine_transform(
        &line(),
        &[1.0, 2.0, 3.0],
        &[1, 3],
        &PerAxis::Same(0.0),
        None,
        None,
        1,
        Mode::Constant,
        0.0,
        true,
    );
    assert!(matches!(bad, Err(Error::InvalidArgument(m)) if m.contains("columns")));
    assert!(matches!(
        rotate(&line(), 10.0, (1, 0), true, None, 1, Mode::Constant, 0.0, true),
        Err(Error::InvalidArgument(m)) if m.contains("at least 2D")
    ));
}

/// Bit patterns of `t` (float32 or float64), for exact comparison (NaN included).
fn bits(t: &Tensor) -> Vec<i64> {
    let t = t.detach().contiguous().view(-1);
    match t.kind() {
        Kind::Float => Vec::<f32>::try_from(&t).unwrap().iter().map(|v| i64::from(v.to_bits())).collect(),
        _ => Vec::<f64>::try_from(&t.to_kind(Kind::Double)).unwrap().iter().map(|v| v.to_bits() as i64).collect(),
    }
}

/// Random coordinates for `shape` (`(ndim, count)`) from a little before the
/// first sample to a little past the last, with the special values SciPy's
/// loop meets: integers, the edges, half-way points, NaN, infinities, far
/// points and -0.0.
fn probe_coordinates(shape: &[i64], count: i64) -> Tensor {
    let rows: Vec<Tensor> = shape
        .iter()
        .map(|&n| {
            let n = n as f64;
            let random = Tensor::rand([count], (Kind::Double, tch::Device::Cpu)) * (n + 6.0) - 3.0;
            let special = Tensor::from_slice(&[
                0.0,
                -0.0,
                n - 1.0,
                -0.5,
                n - 0.5,
                1.0,
                2.5,
                -1.0,
                n,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                1e10,
                -1e10,
                -3.0 * n - 0.25,
                4.0 * n + 0.75,
            ]);
            Tensor::cat(&[special, random], 0)
        })
        .collect();
    // shuffle each axis's row so that special values meet ordinary ones
    let rows: Vec<Tensor> = rows
        .iter()
        .enumerate()
        .map(|(d, r)| if d == 0 { r.shallow_clone() } else { r.roll([3 * d as i64], [0]) })
        .collect();
    Tensor::stack(&rows, 0)
}

#[test]
fn point_kernel_gives_the_composites_bits() {
    // On the CPU the interpolation runs csrc/ni_interpolation.cpp; an input
    // that requires grad takes the libtorch-op composite (the CUDA and
    // autograd path). Both follow SciPy's operation order, so they must agree
    // bit for bit: every mode, order 0 to 5, 1-D to 3-D and an axis of one
    // sample, float32 and float64, with and without the prefilter, two
    // cvals, points outside the image, NaN and infinite coordinates, NaN data.
    tch::manual_seed(11);
    let modes =
        [Mode::Nearest, Mode::Wrap, Mode::Reflect, Mode::Mirror, Mode::Constant, Mode::GridWrap, Mode::GridConstant];
    for shape in [vec![9_i64], vec![5, 6], vec![4, 3, 5], vec![1, 6], vec![2, 1]] {
        let x = Tensor::randn(shape.as_slice(), (Kind::Double, tch::Device::Cpu));
        let coords = probe_coordinates(&shape, 40);
        let with_nan = x.copy();
        let _ = with_nan.view(-1).get(0).fill_(f64::NAN);
        for data in [&x, &with_nan] {
            for kind in [Kind::Double, Kind::Float] {
                let x = data.to_kind(kind);
                let graph = x.copy().set_requires_grad(true);
                for mode in modes {
                    for order in 0..=5 {
                        for prefilter in [true, false] {
                            for cval in [0.0, 1.5] {
                                let case = format!(
                                    "{shape:?} {kind:?} {mode:?} order {order} prefilter {prefilter} cval {cval}"
                                );
                                let got = map_coordinates(&x, &coords, None, order, mode, cval, prefilter).unwrap();
                                let want =
                                    map_coordinates(&graph, &coords, None, order, mode, cval, prefilter).unwrap();
                                assert_eq!(got.kind(), want.kind(), "{case}");
                                assert_eq!(bits(&got), bits(&want), "map_coordinates {case}");
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn point_kernel_gives_the_composites_bits_in_the_transforms() {
    // affine_transform, shift, zoom and rotate (a batch of planes) through
    // the kernel and through the composite.
    tch::manual_seed(12);
    let x = Tensor::randn([3, 7, 6], (Kind::Double, tch::Device::Cpu));
    let graph = x.copy().set_requires_grad(true);
    for mode in ["nearest", "wrap", "reflect", "mirror", "constant", "grid-wrap", "grid-constant"] {
        let mode = Mode::from_name(mode).unwrap();
        for order in 0..=5 {
            let case = format!("{mode:?} order {order}");
            let r = |x: &Tensor| rotate(x, 30.0, (2, 1), true, None, order, mode, 0.5, true).unwrap();
            assert_eq!(bits(&r(&x)), bits(&r(&graph)), "rotate {case}");
            let z = |x: &Tensor| {
                zoom(x, &PerAxis::Each(vec![1.0, 1.7, 0.6]), None, order, mode, 0.5, true, order % 2 == 0).unwrap()
            };
            assert_eq!(bits(&z(&x)), bits(&z(&graph)), "zoom {case}");
            let s = |x: &Tensor| shift(x, &PerAxis::Each(vec![0.5, -2.25, 3.5]), None, order, mode, 0.5, true).unwrap();
            assert_eq!(bits(&s(&x)), bits(&s(&graph)), "shift {case}");
            let m = [0.9, 0.1, 0.0, -0.2, 1.1, 0.3, 0.05, 0.0, 0.8];
            let a = |x: &Tensor| {
                affine_transform(x, &m, &[3, 3], &PerAxis::Same(-0.5), None, None, order, mode, 0.5, false).unwrap()
            };
            assert_eq!(bits(&a(&x)), bits(&a(&graph)), "affine_transform {case}");
        }
    }
}
