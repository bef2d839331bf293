// Hypergeometric functions of complex argument with real parameters, one
// scalar per call: the complex kernels of csrc/hypergeometric.cpp
// (`scipy.special.hyp2f1` 'dddD->D', `hyp1f1` 'ddD->D' and the complex loops
// of the orthogonal polynomials `eval_*`).
//
// hyp2f1(a, b; c; z), SciPy's special values first (nan, a = 0 or b = 0, z = 0,
// c a non-positive integer, the terminating series for a, b, c - a or c - b a
// non-positive integer, z = 1), then the argument among
//   z, 1 - z, 1/z (DLMF 15.8.2, 15.8.4) and, after Pfaff's transformation
//   (1-z)^-a 2F1(a, c-b; c; w), w = z/(z-1) (DLMF 15.8.1), w, 1 - w = 1/(1-z),
//   1/w = 1 - 1/z (DLMF 15.8.3 and its companions)
// of least modulus: the power series in it where that is at most 0.8; the 1-z
// and 1/z transformations take their limiting forms with digamma terms where
// c - a - b or a - b is an integer (DLMF 15.8.10 and 15.8.8; the factors
// 1/Gamma(x) and psi(x)/Gamma(x) run by their recurrences in x, so poles of
// psi cost nothing). Around z = exp(+-i pi/3), where all six moduli exceed
// 0.8, the ODE (DLMF 15.10.1) is continued analytically by Taylor steps from
// |z0| = 1/2 on the ray of z. z with Im z = -0.0 is computed as the conjugate
// of conj(z): on the cut z > 1 +0.0 gives the limit from above, -0.0 from
// below, as SciPy.
//
// hyp1f1(a; b; z): SciPy's special values (b a non-positive integer: inf;
// a = 0 or z = 0: 1; a a non-positive integer: the polynomial), Kummer's
// transformation M(a, b, z) = e^z M(b - a, b, -z) (DLMF 13.2.39) for Re z < 0,
// the large-|z| expansion (DLMF 13.7.2) where it converges to the last bit,
// Kummer's series where its terms do not cancel, and otherwise Taylor steps of
// Kummer's ODE (DLMF 13.2.1) along the ray from |z0| <= 2.
//
// Every series, step count and polynomial degree is capped: past a cap the
// result is nan (huge parameters never hang).

#pragma once

#include "hypergeometric_kernels.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

