// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-eqsat))' | FileCheck %s

// Every rule of the optimizer is checked here by its full name (the test
// `every_eqsat_rule_has_tests` fails otherwise). Each case is a variant of
// the rule's own example, plus cases where it must not fire.

// x * 1 -> x in both operand orders and for integers; a 1 that broadcasts
// the result to a bigger shape stays; x * 0 stays (NaN, inf).
// CHECK-LABEL: func.func @mul_by_one
// CHECK-SAME: "algebra/mul-by-one" = 2
// CHECK-SAME: stop = "saturated"
// CHECK: %[[B:.*]] = "onnx.Mul"(%arg0, %{{.*}}) : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK: %[[Z:.*]] = "onnx.Mul"(%arg0, %{{.*}}) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK: return %arg0, %arg1, %[[B]], %[[Z]]
module attributes {onnx.opset = 23 : i64} {
func.func @mul_by_one(%x: tensor<3xf32>, %i: tensor<3xi64>) -> (tensor<3xf32>, tensor<3xi64>, tensor<2x3xf32>, tensor<3xf32>) {
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "onnx.Mul"(%x, %one) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %ione = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "onnx.Mul"(%ione, %i) : (tensor<1xi64>, tensor<3xi64>) -> tensor<3xi64>
  %big = "onnx.Constant"() {value = dense<1.0> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %2 = "onnx.Mul"(%x, %big) : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %3 = "onnx.Mul"(%x, %zero) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1, %2, %3 : tensor<3xf32>, tensor<3xi64>, tensor<2x3xf32>, tensor<3xf32>
}
}

// -----

// Integer + 0 and float + (-0.0) go; float + (+0.0) stays (it turns -0.0
// into +0.0). x - (+0.0) goes; x - (-0.0) stays.
// CHECK-LABEL: func.func @add_sub_zero
// CHECK-SAME: "algebra/add-zero" = 2
// CHECK-SAME: "algebra/sub-zero" = 1
// CHECK: %[[P:.*]] = "onnx.Add"(%arg1, %{{.*}}) : (tensor<3xf32>, tensor<f32>)
// CHECK: %[[N:.*]] = "onnx.Sub"(%arg1, %{{.*}}) : (tensor<3xf32>, tensor<f32>)
// CHECK: return %arg0, %arg1, %[[P]], %arg1, %[[N]]
module attributes {onnx.opset = 23 : i64} {
func.func @add_sub_zero(%i: tensor<3xi32>, %x: tensor<3xf32>) -> (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %z = "onnx.Constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "onnx.Add"(%z, %i) : (tensor<i32>, tensor<3xi32>) -> tensor<3xi32>
  %nz = "onnx.Constant"() {value = dense<-0.0> : tensor<f32>} : () -> tensor<f32>
  %1 = "onnx.Add"(%x, %nz) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %pz = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "onnx.Add"(%x, %pz) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = "onnx.Sub"(%x, %pz) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %4 = "onnx.Sub"(%x, %nz) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1, %2, %3, %4 : tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
}

// -----

// x / 1 goes, 1 / x stays; Neg(Neg(x)) goes, a single Neg stays;
// a * Reciprocal(c) and Reciprocal(c) * a become a / c for a constant c of
// powers of two whose reciprocals are representable (exact: one rounding of
// the same number). A * Reciprocal(y) of an input y stays: with y = 2e-39
// (float32) Reciprocal(y) is inf and x * inf is not x / y. A constant 3.0
// stays (1/3 rounds), and so does 2^-130, whose reciprocal 2^130 overflows.
// CHECK-LABEL: func.func @div_neg_reciprocal
// CHECK-SAME: "algebra/div-by-one" = 1
// CHECK-SAME: "algebra/double-negation" = 1
// CHECK-SAME: "algebra/reciprocal-mul-to-div" = 2
// CHECK: %[[I:.*]] = "onnx.Div"(%{{.*}}, %arg0)
// CHECK: %[[N:.*]] = "onnx.Neg"(%arg0)
// CHECK: %[[R:.*]] = "onnx.Reciprocal"(%arg1)
// CHECK: %[[M:.*]] = "onnx.Mul"(%arg0, %[[R]])
// CHECK: %[[D:.*]] = "onnx.Div"(%arg0, %{{.*}}) : (tensor<3xf32>, tensor<2x1xf32>)
// CHECK: "onnx.Reciprocal"
// CHECK: "onnx.Mul"
// CHECK: "onnx.Reciprocal"
// CHECK: "onnx.Mul"
// CHECK: return %arg0, %[[I]], %arg0, %[[N]], %[[M]], %[[D]], %[[D]]
module attributes {onnx.opset = 23 : i64} {
func.func @div_neg_reciprocal(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "onnx.Div"(%x, %one) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = "onnx.Div"(%one, %x) : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %n = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %2 = "onnx.Neg"(%n) : (tensor<3xf32>) -> tensor<3xf32>
  %r = "onnx.Reciprocal"(%y) : (tensor<3xf32>) -> tensor<3xf32>
  %3 = "onnx.Mul"(%x, %r) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %p = "onnx.Constant"() {value = dense<[[0.25], [-8.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %rp = "onnx.Reciprocal"(%p) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %4 = "onnx.Mul"(%x, %rp) : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %5 = "onnx.Mul"(%rp, %x) : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %three = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %r3 = "onnx.Reciprocal"(%three) : (tensor<f32>) -> tensor<f32>
  %6 = "onnx.Mul"(%x, %r3) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %tiny = "onnx.Constant"() {value = dense<7.34683969E-40> : tensor<f32>} : () -> tensor<f32>
  %rt = "onnx.Reciprocal"(%tiny) : (tensor<f32>) -> tensor<f32>
  %7 = "onnx.Mul"(%x, %rt) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1, %2, %n, %3, %4, %5, %6, %7 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>
}
}

// -----

// a * (1 / c) becomes a / c for floats when c is a constant of powers of
// two (as above); an input b stays (not an identity), integer division
// stays, and so does a 1 that broadcasts the quotient to more dims.
// CHECK-LABEL: func.func @one_div_mul
// CHECK-SAME: "algebra/one-div-mul-to-div" = 1
// CHECK: "onnx.Div"(%{{.*}}, %arg1) : (tensor<f32>, tensor<2x1xf32>)
// CHECK: "onnx.Mul"(%arg0, %{{.*}}) : (tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK: "onnx.Div"(%arg0, %{{.*}}) : (tensor<2x3xf32>, tensor<2x1xf32>)
// CHECK: "onnx.Div"(%{{.*}}, %arg2) : (tensor<i32>, tensor<3xi32>)
// CHECK: "onnx.Mul"
// CHECK: "onnx.Div"(%{{.*}}, %{{.*}}) : (tensor<4x1x1xf32>, tensor<2x1xf32>)
// CHECK: "onnx.Mul"
module attributes {onnx.opset = 23 : i64} {
func.func @one_div_mul(%a: tensor<2x3xf32>, %b: tensor<2x1xf32>, %i: tensor<3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<4x2x3xf32>) {
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %r = "onnx.Div"(%one, %b) : (tensor<f32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %0 = "onnx.Mul"(%a, %r) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %c = "onnx.Constant"() {value = dense<[[2.0], [0.0625]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %rc = "onnx.Div"(%one, %c) : (tensor<f32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %1 = "onnx.Mul"(%a, %rc) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %ione = "onnx.Constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %ir = "onnx.Div"(%ione, %i) : (tensor<i32>, tensor<3xi32>) -> tensor<3xi32>
  %2 = "onnx.Mul"(%i, %ir) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %ones = "onnx.Constant"() {value = dense<1.0> : tensor<4x1x1xf32>} : () -> tensor<4x1x1xf32>
  %wide = "onnx.Div"(%ones, %c) : (tensor<4x1x1xf32>, tensor<2x1xf32>) -> tensor<4x2x1xf32>
  %3 = "onnx.Mul"(%a, %wide) : (tensor<2x3xf32>, tensor<4x2x1xf32>) -> tensor<4x2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<4x2x3xf32>
}
}

// -----

// Transposes compose; the identity and pairs that cancel go.
// CHECK-LABEL: func.func @transposes
// CHECK-SAME: "layout/transpose-identity" = 1
// CHECK-SAME: "layout/transpose-transpose" = 2
// CHECK: %[[T:.*]] = "onnx.Transpose"(%arg0) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NOT: "onnx.Transpose"
// CHECK: return %arg0, %arg0, %[[T]]
module attributes {onnx.opset = 23 : i64} {
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %0 = "onnx.Transpose"(%x) {perm = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %a = "onnx.Transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "onnx.Transpose"(%a) {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %b = "onnx.Transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %2 = "onnx.Transpose"(%b) {perm = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<4x2x3xf32>
}
}

// -----

// Reshapes to the same shape (symbolic dims included) go; chains of
// reshapes become one; Squeeze/Unsqueeze pairs that restore the shape go.
// CHECK-LABEL: func.func @reshapes
// CHECK-SAME: "layout/reshape-reshape" = 1
// CHECK-SAME: "layout/reshape-same-shape" = 1
// CHECK-SAME: "layout/squeeze-unsqueeze" = 1
// CHECK-SAME: "layout/unsqueeze-squeeze" = 1
// CHECK: %[[R:.*]] = "onnx.Reshape"(%arg1, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
// CHECK-NOT: "onnx.Squeeze"
// CHECK-NOT: "onnx.Unsqueeze"
// CHECK: return %arg0, %[[R]], %arg0, %arg2
module attributes {onnx.opset = 23 : i64} {
func.func @reshapes(%x: tensor<?x8xf32, ["s0"]>, %y: tensor<2x3x4xf32>, %z: tensor<3x1x4xf32>, %s: tensor<2xi64>) -> (tensor<?x8xf32, ["s0"]>, tensor<4x6xf32>, tensor<?x8xf32, ["s0"]>, tensor<3x1x4xf32>) {
  %0 = "onnx.Reshape"(%x, %s) : (tensor<?x8xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x8xf32, ["s0"]>
  %s1 = "onnx.Constant"() {value = dense<[6, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r1 = "onnx.Reshape"(%y, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %s2 = "onnx.Constant"() {value = dense<[4, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = "onnx.Reshape"(%r1, %s2) : (tensor<6x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  %a = "onnx.Constant"() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %u = "onnx.Unsqueeze"(%x, %a) : (tensor<?x8xf32, ["s0"]>, tensor<2xi64>) -> tensor<1x?x1x8xf32, ["s0"]>
  %2 = "onnx.Squeeze"(%u, %a) : (tensor<1x?x1x8xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x8xf32, ["s0"]>
  %b = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %q = "onnx.Squeeze"(%z, %b) : (tensor<3x1x4xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  %3 = "onnx.Unsqueeze"(%q, %b) : (tensor<3x4xf32>, tensor<1xi64>) -> tensor<3x1x4xf32>
  return %0, %1, %2, %3 : tensor<?x8xf32, ["s0"]>, tensor<4x6xf32>, tensor<?x8xf32, ["s0"]>, tensor<3x1x4xf32>
}
}

// -----

// A reshape chain whose outer shape copies a dim (0) of the middle value
// is not merged (0 would copy the input's dim instead).
// CHECK-LABEL: func.func @reshape_copy_dim
// CHECK-NOT: reshape-reshape
// CHECK: %[[R:.*]] = "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3x8xf32>
// CHECK: "onnx.Reshape"(%[[R]], %{{.*}}) : (tensor<3x8xf32>, tensor<3xi64>) -> tensor<3x2x4xf32>
module attributes {onnx.opset = 23 : i64} {
func.func @reshape_copy_dim(%y: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  %s1 = "onnx.Constant"() {value = dense<[3, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r1 = "onnx.Reshape"(%y, %s1) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3x8xf32>
  %s2 = "onnx.Constant"() {value = dense<[0, 2, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %1 = "onnx.Reshape"(%r1, %s2) : (tensor<3x8xf32>, tensor<3xi64>) -> tensor<3x2x4xf32>
  return %1 : tensor<3x2x4xf32>
}
}

// -----

// Casts: to the same type goes; lossless chains fold, lossy ones stay;
// Expand to the same shape and Identity go.
// CHECK-LABEL: func.func @casts
// CHECK-SAME: "layout/cast-cast" = 2
// CHECK-SAME: "layout/cast-same-type" = 1
// CHECK-SAME: "layout/expand-same-shape" = 1
// CHECK-SAME: "layout/identity" = 1
// CHECK: %[[C:.*]] = "onnx.Cast"(%arg1) {to = 1 : i64} : (tensor<3xi32>) -> tensor<3xf32>
// CHECK: %[[H:.*]] = "onnx.Cast"(%arg0) {to = 10 : i64}
// CHECK: %[[L:.*]] = "onnx.Cast"(%[[H]]) {to = 1 : i64}
// CHECK: return %arg0, %[[C]], %arg1, %[[L]], %arg0, %arg0
module attributes {onnx.opset = 23 : i64} {
func.func @casts(%x: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = "onnx.Cast"(%x) {to = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  %w = "onnx.Cast"(%i) {to = 7 : i64} : (tensor<3xi32>) -> tensor<3xi64>
  %1 = "onnx.Cast"(%w) {to = 1 : i64} : (tensor<3xi64>) -> tensor<3xf32>
  %2 = "onnx.Cast"(%w) {to = 6 : i64} : (tensor<3xi64>) -> tensor<3xi32>
  %h = "onnx.Cast"(%x) {to = 10 : i64} : (tensor<3xf32>) -> tensor<3xf16>
  %3 = "onnx.Cast"(%h) {to = 1 : i64} : (tensor<3xf16>) -> tensor<3xf32>
  %s = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %4 = "onnx.Expand"(%x, %s) : (tensor<3xf32>, tensor<1xi64>) -> tensor<3xf32>
  %5 = "onnx.Identity"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
}

// -----

// Values with unknown dims (models without intermediate types): a Cast to
// the same element type, an Identity, a Concat of one operand, and x * 1 or
// x + 0 with a one-element constant are x; a Concat of two operands and a
// constant of more dims than x stay.
// CHECK-LABEL: func.func @unknown_dims
// CHECK-SAME: "algebra/add-zero" = 1
// CHECK-SAME: "algebra/mul-by-one" = 1
// CHECK-SAME: "layout/cast-same-type" = 1
// CHECK-SAME: "layout/concat-one-operand" = 1
// CHECK-SAME: "layout/identity" = 1
// CHECK: %[[C:.*]] = "onnx.Concat"(%arg0, %arg0)
// CHECK: %[[M:.*]] = "onnx.Mul"(%arg0, %{{.*}}) : (tensor<?x?xf32>, tensor<1x1x1xf32>)
// CHECK: return %arg0, %arg0, %arg0, %arg0, %arg0, %[[C]], %[[M]]
module attributes {onnx.opset = 23 : i64} {
func.func @unknown_dims(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?x?xf32>) {
  %0 = "onnx.Cast"(%x) {to = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = "onnx.Identity"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = "onnx.Concat"(%x) {axis = -1 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %3 = "onnx.Mul"(%one, %x) : (tensor<1x1xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %zero = "onnx.Constant"() {value = dense<-0.0> : tensor<f32>} : () -> tensor<f32>
  %4 = "onnx.Add"(%x, %zero) : (tensor<?x?xf32>, tensor<f32>) -> tensor<?x?xf32>
  %5 = "onnx.Concat"(%x, %x) {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %wide = "onnx.Constant"() {value = dense<1.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %6 = "onnx.Mul"(%x, %wide) : (tensor<?x?xf32>, tensor<1x1x1xf32>) -> tensor<?x?x?xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?x?xf32>
}
}

// -----

// RMSNorm spelled out (Pow / ReduceMean over the last axis / + eps / Sqrt
// / Reciprocal / Mul, then the weight) becomes one RMSNormalization.
// CHECK-LABEL: func.func @rms
// CHECK-SAME: "normalization/rms-normalization" = 1
// CHECK-SAME: "normalization/rms-normalization-scale" = 1
// CHECK: %[[N:.*]] = "onnx.RMSNormalization"(%arg0, %arg1) {axis = 2 : i64, epsilon = 9.99999997E-7 : f32}
// CHECK-NEXT: return %[[N]]
module attributes {onnx.opset = 23 : i64} {
func.func @rms(%x: tensor<?x3x8xf32, ["s0"]>, %w: tensor<8xf32>) -> tensor<?x3x8xf32, ["s0"]> {
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %sq = "onnx.Pow"(%x, %two) : (tensor<?x3x8xf32, ["s0"]>, tensor<f32>) -> tensor<?x3x8xf32, ["s0"]>
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<?x3x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x3x1xf32, ["s0"]>
  %eps = "onnx.Constant"() {value = dense<1.0e-6> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%m, %eps) : (tensor<?x3x1xf32, ["s0"]>, tensor<f32>) -> tensor<?x3x1xf32, ["s0"]>
  %s = "onnx.Sqrt"(%a) : (tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x1xf32, ["s0"]>
  %r = "onnx.Reciprocal"(%s) : (tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x1xf32, ["s0"]>
  %n = "onnx.Mul"(%x, %r) : (tensor<?x3x8xf32, ["s0"]>, tensor<?x3x1xf32, ["s0"]>) -> tensor<?x3x8xf32, ["s0"]>
  %y = "onnx.Mul"(%n, %w) : (tensor<?x3x8xf32, ["s0"]>, tensor<8xf32>) -> tensor<?x3x8xf32, ["s0"]>
  return %y : tensor<?x3x8xf32, ["s0"]>
}
}

// -----

// Not fused: the mean is over a leading axis, or the opset is below 23.
// CHECK-LABEL: func.func @rms_wrong_axis
// CHECK-NOT: RMSNormalization
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @rms_wrong_axis(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %sq = "onnx.Mul"(%x, %x) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %axes = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<2x3x8xf32>, tensor<1xi64>) -> tensor<2x1x8xf32>
  %eps = "onnx.Constant"() {value = dense<1.0e-6> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%m, %eps) : (tensor<2x1x8xf32>, tensor<f32>) -> tensor<2x1x8xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<2x1x8xf32>) -> tensor<2x1x8xf32>
  %n = "onnx.Div"(%x, %s) : (tensor<2x3x8xf32>, tensor<2x1x8xf32>) -> tensor<2x3x8xf32>
  return %n : tensor<2x3x8xf32>
}
}

// -----

// CHECK-LABEL: func.func @rms_opset_22
// CHECK-NOT: RMSNormalization
// CHECK: return
module attributes {onnx.opset = 22 : i64} {
func.func @rms_opset_22(%x: tensor<2x3x8xf32>) -> tensor<2x3x8xf32> {
  %sq = "onnx.Mul"(%x, %x) : (tensor<2x3x8xf32>, tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<2x3x8xf32>, tensor<1xi64>) -> tensor<2x3x1xf32>
  %eps = "onnx.Constant"() {value = dense<1.0e-6> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%m, %eps) : (tensor<2x3x1xf32>, tensor<f32>) -> tensor<2x3x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
  %n = "onnx.Div"(%x, %s) : (tensor<2x3x8xf32>, tensor<2x3x1xf32>) -> tensor<2x3x8xf32>
  return %n : tensor<2x3x8xf32>
}
}

// -----

// MatMul + Add of 2-D operands -> Gemm; a 3-D MatMul stays.
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: "matmul/matmul-add-to-gemm" = 1
// CHECK: %[[G:.*]] = "onnx.Gemm"(%arg0, %arg1, %arg2)
// CHECK: "onnx.MatMul"(%arg3, %arg1)
// CHECK: "onnx.Add"
// CHECK: return %[[G]]
module attributes {onnx.opset = 23 : i64} {
func.func @gemm(%a: tensor<?x4xf32, ["s0"]>, %b: tensor<4x5xf32>, %c: tensor<1x5xf32>, %d: tensor<2x3x4xf32>) -> (tensor<?x5xf32, ["s0"]>, tensor<2x3x5xf32>) {
  %0 = "onnx.MatMul"(%a, %b) : (tensor<?x4xf32, ["s0"]>, tensor<4x5xf32>) -> tensor<?x5xf32, ["s0"]>
  %1 = "onnx.Add"(%0, %c) : (tensor<?x5xf32, ["s0"]>, tensor<1x5xf32>) -> tensor<?x5xf32, ["s0"]>
  %2 = "onnx.MatMul"(%d, %b) : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %3 = "onnx.Add"(%2, %c) : (tensor<2x3x5xf32>, tensor<1x5xf32>) -> tensor<2x3x5xf32>
  return %1, %3 : tensor<?x5xf32, ["s0"]>, tensor<2x3x5xf32>
}
}

// -----

// A body holding an op the optimizer does not model is left as it is.
// CHECK-LABEL: func.func @skipped
// CHECK-SAME: stop = "skipped: holds 'aten.neg.default', not an onnx op"
// CHECK: "onnx.Identity"
module attributes {onnx.opset = 23 : i64} {
func.func @skipped(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "onnx.Identity"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %1 = "aten.neg.default"(%0) : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}
}

// -----

// Gelu, exact form, grouped as 0.5 * (x * (1 + Erf(x * 0.7071...))).
// CHECK-LABEL: func.func @gelu_erf
// CHECK-SAME: "activation/gelu-erf" = 1
// CHECK: %[[G:.*]] = "onnx.Gelu"(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[G]]
module attributes {onnx.opset = 23 : i64} {
func.func @gelu_erf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %k = "onnx.Constant"() {value = dense<0.707106769> : tensor<f32>} : () -> tensor<f32>
  %d = "onnx.Mul"(%k, %x) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = "onnx.Erf"(%d) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%one, %e) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "onnx.Mul"(%x, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Mul"(%half, %m) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
}

// -----

// Gelu, tanh form (GPT-2's gelu_new as lowered).
// CHECK-LABEL: func.func @gelu_tanh
// CHECK-SAME: "activation/gelu-tanh" = 1
// CHECK: %[[G:.*]] = "onnx.Gelu"(%arg0) {approximate = "tanh"}
// CHECK-NEXT: return %[[G]]
module attributes {onnx.opset = 23 : i64} {
func.func @gelu_tanh(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %h = "onnx.Mul"(%x, %half) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %three = "onnx.Constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %c = "onnx.Pow"(%x, %three) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %k = "onnx.Constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %ck = "onnx.Mul"(%c, %k) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %s = "onnx.Add"(%x, %ck) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = "onnx.Constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %sg = "onnx.Mul"(%s, %g) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %t = "onnx.Tanh"(%sg) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%t, %one) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %y = "onnx.Mul"(%h, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
}

// -----

// x * HardSigmoid(x) with alpha 1/6 is HardSwish (either operand order);
// another alpha, or the gate of another value (a squeeze-excitation), stays.
// CHECK-LABEL: func.func @hard_swish
// CHECK-SAME: "activation/hard-swish" = 2
// CHECK: %[[A:.*]] = "onnx.HardSwish"(%arg0)
// CHECK: %[[G:.*]] = "onnx.HardSigmoid"(%arg0) {alpha = 2.000000e-01 : f32}
// CHECK: "onnx.Mul"(%arg0, %[[G]])
// CHECK: %[[E:.*]] = "onnx.HardSigmoid"(%arg1) {alpha = 0.166666672 : f32}
// CHECK: "onnx.Mul"(%arg0, %[[E]])
module attributes {onnx.opset = 23 : i64} {
func.func @hard_swish(%x: tensor<2x8xf32>, %z: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %h = "onnx.HardSigmoid"(%x) {alpha = 0.166666672 : f32, beta = 5.000000e-01 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %0 = "onnx.Mul"(%x, %h) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = "onnx.Mul"(%h, %x) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %g = "onnx.HardSigmoid"(%x) {alpha = 2.000000e-01 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = "onnx.Mul"(%x, %g) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %e = "onnx.HardSigmoid"(%z) {alpha = 0.166666672 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = "onnx.Mul"(%x, %e) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0, %1, %2, %3 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}
}

// -----

// Not fused below opset 20, nor with a wrong constant.
// CHECK-LABEL: func.func @gelu_opset_19
// CHECK-NOT: Gelu
// CHECK: return
module attributes {onnx.opset = 19 : i64} {
func.func @gelu_opset_19(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r2 = "onnx.Constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %d = "onnx.Div"(%x, %r2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %e = "onnx.Erf"(%d) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%e, %one) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %m = "onnx.Mul"(%x, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Mul"(%m, %half) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
}

// -----

// CHECK-LABEL: func.func @gelu_wrong_constant
// CHECK-NOT: Gelu
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @gelu_wrong_constant(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r2 = "onnx.Constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %d = "onnx.Div"(%x, %r2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %e = "onnx.Erf"(%d) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%e, %one) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %m = "onnx.Mul"(%x, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %half = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %y = "onnx.Mul"(%m, %half) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
}

// -----

// LayerNorm spelled out, with its scale and bias.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: "normalization/layer-normalization" = 1
// CHECK-SAME: "normalization/layer-normalization-affine" = 1
// CHECK: %[[N:.*]] = "onnx.LayerNormalization"(%arg0, %arg1, %arg2) {axis = 1 : i64, epsilon = 9.99999974E-6 : f32}
// CHECK-NEXT: return %[[N]]
module attributes {onnx.opset = 23 : i64} {
func.func @layer_norm(%x: tensor<3x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<3x8xf32> {
  %axes = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %mean = "onnx.ReduceMean"(%x, %axes) {keepdims = 1 : i64} : (tensor<3x8xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<3x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %sq = "onnx.Pow"(%d, %two) : (tensor<3x8xf32>, tensor<f32>) -> tensor<3x8xf32>
  %var = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<3x8xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %eps = "onnx.Constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%var, %eps) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<3x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  %y = "onnx.Mul"(%n, %w) : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  %z = "onnx.Add"(%b, %y) : (tensor<8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  return %z : tensor<3x8xf32>
}
}

// -----

// Not LayerNorm: the mean subtracted is over another axis than the variance.
// CHECK-LABEL: func.func @layer_norm_mixed_axes
// CHECK-NOT: LayerNormalization
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @layer_norm_mixed_axes(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %mean = "onnx.ReduceMean"(%x, %a0) {keepdims = 1 : i64} : (tensor<3x8xf32>, tensor<1xi64>) -> tensor<1x8xf32>
  %d = "onnx.Sub"(%x, %mean) : (tensor<3x8xf32>, tensor<1x8xf32>) -> tensor<3x8xf32>
  %sq = "onnx.Mul"(%d, %d) : (tensor<3x8xf32>, tensor<3x8xf32>) -> tensor<3x8xf32>
  %var = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<3x8xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %eps = "onnx.Constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%var, %eps) : (tensor<3x1xf32>, tensor<f32>) -> tensor<3x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<3x1xf32>) -> tensor<3x1xf32>
  %n = "onnx.Div"(%d, %s) : (tensor<3x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  return %n : tensor<3x8xf32>
}
}

// -----

// Transposes of Gemm operands fold into transA/transB (flipping a set flag).
// CHECK-LABEL: func.func @gemm_transpose
// CHECK-SAME: "matmul/gemm-transpose" = 2
// CHECK: "onnx.Gemm"(%arg0, %arg1, %arg2) {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, transA = 1 : i64, transB = 0 : i64}
// CHECK-NOT: "onnx.Transpose"
module attributes {onnx.opset = 23 : i64} {
func.func @gemm_transpose(%a: tensor<4x3xf32>, %w: tensor<4x5xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %ta = "onnx.Transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %tw = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<4x5xf32>) -> tensor<5x4xf32>
  %0 = "onnx.Gemm"(%ta, %tw, %c) {alpha = 1.0 : f32, beta = 1.0 : f32, transB = 1 : i64} : (tensor<3x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
}

// -----

// Regions are optimized on their own (x * 1 inside a branch, with the 1
// captured from the function body); the If is kept whole and the values its
// branches capture are rebuilt before it (%m) or replaced (%n is %arg1).
// CHECK-LABEL: func.func @regions
// CHECK-SAME: "algebra/mul-by-one" = 1
// CHECK-SAME: "layout/identity" = 1
// CHECK-SAME: region_stops = "saturated, saturated"
// CHECK-SAME: regions = 2
// CHECK: %[[M:.*]] = "onnx.Neg"(%arg1)
// CHECK: "onnx.If"(%arg0)
// CHECK-NEXT: %[[A:.*]] = "onnx.Add"(%[[M]], %arg1)
// CHECK-NEXT: "onnx.yield"(%[[A]])
// CHECK: "onnx.yield"(%[[M]])
module attributes {onnx.opset = 23 : i64} {
func.func @regions(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %one = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %n = "onnx.Identity"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %m = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %0 = "onnx.If"(%c) ({
    %a = "onnx.Mul"(%m, %one) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %b = "onnx.Add"(%a, %n) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "onnx.yield"(%b) : (tensor<3xf32>) -> ()
  }, {
    "onnx.yield"(%m) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
}

// -----

// An Expand the consumer's own broadcast makes redundant goes (Where's
// condition too); one that changes the result's shape stays.
// CHECK-LABEL: func.func @expand_broadcast
// CHECK-SAME: "layout/expand-into-broadcast" = 2
// CHECK: %[[W:.*]] = "onnx.Where"(%arg2, %arg0, %arg1)
// CHECK: %[[E:.*]] = "onnx.Expand"(%arg0
// CHECK: %[[M:.*]] = "onnx.Mul"(%[[E]], %arg0)
// CHECK: return %[[W]], %[[M]]
module attributes {onnx.opset = 23 : i64} {
func.func @expand_broadcast(%x: tensor<?x1x8xf32, ["s0"]>, %y: tensor<?x4x8xf32, ["s0"]>, %c: tensor<4x1xi1>) -> (tensor<?x4x8xf32, ["s0"]>, tensor<?x4x8xf32, ["s0"]>) {
  %s = "onnx.Shape"(%y) : (tensor<?x4x8xf32, ["s0"]>) -> tensor<3xi64>
  %cs = "onnx.Constant"() {value = dense<[4, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ce = "onnx.Expand"(%c, %cs) : (tensor<4x1xi1>, tensor<2xi64>) -> tensor<4x8xi1>
  %e = "onnx.Expand"(%x, %s) : (tensor<?x1x8xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x4x8xf32, ["s0"]>
  %0 = "onnx.Where"(%ce, %e, %y) : (tensor<4x8xi1>, tensor<?x4x8xf32, ["s0"]>, tensor<?x4x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  %1 = "onnx.Mul"(%e, %x) : (tensor<?x4x8xf32, ["s0"]>, tensor<?x1x8xf32, ["s0"]>) -> tensor<?x4x8xf32, ["s0"]>
  return %0, %1 : tensor<?x4x8xf32, ["s0"]>, tensor<?x4x8xf32, ["s0"]>
}
}

// -----

// Attention with a boolean mask applied through Where(mask, s, -inf) and the
// scores divided by sqrt(d); Kt given as a transpose of K, so K is used
// directly.
// CHECK-LABEL: func.func @sdpa_bool_mask
// CHECK-SAME: "attention/sdpa" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2, %arg3) {scale = 2.500000e-01 : f32}
// CHECK-NEXT: return %[[A]]
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_bool_mask(%q: tensor<1x2x3x16xf32>, %k: tensor<1x2x4x16xf32>, %v: tensor<1x2x4x8xf32>, %m: tensor<3x4xi1>) -> tensor<1x2x3x8xf32> {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x16xf32>) -> tensor<1x2x16x4xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x16xf32>, tensor<1x2x16x4xf32>) -> tensor<1x2x3x4xf32>
  %d = "onnx.Constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %ss = "onnx.Div"(%s, %d) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %ninf = "onnx.Constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %l = "onnx.Where"(%m, %ss, %ninf) : (tensor<3x4xi1>, tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %p = "onnx.Softmax"(%l) {axis = 3 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  return %o : tensor<1x2x3x8xf32>
}
}

// -----

// The SDPA lowering's softmax with rows of all -inf set to 0 (a query that
// sees no key; torch and Attention give 0) is fused like a bare Softmax;
// a guard testing another axis's maximum is not that form and stays.
// CHECK-LABEL: func.func @sdpa_masked_rows
// CHECK-SAME: "attention/sdpa" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2, %arg3) {scale = 2.500000e-01 : f32}
// CHECK-DAG: "onnx.ReduceMax"
// CHECK-DAG: "onnx.Softmax"
// CHECK: %[[B:.*]] = "onnx.MatMul"
// CHECK: return %[[A]], %[[B]]
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_masked_rows(%q: tensor<1x2x3x16xf32>, %k: tensor<1x2x4x16xf32>, %v: tensor<1x2x4x8xf32>, %m: tensor<3x4xi1>) -> (tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x16xf32>) -> tensor<1x2x16x4xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x16xf32>, tensor<1x2x16x4xf32>) -> tensor<1x2x3x4xf32>
  %d = "onnx.Constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %ss = "onnx.Div"(%s, %d) : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %ninf = "onnx.Constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %l = "onnx.Where"(%m, %ss, %ninf) : (tensor<3x4xi1>, tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %p = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %ax = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %mx = "onnx.ReduceMax"(%l, %ax) {keepdims = 1 : i64} : (tensor<1x2x3x4xf32>, tensor<1xi64>) -> tensor<1x2x3x1xf32>
  %none = "onnx.IsInf"(%mx) {detect_negative = 1 : i64, detect_positive = 0 : i64} : (tensor<1x2x3x1xf32>) -> tensor<1x2x3x1xi1>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %w = "onnx.Where"(%none, %zero, %p) : (tensor<1x2x3x1xi1>, tensor<f32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = "onnx.MatMul"(%w, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  %ax2 = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %mx2 = "onnx.ReduceMax"(%l, %ax2) {keepdims = 1 : i64} : (tensor<1x2x3x4xf32>, tensor<1xi64>) -> tensor<1x2x1x4xf32>
  %none2 = "onnx.IsInf"(%mx2) {detect_negative = 1 : i64, detect_positive = 0 : i64} : (tensor<1x2x1x4xf32>) -> tensor<1x2x1x4xi1>
  %w2 = "onnx.Where"(%none2, %zero, %p) : (tensor<1x2x1x4xi1>, tensor<f32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o2 = "onnx.MatMul"(%w2, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  return %o, %o2 : tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>
}
}

// -----

// The scale split over Q and Kt (torch.onnx multiplies each by sqrt(scale);
// here 0.5 * 0.5) goes into the op's scale; one side only scaled: 0.5.
// CHECK-LABEL: func.func @sdpa_prescaled
// CHECK-SAME: "attention/sdpa" = 2
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {scale = 2.500000e-01 : f32}
// CHECK: %[[B:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {scale = 5.000000e-01 : f32}
// CHECK-NEXT: return %[[A]], %[[B]]
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_prescaled(%q: tensor<1x2x3x16xf32>, %k: tensor<1x2x4x16xf32>, %v: tensor<1x2x4x8xf32>) -> (tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x16xf32>) -> tensor<1x2x16x4xf32>
  %r = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %qr = "onnx.Mul"(%q, %r) : (tensor<1x2x3x16xf32>, tensor<f32>) -> tensor<1x2x3x16xf32>
  %kr = "onnx.Mul"(%r, %kt) : (tensor<f32>, tensor<1x2x16x4xf32>) -> tensor<1x2x16x4xf32>
  %s = "onnx.MatMul"(%qr, %kr) : (tensor<1x2x3x16xf32>, tensor<1x2x16x4xf32>) -> tensor<1x2x3x4xf32>
  %p = "onnx.Softmax"(%s) {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  %qv = "onnx.Mul"(%q, %r) : (tensor<1x2x3x16xf32>, tensor<f32>) -> tensor<1x2x3x16xf32>
  %s2 = "onnx.MatMul"(%qv, %kt) : (tensor<1x2x3x16xf32>, tensor<1x2x16x4xf32>) -> tensor<1x2x3x4xf32>
  %p2 = "onnx.Softmax"(%s2) {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o2 = "onnx.MatMul"(%p2, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  return %o, %o2 : tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>
}
}

// -----

// SDPA broadcasts a batch-1 key/value over the query's batch (learned or
// shared memory), and so do the MatMuls; Attention does not (onnxruntime
// refuses Q of batch 3 with K of batch 1): no fusion. Same for a key and
// value of one symbolic batch against a query of another, which may differ.
// The same query with a key and value of its own batch fuses.
// CHECK-LABEL: func.func @sdpa_kv_batch_broadcast
// CHECK-SAME: "attention/sdpa" = 1
// CHECK: "onnx.Softmax"
// CHECK: "onnx.Softmax"
// CHECK: "onnx.Attention"(%arg0, %arg5, %arg6)
// CHECK-NOT: "onnx.Attention"
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_kv_batch_broadcast(%q: tensor<3x2x5x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>, %qs: tensor<?x2x5x8xf32, ["s0"]>, %ks: tensor<?x2x4x8xf32, ["s1"]>, %k3: tensor<3x2x4x8xf32>, %v3: tensor<3x2x4x8xf32>) -> (tensor<3x2x5x8xf32>, tensor<?x2x5x8xf32, ["s0"]>, tensor<3x2x5x8xf32>) {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x8xf32>) -> tensor<1x2x8x4xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<3x2x5x8xf32>, tensor<1x2x8x4xf32>) -> tensor<3x2x5x4xf32>
  %p = "onnx.Softmax"(%s) {axis = -1 : i64} : (tensor<3x2x5x4xf32>) -> tensor<3x2x5x4xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<3x2x5x4xf32>, tensor<1x2x4x8xf32>) -> tensor<3x2x5x8xf32>
  %kst = "onnx.Transpose"(%ks) {perm = array<i64: 0, 1, 3, 2>} : (tensor<?x2x4x8xf32, ["s1"]>) -> tensor<?x2x8x4xf32, ["s1"]>
  %ss = "onnx.MatMul"(%qs, %kst) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x8x4xf32, ["s1"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %ps = "onnx.Softmax"(%ss) {axis = -1 : i64} : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %os = "onnx.MatMul"(%ps, %ks) : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x4x8xf32, ["s1"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %k3t = "onnx.Transpose"(%k3) {perm = array<i64: 0, 1, 3, 2>} : (tensor<3x2x4x8xf32>) -> tensor<3x2x8x4xf32>
  %s3 = "onnx.MatMul"(%q, %k3t) : (tensor<3x2x5x8xf32>, tensor<3x2x8x4xf32>) -> tensor<3x2x5x4xf32>
  %p3 = "onnx.Softmax"(%s3) {axis = -1 : i64} : (tensor<3x2x5x4xf32>) -> tensor<3x2x5x4xf32>
  %o3 = "onnx.MatMul"(%p3, %v3) : (tensor<3x2x5x4xf32>, tensor<3x2x4x8xf32>) -> tensor<3x2x5x8xf32>
  return %o, %os, %o3 : tensor<3x2x5x8xf32>, tensor<?x2x5x8xf32, ["s0"]>, tensor<3x2x5x8xf32>
}
}

// -----

// torch.onnx's SDPA: the boolean mask added as Where(m, 0, -inf) and the
// Softmax's NaN rows set to 0. The mask goes in as the boolean m; one built
// with the lowest float instead of -inf (a fully masked row then averages V,
// it is not NaN) stays an additive float mask; a guard testing the scores,
// not the Softmax, is not that form and stays.
// CHECK-LABEL: func.func @sdpa_nan_rows
// CHECK-SAME: "attention/sdpa-nan-rows" = 2
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2, %arg3) {scale = 2.500000e-01 : f32}
// CHECK: %[[F:.*]] = "onnx.Where"(%arg3, %{{.*}}, %{{.*}}) : (tensor<1x1x3x4xi1>, tensor<f32>, tensor<f32>) -> tensor<1x1x3x4xf32>
// CHECK: %[[B:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2, %[[F]]) {scale = 2.500000e-01 : f32}
// CHECK: "onnx.IsNaN"
// CHECK: %[[C:.*]] = "onnx.MatMul"
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_nan_rows(%q: tensor<1x2x3x16xf32>, %k: tensor<1x2x4x16xf32>, %v: tensor<1x2x4x8xf32>, %m: tensor<1x1x3x4xi1>) -> (tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>) {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x16xf32>) -> tensor<1x2x16x4xf32>
  %r = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %qr = "onnx.Mul"(%q, %r) : (tensor<1x2x3x16xf32>, tensor<f32>) -> tensor<1x2x3x16xf32>
  %kr = "onnx.Mul"(%kt, %r) : (tensor<1x2x16x4xf32>, tensor<f32>) -> tensor<1x2x16x4xf32>
  %s = "onnx.MatMul"(%qr, %kr) : (tensor<1x2x3x16xf32>, tensor<1x2x16x4xf32>) -> tensor<1x2x3x4xf32>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %ninf = "onnx.Constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %lowest = "onnx.Constant"() {value = dense<-3.40282347E+38> : tensor<f32>} : () -> tensor<f32>
  %mb = "onnx.Where"(%m, %zero, %ninf) : (tensor<1x1x3x4xi1>, tensor<f32>, tensor<f32>) -> tensor<1x1x3x4xf32>
  %l = "onnx.Add"(%s, %mb) : (tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<1x2x3x4xf32>
  %p = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %nan = "onnx.IsNaN"(%p) : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xi1>
  %p0 = "onnx.Where"(%nan, %zero, %p) : (tensor<1x2x3x4xi1>, tensor<f32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = "onnx.MatMul"(%p0, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  %ml = "onnx.Where"(%m, %zero, %lowest) : (tensor<1x1x3x4xi1>, tensor<f32>, tensor<f32>) -> tensor<1x1x3x4xf32>
  %l2 = "onnx.Add"(%s, %ml) : (tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<1x2x3x4xf32>
  %p2 = "onnx.Softmax"(%l2) {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %nan2 = "onnx.IsNaN"(%p2) : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xi1>
  %p3 = "onnx.Where"(%nan2, %zero, %p2) : (tensor<1x2x3x4xi1>, tensor<f32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o2 = "onnx.MatMul"(%p3, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  %nan3 = "onnx.IsNaN"(%l) : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xi1>
  %p4 = "onnx.Where"(%nan3, %zero, %p) : (tensor<1x2x3x4xi1>, tensor<f32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o3 = "onnx.MatMul"(%p4, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  return %o, %o2, %o3 : tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>, tensor<1x2x3x8xf32>
}
}

// -----

// torch.onnx's transpose of a 4-D key through 3-D: leading dims merged (the
// merged dim's size known as 4*s0 from shape inference), the last two
// swapped, the leading dims split back: one Transpose. Statically too; a
// Reshape that splits the merged dim into other leading dims stays.
// CHECK-LABEL: func.func @reshape_transpose_reshape
// CHECK-SAME: "layout/reshape-transpose-reshape" = 2
// CHECK: %[[A:.*]] = "onnx.Transpose"(%arg0) {perm = array<i64: 0, 1, 3, 2>} : (tensor<?x4x?x16xf32, ["s0", "s1"]>) -> tensor<?x4x16x?xf32, ["s0", "s1"]>
// CHECK: %[[B:.*]] = "onnx.Transpose"(%arg1) {perm = array<i64: 0, 1, 3, 2>}
// CHECK: %[[C:.*]] = "onnx.Reshape"(%arg1, %{{.*}}) : (tensor<2x3x4x5xf32>, tensor<4xi64>) -> tensor<3x2x4x5xf32>
// CHECK: %[[T:.*]] = "onnx.Transpose"(%{{.*}}) {perm = array<i64: 0, 2, 1>} : (tensor<6x4x5xf32>) -> tensor<6x5x4xf32>
// CHECK: %[[D:.*]] = "onnx.Reshape"(%[[T]], %{{.*}}) : (tensor<6x5x4xf32>, tensor<4xi64>) -> tensor<3x2x5x4xf32>
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
module attributes {onnx.opset = 23 : i64} {
func.func @reshape_transpose_reshape(%k: tensor<?x4x?x16xf32, ["s0", "s1"]>, %x: tensor<2x3x4x5xf32>) -> (tensor<?x4x16x?xf32, ["s0", "s1"]>, tensor<2x3x5x4xf32>, tensor<3x2x4x5xf32>, tensor<3x2x5x4xf32>) {
  %shape = "onnx.Shape"(%k) : (tensor<?x4x?x16xf32, ["s0", "s1"]>) -> tensor<4xi64>
  %m1 = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %i0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %i2 = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %i3 = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %i4 = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %lead = "onnx.Slice"(%shape, %i0, %i2) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %s = "onnx.Slice"(%shape, %i2, %i3) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %d = "onnx.Slice"(%shape, %i3, %i4) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %t1 = "onnx.Concat"(%m1, %s, %d) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %r = "onnx.Reshape"(%k, %t1) {allowzero = 0 : i64} : (tensor<?x4x?x16xf32, ["s0", "s1"]>, tensor<3xi64>) -> tensor<?x?x16xf32, ["4*s0", "s1"]>
  %t = "onnx.Transpose"(%r) {perm = array<i64: 0, 2, 1>} : (tensor<?x?x16xf32, ["4*s0", "s1"]>) -> tensor<?x16x?xf32, ["4*s0", "s1"]>
  %t2 = "onnx.Concat"(%lead, %d, %s) {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %y = "onnx.Reshape"(%t, %t2) {allowzero = 0 : i64} : (tensor<?x16x?xf32, ["4*s0", "s1"]>, tensor<4xi64>) -> tensor<?x4x16x?xf32, ["s0", "s1"]>
  %c6 = "onnx.Constant"() {value = dense<[6, 4, 5]> : tensor<3xi64>} : () -> tensor<3xi64>
  %x3 = "onnx.Reshape"(%x, %c6) : (tensor<2x3x4x5xf32>, tensor<3xi64>) -> tensor<6x4x5xf32>
  %xt = "onnx.Transpose"(%x3) {perm = array<i64: 0, 2, 1>} : (tensor<6x4x5xf32>) -> tensor<6x5x4xf32>
  %c4 = "onnx.Constant"() {value = dense<[2, 3, 5, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %x4 = "onnx.Reshape"(%xt, %c4) : (tensor<6x5x4xf32>, tensor<4xi64>) -> tensor<2x3x5x4xf32>
  %c7 = "onnx.Constant"() {value = dense<[3, 2, 4, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  %xs = "onnx.Reshape"(%x3, %c7) : (tensor<6x4x5xf32>, tensor<4xi64>) -> tensor<3x2x4x5xf32>
  %c8 = "onnx.Constant"() {value = dense<[3, 2, 5, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %xw = "onnx.Reshape"(%xt, %c8) : (tensor<6x5x4xf32>, tensor<4xi64>) -> tensor<3x2x5x4xf32>
  return %y, %x4, %xs, %xw : tensor<?x4x16x?xf32, ["s0", "s1"]>, tensor<2x3x5x4xf32>, tensor<3x2x4x5xf32>, tensor<3x2x5x4xf32>
}
}

// -----

// yobx's rotate-half: the halves of x from one Split, the caches concatenated
// after their Unsqueeze; the op gets the half caches (expanded to the batch).
// CHECK-LABEL: func.func @rotate_half_split
// CHECK-SAME: "rotary/rotate-half" = 1
// CHECK: %[[Y:.*]] = "onnx.RotaryEmbedding"(%arg0, %{{.*}}, %{{.*}}) {interleaved = 0 : i64}
// CHECK-NOT: "onnx.Split"
// CHECK: return %[[Y]]
module attributes {onnx.opset = 23 : i64} {
func.func @rotate_half_split(%x: tensor<?x2x5x8xf32, ["s0"]>, %a: tensor<1x5x4xf32>) -> tensor<?x2x5x8xf32, ["s0"]> {
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %cos = "onnx.Cos"(%a) : (tensor<1x5x4xf32>) -> tensor<1x5x4xf32>
  %sin = "onnx.Sin"(%a) : (tensor<1x5x4xf32>) -> tensor<1x5x4xf32>
  %cu = "onnx.Unsqueeze"(%cos, %one) : (tensor<1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x5x4xf32>
  %su = "onnx.Unsqueeze"(%sin, %one) : (tensor<1x5x4xf32>, tensor<1xi64>) -> tensor<1x1x5x4xf32>
  %c4 = "onnx.Concat"(%cu, %cu) {axis = -1 : i64} : (tensor<1x1x5x4xf32>, tensor<1x1x5x4xf32>) -> tensor<1x1x5x8xf32>
  %s4 = "onnx.Concat"(%su, %su) {axis = -1 : i64} : (tensor<1x1x5x4xf32>, tensor<1x1x5x4xf32>) -> tensor<1x1x5x8xf32>
  %h:2 = "onnx.Split"(%x) {axis = -1 : i64, num_outputs = 2 : i64} : (tensor<?x2x5x8xf32, ["s0"]>) -> (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>)
  %n = "onnx.Neg"(%h#1) : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %rot = "onnx.Concat"(%n, %h#0) {axis = -1 : i64} : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m1 = "onnx.Mul"(%x, %c4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m2 = "onnx.Mul"(%rot, %s4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %y = "onnx.Add"(%m1, %m2) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %y : tensor<?x2x5x8xf32, ["s0"]>
}
}

// -----

// A key scaled before its heads are repeated (yobx): the op takes K and
// the product of the scales.
// CHECK-LABEL: func.func @gqa_scaled_key
// CHECK-SAME: "attention/gqa" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {scale = 2.500000e-01 : f32}
// CHECK-NEXT: return %[[A]]
module attributes {onnx.opset = 23 : i64} {
func.func @gqa_scaled_key(%q: tensor<2x4x5x8xf32>, %k: tensor<2x2x5x8xf32>, %v: tensor<2x2x5x8xf32>) -> tensor<2x4x5x8xf32> {
  %c = "onnx.Constant"() {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %ks = "onnx.Mul"(%k, %c) : (tensor<2x2x5x8xf32>, tensor<1xf32>) -> tensor<2x2x5x8xf32>
  %two = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %ones = "onnx.Constant"() {value = dense<[2, 2, 2, 5, 8]> : tensor<5xi64>} : () -> tensor<5xi64>
  %shape = "onnx.Constant"() {value = dense<[2, 4, 5, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %k5 = "onnx.Unsqueeze"(%ks, %two) : (tensor<2x2x5x8xf32>, tensor<1xi64>) -> tensor<2x2x1x5x8xf32>
  %ke = "onnx.Expand"(%k5, %ones) : (tensor<2x2x1x5x8xf32>, tensor<5xi64>) -> tensor<2x2x2x5x8xf32>
  %kr = "onnx.Reshape"(%ke, %shape) {allowzero = 1 : i64} : (tensor<2x2x2x5x8xf32>, tensor<4xi64>) -> tensor<2x4x5x8xf32>
  %v5 = "onnx.Unsqueeze"(%v, %two) : (tensor<2x2x5x8xf32>, tensor<1xi64>) -> tensor<2x2x1x5x8xf32>
  %ve = "onnx.Expand"(%v5, %ones) : (tensor<2x2x1x5x8xf32>, tensor<5xi64>) -> tensor<2x2x2x5x8xf32>
  %vr = "onnx.Reshape"(%ve, %shape) {allowzero = 1 : i64} : (tensor<2x2x2x5x8xf32>, tensor<4xi64>) -> tensor<2x4x5x8xf32>
  %o = "onnx.Attention"(%q, %kr, %vr) {scale = 0.5 : f32} : (tensor<2x4x5x8xf32>, tensor<2x4x5x8xf32>, tensor<2x4x5x8xf32>) -> tensor<2x4x5x8xf32>
  return %o : tensor<2x4x5x8xf32>
}
}

// -----

// The key scaled before its transpose (yobx): the op takes K, the scales
// multiplied.
// CHECK-LABEL: func.func @sdpa_key_scaled_then_transposed
// CHECK-SAME: "attention/sdpa" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {scale = 2.500000e-01 : f32}
// CHECK-NEXT: return %[[A]]
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_key_scaled_then_transposed(%q: tensor<1x2x3x16xf32>, %k: tensor<1x2x4x16xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32> {
  %r = "onnx.Constant"() {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %qr = "onnx.Mul"(%q, %r) : (tensor<1x2x3x16xf32>, tensor<1xf32>) -> tensor<1x2x3x16xf32>
  %kr = "onnx.Mul"(%k, %r) : (tensor<1x2x4x16xf32>, tensor<1xf32>) -> tensor<1x2x4x16xf32>
  %kt = "onnx.Transpose"(%kr) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x16xf32>) -> tensor<1x2x16x4xf32>
  %s = "onnx.MatMul"(%qr, %kt) : (tensor<1x2x3x16xf32>, tensor<1x2x16x4xf32>) -> tensor<1x2x3x4xf32>
  %p = "onnx.Softmax"(%s) {axis = -1 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x3x8xf32>
  return %o : tensor<1x2x3x8xf32>
}
}

// -----

// torch.onnx's causal mask: Where(causal, 0, lowest float) added to the
// scores. Proven causal (every query sees a key), it is the boolean mask,
// then the op's is_causal.
// CHECK-LABEL: func.func @sdpa_nan_rows_lowest_causal
// CHECK-SAME: "attention/causal-mask" = 1
// CHECK-SAME: "attention/sdpa-nan-rows" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : i64, scale = 2.500000e-01 : f32}
// CHECK-NEXT: return %[[A]]
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_nan_rows_lowest_causal(%q: tensor<1x2x4x16xf32>, %k: tensor<1x2x4x16xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x16xf32>) -> tensor<1x2x16x4xf32>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x4x16xf32>, tensor<1x2x16x4xf32>) -> tensor<1x2x4x4xf32>
  %r = "onnx.Constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %ss = "onnx.Mul"(%s, %r) : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %i0 = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %i1 = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %i4 = "onnx.Constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %pos = "onnx.Range"(%i0, %i4, %i1) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %a1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %row = "onnx.Unsqueeze"(%pos, %a0) : (tensor<4xi64>, tensor<1xi64>) -> tensor<1x4xi64>
  %col = "onnx.Unsqueeze"(%pos, %a1) : (tensor<4xi64>, tensor<1xi64>) -> tensor<4x1xi64>
  %causal = "onnx.LessOrEqual"(%row, %col) : (tensor<1x4xi64>, tensor<4x1xi64>) -> tensor<4x4xi1>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %lowest = "onnx.Constant"() {value = dense<-3.40282347E+38> : tensor<f32>} : () -> tensor<f32>
  %m = "onnx.Where"(%causal, %zero, %lowest) : (tensor<4x4xi1>, tensor<f32>, tensor<f32>) -> tensor<4x4xf32>
  %l = "onnx.Add"(%ss, %m) : (tensor<1x2x4x4xf32>, tensor<4x4xf32>) -> tensor<1x2x4x4xf32>
  %p = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %nan = "onnx.IsNaN"(%p) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xi1>
  %p0 = "onnx.Where"(%nan, %zero, %p) : (tensor<1x2x4x4xi1>, tensor<f32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %o = "onnx.MatMul"(%p0, %v) : (tensor<1x2x4x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  return %o : tensor<1x2x4x8xf32>
}
}

// -----

// Not attention: the softmax is over another axis; or the opset is 22.
// CHECK-LABEL: func.func @sdpa_wrong_axis
// CHECK-NOT: Attention
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_wrong_axis(%q: tensor<1x2x3x16xf32>, %kt: tensor<1x2x16x3xf32>, %v: tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32> {
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x16xf32>, tensor<1x2x16x3xf32>) -> tensor<1x2x3x3xf32>
  %p = "onnx.Softmax"(%s) {axis = 2 : i64} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x3xf32>, tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  return %o : tensor<1x2x3x8xf32>
}
}

// -----

// CHECK-LABEL: func.func @sdpa_opset_22
// CHECK-NOT: Attention
// CHECK: return
module attributes {onnx.opset = 22 : i64} {
func.func @sdpa_opset_22(%q: tensor<1x2x3x16xf32>, %kt: tensor<1x2x16x3xf32>, %v: tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32> {
  %s = "onnx.MatMul"(%q, %kt) : (tensor<1x2x3x16xf32>, tensor<1x2x16x3xf32>) -> tensor<1x2x3x3xf32>
  %p = "onnx.Softmax"(%s) {axis = -1 : i64} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %o = "onnx.MatMul"(%p, %v) : (tensor<1x2x3x3xf32>, tensor<1x2x3x8xf32>) -> tensor<1x2x3x8xf32>
  return %o : tensor<1x2x3x8xf32>
}
}

// -----

// RoPE in the rotate-half form (x * cos + Concat(-x2, x1) * sin, operands
// in any order) with cos/sin = Cos/Sin(Concat(a, a)) becomes
// RotaryEmbedding on the half caches Cos(a), Sin(a); the batch-1 angle is
// expanded to the input's batch first (onnxruntime needs [B, S, D/2]).
// CHECK-LABEL: func.func @rotate_half
// CHECK-SAME: "rotary/rotate-half" = 1
// CHECK-DAG: %[[B:.*]] = "onnx.Shape"(%arg0) {end = 1 : i64, start = 0 : i64}
// CHECK-DAG: %[[R:.*]] = "onnx.Shape"(%arg1) {start = 1 : i64}
// CHECK: %[[S:.*]] = "onnx.Concat"(%[[B]], %[[R]]) {axis = 0 : i64}
// CHECK: %[[E:.*]] = "onnx.Expand"(%arg1, %[[S]]) : (tensor<1x5x4xf32>, tensor<3xi64>) -> tensor<?x5x4xf32, ["s0"]>
// CHECK-DAG: %[[SIN:.*]] = "onnx.Sin"(%[[E]])
// CHECK-DAG: %[[COS:.*]] = "onnx.Cos"(%[[E]])
// CHECK: %[[Y:.*]] = "onnx.RotaryEmbedding"(%arg0, %[[COS]], %[[SIN]]) {interleaved = 0 : i64}
// CHECK-NEXT: return %[[Y]]
module attributes {onnx.opset = 23 : i64} {
func.func @rotate_half(%x: tensor<?x2x5x8xf32, ["s0"]>, %a: tensor<1x5x4xf32>) -> tensor<?x2x5x8xf32, ["s0"]> {
  %cat = "onnx.Concat"(%a, %a) {axis = -1 : i64} : (tensor<1x5x4xf32>, tensor<1x5x4xf32>) -> tensor<1x5x8xf32>
  %cos = "onnx.Cos"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %sin = "onnx.Sin"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %c4 = "onnx.Unsqueeze"(%cos, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %s4 = "onnx.Unsqueeze"(%sin, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %half = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = "onnx.Constant"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %x1 = "onnx.Slice"(%x, %zero, %half, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %x2 = "onnx.Slice"(%x, %half, %end, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %n = "onnx.Neg"(%x2) : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %rot = "onnx.Concat"(%n, %x1) {axis = 3 : i64} : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m1 = "onnx.Mul"(%c4, %x) : (tensor<1x1x5x8xf32>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m2 = "onnx.Mul"(%rot, %s4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %y = "onnx.Add"(%m2, %m1) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %y : tensor<?x2x5x8xf32, ["s0"]>
}
}

// -----

// Not RoPE: cos is an argument (its halves are not provably equal, the op
// would read only the first half); the rotation negates the wrong half.
// CHECK-LABEL: func.func @rotate_half_not
// CHECK-NOT: RotaryEmbedding
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @rotate_half_not(%x: tensor<2x2x5x8xf32>, %c4: tensor<2x1x5x8xf32>, %a: tensor<2x5x4xf32>) -> (tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>) {
  %cat = "onnx.Concat"(%a, %a) {axis = -1 : i64} : (tensor<2x5x4xf32>, tensor<2x5x4xf32>) -> tensor<2x5x8xf32>
  %sin = "onnx.Sin"(%cat) : (tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %cos = "onnx.Cos"(%cat) : (tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %s4 = "onnx.Unsqueeze"(%sin, %one) : (tensor<2x5x8xf32>, tensor<1xi64>) -> tensor<2x1x5x8xf32>
  %k4 = "onnx.Unsqueeze"(%cos, %one) : (tensor<2x5x8xf32>, tensor<1xi64>) -> tensor<2x1x5x8xf32>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %half = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = "onnx.Constant"() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %x1 = "onnx.Slice"(%x, %zero, %half, %ax) : (tensor<2x2x5x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2x5x4xf32>
  %x2 = "onnx.Slice"(%x, %half, %end, %ax) : (tensor<2x2x5x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x2x5x4xf32>
  %n2 = "onnx.Neg"(%x2) : (tensor<2x2x5x4xf32>) -> tensor<2x2x5x4xf32>
  %rot = "onnx.Concat"(%n2, %x1) {axis = 3 : i64} : (tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>) -> tensor<2x2x5x8xf32>
  %m1 = "onnx.Mul"(%x, %c4) : (tensor<2x2x5x8xf32>, tensor<2x1x5x8xf32>) -> tensor<2x2x5x8xf32>
  %m2 = "onnx.Mul"(%rot, %s4) : (tensor<2x2x5x8xf32>, tensor<2x1x5x8xf32>) -> tensor<2x2x5x8xf32>
  %y = "onnx.Add"(%m1, %m2) : (tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  %n1 = "onnx.Neg"(%x1) : (tensor<2x2x5x4xf32>) -> tensor<2x2x5x4xf32>
  %wrong = "onnx.Concat"(%n1, %x2) {axis = 3 : i64} : (tensor<2x2x5x4xf32>, tensor<2x2x5x4xf32>) -> tensor<2x2x5x8xf32>
  %m3 = "onnx.Mul"(%x, %k4) : (tensor<2x2x5x8xf32>, tensor<2x1x5x8xf32>) -> tensor<2x2x5x8xf32>
  %m4 = "onnx.Mul"(%wrong, %s4) : (tensor<2x2x5x8xf32>, tensor<2x1x5x8xf32>) -> tensor<2x2x5x8xf32>
  %z = "onnx.Add"(%m3, %m4) : (tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>) -> tensor<2x2x5x8xf32>
  return %y, %z : tensor<2x2x5x8xf32>, tensor<2x2x5x8xf32>
}
}

// -----

// A 4-D RotaryEmbedding of split heads is the 3-D op (num_heads) on the
// unsplit value; the Reshape/Transpose back to [B, S, H*D] then cancel.
// CHECK-LABEL: func.func @rotary_3d
// CHECK-SAME: "rotary/rotary-3d" = {{[1-9]}}
// CHECK: %[[Y:.*]] = "onnx.RotaryEmbedding"(%arg0, %arg1, %arg2) {interleaved = 0 : i64, num_heads = 2 : i64} : (tensor<?x5x16xf32, ["s0"]>
// CHECK-NEXT: return %[[Y]]
module attributes {onnx.opset = 23 : i64} {
func.func @rotary_3d(%y: tensor<?x5x16xf32, ["s0"]>, %c: tensor<?x5x4xf32, ["s0"]>, %s: tensor<?x5x4xf32, ["s0"]>) -> tensor<?x5x16xf32, ["s0"]> {
  %shape = "onnx.Constant"() {value = dense<[-1, 5, 2, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "onnx.Reshape"(%y, %shape) : (tensor<?x5x16xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x2x8xf32, ["s0"]>
  %t = "onnx.Transpose"(%r) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x2x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %e = "onnx.RotaryEmbedding"(%t, %c, %s) {interleaved = 0 : i64} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %b = "onnx.Transpose"(%e) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x5x2x8xf32, ["s0"]>
  %shape3 = "onnx.Constant"() {value = dense<[-1, 5, 16]> : tensor<3xi64>} : () -> tensor<3xi64>
  %o = "onnx.Reshape"(%b, %shape3) : (tensor<?x5x2x8xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x5x16xf32, ["s0"]>
  return %o : tensor<?x5x16xf32, ["s0"]>
}
}

// -----

// Not 3-D: the heads are split as [B, S, D, H] (the Transpose of a
// different split), so the op's head layout would differ.
// CHECK-LABEL: func.func @rotary_3d_not
// CHECK-NOT: num_heads
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @rotary_3d_not(%y: tensor<2x5x16xf32>, %c: tensor<2x5x4xf32>, %s: tensor<2x5x4xf32>) -> tensor<2x2x5x8xf32> {
  %shape = "onnx.Constant"() {value = dense<[2, 5, 8, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "onnx.Reshape"(%y, %shape) : (tensor<2x5x16xf32>, tensor<4xi64>) -> tensor<2x5x8x2xf32>
  %t = "onnx.Transpose"(%r) {perm = array<i64: 0, 3, 1, 2>} : (tensor<2x5x8x2xf32>) -> tensor<2x2x5x8xf32>
  %e = "onnx.RotaryEmbedding"(%t, %c, %s) : (tensor<2x2x5x8xf32>, tensor<2x5x4xf32>, tensor<2x5x4xf32>) -> tensor<2x2x5x8xf32>
  return %e : tensor<2x2x5x8xf32>
}
}

// -----

// repeat_kv (Unsqueeze at 2 / Expand / Reshape) of K and V folds into the
// Attention's grouped-query heads.
// CHECK-LABEL: func.func @gqa
// CHECK-SAME: "attention/gqa" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {scale = 0.353553385 : f32} : (tensor<?x4x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>)
// CHECK-NEXT: return %[[A]]
module attributes {onnx.opset = 23 : i64} {
func.func @gqa(%q: tensor<?x4x5x8xf32, ["s0"]>, %k: tensor<?x2x5x8xf32, ["s0"]>, %v: tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]> {
  %two = "onnx.Constant"() {value = dense<-3> : tensor<1xi64>} : () -> tensor<1xi64>
  %ones = "onnx.Constant"() {value = dense<[1, 1, 2, 1, 1]> : tensor<5xi64>} : () -> tensor<5xi64>
  %shape = "onnx.Constant"() {value = dense<[-1, 4, 5, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %k5 = "onnx.Unsqueeze"(%k, %two) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2x1x5x8xf32, ["s0"]>
  %ke = "onnx.Expand"(%k5, %ones) : (tensor<?x2x1x5x8xf32, ["s0"]>, tensor<5xi64>) -> tensor<?x2x2x5x8xf32, ["s0"]>
  %kr = "onnx.Reshape"(%ke, %shape) : (tensor<?x2x2x5x8xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x4x5x8xf32, ["s0"]>
  %v5 = "onnx.Unsqueeze"(%v, %two) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2x1x5x8xf32, ["s0"]>
  %ve = "onnx.Expand"(%v5, %ones) : (tensor<?x2x1x5x8xf32, ["s0"]>, tensor<5xi64>) -> tensor<?x2x2x5x8xf32, ["s0"]>
  %vr = "onnx.Reshape"(%ve, %shape) : (tensor<?x2x2x5x8xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x4x5x8xf32, ["s0"]>
  %o = "onnx.Attention"(%q, %kr, %vr) {scale = 0.353553385 : f32} : (tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>, tensor<?x4x5x8xf32, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]>
  return %o : tensor<?x4x5x8xf32, ["s0"]>
}
}

// -----

// Not GQA: the heads are tiled (Unsqueeze at 1: head j reads kv head
// j % 2, not j / 2), which the op's grouping does not do.
// CHECK-LABEL: func.func @gqa_tiled
// CHECK-NOT: "attention/gqa"
// CHECK: "onnx.Attention"(%arg0, %{{.*}}, %{{.*}}) {scale
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @gqa_tiled(%q: tensor<2x4x5x8xf32>, %k: tensor<2x2x5x8xf32>, %v: tensor<2x2x5x8xf32>) -> tensor<2x4x5x8xf32> {
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %ones = "onnx.Constant"() {value = dense<[2, 2, 2, 5, 8]> : tensor<5xi64>} : () -> tensor<5xi64>
  %shape = "onnx.Constant"() {value = dense<[2, 4, 5, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %k5 = "onnx.Unsqueeze"(%k, %one) : (tensor<2x2x5x8xf32>, tensor<1xi64>) -> tensor<2x1x2x5x8xf32>
  %ke = "onnx.Expand"(%k5, %ones) : (tensor<2x1x2x5x8xf32>, tensor<5xi64>) -> tensor<2x2x2x5x8xf32>
  %kr = "onnx.Reshape"(%ke, %shape) : (tensor<2x2x2x5x8xf32>, tensor<4xi64>) -> tensor<2x4x5x8xf32>
  %v5 = "onnx.Unsqueeze"(%v, %one) : (tensor<2x2x5x8xf32>, tensor<1xi64>) -> tensor<2x1x2x5x8xf32>
  %ve = "onnx.Expand"(%v5, %ones) : (tensor<2x1x2x5x8xf32>, tensor<5xi64>) -> tensor<2x2x2x5x8xf32>
  %vr = "onnx.Reshape"(%ve, %shape) : (tensor<2x2x2x5x8xf32>, tensor<4xi64>) -> tensor<2x4x5x8xf32>
  %o = "onnx.Attention"(%q, %kr, %vr) {scale = 0.353553385 : f32} : (tensor<2x4x5x8xf32>, tensor<2x4x5x8xf32>, tensor<2x4x5x8xf32>) -> tensor<2x4x5x8xf32>
  return %o : tensor<2x4x5x8xf32>
}
}

// -----

// Attention between head splits (Reshape [B, S, H, D] + Transpose) and
// their merge back is the 3-D op with q_num_heads/kv_num_heads; the mask
// stays.
// CHECK-LABEL: func.func @attention_3d
// CHECK-SAME: "attention/attention-3d" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2, %arg3) {kv_num_heads = 2 : i64, q_num_heads = 4 : i64, scale = 0.353553385 : f32}
// CHECK-NEXT: return %[[A]]
module attributes {onnx.opset = 23 : i64} {
func.func @attention_3d(%q: tensor<?x5x32xf32, ["s0"]>, %k: tensor<?x5x16xf32, ["s0"]>, %v: tensor<?x5x16xf32, ["s0"]>, %m: tensor<?x1x5x5xi1, ["s0"]>) -> tensor<?x5x32xf32, ["s0"]> {
  %sq = "onnx.Constant"() {value = dense<[-1, 5, 4, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %skv = "onnx.Constant"() {value = dense<[-1, 5, 2, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %q4 = "onnx.Reshape"(%q, %sq) : (tensor<?x5x32xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x4x8xf32, ["s0"]>
  %k4 = "onnx.Reshape"(%k, %skv) : (tensor<?x5x16xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x2x8xf32, ["s0"]>
  %v4 = "onnx.Reshape"(%v, %skv) : (tensor<?x5x16xf32, ["s0"]>, tensor<4xi64>) -> tensor<?x5x2x8xf32, ["s0"]>
  %qt = "onnx.Transpose"(%q4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x4x8xf32, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]>
  %kt = "onnx.Transpose"(%k4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x2x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %vt = "onnx.Transpose"(%v4) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x5x2x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %a = "onnx.Attention"(%qt, %kt, %vt, %m) {scale = 0.353553385 : f32} : (tensor<?x4x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x1x5x5xi1, ["s0"]>) -> tensor<?x4x5x8xf32, ["s0"]>
  %t = "onnx.Transpose"(%a) {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x4x5x8xf32, ["s0"]>) -> tensor<?x5x4x8xf32, ["s0"]>
  %s3 = "onnx.Constant"() {value = dense<[-1, 5, 32]> : tensor<3xi64>} : () -> tensor<3xi64>
  %o = "onnx.Reshape"(%t, %s3) : (tensor<?x5x4x8xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x5x32xf32, ["s0"]>
  return %o : tensor<?x5x32xf32, ["s0"]>
}
}

// -----

// Causal masks proven from how they are built: k <= q from positions
// (Range, Unsqueeze, LessOrEqual, And with true); a lower Trilu of ones.
// Both drop the mask for is_causal = 1.
// CHECK-LABEL: func.func @causal
// CHECK-SAME: "attention/causal-mask" = 2
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : i64, scale = 0.353553385 : f32}
// CHECK: %[[B:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : i64, scale = 5.000000e-01 : f32}
// CHECK-NEXT: return %[[A]], %[[B]]
module attributes {onnx.opset = 23 : i64} {
func.func @causal(%q: tensor<?x2x5x8xf32, ["s0"]>, %k: tensor<?x2x5x8xf32, ["s0"]>, %v: tensor<?x2x5x8xf32, ["s0"]>) -> (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %n = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %pos = "onnx.Range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %a1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %row = "onnx.Unsqueeze"(%pos, %a0) : (tensor<5xi64>, tensor<1xi64>) -> tensor<1x5xi64>
  %col = "onnx.Unsqueeze"(%pos, %a1) : (tensor<5xi64>, tensor<1xi64>) -> tensor<5x1xi64>
  %le = "onnx.LessOrEqual"(%row, %col) : (tensor<1x5xi64>, tensor<5x1xi64>) -> tensor<5x5xi1>
  %t = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %m = "onnx.And"(%t, %le) : (tensor<i1>, tensor<5x5xi1>) -> tensor<5x5xi1>
  %o = "onnx.Attention"(%q, %k, %v, %m) {scale = 0.353553385 : f32} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<5x5xi1>) -> tensor<?x2x5x8xf32, ["s0"]>
  %shape = "onnx.Constant"() {value = dense<5> : tensor<2xi64>} : () -> tensor<2xi64>
  %ones = "onnx.Expand"(%t, %shape) : (tensor<i1>, tensor<2xi64>) -> tensor<5x5xi1>
  %tri = "onnx.Trilu"(%ones, %zero) {upper = 0 : i64} : (tensor<5x5xi1>, tensor<i64>) -> tensor<5x5xi1>
  %p = "onnx.Attention"(%q, %k, %v, %tri) {scale = 0.5 : f32} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<5x5xi1>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %o, %p : tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>
}
}

// -----

// Not causal: k < q (the diagonal masked too), a mask compared with an
// offset (k <= q + 1), and a mask that is an argument stay masks.
// CHECK-LABEL: func.func @causal_not
// CHECK-NOT: is_causal
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @causal_not(%q: tensor<1x2x5x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x8xf32>, %arg: tensor<5x5xi1>) -> (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %n = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %pos = "onnx.Range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<5xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %a1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %row = "onnx.Unsqueeze"(%pos, %a0) : (tensor<5xi64>, tensor<1xi64>) -> tensor<1x5xi64>
  %col = "onnx.Unsqueeze"(%pos, %a1) : (tensor<5xi64>, tensor<1xi64>) -> tensor<5x1xi64>
  %lt = "onnx.Less"(%row, %col) : (tensor<1x5xi64>, tensor<5x1xi64>) -> tensor<5x5xi1>
  %o = "onnx.Attention"(%q, %k, %v, %lt) {scale = 0.353553385 : f32} : (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<5x5xi1>) -> tensor<1x2x5x8xf32>
  %col1 = "onnx.Add"(%col, %one) : (tensor<5x1xi64>, tensor<i64>) -> tensor<5x1xi64>
  %le1 = "onnx.LessOrEqual"(%row, %col1) : (tensor<1x5xi64>, tensor<5x1xi64>) -> tensor<5x5xi1>
  %p = "onnx.Attention"(%q, %k, %v, %le1) {scale = 0.353553385 : f32} : (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<5x5xi1>) -> tensor<1x2x5x8xf32>
  %r = "onnx.Attention"(%q, %k, %v, %arg) {scale = 0.353553385 : f32} : (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<5x5xi1>) -> tensor<1x2x5x8xf32>
  return %o, %p, %r : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
}
}

// -----

// A transposed initializer becomes a weight transform done by the writer;
// a weight also used as it is (tied: a Gather and a Transpose) stays.
// CHECK-LABEL: func.func @transpose_initializer
// CHECK-SAME: "weights/transpose-initializer" = 1
// CHECK: %[[W:.*]] = "onnx.initializer"() {name = "fc.weight"}
// CHECK: %[[T:.*]] = "onnx.weight_transform"(%[[W]]) {kind = "transpose", perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
// CHECK: "onnx.MatMul"(%arg0, %[[T]])
// CHECK: "onnx.Transpose"
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @transpose_initializer(%x: tensor<?x4xf32, ["s0"]>, %i: tensor<2xi64>) -> (tensor<?x5xf32, ["s0"]>, tensor<?x3xf32, ["s0"]>, tensor<2x4xf32>) {
  %w = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<5x4xf32>
  %t = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %0 = "onnx.MatMul"(%x, %t) : (tensor<?x4xf32, ["s0"]>, tensor<4x5xf32>) -> tensor<?x5xf32, ["s0"]>
  %tied = "onnx.initializer"() {name = "table"} : () -> tensor<3x4xf32>
  %tt = "onnx.Transpose"(%tied) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %1 = "onnx.MatMul"(%x, %tt) : (tensor<?x4xf32, ["s0"]>, tensor<4x3xf32>) -> tensor<?x3xf32, ["s0"]>
  %2 = "onnx.Gather"(%tied, %i) {axis = 0 : i64} : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<?x5xf32, ["s0"]>, tensor<?x3xf32, ["s0"]>, tensor<2x4xf32>
}
}

// -----

// Cast of an initializer: float to float (rounded like onnxruntime's Cast)
// becomes a weight transform, and a transpose of it too; a cast that loses
// values (float to int) stays.
// CHECK-LABEL: func.func @cast_initializer
// CHECK-SAME: "weights/cast-initializer" = 1
// CHECK-SAME: "weights/transpose-initializer" = 1
// CHECK: %[[C:.*]] = "onnx.weight_transform"(%{{.*}}) {kind = "cast"} : (tensor<3x4xf16>) -> tensor<3x4xf32>
// CHECK: "onnx.weight_transform"(%[[C]]) {kind = "transpose", perm = array<i64: 1, 0>}
// CHECK: "onnx.Cast"(%{{.*}}) {to = 6 : i64}
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @cast_initializer(%x: tensor<?x4xf32, ["s0"]>) -> (tensor<?x3xf32, ["s0"]>, tensor<5x4xi32>) {
  %w = "onnx.initializer"() {name = "h16.weight"} : () -> tensor<3x4xf16>
  %c = "onnx.Cast"(%w) {to = 1 : i64} : (tensor<3x4xf16>) -> tensor<3x4xf32>
  %t = "onnx.Transpose"(%c) {perm = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %0 = "onnx.MatMul"(%x, %t) : (tensor<?x4xf32, ["s0"]>, tensor<4x3xf32>) -> tensor<?x3xf32, ["s0"]>
  %f = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<5x4xf32>
  %1 = "onnx.Cast"(%f) {to = 6 : i64} : (tensor<5x4xf32>) -> tensor<5x4xi32>
  return %0, %1 : tensor<?x3xf32, ["s0"]>, tensor<5x4xi32>
}
}

// -----

// Conv + inference BatchNormalization of initializers -> Conv with the
// folded weight and bias (with and without a Conv bias); statistics that are
// not initializers stay a BatchNormalization.
// CHECK-LABEL: func.func @conv_batchnorm
// CHECK-SAME: "conv/conv-batchnorm" = 2
// CHECK-DAG: %[[W1:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 9.99999974E-6 : f32, kind = "conv_bn_weight"}
// CHECK-DAG: %[[B1:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 9.99999974E-6 : f32, kind = "conv_bn_bias"}
// CHECK-DAG: %[[B2:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 1.000000e-03 : f32, kind = "conv_bn_bias"}
// CHECK-DAG: "onnx.Conv"(%arg0, %[[W1]], %[[B1]])
// CHECK-DAG: "onnx.Conv"(%arg0, %{{.*}}, %[[B2]])
// CHECK-DAG: "onnx.BatchNormalization"(%{{.*}}, %arg1,
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @conv_batchnorm(%x: tensor<?x3x5x5xf32, ["s0"]>, %sa: tensor<4xf32>) -> (tensor<?x4x5x5xf32, ["s0"]>, tensor<?x4x5x5xf32, ["s0"]>, tensor<?x4x3x3xf32, ["s0"]>) {
  %w = "onnx.initializer"() {name = "conv.weight"} : () -> tensor<4x3x3x3xf32>
  %b = "onnx.initializer"() {name = "conv.bias"} : () -> tensor<4xf32>
  %s = "onnx.initializer"() {name = "bn.weight"} : () -> tensor<4xf32>
  %B = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %m = "onnx.initializer"() {name = "bn.running_mean"} : () -> tensor<4xf32>
  %v = "onnx.initializer"() {name = "bn.running_var"} : () -> tensor<4xf32>
  %0 = "onnx.Conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x5x5xf32, ["s0"]>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
  %1 = "onnx.BatchNormalization"(%0, %s, %B, %m, %v) {epsilon = 9.99999974E-6 : f32} : (tensor<?x4x5x5xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
  %2 = "onnx.Conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x5x5xf32, ["s0"]>, tensor<4x3x3x3xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
  %3 = "onnx.BatchNormalization"(%2, %s, %B, %m, %v) {epsilon = 1.0E-3 : f32} : (tensor<?x4x5x5xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
  %c = "onnx.Conv"(%x, %w) {pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<?x3x5x5xf32, ["s0"]>, tensor<4x3x3x3xf32>) -> tensor<?x4x3x3xf32, ["s0"]>
  %4 = "onnx.BatchNormalization"(%c, %sa, %B, %m, %v) {epsilon = 1.0E-3 : f32} : (tensor<?x4x3x3xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x3x3xf32, ["s0"]>
  return %1, %3, %4 : tensor<?x4x5x5xf32, ["s0"]>, tensor<?x4x5x5xf32, ["s0"]>, tensor<?x4x3x3xf32, ["s0"]>
}
}

// -----

// ConvTranspose (group 1: output channels on W's axis 1) and a Linear's
// Gemm (transB = 1: W's rows) + BatchNormalization fold the same way; a
// ConvTranspose of group 2 and a Gemm without transB stay.
// CHECK-LABEL: func.func @product_batchnorm
// CHECK-SAME: "conv/convtranspose-batchnorm" = 1
// CHECK-SAME: "conv/gemm-batchnorm" = 1
// CHECK-DAG: %[[WT:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, epsilon = 9.99999974E-6 : f32, kind = "conv_bn_weight"}
// CHECK-DAG: "onnx.ConvTranspose"(%arg0, %[[WT]], %{{.*}})
// CHECK-DAG: %[[WG:.*]] = "onnx.weight_transform"(%{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 9.99999974E-6 : f32, kind = "conv_bn_weight"}
// CHECK-DAG: "onnx.Gemm"(%arg1, %[[WG]], %{{.*}}) {transB = 1 : i64}
// CHECK-DAG: "onnx.ConvTranspose"(%arg2, %{{.*}}) {group = 2 : i64}
// CHECK-DAG: "onnx.Gemm"(%arg1, %{{.*}}, %{{.*}}) :
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @product_batchnorm(%x: tensor<?x3x5x5xf32, ["s0"]>, %f: tensor<?x4xf32, ["s0"]>, %x6: tensor<?x6x5x5xf32, ["s0"]>) -> (tensor<?x4x6x6xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>, tensor<?x4x6x6xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>) {
  %w = "onnx.initializer"() {name = "convt.weight"} : () -> tensor<3x4x2x2xf32>
  %w6 = "onnx.initializer"() {name = "convt6.weight"} : () -> tensor<6x2x2x2xf32>
  %q = "onnx.initializer"() {name = "q.weight"} : () -> tensor<4x4xf32>
  %c = "onnx.initializer"() {name = "conv.bias"} : () -> tensor<4xf32>
  %s = "onnx.initializer"() {name = "bn.weight"} : () -> tensor<4xf32>
  %B = "onnx.initializer"() {name = "bn.bias"} : () -> tensor<4xf32>
  %m = "onnx.initializer"() {name = "bn.running_mean"} : () -> tensor<4xf32>
  %v = "onnx.initializer"() {name = "bn.running_var"} : () -> tensor<4xf32>
  %0 = "onnx.ConvTranspose"(%x, %w) : (tensor<?x3x5x5xf32, ["s0"]>, tensor<3x4x2x2xf32>) -> tensor<?x4x6x6xf32, ["s0"]>
  %1 = "onnx.BatchNormalization"(%0, %s, %B, %m, %v) {epsilon = 9.99999974E-6 : f32} : (tensor<?x4x6x6xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x6x6xf32, ["s0"]>
  %2 = "onnx.Gemm"(%f, %q, %c) {transB = 1 : i64} : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %3 = "onnx.BatchNormalization"(%2, %s, %B, %m, %v) {epsilon = 9.99999974E-6 : f32} : (tensor<?x4xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %4 = "onnx.ConvTranspose"(%x6, %w6) {group = 2 : i64} : (tensor<?x6x5x5xf32, ["s0"]>, tensor<6x2x2x2xf32>) -> tensor<?x4x6x6xf32, ["s0"]>
  %5 = "onnx.BatchNormalization"(%4, %s, %B, %m, %v) {epsilon = 1.0E-3 : f32} : (tensor<?x4x6x6xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x6x6xf32, ["s0"]>
  %6 = "onnx.Gemm"(%f, %q, %c) : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  %7 = "onnx.BatchNormalization"(%6, %s, %B, %m, %v) {epsilon = 1.0E-3 : f32} : (tensor<?x4xf32, ["s0"]>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
  return %1, %3, %5, %7 : tensor<?x4x6x6xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>, tensor<?x4x6x6xf32, ["s0"]>, tensor<?x4xf32, ["s0"]>
}
}

// -----

// A mask proven all-true (positions >= 0, as ViT's bidirectional mask is
// built: a constant 0..4 compared with 0, expanded) is dropped; one
// comparing with 1 (position 0 masked out) stays.
// CHECK-LABEL: func.func @mask_all_true
// CHECK-SAME: "attention/causal-mask" = 1
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {scale = 0.353553385 : f32}
// CHECK: %[[B:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2, %{{.*}}) {scale = 0.353553385 : f32}
// CHECK: return %[[A]], %[[B]]
module attributes {onnx.opset = 23 : i64} {
func.func @mask_all_true(%q: tensor<?x2x5x8xf32, ["s0"]>, %k: tensor<?x2x5x8xf32, ["s0"]>, %v: tensor<?x2x5x8xf32, ["s0"]>) -> (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) {
  %pos = "onnx.Constant"() {value = dense<[0, 1, 2, 3, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
  %a1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %col = "onnx.Unsqueeze"(%pos, %a1) : (tensor<5xi64>, tensor<1xi64>) -> tensor<5x1xi64>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %ge = "onnx.GreaterOrEqual"(%col, %zero) : (tensor<5x1xi64>, tensor<i64>) -> tensor<5x1xi1>
  %shape = "onnx.Constant"() {value = dense<5> : tensor<2xi64>} : () -> tensor<2xi64>
  %m = "onnx.Expand"(%ge, %shape) : (tensor<5x1xi1>, tensor<2xi64>) -> tensor<5x5xi1>
  %o = "onnx.Attention"(%q, %k, %v, %m) {scale = 0.353553385 : f32} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<5x5xi1>) -> tensor<?x2x5x8xf32, ["s0"]>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %ge1 = "onnx.GreaterOrEqual"(%col, %one) : (tensor<5x1xi64>, tensor<i64>) -> tensor<5x1xi1>
  %m1 = "onnx.Expand"(%ge1, %shape) : (tensor<5x1xi1>, tensor<2xi64>) -> tensor<5x5xi1>
  %p = "onnx.Attention"(%q, %k, %v, %m1) {scale = 0.353553385 : f32} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<5x5xi1>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %o, %p : tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>
}
}

// -----

// RoPE with attention_scaling: cos = Cos(Concat(a, a)) * s, sin = s * Sin(..):
// the half caches are Cos(a) * s and Sin(a) * s; a cache already at the
// input's batch is used as it is (no Expand).
// CHECK-LABEL: func.func @rotate_half_scaled
// CHECK-SAME: "rotary/rotate-half" = 1
// CHECK-NOT: "onnx.Expand"
// CHECK-DAG: %[[C:.*]] = "onnx.Cos"(%arg1)
// CHECK-DAG: %[[S:.*]] = "onnx.Sin"(%arg1)
// CHECK-DAG: %[[CS:.*]] = "onnx.Mul"(%[[C]], %[[K:.*]]) :
// CHECK-DAG: %[[SS:.*]] = "onnx.Mul"(%[[S]], %[[K]]) :
// CHECK: %[[Y:.*]] = "onnx.RotaryEmbedding"(%arg0, %[[CS]], %[[SS]]) {interleaved = 0 : i64}
// CHECK-NEXT: return %[[Y]]
module attributes {onnx.opset = 23 : i64} {
func.func @rotate_half_scaled(%x: tensor<?x2x5x8xf32, ["s0"]>, %a: tensor<?x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]> {
  %cat = "onnx.Concat"(%a, %a) {axis = 2 : i64} : (tensor<?x5x4xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>) -> tensor<?x5x8xf32, ["s0"]>
  %cos0 = "onnx.Cos"(%cat) : (tensor<?x5x8xf32, ["s0"]>) -> tensor<?x5x8xf32, ["s0"]>
  %sin0 = "onnx.Sin"(%cat) : (tensor<?x5x8xf32, ["s0"]>) -> tensor<?x5x8xf32, ["s0"]>
  %k = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %cos = "onnx.Mul"(%cos0, %k) : (tensor<?x5x8xf32, ["s0"]>, tensor<f32>) -> tensor<?x5x8xf32, ["s0"]>
  %sin = "onnx.Mul"(%k, %sin0) : (tensor<f32>, tensor<?x5x8xf32, ["s0"]>) -> tensor<?x5x8xf32, ["s0"]>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %c4 = "onnx.Unsqueeze"(%cos, %one) : (tensor<?x5x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x1x5x8xf32, ["s0"]>
  %s4 = "onnx.Unsqueeze"(%sin, %one) : (tensor<?x5x8xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x1x5x8xf32, ["s0"]>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %half = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = "onnx.Constant"() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %x1 = "onnx.Slice"(%x, %zero, %half, %ax) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %x2 = "onnx.Slice"(%x, %half, %end, %ax) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %n = "onnx.Neg"(%x2) : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %rot = "onnx.Concat"(%n, %x1) {axis = -1 : i64} : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m1 = "onnx.Mul"(%x, %c4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x1x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m2 = "onnx.Mul"(%s4, %rot) : (tensor<?x1x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %y = "onnx.Add"(%m1, %m2) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %y : tensor<?x2x5x8xf32, ["s0"]>
}
}

// -----

// Additive float masks: nn.Transformer's square subsequent mask (an upper
// Trilu, diagonal 1, of all -inf) and Where(causal, 0, -inf) prove causal;
// an upper Trilu with diagonal 0 (the diagonal masked too) stays.
// CHECK-LABEL: func.func @causal_additive
// CHECK-SAME: "attention/causal-mask" = 2
// CHECK: %[[A:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : i64, scale = 0.353553385 : f32}
// CHECK: %[[B:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : i64, scale = 5.000000e-01 : f32}
// CHECK: %[[C:.*]] = "onnx.Attention"(%arg0, %arg1, %arg2, %{{.*}}) {scale = 2.500000e-01 : f32}
// CHECK: return %[[A]], %[[B]], %[[C]]
module attributes {onnx.opset = 23 : i64} {
func.func @causal_additive(%q: tensor<1x2x5x8xf32>, %k: tensor<1x2x5x8xf32>, %v: tensor<1x2x5x8xf32>) -> (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>) {
  %ninf = "onnx.Constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %shape = "onnx.Constant"() {value = dense<5> : tensor<2xi64>} : () -> tensor<2xi64>
  %full = "onnx.Expand"(%ninf, %shape) : (tensor<f32>, tensor<2xi64>) -> tensor<5x5xf32>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %sub = "onnx.Trilu"(%full, %one) {upper = 1 : i64} : (tensor<5x5xf32>, tensor<i64>) -> tensor<5x5xf32>
  %o = "onnx.Attention"(%q, %k, %v, %sub) {scale = 0.353553385 : f32} : (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<5x5xf32>) -> tensor<1x2x5x8xf32>
  %t = "onnx.Constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %ones = "onnx.Expand"(%t, %shape) : (tensor<i1>, tensor<2xi64>) -> tensor<5x5xi1>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %tri = "onnx.Trilu"(%ones, %zero) {upper = 0 : i64} : (tensor<5x5xi1>, tensor<i64>) -> tensor<5x5xi1>
  %fz = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %add = "onnx.Where"(%tri, %fz, %ninf) : (tensor<5x5xi1>, tensor<f32>, tensor<f32>) -> tensor<5x5xf32>
  %p = "onnx.Attention"(%q, %k, %v, %add) {scale = 0.5 : f32} : (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<5x5xf32>) -> tensor<1x2x5x8xf32>
  %sub0 = "onnx.Trilu"(%full, %zero) {upper = 1 : i64} : (tensor<5x5xf32>, tensor<i64>) -> tensor<5x5xf32>
  %r = "onnx.Attention"(%q, %k, %v, %sub0) {scale = 0.25 : f32} : (tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<5x5xf32>) -> tensor<1x2x5x8xf32>
  return %o, %p, %r : tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>, tensor<1x2x5x8xf32>
}
}

// -----

// Rounding a float cast from an integer or boolean does nothing (f32, f64,
// Ceil/Floor/Round); a float cast from a float keeps its rounding.
// CHECK-LABEL: func.func @round_of_integer
// CHECK-SAME: "layout/round-of-integer" = 3
// CHECK-DAG: %[[A:.*]] = "onnx.Cast"(%arg0) {to = 11 : i64}
// CHECK-DAG: %[[B:.*]] = "onnx.Cast"(%arg1) {to = 1 : i64}
// CHECK-DAG: %[[C:.*]] = "onnx.Cast"(%arg2) {to = 1 : i64}
// CHECK-DAG: %[[F:.*]] = "onnx.Cast"(%arg3) {to = 1 : i64}
// CHECK-DAG: %[[R:.*]] = "onnx.Ceil"(%[[F]])
// CHECK: return %[[A]], %[[B]], %[[C]], %[[R]]
module attributes {onnx.opset = 23 : i64} {
func.func @round_of_integer(%x: tensor<i64>, %y: tensor<3xi32>, %b: tensor<3xi1>, %h: tensor<3xf16>) -> (tensor<f64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = "onnx.Cast"(%x) {to = 11 : i64} : (tensor<i64>) -> tensor<f64>
  %1 = "onnx.Ceil"(%0) : (tensor<f64>) -> tensor<f64>
  %2 = "onnx.Cast"(%y) {to = 1 : i64} : (tensor<3xi32>) -> tensor<3xf32>
  %3 = "onnx.Round"(%2) : (tensor<3xf32>) -> tensor<3xf32>
  %4 = "onnx.Cast"(%b) {to = 1 : i64} : (tensor<3xi1>) -> tensor<3xf32>
  %5 = "onnx.Floor"(%4) : (tensor<3xf32>) -> tensor<3xf32>
  %6 = "onnx.Cast"(%h) {to = 1 : i64} : (tensor<3xf16>) -> tensor<3xf32>
  %7 = "onnx.Ceil"(%6) : (tensor<3xf32>) -> tensor<3xf32>
  return %1, %3, %5, %7 : tensor<f64>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
}

// -----

// A padding mask built the Hugging Face way (GatherND of the [B, S] boolean
// at (batch, key) index tensors, And-ed with an all-true [1, 1, S, 1]) is
// proven m[b, 0, q, k] = p[b, k] and replaced by Expand(Unsqueeze(p)).
// CHECK-LABEL: func.func @padding_mask
// CHECK-SAME: "attention/padding-mask" = 1
// CHECK-NOT: "onnx.GatherND"
// CHECK-DAG: %[[P:.*]] = "onnx.Cast"(%arg3) {to = 9 : i64}
// CHECK-DAG: %[[S:.*]] = "onnx.Shape"(%arg3) {end = 2 : i64, start = 1 : i64}
// CHECK-DAG: %[[C:.*]] = "onnx.Concat"(%[[S]], %{{.*}}) {axis = 0 : i64}
// CHECK-DAG: %[[U:.*]] = "onnx.Unsqueeze"(%[[P]], %{{.*}})
// CHECK-DAG: %[[E:.*]] = "onnx.Expand"(%[[U]], %[[C]]) : (tensor<?x1x1x?xi1, ["s0", "s1"]>, tensor<2xi64>) -> tensor<?x1x?x?xi1, ["s0", "s1", "s1"]>
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2, %[[E]])
module attributes {onnx.opset = 23 : i64} {
func.func @padding_mask(%q: tensor<?x2x?x8xf32, ["s0", "s1"]>, %k: tensor<?x2x?x8xf32, ["s0", "s1"]>, %v: tensor<?x2x?x8xf32, ["s0", "s1"]>, %am: tensor<?x?xi64, ["s0", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]> {
  %p = "onnx.Cast"(%am) {to = 9 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<?x?xi1, ["s0", "s1"]>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %b1 = "onnx.Shape"(%am) {end = 1 : i64, start = 0 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<1xi64>
  %s1 = "onnx.Shape"(%am) {end = 2 : i64, start = 1 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<1xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %b = "onnx.Squeeze"(%b1, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %s = "onnx.Squeeze"(%s1, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %bi = "onnx.Range"(%zero, %b, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s0"]>
  %ki = "onnx.Range"(%zero, %s, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s1"]>
  %ax123 = "onnx.Constant"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %ax012 = "onnx.Constant"() {value = dense<[0, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %bu = "onnx.Unsqueeze"(%bi, %ax123) : (tensor<?xi64, ["s0"]>, tensor<3xi64>) -> tensor<?x1x1x1xi64, ["s0"]>
  %ku = "onnx.Unsqueeze"(%ki, %ax012) : (tensor<?xi64, ["s1"]>, tensor<3xi64>) -> tensor<1x1x1x?xi64, ["s1"]>
  %sum = "onnx.Add"(%bu, %ku) : (tensor<?x1x1x1xi64, ["s0"]>, tensor<1x1x1x?xi64, ["s1"]>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %shape = "onnx.Shape"(%sum) : (tensor<?x1x1x?xi64, ["s0", "s1"]>) -> tensor<4xi64>
  %be = "onnx.Expand"(%bu, %shape) : (tensor<?x1x1x1xi64, ["s0"]>, tensor<4xi64>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %ke = "onnx.Expand"(%ku, %shape) : (tensor<1x1x1x?xi64, ["s1"]>, tensor<4xi64>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %last = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %b5 = "onnx.Unsqueeze"(%be, %last) : (tensor<?x1x1x?xi64, ["s0", "s1"]>, tensor<1xi64>) -> tensor<?x1x1x?x1xi64, ["s0", "s1"]>
  %k5 = "onnx.Unsqueeze"(%ke, %last) : (tensor<?x1x1x?xi64, ["s0", "s1"]>, tensor<1xi64>) -> tensor<?x1x1x?x1xi64, ["s0", "s1"]>
  %idx = "onnx.Concat"(%b5, %k5) {axis = -1 : i64} : (tensor<?x1x1x?x1xi64, ["s0", "s1"]>, tensor<?x1x1x?x1xi64, ["s0", "s1"]>) -> tensor<?x1x1x?x2xi64, ["s0", "s1"]>
  %pad = "onnx.GatherND"(%p, %idx) : (tensor<?x?xi1, ["s0", "s1"]>, tensor<?x1x1x?x2xi64, ["s0", "s1"]>) -> tensor<?x1x1x?xi1, ["s0", "s1"]>
  %ax013 = "onnx.Constant"() {value = dense<[0, 1, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %qu = "onnx.Unsqueeze"(%ki, %ax013) : (tensor<?xi64, ["s1"]>, tensor<3xi64>) -> tensor<1x1x?x1xi64, ["s1"]>
  %ge = "onnx.GreaterOrEqual"(%qu, %zero) : (tensor<1x1x?x1xi64, ["s1"]>, tensor<i64>) -> tensor<1x1x?x1xi1, ["s1"]>
  %m = "onnx.And"(%ge, %pad) : (tensor<1x1x?x1xi1, ["s1"]>, tensor<?x1x1x?xi1, ["s0", "s1"]>) -> tensor<?x1x?x?xi1, ["s0", "s1", "s1"]>
  %o = "onnx.Attention"(%q, %k, %v, %m) {scale = 0.353553385 : f32} : (tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x1x?x?xi1, ["s0", "s1", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]>
  return %o : tensor<?x2x?x8xf32, ["s0", "s1"]>
}
}

// -----

// The same with the index components swapped (p[k, b]): not a padding mask,
// the mask stays as it is.
// CHECK-LABEL: func.func @padding_mask_swapped
// CHECK-NOT: "attention/padding-mask"
// CHECK: "onnx.GatherND"
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2, %{{.*}})
module attributes {onnx.opset = 23 : i64} {
func.func @padding_mask_swapped(%q: tensor<?x2x?x8xf32, ["s0", "s1"]>, %k: tensor<?x2x?x8xf32, ["s0", "s1"]>, %v: tensor<?x2x?x8xf32, ["s0", "s1"]>, %am: tensor<?x?xi64, ["s0", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]> {
  %p = "onnx.Cast"(%am) {to = 9 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<?x?xi1, ["s0", "s1"]>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %b1 = "onnx.Shape"(%am) {end = 1 : i64, start = 0 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<1xi64>
  %s1 = "onnx.Shape"(%am) {end = 2 : i64, start = 1 : i64} : (tensor<?x?xi64, ["s0", "s1"]>) -> tensor<1xi64>
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %b = "onnx.Squeeze"(%b1, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %s = "onnx.Squeeze"(%s1, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %bi = "onnx.Range"(%zero, %b, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s0"]>
  %ki = "onnx.Range"(%zero, %s, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s1"]>
  %ax123 = "onnx.Constant"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %ax012 = "onnx.Constant"() {value = dense<[0, 1, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %bu = "onnx.Unsqueeze"(%bi, %ax123) : (tensor<?xi64, ["s0"]>, tensor<3xi64>) -> tensor<?x1x1x1xi64, ["s0"]>
  %ku = "onnx.Unsqueeze"(%ki, %ax012) : (tensor<?xi64, ["s1"]>, tensor<3xi64>) -> tensor<1x1x1x?xi64, ["s1"]>
  %sum = "onnx.Add"(%bu, %ku) : (tensor<?x1x1x1xi64, ["s0"]>, tensor<1x1x1x?xi64, ["s1"]>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %shape = "onnx.Shape"(%sum) : (tensor<?x1x1x?xi64, ["s0", "s1"]>) -> tensor<4xi64>
  %be = "onnx.Expand"(%bu, %shape) : (tensor<?x1x1x1xi64, ["s0"]>, tensor<4xi64>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %ke = "onnx.Expand"(%ku, %shape) : (tensor<1x1x1x?xi64, ["s1"]>, tensor<4xi64>) -> tensor<?x1x1x?xi64, ["s0", "s1"]>
  %last = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %b5 = "onnx.Unsqueeze"(%be, %last) : (tensor<?x1x1x?xi64, ["s0", "s1"]>, tensor<1xi64>) -> tensor<?x1x1x?x1xi64, ["s0", "s1"]>
  %k5 = "onnx.Unsqueeze"(%ke, %last) : (tensor<?x1x1x?xi64, ["s0", "s1"]>, tensor<1xi64>) -> tensor<?x1x1x?x1xi64, ["s0", "s1"]>
  %idx = "onnx.Concat"(%k5, %b5) {axis = -1 : i64} : (tensor<?x1x1x?x1xi64, ["s0", "s1"]>, tensor<?x1x1x?x1xi64, ["s0", "s1"]>) -> tensor<?x1x1x?x2xi64, ["s0", "s1"]>
  %pad = "onnx.GatherND"(%p, %idx) : (tensor<?x?xi1, ["s0", "s1"]>, tensor<?x1x1x?x2xi64, ["s0", "s1"]>) -> tensor<?x1x1x?xi1, ["s0", "s1"]>
  %ax013 = "onnx.Constant"() {value = dense<[0, 1, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %qu = "onnx.Unsqueeze"(%ki, %ax013) : (tensor<?xi64, ["s1"]>, tensor<3xi64>) -> tensor<1x1x?x1xi64, ["s1"]>
  %ge = "onnx.GreaterOrEqual"(%qu, %zero) : (tensor<1x1x?x1xi64, ["s1"]>, tensor<i64>) -> tensor<1x1x?x1xi1, ["s1"]>
  %m = "onnx.And"(%ge, %pad) : (tensor<1x1x?x1xi1, ["s1"]>, tensor<?x1x1x?xi1, ["s0", "s1"]>) -> tensor<?x1x?x?xi1, ["s0", "s1", "s1"]>
  %o = "onnx.Attention"(%q, %k, %v, %m) {scale = 0.353553385 : f32} : (tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x2x?x8xf32, ["s0", "s1"]>, tensor<?x1x?x?xi1, ["s0", "s1", "s1"]>) -> tensor<?x2x?x8xf32, ["s0", "s1"]>
  return %o : tensor<?x2x?x8xf32, ["s0", "s1"]>
}
}

// -----

// A Reshape to [prod(x.dims[..a]), prod(x.dims[a..])] is a Flatten: the
// classifier input of a CNN ([B, C, 1, 1] -> [B, C], the shape computed from
// Shape/Concat) and a static one; a Reshape that is no flatten stays.
// CHECK-LABEL: func.func @reshape_to_flatten
// CHECK-SAME: "layout/reshape-to-flatten" = 2
// CHECK-DAG: %[[A:.*]] = "onnx.Flatten"(%arg0) {axis = 1 : i64} : (tensor<?x16x1x1xf32, ["s0"]>) -> tensor<?x16xf32, ["s0"]>
// CHECK-DAG: %[[B:.*]] = "onnx.Flatten"(%arg1) {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-DAG: %[[C:.*]] = "onnx.Reshape"(%arg1, %{{.*}}) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
// CHECK: return %[[A]], %[[B]], %[[C]]
module attributes {onnx.opset = 23 : i64} {
func.func @reshape_to_flatten(%x: tensor<?x16x1x1xf32, ["s0"]>, %y: tensor<2x3x4xf32>) -> (tensor<?x16xf32, ["s0"]>, tensor<6x4xf32>, tensor<4x6xf32>) {
  %b = "onnx.Shape"(%x) {end = 1 : i64, start = 0 : i64} : (tensor<?x16x1x1xf32, ["s0"]>) -> tensor<1xi64>
  %n = "onnx.Constant"() {value = dense<16> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "onnx.Concat"(%b, %n) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %0 = "onnx.Reshape"(%x, %s) : (tensor<?x16x1x1xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x16xf32, ["s0"]>
  %s64 = "onnx.Constant"() {value = dense<[6, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = "onnx.Reshape"(%y, %s64) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %s46 = "onnx.Constant"() {value = dense<[4, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
  %2 = "onnx.Reshape"(%y, %s46) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  return %0, %1, %2 : tensor<?x16xf32, ["s0"]>, tensor<6x4xf32>, tensor<4x6xf32>
}
}

// -----

// Padding masks [B, 1, 1, Skv] given to the spelled-out attention (boolean
// through Where, additive float through Add): the Add / Where broadcast the
// mask along the queries, so Attention gets Expand(mask, [Sq, 1]) (the
// [B, 1, Sq, Skv] onnxruntime requires), a float mask with its lowest-float
// entries made the next float (onnxruntime zeroes a row of lowest floats,
// the softmax averages it); a mask broadcast along the keys ([B, 1, Sq, 1])
// is not fused.
// CHECK-LABEL: func.func @sdpa_padding_mask
// CHECK-SAME: "attention/sdpa-padding-mask" = 2
// CHECK-DAG: %[[C:.*]] = "onnx.Concat"(%{{.*}}, %{{.*}}) {axis = 0 : i64}
// CHECK-DAG: %[[B:.*]] = "onnx.Expand"(%arg3, %[[C]]) : (tensor<?x1x1x5xi1, ["s0"]>, tensor<2xi64>) -> tensor<?x1x5x5xi1, ["s0"]>
// CHECK-DAG: %[[L:.*]] = "onnx.Equal"(%arg4, %{{.*}}) : (tensor<?x1x1x5xf32, ["s0"]>, tensor<f32>) -> tensor<?x1x1x5xi1, ["s0"]>
// CHECK-DAG: %[[W:.*]] = "onnx.Where"(%[[L]], %{{.*}}, %arg4)
// CHECK-DAG: %[[F:.*]] = "onnx.Expand"(%[[W]], %[[C]]) : (tensor<?x1x1x5xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x1x5x5xf32, ["s0"]>
// CHECK-DAG: %[[X:.*]] = "onnx.Attention"(%arg0, %{{.*}}, %arg2, %[[B]]) {scale = 0.353553385 : f32}
// CHECK-DAG: %[[Y:.*]] = "onnx.Attention"(%arg0, %{{.*}}, %arg2, %[[F]]) {scale = 0.353553385 : f32}
// CHECK-DAG: %[[Z:.*]] = "onnx.MatMul"(%{{.*}}, %arg2)
// CHECK: return %[[X]], %[[Y]], %[[Z]]
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_padding_mask(%q: tensor<?x2x5x8xf32, ["s0"]>, %k: tensor<?x2x8x5xf32, ["s0"]>, %v: tensor<?x2x5x8xf32, ["s0"]>, %m: tensor<?x1x1x5xi1, ["s0"]>, %f: tensor<?x1x1x5xf32, ["s0"]>, %g: tensor<?x1x5x1xf32, ["s0"]>) -> (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) {
  %s = "onnx.MatMul"(%q, %k) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x8x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %c = "onnx.Constant"() {value = dense<0.353553385> : tensor<f32>} : () -> tensor<f32>
  %ss = "onnx.Mul"(%s, %c) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<f32>) -> tensor<?x2x5x5xf32, ["s0"]>
  %ninf = "onnx.Constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %l = "onnx.Where"(%m, %ss, %ninf) : (tensor<?x1x1x5xi1, ["s0"]>, tensor<?x2x5x5xf32, ["s0"]>, tensor<f32>) -> tensor<?x2x5x5xf32, ["s0"]>
  %p = "onnx.Softmax"(%l) {axis = -1 : i64} : (tensor<?x2x5x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %o = "onnx.MatMul"(%p, %v) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %la = "onnx.Add"(%ss, %f) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<?x1x1x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %pa = "onnx.Softmax"(%la) {axis = -1 : i64} : (tensor<?x2x5x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %oa = "onnx.MatMul"(%pa, %v) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %lg = "onnx.Add"(%ss, %g) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<?x1x5x1xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %pg = "onnx.Softmax"(%lg) {axis = -1 : i64} : (tensor<?x2x5x5xf32, ["s0"]>) -> tensor<?x2x5x5xf32, ["s0"]>
  %og = "onnx.MatMul"(%pg, %v) : (tensor<?x2x5x5xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  return %o, %oa, %og : tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>
}
}

// -----

// Gather of an expanded index (BERT's token-type ids expanded to the batch):
// the rows are gathered once and the Expand moves after the Gather, where
// the Add's own broadcast absorbs it (expand-into-broadcast); a Gather on
// axis 1 stays.
// CHECK-LABEL: func.func @gather_of_expand
// CHECK-SAME: "layout/gather-of-expand" = 1
// CHECK-DAG: %[[G:.*]] = "onnx.Gather"(%arg0, %arg1) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<1x5xi64>) -> tensor<1x5x4xf32>
// CHECK-DAG: %[[A:.*]] = "onnx.Add"(%arg2, %[[G]])
// CHECK-DAG: %[[E:.*]] = "onnx.Expand"(%arg1, %{{.*}})
// CHECK-DAG: %[[H:.*]] = "onnx.Gather"(%arg3, %[[E]]) {axis = 1 : i64}
// CHECK: return %[[A]], %[[H]]
module attributes {onnx.opset = 23 : i64} {
func.func @gather_of_expand(%t: tensor<10x4xf32>, %g: tensor<1x5xi64>, %x: tensor<?x5x4xf32, ["s0"]>, %u: tensor<4x10xf32>) -> (tensor<?x5x4xf32, ["s0"]>, tensor<4x?x5xf32, ["s0"]>) {
  %b = "onnx.Shape"(%x) {end = 1 : i64, start = 0 : i64} : (tensor<?x5x4xf32, ["s0"]>) -> tensor<1xi64>
  %n = "onnx.Constant"() {value = dense<5> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "onnx.Concat"(%b, %n) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %e = "onnx.Expand"(%g, %s) : (tensor<1x5xi64>, tensor<2xi64>) -> tensor<?x5xi64, ["s0"]>
  %y = "onnx.Gather"(%t, %e) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<?x5xi64, ["s0"]>) -> tensor<?x5x4xf32, ["s0"]>
  %z = "onnx.Add"(%x, %y) : (tensor<?x5x4xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>) -> tensor<?x5x4xf32, ["s0"]>
  %h = "onnx.Gather"(%u, %e) {axis = 1 : i64} : (tensor<4x10xf32>, tensor<?x5xi64, ["s0"]>) -> tensor<4x?x5xf32, ["s0"]>
  return %z, %h : tensor<?x5x4xf32, ["s0"]>, tensor<4x?x5xf32, ["s0"]>
}
}

// -----

// BERT's embeddings with constant buffers whose values the importer
// attached (`onnx.initializer {value}`: position_ids = arange, token_type_ids
// = zeros): the position rows are a Slice of the table (gather-of-arange),
// whose Unsqueeze the Add's broadcast absorbs (unsqueeze-into-broadcast);
// the token-type ids are all 0 (gather-elements-of-uniform), so the table is
// gathered once at a constant id (gather-of-expand), which the writer does
// (gather-initializer), and the Add absorbs the Expand.
// CHECK-LABEL: func.func @constant_buffers
// CHECK-SAME: "layout/gather-elements-of-uniform" = 1
// CHECK-SAME: "layout/gather-of-arange" = 1
// CHECK-SAME: "layout/unsqueeze-into-broadcast" = 1
// CHECK-SAME: "weights/gather-initializer" = 1
// CHECK-NOT: "onnx.Gather
// CHECK-DAG: %[[ROW:.*]] = "onnx.weight_transform"(%{{.*}}) {axis = 0 : i64, kind = "slice", start = 0 : i64} : (tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-DAG: %[[TT:.*]] = "onnx.weight_transform"(%[[ROW]]) {kind = "reshape"} : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[P:.*]] = "onnx.Slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (tensor<8x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4xf32, ["s0"]>
// CHECK-DAG: %[[A:.*]] = "onnx.Add"(%arg1, %[[TT]])
// CHECK-DAG: %[[B:.*]] = "onnx.Add"(%[[A]], %[[P]])
// CHECK-NOT: "onnx.Gather
// CHECK: return %[[B]]
module attributes {onnx.opset = 23 : i64} {
func.func @constant_buffers(%ids: tensor<2x?xi64, ["s0"]>, %words: tensor<2x?x4xf32, ["s0"]>) -> tensor<2x?x4xf32, ["s0"]> {
  %pos = "onnx.initializer"() {name = "position_ids", value = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>} : () -> tensor<1x8xi64>
  %tt = "onnx.initializer"() {name = "token_type_ids", value = dense<0> : tensor<1x8xi64>} : () -> tensor<1x8xi64>
  %pe = "onnx.initializer"() {name = "position_embeddings"} : () -> tensor<8x4xf32>
  %te = "onnx.initializer"() {name = "token_type_embeddings"} : () -> tensor<2x4xf32>
  %z = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Shape"(%ids) {end = 2 : i64, start = 1 : i64} : (tensor<2x?xi64, ["s0"]>) -> tensor<1xi64>
  %i = "onnx.Slice"(%pos, %z, %e, %one, %one) : (tensor<1x8xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x?xi64, ["s0"]>
  %p = "onnx.Gather"(%pe, %i) {axis = 0 : i64} : (tensor<8x4xf32>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]>
  %k = "onnx.GatherElements"(%tt, %i) {axis = 1 : i64} : (tensor<1x8xi64>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?xi64, ["s0"]>
  %t = "onnx.Gather"(%te, %k) {axis = 0 : i64} : (tensor<2x4xf32>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]>
  %a = "onnx.Add"(%words, %t) : (tensor<2x?x4xf32, ["s0"]>, tensor<1x?x4xf32, ["s0"]>) -> tensor<2x?x4xf32, ["s0"]>
  %b = "onnx.Add"(%a, %p) : (tensor<2x?x4xf32, ["s0"]>, tensor<1x?x4xf32, ["s0"]>) -> tensor<2x?x4xf32, ["s0"]>
  return %b : tensor<2x?x4xf32, ["s0"]>
}
}

// -----

// Not folded: ids that do not count from 0 (position_ids + 1), ids with two
// different values, an index table shorter than the gathered one, a buffer
// without known values, and an Unsqueeze of a non-leading axis (the
// broadcast would put the 1 elsewhere).
// CHECK-LABEL: func.func @constant_buffers_kept
// CHECK-NOT: "layout/gather-of-arange"
// CHECK-NOT: "layout/gather-elements-of-uniform"
// CHECK-NOT: "layout/unsqueeze-into-broadcast"
// CHECK: "onnx.Gather"
// CHECK: "onnx.GatherElements"
// CHECK: "onnx.Gather"
// CHECK: "onnx.Gather"
// CHECK: "onnx.GatherElements"
// CHECK: "onnx.Unsqueeze"
// CHECK: return
module attributes {onnx.opset = 23 : i64} {
func.func @constant_buffers_kept(%ids: tensor<2x?xi64, ["s0"]>, %y: tensor<4x2x?xf32, ["s0"]>) -> (tensor<1x?x4xf32, ["s0"]>, tensor<1x?xi64, ["s0"]>, tensor<1x?x4xf32, ["s0"]>, tensor<1x?x4xf32, ["s0"]>, tensor<1x?xi64, ["s0"]>, tensor<4x2x?xf32, ["s0"]>) {
  %pos = "onnx.initializer"() {name = "position_ids", value = dense<[[1, 2, 3, 4, 5, 6, 7, 8]]> : tensor<1x8xi64>} : () -> tensor<1x8xi64>
  %tt = "onnx.initializer"() {name = "token_type_ids", value = dense<[[0, 0, 0, 0, 1, 1, 1, 1]]> : tensor<1x8xi64>} : () -> tensor<1x8xi64>
  %short = "onnx.initializer"() {name = "short_ids", value = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : () -> tensor<1x4xi64>
  %unknown = "onnx.initializer"() {name = "unknown_ids"} : () -> tensor<1x8xi64>
  %pe = "onnx.initializer"() {name = "position_embeddings"} : () -> tensor<9x4xf32>
  %z = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "onnx.Shape"(%ids) {end = 2 : i64, start = 1 : i64} : (tensor<2x?xi64, ["s0"]>) -> tensor<1xi64>
  %i = "onnx.Slice"(%pos, %z, %e, %one, %one) : (tensor<1x8xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x?xi64, ["s0"]>
  %p = "onnx.Gather"(%pe, %i) {axis = 0 : i64} : (tensor<9x4xf32>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]>
  %k = "onnx.GatherElements"(%tt, %i) {axis = 1 : i64} : (tensor<1x8xi64>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?xi64, ["s0"]>
  %j = "onnx.Slice"(%short, %z, %e, %one, %one) : (tensor<1x4xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x?xi64, ["s0"]>
  %q = "onnx.Gather"(%pe, %j) {axis = 0 : i64} : (tensor<9x4xf32>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]>
  %l = "onnx.Slice"(%unknown, %z, %e, %one, %one) : (tensor<1x8xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x?xi64, ["s0"]>
  %r = "onnx.Gather"(%pe, %l) {axis = 0 : i64} : (tensor<9x4xf32>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?x4xf32, ["s0"]>
  %m = "onnx.GatherElements"(%unknown, %l) {axis = 1 : i64} : (tensor<1x8xi64>, tensor<1x?xi64, ["s0"]>) -> tensor<1x?xi64, ["s0"]>
  %s = "onnx.Squeeze"(%p, %z) : (tensor<1x?x4xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x4xf32, ["s0"]>
  %st = "onnx.Transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<?x4xf32, ["s0"]>) -> tensor<4x?xf32, ["s0"]>
  %u = "onnx.Unsqueeze"(%st, %one) : (tensor<4x?xf32, ["s0"]>, tensor<1xi64>) -> tensor<4x1x?xf32, ["s0"]>
  %w = "onnx.Add"(%y, %u) : (tensor<4x2x?xf32, ["s0"]>, tensor<4x1x?xf32, ["s0"]>) -> tensor<4x2x?xf32, ["s0"]>
  return %p, %k, %q, %r, %m, %w : tensor<1x?x4xf32, ["s0"]>, tensor<1x?xi64, ["s0"]>, tensor<1x?x4xf32, ["s0"]>, tensor<1x?x4xf32, ["s0"]>, tensor<1x?xi64, ["s0"]>, tensor<4x2x?xf32, ["s0"]>
}
}

// -----

// A cast moves under data movement: the float32 cast of a float16
// repeat_kv (Unsqueeze/Expand/Reshape) casts before the Expand (fewer
// elements). A cast of a Gather (it picks elements, not a data-movement op
// here) and a cast with `saturate` (float8) stay where they are.
// CHECK-LABEL: func.func @cast_of_data_movement
// CHECK-SAME: "layout/cast-of-data-movement"
// CHECK: %[[U:.*]] = "onnx.Unsqueeze"(%arg0, %{{.*}}) : (tensor<2x2x5x8xf16>, tensor<1xi64>) -> tensor<2x2x1x5x8xf16>
// CHECK: %[[C:.*]] = "onnx.Cast"(%[[U]]) {to = 1 : i64} : (tensor<2x2x1x5x8xf16>) -> tensor<2x2x1x5x8xf32>
// CHECK: %[[E:.*]] = "onnx.Expand"(%[[C]], %{{.*}}) : (tensor<2x2x1x5x8xf32>, tensor<5xi64>) -> tensor<2x2x2x5x8xf32>
// CHECK: "onnx.Reshape"(%[[E]], %{{.*}}) : (tensor<2x2x2x5x8xf32>, tensor<4xi64>) -> tensor<2x4x5x8xf32>
// CHECK: %[[G:.*]] = "onnx.Gather"(%arg1, %{{.*}})
// CHECK: "onnx.Cast"(%[[G]]) {to = 1 : i64} : (tensor<2xf16>) -> tensor<2xf32>
// CHECK: %[[T:.*]] = "onnx.Transpose"(%arg2)
// CHECK: "onnx.Cast"(%[[T]]) {saturate = 0 : i64, to = 17 : i64}
module attributes {onnx.opset = 23 : i64} {
func.func @cast_of_data_movement(%k: tensor<2x2x5x8xf16>, %g: tensor<6xf16>, %f: tensor<2x3xf32>) -> (tensor<2x4x8x5xf32>, tensor<2xf32>, tensor<3x2xf8E4M3FN>) {
  %two = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %ones = "onnx.Constant"() {value = dense<[1, 1, 2, 1, 1]> : tensor<5xi64>} : () -> tensor<5xi64>
  %shape = "onnx.Constant"() {value = dense<[2, 4, 5, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %k5 = "onnx.Unsqueeze"(%k, %two) : (tensor<2x2x5x8xf16>, tensor<1xi64>) -> tensor<2x2x1x5x8xf16>
  %ke = "onnx.Expand"(%k5, %ones) : (tensor<2x2x1x5x8xf16>, tensor<5xi64>) -> tensor<2x2x2x5x8xf16>
  %kr = "onnx.Reshape"(%ke, %shape) : (tensor<2x2x2x5x8xf16>, tensor<4xi64>) -> tensor<2x4x5x8xf16>
  %kf = "onnx.Cast"(%kr) {to = 1 : i64} : (tensor<2x4x5x8xf16>) -> tensor<2x4x5x8xf32>
  %kt = "onnx.Transpose"(%kf) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x5x8xf32>) -> tensor<2x4x8x5xf32>
  %r = "onnx.Relu"(%kt) : (tensor<2x4x8x5xf32>) -> tensor<2x4x8x5xf32>
  %idx = "onnx.Constant"() {value = dense<[0, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %gg = "onnx.Gather"(%g, %idx) {axis = 0 : i64} : (tensor<6xf16>, tensor<2xi64>) -> tensor<2xf16>
  %gf = "onnx.Cast"(%gg) {to = 1 : i64} : (tensor<2xf16>) -> tensor<2xf32>
  %ft = "onnx.Transpose"(%f) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %f8 = "onnx.Cast"(%ft) {saturate = 0 : i64, to = 17 : i64} : (tensor<3x2xf32>) -> tensor<3x2xf8E4M3FN>
  return %r, %gf, %f8 : tensor<2x4x8x5xf32>, tensor<2xf32>, tensor<3x2xf8E4M3FN>
}
}

// -----

// QDQ graphs: a per-tensor DequantizeLinear moves after data movement (the
// int8 values move) when nothing else needs the floats; a per-axis one only
// through a Transpose, with its axis renumbered by the permutation (axis 1 of
// the [4, 6] weight is axis 0 of its [6, 4] transpose). Shape of a dequantized value is the shape of the
// integers (after which the Reshape's DQ has no other user and moves too).
// Q(DQ(q)) with the same scale and zero point is q; another scale stays, and
// so does a scale below the normal range (2^-130: (q - zp) * s loses bits).
// CHECK-LABEL: func.func @qdq
// CHECK-SAME: "quant/dq-per-axis-through-transpose" = 1
// CHECK-SAME: "quant/dq-through-data-movement" = 2
// CHECK-SAME: "quant/q-of-dq" = 1
// CHECK-SAME: "quant/shape-of-dq" = 1
// CHECK-DAG: %[[T:.*]] = "onnx.Transpose"(%arg0) {perm = array<i64: 0, 2, 1>} : (tensor<?x4x6xi8, ["s0"]>) -> tensor<?x6x4xi8, ["s0"]>
// CHECK-DAG: "onnx.DequantizeLinear"(%[[T]], %{{.*}}, %{{.*}}) : (tensor<?x6x4xi8, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x6x4xf32, ["s0"]>
// CHECK-DAG: %[[F:.*]] = "onnx.Flatten"(%arg1) {axis = 1 : i64} : (tensor<?x4x6xi8, ["s0"]>) -> tensor<?x24xi8, ["s0"]>
// CHECK-DAG: "onnx.DequantizeLinear"(%[[F]], %{{.*}}, %{{.*}}) : (tensor<?x24xi8, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x24xf32, ["s0"]>
// CHECK-DAG: "onnx.Shape"(%arg1) {end = 1 : i64}
// CHECK-DAG: %[[WT:.*]] = "onnx.Transpose"(%arg2) {perm = array<i64: 1, 0>} : (tensor<4x6xi8>) -> tensor<6x4xi8>
// CHECK-DAG: "onnx.DequantizeLinear"(%[[WT]], %arg3) {axis = 0 : i64} : (tensor<6x4xi8>, tensor<6xf32>) -> tensor<6x4xf32>
// CHECK-DAG: "onnx.QuantizeLinear"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<?x4x6xf32, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xi8, ["s0"]>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %arg0,
module attributes {onnx.opset = 23 : i64} {
func.func @qdq(%q: tensor<?x4x6xi8, ["s0"]>, %q2: tensor<?x4x6xi8, ["s0"]>, %w: tensor<4x6xi8>, %ws: tensor<6xf32>) -> (tensor<?x6x4xf32, ["s0"]>, tensor<?x24xf32, ["s0"]>, tensor<1xi64>, tensor<6x4xf32>, tensor<?x4x6xi8, ["s0"]>, tensor<?x4x6xi8, ["s0"]>, tensor<?x4x6xi8, ["s0"]>) {
  %s = "onnx.Constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %z = "onnx.Constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %x = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<?x4x6xi8, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xf32, ["s0"]>
  %t = "onnx.Transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<?x4x6xf32, ["s0"]>) -> tensor<?x6x4xf32, ["s0"]>
  %x2 = "onnx.DequantizeLinear"(%q2, %s, %z) : (tensor<?x4x6xi8, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xf32, ["s0"]>
  %shape = "onnx.Constant"() {value = dense<[-1, 24]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "onnx.Reshape"(%x2, %shape) : (tensor<?x4x6xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x24xf32, ["s0"]>
  %n = "onnx.Shape"(%x2) {end = 1 : i64} : (tensor<?x4x6xf32, ["s0"]>) -> tensor<1xi64>
  %wd = "onnx.DequantizeLinear"(%w, %ws) {axis = 1 : i64} : (tensor<4x6xi8>, tensor<6xf32>) -> tensor<4x6xf32>
  %wt = "onnx.Transpose"(%wd) {perm = array<i64: 1, 0>} : (tensor<4x6xf32>) -> tensor<6x4xf32>
  %x3 = "onnx.DequantizeLinear"(%q, %s, %z) : (tensor<?x4x6xi8, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xf32, ["s0"]>
  %back = "onnx.QuantizeLinear"(%x3, %s, %z) : (tensor<?x4x6xf32, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xi8, ["s0"]>
  %s2 = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %other = "onnx.QuantizeLinear"(%x3, %s2, %z) : (tensor<?x4x6xf32, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xi8, ["s0"]>
  %tiny = "onnx.Constant"() {value = dense<7.34683969E-40> : tensor<f32>} : () -> tensor<f32>
  %xt = "onnx.DequantizeLinear"(%q, %tiny, %z) : (tensor<?x4x6xi8, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xf32, ["s0"]>
  %sub = "onnx.QuantizeLinear"(%xt, %tiny, %z) : (tensor<?x4x6xf32, ["s0"]>, tensor<f32>, tensor<i8>) -> tensor<?x4x6xi8, ["s0"]>
  return %t, %r, %n, %wt, %back, %other, %sub : tensor<?x6x4xf32, ["s0"]>, tensor<?x24xf32, ["s0"]>, tensor<1xi64>, tensor<6x4xf32>, tensor<?x4x6xi8, ["s0"]>, tensor<?x4x6xi8, ["s0"]>, tensor<?x4x6xi8, ["s0"]>
}
}

// -----

// A decoder's past key and value come with their own length symbols (s1,
// s2): the scores' MatMul with V contracts s1 with s2, and ONNX MatMul has
// no broadcast there, so they are proven equal (optimizer/dim_facts.rs) and
// the attention fuses (before, the two names kept it apart: the decode step
// of a KV-cache program stayed unfused).
// CHECK-LABEL: func.func @sdpa_kv_lengths_proven
// CHECK-SAME: "attention/sdpa" = 1
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2)
module attributes {onnx.opset = 23 : i64} {
func.func @sdpa_kv_lengths_proven(%q: tensor<2x4x1x16xf32>, %k: tensor<2x4x?x16xf32, ["s1"]>, %v: tensor<2x4x?x16xf32, ["s2"]>) -> tensor<2x4x1x16xf32> {
  %kt = "onnx.Transpose"(%k) {perm = array<i64: 0, 1, 3, 2>} : (tensor<2x4x?x16xf32, ["s1"]>) -> tensor<2x4x16x?xf32, ["s1"]>
  %s = "onnx.MatMul"(%q, %kt) : (tensor<2x4x1x16xf32>, tensor<2x4x16x?xf32, ["s1"]>) -> tensor<2x4x1x?xf32, ["s1"]>
  %p = "onnx.Softmax"(%s) {axis = -1 : i64} : (tensor<2x4x1x?xf32, ["s1"]>) -> tensor<2x4x1x?xf32, ["s1"]>
  %o = "onnx.MatMul"(%p, %v) : (tensor<2x4x1x?xf32, ["s1"]>, tensor<2x4x?x16xf32, ["s2"]>) -> tensor<2x4x1x16xf32>
  return %o : tensor<2x4x1x16xf32>
}
}

// -----

// A mask compared from positions whose symbolic size is another name than
// the scores' (t vs s) against an [s, s] operand: t may be 1 at run time,
// the column then broadcasts over every query and the mask is not causal.
// Not proven, the mask stays; the same positions of the scores' own size s
// are proven causal.
// CHECK-LABEL: func.func @causal_broadcast_unproven
// CHECK-SAME: "attention/causal-mask" = 1
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2) {is_causal = 1 : i64, scale = 5.000000e-01 : f32}
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2, %{{.*}}) {scale = 5.000000e-01 : f32}
module attributes {onnx.opset = 23 : i64} {
func.func @causal_broadcast_unproven(%q: tensor<1x2x?x8xf32, ["s"]>, %k: tensor<1x2x?x8xf32, ["s"]>, %v: tensor<1x2x?x8xf32, ["s"]>, %ps: tensor<?xi64, ["s"]>, %pt: tensor<?xi64, ["t"]>) -> (tensor<1x2x?x8xf32, ["s"]>, tensor<1x2x?x8xf32, ["s"]>) {
  %a0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %a1 = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %shape = "onnx.Shape"(%q) {start = 2 : i64, end = 3 : i64} : (tensor<1x2x?x8xf32, ["s"]>) -> tensor<1xi64>
  %n = "onnx.Squeeze"(%shape, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %pos = "onnx.Range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s"]>
  %row = "onnx.Unsqueeze"(%pos, %a0) : (tensor<?xi64, ["s"]>, tensor<1xi64>) -> tensor<1x?xi64, ["s"]>
  %col = "onnx.Unsqueeze"(%pos, %a1) : (tensor<?xi64, ["s"]>, tensor<1xi64>) -> tensor<?x1xi64, ["s"]>
  %le = "onnx.LessOrEqual"(%row, %col) : (tensor<1x?xi64, ["s"]>, tensor<?x1xi64, ["s"]>) -> tensor<?x?xi1, ["s", "s"]>
  %o = "onnx.Attention"(%q, %k, %v, %le) {scale = 0.5 : f32} : (tensor<1x2x?x8xf32, ["s"]>, tensor<1x2x?x8xf32, ["s"]>, tensor<1x2x?x8xf32, ["s"]>, tensor<?x?xi1, ["s", "s"]>) -> tensor<1x2x?x8xf32, ["s"]>
  %tshape = "onnx.Shape"(%pt) : (tensor<?xi64, ["t"]>) -> tensor<1xi64>
  %m = "onnx.Squeeze"(%tshape, %a0) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %post = "onnx.Range"(%zero, %m, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["t"]>
  %colt = "onnx.Unsqueeze"(%post, %a1) : (tensor<?xi64, ["t"]>, tensor<1xi64>) -> tensor<?x1xi64, ["t"]>
  %ss = "onnx.Concat"(%shape, %shape) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %rows = "onnx.Expand"(%row, %ss) : (tensor<1x?xi64, ["s"]>, tensor<2xi64>) -> tensor<?x?xi64, ["s", "s"]>
  %lt = "onnx.LessOrEqual"(%rows, %colt) : (tensor<?x?xi64, ["s", "s"]>, tensor<?x1xi64, ["t"]>) -> tensor<?x?xi1, ["s", "s"]>
  %p = "onnx.Attention"(%q, %k, %v, %lt) {scale = 0.5 : f32} : (tensor<1x2x?x8xf32, ["s"]>, tensor<1x2x?x8xf32, ["s"]>, tensor<1x2x?x8xf32, ["s"]>, tensor<?x?xi1, ["s", "s"]>) -> tensor<1x2x?x8xf32, ["s"]>
  return %o, %p : tensor<1x2x?x8xf32, ["s"]>, tensor<1x2x?x8xf32, ["s"]>
}
}

// -----

// Partial rotary (GPT-NeoX's rotary_pct, Phi): the first 8 of 12 features
// rotated (rotate-half on the slice), the other 4 passed through by a
// Concat: one RotaryEmbedding with rotary_embedding_dim = 8. A Concat whose
// pass-through part is another tensor's stays.
// CHECK-LABEL: func.func @partial_rotary
// CHECK-SAME: "rotary/partial-rotary" = 1
// CHECK: "onnx.RotaryEmbedding"(%arg0, %{{.*}}, %{{.*}}) {interleaved = 0 : i64, rotary_embedding_dim = 8 : i64} : (tensor<?x2x5x12xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>, tensor<?x5x4xf32, ["s0"]>) -> tensor<?x2x5x12xf32, ["s0"]>
// CHECK: "onnx.Concat"(%{{.*}}, %{{.*}}) {axis = -1 : i64} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x12xf32, ["s0"]>
module attributes {onnx.opset = 23 : i64} {
func.func @partial_rotary(%x: tensor<?x2x5x12xf32, ["s0"]>, %a: tensor<1x5x4xf32>, %other: tensor<?x2x5x12xf32, ["s0"]>) -> (tensor<?x2x5x12xf32, ["s0"]>, tensor<?x2x5x12xf32, ["s0"]>) {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %four = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %eight = "onnx.Constant"() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %end = "onnx.Constant"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "onnx.Constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %xr = "onnx.Slice"(%x, %zero, %eight, %ax, %one) : (tensor<?x2x5x12xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x8xf32, ["s0"]>
  %xp = "onnx.Slice"(%x, %eight, %end, %ax, %one) : (tensor<?x2x5x12xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %op = "onnx.Slice"(%other, %eight, %end, %ax, %one) : (tensor<?x2x5x12xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %cat = "onnx.Concat"(%a, %a) {axis = -1 : i64} : (tensor<1x5x4xf32>, tensor<1x5x4xf32>) -> tensor<1x5x8xf32>
  %cos = "onnx.Cos"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %sin = "onnx.Sin"(%cat) : (tensor<1x5x8xf32>) -> tensor<1x5x8xf32>
  %c4 = "onnx.Unsqueeze"(%cos, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %s4 = "onnx.Unsqueeze"(%sin, %one) : (tensor<1x5x8xf32>, tensor<1xi64>) -> tensor<1x1x5x8xf32>
  %x1 = "onnx.Slice"(%xr, %zero, %four, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %x2 = "onnx.Slice"(%xr, %four, %end, %ax, %one) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x2x5x4xf32, ["s0"]>
  %n = "onnx.Neg"(%x2) : (tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x4xf32, ["s0"]>
  %rot = "onnx.Concat"(%n, %x1) {axis = -1 : i64} : (tensor<?x2x5x4xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m1 = "onnx.Mul"(%xr, %c4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %m2 = "onnx.Mul"(%rot, %s4) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<1x1x5x8xf32>) -> tensor<?x2x5x8xf32, ["s0"]>
  %r = "onnx.Add"(%m1, %m2) : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x8xf32, ["s0"]>) -> tensor<?x2x5x8xf32, ["s0"]>
  %y = "onnx.Concat"(%r, %xp) {axis = -1 : i64} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x12xf32, ["s0"]>
  %z = "onnx.Concat"(%r, %op) {axis = -1 : i64} : (tensor<?x2x5x8xf32, ["s0"]>, tensor<?x2x5x4xf32, ["s0"]>) -> tensor<?x2x5x12xf32, ["s0"]>
  return %y, %z : tensor<?x2x5x12xf32, ["s0"]>, tensor<?x2x5x12xf32, ["s0"]>
}
}

// -----

// x + Neg(y) becomes x - y in either operand order, with a broadcast and
// for integers (both orders are then one value); a Neg used elsewhere stays
// for that use.
// CHECK-LABEL: func.func @add_neg
// CHECK-SAME: "algebra/add-neg-to-sub" = 3
// CHECK: %[[A:.*]] = "onnx.Sub"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[B:.*]] = "onnx.Sub"(%arg2, %arg3) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
// CHECK: %[[N:.*]] = "onnx.Neg"(%arg1)
// CHECK-NOT: "onnx.Add"
// CHECK: return %[[A]], %[[B]], %[[N]], %[[A]]
module attributes {onnx.opset = 23 : i64} {
func.func @add_neg(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %i: tensor<4xi64>, %j: tensor<4xi64>) -> (tensor<2x3xf32>, tensor<4xi64>, tensor<3xf32>, tensor<2x3xf32>) {
  %n = "onnx.Neg"(%y) : (tensor<3xf32>) -> tensor<3xf32>
  %0 = "onnx.Add"(%n, %x) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %nj = "onnx.Neg"(%j) : (tensor<4xi64>) -> tensor<4xi64>
  %1 = "onnx.Add"(%i, %nj) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %2 = "onnx.Add"(%x, %n) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %n, %2 : tensor<2x3xf32>, tensor<4xi64>, tensor<3xf32>, tensor<2x3xf32>
}
}
