// A higher-order op without an ONNX lowering (errors.test).
module {
  func.func @forward(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = "aten.hop.flex_attention"(%x) ({
    ^bb0(%a: tensor<3xf32>):
      "aten.yield"(%a) : (tensor<3xf32>) -> ()
    }) {arg_names = ["query"], operandSegmentSizes = array<i32: 1>} : (tensor<3xf32>) -> tensor<3xf32> loc("flex_attention"("model.py":7:0))
    return %0 : tensor<3xf32>
  }
}
