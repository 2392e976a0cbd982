// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(convert-aten-to-onnx)' | FileCheck %s
// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(convert-aten-to-onnx{opset=17})' | FileCheck %s --check-prefix=OPSET17

// Rules by op: 1:1 ops, alpha folded into the operand, weights as initializers,
// the module records the opset.
// CHECK: module attributes {onnx.opset = 23 : i64}
// CHECK-LABEL: func.func @basic
// CHECK: %[[W:.*]] = "onnx.initializer"() {name = "fc.weight"} : () -> tensor<4x4xf32>
// CHECK: %[[T:.*]] = "onnx.Transpose"(%[[W]]) {perm = array<i64: 1, 0>}
// The value that replaces an aten result gets the type torch inferred.
// CHECK: %[[M:.*]] = "onnx.MatMul"(%arg0, %[[T]]) : (tensor<2x4xf32>, tensor<*xf32>) -> tensor<2x4xf32>
// CHECK: %[[TWO:.*]] = "onnx.Constant"() {value = dense<2.000000e+00> : tensor<f32>}
// CHECK: %[[S:.*]] = "onnx.Mul"(%arg1, %[[TWO]])
// CHECK: %[[A:.*]] = "onnx.Add"(%[[M]], %[[S]]) : (tensor<2x4xf32>, tensor<*xf32>) -> tensor<2x4xf32>
// CHECK: %[[G:.*]] = "onnx.Gelu"(%[[A]]) {approximate = "none"}
// CHECK: return %[[G]]
// OPSET17: module attributes {onnx.opset = 17 : i64}
// OPSET17: "onnx.Erf"
// OPSET17-NOT: "onnx.Gelu"
func.func @basic(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %w = "aten.weight"() {kind = "parameter", name = "fc.weight"} : () -> tensor<4x4xf32>
  %0 = "aten.linear.default"(%arg0, %w) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %1 = "aten.add.Tensor"(%0, %arg1) {alpha = 2 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %2 = "aten.gelu.default"(%1) {approximate = "none"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %2 : tensor<2x4xf32>
}

// -----

// Symbolic sizes are 1-element int64 tensors; the view's shape is built from them.
// CHECK-LABEL: func.func @symbolic
// CHECK: %[[N:.*]] = "onnx.Shape"(%arg0) {end = 1 : i64, start = 0 : i64} : (tensor<?x8xf32, ["s0"]>) -> tensor<1xi64>
// CHECK: %[[C:.*]] = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>}
// CHECK: %[[S:.*]] = "onnx.Concat"(%[[N]], %{{.*}}) {axis = 0 : i64}
// CHECK: "onnx.Reshape"(%arg0, %[[S]]) : (tensor<?x8xf32, ["s0"]>, tensor<2xi64>) -> tensor<?x8xf32, ["s0"]>
func.func @symbolic(%arg0: tensor<?x8xf32, ["s0"]>) -> tensor<?x8xf32, ["s0"]> {
  %n = "aten.sym_size.int"(%arg0) {dim = 0 : i64} : (tensor<?x8xf32, ["s0"]>) -> i64
  %m = "aten.sym.constant"() {value = -1 : i64} : () -> i64
  %0 = "aten.view.default"(%arg0, %n, %m) {operandSegmentSizes = array<i32: 1, 2>} : (tensor<?x8xf32, ["s0"]>, i64, i64) -> tensor<?x8xf32, ["s0"]>
  return %0 : tensor<?x8xf32, ["s0"]>
}

// -----

// Householder QR (LAPACK geqr2): an onnx.Loop over the min(m, n) reflectors,
// in float64 (cast in and out); at opset 17 ReduceMax takes its axes as an
// attribute (householder_common.rs).
// CHECK-LABEL: func.func @geqrf
// CHECK: %[[A:.*]] = "onnx.Cast"(%arg0) {to = 11 : i64} : (tensor<4x3xf32>) -> tensor<4x3xf64>
// CHECK: %[[L:.*]]:2 = "onnx.Loop"(%{{.*}}, %{{.*}}, %[[A]], %{{.*}}) ({
// CHECK: "onnx.MatMul"
// CHECK: "onnx.yield"
// CHECK: %[[Q:.*]] = "onnx.Cast"(%[[L]]#0) {to = 1 : i64} : (tensor<*xf64>) -> tensor<4x3xf32>
// CHECK: %[[T:.*]] = "onnx.Cast"(%[[L]]#1) {to = 1 : i64} : (tensor<*xf64>) -> tensor<3xf32>
// CHECK: return %[[Q]], %[[T]]
// OPSET17-LABEL: func.func @geqrf
// OPSET17: "onnx.ReduceMax"(%{{.*}}) {axes = array<i64: -1>, keepdims = 1 : i64}
func.func @geqrf(%arg0: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>) {
  %a, %tau = "aten.geqrf.default"(%arg0) : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>)
  return %a, %tau : tensor<4x3xf32>, tensor<3xf32>
}

// -----

// LDL^T with Bunch-Kaufman pivoting (LAPACK sytf2 / sytrs, ldl_common.rs),
// unrolled over n = 3: each step finds the largest entry below the diagonal
// (ArgMax), runs sytf2's three tests (GreaterOrEqual), exchanges rows and
// columns (GatherElements), and marks 2x2 blocks with negative pivots (Neg);
// LD, the int32 pivots and info keep torch's types. The solve reads the
// block structure from the pivots' signs (Less) and ends with L^T's backward
// sweep (ReduceSum).
// CHECK-LABEL: func.func @linalg_ldl
// CHECK: "onnx.ArgMax"(%{{.*}}) {axis = -2 : i64, keepdims = 1 : i64}
// CHECK-COUNT-3: "onnx.GreaterOrEqual"
// CHECK: "onnx.GatherElements"
// CHECK: "onnx.Neg"
// CHECK: %[[LD:.*]] = "onnx.Where"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> tensor<2x3x3xf32>
// CHECK: %[[P:.*]] = "onnx.Cast"(%{{.*}}) {to = 6 : i64} : (tensor<*xi64>) -> tensor<2x3xi32>
// CHECK: %[[I:.*]] = "onnx.Cast"(%{{.*}}) {to = 6 : i64} : (tensor<*xi64>) -> tensor<2xi32>
// CHECK: "onnx.Less"
// CHECK: "onnx.ReduceSum"
// CHECK: %[[X:.*]] = "onnx.GatherElements"(%{{.*}}, %{{.*}}) {axis = -2 : i64} : (tensor<*xf32>, tensor<*xi64>) -> tensor<2x3x2xf32>
// CHECK: return %[[LD]], %[[P]], %[[I]], %[[X]]
// OPSET17-LABEL: func.func @linalg_ldl
// OPSET17: "onnx.ReduceMax"(%{{.*}}) {axes = array<i64: -2>, keepdims = 1 : i64}
func.func @linalg_ldl(%a: tensor<2x3x3xf32>, %b: tensor<3x2xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xi32>, tensor<2xi32>, tensor<2x3x2xf32>) {
  %ld, %piv, %info = "aten.linalg_ldl_factor_ex.default"(%a) {hermitian = false, check_errors = false} : (tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3xi32>, tensor<2xi32>)
  %x = "aten.linalg_ldl_solve.default"(%ld, %piv, %b) {hermitian = false} : (tensor<2x3x3xf32>, tensor<2x3xi32>, tensor<3x2xf32>) -> tensor<2x3x2xf32>
  return %ld, %piv, %info, %x : tensor<2x3x3xf32>, tensor<2x3xi32>, tensor<2xi32>, tensor<2x3x2xf32>
}

// -----

// A list result among others: histogramdd returns the hist, then one edge
// tensor per dim (torch's linspace between the data's extrema per dim); the
// points are scattered into the flattened bins with ScatterElements(add).
// CHECK-LABEL: func.func @histogramdd
// CHECK: "onnx.ReduceMin"
// CHECK: "onnx.ScatterElements"
// CHECK-SAME: reduction = "add"
// CHECK: %[[H:.*]] = "onnx.Identity"(%{{.*}}) : (tensor<*xf32>) -> tensor<2x3xf32>
// CHECK: %[[E0:.*]] = "onnx.Identity"(%{{.*}}) : (tensor<*xf32>) -> tensor<3xf32>
// CHECK: %[[E1:.*]] = "onnx.Identity"(%{{.*}}) : (tensor<*xf32>) -> tensor<4xf32>
// CHECK: return %[[H]], %[[E0]], %[[E1]]
// OPSET17-LABEL: func.func @histogramdd
// OPSET17: "onnx.ReduceMin"(%{{.*}}) {axes = array<i64: 0>, keepdims = 0 : i64}
func.func @histogramdd(%x: tensor<5x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>) {
  %h, %e0, %e1 = "aten.histogramdd.default"(%x) {bins = array<i64: 2, 3>, density = false} : (tensor<5x2xf32>) -> (tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>)
  return %h, %e0, %e1 : tensor<2x3xf32>, tensor<3xf32>, tensor<4xf32>
}

// -----

// bincount: a data-dependent length max(max(x) + 1, minlength), from the
// input with -1 appended (an empty input gives minlength); float weights
// summed in the result type with ScatterElements(add).
// CHECK-LABEL: func.func @bincount
// CHECK: "onnx.Concat"
// CHECK: "onnx.ReduceMax"
// CHECK: "onnx.Max"
// CHECK: "onnx.ScatterElements"
// CHECK-SAME: reduction = "add"
// CHECK: %[[B:.*]] = "onnx.Identity"(%{{.*}}) : (tensor<*xf32>) -> tensor<?xf32>
// CHECK: return %[[B]]
// OPSET17-LABEL: func.func @bincount
// OPSET17: "onnx.ReduceMax"(%{{.*}}) {keepdims = 1 : i64}
func.func @bincount(%x: tensor<6xi64>, %w: tensor<6xf32>) -> tensor<?xf32> {
  %0 = "aten.bincount.default"(%x, %w) {minlength = 3 : i64} : (tensor<6xi64>, tensor<6xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// tril_indices / triu_indices: plain int arguments, so the [2, N] index
// table is a constant (row-major; tril_indices(3, 3): rows 0 1 1 2 2 2, columns 0 0 1 0 1 2; triu_indices(2, 3, 1): rows 0 0 1, columns 1 2 2).
// CHECK-LABEL: func.func @tri_indices
// CHECK: "onnx.Constant"() {value = dense<[0, 1, 1, 2, 2, 2, 0, 0, 1, 0, 1, 2]> : tensor<12xi64>}
// CHECK: "onnx.Reshape"
// CHECK-SAME: allowzero = 1
// CHECK: "onnx.Constant"() {value = dense<[0, 0, 1, 1, 2, 2]> : tensor<6xi64>}
func.func @tri_indices() -> (tensor<2x6xi64>, tensor<2x3xi64>) {
  %0 = "aten.tril_indices.default"() {col = 3 : i64, device = "cpu", dtype = i64, offset = 0 : i64, pin_memory = false, row = 3 : i64} : () -> tensor<2x6xi64>
  %1 = "aten.triu_indices.default"() {col = 3 : i64, device = "cpu", dtype = i64, offset = 1 : i64, pin_memory = false, row = 2 : i64} : () -> tensor<2x3xi64>
  return %0, %1 : tensor<2x6xi64>, tensor<2x3xi64>
}

// -----

// embedding_renorm: row norms in float64, the rows the indices name counted
// with ScatterElements(add), the factor max_norm / (norm + 1e-7) where both
// hold, the table scaled.
// CHECK-LABEL: func.func @embedding_renorm
// CHECK: "onnx.Cast"(%arg0) {to = 11 : i64}
// CHECK: "onnx.ScatterElements"
// CHECK-SAME: reduction = "add"
// CHECK: "onnx.And"
// CHECK: "onnx.Where"
// CHECK: %[[R:.*]] = "onnx.Mul"(%arg0, %{{.*}}) : (tensor<5x3xf32>, tensor<*xf32>) -> tensor<5x3xf32>
// CHECK: return %[[R]]
func.func @embedding_renorm(%w: tensor<5x3xf32>, %i: tensor<4xi64>) -> tensor<5x3xf32> {
  %0 = "aten.embedding_renorm.default"(%w, %i) {max_norm = 1.000000e+00 : f64, norm_type = 2.000000e+00 : f64} : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

// _scaled_dot_product_flash_attention_for_cpu on float16: q/k/v and the
// float mask computed in float32 (the scale is not a float16 number); a row
// whose keys are all masked gives 0 (weights and logsumexp), as the kernel
// does; only the output is rounded back to float16, the logsumexp stays f32.
// CHECK-LABEL: func.func @flash
// CHECK: "onnx.Cast"(%arg0) {to = 1 : i64}
// CHECK: "onnx.ReduceMax"
// CHECK: %[[NONE:.*]] = "onnx.IsInf"
// CHECK-SAME: detect_positive = 0
// CHECK: "onnx.Exp"
// CHECK: "onnx.Div"
// CHECK: %[[W:.*]] = "onnx.Where"(%[[NONE]]
// CHECK: "onnx.MatMul"(%[[W]]
// CHECK: %[[O:.*]] = "onnx.Cast"({{.*}}) {to = 10 : i64}
// CHECK: "onnx.Log"
// CHECK: %[[L:.*]] = "onnx.Squeeze"
// CHECK: return %[[O]], %[[L]]
func.func @flash(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x5x8xf16>, %v: tensor<1x2x5x8xf16>, %m: tensor<4x5xf16>) -> (tensor<1x2x4x8xf16>, tensor<1x2x4xf32>) {
  %0:2 = "aten._scaled_dot_product_flash_attention_for_cpu.default"(%q, %k, %v, %m) {dropout_p = 0.000000e+00 : f64, is_causal = false, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0>} : (tensor<1x2x4x8xf16>, tensor<1x2x5x8xf16>, tensor<1x2x5x8xf16>, tensor<4x5xf16>) -> (tensor<1x2x4x8xf16>, tensor<1x2x4xf32>)
  return %0#0, %0#1 : tensor<1x2x4x8xf16>, tensor<1x2x4xf32>
}

// -----

// linalg_polar (torch 2.15, tools/gen/newer_torch_schemas.json): one-sided
// Jacobi in float64 in an ONNX Loop, then U = W V^T and H = V diag(s) V^T,
// cast back to float32.
// CHECK-LABEL: func.func @linalg_polar
// CHECK: "onnx.Cast"(%arg0) {to = 11 : i64}
// CHECK: "onnx.Loop"
// CHECK: %[[U:.*]] = "onnx.MatMul"
// CHECK: %[[H:.*]] = "onnx.MatMul"
// CHECK: %[[UC:.*]] = "onnx.Cast"(%[[U]]) {to = 1 : i64} {{.*}} -> tensor<5x3xf32>
// CHECK: %[[HC:.*]] = "onnx.Cast"(%[[H]]) {to = 1 : i64} {{.*}} -> tensor<3x3xf32>
// CHECK: return %[[UC]], %[[HC]]
func.func @linalg_polar(%a: tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3x3xf32>) {
  %0:2 = "aten.linalg_polar.default"(%a) : (tensor<5x3xf32>) -> (tensor<5x3xf32>, tensor<3x3xf32>)
  return %0#0, %0#1 : tensor<5x3xf32>, tensor<3x3xf32>
}

// -----

// linalg_matrix_sqrth (torch 2.15): the lower triangle mirrored, cyclic
// Jacobi with eigenvectors, negative eigenvalues clamped to 0 before the
// square root, V diag(sqrt(d)) V^T.
// CHECK-LABEL: func.func @linalg_matrix_sqrth
// CHECK: "onnx.Cast"(%arg0) {to = 11 : i64}
// CHECK: "onnx.Loop"
// CHECK: %[[NEG:.*]] = "onnx.Less"
// CHECK: %[[CL:.*]] = "onnx.Where"(%[[NEG]]
// CHECK: "onnx.Sqrt"(%[[CL]])
// CHECK: %[[X:.*]] = "onnx.MatMul"
// CHECK: %[[R:.*]] = "onnx.Cast"(%[[X]]) {to = 1 : i64} {{.*}} -> tensor<2x4x4xf32>
// CHECK: return %[[R]]
func.func @linalg_matrix_sqrth(%a: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %0 = "aten.linalg_matrix_sqrth.default"(%a) : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}
