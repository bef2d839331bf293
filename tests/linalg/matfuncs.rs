//! SciPy's `_matfuncs.py` (`ops::linalg::matfuncs`): expm, cosm, sinhm,
//! expm_frechet on matrices with known exponentials.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::linalg::{self as la, CheckFinite, MatrixFunction};

use crate::common::{assert_all_close, assert_linalg_error, mat, values, vector};

#[test]
fn matrix_functions() {
    let nilpotent = mat(&[&[0.0, 1.0], &[0.0, 0.0]]);
    assert_all_close(&la::expm(&nilpotent).unwrap(), &[1.0, 1.0, 0.0, 1.0], 1e-15, "expm nilpotent");
    let diagonal = mat(&[&[1.0, 0.0], &[0.0, -700.0]]);
    assert_all_close(&la::expm(&diagonal).unwrap(), &[1f64.exp(), 0.0, 0.0, (-700f64).exp()], 1e-15, "exact diagonal");
    let t = 0.3;
    let rotation = mat(&[&[0.0, -t], &[t, 0.0]]);
    assert_all_close(&la::expm(&rotation).unwrap(), &[t.cos(), -t.sin(), t.sin(), t.cos()], 1e-15, "rotation");
    let cos = la::cosm(&rotation).unwrap();
    assert_all_close(&cos, &[t.cosh(), 0.0, 0.0, t.cosh()], 1e-15, "cosm of a rotation generator");
    let sinh = la::matrix_function(&rotation, MatrixFunction::Sinh).unwrap().x;
    assert_all_close(&la::sinhm(&rotation).unwrap(), &values(&sinh), 0.0, "sinhm");
    assert_all_close(&sinh, &[0.0, -t.sin(), t.sin(), 0.0], 1e-15, "sinhm");
    let la::ExpmFrechet { expm: e, frechet: l } =
        la::expm_frechet(&nilpotent, &Tensor::eye(2, (Kind::Double, Device::Cpu)), CheckFinite::Yes).unwrap();
    // d/ds expm(N + s I) at 0 = expm(N)
    assert_all_close(&l, &values(&e), 1e-14, "Frechet derivative along I");
    let scalar = Tensor::from(2.0f64);
    assert_eq!(la::expm(&scalar).unwrap().size(), vec![1, 1]);
    assert_linalg_error(la::expm(&vector(&[1.0, 2.0])), "expm of a vector");
}
