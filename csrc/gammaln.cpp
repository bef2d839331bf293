// torchbridge's C++ shim, gammaln half: `scipy.special.gammaln` on float64
// CPU tensors in one pass (declared in Rust in src/ffi/gammaln.rs, used by
// src/ops/special/gamma.rs).
//
// SciPy's own algorithm, Cephes' `lgam` as SciPy's xsf library has it (the
// reflection below -34, the recurrence to [2, 3) and a rational function
// there below 13, Stirling's series above), so the values are SciPy's; one
// loop instead of libtorch's `lgamma` and the two ops that set -inf at -inf.
// Beside the zeros at 1 and 2 and below 1e-300 the C library's `lgamma`
// (libtorch's, more accurate there: see near_libm).
// Built without fused multiply-adds (build.rs), as SciPy's loop rounds.
//
// Where the CPU has AVX-512F the arithmetic runs on eight lanes at a time,
// in lgam's operations and order (gammaln_block), on vectors compacted per
// regime (from 13 Stirling's series, below it the recurrence) so that no
// lane computes the other regime's formula. About half of the scalar loop's
// time is the C library's `log`, the other half the arithmetic about it
// (its divisions, the recurrence's dependent steps), which the vectors cut
// to a third. The `log` stays the C library's, one call per element as in
// SciPy's loop: another (SLEEF's) differs from it in the last bit now and
// then, and these are SciPy's bits. The elements of the cases the vectors
// leave out (below -34, non-finite, above kMaxLgm, the poles, near_libm's)
// take the scalar code.

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <math.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TB_GAMMALN_AVX512 1
#define TB_TARGET_AVX512 __attribute__((target("avx512f,popcnt")))
#endif

using tb_shim::describe_current_exception;

namespace {

constexpr int64_t kWorkPerThread = 1 << 13;

// Stirling's series of log Gamma (A), and log Gamma on [2, 3) as x B(x) / C(x).
constexpr double kA[] = {8.11614167470508450300E-4, -5.95061904284301438324E-4, 7.93650340457716943945E-4,
                         -2.77777777730099687205E-3, 8.33333333333331927722E-2};
constexpr double kB[] = {-1.37825152569120859100E3, -3.88016315134637840924E4, -3.31612992738871184744E5,
                         -1.16237097492762307383E6, -1.72173700820839662146E6, -8.53555664245765465627E5};
// (the leading coefficient 1 implied)
constexpr double kC[] = {-3.51815701436523470549E2, -1.70642106651881159223E4, -2.20528590553854454839E5,
                         -1.13933444367982507207E6, -2.53252307177582951285E6, -2.01889141433532773231E6};
constexpr double kLogSqrt2Pi = 0.91893853320467274178;
constexpr double kLogPi = 1.14472988584940017414;
constexpr double kMaxLgm = 2.556348e305;

inline double polevl(double x, const double* coef, int n) {
  double ans = coef[0];
  for (int i = 1; i <= n; ++i) {
    ans = ans * x + coef[i];
  }
  return ans;
}

inline double p1evl(double x, const double* coef, int n) {
  double ans = x + coef[0];
  for (int i = 1; i < n; ++i) {
    ans = ans * x + coef[i];
  }
  return ans;
}

// log |Gamma(x)|: Cephes' lgam (SciPy's gammaln), +inf at the poles.
double lgam(double x) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!std::isfinite(x)) {
    return x;  // nan, and +-inf as SciPy returns them
  }
  if (x < -34.0) {
    const double q = -x;
    const double w = lgam(q);
    double p = std::floor(q);
    if (p == q) {
      return inf;
    }
    double z = q - p;
    if (z > 0.5) {
      p += 1.0;
      z = p - q;
    }
    z = q * std::sin(M_PI * z);
    if (z == 0.0) {
      return inf;
    }
    return kLogPi - std::log(z) - w;
  }
  if (x < 13.0) {
    double z = 1.0;
    double p = 0.0;
    double u = x;
    while (u >= 3.0) {
      p -= 1.0;
      u = x + p;
      z *= u;
    }
    while (u < 2.0) {
      if (u == 0.0) {
        return inf;
      }
      z /= u;
      p += 1.0;
      u = x + p;
    }
    if (z < 0.0) {
      z = -z;
    }
    if (u == 2.0) {
      return std::log(z);
    }
    p -= 2.0;
    x = x + p;
    p = x * polevl(x, kB, 5) / p1evl(x, kC, 6);
    return std::log(z) + p;
  }
  if (x > kMaxLgm) {
    return inf;
  }
  double q = (x - 0.5) * std::log(x) - x + kLogSqrt2Pi;
  if (x > 1.0e8) {
    return q;
  }
  const double p = 1.0 / (x * x);
  if (x >= 1000.0) {
    q += ((7.9365079365079365079365e-4 * p - 2.7777777777777777777778e-3) * p + 0.0833333333333333333333) / x;
  } else {
    q += polevl(p, kA, 4) / x;
  }
  return q;
}

