// Bessel functions of real order and real argument, one scalar per call:
// the kernels of csrc/bessel.cpp (`scipy.special.jv`, `yv`, `iv`, `kv`, their
// exponentially scaled forms and `yn`).
//
// For order nu >= 0 and 0 < x < inf:
// - x > max(25, nu^2): Hankel's asymptotic expansions (DLMF 10.17.3-4 for J
//   and Y, 10.40.1-2 for I and K), summed to 1e-17; the phase
//   x - (nu/2 + 1/4) pi enters through sin x, cos x of the exact argument and
//   sin, cos of (nu/2 + 1/4) pi reduced exactly, so no digits are lost to the
//   rounding of a large phase.
// - otherwise Temme's method as Numerical Recipes' `bessjy` / `bessik`
//   (Temme 1975, 1976; Barnett's and Steed's continued fractions): the
//   ratio J'_nu / J_nu (I'_nu / I_nu) by the continued fraction CF1 (Lentz),
//   Miller's backward recurrence down to mu = nu - n with |mu| <= 1/2 (rescaled
//   so that it never overflows), then J_mu, Y_mu (I_mu, K_mu) by Temme's series
//   for x < 2 or by Steed's complex continued fraction CF2 (Temme's for K)
//   beyond, normalised by the Wronskian, and Y (K) recurred forward to nu.
//   Temme's gamma terms 1/Gamma(1 +- mu) come from the Taylor series of
//   1/Gamma(1 + u) (coefficients computed with mpmath), not from a Chebyshev
//   fit, so they are good to the last bit.
// - where (x/2)^nu / Gamma(nu + 1) (times e^x for I) is below 1e-347, J and I
//   underflow: J = I = 0, Y = -inf, K = inf, without the recurrences.
// Negative orders by the reflection formulas (DLMF 10.4.7-8, 10.27.2-3), with
// sin(pi nu) and cos(pi nu) exact at integers and half-integers.

#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace tb_bessel {

constexpr double kPi = 3.14159265358979323846;
constexpr double kEps = 1.1102230246251565e-16;  // 2^-53
constexpr double kFpMin = 1e-300;
constexpr double kRescale = 1e250;
constexpr double kRescale2 = 0x1p830;
constexpr int64_t kMaxIter = 10000000;
// Orders beyond this many recurrence steps from the computed ones give nan (no uniform
// asymptotic expansion here): only where neither the Hankel expansion nor underflow applies.
constexpr double kMaxSteps = 1e7;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// sin(pi v), exact 0 at integers and +-1 at half-integers.
inline double sinpi(double v) {
  double r = std::fmod(v, 2.0);  // exact, in (-2, 2)
  if (r > 1.0) {
    r -= 2.0;
  } else if (r < -1.0) {
    r += 2.0;
  }
  if (r > 0.5) {
    r = 1.0 - r;
  } else if (r < -0.5) {
    r = -1.0 - r;
  }
  return std::sin(kPi * r);
}

// cos(pi v), exact 0 at half-integers and +-1 at integers.
inline double cospi(double v) {
  double r = std::fmod(std::fabs(v), 2.0);  // [0, 2)
  if (r > 1.0) {
    r = 2.0 - r;
  }
  if (r <= 0.25) {
    return std::cos(kPi * r);
  }
  if (r <= 0.75) {
    return std::sin(kPi * (0.5 - r));
  }
  return -std::cos(kPi * (1.0 - r));
}

inline bool is_integer(double v) { return std::isfinite(v) && v == std::floor(v); }

// (-1)^v for an integer v.
inline bool is_odd(double v) { return std::fmod(v, 2.0) != 0.0; }

// m 2^pow2 e^ex without an intermediate overflow or underflow where the result is
// representable: e^ex = 2^k e^r with ln 2 split as fdlibm's (Cody and Waite), so that the
// reduction is exact to the last bit for |ex| < 2^20.
inline double scale_result(double m, int64_t pow2, double ex) {
  if (m == 0.0 || !std::isfinite(m)) {
    return m;
  }
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const double k = std::nearbyint(ex / 0.69314718055994530942);
  const double r = (ex - k * kLn2Hi) - k * kLn2Lo;
  int e = 0;
  const double f = std::frexp(m, &e);
  const double total = static_cast<double>(e) + static_cast<double>(pow2) + k;
  if (total > 4000.0) {
    return std::copysign(kInf, m);
  }
  if (total < -4000.0) {
    return std::copysign(0.0, m);
  }
  return std::ldexp(f * std::exp(r), static_cast<int>(total));
}

