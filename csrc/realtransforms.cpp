// torchbridge's C++ shim, real-transforms half: the DCT/DST of types 2 and 3
// (`scipy.fft.dct`, `dst`, `idct`, `idst`) of float32 and float64 CPU
// tensors in one call each: a pass, the FFT (dfti.h: a kept MKL plan), a
// pass (declared in Rust in src/ffi/realtransforms.rs, used by
// src/ops/fft/realtransforms.rs).
//
// realtransforms.rs's `dct2_fused` and `dct3_fused` run Makhoul's algorithm
// as one N-point real FFT between a gather (with signs) and a twiddle plus
// a gather. These passes do each side in one sweep over memory instead of
// four or five libtorch ops, with the same arithmetic (the complex product
// as `(a c - b d) + (a d + b c) i`, the signs exact negations): the
// composite's values to an ulp (libtorch's vectorized complex product may
// round its terms differently):
//
// - DCT-II before the FFT: `v[j] = x[perm((N - j) % N)]` (Makhoul's
//   permutation, read circularly reversed), DST-II negating its odd half;
// - after it: `z = Z w` (Z the real FFT of v, w the twiddle with every
//   scaling in it), `y[k] = Re z[k]` and `y[N-k] = Im z[k]`, DST-II writing
//   `y` reversed;
// - DCT-III before the inverse FFT: `u[k] = (x[k] + i x[N-k]) w[k]`
//   (x[N] = 0), DST-III reading `x` reversed;
// - after it: `y[2j] = s[(N - j) % N]`, `y[2j+1] = s[j+1]` (s the inverse
//   real FFT of u), DST-III negating the odd outputs.
//
// Given the split twiddle `t` (the caller passes it for even N from 8192
// points, float32 and float64), the real FFT is an N/2-point complex FFT of
// v's own memory (`v[2m] + i v[2m+1]`), its split into the real FFT's values
// done in the twiddle pass next to it (dct2_post_split, dct3_pre_split)
// instead of in a sweep of the real FFT's own: 10-15% of the call at 1e4 to
// 1e6 points.
// Its values differ from the composite's by the rounding of that split (a
// few ulps of the largest output; about as far from the exact transform as
// the composite's, within an ulp). Without `t` the N-point real FFT runs,
// with the composite's values.
//
// The intermediate (v, its spectrum; u, its inverse) lives in one buffer,
// the FFT running in place on it, and that buffer is the calling thread's
// scratch, kept between calls (`Scratch`). Why: a buffer of the input's
// size allocated per call is fresh memory from the kernel on every call,
// every 4 KiB page of it faulting on first write: glibc serves it from
// the top of its heap and trims the heap back when it is freed (the free
// top then exceeds M_TRIM_THRESHOLD, which glibc sets to twice the largest
// block freed so far), or maps and unmaps it. At 1e5 float64 points the
// two buffers the passes had cost about 360 page faults a call, more than
// the passes and as much as the FFT, whether SciPy's calls came between
// or not. A kept buffer also stays in the cache between calls, and one
// buffer in place of two halves the memory the passes and the FFT sweep.
//
// Every tensor is 2-D, `[rows, length]`; `x` may have any strides, `y` is
// contiguous, and `y` is a fresh tensor the caller owns: the only memory
// written besides the scratch (`x` is only read).

#include "dfti.h"
#include "error.h"
#include "parallel.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>

using tb_shim::describe_current_exception;

