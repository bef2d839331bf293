// The hot loops of csrc/iir.cpp: SciPy's `_lfilter.cc` and `_sosfilt.pyx`
// recurrences over lanes of rows. Plain templates on the standard library
// only: iir.cpp includes this file twice, inside two namespaces, once for
// the baseline x86-64 target and once for AVX2 (same arithmetic, wider
// vectors; no fused multiply-adds either way, so both round as SciPy does).
// Include <algorithm>, <cstdint> and <vector> first; no include guard, by
// design.

// Samples per tile: each lane's next `kTile` samples are read into a
// (kTile x lanes) tile, filtered, and written back as a tile.
constexpr int64_t kTile = 4;

// `step(r, x)` (lane `r`'s output for input `x`) over `L` rows of `len`
// samples (`x`, `y`: rows `len` apart), a tile at a time; `reverse`: from
// the last sample to the first (the backward pass of filtfilt, without
// flipped copies).
template <typename T, int64_t L, typename Step>
void over_time(const T* x, T* y, int64_t len, bool reverse, const Step& step) {
  const int64_t first = reverse ? len - 1 : 0;
  const int64_t dt = reverse ? -1 : 1;
  const auto at = [&](int64_t r, int64_t t) { return r * len + first + dt * t; };
  int64_t t0 = 0;
  for (; t0 + kTile <= len; t0 += kTile) {
    T in[kTile][L];
    T out[kTile][L];
    for (int64_t r = 0; r < L; ++r) {
      for (int64_t j = 0; j < kTile; ++j) {
        in[j][r] = x[at(r, t0 + j)];
      }
    }
    for (int64_t j = 0; j < kTile; ++j) {
      for (int64_t r = 0; r < L; ++r) {
        out[j][r] = step(r, in[j][r]);
      }
    }
    for (int64_t r = 0; r < L; ++r) {
      for (int64_t j = 0; j < kTile; ++j) {
        y[at(r, t0 + j)] = out[j][r];
      }
    }
  }
  for (; t0 < len; ++t0) {
    for (int64_t r = 0; r < L; ++r) {
      y[at(r, t0)] = step(r, x[at(r, t0)]);
    }
  }
}

// `L` rows through SciPy's `_lfilter.cc` loop, `k` states a row (`z`, rows
// `k` apart, read and updated; `K`: `k` when fixed, else 0). `b` and `a`
// hold `k + 1` coefficients normalised by `a[0]`. `Fir` (SciPy's
// `len(a) == 1`) leaves out the `a` terms, as SciPy's convolution does.
template <typename T, int64_t L, int64_t K, bool Fir>
void lfilter_lanes(const T* bp, const T* ap, int64_t k, const T* x, T* y, T* z, int64_t len,
                   bool reverse) {
  // Fixed sizes in local arrays (registers, once unrolled; and the compiler
  // then knows that the stores to `y` leave the coefficients alone).
  constexpr int64_t kFixed = K > 0 ? K : 1;
  T fixed[kFixed][L];
  T fb[kFixed + 1];
  T fa[kFixed + 1];
  std::vector<T> heap(K > 0 ? 0 : k * L);
  const int64_t n = K > 0 ? K : k;
  if constexpr (K > 0) {
    std::copy_n(bp, K + 1, fb);
    std::copy_n(ap, K + 1, fa);
  }
  const T* b = K > 0 ? fb : bp;
  const T* a = K > 0 ? fa : ap;
  auto state = [&](int64_t i, int64_t r) -> T& {
    if constexpr (K > 0) {
      return fixed[i][r];
    } else {
      return heap[i * L + r];
    }
  };
  for (int64_t r = 0; r < L; ++r) {
    for (int64_t i = 0; i < n; ++i) {
      state(i, r) = z[r * n + i];
    }
  }
  over_time<T, L>(x, y, len, reverse, [&](int64_t r, T xn) {
    const T yn = state(0, r) + b[0] * xn;
    for (int64_t i = 0; i + 1 < n; ++i) {
      if constexpr (Fir) {
        state(i, r) = state(i + 1, r) + xn * b[i + 1];
      } else {
        state(i, r) = state(i + 1, r) + xn * b[i + 1] - yn * a[i + 1];
      }
    }
    if constexpr (Fir) {
      state(n - 1, r) = xn * b[n];
    } else {
      state(n - 1, r) = xn * b[n] - yn * a[n];
    }
    return yn;
  });
  for (int64_t r = 0; r < L; ++r) {
    for (int64_t i = 0; i < n; ++i) {
      z[r * n + i] = state(i, r);
    }
  }
}

// `L` rows through SciPy's `_sosfilt.pyx` loop: `sos` holds `ns` rows of
// six coefficients (`sos[s, 3] == 1`), `z` `L` rows of `2 * ns` states
// (`NS`: `ns` when fixed, else 0).
template <typename T, int64_t L, int64_t NS>
void sosfilt_lanes(const T* coefs, int64_t ns, const T* x, T* y, T* z, int64_t len,
                   bool reverse) {
  constexpr int64_t kFixed = NS > 0 ? NS : 1;  // as in lfilter_lanes
  T fixed[2 * kFixed][L];
  T fc[6 * kFixed];
  std::vector<T> heap(NS > 0 ? 0 : 2 * ns * L);
  const int64_t m = NS > 0 ? NS : ns;
  if constexpr (NS > 0) {
    std::copy_n(coefs, 6 * NS, fc);
  }
  const T* sos = NS > 0 ? fc : coefs;
  auto state = [&](int64_t i, int64_t r) -> T& {
    if constexpr (NS > 0) {
      return fixed[i][r];
    } else {
      return heap[i * L + r];
    }
  };
  for (int64_t r = 0; r < L; ++r) {
    for (int64_t i = 0; i < 2 * m; ++i) {
      state(i, r) = z[r * 2 * m + i];
    }
  }
  over_time<T, L>(x, y, len, reverse, [&](int64_t r, T cur) {
    for (int64_t j = 0; j < m; ++j) {
      const T* c = sos + 6 * j;
      const T next = c[0] * cur + state(2 * j, r);
      state(2 * j, r) = c[1] * cur - c[4] * next + state(2 * j + 1, r);
      state(2 * j + 1, r) = c[2] * cur - c[5] * next;
      cur = next;
    }
    return cur;
  });
  for (int64_t r = 0; r < L; ++r) {
    for (int64_t i = 0; i < 2 * m; ++i) {
      z[r * 2 * m + i] = state(i, r);
    }
  }
}

