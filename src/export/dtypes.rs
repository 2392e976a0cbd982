//! Element types the target ONNX version can represent.
//!
//! Newer `TensorProto.DataType`s only exist from some IR version on (float8
//! from IR 9 = opset 19, 4-bit integers from IR 10 = opset 21, ...). A model
//! that uses one below that version is invalid (onnx.checker and runtimes
//! reject it), so the writer refuses it with the fix instead of writing it.

use onnx_protobuf::{attribute_proto::AttributeType, type_proto, GraphProto, TypeProto};

/// The first IR version, and the opset that brings it, of a data type that
/// did not exist from the start; `None` for the original types.
fn introduced(data_type: i32) -> Option<(i64, u32)> {
    Some(match data_type {
        17..=20 => (9, 19),  // float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz
        21 | 22 => (10, 21), // uint4, int4
        23 => (11, 23),      // float4e2m1
        24 => (12, 24),      // float8e8m0
        25 | 26 => (13, 25), // uint2, int2
        _ => return None,
    })
}

/// The ONNX name of a data type, for messages.
fn name(data_type: i32) -> &'static str {
    match data_type {
        17 => "float8e4m3fn",
        18 => "float8e4m3fnuz",
        19 => "float8e5m2",
        20 => "float8e5m2fnuz",
        21 => "uint4",
        22 => "int4",
        23 => "float4e2m1",
        24 => "float8e8m0",
        25 => "uint2",
        26 => "int2",
        _ => "this type",
    }
}

/// Checks every element type of `graph` (values, initializers, constants,
/// Cast targets, subgraphs) against `ir_version`; the message names the
/// first offending value and the opset to target instead.
pub fn check(graph: &GraphProto, ir_version: i64, opset: u32) -> Result<(), String> {
    let fail = |data_type: i32, what: &str| -> Result<(), String> {
        match introduced(data_type) {
            Some((ir, needs)) if ir > ir_version => Err(format!(
                "{what} has element type {}, which ONNX has only from opset {needs} (IR version {ir}); \
                 the model targets opset {opset}: convert with --opset {needs} or later",
                name(data_type)
            )),
            _ => Ok(()),
        }
    };
    let tensor_type = |t: &TypeProto| match &t.value {
        Some(type_proto::Value::TensorType(tensor)) => Some(tensor.elem_type),
        _ => None,
    };
    for (kind, values) in [("graph input", &graph.input), ("graph output", &graph.output), ("value", &graph.value_info)]
    {
        for v in values.iter() {
            if let Some(dt) = v.type_.as_ref().and_then(tensor_type) {
                fail(dt, &format!("{kind} `{}`", v.name))?;
            }
        }
    }
    for init in &graph.initializer {
        fail(init.data_type, &format!("initializer `{}`", init.name))?;
    }
    for node in &graph.node {
        let what = format!("node `{}` ({})", node.name, node.op_type);
        for attr in &node.attribute {
            match attr.type_.enum_value_or_default() {
                AttributeType::INT if attr.name == "to" && node.op_type.starts_with("Cast") => {
                    fail(attr.i as i32, &what)?
                }
                AttributeType::TENSOR => {
                    if let Some(t) = attr.t.as_ref() {
                        fail(t.data_type, &what)?
                    }
                }
                AttributeType::GRAPH => {
                    if let Some(g) = attr.g.as_ref() {
                        check(g, ir_version, opset)?
                    }
                }
                AttributeType::GRAPHS => {
                    for g in &attr.graphs {
                        check(g, ir_version, opset)?
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}
