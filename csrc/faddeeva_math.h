// torchbridge's C++ shim, Faddeeva half: the scalar mathematics behind
// `scipy.special.wofz` and the complex erf family (erf, erfc, erfcx, erfi,
// dawsn) and `voigt_profile`, used by csrc/faddeeva.cpp.
//
// SciPy computes these with S. G. Johnson's Faddeeva package; this is an
// independent implementation of the same published algorithms, written for
// torchbridge:
//
// - w(z) for |z| large: the Laplace continued fraction
//   w(z) = (i / sqrt(pi)) / (z - (1/2) / (z - 1 / (z - (3/2) / (z - ...)))),
//   with the number of terms of Poppe and Wijers (ACM TOMS 16, 1990),
//   doubled (it converges for Im z > 0; more terms cost little);
// - w(z) elsewhere: Zaghloul and Ali's sampling sums (ACM TOMS 38, 2011,
//   Algorithm 916) with their step a = pi / sqrt(-log(eps / 2)), the sums'
//   differences written as sinh/cosh where 2 a n x is small (no cancellation
//   near the imaginary axis);
// - Im z < 0: w(z) = 2 exp(-z^2) - w(-z); Re z < 0: w(-conj z) = conj w(z);
// - erf, erfc, erfcx, erfi and Dawson's integral from w as the Faddeeva
//   package composes them, with Taylor series where the composition cancels:
//   small |z|, and next to the axes (erf next to the imaginary axis, Dawson's
//   integral next to the real axis, series in the small coordinate derived
//   from D' = 1 - 2 z D and erf' = 2 / sqrt(pi) exp(-z^2));
// - erfcx of a real argument: exp(x^2) erfc(x) with x^2 split exactly
//   (Dekker) below 26, the continued fraction above.
//
// The special values (infinite and nan components, signed zeros) follow
// SciPy's results.

#ifndef TB_FADDEEVA_MATH_H
#define TB_FADDEEVA_MATH_H

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <limits>

