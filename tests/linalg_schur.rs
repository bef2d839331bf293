//! `torchbridge::ops::linalg`'s Schur family from Rust: the decompositions'
//! defining properties, the matrix functions' identities, the Levinson
//! solver's singular-minor error (SciPy's values are checked in pytest).

use tch::{Kind, Tensor};
use torchbridge::ops::linalg::{self, CheckFinite, SchurOptions, SchurOutput, SchurSort};
use torchbridge::Error;

fn max_abs(t: &Tensor) -> f64 {
    t.abs().max().to_kind(Kind::Double).double_value(&[])
}

fn sample(n: i64, seed: i64) -> Tensor {
    tch::manual_seed(seed);
    Tensor::randn([n, n], (Kind::Double, tch::Device::Cpu))
}

#[test]
fn schur_reconstructs_and_is_quasi_triangular() {
    for (n, seed) in [(1, 1), (2, 2), (5, 3), (17, 4)] {
        let a = sample(n, seed);
        for output in [SchurOutput::Real, SchurOutput::Complex] {
            let options = SchurOptions { output, ..Default::default() };
            let s = linalg::schur(&a, &options).unwrap();
            let zh = s.z.mt().conj();
            let back = s.z.matmul(&s.t).matmul(&zh);
            assert!(max_abs(&(back - a.to_kind(s.t.kind()))) < 1e-12, "{n} {output:?}");
            let eye = Tensor::eye(n, (s.z.kind(), tch::Device::Cpu));
            assert!(max_abs(&(zh.matmul(&s.z) - eye)) < 1e-12);
            let below = if output == SchurOutput::Real { -2 } else { -1 };
            assert_eq!(max_abs(&s.t.tril(below)), 0.0);
        }
    }
}

#[test]
fn schur_sorts_the_complex_form() {
    let a = sample(8, 5);
    let options = SchurOptions { output: SchurOutput::Complex, sort: Some(SchurSort::Lhp), ..Default::default() };
    let s = linalg::schur(&a, &options).unwrap();
    let sdim = s.sdim.unwrap()[0];
    let diag = s.t.diagonal(0, -2, -1).real();
    let re = Vec::<f64>::try_from(&diag).unwrap();
    assert!(re[..sdim as usize].iter().all(|&x| x < 0.0));
    assert!(re[sdim as usize..].iter().all(|&x| x >= 0.0));
}

#[test]
fn matrix_functions_invert_each_other() {
    let a = sample(6, 6) + Tensor::eye(6, (Kind::Double, tch::Device::Cpu)) * 6.0;
    let root = linalg::sqrtm(&a).unwrap().x;
    assert!(max_abs(&(root.matmul(&root) - &a)) < 1e-11);
    let log = linalg::logm(&a).unwrap().f;
    assert!(max_abs(&(log.linalg_matrix_exp() - &a)) < 1e-10);
    let third = linalg::fractional_matrix_power(&a, 1.0 / 3.0).unwrap();
    let cube = third.matmul(&third).matmul(&third).real();
    assert!(max_abs(&(cube - &a)) < 1e-10);
    let q = sample(6, 7);
    let x = linalg::solve_sylvester(&a, &a, &q).unwrap().x;
    assert!(max_abs(&(a.matmul(&x) + x.matmul(&a) - q)) < 1e-11);
}

#[test]
fn levinson_refuses_a_singular_principal_minor() {
    let c = Tensor::from_slice(&[1.0f64, 1.0, 1.0]);
    let b = Tensor::from_slice(&[1.0f64, 2.0, 3.0]);
    match linalg::solve_toeplitz(&c, &c, &b, CheckFinite::Yes) {
        Err(Error::LinAlg(message)) => assert_eq!(message, "Singular principal minor"),
        other => panic!("{:?}", other.map(|t| t.size())),
    }
}