// I_nu(x) for nu >= 0, 0 < x < 2 by its power series (DLMF 10.25.2): positive terms, so
// relative accuracy everywhere (the Wronskian loses digits at tiny x for mu = -1/2).
inline double i_series(double nu, double x) {
  double front;
  if (nu < 170.0) {
    front = std::pow(0.5 * x, nu) / std::tgamma(nu + 1.0);
  } else {
    front = std::exp(nu * std::log(0.5 * x) - std::lgamma(nu + 1.0));
  }
  const double q = 0.25 * x * x;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 200; ++k) {
    term *= q / (static_cast<double>(k) * (nu + static_cast<double>(k)));
    sum += term;
    if (term < 0.5 * kEps * sum) {
      break;
    }
  }
  return front * sum;
}

// Temme's gamma terms for |mu| <= 1/2: gam1 = (1/Gamma(1-mu) - 1/Gamma(1+mu)) / (2 mu),
// gam2 = (1/Gamma(1-mu) + 1/Gamma(1+mu)) / 2, gampl = 1/Gamma(1+mu), gammi = 1/Gamma(1-mu).
inline void temme_gammas(double mu, double* gam1, double* gam2, double* gampl, double* gammi) {
  // 1/Gamma(1 + u) = sum c_k u^k (mpmath, 40 digits)
  static constexpr double c[31] = {
      1.0,
      0.5772156649015329,
      -0.6558780715202539,
      -0.04200263503409524,
      0.16653861138229148,
      -0.04219773455554433,
      -0.009621971527876973,
      0.0072189432466631,
      -0.0011651675918590652,
      -0.00021524167411495098,
      0.0001280502823881162,
      -2.013485478078824e-05,
      -1.2504934821426706e-06,
      1.133027231981696e-06,
      -2.056338416977607e-07,
      6.116095104481416e-09,
      5.002007644469223e-09,
      -1.18127457048702e-09,
      1.0434267116911005e-10,
      7.782263439905071e-12,
      -3.696805618642206e-12,
      5.100370287454476e-13,
      -2.0583260535665066e-14,
      -5.348122539423018e-15,
      1.2267786282382608e-15,
      -1.1812593016974588e-16,
      1.1866922547516004e-18,
      1.4123806553180319e-18,
      -2.29874568443537e-19,
      1.7144063219273374e-20,
      1.337351730493693e-22,
  };
  const double m2 = mu * mu;
  double even = 0.0;
  double odd = 0.0;
  for (int k = 30; k >= 0; k -= 2) {
    even = even * m2 + c[k];
  }
  for (int k = 29; k >= 1; k -= 2) {
    odd = odd * m2 + c[k];
  }
  *gampl = even + mu * odd;
  *gammi = even - mu * odd;
  *gam1 = -odd;
  *gam2 = even;
}

// Hankel's expansions P, Q (sum_k (-1)^k a_2k / x^2k, sum_k (-1)^k a_2k+1 / x^2k+1) for
// J and Y, or S = sum_k a_k / x^k, A = sum_k (-1)^k a_k / x^k for K and I.
inline void hankel_sums(double nu, double x, double* p, double* q, double* s_k, double* s_i) {
  const double mu = 4.0 * nu * nu;
  double t = 1.0;
  double pp = 1.0, qq = 0.0, sk = 1.0, si = 1.0;
  for (int k = 1; k < 400; ++k) {
    const double odd = 2.0 * k - 1.0;
    const double next = t * ((mu - odd * odd) / (8.0 * k * x));
    if (std::fabs(next) > std::fabs(t) && k > 2) {
      break;  // the asymptotic series' smallest term (never met above 25 and nu^2)
    }
    t = next;
    sk += t;
    si += (k % 2 == 1) ? -t : t;
    if (k % 2 == 1) {
      qq += (((k - 1) / 2) % 2 == 0) ? t : -t;
    } else {
      pp += ((k / 2) % 2 == 1) ? -t : t;
    }
    if (std::fabs(t) < 1e-17 * std::min(1.0, std::fabs(sk))) {
      break;
    }
  }
  *p = pp;
  *q = qq;
  *s_k = sk;
  *s_i = si;
}

inline bool use_hankel(double nu, double x) { return x > 25.0 && x > nu * nu; }

