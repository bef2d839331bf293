// torchbridge's C++ shim: the scalar mathematics of SciPy's complex gamma
// family, `scipy.special.loggamma`, `gamma`, `rgamma` and `digamma`/`psi` of
// complex argument (used by csrc/xsf_complex.cpp).
//
// These follow the algorithms of SciPy's xsf headers `loggamma.h` and
// `digamma.h` (after Hare, "Computing the principal branch of log-Gamma",
// J. Algorithms 25, 1997, and the Julia implementation), rewritten for
// torchbridge:
//
// - loggamma: Stirling's series for Re z > 7 or |Im z| > 7; the Taylor series
//   of loggamma(1 + z) (coefficients -gamma, (-1)^k zeta(k) / k) within 0.2 of
//   1 and, with one step of the recurrence, of 2; the reflection
//   log(pi) - log(sin(pi z)) - loggamma(1 - z), with the multiple of 2 pi i
//   that keeps the branch continuous, for Re z < 0.1; the backward recurrence
//   with its count of crossings of the negative real axis elsewhere.
//   gamma = exp(loggamma), rgamma = exp(-loggamma), the poles nan and 0.
// - digamma: the asymptotic series for |z| > 16, the recurrences up to it, the
//   reflection next to the negative real axis, and Taylor series (Hurwitz
//   zeta coefficients) about the zeros at 1.4616... and -0.5040....
//
// The operations are SciPy's, in SciPy's order, so that the results agree to
// rounding, special values included.

#ifndef TB_LOGGAMMA_MATH_H
#define TB_LOGGAMMA_MATH_H

#include <cmath>
#include <complex>
#include <limits>

