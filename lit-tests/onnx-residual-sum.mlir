// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-residual-sum))' | FileCheck %s

// A 3-D Add feeding a LayerNormalization (also when it broadcasts, and when
// its sum is used elsewhere too) becomes Sum of the same operands; a 2-D
// one, a bfloat16 one (onnxruntime has no bfloat16 Sum kernel), and an Add
// feeding another op, stay.
// CHECK-LABEL: func.func @residual
// CHECK: %[[S:.*]] = "onnx.Sum"(%arg0, %arg1) : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
// CHECK: "onnx.LayerNormalization"(%[[S]], %arg3, %arg4)
// CHECK: %[[B:.*]] = "onnx.Sum"(%arg0, %arg3) : (tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
// CHECK: "onnx.LayerNormalization"(%[[B]], %arg3, %arg4)
// CHECK: %[[F:.*]] = "onnx.Add"(%arg2, %arg2) : (tensor<10x8xf32>, tensor<10x8xf32>) -> tensor<10x8xf32>
// CHECK: "onnx.LayerNormalization"(%[[F]], %arg3, %arg4)
// CHECK: %[[R:.*]] = "onnx.Add"(%arg0, %arg1) : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
// CHECK: "onnx.Relu"(%[[R]])
// CHECK: "onnx.Add"(%arg5, %arg5) : (tensor<2x5x8xbf16>, tensor<2x5x8xbf16>) -> tensor<2x5x8xbf16>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[S]], %{{.*}}
module attributes {onnx.opset = 23 : i64} {
func.func @residual(%x: tensor<2x5x8xf32>, %r: tensor<2x5x8xf32>, %f: tensor<10x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %h: tensor<2x5x8xbf16>, %hg: tensor<8xbf16>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<10x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xbf16>) {
  %s = "onnx.Add"(%x, %r) : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %n = "onnx.LayerNormalization"(%s, %g, %b) {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %bs = "onnx.Add"(%x, %g) : (tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %bn = "onnx.LayerNormalization"(%bs, %g, %b) {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %fs = "onnx.Add"(%f, %f) : (tensor<10x8xf32>, tensor<10x8xf32>) -> tensor<10x8xf32>
  %fn = "onnx.LayerNormalization"(%fs, %g, %b) {axis = -1 : i64, epsilon = 1.0e-05 : f32} : (tensor<10x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<10x8xf32>
  %o = "onnx.Add"(%x, %r) : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %relu = "onnx.Relu"(%o) : (tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %hs = "onnx.Add"(%h, %h) : (tensor<2x5x8xbf16>, tensor<2x5x8xbf16>) -> tensor<2x5x8xbf16>
  %hn = "onnx.LayerNormalization"(%hs, %hg) {axis = -1 : i64} : (tensor<2x5x8xbf16>, tensor<8xbf16>) -> tensor<2x5x8xbf16>
  return %n, %bn, %fn, %relu, %s, %hn : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<10x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xbf16>
}
}
