// torchbridge's C++ shim, line-filter half: the loops of SciPy's
// `ndimage/src/ni_filters.c` that the separable filters are made of
// (`NI_Correlate1D`, `NI_UniformFilter1D`) as CPU kernels on libtorch
// tensors, declared in Rust in src/ffi/ni_filters.rs.
//
// src/ops/ndimage/filters.rs computes the same sums from libtorch ops, one
// elementwise op per C operation (that path serves CUDA and autograd): bit
// for bit SciPy's, but each op a pass over the whole array, 40 passes for a
// 25-tap Gaussian. These kernels make one pass, in SciPy's operation order
// (so they round as SciPy does; no fused multiply-adds, see build.rs):
//
// - the array is seen as `(outer, n, inner)` around the filtered axis, the
//   axis extended by an index map computed in Rust (`extend_map`, -1 for
//   `cval`), so every boundary mode is a lookup;
// - along the last axis (`inner == 1`) each line is extended into a buffer
//   and the sums run over output positions, which vectorise;
// - along any other axis the sums run over `inner`, which is contiguous: the
//   taps are rows of the input (or a row of `cval`), no buffer;
// - `outer` lines (or output rows) are split over libtorch's thread count
//   (csrc/parallel.h);
// - float32 and float64 input are read as they are and float32 and float64
//   output written as it is, the sums in float64 (SciPy's double line
//   buffers and its C cast to the output type).
//
// Every entry point checks its tensors with TORCH_CHECK and catches every
// C++ exception (see error.h).

#include "error.h"
#include "huge_pages.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using tb_shim::describe_current_exception;

