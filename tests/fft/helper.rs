//! The helpers (SciPy's `_helper.py`; `ops::fft::helper`): frequencies,
//! shifts, fast lengths.

use tch::{Kind, Tensor};
use torchbridge::ops::fft::{self, LengthFor};

use crate::common::{assert_close, vec_f64, CPU};

#[test]
fn frequencies_and_shifts() {
    let f = fft::fftfreq(5, 0.5, (Kind::Double, CPU)).unwrap();
    assert_eq!(vec_f64(&f), vec![0.0, 0.4, 0.8, -0.8, -0.4]);
    let r = fft::rfftfreq(6, 2.0, (Kind::Float, CPU)).unwrap();
    assert_eq!(r.kind(), Kind::Float);
    assert_close(&vec_f64(&r), &[0.0, 1.0 / 12.0, 2.0 / 12.0, 3.0 / 12.0], 1e-7);
    assert_eq!(fft::rfftfreq(-3, 1.0, (Kind::Double, CPU)).unwrap().size(), vec![0]);
    assert!(fft::fftfreq(-3, 1.0, (Kind::Double, CPU)).is_err());
    assert!(fft::fftfreq(0, 1.0, (Kind::Double, CPU)).is_err());

    let x = Tensor::arange(5, (Kind::Int64, CPU));
    let shifted = fft::fftshift(&x, None).unwrap();
    assert_eq!(Vec::<i64>::try_from(&shifted).unwrap(), vec![3, 4, 0, 1, 2]);
    let back = fft::ifftshift(&shifted, Some(&[0])).unwrap();
    assert_eq!(Vec::<i64>::try_from(&back).unwrap(), vec![0, 1, 2, 3, 4]);
    let twice = fft::fftshift(&x, Some(&[0, -1])).unwrap(); // a repeated axis rolls twice
    assert_eq!(Vec::<i64>::try_from(&twice).unwrap(), vec![1, 2, 3, 4, 0]);
    let grid = Tensor::arange(6, (Kind::Int64, CPU)).view([2, 3]);
    let rows = fft::fftshift(&grid, Some(&[1])).unwrap().contiguous().view(-1);
    assert_eq!(Vec::<i64>::try_from(&rows).unwrap(), vec![2, 0, 1, 5, 3, 4]);
}

#[test]
fn fast_lengths_match_pocketfft() {
    let next: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::next_fast_len(t, LengthFor::Complex).unwrap()).collect();
    assert_eq!(next, vec![14, 98, 1024, 1_000_188_000]);
    let next: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::next_fast_len(t, LengthFor::Real).unwrap()).collect();
    assert_eq!(next, vec![15, 100, 1024, 1_006_632_960]);
    let prev: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::prev_fast_len(t, LengthFor::Complex).unwrap()).collect();
    assert_eq!(prev, vec![12, 96, 1008, 1_000_000_000]);
    let prev: Vec<u64> =
        [13, 97, 1021, 1_000_000_007].iter().map(|&t| fft::prev_fast_len(t, LengthFor::Real).unwrap()).collect();
    assert_eq!(prev, vec![12, 96, 1000, 1_000_000_000]);
    for small in 0..=12 {
        assert_eq!(fft::next_fast_len(small, LengthFor::Complex).unwrap(), small as u64);
        assert_eq!(fft::prev_fast_len(small, LengthFor::Complex).unwrap(), small as u64);
    }
    // definitions: 11-smooth (complex) and 5-smooth (real), brute force
    let smooth = |mut v: u64, primes: &[u64]| {
        for &p in primes {
            while v % p == 0 {
                v /= p;
            }
        }
        v == 1
    };
    for t in 13..3000i64 {
        let want = (t as u64..).find(|&v| smooth(v, &[2, 3, 5, 7, 11])).unwrap();
        assert_eq!(fft::next_fast_len(t, LengthFor::Complex).unwrap(), want);
        let want = (1..=t as u64).rev().find(|&v| smooth(v, &[2, 3, 5])).unwrap();
        assert_eq!(fft::prev_fast_len(t, LengthFor::Real).unwrap(), want);
    }
    assert_eq!(fft::next_fast_len(1_676_976_733_973_595_602, LengthFor::Real).unwrap(), 1_677_721_600_000_000_000);
    assert!(fft::next_fast_len(1_676_976_733_973_595_603, LengthFor::Complex)
        .unwrap_err()
        .to_string()
        .contains("too large"));
    assert!(fft::prev_fast_len(-1, LengthFor::Complex).unwrap_err().to_string().contains("must be positive"));
}