namespace tb_xsf {

using cd = std::complex<double>;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846264338327950288;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// A polynomial with real coefficients (highest degree first) at a complex
// point, Knuth's (TAOCP 4.6.4, eq. 3) two-term recurrence.
inline cd cevalpoly(const double* coeffs, int degree, cd z) {
  double a = coeffs[0];
  double b = coeffs[1];
  const double r = 2 * z.real();
  const double s = std::norm(z);
  for (int j = 2; j < degree + 1; j++) {
    const double tmp = b;
    b = std::fma(-s, a, coeffs[j]);
    a = std::fma(r, a, tmp);
  }
  return z * a + b;
}

// sin(pi x) and cos(pi x), exact at the (half-)integers (Cephes).
inline double sinpi(double x) {
  double s = 1.0;
  if (x < 0.0) {
    x = -x;
    s = -1.0;
  }
  const double r = std::fmod(x, 2.0);
  if (r < 0.5) {
    return s * std::sin(kPi * r);
  }
  if (r > 1.5) {
    return s * std::sin(kPi * (r - 2.0));
  }
  return -s * std::sin(kPi * (r - 1.0));
}

inline double cospi(double x) {
  if (x < 0.0) {
    x = -x;
  }
  const double r = std::fmod(x, 2.0);
  if (r == 0.5) {
    return 0.0;
  }
  if (r < 1.0) {
    return -std::sin(kPi * (r - 0.5));
  }
  return std::sin(kPi * (r - 1.5));
}

// sin(pi z) and cos(pi z), without overflow of cosh/sinh where the product
// is finite.
inline cd sinpi(cd z) {
  const double x = z.real();
  const double piy = kPi * z.imag();
  const double abspiy = std::abs(piy);
  const double sinpix = sinpi(x);
  const double cospix = cospi(x);
  if (abspiy < 700) {
    return {sinpix * std::cosh(piy), cospix * std::sinh(piy)};
  }
  const double exphpiy = std::exp(abspiy / 2);
  if (exphpiy == kInf) {
    const double coshfac = sinpix == 0.0 ? std::copysign(0.0, sinpix) : std::copysign(kInf, sinpix);
    const double sinhfac = cospix == 0.0 ? std::copysign(0.0, cospix) : std::copysign(kInf, cospix);
    return {coshfac, sinhfac};
  }
  const double coshfac = 0.5 * sinpix * exphpiy;
  const double sinhfac = 0.5 * cospix * exphpiy;
  return {coshfac * exphpiy, sinhfac * exphpiy};
}

inline cd cospi(cd z) {
  const double x = z.real();
  const double piy = kPi * z.imag();
  const double abspiy = std::abs(piy);
  const double sinpix = sinpi(x);
  const double cospix = cospi(x);
  if (abspiy < 700) {
    return {cospix * std::cosh(piy), -sinpix * std::sinh(piy)};
  }
  const double exphpiy = std::exp(abspiy / 2);
  if (exphpiy == kInf) {
    const double coshfac = cospix == 0.0 ? std::copysign(0.0, cospix) : std::copysign(kInf, cospix);
    const double sinhfac = sinpix == 0.0 ? std::copysign(0.0, sinpix) : std::copysign(kInf, sinpix);
    return {coshfac, sinhfac};
  }
  const double coshfac = 0.5 * cospix * exphpiy;
  const double sinhfac = 0.5 * sinpix * exphpiy;
  return {coshfac * exphpiy, sinhfac * exphpiy};
}

constexpr double kLoggammaSmallX = 7;
constexpr double kLoggammaSmallY = 7;
constexpr double kHalfLog2Pi = 0.918938533204672742;    // log(2 pi) / 2
constexpr double kLogPi = 1.1447298858494001741434262;  // log(pi)
constexpr double kTaylorRadius = 0.2;

// log z, with the series of log(1 + (z - 1)) within 0.1 of 1.
inline cd zlog1(cd z) {
  cd coeff = -1.0;
  cd res = 0.0;
  if (std::abs(z - 1.0) > 0.1) {
    return std::log(z);
  }
  z -= 1.0;
  for (int n = 1; n < 17; n++) {
    coeff *= -z;
    res += coeff / static_cast<double>(n);
    if (std::abs(res / coeff) < kEps) {
      break;
    }
  }
  return res;
}

// Stirling's series; the coefficients B_2n / (2n (2n - 1)).
inline cd loggamma_stirling(cd z) {
  static const double coeffs[] = {-2.955065359477124183E-2,  6.4102564102564102564E-3, -1.9175269175269175269E-3,
                                  8.4175084175084175084E-4,  -5.952380952380952381E-4, 7.9365079365079365079E-4,
                                  -2.7777777777777777778E-3, 8.3333333333333333333E-2};
  const cd rz = 1.0 / z;
  const cd rzz = rz / z;
  return (z - 0.5) * std::log(z) - z + kHalfLog2Pi + rz * cevalpoly(coeffs, 7, rzz);
}

// The backward recurrence up to Re z > 7, counting the crossings of the
// negative real axis by the product of the shifts.
inline cd loggamma_recurrence(cd z) {
  int signflips = 0;
  int sb = 0;
  cd shiftprod = z;
  z += 1.0;
  while (z.real() <= kLoggammaSmallX) {
    shiftprod *= z;
    const int nsb = std::signbit(shiftprod.imag());
    signflips += nsb != 0 && sb == 0 ? 1 : 0;
    sb = nsb;
    z += 1.0;
  }
  return loggamma_stirling(z) - std::log(shiftprod) - signflips * 2 * kPi * cd(0, 1);
}

// The Taylor series of loggamma about 1.
inline cd loggamma_taylor(cd z) {
  static const double coeffs[] = {
      -4.3478266053040259361E-2, 4.5454556293204669442E-2, -4.7619070330142227991E-2, 5.000004769810169364E-2,
      -5.2631679379616660734E-2, 5.5555767627403611102E-2, -5.8823978658684582339E-2, 6.2500955141213040742E-2,
      -6.6668705882420468033E-2, 7.1432946295361336059E-2, -7.6932516411352191473E-2, 8.3353840546109004025E-2,
      -9.0954017145829042233E-2, 1.0009945751278180853E-1, -1.1133426586956469049E-1, 1.2550966952474304242E-1,
      -1.4404989676884611812E-1, 1.6955717699740818995E-1, -2.0738555102867398527E-1, 2.7058080842778454788E-1,
      -4.0068563438653142847E-1, 8.2246703342411321824E-1, -5.7721566490153286061E-1};
  z -= 1.0;
  return z * cevalpoly(coeffs, 22, z);
}

// Whether z is a pole of Gamma: 0, -1, -2, ... (real).
inline bool gamma_pole(cd z) { return z.real() <= 0 && z == std::floor(z.real()); }

// The principal branch of log Gamma (continuous off the negative real axis).
inline cd loggamma(cd z) {
  if (std::isnan(z.real()) || std::isnan(z.imag())) {
    return {kNan, kNan};
  }
  if (gamma_pole(z)) {
    return {kNan, kNan};
  }
  if (z.real() > kLoggammaSmallX || std::abs(z.imag()) > kLoggammaSmallY) {
    return loggamma_stirling(z);
  }
  if (std::abs(z - 1.0) < kTaylorRadius) {
    return loggamma_taylor(z);
  }
  if (std::abs(z - 2.0) < kTaylorRadius) {
    return zlog1(z - 1.0) + loggamma_taylor(z - 1.0);
  }
  if (z.real() < 0.1) {
    const double tmp = std::copysign(2 * kPi, z.imag()) * std::floor(0.5 * z.real() + 0.25);
    return cd(kLogPi, tmp) - std::log(sinpi(z)) - loggamma(1.0 - z);
  }
  if (std::signbit(z.imag()) == 0) {
    return loggamma_recurrence(z);
  }
  return std::conj(loggamma_recurrence(std::conj(z)));
}

inline cd gamma(cd z) {
  if (gamma_pole(z)) {
    return {kNan, kNan};
  }
  return std::exp(loggamma(z));
}

inline cd rgamma(cd z) {
  if (gamma_pole(z)) {
    return 0.0;
  }
  return std::exp(-loggamma(z));
}

// Hurwitz's zeta(x, q) by Euler-Maclaurin summation (Cephes' `zeta`), for
// the integer x > 1 and the real q of the digamma series.
inline double hurwitz_zeta(double x, double q) {
  static const double A[] = {12.0,
                             -720.0,
                             30240.0,
                             -1209600.0,
                             47900160.0,
                             -1.8924375803183791606e9,
                             7.47242496e10,
                             -2.950130727918164224e12,
                             1.1646782814350067249e14,
                             -4.5979787224074726105e15,
                             1.8152105401943546773e17,
                             -7.1661652561756670113e18};
  if (x == 1.0) {
    return kInf;
  }
  if (q <= 0.0 && q == std::floor(q)) {
    return kInf;
  }
  double s = std::pow(q, -x);
  double a = q;
  int i = 0;
  double b = 0.0;
  while ((i < 9) || (a <= 9.0)) {
    i += 1;
    a += 1.0;
    b = std::pow(a, -x);
    s += b;
    if (std::abs(b / s) < 1.11022302462515654042E-16) {
      return s;
    }
  }
  const double w = a;
  s += b * w / (x - 1.0);
  s -= 0.5 * b;
  a = 1.0;
  double k = 0.0;
  for (i = 0; i < 12; i++) {
    a *= x + k;
    b /= w;
    double t = a * b / A[i];
    s = s + t;
    t = std::abs(t / s);
    if (t < 1.11022302462515654042E-16) {
      return s;
    }
    k += 1.0;
    a *= x + k;
    b /= w;
    k += 1.0;
  }
  return s;
}

constexpr double kDigammaPosRoot = 1.4616321449683623;
constexpr double kDigammaPosRootVal = -9.2412655217294275e-17;
constexpr double kDigammaNegRoot = -0.504083008264455409;
constexpr double kDigammaNegRootVal = 7.2897639029768949e-17;

inline cd digamma_zeta_series(cd z, double root, double rootval) {
  cd res = rootval;
  cd coeff = -1.0;
  z = z - root;
  for (int n = 1; n < 100; n++) {
    coeff *= -z;
    const cd term = coeff * hurwitz_zeta(n + 1, root);
    res += term;
    if (std::abs(term) < kEps * std::abs(res)) {
      break;
    }
  }
  return res;
}

inline cd digamma_forward_recurrence(cd z, cd psiz, int n) {
  cd res = psiz;
  for (int k = 0; k < n; k++) {
    res += 1.0 / (z + static_cast<double>(k));
  }
  return res;
}

inline cd digamma_backward_recurrence(cd z, cd psiz, int n) {
  cd res = psiz;
  for (int k = 1; k < n + 1; k++) {
    res -= 1.0 / (z - static_cast<double>(k));
  }
  return res;
}

inline cd digamma_asymptotic_series(cd z) {
  static const double bernoulli2k[] = {
      0.166666666666666667,  -0.0333333333333333333, 0.0238095238095238095, -0.0333333333333333333,
      0.0757575757575757576, -0.253113553113553114,  1.16666666666666667,   -7.09215686274509804,
      54.9711779448621554,   -529.124242424242424,   6192.12318840579710,   -86580.2531135531136,
      1425517.16666666667,   -27298231.0678160920,   601580873.900642368,   -15116315767.0921569};
  if (!(std::isfinite(z.real()) && std::isfinite(z.imag()))) {
    return std::log(z);
  }
  const cd rzz = 1.0 / z / z;
  cd zfac = 1.0;
  cd res = std::log(z) - 0.5 / z;
  for (int k = 1; k < 17; k++) {
    zfac *= rzz;
    const cd term = -bernoulli2k[k - 1] * zfac / (2 * static_cast<double>(k));
    res += term;
    if (std::abs(term) < kEps * std::abs(res)) {
      break;
    }
  }
  return res;
}

inline cd digamma(cd z) {
  double absz = std::abs(z);
  cd res = 0;
  const int smallabsz = 16;
  if (z.real() <= 0.0 && std::ceil(z.real()) == z) {
    return {kNan, kNan};
  }
  if (std::abs(z - kDigammaNegRoot) < 0.3) {
    return digamma_zeta_series(z, kDigammaNegRoot, kDigammaNegRootVal);
  }
  if (z.real() < 0 && std::abs(z.imag()) < smallabsz) {
    res = -kPi * cospi(z) / sinpi(z);
    z = 1.0 - z;
    absz = std::abs(z);
  }
  if (absz < 0.5) {
    res = -1.0 / z;
    z += 1.0;
    absz = std::abs(z);
  }
  if (std::abs(z - kDigammaPosRoot) < 0.5) {
    res += digamma_zeta_series(z, kDigammaPosRoot, kDigammaPosRootVal);
  } else if (absz > smallabsz) {
    res += digamma_asymptotic_series(z);
  } else if (z.real() >= 0.0) {
    const double n = std::trunc(smallabsz - absz) + 1;
    const cd init = digamma_asymptotic_series(z + n);
    res += digamma_backward_recurrence(z + n, init, static_cast<int>(n));
  } else {
    const double n = std::trunc(smallabsz - absz) - 1;
    const cd init = digamma_asymptotic_series(z - n);
    res += digamma_forward_recurrence(z - n, init, static_cast<int>(n));
  }
  return res;
}

}  // namespace tb_xsf

#endif  // TB_LOGGAMMA_MATH_H
