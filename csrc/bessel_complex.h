// Bessel functions of real order and complex argument, one scalar per call:
// the kernels of csrc/bessel.cpp's complex loop (`scipy.special.jv`, `yv`,
// `iv`, `kv`, their exponentially scaled forms, `hankel1`, `hankel2`,
// `hankel1e`, `hankel2e` on complex z).
//
// Everything comes from I_nu(u) and K_nu(u), nu >= 0, at one point u of the
// closed right half-plane (Re u >= 0), kept as I = is 2^pi e^u and
// K = ks 2^pk e^-u so that neither over- nor underflows before the end:
// - |u| > max(25, nu^2): Hankel's expansions (DLMF 10.40.2, and 10.40.5 for I
//   with both exponentials, so that I stays accurate next to the imaginary
//   axis, where it oscillates);
// - |u| <= 2: the power series of I (DLMF 10.25.2) and Temme's series for
//   K_mu, K_mu+1 (|mu| <= 1/2; Temme 1975) recurred forward to K_nu;
// - between: the continued fraction CF1 for I'_nu / I_nu (modified Lentz),
//   Miller's backward recurrence to I'_mu / I_mu, Temme's continued fraction
//   CF2 (Steed's algorithm; Temme 1975) for e^u K_mu, e^u K_mu+1, I_mu from the
//   Wronskian I K' - I' K = -1/u, K recurred forward (Numerical Recipes'
//   `bessik` made complex).
// Each routine is then A I_v(u) + B K_nu(u) times the scaling e^S:
// - J, Y, H1, H2 for Re z >= 0 by the rotations J_v(z) = e^(+-i v pi/2) I_v(-+i z)
//   (DLMF 10.27.6), Y_v(z) = e^(+-(v+1) pi i/2) I_v(-+iz) - (2/pi) e^(-+ i v pi/2) K_v(-+iz)
//   (10.27.11), H1_nu(z) = (2/(pi i)) e^(-i nu pi/2) K_nu(-iz) (10.27.8) and
//   their combinations (u = -iz for Im z >= 0, u = iz below, so that
//   Re u >= 0); J is always computed from I, never as (H1 + H2) / 2, so it
//   keeps its relative accuracy where it is exponentially smaller than Y;
// - Re z < 0 by the analytic continuation z = (-z) e^(+-i pi) (DLMF 10.11.1-4,
//   10.34.1-2), the upper sign for Im z >= 0 (-0.0 included: SciPy's branch cut
//   on the negative real axis, arg z in (-pi, pi]);
// - negative orders by I_-nu = I_nu + (2/pi) sin(nu pi) K_nu (10.27.2), so J and Y
//   reflect (10.4.7-8) inside the same combination, H1_-nu = e^(i nu pi) H1_nu
//   (10.4.6).
// SciPy's special values (z = 0, nan, infinities, overflow) are those of its
// AMOS wrappers (xsf's bessel.h), as far as they are reproduced here.

#pragma once

#include "bessel_kernels.h"

#include <cmath>
#include <complex>
#include <cstdint>

