// torchbridge's C++ shim, torch-tensor half: a Python `torch.Tensor` taken as
// the `at::Tensor` it is, and a result handed back the same way, declared in
// Rust in src/ffi/tensor_impl.rs.
//
// torch and torchbridge share one libtorch in the process, so a torch tensor
// needs no DLPack exchange: `tensor._cdata` is the address of its
// `c10::TensorImpl`, and an `at::Tensor` holding a new reference to that impl
// is the caller's tensor itself, autograd metadata included (DLPack carries
// memory only, so a DLPack alias drops `requires_grad` and the graph). Ops
// libtorch runs on it record their backward as they would from Python. The
// way back is torch's own `torch._C._wrap_tensor_impl`, given the result's
// impl address (src/python/container.rs), or where libtorch_python (loaded
// by `import torch`) exports it, the function behind it, `THPVariable_Wrap`,
// called directly: a tenth of the cost of the Python call.
//
// Only plain tensors take this route: a tensor subclass dispatching to Python
// (`__torch_dispatch__`: FakeTensor, FunctionalTensor) or a functorch wrapper
// (no storage of its own) would send torchbridge's kernels, which read memory,
// somewhere they must not go; those are declined and take the DLPack route,
// whose export refuses them with torch's own message.

#include "error.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

#include <dlfcn.h>

#include <mutex>
#include <unordered_set>
#include <vector>

using tb_shim::describe_current_exception;

// torch's `THPVariable_Wrap(const at::TensorBase&)` (torch/csrc/autograd/
// python_variable.h): the Python `torch.Tensor` of an `at::Tensor`, its
// existing object where it has one, as a new reference (null with a Python
// error set on failure). Looked up once in the loaded libtorch_python;
// null where torch is not imported yet or does not export it.
namespace {

using WrapTensor = void* (*)(const at::TensorBase&);

WrapTensor wrap_tensor_function() {
  static WrapTensor found = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    // RTLD_NOLOAD: only the copy `import torch` loaded, never a second one
    void* library = dlopen("libtorch_python.so", RTLD_LAZY | RTLD_NOLOAD);
    if (library != nullptr) {
      found = reinterpret_cast<WrapTensor>(dlsym(library, "_Z16THPVariable_WrapRKN2at10TensorBaseE"));
      dlclose(library);  // drops the reference dlopen took; torch's own keeps it loaded
    }
  });
  return found;
}

}  // namespace

