// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dce))' | FileCheck %s

// Dead chains of aten ops go, including unused weights and symbolic values.
// CHECK-LABEL: func.func @dead_chain
// CHECK-NEXT: %[[R:.*]] = "aten.relu.default"(%arg0)
// CHECK-NEXT: return %[[R]]
func.func @dead_chain(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = "aten.weight"() {kind = "parameter", name = "unused.weight"} : () -> tensor<4x4xf32>
  %0 = "aten.linear.default"(%arg0, %w) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %1 = "aten.sigmoid.default"(%0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = "aten.sym_size.int"(%arg0) {dim = 0 : i64} : (tensor<2x4xf32>) -> i64
  %c = "aten.sym.constant"() {value = 2 : i64} : () -> i64
  %m = "aten.sym.mul"(%s, %c) : (i64, i64) -> i64
  %2 = "aten.relu.default"(%arg0) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}

// -----

// Inplace and out= variants write their arguments: kept even when unused.
// CHECK-LABEL: func.func @side_effects
// CHECK: "aten.add_.Tensor"
// CHECK: "aten.mul.out"
// CHECK-NOT: "aten.neg.default"
func.func @side_effects(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "aten.add_.Tensor"(%arg0, %arg1) {alpha = 1 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "aten.mul.out"(%arg0, %arg1, %arg1) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "aten.neg.default"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %arg0 : tensor<2xf32>
}

// -----

// onnx ops are side-effect free.
// CHECK-LABEL: func.func @onnx_ops
// CHECK-NOT: "onnx.Sqrt"
// CHECK: "onnx.Abs"
func.func @onnx_ops(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "onnx.Sqrt"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "onnx.Abs"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// Dead ops inside higher-order op regions go; the op itself stays.
// CHECK-LABEL: func.func @regions
// CHECK: "aten.hop.cond"
// CHECK-NOT: "aten.exp.default"
// CHECK: "aten.sin.default"
// CHECK: "aten.yield"
func.func @regions(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "aten.hop.cond"(%p, %x) ({
  ^bb0(%a: tensor<2xf32>):
    %e = "aten.exp.default"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    %s = "aten.sin.default"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    "aten.yield"(%s) : (tensor<2xf32>) -> ()
  }, {
  ^bb0(%a: tensor<2xf32>):
    "aten.yield"(%a) : (tensor<2xf32>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Ops of other dialects are left alone.
// CHECK-LABEL: func.func @other_dialects
// CHECK: arith.addi
func.func @other_dialects(%a: i64) -> i64 {
  %0 = arith.addi %a, %a : i64
  return %a : i64
}
