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
use melior::ir::{operation::OperationLike, OperationRef, RegionLike, ValueLike};

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
        let name = ir::op_name_cow(inner);
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
        AtenOp::Custom => {
            if op.region_count() != 1 {
                return Err("a custom-op call needs its translation as one region".to_string());
            }
            let body = op.region(0).ok().and_then(|r| r.first_block()).ok_or("a custom-op call has an empty region")?;
            match ir::last_op(body) {
                Some(t) if ir::op_name(t) == crate::onnx_ir::YIELD_OP => {
                    if t.operand_count() != op.result_count() {
                        return Err(format!(
                            "its translation yields {} value(s) for {} result(s)",
                            t.operand_count(),
                            op.result_count()
                        ));
                    }
                    Ok(())
                }
                _ => Err("a custom-op call's region must end in onnx.yield".to_string()),
            }
        }
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
        let ty = ArgType::parse_static(arg.ty);
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
        let name = ir::identifier_text(name);
        let name = name.as_str();
        // Dotted names are discardable attributes of other layers.
        if name == aten_ir::SEGMENTS_ATTR || name == aten_ir::RESULT_SEGMENTS_ATTR || name.contains('.') {
            continue;
        }
        if !schema.arguments.iter().any(|a| a.name == name) {
            let names: Vec<_> = schema.arguments.iter().map(|a| a.name).collect();
            return Err(format!("has unknown attribute '{name}' (arguments: {})", names.join(", ")));
        }
    }
    check_layout_meta(op, schema)?;
    check_results(op, schema)?;
    check_dims(op, schema, &slots)?;
    check_view_size(op, schema, &slots)?;
    check_shape_arguments(op, schema)
}

