//! The cosine and sine transforms (SciPy's `_realtransforms.py`;
//! `ops::fft::realtransforms`): known values, orthonormality, inverses,
//! complex input, float32.

use tch::{Kind, Tensor};
use torchbridge::ops::fft::{self, DctOptions, DctnOptions, FftnOptions, Norm};

use crate::common::{assert_close, random, ty, vec_f64, x4, CPU};

#[test]
fn dct_and_dst_of_a_ramp_have_scipys_values() {
    let x = x4();
    let known: [(i64, [f64; 4], [f64; 4]); 4] = [
        (1, [15.0, -4.0, 0.0, -1.0], [15.388417685876266, -6.881909602355868, 3.6327126400268037, -1.624598481164532]),
        (
            2,
            [20.0, -6.308644059797899, 0.0, -0.4483415291679651],
            [13.065629648763766, -5.65685424949238, 5.41196100146197, -4.0],
        ),
        (
            3,
            [11.999626276085149, -9.102943217749218, 2.617661843510649, -1.51434490184658],
            [13.137071184544089, -1.6199144044217753, 0.723231346085845, -0.5197830649482906],
        ),
        (
            4,
            [10.181592984263283, -9.446695610035626, 5.010298174943416, -4.689564857456725],
            [15.447561493151783, -0.4469333786714663, 1.0031506944070392, 0.4083909335848668],
        ),
    ];
    for (type_, dct, dst) in known {
        assert_close(
            &vec_f64(
                &fft::dct(
                    &x,
                    &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Backward, orthogonalize: None },
                )
                .unwrap(),
            ),
            &dct,
            1e-14,
        );
        assert_close(
            &vec_f64(
                &fft::dst(
                    &x,
                    &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Backward, orthogonalize: None },
                )
                .unwrap(),
            ),
            &dst,
            1e-14,
        );
    }
    let ortho =
        fft::dct(&x, &DctOptions { type_: ty(2), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None }).unwrap();
    assert_close(&vec_f64(&ortho), &[5.000000000000001, -2.2304424973876635, 0.0, -0.15851266778110706], 1e-14);
    let forward = fft::dst(
        &Tensor::from_slice(&[1.0f64, 2.0, 3.0]),
        &DctOptions { type_: ty(3), n: None, axis: 0, norm: Norm::Forward, orthogonalize: None },
    )
    .unwrap();
    assert_close(&vec_f64(&forward), &[1.2440169358562922, -0.16666666666666663, 0.08931639747704097], 1e-14);
}

#[test]
fn orthonormal_transforms_have_orthonormal_matrices() {
    for n in [2i64, 3, 5, 8, 13] {
        let eye = Tensor::eye(n, (Kind::Double, CPU));
        for type_ in 1..=4 {
            for cosine in [true, false] {
                if cosine && type_ == 1 && n < 2 {
                    continue;
                }
                let matrix = if cosine {
                    fft::dct(
                        &eye,
                        &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None },
                    )
                } else {
                    fft::dst(
                        &eye,
                        &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None },
                    )
                }
                .unwrap();
                let gram = matrix.matmul(&matrix.transpose(0, 1));
                assert_close(&vec_f64(&gram), &vec_f64(&eye), 1e-14);
            }
        }
    }
}

#[test]
fn inverses_undo_the_transforms_in_every_norm() {
    let x = random(&[4, 7, 6]);
    for type_ in 1..=4 {
        for norm in [Norm::Backward, Norm::Ortho, Norm::Forward] {
            for orthogonalize in [None, Some(true), Some(false)] {
                let y = fft::dct(&x, &DctOptions { type_: ty(type_), n: None, axis: 1, norm, orthogonalize }).unwrap();
                let back =
                    fft::idct(&y, &DctOptions { type_: ty(type_), n: None, axis: 1, norm, orthogonalize }).unwrap();
                assert_close(&vec_f64(&back), &vec_f64(&x), 1e-13);
                let y = fft::dstn(
                    &x,
                    &DctnOptions { type_: ty(type_), s: None, axes: Some(vec![0, -1]), norm, orthogonalize },
                )
                .unwrap();
                let back = fft::idstn(
                    &y,
                    &DctnOptions { type_: ty(type_), s: None, axes: Some(vec![0, -1]), norm, orthogonalize },
                )
                .unwrap();
                assert_close(&vec_f64(&back), &vec_f64(&x), 1e-13);
            }
        }
    }
    let y = fft::fftn(&x, &FftnOptions { s: Some(vec![5, -1]), axes: Some(vec![2, 0]), norm: Norm::Ortho }).unwrap();
    assert_eq!(y.size(), vec![4, 7, 5]);
    let back = fft::ifftn(&y, &FftnOptions { s: Some(vec![6, 4]), axes: Some(vec![2, 0]), norm: Norm::Ortho }).unwrap();
    assert_eq!(back.size(), vec![4, 7, 6]);
}

#[test]
fn complex_input_to_dct_transforms_the_parts() {
    let re = random(&[2, 9]);
    let im = re.flip([1]).multiply_scalar(3.0);
    let z = Tensor::complex(&re, &im);
    let got =
        fft::dct(&z, &DctOptions { type_: ty(3), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: Some(false) })
            .unwrap();
    // the parts keep the default orthogonalize (true for ortho), as SciPy
    let want_re =
        fft::dct(&re, &DctOptions { type_: ty(3), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None }).unwrap();
    let want_im =
        fft::dct(&im, &DctOptions { type_: ty(3), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None }).unwrap();
    assert_close(&vec_f64(&got.real()), &vec_f64(&want_re), 1e-15);
    assert_close(&vec_f64(&got.imag()), &vec_f64(&want_im), 1e-15);
}

#[test]
fn float32_composites_stay_accurate() {
    let x = random(&[3, 50]);
    let single = x.to_kind(Kind::Float);
    for type_ in 1..=4 {
        let want =
            fft::dst(&x, &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None })
                .unwrap();
        let got = fft::dst(
            &single,
            &DctOptions { type_: ty(type_), n: None, axis: -1, norm: Norm::Ortho, orthogonalize: None },
        )
        .unwrap();
        assert_eq!(got.kind(), Kind::Float);
        assert_close(&vec_f64(&got), &vec_f64(&want), 2e-6);
    }
}