// J_nu(x) for nu >= 0, 0 < x < 2 by its power series (DLMF 10.2.2): alternating, but the
// sum of the terms' magnitudes is I_nu(x) <= 2.3 J_nu's scale, so under one digit is lost.
inline double j_series(double nu, double x) {
  double front;
  if (nu < 170.0) {
    front = std::pow(0.5 * x, nu) / std::tgamma(nu + 1.0);
  } else {
    front = std::exp(nu * std::log(0.5 * x) - std::lgamma(nu + 1.0));
  }
  const double q = -0.25 * x * x;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 200; ++k) {
    term *= q / (static_cast<double>(k) * (nu + static_cast<double>(k)));
    sum += term;
    if (std::fabs(term) < 0.25 * kEps * std::fabs(sum)) {
      break;
    }
  }
  return front * sum;
}

// Y_nu from Y_mu, Y_mu+1 by the forward recurrence (stable for Y) over n steps.
inline double y_forward(double mu, double x, int64_t n, double y0, double y1) {
  for (int64_t i = 1; i <= n; ++i) {
    const double y2 = ((mu + static_cast<double>(i)) * 2.0) * y1 / x - y0;
    y0 = y1;
    y1 = y2;
    if (std::isinf(y0)) {
      break;
    }
  }
  return y0;
}

// K_nu from K_mu, K_mu+1 by the forward recurrence, rescaled by 2^-830 (counted in *count).
inline double k_forward(double mu, double x, int64_t n, double k0, double k1, int64_t* count) {
  for (int64_t i = 1; i <= n; ++i) {
    const double k2 = ((mu + static_cast<double>(i)) * 2.0) * k1 / x + k0;
    k0 = k1;
    k1 = k2;
    if (std::fabs(k1) > kRescale2) {
      k0 = std::ldexp(k0, -830);
      k1 = std::ldexp(k1, -830);
      ++*count;
    }
  }
  return k0;
}

// J_nu(x), Y_nu(x) for nu >= 0, 0 < x < 2: J by its series, Y_mu and Y_mu+1 (|mu| <= 1/2) by
// Temme's series (Temme 1975; Numerical Recipes' bessjy), then the forward recurrence.
inline void jy_small(double nu, double x, double* jv, double* yv) {
  *jv = j_series(nu, x);
  const int64_t nl = static_cast<int64_t>(nu + 0.5);
  const double xmu = nu - static_cast<double>(nl);
  const double xmu2 = xmu * xmu;
  const double x2 = 0.5 * x, pimu = kPi * xmu;
  const double fact = std::fabs(pimu) < kEps ? 1.0 : pimu / std::sin(pimu);
  const double dd = 0.69314718055994530942 - std::log(x);  // -log(x/2), also for subnormal x
  double e = xmu * dd;
  const double fact2 = std::fabs(e) < kEps ? 1.0 : std::sinh(e) / e;
  double gam1, gam2, gampl, gammi;
  temme_gammas(xmu, &gam1, &gam2, &gampl, &gammi);
  double ff = 2.0 / kPi * fact * (gam1 * std::cosh(e) + gam2 * fact2 * dd);
  e = std::exp(e);
  double p = e / (gampl * kPi);
  double q = 1.0 / (e * kPi * gammi);
  const double pimu2 = 0.5 * pimu;
  const double fact3 = std::fabs(pimu2) < kEps ? 1.0 : std::sin(pimu2) / pimu2;
  const double r = kPi * pimu2 * fact3 * fact3;
  double cc = 1.0;
  const double d2 = -x2 * x2;
  double sum = ff + r * q, sum1 = p;
  for (int i = 1; i < 1000; ++i) {
    const double di = i;
    ff = (di * ff + p + q) / (di * di - xmu2);
    cc *= d2 / di;
    p /= (di - xmu);
    q /= (di + xmu);
    const double del = cc * (ff + r * q);
    sum += del;
    const double del1 = cc * p - di * del;
    sum1 += del1;
    if (std::fabs(del) <= 0.25 * kEps * std::fabs(sum) && std::fabs(del1) <= 0.25 * kEps * std::fabs(sum1)) {
      break;
    }
  }
  const double ymu = -sum;
  const double ymu1 = -(sum1 * 2.0) / x;
  *yv = y_forward(xmu, x, nl, ymu, ymu1);
}

