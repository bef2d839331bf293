// torchbridge's C++ shim, SciPy's multi-output ufuncs of real argument:
// `scipy.special.sici`, `shichi` (Cephes sici.c, shichi.c), `fresnel`
// (fresnl.c), `airy`, `airye` (airy.c; AMOS's zairy/zbiry for real x) and
// `ellipj` (ellpj.c); the exponential integrals `exp1`, `expi`, `expn`
// (specfun's e1xb/eix, Cephes expn.c; src/ops/special/expint.rs); and the spherical Bessel functions behind
// `spherical_jn`, `spherical_yn`, `spherical_in`, `spherical_kn` (xsf's
// sph_bessel.h) with their derivatives, and `smirnov`, `smirnovi` (Cephes
// kolmogorov.c), as CPU kernels declared in Rust in
// src/ffi/cephes_misc.rs and used by src/ops/special/{sici,fresnel,airy,ellipj}.rs.
//
// One entry point, tb_cephes_misc_cpu: the routine `kind` (see Kind) of one
// or two float64 CPU tensors of one shape, into a new tensor of shape
// [nout, *shape] (the outputs stacked, in SciPy's order), split over
// libtorch's thread count (csrc/parallel.h). Every entry point checks its
// tensors with TORCH_CHECK and catches every C++ exception (see error.h).
//
// The methods are torchbridge's own (power series, continued fractions,
// asymptotic series, the arithmetic-geometric mean, the Bessel functions of
// csrc/bessel_kernels.h); the special values (signs, infinities, nan, where
// SciPy's kernels switch to nan or 0) are SciPy's, read off SciPy 1.17.

#include "bessel_kernels.h"
#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

using tb_shim::describe_current_exception;

