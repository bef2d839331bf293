// Hypergeometric functions of real arguments, one scalar per call: the kernels
// of csrc/hypergeometric.cpp (`scipy.special.hyp2f1`, `hyp1f1`, `hyp0f1`).
//
// hyp2f1(a, b; c; x): the method of Cephes' hyp2f1.c, which SciPy's real loop
// runs (xsf/cephes/hyp2f1.h):
// - the defining power series (DLMF 15.2.1) for |x| < 1 where it converges fast
//   and without cancellation, with a running estimate of its rounding error;
//   strongly alternating series with |a| >> |c| by the three-term recurrence
//   in a (DLMF 15.5.E11 / AMS55 15.2.10) from two small-|a| series;
// - terminating series for a or b a non-positive integer; the pole (inf) for
//   c a non-positive integer that no such a or b stops first;
// - Euler's transformation (DLMF 15.8.1, 1-x)^(c-a-b) 2F1(c-a, c-b; c; x)
//   for c-a-b <= -1 and where c-a or c-b is a non-positive integer;
// - Pfaff's transformation (DLMF 15.8.1) for -2 <= x < -0.5 (argument x/(x-1));
//   the 1/x transformation (DLMF 15.8.2) for x < -2 with b-a not an integer;
// - the 1-x transformation (DLMF 15.8.4) for x > 0.9 where the series loses
//   digits, and for c-a-b an integer its limiting form with digamma terms
//   (DLMF 15.8.10, AMS55 15.3.10-12);
// - Gauss' sum (DLMF 15.4.20) at x = 1; the recurrence in c (DLMF 15.5.E18)
//   to make c-a-b > 0 where the series fails for c-a-b < 0.
// Parameters within 1e-13 of an integer are treated as that integer, as
// Cephes does.
//
// hyp0f1(v; z): Gamma(v) z^((1-v)/2) I_{v-1}(2 sqrt z) for z > 0 (and
// J_{v-1} for z < 0, DLMF 10.39.9, 10.25.2), the Bessel kernels of
// bessel_kernels.h; where Gamma(v) z^((1-v)/2) over- or underflows, the
// uniform asymptotic expansion of I for large order (DLMF 10.41.3, 10.41.10),
// as SciPy's hyp0f1.
//
// hyp1f1(a; b; x): Kummer's series (DLMF 13.2.2) where its terms do not
// cancel, Kummer's transformation M(a, b, x) = e^x M(b-a, b, -x) (DLMF 13.2.39)
// to make the series positive, the large-|x| asymptotic expansion
// (DLMF 13.7.2) where it converges to the last bit, and the series summed in
// long double otherwise.

#pragma once

#include "bessel_kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tb_hyper {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kMachEp = 1.11022302462515654042e-16;  // 2^-53
constexpr double kIntEps = 1e-13;                      // Cephes' "integer" tolerance
constexpr double kLossThreshold = 1e-12;
constexpr int64_t kMaxIter = 10000;
constexpr double kPi = 3.14159265358979323846;
constexpr double kMaxLog = 7.09782712893383996843e2;

inline bool near_nonpositive_integer(double v) { return v <= 0.0 && std::fabs(v - std::round(v)) < kIntEps; }

inline bool is_nonpositive_integer(double v) { return v <= 0.0 && v == std::floor(v); }

// Gamma(x), inf at the poles.
inline double gamma(double x) {
  if (is_nonpositive_integer(x)) {
    return kInf;
  }
  return std::tgamma(x);
}

// log|Gamma(x)| and the sign of Gamma(x).
inline double lgamma_sign(double x, int* sign) {
  int s = 1;
  const double v = ::lgamma_r(x, &s);
  *sign = s;
  return v;
}

// 1 / Gamma(x): 0 at the poles, finite where Gamma overflows.
inline double rgamma(double x) {
  if (is_nonpositive_integer(x)) {
    return 0.0;
  }
  if (x < 170.0 && x > -170.0) {
    return 1.0 / std::tgamma(x);
  }
  int s = 1;
  const double l = lgamma_sign(x, &s);
  return s * std::exp(-l);
}

