//! Control flow for `convert-aten-to-onnx`: the higher-order ops become ONNX
//! ops with regions *before* the ordinary rules run, while their bodies are
//! still aten ops; the rules then lower those nested ops in place like any
//! other op.
//!
//! | aten | onnx | regions (= graph attributes) |
//! |---|---|---|
//! | `aten.hop.cond(pred, operands...)` | `onnx.If(pred)` | `then_branch`, `else_branch`: no block arguments |
//! | `aten.hop.while_loop(carried..., additional...)` | `onnx.Loop(none, cond0, carried...)` | `body(iteration_num, cond, carried...) -> (cond, carried...)` |
//! | `aten.hop.scan(init..., xs..., additional...)` | `onnx.Scan(init..., xs...) {num_scan_inputs}` | `body(state..., x_slices...) -> (state..., y_slices...)` |
//! | `aten.hop.map_impl(xs..., pos_args...)` | `onnx.Scan(xs...) {num_scan_inputs}` | `body(x_slices...) -> (y_slices...)` |
//! | `aten.hop.wrap_with_set_grad_enabled(operands...)` | (the body, inlined) | |
//! | `aten.hop.wrap_with_autocast(operands...)` | (the body, inlined, with autocast's casts) | |
//!
//! ONNX subgraphs see the values of enclosing graphs by name, so the block
//! arguments torch passes explicitly (the branches' operands, the closed-over
//! weights, `additional_inputs`, `pos_args`) are replaced by the outer values
//! and dropped; only the block arguments ONNX itself feeds remain. Regions
//! end in `onnx.yield`. `while_loop` checks its condition before every
//! iteration, ONNX `Loop` after the body: the condition function is computed
//! once on the initial values before the loop (its ops are copied there) and
//! once more at the end of the body on the updated values.