namespace tb_chyper {

using cd = std::complex<double>;
using tb_hyper::kInf;
using tb_hyper::kNan;
using tb_hyper::kPi;

constexpr double kEps = 1e-17;             // series stop once terms fall below this, relatively
constexpr int64_t kMaxTerms = 20000;       // terms of one series
constexpr int64_t kMaxSteps = 2000;        // Taylor steps of one continuation
constexpr double kMaxDegree = 1048576.0;   // 2^20: longest terminating series summed
constexpr double kSeriesRadius = 0.8;      // power series in arguments of modulus up to this

inline cd cnan() { return {kNan, kNan}; }

inline bool is_nonpositive_integer(double v) { return v <= 0.0 && v == std::floor(v); }

// 1 - x, -x and 1/x with the sign of a zero imaginary part carried as the
// limits from the side of x's zero's sign.
inline cd one_minus(cd x) { return {1.0 - x.real(), -x.imag()}; }
inline cd neg(cd x) { return {-x.real(), -x.imag()}; }
inline cd inv(cd x) {
  if (x.imag() == 0.0) {
    return {1.0 / x.real(), -x.imag()};
  }
  return 1.0 / x;
}

// x^p for real p, 1 for p = 0 (std::pow of a zero base gives nan there).
inline cd cpow(cd x, double p) {
  if (p == 0.0) {
    return 1.0;
  }
  if (x.imag() == 0.0 && x.real() > 0.0) {
    return {std::pow(x.real(), p), 0.0 * x.imag()};
  }
  return std::exp(p * std::log(x));
}

// Gamma(u) Gamma(v) / (Gamma(w) Gamma(x)): 0 for a pole below, nan for one
// above; through the logarithms where the direct products over- or underflow.
inline double gamma_ratio(double u, double v, double w, double x) {
  if (is_nonpositive_integer(u) || is_nonpositive_integer(v)) {
    return kNan;
  }
  if (is_nonpositive_integer(w) || is_nonpositive_integer(x)) {
    return 0.0;
  }
  if (std::fabs(u) < 170.0 && std::fabs(v) < 170.0 && std::fabs(w) < 170.0 && std::fabs(x) < 170.0) {
    const double r = (std::tgamma(u) / std::tgamma(w)) * (std::tgamma(v) / std::tgamma(x));
    if (std::isfinite(r) && r != 0.0) {
      return r;
    }
  }
  int su = 1, sv = 1, sw = 1, sx = 1;
  const double l = tb_hyper::lgamma_sign(u, &su) + tb_hyper::lgamma_sign(v, &sv) - tb_hyper::lgamma_sign(w, &sw) -
                   tb_hyper::lgamma_sign(x, &sx);
  return su * sv * sw * sx * std::exp(l);
}

// psi(x) / Gamma(x), finite at the poles: (-1)^(n+1) n! at x = -n.
inline double psi_rgamma(double x) {
  if (is_nonpositive_integer(x)) {
    const double n = -x;
    if (n > 170.0) {
      return kNan;
    }
    const double f = std::tgamma(n + 1.0);
    return std::fmod(n, 2.0) == 0.0 ? -f : f;
  }
  return tb_hyper::psi(x) * tb_hyper::rgamma(x);
}

// Whether v, a difference of parameters of size `scale`, is an integer up to
// their rounding (as SciPy's 1e-15): the transformations take their limiting
// forms there.
inline bool near_integer(double v, double scale) {
  return std::fabs(v - std::round(v)) <= 4.0 * 2.220446049250313e-16 * std::max(1.0, scale);
}

// ---------------------------------------------------------------------------
// hyp2f1

// The power series sum_k (a)_k (b)_k / ((c)_k k!) z^k (DLMF 15.2.1); *ok false
// where it did not settle within kMaxTerms terms.
inline cd series_2f1(double a, double b, double c, cd z, bool* ok) {
  cd term = 1.0;
  cd sum = 1.0;
  for (int64_t k = 0; k < kMaxTerms; ++k) {
    const double kk = static_cast<double>(k);
    const double ratio_re = (a + kk) * (b + kk) / ((kk + 1.0) * (c + kk));
    term *= ratio_re * z;
    sum += term;
    if (!std::isfinite(sum.real()) || !std::isfinite(sum.imag())) {
      *ok = true;
      return sum;
    }
    const double next = std::fabs((a + kk + 1.0) * (b + kk + 1.0) / ((kk + 2.0) * (c + kk + 1.0))) * std::abs(z);
    if (std::abs(term) <= kEps * std::abs(sum) && next < 1.0 && kk + 1.0 + c > 0.0 && kk + 1.0 + a > 0.0 &&
        kk + 1.0 + b > 0.0) {
      *ok = true;
      return sum;
    }
    if (term == 0.0) {
      *ok = true;
      return sum;
    }
  }
  *ok = false;
  return cnan();
}

// The first n + 1 terms of the series (a terminating one).
inline cd finite_series_2f1(double a, double b, double c, cd z, double n) {
  cd term = 1.0;
  cd sum = 1.0;
  for (double k = 0.0; k < n; k += 1.0) {
    term *= (a + k) * (b + k) / ((k + 1.0) * (c + k)) * z;
    sum += term;
  }
  return sum;
}

// 2F1 by the 1 - z transformation, u = 1 - z (|u| small), DLMF 15.8.4, and
// its limit 15.8.10 for c - a - b = m an integer (m < 0 by Euler's
// transformation first).
inline cd hyp2f1_one_minus(double a, double b, double c, cd z, cd u, bool* ok) {
  double s = c - a - b;
  if (!near_integer(s, std::fabs(a) + std::fabs(b) + std::fabs(c))) {
    bool ok1 = true, ok2 = true;
    const cd f1 = series_2f1(a, b, 1.0 - s, u, &ok1);
    const cd f2 = series_2f1(c - a, c - b, s + 1.0, u, &ok2);
    *ok = ok1 && ok2;
    const double g1 = gamma_ratio(c, s, c - a, c - b);
    const double g2 = gamma_ratio(c, -s, a, b);
    cd out = 0.0;
    if (g1 != 0.0) out += g1 * f1;
    if (g2 != 0.0) out += g2 * cpow(u, s) * f2;
    return out;
  }
  s = std::round(s);
  if (s < 0.0) {
    // Euler: (1-z)^(c-a-b) 2F1(c-a, c-b; c; z), whose c - a' - b' = -s > 0
    return cpow(u, s) * hyp2f1_one_minus(c - a, c - b, c, z, u, ok);
  }
  // DLMF 15.8.10 with m = s >= 0, times Gamma(c):
  // F = Gamma(c) [ sum_{k<m} (a)_k (b)_k (m-k-1)! / (k! Gamma(a+m) Gamma(b+m)) (z-1)^k
  //   - (z-1)^m / (Gamma(a) Gamma(b)) sum_k (a+m)_k (b+m)_k / (k! (k+m)!) (1-z)^k
  //     (log(1-z) - psi(k+1) - psi(k+m+1) + psi(a+k+m) + psi(b+k+m)) ]
  const double m = s;
  const double gc = tb_hyper::gamma(c);
  cd first = 0.0;
  if (m > 0.0) {
    // (m-1)! / (Gamma(a+m) Gamma(b+m)), then term ratio (a+k)(b+k)/((k+1)(m-k-1)) (z-1)
    const cd zm1 = neg(u);
    double t0 = std::tgamma(m) * tb_hyper::rgamma(a + m) * tb_hyper::rgamma(b + m);
    cd term = t0;
    first = term;
    for (double k = 0.0; k + 1.0 < m; k += 1.0) {
      term *= (a + k) * (b + k) / ((k + 1.0) * (m - k - 1.0)) * zm1;
      first += term;
    }
  }
  const cd log_u = std::log(u);
  double dig = -tb_hyper::psi(1.0) - tb_hyper::psi(m + 1.0) + tb_hyper::psi(a + m) + tb_hyper::psi(b + m);
  double coef = tb_hyper::rgamma(a) * tb_hyper::rgamma(b) / std::tgamma(m + 1.0);
  cd power = 1.0;
  cd sum = 0.0;
  *ok = false;
  for (int64_t kk = 0; kk < kMaxTerms; ++kk) {
    const double k = static_cast<double>(kk);
    const cd term = coef * power * (log_u + dig);
    sum += term;
    if (std::abs(term) <= kEps * std::abs(sum) && k > std::fabs(a) + std::fabs(b) + m) {
      *ok = true;
      break;
    }
    if (!std::isfinite(std::abs(sum))) {
      *ok = true;
      break;
    }
    coef *= (a + m + k) * (b + m + k) / ((k + 1.0) * (k + m + 1.0));
    power *= u;
    dig += -1.0 / (k + 1.0) - 1.0 / (k + m + 1.0) + 1.0 / (a + m + k) + 1.0 / (b + m + k);
    if (coef == 0.0) {
      *ok = true;
      break;
    }
  }
  const cd zm1m = (m == 0.0) ? cd(1.0) : std::pow(neg(u), m);
  return gc * (first - zm1m * sum);
}

// 2F1 by the 1/z transformation, DLMF 15.8.2, and its limit 15.8.8 for
// b - a an integer. v = 1/z, mz = -z (signed zeros as the side of z).
inline cd hyp2f1_inverse(double a, double b, double c, cd v, cd mz, bool* ok) {
  double d = b - a;
  if (!near_integer(d, std::fabs(a) + std::fabs(b))) {
    bool ok1 = true, ok2 = true;
    const cd f1 = series_2f1(a, a - c + 1.0, 1.0 - d, v, &ok1);
    const cd f2 = series_2f1(b, b - c + 1.0, 1.0 + d, v, &ok2);
    *ok = ok1 && ok2;
    const double g1 = gamma_ratio(c, d, b, c - a);
    const double g2 = gamma_ratio(c, -d, a, c - b);
    const cd log_mz = std::log(mz);
    cd out = 0.0;
    if (g1 != 0.0) out += g1 * std::exp(-a * log_mz) * f1;
    if (g2 != 0.0) out += g2 * std::exp(-b * log_mz) * f2;
    return out;
  }
  d = std::round(d);
  if (d < 0.0) {
    std::swap(a, b);
  }
  const double m = std::fabs(d);
  // DLMF 15.8.8 (b = a + m), times Gamma(c):
  // F = Gamma(c) (-z)^-a [ 1/Gamma(a+m) sum_{k<m} (a)_k (m-k-1)! / (k! Gamma(c-a-k)) z^-k
  //   + 1/Gamma(a) sum_k (a+m)_k / (k! (k+m)! Gamma(c-a-k-m)) (-1)^k z^(-k-m)
  //     (log(-z) + psi(1+m+k) + psi(1+k) - psi(a+m+k) - psi(c-a-k-m)) ]
  const cd log_mz = std::log(mz);
  cd first = 0.0;
  if (m > 0.0) {
    cd term = std::tgamma(m) * tb_hyper::rgamma(c - a) * tb_hyper::rgamma(a + m);
    first = term;
    for (double k = 0.0; k + 1.0 < m; k += 1.0) {
      // 1/Gamma(c-a-k-1) = (c-a-k-1)/Gamma(c-a-k)
      term *= (a + k) * (c - a - k - 1.0) / ((k + 1.0) * (m - k - 1.0)) * v;
      first += term;
    }
  }
  // U = coef / Gamma(x), V = coef psi(x) / Gamma(x) at x = c - a - m - k, with
  // coef = (a+m)_k / (Gamma(a) k! (k+m)!), by the recurrences of 1/Gamma and
  // psi/Gamma in x (no overflow of the factors apart, no poles)
  double x = c - a - m;
  const double coef0 = tb_hyper::rgamma(a) / std::tgamma(m + 1.0);
  double uu = coef0 * tb_hyper::rgamma(x);
  double vv = coef0 * psi_rgamma(x);
  double dig = tb_hyper::psi(1.0 + m) + tb_hyper::psi(1.0) - tb_hyper::psi(a + m);
  // (-1)^k z^(-k-m), at k = 0 v^m
  cd power = (m == 0.0) ? cd(1.0) : std::pow(v, m);
  cd sum = 0.0;
  *ok = false;
  for (int64_t kk = 0; kk < kMaxTerms; ++kk) {
    const double k = static_cast<double>(kk);
    const cd term = power * ((log_mz + dig) * uu - vv);
    sum += term;
    if (std::abs(term) <= kEps * std::abs(sum) && k > std::fabs(a) + std::fabs(c) + m) {
      *ok = true;
      break;
    }
    if (!std::isfinite(std::abs(sum))) {
      *ok = true;
      break;
    }
    const double alpha = (a + m + k) / ((k + 1.0) * (k + m + 1.0));
    const double xn = x - 1.0;
    vv = alpha * (xn * vv - uu);
    uu = alpha * xn * uu;
    x = xn;
    power *= -v;
    dig += 1.0 / (1.0 + m + k) + 1.0 / (1.0 + k) - 1.0 / (a + m + k);
    if (uu == 0.0 && vv == 0.0) {
      *ok = true;
      break;
    }
  }
  return tb_hyper::gamma(c) * std::exp(-a * log_mz) * (first + sum);
}

// 2F1 at x by the series, the 1 - x or the 1/x transformation: `which` 0, 1, 2.
inline cd hyp2f1_at(double a, double b, double c, cd x, int which, bool* ok) {
  switch (which) {
    case 0: {
      // Euler's transformation where it shrinks the parameters
      if (std::fabs(c - a) + std::fabs(c - b) < std::fabs(a) + std::fabs(b) && c - a - b != 0.0) {
        return cpow(one_minus(x), c - a - b) * series_2f1(c - a, c - b, c, x, ok);
      }
      return series_2f1(a, b, c, x, ok);
    }
    case 1:
      return hyp2f1_one_minus(a, b, c, x, one_minus(x), ok);
    default:
      return hyp2f1_inverse(a, b, c, inv(x), neg(x), ok);
  }
}

// Taylor steps of the hypergeometric ODE z(1-z) w'' + (c - (a+b+1) z) w' - ab w = 0
// from (z0, w, w') to z1 along the segment; *ok false past the caps.
inline cd continue_2f1(double a, double b, double c, cd z0, cd w, cd dw, cd z1, bool* ok) {
  cd zeta = z0;
  for (int64_t step = 0; step < kMaxSteps; ++step) {
    const cd rest = z1 - zeta;
    const double dist = std::abs(rest);
    if (dist == 0.0) {
      *ok = true;
      return w;
    }
    const double radius = std::min(std::abs(zeta), std::abs(one_minus(zeta)));
    double h_len = std::min(dist, 0.5 * radius);
    const cd h = rest * (h_len / dist);
    // coefficients c_k of sum c_k t^k, t = z - zeta
    const cd p0 = zeta * (1.0 - zeta);
    const cd p1 = 1.0 - 2.0 * zeta;
    const cd q0 = c - (a + b + 1.0) * zeta;
    cd ck = w, ck1 = dw;  // c_k, c_{k+1}
    cd hk = 1.0;          // h^k
    cd value = w, deriv = 0.0;
    bool converged = false;
    for (int64_t kk = 0; kk < kMaxTerms; ++kk) {
      const double k = static_cast<double>(kk);
      // add c_{k+1} h^(k+1) and its derivative term
      const cd t1 = ck1 * hk * h;
      value += t1;
      deriv += (k + 1.0) * ck1 * hk;
      const cd ck2 = -((p1 * (k * (k + 1.0)) + q0 * (k + 1.0)) * ck1 - (k + a) * (k + b) * ck) / (p0 * ((k + 1.0) * (k + 2.0)));
      hk *= h;
      ck = ck1;
      ck1 = ck2;
      const double size = std::abs(t1) + std::abs(ck1 * hk * h);
      if (kk > 4 && size <= kEps * std::abs(value) && size <= kEps * std::abs(deriv) * std::abs(h) + kEps * std::abs(value)) {
        converged = true;
        break;
      }
      if (!std::isfinite(std::abs(value))) {
        *ok = false;
        return cnan();
      }
    }
    if (!converged) {
      *ok = false;
      return cnan();
    }
    w = value;
    dw = deriv;
    zeta += h;
    if (h_len == dist) {
      zeta = z1;
    }
  }
  *ok = false;
  return cnan();
}

inline cd hyp2f1(double a, double b, double c, cd z) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(c) || std::isnan(z.real()) || std::isnan(z.imag())) {
    return cnan();
  }
  if (a == 0.0 || b == 0.0) {
    return 1.0;
  }
  if (z == 0.0) {
    return c != 0.0 ? cd(1.0) : cd(kNan, 0.0);
  }
  const bool a_neg = is_nonpositive_integer(a);
  const bool b_neg = is_nonpositive_integer(b);
  const bool c_neg = is_nonpositive_integer(c);
  if (c_neg && !((a_neg && c <= a) || (b_neg && c <= b))) {
    return {kInf, 0.0};
  }
  if (a_neg || b_neg) {
    // the terminating series, stopped at the parameter nearer 0
    const double n = (a_neg && b_neg) ? -std::max(a, b) : (a_neg ? -a : -b);
    if (!(n <= kMaxDegree)) {
      return cnan();
    }
    return finite_series_2f1(a, b, c, z, n);
  }
  const bool ca_neg = is_nonpositive_integer(c - a);
  const bool cb_neg = is_nonpositive_integer(c - b);
  if (ca_neg || cb_neg) {
    // Euler's transformation (DLMF 15.8.1) to a terminating series
    const double n = cb_neg ? -(c - b) : -(c - a);
    if (!(n <= kMaxDegree)) {
      return cnan();
    }
    return cpow(one_minus(z), c - a - b) * finite_series_2f1(c - a, c - b, c, z, n);
  }
  if (std::fabs(1.0 - z.real()) < 1e-15 && z.imag() == 0.0 && c - a - b <= 0.0) {
    return {kInf, 0.0};
  }
  if (z == 1.0) {
    return gamma_ratio(c, c - a - b, c - a, c - b);
  }
  if (!std::isfinite(std::abs(z))) {
    return cnan();
  }
  if (std::signbit(z.imag())) {
    return std::conj(hyp2f1(a, b, c, std::conj(z)));
  }
  // Im z >= +0 from here: the arguments with their zero signs as limits from above
  const cd u = one_minus(z);
  const double az = std::abs(z), au = std::abs(u);
  cd w = z / (z - 1.0);
  if (w.imag() == 0.0) w = {w.real(), -0.0};
  const double moduli[6] = {az, au, 1.0 / az, az / au, 1.0 / au, au / az};
  int best = 0;
  for (int i = 1; i < 6; ++i) {
    if (moduli[i] < moduli[best]) best = i;
  }
  // the plain series where it converges as well (Pfaff's parameters may cancel more)
  if (best == 3 && z.real() >= 0.0 && az <= kSeriesRadius) best = 0;
  bool ok = true;
  if (moduli[best] <= kSeriesRadius) {
    cd out;
    if (best < 3) {
      out = hyp2f1_at(a, b, c, z, best, &ok);
    } else {
      // Pfaff: (1-z)^-a 2F1(a, c-b; c; w), or with a and b exchanged when that is smaller
      double p = a, q = c - b, pre = a;
      if (std::fabs(c - a) + std::fabs(b) < std::fabs(a) + std::fabs(c - b)) {
        p = b;
        q = c - a;
        pre = b;
      }
      out = cpow(u, -pre) * hyp2f1_at(p, q, c, w, best - 3, &ok);
    }
    if (ok) return out;
    return cnan();
  }
  // near exp(+-i pi/3): Taylor steps from z0 = z/(2|z|)
  const cd z0 = z * (0.5 / az);
  bool ok0 = true, ok1 = true;
  const cd w0 = series_2f1(a, b, c, z0, &ok0);
  const cd dw0 = (a * b / c) * series_2f1(a + 1.0, b + 1.0, c + 1.0, z0, &ok1);
  if (!ok0 || !ok1) return cnan();
  const cd out = continue_2f1(a, b, c, z0, w0, dw0, z, &ok);
  return ok ? out : cnan();
}

