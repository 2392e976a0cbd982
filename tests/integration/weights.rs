//! Weight transforms done by the writer (issue 8, item 2): the
//! `onnx.weight_transform` op (passes/ir/src/onnx_ir.rs), the rules that make
//! them (optimizer families `weights` and `conv`, tested with every eqsat
//! rule in `optimizer.rs`), the `onnx-fuse-weights` pass, and the writer
//! (src/export/transform.rs).
//!
//! - `onnx-fuse-weights` on its lit cases, exported before and after and run
//!   in onnxruntime (the weights of `tests/fixtures/optimizer/weights.pt2`);
//! - the written model holds the concatenated weight and not its parts;
//! - the corpus: resnet18 has no BatchNormalization left and llama no
//!   Transpose of a weight (their numbers: `parity`, `corpus_with_eqsat_matches_eager`).

use crate::optimizer::{compare, export, inputs_for, outputs};
use aten2onnx_passes::optimizer::rules::weights::EXAMPLE_ARCHIVE;
use onnx_protobuf::{Message, ModelProto};
use std::path::Path;

const FUSE: &str = "builtin.module(func.func(onnx-fuse-weights))";

/// The `@qkv`, `@gqa`, `@gemm` and `@qkv_bias` cases of lit-tests/onnx-fuse-weights.mlir, reading
/// the fixture's weights.
fn cases() -> Vec<(&'static str, String)> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lit-tests/onnx-fuse-weights.mlir"))
        .expect("lit-tests/onnx-fuse-weights.mlir");
    let archive = format!("onnx.opset = 23 : i64, aten.archive = \"{EXAMPLE_ARCHIVE}\"");
    text.split("// -----")
        .filter_map(|chunk| {
            let start = chunk.find("module attributes")?;
            let module = chunk[start..].replacen("onnx.opset = 23 : i64", &archive, 1);
            ["qkv", "gqa", "gemm", "qkv_bias"]
                .into_iter()
                .find(|n| module.contains(&format!("func.func @{n}(")))
                .map(|n| (n, module))
        })
        .collect()
}

#[test]
fn fuse_weights_keeps_the_numbers() {
    let Some(env) = crate::parity::environment() else {
        crate::parity::ort_missing();
        return;
    };
    let dir = crate::scratch_dir("fuse_weights");
    let cases = cases();
    assert_eq!(cases.len(), 4, "the @qkv, @gqa, @gemm and @qkv_bias cases of lit-tests/onnx-fuse-weights.mlir");
    for (name, input) in cases {
        let output = crate::run_pipeline(&input, FUSE).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(output.contains("onnx.fuse_weights = 1"), "{name} was not fused:\n{output}");
        let (before, after) = (dir.join(format!("{name}.before.onnx")), dir.join(format!("{name}.after.onnx")));
        export(&input, &before);
        export(&output, &after);
        for seed in 0..2u64 {
            let inputs = inputs_for(&input, 0x5EED ^ seed, seed == 1);
            compare(
                &format!("onnx-fuse-weights {name} (input set {seed})"),
                &outputs(env, &before, &inputs),
                &outputs(env, &after, &inputs),
            );
        }
        // The concatenated weight is written, its parts (used only by the
        // concat) are not (other initializers: constants, such as the Split
        // sizes, which the writer makes initializers).
        let model = ModelProto::parse_from_bytes(&std::fs::read(&after).unwrap()).unwrap();
        let concats: Vec<_> = model.graph.initializer.iter().filter(|t| t.name.ends_with(".concat")).collect();
        let others: Vec<&str> = model
            .graph
            .initializer
            .iter()
            .map(|t| t.name.as_str())
            .filter(|n| !n.ends_with(".concat") && n.ends_with(".weight"))
            .collect();
        assert!(!concats.is_empty() && others.iter().all(|n| *n == "fc.weight"), "{name}: {others:?}");
        for t in concats {
            assert_eq!(t.raw_data.len() as i64, 4 * t.dims.iter().product::<i64>(), "{name}");
        }
    }
}