use crate::{aten_ir, ir, onnx_ir};
use melior::ir::{
    attribute::IntegerAttribute,
    block::BlockLike,
    operation::{OperationBuilder, OperationLike},
    r#type::{IntegerType, RankedTensorType, TypeLike},
    Attribute, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::HashMap;

/// Higher-order ops (`aten.hop.<name>`) this module lowers.
pub const SUPPORTED: &[&str] =
    &["cond", "while_loop", "scan", "map_impl", "wrap_with_set_grad_enabled", "wrap_with_autocast"];

/// True when `name` (an `aten.hop.*` op name) has a lowering.
pub fn is_supported(name: &str) -> bool {
    name.strip_prefix(aten_ir::HOP_PREFIX).is_some_and(|hop| SUPPORTED.contains(&hop))
}

type Failure<'c, 'a> = (OperationRef<'c, 'a>, String);

/// Replaces every `aten.hop.*` op under `root` (innermost first) by its ONNX
/// op. Weights used inside regions are moved to their function's entry
/// block first (ONNX initializers belong to the main graph).
pub fn lower_higher_order_ops<'c, 'a>(root: OperationRef<'c, 'a>) -> Result<(), Failure<'c, 'a>> {
    hoist_weights(root);
    let mut hops = Vec::new();
    ir::walk(root, &mut |op| {
        if ir::op_name(op).starts_with(aten_ir::HOP_PREFIX) {
            hops.push(op);
        }
    });
    // Reversed pre-order: ops nested in a region come before their parent.
    for op in hops.into_iter().rev() {
        let name = ir::op_name(op);
        let result = match name.strip_prefix(aten_ir::HOP_PREFIX).unwrap_or_default() {
            "cond" => lower_cond(op),
            "while_loop" => lower_while_loop(op),
            "scan" => lower_scan(op, true),
            "map_impl" => lower_scan(op, false),
            "wrap_with_set_grad_enabled" => inline_grad_mode(op),
            "wrap_with_autocast" => inline_autocast(op),
            other => {
                Err(format!("higher-order op '{other}' has no ONNX lowering (supported: {})", SUPPORTED.join(", ")))
            }
        };
        result.map_err(|message| (op, message))?;
        // SAFETY: every result was replaced and the regions' bodies moved out
        // or copied; nothing refers to `op` any more.
        unsafe { ir::erase(op) };
    }
    Ok(())
}

/// Moves `aten.weight` ops nested in regions to the start of their
/// function's body (they have no operands, so this is always legal).
fn hoist_weights(root: OperationRef<'_, '_>) {
    let mut moves = Vec::new();
    ir::walk(root, &mut |op| {
        if ir::op_name(op) == aten_ir::WEIGHT_OP {
            let parent = op.parent_operation();
            if parent.is_some_and(|p| ir::op_name(p) != "func.func") {
                moves.push(op);
            }
        }
    });
    for op in moves {
        let mut function = op.parent_operation();
        while let Some(f) = function {
            if ir::op_name(f) == "func.func" {
                break;
            }
            function = f.parent_operation();
        }
        let Some(first) =
            function.and_then(|f| f.region(0).ok()).and_then(|r| r.first_block()).and_then(|b| b.first_operation())
        else {
            continue;
        };
        unsafe { sys::mlirOperationMoveBefore(op.to_raw(), first.to_raw()) };
    }
}

/// The operands of the argument `name` (from `arg_names` and
/// `operandSegmentSizes`, as the importer records them).
fn segment<'c, 'a>(op: OperationRef<'c, 'a>, name: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let names: Vec<String> = match op.attribute("arg_names") {
        Ok(attr) => ir::string_array(attr).ok_or("'arg_names' is not an array")?,
        Err(_) => return Err("missing 'arg_names'".into()),
    };
    let sizes = op
        .attribute(aten_ir::SEGMENTS_ATTR)
        .ok()
        .and_then(ir::dense_i32_values)
        .ok_or("missing operandSegmentSizes")?;
    if sizes.len() != names.len() {
        return Err(format!("{} argument names for {} operand segments", names.len(), sizes.len()));
    }
    let Some(index) = names.iter().position(|n| n == name) else {
        if op.attribute(name).is_ok() {
            return Err(format!("argument '{name}' is a constant; only values computed by the program are supported"));
        }
        return Ok(Vec::new()); // absent: no operands
    };
    if sizes.iter().any(|&s| s < 0) {
        return Err(format!("operandSegmentSizes {sizes:?} has a negative size"));
    }
    let start: usize = sizes[..index].iter().map(|&s| s as usize).sum();
    let count = sizes[index] as usize;
    if start.saturating_add(count) > op.operand_count() {
        return Err("operandSegmentSizes exceeds the operand count".into());
    }
    Ok((start..start + count).filter_map(|i| ir::operand_at(op, i)).collect())
}

/// The type an aten value has once lowered: symbolic scalars (`i64`, `f64`,
/// `i1`) become 1-element tensors, tensors keep their type.
fn lowered_type<'c>(ty: Type<'c>) -> Type<'c> {
    match ir::value_kind(ty) {
        ir::ValueKind::Integer | ir::ValueKind::Float => RankedTensorType::new(&[1], ty, None).into(),
        _ => ty,
    }
}

fn scalar_tensor_type<'c>(element: Type<'c>) -> Type<'c> {
    RankedTensorType::new(&[], element, None).into()
}

/// The single block of region `index` of `op`.
fn region_block<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Result<BlockRef<'c, 'a>, String> {
    let region = op.region(index).map_err(|_| format!("missing region #{index}"))?;
    let block = region.first_block().ok_or_else(|| format!("region #{index} is empty"))?;
    if block.next_in_region().is_some() {
        return Err(format!("region #{index} has more than one block"));
    }
    Ok(block)
}

/// The last op of `block` (MLIR's `terminator()` only knows registered
/// terminators; `aten.yield` and `onnx.yield` are unregistered).
pub fn last_op<'c, 'a>(block: BlockRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let op = unsafe { sys::mlirBlockGetTerminator(block.to_raw()) };
    if !op.ptr.is_null() {
        return Some(unsafe { OperationRef::from_raw(op) });
    }
    let mut last = None;
    let mut next = block.first_operation();
    while let Some(o) = next {
        last = Some(o);
        next = o.next_in_block();
    }
    last
}

/// The `aten.yield` ending `block`.
fn terminator<'c, 'a>(block: BlockRef<'c, 'a>) -> Result<OperationRef<'c, 'a>, String> {
    let term = last_op(block).ok_or("region without a terminator")?;
    if ir::op_name(term) != aten_ir::YIELD_OP {
        return Err(format!("region ends with '{}' instead of aten.yield", ir::op_name(term)));
    }
    Ok(term)
}