namespace tb_bessel {

using cd = std::complex<double>;

// I_nu(u) = is 2^pi e^u, K_nu(u) = ks 2^pk e^-u.
struct IkScaled {
  cd is;
  int64_t pi = 0;
  cd ks;
  int64_t pk = 0;
};

inline double cnorm1(cd z) { return std::fabs(z.real()) + std::fabs(z.imag()); }

// e^(i pi t), exact at multiples of 1/2.
inline cd cispi(double t) { return {cospi(t), sinpi(t)}; }

// (re, im) * 2^-830 when it grew past 2^830.
inline bool rescale_down(cd* a, cd* b) {
  if (std::fmax(std::fabs(a->real()), std::fabs(a->imag())) > kRescale2 ||
      std::fmax(std::fabs(b->real()), std::fabs(b->imag())) > kRescale2) {
    *a = cd(std::ldexp(a->real(), -830), std::ldexp(a->imag(), -830));
    *b = cd(std::ldexp(b->real(), -830), std::ldexp(b->imag(), -830));
    return true;
  }
  return false;
}

// K_nu 2^(-830 count) from K_mu, K_mu+1 by the forward recurrence (stable for K).
inline cd ck_forward(double mu, cd u, int64_t n, cd k0, cd k1, int64_t* count) {
  const cd two_over_u = 2.0 / u;
  for (int64_t i = 1; i <= n; ++i) {
    const cd k2 = ((mu + static_cast<double>(i)) * two_over_u) * k1 + k0;
    k0 = k1;
    k1 = k2;
    if (rescale_down(&k0, &k1)) {
      ++*count;
    }
  }
  return k0;
}

// Hankel's expansions, |u| > max(25, nu^2).
inline void cik_hankel(double nu, cd u, IkScaled* r) {
  const double mu = 4.0 * nu * nu;
  const cd inv = 1.0 / u;
  cd t = 1.0, sk = 1.0, si = 1.0;
  double last = 1.0;
  for (int k = 1; k < 500; ++k) {
    const double odd = 2.0 * k - 1.0;
    const cd next = t * inv * ((mu - odd * odd) / (8.0 * k));
    const double size = cnorm1(next);
    if (size > last && k > 2) {
      break;  // the smallest term of the asymptotic series
    }
    t = next;
    last = size;
    sk += t;
    si += (k % 2 == 1) ? -t : t;
    if (size < 1e-17) {
      break;
    }
  }
  const double sigma = u.imag() < 0.0 ? -1.0 : 1.0;
  const cd root = std::sqrt(u);
  r->ks = std::sqrt(kPi / 2.0) / root * sk;
  r->pk = 0;
  // I_nu(u) = (e^u S_I + i sigma e^(i sigma nu pi) e^-u S_K) / sqrt(2 pi u)   (DLMF 10.40.5)
  const cd other = cd(0.0, sigma) * cispi(sigma * nu) * std::exp(-2.0 * u) * sk;
  r->is = (si + other) / (std::sqrt(2.0 * kPi) * root);
  r->pi = 0;
}

// (u/2)^nu / Gamma(nu + 1) as m 2^p.
inline cd series_front(double nu, cd u, int64_t* p) {
  const double mag_half = 0.5 * std::abs(u);
  const double theta = nu * std::arg(u);
  const cd phase(std::cos(theta), std::sin(theta));
  *p = 0;
  if (nu == 0.0) {
    return 1.0;
  }
  const double lg = nu * std::log(mag_half) - std::lgamma(nu + 1.0);
  if (nu < 170.0 && lg > -700.0 && lg < 700.0) {
    return phase * (std::pow(mag_half, nu) / std::tgamma(nu + 1.0));
  }
  const double k = std::floor(lg / 0.69314718055994530942);
  *p = static_cast<int64_t>(k);
  // lg - k ln 2 with ln 2 split (Cody and Waite), as scale_result
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const double r = (lg - k * kLn2Hi) - k * kLn2Lo;
  return phase * std::exp(r);
}

// |u| <= 2: the series of I and Temme's series for K.
inline void cik_small(double nu, cd u, IkScaled* r) {
  // I_nu(u) = (u/2)^nu / Gamma(nu+1) sum_k (u^2/4)^k / (k! (nu+1)_k)
  int64_t p = 0;
  const cd front = series_front(nu, u, &p);
  const cd q = 0.25 * u * u;
  cd term = 1.0, sum = 1.0;
  for (int k = 1; k < 300; ++k) {
    term *= q / (static_cast<double>(k) * (nu + static_cast<double>(k)));
    sum += term;
    if (cnorm1(term) < 0.25 * kEps * cnorm1(sum)) {
      break;
    }
  }
  r->is = front * sum * std::exp(-u);
  r->pi = p;
  // Temme's series for K_mu, K_mu+1
  const int64_t nl = static_cast<int64_t>(nu + 0.5);
  const double xmu = nu - static_cast<double>(nl);
  const double xmu2 = xmu * xmu;
  const double pimu = kPi * xmu;
  const double fact = std::fabs(pimu) < kEps ? 1.0 : pimu / std::sin(pimu);
  const cd d = 0.69314718055994530942 - std::log(u);  // -log(u/2)
  cd e = xmu * d;
  const cd fact2 = cnorm1(e) < kEps ? cd(1.0) : std::sinh(e) / e;
  double gam1, gam2, gampl, gammi;
  temme_gammas(xmu, &gam1, &gam2, &gampl, &gammi);
  cd ff = fact * (gam1 * std::cosh(e) + gam2 * fact2 * d);
  cd ksum = ff;
  e = std::exp(e);
  cd pp = 0.5 * e / gampl;
  cd qq = 0.5 / (e * gammi);
  cd cc = 1.0;
  const cd d2 = 0.25 * u * u;
  cd ksum1 = pp;
  for (int i = 1; i < 1000; ++i) {
    const double di = i;
    ff = (di * ff + pp + qq) / (di * di - xmu2);
    cc *= d2 / di;
    pp /= (di - xmu);
    qq /= (di + xmu);
    const cd del = cc * ff;
    ksum += del;
    const cd del1 = cc * (pp - di * ff);
    ksum1 += del1;
    if (cnorm1(del) <= 0.25 * kEps * cnorm1(ksum) && cnorm1(del1) <= 0.25 * kEps * cnorm1(ksum1)) {
      break;
    }
  }
  int64_t count = 0;
  const cd k = ck_forward(xmu, u, nl, ksum, (ksum1 * 2.0) / u, &count);
  r->ks = k * std::exp(u);
  r->pk = 830 * count;
}

// 2 < |u| <= max(25, nu^2): CF1, Miller, CF2, Wronskian.
inline bool cik_steed(double nu, cd u, IkScaled* r) {
  const int64_t nl = static_cast<int64_t>(nu + 0.5);
  const double xmu = nu - static_cast<double>(nl);
  const double xmu2 = xmu * xmu;
  const cd xi = 1.0 / u, xi2 = 2.0 * xi;
  // CF1: I'_nu / I_nu
  cd h = nu * xi;
  if (cnorm1(h) < kFpMin) {
    h = kFpMin;
  }
  cd b = xi2 * nu, d = 0.0, c = h;
  bool converged = false;
  for (int64_t i = 1; i <= kMaxIter; ++i) {
    b += xi2;
    d = b + d;
    if (cnorm1(d) < kFpMin) {
      d = kFpMin;
    }
    d = 1.0 / d;
    c = b + 1.0 / c;
    if (cnorm1(c) < kFpMin) {
      c = kFpMin;
    }
    const cd del = c * d;
    h *= del;
    if (cnorm1(del - 1.0) < kEps) {
      converged = true;
      break;
    }
  }
  if (!converged) {
    return false;
  }
  // Miller's recurrence down to mu; I_nu / I_mu = 1 / (ril 2^(830 icount))
  cd ril = 1.0, ripl = h;
  int64_t icount = 0;
  for (int64_t l = nl; l >= 1; --l) {
    const double nul = xmu + static_cast<double>(l);
    const cd ritemp = nul * xi * ril + ripl;
    ripl = (nul - 1.0) * xi * ritemp + ril;
    ril = ritemp;
    if (rescale_down(&ril, &ripl)) {
      ++icount;
    }
  }
  const cd f = ripl / ril;
  // Temme's CF2 (Steed's algorithm) for e^u K_mu, e^u K_mu+1
  cd bb = 2.0 * (1.0 + u);
  cd dd = 1.0 / bb;
  cd hh = dd, delh = dd;
  cd q1 = 0.0, q2 = 1.0;
  const double a1 = 0.25 - xmu2;
  cd q = a1;
  double cc = a1, a = -a1;
  cd s = 1.0 + q * delh;
  converged = false;
  for (int64_t i = 2; i <= kMaxIter; ++i) {
    a -= 2.0 * static_cast<double>(i - 1);
    cc = -a * cc / static_cast<double>(i);
    const cd qnew = (q1 - bb * q2) / a;
    q1 = q2;
    q2 = qnew;
    q += cc * qnew;
    bb += 2.0;
    dd = 1.0 / (bb + a * dd);
    delh = (bb * dd - 1.0) * delh;
    hh += delh;
    const cd dels = q * delh;
    s += dels;
    if (cnorm1(dels) < 0.25 * kEps * cnorm1(s)) {
      converged = true;
      break;
    }
  }
  if (!converged) {
    return false;
  }
  hh = a1 * hh;
  const cd rkmu = std::sqrt(kPi / 2.0) / (std::sqrt(u) * s);
  const cd rk1 = rkmu * (xmu + u + 0.5 - hh) * xi;
  const cd rkmup = xmu * xi * rkmu - rk1;
  const cd rimu = xi / (f * rkmu - rkmup);  // e^-u I_mu
  r->is = rimu / ril;
  r->pi = -830 * icount;
  int64_t kcount = 0;
  r->ks = ck_forward(xmu, u, nl, rkmu, rk1, &kcount);
  r->pk = 830 * kcount;
  return true;
}

// |u| > 25, nu <= |u|: Hankel's expansions at mu = nu - floor(nu) and mu + 1, then the forward
// recurrences of I and K; false where the recurrence of I (unstable in general, neutral next to
// the imaginary axis, where I is J rotated) would lose more than about 7 bits.
inline bool cik_hankel_recur(double nu, cd u, IkScaled* r) {
  const double n = std::floor(nu);
  const double mu = nu - n;
  IkScaled a, b;
  cik_hankel(mu, u, &a);
  cik_hankel(mu + 1.0, u, &b);
  cd i0 = a.is, i1 = b.is, k0 = a.ks, k1 = b.ks;
  const double i_start = std::abs(i0), k_start = std::abs(k0);
  int64_t icount = 0, kcount = 0;
  const cd two_over_u = 2.0 / u;
  for (double k = 1.0; k <= n; k += 1.0) {
    const cd order = (mu + k) * two_over_u;
    const cd i2 = i0 - order * i1;
    const cd k2 = k0 + order * k1;
    i0 = i1;
    i1 = i2;
    k0 = k1;
    k1 = k2;
    if (rescale_down(&k0, &k1)) {
      ++kcount;
    }
    if (rescale_down(&i0, &i1)) {
      ++icount;
    }
  }
  // growth of K over the steps against that of I, both in units of 2^830
  const double growth = std::log2(std::abs(k0) / k_start) + 830.0 * static_cast<double>(kcount) -
                        std::log2(std::abs(i0) / i_start) - 830.0 * static_cast<double>(icount);
  if (!(growth < 7.0)) {
    return false;
  }
  r->is = i0;
  r->pi = 830 * icount;
  r->ks = k0;
  r->pk = 830 * kcount;
  return true;
}

// I_nu(u), K_nu(u) for nu >= 0, Re u >= 0, u != 0, all finite; false where no method applies.
// `shortcut`: I = 0, K = inf where I is below 1e-347 (callers that scale the result, as hyp0f1,
// take the recurrences instead).
inline bool cik(double nu, cd u, IkScaled* r, bool shortcut = true) {
  const double az = std::abs(u);
  if (az > 25.0 && az > nu * nu) {
    cik_hankel(nu, u, r);
    return true;
  }
  if (az > 25.0 && az >= nu && cik_hankel_recur(nu, u, r)) {
    return true;
  }
  // I_nu(u) <= e^|Re u| (|u|/2)^nu / Gamma(nu + 1) (DLMF 10.14.4): below 1e-347 I is 0 and K
  // overflows (the caller's overflow rules apply), without the recurrences
  if (shortcut && nu > 1.0 && nu * std::log(0.5 * az) - std::lgamma(nu + 1.0) + std::fabs(u.real()) < -800.0) {
    r->is = 0.0;
    r->pi = 0;
    r->ks = cd(kInf, 0.0);
    r->pk = 0;
    return true;
  }
  if (nu > kMaxSteps) {
    return false;
  }
  if (az <= 2.0) {
    cik_small(nu, u, r);
    return true;
  }
  return cik_steed(nu, u, r);
}

// m 2^p e^E, without overflow or underflow on the way.
inline cd scaled_term(cd m, int64_t p, cd e) {
  if (e.imag() != 0.0) {
    m *= cd(std::cos(e.imag()), std::sin(e.imag()));
  }
  return {scale_result(m.real(), p, e.real()), scale_result(m.imag(), p, e.real())};
}

enum ComplexKind : int64_t {
  kCJv = 0,
  kCYv = 1,
  kCIv = 2,
  kCKv = 3,
  kCJve = 4,
  kCYve = 5,
  kCIve = 6,
  kCKve = 7,
  kCH1 = 9,
  kCH2 = 10,
  kCH1e = 11,
  kCH2e = 12,
  // the spherical Bessel functions j_n, y_n, i_n, k_n of integer order n (the order argument)
  // and their derivatives
  kSphJn = 20,
  kSphYn = 21,
  kSphIn = 22,
  kSphKn = 23,
  kSphJnD = 24,
  kSphYnD = 25,
  kSphInD = 26,
  kSphKnD = 27,
};

// The routine as a I_v(u) + b K_nu(u) at u (Re u >= 0).
struct Combination {
  cd u;
  cd a;
  cd b;
};

// J_v(w) (Re w >= 0) as a combination, and Y_v(w) on the same u.
inline void jy_combination(double v, cd w, Combination* j, Combination* y) {
  if (w.imag() < 0.0) {
    const cd u(-w.imag(), w.real());  // i w
    *j = {u, cispi(-0.5 * v), 0.0};
    *y = {u, cispi(-0.5 * (v + 1.0)), -(2.0 / kPi) * cispi(0.5 * v)};
  } else {
    const cd u(w.imag(), -w.real());  // -i w
    *j = {u, cispi(0.5 * v), 0.0};
    *y = {u, cispi(0.5 * (v + 1.0)), -(2.0 / kPi) * cispi(-0.5 * v)};
  }
}

// H1_nu(w), H2_nu(w) (nu >= 0, Re w >= 0) as combinations on one u.
inline void h_combination(double nu, cd w, Combination* h1, Combination* h2) {
  const cd two_i_pi(0.0, 2.0 / kPi);
  if (w.imag() < 0.0) {
    const cd u(-w.imag(), w.real());  // i w
    *h1 = {u, 2.0 * cispi(-0.5 * nu), -two_i_pi * cispi(0.5 * nu)};
    *h2 = {u, 0.0, two_i_pi * cispi(0.5 * nu)};
  } else {
    const cd u(w.imag(), -w.real());  // -i w
    *h1 = {u, 0.0, -two_i_pi * cispi(-0.5 * nu)};
    *h2 = {u, 2.0 * cispi(0.5 * nu), two_i_pi * cispi(-0.5 * nu)};
  }
}

// J, Y, H1, H2 (and their scaled forms) on the real axis, z = +-x + 0i (x > 0): the real
// kernel's J_nu(x), Y_nu(x) (bessel_kernels.h: exact where Y has its zeros, where I and K of
// u = -ix would cancel), reflected to v with exact sin(nu pi), cos(nu pi), continued to -x with
// the upper sign (DLMF 10.11.1-2, SciPy's side of the cut).
inline cd real_axis_jyh(int64_t base, bool scaled, double v, double re) {
  const double nu = std::fabs(v);
  const double x = std::fabs(re);
  double jn, yn;
  jy(nu, x, &jn, &yn);
  double j = jn, y = yn;
  if (v < 0.0) {
    const double sn = sinpi(nu), cs = cospi(nu);
    j = (cs == 0.0 ? 0.0 : cs * jn) - (sn == 0.0 ? 0.0 : sn * yn);
    y = (sn == 0.0 ? 0.0 : sn * jn) + (cs == 0.0 ? 0.0 : cs * yn);
  }
  cd jz = j, yz = y;
  if (re < 0.0) {
    // J_v(-x) = e^(i v pi) J_v(x), Y_v(-x) = e^(-i v pi) Y_v(x) + 2 i cos(v pi) J_v(x)
    jz = cispi(v) * j;
    yz = cispi(-v) * y + cd(0.0, 2.0 * cospi(v) * j);
  }
  switch (base) {
    case kCJv:
      return jz;
    case kCYv:
      return yz;
    case kCH1:
    case kCH2: {
      const double sign = base == kCH1 ? 1.0 : -1.0;
      const cd h = jz + cd(0.0, sign) * yz;  // J +- iY
      if (!scaled) {
        return h;
      }
      // exp(-+ i z), z real
      return h * cd(std::cos(re), -sign * std::sin(re));
    }
    default:
      return {kNan, kNan};
  }
}

// The routine `kind` at (v, z), z finite and nonzero, without SciPy's special values.
// *overflowed is set where the unscaled value is not finite. The result is multiplied by
// e^extra inside the scaled sum (hyp0f1's Gamma(v) a^(1-v) as a logarithm).
inline cd complex_core(int64_t kind, double v, cd z, bool* failed, cd extra = 0.0) {
  *failed = false;
  const bool scaled = kind == kCJve || kind == kCYve || kind == kCIve || kind == kCKve || kind == kCH1e ||
                      kind == kCH2e;
  const int64_t base = scaled ? (kind >= kCH1 ? kind - 2 : kind - 4) : kind;
  if (z.imag() == 0.0 && (base == kCJv || base == kCYv || base == kCH1 || base == kCH2)) {
    return real_axis_jyh(base, scaled, v, z.real());
  }
  const double nu = std::fabs(v);
  const bool left = z.real() < 0.0;
  const double eps = z.imag() < 0.0 ? -1.0 : 1.0;  // z = w e^(i eps pi) on the left
  const cd w = left ? -z : z;
  Combination comb;
  cd s = 0.0;
  bool reflect_i = false;  // the combination's a multiplies I_v (v < 0 reflected), not I_nu
  switch (base) {
    case kCIv:
      comb = {w, left ? cispi(eps * v) : cd(1.0), 0.0};
      reflect_i = true;
      s = scaled ? cd(-std::fabs(z.real()), 0.0) : cd(0.0);
      break;
    case kCKv:
      comb = {w, left ? cd(0.0, -eps * kPi) : cd(0.0), left ? cispi(-eps * nu) : cd(1.0)};
      s = scaled ? z : cd(0.0);
      break;
    case kCJv:
    case kCYv: {
      // J_nu, Y_nu (nu = |v|) continued to the left half-plane, then reflected with exact
      // sin(nu pi), cos(nu pi) (DLMF 10.4.7-8), so that the K terms cancel exactly at integers
      // and half-integers
      Combination j, y;
      jy_combination(nu, w, &j, &y);
      if (left) {
        // J_nu(z) = e^(i eps nu pi) J_nu(w), Y_nu(z) = e^(-i eps nu pi) Y_nu(w) + 2 i eps cos(nu pi) J_nu(w)
        const cd ya = cispi(-eps * nu) * y.a + cd(0.0, 2.0 * eps * cospi(nu)) * j.a;
        y.b = cispi(-eps * nu) * y.b;
        y.a = ya;
        j.a *= cispi(eps * nu);
      }
      if (v < 0.0) {
        const double sn = sinpi(nu), cs = cospi(nu);
        if (base == kCJv) {
          comb = {j.u, cs * j.a - sn * y.a, -sn * y.b};
        } else {
          comb = {j.u, sn * j.a + cs * y.a, cs * y.b};
        }
      } else {
        comb = base == kCJv ? j : y;
      }
      s = scaled ? cd(-std::fabs(z.imag()), 0.0) : cd(0.0);
      break;
    }
    case kCH1:
    case kCH2: {
      Combination h1, h2;
      h_combination(nu, w, &h1, &h2);
      if (!left) {
        comb = base == kCH1 ? h1 : h2;
      } else if (base == kCH1) {
        if (eps > 0.0) {
          comb = {h2.u, -cispi(-nu) * h2.a, -cispi(-nu) * h2.b};
        } else {
          const double c2 = 2.0 * cospi(nu);
          comb = {h1.u, c2 * h1.a + cispi(-nu) * h2.a, c2 * h1.b + cispi(-nu) * h2.b};
        }
      } else {
        if (eps > 0.0) {
          const double c2 = 2.0 * cospi(nu);
          comb = {h1.u, c2 * h2.a + cispi(nu) * h1.a, c2 * h2.b + cispi(nu) * h1.b};
        } else {
          comb = {h1.u, -cispi(nu) * h1.a, -cispi(nu) * h1.b};
        }
      }
      if (v < 0.0) {
        const cd rot = cispi(base == kCH1 ? nu : -nu);
        comb.a *= rot;
        comb.b *= rot;
      }
      if (scaled) {
        s = base == kCH1 ? cd(z.imag(), -z.real()) : cd(-z.imag(), z.real());  // -iz, iz
      }
      break;
    }
    default:
      *failed = true;
      return {kNan, kNan};
  }
  if (reflect_i && v < 0.0) {
    // I_v = I_nu + (2/pi) sin(nu pi) K_nu
    const double sn = sinpi(nu);
    if (sn != 0.0) {
      comb.b += comb.a * ((2.0 / kPi) * sn);
    }
  }
  s += extra;
  IkScaled ik;
  if (!cik(nu, comb.u, &ik, extra == cd(0.0))) {
    *failed = true;
    return {kNan, kNan};
  }
  cd result = 0.0;
  if (comb.a != 0.0) {
    result += scaled_term(comb.a * ik.is, ik.pi, comb.u + s);
  }
  if (comb.b != 0.0) {
    result += scaled_term(comb.b * ik.ks, ik.pk, s - comb.u);
  }
  return result;
}

inline bool cfinite(cd z) { return std::isfinite(z.real()) && std::isfinite(z.imag()); }

// The routine `kind` at (v, z) with SciPy's special values.
inline cd complex_evaluate(int64_t kind, double v, cd z) {
  const cd nan(kNan, kNan);
  if (std::isnan(v) || std::isnan(z.real()) || std::isnan(z.imag())) {
    return nan;
  }
  const bool scaled = kind == kCJve || kind == kCYve || kind == kCIve || kind == kCKve || kind == kCH1e ||
                      kind == kCH2e;
  const int64_t base = scaled ? (kind >= kCH1 ? kind - 2 : kind - 4) : kind;
  if (!cfinite(z)) {
    return nan;
  }
  const double az = std::abs(z);
  if (az > 2.2517998136852480e15 || ((base == kCIv || base == kCKv) && az > 1073741823.5)) {
    return nan;  // AMOS's limits on |z| (ierr 4)
  }
  const bool vint = is_integer(v);
  if (z.real() == 0.0 && z.imag() == 0.0) {
    if (std::isinf(v)) {
      return (base == kCYv && !scaled) ? cd(-kInf, 0.0) : nan;
    }
    switch (base) {
      case kCJv:
      case kCIv:
        if (v == 0.0) {
          return 1.0;
        }
        if (v > 0.0) {
          return 0.0;
        }
        if (vint) {
          return (base == kCJv && is_odd(v)) ? cd(-0.0, -0.0) : cd(0.0);
        }
        return nan;
      case kCYv:
        if (scaled) {
          return nan;
        }
        if (v >= 0.0 || (vint && !is_odd(v))) {
          return {-kInf, 0.0};
        }
        if (vint) {
          return {kInf, -0.0};
        }
        // cos(pi v) (-inf + 0i) - sin(pi v) (0 + 0i), as SciPy's rotation
        return cd(cospi(v) * -kInf, 0.0) - sinpi(v) * cd(0.0, 0.0);
      case kCH2:
        if (v == 0.0 && !scaled) {
          return {kNan, kInf};
        }
        return nan;
      default:
        return nan;
    }
  }
  if (std::isinf(v)) {
    return nan;
  }
  bool failed = false;
  cd r = complex_core(kind, v, z, &failed);
  if (failed) {
    return nan;
  }
  if (cfinite(r)) {
    return r;
  }
  // overflow, as SciPy's AMOS wrappers report it
  const bool real_axis = z.imag() == 0.0;
  switch (kind) {
    case kCJv: {
      if (v < 0.0 && !vint) {
        return nan;
      }
      const cd e = complex_core(kCJve, v, z, &failed);
      return {e.real() * kInf, e.imag() * kInf};
    }
    case kCYv:
      if (real_axis && z.real() >= 0.0) {
        if (v >= 0.0 || (vint && !is_odd(v))) {
          return {-kInf, 0.0};
        }
        if (vint) {
          return {kInf, -0.0};
        }
      }
      return nan;
    case kCIv: {
      if (real_axis && (z.real() >= 0.0 || vint)) {
        return {(z.real() < 0.0 && is_odd(v)) ? -kInf : kInf, 0.0};
      }
      const cd e = complex_core(kCIve, v, z, &failed);
      return {e.real() * kInf, e.imag() * kInf};
    }
    case kCKv:
    case kCKve:
      if (real_axis && z.real() >= 0.0) {
        return {kInf, 0.0};
      }
      return nan;
    default:
      return nan;
  }
}

// The spherical Bessel functions of complex argument, with SciPy's special values
// (xsf's sph_bessel.h): sqrt(pi / (2z)) times the cylinder function of order n + 1/2
// (DLMF 10.47.3-9), the reflection (-1)^n on the negative real axis (DLMF 10.47.14).
inline cd spherical(int64_t which, double n, cd z) {
  const double nan = kNan;
  const bool derivative = which >= kSphJnD;
  if ((std::isnan(z.real()) || std::isnan(z.imag())) && !(derivative && n == 0.0)) {
    return derivative ? cd(nan, nan) : z;
  }
  if (n < 0.0 && !derivative) {
    return {nan, 0.0};
  }
  const bool odd = is_odd(n);
  const bool real_axis = z.imag() == 0.0;
  switch (which) {
    case kSphJn:
    case kSphYn:
      if (which == kSphYn && z.real() == 0.0 && z.imag() == 0.0) {
        return {nan, 0.0};
      }
      if (std::isinf(z.real())) {
        return real_axis ? cd(0.0) : cd(kInf, kInf);
      }
      if (which == kSphJn && z.real() == 0.0 && z.imag() == 0.0) {
        return n == 0.0 ? cd(1.0) : cd(0.0);
      }
      if (real_axis && z.real() < 0.0) {
        const cd r = spherical(which, n, cd(-z.real(), 0.0));
        // j_n(-x) = (-1)^n j_n(x), y_n(-x) = (-1)^(n+1) y_n(x)
        return ((which == kSphJn) == !odd) ? r : -r;
      }
      {
        const cd out = std::sqrt(cd(kPi / 2.0) / z) * complex_evaluate(which == kSphJn ? kCJv : kCYv, n + 0.5, z);
        if (which == kSphJn && real_axis) {
          return out.real();
        }
        return out;
      }
    case kSphIn:
      if (z.real() == 0.0 && z.imag() == 0.0) {
        return n == 0.0 ? cd(1.0) : cd(0.0);
      }
      if (std::isinf(z.real()) || std::isinf(z.imag())) {
        if (real_axis) {
          return (z.real() < 0.0 && odd) ? cd(-kInf) : cd(kInf);
        }
        return {nan, 0.0};
      }
      if (real_axis && z.real() < 0.0) {
        const cd r = spherical(which, n, cd(-z.real(), 0.0));
        return odd ? -r : r;
      }
      return std::sqrt(cd(kPi / 2.0) / z) * complex_evaluate(kCIv, n + 0.5, z);
    case kSphKn:
      if (z.real() == 0.0 && z.imag() == 0.0) {
        return {nan, 0.0};
      }
      if (std::isinf(z.real()) || std::isinf(z.imag())) {
        if (real_axis) {
          return z.real() > 0.0 ? cd(0.0) : cd(-kInf);
        }
        return {nan, 0.0};
      }
      return std::sqrt(cd(kPi / 2.0) / z) * complex_evaluate(kCKv, n + 0.5, z);
    default:
      break;
  }
  // derivatives (DLMF 10.51.2, 10.51.4-5; at z = 0 from the series, 10.51.1)
  const int64_t base = which - 4;
  const bool at_zero = z.real() == 0.0 && z.imag() == 0.0;
  if (n == 0.0) {
    const cd one = spherical(base, 1.0, z);
    return base == kSphIn ? one : -one;
  }
  if (at_zero && (base == kSphJn || base == kSphIn)) {
    return n == 1.0 ? cd(1.0 / 3.0) : cd(0.0);
  }
  if (n < 0.0) {
    return {nan, nan};
  }
  const cd below = spherical(base, n - 1.0, z);
  const cd here = (n + 1.0) * spherical(base, n, z) / z;
  return base == kSphKn ? -below - here : below - here;
}

inline cd complex_dispatch(int64_t kind, double v, cd z) {
  return kind >= kSphJn ? spherical(kind, v, z) : complex_evaluate(kind, v, z);
}

}  // namespace tb_bessel
