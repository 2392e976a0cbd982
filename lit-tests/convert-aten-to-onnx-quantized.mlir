// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(convert-aten-to-onnx)' | FileCheck %s

// The lowering of PT2E quantization ops (docs/quantization.md; the numbers
// are checked against eager by tests/ops/qd_* and tests/ops/tao_*).
// Per tensor, full int8 range: QuantizeLinear with the float32 scale and an
// int8 zero point, DequantizeLinear back. A range narrower than the type
// ([-127, 127]) adds a Clip. An int32 result, which QuantizeLinear lacks, is
// torch's arithmetic written out: round(x * f32(1 / scale)) + zp, clamp, cast.
// CHECK-LABEL: func.func @per_tensor
// CHECK: %[[Q:.*]] = "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
// CHECK: "onnx.DequantizeLinear"(%[[Q]], %{{.*}}, %{{.*}}) : (tensor<2x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3xf32>
// CHECK: %[[N:.*]] = "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}})
// CHECK: "onnx.Clip"(%[[N]], %{{.*}}, %{{.*}}) : (tensor<2x3xi8>, tensor<i8>, tensor<i8>) -> tensor<2x3xi8>
// CHECK: %[[M:.*]] = "onnx.Mul"(%arg0, %{{.*}})
// CHECK: %[[R:.*]] = "onnx.Round"(%[[M]])
// CHECK: "onnx.Add"(%[[R]], %{{.*}})
// CHECK: "onnx.Max"
// CHECK: "onnx.Min"
// CHECK: "onnx.Cast"(%{{.*}}) {to = 6 : i64} : (tensor<*xf32>) -> tensor<2x3xi32>
module {
func.func @per_tensor(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi8>, tensor<2x3xi32>) {
  %q = "aten.quantized_decomposed::quantize_per_tensor.default"(%x) {dtype = i8, quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.03125 : f64, zero_point = 6 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  %d = "aten.quantized_decomposed::dequantize_per_tensor.default"(%q) {dtype = i8, quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.03125 : f64, zero_point = 6 : i64} : (tensor<2x3xi8>) -> tensor<2x3xf32>
  %n = "aten.quantized_decomposed::quantize_per_tensor.default"(%x) {dtype = i8, quant_max = 127 : i64, quant_min = -127 : i64, scale = 0.5 : f64, zero_point = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi8>
  %w = "aten.quantized_decomposed::quantize_per_tensor.default"(%x) {dtype = i32, quant_max = 1000 : i64, quant_min = -1000 : i64, scale = 0.1 : f64, zero_point = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  return %d, %n, %w : tensor<2x3xf32>, tensor<2x3xi8>, tensor<2x3xi32>
}
}

// -----

// Per channel: PT2E's int8 weights with their int64 zero-point buffer, which
// becomes an int8 initializer the writer narrows value by value (a
// `narrow` weight transform); DequantizeLinear on the channel axis.
// CHECK-LABEL: func.func @per_channel
// CHECK: %[[Z:.*]] = "onnx.initializer"() {name = "_zero_point_0"} : () -> tensor<4xi64>
// CHECK: %[[Z8:.*]] = "onnx.weight_transform"(%[[Z]]) {kind = "narrow", to = 3 : i64} : (tensor<4xi64>) -> tensor<4xi8>
// CHECK: "onnx.DequantizeLinear"(%{{.*}}, %{{.*}}, %[[Z8]]) {axis = 0 : i64} : (tensor<4x3xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x3xf32>
module {
func.func @per_channel() -> tensor<4x3xf32> {
  %w = "aten.weight"() {kind = "buffer", name = "_frozen_param0"} : () -> tensor<4x3xi8>
  %s = "aten.weight"() {kind = "buffer", name = "_scale_0"} : () -> tensor<4xf32>
  %z = "aten.weight"() {kind = "buffer", name = "_zero_point_0"} : () -> tensor<4xi64>
  %d = "aten.quantized_decomposed::dequantize_per_channel.default"(%w, %s, %z) {axis = 0 : i64, dtype = i8, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, quant_max = 127 : i64, quant_min = -127 : i64} : (tensor<4x3xi8>, tensor<4xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %d : tensor<4x3xf32>
}
}

// -----

// A dynamically quantized Linear (PT2E is_dynamic: the input's scale and
// zero point computed by choose_qparams) is MatMulInteger on the integers
// (rules/helpers/integer_matmul_common.rs): the int8 input quantized again
// as uint8 with its zero point + 128, the int8 weight transposed to [K, N]
// with its per-channel zero points, the int32 sums times the two scales.
// A static scale keeps the QDQ form (MatMul on DequantizeLinear), which
// runtimes fuse themselves.
// CHECK-LABEL: func.func @dynamic_linear
// CHECK: %[[WT:.*]] = "onnx.Transpose"(%{{.*}}) {perm = array<i64: 1, 0>} : (tensor<12x16xi8>) -> tensor<16x12xi8>
// CHECK: %[[Q:.*]] = "onnx.QuantizeLinear"(%arg0, %{{.*}}, %{{.*}}) : (tensor<?x5x16xf32, ["s0"]>, tensor<f32>, tensor<ui8>) -> tensor<?x5x16xui8, ["s0"]>
// CHECK: %[[ACC:.*]] = "onnx.MatMulInteger"(%[[Q]], %[[WT]], %{{.*}}, %{{.*}}) : (tensor<?x5x16xui8, ["s0"]>, tensor<16x12xi8>, tensor<ui8>, tensor<12xi8>) -> tensor<?x5x12xi32, ["s0"]>
// CHECK: "onnx.Cast"(%[[ACC]]) {to = 1 : i64}
// CHECK: "onnx.Add"
// CHECK-LABEL: func.func @static_linear
// CHECK-NOT: MatMulInteger
// CHECK: "onnx.MatMul"
module {
func.func @dynamic_linear(%x: tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x12xf32, ["s0"]> {
  %w = "aten.weight"() {kind = "buffer", name = "_frozen_param0"} : () -> tensor<12x16xi8>
  %s = "aten.weight"() {kind = "buffer", name = "_scale_0"} : () -> tensor<12xf32>
  %z = "aten.weight"() {kind = "buffer", name = "_zero_point_0"} : () -> tensor<12xi64>
  %b = "aten.weight"() {kind = "buffer", name = "b"} : () -> tensor<12xf32>
  %wd = "aten.quantized_decomposed::dequantize_per_channel.default"(%w, %s, %z) {axis = 0 : i64, dtype = i8, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, quant_max = 127 : i64, quant_min = -127 : i64} : (tensor<12x16xi8>, tensor<12xf32>, tensor<12xi64>) -> tensor<12x16xf32>
  %qp:2 = "aten.quantized_decomposed::choose_qparams.tensor"(%x) {dtype = i8, eps = 2.44140625E-4 : f64, quant_max = 127 : i64, quant_min = -128 : i64} : (tensor<?x5x16xf32, ["s0"]>) -> (tensor<1xf64>, tensor<1xi64>)
  %q = "aten.quantized_decomposed::quantize_per_tensor.tensor"(%x, %qp#0, %qp#1) {dtype = i8, quant_max = 127 : i64, quant_min = -128 : i64} : (tensor<?x5x16xf32, ["s0"]>, tensor<1xf64>, tensor<1xi64>) -> tensor<?x5x16xi8, ["s0"]>
  %d = "aten.quantized_decomposed::dequantize_per_tensor.tensor"(%q, %qp#0, %qp#1) {dtype = i8, quant_max = 127 : i64, quant_min = -128 : i64} : (tensor<?x5x16xi8, ["s0"]>, tensor<1xf64>, tensor<1xi64>) -> tensor<?x5x16xf32, ["s0"]>
  %y = "aten.linear.default"(%d, %wd, %b) : (tensor<?x5x16xf32, ["s0"]>, tensor<12x16xf32>, tensor<12xf32>) -> tensor<?x5x12xf32, ["s0"]>
  return %y : tensor<?x5x12xf32, ["s0"]>
}
func.func @static_linear(%x: tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x12xf32, ["s0"]> {
  %w = "aten.weight"() {kind = "buffer", name = "_frozen_param1"} : () -> tensor<12x16xi8>
  %s = "aten.weight"() {kind = "buffer", name = "_scale_1"} : () -> tensor<12xf32>
  %z = "aten.weight"() {kind = "buffer", name = "_zero_point_1"} : () -> tensor<12xi64>
  %wd = "aten.quantized_decomposed::dequantize_per_channel.default"(%w, %s, %z) {axis = 0 : i64, dtype = i8, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, quant_max = 127 : i64, quant_min = -127 : i64} : (tensor<12x16xi8>, tensor<12xf32>, tensor<12xi64>) -> tensor<12x16xf32>
  %q = "aten.quantized_decomposed::quantize_per_tensor.default"(%x) {dtype = i8, quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.05 : f64, zero_point = 3 : i64} : (tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xi8, ["s0"]>
  %d = "aten.quantized_decomposed::dequantize_per_tensor.default"(%q) {dtype = i8, quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.05 : f64, zero_point = 3 : i64} : (tensor<?x5x16xi8, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %y = "aten.linear.default"(%d, %wd) : (tensor<?x5x16xf32, ["s0"]>, tensor<12x16xf32>) -> tensor<?x5x12xf32, ["s0"]>
  return %y : tensor<?x5x12xf32, ["s0"]>
}
}
