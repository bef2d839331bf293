// The confluent hypergeometric limit function 0F1(; v; z) of real v and
// complex z (SciPy's `dD->D`, `fF->F` loops of `hyp0f1`), a kind of
// csrc/bessel.cpp's complex loop:
// - the power series sum z^k / ((v)_k k!) (DLMF 16.2.1) where |z| is small
//   or small against |v| (|z| <= max(16, |v| ln|v| / 2)), kept where its terms
//   cancel by at most a factor max(64, |v|) (beyond it the Bessel form is the
//   better one; for -4000 < v < 0 summed at least to k = -v, where the
//   factors v + k stop shrinking);
// - otherwise Gamma(v) b^(1-v) I_(v-1)(2b), b = sqrt(z) (DLMF 10.39.9, 10.25.2;
//   SciPy takes J of sqrt(-z) for Re z <= 0, the same function): I and K of
//   csrc/bessel_complex.h at 2b in the right half-plane (K for v - 1 < 0,
//   I_-nu = I_nu + (2/pi) sin(nu pi) K_nu), with log Gamma(v) + (1-v) log b
//   added to their exponents, so that the product over- or underflows only at
//   the end. Real z gives a real result.
// SciPy's special values: nan + 0j at the poles v = 0, -1, -2, ... (and
// v = -inf), 1 + 0j at z = 0 (v = nan included), 1 + 0j for v = +inf; nan + nanj
// for non-finite z or nan v. Unlike SciPy (whose Gamma(v) overflows for
// v > 171.6, and whose AMOS Bessel function reports overflow): finite values
// where 0F1 is finite, and infinite components (not nan) where it overflows.

#pragma once

#include "bessel_complex.h"

#include <cmath>
#include <complex>
#include <cstdint>

namespace tb_hyp0f1 {

using cd = std::complex<double>;
using tb_bessel::kEps;
using tb_bessel::kInf;
using tb_bessel::kNan;

inline cd hyp0f1(double v, cd z) {
  if (v <= 0.0 && v == std::floor(v)) {
    return {kNan, 0.0};
  }
  if (z.real() == 0.0 && z.imag() == 0.0) {
    return {1.0, 0.0};
  }
  if (!tb_bessel::cfinite(z) || std::isnan(v)) {
    return {kNan, kNan};
  }
  if (std::isinf(v)) {
    return {1.0, 0.0};
  }
  const double az = std::abs(z);
  const double av = std::fabs(v);
  if (az <= 16.0 || az <= 0.5 * av * std::log(av)) {
    cd term = 1.0, sum = 1.0;
    double size = 1.0;
    bool converged = false;
    // for -4000 < v < 0 the factors v + k shrink up to k = -v, where the terms can grow again:
    // no stop before (further out they stay far below the first terms)
    const double stop_from = (v < 0.0 && v > -4000.0) ? -v : 0.0;
    for (int k = 0; k < 8200; ++k) {
      const double dk = k;
      term *= z / ((v + dk) * (dk + 1.0));
      sum += term;
      const double t = std::abs(term);
      size += t;
      if (t <= 0.25 * kEps * std::abs(sum) && dk + 1.0 > stop_from) {
        converged = true;
        break;
      }
      if (!std::isfinite(size)) {
        break;
      }
    }
    if (converged && size <= std::fmax(64.0, av) * std::abs(sum)) {
      return sum;
    }
  }
  // 0F1 is entire: Gamma(v) b^(1-v) I_(v-1)(2b) with b = sqrt(z) on any branch; the principal one
  // keeps 2b in the right half-plane, where bessel_complex.h computes I (and K, for v - 1 < 0)
  // without continuation. Gamma(v) b^(1-v) goes in as a logarithm, added to the exponents of the
  // scaled I and K, so that nothing over- or underflows before the end.
  const cd b = std::sqrt(z);
  int sign = 1;
  const double lg = ::lgamma_r(v, &sign);
  const cd front = lg + (1.0 - v) * std::log(b);
  bool failed = false;
  cd r = tb_bessel::complex_core(tb_bessel::kCIv, v - 1.0, 2.0 * b, &failed, front);
  if (failed || std::isnan(r.real()) || std::isnan(r.imag())) {
    return {kNan, kNan};
  }
  if (z.imag() == 0.0) {
    r = r.real();  // real v, real z: real (the imaginary part is rounding)
  }
  return sign < 0 ? -r : r;
}

}  // namespace tb_hyp0f1
