// torchbridge's C++ shim, interpolation half: the point loop of SciPy's
// `ndimage/src/ni_interpolation.c` (`NI_GeometricTransform`: map_coordinates,
// affine_transform, shift, zoom, rotate) as a CPU kernel on libtorch
// tensors, declared in Rust in src/ffi/ni_interpolation.rs.
//
// src/ops/ndimage/interpolation.rs (`interpolate`) computes the same values
// from libtorch ops (that path serves CUDA and autograd): per axis the
// coordinate's mapping, the first tap and `order + 1` spline weights, then a
// gather of `(order + 1)^ndim` taps per point, each a pass over a tensor of
// that many values per point. This kernel makes one pass over the points,
// in the same operation order (no fused multiply-adds, see build.rs), so the
// two agree bit for bit:
//
// - per point and axis: the coordinate (plus `shift`, the prefilter's
//   padding), SciPy's `map_coordinate` for the modes that reflect it, the
//   test that sends the point to `cval`, the first tap `floor(c) - order/2`
//   (`floor(c + 0.5)` for even orders), the `order + 1` weights by
//   `_ni_splines.c`'s formulas, and the taps' input indices looked up in the
//   axis's table, which Rust computes (`tap_table`, one source of truth for
//   the spline boundary rules; -1: `cval`, `grid-constant`);
// - the taps in C order, each value (read as float64) times the weights of
//   its axes in axis order, summed one by one from the first tap;
// - every image of the batch (`rotate`'s planes) from the same taps;
// - the points split over libtorch's thread count (csrc/parallel.h).
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
#include <type_traits>
#include <vector>

using tb_shim::describe_current_exception;

