// The row transforms of csrc/dfti.cpp for the shim's other kernels
// (realtransforms.cpp runs its passes and the FFT between them in one call,
// the FFT in place on its scratch).

#pragma once

#include <ATen/ATen.h>

#include <cstdint>

namespace tb_shim {

// In place on `data`: `rows` rows of 2 * (length / 2 + 1) reals of `real`
// (float32 or float64), each holding `length` real points on the way in
// (the last two, or one for odd `length`, unread) and their `length / 2 + 1`
// complex FFT values (interleaved real and imaginary parts) on the way out.
void rfft_rows_in_place(void* data, at::ScalarType real, int64_t rows, int64_t length);

// The inverse of rfft_rows_in_place (unnormalized), in place on the same
// layout: `length / 2 + 1` complex values in, `length` reals out (as NumPy's,
// the imaginary parts of the zero-frequency term and, for even `length`, of
// the Nyquist term are not read).
void irfft_rows_in_place(void* data, at::ScalarType real, int64_t rows, int64_t length);

// In place on `data`: `rows` rows of `length` complex values (interleaved
// real and imaginary parts of `real`'s precision), their FFT (`forward`:
// exponent -1, else +1), unnormalized.
void fft_rows_in_place(void* data, at::ScalarType real, int64_t rows, int64_t length, bool forward);

}  // namespace tb_shim
