// torchbridge's C++ shim, operator-by-name half (torchbridge::aten),
// declared in Rust in src/ffi/aten.rs.
//
// Rust hands over a flat list of tagged argument values (an `Args` built with
// tb_aten_args_push); tb_aten_call finds the operator's schema in
// c10::Dispatcher, converts every value to the `c10::IValue` its parameter's
// type wants (reporting mismatches with the schema in the message), runs
// `callBoxed`, and returns the outputs as tagged values again (`Outputs`,
// read with the tb_aten_output_* accessors). Every entry point catches every
// C++ exception.

#include "error.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/function_schema.h>
#include <ATen/core/jit_type.h>
#include <ATen/core/stack.h>
#include <ATen/ScalarOps.h>
#include <c10/core/Device.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

using tb_shim::copy_message;
using tb_shim::describe_current_exception;

namespace tb_aten {

// Value tags; keep in sync with `tag` in src/ffi/aten.rs.
enum Tag : int32_t {
  kNone = 0,
  kBool = 1,
  kInt = 2,
  kFloat = 3,
  kComplex = 4,
  kStr = 5,
  kTensor = 6,
  kTensorList = 7,
  kOptTensorList = 8,
  kIntList = 9,
  kFloatList = 10,
  kBoolList = 11,
  kScalarType = 12,
  kDevice = 13,
  kLayout = 14,
  kMemoryFormat = 15,
  kOther = 16,
};

// One tagged value, an argument or an output. Which fields count depends on
// the tag: `i` (bool, int, scalar type, layout, memory format, device type),
// `j` (device index), `f`/`im` (float, complex), `s` (str; a description for
// kOther), `tensors` (one for kTensor; lists, with nullopt for None),
// `ints` (int and bool lists), `floats`.
struct Value {
  int32_t tag = kNone;
  bool read_only = false;  // tensors whose memory must not be written
  int64_t i = 0;
  int64_t j = -1;
  double f = 0.0;
  double im = 0.0;
  std::string s;
  std::vector<std::optional<at::Tensor>> tensors;
  std::vector<int64_t> ints;
  std::vector<double> floats;
};

struct Args {
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> keywords;
};

struct Outputs {
  std::vector<Value> values;
};

// The arguments do not fit this schema: the caller may try another overload.
class Mismatch : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The call is refused for a reason no overload can fix (a read-only write).
class Refused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::string schema_string(const c10::FunctionSchema& schema) {
  std::ostringstream out;
  out << schema;
  return out.str();
}

bool is_list_tag(int32_t tag) {
  return tag == kTensorList || tag == kOptTensorList || tag == kIntList || tag == kFloatList ||
         tag == kBoolList;
}

size_t list_len(const Value& v) {
  switch (v.tag) {
    case kTensorList:
    case kOptTensorList:
      return v.tensors.size();
    case kIntList:
    case kBoolList:
      return v.ints.size();
    case kFloatList:
      return v.floats.size();
    default:
      return 0;
  }
}

bool is_number(const Value& v) {
  return v.tag == kBool || v.tag == kInt || v.tag == kFloat || v.tag == kComplex;
}

std::string describe(const Value& v) {
  std::ostringstream out;
  switch (v.tag) {
    case kNone:
      return "None";
    case kBool:
      return v.i ? "bool True" : "bool False";
    case kInt:
      out << "int " << v.i;
      return out.str();
    case kFloat:
      out << "float " << v.f;
      return out.str();
    case kComplex:
      out << "complex (" << v.f << ", " << v.im << ")";
      return out.str();
    case kStr:
      return "str '" + v.s + "'";
    case kTensor:
      if (!v.tensors.empty() && v.tensors[0].has_value() && v.tensors[0]->defined()) {
        out << "Tensor of dtype " << v.tensors[0]->scalar_type() << " and shape "
            << v.tensors[0]->sizes();
        return out.str();
      }
      return "Tensor";
    case kTensorList:
      out << "a list of " << v.tensors.size() << " Tensors";
      return out.str();
    case kOptTensorList:
      out << "a list of " << v.tensors.size() << " optional Tensors";
      return out.str();
    case kIntList:
      out << "a list of " << v.ints.size() << " ints";
      return out.str();
    case kFloatList:
      out << "a list of " << v.floats.size() << " floats";
      return out.str();
    case kBoolList:
      out << "a list of " << v.ints.size() << " bools";
      return out.str();
    case kScalarType:
      out << "ScalarType " << static_cast<c10::ScalarType>(v.i);
      return out.str();
    case kDevice:
      return "Device";
    case kLayout:
      return "Layout";
    case kMemoryFormat:
      return "MemoryFormat";
    default:
      return "a value of an unknown kind";
  }
}

// Where a value goes: for messages and the read-only check.
struct Site {
  const c10::FunctionSchema& schema;
  const c10::Argument& param;
  size_t position;
};

[[noreturn]] void mismatch(const Site& site, const c10::TypePtr& expected, const Value& v) {
  std::ostringstream out;
  out << schema_string(site.schema) << ": argument '" << site.param.name() << "' (position "
      << site.position << ") must be " << expected->str() << ", not " << describe(v);
  throw Mismatch(out.str());
}

bool writes(const c10::Argument& param) {
  const c10::AliasInfo* alias = param.alias_info();
  if (alias == nullptr) {
    return false;
  }
  if (alias->isWrite()) {
    return true;
  }
  for (const auto& contained : alias->containedTypes()) {
    if (contained.isWrite()) {
      return true;
    }
  }
  return false;
}

void check_write(const Site& site, const Value& v) {
  if (v.read_only && writes(site.param)) {
    std::ostringstream out;
    out << schema_string(site.schema) << ": the operator writes into argument '"
        << site.param.name()
        << "', whose memory must not be written (a read-only array: numpy with "
           "writeable=False, a JAX array, or a copy made for a negative-stride or misaligned "
           "input); pass a writable array or use the out-of-place operator";
    throw Refused(out.str());
  }
}

c10::Scalar to_scalar(const Value& v) {
  switch (v.tag) {
    case kBool:
      return c10::Scalar(v.i != 0);
    case kInt:
      return c10::Scalar(static_cast<int64_t>(v.i));
    case kFloat:
      return c10::Scalar(v.f);
    default:
      return c10::Scalar(c10::complex<double>(v.f, v.im));
  }
}

std::string lower(std::string text) {
  for (auto& c : text) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const std::string prefix = "torch.";
  if (text.rfind(prefix, 0) == 0) {
    text = text.substr(prefix.size());
  }
  return text;
}

std::optional<c10::ScalarType> parse_scalar_type(const std::string& name) {
  static const std::pair<const char*, c10::ScalarType> table[] = {
      {"bool", c10::ScalarType::Bool},         {"int8", c10::ScalarType::Char},
      {"int16", c10::ScalarType::Short},       {"short", c10::ScalarType::Short},
      {"int32", c10::ScalarType::Int},         {"int", c10::ScalarType::Int},
      {"int64", c10::ScalarType::Long},        {"long", c10::ScalarType::Long},
      {"uint8", c10::ScalarType::Byte},        {"uint16", c10::ScalarType::UInt16},
      {"uint32", c10::ScalarType::UInt32},     {"uint64", c10::ScalarType::UInt64},
      {"float16", c10::ScalarType::Half},      {"half", c10::ScalarType::Half},
      {"bfloat16", c10::ScalarType::BFloat16}, {"float32", c10::ScalarType::Float},
      {"float", c10::ScalarType::Float},       {"float64", c10::ScalarType::Double},
      {"double", c10::ScalarType::Double},     {"complex32", c10::ScalarType::ComplexHalf},
      {"complex64", c10::ScalarType::ComplexFloat},
      {"cfloat", c10::ScalarType::ComplexFloat},
      {"complex128", c10::ScalarType::ComplexDouble},
      {"cdouble", c10::ScalarType::ComplexDouble},
  };
  const std::string key = lower(name);
  for (const auto& [candidate, type] : table) {
    if (key == candidate) {
      return type;
    }
  }
  return std::nullopt;
}

std::optional<c10::Layout> parse_layout(const std::string& name) {
  static const std::pair<const char*, c10::Layout> table[] = {
      {"strided", c10::Layout::Strided},      {"sparse_coo", c10::Layout::Sparse},
      {"sparse_csr", c10::Layout::SparseCsr}, {"sparse_csc", c10::Layout::SparseCsc},
      {"sparse_bsr", c10::Layout::SparseBsr}, {"sparse_bsc", c10::Layout::SparseBsc},
      {"_mkldnn", c10::Layout::Mkldnn},       {"jagged", c10::Layout::Jagged},
  };
  const std::string key = lower(name);
  for (const auto& [candidate, layout] : table) {
    if (key == candidate) {
      return layout;
    }
  }
  return std::nullopt;
}

std::optional<c10::MemoryFormat> parse_memory_format(const std::string& name) {
  static const std::pair<const char*, c10::MemoryFormat> table[] = {
      {"contiguous_format", c10::MemoryFormat::Contiguous},
      {"preserve_format", c10::MemoryFormat::Preserve},
      {"channels_last", c10::MemoryFormat::ChannelsLast},
      {"channels_last_3d", c10::MemoryFormat::ChannelsLast3d},
  };
  const std::string key = lower(name);
  for (const auto& [candidate, format] : table) {
    if (key == candidate) {
      return format;
    }
  }
  return std::nullopt;
}

c10::IValue convert(const Site& site, const c10::TypePtr& type, const Value& v, bool lenient);

c10::IValue convert_list(const Site& site, const c10::TypePtr& type, const Value& v, bool lenient) {
  const c10::TypePtr& elem = type->castRaw<c10::ListType>()->getElementType();
  const bool empty = is_list_tag(v.tag) && list_len(v) == 0;
  using K = c10::TypeKind;
  switch (elem->kind()) {
    case K::IntType:
    case K::SymIntType: {
      if (v.tag == kIntList || empty) {
        return c10::IValue(c10::List<int64_t>(v.ints));
      }
      if (v.tag == kInt) {  // an int broadcasts to int[N], as torch does
        const size_t n = site.param.N().has_value() ? static_cast<size_t>(*site.param.N()) : 1;
        return c10::IValue(c10::List<int64_t>(std::vector<int64_t>(n, v.i)));
      }
      break;
    }
    case K::FloatType:
    case K::SymFloatType: {
      if (v.tag == kFloatList || empty) {
        return c10::IValue(c10::List<double>(v.floats));
      }
      if (v.tag == kIntList) {
        std::vector<double> values(v.ints.begin(), v.ints.end());
        return c10::IValue(c10::List<double>(values));
      }
      break;
    }
    case K::BoolType:
    case K::SymBoolType: {
      if (v.tag == kBoolList || empty) {
        c10::List<bool> values;
        for (int64_t b : v.ints) {
          values.push_back(b != 0);
        }
        return c10::IValue(values);
      }
      break;
    }
    case K::TensorType: {
      if (v.tag == kTensorList || empty) {
        check_write(site, v);
        c10::List<at::Tensor> values;
        for (const auto& t : v.tensors) {
          if (!t.has_value()) {
            mismatch(site, type, v);
          }
          values.push_back(*t);
        }
        return c10::IValue(values);
      }
      break;
    }
    case K::OptionalType: {
      const c10::TypePtr& inner = elem->castRaw<c10::OptionalType>()->getElementType();
      if (inner->kind() == K::TensorType &&
          (v.tag == kTensorList || v.tag == kOptTensorList || empty)) {
        check_write(site, v);
        c10::List<std::optional<at::Tensor>> values;
        for (const auto& t : v.tensors) {
          values.push_back(t);
        }
        return c10::IValue(values);
      }
      break;
    }
    case K::NumberType: {
      std::vector<c10::Scalar> values;
      if (v.tag == kIntList) {
        for (int64_t x : v.ints) values.emplace_back(x);
      } else if (v.tag == kFloatList) {
        for (double x : v.floats) values.emplace_back(x);
      } else if (v.tag == kBoolList) {
        for (int64_t x : v.ints) values.emplace_back(x != 0);
      } else if (!empty) {
        break;
      }
      c10::impl::GenericList list(c10::NumberType::get());
      for (const auto& s : values) {
        list.push_back(c10::IValue(s));
      }
      return c10::IValue(list);
    }
    default:
      break;
  }
  mismatch(site, type, v);
}

c10::IValue convert(const Site& site, const c10::TypePtr& type, const Value& v, bool lenient) {
  using K = c10::TypeKind;
  switch (type->kind()) {
    case K::OptionalType:
      if (v.tag == kNone) {
        return c10::IValue();
      }
      return convert(site, type->castRaw<c10::OptionalType>()->getElementType(), v, lenient);
    case K::TensorType:
      if (v.tag == kTensor && !v.tensors.empty() && v.tensors[0].has_value()) {
        check_write(site, v);
        return c10::IValue(*v.tensors[0]);
      }
      if (lenient && is_number(v)) {  // a Python number as a wrapped scalar tensor
        at::Tensor t = c10::scalar_to_tensor(to_scalar(v));
        t.unsafeGetTensorImpl()->set_wrapped_number(true);
        return c10::IValue(t);
      }
      break;
    case K::IntType:
    case K::SymIntType:
      if (v.tag == kInt) {
        return c10::IValue(v.i);
      }
      if (lenient && v.tag == kBool) {
        return c10::IValue(v.i);
      }
      break;
    case K::FloatType:
    case K::SymFloatType:
      if (v.tag == kFloat) {
        return c10::IValue(v.f);
      }
      if (v.tag == kInt) {
        return c10::IValue(static_cast<double>(v.i));
      }
      break;
    case K::ComplexType:
      if (v.tag == kComplex || v.tag == kFloat) {
        return c10::IValue(c10::complex<double>(v.f, v.tag == kComplex ? v.im : 0.0));
      }
      if (v.tag == kInt) {
        return c10::IValue(c10::complex<double>(static_cast<double>(v.i), 0.0));
      }
      break;
    case K::BoolType:
    case K::SymBoolType:
      if (v.tag == kBool) {
        return c10::IValue(v.i != 0);
      }
      break;
    case K::NumberType:
      if (is_number(v)) {
        return c10::IValue(to_scalar(v));
      }
      if (lenient && v.tag == kTensor && !v.tensors.empty() && v.tensors[0].has_value() &&
          v.tensors[0]->numel() == 1) {
        return c10::IValue(v.tensors[0]->item());
      }
      break;
    case K::StringType:
      if (v.tag == kStr) {
        return c10::IValue(v.s);
      }
      break;
    case K::ScalarTypeType:
      if (v.tag == kScalarType) {
        return c10::IValue(static_cast<c10::ScalarType>(v.i));
      }
      if (v.tag == kStr) {
        if (auto parsed = parse_scalar_type(v.s)) {
          return c10::IValue(*parsed);
        }
      }
      break;
    case K::LayoutType:
      if (v.tag == kLayout) {
        return c10::IValue(static_cast<c10::Layout>(v.i));
      }
      if (v.tag == kStr) {
        if (auto parsed = parse_layout(v.s)) {
          return c10::IValue(*parsed);
        }
      }
      break;
    case K::MemoryFormatType:
      if (v.tag == kMemoryFormat) {
        return c10::IValue(static_cast<c10::MemoryFormat>(v.i));
      }
      if (v.tag == kStr) {
        if (auto parsed = parse_memory_format(v.s)) {
          return c10::IValue(*parsed);
        }
      }
      break;
    case K::DeviceObjType:
      if (v.tag == kDevice) {
        return c10::IValue(c10::Device(static_cast<c10::DeviceType>(v.i),
                                       static_cast<c10::DeviceIndex>(v.j)));
      }
      if (v.tag == kStr) {
        try {
          return c10::IValue(c10::Device(v.s));
        } catch (const c10::Error&) {
          // not a device string: a mismatch below
        }
      }
      break;
    case K::ListType:
      return convert_list(site, type, v, lenient);
    default: {
      std::ostringstream out;
      out << schema_string(site.schema) << ": argument '" << site.param.name()
          << "' has type " << type->str() << ", which torchbridge.ops cannot pass"
          << (v.tag == kNone ? "" : " (only None is accepted where the type is optional)");
      throw Mismatch(out.str());
    }
  }
  mismatch(site, type, v);
}

torch::jit::Stack bind(const c10::FunctionSchema& schema, const Args& args, bool lenient) {
  const auto& params = schema.arguments();
  size_t max_positional = 0;
  for (const auto& p : params) {
    if (!p.kwarg_only()) {
      ++max_positional;
    }
  }
  if (args.positional.size() > max_positional) {
    std::ostringstream out;
    out << schema_string(schema) << ": takes at most " << max_positional
        << " positional argument(s), " << args.positional.size() << " given";
    throw Mismatch(out.str());
  }
  std::vector<bool> used(args.keywords.size(), false);
  torch::jit::Stack stack;
  stack.reserve(params.size());
  for (size_t k = 0; k < params.size(); ++k) {
    const auto& p = params[k];
    const Value* given = k < args.positional.size() ? &args.positional[k] : nullptr;
    for (size_t w = 0; w < args.keywords.size(); ++w) {
      if (args.keywords[w].first != p.name()) {
        continue;
      }
      if (given != nullptr) {
        throw Mismatch(schema_string(schema) + ": got multiple values for argument '" +
                       p.name() + "'");
      }
      given = &args.keywords[w].second;
      used[w] = true;
    }
    if (given != nullptr) {
      stack.push_back(convert(Site{schema, p, k}, p.real_type(), *given, lenient));
    } else if (p.default_value().has_value()) {
      stack.push_back(*p.default_value());
    } else {
      std::ostringstream out;
      out << schema_string(schema) << ": missing required argument '" << p.name()
          << "' (position " << k << ")";
      throw Mismatch(out.str());
    }
  }
  for (size_t w = 0; w < args.keywords.size(); ++w) {
    if (!used[w]) {
      throw Mismatch(schema_string(schema) + ": unexpected keyword argument '" +
                     args.keywords[w].first + "'");
    }
  }
  return stack;
}

Value from_ivalue(const c10::IValue& iv) {
  Value v;
  if (iv.isNone()) {
    v.tag = kNone;
  } else if (iv.isTensor()) {
    const at::Tensor& t = iv.toTensor();
    if (t.defined()) {
      v.tag = kTensor;
      v.tensors.emplace_back(t);
    }
  } else if (iv.isTensorList()) {
    v.tag = kTensorList;
    for (const at::Tensor& t : iv.toTensorVector()) {
      if (!t.defined()) {
        v.tag = kOptTensorList;
        v.tensors.emplace_back(std::nullopt);
      } else {
        v.tensors.emplace_back(t);
      }
    }
  } else if (iv.isOptionalTensorList()) {
    v.tag = kOptTensorList;
    for (const auto& t : iv.toOptionalTensorVector()) {
      v.tensors.push_back(t.has_value() && t->defined() ? t : std::nullopt);
    }
  } else if (iv.isBool()) {
    v.tag = kBool;
    v.i = iv.toBool() ? 1 : 0;
  } else if (iv.isInt()) {
    v.tag = kInt;
    v.i = iv.toInt();
  } else if (iv.isSymInt()) {
    v.tag = kInt;
    v.i = iv.toSymInt().guard_int(__FILE__, __LINE__);
  } else if (iv.isDouble()) {
    v.tag = kFloat;
    v.f = iv.toDouble();
  } else if (iv.isSymFloat()) {
    v.tag = kFloat;
    v.f = iv.toSymFloat().guard_float(__FILE__, __LINE__);
  } else if (iv.isComplexDouble()) {
    v.tag = kComplex;
    const auto c = iv.toComplexDouble();
    v.f = c.real();
    v.im = c.imag();
  } else if (iv.isString()) {
    v.tag = kStr;
    v.s = iv.toStringRef();
  } else if (iv.isIntList()) {
    v.tag = kIntList;
    v.ints = iv.toIntVector();
  } else if (iv.isDoubleList()) {
    v.tag = kFloatList;
    v.floats = iv.toDoubleVector();
  } else if (iv.isBoolList()) {
    v.tag = kBoolList;
    for (bool b : iv.toBoolList()) {
      v.ints.push_back(b ? 1 : 0);
    }
  } else if (iv.isDevice()) {
    v.tag = kDevice;
    const c10::Device d = iv.toDevice();
    v.i = static_cast<int64_t>(d.type());
    v.j = d.has_index() ? d.index() : -1;
    v.s = d.str();
  } else {
    v.tag = kOther;
    v.s = iv.tagKind();
  }
  return v;
}

char* with_prefix(const std::string& prefix, char* message) noexcept {
  if (message == nullptr) {
    return nullptr;
  }
  try {
    std::string text = prefix + ": " + message;
    std::free(message);
    return copy_message(text.c_str());
  } catch (...) {
    return message;
  }
}

}  // namespace tb_aten

