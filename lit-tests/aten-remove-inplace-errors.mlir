// RUN: aten-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(aten-remove-inplace)'

func.func @inside_region(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "aten.hop.cond"(%p, %x) ({
  ^bb0(%a: tensor<2xf32>):
    // A write to what the branch receives (an outer value) is refused; writes to
    // tensors the branch creates are rewritten (aten-remove-inplace.mlir).
    // expected-error @+1 {{'aten.relu_.default' op writes argument 'self', a tensor from outside this region of a higher-order op}}
    %e = "aten.relu_.default"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    "aten.yield"(%e) : (tensor<2xf32>) -> ()
  }, {
  ^bb0(%a: tensor<2xf32>):
    "aten.yield"(%a) : (tensor<2xf32>) -> ()
  }) {arg_names = ["pred", "operands"], operandSegmentSizes = array<i32: 1, 1>} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @aliasing(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // Metadata changes (`t_`, `unsqueeze_`, ...) are rebound as views
  // (aten-remove-inplace.mlir); making two tensors share storage is refused.
  // expected-error @+1 {{'aten.set_.source_Tensor' is not supported: makes the tensor share another tensor's storage}}
  %0 = "aten.set_.source_Tensor"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %x : tensor<2x3xf32>
}

// -----

func.func @tensor_lists(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'aten._foreach_add_.Scalar' is not supported: writes lists of tensors in place}}
  "aten._foreach_add_.Scalar"(%x, %y) {operandSegmentSizes = array<i32: 2, 0>, scalar = 1.0 : f64} : (tensor<2xf32>, tensor<2xf32>) -> ()
  return %x : tensor<2xf32>
}

// -----

func.func @no_inverse(%x: tensor<2x3xf32>, %y: tensor<6x2xf32>) -> tensor<2x3xf32> {
  %e = "aten.expand.default"(%x) {size = array<i64: 6, 2, 3>, implicit = false} : (tensor<2x3xf32>) -> tensor<6x2x3xf32>
  // expected-error @+1 {{cannot write through the view 'aten.expand.default' (no inverse)}}
  %0 = "aten.fill_.Scalar"(%e) {value = 0.0 : f64} : (tensor<6x2x3xf32>) -> tensor<6x2x3xf32>
  return %x : tensor<2x3xf32>
}