// ---------------------------------------------------------------------------
// hyp1f1

// Kummer's series with the largest term's modulus in *peak; *ok false past the cap.
inline cd series_1f1(double a, double b, cd z, double* peak, bool* ok) {
  cd term = 1.0, sum = 1.0;
  *peak = 1.0;
  for (int64_t kk = 0; kk < kMaxTerms; ++kk) {
    const double k = static_cast<double>(kk);
    term *= (a + k) / ((b + k) * (k + 1.0)) * z;
    sum += term;
    const double t = std::abs(term);
    *peak = std::max(*peak, t);
    if (t <= kEps * std::abs(sum) && k + 1.0 + b > 0.0 && std::fabs(a + k + 1.0) * std::abs(z) < (k + 2.0) * std::fabs(b + k + 1.0)) {
      *ok = true;
      return sum;
    }
    if (term == 0.0 || !std::isfinite(t)) {
      *ok = true;
      return sum;
    }
  }
  *ok = false;
  return cnan();
}

// DLMF 13.7.2 for Re z >= 0, Im z >= 0 (e^(+i pi a)); *ok where both sums
// reach kEps before their terms grow.
inline cd asymptotic_1f1(double a, double b, cd z, bool* ok) {
  auto sum = [&](double p, double q, cd x, bool* good) {
    cd term = 1.0, s = 1.0;
    double last = 1.0;
    for (int k = 0; k < 400; ++k) {
      term *= (p + k) * (q + k) / (k + 1.0) * x;
      const double t = std::abs(term);
      if (t == 0.0) {
        *good = true;
        return s;
      }
      if (t > last) {
        *good = false;
        return s;
      }
      s += term;
      last = t;
      if (t <= kEps * std::abs(s)) {
        *good = true;
        return s;
      }
    }
    *good = false;
    return s;
  };
  const cd iz = 1.0 / z;
  const cd log_z = std::log(z);
  int sb = 1, sa = 1, sba = 1;
  const double lb = tb_hyper::lgamma_sign(b, &sb);
  cd out = 0.0;
  bool g1 = true, g2 = true;
  if (!is_nonpositive_integer(a)) {
    const double la = tb_hyper::lgamma_sign(a, &sa);
    const cd s1 = sum(1.0 - a, b - a, iz, &g1);
    out += static_cast<double>(sb * sa) * std::exp(lb - la + z + (a - b) * log_z) * s1;
  }
  if (!is_nonpositive_integer(b - a)) {
    const double lba = tb_hyper::lgamma_sign(b - a, &sba);
    const cd s2 = sum(a, a - b + 1.0, -iz, &g2);
    out += static_cast<double>(sb * sba) * std::exp(lb - lba + cd(0.0, kPi * a) - a * log_z) * s2;
  }
  *ok = g1 && g2;
  return out;
}