// K_nu(x) 2^(-830 *count) for nu >= 0, 0 < x < 2: K_mu, K_mu+1 (|mu| <= 1/2) by Temme's series
// (Temme 1975; Numerical Recipes' bessik), then the forward recurrence.
inline double k_small(double nu, double x, int64_t* count) {
  const int64_t nl = static_cast<int64_t>(nu + 0.5);
  const double xmu = nu - static_cast<double>(nl);
  const double xmu2 = xmu * xmu;
  const double x2 = 0.5 * x, pimu = kPi * xmu;
  const double fact = std::fabs(pimu) < kEps ? 1.0 : pimu / std::sin(pimu);
  const double dd = 0.69314718055994530942 - std::log(x);  // -log(x/2), also for subnormal x
  double e = xmu * dd;
  const double fact2 = std::fabs(e) < kEps ? 1.0 : std::sinh(e) / e;
  double gam1, gam2, gampl, gammi;
  temme_gammas(xmu, &gam1, &gam2, &gampl, &gammi);
  double ff = fact * (gam1 * std::cosh(e) + gam2 * fact2 * dd);
  double sum = ff;
  e = std::exp(e);
  double p = 0.5 * e / gampl;
  double q = 0.5 / (e * gammi);
  double cc = 1.0;
  const double d2 = x2 * x2;
  double sum1 = p;
  for (int i = 1; i < 1000; ++i) {
    const double di = i;
    ff = (di * ff + p + q) / (di * di - xmu2);
    cc *= d2 / di;
    p /= (di - xmu);
    q /= (di + xmu);
    const double del = cc * ff;
    sum += del;
    const double del1 = cc * (p - di * ff);
    sum1 += del1;
    if (std::fabs(del) <= 0.25 * kEps * std::fabs(sum) && std::fabs(del1) <= 0.25 * kEps * std::fabs(sum1)) {
      break;
    }
  }
  return k_forward(xmu, x, nl, sum, (sum1 * 2.0) / x, count);
}

// J_nu(x), Y_nu(x) by Hankel's expansion (x > 25, x > nu^2 / 2).
inline void jy_hankel(double nu, double x, double* jv, double* yv) {
  double p, q, sk, si;
  hankel_sums(nu, x, &p, &q, &sk, &si);
  const double phase = 0.5 * nu + 0.25;
  const double cp = cospi(phase), sp = sinpi(phase);
  const double sx = std::sin(x), cx = std::cos(x);
  const double cchi = cx * cp + sx * sp;  // cos(x - phase pi)
  const double schi = sx * cp - cx * sp;  // sin(x - phase pi)
  const double amp = std::sqrt(2.0 / (kPi * x));
  *jv = amp * (p * cchi - q * schi);
  *yv = amp * (p * schi + q * cchi);
}