namespace tb_faddeeva {

using cd = std::complex<double>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846264338327950288;
constexpr double kInvSqrtPi = 0.564189583547756286948079451560772586;  // 1 / sqrt(pi)
constexpr double kTwoOverSqrtPi = 1.12837916709551257389615890312154517;  // 2 / sqrt(pi)
constexpr double kSqrtPiOver2 = 0.886226925452758013649083741671000;  // sqrt(pi) / 2

// `x^2 = hi + lo` exactly (Dekker's product; lo = 0 where |x| >= 1e150).
inline void two_square(double x, double* hi, double* lo) {
  constexpr double kSplit = 134217729.0;  // 2^27 + 1
  *hi = x * x;
  if (!(std::abs(x) < 1e150)) {
    *lo = 0.0;
    return;
  }
  const double t = x * kSplit;
  const double x_hi = t - (t - x);
  const double x_lo = x - x_hi;
  *lo = ((x_hi * x_hi - *hi) + 2.0 * x_hi * x_lo) + x_lo * x_lo;
}

// exp(x^2), with the rounding of x^2 accounted for.
inline double exp_square(double x) {
  double hi;
  double lo;
  two_square(x, &hi, &lo);
  return std::exp(hi) * (1.0 + lo);
}

// exp(-x^2), with the rounding of x^2 accounted for.
inline double exp_minus_square(double x) {
  double hi;
  double lo;
  two_square(x, &hi, &lo);
  return std::exp(-hi) * (1.0 - lo);
}

// erfcx(x) = exp(x^2) erfc(x), real x.
inline double erfcx_real(double x) {
  if (std::isnan(x)) {
    return x;
  }
  if (x < 0.0) {
    if (x < -26.7) {
      return kInf;
    }
    return 2.0 * exp_square(x) - erfcx_real(-x);
  }
  if (x < 26.0) {
    return std::erfc(x) * exp_square(x);
  }
  if (x > 1e150) {
    return kInvSqrtPi / x;
  }
  // Laplace's continued fraction 1 / sqrt(pi) / (x + (1/2) / (x + 1 / (x + ...)))
  double r = 0.0;
  for (int k = 40; k >= 1; --k) {
    r = 0.5 * k / (x + r);
  }
  return kInvSqrtPi / (x + r);
}

// Zaghloul and Ali's step for double precision, pi / sqrt(-log(2^-53)).
inline double sampling_step() {
  static const double a = kPi / std::sqrt(53.0 * std::log(2.0));
  return a;
}

// The most terms w_sampling takes (x < 28).
constexpr int kSamplingTerms = 72;

// exp(-a^2 n^2) for n = 0 .. kSamplingTerms, a = sampling_step(), made once.
inline const double* sampling_gaussians() {
  static const auto table = [] {
    std::array<double, kSamplingTerms + 1> t{};
    const double a = sampling_step();
    for (int n = 0; n <= kSamplingTerms; ++n) {
      t[n] = std::exp(-(a * n) * (a * n));
    }
    return t;
  }();
  return table.data();
}

// w(x + iy) for 0 <= x < 28 and 0 <= y, finite (Algorithm 916). One exp per
// term: exp(-a^2 n^2) comes from a table, and exp(-(an + x)^2) is
// exp(-(an - x)^2) times exp(-4 a x)^n, a power kept by recurrence (it only
// shrinks, so its underflow is harmless; its rounding, n ulps at most, weighs
// at most e^-2 against the exp(-(an - x)^2) beside it).
inline cd w_sampling(double x, double y) {
  const double a = sampling_step();
  const double a2 = a * a;
  const double c = 2.0 * a / kPi;
  const double ex2 = exp_minus_square(x);
  const int terms = std::min(kSamplingTerms, static_cast<int>(std::ceil((x + 6.5) / a)));
  const double* gaussians = sampling_gaussians();
  const double shrink = std::exp(-4.0 * a * x);
  double power = 1.0;  // exp(-4 a x)^n
  const double y2 = y * y;
  double s1 = 0.0;   // sum exp(-a^2 n^2 - x^2) / (a^2 n^2 + y^2)
  double sc = 0.0;   // sum (exp(-(an - x)^2) + exp(-(an + x)^2)) / (a^2 n^2 + y^2)
  double ss = 0.0;   // sum a n (exp(-(an - x)^2) - exp(-(an + x)^2)) / (a^2 n^2 + y^2)
  for (int n = 1; n <= terms; ++n) {
    const double an = a * n;
    const double den = a2 * n * n + y2;
    const double coef = gaussians[n] * ex2 / den;
    s1 += coef;
    power *= shrink;
    const double q = 2.0 * an * x;
    if (q < 1.0) {
      sc += coef * (2.0 * std::cosh(q));
      ss += an * coef * (2.0 * std::sinh(q));
    } else {
      const double p = std::exp(-(an - x) * (an - x)) / den;
      const double m = p * power;
      sc += p + m;
      ss += an * (p - m);
    }
  }
  const double xy = x * y;
  const double sin_xy = std::sin(xy);
  const double sinc_xy = xy == 0.0 ? 1.0 : sin_xy / xy;
  const double sin_2xy = std::sin(2.0 * xy);
  const double cos_2xy = std::cos(2.0 * xy);
  const double sinc_2xy = xy == 0.0 ? 1.0 : sin_2xy / (2.0 * xy);
  const double coef1 = ex2 * erfcx_real(y) - c * y * s1;
  const double coef2 = c * x * ex2;
  const double re = coef1 * cos_2xy + coef2 * sin_xy * sinc_xy + 0.5 * c * y * sc;
  const double im = coef2 * sinc_2xy - coef1 * sin_2xy + 0.5 * c * ss;
  return cd(re, im);
}

// w(x + iy) for x >= 0, y > 0, |z| large (the continued fraction).
inline cd w_continued_fraction(double x, double y) {
  if (x > 1e150 || y > 1e150) {
    // (i / sqrt(pi)) / z without overflow in |z|^2
    const double s = 1.0 / std::max(x, y);
    const cd zs(x * s, y * s);
    return cd(0.0, kInvSqrtPi * s) / zs;
  }
  const double rho = std::hypot(x / 6.3, y / 4.4);
  // Poppe and Wijers' depth nu = 3 + 1442 / (26 rho + 77), counted in the
  // half-steps k / 2 below, and 4 more: against mpmath, at the region's edge
  // (x = 6, y = 0.1), 1.0e-15 relative to |w|, where twice nu (1.8x the
  // steps) gives 0.9e-15 and Johnson's nu - 1 5e-15
  const int terms = static_cast<int>(3.0 + 1442.0 / (26.0 * rho + 77.0)) + 4;
  // r = (k / 2) / (z - r) in real arithmetic: a real over a complex is one
  // division (|z - r| <= 2^512 here, so its squared modulus stays finite),
  // where std::complex's division checks for infinities at every step
  double r_re = 0.0;
  double r_im = 0.0;
  for (int k = terms; k >= 1; --k) {
    const double u = x - r_re;
    const double v = y - r_im;
    const double scale = (0.5 * k) / (u * u + v * v);
    r_re = scale * u;
    r_im = -scale * v;
  }
  // (i / sqrt(pi)) / (z - r), its zeros signed as complex division's
  // ((0 u + c v) + i (c u - 0 v)) / |z - r|^2 signs them (on the real axis)
  const double u = x - r_re;
  const double v = y - r_im;
  const double scale = kInvSqrtPi / (u * u + v * v);
  return cd(0.0 * u + scale * v, scale * u - 0.0 * v);
}

// w(x + iy) for x >= 0, y >= 0, finite.
inline cd w_upper(double x, double y) {
  if (x == 0.0) {
    return cd(erfcx_real(y), 0.0);
  }
  if (y > 7.0 || (x > 6.0 && (y > 0.1 || (x > 8.0 && y > 1e-10) || x > 28.0))) {
    return w_continued_fraction(x, y);
  }
  return w_sampling(x, y);
}

// The Faddeeva function w(z) = exp(-z^2) erfc(-iz).
inline cd w(cd z) {
  const double x = z.real();
  const double y = z.imag();
  if (std::isnan(x) || std::isnan(y)) {
    if (x == 0.0 && std::isnan(y)) {
      return cd(kNan, x);
    }
    return cd(kNan, kNan);
  }
  if (x == 0.0) {
    // w(iy) = erfcx(y), the imaginary part a zero of x's sign
    return cd(erfcx_real(y), x);
  }
  if (std::isinf(x)) {
    if (std::isinf(y)) {
      return y > 0 ? cd(0.0, 0.0) : cd(kNan, kNan);
    }
    return cd(0.0, x > 0 ? 0.0 : -0.0);
  }
  if (y >= 0.0) {
    if (std::isinf(y)) {
      return cd(0.0, 0.0);
    }
    const cd r = w_upper(std::abs(x), y);
    return x < 0.0 ? std::conj(r) : r;
  }
  if (std::isinf(y)) {
    return cd(kNan, kNan);
  }
  // Im z < 0: w(z) = 2 exp(-z^2) - w(-z), exp(-z^2) = exp((y - x)(x + y)) (cos + i sin)(-2xy)
  const cd wm = x > 0.0 ? std::conj(w_upper(x, -y)) : w_upper(-x, -y);
  const double mre = (y - x) * (x + y);
  const double mim = -2.0 * x * y;
  // the complex exp: scaled where exp(Re) alone would overflow, a signed 0 where it underflows
  return 2.0 * std::exp(cd(mre, mim)) - wm;
}

// Dawson's integral of a real argument, sqrt(pi) / 2 Im w(x).
inline double dawson_real(double x) {
  if (std::isnan(x)) {
    return x;
  }
  if (std::isinf(x)) {
    return x > 0 ? 0.0 : -0.0;
  }
  const double ax = std::abs(x);
  double d;
  if (ax < 1e-8) {
    d = ax;
  } else if (ax > 1e150) {
    d = 0.5 / ax;
  } else if (ax >= 28.0) {
    // the asymptotic series 1 / (2x) sum (2k - 1)!! / (2 x^2)^k
    const double u = 0.5 / (ax * ax);
    double sum = 1.0;
    double term = 1.0;
    for (int k = 1; k < 12; ++k) {
      term *= (2 * k - 1) * u;
      sum += term;
    }
    d = 0.5 / ax * sum;
  } else {
    d = kSqrtPiOver2 * w_sampling(ax, 0.0).imag();
  }
  return std::copysign(d, x);
}

// erfi of a real argument, 2 / sqrt(pi) exp(x^2) D(x).
inline double erfi_real(double x) {
  if (std::isnan(x)) {
    return x;
  }
  if (x * x > 720.0) {
    return x > 0 ? kInf : -kInf;
  }
  if (std::abs(x) < 1e-20) {
    return kTwoOverSqrtPi * x;
  }
  return kTwoOverSqrtPi * exp_square(x) * dawson_real(x);
}

// erf(z), complex.
inline cd erf(cd z) {
  const double x = z.real();
  const double y = z.imag();
  if (x == 0.0) {
    return cd(x, erfi_real(y));
  }
  if (std::isnan(x)) {
    return cd(kNan, y == 0.0 ? 0.0 : kNan);
  }
  if (std::isnan(y)) {
    return cd(kNan, kNan);
  }
  const double mre = (y - x) * (x + y);  // Re(-z^2)
  const double mim = -2.0 * x * y;      // Im(-z^2)
  if (mre < -750.0) {
    return cd(x >= 0 ? 1.0 : -1.0, 0.0);
  }
  const double ax = std::abs(x);
  if (ax < 8e-2) {
    if (std::abs(y) < 1e-2) {
      // erf(z) = 2 / sqrt(pi) z (1 - z^2 / 3 + z^4 / 10 - z^6 / 42 + z^8 / 216)
      const cd mz2(mre, mim);
      return z * (kTwoOverSqrtPi +
                  mz2 * (kTwoOverSqrtPi / 3.0 +
                         mz2 * (kTwoOverSqrtPi / 10.0 + mz2 * (kTwoOverSqrtPi / 42.0 + mz2 * (kTwoOverSqrtPi / 216.0)))));
    }
    if (std::abs(mim) < 5e-3 && ax < 5e-3) {
      // next to the imaginary axis: erf(x + iy) = i erfi(y)
      //   + 2 / sqrt(pi) exp(y^2) [x (1 - x^2 (1 + 2y^2) / 3 + x^4 (3 + 12 y^2 + 4 y^4) / 30)
      //                          - i x^2 y (1 - x^2 (3 + 2 y^2) / 6)]
      const double x2 = x * x;
      const double y2 = y * y;
      const double ey2 = exp_square(y);
      const double re = kTwoOverSqrtPi * ey2 * x *
                        (1.0 - x2 * (1.0 + 2.0 * y2) / 3.0 + x2 * x2 * (3.0 + y2 * (12.0 + 4.0 * y2)) / 30.0);
      const double im = ey2 * kTwoOverSqrtPi * (dawson_real(y) - x2 * y * (1.0 - x2 * (3.0 + 2.0 * y2) / 6.0));
      return cd(re, im);
    }
  }
  // exp(-z^2) w(.) as exp(Re) times ((cos + i sin)(Im) w(.)): inf where it overflows, not nan
  const double e = std::exp(mre);
  const cd cis(std::cos(mim), std::sin(mim));
  if (x >= 0.0) {
    return 1.0 - e * (cis * w(cd(-y, x)));
  }
  return e * (cis * w(cd(y, -x))) - 1.0;
}

// erfc(z), complex.
inline cd erfc(cd z) {
  const double x = z.real();
  const double y = z.imag();
  if (x == 0.0) {
    if (std::isnan(y)) {
      return cd(1.0, y);
    }
    return cd(1.0, y * y > 720.0 ? (y > 0 ? -kInf : kInf) : -erfi_real(y));
  }
  if (y == 0.0) {
    return cd(std::erfc(x), 0.0);
  }
  if (std::isnan(x) || std::isnan(y)) {
    return cd(kNan, kNan);
  }
  const double mre = (y - x) * (x + y);
  const double mim = -2.0 * x * y;
  if (mre < -750.0) {
    return cd(x >= 0 ? 0.0 : 2.0, 0.0);
  }
  const cd ez = std::exp(cd(mre, mim));  // exp(-z^2)
  if (x >= 0.0) {
    return ez * w(cd(-y, x));
  }
  return 2.0 - ez * w(cd(y, -x));
}

// erfcx(z) = exp(z^2) erfc(z) = w(iz).
inline cd erfcx(cd z) { return w(cd(-z.imag(), z.real())); }

// erfi(z) = -i erf(iz).
inline cd erfi(cd z) {
  const cd e = erf(cd(-z.imag(), z.real()));
  return cd(e.imag(), -e.real());
}

// Dawson's integral D(z) = sqrt(pi) / 2 exp(-z^2) erfi(z), complex.
inline cd dawsn(cd z) {
  const double x = z.real();
  const double y = z.imag();
  if (y == 0.0) {
    return cd(dawson_real(x), -y);
  }
  if (x == 0.0) {
    // D(iy) = i sqrt(pi) / 2 exp(y^2) erf(y)
    if (std::isnan(y)) {
      return cd(x, y);
    }
    if (y * y > 720.0) {
      return cd(x, y > 0 ? kInf : -kInf);
    }
    return cd(x, kSqrtPiOver2 * exp_square(y) * std::erf(y));
  }
  if (std::isnan(x) || std::isnan(y)) {
    return cd(kNan, kNan);
  }
  if (std::isinf(x)) {
    return std::isinf(y) ? cd(kNan, kNan) : cd(x > 0 ? 0.0 : -0.0, 0.0);
  }
  if (std::isinf(y)) {
    return cd(kNan, y);
  }
  const double mre = (y - x) * (x + y);
  const double mim = -2.0 * x * y;
  const double ay = std::abs(y);
  const double ax = std::abs(x);
  if (ay < 5e-3) {
    if (ax < 5e-3) {
      // D(z) = z - 2 z^3 / 3 + 4 z^5 / 15
      const cd mz2(mre, mim);
      return z * (1.0 + mz2 * (2.0 / 3.0 + mz2 * (4.0 / 15.0)));
    }
    if (std::abs(mim) < 5e-3 && ax < 50.0) {
      // next to the real axis, a series in y about D = D(x)
      const double d = dawson_real(x);
      const double x2 = x * x;
      const double y2 = y * y;
      const double re = d + y2 * (d + x - 2.0 * d * x2) +
                        y2 * y2 * (d / 2.0 + 5.0 * x / 6.0 - 2.0 * d * x2 - x * x2 / 3.0 + 2.0 * d * x2 * x2 / 3.0);
      const double im =
          y * ((1.0 - 2.0 * d * x) + y2 * (2.0 / 3.0 - 2.0 * d * x - 2.0 * x2 / 3.0 + 4.0 * d * x * x2 / 3.0) +
               y2 * y2 *
                   (4.0 / 15.0 - d * x - 3.0 * x2 / 5.0 + 4.0 * d * x * x2 / 3.0 + 2.0 * x2 * x2 / 15.0 -
                    4.0 * d * x * x2 * x2 / 15.0));
      return cd(re, im);
    }
  }
  // D(z) = i sqrt(pi) / 2 (exp(-z^2) - w(z)) for y >= 0, and
  // i sqrt(pi) / 2 (w(-z) - exp(-z^2)) for y < 0 (w(z) = 2 exp(-z^2) - w(-z))
  const cd ez = std::exp(cd(mre, mim));
  const cd res = y >= 0.0 ? ez - w(z) : w(-z) - ez;
  return kSqrtPiOver2 * cd(-res.imag(), res.real());
}

// SciPy's voigt_profile(x, sigma, gamma): Re w((x + i gamma) / (sqrt 2 sigma)) / (sigma sqrt(2 pi)).
inline double voigt_profile(double x, double sigma, double gamma) {
  constexpr double kInvSqrt2 = 0.707106781186547524401;
  constexpr double kSqrt2Pi = 2.50662827463100050241576528481104525;
  if (sigma == 0.0) {
    if (gamma == 0.0) {
      if (std::isnan(x)) {
        return x;
      }
      return x == 0.0 ? kInf : 0.0;
    }
    return gamma / kPi / (x * x + gamma * gamma);
  }
  if (gamma == 0.0) {
    return 1.0 / kSqrt2Pi / sigma * std::exp(-(x / sigma) * (x / sigma) / 2.0);
  }
  const cd v = w(cd(x / sigma * kInvSqrt2, gamma / sigma * kInvSqrt2));
  return v.real() / sigma / kSqrt2Pi;
}

// SciPy's complex ndtr: erfc(-z / sqrt 2) / 2.
inline cd ndtr(cd z) {
  constexpr double kInvSqrt2 = 0.707106781186547524401;
  return 0.5 * erfc(-z * kInvSqrt2);
}

// log(1 + z) for |z| < 0.707 as 0.5 log1p(2x + x^2 + y^2) (y^2 split
// exactly) and atan2(y, 1 + x); log(1 + z) beyond.
inline cd log1p_small(cd z) {
  const double x = z.real();
  const double y = z.imag();
  if (std::abs(z) < 0.707) {
    double hi;
    double lo;
    two_square(y, &hi, &lo);
    return cd(0.5 * std::log1p(2.0 * x + x * x + hi + lo), std::atan2(y, x + 1.0));
  }
  return std::log(1.0 + z);
}

// Complex log_ndtr: for Re z > 0 where w = ndtr(-z) is below 0.1,
// log1p(-w) (SciPy expands only where |w| < 1e-8, from Re z > 6, and loses
// up to 6 digits to cancellation between, 5e-7 relative at 5.9 - 1.5i);
// elsewhere as SciPy, with t = -z / sqrt 2, the principal log of exp(-t^2)
// (its imaginary part reduced into (-pi, pi]) plus log(erfcx(t)) - log 2,
// the sum's imaginary part brought into (-pi, pi] (SciPy's results are the
// principal branch).
inline cd log_ndtr(cd z) {
  constexpr double kInvSqrt2 = 0.707106781186547524401;
  constexpr double kLn2 = 0.693147180559945309417232121458176568;
  if (z.real() > 0) {
    const cd w = 0.5 * erfc(z * kInvSqrt2);
    if (std::abs(w) < 0.1) {
      return log1p_small(-w);
    }
  }
  z *= -kInvSqrt2;
  const double x = z.real();
  const double y = z.imag();
  const double mre = (y - x) * (x + y);
  const double mim = -2 * x * y;
  double im = std::fmod(mim, 2.0 * kPi);
  if (im > kPi) {
    im -= 2.0 * kPi;
  } else if (im < -kPi) {
    im += 2.0 * kPi;
  }
  const cd val1 = cd(mre, im);
  const cd val2 = std::log(erfcx(z));
  cd out = val1 + val2 - kLn2;
  // the principal branch, as SciPy's results: the imaginary part in (-pi, pi]
  if (out.imag() > kPi) {
    out.imag(out.imag() - 2.0 * kPi);
  } else if (out.imag() <= -kPi) {
    out.imag(out.imag() + 2.0 * kPi);
  }
  return out;
}

}  // namespace tb_faddeeva

#endif  // TB_FADDEEVA_MATH_H