namespace {

// The codes of `Mode::code` in src/ops/ndimage/interpolation.rs.
enum Mode : int32_t {
  kNearest = 0,
  kWrap = 1,
  kReflect = 2,
  kMirror = 3,
  kConstant = 4,
  kGridWrap = 5,
  kGridConstant = 6,
};

constexpr int64_t kMaxDims = 32;
constexpr int64_t kMaxOrder = 5;

// Points per thread below which a call uses fewer threads (in taps).
constexpr int64_t kWorkPerThread = 1 << 16;

// SciPy's `map_coordinate` (the Rust `map_scalar`): `x` reflected into
// `[0, len - 1]` by `mode`, -1 outside for `constant`.
double map_coordinate(double x, int64_t len, int32_t mode) {
  const double lenf = static_cast<double>(len);
  if (x < 0.0) {
    switch (mode) {
      case kNearest:
        return 0.0;
      case kConstant:
        return -1.0;
      default:
        break;
    }
    if (len <= 1) {
      return 0.0;
    }
    switch (mode) {
      case kMirror: {
        const double sz2 = 2.0 * lenf - 2.0;
        const double t = sz2 * std::trunc(-x / sz2) + x;
        return t <= 1.0 - lenf ? t + sz2 : -t;
      }
      case kReflect: {
        const double sz2 = 2.0 * lenf;
        const double t = x < -sz2 ? sz2 * std::trunc(-x / sz2) + x : x;
        return t < -lenf ? t + sz2 : (t > -1e-15 ? 1e-15 : -t) - 1.0;
      }
      case kWrap: {
        const double sz = lenf - 1.0;
        return x + sz * (std::trunc(-x / sz) + 1.0);
      }
      case kGridWrap:
        return x + lenf * (std::trunc((-1.0 - x) / lenf) + 1.0);
      default:
        return x;
    }
  }
  if (x > lenf - 1.0) {
    switch (mode) {
      case kNearest:
        return lenf - 1.0;
      case kConstant:
        return -1.0;
      default:
        break;
    }
    if (len <= 1) {
      return 0.0;
    }
    switch (mode) {
      case kMirror: {
        const double sz2 = 2.0 * lenf - 2.0;
        const double t = x - sz2 * std::trunc(x / sz2);
        return t >= lenf ? sz2 - t : t;
      }
      case kReflect: {
        const double sz2 = 2.0 * lenf;
        const double t = x - sz2 * std::trunc(x / sz2);
        return t >= lenf ? sz2 - t - 1.0 : t;
      }
      case kWrap: {
        const double sz = lenf - 1.0;
        return x - sz * std::trunc(x / sz);
      }
      case kGridWrap:
        return x - lenf * std::trunc(x / lenf);
      default:
        return x;
    }
  }
  return x;
}

// SciPy's `get_spline_interpolation_weights` for the offset `x` from the
// middle knot, in the operation order of the Rust `weights`: `w[0..order]`.
void spline_weights(double x, int64_t order, double* w) {
  switch (order) {
    case 1:
      w[0] = 1.0 - x;
      break;
    case 2: {
      const double y = 0.5 - x;
      w[0] = y * y * 0.5;
      w[1] = 0.75 - x * x;
      break;
    }
    case 3: {
      const auto cubic = [](double y) { return (y * y * (y - 2.0) * 3.0 + 4.0) / 6.0; };
      const double z = 1.0 - x;
      w[1] = cubic(x);
      w[2] = cubic(z);
      w[0] = z * z * z / 6.0;
      break;
    }
    case 4: {
      const auto outer = [](double y) {
        const double a = (5.0 - y) * y / 6.0 - 1.25;
        return (a * y + 5.0 / 24.0) * y + 55.0 / 96.0;
      };
      const double t = x * x;
      w[2] = (t * 0.25 - 0.625) * t + 115.0 / 192.0;
      w[1] = outer(x + 1.0);
      w[3] = outer(1.0 - x);
      const double y = 0.5 - x;
      const double u = y * y;
      w[0] = u * u / 24.0;
      break;
    }
    case 5: {
      const auto inner = [](double y) {
        const double t = y * y;
        const double a = 0.25 - y / 12.0;
        return (a * t - 0.5) * t + 0.55;
      };
      const auto outer = [](double y) {
        double a = y / 24.0 - 0.375;
        a = a * y + 1.25;
        a = a * y - 1.75;
        a = a * y + 0.625;
        return a * y + 0.425;
      };
      const double z = 1.0 - x;
      w[2] = inner(x);
      w[3] = inner(z);
      w[1] = outer(x + 1.0);
      w[4] = outer(z + 1.0);
      const double t = z * z;
      w[0] = z * t * t / 120.0;
      break;
    }
    default:
      return;
  }
  // all weights add to one: the last is what the others leave
  double last = 1.0 - w[0];
  for (int64_t i = 1; i < order; ++i) {
    last -= w[i];
  }
  w[order] = last;
}

// One axis of the problem: its coordinates, tap table and layout.
struct Axis {
  const double* coords;
  int64_t coord_stride;
  const int32_t* table;
  int64_t len;
  int64_t stride;  // elements between neighbours along the axis in one image
};

// The taps of one point for `D` axes: per axis the `order + 1` offsets
// (-1: `cval`) and weights; `outside`: some tap is `cval`; `valid`: false
// where the point takes `cval`.
template <int64_t D>
struct Taps {
  int64_t offset[D][kMaxOrder + 1];
  double weight[D][kMaxOrder + 1];
  bool outside;
  bool valid;
};

// The taps of point `p` (the composite's `taps`, per point).
template <int64_t D>
void point_taps(const Axis* axes, int64_t ndim, int64_t p, int64_t order, int32_t mode, double shift, Taps<D>& taps) {
  const int64_t k = order + 2;
  taps.outside = false;
  taps.valid = true;
  for (int64_t d = 0; d < ndim; ++d) {
    const Axis& a = axes[d];
    double cc = a.coords[p * a.coord_stride];
    if (shift != 0.0) {
      cc += shift;
    }
    const double lenf = static_cast<double>(a.len);
    bool valid;
    switch (mode) {
      case kGridConstant:
      case kNearest:
        valid = std::isfinite(cc);
        break;
      case kConstant:
        valid = cc >= 0.0 && cc <= lenf - 1.0;
        break;
      default:
        cc = map_coordinate(cc, a.len, mode);
        valid = cc > -1.0;
        break;
    }
    if (!valid) {
      taps.valid = false;
      return;
    }
    const double base = order % 2 == 1 ? std::floor(cc) : std::floor(cc + 0.5);
    // the first tap's position in the table, clamped so that far points
    // (nearest, grid-constant) stay in it (as the composite clamps)
    const double hi = static_cast<double>(a.len + 2 * k - 1 - order);
    const double pos = std::min(std::max(base + static_cast<double>(k - order / 2), 0.0), hi);
    const int32_t* t = a.table + static_cast<int64_t>(pos);
    for (int64_t j = 0; j <= order; ++j) {
      if (t[j] < 0) {
        taps.outside = true;
        taps.offset[d][j] = -1;
      } else {
        taps.offset[d][j] = static_cast<int64_t>(t[j]) * a.stride;
      }
    }
    if (order > 0) {
      spline_weights(cc - base, order, taps.weight[d]);
    }
  }
}

// The interpolated value at `src` from `taps` of `NDIM` axes (1 to 3) and
// `N = order + 1` taps per axis: the taps in C order, each value times its
// axes' weights in axis order, summed from the first tap.
template <int64_t NDIM, int64_t N, typename In>
double sum_taps(const In* src, const Taps<NDIM>& taps, double cval) {
  double acc = 0.0;
  bool first = true;
  const auto add = [&](double v) {
    acc = first ? v : acc + v;
    first = false;
  };
  const auto value = [&](int64_t at, bool outside) { return outside ? cval : static_cast<double>(src[at]); };
  if constexpr (NDIM == 1) {
    for (int64_t i = 0; i < N; ++i) {
      const int64_t o = taps.offset[0][i];
      double v = value(o, o < 0);
      if constexpr (N > 1) {
        v *= taps.weight[0][i];
      }
      add(v);
    }
  } else if constexpr (NDIM == 2) {
    for (int64_t i = 0; i < N; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        const int64_t o0 = taps.offset[0][i];
        const int64_t o1 = taps.offset[1][j];
        double v = taps.outside ? value(o0 + o1, o0 < 0 || o1 < 0) : static_cast<double>(src[o0 + o1]);
        if constexpr (N > 1) {
          v = v * taps.weight[0][i] * taps.weight[1][j];
        }
        add(v);
      }
    }
  } else {
    for (int64_t i = 0; i < N; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        for (int64_t l = 0; l < N; ++l) {
          const int64_t o0 = taps.offset[0][i];
          const int64_t o1 = taps.offset[1][j];
          const int64_t o2 = taps.offset[2][l];
          double v = taps.outside ? value(o0 + o1 + o2, o0 < 0 || o1 < 0 || o2 < 0)
                                  : static_cast<double>(src[o0 + o1 + o2]);
          if constexpr (N > 1) {
            v = v * taps.weight[0][i] * taps.weight[1][j] * taps.weight[2][l];
          }
          add(v);
        }
      }
    }
  }
  return acc;
}

