//! The morphology (`ops::ndimage::morphology`): binary erosion and dilation
//! with structures, origins, iterations and masks, grey erosion with a
//! structure, the distance transforms, values quoted from SciPy 1.17.1.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::ndimage::filters::{Footprint, Mode, PerAxis};
use torchbridge::ops::ndimage::morphology::{
    binary_dilation, binary_erosion, binary_fill_holes, distance_transform_cdt, distance_transform_edt,
    generate_binary_structure, grey_erosion, Binary, Grey, Structure,
};
use torchbridge::DType;

fn ints(t: &Tensor) -> Vec<i64> {
    Vec::<i64>::try_from(&t.to_kind(Kind::Int64).contiguous().view(-1)).unwrap()
}

fn defaults() -> Binary<'static> {
    Binary { structure: None, iterations: 1, mask: None, border_value: false, origin: PerAxis::Same(0), axes: None }
}

#[test]
fn structures_by_connectivity() {
    let s = generate_binary_structure(2, 1).unwrap();
    assert_eq!(s.shape, [3, 3]);
    assert_eq!(s.mask, [false, true, false, true, true, true, false, true, false]);
    assert!(generate_binary_structure(3, 3).unwrap().mask.iter().all(|&m| m));
    assert_eq!(generate_binary_structure(3, 2).unwrap().mask.iter().filter(|&&m| m).count(), 19);
    assert_eq!(generate_binary_structure(0, 1).unwrap().mask, [true]);
}

#[test]
fn erosion_and_dilation_of_a_line() {
    // scipy.ndimage.binary_erosion([0, 1, 1, 1, 1, 0, 1]) and friends
    let x = Tensor::from_slice(&[0i64, 1, 1, 1, 1, 0, 1]);
    assert_eq!(ints(&binary_erosion(&x, &defaults(), None).unwrap()), [0, 0, 1, 1, 0, 0, 0]);
    let border = Binary { border_value: true, ..defaults() };
    assert_eq!(ints(&binary_erosion(&x, &border, None).unwrap()), [0, 0, 1, 1, 0, 0, 0]);
    assert_eq!(ints(&binary_dilation(&x, &defaults(), None).unwrap()), [1, 1, 1, 1, 1, 1, 1]);
    // an asymmetric structure with an origin: [1, 1, 0], origin 1
    let s = Footprint { shape: vec![3], mask: vec![true, true, false] };
    let shifted = Binary { structure: Some(&s), origin: PerAxis::Same(1), ..defaults() };
    assert_eq!(ints(&binary_dilation(&x, &shifted, None).unwrap()), [1, 1, 1, 1, 1, 1, 0]);
    // until stable, within a mask
    let seed = Tensor::from_slice(&[0i64, 0, 1, 0, 0, 0, 0]);
    let mask = Tensor::from_slice(&[1i64, 1, 1, 1, 0, 1, 1]).to_kind(Kind::Bool);
    let grow = Binary { iterations: -1, mask: Some(&mask), ..defaults() };
    assert_eq!(ints(&binary_dilation(&seed, &grow, None).unwrap()), [1, 1, 1, 1, 0, 0, 0]);
}

#[test]
fn holes_are_filled() {
    let mut cells = vec![0i64; 25];
    for r in 0..5 {
        for c in 0..5 {
            if (1..4).contains(&r) && (1..4).contains(&c) && !(r == 2 && c == 2) {
                cells[r * 5 + c] = 1;
            }
        }
    }
    let x = Tensor::from_slice(&cells).view([5, 5]);
    let filled = binary_fill_holes(&x, None, None, &PerAxis::Same(0), None).unwrap();
    assert_eq!(ints(&filled.sum(Kind::Int64)), [9]);
}

#[test]
fn grey_erosion_with_a_structure_wraps_like_c() {
    // scipy.ndimage.grey_erosion(np.arange(9, dtype=np.uint8).reshape(3, 3), structure=np.full((3, 3), 5.))
    let x = Tensor::arange(9, (Kind::Uint8, Device::Cpu)).view([3, 3]);
    let s = Structure { shape: vec![3, 3], values: vec![5.0; 9] };
    let g = Grey {
        size: None,
        footprint: None,
        structure: Some(&s),
        mode: PerAxis::Same(Mode::Reflect),
        cval: 0.0,
        origin: PerAxis::Same(0),
        axes: None,
    };
    assert_eq!(ints(&grey_erosion(&x, &g, None).unwrap()), [251, 251, 252, 251, 251, 252, 254, 254, 255]);
}

