//! `onnx-cse`: merges onnx ops that compute the same thing (same op,
//! operands, attributes and result types) in a block, or with an op of an
//! enclosing block that dominates it (see [`run_cse`]). MLIR's `cse` skips
//! unregistered ops, which it must assume have side effects; onnx ops do not
//! (random ops are never merged: each is its own draw).

use crate::{ir, onnx_ir, Factory, PassId, PassInfo, ProjectPass};
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use mlir_sys as sys;
use std::collections::HashMap;

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "onnx-cse",
    summary: "Merge identical onnx ops (same op, operands, attributes, result types)",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: OnnxCse, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct OnnxCse;

impl ProjectPass for OnnxCse {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        run_cse(op);
        Ok(())
    }
}

/// The identity of what an op computes: the op name, operands, attributes
/// (names and values) and result types. Names, attributes and types are
/// uniqued in the MLIR context, so their storage addresses identify them
/// (equal addresses if and only if equal values); no text is printed.
type Signature = Vec<usize>;

fn signature(op: OperationRef<'_, '_>) -> Signature {
    use melior::ir::{attribute::AttributeLike, r#type::TypeLike};
    let mut key = Vec::with_capacity(2 + op.operand_count() + 2 * op.attribute_count() + op.result_count());
    key.push(op.name().to_raw().ptr as usize);
    key.push(op.operand_count());
    for operand in op.operands() {
        key.push(operand.to_raw().ptr as usize);
    }
    key.push(op.attribute_count());
    for (name, value) in op.attributes() {
        key.push(name.to_raw().ptr as usize);
        key.push(value.to_raw().ptr as usize);
    }
    for result in op.results() {
        key.push(result.r#type().to_raw().ptr as usize);
    }
    key
}

/// Merges duplicates in every block under `root`; returns how many went.
///
/// Scopes follow dominance: an op may be replaced by an identical op
/// earlier in its block, or earlier in an enclosing block (before the op
/// whose region holds it: an If branch or a Loop body may reuse a constant
/// of the function body, which ONNX subgraphs read by name). Blocks of
/// different regions (an If's two branches) never share a scope, and no op
/// moves into or out of a region.
pub fn run_cse(root: OperationRef<'_, '_>) -> usize {
    let mut dead = Vec::new();
    for block_ops in blocks_of(root) {
        cse_block(&block_ops, &HashMap::new(), &mut dead);
    }
    let merged = dead.len();
    for op in dead {
        unsafe { ir::erase(op) };
    }
    merged
}

/// CSE over one block's ops, seeing the ops of enclosing blocks in `outer`.
fn cse_block<'c, 'a>(
    ops: &[OperationRef<'c, 'a>],
    outer: &HashMap<Signature, OperationRef<'c, 'a>>,
    dead: &mut Vec<OperationRef<'c, 'a>>,
) {
    let mut seen = outer.clone();
    for &op in ops {
        if op.region_count() > 0 {
            for block_ops in blocks_of(op) {
                cse_block(&block_ops, &seen, dead);
            }
            continue;
        }
        let name = ir::op_name(op);
        if !name.starts_with(onnx_ir::DIALECT_PREFIX)
            || name == onnx_ir::INITIALIZER_OP
            || op.result_count() == 0
            || is_random(&name)
        {
            continue;
        }
        let key = signature(op);
        match seen.get(&key) {
            Some(first) => {
                for (old, new) in op.results().zip(first.results()) {
                    let (old, new): (Value, Value) = (old.into(), new.into());
                    unsafe { sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
                }
                dead.push(op);
            }
            None => {
                seen.insert(key, op);
            }
        }
    }
}

/// The ops of each block of each region of `op`, one list per block.
fn blocks_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<Vec<OperationRef<'c, 'a>>> {
    use melior::ir::{BlockLike, RegionLike};
    let mut out = Vec::new();
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut ops = Vec::new();
            let mut next = b.first_operation();
            while let Some(o) = next {
                ops.push(o);
                next = o.next_in_block();
            }
            out.push(ops);
            block = b.next_in_region();
        }
    }
    out
}

/// Ops that draw random numbers: two of them are two draws, never merged
/// (`Dropout` in training mode is the random source of the lowered random
/// ops, rules/helpers/random_common.rs).
fn is_random(name: &str) -> bool {
    matches!(
        name.strip_prefix(onnx_ir::DIALECT_PREFIX),
        Some(
            "RandomNormal"
                | "RandomNormalLike"
                | "RandomUniform"
                | "RandomUniformLike"
                | "Bernoulli"
                | "Multinomial"
                | "Dropout"
        )
    )
}
