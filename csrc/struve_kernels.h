// Struve functions H_v(x) and L_v(x) of real order and real argument, one
// scalar per call: the kernels behind `scipy.special.struve` and `modstruve`
// (csrc/hypergeometric.cpp runs them over the elements).
//
// The method of SciPy's (Pauli Virtanen's) cephes struve.c: three expansions,
// each with an estimate of its rounding error, the first one good to 1e-12
// taken, else the best one good to 1e-7:
// - the large-x asymptotic expansion (DLMF 11.6.1) plus Y_v (H) or I_v (L),
//   tried for x >= 0.7 v + 12;
// - the power series (DLMF 11.2.1, 11.2.2) summed in double-double arithmetic,
//   so that its cancellation for H at x >> v costs no digits;
// - the series in Bessel functions (DLMF 11.4.19, 11.4.20) for |x| < |v| + 20.
// Half-integer orders v = -n - 1/2 are Bessel functions (DLMF 11.4.4, 11.4.5).
// x < 0: (-1)^(v+1) f(v, -x) for integer v, nan otherwise; x = 0: 0, or the
// limit for v <= -1.

#pragma once

#include "bessel_kernels.h"
#include "hypergeometric_kernels.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace tb_struve {

using tb_hyper::kInf;
using tb_hyper::kNan;
constexpr double kPi = 3.14159265358979323846;
constexpr int kMaxIter = 10000;
constexpr double kSumEps = 1e-16;
constexpr double kSumTiny = 1e-100;
constexpr double kGoodEps = 1e-12;
constexpr double kAcceptableEps = 1e-7;
constexpr double kAcceptableAtol = 1e-300;

// A double-double number hi + lo (|lo| <= ulp(hi) / 2).
struct DD {
  double hi;
  double lo;
};

inline DD two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

inline DD quick_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

inline DD dd_add(DD a, DD b) {
  DD s = two_sum(a.hi, b.hi);
  DD t = two_sum(a.lo, b.lo);
  s.lo += t.hi;
  s = quick_two_sum(s.hi, s.lo);
  s.lo += t.lo;
  return quick_two_sum(s.hi, s.lo);
}

inline DD dd_mul(DD a, DD b) {
  const double p = a.hi * b.hi;
  double e = std::fma(a.hi, b.hi, -p);
  e += a.hi * b.lo + a.lo * b.hi;
  return quick_two_sum(p, e);
}

inline DD dd_div(DD a, DD b) {
  const double q1 = a.hi / b.hi;
  DD r = dd_add(a, dd_mul({-q1, 0.0}, b));
  const double q2 = r.hi / b.hi;
  r = dd_add(r, dd_mul({-q2, 0.0}, b));
  const double q3 = r.hi / b.hi;
  DD q = quick_two_sum(q1, q2);
  return dd_add(q, {q3, 0.0});
}

// The sign of Gamma(x) as Cephes' gammasgn: +-1 at +-0, nan at the poles and -inf, and
// (C's cast of floor(x) to int being INT_MIN beyond its range) +1 below -2^31.
inline double gammasgn(double x) {
  if (std::isnan(x)) {
    return x;
  }
  if (x > 0) {
    return 1.0;
  }
  if (x == 0) {
    return std::copysign(1.0, x);
  }
  if (std::isinf(x)) {
    return kNan;
  }
  const double fx = std::floor(x);
  if (x - fx == 0.0) {
    return kNan;
  }
  if (fx < -2147483648.0) {
    return 1.0;
  }
  return (static_cast<int64_t>(fx) % 2 != 0) ? -1.0 : 1.0;
}

inline double lgam(double x) {
  int s = 1;
  return tb_hyper::lgamma_sign(x, &s);
}

// DLMF 11.6.1: the large-x expansion, minus Y_v (H) or I_v (L).
inline double asymptotic(double v, double z, bool is_h, double* err) {
  const double sgn = is_h ? -1.0 : 1.0;
  const double m = z / 2;
  int maxiter;
  if (m <= 0) {
    maxiter = 0;
  } else if (m > kMaxIter) {
    maxiter = kMaxIter;
  } else {
    maxiter = static_cast<int>(m);
  }
  if (maxiter == 0 || z < v) {
    *err = kInf;
    return kNan;
  }
  double term = -sgn / std::sqrt(kPi) * std::exp(-lgam(v + 0.5) + (v - 1) * std::log(z / 2)) * gammasgn(v + 0.5);
  double sum = term, maxterm = 0.0;
  for (int n = 0; n < maxiter; ++n) {
    term *= sgn * (1 + 2 * n) * (1 + 2 * n - 2 * v) / (z * z);
    sum += term;
    maxterm = std::max(maxterm, std::fabs(term));
    if (std::fabs(term) < kSumEps * std::fabs(sum) || term == 0 || !std::isfinite(sum)) {
      break;
    }
  }
  if (is_h) {
    sum += tb_bessel::yv(v, z, false);
  } else {
    sum += tb_bessel::iv(v, z, false);
  }
  *err = std::fabs(term) + std::fabs(maxterm) * kSumEps;
  return sum;
}