namespace tb_cephes_misc {

enum Kind : int64_t {
  kSici = 0,
  kShichi = 1,
  kFresnel = 2,
  kAiry = 3,
  kAirye = 4,
  kEllipj = 5,
  kSphJn = 6,
  kSphYn = 7,
  kSphIn = 8,
  kSphKn = 9,
  kSphJnD = 10,
  kSphYnD = 11,
  kSphInD = 12,
  kSphKnD = 13,
  kSmirnov = 14,
  kSmirnovi = 15,
  kExp1 = 16,
  kExpi = 17,
  kExpn = 18,
};

constexpr double kPi = 3.14159265358979323846;
constexpr double kHalfPi = 1.57079632679489661923;
constexpr double kEuler = 0.57721566490153286061;
constexpr double kEps = 1.1102230246251565e-16;  // 2^-53
constexpr double kTiny = 1e-300;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxIter = 100000;

// ---------------------------------------------------------------------------
// sici: Si(x) = int_0^x sin t / t dt, Ci(x) = gamma + ln x + int_0^x (cos t - 1) / t dt.
// |x| <= 2: the power series of both; beyond: the continued fraction of
// E1(ix) (modified Lentz), Ci + i (Si - pi/2) = -E1(ix). x < 0: Si odd, Ci(x)
// the real part Ci(|x|) as SciPy; Ci(0) = -inf, Ci(-inf) = nan.
// ---------------------------------------------------------------------------

inline void sici(double x, double* si, double* ci) {
  if (std::isnan(x)) {
    *si = *ci = kNan;
    return;
  }
  const double t = std::fabs(x);
  const double sign = x < 0 ? -1.0 : 1.0;
  if (t == 0.0) {
    *si = 0.0;
    *ci = -kInf;
    return;
  }
  if (std::isinf(t)) {
    *si = sign * kHalfPi;
    *ci = x > 0 ? 0.0 : kNan;
    return;
  }
  double s, c;
  if (t <= 2.0) {
    // sum_k (-1)^k t^(2k+1) / ((2k+1)(2k+1)!) and sum_k (-1)^k t^(2k) / (2k (2k)!)
    double fact = 1.0, sum_s = 0.0, sum_c = 0.0;
    for (int k = 1; k < 200; ++k) {
      fact *= t / k;
      const double term = fact / k;
      const int r = k % 4;
      if (k % 2 == 1) {
        sum_s += r == 1 ? term : -term;
        if (term < kEps * std::fabs(sum_s)) break;
      } else {
        sum_c += r == 2 ? -term : term;
      }
    }
    s = sum_s;
    c = kEuler + std::log(t) + sum_c;
  } else {
    // E1(it) = exp(-it) / (it + 1 - 1^2 / (it + 3 - 2^2 / (it + 5 - ...)))
    std::complex<double> b(1.0, t);
    std::complex<double> cc = 1.0 / kTiny;
    std::complex<double> d = 1.0 / b;
    std::complex<double> h = d;
    for (int i = 2; i < kMaxIter; ++i) {
      const double a = -static_cast<double>(i - 1) * (i - 1);
      b += 2.0;
      d = 1.0 / (a * d + b);
      cc = b + a / cc;
      const std::complex<double> del = cc * d;
      h *= del;
      if (std::fabs(del.real() - 1.0) + std::fabs(del.imag()) < kEps) break;
    }
    h *= std::complex<double>(std::cos(t), -std::sin(t));
    c = -h.real();
    s = kHalfPi + h.imag();
  }
  *si = sign * s;
  *ci = c;
}

// ---------------------------------------------------------------------------
// shichi: Shi(x) = int_0^x sinh t / t dt, Chi(x) = gamma + ln x + int_0^x (cosh t - 1) / t dt.
// |x| <= 50: the power series (all terms positive); beyond: the asymptotic
// series of Ei (E1 is below the last digit there), e^x split in two; inf
// from x = log(DBL_MAX) + log(2) on, as SciPy. x < 0: Shi odd,
// Chi even (SciPy's real part); Chi(0) = -inf.
// ---------------------------------------------------------------------------

// SciPy's Shi and Chi are inf from log(DBL_MAX) + log(2) on (where its e^x overflows).
constexpr double kShichiOverflow = 710.475860073944;

inline void shichi(double x, double* shi, double* chi) {
  if (std::isnan(x)) {
    *shi = *chi = kNan;
    return;
  }
  const double t = std::fabs(x);
  const double sign = x < 0 ? -1.0 : 1.0;
  if (t == 0.0) {
    *shi = 0.0;
    *chi = -kInf;
    return;
  }
  if (t >= kShichiOverflow) {
    *shi = sign * kInf;
    *chi = kInf;
    return;
  }
  double s, c;
  if (t <= 50.0) {
    double fact = 1.0, sum_s = 0.0, sum_c = 0.0;
    for (int k = 1; k < 1000; ++k) {
      fact *= t / k;
      const double term = fact / k;
      if (k % 2 == 1) {
        sum_s += term;
      } else {
        sum_c += term;
      }
      if (k > t && term < kEps * 0.25 * sum_s) break;
    }
    s = sum_s;
    c = kEuler + std::log(t) + sum_c;
  } else {
    // Ei(t) ~ e^t / t * sum_k k! / t^k, to the smallest term
    double term = 1.0, sum = 1.0;
    for (int k = 1; k < 1000; ++k) {
      const double next = term * k / t;
      if (next > term) break;
      term = next;
      sum += term;
      if (term < kEps * 0.25 * sum) break;
    }
    const double half = std::exp(0.5 * t);
    const double ei = half * (half / (2.0 * t) * sum);  // Ei / 2
    s = ei;
    c = ei;
  }
  *shi = sign * s;
  *chi = c;
}

// ---------------------------------------------------------------------------
// fresnel: S(x) = int_0^x sin(pi t^2 / 2) dt, C(x) = int_0^x cos(pi t^2 / 2) dt.
// |x| <= 1.5: the power series; beyond: the continued fraction of
// erfc((1 - i) sqrt(pi) x / 2) (modified Lentz), with the phase pi x^2 / 2
// reduced exactly (sinpi, cospi of x^2 / 2); x > 36974: SciPy's leading
// asymptotic terms 1/2 -+ (cos, sin)(pi x^2 / 2) / (pi x). Odd in x.
// ---------------------------------------------------------------------------

inline double sinpi(double v) { return tb_bessel::sinpi(v); }

inline double cospi(double v) {
  double r = std::fmod(std::fabs(v), 2.0);  // exact, in [0, 2)
  if (r == 0.5 || r == 1.5) return 0.0;
  if (r > 1.0) r = 2.0 - r;  // cos(pi r) = cos(pi (2 - r))
  if (r > 0.5) return -std::sin(kPi * (r - 0.5));
  return std::sin(kPi * (0.5 - r));
}

inline void fresnel(double x, double* sa, double* ca) {
  if (std::isnan(x)) {
    *sa = *ca = kNan;
    return;
  }
  const double t = std::fabs(x);
  double s, c;
  if (std::isinf(t)) {
    s = c = 0.5;
  } else if (t < 1e-150) {
    s = 0.0;
    c = t;
    if (t > 0.0) s = kPi / 6.0 * t * t * t;  // underflows to 0 below ~1e-103
  } else if (t <= 1.5) {
    // S = sum_k (-1)^k (pi/2)^(2k+1) t^(4k+3) / ((2k+1)! (4k+3)),
    // C = sum_k (-1)^k (pi/2)^(2k) t^(4k+1) / ((2k)! (4k+1))
    const double fact = kHalfPi * t * t;
    double term = t, sum_s = 0.0, sum_c = t;
    for (int k = 1; k < 200; ++k) {
      term *= fact / k;
      const double value = term / (2 * k + 1);
      const int r = k % 4;
      if (k % 2 == 1) {
        sum_s += r == 1 ? value : -value;
        if (value < kEps * std::fabs(sum_s) * 0.5) break;
      } else {
        sum_c += r == 2 ? -value : value;
      }
    }
    s = sum_s;
    c = sum_c;
  } else if (t > 36974.0) {
    const double half = t * t / 2.0;
    c = 0.5 + sinpi(half) / (kPi * t);
    s = 0.5 - cospi(half) / (kPi * t);
  } else {
    std::complex<double> b(1.0, -kPi * t * t);
    std::complex<double> cc = 1.0 / kTiny;
    std::complex<double> d = 1.0 / b;
    std::complex<double> h = d;
    double n = -1.0;
    for (int k = 2; k < kMaxIter; ++k) {
      n += 2.0;
      const double a = -n * (n + 1.0);
      b += 4.0;
      d = 1.0 / (a * d + b);
      cc = b + a / cc;
      const std::complex<double> del = cc * d;
      h *= del;
      if (std::fabs(del.real() - 1.0) + std::fabs(del.imag()) < kEps) break;
    }
    h *= std::complex<double>(t, -t);
    const double half = t * t / 2.0;
    const std::complex<double> phase(cospi(half), sinpi(half));
    const std::complex<double> cs = std::complex<double>(0.5, 0.5) * (1.0 - phase * h);
    c = cs.real();
    s = cs.imag();
  }
  if (x < 0.0) {
    s = -s;
    c = -c;
  }
  *sa = s;
  *ca = c;
}

// ---------------------------------------------------------------------------
// airy, airye: Ai, Ai', Bi, Bi' of real x (DLMF 9). |x| <= 2: the Maclaurin
// series (DLMF 9.4.1-9.4.4); x > 2: K and I of orders 1/3, 2/3 at
// zeta = 2/3 x^(3/2) (DLMF 9.6.1-9.6.4); x < -2: J of orders +-1/3, +-2/3
// (DLMF 9.6.6-9.6.9), the Bessel functions csrc/bessel_kernels.h's.
// SciPy's special values: nan at +-inf and for |x| >= 1048575.99967 (AMOS's
// loss-of-significance limit, about 2^20); airy's Ai, Ai' are 0 and Bi, Bi' nan past
// the points where AMOS flags underflow and overflow (read off SciPy);
// airye's Ai, Ai' are nan for x < 0 (SciPy's), its Bi, Bi' there are Bi, Bi'.
// ---------------------------------------------------------------------------

constexpr double kAi0 = 0.355028053887817239260063186004;   // Ai(0)
constexpr double kAip0 = 0.258819403792806798405183560189;  // -Ai'(0)
constexpr double kSqrt3 = 1.73205080756887729352744634151;
constexpr double kAmosLimit = 1048575.9996744784;       // AMOS's (2^30)^(2/3) as it rounds it
constexpr double kAiUnderflow = 103.09682650112123;     // airy's Ai is 0 from here
constexpr double kAipUnderflow = 103.09684998811503;    // and Ai'
constexpr double kBiOverflow = 103.28277994600522;      // airy's Bi, Bi' are nan from here

// The Maclaurin series of Ai, Ai', Bi, Bi' (|x| small).
inline void airy_series(double x, double out[4]) {
  const double x3 = x * x * x;
  double f = 1.0, g = x, fp = 0.0, gp = 1.0;
  double tf = 1.0, tg = x;  // terms of f and g
  for (int k = 1; k < 200; ++k) {
    const double fpk = tf * x * x / (3 * k - 1);  // term of f'
    const double gpk = tg * x * x / (3 * k);      // term of g'
    tf *= x3 / ((3.0 * k - 1.0) * (3.0 * k));
    tg *= x3 / ((3.0 * k) * (3.0 * k + 1.0));
    f += tf;
    g += tg;
    fp += fpk;
    gp += gpk;
    if (std::fabs(tf) + std::fabs(tg) + std::fabs(fpk) + std::fabs(gpk) <
        1e-3 * kEps * (std::fabs(f) + std::fabs(g) + std::fabs(fp) + std::fabs(gp))) {
      break;
    }
    if (tf == 0.0 && tg == 0.0) break;
  }
  out[0] = kAi0 * f - kAip0 * g;
  out[1] = kAi0 * fp - kAip0 * gp;
  out[2] = kSqrt3 * (kAi0 * f + kAip0 * g);
  out[3] = kSqrt3 * (kAi0 * fp + kAip0 * gp);
}

inline double bessel(int64_t kind, double v, double x) { return tb_bessel::evaluate(kind, v, x); }

// `scaled`: airye's forms (Ai, Ai' times e^zeta, Bi, Bi' times e^-zeta for x > 0).
inline void airy(double x, bool scaled, double out[4]) {
  if (std::isnan(x) || std::fabs(x) >= kAmosLimit) {
    out[0] = out[1] = out[2] = out[3] = kNan;
    return;
  }
  const double z = std::fabs(x);
  const double zeta = 2.0 / 3.0 * z * std::sqrt(z);
  if (z <= 2.0) {
    airy_series(x, out);
    if (scaled && x > 0.0) {
      const double e = std::exp(zeta);
      out[0] *= e;
      out[1] *= e;
      out[2] /= e;
      out[3] /= e;
    }
  } else if (x > 0.0) {
    const int64_t k = scaled ? tb_bessel::kKve : tb_bessel::kKv;
    const int64_t i = scaled ? tb_bessel::kIve : tb_bessel::kIv;
    const double r = std::sqrt(z / 3.0);
    out[0] = r / kPi * bessel(k, 1.0 / 3.0, zeta);
    out[1] = -z / (kPi * kSqrt3) * bessel(k, 2.0 / 3.0, zeta);
    out[2] = r * (bessel(i, -1.0 / 3.0, zeta) + bessel(i, 1.0 / 3.0, zeta));
    out[3] = z / kSqrt3 * (bessel(i, -2.0 / 3.0, zeta) + bessel(i, 2.0 / 3.0, zeta));
    if (!scaled) {
      if (x >= kAiUnderflow) out[0] = 0.0;
      if (x >= kAipUnderflow) out[1] = 0.0;
      if (x >= kBiOverflow) out[2] = out[3] = kNan;
    }
  } else {
    const int64_t j = tb_bessel::kJv;
    const double j1 = bessel(j, 1.0 / 3.0, zeta), jm1 = bessel(j, -1.0 / 3.0, zeta);
    const double j2 = bessel(j, 2.0 / 3.0, zeta), jm2 = bessel(j, -2.0 / 3.0, zeta);
    out[0] = std::sqrt(z) / 3.0 * (j1 + jm1);
    out[1] = z / 3.0 * (j2 - jm2);
    out[2] = std::sqrt(z / 3.0) * (jm1 - j1);
    out[3] = z / kSqrt3 * (jm2 + j2);
  }
  if (scaled && x < 0.0) out[0] = out[1] = kNan;
}

// ---------------------------------------------------------------------------
// ellipj: the Jacobi elliptic functions sn, cn, dn and the amplitude ph of
// u and parameter m (A&S 16.4: the descending Landen transformation by the
// arithmetic-geometric mean); m below 1e-9 and from 1 - 1e-10 on by the
// first-order expansions in m and 1 - m (A&S 16.13, 16.15), as SciPy.
// m outside [0, 1] (or nan): nan.
// ---------------------------------------------------------------------------

inline void ellipj(double u, double m, double out[4]) {
  double& sn = out[0];
  double& cn = out[1];
  double& dn = out[2];
  double& ph = out[3];
  if (std::isnan(m) || m < 0.0 || m > 1.0 || std::isnan(u)) {
    sn = cn = dn = ph = kNan;
    return;
  }
  if (m < 1e-9) {
    const double t = std::sin(u), b = std::cos(u);
    const double ai = 0.25 * m * (u - t * b);
    sn = t - ai * b;
    cn = b + ai * t;
    ph = u - ai;
    dn = 1.0 - 0.5 * m * t * t;
    return;
  }
  if (m >= 0.9999999999) {
    double ai = 0.25 * (1.0 - m);
    const double b = std::cosh(u), t = std::tanh(u);
    const double phi = 1.0 / b;
    const double twon = b * std::sinh(u);
    sn = t + ai * (twon - u) / (b * b);
    ph = 2.0 * std::atan(std::exp(u)) - kHalfPi + ai * (twon - u) / b;
    ai *= t * phi;
    cn = phi - ai * (twon - u);
    dn = phi + ai * (twon + u);
    return;
  }
  double a[16], c[16];
  a[0] = 1.0;
  c[0] = std::sqrt(m);
  double b = std::sqrt(1.0 - m);
  double twon = 1.0;
  int i = 0;
  while (std::fabs(c[i] / a[i]) > kEps) {
    if (i >= 14) {
      sn = cn = dn = ph = kNan;
      return;
    }
    const double ai = a[i];
    ++i;
    c[i] = (ai - b) / 2.0;
    const double t = std::sqrt(ai * b);
    a[i] = (ai + b) / 2.0;
    b = t;
    twon *= 2.0;
  }
  double phi = twon * a[i] * u;
  double prev = phi;
  for (; i > 0; --i) {
    const double t = c[i] * std::sin(phi) / a[i];
    prev = phi;
    phi = (std::asin(t) + phi) / 2.0;
  }
  sn = std::sin(phi);
  cn = std::cos(phi);
  // dn = cn / cos(phi_1 - phi_0) loses its digits where the cosine is small
  // (DLMF 22.20.5 and after): there sqrt(1 - m sn^2), as SciPy
  const double dnfac = std::cos(phi - prev);
  dn = std::fabs(dnfac) < 0.1 ? std::sqrt(1.0 - m * sn * sn) : cn / dnfac;
  ph = phi;
}

// ---------------------------------------------------------------------------
// The spherical Bessel functions j_n, y_n, i_n, k_n of integer order n and
// real x and their derivatives (SciPy's xsf sph_bessel.h for real x):
// j_n by the upward recurrence from sin x / x where n < x, else
// sqrt(pi / 2x) J_(n+1/2)(x); y_n by the upward recurrence (stable for y);
// i_n, k_n as sqrt(pi / 2x) I_(n+1/2)(x), K_(n+1/2)(x) (csrc/bessel_kernels.h).
// j_n(-x) = (-1)^n j_n(x), y_n(-x) = (-1)^(n+1) y_n(x), i_n(-x) = (-1)^n i_n(x),
// k_n(-x) = -pi i_n(x) - (-1)^n k_n(x) (k_n continued analytically, as SciPy's
// values, which carry rounding noise where the two terms cancel). n < 0: nan. The derivatives by DLMF 10.51.2
// (f'_n = f_(n-1) - (n+1) f_n / x; f'_0 = -f_1, i'_0 = i_1, k'_n with -k_(n-1)),
// 1/3 for j'_1(0) and i'_1(0).
// ---------------------------------------------------------------------------

inline double sph_j(int64_t n, double x) {
  if (std::isnan(x)) return x;
  if (n < 0) return kNan;
  if (x < 0) {
    const double r = sph_j(n, -x);
    return n % 2 == 0 ? r : -r;
  }
  if (std::isinf(x)) return 0.0;
  if (x == 0.0) return n == 0 ? 1.0 : 0.0;
  if (n > 0 && static_cast<double>(n) >= x) {
    return std::sqrt(kHalfPi / x) * bessel(tb_bessel::kJv, static_cast<double>(n) + 0.5, x);
  }
  double s0 = std::sin(x) / x;
  if (n == 0) return s0;
  double s1 = (s0 - std::cos(x)) / x;
  if (n == 1) return s1;
  double sn = s1;
  for (int64_t i = 0; i < n - 1; ++i) {
    sn = (2.0 * i + 3.0) * s1 / x - s0;
    s0 = s1;
    s1 = sn;
    if (std::isinf(sn)) return sn;
  }
  return sn;
}

inline double sph_y(int64_t n, double x) {
  if (std::isnan(x)) return x;
  if (n < 0) return kNan;
  if (x < 0) {
    const double r = sph_y(n, -x);
    return n % 2 == 1 ? r : -r;
  }
  if (std::isinf(x)) return 0.0;
  if (x == 0.0) return -kInf;
  double s0 = -std::cos(x) / x;
  if (n == 0) return s0;
  double s1 = (s0 - std::sin(x)) / x;
  if (n == 1) return s1;
  double sn = s1;
  for (int64_t i = 0; i < n - 1; ++i) {
    sn = (2.0 * i + 3.0) * s1 / x - s0;
    s0 = s1;
    s1 = sn;
    if (std::isinf(sn)) return sn;
  }
  return sn;
}

inline double sph_i(int64_t n, double x) {
  if (std::isnan(x)) return x;
  if (n < 0) return kNan;
  if (x == 0.0) return n == 0 ? 1.0 : 0.0;
  if (std::isinf(x)) {
    if (x < 0) return n % 2 == 0 ? kInf : -kInf;
    return kInf;
  }
  if (x < 0) {
    const double r = sph_i(n, -x);
    return n % 2 == 0 ? r : -r;
  }
  return std::sqrt(kHalfPi / x) * bessel(tb_bessel::kIv, static_cast<double>(n) + 0.5, x);
}

inline double sph_k(int64_t n, double x) {
  if (std::isnan(x)) return x;
  if (n < 0) return kNan;
  if (x == 0.0) return kInf;
  if (std::isinf(x)) return x > 0 ? 0.0 : -kInf;
  if (x < 0) {
    // k_n is e^-x / x times a polynomial in 1/x: k_n(-x) = -pi i_n(x) - (-1)^n k_n(x)
    const double k = sph_k(n, -x);
    return -kPi * sph_i(n, -x) - (n % 2 == 0 ? k : -k);
  }
  return std::sqrt(kHalfPi / x) * bessel(tb_bessel::kKv, static_cast<double>(n) + 0.5, x);
}

inline double sph_j_d(int64_t n, double x) {
  if (n == 0) return -sph_j(1, x);
  if (x == 0.0) return n == 1 ? 1.0 / 3.0 : 0.0;
  return sph_j(n - 1, x) - static_cast<double>(n + 1) * sph_j(n, x) / x;
}

inline double sph_y_d(int64_t n, double x) {
  if (n == 0) return -sph_y(1, x);
  return sph_y(n - 1, x) - static_cast<double>(n + 1) * sph_y(n, x) / x;
}

inline double sph_i_d(int64_t n, double x) {
  if (n == 0) return sph_i(1, x);
  if (x == 0.0) return n == 1 ? 1.0 / 3.0 : 0.0;
  return sph_i(n - 1, x) - static_cast<double>(n + 1) * sph_i(n, x) / x;
}

inline double sph_k_d(int64_t n, double x) {
  if (n == 0) return -sph_k(1, x);
  return -sph_k(n - 1, x) - static_cast<double>(n + 1) * sph_k(n, x) / x;
}

// The order n of the spherical kinds: an integral double (the int64 loop's
// value, cast to float64 on its way here), clamped so that huge orders stay nan-free.
inline int64_t order(double n) {
  if (std::isnan(n)) return -1;
  if (n > 1e15) return static_cast<int64_t>(1e15);
  if (n < -1e15) return -1;
  return static_cast<int64_t>(n);
}

// ---------------------------------------------------------------------------
// smirnov, smirnovi: the one-sided Kolmogorov-Smirnov statistic's survival
// function D_n+ (Cephes kolmogorov.c / xsf's kolmogorov.h: SciPy's special
// cases and its n > 10^6 approximation) and its inverse in d.
// sf(n, d) = d sum_(j=0)^(floor(n(1-d))) C(n, j) (1 - d - j/n)^(n-j) (d + j/n)^(j-1)
// (Birnbaum and Tingey 1951), the terms in long double from their logarithms
// (the binomial coefficients by their ratio recurrence), summed until the rest
// is below the last digit; d <= 1/n: 1 - d (1 + d)^(n-1); d >= 1 - 1/n: (1 - d)^n.
// n is SciPy's C int: nan outside 1 .. 2^31 - 1 (and for d outside [0, 1]).
// smirnovi: the root in d of sf(n, d) = p by the Illinois method on [0, 1].
// ---------------------------------------------------------------------------

constexpr double kMinLog = -708.3964185322641;  // log(DBL_MIN)
constexpr int64_t kSmirnovMaxN = 1000000;

// The order n of smirnov's loops as SciPy's C int, -1 where it is none.
inline int64_t smirnov_n(double n) {
  if (!(n >= 1.0 && n < 2147483648.0)) return -1;
  return static_cast<int64_t>(n);
}

// sf(n, d) in long double, and with `cdf` its complement 1 - sf computed
// directly where it is the smaller one's closed form (d <= 1/n).
inline long double smirnov_ld(int64_t n, double x, bool cdf) {
  if (std::isnan(x) || n <= 0 || !(x >= 0.0 && x <= 1.0)) return kNan;
  const long double one = 1.0L;
  if (n == 1) return cdf ? x : one - x;
  if (x == 0.0) return cdf ? 0.0L : one;
  if (x == 1.0) return cdf ? one : 0.0L;
  const long double nx = static_cast<long double>(n) * x;
  const int64_t nxfl = static_cast<int64_t>(std::floor(nx));
  const long double alpha = nx - nxfl;
  if (nxfl == 0 || (nxfl == 1 && alpha == 0)) {  // d <= 1/n
    const long double c = x * std::pow(one + x, static_cast<long double>(n - 1));
    return cdf ? c : one - c;
  }
  long double sf;
  if (-2.0 * n * x * x < kMinLog) {
    sf = 0.0L;
  } else if (nxfl >= n - 1) {
    sf = std::pow(one - x, static_cast<long double>(n));
  } else if (n > kSmirnovMaxN) {
    const double logp = -std::pow(6.0 * n * x + 1, 2) / 18.0 / n;
    sf = logp < -0.6931471805599453 ? std::exp(logp) : 1.0 - (-std::expm1(logp));
  } else {
    // the terms j = 0 .. last, the one with 1 - d - j/n = 0 left out (it is 0)
    const int64_t last = alpha == 0 ? n - nxfl - 1 : n - nxfl;
    const long double ln = static_cast<long double>(n);
    long double log_binomial = 0.0L;  // log C(n, j)
    long double sum = 0.0L;
    for (int64_t j = 0; j <= last; ++j) {
      if (j > 0) log_binomial += std::log(static_cast<long double>(n - j + 1) / j);
      const long double lower = (ln - j - nx) / ln;  // 1 - d - j/n
      const long double upper = (nx + j) / ln;       // d + j/n
      if (!(lower > 0)) break;
      const long double term =
          std::exp(log_binomial + (ln - j) * std::log(lower) + (j - 1.0L) * std::log(upper));
      sum += term;
      if (j > 2 && 4.0L * (last - j + 1) * term < 1e-20L * sum) break;
    }
    sf = std::min(one, std::max(0.0L, x * sum));
  }
  return cdf ? one - sf : sf;
}

inline double smirnov_sf(int64_t n, double x) { return static_cast<double>(smirnov_ld(n, x, false)); }

inline double smirnovi(int64_t n, double p) {
  if (std::isnan(p) || n <= 0 || !(p >= 0.0 && p <= 1.0)) return kNan;
  if (p == 1.0) return 0.0;
  if (p == 0.0) return 1.0;
  if (n == 1) return 1.0 - p;
  // f(d) falls from + at 0 to - at 1: sf(n, d) - p, or (1 - p) - cdf(n, d)
  // where p is above 1/2 (1 - p is exact there, the cdf the accurate side)
  const bool upper = p > 0.5;
  const long double q = 1.0L - p;
  auto f = [&](double d) -> long double {
    return upper ? q - smirnov_ld(n, d, true) : smirnov_ld(n, d, false) - p;
  };
  double a = 0.0, b = 1.0;
  long double fa = q, fb = -static_cast<long double>(p);
  int side = 0;
  double x = 0.5, previous = -1.0;
  for (int it = 0; it < 200; ++it) {
    x = static_cast<double>((a * fb - b * fa) / (fb - fa));
    if (!(x > a && x < b) || it % 16 == 15) x = 0.5 * (a + b);  // a bisection now and then
    const long double fx = f(x);
    if (fx == 0) return x;
    if (fx > 0) {
      a = x;
      fa = fx;
      if (side == -1) fb /= 2;
      side = -1;
    } else {
      b = x;
      fb = fx;
      if (side == 1) fa /= 2;
      side = 1;
    }
    if (b - a <= 2.0 * kEps * b || std::fabs(x - previous) <= kEps * x) break;
    previous = x;
  }
  return x;
}

// ---------------------------------------------------------------------------
// The exponential integrals: the scalar forms of src/ops/special/expint.rs's
// composites (the same regions, series and term counts, which that file
// explains), so that the CPU kernel is as accurate as the composite. The
// continued fraction stops at the depth its convergence needs at x (at most
// the composite's 120 below x = 2 and 60 above).
// ---------------------------------------------------------------------------

// x + n + t, t = -1 n / (x + n + 2 - 2 (n + 1) / (x + n + 4 - ...)) evaluated
// backwards (DLMF 8.19.17): E_n(x) = e^-x / it, for x >= 1.
inline double expn_fraction(double n, double x) {
  const int cap = x < 2.0 ? 120 : 60;
  // 12 + 120 / x terms converge to the last bit for n <= 50, x >= 1
  const int depth = x >= 1e4 ? 12 : std::min(cap, 12 + static_cast<int>(120.0 / x));
  const double xn = x + n;
  double t = 0.0;
  for (int i = depth; i >= 1; --i) {
    const double di = static_cast<double>(i);
    t = ((n + (di - 1.0)) * -di) / ((xn + 2.0 * di) + t);
  }
  return std::exp(-x) / (xn + t);
}

// E1 (SciPy's real loop): nan below 0 and at nan, inf at +-0; the power
// series -gamma - ln x - sum (-x)^k / (k k!) below 1, the fraction above.
inline double exp1(double x) {
  if (std::isnan(x) || x < 0.0) return kNan;
  if (x == 0.0) return kInf;
  if (std::isinf(x)) return 0.0;
  if (x < 1.0) {
    double term = 1.0, sum = 0.0;
    for (int k = 1; k <= 25; ++k) {
      term = term * -x / k;
      const double add = term / k;
      sum += add;
      if (std::fabs(add) < 0.25 * kEps * std::fabs(sum)) break;
    }
    return -((std::log(x) + sum) + kEuler);
  }
  return expn_fraction(1.0, x);
}

// Ei's zero as the double nearest it plus the rest, and Ei^(k)(root) / k!
// (src/ops/special/constants.rs' EI_ROOT, EI_ROOT_ERR, EI_TAYLOR).
constexpr double kEiRoot = 0.3725074107813666;
constexpr double kEiRootErr = 1.3140183414386028e-17;
constexpr double kEiTaylor[27] = {
    0.0, 3.8962157339071672, -3.2816078663985615, 6.5223761454389253, -1.2969697383536516e+1,
    2.7886297962942049e+1, -6.2378801528915417e+1, 1.4353494880967509e+2, -3.371558271787469e+2,
    8.0453183998213819e+2, -1.9437966457234988e+3, 4.7437656504024308e+3, -1.1673463991167164e+4,
    2.8926955305435451e+4, -7.2107945868371593e+4, 1.8066955858939196e+5, -4.5469621885446657e+5,
    1.1488345468177444e+6, -2.9127216638508374e+6, 7.4076929580005882e+6, -1.8891727000381529e+7,
    4.8300034930860244e+7, -1.2376821900249171e+8, 3.1781110566636217e+8, -8.1761856931849277e+8,
    2.1071092918643637e+9, -5.4389968310772848e+9,
};

// Ei (SciPy's real loop): -E1(-x) below 0, -inf at +-0; above 0 the Taylor
// series about the zero within 0.06 of it, the power series
// gamma + ln x + sum x^k / (k k!) (60 terms to 6, 150 to 40), the asymptotic
// series e^x / x sum k! / x^k from 40 on with e^x / x split in halves (inf
// only where Ei overflows, from 716.4).
inline double expi(double x) {
  if (std::isnan(x)) return kNan;
  if (x == 0.0) return -kInf;
  if (x < 0.0) return -exp1(-x);
  if (std::isinf(x)) return kInf;
  if (std::fabs(x - kEiRoot) < 0.06) {
    const double d = (x - kEiRoot) - kEiRootErr;
    double acc = kEiTaylor[26];
    for (int k = 25; k >= 0; --k) acc = acc * d + kEiTaylor[k];
    return acc;
  }
  if (x < 40.0) {
    const int terms = x <= 6.0 ? 60 : 150;
    double term = 1.0, sum = 0.0;
    for (int k = 1; k <= terms; ++k) {
      term = term * x / k;
      const double add = term / k;
      sum += add;
      if (k > x && add < 0.25 * kEps * sum) break;
    }
    return (std::log(x) + sum) + kEuler;
  }
  const double inverse = 1.0 / x;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 40; ++k) {
    term = term * inverse * k;
    sum += term;
    if (term < 0.25 * kEps * sum) break;
  }
  const double half = std::exp(0.5 * x);
  return (half * (half * inverse)) * sum;
}

