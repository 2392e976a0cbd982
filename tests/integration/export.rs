//! The ONNX writer (`aten2onnx::export`) on hand-written onnx-dialect
//! modules and on the lowered `mlp` fixture.
//!
//! Each model is written to a scratch directory, parsed back with
//! rust-protobuf for structural checks (names, dim_params, attributes,
//! external data), then checked by the reference implementation: the
//! workspace's `.venv/bin/python` (or `$ATEN2ONNX_PYTHON`) runs
//! `onnx.checker.check_model(full_check=True)` and onnxruntime, and prints
//! the outputs as JSON, which are compared with values computed
//! independently (in Rust from the archive, or by torch in the script).
//! Without that Python the runtime part is skipped with a `skipped:`
//! message, or fails when `CI` is set.

use crate::{import, opt_options, scratch_dir};
use aten2onnx::{
    create_context,
    export::{write_model, ExportOptions, ExportReport, ExternalData},
    module,
};
use onnx_protobuf::{attribute_proto::AttributeType, tensor_shape_proto::dimension, Message, ModelProto};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Parses `text` and writes it to `<scratch>/model.onnx`.
fn export(test: &str, text: &str, external: ExternalData) -> (PathBuf, Result<ExportReport, aten2onnx::Error>) {
    let dir = scratch_dir(&format!("export_{test}"));
    let path = dir.join("model.onnx");
    let context = create_context();
    let module = module::parse(&context, text, crate::INPUT).unwrap_or_else(|e| panic!("{e}"));
    let options = ExportOptions { external_data: external, ..Default::default() };
    let result = write_model(&module, &path, &options);
    (path, result)
}

fn export_ok(test: &str, text: &str, external: ExternalData) -> (PathBuf, ExportReport, ModelProto) {
    let (path, result) = export(test, text, external);
    let report = result.unwrap_or_else(|e| panic!("{test}: {e}"));
    let model = ModelProto::parse_from_bytes(&std::fs::read(&path).unwrap()).expect("parse the written model");
    (path, report, model)
}

/// `(name, dims)` of graph inputs or outputs; dims as JSON (number, string or null).
fn signature(values: &[onnx_protobuf::ValueInfoProto]) -> Vec<(String, Vec<Value>)> {
    values
        .iter()
        .map(|v| {
            let Some(onnx_protobuf::type_proto::Value::TensorType(t)) = &v.type_.value else {
                panic!("{} has no tensor type", v.name)
            };
            let dims = t
                .shape
                .dim
                .iter()
                .map(|d| match &d.value {
                    Some(dimension::Value::DimValue(n)) => json!(n),
                    Some(dimension::Value::DimParam(p)) => json!(p),
                    _ => Value::Null,
                })
                .collect();
            (v.name.clone(), dims)
        })
        .collect()
}

fn sig(items: &[(&str, Value)]) -> Vec<(String, Vec<Value>)> {
    items.iter().map(|(n, d)| (n.to_string(), d.as_array().unwrap().clone())).collect()
}

// ----------------------------------------------------------------------------
// Python: onnx checker + onnxruntime

const RUNNER: &str = r#"
import json, sys
import numpy as np
import onnx
import onnxruntime as ort

spec = json.load(open(sys.argv[1]))
path = spec["model"]
onnx.checker.check_model(path, full_check=True)
feeds = {
    name: np.array(v["data"], dtype=v["dtype"]).reshape(v["shape"])
    for name, v in spec["inputs"].items()
}
session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
results = session.run(None, feeds)
out = {"outputs": {}}
# scalar attributes must carry their value even when it is 0 / 0.0 / ""
model = onnx.load(path, load_external_data=False)
field = {onnx.AttributeProto.FLOAT: "f", onnx.AttributeProto.INT: "i", onnx.AttributeProto.STRING: "s"}
out["attributes_without_value"] = [
    f"{node.name}.{attr.name}" for node in model.graph.node for attr in node.attribute
    if attr.type in field and not attr.HasField(field[attr.type])
]
for meta, value in zip(session.get_outputs(), results):
    value = np.asarray(value)
    out["outputs"][meta.name] = {
        "shape": list(value.shape),
        "dtype": str(value.dtype),
        "data": value.flatten().tolist(),
    }
