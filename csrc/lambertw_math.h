// torchbridge's C++ shim: the Lambert W function, `scipy.special.lambertw`
// (used by csrc/xsf_complex.cpp).
//
// The algorithm of SciPy's xsf `lambertw.h` (Corless, Gonnet, Hare, Jeffrey
// and Knuth, "On the Lambert W function", Adv. Comput. Math. 5, 1996),
// rewritten for torchbridge: a first guess from the series about the branch
// point -1/e, a (3, 2) Pade approximant about 0 or the asymptotic series
// log z + 2 pi i k - log(log z + 2 pi i k), then Halley's iteration to the
// relative tolerance `tol` (written with exp(-w) where Re w >= 0). The
// branch cuts and special values are SciPy's; `*status` is 1 where SciPy
// reports "singular" (z = 0, k != 0) and 2 where the iteration does not
// converge ("slow"), else 0.

#ifndef TB_LAMBERTW_MATH_H
#define TB_LAMBERTW_MATH_H

#include "loggamma_math.h"

#include <cmath>
#include <complex>
#include <cstdint>

namespace tb_xsf {

constexpr double kExpN1 = 0.36787944117144232159553;  // exp(-1)
constexpr double kOmega = 0.56714329040978387299997;  // W(1, 0)

inline cd lambertw_branchpt(cd z) {
  static const double coeffs[] = {-1.0 / 3.0, 1.0, -1.0};
  const cd p = std::sqrt(2.0 * (M_E * z + 1.0));
  return cevalpoly(coeffs, 2, p);
}

inline cd lambertw_pade0(cd z) {
  static const double num[] = {12.85106382978723404255, 12.34042553191489361902, 1.0};
  static const double denom[] = {32.53191489361702127660, 14.34042553191489361702, 1.0};
  return z * cevalpoly(num, 2, z) / cevalpoly(denom, 2, z);
}

inline cd lambertw_asy(cd z, int64_t k) {
  const cd w = std::log(z) + 2.0 * kPi * static_cast<double>(k) * cd(0, 1);
  return w - std::log(w);
}

inline cd lambertw(cd z, int64_t k, double tol, int* status) {
  *status = 0;
  if (std::isnan(z.real()) || std::isnan(z.imag())) {
    return z;
  }
  if (z.real() == kInf) {
    return z + 2.0 * kPi * static_cast<double>(k) * cd(0, 1);
  }
  if (z.real() == -kInf) {
    return -z + (2.0 * kPi * static_cast<double>(k) + kPi) * cd(0, 1);
  }
  if (z == 0.0) {
    if (k == 0) {
      return z;
    }
    *status = 1;
    return -kInf;
  }
  if (z == 1.0 && k == 0) {
    return kOmega;
  }
  const double absz = std::abs(z);
  cd w;
  if (k == 0) {
    if (std::abs(z + kExpN1) < 0.3) {
      w = lambertw_branchpt(z);
    } else if (-1.0 < z.real() && z.real() < 1.5 && std::abs(z.imag()) < 1.0 &&
               -2.5 * std::abs(z.imag()) - 0.2 < z.real()) {
      w = lambertw_pade0(z);
    } else {
      w = lambertw_asy(z, k);
    }
  } else if (k == -1) {
    if (absz <= kExpN1 && z.imag() == 0.0 && z.real() < 0.0) {
      w = std::log(-z.real());
    } else {
      w = lambertw_asy(z, k);
    }
  } else {
    w = lambertw_asy(z, k);
  }
  if (w.real() >= 0) {
    for (int i = 0; i < 100; i++) {
      const cd ew = std::exp(-w);
      const cd wewz = w - z * ew;
      const cd wn = w - wewz / (w + 1.0 - (w + 2.0) * wewz / (2.0 * w + 2.0));
      if (std::abs(wn - w) <= tol * std::abs(wn)) {
        return wn;
      }
      w = wn;
    }
  } else {
    for (int i = 0; i < 100; i++) {
      const cd ew = std::exp(w);
      const cd wew = w * ew;
      const cd wewz = wew - z;
      const cd wn = w - wewz / (wew + ew - (w + 2.0) * wewz / (2.0 * w + 2.0));
      if (std::abs(wn - w) <= tol * std::abs(wn)) {
        return wn;
      }
      w = wn;
    }
  }
  *status = 2;
  return {kNan, kNan};
}

}  // namespace tb_xsf

#endif  // TB_LAMBERTW_MATH_H
