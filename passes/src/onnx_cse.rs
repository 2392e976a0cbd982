//! `onnx-cse`: merges onnx ops that compute the same thing (same op,
//! operands, attributes and result types) in a block. MLIR's `cse` skips
//! unregistered ops, which it must assume have side effects; onnx ops do not.

use crate::{
    ir::{self, nested_ops},
    onnx_ir, Factory, PassId, PassInfo, ProjectPass,
};
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

/// The identity of what an op computes.
fn signature(op: OperationRef<'_, '_>) -> String {
    let mut key = ir::op_name(op);
    for operand in op.operands() {
        key.push_str(&format!("|{:x}", operand.to_raw().ptr as usize));
    }
    for (name, value) in op.attributes() {
        key.push_str(&format!("|{}={}", name.as_string_ref().as_str().unwrap_or(""), value));
    }
    for result in op.results() {
        key.push_str(&format!("|{}", result.r#type()));
    }
    key
}

/// Merges duplicates in every block under `root`; returns how many went.
pub fn run_cse(root: OperationRef<'_, '_>) -> usize {
    let mut merged = 0;
    for op in nested_ops(root) {
        merged += run_cse(op);
    }
    // One scope per block: ops of `root`'s regions, in order.
    let mut seen: HashMap<String, OperationRef> = HashMap::new();
    let mut dead = Vec::new();
    for op in nested_ops(root) {
        let name = ir::op_name(op);
        if !name.starts_with(onnx_ir::DIALECT_PREFIX) || op.region_count() > 0 || name == onnx_ir::INITIALIZER_OP {
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
    merged += dead.len();
    for op in dead {
        unsafe { ir::erase(op) };
    }
    merged
}
