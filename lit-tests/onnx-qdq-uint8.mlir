// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-qdq-uint8))' | FileCheck %s
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-qdq-uint8{keep-symmetric=1}))' | FileCheck %s --check-prefix=SYM
// RUN: not aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-qdq-uint8{keep-symmetric=2}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: keep-symmetric must be 0 or 1, got '2'

// An int8 activation quantized and dequantized (twice, once through a
// Reshape, and its shape read) becomes uint8: the zero points move by 128,
// per axis too; the int8 weight, which no QuantizeLinear produces, stays.
// CHECK-LABEL: func.func @pair
// CHECK-DAG: %[[Z:.*]] = "onnx.Constant"() {value = dense<125> : tensor<ui8>}
// CHECK-DAG: %[[Q:.*]] = "onnx.QuantizeLinear"(%arg0, %{{.*}}, %[[Z]]) : (tensor<2x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x6xui8>
// CHECK-DAG: %[[R:.*]] = "onnx.Reshape"(%[[Q]], %{{.*}}) : (tensor<2x6xui8>, tensor<2xi64>) -> tensor<3x4xui8>
// CHECK-DAG: "onnx.DequantizeLinear"(%[[R]], %{{.*}}, %{{.*}}) : (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<3x4xf32>
// CHECK-DAG: "onnx.DequantizeLinear"(%[[Q]], %{{.*}}, %{{.*}}) : (tensor<2x6xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x6xf32>
// CHECK-DAG: "onnx.Shape"(%[[Q]]) : (tensor<2x6xui8>) -> tensor<2xi64>
// CHECK-DAG: "onnx.Constant"() {value = dense<[0, 128, 255]> : tensor<3xui8>}
// CHECK-DAG: "onnx.QuantizeLinear"(%arg1, %arg2, %{{.*}}) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<2x3xui8>
// CHECK-DAG: "onnx.DequantizeLinear"(%arg3, %{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<4x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<4x3xf32>
// CHECK-NOT: dense<-3> : tensor<i8>
module attributes {onnx.opset = 21 : i64} {
func.func @pair(%x: tensor<2x6xf32>, %p: tensor<2x3xf32>, %ps: tensor<3xf32>, %w: tensor<4x3xi8>) -> (tensor<3x4xf32>, tensor<2x6xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<4x3xf32>) {
  %s = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %q = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<2x6xf32>, tensor<f32>, tensor<i8>) -> tensor<2x6xi8>
  %shape = "onnx.Constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "onnx.Reshape"(%q, %shape) : (tensor<2x6xi8>, tensor<2xi64>) -> tensor<3x4xi8>
  %d1 = "onnx.DequantizeLinear"(%r, %s, %z) : (tensor<3x4xi8>, tensor<f32>, tensor<i8>) -> tensor<3x4xf32>
  %d2 = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<2x6xi8>, tensor<f32>, tensor<i8>) -> tensor<2x6xf32>
  %n = "onnx.Shape"(%q) : (tensor<2x6xi8>) -> tensor<2xi64>
  %pz = "onnx.Constant"() {value = dense<[-128, 0, 127]> : tensor<3xi8>} : () -> tensor<3xi8>
  %pq = "onnx.QuantizeLinear"(%p, %ps, %pz) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xi8>
  %pd = "onnx.DequantizeLinear"(%pq, %ps, %pz) {axis = 1 : i64} : (tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3xf32>
  %wz = "onnx.Constant"() {value = dense<0> : tensor<3xi8>} : () -> tensor<3xi8>
  %wd = "onnx.DequantizeLinear"(%w, %ps, %wz) {axis = 1 : i64} : (tensor<4x3xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<4x3xf32>
  return %d1, %d2, %n, %pd, %wd : tensor<3x4xf32>, tensor<2x6xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<4x3xf32>
}
}

// -----

// Left alone: a quantized value that is also a result, one read by a Clip
// (a narrower range), a uint8 pair, and a dynamic zero point.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: ui8>) -> tensor<2x3xui8>
// CHECK: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
// CHECK: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
// CHECK: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
// CHECK: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %arg1) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
module attributes {onnx.opset = 21 : i64} {
func.func @kept(%x: tensor<2x3xf32>, %dz: tensor<i8>) -> (tensor<2x3xi8>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %s = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %q = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %d = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %q2 = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %lo = "onnx.Constant"() {value = dense<-100> : tensor<i8>} : () -> tensor<i8>
  %hi = "onnx.Constant"() {value = dense<100> : tensor<i8>} : () -> tensor<i8>
  %c = "onnx.Clip"(%q2, %lo, %hi) : (tensor<2x3xi8>, tensor<i8>, tensor<i8>) -> tensor<2x3xi8>
  %d2 = "onnx.DequantizeLinear"(%c, %s, %z) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %uz = "onnx.Constant"() {value = dense<9> : tensor<ui8>} : () -> tensor<ui8>
  %q3 = "onnx.QuantizeLinear"(%x, %s, %uz) : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  %d3 = "onnx.DequantizeLinear"(%q3, %s, %uz) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  %q4 = "onnx.QuantizeLinear"(%x, %s, %dz) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %d4 = "onnx.DequantizeLinear"(%q4, %s, %dz) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  return %q, %d, %d2, %d3, %d4 : tensor<2x3xi8>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
}

// -----

// Symmetric int8 activations (every zero point 0): uint8 with zero point
// 128 by default; with keep-symmetric=1 (the default target's form) a
// function whose every pair is symmetric stays as it is, and one with an
// asymmetric pair converts all (a zero point of 0 there is a coincidence of
// calibration).
// CHECK-LABEL: func.func @symmetric
// CHECK: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
// CHECK: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
// SYM-LABEL: func.func @symmetric
// SYM: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
// SYM: "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
module attributes {onnx.opset = 21 : i64} {
func.func @symmetric(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %s = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %d = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %s2 = "onnx.Constant"() {value = dense<0.2> : tensor<f32>} : () -> tensor<f32>
  %q2 = "onnx.QuantizeLinear"(%x, %s2, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %d2 = "onnx.DequantizeLinear"(%q2, %s2, %z) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  return %d, %d2 : tensor<2x3xf32>, tensor<2x3xf32>
}
}

// -----

// CHECK-LABEL: func.func @mixed
// CHECK-COUNT-2: -> tensor<2x3xui8>
// SYM-LABEL: func.func @mixed
// SYM-COUNT-2: -> tensor<2x3xui8>
module attributes {onnx.opset = 21 : i64} {
func.func @mixed(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %s = "onnx.Constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = "onnx.QuantizeLinear"(%x, %s, %z) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %d = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  %z2 = "onnx.Constant"() {value = dense<5> : tensor<i8>} : () -> tensor<i8>
  %q2 = "onnx.QuantizeLinear"(%x, %s, %z2) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %d2 = "onnx.DequantizeLinear"(%q2, %s, %z2) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
  return %d, %d2 : tensor<2x3xf32>, tensor<2x3xf32>
}
}
