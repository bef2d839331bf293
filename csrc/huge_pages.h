// Transparent huge pages for the large results of the shim's CPU kernels
// (iir.cpp, ni_filters.cpp), asked for before the kernel first writes them.
//
// glibc serves a block of 32 MiB or more (its largest mmap threshold) from a
// fresh mapping, so writing such a result costs a page fault per 4 KiB: half
// the time of an lfilter over a (64, 1e5) float64 batch. NumPy advises the
// kernel to back its large arrays with huge pages; this does the same for
// those blocks only. (libtorch's global switch, THP_MEM_ALLOC_ENABLE, also
// advises the smaller blocks glibc recycles from its heap, which measured
// slower there: more page faults, not fewer.)

#pragma once

#include <ATen/ATen.h>

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tb_shim {

// Blocks this large are fresh mappings in glibc whatever its dynamic threshold.
constexpr int64_t kHugePagesFrom = int64_t{32} << 20;

// Advises huge pages for the 2 MiB-aligned interior of `t`'s memory when
// it is at least kHugePagesFrom bytes. Only advice: a kernel without
// transparent huge pages, or one that declines, leaves the memory as it was.
inline void advise_huge_pages(const at::Tensor& t) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const int64_t bytes = static_cast<int64_t>(t.nbytes());
  if (bytes < kHugePagesFrom) {
    return;
  }
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t start = reinterpret_cast<uintptr_t>(t.const_data_ptr());
  const uintptr_t first = (start + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t last = (start + static_cast<uintptr_t>(bytes)) & ~(kHuge - 1);
  if (last > first) {
    (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#else
  (void)t;
#endif
}

}  // namespace tb_shim
