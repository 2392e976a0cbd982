//! The error catalogue (issue 9, item 3): one test per class of bad input to
//! `aten-translate --to-onnx` (and `aten-opt` for pipelines). Each asserts the
//! message, exit code 1, that nothing is left behind (no output, no partial or
//! data file) and, where there is an input file, that it is untouched.
//! docs/errors.md lists the classes with example messages.

use crate::errors::{
    assert_fails, mutated_fixture, node, root, run, to_onnx_fails, zip_writer, ATEN_OPT, ATEN_TRANSLATE,
};
use crate::{fixture, scratch_dir};
use std::path::{Path, PathBuf};

/// `dir/input.pt2` made of the fixture's members after `edit`.
fn edited_members(dir: &Path, fixture_name: &str, edit: impl FnOnce(&mut Vec<zip_writer::Member>)) -> PathBuf {
    let archive = aten2onnx_pt2::Archive::open(root().join(fixture(fixture_name))).unwrap();
    let mut members = zip_writer::members_of(&archive);
    edit(&mut members);
    let path = dir.join("input.pt2");
    std::fs::write(&path, zip_writer::write_zip(&members, zip_writer::ZipOptions { zip64: false, align: true }))
        .unwrap();
    path
}

fn with_mlir(test: &str, text: &str) -> PathBuf {
    let dir = scratch_dir(test);
    std::fs::write(dir.join("input.mlir"), text).unwrap();
    dir
}

#[test]
fn missing_file() {
    let dir = scratch_dir("catalogue-missing");
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.pt2", "-o", "model.onnx"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("input.pt2") && message.contains("No such file"), "{message}");
}

#[test]
fn not_a_zip() {
    let dir = scratch_dir("catalogue-not-a-zip");
    std::fs::write(dir.join("input.pt2"), b"this is not a zip archive, just text\n".repeat(20)).unwrap();
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("not a ZIP archive"), "{message}");
}

/// The archive cut at offsets spread over the whole file (headers, weights,
/// the JSON, the central directory): every one is a clean error.
#[test]
fn truncated_archive_at_any_offset() {
    let full = std::fs::read(root().join(fixture("mlp"))).unwrap();
    let dir = scratch_dir("catalogue-truncated");
    let n = full.len();
    let mut offsets: Vec<usize> = (0..24).map(|i| i * n / 24).collect();
    offsets.extend([1, 4, 30, n - 22, n - 1]);
    for cut in offsets {
        std::fs::write(dir.join("input.pt2"), &full[..cut]).unwrap();
        let message = to_onnx_fails(&dir, "input.pt2");
        assert!(
            message.contains("truncated") || message.contains("not a ZIP") || message.contains("corrupt"),
            "cut at {cut} of {n}: {message}"
        );
    }
}

/// torch <= 2.8 stored weights as one pickled `model.pt`: the message says
/// which torch to re-export with.
#[test]
fn legacy_pickled_weight_layout() {
    let dir = scratch_dir("catalogue-legacy");
    edited_members(&dir, "mlp", |members| {
        members.retain(|m| !m.name.ends_with("model_weights_config.json") && !m.name.contains("data/weights/weight_"));
        members.push(zip_writer::Member::new("mlp/data/weights/model.pt", b"PK\x03\x04pickled".to_vec()));
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("legacy pickled format") && message.contains("torch <= 2.8"), "{message}");
    assert!(message.contains("re-export the program with torch 2.9 or newer"), "{message}");
}

#[test]
fn unsupported_schema_major_version() {
    let dir = scratch_dir("catalogue-schema");
    mutated_fixture("mlp", &dir, |model, _| model["schema_version"]["major"] = 99.into());
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("unsupported export schema version 99"), "{message}");
}

#[test]
fn missing_and_ill_typed_json_fields() {
    let dir = scratch_dir("catalogue-json-missing");
    mutated_fixture("mlp", &dir, |model, _| {
        node(model, "relu").as_object_mut().unwrap().remove("target");
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("relu") && message.contains("target"), "names the node and field: {message}");

    let dir = scratch_dir("catalogue-json-type");
    mutated_fixture("mlp", &dir, |model, _| node(model, "relu")["target"] = 5.into());
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("relu") && message.contains("target"), "names the node and field: {message}");
}

/// A weight whose bytes are fewer than its sizes and dtype need.
#[test]
fn weights_shorter_than_their_metadata() {
    let dir = scratch_dir("catalogue-short-weight");
    edited_members(&dir, "mlp", |members| {
        let weight = members.iter_mut().find(|m| m.name.ends_with("data/weights/weight_0")).unwrap();
        weight.data.truncate(weight.data.len() / 2);
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("weight") && message.contains("bytes"), "{message}");
}

#[test]
fn unknown_op() {
    let dir = scratch_dir("catalogue-unknown-op");
    mutated_fixture("mlp", &dir, |model, _| node(model, "relu")["target"] = "torch.ops.aten.not_an_op.default".into());
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("not_an_op") && message.contains("node 'relu'"), "{message}");
}