// The polynomials A_k(l) of E_n's large-n expansion (DLMF 8.20.ii), k < 13,
// in ascending powers: A_0 = A_1 = 1, A_(k+1) = (1 - 2 k l) A_k + l (l + 1) A_k'.
constexpr int kExpnLargeTerms = 13;

inline const std::vector<std::vector<double>>& expn_polynomials() {
  static const std::vector<std::vector<double>> polys = [] {
    std::vector<std::vector<double>> p{{1.0}, {1.0}};
    for (int k = 1; k < kExpnLargeTerms - 1; ++k) {
      const std::vector<double>& a = p[k];
      std::vector<double> next(a.size() + 1, 0.0);
      for (size_t j = 0; j < a.size(); ++j) {
        next[j] += a[j];
        next[j + 1] -= 2.0 * k * a[j];
        if (j > 0) {
          next[j] += static_cast<double>(j) * a[j];
          next[j + 1] += static_cast<double>(j) * a[j];
        }
      }
      p.push_back(next);
    }
    return p;
  }();
  return polys;
}

// E_n(x), n > 50, x > 0: e^-x / ((l + 1) n) sum_k A_k(l) / (n (l + 1)^2)^k, l = x / n.
inline double expn_large_n(double n, double x) {
  const double lambda = x / n;
  const double l1 = lambda + 1.0;
  const double multiplier = 1.0 / (n * (l1 * l1));
  double factor = 1.0, sum = 0.0;
  for (const std::vector<double>& poly : expn_polynomials()) {
    double acc = poly.back();
    for (size_t j = poly.size() - 1; j-- > 0;) acc = acc * lambda + poly[j];
    sum += factor * acc;
    factor *= multiplier;
  }
  return std::exp(-x) / l1 / n * sum;
}

