// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(onnx-shape-inference))' | FileCheck %s

// Unknown result types get ranks, static dims and symbolic dims; a reshape
// to a shape computed from Shape/Concat keeps the symbolic batch.
// CHECK-LABEL: func.func @infer({{.*}}) -> tensor<?x2xf32, ["s0"]>
// CHECK: "onnx.Transpose"(%{{.*}}) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: "onnx.MatMul"(%arg0, %{{.*}}) : (tensor<?x8xf32, ["s0"]>, tensor<8x4xf32>) -> tensor<?x4xf32, ["s0"]>
// CHECK: "onnx.Add"(%{{.*}}, %{{.*}}) : (tensor<?x4xf32, ["s0"]>, tensor<4xf32>) -> tensor<?x4xf32, ["s0"]>
// CHECK: "onnx.Reshape"(%{{.*}}, %{{.*}}) : (tensor<?x4xf32, ["s0"]>, tensor<3xi64>) -> tensor<?x2x2xf32, ["s0"]>
// CHECK: "onnx.ReduceMean"(%{{.*}}, %{{.*}}) {keepdims = 0 : i64} : (tensor<?x2x2xf32, ["s0"]>, tensor<1xi64>) -> tensor<?x2xf32, ["s0"]>
// A returned value whose signature type has no rank (an ONNX output
// without a shape) takes the inferred type, and so does the signature.
// CHECK: %[[R:.*]] = "onnx.Neg"(%{{.*}}) : (tensor<?x2xf32, ["s0"]>) -> tensor<?x2xf32, ["s0"]>
// CHECK: return %[[R]] : tensor<?x2xf32, ["s0"]>
func.func @infer(%arg0: tensor<?x8xf32, ["s0"]>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  %t = "onnx.Transpose"(%w) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<*xf32>
  %m = "onnx.MatMul"(%arg0, %t) : (tensor<?x8xf32, ["s0"]>, tensor<*xf32>) -> tensor<*xf32>
  %a = "onnx.Add"(%m, %b) : (tensor<*xf32>, tensor<4xf32>) -> tensor<*xf32>
  %n = "onnx.Shape"(%arg0) {start = 0 : i64, end = 1 : i64} : (tensor<?x8xf32, ["s0"]>) -> tensor<1xi64>
  %c = "onnx.Constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "onnx.Concat"(%n, %c) {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %r = "onnx.Reshape"(%a, %s) : (tensor<*xf32>, tensor<3xi64>) -> tensor<*xf32>
  %axes = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %mean = "onnx.ReduceMean"(%r, %axes) {keepdims = 0 : i64} : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %neg = "onnx.Neg"(%mean) : (tensor<*xf32>) -> tensor<*xf32>
  return %neg : tensor<*xf32>
}

// Elementwise ops beyond the arithmetic ones: IsInf/IsNaN give booleans of
// their input's shape; the guarded softmax of attention keeps its 4-D type
// through Where (the `sdpa` fusion needs it); PRelu and Mean broadcast.
// CHECK-LABEL: func.func @elementwise
// CHECK: "onnx.IsInf"(%{{.*}}) {{.*}} : (tensor<?x4x5x1xf32, ["s0"]>) -> tensor<?x4x5x1xi1, ["s0"]>
// CHECK: "onnx.Where"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<?x4x5x1xi1, ["s0"]>, tensor<f32>, tensor<?x4x5x5xf32, ["s0"]>) -> tensor<?x4x5x5xf32, ["s0"]>
// CHECK: "onnx.IsNaN"(%{{.*}}) : (tensor<?x4x5x5xf32, ["s0"]>) -> tensor<?x4x5x5xi1, ["s0"]>
// CHECK: "onnx.PRelu"(%{{.*}}, %{{.*}}) : (tensor<?x4x5x5xf32, ["s0"]>, tensor<5xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
// CHECK: "onnx.Mean"(%{{.*}}, %{{.*}}) : (tensor<?x4x5x5xf32, ["s0"]>, tensor<5x1xf32>) -> tensor<?x4x5x5xf32, ["s0"]>
func.func @elementwise(%l: tensor<?x4x5x5xf32, ["s0"]>, %m: tensor<?x4x5x1xf32, ["s0"]>, %s: tensor<5xf32>, %t: tensor<5x1xf32>) -> (tensor<*xf32>, tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) {
  %inf = "onnx.IsInf"(%m) {detect_negative = 1 : i64, detect_positive = 0 : i64} : (tensor<?x4x5x1xf32, ["s0"]>) -> tensor<*xi1>
  %zero = "onnx.Constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %w = "onnx.Where"(%inf, %zero, %l) : (tensor<*xi1>, tensor<f32>, tensor<?x4x5x5xf32, ["s0"]>) -> tensor<*xf32>
  %nan = "onnx.IsNaN"(%l) : (tensor<?x4x5x5xf32, ["s0"]>) -> tensor<*xi1>
  %p = "onnx.PRelu"(%l, %s) : (tensor<?x4x5x5xf32, ["s0"]>, tensor<5xf32>) -> tensor<*xf32>
  %mean = "onnx.Mean"(%l, %t) : (tensor<?x4x5x5xf32, ["s0"]>, tensor<5x1xf32>) -> tensor<*xf32>
  %0 = "onnx.Neg"(%w) : (tensor<*xf32>) -> tensor<*xf32>
  %1 = "onnx.Not"(%nan) : (tensor<*xi1>) -> tensor<*xi1>
  %2 = "onnx.Neg"(%p) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "onnx.Neg"(%mean) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xi1>, tensor<*xf32>, tensor<*xf32>
}

