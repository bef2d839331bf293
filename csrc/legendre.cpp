// torchbridge's C++ shim, the Legendre functions of the first kind and the
// spherical harmonics of `scipy.special` (SciPy's multi-ufuncs `sph_harm_y`,
// `sph_legendre_p`, `assoc_legendre_p`, `legendre_p` and the ufunc `lpmv`),
// as CPU kernels declared in Rust in src/ffi/legendre.rs and used by
// src/ops/special/legendre.rs. The mathematics is in legendre_math.h.
//
// One entry point, tb_legendre_cpu: the routine `kind` (see Kind) of its
// input tensors (one shape, contiguous, CPU; degrees and orders int64, the
// rest float64, assoc_legendre_p's z float64 or complex128), into a new
// tensor of shape [outputs, *shape]: the value and its derivatives up to
// order diff_n (sph_harm_y: the (diff_n + 1)^2 mixed derivatives in theta and
// phi, row-major), split over libtorch's thread count (csrc/parallel.h).

#include "error.h"
#include "legendre_math.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

using tb_shim::describe_current_exception;

namespace {

using tb_legendre::cdouble;
using tb_legendre::Jet;

enum Kind : int64_t {
  kSphHarmY = 0,       // n, m, theta, phi -> complex, (d+1)^2 outputs
  kSphLegendreP = 1,   // n, m, theta -> d+1 outputs
  kAssocLegendreP = 2, // n, m, z, branch_cut -> d+1 outputs (z real or complex)
  kLegendreP = 3,      // n, z -> d+1 outputs
  kLpmv = 4,           // m, v, x -> 1 output
};

constexpr int64_t kWorkPerThread = 1 << 10;
constexpr int64_t kInt32Max = 2147483647;

int64_t arity(int64_t kind) {
  switch (kind) {
    case kSphHarmY:
    case kAssocLegendreP:
      return 4;
    case kSphLegendreP:
    case kLpmv:
      return 3;
    default:
      return 2;
  }
}

// A degree or order the kernels take: within int32, as SciPy's (which converts to int).
bool in_int32(int64_t v) { return v >= -kInt32Max - 1 && v <= kInt32Max; }

// Whether (n, m) gives nan: outside int32, or a degree the recurrences would take too long over.
bool beyond(int64_t n, int64_t m) {
  if (!in_int32(n) || !in_int32(m)) return true;
  return n > tb_legendre::kMaxDegree && std::llabs(m) <= n;
}

template <int N>
void sph_harm_y_at(int64_t n, int64_t m, double theta, double phi, cdouble* out, int64_t stride, int64_t i) {
  constexpr int K = N + 1;
  if (beyond(n, m)) {
    const double nan = tb_legendre::nan_value();
    for (int k = 0; k < K * K; ++k) out[k * stride + i] = cdouble(nan, nan);
    return;
  }
  cdouble y[K][K];
  tb_legendre::sph_harm_y<N>(n, m, theta, phi, y);
  for (int a = 0; a < K; ++a) {
    for (int b = 0; b < K; ++b) out[(a * K + b) * stride + i] = y[a][b];
  }
}

template <int N>
void sph_legendre_p_at(int64_t n, int64_t m, double theta, double* out, int64_t stride, int64_t i) {
  if (beyond(n, m)) {
    for (int k = 0; k <= N; ++k) out[k * stride + i] = tb_legendre::nan_value();
    return;
  }
  const Jet<double, N> p = tb_legendre::sph_legendre_p(n, m, Jet<double, N>::variable(theta));
  for (int k = 0; k <= N; ++k) out[k * stride + i] = p[k];
}

template <int N, typename T>
void assoc_legendre_p_at(int64_t n, int64_t m, T z, int64_t branch_cut, bool norm, T* out, int64_t stride,
                         int64_t i) {
  if (beyond(n, m)) {
    const double nan = tb_legendre::nan_value();
    T value;
    if constexpr (std::is_same_v<T, cdouble>) {
      value = cdouble(nan, nan);
    } else {
      value = nan;
    }
    for (int k = 0; k <= N; ++k) out[k * stride + i] = value;
    return;
  }
  // SciPy converts the branch cut to int and takes 3 as 3, anything else as 2
  const int cut = static_cast<int>(static_cast<int32_t>(static_cast<uint32_t>(branch_cut))) == 3 ? 3 : 2;
  const Jet<T, N> p = tb_legendre::assoc_legendre_p(norm, n, m, Jet<T, N>::variable(z), cut);
  for (int k = 0; k <= N; ++k) out[k * stride + i] = p[k];
}

template <int N>
void legendre_p_at(int64_t n, double z, double* out, int64_t stride, int64_t i) {
  if (!in_int32(n) || n > tb_legendre::kMaxDegree) {
    for (int k = 0; k <= N; ++k) out[k * stride + i] = tb_legendre::nan_value();
    return;
  }
  const Jet<double, N> p = tb_legendre::legendre_p(n, Jet<double, N>::variable(z));
  for (int k = 0; k <= N; ++k) out[k * stride + i] = p[k];
}

// Runs `body(i)` over [0, count) on libtorch's thread count.
template <typename Body>
void for_each(int64_t count, const Body& body) {
  const int64_t threads = tb_shim::threads_for(count, count, kWorkPerThread);
  tb_shim::split_over_threads(count, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) body(i);
  });
}

