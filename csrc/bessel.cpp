// torchbridge's C++ shim, Bessel half: Bessel functions of real order and
// real argument (`scipy.special.jv`, `yv`, `iv`, `kv`, `jve`, `yve`, `ive`,
// `kve`, `yn`) as CPU kernels, declared in Rust in src/ffi/bessel.rs and used
// by src/ops/special/bessel.rs. The scalar kernels and their methods are in
// bessel_kernels.h; this file runs them over the elements, split over
// libtorch's thread count (csrc/parallel.h).
//
// The complex-argument loop (jv ... kve, hankel1 ... hankel2e on complex z)
// runs the kernels of bessel_complex.h the same way, and hyp0f1 of complex z
// (hyp0f1_complex.h, built on them); the complex Airy loop (airy, airye of
// complex z) those of airy_complex.h.
//
// Every entry point checks its tensors with TORCH_CHECK and catches every
// C++ exception (see error.h).

#include "airy_complex.h"
#include "bessel_complex.h"
#include "bessel_kernels.h"
#include "error.h"
#include "hyp0f1_complex.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <complex>
#include <cstdint>
#include <memory>

using tb_shim::describe_current_exception;

namespace {

constexpr int64_t kWorkPerThread = 1 << 10;
constexpr int64_t kHyp0f1 = 30;  // the complex loop's kind for hyp0f1

}  // namespace

extern "C" {

// The routine `kind` (tb_bessel::Kind: 0 jv, 1 yv, 2 iv, 3 kv, 4 jve, 5 yve,
// 6 ive, 7 kve, 8 yn) of the elements of `v` and `x` (one shape, contiguous
// float64, CPU) into a new tensor `*out` of that shape.
char* tb_bessel_cpu(const at::Tensor* v, const at::Tensor* x, int64_t kind, at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    for (const at::Tensor* t : {v, x}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "bessel: v and x must be contiguous float64 CPU tensors");
      TORCH_CHECK(t->sizes() == v->sizes(), "bessel: v and x must have one shape");
    }
    TORCH_CHECK(kind >= tb_bessel::kJv && kind <= tb_bessel::kYn, "bessel: unknown kind ", kind);
    at::Tensor result = at::empty_like(*v);
    const double* pv = v->const_data_ptr<double>();
    const double* px = x->const_data_ptr<double>();
    double* po = result.mutable_data_ptr<double>();
    const int64_t n = v->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        po[i] = tb_bessel::evaluate(kind, pv[i], px[i]);
      }
    });
    *out = new at::Tensor(std::move(result));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// The routine `kind` (tb_bessel::ComplexKind: 0 jv, 1 yv, 2 iv, 3 kv, 4 jve, 5 yve,
// 6 ive, 7 kve, 9 hankel1, 10 hankel2, 11 hankel1e, 12 hankel2e; 20 .. 27 the spherical
// jn, yn, in, kn and their derivatives, of integral orders; 30 hyp0f1(v, z)) of the real orders
// `v` (contiguous float64) and complex arguments `z` (contiguous complex128), one shape,
// CPU, into a new complex128 tensor `*out` of that shape.
char* tb_bessel_complex_cpu(const at::Tensor* v, const at::Tensor* z, int64_t kind, at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    TORCH_CHECK(v->device().is_cpu() && v->scalar_type() == at::kDouble && v->is_contiguous(),
                "bessel_complex: v must be a contiguous float64 CPU tensor");
    TORCH_CHECK(z->device().is_cpu() && z->scalar_type() == at::kComplexDouble && z->is_contiguous(),
                "bessel_complex: z must be a contiguous complex128 CPU tensor");
    TORCH_CHECK(z->sizes() == v->sizes(), "bessel_complex: v and z must have one shape");
    TORCH_CHECK((kind >= tb_bessel::kCJv && kind <= tb_bessel::kCH2e && kind != 8) ||
                    (kind >= tb_bessel::kSphJn && kind <= tb_bessel::kSphKnD) || kind == kHyp0f1,
                "bessel_complex: unknown kind ", kind);
    at::Tensor result = at::empty_like(*z);
    using cd = std::complex<double>;
    const double* pv = v->const_data_ptr<double>();
    const cd* pz = reinterpret_cast<const cd*>(z->const_data_ptr<c10::complex<double>>());
    cd* po = reinterpret_cast<cd*>(result.mutable_data_ptr<c10::complex<double>>());
    const int64_t n = z->numel();
    // a complex element costs several real ones (complex arithmetic, continued fractions)
    const int64_t threads = tb_shim::threads_for(n, 4 * n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        po[i] = kind == kHyp0f1 ? tb_hyp0f1::hyp0f1(pv[i], pz[i]) : tb_bessel::complex_dispatch(kind, pv[i], pz[i]);
      }
    });
    *out = new at::Tensor(std::move(result));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// (Ai, Ai', Bi, Bi') of the elements of `z` (contiguous complex128, CPU), airye's scaled
// forms for `scaled` != 0, into a new complex128 tensor `*out` of shape [4, numel(z)].
char* tb_airy_complex_cpu(const at::Tensor* z, int64_t scaled, at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    TORCH_CHECK(z->device().is_cpu() && z->scalar_type() == at::kComplexDouble && z->is_contiguous(),
                "airy_complex: z must be a contiguous complex128 CPU tensor");
    const int64_t n = z->numel();
    at::Tensor result = at::empty({4, n}, z->options());
    using cd = std::complex<double>;
    const cd* pz = reinterpret_cast<const cd*>(z->const_data_ptr<c10::complex<double>>());
    cd* po = reinterpret_cast<cd*>(result.mutable_data_ptr<c10::complex<double>>());
    const int64_t threads = tb_shim::threads_for(n, 8 * n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      cd four[4];
      for (int64_t i = begin; i < end; ++i) {
        tb_airy::airy(pz[i], scaled != 0, four);
        for (int64_t j = 0; j < 4; ++j) {
          po[j * n + i] = four[j];
        }
      }
    });
    *out = new at::Tensor(std::move(result));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
