// Threads for the shim's CPU kernels (iir.cpp, ni_filters.cpp): a problem of
// `units` independent pieces split into contiguous ranges, one per thread.
//
// Threads of their own rather than `at::parallel_for`: with libtorch's OpenMP
// backend that is an inline `#pragma omp`, serial in this shim (built without
// OpenMP, whose runtime must stay libtorch's own). The count follows
// `at::get_num_threads()`, so `torch.set_num_threads` governs these kernels
// as it does libtorch's.

#pragma once

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tb_shim {

// Threads for `units` pieces of `work` elements in all: at most libtorch's
// intra-op count and `units`, and one per `work_per_thread` elements (a small
// problem is not worth a thread start), at least 1.
inline int64_t threads_for(int64_t units, int64_t work, int64_t work_per_thread) {
  const int64_t by_size = work / work_per_thread;
  return std::max<int64_t>(
      1, std::min<int64_t>({static_cast<int64_t>(at::get_num_threads()), units, by_size}));
}

// Runs `run(begin, end)` over `[0, units)` in `threads` contiguous ranges of
// whole multiples of `align` (the last takes the rest), the calling thread
// taking the first; rethrows the first exception any range threw.
template <typename Run>
void split_over_threads(int64_t units, int64_t threads, int64_t align, const Run& run) {
  if (threads <= 1) {
    run(0, units);
    return;
  }
  const int64_t blocks = (units + align - 1) / align;
  const int64_t per = (blocks + threads - 1) / threads * align;
  std::vector<std::thread> pool;
  std::exception_ptr failure;
  std::mutex failure_lock;
  for (int64_t begin = per; begin < units; begin += per) {
    pool.emplace_back([&, begin] {
      try {
        run(begin, std::min(units, begin + per));
      } catch (...) {
        std::lock_guard<std::mutex> guard(failure_lock);
        failure = std::current_exception();
      }
    });
  }
  try {
    run(0, std::min(units, per));
  } catch (...) {
    std::lock_guard<std::mutex> guard(failure_lock);
    failure = std::current_exception();
  }
  for (auto& thread : pool) {
    thread.join();
  }
  if (failure) {
    std::rethrow_exception(failure);
  }
}

}  // namespace tb_shim
