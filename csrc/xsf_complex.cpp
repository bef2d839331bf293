// torchbridge's C++ shim, complex half of SciPy's xsf kernels: loggamma,
// gamma, rgamma, digamma, exp1, expi, spence and Riemann's zeta of complex
// argument, and the Lambert W function; Carlson's symmetric elliptic integrals
// (elliprf, elliprd, elliprc, elliprj, elliprg) and the pairs sici, shichi,
// fresnel of complex arguments, on complex128 CPU tensors (declared in Rust in
// src/ffi/xsf_complex.rs, used by src/ops/special/xsf_complex.rs). The scalar
// mathematics, and where it comes from, is in loggamma_math.h,
// expint_math.h, spence_math.h, zeta_complex_math.h, lambertw_math.h,
// carlson_math.h and sici_complex_math.h.

#include "carlson_math.h"
#include "error.h"
#include "expint_math.h"
#include "lambertw_math.h"
#include "loggamma_math.h"
#include "parallel.h"
#include "sici_complex_math.h"
#include "spence_math.h"
#include "zeta_complex_math.h"

#include <ATen/ATen.h>

#include <complex>
#include <cstdint>

using tb_shim::describe_current_exception;

namespace {

// A loggamma costs about ten complex logarithms and divisions.
constexpr int64_t kWorkPerThread = 1 << 11;

void check_complex(const at::Tensor* t, const char* what) {
  TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kComplexDouble && t->is_contiguous(), what,
              ": z and out must be contiguous complex128 CPU tensors");
}

}  // namespace