/// A weight used as it is and through a transform is written once as it is
/// and once transformed; a transform of a transform writes only the outer one.
#[test]
fn writer_writes_the_weights_the_graph_reads() {
    let dir = crate::scratch_dir("weight_transform_writer");
    let module = format!(
        r#"module attributes {{onnx.opset = 23 : i64, aten.archive = "{EXAMPLE_ARCHIVE}"}} {{
func.func @forward(%x: tensor<2x4xf32>) -> (tensor<2x5xf32>, tensor<2x4xf32>, tensor<2x3xf32>) {{
  %w = "onnx.initializer"() {{name = "fc.weight"}} : () -> tensor<5x4xf32>
  %t = "onnx.weight_transform"(%w) {{kind = "transpose", perm = array<i64: 1, 0>}} : (tensor<5x4xf32>) -> tensor<4x5xf32>
  %0 = "onnx.MatMul"(%x, %t) : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  %1 = "onnx.MatMul"(%0, %w) : (tensor<2x5xf32>, tensor<5x4xf32>) -> tensor<2x4xf32>
  %h = "onnx.initializer"() {{name = "h16.weight"}} : () -> tensor<3x4xf16>
  %c = "onnx.weight_transform"(%h) {{kind = "cast"}} : (tensor<3x4xf16>) -> tensor<3x4xf32>
  %ct = "onnx.weight_transform"(%c) {{kind = "transpose", perm = array<i64: 1, 0>}} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %2 = "onnx.MatMul"(%x, %ct) : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<2x5xf32>, tensor<2x4xf32>, tensor<2x3xf32>
}}
}}"#
    );
    let path = dir.join("model.onnx");
    export(&module, &path);
    let model = ModelProto::parse_from_bytes(&std::fs::read(&path).unwrap()).unwrap();
    let mut names: Vec<&str> = model.graph.initializer.iter().map(|t| t.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["fc.weight", "fc.weight.transpose", "h16.weight.cast.transpose"]);
    // The transposed weight is the stored one transposed (row-major [4, 5]).
    let get = |name: &str| {
        let t = model.graph.initializer.iter().find(|t| t.name == name).unwrap();
        t.raw_data.chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect::<Vec<f32>>()
    };
    let (w, t) = (get("fc.weight"), get("fc.weight.transpose"));
    for i in 0..5 {
        for j in 0..4 {
            assert_eq!(w[i * 4 + j].to_bits(), t[j * 5 + i].to_bits());
        }
    }
    assert_eq!(get("h16.weight.cast.transpose").len(), 12);
}

/// The corpus after the main pipeline: no BatchNormalization in resnet18 (all
/// folded into the Convs), no Transpose reading a weight in llama.
#[test]
fn corpus_weight_transforms() {
    let dir = crate::scratch_dir("corpus_weight_transforms");
    for (model, banned) in [("resnet18", "BatchNormalization"), ("llama", "Transpose")] {
        let out = dir.join(format!("{model}.onnx"));
        let input = format!("tests/corpus/{model}/model.pt2");
        aten2onnx::translate::convert(&input, &out, &Default::default()).unwrap_or_else(|e| panic!("{model}: {e}"));
        let proto = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let inits: std::collections::HashSet<&str> = proto.graph.initializer.iter().map(|t| t.name.as_str()).collect();
        let bad: Vec<&str> = proto
            .graph
            .node
            .iter()
            .filter(|n| n.op_type == banned && (banned == "BatchNormalization" || inits.contains(n.input[0].as_str())))
            .map(|n| n.name.as_str())
            .collect();
        assert!(bad.is_empty(), "{model}: {banned} left: {bad:?}");
        assert!(proto
            .graph
            .initializer
            .iter()
            .any(|t| t.name.contains(".conv_bn_weight") || t.name.contains(".transpose")));
    }
}
