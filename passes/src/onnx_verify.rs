//! `onnx-verify`: checks every `onnx.*` op against the ONNX schema registry
//! generated from the onnx package, at the module's opset: the op exists at
//! that opset, input/output counts, required and unknown attributes and their
//! kinds, and the element types bound to each type constraint.

use crate::{
    diag::op_error,
    ir::{self, attribute_kind, value_kind, ValueKind},
    onnx_ir, Factory, PassId, PassInfo, ProjectPass,
};
use aten2onnx_dialects::onnx::{self as registry, AttrType, OpSchema};
use melior::ir::{operation::OperationLike, OperationRef, Type, ValueLike};
use std::collections::BTreeMap;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "onnx-verify",
    summary: "Check onnx ops against the ONNX schema registry (onnx 1.23) at the module's opset",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: OnnxVerify, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct OnnxVerify;

impl ProjectPass for OnnxVerify {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        verify(op)
    }
}

/// Verifies every onnx op nested in `op`.
pub fn verify(op: OperationRef<'_, '_>) -> Result<(), ()> {
    let mut ok = true;
    ir::walk(op, &mut |inner| {
        let name = ir::op_name(inner);
        if name.starts_with(onnx_ir::DIALECT_PREFIX) {
            if let Err(message) = verify_op(inner, &name) {
                op_error(inner, &message);
                ok = false;
            }
        }
    });
    if ok {
        Ok(())
    } else {
        Err(())
    }
}

fn verify_op(op: OperationRef<'_, '_>, name: &str) -> Result<(), String> {
    if name == onnx_ir::INITIALIZER_OP {
        if op.operand_count() != 0 || op.result_count() != 1 || op.attribute("name").is_err() {
            return Err("must have a 'name', no operands and one tensor result".to_string());
        }
        return Ok(());
    }
    if name == onnx_ir::NONE_OP {
        if op.operand_count() != 0
            || op.result_count() != 1
            || value_kind(op.result(0).unwrap().r#type()) != ValueKind::None
        {
            return Err("must have no operands and one result of type none".to_string());
        }
        return Ok(());
    }
    let (domain, op_type) = onnx_ir::split_name(name).ok_or("is not an onnx op name")?;
    let opset = onnx_ir::opset_of(op);
    let Some(schema) = registry::lookup(domain, op_type, opset) else {
        let versions: Vec<String> =
            registry::versions(domain, op_type).iter().map(|s| s.since_version.to_string()).collect();
        let domain_name = if domain.is_empty() { "ai.onnx" } else { domain };
        return Err(if versions.is_empty() {
            format!("is not an ONNX op (domain {domain_name}, onnx {})", registry::ONNX_VERSION)
        } else {
            format!("does not exist at opset {opset} (defined since opset {})", versions.join(", "))
        });
    };
    if schema.deprecated {
        return Err(format!("is deprecated at opset {opset}"));
    }
    let inputs = op.operand_count();
    if inputs < schema.min_input as usize || inputs > schema.max_input as usize {
        return Err(format!(
            "has {inputs} inputs; {} takes {}",
            op_type,
            range_text(schema.min_input, schema.max_input)
        ));
    }
    let outputs = op.result_count();
    if outputs < schema.min_output as usize || outputs > schema.max_output as usize {
        return Err(format!(
            "has {outputs} outputs; {} gives {}",
            op_type,
            range_text(schema.min_output, schema.max_output)
        ));
    }
    check_attributes(op, schema)?;
    check_type_constraints(op, schema)
}

fn range_text(min: u32, max: u32) -> String {
    if min == max {
        format!("{min}")
    } else if max >= i32::MAX as u32 {
        format!("at least {min}")
    } else {
        format!("{min} to {max}")
    }
}

fn check_attributes(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    for attr in schema.attributes {
        if attr.required && op.attribute(attr.name).is_err() && !matches!(attr.ty, AttrType::Graph | AttrType::Graphs) {
            return Err(format!("misses required attribute '{}'", attr.name));
        }
    }
    for (name, value) in op.attributes() {
        let name = name.as_string_ref().as_str().unwrap_or("");
        if name.contains('.') {
            continue; // discardable attributes of other layers
        }
        let Some(decl) = schema.attributes.iter().find(|a| a.name == name) else {
            let known: Vec<_> = schema.attributes.iter().map(|a| a.name).collect();
            return Err(format!("has unknown attribute '{name}' (attributes: {})", known.join(", ")));
        };
        let kind = attribute_kind(value);
        let ok = match decl.ty {
            AttrType::Int => kind == "integer",
            AttrType::Float => kind == "float",
            AttrType::String => kind == "string",
            AttrType::Ints => kind == "array<i64>",
            AttrType::Floats => kind == "array<f32>" || kind == "array<f64>",
            AttrType::Strings => kind == "array",
            AttrType::Tensor | AttrType::SparseTensor => kind == "dense elements" || kind == "other",
            AttrType::TypeProto => kind == "type",
            _ => true,
        };
        if !ok {
            return Err(format!("attribute '{name}' must be {:?}, got {kind}", decl.ty));
        }
    }
    Ok(())
}

/// Checks that each type parameter (`T`) is bound to one allowed type.
fn check_type_constraints(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    let mut bound: BTreeMap<&str, String> = BTreeMap::new();
    let mut check = |param: &'static str, ty: Type<'_>, what: String| -> Result<(), String> {
        let Some(constraint) = schema.type_constraints.iter().find(|c| c.type_param == param) else {
            return Ok(()); // a concrete type string, not a parameter
        };
        if value_kind(ty) == ValueKind::None {
            return Ok(());
        }
        let Some(actual) = onnx_ir::onnx_type_string(ty) else {
            return Err(format!("{what} has type {ty}, which is not an ONNX tensor type"));
        };
        if !constraint.allowed_types.iter().any(|a| *a == actual) {
            return Err(format!(
                "{what} has type {actual}, not allowed for {param} ({})",
                constraint.allowed_types.join(", ")
            ));
        }
        match bound.get(param) {
            Some(first) if *first != actual => {
                Err(format!("{what} has type {actual} but {param} is already bound to {first}"))
            }
            _ => {
                bound.insert(param, actual);
                Ok(())
            }
        }
    };
    for (i, value) in op.operands().enumerate() {
        if let Some(formal) = formal_at(schema.inputs, i) {
            check(formal.type_str, value.r#type(), format!("input #{i} ('{}')", formal.name))?;
        }
    }
    for (i, value) in op.results().enumerate() {
        if let Some(formal) = formal_at(schema.outputs, i) {
            check(formal.type_str, value.r#type(), format!("output #{i} ('{}')", formal.name))?;
        }
    }
    Ok(())
}

/// The formal parameter that the i-th actual value binds to (the last one is
/// repeated when it is variadic).
fn formal_at(formals: &'static [registry::FormalParameter], i: usize) -> Option<&'static registry::FormalParameter> {
    formals.get(i).or_else(|| formals.last().filter(|f| f.option == registry::ParamOption::Variadic))
}
