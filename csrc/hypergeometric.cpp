// torchbridge's C++ shim, hypergeometric half: the Gauss hypergeometric
// function 2F1, the confluent function 1F1 and the confluent limit function
// 0F1 of real arguments (`scipy.special.hyp2f1`, `hyp1f1`, `hyp0f1`) and the Struve functions H and L
// (`scipy.special.struve`, `modstruve`), Tricomi's U (`hyperu`) and Wright's
// generalized Bessel function (`wright_bessel`, `log_wright_bessel`) as CPU kernels, declared in Rust in
// src/ffi/hypergeometric.rs and used by src/ops/special/hypergeometric.rs and
// src/ops/special/struve.rs. The scalar kernels and their methods are in
// hypergeometric_kernels.h, hyperu_kernels.h, wright_bessel_kernels.h and
// struve_kernels.h; this file runs them over the
// elements, split over libtorch's thread count (csrc/parallel.h).
//
// Every entry point checks its tensors with TORCH_CHECK and catches every
// C++ exception (see error.h).

#include "error.h"
#include "hypergeometric_complex.h"
#include "hypergeometric_kernels.h"
#include "hyperu_kernels.h"
#include "parallel.h"
#include "struve_kernels.h"
#include "wright_bessel_kernels.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <limits>

using tb_shim::describe_current_exception;

namespace {

constexpr int64_t kWorkPerThread = 1 << 9;

// The kinds, as src/ffi/hypergeometric.rs numbers them, and their input counts.
enum Kind : int64_t {
  kHyp2f1 = 0,
  kHyp0f1 = 1,
  kStruve = 2,
  kModstruve = 3,
  kHyp1f1 = 4,
  kHyperu = 5,
  kWrightBessel = 6,
  kLogWrightBessel = 7,
};

int64_t arity(int64_t kind) { return kind == kHyp2f1 ? 4 : (kind == kHyp0f1 || kind == kStruve || kind == kModstruve ? 2 : 3); }

double evaluate(int64_t kind, const double* const* in, int64_t i) {
  switch (kind) {
    case kHyp2f1: {
      double loss = 0.0;
      bool pole = false;
      return tb_hyper::hyp2f1_impl(in[0][i], in[1][i], in[2][i], in[3][i], &loss, &pole);
    }
    case kHyp0f1:
      return tb_hyper::hyp0f1(in[0][i], in[1][i]);
    case kHyp1f1:
      return tb_hyper::hyp1f1(in[0][i], in[1][i], in[2][i]);
    case kHyperu:
      return tb_hyperu::hyperu(in[0][i], in[1][i], in[2][i]);
    case kWrightBessel:
      return tb_wright::wright_bessel(in[0][i], in[1][i], in[2][i]);
    case kLogWrightBessel:
      return tb_wright::log_wright_bessel(in[0][i], in[1][i], in[2][i]);
    case kStruve: {
      int status = 0;
      return tb_struve::struve(in[0][i], in[1][i], true, &status);
    }
    case kModstruve: {
      int status = 0;
      return tb_struve::struve(in[0][i], in[1][i], false, &status);
    }
    default: {
      return std::numeric_limits<double>::quiet_NaN();
    }
  }
}

// The complex kinds, as src/ffi/hypergeometric.rs numbers them: the last input
// is complex128, the others float64.
enum ComplexKind : int64_t {
  kCHyp2f1 = 0,
  kCHyp1f1 = 1,
  kCJacobi = 2,
  kCGegenbauer = 3,
  kCGenlaguerre = 4,
  kCChebyt = 5,
  kCChebyu = 6,
  kCLegendre = 7,
  kCLaguerre = 8,
  kCShLegendre = 9,
  kCShChebyt = 10,
  kCShChebyu = 11,
};

int64_t complex_arity(int64_t kind) {
  switch (kind) {
    case kCHyp2f1:
    case kCJacobi:
      return 4;
    case kCHyp1f1:
    case kCGegenbauer:
    case kCGenlaguerre:
      return 3;
    default:
      return 2;
  }
}

std::complex<double> evaluate_complex(int64_t kind, const double* const* in, const std::complex<double>* z, int64_t i) {
  using namespace tb_chyper;
  switch (kind) {
    case kCHyp2f1:
      return hyp2f1(in[0][i], in[1][i], in[2][i], z[i]);
    case kCHyp1f1:
      return hyp1f1(in[0][i], in[1][i], z[i]);
    case kCJacobi:
      return eval_jacobi(in[0][i], in[1][i], in[2][i], z[i]);
    case kCGegenbauer:
      return eval_gegenbauer(in[0][i], in[1][i], z[i]);
    case kCGenlaguerre:
      return eval_genlaguerre(in[0][i], in[1][i], z[i]);
    case kCChebyt:
      return eval_chebyt(in[0][i], z[i]);
    case kCChebyu:
      return eval_chebyu(in[0][i], z[i]);
    case kCLegendre:
      return eval_legendre(in[0][i], z[i]);
    case kCLaguerre:
      return eval_genlaguerre(in[0][i], 0.0, z[i]);
    case kCShLegendre:
      return eval_legendre(in[0][i], shifted(z[i]));
    case kCShChebyt:
      return eval_chebyt(in[0][i], shifted(z[i]));
    case kCShChebyu:
      return eval_chebyu(in[0][i], shifted(z[i]));
    default:
      return cnan();
  }
}

}  // namespace