// DLMF 11.2.1 / 11.2.2, in double-double.
inline double power_series(double v, double z, bool is_h, double* err) {
  const double sgn = is_h ? -1.0 : 1.0;
  double tmp = -lgam(v + 1.5) + (v + 1) * std::log(z / 2);
  double scaleexp = 0.0;
  if (tmp < -600 || tmp > 600) {
    scaleexp = tmp / 2;
    tmp -= scaleexp;
  }
  double term = 2 / std::sqrt(kPi) * std::exp(tmp) * gammasgn(v + 1.5);
  double sum = term, maxterm = 0.0;
  DD cterm{term, 0.0}, csum{sum, 0.0};
  const DD z2 = dd_mul({sgn * z, 0.0}, {z, 0.0});
  const DD c2v{2 * v, 0.0};
  for (int n = 0; n < kMaxIter; ++n) {
    const DD cdiv = dd_mul({3.0 + 2 * n, 0.0}, dd_add({3.0 + 2 * n, 0.0}, c2v));
    cterm = dd_div(dd_mul(cterm, z2), cdiv);
    csum = dd_add(csum, cterm);
    term = cterm.hi + cterm.lo;
    sum = csum.hi + csum.lo;
    maxterm = std::max(maxterm, std::fabs(term));
    if (std::fabs(term) < kSumTiny * std::fabs(sum) || term == 0 || !std::isfinite(sum)) {
      break;
    }
  }
  *err = std::fabs(term) + std::fabs(maxterm) * 1e-22;
  if (scaleexp != 0) {
    sum *= std::exp(scaleexp);
    *err *= std::exp(scaleexp);
  }
  if (sum == 0 && term == 0 && v < 0 && !is_h) {
    *err = kInf;  // a spurious underflow
    return kNan;
  }
  return sum;
}

// DLMF 11.4.19 / 11.4.20: sums of Bessel functions.
inline double bessel_series(double v, double z, bool is_h, double* err) {
  if (is_h && v < 0) {
    *err = kInf;
    return kNan;
  }
  double sum = 0.0, maxterm = 0.0, term = 0.0;
  double cterm = std::sqrt(z / (2 * kPi));
  for (int n = 0; n < kMaxIter; ++n) {
    if (is_h) {
      term = cterm * tb_bessel::jv(n + v + 0.5, z, false) / (n + 0.5);
      cterm *= z / 2 / (n + 1);
    } else {
      term = cterm * tb_bessel::iv(n + v + 0.5, z, false) / (n + 0.5);
      cterm *= -z / 2 / (n + 1);
    }
    sum += term;
    maxterm = std::max(maxterm, std::fabs(term));
    if (std::fabs(term) < kSumEps * std::fabs(sum) || term == 0 || !std::isfinite(sum)) {
      break;
    }
  }
  *err = std::fabs(term) + std::fabs(maxterm) * 1e-16 + 1e-300 * std::fabs(cterm);
  return sum;
}

// Struve H (is_h) or L of order v at z; `*status` 1 where SciPy reports overflow, 2 where
// it reports "no result", 0 otherwise.
inline double struve(double v, double z, bool is_h, int* status) {
  *status = 0;
  // (no early exit for nan: struve(nan, 0) is 0 in SciPy, nan propagates elsewhere)
  if (z < 0) {
    if (v == std::floor(v) && std::fabs(v) < 2147483648.0) {
      const int64_t n = static_cast<int64_t>(v);
      const double sign = (n % 2 == 0) ? -1.0 : 1.0;
      return sign * struve(v, -z, is_h, status);
    }
    return kNan;
  }
  if (z == 0) {
    if (v < -1) {
      return gammasgn(v + 1.5) * kInf;
    }
    if (v == -1) {
      return 2 / std::sqrt(kPi) / std::tgamma(0.5);
    }
    return 0.0;
  }
  {
    const double nn = -v - 0.5;
    if (nn == std::floor(nn) && nn > 0 && nn < 2147483648.0) {
      const int64_t n = static_cast<int64_t>(nn);
      if (is_h) {
        return ((n % 2 == 0) ? 1.0 : -1.0) * tb_bessel::jv(nn + 0.5, z, false);
      }
      return tb_bessel::iv(nn + 0.5, z, false);
    }
  }
  double value[3], err[3];
  if (z >= 0.7 * v + 12) {
    value[0] = asymptotic(v, z, is_h, &err[0]);
    if (err[0] < kGoodEps * std::fabs(value[0])) {
      return value[0];
    }
  } else {
    value[0] = kNan;
    err[0] = kInf;
  }
  value[1] = power_series(v, z, is_h, &err[1]);
  if (err[1] < kGoodEps * std::fabs(value[1])) {
    return value[1];
  }
  if (std::fabs(z) < std::fabs(v) + 20) {
    value[2] = bessel_series(v, z, is_h, &err[2]);
    if (err[2] < kGoodEps * std::fabs(value[2])) {
      return value[2];
    }
  } else {
    value[2] = kNan;
    err[2] = kInf;
  }
  int best = 0;
  if (err[1] < err[best]) {
    best = 1;
  }
  if (err[2] < err[best]) {
    best = 2;
  }
  if (err[best] < kAcceptableEps * std::fabs(value[best]) || err[best] < kAcceptableAtol) {
    return value[best];
  }
  double tmp = -lgam(v + 1.5) + (v + 1) * std::log(z / 2);
  if (!is_h) {
    tmp = std::fabs(tmp);
  }
  if (tmp > 700) {
    *status = 1;
    return kInf * gammasgn(v + 1.5);
  }
  *status = 2;
  return kNan;
}

}  // namespace tb_struve