/// The recorded layout of `self` the importer attaches to `sym_stride` /
/// `sym_storage_offset` / `sym_is_contiguous` (aten_ir::META_QUERY_OPS): one
/// stride per dim of `self`, each an integer or an expression's text, and an
/// integer or text offset. Absent is allowed (the lowering then refuses).
fn check_layout_meta(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    use melior::ir::attribute::AttributeLike as _;
    if !aten_ir::META_QUERY_OPS.contains(&schema.name) {
        return Ok(());
    }
    let scalar = |a: melior::ir::Attribute| matches!(attribute_kind(a), "integer" | "string");
    if let Ok(strides) = op.attribute(aten_ir::SELF_STRIDES_ATTR) {
        let raw = strides.to_raw();
        if !unsafe { mlir_sys::mlirAttributeIsAArray(raw) } {
            return Err(format!("`{}` must be an array of integers and strings", aten_ir::SELF_STRIDES_ATTR));
        }
        let n = unsafe { mlir_sys::mlirArrayAttrGetNumElements(raw) };
        for i in 0..n {
            let element = unsafe { melior::ir::Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(raw, i)) };
            if !scalar(element) {
                return Err(format!("`{}` element {i} must be an integer or a string", aten_ir::SELF_STRIDES_ATTR));
            }
        }
        let rank = ir::operand_at(op, 0).and_then(|v| crate::lowering::builder::rank(v.r#type()));
        if let Some(rank) = rank.filter(|r| *r as isize != n) {
            return Err(format!("`{}` has {n} strides for a 'self' of rank {rank}", aten_ir::SELF_STRIDES_ATTR));
        }
    }
    if let Ok(offset) = op.attribute(aten_ir::SELF_STORAGE_OFFSET_ATTR) {
        if !scalar(offset) {
            return Err(format!("`{}` must be an integer or a string", aten_ir::SELF_STORAGE_OFFSET_ATTR));
        }
    }
    Ok(())
}

/// Arguments of the common shape ops that torch would refuse (a step of 0,
/// an index past the end, split sizes that do not add up, ...), checked when
/// the values and the dims involved are static; without this they lower
/// to a model that fails at run time or computes something else.
fn check_shape_arguments(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    use melior::ir::attribute::IntegerAttribute;
    let int = |name: &str| op.attribute(name).ok().and_then(|a| IntegerAttribute::try_from(a).ok()).map(|i| i.value());
    let ints = |name: &str| op.attribute(name).ok().and_then(ir::dense_i64_values);
    let Some(input) = crate::ir::operand_at(op, 0) else { return Ok(()) };
    let Some(dims) = crate::lowering::builder::dims(input.r#type()) else { return Ok(()) };
    let rank = dims.len();
    let dim_size = |dim: i64| -> Option<i64> {
        let r = rank.max(1) as i64;
        let d = if dim < 0 { dim + r } else { dim };
        if rank == 0 {
            return Some(1);
        }
        dims.get(usize::try_from(d).ok()?).copied().flatten()
    };
    let results = op.result_count();
    let name = without_copy(schema.name);
    let operand_dims = |i: usize| crate::ir::operand_at(op, i).and_then(|v| crate::lowering::builder::dims(v.r#type()));
    // The contracted dims of a matrix product must agree.
    let contracted = |a: &[Option<i64>], b: &[Option<i64>], b_dim: usize, what: &str| -> Result<(), String> {
        if let (Some(Some(k1)), Some(Some(k2))) = (a.last(), b.get(b_dim)) {
            if k1 != k2 {
                return Err(format!("{what}: the contracted dims differ ({k1} vs {k2})"));
            }
        }
        Ok(())
    };
    match (name, schema.overload) {
        ("linear", "") => {
            let Some(w) = operand_dims(1) else { return Ok(()) };
            if w.is_empty() || w.len() > 2 {
                return Err(format!("the weight must have 1 or 2 dims, has {}", w.len()));
            }
            contracted(&dims, &w, w.len() - 1, "input and weight")?;
        }
        ("mm", "") | ("bmm", "") => {
            let (a, Some(b)) = (dims.clone(), operand_dims(1)) else { return Ok(()) };
            let want = if name == "mm" { 2 } else { 3 };
            if a.len() != want || b.len() != want {
                return Err(format!("{name} needs two {want}-d tensors, got ranks {} and {}", a.len(), b.len()));
            }
            contracted(&a, &b, want - 2, "self and mat2")?;
        }
        ("matmul", "") => {
            let Some(b) = operand_dims(1) else { return Ok(()) };
            if !dims.is_empty() && !b.is_empty() {
                contracted(&dims, &b, if b.len() == 1 { 0 } else { b.len() - 2 }, "self and other")?;
            } else {
                return Err("matmul needs tensors of at least 1 dim".to_string());
            }
        }
        ("addmm", "") => {
            let (Some(a), Some(b)) = (operand_dims(1), operand_dims(2)) else { return Ok(()) };
            if a.len() != 2 || b.len() != 2 {
                return Err(format!("mat1 and mat2 must be 2-d, got ranks {} and {}", a.len(), b.len()));
            }
            contracted(&a, &b, 0, "mat1 and mat2")?;
        }
        ("slice", "Tensor") => {
            if let Some(step) = int("step") {
                if step <= 0 {
                    return Err(format!("argument 'step' = {step} must be positive"));
                }
            }
        }
        ("select", "int") => {
            if let (Some(index), Some(size)) = (int("index"), int("dim").and_then(dim_size)) {
                if index < -size || index >= size {
                    return Err(format!("argument 'index' = {index} is out of range for a dim of size {size}"));
                }
            }
        }
        ("narrow", "") => {
            if let (Some(start), Some(length), Some(size)) =
                (int("start"), int("length"), int("dim").and_then(dim_size))
            {
                let begin = if start < 0 { start + size } else { start };
                if length < 0 || begin < 0 || begin > size || begin.checked_add(length).is_none_or(|end| end > size) {
                    return Err(format!("start {start} and length {length} do not fit in a dim of size {size}"));
                }
            }
        }
        ("chunk", "") => {
            if let Some(chunks) = int("chunks") {
                if chunks <= 0 {
                    return Err(format!("argument 'chunks' = {chunks} must be positive"));
                }
            }
        }
        ("split", "Tensor") => {
            if let Some(split) = int("split_size") {
                if split < 0 || (split == 0 && int("dim").and_then(dim_size).is_some_and(|n| n != 0)) {
                    return Err(format!("argument 'split_size' = {split} must be positive"));
                }
            }
        }
        ("split_with_sizes", "") => {
            if let Some(sizes) = ints("split_sizes") {
                if let Some(bad) = sizes.iter().find(|&&n| n < 0) {
                    return Err(format!("argument 'split_sizes' = {sizes:?} has the negative size {bad}"));
                }
                if results != sizes.len() {
                    return Err(format!("has {results} results but 'split_sizes' = {sizes:?} makes {}", sizes.len()));
                }
                if let Some(size) = int("dim").and_then(dim_size) {
                    if sizes.iter().sum::<i64>() != size {
                        return Err(format!(
                            "argument 'split_sizes' = {sizes:?} does not add up to the dim's size {size}"
                        ));
                    }
                }
            }
        }
        ("unbind", "int") => {
            if let Some(size) = int("dim").and_then(dim_size) {
                if results as i64 != size {
                    return Err(format!("has {results} results but the dim it unbinds has size {size}"));
                }
            }
        }
        ("repeat", "") => {
            if let Some(repeats) = ints("repeats") {
                if repeats.len() < rank || repeats.iter().any(|&n| n < 0) {
                    return Err(format!(
                        "argument 'repeats' = {repeats:?} must hold at least {rank} non-negative counts"
                    ));
                }
            }
        }
        ("flatten", "using_ints") => {
            if let (Some(start), Some(end)) = (int("start_dim"), int("end_dim")) {
                let r = rank.max(1) as i64;
                let (s, e) = (if start < 0 { start + r } else { start }, if end < 0 { end + r } else { end });
                if s > e {
                    return Err(format!("start_dim {start} comes after end_dim {end}"));
                }
            }
        }
        ("unflatten", "int") => {
            if let (Some(sizes), Some(size)) = (ints("sizes"), int("dim").and_then(dim_size)) {
                let known: i64 = sizes.iter().filter(|&&n| n != -1).product();
                let wild = sizes.iter().filter(|&&n| n == -1).count();
                let fits = match wild {
                    0 => known == size,
                    1 => known != 0 && size % known == 0,
                    _ => false,
                };
                if sizes.is_empty() || sizes.iter().any(|&n| n < -1) || !fits {
                    return Err(format!("argument 'sizes' = {sizes:?} does not unflatten a dim of size {size}"));
                }
            }
        }
        ("expand", "") => {
            if let Some(size) = ints("size") {
                if size.len() < rank {
                    return Err(format!("argument 'size' = {size:?} has fewer dims than the input (rank {rank})"));
                }
                let lead = size.len() - rank;
                for (i, &n) in size.iter().enumerate() {
                    let from = if i >= lead { dims[i - lead] } else { None };
                    let bad = n < -1 || (n == -1 && i < lead) || matches!(from, Some(d) if n != -1 && d != 1 && d != n);
                    if bad {
                        return Err(format!("argument 'size' = {size:?} cannot expand an input of shape {dims:?}"));
                    }
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// `view`/`reshape` and their copies: a static target size must hold the
/// input's elements (at most one -1, no other negative size, the same
/// element count when both are static) and match the result's rank.
fn check_view_size(op: OperationRef<'_, '_>, schema: &OpSchema, slots: &[Slot<'_>]) -> Result<(), String> {
    if !matches!(schema.name, "view" | "reshape" | "_unsafe_view" | "view_copy" | "_reshape_copy")
        || schema.overload != ""
    {
        return Ok(());
    }
    let (Some(Slot::Operands(input)), Some(Slot::Attribute(size_attr))) = (slots.first(), slots.get(1)) else {
        return Ok(());
    };
    let Some(size) = ir::dense_i64_values(*size_attr) else { return Ok(()) };
    let arg = schema.arguments[1].name;
    if size.iter().filter(|&&d| d == -1).count() > 1 {
        return Err(format!("argument '{arg}' = {size:?} has more than one -1"));
    }
    if let Some(bad) = size.iter().find(|&&d| d < -1) {
        return Err(format!("argument '{arg}' = {size:?} has the negative size {bad}"));
    }
    if let Some(result) = crate::ir::result_at(op, 0).and_then(|r| crate::lowering::builder::dims(r.r#type())) {
        if result.len() != size.len() {
            return Err(format!(
                "argument '{arg}' = {size:?} has {} dims but the result has rank {}",
                size.len(),
                result.len()
            ));
        }
        if size.iter().zip(&result).any(|(&n, d)| n != -1 && d.is_some_and(|d| d != n)) {
            let shown: Vec<String> = result.iter().map(|d| d.map_or("?".to_string(), |d| d.to_string())).collect();
            return Err(format!(
                "argument '{arg}' = {size:?} does not match the result's shape [{}]",
                shown.join(", ")
            ));
        }
    }
    let input_dims = aten_ir::operands_of(op, input)
        .first()
        .and_then(|v| crate::lowering::builder::dims(v.r#type()))
        .and_then(|dims| dims.into_iter().collect::<Option<Vec<i64>>>());
    if let Some(dims) = input_dims {
        let numel = dims.iter().try_fold(1i64, |acc, &d| acc.checked_mul(d));
        let known = size.iter().filter(|&&d| d != -1).try_fold(1i64, |acc, &d| acc.checked_mul(d));
        if let (Some(numel), Some(known)) = (numel, known) {
            let fits = if size.contains(&-1) { known != 0 && numel % known == 0 } else { known == numel };
            if !fits {
                return Err(format!(
                    "argument '{arg}' = {size:?} cannot hold the {numel} elements of the input of shape {dims:?}"
                ));
            }
        }
    }
    Ok(())
}

/// Names of the arguments that hold dimension indices of the op's tensors.
const DIM_ARGUMENTS: &[&str] =
    &["dim", "dims", "dim0", "dim1", "dim2", "start_dim", "end_dim", "dimension", "source", "destination"];

/// Ops whose dim arguments index the result, which has one more dim than
/// the input (`unsqueeze(x, dim)` accepts `dim` = rank).
fn dims_index_one_more(name: &str) -> bool {
    matches!(without_copy(name), "unsqueeze" | "stack" | "_stack" | "diag_embed" | "select_backward" | "unsqueeze_")
}

/// Checks every static `int dim` / `int[] dim` argument against the rank of
/// the op's tensor operands (the largest, for ops over several tensors):
/// `dim` must lie in `[-rank, rank - 1]`, where a 0-d tensor counts as rank 1
/// (torch accepts dim 0 and -1 on it); `permute` dims must be a permutation.
fn check_dims(op: OperationRef<'_, '_>, schema: &OpSchema, slots: &[Slot<'_>]) -> Result<(), String> {
    let mut rank: Option<usize> = None;
    for (arg, slot) in schema.arguments.iter().zip(slots) {
        if let Slot::Operands(range) = slot {
            if is_tensor(ArgType::parse_static(arg.ty)) {
                for value in aten_ir::operands_of(op, range) {
                    if let Some(r) = crate::lowering::builder::rank(value.r#type()) {
                        rank = Some(rank.map_or(r, |m: usize| m.max(r)));
                    }
                }
            }
        }
    }
    // Gradients of views (`select_backward`, `diagonal_backward`,
    // `index_select_backward`, ...) index the input, whose size they are
    // given (`input_sizes` / `self_sizes`), not the gradient they take.
    let mut sized_input = false;
    for (arg, slot) in schema.arguments.iter().zip(slots) {
        if !matches!(arg.name, "input_sizes" | "self_sizes") {
            continue;
        }
        let len = match slot {
            Slot::Operands(range) => Some(range.len()),
            Slot::Attribute(attr) => ir::dense_i64_values(*attr).map(|v| v.len()),
            Slot::Absent => None,
        };
        if let Some(len) = len {
            rank = Some(len);
            sized_input = true;
        }
    }
    let Some(rank) = rank else { return Ok(()) };
    let bound = if dims_index_one_more(schema.name) && !sized_input { rank + 1 } else { rank.max(1) } as i64;
    for (arg, slot) in schema.arguments.iter().zip(slots) {
        // `tile(dims)` holds repeat counts, not dims.
        if !DIM_ARGUMENTS.contains(&arg.name) || (schema.name == "tile" && arg.name == "dims") {
            continue;
        }
        let ty = ArgType::parse_static(arg.ty);
        let inner = match ty {
            ArgType::Optional(inner) => inner.as_ref(),
            other => other,
        };
        let is_int = |t: &ArgType| matches!(t, ArgType::Int | ArgType::SymInt);
        let is_dim_type = is_int(inner) || matches!(inner, ArgType::List { elem, .. } if is_int(elem));
        let Slot::Attribute(attr) = slot else { continue };
        if !is_dim_type {
            continue;
        }
        let values: Vec<i64> = if let Some(list) = ir::dense_i64_values(*attr) {
            list
        } else if let Ok(int) = melior::ir::attribute::IntegerAttribute::try_from(*attr) {
            vec![int.value()]
        } else {
            continue;
        };
        for &d in &values {
            if d < -bound || d >= bound {
                return Err(format!(
                    "argument '{}' = {d} is out of range for a tensor of rank {rank} (expected a dim in [{}, {}])",
                    arg.name,
                    -bound,
                    bound - 1
                ));
            }
        }
        if without_copy(schema.name) == "permute" && arg.name == "dims" {
            let mut seen: Vec<i64> = values.iter().map(|&d| if d < 0 { d + bound } else { d }).collect();
            seen.sort_unstable();
            if values.len() != rank || seen.windows(2).any(|w| w[0] == w[1]) {
                return Err(format!("argument 'dims' = {values:?} is not a permutation of the {rank} dims"));
            }
        }
    }
    Ok(())
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

/// `name.trim_end_matches("_copy")` without building a string searcher per
/// call (the verifier runs it on every op after every pass).
fn without_copy(mut name: &str) -> &str {
    while let Some(rest) = name.strip_suffix("_copy") {
        name = rest;
    }
    name
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
            // `Scalar[]` (gradient's spacing): imported as a float or int array.
            ArgType::Scalar => matches!(kind, "array<f64>" | "array<i64>"),
            ArgType::Bool => kind == "array<i1>",
            ArgType::Str | ArgType::Dimname => kind == "array",
            _ => false,
        },
        _ => false,
    }
}

fn check_results(op: OperationRef<'_, '_>, schema: &OpSchema) -> Result<(), String> {
    let segments = aten_ir::result_segments(op, schema)?;
    let results: Vec<_> = op.results().collect();
    for (ret, range) in schema.returns.iter().zip(segments) {
        let ty = match ArgType::parse_static(ret.ty) {
            ArgType::List { elem, .. } => elem.as_ref(),
            other => other,
        };
        for i in range {
            let result = results[i];
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
                return Err(format!("result #{i} has type {} but the schema returns {}", result.r#type(), ret.ty));
            }
        }
    }
    Ok(())
}