// J_nu(x), Y_nu(x) for nu >= 0, 0 < x < inf.
inline void jy(double nu, double x, double* jv, double* yv) {
  if (x > 25.0 && x > 0.5 * nu * nu) {
    jy_hankel(nu, x, jv, yv);
    return;
  }
  if (x > 25.0 && x >= nu) {
    // below the turning point: Hankel's expansion at mu, mu + 1 (mu = nu - floor(nu)), then the
    // forward recurrence, neutrally stable for J and Y while the order stays below x (Steed's CF1
    // would take ~x steps here and lose ~x ulps of the modulus)
    const double n = std::floor(nu);
    if (n > kMaxSteps) {
      *jv = *yv = kNan;
      return;
    }
    const double mu = nu - n;
    double j0, y0, j1, y1;
    jy_hankel(mu, x, &j0, &y0);
    if (n == 0.0) {
      *jv = j0;
      *yv = y0;
      return;
    }
    jy_hankel(mu + 1.0, x, &j1, &y1);
    const double two_over_x = 2.0 / x;
    for (double k = 1.0; k < n; k += 1.0) {
      const double order = mu + k;
      const double j2 = order * two_over_x * j1 - j0;
      const double y2 = order * two_over_x * y1 - y0;
      j0 = j1;
      j1 = j2;
      y0 = y1;
      y1 = y2;
    }
    *jv = j1;
    *yv = y1;
    return;
  }
  if (nu > 1.0 && nu * std::log(0.5 * x) - std::lgamma(nu + 1.0) < -800.0) {
    *jv = 0.0;
    *yv = -kInf;
    return;
  }
  if (x < 2.0) {
    jy_small(nu, x, jv, yv);
    return;
  }
  if (nu - x > kMaxSteps) {
    *jv = *yv = kNan;
    return;
  }
  const int64_t nl = std::max<int64_t>(0, static_cast<int64_t>(nu - x + 1.5));
  const double xmu = nu - static_cast<double>(nl);
  const double xmu2 = xmu * xmu;
  const double xi = 1.0 / x, xi2 = 2.0 * xi, w = xi2 / kPi;
  // CF1: J'_nu / J_nu (modified Lentz), and the sign of J_nu
  int isign = 1;
  double h = nu * xi;
  if (h < kFpMin) {
    h = kFpMin;
  }
  double b = xi2 * nu, d = 0.0, c = h;
  for (int64_t i = 1; i <= kMaxIter; ++i) {
    b += xi2;
    d = b - d;
    if (std::fabs(d) < kFpMin) {
      d = kFpMin;
    }
    c = b - 1.0 / c;
    if (std::fabs(c) < kFpMin) {
      c = kFpMin;
    }
    d = 1.0 / d;
    const double del = c * d;
    h *= del;
    if (d < 0.0) {
      isign = -isign;
    }
    if (std::fabs(del - 1.0) < kEps) {
      break;
    }
  }
  // Miller's recurrence down to mu, rescaled before it overflows
  double rjl = isign, rjpl = h * rjl, rjl1 = rjl;
  for (int64_t l = nl; l >= 1; --l) {
    const double nul = xmu + static_cast<double>(l);
    const double rjtemp = nul * xi * rjl + rjpl;
    rjpl = (nul - 1.0) * xi * rjtemp - rjl;
    rjl = rjtemp;
    if (std::fabs(rjl) > kRescale) {
      rjl /= kRescale;
      rjpl /= kRescale;
      rjl1 /= kRescale;
    }
  }
  if (rjl == 0.0) {
    rjl = kEps;
  }
  const double f = rjpl / rjl;
  double rjmu, rymu, ry1;
  {
    // Steed's CF2: p + i q = (J'_mu + i Y'_mu) / (J_mu + i Y_mu)
    double a = 0.25 - xmu2, p = -0.5 * xi, q = 1.0;
    const double br = 2.0 * x;
    double bi = 2.0;
    double fact = a * xi / (p * p + q * q);
    double cr = br + q * fact, ci = bi + p * fact;
    double den = br * br + bi * bi;
    double dr = br / den, di = -bi / den;
    double dlr = cr * dr - ci * di, dli = cr * di + ci * dr;
    double temp = p * dlr - q * dli;
    q = p * dli + q * dlr;
    p = temp;
    for (int64_t i = 2; i <= kMaxIter; ++i) {
      a += 2.0 * static_cast<double>(i - 1);
      bi += 2.0;
      dr = a * dr + br;
      di = a * di + bi;
      if (std::fabs(dr) + std::fabs(di) < kFpMin) {
        dr = kFpMin;
      }
      fact = a / (cr * cr + ci * ci);
      cr = br + cr * fact;
      ci = bi - ci * fact;
      if (std::fabs(cr) + std::fabs(ci) < kFpMin) {
        cr = kFpMin;
      }
      den = dr * dr + di * di;
      dr /= den;
      di = -di / den;
      dlr = cr * dr - ci * di;
      dli = cr * di + ci * dr;
      temp = p * dlr - q * dli;
      q = p * dli + q * dlr;
      p = temp;
      if (std::fabs(dlr - 1.0) + std::fabs(dli) < kEps) {
        break;
      }
    }
    const double gam = (p - f) / q;
    rjmu = std::copysign(std::sqrt(w / ((p - f) * gam + q)), rjl);
    rymu = rjmu * gam;
    const double rymup = rymu * (p + q / gam);
    ry1 = xmu * xi * rymu - rymup;
  }
  *jv = rjl1 * (rjmu / rjl);
  *yv = y_forward(xmu, x, nl, rymu, ry1);
}