// E_n(x), 1 <= n <= 50, 0 < x <= 1: (-x)^(n-1) (psi(n) - ln x) / (n-1)!
// - sum_(k != n-1) (-x)^k / (k! (k - n + 1)) (DLMF 8.19.8, Cephes).
inline double expn_series(double n, double x) {
  double term = 1.0, sum = 0.0;
  for (int k = 0; k <= 25; ++k) {
    if (k > 0) term = term * -x / k;
    const double denominator = (k + 1.0) - n;
    if (denominator != 0.0) sum += term / denominator;
  }
  const int m = static_cast<int>(n) - 1;
  double psi = -kEuler, gamma_n = 1.0;
  for (int k = 1; k <= m; ++k) {
    psi += 1.0 / k;
    gamma_n *= k;
  }
  const double lead = std::pow(-x, static_cast<double>(m)) * (psi - std::log(x)) / gamma_n;
  return lead - sum;
}

// E_n(x) as SciPy's expn (Cephes): n truncated; nan for n < 0 or beyond the
// C int, x < 0 or nan; E_n(0) = 1 / (n - 1) (inf for n < 2); 0 beyond x = 746.
inline double expn(double n, double x) {
  if (std::isnan(n) || std::isnan(x)) return kNan;
  n = std::trunc(n);
  if (n < 0.0 || n > 2147483647.0 || x < 0.0) return kNan;
  if (x == 0.0) return n < 2.0 ? kInf : 1.0 / (n - 1.0);
  if (x > 746.0) return 0.0;
  if (n == 0.0) return std::exp(-x) / x;
  if (n > 50.0) return expn_large_n(n, x);
  if (x <= 1.0) return expn_series(n, x);
  return expn_fraction(n, x);
}

