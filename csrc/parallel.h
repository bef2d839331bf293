// Threads for the shim's CPU kernels (iir.cpp, ni_filters.cpp, rankdata.cpp):
// a problem of `units` independent pieces, taken by the threads in chunks.
//
// Threads of their own rather than `at::parallel_for`: with libtorch's OpenMP
// backend that is an inline `#pragma omp`, serial in this shim (built without
// OpenMP, whose runtime must stay libtorch's own). The count follows
// `at::get_num_threads()`, so `torch.set_num_threads` governs these kernels
// as it does libtorch's.

#pragma once

#include <ATen/Parallel.h>

#include <algorithm>
#include <atomic>
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

// Chunks per thread in split_over_threads: enough that a thread slowed by
// other work on its core (another process, a busy laptop) leaves its share
// to the others, few enough that taking a chunk costs nothing.
constexpr int64_t kChunksPerThread = 8;

// Runs `run(begin, end)` over `[0, units)` on `threads` threads (the calling
// thread one of them), in contiguous chunks of whole multiples of `align`
// (the last takes the rest) that the threads take in turn, so that a thread
// delayed by a busy core does not hold the others up; rethrows the first
// exception any chunk threw.
template <typename Run>
void split_over_threads(int64_t units, int64_t threads, int64_t align, const Run& run) {
  if (threads <= 1) {
    run(0, units);
    return;
  }
  const int64_t blocks = (units + align - 1) / align;
  const int64_t chunks = std::min(blocks, threads * kChunksPerThread);
  const int64_t per = (blocks + chunks - 1) / chunks * align;
  std::atomic<int64_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  const auto work = [&] {
    try {
      for (int64_t begin = next.fetch_add(per); begin < units; begin = next.fetch_add(per)) {
        run(begin, std::min(units, begin + per));
      }
    } catch (...) {
      std::lock_guard<std::mutex> guard(failure_lock);
      if (!failure) {
        failure = std::current_exception();
      }
      next.store(units);  // the others stop at their next chunk
    }
  };
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t) {
    pool.emplace_back(work);
  }
  work();
  for (auto& thread : pool) {
    thread.join();
  }
  if (failure) {
    std::rethrow_exception(failure);
  }
}

}  // namespace tb_shim
