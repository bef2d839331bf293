// torchbridge's C++ shim, logit half: `scipy.special.logit` on float32 and
// float64 CPU tensors in one pass (declared in Rust in src/ffi/logit.rs, used
// by src/ops/special/logit.rs).
//
// SciPy's `_logit.h` evaluates `log1p(s) - log1p(-s)`, `s = 2 (x - 1/2)`, on
// [0.3, 0.65] (full relative accuracy near the zero at 1/2) and
// `log(x / (1 - x))` elsewhere: two or three transcendentals per element
// where a vector mixes the branches. The vectorized paths here take one
// `log` per element and no branch instead, with the quotient carried to
// twice the working precision:
//
//   1 - x = d + e exactly (Fast2Sum, |x| <= 1), x / (d + e) = hi + lo with
//   hi = x / d and lo / hi = (fma(-hi, d, x) - hi e) / x, so
//   logit(x) = log(hi) + log1p(lo / hi) = log(hi) + lo / hi  (to 2^-104).
//
// The correction `lo / hi` is at most about 2^-52 and its own rounding
// negligible (exact where the result is as small, within 2^-49 of 1/2), so
// the error is `log(hi)`'s (SLEEF's 1-ulp kernel) and the final addition's:
// at most 1.2 ulp over 2^22 random points, SciPy's own (glibc's log1p and
// log) 1.8; correctly rounded on every double within 1e-11 of 1/2. Outside
// (0, 1) the plain `log(hi)` gives SciPy's values: -inf at 0 and -0.0, inf
// at 1, nan elsewhere (the correction is nan there and is not added).
// float32 input is widened: `log(x / (1 - x))` in double (1 - x exact for
// x >= 2^-29) and rounded once, within about 0.5 ulp of float.
//
// The `log` is SLEEF's as libtorch_cpu exports it (weak symbols: absent,
// they are null): its AVX-512 variant on eight doubles at a time where the
// CPU has AVX-512F, else its AVX2 variant on four where it has AVX2 and FMA,
// else SciPy's formulas with the C library's `log` and `log1p`.

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TB_LOGIT_SIMD 1
#define TB_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define TB_TARGET_AVX512 __attribute__((target("avx512f")))
extern "C" {
// SLEEF's log as libtorch_cpu exports it (weak: null when absent).
__m256d Sleef_logd4_u10avx2(__m256d) __attribute__((weak));
__m512d Sleef_logd8_u10avx512f(__m512d) __attribute__((weak));
}
#endif

using tb_shim::describe_current_exception;

namespace {

// Elements per thread: a thread start costs about as much as this many.
constexpr int64_t kWorkPerThread = 1 << 15;

// The kernels, in order of preference (the argument `simd` caps the choice).
enum Simd : int { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

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

#ifdef TB_LOGIT_SIMD

// The best kernel this machine runs.
Simd simd_available() {
  static const Simd available = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && Sleef_logd8_u10avx512f != nullptr) {
      return kAvx512;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && Sleef_logd4_u10avx2 != nullptr) {
      return kAvx2;
    }
    return kScalar;
  }();
  return available;
}

// logit of eight doubles: log(hi) + lo / hi (see the top of the file).
TB_TARGET_AVX512 inline __m512d logit8(__m512d x) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d d = _mm512_sub_pd(one, x);
  const __m512d e = _mm512_sub_pd(_mm512_sub_pd(one, d), x);
  const __m512d hi = _mm512_div_pd(x, d);
  const __m512d lo_over_hi = _mm512_div_pd(_mm512_fnmadd_pd(hi, e, _mm512_fnmadd_pd(hi, d, x)), x);
  const __m512d log_hi = Sleef_logd8_u10avx512f(hi);
  const __mmask8 inside =
      _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GT_OQ) & _mm512_cmp_pd_mask(x, one, _CMP_LT_OQ);
  return _mm512_mask_add_pd(log_hi, inside, log_hi, lo_over_hi);
}

// logit of eight floats, widened: log(x / (1 - x)) in double.
TB_TARGET_AVX512 inline __m256 logit8(__m256 x) {
  const __m512d wide = _mm512_cvtps_pd(x);
  return _mm512_cvtpd_ps(Sleef_logd8_u10avx512f(_mm512_div_pd(wide, _mm512_sub_pd(_mm512_set1_pd(1.0), wide))));
}

// The same on four lanes (AVX2).
TB_TARGET_AVX2 inline __m256d logit4(__m256d x) {
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d d = _mm256_sub_pd(one, x);
  const __m256d e = _mm256_sub_pd(_mm256_sub_pd(one, d), x);
  const __m256d hi = _mm256_div_pd(x, d);
  const __m256d lo_over_hi = _mm256_div_pd(_mm256_fnmadd_pd(hi, e, _mm256_fnmadd_pd(hi, d, x)), x);
  const __m256d log_hi = Sleef_logd4_u10avx2(hi);
  const __m256d inside = _mm256_and_pd(_mm256_cmp_pd(x, _mm256_setzero_pd(), _CMP_GT_OQ),
                                       _mm256_cmp_pd(x, one, _CMP_LT_OQ));
  return _mm256_add_pd(log_hi, _mm256_and_pd(inside, lo_over_hi));
}

