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

// A buffer written in place becomes a buffer_mutation result.
// CHECK-LABEL: func.func @buffer
// CHECK-SAME: tensor<i64> {aten.kind = "buffer_mutation", aten.name = "steps", aten.target = "steps"}
// CHECK: %[[W:.*]] = "aten.weight"() {kind = "buffer", name = "steps"}
// CHECK: %[[N:.*]] = "aten.add.Tensor"(%[[W]]) {alpha = 1 : i64, other = 1 : i64}
// CHECK: return %arg0, %[[N]] : tensor<2xf32>, tensor<i64>
func.func @buffer(%arg0: tensor<2xf32>) -> (tensor<2xf32> {aten.kind = "user_output", aten.name = "x"}) {
  %w = "aten.weight"() {kind = "buffer", name = "steps"} : () -> tensor<i64>
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
