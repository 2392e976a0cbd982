//! `dce`: removes aten and onnx ops whose results are unused and that have no
//! side effects. MLIR's canonicalize and cse keep unregistered ops (they may
//! have side effects as far as MLIR knows), so the project needs its own.
//!
//! An aten op has side effects when its schema writes an argument (inplace
//! and out= variants, read from the registry's alias annotations) or it is a
//! higher-order op; onnx ops never do.

use crate::{
    aten_ir::{self, AtenOp},
    ir::{self, has_uses},
    onnx_ir, Factory, PassId, PassInfo, ProjectPass,
};
use melior::ir::{operation::OperationLike, OperationRef};

static ID: PassId = PassId::new();

pub const INFO: PassInfo = PassInfo {
    name: "dce",
    summary: "Remove unused side-effect-free aten and onnx ops",
    options: &[],
    create: |_| Ok(Box::new(Factory { pass: Dce, id: &ID, info: &INFO })),
};

#[derive(Clone)]
struct Dce;

impl ProjectPass for Dce {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()> {
        run_dce(op);
        Ok(())
    }
}

/// True when `op` may be erased once its results are unused.
pub fn is_removable(op: OperationRef<'_, '_>) -> bool {
    let name = ir::op_name(op);
    if name.starts_with(onnx_ir::DIALECT_PREFIX) {
        return true;
    }
    if !name.starts_with(aten_ir::DIALECT_PREFIX) {
        return false;
    }
    match aten_ir::classify(&name) {
        Ok(AtenOp::Registered(schema)) => schema.is_functional(),
        Ok(AtenOp::Weight | AtenOp::None | AtenOp::SymConstant | AtenOp::Sym(_)) => true,
        // A custom op's translation is pure ONNX, but the op itself may have
        // effects torch did not record: kept.
        Ok(AtenOp::HigherOrder | AtenOp::Yield | AtenOp::Custom) | Err(_) => false,
    }
}

/// Erases dead ops nested in `op` until none is left. Returns how many.
pub fn run_dce(op: OperationRef<'_, '_>) -> usize {
    let mut erased = 0;
    loop {
        let mut round = 0;
        // Children before parents, last ops first: a chain of dead ops goes
        // in one sweep.
        let mut ops = Vec::new();
        ir::walk(op, &mut |inner| ops.push(inner));
        for candidate in ops.into_iter().skip(1).rev() {
            if candidate.result_count() > 0
                && is_removable(candidate)
                && !candidate.results().any(|r| has_uses(r.into()))
            {
                // SAFETY: `candidate` is not referenced again; ops nested in
                // it come after it in pre-order, so they were visited first.
                unsafe { ir::erase(candidate) };
                round += 1;
            }
        }
        if round == 0 {
            return erased;
        }
        erased += round;
    }
}