extern "C" {

// `out[i] = f(z[i])` for `which` 0: loggamma, 1: gamma, 2: rgamma,
// 3: digamma, 4: exp1, 5: expi, 6: spence, 7: zeta; `z` and `out` contiguous
// complex128 CPU tensors of one shape, `out` the caller's own.
char* tb_xsf_complex_cpu(const at::Tensor* z, at::Tensor* out, int32_t which) noexcept {
  try {
    check_complex(z, "xsf_complex");
    check_complex(out, "xsf_complex");
    TORCH_CHECK(z->sizes() == out->sizes(), "xsf_complex: z and out must have one shape");
    TORCH_CHECK(which >= 0 && which <= 7, "xsf_complex: unknown function ", which);
    using cd = std::complex<double>;
    const cd* pz = reinterpret_cast<const cd*>(z->const_data_ptr<c10::complex<double>>());
    cd* po = reinterpret_cast<cd*>(out->mutable_data_ptr<c10::complex<double>>());
    const int64_t n = z->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const cd v = pz[i];
        switch (which) {
          case 0: po[i] = tb_xsf::loggamma(v); break;
          case 1: po[i] = tb_xsf::gamma(v); break;
          case 2: po[i] = tb_xsf::rgamma(v); break;
          case 3: po[i] = tb_xsf::digamma(v); break;
          case 4: po[i] = tb_xsf::exp1(v); break;
          case 5: po[i] = tb_xsf::expi(v); break;
          case 6: po[i] = tb_xsf::cspence(v); break;
          default: po[i] = tb_zeta::riemann_zeta(v); break;
        }
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `out[i] = W_k[i](z[i])` to the relative tolerance tol[i]: `z` and `out`
// contiguous complex128, `k` int64, `tol` float64, all CPU of one shape,
// `out` the caller's own.
char* tb_lambertw_cpu(const at::Tensor* z, const at::Tensor* k, const at::Tensor* tol, at::Tensor* out) noexcept {
  try {
    check_complex(z, "lambertw");
    check_complex(out, "lambertw");
    TORCH_CHECK(k->device().is_cpu() && k->scalar_type() == at::kLong && k->is_contiguous(),
                "lambertw: k must be a contiguous int64 CPU tensor");
    TORCH_CHECK(tol->device().is_cpu() && tol->scalar_type() == at::kDouble && tol->is_contiguous(),
                "lambertw: tol must be a contiguous float64 CPU tensor");
    for (const at::Tensor* t : {k, tol, static_cast<const at::Tensor*>(out)}) {
      TORCH_CHECK(t->sizes() == z->sizes(), "lambertw: z, k, tol and out must have one shape");
    }
    using cd = std::complex<double>;
    const cd* pz = reinterpret_cast<const cd*>(z->const_data_ptr<c10::complex<double>>());
    const int64_t* pk = k->const_data_ptr<int64_t>();
    const double* pt = tol->const_data_ptr<double>();
    cd* po = reinterpret_cast<cd*>(out->mutable_data_ptr<c10::complex<double>>());
    const int64_t n = z->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        int status = 0;
        po[i] = tb_xsf::lambertw(pz[i], pk[i], pt[i], &status);
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `out[i] = R(x[i], y[i], z[i], p[i])` for `which` 0: R_F(x, y, z),
// 1: R_D(x, y, z), 2: R_C(x, y), 3: R_J(x, y, z, p), 4: R_G(x, y, z) (the
// arguments a function does not take are read from any tensor of the shape);
// all contiguous complex128 CPU tensors of one shape, `out` the caller's own.
char* tb_carlson_complex_cpu(const at::Tensor* x, const at::Tensor* y, const at::Tensor* z, const at::Tensor* p,
                             at::Tensor* out, int32_t which) noexcept {
  try {
    for (const at::Tensor* t : {x, y, z, p, static_cast<const at::Tensor*>(out)}) {
      check_complex(t, "carlson_complex");
      TORCH_CHECK(t->sizes() == out->sizes(), "carlson_complex: x, y, z, p and out must have one shape");
    }
    TORCH_CHECK(which >= 0 && which <= 4, "carlson_complex: unknown function ", which);
    using cd = std::complex<double>;
    const auto data = [](const at::Tensor* t) {
      return reinterpret_cast<const cd*>(t->const_data_ptr<c10::complex<double>>());
    };
    const cd* px = data(x);
    const cd* py = data(y);
    const cd* pz = data(z);
    const cd* pp = data(p);
    cd* po = reinterpret_cast<cd*>(out->mutable_data_ptr<c10::complex<double>>());
    const int64_t n = out->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        switch (which) {
          case 0: po[i] = tb_carlson::rf(px[i], py[i], pz[i]); break;
          case 1: po[i] = tb_carlson::rd(px[i], py[i], pz[i]); break;
          case 2: po[i] = tb_carlson::rc(px[i], py[i]); break;
          case 3: po[i] = tb_carlson::rj(px[i], py[i], pz[i], pp[i]); break;
          default: po[i] = tb_carlson::rg(px[i], py[i], pz[i]); break;
        }
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `(first[i], second[i]) = f(z[i])` for `which` 0: (Si, Ci), 1: (Shi, Chi),
// 2: (S, C) the Fresnel integrals; contiguous complex128 CPU tensors of one
// shape, `first` and `second` the caller's own.
char* tb_xsf_complex_pair_cpu(const at::Tensor* z, at::Tensor* first, at::Tensor* second, int32_t which) noexcept {
  try {
    for (const at::Tensor* t : {z, static_cast<const at::Tensor*>(first), static_cast<const at::Tensor*>(second)}) {
      check_complex(t, "xsf_complex_pair");
      TORCH_CHECK(t->sizes() == z->sizes(), "xsf_complex_pair: z and the outputs must have one shape");
    }
    TORCH_CHECK(which >= 0 && which <= 2, "xsf_complex_pair: unknown function ", which);
    using cd = std::complex<double>;
    const cd* pz = reinterpret_cast<const cd*>(z->const_data_ptr<c10::complex<double>>());
    cd* pa = reinterpret_cast<cd*>(first->mutable_data_ptr<c10::complex<double>>());
    cd* pb = reinterpret_cast<cd*>(second->mutable_data_ptr<c10::complex<double>>());
    const int64_t n = z->numel();
    const int64_t threads = tb_shim::threads_for(n, n, kWorkPerThread);
    tb_shim::split_over_threads(n, threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        switch (which) {
          case 0: tb_sici::sici(pz[i], pa + i, pb + i); break;
          case 1: tb_sici::shichi(pz[i], pa + i, pb + i); break;
          default: tb_sici::fresnel(pz[i], pa + i, pb + i); break;
        }
      }
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