// Where SciPy's Cephes loses accuracy and torchbridge keeps libtorch's value
// (the C library's lgamma, as the composite path computes it): beside the
// zeros at 1 and 2, where the recurrence's rounding of 1/x or x + 1 is the
// whole result (Cephes: 2.2e-16 at 1 - 1.1e-16, the true value 6.4e-17), and
// below 1e-300, where 1/x overflows (Cephes: inf at 5e-324, the true value
// 744.4). tests/python/special/test_ufuncs.py's EDGE_EXCEPTIONS name them.
inline bool near_libm(double x) {
  const double ax = std::abs(x);
  return (ax < 1e-300 && x != 0.0) || std::abs(x - 1.0) < 0.125 || std::abs(x - 2.0) < 0.125;
}

inline double libm_lgamma(double x) {
  int sign = 0;
  return ::lgamma_r(x, &sign);  // the reentrant form: no write to the global signgam
}

inline double gammaln_scalar(double x) { return near_libm(x) ? libm_lgamma(x) : lgam(x); }

void gammaln_scalar_range(const double* x, double* y, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    y[i] = gammaln_scalar(x[i]);
  }
}

#ifdef TB_GAMMALN_AVX512

bool avx512_available() {
  static const bool available = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt");
  }();
  return available;
}

// Elements compacted per regime at a time (on the stack: a few kB).
constexpr int64_t kBlock = 256;

// polevl and p1evl on eight lanes, in their order of operations.
TB_TARGET_AVX512 inline __m512d polevl8(__m512d x, const double* coef, int n) {
  __m512d ans = _mm512_set1_pd(coef[0]);
  for (int i = 1; i <= n; ++i) {
    ans = _mm512_add_pd(_mm512_mul_pd(ans, x), _mm512_set1_pd(coef[i]));
  }
  return ans;
}

TB_TARGET_AVX512 inline __m512d p1evl8(__m512d x, const double* coef, int n) {
  __m512d ans = _mm512_add_pd(x, _mm512_set1_pd(coef[0]));
  for (int i = 1; i < n; ++i) {
    ans = _mm512_add_pd(_mm512_mul_pd(ans, x), _mm512_set1_pd(coef[i]));
  }
  return ans;
}

// The lanes for the scalar code: nan and below -34 (the reflection), above
// kMaxLgm (+inf included), near_libm's, and the poles (the integers <= 0).
TB_TARGET_AVX512 inline __mmask8 scalar_lanes(__m512d x) {
  const __m512d eighth = _mm512_set1_pd(0.125);
  __mmask8 s = _mm512_cmp_pd_mask(x, _mm512_set1_pd(-34.0), _CMP_NGE_UQ);
  s |= _mm512_cmp_pd_mask(x, _mm512_set1_pd(kMaxLgm), _CMP_GT_OQ);
  s |= _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_sub_pd(x, _mm512_set1_pd(1.0))), eighth, _CMP_LT_OQ);
  s |= _mm512_cmp_pd_mask(_mm512_abs_pd(_mm512_sub_pd(x, _mm512_set1_pd(2.0))), eighth, _CMP_LT_OQ);
  s |= _mm512_cmp_pd_mask(_mm512_abs_pd(x), _mm512_set1_pd(1e-300), _CMP_LT_OQ);
  const __m512d floor = _mm512_roundscale_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  s |= _mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_LE_OQ) & _mm512_cmp_pd_mask(floor, x, _CMP_EQ_OQ);
  return s;
}

