//! A binary that depends on torchbridge: erf through libtorch on an ndarray,
//! tch code through the re-exported crate, and whether CUDA is visible.

use torchbridge::ndarray::{array, Array1};
use torchbridge::tch::Kind;

fn main() -> Result<(), torchbridge::Error> {
    let x: Array1<f64> = array![-1.0, 0.0, 0.5, 2.0];
    let t = torchbridge::from_ndarray(x)?; // zero-copy
    let erf: torchbridge::ndarray::ArrayD<f64> = torchbridge::to_ndarray(&torchbridge::ops::special::erf(&t)?)?;
    let sum = t.f_sum(Kind::Double)?.f_double_value(&[])?; // tch, re-exported
    println!("erf: {}", erf.iter().map(|v| format!("{v:.6}")).collect::<Vec<_>>().join(" "));
    println!("sum: {sum}");
    println!("cuda_available: {}", torchbridge::cuda_available());
    println!("cuda_device_count: {}", torchbridge::cuda_device_count());
    println!("libtorch: {}", torchbridge::LIBTORCH_LIB);
    Ok(())
}
