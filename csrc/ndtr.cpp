// torchbridge's C++ shim, ndtr half: `scipy.special.ndtr` and `log_ndtr`
// on float64 CPU tensors, each in one pass (declared in Rust in
// src/ffi/ndtr.rs, used by src/ops/special/erf.rs).
//
// ndtr is `erfc(-x / sqrt 2) / 2` and, on the elements below `below` only
// (the lower tail), the first-order correction for the rounding of
// `x / sqrt 2`: with `t + d = x / sqrt 2` exactly (Dekker's product, the
// constant's own rounding `c_err` included), `erfc(-t - d) / 2 =
// erfc(-t) / 2 + d exp(-t^2) / sqrt(pi)`. These are the composite's formulas
// (erf.rs's `ndtr_composite`) in the same order of operations. The bulk is
// MKL's vector `erfc` (`vmdErfc`, in blocks of 256 in L1; 3.5 ns an element
// here, half of SLEEF's AVX-512 one) where libtorch_cpu exports it, else
// SLEEF's `erfc` as libtorch_cpu exports it: its AVX-512 variant on eight
// doubles at a time where the CPU has AVX-512F (half the time of the AVX2
// one), else its AVX2 variant on four where the CPU has AVX2 and FMA, else
// the C library's `erfc` (all weak symbols: absent, they are null). The tail
// correction runs on eight lanes where the CPU has AVX-512F. libtorch's own
// `erfc` may be another kernel than the one taken here, so the
// composite is within 2 ulp of this, not its bits. One pass on threads of
// the shim's own: the two-pass form (libtorch's `erfc`, then a pass of these
// threads) started them while libgomp's workers still spun after the first
// pass, which cost it twice its time on 2 cores.

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>
#include <ATen/native/Math.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define TB_NDTR_SIMD 1
extern "C" {
// SLEEF's erfc as libtorch_cpu exports it (weak: null when absent).
__m256d Sleef_erfcd4_u15avx2(__m256d) __attribute__((weak));
__m512d Sleef_erfcd8_u15avx512f(__m512d) __attribute__((weak));
__m512d Sleef_expd8_u10avx512f(__m512d) __attribute__((weak));
}
#endif

extern "C" {
// MKL's vector erfc and its per-thread thread count (the C interface: the
// lowercase name is Fortran's, which takes a pointer) as libtorch_cpu exports
// them (weak: null when absent, as in a libtorch built without MKL).
void vmdErfc_64(int64_t n, const double* a, double* r, int64_t mode) __attribute__((weak));
int MKL_Set_Num_Threads_Local(int threads) __attribute__((weak));
}

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

// `v = erfc(-x / sqrt 2) / 2` corrected for the rounding of `x / sqrt 2`
// (for x below the caller's threshold).
inline double tail_corrected(double v, double x, double c_err) {
  double t;
  double d;
  two_product(x, kFrac1Sqrt2, &t, &d);
  d = d + x * c_err;
  if (!(std::abs(x) < 1e290)) {
    d = 0.0;
  }
  const double rsqrt_pi = 1.0 / std::sqrt(M_PI);
  return v + d * std::exp(-(t * t)) * rsqrt_pi;
}

void ndtr_scalar_range(const double* x, double* y, int64_t begin, int64_t end, double below, double c_err) {
  for (int64_t i = begin; i < end; ++i) {
    const double v = std::erfc(x[i] * -kFrac1Sqrt2) * 0.5;
    y[i] = x[i] < below ? tail_corrected(v, x[i], c_err) : v;
  }
}

// MKL's accuracy and floating-point mode for its erfc, as libtorch's own
// calls (ATen/cpu/vml.h): VML_HA | VML_FTZDAZ_OFF | VML_ERRMODE_IGNORE.
constexpr int64_t kVmlMode = 0x2 | 0x00140000 | 0x100;

// Elements per call of MKL's erfc: its two buffers stay in L1.
constexpr int64_t kVmlBlock = 256;

bool vml_erfc_available() { return vmdErfc_64 != nullptr; }

#ifdef TB_NDTR_SIMD

// Which SLEEF erfc this machine runs: 8 (AVX-512F), 4 (AVX2 and FMA) or 0.
int sleef_erfc_lanes() {
  static const int lanes = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && Sleef_erfcd8_u15avx512f != nullptr && Sleef_expd8_u10avx512f != nullptr) {
      return 8;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && Sleef_erfcd4_u15avx2 != nullptr) {
      return 4;
    }
    return 0;
  }();
  return lanes;
}

// The tail's correction on the lanes of `y` whose x is below `below`.
inline void correct_lanes(unsigned tail, const double* x, double* y, int lanes, double c_err) {
  for (int lane = 0; lane < lanes; ++lane) {
    if (tail & (1u << lane)) {
      y[lane] = tail_corrected(y[lane], x[lane], c_err);
    }
  }
}