// lgam below 13 (no scalar lane) up to its log: the recurrence to u in
// [2, 3) with its product z, and the rational function at u - 2. Returns
// |z| and sets `rational` and `u_is_2` (where lgam returns log(z) alone).
TB_TARGET_AVX512 inline __m512d lgam_small_head(__m512d x, __m512d* rational, __mmask8* u_is_2) {
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d two = _mm512_set1_pd(2.0);
  __m512d z = one;
  __m512d p = _mm512_setzero_pd();
  __m512d u = x;
  // `while (u >= 3) { p -= 1; u = x + p; z *= u; }`: step j runs where
  // x - (j - 1) >= 3, i.e. x >= j + 2 (x - (j - 1) is exact), a mask that
  // needs no u; at most 10 steps below 13
  for (int j = 1; j <= 10; ++j) {
    const __mmask8 m = _mm512_cmp_pd_mask(x, _mm512_set1_pd(j + 2.0), _CMP_GE_OQ);
    if (m == 0) {
      break;
    }
    p = _mm512_mask_sub_pd(p, m, p, one);
    u = _mm512_mask_add_pd(u, m, x, p);
    z = _mm512_mask_mul_pd(z, m, z, u);
  }
  // `while (u < 2) { z /= u; p += 1; u = x + p; }` (no pole here: u != 0)
  for (__mmask8 m = _mm512_cmp_pd_mask(u, two, _CMP_LT_OQ); m != 0; m = _mm512_cmp_pd_mask(u, two, _CMP_LT_OQ)) {
    z = _mm512_mask_div_pd(z, m, z, u);
    p = _mm512_mask_add_pd(p, m, p, one);
    u = _mm512_mask_add_pd(u, m, x, p);
  }
  *u_is_2 = _mm512_cmp_pd_mask(u, two, _CMP_EQ_OQ);
  const __m512d w = _mm512_add_pd(x, _mm512_sub_pd(p, two));
  *rational = _mm512_div_pd(_mm512_mul_pd(w, polevl8(w, kB, 5)), p1evl8(w, kC, 6));
  return _mm512_abs_pd(z);
}

// lgam from 13 to kMaxLgm given log(x): Stirling's series.
TB_TARGET_AVX512 inline __m512d lgam_large(__m512d x, __m512d log_x) {
  const __m512d q = _mm512_add_pd(_mm512_sub_pd(_mm512_mul_pd(_mm512_sub_pd(x, _mm512_set1_pd(0.5)), log_x), x),
                                  _mm512_set1_pd(kLogSqrt2Pi));
  const __m512d p = _mm512_div_pd(_mm512_set1_pd(1.0), _mm512_mul_pd(x, x));
  const __m512d short_series =
      _mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(_mm512_mul_pd(_mm512_set1_pd(7.9365079365079365079365e-4), p),
                                                _mm512_set1_pd(2.7777777777777777777778e-3)),
                                  p),
                    _mm512_set1_pd(0.0833333333333333333333));
  const __mmask8 above_1000 = _mm512_cmp_pd_mask(x, _mm512_set1_pd(1000.0), _CMP_GE_OQ);
  const __m512d series = _mm512_mask_blend_pd(above_1000, polevl8(p, kA, 4), short_series);
  const __mmask8 corrected = _mm512_cmp_pd_mask(x, _mm512_set1_pd(1.0e8), _CMP_LE_OQ);
  return _mm512_mask_add_pd(q, corrected, q, _mm512_div_pd(series, x));
}

