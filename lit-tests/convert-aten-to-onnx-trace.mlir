// RUN: aten-opt %s --pass-pipeline='builtin.module(convert-aten-to-onnx{trace=true})' | FileCheck %s

// `trace=true` (used by --verify's bisection) tags every value that replaces
// an aten result with its node and result index, one attribute per result of
// the onnx op: a Split lowering `chunk` carries all three tags.
// CHECK-LABEL: func.func @forward
// CHECK: "onnx.Split"
// CHECK-SAME: aten.trace = "chunk#0"
// CHECK-SAME: aten.trace.1 = "chunk#1"
// CHECK-SAME: aten.trace.2 = "chunk#2"
// CHECK: "onnx.Relu"
// CHECK-SAME: aten.trace = "relu#0"
func.func @forward(%x: tensor<6x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %0:3 = "aten.chunk.default"(%x) {chunks = 3 : i64, dim = 0 : i64} : (tensor<6x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) loc("chunk"("model.py":3:0))
  %1 = "aten.relu.default"(%0#1) : (tensor<2x4xf32>) -> tensor<2x4xf32> loc("relu"("model.py":4:0))
  return %0#0, %1, %0#2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