// Taylor steps of Kummer's ODE z w'' + (b - z) w' - a w = 0 from (z0, w, w') to z1.
inline cd continue_1f1(double a, double b, cd z0, cd w, cd dw, cd z1, bool* ok) {
  cd zeta = z0;
  for (int64_t step = 0; step < kMaxSteps; ++step) {
    const cd rest = z1 - zeta;
    const double dist = std::abs(rest);
    if (dist == 0.0) {
      *ok = true;
      return w;
    }
    const double h_len = std::min({dist, 0.5 * std::abs(zeta), 2.0});
    const cd h = rest * (h_len / dist);
    cd ck = w, ck1 = dw, hk = 1.0, value = w, deriv = 0.0;
    bool converged = false;
    for (int64_t kk = 0; kk < kMaxTerms; ++kk) {
      const double k = static_cast<double>(kk);
      const cd t1 = ck1 * hk * h;
      value += t1;
      deriv += (k + 1.0) * ck1 * hk;
      const cd ck2 = (-(k + b - zeta) * (k + 1.0) * ck1 + (k + a) * ck) / (zeta * ((k + 1.0) * (k + 2.0)));
      hk *= h;
      ck = ck1;
      ck1 = ck2;
      const double size = std::abs(t1) + std::abs(ck1 * hk * h);
      if (kk > 4 && size <= kEps * std::abs(value)) {
        converged = true;
        break;
      }
      if (!std::isfinite(std::abs(value))) {
        *ok = false;
        return cnan();
      }
    }
    if (!converged) {
      *ok = false;
      return cnan();
    }
    w = value;
    dw = deriv;
    zeta = (h_len == dist) ? z1 : zeta + h;
  }
  *ok = false;
  return cnan();
}

