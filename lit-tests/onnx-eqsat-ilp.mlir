// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{extract=ilp}))' | FileCheck %s
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{extract=ilp ilp-time-limit-ms=0}))' | FileCheck %s --check-prefix=NOTIME
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{extract=greedy}))' | FileCheck %s --check-prefix=GREEDY
// RUN: not aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{extract=exact}))' 2>&1 | FileCheck %s --check-prefix=BAD

// Exact extraction (integer linear programming, warm-started with greedy's
// choice): the same program as greedy's here (greedy is optimal on it), the
// solver's status and both costs recorded. With no time, greedy's choice is
// kept and the status says why.

// CHECK: cost_greedy = [[COST:[0-9]+]] : i64, cost_ilp = [[COST]] : i64
// CHECK-SAME: extract = "ilp"
// CHECK-SAME: ilp_status = "optimal"
// CHECK: "onnx.RMSNormalization"
// CHECK-NOT: "onnx.Transpose"
// CHECK: "onnx.Abs"

// NOTIME: ilp_status = "time limit"
// NOTIME: "onnx.RMSNormalization"
// NOTIME: "onnx.Abs"

// GREEDY-NOT: ilp_status
// GREEDY: "onnx.RMSNormalization"

// BAD: onnx-eqsat: option 'extract' must be 'greedy' or 'ilp', got 'exact'
module attributes {onnx.opset = 23 : i64} {
func.func @f(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %sq = "onnx.Pow"(%x, %two) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %eps = "onnx.Constant"() {value = dense<1.0e-6> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%m, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %r = "onnx.Reciprocal"(%s) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Mul"(%x, %r) : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %t = "onnx.Transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<8x2xf32>
  %u = "onnx.Transpose"(%t) {perm = array<i64: 1, 0>} : (tensor<8x2xf32>) -> tensor<2x8xf32>
  %v = "onnx.Abs"(%u) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %n, %v : tensor<2x8xf32>, tensor<2x8xf32>
}
}
