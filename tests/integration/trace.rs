//! Traceable ONNX: every node says which aten node and op it came from and
//! the Python line (`doc_string`, `metadata_props`), the model names its
//! source archive; `--strip-debug-info` removes all of it.

use aten2onnx::translate::{self, ConvertOptions};
use onnx_protobuf::ModelProto;
use protobuf::Message;

fn convert(name: &str, debug_info: bool) -> ModelProto {
    let dir = crate::scratch_dir("trace");
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
