// torchbridge's C++ shim, DLPack half: conversions and CUDA streams. The
// operator-by-name half is aten.cpp; both are declared in Rust in src/ffi/.
//
// It converts between DLPack managed tensors and `at::Tensor` with libtorch's
// own converter (ATen/DLConvertor.h). Every entry point is `noexcept` from the
// caller's point of view: C++ exceptions are caught here and returned as a
// heap-allocated message (free it with tb_free_error), never thrown across
// the FFI boundary.
//
// Tensors are handed to Rust as `at::Tensor*` allocated with `new`, which is
// exactly the representation of tch's `C_tensor` (`tch::Tensor::from_ptr`).

#include "error.h"

#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#include <c10/core/Event.h>
#include <c10/core/Stream.h>
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include <cstring>
#include <memory>
#include <exception>
#include <string>

using tb_shim::copy_message;
using tb_shim::describe_current_exception;

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

// The DLPack dtype libtorch would export for `tensor`. Every call asks this
// of its inputs and results: the dtypes torchbridge exchanges are a switch
// here; the rest take libtorch's own mapping (and its error).
char* tb_dlpack_dtype(const at::Tensor* tensor, DLDataType* out) noexcept {
  try {
    const auto lane = [](DLDataTypeCode code, int bits) {
      return DLDataType{static_cast<uint8_t>(code), static_cast<uint8_t>(bits), 1};
    };
    switch (tensor->scalar_type()) {
      case at::kDouble: *out = lane(kDLFloat, 64); return nullptr;
      case at::kFloat: *out = lane(kDLFloat, 32); return nullptr;
      case at::kHalf: *out = lane(kDLFloat, 16); return nullptr;
      case at::kBFloat16: *out = lane(kDLBfloat, 16); return nullptr;
      case at::kComplexDouble: *out = lane(kDLComplex, 128); return nullptr;
      case at::kComplexFloat: *out = lane(kDLComplex, 64); return nullptr;
      case at::kLong: *out = lane(kDLInt, 64); return nullptr;
      case at::kInt: *out = lane(kDLInt, 32); return nullptr;
      case at::kShort: *out = lane(kDLInt, 16); return nullptr;
      case at::kChar: *out = lane(kDLInt, 8); return nullptr;
      case at::kByte: *out = lane(kDLUInt, 8); return nullptr;
      case at::kBool: *out = lane(kDLBool, 8); return nullptr;
      default: break;
    }
    *out = at::getDLDataType(*tensor);
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// The per-call fast paths for numpy arrays (src/dlpack/numpy_array.rs), one
// shim call each instead of a DLPack descriptor or several small calls.

// What the numpy result path needs of `tensor`: whether it must be resolved
// first (`resolve`: it requires grad, or has a conjugate or negative bit;
// DLPack's `exportable`), whether it is on the CPU, and there its dtype, data
// and the addresses of its sizes and strides (in elements), which stay valid
// while `tensor` lives unchanged. Only `resolve` and `cpu` are set when the
// tensor must be resolved or is elsewhere.
struct TbHostView {
  void* data;
  const int64_t* sizes;
  const int64_t* strides;
  int64_t ndim;
  DLDataType dtype;
  int32_t cpu;
  int32_t resolve;
};

char* tb_host_view(const at::Tensor* tensor, TbHostView* out) noexcept {
  try {
    const at::Tensor& t = *tensor;
    *out = TbHostView{};
    out->resolve = t.requires_grad() || t.is_conj() || t.is_neg();
    out->cpu = t.device().is_cpu();
    if (out->resolve || !out->cpu) {
      return nullptr;
    }
    out->dtype = at::getDLDataType(t);
    out->sizes = t.sizes().data();
    out->strides = t.strides().data();
    out->ndim = t.dim();
    out->data = t.data_ptr();
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// The number of elements of `tensor` (one call, no shape copied out).
int64_t tb_numel(const at::Tensor* tensor) noexcept { return tensor->numel(); }

// A new CPU `at::Tensor*` viewing `data` with `ndim` sizes and strides (in
// elements, non-negative), of DLPack dtype `dtype`, over a storage of
// `nbytes` that covers every element (checked by the caller). `release(context)`
// runs exactly once: when the last view of the storage dies, or before this
// returns an error; the caller never releases `context` itself.
//
// This is `at::from_blob(...).make_tensor()` less what the caller has already
// settled (the device, the storage size, the sizes' signs) and less the
// dispatch and tracer guards it sets around building a tensor that dispatches
// nothing: the same storage (not resizable, no allocator) and the same
// TensorImpl. In a profile of one-element `erf` calls, TensorMaker's own
// functions (make_tensor, computeStorageSize, the device check) took 3.7%.
char* tb_view_host(void* data, const int64_t* sizes, const int64_t* strides, int64_t ndim, size_t nbytes,
                   DLDataType dtype, void* context, void (*release)(void*), at::Tensor** out) noexcept {
  *out = nullptr;
  std::unique_ptr<void, void (*)(void*)> owned(context, release);
  try {
    const caffe2::TypeMeta meta = caffe2::TypeMeta::fromScalarType(at::toScalarType(dtype));
    // the DataPtr takes `context` (noexcept) before anything else can throw;
    // from then on its destructor releases it on every path
    c10::DataPtr data_ptr(data, owned.release(), release, c10::Device(c10::DeviceType::CPU));
    c10::Storage storage(c10::Storage::use_byte_size_t{}, nbytes, std::move(data_ptr), /*allocator=*/nullptr,
                         /*resizable=*/false);
    at::Tensor tensor =
        at::detail::make_tensor<c10::TensorImpl>(std::move(storage), c10::DispatchKeySet(c10::DispatchKey::CPU), meta);
    tensor.unsafeGetTensorImpl()->set_sizes_and_strides(at::IntArrayRef(sizes, static_cast<size_t>(ndim)),
                                                        at::IntArrayRef(strides, static_cast<size_t>(ndim)));
    *out = new at::Tensor(std::move(tensor));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// ---------------------------------------------------------------------------
// CUDA streams, for the DLPack stream hand-off. Reached through c10's
// device-generic interfaces (no CUDA headers, no link to c10_cuda): with a
// CPU-only libtorch, or no visible GPU, these return an error, never throw.
// A stream travels to Rust as c10's packed (id, device index, device type)
// triple plus its native handle (`cudaStream_t`, 0 for the legacy default).
// ---------------------------------------------------------------------------

struct TbStream {
  int64_t id;
  int64_t device_index;
  int64_t device_type;
  void* handle;
};

// The number of CUDA devices libtorch sees (0 without CUDA support or driver).
int64_t tb_cuda_device_count() noexcept {
  try {
    if (!c10::impl::hasDeviceGuardImpl(c10::DeviceType::CUDA)) {
      return 0;
    }
    return c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->deviceCount();
  } catch (...) {
    return 0;
  }
}

// libtorch's current stream for CUDA device `index` on the calling thread:
// the stream its kernels for that device are queued on.
char* tb_cuda_current_stream(int64_t index, TbStream* out) noexcept {
  try {
    const int64_t count = tb_cuda_device_count();
    TORCH_CHECK(index >= 0 && index < count, "cuda:", index,
                " is not a CUDA device libtorch sees (", count, " visible)");
    const auto* impl = c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA);
    const c10::Stream stream = impl->getStream(
        c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(index)));
    const c10::StreamData3 packed = stream.pack3();
    out->id = packed.stream_id;
    out->device_index = packed.device_index;
    out->device_type = static_cast<int64_t>(packed.device_type);
    out->handle = stream.native_handle();
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Makes the consumer's stream wait (on the device, not the host) for the work
// queued so far on `producer`: an event recorded on one, waited for by the
// other. `consumer` is a native handle as the DLPack protocol passes it
// (`cudaStream_t`, 2 for CUDA's per-thread default stream) or 0 for the
// legacy default stream; c10 names a foreign stream by its handle.
char* tb_cuda_stream_wait(const TbStream* producer, int64_t consumer) noexcept {
  try {
    const auto index = static_cast<c10::DeviceIndex>(producer->device_index);
    const c10::Stream from = c10::Stream::unpack3(
        producer->id, index, static_cast<c10::DeviceType>(producer->device_type));
    const c10::Stream to =
        c10::Stream::unpack3(consumer, index, c10::DeviceType::CUDA);
    c10::Event event(c10::DeviceType::CUDA);
    event.record(from);
    event.block(to);
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Blocks the calling thread until all work queued on `stream` has finished.
char* tb_cuda_stream_synchronize(const TbStream* stream) noexcept {
  try {
    c10::Stream::unpack3(stream->id,
                         static_cast<c10::DeviceIndex>(stream->device_index),
                         static_cast<c10::DeviceType>(stream->device_type))
        .synchronize();
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

void tb_free_error(char* message) noexcept { std::free(message); }

}  // extern "C"
