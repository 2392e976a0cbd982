//! Captures from a torch newer than the pinned one (the registries and the
//! libtorch reference are torch 2.13; users capture with 2.15): where torch
//! changed an op's semantics, the capture's own types decide. Each case is
//! a program as torch 2.15 exports it, checked against 2.15's eager values
//! (recorded here, since the test machine runs the pinned torch).

use aten2onnx::translate::{self, ConvertOptions};

/// torch 2.15 computes the length of an integer `arange` from the float
/// bounds (`arange(-2.5, 3, 1.5, dtype=int64)` is `[-2, -1, 0, 1]`; torch
/// 2.13 truncates the end first and gives 5 elements), and a step that
/// truncates to 0 is allowed (`arange(0.2, 4, 0.9, dtype=int64)` is four 0s).
#[test]
fn integer_arange_length_follows_the_capture() {
    let dir = crate::scratch_dir("version_skew");
    let mlir = dir.join("arange215.mlir");
    std::fs::write(
        &mlir,
        r#"module attributes {aten.torch_version = "2.15.0+cu132"} {
  func.func @forward(%x: tensor<3xf32> {aten.name = "x"}) -> (tensor<4xi64>, tensor<5xi64>, tensor<4xi64>, tensor<3xf32>) {
    %0 = "aten.arange.start_step"() {dtype = i64, end = 3 : i64, start = -2.500000e+00 : f64, step = 1.500000e+00 : f64} : () -> tensor<4xi64>
    %1 = "aten.arange.start_step"() {dtype = i64, end = -3.900000e+00 : f64, start = 3 : i64, step = -1.500000e+00 : f64} : () -> tensor<5xi64>
    %2 = "aten.arange.start_step"() {dtype = i64, end = 4 : i64, start = 2.000000e-01 : f64, step = 9.000000e-01 : f64} : () -> tensor<4xi64>
    %3 = "aten.mul.Tensor"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    return %0, %1, %2, %3 : tensor<4xi64>, tensor<5xi64>, tensor<4xi64>, tensor<3xf32>
  }
}"#,
    )
    .unwrap();
    let onnx = dir.join("arange215.onnx");
    translate::convert(mlir.to_str().unwrap(), &onnx, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let x = tch::Tensor::from_slice(&[1.0f32, 2.0, 3.0]);
    let got = aten2onnx::verify::run_onnx(&onnx, &[x]).unwrap_or_else(|e| panic!("{e}"));
    let values = |i: usize| Vec::<i64>::try_from(&got[i].1).unwrap();
    // torch 2.15.0's eager results.
    assert_eq!(values(0), vec![-2, -1, 0, 1]);
    assert_eq!(values(1), vec![3, 2, 1, 0, -1]);
    assert_eq!(values(2), vec![0, 0, 0, 0]);
}