// The digamma function (inf at the poles): recurrence up to x >= 10, then
// the asymptotic series (DLMF 5.11.2); reflection for x < 0 (DLMF 5.5.4).
inline double psi(double x) {
  if (std::isnan(x)) {
    return x;
  }
  if (is_nonpositive_integer(x)) {
    return kInf;
  }
  double shift = 0.0;
  if (x < 0.0) {
    // psi(1 - x) - psi(x) = pi cot(pi x)
    const double r = x - std::floor(x);
    shift = -kPi / std::tan(kPi * r);
    x = 1.0 - x;
  }
  if (x <= 10.0 && x == std::floor(x)) {
    double s = -0.57721566490153286061;
    for (int k = 1; k < static_cast<int>(x); ++k) {
      s += 1.0 / k;
    }
    return s + shift;
  }
  double acc = 0.0;
  while (x < 10.0) {
    acc -= 1.0 / x;
    x += 1.0;
  }
  const double w = 1.0 / (x * x);
  // Bernoulli terms B_2k / (2k): 1/12, -1/120, 1/252, -1/240, 1/132, -691/32760, 1/12
  const double series =
      w * (8.33333333333333333333e-2 -
           w * (8.33333333333333333333e-3 -
                w * (3.96825396825396825397e-3 -
                     w * (4.16666666666666666667e-3 -
                          w * (7.57575757575757575758e-3 - w * (2.10927960927960927961e-2 - w * 8.33333333333333333333e-2))))));
  return std::log(x) - 0.5 / x - series + acc + shift;
}

// ---------------------------------------------------------------------------
// hyp2f1


// a's recurrence (DLMF 15.5.E11) from two series at a - da and a - da +- 1.
inline double hyp2f1_recur_a(double a, double b, double c, double x, double* loss);

// The power series (DLMF 15.2.1) with an estimate of its relative rounding error.
inline double series_2f1(double a, double b, double c, double x, double* loss) {
  if (std::fabs(b) > std::fabs(a)) {
    std::swap(a, b);
  }
  bool terminating_b = false;
  const double ib = std::round(b);
  if (std::fabs(b - ib) < kIntEps && ib <= 0 && std::fabs(b) < std::fabs(a)) {
    // b, the smaller one, is a non-positive integer: the series ends there, sum it by a
    std::swap(a, b);
    terminating_b = true;
  }
  if ((std::fabs(a) > std::fabs(c) + 1 || terminating_b) && std::fabs(c - a) > 2 && std::fabs(a) > 2) {
    return hyp2f1_recur_a(a, b, c, x, loss);
  }
  double sum = 1.0, term = 1.0, largest = 0.0;
  int64_t k = 0;
  do {
    if (std::fabs(c) < kIntEps) {  // (Cephes tests c itself only)
      *loss = 1.0;
      return kInf;
    }
    const double kk = static_cast<double>(k);
    term *= (a + kk) * (b + kk) * x / ((c + kk) * (kk + 1.0));
    sum += term;
    largest = std::max(largest, std::fabs(term));
    if (++k > kMaxIter) {
      *loss = 1.0;
      return sum;
    }
  } while (sum == 0.0 || std::fabs(term / sum) > kMachEp);
  *loss = kMachEp * largest / std::fabs(sum) + kMachEp * static_cast<double>(k);
  return sum;
}