/// Builds `op_name` before `at` with empty regions.
fn build_op<'c, 'a>(
    at: OperationRef<'c, 'a>,
    op_name: &str,
    operands: &[Value<'c, '_>],
    attributes: &[(Identifier<'c>, Attribute<'c>)],
    results: &[Type<'c>],
    regions: usize,
) -> Result<OperationRef<'c, 'a>, String> {
    let built = OperationBuilder::new(op_name, at.location())
        .add_operands(operands)
        .add_attributes(attributes)
        .add_results(results)
        .add_regions_vec((0..regions).map(|_| Region::new()).collect())
        .build()
        .map_err(|e| format!("cannot build {op_name}: {e}"))?;
    let block = at.block().ok_or("op is not in a block")?;
    Ok(block.insert_operation_before(at, built))
}

/// Moves the body of `from`'s region `index` into `to`'s region `into`.
fn take_region(from: OperationRef<'_, '_>, index: usize, to: OperationRef<'_, '_>, into: usize) -> Result<(), String> {
    let source = from.region(index).map_err(|_| format!("missing region #{index}"))?;
    let target = to.region(into).map_err(|_| format!("missing region #{into}"))?;
    unsafe { sys::mlirRegionTakeBody(target.to_raw(), source.to_raw()) };
    Ok(())
}

/// Replaces the uses of block arguments `range` of `block` by `outer` and
/// removes those arguments.
fn drop_arguments(block: BlockRef<'_, '_>, first: usize, outer: &[Value<'_, '_>]) -> Result<(), String> {
    if block.argument_count() != first + outer.len() {
        return Err(format!("region has {} block arguments, expected {}", block.argument_count(), first + outer.len()));
    }
    for (i, value) in outer.iter().enumerate() {
        let arg: Value = block.argument(first + i).map_err(|e| e.to_string())?.into();
        unsafe { sys::mlirValueReplaceAllUsesOfWith(arg.to_raw(), value.to_raw()) };
    }
    for i in (first..first + outer.len()).rev() {
        unsafe { sys::mlirBlockEraseArgument(block.to_raw(), i as u32) };
    }
    Ok(())
}

/// Gives the remaining block arguments their lowered types.
fn retype_arguments(block: BlockRef<'_, '_>) -> Result<(), String> {
    for i in 0..block.argument_count() {
        let arg: Value = block.argument(i).map_err(|e| e.to_string())?.into();
        let ty = lowered_type(arg.r#type());
        if ty != arg.r#type() {
            unsafe { sys::mlirValueSetType(arg.to_raw(), ty.to_raw()) };
        }
    }
    Ok(())
}

/// Replaces `block`'s `aten.yield` by `onnx.yield(values)`.
fn replace_terminator<'c>(block: BlockRef<'c, '_>, values: &[Value<'c, '_>]) -> Result<(), String> {
    let old = terminator(block)?;
    let new = OperationBuilder::new(onnx_ir::YIELD_OP, old.location())
        .add_operands(values)
        .build()
        .map_err(|e| format!("cannot build onnx.yield: {e}"))?;
    block.insert_operation_before(old, new);
    unsafe { ir::erase(old) };
    Ok(())
}

/// Replaces every result of `old` by the matching result of `new`.
fn replace_results(old: OperationRef<'_, '_>, new: OperationRef<'_, '_>) -> Result<(), String> {
    if old.result_count() != new.result_count() {
        return Err(format!("{} results replace {}", new.result_count(), old.result_count()));
    }
    for (a, b) in old.results().zip(new.results()) {
        let (a, b): (Value, Value) = (a.into(), b.into());
        unsafe { sys::mlirValueReplaceAllUsesOfWith(a.to_raw(), b.to_raw()) };
    }
    Ok(())
}

