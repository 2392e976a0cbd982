// RUN: not aten-opt %s --split-input-file --pass-pipeline='builtin.module(convert-aten-to-onnx)' 2>&1 | FileCheck %s

// sym_storage_offset / sym_stride refuse what the capture's tensor meta
// cannot give: an unbacked symbol that is read, and a missing record.

// CHECK: the storage offset of 'self' is the symbolic `u4` in the capture, and `u4` is not a size of 'self'
func.func @offset_unbacked(%x: tensor<?x4xf32, ["u3"]>) -> i64 {
  %o = "aten.sym_storage_offset.default"(%x) {aten.self_strides = [4, 1], aten.self_storage_offset = "u4"} : (tensor<?x4xf32, ["u3"]>) -> i64
  return %o : i64
}

// -----

// CHECK: the strides of 'self' is not recorded on this op
func.func @stride_without_meta(%x: tensor<2x4xf32>) -> i64 {
  %s = "aten.sym_stride.int"(%x) {dim = 0 : i64} : (tensor<2x4xf32>) -> i64
  return %s : i64
}
