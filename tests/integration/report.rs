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
    let out =
        translate(&["--to-onnx", &fixture("mlp"), "-o", onnx.to_str().unwrap(), "--report", json.to_str().unwrap()]);
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
    assert!(names.iter().any(|n| n.starts_with("convert-aten-to-onnx")), "{names:?}");
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
    assert_eq!(linear["rule"], "passes/lowering/src/rules/nn/linear.rs");
    assert!(r["unsupported"].as_array().unwrap().is_empty());
    // What each rule emitted, by op type, sums to its node count; the
    // lowering pass added at least those nodes and removed every aten op.
    let (mut emitted, mut lowered_ops) = (0, 0);
    for l in r["lowering"].as_array().unwrap() {
        let by_type: i64 = l["onnx_ops_lowered"].as_object().unwrap().values().map(|n| n.as_i64().unwrap()).sum();
        assert_eq!(l["onnx_nodes_lowered"].as_i64().unwrap(), by_type, "{l}");
        emitted += by_type;
        lowered_ops += l["count"].as_i64().unwrap();
    }
    let lowering_pass =
        passes.iter().find(|p| p["pass"].as_str().unwrap().starts_with("convert-aten-to-onnx")).unwrap();
    assert!(lowering_pass["added"].as_i64().unwrap() >= emitted, "{lowering_pass}");
    let aten_removed: i64 = lowering_pass["delta_by_op"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(op, _)| op.starts_with("aten.") && *op != "aten.weight" && *op != "aten.sym.constant")
        .map(|(_, d)| -d.as_i64().unwrap())
        .sum();
    assert_eq!(aten_removed, lowered_ops, "{lowering_pass}");
    // linear (MatMul, Add, Transpose per layer) is decomposed; relu is not.
    let decomposed: Vec<&str> = r["decomposed"].as_array().unwrap().iter().map(|d| d["op"].as_str().unwrap()).collect();
    assert!(
        decomposed.contains(&"aten.linear.default") && !decomposed.contains(&"aten.relu.default"),
        "{decomposed:?}"
    );
    for d in r["decomposed"].as_array().unwrap() {
        let into: i64 = d["into"].as_object().unwrap().values().map(|n| n.as_i64().unwrap()).sum();
        assert_eq!(d["nodes"].as_i64().unwrap(), into, "{d}");
        assert_eq!(d["by"], "lowering", "{d}");
        assert!(d["nodes"].as_i64().unwrap() > d["count"].as_i64().unwrap(), "{d}");
    }
    // The optimizer: one run on `forward`, its rule applications summed
    // per rule, in the onnx-eqsat pass record and in total.
    let optimizer = &r["optimizer"];
    let runs = optimizer["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1, "{optimizer}");
    let run = &runs[0];
    assert_eq!(run["function"], "forward");
    assert_eq!(run["stop"], "saturated");
    assert!(
        run["iterations"].as_i64().unwrap() >= 1
            && run["enodes"].as_i64().unwrap() >= run["eclasses"].as_i64().unwrap()
    );
    let eqsat = passes.iter().find(|p| p["pass"] == "func.func(onnx-eqsat)").unwrap();
    assert_eq!(run["ops_before"], eqsat["ops_before"]);
    assert_eq!(run["ops_after"], eqsat["ops_after"]);
    assert_eq!(eqsat["rewrites"], run["applied"]);
    let total: i64 = optimizer["rules"].as_array().unwrap().iter().map(|x| x["applied"].as_i64().unwrap()).sum();
    assert_eq!(optimizer["applied_total"].as_i64().unwrap(), total);
    assert!(total > 0);
    // (The bias add fuses into Gemm.)
    assert!(
        optimizer["rules"].as_array().unwrap().iter().any(|x| x["rule"] == "matmul/matmul-add-to-gemm"),
        "{optimizer}"
    );
    assert!(passes
        .iter()
        .filter(|p| p["pass"] != "func.func(onnx-eqsat)")
        .all(|p| p["rewrites"] == serde_json::json!({})));
    assert!(r["verify"].is_null() && r["options"]["verify"] == false);
    // The graph: node counts agree with the written model; MatMul FLOPs are
    // symbolic in the dynamic batch.
    let onnx_stats = &r["onnx"];
    let by_type: i64 = onnx_stats["op_types"].as_array().unwrap().iter().map(|o| o["count"].as_i64().unwrap()).sum();
    assert_eq!(onnx_stats["nodes"].as_i64().unwrap(), by_type);
    let model =
        <onnx_protobuf::ModelProto as protobuf::Message>::parse_from_bytes(&std::fs::read(&onnx).unwrap()).unwrap();
    assert_eq!(model.graph.node.len() as i64, by_type);
    assert_eq!(onnx_stats["graph_nodes"].as_i64().unwrap(), by_type);
    // Each final node comes from one lowering rule here.
    let from_rules: i64 = r["lowering"].as_array().unwrap().iter().map(|l| l["onnx_nodes"].as_i64().unwrap()).sum();
    assert_eq!(from_rules, by_type);
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
        "func.func @forward(%x: tensor<3x3xf32>, %p: tensor<3xi32>) -> tensor<3x3xf32> {\n  \
         %0:4 = \"aten.linalg_lstsq.default\"(%x, %x) : (tensor<3x3xf32>, tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<0xf32>, tensor<i64>, tensor<0xf32>)\n  \
         return %0#0 : tensor<3x3xf32>\n}\n",
    )
    .unwrap();
    let (onnx, json) = (dir.join("out.onnx"), dir.join("report.json"));
    let out = translate(&[
        "--to-onnx",
        input.to_str().unwrap(),
        "-o",
        onnx.to_str().unwrap(),
        "--report",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!onnx.exists(), "no ONNX output on error");
    let r = read_json(&json);
    assert_eq!(r["status"], "error");
    assert!(r["error"].as_str().unwrap().contains("linalg_lstsq"), "{}", r["error"]);
    assert_eq!(r["unsupported"][0]["op"], "aten.linalg_lstsq.default");
    assert_eq!(r["unsupported"][0]["count"], 1);
}

