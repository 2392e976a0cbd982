// Project passes mix with upstream MLIR passes; nested anchors work;
// --mlir-print-ir-after-all prints the module after each pass on stderr.
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(dce, canonicalize), cse, aten-verify)' | FileCheck %s
// RUN: aten-opt %s --pass-pipeline='builtin.module(func.func(dce), aten-verify)' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=AFTER
// RUN: aten-opt --list-passes | FileCheck %s --check-prefix=LIST

// CHECK-LABEL: func.func @f
// CHECK-NOT: "aten.exp.default"
// CHECK: %[[R:.*]] = "aten.relu.default"(%arg0)
// CHECK-NEXT: return %[[R]]

// AFTER: // -----// IR Dump After dce (dce) ('func.func' operation: @f) //----- //
// AFTER: "aten.relu.default"
// AFTER: // -----// IR Dump After aten-verify (aten-verify) ('builtin.module' operation) //----- //

// LIST: aten-verify
// LIST: onnx-verify
// LIST: dce

func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "aten.exp.default"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "aten.relu.default"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
