//! Savitzky-Golay (`ops::signal::savitzky_golay`): values quoted from SciPy
//! 1.17.1, polynomials kept exactly, every mode, errors.

use tch::{Device, Kind, Tensor};
use torchbridge::ops::signal::savitzky_golay::{savgol_coeffs, savgol_filter, SavgolMode, Use};

fn values(t: &Tensor) -> Vec<f64> {
    Vec::<f64>::try_from(&t.to_kind(Kind::Double).contiguous().view(-1)).unwrap()
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol * w.abs().max(1.0), "{got:?} vs {want:?}");
    }
}

#[test]
fn coefficients_known_values() {
    // scipy.signal.savgol_coeffs(5, 2) = [-3, 12, 17, 12, -3] / 35
    let c = savgol_coeffs(5, 2, 0, 1.0, None, Use::Conv).unwrap();
    assert_close(&values(&c), &[-3.0 / 35.0, 12.0 / 35.0, 17.0 / 35.0, 12.0 / 35.0, -3.0 / 35.0], 1e-14);
    // savgol_coeffs(5, 2, deriv=1): [2, 1, 0, -1, -2] / 10 (reversed for a convolution)
    let c = savgol_coeffs(5, 2, 1, 1.0, None, Use::Conv).unwrap();
    assert_close(&values(&c), &[0.2, 0.1, 0.0, -0.1, -0.2], 1e-14);
    let c = savgol_coeffs(5, 2, 1, 1.0, None, Use::Dot).unwrap();
    assert_close(&values(&c), &[-0.2, -0.1, 0.0, 0.1, 0.2], 1e-14);
    // savgol_coeffs(4, 2, pos=0, use="dot"): the fitted value at the first sample
    let c = savgol_coeffs(4, 2, 0, 1.0, Some(0.0), Use::Dot).unwrap();
    assert_close(&values(&c), &[0.95, 0.15, -0.15, 0.05], 1e-13);
    // deriv > polyorder: zeros
    assert_eq!(values(&savgol_coeffs(5, 2, 3, 1.0, None, Use::Conv).unwrap()), vec![0.0; 5]);
}

#[test]
fn coefficient_errors() {
    let msg = |r: torchbridge::Result<Tensor>| r.unwrap_err().to_string();
    assert!(msg(savgol_coeffs(5, 5, 0, 1.0, None, Use::Conv)).contains("polyorder must be less than window_length."));
    assert!(msg(savgol_coeffs(5, 2, 0, 1.0, Some(5.0), Use::Conv)).contains("pos must be nonnegative"));
    assert!(msg(savgol_coeffs(5, -1, 0, 1.0, None, Use::Conv)).contains("polyorder must be nonnegative"));
    assert!("dott".parse::<Use>().is_err());
    assert!("reflect".parse::<SavgolMode>().unwrap_err().to_string().contains("mode must be"));
}

#[test]
fn polynomials_are_kept_in_every_mode_inside() {
    let t = Tensor::arange(40, (Kind::Double, Device::Cpu));
    let p = (&t * &t).f_mul_scalar(0.5).unwrap() - &t * 3.0 + 2.0;
    let want = values(&p);
    for mode in [SavgolMode::Mirror, SavgolMode::Constant, SavgolMode::Nearest, SavgolMode::Wrap, SavgolMode::Interp] {
        let y = values(&savgol_filter(&p, 7, 2, 0, 1.0, -1, mode, 0.0).unwrap());
        // interior samples are exact in every mode; interp is exact at the edges too
        let range = if mode == SavgolMode::Interp { 0..40 } else { 3..37 };
        for i in range {
            assert!((y[i] - want[i]).abs() < 1e-9 * want[i].abs().max(1.0), "{mode:?} {i}");
        }
    }
}

#[test]
fn modes_known_values() {
    // scipy.signal.savgol_filter([2, 2, 5, 2, 1, 0, 1, 4, 9], 5, 2, mode=...)
    let x = Tensor::from_slice(&[2.0f64, 2.0, 5.0, 2.0, 1.0, 0.0, 1.0, 4.0, 9.0]);
    let cases: [(SavgolMode, [f64; 9]); 3] = [
        (SavgolMode::Mirror, [52.0, 106.0, 124.0, 100.0, 23.0, 6.0, 35.0, 176.0, 243.0]),
        (SavgolMode::Nearest, [61.0, 106.0, 124.0, 100.0, 23.0, 6.0, 35.0, 161.0, 279.0]),
        (SavgolMode::Interp, [58.0, 111.0, 124.0, 100.0, 23.0, 6.0, 35.0, 140.0, 315.0]),
    ];
    for (mode, want) in cases {
        // the values are multiples of 1/35
        let want: Vec<f64> = want.iter().map(|v| v / 35.0).collect();
        let y = savgol_filter(&x, 5, 2, 0, 1.0, -1, mode, 0.0).unwrap();
        assert_close(&values(&y), &want, 1e-12);
    }
}

#[test]
fn dtypes_axes_and_errors() {
    let x = Tensor::ones([3, 20], (Kind::Float, Device::Cpu));
    let y = savgol_filter(&x, 5, 2, 0, 1.0, 1, SavgolMode::Nearest, 0.0).unwrap();
    assert_eq!(y.kind(), Kind::Float);
    assert_eq!(y.size(), vec![3, 20]);
    let y = savgol_filter(&Tensor::ones([20], (Kind::Int, Device::Cpu)), 5, 2, 0, 1.0, 0, SavgolMode::Interp, 0.0);
    assert_eq!(y.unwrap().kind(), Kind::Double);
    let short = Tensor::ones([4], (Kind::Double, Device::Cpu));
    let msg = savgol_filter(&short, 5, 2, 0, 1.0, -1, SavgolMode::Interp, 0.0).unwrap_err().to_string();
    assert!(msg.contains("window_length must be less than or equal to the size of x"));
    let complex = Tensor::ones([10], (Kind::ComplexDouble, Device::Cpu));
    assert!(savgol_filter(&complex, 5, 2, 0, 1.0, -1, SavgolMode::Interp, 0.0).is_err());
    assert!(savgol_filter(&short, 3, 1, 0, 1.0, 1, SavgolMode::Mirror, 0.0).is_err());
}
