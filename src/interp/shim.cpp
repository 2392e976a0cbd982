// Calls any registered ATen overload by name through the c10 dispatcher with
// boxed arguments: the one generic path to every op of the registry (tch's
// generated methods cover a fixed subset with fixed signatures).
//
// Tensors cross the boundary as `at::Tensor*` (what tch's C_tensor is);
// results are new heap tensors the caller owns (tch::Tensor::from_ptr).

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>
#include <ATen/core/stack.h>
#include <ATen/ScalarOps.h>
#include <ATen/autocast_mode.h>
#include <torch/torch.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {

enum A2OKind {
  A2O_NONE = 0,
  A2O_TENSOR = 1,
  A2O_INT = 2,
  A2O_DOUBLE = 3,
  A2O_BOOL = 4,
  A2O_STRING = 5,
  A2O_INTS = 6,
  A2O_DOUBLES = 7,
  A2O_BOOLS = 8,
  A2O_TENSORS = 9,
  A2O_OPT_TENSORS = 10,  // null entries are None
  A2O_SCALAR_TYPE = 11,  // c10::ScalarType code in `i`
  A2O_DEVICE = 12,       // string in `s`
  A2O_LAYOUT = 13,       // c10::Layout code in `i`
  A2O_MEMORY_FORMAT = 14, // c10::MemoryFormat code in `i`
  // A Python number given for a Tensor argument: a 0-d "wrapped number"
  // tensor, which (like in eager PyTorch) does not promote the other operand.
  A2O_WRAPPED_INT = 15,
  A2O_WRAPPED_DOUBLE = 16,
  A2O_WRAPPED_BOOL = 17
};

typedef struct {
  int kind;
  void* tensor;
  int64_t i;
  double d;
  const char* s;
  const int64_t* ints;
  const double* doubles;
  void* const* tensors;
  size_t len;
} A2OArg;

typedef struct {
  int kind;  // A2O_NONE, A2O_TENSOR, A2O_INT, A2O_DOUBLE, A2O_BOOL, A2O_TENSORS
  void* tensor;
  int64_t i;
  double d;
  void** tensors;
  size_t len;
} A2OOut;

static char* dup_error(const std::string& message) {
  char* out = static_cast<char*>(std::malloc(message.size() + 1));
  std::memcpy(out, message.c_str(), message.size() + 1);
  return out;
}

static c10::IValue to_ivalue(const A2OArg& a) {
  switch (a.kind) {
    case A2O_NONE: return c10::IValue();
    case A2O_TENSOR: return c10::IValue(*static_cast<at::Tensor*>(a.tensor));
    case A2O_INT: return c10::IValue(a.i);
    case A2O_DOUBLE: return c10::IValue(a.d);
    case A2O_BOOL: return c10::IValue(a.i != 0);
    case A2O_STRING: return c10::IValue(std::string(a.s));
    case A2O_INTS: return c10::IValue(std::vector<int64_t>(a.ints, a.ints + a.len));
    case A2O_DOUBLES: return c10::IValue(std::vector<double>(a.doubles, a.doubles + a.len));
    case A2O_BOOLS: {
      c10::List<bool> list;
      for (size_t k = 0; k < a.len; ++k) list.push_back(a.ints[k] != 0);
      return c10::IValue(list);
    }
    case A2O_TENSORS: {
      c10::List<at::Tensor> list;
      for (size_t k = 0; k < a.len; ++k) list.push_back(*static_cast<at::Tensor*>(a.tensors[k]));
      return c10::IValue(list);
    }
    case A2O_OPT_TENSORS: {
      c10::List<std::optional<at::Tensor>> list;
      for (size_t k = 0; k < a.len; ++k) {
        if (a.tensors[k]) list.push_back(*static_cast<at::Tensor*>(a.tensors[k]));
        else list.push_back(std::nullopt);
      }
      return c10::IValue(list);
    }
    case A2O_SCALAR_TYPE: return c10::IValue(static_cast<c10::ScalarType>(a.i));
    case A2O_DEVICE: return c10::IValue(c10::Device(std::string(a.s)));
    case A2O_LAYOUT: return c10::IValue(static_cast<c10::Layout>(a.i));
    case A2O_MEMORY_FORMAT: return c10::IValue(static_cast<c10::MemoryFormat>(a.i));
    case A2O_WRAPPED_INT:
    case A2O_WRAPPED_DOUBLE:
    case A2O_WRAPPED_BOOL: {
      c10::Scalar value = a.kind == A2O_WRAPPED_INT ? c10::Scalar(a.i)
                          : a.kind == A2O_WRAPPED_BOOL ? c10::Scalar(a.i != 0)
                                                       : c10::Scalar(a.d);
      at::Tensor t = c10::scalar_to_tensor(value);
      t.unsafeGetTensorImpl()->set_wrapped_number(true);
      return c10::IValue(t);
    }
  }
  throw std::runtime_error("unknown argument kind " + std::to_string(a.kind));
}