inline cd hyp1f1(double a, double b, cd z) {
  if (std::isnan(a) || std::isnan(b) || std::isnan(z.real()) || std::isnan(z.imag())) {
    return cnan();
  }
  if (is_nonpositive_integer(b)) {
    return {kInf, 0.0};
  }
  if (a == 0.0 || z == 0.0) {
    return 1.0;
  }
  if (is_nonpositive_integer(a)) {
    const double n = -a;
    if (!(n <= kMaxDegree)) {
      return cnan();
    }
    cd term = 1.0, sum = 1.0;
    for (double k = 0.0; k < n; k += 1.0) {
      term *= (a + k) / ((b + k) * (k + 1.0)) * z;
      sum += term;
    }
    return sum;
  }
  if (!std::isfinite(std::abs(z))) {
    // SciPy: 0 at -inf + 0j (Kummer's e^z), nan elsewhere
    return (z.real() == -kInf && z.imag() == 0.0) ? cd(0.0, -0.0) : cnan();
  }
  if (std::signbit(z.imag())) {
    return std::conj(hyp1f1(a, b, std::conj(z)));
  }
  if (z.real() < 0.0) {
    // Kummer's transformation
    const cd inner = hyp1f1(b - a, b, neg(z));
    if (std::isinf(inner.real()) && inner.imag() == 0.0) return inner;
    return std::exp(z) * inner;
  }
  const double az = std::abs(z);
  bool ok = true;
  if (az > 20.0) {
    const cd out = asymptotic_1f1(a, b, z, &ok);
    if (ok) return z.imag() == 0.0 ? cd(out.real(), 0.0) : out;
  }
  double peak = 1.0;
  ok = true;
  const cd s = series_1f1(a, b, z, &peak, &ok);
  if (ok && (peak <= 8.0 * std::abs(s) || !std::isfinite(std::abs(s)))) {
    return s;
  }
  // Taylor steps along the ray from |z0| = min(|z|, 2), where the series is good
  const cd z0 = z * (std::min(az, 2.0) / az);
  bool ok0 = true, ok1 = true;
  double pk = 0.0;
  const cd w0 = series_1f1(a, b, z0, &pk, &ok0);
  const cd dw0 = (a / b) * series_1f1(a + 1.0, b + 1.0, z0, &pk, &ok1);
  if (!ok0 || !ok1) return ok ? s : cnan();
  bool ok2 = true;
  const cd out = continue_1f1(a, b, z0, w0, dw0, z, &ok2);
  if (ok2) return z.imag() == 0.0 ? cd(out.real(), 0.0) : out;
  return ok ? s : cnan();
}

