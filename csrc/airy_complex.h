// The Airy functions of complex argument, (Ai, Ai', Bi, Bi') of z and the
// exponentially scaled forms of `scipy.special.airye` (eAi = Ai e^zeta,
// eAi' = Ai' e^zeta, eBi = Bi e^-|Re zeta|, eBi' = Bi' e^-|Re zeta|,
// zeta = 2/3 z^(3/2) on the principal branch): the kernel of csrc/bessel.cpp's
// complex Airy loop (SciPy's `D->DDDD`, `F->FFFF` loops of `airy`, `airye`).
//
// Methods:
// - |z| <= 1: the Maclaurin series (DLMF 9.4.1-9.4.4), as AMOS;
// - |ph z| <= pi/3: K and I of orders 1/3, 2/3 at u = zeta (DLMF 9.6.1-9.6.4,
//   with I_-nu = I_nu + (2/pi) sin(nu pi) K_nu): Ai, Ai' from K alone (they are
//   recessive there), Bi = sqrt(z/3) (2 I_1/3 + (sqrt 3/pi) K_1/3);
// - pi/3 < |ph z| <= pi: the connection formulas DLMF 9.2.10-9.2.11 at
//   w = z e^(-+2 pi i/3) (|ph w| <= pi/3, upper sign for Im z >= 0), written out
//   as A I_nu(u) + B K_nu(u) at u = -zeta = 2/3 w^(3/2) in the right
//   half-plane: Ai(z) = sqrt(w/3) (-+i e^(+-i pi/3) I_1/3 + K_1/3 / pi),
//   Ai'(z) = (w/sqrt 3) (-+i e^(-+i pi/3) I_2/3 - K_2/3 / pi),
//   Bi(z) = sqrt(w/3) (e^(+-i pi/3) I_1/3 + (sqrt 3/pi) K_1/3),
//   Bi'(z) = (w/sqrt 3) (e^(-+i pi/3) I_2/3 + (sqrt 3/pi) K_2/3).
//   No I and K terms of different exponential size cancel: the e^-u part of
//   I (which csrc/bessel_complex.h keeps, DLMF 10.40.5) meets K's only where
//   both are of the result's size (next to the negative real axis, where Ai
//   and Bi oscillate and have their zeros).
// I and K come scaled (I = is 2^pi e^u, K = ks 2^pk e^-u, bessel_complex.h's
// `cik`), so that each term carries its exponential to the end: airye's
// scalings cancel it exactly, and airy's unscaled values over- or underflow
// only in the last product.
//
// SciPy's special values (AMOS's zairy/zbiry through xsf): nan for non-finite
// z and for |z| > (2^30 - 1/2)^(2/3) (ierr 4); airy's Ai, Ai', Bi, Bi' are nan
// where AMOS's overflow test fires (|Re zeta'| + ln|z| / 4 > ELIM, zeta' as
// AMOS clamps it), Ai and Ai' 0 where AMOS's K underflows (its zkscl/zuchk
// tests on K_1/3(zeta), K_2/3(zeta)). On the real axis the imaginary parts
// are exact zeros (airye's eAi, eAi' of x < 0: Ai(x) e^(i Im zeta)).
// Deliberately unlike SciPy: z = x - 0j with x < -1 (AMOS reads the -0.0 as
// the upper side but takes sqrt(z) from the lower one, and returns values
// that are not Ai(x)): here Ai(x), ... exactly as for x + 0j, and airye's
// eAi, eAi' use zeta = +i 2/3 |x|^(3/2), the principal value at -0.0.

#pragma once

#include "bessel_complex.h"

#include <cmath>
#include <complex>
#include <cstdint>

