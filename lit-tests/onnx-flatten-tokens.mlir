// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-flatten-tokens))' | FileCheck %s

// A transformer MLP block with dynamic batch and sequence: the input enters
// the 2-D view once (used by the first Linear and the residual Add), both
// Linears become Gemms, the LayerNormalization's axis becomes -1, and the
// result leaves through a Reshape to [s0, s1, 8] read at run time
// (allowzero: an empty batch stays empty).
// CHECK-LABEL: func.func @layer
// CHECK-SAME: onnx.flatten_tokens = 2
// CHECK-DAG: %[[FLAT:.*]] = "onnx.Constant"() {value = dense<[-1, 8]> : tensor<2xi64>}
// CHECK-DAG: %[[N:.*]] = "onnx.Constant"() {value = dense<8> : tensor<1xi64>}
// CHECK: %[[X:.*]] = "onnx.Reshape"(%arg0, %[[FLAT]]) : (tensor<?x?x8xf32, ["s0", "s1"]>, tensor<2xi64>) -> tensor<?x8xf32, ["s0*s1"]>
// CHECK: %[[L:.*]] = "onnx.Shape"(%arg0) {end = 2 : i64}
// CHECK: %[[SHAPE:.*]] = "onnx.Concat"(%[[L]], %[[N]]) {axis = 0 : i64}
// CHECK: %[[G1:.*]] = "onnx.Gemm"(%[[X]], %arg1, %arg2) : (tensor<?x8xf32, ["s0*s1"]>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<?x16xf32, ["s0*s1"]>
// CHECK: %[[A:.*]] = "onnx.Gelu"(%[[G1]])
// CHECK: %[[G2:.*]] = "onnx.Gemm"(%[[A]], %arg3, %arg4)
// CHECK: %[[R:.*]] = "onnx.Add"(%[[G2]], %[[X]])
// CHECK: %[[LN:.*]] = "onnx.LayerNormalization"(%[[R]], %arg5, %arg6) {axis = -1 : i64
// CHECK: %[[OUT:.*]] = "onnx.Reshape"(%[[LN]], %[[SHAPE]]) {allowzero = 1 : i64} : (tensor<?x8xf32, ["s0*s1"]>, tensor<3xi64>) -> tensor<?x?x8xf32, ["s0", "s1"]>
// CHECK-NOT: "onnx.MatMul"
// CHECK: return %[[OUT]]
module attributes {onnx.opset = 23 : i64} {
func.func @layer(%x: tensor<?x?x8xf32, ["s0", "s1"]>, %w1: tensor<8x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x8xf32>, %b2: tensor<8xf32>, %g: tensor<8xf32>, %beta: tensor<8xf32>) -> tensor<?x?x8xf32, ["s0", "s1"]> {
  %0 = "onnx.MatMul"(%x, %w1) : (tensor<?x?x8xf32, ["s0", "s1"]>, tensor<8x16xf32>) -> tensor<?x?x16xf32, ["s0", "s1"]>
  %1 = "onnx.Add"(%0, %b1) : (tensor<?x?x16xf32, ["s0", "s1"]>, tensor<16xf32>) -> tensor<?x?x16xf32, ["s0", "s1"]>
  %2 = "onnx.Gelu"(%1) : (tensor<?x?x16xf32, ["s0", "s1"]>) -> tensor<?x?x16xf32, ["s0", "s1"]>
  %3 = "onnx.MatMul"(%2, %w2) : (tensor<?x?x16xf32, ["s0", "s1"]>, tensor<16x8xf32>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %4 = "onnx.Add"(%b2, %3) : (tensor<8xf32>, tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %5 = "onnx.Add"(%4, %x) : (tensor<?x?x8xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %6 = "onnx.LayerNormalization"(%5, %g, %beta) {axis = 2 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?x8xf32, ["s0", "s1"]>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  return %6 : tensor<?x?x8xf32, ["s0", "s1"]>
}
}

// -----

// Static sizes: the exit shapes are constants. The Relu's result is used in
// the region (the second Linear) and outside it (a Transpose): the region
// uses the 2-D value, the Transpose a Reshape of it. A [1, N] bias is a
// valid Gemm C. The Softmax after the Transpose is token-wise too but its
// region has no Linear: left alone.
// CHECK-LABEL: func.func @static
// CHECK-SAME: onnx.flatten_tokens = 2
// CHECK-DAG: %[[FLAT:.*]] = "onnx.Constant"() {value = dense<[-1, 32]> : tensor<2xi64>}
// CHECK-DAG: %[[S8:.*]] = "onnx.Constant"() {value = dense<[2, 16, 8]> : tensor<3xi64>}
// CHECK-DAG: %[[S32:.*]] = "onnx.Constant"() {value = dense<[2, 16, 32]> : tensor<3xi64>}
// CHECK: %[[X:.*]] = "onnx.Reshape"(%arg0, %[[FLAT]]) : (tensor<2x16x32xf32>, tensor<2xi64>) -> tensor<32x32xf32>
// CHECK: %[[G1:.*]] = "onnx.Gemm"(%[[X]], %arg1, %arg2) : (tensor<32x32xf32>, tensor<32x32xf32>, tensor<1x32xf32>) -> tensor<32x32xf32>
// CHECK: %[[RELU:.*]] = "onnx.Relu"(%[[G1]])
// CHECK: %[[BACK:.*]] = "onnx.Reshape"(%[[RELU]], %[[S32]]) : (tensor<32x32xf32>, tensor<3xi64>) -> tensor<2x16x32xf32>
// CHECK: %[[G2:.*]] = "onnx.Gemm"(%[[RELU]], %arg3, %arg4)
// CHECK: %[[OUT:.*]] = "onnx.Reshape"(%[[G2]], %[[S8]])
// CHECK: %[[T:.*]] = "onnx.Transpose"(%[[BACK]])
// CHECK: "onnx.Softmax"(%[[T]]) {axis = -1 : i64} : (tensor<16x2x32xf32>) -> tensor<16x2x32xf32>
// CHECK: return %[[OUT]]
module attributes {onnx.opset = 23 : i64} {
func.func @static(%x: tensor<2x16x32xf32>, %w: tensor<32x32xf32>, %b: tensor<1x32xf32>, %w2: tensor<32x8xf32>, %b2: tensor<8xf32>) -> (tensor<2x16x8xf32>, tensor<2x16x32xf32>) {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<2x16x32xf32>, tensor<32x32xf32>) -> tensor<2x16x32xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<2x16x32xf32>, tensor<1x32xf32>) -> tensor<2x16x32xf32>
  %2 = "onnx.Relu"(%1) : (tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %3 = "onnx.MatMul"(%2, %w2) : (tensor<2x16x32xf32>, tensor<32x8xf32>) -> tensor<2x16x8xf32>
  %4 = "onnx.Add"(%3, %b2) : (tensor<2x16x8xf32>, tensor<8xf32>) -> tensor<2x16x8xf32>
  %5 = "onnx.Transpose"(%2) {perm = array<i64: 1, 0, 2>} : (tensor<2x16x32xf32>) -> tensor<16x2x32xf32>
  %6 = "onnx.Softmax"(%5) {axis = -1 : i64} : (tensor<16x2x32xf32>) -> tensor<16x2x32xf32>
  %7 = "onnx.Transpose"(%6) {perm = array<i64: 1, 0, 2>} : (tensor<16x2x32xf32>) -> tensor<2x16x32xf32>
  return %4, %7 : tensor<2x16x8xf32>, tensor<2x16x32xf32>
}
}

// -----

// Left alone: an Add of a [4, 8] tensor (positions: it broadcasts over the
// batch, not over the rows) is not token-wise; a LayerNormalization whose
// mean output is used is not either; the Linear on a [1, 2, 8] tensor does
// not pay (two Reshapes for one Add of 64 bytes); a MatMul without a bias
// gains nothing.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: onnx.flatten_tokens
// CHECK-NOT: "onnx.Gemm"
// CHECK-NOT: "onnx.Reshape"
module attributes {onnx.opset = 23 : i64} {
func.func @unchanged(%x: tensor<?x4x8xf32, ["s0"]>, %w: tensor<8x8xf32>, %pos: tensor<4x8xf32>, %b: tensor<8xf32>, %g: tensor<8xf32>, %y: tensor<1x2x8xf32>) -> (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x1xf32, ["s0"]>, tensor<1x2x8xf32>) {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<?x4x8xf32, ["s0"]>, tensor<8x8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  %1 = "onnx.Add"(%0, %pos) : (tensor<?x4x8xf32, ["s0"]>, tensor<4x8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  %2 = "onnx.MatMul"(%1, %w) : (tensor<?x4x8xf32, ["s0"]>, tensor<8x8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  %3:2 = "onnx.LayerNormalization"(%2, %g) {axis = -1 : i64} : (tensor<?x4x8xf32, ["s0"]>, tensor<8xf32>) -> (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x1xf32, ["s0"]>)
  %4 = "onnx.Add"(%3#0, %b) : (tensor<?x4x8xf32, ["s0"]>, tensor<8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  %5 = "onnx.MatMul"(%y, %w) : (tensor<1x2x8xf32>, tensor<8x8xf32>) -> tensor<1x2x8xf32>
  %6 = "onnx.Add"(%5, %b) : (tensor<1x2x8xf32>, tensor<8xf32>) -> tensor<1x2x8xf32>
  return %4, %3#1, %6 : tensor<?x4x8xf32, ["s0"]>, tensor<?x4x1xf32, ["s0"]>, tensor<1x2x8xf32>
}
}

// -----

// float16 Linears keep MatMul + Add: `onnx-widen-half` (after this pass)
// computes them in float32 in the order eager PyTorch adds the bias; a
// Gemm's float32 result differs in its last bits and flips float16 roundings.
// CHECK-LABEL: func.func @half
// CHECK-NOT: onnx.flatten_tokens
// CHECK-NOT: "onnx.Gemm"
module attributes {onnx.opset = 23 : i64} {
func.func @half(%x: tensor<?x?x8xf16, ["s0", "s1"]>, %w: tensor<8x16xf16>, %b: tensor<16xf16>) -> tensor<?x?x16xf16, ["s0", "s1"]> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<?x?x8xf16, ["s0", "s1"]>, tensor<8x16xf16>) -> tensor<?x?x16xf16, ["s0", "s1"]>
  %1 = "onnx.Add"(%0, %b) : (tensor<?x?x16xf16, ["s0", "s1"]>, tensor<16xf16>) -> tensor<?x?x16xf16, ["s0", "s1"]>
  %2 = "onnx.Relu"(%1) : (tensor<?x?x16xf16, ["s0", "s1"]>) -> tensor<?x?x16xf16, ["s0", "s1"]>
  return %2 : tensor<?x?x16xf16, ["s0", "s1"]>
}
}

// -----

// Before opset 13, Gemm, Add and PRelu may broadcast by attributes and
// Softmax flattens at its axis: the pass leaves such modules alone (static
// sizes, where opset 13 would be rewritten).
// CHECK-LABEL: func.func @opset12
// CHECK-NOT: onnx.flatten_tokens
// CHECK-NOT: "onnx.Gemm"
module attributes {onnx.opset = 12 : i64} {
func.func @opset12(%x: tensor<2x16x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>) -> tensor<2x16x16xf32> {
  %0 = "onnx.MatMul"(%x, %w) : (tensor<2x16x32xf32>, tensor<32x16xf32>) -> tensor<2x16x16xf32>
  %1 = "onnx.Add"(%0, %b) : (tensor<2x16x16xf32>, tensor<16xf32>) -> tensor<2x16x16xf32>
  %2 = "onnx.Relu"(%1) : (tensor<2x16x16xf32>) -> tensor<2x16x16xf32>
  return %2 : tensor<2x16x16xf32>
}
}
