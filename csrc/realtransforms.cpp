// torchbridge's C++ shim, real-transforms half: the DCT/DST of types 2 and 3
// (`scipy.fft.dct`, `dst`, `idct`, `idst`) of float32 and float64 CPU
// tensors in one call each: a pass, the FFT (dfti.h: a kept MKL plan), a
// pass (declared in Rust in src/ffi/realtransforms.rs, used by
// src/ops/fft/realtransforms.rs).
//
// realtransforms.rs's `dct2_fused` and `dct3_fused` run Makhoul's algorithm
// as one N-point real FFT between a gather (with signs) and a twiddle plus
// a gather. These passes do each side in one sweep over memory instead of
// four or five libtorch ops, with the same arithmetic (the complex product
// as `(a c - b d) + (a d + b c) i`, the signs exact negations): the
// composite's values to an ulp (libtorch's vectorized complex product may
// round its terms differently):
//
// - DCT-II before the FFT: `v[j] = x[perm((N - j) % N)]` (Makhoul's
//   permutation, read circularly reversed), DST-II negating its odd half;
// - after it: `z = Z w` (Z the real FFT of v, w the twiddle with every
//   scaling in it), `y[k] = Re z[k]` and `y[N-k] = Im z[k]`, DST-II writing
//   `y` reversed;
// - DCT-III before the inverse FFT: `u[k] = (x[k] + i x[N-k]) w[k]`
//   (x[N] = 0), DST-III reading `x` reversed;
// - after it: `y[2j] = s[(N - j) % N]`, `y[2j+1] = s[j+1]` (s the inverse
//   real FFT of u), DST-III negating the odd outputs.
//
// Every tensor is 2-D, `[rows, length]`; `x` may have any strides, the
// others are contiguous, and the outputs are fresh tensors the caller owns.

#include "dfti.h"
#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdint>

using tb_shim::describe_current_exception;

namespace {

// Elements per thread: these passes move memory and little else.
constexpr int64_t kWorkPerThread = 1 << 16;

// Runs `run(row, begin, end)` over the rows' segments of `[0, rows * len)`,
// on threads when it is large.
template <typename Run>
void over_rows(int64_t rows, int64_t len, const Run& run) {
  const int64_t units = rows * len;
  const int64_t threads = tb_shim::threads_for(units, units, kWorkPerThread);
  tb_shim::split_over_threads(units, threads, 1, [&](int64_t begin, int64_t end) {
    int64_t row = begin / len;
    int64_t at = begin % len;
    while (begin < end) {
      const int64_t stop = std::min(len, at + (end - begin));
      run(row, at, stop);
      begin += stop - at;
      ++row;
      at = 0;
    }
  });
}

void check_real(const at::Tensor& t, at::ScalarType dtype, bool contiguous, const char* what) {
  TORCH_CHECK(t.device().is_cpu() && t.dim() == 2 && t.scalar_type() == dtype && (!contiguous || t.is_contiguous()),
              what, ": expected a 2-D CPU tensor of the transform's dtype", contiguous ? ", contiguous" : "");
}

void check_complex(const at::Tensor& t, at::ScalarType real, int64_t dim, const char* what) {
  const at::ScalarType complex = real == at::kDouble ? at::kComplexDouble : at::kComplexFloat;
  TORCH_CHECK(t.device().is_cpu() && t.dim() == dim && t.scalar_type() == complex && t.is_contiguous(), what,
              ": expected a contiguous CPU complex tensor of the transform's precision");
}

at::ScalarType real_dtype(const at::Tensor& x) {
  const at::ScalarType dtype = x.scalar_type();
  TORCH_CHECK(x.device().is_cpu() && (dtype == at::kDouble || dtype == at::kFloat),
              "real transforms: x must be a float32 or float64 CPU tensor");
  return dtype;
}

template <typename T>
void dct2_pre(const at::Tensor& x, at::Tensor& v, bool sine) {
  const int64_t rows = x.size(0);
  const int64_t n = x.size(1);
  const int64_t s0 = x.stride(0);
  const int64_t s1 = x.stride(1);
  const T* px = x.const_data_ptr<T>();
  T* pv = v.mutable_data_ptr<T>();
  const int64_t mid = n / 2;
  over_rows(rows, n, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = px + row * s0;
    T* out = pv + row * n;
    // j = 0: x[0]; 1 <= j <= N/2: x[2j - 1] (the odd half); above: x[2(N - j)].
    // Three loops without a branch inside: the gather costs no more than
    // its memory traffic.
    if (begin == 0) {
      out[0] = in[0];
    }
    const int64_t odd_end = std::min(end, mid + 1);
    for (int64_t j = std::max<int64_t>(begin, 1); j < odd_end; ++j) {
      const T value = in[(2 * j - 1) * s1];
      out[j] = sine ? -value : value;
    }
    for (int64_t j = std::max(begin, mid + 1); j < end; ++j) {
      out[j] = in[2 * (n - j) * s1];
    }
  });
}

template <typename T>
void dct2_post(const at::Tensor& z, const at::Tensor& w, at::Tensor& y, bool sine) {
  const int64_t rows = y.size(0);
  const int64_t n = y.size(1);
  const int64_t half = z.size(1);
  const T* pz = reinterpret_cast<const T*>(z.const_data_ptr());
  const T* pw = reinterpret_cast<const T*>(w.const_data_ptr());
  T* py = y.mutable_data_ptr<T>();
  over_rows(rows, half, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = pz + 2 * row * half;
    T* out = py + row * n;
    for (int64_t k = begin; k < end; ++k) {
      const T a = in[2 * k];
      const T b = in[2 * k + 1];
      const T c = pw[2 * k];
      const T d = pw[2 * k + 1];
      const T re = a * c - b * d;
      const T im = a * d + b * c;
      // y[k] = Re z[k] (k < half), y[N - k] = Im z[k] (1 <= k, N - k >= half); DST-II reversed
      if (sine) {
        out[n - 1 - k] = re;
        if (k >= 1 && n - k >= half) {
          out[k - 1] = im;
        }
      } else {
        out[k] = re;
        if (k >= 1 && n - k >= half) {
          out[n - k] = im;
        }
      }
    }
  });
}