#[test]
fn distance_transforms() {
    // scipy.ndimage.distance_transform_edt([[0, 1, 1], [1, 1, 1]], return_indices=True)
    let x = Tensor::from_slice(&[0i64, 1, 1, 1, 1, 1]).view([2, 3]);
    let r = distance_transform_edt(&x, None, true, true).unwrap();
    let d = Vec::<f64>::try_from(&r.distances.unwrap().contiguous().view(-1)).unwrap();
    let expect = [0.0, 1.0, 2.0, 1.0, 2f64.sqrt(), 5f64.sqrt()];
    assert!(d.iter().zip(expect).all(|(a, b)| (a - b).abs() < 1e-15), "{d:?}");
    assert_eq!(ints(&r.indices.unwrap()), [0; 12]);
    // chessboard and taxicab
    let cdt = |connectivity| {
        let m = generate_binary_structure(2, connectivity).unwrap();
        ints(&distance_transform_cdt(&x, &m).unwrap())
    };
    assert_eq!(cdt(2), [0, 1, 2, 1, 1, 2]);
    assert_eq!(cdt(1), [0, 1, 2, 1, 2, 3]);
    let ones = Tensor::ones([2, 2], (Kind::Int64, Device::Cpu));
    assert_eq!(ints(&distance_transform_cdt(&ones, &generate_binary_structure(2, 2).unwrap()).unwrap()), [-1; 4]);
}

#[test]
fn bad_structures_and_origins() {
    let x = Tensor::zeros([4, 4], (Kind::Bool, Device::Cpu));
    let s = Footprint { shape: vec![3], mask: vec![true; 3] };
    assert!(binary_erosion(&x, &Binary { structure: Some(&s), ..defaults() }, None).is_err());
    let s = Footprint { shape: vec![2, 2], mask: vec![true; 4] };
    let far = Binary { structure: Some(&s), origin: PerAxis::Same(1), ..defaults() };
    assert!(binary_erosion(&x, &far, None).is_err());
}

#[test]
fn brute_force_distances_and_their_ties() {
    use torchbridge::ops::ndimage::morphology::{distance_transform_bf, Metric};
    let x = Tensor::from_slice(&[1i64, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1]).reshape([3, 4]);
    // SciPy 1.17.1 (distance_transform_bf(x, metric, return_indices=True))
    type Case = (Metric, Option<PerAxis<f64>>, Vec<f64>, Vec<i64>);
    let cases: [Case; 3] = [
        (
            Metric::Euclidean,
            Some(PerAxis::Each(vec![2.0, 1.0])),
            vec![3.0, 2.0, 1.0, 0.0, 2.0, 5f64.sqrt(), 5f64.sqrt(), 2.0, 0.0, 1.0, 2.0, 3.0],
            vec![0, 0, 0, 0, 2, 2, 0, 0, 2, 2, 2, 2, 3, 3, 3, 3, 0, 0, 3, 3, 0, 0, 0, 0],
        ),
        (
            Metric::Taxicab,
            None,
            vec![2.0, 2.0, 1.0, 0.0, 1.0, 2.0, 2.0, 1.0, 0.0, 1.0, 2.0, 2.0],
            vec![2, 0, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 3, 3, 3, 0, 0, 3, 3, 0, 0, 0, 3],
        ),
        (
            Metric::Chessboard,
            None,
            vec![2.0, 2.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 2.0, 2.0],
            vec![2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 2, 0, 0, 0, 3, 3, 0, 0, 3, 3, 0, 0, 0, 3],
        ),
    ];
    for (metric, sampling, distances, indices) in cases {
        let r = distance_transform_bf(&x, metric, sampling.as_ref(), true, true).unwrap();
        let d = r.distances.unwrap();
        let d = if metric == Metric::Euclidean { d } else { torchbridge::ops::numpy::cast(&d, DType::Int64).unwrap() };
        assert_eq!(Vec::<f64>::try_from(&d.to_kind(Kind::Double).view(-1)).unwrap(), distances, "{metric:?}");
        let i = r.indices.unwrap();
        assert_eq!(i.size(), [2, 3, 4]);
        assert_eq!(ints(&i), indices, "{metric:?}");
    }
    assert!(Metric::from_name("Manhattan").unwrap() == Metric::Taxicab);
    assert!(Metric::from_name("minkowski").is_err());
    assert!(distance_transform_bf(&x, Metric::Euclidean, None, false, false).is_err());
}