// The same sum for any rank: an odometer over the taps, the last axis fastest.
template <typename In>
double sum_taps_any(const In* src, const Taps<kMaxDims>& taps, int64_t ndim, int64_t order, double cval) {
  const int64_t n = order + 1;
  int64_t j[kMaxDims] = {};
  double acc = 0.0;
  bool first = true;
  while (true) {
    bool outside = false;
    int64_t at = 0;
    for (int64_t d = 0; d < ndim; ++d) {
      const int64_t o = taps.offset[d][j[d]];
      outside = outside || o < 0;
      at += o;
    }
    double v = outside ? cval : static_cast<double>(src[at]);
    if (order > 0) {
      for (int64_t d = 0; d < ndim; ++d) {
        v *= taps.weight[d][j[d]];
      }
    }
    acc = first ? v : acc + v;
    first = false;
    int64_t d = ndim - 1;
    while (d >= 0 && ++j[d] == n) {
      j[d] = 0;
      --d;
    }
    if (d < 0) {
      return acc;
    }
  }
}

// Points whose taps are computed (and their memory asked for) ahead of their sums.
constexpr int64_t kAhead = 8;

// Asks the cache for the rows of the first image a point's taps read.
template <int64_t NDIM, int64_t N, typename In>
void prefetch_taps(const In* src, const Taps<NDIM>& taps) {
  if (!taps.valid || taps.outside) {
    return;
  }
  if constexpr (NDIM == 1) {
    __builtin_prefetch(src + taps.offset[0][0]);
    __builtin_prefetch(src + taps.offset[0][N - 1]);
  } else {
    for (int64_t i = 0; i < N; ++i) {
      int64_t row = taps.offset[0][i];
      if constexpr (NDIM == 3) {
        for (int64_t j = 0; j < N; ++j) {
          const int64_t at = row + taps.offset[1][j];
          __builtin_prefetch(src + at + taps.offset[2][0]);
          __builtin_prefetch(src + at + taps.offset[2][N - 1]);
        }
      } else {
        __builtin_prefetch(src + row + taps.offset[1][0]);
        __builtin_prefetch(src + row + taps.offset[1][N - 1]);
      }
    }
  }
}