inline double hyp2f1_recur_a(double a, double b, double c, double x, double* loss) {
  // do not step across c or 0
  double da;
  if ((c < 0 && a <= c) || (c >= 0 && a >= c)) {
    da = std::round(a - c);
  } else {
    da = std::round(a);
  }
  double t = a - da;
  *loss = 0.0;
  if (std::fabs(da) > static_cast<double>(kMaxIter)) {
    *loss = 1.0;
    return kNan;
  }
  double err = 0.0;
  double f1 = series_2f1(t, b, c, x, &err);
  *loss += err;
  if (da < 0) {
    double f0 = series_2f1(t - 1, b, c, x, &err);
    *loss += err;
    t -= 1;
    for (int64_t n = 1; n < -static_cast<int64_t>(da); ++n) {
      const double f2 = f1;
      f1 = f0;
      f0 = -(2 * t - c - t * x + b * x) / (c - t) * f1 - t * (x - 1) / (c - t) * f2;
      t -= 1;
    }
    return f0;
  }
  double f0 = series_2f1(t + 1, b, c, x, &err);
  *loss += err;
  t += 1;
  for (int64_t n = 1; n < static_cast<int64_t>(da); ++n) {
    const double f2 = f1;
    f1 = f0;
    f0 = -((2 * t - c - t * x + b * x) * f1 + (c - t) * f2) / (t * (x - 1));
    t += 1;
  }
  return f0;
}

// The series after the transformations for x < -0.5 and x > 0.9.
inline double transformed_2f1(double a, double b, double c, double x, double* loss) {
  const bool poly = near_nonpositive_integer(a) || near_nonpositive_integer(b);
  double err = 0.0;
  const double s = 1.0 - x;
  if (x < -0.5 && !poly) {
    // Pfaff: (1-x)^-a 2F1(a, c-b; c; x/(x-1)), on the parameter that keeps |a| small
    double y;
    if (b > a) {
      y = std::pow(s, -a) * series_2f1(a, c - b, c, -x / s, &err);
    } else {
      y = std::pow(s, -b) * series_2f1(c - a, b, c, -x / s, &err);
    }
    *loss = err;
    return y;
  }
  const double d = c - a - b;
  const double id = std::round(d);
  if (x > 0.9 && !poly) {
    if (std::fabs(d - id) > kMachEp) {
      double y = series_2f1(a, b, c, x, &err);
      if (err < kLossThreshold) {
        *loss = err;
        return y;
      }
      // DLMF 15.8.4: 1-x transformation, c-a-b not an integer
      double q = series_2f1(a, b, 1.0 - d, s, &err);
      int sg = 1, sign = 1;
      double w = lgamma_sign(d, &sg);
      sign *= sg;
      w -= lgamma_sign(c - a, &sg);
      sign *= sg;
      w -= lgamma_sign(c - b, &sg);
      sign *= sg;
      q *= sign * std::exp(w);
      double err1 = 0.0;
      double r = std::pow(s, d) * series_2f1(c - a, c - b, d + 1.0, s, &err1);
      sign = 1;
      w = lgamma_sign(-d, &sg);
      sign *= sg;
      w -= lgamma_sign(a, &sg);
      sign *= sg;
      w -= lgamma_sign(b, &sg);
      sign *= sg;
      r *= sign * std::exp(w);
      y = q + r;
      const double big = std::max(std::fabs(q), std::fabs(r));
      err += err1 + kMachEp * big / y;
      *loss = err;
      return y * gamma(c);
    }
    // c-a-b = m an integer: DLMF 15.8.10 (AMS55 15.3.10-12), m = id, e = |m|
    double e, d1, d2;
    int64_t aid;
    if (id >= 0.0) {
      e = d;
      d1 = d;
      d2 = 0.0;
      aid = static_cast<int64_t>(id);
    } else {
      e = -d;
      d1 = 0.0;
      d2 = d;
      aid = static_cast<int64_t>(-id);
    }
    const double ax = std::log(s);
    double y = psi(1.0) + psi(1.0 + e) - psi(a + d1) - psi(b + d1) - ax;
    y *= rgamma(e + 1.0);
    double p = (a + d1) * (b + d1) * s * rgamma(e + 2.0);
    double t = 1.0, q;
    do {
      const double r = psi(1.0 + t) + psi(1.0 + t + e) - psi(a + t + d1) - psi(b + t + d1) - ax;
      q = p * r;
      y += q;
      p *= s * (a + t + d1) / (t + 1.0);
      p *= (b + t + d1) / (t + 1.0 + e);
      t += 1.0;
      if (t > static_cast<double>(kMaxIter)) {
        *loss = 1.0;
        return kNan;
      }
    } while (y == 0 || std::fabs(q / y) > kIntEps);
    if (id == 0.0) {
      *loss = 0.0;
      return y * gamma(c) * rgamma(a) * rgamma(b);
    }
    double y1 = 1.0;
    if (aid != 1) {
      t = 0.0;
      p = 1.0;
      for (int64_t i = 1; i < aid; ++i) {
        const double r = 1.0 - e + t;
        p *= s * (a + t + d2) * (b + t + d2) / r;
        t += 1.0;
        p /= t;
        y1 += p;
      }
    }
    p = gamma(c);
    y1 *= gamma(e) * p * (rgamma(a + d1) * rgamma(b + d1));
    y *= p * (rgamma(a + d2) * rgamma(b + d2));
    if ((aid & 1) != 0) {
      y = -y;
    }
    const double sp = std::pow(s, id);
    if (id > 0.0) {
      y *= sp;
    } else {
      y1 *= sp;
    }
    *loss = 0.0;
    return y + y1;
  }
  const double y = series_2f1(a, b, c, x, &err);
  *loss = err;
  return y;
}

