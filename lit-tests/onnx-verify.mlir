// RUN: aten-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(onnx-verify)' --verify-each=false | FileCheck %s

// A well-formed module passes unchanged; the opset defaults to 23.
// CHECK-LABEL: func.func @valid
// CHECK: "onnx.LayerNormalization"
// CHECK-SAME: axis = -1 : i64
// CHECK: "onnx.Gelu"
func.func @valid(%x: tensor<2x4xf32>, %scale: tensor<4xf32>, %shape: tensor<2xi64>) -> tensor<4x2xf32> {
  %0 = "onnx.Add"(%x, %x) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = "onnx.LayerNormalization"(%0, %scale) {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = "onnx.Gelu"(%1) {approximate = "tanh"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = "onnx.Reshape"(%2, %shape) : (tensor<2x4xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return %3 : tensor<4x2xf32>
}

// -----

// An optional input left out in the middle is a `none` value.
// CHECK-LABEL: func.func @optional_inputs
// CHECK: "onnx.Clip"(%arg0, %0, %arg1)
func.func @optional_inputs(%x: tensor<3xf32>, %max: tensor<f32>) -> tensor<3xf32> {
  %none = "onnx.none"() : () -> none
  %0 = "onnx.Clip"(%x, %none, %max) : (tensor<3xf32>, none, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

module attributes {onnx.opset = 19 : i64} {
  func.func @not_at_opset(%x: tensor<2xf32>) -> tensor<2xf32> {
    // expected-error @+1 {{'onnx.Gelu' op does not exist at opset 19 (defined since opset 20)}}
    %0 = "onnx.Gelu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

// -----

func.func @unknown_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Frobnicate' op is not an ONNX op (domain ai.onnx, onnx 1.23.2)}}
  %0 = "onnx.Frobnicate"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @missing_required_attribute(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{misses required attribute 'to'}}
  %0 = "onnx.Cast"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @type_constraint(%a: tensor<2xf32>, %b: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{input #1 ('B') has type tensor(int64) but T is already bound to tensor(float)}}
  %0 = "onnx.Add"(%a, %b) : (tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @disallowed_type(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{input #0 ('X') has type tensor(bool), not allowed for T}}
  %0 = "onnx.Relu"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @input_count(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{has 1 inputs; Add takes 2}}
  %0 = "onnx.Add"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unknown_attribute(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{has unknown attribute 'alpha' (attributes: )}}
  %0 = "onnx.Relu"(%a) {alpha = 0.1 : f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @attribute_kind(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{attribute 'perm' must be Ints, got integer}}
  %0 = "onnx.Transpose"(%a) {perm = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// A Cast's `to` must name its result's element type (an imported model's
// edited `to`: 0 is no data type, 7 is int64).
func.func @cast_target(%a: tensor<2xf32>) -> tensor<2xf64> {
  // expected-error @+1 {{attribute 'to' = 0 is not the data type of its result (f64, data type 11)}}
  %0 = "onnx.Cast"(%a) {to = 0 : i64} : (tensor<2xf32>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

func.func @cast_target_other(%a: tensor<2xf32>) -> tensor<2xf64> {
  // expected-error @+1 {{attribute 'to' = 7 is not the data type of its result (f64, data type 11)}}
  %0 = "onnx.Cast"(%a) {to = 7 : i64} : (tensor<2xf32>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

// BitCast (opset 26) the same (hostile .onnx seed 35: `to = -9`).
module attributes {onnx.opset = 26 : i64} {
func.func @bitcast_target(%a: tensor<3xi64>) -> tensor<3xf64> {
  // expected-error @+1 {{attribute 'to' = -9 is not the data type of its result (f64, data type 11)}}
  %0 = "onnx.BitCast"(%a) {to = -9 : i64} : (tensor<3xi64>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}
}

// -----

// ConstantOfShape's result has its value's element type (float32 without
// one): hostile .onnx seed 41 declared bool for an int32 value.
func.func @constant_of_shape_type(%s: tensor<1xi64>) -> (tensor<3xi1>, tensor<3xf32>, tensor<3xi32>) {
  // expected-error @+1 {{result is data type 9 but the op computes data type 6 (its attribute 'value')}}
  %0 = "onnx.ConstantOfShape"(%s) {value = dense<1> : tensor<1xi32>} : (tensor<1xi64>) -> tensor<3xi1>
  %1 = "onnx.ConstantOfShape"(%s) : (tensor<1xi64>) -> tensor<3xf32>
  %2 = "onnx.ConstantOfShape"(%s) {value = dense<1> : tensor<1xi32>} : (tensor<1xi64>) -> tensor<3xi32>
  return %0, %1, %2 : tensor<3xi1>, tensor<3xf32>, tensor<3xi32>
}

// -----

// A window's result is float32 without output_datatype; an activation
// outside its list (hostile .onnx seed 44).
module attributes {onnx.opset = 27 : i64} {
func.func @window_type(%n: tensor<i64>) -> tensor<?xui8> {
  // expected-error @+1 {{result is data type 2 but the op computes data type 1 (float32 without 'output_datatype')}}
  %0 = "onnx.BlackmanWindow"(%n) : (tensor<i64>) -> tensor<?xui8>
  return %0 : tensor<?xui8>
}
}

// -----

// A training optimizer's new tensor has the type of the tensor it updates
// (hostile .onnx seed 44 declared Adagrad's H_new int64).
module attributes {onnx.opset = 18 : i64, onnx.opset_import = {"ai.onnx.preview.training" = 1 : i64}} {
func.func @adagrad_types(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %h: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi64>) {
  // expected-error @+1 {{result #1 is data type 7 but the tensor it updates (input #4) is data type 1}}
  %0:2 = "onnx.preview.training.Adagrad"(%r, %t, %x, %g, %h) : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi64>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xi64>
}
}

// -----

func.func @split_outputs(%a: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{attribute 'num_outputs' is 0; it must be at least 1 and equal its 2 result(s)}}
  %0:2 = "onnx.Split"(%a) {axis = 0 : i64, num_outputs = 0 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @conv_pads_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{attribute 'pads' has 6 values; an input of rank 4 needs 4}}
  %0 = "onnx.Conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @flag_attribute(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{attribute 'keepdims' is 5; it must be 0 or 1}}
  %0 = "onnx.ReduceMax"(%x) {keepdims = 5 : i64} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @enum_attribute(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{attribute 'auto_pad' is "bogus"; it must be one of NOTSET, SAME_UPPER, SAME_LOWER, VALID}}
  %0 = "onnx.MaxPool"(%x) {auto_pad = "bogus", kernel_shape = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @concrete_input_type(%x: tensor<2x3xf32>, %axes: tensor<1xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{input #1 ('axes') has type tensor<1xf32>; it must be tensor(int64)}}
  %0 = "onnx.ReduceSum"(%x, %axes) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @required_input_missing(%x: tensor<2x3xf32>) -> tensor<2x3xi1> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{input #0 ('A') is required but not given}}
  %0 = "onnx.Greater"(%none, %x) : (none, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// -----

func.func @variadic_input_empty(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{input #0 (of the variadic 'data_0') is empty}}
  %0 = "onnx.Min"(%none, %x) : (none, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @resize_scales_and_sizes(%x: tensor<1x1x2x2xf32>, %scales: tensor<4xf32>, %sizes: tensor<4xi64>) -> tensor<1x1x4x4xf32> {
  %none = "onnx.none"() : () -> none
  // expected-error @+1 {{must be given exactly one of 'scales' (input #2) and 'sizes' (input #3)}}
  %0 = "onnx.Resize"(%x, %none, %scales, %sizes) {mode = "nearest"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, tensor<4xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

func.func @split_twice(%x: tensor<6xf32>, %split: tensor<2xi64>) -> (tensor<3xf32>, tensor<3xf32>) {
  // expected-error @+1 {{is given both a 'split' input and a 'num_outputs' attribute}}
  %0:2 = "onnx.Split"(%x, %split) {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<6xf32>, tensor<2xi64>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf32>
}

// -----

func.func @attention_heads(%q: tensor<1x4x8xf32>, %k: tensor<1x4x8xf32>, %v: tensor<1x4x8xf32>) -> tensor<1x4x8xf32> {
  // expected-error @+1 {{attribute 'q_num_heads' is -1; it must be positive}}
  %0 = "onnx.Attention"(%q, %k, %v) {q_num_heads = -1 : i64, kv_num_heads = 2 : i64} : (tensor<1x4x8xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  return %0 : tensor<1x4x8xf32>
}

// -----

func.func @maxunpool_strides_length(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{attribute 'strides' has 1 values; an input of rank 4 needs 2}}
  %0 = "onnx.MaxUnpool"(%x, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}
