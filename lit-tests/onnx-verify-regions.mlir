// RUN: aten-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(onnx-verify)' --verify-each=false | FileCheck %s

// A Scan: body (state..., scan input elements...) -> (state..., outputs...).
// CHECK-LABEL: func.func @scan_ok
// CHECK: "onnx.Scan"
func.func @scan_ok(%init: tensor<3xf32>, %xs: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>) {
  %r:2 = "onnx.Scan"(%init, %xs) ({
  ^bb0(%c: tensor<3xf32>, %x: tensor<3xf32>):
    %n = "onnx.Add"(%c, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "onnx.yield"(%n, %n) : (tensor<3xf32>, tensor<3xf32>) -> ()
  }) {num_scan_inputs = 1 : i64} : (tensor<3xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<4x3xf32>
}

// -----

func.func @if_one_region(%x: tensor<3xf32>, %p: tensor<i1>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.If' op has 1 regions; If needs 2 (then_branch, else_branch)}}
  %r = "onnx.If"(%p) ({
    "onnx.yield"(%x) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @if_yield_count(%x: tensor<3xf32>, %p: tensor<i1>) -> tensor<3xf32> {
  %r = "onnx.If"(%p) ({
    // expected-error @+1 {{'onnx.yield' op yields 2 values; the enclosing If with 1 results needs 1}}
    "onnx.yield"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> ()
  }, {
    "onnx.yield"(%x) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @if_yield_type(%x: tensor<3xf32>, %i: tensor<3xi64>, %p: tensor<i1>) -> tensor<3xf32> {
  %r = "onnx.If"(%p) ({
    "onnx.yield"(%x) : (tensor<3xf32>) -> ()
  }, {
    // expected-error @+1 {{'onnx.yield' op output #0 has type tensor<3xi64>, the enclosing If expects tensor(float)}}
    "onnx.yield"(%i) : (tensor<3xi64>) -> ()
  }) : (tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @if_branch_inputs(%x: tensor<3xf32>, %p: tensor<i1>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.If' op region 'then_branch' has block arguments; If branches take no inputs}}
  %r = "onnx.If"(%p) ({
  ^bb0(%a: tensor<3xf32>):
    "onnx.yield"(%a) : (tensor<3xf32>) -> ()
  }, {
    "onnx.yield"(%x) : (tensor<3xf32>) -> ()
  }) : (tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

func.func @loop_body_args(%x: tensor<3xf32>, %p: tensor<i1>) -> tensor<3xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{'onnx.Loop' op body has 2 block arguments; a Loop carrying 1 values needs 3 (iteration_num, cond, carried...)}}
  %l = "onnx.Loop"(%none, %p, %x) ({
  ^bb0(%c: tensor<i1>, %v: tensor<3xf32>):
    "onnx.yield"(%c, %v) : (tensor<i1>, tensor<3xf32>) -> ()
  }) : (none, tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  return %l : tensor<3xf32>
}

// -----

func.func @loop_cond_type(%x: tensor<3xf32>, %p: tensor<i1>) -> tensor<3xf32> {
  %none = "onnx.none"() : () -> none
  %l = "onnx.Loop"(%none, %p, %x) ({
  ^bb0(%i: tensor<i64>, %c: tensor<i1>, %v: tensor<3xf32>):
    // expected-error @+1 {{'onnx.yield' op output #0 has type tensor<3xf32>, the enclosing Loop expects tensor(bool)}}
    "onnx.yield"(%v, %v) : (tensor<3xf32>, tensor<3xf32>) -> ()
  }) : (none, tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  return %l : tensor<3xf32>
}

// -----

func.func @stray_yield(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.yield' op must be inside an onnx op with subgraphs, not 'func.func'}}
  "onnx.yield"(%x) : (tensor<3xf32>) -> ()
  return %x : tensor<3xf32>
}

// -----

func.func @regions_on_plain_op(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Neg' op has 1 regions; Neg has no graph attributes}}
  %r = "onnx.Neg"(%x) ({
    // expected-error @+1 {{'onnx.yield' op must be inside an onnx op with subgraphs, not 'onnx.Neg'}}
    "onnx.yield"(%x) : (tensor<3xf32>) -> ()
  }) : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A Scan's state reaches the body as it is: a rank-1 state fed to a body
// that carries a scalar is refused (hostile .onnx seed 33: onnx.checker
// refused the model written from it).
func.func @scan_state_rank(%x: tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>) {
  // expected-error @+1 {{'onnx.Scan' op body block argument #0 has type tensor<f32>, but the state value it receives (input #0, tensor<5xf32>) has dims [5]}}
  %r:2 = "onnx.Scan"(%x, %x) ({
  ^bb0(%s: tensor<f32>, %e: tensor<f32>):
    %n = "onnx.Add"(%s, %e) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "onnx.yield"(%n, %n) : (tensor<f32>, tensor<f32>) -> ()
  }) {num_scan_inputs = 1 : i64} : (tensor<5xf32>, tensor<5xf32>) -> (tensor<f32>, tensor<5xf32>)
  return %r#0, %r#1 : tensor<f32>, tensor<5xf32>
}

// -----

// A scan input's slice drops its scan axis (here axis 1 of [4, 3]: a [4]).
func.func @scan_slice_dims(%init: tensor<3xf32>, %xs: tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>) {
  // expected-error @+1 {{'onnx.Scan' op body block argument #1 has type tensor<3xf32>, but the slice of scan input it receives (input #1, tensor<4x3xf32>) has dims [4]}}
  %r:2 = "onnx.Scan"(%init, %xs) ({
  ^bb0(%c: tensor<3xf32>, %x: tensor<3xf32>):
    %n = "onnx.Add"(%c, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "onnx.yield"(%n, %n) : (tensor<3xf32>, tensor<3xf32>) -> ()
  }) {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 1>} : (tensor<3xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
  return %r#0, %r#1 : tensor<3xf32>, tensor<4x3xf32>
}
