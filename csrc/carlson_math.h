// torchbridge's C++ shim: Carlson's symmetric elliptic integrals R_F, R_D,
// R_C, R_J and R_G of complex arguments, `scipy.special.elliprf` ... `elliprg`
// on their complex loops (used by csrc/carlson_complex.cpp).
//
// The mathematics is Carlson's duplication theorem ("Numerical computation of
// real or complex elliptic integrals", Numer. Algorithms 10, 1995): each step
// replaces the arguments v by (v + lambda) / 4, lambda = sqrt(x) sqrt(y) +
// sqrt(x) sqrt(z) + sqrt(y) sqrt(z) with principal square roots, which
// brings them together by a factor 4; once their relative spread is below
// kSpread the Taylor polynomials of DLMF 19.36.1 / 19.36.2 (seventh order)
// finish the work to the last bit. R_J's sum takes
// R_C(1, 1 + e_m) = atan(sqrt(e_m)) / sqrt(e_m), by duplication where e_m is
// not small and by its power series where it is. R_F(0, y, z) and
// R_G(0, y, z) go by the arithmetic-geometric mean (Carlson's Eqs. 2.36 and
// 2.39), R_G otherwise by the symmetric sum DLMF 19.21.11 of three R_D.
//
// The domain is SciPy's (its `ellint_carlson` library): arguments with phase
// +-pi (the negative real axis, a signed zero imaginary part included) give
// nan; R_C with real negative y its Cauchy principal value; R_J its sufficient
// conditions of Carlson's paper (nonnegative real parts of x, y, z and
// Re p > 0; or p off the negative real axis with x, y, z real nonnegative, or
// two of them conjugate and the third real nonnegative, not both), the
// Cauchy principal value for real x, y, z >= 0 and real p < 0, nan
// elsewhere; an infinite argument gives 0 (R_G: inf), the poles inf.
// "Zero" here is SciPy's: 0 or subnormal.

#ifndef TB_CARLSON_MATH_H
#define TB_CARLSON_MATH_H

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

