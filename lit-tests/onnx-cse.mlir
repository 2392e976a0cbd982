// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-cse))' | FileCheck %s

// Identical ops (and identical constants) merge; different attributes do not.
// CHECK-LABEL: func.func @cse
// CHECK-COUNT-1: "onnx.Constant"() {value = dense<1> : tensor<1xi64>}
// CHECK: %[[S:.*]] = "onnx.Shape"(%arg0)
// CHECK-NOT: "onnx.Shape"(%arg0) :
// CHECK: "onnx.Transpose"(%arg0) {perm = array<i64: 1, 0>}
// CHECK: "onnx.Softmax"(%arg0) {axis = 0 : i64}
// CHECK: "onnx.Softmax"(%arg0) {axis = 1 : i64}
// CHECK: "onnx.Concat"(%[[S]], %[[S]]
func.func @cse(%arg0: tensor<2x3xf32>) -> (tensor<4xi64>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi64>, tensor<1xi64>) {
  %c0 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %c1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %s0 = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi64>
  %s1 = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi64>
  %t = "onnx.Transpose"(%arg0) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %a = "onnx.Softmax"(%arg0) {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = "onnx.Softmax"(%arg0) {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %cat = "onnx.Concat"(%s0, %s1) {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  return %cat, %t, %a, %b, %c0, %c1 : tensor<4xi64>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1xi64>, tensor<1xi64>
}