namespace {

// Output positions (or columns) per tile: the tile's sums stay in L1.
constexpr int64_t kTile = 512;

// Elements per thread below which a call uses fewer threads.
constexpr int64_t kWorkPerThread = 1 << 15;

// `dst[t]` for `t < len`: `NI_Correlate1D`'s sum for one tile, tap `k`'s
// samples at `tap(k)[t]` (`k = 0 .. size - 1`). `symmetric`: 1 or -1 where
// SciPy found the (odd-length) weights symmetric or antisymmetric, else 0.
template <typename Tap, typename Out>
void correlate_tile(const Tap& tap, const double* w, int64_t size, int symmetric, Out* dst, int64_t len) {
  double o[kTile];
  const int64_t half = size / 2;
  if (symmetric != 0) {
    const auto* centre = tap(half);
    const double wc = w[half];
    for (int64_t t = 0; t < len; ++t) {
      o[t] = static_cast<double>(centre[t]) * wc;
    }
    // SciPy's `jj = -size1 .. -1`: the outermost pair first
    for (int64_t k = 0; k < half; ++k) {
      const auto* left = tap(k);
      const auto* right = tap(size - 1 - k);
      const double wk = w[k];
      if (symmetric > 0) {
        for (int64_t t = 0; t < len; ++t) {
          o[t] += (static_cast<double>(left[t]) + static_cast<double>(right[t])) * wk;
        }
      } else {
        for (int64_t t = 0; t < len; ++t) {
          o[t] += (static_cast<double>(left[t]) - static_cast<double>(right[t])) * wk;
        }
      }
    }
  } else {
    // SciPy's general loop: the last tap first, then `jj = -size1 .. size2 - 1`
    const auto* last = tap(size - 1);
    const double wl = w[size - 1];
    for (int64_t t = 0; t < len; ++t) {
      o[t] = static_cast<double>(last[t]) * wl;
    }
    for (int64_t k = 0; k + 1 < size; ++k) {
      const auto* in = tap(k);
      const double wk = w[k];
      for (int64_t t = 0; t < len; ++t) {
        o[t] += static_cast<double>(in[t]) * wk;
      }
    }
  }
  for (int64_t t = 0; t < len; ++t) {
    dst[t] = static_cast<Out>(o[t]);
  }
}

// `NI_UniformFilter1D`'s running sum over `len` columns, one output row at
// a time (`row(p)`: the extended row `p`): the first window summed in order,
// then each step adds the entering sample minus the leaving one; every
// output is the sum divided by `size`.
template <typename Row, typename Out>
void uniform_rows(const Row& row, int64_t size, int64_t n, int64_t len, Out* out, int64_t stride) {
  std::vector<double> sum(len, 0.0);
  const double fsize = static_cast<double>(size);
  for (int64_t p = 0; p < size; ++p) {
    const auto* in = row(p);
    for (int64_t c = 0; c < len; ++c) {
      sum[c] += static_cast<double>(in[c]);
    }
  }
  for (int64_t c = 0; c < len; ++c) {
    out[c] = static_cast<Out>(sum[c] / fsize);
  }
  for (int64_t i = 1; i < n; ++i) {
    const auto* enter = row(i + size - 1);
    const auto* leave = row(i - 1);
    Out* o = out + i * stride;
    for (int64_t c = 0; c < len; ++c) {
      sum[c] += static_cast<double>(enter[c]) - static_cast<double>(leave[c]);
      o[c] = static_cast<Out>(sum[c] / fsize);
    }
  }
}

// The `(outer, n, inner)` input, the extension map and `cval`, checked; and
// a row of `cval`s in the input's type for the taps beyond the edge.
template <typename In>
struct Lines {
  const In* x;
  const int64_t* map;
  int64_t outer, n, inner, extended;
  double cval;
  std::vector<In> cvals;
};

template <typename In>
Lines<In> check_lines(const at::Tensor& x, const at::Tensor& map, double cval, int64_t taps, const at::Tensor& out,
                      const char* what) {
  TORCH_CHECK(x.device().is_cpu() && map.device().is_cpu() && out.device().is_cpu(), what,
              ": tensors must be on the CPU");
  TORCH_CHECK(x.dim() == 3 && x.is_contiguous(), what, ": x must be a contiguous (outer, n, inner) tensor");
  TORCH_CHECK(out.sizes() == x.sizes() && out.is_contiguous(), what, ": out must be contiguous, of x's shape");
  TORCH_CHECK(taps >= 1, what, ": the filter needs at least one tap");
  const bool in_range = !std::isfinite(cval) || std::fabs(cval) <= std::numeric_limits<In>::max();
  TORCH_CHECK(in_range && (std::isnan(cval) || static_cast<double>(static_cast<In>(cval)) == cval), what,
              ": cval ", cval, " is not exact in x's dtype (convert x to float64 first)");
  const In cast = static_cast<In>(cval);
  const int64_t n = x.size(1);
  TORCH_CHECK(map.dim() == 1 && map.is_contiguous() && map.scalar_type() == at::kLong &&
                  map.numel() == n + taps - 1,
              what, ": map must be a contiguous int64 tensor of n + taps - 1 entries");
  const int64_t* m = map.const_data_ptr<int64_t>();
  for (int64_t p = 0; p < map.numel(); ++p) {
    TORCH_CHECK(m[p] >= -1 && m[p] < n, what, ": map entry ", m[p], " outside [-1, ", n, ")");
  }
  const int64_t inner = x.size(2);
  return Lines<In>{x.const_data_ptr<In>(), m, x.size(0), n, inner, map.numel(), cval,
                   std::vector<In>(inner == 1 ? 0 : inner, cast)};
}

// Calls `f(In{}, Out{})` for x's and out's dtypes (float32 or float64 each).
template <typename F>
void with_types(const at::Tensor& x, const at::Tensor& out, const char* what, const F& f) {
  const auto in_type = x.scalar_type();
  const auto out_type = out.scalar_type();
  TORCH_CHECK((in_type == at::kFloat || in_type == at::kDouble) && (out_type == at::kFloat || out_type == at::kDouble),
              what, ": x and out must be float32 or float64, got ", in_type, " and ", out_type);
  if (in_type == at::kDouble) {
    out_type == at::kDouble ? f(double{}, double{}) : f(double{}, float{});
  } else {
    out_type == at::kDouble ? f(float{}, double{}) : f(float{}, float{});
  }
}

// Runs `line(o, buffer)` for every line `o` of `in` (`inner == 1`), `buffer`
// holding its extension in float64, the lines split over the threads.
template <typename In, typename Line>
void each_line(const Lines<In>& in, const Line& line) {
  const int64_t threads = tb_shim::threads_for(in.outer, in.outer * in.n, kWorkPerThread);
  tb_shim::split_over_threads(in.outer, threads, 1, [&](int64_t begin, int64_t end) {
    std::vector<double> buffer(in.extended);
    for (int64_t o = begin; o < end; ++o) {
      const In* src = in.x + o * in.n;
      for (int64_t p = 0; p < in.extended; ++p) {
        buffer[p] = in.map[p] < 0 ? in.cval : static_cast<double>(src[in.map[p]]);
      }
      line(o, static_cast<const double*>(buffer.data()));
    }
  });
}

// Runs `unit(u)` for `u` in `[0, units)`, split over the threads (`inner > 1`).
template <typename In, typename Unit>
void each_unit(const Lines<In>& in, int64_t units, const Unit& unit) {
  const int64_t threads = tb_shim::threads_for(units, in.outer * in.n * in.inner, kWorkPerThread);
  tb_shim::split_over_threads(units, threads, 1, [&](int64_t begin, int64_t end) {
    for (int64_t u = begin; u < end; ++u) {
      unit(u);
    }
  });
}

// Extended row `p` of line `o` (`inner > 1`) from column `c0`: an input row or the `cval`s.
template <typename In>
const In* extended_row(const Lines<In>& in, int64_t o, int64_t p, int64_t c0) {
  const int64_t source = in.map[p];
  return source < 0 ? in.cvals.data() + c0 : in.x + (o * in.n + source) * in.inner + c0;
}

}  // namespace

