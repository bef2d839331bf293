// torchbridge's C++ shim, autograd half: a value whose derivatives are given,
// declared in Rust in src/ffi/autograd.rs (used by `crate::autograd`).
//
// Some routines compute their value in a way autograd cannot follow, or
// follows badly: CPU kernels (k0, the orthogonal polynomials' recurrences),
// Newton iterations (betaincinv, stdtrit), or composites whose untaken
// branches make 0 * inf = nan in the backward pass (the Carlson integrals at
// a zero argument). For those the derivative is known in closed form (DLMF),
// as a tensor expression built from the routine's inputs with autograd on.
//
// `tb_with_derivatives(value, inputs, derivatives)` returns `value` (computed
// without a graph) attached to one autograd node whose backward is
// `grad * conj(derivative_i)` for input i, summed to the input's shape where
// it was broadcast. The derivatives are saved with their own graph, so a
// backward with `create_graph=True` differentiates through them: second
// derivatives are exact too, not zero.

#include "error.h"

#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cstddef>
#include <vector>

using tb_shim::describe_current_exception;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

struct WithDerivatives : public torch::autograd::Function<WithDerivatives> {
  // `inputs` and `derivatives` pair up; `value` carries no graph. (Tensor
  // lists as `at::TensorList`: autograd takes those as inputs, a
  // `variable_list` it would not.)
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& value, at::TensorList inputs,
                            at::TensorList derivatives) {
    std::vector<at::Tensor> saved(derivatives.begin(), derivatives.end());
    std::vector<int64_t> ranks;
    std::vector<int64_t> sizes;
    for (const auto& input : inputs) {
      ranks.push_back(input.dim());
      sizes.insert(sizes.end(), input.sizes().begin(), input.sizes().end());
    }
    ctx->saved_data["ranks"] = ranks;
    ctx->saved_data["sizes"] = sizes;
    ctx->save_for_backward(saved);
    // (an input returned as it is would be an alias of a non-differentiable input)
    return value.view_as(value);
  }

  static variable_list backward(AutogradContext* ctx, variable_list grad_outputs) {
    const auto derivatives = ctx->get_saved_variables();
    const auto ranks = ctx->saved_data["ranks"].toIntVector();
    const auto sizes = ctx->saved_data["sizes"].toIntVector();
    const at::Tensor& grad = grad_outputs[0];
    const size_t n = derivatives.size();
    // (value, inputs..., derivatives...): the value and the derivatives get none
    variable_list out(1 + 2 * n);
    size_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
      const auto rank = static_cast<size_t>(ranks[i]);
      const c10::IntArrayRef shape(sizes.data() + offset, rank);
      offset += rank;
      if (!ctx->needs_input_grad(1 + i)) {
        continue;
      }
      const at::Tensor& d = derivatives[i];
      at::Tensor g = grad * (d.is_complex() ? d.conj() : d);
      out[1 + i] = at::sum_to(g, shape);
    }
    return out;
  }
};

}  // namespace

extern "C" {

// `value` (no graph) with the derivatives `derivatives[i]` with respect to
// `inputs[i]` (each broadcastable to the value's shape), as a new tensor in
// `*out`.
char* tb_with_derivatives(const at::Tensor* value, const at::Tensor* const* inputs,
                          const at::Tensor* const* derivatives, size_t n, at::Tensor** out) {
  try {
    *out = nullptr;
    variable_list xs;
    variable_list ds;
    for (size_t i = 0; i < n; ++i) {
      xs.push_back(*inputs[i]);
      ds.push_back(*derivatives[i]);
    }
    *out = new at::Tensor(WithDerivatives::apply(value->detach(), at::TensorList(xs), at::TensorList(ds)));
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
