// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{embeddings=1}))' | FileCheck %s
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{embeddings=1 format=matmulnbits symmetric=0 block=16}))' | FileCheck %s --check-prefix=GBQ
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-quantize-weights))' | FileCheck %s --check-prefix=OFF
// RUN: not aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{embeddings=1 bits=8}))' 2>&1 | FileCheck %s --check-prefix=BITS

// An embedding table [V = 100, H = 64] read by a Gather (axis 0): with
// embeddings=1 it is quantized along H in blocks (4 bits), the transforms
// reading the table itself. Standard form: DequantizeLinear {axis = 1} then
// the Gather; `format=matmulnbits`: GatherBlockQuantized. The table is also
// the tied output projection (through its transpose): the MatMul quantizes
// its own use, and the float table goes (nothing reads it any more). A
// Gather along axis 1, or of a table computed in the graph, stays.
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: onnx.quantized_weights = 2
// CHECK: %[[E:.*]] = "onnx.initializer"() {name = "embed.weight"} : () -> tensor<100x64xf32>
// CHECK: "onnx.MatMul"
// CHECK: %[[Q:.*]] = "onnx.weight_transform"(%[[E]]) {bits = 4 : i64, block_size = 32 : i64, kind = "rtn_data", layout = "gather", symmetric = 1 : i64} : (tensor<100x64xf32>) -> tensor<100x64xi4>
// CHECK: %[[S:.*]] = "onnx.weight_transform"(%[[E]]) {bits = 4 : i64, block_size = 32 : i64, kind = "rtn_scales", layout = "gather", symmetric = 1 : i64} : (tensor<100x64xf32>) -> tensor<100x2xf32>
// CHECK: %[[DQ:.*]] = "onnx.DequantizeLinear"(%[[Q]], %[[S]]) {axis = 1 : i64, block_size = 32 : i64} : (tensor<100x64xi4>, tensor<100x2xf32>) -> tensor<100x64xf32>
// CHECK: "onnx.Gather"(%[[DQ]], %arg0) {axis = 0 : i64} : (tensor<100x64xf32>, tensor<2x5xi64>) -> tensor<2x5x64xf32>
// CHECK: "onnx.Gather"(%{{.*}}, %arg1) {axis = 1 : i64}
// CHECK-NOT: "onnx.DequantizeLinear"

// GBQ: "onnx.weight_transform"(%{{.*}}) {{{.*}}kind = "rtn_data", layout = "gather", symmetric = 0 : i64} : (tensor<100x64xf32>) -> tensor<100x64xui4>
// GBQ: "onnx.weight_transform"(%{{.*}}) {{{.*}}kind = "rtn_scales"{{.*}}} : (tensor<100x64xf32>) -> tensor<100x4xf32>
// GBQ: "onnx.weight_transform"(%{{.*}}) {{{.*}}kind = "rtn_zero_points"{{.*}}} : (tensor<100x64xf32>) -> tensor<100x4xui4>
// GBQ: "onnx.ms.GatherBlockQuantized"(%{{.*}}, %arg0, %{{.*}}, %{{.*}}) {block_size = 16 : i64, gather_axis = 0 : i64, quantize_axis = 1 : i64} : ({{.*}}) -> tensor<2x5x64xf32>

// OFF: onnx.quantized_weights = 1
// OFF: "onnx.Gather"(%{{.*}}, %arg0) {axis = 0 : i64} : (tensor<100x64xf32>, tensor<2x5xi64>)

// BITS: onnx-quantize-weights: embeddings are quantized to 4 bits only
module attributes {onnx.opset = 23 : i64} {
func.func @embedding(%ids: tensor<2x5xi64>, %cols: tensor<3xi64>, %h: tensor<2x64xf32>) -> (tensor<2x5x64xf32>, tensor<2x100xf32>, tensor<100x3xf32>) {
  %e = "onnx.initializer"() {name = "embed.weight"} : () -> tensor<100x64xf32>
  %et = "onnx.weight_transform"(%e) {kind = "transpose", perm = array<i64: 1, 0>} : (tensor<100x64xf32>) -> tensor<64x100xf32>
  %logits = "onnx.MatMul"(%h, %et) : (tensor<2x64xf32>, tensor<64x100xf32>) -> tensor<2x100xf32>
  %x = "onnx.Gather"(%e, %ids) {axis = 0 : i64} : (tensor<100x64xf32>, tensor<2x5xi64>) -> tensor<2x5x64xf32>
  %other = "onnx.initializer"() {name = "other.weight"} : () -> tensor<100x64xf32>
  %c = "onnx.Gather"(%other, %cols) {axis = 1 : i64} : (tensor<100x64xf32>, tensor<3xi64>) -> tensor<100x3xf32>
  return %x, %logits, %c : tensor<2x5x64xf32>, tensor<2x100xf32>, tensor<100x3xf32>
}
}
