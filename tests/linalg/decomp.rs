//! SciPy's `_decomp.py` (`ops::linalg::decomp`): eigh (subsets, generalized)
//! and eig (complex eigenvectors, left, homogeneous).

use torchbridge::ops::linalg::{self as la, EigOptions, EighOptions, Subset};
use torchbridge::{dlpack::dtype_of, DType};

use crate::common::{assert_all_close, mat, values};

#[test]
fn eigenproblems() {
    let a = mat(&[&[2.0, 1.0], &[1.0, 2.0]]);
    let la::Eigh { w, v } = la::eigh(&a, None, &EighOptions::default()).unwrap();
    assert_all_close(&w, &[1.0, 3.0], 1e-15, "eigh");
    assert_eq!(v.unwrap().size(), vec![2, 2]);
    let only = |subset| EighOptions { eigvals_only: true, subset, ..Default::default() };
    let w = la::eigh(&a, None, &only(Subset::Value(2.0, 5.0))).unwrap().w;
    assert_all_close(&w, &[3.0], 1e-15, "subset by value (2, 5]");
    let w = la::eigh(&a, None, &only(Subset::Index(0, 0))).unwrap().w;
    assert_all_close(&w, &[1.0], 1e-15, "subset by index");
    // generalized: a v = w b v with b = 2 I has eigenvalues w / 2, v^T b v = I
    let b = mat(&[&[2.0, 0.0], &[0.0, 2.0]]);
    let la::Eigh { w, v } = la::eigh(&a, Some(&b), &EighOptions::default()).unwrap();
    assert_all_close(&w, &[0.5, 1.5], 1e-15, "generalized");
    let v = v.unwrap();
    let gram = v.transpose(0, 1).matmul(&b).matmul(&v);
    assert_all_close(&gram, &[1.0, 0.0, 0.0, 1.0], 1e-14, "B-orthonormal");
    // rotation by 90 degrees: eigenvalues +-i, complex eigenvectors
    let rotation = mat(&[&[0.0, -1.0], &[1.0, 0.0]]);
    let result = la::eig(&rotation, &EigOptions::default()).unwrap();
    let imag = values(&result.w.imag());
    assert!((imag[0].abs() - 1.0).abs() < 1e-15 && (imag[0] + imag[1]).abs() < 1e-15);
    assert!(dtype_of(result.vr.as_ref().unwrap()).unwrap().is_complex());
    // symmetric: real eigenvectors, as SciPy returns them
    let result = la::eig(&a, &EigOptions { left: true, homogeneous_eigvals: true, ..Default::default() }).unwrap();
    assert_eq!(dtype_of(result.vr.as_ref().unwrap()).unwrap(), DType::Float64);
    assert_eq!(result.w.size(), vec![2, 2], "homogeneous coordinates");
}
