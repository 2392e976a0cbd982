// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-widen-ints))' | FileCheck %s

// int16 Max and Clip, bool Where and uint32 ArgMax have no onnxruntime CPU
// kernel: their data operands are cast to a wider type (int32, uint8,
// int64) and the results back; int32 Max and int64 Where are untouched.
// CHECK-LABEL: func.func @widen
// CHECK: %[[A:.*]] = "onnx.Cast"(%arg0) {to = 6 : i64} : (tensor<4xi16>) -> tensor<4xi32>
// CHECK: %[[B:.*]] = "onnx.Cast"(%arg1) {to = 6 : i64} : (tensor<4xi16>) -> tensor<4xi32>
// CHECK: %[[M:.*]] = "onnx.Max"(%[[A]], %[[B]]) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: %[[MB:.*]] = "onnx.Cast"(%[[M]]) {to = 5 : i64} : (tensor<4xi32>) -> tensor<4xi16>
// CHECK: "onnx.Clip"({{.*}}) : (tensor<4xi32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
// CHECK: %[[T:.*]] = "onnx.Cast"(%arg3) {to = 2 : i64} : (tensor<4xi1>) -> tensor<4xui8>
// CHECK: %[[F:.*]] = "onnx.Cast"(%arg4) {to = 2 : i64} : (tensor<4xi1>) -> tensor<4xui8>
// CHECK: %[[W:.*]] = "onnx.Where"(%arg2, %[[T]], %[[F]]) : (tensor<4xi1>, tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
// CHECK: %[[WB:.*]] = "onnx.Cast"(%[[W]]) {to = 9 : i64} : (tensor<4xui8>) -> tensor<4xi1>
// CHECK: %[[U:.*]] = "onnx.Cast"(%arg5) {to = 7 : i64} : (tensor<4xui32>) -> tensor<4xi64>
// CHECK: "onnx.ArgMax"(%[[U]]) {keepdims = 0 : i64} : (tensor<4xi64>) -> tensor<i64>
// CHECK: "onnx.Max"(%arg6, %arg6) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK: "onnx.Where"(%arg2, %arg7, %arg7) : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK: return %[[MB]], {{.*}}, %[[WB]]
func.func @widen(%a: tensor<4xi16>, %b: tensor<4xi16>, %c: tensor<4xi1>, %t: tensor<4xi1>, %f: tensor<4xi1>, %u: tensor<4xui32>, %i: tensor<4xi32>, %l: tensor<4xi64>) -> (tensor<4xi16>, tensor<4xi16>, tensor<4xi1>, tensor<i64>, tensor<4xi32>, tensor<4xi64>) {
  %m = "onnx.Max"(%a, %b) : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi16>
  %lo = "onnx.Constant"() {value = dense<0> : tensor<i16>} : () -> tensor<i16>
  %hi = "onnx.Constant"() {value = dense<6> : tensor<i16>} : () -> tensor<i16>
  %k = "onnx.Clip"(%a, %lo, %hi) : (tensor<4xi16>, tensor<i16>, tensor<i16>) -> tensor<4xi16>
  %w = "onnx.Where"(%c, %t, %f) : (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %g = "onnx.ArgMax"(%u) {keepdims = 0 : i64} : (tensor<4xui32>) -> tensor<i64>
  %n = "onnx.Max"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %v = "onnx.Where"(%c, %l, %l) : (tensor<4xi1>, tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %m, %k, %w, %g, %n, %v : tensor<4xi16>, tensor<4xi16>, tensor<4xi1>, tensor<i64>, tensor<4xi32>, tensor<4xi64>
}

// int8 Trilu, int32 Unique (to int64: its kernels are int8, int64 and
// floats) and a bool ScatterElements with a max reduction are widened too;
// a bool ScatterElements without reduction is untouched.
// CHECK-LABEL: func.func @more
// CHECK: %[[T8:.*]] = "onnx.Cast"(%arg0) {to = 6 : i64} : (tensor<3x3xi8>) -> tensor<3x3xi32>
// CHECK: %[[TR:.*]] = "onnx.Trilu"(%[[T8]]) {{.*}} -> tensor<3x3xi32>
// CHECK: "onnx.Cast"(%[[TR]]) {to = 3 : i64} : (tensor<3x3xi32>) -> tensor<3x3xi8>
// CHECK: %[[U:.*]] = "onnx.Cast"(%arg1) {to = 7 : i64} : (tensor<4xi32>) -> tensor<4xi64>
// CHECK: "onnx.Unique"(%[[U]])
// CHECK: "onnx.Cast"(%arg2) {to = 2 : i64} : (tensor<4xi1>) -> tensor<4xui8>
// CHECK: "onnx.ScatterElements"({{.*}}) {axis = 0 : i64, reduction = "max"} : (tensor<4xui8>, tensor<2xi64>, tensor<2xui8>) -> tensor<4xui8>
// CHECK: "onnx.ScatterElements"(%arg2, %arg3, %arg4) {axis = 0 : i64} : (tensor<4xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<4xi1>
func.func @more(%t: tensor<3x3xi8>, %u: tensor<4xi32>, %d: tensor<4xi1>, %i: tensor<2xi64>, %s: tensor<2xi1>) -> (tensor<3x3xi8>, tensor<?xi32>, tensor<4xi1>, tensor<4xi1>) {
  %tr = "onnx.Trilu"(%t) {upper = 0 : i64} : (tensor<3x3xi8>) -> tensor<3x3xi8>
  %y, %idx, %inv, %cnt = "onnx.Unique"(%u) {sorted = 1 : i64} : (tensor<4xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<4xi64>, tensor<?xi64>)
  %mx = "onnx.ScatterElements"(%d, %i, %s) {axis = 0 : i64, reduction = "max"} : (tensor<4xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<4xi1>
  %pl = "onnx.ScatterElements"(%d, %i, %s) {axis = 0 : i64} : (tensor<4xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<4xi1>
  return %tr, %y, %mx, %pl : tensor<3x3xi8>, tensor<?xi32>, tensor<4xi1>, tensor<4xi1>
}
