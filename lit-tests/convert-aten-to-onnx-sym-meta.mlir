// RUN: aten-opt %s --split-input-file --pass-pipeline='builtin.module(convert-aten-to-onnx)' | FileCheck %s

// sym_stride / sym_storage_offset read the strides and storage offset the
// importer copied from the capture's tensor meta (aten.self_strides,
// aten.self_storage_offset): static -> a constant; a product of sizes of
// self -> built from the runtime shape; anything else -> refused.

// CHECK-LABEL: func.func @stride_static
// CHECK: "onnx.Constant"() {value = dense<1> : tensor<1xi64>}
func.func @stride_static(%x: tensor<?x4xf32, ["s0"]>) -> tensor<i64> {
  %s = "aten.sym_stride.int"(%x) {dim = -1 : i64, aten.self_strides = [4, 1], aten.self_storage_offset = 0 : i64} : (tensor<?x4xf32, ["s0"]>) -> i64
  %t = "aten.scalar_tensor.default"(%s) {dtype = i64} : (i64) -> tensor<i64>
  return %t : tensor<i64>
}

// -----

// A stride 4*s1 where dim 1 of self has the size 2*s1: Shape[1] / 2 * 4.
// CHECK-LABEL: func.func @stride_product
// CHECK: %[[D:.*]] = "onnx.Shape"(%arg0) {end = 2 : i64, start = 1 : i64}
// CHECK: %[[S:.*]] = "onnx.Div"(%[[D]],
// CHECK: "onnx.Mul"(%{{.*}}, %[[S]])
func.func @stride_product(%x: tensor<3x?x4xf32, ["2*s1"]>) -> tensor<i64> {
  %s = "aten.sym_stride.int"(%x) {dim = 0 : i64, aten.self_strides = ["4*s1", 4, 1], aten.self_storage_offset = 0 : i64} : (tensor<3x?x4xf32, ["2*s1"]>) -> i64
  %t = "aten.scalar_tensor.default"(%s) {dtype = i64} : (i64) -> tensor<i64>
  return %t : tensor<i64>
}

// -----

// CHECK-LABEL: func.func @offset_static
// CHECK: "onnx.Constant"() {value = dense<8> : tensor<1xi64>}
func.func @offset_static(%x: tensor<2x4xf32>) -> tensor<i64> {
  %s = "aten.sym_storage_offset.default"(%x) {aten.self_strides = [4, 1], aten.self_storage_offset = 8 : i64} : (tensor<2x4xf32>) -> i64
  %t = "aten.scalar_tensor.default"(%s) {dtype = i64} : (i64) -> tensor<i64>
  return %t : tensor<i64>
}

// -----

// An unbacked offset read only by an assertion: both are dropped.
// CHECK-LABEL: func.func @offset_only_asserted
// CHECK-NOT: sym_storage_offset
// CHECK: return
func.func @offset_only_asserted(%x: tensor<?x4xf32, ["u3"]>) -> tensor<?x4xf32, ["u3"]> {
  %o = "aten.sym_storage_offset.default"(%x) {aten.self_strides = [4, 1], aten.self_storage_offset = "u4"} : (tensor<?x4xf32, ["u3"]>) -> i64
  %z = "aten.sym.constant"() {value = 0 : i64} : () -> i64
  %c = "aten.sym.ge"(%o, %z) : (i64, i64) -> i1
  "aten._assert_scalar.default"(%c) {assert_msg = "u4 >= 0"} : (i1) -> ()
  return %x : tensor<?x4xf32, ["u3"]>
}

