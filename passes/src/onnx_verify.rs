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
use melior::ir::{attribute::AttributeLike, operation::OperationLike, OperationRef, Type, ValueLike};
use mlir_sys as sys;
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
    // The opset of the last parent op seen: `opset_of` climbs to the module
    // for every op otherwise (2% of a conversion). Same value: an op without
    // its own integer `onnx.opset` has its parent's.
    let mut parent_opset: Option<(sys::MlirOperation, u32)> = None;
    let mut opset_of = |inner: OperationRef<'_, '_>| -> u32 {
        let own =
            inner.attribute(onnx_ir::OPSET_ATTR).is_ok_and(|a| unsafe { sys::mlirAttributeIsAInteger(a.to_raw()) });
        let Some(parent) = inner.parent_operation().filter(|_| !own) else { return onnx_ir::opset_of(inner) };
        match parent_opset {
            Some((raw, opset)) if raw.ptr == parent.to_raw().ptr => opset,
            _ => {
                let opset = onnx_ir::opset_of(parent);
                parent_opset = Some((parent.to_raw(), opset));
                opset
            }
        }
    };
    ir::walk(op, &mut |inner| {
        // An `onnx.opset` that is not an integer would silently mean the
        // default opset (the attribute is read where it is an integer only).
        if let Ok(a) = inner.attribute(onnx_ir::OPSET_ATTR) {
            if !unsafe { sys::mlirAttributeIsAInteger(a.to_raw()) } {
                op_error(
                    inner,
                    &format!("`{}` must be an integer attribute (the ONNX opset), got {a}", onnx_ir::OPSET_ATTR),
                );
                ok = false;
            }
        }
        let name = ir::op_name_cow(inner);
        if name.starts_with(onnx_ir::DIALECT_PREFIX) {
            if let Err(message) = verify_op(inner, &name, &mut opset_of) {
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

/// `onnx.weight_transform`: a known kind, its operands initializers or
/// weight transforms, one result (see [`onnx_ir::WEIGHT_TRANSFORM_OP`]).
fn verify_weight_transform(op: OperationRef<'_, '_>) -> Result<(), String> {
    let kind = op.attribute("kind").ok().and_then(crate::ir::string_value).unwrap_or_default();
    if !onnx_ir::WEIGHT_TRANSFORM_KINDS.contains(&kind.as_str()) {
        return Err(format!(
            "needs a string 'kind', one of {}; got '{kind}'",
            onnx_ir::WEIGHT_TRANSFORM_KINDS.join(", ")
        ));
    }
    if op.result_count() != 1 || op.operand_count() == 0 {
        return Err("must have operands and one tensor result".to_string());
    }
    if kind == "slice" {
        for name in ["axis", "start"] {
            let int = op.attribute(name).is_ok_and(|a| crate::ir::attribute_kind(a) == "integer");
            if !int {
                return Err(format!("a slice needs an integer '{name}'"));
            }
        }
    }
    for (i, v) in op.operands().enumerate() {
        if !onnx_ir::is_weight_value(v) {
            return Err(format!("operand {i} is not an onnx.initializer or onnx.weight_transform"));
        }
    }
    Ok(())
}

fn verify_op(
    op: OperationRef<'_, '_>,
    name: &str,
    opset_of: &mut dyn FnMut(OperationRef<'_, '_>) -> u32,
) -> Result<(), String> {
    if name == onnx_ir::INITIALIZER_OP {
        if op.operand_count() != 0 || op.result_count() != 1 || op.attribute("name").is_err() {
            return Err("must have a 'name', no operands and one tensor result".to_string());
        }
        return Ok(());
    }
    if name == onnx_ir::WEIGHT_TRANSFORM_OP {
        return verify_weight_transform(op);
    }
    if name == onnx_ir::NONE_OP {
        if op.operand_count() != 0
            || op.result_count() != 1
            || ir::result_at(op, 0).is_none_or(|r| value_kind(r.r#type()) != ValueKind::None)
        {
            return Err("must have no operands and one result of type none".to_string());
        }
        return Ok(());
    }
    if name == onnx_ir::YIELD_OP {
        return verify_yield(op);
    }
    let (domain, op_type) = onnx_ir::split_name(name).ok_or("is not an onnx op name")?;
    if domain == "com.microsoft" {
        return Ok(()); // contrib ops: not in the registry, kept generic
    }
    let opset = opset_of(op);
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
    if op_type == "Cast" || op_type == "BitCast" {
        check_cast_target(op)?;
    }
    check_result_type_rule(op, op_type)?;
    if domain == "ai.onnx.ml" && op_type == "LabelEncoder" {
        check_label_encoder(op)?;
    }
    check_type_constraints(op, schema)?;
    check_required_inputs(op, schema)?;
    check_attribute_values(op, op_type, opset)?;
    check_regions(op, op_type)?;
    check_counts(op, op_type)?;
    check_axes(op, op_type)
}

/// Attribute-count rules the schema table does not express: a Constant
/// holds exactly one value attribute; a Scan's `num_scan_inputs` lies in
/// `[1, inputs]` and its per-scan-input/output attribute lists have one
/// entry per scan input/output, each axis within the rank of its input
/// (onnx.checker refuses such models; onnxruntime would fail at load).
fn check_counts(op: OperationRef<'_, '_>, op_type: &str) -> Result<(), String> {
    let ints = |name: &str| -> Option<Vec<i64>> {
        let attr = op.attribute(name).ok()?;
        if let Some(list) = ir::dense_i64_values(attr) {
            return Some(list);
        }
        melior::ir::attribute::IntegerAttribute::try_from(attr).ok().map(|i| vec![i.value()])
    };
    match op_type {
        "Split" => {
            if let Some(n) = ints("num_outputs").and_then(|v| v.first().copied()) {
                if n < 1 || n as usize != op.result_count() {
                    return Err(format!(
                        "attribute 'num_outputs' is {n}; it must be at least 1 and equal its {} result(s)",
                        op.result_count()
                    ));
                }
            }
        }
        "Constant" => {
            const VALUES: [&str; 8] = [
                "value",
                "value_float",
                "value_floats",
                "value_int",
                "value_ints",
                "value_string",
                "value_strings",
                "sparse_value",
            ];
            let given: Vec<&str> = VALUES.iter().copied().filter(|n| op.attribute(n).is_ok()).collect();
            if given.len() != 1 {
                return Err(format!(
                    "must have exactly one of the attributes {}; it has {}",
                    VALUES.join(", "),
                    if given.is_empty() { "none".to_string() } else { given.join(", ") }
                ));
            }
        }
        "Scan" => {
            let inputs = op.operand_count() as i64;
            let scans = ints("num_scan_inputs").and_then(|v| v.first().copied()).ok_or("needs 'num_scan_inputs'")?;
            if scans < 1 || scans > inputs {
                return Err(format!(
                    "attribute 'num_scan_inputs' is {scans}; it must be in [1, {inputs}] (its inputs)"
                ));
            }
            let states = inputs - scans;
            let scan_outputs = op.result_count() as i64 - states;
            if scan_outputs < 0 {
                return Err(format!("has {} results for {states} state values", op.result_count()));
            }
            for (name, count) in [
                ("scan_input_axes", scans),
                ("scan_input_directions", scans),
                ("scan_output_axes", scan_outputs),
                ("scan_output_directions", scan_outputs),
            ] {
                if let Some(list) = ints(name) {
                    if list.len() as i64 != count {
                        return Err(format!("attribute '{name}' has {} entries for {count}", list.len()));
                    }
                    if name.ends_with("directions") {
                        if let Some(bad) = list.iter().find(|&&d| d != 0 && d != 1) {
                            return Err(format!("attribute '{name}' holds {bad}; directions are 0 or 1"));
                        }
                    }
                }
            }
            if let Some(axes) = ints("scan_input_axes") {
                for (i, &axis) in axes.iter().enumerate() {
                    let input = crate::ir::operand_at(op, states as usize + i);
                    if let Some(rank) = input.and_then(|v| crate::lowering::builder::rank(v.r#type())) {
                        let r = rank as i64;
                        if axis < -r || axis >= r {
                            return Err(format!(
                                "attribute 'scan_input_axes' holds {axis} for scan input #{i} of rank {rank}"
                            ));
                        }
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Checks axis attributes against the rank of the first input (when it is
/// ranked): `axis`/`axes` in `[-r, r - 1]` (a 0-d input counts as rank 1),
/// with the output-rank exceptions of Flatten, OneHot and Unsqueeze, and
/// Transpose's `perm` a permutation of `0..r`.
fn check_axes(op: OperationRef<'_, '_>, op_type: &str) -> Result<(), String> {
    let Some(rank) = crate::ir::operand_at(op, 0).and_then(|v| crate::lowering::builder::rank(v.r#type())) else {
        return Ok(());
    };
    let ints = |name: &str| -> Option<Vec<i64>> {
        let attr = op.attribute(name).ok()?;
        if let Some(list) = ir::dense_i64_values(attr) {
            return Some(list);
        }
        melior::ir::attribute::IntegerAttribute::try_from(attr).ok().map(|i| vec![i.value()])
    };
    if matches!(
        op_type,
        "Conv"
            | "ConvTranspose"
            | "MaxPool"
            | "AveragePool"
            | "LpPool"
            | "ConvInteger"
            | "QLinearConv"
            | "MaxUnpool"
            | "DeformConv"
    ) {
        for name in ["strides", "dilations", "kernel_shape"] {
            if let Some(bad) = ints(name).and_then(|v| v.into_iter().find(|&n| n <= 0)) {
                return Err(format!("attribute '{name}' holds {bad}; it must be positive"));
            }
        }
        if let Some(bad) = ints("pads").and_then(|v| v.into_iter().find(|&n| n < 0)) {
            return Err(format!("attribute 'pads' holds {bad}; it must not be negative"));
        }
        // One entry per spatial dim (pads: a begin and an end each).
        let spatial = rank.saturating_sub(2);
        for (name, per_dim) in
            [("strides", 1), ("dilations", 1), ("kernel_shape", 1), ("pads", 2), ("output_padding", 1)]
        {
            if let Some(values) = ints(name) {
                if rank >= 3 && values.len() != per_dim * spatial {
                    return Err(format!(
                        "attribute '{name}' has {} values; an input of rank {rank} needs {}",
                        values.len(),
                        per_dim * spatial
                    ));
                }
            }
        }
    }
    if op_type == "MatMul" {
        let dims_of = |i: usize| crate::ir::operand_at(op, i).and_then(|v| crate::lowering::builder::dims(v.r#type()));
        if let (Some(a), Some(b)) = (dims_of(0), dims_of(1)) {
            let k2 = if b.len() == 1 { b.first() } else { b.get(b.len().wrapping_sub(2)) };
            if let (Some(Some(k1)), Some(Some(k2))) = (a.last(), k2) {
                if k1 != k2 {
                    return Err(format!("the contracted dims of its inputs differ ({k1} vs {k2})"));
                }
            }
        }
    }
    if op_type == "Transpose" {
        if let Some(perm) = ints("perm") {
            let mut sorted = perm.clone();
            sorted.sort_unstable();
            if sorted != (0..rank as i64).collect::<Vec<_>>() {
                return Err(format!(
                    "attribute 'perm' = {perm:?} is not a permutation of 0..{rank} (the input's rank)"
                ));
            }
        }
        return Ok(());
    }
    for name in ["axis", "axes"] {
        let Some(values) = ints(name) else { continue };
        // The number of valid axes is `count`: [-count, count - 1].
        let count = match (op_type, name) {
            ("Flatten", "axis") => rank as i64 + 1,
            ("OneHot", "axis") => rank as i64 + 1,
            ("Unsqueeze", "axes") => (rank + values.len()) as i64,
            _ => rank.max(1) as i64,
        };
        // Flatten's axis lies in [-r, r].
        let (low, high) = if op_type == "Flatten" { (-(rank as i64), rank as i64) } else { (-count, count - 1) };
        if let Some(bad) = values.iter().find(|&&a| a < low || a > high) {
            return Err(format!(
                "attribute '{name}' = {bad} is out of range for an input of rank {rank} (expected [{low}, {high}])"
            ));
        }
    }
    Ok(())
}

/// A Cast's (or BitCast's) `to` names the element type of its result (a code that is no
/// data type, or another type than the result's, makes a model the runtime
/// rejects or reads differently than the IR says).
fn check_cast_target(op: OperationRef<'_, '_>) -> Result<(), String> {
    let to = op
        .attribute("to")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map(|i| i.value())
        .ok_or("needs an integer attribute 'to'")?;
    let Some(result) = crate::ir::result_at(op, 0) else { return Ok(()) };
    let Some(element) = crate::lowering::builder::element_type(result.r#type()) else { return Ok(()) };
    match onnx_ir::data_type_code(element) {
        Some(code) if code != to => {
            Err(format!("attribute 'to' = {to} is not the data type of its result ({element}, data type {code})"))
        }
        _ => Ok(()),
    }
}

/// Ops whose result element type an attribute names, or else another value's
/// type or a fixed default (no type constraint ties them): a result declared
/// otherwise is a model the runtime reads differently than the IR says.
fn check_result_type_rule(op: OperationRef<'_, '_>, op_type: &str) -> Result<(), String> {
    let int = |name: &str| {
        op.attribute(name)
            .ok()
            .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
            .map(|i| i.value())
    };
    let code_of =
        |v: melior::ir::Value| crate::lowering::builder::element_type(v.r#type()).and_then(onnx_ir::data_type_code);
    let present = |i: usize| {
        crate::ir::operand_at(op, i)
            .filter(|v| !crate::ir::defining_op(*v).is_some_and(|d| ir::op_name(d) == onnx_ir::NONE_OP))
    };
    // ConstantOfShape's result has its `value` tensor's element type
    // (float32 without one); hostile .onnx seed 41 declared a bool result
    // for an int32 value, which we wrote and onnx.checker refused.
    if op_type == "ConstantOfShape" {
        let Some(result) = crate::ir::result_at(op, 0) else { return Ok(()) };
        let Some(have) = code_of(result) else { return Ok(()) };
        let want = match op.attribute("value") {
            Ok(value) => {
                let ty = unsafe { melior::ir::Type::from_raw(mlir_sys::mlirAttributeGetType(value.to_raw())) };
                crate::lowering::builder::element_type(ty).and_then(onnx_ir::data_type_code)
            }
            Err(_) => Some(1),
        };
        return match want {
            Some(want) if want != have => {
                Err(format!("result is data type {have} but the op computes data type {want} (its attribute 'value')"))
            }
            _ => Ok(()),
        };
    }
    // The training optimizers (ai.onnx.preview.training): each new tensor
    // has the type of the tensor it updates (inputs R, T, then n tensors of
    // each group; outputs the updated groups, n each).
    let updated_groups: &[usize] = match op_type {
        "Adagrad" | "Momentum" => &[0, 2],
        "Adam" => &[0, 2, 3],
        _ => &[],
    };
    if !updated_groups.is_empty() {
        let groups = if op_type == "Adam" { 4 } else { 3 };
        let n = op.operand_count().saturating_sub(2) / groups;
        for (k, &group) in updated_groups.iter().enumerate() {
            for i in 0..n {
                let (Some(input), Some(result)) =
                    (crate::ir::operand_at(op, 2 + group * n + i), crate::ir::result_at(op, k * n + i))
                else {
                    continue;
                };
                if let (Some(want), Some(have)) = (code_of(input), code_of(result.into())) {
                    if want != have {
                        return Err(format!(
                            "result #{} is data type {have} but the tensor it updates (input #{}) is data type {want}",
                            k * n + i,
                            2 + group * n + i
                        ));
                    }
                }
            }
        }
        return Ok(());
    }
    // (attribute, what the result is without it)
    let (attr, default): (&str, Option<i64>) = match op_type {
        "Bernoulli" | "RandomNormalLike" | "RandomUniformLike" | "EyeLike" => ("dtype", present(0).and_then(code_of)),
        // float32 without the attribute.
        "RandomNormal" | "RandomUniform" => ("dtype", Some(1)),
        "BlackmanWindow" | "HannWindow" | "HammingWindow" => ("output_datatype", Some(1)),
        // Without a zero point or `output_dtype`, uint8.
        "QuantizeLinear" if present(2).is_none() => ("output_dtype", Some(2)),
        _ => return Ok(()),
    };
    let Some(result) = crate::ir::result_at(op, 0) else { return Ok(()) };
    let Some(have) = code_of(result) else { return Ok(()) };
    let want = int(attr).filter(|&t| t != 0).or(default);
    match want {
        Some(want) if want != have => Err(format!(
            "result is data type {have} but the op computes data type {want} ({})",
            if int(attr).is_some_and(|t| t != 0) {
                format!("its attribute '{attr}'")
            } else if op_type == "QuantizeLinear" {
                "uint8 without a zero point or 'output_dtype'".to_string()
            } else if default == Some(1)
                && !matches!(op_type, "Bernoulli" | "RandomNormalLike" | "RandomUniformLike" | "EyeLike")
            {
                format!("float32 without '{attr}'")
            } else {
                format!("its input's type, without '{attr}'")
            }
        )),
        _ => Ok(()),
    }
}

/// A LabelEncoder maps keys to values: both must be given (one attribute
/// of each family; the schema marks none of them required).
fn check_label_encoder(op: OperationRef<'_, '_>) -> Result<(), String> {
    for family in ["keys", "values"] {
        let given = ["tensor", "strings", "int64s", "floats"]
            .iter()
            .any(|kind| op.attribute(&format!("{family}_{kind}")).is_ok());
        if !given {
            return Err(format!(
                "needs one of the attributes {family}_tensor, {family}_strings, {family}_int64s, {family}_floats"
            ));
        }
    }
    Ok(())
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
        let name = ir::identifier_text(name);
        let name = name.as_str();
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
    // Element type names (`float` of `tensor(float)`), compared without
    // building the type strings (this runs on every op after every pass).
    let mut bound: BTreeMap<&str, &'static str> = BTreeMap::new();
    // `what` names the value for a message; built only when one is needed.
    let mut check = |param: &'static str, ty: Type<'_>, what: &dyn Fn() -> String| -> Result<(), String> {
        let Some(constraint) = schema.type_constraints.iter().find(|c| c.type_param == param) else {
            // A concrete type (ReduceSum's axes: `tensor(int64)`).
            let Some(wanted) = param.strip_prefix("tensor(").and_then(|e| e.strip_suffix(')')) else {
                return Ok(());
            };
            if value_kind(ty) == ValueKind::None {
                return Ok(());
            }
            return match onnx_ir::onnx_tensor_element(ty) {
                Some(actual) if actual == wanted => Ok(()),
                _ => Err(format!("{} has type {ty}; it must be {param}", what())),
            };
        };
        if value_kind(ty) == ValueKind::None {
            return Ok(());
        }
        let Some(actual) = onnx_ir::onnx_tensor_element(ty) else {
            return Err(format!("{} has type {ty}, which is not an ONNX tensor type", what()));
        };
        // `a == "tensor(" + actual + ")"`, the length compared first (most
        // allowed types differ in length; this runs per operand per pass).
        let is_actual = |a: &str| {
            a.len() == actual.len() + 8 && a.strip_prefix("tensor(").and_then(|e| e.strip_suffix(')')) == Some(actual)
        };
        if !constraint.allowed_types.iter().any(|a| is_actual(a)) {
            return Err(format!(
                "{} has type tensor({actual}), not allowed for {param} ({})",
                what(),
                constraint.allowed_types.join(", ")
            ));
        }
        match bound.get(param) {
            Some(first) if *first != actual => {
                Err(format!("{} has type tensor({actual}) but {param} is already bound to tensor({first})", what()))
            }
            _ => {
                bound.insert(param, actual);
                Ok(())
            }
        }
    };
    for (i, value) in op.operands().enumerate() {
        if let Some(formal) = formal_at(schema.inputs, i) {
            if heterogeneous(formal) {
                continue; // Loop's and Scan's `V`: each value its own type
            }
            check(formal.type_str, value.r#type(), &|| format!("input #{i} ('{}')", formal.name))?;
        }
    }
    for (i, value) in op.results().enumerate() {
        if let Some(formal) = formal_at(schema.outputs, i) {
            if heterogeneous(formal) {
                continue;
            }
            check(formal.type_str, value.r#type(), &|| format!("output #{i} ('{}')", formal.name))?;
        }
    }
    Ok(())
}

/// A required (single, non-optional) input given as "none" (an empty
/// input name in ONNX).
fn check_required_inputs(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    for (i, value) in op.operands().enumerate() {
        let Some(formal) = formal_at(schema.inputs, i) else { continue };
        if value_kind(value.r#type()) != ValueKind::None {
            continue;
        }
        match formal.option {
            registry::ParamOption::Single => {
                return Err(format!("input #{i} ('{}') is required but not given", formal.name))
            }
            // Each value of a variadic input is given (ONNX has no empty
            // entry in the middle of a list: `Min('', x)` is rejected).
            registry::ParamOption::Variadic => {
                return Err(format!("input #{i} (of the variadic '{}') is empty", formal.name))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Flag attributes: ONNX defines 0 and 1 only, and runtimes disagree on
/// other values (onnx's inference reads `keepdims == 1`, onnxruntime `!= 0`).
const FLAG_ATTRIBUTES: &[&str] = &[
    "keepdims",
    "noop_with_empty_axes",
    "ceil_mode",
    "count_include_pad",
    "transA",
    "transB",
    "select_last_index",
    "exclusive",
    "reverse",
    "is_causal",
    "sorted",
    "largest",
    "center_point_box",
    "training_mode",
    "fmod",
    "detect_negative",
    "detect_positive",
    "allowzero",
    "upper",
    "storage_order",
    "onesided",
    "inverse",
    "saturate",
    "input_forget",
    "linear_before_reset",
    "interleaved",
    "new_axis",
    "align_corners",
    "exclude_outside",
    "antialias",
];

/// String attributes with a closed set of values: (op types, attribute, values).
const ENUM_ATTRIBUTES: &[(&[&str], &str, &[&str])] = &[
    (&[], "auto_pad", &["NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"]),
    (&["Resize"], "mode", &["nearest", "linear", "cubic"]),
    (
        &["Resize"],
        "coordinate_transformation_mode",
        &[
            "half_pixel",
            "half_pixel_symmetric",
            "pytorch_half_pixel",
            "align_corners",
            "asymmetric",
            "tf_crop_and_resize",
        ],
    ),
    (&["Resize"], "nearest_mode", &["round_prefer_floor", "round_prefer_ceil", "floor", "ceil"]),
    (&["Resize"], "keep_aspect_ratio_policy", &["stretch", "not_larger", "not_smaller"]),
    (&["Pad"], "mode", &["constant", "reflect", "edge", "wrap"]),
    (&["GridSample"], "mode", &["linear", "nearest", "cubic", "bilinear", "bicubic"]),
    (&["GridSample"], "padding_mode", &["zeros", "border", "reflection"]),
    (&["BitShift"], "direction", &["LEFT", "RIGHT"]),
    (&["RNN", "GRU", "LSTM"], "direction", &["forward", "reverse", "bidirectional"]),
    (&["DepthToSpace"], "mode", &["DCR", "CRD"]),
    (&["ScatterElements", "ScatterND"], "reduction", &["none", "add", "mul", "max", "min"]),
    (&["NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"], "reduction", &["none", "sum", "mean"]),
    (&["Gelu"], "approximate", &["none", "tanh"]),
    (&["RoiAlign"], "mode", &["avg", "max"]),
    (&["RoiAlign"], "coordinate_transformation_mode", &["half_pixel", "output_half_pixel"]),
    (&["CausalConvWithState"], "activation", &["none", "silu", "swish"]),
];

/// Attribute values ONNX rejects that the schema table does not express:
/// flags other than 0/1, strings outside their closed set, non-positive head
/// counts, attention windows below -1; Resize given both or neither of
/// scales and sizes; Split given both `split` and `num_outputs`.
fn check_attribute_values(op: OperationRef<'_, '_>, op_type: &str, opset: u32) -> Result<(), String> {
    let int = |name: &str| {
        op.attribute(name)
            .ok()
            .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
            .map(|i| i.value())
    };
    for name in FLAG_ATTRIBUTES {
        if let Some(v) = int(name) {
            if v != 0 && v != 1 {
                return Err(format!("attribute '{name}' is {v}; it must be 0 or 1"));
            }
        }
    }
    for (ops, name, allowed) in ENUM_ATTRIBUTES {
        if !ops.is_empty() && !ops.contains(&op_type) {
            continue;
        }
        let Ok(attr) = op.attribute(name) else { continue };
        match ir::string_value(attr) {
            Some(value) if !allowed.contains(&value.as_str()) => {
                return Err(format!("attribute '{name}' is \"{value}\"; it must be one of {}", allowed.join(", ")));
            }
            Some(_) => {}
            // A string that is not text (an imported model's bytes).
            None if melior::ir::attribute::StringAttribute::try_from(attr).is_ok() => {
                return Err(format!("attribute '{name}' is not text; it must be one of {}", allowed.join(", ")));
            }
            None => {}
        }
    }
    for name in ["num_heads", "q_num_heads", "kv_num_heads"] {
        if let Some(v) = int(name).filter(|&v| v <= 0) {
            return Err(format!("attribute '{name}' is {v}; it must be positive"));
        }
    }
    for name in ["left_window_size", "right_window_size"] {
        if let Some(v) = int(name).filter(|&v| v < -1) {
            return Err(format!("attribute '{name}' is {v}; it must be -1 or non-negative"));
        }
    }
    let given = |i: usize| ir::operand_at(op, i).is_some_and(|v| value_kind(v.r#type()) != ValueKind::None);
    match op_type {
        // (Before opset 13 an empty `scales` stood for "not given".)
        "Resize" if opset >= 13 => {
            if given(2) == given(3) {
                return Err("must be given exactly one of 'scales' (input #2) and 'sizes' (input #3)".into());
            }
        }
        "Split" if given(1) && op.attribute("num_outputs").is_ok() => {
            return Err("is given both a 'split' input and a 'num_outputs' attribute".into());
        }
        _ => {}
    }
    Ok(())
}

/// A variadic parameter whose values may each have another type.
fn heterogeneous(formal: &registry::FormalParameter) -> bool {
    formal.option == registry::ParamOption::Variadic && !formal.is_homogeneous
}

/// The element type of a tensor-typed value, as ONNX names it (`tensor(float)`).
fn onnx_type(value: melior::ir::Value<'_, '_>) -> Option<String> {
    onnx_ir::onnx_type_string(value.r#type())
}

/// Checks an op with subgraphs: one region (of one block ending in
/// `onnx.yield`) per graph attribute, and the block arguments ONNX feeds
/// each subgraph: none for If; (iteration_num, cond, carried...) for Loop;
/// (state..., scan_input_elements...) for Scan.
fn check_regions(op: OperationRef<'_, '_>, op_type: &str) -> Result<(), String> {
    let Some(names) = onnx_ir::region_attributes(op_type) else {
        if op.region_count() > 0 {
            return Err(format!("has {} regions; {op_type} has no graph attributes", op.region_count()));
        }
        return Ok(());
    };
    if op.region_count() != names.len() {
        return Err(format!(
            "has {} regions; {op_type} needs {} ({})",
            op.region_count(),
            names.len(),
            names.join(", ")
        ));
    }
    let mut blocks = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let region = op.region(i).map_err(|e| e.to_string())?;
        let block = melior::ir::RegionLike::first_block(&region).ok_or_else(|| format!("region '{name}' is empty"))?;
        if melior::ir::BlockLike::next_in_region(&block).is_some() {
            return Err(format!("region '{name}' has more than one block"));
        }
        let terminator = crate::control_flow::last_op(block);
        if !terminator.is_some_and(|t| ir::op_name(t) == onnx_ir::YIELD_OP) {
            return Err(format!("region '{name}' does not end with {}", onnx_ir::YIELD_OP));
        }
        blocks.push(block);
    }
    fn args<'c, 'a>(block: &melior::ir::BlockRef<'c, 'a>) -> Vec<melior::ir::Value<'c, 'a>> {
        (0..melior::ir::BlockLike::argument_count(block))
            .filter_map(|i| melior::ir::BlockLike::argument(block, i).ok().map(Into::into))
            .collect()
    }
    match op_type {
        "If" => {
            for (block, name) in blocks.iter().zip(names) {
                if melior::ir::BlockLike::argument_count(block) != 0 {
                    return Err(format!("region '{name}' has block arguments; If branches take no inputs"));
                }
            }
        }
        "Loop" => {
            let body = args(&blocks[0]);
            let carried = op.operand_count().saturating_sub(2);
            if body.len() != carried + 2 {
                return Err(format!(
                    "body has {} block arguments; a Loop carrying {carried} values needs {} (iteration_num, cond, carried...)",
                    body.len(),
                    carried + 2
                ));
            }
            if onnx_type(body[0]).as_deref() != Some("tensor(int64)")
                || onnx_type(body[1]).as_deref() != Some("tensor(bool)")
            {
                return Err("body's first two block arguments must be iteration_num (int64) and cond (bool)".into());
            }
            for i in 0..carried {
                let initial = ir::operand_at(op, 2 + i)
                    .ok_or_else(|| format!("no operand {} (initial carried value {i})", 2 + i))?;
                if onnx_type(body[2 + i]) != onnx_type(initial) {
                    return Err(format!(
                        "body block argument #{} has type {}, but the carried value it receives has type {}",
                        2 + i,
                        body[2 + i].r#type(),
                        initial.r#type()
                    ));
                }
            }
            if op.result_count() < carried {
                return Err(format!("has {} results for {carried} carried values", op.result_count()));
            }
        }
        "Scan" => {
            let body = args(&blocks[0]);
            if body.len() != op.operand_count() {
                return Err(format!(
                    "body has {} block arguments for {} inputs (state..., scan inputs...)",
                    body.len(),
                    op.operand_count()
                ));
            }
            for (i, (arg, input)) in body.iter().zip(op.operands()).enumerate() {
                if onnx_type(*arg) != onnx_type(input) {
                    return Err(format!(
                        "body block argument #{i} has type {}, input #{i} has type {}",
                        arg.r#type(),
                        input.r#type()
                    ));
                }
            }
            check_scan_body_shapes(op, &body)?;
        }
        _ => {}
    }
    Ok(())
}

/// A Scan's body receives each state value as it is and one slice of each
/// scan input (the input without its scan axis): where both sides have
/// known dims they must agree (onnx.checker refuses a state of rank 1 fed
/// to a body that sums scalars). An invalid `num_scan_inputs` is left to
/// `check_counts`.
fn check_scan_body_shapes(op: OperationRef<'_, '_>, body: &[melior::ir::Value<'_, '_>]) -> Result<(), String> {
    use crate::lowering::builder::dims;
    let int_list = |name: &str| op.attribute(name).ok().and_then(ir::dense_i64_values);
    let Some(scans) = op
        .attribute("num_scan_inputs")
        .ok()
        .and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
        .map(|i| i.value())
    else {
        return Ok(());
    };
    let inputs = op.operand_count() as i64;
    if scans < 1 || scans > inputs {
        return Ok(());
    }
    let states = (inputs - scans) as usize;
    let axes = int_list("scan_input_axes").unwrap_or_else(|| vec![0; scans as usize]);
    // Known dims agree where both sides know them; ranks agree when both are known.
    let agree = |a: &[Option<i64>], b: &[Option<i64>]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_none() || y.is_none() || x == y)
    };
    for (i, (arg, input)) in body.iter().zip(op.operands()).enumerate() {
        let (Some(arg_dims), Some(mut input_dims)) = (dims(arg.r#type()), dims(input.r#type())) else {
            continue;
        };
        let what = if i < states {
            "state value"
        } else {
            let rank = input_dims.len() as i64;
            let axis = axes.get(i - states).copied().unwrap_or(0);
            let axis = if axis < 0 { axis + rank } else { axis };
            if axis < 0 || axis >= rank {
                continue; // check_counts names the bad axis
            }
            input_dims.remove(axis as usize);
            "slice of scan input"
        };
        if !agree(&arg_dims, &input_dims) {
            return Err(format!(
                "body block argument #{i} has type {}, but the {what} it receives (input #{i}, {}) has dims {}",
                arg.r#type(),
                input.r#type(),
                format!(
                    "[{}]",
                    input_dims
                        .iter()
                        .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            ));
        }
    }
    Ok(())
}

/// `onnx.yield` ends a region of an onnx op with subgraphs; its operands are
/// the subgraph's outputs: the op's results for If and Scan, (cond,
/// results...) for Loop, with matching element types.
fn verify_yield(op: OperationRef<'_, '_>) -> Result<(), String> {
    let parent = op.parent_operation().ok_or("is not inside an op")?;
    let parent_name = ir::op_name(parent);
    // Also ends a custom op's translation before the lowering inlines it
    // (aten-verify checks the count there).
    let custom = parent_name.starts_with(crate::aten_ir::CUSTOM_PREFIX);
    let op_type = if custom {
        None
    } else {
        Some(
            onnx_ir::split_name(&parent_name)
                .filter(|_| parent_name.starts_with(onnx_ir::DIALECT_PREFIX))
                .map(|(_, t)| t)
                .filter(|t| onnx_ir::region_attributes(t).is_some())
                .ok_or_else(|| format!("must be inside an onnx op with subgraphs, not '{parent_name}'"))?,
        )
    };
    if op.next_in_block().is_some() {
        return Err("must be the last op of its block".into());
    }
    let Some(op_type) = op_type else { return Ok(()) };
    let outputs: Vec<melior::ir::Value> = op.operands().collect();
    let results: Vec<melior::ir::Value> = parent.results().map(Into::into).collect();
    let expected: Vec<Option<String>> = match op_type {
        "Loop" => {
            let mut e = vec![Some("tensor(bool)".to_string())];
            let carried = parent.operand_count().saturating_sub(2);
            e.extend(results.iter().take(carried).map(|r| onnx_type(*r)));
            // Scan outputs of a Loop are per-iteration slices of the results.
            e.extend(results.iter().skip(carried).map(|r| onnx_type(*r)));
            e
        }
        _ => results.iter().map(|r| onnx_type(*r)).collect(),
    };
    if outputs.len() != expected.len() {
        return Err(format!(
            "yields {} values; the enclosing {op_type} with {} results needs {}",
            outputs.len(),
            results.len(),
            expected.len()
        ));
    }
    for (i, (value, want)) in outputs.iter().zip(&expected).enumerate() {
        let got = onnx_type(*value);
        if got.is_none() || (want.is_some() && got != *want) {
            return Err(format!(
                "output #{i} has type {}, the enclosing {op_type} expects {}",
                value.r#type(),
                want.as_deref().unwrap_or("a tensor")
            ));
        }
    }
    Ok(())
}

/// The formal parameter that the i-th actual value binds to (the last one is
/// repeated when it is variadic).
fn formal_at(formals: &'static [registry::FormalParameter], i: usize) -> Option<&'static registry::FormalParameter> {
    formals.get(i).or_else(|| formals.last().filter(|f| f.option == registry::ParamOption::Variadic))
}
