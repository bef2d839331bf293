// torchbridge's C++ shim: the exponential integrals E1(z) and Ei(z) of complex
// argument, `scipy.special.exp1` and `expi` (used by csrc/xsf_complex.cpp).
//
// The algorithm of SciPy's xsf `expint.h` (Zhang and Jin's `e1z`, as SciPy
// amended it), rewritten for torchbridge: the power series
// E1(z) = -gamma - log z + z sum (-z)^k / ((k + 1)^2 k!) for |z| < 5 on the
// left half-plane, |z| < 1.5 on the right (SciPy: 5, where the series loses
// three digits), and in the wedge x < -2|y| up to |z| = 40 (with the sign of a signed zero
// imaginary part on the negative real axis), the continued fraction of
// DLMF 6.9 elsewhere; Ei(z) = -E1(-z) -+ i pi. E1(0) is inf.

#ifndef TB_EXPINT_MATH_H
#define TB_EXPINT_MATH_H

#include <cmath>
#include <complex>
#include <limits>

namespace tb_xsf {

// Zhang and Jin's E1(z); 1e300 at 0.
inline std::complex<double> e1z(std::complex<double> z) {
  using cd = std::complex<double>;
  const double pi = 3.141592653589793;
  const double el = 0.5772156649015328;
  cd ce1;
  const double x = z.real();
  const double a0 = std::abs(z);
  const double xt = -2.0 * std::fabs(z.imag());
  if (a0 == 0.0) {
    return 1e300;
  }
  // SciPy takes the series up to |z| = 5 on the right half-plane too, where
  // it cancels (9e-13 relative at |z| = 4.9); the continued fraction from
  // |z| = 1.5 there is within 4e-15 of mpmath.
  if ((a0 < 1.5) || ((a0 < 5.0) && (x <= 0.0)) || ((x < xt) && (a0 < 40.0))) {
    ce1 = 1.0;
    cd cr = 1.0;
    for (int k = 1; k < 501; k++) {
      cr = -cr * z * static_cast<double>(k) / std::pow(k + 1.0, 2);
      ce1 += cr;
      if (std::abs(cr) < std::abs(ce1) * 1e-15) {
        break;
      }
    }
    if ((x <= 0.0) && (z.imag() == 0.0)) {
      ce1 = -el - std::log(-z) + z * ce1 - std::copysign(pi, z.imag()) * cd(0.0, 1.0);
    } else {
      ce1 = -el - std::log(z) + z * ce1;
    }
  } else {
    cd zc = 0.0;
    cd zd = 1.0 / z;
    cd zdc = zd;
    zc += zdc;
    for (int k = 1; k < 501; k++) {
      zd = 1.0 / (zd * static_cast<double>(k) + 1.0);
      zdc *= (zd - 1.0);
      zc += zdc;
      zd = 1.0 / (zd * static_cast<double>(k) + z);
      zdc *= (z * zd - 1.0);
      zc += zdc;
      if ((std::abs(zdc) <= std::abs(zc) * 1e-15) && (k > 20)) {
        break;
      }
    }
    ce1 = std::exp(-z) * zc;
    if ((x <= 0.0) && (z.imag() == 0.0)) {
      ce1 -= pi * cd(0.0, 1.0);
    }
  }
  return ce1;
}

// Ei(z) = -E1(-z) + sign(Im z) i pi.
inline std::complex<double> eixz(std::complex<double> z) {
  using cd = std::complex<double>;
  const double pi = 3.141592653589793;
  cd cei = e1z(-z);
  cei = -cei;
  if (z.imag() > 0.0) {
    cei += cd(0.0, pi);
  } else if (z.imag() < 0.0) {
    cei -= cd(0.0, pi);
  } else if (z.imag() == 0.0) {
    if (z.real() > 0.0) {
      cei += cd(0.0, std::copysign(pi, z.imag()));
    }
  }
  return cei;
}

inline std::complex<double> exp1(std::complex<double> z) {
  std::complex<double> outz = e1z(z);
  if (outz.real() == 1e300) {
    outz.real(std::numeric_limits<double>::infinity());
  } else if (outz.real() == -1e300) {
    outz.real(-std::numeric_limits<double>::infinity());
  }
  return outz;
}

inline std::complex<double> expi(std::complex<double> z) {
  std::complex<double> outz = eixz(z);
  if (outz.real() == 1e300) {
    outz.real(std::numeric_limits<double>::infinity());
  } else if (outz.real() == -1e300) {
    outz.real(-std::numeric_limits<double>::infinity());
  }
  return outz;
}

}  // namespace tb_xsf

#endif  // TB_EXPINT_MATH_H
