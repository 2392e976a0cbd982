// The onnx passes on ops with regions (If / Loop / Scan bodies).
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-cse))' | FileCheck %s --check-prefix=CSE
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(dce))' | FileCheck %s --check-prefix=DCE
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-fold-constants))' | FileCheck %s --check-prefix=FOLD
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(onnx-shape-inference))' | FileCheck %s --check-prefix=SHAPE
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(onnx-verify)' | FileCheck %s --check-prefix=VERIFY

// CSE follows dominance: duplicates inside one branch merge, an op of a
// branch may reuse an identical op of the function body before the If (the
// else branch's Shape), the two branches never share ops, and nothing moves
// into or out of a region.
// CSE-LABEL: func.func @branches
// CSE: %[[S:.*]] = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi64>
// CSE: "onnx.If"
// CSE: %[[A:.*]] = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<*xi64>
// CSE-NOT: "onnx.Shape"
// CSE: "onnx.Concat"(%[[A]], %[[A]])
// CSE: }, {
// CSE-NOT: "onnx.Shape"
// CSE: "onnx.Concat"(%[[S]], %[[S]])
// CSE: "onnx.yield"
// DCE-LABEL: func.func @branches
// Dead ops inside a branch go; the yielded ones stay.
// DCE: "onnx.If"
// DCE-NOT: "onnx.Neg"
// DCE: "onnx.Concat"
// Shape of a static tensor folds inside a branch too.
// FOLD-LABEL: func.func @branches
// FOLD: "onnx.If"
// FOLD: "onnx.Constant"() {value = dense<[2, 3]> : tensor<2xi64>}
// FOLD-NOT: "onnx.Shape"
// SHAPE-LABEL: func.func @branches
// SHAPE: "onnx.If"
// SHAPE: "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi64>
// VERIFY-LABEL: func.func @branches
func.func @branches(%arg0: tensor<2x3xf32>, %p: tensor<i1>) -> (tensor<2xi64>, tensor<4xi64>) {
  %s = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi64>
  %r = "onnx.If"(%p) ({
    %a = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<*xi64>
    %b = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<*xi64>
    %n = "onnx.Neg"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %c = "onnx.Concat"(%a, %b) {axis = 0 : i64} : (tensor<*xi64>, tensor<*xi64>) -> tensor<4xi64>
    "onnx.yield"(%c) : (tensor<4xi64>) -> ()
  }, {
    %a = "onnx.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi64>
    %c = "onnx.Concat"(%a, %a) {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
    "onnx.yield"(%c) : (tensor<4xi64>) -> ()
  }) : (tensor<i1>) -> tensor<4xi64>
  return %s, %r : tensor<2xi64>, tensor<4xi64>
}

// -----

// A dead If goes as a whole; a Loop's body keeps what it yields.
// DCE-LABEL: func.func @dead_if
// DCE-NOT: "onnx.If"
// DCE: "onnx.Loop"
// DCE: "onnx.Add"
// DCE: "onnx.yield"
// VERIFY-LABEL: func.func @dead_if
// VERIFY: "onnx.Loop"
func.func @dead_if(%x: tensor<3xf32>, %p: tensor<i1>) -> tensor<3xf32> {
  %r = "onnx.If"(%p) ({
    "onnx.yield"(%x) : (tensor<3xf32>) -> ()
  }, {
    %n = "onnx.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    "onnx.yield"(%n) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<3xf32>
  %none = "onnx.none"() : () -> none
  %l = "onnx.Loop"(%none, %p, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>):
    %a = "onnx.Add"(%v, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "onnx.yield"(%c, %a) : (tensor<i1>, tensor<3xf32>) -> ()
  }) : (none, tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  return %l : tensor<3xf32>
}

// -----

// Random ops are never merged (each is a draw), inside a Loop body or not.
// CSE-LABEL: func.func @random
// CSE-COUNT-2: "onnx.RandomNormalLike"(%arg0)
// CSE: "onnx.Loop"
// CSE: "onnx.RandomNormalLike"(%arg0)
// VERIFY-LABEL: func.func @random
func.func @random(%x: tensor<3xf32>, %p: tensor<i1>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %a = "onnx.RandomNormalLike"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %b = "onnx.RandomNormalLike"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %none = "onnx.none"() : () -> none
  %l = "onnx.Loop"(%none, %p, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>):
    %r = "onnx.RandomNormalLike"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    %s = "onnx.Add"(%v, %r) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "onnx.yield"(%c, %s) : (tensor<i1>, tensor<3xf32>) -> ()
  }) : (none, tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  return %a, %b, %l : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Dropout in training mode is the random source of the lowered random ops
// (rules/helpers/random_common.rs): two of them are two draws.
// CSE-LABEL: func.func @dropout_draws
// CSE-COUNT-2: "onnx.Dropout"(%arg0, %arg1, %arg2)
// VERIFY-LABEL: func.func @dropout_draws
func.func @dropout_draws(%x: tensor<3xf32>, %r: tensor<f32>, %t: tensor<i1>) -> (tensor<3xi1>, tensor<3xi1>) {
  %y, %m = "onnx.Dropout"(%x, %r, %t) : (tensor<3xf32>, tensor<f32>, tensor<i1>) -> (tensor<3xf32>, tensor<3xi1>)
  %y2, %m2 = "onnx.Dropout"(%x, %r, %t) : (tensor<3xf32>, tensor<f32>, tensor<i1>) -> (tensor<3xf32>, tensor<3xi1>)
  return %m, %m2 : tensor<3xi1>, tensor<3xi1>
}
