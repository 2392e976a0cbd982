// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-fold-constants))' | FileCheck %s

// Shape arithmetic on static dims folds to a constant; the dynamic dim stays computed.
// CHECK-LABEL: func.func @shapes
// Adjacent constants of a shape vector merge into one.
// CHECK: %[[D:.*]] = "onnx.Shape"(%arg0) {end = 1 : i64, start = 0 : i64}
// CHECK: %[[C:.*]] = "onnx.Constant"() {value = dense<[8, 4]> : tensor<2xi64>}
// CHECK: %[[S:.*]] = "onnx.Concat"(%[[D]], %[[C]]) {axis = 0 : i64}
// CHECK: "onnx.Reshape"(%arg0, %[[S]])
func.func @shapes(%arg0: tensor<?x32xf32, ["s0"]>) -> tensor<?x8x4xf32, ["s0"]> {
  %d = "onnx.Shape"(%arg0) {start = 0 : i64, end = 1 : i64} : (tensor<?x32xf32, ["s0"]>) -> tensor<1xi64>
  %s = "onnx.Shape"(%arg0) {start = 1 : i64} : (tensor<?x32xf32, ["s0"]>) -> tensor<1xi64>
  %four = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %q = "onnx.Div"(%s, %four) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %shape = "onnx.Concat"(%d, %q, %four) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %r = "onnx.Reshape"(%arg0, %shape) : (tensor<?x32xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x8x4xf32, ["s0"]>
  return %r : tensor<?x8x4xf32, ["s0"]>
}

// -----

// Gather / Slice / Unsqueeze of constants fold; float math is left alone.
// CHECK-LABEL: func.func @gather_slice
// CHECK: %[[C:.*]] = "onnx.Constant"() {value = dense<[3, 4]> : tensor<2xi64>}
// CHECK: "onnx.Add"
// CHECK: return %[[C]]
func.func @gather_slice(%f: tensor<2xf32>) -> (tensor<2xi64>, tensor<2xf32>) {
  %c = "onnx.Constant"() {value = dense<[2, 3, 4, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  %i = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %g = "onnx.Gather"(%c, %i) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %a = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %u = "onnx.Unsqueeze"(%g, %a) : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %s0 = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %s1 = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %sl = "onnx.Slice"(%c, %s0, %s1) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = "onnx.Concat"(%u, %sl) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %ff = "onnx.Add"(%f, %f) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %r, %ff : tensor<2xi64>, tensor<2xf32>
}

// -----

// Gather of a Shape picking static dims folds although other dims are
// symbolic (the TorchScript exporter reads a head size so); a symbolic or
// out-of-range pick stays.
// CHECK-LABEL: func.func @gather_of_shape
// CHECK-DAG: %[[H:.*]] = "onnx.Constant"() {value = dense<8> : tensor<i64>}
// CHECK-DAG: %[[P:.*]] = "onnx.Constant"() {value = dense<[4, 8]> : tensor<2xi64>}
// CHECK-DAG: %[[B:.*]] = "onnx.Gather"(%[[S:.*]], %{{.*}}) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
// CHECK-DAG: %[[O:.*]] = "onnx.Gather"(%[[S]], %{{.*}}) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
// CHECK: return %[[H]], %[[P]], %[[B]], %[[O]]
func.func @gather_of_shape(%x: tensor<?x4x?x8xf32, ["b", "s"]>) -> (tensor<i64>, tensor<2xi64>, tensor<i64>, tensor<i64>) {
  %s = "onnx.Shape"(%x) : (tensor<?x4x?x8xf32, ["b", "s"]>) -> tensor<4xi64>
  %three = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %h = "onnx.Gather"(%s, %three) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %idx = "onnx.Constant"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %p = "onnx.Gather"(%s, %idx) {axis = 0 : i64} : (tensor<4xi64>, tensor<2xi64>) -> tensor<2xi64>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %b = "onnx.Gather"(%s, %zero) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %four = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %o = "onnx.Gather"(%s, %four) {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  return %h, %p, %b, %o : tensor<i64>, tensor<2xi64>, tensor<i64>, tensor<i64>
}