__attribute__((target("avx2,fma"))) inline void ndtr4(const double* x, double* y, double below, double c_err) {
  const __m256d xv = _mm256_loadu_pd(x);
  const __m256d e = Sleef_erfcd4_u15avx2(_mm256_mul_pd(xv, _mm256_set1_pd(-kFrac1Sqrt2)));
  _mm256_storeu_pd(y, _mm256_mul_pd(e, _mm256_set1_pd(0.5)));
  correct_lanes(_mm256_movemask_pd(_mm256_cmp_pd(xv, _mm256_set1_pd(below), _CMP_LT_OQ)), x, y, 4, c_err);
}

// `v`, erfc(-x / sqrt 2) / 2 on eight lanes, with the tail's correction on
// all eight lanes at once where any x is below `below` (tail_corrected's
// operations in its order, SLEEF's exp for the C library's: the step is
// 1e-16 of the value, so its exp's last bits do not reach the sum).
__attribute__((target("avx512f"))) inline __m512d corrected8(__m512d xv, __m512d v, double below, double c_err) {
  const __mmask8 tail = _mm512_cmp_pd_mask(xv, _mm512_set1_pd(below), _CMP_LT_OQ);
  if (tail == 0) {
    return v;
  }
  // Dekker's product x * c = hi + lo, as two_product
  constexpr double kSplit = 134217729.0;
  const double ct = kFrac1Sqrt2 * kSplit;
  const double c_hi = ct - (ct - kFrac1Sqrt2);
  const double c_lo = kFrac1Sqrt2 - c_hi;
  const __m512d hi = _mm512_mul_pd(xv, _mm512_set1_pd(kFrac1Sqrt2));
  const __m512d split = _mm512_mul_pd(xv, _mm512_set1_pd(kSplit));
  const __m512d x_hi = _mm512_sub_pd(split, _mm512_sub_pd(split, xv));
  const __m512d x_lo = _mm512_sub_pd(xv, x_hi);
  __m512d lo = _mm512_sub_pd(_mm512_mul_pd(x_hi, _mm512_set1_pd(c_hi)), hi);
  lo = _mm512_add_pd(lo, _mm512_mul_pd(x_hi, _mm512_set1_pd(c_lo)));
  lo = _mm512_add_pd(lo, _mm512_mul_pd(x_lo, _mm512_set1_pd(c_hi)));
  lo = _mm512_add_pd(lo, _mm512_mul_pd(x_lo, _mm512_set1_pd(c_lo)));
  __m512d d = _mm512_add_pd(lo, _mm512_mul_pd(xv, _mm512_set1_pd(c_err)));
  // d = 0 unless |x| < 1e290 (nan and the infinities included)
  const __m512d magnitude = _mm512_castsi512_pd(
      _mm512_and_si512(_mm512_castpd_si512(xv), _mm512_set1_epi64(0x7FFFFFFFFFFFFFFFLL)));
  d = _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(magnitude, _mm512_set1_pd(1e290), _CMP_LT_OQ), d);
  const __m512d gauss = Sleef_expd8_u10avx512f(_mm512_sub_pd(_mm512_setzero_pd(), _mm512_mul_pd(hi, hi)));
  const __m512d step = _mm512_mul_pd(_mm512_mul_pd(d, gauss), _mm512_set1_pd(1.0 / std::sqrt(M_PI)));
  return _mm512_mask_add_pd(v, tail, v, step);
}

// Eight elements with SLEEF's erfc.
__attribute__((target("avx512f"))) inline void ndtr8(const double* x, double* y, double below, double c_err) {
  const __m512d xv = _mm512_loadu_pd(x);
  const __m512d e = Sleef_erfcd8_u15avx512f(_mm512_mul_pd(xv, _mm512_set1_pd(-kFrac1Sqrt2)));
  _mm512_storeu_pd(y, corrected8(xv, _mm512_mul_pd(e, _mm512_set1_pd(0.5)), below, c_err));
}

// y = e / 2 on `n` elements (e = erfc(-x / sqrt 2)), corrected on the tail:
// eight lanes at a time (the rest through a padded block) where `avx512`.
__attribute__((target("avx512f"))) void finish_avx512(const double* x, const double* e, double* y, int64_t n,
                                                     double below, double c_err) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512d v = _mm512_mul_pd(_mm512_loadu_pd(e + i), _mm512_set1_pd(0.5));
    _mm512_storeu_pd(y + i, corrected8(_mm512_loadu_pd(x + i), v, below, c_err));
  }
  if (i < n) {
    const __mmask8 rest = static_cast<__mmask8>((1u << (n - i)) - 1);
    const __m512d v = _mm512_mul_pd(_mm512_maskz_loadu_pd(rest, e + i), _mm512_set1_pd(0.5));
    _mm512_mask_storeu_pd(y + i, rest, corrected8(_mm512_maskz_loadu_pd(rest, x + i), v, below, c_err));
  }
}