namespace tb_airy {

using cd = std::complex<double>;
using tb_bessel::kInf;
using tb_bessel::kNan;
using tb_bessel::kPi;

constexpr double kAi0 = 0.355028053887817239260063186004;   // Ai(0)
constexpr double kAip0 = 0.258819403792806798405183560189;  // -Ai'(0)
constexpr double kSqrt3 = 1.73205080756887729352744634151;
constexpr double kHalfSqrt3 = 0.866025403784438646763723170753;
// AMOS's machine constants for IEEE double: ELIM = 2.303 (K R1M5 - 3), K = 1021,
// R1M5 = log10(2); ALIM = ELIM - 2.303 R1M5 (53 - 1); TOL = 2^-52; the underflow
// level of zuchk, 1e3 D1MACH(1); and the range limit (I1MACH(9) / 2)^(2/3).
constexpr double kR1m5 = 0.30102999566398120;
constexpr double kElim = 2.303 * (1021.0 * kR1m5 - 3.0);
constexpr double kAlim = kElim - 2.303 * (kR1m5 * 52.0);
constexpr double kTol = 2.220446049250313e-16;
constexpr double kAscle = 1e3 * 2.2250738585072014e-308;
constexpr double kAmosLimit = 1048575.9996744784;

// The Maclaurin series of (Ai, Ai', Bi, Bi') at z (|z| <= 1).
inline void series(cd z, cd out[4]) {
  const cd z2 = z * z;
  const cd z3 = z2 * z;
  cd f = 1.0, g = z, fp = 0.0, gp = 1.0;
  cd tf = 1.0, tg = z;
  for (int k = 1; k < 60; ++k) {
    const double dk = k;
    const cd fpk = tf * z2 / (3.0 * dk - 1.0);
    const cd gpk = tg * z2 / (3.0 * dk);
    tf *= z3 / ((3.0 * dk - 1.0) * (3.0 * dk));
    tg *= z3 / ((3.0 * dk) * (3.0 * dk + 1.0));
    f += tf;
    g += tg;
    fp += fpk;
    gp += gpk;
    const double terms = tb_bessel::cnorm1(tf) + tb_bessel::cnorm1(tg) + tb_bessel::cnorm1(fpk) +
                         tb_bessel::cnorm1(gpk);
    if (terms <= 1e-3 * tb_bessel::kEps) {
      break;  // the sums are at least of order 1 (f, g' start at 1)
    }
  }
  out[0] = kAi0 * f - kAip0 * g;
  out[1] = kAi0 * fp - kAip0 * gp;
  out[2] = kSqrt3 * (kAi0 * f + kAip0 * g);
  out[3] = kSqrt3 * (kAi0 * fp + kAip0 * gp);
}

// a I + b K with I, K as `cik` keeps them, times e^s.
inline cd combine(cd a, cd b, const tb_bessel::IkScaled& ik, cd u, cd s) {
  cd r = 0.0;
  if (a != 0.0) {
    r += tb_bessel::scaled_term(a * ik.is, ik.pi, u + s);
  }
  if (b != 0.0) {
    r += tb_bessel::scaled_term(b * ik.ks, ik.pk, s - u);
  }
  return r;
}

// AMOS's underflow of K_nu(u) (kode 1, Re u > ALIM): zkscl zeroes K where
// ln|K| < -ELIM, zuchk where its smaller component is below 1e3 D1MACH(1) and the
// larger one within a factor 1/TOL of it.
inline bool amos_k_underflows(const tb_bessel::IkScaled& ik, cd u) {
  const double ln2 = 0.69314718055994530942;
  const double base = static_cast<double>(ik.pk) * ln2 - u.real();
  const cd phase(std::cos(u.imag()), -std::sin(u.imag()));
  const cd k = ik.ks * phase;  // K = k 2^pk e^-Re u
  if (std::log(std::abs(k)) + base < -kElim) {
    return true;
  }
  const double lr = std::log(std::fabs(k.real())) + base;
  const double li = std::log(std::fabs(k.imag())) + base;
  const double lmin = std::fmin(lr, li), lmax = std::fmax(lr, li);
  return lmin < std::log(kAscle) && lmax < lmin - std::log(kTol);
}

// (Ai, Ai', Bi, Bi') of z, `scaled`: airye's forms; SciPy's special values.
inline void airy(cd z, bool scaled, cd out[4]) {
  const double re = z.real(), im = z.imag();
  if (!std::isfinite(re) || !std::isfinite(im)) {
    out[0] = out[1] = out[2] = out[3] = cd(kNan, kNan);
    return;
  }
  const double az = std::abs(z);
  if (az > kAmosLimit) {
    out[0] = out[1] = out[2] = out[3] = cd(kNan, kNan);
    return;
  }
  const cd sz = std::sqrt(z);
  const cd zeta = (2.0 / 3.0) * (z * sz);
  const bool real_axis = im == 0.0;
  if (az <= 1.0) {
    series(z, out);
    if (real_axis) {
      for (int i = 0; i < 4; ++i) {
        out[i] = out[i].real();
      }
    }
    if (scaled) {
      const cd e = std::exp(zeta);
      const double eb = std::exp(-std::fabs(zeta.real()));
      out[0] *= e;
      out[1] *= e;
      out[2] *= eb;
      out[3] *= eb;
    }
    return;
  }
  const bool negative_axis = real_axis && re < 0.0;
  // on the negative real axis Ai, Bi are real: the unscaled values, made real, and airye's
  // e^zeta (|e^zeta| = 1) applied after
  const bool scale_here = scaled && !negative_axis;
  const double theta = std::atan2(im, re);
  const cd s_ai = scale_here ? zeta : cd(0.0);
  const cd s_bi = scale_here ? cd(-std::fabs(zeta.real()), 0.0) : cd(0.0);
  tb_bessel::IkScaled ik1, ik2;
  cd u;
  if (std::fabs(theta) <= kPi / 3.0) {
    u = cd(std::fmax(zeta.real(), 0.0), zeta.imag());
    if (!tb_bessel::cik(1.0 / 3.0, u, &ik1) || !tb_bessel::cik(2.0 / 3.0, u, &ik2)) {
      out[0] = out[1] = out[2] = out[3] = cd(kNan, kNan);
      return;
    }
    const cd r3 = sz / kSqrt3, z3 = z / kSqrt3;
    out[0] = combine(0.0, r3 / kPi, ik1, u, s_ai);
    out[1] = combine(0.0, -z3 / kPi, ik2, u, s_ai);
    out[2] = combine(2.0 * r3, r3 * (kSqrt3 / kPi), ik1, u, s_bi);
    out[3] = combine(2.0 * z3, z3 * (kSqrt3 / kPi), ik2, u, s_bi);
  } else {
    const double sg = std::signbit(im) ? -1.0 : 1.0;  // -0.0: the lower side, as arg z = -pi
    const cd e3(0.5, sg * kHalfSqrt3);                // e^(+-i pi/3)
    const cd w = z * cd(-0.5, -sg * kHalfSqrt3);      // z e^(-+2 pi i/3)
    const cd sw = sz * std::conj(e3);                 // sqrt(w)
    u = -zeta;
    u = cd(std::fmax(u.real(), 0.0), u.imag());
    if (!tb_bessel::cik(1.0 / 3.0, u, &ik1) || !tb_bessel::cik(2.0 / 3.0, u, &ik2)) {
      out[0] = out[1] = out[2] = out[3] = cd(kNan, kNan);
      return;
    }
    const cd r3 = sw / kSqrt3, w3 = w / kSqrt3;
    const cd mi(0.0, -sg);  // -+i
    out[0] = combine(r3 * mi * e3, r3 / kPi, ik1, u, s_ai);
    out[1] = combine(w3 * mi * std::conj(e3), -w3 / kPi, ik2, u, s_ai);
    out[2] = combine(r3 * e3, r3 * (kSqrt3 / kPi), ik1, u, s_bi);
    out[3] = combine(w3 * std::conj(e3), w3 * (kSqrt3 / kPi), ik2, u, s_bi);
  }
  if (real_axis) {
    for (int i = 0; i < 4; ++i) {
      out[i] = out[i].real();
    }
    if (negative_axis && scaled) {
      const cd e(std::cos(zeta.imag()), std::sin(zeta.imag()));
      out[0] *= e;
      out[1] *= e;
    }
  }
  if (scaled) {
    return;
  }
  // AMOS's overflow and underflow (kode 1): zeta' has Re zeta' = -|Re zeta| for Re z < 0 and
  // 0 on the negative real axis
  double zr = zeta.real();
  if (re < 0.0) {
    zr = -std::fabs(zr);
  }
  if (real_axis && re <= 0.0) {
    zr = 0.0;
  }
  const double quarter_log = 0.25 * std::log(az);
  if (std::fabs(zr) >= kAlim && std::fabs(zr) + quarter_log > kElim) {
    out[2] = out[3] = cd(kNan, kNan);
  }
  if (zr >= 0.0 && re > 0.0) {
    if (zr > kAlim) {
      if (zr + quarter_log > kElim || amos_k_underflows(ik1, u)) {
        out[0] = 0.0;
      }
      if (zr + quarter_log > kElim || amos_k_underflows(ik2, u)) {
        out[1] = 0.0;
      }
    }
  } else if (zr <= -kAlim && -zr + quarter_log > kElim) {
    out[0] = out[1] = cd(kNan, kNan);
  }
}

}  // namespace tb_airy
