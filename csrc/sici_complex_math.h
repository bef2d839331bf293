// torchbridge's C++ shim: the sine and cosine integrals, their hyperbolic
// counterparts and the Fresnel integrals of complex argument,
// `scipy.special.sici`, `shichi` and `fresnel` on their complex loops (used
// by csrc/xsf_complex.cpp).
//
// sici and shichi follow SciPy's xsf conventions: the power series
// DLMF 6.6.5-6.6.6 for |z| < 0.8 (Si and Shi would cancel in the exponential
// integrals there), beyond it Si, Ci from Ei(+-iz) and Shi, Chi from Ei(+-z)
// (DLMF 6.5.5-6.5.6 with 6.4.4-6.4.7, the Ei of expint_math.h, SciPy's), with
// the constant +-pi/2, +-i pi/2, i pi that puts the result on the principal
// branch of log z (so Ci and Chi on the negative real axis have imaginary part
// +pi, whatever the sign of a zero imaginary part). Ci(0), Chi(0) are
// -inf + nan i; z = +-inf on the real line gives the limits.
//
// The Fresnel integrals come from the complex error function (the Faddeeva
// kernel of faddeeva_math.h): with u = (1 + i) sqrt(pi) z / 2 and
// v = (1 - i) sqrt(pi) z / 2 (DLMF 7.5.7-7.5.8 in this form),
//   C(z) = (1 - i)/4 (erf u + i erf v),   S(z) = (1 + i)/4 (erf u - i erf v),
// and for |z| < 1, where C(z) - z and S(z) cancel there, their power series
// DLMF 7.6.4, 7.6.6. Infinite components give nan, as SciPy.

#ifndef TB_SICI_COMPLEX_MATH_H
#define TB_SICI_COMPLEX_MATH_H

#include "expint_math.h"
#include "faddeeva_math.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>

namespace tb_sici {

using cd = std::complex<double>;

constexpr double kEuler = 0.577215664901532860606512090082402431;
constexpr double kPi = 3.141592653589793;
constexpr double kHalfPi = 1.5707963267948966;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// sum_{n>=0} sign^n z^(2n+1) / ((2n+1)! (2n+1)) into `odd` and
// sum_{n>=1} sign^n z^(2n) / ((2n)! 2n) into `even`: Si and Ci - gamma - log z
// (sign -1), Shi and Chi - gamma - log z (sign +1).
inline void series(double sign, cd z, cd* odd, cd* even) {
  constexpr double kTol = 2.220446092504131e-16;
  cd term = z;  // z^k / k!, signed
  cd s = z;
  cd c = 0.0;
  for (int n = 1; n < 100; ++n) {
    term *= sign * z / (2.0 * n);
    const cd ce = term / (2.0 * n);
    c += ce;
    term *= z / (2.0 * n + 1.0);
    const cd so = term / (2.0 * n + 1.0);
    s += so;
    if (std::abs(so) < kTol * std::abs(s) && std::abs(ce) < kTol * std::abs(c)) {
      break;
    }
  }
  *odd = s;
  *even = c;
}

// gamma + log z added to the even series, Ci(0) = -inf + nan i.
inline cd log_part(cd z, cd even) {
  if (z == 0.0) {
    return cd(-kInf, kNan);
  }
  return even + kEuler + std::log(z);
}

inline void sici(cd z, cd* si, cd* ci) {
  if (z.imag() == 0.0 && std::isinf(z.real())) {
    const bool positive = z.real() > 0;
    *si = positive ? kHalfPi : -kHalfPi;
    *ci = positive ? cd(0.0, 0.0) : cd(0.0, kPi);
    return;
  }
  if (std::abs(z) < 0.8) {
    cd even;
    series(-1.0, z, si, &even);
    *ci = log_part(z, even);
    return;
  }
  const cd iz(-z.imag(), z.real());
  const cd e_plus = tb_xsf::expi(iz);
  const cd e_minus = tb_xsf::expi(-iz);
  cd s = cd(0.0, -0.5) * (e_plus - e_minus);
  cd c = 0.5 * (e_plus + e_minus);
  if (z.real() == 0.0) {
    if (z.imag() > 0.0) {
      c += cd(0.0, kHalfPi);
    } else if (z.imag() < 0.0) {
      c -= cd(0.0, kHalfPi);
    }
  } else if (z.real() > 0.0) {
    s -= kHalfPi;
  } else {
    s += kHalfPi;
    c += z.imag() >= 0.0 ? cd(0.0, kPi) : cd(0.0, -kPi);
  }
  *si = s;
  *ci = c;
}

inline void shichi(cd z, cd* shi, cd* chi) {
  if (z.imag() == 0.0 && std::isinf(z.real())) {
    *shi = z.real();
    *chi = kInf;
    return;
  }
  if (std::abs(z) < 0.8) {
    cd even;
    series(1.0, z, shi, &even);
    *chi = log_part(z, even);
    return;
  }
  const cd e_plus = tb_xsf::expi(z);
  const cd e_minus = tb_xsf::expi(-z);
  cd s = 0.5 * (e_plus - e_minus);
  cd c = 0.5 * (e_plus + e_minus);
  if (z.imag() > 0.0) {
    s -= cd(0.0, kHalfPi);
    c += cd(0.0, kHalfPi);
  } else if (z.imag() < 0.0) {
    s += cd(0.0, kHalfPi);
    c -= cd(0.0, kHalfPi);
  } else if (z.real() < 0.0) {
    c += cd(0.0, kPi);
  }
  *shi = s;
  *chi = c;
}

// (S(z), C(z)).
inline void fresnel(cd z, cd* s, cd* c) {
  if (std::isinf(z.real()) || std::isinf(z.imag()) || std::isnan(z.real()) || std::isnan(z.imag())) {
    *s = cd(kNan, kNan);
    *c = cd(kNan, kNan);
    return;
  }
  if (std::abs(z) < 1.0) {
    // C = sum (-1)^n (pi/2)^(2n) z^(4n+1) / ((2n)! (4n+1)),
    // S = sum (-1)^n (pi/2)^(2n+1) z^(4n+3) / ((2n+1)! (4n+3))
    const cd t = kHalfPi * z * z;
    cd term = z;  // (pi/2)^k z^(2k+1) / k!
    cd sc = z;
    cd ss = 0.0;
    for (int k = 1; k < 40; ++k) {
      term *= t / static_cast<double>(k);
      const cd piece = ((k / 2) % 2 == 0 ? 1.0 : -1.0) * term / (2.0 * k + 1.0);
      if (k % 2 == 1) {
        ss += piece;
      } else {
        sc += piece;
      }
      // the terms decrease from k = 1 on (|t| < pi/2)
      if (k >= 2 && !(std::abs(term) >= 1e-18 * std::min(std::abs(sc), std::abs(ss)))) {
        break;
      }
    }
    *s = ss;
    *c = sc;
    return;
  }
  constexpr double kSqrtPiOver2 = 0.886226925452758013649083741671000;
  const cd u = cd(1.0, 1.0) * (kSqrtPiOver2 * z);
  const cd v = cd(1.0, -1.0) * (kSqrtPiOver2 * z);
  const cd eu = tb_faddeeva::erf(u);
  const cd ev = tb_faddeeva::erf(v);
  const cd iev(-ev.imag(), ev.real());
  *c = cd(0.25, -0.25) * (eu + iev);
  *s = cd(0.25, 0.25) * (eu - iev);
}

}  // namespace tb_sici

#endif  // TB_SICI_COMPLEX_MATH_H