inline int64_t nout(int64_t kind) {
  switch (kind) {
    case kSici:
    case kShichi:
    case kFresnel:
      return 2;
    case kAiry:
    case kAirye:
    case kEllipj:
      return 4;
    default:
      return 1;
  }
}

inline int64_t nin(int64_t kind) { return kind >= kEllipj && kind != kExp1 && kind != kExpi ? 2 : 1; }

// The outputs of `kind` at (x, y), into out[0 .. nout).
inline void evaluate(int64_t kind, double x, double y, double out[4]) {
  switch (kind) {
    case kSici:
      sici(x, &out[0], &out[1]);
      return;
    case kShichi:
      shichi(x, &out[0], &out[1]);
      return;
    case kFresnel:
      fresnel(x, &out[0], &out[1]);
      return;
    case kAiry:
      airy(x, false, out);
      return;
    case kAirye:
      airy(x, true, out);
      return;
    case kEllipj:
      ellipj(x, y, out);
      return;
    case kSphJn:
      out[0] = sph_j(order(x), y);
      return;
    case kSphYn:
      out[0] = sph_y(order(x), y);
      return;
    case kSphIn:
      out[0] = sph_i(order(x), y);
      return;
    case kSphKn:
      out[0] = sph_k(order(x), y);
      return;
    case kSphJnD:
      out[0] = sph_j_d(order(x), y);
      return;
    case kSphYnD:
      out[0] = sph_y_d(order(x), y);
      return;
    case kSphInD:
      out[0] = sph_i_d(order(x), y);
      return;
    case kSphKnD:
      out[0] = sph_k_d(order(x), y);
      return;
    case kSmirnov:
      out[0] = smirnov_sf(smirnov_n(x), y);
      return;
    case kSmirnovi:
      out[0] = smirnovi(smirnov_n(x), y);
      return;
    case kExp1:
      out[0] = exp1(x);
      return;
    case kExpi:
      out[0] = expi(x);
      return;
    default:
      out[0] = expn(x, y);
      return;
  }
}

