// torchbridge's C++ shim, incomplete beta half: the regularized incomplete
// beta function `I_x(a, b)` and its complement as a CPU kernel, declared in
// Rust in src/ffi/incbet.rs.
//
// src/ops/special/incbet.rs computes the same function from libtorch ops
// (that path serves CUDA and autograd; its module docs give the method). The
// continued fraction there runs over the whole batch four steps a pass, the
// unconverged elements gathered anew after each pass: a few dozen tensor
// passes per element, where SciPy (Boost's `ibeta`) spends one scalar loop.
// Here every element runs the same formulas as scalar code, the elements
// split over libtorch's thread count (csrc/parallel.h). The two paths agree
// to a few ulps (libm's and libtorch's log, exp and lgamma differ in the last
// bit); tests/special/incbet.rs holds them to it.
//
// Every entry point checks its tensors with TORCH_CHECK and catches every
// C++ exception (see error.h).

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>

using tb_shim::describe_current_exception;

namespace {

// The constants of src/ops/special/incbet.rs, which documents them.
constexpr double kTiny = 1e-300;
constexpr double kEps = 1e-15;
constexpr int kBlock = 4;
constexpr int kMaxSteps = 20000;
constexpr double kStirlingFrom = 8.0;
constexpr double kLog2Pi = 1.8378770664093454836;

// Elements per thread worth its start (the fraction alone is tens of steps).
constexpr int64_t kWorkPerThread = 1 << 11;

// lgamma(z) - ((z - 1/2) log z - z + log(2 pi)/2) for z >= 8 (clamped there).
double stirling_correction(double z) {
  // B_{2k} / (2k (2k - 1)), k = 1..10
  static constexpr double kC[10] = {
      1.0 / 12.0,   -1.0 / 360.0,        1.0 / 1260.0,  -1.0 / 1680.0,      1.0 / 1188.0,
      -691.0 / 360360.0, 1.0 / 156.0, -3617.0 / 122400.0, 43867.0 / 244188.0, -174611.0 / 125400.0,
  };
  const double r = 1.0 / std::max(z, kStirlingFrom);
  const double r2 = r * r;
  double acc = kC[9];
  for (int k = 8; k >= 0; --k) {
    acc = acc * r2 + kC[k];
  }
  return acc * r;
}

// log(1 + s) - s for |s| <= 1/2, by the odd series of 2 atanh(s / (s + 2)).
double log1pmx(double s) {
  const double u = s / (s + 2.0);
  const double u2 = u * u;
  double acc = 1.0 / 29.0;  // k = 13: 1/(2k + 3)
  for (int k = 12; k >= 0; --k) {
    acc = acc * u2 + 1.0 / (2 * k + 3);
  }
  return acc * u2 * u * 2.0 - u * s;
}

// log B(a, b) for positive finite a, b with min(a, b) < 8 (TOMS 708's algdiv
// for one large argument).
double log_beta_small(double a, double b) {
  const double s = std::min(a, b);
  const double l = std::max(a, b);
  const double sum = s + l;
  if (l < kStirlingFrom) {
    return std::lgamma(s) + std::lgamma(l) - std::lgamma(sum);
  }
  const double quotient = -(s * std::log(l)) - (sum - 0.5) * std::log1p(s / l) + s + stirling_correction(l) -
                          stirling_correction(sum);
  return std::lgamma(s) + quotient;
}

// a rlog1(e), e = t/t0 - 1, from e and log t (see incbet.rs's scaled_rlog1).
double scaled_rlog1(double a, double e, double log_t, double log_t0) {
  if (std::abs(e) < 0.5) {
    return a * -log1pmx(e);
  }
  return a * (e - (log_t - log_t0));
}

// log(x^a y^b / B(a, b)) for positive finite a, b and x + y = 1.
double log_power_terms(double a, double b, double x, double y) {
  const bool x_small = x <= y;
  const double log_x = x_small ? std::log(x) : std::log1p(-y);
  const double log_y = x_small ? std::log1p(-x) : std::log(y);
  if (!(a >= kStirlingFrom && b >= kStirlingFrom)) {
    return a * log_x + b * log_y - log_beta_small(a, b);
  }
  const double sum = a + b;
  const double lambda = x > y ? sum * y - b : a - sum * x;
  const double log_sum = std::log(sum);
  const double au = scaled_rlog1(a, -lambda / a, log_x, std::log(a) - log_sum);
  const double bv = scaled_rlog1(b, lambda / b, log_y, std::log(b) - log_sum);
  const double root = (std::log(a) - std::log1p(a / b) - kLog2Pi) * 0.5;
  const double correction = stirling_correction(a) + stirling_correction(b) - stirling_correction(sum);
  return -(au + bv) + root - correction;
}

double floor_tiny(double t) {
  return std::abs(t) >= kTiny ? t : kTiny;
}

// The continued fraction K(a, b, x) of DLMF 8.17.22 (even form) by Lentz's
// method, for x <= (a + 1)/(a + b + 2), converged when a block of steps ends
// with |delta - 1| < eps (or the budget is spent; nan leaves at once).
double continued_fraction(double a, double b, double x) {
  const double sum = a + b;
  double c = 1.0;
  double d = 1.0 / floor_tiny(1.0 - sum * x / (a + 1.0));
  double h = d;
  int m = 1;
  for (;;) {
    double delta = 1.0;
    for (int i = 0; i < kBlock; ++i, ++m) {
      const double mf = m;
      const double a2m = a + 2.0 * mf;
      double num = (b - mf) * x * mf / ((a2m - 1.0) * a2m);
      d = 1.0 / floor_tiny(num * d + 1.0);
      c = floor_tiny(num / c + 1.0);
      h = h * d * c;
      num = -((a + mf) * (sum + mf) * x / (a2m * (a2m + 1.0)));
      d = 1.0 / floor_tiny(num * d + 1.0);
      c = floor_tiny(num / c + 1.0);
      delta = d * c;
      h = h * delta;
    }
    if (std::abs(delta - 1.0) < kEps || std::isnan(h) || m > kMaxSteps) {
      return h;
    }
  }
}

// (I_x(a, b), 1 - I_x(a, b)) where a, b are positive and finite and x, y
// (= 1 - x, the better known of the two where x is near 1: an inverse's
// iterate may be x = 1.0, y = 1e-20) are in [0, 1]; nan for both elsewhere
// (the caller's edge rules overwrite those), so that no input can run the
// fraction out of its domain.
void incbet_pair(double a, double b, double x, double y, double* lower, double* upper) {
  const bool inside = a > 0.0 && a < HUGE_VAL && b > 0.0 && b < HUGE_VAL && x >= 0.0 && x <= 1.0 && y >= 0.0 && y <= 1.0;
  if (!inside) {
    *lower = *upper = std::numeric_limits<double>::quiet_NaN();
    return;
  }
  const bool swap = x > (a + 1.0) / (a + b + 2.0);
  const double aa = swap ? b : a;
  const double bb = swap ? a : b;
  const double xx = swap ? y : x;
  const double yy = swap ? x : y;
  const double front = std::exp(log_power_terms(aa, bb, xx, yy) - std::log(aa));
  const double fraction = front > 0.0 && xx > 0.0 ? continued_fraction(aa, bb, xx) : 1.0;
  const double w = std::clamp(front * fraction, 0.0, 1.0);
  const double wc = 1.0 - w;
  *lower = swap ? wc : w;
  *upper = swap ? w : wc;
}

}  // namespace

