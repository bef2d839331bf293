// Tricomi's confluent hypergeometric function U(a, b, x) of real arguments,
// one scalar per call: the kernel of csrc/hypergeometric.cpp behind
// `scipy.special.hyperu`. SciPy's own (xsf's hypu, Zhang & Jin's CHGU) picks
// between Kummer's relation to 1F1, the large-x expansion, a series for
// integer b and a Gauss-Legendre integral; this kernel is written from the
// formulas:
// - a or a - b + 1 a non-positive integer: U is a polynomial in x (DLMF
//   13.2.7, with Kummer's transformation DLMF 13.2.40), summed by the
//   recurrence in a (DLMF 13.3.7), which runs from U(0) = 1 without U(1)
//   because its coefficient a(a - b + 1) vanishes there;
// - large x: the asymptotic expansion U ~ x^-a sum (a)_s (a-b+1)_s / s! (-x)^-s
//   (DLMF 13.7.3) where it converges to 1e-17 before its terms grow;
// - b not an integer: Kummer's relation (DLMF 13.2.42)
//   U = pi / sin(pi b) [M(a,b,x) / (Gamma(1+a-b) Gamma(b))
//                       - x^(1-b) M(1+a-b, 2-b, x) / (Gamma(a) Gamma(2-b))]
//   with Kummer's series in long double, kept where its two terms cancel by
//   less than two digits;
// - otherwise (b an integer or close to one, or the relation cancels): the
//   integral U = x^-a / Gamma(a) int_0^inf e^-u u^(a-1) (1 + u/x)^(b-a-1) du
//   (DLMF 13.4.4) by double-exponential quadrature (u = exp(s - e^-s)) with
//   the step halved until two sums agree to 2e-16, for a >= 1 (or, through
//   Kummer's transformation U(a,b,x) = x^(1-b) U(a-b+1, 2-b, x), for
//   a - b + 1 >= 1); below that, the recurrence in a (DLMF 13.3.7) downwards
//   from two integrals, stable because U is its minimal solution as a grows.

#pragma once

#include "bessel_kernels.h"
#include "hypergeometric_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tb_hyperu {

using tb_hyper::kInf;
using tb_hyper::kNan;
using tb_hyper::kPi;

inline bool is_nonpositive_integer(double v) { return v <= 0.0 && v == std::floor(v); }

// a - b + 1 rounded once (U is sensitive to it where it is close to a non-positive integer).
inline double shifted(double a, double b) {
  return static_cast<double>(static_cast<long double>(a) - static_cast<long double>(b) + 1.0L);
}

// U(-m, b, x) for an integer m >= 0: the recurrence in a (DLMF 13.3.7)
// U(a-1) = (x + 2a - b) U(a) - a (a - b + 1) U(a + 1) from U(0) = 1.
inline double polynomial(double a, double b, double x) {
  const int64_t m = static_cast<int64_t>(-a);
  long double cur = 1.0L, next = 0.0L;  // U(0), and U(1)'s coefficient is 0 at a = 0
  const long double lb = b, lx = x;
  for (int64_t k = 0; k < m; ++k) {
    const long double aa = -static_cast<long double>(k);
    const long double prev = (lx + 2.0L * aa - lb) * cur - aa * (aa - lb + 1.0L) * next;
    next = cur;
    cur = prev;
  }
  return static_cast<double>(cur);
}

// x^-a sum (a)_s (a-b+1)_s / s! (-x)^-s; `ok` false where it does not converge to 1e-17.
inline double asymptotic(double a, double b, double x, bool* ok) {
  double sum = 1.0, term = 1.0;
  const double c = a - b + 1.0;
  *ok = false;
  for (int s = 0; s < 1000; ++s) {
    const double next = -term * (a + s) * (c + s) / ((s + 1.0) * x);
    if (s > 0 && std::fabs(next) >= std::fabs(term)) {
      return kNan;
    }
    term = next;
    sum += term;
    if (std::fabs(term) <= 1e-17 * std::fabs(sum)) {
      *ok = true;
      break;
    }
  }
  if (!*ok) {
    return kNan;
  }
  return sum * std::pow(x, -a);
}

// Kummer's relation for non-integer b; `ok` false where its terms cancel.
inline double kummer_relation(double a, double b, double x, bool* ok) {
  *ok = false;
  double loss1 = 0.0, loss2 = 0.0;
  const double c = shifted(a, b);
  const double r1 = tb_hyper::rgamma(c) * tb_hyper::rgamma(b);
  const double r2 = tb_hyper::rgamma(a) * tb_hyper::rgamma(2.0 - b);
  long double t1 = 0.0L, t2 = 0.0L;
  if (r1 != 0.0) {
    t1 = tb_hyper::series_1f1_ld(a, b, x, &loss1) * static_cast<long double>(r1);
  }
  if (r2 != 0.0) {
    t2 = tb_hyper::series_1f1_ld(c, 2.0 - b, x, &loss2) * static_cast<long double>(r2) *
         std::pow(static_cast<long double>(x), static_cast<long double>(1.0 - b));
  }
  const long double diff = t1 - t2;
  const long double size = std::fabs(t1) + std::fabs(t2);
  if (!std::isfinite(static_cast<double>(size)) || std::max(loss1, loss2) > 1e-15 ||
      !(size <= 100.0L * std::fabs(diff))) {
    return kNan;
  }
  const long double front = static_cast<long double>(kPi) / static_cast<long double>(tb_bessel::sinpi(b));
  const double y = static_cast<double>(front * diff);
  *ok = std::isfinite(y);
  return y;
}

