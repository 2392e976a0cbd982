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

/// An inplace op that changes tensor metadata has no functional form.
#[test]
fn unremovable_inplace_op() {
    let dir = with_mlir(
        "catalogue-inplace",
        r#"func.func @forward(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = "aten.resize_.default"(%x) {size = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
"#,
    );
    let message = to_onnx_fails(&dir, "input.mlir");
    assert!(message.contains("aten.resize_.default") && message.contains("in place"), "{message}");
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
    let dir = with_mlir("catalogue-malformed-mlir", "func.func @forward(%x: tensor<2xf32>) -> tensor<2xf32> {\n  return %y\n");
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
        let output =
            run(ATEN_OPT, &dir, &["input.mlir", &format!("--pass-pipeline={pipeline}"), "-o", "out.mlir"]);
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