extern "C" {

// (I_x(a, b), 1 - I_x(a, b)) of the elements of `a`, `b`, `x`, `y` (one
// shape, contiguous float64, CPU; `y` = 1 - x as the caller knows it best)
// into two new tensors `*lower`, `*upper` of that shape: nan where `a` or
// `b` is not positive and finite or `x` or `y` is outside [0, 1].
char* tb_incbet_pair_cpu(const at::Tensor* a, const at::Tensor* b, const at::Tensor* x, const at::Tensor* y,
                         at::Tensor** lower, at::Tensor** upper) noexcept {
  *lower = nullptr;
  *upper = nullptr;
  try {
    for (const at::Tensor* t : {a, b, x, y}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "incbet: a, b, x and y must be contiguous float64 CPU tensors");
      TORCH_CHECK(t->sizes() == a->sizes(), "incbet: a, b, x and y must have one shape");
    }
    at::Tensor lo = at::empty_like(*a);
    at::Tensor up = at::empty_like(*a);
    const double* pa = a->const_data_ptr<double>();
    const double* pb = b->const_data_ptr<double>();
    const double* px = x->const_data_ptr<double>();
    const double* py = y->const_data_ptr<double>();
    double* plo = lo.mutable_data_ptr<double>();
    double* pup = up.mutable_data_ptr<double>();
    const int64_t n = a->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        incbet_pair(pa[i], pb[i], px[i], py[i], plo + i, pup + i);
      }
    });
    auto lower_box = std::make_unique<at::Tensor>(std::move(lo));
    *upper = new at::Tensor(std::move(up));
    *lower = lower_box.release();
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