/// A torchao model exported without `unwrap_tensor_subclass` reads its
/// quantized weights through `export::access_subclass_inner_tensor`: the
/// message says what to call, not only that the op has no translation.
#[test]
fn tensor_subclasses_not_flattened() {
    let dir = scratch_dir("catalogue-tensor-subclass");
    mutated_fixture("mlp", &dir, |model, _| {
        node(model, "relu")["target"] = "torch.ops.export.access_subclass_inner_tensor.default".into()
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("unwrap_tensor_subclass") && message.contains("node 'relu'"), "{message}");
}

/// Ops with no lowering are all listed at once, with counts and the Python
/// source line of the first.
#[test]
fn ops_without_a_lowering_are_listed_with_counts_and_lines() {
    let dir = scratch_dir("catalogue-no-lowering");
    mutated_fixture("mlp", &dir, |model, _| {
        let relu = node(model, "relu");
        relu["target"] = "torch.ops.aten.fbgemm_pack_gemm_matrix_fp16.default".into();
        relu["inputs"][0]["name"] = "input".into();
    });
    let message = to_onnx_fails(&dir, "input.pt2");
    assert!(message.contains("aten.fbgemm_pack_gemm_matrix_fp16.default: 1x, e.g. node 'relu' at "), "{message}");
    assert!(message.contains("tools/capture_fixtures.py:"), "the Python source line: {message}");

    let dir = with_mlir(
        "catalogue-no-lowering-mlir",
        r#"func.func @forward(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %0 = "aten.fbgemm_pack_gemm_matrix_fp16.default"(%x) : (tensor<4x4xf16>) -> tensor<4x4xf16> loc("a.py":3:0)
  %1 = "aten.fbgemm_pack_gemm_matrix_fp16.default"(%0) : (tensor<4x4xf16>) -> tensor<4x4xf16> loc("a.py":4:0)
  %2 = "aten.fbgemm_pack_quantized_matrix.default"(%1) : (tensor<4x4xf16>) -> tensor<4x4xf16> loc("a.py":5:0)
  return %2 : tensor<4x4xf16>
}
"#,
    );
    let message = to_onnx_fails(&dir, "input.mlir");
    assert!(message.contains("3 op(s) of 2 kind(s)"), "{message}");
    assert!(message.contains("aten.fbgemm_pack_gemm_matrix_fp16.default: 2x"), "{message}");
    assert!(message.contains("a.py:3"), "{message}");
}

/// An inplace op with no functional form (`set_` makes two tensors share
/// storage) is refused with the reason; metadata changes such as `t_` are
/// rebound as views (lit-tests/aten-remove-inplace.mlir).
#[test]
fn unremovable_inplace_op() {
    let dir = with_mlir(
        "catalogue-inplace",
        r#"func.func @forward(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "aten.set_.source_Tensor"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"#,
    );
    let message = to_onnx_fails(&dir, "input.mlir");
    assert!(
        message.contains("aten.set_.source_Tensor") && message.contains("share another tensor's storage"),
        "{message}"
    );
    assert!(message.contains("input.mlir:2"), "the location: {message}");
}

/// float8 exists from opset 19 (IR 9) on: at opset 17 the model would be
/// invalid, so it is refused with the opset to use.
#[test]
fn dtype_not_representable_at_the_target_opset() {
    let dir = with_mlir(
        "catalogue-dtype-opset",
        r#"func.func @forward(%x: tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN> {
  %0 = "aten.clone.default"(%x) : (tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}
"#,
    );
    let before = std::fs::read(dir.join("input.mlir")).unwrap();
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "model.onnx", "--opset", "17"]);
    let message = assert_fails(&output, &dir);
    assert!(message.contains("float8e4m3fn") && message.contains("--opset 19 or later"), "{message}");
    assert_eq!(std::fs::read(dir.join("input.mlir")).unwrap(), before);
    // At opset 19 the same module converts.
    let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.mlir", "-o", "model.onnx", "--opset", "19"]);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    std::fs::remove_file(dir.join("model.onnx")).unwrap();
}

#[test]
fn bad_opset() {
    let dir = scratch_dir("catalogue-opset");
    std::fs::copy(root().join(fixture("mlp")), dir.join("input.pt2")).unwrap();
    for (opset, expect) in [("16", "outside the supported range 17..28"), ("29", "outside"), ("abc", "invalid value")] {
        let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.pt2", "-o", "model.onnx", "--opset", opset]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains(expect), "--opset {opset}: {message}");
    }
}

