// RUN: aten-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(onnx-shape-inference))'

// Operand shapes the op cannot take are refused with the node, not
// written out for the runtime to reject (an imported model whose types were
// edited, or whose inputs were reordered).

func.func @no_broadcast(%a: tensor<2x5xf32>, %b: tensor<3x1xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{operand shapes [2, 5] and [3, 1] do not broadcast}}
  %0 = "onnx.Add"(%a, %b) : (tensor<2x5xf32>, tensor<3x1xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{operand shapes [2] and [5] do not broadcast}}
  %0 = "onnx.MatMul"(%a, %b) : (tensor<2x3x4xf32>, tensor<5x4x6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input [1, 3, 8, 8] and weight [16] need the same rank, at least 3}}
  %0 = "onnx.Conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<16x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{input [1, 3, 8, 8] has 3 channels; its weight [16, 2, 3, 3] with group 1 takes 2}}
  %0 = "onnx.Conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<16x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_operands(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{equation 'ij,jk->ik' names 2 operand(s) but the op has 1}}
  %0 = "onnx.Einsum"(%a) {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Attention's output: the query's shape with the value's head size; a
// declared type that contradicts it (key and value swapped) is refused.
func.func @attention_swapped(%q: tensor<2x4x7x8xf32>, %k: tensor<2x4x6x8xf32>, %v: tensor<2x4x6x6xf32>) -> tensor<2x4x7x8xf32> {
  // expected-error @+1 {{result #0 is declared tensor<2x4x7x8xf32> but the op computes shape [2, 4, 7, 6] from its inputs}}
  %0 = "onnx.Attention"(%q, %k, %v) : (tensor<2x4x7x8xf32>, tensor<2x4x6x8xf32>, tensor<2x4x6x6xf32>) -> tensor<2x4x7x8xf32>
  return %0 : tensor<2x4x7x8xf32>
}

// -----

func.func @gemm_rank(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Gemm takes 2-D operands, got [3] and [3, 4]}}
  %0 = "onnx.Gemm"(%a, %b) : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @window_overflow(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{its kernel_shape, dilations or pads overflow 64-bit dims}}
  %0 = "onnx.Conv"(%x, %w) {dilations = array<i64: 4611686018427387904, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gemm_bias(%a: tensor<7x3xf32>, %b: tensor<3x7xf32>, %c: tensor<5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Gemm's C [5] does not broadcast to the result [7, 7]}}
  %0 = "onnx.Gemm"(%a, %b, %c) : (tensor<7x3xf32>, tensor<3x7xf32>, tensor<5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_term_rank(%a: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{equation term 'NOTSET' does not fit operand #0 of rank 2}}
  %0 = "onnx.Einsum"(%a) {equation = "NOTSET"} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bitshift_declared(%a: tensor<3xui32>, %b: tensor<3xui32>) -> tensor<7xui32> {
  // expected-error @+1 {{result #0 is declared tensor<7xui32> but the op computes shape [3] from its inputs}}
  %0 = "onnx.BitShift"(%a, %b) {direction = "LEFT"} : (tensor<3xui32>, tensor<3xui32>) -> tensor<7xui32>
  return %0 : tensor<7xui32>
}

// -----

func.func @argmax_declared(%a: tensor<2x3x4xf32>) -> tensor<2x0xi64> {
  // expected-error @+1 {{result #0 is declared tensor<2x0xi64> but the op computes shape [2, 4] from its inputs}}
  %0 = "onnx.ArgMax"(%a) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x0xi64>
  return %0 : tensor<2x0xi64>
}

// -----

func.func @if_declared(%c: tensor<i1>, %a: tensor<2x4xf32>) -> tensor<2x64xf32> {
  // expected-error @+1 {{result #0 is declared tensor<2x64xf32> but both branches yield dim 1 = 4}}
  %0 = "onnx.If"(%c) ({
    "onnx.yield"(%a) : (tensor<2x4xf32>) -> ()
  }, {
    %n = "onnx.Neg"(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    "onnx.yield"(%n) : (tensor<2x4xf32>) -> ()
  }) : (tensor<i1>) -> tensor<2x64xf32>
  return %0 : tensor<2x64xf32>
}

// -----

func.func @gridsample_grid(%x: tensor<1x1x4x4xf32>, %g: tensor<1x3x3x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{GridSample's grid [1, 3, 3, 5] must end in a dim of 2}}
  %0 = "onnx.GridSample"(%x, %g) : (tensor<1x1x4x4xf32>, tensor<1x3x3x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @attention_rank(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Attention's value [8] must be 3-D or 4-D}}
  %0 = "onnx.Attention"(%q, %k, %v) : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile-input seed 34: a FlexAttention whose value has another batch
// than its query (onnx.checker refuses the model; the op has no result
// inference here, so the operands are checked against each other).
func.func @flex_attention_batch(%q: tensor<2x4x8x16xf16>, %k: tensor<2x4x6x16xf16>, %v: tensor<88x4x6x16xf16>) -> tensor<2x4x8x16xf16> {
  // expected-error @+1 {{FlexAttention's query [2, 4, 8, 16] and value [88, 4, 6, 16] differ in dim 0 / 0}}
  %0 = "onnx.preview.FlexAttention"(%q, %k, %v) : (tensor<2x4x8x16xf16>, tensor<2x4x6x16xf16>, tensor<88x4x6x16xf16>) -> tensor<2x4x8x16xf16>
  return %0 : tensor<2x4x8x16xf16>
}

// -----

func.func @attention_head_size(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x5x6xf32>, %v: tensor<1x2x5x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Attention's query [1, 2, 4, 8] and key [1, 2, 5, 6] differ in dim 3 / 3}}
  %0 = "onnx.Attention"(%q, %k, %v) : (tensor<1x2x4x8xf32>, tensor<1x2x5x6xf32>, tensor<1x2x5x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @lstm_hidden_size(%x: tensor<5x2x4xf32>, %w: tensor<1x12x4xf32>, %r: tensor<1x12x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{W [1, 12, 4] has 12 rows per direction; hidden_size 4 needs 4 gates x 4}}
  %0:3 = "onnx.LSTM"(%x, %w, %r) {hidden_size = 4 : i64} : (tensor<5x2x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @slice_lengths(%x: tensor<2x3xf32>, %starts: tensor<1xi64>, %ends: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{Slice's ends has 2 entries but starts has 1}}
  %0 = "onnx.Slice"(%x, %starts, %ends) : (tensor<2x3xf32>, tensor<1xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @resize_sizes_length(%x: tensor<1x3x8x8xf32>, %sizes: tensor<3xi64>) -> tensor<*xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{Resize's sizes has 3 entries for an input of rank 4}}
  %0 = "onnx.Resize"(%x, %none, %none, %sizes) {mode = "nearest"} : (tensor<1x3x8x8xf32>, none, none, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gemm_contracted(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Gemm's operands [3, 4] and [5, 6] do not multiply: 4 != 5}}
  %0 = "onnx.Gemm"(%a, %b) : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @loss_declared(%s: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{result #0 is declared tensor<3xf32> but the op computes shape [] from its inputs}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%s, %t) {reduction = "mean"} : (tensor<3x5xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Concat's inputs agree on every dim but the axis (an edited model
// concatenated [2, 4, 3] with [64, 4, 8] on axis 2 and wrote dim 0 = 2).
func.func @concat_other_dims(%a: tensor<2x4x3xf32>, %b: tensor<64x4x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Concat's inputs [2, 4, 3] and [64, 4, 8] differ in dim 0, which is not the axis 2}}
  %0 = "onnx.Concat"(%a, %b) {axis = 2 : i64} : (tensor<2x4x3xf32>, tensor<64x4x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_ranks(%a: tensor<2x4xf32>, %b: tensor<2x4x1xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Concat's inputs [2, 4] and [2, 4, 1] differ in rank}}
  %0 = "onnx.Concat"(%a, %b) {axis = -1 : i64} : (tensor<2x4xf32>, tensor<2x4x1xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// LinearAttention's update rule takes exactly its inputs (decay for the
// gated rules, beta for the delta rules): hostile .onnx seed 41 gave a
// 'gated' node a beta, which onnx.checker refuses.
module attributes {onnx.opset = 27 : i64} {
func.func @linear_attention_extra_beta(%q: tensor<2x4x32xf32>, %d: tensor<2x4x4xf32>) -> tensor<2x4x32xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{LinearAttention's update_rule 'gated' takes no beta input}}
  %0:2 = "onnx.LinearAttention"(%q, %q, %q, %none, %d, %q) {kv_num_heads = 4 : i64, q_num_heads = 4 : i64, update_rule = "gated"} : (tensor<2x4x32xf32>, tensor<2x4x32xf32>, tensor<2x4x32xf32>, none, tensor<2x4x4xf32>, tensor<2x4x32xf32>) -> (tensor<2x4x32xf32>, tensor<2x4x8x8xf32>)
  return %0#0 : tensor<2x4x32xf32>
}
}


// -----

module attributes {onnx.opset = 27 : i64} {
func.func @linear_attention_linear_decay(%q: tensor<2x4x32xf32>, %d: tensor<2x4x4xf32>) -> tensor<2x4x32xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{LinearAttention's update_rule 'linear' takes no decay input}}
  %0:2 = "onnx.LinearAttention"(%q, %q, %q, %none, %d) {kv_num_heads = 4 : i64, q_num_heads = 4 : i64, update_rule = "linear"} : (tensor<2x4x32xf32>, tensor<2x4x32xf32>, tensor<2x4x32xf32>, none, tensor<2x4x4xf32>) -> (tensor<2x4x32xf32>, tensor<2x4x8x8xf32>)
  return %0#0 : tensor<2x4x32xf32>
}
}


// -----

module attributes {onnx.opset = 27 : i64} {
func.func @linear_attention_heads(%q: tensor<2x4x32xf32>, %d: tensor<2x4x4xf32>) -> tensor<2x4x32xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{LinearAttention's q_num_heads = 4 must be a positive multiple of kv_num_heads = 8}}
  %0:2 = "onnx.LinearAttention"(%q, %q, %q, %none, %d) {kv_num_heads = 8 : i64, q_num_heads = 4 : i64, update_rule = "gated"} : (tensor<2x4x32xf32>, tensor<2x4x32xf32>, tensor<2x4x32xf32>, none, tensor<2x4x4xf32>) -> (tensor<2x4x32xf32>, tensor<2x4x8x8xf32>)
  return %0#0 : tensor<2x4x32xf32>
}
}


// -----

// With `axes`, scales and sizes have one entry per resized axis (hostile
// .onnx seed 42: 64 sizes for 2 axes, written with exit 0 before).
module attributes {onnx.opset = 19 : i64} {
func.func @resize_axes(%x: tensor<1x1x4x4xf32>, %s: tensor<64xi64>) -> tensor<*xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{Resize's sizes has 64 entries for 2 resized axes}}
  %0 = "onnx.Resize"(%x, %none, %none, %s) {axes = array<i64: 2, 3>} : (tensor<1x1x4x4xf32>, none, none, tensor<64xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
}

// -----

// A past key without its past value (hostile .onnx seed 42).
func.func @attention_past_key_alone(%q: tensor<2x3x4x8xf32>, %pk: tensor<2x3x5x8xf32>) -> tensor<2x3x4x8xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{Attention's past_key and past_value must be given together}}
  %0 = "onnx.Attention"(%q, %q, %q, %none, %pk) : (tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, tensor<2x3x4x8xf32>, none, tensor<2x3x5x8xf32>) -> tensor<2x3x4x8xf32>
  return %0 : tensor<2x3x4x8xf32>
}

// -----

// A 0 (copy the input's dim) past the input's rank is no shape (hostile
// .onnx seed 43: an empty dim folded into a Shape).
func.func @reshape_zero_past_rank(%x: tensor<3x4x2xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[3, 4, 2, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{Reshape's shape [3, 4, 2, 0] has a 0 (copy the input's dim) at position 3, past the input's rank 3}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<3x4x2xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nll_weight_rank(%x: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<3x5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{NegativeLogLikelihoodLoss's weight [3, 5] must be 1-D}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %w) : (tensor<3x5xf32>, tensor<3xi64>, tensor<3x5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A Scan body is checked against its operands: the slice of a [4, 2, 2, 1]
// input is [2, 2, 1], which does not broadcast with the [2, 4, 8] state.
func.func @scan_body_checked(%s0: tensor<2x4x8xf32>, %xs: tensor<4x2x2x1xf32>) -> tensor<*xf32> {
  %0:2 = "onnx.Scan"(%s0, %xs) ({
  ^bb0(%s: tensor<*xf32>, %x: tensor<*xf32>):
    // expected-error @+1 {{operand shapes [2, 4, 8] and [2, 2, 1] do not broadcast}}
    %1 = "onnx.Mul"(%s, %x) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    "onnx.yield"(%1, %1) : (tensor<*xf32>, tensor<*xf32>) -> ()
  }) {num_scan_inputs = 1 : i64} : (tensor<2x4x8xf32>, tensor<4x2x2x1xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#1 : tensor<*xf32>
}

// -----

// Shape operands known as values that the op cannot take (hostile .onnx
// seed 44): a Reshape that does not hold its input's elements, an Expand
// whose shape does not broadcast, a loss target that is not the scores
// without their class axis.
func.func @reshape_numel(%x: tensor<2x5x24xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[2, 6, 3, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{Reshape's shape [2, 6, 3, -1] does not hold the 240 elements of the input [2, 5, 24]}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<2x5x24xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @expand_broadcast(%x: tensor<2x3x1x6x8xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[2, 3, 6, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{Expand's shape [2, 3, 6, 8] does not broadcast with the input [2, 3, 1, 6, 8]}}
  %0 = "onnx.Expand"(%x, %s) : (tensor<2x3x1x6x8xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @nll_target_dims(%x: tensor<3x5x2x6xf32>, %t: tensor<3x6x7xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{NegativeLogLikelihoodLoss's target [3, 6, 7] is not its scores [3, 5, 2, 6] without the class axis}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t) : (tensor<3x5x2x6xf32>, tensor<3x6x7xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A negative size other than -1 (a model runtimes refuse).
func.func @reshape_negative_size(%x: tensor<6xf32>) -> tensor<*xf32> {
  %s = "onnx.Constant"() {value = dense<[-2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+1 {{Reshape's shape [-2, 3] has a negative size other than -1}}
  %0 = "onnx.Reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile .onnx seed 47: output_shape must give every dim of X.
func.func @maxunpool_output_shape(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>, %s: tensor<2147483648xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{MaxUnpool's output_shape has 2147483648 entries for an input of rank 4}}
  %0 = "onnx.MaxUnpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<2147483648xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile .onnx seed 47: the carried state holds the last k - 1 positions.
module attributes {onnx.opset = 27 : i64} {
func.func @causal_conv_state(%x: tensor<2x4x8xf32>, %w: tensor<4x1x4xf32>, %b: tensor<4xf32>, %p: tensor<2x4x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // expected-error @+1 {{CausalConvWithState's past_state [2, 4, 5] does not hold the k - 1 = 3 positions of the weight [4, 1, 4]}}
  %0:2 = "onnx.CausalConvWithState"(%x, %w, %b, %p) : (tensor<2x4x8xf32>, tensor<4x1x4xf32>, tensor<4xf32>, tensor<2x4x5xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}
}

// -----

// Hostile .onnx seed 48: Adam takes R, T and n tensors of each of X, G, V, H.
module attributes {onnx.opset = 23 : i64} {
func.func @adam_groups(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %v: tensor<2xf32>, %h: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // expected-error @+1 {{Adam takes R, T and n tensors of each of its 4 groups; it has 5 inputs}}
  %0:3 = "onnx.preview.training.Adam"(%r, %t, %x, %v, %h) : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}
}

// -----

// Hostile .onnx seed 48: packed 3-D operands hold whole heads.
func.func @attention_heads(%q: tensor<2x4x24xf32>, %k: tensor<2x6x24xf32>, %v: tensor<2x6x30xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{Attention's key [2, 6, 24] does not split into kv_num_heads = 9 heads}}
  %0 = "onnx.Attention"(%q, %k, %v) {q_num_heads = 3 : i64, kv_num_heads = 9 : i64} : (tensor<2x4x24xf32>, tensor<2x6x24xf32>, tensor<2x6x30xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile .onnx seed 48: an axis named twice.
func.func @resize_axes_twice(%x: tensor<1x1x4x4xf32>, %sizes: tensor<3xi64>) -> tensor<*xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{Resize's axes [2, 3, 2] name axis 2 more than once}}
  %0 = "onnx.Resize"(%x, %none, %none, %sizes) {mode = "nearest", axes = array<i64: 2, 3, 2>} : (tensor<1x1x4x4xf32>, none, none, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile .onnx seed 48: the bias is one number per channel.
module attributes {onnx.opset = 27 : i64} {
func.func @causal_conv_bias(%x: tensor<2x4x8xf32>, %w: tensor<4x1x4xf32>, %b: tensor<2x4x8xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  // expected-error @+1 {{CausalConvWithState's bias [2, 4, 8] must be 1-D (one per channel)}}
  %0:2 = "onnx.CausalConvWithState"(%x, %w, %b) : (tensor<2x4x8xf32>, tensor<4x1x4xf32>, tensor<2x4x8xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}
}

// -----

// Hostile .pt2 seed 50: a pooling window longer than its padded input
// (torch refuses it; ONNX's size formula would give a negative dim).
func.func @maxpool_window_too_long(%x: tensor<2x4x8x8xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{its window spans 1000 elements along spatial axis 0 (kernel 1000, dilation 1), more than the padded input's 8}}
  %0 = "onnx.MaxPool"(%x) {kernel_shape = array<i64: 1000, 2>, strides = array<i64: 2, 2>} : (tensor<2x4x8x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The same for a convolution: a dilated 3x3 kernel spans 9 > 4 + 2 + 2.
func.func @conv_window_too_long(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{its window spans 9 elements along spatial axis 1 (kernel 3, dilation 4), more than the padded input's 8}}
  %0 = "onnx.Conv"(%x, %w) {dilations = array<i64: 1, 4>, pads = array<i64: 1, 2, 1, 2>} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile .onnx seed 50: one weight per class.
func.func @nll_weight_classes(%x: tensor<3x64x6x6xf32>, %t: tensor<3x6x6xi64>, %w: tensor<5xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{NegativeLogLikelihoodLoss's weight [5] has 5 entries for the 64 classes of its scores [3, 64, 6, 6]}}
  %0 = "onnx.NegativeLogLikelihoodLoss"(%x, %t, %w) {reduction = "sum"} : (tensor<3x64x6x6xf32>, tensor<3x6x6xi64>, tensor<5xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile .onnx seed 50: decay ends in kv_num_heads or kv_num_heads * d_k.
module attributes {onnx.opset = 27 : i64} {
func.func @linear_attention_decay(%q: tensor<2x1x32xf32>, %k: tensor<2x1x32xf32>, %v: tensor<2x1x32xf32>, %d: tensor<2x1x7xf32>) -> tensor<*xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{LinearAttention's decay [2, 1, 7] must end in kv_num_heads = 4 or kv_num_heads * d_k = 32}}
  %0:2 = "onnx.LinearAttention"(%q, %k, %v, %none, %d, %none) {q_num_heads = 4 : i64, kv_num_heads = 4 : i64, update_rule = "gated"} : (tensor<2x1x32xf32>, tensor<2x1x32xf32>, tensor<2x1x32xf32>, none, tensor<2x1x7xf32>, none) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}
}

// -----

// Hostile .onnx seed 51: Softmax normalizes along an axis; a 0-d input has
// none (the Sqrt of a head size mutated into a Softmax). Its rank comes from
// the Squeeze without axes of a [1] (every size-1 dim goes).
func.func @softmax_of_scalar(%x: tensor<1xf32>) -> tensor<*xf32> {
  %s = "onnx.Squeeze"(%x) : (tensor<1xf32>) -> tensor<*xf32>
  // expected-error @+1 {{Softmax needs an input of rank 1 or more, not a 0-d one}}
  %0 = "onnx.Softmax"(%s) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// (The axis range was already checked.)
func.func @softmax_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{attribute 'axis' = 2 is out of range for an input of rank 2 (expected [-2, 1])}}
  %0 = "onnx.LogSoftmax"(%x) {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Hostile .onnx seed 52: ConvTranspose's output_shape gives every spatial dim.
func.func @convtranspose_output_shape_length(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{ConvTranspose's output_shape [10] has 1 entries for the 2 spatial dims of its input [1, 1, 3, 3]}}
  %0 = "onnx.ConvTranspose"(%x, %w) {output_shape = array<i64: 10>, strides = array<i64: 3, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
