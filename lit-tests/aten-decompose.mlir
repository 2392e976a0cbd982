// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(aten-decompose)' | FileCheck %s
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(aten-decompose{ops=aten.arccos.default legal-ops=aten.tanh_backward.default})' | FileCheck %s --check-prefix=LISTED

// An op without a lowering rule becomes simpler aten ops; ops with rules stay.
// CHECK-LABEL: func.func @tanh_backward
// CHECK-NOT: aten.tanh_backward
// CHECK: %[[YY:.*]] = "aten.mul.Tensor"(%arg1, %arg1)
// CHECK: %[[T:.*]] = "aten.rsub.Scalar"(%[[YY]]) {alpha = 1 : i64, other = 1.000000e+00 : f64}
// CHECK: %[[G:.*]] = "aten.mul.Tensor"(%arg0, %[[T]])
// CHECK: "aten.tanh.default"(%arg1)
// CHECK: return %[[G]]
// LISTED-LABEL: func.func @tanh_backward
// LISTED: "aten.tanh_backward.default"
func.func @tanh_backward(%g: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "aten.tanh_backward.default"(%g, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "aten.tanh.default"(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Aliases become the op they name (decomposed by default: no rule; and when
// listed with `ops=`).
// CHECK-LABEL: func.func @alias
// CHECK: "aten.acos.default"(%arg0)
// LISTED-LABEL: func.func @alias
// LISTED: "aten.acos.default"(%arg0)
func.func @alias(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "aten.arccos.default"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A decomposition's ops are decomposed in turn when they qualify, and
// results keep their types: one_hot is unsqueeze == arange, cast to int64.
// CHECK-LABEL: func.func @one_hot
// CHECK: "aten.unsqueeze.default"(%arg0) {dim = -1 : i64} : (tensor<3xi64>) -> tensor<3x1xi64>
// CHECK: "aten.arange.default"() {dtype = i64, end = 4 : i64} : () -> tensor<4xi64>
// CHECK: "aten.eq.Tensor"
// CHECK: "aten._to_copy.default"{{.*}} -> tensor<3x4xi64>
func.func @one_hot(%x: tensor<3xi64>) -> tensor<3x4xi64> {
  %0 = "aten.one_hot.default"(%x) {num_classes = 4 : i64} : (tensor<3xi64>) -> tensor<3x4xi64>
  return %0 : tensor<3x4xi64>
}