extern "C" {

// A new, empty argument list (free it with tb_aten_args_free).
char* tb_aten_args_new(tb_aten::Args** out) noexcept {
  *out = nullptr;
  try {
    *out = new tb_aten::Args();
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

void tb_aten_args_free(tb_aten::Args* args) noexcept { delete args; }

// Appends one tagged value, positional when `keyword` is null. `tensors`
// holds `n_tensors` pointers (null: None in an optional-tensor list); `ints`
// or `floats` hold `n` values for the list tags; `s` holds `s_len` bytes.
char* tb_aten_args_push(tb_aten::Args* args, const char* keyword, size_t keyword_len,
                        int32_t tag, int64_t i, int64_t j, double f, double im, const char* s,
                        size_t s_len, const at::Tensor* const* tensors, size_t n_tensors,
                        const int64_t* ints, const double* floats, size_t n,
                        int32_t read_only) noexcept {
  try {
    tb_aten::Value v;
    v.tag = tag;
    v.read_only = read_only != 0;
    v.i = i;
    v.j = j;
    v.f = f;
    v.im = im;
    if (s != nullptr) {
      v.s.assign(s, s_len);
    }
    for (size_t k = 0; k < n_tensors; ++k) {
      if (tensors[k] == nullptr) {
        v.tensors.emplace_back(std::nullopt);
      } else {
        v.tensors.emplace_back(*tensors[k]);
      }
    }
    if (ints != nullptr) {
      v.ints.assign(ints, ints + n);
    }
    if (floats != nullptr) {
      v.floats.assign(floats, floats + n);
    }
    if (keyword == nullptr) {
      args->positional.push_back(std::move(v));
    } else {
      args->keywords.emplace_back(std::string(keyword, keyword_len), std::move(v));
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Calls `name.overload` with `args`. `*status` says what a non-null message
// means: 0 libtorch raised, 1 the arguments do not fit this overload's schema
// (try another), 2 refused (a write into read-only memory), 3 no such
// operator. On success `*out` owns the outputs (free with tb_aten_outputs_free).
char* tb_aten_call(const char* name, const char* overload, const tb_aten::Args* args,
                   int32_t lenient, tb_aten::Outputs** out, int32_t* status) noexcept {
  *out = nullptr;
  *status = 0;
  std::string qualified;
  try {
    qualified = std::string(name) + (overload[0] == '\0' ? "" : ".") + overload;
    auto handle = c10::Dispatcher::singleton().findSchema({name, overload});
    if (!handle.has_value()) {
      *status = 3;
      return copy_message(("no operator " + qualified + " in libtorch's dispatcher").c_str());
    }
    torch::jit::Stack stack;
    try {
      stack = tb_aten::bind(handle->schema(), *args, lenient != 0);
    } catch (const tb_aten::Mismatch& e) {
      *status = 1;
      return copy_message(e.what());
    } catch (const tb_aten::Refused& e) {
      *status = 2;
      return copy_message(e.what());
    }
    handle->callBoxed(stack);
    auto outputs = std::make_unique<tb_aten::Outputs>();
    outputs->values.reserve(stack.size());
    for (const auto& iv : stack) {
      outputs->values.push_back(tb_aten::from_ivalue(iv));
    }
    *out = outputs.release();
    return nullptr;
  } catch (...) {
    return tb_aten::with_prefix(qualified, describe_current_exception());
  }
}

void tb_aten_outputs_free(tb_aten::Outputs* outputs) noexcept { delete outputs; }

size_t tb_aten_outputs_len(const tb_aten::Outputs* outputs) noexcept {
  return outputs->values.size();
}

// The tag, scalar fields and element count (lists) of output `k`.
int32_t tb_aten_output_get(const tb_aten::Outputs* outputs, size_t k, int64_t* i, int64_t* j,
                           double* f, double* im, size_t* len) noexcept {
  const tb_aten::Value& v = outputs->values[k];
  *i = v.i;
  *j = v.j;
  *f = v.f;
  *im = v.im;
  *len = v.tag == tb_aten::kTensor ? 1 : tb_aten::list_len(v);
  return v.tag;
}

// Element `e` of output `k`'s tensors as a new `at::Tensor*` (null for None).
char* tb_aten_output_tensor(const tb_aten::Outputs* outputs, size_t k, size_t e,
                            at::Tensor** out) noexcept {
  *out = nullptr;
  try {
    const auto& t = outputs->values.at(k).tensors.at(e);
    if (t.has_value()) {
      *out = new at::Tensor(*t);
    }
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Output `k`'s int (and bool) list, or float list, copied into `buf`
// (exactly `len` values, from tb_aten_output_get).
void tb_aten_output_ints(const tb_aten::Outputs* outputs, size_t k, int64_t* buf) noexcept {
  const auto& ints = outputs->values[k].ints;
  std::copy(ints.begin(), ints.end(), buf);
}

void tb_aten_output_floats(const tb_aten::Outputs* outputs, size_t k, double* buf) noexcept {
  const auto& floats = outputs->values[k].floats;
  std::copy(floats.begin(), floats.end(), buf);
}

// Output `k`'s string (str, or a description for devices and other kinds);
// valid until the outputs are freed.
const char* tb_aten_output_str(const tb_aten::Outputs* outputs, size_t k, size_t* len) noexcept {
  const auto& s = outputs->values[k].s;
  *len = s.size();
  return s.data();
}

// The schema of `name.overload` as a string; status 3 when there is none.
char* tb_aten_schema(const char* name, const char* overload, char** out,
                     int32_t* status) noexcept {
  *out = nullptr;
  *status = 0;
  try {
    auto handle = c10::Dispatcher::singleton().findSchema({name, overload});
    if (!handle.has_value()) {
      *status = 3;
      return copy_message((std::string("no operator ") + name + (overload[0] ? "." : "") +
                           overload + " in libtorch's dispatcher")
                              .c_str());
    }
    *out = copy_message(tb_aten::schema_string(handle->schema()).c_str());
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

// Every operator with a schema in the dispatcher, one "name\toverload" per line.
char* tb_aten_op_names(char** out) noexcept {
  *out = nullptr;
  try {
    std::string text;
    auto& dispatcher = c10::Dispatcher::singleton();
    for (const auto& op : dispatcher.getAllOpNames()) {
      if (!dispatcher.findSchema(op).has_value()) {
        continue;  // registered kernels without a schema cannot be called
      }
      text += op.name;
      text += '\t';
      text += op.overload_name;
      text += '\n';
    }
    *out = copy_message(text.c_str());
    return nullptr;
  } catch (...) {
    return describe_current_exception();
  }
}

}  // extern "C"
