//! After extraction, target `onnxruntime` only: an `Add(x, skip)` beside a
//! one-result `com.microsoft.Skip(Simplified)LayerNormalization(x, skip, ...)`
//! of the same operands becomes the op's fourth output
//! (`input_skip_bias_sum`, bit-identical to the Add in onnxruntime 1.32):
//! the residual stream of a pre-norm transformer costs no node of its own.
//!
//! A rewrite with several results, done on the rebuilt block rather than in
//! the e-graph: greedy extraction settles the cheap Add before a projection
//! of the bigger four-result op could compete with it. The new op's outputs
//! 1 and 2 (mean, inverse standard deviation: float32 with the last dim 1)
//! are computed and unused. Only ops without the bias input (the rules
//! never give one) are rewritten, so the sum is exactly `x + skip`.

use crate::{
    ir,
    shape::{shape_of, tensor_type, Dim},
};
use melior::ir::{
    attribute::Attribute,
    operation::{OperationBuilder, OperationLike},
    BlockLike, BlockRef, Identifier, OperationRef, Type, Value, ValueLike,
};
use mlir_sys as sys;
use std::collections::HashMap;

const SKIP_OPS: &[&str] = &["onnx.ms.SkipSimplifiedLayerNormalization", "onnx.ms.SkipLayerNormalization"];

fn key(a: Value<'_, '_>, b: Value<'_, '_>) -> (usize, usize) {
    let (a, b) = (a.to_raw().ptr as usize, b.to_raw().ptr as usize);
    (a.min(b), a.max(b))
}

/// The type of the mean / inverse standard deviation outputs: `ty` with
/// its last dim 1, float32.
fn stat_type<'c>(context: &'c melior::Context, ty: Type<'c>) -> Option<Type<'c>> {
    let mut shape = shape_of(ty)?;
    *shape.last_mut()? = Dim::Static(1);
    Some(tensor_type(context, &shape, Type::float32(context)))
}

/// Rewrites every such pair in `block`; returns how many (each removes one op).
/// Rounds repeat until none is found: a rewrite replaces a value other pairs
/// may read (the residual stream chains them), and a round keys its Adds by
/// the values as they were when it began.
pub fn share_skip_sums(block: BlockRef<'_, '_>) -> usize {
    let mut total = 0;
    loop {
        let n = one_round(block);
        total += n;
        if n == 0 {
            return total;
        }
    }
}

fn one_round(block: BlockRef<'_, '_>) -> usize {
    let mut order: Vec<OperationRef> = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        order.push(op);
    }
    let position: HashMap<usize, usize> =
        order.iter().enumerate().map(|(i, op)| (op.to_raw().ptr as usize, i)).collect();
    let mut adds: HashMap<(usize, usize), Vec<OperationRef>> = HashMap::new();
    let mut skips: Vec<(OperationRef, String)> = Vec::new();
    for &op in &order {
        let name = ir::op_name(op);
        if name == "onnx.Add" && op.operand_count() == 2 && op.result_count() == 1 {
            let (Some(a), Some(b)) = (ir::operand_at(op, 0), ir::operand_at(op, 1)) else { continue };
            adds.entry(key(a, b)).or_default().push(op);
        } else if SKIP_OPS.contains(&name.as_str()) {
            skips.push((op, name));
        }
    }
    // Only the skip op being rewritten and an Add taken out of `adds` are
    // erased: no erased op is visited again.
    let mut rewritten = 0;
    for (op, name) in skips {
        let bias_free = match name.as_str() {
            "onnx.ms.SkipSimplifiedLayerNormalization" => op.operand_count() == 3,
            "onnx.ms.SkipLayerNormalization" => matches!(op.operand_count(), 3 | 4),
            _ => false,
        };
        if !bias_free || op.result_count() != 1 {
            continue;
        }
        let (Some(x), Some(skip), Some(out)) = (ir::operand_at(op, 0), ir::operand_at(op, 1), ir::result_at(op, 0))
        else {
            continue;
        };
        let Some(candidates) = adds.get_mut(&key(x, skip)) else { continue };
        let Some(at) = candidates.iter().position(|add| {
            ir::result_at(*add, 0).is_some_and(|s| s.r#type() == x.r#type() && s.r#type() == skip.r#type())
        }) else {
            continue;
        };
        let add = candidates.remove(at);
        let context_ref = op.context();
        let context = unsafe { context_ref.to_ref() };
        let (Some(sum), Some(stat)) = (ir::result_at(add, 0), stat_type(context, out.r#type())) else { continue };
        let operands: Vec<Value> = op.operands().collect();
        let attrs: Vec<(Identifier, Attribute)> = op.attributes().collect();
        let Ok(fused) = OperationBuilder::new(&name, op.location())
            .add_operands(&operands)
            .add_attributes(&attrs)
            .add_results(&[out.r#type(), stat, stat, sum.r#type()])
            .build()
        else {
            continue;
        };
        let first =
            if position[&(add.to_raw().ptr as usize)] < position[&(op.to_raw().ptr as usize)] { add } else { op };
        // The fused op goes where the first of the two was; gamma and beta
        // (defined before the skip op, perhaps after the Add) must come
        // before it: ops without operands (initializers, constants) are
        // moved up, anything else leaves the pair as it is.
        let first_at = position[&(first.to_raw().ptr as usize)];
        let mut movable = Vec::new();
        let params_ok = operands[2..].iter().all(|v| {
            let def = unsafe {
                if !sys::mlirValueIsAOpResult(v.to_raw()) {
                    return true; // a block argument
                }
                OperationRef::from_raw(sys::mlirOpResultGetOwner(v.to_raw()))
            };
            match position.get(&(def.to_raw().ptr as usize)) {
                Some(&at) if at > first_at => {
                    movable.push(def);
                    def.operand_count() == 0 && def.region_count() == 0
                }
                _ => true,
            }
        });
        if !params_ok {
            continue;
        }
        for def in movable {
            unsafe { sys::mlirOperationMoveBefore(def.to_raw(), first.to_raw()) };
        }
        let fused = block.insert_operation_before(first, fused);
        let (Some(new_out), Some(new_sum)) = (ir::result_at(fused, 0), ir::result_at(fused, 3)) else { continue };
        unsafe {
            sys::mlirValueReplaceAllUsesOfWith(out.to_raw(), new_out.to_raw());
            sys::mlirValueReplaceAllUsesOfWith(sum.to_raw(), new_sum.to_raw());
            ir::erase(op);
            ir::erase(add);
        }
        rewritten += 1;
    }
    rewritten
}
