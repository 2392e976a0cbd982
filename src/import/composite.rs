//! Ops outside ATen whose meaning is a short ATen program, rewritten into
//! that program before import.
//!
//! `torch.nn.functional.linear_cross_entropy(..., options=...)` (torch 2.13)
//! exports as the custom ops `torch_nn::_linear_cross_entropy_batch_chunked`
//! (mean/sum) and `torch_nn::_linear_cross_entropy_batch_chunked_no_reduction`
//! (none): the loss of `cross_entropy(linear(input, W, b), target, ...)`
//! computed over batch chunks to save memory, plus, for the first, the
//! gradients precomputed in the forward when asked (`compute_*_grad`). The
//! chunking only changes the order of the sums; the value is the
//! unchunked loss, which is what the rewrite computes. Gradients asked for
//! in the forward are refused (an inference graph never asks: they come out
//! as empty tensors, which the rewrite produces with `zeros`).

use aten2onnx_pt2::schema::{
    Argument, ExportedProgram, Graph, NamedArgument, Node, OptionalTensorArgument, SymInt, SymIntArgument,
    TensorArgument,
};

const CHUNKED: &str = "torch.ops.torch_nn._linear_cross_entropy_batch_chunked.default";
const CHUNKED_NO_REDUCTION: &str = "torch.ops.torch_nn._linear_cross_entropy_batch_chunked_no_reduction.default";

/// The op targets this module rewrites, and the ATen targets they become.
pub const COMPOSITE_OPS: &[(&str, &[&str])] = &[
    (CHUNKED, &["aten.linear.default", "aten.cross_entropy_loss.default", "aten.zeros.default"]),
    (CHUNKED_NO_REDUCTION, &["aten.linear.default", "aten.cross_entropy_loss.default"]),
];

/// `program` with every composite op rewritten, or `None` when it has none.
pub fn expand(program: &ExportedProgram) -> Result<Option<ExportedProgram>, String> {
    if !uses_composite(&program.graph_module.graph) {
        return Ok(None);
    }
    let mut out = program.clone();
    expand_graph(&mut out.graph_module.graph)?;
    Ok(Some(out))
}

fn uses_composite(graph: &Graph) -> bool {
    graph.nodes.iter().any(|n| {
        COMPOSITE_OPS.iter().any(|(t, _)| *t == n.target)
            || n.inputs.iter().any(|i| matches!(&i.arg, Argument::AsGraph(g) if uses_composite(&g.graph)))
    })
}

fn expand_graph(graph: &mut Graph) -> Result<(), String> {
    let nodes = std::mem::take(&mut graph.nodes);
    let mut out = Vec::with_capacity(nodes.len());
    for mut node in nodes {
        for input in &mut node.inputs {
            if let Argument::AsGraph(g) = &mut input.arg {
                expand_graph(&mut g.graph)?;
            }
        }
        if node.target == CHUNKED || node.target == CHUNKED_NO_REDUCTION {
            let label = node.name.clone().unwrap_or_else(|| node.target.clone());
            out.extend(linear_cross_entropy(graph, &node).map_err(|e| format!("node '{label}': {e}"))?);
        } else {
            out.push(node);
        }
    }
    graph.nodes = out;
    Ok(())
}

fn arg<'a>(node: &'a Node, name: &str) -> Result<&'a Argument, String> {
    node.input(name).ok_or_else(|| format!("{} has no argument '{name}'", node.target))
}

fn tensor_name(arg: &Argument) -> Option<&str> {
    match arg {
        Argument::AsTensor(t) => Some(&t.name),
        Argument::AsOptionalTensor(OptionalTensorArgument::AsTensor(t)) => Some(&t.name),
        _ => None,
    }
}

fn named(name: &str, arg: Argument) -> NamedArgument {
    NamedArgument { name: name.to_string(), arg, kind: None }
}

fn int_of(arg: &Argument) -> Option<i64> {
    match arg {
        Argument::AsInt(v) => Some(*v),
        Argument::AsSymInt(SymIntArgument::AsInt(v)) => Some(*v),
        _ => None,
    }
}

