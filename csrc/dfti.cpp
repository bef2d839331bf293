// torchbridge's C++ shim, FFT half: 1-D real-to-complex, complex-to-real and
// complex-to-complex transforms of float32/float64 CPU tensors through MKL's
// DFTI with committed descriptors kept for reuse (declared in Rust in
// src/ffi/dfti.rs, used by src/ops/fft/plans.rs; and through dfti.h by
// realtransforms.cpp).
//
// Why: libtorch's CPU FFT (ATen's mkl/SpectralOps.cpp) creates and commits
// a DFTI descriptor on every call and frees it after. Committing is MKL's
// planning, and it costs more than the transform: on this project's machine
// a float64 real FFT of 1e5 points took 335 us to plan and 244 us to run;
// of 1000 points, about 5 us each. SciPy's pocketfft keeps its plans, so it
// won by that margin. Here a descriptor is made once per transform shape and
// kept in a small least-recently-used pool.
//
// The transforms run on 2-D `[rows, length]` contiguous tensors (the caller
// moves the transformed axis last): `rows` transforms of `length` points,
// with MKL's conjugate-even storage of `length / 2 + 1` complex values on
// the complex side of a real transform. The result is scaled by `scale`
// (1 for none) through the descriptor. The output is a fresh tensor of the
// caller's own; the input is only read (a complex-to-real transform is run
// out of place, which leaves its input as it was). realtransforms.cpp also
// runs transforms in place on its own scratch (`*_rows_in_place`, with
// descriptors of their own): one buffer instead of two, which stays in the
// cache between its passes.
//
// A descriptor is used by one call at a time: a call takes it out of the
// pool and puts it back when done, so that two threads transforming the
// same shape at once each get their own. The team a descriptor was
// committed for (DFTI_THREAD_LIMIT, the calling thread's libtorch team that
// torchbridge's thread policy fitted) is part of its key.
//
// MKL's DFTI functions are declared weak: a libtorch built without MKL has
// none, `tb_fft_plans_available` says so, and the caller then runs
// libtorch's own FFT.

#include "dfti.h"
#include "error.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <cstdint>
#include <cstring>
#include <list>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

using tb_shim::describe_current_exception;

// MKL's DFTI interface (mkl_dfti.h; MKL_LONG is `long` on LP64 Linux).
extern "C" {
__attribute__((weak)) long DftiCreateDescriptor_d_1d(void** handle, int domain, long length);
__attribute__((weak)) long DftiCreateDescriptor_s_1d(void** handle, int domain, long length);
__attribute__((weak)) long DftiSetValue(void* handle, int param, ...);
__attribute__((weak)) long DftiCommitDescriptor(void* handle);
__attribute__((weak)) long DftiComputeForward(void* handle, void* in, ...);
__attribute__((weak)) long DftiComputeBackward(void* handle, void* in, ...);
__attribute__((weak)) long DftiFreeDescriptor(void** handle);
__attribute__((weak)) char* DftiErrorMessage(long status);
}

