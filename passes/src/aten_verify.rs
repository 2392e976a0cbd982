//! `aten-verify`: checks every `aten.*` op against the ATen registry
//! generated from torch's op schemas (operand/result counts and kinds,
//! attribute kinds, required arguments, unknown attributes). Unregistered ops
//! are otherwise unchecked by MLIR.

use crate::{
    aten_ir::{self, AtenOp, Slot},
    diag::op_error,
    ir::{self, attribute_kind, value_kind, ValueKind},
    Factory, PassId, PassInfo, ProjectPass,
};
use aten2onnx_dialects::aten::{ArgType, OpSchema};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "aten-verify",
    summary: "Check aten ops against the ATen op registry (torch 2.13 schemas)",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: AtenVerify, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct AtenVerify;

impl ProjectPass for AtenVerify {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        verify(op)
    }
}

/// Verifies every aten op nested in `op`; reports each problem as an error.
pub fn verify(op: OperationRef<'_, '_>) -> Result<(), ()> {
    let mut ok = true;
    ir::walk(op, &mut |inner| {
        let name = ir::op_name(inner);
        if name.starts_with(aten_ir::DIALECT_PREFIX) {
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
    match aten_ir::classify(name)? {
        AtenOp::Registered(schema) => verify_registered(op, schema),
        AtenOp::Weight => {
            expect_counts(op, 0, 1)?;
            let name = aten_ir::weight_name(op).ok_or("needs a string attribute 'name'")?;
            let kind = op.attribute(aten_ir::WEIGHT_KIND_ATTR).ok().and_then(ir::string_value);
            match kind.as_deref() {
                Some(k) if aten_ir::WEIGHT_KINDS.contains(&k) => {}
                _ => return Err(format!("weight '{name}' needs 'kind' = one of {:?}", aten_ir::WEIGHT_KINDS)),
            }
            expect_result_kinds(op, &[ValueKind::Tensor])
        }
        AtenOp::None => {
            expect_counts(op, 0, 1)?;
            expect_result_kinds(op, &[ValueKind::None])
        }
        AtenOp::SymConstant => {
            expect_counts(op, 0, 1)?;
            let value = op.attribute("value").map_err(|_| "needs a 'value' attribute")?;
            if !matches!(attribute_kind(value), "integer" | "float" | "bool") {
                return Err("'value' must be an integer, float or bool".to_string());
            }
            Ok(())
        }
        AtenOp::Sym(sym) => {
            expect_counts(op, sym.arity, 1)?;
            for (i, value) in op.operands().enumerate() {
                if !matches!(value_kind(value.r#type()), ValueKind::Integer | ValueKind::Float) {
                    return Err(format!("operand #{i} must be a symbolic scalar (i64, f64 or i1)"));
                }
            }
            Ok(())
        }
        AtenOp::HigherOrder => {
            if op.region_count() == 0 {
                return Err("higher-order op needs its subgraphs as regions".to_string());
            }
            Ok(())
        }
        AtenOp::Yield => Ok(()),
    }
}

fn expect_counts(op: OperationRef<'_, '_>, operands: usize, results: usize) -> Result<(), String> {
    if op.operand_count() != operands || op.result_count() != results {
        return Err(format!(
            "expects {operands} operand(s) and {results} result(s), has {} and {}",
            op.operand_count(),
            op.result_count()
        ));
    }
    Ok(())
}

fn expect_result_kinds(op: OperationRef<'_, '_>, kinds: &[ValueKind]) -> Result<(), String> {
    for (i, (result, kind)) in op.results().zip(kinds).enumerate() {
        if value_kind(result.r#type()) != *kind {
            return Err(format!("result #{i} must be of {kind:?} type, got {}", result.r#type()));
        }
    }
    Ok(())
}

fn verify_registered(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    let slots = aten_ir::layout(op, schema)?;
    for (arg, slot) in schema.arguments.iter().zip(&slots) {
        let ty = ArgType::parse(arg.ty);
        match slot {
            Slot::Operands(range) => {
                let kinds: Vec<ValueKind> =
                    aten_ir::operands_of(op, range).iter().map(|v| value_kind(v.r#type())).collect();
                check_operands(&ty, &kinds).map_err(|e| format!("argument '{}' ({}): {e}", arg.name, arg.ty))?;
            }
            Slot::Attribute(attr) => {
                let kind = attribute_kind(*attr);
                if !attribute_fits(&ty, kind) {
                    return Err(format!(
                        "attribute '{}' must hold a value of type {}, got {kind} {attr}",
                        arg.name, arg.ty
                    ));
                }
            }
            Slot::Absent => {
                if !matches!(ty, ArgType::Optional(_)) {
                    return Err(format!("missing argument '{}' ({})", arg.name, arg.ty));
                }
            }
        }
    }
    for (name, _) in op.attributes() {
        let name = name.as_string_ref().as_str().unwrap_or("");
        // Dotted names are discardable attributes of other layers.
        if name == aten_ir::SEGMENTS_ATTR || name.contains('.') {
            continue;
        }
        if !schema.arguments.iter().any(|a| a.name == name) {
            let names: Vec<_> = schema.arguments.iter().map(|a| a.name).collect();
            return Err(format!("has unknown attribute '{name}' (arguments: {})", names.join(", ")));
        }
    }
    check_results(op, schema)
}

fn check_operands(ty: &ArgType, kinds: &[ValueKind]) -> Result<(), String> {
    let scalar_ok = |ty: &ArgType, kind: ValueKind| match ty {
        ArgType::Tensor => kind == ValueKind::Tensor,
        ArgType::Int | ArgType::SymInt | ArgType::Bool => kind == ValueKind::Integer,
        ArgType::Float | ArgType::Scalar => matches!(kind, ValueKind::Integer | ValueKind::Float),
        _ => false,
    };
    match ty {
        ArgType::Optional(inner) if !matches!(**inner, ArgType::List { .. }) => check_operands(inner, kinds),
        ArgType::Optional(inner) => check_operands(inner, kinds),
        ArgType::List { elem, size } => {
            if let Some(size) = size {
                if kinds.len() != *size && !(kinds.len() == 1 && !is_tensor(elem)) {
                    return Err(format!("expects {size} values, got {}", kinds.len()));
                }
            }
            for (i, kind) in kinds.iter().enumerate() {
                let ok = match &**elem {
                    ArgType::Optional(inner) => *kind == ValueKind::None || scalar_ok(inner, *kind),
                    elem => scalar_ok(elem, *kind),
                };
                if !ok {
                    return Err(format!("element #{i} has the wrong kind ({kind:?})"));
                }
            }
            Ok(())
        }
        ty => {
            if kinds.len() != 1 {
                return Err(format!("expects 1 operand, got {}", kinds.len()));
            }
            if !scalar_ok(ty, kinds[0]) {
                return Err(format!("cannot be carried by a {:?} operand", kinds[0]));
            }
            Ok(())
        }
    }
}

fn is_tensor(ty: &ArgType) -> bool {
    aten_ir::is_tensor_type(ty)
}

fn attribute_fits(ty: &ArgType, kind: &str) -> bool {
    match ty {
        ArgType::Optional(inner) => attribute_fits(inner, kind),
        // torch.export records a Python number passed for a Tensor argument
        // (`x * 2` is `mul.Tensor(x, 2)`): a "wrapped number" attribute.
        ArgType::Tensor => matches!(kind, "integer" | "float" | "bool"),
        ArgType::Int | ArgType::SymInt => kind == "integer",
        ArgType::Float => kind == "float",
        ArgType::Bool => kind == "bool",
        ArgType::Scalar => matches!(kind, "integer" | "float" | "bool"),
        ArgType::Str | ArgType::Layout | ArgType::MemoryFormat | ArgType::Device | ArgType::Dimname => kind == "string",
        ArgType::ScalarType => kind == "type",
        ArgType::List { elem, .. } => match &**elem {
            ArgType::Int | ArgType::SymInt => kind == "array<i64>",
            ArgType::Float => kind == "array<f64>",
            ArgType::Bool => kind == "array<i1>",
            ArgType::Str | ArgType::Dimname => kind == "array",
            _ => false,
        },
        _ => false,
    }
}

fn check_results(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    let returns = schema.returns;
    let variadic = returns.len() == 1 && matches!(ArgType::parse(returns[0].ty), ArgType::List { .. });
    if !variadic && op.result_count() != returns.len() {
        return Err(format!("has {} results but the schema returns {}", op.result_count(), returns.len()));
    }
    for (i, result) in op.results().enumerate() {
        let ty = if variadic {
            match ArgType::parse(returns[0].ty) {
                ArgType::List { elem, .. } => *elem,
                other => other,
            }
        } else {
            ArgType::parse(returns[i].ty)
        };
        let kind = value_kind(result.r#type());
        let ok = match ty {
            ArgType::Tensor | ArgType::Optional(_) => {
                matches!(kind, ValueKind::Tensor | ValueKind::None)
            }
            ArgType::Int | ArgType::SymInt | ArgType::Bool => kind == ValueKind::Integer,
            ArgType::Float | ArgType::Scalar => {
                matches!(kind, ValueKind::Integer | ValueKind::Float)
            }
            _ => true,
        };
        if !ok {
            return Err(format!(
                "result #{i} has type {} but the schema returns {}",
                result.r#type(),
                schema_return(schema, i)
            ));
        }
    }
    Ok(())
}

fn schema_return(schema: &OpSchema, i: usize) -> &str {
    schema.returns.get(i).or(schema.returns.first()).map_or("?", |r| r.ty)
}
