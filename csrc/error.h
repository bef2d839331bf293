// Error hand-off shared by the shim's translation units: every C++ exception
// becomes a heap-allocated message (freed by `tb_free_error`, in dlpack.cpp),
// never an exception across the FFI boundary.

#pragma once

#include <c10/util/Exception.h>

#include <cstdlib>
#include <cstring>
#include <exception>

namespace tb_shim {

inline char* copy_message(const char* what) noexcept {
  const size_t len = std::strlen(what);
  char* out = static_cast<char*>(std::malloc(len + 1));
  if (out != nullptr) {
    std::memcpy(out, what, len + 1);
  }
  return out;
}

// Call inside a `catch (...)` block: the active exception as a message.
inline char* describe_current_exception() noexcept {
  try {
    throw;
  } catch (const c10::Error& e) {
    return copy_message(e.what_without_backtrace());
  } catch (const std::exception& e) {
    return copy_message(e.what());
  } catch (...) {
    return copy_message("unknown C++ exception in libtorch");
  }
}

}  // namespace tb_shim