extern "C" {

// The complex routine `kind` (see ComplexKind) of the `n` tensors `inputs`
// (one shape, contiguous, CPU: float64 parameters, the complex128 argument
// last) into a new complex128 tensor `*out` of that shape.
char* tb_hypergeometric_complex_cpu(const at::Tensor* const* inputs, int64_t n, int64_t kind, at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    TORCH_CHECK(kind >= kCHyp2f1 && kind <= kCShChebyu, "hypergeometric (complex): unknown kind ", kind);
    TORCH_CHECK(n == complex_arity(kind), "hypergeometric (complex): kind ", kind, " takes ", complex_arity(kind),
                " inputs, not ", n);
    const double* data[3] = {nullptr, nullptr, nullptr};
    for (int64_t k = 0; k < n; ++k) {
      const at::Tensor* t = inputs[k];
      const auto want = k == n - 1 ? at::kComplexDouble : at::kDouble;
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == want && t->is_contiguous(),
                  "hypergeometric (complex): the parameters must be contiguous float64 and the argument "
                  "contiguous complex128 CPU tensors");
      TORCH_CHECK(t->sizes() == inputs[0]->sizes(), "hypergeometric (complex): the inputs must have one shape");
      if (k < n - 1) {
        data[k] = t->const_data_ptr<double>();
      }
    }
    const auto* z = reinterpret_cast<const std::complex<double>*>(inputs[n - 1]->const_data_ptr<c10::complex<double>>());
    at::Tensor result = at::empty_like(*inputs[n - 1]);
    auto* po = reinterpret_cast<std::complex<double>*>(result.mutable_data_ptr<c10::complex<double>>());
    const int64_t count = inputs[0]->numel();
    const int64_t threads = tb_shim::threads_for(count, count, kWorkPerThread / 8);
    tb_shim::split_over_threads(count, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        po[i] = evaluate_complex(kind, data, z, i);
      }
    });
    *out = new at::Tensor(std::move(result));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}


// The routine `kind` (0 hyp2f1, 1 hyp0f1, 2 struve, 3 modstruve, 4 hyp1f1, 5 hyperu,
// 6 wright_bessel, 7 log_wright_bessel) of the elements of the
// `n` tensors `inputs` (one shape, contiguous float64, CPU; n the routine's input count)
// into a new tensor `*out` of that shape.
char* tb_hypergeometric_cpu(const at::Tensor* const* inputs, int64_t n, int64_t kind, at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    TORCH_CHECK(kind >= kHyp2f1 && kind <= kLogWrightBessel, "hypergeometric: unknown kind ", kind);
    TORCH_CHECK(n == arity(kind), "hypergeometric: kind ", kind, " takes ", arity(kind), " inputs, not ", n);
    const double* data[4] = {nullptr, nullptr, nullptr, nullptr};
    for (int64_t k = 0; k < n; ++k) {
      const at::Tensor* t = inputs[k];
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "hypergeometric: the inputs must be contiguous float64 CPU tensors");
      TORCH_CHECK(t->sizes() == inputs[0]->sizes(), "hypergeometric: the inputs must have one shape");
      data[k] = t->const_data_ptr<double>();
    }
    at::Tensor result = at::empty_like(*inputs[0]);
    double* po = result.mutable_data_ptr<double>();
    const int64_t count = inputs[0]->numel();
    const int64_t threads = tb_shim::threads_for(count, count, kWorkPerThread);
    tb_shim::split_over_threads(count, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        po[i] = evaluate(kind, data, i);
      }
    });
    *out = new at::Tensor(std::move(result));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
