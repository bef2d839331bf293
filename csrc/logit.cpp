// torchbridge's C++ shim, logit half: `scipy.special.logit` on float32 and
// float64 CPU tensors in one pass (declared in Rust in src/ffi/logit.rs, used
// by src/ops/special/logit.rs).
//
// SciPy's `_logit.h` formulas, in the input's precision: on [0.3, 0.65]
// `log1p(s) - log1p(-s)` with `s = 2 (x - 1/2)` (exact there), which keeps
// full relative accuracy near the zero at 1/2; `log(x / (1 - x))` elsewhere
// (nan stays nan, nan outside [0, 1], -inf at 0 and -0.0, inf at 1).
//
// The composite this replaces (logit.rs's `logit_composite`, ten libtorch
// ops) computes both branches everywhere with libtorch's vectorized `log`
// and `log1p`, which are SLEEF's 1-ulp kernels. Where the CPU has AVX2 and
// FMA and libtorch_cpu exports SLEEF's AVX2 entry points (weak symbols:
// absent, they are null), this pass calls the same SLEEF kernels on four
// doubles (eight floats) at a time, in the same order of operations, so it
// gives the composite's values (to an ulp: libtorch may run SLEEF's AVX-512
// variants) at a tenth of its memory traffic; otherwise it runs the C
// library's `log` and `log1p` element by element.

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TB_LOGIT_AVX2 1
#define TB_TARGET_AVX2 __attribute__((target("avx2,fma")))
extern "C" {
// SLEEF's AVX2 kernels as libtorch_cpu exports them (weak: null when absent).
__m256d Sleef_logd4_u10avx2(__m256d) __attribute__((weak));
__m256d Sleef_log1pd4_u10avx2(__m256d) __attribute__((weak));
__m256 Sleef_logf8_u10avx2(__m256) __attribute__((weak));
__m256 Sleef_log1pf8_u10avx2(__m256) __attribute__((weak));
}
#endif

using tb_shim::describe_current_exception;

namespace {

// Elements per thread: a thread start costs about as much as this many.
constexpr int64_t kWorkPerThread = 1 << 15;

template <typename T>
inline T logit_scalar(T x) {
  if (x >= T(0.3) && x <= T(0.65)) {
    const T s = (x - T(0.5)) * T(2);
    return std::log1p(s) - std::log1p(-s);
  }
  return std::log(x / (T(1) - x));
}

template <typename T>
void logit_scalar_range(const T* x, T* y, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    y[i] = logit_scalar(x[i]);
  }
}

#ifdef TB_LOGIT_AVX2

bool sleef_avx2_available() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && Sleef_logd4_u10avx2 != nullptr &&
           Sleef_log1pd4_u10avx2 != nullptr && Sleef_logf8_u10avx2 != nullptr && Sleef_log1pf8_u10avx2 != nullptr;
  }();
  return available;
}

TB_TARGET_AVX2 inline __m256d logit4(__m256d x) {
  const __m256d middle = _mm256_and_pd(_mm256_cmp_pd(x, _mm256_set1_pd(0.3), _CMP_GE_OQ),
                                       _mm256_cmp_pd(x, _mm256_set1_pd(0.65), _CMP_LE_OQ));
  const int picked = _mm256_movemask_pd(middle);
  __m256d far = _mm256_setzero_pd();
  if (picked != 0xF) {
    far = Sleef_logd4_u10avx2(_mm256_div_pd(x, _mm256_sub_pd(_mm256_set1_pd(1.0), x)));
    if (picked == 0) {
      return far;
    }
  }
  // the middle branch sees 1/2 where the other is picked (as the composite)
  const __m256d half = _mm256_set1_pd(0.5);
  const __m256d s = _mm256_mul_pd(_mm256_sub_pd(_mm256_blendv_pd(half, x, middle), half), _mm256_set1_pd(2.0));
  const __m256d minus_s = _mm256_xor_pd(s, _mm256_set1_pd(-0.0));
  const __m256d near = _mm256_sub_pd(Sleef_log1pd4_u10avx2(s), Sleef_log1pd4_u10avx2(minus_s));
  return _mm256_blendv_pd(far, near, middle);
}