// I_nu(x), K_nu(x) for nu >= 0, 0 < x < inf; scaled: e^-x I_nu(x), e^x K_nu(x).
inline void ik(double nu, double x, bool scaled, double* iv, double* kv) {
  if (use_hankel(nu, x)) {
    double p, q, sk, si;
    hankel_sums(nu, x, &p, &q, &sk, &si);
    const double is = si / std::sqrt(2.0 * kPi * x);
    const double ks = sk * std::sqrt(kPi / (2.0 * x));
    if (scaled) {
      *iv = is;
      *kv = ks;
    } else {
      *iv = scale_result(is, 0, x);
      *kv = scale_result(ks, 0, -x);
    }
    return;
  }
  const double log_bound = nu * std::log(0.5 * x) - std::lgamma(nu + 1.0) + (scaled ? 0.0 : x);
  if (nu > 1.0 && log_bound < -800.0) {
    *iv = 0.0;
    *kv = kInf;
    return;
  }
  if (nu > kMaxSteps) {
    *iv = *kv = kNan;
    return;
  }
  if (x < 2.0) {
    *iv = scaled ? i_series(nu, x) * std::exp(-x) : i_series(nu, x);
    int64_t kcount = 0;
    const double k = k_small(nu, x, &kcount);
    *kv = scale_result(k, 830 * kcount, scaled ? x : 0.0);
    return;
  }
  const int64_t nl = static_cast<int64_t>(nu + 0.5);
  const double xmu = nu - static_cast<double>(nl);
  const double xmu2 = xmu * xmu;
  const double xi = 1.0 / x, xi2 = 2.0 * xi;
  // CF1: I'_nu / I_nu
  double h = nu * xi;
  if (h < kFpMin) {
    h = kFpMin;
  }
  double b = xi2 * nu, d = 0.0, c = h;
  for (int64_t i = 1; i <= kMaxIter; ++i) {
    b += xi2;
    d = 1.0 / (b + d);
    c = b + 1.0 / c;
    const double del = c * d;
    h *= del;
    if (std::fabs(del - 1.0) < kEps) {
      break;
    }
  }
  // Miller's recurrence down to mu; I_nu / I_mu = 1 / (ril 2^(830 icount))
  double ril = 1.0, ripl = h;
  int64_t icount = 0;
  for (int64_t l = nl; l >= 1; --l) {
    const double nul = xmu + static_cast<double>(l);
    const double ritemp = nul * xi * ril + ripl;
    ripl = (nul - 1.0) * xi * ritemp + ril;
    ril = ritemp;
    if (std::fabs(ril) > kRescale2) {
      ril = std::ldexp(ril, -830);
      ripl = std::ldexp(ripl, -830);
      ++icount;
    }
  }
  const double f = ripl / ril;
  double rkmu, rk1;
  {
    // Temme's CF2 (Steed's algorithm) for e^x K_mu, e^x K_mu+1
    double bb = 2.0 * (1.0 + x);
    double dd = 1.0 / bb;
    double hh = dd, delh = dd;
    double q1 = 0.0, q2 = 1.0;
    const double a1 = 0.25 - xmu2;
    double q = a1, cc = a1, a = -a1;
    double s = 1.0 + q * delh;
    for (int64_t i = 2; i <= kMaxIter; ++i) {
      a -= 2.0 * static_cast<double>(i - 1);
      cc = -a * cc / static_cast<double>(i);
      const double qnew = (q1 - bb * q2) / a;
      q1 = q2;
      q2 = qnew;
      q += cc * qnew;
      bb += 2.0;
      dd = 1.0 / (bb + a * dd);
      delh = (bb * dd - 1.0) * delh;
      hh += delh;
      const double dels = q * delh;
      s += dels;
      if (std::fabs(dels / s) < 0.5 * kEps) {
        break;
      }
    }
    hh = a1 * hh;
    rkmu = std::sqrt(kPi / (2.0 * x)) / s;
    rk1 = rkmu * (xmu + x + 0.5 - hh) * xi;
  }
  const double rkmup = xmu * xi * rkmu - rk1;
  const double rimu = xi / (f * rkmu - rkmup);  // scaled as K is, inversely
  const double imant = rimu / ril;
  int64_t kcount = 0;
  rkmu = k_forward(xmu, x, nl, rkmu, rk1, &kcount);
  *iv = scale_result(imant, -830 * icount, scaled ? 0.0 : x);
  *kv = scale_result(rkmu, 830 * kcount, scaled ? 0.0 : -x);
}

// The routines, with SciPy's special values (x = 0, x < 0, infinities).
enum Kind : int64_t { kJv = 0, kYv = 1, kIv = 2, kKv = 3, kJve = 4, kYve = 5, kIve = 6, kKve = 7, kYn = 8 };

