// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-shape-inference))' | FileCheck %s

// Unknown result types get ranks, static dims and symbolic dims; a reshape
// to a shape computed from Shape/Concat keeps the symbolic batch.
// CHECK-LABEL: func.func @infer
// CHECK: "onnx.Transpose"(%{{.*}}) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: "onnx.MatMul"(%arg0, %{{.*}}) : (tensor<?x8xf32, ["s0"]>, tensor<8x4xf32>) -> tensor<?x4xf32, ["s0"]>
// CHECK: "onnx.Add"(%{{.*}}, %{{.*}}) : (tensor<?x4xf32, ["s0"]>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
// CHECK: "onnx.Reshape"(%{{.*}}, %{{.*}}) : (tensor<?x4xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x2x2xf32, ["s0"]>
// CHECK: "onnx.ReduceMean"(%{{.*}}, %{{.*}}) {keepdims = 0 : i64} : (tensor<?x2x2xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2xf32, ["s0"]>
// A returned value keeps the type of the function signature.
// CHECK: %[[R:.*]] = "onnx.Neg"(%{{.*}}) : (tensor<?x2xf32, ["s0"]>) -> tensor<*xf32>
// CHECK: return %[[R]] : tensor<*xf32>
func.func @infer(%arg0: tensor<?x8xf32, ["s0"]>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  %t = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<*xf32>
  %m = "onnx.MatMul"(%arg0, %t) : (tensor<?x8xf32, ["s0"]>, tensor<*xf32>) -> tensor<*xf32>
  %a = "onnx.Add"(%m, %b) : (tensor<*xf32>, tensor<4xf32>) -> tensor<*xf32>
  %n = "onnx.Shape"(%arg0) {start = 0 : i64, end = 1 : i64} : (tensor<?x8xf32, ["s0"]>) -> tensor<1xi64>
  %c = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "onnx.Concat"(%n, %c) {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %r = "onnx.Reshape"(%a, %s) : (tensor<*xf32>, tensor<3xi64>) -> tensor<*xf32>
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %mean = "onnx.ReduceMean"(%r, %axes) {keepdims = 0 : i64} : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %neg = "onnx.Neg"(%mean) : (tensor<*xf32>) -> tensor<*xf32>
  return %neg : tensor<*xf32>
}