TB_TARGET_AVX2 inline __m256 logit8(__m256 x) {
  const __m256 middle = _mm256_and_ps(_mm256_cmp_ps(x, _mm256_set1_ps(0.3f), _CMP_GE_OQ),
                                      _mm256_cmp_ps(x, _mm256_set1_ps(0.65f), _CMP_LE_OQ));
  const int picked = _mm256_movemask_ps(middle);
  __m256 far = _mm256_setzero_ps();
  if (picked != 0xFF) {
    far = Sleef_logf8_u10avx2(_mm256_div_ps(x, _mm256_sub_ps(_mm256_set1_ps(1.0f), x)));
    if (picked == 0) {
      return far;
    }
  }
  const __m256 half = _mm256_set1_ps(0.5f);
  const __m256 s = _mm256_mul_ps(_mm256_sub_ps(_mm256_blendv_ps(half, x, middle), half), _mm256_set1_ps(2.0f));
  const __m256 minus_s = _mm256_xor_ps(s, _mm256_set1_ps(-0.0f));
  const __m256 near = _mm256_sub_ps(Sleef_log1pf8_u10avx2(s), Sleef_log1pf8_u10avx2(minus_s));
  return _mm256_blendv_ps(far, near, middle);
}

TB_TARGET_AVX2 void logit_avx2_range(const double* x, double* y, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + 4 <= end; i += 4) {
    _mm256_storeu_pd(y + i, logit4(_mm256_loadu_pd(x + i)));
  }
  if (i < end) {  // the rest through a padded block: the same kernel, the same bits
    alignas(32) double buffer[4] = {0.5, 0.5, 0.5, 0.5};
    std::copy(x + i, x + end, buffer);
    _mm256_store_pd(buffer, logit4(_mm256_load_pd(buffer)));
    std::copy(buffer, buffer + (end - i), y + i);
  }
}

TB_TARGET_AVX2 void logit_avx2_range(const float* x, float* y, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) {
    _mm256_storeu_ps(y + i, logit8(_mm256_loadu_ps(x + i)));
  }
  if (i < end) {
    alignas(32) float buffer[8] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    std::copy(x + i, x + end, buffer);
    _mm256_store_ps(buffer, logit8(_mm256_load_ps(buffer)));
    std::copy(buffer, buffer + (end - i), y + i);
  }
}

#endif  // TB_LOGIT_AVX2

template <typename T>
void logit_all(const T* x, T* y, int64_t n, bool vectorized) {
  const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
  tb_shim::split_over_threads(n, threads, 8, [&](int64_t begin, int64_t end) {
#ifdef TB_LOGIT_AVX2
    if (vectorized) {
      logit_avx2_range(x, y, begin, end);
      return;
    }
#endif
    (void)vectorized;
    logit_scalar_range(x, y, begin, end);
  });
}

}  // namespace

extern "C" {

// Whether the pass runs SLEEF's vectorized kernels here (libtorch's own)
// rather than the C library's `log` and `log1p`.
bool tb_logit_vectorized() noexcept {
#ifdef TB_LOGIT_AVX2
  return sleef_avx2_available();
#else
  return false;
#endif
}

// `logit(x)` of the contiguous float32 or float64 CPU tensor `x` into `out`
// (a fresh contiguous CPU tensor of x's shape and dtype that the caller
// owns). `vectorized`: SLEEF's kernels where available (else the C
// library's, as with `false`).
char* tb_logit_cpu(const at::Tensor* x, at::Tensor* out, bool vectorized) noexcept {
  try {
    TORCH_CHECK(x->device().is_cpu() && out->device().is_cpu() && x->is_contiguous() && out->is_contiguous(),
                "logit: x and out must be contiguous CPU tensors");
    TORCH_CHECK(x->scalar_type() == out->scalar_type() &&
                    (x->scalar_type() == at::kDouble || x->scalar_type() == at::kFloat),
                "logit: x and out must be float32 or float64, of one dtype");
    TORCH_CHECK(x->sizes() == out->sizes(), "logit: x and out must have one shape");
    const bool simd = vectorized && tb_logit_vectorized();
    if (x->scalar_type() == at::kDouble) {
      logit_all(x->const_data_ptr<double>(), out->mutable_data_ptr<double>(), x->numel(), simd);
    } else {
      logit_all(x->const_data_ptr<float>(), out->mutable_data_ptr<float>(), x->numel(), simd);
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