inline double jv(double v, double x, bool scaled_form) {
  if (std::isnan(v) || std::isnan(x) || std::isinf(x)) {
    return kNan;
  }
  const bool vint = is_integer(v);
  if (x < 0.0) {
    if (!vint) {
      return kNan;
    }
    const double r = jv(v, -x, scaled_form);
    return is_odd(v) ? -r : r;
  }
  if (std::isinf(v)) {
    return scaled_form ? kNan : 0.0;
  }
  if (x == 0.0) {
    if (v == 0.0) {
      return 1.0;
    }
    if (vint) {
      return (v < 0.0 && is_odd(v)) ? -0.0 : 0.0;
    }
    if (v > 0.0) {
      return 0.0;
    }
    return scaled_form ? kNan : kInf;
  }
  const double nu = std::fabs(v);
  double j, y;
  jy(nu, x, &j, &y);
  if (v >= 0.0) {
    return j;
  }
  if (vint) {
    return is_odd(nu) ? -j : j;
  }
  const double s = sinpi(nu), c = cospi(nu);
  return (c == 0.0 ? 0.0 : c * j) - s * y;
}

inline double yv(double v, double x, bool scaled_form) {
  if (std::isnan(v) || std::isnan(x) || x < 0.0) {
    return kNan;
  }
  const bool vint = is_integer(v);
  if (x == 0.0) {
    if (scaled_form) {
      return kNan;
    }
    return (vint && v < 0.0 && is_odd(v)) ? kInf : -kInf;
  }
  if (std::isinf(x) || std::isinf(v)) {
    return kNan;
  }
  const double nu = std::fabs(v);
  double j, y;
  jy(nu, x, &j, &y);
  if (v >= 0.0) {
    return y;
  }
  if (vint) {
    return is_odd(nu) ? -y : y;
  }
  const double s = sinpi(nu), c = cospi(nu);
  return s * j + (c == 0.0 ? 0.0 : c * y);
}

inline double iv(double v, double x, bool scaled) {
  if (std::isnan(v) || std::isnan(x) || std::isinf(x)) {
    return kNan;
  }
  if (std::isinf(v)) {
    return scaled ? kNan : 0.0;
  }
  const bool vint = is_integer(v);
  if (x < 0.0) {
    if (!vint) {
      return kNan;
    }
    const double r = iv(v, -x, scaled);
    return is_odd(v) ? -r : r;
  }
  if (x == 0.0) {
    if (v == 0.0) {
      return 1.0;
    }
    if (vint || v > 0.0) {
      return 0.0;
    }
    return scaled ? kNan : kInf;
  }
  const double nu = std::fabs(v);
  double i, k;
  ik(nu, x, scaled, &i, &k);
  if (v >= 0.0 || vint) {
    return i;
  }
  const double s = sinpi(nu);
  if (s == 0.0) {
    return i;
  }
  // I_-nu = I_nu + (2/pi) sin(pi nu) K_nu; scaled: e^-x I + (2/pi) sin(pi nu) (e^x K) e^-2x
  return i + (2.0 / kPi) * s * (scaled ? k * std::exp(-2.0 * x) : k);
}

inline double kv(double v, double x, bool scaled) {
  if (x == 0.0) {
    return kInf;
  }
  if (std::isnan(v) || std::isnan(x) || x < 0.0 || std::isinf(v)) {
    return kNan;
  }
  if (std::isinf(x)) {
    return scaled ? kNan : 0.0;
  }
  double i, k;
  ik(std::fabs(v), x, scaled, &i, &k);
  return k;
}

inline double yn(double n, double x) {
  if (std::isnan(n)) {
    return kNan;
  }
  // SciPy's loop casts n to a C int: truncation, and INT_MIN out of range (x86's cvttsd2si)
  const double m = std::fabs(n) < 2147483648.0 ? std::trunc(n) : -2147483648.0;
  return yv(m, x, false);
}

inline double evaluate(int64_t kind, double v, double x) {
  switch (kind) {
    case kJv:
      return jv(v, x, false);
    case kYv:
      return yv(v, x, false);
    case kIv:
      return iv(v, x, false);
    case kKv:
      return kv(v, x, false);
    case kJve:
      return jv(v, x, true);
    case kYve:
      return yv(v, x, true);
    case kIve:
      return iv(v, x, true);
    case kKve:
      return kv(v, x, true);
    case kYn:
      return yn(v, x);
    default:
      return kNan;
  }
}

}  // namespace tb_bessel