#[test]
fn stats_table_and_xlsx() {
    let dir = scratch_dir("report-xlsx");
    let (onnx, xlsx) = (dir.join("m.onnx"), dir.join("report.xlsx"));
    let out = translate(&[
        "--to-onnx",
        &fixture("mlp"),
        "-o",
        onnx.to_str().unwrap(),
        "--report",
        xlsx.to_str().unwrap(),
        "--stats",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("convert-aten-to-onnx") && table.contains("ONNX:"), "{table}");
    let bytes = std::fs::read(&xlsx).unwrap();
    assert_eq!(&bytes[..2], b"PK", "an .xlsx is a zip");
    // The report may not overwrite the input.
    let out = translate(&["--to-onnx", &fixture("mlp"), "-o", onnx.to_str().unwrap(), "--report", &fixture("mlp")]);
    assert_eq!(out.status.code(), Some(1));
}

/// `--verify` with `--report`: the comparison (per-output errors, whether
/// it bisected) is in the report, beside the conversion's statistics; an
/// explicit `--opset` is recorded as requested.
#[cfg(feature = "torch")]
#[test]
fn report_records_verify() {
    let dir = scratch_dir("report-verify");
    let (onnx, json) = (dir.join("mlp.onnx"), dir.join("report.json"));
    let out = translate(&[
        "--to-onnx",
        &fixture("mlp"),
        "-o",
        onnx.to_str().unwrap(),
        "--verify",
        "--opset",
        "18",
        "--report",
        json.to_str().unwrap(),
        "--stats",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("verify (ok)") && stdout.contains("onnx-eqsat @forward"), "{stdout}");
    let r = read_json(&json);
    assert_eq!(r["status"], "ok");
    assert_eq!(r["options"]["verify"], true);
    assert_eq!(r["options"]["opset"], 18);
    assert_eq!(r["options"]["opset_requested"], 18);
    let v = &r["verify"];
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["bisected"], false);
    assert!(v["divergence"].is_null());
    let outputs = v["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), 1, "{v}");
    for o in outputs {
        assert_eq!(o["ok"], true);
        let (abs, rel) = (o["max_abs"].as_f64().unwrap(), o["max_rel"].as_f64().unwrap());
        assert!((0.0..=1e-4).contains(&abs) && rel >= 0.0, "{o}");
    }
    assert!(r["onnx"]["nodes"].as_i64().unwrap() > 0 && !r["passes"].as_array().unwrap().is_empty());
}

/// A model with subgraphs: `nodes` counts the If branches' nodes too,
/// `graph_nodes` the main graph's, as written.
#[test]
fn report_counts_subgraph_nodes() {
    let dir = scratch_dir("report-cond");
    let (onnx, json) = (dir.join("cond.onnx"), dir.join("report.json"));
    let out =
        translate(&["--to-onnx", &fixture("cond"), "-o", onnx.to_str().unwrap(), "--report", json.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let r = read_json(&json);
    let stats = &r["onnx"];
    let by_type: i64 = stats["op_types"].as_array().unwrap().iter().map(|o| o["count"].as_i64().unwrap()).sum();
    assert_eq!(stats["nodes"].as_i64().unwrap(), by_type);
    let model =
        <onnx_protobuf::ModelProto as protobuf::Message>::parse_from_bytes(&std::fs::read(&onnx).unwrap()).unwrap();
    assert_eq!(stats["graph_nodes"].as_i64().unwrap(), model.graph.node.len() as i64);
    fn count(graph: &onnx_protobuf::GraphProto) -> i64 {
        graph.node.iter().map(|n| 1 + n.attribute.iter().filter_map(|a| a.g.as_ref()).map(count).sum::<i64>()).sum()
    }
    assert_eq!(stats["nodes"].as_i64().unwrap(), count(&model.graph), "{stats}");
    assert!(stats["graph_nodes"].as_i64().unwrap() < by_type);
}

/// An op without a rule that `aten-decompose` rewrites (`arccos` is an
/// alias of `acos`) is not "unsupported": the report lists it as decomposed
/// by that pass, into what, and the lowering table shows the op it became.
#[test]
fn report_lists_aten_decompositions() {
    let dir = scratch_dir("report-decompose");
    let input = dir.join("input.mlir");
    std::fs::write(
        &input,
        "func.func @forward(%x: tensor<3xf32>) -> tensor<3xf32> {\n  \
         %0 = \"aten.arccos.default\"(%x) : (tensor<3xf32>) -> tensor<3xf32> loc(\"arccos\")\n  \
         return %0 : tensor<3xf32>\n}\n",
    )
    .unwrap();
    let (onnx, json) = (dir.join("out.onnx"), dir.join("report.json"));
    let out = translate(&[
        "--to-onnx",
        input.to_str().unwrap(),
        "-o",
        onnx.to_str().unwrap(),
        "--report",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let r = read_json(&json);
    assert!(r["unsupported"].as_array().unwrap().is_empty(), "{}", r["unsupported"]);
    let d = r["decomposed"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["op"] == "aten.arccos.default")
        .unwrap_or_else(|| panic!("{}", r["decomposed"]));
    assert_eq!(d["by"], "aten-decompose");
    assert_eq!(d["count"], 1);
    assert_eq!(d["into"]["aten.acos.default"], 1, "{d}");
    let lowered: Vec<&str> = r["lowering"].as_array().unwrap().iter().map(|l| l["aten_op"].as_str().unwrap()).collect();
    assert_eq!(lowered, ["aten.acos.default"]);
    assert_eq!(r["onnx"]["op_types"][0]["op_type"], "Acos");
}

/// The progress bar (src/progress.rs) is for terminals only: with stderr
/// piped, a successful conversion prints nothing there, `--quiet` or not.
#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let dir = scratch_dir("progress-piped");
    let onnx = dir.join("mlp.onnx");
    for extra in [None, Some("--quiet"), Some("-q")] {
        let mut args = vec!["--to-onnx", &fixture("mlp"), "-o", onnx.to_str().unwrap()]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>();
        args.extend(extra.map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = translate(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{extra:?}: stderr: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "{extra:?}: stdout: {}", String::from_utf8_lossy(&out.stdout));
    }
}
