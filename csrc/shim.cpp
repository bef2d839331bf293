// torchbridge's C++ shim: the only C++ in the crate.
//
// It converts between DLPack managed tensors and `at::Tensor` with libtorch's
// own converter (ATen/DLConvertor.h). Every entry point is `noexcept` from the
// caller's point of view: C++ exceptions are caught here and returned as a
// heap-allocated message (free it with tb_free_error), never thrown across
// the FFI boundary.
//
// Tensors are handed to Rust as `at::Tensor*` allocated with `new`, which is
// exactly the representation of tch's `C_tensor` (`tch::Tensor::from_ptr`).

#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>

#include <cstring>
#include <exception>
#include <string>

namespace {

char* copy_message(const char* what) noexcept {
  const size_t len = std::strlen(what);
  char* out = static_cast<char*>(std::malloc(len + 1));
  if (out != nullptr) {
    std::memcpy(out, what, len + 1);
  }
  return out;
}

char* describe_current_exception() noexcept {
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

}  // namespace

extern "C" {

// Takes a versioned DLPack tensor and returns a new `at::Tensor*` viewing its
// memory. On success libtorch owns `src` and calls `src->deleter(src)` exactly
// once, when the last view of the storage dies. On failure (non-null return)
// ownership is unspecified: the Rust caller keeps a guard that tells whether
// the deleter already ran (see src/dlpack/import.rs).
char* tb_from_dlpack_versioned(DLManagedTensorVersioned* src,
                               at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    at::Tensor tensor = at::fromDLPackVersioned(src);
    *out = new at::Tensor(std::move(tensor));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Exports `tensor` as a new versioned DLPack tensor owned by the caller, who
// must call its deleter exactly once. The export holds a reference to the
// tensor's storage, so it outlives `tensor` safely.
char* tb_to_dlpack_versioned(const at::Tensor* tensor,
                             DLManagedTensorVersioned** out) noexcept {
  *out = nullptr;
  try {
    *out = at::toDLPackVersioned(*tensor);
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Legacy (unversioned) export for consumers that do not ask for a version.
char* tb_to_dlpack_legacy(const at::Tensor* tensor,
                          DLManagedTensor** out) noexcept {
  *out = nullptr;
  try {
    *out = at::toDLPack(*tensor);
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// The DLPack dtype libtorch would export for `tensor`.
char* tb_dlpack_dtype(const at::Tensor* tensor, DLDataType* out) noexcept {
  try {
    *out = at::getDLDataType(*tensor);
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

void tb_free_error(char* message) noexcept { std::free(message); }

}  // extern "C"
