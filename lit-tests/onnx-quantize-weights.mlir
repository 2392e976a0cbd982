// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-quantize-weights))' | FileCheck %s
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{format=matmulnbits bits=8 symmetric=0 block=16 accuracy-level=0}))' | FileCheck %s --check-prefix=NBITS
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{exclude=lm_head}))' | FileCheck %s --check-prefix=EXCLUDE
// RUN: not aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{block=24}))' 2>&1 | FileCheck %s --check-prefix=BADBLOCK
// RUN: not aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{exclude=(}))' 2>&1 | FileCheck %s --check-prefix=BADREGEX

// A Linear's MatMul on the transposed weight: the weight transform reads the
// [N, K] Linear weight itself (the transpose goes); the default is 4-bit
// symmetric, block 32, DequantizeLinear {axis 0} + MatMul. A Gemm with
// transB keeps its weight as the source and its bias becomes an Add. A
// weight used twice (tied) stays float.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: onnx.quantized_weights = 2
// CHECK: %[[W:.*]] = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<8x64xf32>
// CHECK-NOT: kind = "transpose"
// CHECK: %[[D:.*]] = "onnx.weight_transform"(%[[W]]) {bits = 4 : i64, block_size = 32 : i64, kind = "rtn_data", layout = "qdq", symmetric = 1 : i64} : (tensor<8x64xf32>) -> tensor<64x8xi4>
// CHECK: %[[S:.*]] = "onnx.weight_transform"(%[[W]]) {bits = 4 : i64, block_size = 32 : i64, kind = "rtn_scales", layout = "qdq", symmetric = 1 : i64} : (tensor<8x64xf32>) -> tensor<2x8xf32>
// CHECK: %[[DQ:.*]] = "onnx.DequantizeLinear"(%[[D]], %[[S]]) {axis = 0 : i64, block_size = 32 : i64} : (tensor<64x8xi4>, tensor<2x8xf32>) -> tensor<64x8xf32>
// CHECK: "onnx.MatMul"(%arg0, %[[DQ]])
// CHECK: "onnx.DequantizeLinear"
// CHECK: %[[P:.*]] = "onnx.MatMul"(%arg1, %{{.*}}) : (tensor<3x64xf32>, tensor<64x16xf32>) -> tensor<3x16xf32>
// CHECK: "onnx.Add"(%[[P]], %{{.*}})
// CHECK-NOT: "onnx.Gemm"
// CHECK: "onnx.MatMul"(%arg0, %{{.*}}) : (tensor<?x4x64xf32, ["s0"]>, tensor<64x8xf32>)

// NBITS: func.func @linear
// NBITS: "onnx.weight_transform"(%{{.*}}) {bits = 8 : i64, block_size = 16 : i64, kind = "rtn_data", layout = "matmulnbits", symmetric = 0 : i64} : (tensor<8x64xf32>) -> tensor<8x4x16xui8>
// NBITS: "onnx.weight_transform"(%{{.*}}) {{{.*}}kind = "rtn_scales"{{.*}}} : (tensor<8x64xf32>) -> tensor<8x4xf32>
// NBITS: "onnx.weight_transform"(%{{.*}}) {{{.*}}kind = "rtn_zero_points"{{.*}}} : (tensor<8x64xf32>) -> tensor<8x4xui8>
// NBITS: "onnx.ms.MatMulNBits"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}) {K = 64 : i64, N = 8 : i64, accuracy_level = 0 : i64, bits = 8 : i64, block_size = 16 : i64}

// EXCLUDE: onnx.quantized_weights = 1
// EXCLUDE: "onnx.initializer"() {name = "lm_head.weight"}
// EXCLUDE: "onnx.Gemm"(%arg1, %{{.*}}, %{{.*}}) {transB = 1 : i64}

// BADBLOCK: onnx-quantize-weights: block must be a power of two from 16 to 4096, got 24
// BADREGEX: onnx-quantize-weights: exclude is not a regex
module attributes {onnx.opset = 23 : i64} {
func.func @linear(%x: tensor<?x4x64xf32, ["s0"]>, %y: tensor<3x64xf32>) -> (tensor<?x4x8xf32, ["s0"]>, tensor<3x16xf32>, tensor<?x4x8xf32, ["s0"]>, tensor<8x64xf32>) {
  %w = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<8x64xf32>
  %wt = "onnx.weight_transform"(%w) {kind = "transpose", perm = array<i64: 1, 0>} : (tensor<8x64xf32>) -> tensor<64x8xf32>
  %0 = "onnx.MatMul"(%x, %wt) : (tensor<?x4x64xf32, ["s0"]>, tensor<64x8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  %h = "onnx.initializer"() {name = "lm_head.weight"} : () -> tensor<16x64xf32>
  %b = "onnx.initializer"() {name = "lm_head.bias"} : () -> tensor<16xf32>
  %1 = "onnx.Gemm"(%y, %h, %b) {transB = 1 : i64} : (tensor<3x64xf32>, tensor<16x64xf32>, tensor<16xf32>) -> tensor<3x16xf32>
  %e = "onnx.initializer"() {name = "tied.weight"} : () -> tensor<64x8xf32>
  %2 = "onnx.MatMul"(%x, %e) : (tensor<?x4x64xf32, ["s0"]>, tensor<64x8xf32>) -> tensor<?x4x8xf32, ["s0"]>
  %3 = "onnx.Transpose"(%e) {perm = array<i64: 1, 0>} : (tensor<64x8xf32>) -> tensor<8x64xf32>
  return %0, %1, %2, %3 : tensor<?x4x8xf32, ["s0"]>, tensor<3x16xf32>, tensor<?x4x8xf32, ["s0"]>, tensor<8x64xf32>
}
}