if spec.get("torch"):
    import torch
    program = torch.export.load(spec["torch"]["pt2"])
    tensors = {**program.state_dict, **program.constants}
    out["torch"] = {
        name: tensors[name].contiguous().flatten().tolist() for name in spec["torch"].get("tensors", [])
    }
    if "run" in spec["torch"]:
        args = [torch.tensor(feeds[name]) for name in spec["torch"]["run"]]
        result = program.module()(*args)
        if isinstance(result, torch.Tensor):
            result = (result,)
        out["torch_outputs"] = [r.detach().flatten().tolist() for r in result]
print(json.dumps(out))
"#;

/// The Python with onnx and onnxruntime, or `None` (test skipped) when
/// missing outside CI.
pub fn python() -> Option<PathBuf> {
    let python = std::env::var_os("ATEN2ONNX_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"));
    if python.is_file() {
        return Some(python);
    }
    let message = format!(
        "{} not found (set ATEN2ONNX_PYTHON or run tools/setup.sh): cannot check the model with onnx and onnxruntime",
        python.display()
    );
    if std::env::var_os("CI").is_some() {
        panic!("{message}");
    }
    eprintln!("skipped: {message}");
    None
}

/// Runs the checker and onnxruntime on `model` with `inputs`
/// (`{name: {dtype, shape, data}}`); returns the script's JSON, or `None`
/// when Python is unavailable (skipped).
fn run_model(model: &Path, inputs: Value, torch: Option<Value>) -> Option<Value> {
    let python = python()?;
    let spec_path = model.with_extension("spec.json");
    let spec = json!({"model": model, "inputs": inputs, "torch": torch});
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    let output = std::process::Command::new(&python)
        .arg("-c")
        .arg(RUNNER)
        .arg(&spec_path)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", python.display()));
    assert!(
        output.status.success(),
        "the onnx checker or onnxruntime rejected {}:\n{}",
        model.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let result: Value = serde_json::from_slice(&output.stdout).expect("runner prints JSON");
    assert_eq!(result["attributes_without_value"], json!([]), "{}", model.display());
    Some(result)
}

fn floats(value: &Value) -> Vec<f64> {
    value.as_array().unwrap_or_else(|| panic!("not an array: {value}")).iter().map(|v| v.as_f64().unwrap()).collect()
}

fn assert_close(actual: &[f64], expected: &[f64], what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: length");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a - e).abs() <= 1e-5 + 1e-5 * e.abs(),
            "{what}[{i}]: got {a}, expected {e}\nactual {actual:?}\nexpected {expected:?}"
        );
    }
}

fn output<'a>(result: &'a Value, name: &str) -> &'a Value {
    result["outputs"].get(name).unwrap_or_else(|| panic!("no output {name} in {result}"))
}

fn f32_input(shape: &[usize], data: &[f32]) -> Value {
    json!({"dtype": "float32", "shape": shape, "data": data})
}

/// Reads a float32 tensor of the archive in row-major order (through the
/// reader's own view logic, independently of the writer).
fn archive_f32(pt2: &str, name: &str) -> (Vec<i64>, Vec<f32>) {
    let archive = aten2onnx_pt2::Archive::open(pt2).unwrap();
    let t = archive.weight(name).or_else(|_| archive.constant(name)).unwrap();
    let bytes = t.contiguous_bytes().expect("contiguous in this test");
    (t.sizes.clone(), bytes.chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect())
}

// ----------------------------------------------------------------------------