// [begin, end) by `kernel` on `Lanes` elements at a time, the rest through a
// padded block: the same kernel, the same bits.
template <int Lanes, typename Kernel>
void ndtr_simd_range(const Kernel& kernel, const double* x, double* y, int64_t begin, int64_t end, double below,
                     double c_err) {
  int64_t i = begin;
  for (; i + Lanes <= end; i += Lanes) {
    kernel(x + i, y + i, below, c_err);
  }
  if (i < end) {
    double in[Lanes] = {};
    double out[Lanes];
    std::copy(x + i, x + end, in);
    kernel(in, out, below, c_err);
    std::copy(out, out + (end - i), y + i);
  }
}

#endif  // TB_NDTR_SIMD

// [begin, end) with MKL's erfc, in blocks; `avx512`: the finishing pass
// eight lanes at a time. MKL is held to the calling thread (one of the
// shim's own), where it could otherwise start an OpenMP team inside it.
void ndtr_vml_range(const double* x, double* y, int64_t begin, int64_t end, double below, double c_err,
                    bool avx512) {
  const int previous = MKL_Set_Num_Threads_Local != nullptr ? MKL_Set_Num_Threads_Local(1) : 0;
  alignas(64) double z[kVmlBlock];
  alignas(64) double e[kVmlBlock];
  for (int64_t b = begin; b < end; b += kVmlBlock) {
    const int64_t n = std::min(kVmlBlock, end - b);
    for (int64_t i = 0; i < n; ++i) {
      z[i] = x[b + i] * -kFrac1Sqrt2;
    }
    vmdErfc_64(n, z, e, kVmlMode);
#ifdef TB_NDTR_SIMD
    if (avx512) {
      finish_avx512(x + b, e, y + b, n, below, c_err);
      continue;
    }
#endif
    (void)avx512;
    for (int64_t i = 0; i < n; ++i) {
      const double v = e[i] * 0.5;
      y[b + i] = x[b + i] < below ? tail_corrected(v, x[b + i], c_err) : v;
    }
  }
  if (MKL_Set_Num_Threads_Local != nullptr) {
    MKL_Set_Num_Threads_Local(previous);
  }
}

}  // namespace

extern "C" {

// The erfc `tb_ndtr_cpu` runs, by `erfc`: 2 MKL's vector erfc where
// libtorch_cpu exports it, else 1 SLEEF's where the CPU and libtorch_cpu have
// it, else 0 the C library's. The kernel `erfc` selects on this machine.
int tb_ndtr_erfc_kernel(int erfc) noexcept {
  if (erfc >= 2 && vml_erfc_available()) {
    return 2;
  }
#ifdef TB_NDTR_SIMD
  if (erfc >= 1 && sleef_erfc_lanes() != 0) {
    return 1;
  }
#endif
  return 0;
}

// `ndtr(x)` of the contiguous float64 CPU `x` into `out` (a fresh contiguous
// float64 CPU tensor of x's shape the caller owns), corrected where
// `x < below` (see above), with the erfc `tb_ndtr_erfc_kernel(erfc)` names.
char* tb_ndtr_cpu(const at::Tensor* x, at::Tensor* out, double below, double c_err, int erfc) noexcept {
  try {
    for (const at::Tensor* t : {x, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "ndtr: x and out must be contiguous float64 CPU tensors");
    }
    TORCH_CHECK(x->sizes() == out->sizes(), "ndtr: x and out must have one shape");
    const double* px = x->const_data_ptr<double>();
    double* po = out->mutable_data_ptr<double>();
    const int64_t n = x->numel();
    const int kernel = tb_ndtr_erfc_kernel(erfc);
#ifdef TB_NDTR_SIMD
    const int lanes = sleef_erfc_lanes();
#else
    const int lanes = 0;
#endif
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 8, [&](int64_t begin, int64_t end) {
      if (kernel == 2) {
        ndtr_vml_range(px, po, begin, end, below, c_err, lanes == 8);
        return;
      }
#ifdef TB_NDTR_SIMD
      if (kernel == 0) {
        ndtr_scalar_range(px, po, begin, end, below, c_err);
        return;
      }
      if (lanes == 8) {
        ndtr_simd_range<8>(ndtr8, px, po, begin, end, below, c_err);
        return;
      }
      if (lanes == 4) {
        ndtr_simd_range<4>(ndtr4, px, po, begin, end, below, c_err);
        return;
      }
#endif
      ndtr_scalar_range(px, po, begin, end, below, c_err);
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
        // ndtr(y), y = -x, with the C library's erfc
        const double y = -xi;
        double v = std::erfc(y * -kFrac1Sqrt2) * 0.5;
        if (y < -1.0) {
          v = tail_corrected(v, y, c_err);
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
