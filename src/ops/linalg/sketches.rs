//! `scipy.linalg._sketches`: the Clarkson-Woodruff transform (CountSketch).

use tch::Tensor;

use super::invalid;
use super::shapes::*;
use crate::ops::dtype;
use crate::ops::numpy;
use crate::{DType, Result};

/// `scipy.linalg.clarkson_woodruff_transform` given SciPy's random draws:
/// `S @ input_matrix` for the `(sketch_size, n)` matrix `S` whose column `j`
/// holds `signs[j]` (+1 or -1) in row `rows[j]` and zeros elsewhere
/// (`input_matrix`: `(..., n, d)`, leading dimensions a batch). Each row of
/// the input is added, signed, to its sketch row (`index_add`, so the
/// result differentiates in the input). The dtype is NumPy's for an int64
/// sparse matrix times the input (`result_type(int64, dtype)`), as SciPy's.
pub fn clarkson_woodruff_transform(
    input_matrix: &Tensor,
    sketch_size: i64,
    rows: &[i64],
    signs: &[i64],
) -> Result<Tensor> {
    let (n, d) = matrix_dims("clarkson_woodruff_transform", input_matrix)?;
    if rows.len() as i64 != n || signs.len() as i64 != n {
        return Err(invalid(format!(
            "clarkson_woodruff_transform: {} rows and {} signs drawn for an input with {n} rows",
            rows.len(),
            signs.len()
        )));
    }
    if sketch_size < 0 {
        return Err(invalid("negative dimensions are not allowed"));
    }
    if let Some(&bad) = rows.iter().find(|&&r| r < 0 || r >= sketch_size) {
        return Err(invalid(format!("row index {bad} out of range for a sketch of {sketch_size} rows")));
    }
    let target = numpy::result_type(&[DType::Int64, dtype(input_matrix)?]);
    let a = numpy::cast(input_matrix, target)?;
    let device = a.device();
    let batch = batch_of(&a, 2);
    let shape = concat(&batch, &[sketch_size, d]);
    check_alloc(&shape, target.itemsize(), "the sketch")?;
    let out = zeros_as(&a, &shape)?;
    if n == 0 {
        return Ok(out);
    }
    let index = Tensor::f_from_slice(rows)?.f_to(device)?;
    let sign = Tensor::f_from_slice(signs)?.f_to(device)?.f_to_kind(a.kind())?.f_unsqueeze(-1)?;
    Ok(out.f_index_add(-2, &index, &a.f_mul(&sign)?)?)
}
