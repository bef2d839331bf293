// torchbridge's C++ shim, ndtr half: the last pass of `scipy.special.ndtr`
// on float64 CPU tensors (declared in Rust in src/ffi/ndtr.rs, used by
// src/ops/special/erf.rs).
//
// libtorch computes the bulk, `erfc(-x / sqrt 2)`, with its vectorized
// kernel; this pass halves it and, on the elements below `below` only (the
// lower tail), adds the first-order correction for the rounding of
// `x / sqrt 2`: with `t + d = x / sqrt 2` exactly (Dekker's product, the
// constant's own rounding `c_err` included), `erfc(-t - d) / 2 =
// erfc(-t) / 2 + d exp(-t^2) / sqrt(pi)`. These are the composite's formulas
// (erf.rs's `ndtr_composite`) in the same order of operations, so both give
// the same bits; one pass over memory instead of a gather, eight libtorch
// ops on the tail and a scatter.

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>
#include <ATen/native/Math.h>

#include <cmath>
#include <cstdint>

using tb_shim::describe_current_exception;

namespace {

constexpr double kFrac1Sqrt2 = 0.70710678118654752440;
constexpr int64_t kWorkPerThread = 1 << 14;

// Dekker and Veltkamp's error-free product `x * c = hi + lo` (|x| < 1e290),
// exactly as src/ops/special/helpers.rs's `two_product`.
inline void two_product(double x, double c, double* hi, double* lo) {
  constexpr double kSplit = 134217729.0;  // 2^27 + 1
  const double ct = c * kSplit;
  const double c_hi = ct - (ct - c);
  const double c_lo = c - c_hi;
  *hi = x * c;
  const double t = x * kSplit;
  const double x_hi = t - (t - x);
  const double x_lo = x - x_hi;
  *lo = x_hi * c_hi - *hi + x_hi * c_lo + x_lo * c_hi + x_lo * c_lo;
}

}  // namespace

extern "C" {

// In place on `out` (a contiguous float64 CPU tensor the caller owns, holding
// `erfc(-x / sqrt 2)` for the contiguous float64 CPU `x` of the same shape):
// `out / 2`, corrected where `x < below` (see above).
char* tb_ndtr_finish_cpu(const at::Tensor* x, at::Tensor* out, double below, double c_err) noexcept {
  try {
    for (const at::Tensor* t : {x, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "ndtr: x and out must be contiguous float64 CPU tensors");
    }
    TORCH_CHECK(x->sizes() == out->sizes(), "ndtr: x and out must have one shape");
    const double* px = x->const_data_ptr<double>();
    double* po = out->mutable_data_ptr<double>();
    const int64_t n = x->numel();
    const double rsqrt_pi = 1.0 / std::sqrt(M_PI);
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const double v = po[i] * 0.5;
        const double xi = px[i];
        if (!(xi < below)) {
          po[i] = v;
          continue;
        }
        double t;
        double d;
        two_product(xi, kFrac1Sqrt2, &t, &d);
        d = d + xi * c_err;
        if (!(std::abs(xi) < 1e290)) {
          d = 0.0;
        }
        const double step = d * std::exp(-(t * t)) * rsqrt_pi;
        po[i] = v + step;
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `scipy.special.log_ndtr` of the contiguous float64 CPU `x` into `out` (a
// fresh contiguous float64 CPU tensor of x's shape the caller owns), in one
// pass: erf.rs's composite formulas in the same order, each element taking
// only its own branch. Below -1: `log(erfcx(-x / sqrt 2) / 2) - x (x / 2)`;
// above: `log1p(-ndtr(-x))` with ndtr's tail correction where `-x < -1`.
char* tb_log_ndtr_cpu(const at::Tensor* x, at::Tensor* out, double c_err) noexcept {
  try {
    for (const at::Tensor* t : {x, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "log_ndtr: x and out must be contiguous float64 CPU tensors");
    }
    TORCH_CHECK(x->sizes() == out->sizes(), "log_ndtr: x and out must have one shape");
    const double* px = x->const_data_ptr<double>();
    double* po = out->mutable_data_ptr<double>();
    const int64_t n = x->numel();
    const double rsqrt_pi = 1.0 / std::sqrt(M_PI);
    const double tiny = std::ldexp(1.0, -54);
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread / 4);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const double xi = px[i];
        if (xi < -1.0) {
          const double t = xi * kFrac1Sqrt2;
          po[i] = std::log(calc_erfcx(-t) * 0.5) - xi * (xi * 0.5);
          continue;
        }
        // ndtr(y), y = -x, as tb_ndtr_finish_cpu completes it
        const double y = -xi;
        double v = std::erfc(y * -kFrac1Sqrt2) * 0.5;
        if (y < -1.0) {
          double t;
          double d;
          two_product(y, kFrac1Sqrt2, &t, &d);
          d = d + y * c_err;
          if (!(std::abs(y) < 1e290)) {
            d = 0.0;
          }
          v = v + d * std::exp(-(t * t)) * rsqrt_pi;
        }
        const double w = -v;
        po[i] = std::abs(w) < tiny ? w : std::log1p(w);
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
