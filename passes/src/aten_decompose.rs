//! `aten-decompose`: rewrites aten ops into simpler aten ops with the
//! decompositions of `decompositions/` (PyTorch's documented decompositions
//! as the reference semantics).
//!
//! Which ops: by default those without a lowering rule for `opset` (what
//! `aten-translate` runs: graphs stay as close to the source as the rules
//! allow); `ops=a,b` decomposes these too; `legal-ops=a,b` replaces the
//! default: every op not listed is decomposed when it has a decomposition
//! (torch-mlir's convention). An op listed in both is an error. Ops a
//! decomposition builds are decomposed in turn when they qualify (at most
//! [`MAX_ROUNDS`] rounds). Ops without a decomposition are left alone: the
//! lowering reports those it cannot lower.
//!
//! The ops built keep the decomposed op's location under the name
//! `<node>/decomposed`, so errors still name the node and its Python line.

use crate::{
    aten_ir::{self, AtenOp},
    decompositions::{self, Dx},
    diag::op_error,
    ir,
    lowering::{self, MAX_OPSET, MIN_OPSET},
    onnx_ir, Factory, PassId, PassInfo, PassOption, PassOptions, ProjectPass,
};
use melior::ir::{operation::OperationLike, OperationRef, Value, ValueLike};
use mlir_sys as sys;
use std::collections::BTreeSet;

static ID: PassId = PassId::new();

/// Rounds of decomposition (a decomposition's ops decomposed in turn).
pub const MAX_ROUNDS: usize = 8;

pub const INFO: PassInfo = PassInfo {
    name: "aten-decompose",
    summary:
        "Decompose aten ops without a lowering rule (or listed) into simpler aten ops (passes/lowering/src/decompositions/)",
    options: &[
        PassOption { name: "ops", help: "ops to decompose even though they have a rule, separated by ','" },
        PassOption {
            name: "legal-ops",
            help: "ops to keep, separated by ','; when given, every other op with a decomposition is decomposed",
        },
        PassOption { name: "opset", help: "the opset whose rules decide which ops need decomposing (default 23)" },
    ],
    create,
};

fn op_list(options: &PassOptions, key: &str) -> Result<Option<BTreeSet<String>>, String> {
    let Some(text) = options.get(key) else { return Ok(None) };
    let mut set = BTreeSet::new();
    for name in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if let Err(why) = aten_ir::classify(name) {
            return Err(format!("aten-decompose: '{name}' in '{key}' {why}"));
        }
        set.insert(name.to_string());
    }
    Ok(Some(set))
}

fn create(options: &PassOptions) -> Result<Box<dyn crate::PassFactory>, String> {
    let opset = match options.get("opset") {
        Some(text) => text.parse::<u32>().map_err(|_| format!("aten-decompose: opset '{text}' is not a number"))?,
        None => onnx_ir::DEFAULT_OPSET,
    };
    if !(MIN_OPSET..=MAX_OPSET).contains(&opset) {
        return Err(format!("aten-decompose: opset {opset} is outside the supported range {MIN_OPSET}..{MAX_OPSET}"));
    }
    let ops = op_list(options, "ops")?.unwrap_or_default();
    for name in &ops {
        if decompositions::find(name).is_none() {
            return Err(format!("aten-decompose: '{name}' has no decomposition (see aten-opt --list-decompositions)"));
        }
    }
    let legal = op_list(options, "legal-ops")?;
    if let Some(both) = legal.as_ref().and_then(|l| l.intersection(&ops).next()) {
        return Err(format!("aten-decompose: '{both}' is both in 'ops' and in 'legal-ops'"));
    }
    Ok(Box::new(Factory { pass: Decompose { opset, ops, legal }, id: &ID, info: &INFO }))
}

#[derive(Clone)]
pub struct Decompose {
    pub opset: u32,
    /// Decomposed even with a rule.
    pub ops: BTreeSet<String>,
    /// When given, the only ops kept.
    pub legal: Option<BTreeSet<String>>,
}

impl Decompose {
    /// True when `target` is to be decomposed (if it has a decomposition).
    pub fn wants(&self, target: &str) -> bool {
        if self.ops.contains(target) {
            return true;
        }
        match &self.legal {
            Some(legal) => !legal.contains(target),
            None => !lowering::rule(target).is_some_and(|r| r.supports(self.opset)),
        }
    }
}

impl ProjectPass for Decompose {
    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), ()> {
        // SAFETY: the context outlives every op of the module.
        let context_ref = root.context();
        let context = unsafe { context_ref.to_ref() };
        for _ in 0..MAX_ROUNDS {
            let mut todo = Vec::new();
            ir::walk(root, &mut |op| {
                let name = ir::op_name(op);
                if let Ok(AtenOp::Registered(schema)) = aten_ir::classify(&name) {
                    if self.wants(&name) {
                        if let Some(d) = decompositions::find(&name) {
                            todo.push((op, schema, d));
                        }
                    }
                }
            });
            if todo.is_empty() {
                return Ok(());
            }
            for (op, schema, d) in todo {
                let done =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| decompose_one(context, op, schema, d)))
                        .unwrap_or_else(
                            |_| Err("internal error in its decomposition (a bug, please report it)".into()),
                        );
                if let Err(message) = done {
                    op_error(op, &format!("cannot be decomposed: {message}"));
                    return Err(());
                }
            }
        }
        let mut left = Vec::new();
        ir::walk(root, &mut |op| {
            let name = ir::op_name(op);
            if self.wants(&name) && decompositions::find(&name).is_some() {
                left.push(op);
            }
        });
        match left.first() {
            Some(op) => {
                op_error(*op, &format!("is still decomposable after {MAX_ROUNDS} rounds (a decomposition cycle)"));
                Err(())
            }
            None => Ok(()),
        }
    }
}

fn decompose_one<'c, 'a>(
    context: &'c melior::Context,
    op: OperationRef<'c, 'a>,
    schema: &'static aten2onnx_dialects::aten::OpSchema,
    d: &decompositions::Decomposition,
) -> Result<(), String> {
    let dx = Dx::new(context, op, schema)?;
    let values: Vec<Value<'c, 'a>> = (d.decompose)(&dx)?;
    if values.len() != op.result_count() {
        return Err(format!(
            "decomposition bug: {} value(s) for {} result(s) (passes/lowering/src/decompositions/{})",
            values.len(),
            op.result_count(),
            decompositions::file_of(d.target).unwrap_or("?")
        ));
    }
    for (i, value) in values.iter().enumerate() {
        let result = ir::result_at(op, i).ok_or("the op lost a result")?;
        if value.r#type() != result.r#type() {
            return Err(format!(
                "decomposition bug: result {i} has type {} but the op's is {} (passes/lowering/src/decompositions/{})",
                value.r#type(),
                result.r#type(),
                decompositions::file_of(d.target).unwrap_or("?")
            ));
        }
    }
    for (i, value) in values.into_iter().enumerate() {
        let result = ir::result_at(op, i).ok_or("the op lost a result")?;
        unsafe {
            // The op giving a result takes the node's own location, so that
            // `--verify` compares it with the node's value in libtorch.
            if sys::mlirValueIsAOpResult(value.to_raw()) {
                let owner = sys::mlirOpResultGetOwner(value.to_raw());
                if dx.is_built(owner) {
                    sys::mlirOperationSetLocation(owner, op.location().to_raw());
                }
            }
            sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), value.to_raw());
        }
    }
    // SAFETY: every use was replaced and `op` is not used afterwards.
    unsafe { ir::erase(op) };
    Ok(())
}
