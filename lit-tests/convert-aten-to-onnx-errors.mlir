// RUN: aten-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-aten-to-onnx)'
// RUN: not aten-opt %s --pass-pipeline='builtin.module(convert-aten-to-onnx{opset=12})' 2>&1 | FileCheck %s --check-prefix=OPSET

// Every op without a rule is listed, with counts, before anything changes.
// expected-error @+1 {{3 op(s) of 2 kind(s) have no lowering to ONNX opset 23:}}
module {
  func.func @missing(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "aten.fbgemm_pack_quantized_matrix.default"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "aten.fbgemm_pack_quantized_matrix.default"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "aten.fbgemm_pack_gemm_matrix_fp16.default"(%1) : (tensor<2xf32>) -> tensor<2xf32>
    return %2 : tensor<2xf32>
  }
}

// -----

func.func @refused(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'aten.dropout.default' op cannot be lowered: dropout probability has to be between 0 and 1, but got 1.5}}
  %0 = "aten.dropout.default"(%x) {p = 1.5 : f64, train = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// OPSET: invalid pass pipeline: opset 12 is outside the supported range 17..28

// -----

// Per-channel batch-norm tensors must have one value per channel (libtorch
// does not check; onnxruntime would reject the model).
func.func @batch_norm_channels(%x: tensor<2x3x4xf32>, %w: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'aten._native_batch_norm_legit.no_stats' op cannot be lowered: 'weight' has shape [4]; batch norm needs one value per channel (3 channels)}}
  %0:3 = "aten._native_batch_norm_legit.no_stats"(%x, %w, %b) {eps = 1.000000e-05 : f64, momentum = 1.000000e-01 : f64, training = true} : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<2x3x4xf32>
}

// -----

// linalg_polar needs m >= n, as torch does.
func.func @linalg_polar_wide(%a: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<5x5xf32>) {
  // expected-error @+1 {{linalg.polar needs m >= n (a tall or square matrix), got 3x5}}
  %0:2 = "aten.linalg_polar.default"(%a) : (tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<5x5xf32>)
  return %0#0, %0#1 : tensor<3x5xf32>, tensor<5x5xf32>
}

// -----

// A PT2E quantize with a zero scale is refused (torch divides by it).
func.func @zero_scale(%x: tensor<2xf32>) -> tensor<2xi8> {
  // expected-error @+1 {{scale 0 is not a positive float32 number (torch divides by it)}}
  %q = "aten.quantized_decomposed::quantize_per_tensor.default"(%x) {dtype = i8, quant_max = 127 : i64, quant_min = -128 : i64, scale = 0.0 : f64, zero_point = 0 : i64} : (tensor<2xf32>) -> tensor<2xi8>
  return %q : tensor<2xi8>
}
