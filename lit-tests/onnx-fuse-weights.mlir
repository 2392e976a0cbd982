// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-fuse-weights))' | FileCheck %s

// Three MatMuls of one input with initializer weights of equal width: one
// MatMul on the concatenated weight (a weight transform the writer computes)
// and a Split with num_outputs.
// CHECK-LABEL: func.func @qkv
// CHECK-SAME: onnx.fuse_weights = 1
// CHECK: %[[Q:.*]] = "onnx.initializer"() {name = "q.weight"}
// CHECK: %[[K:.*]] = "onnx.initializer"() {name = "g.weight"}
// CHECK: %[[V:.*]] = "onnx.initializer"() {name = "u.weight"}
// CHECK: %[[C:.*]] = "onnx.weight_transform"(%[[Q]], %[[K]], %[[V]]) {axis = 1 : i64, kind = "concat"} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x12xf32>
// CHECK: %[[M:.*]] = "onnx.MatMul"(%arg0, %[[C]]) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x12xf32>) -> tensor<?x2x12xf32, ["s0"]>
// CHECK: %[[S:.*]]:3 = "onnx.Split"(%[[M]]) {axis = -1 : i64, num_outputs = 3 : i64}
// CHECK-NOT: "onnx.MatMul"
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2
module attributes {onnx.opset = 23 : i64} {
func.func @qkv(%x: tensor<?x2x4xf32, ["s0"]>) -> (tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %0 = "onnx.MatMul"(%x, %q) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %k = "onnx.initializer"() {name = "g.weight"} : () -> tensor<4x4xf32>
  %1 = "onnx.MatMul"(%x, %k) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %v = "onnx.initializer"() {name = "u.weight"} : () -> tensor<4x4xf32>
  %2 = "onnx.MatMul"(%x, %v) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  return %0, %1, %2 : tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>
}
}

// -----

