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