// 15.4.2 of Abramowitz and Stegun: 2F1(a, -n; -n; x), a sum of n + 1 terms (nan where it
// cancels to nothing).
inline double hyp2f1_neg_c_equal_bc(double a, double b, double x) {
  if (!(std::fabs(b) < 1e5)) {
    return kNan;
  }
  double term = 1.0, sum = 1.0, largest = 1.0;
  for (double k = 1; k <= -b; k += 1.0) {
    term *= (a + k - 1) * x / k;
    largest = std::max(std::fabs(term), largest);
    sum += term;
  }
  if (1e-16 * (1 + largest / std::fabs(sum)) > 1e-7) {
    return kNan;
  }
  return sum;
}

// hyp2f1 with `loss` the estimated relative error (SciPy reports "loss of precision"
// beyond 1e-12) and `pole` set where the result is Cephes' overflow exit.
inline double hyp2f1_impl(double a, double b, double c, double x, double* loss, bool* pole) {
  // (no early exit for nan: nan propagates through Cephes' branches, which SciPy's values follow)
  *loss = 0.0;
  if (x == 0.0) {
    return 1.0;
  }
  const double s = 1.0 - x;
  const double ax = std::fabs(x);
  const double ia = std::round(a), ib = std::round(b);
  const double d = c - a - b;
  double id = std::round(d);
  if ((a == 0 || b == 0) && c != 0) {
    return 1.0;
  }
  const bool neg_int_a = a <= 0 && std::fabs(a - ia) < kIntEps;
  const bool neg_int_b = b <= 0 && std::fabs(b - ib) < kIntEps;
  const bool poly = neg_int_a || neg_int_b;
  if (d <= -1 && !(std::fabs(d - id) > kIntEps && s < 0) && !poly) {
    // Euler's transformation makes c-a-b positive
    return std::pow(s, d) * hyp2f1_impl(c - a, c - b, c, x, loss, pole);
  }
  if (d <= 0 && x == 1 && !poly) {
    *pole = true;
    return kInf;
  }
  if (ax < 1.0 || x == -1.0) {
    if (std::fabs(b - c) < kIntEps) {  // 2F1(a, b; b; x) = (1-x)^-a
      return neg_int_b ? hyp2f1_neg_c_equal_bc(a, b, x) : std::pow(s, -a);
    }
    if (std::fabs(a - c) < kIntEps) {
      return std::pow(s, -b);
    }
  }
  double err = 0.0;
  if (c <= 0.0) {
    const double ic = std::round(c);
    if (std::fabs(c - ic) < kIntEps) {  // a pole unless a or b ends the series first
      if ((neg_int_a && ia > ic) || (neg_int_b && ib > ic)) {
        const double y = transformed_2f1(a, b, c, x, &err);
        *loss = err;
        return y;
      }
      *pole = true;
      return kInf;
    }
  }
  if (poly) {
    const double y = transformed_2f1(a, b, c, x, &err);
    *loss = err;
    return y;
  }
  const double t1 = std::fabs(b - a);
  if (x < -2.0 && std::fabs(t1 - std::round(t1)) > kIntEps) {
    // DLMF 15.8.2, the 1/x transformation
    double l1 = 0.0, l2 = 0.0;
    bool p1 = false, p2 = false;
    double p = hyp2f1_impl(a, 1 - c + a, 1 - b + a, 1.0 / x, &l1, &p1);
    double q = hyp2f1_impl(b, 1 - c + b, 1 - a + b, 1.0 / x, &l2, &p2);
    p *= std::pow(-x, -a);
    q *= std::pow(-x, -b);
    const double gc = gamma(c);
    const double sp = gc * gamma(b - a) * (rgamma(b) * rgamma(c - a));
    const double sq = gc * gamma(a - b) * (rgamma(a) * rgamma(c - b));
    *loss = std::max(l1, l2);
    return sp * p + sq * q;
  }
  if (x < -1.0) {
    // Pfaff's transformation to x/(x-1) in (0.5, 1)
    if (std::fabs(a) < std::fabs(b)) {
      return std::pow(s, -a) * hyp2f1_impl(a, c - b, c, x / (x - 1), loss, pole);
    }
    return std::pow(s, -b) * hyp2f1_impl(b, c - a, c, x / (x - 1), loss, pole);
  }
  if (ax > 1.0) {  // the series diverges: x > 1
    *pole = true;
    return kInf;
  }
  const double p = c - a, r = c - b;
  const bool neg_int_ca_or_cb = (std::round(p) <= 0.0 && std::fabs(p - std::round(p)) < kIntEps) ||
                                (std::round(r) <= 0.0 && std::fabs(r - std::round(r)) < kIntEps);
  id = std::round(d);
  if (std::fabs(ax - 1.0) < kIntEps) {  // |x| = 1
    if (x > 0.0) {
      if (neg_int_ca_or_cb) {
        if (d >= 0.0) {
          const double y = std::pow(s, d) * series_2f1(c - a, c - b, c, x, &err);
          *loss = err;
          return y;
        }
        *pole = true;
        return kInf;
      }
      if (d <= 0.0) {
        *pole = true;
        return kInf;
      }
      return gamma(c) * gamma(d) * (rgamma(p) * rgamma(r));  // Gauss' sum
    }
    if (d <= -1.0) {
      *pole = true;
      return kInf;
    }
  }
  if (d < 0.0) {
    // the series first; if it loses digits, the recurrence in c to make c-a-b > 0
    double y = transformed_2f1(a, b, c, x, &err);
    if (err < kLossThreshold) {
      *loss = err;
      return y;
    }
    const int64_t aid = static_cast<int64_t>(2 - id);
    double e = c + static_cast<double>(aid);
    if (!(e - c >= 2.0) || !(std::fabs(y) >= 0.0)) {
      // no progress (c too large to step) or nan input: Cephes would recurse forever here
      // (SciPy 1.17 crashes on hyp2f1(1e300, 0.5, 1e300, nan))
      *loss = 1.0;
      return kNan;
    }
    double l = 0.0;
    bool pl = false;
    double d2 = hyp2f1_impl(a, b, e, x, &l, &pl);
    double d1 = hyp2f1_impl(a, b, e + 1.0, x, &l, &pl);
    const double q = a + b + 1.0;
    for (int64_t i = 0; i < aid; ++i) {
      const double rr = e - 1.0;
      y = (e * (rr - (2.0 * e - q) * x) * d2 + (e - a) * (e - b) * x * d1) / (e * rr * s);
      e = rr;
      d1 = d2;
      d2 = y;
    }
    *loss = 0.0;
    return y;
  }
  if (neg_int_ca_or_cb) {
    // DLMF 15.8.1 with c-a or c-b a non-positive integer: a polynomial times (1-x)^(c-a-b)
    const double y = std::pow(s, d) * series_2f1(c - a, c - b, c, x, &err);
    *loss = err;
    return y;
  }
  const double y = transformed_2f1(a, b, c, x, &err);
  *loss = err;
  return y;
}

