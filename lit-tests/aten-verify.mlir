// RUN: aten-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(aten-verify)' --verify-each=false | FileCheck %s

// A well-formed module passes unchanged.
// CHECK-LABEL: func.func @valid
// CHECK: "aten.add.Tensor"(%arg0, %arg1) {alpha = 1 : i64}
// CHECK: "aten.linear.default"(%arg0, %{{.*}}) :
// CHECK: "aten.cat.default"
// CHECK-SAME: operandSegmentSizes = array<i32: 2, 0>
func.func @valid(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %w = "aten.weight"() {kind = "parameter", name = "fc.weight"} : () -> tensor<4x4xf32>
  %0 = "aten.add.Tensor"(%arg0, %arg1) {alpha = 1 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = "aten.linear.default"(%arg0, %w) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %2 = "aten.cat.default"(%0, %1) {dim = 0 : i64, operandSegmentSizes = array<i32: 2, 0>} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %3 = "aten.mul.Tensor"(%2) {other = 2.0 : f64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}

// -----

func.func @unknown_op(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'aten.frobnicate.default' op is not in the aten registry (torch 2.13.0): no op named 'frobnicate'}}
  %0 = "aten.frobnicate.default"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unknown_overload(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'add' has no overload 'Banana' (overloads: default, Scalar, Scalar_out, Tensor,}}
  %0 = "aten.add.Banana"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @missing_argument(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{has 2 operands but expects 3 (self, other, alpha)}}
  %0 = "aten.add.Tensor"(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @wrong_attribute_kind(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'dim' must hold a value of type int, got string}}
  %0 = "aten.softmax.int"(%arg0) {dim = "last", half_to_float = false} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unknown_attribute(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{has unknown attribute 'inplace' (arguments: self)}}
  %0 = "aten.relu.default"(%arg0) {inplace = true} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @wrong_operand_kind(%arg0: tensor<2xf32>, %arg1: i64) -> tensor<2xf32> {
  // expected-error @+1 {{argument 'other' (Tensor): cannot be carried by a Integer operand}}
  %0 = "aten.add.Tensor"(%arg0, %arg1) {alpha = 1 : i64} : (tensor<2xf32>, i64) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @wrong_result_count(%arg0: tensor<2x3xf32>, %w: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{has 1 results but the schema returns 3}}
  %0 = "aten.native_layer_norm.default"(%arg0, %w, %b) {normalized_shape = array<i64: 3>, eps = 1.0e-5 : f64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A list result among others is flattened: histogramdd returns (hist, bin_edges)
// as the hist then one result per edge tensor; with two or more list returns
// resultSegmentSizes gives each list's length.
// CHECK-LABEL: func.func @list_results
// CHECK: "aten.histogramdd.default"
// CHECK: "aten._fused_sgd.default"
// CHECK-SAME: resultSegmentSizes = array<i32: 1, 1, 1>
func.func @list_results(%x: tensor<5x2xf32>, %a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<2xf32>) {
  %h, %e0, %e1 = "aten.histogramdd.default"(%x) {bins = array<i64: 2, 3>, density = false} : (tensor<5x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>)
  %s:3 = "aten._fused_sgd.default"(%a, %b, %c) {dampening = 0.0 : f64, is_first_step = false, lr = 0.1 : f64, maximize = false, momentum = 0.0 : f64, nesterov = false, weight_decay = 0.0 : f64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %h, %e0, %e1, %s#2 : tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<2xf32>
}

// -----

func.func @list_result_missing(%x: tensor<5x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{has 0 results but the schema returns 2 (one of them a list of any length)}}
  "aten.histogramdd.default"(%x) {bins = array<i64: 2, 3>, density = false} : (tensor<5x2xf32>) -> ()
  %0 = "aten.zeros.default"() {size = array<i64: 2, 3>} : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @list_results_ambiguous(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{returns 3 lists, so 'resultSegmentSizes' must give the result count of each return}}
  %s:3 = "aten._fused_sgd.default"(%a, %b, %c) {dampening = 0.0 : f64, is_first_step = false, lr = 0.1 : f64, maximize = false, momentum = 0.0 : f64, nesterov = false, weight_decay = 0.0 : f64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0>} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %s#0 : tensor<2xf32>
}

// -----

func.func @list_results_bad_segments(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'resultSegmentSizes' accounts for 4 results but the op has 3}}
  %s:3 = "aten._fused_sgd.default"(%a, %b, %c) {dampening = 0.0 : f64, is_first_step = false, lr = 0.1 : f64, maximize = false, momentum = 0.0 : f64, nesterov = false, weight_decay = 0.0 : f64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 2, 1, 1>} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %s#0 : tensor<2xf32>
}

// -----

func.func @list_results_segment_of_tensor(%x: tensor<5x2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'resultSegmentSizes' entry #0 is 2, but return #0 (Tensor) is one result}}
  %h, %e0, %e1 = "aten.histogramdd.default"(%x) {bins = array<i64: 2, 3>, density = false, resultSegmentSizes = array<i32: 2, 1>} : (tensor<5x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>)
  return %e0 : tensor<3xf32>
}

// -----

func.func @bad_weight() -> tensor<2xf32> {
  // expected-error @+1 {{weight 'w' needs 'kind' = one of ["parameter", "buffer", "constant"]}}
  %0 = "aten.weight"() {name = "w", kind = "gradient"} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @bad_segments(%arg0: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'operandSegmentSizes' has 1 entries but the schema has 2 arguments}}
  %0 = "aten.cat.default"(%arg0, %arg0) {dim = 0 : i64, operandSegmentSizes = array<i32: 2>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