TB_TARGET_AVX2 inline __m128 logit4(__m128 x) {
  const __m256d wide = _mm256_cvtps_pd(x);
  return _mm256_cvtpd_ps(Sleef_logd4_u10avx2(_mm256_div_pd(wide, _mm256_sub_pd(_mm256_set1_pd(1.0), wide))));
}

// Loads and stores of the vectors logit8 (eight elements) and logit4 (four) take.
TB_TARGET_AVX512 inline __m512d load(const double* p) { return _mm512_loadu_pd(p); }
TB_TARGET_AVX512 inline void store(double* p, __m512d v) { _mm512_storeu_pd(p, v); }
TB_TARGET_AVX512 inline __m256 load(const float* p) { return _mm256_loadu_ps(p); }
TB_TARGET_AVX512 inline void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
TB_TARGET_AVX2 inline __m256d load4(const double* p) { return _mm256_loadu_pd(p); }
TB_TARGET_AVX2 inline void store4(double* p, __m256d v) { _mm256_storeu_pd(p, v); }
TB_TARGET_AVX2 inline __m128 load4(const float* p) { return _mm_loadu_ps(p); }
TB_TARGET_AVX2 inline void store4(float* p, __m128 v) { _mm_storeu_ps(p, v); }

// [begin, end) eight (four) at a time, the rest through a padded block: the
// same kernel, the same bits.
template <typename T>
TB_TARGET_AVX512 void logit_avx512_range(const T* x, T* y, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + 8 <= end; i += 8) {
    store(y + i, logit8(load(x + i)));
  }
  if (i < end) {
    T buffer[8] = {T(0.5), T(0.5), T(0.5), T(0.5), T(0.5), T(0.5), T(0.5), T(0.5)};
    std::copy(x + i, x + end, buffer);
    store(buffer, logit8(load(buffer)));
    std::copy(buffer, buffer + (end - i), y + i);
  }
}

template <typename T>
TB_TARGET_AVX2 void logit_avx2_range(const T* x, T* y, int64_t begin, int64_t end) {
  int64_t i = begin;
  for (; i + 4 <= end; i += 4) {
    store4(y + i, logit4(load4(x + i)));
  }
  if (i < end) {
    T buffer[4] = {T(0.5), T(0.5), T(0.5), T(0.5)};
    std::copy(x + i, x + end, buffer);
    store4(buffer, logit4(load4(buffer)));
    std::copy(buffer, buffer + (end - i), y + i);
  }
}

#endif  // TB_LOGIT_SIMD

template <typename T>
void logit_all(const T* x, T* y, int64_t n, Simd simd) {
  const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
  tb_shim::split_over_threads(n, threads, 8, [&](int64_t begin, int64_t end) {
#ifdef TB_LOGIT_SIMD
    if (simd == kAvx512) {
      logit_avx512_range(x, y, begin, end);
      return;
    }
    if (simd == kAvx2) {
      logit_avx2_range(x, y, begin, end);
      return;
    }
#endif
    (void)simd;
    logit_scalar_range(x, y, begin, end);
  });
}

}  // namespace

extern "C" {

// The best kernel `tb_logit_cpu` runs here: 2 (SLEEF's AVX-512 log), 1
// (its AVX2 log) or 0 (the C library's `log` and `log1p`).
int tb_logit_simd() noexcept {
#ifdef TB_LOGIT_SIMD
  return simd_available();
#else
  return kScalar;
#endif
}

// `logit(x)` of the contiguous float32 or float64 CPU tensor `x` into `out`
// (a fresh contiguous CPU tensor of x's shape and dtype that the caller
// owns), by the best kernel here up to `max_simd` (as tb_logit_simd
// numbers them; 0: the C library's, SciPy's formulas).
char* tb_logit_cpu(const at::Tensor* x, at::Tensor* out, int max_simd) noexcept {
  try {
    TORCH_CHECK(x->device().is_cpu() && out->device().is_cpu() && x->is_contiguous() && out->is_contiguous(),
                "logit: x and out must be contiguous CPU tensors");
    TORCH_CHECK(x->scalar_type() == out->scalar_type() &&
                    (x->scalar_type() == at::kDouble || x->scalar_type() == at::kFloat),
                "logit: x and out must be float32 or float64, of one dtype");
    TORCH_CHECK(x->sizes() == out->sizes(), "logit: x and out must have one shape");
    const Simd simd = static_cast<Simd>(std::max(0, std::min(max_simd, tb_logit_simd())));
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
