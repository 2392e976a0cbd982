//! Opset upgrade of an imported model: `aten-translate --to-onnx m.onnx
//! --opset 23` on a model that imports an older opset of the default domain
//! (exporters write 17..20), so the optimizer may use the newer ops
//! (RMSNormalization, RotaryEmbedding, Attention at 23).
//!
//! Between opsets 13 and 23 most new op versions only add element types or
//! attributes whose defaults keep the old behaviour: a node of such an op
//! means the same at the new opset. The versions that change what a node
//! means are listed in [`CHANGES`] and rewritten node by node (an attribute
//! that became an input, renamed attribute values, a default that changed);
//! one that cannot be rewritten without the values' types
//! (GroupNormalization's per-group scale at 21) is refused, naming the
//! nodes. Versions past 23 are not vetted: upgrades stop there. Subgraphs
//! (`If`/`Loop`/`Scan` bodies) and model-local functions are upgraded too.

use onnx_protobuf::{attribute_proto::AttributeType, AttributeProto, GraphProto, ModelProto, NodeProto};
use std::collections::HashSet;

/// The lowest opset an upgrade starts from (older models: upgrade them
/// with `onnx.version_converter` first).
pub const MIN_FROM: u32 = 13;
/// The highest opset an upgrade goes to.
pub const MAX_TO: u32 = 23;

/// How a node of an op whose version `since` lies in the upgrade's range
/// becomes a node with the same meaning at the new opset.
#[derive(Clone, Copy)]
enum Change {
    /// The `axes` attribute became the second input (Reduce* at 18).
    AxesToInput,
    /// `split` input or else `num_outputs` (Split 18: one of them is required).
    SplitOutputs,
    /// `mode` values renamed: bilinear -> linear, bicubic -> cubic (GridSample 20).
    GridSampleModes,
    /// The `axis` attribute (default 1) became the third input (DFT 20).
    DftAxisToInput,
    /// `coordinate_transformation_mode` added with a default (half_pixel)
    /// unlike the old behaviour (output_half_pixel) (RoiAlign 16).
    RoiAlignOldDefault,
    /// training_mode's extra outputs changed (BatchNormalization 14):
    /// inference nodes (one output) keep their meaning; others are refused.
    BatchNormOneOutput,
    /// Cannot be rewritten here.
    Refused(&'static str),
}

/// (op, version that changed its meaning, how to rewrite a node).
const CHANGES: &[(&str, u32, Change)] = &[
    ("BatchNormalization", 14, Change::BatchNormOneOutput),
    ("RoiAlign", 16, Change::RoiAlignOldDefault),
    ("ReduceL1", 18, Change::AxesToInput),
    ("ReduceL2", 18, Change::AxesToInput),
    ("ReduceLogSum", 18, Change::AxesToInput),
    ("ReduceLogSumExp", 18, Change::AxesToInput),
    ("ReduceMax", 18, Change::AxesToInput),
    ("ReduceMean", 18, Change::AxesToInput),
    ("ReduceMin", 18, Change::AxesToInput),
    ("ReduceProd", 18, Change::AxesToInput),
    ("ReduceSumSquare", 18, Change::AxesToInput),
    ("Split", 18, Change::SplitOutputs),
    ("GridSample", 20, Change::GridSampleModes),
    ("DFT", 20, Change::DftAxisToInput),
    (
        "GroupNormalization",
        21,
        Change::Refused("its scale and bias are per group before opset 21 and per channel from 21"),
    ),
];

/// Upgrades `model` from its default-domain opset to `to`. An error names
/// what stops it.
pub fn upgrade(model: &mut ModelProto, to: u32) -> Result<(), String> {
    let from = default_opset(&model.opset_import).ok_or("the model imports no opset of the default domain")?;
    if from == to {
        return Ok(());
    }
    if from > to {
        return Err(format!(
            "the model imports opset {from}; --opset {to} would be a downgrade, which is not supported"
        ));
    }
    if to > MAX_TO {
        return Err(format!("opset upgrades go up to {MAX_TO} (--opset {to} was given; the model imports {from})"));
    }
    if from < MIN_FROM {
        return Err(format!(
            "the model imports opset {from}; upgrades start at opset {MIN_FROM} (convert it first with onnx.version_converter)"
        ));
    }
    let mut refused = Vec::new();
    if let Some(graph) = model.graph.as_mut() {
        let mut names = Names::default();
        names.collect_graph(graph);
        upgrade_nodes(&mut graph.node, from, to, &mut names, &mut refused);
    }
    for function in &mut model.functions {
        let Some(f_from) = default_opset(&function.opset_import) else { continue };
        if f_from > to || f_from < MIN_FROM {
            return Err(format!(
                "function `{}` imports opset {f_from} of the default domain; it cannot be upgraded to {to}",
                function.name
            ));
        }
        let mut names = Names::default();
        names.taken.extend(function.input.iter().chain(&function.output).cloned());
        for node in &function.node {
            names.collect_node(node);
        }
        upgrade_nodes(&mut function.node, f_from, to, &mut names, &mut refused);
        set_default_opset(&mut function.opset_import, to);
    }
    if !refused.is_empty() {
        return Err(format!("cannot upgrade opset {from} to {to}: {}", refused.join("; ")));
    }
    set_default_opset(&mut model.opset_import, to);
    Ok(())
}

fn default_opset(imports: &[onnx_protobuf::OperatorSetIdProto]) -> Option<u32> {
    imports
        .iter()
        .find(|i| i.domain.is_empty() || i.domain == "ai.onnx")
        .map(|i| i.version.clamp(0, u32::MAX as i64) as u32)
}

fn set_default_opset(imports: &mut [onnx_protobuf::OperatorSetIdProto], to: u32) {
    for import in imports.iter_mut().filter(|i| i.domain.is_empty() || i.domain == "ai.onnx") {
        import.version = i64::from(to);
    }
}

/// Value and node names in use, for the names of the nodes added.
#[derive(Default)]
struct Names {
    taken: HashSet<String>,
}

impl Names {
    fn collect_graph(&mut self, graph: &GraphProto) {
        for v in graph.input.iter().chain(&graph.output).chain(&graph.value_info) {
            self.taken.insert(v.name.clone());
        }
        for t in &graph.initializer {
            self.taken.insert(t.name.clone());
        }
        for node in &graph.node {
            self.collect_node(node);
        }
    }