extern "C" {

// `NI_Correlate1D` along the middle axis of `x` (`(outer, n, inner)`,
// contiguous, float32 or float64) into `out` (x's shape, contiguous, float32
// or float64, written whole). `weights` (1-D float64, `taps` entries) are
// correlated with the axis extended by `map` (`n + taps - 1` source indices,
// -1 for `cval`, which must be exact in x's dtype; the output's position `i`
// centred on extended position `i + taps / 2`). `symmetric`: SciPy's test of
// the weights (1, -1 or 0), made by the caller.
char* tb_correlate1d_cpu(const at::Tensor* x, const at::Tensor* weights, const at::Tensor* map, double cval,
                         int32_t symmetric, at::Tensor* out) noexcept {
  try {
    TORCH_CHECK(weights->dim() == 1 && weights->is_contiguous() && weights->scalar_type() == at::kDouble &&
                    weights->device().is_cpu(),
                "correlate1d: weights must be a contiguous 1-D float64 CPU tensor");
    const int64_t taps = weights->numel();
    TORCH_CHECK(symmetric == 0 || (taps % 2 == 1 && (symmetric == 1 || symmetric == -1)),
                "correlate1d: symmetric must be 0, or 1 or -1 for an odd number of taps");
    const double* w = weights->const_data_ptr<double>();
    with_types(*x, *out, "correlate1d", [&](auto in_type, auto out_type) {
      using In = decltype(in_type);
      using Out = decltype(out_type);
      const Lines<In> in = check_lines<In>(*x, *map, cval, taps, *out, "correlate1d");
      Out* y = out->mutable_data_ptr<Out>();
      tb_shim::advise_huge_pages(*out);
      if (in.inner == 1) {
        each_line(in, [&](int64_t o, const double* buffer) {
          for (int64_t i0 = 0; i0 < in.n; i0 += kTile) {
            const auto tap = [&](int64_t k) { return buffer + i0 + k; };
            correlate_tile(tap, w, taps, symmetric, y + o * in.n + i0, std::min(kTile, in.n - i0));
          }
        });
        return;
      }
      // One unit per output row; its taps are input rows (or `cval`s), in column tiles.
      each_unit(in, in.outer * in.n, [&](int64_t u) {
        const int64_t o = u / in.n;
        const int64_t i = u % in.n;
        for (int64_t c0 = 0; c0 < in.inner; c0 += kTile) {
          const auto tap = [&](int64_t k) { return extended_row(in, o, i + k, c0); };
          correlate_tile(tap, w, taps, symmetric, y + u * in.inner + c0, std::min(kTile, in.inner - c0));
        }
      });
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `NI_UniformFilter1D` of `size` along the middle axis of `x` into `out` (as
// for tb_correlate1d_cpu, `map` holding `n + size - 1` entries). The running
// sum is sequential along the axis, as SciPy's.
char* tb_uniform_filter1d_cpu(const at::Tensor* x, int64_t size, const at::Tensor* map, double cval,
                              at::Tensor* out) noexcept {
  try {
    with_types(*x, *out, "uniform_filter1d", [&](auto in_type, auto out_type) {
      using In = decltype(in_type);
      using Out = decltype(out_type);
      const Lines<In> in = check_lines<In>(*x, *map, cval, size, *out, "uniform_filter1d");
      Out* y = out->mutable_data_ptr<Out>();
      tb_shim::advise_huge_pages(*out);
      if (in.inner == 1) {
        each_line(in, [&](int64_t o, const double* buffer) {
          uniform_rows([&](int64_t p) { return buffer + p; }, size, in.n, 1, y + o * in.n, 1);
        });
        return;
      }
      // The sum runs down the axis: one unit per (line, column tile).
      const int64_t tiles = (in.inner + kTile - 1) / kTile;
      each_unit(in, in.outer * tiles, [&](int64_t u) {
        const int64_t o = u / tiles;
        const int64_t c0 = u % tiles * kTile;
        const auto row = [&](int64_t p) { return extended_row(in, o, p, c0); };
        uniform_rows(row, size, in.n, std::min(kTile, in.inner - c0), y + o * in.n * in.inner + c0, in.inner);
      });
    });
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