namespace tb_carlson {

using cd = std::complex<double>;

constexpr double kPi = 3.141592653589793;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
// The relative spread of the arguments at which the seventh-order Taylor
// polynomials are exact in double precision (its eighth-order terms are
// below 2e-3 ** 8 ~ 3e-22).
constexpr double kSpread = 2e-3;
// More duplication steps than any finite argument needs (each divides the
// spread by 4 once the arguments are of one order; 1e-308 to 1e308 takes
// about 10 steps to get there).
constexpr int kMaxSteps = 200;
// The AGM's stopping distance: the next correction is its square.
constexpr double kAgmTolerance = 1e-9;

inline cd nan_c() { return cd(kNan, kNan); }
inline cd inf_c() { return cd(kInf, 0.0); }

// 0 or subnormal, as SciPy's `too_small`.
inline bool tiny(double x) { return x == 0.0 || std::fpclassify(x) == FP_SUBNORMAL; }
inline bool tiny(cd z) { return tiny(z.real()) && tiny(z.imag()); }

// Off the negative real axis and not nan: a zero imaginary part needs a
// nonnegative real part, an infinite one a finite real part.
inline bool phase_ok(cd z) {
  const double re = z.real();
  const double im = z.imag();
  if (std::isnan(im)) {
    return false;
  }
  if (tiny(im) && im == 0.0) {
    return re >= 0.0;
  }
  if (std::isinf(im)) {
    return std::isfinite(re);
  }
  return std::isfinite(re) || re == kInf;
}

inline bool is_inf(cd z) { return std::isinf(z.real()) || std::isinf(z.imag()); }

inline double largest(double a, double b, double c) { return std::max(a, std::max(b, c)); }

// R_C(1, 1 + e) = atan(sqrt(e)) / sqrt(e) = sum (-e)^k / (2k + 1), for |e| < 1e-3.
inline cd rc_one_series(cd e) {
  cd sum = 0.0;
  for (int k = 9; k >= 0; --k) {
    sum = 1.0 / (2.0 * k + 1.0) - e * sum;
  }
  return sum;
}

// R_C(x, y) by duplication, y off the negative real axis and not 0.
inline cd rc_dup(cd x, cd y) {
  cd a = (x + 2.0 * y) / 3.0;
  cd s = y - a;  // (y - A) / 4^m after m steps
  for (int m = 0; m < kMaxSteps && !(std::abs(s) < kSpread * std::abs(a)); ++m) {
    const cd lambda = 2.0 * std::sqrt(x) * std::sqrt(y) + y;
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    a = (a + lambda) * 0.25;
    s *= 0.25;
  }
  a = (x + 2.0 * y) / 3.0;
  s /= a;
  // DLMF 19.36.8 to s^7
  const cd poly =
      1.0 +
      s * s *
          (3.0 / 10.0 + s * (1.0 / 7.0 + s * (3.0 / 8.0 + s * (9.0 / 22.0 + s * (159.0 / 208.0 + s * (9.0 / 8.0))))));
  return poly / std::sqrt(a);
}

// R_C(x, y): the Cauchy principal value for real negative y.
inline cd rc(cd x, cd y) {
  if (tiny(y.imag()) && y.real() < 0.0) {
    const cd xy = x - y;
    return std::sqrt(x / xy) * rc(xy, -y);
  }
  if (tiny(y) || !phase_ok(x)) {
    return nan_c();
  }
  if (is_inf(x) || is_inf(y)) {
    return 0.0;
  }
  return rc_dup(x, y);
}

// R_F(0, y, z) - sqrt(x / (y z)) for tiny x, by the AGM of sqrt(y), sqrt(z).
inline cd rf_agm(cd x, cd y, cd z) {
  cd a = std::sqrt(y);
  cd b = std::sqrt(z);
  for (int m = 0; m < kMaxSteps && !(std::abs(a - b) < kAgmTolerance * std::min(std::abs(a), std::abs(b))); ++m) {
    const cd next = (a + b) * 0.5;
    b = std::sqrt(a * b);
    a = next;
  }
  return kPi / (a + b) - std::sqrt(x / (y * z));
}

// The seventh-order polynomial of DLMF 19.36.2 in E2 ... E5 (R_D and R_J).
inline cd rdj_poly(cd e2, cd e3, cd e4, cd e5) {
  return 1.0 - 3.0 * e2 / 14.0 + e3 / 6.0 + 9.0 * e2 * e2 / 88.0 - 3.0 * e4 / 22.0 - 9.0 * e2 * e3 / 52.0 +
         3.0 * e5 / 26.0 - e2 * e2 * e2 / 16.0 + 3.0 * e3 * e3 / 40.0 + 3.0 * e2 * e4 / 20.0 +
         45.0 * e2 * e2 * e3 / 272.0 - 9.0 * (e3 * e4 + e2 * e5) / 68.0;
}

// Sort keys that order nan last (std::sort needs a strict weak order).
inline double abs_key(const cd& a) {
  const double r = std::abs(a);
  return std::isnan(r) ? kInf : r;
}
inline double real_key(const cd& a) { return std::isnan(a.real()) ? kInf : a.real(); }

// The three values sorted by `key`, in place (a sorting network).
template <typename Key>
inline void sort3(cd* v, Key key) {
  if (key(v[1]) < key(v[0])) std::swap(v[0], v[1]);
  if (key(v[2]) < key(v[1])) std::swap(v[1], v[2]);
  if (key(v[1]) < key(v[0])) std::swap(v[0], v[1]);
}

inline cd rf(cd x, cd y, cd z) {
  if (!(phase_ok(x) && phase_ok(y) && phase_ok(z))) {
    return nan_c();
  }
  if (is_inf(x) || is_inf(y) || is_inf(z)) {
    return 0.0;
  }
  cd v[3] = {x, y, z};
  sort3(v, abs_key);
  if (tiny(v[0])) {
    if (tiny(v[1])) {
      return inf_c();
    }
    return rf_agm(v[0], v[1], v[2]);
  }
  x = v[0];
  y = v[1];
  z = v[2];
  cd a = (x + y + z) / 3.0;
  cd dx = a - x;  // (A - x) / 4^m after m steps
  cd dy = a - y;
  cd dz = a - z;
  for (int m = 0; m < kMaxSteps; ++m) {
    if (largest(std::abs(dx), std::abs(dy), std::abs(dz)) < kSpread * std::abs(a)) {
      break;
    }
    const cd sx = std::sqrt(x);
    const cd sy = std::sqrt(y);
    const cd sz = std::sqrt(z);
    const cd lambda = sx * sy + sx * sz + sy * sz;
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    z = (z + lambda) * 0.25;
    a = (a + lambda) * 0.25;
    dx *= 0.25;
    dy *= 0.25;
    dz *= 0.25;
  }
  a = (x + y + z) / 3.0;
  const cd X = dx / a;
  const cd Y = dy / a;
  const cd Z = -(X + Y);
  const cd e2 = X * Y - Z * Z;
  const cd e3 = X * Y * Z;
  // DLMF 19.36.1
  const cd poly = 1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0 - 3.0 * e2 * e3 / 44.0 - 5.0 * e2 * e2 * e2 / 208.0 +
                  3.0 * e3 * e3 / 104.0 + e2 * e2 * e3 / 16.0;
  return poly / std::sqrt(a);
}

inline cd rd(cd x, cd y, cd z) {
  if (!(phase_ok(x) && phase_ok(y) && phase_ok(z))) {
    return nan_c();
  }
  if (tiny(z)) {
    return inf_c();
  }
  if (is_inf(x) || is_inf(y) || is_inf(z)) {
    return 0.0;
  }
  if (tiny(x) && tiny(y)) {
    return inf_c();
  }
  cd a = (x + y + 3.0 * z) / 5.0;
  cd dx = a - x;
  cd dy = a - y;
  cd dz = a - z;
  cd sum = 0.0;
  double power = 1.0;  // 4^-m
  for (int m = 0; m < kMaxSteps; ++m) {
    if (largest(std::abs(dx), std::abs(dy), std::abs(dz)) < kSpread * std::abs(a)) {
      break;
    }
    const cd sx = std::sqrt(x);
    const cd sy = std::sqrt(y);
    const cd sz = std::sqrt(z);
    const cd lambda = sx * sy + sx * sz + sy * sz;
    sum += power / (sz * (z + lambda));
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    z = (z + lambda) * 0.25;
    a = (a + lambda) * 0.25;
    dx *= 0.25;
    dy *= 0.25;
    dz *= 0.25;
    power *= 0.25;
  }
  a = (x + y + 3.0 * z) / 5.0;
  const cd X = dx / a;
  const cd Y = dy / a;
  const cd Z = -(X + Y) / 3.0;
  const cd xy = X * Y;
  const cd z2 = Z * Z;
  const cd e2 = xy - 6.0 * z2;
  const cd e3 = (3.0 * xy - 8.0 * z2) * Z;
  const cd e4 = 3.0 * (xy - z2) * z2;
  const cd e5 = xy * z2 * Z;
  const cd sa = std::sqrt(a);
  return power * rdj_poly(e2, e3, e4, e5) / (sa * sa * sa) + 3.0 * sum;
}

// R_J by duplication (Carlson's Eqs. 2.17-2.20) on arguments of its domain.
inline cd rj_dup(cd x, cd y, cd z, cd p) {
  const cd delta = (p - x) * (p - y) * (p - z);
  cd a = (x + y + z + 2.0 * p) / 5.0;
  cd dx = a - x;
  cd dy = a - y;
  cd dz = a - z;
  cd dp = a - p;
  cd sum = 0.0;
  double power = 1.0;  // 4^-m
  for (int m = 0; m < kMaxSteps; ++m) {
    if (std::max(largest(std::abs(dx), std::abs(dy), std::abs(dz)), std::abs(dp)) < kSpread * std::abs(a)) {
      break;
    }
    const cd sx = std::sqrt(x);
    const cd sy = std::sqrt(y);
    const cd sz = std::sqrt(z);
    const cd sp = std::sqrt(p);
    const cd lambda = sx * sy + sx * sz + sy * sz;
    const cd d = (sp + sx) * (sp + sy) * (sp + sz);
    const cd e = delta * (power * power * power) / (d * d);
    const cd r = std::abs(e) < 1e-3 ? rc_one_series(e) : rc_dup(cd(1.0, 0.0), 1.0 + e);
    sum += power * r / d;
    x = (x + lambda) * 0.25;
    y = (y + lambda) * 0.25;
    z = (z + lambda) * 0.25;
    p = (p + lambda) * 0.25;
    a = (a + lambda) * 0.25;
    dx *= 0.25;
    dy *= 0.25;
    dz *= 0.25;
    dp *= 0.25;
    power *= 0.25;
  }
  a = (x + y + z + 2.0 * p) / 5.0;
  const cd X = dx / a;
  const cd Y = dy / a;
  const cd Z = dz / a;
  const cd P = -(X + Y + Z) / 2.0;
  const cd xyz = X * Y * Z;
  const cd p2 = P * P;
  const cd e2 = X * Y + X * Z + Y * Z - 3.0 * p2;
  const cd e3 = xyz + 2.0 * e2 * P + 4.0 * p2 * P;
  const cd e4 = (2.0 * xyz + e2 * P + 3.0 * p2 * P) * P;
  const cd e5 = xyz * p2;
  const cd sa = std::sqrt(a);
  return power * rdj_poly(e2, e3, e4, e5) / (sa * sa * sa) + 6.0 * sum;
}

// Two of the three nonzero and conjugate, off the negative real axis, the
// third real nonnegative.
inline bool conjugate_pair(cd u, cd v, cd w) {
  return tiny(u - std::conj(v)) && !tiny(u) && !tiny(v) && tiny(w.imag()) && w.real() >= 0.0 && phase_ok(u) &&
         phase_ok(v);
}


// The Cauchy principal value of R_J for real x <= y <= z, x >= 0, y > 0, and
// p < 0 (Carlson's Eq. 2.26, DLMF 19.20.14).
inline cd rj_principal(double x, double y, double z, double p) {
  const double xy = x * y;
  const double q = (x + y - p - xy / z) / (1.0 - p / z);
  const double pq = -p * q;
  const cd rjq = rj_dup(x, y, z, q);
  const cd rff = rf(x, y, z);
  const cd rcc = rc(xy + pq, pq);
  const cd value = (q - z) * rjq - 3.0 * rff + 3.0 * std::sqrt(xy * z / (xy + pq)) * rcc;
  return value / (z - p);
}

inline cd rj(cd x, cd y, cd z, cd p) {
  cd v[3] = {x, y, z};
  sort3(v, real_key);
  x = v[0];
  y = v[1];
  z = v[2];
  if (tiny(x) && tiny(y) && phase_ok(z) && !tiny(p)) {
    return inf_c();
  }
  if ((is_inf(x) || is_inf(y) || is_inf(z) || is_inf(p)) && phase_ok(x) && phase_ok(y) && phase_ok(z)) {
    return 0.0;
  }
  const bool real_xyz =
      tiny(x.imag()) && tiny(y.imag()) && tiny(z.imag()) && x.real() >= 0.0 && y.real() > 0.0;
  if (tiny(p.imag()) && real_xyz) {
    if (p.real() < 0.0) {
      return rj_principal(x.real(), y.real(), z.real(), p.real());
    }
    if (p.real() > 0.0) {
      return rj_dup(x, y, z, p);
    }
  }
  const bool two_zeros = (tiny(y) && (tiny(x) || tiny(z))) || (tiny(x) && tiny(z));
  if (p.real() > 0.0 && x.real() >= 0.0 && !two_zeros) {
    return rj_dup(x, y, z, p);
  }
  if (!tiny(p) && phase_ok(p)) {
    const bool pair = conjugate_pair(x, y, z) || conjugate_pair(y, z, x) || conjugate_pair(z, x, y);
    if (real_xyz != pair) {
      return rj_dup(x, y, z, p);
    }
  }
  return nan_c();
}

// R_G(0, y, z) by the AGM of sqrt(y), sqrt(z) (Carlson's Eq. 2.39).
inline cd rg_agm(cd y, cd z) {
  cd a = std::sqrt(y);
  cd b = std::sqrt(z);
  cd half = (a + b) * 0.5;
  cd sum = -half * half;
  double weight = 0.25;
  for (int m = 0; m < kMaxSteps && !(std::abs(a - b) < kAgmTolerance * std::min(std::abs(a), std::abs(b))); ++m) {
    const cd next = (a + b) * 0.5;
    b = std::sqrt(a * b);
    a = next;
    weight *= 2.0;
    const cd d = a - b;
    sum += weight * (d * d);
  }
  return -0.5 * kPi / (a + b) * sum;
}

inline cd rg(cd x, cd y, cd z) {
  cd v[3] = {x, y, z};
  sort3(v, abs_key);
  if ((is_inf(v[0]) || is_inf(v[1]) || is_inf(v[2])) && phase_ok(v[0]) && phase_ok(v[1]) && phase_ok(v[2])) {
    return inf_c();
  }
  if (tiny(v[0])) {
    if (tiny(v[1])) {
      return std::sqrt(v[2]) * 0.5;
    }
    // (as SciPy, whatever the phases: on the negative real axis the AGM
    // may not converge, where SciPy's and this differ)
    return rg_agm(v[1], v[2]);
  }
  // R_G is homogeneous of degree 1/2: arguments far from 1 are scaled by a
  // power of 4 first, so that the products below neither overflow nor underflow.
  const double big = std::abs(v[2]);
  if (std::isfinite(big) && (big > 1e100 || big < 1e-100)) {
    const int k = static_cast<int>(std::floor(std::log2(big) / 2.0));
    const double scale = std::ldexp(1.0, -2 * k);
    return std::ldexp(1.0, k) * rg(x * scale, y * scale, z * scale);
  }
  // DLMF 19.21.11: 6 R_G = sum over cyclic permutations of x (y + z) R_D(y, z, x)
  const cd value = x * (y + z) * rd(y, z, x) + y * (z + x) * rd(z, x, y) + z * (x + y) * rd(x, y, z);
  return value / 6.0;
}

}  // namespace tb_carlson

#endif  // TB_CARLSON_MATH_H