/// The nodes computing `node` (one of the two chunked ops).
fn linear_cross_entropy(graph: &mut Graph, node: &Node) -> Result<Vec<Node>, String> {
    let reduced = node.target == CHUNKED;
    if reduced {
        for flag in ["compute_input_grad", "compute_linear_weight_grad", "compute_linear_bias_grad"] {
            if !matches!(node.input(flag), None | Some(Argument::AsBool(false))) {
                return Err(format!(
                    "linear_cross_entropy computing gradients in the forward ({flag}=True) cannot be exported to \
                     ONNX; capture the model for inference (torch.no_grad() or inputs without requires_grad)"
                ));
            }
        }
    }
    let input = tensor_name(arg(node, "input")?).ok_or("'input' is not a tensor")?.to_string();
    let weight = tensor_name(arg(node, "linear_weight")?).ok_or("'linear_weight' is not a tensor")?.to_string();
    let bias = node.input("linear_bias").cloned().unwrap_or(Argument::AsNone(true));
    let reduction = if reduced {
        match arg(node, "reduction")? {
            Argument::AsString(s) if s == "mean" => 1,
            Argument::AsString(s) if s == "sum" => 2,
            other => return Err(format!("unexpected reduction {other:?}")),
        }
    } else {
        0
    };
    let ignore_index = int_of(arg(node, "ignore_index")?).ok_or("'ignore_index' is not an int")?;
    let label_smoothing = match node.input("label_smoothing") {
        None => 0.0,
        Some(Argument::AsFloat(v)) => *v,
        Some(other) => return Err(format!("'label_smoothing' is {other:?}, not a float")),
    };
    let loss_name = match node.outputs.first() {
        Some(Argument::AsTensor(t)) => t.name.clone(),
        Some(Argument::AsTensors(ts)) if !ts.is_empty() => ts[0].name.clone(),
        other => return Err(format!("unexpected outputs {other:?}")),
    };
    let output_names: Vec<Option<String>> = match node.outputs.as_slice() {
        [Argument::AsTensors(ts)] => ts.iter().map(|t| Some(t.name.clone())).collect(),
        outs => outs
            .iter()
            .map(|o| match o {
                Argument::AsTensor(t) => Some(t.name.clone()),
                _ => None,
            })
            .collect(),
    };

    // logits = linear(input, W, b): input's sizes but the last, then W's first.
    let input_meta = graph.tensor_values.get(&input).ok_or_else(|| format!("no metadata for '{input}'"))?.clone();
    let weight_meta = graph.tensor_values.get(&weight).ok_or_else(|| format!("no metadata for '{weight}'"))?;
    let classes = weight_meta.sizes.first().cloned().ok_or("'linear_weight' is 0-d")?;
    let mut sizes = input_meta.sizes.clone();
    sizes.pop().ok_or("'input' is 0-d")?;
    sizes.push(classes);
    let mut logits_meta = input_meta.clone();
    logits_meta.strides = contiguous_strides(&sizes);
    logits_meta.sizes = sizes;
    logits_meta.storage_offset = SymInt::AsInt(0);
    let mut logits = format!("{loss_name}__logits");
    while graph.tensor_values.contains_key(&logits) {
        logits.push('_');
    }
    graph.tensor_values.insert(logits.clone(), logits_meta);

    let base = Node {
        target: String::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
        metadata: node.metadata.clone(),
        is_hop_single_tensor_return: None,
        name: node.name.clone(),
    };
    let tensor = |name: &str| Argument::AsTensor(TensorArgument { name: name.to_string() });
    let mut nodes = vec![
        Node {
            target: "torch.ops.aten.linear.default".into(),
            inputs: vec![named("input", tensor(&input)), named("weight", tensor(&weight)), named("bias", bias)],
            outputs: vec![tensor(&logits)],
            ..base.clone()
        },
        Node {
            target: "torch.ops.aten.cross_entropy_loss.default".into(),
            inputs: vec![
                named("self", tensor(&logits)),
                named("target", arg(node, "target")?.clone()),
                named("weight", node.input("weight").cloned().unwrap_or(Argument::AsNone(true))),
                named("reduction", Argument::AsInt(reduction)),
                named("ignore_index", Argument::AsSymInt(SymIntArgument::AsInt(ignore_index))),
                named("label_smoothing", Argument::AsFloat(label_smoothing)),
            ],
            outputs: vec![tensor(&loss_name)],
            ..base.clone()
        },
    ];
    // The gradient slots (empty: nothing was asked) that the program names.
    for name in output_names.iter().skip(1).flatten() {
        let meta = graph.tensor_values.get(name).ok_or_else(|| format!("no metadata for '{name}'"))?;
        let sizes: Vec<SymIntArgument> = meta
            .sizes
            .iter()
            .map(|s| s.as_int().map(SymIntArgument::AsInt))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("gradient slot '{name}' has a symbolic size"))?;
        nodes.push(Node {
            target: "torch.ops.aten.zeros.default".into(),
            inputs: vec![named("size", Argument::AsSymInts(sizes)), named("dtype", Argument::AsScalarType(meta.dtype))],
            outputs: vec![tensor(name)],
            ..base.clone()
        });
    }
    Ok(nodes)
}