// Grouped-query widths (4, 2, 2) of transposed weights: a sizes constant
// (at the top of the body, shared by groups of the same widths); the
// transposes defined after the first MatMul move before it.
// CHECK-LABEL: func.func @gqa
// CHECK-SAME: onnx.fuse_weights = 1
// CHECK: %[[N:.*]] = "onnx.Constant"() {value = dense<[4, 2, 2]> : tensor<3xi64>}
// CHECK: %[[C:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, kind = "concat"} : (tensor<4x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
// CHECK: %[[M:.*]] = "onnx.MatMul"(%arg0, %[[C]])
// CHECK: "onnx.Split"(%[[M]], %[[N]]) {axis = -1 : i64} : (tensor<?x8xf32, ["s0"]>, tensor<3xi64>) -> (tensor<?x4xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>)
module attributes {onnx.opset = 23 : i64} {
func.func @gqa(%x: tensor<?x4xf32, ["s0"]>) -> (tensor<?x4xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %qt = "onnx.weight_transform"(%q) {kind = "transpose", perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %0 = "onnx.MatMul"(%x, %qt) : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x4xf32, ["s0"]>
  %k = "onnx.initializer"() {name = "k.weight"} : () -> tensor<2x4xf32>
  %kt = "onnx.weight_transform"(%k) {kind = "transpose", perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %1 = "onnx.MatMul"(%x, %kt) : (tensor<?x4xf32, ["s0"]>, tensor<4x2xf32>) -> tensor<?x2xf32, ["s0"]>
  %v = "onnx.initializer"() {name = "v.weight"} : () -> tensor<2x4xf32>
  %vt = "onnx.weight_transform"(%v) {kind = "transpose", perm = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
  %2 = "onnx.MatMul"(%x, %vt) : (tensor<?x4xf32, ["s0"]>, tensor<4x2xf32>) -> tensor<?x2xf32, ["s0"]>
  return %0, %1, %2 : tensor<?x4xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>, tensor<?x2xf32, ["s0"]>
}
}

// -----

// Not fused: two MatMuls of unequal widths (a Split would need a sizes
// constant: one node more), weights that are not initializers, weights of
// different K, MatMuls of different inputs.
// CHECK-LABEL: func.func @unfused
// CHECK-NOT: onnx.fuse_weights
// CHECK-NOT: "onnx.Split"
// CHECK-COUNT-6: "onnx.MatMul"
module attributes {onnx.opset = 23 : i64} {
func.func @unfused(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>, %a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %k = "onnx.initializer"() {name = "k.weight"} : () -> tensor<4x2xf32>
  %0 = "onnx.MatMul"(%x, %q) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  %1 = "onnx.MatMul"(%x, %k) : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %2 = "onnx.MatMul"(%y, %a) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  %3 = "onnx.MatMul"(%y, %b) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  %4 = "onnx.MatMul"(%y, %q) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  %5 = "onnx.MatMul"(%x, %a) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
}

// -----

// A weight also used elsewhere is not fused (it would be written twice).
// CHECK-LABEL: func.func @shared_weight
// CHECK-NOT: onnx.fuse_weights
// CHECK-COUNT-3: "onnx.MatMul"
module attributes {onnx.opset = 23 : i64} {
func.func @shared_weight(%x: tensor<3x4xf32>, %y: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %g = "onnx.initializer"() {name = "g.weight"} : () -> tensor<4x4xf32>
  %0 = "onnx.MatMul"(%x, %q) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  %1 = "onnx.MatMul"(%x, %g) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  %2 = "onnx.MatMul"(%y, %q) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
}

// -----

// Gemms of one 2-D input (the QKV projections of a core-ATen capture:
// transB = 1, a bias each): one Gemm on the weights concatenated along
// axis 0 and the biases concatenated; a Gemm with alpha != 1 stays.
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: onnx.fuse_weights = 1
// CHECK-DAG: %[[W:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0 : i64, kind = "concat"} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<12x4xf32>
// CHECK-DAG: %[[B:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0 : i64, kind = "concat"} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<12xf32>
// CHECK: %[[G:.*]] = "onnx.Gemm"(%arg0, %[[W]], %[[B]]) {transB = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<12x4xf32>, tensor<12xf32>) -> tensor<?x12xf32, ["s0"]>
// CHECK: "onnx.Split"(%[[G]]) {axis = -1 : i64, num_outputs = 3 : i64}
// CHECK: "onnx.Gemm"(%arg0, %{{.*}}) {alpha = 2.000000e+00 : f32, transB = 1 : i64}
module attributes {onnx.opset = 23 : i64} {
func.func @gemm(%x: tensor<?x4xf32, ["s0"]>) -> (tensor<?x4xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>, tensor<?x5xf32, ["s0"]>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %qb = "onnx.initializer"() {name = "conv.bias"} : () -> tensor<4xf32>
  %0 = "onnx.Gemm"(%x, %q, %qb) {transB = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %g = "onnx.initializer"() {name = "g.weight"} : () -> tensor<4x4xf32>
  %gb = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %1 = "onnx.Gemm"(%x, %g, %gb) {alpha = 1.0 : f32, transB = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %u = "onnx.initializer"() {name = "u.weight"} : () -> tensor<4x4xf32>
  %ub = "onnx.initializer"() {name = "bn.weight"} : () -> tensor<4xf32>
  %2 = "onnx.Gemm"(%x, %u, %ub) {transB = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %f = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<5x4xf32>
  %3 = "onnx.Gemm"(%x, %f) {alpha = 2.0 : f32, transB = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<5x4xf32>) -> tensor<?x5xf32, ["s0"]>
  return %0, %1, %2, %3 : tensor<?x4xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>, tensor<?x5xf32, ["s0"]>
}
}

// -----

// MatMuls each followed by the Add of its own [N] bias weight (Linear layers
// with biases on a 3-D input, either operand order): the biases concatenate
// too, one Add on the fused product before the Split (3 MatMuls + 3 Adds ->
// MatMul + Add + Split).
// CHECK-LABEL: func.func @qkv_bias
// CHECK-SAME: onnx.fuse_weights = 1
// CHECK: %[[W:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, kind = "concat"} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x12xf32>
// CHECK: %[[M:.*]] = "onnx.MatMul"(%arg0, %[[W]]) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x12xf32>) -> tensor<?x2x12xf32, ["s0"]>
// CHECK: %[[B:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0 : i64, kind = "concat"} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<12xf32>
// CHECK: %[[A:.*]] = "onnx.Add"(%[[M]], %[[B]]) : (tensor<?x2x12xf32, ["s0"]>, tensor<12xf32>) -> tensor<?x2x12xf32, ["s0"]>
// CHECK: %[[S:.*]]:3 = "onnx.Split"(%[[A]]) {axis = -1 : i64, num_outputs = 3 : i64}
// CHECK-NOT: "onnx.Add"
// CHECK: return %[[S]]#0, %[[S]]#1, %[[S]]#2
module attributes {onnx.opset = 23 : i64} {
func.func @qkv_bias(%x: tensor<?x2x4xf32, ["s0"]>) -> (tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %qb = "onnx.initializer"() {name = "conv.bias"} : () -> tensor<4xf32>
  %0 = "onnx.MatMul"(%x, %q) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %a0 = "onnx.Add"(%0, %qb) : (tensor<?x2x4xf32, ["s0"]>, tensor<4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %k = "onnx.initializer"() {name = "g.weight"} : () -> tensor<4x4xf32>
  %kb = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %1 = "onnx.MatMul"(%x, %k) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %a1 = "onnx.Add"(%kb, %1) : (tensor<4xf32>, tensor<?x2x4xf32, ["s0"]>) -> tensor<?x2x4xf32, ["s0"]>
  %v = "onnx.initializer"() {name = "u.weight"} : () -> tensor<4x4xf32>
  %vb = "onnx.initializer"() {name = "bn.weight"} : () -> tensor<4xf32>
  %2 = "onnx.MatMul"(%x, %v) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %a2 = "onnx.Add"(%2, %vb) : (tensor<?x2x4xf32, ["s0"]>, tensor<4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  return %a0, %a1, %a2 : tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>
}
}

// -----

// One of the MatMuls has no bias Add (its product is also returned): the
// weights still fuse, the biases stay where they are.
// CHECK-LABEL: func.func @qkv_partial_bias
// CHECK-SAME: onnx.fuse_weights = 1
// CHECK: %[[M:.*]] = "onnx.MatMul"(%arg0, %{{.*}}) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x8xf32>) -> tensor<?x2x8xf32, ["s0"]>
// CHECK: %[[S:.*]]:2 = "onnx.Split"(%[[M]]) {axis = -1 : i64, num_outputs = 2 : i64}
// CHECK: "onnx.Add"(%[[S]]#0, %{{.*}})
module attributes {onnx.opset = 23 : i64} {
func.func @qkv_partial_bias(%x: tensor<?x2x4xf32, ["s0"]>) -> (tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>) {
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %qb = "onnx.initializer"() {name = "conv.bias"} : () -> tensor<4xf32>
  %0 = "onnx.MatMul"(%x, %q) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %a0 = "onnx.Add"(%0, %qb) : (tensor<?x2x4xf32, ["s0"]>, tensor<4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %k = "onnx.initializer"() {name = "g.weight"} : () -> tensor<4x4xf32>
  %1 = "onnx.MatMul"(%x, %k) : (tensor<?x2x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  %kb = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %a1 = "onnx.Add"(%1, %kb) : (tensor<?x2x4xf32, ["s0"]>, tensor<4xf32>) -> tensor<?x2x4xf32, ["s0"]>
  return %a0, %a1, %1 : tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>, tensor<?x2x4xf32, ["s0"]>
}
}