fn result_types<'c>(op: OperationRef<'c, '_>) -> Vec<Type<'c>> {
    op.results().map(|r| lowered_type(r.r#type())).collect()
}

/// Copies the ops of `block` (all but its terminator) before `at`, with the
/// block arguments standing for `args`; returns the values the copied
/// terminator yields.
fn inline_copy<'c, 'a>(
    block: BlockRef<'c, '_>,
    args: &[Value<'c, 'a>],
    at: OperationRef<'c, 'a>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    if block.argument_count() != args.len() {
        return Err(format!("region has {} block arguments for {} values", block.argument_count(), args.len()));
    }
    let mut map: HashMap<usize, sys::MlirValue> = HashMap::new();
    for (i, value) in args.iter().enumerate() {
        let arg: Value = block.argument(i).map_err(|e| e.to_string())?.into();
        map.insert(arg.to_raw().ptr as usize, value.to_raw());
    }
    let target = at.block().ok_or("op is not in a block")?;
    let term = terminator(block)?;
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op == term {
            break;
        }
        let clone = unsafe { sys::mlirOperationClone(op.to_raw()) };
        unsafe { sys::mlirBlockInsertOwnedOperationBefore(target.to_raw(), at.to_raw(), clone) };
        let clone = unsafe { OperationRef::from_raw(clone) };
        ir::walk(clone, &mut |inner| {
            for i in 0..inner.operand_count() {
                let Some(operand) = ir::operand_at(inner, i) else { continue };
                if let Some(new) = map.get(&(operand.to_raw().ptr as usize)) {
                    unsafe { sys::mlirOperationSetOperand(inner.to_raw(), i as isize, *new) };
                }
            }
        });
        for (old, new) in op.results().zip(clone.results()) {
            let (old, new): (Value, Value) = (old.into(), new.into());
            map.insert(old.to_raw().ptr as usize, new.to_raw());
        }
    }
    Ok(term
        .operands()
        .map(|v| match map.get(&(v.to_raw().ptr as usize)) {
            Some(new) => unsafe { Value::from_raw(*new) },
            None => unsafe { Value::from_raw(v.to_raw()) },
        })
        .collect())
}

/// `wrap_with_set_grad_enabled(operands...) { body }`: a `with
/// torch.no_grad()` (or `enable_grad()`) block inside the forward (M2M100's
/// sinusoidal positions). Gradient mode changes no value, so the body is
/// inlined before the op, its block arguments standing for the operands.
pub(crate) fn inline_grad_mode(op: OperationRef<'_, '_>) -> Result<(), String> {
    let block = region_block(op, 0)?;
    let operands: Vec<Value> = op.operands().collect();
    let values = inline_copy(block, &operands, op)?;
    if values.len() != op.result_count() {
        return Err(format!("the body yields {} values for {} results", values.len(), op.result_count()));
    }
    for (result, value) in op.results().zip(values) {
        let result: Value = result.into();
        unsafe { sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), value.to_raw()) };
    }
    Ok(())
}

/// `wrap_with_autocast(operands...) { body }`: a `with torch.autocast(...)`
/// block inside the forward. torch.export records the body's ops as written
/// (`matmul(x, w)` of float32 operands) with the result types autocast gave
/// them (bfloat16), so the casts autocast inserts are implied by those types:
/// each floating operand of a body op is cast to the op's floating result
/// type (autocast's lower-precision ops, its float32 ops, and its `promote`
/// ops alike; where ordinary promotion already explains the result, the
/// cast is that promotion). Ops that legitimately take parameters of another
/// floating type than their input (the normalizations: bfloat16 input,
/// float32 weight) are left alone unless their input differs from the
/// result. The recorded types are the authority, so this follows whatever
/// policy the capturing torch applied; a body with autocast disabled
/// (`enabled=False`) has types ordinary promotion explains.
fn inline_autocast(op: OperationRef<'_, '_>) -> Result<(), String> {
    let block = region_block(op, 0)?;
    let opset = onnx_ir::opset_of(op);
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let term = terminator(block)?;
    let mut next = block.first_operation();
    while let Some(inner) = next {
        next = inner.next_in_block();
        if inner == term || !ir::op_name(inner).starts_with(aten_ir::DIALECT_PREFIX) {
            continue;
        }
        apply_autocast_casts(context, inner, opset)?;
    }
    inline_grad_mode(op)
}

/// Normalizations whose weight/bias/statistics may be float32 next to a
/// half input without autocast (their result follows the input).
const MIXED_PARAMETER_OPS: &[&str] = &[
    "aten.layer_norm.default",
    "aten.native_layer_norm.default",
    "aten.group_norm.default",
    "aten.native_group_norm.default",
    "aten.batch_norm.default",
    "aten.native_batch_norm.default",
    "aten._native_batch_norm_legit.default",
    "aten._native_batch_norm_legit.no_stats",
    "aten._native_batch_norm_legit_no_training.default",
    "aten._native_batch_norm_legit_functional.default",
    "aten.instance_norm.default",
    "aten.rms_norm.default",
    "aten._fused_rms_norm.default",
];

