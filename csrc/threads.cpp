// torchbridge's C++ shim, threads half: the OpenMP (and MKL) team size of
// the calling thread, declared in Rust in src/ffi/threads.rs (the policy
// that uses it: src/threads.rs).
//
// libtorch's `at::parallel_for` (OpenMP backend) runs serially when
// `at::get_num_threads()` is 1 and otherwise opens a `#pragma omp parallel`
// region whose team size is the encountering thread's `nthreads-var`; and
// `at::get_num_threads()` itself is that thread's `omp_get_max_threads()`.
// `omp_set_num_threads` sets it on the calling thread alone, so a call can
// run with a smaller team without touching other threads or the process-wide
// default that `torch.set_num_threads` keeps (`at::set_num_threads` would
// also resize libtorch's pthreadpool and MKL's global count). MKL (BLAS,
// LAPACK, FFT) takes its count from `mkl_set_num_threads_local` first, then
// from `mkl_set_num_threads` (which `torch.set_num_threads` calls), so the
// thread-local MKL count is set alongside.
//
// The OpenMP runtime must be libtorch's own (the torch wheel ships a libgomp;
// this shim is built without OpenMP and must not link a second copy), so the
// functions are looked up once through libtorch_cpu's own handle, which
// searches its dependencies: whatever libgomp and MKL it was linked with.
// Where one is missing (a libtorch without OpenMP or MKL) that half does
// nothing.

#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <cstdint>

namespace {

struct Runtime {
  void (*omp_set_num_threads)(int) = nullptr;
  int (*omp_get_max_threads)() = nullptr;
  int (*mkl_set_num_threads_local)(int) = nullptr;
};

void* libtorch_cpu_handle() noexcept {
  // the library that defines at::get_num_threads, already loaded (RTLD_NOLOAD)
  Dl_info info{};
  const auto probe = reinterpret_cast<void*>(&at::get_num_threads);
  if (dladdr(probe, &info) != 0 && info.dli_fname != nullptr) {
    if (void* handle = dlopen(info.dli_fname, RTLD_NOLOAD | RTLD_LAZY)) {
      return handle;
    }
  }
  return RTLD_DEFAULT;
}

const Runtime& runtime() noexcept {
  static const Runtime found = [] {
    Runtime rt;
    void* scope = libtorch_cpu_handle();
    void* set = dlsym(scope, "omp_set_num_threads");
    void* get = dlsym(scope, "omp_get_max_threads");
    if (set != nullptr && get != nullptr) {
      rt.omp_set_num_threads = reinterpret_cast<void (*)(int)>(set);
      rt.omp_get_max_threads = reinterpret_cast<int (*)()>(get);
    }
    // MKL's C entry point (`mkl_set_num_threads_local` is a macro for it in
    // mkl_service.h; the exported lowercase symbol is the Fortran one, which
    // takes its argument by pointer)
    if (void* mkl = dlsym(scope, "MKL_Set_Num_Threads_Local")) {
      rt.mkl_set_num_threads_local = reinterpret_cast<int (*)(int)>(mkl);
    }
    return rt;
  }();
  return found;
}

}  // namespace

extern "C" {

// The calling thread's libtorch team: `at::get_num_threads()` (which first
// gives a new thread libtorch's default, as libtorch's own first parallel
// call would); 0 when libtorch's OpenMP runtime is not found.
int32_t tb_thread_team() noexcept {
  const Runtime& rt = runtime();
  if (rt.omp_get_max_threads == nullptr) {
    return 0;
  }
  try {
    (void)at::get_num_threads();  // lazy per-thread initialisation first
  } catch (...) {
    return 0;
  }
  return rt.omp_get_max_threads();
}

// Sets the calling thread's team (`threads` >= 1) for its next parallel
// regions, and MKL's thread-local count to `mkl_threads` (0: none, MKL's
// global count applies). Writes MKL's previous thread-local count (0 when it
// had none) to `*mkl_previous`. Returns 0 (nothing changed) when libtorch's
// OpenMP runtime is not found or `threads` < 1, else 1.
int32_t tb_set_thread_team(int32_t threads, int32_t mkl_threads, int32_t* mkl_previous) noexcept {
  const Runtime& rt = runtime();
  *mkl_previous = 0;
  if (rt.omp_set_num_threads == nullptr || threads < 1 || mkl_threads < 0) {
    return 0;
  }
  rt.omp_set_num_threads(threads);
  if (rt.mkl_set_num_threads_local != nullptr) {
    *mkl_previous = rt.mkl_set_num_threads_local(mkl_threads);
  }
  return 1;
}

}  // extern "C"
