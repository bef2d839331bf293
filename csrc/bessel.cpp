// torchbridge's C++ shim, Bessel half: Bessel functions of real order and
// real argument (`scipy.special.jv`, `yv`, `iv`, `kv`, `jve`, `yve`, `ive`,
// `kve`, `yn`) as CPU kernels, declared in Rust in src/ffi/bessel.rs and used
// by src/ops/special/bessel.rs. The scalar kernels and their methods are in
// bessel_kernels.h; this file runs them over the elements, split over
// libtorch's thread count (csrc/parallel.h).
//
// Every entry point checks its tensors with TORCH_CHECK and catches every
// C++ exception (see error.h).

#include "bessel_kernels.h"
#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <memory>

using tb_shim::describe_current_exception;

namespace {

constexpr int64_t kWorkPerThread = 1 << 10;

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

}  // extern "C"
