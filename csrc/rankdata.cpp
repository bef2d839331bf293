// torchbridge's C++ shim, ranking half: `scipy.stats.rankdata`'s ranks of
// every row of a tensor as a CPU kernel, declared in Rust in
// src/ffi/rankdata.rs.
//
// src/ops/stats/stats_py.rs ranks from libtorch ops (sort, then a dozen
// passes over the sorted rows to find the ties); that path serves CUDA and
// autograd. On the CPU the sort alone takes longer than SciPy's whole
// `rankdata` (libtorch sorts a row on one thread, with comparisons). Here a
// row is sorted by an LSD radix sort of its values' bit patterns (stable, so
// `method="ordinal"` keeps positions in order), and one pass over the sorted
// row assigns every tie group its ranks. The rows are split over libtorch's
// thread count (csrc/parallel.h).
//
// Keys: a float64's bits with the sign bit flipped (negative values: all
// bits flipped) order as the values do; -0.0 is keyed as 0.0 and every NaN
// as one NaN above +inf (they tie, and sort last, as libtorch's sort puts
// them: the caller overwrites their ranks). An int64's bits with the sign bit
// flipped order as the values do.
//
// Every entry point checks its tensors with TORCH_CHECK and catches every
// C++ exception (see error.h).

#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

using tb_shim::describe_current_exception;

namespace {

constexpr uint64_t kSign = uint64_t{1} << 63;

// Rows of this many elements or more are worth a thread each.
constexpr int64_t kWorkPerThread = 1 << 14;

uint64_t key_of(double v) {
  if (std::isnan(v)) {
    return ~uint64_t{0};  // above every other key (+inf is 0xfff0...)
  }
  if (v == 0.0) {
    v = 0.0;  // -0.0 ties with 0.0
  }
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return (bits & kSign) != 0 ? ~bits : bits | kSign;
}

uint64_t key_of(int64_t v) {
  return static_cast<uint64_t>(v) ^ kSign;
}

// SciPy's tie methods, in the order of src/ffi/rankdata.rs's `Method`.
enum class Method : int32_t { Average = 0, Min = 1, Max = 2, Dense = 3, Ordinal = 4 };

// Sorts `keys` (with `index`, their positions) by an LSD radix sort of
// 8-bit digits, skipping the digits all keys share. `keys2`/`index2`: the
// scratch of the same sizes.
void radix_sort(std::vector<uint64_t>& keys, std::vector<int64_t>& index, std::vector<uint64_t>& keys2,
                std::vector<int64_t>& index2) {
  const size_t n = keys.size();
  if (n == 0) {
    return;
  }
  std::array<std::array<size_t, 256>, 8> counts{};
  for (const uint64_t k : keys) {
    for (int d = 0; d < 8; ++d) {
      ++counts[d][(k >> (8 * d)) & 0xff];
    }
  }
  for (int d = 0; d < 8; ++d) {
    auto& count = counts[d];
    if (count[(keys[0] >> (8 * d)) & 0xff] == n) {
      continue;  // every key has this digit
    }
    size_t at = 0;
    for (auto& c : count) {
      const size_t here = c;
      c = at;
      at += here;
    }
    for (size_t i = 0; i < n; ++i) {
      const size_t slot = count[(keys[i] >> (8 * d)) & 0xff]++;
      keys2[slot] = keys[i];
      index2[slot] = index[i];
    }
    keys.swap(keys2);
    index.swap(index2);
  }
}

// The ranks of one row of `len` keys, written to `out` at the keys' positions.
template <typename Out>
void rank_row(std::vector<uint64_t>& keys, std::vector<int64_t>& index, std::vector<uint64_t>& keys2,
              std::vector<int64_t>& index2, Method method, Out* out) {
  const int64_t len = static_cast<int64_t>(keys.size());
  for (int64_t i = 0; i < len; ++i) {
    index[i] = i;
  }
  radix_sort(keys, index, keys2, index2);
  int64_t dense = 0;
  for (int64_t start = 0; start < len;) {
    int64_t end = start + 1;
    while (end < len && keys[end] == keys[start]) {
      ++end;
    }
    ++dense;
    for (int64_t i = start; i < end; ++i) {
      Out rank;
      switch (method) {
        case Method::Average:
          // (first + last) / 2 of the 1-based positions, as SciPy's average
          rank = static_cast<Out>(static_cast<double>((start + 1) + end) / 2.0);
          break;
        case Method::Min: rank = static_cast<Out>(start + 1); break;
        case Method::Max: rank = static_cast<Out>(end); break;
        case Method::Dense: rank = static_cast<Out>(dense); break;
        default: rank = static_cast<Out>(i + 1); break;  // Ordinal: the stable position
      }
      out[index[i]] = rank;
    }
    start = end;
  }
}

}  // namespace

extern "C" {

// `rankdata(x[r], method)` for every row `r` of `x` (`(rows, len)`,
// contiguous, float64 or int64, CPU): a new tensor `*out` of x's shape,
// float64 for `method` 0 (average), int64 otherwise (1 min, 2 max, 3 dense,
// 4 ordinal). NaNs rank last and tie with each other: the caller overwrites
// their ranks as its NaN policy says.
char* tb_rankdata_cpu(const at::Tensor* x, int32_t method, at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    TORCH_CHECK(x->device().is_cpu() && x->dim() == 2 && x->is_contiguous(),
                "rankdata: x must be a contiguous (rows, len) CPU tensor");
    TORCH_CHECK(x->scalar_type() == at::kDouble || x->scalar_type() == at::kLong,
                "rankdata: x must be float64 or int64, got ", x->scalar_type());
    TORCH_CHECK(method >= 0 && method <= 4, "rankdata: unknown method code ", method);
    const auto how = static_cast<Method>(method);
    const int64_t rows = x->size(0);
    const int64_t len = x->size(1);
    at::Tensor result = at::empty(x->sizes(), x->options().dtype(how == Method::Average ? at::kDouble : at::kLong));
    const bool floating = x->scalar_type() == at::kDouble;
    const double* xd = floating ? x->const_data_ptr<double>() : nullptr;
    const int64_t* xi = floating ? nullptr : x->const_data_ptr<int64_t>();
    const int64_t threads = tb_shim::threads_for(rows, rows * len, kWorkPerThread);
    tb_shim::split_over_threads(rows, threads, 1, [&](int64_t begin, int64_t end) {
      std::vector<uint64_t> keys(len), keys2(len);
      std::vector<int64_t> index(len), index2(len);
      for (int64_t r = begin; r < end; ++r) {
        for (int64_t i = 0; i < len; ++i) {
          keys[i] = floating ? key_of(xd[r * len + i]) : key_of(xi[r * len + i]);
        }
        if (how == Method::Average) {
          rank_row(keys, index, keys2, index2, how, result.mutable_data_ptr<double>() + r * len);
        } else {
          rank_row(keys, index, keys2, index2, how, result.mutable_data_ptr<int64_t>() + r * len);
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