// gammaln of x[0, n), n <= kBlock: the lanes of each regime compacted into
// whole vectors (large: x >= 13, small: below), each vector's logs by the C
// library, the results expanded back in place; the scalar lanes by the
// scalar code. (The log calls beside each vector's arithmetic rather than
// all in one loop: 7% faster, the two overlap.)
TB_TARGET_AVX512 void gammaln_block(const double* x, double* y, int64_t n) {
  alignas(64) double large[kBlock + 8];
  alignas(64) double small[kBlock + 8];
  __mmask8 large_lanes[kBlock / 8];
  __mmask8 small_lanes[kBlock / 8];
  __mmask8 scalar_lanes_of[kBlock / 8];
  const int64_t groups = (n + 7) / 8;
  int64_t n_large = 0;
  int64_t n_small = 0;
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t rest = n - g * 8;
    const __mmask8 lanes = rest >= 8 ? 0xFF : static_cast<__mmask8>((1u << rest) - 1);
    const __m512d v = _mm512_maskz_loadu_pd(lanes, x + g * 8);
    const __mmask8 scalar = scalar_lanes(v) & lanes;
    const __mmask8 small_m = _mm512_cmp_pd_mask(v, _mm512_set1_pd(13.0), _CMP_LT_OQ) & lanes & ~scalar;
    const __mmask8 large_m = lanes & ~scalar & ~small_m;
    _mm512_storeu_pd(large + n_large, _mm512_maskz_compress_pd(large_m, v));
    _mm512_storeu_pd(small + n_small, _mm512_maskz_compress_pd(small_m, v));
    n_large += __builtin_popcount(large_m);
    n_small += __builtin_popcount(small_m);
    large_lanes[g] = large_m;
    small_lanes[g] = small_m;
    scalar_lanes_of[g] = scalar;
  }
  // the last vector of each regime padded with a value of that regime
  _mm512_storeu_pd(large + n_large, _mm512_set1_pd(20.0));
  _mm512_storeu_pd(small + n_small, _mm512_set1_pd(5.5));
  alignas(64) double logs[8];
  for (int64_t k = 0; k < n_small; k += 8) {
    __m512d rational;
    __mmask8 u_is_2;
    _mm512_store_pd(logs, lgam_small_head(_mm512_load_pd(small + k), &rational, &u_is_2));
    for (double& z : logs) {
      z = std::log(z);
    }
    const __m512d log_z = _mm512_load_pd(logs);
    _mm512_store_pd(small + k, _mm512_mask_add_pd(log_z, static_cast<__mmask8>(~u_is_2), log_z, rational));
  }
  for (int64_t k = 0; k < n_large; k += 8) {
    for (int j = 0; j < 8; ++j) {
      logs[j] = std::log(large[k + j]);
    }
    _mm512_store_pd(large + k, lgam_large(_mm512_load_pd(large + k), _mm512_load_pd(logs)));
  }
  n_large = 0;
  n_small = 0;
  for (int64_t g = 0; g < groups; ++g) {
    const __m512d from_large = _mm512_maskz_expand_pd(large_lanes[g], _mm512_loadu_pd(large + n_large));
    const __m512d merged = _mm512_mask_expand_pd(from_large, small_lanes[g], _mm512_loadu_pd(small + n_small));
    _mm512_mask_storeu_pd(y + g * 8, large_lanes[g] | small_lanes[g], merged);
    n_large += __builtin_popcount(large_lanes[g]);
    n_small += __builtin_popcount(small_lanes[g]);
    for (unsigned s = scalar_lanes_of[g]; s != 0; s &= s - 1) {
      const int64_t i = g * 8 + __builtin_ctz(s);
      y[i] = gammaln_scalar(x[i]);
    }
  }
}

void gammaln_avx512_range(const double* x, double* y, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; i += kBlock) {
    gammaln_block(x + i, y + i, std::min(kBlock, end - i));
  }
}

#endif  // TB_GAMMALN_AVX512

}  // namespace

extern "C" {

// Whether `tb_gammaln_cpu` runs the AVX-512 kernel here.
bool tb_gammaln_vectorized() noexcept {
#ifdef TB_GAMMALN_AVX512
  return avx512_available();
#else
  return false;
#endif
}

// `out = gammaln(x)` for the contiguous float64 CPU `x` and `out` (a fresh
// tensor of x's shape the caller owns). `vectorized`: the AVX-512 kernel
// where available (the same bits; else the scalar loop, as with `false`).
char* tb_gammaln_cpu(const at::Tensor* x, at::Tensor* out, bool vectorized) noexcept {
  try {
    for (const at::Tensor* t : {x, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "gammaln: x and out must be contiguous float64 CPU tensors");
    }
    TORCH_CHECK(x->sizes() == out->sizes(), "gammaln: x and out must have one shape");
    const double* px = x->const_data_ptr<double>();
    double* po = out->mutable_data_ptr<double>();
    const int64_t n = x->numel();
    const bool simd = vectorized && tb_gammaln_vectorized();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 8, [&](int64_t begin, int64_t end) {
#ifdef TB_GAMMALN_AVX512
      if (simd) {
        gammaln_avx512_range(px, po, begin, end);
        return;
      }
#endif
      gammaln_scalar_range(px, po, begin, end);
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