// ---------------------------------------------------------------------------
// The orthogonal polynomials of complex argument, SciPy's complex loops
// (`eval_jacobi(n, alpha, beta, z)` ...): SciPy evaluates them for real n as
// binomial factors times hyp2f1 / hyp1f1 of (1 - z)/2 or z. Here too, except
// for integral n in [0, 2^24], finite z and parameters where the polynomial is
// regular (alpha, beta > -1 and so on): there the three-term recurrence in
// complex arithmetic gives the polynomial itself (SciPy's terminating
// hypergeometric sums lose digits to cancellation for large n).

constexpr double kMaxRecurrence = 16777216.0;  // 2^24

inline bool recurrence_degree(double n, cd z) {
  return n >= 0.0 && n <= kMaxRecurrence && n == std::floor(n) && std::isfinite(z.real()) && std::isfinite(z.imag());
}

// The binomial coefficient for real arguments as SciPy's binom: nan for n a
// negative integer, the product formula for integral 0 <= k < 20 (k reduced by
// symmetry), Gamma functions otherwise.
inline double binom(double n, double k) {
  if (n < 0.0 && n == std::floor(n)) return kNan;
  if (k == std::floor(k) && (std::fabs(n) > 1e-8 || n == 0.0)) {
    double kx = k;
    if (n == std::floor(n) && kx > n / 2.0 && n > 0.0) kx = n - kx;
    if (kx >= 0.0 && kx < 20.0) {
      double num = 1.0, den = 1.0;
      for (double i = 1.0; i <= kx; i += 1.0) {
        num *= i + n - kx;
        den *= i;
        if (std::fabs(num) > 1e50) {
          num /= den;
          den = 1.0;
        }
      }
      return num / den;
    }
  }
  return gamma_ratio(n + 1.0, 1.0, k + 1.0, n - k + 1.0);
}

