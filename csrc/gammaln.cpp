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

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include <math.h>

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

}  // namespace

extern "C" {

// `out = gammaln(x)` for the contiguous float64 CPU `x` and `out` (a fresh
// tensor of x's shape the caller owns).
char* tb_gammaln_cpu(const at::Tensor* x, at::Tensor* out) noexcept {
  try {
    for (const at::Tensor* t : {x, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "gammaln: x and out must be contiguous float64 CPU tensors");
    }
    TORCH_CHECK(x->sizes() == out->sizes(), "gammaln: x and out must have one shape");
    const double* px = x->const_data_ptr<double>();
    double* po = out->mutable_data_ptr<double>();
    const int64_t n = x->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const double xi = px[i];
        po[i] = near_libm(xi) ? libm_lgamma(xi) : lgam(xi);
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