// ---------------------------------------------------------------------------
// hyp0f1

// Gamma(v) (sqrt z)^(1-v) I_{v-1}(2 sqrt z) for large |v - 1| (DLMF 10.41.3, 10.41.10),
// with DLMF 10.27.2 for v < 1.
inline double hyp0f1_asymptotic(double v, double z) {
  const double arg = std::sqrt(z);
  const double v1 = std::fabs(v - 1.0);
  if (v1 == 0.0) {
    return kInf;  // I_0(2 sqrt z) overflowed (SciPy's Cython divides by zero and gives 0)
  }
  const double x = 2.0 * arg / v1;
  const double p1 = std::sqrt(1.0 + x * x);
  const double eta = p1 + std::log(x) - std::log1p(p1);
  int gs = 1;
  const double lg = lgamma_sign(v, &gs);
  double base = -0.5 * std::log(p1) - 0.5 * std::log(2.0 * kPi * v1) + lg;
  const double pp = 1.0 / p1, p2 = pp * pp, p4 = p2 * p2, p6 = p4 * p2;
  const double u1 = (3.0 - 5.0 * p2) * pp / 24.0;
  const double u2 = (81.0 - 462.0 * p2 + 385.0 * p4) * p2 / 1152.0;
  const double u3 = (30375.0 - 369603.0 * p2 + 765765.0 * p4 - 425425.0 * p6) * pp * p2 / 414720.0;
  const double corr_i = 1.0 + u1 / v1 + u2 / (v1 * v1) + u3 / (v1 * v1 * v1);
  const double log_arg = v1 * std::log(arg);
  double result = std::exp(base + v1 * eta - log_arg) * gs * corr_i;
  if (v - 1.0 < 0.0) {
    const double corr_k = 1.0 - u1 / v1 + u2 / (v1 * v1) - u3 / (v1 * v1 * v1);
    result += std::exp(base - v1 * eta + log_arg) * gs * 2.0 * tb_bessel::sinpi(v1) * corr_k;
  }
  return result;
}

