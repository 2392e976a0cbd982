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
