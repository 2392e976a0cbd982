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
  // expected-error @+1 {{'aten.dropout.default' op cannot be lowered: dropout with train=True is random; export the model in eval mode}}
  %0 = "aten.dropout.default"(%x) {p = 0.5 : f64, train = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// OPSET: invalid pass pipeline: opset 12 is outside the supported range 17..28