// Gamma(x) with SciPy's values at the poles: nan at the negative integers,
// +-inf at +-0.
inline double scipy_gamma(double x) {
  if (x == 0.0) return std::copysign(kInf, x);
  if (x < 0.0 && x == std::floor(x)) return kNan;
  return std::tgamma(x);
}

// (1 - z)/2 as SciPy forms it: a zero imaginary part is +0 (the upper side).
inline cd half_one_minus(cd z) { return {0.5 * (1.0 - z.real()), 0.5 * (0.0 - z.imag())}; }

inline cd eval_jacobi(double n, double alpha, double beta, cd z) {
  if (recurrence_degree(n, z) && alpha > -1.0 && beta > -1.0) {
    if (n == 0.0) return 1.0;
    const double ab = alpha + beta;
    cd p0 = 1.0;
    cd p1 = 0.5 * (2.0 * (alpha + 1.0) + (ab + 2.0) * (z - 1.0));
    for (double k = 1.0; k < n; k += 1.0) {
      // DLMF 18.9.2
      const double t = 2.0 * k + ab;
      const double a1 = 2.0 * (k + 1.0) * (k + ab + 1.0) * t;
      const cd a2 = (t + 1.0) * (t * (t + 2.0) * z + alpha * alpha - beta * beta);
      const double a3 = 2.0 * (k + alpha) * (k + beta) * (t + 2.0);
      const cd p2 = (a2 * p1 - a3 * p0) / a1;
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  return binom(n + alpha, n) * hyp2f1(-n, n + alpha + beta + 1.0, alpha + 1.0, half_one_minus(z));
}

inline cd eval_gegenbauer(double n, double alpha, cd z) {
  if (recurrence_degree(n, z) && alpha > -0.5 && alpha != 0.0 && n + 2.0 * alpha < 170.0) {
    if (n == 0.0) return 1.0;
    cd p0 = 1.0, p1 = 2.0 * alpha * z;
    for (double k = 1.0; k < n; k += 1.0) {
      // DLMF 18.9.1: (k+1) C_{k+1} = 2 (k + alpha) z C_k - (k + 2 alpha - 1) C_{k-1}
      const cd p2 = (2.0 * (k + alpha) * z * p1 - (k + 2.0 * alpha - 1.0) * p0) / (k + 1.0);
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  const double d = scipy_gamma(n + 2.0 * alpha) / scipy_gamma(1.0 + n) / scipy_gamma(2.0 * alpha);
  return d * hyp2f1(-n, n + 2.0 * alpha, alpha + 0.5, half_one_minus(z));
}

inline cd eval_genlaguerre(double n, double alpha, cd z) {
  if (alpha <= -1.0) return {kNan, 0.0};
  if (recurrence_degree(n, z) && alpha > -1.0) {
    if (n == 0.0) return 1.0;
    cd p0 = 1.0, p1 = 1.0 + alpha - z;
    for (double k = 1.0; k < n; k += 1.0) {
      // DLMF 18.9.13: (k+1) L_{k+1} = (2k + 1 + alpha - z) L_k - (k + alpha) L_{k-1}
      const cd p2 = ((2.0 * k + 1.0 + alpha - z) * p1 - (k + alpha) * p0) / (k + 1.0);
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  return binom(n + alpha, n) * hyp1f1(-n, alpha + 1.0, z);
}

inline cd eval_chebyt(double n, cd z) {
  if (recurrence_degree(n, z)) {
    if (n == 0.0) return 1.0;
    cd p0 = 1.0, p1 = z;
    for (double k = 1.0; k < n; k += 1.0) {
      const cd p2 = 2.0 * z * p1 - p0;
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  return hyp2f1(-n, n, 0.5, half_one_minus(z));
}

inline cd eval_chebyu(double n, cd z) {
  if (recurrence_degree(n, z)) {
    if (n == 0.0) return 1.0;
    cd p0 = 1.0, p1 = 2.0 * z;
    for (double k = 1.0; k < n; k += 1.0) {
      const cd p2 = 2.0 * z * p1 - p0;
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  return (n + 1.0) * hyp2f1(-n, n + 2.0, 1.5, half_one_minus(z));
}

inline cd eval_legendre(double n, cd z) {
  if (recurrence_degree(n, z)) {
    if (n == 0.0) return 1.0;
    cd p0 = 1.0, p1 = z;
    for (double k = 1.0; k < n; k += 1.0) {
      const cd p2 = ((2.0 * k + 1.0) * z * p1 - k * p0) / (k + 1.0);
      p0 = p1;
      p1 = p2;
    }
    return p1;
  }
  return hyp2f1(-n, n + 1.0, 1.0, half_one_minus(z));
}

// 2z - 1 as SciPy forms it (its zero imaginary part keeps z's sign).
inline cd shifted(cd z) { return {2.0 * z.real() - 1.0, 2.0 * z.imag()}; }

}  // namespace tb_chyper
