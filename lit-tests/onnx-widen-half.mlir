// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-widen-half))' | FileCheck %s

// float16 ops compute in float32. Values passed between the ops of one aten
// op (same node in the location) stay float32; a value crossing to another
// aten op is rounded to float16 (Cast to 10, then back to 1). Data movement
// inside a group stays float32; a Cast of the same aten op reads the
// unrounded value; graph outputs are rounded.
// CHECK-LABEL: func.func @forward
// CHECK-DAG: %[[Y:.*]] = "onnx.Cast"(%arg1) {to = 1 : i64} : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK-DAG: %[[X:.*]] = "onnx.Cast"(%arg0) {to = 1 : i64} : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK: %[[M:.*]] = "onnx.Mul"(%[[X]], %[[Y]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[MH:.*]] = "onnx.Cast"(%[[M]]) {to = 10 : i64}
// CHECK: %[[MF:.*]] = "onnx.Cast"(%[[MH]]) {to = 1 : i64}
// CHECK: %[[S:.*]] = "onnx.Sub"(%[[MF]], %[[X]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[SH:.*]] = "onnx.Cast"(%[[S]]) {to = 10 : i64}
// CHECK: %[[SF:.*]] = "onnx.Cast"(%[[SH]]) {to = 1 : i64}
// CHECK: %[[E:.*]] = "onnx.Erf"(%[[SF]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[G:.*]] = "onnx.Mul"(%[[E]], %[[SF]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[GH:.*]] = "onnx.Cast"(%[[G]]) {to = 10 : i64}
// CHECK: %[[T:.*]] = "onnx.Transpose"(%[[G]]) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: %[[TH:.*]] = "onnx.Cast"(%[[T]]) {to = 10 : i64}
// CHECK: %[[I:.*]] = "onnx.Cast"(%[[S]]) {to = 7 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi64>
// CHECK: return %[[GH]], %[[TH]], %[[I]] : tensor<2x3xf16>, tensor<3x2xf16>, tensor<2x3xi64>
#t = loc("t"("aten.t.default"("m.py":7:0)))
#r2 = loc("relu"("aten.relu.default"("m.py":10:0)))
#t2 = loc("transpose"("aten.transpose.int"("m.py":11:0)))
#mm = loc("mm"("aten.mm.default"("m.py":12:0)))
#a = loc("mul_1"("aten.mul.Tensor"("m.py":3:0)))
#b = loc("sub_1"("aten.sub.Tensor"("m.py":4:0)))
#c = loc("gelu"("aten.gelu.default"("m.py":5:0)))
func.func @forward(%x: tensor<2x3xf16>, %y: tensor<2x3xf16>) -> (tensor<2x3xf16>, tensor<3x2xf16>, tensor<2x3xi64>) {
  %m = "onnx.Mul"(%x, %y) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16> loc(#a)
  %s = "onnx.Sub"(%m, %x) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16> loc(#b)
  %e = "onnx.Erf"(%s) : (tensor<2x3xf16>) -> tensor<2x3xf16> loc(#c)
  %g = "onnx.Mul"(%e, %s) : (tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16> loc(#c)
  %t = "onnx.Transpose"(%g) {perm = array<i64: 1, 0>} : (tensor<2x3xf16>) -> tensor<3x2xf16> loc(#c)
  %i = "onnx.Cast"(%s) {to = 7 : i64} : (tensor<2x3xf16>) -> tensor<2x3xi64> loc(#b)
  return %g, %t, %i : tensor<2x3xf16>, tensor<3x2xf16>, tensor<2x3xi64>
}

// bfloat16 likewise; a transpose of a half input read by a compute op
// moves the widened value (Cast, then Transpose in float32: exact, and
// never Transpose -> Cast in front of a MatMul, which crashes onnxruntime
// 1.32's MatmulTransposeFusion), the half Transpose left unused is erased;
// ops without an aten node are each their own group; float32 ops are
// untouched.
// CHECK-LABEL: func.func @bf16
// CHECK: %[[XF:.*]] = "onnx.Cast"(%arg0) {to = 1 : i64} : (tensor<2x3xbf16>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[TF:.*]] = "onnx.Transpose"(%[[XF]]) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[R:.*]] = "onnx.Relu"(%[[TF]]) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: %[[RH:.*]] = "onnx.Cast"(%[[R]]) {to = 16 : i64}
// CHECK: %[[RF:.*]] = "onnx.Cast"(%[[RH]]) {to = 1 : i64}
// CHECK: %[[N:.*]] = "onnx.Neg"(%[[RF]]) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: %[[NH:.*]] = "onnx.Cast"(%[[N]]) {to = 16 : i64}
// CHECK: "onnx.Relu"(%arg1) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[NH]]
func.func @bf16(%x: tensor<2x3xbf16>, %z: tensor<4xf32>) -> (tensor<3x2xbf16>, tensor<4xf32>) {
  %t = "onnx.Transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x3xbf16>) -> tensor<3x2xbf16> loc(#t)
  %r = "onnx.Relu"(%t) : (tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %n = "onnx.Neg"(%r) : (tensor<3x2xbf16>) -> tensor<3x2xbf16>
  %f = "onnx.Relu"(%z) : (tensor<4xf32>) -> tensor<4xf32>
  return %n, %f : tensor<3x2xbf16>, tensor<4xf32>
}

// A module without node names (a hand-written or generated .mlir): the ops
// lowered from one aten op inherit its file position and form one group, so
// the Mul's result reaches the Sub unrounded.
// CHECK-LABEL: func.func @file_positions
// CHECK: %[[XF:.*]] = "onnx.Cast"(%arg0) {to = 1 : i64} : (tensor<4xf16>) -> tensor<4xf32>
// CHECK: %[[A:.*]] = "onnx.Mul"(%[[XF]], %[[XF]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: "onnx.Cast"(%[[A]])
// CHECK: %[[B:.*]] = "onnx.Sub"(%[[A]], %[[XF]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[BH:.*]] = "onnx.Cast"(%[[B]]) {to = 10 : i64}
// CHECK: return %[[BH]]
func.func @file_positions(%x: tensor<4xf16>) -> tensor<4xf16> {
  %a = "onnx.Mul"(%x, %x) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16> loc("gn.mlir":3:10)
  %b = "onnx.Sub"(%a, %x) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16> loc("gn.mlir":3:10)
  return %b : tensor<4xf16>
}

// bfloat16 data movement onnxruntime's CPU provider has no kernel for
// (Expand, Tile, DepthToSpace, SpaceToDepth) moves float32 values (exact:
// the rounding back to bfloat16 restores them); the others keep bfloat16.
// CHECK-LABEL: func.func @bf16_expand
// CHECK: %[[XF:.*]] = "onnx.Cast"(%arg0) {to = 1 : i64} : (tensor<4xbf16>) -> tensor<4xf32>
// CHECK: %[[E:.*]] = "onnx.Expand"(%[[XF]], %arg1) : (tensor<4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
// CHECK: %[[EH:.*]] = "onnx.Cast"(%[[E]]) {to = 16 : i64}
// CHECK: %[[R:.*]] = "onnx.Reshape"(%arg0, %arg2) : (tensor<4xbf16>, tensor<2xi64>) -> tensor<2x2xbf16>
// CHECK: return %[[EH]], %[[R]]
func.func @bf16_expand(%x: tensor<4xbf16>, %s: tensor<2xi64>, %t: tensor<2xi64>) -> (tensor<3x4xbf16>, tensor<2x2xbf16>) {
  %e = "onnx.Expand"(%x, %s) : (tensor<4xbf16>, tensor<2xi64>) -> tensor<3x4xbf16> loc(#t)
  %r = "onnx.Reshape"(%x, %t) : (tensor<4xbf16>, tensor<2xi64>) -> tensor<2x2xbf16> loc(#t)
  return %e, %r : tensor<3x4xbf16>, tensor<2x2xbf16>
}

// A Transpose of another aten op's result joins the producer's group: it
// moves the float32 value and rounds at its own result (exact), so the next
// op reads Cast(to half) -> Cast(to float) after the Transpose, never
// Cast -> Transpose -> Cast (which crashes onnxruntime 1.32's
// MatmulTransposeFusion in front of a MatMul).
// CHECK-LABEL: func.func @transpose_of_another_aten_op
// CHECK: %[[L:.*]] = "onnx.Relu"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[T:.*]] = "onnx.Transpose"(%[[L]]) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: %[[TH:.*]] = "onnx.Cast"(%[[T]]) {to = 10 : i64} : (tensor<3x2xf32>) -> tensor<3x2xf16>
// CHECK: %[[TF:.*]] = "onnx.Cast"(%[[TH]]) {to = 1 : i64} : (tensor<3x2xf16>) -> tensor<3x2xf32>
// CHECK: "onnx.MatMul"(%[[TF]], %{{.*}}) : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
func.func @transpose_of_another_aten_op(%x: tensor<2x3xf16>, %w: tensor<2x4xf16>) -> tensor<3x4xf16> {
  %r = "onnx.Relu"(%x) : (tensor<2x3xf16>) -> tensor<2x3xf16> loc(#r2)
  %t = "onnx.Transpose"(%r) {perm = array<i64: 1, 0>} : (tensor<2x3xf16>) -> tensor<3x2xf16> loc(#t2)
  %m = "onnx.MatMul"(%t, %w) : (tensor<3x2xf16>, tensor<2x4xf16>) -> tensor<3x4xf16> loc(#mm)
  return %m : tensor<3x4xf16>
}

// nn.TransformerEncoder's form: a float16 input transposed (sequence-first)
// straight into a MatMul: the Transpose moves the widened input, so no
// float16 Transpose -> Cast reaches the MatMul.
// CHECK-LABEL: func.func @transpose_of_input_into_matmul
// CHECK: %[[XF:.*]] = "onnx.Cast"(%arg0) {to = 1 : i64} : (tensor<2x3xf16>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[T:.*]] = "onnx.Transpose"(%[[XF]]) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NOT: tensor<3x2xf16>
// CHECK: "onnx.MatMul"(%[[T]], %{{.*}}) : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
func.func @transpose_of_input_into_matmul(%x: tensor<2x3xf16>, %w: tensor<2x4xf16>) -> tensor<3x4xf16> {
  %t = "onnx.Transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x3xf16>) -> tensor<3x2xf16> loc(#t2)
  %m = "onnx.MatMul"(%t, %w) : (tensor<3x2xf16>, tensor<2x4xf16>) -> tensor<3x4xf16> loc(#mm)
  return %m : tensor<3x4xf16>
}