static void from_ivalue(const c10::IValue& v, A2OOut* out) {
  std::memset(out, 0, sizeof(A2OOut));
  if (v.isNone()) {
    out->kind = A2O_NONE;
  } else if (v.isTensor()) {
    out->kind = A2O_TENSOR;
    out->tensor = new at::Tensor(v.toTensor());
  } else if (v.isInt() || v.isSymInt()) {
    out->kind = A2O_INT;
    out->i = v.isInt() ? v.toInt() : v.toSymInt().expect_int();
  } else if (v.isDouble()) {
    out->kind = A2O_DOUBLE;
    out->d = v.toDouble();
  } else if (v.isBool()) {
    out->kind = A2O_BOOL;
    out->i = v.toBool();
  } else if (v.isTensorList()) {
    auto list = v.toTensorVector();
    out->kind = A2O_TENSORS;
    out->len = list.size();
    out->tensors = static_cast<void**>(std::malloc(sizeof(void*) * (list.size() + 1)));
    for (size_t k = 0; k < list.size(); ++k) out->tensors[k] = new at::Tensor(list[k]);
  } else {
    throw std::runtime_error("unsupported result kind " + v.tagKind());
  }
}

// `aten::<name>`, or `name` itself when it has a namespace
// (`quantized_decomposed::quantize_per_tensor`, a custom op's `mylib::op`).
static std::string qualified(const char* name) {
  std::string s(name);
  return s.find("::") == std::string::npos ? "aten::" + s : s;
}

// Calls aten::<name>.<overload>; returns NULL on success, else an error the
// caller frees with a2o_free_string.
char* a2o_call(const char* name, const char* overload, const A2OArg* args, size_t nargs, A2OOut** outs,
               size_t* nouts) {
  try {
    auto handle = c10::Dispatcher::singleton().findSchemaOrThrow(
        qualified(name).c_str(), std::strcmp(overload, "default") == 0 ? "" : overload);
    torch::jit::Stack stack;
    stack.reserve(nargs);
    for (size_t k = 0; k < nargs; ++k) stack.push_back(to_ivalue(args[k]));
    handle.callBoxed(&stack);
    *nouts = stack.size();
    *outs = static_cast<A2OOut*>(std::malloc(sizeof(A2OOut) * (stack.size() + 1)));
    for (size_t k = 0; k < stack.size(); ++k) from_ivalue(stack[k], &(*outs)[k]);
    return nullptr;
  } catch (const std::exception& e) {
    return dup_error(e.what());
  }
}

// Calls <name>.<overload> with arguments by name: each argument of the
// schema takes the value of the same name, else its default (a custom op's
// call records only the arguments the program passed). A None for an
// argument that is not optional takes the default too.
char* a2o_call_named(const char* name, const char* overload, const char* const* names, const A2OArg* args,
                     size_t nargs, A2OOut** outs, size_t* nouts) {
  try {
    auto handle = c10::Dispatcher::singleton().findSchemaOrThrow(
        qualified(name).c_str(), std::strcmp(overload, "default") == 0 ? "" : overload);
    torch::jit::Stack stack;
    for (const auto& formal : handle.schema().arguments()) {
      size_t k = 0;
      while (k < nargs && formal.name() != names[k]) ++k;
      const bool given = k < nargs;
      const bool none = given && args[k].kind == A2O_NONE;
      const bool optional = formal.type()->kind() == c10::TypeKind::OptionalType;
      if (given && (!none || optional)) {
        stack.push_back(to_ivalue(args[k]));
      } else if (formal.default_value()) {
        stack.push_back(*formal.default_value());
      } else {
        throw std::runtime_error("argument '" + formal.name() + "' of " + qualified(name) + " is missing");
      }
    }
    handle.callBoxed(&stack);
    *nouts = stack.size();
    *outs = static_cast<A2OOut*>(std::malloc(sizeof(A2OOut) * (stack.size() + 1)));
    for (size_t k = 0; k < stack.size(); ++k) from_ivalue(stack[k], &(*outs)[k]);
    return nullptr;
  } catch (const std::exception& e) {
    return dup_error(e.what());
  }
}

void a2o_free_outs(A2OOut* outs, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    if (outs[k].kind == A2O_TENSORS) std::free(outs[k].tensors);
  }
  std::free(outs);
}

void a2o_free_string(char* s) { std::free(s); }

// The number of arguments of an overload's schema (to check a call's arity).
int64_t a2o_num_arguments(const char* name, const char* overload) {
  try {
    auto handle = c10::Dispatcher::singleton().findSchemaOrThrow(
        qualified(name).c_str(), std::strcmp(overload, "default") == 0 ? "" : overload);
    return static_cast<int64_t>(handle.schema().arguments().size());
  } catch (...) {
    return -1;
  }
}

// CPU autocast (`with torch.autocast("cpu", dtype)` in a captured forward):
// sets whether calls through the dispatcher run under it and its dtype (a
// c10::ScalarType code), with the cast cache off; returns the previous
// state in *prev_enabled / *prev_dtype for the caller to restore.
void a2o_set_autocast_cpu(bool enabled, int64_t dtype, bool* prev_enabled, int64_t* prev_dtype) {
  *prev_enabled = at::autocast::is_autocast_enabled(at::kCPU);
  *prev_dtype = static_cast<int64_t>(at::autocast::get_autocast_dtype(at::kCPU));
  at::autocast::set_autocast_enabled(at::kCPU, enabled);
  at::autocast::set_autocast_dtype(at::kCPU, static_cast<at::ScalarType>(dtype));
  at::autocast::set_autocast_cache_enabled(false);
}
}