/// Rank of a floating element type (`Some` for the real floating types).
fn float_rank(ty: Type<'_>) -> Option<u8> {
    if ty.is_f16() || ty.is_bf16() {
        Some(1)
    } else if ty.is_f32() {
        Some(2)
    } else if ty.is_f64() {
        Some(3)
    } else {
        None
    }
}

fn apply_autocast_casts<'c, 'a>(
    context: &'c melior::Context,
    op: OperationRef<'c, 'a>,
    opset: u32,
) -> Result<(), String> {
    use crate::lowering::builder;
    let name = ir::op_name(op);
    if name.starts_with("aten._to_copy") || name.starts_with("aten.to.") || name.starts_with("aten._assert") {
        return Ok(());
    }
    // One floating result type (ops whose results keep their operands'
    // types, like broadcast_tensors of mixed types, are left alone).
    let results: Vec<Type> =
        op.results().filter_map(|r| builder::element_type(r.r#type())).filter(|t| float_rank(*t).is_some()).collect();
    let Some(&result) = results.first() else { return Ok(()) };
    if results.iter().any(|t| *t != result) {
        return Ok(());
    }
    let floats: Vec<(usize, Type)> = (0..op.operand_count())
        .filter_map(|i| {
            let v = ir::operand_at(op, i)?;
            let t = builder::element_type(v.r#type())?;
            float_rank(t).map(|_| (i, t))
        })
        .collect();
    if MIXED_PARAMETER_OPS.contains(&name.as_str()) && floats.first().is_none_or(|(_, t)| *t == result) {
        return Ok(());
    }
    // Every floating operand to the result type: autocast's own cast where
    // promotion does not explain the result, the promotion itself (which
    // rules then need not repeat) where it does.
    let mut b = crate::lowering::builder::Builder::new(context, op, opset)?;
    b.location = op.location();
    for (i, t) in floats {
        if t != result {
            let v = ir::operand_at(op, i).ok_or("operand out of range")?;
            let cast = b.cast(v, result)?;
            unsafe { sys::mlirOperationSetOperand(op.to_raw(), i as isize, cast.to_raw()) };
        }
    }
    Ok(())
}

/// `cond(pred, operands)` -> `If(pred)`, the branches reading the operands
/// from the outer scope.
fn lower_cond(op: OperationRef<'_, '_>) -> Result<(), String> {
    let pred = segment(op, "pred")?;
    let [pred] = pred.as_slice() else {
        return Err(format!("cond has {} predicate values, expected 1", pred.len()));
    };
    if !matches!(ir::value_kind(pred.r#type()), ir::ValueKind::Tensor | ir::ValueKind::Integer) {
        return Err(format!("cond predicate has type {}, expected a bool tensor or a SymBool", pred.r#type()));
    }
    let operands = segment(op, "operands")?;
    if op.region_count() != 2 {
        return Err(format!("cond has {} regions, expected 2", op.region_count()));
    }
    let new = build_op(op, "onnx.If", &[*pred], &[], &result_types(op), 2)?;
    for index in 0..2 {
        let block = region_block(op, index)?;
        drop_arguments(block, 0, &operands)?;
        let yielded: Vec<Value> = terminator(block)?.operands().collect();
        if yielded.len() != op.result_count() {
            return Err(format!("branch #{index} yields {} values for {} results", yielded.len(), op.result_count()));
        }
        replace_terminator(block, &yielded)?;
        take_region(op, index, new, index)?;
    }
    replace_results(op, new)
}

/// `while_loop(carried, additional)` -> `Loop(none, cond_fn(carried), carried)`
/// whose body ends by computing `cond_fn` on the updated values.
fn lower_while_loop<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<(), String> {
    let carried = segment(op, "carried_inputs")?;
    let additional = segment(op, "additional_inputs")?;
    if op.region_count() != 2 {
        return Err(format!("while_loop has {} regions, expected 2", op.region_count()));
    }
    if carried.len() != op.result_count() {
        return Err(format!("while_loop carries {} values but has {} results", carried.len(), op.result_count()));
    }
    let cond_block = region_block(op, 0)?;
    let body_block = region_block(op, 1)?;
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let bool_type: Type = IntegerType::new(context, 1).into();
    let i64_type: Type = IntegerType::new(context, 64).into();

    // The condition on the initial values.
    let mut args: Vec<Value> = carried.clone();
    args.extend(additional.iter().copied());
    let first = inline_copy(cond_block, &args, op)?;
    let [cond0] = first.as_slice() else {
        return Err(format!("cond_fn yields {} values, expected 1", first.len()));
    };
    let none = OperationBuilder::new(onnx_ir::NONE_OP, op.location())
        .add_results(&[Type::none(context)])
        .build()
        .map_err(|e| e.to_string())?;
    let block = op.block().ok_or("op is not in a block")?;
    let none: Value = ir::result_at(block.insert_operation_before(op, none), 0).ok_or("onnx.none has no result")?;
    let mut operands = vec![none, *cond0];
    operands.extend(carried.iter().copied());
    let new = build_op(op, "onnx.Loop", &operands, &[], &result_types(op), 1)?;

    // The body: (iteration_num, cond, carried...) -> (cond_fn(updated), updated...).
    drop_arguments(body_block, carried.len(), &additional)?;
    let term = terminator(body_block)?;
    let updated: Vec<Value> = term.operands().collect();
    if updated.len() != carried.len() {
        return Err(format!("body_fn yields {} values for {} carried values", updated.len(), carried.len()));
    }
    let mut args = updated.clone();
    args.extend(additional.iter().copied());
    let next = inline_copy(cond_block, &args, term)?;
    let [cond_next] = next.as_slice() else {
        return Err(format!("cond_fn yields {} values, expected 1", next.len()));
    };
    let mut yielded = vec![*cond_next];
    yielded.extend(updated.iter().copied());
    replace_terminator(body_block, &yielded)?;
    retype_arguments(body_block)?;
    let location = Location::unknown(context);
    unsafe {
        sys::mlirBlockInsertArgument(body_block.to_raw(), 0, scalar_tensor_type(i64_type).to_raw(), location.to_raw());
        sys::mlirBlockInsertArgument(body_block.to_raw(), 1, scalar_tensor_type(bool_type).to_raw(), location.to_raw());
    }
    take_region(op, 1, new, 0)?;
    replace_results(op, new)
}

/// `scan(init, xs, additional)` -> `Scan(init..., xs...)`; `map_impl(xs,
/// pos_args)` -> `Scan(xs...)` without state. Both iterate over dim 0 of
/// each `xs` (torch moves another `dim` there and flips for `reverse`
/// outside the op).
fn lower_scan(op: OperationRef<'_, '_>, with_state: bool) -> Result<(), String> {
    let (init, xs, additional) = if with_state {
        (segment(op, "init")?, segment(op, "xs")?, segment(op, "additional_inputs")?)
    } else {
        (Vec::new(), segment(op, "xs")?, segment(op, "pos_args")?)
    };
    if op.region_count() != 1 {
        return Err(format!("{} has {} regions, expected 1", ir::op_name(op), op.region_count()));
    }
    if xs.is_empty() {
        return Err("scanning no tensors: ONNX Scan needs at least one scan input".into());
    }
    for x in &xs {
        match crate::lowering::builder::dims(x.r#type()) {
            Some(d) if !d.is_empty() => {}
            _ => return Err(format!("scan input of type {} has no leading dim to iterate over", x.r#type())),
        }
    }
    if op.result_count() < init.len() {
        return Err(format!("{} results for {} state values", op.result_count(), init.len()));
    }
    let block = region_block(op, 0)?;
    let context_ref = op.context();
    let context = unsafe { context_ref.to_ref() };
    let mut operands = init.clone();
    operands.extend(xs.iter().copied());
    let attrs = [(
        Identifier::new(context, "num_scan_inputs"),
        IntegerAttribute::new(IntegerType::new(context, 64).into(), xs.len() as i64).into(),
    )];
    let new = build_op(op, "onnx.Scan", &operands, &attrs, &result_types(op), 1)?;
    drop_arguments(block, init.len() + xs.len(), &additional)?;
    let yielded: Vec<Value> = terminator(block)?.operands().collect();
    if yielded.len() != op.result_count() {
        return Err(format!("the body yields {} values for {} results", yielded.len(), op.result_count()));
    }
    replace_terminator(block, &yielded)?;
    retype_arguments(block)?;
    take_region(op, 0, new, 0)?;
    replace_results(op, new)
}
