//! Traceable ONNX: every node says which aten node and op it came from and
//! the Python line (`doc_string`, `metadata_props`), the model names its
//! source archive; `--strip-debug-info` removes all of it.

use aten2onnx::translate::{self, ConvertOptions};
use onnx_protobuf::ModelProto;
use protobuf::Message;

fn convert(name: &str, debug_info: bool) -> ModelProto {
    // One scratch dir per call: scratch_dir empties its directory, and the
    // tests of this file run in parallel.
    let dir = crate::scratch_dir(&format!("trace_{name}_{debug_info}"));
    let out = dir.join(format!("{name}-{debug_info}.onnx"));
    let options = ConvertOptions { debug_info, ..Default::default() };
    translate::convert(&crate::fixture(name), &out, &options).unwrap_or_else(|e| panic!("{e}"));
    ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap()
}

fn meta<'a>(node: &'a onnx_protobuf::NodeProto, key: &str) -> Option<&'a str> {
    node.metadata_props.iter().find(|p| p.key == key).map(|p| p.value.as_str())
}

#[test]
fn nodes_name_their_aten_node_op_and_source_line() {
    let model = convert("mlp", true);
    assert_eq!(model.doc_string, "converted from mlp.pt2 by aten2onnx 0.1.0");
    let graph = model.graph.as_ref().unwrap();
    assert!(!graph.node.is_empty());
    for node in &graph.node {
        if node.op_type == "Identity" && meta(node, "aten2onnx.node").is_none() {
            continue; // an output copy the writer added
        }
        let aten_node = meta(node, "aten2onnx.node").unwrap_or_else(|| panic!("{} has no aten node", node.name));
        let op = meta(node, "aten2onnx.aten_op").unwrap_or_else(|| panic!("{} has no aten op", node.name));
        let source = meta(node, "aten2onnx.source").unwrap_or_else(|| panic!("{} has no source", node.name));
        assert!(op.starts_with("aten."), "{op}");
        assert!(source.contains(".py:"), "{source}");
        assert_eq!(node.doc_string, format!("node {aten_node} ({op}) at {source}"));
    }
    // The linear layers of the fixture: lowered nodes name `aten.linear.default`
    // and the capture script's line.
    let linear: Vec<_> =
        graph.node.iter().filter(|n| meta(n, "aten2onnx.aten_op") == Some("aten.linear.default")).collect();
    assert!(!linear.is_empty(), "no node from aten.linear.default");
    assert!(linear.iter().all(|n| meta(n, "aten2onnx.source").unwrap().starts_with("tools/capture_fixtures.py:")));
}

#[test]
fn strip_debug_info_removes_provenance() {
    let model = convert("mlp", false);
    assert!(model.doc_string.is_empty());
    let graph = model.graph.as_ref().unwrap();
    assert!(graph.node.iter().all(|n| n.doc_string.is_empty() && n.metadata_props.is_empty()));
}

/// A complex graph input or output is written as its real view (float with a
/// trailing dim of 2): its doc_string says so, and the report lists it for
/// the command line's note, since feeding a complex array would fail.
#[test]
fn complex_inputs_and_outputs_say_they_are_real_views() {
    let dir = crate::scratch_dir("trace_complex");
    let input = dir.join("complex.mlir");
    std::fs::write(
        &input,
        r#"func.func @forward(%x: tensor<3x2xf32>, %z: tensor<4xcomplex<f64>>) -> (tensor<3xcomplex<f32>>, tensor<4x2xf64>) {
  %c = "aten.view_as_complex.default"(%x) : (tensor<3x2xf32>) -> tensor<3xcomplex<f32>>
  %r = "aten.view_as_real.default"(%z) : (tensor<4xcomplex<f64>>) -> tensor<4x2xf64>
  return %c, %r : tensor<3xcomplex<f32>>, tensor<4x2xf64>
}
"#,
    )
    .unwrap();
    let out = dir.join("complex.onnx");
    let written =
        translate::convert(input.to_str().unwrap(), &out, &ConvertOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<(&str, &str)> = written.complex_views.iter().map(|(n, d)| (n.as_str(), d.as_str())).collect();
    assert_eq!(names, [("input_1", "complex128"), ("output_0", "complex64")]);
    let model = ModelProto::parse_from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let graph = model.graph.as_ref().unwrap();
    let doc = |v: &onnx_protobuf::ValueInfoProto| v.doc_string.clone();
    assert_eq!(doc(&graph.input[0]), "");
    assert!(doc(&graph.input[1]).starts_with("complex128 tensor written as its real view"), "{}", doc(&graph.input[1]));
    assert!(doc(&graph.input[1]).contains("float64 with one more trailing dim of 2"));
    assert!(doc(&graph.output[0]).starts_with("complex64 tensor written as its real view"));
    assert_eq!(doc(&graph.output[1]), "");
}
