// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(aten-remove-inplace)' | FileCheck %s

// An inplace op becomes its functional overload; later reads see the new value.
// CHECK-LABEL: func.func @inplace_chain
// The written user input is an extra result.
// CHECK-SAME: -> (tensor<4xf32> {aten.kind = "user_output", aten.name = "out"}, tensor<4xf32> {aten.kind = "user_input_mutation", aten.name = "x", aten.target = "x"})
// CHECK: %[[A:.*]] = "aten.mul.Tensor"(%arg0) {other = 2.000000e+00 : f64}
// CHECK: %[[B:.*]] = "aten.add.Tensor"(%[[A]], %arg1) {alpha = 1 : i64}
// CHECK: %[[C:.*]] = "aten.relu.default"(%[[B]])
// CHECK: return %[[C]], %[[B]] :
// CHECK-NOT: "aten.mul_.Tensor"
func.func @inplace_chain(%arg0: tensor<4xf32> {aten.name = "x"}, %arg1: tensor<4xf32> {aten.name = "y"}) -> (tensor<4xf32> {aten.kind = "user_output", aten.name = "out"}) {
  %0 = "aten.mul_.Tensor"(%arg0) {other = 2.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "aten.add_.Tensor"(%0, %arg1) {alpha = 1 : i64} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "aten.relu.default"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// A buffer written in place becomes a buffer_mutation result, and loses
// the values the importer attached (not a constant of the program).
// CHECK-LABEL: func.func @buffer
// CHECK-SAME: tensor<i64> {aten.kind = "buffer_mutation", aten.name = "steps", aten.target = "steps"}
// CHECK: %[[W:.*]] = "aten.weight"() {kind = "buffer", name = "steps"} : () -> tensor<i64>
// CHECK: %[[N:.*]] = "aten.add.Tensor"(%[[W]]) {alpha = 1 : i64, other = 1 : i64}
// CHECK: return %arg0, %[[N]] : tensor<2xf32>, tensor<i64>
func.func @buffer(%arg0: tensor<2xf32>) -> (tensor<2xf32> {aten.kind = "user_output", aten.name = "x"}) {
  %w = "aten.weight"() {kind = "buffer", name = "steps", value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %0 = "aten.add_.Tensor"(%w) {alpha = 1 : i64, other = 1 : i64} : (tensor<i64>) -> tensor<i64>
  return %arg0 : tensor<2xf32>
}

// -----

// A write through a view goes back into the base with the view's inverse,
// and a view taken before the write is re-taken from the new base.
// CHECK-LABEL: func.func @through_view
// CHECK: %[[Z:.*]] = "aten.clone.default"(%arg0)
// CHECK: %[[V:.*]] = "aten.slice.Tensor"(%[[Z]]) {dim = 1 : i64, end = 3 : i64, start = 1 : i64, step = 1 : i64}
// CHECK: %[[N:.*]] = "aten.copy.default"(%[[V]], %arg1) {non_blocking = false}
// CHECK: %[[Z2:.*]] = "aten.slice_scatter.default"(%[[Z]], %[[N]]) {dim = 1 : i64, end = 3 : i64, start = 1 : i64, step = 1 : i64}
// CHECK: %[[R:.*]] = "aten.neg.default"(%[[Z2]])
// CHECK: return %[[R]]
func.func @through_view(%arg0: tensor<2x8xf32>, %arg1: tensor<2x2xf32>) -> tensor<2x8xf32> {
  %z = "aten.clone.default"(%arg0) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %v = "aten.slice.Tensor"(%z) {dim = 1 : i64, start = 1 : i64, end = 3 : i64, step = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x2xf32>
  %c = "aten.copy_.default"(%v, %arg1) {non_blocking = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = "aten.neg.default"(%z) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r : tensor<2x8xf32>
}

// -----

// out= variants become the functional overload found in the registry; the
// written `out` argument is a mutated input.
// CHECK-LABEL: func.func @out_variant
// CHECK-SAME: tensor<3xf32> {aten.kind = "user_input_mutation", aten.name = "arg2", aten.target = "arg2"}
// CHECK: %[[S:.*]] = "aten.add.Tensor"(%arg0, %arg1) {alpha = 1 : i64}
// CHECK: return %[[S]], %[[S]]
func.func @out_variant(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>, %out: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "aten.add.out"(%arg0, %arg1, %out) {alpha = 1 : i64} : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The functional overload may name arguments differently
// (`dropout_(self, ...)` / `dropout(input, ...)`): matched by position.
// CHECK-LABEL: func.func @renamed_argument
// CHECK: %[[D:.*]] = "aten.dropout.default"(%arg0) {p = 5.000000e-01 : f64, train = false}
// CHECK: return %[[D]]
func.func @renamed_argument(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "aten.dropout_.default"(%arg0) {p = 0.5 : f64, train = false} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An inplace op without a plain functional overload (`normal_`: `normal` has
// only Tensor/float overloads) becomes `<name>_functional` with the same
// arguments, like torch's functionalization.
// CHECK-LABEL: func.func @normal_inplace
// CHECK: %[[N:.*]] = "aten.normal_functional.default"(%arg0) {mean = 2.000000e+00 : f64, std = 5.000000e-01 : f64}
// CHECK: return %[[N]]
func.func @normal_inplace(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "aten.normal_.default"(%arg0) {mean = 2.0 : f64, std = 0.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Inside a branch of a higher-order op, a write to a tensor the branch
// created (clone, then add_ and a write through select) is rewritten there;
// the branch yields the new value.
// CHECK-LABEL: func.func @inside_region
// CHECK: "aten.hop.cond"
// CHECK: %[[C:.*]] = "aten.clone.default"
// CHECK: %[[A:.*]] = "aten.add.Tensor"(%[[C]])
// CHECK: %[[S:.*]] = "aten.select.int"(%[[A]])
// CHECK: %[[F:.*]] = "aten.fill.Scalar"(%[[S]])
// CHECK: %[[W:.*]] = "aten.select_scatter.default"(%[[A]], %[[F]])
// CHECK: "aten.yield"(%[[W]])
// CHECK-NOT: "aten.add_.Tensor"
func.func @inside_region(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "aten.hop.cond"(%p, %x) ({
  ^bb0(%a: tensor<2xf32>):
    %c = "aten.clone.default"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    %d = "aten.add_.Tensor"(%c) {alpha = 1 : i64, other = 1 : i64} : (tensor<2xf32>) -> tensor<2xf32>
    %s = "aten.select.int"(%c) {dim = 0 : i64, index = 1 : i64} : (tensor<2xf32>) -> tensor<f32>
    %f = "aten.fill_.Scalar"(%s) {value = 0.0 : f64} : (tensor<f32>) -> tensor<f32>
    "aten.yield"(%c) : (tensor<2xf32>) -> ()
  }, {
  ^bb0(%a: tensor<2xf32>):
    "aten.yield"(%a) : (tensor<2xf32>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// An op writing arguments besides its own results (`_native_batch_norm_legit`
// updates its running statistics) becomes `<op>_functional`: its own results
// are the first results, the new statistics the last two, and the written
// buffers become buffer_mutation results.
// CHECK-LABEL: func.func @side_effect_writer
// CHECK-SAME: tensor<3xf32> {aten.kind = "buffer_mutation", aten.name = "bn.running_mean", aten.target = "bn.running_mean"}, tensor<3xf32> {aten.kind = "buffer_mutation", aten.name = "bn.running_var", aten.target = "bn.running_var"}
// CHECK: %[[F:.*]]:5 = "aten._native_batch_norm_legit_functional.default"(%arg0, %arg1, %arg2, %{{[0-9]+}}, %{{[0-9]+}}) {eps = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64, training = true}
// CHECK: return %[[F]]#0, %[[F]]#3, %[[F]]#4 :
// CHECK-NOT: "aten._native_batch_norm_legit.default"
func.func @side_effect_writer(%arg0: tensor<4x3xf32> {aten.name = "x"}, %arg1: tensor<3xf32> {aten.name = "w"}, %arg2: tensor<3xf32> {aten.name = "b"}) -> (tensor<4x3xf32> {aten.kind = "user_output", aten.name = "y"}) {
  %m = "aten.weight"() {kind = "buffer", name = "bn.running_mean"} : () -> tensor<3xf32>
  %v = "aten.weight"() {kind = "buffer", name = "bn.running_var"} : () -> tensor<3xf32>
  %0:3 = "aten._native_batch_norm_legit.default"(%arg0, %arg1, %arg2, %m, %v) {eps = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64, training = true} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<4x3xf32>
}

// -----

// batch_norm in training mode updates its running statistics although its
// schema declares no write: the same functional form.
// CHECK-LABEL: func.func @implicit_stats_update
// CHECK-SAME: aten.kind = "buffer_mutation", aten.name = "running_mean"
// CHECK-SAME: aten.kind = "buffer_mutation", aten.name = "running_var"
// CHECK: %[[F:.*]]:5 = "aten._native_batch_norm_legit_functional.default"
// CHECK-SAME: training = true
// CHECK: return %[[F]]#0, %[[F]]#3, %[[F]]#4 :
// CHECK-NOT: "aten.batch_norm.default"
func.func @implicit_stats_update(%arg0: tensor<2x3x4xf32> {aten.name = "x"}) -> (tensor<2x3x4xf32> {aten.kind = "user_output", aten.name = "y"}) {
  %m = "aten.weight"() {kind = "buffer", name = "running_mean"} : () -> tensor<3xf32>
  %v = "aten.weight"() {kind = "buffer", name = "running_var"} : () -> tensor<3xf32>
  %0 = "aten.batch_norm.default"(%arg0, %m, %v) {cudnn_enabled = false, eps = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64, operandSegmentSizes = array<i32: 1, 0, 0, 1, 1, 0, 0, 0, 0>, training = true} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// resize_ gives the tensor a new shape: its new version is `resize`.
// CHECK-LABEL: func.func @resize
// CHECK: %[[C:.*]] = "aten.clone.default"(%arg0)
// CHECK: %[[R:.*]] = "aten.resize.default"(%[[C]]) {size = array<i64: 6>}
// CHECK: return %[[R]] :
func.func @resize(%arg0: tensor<2x3xf32> {aten.name = "x"}) -> (tensor<6xf32> {aten.kind = "user_output", aten.name = "y"}) {
  %0 = "aten.clone.default"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "aten.resize_.default"(%0) {size = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>
}

// -----

// A `with torch.no_grad()` block (wrap_with_set_grad_enabled) changes no
// value: it is inlined, and its in-place write to a parameter (RWKV rescales
// its weights so) is a parameter mutation like one outside the block; later
// reads see the new value.
// CHECK-LABEL: func.func @no_grad_write
// CHECK-SAME: tensor<3xf32> {aten.kind = "parameter_mutation", aten.name = "w", aten.target = "w"}
// CHECK-NOT: aten.hop.wrap_with_set_grad_enabled
// CHECK: %[[W:.*]] = "aten.weight"() {kind = "parameter", name = "w"}
// CHECK: %[[D:.*]] = "aten.div.Tensor"(%[[W]]) {other = 2 : i64}
// CHECK: %[[M:.*]] = "aten.mul.Tensor"(%arg0, %[[D]])
// CHECK: return %[[M]], %[[D]]
func.func @no_grad_write(%arg0: tensor<2x3xf32> {aten.name = "x"}) -> (tensor<2x3xf32> {aten.kind = "user_output", aten.name = "mul"}) {
  %0 = "aten.weight"() {kind = "parameter", name = "w"} : () -> tensor<3xf32>
  %1 = "aten.hop.wrap_with_set_grad_enabled"(%0) ({
  ^bb0(%arg1: tensor<3xf32>):
    %3 = "aten.div_.Tensor"(%arg1) {other = 2 : i64} : (tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%3) : (tensor<3xf32>) -> ()
  }) {arg0 = false, arg_names = ["arg2"], operandSegmentSizes = array<i32: 1>} : (tensor<3xf32>) -> tensor<3xf32>
  %2 = "aten.mul.Tensor"(%arg0, %1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}

// -----

// A comparison written into a float tensor: computed as bool, then
// converted to the tensor's dtype (torch writes 1.0 / 0.0); into a bool
// tensor, no conversion.
// CHECK-LABEL: func.func @comparison_into_float
// CHECK: %[[C:.*]] = "aten.clone.default"(%arg0)
// CHECK: %[[L:.*]] = "aten.lt.Tensor"(%[[C]], %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK: %[[F:.*]] = "aten._to_copy.default"(%[[L]]) {dtype = f32, non_blocking = false} : (tensor<2x3xi1>) -> tensor<2x3xf32>
// CHECK: %[[N:.*]] = "aten.logical_not.default"(%[[F]]) : (tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK: %[[I:.*]] = "aten._to_copy.default"(%[[N]]) {dtype = f32, non_blocking = false}
// CHECK: %[[B:.*]] = "aten.logical_and.default"(%{{.*}}, %arg2) : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
// CHECK: return %[[I]], %[[B]]
func.func @comparison_into_float(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xi1>) -> (tensor<2x3xf32>, tensor<3xi1>) {
  %c = "aten.clone.default"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "aten.lt_.Tensor"(%c, %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "aten.logical_not_.default"(%c) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = "aten.clone.default"(%arg2) : (tensor<3xi1>) -> tensor<3xi1>
  %2 = "aten.logical_and_.default"(%b, %arg2) : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %c, %b : tensor<2x3xf32>, tensor<3xi1>
}

// -----

// In-place overloads whose functional overload has another name.
// CHECK-LABEL: func.func @renamed_overloads
// CHECK: %[[P:.*]] = "aten.pow.Tensor_Scalar"(%{{.*}}) {exponent = 2.000000e+00 : f64}
// CHECK: %[[Q:.*]] = "aten.pow.Tensor_Tensor"(%[[P]], %arg1)
// CHECK: %[[F:.*]] = "aten.floor_divide.default"(%[[Q]], %arg1)
// CHECK: %[[L:.*]] = "aten.ldexp.Tensor"(%[[F]], %arg1)
// CHECK: return %[[L]]
func.func @renamed_overloads(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
  %c = "aten.clone.default"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
  %0 = "aten.pow_.Scalar"(%c) {exponent = 2.0 : f64} : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "aten.pow_.Tensor"(%c, %arg1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = "aten.floor_divide_.Tensor"(%c, %arg1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %3 = "aten.ldexp_.default"(%c, %arg1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %c : tensor<3xf32>
}

// -----

// Metadata changes rebind the tensor to the out-of-place view of its
// storage: later reads see the new shape, a later write goes back through
// the views' inverses, and a view taken before (`select`) is re-taken from
// the written storage.
// CHECK-LABEL: func.func @metadata_rebind
// CHECK: %[[C:.*]] = "aten.clone.default"(%arg0)
// CHECK: %[[S:.*]] = "aten.select.int"(%[[C]]) {dim = 0 : i64, index = 0 : i64}
// CHECK: %[[U:.*]] = "aten.unsqueeze.default"(%[[C]]) {dim = 0 : i64} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
// CHECK: %[[T:.*]] = "aten.transpose.int"(%[[U]]) {dim0 = 1 : i64, dim1 = 2 : i64} : (tensor<1x2x3xf32>) -> tensor<1x3x2xf32>
// CHECK: %[[A:.*]] = "aten.add.Tensor"(%[[T]]) {alpha = 1 : i64, other = 1 : i64}
// CHECK: %[[U2:.*]] = "aten.transpose.int"(%[[A]]) {dim0 = 1 : i64, dim1 = 2 : i64} : (tensor<1x3x2xf32>) -> tensor<1x2x3xf32>
// CHECK: %[[C2:.*]] = "aten.squeeze.dim"(%[[U2]]) {dim = 0 : i64} : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[S2:.*]] = "aten.select.int"(%[[C2]]) {dim = 0 : i64, index = 0 : i64}
// CHECK: return %[[A]], %[[S2]]
func.func @metadata_rebind(%arg0: tensor<2x3xf32>) -> (tensor<1x3x2xf32>, tensor<3xf32>) {
  %c = "aten.clone.default"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = "aten.select.int"(%c) {dim = 0 : i64, index = 0 : i64} : (tensor<2x3xf32>) -> tensor<3xf32>
  %0 = "aten.unsqueeze_.default"(%c) {dim = 0 : i64} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %1 = "aten.swapaxes_.default"(%c) {axis0 = 1 : i64, axis1 = 2 : i64} : (tensor<2x3xf32>) -> tensor<1x3x2xf32>
  %2 = "aten.add_.Tensor"(%1) {alpha = 1 : i64, other = 1 : i64} : (tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  return %2, %s : tensor<1x3x2xf32>, tensor<3xf32>
}

// -----

// A type-promoting op with a wider operand of the same kind computes in the
// promoted dtype and is converted to the written tensor's (torch's in-place
// kernels do); a 0-d operand of the same kind does not promote.
// CHECK-LABEL: func.func @promoting
// CHECK: %[[C:.*]] = "aten.clamp.Tensor"(%{{.*}}, %arg1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<3xui8>, tensor<3xi32>) -> tensor<3xi32>
// CHECK: %[[U:.*]] = "aten._to_copy.default"(%[[C]]) {dtype = ui8, non_blocking = false} : (tensor<3xi32>) -> tensor<3xui8>
// CHECK: %[[A:.*]] = "aten.add.Tensor"(%{{.*}}, %arg3) {alpha = 1 : i64} : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xf64>
// CHECK: %[[F:.*]] = "aten._to_copy.default"(%[[A]]) {dtype = f32, non_blocking = false} : (tensor<3xf64>) -> tensor<3xf32>
// CHECK: %[[S:.*]] = "aten.sub.Tensor"(%[[F]], %arg4) {alpha = 1 : i64} : (tensor<3xf32>, tensor<f64>) -> tensor<3xf32>
// CHECK: return %[[U]], %[[S]]
func.func @promoting(%arg0: tensor<3xui8>, %arg1: tensor<3xi32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf64>, %arg4: tensor<f64>) -> (tensor<3xui8>, tensor<3xf32>) {
  %u = "aten.clone.default"(%arg0) : (tensor<3xui8>) -> tensor<3xui8>
  %0 = "aten.clamp_.Tensor"(%u, %arg1) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<3xui8>, tensor<3xi32>) -> tensor<3xui8>
  %x = "aten.clone.default"(%arg2) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "aten.add_.Tensor"(%x, %arg3) {alpha = 1 : i64} : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  %2 = "aten.sub_.Tensor"(%1, %arg4) {alpha = 1 : i64} : (tensor<3xf32>, tensor<f64>) -> tensor<3xf32>
  return %0, %2 : tensor<3xui8>, tensor<3xf32>
}