/// Row-major strides of `sizes` when static; symbolic sizes keep unit
/// strides (no stride of these values is ever read: they are not viewed).
fn contiguous_strides(sizes: &[SymInt]) -> Vec<SymInt> {
    let mut strides = vec![SymInt::AsInt(1); sizes.len()];
    let mut acc = Some(1i64);
    for (i, s) in sizes.iter().enumerate().rev() {
        if let Some(a) = acc {
            strides[i] = SymInt::AsInt(a);
        }
        acc = acc.zip(s.as_int()).map(|(a, s)| a * s.max(1));
    }
    strides
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(compute_input_grad: bool) -> Graph {
        let meta = |sizes: &str, dtype: i32| {
            format!(
                r#"{{"dtype": {dtype}, "sizes": {sizes}, "requires_grad": false, "device": {{"type": "cpu"}},
                "strides": [], "storage_offset": {{"as_int": 0}}, "layout": 7}}"#
            )
        };
        let json = format!(
            r#"{{"inputs": [], "outputs": [], "nodes": [{{
                "target": "{CHUNKED}", "name": "lce",
                "inputs": [
                  {{"name": "input", "arg": {{"as_tensor": {{"name": "x"}}}}}},
                  {{"name": "linear_weight", "arg": {{"as_tensor": {{"name": "w"}}}}}},
                  {{"name": "target", "arg": {{"as_tensor": {{"name": "t"}}}}}},
                  {{"name": "linear_bias", "arg": {{"as_none": true}}}},
                  {{"name": "weight", "arg": {{"as_none": true}}}},
                  {{"name": "reduction", "arg": {{"as_string": "sum"}}}},
                  {{"name": "ignore_index", "arg": {{"as_int": -100}}}},
                  {{"name": "label_smoothing", "arg": {{"as_float": 0.0}}}},
                  {{"name": "compute_input_grad", "arg": {{"as_bool": {compute_input_grad}}}}}],
                "outputs": [{{"as_tensor": {{"name": "loss"}}}}, {{"as_tensor": {{"name": "gi"}}}}],
                "metadata": {{}}}}],
              "tensor_values": {{"x": {x}, "w": {w}, "t": {t}, "loss": {loss}, "gi": {gi}}}}}"#,
            x = meta(r#"[{"as_int": 5}, {"as_int": 4}]"#, 7),
            w = meta(r#"[{"as_int": 7}, {"as_int": 4}]"#, 7),
            t = meta(r#"[{"as_int": 5}]"#, 5),
            loss = meta("[]", 7),
            gi = meta(r#"[{"as_int": 0}, {"as_int": 0}]"#, 7),
        );
        serde_json::from_str(&json).unwrap()
    }

    #[test]
    fn chunked_loss_becomes_linear_cross_entropy_and_empty_gradient_slots() {
        let mut g = graph(false);
        expand_graph(&mut g).unwrap();
        let targets: Vec<&str> = g.nodes.iter().map(|n| n.target.as_str()).collect();
        assert_eq!(
            targets,
            [
                "torch.ops.aten.linear.default",
                "torch.ops.aten.cross_entropy_loss.default",
                "torch.ops.aten.zeros.default"
            ]
        );
        let logits = &g.tensor_values["loss__logits"];
        assert_eq!(logits.static_sizes(), Some(vec![5, 7]));
        assert_eq!(logits.static_strides(), Some(vec![7, 1]));
        assert_eq!(g.nodes[1].input("reduction"), Some(&Argument::AsInt(2)));
        assert_eq!(g.nodes[2].input("size"), Some(&Argument::AsSymInts(vec![SymIntArgument::AsInt(0); 2])));
    }

    #[test]
    fn gradients_asked_in_the_forward_are_refused_by_name() {
        let err = expand_graph(&mut graph(true)).unwrap_err();
        assert!(err.contains("node 'lce'") && err.contains("compute_input_grad=True"), "{err}");
    }
}