// The problem a call solves, checked.
struct Problem {
  std::vector<Axis> axes;
  int64_t batch, numel, points, order;
  int32_t mode;
  double cval, shift;
  double* out;
};

// Points `[begin, end)` for `NDIM` axes (1 to 3) and order `N - 1`, the
// taps of each point computed `kAhead` points before its sums.
template <int64_t NDIM, int64_t N, typename In>
void run_fixed(const Problem& pr, const In* x, int64_t begin, int64_t end) {
  Taps<NDIM> ring[kAhead];
  const auto prepare = [&](int64_t p) {
    Taps<NDIM>& t = ring[p % kAhead];
    point_taps<NDIM>(pr.axes.data(), NDIM, p, pr.order, pr.mode, pr.shift, t);
    prefetch_taps<NDIM, N>(x, t);
  };
  for (int64_t p = begin; p < std::min(end, begin + kAhead); ++p) {
    prepare(p);
  }
  for (int64_t p = begin; p < end; ++p) {
    const Taps<NDIM>& t = ring[p % kAhead];
    if (!t.valid) {
      for (int64_t b = 0; b < pr.batch; ++b) {
        pr.out[b * pr.points + p] = pr.cval;
      }
    } else {
      for (int64_t b = 0; b < pr.batch; ++b) {
        pr.out[b * pr.points + p] = sum_taps<NDIM, N>(x + b * pr.numel, t, pr.cval);
      }
    }
    // `ring[p % kAhead]` is free: point `p + kAhead` takes it
    if (p + kAhead < end) {
      prepare(p + kAhead);
    }
  }
}

// Points `[begin, end)` for any rank.
template <typename In>
void run_any(const Problem& pr, const In* x, int64_t begin, int64_t end) {
  const int64_t ndim = static_cast<int64_t>(pr.axes.size());
  Taps<kMaxDims> taps;
  for (int64_t p = begin; p < end; ++p) {
    point_taps<kMaxDims>(pr.axes.data(), ndim, p, pr.order, pr.mode, pr.shift, taps);
    for (int64_t b = 0; b < pr.batch; ++b) {
      pr.out[b * pr.points + p] =
          taps.valid ? sum_taps_any(x + b * pr.numel, taps, ndim, pr.order, pr.cval) : pr.cval;
    }
  }
}

// The loop for the problem's rank and order, on points `[begin, end)`.
template <typename In>
void run_points(const Problem& pr, const In* x, int64_t begin, int64_t end) {
  const int64_t ndim = static_cast<int64_t>(pr.axes.size());
  const auto by_order = [&](auto rank) {
    constexpr int64_t R = decltype(rank)::value;
    switch (pr.order) {
      case 0:
        return run_fixed<R, 1>(pr, x, begin, end);
      case 1:
        return run_fixed<R, 2>(pr, x, begin, end);
      case 2:
        return run_fixed<R, 3>(pr, x, begin, end);
      case 3:
        return run_fixed<R, 4>(pr, x, begin, end);
      case 4:
        return run_fixed<R, 5>(pr, x, begin, end);
      default:
        return run_fixed<R, 6>(pr, x, begin, end);
    }
  };
  switch (ndim) {
    case 1:
      return by_order(std::integral_constant<int64_t, 1>{});
    case 2:
      return by_order(std::integral_constant<int64_t, 2>{});
    case 3:
      return by_order(std::integral_constant<int64_t, 3>{});
    default:
      return run_any(pr, x, begin, end);
  }
}

}  // namespace

