// torchbridge's C++ shim, recurrent-filter half: SciPy's IIR loops as CPU
// kernels on libtorch tensors, declared in Rust in src/ffi/iir.rs.
//
// libtorch has no recurrence op. On CUDA, and wherever autograd must see the
// computation, src/ops/signal/signaltools/lfilter.rs runs a blocked scan of
// GEMMs; on CPU that scan spends 32 multiply-adds a sample on an order-4
// filter where the recurrence itself spends 9. These kernels run the
// recurrence: SciPy's own loops (`_lfilter.cc`'s direct form II transposed,
// `_sosfilt.pyx`'s biquad cascade) in SciPy's operation order, so that the
// results round as SciPy's do, with the rows split over libtorch's intra-op
// threads (as many as `torch.get_num_threads()`, csrc/parallel.h) and `kLanes` rows
// interleaved within a thread, so that their independent dependency chains
// overlap in the pipeline and vectorise across rows (csrc/iir_kernels.h, built
// for AVX2 too).
//
// Every entry point checks its tensors (CPU, dtype, contiguity, shapes) with
// TORCH_CHECK and catches every C++ exception (see error.h).

#include "error.h"
#include "huge_pages.h"
#include "parallel.h"

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <vector>

using tb_shim::describe_current_exception;

// The kernels twice: for the baseline target, and for AVX2 where the CPU
// has it (chosen at run time by `kHasAvx2`).
namespace tb_iir_baseline {
#include "iir_kernels.h"
}  // namespace tb_iir_baseline

#if defined(__x86_64__) || defined(__i386__)
#pragma GCC push_options
#pragma GCC target("avx2")
namespace tb_iir_avx2 {
#include "iir_kernels.h"
}  // namespace tb_iir_avx2
#pragma GCC pop_options
#define TB_IIR_HAS_AVX2_BUILD 1
#else
namespace tb_iir_avx2 = tb_iir_baseline;  // other architectures: one build
#define TB_IIR_HAS_AVX2_BUILD 0
#endif

namespace {

// TORCHBRIDGE_IIR_BASELINE (set, any value) keeps the baseline kernels on an
// AVX2 machine: how the tests check them bit for bit there too.
#if TB_IIR_HAS_AVX2_BUILD
const bool kHasAvx2 = __builtin_cpu_supports("avx2") && std::getenv("TORCHBRIDGE_IIR_BASELINE") == nullptr;
#else
const bool kHasAvx2 = false;
#endif

// Rows filtered together by one thread: their independent dependency chains
// overlap in the pipeline (one row's recurrence is latency-bound), and with
// the rows innermost the compiler vectorises across them.
constexpr int64_t kLanes = 8;

// Samples (rows times length) per thread below which a call stays on fewer threads.
constexpr int64_t kSamplesPerThread = 1 << 16;

// Filter orders (states per row) with a kernel of their own, whose states
// can live in registers; longer filters keep theirs on the heap.
constexpr int64_t kFixedStates = 8;

// Calls `f(std::integral_constant<int64_t, N>)` for `N == n` when
// `1 <= n <= kFixedStates`, else for `N == 0` (the run-time loop).
template <typename F>
void with_fixed(int64_t n, const F& f) {
  switch (n) {
    case 1: f(std::integral_constant<int64_t, 1>{}); break;
    case 2: f(std::integral_constant<int64_t, 2>{}); break;
    case 3: f(std::integral_constant<int64_t, 3>{}); break;
    case 4: f(std::integral_constant<int64_t, 4>{}); break;
    case 5: f(std::integral_constant<int64_t, 5>{}); break;
    case 6: f(std::integral_constant<int64_t, 6>{}); break;
    case 7: f(std::integral_constant<int64_t, 7>{}); break;
    case 8: f(std::integral_constant<int64_t, 8>{}); break;
    default: f(std::integral_constant<int64_t, 0>{}); break;
  }
  static_assert(kFixedStates == 8, "with_fixed's cases end at kFixedStates");
}

// Runs `body(first_row, lanes)` over all rows of a `(rows, len)` problem:
// `kLanes` rows at a time, then the rest one by one, whole lane groups split
// over the threads of parallel.h.
template <typename Body>
void for_row_groups(int64_t rows, int64_t len, const Body& body) {
  const int64_t groups = (rows + kLanes - 1) / kLanes;
  const int64_t threads = tb_shim::threads_for(groups, rows * len, kSamplesPerThread);
  tb_shim::split_over_threads(rows, threads, kLanes, [&](int64_t begin, int64_t end) {
    int64_t r = begin;
    for (; r + kLanes <= end; r += kLanes) {
      body(r, std::integral_constant<int64_t, kLanes>{});
    }
    for (; r < end; ++r) {
      body(r, std::integral_constant<int64_t, 1>{});
    }
  });
}

void check_rows(const at::Tensor& x, const at::Tensor& zi, int64_t states, const char* what) {
  TORCH_CHECK(x.device().is_cpu() && zi.device().is_cpu(), what, ": tensors must be on the CPU");
  TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), what, ": x must be a contiguous (rows, T) tensor");
  TORCH_CHECK(zi.dim() == 2 && zi.size(0) == x.size(0) && zi.size(1) == states,
              what, ": zi must be (rows, ", states, "), got ", zi.sizes());
  TORCH_CHECK(zi.scalar_type() == x.scalar_type(), what, ": zi must have x's dtype");
}

}  // namespace