template <typename T>
void dct3_pre(const at::Tensor& x, const at::Tensor& w, at::Tensor& u, bool sine) {
  const int64_t rows = x.size(0);
  const int64_t n = x.size(1);
  const int64_t half = u.size(1);
  const int64_t s0 = x.stride(0);
  const int64_t s1 = x.stride(1);
  const T* px = x.const_data_ptr<T>();
  const T* pw = reinterpret_cast<const T*>(w.const_data_ptr());
  T* pu = reinterpret_cast<T*>(u.mutable_data_ptr());
  over_rows(rows, half, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = px + row * s0;
    T* out = pu + 2 * row * half;
    // x'[k] = x[k] (DST-III: x[N-1-k]) for k < N, x'[N] = 0
    const auto at = [&](int64_t k) -> T {
      if (k == n) {
        return T(0);
      }
      return in[(sine ? n - 1 - k : k) * s1];
    };
    for (int64_t k = begin; k < end; ++k) {
      const T a = at(k);
      const T b = at(n - k);
      const T c = pw[2 * k];
      const T d = pw[2 * k + 1];
      out[2 * k] = a * c - b * d;
      out[2 * k + 1] = a * d + b * c;
    }
  });
}

template <typename T>
void dct3_post(const at::Tensor& s, at::Tensor& y, bool sine) {
  const int64_t rows = y.size(0);
  const int64_t n = y.size(1);
  const T* ps = s.const_data_ptr<T>();
  T* py = y.mutable_data_ptr<T>();
  over_rows(rows, n, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = ps + row * n;
    T* out = py + row * n;
    // y[2j] = s[(N - j) % N], y[2j + 1] = s[j + 1]: one loop per parity,
    // without a branch inside.
    if (begin == 0 && end > 0) {
      out[0] = in[0];
    }
    for (int64_t m = std::max<int64_t>(begin + begin % 2, 2); m < end; m += 2) {
      out[m] = in[n - m / 2];
    }
    for (int64_t m = begin + 1 - begin % 2; m < end; m += 2) {
      const T value = in[m / 2 + 1];
      out[m] = sine ? -value : value;
    }
  });
}

}  // namespace

extern "C" {

// `y` (contiguous `[rows, N]`, x's dtype): DCT-II (DST-II with `sine`) of
// each row of `x` (`[rows, N]`, any strides), `w` the twiddle (`[N/2 + 1]`):
// the permutation, the N-point real FFT (dfti.h) and the twiddle pass.
char* tb_dct2_cpu(const at::Tensor* x, const at::Tensor* w, at::Tensor* y, bool sine) noexcept {
  try {
    const at::ScalarType dtype = real_dtype(*x);
    check_real(*x, dtype, false, "dct2 (x)");
    check_real(*y, dtype, true, "dct2 (y)");
    check_complex(*w, dtype, 1, "dct2 (w)");
    const int64_t rows = x->size(0);
    const int64_t n = x->size(1);
    const int64_t half = n / 2 + 1;
    TORCH_CHECK(n >= 1 && y->sizes() == x->sizes() && w->size(0) == half,
                "dct2: y must be x's [rows, N] and w [N/2 + 1], N >= 1");
    at::Tensor v = at::empty({rows, n}, y->options());
    at::Tensor z = at::empty({rows, half}, w->options());
    if (dtype == at::kDouble) {
      dct2_pre<double>(*x, v, sine);
      tb_shim::rfft_rows(v, z, n, 1.0);
      dct2_post<double>(z, *w, *y, sine);
    } else {
      dct2_pre<float>(*x, v, sine);
      tb_shim::rfft_rows(v, z, n, 1.0);
      dct2_post<float>(z, *w, *y, sine);
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `y` (contiguous `[rows, N]`, x's dtype): DCT-III (DST-III with `sine`) of
// each row of `x` (`[rows, N]`, any strides), `w` the twiddle (`[N/2 + 1]`):
// the twiddled half-spectrum, the N-point inverse real FFT (dfti.h) and the
// output order.
char* tb_dct3_cpu(const at::Tensor* x, const at::Tensor* w, at::Tensor* y, bool sine) noexcept {
  try {
    const at::ScalarType dtype = real_dtype(*x);
    check_real(*x, dtype, false, "dct3 (x)");
    check_real(*y, dtype, true, "dct3 (y)");
    check_complex(*w, dtype, 1, "dct3 (w)");
    const int64_t rows = x->size(0);
    const int64_t n = x->size(1);
    const int64_t half = n / 2 + 1;
    TORCH_CHECK(n >= 1 && y->sizes() == x->sizes() && w->size(0) == half,
                "dct3: y must be x's [rows, N] and w [N/2 + 1], N >= 1");
    at::Tensor u = at::empty({rows, half}, w->options());
    at::Tensor s = at::empty({rows, n}, y->options());
    if (dtype == at::kDouble) {
      dct3_pre<double>(*x, *w, u, sine);
      tb_shim::irfft_rows(u, s, n, 1.0);
      dct3_post<double>(s, *y, sine);
    } else {
      dct3_pre<float>(*x, *w, u, sine);
      tb_shim::irfft_rows(u, s, n, 1.0);
      dct3_post<float>(s, *y, sine);
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