const NAMES: &str = r#"
module attributes {onnx.opset = 23 : i64} {
  func.func @forward(%x: tensor<?x8xf32, ["s77"]> {aten.name = "x"}, %ids: tensor<?x?xi64, ["s77", "s3"]> {aten.name = "ids"})
      -> (tensor<?x8xf32, ["s77"]> {aten.kind = "user_output", aten.name = "y"},
          tensor<?x8xf32, ["s77"]> {aten.kind = "user_output", aten.name = "x_again"},
          tensor<?x8xf32, ["s77"]> {aten.kind = "user_output", aten.name = "y_again"},
          tensor<?x8xf32, ["2*s77"]> {aten.kind = "user_output", aten.name = "both"},
          tensor<?x?xf32, ["s77", "s3"]> {aten.kind = "buffer_mutation", aten.name = "copy_", aten.target = "counter"},
          tensor<?xi64, ["s9 + 1"]> {aten.kind = "user_output", aten.name = "n"}) {
    %neg = "onnx.Neg"(%x) : (tensor<?x8xf32, ["s77"]>) -> tensor<?x8xf32, ["s77"]> loc("y")
    %y = "onnx.Relu"(%neg) : (tensor<?x8xf32, ["s77"]>) -> tensor<?x8xf32, ["s77"]> loc("relu")
    %both = "onnx.Concat"(%y, %y) {axis = 0 : i64} : (tensor<?x8xf32, ["s77"]>, tensor<?x8xf32, ["s77"]>) -> tensor<?x8xf32, ["2*s77"]> loc("cat")
    %c = "onnx.Cast"(%ids) {to = 1 : i64} : (tensor<?x?xi64, ["s77", "s3"]>) -> tensor<?x?xf32, ["s77", "s3"]>
    %s = "onnx.Shape"(%ids) : (tensor<?x?xi64, ["s77", "s3"]>) -> tensor<2xi64> loc("relu")
    %one = "onnx.Constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
    %n = "onnx.Add"(%s, %one) : (tensor<2xi64>, tensor<1xi64>) -> tensor<?xi64, ["s9 + 1"]>
    return %y, %x, %y, %both, %c, %n : tensor<?x8xf32, ["s77"]>, tensor<?x8xf32, ["s77"]>, tensor<?x8xf32, ["s77"]>, tensor<?x8xf32, ["2*s77"]>, tensor<?x?xf32, ["s77", "s3"]>, tensor<?xi64, ["s9 + 1"]>
  }
}
"#;

