// The row transforms of csrc/dfti.cpp for the shim's other kernels
// (realtransforms.cpp runs its passes and the FFT between them in one call).

#pragma once

#include <ATen/ATen.h>

#include <cstdint>

namespace tb_shim {

// `out` ([rows, length / 2 + 1], complex, contiguous): the real FFT of each
// row of `x` ([rows, length], float32/float64, contiguous) times `scale`,
// through a kept MKL plan (libtorch's own FFT where it has no MKL DFTI).
void rfft_rows(const at::Tensor& x, at::Tensor& out, int64_t length, double scale);

// `out` ([rows, length], real, contiguous): the unnormalized inverse real
// FFT of each row of `x` ([rows, length / 2 + 1], complex) times `scale`.
void irfft_rows(const at::Tensor& x, at::Tensor& out, int64_t length, double scale);

}  // namespace tb_shim