namespace {

// Elements per thread: these passes move memory and little else.
constexpr int64_t kWorkPerThread = 1 << 16;

// Runs `run(row, begin, end)` over the rows' segments of `[0, rows * len)`,
// on threads when it is large.
template <typename Run>
void over_rows(int64_t rows, int64_t len, const Run& run) {
  const int64_t units = rows * len;
  const int64_t threads = tb_shim::threads_for(units, units, kWorkPerThread);
  tb_shim::split_over_threads(units, threads, 1, [&](int64_t begin, int64_t end) {
    int64_t row = begin / len;
    int64_t at = begin % len;
    while (begin < end) {
      const int64_t stop = std::min(len, at + (end - begin));
      run(row, at, stop);
      begin += stop - at;
      ++row;
      at = 0;
    }
  });
}

void check_real(const at::Tensor& t, at::ScalarType dtype, bool contiguous, const char* what) {
  TORCH_CHECK(t.device().is_cpu() && t.dim() == 2 && t.scalar_type() == dtype && (!contiguous || t.is_contiguous()),
              what, ": expected a 2-D CPU tensor of the transform's dtype", contiguous ? ", contiguous" : "");
}

void check_complex(const at::Tensor& t, at::ScalarType real, int64_t dim, const char* what) {
  const at::ScalarType complex = real == at::kDouble ? at::kComplexDouble : at::kComplexFloat;
  TORCH_CHECK(t.device().is_cpu() && t.dim() == dim && t.scalar_type() == complex && t.is_contiguous(), what,
              ": expected a contiguous CPU complex tensor of the transform's precision");
}

at::ScalarType real_dtype(const at::Tensor& x) {
  const at::ScalarType dtype = x.scalar_type();
  TORCH_CHECK(x.device().is_cpu() && (dtype == at::kDouble || dtype == at::kFloat),
              "real transforms: x must be a float32 or float64 CPU tensor");
  return dtype;
}

// The scratch kept per thread: up to this many bytes (a float64 transform
// of 2^20 points, or a batch of that many, takes 8 MiB). A larger call
// allocates its own buffer and frees it after, as every call did before: a
// thread should not hold more between calls, and there the page faults are
// a smaller share of the call (the FFT grows as N log N).
constexpr size_t kKeptScratchBytes = size_t{16} << 20;

// Scratch alignment: a cache line (MKL's advice for its buffers is 64 bytes).
constexpr size_t kScratchAlign = 64;

// The calling thread's kept buffer, freed when the thread ends.
struct KeptScratch {
  void* data = nullptr;
  size_t bytes = 0;
  // Leased: a call nested inside another would take a buffer of its own
  // (none is today: the passes and the FFT call nothing that could).
  bool busy = false;
  KeptScratch() = default;
  KeptScratch(const KeptScratch&) = delete;
  KeptScratch& operator=(const KeptScratch&) = delete;
  ~KeptScratch() { std::free(data); }
};

thread_local KeptScratch kept_scratch;

void* allocate_scratch(size_t bytes) {
  // aligned_alloc wants a multiple of the alignment
  const size_t rounded = (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
  void* data = std::aligned_alloc(kScratchAlign, std::max(rounded, kScratchAlign));
  if (data == nullptr) {
    throw std::bad_alloc();
  }
  return data;
}

// At least `bytes` bytes of scratch for one call, 64-byte aligned: the
// thread's kept buffer (grown to `bytes` when smaller; never shrunk, so a
// thread holds at most kKeptScratchBytes) or, above that or while the kept
// one is leased, a buffer of its own freed at the end. Its contents are
// whatever the last call left.
class Scratch {
 public:
  explicit Scratch(size_t bytes) {
    KeptScratch& kept = kept_scratch;
    if (bytes > kKeptScratchBytes || kept.busy) {
      own_ = allocate_scratch(bytes);
      data_ = own_;
      return;
    }
    if (kept.bytes < bytes) {
      std::free(kept.data);
      kept.data = nullptr;
      kept.bytes = 0;
      kept.data = allocate_scratch(bytes);
      kept.bytes = bytes;
    }
    kept.busy = true;
    kept_ = &kept;
    data_ = kept.data;
  }
  ~Scratch() {
    if (kept_ != nullptr) {
      kept_->busy = false;
    }
    std::free(own_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  void* own_ = nullptr;
  KeptScratch* kept_ = nullptr;
};

// The scratch holds one row per transform, row `r` at `r * ld` reals:
// `2 (N/2 + 1)` for the real FFT (a real row padded to its spectrum's size,
// which the in-place real FFT needs), exactly N for the split (N/2 complex
// values).

// The complex product `(a + b i) (c + d i)`, as the composite computes it.
template <typename T>
struct Product {
  T re;
  T im;
  Product(T a, T b, T c, T d) : re(a * c - b * d), im(a * d + b * c) {}
};

// DCT-II's gather, `v[j] = x[perm((N - j) % N)]`: `v[0] = x[0]`,
// `v[m + 1] = x[2m + 1]` (negated for DST-II), `v[N - m] = x[2m]`; in one
// sweep over `x` in pairs `m` (reading it once), writing `v` from both ends.
template <typename T>
void dct2_pre(const at::Tensor& x, T* pv, int64_t ld, bool sine) {
  const int64_t rows = x.size(0);
  const int64_t n = x.size(1);
  const int64_t s0 = x.stride(0);
  const int64_t s1 = x.stride(1);
  const T* px = x.const_data_ptr<T>();
  const int64_t pairs = (n + 1) / 2;
  const int64_t odd = n / 2;  // the pairs with an x[2m + 1]
  over_rows(rows, pairs, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = px + row * s0;
    T* out = pv + row * ld;
    int64_t m = begin;
    if (m == 0) {
      out[0] = in[0];
      if (odd > 0) {
        out[1] = sine ? -in[s1] : in[s1];
      }
      m = 1;
    }
    for (const int64_t both = std::min(end, odd); m < both; ++m) {
      out[n - m] = in[2 * m * s1];
      const T value = in[(2 * m + 1) * s1];
      out[m + 1] = sine ? -value : value;
    }
    for (; m < end; ++m) {  // odd N: the last pair, x[N - 1] alone
      out[n - m] = in[2 * m * s1];
    }
  });
}

// DCT-II's output from `z = Z w`: `y[k] = Re z[k]` (k <= N/2) and
// `y[N - k] = Im z[k]` (1 <= k, N - k > N/2); DST-II writes `y` reversed.
template <typename T>
inline void dct2_put(T* out, int64_t n, int64_t k, const Product<T>& z, bool sine) {
  const bool upper = k >= 1 && n - k > n / 2;
  if (sine) {
    out[n - 1 - k] = z.re;
    if (upper) {
      out[k - 1] = z.im;
    }
  } else {
    out[k] = z.re;
    if (upper) {
      out[n - k] = z.im;
    }
  }
}

// `Z` the real FFT of `v` (N/2 + 1 complex values a row).
template <typename T>
void dct2_post(const T* pz, int64_t ld, const at::Tensor& w, at::Tensor& y, bool sine) {
  const int64_t rows = y.size(0);
  const int64_t n = y.size(1);
  const int64_t half = n / 2 + 1;
  const T* pw = reinterpret_cast<const T*>(w.const_data_ptr());
  T* py = y.mutable_data_ptr<T>();
  over_rows(rows, half, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = pz + row * ld;
    T* out = py + row * n;
    for (int64_t k = begin; k < end; ++k) {
      dct2_put(out, n, k, Product<T>(in[2 * k], in[2 * k + 1], pw[2 * k], pw[2 * k + 1]), sine);
    }
  });
}

// The split, N = 2M: `C` the M-point complex FFT of `c[m] = v[2m] + i v[2m + 1]`
// (v's own memory), from which the real FFT's `Z[k]` follows as the even
// part plus the odd part turned by `t[k] = exp(-2 pi i k / N)`:
// `E = (C[k] + conj C[M-k]) / 2`, `O = (C[k] - conj C[M-k]) / 2i`,
// `Z[k] = E + t[k] O` and `Z[M-k] = conj(E - t[k] O)`. So each pair
// `(k, M - k)`, 0 <= k <= M/2, gives two outputs; with the real FFT's own
// split done here, the FFT is half as long and its last sweep is this one.
template <typename T>
void dct2_post_split(const T* pc, int64_t ld, const at::Tensor& w, const at::Tensor& t, at::Tensor& y, bool sine) {
  const int64_t rows = y.size(0);
  const int64_t n = y.size(1);
  const int64_t m = n / 2;
  const T* pw = reinterpret_cast<const T*>(w.const_data_ptr());
  const T* pt = reinterpret_cast<const T*>(t.const_data_ptr());
  T* py = y.mutable_data_ptr<T>();
  const T one_half(0.5);
  over_rows(rows, m / 2 + 1, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = pc + row * ld;
    T* out = py + row * n;
    const auto put = [&](int64_t k, T re, T im) {
      dct2_put(out, n, k, Product<T>(re, im, pw[2 * k], pw[2 * k + 1]), sine);
    };
    if (begin == 0) {
      // Z[0] = Re C[0] + Im C[0], Z[M] = Re C[0] - Im C[0]
      put(0, in[0] + in[1], T(0));
      put(m, in[0] - in[1], T(0));
      ++begin;
    }
    for (int64_t k = begin; k < end; ++k) {
      const int64_t j = m - k;
      const T ar = in[2 * k];
      const T ai = in[2 * k + 1];
      const T br = in[2 * j];
      const T bi = in[2 * j + 1];
      const T er = one_half * (ar + br);
      const T ei = one_half * (ai - bi);
      const Product<T> p(pt[2 * k], pt[2 * k + 1], one_half * (ai + bi), one_half * (br - ar));
      put(k, er + p.re, ei + p.im);
      if (j != k) {
        put(j, er - p.re, p.im - ei);
      }
    }
  });
}

// DCT-III's half spectrum, `u[k] = (x[k] + i x[N-k]) w[k]` (x[N] = 0;
// DST-III reads x reversed).
template <typename T>
struct Dct3Input {
  const T* in;
  const T* pw;
  int64_t n;
  int64_t s1;
  bool sine;
  T at(int64_t k) const {
    if (k == n) {
      return T(0);
    }
    return in[(sine ? n - 1 - k : k) * s1];
  }
  Product<T> u(int64_t k) const { return Product<T>(at(k), at(n - k), pw[2 * k], pw[2 * k + 1]); }
};

// `u` itself, for the inverse real FFT.
template <typename T>
void dct3_pre(const at::Tensor& x, const at::Tensor& w, T* pu, int64_t ld, bool sine) {
  const int64_t rows = x.size(0);
  const int64_t n = x.size(1);
  const int64_t half = n / 2 + 1;
  const T* px = x.const_data_ptr<T>();
  const T* pw = reinterpret_cast<const T*>(w.const_data_ptr());
  over_rows(rows, half, [&](int64_t row, int64_t begin, int64_t end) {
    const Dct3Input<T> input{px + row * x.stride(0), pw, n, x.stride(1), sine};
    T* out = pu + row * ld;
    for (int64_t k = begin; k < end; ++k) {
      const Product<T> u = input.u(k);
      out[2 * k] = u.re;
      out[2 * k + 1] = u.im;
    }
  });
}

// The split, N = 2M: the M complex values `C` whose inverse M-point FFT is
// `c[m] = s[2m] + i s[2m + 1]`, s the inverse real FFT of u (the split of
// dct2_post_split run backwards, t[k] conjugated): with
// `A = u[k] + conj u[M-k]` and `B = u[k] - conj u[M-k]`,
// `C[k] = A + i conj(t[k]) B` and `C[M-k] = conj(A - i conj(t[k]) B)`. As the
// inverse real FFT does, the imaginary parts of u[0] and u[M] are not read.
template <typename T>
void dct3_pre_split(const at::Tensor& x, const at::Tensor& w, const at::Tensor& t, T* pc, int64_t ld, bool sine) {
  const int64_t rows = x.size(0);
  const int64_t n = x.size(1);
  const int64_t m = n / 2;
  const T* px = x.const_data_ptr<T>();
  const T* pw = reinterpret_cast<const T*>(w.const_data_ptr());
  const T* pt = reinterpret_cast<const T*>(t.const_data_ptr());
  over_rows(rows, m / 2 + 1, [&](int64_t row, int64_t begin, int64_t end) {
    const Dct3Input<T> input{px + row * x.stride(0), pw, n, x.stride(1), sine};
    T* out = pc + row * ld;
    if (begin == 0) {
      const T first = input.u(0).re;
      const T last = input.u(m).re;
      out[0] = first + last;
      out[1] = first - last;
      ++begin;
    }
    for (int64_t k = begin; k < end; ++k) {
      const int64_t j = m - k;
      const Product<T> a = input.u(k);
      const Product<T> b = input.u(j);
      // A = a + conj b, B = a - conj b, i conj(t) B
      const T sr = a.re + b.re;
      const T si = a.im - b.im;
      const Product<T> q(pt[2 * k], -pt[2 * k + 1], a.re - b.re, a.im + b.im);
      out[2 * k] = sr - q.im;
      out[2 * k + 1] = si + q.re;
      if (j != k) {
        out[2 * j] = sr + q.im;
        out[2 * j + 1] = q.re - si;
      }
    }
  });
}

// `y[2j] = s[(N - j) % N]`, `y[2j+1] = s[j+1]` (s the inverse real FFT of
// u), DST-III negating the odd outputs: one sweep over `y`, reading `s`
// from both ends.
template <typename T>
void dct3_post(const T* ps, int64_t ld, at::Tensor& y, bool sine) {
  const int64_t rows = y.size(0);
  const int64_t n = y.size(1);
  T* py = y.mutable_data_ptr<T>();
  const int64_t pairs = (n + 1) / 2;
  const int64_t odd = n / 2;  // the pairs with a y[2j + 1]
  over_rows(rows, pairs, [&](int64_t row, int64_t begin, int64_t end) {
    const T* in = ps + row * ld;
    T* out = py + row * n;
    int64_t j = begin;
    if (j == 0) {
      out[0] = in[0];
      if (odd > 0) {
        out[1] = sine ? -in[1] : in[1];
      }
      j = 1;
    }
    for (const int64_t both = std::min(end, odd); j < both; ++j) {
      out[2 * j] = in[n - j];
      const T value = in[j + 1];
      out[2 * j + 1] = sine ? -value : value;
    }
    for (; j < end; ++j) {  // odd N: the last pair, y[N - 1] alone
      out[2 * j] = in[n - j];
    }
  });
}

// The distance between the scratch's rows, in reals (see above).
int64_t scratch_row(int64_t n, bool split) {
  return split ? n : 2 * (n / 2 + 1);
}

// The scratch of a call on `rows` rows of `n` points of `dtype`.
size_t scratch_bytes(at::ScalarType dtype, int64_t rows, int64_t n, bool split) {
  return static_cast<size_t>(rows) * static_cast<size_t>(scratch_row(n, split)) * at::elementSize(dtype);
}

template <typename T>
void dct2_rows(const at::Tensor& x, const at::Tensor& w, const at::Tensor& t, at::Tensor& y, bool sine) {
  const at::ScalarType dtype = x.scalar_type();
  const int64_t rows = x.size(0);
  const int64_t n = x.size(1);
  const bool split = t.numel() > 0;
  const int64_t ld = scratch_row(n, split);
  const Scratch scratch(scratch_bytes(dtype, rows, n, split));
  T* buffer = scratch.as<T>();
  dct2_pre<T>(x, buffer, ld, sine);
  if (split) {
    tb_shim::fft_rows_in_place(buffer, dtype, rows, n / 2, true);
    dct2_post_split<T>(buffer, ld, w, t, y, sine);
  } else {
    tb_shim::rfft_rows_in_place(buffer, dtype, rows, n);
    dct2_post<T>(buffer, ld, w, y, sine);
  }
}

template <typename T>
void dct3_rows(const at::Tensor& x, const at::Tensor& w, const at::Tensor& t, at::Tensor& y, bool sine) {
  const at::ScalarType dtype = x.scalar_type();
  const int64_t rows = x.size(0);
  const int64_t n = x.size(1);
  const bool split = t.numel() > 0;
  const int64_t ld = scratch_row(n, split);
  const Scratch scratch(scratch_bytes(dtype, rows, n, split));
  T* buffer = scratch.as<T>();
  if (split) {
    dct3_pre_split<T>(x, w, t, buffer, ld, sine);
    tb_shim::fft_rows_in_place(buffer, dtype, rows, n / 2, false);
  } else {
    dct3_pre<T>(x, w, buffer, ld, sine);
    tb_shim::irfft_rows_in_place(buffer, dtype, rows, n);
  }
  dct3_post<T>(buffer, ld, y, sine);
}

}  // namespace