extern "C" {

// `NI_GeometricTransform`'s point loop: `src` (`(B, *spatial)`, contiguous,
// float32 or float64, CPU: the spline coefficients of `B` images)
// interpolated at `P` points into `out` (`(B, P)`, contiguous float64, CPU,
// written whole). `coords`: `ndim` 1-D float64 CPU tensors of `P` values
// (any stride), the points' coordinates along each spatial axis before
// `shift` (the prefilter's padding) is added; `tables`: `ndim` contiguous
// int32 CPU tensors, axis `d`'s of `n_d + 2 (order + 2)` entries, the input
// index (or -1 for `cval`) of every tap position `-(order + 2) .. n_d +
// order + 2`; `mode`: the code of the boundary mode (see `Mode`).
char* tb_map_points_cpu(const at::Tensor* src, const at::Tensor* const* coords, const at::Tensor* const* tables,
                        int64_t ndim, int64_t order, int32_t mode, double cval, double shift,
                        at::Tensor* out) noexcept {
  try {
    TORCH_CHECK(ndim >= 1 && ndim <= kMaxDims, "map_points: ndim must be in [1, ", kMaxDims, "], got ", ndim);
    TORCH_CHECK(order >= 0 && order <= kMaxOrder, "map_points: order must be in [0, 5], got ", order);
    TORCH_CHECK(mode >= kNearest && mode <= kGridConstant, "map_points: unknown mode code ", mode);
    TORCH_CHECK(src->device().is_cpu() && out->device().is_cpu(), "map_points: tensors must be on the CPU");
    TORCH_CHECK(src->dim() == ndim + 1 && src->is_contiguous(),
                "map_points: src must be a contiguous (batch, *spatial) tensor of ndim + 1 dimensions");
    const auto in_type = src->scalar_type();
    TORCH_CHECK(in_type == at::kFloat || in_type == at::kDouble, "map_points: src must be float32 or float64, got ",
                in_type);
    Problem pr;
    pr.batch = src->size(0);
    pr.numel = 1;
    for (int64_t d = 1; d <= ndim; ++d) {
      TORCH_CHECK(src->size(d) >= 1, "map_points: src has an empty axis");
      pr.numel *= src->size(d);
    }
    TORCH_CHECK(coords[0] != nullptr && coords[0]->dim() == 1, "map_points: coordinates must be 1-D tensors");
    pr.points = coords[0]->numel();
    TORCH_CHECK(out->dim() == 2 && out->size(0) == pr.batch && out->size(1) == pr.points && out->is_contiguous() &&
                    out->scalar_type() == at::kDouble,
                "map_points: out must be a contiguous float64 (batch, points) tensor");
    const int64_t k = order + 2;
    pr.axes.resize(static_cast<size_t>(ndim));
    int64_t stride = pr.numel;
    for (int64_t d = 0; d < ndim; ++d) {
      const at::Tensor* c = coords[d];
      const at::Tensor* t = tables[d];
      TORCH_CHECK(c != nullptr && t != nullptr, "map_points: missing tensor for axis ", d);
      TORCH_CHECK(c->device().is_cpu() && c->dim() == 1 && c->numel() == pr.points && c->scalar_type() == at::kDouble,
                  "map_points: coordinates must be 1-D float64 CPU tensors of ", pr.points, " points");
      const int64_t len = src->size(d + 1);
      stride /= len;
      TORCH_CHECK(t->device().is_cpu() && t->dim() == 1 && t->is_contiguous() && t->scalar_type() == at::kInt &&
                      t->numel() == len + 2 * k,
                  "map_points: the table of axis ", d, " must be a contiguous int32 CPU tensor of ", len + 2 * k,
                  " entries");
      const int32_t* table = t->const_data_ptr<int32_t>();
      for (int64_t q = 0; q < t->numel(); ++q) {
        TORCH_CHECK(table[q] >= -1 && table[q] < len, "map_points: table entry ", table[q], " outside [-1, ", len,
                    ")");
      }
      pr.axes[static_cast<size_t>(d)] = Axis{c->const_data_ptr<double>(), c->stride(0), table, len, stride};
    }
    pr.order = order;
    pr.mode = mode;
    pr.cval = cval;
    pr.shift = shift;
    pr.out = out->mutable_data_ptr<double>();
    tb_shim::advise_huge_pages(*out);
    int64_t taps_per_point = pr.batch;
    for (int64_t d = 0; d < ndim; ++d) {
      taps_per_point *= order + 1;
    }
    const int64_t threads = tb_shim::threads_for(pr.points, pr.points * taps_per_point, kWorkPerThread);
    const auto run = [&](auto in_type_tag) {
      using In = decltype(in_type_tag);
      const In* x = src->const_data_ptr<In>();
      tb_shim::split_over_threads(pr.points, threads, 256,
                                  [&](int64_t begin, int64_t end) { run_points(pr, x, begin, end); });
    };
    if (in_type == at::kDouble) {
      run(double{});
    } else {
      run(float{});
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
