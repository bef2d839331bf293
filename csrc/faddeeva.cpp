// torchbridge's C++ shim, Faddeeva half: `scipy.special.wofz`, the complex
// erf family (erf, erfc, erfcx, erfi, dawsn, ndtr, log_ndtr) on complex128 CPU tensors and
// `voigt_profile` on float64 CPU tensors (declared in Rust in
// src/ffi/faddeeva.rs, used by src/ops/special/faddeeva.rs). The scalar
// mathematics, and where it comes from, is in faddeeva_math.h.

#include "error.h"
#include "faddeeva_math.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <complex>
#include <cstdint>

using tb_shim::describe_current_exception;

namespace {

// A w(z) costs about 30 exponentials: few elements are worth a thread.
constexpr int64_t kWorkPerThread = 1 << 11;

}  // namespace

extern "C" {

// `out[i] = f(z[i])` for `which` 0: wofz, 1: erf, 2: erfc, 3: erfcx, 4: erfi,
// 5: dawsn, 6: ndtr, 7: log_ndtr; `z` and `out` contiguous complex128 CPU tensors of one shape,
// `out` the caller's own.
char* tb_faddeeva_cpu(const at::Tensor* z, at::Tensor* out, int32_t which) noexcept {
  try {
    for (const at::Tensor* t : {z, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kComplexDouble && t->is_contiguous(),
                  "faddeeva: z and out must be contiguous complex128 CPU tensors");
    }
    TORCH_CHECK(z->sizes() == out->sizes(), "faddeeva: z and out must have one shape");
    TORCH_CHECK(which >= 0 && which <= 7, "faddeeva: unknown function ", which);
    using cd = std::complex<double>;
    const cd* pz = reinterpret_cast<const cd*>(z->const_data_ptr<c10::complex<double>>());
    cd* po = reinterpret_cast<cd*>(out->mutable_data_ptr<c10::complex<double>>());
    const int64_t n = z->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const cd v = pz[i];
        switch (which) {
          case 0: po[i] = tb_faddeeva::w(v); break;
          case 1: po[i] = tb_faddeeva::erf(v); break;
          case 2: po[i] = tb_faddeeva::erfc(v); break;
          case 3: po[i] = tb_faddeeva::erfcx(v); break;
          case 4: po[i] = tb_faddeeva::erfi(v); break;
          case 5: po[i] = tb_faddeeva::dawsn(v); break;
          case 6: po[i] = tb_faddeeva::ndtr(v); break;
          default: po[i] = tb_faddeeva::log_ndtr(v); break;
        }
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `out[i] = voigt_profile(x[i], sigma[i], gamma[i])`, all four contiguous
// float64 CPU tensors of one shape, `out` the caller's own.
char* tb_voigt_profile_cpu(const at::Tensor* x, const at::Tensor* sigma, const at::Tensor* gamma,
                           at::Tensor* out) noexcept {
  try {
    for (const at::Tensor* t : {x, sigma, gamma, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kDouble && t->is_contiguous(),
                  "voigt_profile: the inputs and out must be contiguous float64 CPU tensors");
      TORCH_CHECK(t->sizes() == out->sizes(), "voigt_profile: the inputs and out must have one shape");
    }
    const double* px = x->const_data_ptr<double>();
    const double* ps = sigma->const_data_ptr<double>();
    const double* pg = gamma->const_data_ptr<double>();
    double* po = out->mutable_data_ptr<double>();
    const int64_t n = x->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        po[i] = tb_faddeeva::voigt_profile(px[i], ps[i], pg[i]);
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