constexpr int64_t kWorkPerThread = 1 << 9;

}  // namespace tb_cephes_misc

extern "C" {

// The routine `kind` (tb_cephes_misc::Kind: 0 sici, 1 shichi, 2 fresnel,
// 3 airy, 4 airye, 5 ellipj, 6-9 spherical_jn, yn, in, kn, 10-13 their
// derivatives, 14 smirnov, 15 smirnovi, 16 exp1, 17 expi, 18 expn) of the
// elements of `x` (and `y` for ellipj, the spherical kinds, smirnov and expn,
// whose `x` is the order n; else null; one shape, contiguous float64, CPU) into a new tensor `*out` of shape
// [nout, *shape], the outputs in SciPy's order.
char* tb_cephes_misc_cpu(int64_t kind, const at::Tensor* x, const at::Tensor* y, at::Tensor** out) noexcept {
  using namespace tb_cephes_misc;
  *out = nullptr;
  try {
    TORCH_CHECK(kind >= kSici && kind <= kExpn, "cephes_misc: unknown kind ", kind);
    TORCH_CHECK((y != nullptr) == (nin(kind) == 2), "cephes_misc: wrong number of inputs for kind ", kind);
    for (const at::Tensor* t : {x, y}) {
      if (t == nullptr) continue;
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "cephes_misc: inputs must be contiguous float64 CPU tensors");
      TORCH_CHECK(t->sizes() == x->sizes(), "cephes_misc: inputs must have one shape");
    }
    const int64_t k = nout(kind);
    std::vector<int64_t> shape{k};
    for (int64_t s : x->sizes()) shape.push_back(s);
    at::Tensor result = at::empty(shape, x->options());
    const double* px = x->const_data_ptr<double>();
    const double* py = y == nullptr ? nullptr : y->const_data_ptr<double>();
    double* po = result.mutable_data_ptr<double>();
    const int64_t n = x->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      double values[4];
      for (int64_t i = begin; i < end; ++i) {
        evaluate(kind, px[i], py == nullptr ? 0.0 : py[i], values);
        for (int64_t j = 0; j < k; ++j) po[j * n + i] = values[j];
      }
    });
    *out = new at::Tensor(std::move(result));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