#[test]
fn graph_names_types_and_identities() {
    let (path, report, model) = export_ok("names", NAMES, ExternalData::Auto);
    assert_eq!(
        report,
        ExportReport {
            nodes: 8,
            initializers: 1,
            initializer_bytes: 8,
            external_data_file: None,
            complex_views: vec![],
            quantized_weights: 0,
        }
    );
    assert_eq!(model.ir_version, 11);
    assert_eq!(model.producer_name, "aten2onnx");
    assert_eq!(model.producer_version, env!("CARGO_PKG_VERSION"));
    assert_eq!(model.opset_import.len(), 1);
    assert_eq!((model.opset_import[0].domain.as_str(), model.opset_import[0].version), ("", 23));
    let graph = &model.graph;
    assert_eq!(graph.name, "forward");
    assert_eq!(signature(&graph.input), sig(&[("x", json!(["batch", 8])), ("ids", json!(["batch", "seq"]))]));
    assert_eq!(
        signature(&graph.output),
        sig(&[
            ("y", json!(["batch", 8])),
            ("x_again", json!(["batch", 8])),
            ("y_again", json!(["batch", 8])),
            ("both", json!(["2*batch", 8])),
            ("counter", json!(["batch", "seq"])),
            ("n", json!(["dim + 1"])),
        ])
    );
    let nodes: Vec<(&str, &str, Vec<&str>, Vec<&str>)> = graph
        .node
        .iter()
        .map(|n| {
            (
                n.op_type.as_str(),
                n.name.as_str(),
                n.input.iter().map(String::as_str).collect(),
                n.output.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        nodes,
        vec![
            // the intermediate named after node "y" yields to the output "y"
            ("Neg", "y", vec!["x"], vec!["y_1"]),
            ("Relu", "relu", vec!["y_1"], vec!["y"]),
            ("Concat", "cat", vec!["y", "y"], vec!["both"]),
            ("Cast", "Cast", vec!["ids"], vec!["counter"]),
            // node names are unique too
            ("Shape", "relu_1", vec!["ids"], vec!["relu"]),
            // the constant is an initializer
            ("Add", "Add", vec!["relu", "Constant"], vec!["n"]),
            // an output that is a graph input, and one returned twice
            ("Identity", "x_again_identity", vec!["x"], vec!["x_again"]),
            ("Identity", "y_again_identity", vec!["y"], vec!["y_again"]),
        ]
    );
    let value_info = signature(&graph.value_info);
    assert_eq!(value_info, sig(&[("y_1", json!(["batch", 8])), ("relu", json!([2])), ("Constant", json!([1]))]));

    let Some(result) = run_model(
        &path,
        json!({
            "x": f32_input(&[2, 8], &(0..16).map(|i| i as f32 - 8.0).collect::<Vec<_>>()),
            "ids": {"dtype": "int64", "shape": [2, 3], "data": [1, 2, 3, 4, 5, 6]},
        }),
        None,
    ) else {
        return;
    };
    let x: Vec<f64> = (0..16).map(|i| i as f64 - 8.0).collect();
    let y: Vec<f64> = x.iter().map(|v| (-v).max(0.0)).collect();
    assert_close(&floats(&output(&result, "y")["data"]), &y, "y");
    assert_close(&floats(&output(&result, "x_again")["data"]), &x, "x_again");
    assert_close(&floats(&output(&result, "y_again")["data"]), &y, "y_again");
    assert_eq!(output(&result, "both")["shape"], json!([4, 8]));
    assert_close(&floats(&output(&result, "both")["data"]), &[y.clone(), y].concat(), "both");
    assert_close(&floats(&output(&result, "counter")["data"]), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "counter");
    assert_eq!(output(&result, "n")["data"], json!([3, 4]));
}

const ATTRIBUTES: &str = r#"
module {
  func.func @forward(%x: tensor<2x3xf32> {aten.name = "x"})
      -> (tensor<2x4xf32> {aten.name = "gemm"}, tensor<3x2xf32> {aten.name = "clipped"}, tensor<2x5xf32> {aten.name = "padded"},
          tensor<1xi64> {aten.name = "count"}, tensor<3xf32> {aten.name = "floats"}, tensor<2x3xi32> {aten.name = "ints"}) {
    %w = "onnx.Constant"() {value = dense<[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]]> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
    %b = "onnx.Constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
    %gemm = "onnx.Gemm"(%x, %w, %b) {alpha = 2.0 : f32, beta = 1.0 : f32, transA = 0 : i64, transB = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %t = "onnx.Transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %none = "onnx.none"() : () -> none
    %max = "onnx.Constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %clipped = "onnx.Clip"(%t, %none, %max) : (tensor<3x2xf32>, none, tensor<f32>) -> tensor<3x2xf32>
    %pads = "onnx.Constant"() {value = dense<[0, 1, 0, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
    %padded = "onnx.Pad"(%x, %pads) {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<2x5xf32>
    %strings = "onnx.Constant"() {value_strings = ["a", "bc", "d"]} : () -> tensor<3x!onnx.string>
    %count = "onnx.Shape"(%strings) {start = 0 : i64} : (tensor<3x!onnx.string>) -> tensor<1xi64>
    %floats = "onnx.Constant"() {value_floats = array<f32: 1.5, -2.0, 0.25>} : () -> tensor<3xf32>
    %ints = "onnx.Cast"(%x) {to = 6 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi32>
    return %gemm, %clipped, %padded, %count, %floats, %ints : tensor<2x4xf32>, tensor<3x2xf32>, tensor<2x5xf32>, tensor<1xi64>, tensor<3xf32>, tensor<2x3xi32>
  }
}
"#;

#[test]
fn constants_attributes_and_optional_inputs() {
    let (path, report, model) = export_ok("attributes", ATTRIBUTES, ExternalData::Auto);
    assert_eq!(report.nodes, 8);
    let node = |op: &str| model.graph.node.iter().find(|n| n.op_type == op).unwrap_or_else(|| panic!("no {op}"));
    let attr = |op: &str, name: &str| {
        node(op).attribute.iter().find(|a| a.name == name).unwrap_or_else(|| panic!("{op} has no {name}")).clone()
    };
    let gemm_alpha = attr("Gemm", "alpha");
    assert_eq!((gemm_alpha.type_.enum_value(), gemm_alpha.f), (Ok(AttributeType::FLOAT), 2.0));
    let trans_a = attr("Gemm", "transA");
    assert_eq!((trans_a.type_.enum_value(), trans_a.i), (Ok(AttributeType::INT), 0));
    let trans_b = attr("Gemm", "transB");
    assert_eq!((trans_b.type_.enum_value(), trans_b.i), (Ok(AttributeType::INT), 1));
    let perm = attr("Transpose", "perm");
    assert_eq!((perm.type_.enum_value(), perm.ints.clone()), (Ok(AttributeType::INTS), vec![1, 0]));
    let mode = attr("Pad", "mode");
    assert_eq!((mode.type_.enum_value(), mode.s.clone()), (Ok(AttributeType::STRING), b"reflect".to_vec()));
    assert_eq!(node("Clip").input, vec!["Transpose".to_string(), String::new(), "Constant_2".to_string()]);
    // Constants with a `value` tensor become initializers named after
    // their outputs (Clip reads `Constant_2`); the other forms stay nodes.
    let inits = &model.graph.initializer;
    assert_eq!(
        inits.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["Constant", "Constant_1", "Constant_2", "Constant_3"]
    );
    assert_eq!((inits[0].dims.clone(), inits[0].data_type), (vec![4, 3], 1));
    assert_eq!(
        inits[1].raw_data,
        [0.5f32; 4].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>(),
        "splat expanded"
    );
    assert_eq!(inits[3].raw_data, [0i64, 1, 0, 1].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>());
    assert_eq!((report.initializers, report.initializer_bytes), (4, 48 + 16 + 4 + 32));
    let constants: Vec<_> =
        model.graph.node.iter().filter(|n| n.op_type == "Constant").map(|n| n.attribute[0].clone()).collect();
    assert_eq!(constants.len(), 2);
    assert_eq!((constants[0].type_.enum_value(), constants[0].strings.len()), (Ok(AttributeType::STRINGS), 3));
    assert_eq!(
        (constants[1].type_.enum_value(), constants[1].floats.clone()),
        (Ok(AttributeType::FLOATS), vec![1.5, -2.0, 0.25])
    );

    let x = [0.5f32, -1.25, 2.0, 3.0, 0.0, -0.75];
    let Some(result) = run_model(&path, json!({"x": f32_input(&[2, 3], &x)}), None) else { return };
    let w = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]];
    let mut gemm = Vec::new();
    for i in 0..2 {
        for row in &w {
            gemm.push(2.0 * (0..3).map(|k| x[i * 3 + k] as f64 * row[k]).sum::<f64>() + 0.5);
        }
    }
    assert_close(&floats(&output(&result, "gemm")["data"]), &gemm, "gemm");
    let clipped: Vec<f64> = [0, 3, 1, 4, 2, 5].iter().map(|&i| (x[i] as f64).min(1.0)).collect();
    assert_close(&floats(&output(&result, "clipped")["data"]), &clipped, "clipped");
    let padded: Vec<f64> = [1, 0, 1, 2, 1, 4, 3, 4, 5, 4].iter().map(|&i| x[i] as f64).collect();
    assert_close(&floats(&output(&result, "padded")["data"]), &padded, "padded");
    assert_eq!(output(&result, "count")["data"], json!([3]));
    assert_close(&floats(&output(&result, "floats")["data"]), &[1.5, -2.0, 0.25], "floats");
    assert_eq!(output(&result, "ints")["data"], json!([0, -1, 2, 3, 0, 0]));
    assert_eq!(output(&result, "ints")["dtype"], json!("int32"));
}

const MLP_INITIALIZERS: &str = r#"
module attributes {aten.archive = "tests/fixtures/mlp.pt2"} {
  func.func @forward(%x: tensor<?x8xf32, ["s77"]> {aten.name = "x"}) -> (tensor<?x16xf32, ["s77"]> {aten.name = "h"}, tensor<16x8xf32> {aten.name = "weight"}) {
    %w = "onnx.initializer"() {name = "fc1.weight"} : () -> tensor<16x8xf32>
    %b = "onnx.initializer"() {name = "fc1.bias"} : () -> tensor<16xf32>
    %w2 = "onnx.initializer"() {name = "fc1.weight"} : () -> tensor<16x8xf32>
    %h = "onnx.Gemm"(%x, %w2, %b) {transB = 1 : i64} : (tensor<?x8xf32, ["s77"]>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<?x16xf32, ["s77"]>
    return %h, %w : tensor<?x16xf32, ["s77"]>, tensor<16x8xf32>
  }
}
"#;

/// `x @ fc1.weight^T + fc1.bias` and the weight, from the archive.
fn mlp_expected(x: &[f32]) -> (Vec<f64>, Vec<f64>) {
    let (wdims, w) = archive_f32("tests/fixtures/mlp.pt2", "fc1.weight");
    let (_, b) = archive_f32("tests/fixtures/mlp.pt2", "fc1.bias");
    assert_eq!(wdims, [16, 8]);
    let rows = x.len() / 8;
    let mut h = Vec::new();
    for r in 0..rows {
        for o in 0..16 {
            h.push(b[o] as f64 + (0..8).map(|k| x[r * 8 + k] as f64 * w[o * 8 + k] as f64).sum::<f64>());
        }
    }
    (h, w.iter().map(|&v| v as f64).collect())
}

fn check_mlp_initializers(test: &str, external: ExternalData) -> (PathBuf, ExportReport, ModelProto) {
    let (path, report, model) = export_ok(test, MLP_INITIALIZERS, external);
    assert_eq!((report.initializers, report.initializer_bytes, report.nodes), (2, 16 * 8 * 4 + 16 * 4, 2));
    let names: Vec<&str> = model.graph.initializer.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["fc1.weight", "fc1.bias"], "one initializer per FQN");
    assert_eq!(model.graph.node[0].input, ["x", "fc1.weight", "fc1.bias"]);
    assert_eq!(
        (model.graph.node[1].op_type.as_str(), model.graph.node[1].input[0].as_str()),
        ("Identity", "fc1.weight")
    );
    assert_eq!(model.graph.initializer[0].dims, [16, 8]);
    assert_eq!(model.graph.initializer[0].data_type, 1);

    let x: Vec<f32> = (0..24).map(|i| (i as f32 * 0.37).sin()).collect();
    if let Some(result) = run_model(&path, json!({"x": f32_input(&[3, 8], &x)}), None) {
        let (h, w) = mlp_expected(&x);
        assert_eq!(output(&result, "h")["shape"], json!([3, 16]));
        assert_close(&floats(&output(&result, "h")["data"]), &h, "h");
        assert_close(&floats(&output(&result, "weight")["data"]), &w, "weight");
    }
    (path, report, model)
}

#[test]
fn initializers_from_the_archive() {
    let (path, report, model) = check_mlp_initializers("initializers", ExternalData::Auto);
    assert_eq!(report.external_data_file, None);
    let archive = aten2onnx_pt2::Archive::open("tests/fixtures/mlp.pt2").unwrap();
    for tensor in &model.graph.initializer {
        let expected = archive.weight(&tensor.name).unwrap().contiguous_bytes().unwrap();
        assert_eq!(tensor.raw_data, expected, "{} bytes", tensor.name);
    }
    // The streamed file is byte for byte what rust-protobuf writes for the
    // same ModelProto held in memory.
    let written = std::fs::read(&path).unwrap();
    assert_eq!(model.write_to_bytes().unwrap(), written);
    // No temporary file is left beside the model.
    let files: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(files.iter().all(|f| !f.to_string_lossy().contains("partial")), "{files:?}");
}

#[test]
fn external_data_when_forced() {
    let (path, report, model) = check_mlp_initializers("external", ExternalData::Always);
    let data_file = path.with_file_name("model.onnx.data");
    assert_eq!(report.external_data_file.as_deref(), Some(data_file.as_path()));
    let data = std::fs::read(&data_file).unwrap();
    let archive = aten2onnx_pt2::Archive::open("tests/fixtures/mlp.pt2").unwrap();
    for tensor in &model.graph.initializer {
        assert!(tensor.raw_data.is_empty());
        assert_eq!(tensor.data_location.enum_value(), Ok(onnx_protobuf::tensor_proto::DataLocation::EXTERNAL));
        let get = |key: &str| tensor.external_data.iter().find(|e| e.key == key).unwrap().value.clone();
        assert_eq!(get("location"), "model.onnx.data", "relative to the model");
        let offset: usize = get("offset").parse().unwrap();
        let length: usize = get("length").parse().unwrap();
        assert_eq!(offset % 64, 0, "aligned offset");
        let expected = archive.weight(&tensor.name).unwrap().contiguous_bytes().unwrap();
        assert_eq!(&data[offset..offset + length], expected, "{}", tensor.name);
    }
    assert!(std::fs::metadata(&path).unwrap().len() < 1024, "the model holds no weight bytes");
}

const ATTENTION_INITIALIZERS: &str = r#"
module attributes {aten.archive = "tests/fixtures/attention.pt2"} {
  func.func @forward(%x: tensor<2x16xf32> {aten.name = "x"})
      -> (tensor<2x16xf32> {aten.name = "y"}, tensor<16x16xf32> {aten.name = "w"}, tensor<16xf32> {aten.name = "pos"}, tensor<i64> {aten.name = "steps_out"}) {
    %w = "onnx.initializer"() {name = "proj.weight"} : () -> tensor<16x16xf32>
    %pos = "onnx.initializer"() {name = "pos_row"} : () -> tensor<16xf32>
    %steps = "onnx.initializer"() {name = "steps"} : () -> tensor<i64>
    %y = "onnx.MatMul"(%x, %w) : (tensor<2x16xf32>, tensor<16x16xf32>) -> tensor<2x16xf32>
    return %y, %w, %pos, %steps : tensor<2x16xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<i64>
  }
}
"#;

#[test]
fn transposed_parameter_is_written_row_major() {
    let archive = aten2onnx_pt2::Archive::open("tests/fixtures/attention.pt2").unwrap();
    let proj = archive.weight("proj.weight").unwrap();
    assert!(!proj.is_contiguous(), "the fixture's proj.weight is a transposed view (strides {:?})", proj.strides);
    let (path, report, model) = export_ok("transposed", ATTENTION_INITIALIZERS, ExternalData::Auto);
    assert_eq!(report.initializers, 3);
    assert_eq!(report.initializer_bytes, 16 * 16 * 4 + 16 * 4 + 8);
    let steps = model.graph.initializer.iter().find(|t| t.name == "steps").unwrap();
    assert_eq!((steps.dims.len(), steps.data_type, steps.raw_data.len()), (0, 7, 8));

    let x: Vec<f32> = (0..32).map(|i| (i as f32 * 0.21).cos()).collect();
    let torch = json!({"pt2": "tests/fixtures/attention.pt2", "tensors": ["proj.weight", "pos_row", "steps"]});
    let Some(result) = run_model(&path, json!({"x": f32_input(&[2, 16], &x)}), Some(torch)) else { return };
    // torch's own view of the tensors (proj.weight.contiguous(), the
    // pos_row view at its storage offset) is the reference.
    let w = floats(&result["torch"]["proj.weight"]);
    assert_close(&floats(&output(&result, "w")["data"]), &w, "proj.weight");
    assert_close(&floats(&output(&result, "pos")["data"]), &floats(&result["torch"]["pos_row"]), "pos_row");
    assert_eq!(output(&result, "steps_out")["data"], json!([result["torch"]["steps"][0]]));
    let mut y = Vec::new();
    for r in 0..2 {
        for c in 0..16 {
            y.push((0..16).map(|k| x[r * 16 + k] as f64 * w[k * 16 + c]).sum::<f64>());
        }
    }
    assert_close(&floats(&output(&result, "y")["data"]), &y, "x @ proj.weight");
}

#[test]
fn lowered_mlp_matches_torch() {
    // Lowered like `aten-opt --mlir-print-debuginfo`, so that node names
    // come from the imported locations.
    let mut options = opt_options("builtin.module(convert-aten-to-onnx, func.func(dce))");
    options.print.debug_info = true;
    let lowered = aten2onnx::opt::run(&import("mlp", true), crate::INPUT, &options)
        .unwrap_or_else(|e| panic!("lowering mlp: {e}"));
    let (path, report, model) = export_ok("lowered_mlp", &lowered, ExternalData::Auto);
    assert_eq!(report.initializers, 5, "4 weights and a shape constant");
    assert_eq!(signature(&model.graph.input), sig(&[("x", json!(["batch", 8]))]));
    assert_eq!(signature(&model.graph.output), sig(&[("linear_1", json!(["batch", 4]))]));
    let relu = model.graph.node.iter().find(|n| n.op_type == "Relu").unwrap();
    assert_eq!((relu.name.as_str(), relu.output[0].as_str()), ("relu", "relu"), "named after the node location");
    let x: Vec<f32> = (0..40).map(|i| (i as f32 * 0.13).sin()).collect();
    let torch = json!({"pt2": "tests/fixtures/mlp.pt2", "run": ["x"]});
    let Some(result) = run_model(&path, json!({"x": f32_input(&[5, 8], &x)}), Some(torch)) else { return };
    assert_eq!(output(&result, "linear_1")["shape"], json!([5, 4]));
    assert_close(&floats(&output(&result, "linear_1")["data"]), &floats(&result["torch_outputs"][0]), "mlp(x)");
}

#[test]
fn errors_leave_no_file() {
    let no_archive = MLP_INITIALIZERS.replace(r#"attributes {aten.archive = "tests/fixtures/mlp.pt2"} "#, "");
    let (path, result) = export("no_archive", &no_archive, ExternalData::Auto);
    let message = result.expect_err("no archive").to_string();
    assert!(message.contains("aten.archive"), "{message}");
    assert!(std::fs::read_dir(path.parent().unwrap()).unwrap().next().is_none(), "nothing written");

    let wrong_shape = MLP_INITIALIZERS.replace(
        r#"%b = "onnx.initializer"() {name = "fc1.bias"} : () -> tensor<16xf32>"#,
        r#"%b = "onnx.initializer"() {name = "fc1.bias"} : () -> tensor<8xf32>"#,
    );
    let (path, result) =
        export("wrong_shape", &wrong_shape.replace("tensor<16xf32>)", "tensor<8xf32>)"), ExternalData::Always);
    let message = result.expect_err("shape mismatch").to_string();
    assert!(message.contains("fc1.bias") && message.contains("[16]") && message.contains("[8]"), "{message}");
    assert!(std::fs::read_dir(path.parent().unwrap()).unwrap().next().is_none(), "nothing written");

    let missing = MLP_INITIALIZERS.replace(r#"{name = "fc1.bias"}"#, r#"{name = "fc9.bias"}"#);
    let (_, result) = export("missing_weight", &missing, ExternalData::Auto);
    let message = result.expect_err("unknown weight").to_string();
    assert!(message.contains("fc9.bias"), "{message}");

    let aten = r#"func.func @forward(%x: tensor<2xf32> {aten.name = "x"}) -> (tensor<2xf32> {aten.name = "y"}) {
      %0 = "aten.relu.default"(%x) : (tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32>
    }"#;
    let (path, result) = export("not_lowered", aten, ExternalData::Auto);
    let message = result.expect_err("aten op").to_string();
    assert!(message.contains("aten.relu.default") && message.contains("onnx dialect"), "{message}");
    assert!(!path.exists());
}
