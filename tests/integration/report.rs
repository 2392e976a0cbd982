//! `aten-translate --to-onnx ... --report FILE` / `--stats`: the export
//! report end to end (docs/report.md), on success and on failure.

use crate::{fixture, scratch_dir};
use serde_json::Value;
use std::process::Command;

const ATEN_TRANSLATE: &str = env!("CARGO_BIN_EXE_aten-translate");

fn translate(args: &[&str]) -> std::process::Output {
    Command::new(ATEN_TRANSLATE).args(args).output().expect("run aten-translate")
}

fn read_json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("report written")).expect("report is JSON")
}

#[test]
fn report_describes_passes_lowering_and_graph() {
    let dir = scratch_dir("report-ok");
    let (onnx, json) = (dir.join("mlp.onnx"), dir.join("report.json"));
    let out = translate(&["--to-onnx", &fixture("mlp"), "-o", onnx.to_str().unwrap(), "--report", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let r = read_json(&json);
    assert_eq!(r["schema"], "aten2onnx.report");
    assert_eq!(r["schema_version"], aten2onnx::report::SCHEMA_VERSION);
    assert_eq!(r["status"], "ok");
    assert_eq!(r["options"]["opset"], 23);
    // Every pass of the default pipeline, in order, with consistent counts.
    let passes = r["passes"].as_array().unwrap();
    let names: Vec<&str> = passes.iter().map(|p| p["pass"].as_str().unwrap()).collect();
    assert_eq!(names[0], "aten-remove-inplace");
    assert!(names[1].starts_with("convert-aten-to-onnx"));
    for pair in passes.windows(2) {
        assert_eq!(pair[0]["ops_after"], pair[1]["ops_before"], "{names:?}");
    }
    for p in passes {
        let (before, after) = (p["ops_before"].as_i64().unwrap(), p["ops_after"].as_i64().unwrap());
        assert_eq!(after - before, p["added"].as_i64().unwrap() - p["removed"].as_i64().unwrap());
        assert!(p["wall_ms"].as_f64().unwrap() >= 0.0);
    }
    // The lowering: the fixture's two linear layers, each some ONNX nodes.
    let linear = r["lowering"].as_array().unwrap().iter().find(|l| l["aten_op"] == "aten.linear.default").unwrap();
    assert_eq!(linear["count"], 2);
    assert!(linear["onnx_nodes"].as_i64().unwrap() >= 2);
    assert!(r["unsupported"].as_array().unwrap().is_empty());
    // The graph: node counts agree with the written model; MatMul FLOPs are
    // symbolic in the dynamic batch.
    let onnx_stats = &r["onnx"];
    let by_type: i64 = onnx_stats["op_types"].as_array().unwrap().iter().map(|o| o["count"].as_i64().unwrap()).sum();
    assert_eq!(onnx_stats["nodes"].as_i64().unwrap(), by_type);
    let model = <onnx_protobuf::ModelProto as protobuf::Message>::parse_from_bytes(&std::fs::read(&onnx).unwrap()).unwrap();
    assert_eq!(model.graph.node.len() as i64, by_type);
    // (MatMul, or Gemm when the optimizer fused the bias.)
    let matmul = onnx_stats["op_types"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["op_type"] == "MatMul" || o["op_type"] == "Gemm")
        .unwrap_or_else(|| panic!("no MatMul or Gemm in {}", onnx_stats["op_types"]));
    let flops = matmul["flops"].as_str().unwrap();
    assert!(flops.contains('s') && !flops.contains('?'), "symbolic MatMul flops: {flops}");
    assert_eq!(onnx_stats["initializers"], 4);
}

#[test]
fn report_is_written_when_the_conversion_fails() {
    let dir = scratch_dir("report-error");
    let input = dir.join("input.mlir");
    std::fs::write(
        &input,
        "func.func @forward(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {\n  \
         %0 = \"aten.linalg_householder_product.default\"(%x, %x) : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>\n  \
         return %0 : tensor<3x3xf32>\n}\n",
    )
    .unwrap();
    let (onnx, json) = (dir.join("out.onnx"), dir.join("report.json"));
    let out = translate(&["--to-onnx", input.to_str().unwrap(), "-o", onnx.to_str().unwrap(), "--report", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!onnx.exists(), "no ONNX output on error");
    let r = read_json(&json);
    assert_eq!(r["status"], "error");
    assert!(r["error"].as_str().unwrap().contains("linalg_householder_product"), "{}", r["error"]);
    assert_eq!(r["unsupported"][0]["op"], "aten.linalg_householder_product.default");
    assert_eq!(r["unsupported"][0]["count"], 1);
}

#[test]
fn stats_table_and_xlsx() {
    let dir = scratch_dir("report-xlsx");
    let (onnx, xlsx) = (dir.join("m.onnx"), dir.join("report.xlsx"));
    let out = translate(&["--to-onnx", &fixture("mlp"), "-o", onnx.to_str().unwrap(), "--report", xlsx.to_str().unwrap(), "--stats"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("convert-aten-to-onnx") && table.contains("ONNX:"), "{table}");
    let bytes = std::fs::read(&xlsx).unwrap();
    assert_eq!(&bytes[..2], b"PK", "an .xlsx is a zip");
    // The report may not overwrite the input.
    let out = translate(&["--to-onnx", &fixture("mlp"), "-o", onnx.to_str().unwrap(), "--report", &fixture("mlp")]);
    assert_eq!(out.status.code(), Some(1));
}

/// The progress bar (src/progress.rs) is for terminals only: with stderr
/// piped, a successful conversion prints nothing there, `--quiet` or not.
#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let dir = scratch_dir("progress-piped");
    let onnx = dir.join("mlp.onnx");
    for extra in [None, Some("--quiet"), Some("-q")] {
        let mut args = vec!["--to-onnx", &fixture("mlp"), "-o", onnx.to_str().unwrap()].into_iter().map(String::from).collect::<Vec<_>>();
        args.extend(extra.map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = translate(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{extra:?}: stderr: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "{extra:?}: stdout: {}", String::from_utf8_lossy(&out.stdout));
    }
}
