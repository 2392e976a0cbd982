// Not a test on its own: input for errors.test (line 4 is broken).
func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "aten.relu.default"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "aten.relu.default"(%0 : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