// What models imported from other exporters need: a Constant's shape from
// its value (function bodies inlined on import leave constants unranked);
// Split's results (equal halves by num_outputs, the last one smaller when
// uneven, or given sizes); a Reshape's -1 over symbolic dims named as the
// product of the dims left (4*s0), a Reshape splitting it back getting the
// input's dims.
// CHECK-LABEL: func.func @imported
// CHECK: "onnx.Constant"() {value = dense<0xFF800000> : tensor<1xf32>} : () -> tensor<1xf32>
// CHECK: "onnx.Constant"() {value_float = 2.000000e+00 : f32} : () -> tensor<f32>
// CHECK: "onnx.Split"(%arg0) {axis = -1 : i64, num_outputs = 2 : i64} : (tensor<?x4x?x16xf32, ["s0", "s1"]>) -> (tensor<?x4x?x8xf32, ["s0", "s1"]>, tensor<?x4x?x8xf32, ["s0", "s1"]>)
// CHECK: "onnx.Split"(%arg1) {axis = 0 : i64, num_outputs = 3 : i64} : (tensor<7xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<1xf32>)
// CHECK: "onnx.Split"(%arg1, %{{.*}}) {axis = 0 : i64} : (tensor<7xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<5xf32>)
// CHECK: "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<?x4x?x16xf32, ["s0", "s1"]>, tensor<3xi64>) -> tensor<?x?x16xf32, ["4*s0", "s1"]>
// CHECK: "onnx.Reshape"(%{{.*}}, %{{.*}}) : (tensor<?x?x16xf32, ["4*s0", "s1"]>, tensor<4xi64>) -> tensor<?x4x?x16xf32, ["s0", "s1"]>
func.func @imported(%x: tensor<?x4x?x16xf32, ["s0", "s1"]>, %y: tensor<7xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %c = "onnx.Constant"() {value = dense<0xFF800000> : tensor<1xf32>} : () -> tensor<*xf32>
  %f = "onnx.Constant"() {value_float = 2.0 : f32} : () -> tensor<*xf32>
  %cc = "onnx.Add"(%c, %f) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %a:2 = "onnx.Split"(%x) {axis = -1 : i64, num_outputs = 2 : i64} : (tensor<?x4x?x16xf32, ["s0", "s1"]>) -> (tensor<*xf32>, tensor<*xf32>)
  %b:3 = "onnx.Split"(%y) {axis = 0 : i64, num_outputs = 3 : i64} : (tensor<7xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  %sz = "onnx.Constant"() {value = dense<[2, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %d:2 = "onnx.Split"(%y, %sz) {axis = 0 : i64} : (tensor<7xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  %shape = "onnx.Shape"(%x) : (tensor<?x4x?x16xf32, ["s0", "s1"]>) -> tensor<4xi64>
  %m1 = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %i0 = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %i2 = "onnx.Constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %i4 = "onnx.Constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %lead = "onnx.Slice"(%shape, %i0, %i2) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %tail = "onnx.Slice"(%shape, %i2, %i4) : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %t1 = "onnx.Concat"(%m1, %tail) {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %r = "onnx.Reshape"(%x, %t1) : (tensor<?x4x?x16xf32, ["s0", "s1"]>, tensor<3xi64>) -> tensor<*xf32>
  %t2 = "onnx.Concat"(%lead, %tail) {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %back = "onnx.Reshape"(%r, %t2) : (tensor<*xf32>, tensor<4xi64>) -> tensor<*xf32>
  %n0 = "onnx.Neg"(%cc) : (tensor<*xf32>) -> tensor<*xf32>
  %n1 = "onnx.Neg"(%a#0) : (tensor<*xf32>) -> tensor<*xf32>
  %n2 = "onnx.Neg"(%a#1) : (tensor<*xf32>) -> tensor<*xf32>
  %n3 = "onnx.Neg"(%b#0) : (tensor<*xf32>) -> tensor<*xf32>
  %n4 = "onnx.Neg"(%b#1) : (tensor<*xf32>) -> tensor<*xf32>
  %n5 = "onnx.Neg"(%b#2) : (tensor<*xf32>) -> tensor<*xf32>
  %n6 = "onnx.Neg"(%d#0) : (tensor<*xf32>) -> tensor<*xf32>
  %n7 = "onnx.Neg"(%d#1) : (tensor<*xf32>) -> tensor<*xf32>
  %n8 = "onnx.Neg"(%back) : (tensor<*xf32>) -> tensor<*xf32>
  return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7, %n8 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// An invalid shape value (-2) of an input of unknown size gives an unknown
// dim, never a negative size in a type (onnx-shape-inference-errors.mlir:
// refused when the input's size is known).
// CHECK-LABEL: func.func @negative_size
// CHECK: "onnx.Reshape"(%arg0, %{{.*}}) : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x3xf32>
func.func @negative_size(%x: tensor<?xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[-2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "onnx.Reshape"(%x, %s) : (tensor<?xf32>, tensor<2xi64>) -> tensor<*xf32>
  %n = "onnx.Neg"(%r) : (tensor<*xf32>) -> tensor<*xf32>
  return %n : tensor<*xf32>
}

// Convolution and pooling windows: batch, channels (a Conv's from its
// weight, a ConvTranspose's times `group`) and each static spatial dim by
// ONNX's formula with explicit pads, strides and dilations; a pool in
// ceil_mode keeps an unknown spatial dim (runtimes differ on a last window
// starting in the padding), a symbolic one stays unknown.
// CHECK-LABEL: func.func @windows
// CHECK: "onnx.Conv"(%{{.*}}, %{{.*}}) {{.*}} -> tensor<?x8x4x9xf32, ["s0"]>
// CHECK: "onnx.MaxPool"(%{{.*}}) {{.*}} -> tensor<?x3x4x4xf32, ["s0"]>
// CHECK: "onnx.AveragePool"(%{{.*}}) {{.*}} -> tensor<?x3x?x?xf32, ["s0", "", ""]>
// CHECK: "onnx.ConvTranspose"(%{{.*}}, %{{.*}}) {{.*}} -> tensor<?x4x16x20xf32, ["s0"]>
// CHECK: "onnx.Conv"(%{{.*}}, %{{.*}}) {{.*}} -> tensor<2x8x?x5xf32>
func.func @windows(%x: tensor<?x3x7x9xf32, ["s0"]>, %w: tensor<8x3x3x3xf32>, %wt: tensor<3x2x3x3xf32>, %y: tensor<2x3x?x5xf32, ["s1"]>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %c = "onnx.Conv"(%x, %w) {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>} : (tensor<?x3x7x9xf32, ["s0"]>, tensor<8x3x3x3xf32>) -> tensor<*xf32>
  %m = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 2>, pads = array<i64: 1, 1, 1, 2>} : (tensor<?x3x7x9xf32, ["s0"]>) -> tensor<*xf32>
  %a = "onnx.AveragePool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<?x3x7x9xf32, ["s0"]>) -> tensor<*xf32>
  %t = "onnx.ConvTranspose"(%x, %wt) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, output_padding = array<i64: 1, 1>, group = 2 : i64} : (tensor<?x3x7x9xf32, ["s0"]>, tensor<3x2x3x3xf32>) -> tensor<*xf32>
  %d = "onnx.Conv"(%y, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x3x?x5xf32, ["s1"]>, tensor<8x3x3x3xf32>) -> tensor<*xf32>
  %0 = "onnx.Neg"(%c) : (tensor<*xf32>) -> tensor<*xf32>
  %1 = "onnx.Neg"(%m) : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "onnx.Neg"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "onnx.Neg"(%t) : (tensor<*xf32>) -> tensor<*xf32>
  %4 = "onnx.Neg"(%d) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// ConvTranspose's output_shape gives its spatial dims (whatever the pads).
// CHECK-LABEL: func.func @convtranspose_output_shape
// CHECK: "onnx.ConvTranspose"(%{{.*}}, %{{.*}}) {{.*}} -> tensor<?x2x10x8xf32, ["s0"]>
func.func @convtranspose_output_shape(%x: tensor<?x1x3x3xf32, ["s0"]>, %w: tensor<1x2x3x3xf32>) -> tensor<*xf32> {
  %t = "onnx.ConvTranspose"(%x, %w) {output_shape = array<i64: 10, 8>, strides = array<i64: 3, 2>} : (tensor<?x1x3x3xf32, ["s0"]>, tensor<1x2x3x3xf32>) -> tensor<*xf32>
  %0 = "onnx.Neg"(%t) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// Attention's first result: the query's shape with the value's head size
// (4-D), or [B, S, q_num_heads * value head size] (3-D, grouped heads).
// CHECK-LABEL: func.func @attention
// CHECK: "onnx.Attention"(%arg0, %arg1, %arg2) {{.*}} -> tensor<?x7x32xf32, ["s0"]>
// CHECK: "onnx.Attention"(%arg3, %arg4, %arg5) : {{.*}} -> tensor<2x4x7x6xf32>
func.func @attention(%q: tensor<?x7x32xf32, ["s0"]>, %k: tensor<?x6x16xf32, ["s0"]>, %v: tensor<?x6x16xf32, ["s0"]>, %q4: tensor<2x4x7x8xf32>, %k4: tensor<2x4x6x8xf32>, %v4: tensor<2x4x6x6xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.Attention"(%q, %k, %v) {q_num_heads = 4 : i64, kv_num_heads = 2 : i64} : (tensor<?x7x32xf32, ["s0"]>, tensor<?x6x16xf32, ["s0"]>, tensor<?x6x16xf32, ["s0"]>) -> tensor<*xf32>
  %1 = "onnx.Attention"(%q4, %k4, %v4) : (tensor<2x4x7x8xf32>, tensor<2x4x6x8xf32>, tensor<2x4x6x6xf32>) -> tensor<*xf32>
  %2 = "onnx.Neg"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "onnx.Neg"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  return %2, %3 : tensor<*xf32>, tensor<*xf32>
}

// Reductions: ArgMax by its axis; an empty axes list reduces every axis,
// or none under noop_with_empty_axes. GridSample: [N, C] and the grid's
// output positions. Dropout: its input's shape, for the mask too.
// CHECK-LABEL: func.func @reductions_and_grids
// CHECK: "onnx.ArgMax"(%arg0) {{.*}} -> tensor<?x4xi64, ["s0"]>
// CHECK: "onnx.ReduceL2"(%arg0, %{{.*}}) {{.*}} -> tensor<1x1x1xf32>
// CHECK: "onnx.ReduceL2"(%arg0, %{{.*}}) {{.*}} -> tensor<?x3x4xf32, ["s0"]>
// CHECK: "onnx.GridSample"(%arg1, %arg2) {{.*}} -> tensor<2x3x5x6xf32>
// CHECK: "onnx.Dropout"(%arg0) {{.*}} -> (tensor<?x3x4xf32, ["s0"]>, tensor<?x3x4xi1, ["s0"]>)
func.func @reductions_and_grids(%x: tensor<?x3x4xf32, ["s0"]>, %img: tensor<2x3x8x8xf32>, %grid: tensor<2x5x6x2xf32>) -> (tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi1>) {
  %0 = "onnx.ArgMax"(%x) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<?x3x4xf32, ["s0"]>) -> tensor<*xi64>
  %none = "onnx.Constant"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %1 = "onnx.ReduceL2"(%x, %none) {keepdims = 1 : i64} : (tensor<?x3x4xf32, ["s0"]>, tensor<0xi64>) -> tensor<*xf32>
  %2 = "onnx.ReduceL2"(%x, %none) {keepdims = 1 : i64, noop_with_empty_axes = 1 : i64} : (tensor<?x3x4xf32, ["s0"]>, tensor<0xi64>) -> tensor<*xf32>
  %3 = "onnx.GridSample"(%img, %grid) {mode = "linear"} : (tensor<2x3x8x8xf32>, tensor<2x5x6x2xf32>) -> tensor<*xf32>
  %4:2 = "onnx.Dropout"(%x) {seed = 1 : i64} : (tensor<?x3x4xf32, ["s0"]>) -> (tensor<*xf32>, tensor<*xi1>)
  %5 = "onnx.Neg"(%0) : (tensor<*xi64>) -> tensor<*xi64>
  return %5, %1, %2, %3, %4#0, %4#1 : tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi1>
}

// Recurrent ops: Y [seq, dirs, batch, hidden] and the states [dirs, batch,
// hidden] (batch first under layout = 1); Resize to constant sizes.
// CHECK-LABEL: func.func @recurrent_and_resize
// CHECK: "onnx.LSTM"(%arg0, %arg1, %arg2) {{.*}} -> (tensor<5x2x?x3xf32, ["s0"]>, tensor<2x?x3xf32, ["s0"]>, tensor<2x?x3xf32, ["s0"]>)
// CHECK: "onnx.GRU"(%arg3, %arg4, %arg5) {{.*}} -> (tensor<2x5x1x3xf32>, tensor<2x1x3xf32>)
// CHECK: "onnx.Resize"(%arg6, %{{.*}}, %{{.*}}, %{{.*}}) {{.*}} -> tensor<1x3x16x8xf32>
func.func @recurrent_and_resize(%x: tensor<5x?x4xf32, ["s0"]>, %w: tensor<2x12x4xf32>, %r: tensor<2x12x3xf32>, %xb: tensor<2x5x4xf32>, %wg: tensor<1x9x4xf32>, %rg: tensor<1x9x3xf32>, %img: tensor<1x3x8x8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0:3 = "onnx.LSTM"(%x, %w, %r) {direction = "bidirectional", hidden_size = 3 : i64} : (tensor<5x?x4xf32, ["s0"]>, tensor<2x12x4xf32>, tensor<2x12x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  %1:2 = "onnx.GRU"(%xb, %wg, %rg) {hidden_size = 3 : i64, layout = 1 : i64} : (tensor<2x5x4xf32>, tensor<1x9x4xf32>, tensor<1x9x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %none = "onnx.none"() : () -> none
  %sizes = "onnx.Constant"() {value = dense<[1, 3, 16, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %2 = "onnx.Resize"(%img, %none, %none, %sizes) {mode = "nearest"} : (tensor<1x3x8x8xf32>, none, none, tensor<4xi64>) -> tensor<*xf32>
  return %0#0, %0#1, %0#2, %1#0, %1#1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Slice without axes slices the first len(starts) axes only.
// CHECK-LABEL: func.func @slice_default_axes
// CHECK: "onnx.Slice"(%arg0, %{{.*}}, %{{.*}}) : {{.*}} -> tensor<1x3x4xf32>
func.func @slice_default_axes(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "onnx.Slice"(%x, %zero, %one) : (tensor<2x3x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// SpaceToDepth / DepthToSpace move b x b blocks between space and channels.
// CHECK-LABEL: func.func @depth_space
// CHECK: "onnx.SpaceToDepth"(%arg0) {{.*}} -> tensor<?x32x2x3xf32, ["s0"]>
// CHECK: "onnx.DepthToSpace"(%arg0) {{.*}} -> tensor<?x2x8x12xf32, ["s0"]>
func.func @depth_space(%x: tensor<?x8x4x6xf32, ["s0"]>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.SpaceToDepth"(%x) {blocksize = 2 : i64} : (tensor<?x8x4x6xf32, ["s0"]>) -> tensor<*xf32>
  %1 = "onnx.DepthToSpace"(%x) {blocksize = 2 : i64, mode = "DCR"} : (tensor<?x8x4x6xf32, ["s0"]>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// Shape arithmetic as torch.onnx's TorchScript exporter writes it (models
// with no intermediate types): `Where(Equal(shape, -1), ones, shape)` before
// an Expand (a size is never -1, so the shape is kept), a ConstantOfShape,
// Flatten, Tile and Pad of computed or constant sizes.
// CHECK-LABEL: func.func @exporter_shape_arithmetic
// CHECK: "onnx.ConstantOfShape"(%{{.*}}) {{.*}} -> tensor<2xi64>
// CHECK: "onnx.Expand"(%{{.*}}, %{{.*}}) : (tensor<1x8xi64>, tensor<2xi64>) -> tensor<?x8xi64, ["b"]>
// CHECK: "onnx.ConstantOfShape"(%{{.*}}) {{.*}} -> tensor<?x8xf32, ["b"]>
// CHECK: "onnx.Flatten"(%{{.*}}) {axis = 1 : i64} : (tensor<?x8x3xf32, ["b"]>) -> tensor<?x24xf32, ["b"]>
// CHECK: "onnx.Flatten"(%{{.*}}) {axis = 2 : i64} : (tensor<?x8x3xf32, ["b"]>) -> tensor<?x3xf32, ["8*b"]>
// CHECK: "onnx.Tile"(%{{.*}}, %{{.*}}) : (tensor<?x8x3xf32, ["b"]>, tensor<3xi64>) -> tensor<?x16x3xf32, ["b"]>
// CHECK: "onnx.Pad"(%{{.*}}, %{{.*}}) : (tensor<?x8x3xf32, ["b"]>, tensor<6xi64>) -> tensor<?x9x5xf32, ["b"]>
// CHECK: "onnx.Size"(%{{.*}}) : (tensor<?x8x3xf32, ["b"]>) -> tensor<i64>
func.func @exporter_shape_arithmetic(%x: tensor<?x8x3xf32, ["b"]>, %row: tensor<1x8xi64>) -> (tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>) {
  %shape = "onnx.Shape"(%x) {end = 2 : i64} : (tensor<?x8x3xf32, ["b"]>) -> tensor<2xi64>
  %len = "onnx.Shape"(%shape) : (tensor<2xi64>) -> tensor<1xi64>
  %ones = "onnx.ConstantOfShape"(%len) {value = dense<1> : tensor<1xi64>} : (tensor<1xi64>) -> tensor<*xi64>
  %minus = "onnx.Constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %neg = "onnx.Mul"(%ones, %minus) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  %eq = "onnx.Equal"(%shape, %neg) : (tensor<2xi64>, tensor<*xi64>) -> tensor<*xi1>
  %target = "onnx.Where"(%eq, %ones, %shape) : (tensor<*xi1>, tensor<*xi64>, tensor<2xi64>) -> tensor<*xi64>
  %e = "onnx.Expand"(%row, %target) : (tensor<1x8xi64>, tensor<*xi64>) -> tensor<*xi64>
  %z = "onnx.ConstantOfShape"(%target) {value = dense<0.0> : tensor<1xf32>} : (tensor<*xi64>) -> tensor<*xf32>
  %f1 = "onnx.Flatten"(%x) {axis = 1 : i64} : (tensor<?x8x3xf32, ["b"]>) -> tensor<*xf32>
  %f2 = "onnx.Flatten"(%x) {axis = 2 : i64} : (tensor<?x8x3xf32, ["b"]>) -> tensor<*xf32>
  %reps = "onnx.Constant"() {value = dense<[1, 2, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %t = "onnx.Tile"(%x, %reps) : (tensor<?x8x3xf32, ["b"]>, tensor<3xi64>) -> tensor<*xf32>
  %pads = "onnx.Constant"() {value = dense<[0, 1, 1, 0, 0, 1]> : tensor<6xi64>} : () -> tensor<6xi64>
  %p = "onnx.Pad"(%x, %pads) : (tensor<?x8x3xf32, ["b"]>, tensor<6xi64>) -> tensor<*xf32>
  %n = "onnx.Size"(%x) : (tensor<?x8x3xf32, ["b"]>) -> tensor<*xi64>
  return %e, %z, %f1, %f2, %t, %p, %n : tensor<*xi64>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>
}

// Matrix-vector products drop the vector's dim; losses have the target's
// shape without reduction and one value with it; random-like, quantize and
// cumulative ops keep their input's shape.
// CHECK-LABEL: func.func @vectors_losses_like
// CHECK: "onnx.MatMul"(%arg0, %arg1) : (tensor<?x3x4xf32, ["b"]>, tensor<4xf32>) -> tensor<?x3xf32, ["b"]>
// CHECK: "onnx.MatMul"(%arg1, %arg2) : (tensor<4xf32>, tensor<4x6xf32>) -> tensor<6xf32>
// CHECK: "onnx.SoftmaxCrossEntropyLoss"(%{{.*}}, %{{.*}}) {reduction = "none"} : (tensor<?x5xf32, ["b"]>, tensor<?xi64, ["b"]>) -> (tensor<?xf32, ["b"]>, tensor<?x5xf32, ["b"]>)
// CHECK: "onnx.NegativeLogLikelihoodLoss"(%{{.*}}, %{{.*}}) {reduction = "sum"} : (tensor<?x5xf32, ["b"]>, tensor<?xi64, ["b"]>) -> tensor<f32>
// CHECK: "onnx.RandomUniformLike"(%arg0) {{.*}} -> tensor<?x3x4xf32, ["b"]>
// CHECK: "onnx.DequantizeLinear"(%{{.*}}, %{{.*}}) : (tensor<?x3x4xi8, ["b"]>, tensor<f32>) -> tensor<?x3x4xf32, ["b"]>
func.func @vectors_losses_like(%x: tensor<?x3x4xf32, ["b"]>, %v: tensor<4xf32>, %w: tensor<4x6xf32>, %s: tensor<?x5xf32, ["b"]>, %t: tensor<?xi64, ["b"]>, %q: tensor<?x3x4xi8, ["b"]>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "onnx.MatMul"(%x, %v) : (tensor<?x3x4xf32, ["b"]>, tensor<4xf32>) -> tensor<*xf32>
  %1 = "onnx.MatMul"(%v, %w) : (tensor<4xf32>, tensor<4x6xf32>) -> tensor<*xf32>
  %2, %3 = "onnx.SoftmaxCrossEntropyLoss"(%s, %t) {reduction = "none"} : (tensor<?x5xf32, ["b"]>, tensor<?xi64, ["b"]>) -> (tensor<*xf32>, tensor<*xf32>)
  %4 = "onnx.NegativeLogLikelihoodLoss"(%s, %t) {reduction = "sum"} : (tensor<?x5xf32, ["b"]>, tensor<?xi64, ["b"]>) -> tensor<*xf32>
  %5 = "onnx.RandomUniformLike"(%x) {high = 1.0 : f32, low = 0.0 : f32} : (tensor<?x3x4xf32, ["b"]>) -> tensor<*xf32>
  %scale = "onnx.Constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %6 = "onnx.DequantizeLinear"(%q, %scale) : (tensor<?x3x4xi8, ["b"]>, tensor<f32>) -> tensor<*xf32>
  return %0, %1, %2, %4, %5, %6, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// Range lengths: ceil((limit - start) / delta) of integer constants, n for
// Range(0, n, 1) of a size; values cast to float are not followed (a float
// division does not truncate), so that Range stays of unknown length.
// CHECK-LABEL: func.func @ranges
// CHECK: "onnx.Range"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
// CHECK: "onnx.Range"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64, ["s"]>
// CHECK: "onnx.Range"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
func.func @ranges(%x: tensor<2x?xf32, ["s"]>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xf32>) {
  %zero = "onnx.Constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %five = "onnx.Constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  %two = "onnx.Constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %0 = "onnx.Range"(%zero, %five, %two) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  %shape = "onnx.Shape"(%x) {start = 1 : i64} : (tensor<2x?xf32, ["s"]>) -> tensor<1xi64>
  %axes = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "onnx.Squeeze"(%shape, %axes) : (tensor<1xi64>, tensor<1xi64>) -> tensor<i64>
  %1 = "onnx.Range"(%zero, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<*xi64>
  %fz = "onnx.Cast"(%zero) {to = 1 : i64} : (tensor<i64>) -> tensor<f32>
  %ff = "onnx.Cast"(%five) {to = 1 : i64} : (tensor<i64>) -> tensor<f32>
  %ft = "onnx.Cast"(%two) {to = 1 : i64} : (tensor<i64>) -> tensor<f32>
  %q = "onnx.Div"(%ff, %ft) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %fo = "onnx.Cast"(%one) {to = 1 : i64} : (tensor<i64>) -> tensor<f32>
  %2 = "onnx.Range"(%fz, %q, %fo) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xi64>, tensor<*xi64>, tensor<*xf32>
}

// Sizes that may differ are never assumed equal: broadcasting two symbols
// gives their max (one symbol, named in a fixed order; the same pair always
// meets as the same name), a symbol next to an unknown dim gives unknown
// (the unknown may be the larger one). A slice with bounds read from a
// Shape has the length that holds for every value of the symbols (HF's
// x[..., :S] and x[..., 1:S + 1] of an S + 1 axis are S), or min(end, n)
// for 0:end; GatherND keeps the indices' leading dims.
// CHECK-LABEL: func.func @claims
// CHECK: "onnx.Add"(%arg0, %arg1) : {{.*}} -> tensor<?x4xf32, ["max(M, N)"]>
// CHECK: "onnx.Add"(%arg1, %arg0) : {{.*}} -> tensor<?x4xf32, ["max(M, N)"]>
// CHECK: "onnx.Add"(%arg0, %arg2) : {{.*}} -> tensor<?x4xf32>
// CHECK: "onnx.Slice"({{.*}}) : (tensor<1x?xi64, ["1 + N"]>, {{.*}}) -> tensor<1x?xi64, ["N"]>
// CHECK: "onnx.Slice"({{.*}}) : (tensor<1x?xi64, ["1 + N"]>, {{.*}}) -> tensor<1x?xi64, ["N"]>
// CHECK: "onnx.Slice"({{.*}}) : (tensor<1x64xi64>, {{.*}}) -> tensor<1x?xi64, ["min(64, N)"]>
// CHECK: "onnx.GatherND"({{.*}}) {batch_dims = 0 : i64} : (tensor<1x?xi64, ["N"]>, tensor<1x1x?x1x2xi64, ["N"]>) -> tensor<1x1x?x1xi64, ["N"]>
func.func @claims(%arg0: tensor<?x4xf32, ["N"]>, %arg1: tensor<?x4xf32, ["M"]>, %arg2: tensor<?x4xf32>, %ids: tensor<1x?xi64, ["N"]>, %pos: tensor<1x64xi64>, %idx: tensor<1x1x?x1x2xi64, ["N"]>, %first: tensor<1x1xi64>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
  %a = "onnx.Add"(%arg0, %arg1) : (tensor<?x4xf32, ["N"]>, tensor<?x4xf32, ["M"]>) -> tensor<*xf32>
  %b = "onnx.Add"(%arg1, %arg0) : (tensor<?x4xf32, ["M"]>, tensor<?x4xf32, ["N"]>) -> tensor<*xf32>
  %c = "onnx.Add"(%arg0, %arg2) : (tensor<?x4xf32, ["N"]>, tensor<?x4xf32>) -> tensor<*xf32>
  %zero = "onnx.Constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %last = "onnx.Constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "onnx.Shape"(%ids) {start = 1 : i64, end = 2 : i64} : (tensor<1x?xi64, ["N"]>) -> tensor<1xi64>
  %n1 = "onnx.Add"(%n, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %cat = "onnx.Concat"(%first, %ids) {axis = -1 : i64} : (tensor<1x1xi64>, tensor<1x?xi64, ["N"]>) -> tensor<*xi64>
  %head = "onnx.Slice"(%cat, %zero, %n, %last, %one) : (tensor<*xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %tail = "onnx.Slice"(%cat, %one, %n1, %last, %one) : (tensor<*xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %p = "onnx.Slice"(%pos, %zero, %n, %last, %one) : (tensor<1x64xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<*xi64>
  %g = "onnx.GatherND"(%ids, %idx) {batch_dims = 0 : i64} : (tensor<1x?xi64, ["N"]>, tensor<1x1x?x1x2xi64, ["N"]>) -> tensor<*xi64>
  return %a, %b, %c, %head, %tail, %p, %g : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>
}

// 5 into 4 parts by num_outputs cannot run (onnx's sizes: 2, 2, 2, -1); it
// may sit in a branch never taken (the expanded AffineGrid's 2-D branch of
// a 3-D grid, hostile .onnx seed 50): no sizes are claimed for it. 7 into 3
// (above) gets 3, 3, 1.
// CHECK-LABEL: func.func @split_uneven_invalid
// CHECK: "onnx.Split"(%arg0) {axis = 0 : i64, num_outputs = 4 : i64} : (tensor<5xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
func.func @split_uneven_invalid(%x: tensor<5xi64>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>) {
  %a:4 = "onnx.Split"(%x) {axis = 0 : i64, num_outputs = 4 : i64} : (tensor<5xi64>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>)
  return %a#0, %a#1, %a#2, %a#3 : tensor<*xi64>, tensor<*xi64>, tensor<*xi64>, tensor<*xi64>
}

// Squeeze without axes drops every dim of size 1 when all dims are static;
// a symbolic dim may be 1 at run time, so then nothing is claimed.
// CHECK-LABEL: func.func @squeeze_all
// CHECK: "onnx.Squeeze"(%arg0) : (tensor<1x3x1xf32>) -> tensor<3xf32>
// CHECK: "onnx.Squeeze"(%arg1) : (tensor<1x?xf32, ["s0"]>) -> tensor<*xf32>
func.func @squeeze_all(%x: tensor<1x3x1xf32>, %y: tensor<1x?xf32, ["s0"]>) -> (tensor<*xf32>, tensor<*xf32>) {
  %a = "onnx.Squeeze"(%x) : (tensor<1x3x1xf32>) -> tensor<*xf32>
  %b = "onnx.Squeeze"(%y) : (tensor<1x?xf32, ["s0"]>) -> tensor<*xf32>
  return %a, %b : tensor<*xf32>, tensor<*xf32>
}
