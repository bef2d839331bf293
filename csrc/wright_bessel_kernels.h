// Wright's generalized Bessel function Phi(a, b; x) = sum_k x^k / (k! Gamma(a k + b))
// and its logarithm for a, b, x >= 0, one scalar per call: the kernels of
// csrc/hypergeometric.cpp behind `scipy.special.wright_bessel` and
// `log_wright_bessel`.
//
// SciPy (xsf's wright_bessel.h, after Lorenz & Rueben 2021) combines the
// series for small x, asymptotic expansions for large x and small or large a,
// and an integral representation in between. This kernel is written from the
// definition instead: for a, b, x >= 0 every term of the series is positive,
// so the series never cancels and only its length is a concern. It is summed
// in long double through the logarithms of its terms,
// log t_k = k log x - log k! - log Gamma(a k + b), outwards from the largest
// term (located by bisection on d log t_k / dk = log x - psi(k + 1) - a psi(a k + b),
// log t_k being concave in k) until the terms fall below 2^-66 of the sum on
// both sides. That is O(sqrt(k*)) terms for a peak at k*, which grows like
// x^(1/(1+a)); the rounding of the logarithms (about |log t_k| * 5e-20) bounds
// the relative error: about 1e-16 up to x ~ 1e3, 1e-13 at x ~ 1e5 with a < 1.
// a = 0 is e^x / Gamma(b) (log: x - log Gamma(b)).

#pragma once

#include "hypergeometric_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tb_wright {

using tb_hyper::kInf;
using tb_hyper::kNan;

// log Phi(a, b; x) for finite a, b, x >= 0 (-inf where Phi is 0).
inline double log_wright_bessel_finite(double a, double b, double x) {
  if (x == 0.0) {
    // 1 / Gamma(b)
    return b == 0.0 ? -kInf : -std::lgamma(b);
  }
  if (a == 0.0) {
    return b == 0.0 ? -kInf : x - std::lgamma(b);
  }
  const long double la = a, lb = b, lx = std::log(static_cast<long double>(x));
  const int64_t kmin = b == 0.0 ? 1 : 0;  // 1 / Gamma(0) = 0
  auto log_term = [&](int64_t k) {
    const long double kk = static_cast<long double>(k);
    return kk * lx - std::lgamma(kk + 1.0L) - std::lgamma(la * kk + lb);
  };
  // d log t_k / dk, decreasing in k
  auto slope = [&](double k) { return std::log(x) - tb_hyper::psi(k + 1.0) - a * tb_hyper::psi(a * k + b); };
  double lo = static_cast<double>(kmin);
  double peak = lo;
  if (slope(lo + 0.5) > 0.0) {
    double hi = lo + 1.0;
    while (slope(hi) > 0.0 && hi < 1e15) {
      lo = hi;
      hi *= 2.0;
    }
    for (int it = 0; it < 200 && hi - lo > 0.5; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (slope(mid) > 0.0) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    peak = std::floor(0.5 * (lo + hi));
  }
  // Beyond a peak at k = 1e10 the sum would take about 1e6 terms per element
  // (minutes on a large array, and log Gamma of such k loses digits): nan, a
  // documented limit (x above about (1e10)^(1 + a); SciPy's asymptotic
  // expansions are not ported).
  if (!(peak < 1e10)) {
    return kNan;
  }
  const int64_t k0 = std::max<int64_t>(kmin, static_cast<int64_t>(peak));
  const long double ref = log_term(k0);
  constexpr long double kNegligible = -46.0L;  // e^-46 ~ 2^-66
  long double rest = 0.0L;  // the sum less the reference term (log1p keeps log Phi near 0 exact)
  for (int64_t k = k0 - 1; k >= kmin; --k) {
    const long double d = log_term(k) - ref;
    rest += std::exp(d);
    if (d < kNegligible) {
      break;
    }
  }
  long double previous = ref;
  for (int64_t k = k0 + 1;; ++k) {
    const long double l = log_term(k);
    const long double d = l - ref;
    rest += std::exp(d);
    if (d < kNegligible && l < previous) {
      break;
    }
    previous = l;
  }
  return static_cast<double>(ref + std::log1p(rest));
}

// SciPy's domain: nan for a negative or infinite parameter, a negative x or a nan; x = inf
// gives inf (log: inf).
inline bool outside(double a, double b, double x, double* value) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(x) || a < 0.0 || b < 0.0 || x < 0.0 || std::isinf(a) ||
      std::isinf(b)) {
    *value = kNan;
    return true;
  }
  if (std::isinf(x)) {
    *value = kInf;
    return true;
  }
  return false;
}

inline double log_wright_bessel(double a, double b, double x) {
  double value = 0.0;
  if (outside(a, b, x, &value)) {
    return value;
  }
  return log_wright_bessel_finite(a, b, x);
}

inline double wright_bessel(double a, double b, double x) {
  double value = 0.0;
  if (outside(a, b, x, &value)) {
    return value;
  }
  if (x == 0.0) {
    return tb_hyper::rgamma(b);
  }
  return std::exp(log_wright_bessel_finite(a, b, x));
}

}  // namespace tb_wright