inline double hyp0f1(double v, double z) {
  // (no early exit for nan: SciPy's hyp0f1(nan, 0) is 1)
  if (is_nonpositive_integer(v)) {
    return kNan;
  }
  if (z == 0.0) {
    return 1.0;
  }
  if (std::fabs(z) < 1e-6 * (1.0 + std::fabs(v))) {
    return 1.0 + z / v + z * z / (2.0 * v * (v + 1.0));
  }
  if (z > 0.0) {
    const double arg = std::sqrt(z);
    int gs = 1;
    const double lg = lgamma_sign(v, &gs);
    const double log_front = (arg == 0.0 && 1.0 - v == 0.0 ? 0.0 : (1.0 - v) * std::log(arg)) + lg;
    const double bessel = tb_bessel::iv(v - 1.0, 2.0 * arg, false);
    if (log_front > kMaxLog || bessel == 0.0 || log_front < -708.3964185322641 || std::isinf(bessel)) {
      return hyp0f1_asymptotic(v, z);
    }
    return std::exp(log_front) * gs * bessel;
  }
  const double arg = std::sqrt(-z);
  return std::pow(arg, 1.0 - v) * gamma(v) * tb_bessel::jv(v - 1.0, 2.0 * arg, false);
}

// ---------------------------------------------------------------------------
// hyp1f1

// The most terms Kummer's series sums (and steps the recurrence in a takes:
// a polynomial of higher degree takes the series, which stops here).
constexpr double kSeriesTerms = 100000.0;