extern "C" {

// The tensor whose `c10::TensorImpl` lives at `impl` (a live tensor's
// `_cdata`), as a new `at::Tensor` sharing it (or, with its conjugate or
// negative bit set, that bit applied), in `*out`; `*out` stays null when the
// tensor is not a plain strided CPU/CUDA tensor with storage.
char* tb_tensor_from_impl(void* impl, at::Tensor** out) {
  try {
    *out = nullptr;
    auto* raw = static_cast<c10::TensorImpl*>(impl);
    TORCH_CHECK(raw != nullptr, "null TensorImpl");
    auto ptr = c10::intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>::unsafe_reclaim_from_nonowning(raw);
    at::Tensor tensor(std::move(ptr));
    const bool plain = !raw->is_python_dispatch() && raw->has_storage() && raw->layout() == c10::kStrided &&
                       (raw->device_type() == c10::DeviceType::CPU || raw->device_type() == c10::DeviceType::CUDA);
    if (plain) {
      // torchbridge's kernels read memory: a lazy conjugate or negation is
      // applied first (each a differentiable op, skipped when the bit is unset).
      if (tensor.is_conj()) {
        tensor = tensor.resolve_conj();
      }
      if (tensor.is_neg()) {
        tensor = tensor.resolve_neg();
      }
      *out = new at::Tensor(std::move(tensor));
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// `tensor` with a lazy conjugate or negation applied (each a differentiable
// op) as a new `at::Tensor` in `*out`; `*out` stays null when neither bit is
// set, the common case, answered in this one call.
char* tb_resolve_lazy(const at::Tensor* tensor, at::Tensor** out) {
  try {
    *out = nullptr;
    if (tensor->is_conj() || tensor->is_neg()) {
      *out = new at::Tensor(tensor->resolve_conj().resolve_neg());
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// The address of `tensor`'s `c10::TensorImpl` (what `_wrap_tensor_impl` takes).
void* tb_tensor_impl(const at::Tensor* tensor) {
  return tensor->unsafeGetTensorImpl();
}

// Whether the tensor whose impl lives at `impl` (a live tensor's `_cdata`)
// requires grad, read from its autograd metadata.
bool tb_impl_requires_grad(void* impl) {
  return static_cast<c10::TensorImpl*>(impl)->requires_grad();
}

// Whether `tb_wrap_tensor` can run: torch is imported and exports its wrap.
// Asked only once torch is imported (the answer is kept).
bool tb_wrap_tensor_available() {
  return wrap_tensor_function() != nullptr;
}

// `tensor` as its Python `torch.Tensor` (a new reference) in `*out`, through
// torch's own wrap; `*out` null with a Python error set where that failed.
// The caller holds the GIL and checked `tb_wrap_tensor_available()`.
char* tb_wrap_tensor(const at::Tensor* tensor, void** out) {
  try {
    *out = nullptr;
    const WrapTensor wrap = wrap_tensor_function();
    TORCH_CHECK(wrap != nullptr, "torch's THPVariable_Wrap is not loaded");
    *out = wrap(*tensor);
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Whether autograd records on this thread now (`torch.is_grad_enabled()`;
// false under `torch.no_grad()` and in inference mode).
bool tb_grad_mode_enabled() {
  return c10::GradMode::is_enabled();
}

// Dispatch below autograd on the calling thread, from enter to exit (the
// pointer enter returns; null if it could not be made): libtorch's own guard
// for work that records no gradient (`at::AutoDispatchBelowADInplaceOrView`,
// which every autograd kernel sets before calling the op beneath it). Exits
// must come on the same thread, innermost first.
void* tb_below_autograd_enter() {
  try {
    return new at::AutoDispatchBelowADInplaceOrView();
  } catch (...) {
    return nullptr;
  }
}

void tb_below_autograd_exit(void* guard) {
  delete static_cast<at::AutoDispatchBelowADInplaceOrView*>(guard);
}

// Whether `output`'s autograd graph reaches the tensor whose impl is at
// `input_impl` (a live tensor's `_cdata`): its gradient accumulator (a leaf)
// or its grad_fn; `output` being that tensor itself counts. A routine whose
// result requires grad through one input but was cut from another (taken to
// the host, detached) is caught here, one walk over the graph's nodes.
char* tb_graph_reaches(const at::Tensor* output, void* input_impl, bool* reaches) {
  try {
    *reaches = false;
    auto* raw = static_cast<c10::TensorImpl*>(input_impl);
    TORCH_CHECK(raw != nullptr, "null TensorImpl");
    if (output->unsafeGetTensorImpl() == raw) {
      *reaches = true;
      return nullptr;
    }
    at::Tensor input(c10::intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>::unsafe_reclaim_from_nonowning(raw));
    const auto target = torch::autograd::impl::gradient_edge(input).function;
    const auto& root = output->grad_fn();
    if (!target || !root) {
      return nullptr;
    }
    std::vector<torch::autograd::Node*> pending{root.get()};
    std::unordered_set<torch::autograd::Node*> seen;
    while (!pending.empty()) {
      torch::autograd::Node* node = pending.back();
      pending.pop_back();
      if (node == target.get()) {
        *reaches = true;
        return nullptr;
      }
      if (!seen.insert(node).second) {
        continue;
      }
      for (const auto& edge : node->next_edges()) {
        if (edge.function) {
          pending.push_back(edge.function.get());
        }
      }
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