extern "C" {

// `scipy.signal.lfilter` on the rows of `x` (`(rows, T)`, contiguous, float
// or complex) from the states `zi` (`(rows, max(len(a), len(b)) - 1)`):
// new tensors `*y` (x's shape) and `*zf` (zi's shape). `b` and `a` are 1-D
// of x's dtype, `a[0] != 0`; they are padded and normalised here as SciPy
// does (division by `a[0]` in x's dtype). `reverse` nonzero: time runs from
// the last sample to the first, `y` in x's orientation (`flip` of the
// filtered `flip(x)`).
char* tb_lfilter_cpu(const at::Tensor* b, const at::Tensor* a, const at::Tensor* x,
                     const at::Tensor* zi, int32_t reverse, at::Tensor** y,
                     at::Tensor** zf) noexcept {
  *y = nullptr;
  *zf = nullptr;
  try {
    TORCH_CHECK(b->dim() == 1 && a->dim() == 1 && b->numel() > 0 && a->numel() > 0,
                "lfilter: b and a must be non-empty 1-D tensors");
    TORCH_CHECK(b->scalar_type() == x->scalar_type() && a->scalar_type() == x->scalar_type(),
                "lfilter: b and a must have x's dtype");
    const int64_t n = std::max(b->numel(), a->numel());
    check_rows(*x, *zi, n - 1, "lfilter");
    const bool fir = a->numel() == 1;
    at::Tensor out = at::empty_like(*x);
    tb_shim::advise_huge_pages(out);
    at::Tensor state = zi->contiguous().clone();
    const int64_t rows = x->size(0);
    const int64_t len = x->size(1);
    AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(x->scalar_type(), "tb_lfilter_cpu", [&] {
      // Padded to `n` and normalised by a[0], in SciPy's order (b first, then a).
      at::Tensor bc = b->to(at::kCPU).contiguous();
      at::Tensor ac = a->to(at::kCPU).contiguous();
      std::vector<scalar_t> bn(n, scalar_t(0));
      std::vector<scalar_t> an(n, scalar_t(0));
      std::copy_n(bc.const_data_ptr<scalar_t>(), bc.numel(), bn.begin());
      std::copy_n(ac.const_data_ptr<scalar_t>(), ac.numel(), an.begin());
      const scalar_t a0 = an[0];
      TORCH_CHECK(a0 != scalar_t(0), "lfilter: a[0] must be nonzero");
      for (int64_t i = 0; i < n; ++i) {
        bn[i] /= a0;
        an[i] /= a0;
      }
      const scalar_t* xp = x->const_data_ptr<scalar_t>();
      scalar_t* yp = out.mutable_data_ptr<scalar_t>();
      scalar_t* zp = state.mutable_data_ptr<scalar_t>();
      const int64_t k = n - 1;
      if (k == 0) {  // a gain: SciPy's `y = x * b[0]`
        out.copy_(x->mul(c10::Scalar(bn[0])));
        return;
      }
      with_fixed(k, [&](auto fixed) {
        constexpr int64_t K = decltype(fixed)::value;
        for_row_groups(rows, len, [&](int64_t r, auto lanes) {
          constexpr int64_t L = decltype(lanes)::value;
          const scalar_t* xr = xp + r * len;
          scalar_t* yr = yp + r * len;
          const scalar_t* bd = bn.data();
          const scalar_t* ad = an.data();
          scalar_t* zr = zp + r * k;
          if (kHasAvx2 && fir) {
            tb_iir_avx2::lfilter_lanes<scalar_t, L, K, true>(bd, ad, k, xr, yr, zr, len, reverse);
          } else if (kHasAvx2) {
            tb_iir_avx2::lfilter_lanes<scalar_t, L, K, false>(bd, ad, k, xr, yr, zr, len, reverse);
          } else if (fir) {
            tb_iir_baseline::lfilter_lanes<scalar_t, L, K, true>(bd, ad, k, xr, yr, zr, len, reverse);
          } else {
            tb_iir_baseline::lfilter_lanes<scalar_t, L, K, false>(bd, ad, k, xr, yr, zr, len, reverse);
          }
        });
      });
    });
    *y = new at::Tensor(std::move(out));
    *zf = new at::Tensor(std::move(state));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `scipy.signal.sosfilt` on the rows of `x` (`(rows, T)`, contiguous) from
// the states `zi` (`(rows, 2 * n_sections)`, sections major): new tensors
// `*y` and `*zf`. `sos` is `(n_sections, 6)` of x's dtype with `sos[:, 3] == 1`
// (SciPy's `_validate_sos`, checked by the caller; not normalised, as SciPy
// does not). `reverse`: as for tb_lfilter_cpu.
char* tb_sosfilt_cpu(const at::Tensor* sos, const at::Tensor* x, const at::Tensor* zi,
                     int32_t reverse, at::Tensor** y, at::Tensor** zf) noexcept {
  *y = nullptr;
  *zf = nullptr;
  try {
    TORCH_CHECK(sos->dim() == 2 && sos->size(1) == 6, "sosfilt: sos must be (n_sections, 6)");
    TORCH_CHECK(sos->scalar_type() == x->scalar_type(), "sosfilt: sos must have x's dtype");
    const int64_t ns = sos->size(0);
    check_rows(*x, *zi, 2 * ns, "sosfilt");
    at::Tensor out = at::empty_like(*x);
    tb_shim::advise_huge_pages(out);
    at::Tensor state = zi->contiguous().clone();
    at::Tensor coefs = sos->to(at::kCPU).contiguous();
    const int64_t rows = x->size(0);
    const int64_t len = x->size(1);
    AT_DISPATCH_FLOATING_AND_COMPLEX_TYPES(x->scalar_type(), "tb_sosfilt_cpu", [&] {
      const scalar_t* cp = coefs.const_data_ptr<scalar_t>();
      const scalar_t* xp = x->const_data_ptr<scalar_t>();
      scalar_t* yp = out.mutable_data_ptr<scalar_t>();
      scalar_t* zp = state.mutable_data_ptr<scalar_t>();
      with_fixed(ns, [&](auto fixed) {
        constexpr int64_t NS = decltype(fixed)::value;
        for_row_groups(rows, len, [&](int64_t r, auto lanes) {
          constexpr int64_t L = decltype(lanes)::value;
          const scalar_t* xr = xp + r * len;
          scalar_t* yr = yp + r * len;
          scalar_t* zr = zp + r * 2 * ns;
          if (kHasAvx2) {
            tb_iir_avx2::sosfilt_lanes<scalar_t, L, NS>(cp, ns, xr, yr, zr, len, reverse);
          } else {
            tb_iir_baseline::sosfilt_lanes<scalar_t, L, NS>(cp, ns, xr, yr, zr, len, reverse);
          }
        });
      });
    });
    *y = new at::Tensor(std::move(out));
    *zf = new at::Tensor(std::move(state));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