namespace {

// mkl_dfti.h's configuration parameters and values.
constexpr int kForwardScale = 4;
constexpr int kBackwardScale = 5;
constexpr int kNumberOfTransforms = 7;
constexpr int kConjugateEvenStorage = 10;
constexpr int kPlacement = 11;
constexpr int kInputDistance = 14;
constexpr int kOutputDistance = 15;
constexpr int kThreadLimit = 27;
constexpr int kComplex = 32;
constexpr int kReal = 33;
constexpr int kComplexComplex = 39;
constexpr int kInplace = 43;
constexpr int kNotInplace = 44;

// The pool's bounds: descriptors kept, and the points of their transforms
// (a descriptor holds twiddle tables of about its length).
constexpr size_t kMaxPlans = 16;
constexpr int64_t kMaxPlannedPoints = int64_t{1} << 22;

enum class Kind : int { R2C, C2R, C2C_FORWARD, C2C_BACKWARD };

struct Key {
  bool dbl;
  Kind kind;
  int64_t length;
  int64_t rows;
  int threads;
  double scale;
  bool in_place;
  bool operator==(const Key& o) const {
    return dbl == o.dbl && kind == o.kind && length == o.length && rows == o.rows && threads == o.threads &&
           std::memcmp(&scale, &o.scale, sizeof scale) == 0 && in_place == o.in_place;
  }
};

struct Plan {
  Key key;
  void* handle;
};

bool available() {
  return DftiCreateDescriptor_d_1d != nullptr && DftiCreateDescriptor_s_1d != nullptr && DftiSetValue != nullptr &&
         DftiCommitDescriptor != nullptr && DftiComputeForward != nullptr && DftiComputeBackward != nullptr &&
         DftiFreeDescriptor != nullptr && DftiErrorMessage != nullptr;
}

void check(long status, const char* what) {
  if (status != 0) {
    const char* message = DftiErrorMessage(status);
    throw std::runtime_error(std::string("MKL DFTI ") + what + ": " + (message != nullptr ? message : "error"));
  }
}

void release(void* handle) noexcept {
  DftiFreeDescriptor(&handle);
}

void* commit(const Key& key) {
  void* handle = nullptr;
  const int domain = (key.kind == Kind::R2C || key.kind == Kind::C2R) ? kReal : kComplex;
  check(key.dbl ? DftiCreateDescriptor_d_1d(&handle, domain, key.length)
                : DftiCreateDescriptor_s_1d(&handle, domain, key.length),
        "create");
  try {
    // Integer values go through `...` as MKL_LONG, as MKL reads them.
    // Distances between transforms, in elements of each side's type. In
    // place, a real row is padded to its complex row's size, 2 (N/2 + 1).
    const long half = static_cast<long>(key.length / 2 + 1);
    const long n = static_cast<long>(key.length);
    const long real_row = key.in_place ? 2 * half : n;
    long in_distance = n;
    long out_distance = n;
    if (key.kind == Kind::R2C) {
      in_distance = real_row;
      out_distance = half;
    } else if (key.kind == Kind::C2R) {
      in_distance = half;
      out_distance = real_row;
    }
    check(DftiSetValue(handle, kPlacement, key.in_place ? kInplace : kNotInplace), "placement");
    if (domain == kReal) {
      check(DftiSetValue(handle, kConjugateEvenStorage, kComplexComplex), "storage");
    }
    check(DftiSetValue(handle, kNumberOfTransforms, static_cast<long>(key.rows)), "transforms");
    check(DftiSetValue(handle, kInputDistance, in_distance), "input distance");
    check(DftiSetValue(handle, kOutputDistance, out_distance), "output distance");
    check(DftiSetValue(handle, kThreadLimit, static_cast<long>(key.threads)), "thread limit");
    if (key.scale != 1.0) {
      const bool forward = key.kind == Kind::R2C || key.kind == Kind::C2C_FORWARD;
      const int which = forward ? kForwardScale : kBackwardScale;
      // The scale's type is the descriptor's precision (a float is promoted
      // to double through `...`, and MKL reads it back as such).
      check(key.dbl ? DftiSetValue(handle, which, key.scale)
                    : DftiSetValue(handle, which, static_cast<float>(key.scale)),
            "scale");
    }
    check(DftiCommitDescriptor(handle), "commit");
  } catch (...) {
    release(handle);
    throw;
  }
  return handle;
}

// The pool: most recently used first.
struct Pool {
  std::mutex lock;
  std::list<Plan> plans;
  int64_t points = 0;
};

// Never destroyed: freeing descriptors at exit could run after MKL's own
// teardown.
Pool& pool() {
  static Pool* const instance = new Pool();
  return *instance;
}

// A descriptor for `key`, taken out of the pool or committed anew.
void* acquire(const Key& key) {
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> guard(p.lock);
    for (auto it = p.plans.begin(); it != p.plans.end(); ++it) {
      if (it->key == key) {
        void* handle = it->handle;
        p.points -= it->key.length;
        p.plans.erase(it);
        return handle;
      }
    }
  }
  return commit(key);
}