// Kummer's series summed in long double; `*loss` its estimated relative rounding error.
inline long double series_1f1_ld(double a, double b, double x, double* loss) {
  long double sum = 1.0L, term = 1.0L, largest = 1.0L;
  int64_t k = 0;
  for (; k < kSeriesTerms; ++k) {
    const long double kk = static_cast<long double>(k);
    if (static_cast<long double>(a) + kk == 0.0L) {
      break;  // a polynomial ends (also where b = a, whose next factor is 0/0)
    }
    term *= (static_cast<long double>(a) + kk) * static_cast<long double>(x) /
            ((static_cast<long double>(b) + kk) * (kk + 1.0L));
    sum += term;
    const long double at = term < 0 ? -term : term;
    if (at > largest) {
      largest = at;
    }
    if (term == 0.0L || !std::isfinite(sum)) {
      break;
    }
    const long double as = sum < 0 ? -sum : sum;
    if (at <= 1e-20L * as && kk + 1.0L > std::fabs(a) && kk + 1.0L > x - b) {
      break;
    }
  }
  const long double as = sum < 0 ? -sum : sum;
  *loss = static_cast<double>(5.5e-20L * largest / as) + 1e-19 * static_cast<double>(k);
  return sum;
}

inline double series_1f1(double a, double b, double x, double* loss) {
  return static_cast<double>(series_1f1_ld(a, b, x, loss));
}

// The large-x expansion for x > 0 (DLMF 13.7.2 on the positive real axis, the mean of its
// two sides): M(a, b, x) / Gamma(b) ~ e^x x^(a-b) S1 / Gamma(a) + cos(pi a) x^-a S2 / Gamma(b-a),
// S1 = sum (b-a)_s (1-a)_s / s! x^-s, S2 = sum (a)_s (a-b+1)_s / s! (-x)^-s; `ok` false where
// either sum does not reach 1e-17 before its terms grow.
inline double asymptotic_sum(double p, double q, double z, bool* ok) {
  double sum = 1.0, term = 1.0;
  for (int s = 0; s < 500; ++s) {
    const double next = term * (p + s) * (q + s) / ((s + 1.0) * z);
    if (s > 0 && std::fabs(next) >= std::fabs(term)) {
      *ok = false;
      return sum;
    }
    term = next;
    sum += term;
    if (std::fabs(term) <= 1e-17 * std::fabs(sum)) {
      return sum;
    }
  }
  *ok = false;
  return sum;
}

inline double asymptotic_1f1(double a, double b, double x, double log_scale, bool* ok) {
  *ok = true;
  const double s1 = asymptotic_sum(b - a, 1.0 - a, x, ok);
  const double s2 = asymptotic_sum(a, a - b + 1.0, -x, ok);
  if (!*ok) {
    return kNan;
  }
  int sb = 1, sa = 1, sba = 1;
  const double lb = lgamma_sign(b, &sb);
  double first = 0.0, second = 0.0;
  if (!is_nonpositive_integer(a)) {
    const double la = lgamma_sign(a, &sa);
    first = sb * sa * s1 * std::exp(lb - la + x + log_scale + (a - b) * std::log(x));
  }
  if (!is_nonpositive_integer(b - a)) {
    const double lba = lgamma_sign(b - a, &sba);
    second = sb * sba * tb_bessel::cospi(a) * s2 * std::exp(lb - lba + log_scale - a * std::log(x));
  }
  return first + second;
}

// The recurrence in b (DLMF 13.3.2), backwards from two series at b + n and b + n + 1 where
// they do not cancel: M(a, b, x) is its minimal solution as b grows, so the recurrence
// downwards is stable. For x > 0 and a < 0; nan where it would take over 10^6 steps.
inline double recur_b_1f1(double a, double b, double x) {
  const double steps = std::ceil(std::max(0.0, 2.0 * std::fabs(a) * x - b)) + 2.0;
  if (!(steps < 1e6)) {
    return kNan;
  }
  const long double top = static_cast<long double>(b) + steps;
  const long double la = a, lx = x;
  double loss = 0.0;
  long double cur = series_1f1_ld(a, static_cast<double>(top), x, &loss);
  long double next = series_1f1_ld(a, static_cast<double>(top + 1.0L), x, &loss);
  long double bb = top;
  for (int64_t n = 0; n < static_cast<int64_t>(steps); ++n) {
    const long double prev = (-bb * (1.0L - bb - lx) * cur - lx * (bb - la) * next) / (bb * (bb - 1.0L));
    next = cur;
    cur = prev;
    bb -= 1.0L;
  }
  return static_cast<double>(cur);
}