void check_input(const at::Tensor* t, const at::Tensor* first, at::ScalarType dtype, const char* what) {
  TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == dtype && t->is_contiguous(), "legendre: ", what,
              " must be a contiguous ", c10::toString(dtype), " CPU tensor");
  TORCH_CHECK(t->sizes() == first->sizes(), "legendre: the inputs must have one shape");
}

template <int N>
at::Tensor run(int64_t kind, const at::Tensor* const* in, bool norm) {
  const at::Tensor& first = *in[0];
  const int64_t count = first.numel();
  std::vector<int64_t> shape{0};
  for (auto s : first.sizes()) shape.push_back(s);
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  switch (kind) {
    case kSphHarmY: {
      check_input(in[0], &first, at::kLong, "n");
      check_input(in[1], &first, at::kLong, "m");
      check_input(in[2], &first, at::kDouble, "theta");
      check_input(in[3], &first, at::kDouble, "phi");
      shape[0] = (N + 1) * (N + 1);
      at::Tensor out = at::empty(shape, f64.dtype(at::kComplexDouble));
      const int64_t* n = in[0]->const_data_ptr<int64_t>();
      const int64_t* m = in[1]->const_data_ptr<int64_t>();
      const double* theta = in[2]->const_data_ptr<double>();
      const double* phi = in[3]->const_data_ptr<double>();
      auto* po = reinterpret_cast<cdouble*>(out.mutable_data_ptr<c10::complex<double>>());
      for_each(count, [&](int64_t i) { sph_harm_y_at<N>(n[i], m[i], theta[i], phi[i], po, count, i); });
      return out;
    }
    case kSphLegendreP: {
      check_input(in[0], &first, at::kLong, "n");
      check_input(in[1], &first, at::kLong, "m");
      check_input(in[2], &first, at::kDouble, "theta");
      shape[0] = N + 1;
      at::Tensor out = at::empty(shape, f64);
      const int64_t* n = in[0]->const_data_ptr<int64_t>();
      const int64_t* m = in[1]->const_data_ptr<int64_t>();
      const double* theta = in[2]->const_data_ptr<double>();
      double* po = out.mutable_data_ptr<double>();
      for_each(count, [&](int64_t i) { sph_legendre_p_at<N>(n[i], m[i], theta[i], po, count, i); });
      return out;
    }
    case kAssocLegendreP: {
      check_input(in[0], &first, at::kLong, "n");
      check_input(in[1], &first, at::kLong, "m");
      check_input(in[3], &first, at::kLong, "branch_cut");
      const int64_t* n = in[0]->const_data_ptr<int64_t>();
      const int64_t* m = in[1]->const_data_ptr<int64_t>();
      const int64_t* cut = in[3]->const_data_ptr<int64_t>();
      shape[0] = N + 1;
      if (in[2]->scalar_type() == at::kComplexDouble) {
        check_input(in[2], &first, at::kComplexDouble, "z");
        at::Tensor out = at::empty(shape, f64.dtype(at::kComplexDouble));
        const auto* z = reinterpret_cast<const cdouble*>(in[2]->const_data_ptr<c10::complex<double>>());
        auto* po = reinterpret_cast<cdouble*>(out.mutable_data_ptr<c10::complex<double>>());
        for_each(count, [&](int64_t i) { assoc_legendre_p_at<N, cdouble>(n[i], m[i], z[i], cut[i], norm, po, count, i); });
        return out;
      }
      check_input(in[2], &first, at::kDouble, "z");
      at::Tensor out = at::empty(shape, f64);
      const double* z = in[2]->const_data_ptr<double>();
      double* po = out.mutable_data_ptr<double>();
      for_each(count, [&](int64_t i) { assoc_legendre_p_at<N, double>(n[i], m[i], z[i], cut[i], norm, po, count, i); });
      return out;
    }
    case kLegendreP: {
      check_input(in[0], &first, at::kLong, "n");
      check_input(in[1], &first, at::kDouble, "z");
      shape[0] = N + 1;
      at::Tensor out = at::empty(shape, f64);
      const int64_t* n = in[0]->const_data_ptr<int64_t>();
      const double* z = in[1]->const_data_ptr<double>();
      double* po = out.mutable_data_ptr<double>();
      for_each(count, [&](int64_t i) { legendre_p_at<N>(n[i], z[i], po, count, i); });
      return out;
    }
    case kLpmv: {
      for (int k = 0; k < 3; ++k) check_input(in[k], &first, at::kDouble, "every input");
      at::Tensor out = at::empty(first.sizes(), f64);
      const double* m = in[0]->const_data_ptr<double>();
      const double* v = in[1]->const_data_ptr<double>();
      const double* x = in[2]->const_data_ptr<double>();
      double* po = out.mutable_data_ptr<double>();
      for_each(count, [&](int64_t i) { po[i] = tb_legendre::pmv(m[i], v[i], x[i]); });
      return out;
    }
    default:
      TORCH_CHECK(false, "legendre: unknown kind ", kind);
  }
}

}  // namespace