#[test]
fn malformed_mlir() {
    let dir = with_mlir(
        "catalogue-malformed-mlir",
        "func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %y\n",
    );
    let message = to_onnx_fails(&dir, "input.mlir");
    assert!(message.contains("input.mlir:2"), "file and line: {message}");
}

#[test]
fn unknown_pass_or_bad_option_in_a_pipeline() {
    let dir = with_mlir(
        "catalogue-pipeline",
        "func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %x : tensor<2xf32>\n}\n",
    );
    for (pipeline, expect) in [
        ("builtin.module(no-such-pass)", "no-such-pass"),
        ("builtin.module(convert-aten-to-onnx{opset=abc})", "opset"),
        ("builtin.module(convert-aten-to-onnx{nonsense=1})", "nonsense"),
    ] {
        let output = run(ATEN_OPT, &dir, &["input.mlir", &format!("--pass-pipeline={pipeline}"), "-o", "out.mlir"]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains(expect), "{pipeline}: {message}");
    }
}

/// An output in a missing directory, or under a regular file: the message
/// names the output path; nothing is written anywhere.
#[test]
fn unwritable_output() {
    let dir = scratch_dir("catalogue-unwritable");
    std::fs::copy(root().join(fixture("mlp")), dir.join("input.pt2")).unwrap();
    std::fs::write(dir.join("input-file"), b"x").unwrap();
    for out in ["no-such-dir/model.onnx", "input-file/model.onnx"] {
        let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.pt2", "-o", out]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains(out), "names the output: {message}");
        assert!(!message.contains("internal error"), "{message}");
    }
    assert!(!dir.join("no-such-dir").exists());
}

#[test]
fn output_equal_to_input() {
    let dir = scratch_dir("catalogue-output-is-input");
    std::fs::copy(root().join(fixture("mlp")), dir.join("input.pt2")).unwrap();
    let before = std::fs::read(dir.join("input.pt2")).unwrap();
    for out in ["input.pt2", "./input.pt2"] {
        let output = run(ATEN_TRANSLATE, &dir, &["--to-onnx", "input.pt2", "-o", out]);
        let message = assert_fails(&output, &dir);
        assert!(message.contains("input"), "{message}");
        assert_eq!(std::fs::read(dir.join("input.pt2")).unwrap(), before, "the input is untouched");
    }
}

/// Hostile `onnx.weight_transform`s (issue 9): a `slice` out of range, of
/// the wrong rank or dtype, and a chain or DAG of transforms too large to
/// compute (it grew the writer's memory cubically / exponentially: a 5,000
/// long chain took over 18 GB) are clean errors naming the op.
#[test]
fn hostile_weight_transforms() {
    let archive = root().join(fixture("mlp"));
    let module = |ret: &str, body: &str| {
        format!(
            "module attributes {{aten.archive = \"{}\", onnx.opset = 23 : i64}} {{\nfunc.func @forward() -> {ret} {{\n  %w = \"onnx.initializer\"() {{name = \"fc1.weight\"}} : () -> tensor<16x8xf32>\n{body}\n  }}\n}}\n",
            archive.display()
        )
    };
    let slice = |attrs: &str, ty: &str| {
        module(
            ty,
            &format!("  %s = \"onnx.weight_transform\"(%w) {{kind = \"slice\", {attrs}}} : (tensor<16x8xf32>) -> {ty}\n  return %s : {ty}"),
        )
    };
    let mut cases = vec![
        ("slice-start", slice("axis = 0 : i64, start = 13 : i64", "tensor<4x8xf32>"), "slice of [16, 8]"),
        ("slice-neg-start", slice("axis = 0 : i64, start = -4 : i64", "tensor<4x8xf32>"), "slice of [16, 8]"),
        (
            "slice-max-start",
            slice("axis = 0 : i64, start = 9223372036854775807 : i64", "tensor<4x8xf32>"),
            "slice of [16, 8]",
        ),
        (
            "slice-axis",
            slice("axis = -9223372036854775808 : i64, start = 0 : i64", "tensor<4x8xf32>"),
            "slice of [16, 8]",
        ),
        ("slice-rank", slice("axis = 0 : i64, start = 0 : i64", "tensor<f32>"), "slice of [16, 8]"),
        ("slice-dtype", slice("axis = 0 : i64, start = 0 : i64", "tensor<4x8xi64>"), "data type"),
        ("slice-dynamic", slice("axis = 0 : i64, start = 0 : i64", "tensor<?x8xf32>"), "static tensor type"),
    ];
    let mut chain = String::new();
    let mut prev = "%w".to_string();
    for i in 0..300 {
        chain += &format!("  %t{i} = \"onnx.weight_transform\"({prev}) {{kind = \"slice\", axis = 0 : i64, start = 0 : i64}} : (tensor<16x8xf32>) -> tensor<16x8xf32>\n");
        prev = format!("%t{i}");
    }
    chain += &format!("  return {prev} : tensor<16x8xf32>");
    cases.push(("chain", module("tensor<16x8xf32>", &chain), "tree of"));
    let (mut dag, mut prev, mut c) = (String::new(), "%w".to_string(), 8u64);
    for i in 0..40 {
        dag += &format!("  %c{i} = \"onnx.weight_transform\"({prev}, {prev}) {{kind = \"concat\", axis = 1 : i64}} : (tensor<16x{c}xf32>, tensor<16x{c}xf32>) -> tensor<16x{}xf32>\n", 2 * c);
        prev = format!("%c{i}");
        c *= 2;
    }
    dag += &format!("  return {prev} : tensor<16x{c}xf32>");
    cases.push(("dag", module(&format!("tensor<16x{c}xf32>"), &dag), "tree of"));
    for (name, text, expected) in cases {
        let dir = with_mlir(&format!("catalogue-weight-transform-{name}"), &text);
        let message = to_onnx_fails(&dir, "input.mlir");
        assert!(message.contains(expected) && message.contains("weight_transform"), "{name}: {message}");
    }
}