// Puts `handle` back at the front, evicting the least recently used beyond the bounds.
void give_back(const Key& key, void* handle) {
  std::vector<void*> evicted;
  if (key.length > kMaxPlannedPoints) {
    evicted.push_back(handle);
  } else {
    Pool& p = pool();
    std::lock_guard<std::mutex> guard(p.lock);
    p.plans.push_front(Plan{key, handle});
    p.points += key.length;
    while (p.plans.size() > kMaxPlans || p.points > kMaxPlannedPoints) {
      evicted.push_back(p.plans.back().handle);
      p.points -= p.plans.back().key.length;
      p.plans.pop_back();
    }
  }
  for (void* victim : evicted) {
    release(victim);
  }
}

// Returns the descriptor to the pool on every path out of a transform.
struct Lease {
  Key key;
  void* handle;
  explicit Lease(const Key& k) : key(k), handle(acquire(k)) {}
  ~Lease() { give_back(key, handle); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
};

void check_2d(const at::Tensor& t, at::ScalarType dtype, int64_t rows, int64_t length, const char* what) {
  TORCH_CHECK(t.device().is_cpu() && t.dim() == 2 && t.scalar_type() == dtype && t.is_contiguous() &&
                  t.size(0) == rows && t.size(1) == length,
              "fft plans: ", what, " must be a contiguous 2-D CPU tensor of ", c10::toString(dtype), " and shape [",
              rows, ", ", length, "], got ", t.scalar_type(), " ", t.sizes());
}

at::ScalarType complex_of(at::ScalarType real) {
  return real == at::kDouble ? at::kComplexDouble : at::kComplexFloat;
}

void run(Kind kind, const at::Tensor& x, at::Tensor& out, int64_t length, double scale) {
  TORCH_CHECK(available(), "fft plans: this libtorch has no MKL DFTI");
  const bool real_in = kind == Kind::R2C;
  const at::ScalarType in_type = x.scalar_type();
  TORCH_CHECK(in_type == at::kDouble || in_type == at::kFloat || in_type == at::kComplexDouble ||
                  in_type == at::kComplexFloat,
              "fft plans: x must be float32, float64, complex64 or complex128, got ", in_type);
  const at::ScalarType real = c10::toRealValueType(in_type);
  TORCH_CHECK(real_in == !c10::isComplexType(in_type), "fft plans: x's dtype does not suit the transform");
  TORCH_CHECK(length >= 1 && x.dim() == 2, "fft plans: a 2-D input and a length of at least 1");
  const int64_t rows = x.size(0);
  const int64_t half = length / 2 + 1;
  switch (kind) {
    case Kind::R2C:
      check_2d(x, real, rows, length, "x");
      check_2d(out, complex_of(real), rows, half, "out");
      break;
    case Kind::C2R:
      check_2d(x, complex_of(real), rows, half, "x");
      check_2d(out, real, rows, length, "out");
      break;
    default:
      check_2d(x, complex_of(real), rows, length, "x");
      check_2d(out, complex_of(real), rows, length, "out");
  }
  if (rows == 0) {
    return;
  }
  Lease lease(Key{real == at::kDouble, kind, length, rows, at::get_num_threads(), scale, false});
  // DFTI takes its input pointer as non-const; out of place it only reads it.
  void* in = const_cast<void*>(x.const_data_ptr());
  void* to = out.mutable_data_ptr();
  const bool forward = kind == Kind::R2C || kind == Kind::C2C_FORWARD;
  check(forward ? DftiComputeForward(lease.handle, in, to) : DftiComputeBackward(lease.handle, in, to), "compute");
}

template <typename F>
char* guarded(F&& f) noexcept {
  try {
    f();
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `kind`, unscaled, in place on `rows` rows at `data` of `real`'s
// precision: for R2C and C2R 2 (length / 2 + 1) reals each, for C2C
// `length` complex values each.
void run_in_place(Kind kind, void* data, at::ScalarType real, int64_t rows, int64_t length) {
  TORCH_CHECK(available(), "fft plans: this libtorch has no MKL DFTI");
  TORCH_CHECK((real == at::kDouble || real == at::kFloat) && rows >= 0 && length >= 1,
              "fft plans: an in-place transform of float32/float64 rows of at least 1 point");
  if (rows == 0) {
    return;
  }
  Lease lease(Key{real == at::kDouble, kind, length, rows, at::get_num_threads(), 1.0, true});
  const bool forward = kind == Kind::R2C || kind == Kind::C2C_FORWARD;
  check(forward ? DftiComputeForward(lease.handle, data) : DftiComputeBackward(lease.handle, data), "compute");
}

// libtorch's own FFT in place of run_in_place's (a libtorch without MKL):
// `data` seen as a tensor, the result copied back over it.
void fallback_in_place(Kind kind, void* data, at::ScalarType real, int64_t rows, int64_t length) {
  const at::TensorOptions options = at::TensorOptions().dtype(real);
  if (kind == Kind::C2C_FORWARD || kind == Kind::C2C_BACKWARD) {
    const at::Tensor complex = at::view_as_complex(at::from_blob(data, {rows, length, 2}, options));
    // unnormalized both ways: "forward" puts the 1/length on the forward transform
    complex.copy_(kind == Kind::C2C_FORWARD ? at::fft_fft(complex, length, -1, "backward")
                                            : at::fft_ifft(complex, length, -1, "forward"));
    return;
  }
  const int64_t half = length / 2 + 1;
  const at::Tensor buffer = at::from_blob(data, {rows, half, 2}, options);
  const at::Tensor complex = at::view_as_complex(buffer);
  const at::Tensor reals = buffer.view({rows, 2 * half}).narrow(1, 0, length);
  if (kind == Kind::R2C) {
    complex.copy_(at::fft_rfft(reals, length, -1, "backward"));
  } else {
    reals.copy_(at::fft_irfft(complex, length, -1, "forward"));
  }
}

void in_place(Kind kind, void* data, at::ScalarType real, int64_t rows, int64_t length) {
  if (available()) {
    run_in_place(kind, data, real, rows, length);
  } else {
    fallback_in_place(kind, data, real, rows, length);
  }
}

}  // namespace

namespace tb_shim {

void rfft_rows_in_place(void* data, at::ScalarType real, int64_t rows, int64_t length) {
  in_place(Kind::R2C, data, real, rows, length);
}

void irfft_rows_in_place(void* data, at::ScalarType real, int64_t rows, int64_t length) {
  in_place(Kind::C2R, data, real, rows, length);
}

void fft_rows_in_place(void* data, at::ScalarType real, int64_t rows, int64_t length, bool forward) {
  in_place(forward ? Kind::C2C_FORWARD : Kind::C2C_BACKWARD, data, real, rows, length);
}

}  // namespace tb_shim

extern "C" {

bool tb_fft_plans_available() noexcept {
  return available();
}

// The real FFT of each row of `x` ([rows, length], float32/float64) into
// `out` ([rows, length / 2 + 1], the matching complex dtype), times `scale`.
char* tb_fft_r2c_cpu(const at::Tensor* x, at::Tensor* out, int64_t length, double scale) noexcept {
  return guarded([&] { run(Kind::R2C, *x, *out, length, scale); });
}

// The inverse real FFT (unnormalized, times `scale`) of each row of `x`
// ([rows, length / 2 + 1], complex) into `out` ([rows, length], real). As
// NumPy's, the imaginary parts of the zero-frequency term and, for even
// `length`, of the Nyquist term are not read.
char* tb_fft_c2r_cpu(const at::Tensor* x, at::Tensor* out, int64_t length, double scale) noexcept {
  return guarded([&] { run(Kind::C2R, *x, *out, length, scale); });
}

// The complex FFT (`forward`: exponent -1, else +1, unnormalized) of each
// row of `x` ([rows, length]) into `out` (the same shape and dtype), times `scale`.
char* tb_fft_c2c_cpu(const at::Tensor* x, at::Tensor* out, int64_t length, bool forward, double scale) noexcept {
  return guarded([&] { run(forward ? Kind::C2C_FORWARD : Kind::C2C_BACKWARD, *x, *out, length, scale); });
}

// The descriptors in the pool now (for tests).
int64_t tb_fft_plans_cached() noexcept {
  Pool& p = pool();
  std::lock_guard<std::mutex> guard(p.lock);
  return static_cast<int64_t>(p.plans.size());
}

}  // extern "C"
