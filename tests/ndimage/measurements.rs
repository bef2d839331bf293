//! `label` and `find_objects` (`ops::ndimage::measurements`): numbering in
//! raster order, connectivity by the structure, and the boxes.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::ndimage::measurements::{find_objects, label};

fn values(t: &Tensor) -> Vec<i64> {
    Vec::<i64>::try_from(&t.to_kind(Kind::Int64).contiguous().view(-1)).unwrap()
}

#[test]
fn components_are_numbered_by_their_first_pixel() {
    let a = Tensor::from_slice(&[0i64, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 0]).view([3, 4]);
    let (labels, n) = label(&a, None).unwrap();
    assert_eq!(n, 3);
    assert_eq!(values(&labels), [0, 1, 1, 0, 2, 0, 0, 3, 2, 0, 0, 0]);
    // Full connectivity joins the diagonal neighbours: one component.
    let full = Tensor::ones([3, 3], (Kind::Bool, Device::Cpu));
    let (labels, n) = label(&a, Some(&full)).unwrap();
    assert_eq!(n, 1);
    assert_eq!(values(&labels), [0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 0]);
}

#[test]
fn a_winding_component_is_one_label() {
    let (h, w) = (61i64, 40i64);
    let mut cells = vec![0i64; (h * w) as usize];
    for r in 0..h {
        for c in 0..w {
            let turn = (r % 4 == 1 && c == w - 1) || (r % 4 == 3 && c == 0);
            cells[(r * w + c) as usize] = i64::from(r % 2 == 0 || turn);
        }
    }
    let (labels, n) = label(&Tensor::from_slice(&cells).view([h, w]), None).unwrap();
    assert_eq!(n, 1);
    assert_eq!(values(&labels), cells);
}

#[test]
fn boxes_and_bad_structures() {
    let labels = Tensor::from_slice(&[0i64, 2, 2, 0, 0, 2]).view([2, 3]);
    let (present, starts, stops) = find_objects(&labels, 0).unwrap();
    assert_eq!(present, [false, true]);
    assert_eq!((starts[1].clone(), stops[1].clone()), (vec![0, 1], vec![2, 3]));
    let asymmetric = Tensor::from_slice(&[0i64, 0, 1, 0, 1, 0, 0, 0, 0]).view([3, 3]);
    assert!(label(&labels, Some(&asymmetric)).is_err());
    assert!(find_objects(&labels.to_kind(Kind::Double), 0).is_err());
}