extern "C" {

// The routine `kind` (0 sph_harm_y, 1 sph_legendre_p, 2 assoc_legendre_p,
// 3 legendre_p, 4 lpmv) of the `n` tensors `inputs` (see the file's head),
// with derivatives up to `diff_n` (0, 1 or 2; lpmv: 0) and, for
// assoc_legendre_p, the normalization `norm`, into a new tensor `*out`.
char* tb_legendre_cpu(const at::Tensor* const* inputs, int64_t n, int64_t kind, int64_t diff_n, bool norm,
                      at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    TORCH_CHECK(kind >= kSphHarmY && kind <= kLpmv, "legendre: unknown kind ", kind);
    TORCH_CHECK(n == arity(kind), "legendre: kind ", kind, " takes ", arity(kind), " inputs, not ", n);
    TORCH_CHECK(diff_n >= 0 && diff_n <= 2 && (kind != kLpmv || diff_n == 0), "legendre: diff_n ", diff_n,
                " is not 0, 1 or 2");
    at::Tensor result;
    if (diff_n == 0) {
      result = run<0>(kind, inputs, norm);
    } else if (diff_n == 1) {
      result = run<1>(kind, inputs, norm);
    } else {
      result = run<2>(kind, inputs, norm);
    }
    *out = new at::Tensor(std::move(result));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
