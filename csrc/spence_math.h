// torchbridge's C++ shim: Spence's function of complex argument,
// `scipy.special.spence` (used by csrc/xsf_complex.cpp).
//
// SciPy's `cspence` (scipy/special/_spence.pxd), rewritten for torchbridge:
// the series about 0 for |z| < 1/2, the series about 1 that converges faster
// than Taylor's (Ginsberg and Zaborowski, ACM TOMS 2013) for |1 - z| <= 1,
// the reflection spence(z) = -spence(z / (z - 1)) - pi^2 / 6 - log(z - 1)^2 / 2
// elsewhere.

#ifndef TB_SPENCE_MATH_H
#define TB_SPENCE_MATH_H

#include <cmath>
#include <complex>

namespace tb_xsf {

constexpr double kSpenceTol = 2.220446092504131e-16;
constexpr double kPiSq6 = 1.6449340668482264365;

inline std::complex<double> cspence_series0(std::complex<double> z) {
  using cd = std::complex<double>;
  cd zfac = 1;
  cd sum1 = 0;
  cd sum2 = 0;
  if (z == 0.0) {
    return kPiSq6;
  }
  for (int n = 1; n < 500; n++) {
    zfac *= z;
    const cd term1 = zfac / static_cast<double>(n * n);
    sum1 += term1;
    const cd term2 = zfac / static_cast<double>(n);
    sum2 += term2;
    if (std::abs(term1) <= kSpenceTol * std::abs(sum1) && std::abs(term2) <= kSpenceTol * std::abs(sum2)) {
      break;
    }
  }
  return kPiSq6 - sum1 + std::log(z) * sum2;
}

inline std::complex<double> cspence_series1(std::complex<double> z) {
  using cd = std::complex<double>;
  cd zfac = 1;
  cd res = 0;
  if (z == 1.0) {
    return 0;
  }
  z = 1.0 - z;
  const cd zz = z * z;
  for (int n = 1; n < 500; n++) {
    zfac *= z;
    const cd term = ((zfac / static_cast<double>(n * n)) / static_cast<double>((n + 1) * (n + 1))) /
                    static_cast<double>((n + 2) * (n + 2));
    res += term;
    if (std::abs(term) <= kSpenceTol * std::abs(res)) {
      break;
    }
  }
  res *= 4.0 * zz;
  res += 4.0 * z + 5.75 * zz + 3.0 * (1.0 - zz) * std::log(1.0 - z);
  res /= 1.0 + 4.0 * z + zz;
  return res;
}

inline std::complex<double> cspence(std::complex<double> z) {
  if (std::abs(z) < 0.5) {
    return cspence_series0(z);
  }
  if (std::abs(1.0 - z) > 1) {
    const std::complex<double> l = std::log(z - 1.0);
    return -cspence_series1(z / (z - 1.0)) - kPiSq6 - 0.5 * (l * l);
  }
  return cspence_series1(z);
}

}  // namespace tb_xsf

#endif  // TB_SPENCE_MATH_H
