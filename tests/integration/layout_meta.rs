//! Numeric checks of the rules that read a tensor's recorded layout
//! (`aten.self_strides` / `aten.self_storage_offset`, copied by the importer
//! from the capture's tensor meta) where no capture can hold the op:
//! torch.export rewrites `x.stride(d)` into `sym_size` arithmetic, so
//! `aten.sym_stride.int` only reaches the converter from other front ends
//! (hand-written or generated `.mlir`, future exporters). The expected
//! values are libtorch's strides of a tensor of the same sizes.

use aten2onnx::translate::{self, ConvertOptions};

/// A static stride becomes a constant; a symbolic one (`8*s1` for a dim of
/// size `2*s1`) is computed from the runtime shape. Both must equal
/// libtorch's stride at the sizes the model runs with.
#[test]
fn sym_stride_matches_libtorch() {
    let dir = crate::scratch_dir("layout_meta");
    let mlir = dir.join("sym_stride.mlir");
    std::fs::write(
        &mlir,
        r#"func.func @forward(%x: tensor<3x?x4xf32, ["2*s1"]> {aten.name = "x"}) -> (tensor<i64>, tensor<i64>, tensor<i64>) {
  %s0 = "aten.sym_stride.int"(%x) {dim = 0 : i64, aten.self_strides = ["8*s1", 4, 1], aten.self_storage_offset = 0 : i64} : (tensor<3x?x4xf32, ["2*s1"]>) -> i64
  %s1 = "aten.sym_stride.int"(%x) {dim = -2 : i64, aten.self_strides = ["8*s1", 4, 1], aten.self_storage_offset = 0 : i64} : (tensor<3x?x4xf32, ["2*s1"]>) -> i64
  %s2 = "aten.sym_stride.int"(%x) {dim = 2 : i64, aten.self_strides = ["8*s1", 4, 1], aten.self_storage_offset = 0 : i64} : (tensor<3x?x4xf32, ["2*s1"]>) -> i64
  %t0 = "aten.scalar_tensor.default"(%s0) {dtype = i64} : (i64) -> tensor<i64>
  %t1 = "aten.scalar_tensor.default"(%s1) {dtype = i64} : (i64) -> tensor<i64>
  %t2 = "aten.scalar_tensor.default"(%s2) {dtype = i64} : (i64) -> tensor<i64>
  return %t0, %t1, %t2 : tensor<i64>, tensor<i64>, tensor<i64>
}"#,
    )
    .unwrap();
    let onnx = dir.join("sym_stride.onnx");
    translate::convert(mlir.to_str().unwrap(), &onnx, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    for rows in [2i64, 6, 10] {
        let x = tch::Tensor::zeros([3, rows, 4], (tch::Kind::Float, tch::Device::Cpu));
        let expected = x.stride();
        let got = aten2onnx::verify::run_onnx(&onnx, &[x]).unwrap_or_else(|e| panic!("{e}"));
        let got: Vec<i64> = got.iter().map(|(_, t)| t.int64_value(&[])).collect();
        assert_eq!(got, expected, "strides of a [3, {rows}, 4] tensor");
    }
}
