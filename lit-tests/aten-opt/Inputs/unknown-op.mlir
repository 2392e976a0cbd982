// Not a test on its own: input for errors.test.
func.func @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "aten.frobnicate.default"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