// U(a, b, x) for a >= 1 by the integral DLMF 13.4.4 (double-exponential quadrature in long
// double: the logs of the integrand reach hundreds, whose rounding a double would carry
// into the result).
inline long double integral(double a, double b, double x) {
  const long double la = a, le = static_cast<long double>(b) - la - 1.0L, lx = x;
  // log of the integrand in s (u = exp(s - e^-s), du = u (1 + e^-s) ds)
  auto log_f = [&](long double s) {
    const long double es = std::exp(-s);
    const long double lu = s - es;
    const long double u = std::exp(lu);
    return la * lu - u + le * std::log1p(u / lx) + std::log1p(es);
  };
  const double lnx = std::min(std::log(x), 0.0);
  const long double s_lo = -std::log(45.0 - lnx) - 0.5;
  const long double s_hi = std::log(100.0 + 4.0 * (a + std::fabs(b)) + 40.0 * std::sqrt(a));
  // scale: the largest log on a coarse grid
  long double scale = -std::numeric_limits<long double>::infinity();
  for (long double s = s_lo; s <= s_hi; s += 0.125L) {
    scale = std::max(scale, log_f(s));
  }
  if (!std::isfinite(scale)) {
    return kNan;
  }
  // trapezoid sums on the grid s_lo + k h, halving h
  long double h = 0.125L;
  long double sum = 0.0L;
  const int64_t n0 = static_cast<int64_t>(std::ceil((s_hi - s_lo) / h));
  for (int64_t k = 0; k <= n0; ++k) {
    sum += std::exp(log_f(s_lo + k * h) - scale);
  }
  long double previous = sum * h;
  int64_t n = n0;
  for (int level = 0; level < 7; ++level) {
    long double mids = 0.0L;  // the midpoints
    for (int64_t k = 0; k < n; ++k) {
      mids += std::exp(log_f(s_lo + (k + 0.5L) * h) - scale);
    }
    sum += mids;
    h *= 0.5L;
    n *= 2;
    const long double current = sum * h;
    const long double change = std::fabs(current - previous);
    previous = current;
    if (level >= 1 && change <= 1e-17L * current) {
      break;
    }
  }
  return std::exp(scale + std::log(previous) - std::lgamma(la) - la * std::log(lx));
}

// U(a, b, x) for x > 0 finite by the integral, after Kummer's transformation or with the
// recurrence in a where neither a nor a - b + 1 reaches 1.
inline double by_integral(double a, double b, double x) {
  if (a >= 1.0) {
    return static_cast<double>(integral(a, b, x));
  }
  const double c = shifted(a, b);
  if (c >= 1.0) {
    return static_cast<double>(std::pow(static_cast<long double>(x), 1.0L - b) * integral(c, 2.0 - b, x));
  }
  // downwards from a + n in [1, 2) and a + n + 1
  const int64_t n = static_cast<int64_t>(std::ceil(1.0 - a));
  double aa = a + static_cast<double>(n);
  if (aa < 1.0) {
    aa += 1.0;
  }
  const int64_t steps = static_cast<int64_t>(std::llround(aa - a));
  long double cur = integral(aa, b, x), next = integral(aa + 1.0, b, x);
  const long double lb = b, lx = x;
  for (int64_t k = 0; k < steps; ++k) {
    const long double la = aa - static_cast<double>(k);
    const long double prev = (lx + 2.0L * la - lb) * cur - la * (la - lb + 1.0L) * next;
    next = cur;
    cur = prev;
  }
  return static_cast<double>(cur);
}

inline double hyperu(double a, double b, double x) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(x)) {
    return kNan;
  }
  if (x < 0.0) {
    return kNan;
  }
  if (x == 0.0) {
    // DLMF 13.2.16-18 (inf for b > 1) and 13.2.14-15, 13.2.19-21: Gamma(1-b) / Gamma(a-b+1)
    if (b > 1.0) {
      return kInf;
    }
    if (is_nonpositive_integer(1.0 - b)) {
      // b = 1: U(a, 1, 0) is finite only where a is a non-positive integer (poch(1 + a, -a))
      return is_nonpositive_integer(a) ? polynomial(a, b, 0.0) : kInf;
    }
    return tb_hyper::gamma(1.0 - b) * tb_hyper::rgamma(a - b + 1.0);
  }
  // Parameters beyond 2^20 in size would run recurrences and polynomials of
  // that length per element (a hang at 2^62): nan, a documented limit.
  if (std::isinf(a) || std::isinf(b) || std::fabs(a) > 0x1p20 || std::fabs(b) > 0x1p20) {
    return kNan;
  }
  const double c = shifted(a, b);
  if (is_nonpositive_integer(a)) {
    if (std::isinf(x)) {
      return a == 0.0 ? 1.0 : kInf;
    }
    if (is_nonpositive_integer(c) && c > a) {
      // the polynomial of lower degree, after Kummer's transformation
      return std::pow(x, 1.0 - b) * polynomial(c, 2.0 - b, x);
    }
    return polynomial(a, b, x);
  }
  if (std::isinf(x)) {
    // U ~ x^-a; as SciPy, the limit only where U is x^(1-b) times a polynomial, nan elsewhere
    return is_nonpositive_integer(c) ? (a > 0.0 ? 0.0 : kInf) : kNan;
  }
  if (is_nonpositive_integer(c)) {
    return std::pow(x, 1.0 - b) * polynomial(c, 2.0 - b, x);
  }
  if (x > 12.0) {
    bool ok = false;
    const double y = asymptotic(a, b, x, &ok);
    if (ok) {
      return y;
    }
  }
  if (std::fabs(b - std::rint(b)) > 1e-6) {
    bool ok = false;
    const double y = kummer_relation(a, b, x, &ok);
    if (ok) {
      return y;
    }
  }
  return by_integral(a, b, x);
}

}  // namespace tb_hyperu
