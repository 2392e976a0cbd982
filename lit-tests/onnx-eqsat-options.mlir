// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{iterations=1}))' | FileCheck %s --check-prefix=ONE
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{rules=layout}))' | FileCheck %s --check-prefix=LAYOUT
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{rules=algebra/mul-by-one,normalization}))' | FileCheck %s --check-prefix=SOME
// RUN: not aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{rules=nonsense}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-eqsat{iterations=many}))' 2>&1 | FileCheck %s --check-prefix=BADNUM

// The options of onnx-eqsat: a round limit stops early (and says so, the
// result still correct: only what one round found; here the fusion, found
// in the first round, without the round that would confirm saturation);
// `rules` selects families or single rules.

// ONE: stop = "iteration limit"
// ONE: "onnx.RMSNormalization"

// LAYOUT: applied = {"layout/transpose-transpose" = 1 : i64}
// LAYOUT: "onnx.Reciprocal"
// LAYOUT: "onnx.Mul"
// LAYOUT-NOT: "onnx.Transpose"

// SOME: applied = {"normalization/rms-normalization" = 1 : i64}
// SOME-NOT: transpose-transpose
// SOME: "onnx.RMSNormalization"
// SOME: "onnx.Transpose"
// SOME: "onnx.Transpose"

// BAD: onnx-eqsat: no rule or rule family 'nonsense'
// BADNUM: onnx-eqsat: option 'iterations' must be a number, got 'many'
module attributes {onnx.opset = 23 : i64} {
func.func @f(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %two = "onnx.Constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %sq = "onnx.Pow"(%x, %two) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = "onnx.ReduceMean"(%sq, %axes) {keepdims = 1 : i64} : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %eps = "onnx.Constant"() {value = dense<1.0e-6> : tensor<f32>} : () -> tensor<f32>
  %a = "onnx.Add"(%m, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "onnx.Sqrt"(%a) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %r = "onnx.Reciprocal"(%s) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "onnx.Mul"(%x, %r) : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %t = "onnx.Transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x8xf32>) -> tensor<8x2xf32>
  %u = "onnx.Transpose"(%t) {perm = array<i64: 1, 0>} : (tensor<8x2xf32>) -> tensor<2x8xf32>
  %v = "onnx.Abs"(%u) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %n, %v : tensor<2x8xf32>, tensor<2x8xf32>
}
}
