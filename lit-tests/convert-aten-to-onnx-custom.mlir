// RUN: aten-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-aten-to-onnx)' | FileCheck %s

// A custom op's call (`aten-translate --custom-ops`, src/custom_ops.rs): the
// region holds its ONNX translation instantiated for this call; the lowering
// inlines it, the block arguments replaced by the (lowered) operands, and the
// values it computes take the types torch recorded for the results.
// CHECK-LABEL: func.func @scaled_add
// CHECK-NOT: aten.custom
// CHECK: %[[C:.*]] = "onnx.Constant"() {value = dense<5.000000e-01> : tensor<f32>}
// CHECK: %[[M:.*]] = "onnx.Mul"(%arg1, %[[C]]) : (tensor<2x3xf32>, tensor<f32>) -> tensor<*xf32>
// CHECK: %[[A:.*]] = "onnx.Add"(%arg0, %[[M]]) : (tensor<2x3xf32>, tensor<*xf32>) -> tensor<2x3xf32>
// CHECK: "onnx.Relu"(%[[A]])
module {
func.func @scaled_add(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "aten.custom.mylib::scaled_add.default"(%x, %y) ({
  ^bb0(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>):
    %c = "onnx.Constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
    %m = "onnx.Mul"(%b, %c) : (tensor<2x3xf32>, tensor<f32>) -> tensor<*xf32>
    %s = "onnx.Add"(%a, %m) : (tensor<2x3xf32>, tensor<*xf32>) -> tensor<*xf32>
    "onnx.yield"(%s) : (tensor<*xf32>) -> ()
  }) {alpha = 5.000000e-01 : f64, arg_names = ["x", "y", "alpha"], aten.operand_args = ["x", "y"], aten.translation = "mylib::scaled_add"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "aten.relu.default"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
}

// -----

// A translation passing an input through: the result is the operand itself.
// CHECK-LABEL: func.func @passthrough
// CHECK: %[[N:.*]] = "onnx.Neg"(%arg0)
// CHECK: return %[[N]], %arg0
module {
func.func @passthrough(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = "aten.custom.mylib::pair.default"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %n = "onnx.Neg"(%a) : (tensor<4xf32>) -> tensor<*xf32>
    "onnx.yield"(%n, %a) : (tensor<*xf32>, tensor<4xf32>) -> ()
  }) {arg_names = ["x"], aten.operand_args = ["x"], aten.translation = "mylib::pair"} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}
}

// -----

// A translation computing another element type than torch recorded is a
// wrong translation: refused, not retyped.
module {
func.func @wrong_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cannot be lowered: its translation's output #0 has element type i64, torch computed f32}}
  %0 = "aten.custom.mylib::bad.default"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    %s = "onnx.Shape"(%a) : (tensor<4xf32>) -> tensor<*xi64>
    "onnx.yield"(%s) : (tensor<*xi64>) -> ()
  }) {arg_names = ["x"], aten.operand_args = ["x"], aten.translation = "mylib::bad"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
}
