// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{embeddings=1}))' | FileCheck %s
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-quantize-weights{embeddings=1 format=matmulnbits}))' | FileCheck %s --check-prefix=GBQ

// A float16 embedding table quantizes like the float32 table of its values:
// the transforms read the float16 table, the scales are float32, the rows
// are dequantized in float32 and cast back to float16 (the type the model
// reads them in).
// CHECK-LABEL: func.func @half_embedding
// CHECK-SAME: onnx.quantized_weights = 1
// CHECK: %[[Q:.*]] = "onnx.weight_transform"(%{{.*}}) {{{.*}}kind = "rtn_data"{{.*}}} : (tensor<100x64xf16>) -> tensor<100x64xi4>
// CHECK: %[[S:.*]] = "onnx.weight_transform"(%{{.*}}) {{{.*}}kind = "rtn_scales"{{.*}}} : (tensor<100x64xf16>) -> tensor<100x2xf32>
// CHECK: %[[DQ:.*]] = "onnx.DequantizeLinear"(%[[Q]], %[[S]]) {axis = 1 : i64, block_size = 32 : i64} : (tensor<100x64xi4>, tensor<100x2xf32>) -> tensor<100x64xf32>
// CHECK: %[[G:.*]] = "onnx.Gather"(%[[DQ]], %arg0) {axis = 0 : i64} : (tensor<100x64xf32>, tensor<2x5xi64>) -> tensor<2x5x64xf32>
// CHECK: %[[C:.*]] = "onnx.Cast"(%[[G]]) {to = 10 : i64} : (tensor<2x5x64xf32>) -> tensor<2x5x64xf16>
// CHECK: return %[[C]]
// GBQ: %[[G:.*]] = "onnx.ms.GatherBlockQuantized"({{.*}}) {{.*}} -> tensor<2x5x64xf32>
// GBQ: "onnx.Cast"(%[[G]]) {to = 10 : i64} : (tensor<2x5x64xf32>) -> tensor<2x5x64xf16>
module attributes {onnx.opset = 23 : i64} {
func.func @half_embedding(%ids: tensor<2x5xi64>) -> tensor<2x5x64xf16> {
  %e = "onnx.initializer"() {name = "embed.weight"} : () -> tensor<100x64xf16>
  %x = "onnx.Gather"(%e, %ids) {axis = 0 : i64} : (tensor<100x64xf16>, tensor<2x5xi64>) -> tensor<2x5x64xf16>
  return %x : tensor<2x5x64xf16>
}
}
