// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(convert-aten-to-onnx)' | FileCheck %s
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(convert-aten-to-onnx, func.func(onnx-fold-constants, onnx-cse, dce, onnx-shape-inference), onnx-verify)' | FileCheck %s --check-prefix=PIPE

// cond -> If: the branches' block arguments (the operands, a closed-over
// weight) become the outer values; regions end in onnx.yield; the weight
// stays an initializer of the function body.
// CHECK-LABEL: func.func @cond
// CHECK: %[[W:.*]] = "onnx.initializer"() {name = "w"}
// CHECK: %[[P:.*]] = "onnx.Greater"
// CHECK: %[[IF:.*]] = "onnx.If"(%[[P]]) ({
// CHECK-NOT: ^bb
// CHECK: %[[T:.*]] = "onnx.Transpose"(%[[W]])
// CHECK: %[[M:.*]] = "onnx.MatMul"(%arg0, %[[T]])
// CHECK: "onnx.yield"(%[[M]]) : (tensor<?x4xf32, ["s0"]>) -> ()
// CHECK: }, {
// CHECK: %[[C:.*]] = "onnx.Cos"(%arg0)
// CHECK: "onnx.yield"(%[[C]])
// CHECK: }) : (tensor<i1>) -> tensor<?x4xf32, ["s0"]>
// CHECK: return %[[IF]]
// PIPE-LABEL: func.func @cond
// PIPE: "onnx.If"
func.func @cond(%x: tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]> {
  %w = "aten.weight"() {kind = "parameter", name = "w"} : () -> tensor<4x4xf32>
  %s = "aten.sum.default"(%x) : (tensor<?x4xf32, ["s0"]>) -> tensor<f32>
  %p = "aten.gt.Scalar"(%s) {other = 0 : i64} : (tensor<f32>) -> tensor<i1>
  %r = "aten.hop.cond"(%p, %x, %w) ({
  ^bb0(%a: tensor<?x4xf32, ["s0"]>, %b: tensor<4x4xf32>):
    %0 = "aten.linear.default"(%a, %b) : (tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x4xf32, ["s0"]>
    "aten.yield"(%0) : (tensor<?x4xf32, ["s0"]>) -> ()
  }, {
  ^bb0(%a: tensor<?x4xf32, ["s0"]>, %b: tensor<4x4xf32>):
    %0 = "aten.cos.default"(%a) : (tensor<?x4xf32, ["s0"]>) -> tensor<?x4xf32, ["s0"]>
    "aten.yield"(%0) : (tensor<?x4xf32, ["s0"]>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 2>} : (tensor<i1>, tensor<?x4xf32, ["s0"]>, tensor<4x4xf32>) -> tensor<?x4xf32, ["s0"]>
  return %r : tensor<?x4xf32, ["s0"]>
}

// -----

// Nested cond: the inner If is inside the outer If's then branch and reads
// values of the function body directly.
// CHECK-LABEL: func.func @nested
// CHECK: "onnx.If"(%{{.*}}) ({
// CHECK: "onnx.If"(%{{.*}}) ({
// CHECK: "onnx.Neg"(%arg0)
// CHECK: "onnx.yield"
// CHECK: }, {
// CHECK: "onnx.yield"(%arg0)
// CHECK: })
// CHECK: "onnx.yield"
// CHECK: }, {
// CHECK: "onnx.Abs"(%arg0)
func.func @nested(%x: tensor<3xf32>, %p: tensor<i1>, %q: tensor<i1>) -> tensor<3xf32> {
  %r = "aten.hop.cond"(%p, %x, %q) ({
  ^bb0(%a: tensor<3xf32>, %qq: tensor<i1>):
    %i = "aten.hop.cond"(%qq, %a) ({
    ^bb0(%b: tensor<3xf32>):
      %0 = "aten.neg.default"(%b) : (tensor<3xf32>) -> tensor<3xf32>
      "aten.yield"(%0) : (tensor<3xf32>) -> ()
    }, {
    ^bb0(%b: tensor<3xf32>):
      "aten.yield"(%b) : (tensor<3xf32>) -> ()
    }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%i) : (tensor<3xf32>) -> ()
  }, {
  ^bb0(%a: tensor<3xf32>, %qq: tensor<i1>):
    %0 = "aten.abs.default"(%a) : (tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%0) : (tensor<3xf32>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 2>} : (tensor<i1>, tensor<3xf32>, tensor<i1>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// while_loop -> Loop: the condition is computed on the initial values before
// the Loop and again at the end of the body; no trip count; the body's block
// arguments are (iteration_num, cond, carried...); an additional input is
// read from the outer scope.
// CHECK-LABEL: func.func @while_loop
// CHECK: %[[C0:.*]] = "onnx.Less"(%arg0, %{{.*}})
// CHECK: %[[NONE:.*]] = "onnx.none"() : () -> none
// CHECK: %[[L:.*]]:2 = "onnx.Loop"(%[[NONE]], %[[C0]], %arg0, %arg1) ({
// CHECK: ^bb0(%[[I:.*]]: tensor<i64>, %[[COND:.*]]: tensor<i1>, %[[IT:.*]]: tensor<i64>, %[[X:.*]]: tensor<3xf32>):
// CHECK: %[[IT1:.*]] = "onnx.Add"(%[[IT]], %{{.*}})
// CHECK: %[[X1:.*]] = "onnx.Mul"(%[[X]], %arg2)
// CHECK: %[[C1:.*]] = "onnx.Less"(%[[IT1]], %{{.*}})
// CHECK: "onnx.yield"(%[[C1]], %[[IT1]], %[[X1]]) : (tensor<i1>, tensor<i64>, tensor<3xf32>) -> ()
// CHECK: }) : (none, tensor<i1>, tensor<i64>, tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>)
// CHECK: return %[[L]]#0, %[[L]]#1
// PIPE-LABEL: func.func @while_loop
// PIPE: "onnx.Loop"
func.func @while_loop(%it: tensor<i64>, %x: tensor<3xf32>, %w: tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>) {
  %r:2 = "aten.hop.while_loop"(%it, %x, %w) ({
  ^bb0(%a: tensor<i64>, %b: tensor<3xf32>, %c: tensor<3xf32>):
    %0 = "aten.lt.Scalar"(%a) {other = 5 : i64} : (tensor<i64>) -> tensor<i1>
    "aten.yield"(%0) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i64>, %b: tensor<3xf32>, %c: tensor<3xf32>):
    %0 = "aten.add.Tensor"(%a) {alpha = 1 : i64, other = 1 : i64} : (tensor<i64>) -> tensor<i64>
    %1 = "aten.mul.Tensor"(%b, %c) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%0, %1) : (tensor<i64>, tensor<3xf32>) -> ()
  }) {arg_names = ["carried_inputs", "additional_inputs"], operandSegmentSizes = array<i32: 2, 1>} : (tensor<i64>, tensor<3xf32>, tensor<3xf32>) -> (tensor<i64>, tensor<3xf32>)
  return %r#0, %r#1 : tensor<i64>, tensor<3xf32>
}

// -----

// scan -> Scan (state, then scan inputs; num_scan_inputs) and map_impl ->
// Scan without state; extra arguments come from the outer scope.
// CHECK-LABEL: func.func @scan
// CHECK: %[[S:.*]]:2 = "onnx.Scan"(%arg0, %arg1) ({
// CHECK: ^bb0(%[[C:.*]]: tensor<3xf32>, %[[X:.*]]: tensor<3xf32>):
// CHECK: %[[N:.*]] = "onnx.Add"(%[[C]], %[[X]])
// CHECK: %[[Y:.*]] = "onnx.Mul"(%[[N]], %arg2)
// CHECK: "onnx.yield"(%[[N]], %[[Y]])
// CHECK: }) {num_scan_inputs = 1 : i64} : (tensor<3xf32>, tensor<4x3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
// CHECK: %[[M:.*]] = "onnx.Scan"(%arg1) ({
// CHECK: ^bb0(%[[X2:.*]]: tensor<3xf32>):
// CHECK: "onnx.Sin"(%[[X2]])
// CHECK: }) {num_scan_inputs = 1 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf32>
func.func @scan(%init: tensor<3xf32>, %xs: tensor<4x3xf32>, %w: tensor<3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) {
  %r:2 = "aten.hop.scan"(%init, %xs, %w) ({
  ^bb0(%c: tensor<3xf32>, %x: tensor<3xf32>, %ww: tensor<3xf32>):
    %0 = "aten.add.Tensor"(%c, %x) {alpha = 1 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %1 = "aten.mul.Tensor"(%0, %ww) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%0, %1) : (tensor<3xf32>, tensor<3xf32>) -> ()
  }) {arg_names = ["init", "xs", "additional_inputs"], operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<3xf32>, tensor<4x3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<4x3xf32>)
  %m = "aten.hop.map_impl"(%xs, %w) ({
  ^bb0(%x: tensor<3xf32>, %ww: tensor<3xf32>):
    %0 = "aten.sin.default"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    %1 = "aten.add.Tensor"(%0, %ww) {alpha = 1 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "aten.yield"(%1) : (tensor<3xf32>) -> ()
  }) {arg_names = ["xs", "pos_args"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return %r#0, %r#1, %m : tensor<3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// wrap_with_autocast: the body is inlined; each floating operand is cast to
// its op's recorded floating result type (matmul of float32 operands recorded
// as bfloat16: autocast's lower-precision cast); a normalization's float32
// weight next to its bfloat16 input is no autocast cast: torch's mixed
// layer_norm, computed in float32 and rounded to the input's type.
// CHECK-LABEL: func.func @autocast
// CHECK-NOT: aten.hop
// CHECK-DAG: %[[A:.*]] = "onnx.Cast"(%arg0) {to = 16 : i64} : (tensor<3x4xf32>) -> tensor<3x4xbf16>
// CHECK-DAG: %[[B:.*]] = "onnx.Cast"(%arg1) {to = 16 : i64} : (tensor<4x4xf32>) -> tensor<4x4xbf16>
// CHECK: %[[M:.*]] = "onnx.MatMul"(%[[A]], %[[B]]) : (tensor<3x4xbf16>, tensor<4x4xbf16>) -> tensor<3x4xbf16>
// CHECK: %[[MF:.*]] = "onnx.Cast"(%[[M]]) {to = 1 : i64} : (tensor<3x4xbf16>) -> tensor<3x4xf32>
// CHECK: %[[N:.*]] = "onnx.LayerNormalization"(%[[MF]], %arg2) {{.*}} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: %[[R:.*]] = "onnx.Cast"(%[[N]]) {to = 16 : i64} : (tensor<3x4xf32>) -> tensor<3x4xbf16>
// CHECK: return %[[R]]
func.func @autocast(%x: tensor<3x4xf32>, %w: tensor<4x4xf32>, %g: tensor<4xf32>) -> tensor<3x4xbf16> {
  %r = "aten.hop.wrap_with_autocast"(%x, %w, %g) ({
  ^bb0(%a: tensor<3x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4xf32>):
    %0 = "aten.matmul.default"(%a, %b) : (tensor<3x4xf32>, tensor<4x4xf32>) -> tensor<3x4xbf16>
    %1 = "aten.layer_norm.default"(%0, %c) {cudnn_enable = false, eps = 1.000000e-05 : f64, normalized_shape = array<i64: 4>, operandSegmentSizes = array<i32: 1, 0, 1, 0, 0, 0>} : (tensor<3x4xbf16>, tensor<4xf32>) -> tensor<3x4xbf16>
    "aten.yield"(%1) : (tensor<3x4xbf16>) -> ()
  }) {arg0 = "cpu", arg1 = bf16, arg2 = true, arg3 = false, arg_names = ["arg5", "arg6", "arg7"], operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<3x4xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<3x4xbf16>
  return %r : tensor<3x4xbf16>
}