// e^log_scale M(a, b, x) for x > 0, b not a non-positive integer, a not 0 or a non-positive
// integer.
inline double hyp1f1_positive(double a, double b, double x, double log_scale) {
  if (x > 30.0 + 2.0 * (std::fabs(a) + std::fabs(b))) {
    bool ok = false;
    const double y = asymptotic_1f1(a, b, x, log_scale, &ok);
    if (ok) {
      return y;
    }
  }
  // (in long double, whose range holds the series where e^x alone overflows a double)
  const long double scale = std::exp(static_cast<long double>(log_scale));
  double loss = 0.0;
  const long double y = series_1f1_ld(a, b, x, &loss);
  if (loss < 1e-16 || !std::isfinite(y)) {
    return static_cast<double>(y * scale);
  }
  // the series cancels (a < 0): the recurrence in b
  const double r = recur_b_1f1(a, b, x);
  return static_cast<double>((std::isnan(r) ? y : static_cast<long double>(r)) * scale);
}

inline double hyp1f1(double a, double b, double x) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(x)) {
    return kNan;
  }
  if (is_nonpositive_integer(b)) {
    // a pole unless a negative integer a >= b ends the series first
    if (is_nonpositive_integer(a) && a < 0.0 && a >= b && std::isfinite(x)) {
      double loss = 0.0;
      return series_1f1(a, b, x, &loss);
    }
    return std::isinf(x) ? kNan : kInf;
  }
  if (a == 0.0 || x == 0.0) {
    return 1.0;
  }
  if (std::isinf(a)) {
    return kNan;
  }
  if (std::isinf(b)) {
    return 1.0;
  }
  if (std::isinf(x)) {
    // SciPy's values: the limit where a, b > 0 and a != b (inf, or 0 for x = -inf), nan elsewhere
    if (a > 0.0 && b > 0.0 && a != b) {
      return x > 0 ? kInf : 0.0;
    }
    return kNan;
  }
  if (a == -1.0) {
    return 1.0 - x / b;
  }
  if (a == b) {
    return std::exp(x);
  }
  if (is_nonpositive_integer(a)) {
    if (x > 0.0 && b > 0.0 && a > -kSeriesTerms) {
      // a Laguerre polynomial on its oscillating side, where the series'
      // terms cancel (1e10 against 10 at M(-28; 1; 10): 1e-10 lost even in
      // long double): the three-term recurrence in a (DLMF 13.3.1) instead,
      // forward from M(0) = 1 and M(-1) = 1 - x/b, within 2e-12 of mpmath
      // (SciPy's 2.3e-12) over n < 60, 0 < b < 30, 0 < x < 120
      const double n = -a;
      double previous = 1.0;
      double current = 1.0 - x / b;
      for (double k = 1.0; k < n; k += 1.0) {
        const double next = ((2.0 * k + b - x) * current - k * previous) / (b + k);
        previous = current;
        current = next;
      }
      return current;
    }
    // a polynomial of degree -a, summed in long double
    double loss = 0.0;
    return series_1f1(a, b, x, &loss);
  }
  if (x < 0.0) {
    // Kummer's transformation: e^x M(b-a, b, -x)
    if (is_nonpositive_integer(b - a)) {
      double loss = 0.0;
      return std::exp(x) * series_1f1(b - a, b, -x, &loss);
    }
    double loss = 0.0;
    const double direct = series_1f1(a, b, x, &loss);
    if (loss < 1e-17) {
      return direct;
    }
    return hyp1f1_positive(b - a, b, -x, x);
  }
  return hyp1f1_positive(a, b, x, 0.0);
}

}  // namespace tb_hyper
