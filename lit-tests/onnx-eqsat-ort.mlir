// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-eqsat{target=onnxruntime}))' | FileCheck %s
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-eqsat))' | FileCheck %s --check-prefix=STD
// RUN: not aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-eqsat{target=tensorrt}))' 2>&1 | FileCheck %s --check-prefix=BAD

// The rules of the `onnxruntime` target (`ort_*` families: com.microsoft
// contrib ops), checked by their full names (`every_eqsat_rule_has_tests`
// reads this file too). Without the target (STD) none of them runs: the
// output stays standard ONNX, except where a module says
// `onnx.target = "onnxruntime"` itself (last case).

// BAD: onnx-eqsat: option 'target' must be 'standard' or 'onnxruntime', got 'tensorrt'
// STD-NOT: onnx.ms.

// Residual Add + RMSNormalization: one SkipSimplifiedLayerNormalization;
// the sum is also returned, so the op's fourth output replaces the Add.
// CHECK-LABEL: func.func @skip_rms_sum
// CHECK-SAME: "ort_normalization/skip-simplified-layer-normalization" = 1
// CHECK-NOT: "onnx.Add"
// CHECK: %[[T:.*]]:4 = "onnx.ms.SkipSimplifiedLayerNormalization"(%arg0, %arg1, %arg2) {epsilon = 9.99999997E-7 : f32}
// CHECK-SAME: -> (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x1xf32, ["s0"]>, tensor<?x5x1xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>)
// CHECK-NOT: "onnx.Add"
// CHECK: return %[[T]]#0, %[[T]]#3
module attributes {onnx.opset = 23 : i64} {
func.func @skip_rms_sum(%x: tensor<?x5x16xf32, ["s0"]>, %k: tensor<?x5x16xf32, ["s0"]>, %w: tensor<16xf32>) -> (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) {
  %s = "onnx.Add"(%x, %k) : (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %n = "onnx.RMSNormalization"(%s, %w) {axis = 2 : i64, epsilon = 1.0e-06 : f32} : (tensor<?x5x16xf32, ["s0"]>, tensor<16xf32>) -> tensor<?x5x16xf32, ["s0"]>
  return %n, %s : tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>
}
}

// -----

// Only the normalized value is used: one result. A 2-D [T, H] input fuses
// too; a skip that broadcasts (Add of [T, H] and [H]) and a normalization
// over two axes do not.
// CHECK-LABEL: func.func @skip_rms_alone
// CHECK-SAME: "ort_normalization/skip-simplified-layer-normalization" = 1
// CHECK: %[[Y:.*]] = "onnx.ms.SkipSimplifiedLayerNormalization"(%arg1, %arg0, %arg2) {epsilon = 9.99999974E-6 : f32} : (tensor<7x16xf32>, tensor<7x16xf32>, tensor<16xf32>) -> tensor<7x16xf32>
// CHECK: "onnx.Add"(%arg0, %arg2)
// CHECK: "onnx.RMSNormalization"
// CHECK: "onnx.Add"(%arg3, %arg3)
// CHECK: "onnx.RMSNormalization"
// CHECK: return %[[Y]]
module attributes {onnx.opset = 23 : i64} {
func.func @skip_rms_alone(%x: tensor<7x16xf32>, %k: tensor<7x16xf32>, %w: tensor<16xf32>, %z: tensor<2x3x4xf32>) -> (tensor<7x16xf32>, tensor<7x16xf32>, tensor<2x3x4xf32>) {
  %s = "onnx.Add"(%k, %x) : (tensor<7x16xf32>, tensor<7x16xf32>) -> tensor<7x16xf32>
  %n = "onnx.RMSNormalization"(%s, %w) : (tensor<7x16xf32>, tensor<16xf32>) -> tensor<7x16xf32>
  %b = "onnx.Add"(%x, %w) : (tensor<7x16xf32>, tensor<16xf32>) -> tensor<7x16xf32>
  %m = "onnx.RMSNormalization"(%b, %w) {axis = -1 : i64} : (tensor<7x16xf32>, tensor<16xf32>) -> tensor<7x16xf32>
  %zz = "onnx.Add"(%z, %z) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %ones = "onnx.Constant"() {value = dense<1.0> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
  %o = "onnx.RMSNormalization"(%zz, %ones) {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return %n, %m, %o : tensor<7x16xf32>, tensor<7x16xf32>, tensor<2x3x4xf32>
}
}

// -----

// Residual Add + LayerNormalization stays standard: onnxruntime's
// SkipLayerNormalization is slower than Add + LayerNormalization on CPU at
// every size measured (ort_normalization.rs). A residual Add +
// RMSNormalization over more than 64 values (hidden 128) stays too.
// CHECK-LABEL: func.func @skip_layer_not_fused
// CHECK-NOT: "onnx.ms.
// CHECK: %[[S:.*]] = "onnx.Add"(%arg0, %arg1)
// CHECK: "onnx.LayerNormalization"(%[[S]], %arg2, %arg3)
// CHECK-NOT: "onnx.ms.
// CHECK: %[[T:.*]] = "onnx.Add"(%arg4, %arg5)
// CHECK: "onnx.RMSNormalization"(%[[T]], %arg6)
// CHECK-NOT: "onnx.ms.
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @skip_layer_not_fused(%x: tensor<?x5x16xf32, ["s0"]>, %k: tensor<?x5x16xf32, ["s0"]>, %w: tensor<16xf32>, %b: tensor<16xf32>, %y: tensor<2x3x128xf32>, %j: tensor<2x3x128xf32>, %v: tensor<128xf32>) -> (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>, tensor<2x3x128xf32>, tensor<2x3x128xf32>) {
  %s = "onnx.Add"(%x, %k) : (tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]>
  %n = "onnx.LayerNormalization"(%s, %w, %b) {axis = -1 : i64} : (tensor<?x5x16xf32, ["s0"]>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x5x16xf32, ["s0"]>
  %t = "onnx.Add"(%y, %j) : (tensor<2x3x128xf32>, tensor<2x3x128xf32>) -> tensor<2x3x128xf32>
  %r = "onnx.RMSNormalization"(%t, %v) {axis = -1 : i64} : (tensor<2x3x128xf32>, tensor<128xf32>) -> tensor<2x3x128xf32>
  return %n, %s, %r, %t : tensor<?x5x16xf32, ["s0"]>, tensor<?x5x16xf32, ["s0"]>, tensor<2x3x128xf32>, tensor<2x3x128xf32>
}
}

// -----

// SiLU and QuickGelu: x * Sigmoid(x), x * Sigmoid(1.702 x) -> QuickGelu;
// x * Sigmoid(y) of another y stays.
// CHECK-LABEL: func.func @quick_gelu
// CHECK-SAME: "ort_activation/quick-gelu" = 2
// CHECK-DAG: %[[A:.*]] = "onnx.ms.QuickGelu"(%arg0) {alpha = 1.000000e+00 : f32}
// CHECK-DAG: %[[B:.*]] = "onnx.ms.QuickGelu"(%arg0) {alpha = 1.702000e+00 : f32}
// CHECK-DAG: %[[S:.*]] = "onnx.Sigmoid"(%arg1)
// CHECK-DAG: %[[C:.*]] = "onnx.Mul"(%arg0, %[[S]])
// CHECK: return %[[A]], %[[B]], %[[C]]
module attributes {onnx.opset = 23 : i64} {
func.func @quick_gelu(%x: tensor<4x16xf32>, %y: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %s = "onnx.Sigmoid"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = "onnx.Mul"(%s, %x) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %k = "onnx.Constant"() {value = dense<1.702> : tensor<1xf32>} : () -> tensor<1xf32>
  %xk = "onnx.Mul"(%x, %k) : (tensor<4x16xf32>, tensor<1xf32>) -> tensor<4x16xf32>
  %t = "onnx.Sigmoid"(%xk) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = "onnx.Mul"(%x, %t) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = "onnx.Sigmoid"(%y) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = "onnx.Mul"(%x, %u) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %a, %b, %c : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}
}

// -----

// A bias Add folded into the standard tanh Gelu: FastGelu; the exact
// Gelu (opset 20 on) keeps its Add (BiasGelu does not pay over the
// standard op, ort_activation.rs), and so does a bias that is not a vector
// over the last axis.
// CHECK-LABEL: func.func @gelu_bias
// CHECK-SAME: "ort_activation/fast-gelu" = 1
// CHECK-NOT: "onnx.ms.BiasGelu"
// CHECK-DAG: %[[S:.*]] = "onnx.Add"(%arg0, %arg1)
// CHECK-DAG: %[[A:.*]] = "onnx.Gelu"(%[[S]]) {approximate = "none"}
// CHECK-DAG: %[[B:.*]] = "onnx.ms.FastGelu"(%arg0, %arg1)
// CHECK-DAG: %[[U:.*]] = "onnx.Add"(%arg0, %arg2)
// CHECK-DAG: %[[C:.*]] = "onnx.Gelu"(%[[U]])
// CHECK: return %[[A]], %[[B]], %[[C]]
module attributes {onnx.opset = 23 : i64} {
func.func @gelu_bias(%x: tensor<4x16xf32>, %b: tensor<16xf32>, %c: tensor<4x1xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %s = "onnx.Add"(%x, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %a = "onnx.Gelu"(%s) {approximate = "none"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %t = "onnx.Gelu"(%s) {approximate = "tanh"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = "onnx.Add"(%x, %c) : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  %g = "onnx.Gelu"(%u) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %a, %t, %g : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}
}

// -----

// Below opset 20 (no standard Gelu) the spelled-out Gelu of x + b, exact
// (erf) and tanh forms, becomes BiasGelu and FastGelu: one node for seven.
// CHECK-LABEL: func.func @gelu_bias_opset18
// CHECK-SAME: "ort_activation/bias-gelu" = 1
// CHECK-SAME: "ort_activation/fast-gelu" = 1
// CHECK-NOT: "onnx.Erf"
// CHECK-NOT: "onnx.Tanh"
// CHECK-DAG: %[[A:.*]] = "onnx.ms.BiasGelu"(%arg0, %arg1) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK-DAG: %[[B:.*]] = "onnx.ms.FastGelu"(%arg0, %arg1) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
// CHECK: return %[[A]], %[[B]]
module attributes {onnx.opset = 18 : i64} {
func.func @gelu_bias_opset18(%x: tensor<4x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %s = "onnx.Add"(%x, %b) : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %r2 = "onnx.Constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %d = "onnx.Div"(%s, %r2) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %e = "onnx.Erf"(%d) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%e, %one) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %m = "onnx.Mul"(%s, %a) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Mul"(%m, %half) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %h = "onnx.Mul"(%s, %half) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %three = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %c = "onnx.Pow"(%s, %three) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %k = "onnx.Constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %ck = "onnx.Mul"(%c, %k) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %sc = "onnx.Add"(%s, %ck) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %g = "onnx.Constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %sg = "onnx.Mul"(%sc, %g) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %t = "onnx.Tanh"(%sg) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %at = "onnx.Add"(%t, %one) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %z = "onnx.Mul"(%h, %at) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y, %z : tensor<4x16xf32>, tensor<4x16xf32>
}
}

// -----

// FusedMatMul: transposed activations (last two axes) and a constant
// scale; a transposed weight stays a weight transform for the writer, a
// transpose of other axes stays.
// CHECK-LABEL: func.func @fused_matmul
// CHECK-SAME: "ort_matmul/fused-matmul-scale" = 1
// CHECK-SAME: "ort_matmul/fused-matmul-transpose" = 2
// CHECK-DAG: %[[A:.*]] = "onnx.ms.FusedMatMul"(%arg0, %arg1) {alpha = 1.250000e-01 : f32, transB = 1 : i64}
// CHECK-DAG: %[[B:.*]] = "onnx.ms.FusedMatMul"(%arg2, %arg0) {transA = 1 : i64}
// CHECK-DAG: %[[C:.*]] = "onnx.MatMul"(%arg0, %{{.*}}) : (tensor<2x5x8xf32>, tensor<8x3xf32>)
// CHECK-DAG: "onnx.Transpose"(%arg3) {perm = array<i64: 1, 0, 2>}
// CHECK: return %[[A]], %[[B]], %[[C]]
module attributes {onnx.opset = 23 : i64} {
func.func @fused_matmul(%q: tensor<2x5x8xf32>, %k: tensor<2x6x8xf32>, %a: tensor<2x5x4xf32>, %p: tensor<5x2x4xf32>, %r: tensor<2x4x3xf32>) -> (tensor<2x5x6xf32>, tensor<2x4x8xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x6x8xf32>) -> tensor<2x8x6xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<2x5x8xf32>, tensor<2x8x6xf32>) -> tensor<2x5x6xf32>
  %c = "onnx.Constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Mul"(%s, %c) : (tensor<2x5x6xf32>, tensor<f32>) -> tensor<2x5x6xf32>
  %at = "onnx.Transpose"(%a) {perm = array<i64: 0, 2, 1>} : (tensor<2x5x4xf32>) -> tensor<2x4x5xf32>
  %z = "onnx.MatMul"(%at, %q) : (tensor<2x4x5xf32>, tensor<2x5x8xf32>) -> tensor<2x4x8xf32>
  %w = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<3x8xf32>
  %wt = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<3x8xf32>) -> tensor<8x3xf32>
  %l = "onnx.MatMul"(%q, %wt) : (tensor<2x5x8xf32>, tensor<8x3xf32>) -> tensor<2x5x3xf32>
  %pt = "onnx.Transpose"(%p) {perm = array<i64: 1, 0, 2>} : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
  %pp = "onnx.MatMul"(%pt, %r) : (tensor<2x5x4xf32>, tensor<2x4x3xf32>) -> tensor<2x5x3xf32>
  return %y, %z, %l, %pp : tensor<2x5x6xf32>, tensor<2x4x8xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>
}
}

// -----

// A dequantized operand stays a MatMul's (onnxruntime's QDQ fusions match
// MatMul only): a per-output-channel int8 weight's transpose moves into the
// integers (quant/dq-per-axis-through-transpose), and so does a per-tensor
// activation's (quant/dq-through-data-movement).
// CHECK-LABEL: func.func @qdq_matmul
// CHECK-NOT: FusedMatMul
// CHECK-DAG: %[[WT:.*]] = "onnx.Transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<3x8xi8>) -> tensor<8x3xi8>
// CHECK-DAG: %[[WD:.*]] = "onnx.DequantizeLinear"(%[[WT]], %arg2) {axis = 1 : i64} : (tensor<8x3xi8>, tensor<3xf32>) -> tensor<8x3xf32>
// CHECK-DAG: "onnx.MatMul"(%{{.*}}, %[[WD]]) : (tensor<2x5x8xf32>, tensor<8x3xf32>) -> tensor<2x5x3xf32>
// CHECK-DAG: %[[KT:.*]] = "onnx.Transpose"(%arg3) {perm = array<i64: 0, 2, 1>} : (tensor<2x6x8xi8>) -> tensor<2x8x6xi8>
// CHECK-DAG: %[[KD:.*]] = "onnx.DequantizeLinear"(%[[KT]], %{{.*}}, %{{.*}}) : (tensor<2x8x6xi8>, tensor<f32>, tensor<i8>) -> tensor<2x8x6xf32>
// CHECK-DAG: "onnx.MatMul"(%{{.*}}, %[[KD]]) : (tensor<2x5x8xf32>, tensor<2x8x6xf32>) -> tensor<2x5x6xf32>
module attributes {onnx.opset = 23 : i64} {
func.func @qdq_matmul(%x: tensor<2x5x8xi8>, %w: tensor<3x8xi8>, %ws: tensor<3xf32>, %k: tensor<2x6x8xi8>) -> (tensor<2x5x3xf32>, tensor<2x5x6xf32>) {
  %s = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<3> : tensor<i8>} : () -> tensor<i8>
  %xd = "onnx.DequantizeLinear"(%x, %s, %z) : (tensor<2x5x8xi8>, tensor<f32>, tensor<i8>) -> tensor<2x5x8xf32>
  %wd = "onnx.DequantizeLinear"(%w, %ws) {axis = 0 : i64} : (tensor<3x8xi8>, tensor<3xf32>) -> tensor<3x8xf32>
  %wt = "onnx.Transpose"(%wd) {perm = array<i64: 1, 0>} : (tensor<3x8xf32>) -> tensor<8x3xf32>
  %l = "onnx.MatMul"(%xd, %wt) : (tensor<2x5x8xf32>, tensor<8x3xf32>) -> tensor<2x5x3xf32>
  %kd = "onnx.DequantizeLinear"(%k, %s, %z) : (tensor<2x6x8xi8>, tensor<f32>, tensor<i8>) -> tensor<2x6x8xf32>
  %kt = "onnx.Transpose"(%kd) {perm = array<i64: 0, 2, 1>} : (tensor<2x6x8xf32>) -> tensor<2x8x6xf32>
  %sc = "onnx.MatMul"(%xd, %kt) : (tensor<2x5x8xf32>, tensor<2x8x6xf32>) -> tensor<2x5x6xf32>
  return %l, %sc : tensor<2x5x3xf32>, tensor<2x5x6xf32>
}
}

// -----

// GroupQueryAttention: causal 3-D attention of rotated q/k with shared
// batch-1 caches; q, k, v projections of one input by weights packed into
// one MatMul on their concatenation (written by the writer). seqlens_k and
// total_sequence_length are read from the argument's symbolic sizes.
// CHECK-LABEL: func.func @gqa_packed
// CHECK-SAME: "ort_attention/group-query-attention" =
// CHECK-NOT: "onnx.RotaryEmbedding"
// CHECK-NOT: "onnx.Attention"
// CHECK-DAG: %[[W:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, kind = "concat"} : (tensor<32x64xf32>, tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x128xf32>
// CHECK-DAG: %[[P:.*]] = "onnx.MatMul"(%arg0, %[[W]]) : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<32x128xf32>) -> tensor<?x?x128xf32, ["s0", "s1"]>
// CHECK-DAG: %[[SQ:.*]] = "onnx.Squeeze"(%arg1, %{{.*}}) : (tensor<1x?x8xf32, ["s1"]>, tensor<1xi64>) -> tensor<?x8xf32, ["s1"]>
// CHECK-DAG: %[[COS:.*]] = "onnx.Cos"(%[[SQ]])
// CHECK-DAG: %[[SIN:.*]] = "onnx.Sin"(%[[SQ]])
// CHECK-DAG: %[[S:.*]] = "onnx.Shape"(%arg0) {end = 2 : i64, start = 1 : i64}
// CHECK-DAG: %[[S32:.*]] = "onnx.Cast"(%[[S]]) {to = 6 : i64}
// CHECK-DAG: %[[TOT:.*]] = "onnx.Squeeze"(%[[S32]], %{{.*}}) : (tensor<1xi32>, tensor<1xi64>) -> tensor<i32>
// CHECK-DAG: %[[M1:.*]] = "onnx.Sub"(%[[S32]], %{{.*}}) : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK-DAG: %[[B:.*]] = "onnx.Shape"(%arg0) {end = 1 : i64, start = 0 : i64}
// CHECK-DAG: %[[LENS:.*]] = "onnx.Expand"(%[[M1]], %[[B]]) : (tensor<1xi32>, tensor<1xi64>) -> tensor<?xi32, ["s0"]>
// CHECK-DAG: %[[NONE:.*]] = "onnx.none"() : () -> none
// CHECK: "onnx.ms.GroupQueryAttention"(%[[P]], %[[NONE]], %[[NONE]], %[[NONE]], %[[NONE]], %[[LENS]], %[[TOT]], %[[COS]], %[[SIN]]) {do_rotary = 1 : i64, kv_num_heads = 2 : i64, num_heads = 4 : i64, scale = 2.500000e-01 : f32}
// CHECK-SAME: -> tensor<?x?x64xf32, ["s0", "s1"]>
module attributes {onnx.opset = 23 : i64} {
func.func @gqa_packed(%x: tensor<?x?x32xf32, ["s0", "s1"]>, %f: tensor<1x?x8xf32, ["s1"]>) -> tensor<?x?x64xf32, ["s0", "s1"]> {
  %wq = "onnx.initializer"() {name = "gqa_wq"} : () -> tensor<32x64xf32>
  %wk = "onnx.initializer"() {name = "gqa_wk"} : () -> tensor<32x32xf32>
  %wv = "onnx.initializer"() {name = "gqa_wv"} : () -> tensor<32x32xf32>
  %q = "onnx.MatMul"(%x, %wq) : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<32x64xf32>) -> tensor<?x?x64xf32, ["s0", "s1"]>
  %k = "onnx.MatMul"(%x, %wk) : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<32x32xf32>) -> tensor<?x?x32xf32, ["s0", "s1"]>
  %v = "onnx.MatMul"(%x, %wv) : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<32x32xf32>) -> tensor<?x?x32xf32, ["s0", "s1"]>
  %b = "onnx.Shape"(%x) {end = 1 : i64, start = 0 : i64} : (tensor<?x?x32xf32, ["s0", "s1"]>) -> tensor<1xi64>
  %rest = "onnx.Shape"(%f) {start = 1 : i64} : (tensor<1x?x8xf32, ["s1"]>) -> tensor<2xi64>
  %shape = "onnx.Concat"(%b, %rest) {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %e = "onnx.Expand"(%f, %shape) : (tensor<1x?x8xf32, ["s1"]>, tensor<3xi64>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %cos = "onnx.Cos"(%e) : (tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %sin = "onnx.Sin"(%e) : (tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x8xf32, ["s0", "s1"]>
  %rq = "onnx.RotaryEmbedding"(%q, %cos, %sin) {interleaved = 0 : i64, num_heads = 4 : i64} : (tensor<?x?x64xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x64xf32, ["s0", "s1"]>
  %rk = "onnx.RotaryEmbedding"(%k, %cos, %sin) {interleaved = 0 : i64, num_heads = 2 : i64} : (tensor<?x?x32xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>, tensor<?x?x8xf32, ["s0", "s1"]>) -> tensor<?x?x32xf32, ["s0", "s1"]>
  %y = "onnx.Attention"(%rq, %rk, %v) {is_causal = 1 : i64, kv_num_heads = 2 : i64, q_num_heads = 4 : i64, scale = 2.500000e-01 : f32} : (tensor<?x?x64xf32, ["s0", "s1"]>, tensor<?x?x32xf32, ["s0", "s1"]>, tensor<?x?x32xf32, ["s0", "s1"]>) -> tensor<?x?x64xf32, ["s0", "s1"]>
  return %y : tensor<?x?x64xf32, ["s0", "s1"]>
}
}

// -----

// Projections that are not weights stay unpacked (q, k, v go in as they
// are); static sizes give constant seqlens_k / total_sequence_length.
// Not fused: attention without rotary embeddings (nothing to gain) and a
// non-causal one.
// CHECK-LABEL: func.func @gqa_unpacked
// CHECK-SAME: "ort_attention/group-query-attention" = 1
// CHECK: "onnx.ms.GroupQueryAttention"(%arg0, %arg1, %arg2, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {do_rotary = 1 : i64, kv_num_heads = 1 : i64, num_heads = 2 : i64}
// CHECK-SAME: (tensor<2x6x32xf32>, tensor<2x6x16xf32>, tensor<2x6x16xf32>, none, none, tensor<2xi32>, tensor<i32>, tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<2x6x32xf32>
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : i64, kv_num_heads = 1 : i64, q_num_heads = 2 : i64}
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2) {kv_num_heads = 1 : i64, q_num_heads = 2 : i64}
// CHECK-NOT: "onnx.RotaryEmbedding"
module attributes {onnx.opset = 23 : i64} {
func.func @gqa_unpacked(%q: tensor<2x6x32xf32>, %k: tensor<2x6x16xf32>, %v: tensor<2x6x16xf32>, %c: tensor<1x6x8xf32>, %s: tensor<1x6x8xf32>) -> (tensor<2x6x32xf32>, tensor<2x6x32xf32>, tensor<2x6x32xf32>) {
  %shape = "onnx.Constant"() {value = dense<[2, 6, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %ce = "onnx.Expand"(%c, %shape) : (tensor<1x6x8xf32>, tensor<3xi64>) -> tensor<2x6x8xf32>
  %se = "onnx.Expand"(%s, %shape) : (tensor<1x6x8xf32>, tensor<3xi64>) -> tensor<2x6x8xf32>
  %rq = "onnx.RotaryEmbedding"(%q, %ce, %se) {num_heads = 2 : i64} : (tensor<2x6x32xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<2x6x32xf32>
  %rk = "onnx.RotaryEmbedding"(%k, %ce, %se) {num_heads = 1 : i64} : (tensor<2x6x16xf32>, tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<2x6x16xf32>
  %y = "onnx.Attention"(%rq, %rk, %v) {is_causal = 1 : i64, kv_num_heads = 1 : i64, q_num_heads = 2 : i64} : (tensor<2x6x32xf32>, tensor<2x6x16xf32>, tensor<2x6x16xf32>) -> tensor<2x6x32xf32>
  %n = "onnx.Attention"(%q, %k, %v) {is_causal = 1 : i64, kv_num_heads = 1 : i64, q_num_heads = 2 : i64} : (tensor<2x6x32xf32>, tensor<2x6x16xf32>, tensor<2x6x16xf32>) -> tensor<2x6x32xf32>
  %m = "onnx.Attention"(%q, %k, %v) {kv_num_heads = 1 : i64, q_num_heads = 2 : i64} : (tensor<2x6x32xf32>, tensor<2x6x16xf32>, tensor<2x6x16xf32>) -> tensor<2x6x32xf32>
  return %y, %n, %m : tensor<2x6x32xf32>, tensor<2x6x32xf32>, tensor<2x6x32xf32>
}
}

// -----

// A module naming the target runs the rules without the option (STD too).
// CHECK-LABEL: func.func @module_target
// CHECK: "onnx.ms.QuickGelu"
// STD-LABEL: func.func @module_target
// STD: "onnx.ms.QuickGelu"
module attributes {onnx.opset = 23 : i64, onnx.target = "onnxruntime"} {
func.func @module_target(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %s = "onnx.Sigmoid"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = "onnx.Mul"(%x, %s) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %a : tensor<4x16xf32>
}
}