/// Hostile options of the new surface (issue 9): `--decompose` names that
/// are not op names (an empty one swallowed the pipeline's next option; a
/// `}` could splice passes in), and a `--report` into a missing directory
/// (it failed after the model was written, leaving it behind with exit 1).
#[test]
fn hostile_decompose_and_report_options() {
    for (i, names) in ["", "aten.gelu.default}", "aten.gelu.default opset=17", ",,"].iter().enumerate() {
        let dir = scratch_dir(&format!("catalogue-decompose-{i}"));
        let output = run(
            ATEN_TRANSLATE,
            &dir,
            &["--to-onnx", root().join(fixture("mlp")).to_str().unwrap(), "-o", "model.onnx", "--decompose", names],
        );
        let message = assert_fails(&output, &dir);
        assert!(message.contains("--decompose") && message.contains("not an aten op name"), "{names:?}: {message}");
    }
    let dir = scratch_dir("catalogue-report-missing-dir");
    let mlp = root().join(fixture("mlp")).to_str().unwrap().to_string();
    for extra in [&["--stats"][..], &["--verify", "--target", "onnxruntime"][..]] {
        let mut args = vec!["--to-onnx", mlp.as_str(), "-o", "model.onnx", "--report", "no-such-dir/report.json"];
        args.extend(extra);
        let output = run(ATEN_TRANSLATE, &dir, &args);
        let message = assert_fails(&output, &dir);
        assert!(message.contains("no-such-dir"), "{message}");
    }
}

/// A recurrent cell with a bias torch broadcasts but ONNX cannot take
/// (sample fuzz: `rnn_tanh_cell` with `b_hh: T[2,4]` gave a model
/// onnxruntime rejects) is a clean refusal naming the op.
#[test]
fn rnn_cell_with_a_broadcast_bias() {
    let dir = with_mlir(
        "catalogue-rnn-cell-bias",
        "func.func @forward(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %wi: tensor<4x3xf32>, %wh: tensor<4x4xf32>, %bi: tensor<4xf32>, %bh: tensor<2x4xf32>) -> tensor<2x4xf32> {\n  %0 = \"aten.rnn_tanh_cell.default\"(%x, %h, %wi, %wh, %bi, %bh) : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>\n  return %0 : tensor<2x4xf32>\n}\n",
    );
    let message = to_onnx_fails(&dir, "input.mlir");
    assert!(message.contains("aten.rnn_tanh_cell.default") && message.contains("b_hh"), "{message}");
}

/// A negative `operandSegmentSizes` entry on a higher-order op
/// (hostile_inputs.py: `cond` with `array<i32: 1, -1>`) overflowed the
/// segment arithmetic of the control-flow lowering (a caught panic).
#[test]
fn negative_operand_segment_size_on_cond() {
    let text = crate::import("cond", false);
    let archive = root().join(fixture("cond"));
    let text = text.replacen(&format!("\"{}\"", fixture("cond")), &format!("\"{}\"", archive.display()), 1);
    let mutated = text.replacen("operandSegmentSizes = array<i32: 1, 3>", "operandSegmentSizes = array<i32: 1, -1>", 1);
    assert_ne!(mutated, text, "the fixture's cond has the expected segments");
    let dir = with_mlir("catalogue-cond-negative-segment", &mutated);
    let message = to_onnx_fails(&dir, "input.mlir");
    assert!(message.contains("operandSegmentSizes") || message.contains("segment"), "{message}");
}