extern "C" {

// `y` (contiguous `[rows, N]`, x's dtype): DCT-II (DST-II with `sine`) of
// each row of `x` (`[rows, N]`, any strides), `w` the twiddle (`[N/2 + 1]`)
// and `t` the split's (even N: `[N/4 + 1]`, `exp(-2 pi i k / N)`; or empty,
// no split): the permutation, the FFT (dfti.h: N/2 complex points with `t`,
// else N real points) and the twiddle pass.
char* tb_dct2_cpu(const at::Tensor* x, const at::Tensor* w, const at::Tensor* t, at::Tensor* y, bool sine) noexcept {
  try {
    const at::ScalarType dtype = real_dtype(*x);
    check_real(*x, dtype, false, "dct2 (x)");
    check_real(*y, dtype, true, "dct2 (y)");
    check_complex(*w, dtype, 1, "dct2 (w)");
    check_complex(*t, dtype, 1, "dct2 (t)");
    const int64_t rows = x->size(0);
    const int64_t n = x->size(1);
    TORCH_CHECK(n >= 1 && y->sizes() == x->sizes() && w->size(0) == n / 2 + 1 &&
                    (t->size(0) == 0 || (n % 2 == 0 && t->size(0) == n / 4 + 1)),
                "dct2: y must be x's [rows, N], w [N/2 + 1] and t [N/4 + 1] (even N) or empty, N >= 1");
    if (rows == 0) {
      return nullptr;
    }
    if (dtype == at::kDouble) {
      dct2_rows<double>(*x, *w, *t, *y, sine);
    } else {
      dct2_rows<float>(*x, *w, *t, *y, sine);
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `y` (contiguous `[rows, N]`, x's dtype): DCT-III (DST-III with `sine`) of
// each row of `x` (`[rows, N]`, any strides), `w` the twiddle (`[N/2 + 1]`)
// and `t` as for tb_dct2_cpu: the twiddled half-spectrum, the inverse FFT
// (dfti.h) and the output order.
char* tb_dct3_cpu(const at::Tensor* x, const at::Tensor* w, const at::Tensor* t, at::Tensor* y, bool sine) noexcept {
  try {
    const at::ScalarType dtype = real_dtype(*x);
    check_real(*x, dtype, false, "dct3 (x)");
    check_real(*y, dtype, true, "dct3 (y)");
    check_complex(*w, dtype, 1, "dct3 (w)");
    check_complex(*t, dtype, 1, "dct3 (t)");
    const int64_t rows = x->size(0);
    const int64_t n = x->size(1);
    TORCH_CHECK(n >= 1 && y->sizes() == x->sizes() && w->size(0) == n / 2 + 1 &&
                    (t->size(0) == 0 || (n % 2 == 0 && t->size(0) == n / 4 + 1)),
                "dct3: y must be x's [rows, N], w [N/2 + 1] and t [N/4 + 1] (even N) or empty, N >= 1");
    if (rows == 0) {
      return nullptr;
    }
    if (dtype == at::kDouble) {
      dct3_rows<double>(*x, *w, *t, *y, sine);
    } else {
      dct3_rows<float>(*x, *w, *t, *y, sine);
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// The bytes of scratch the calling thread keeps now (for tests).
int64_t tb_realtransforms_scratch_kept() noexcept {
  return static_cast<int64_t>(kept_scratch.bytes);
}

}  // extern "C"