    fn collect_node(&mut self, node: &NodeProto) {
        self.taken.extend(node.input.iter().chain(&node.output).chain(std::iter::once(&node.name)).cloned());
        for a in &node.attribute {
            for g in a.g.as_ref().into_iter().chain(&a.graphs) {
                self.collect_graph(g);
            }
        }
    }

    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 1;
        while self.taken.contains(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

fn upgrade_nodes(nodes: &mut Vec<NodeProto>, from: u32, to: u32, names: &mut Names, refused: &mut Vec<String>) {
    let mut out = Vec::with_capacity(nodes.len());
    for mut node in std::mem::take(nodes) {
        for a in &mut node.attribute {
            for g in a.g.as_mut().into_iter().chain(a.graphs.iter_mut()) {
                upgrade_nodes(&mut g.node, from, to, names, refused);
            }
        }
        if node.domain.is_empty() || node.domain == "ai.onnx" {
            for &(op, since, change) in CHANGES {
                if node.op_type == op && from < since && since <= to {
                    rewrite(&mut node, change, names, &mut out, refused);
                }
            }
        }
        out.push(node);
    }
    *nodes = out;
}

fn label(node: &NodeProto) -> String {
    if node.name.is_empty() {
        format!("a {} node (output `{}`)", node.op_type, node.output.first().map(String::as_str).unwrap_or("?"))
    } else {
        format!("node `{}` ({})", node.name, node.op_type)
    }
}

/// Rewrites `node`; nodes it needs (constants) go to `before`.
fn rewrite(
    node: &mut NodeProto,
    change: Change,
    names: &mut Names,
    before: &mut Vec<NodeProto>,
    refused: &mut Vec<String>,
) {
    match change {
        Change::AxesToInput => {
            let Some(i) = node.attribute.iter().position(|a| a.name == "axes") else { return };
            let axes = node.attribute.remove(i).ints;
            let name = names.fresh(&format!("{}_axes", node.output.first().cloned().unwrap_or_default()));
            before.push(ints_constant(&name, &axes, names));
            node.input.truncate(1);
            node.input.push(name);
        }
        Change::SplitOutputs => {
            let has_split = node.input.get(1).is_some_and(|s| !s.is_empty());
            if !has_split && !node.attribute.iter().any(|a| a.name == "num_outputs") {
                node.attribute.push(int_attribute("num_outputs", node.output.len() as i64));
            }
        }
        Change::GridSampleModes => {
            for a in node.attribute.iter_mut().filter(|a| a.name == "mode") {
                let renamed: &[u8] = match a.s.as_slice() {
                    b"bilinear" => b"linear",
                    b"bicubic" => b"cubic",
                    other => other,
                };
                a.s = renamed.to_vec();
            }
        }
        Change::DftAxisToInput => {
            let axis = match node.attribute.iter().position(|a| a.name == "axis") {
                Some(i) => node.attribute.remove(i).i,
                None => 1,
            };
            let name = names.fresh(&format!("{}_axis", node.output.first().cloned().unwrap_or_default()));
            // DFT's axis is a scalar.
            before.push(scalar_i64_constant(&name, axis, names));
            node.input.resize(2, String::new());
            node.input.push(name);
        }
        Change::RoiAlignOldDefault => {
            if !node.attribute.iter().any(|a| a.name == "coordinate_transformation_mode") {
                node.attribute.push(AttributeProto {
                    name: "coordinate_transformation_mode".into(),
                    type_: AttributeType::STRING.into(),
                    s: b"output_half_pixel".to_vec(),
                    ..Default::default()
                });
            }
        }
        Change::BatchNormOneOutput => {
            if node.output.iter().filter(|o| !o.is_empty()).count() > 1 {
                refused.push(format!(
                    "{}: its running mean/variance outputs changed meaning at opset 14 (training mode)",
                    label(node)
                ));
            }
        }
        Change::Refused(why) => refused.push(format!("{}: {why}", label(node))),
    }
}

fn int_attribute(name: &str, value: i64) -> AttributeProto {
    AttributeProto { name: name.into(), type_: AttributeType::INT.into(), i: value, ..Default::default() }
}

/// A `Constant` node with a 0-d int64 tensor.
fn scalar_i64_constant(output: &str, value: i64, names: &mut Names) -> NodeProto {
    NodeProto {
        name: names.fresh(output),
        op_type: "Constant".into(),
        output: vec![output.to_string()],
        attribute: vec![AttributeProto {
            name: "value".into(),
            type_: AttributeType::TENSOR.into(),
            t: Some(onnx_protobuf::TensorProto {
                data_type: onnx_protobuf::tensor_proto::DataType::INT64 as i32,
                int64_data: vec![value],
                ..Default::default()
            })
            .into(),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A `Constant` node with a 1-D int64 `value_ints`.
fn ints_constant(output: &str, values: &[i64], names: &mut Names) -> NodeProto {
    NodeProto {
        name: names.fresh(output),
        op_type: "Constant".into(),
        output: vec![output.to_string()],
        attribute: vec![AttributeProto {
            name: "value_ints".into(),
            type_: AttributeType::INTS.into(),
            ints: values.to_vec(),
            ..Default::default()
        }],
        ..Default::default()
    }
}
